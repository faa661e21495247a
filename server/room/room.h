#pragma once
// One room: its seats, spectators and chat, and once started its game (a GameSession, which owns
// the engine State, the versions and the per-recipient views and Diffs; see game_session.h).
//
// Threading: every public method posts to the room's own strand and returns at once; replies and
// pushes go out through Connection::Send. Nothing inside needs a lock.
//
// Resync replies: the missed Diffs (or a Snapshot) are sent as pushes (request_id 0), then an Ok
// carrying the request's id, so a client knows it is caught up when the Ok arrives.
//
// Durability: an action is validated and applied in memory, then stored through the storage
// thread (StorageExecutor: no network thread waits on a disk), and only once it is durable is it
// acknowledged and broadcast. Meanwhile the room is busy: every request that reaches it waits, in
// order, until the store answers. If the store fails, the action is taken back and refused
// ("storage_error"): nothing changed. Starting a game is stored the same way.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <chrono>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "server/lobby/connection.h"
#include "server/metrics.h"
#include "server/room/game_session.h"
#include "server/room/turn_clocks.h"
#include "server/storage_executor.h"
#include "server/store.h"

namespace plateau::server {

// What a room tells the lobby. Called on the room's strand; the lobby locks its own mutex and
// never calls back into the room synchronously.
class RoomHost {
 public:
  virtual ~RoomHost() = default;
  // Keeps Welcome.room_ids right: the rooms a player sits in or watches.
  virtual void SetMembership(const std::string& player_id, const std::string& room_id,
                             bool member) = 0;
  // The public listing entry for this room; null removes it from the listing.
  virtual void PublishListing(const std::string& room_id, const plateau::v1::RoomInfo* info) = 0;
  // The room is empty and gone; drop it from the registry.
  virtual void RemoveRoom(const std::string& room_id) = 0;
  // The room starts (true) or stops (false) waiting on the store: shutdown waits for none to be.
  virtual void RoomWaiting(bool /*waiting*/) {}
  // Held by what the room has been asked to run and has not run yet (a request, until its answer
  // is queued): shutdown closes no connection while one is held. The default holds nothing.
  virtual std::shared_ptr<void> HoldRequest() { return nullptr; }
  // The room's game is over: it no longer counts as open for its creator.
  virtual void RoomClosed(const std::string& /*room_id*/) {}
  // A rematch began: the room counts as open again, for its host.
  virtual void RoomReopened(const std::string& /*room_id*/, const std::string& /*host_id*/) {}
  // Runs a bot's thinking off the network threads (the default runs it at once, for tests).
  virtual void Think(std::function<void()> job) { job(); }
  // How long a bot waits before playing, so people can follow its moves.
  virtual std::chrono::milliseconds bot_delay() const { return {}; }
  // How long a normal bot searches for each move (its part of bot_delay).
  virtual std::chrono::milliseconds bot_think() const { return std::chrono::milliseconds(50); }
  // Where rooms count actions (null: nowhere).
  virtual Metrics* metrics() { return nullptr; }
};

struct RoomSettings {
  std::string room_id;
  std::string join_code;  // every room has one; only private rooms need it
  std::string watch_code;  // every room has one: it lets its holder watch, never sit
  bool is_private = false;
  std::string title;
  const engine::Game* game = nullptr;
  std::string options;  // the game's Options message, serialized
  int seats = 0;
  // How long a waiting or finished room outlives the disconnection of its last member, so a host
  // who reloads the page (or loses the network for a moment) still finds the room.
  std::chrono::milliseconds empty_grace{std::chrono::minutes(5)};
  // A room's turn timer (validated by the lobby: TurnClocks::Invalid).
  plateau::v1::TurnTimer timer;
  // Whether a seat may take back its last move (UndoMove; CreateRoom.undo, on by default).
  bool undo = true;
  // How long a seated player must be offline before the others may replace them (ReplaceSeat);
  // also what every running clock has at least after a restart, for players to come back.
  std::chrono::milliseconds offline_grace{std::chrono::seconds(60)};
  // A game in play with none of its players connected for this long is over: every player's seat
  // resigns (bots play on to the end, if any), and the finished room goes as usual.
  std::chrono::milliseconds abandoned_after{std::chrono::hours(72)};
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  static constexpr size_t kChatHistory = 50;
  static constexpr size_t kMaxChatChars = 500;

