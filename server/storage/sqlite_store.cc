#include "server/storage/sqlite_store.h"

#include <algorithm>
#include <thread>
#include <chrono>

#include "server/storage/migrations.h"
#include "server/storage/token_hash.h"

namespace plateau::server {
namespace {

using sqlite::Blob;
using sqlite::Null;
using sqlite::ScopedStatement;

using store_rules::NowUnixMs;
using store_rules::SeedFromSql;
using store_rules::SeedToSql;

// The condition for a game row `g` to be listed to the player bound at ?`param`: public, or
// private with that player seated in it. An empty id (no player) sits nowhere.
std::string ListedTo(int param) {
  const std::string p = "?" + std::to_string(param);
  return "(g.is_private = 0 OR (" + p + " <> '' AND g.game_id IN "
         "(SELECT s.game_id FROM game_seats s WHERE s.player_id = " + p + ")))";
}

// How the writer waits for a lock held elsewhere, for SqliteStore::kBusyTimeoutMs in all: in
// steps of 100 µs for the first 2 ms (the checkpointer holds the lock while it copies a commit or
// two, see Checkpointer::Loop), then of 1 ms (another process). SQLite's own timeout sleeps a
// whole millisecond at once, then longer.
int BusyWait(void*, int count) {
  constexpr int kFine = 20;
  const int64_t waited_us = count < kFine ? count * 100 : kFine * 100 + (count - kFine) * 1000;
  if (waited_us >= int64_t{SqliteStore::kBusyTimeoutMs} * 1000) return 0;
  std::this_thread::sleep_for(count < kFine ? std::chrono::microseconds(100)
                                            : std::chrono::microseconds(1000));
  return 1;
}

}  // namespace

StatusOr<std::unique_ptr<SqliteStore>> SqliteStore::Open(const std::string& path,
                                                       Durability durability,
                                                       int checkpoint_pages) {
  auto migrations = storage::EmbeddedMigrations();
  if (!migrations.ok()) return migrations.status();

  sqlite3* db = nullptr;
  // NOMUTEX: the store's own mutex serialises every use of the connection.
  const int rc = sqlite3_open_v2(path.c_str(), &db,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                     SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                                 nullptr);
  if (rc != SQLITE_OK) {
    Status st = sqlite::Error(db, rc, "opening '" + path + "'");
    sqlite3_close_v2(db);
    return st;
  }
  // From here the store owns the connection and closes it on every path.
  std::unique_ptr<SqliteStore> store(new SqliteStore(db));

  sqlite3_busy_handler(db, BusyWait, nullptr);
  // WAL lets replay readers in other processes (the rules console, backups) read while the
  // server writes; synchronous=FULL fsyncs the WAL at every commit (durable against a power cut),
  // NORMAL leaves the sync to checkpoints (durable against a killed process).
  std::string mode;
  {
    sqlite3_stmt* stmt = nullptr;
    int prc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &stmt, nullptr);
    if (prc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) mode = sqlite::ColumnText(stmt, 0);
    sqlite3_finalize(stmt);
    if (mode != "wal" && mode != "memory") {
      if (prc != SQLITE_OK) return sqlite::Error(db, prc, "enabling WAL on '" + path + "'");
      return Status(sqlite::codes::kStorageError,
                    "Storage could not enable write-ahead logging on '" + path +
                        "' (journal mode is '" + mode + "').");
    }
  }
  const std::string synchronous = durability == Durability::kMachine ? "FULL" : "NORMAL";
  if (Status st = sqlite::Exec(db,
                               "PRAGMA synchronous = " + synchronous + "; PRAGMA foreign_keys = ON;",
                               "configuring '" + path + "'");
      !st.ok()) {
    return st;
  }
  if (Status st = storage::ApplyMigrations(db, migrations.value()); !st.ok()) return st;
  if (mode == "wal") {
    auto checkpointer = storage::Checkpointer::Start(path, synchronous);
    if (!checkpointer.ok()) return checkpointer.status();
    store->checkpointer_ = std::move(checkpointer).value();
    storage::Checkpointer::Hook(db, store->checkpointer_.get(), checkpoint_pages);
  }
  return store;
}

SqliteStore::SqliteStore(sqlite3* db)
    : db_(db), statements_(std::make_unique<sqlite::StatementCache>(db)) {}

SqliteStore::~SqliteStore() {
  statements_.reset();  // statements first: a connection with live statements does not close
  // The checkpointer's connection goes before the writer's, whose close (the last one) then
  // checkpoints what is left and removes the WAL.
  sqlite3_wal_hook(db_, nullptr, nullptr);
  checkpointer_.reset();
  sqlite3_close_v2(db_);
}

