#include "server/storage/checkpointer.h"

#include "server/storage/sqlite_util.h"

namespace plateau::server::storage {

engine::StatusOr<std::unique_ptr<Checkpointer>> Checkpointer::Start(
    const std::string& path, const std::string& synchronous) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                                     SQLITE_OPEN_EXRESCODE,
                                 nullptr);
  if (rc != SQLITE_OK) {
    engine::Status st = sqlite::Error(db, rc, "opening '" + path + "' to checkpoint it");
    sqlite3_close_v2(db);
    return st;
  }
  // A checkpoint syncs as its connection says: the writer's setting keeps the promise it makes.
  if (engine::Status st =
          sqlite::Exec(db, "PRAGMA synchronous = " + synchronous, "configuring the checkpointer");
      !st.ok()) {
    sqlite3_close_v2(db);
    return st;
  }
  std::unique_ptr<Checkpointer> c(new Checkpointer(db));
  c->thread_ = std::thread([raw = c.get()] { raw->Loop(); });
  return c;
}

Checkpointer::Checkpointer(sqlite3* db) : db_(db) {}

Checkpointer::~Checkpointer() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
  sqlite3_close_v2(db_);
}

void Checkpointer::Due() {
  {
    std::lock_guard lock(mu_);
    if (due_) return;
    due_ = true;
  }
  cv_.notify_one();
}

void Checkpointer::Hook(sqlite3* db, Checkpointer* checkpointer, int pages) {
  checkpointer->pages_ = pages;
  sqlite3_wal_hook(
      db,
      [](void* arg, sqlite3*, const char*, int frames) -> int {
        auto* self = static_cast<Checkpointer*>(arg);
        // Shorter than after the last commit: the WAL was started over (by either side).
        if (frames < self->wal_frames_.exchange(frames, std::memory_order_relaxed)) {
          self->restarts_.fetch_add(1, std::memory_order_relaxed);
        }
        if (frames >= self->pages_) self->Due();
        return SQLITE_OK;
      },
      checkpointer);
}

void Checkpointer::Loop() {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return due_ || stopping_; });
    if (stopping_) return;
    due_ = false;
    lock.unlock();
    int frames = 0, copied = 0;
    // PASSIVE copies what is committed without waiting on the writer or on readers; what it
    // cannot copy now, the next call copies (each commit past the threshold asks again). A
    // failure (another process checkpointing the file) is retried the same way.
    int rc = sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied);
    runs_.fetch_add(1, std::memory_order_relaxed);
    if (rc == SQLITE_OK && frames >= 0 && copied == frames) {
      complete_.fetch_add(1, std::memory_order_relaxed);
      // The WAL starts over at the first transaction that begins once every frame is copied.
      // A writer that committed while the copy ran is one commit ahead of it, and may stay so
      // under steady load: then RESTART takes the writer's lock if it is free (this connection
      // has no busy handler, so it never waits; with the writer in a batch it copies as PASSIVE
      // does and reports busy, and the next commit asks again), copies the frames committed
      // since and starts the WAL over itself. A batch beginning meanwhile waits for those few
      // frames only (the writer's busy handler polls finely).
      if (wal_frames_.load(std::memory_order_relaxed) > frames) {
        sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_RESTART, &frames, &copied);
      }
    }
    lock.lock();
  }
}

}  // namespace plateau::server::storage
