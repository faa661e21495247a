#pragma once
// Numbered schema migrations (schema/NNNN_name.sql), compiled into the binary so a server never
// depends on finding SQL files at run time. Each is applied once, in order, in its own
// transaction that also records it in schema_migrations; a crash mid-way leaves the database at
// the previous version.
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/status.h"

namespace plateau::server::storage {

using engine::Status;
using engine::StatusOr;

namespace codes {
// The database was written by a newer server: its schema has migrations this binary lacks.
inline constexpr const char* kSchemaTooNew = "schema_too_new";
// A recorded migration's name differs from this binary's migration of the same number: the
// database comes from a diverging build.
inline constexpr const char* kSchemaMismatch = "schema_mismatch";
// The embedded migration list is malformed (a build bug: gaps, duplicates, bad names).
inline constexpr const char* kBadMigrations = "bad_migrations";
}  // namespace codes

struct Migration {
  int version = 0;         // from the file name's leading digits
  std::string_view name;   // the file name without ".sql", e.g. "0001_init"
  std::string_view sql;
};

// The migrations compiled into this binary, ordered by version (validated: 1, 2, ... N).
StatusOr<std::vector<Migration>> EmbeddedMigrations();

// Turns embedded (file stem, contents) pairs into migrations, checking the numbering.
StatusOr<std::vector<Migration>> MigrationsFromFiles(
    const std::vector<std::pair<std::string_view, std::string_view>>& files);

// One database as the migrations see it: SQLite's file or a PostgreSQL database.
class MigrationTarget {
 public:
  virtual ~MigrationTarget() = default;
  // Opens the transaction one migration runs in, taken so that two servers migrating the same
  // database at once wait for each other instead of both applying it.
  virtual Status Begin() = 0;
  virtual Status Commit() = 0;
  // Undoes what the transaction did (a migration already applied, or one that failed).
  virtual void Rollback() = 0;
  // The highest applied migration; 0 for a database that has none (no schema_migrations table).
  virtual StatusOr<int> Version() = 0;
  // The name recorded for `version`, or "" when it is not recorded.
  virtual StatusOr<std::string> RecordedName(int version) = 0;
  // Runs the migration's statements and records it in schema_migrations.
  virtual Status Apply(const Migration& m, int64_t applied_unix_ms) = 0;
};

// Brings `db` up to the last of `migrations`, each in its own transaction. Refuses a database
// that is newer than `migrations` (schema_too_new) or whose recorded names differ
// (schema_mismatch).
Status ApplyMigrations(MigrationTarget& db, const std::vector<Migration>& migrations);

// The highest applied migration; 0 for a database that has none (no schema_migrations table).
StatusOr<int> SchemaVersion(sqlite3* db);

// The same on a SQLite file, each migration in an IMMEDIATE transaction.
Status ApplyMigrations(sqlite3* db, const std::vector<Migration>& migrations);

}  // namespace plateau::server::storage