StatusOr<sqlite3_stmt*> SqliteStore::Prepare(const std::string& sql) {
  return statements_->Get(sql);
}

// --- Batches ---

Status SqliteStore::BeginBatch() {
  std::lock_guard lock(mu_);
  known_.BeginBatch();
  return sqlite::Run(db_, statements_.get(), "BEGIN IMMEDIATE", "starting a batch");
}

Status SqliteStore::CommitBatch() {
  std::lock_guard lock(mu_);
  Status st = sqlite::Run(db_, statements_.get(), "COMMIT", "committing a batch");
  if (st.ok()) {
    known_.CommitBatch();
  } else {
    known_.DropBatch();  // whatever the caller does next
  }
  return st;
}

void SqliteStore::RollbackBatch() {
  std::lock_guard lock(mu_);
  known_.DropBatch();
  if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool SqliteStore::BatchOpen() {
  std::lock_guard lock(mu_);
  return sqlite3_get_autocommit(db_) == 0;
}

// --- Players ---

Status SqliteStore::SavePlayer(const std::string& token, const StoredPlayer& player) {
  if (Status st = store_rules::CheckPlayer(token, player); !st.ok()) return st;
  const std::string hash = storage::TokenSha256(token);
  const int64_t now = NowUnixMs();
  std::lock_guard lock(mu_);
  // The upsert renames only when the token already belongs to this same player; otherwise it
  // changes nothing and the conflict is reported below.
  auto stmt = Prepare(
      "INSERT INTO players (token_sha256, player_id, name, created_unix_ms, updated_unix_ms, "
      "last_used_unix_ms) VALUES (?1, ?2, ?3, ?4, ?4, ?4) "
      "ON CONFLICT (token_sha256) DO UPDATE SET name = excluded.name, "
      "updated_unix_ms = excluded.updated_unix_ms "
      "WHERE players.player_id = excluded.player_id");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), Blob{hash}, player.player_id, player.name, now);
      !st.ok()) {
    return st;
  }
  const int rc = sqlite3_step(s.get());
  if (rc == SQLITE_CONSTRAINT_UNIQUE) {
    return store_rules::PlayerHasAnotherToken(player.player_id);
  }
  if (rc != SQLITE_DONE) return sqlite::Error(db_, rc, "saving a player");
  if (sqlite3_changes(db_) == 0) {
    return store_rules::TokenOfAnotherPlayer();
  }
  return Status::Ok();
}

StatusOr<std::optional<StoredPlayer>> SqliteStore::FindPlayer(const std::string& token) {
  const std::string hash = storage::TokenSha256(token);
  std::lock_guard lock(mu_);
  {
    auto stmt =
        Prepare("SELECT player_id, name, last_used_unix_ms FROM players WHERE token_sha256 = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), Blob{hash}); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "finding a player");
    if (!row.ok()) return row.status();
    if (row.value()) {
      StoredPlayer found{sqlite::ColumnText(s.get(), 0), sqlite::ColumnText(s.get(), 1)};
      found.last_used_unix_ms = sqlite3_column_int64(s.get(), 2);
      return std::optional<StoredPlayer>(std::move(found));
    }
  }
  auto stmt = Prepare("SELECT player_id FROM revoked_tokens WHERE token_sha256 = ?1");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), Blob{hash}); !st.ok()) return st;
  auto row = sqlite::Step(db_, s.get(), "finding a revoked token");
  if (!row.ok()) return row.status();
  if (!row.value()) return std::optional<StoredPlayer>();
  StoredPlayer revoked;
  revoked.player_id = sqlite::ColumnText(s.get(), 0);
  revoked.revoked = true;
  return std::optional<StoredPlayer>(std::move(revoked));
}

Status SqliteStore::TouchPlayer(const std::string& player_id, int64_t at_unix_ms) {
  std::lock_guard lock(mu_);
  auto stmt = Prepare(
      "UPDATE players SET last_used_unix_ms = max(last_used_unix_ms, ?2) WHERE player_id = ?1");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), player_id, at_unix_ms); !st.ok()) return st;
  auto row = sqlite::Step(db_, s.get(), "noting a player's token in use");
  if (!row.ok()) return row.status();
  if (sqlite3_changes(db_) != 1) {
    return store_rules::PlayerNotFound(player_id);
  }
  return Status::Ok();
}

