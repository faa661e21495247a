#pragma once
// What the server counts and measures, rendered for GET /metrics in the Prometheus text
// exposition format 0.0.4. Debian 12 packages no C++ Prometheus client, so this is the small part
// of one the server needs: counters, gauges, counters with one label, fixed-bucket histograms.
//
// Recording runs on hot paths (every action, every commit), so it takes no lock: one relaxed
// atomic add, plus a search over a dozen bounds for a histogram. Relaxed is enough because each
// value stands alone; a scrape may see one metric a few events ahead of another. Counters with a
// label take a mutex: they count rarer events (refusals, drops, limits hit), and the number of
// label values is capped (LabeledCounter::kMaxLabelValues, the rest count as "other") so a client
// sending made-up codes cannot grow the output without bound.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plateau::server {

// One metric family: its name, help text, and how it writes its samples.
class Metric {
 public:
  Metric(std::string name, std::string help);
  virtual ~Metric() = default;
  Metric(const Metric&) = delete;
  Metric& operator=(const Metric&) = delete;

  const std::string& name() const { return name_; }
  // Appends "# HELP", "# TYPE" and the sample lines.
  virtual void Render(std::string& out) const = 0;

 protected:
  void RenderHeader(std::string& out, std::string_view type) const;

 private:
  std::string name_;
  std::string help_;
};

class Counter : public Metric {
 public:
  using Metric::Metric;
  void Inc(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }
  void Render(std::string& out) const override;

 private:
  std::atomic<uint64_t> value_{0};
};

// A value that goes up and down: kept up to date by its owner (Set, Add), or read from a source
// at each scrape when one is set (for what is cheaper to count than to track: rooms open...).
class Gauge : public Metric {
 public:
  using Metric::Metric;
  void Set(int64_t v) { value_.store(v, std::memory_order_relaxed); }
  void Add(int64_t d = 1) { value_.fetch_add(d, std::memory_order_relaxed); }
  void Sub(int64_t d = 1) { value_.fetch_sub(d, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }
  // Called on the scraping thread, without any lock of this registry held; it must be safe to
  // call from there. Replaces the stored value in the output.
  void SetSource(std::function<double()> source);
  void Render(std::string& out) const override;

 private:
  std::atomic<int64_t> value_{0};
  mutable std::mutex mu_;
  std::function<double()> source_;
};

// A counter split by the value of one label (the refusal code, the reason, the limit...).
class LabeledCounter : public Metric {
 public:
  static constexpr size_t kMaxLabelValues = 128;
  static constexpr std::string_view kOverflowValue = "other";

  LabeledCounter(std::string name, std::string help, std::string label);
  void Inc(std::string_view label_value, uint64_t n = 1);
  uint64_t value(std::string_view label_value) const;
  // Every label value seen and its count, sorted by label value.
  std::vector<std::pair<std::string, uint64_t>> Values() const;
  void Render(std::string& out) const override;

 private:
  std::string label_;
  mutable std::mutex mu_;
  std::map<std::string, uint64_t, std::less<>> values_;
};

// Observations counted in fixed buckets, with their sum.
class Histogram : public Metric {
 public:
  // `bounds`: the buckets' upper bounds (inclusive), finite and strictly increasing; the +Inf
  // bucket is implicit.
  Histogram(std::string name, std::string help, std::vector<double> bounds);
  // NaN is ignored (it belongs to no bucket and would poison the sum).
  void Observe(double value);
  void ObserveDuration(std::chrono::steady_clock::duration d) {
    Observe(std::chrono::duration<double>(d).count());
  }

