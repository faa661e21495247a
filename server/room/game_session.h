#pragma once
// The game side of a room, without the network: the authoritative engine State, its version, one
// view per recipient with the Diffs recently sent for it, and the messages built from them
// (Snapshot, Diff, the results for GameOver). A room holds one once its game has started and
// keeps membership, storage and sending to itself, so this class does no I/O, reads no clock and
// takes no lock (its room calls it from the room's strand only).
//
// Versions: the position at the start is version 1 and every applied action adds one for every
// recipient, even when its view did not change (the Diff is then empty), so one number names a
// point of the game for everyone. A take-back is one version more too, so the version is always
// 1 + the actions in the log + 2 for each move taken back (its move and its taking back): live and
// restored alike (version()), so a client that held a version before a restart holds the position
// the restored game names with that number, and a Resync from it is answered right.
//
// Views: one per seat (view index = seat) and one shared by every spectator (view index
// num_seats). The spectators' view is built and diffed only while someone watches (SetWatched):
// nobody would receive it otherwise. The last Diffs of each view (at most kDiffHistory, and
// HistoryBudget bytes) are kept for ResyncFor; an older version gets a Snapshot. A restored
// session has no history: every client resuming from the version it was restored at, or an
// older one, gets a Snapshot (even at that very version: the moves a waiting seat holds were
// sent by the session that played them, which the restored one cannot know).
//
// Accepting an action is one call, Submit, which parses, validates and applies it once and builds
// the frames to send; the caller makes the action durable and only then sends them. If storing
// fails, Undo puts everything back as it was before the action.
//
// Taking back (TakeBack) is a player's request, not a failure: once the room allows it (SetUndo),
// the seat whose own move is the last one may take it back while nothing was applied after it and
// the engine said it revealed nothing (State::TakeBackSafe, asked before the move). The position
// before it is the replay of the log without it; it is one more version for everyone, with its
// Diffs. Each view's Diff and Snapshot say whether its seat may take back now (`can_undo`).
#include <google/protobuf/message.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/bot.h"
#include "engine/core/game.h"
#include "plateau/v1/protocol.pb.h"
#include "server/lobby/connection.h"

namespace plateau::server {

class GameSession {
 public:
  static constexpr size_t kDiffHistory = 64;
  // Diffs kept per view, in bytes, at most (see HistoryBudget).
  static constexpr size_t kDiffHistoryBytes = 8 * 1024;
  // The stack block the views of one action are built in (more spills to the heap).
  static constexpr size_t kArenaBlockBytes = 32 * 1024;

  // What applying one action produced.
  struct Applied {
    uint32_t action_index = 0;        // its place in the game's log
    std::vector<SharedBuffer> diffs;  // one Diff frame per view, by view index (null for the
                                      // spectators' view while nobody watches)
    bool game_over = false;
    // What the store keeps (seat and the action's bytes; its time and text are left to the
    // caller, the text being for readers, off the hot path) and the parsed action.
    plateau::v1::ReplayAction logged;
    std::shared_ptr<const engine::Message> action;
  };

  // A new game; refused with the engine's code for options or a seat count the game rejects.
  static engine::StatusOr<std::unique_ptr<GameSession>> Start(const engine::Game& game,
                                                              std::string room_id, int num_seats,
                                                              std::string_view options,
                                                              uint64_t seed);
  // The position a stored log reached; refused with the index of the first action the rules
  // refuse (the log was not written by this build of the game).
  // `last_by_player`: the log's last action was its seat's player's own (see Submit).
  // `taken_back`: the moves taken back in the game (see version()); `taken_back_last`: the last
  // of them was taken back after the log's last action, so nobody may take back now, as live.
  static engine::StatusOr<std::unique_ptr<GameSession>> Restore(
      const engine::Game& game, std::string room_id, int num_seats, std::string_view options,
      uint64_t seed, const std::vector<engine::LoggedAction>& log,
      const std::function<void(size_t, const engine::State&)>& after_each = nullptr,
      bool last_by_player = false, uint64_t taken_back = 0, bool taken_back_last = false);

  GameSession(const GameSession&) = delete;
  GameSession& operator=(const GameSession&) = delete;

  const engine::State& state() const { return *state_; }
  uint64_t version() const { return 1 + state_->History().size() + 2 * taken_back_; }
  bool over() const { return state_->IsTerminal(); }
  size_t num_views() const { return views_.size(); }
  // The view a recipient receives: its seat's, or the spectators' for any negative seat.
  size_t ViewIndex(int seat) const;
  // The whole view a recipient holds now (a copy: the session may keep it in parts).
  std::unique_ptr<google::protobuf::Message> view(size_t view_index) const;

  // What a bot in `seat` is given to think with, which is all it may know: at the easy level a copy
  // of the seat's view (what a client in that seat holds), at the normal level a position drawn
  // from that view (State::SampleForSeat with `seed`: whatever the seat cannot see redrawn, the
  // history dropped). Never the position itself. Exactly one of the two is set.
  struct BotSight {
    std::shared_ptr<const google::protobuf::Message> view;
    std::shared_ptr<const engine::State> sample;
  };
  BotSight SightFor(int seat, engine::BotLevel level, uint64_t seed) const;

