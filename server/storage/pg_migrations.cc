#include "server/storage/pg_migrations.h"

#include <string>

#include "server/storage/pg_util.h"

namespace plateau::server::storage {

// Defined in the file CMake generates from schema/postgres (pg_migration_files.cc).
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedPgMigrationFiles();

namespace {

// Any number will do, as long as nothing else in the database locks it: "plat" in ASCII.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(1886151028)";

class PgTarget final : public MigrationTarget {
 public:
  explicit PgTarget(PGconn* c) : c_(c) {}
  Status Begin() override {
    // The lock is held until the transaction ends: a second node waits, then reads the version
    // the first one left.
    if (Status st = pg::Exec(c_, "BEGIN", "starting a migration"); !st.ok()) return st;
    Status locked = pg::Exec(c_, kMigrationLock, "locking the schema");
    if (!locked.ok()) Rollback();
    return locked;
  }
  Status Commit() override { return pg::Exec(c_, "COMMIT", "committing a migration"); }
  void Rollback() override { pg::Exec(c_, "ROLLBACK", "rolling a migration back"); }
  StatusOr<int> Version() override { return PgSchemaVersion(c_); }
  StatusOr<std::string> RecordedName(int version) override {
    auto r = pg::Query(c_, "SELECT name FROM schema_migrations WHERE version = $1",
                       {std::to_string(version)}, "reading schema_migrations");
    if (!r.ok()) return r.status();
    return PQntuples(r.value().get()) == 0 ? std::string()
                                           : std::string(PQgetvalue(r.value().get(), 0, 0));
  }
  Status Apply(const Migration& m, int64_t applied_unix_ms) override {
    if (Status st = pg::Exec(c_, m.sql, "applying migration " + std::string(m.name)); !st.ok()) {
      return st;
    }
    auto r = pg::Query(c_,
                       "INSERT INTO schema_migrations (version, name, applied_unix_ms) "
                       "VALUES ($1, $2, $3)",
                       {std::to_string(m.version), std::string(m.name),
                        std::to_string(applied_unix_ms)},
                       "recording a migration");
    return r.ok() ? Status::Ok() : r.status();
  }

 private:
  PGconn* c_;
};

}  // namespace

StatusOr<std::vector<Migration>> EmbeddedPgMigrations() {
  return MigrationsFromFiles(EmbeddedPgMigrationFiles());
}

StatusOr<int> PgSchemaVersion(PGconn* c) {
  // Two statements: a query naming a table that does not exist fails before it runs.
  auto exists = pg::Query(c, "SELECT to_regclass('schema_migrations') IS NOT NULL", {},
                          "reading the schema");
  if (!exists.ok()) return exists.status();
  if (std::string(PQgetvalue(exists.value().get(), 0, 0)) != "t") return 0;
  auto r = pg::Query(c, "SELECT coalesce(max(version), 0) FROM schema_migrations", {},
                     "reading schema_migrations");
  if (!r.ok()) return r.status();
  return std::stoi(PQgetvalue(r.value().get(), 0, 0));
}

Status ApplyPgMigrations(PGconn* c, const std::vector<Migration>& migrations) {
  PgTarget target(c);
  return ApplyMigrations(target, migrations);
}

}  // namespace plateau::server::storage
