#pragma once
// libpq in small pieces for the PostgreSQL store and its migrations: owned connections and
// results, statements run with text parameters, errors as Status.
#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/status.h"

// The database's clock in milliseconds: leases are compared with it only, never with a node's.
#define PLATEAU_PG_NOW_MS "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
// A room's lease is its node's (nodes.expires_unix_ms, renewed once for all its rooms, since
// migration 0016): true when the node named by `row`.node holds a lease past now `slack` (an SQL
// term such as " - $2", or ""). No row at all, as for node '', holds none.
#define PLATEAU_PG_NODE_LIVE(row, slack)                                                \
  "EXISTS (SELECT 1 FROM nodes n WHERE n.node = " row ".node AND n.expires_unix_ms > " \
  PLATEAU_PG_NOW_MS slack ")"

// A node's fence lock (a transaction-level advisory lock, in the two-key space, keyed by the
// node's name): shared by every transaction of the node that writes to its rooms, taken for
// good by a claim of a dead node's room. No row is written for it, so a batch pays it once.
#define PLATEAU_PG_NODE_LOCK_SPACE "1347174740"
#define PLATEAU_PG_NODE_LOCK_KEY(node) PLATEAU_PG_NODE_LOCK_SPACE ", hashtext(" node ")"

namespace plateau::server::pg {

using engine::Status;
using engine::StatusOr;

namespace codes {
// The same codes as SQLite's failures (sqlite_util.h): callers tell no difference.
inline constexpr const char* kStorageError = "storage_error";  // refused, lost, malformed
}  // namespace codes

struct ConnectionCloser {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using Connection = std::unique_ptr<PGconn, ConnectionCloser>;

struct ResultCloser {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultCloser>;

// Loads libpq (libpq_shim.cc) if it is not yet; false, with the loader's reason in `why`, when
// it cannot be.
bool LoadLibpq(std::string* why);

// Connects with a libpq connection string ("host=/run/pg dbname=plateau", "postgres://…"):
// refused with storage_error saying so when libpq cannot be loaded.
StatusOr<Connection> Connect(const std::string& conninfo);

// A parameter: its text, or SQL NULL.
using Param = std::optional<std::string>;

// storage_error saying what failed while doing `what`: the result's message, else the
// connection's.
Status Failure(PGconn* c, const PGresult* r, std::string_view what);

// Runs one statement with `params` ($1, $2… in text form); the result holds its rows. Refused
// with storage_error, the server's message and `what`, when the statement fails.
StatusOr<Result> Query(PGconn* c, std::string_view sql, const std::vector<Param>& params,
                       std::string_view what);
// A text[] parameter's literal: every element quoted, its quotes and backslashes escaped.
std::string TextArray(const std::vector<std::string>& items);

// Runs `sql`, one or more statements without parameters (a migration, BEGIN, COMMIT).
Status Exec(PGconn* c, std::string_view sql, std::string_view what);

}  // namespace plateau::server::pg
