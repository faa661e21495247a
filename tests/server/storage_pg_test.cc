// The schema's migrations on a real PostgreSQL server started by the test: applied once each, in
// order, by one node at a time; refused on a newer or diverging database; and the ported schema
// has SQLite's tables, columns and indexes.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <set>
#include <thread>

#include "server/storage/migrations.h"
#include "server/storage/pg_migrations.h"
#include "server/storage/pg_util.h"
#include "tests/server/pg_test_server.h"

namespace plateau::server::storage {
namespace {

// A new database per test, on the process's server.
class PgMigrationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = testing::NewTestDatabase();
    ASSERT_FALSE(conninfo_.empty());
    c_ = Connect();
    auto migrations = EmbeddedPgMigrations();
    ASSERT_TRUE(migrations.ok()) << migrations.status().ToString();
    migrations_ = migrations.value();
  }
  pg::Connection Connect() {
    auto c = pg::Connect(conninfo_);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? std::move(c).value() : nullptr;
  }
  // The rows of `sql`, each as its columns' texts joined by '|'.
  std::vector<std::string> Rows(const std::string& sql) {
    auto r = pg::Query(c_.get(), sql, {}, "reading");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    std::vector<std::string> out;
    if (!r.ok()) return out;
    PGresult* res = r.value().get();
    for (int i = 0; i < PQntuples(res); ++i) {
      std::string row;
      for (int j = 0; j < PQnfields(res); ++j) row += (j ? "|" : "") + std::string(PQgetvalue(res, i, j));
      out.push_back(row);
    }
    return out;
  }

  std::string conninfo_;
  pg::Connection c_;
  std::vector<Migration> migrations_;
};

TEST_F(PgMigrationsTest, TheSameNumbersAndNamesAsSqlites) {
  auto sqlite = EmbeddedMigrations();
  ASSERT_TRUE(sqlite.ok());
  ASSERT_EQ(migrations_.size(), sqlite.value().size());
  for (size_t i = 0; i < migrations_.size(); ++i) {
    EXPECT_EQ(migrations_[i].version, sqlite.value()[i].version);
    EXPECT_EQ(migrations_[i].name, sqlite.value()[i].name);
  }
}

TEST_F(PgMigrationsTest, AFreshDatabaseGetsEveryMigrationOnceInOrder) {
  auto before = PgSchemaVersion(c_.get());
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before.value(), 0);
  ASSERT_TRUE(ApplyPgMigrations(c_.get(), migrations_).ok());
  EXPECT_EQ(PgSchemaVersion(c_.get()).value(), static_cast<int>(migrations_.size()));
  const auto applied = Rows("SELECT version, name, applied_unix_ms FROM schema_migrations ORDER BY version");
  ASSERT_EQ(applied.size(), migrations_.size());
  for (size_t i = 0; i < applied.size(); ++i) {
    EXPECT_EQ(applied[i].substr(0, applied[i].rfind('|')),
              std::to_string(migrations_[i].version) + "|" + std::string(migrations_[i].name));
  }
  // Again, from another connection (a node starting later): nothing is applied twice.
  auto other = Connect();
  ASSERT_TRUE(ApplyPgMigrations(other.get(), migrations_).ok());
  EXPECT_EQ(Rows("SELECT version, name, applied_unix_ms FROM schema_migrations ORDER BY version"),
            applied);
}

TEST_F(PgMigrationsTest, NodesStartingTogetherApplyEachMigrationOnce) {
  constexpr int kNodes = 4;
  std::vector<Status> outcomes(kNodes);
  std::vector<std::thread> nodes;
  for (int i = 0; i < kNodes; ++i) {
    nodes.emplace_back([&, i] {
      auto c = pg::Connect(conninfo_);
      outcomes[i] = c.ok() ? ApplyPgMigrations(c.value().get(), migrations_) : c.status();
    });
  }
  for (auto& t : nodes) t.join();
  for (const Status& st : outcomes) EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Rows("SELECT count(*), count(DISTINCT version) FROM schema_migrations"),
            std::vector<std::string>{std::to_string(migrations_.size()) + "|" +
                                     std::to_string(migrations_.size())});
}

TEST_F(PgMigrationsTest, NewerOrDivergingDatabasesAreRefused) {
  ASSERT_TRUE(ApplyPgMigrations(c_.get(), migrations_).ok());
  const std::string next = std::to_string(migrations_.size() + 1);
  ASSERT_TRUE(pg::Exec(c_.get(),
                       "INSERT INTO schema_migrations VALUES (" + next + ", '" + next +
                           "_from_the_future', 0)",
                       "test")
                  .ok());
  EXPECT_EQ(ApplyPgMigrations(c_.get(), migrations_).code(), codes::kSchemaTooNew);
  ASSERT_TRUE(pg::Exec(c_.get(), "DELETE FROM schema_migrations WHERE version = " + next, "test").ok());
  ASSERT_TRUE(pg::Exec(c_.get(), "UPDATE schema_migrations SET name = '0002_elsewhere' WHERE version = 2",
                       "test")
                  .ok());
  EXPECT_EQ(ApplyPgMigrations(c_.get(), migrations_).code(), codes::kSchemaMismatch);
}

