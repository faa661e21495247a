#pragma once
// The schema's migrations on PostgreSQL (schema/postgres/NNNN_name.sql, the SQLite ones ported
// one for one: the same numbers and names), compiled into the binary and applied as SQLite's are
// (migrations.h), each in its own transaction under an advisory lock, so nodes starting together
// against one database apply each migration once.
#include <libpq-fe.h>

#include <vector>

#include "server/storage/migrations.h"

namespace plateau::server::storage {

// The PostgreSQL migrations compiled into this binary, ordered by version (validated: 1, 2, ...).
StatusOr<std::vector<Migration>> EmbeddedPgMigrations();

// The highest applied migration; 0 for a database without schema_migrations.
StatusOr<int> PgSchemaVersion(PGconn* c);

// Brings the database `c` is connected to up to the last of `migrations` (see ApplyMigrations).
Status ApplyPgMigrations(PGconn* c, const std::vector<Migration>& migrations);

}  // namespace plateau::server::storage