Status SqliteStore::ReplaceToken(const std::string& old_token, const std::string& new_token,
                                 int64_t at_unix_ms) {
  if (Status st = store_rules::CheckReplacement(old_token, new_token); !st.ok()) return st;
  const std::string old_hash = storage::TokenSha256(old_token);
  const std::string new_hash = storage::TokenSha256(new_token);
  std::lock_guard lock(mu_);
  sqlite::Transaction tx(db_, statements_.get());
  if (Status st = tx.Begin(); !st.ok()) return st;
  std::string player_id;
  {
    auto stmt = Prepare("SELECT player_id FROM players WHERE token_sha256 = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), Blob{old_hash}); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "finding the token to replace");
    if (!row.ok()) return row.status();
    if (!row.value()) return store_rules::TokenNotFound();
    player_id = sqlite::ColumnText(s.get(), 0);
  }
  {
    auto stmt = Prepare(
        "UPDATE players SET token_sha256 = ?2, updated_unix_ms = ?3, last_used_unix_ms = ?3 "
        "WHERE token_sha256 = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), Blob{old_hash}, Blob{new_hash}, at_unix_ms);
        !st.ok()) {
      return st;
    }
    const int rc = sqlite3_step(s.get());
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY || rc == SQLITE_CONSTRAINT_UNIQUE) {
      return store_rules::NewTokenInUse();
    }
    if (rc != SQLITE_DONE) return sqlite::Error(db_, rc, "replacing a token");
  }
  {
    auto stmt = Prepare(
        "INSERT OR REPLACE INTO revoked_tokens (token_sha256, player_id, revoked_unix_ms) "
        "VALUES (?1, ?2, ?3)");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), Blob{old_hash}, player_id, at_unix_ms);
        !st.ok()) {
      return st;
    }
    auto row = sqlite::Step(db_, s.get(), "revoking a token");
    if (!row.ok()) return row.status();
  }
  return tx.Commit();
}

// --- Games ---

Status SqliteStore::BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) {
  if (Status st = store_rules::CheckNewGame(record); !st.ok()) return st;
  std::lock_guard lock(mu_);
  sqlite::Transaction tx(db_, statements_.get());
  if (Status st = tx.Begin(); !st.ok()) return st;
  {
    auto stmt = Prepare(
        "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, room_id, "
        "join_code, is_private, title, host_player_id, replay_token, timer, watch_code, undo, "
        "game_no) "
        "VALUES (?1, ?2, ?3, ?4, 'playing', ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
        // Past every number in use, the actions' too: a game deleted without its actions (by
        // hand, foreign keys off) must not lend them to a new game. Both maxima read one index.
        "max((SELECT coalesce(max(game_no), 0) FROM games), "
        "(SELECT coalesce(max(game_no), 0) FROM game_actions)) + 1)");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), record.game_id(), record.game(),
                                    Blob{record.options()}, SeedToSql(record.seed()),
                                    record.started_unix_ms(), room.room_id, room.join_code,
                                    room.is_private ? 1 : 0, room.title, room.host_player_id,
                                    room.replay_token, Blob{room.timer}, room.watch_code,
                                    room.undo ? 1 : 0);
        !st.ok()) {
      return st;
    }
    const int rc = sqlite3_step(s.get());
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
      return store_rules::GameExists(record.game_id());
    }
    if (rc != SQLITE_DONE) return sqlite::Error(db_, rc, "storing game " + record.game_id());
  }
  const size_t seats =
      std::max(static_cast<size_t>(record.seat_names_size()), room.seat_player_ids.size());
  if (seats > 0) {
    auto stmt =
        Prepare("INSERT INTO game_seats (game_id, seat, name, player_id, stand_in) "
                "VALUES (?1, ?2, ?3, ?4, ?5)");
    if (!stmt.ok()) return stmt.status();
    for (size_t seat = 0; seat < seats; ++seat) {
      ScopedStatement s(stmt.value());
      // NULL past the end of either list keeps both lengths exact on the way back.
      std::optional<std::string> name, player_id;
      if (seat < static_cast<size_t>(record.seat_names_size())) {
        name = record.seat_names(static_cast<int>(seat));
      }
      if (seat < room.seat_player_ids.size()) player_id = room.seat_player_ids[seat];
      const int64_t stand_in = seat < room.seat_stand_ins.size() ? room.seat_stand_ins[seat] : 0;
      if (Status st =
              sqlite::BindAll(db_, s.get(), record.game_id(), seat, name, player_id, stand_in);
          !st.ok()) {
        return st;
      }
      auto row = sqlite::Step(db_, s.get(), "storing the seats of game " + record.game_id());
      if (!row.ok()) return row.status();
    }
  }
  return tx.Commit();
}

