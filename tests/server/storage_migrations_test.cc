// Schema migrations: applied in order on a fresh file, idempotent on reopen, atomic, and a
// database newer than the binary (or from a diverging build) is refused.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"
#include "server/storage/migrations.h"
#include "server/storage/sqlite_store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;
using storage::Migration;

using plateau::testing::TempDir;

// A raw connection for looking behind the store's back.
class RawDb {
 public:
  explicit RawDb(const std::string& path) {
    EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK);
  }
  ~RawDb() { sqlite3_close(db_); }
  sqlite3* get() const { return db_; }
  // Applies the embedded migrations up to `version` only, as an older server left the file.
  void MigrateTo(int version) {
    auto embedded = storage::EmbeddedMigrations();
    ASSERT_TRUE(embedded.ok());
    ASSERT_GT(embedded.value().size(), static_cast<size_t>(version));
    embedded.value().resize(version);
    ASSERT_TRUE(storage::ApplyMigrations(db_, embedded.value()).ok());
  }
  void Exec(const std::string& sql) {
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error ? error : "");
  }
  // The first column of the first row as text ("" when there is no row).
  std::string Query(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
    std::string out;
    if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0) != nullptr) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
};

int KnownVersion() {
  auto migrations = storage::EmbeddedMigrations();
  EXPECT_TRUE(migrations.ok()) << migrations.status().ToString();
  return migrations.ok() ? static_cast<int>(migrations.value().size()) : 0;
}

TEST(StorageMigrations, EmbeddedListStartsWithInitAndIsNumberedWithoutGaps) {
  auto migrations = storage::EmbeddedMigrations();
  ASSERT_TRUE(migrations.ok()) << migrations.status().ToString();
  ASSERT_FALSE(migrations.value().empty());
  EXPECT_EQ(migrations.value()[0].name, "0001_init");
  for (size_t i = 0; i < migrations.value().size(); ++i) {
    EXPECT_EQ(migrations.value()[i].version, static_cast<int>(i) + 1);
    // Each changes the schema (creates or alters something), not only comments, unless its
    // first line says the step is PostgreSQL's schema's alone (schema/postgres).
    const std::string_view sql = migrations.value()[i].sql;
    EXPECT_TRUE(sql.find("CREATE ") != std::string_view::npos ||
                sql.find("ALTER TABLE ") != std::string_view::npos ||
                sql.starts_with("-- PostgreSQL only."))
        << migrations.value()[i].name;
  }
}

TEST(StorageMigrations, FilesAreSortedAndMisnumberedOnesRefused) {
  auto sorted = storage::MigrationsFromFiles({{"0002_b", "B"}, {"0001_a", "A"}});
  ASSERT_TRUE(sorted.ok());
  EXPECT_EQ(sorted.value()[0].name, "0001_a");
  EXPECT_EQ(sorted.value()[1].sql, "B");

  EXPECT_EQ(storage::MigrationsFromFiles({{"0001_a", ""}, {"0003_c", ""}}).status().code(),
            storage::codes::kBadMigrations);
  EXPECT_EQ(storage::MigrationsFromFiles({{"0001_a", ""}, {"0001_b", ""}}).status().code(),
            storage::codes::kBadMigrations);
  EXPECT_EQ(storage::MigrationsFromFiles({{"init", ""}}).status().code(),
            storage::codes::kBadMigrations);
  EXPECT_EQ(storage::MigrationsFromFiles({{"0001", ""}}).status().code(),
            storage::codes::kBadMigrations);
  EXPECT_EQ(storage::MigrationsFromFiles({{"0000_zero", ""}}).status().code(),
            storage::codes::kBadMigrations);
}

TEST(StorageMigrations, FreshFileGetsEveryMigrationRecorded) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  {
    auto store = SqliteStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
  }
  RawDb raw(path);
  auto version = storage::SchemaVersion(raw.get());
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version.value(), KnownVersion());
  EXPECT_EQ(raw.Query("SELECT count(*) FROM schema_migrations"), std::to_string(KnownVersion()));
  EXPECT_EQ(raw.Query("SELECT name FROM schema_migrations WHERE version = 1"), "0001_init");
  for (const char* table : {"players", "games", "game_seats", "game_actions", "game_results"}) {
    EXPECT_EQ(raw.Query(std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                     "AND name = '") + table + "'"),
              "1")
        << table;
  }
  // WAL is a property of the file, so it is visible from any connection.
  EXPECT_EQ(raw.Query("PRAGMA journal_mode"), "wal");
}