  Room(boost::asio::any_io_executor executor, RoomSettings settings, StorageExecutor& storage,
       RoomHost& host);

  // Rebuilds a started game from its stored log (after a restart). Seats keep their players;
  // nobody is connected until they come back with their token.
  static engine::StatusOr<std::shared_ptr<Room>> Restore(boost::asio::any_io_executor executor,
                                                         const Store::Unfinished& saved,
                                                         StorageExecutor& storage, RoomHost& host,
                                                         std::chrono::milliseconds empty_grace,
                                                         std::chrono::milliseconds offline_grace,
                                                         std::chrono::milliseconds abandoned_after);

  const RoomSettings& settings() const { return settings_; }  // immutable
  // What the room's strand runs on (its shard's io_context).
  boost::asio::any_io_executor executor() const { return strand_.get_inner_executor(); }

  // After Restore: tells the host about the members and the public listing.
  void Announce();

  // The creator sits in seat 0 and is host; replies RoomInfo.
  void Create(ConnectionPtr conn, PlayerPtr player, uint64_t request_id);
  // `has_code`: the request carried this room's join code (private rooms need it to enter).
  void Join(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code);
  // `has_watch_code`: it carried the room's watch code instead, which lets its holder watch a
  // private room and nothing more.
  void Spectate(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code,
                bool has_watch_code);
  // Replies RoomInfo without making `player` a member (a private room needs `has_code`).
  void Peek(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code);
  // `mode` (v1::LeaveMode) says what becomes of a seat during a game.
  void Leave(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, int mode = 0);
  // During a game: `player` hands another's seat to a bot or claims the win (v1::ReplaceKind).
  void ReplaceSeat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint32_t seat,
                   int kind);
  // During a game: `player` takes their seat back from the bot standing in.
  void TakeBackSeat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id);
  // During a game: `player` takes back his seat's last move (UndoMove). Replies Ok.
  void UndoMove(ConnectionPtr conn, PlayerPtr player, uint64_t request_id);
  void SetReady(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool ready);
  // Host only, before the start: a bot (v1::BotLevel `level`) takes free seat `seat`, or leaves
  // it. Replies RoomInfo.
  void AddBot(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint32_t seat, int level);
  void RemoveBot(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint32_t seat);
  void Start(ConnectionPtr conn, PlayerPtr player, uint64_t request_id);
  // After the game: `player` accepts (or asks for) a rematch, or withdraws the offer. Replies Ok.
  // `without_absent`: the terms (see v1::RematchInfo); other terms than the offer's start anew.
  void Rematch(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool accept,
               bool without_absent);
  void Chat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, std::string text);
  // `ticket` is released once the action is answered (shutdown waits for every ticket).
  void SubmitAction(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, std::string action,
                    std::shared_ptr<void> ticket = nullptr);
  void Resync(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint64_t have_version);
  // The connection closed: the member stops receiving (a seat stays reserved).
  void Detach(PlayerPtr player, ConnectionPtr conn);
  // Server shutdown: forget every connection so nothing keeps sessions alive.
  void DetachAll();
  // Once the server's threads have stopped (never while they run): drops the requests waiting for
  // the store's answer, which will not come.
  void DropPending() { deferred_.clear(); }

  // For tests and tools: runs `fn` on the room's strand with the engine state (null before the
  // game starts) and the current version.
  void Inspect(std::function<void(const engine::State*, uint64_t version)> fn);

 private:
  enum class Phase { kWaiting, kPlaying, kFinished };
  struct Member {
    std::string name;
    int seat = -1;  // -1: spectator
    // Every live connection of the player (tabs, devices): all receive. None: detached.
    std::vector<std::weak_ptr<Connection>> conns;
    // Seated players during a game: since when nobody is connected, and whether they left on
    // purpose (LeaveRoom) rather than lost their connection.
    std::chrono::steady_clock::time_point offline_since{};
    bool left = false;
    // Whether the member may sit in a private room: it came with the join code (or sits). One
    // who came with the watch code only may not, nor learns the join code.
    bool holds_code = false;
    bool online() const;
    // Runs `fn` for each live connection.
    template <typename Fn>
    void ForEach(Fn&& fn) const {
      for (const auto& weak : conns) {
        if (auto c = weak.lock()) fn(c);
      }
    }
    void Send(const SharedBuffer& frame) const {
      ForEach([&](const ConnectionPtr& c) { c->Send(frame); });
    }
  };
  struct SeatState {
    std::string player_id;  // empty: free
    std::string name;
    bool ready = false;
    int bot = 0;  // v1::BotLevel of a seat the server plays; 0 for a person
    int stand_in = 0;  // v1::BotLevel of a bot playing this person's seat; 0 for none
    // The level a bot plays this seat at, if one does.
    int played_by_bot() const { return bot != 0 ? bot : stand_in; }
  };

  // ----- The strand (room.cc) -----
  // Runs `fn` on the strand, or after the store answers when the room is waiting on it. Run
  // queues it behind what the strand has to do (it never runs inside the caller, even on the
  // strand); RunFromOutside runs it at once on the calling thread when the strand is idle, for a
  // caller that is never on the strand itself (a connection's request: no hop to another thread).
  // Run holds a host ticket (RoomHost::HoldRequest) until `fn` has run; RunFromOutside's one
  // caller, SubmitAction, carries the lobby's own.
  void Run(std::function<void()> fn);
  void RunFromOutside(std::function<void()> fn);
  // On the strand: runs `fn` now, or keeps it for Resume while the room waits on the store.
  void RunOrDefer(std::function<void()> fn);
  // The store answered: runs what waited, in order, until one of them waits again.
  void Resume();
  void SetBusy(bool busy);
  // Runs `work` on the storage thread and `then(status)` on the strand once its batch is
  // committed, handed back with the answers of this shard's other rooms in that batch: one
  // wake-up of the shard per batch, and `then` runs at once there (the strand is idle).
  template <typename Then>
  void StoreThen(StorageExecutor::Work work, Then then) {
    storage_.Submit(
        std::move(work),
        [self = shared_from_this(), then = std::move(then)](Status stored) mutable {
          boost::asio::dispatch(self->strand_,
                                [then = std::move(then), stored]() mutable { then(stored); });
        },
        executor());
  }

  // ----- Membership and seats (room_members.cc) -----
  void DoJoin(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
              bool has_code);
  void DoSpectate(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                  bool has_code, bool has_watch_code);
  void DoLeave(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id, int mode);
  void DoDetach(const PlayerPtr& player, const ConnectionPtr& conn);
  void Attach(const std::string& player_id, const ConnectionPtr& conn);
  void RemoveMember(const std::string& player_id);
  // Tells the session whether anyone watches (it keeps the spectators' view only then).
  void UpdateWatched();
  // `wanted`, or "wanted (2)", "wanted (3)"...: no two people (or bots) of the room share a
  // name, whatever the case, so the table, the log and the results tell them apart.
  std::string UniqueName(const std::string& wanted, const std::string& player_id) const;
  // Whether someone of the room other than `player_id` has `name`, whatever its case.
  bool NameTaken(const std::string& name, const std::string& player_id) const;

  // ----- Presence and leavers (room_presence.cc) -----
  // Removes the room once nobody can use it any more (see room_presence.cc for when).
  void MaybeRemove();
  // Another node runs the room now (the store refused a write: lease_lost): the mover, if any, is
  // refused with room_moved, then the room leaves this node and its members' connections are
  // closed, so every client reconnects and finds the room where it runs.
  void MovedAway(const ConnectionPtr& conn, uint64_t request_id);
  // After a disconnection: MaybeRemove once the grace period has passed, if still empty.
  void RemoveWhenAbandoned();
  // During a game, after a disconnection: ends it once abandoned_after has passed with nobody
  // back.
  void ExpireWhenAbandoned();
  // After the game, while a seated player who lost his connection may still come back
  // (GraceLeft, no bot in his seat): pushes the room again when the first such grace ends, for
  // the rematch's reasons ("wait N s") to follow it, then waits for the next one. Called with
  // every push of the room (PushInfoToAll): his return, his going, a new game or the room's end
  // re-arm or cancel it.
  void WatchGrace();
  // Whether a member (a seated one, with `players_only`) has a live connection.
  bool AnyOnline(bool players_only) const;
  // Seat of a member during the game (-1: spectator or none).
  int SeatOf(const std::string& player_id) const;
  void DoReplaceSeat(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                     uint32_t seat, int kind);
  void DoTakeBackSeat(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id);
  // Taking back a move (room_moves.cc): checked, stored, then applied and sent to everyone.
  void DoUndoMove(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id);
  void OnTakenBack(const Status& stored, const ConnectionPtr& conn, uint64_t request_id);
  // The seat `player` plays in the room's game in play, or -1 once the request is refused (no
  // such room any more, no game running, not seated).
  int SeatInPlay(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id);
  // A member who had left is back (joining or watching again): listed and stored as such.
  void ComeBack(const std::string& player_id, Member& member);
  // Keeps whether a seat's player left the game in play, for a restart to show it.
  void StoreLeft(int seat, bool left);
  // Stores that a bot (`level`; 0: none) plays `seat` for its player, then applies it, answers
  // `request_id` on `conn` (if any) with Ok and tells everyone.
  void StoreStandIn(const ConnectionPtr& conn, uint64_t request_id, int seat, int level);
  // Resigns `seat` through the rules (conceding, or an opponent's claim), stored like any move;
  // `conn` gets the answer to `request_id`.
  void ResignSeat(const ConnectionPtr& conn, uint64_t request_id, int seat,
                  plateau::v1::ActionOrigin origin);

  // ----- A game's start and end (room_game.cc) -----
  void DoStart(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id);
  void DoRematch(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                 bool accept, bool without_absent);
  // After the game: which seats' players are away, and what keeps a rematch from starting.
  struct RematchTerms {
    std::vector<bool> absent;  // by seat: a person who left, is gone or is offline
    // Empty when a rematch can start on those terms; otherwise its code and reason.
    std::string code, reason;                  // with every seat (stand-ins kept)
    std::string without_code, without_reason;  // without the away players
  };
  RematchTerms Terms() const;
  // How long a seated member who lost his connection may still come back before his seat
  // counts as given up (zero once the grace is over, or at once if he left on purpose): a seat
  // is handed to a bot, or left out of a rematch, only then.
  std::chrono::steady_clock::duration GraceLeft(const Member& member) const;
  // Whether `seat` agrees without asking: a bot, or an away player's seat on the offer's terms
  // (left out, or kept by the bot standing in).
  bool AgreesForItself(const RematchTerms& terms, size_t seat) const;
  // A rematch that could not start (the game refused to deal, the store failed): the offer ends
  // and the members are told, so that nobody waits on a game that will not come; they ask again.
  void DropRematchOffer();
  // Deals a new game for `seated` (in seat order) and stores it; OnGameStored then starts it
  // and answers `request_id` on `conn`.
  void BeginGame(const ConnectionPtr& conn, uint64_t request_id, std::vector<SeatState> seated);
  void OnGameStored(const Status& stored, const ConnectionPtr& conn, uint64_t request_id,
                    const std::vector<SeatState>& seated, const std::string& game_id,
                    const std::string& replay_token, std::unique_ptr<GameSession> session,
                    int64_t started_ms);
  void FinishGame();

  // ----- Moves and the turn timer (room_moves.cc) -----
  void DoSubmit(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                const std::string& action_bytes, std::chrono::steady_clock::time_point arrived,
                std::shared_ptr<void> ticket);
  // Refuses an action, counting it by code.
  // The room's lease passed to another node (moved_): a request that would change the game is
  // refused with room_moved.
  void RefuseMoved(const ConnectionPtr& conn, uint64_t request_id);
  void RefuseAction(const ConnectionPtr& conn, uint64_t request_id, const std::string& code,
                    const std::string& reason);
  // Stores an action the session applied for `seat`, then sends it (OnActionStored). `conn` (null
  // for a bot) gets the answer to `request_id`.
  void StoreAction(const ConnectionPtr& conn, uint64_t request_id, GameSession::Applied applied,
                   std::chrono::steady_clock::time_point arrived, std::shared_ptr<void> ticket);
  void OnActionStored(const Status& stored, const ConnectionPtr& conn, uint64_t request_id,
                      const GameSession::Applied& applied,
                      std::chrono::steady_clock::time_point arrived);
  // Plays `bytes` for `seat` when the rules accept it now, stored with `origin` (StoreAction;
  // `conn` gets the answer to `request_id`); otherwise the refusal, and nothing changed.
  Status PlayFor(int seat, std::string_view bytes, plateau::v1::ActionOrigin origin,
                 const ConnectionPtr& conn = nullptr, uint64_t request_id = 0);
  // The game's default move for `seat`, played as PlayFor; false when there is none it accepts.
  bool PlayDefault(int seat, plateau::v1::ActionOrigin origin);
  void DoResync(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                uint64_t have_version);
  // What a stored move does to the clocks, the same live and when a restart replays the log.
  static void CountMove(TurnClocks& clocks, const plateau::v1::ReplayAction& move, bool person,
                        const engine::State& after);
  // Turn timer: waits for the next clock to run out, then plays for that seat (OnClock).
  void ArmClock(std::chrono::milliseconds at_least = std::chrono::milliseconds(0));
  void OnClock();

  // ----- Bots (room_bots.cc) -----
  // After every change of the position, each bot seat that must act thinks (off the network
  // threads, on its seat's view alone) and its moves come back to PlayBot, which plays the first
  // one the rules accept as the version it was thought for.
  // False, after refusing, unless the room is waiting and `player` hosts it ("Only the host can
  // <verb> a bot").
  bool HostBeforeStart(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                       const std::string& verb);
  void DoAddBot(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                uint32_t seat, int level);
  void DoRemoveBot(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                   uint32_t seat);
  void WakeBots();
  void PlayBot(uint64_t game, int seat, uint64_t version, const std::vector<std::string>& moves);
  void UpdateHasBots();

  // ----- What the room tells its members and the lobby (room_info.cc) -----
  // Which of the session's views a member receives (the game must have started).
  size_t ViewIndex(const Member& member) const;
  plateau::v1::RoomInfo BuildInfo() const;  // without the per-recipient fields
  SharedBuffer EncodeInfo(const plateau::v1::RoomInfo& base, const std::string& player_id,
                          uint64_t request_id) const;
  void SendInfo(const ConnectionPtr& conn, const std::string& player_id, uint64_t request_id);
  void PushInfoToAll(const std::string& skip_player_id = "");
  void SendChatHistory(const ConnectionPtr& conn);
  void Publish();

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::steady_timer empty_timer_;
  boost::asio::steady_timer clock_timer_;
  boost::asio::steady_timer abandon_timer_;
  boost::asio::steady_timer grace_timer_;  // WatchGrace
  bool grace_armed_ = false;
  const RoomSettings settings_;
  StorageExecutor& storage_;
  RoomHost& host_;
  bool busy_ = false;  // waiting on the store
  bool finish_on_announce_ = false;  // restored from a log that reached the end
  std::deque<std::function<void()>> deferred_;

  Phase phase_ = Phase::kWaiting;
  // Kept once the game is over, for members who ask again after missing the push.
  SharedBuffer game_over_frame_;
  bool removed_ = false;
  std::string host_player_id_;
  std::vector<SeatState> seats_;
  std::map<std::string, Member> members_;  // by player_id; seated players and spectators
  std::deque<SharedBuffer> chat_;

  // Once started.
  std::string game_id_;
  // Private rooms only: sent to the members in GameOver, the key to the replay for anyone they
  // share it with.
  std::string replay_token_;
  std::unique_ptr<GameSession> session_;
  // After a game: the seats that want a rematch (empty: nobody asked).
  std::vector<bool> rematch_;
  bool rematch_without_absent_ = false;  // the offer's terms
  // The finished game's results are in the store. A rematch waits for it: a second game of the
  // room stored while the first still looks unfinished would come back beside it after a restart.
  bool results_stored_ = true;
  // Per seat: the version a bot is thinking about (0: none).
  std::vector<uint64_t> bot_thinking_;
  bool has_bots_ = false;  // the game's seats include a bot
  // Counts the games dealt in this room: a bot's thinking belongs to one (see PlayBot).
  uint64_t game_serial_ = 0;
  // Several nodes: the store refused a write because another node runs the room now. Nothing
  // more is played here; the players reconnect and find the room where it is run.
  bool moved_ = false;
  uint64_t bot_seed_ = 0;
  // The turn timer's clocks for the game in play (disabled without a timer).
  TurnClocks clocks_;
  // The clocks as they were before the last move (timed rooms): taking the move back puts them
  // back, so the seat's clock resumes as before it, as a restart's replay of the log without the
  // move gives. Reset once used.
  std::optional<TurnClocks> clocks_before_last_;
  // Restored with a timer: when its clocks resumed, to store (Announce); 0 once stored.
  int64_t resumed_at_ = 0;
};

}  // namespace plateau::server
