#pragma once
// Numbered schema migrations (schema/NNNN_name.sql), compiled into the binary so a server never
// depends on finding SQL files at run time. Each is applied once, in order, in its own
// transaction that also records it in schema_migrations; a crash mid-way leaves the database at
// the previous version.
#include <sqlite3.h>

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

// The highest applied migration; 0 for a database that has none (no schema_migrations table).
StatusOr<int> SchemaVersion(sqlite3* db);

// Brings `db` up to the last of `migrations`, each in its own IMMEDIATE transaction (so two
// servers opening one file at once do not both apply a migration). Refuses a database that is
// newer than `migrations` or whose recorded names differ.
Status ApplyMigrations(sqlite3* db, const std::vector<Migration>& migrations);

}  // namespace plateau::server::storage
