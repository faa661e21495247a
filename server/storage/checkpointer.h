#pragma once
// Checkpoints a database's write-ahead log on a thread and a connection of its own.
//
// SQLite's automatic checkpoint runs inside the commit that crosses its threshold: that commit
// then also syncs the WAL and the database file and copies every logged page back, and the
// actions it carries wait for all of it (with --durability process, the paced p99 went over
// 10 ms on that alone). The writing connection turns its automatic checkpoint off and calls
// Due() from its WAL hook instead; this thread then runs a PASSIVE checkpoint, which copies
// what is committed without stopping the writer, then, between two batches, starts the WAL over
// (see Loop), so it stays about `pages` long.
#include <sqlite3.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/core/status.h"

namespace plateau::server::storage {

class Checkpointer {
 public:
  // Opens its own connection to `path` (already in WAL mode), syncing as `synchronous` says
  // ("FULL" or "NORMAL", the writer's setting), and starts its thread.
  static engine::StatusOr<std::unique_ptr<Checkpointer>> Start(const std::string& path,
                                                               const std::string& synchronous);
  // Stops the thread (a checkpoint under way finishes first) and closes the connection.
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // From the writer's WAL hook: asks for a checkpoint. Never waits for one.
  void Due();
  // Checkpoints run, those that copied every frame of the WAL, and the times a commit found the
  // WAL started over (by this thread, or by the writer beginning once everything was copied).
  uint64_t runs() const { return runs_.load(std::memory_order_relaxed); }
  uint64_t complete_runs() const { return complete_.load(std::memory_order_relaxed); }
  uint64_t restarts() const { return restarts_.load(std::memory_order_relaxed); }

  // Installs the hook on the writing connection `db`: Due() once its WAL holds `pages` frames.
  // Replaces SQLite's automatic checkpoint there. `checkpointer` must outlive the hook (remove
  // it with sqlite3_wal_hook(db, nullptr, nullptr) first).
  static void Hook(sqlite3* db, Checkpointer* checkpointer, int pages);

 private:
  explicit Checkpointer(sqlite3* db);
  void Loop();

  sqlite3* db_;
  int pages_ = 0;  // the hook's threshold
  std::atomic<int> wal_frames_{0};  // the WAL's length after the writer's last commit (hook)
  std::mutex mu_;
  std::condition_variable cv_;
  bool due_ = false;       // guarded by mu_
  bool stopping_ = false;  // guarded by mu_
  std::atomic<uint64_t> runs_{0};
  std::atomic<uint64_t> complete_{0};
  std::atomic<uint64_t> restarts_{0};
  std::thread thread_;
};

}  // namespace plateau::server::storage
