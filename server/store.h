#pragma once
// Persistence behind an interface: the room and lobby layers talk to a Store, never to SQLite.
// Every accepted action is made durable (AppendAction returns) before it is broadcast, so a crash
// or restart never loses an accepted move; unfinished games come back at start-up.
#include <cstddef>
#include <cstdint>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::server {

using engine::Status;
using engine::StatusOr;

// A game as the lobby knew it when it started: enough to rebuild its room after a restart.
struct RoomRecord {
  std::string room_id;
  std::string join_code;
  std::string watch_code;  // lets its holder watch the room, never sit
  bool is_private = false;
  std::string title;
  std::string host_player_id;
  std::vector<std::string> seat_player_ids;  // by seat
  // Private rooms only: whoever holds it may watch the finished game without having sat in it.
  // It is a secret of the room, never part of the GameRecord (an export file must not hand it on).
  std::string replay_token;
  // The room's TurnTimer, serialized (empty: none).
  std::string timer;
  // Whether a player may take back his last move (CreateRoom.undo).
  bool undo = false;
  // By seat, the BotLevel standing in for the seat's player (0: none): stored by BeginGame (a
  // rematch keeps the bot of a player still away), changed by SetStandIn.
  std::vector<int> seat_stand_ins;
  // Loaded only: by seat, whether its player left the game in play (see SetLeft).
  std::vector<bool> seat_left;
  // Loaded only: the restarts the game's turn timer went through, oldest first (RecordResume).
  struct Resume {
    int64_t at_unix_ms = 0;
    int64_t grace_ms = 0;
  };
  std::vector<Resume> resumes;
  // Loaded only: the moves taken back in the game (TakeBackAction), and whether the last of them
  // was taken back after the log's last action (nothing stored since): a restored game numbers
  // its versions and decides who may take back as the live one did.
  uint32_t taken_back = 0;
  bool taken_back_last = false;
};

// What decides who may see a stored game's replay, read without its log.
struct GameAccess {
  bool finished = false;
  bool is_private = false;
  std::string replay_token;
  std::vector<std::string> seat_player_ids;  // the players seated in it, by seat
};

struct StoredPlayer {
  std::string player_id;
  std::string name;
  // When the token was last used (see TouchPlayer); 0 when not known.
  int64_t last_used_unix_ms = 0;
  // The token was given up by signing out everywhere (name and last use are then empty).
  bool revoked = false;
};

// Calls come from one storage thread while the server runs (StorageExecutor), from any thread in
// tools and tests; implementations must be safe either way.
class Store {
 public:
  virtual ~Store() = default;

  // A batch: every call between BeginBatch and CommitBatch becomes durable together, with one sync
  // (group commit). A call refused inside a batch leaves the others in it; RollbackBatch undoes
  // the whole batch (after a failed commit). Stores without batches treat each call alone.
  virtual Status BeginBatch() { return Status::Ok(); }
  virtual Status CommitBatch() { return Status::Ok(); }
  virtual void RollbackBatch() {}
  // False once a batch begun has been lost (the database rolled it back after an I/O error, a
  // full disk): what ran in it is gone and nothing more may run as if inside it.
  virtual bool BatchOpen() { return true; }
  // Calls whose outcome is settled only at the commit (PostgreSQL's pipelined appends, refused
  // by the database's ownership fence without an error): the caller names each call before it
  // runs (StartCall), and after a successful CommitBatch asks how it ended (CallOutcome). A store
  // that settles every call when it runs, as SQLite's, answers Ok.
  virtual void StartCall(size_t call) { (void)call; }
  virtual Status CallOutcome(size_t call) {
    (void)call;
    return Status::Ok();
  }
  // Several nodes on one database (docs/multinode.md): renews this node's leases on the rooms it
  // runs, outside any batch. A store used by one node alone has nothing to renew.
  virtual Status RenewLeases() { return Status::Ok(); }

  // Players are keyed by a secret token; only a hash of it is stored.
  virtual Status SavePlayer(const std::string& token, const StoredPlayer& player) = 0;
  // A revoked token is found with `revoked` set; an unknown one is nullopt.
  virtual StatusOr<std::optional<StoredPlayer>> FindPlayer(const std::string& token) = 0;
  // The player's token was in use at `at_unix_ms` (never moves its last use backwards).
  virtual Status TouchPlayer(const std::string& player_id, int64_t at_unix_ms) = 0;
  // Signing out everywhere: the player of `old_token` keeps its id and name under `new_token`,
  // and `old_token` is revoked for good.
  virtual Status ReplaceToken(const std::string& old_token, const std::string& new_token,
                              int64_t at_unix_ms) = 0;

