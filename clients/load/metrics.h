#pragma once
// What a run counts, written from every I/O thread (atomics; one mutex for the rarer counts by
// code), and the report printed at the end.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace plateau::load {

using Clock = std::chrono::steady_clock;

// Latencies in buckets of fixed relative width: exact to the microsecond below 1024 µs, then 512
// buckets per doubling (under 0.2% apart). A run of any length keeps the same small memory, and
// every thread records without a lock.
class LatencyHistogram {
 public:
  LatencyHistogram();
  void Record(Clock::duration latency);
  uint64_t Count() const;
  // The q-quantile (0 < q <= 1) in milliseconds; 0 when nothing was recorded.
  double QuantileMs(double q) const;

 private:
  static constexpr uint64_t kExactMicros = 1024;
  static constexpr int kSubBits = 9;
  static constexpr int kMaxExponent = 39;  // 2^40 µs, about 12 days: longer is clamped
  static constexpr size_t kBuckets = kExactMicros + (kMaxExponent - 9) * (size_t{1} << kSubBits);

  static size_t Index(uint64_t micros);
  static double MidpointMicros(size_t index);

  std::array<std::atomic<uint64_t>, kBuckets> buckets_;
};

class Metrics {
 public:
  // Accepted and refused actions and finished games count only while this is set: the measured
  // window, after the warmup.
  std::atomic<bool> measuring{false};

  void Accepted(Clock::duration latency);
  void Refused(const std::string& code);
  void GameFinished();
  void Resynced() { resyncs_.fetch_add(1, std::memory_order_relaxed); }
  // A lost connection opened again and its seat's view back, `took` after it was lost.
  void Reconnected(Clock::duration took);
  uint64_t reconnects() const { return reconnects_.load(); }
  // The longest time from a lost connection to its view back, in milliseconds.
  int64_t longest_reconnect_ms() const { return longest_reconnect_ms_.load(); }
  // A Diff or Snapshot a bot received, by its encoded size (counted while measuring).
  void ViewFrame(bool is_diff, size_t bytes) {
    if (!measuring.load(std::memory_order_relaxed)) return;
    FrameCount& c = is_diff ? diff_frames_ : snapshot_frames_;
    c.frames.fetch_add(1, std::memory_order_relaxed);
    c.bytes.fetch_add(bytes, std::memory_order_relaxed);
  }
  // Mean encoded bytes of the Diffs (Snapshots) received; 0 when none came.
  double mean_diff_bytes() const { return Mean(diff_frames_); }
  double mean_snapshot_bytes() const { return Mean(snapshot_frames_); }
  // Counted over the whole run: a refused lobby request, a connection lost, a room given up.
  void LobbyError(const std::string& code);
  void ConnectionError(const std::string& what);
  void RoomFailed(const std::string& why);
  void ConnectionOpened() { open_.fetch_add(1, std::memory_order_relaxed); }
  void ConnectionClosed() { open_.fetch_sub(1, std::memory_order_relaxed); }

  uint64_t accepted() const { return accepted_.load(); }
  uint64_t games_finished() const { return games_.load(); }
  uint64_t resyncs() const { return resyncs_.load(); }
  uint64_t connection_errors() const { return connection_errors_.load(); }
  uint64_t rooms_failed() const { return rooms_failed_.load(); }
  int64_t open_connections() const { return open_.load(); }
  const LatencyHistogram& latency() const { return latency_; }
  std::map<std::string, uint64_t> refused() const;
  std::map<std::string, uint64_t> lobby_errors() const;
  // The first few failures in words, for stderr.
  std::vector<std::string> first_failures() const;

 private:
  void NoteFailure(const std::string& what);
  struct FrameCount {
    std::atomic<uint64_t> frames{0};
    std::atomic<uint64_t> bytes{0};
  };
  static double Mean(const FrameCount& c) {
    const uint64_t n = c.frames.load();
    return n == 0 ? 0 : static_cast<double>(c.bytes.load()) / static_cast<double>(n);
  }
  FrameCount diff_frames_;
  FrameCount snapshot_frames_;

  std::atomic<uint64_t> accepted_{0};
  std::atomic<uint64_t> games_{0};
  std::atomic<uint64_t> resyncs_{0};
  std::atomic<uint64_t> reconnects_{0};
  std::atomic<int64_t> longest_reconnect_ms_{0};
  std::atomic<uint64_t> connection_errors_{0};
  std::atomic<uint64_t> rooms_failed_{0};
  std::atomic<int64_t> open_{0};
  LatencyHistogram latency_;
  mutable std::mutex mu_;
  std::map<std::string, uint64_t> refused_;       // guarded by mu_
  std::map<std::string, uint64_t> lobby_errors_;  // guarded by mu_
  std::vector<std::string> failures_;             // guarded by mu_
};

// One run's results: one "label: value" line each, or one JSON object ("--json").
class Report {
 public:
  void Text(const std::string& label, const std::string& key, const std::string& value);
  void Int(const std::string& label, const std::string& key, uint64_t value);
  void Number(const std::string& label, const std::string& key, double value, int decimals);
  void Counts(const std::string& label, const std::string& key,
              const std::map<std::string, uint64_t>& counts);
  // A value that could not be measured: "n/a", null in JSON.
  void Missing(const std::string& label, const std::string& key);
  void Print(bool json, std::FILE* out) const;

 private:
  struct Field {
    std::string label, key, text, json;
  };
  std::vector<Field> fields_;
};

}  // namespace plateau::load