  // Applies the action `seat` sent when the rules accept it now (validated once, by the engine's
  // Apply); otherwise the refusal to send back, and nothing changed.
  // `by_player`: the seat's player chose it (not a bot, a clock or the server), which only may be
  // taken back. `timed_out`: the turn timer plays for the seat (the engine logs it before the move).
  // `origin`: how the move was made, named with its seat in the Diffs (see MoverTold) and kept
  // in `logged`.
  engine::StatusOr<Applied> Submit(int seat, std::string_view action_bytes, bool by_player = true,
                                   bool timed_out = false,
                                   plateau::v1::ActionOrigin origin = plateau::v1::ORIGIN_PLAYER);
  // Whether a seat may take back its last move at all (the room's option); off by default.
  void SetUndo(bool allowed) { undo_allowed_ = allowed; }
  // Ok when `seat` may take back the last move now, else why not (a code of error_codes.h and a
  // reason that names no hidden thing: the move's kind is public, the seat made it).
  engine::Status CanTakeBack(int seat) const;
  // Takes back the last move (CanTakeBack said ok): the position before it, one version more, the
  // Diffs to it. `action_index` is the index the move had (the next move takes it again).
  Applied TakeBack();
  // Whether anyone watches: the spectators' view is kept up to date only then. Turning it on
  // rebuilds that view from the position (its watchers start from a Snapshot).
  void SetWatched(bool watched);
  bool watched() const { return watched_; }

  // Takes back the last Submit (its storing failed): position, version, views and kept Diffs are
  // as before it. Replays the game from its log: the rare path, not the hot one. (A player's
  // take-back is TakeBack.)
  void Undo();
  // The log index the next applied action takes.
  uint32_t next_action_index() const;

  SharedBuffer SnapshotFor(size_t view_index) const;
  // What a recipient holding `have_version` needs to catch up, in order: the Diffs it missed when
  // all of them are still kept, else a Snapshot; nothing when it is up to date.
  std::vector<SharedBuffer> ResyncFor(size_t view_index, uint64_t have_version) const;
  // Bytes of Diffs a view keeps now (the newest is kept whatever its size): the view's own size
  // without its log, at most kDiffHistoryBytes. Diffs beyond that would cost a resyncing
  // recipient about as much as the Snapshot, which adds only the log, and they cost the room's
  // memory on every view of every game.
  size_t HistoryBudget(size_t view_index) const;

  // One per seat: score, rank and detail (the names are the room's). Meaningful once over().
  std::vector<plateau::v1::SeatResult> Results() const;

 private:
  struct SentDiff {
    uint64_t from_version;
    SharedBuffer frame;
  };

  GameSession(std::string room_id, std::unique_ptr<engine::State> state, uint64_t taken_back,
              std::string options, uint64_t seed);