StatusOr<SqliteStore::Known> SqliteStore::ReadPlayingGame(const std::string& game_id) {
  auto stmt = Prepare(
      "SELECT status, game_no, "
      "(SELECT coalesce(max(idx) + 1, 0) FROM game_actions a WHERE a.game_no = g.game_no) "
      "FROM games g WHERE game_id = ?1");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
  auto row = sqlite::Step(db_, s.get(), "checking game " + game_id);
  if (!row.ok()) return row.status();
  if (!row.value()) {
    return store_rules::GameNotFound(game_id);
  }
  if (sqlite::ColumnText(s.get(), 0) != "playing") {
    return store_rules::GameTakesNoActions(game_id);
  }
  return Known{sqlite::ColumnInt64(s.get(), 1),
               static_cast<uint32_t>(sqlite::ColumnInt64(s.get(), 2))};
}

Status SqliteStore::AppendAction(const std::string& game_id, uint32_t index,
                                 const plateau::v1::ReplayAction& action) {
  std::lock_guard lock(mu_);
  // One autocommit INSERT is the whole write: the check below reads under the same mutex, or
  // knows its answer from this store's own last append. That assumes this store is the only
  // writer, as the server is: another process appending is still caught by the (game_no, idx)
  // unique index, but one finishing a game is not seen until the game's next index is read
  // again.
  std::optional<Known> known = known_.Find(game_id);
  if (!known) {
    auto read = ReadPlayingGame(game_id);
    if (!read.ok()) return read.status();
    known = read.value();
  }
  if (Status st = store_rules::CheckAppendIndex(game_id, index, known->next); !st.ok()) return st;
  // Written only for a game that exists (no foreign key since 0015): no row changed otherwise.
  auto stmt = Prepare(
      "INSERT INTO game_actions (game_no, idx, seat, action, text, at_unix_ms, origin) "
      "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM games WHERE game_no = ?1)");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), known->game_no, index, action.seat(),
                                  Blob{action.action()}, action.text(), action.at_unix_ms(),
                                  static_cast<int64_t>(action.origin()));
      !st.ok()) {
    return st;
  }
  const int rc = sqlite3_step(s.get());
  if (rc != SQLITE_DONE) known_.Forget(game_id);  // read back next time
  if (rc == SQLITE_CONSTRAINT_UNIQUE) return store_rules::DuplicateAction(game_id, index);
  if (rc != SQLITE_DONE) {
    return sqlite::Error(db_, rc, "storing action " + std::to_string(index) + " of " + game_id);
  }
  if (sqlite3_changes(db_) != 1) {
    known_.Forget(game_id);
    return store_rules::GameNotFound(game_id);
  }
  known_.Set(game_id, Known{known->game_no, index + 1}, sqlite3_get_autocommit(db_) == 0);
  return Status::Ok();
}

Status SqliteStore::FinishGame(const std::string& game_id,
                               const std::vector<plateau::v1::SeatResult>& results,
                               int64_t finished_unix_ms) {
  if (Status st = store_rules::CheckFinish(game_id, results, finished_unix_ms); !st.ok()) return st;
  std::lock_guard lock(mu_);
  // Whatever happens below, the game's next index is read back before its next append.
  known_.Forget(game_id);
  sqlite::Transaction tx(db_, statements_.get());
  if (Status st = tx.Begin(); !st.ok()) return st;
  {
    auto stmt = Prepare("SELECT status FROM games WHERE game_id = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "checking game " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) {
      return store_rules::GameNotFound(game_id);
    }
    if (sqlite::ColumnText(s.get(), 0) != "playing") {
      return store_rules::GameAlreadyFinished(game_id);
    }
  }
  {
    auto stmt = Prepare(
        "INSERT INTO game_results (game_id, seat, name, score, rank, detail) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!stmt.ok()) return stmt.status();
    for (const auto& r : results) {
      ScopedStatement s(stmt.value());
      if (Status st = sqlite::BindAll(db_, s.get(), game_id, r.seat(), r.name(), r.score(),
                                      r.rank(), r.detail());
          !st.ok()) {
        return st;
      }
      const int rc = sqlite3_step(s.get());
      if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
        return store_rules::TwoResults(game_id, r.seat());
      }
      if (rc != SQLITE_DONE) return sqlite::Error(db_, rc, "storing the results of " + game_id);
    }
  }
  {
    auto stmt = Prepare(
        "UPDATE games SET status = 'finished', finished_unix_ms = ?2 WHERE game_id = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_id, finished_unix_ms); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "finishing game " + game_id);
    if (!row.ok()) return row.status();
  }
  return tx.Commit();
}

Status SqliteStore::SetStandIn(const std::string& game_id, int seat, int level) {
  std::lock_guard lock(mu_);
  return UpdateSeatInPlay(
      "UPDATE game_seats SET stand_in = ?3 WHERE game_id = ?1 AND seat = ?2 AND EXISTS "
      "(SELECT 1 FROM games g WHERE g.game_id = ?1 AND g.status = 'playing')",
      game_id, seat, level, "storing who plays seat " + std::to_string(seat) + " of " + game_id);
}

Status SqliteStore::SetLeft(const std::string& game_id, int seat, bool left) {
  std::lock_guard lock(mu_);
  return UpdateSeatInPlay(
      "UPDATE game_seats SET left_game = ?3 WHERE game_id = ?1 AND seat = ?2 AND EXISTS "
      "(SELECT 1 FROM games g WHERE g.game_id = ?1 AND g.status = 'playing')",
      game_id, seat, left ? 1 : 0,
      "storing whether seat " + std::to_string(seat) + " of " + game_id + " left");
}

Status SqliteStore::UpdateSeatInPlay(const std::string& sql, const std::string& game_id, int seat,
                                     int value, const std::string& what) {
  auto stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id, seat, value); !st.ok()) return st;
  auto row = sqlite::Step(db_, s.get(), what);
  if (!row.ok()) return row.status();
  if (sqlite3_changes(db_) != 1) {
    return store_rules::NoSeatInPlay(game_id, seat);
  }
  return Status::Ok();
}

