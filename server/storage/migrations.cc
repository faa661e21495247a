#include "server/storage/migrations.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string>

#include "server/storage/sqlite_util.h"

namespace plateau::server::storage {

// Defined in the file CMake generates from the schema folder (migration_files.cc).
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedMigrationFiles();

namespace {

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool TableExists(sqlite3* db, const char* table, Status* error) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                              -1, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    *error = sqlite::Error(db, rc, "reading the schema");
    sqlite3_finalize(stmt);
    return false;
  }
  sqlite3_bind_text(stmt, 1, table, -1, SQLITE_STATIC);
  rc = sqlite3_step(stmt);
  bool exists = rc == SQLITE_ROW;
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) *error = sqlite::Error(db, rc, "reading the schema");
  sqlite3_finalize(stmt);
  return exists;
}

// The name recorded for `version`, or "" when it is not recorded.
StatusOr<std::string> RecordedName(sqlite3* db, int version) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT name FROM schema_migrations WHERE version = ?1", -1,
                              &stmt, nullptr);
  if (rc != SQLITE_OK) {
    Status st = sqlite::Error(db, rc, "reading schema_migrations");
    sqlite3_finalize(stmt);
    return st;
  }
  sqlite3_bind_int(stmt, 1, version);
  auto row = sqlite::Step(db, stmt, "reading schema_migrations");
  std::string name;
  if (row.ok() && row.value()) name = sqlite::ColumnText(stmt, 0);
  sqlite3_finalize(stmt);
  if (!row.ok()) return row.status();
  return name;
}

Status TooNew(int version, int known) {
  return Status(codes::kSchemaTooNew,
                "The database is at schema version " + std::to_string(version) +
                    " but this server only knows versions up to " + std::to_string(known) +
                    "; run a newer server (downgrading is not supported).");
}

}  // namespace

StatusOr<std::vector<Migration>> MigrationsFromFiles(
    const std::vector<std::pair<std::string_view, std::string_view>>& files) {
  std::vector<Migration> out;
  for (const auto& [name, sql] : files) {
    Migration m;
    const char* end = name.data() + name.size();
    auto [p, ec] = std::from_chars(name.data(), end, m.version);
    if (ec != std::errc() || p == name.data() || p == end || *p != '_' || m.version <= 0) {
      return Status(codes::kBadMigrations, "Migration '" + std::string(name) +
                                               "' is not named NNNN_description.");
    }
    m.name = name;
    m.sql = sql;
    out.push_back(m);
  }
  std::sort(out.begin(), out.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].version != static_cast<int>(i) + 1) {
      return Status(codes::kBadMigrations,
                    "Migrations must be numbered 1, 2, 3... without gaps or repeats; found '" +
                        std::string(out[i].name) + "' at position " + std::to_string(i + 1) +
                        ".");
    }
  }
  return out;
}

StatusOr<std::vector<Migration>> EmbeddedMigrations() {
  return MigrationsFromFiles(EmbeddedMigrationFiles());
}

StatusOr<int> SchemaVersion(sqlite3* db) {
  Status error;
  if (!TableExists(db, "schema_migrations", &error)) {
    if (!error.ok()) return error;
    return 0;
  }
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT coalesce(max(version), 0) FROM schema_migrations", -1,
                              &stmt, nullptr);
  if (rc != SQLITE_OK) {
    Status st = sqlite::Error(db, rc, "reading schema_migrations");
    sqlite3_finalize(stmt);
    return st;
  }
  auto row = sqlite::Step(db, stmt, "reading schema_migrations");
  const int version = row.ok() && row.value() ? sqlite3_column_int(stmt, 0) : 0;
  sqlite3_finalize(stmt);
  if (!row.ok()) return row.status();
  return version;
}

Status ApplyMigrations(MigrationTarget& db, const std::vector<Migration>& migrations) {
  const int known = static_cast<int>(migrations.size());
  for (const Migration& m : migrations) {
    if (Status st = db.Begin(); !st.ok()) return st;
    // Read the version inside the transaction: another server may have just migrated.
    bool committed = false;
    const Status outcome = [&]() -> Status {
      auto version = db.Version();
      if (!version.ok()) return version.status();
      if (version.value() > known) return TooNew(version.value(), known);
      if (m.version <= version.value()) {
        auto recorded = db.RecordedName(m.version);
        if (!recorded.ok()) return recorded.status();
        if (recorded.value() != m.name) {
          return Status(codes::kSchemaMismatch,
                        "Migration " + std::to_string(m.version) + " was applied as '" +
                            recorded.value() + "' but this server's is '" + std::string(m.name) +
                            "'.");
        }
        return Status::Ok();  // already applied
      }
      if (Status st = db.Apply(m, NowUnixMs()); !st.ok()) return st;
      Status st = db.Commit();
      committed = st.ok();
      return st;
    }();
    // Already applied (nothing changed) or failed: the transaction goes.
    if (!committed) db.Rollback();
    if (!outcome.ok()) return outcome;
  }
  // With nothing left to apply, still refuse a database that is ahead of this binary.
  auto version = db.Version();
  if (!version.ok()) return version.status();
  if (version.value() > known) return TooNew(version.value(), known);
  return Status::Ok();
}

namespace {

// A SQLite file: IMMEDIATE transactions take the write lock before the version is read.
class SqliteTarget final : public MigrationTarget {
 public:
  explicit SqliteTarget(sqlite3* db) : db_(db) {}
  Status Begin() override { return sqlite::Exec(db_, "BEGIN IMMEDIATE", "starting a migration"); }
  Status Commit() override { return sqlite::Exec(db_, "COMMIT", "committing a migration"); }
  void Rollback() override {
    if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  StatusOr<int> Version() override { return SchemaVersion(db_); }
  StatusOr<std::string> RecordedName(int version) override {
    return storage::RecordedName(db_, version);
  }
  Status Apply(const Migration& m, int64_t applied_unix_ms) override {
    if (Status st = sqlite::Exec(db_, m.sql, "applying migration " + std::string(m.name));
        !st.ok()) {
      return st;
    }
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(
        db_, "INSERT INTO schema_migrations (version, name, applied_unix_ms) VALUES (?1, ?2, ?3)",
        -1, &stmt, nullptr);
    if (rc == SQLITE_OK) {
      sqlite3_bind_int(stmt, 1, m.version);
      sqlite3_bind_text(stmt, 2, m.name.data(), static_cast<int>(m.name.size()), SQLITE_STATIC);
      sqlite3_bind_int64(stmt, 3, applied_unix_ms);
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) rc = SQLITE_OK;
    }
    Status recorded =
        rc == SQLITE_OK ? Status::Ok() : sqlite::Error(db_, rc, "recording a migration");
    sqlite3_finalize(stmt);
    return recorded;
  }

 private:
  sqlite3* db_;
};

}  // namespace

Status ApplyMigrations(sqlite3* db, const std::vector<Migration>& migrations) {
  SqliteTarget target(db);
  return ApplyMigrations(target, migrations);
}

}  // namespace plateau::server::storage