TEST(StorageMigrations, ReopeningAppliesNothingTwice) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  std::string first_applied;
  {
    ASSERT_TRUE(SqliteStore::Open(path).ok());
    RawDb raw(path);
    first_applied = raw.Query("SELECT group_concat(version || ':' || applied_unix_ms) "
                              "FROM schema_migrations");
  }
  ASSERT_FALSE(first_applied.empty());
  for (int i = 0; i < 2; ++i) {
    auto store = SqliteStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
  }
  RawDb raw(path);
  EXPECT_EQ(raw.Query("SELECT group_concat(version || ':' || applied_unix_ms) "
                      "FROM schema_migrations"),
            first_applied);
}

TEST(StorageMigrations, DatabaseFromANewerServerIsRefused) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  ASSERT_TRUE(SqliteStore::Open(path).ok());
  const int newer = KnownVersion() + 1;
  {
    RawDb raw(path);
    raw.Exec("INSERT INTO schema_migrations VALUES (" + std::to_string(newer) +
             ", 'from_the_future', 0)");
  }
  auto store = SqliteStore::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), storage::codes::kSchemaTooNew);
  EXPECT_NE(store.status().reason().find(std::to_string(newer)), std::string::npos)
      << store.status().reason();
}

TEST(StorageMigrations, DatabaseFromADivergingBuildIsRefused) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  ASSERT_TRUE(SqliteStore::Open(path).ok());
  {
    RawDb raw(path);
    raw.Exec("UPDATE schema_migrations SET name = '0001_other' WHERE version = 1");
  }
  auto store = SqliteStore::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), storage::codes::kSchemaMismatch);
}

TEST(StorageMigrations, FailingMigrationLeavesThePreviousVersionIntact) {
  TempDir dir;
  RawDb raw(dir.File("plateau.sqlite"));
  auto embedded = storage::EmbeddedMigrations();
  ASSERT_TRUE(embedded.ok());
  std::vector<Migration> migrations = embedded.value();
  const int good = static_cast<int>(migrations.size());
  // Its first statement succeeds, its second fails: the first must be rolled back too.
  migrations.push_back(Migration{good + 1, "9999_broken",
                                 "CREATE TABLE half_done (a INTEGER);"
                                 "INSERT INTO no_such_table VALUES (1);"});
  Status st = storage::ApplyMigrations(raw.get(), migrations);
  EXPECT_EQ(st.code(), sqlite::codes::kStorageError);
  EXPECT_NE(st.reason().find("9999_broken"), std::string::npos) << st.reason();
  EXPECT_EQ(storage::SchemaVersion(raw.get()).value(), good);
  EXPECT_EQ(raw.Query("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'"), "0");
}

// A database left at version 1 by an older server, with finished games public and private and a
// private one still being played, opened by this one.
TEST(StorageMigrations, Version2GivesOldPrivateGamesATokenAndKeepsPublicOnesListed) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  {
    RawDb raw(path);
    raw.MigrateTo(1);
    raw.Exec(
        "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, "
        "finished_unix_ms, room_id, join_code, is_private, title, host_player_id) VALUES "
        "('g-public', 'globalissimo', x'', 0, 'finished', 1, 100, 'r1', 'AAAAAA', 0, '', 'p-ada'),"
        "('g-private', 'globalissimo', x'', 0, 'finished', 1, 200, 'r2', 'BBBBBB', 1, '', 'p-ada'),"
        "('g-other', 'globalissimo', x'', 0, 'finished', 1, 300, 'r3', 'CCCCCC', 1, '', 'p-cy'),"
        "('g-playing', 'globalissimo', x'', 0, 'playing', 1, NULL, 'r4', 'DDDDDD', 1, '', 'p-ada');"
        "INSERT INTO game_seats (game_id, seat, name, player_id) VALUES "
        "('g-public', 0, 'Ada', 'p-ada'), ('g-public', 1, 'Cy', 'p-cy'),"
        "('g-private', 0, 'Ada', 'p-ada'), ('g-private', 1, 'Bob', 'p-bob'),"
        "('g-other', 0, 'Cy', 'p-cy'), ('g-playing', 0, 'Ada', 'p-ada');");
  }
  auto store = SqliteStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().ToString();

  std::string private_token, other_token;
  {
    RawDb raw(path);
    EXPECT_EQ(raw.Query("SELECT name FROM schema_migrations WHERE version = 2"),
              "0002_replay_privacy");
    EXPECT_EQ(raw.Query("SELECT replay_token FROM games WHERE game_id = 'g-public'"), "");
    private_token = raw.Query("SELECT replay_token FROM games WHERE game_id = 'g-private'");
    other_token = raw.Query("SELECT replay_token FROM games WHERE game_id = 'g-other'");
    for (const std::string& token :
         {private_token, other_token,
          raw.Query("SELECT replay_token FROM games WHERE game_id = 'g-playing'")}) {
      EXPECT_EQ(token.size(), 32u) << token;
      EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos) << token;
    }
    EXPECT_NE(private_token, other_token);
  }

  auto ids = [&](const std::string& viewer) {
    std::vector<std::string> out;
    auto list = store.value()->ListFinished("", 10, "", viewer);
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    if (list.ok()) {
      for (const auto& s : list.value()) out.push_back(s.game_id());
    }
    return out;
  };
  EXPECT_EQ(ids("p-stranger"), std::vector<std::string>{"g-public"});
  EXPECT_EQ(ids("p-cy"), (std::vector<std::string>{"g-other", "g-public"}));
  auto bobs = store.value()->ListFinished("", 10, "", "p-bob").value();
  ASSERT_EQ(bobs.size(), 2u);
  EXPECT_EQ(bobs[0].game_id(), "g-private");
  EXPECT_TRUE(bobs[0].is_private());
  EXPECT_EQ(bobs[0].replay_token(), private_token);
  EXPECT_EQ(bobs[1].game_id(), "g-public");
  EXPECT_EQ(bobs[1].replay_token(), "");
}