// 0017 drops game_actions.seq on PostgreSQL: a log written at 16 reads the same at 17, and the
// appends of 17 write no sequence number.
TEST_F(PgMigrationsTest, Version17KeepsEveryActionWithoutItsSequenceNumber) {
  const std::vector<Migration> up_to_16(migrations_.begin(), migrations_.begin() + 16);
  ASSERT_TRUE(ApplyPgMigrations(c_.get(), up_to_16).ok());
  ASSERT_TRUE(pg::Exec(c_.get(),
                       "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, "
                       "room_id, join_code, is_private, title, host_player_id) "
                       "VALUES ('g1', 'globalissimo', '', 7, 'playing', 1, 'r1', '', 0, '', ''); "
                       "INSERT INTO game_actions (game_no, idx, seat, action, text, at_unix_ms) "
                       "SELECT game_no, i, i % 2, decode('0a0' || i, 'hex'), 'move ' || i, i "
                       "FROM games, generate_series(0, 4) i",
                       "test")
                  .ok());
  const auto before = Rows("SELECT game_no, idx, seat, encode(action, 'hex'), text, at_unix_ms "
                           "FROM game_actions ORDER BY game_no, idx");
  ASSERT_EQ(before.size(), 5u);
  ASSERT_TRUE(ApplyPgMigrations(c_.get(), migrations_).ok());
  EXPECT_EQ(Rows("SELECT game_no, idx, seat, encode(action, 'hex'), text, at_unix_ms "
                 "FROM game_actions ORDER BY game_no, idx"),
            before);
  EXPECT_EQ(Rows("SELECT count(*) FROM information_schema.columns WHERE table_name = "
                 "'game_actions' AND column_name = 'seq'"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(Rows("SELECT count(*) FROM pg_sequences WHERE sequencename LIKE 'game_actions%'"),
            std::vector<std::string>{"0"});
}

TEST_F(PgMigrationsTest, AFailedMigrationLeavesThePreviousVersion) {
  std::vector<Migration> with_bad = migrations_;
  const std::string name = std::to_string(migrations_.size() + 1) + "_broken";
  with_bad.push_back({static_cast<int>(migrations_.size()) + 1, name,
                      "CREATE TABLE half_done (a INTEGER); SELECT no_such_function();"});
  const Status st = ApplyPgMigrations(c_.get(), with_bad);
  EXPECT_EQ(st.code(), pg::codes::kStorageError);
  EXPECT_NE(st.reason().find("no_such_function"), std::string::npos) << st.reason();
  EXPECT_EQ(PgSchemaVersion(c_.get()).value(), static_cast<int>(migrations_.size()));
  EXPECT_EQ(Rows("SELECT to_regclass('half_done') IS NULL"), std::vector<std::string>{"t"});
}

// The port keeps SQLite's schema: every table with its columns in order (name, NOT NULL, and a
// type of the same kind), every index SQLite's migrations create, by name. (schema/postgres's
// README says where and why the dialects differ.)
TEST_F(PgMigrationsTest, ThePortedSchemaHasSqlitesTablesColumnsAndIndexes) {
  ASSERT_TRUE(ApplyPgMigrations(c_.get(), migrations_).ok());
  sqlite3* lite = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &lite), SQLITE_OK);
  ASSERT_TRUE(ApplyMigrations(lite, EmbeddedMigrations().value()).ok());
  auto lite_rows = [&](const std::string& sql) {
    std::vector<std::vector<std::string>> out;
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(lite, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int j = 0; j < sqlite3_column_count(stmt); ++j) {
        const auto* text = sqlite3_column_text(stmt, j);
        row.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
      }
      out.push_back(row);
    }
    sqlite3_finalize(stmt);
    return out;
  };
  auto kind = [](std::string type) {
    for (auto& ch : type) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (type == "integer" || type == "bigint" || type == "smallint") return std::string("integer");
    if (type == "blob" || type == "bytea") return std::string("bytes");
    // SQLite's REAL is an 8-byte float, PostgreSQL's double precision.
    if (type == "real" || type == "double_precision") return std::string("float");
    return type;
  };
  std::set<std::string> lite_tables, pg_tables;
  for (const auto& row : lite_rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    lite_tables.insert(row[0]);
  for (const auto& row : Rows("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"))
    pg_tables.insert(row);
  EXPECT_EQ(pg_tables, lite_tables);
  for (const std::string& table : lite_tables) {
    std::vector<std::string> lite_columns, pg_columns;
    for (const auto& col : lite_rows("PRAGMA table_info(" + table + ")")) {
      // cid, name, type, notnull, default, pk: a primary key column is NOT NULL either way.
      const bool not_null = col[3] == "1" || col[5] != "0";
      lite_columns.push_back(col[1] + " " + kind(col[2]) + (not_null ? " not null" : ""));
    }
    for (const auto& row : Rows("SELECT column_name || ' ' || replace(data_type, ' ', '_') || "
                                "CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END "
                                "FROM information_schema.columns WHERE table_schema = 'public' "
                                "AND table_name = '" + table + "' ORDER BY ordinal_position")) {
      const size_t space = row.find(' ');
      const size_t rest = row.find(' ', space + 1);
      pg_columns.push_back(row.substr(0, space + 1) +
                           kind(row.substr(space + 1, rest == std::string::npos ? std::string::npos : rest - space - 1)) +
                           (rest == std::string::npos ? "" : row.substr(rest)));
    }
    // The one column only PostgreSQL has: take-backs ordered as written, where SQLite has rowid.
    if (table == "game_taken_back" && !pg_columns.empty() && pg_columns[0].starts_with("seq ")) {
      pg_columns.erase(pg_columns.begin());
    }
    // And the one only SQLite has (0017): the action log's rowid, which PostgreSQL does without.
    if (table == "game_actions" && !lite_columns.empty() && lite_columns[0].starts_with("seq ")) {
      lite_columns.erase(lite_columns.begin());
    }
    EXPECT_EQ(pg_columns, lite_columns) << "table " << table;
  }
  std::set<std::string> pg_indexes;
  for (const auto& row : Rows("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"))
    pg_indexes.insert(row);
  for (const auto& row : lite_rows("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
    EXPECT_TRUE(pg_indexes.count(row[0])) << "index " << row[0] << " missing";
  sqlite3_close(lite);
}

}  // namespace
}  // namespace plateau::server::storage
