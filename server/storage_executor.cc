#include "server/storage_executor.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <utility>

namespace plateau::server {

StorageExecutor::StorageExecutor(Store& store, Metrics* metrics,
                                 std::chrono::microseconds commit_interval,
                                 std::chrono::milliseconds renew_every)
    : store_(store),
      metrics_(metrics),
      commit_interval_(commit_interval),
      renew_every_(renew_every),
      thread_([this] { Loop(); }) {}

StorageExecutor::~StorageExecutor() { Stop(); }

void StorageExecutor::Submit(Work work, Done done, Kind kind) {
  Enqueue({std::move(work), std::move(done), kind, {}});
}

void StorageExecutor::Submit(Work work, Done done, boost::asio::any_io_executor answer_on,
                             Kind kind) {
  Enqueue({std::move(work), std::move(done), kind, std::move(answer_on)});
}

void StorageExecutor::Enqueue(Job job) {
  {
    std::lock_guard lock(mu_);
    if (!stopped_) {
      queue_.push_back(std::move(job));
      ++stats_.queued;
      ++stats_.pending;
      // Woken only when it waits for work, or for kEagerBatch jobs to cut the interval short:
      // while it runs a batch or waits out the interval, it takes this job without being told.
      if ((waiting_for_work_ && queue_.size() == 1) || queue_.size() == kEagerBatch) {
        ++stats_.wakeups;
        wake_.notify_one();
      }
      return;
    }
  }
  std::vector<Job> one;
  one.push_back(std::move(job));
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
  // When the last batch started: the next waits for the interval to pass (see the header).
  auto last_start = std::chrono::steady_clock::time_point::min();
  while (true) {
    RenewIfDue();
    {
      std::unique_lock lock(mu_);
      // The interval first, then work: jobs arriving meanwhile need no wake-up (see Submit).
      if (commit_interval_.count() > 0 && last_start != std::chrono::steady_clock::time_point::min()) {
        wake_.wait_until(lock, last_start + commit_interval_,
                         [&] { return queue_.size() >= kEagerBatch || stopping_; });
      }
      waiting_for_work_ = true;
      const auto work_or_stop = [&] { return !queue_.empty() || stopping_; };
      if (renew_every_.count() > 0) {
        // A renewal falling due while no move comes is made all the same.
        if (!wake_.wait_until(lock, next_renewal_, work_or_stop)) {
          waiting_for_work_ = false;
          continue;
        }
      } else {
        wake_.wait(lock, work_or_stop);
      }
      waiting_for_work_ = false;
      last_start = std::chrono::steady_clock::now();
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
  std::vector<Status> outcomes(jobs.size());
  bool writes = false;
  for (const auto& job : jobs) writes = writes || job.kind == Kind::kWrite;
  Status committed;
  uint64_t micros = 0;
  if (writes) {
    Status begun = store_.BeginBatch();
    if (!begun.ok()) spdlog::error("storage: cannot start a batch: {}", begun.ToString());
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].kind != Kind::kWrite) continue;
      if (!begun.ok()) {
        outcomes[i] = begun;
        continue;
      }
      store_.StartCall(i);
      outcomes[i] = jobs[i].work(store_);
      if (!store_.BatchOpen()) {
        // The database dropped the whole batch (I/O error, full disk): what ran is undone, and
        // what is left must not run outside it, committing alone while reported failed.
        begun = Status("storage_error", "The storage batch was lost: " + outcomes[i].ToString());
        spdlog::error("storage: {}", begun.reason());
      }
    }
    const auto start = std::chrono::steady_clock::now();
    committed = begun.ok() ? store_.CommitBatch() : begun;
    micros = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                       std::chrono::steady_clock::now() - start)
                                       .count());
    if (!committed.ok()) {
      spdlog::error("storage: a batch of {} could not be committed: {}", jobs.size(),
                    committed.ToString());
      store_.RollbackBatch();
    }
  }
  // Reads after the commit: they see what is durable, nothing a failed batch undid.
  for (size_t i = 0; i < jobs.size(); ++i)
    if (jobs[i].kind == Kind::kRead) outcomes[i] = jobs[i].work(store_);
  {
    std::lock_guard lock(mu_);
    ++stats_.batches;
    stats_.jobs += jobs.size();
    stats_.largest_batch = std::max<uint64_t>(stats_.largest_batch, jobs.size());
    stats_.commit_micros_total += micros;
    if (!committed.ok()) ++stats_.failed_commits;
  }
  if (metrics_ != nullptr) {
    metrics_->storage_batches.Inc();
    metrics_->storage_batch_jobs.Observe(static_cast<double>(jobs.size()));
    if (writes) metrics_->storage_commit.Observe(static_cast<double>(micros) / 1e6);
    if (!committed.ok()) metrics_->storage_failed_commits.Inc();
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!outcomes[i].ok() || jobs[i].kind != Kind::kWrite) continue;
    // Committed, a call may still have been refused by what only the commit settled.
    outcomes[i] = committed.ok() ? store_.CallOutcome(i) : committed;
  }
  Answer(jobs, outcomes);
  std::lock_guard lock(mu_);
  // Jobs run after Stop were never counted.
  stats_.pending -= std::min<uint64_t>(stats_.pending, stopped_ ? 0 : jobs.size());
}

void StorageExecutor::RenewIfDue() {
  if (renew_every_.count() <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_renewal_) return;
  next_renewal_ = now + renew_every_;
  const Status renewed = store_.RenewLeases();
  if (!renewed.ok()) {
    spdlog::error("storage: cannot renew the leases: {}", renewed.ToString());
    if (metrics_ != nullptr) metrics_->lease_renewals_failed.Inc();
  }
  std::lock_guard lock(mu_);
  ++stats_.renewals;
  if (!renewed.ok()) ++stats_.renewals_failed;
}

void StorageExecutor::Answer(std::vector<Job>& jobs, const std::vector<Status>& outcomes) {
  struct Group {
    boost::asio::execution_context* context;
    boost::asio::any_io_executor executor;
    std::vector<std::pair<Done, Status>> answers;
  };
  // A batch touches a few shards: a short list searched in turn beats a map.
  std::vector<Group> groups;
  for (size_t i = 0; i < jobs.size(); ++i) {
    Job& job = jobs[i];
    if (!job.done) continue;
    if (!job.answer_on) {
      job.done(outcomes[i]);
      continue;
    }
    auto* context = &boost::asio::query(job.answer_on, boost::asio::execution::context);
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const Group& g) { return g.context == context; });
    if (group == groups.end()) {
      groups.push_back({context, std::move(job.answer_on), {}});
      group = groups.end() - 1;
    }
    group->answers.emplace_back(std::move(job.done), outcomes[i]);
  }
  if (groups.empty()) return;
  {
    std::lock_guard lock(mu_);
    stats_.answer_posts += groups.size();
  }
  for (Group& g : groups) {
    boost::asio::post(g.executor, [answers = std::move(g.answers)]() mutable {
      for (auto& [done, status] : answers) done(status);
    });
  }
}

}  // namespace plateau::server