// A database at version 2 with a finished game and one in play, their actions stored out of
// order, opened by this server: every action is kept, in index order, each game keeps going
// from where it was, and a new game gets a number of its own.
TEST(StorageMigrations, Version3KeepsEveryActionAndTheGamesGoOn) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  {
    RawDb raw(path);
    raw.MigrateTo(2);
    raw.Exec(
        "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, "
        "finished_unix_ms, room_id, join_code, is_private, title, host_player_id) VALUES "
        "('g-done', 'globalissimo', x'', 0, 'finished', 1, 100, 'r1', 'AAAAAA', 0, '', 'p-ada'),"
        "('g-live', 'limit', x'', 0, 'playing', 2, NULL, 'r2', 'BBBBBB', 0, '', 'p-ada');"
        "INSERT INTO game_actions (game_id, idx, seat, action, text, at_unix_ms) VALUES "
        "('g-live', 1, 1, x'0b', 'live 1', 21), ('g-done', 0, 0, x'0a', 'done 0', 10),"
        "('g-live', 0, 0, x'0a', 'live 0', 20), ('g-done', 2, 0, x'0c', 'done 2', 12),"
        "('g-done', 1, 1, x'0b', 'done 1', 11);");
  }
  auto opened = SqliteStore::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  SqliteStore& store = *opened.value();
  {
    RawDb raw(path);
    EXPECT_EQ(raw.Query("SELECT name FROM schema_migrations WHERE version = 3"),
              "0003_action_log_in_arrival_order");
    EXPECT_EQ(raw.Query("SELECT count(DISTINCT game_no) FROM games WHERE game_no > 0"), "2");
    EXPECT_EQ(raw.Query("SELECT count(*) FROM sqlite_master WHERE name = 'game_actions_by_id'"),
              "0");
  }
  auto texts = [&](const std::string& game_id) {
    std::vector<std::string> out;
    auto record = store.LoadGame(game_id);
    EXPECT_TRUE(record.ok() && record.value().has_value()) << game_id;
    if (record.ok() && record.value().has_value()) {
      for (const auto& a : record.value()->actions()) {
        out.push_back(a.text() + "@" + std::to_string(a.at_unix_ms()) + "/" +
                      std::to_string(a.seat()));
      }
    }
    return out;
  };
  EXPECT_EQ(texts("g-done"),
            (std::vector<std::string>{"done 0@10/0", "done 1@11/1", "done 2@12/0"}));
  EXPECT_EQ(texts("g-live"), (std::vector<std::string>{"live 0@20/0", "live 1@21/1"}));
  auto listed = store.ListFinished("", 10, "", "").value();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].steps(), 3u);

  plateau::v1::ReplayAction next;
  next.set_text("live 2");
  EXPECT_EQ(store.AppendAction("g-live", 1, next).code(), store_codes::kDuplicateAction);
  EXPECT_EQ(store.AppendAction("g-live", 3, next).code(), store_codes::kActionGap);
  EXPECT_TRUE(store.AppendAction("g-live", 2, next).ok());
  EXPECT_EQ(store.AppendAction("g-done", 3, next).code(), store_codes::kGameFinished);

  plateau::v1::GameRecord fresh;
  fresh.set_game_id("g-new");
  fresh.set_game("limit");
  ASSERT_TRUE(store.BeginGame(fresh, RoomRecord{}).ok());
  next.set_text("new 0");
  EXPECT_TRUE(store.AppendAction("g-new", 0, next).ok());
  EXPECT_EQ(texts("g-new"), (std::vector<std::string>{"new 0@0/0"}));
  EXPECT_EQ(texts("g-live").size(), 3u);
  RawDb raw(path);
  EXPECT_EQ(raw.Query("SELECT count(DISTINCT game_no) FROM games"), "3");
}

