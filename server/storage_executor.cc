#include "server/storage_executor.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace plateau::server {

StorageExecutor::StorageExecutor(Store& store) : store_(store), thread_([this] { Loop(); }) {}

StorageExecutor::~StorageExecutor() { Stop(); }

void StorageExecutor::Submit(Work work, Done done) {
  {
    std::lock_guard lock(mu_);
    if (!stopped_) {
      queue_.push_back({std::move(work), std::move(done)});
      ++stats_.queued;
      if (queue_.size() == 1) wake_.notify_one();
      return;
    }
  }
  std::vector<Job> one;
  one.push_back({std::move(work), std::move(done)});
  RunBatch(one);
}

void StorageExecutor::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

StorageExecutor::Stats StorageExecutor::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void StorageExecutor::Loop() {
  std::vector<Job> jobs;
  while (true) {
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) {
        // Stopping, and everything queued has run; later jobs run on their callers' threads.
        stopped_ = true;
        return;
      }
      if (queue_.size() <= kMaxBatch) {
        jobs.swap(queue_);
      } else {
        jobs.assign(std::make_move_iterator(queue_.begin()),
                    std::make_move_iterator(queue_.begin() + kMaxBatch));
        queue_.erase(queue_.begin(), queue_.begin() + kMaxBatch);
      }
      stats_.queued -= jobs.size();
    }
    RunBatch(jobs);
    jobs.clear();
  }
}

void StorageExecutor::RunBatch(std::vector<Job>& jobs) {
  std::vector<Status> outcomes;
  outcomes.reserve(jobs.size());
  Status begun = store_.BeginBatch();
  if (!begun.ok()) spdlog::error("storage: cannot start a batch: {}", begun.ToString());
  for (auto& job : jobs) outcomes.push_back(begun.ok() ? job.work(store_) : begun);
  const auto start = std::chrono::steady_clock::now();
  Status committed = begun.ok() ? store_.CommitBatch() : begun;
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  if (!committed.ok() && begun.ok()) {
    spdlog::error("storage: a batch of {} could not be committed: {}", jobs.size(),
                  committed.ToString());
    store_.RollbackBatch();
  }
  {
    std::lock_guard lock(mu_);
    ++stats_.batches;
    stats_.jobs += jobs.size();
    stats_.largest_batch = std::max<uint64_t>(stats_.largest_batch, jobs.size());
    stats_.commit_micros_total += static_cast<uint64_t>(micros);
    if (!committed.ok()) ++stats_.failed_commits;
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!jobs[i].done) continue;
    jobs[i].done(outcomes[i].ok() ? committed : outcomes[i]);
  }
}

}  // namespace plateau::server
