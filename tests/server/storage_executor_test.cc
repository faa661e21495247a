// The storage thread: group commit, outcomes after the commit, and nothing dropped at Stop.
#include "server/storage_executor.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace plateau::server {
namespace {

using namespace std::chrono_literals;

// A store that only counts: appends and batches, with a slow commit like a real sync.
class CountingStore : public Store {
 public:
  std::atomic<int> appends{0}, begun{0}, committed{0}, rolled_back{0};
  std::atomic<bool> fail_commit{false};
  std::atomic<bool> in_batch{false};
  std::chrono::milliseconds commit_time{5};
  std::atomic<int> renewals{0};
  // Appends to "fenced" are settled at the commit as refused, as PostgreSQL's fence does.
  size_t call = 0;
  std::vector<size_t> fenced_calls;

  void StartCall(size_t c) override { call = c; }
  Status CallOutcome(size_t c) override {
    for (size_t f : fenced_calls)
      if (f == c) return Status("lease_lost", "another node runs the room");
    return Status::Ok();
  }
  Status RenewLeases() override {
    ++renewals;
    return Status::Ok();
  }

  Status BeginBatch() override {
    in_batch = true;
    ++begun;
    return Status::Ok();
  }
  Status CommitBatch() override {
    std::this_thread::sleep_for(commit_time);
    in_batch = false;
    if (fail_commit) return Status("storage_error", "the disk is gone");
    ++committed;
    return Status::Ok();
  }
  void RollbackBatch() override { ++rolled_back; }
  bool BatchOpen() override { return in_batch; }

  Status SavePlayer(const std::string&, const StoredPlayer&) override { return Status::Ok(); }
  StatusOr<std::optional<StoredPlayer>> FindPlayer(const std::string&) override {
    return std::optional<StoredPlayer>();
  }
  Status TouchPlayer(const std::string&, int64_t) override { return Status::Ok(); }
  Status ReplaceToken(const std::string&, const std::string&, int64_t) override {
    return Status::Ok();
  }
  Status BeginGame(const plateau::v1::GameRecord&, const RoomRecord&) override {
    return Status::Ok();
  }
  Status TakeBackAction(const std::string&, uint32_t, int64_t) override { return Status::Ok(); }
  Status AppendAction(const std::string& game_id, uint32_t,
                      const plateau::v1::ReplayAction&) override {
    EXPECT_TRUE(in_batch) << "an append outside a batch";
    if (game_id == "refused") return Status("game_not_found", "no such game");
    if (game_id == "fenced") fenced_calls.push_back(call);
    if (game_id == "disk full") {
      in_batch = false;  // what SQLite does to the open transaction on SQLITE_FULL
      return Status("storage_error", "database or disk is full");
    }
    ++appends;
    return Status::Ok();
  }
  Status SetStandIn(const std::string&, int, int) override { return Status::Ok(); }
  Status SetLeft(const std::string&, int, bool) override { return Status::Ok(); }
  Status RecordResume(const std::string&, int64_t, int64_t) override { return Status::Ok(); }
  Status FinishGame(const std::string&, const std::vector<plateau::v1::SeatResult>&,
                    int64_t) override {
    return Status::Ok();
  }
  StatusOr<std::optional<plateau::v1::GameRecord>> LoadGame(const std::string&) override {
    return std::optional<plateau::v1::GameRecord>();
  }
  StatusOr<std::optional<GameAccess>> LoadGameAccess(const std::string&) override {
    return std::optional<GameAccess>();
  }
  StatusOr<std::vector<plateau::v1::ReplaySummary>> ListFinished(const std::string&, uint32_t,
                                                                const std::string&,
                                                                const std::string&) override {
    return std::vector<plateau::v1::ReplaySummary>();
  }
  StatusOr<std::vector<Unfinished>> LoadUnfinished() override {
    return std::vector<Unfinished>();
  }
};

StorageExecutor::Work Append(const std::string& game_id) {
  return [game_id](Store& s) { return s.AppendAction(game_id, 0, {}); };
}

TEST(StorageExecutor, ManyWritersShareFewCommitsAndLearnOfEachAfterIt) {
  CountingStore store;
  constexpr int kWriters = 8, kEach = 50;
  std::atomic<int> done{0}, early{0};
  {
    StorageExecutor storage(store);
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&] {
        for (int i = 0; i < kEach; ++i) {
          const int commits_before = store.committed;
          storage.Submit(Append("g"), [&, commits_before](Status st) {
            EXPECT_TRUE(st.ok()) << st.ToString();
            // Told only once the batch holding it was committed.
            if (store.committed <= commits_before) ++early;
            ++done;
          });
        }
      });
    }
    for (auto& t : writers) t.join();
    storage.Stop();
    const auto stats = storage.stats();
    EXPECT_EQ(stats.jobs, static_cast<uint64_t>(kWriters * kEach));
    EXPECT_EQ(stats.batches, static_cast<uint64_t>(store.begun.load()));
    EXPECT_GT(stats.largest_batch, 1u);
  }
  EXPECT_EQ(done, kWriters * kEach);
  EXPECT_EQ(early, 0);
  EXPECT_EQ(store.appends, kWriters * kEach);
  // 400 appends with a 5 ms commit each would take 2 s one by one; batched, a few dozen commits.
  EXPECT_LT(store.committed, kWriters * kEach / 4);
}

