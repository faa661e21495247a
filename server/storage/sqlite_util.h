#pragma once
// Thin helpers over the SQLite C API shared by the store and its migrations: statuses from
// result codes, a prepared-statement cache, typed binding and reading, and a transaction guard.
// Nothing here locks: callers serialise access to a connection themselves.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "engine/core/status.h"

namespace plateau::server::sqlite {

using engine::Status;
using engine::StatusOr;

// Codes of storage failures (stable: the room layer matches on them).
namespace codes {
inline constexpr const char* kStorageError = "storage_error";  // I/O, corruption, misuse
inline constexpr const char* kStorageBusy = "storage_busy";    // locked by another process
}  // namespace codes

// A status for result code `rc` of the last call on `db`, saying what was being done.
Status Error(sqlite3* db, int rc, std::string_view what);

// Runs one or more SQL statements that return no rows we need (schema scripts, pragmas).
Status Exec(sqlite3* db, std::string_view sql, std::string_view what);

// Blob parameters are wrapped so they are not mistaken for text.
struct Blob {
  std::string_view bytes;
};
struct Null {};

// Binds parameters ?1..?N in order. Text and blobs are copied by SQLite (SQLITE_TRANSIENT), so
// the arguments need not outlive the statement.
template <class... Args>
Status BindAll(sqlite3* db, sqlite3_stmt* stmt, const Args&... args);

// Reads a column; NULL reads as empty / 0.
std::string ColumnText(sqlite3_stmt* stmt, int col);
std::string ColumnBlob(sqlite3_stmt* stmt, int col);
inline int64_t ColumnInt64(sqlite3_stmt* stmt, int col) { return sqlite3_column_int64(stmt, col); }
inline bool ColumnIsNull(sqlite3_stmt* stmt, int col) {
  return sqlite3_column_type(stmt, col) == SQLITE_NULL;
}

// Steps a statement: true with a row, false when done, or the error.
StatusOr<bool> Step(sqlite3* db, sqlite3_stmt* stmt, std::string_view what);

// A cached statement in use: resets it and clears its bindings when it goes out of scope, so the
// next user starts clean and read transactions are not held open by a half-read statement.
class ScopedStatement {
 public:
  explicit ScopedStatement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~ScopedStatement() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  ScopedStatement(const ScopedStatement&) = delete;
  ScopedStatement& operator=(const ScopedStatement&) = delete;
  sqlite3_stmt* get() const { return stmt_; }

 private:
  sqlite3_stmt* stmt_;
};

// Prepared statements by SQL text, prepared on first use and kept for the connection's life
// (SQLITE_PREPARE_PERSISTENT), so a hot path such as AppendAction never re-parses SQL.
class StatementCache {
 public:
  explicit StatementCache(sqlite3* db) : db_(db) {}
  ~StatementCache();
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  StatusOr<sqlite3_stmt*> Get(const std::string& sql);

 private:
  sqlite3* db_;
  std::unordered_map<std::string, sqlite3_stmt*> stmts_;
};

// Runs one statement that returns no rows, prepared once through `cache` when there is one (a
// batch's BEGIN and COMMIT each time; sqlite3_exec would parse them anew), else through Exec.
Status Run(sqlite3* db, StatementCache* cache, const std::string& sql, std::string_view what);

// BEGIN IMMEDIATE on construction (Begin()), ROLLBACK on destruction unless Commit() succeeded.
// IMMEDIATE takes the write lock up front so a read-then-write sequence cannot fail half-way
// with SQLITE_BUSY when another process writes. Inside a transaction already open on the
// connection (a storage batch) it is a savepoint instead: undone alone, committed with the batch.
class Transaction {
 public:
  // `cache`, when given, keeps its control statements prepared (Run).
  explicit Transaction(sqlite3* db, StatementCache* cache = nullptr) : db_(db), cache_(cache) {}
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  Status Begin();
  Status Commit();

 private:
  sqlite3* db_;
  StatementCache* cache_;
  bool open_ = false;
  bool nested_ = false;  // a savepoint inside an open batch
};

// A deferred read transaction (BEGIN ... COMMIT) so several SELECTs see one snapshot even while
// another process writes. Ends on destruction.
class ReadTransaction {
 public:
  explicit ReadTransaction(sqlite3* db, StatementCache* cache = nullptr)
      : db_(db), cache_(cache) {}
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;

  Status Begin();

 private:
  sqlite3* db_;
  StatementCache* cache_;
  bool open_ = false;
};

// --- Implementation of the template ---

namespace internal {

inline int BindOne(sqlite3_stmt* stmt, int i, std::string_view v) {
  return sqlite3_bind_text64(stmt, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
inline int BindOne(sqlite3_stmt* stmt, int i, const std::string& v) {
  return BindOne(stmt, i, std::string_view(v));
}
inline int BindOne(sqlite3_stmt* stmt, int i, const char* v) {
  return BindOne(stmt, i, std::string_view(v));
}
inline int BindOne(sqlite3_stmt* stmt, int i, Blob v) {
  // A zero-length blob must still be a blob, not NULL: SQLite binds NULL for a null pointer.
  static const char kEmpty = 0;
  return sqlite3_bind_blob64(stmt, i, v.bytes.empty() ? &kEmpty : v.bytes.data(), v.bytes.size(),
                             SQLITE_TRANSIENT);
}
inline int BindOne(sqlite3_stmt* stmt, int i, Null) { return sqlite3_bind_null(stmt, i); }
template <class T>
  requires std::is_integral_v<T>
int BindOne(sqlite3_stmt* stmt, int i, T v) {
  return sqlite3_bind_int64(stmt, i, static_cast<sqlite3_int64>(v));
}
template <class T>
int BindOne(sqlite3_stmt* stmt, int i, const std::optional<T>& v) {
  return v.has_value() ? BindOne(stmt, i, *v) : sqlite3_bind_null(stmt, i);
}

}  // namespace internal

template <class... Args>
Status BindAll(sqlite3* db, sqlite3_stmt* stmt, const Args&... args) {
  int i = 0;
  int rc = SQLITE_OK;
  // Binds left to right and stops at the first failure.
  ((rc == SQLITE_OK ? (rc = internal::BindOne(stmt, ++i, args)) : rc), ...);
  if (rc != SQLITE_OK) return Error(db, rc, "binding parameter " + std::to_string(i));
  return Status::Ok();
}

}  // namespace plateau::server::sqlite