Status SqliteStore::RecordResume(const std::string& game_id, int64_t at_unix_ms,
                                 int64_t grace_ms) {
  std::lock_guard lock(mu_);
  auto stmt = Prepare(
      "INSERT OR REPLACE INTO game_resumes (game_id, at_unix_ms, grace_ms) SELECT ?1, ?2, ?3 "
      "WHERE EXISTS (SELECT 1 FROM games WHERE game_id = ?1 AND status = 'playing')");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id, at_unix_ms, grace_ms); !st.ok()) return st;
  auto row = sqlite::Step(db_, s.get(), "storing a resume of " + game_id);
  if (!row.ok()) return row.status();
  if (sqlite3_changes(db_) != 1) {
    return store_rules::NotInPlay(game_id);
  }
  return Status::Ok();
}

// --- Loading ---

Status SqliteStore::LoadSeats(const std::string& game_id, plateau::v1::GameRecord* record,
                              RoomRecord* room) {
  auto stmt = Prepare(
      "SELECT seat, name, player_id, stand_in, left_game FROM game_seats WHERE game_id = ?1 "
      "ORDER BY seat");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
  std::vector<std::optional<std::string>> names, player_ids;
  std::vector<int> stand_ins;
  std::vector<bool> left;
  while (true) {
    auto row = sqlite::Step(db_, s.get(), "loading the seats of " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) break;
    if (!sqlite::ColumnIsNull(s.get(), 1)) {
      names.resize(names.size() + 1);
      names.back() = sqlite::ColumnText(s.get(), 1);
    }
    if (!sqlite::ColumnIsNull(s.get(), 2)) {
      player_ids.resize(player_ids.size() + 1);
      player_ids.back() = sqlite::ColumnText(s.get(), 2);
      stand_ins.push_back(static_cast<int>(sqlite::ColumnInt64(s.get(), 3)));
      left.push_back(sqlite::ColumnInt64(s.get(), 4) != 0);
    }
  }
  for (auto& n : names) record->add_seat_names(std::move(*n));
  if (room != nullptr) {
    room->seat_player_ids.clear();
    for (auto& p : player_ids) room->seat_player_ids.push_back(std::move(*p));
    room->seat_stand_ins = std::move(stand_ins);
    room->seat_left = std::move(left);
  }
  return Status::Ok();
}

