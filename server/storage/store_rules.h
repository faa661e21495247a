#pragma once
// What both stores (SqliteStore, PgStore) decide before touching their database: the records
// they refuse, the action indexes they accept, and the next index of each game they write,
// known from their own writes so an append needs no read.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"
#include "server/store.h"

namespace plateau::server {

// Codes of refusals specific to the stores (I/O failures are storage_error).
namespace store_codes {
inline constexpr const char* kBadRecord = "bad_record";          // missing or inconsistent fields
inline constexpr const char* kGameExists = "game_exists";        // BeginGame with a known id
inline constexpr const char* kGameNotFound = "game_not_found";
inline constexpr const char* kGameFinished = "game_finished";    // appending to / finishing again
inline constexpr const char* kDuplicateAction = "duplicate_action";  // index already stored
inline constexpr const char* kActionGap = "action_gap";              // index beyond the next one
inline constexpr const char* kNotLastAction = "not_last_action";  // taking back another than the last
inline constexpr const char* kTokenConflict = "token_conflict";  // token held by another player
inline constexpr const char* kPlayerConflict = "player_conflict";  // player id has another token
inline constexpr const char* kPlayerNotFound = "player_not_found";
inline constexpr const char* kTokenNotFound = "token_not_found";  // no player holds the token
inline constexpr const char* kBadCursor = "bad_cursor";          // before_game_id not a finished game
// Several nodes: the room is run by another node (its lease passed to it), or this node's own
// lease ran out before it could renew it; the call wrote nothing.
inline constexpr const char* kLeaseLost = "lease_lost";
// Several nodes: the player already has as many open rooms as a player may, counted over every
// node (the same code as the lobby's own refusal).
inline constexpr const char* kTooManyRooms = "too_many_rooms";
}  // namespace store_codes

namespace store_rules {

// A player needs a token and an id.
Status CheckPlayer(const std::string& token, const StoredPlayer& player);
// A token is replaced by another, non-empty one.
Status CheckReplacement(const std::string& old_token, const std::string& new_token);
// A game is begun with an id and a game, and without actions, results or a finish time.
Status CheckNewGame(const plateau::v1::GameRecord& record);
// A finish needs its time (a record is finished exactly when it is non-zero) and at most one
// result per seat.
Status CheckFinish(const std::string& game_id,
                   const std::vector<plateau::v1::SeatResult>& results, int64_t finished_unix_ms);
// `index` must be `next`: below it is duplicate_action (never overwritten), past it action_gap.
Status CheckAppendIndex(const std::string& game_id, uint32_t index, uint32_t next);
Status DuplicateAction(const std::string& game_id, uint32_t index);
Status GameNotFound(const std::string& game_id);
// The refusals both stores give, worded once.
Status PlayerHasAnotherToken(const std::string& player_id);
Status TokenOfAnotherPlayer();
Status PlayerNotFound(const std::string& player_id);
Status TokenNotFound();
Status NewTokenInUse();
Status GameExists(const std::string& game_id);
Status GameTakesNoActions(const std::string& game_id);
Status GameAlreadyFinished(const std::string& game_id);
Status TwoResults(const std::string& game_id, uint32_t seat);
Status NoSeatInPlay(const std::string& game_id, int seat);
Status NotInPlay(const std::string& game_id);
Status NotLastAction(const std::string& game_id, uint32_t index);
Status BadCursor(const std::string& before_game_id);
Status TooManyRooms(int64_t open);
// Rooms created too fast: the next may be in `wait_seconds`.
Status RoomsTooFast(int64_t wait_seconds);

// The seed is the engine's uint64, kept bit for bit in the databases' signed 64-bit integers.
int64_t SeedToSql(uint64_t seed);
uint64_t SeedFromSql(int64_t value);
int64_t NowUnixMs();

// The next action index and number (games.game_no) of the games a store writes, so an append
// need not read them back (a select per action was half of appending on SQLite). What an open
// batch added is kept apart, merged when it commits and dropped when it does not; a game is
// forgotten when it finishes or an append fails. Capped: past kMaxGames it starts over, as reads.
class NextIndexes {
 public:
  static constexpr size_t kMaxGames = 65536;
  struct Known {
    int64_t game_no = 0;
    uint32_t next = 0;
  };
  std::optional<Known> Find(const std::string& game_id) const;
  // Known from a write made in the open batch, or outside one.
  void Set(const std::string& game_id, Known known, bool in_batch);
  void Forget(const std::string& game_id);
  void BeginBatch() { batch_.clear(); }
  void CommitBatch();
  // The batch failed or was rolled back: what it wrote is read back before it is trusted.
  void DropBatch();

 private:
  std::unordered_map<std::string, Known> committed_, batch_;
};

}  // namespace store_rules
}  // namespace plateau::server