// With a commit interval, moves arriving one after another share batches even when each commit is
// quick; a move after a quiet spell is committed at once, not held for the interval.
TEST(StorageExecutor, BatchesAreSpacedByTheCommitIntervalButALoneJobWaitsForNothing) {
  CountingStore store;
  store.commit_time = 0ms;
  {
    StorageExecutor storage(store, nullptr, std::chrono::milliseconds(300));
    // A lone job: the last batch started long ago (never), so it runs at once.
    std::promise<void> first;
    const auto start = std::chrono::steady_clock::now();
    storage.Submit(Append("g"), [&](Status) { first.set_value(); });
    first.get_future().wait();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 200ms) << "a lone job was held back";
    // 20 jobs, one every 5 ms (100 ms in all, within one interval): they wait for the interval
    // and go in one batch, or two if the machine stalls.
    std::atomic<int> done{0};
    for (int i = 0; i < 20; ++i) {
      storage.Submit(Append("g"), [&](Status) { ++done; });
      std::this_thread::sleep_for(5ms);
    }
    storage.Stop();
    EXPECT_EQ(done, 20);
    EXPECT_LE(storage.stats().batches, 3u);
    // Jobs that come while the thread waits out the interval wake nobody (the lone job may have,
    // unless it came before the thread first waited).
    EXPECT_LE(storage.stats().wakeups, storage.stats().batches - 1);
  }
  // With the interval off, the same jobs are committed as they come (the commit is instant).
  CountingStore eager;
  eager.commit_time = 0ms;
  {
    StorageExecutor storage(eager, nullptr, std::chrono::microseconds(0));
    for (int i = 0; i < 20; ++i) {
      storage.Submit(Append("g"), nullptr);
      std::this_thread::sleep_for(5ms);
    }
    storage.Stop();
    EXPECT_GE(storage.stats().batches, 10u);
  }
}

// kEagerBatch jobs waiting start a batch without waiting out the interval.
TEST(StorageExecutor, AFullQueueDoesNotWaitForTheInterval) {
  CountingStore store;
  store.commit_time = 0ms;
  StorageExecutor storage(store, nullptr, std::chrono::seconds(30));
  std::promise<void> first;
  storage.Submit(Append("g"), [&](Status) { first.set_value(); });
  first.get_future().wait();
  std::promise<void> all;
  std::atomic<size_t> done{0};
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < StorageExecutor::kEagerBatch; ++i) {
    storage.Submit(Append("g"), [&](Status) {
      if (++done == StorageExecutor::kEagerBatch) all.set_value();
    });
  }
  all.get_future().wait();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s) << "waited out the 30 s interval";
  // The kEagerBatch-th job cut the interval short; besides it, only the first may have woken the
  // thread.
  EXPECT_GE(storage.stats().wakeups, 1u);
  EXPECT_LE(storage.stats().wakeups, 2u);
  storage.Stop();
}

TEST(StorageExecutor, ARefusedJobFailsAloneAndAFailedCommitFailsTheWholeBatch) {
  CountingStore store;
  StorageExecutor storage(store);
  std::promise<Status> refused, fine;
  storage.Submit(Append("refused"), [&](Status st) { refused.set_value(st); });
  storage.Submit(Append("g"), [&](Status st) { fine.set_value(st); });
  EXPECT_EQ(refused.get_future().get().code(), "game_not_found");
  EXPECT_TRUE(fine.get_future().get().ok());

  store.fail_commit = true;
  std::promise<Status> lost;
  storage.Submit(Append("g"), [&](Status st) { lost.set_value(st); });
  const Status st = lost.get_future().get();
  EXPECT_EQ(st.code(), "storage_error") << "a write reported durable though its commit failed";
  storage.Stop();
  EXPECT_GE(store.rolled_back, 1);
}