Status SqliteStore::LoadActions(const std::string& game_id, plateau::v1::GameRecord* record) {
  auto stmt = Prepare(
      "SELECT a.seat, a.action, a.text, a.at_unix_ms, a.origin FROM games g "
      "JOIN game_actions a ON a.game_no = g.game_no WHERE g.game_id = ?1 ORDER BY a.idx");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
  while (true) {
    auto row = sqlite::Step(db_, s.get(), "loading the actions of " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) break;
    plateau::v1::ReplayAction* a = record->add_actions();
    a->set_seat(static_cast<int32_t>(sqlite::ColumnInt64(s.get(), 0)));
    a->set_action(sqlite::ColumnBlob(s.get(), 1));
    a->set_text(sqlite::ColumnText(s.get(), 2));
    a->set_at_unix_ms(sqlite::ColumnInt64(s.get(), 3));
    const int64_t origin = sqlite::ColumnInt64(s.get(), 4);
    // An origin this build does not know reads as the player's own move.
    if (plateau::v1::ActionOrigin_IsValid(static_cast<int>(origin))) {
      a->set_origin(static_cast<plateau::v1::ActionOrigin>(origin));
    }
  }
  return Status::Ok();
}

Status SqliteStore::LoadResults(
    const std::string& game_id,
    google::protobuf::RepeatedPtrField<plateau::v1::SeatResult>* results) {
  auto stmt = Prepare(
      "SELECT seat, name, score, rank, detail FROM game_results WHERE game_id = ?1 "
      "ORDER BY seat");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
  while (true) {
    auto row = sqlite::Step(db_, s.get(), "loading the results of " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) break;
    plateau::v1::SeatResult* r = results->Add();
    r->set_seat(static_cast<uint32_t>(sqlite::ColumnInt64(s.get(), 0)));
    r->set_name(sqlite::ColumnText(s.get(), 1));
    r->set_score(sqlite::ColumnInt64(s.get(), 2));
    r->set_rank(static_cast<uint32_t>(sqlite::ColumnInt64(s.get(), 3)));
    r->set_detail(sqlite::ColumnText(s.get(), 4));
  }
  return Status::Ok();
}

Status SqliteStore::TakeBackAction(const std::string& game_id, uint32_t index,
                                   int64_t at_unix_ms) {
  std::lock_guard lock(mu_);
  known_.Forget(game_id);  // read back by the next append
  sqlite::Transaction tx(db_, statements_.get());
  if (Status st = tx.Begin(); !st.ok()) return st;
  auto read = ReadPlayingGame(game_id);
  if (!read.ok()) return read.status();
  const int64_t game_no = read.value().game_no;
  if (read.value().next != index + 1) {
    return store_rules::NotLastAction(game_id, index);
  }
  // Kept out of the log first, then dropped from it: one transaction, so never half done.
  {
    auto stmt = Prepare(
        "INSERT INTO game_taken_back (game_no, idx, seat, action, at_unix_ms, origin, "
        "taken_back_unix_ms) SELECT game_no, idx, seat, action, at_unix_ms, origin, ?3 "
        "FROM game_actions WHERE game_no = ?1 AND idx = ?2");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_no, index, at_unix_ms); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "keeping action " + std::to_string(index) + " of " + game_id);
    if (!row.ok()) return row.status();
  }
  {
    auto stmt = Prepare("DELETE FROM game_actions WHERE game_no = ?1 AND idx = ?2");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_no, index); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "taking back action " + std::to_string(index) + " of " + game_id);
    if (!row.ok()) return row.status();
  }
  return tx.Commit();
}