  struct Snapshot {
    std::vector<double> bounds;
    std::vector<uint64_t> cumulative;  // one per bound, then the +Inf bucket (== count)
    uint64_t count = 0;
    double sum = 0;
  };
  // The count is the buckets' total, so +Inf always equals _count even while others observe;
  // the sum may be an observation or two ahead or behind.
  Snapshot Read() const;
  void Render(std::string& out) const override;

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // bounds_.size() + 1, not cumulative
  std::atomic<double> sum_{0.0};
};

// Every metric of the server, named for its callers: metrics.actions_accepted.Inc(),
// metrics.action_latency.Observe(seconds), metrics.actions_refused.Inc(code). One instance per
// server, shared by every thread.
struct Metrics {
  static std::vector<double> LatencyBounds();    // seconds, 0.5 ms to 2.5 s
  static std::vector<double> BatchSizeBounds();  // 1 to 512, powers of two

  Metrics() = default;
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  Gauge rooms{"plateau_rooms", "Rooms open: waiting, playing, or finished and not yet removed."};
  Gauge connections{"plateau_connections", "WebSocket connections open."};
  Counter requests{"plateau_requests_total",
                   "Requests taken from clients (each gets its answer, even across a shutdown)."};
  Counter actions_accepted{"plateau_actions_accepted_total",
                           "Actions applied, stored and acknowledged."};
  LabeledCounter actions_refused{"plateau_actions_refused_total", "Actions refused, by code.",
                                 "code"};
  Histogram action_latency{"plateau_action_latency_seconds",
                           "Time from an action's arrival to its acknowledgement.",
                           LatencyBounds()};
  Counter storage_batches{"plateau_storage_batches_total",
                          "Batches committed by the storage thread."};
  Histogram storage_batch_jobs{"plateau_storage_batch_jobs", "Jobs per storage batch.",
                               BatchSizeBounds()};
  Histogram storage_commit{"plateau_storage_commit_seconds",
                           "Time to commit one storage batch, its sync included.",
                           LatencyBounds()};
  Counter storage_failed_commits{"plateau_storage_failed_commits_total",
                                 "Storage batches whose commit failed."};
  Counter rooms_taken_over{"plateau_rooms_taken_over_total",
                           "Rooms of other nodes whose lease ran out, taken over and restored "
                           "here (several nodes)."};
  Counter lease_renewals_failed{"plateau_lease_renewals_failed_total",
                                "Renewals of this node's leases that failed (several nodes)."};
  Counter links_opened{"plateau_links_opened_total",
                       "Client connections carried to the node that runs their room (several "
                       "nodes)."};
  LabeledCounter link_bytes{"plateau_link_bytes_total",
                            "Bytes carried over links to other nodes, by direction.", "direction"};
  Gauge links_open{"plateau_links_open", "Client connections carried to another node now."};
  Gauge ws_queued_bytes{"plateau_ws_queued_bytes",
                        "Bytes waiting to be sent, over every WebSocket connection."};
  LabeledCounter connections_dropped{"plateau_connections_dropped_total",
                                     "Connections the server ended, by reason.", "reason"};
  LabeledCounter limits_hit{"plateau_limits_hit_total", "Requests stopped by a limit, by limit.",
                            "limit"};

  // One more gauge, read from `read` at each scrape (on the scraping thread; see
  // Gauge::SetSource). False, and nothing added, when `name` is not a valid metric name or is
  // already used.
  bool AddGaugeCallback(std::string name, std::string help, std::function<double()> read);

  // The whole exposition, every family once, in declaration order then registration order.
  std::string Render() const;

 private:
  std::vector<const Metric*> Declared() const;

  mutable std::mutex extra_mu_;
  std::vector<std::unique_ptr<Gauge>> extra_;  // only ever appended: pointers stay valid
};

// Exposition-format helpers, exposed for the tests.
namespace metrics_text {
// A sample value: integers without a fraction, others in the shortest form that reads back
// exactly; "+Inf", "-Inf", "NaN" as the format spells them.
std::string FormatValue(double v);
// A label value between its quotes: backslash, double quote and newline escaped.
std::string EscapeLabelValue(std::string_view v);
// [a-zA-Z_:][a-zA-Z0-9_:]*
bool IsValidMetricName(std::string_view name);
}  // namespace metrics_text

}  // namespace plateau::server