  const std::string room_id_;
  const std::string options_;  // what Undo replays with
  const uint64_t seed_;
  bool watched_ = false;
  std::unique_ptr<engine::State> state_;
  // The position's acting seats, asked once per position (its Diffs carry them; the next move's
  // mover is named from them).
  std::vector<int> acting_;
  uint64_t taken_back_;  // moves taken back in the game (see version())
  // The version a restored session started at (0: started): see ResyncFor.
  uint64_t restored_version_ = 0;
  // What each recipient holds, per seat then the spectators': the view (or, for a game that
  // splits it, the private part) serialized without its log, and the seqs of the log entries it
  // holds (entries are appended and dropped, never diffed; after each action they are the
  // entries of the engine's log the recipient may read, so only their seqs are kept). Kept as
  // bytes: diffed as bytes, and a fraction of the memory of the messages. The shared public part
  // likewise, when the game has one.
  struct Held {
    std::string rest;
    std::vector<uint64_t> log;
    // The seat's moves of its last turn (Table.moves, serialized as the table's fields), kept
    // in its view while it may not act (Table.moves_held), and whether the view held (`rest`)
    // has the seat's moves of this turn in it (`moves_live`: taken out of it when the turn
    // ends); what both were before the latest action, for Undo and TakeBack.
    std::string moves, moves_before;
    bool moves_changed = false;
    bool moves_live = false, moves_live_before = false;
    void BeginAction() {
      moves_changed = false;
      moves_live_before = moves_live;
      // Only the latest action can be taken back: what was held before the previous one goes,
      // with its buffer (a room's held moves are the largest part of its memory).
      std::string().swap(moves_before);
    }
    // Back to the moves held before the latest action.
    void RestoreMoves() {
      if (moves_changed) moves.swap(moves_before);
      moves_changed = false;
      moves_live = moves_live_before;
    }
  };
  std::vector<Held> views_;
  bool splits_ = false;
  std::string public_;
  const google::protobuf::Descriptor* type_ = nullptr;
  // Sets views_[view_index] from the position.
  void Hold(size_t view_index);
  // The seat a view is for: its index, or kSpectator for the spectators' view.
  int Reader(size_t view_index) const;
  // The view's `table` (the core's part: questions and log).
  const google::protobuf::FieldDescriptor* table_field_ = nullptr;
  plateau::v1::Table* TableOf(google::protobuf::Message& view) const;
  // The `moves` fields of the table in `view_bytes` (a view as held), as they are written there.
  void MovesOf(const std::string& view_bytes, std::string* out) const;
  // The Diff frame of the current version for a recipient: the ops every recipient shares, then
  // its own (both serialized as ViewDiff's `ops` fields).
  // Who made the version's move, as its Diffs name it: `seat` -1 for none.
  struct Mover {
    int seat = -1;
    plateau::v1::ActionOrigin origin = plateau::v1::ORIGIN_PLAYER;
    // By view index: whether that view is told who moved (MoverTold).
    std::vector<bool> told;
    bool taken_back = false;  // the version takes that seat's move back
  };
  SharedBuffer DiffFrame(const std::string& shared_ops, const std::string& own_ops,
                         const std::vector<int>& acting, bool game_over, bool can_undo,
                         int mover_seat, plateau::v1::ActionOrigin origin,
                         bool taken_back) const;
  // After the position changed and version() went up: each view's Diff into `out` (and the kept
  // ones), the held views brought up to the position.
  void Publish(Applied* out, const Mover& mover);
  // The last move as a take-back sees it: whose it was, whether its player chose it and whether
  // the engine said it revealed nothing. `seat` is -1 once it was taken back (or none was made).
  struct LastMove {
    int seat = -1;
    bool by_player = false;
    bool safe = false;
    std::vector<bool> told;  // by view index: who was told its seat (MoverTold)
  };
  LastMove last_;
  LastMove last_before_;  // what Undo puts back
 public:
  // Whether the recipient `reader` (a seat, or engine::kSpectator) may be told that `seat` made
  // the move that took the acting seats from `before` to `after` (`resigned`: the move was
  // resigning, which the log tells everyone). He may when what he knows tells it already: it is
  // his own move; `seat` was the only one acting but for him (his own moves are named to him,
  // so one not named is not his); or `seat` is the one that stopped acting while the others
  // went on. A move in a simultaneous step by a seat still acting after it (a choice among
  // several, a question answered with another to come) is not named to the others: which of
  // the acting seats moved is not theirs to know.
  static bool MoverTold(int reader, int seat, const std::vector<int>& before,
                        const std::vector<int>& after, bool resigned);

 private:
  // MoverTold for each view (by view index) of `seat`'s `action`, applied: `after` is the
  // position it led to, `acting_before` and `acting_after` the acting seats before and after it.
  static std::vector<bool> WhoIsTold(const engine::State& after, int seat,
                                     const engine::Message& action,
                                     const std::vector<int>& acting_before,
                                     const std::vector<int>& acting_after);

 private:
  // The position the log without its last action reaches (there is one).
  std::unique_ptr<engine::State> ReplayWithoutLast() const;
  bool undo_allowed_ = false;
  // The seat whose view says it may take back now, or -1.
  int UndoSeat() const;
  // A log entry serialized once per action for every recipient that receives it.
  // Kept per thread from one action to the next with the entries' buffers, so serializing them
  // allocates nothing once the buffers have grown: `used` entries are this action's.
  struct EntryBytes {
    uint64_t seq = 0;
    std::string bytes;
  };
  struct EntryCache {
    std::vector<EntryBytes> slots;
    size_t used = 0;
  };
  // Brings `log`, the seqs of the entries `reader` holds, up to the engine's log and adds the ops
  // that do the same to the recipient's copy: the entries the engine trimmed dropped, the new
  // ones appended (serialized into `serialized` the first time a recipient needs them).
  void UpdateLog(int reader, std::vector<uint64_t>* log, std::string* ops,
                 EntryCache* serialized) const;
  // The LogEntry a recipient receives for an engine log record (its seq and text, in wire form),
  // written over `out`.
  void LogEntryBytes(const engine::LogRef& record, std::string* out) const;
  // A view's table in wire form: its phrases name their templates by number (Text.id), and a
  // seat that may not act keeps the moves of its last turn, held (HoldMoves).
  void Compact(size_t view_index, google::protobuf::Message& view);
  void HoldMoves(size_t view_index, plateau::v1::Table* table);
  // The view's bytes as its recipient holds them, into `out`: with the moves it holds put in
  // (Table.moves_held set by HoldMoves), as they are kept, serialized.
  void SerializeView(size_t view_index, const google::protobuf::Message& view,
                     std::string* out) const;
  // Bytes of the Diffs kept per view (recent_), at most its HistoryBudget.
  std::vector<size_t> recent_bytes_;
  // What the last Submit dropped from each recent_ to make room, for Undo to put back.
  std::vector<std::vector<SentDiff>> evicted_;
  std::vector<std::deque<SentDiff>> recent_;                       // same indexing
};

}  // namespace plateau::server