StatusOr<std::optional<plateau::v1::GameRecord>> SqliteStore::LoadGameLocked(
    const std::string& game_id, RoomRecord* room) {
  plateau::v1::GameRecord record;
  {
    auto stmt = Prepare(
        "SELECT game, options, seed, started_unix_ms, finished_unix_ms, room_id, join_code, "
        "is_private, title, host_player_id, replay_token, timer, watch_code, undo FROM games "
        "WHERE game_id = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "loading game " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) return std::optional<plateau::v1::GameRecord>();
    record.set_game_id(game_id);
    record.set_game(sqlite::ColumnText(s.get(), 0));
    record.set_options(sqlite::ColumnBlob(s.get(), 1));
    record.set_seed(SeedFromSql(sqlite::ColumnInt64(s.get(), 2)));
    record.set_started_unix_ms(sqlite::ColumnInt64(s.get(), 3));
    record.set_finished_unix_ms(sqlite::ColumnInt64(s.get(), 4));  // NULL while playing: 0
    if (room != nullptr) {
      room->room_id = sqlite::ColumnText(s.get(), 5);
      room->join_code = sqlite::ColumnText(s.get(), 6);
      room->is_private = sqlite::ColumnInt64(s.get(), 7) != 0;
      room->title = sqlite::ColumnText(s.get(), 8);
      room->host_player_id = sqlite::ColumnText(s.get(), 9);
      room->replay_token = sqlite::ColumnText(s.get(), 10);
      room->timer = sqlite::ColumnBlob(s.get(), 11);
      room->watch_code = sqlite::ColumnText(s.get(), 12);
      room->undo = sqlite::ColumnInt64(s.get(), 13) != 0;
    }
  }
  if (Status st = LoadSeats(game_id, &record, room); !st.ok()) return st;
  if (room != nullptr) {
    room->resumes.clear();
    auto stmt = Prepare(
        "SELECT at_unix_ms, grace_ms FROM game_resumes WHERE game_id = ?1 ORDER BY at_unix_ms");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
    while (true) {
      auto row = sqlite::Step(db_, s.get(), "loading the resumes of " + game_id);
      if (!row.ok()) return row.status();
      if (!row.value()) break;
      room->resumes.push_back({sqlite::ColumnInt64(s.get(), 0), sqlite::ColumnInt64(s.get(), 1)});
    }
  }
  if (Status st = LoadActions(game_id, &record); !st.ok()) return st;
  if (room != nullptr) {
    // The last take-back is the one stored last; it sits at the log's end while no action took
    // its index again.
    auto stmt = Prepare(
        "SELECT (SELECT count(*) FROM game_taken_back t WHERE t.game_no = g.game_no), "
        "coalesce((SELECT t.idx FROM game_taken_back t WHERE t.game_no = g.game_no "
        "ORDER BY t.rowid DESC LIMIT 1), -1) FROM games g WHERE g.game_id = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "loading the take-backs of " + game_id);
    if (!row.ok()) return row.status();
    room->taken_back = row.value() ? static_cast<uint32_t>(sqlite::ColumnInt64(s.get(), 0)) : 0;
    room->taken_back_last =
        room->taken_back > 0 && sqlite::ColumnInt64(s.get(), 1) == record.actions_size();
  }
  if (Status st = LoadResults(game_id, record.mutable_results()); !st.ok()) return st;
  return std::optional<plateau::v1::GameRecord>(std::move(record));
}

StatusOr<std::optional<plateau::v1::GameRecord>> SqliteStore::LoadGame(const std::string& game_id) {
  std::lock_guard lock(mu_);
  // One read transaction, so a concurrent writer in another process cannot make the actions
  // and the results disagree.
  sqlite::ReadTransaction read(db_, statements_.get());
  if (Status st = read.Begin(); !st.ok()) return st;
  return LoadGameLocked(game_id, nullptr);
}

StatusOr<std::optional<GameAccess>> SqliteStore::LoadGameAccess(const std::string& game_id) {
  std::lock_guard lock(mu_);
  sqlite::ReadTransaction read(db_, statements_.get());
  if (Status st = read.Begin(); !st.ok()) return st;
  GameAccess access;
  {
    auto stmt = Prepare("SELECT status, is_private, replay_token FROM games WHERE game_id = ?1");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
    auto row = sqlite::Step(db_, s.get(), "checking access to game " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) return std::optional<GameAccess>();
    access.finished = sqlite::ColumnText(s.get(), 0) == "finished";
    access.is_private = sqlite::ColumnInt64(s.get(), 1) != 0;
    access.replay_token = sqlite::ColumnText(s.get(), 2);
  }
  auto stmt = Prepare(
      "SELECT player_id FROM game_seats WHERE game_id = ?1 AND player_id IS NOT NULL "
      "ORDER BY seat");
  if (!stmt.ok()) return stmt.status();
  ScopedStatement s(stmt.value());
  if (Status st = sqlite::BindAll(db_, s.get(), game_id); !st.ok()) return st;
  while (true) {
    auto row = sqlite::Step(db_, s.get(), "loading the players of " + game_id);
    if (!row.ok()) return row.status();
    if (!row.value()) break;
    access.seat_player_ids.push_back(sqlite::ColumnText(s.get(), 0));
  }
  return std::optional<GameAccess>(std::move(access));
}

StatusOr<std::vector<plateau::v1::ReplaySummary>> SqliteStore::ListFinished(
    const std::string& game, uint32_t limit, const std::string& before_game_id,
    const std::string& viewer_player_id) {
  limit = std::min(limit, kMaxListLimit);
  std::vector<plateau::v1::ReplaySummary> out;
  if (limit == 0) return out;
  std::lock_guard lock(mu_);
  sqlite::ReadTransaction read(db_, statements_.get());
  if (Status st = read.Begin(); !st.ok()) return st;

  std::optional<int64_t> cursor_ms;
  if (!before_game_id.empty()) {
    // A private game hidden from the viewer is no cursor either: paging must not reveal it.
    auto stmt = Prepare(
        "SELECT g.finished_unix_ms FROM games g WHERE g.game_id = ?1 AND g.status = 'finished' "
        "AND " + ListedTo(2));
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    if (Status st = sqlite::BindAll(db_, s.get(), before_game_id, viewer_player_id); !st.ok()) {
      return st;
    }
    auto row = sqlite::Step(db_, s.get(), "reading the page cursor");
    if (!row.ok()) return row.status();
    if (!row.value()) {
      return store_rules::BadCursor(before_game_id);
    }
    cursor_ms = sqlite::ColumnInt64(s.get(), 0);
  }
  // Four shapes of one query, each a separate cached statement, so each can use its index
  // (an "?1 = '' OR game = ?1" condition would defeat games_finished_by_game).
  // A private row can only be listed to one of its players, so its token goes with it.
  std::string sql =
      "SELECT g.game_id, g.game, g.finished_unix_ms, "
      "(SELECT count(*) FROM game_actions a WHERE a.game_no = g.game_no), g.is_private, "
      "g.replay_token FROM games g WHERE g.status = 'finished' AND " + ListedTo(5);
  if (!game.empty()) sql += " AND g.game = ?1";
  if (cursor_ms.has_value()) sql += " AND (g.finished_unix_ms, g.game_id) < (?2, ?3)";
  sql += " ORDER BY g.finished_unix_ms DESC, g.game_id DESC LIMIT ?4";
  auto stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  {
    ScopedStatement s(stmt.value());
    const int rc1 = game.empty() ? SQLITE_OK
                                 : sqlite3_bind_text64(s.get(), 1, game.data(), game.size(),
                                                       SQLITE_TRANSIENT, SQLITE_UTF8);
    const int rc2 = cursor_ms.has_value() ? sqlite3_bind_int64(s.get(), 2, *cursor_ms) : SQLITE_OK;
    const int rc3 = cursor_ms.has_value()
                        ? sqlite3_bind_text64(s.get(), 3, before_game_id.data(),
                                              before_game_id.size(), SQLITE_TRANSIENT, SQLITE_UTF8)
                        : SQLITE_OK;
    const int rc4 = sqlite3_bind_int64(s.get(), 4, limit);
    const int rc5 = sqlite3_bind_text64(s.get(), 5, viewer_player_id.data(),
                                        viewer_player_id.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    for (int rc : {rc1, rc2, rc3, rc4, rc5}) {
      if (rc != SQLITE_OK) return sqlite::Error(db_, rc, "listing finished games");
    }
    while (true) {
      auto row = sqlite::Step(db_, s.get(), "listing finished games");
      if (!row.ok()) return row.status();
      if (!row.value()) break;
      plateau::v1::ReplaySummary& summary = out.emplace_back();
      summary.set_game_id(sqlite::ColumnText(s.get(), 0));
      summary.set_game(sqlite::ColumnText(s.get(), 1));
      summary.set_finished_unix_ms(sqlite::ColumnInt64(s.get(), 2));
      summary.set_steps(static_cast<uint32_t>(sqlite::ColumnInt64(s.get(), 3)));
      if (sqlite::ColumnInt64(s.get(), 4) != 0) {
        summary.set_is_private(true);
        summary.set_replay_token(sqlite::ColumnText(s.get(), 5));
      }
    }
  }
  for (auto& summary : out) {
    if (Status st = LoadResults(summary.game_id(), summary.mutable_results()); !st.ok()) return st;
  }
  return out;
}

StatusOr<std::vector<Store::Unfinished>> SqliteStore::LoadUnfinished() {
  std::lock_guard lock(mu_);
  sqlite::ReadTransaction read(db_, statements_.get());
  if (Status st = read.Begin(); !st.ok()) return st;

  std::vector<std::string> ids;
  {
    auto stmt = Prepare(
        "SELECT game_id FROM games WHERE status = 'playing' ORDER BY started_unix_ms, game_id");
    if (!stmt.ok()) return stmt.status();
    ScopedStatement s(stmt.value());
    while (true) {
      auto row = sqlite::Step(db_, s.get(), "listing unfinished games");
      if (!row.ok()) return row.status();
      if (!row.value()) break;
      ids.push_back(sqlite::ColumnText(s.get(), 0));
    }
  }
  std::vector<Unfinished> out;
  out.reserve(ids.size());
  for (const std::string& id : ids) {
    Unfinished u;
    auto record = LoadGameLocked(id, &u.room);
    if (!record.ok()) return record.status();
    if (!record.value().has_value()) continue;  // cannot happen inside one read transaction
    u.record = std::move(*record.value());
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace plateau::server