  // record: game_id, game, options, seed, seat_names, started_unix_ms (actions/results empty).
  virtual Status BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) = 0;
  // `index` is the action's position in the log (0-based); durable when this returns ok.
  virtual Status AppendAction(const std::string& game_id, uint32_t index,
                              const plateau::v1::ReplayAction& action) = 0;
  // Takes back action `index` of a game in play, which must be its last stored one: the log no
  // longer has it (a restart and a replay play the game without it, and the next action takes
  // its index). Durable when this returns ok.
  virtual Status TakeBackAction(const std::string& game_id, uint32_t index,
                                int64_t at_unix_ms) = 0;
  // A game in play with a turn timer came back at `at_unix_ms` after a restart, each running clock
  // given at least `grace_ms`: kept so later restarts replay the same clocks.
  virtual Status RecordResume(const std::string& game_id, int64_t at_unix_ms, int64_t grace_ms) = 0;
  // A bot (BotLevel `level`; 0: none) plays seat `seat` of a game in play for its player.
  virtual Status SetStandIn(const std::string& game_id, int seat, int level) = 0;
  // The player of seat `seat` of a game in play left it with the Leave button (or came back).
  virtual Status SetLeft(const std::string& game_id, int seat, bool left) = 0;
  virtual Status FinishGame(const std::string& game_id,
                            const std::vector<plateau::v1::SeatResult>& results,
                            int64_t finished_unix_ms) = 0;

  // The full record (with actions and, once finished, results); nullopt for an unknown id.
  virtual StatusOr<std::optional<plateau::v1::GameRecord>> LoadGame(const std::string& game_id) = 0;
  // Who may see the game's replay; nullopt for an unknown id.
  virtual StatusOr<std::optional<GameAccess>> LoadGameAccess(const std::string& game_id) = 0;
  // Finished games, newest first; `game` empty for all; `before_game_id` for paging. Public games,
  // and the private ones `viewer_player_id` sat in (with their replay_token). For anyone else a
  // private game does not exist, not even as a page cursor.
  virtual StatusOr<std::vector<plateau::v1::ReplaySummary>> ListFinished(
      const std::string& game, uint32_t limit, const std::string& before_game_id,
      const std::string& viewer_player_id) = 0;
  // Games started but not finished, with their rooms, for recovery at start-up.
  struct Unfinished {
    plateau::v1::GameRecord record;
    RoomRecord room;
  };
  virtual StatusOr<std::vector<Unfinished>> LoadUnfinished() = 0;
  // Several nodes: claims this node's share of the rooms whose node stopped renewing its lease
  // (games in play only) and returns their games, as LoadUnfinished does at start-up. A store
  // used by one node alone has none.
  virtual StatusOr<std::vector<Unfinished>> TakeOver() { return std::vector<Unfinished>(); }
  // Several nodes, stopping gracefully: gives every room of this node up now (their leases end),
  // so the others take them over without waiting a lease out; this node writes no game after it.
  virtual Status HandOver() { return Status::Ok(); }
  // Several nodes: a room opened here is this node's from the start (before any game), so the
  // others can send its players here; released when the room closes. A game's rooms are claimed
  // by BeginGame anyway. Nothing to do for one node.
  struct RoomClaim {
    // Who opened it: with max_open > 0, refused (too_many_rooms) when he already has that many
    // open rooms over every node.
    std::string creator;
    int max_open = 0;
    // Its codes, found from any node (FindRoomByCode).
    std::string join_code, watch_code;
    // With rooms_per_hour > 0, refused (too_many_rooms) when the creator's allowance over every
    // node is spent: a token bucket of `burst` rooms refilled at that rate, as each node keeps.
    double rooms_per_hour = 0;
    double burst = 0;
  };
  virtual Status ClaimRoom(const std::string& room_id, const RoomClaim& claim) {
    (void)room_id, (void)claim;
    return Status::Ok();
  }
  // Several nodes: a code typed alone that no room of this node has. `room_id`: the room another
  // live node runs whose join code (or, with `watch`, watch code) it is. With `address` (the
  // client's, when it is limited) and `max_misses` > 0, the wrong codes typed alone from that
  // address are counted over every node: at `max_misses` within `window`, `locked_for` says how
  // long the address is still locked out and nothing is looked up; a code that finds no room is
  // one more.
  struct CodeLookup {
    std::string room_id;
    std::chrono::milliseconds locked_for{0};
  };
  virtual StatusOr<CodeLookup> LookUpCode(const std::string& code, bool watch,
                                          const std::string& address, int max_misses,
                                          std::chrono::milliseconds window) {
    (void)code, (void)watch, (void)address, (void)max_misses, (void)window;
    return CodeLookup();
  }
  // Several nodes: the room counts as one of `creator`'s open rooms again (a rematch), or no
  // more (empty: its game is over).
  virtual Status SetRoomCreator(const std::string& room_id, const std::string& creator) {
    (void)room_id, (void)creator;
    return Status::Ok();
  }
  virtual Status ReleaseRoom(const std::string& room_id) {
    (void)room_id;
    return Status::Ok();
  }
  // Several nodes: the rooms other nodes run where `player_id` sits in a game in play (and has
  // not left it), so a node can tell a returning player of them all.
  virtual StatusOr<std::vector<std::string>> PlayerRoomsElsewhere(const std::string& player_id) {
    (void)player_id;
    return std::vector<std::string>();
  }
  // Several nodes: who runs `room_id`. `known`: some node claimed it and has not released it
  // (the room exists, perhaps between a dead owner and the next); `address`: where the live
  // node that runs it is reached, when it is another node than this one.
  struct RoomOwner {
    bool known = false;
    std::string address;
  };
  virtual StatusOr<RoomOwner> FindOwner(const std::string& room_id) {
    (void)room_id;
    return RoomOwner();
  }
};

}  // namespace plateau::server
