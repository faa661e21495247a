#include "server/storage/sqlite_util.h"

namespace plateau::server::sqlite {

Status Error(sqlite3* db, int rc, std::string_view what) {
  const int primary = rc & 0xff;
  const char* code = (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) ? codes::kStorageBusy
                                                                          : codes::kStorageError;
  // sqlite3_errmsg describes the most recent failure on the connection, which is this one as
  // long as callers report an error before making the next call (they do).
  std::string detail = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  return Status(code, "Storage failed while " + std::string(what) + ": " + detail + " (" +
                          std::to_string(rc) + ").");
}

Status Exec(sqlite3* db, std::string_view sql, std::string_view what) {
  // sqlite3_exec wants a NUL-terminated string; embedded scripts are views into literals.
  const std::string text(sql);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return Status::Ok();
  std::string detail = message != nullptr ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  const int primary = rc & 0xff;
  return Status((primary == SQLITE_BUSY || primary == SQLITE_LOCKED) ? codes::kStorageBusy
                                                                     : codes::kStorageError,
                "Storage failed while " + std::string(what) + ": " + detail + " (" +
                    std::to_string(rc) + ").");
}

std::string ColumnText(sqlite3_stmt* stmt, int col) {
  const unsigned char* p = sqlite3_column_text(stmt, col);
  if (p == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
}

std::string ColumnBlob(sqlite3_stmt* stmt, int col) {
  const void* p = sqlite3_column_blob(stmt, col);
  if (p == nullptr) return {};
  return std::string(static_cast<const char*>(p),
                     static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
}

StatusOr<bool> Step(sqlite3* db, sqlite3_stmt* stmt, std::string_view what) {
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(db, rc, what);
}

StatementCache::~StatementCache() {
  for (auto& [sql, stmt] : stmts_) sqlite3_finalize(stmt);
}

StatusOr<sqlite3_stmt*> StatementCache::Get(const std::string& sql) {
  auto it = stmts_.find(sql);
  if (it != stmts_.end()) return it->second;
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    Status st = Error(db_, rc, "preparing a statement");
    sqlite3_finalize(stmt);
    return st;
  }
  stmts_.emplace(sql, stmt);
  return stmt;
}

Status Run(sqlite3* db, StatementCache* cache, const std::string& sql, std::string_view what) {
  if (cache == nullptr) return Exec(db, sql, what);
  auto stmt = cache->Get(sql);
  if (!stmt.ok()) return stmt.status();
  ScopedStatement scoped(stmt.value());
  auto stepped = Step(db, scoped.get(), what);
  return stepped.ok() ? Status::Ok() : stepped.status();
}

Transaction::~Transaction() {
  if (!open_) return;
  // A failed statement may already have rolled SQLite back; ROLLBACK then just reports "no
  // transaction is active", which is harmless here. Nested, only this part is undone.
  if (nested_) {
    Run(db_, cache_, "ROLLBACK TO plateau_op", "undoing a savepoint");
    Run(db_, cache_, "RELEASE plateau_op", "undoing a savepoint");
  } else {
    Run(db_, cache_, "ROLLBACK", "rolling back");
  }
}

Status Transaction::Begin() {
  // Inside a batch (a transaction already open on this connection) a savepoint makes this part
  // undoable alone while the batch commits the rest.
  nested_ = sqlite3_get_autocommit(db_) == 0;
  Status st = nested_ ? Run(db_, cache_, "SAVEPOINT plateau_op", "starting a savepoint")
                      : Run(db_, cache_, "BEGIN IMMEDIATE", "starting a transaction");
  open_ = st.ok();
  return st;
}

Status Transaction::Commit() {
  Status st = nested_ ? Run(db_, cache_, "RELEASE plateau_op", "releasing a savepoint")
                      : Run(db_, cache_, "COMMIT", "committing a transaction");
  // After a failed COMMIT the transaction is still open (e.g. SQLITE_BUSY); the destructor
  // rolls it back so the connection is usable again.
  if (st.ok()) open_ = false;
  return st;
}

ReadTransaction::~ReadTransaction() {
  // Nothing was written, so COMMIT only releases the snapshot; it cannot lose data.
  if (open_) Run(db_, cache_, "COMMIT", "ending a read");
}

Status ReadTransaction::Begin() {
  // Inside a batch the reads already see one snapshot (the batch's own).
  if (sqlite3_get_autocommit(db_) == 0) return Status::Ok();
  Status st = Run(db_, cache_, "BEGIN", "starting a read");
  open_ = st.ok();
  return st;
}

}  // namespace plateau::server::sqlite
