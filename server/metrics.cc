#include "server/metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace plateau::server {

namespace metrics_text {

std::string FormatValue(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  // Whole numbers print as integers ("100", not "1e+02"): counts read naturally and bucket
  // bounds look as every other exporter writes them.
  if (std::fabs(v) < 1e15 && v == std::trunc(v)) {
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(v));
    return std::string(buf, end);
  }
  // %g style keeps small bounds as "0.0005" where the plain shortest form would give "5e-04".
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general);
  return std::string(buf, end);
}

std::string EscapeLabelValue(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
  return out;
}

bool IsValidMetricName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

}  // namespace metrics_text

namespace {

using metrics_text::EscapeLabelValue;
using metrics_text::FormatValue;

// HELP text escapes only backslash and newline (quotes are literal there).
std::string EscapeHelp(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void AppendSample(std::string& out, std::string_view name, std::string_view labels,
                  std::string_view value) {
  out += name;
  if (!labels.empty()) {
    out += '{';
    out += labels;
    out += '}';
  }
  out += ' ';
  out += value;
  out += '\n';
}

}  // namespace

Metric::Metric(std::string name, std::string help)
    : name_(std::move(name)), help_(std::move(help)) {}

void Metric::RenderHeader(std::string& out, std::string_view type) const {
  out += "# HELP ";
  out += name_;
  out += ' ';
  out += EscapeHelp(help_);
  out += "\n# TYPE ";
  out += name_;
  out += ' ';
  out += type;
  out += '\n';
}

void Counter::Render(std::string& out) const {
  RenderHeader(out, "counter");
  AppendSample(out, name(), {}, std::to_string(value()));
}

void Gauge::SetSource(std::function<double()> source) {
  std::lock_guard lock(mu_);
  source_ = std::move(source);
}

void Gauge::Render(std::string& out) const {
  std::function<double()> source;
  {
    std::lock_guard lock(mu_);
    source = source_;
  }
  RenderHeader(out, "gauge");
  // The source runs outside the lock: it may take locks of its own (the lobby's).
  AppendSample(out, name(), {}, source ? FormatValue(source()) : std::to_string(value()));
}

LabeledCounter::LabeledCounter(std::string name, std::string help, std::string label)
    : Metric(std::move(name), std::move(help)), label_(std::move(label)) {}

void LabeledCounter::Inc(std::string_view label_value, uint64_t n) {
  std::lock_guard lock(mu_);
  auto it = values_.find(label_value);
  if (it != values_.end()) {
    it->second += n;
  } else if (values_.size() < kMaxLabelValues) {
    values_.emplace(std::string(label_value), n);
  } else {
    auto other = values_.find(kOverflowValue);
    if (other != values_.end()) {
      other->second += n;
    } else {
      values_.emplace(std::string(kOverflowValue), n);
    }
  }
}

uint64_t LabeledCounter::value(std::string_view label_value) const {
  std::lock_guard lock(mu_);
  auto it = values_.find(label_value);
  return it == values_.end() ? 0 : it->second;
}

std::vector<std::pair<std::string, uint64_t>> LabeledCounter::Values() const {
  std::lock_guard lock(mu_);
  return {values_.begin(), values_.end()};
}

void LabeledCounter::Render(std::string& out) const {
  RenderHeader(out, "counter");
  for (const auto& [value, count] : Values()) {
    AppendSample(out, name(), label_ + "=\"" + EscapeLabelValue(value) + "\"",
                 std::to_string(count));
  }
}

Histogram::Histogram(std::string name, std::string help, std::vector<double> bounds)
    : Metric(std::move(name), std::move(help)),
      bounds_(std::move(bounds)),
      buckets_(std::make_unique<std::atomic<uint64_t>[]>(bounds_.size() + 1)) {
  for (size_t i = 0; i <= bounds_.size(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double value) {
  if (std::isnan(value)) return;
  // The first bound not below the value: buckets are "less than or equal".
  const size_t i = static_cast<size_t>(
      std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin());
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  double sum = sum_.load(std::memory_order_relaxed);
  while (!sum_.compare_exchange_weak(sum, sum + value, std::memory_order_relaxed)) {
  }
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot s;
  s.bounds = bounds_;
  s.cumulative.reserve(bounds_.size() + 1);
  uint64_t running = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    running += buckets_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(running);
  }
  s.count = running;
  s.sum = sum_.load(std::memory_order_relaxed);
  return s;
}

void Histogram::Render(std::string& out) const {
  const Snapshot s = Read();
  RenderHeader(out, "histogram");
  const std::string bucket = name() + "_bucket";
  for (size_t i = 0; i < s.bounds.size(); ++i) {
    AppendSample(out, bucket, "le=\"" + FormatValue(s.bounds[i]) + "\"",
                 std::to_string(s.cumulative[i]));
  }
  AppendSample(out, bucket, "le=\"+Inf\"", std::to_string(s.count));
  AppendSample(out, name() + "_sum", {}, FormatValue(s.sum));
  AppendSample(out, name() + "_count", {}, std::to_string(s.count));
}

std::vector<double> Metrics::LatencyBounds() {
  return {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
}

std::vector<double> Metrics::BatchSizeBounds() {
  return {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
}

std::vector<const Metric*> Metrics::Declared() const {
  return {&rooms,
          &connections,
          &requests,
          &actions_accepted,
          &actions_refused,
          &action_latency,
          &storage_batches,
          &storage_batch_jobs,
          &storage_commit,
          &storage_failed_commits,
          &rooms_taken_over,
          &lease_renewals_failed,
          &links_opened,
          &link_bytes,
          &links_open,
          &ws_queued_bytes,
          &connections_dropped,
          &limits_hit};
}

bool Metrics::AddGaugeCallback(std::string name, std::string help,
                               std::function<double()> read) {
  if (!metrics_text::IsValidMetricName(name) || !read) return false;
  // A histogram's series names are taken too, or the output would hold one series twice.
  const auto clashes = [&](const Metric& m) {
    if (m.name() == name) return true;
    if (dynamic_cast<const Histogram*>(&m) == nullptr) return false;
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      if (m.name() + suffix == name) return true;
    }
    return false;
  };
  for (const Metric* m : Declared()) {
    if (clashes(*m)) return false;
  }
  std::lock_guard lock(extra_mu_);
  for (const auto& g : extra_) {
    if (clashes(*g)) return false;
  }
  auto gauge = std::make_unique<Gauge>(std::move(name), std::move(help));
  gauge->SetSource(std::move(read));
  extra_.push_back(std::move(gauge));
  return true;
}

std::string Metrics::Render() const {
  std::vector<const Metric*> all = Declared();
  {
    // Copied out so the callbacks run without this lock.
    std::lock_guard lock(extra_mu_);
    for (const auto& g : extra_) all.push_back(g.get());
  }
  std::string out;
  out.reserve(8192);
  for (const Metric* m : all) m->Render(out);
  return out;
}

}  // namespace plateau::server