// Players stored before version 7 count their token as used when the server upgrades, not when
// they were created or last renamed: a player from long ago keeps his seat after the upgrade.
TEST(StorageMigrations, Version7StartsOldTokensFromTheUpgrade) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  {
    RawDb raw(path);
    raw.MigrateTo(6);
    raw.Exec(
        "INSERT INTO players (token_sha256, player_id, name, created_unix_ms, updated_unix_ms) "
        "VALUES (zeroblob(32), 'p-old', 'Ada', 1000, 2000);");
  }
  // SQLite's clock counts whole seconds.
  const int64_t before_s = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  auto opened = SqliteStore::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  RawDb raw(path);
  const std::string last_used =
      raw.Query("SELECT last_used_unix_ms FROM players WHERE player_id = 'p-old'");
  ASSERT_FALSE(last_used.empty());
  EXPECT_GE(std::stoll(last_used), before_s * 1000);
}

// Games stored before version 8 get a watch code each, so their rooms, once restored, have a
// watch link as new ones do; no two alike.
TEST(StorageMigrations, Version8GivesEveryStoredGameItsOwnWatchCode) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  {
    RawDb raw(path);
    raw.MigrateTo(7);
    raw.Exec(
        "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, "
        "finished_unix_ms, room_id, join_code, is_private, title, host_player_id, game_no) VALUES "
        "('g-one', 'limit', x'', 0, 'playing', 1, NULL, 'r1', 'AAAAAA', 1, '', 'p-ada', 1),"
        "('g-two', 'limit', x'', 0, 'playing', 2, NULL, 'r2', 'BBBBBB', 1, '', 'p-ada', 2);");
  }
  auto opened = SqliteStore::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  RawDb raw(path);
  EXPECT_EQ(raw.Query("SELECT name FROM schema_migrations WHERE version = 8"), "0008_watch_code");
  EXPECT_EQ(raw.Query("SELECT count(DISTINCT watch_code) FROM games WHERE length(watch_code) = 12"),
            "2");
}

// Games stored before version 9 had no undo option: restored, they do not let moves be taken
// back, and they have none taken back. Their log takes take-backs like any other from then on.
TEST(StorageMigrations, Version9LeavesUndoOffForStoredGames) {
  TempDir dir;
  const std::string path = dir.File("plateau.sqlite");
  {
    RawDb raw(path);
    raw.MigrateTo(8);
    raw.Exec(
        "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, "
        "finished_unix_ms, room_id, join_code, is_private, title, host_player_id, game_no) VALUES "
        "('g-old', 'globalissimo', x'', 0, 'playing', 1, NULL, 'r1', 'AAAAAA', 0, '', 'p-ada', 1);"
        "INSERT INTO game_actions (game_no, idx, seat, action, text, at_unix_ms) VALUES "
        "(1, 0, 0, x'0a', 'old 0', 10), (1, 1, 1, x'0b', 'old 1', 11);");
  }
  auto opened = SqliteStore::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  SqliteStore& store = *opened.value();
  {
    RawDb raw(path);
    EXPECT_EQ(raw.Query("SELECT name FROM schema_migrations WHERE version = 9"), "0009_take_backs");
    EXPECT_EQ(raw.Query("SELECT undo FROM games WHERE game_id = 'g-old'"), "0");
  }
  auto unfinished = store.LoadUnfinished();
  ASSERT_TRUE(unfinished.ok()) << unfinished.status().ToString();
  ASSERT_EQ(unfinished.value().size(), 1u);
  const RoomRecord& room = unfinished.value()[0].room;
  EXPECT_FALSE(room.undo);
  EXPECT_EQ(room.taken_back, 0u);
  EXPECT_FALSE(room.taken_back_last);

  // A take-back is counted and sits at the log's end until an action takes its index again.
  ASSERT_TRUE(store.TakeBackAction("g-old", 1, 20).ok());
  RoomRecord after = store.LoadUnfinished().value().at(0).room;
  EXPECT_EQ(after.taken_back, 1u);
  EXPECT_TRUE(after.taken_back_last);
  plateau::v1::ReplayAction again;
  again.set_seat(1);
  ASSERT_TRUE(store.AppendAction("g-old", 1, again).ok());
  after = store.LoadUnfinished().value().at(0).room;
  EXPECT_EQ(after.taken_back, 1u);
  EXPECT_FALSE(after.taken_back_last);
}

TEST(StorageMigrations, OpeningADirectoryFailsWithAStorageError) {
  TempDir dir;
  auto store = SqliteStore::Open(dir.File(""));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), sqlite::codes::kStorageError);
}

}  // namespace
}  // namespace plateau::server