TEST(StorageExecutor, ABatchLostMidwayRunsNothingMoreAndFailsEveryWrite) {
  CountingStore store;
  store.commit_time = 50ms;
  StorageExecutor storage(store);
  // Held in the first batch's commit, so the next three queue up into one batch.
  std::promise<Status> first;
  storage.Submit(Append("g"), [&](Status st) { first.set_value(st); });
  for (int i = 0; i < 2000 && store.begun == 0; ++i) std::this_thread::sleep_for(1ms);
  std::promise<Status> before, lost, after;
  storage.Submit(Append("g"), [&](Status st) { before.set_value(st); });
  storage.Submit(Append("disk full"), [&](Status st) { lost.set_value(st); });
  storage.Submit(Append("g"), [&](Status st) { after.set_value(st); });
  EXPECT_TRUE(first.get_future().get().ok());
  EXPECT_FALSE(before.get_future().get().ok()) << "undone with its batch, yet reported stored";
  EXPECT_FALSE(lost.get_future().get().ok());
  EXPECT_FALSE(after.get_future().get().ok());
  storage.Stop();
  EXPECT_EQ(store.appends, 2) << "a write ran outside its lost batch";
}

TEST(StorageExecutor, ReadsRunAfterTheirBatchIsCommitted) {
  CountingStore store;
  StorageExecutor storage(store);
  std::promise<std::pair<bool, int>> seen;
  storage.Submit(Append("g"), nullptr);
  storage.Submit(
      [&](Store&) {
        seen.set_value({store.in_batch.load(), store.committed.load()});
        return Status::Ok();
      },
      nullptr, StorageExecutor::Kind::kRead);
  auto [in_batch, committed] = seen.get_future().get();
  EXPECT_FALSE(in_batch) << "a read ran inside the write batch";
  EXPECT_GE(committed, 1);
  storage.Stop();
}

// Holds the storage thread inside a batch until released (or destroyed), so the jobs submitted
// meanwhile queue up for the next batch together.
class HeldThread {
 public:
  explicit HeldThread(StorageExecutor& storage) {
    std::promise<void> holding;
    storage.Submit([&holding, released = released_](Store&) {
      holding.set_value();
      released.wait();
      return Status::Ok();
    }, nullptr);
    holding.get_future().wait();
  }
  ~HeldThread() { Release(); }
  void Release() {
    if (!done_) release_.set_value();
    done_ = true;
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
  bool done_ = false;
};

// A shard's rooms are answered together: one handler per execution context per batch, the answers
// in submission order, none of them on the storage thread.
TEST(StorageExecutor, AnswersAreHandedToEachContextOnceABatchInOrder) {
  CountingStore store;
  store.commit_time = 0ms;
  boost::asio::io_context a, b;
  std::vector<int> on_a, on_b;
  StorageExecutor storage(store);
  HeldThread held(storage);
  for (int i = 0; i < 6; ++i) {
    auto& seen = i % 2 == 0 ? on_a : on_b;
    storage.Submit(Append("g"), [&seen, i](Status st) {
      EXPECT_TRUE(st.ok()) << st.ToString();
      seen.push_back(i);
    }, i % 2 == 0 ? a.get_executor() : b.get_executor());
  }
  held.Release();
  storage.Stop();
  EXPECT_TRUE(on_a.empty() && on_b.empty()) << "answered before its context ran";
  EXPECT_EQ(storage.stats().answer_posts, 2u);
  EXPECT_EQ(a.run(), 1u);
  EXPECT_EQ(b.run(), 1u);
  EXPECT_EQ(on_a, (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(on_b, (std::vector<int>{1, 3, 5}));
}

// A call the commit settled as refused fails alone; the others in its batch are committed.
TEST(StorageExecutor, ACallRefusedAtTheCommitFailsAlone) {
  CountingStore store;
  store.commit_time = 0ms;
  std::vector<std::string> outcomes(3);
  {
    StorageExecutor storage(store);
    HeldThread held(storage);
    const char* games[] = {"g", "fenced", "g"};
    for (int i = 0; i < 3; ++i) {
      storage.Submit(Append(games[i]), [&outcomes, i](Status st) { outcomes[i] = st.code(); });
    }
    held.Release();
  }
  EXPECT_EQ(outcomes, (std::vector<std::string>{"", "lease_lost", ""}));
  EXPECT_EQ(store.committed, 2);
}

// Leases are renewed on time by the storage thread, with or without moves.
TEST(StorageExecutor, LeasesAreRenewedWhileNothingElseHappens) {
  CountingStore store;
  {
    StorageExecutor storage(store, nullptr, StorageExecutor::kDefaultCommitInterval, 20ms);
    std::this_thread::sleep_for(150ms);
    EXPECT_GE(storage.stats().renewals, 4u);
  }
  EXPECT_GE(store.renewals, 4);
  EXPECT_LE(store.renewals, 12);
}

TEST(StorageExecutor, StopRunsEverythingQueuedAndLaterJobsRunInline) {
  CountingStore store;
  store.commit_time = 20ms;
  std::atomic<int> done{0};
  StorageExecutor storage(store);
  for (int i = 0; i < 100; ++i) storage.Submit(Append("g"), [&](Status) { ++done; });
  storage.Stop();
  EXPECT_EQ(done, 100);
  bool ran = false;
  storage.Submit([](Store&) { return Status::Ok(); }, [&](Status st) { ran = st.ok(); });
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace plateau::server
