#pragma once
// Every call to the Store runs here, on one thread of its own, never on a network thread: a sync
// takes milliseconds and would stall every connection of the thread that waited on it.
//
// Group commit: the thread takes every job queued since its last batch (up to kMaxBatch), runs
// them inside one store batch and commits once, so a thousand rooms appending at the same time
// cost one sync, not a thousand. A job's `done` runs after the commit with the job's own status,
// or the commit's when the job succeeded but the batch could not be made durable: whoever waits
// on a write learns it is durable before acting on it. `done` runs on the storage thread (callers
// post from it to their own strand and must not block in it), or, given an executor to answer on,
// in one handler per distinct execution context per batch, in submission order: a shard whose
// rooms had five moves in a batch is handed one wake-up, not five.
//
// Pacing: a batch starts no sooner than `commit_interval` after the last one started, unless
// kEagerBatch jobs are already waiting. A job arriving after a quiet spell starts a batch at once;
// under load the wait gathers more jobs into each sync (where a sync takes longer than the
// interval, batches follow each other and never wait). What it costs: up to the interval of
// latency on a move when moves arrive back to back; what it saves: a sync's CPU (the system call
// and the pages written) spread over more moves. The thread waits out the interval before it
// waits for work, and Submit wakes it only in the second wait (or for kEagerBatch): while moves
// keep coming, a batch costs one timed wake-up, not one more per first job.
//
// Leases (several nodes on PostgreSQL): given `renew_every`, the thread calls
// Store::RenewLeases that often, between batches and outside them, whether or not moves come.
//
// Stop() (and the destructor) runs what is queued, then joins: nothing accepted is dropped.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "server/metrics.h"
#include "server/store.h"

namespace plateau::server {

class StorageExecutor {
 public:
  static constexpr size_t kMaxBatch = 1024;
  static constexpr size_t kEagerBatch = 256;
  static constexpr std::chrono::microseconds kDefaultCommitInterval{2000};

  using Work = std::function<Status(Store&)>;
  using Done = std::function<void(Status)>;

  // `metrics` (may be null) records batches, their sizes and commit times. `renew_every` zero:
  // no lease renewal.
  explicit StorageExecutor(Store& store, Metrics* metrics = nullptr,
                           std::chrono::microseconds commit_interval = kDefaultCommitInterval,
                           std::chrono::milliseconds renew_every = std::chrono::milliseconds(0));
  ~StorageExecutor();
  StorageExecutor(const StorageExecutor&) = delete;
  StorageExecutor& operator=(const StorageExecutor&) = delete;

  // Queues `work`; `done` (may be empty) gets its outcome once its batch is committed. After
  // Stop, the job runs at once on the caller's thread (start-up and shutdown paths only).
  // A kRead job (looking a player up, replays) runs after its batch's commit, outside it: it sees
  // only what is durable and holds no write lock.
  enum class Kind { kWrite, kRead };
  void Submit(Work work, Done done, Kind kind = Kind::kWrite);
  // The same, with `done` run on `answer_on`'s execution context (a shard's, not a strand: the
  // caller dispatches to its strand from there, inline when the strand is idle) together with
  // the other answers of its batch for that context.
  void Submit(Work work, Done done, boost::asio::any_io_executor answer_on,
              Kind kind = Kind::kWrite);
  // Runs what is queued and joins the thread. Call from one thread (the owner's); idempotent.
  void Stop();

  struct Stats {
    uint64_t batches = 0;
    uint64_t jobs = 0;
    uint64_t failed_commits = 0;
    uint64_t largest_batch = 0;
    uint64_t commit_micros_total = 0;  // time spent committing (the syncs), summed
    uint64_t queued = 0;               // waiting now
    uint64_t pending = 0;              // submitted and not yet reported (queued or running)
    uint64_t wakeups = 0;              // times Submit woke the thread (at most one a batch)
    uint64_t answer_posts = 0;         // handlers posted to answer jobs with an executor
    uint64_t renewals = 0;             // lease renewals run
    uint64_t renewals_failed = 0;
  };
  Stats stats() const;

 private:
  struct Job {
    Work work;
    Done done;
    Kind kind = Kind::kWrite;
    boost::asio::any_io_executor answer_on;  // empty: `done` runs on the storage thread
  };
  void Enqueue(Job job);
  // Runs every `done` with its outcome: at once, or grouped per execution context and posted.
  void Answer(std::vector<Job>& jobs, const std::vector<Status>& outcomes);
  void Loop();
  // Runs one batch of jobs and reports every outcome.
  void RunBatch(std::vector<Job>& jobs);
  // Renews the leases if due (the lock is not held).
  void RenewIfDue();

  Store& store_;
  Metrics* const metrics_;
  const std::chrono::microseconds commit_interval_;
  const std::chrono::milliseconds renew_every_;
  std::chrono::steady_clock::time_point next_renewal_;  // the storage thread's only
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::vector<Job> queue_;
  bool stopping_ = false;
  bool stopped_ = false;
  bool waiting_for_work_ = false;  // the thread sleeps until a job comes (guarded by mu_)
  Stats stats_;
  std::thread thread_;
};

}  // namespace plateau::server
