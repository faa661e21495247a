#pragma once
// The Store on a single SQLite file (schema: schema/*.sql, applied at Open()).
//
// Durability (WAL mode either way), chosen at Open:
//   kMachine  synchronous=FULL: a commit is fsync'ed to the WAL before it returns; neither a
//             killed process nor a power cut loses it.
//   kProcess  synchronous=NORMAL: a commit is in the OS's hands when it returns; a killed process
//             loses nothing, a power cut or kernel crash may lose the last commits.
// The WAL is checkpointed on a thread and a connection of its own (storage::Checkpointer), never
// inside a commit. Outside a batch every call commits on its own; inside one (BeginBatch..CommitBatch) the batch
// commits once.
//
// Thread safety: one connection guarded by one mutex. While serving, one storage thread makes
// every call (StorageExecutor); a batch is open only on that thread.
#include <sqlite3.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/storage/checkpointer.h"
#include "server/storage/sqlite_util.h"
#include "server/storage/store_rules.h"
#include "server/store.h"

namespace plateau::server {


class SqliteStore : public Store {
 public:
  // ListFinished returns at most this many summaries whatever the limit asked for.
  static constexpr uint32_t kMaxListLimit = 500;
  // How long a statement waits for another process's lock before failing with storage_busy.
  static constexpr int kBusyTimeoutMs = 5000;

  // The WAL's length, in pages, past which the checkpointer copies it back (SQLite's default).
  static constexpr int kCheckpointPages = 1000;

  enum class Durability { kMachine, kProcess };
  // Opens (creating if needed) the database at `path` and applies pending migrations.
  static StatusOr<std::unique_ptr<SqliteStore>> Open(const std::string& path,
                                                     Durability durability = Durability::kMachine,
                                                     int checkpoint_pages = kCheckpointPages);
  ~SqliteStore() override;

  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  // Creates the player, or renames it when the token is already its own. A token that belongs
  // to another player id is refused (token_conflict), as is a player id with another token.
  Status SavePlayer(const std::string& token, const StoredPlayer& player) override;
  StatusOr<std::optional<StoredPlayer>> FindPlayer(const std::string& token) override;
  // Refuses a player id it does not know (player_not_found).
  Status TouchPlayer(const std::string& player_id, int64_t at_unix_ms) override;
  // Refuses an old token that is not a player's (token_not_found) and a new one already used
  // (token_conflict).
  Status ReplaceToken(const std::string& old_token, const std::string& new_token,
                      int64_t at_unix_ms) override;

  // Refuses a record that already has actions, results or a finish time (bad_record) and an id
  // that is already stored (game_exists).
  Status BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) override;
  // `index` must be the next one: an index already stored is duplicate_action (never
  // overwritten), one past the end is action_gap. Finished games take no more actions.
  Status AppendAction(const std::string& game_id, uint32_t index,
                      const plateau::v1::ReplayAction& action) override;
  // `index` must be the last stored action of a game in play (not_last_action otherwise); the
  // action is kept in game_taken_back, out of the log.
  Status TakeBackAction(const std::string& game_id, uint32_t index, int64_t at_unix_ms) override;
  // `finished_unix_ms` must be positive: a record is finished exactly when it is non-zero.
  Status SetStandIn(const std::string& game_id, int seat, int level) override;
  Status SetLeft(const std::string& game_id, int seat, bool left) override;
  Status RecordResume(const std::string& game_id, int64_t at_unix_ms, int64_t grace_ms) override;
  Status FinishGame(const std::string& game_id,
                    const std::vector<plateau::v1::SeatResult>& results,
                    int64_t finished_unix_ms) override;

  StatusOr<std::optional<plateau::v1::GameRecord>> LoadGame(const std::string& game_id) override;
  StatusOr<std::optional<GameAccess>> LoadGameAccess(const std::string& game_id) override;
  // Newest first by (finished_unix_ms, game_id). `limit` is capped at kMaxListLimit; 0 gives
  // an empty page. A before_game_id that is unknown, unfinished or not listed to the viewer is
  // bad_cursor.
  StatusOr<std::vector<plateau::v1::ReplaySummary>> ListFinished(
      const std::string& game, uint32_t limit, const std::string& before_game_id,
      const std::string& viewer_player_id) override;
  // Oldest first by start time.
  StatusOr<std::vector<Unfinished>> LoadUnfinished() override;

  Status BeginBatch() override;
  Status CommitBatch() override;
  void RollbackBatch() override;
  bool BatchOpen() override;

  // Null for a database without a WAL (":memory:").
  const storage::Checkpointer* checkpointer() const { return checkpointer_.get(); }

 private:
  explicit SqliteStore(sqlite3* db);

  // Every helper below expects mu_ to be held.
  StatusOr<sqlite3_stmt*> Prepare(const std::string& sql);
  // Runs `sql` (an UPDATE of one seat of a game in play, ?1 the game, ?2 the seat, ?3 `value`);
  // refused with kGameNotFound when no such seat is in play. Called with mu_ held.
  Status UpdateSeatInPlay(const std::string& sql, const std::string& game_id, int seat, int value,
                          const std::string& what);
  // The game row, its seats, actions and results; nullopt for an unknown id. `room` is filled
  // when not null.
  StatusOr<std::optional<plateau::v1::GameRecord>> LoadGameLocked(const std::string& game_id,
                                                                   RoomRecord* room);
  Status LoadSeats(const std::string& game_id, plateau::v1::GameRecord* record, RoomRecord* room);
  Status LoadActions(const std::string& game_id, plateau::v1::GameRecord* record);
  Status LoadResults(const std::string& game_id,
                     google::protobuf::RepeatedPtrField<plateau::v1::SeatResult>* results);

  // The games this store writes (store_rules::NextIndexes). Under mu_.
  using Known = store_rules::NextIndexes::Known;
  store_rules::NextIndexes known_;
  // The number and next action index of a game in play, read from the database (game_not_found,
  // game_finished otherwise). Under mu_.
  StatusOr<Known> ReadPlayingGame(const std::string& game_id);

  std::mutex mu_;
  sqlite3* db_;  // owned; closed in the destructor after the statements are finalised
  std::unique_ptr<sqlite::StatementCache> statements_;
  std::unique_ptr<storage::Checkpointer> checkpointer_;  // hooked on db_ while set
};

}  // namespace plateau::server
