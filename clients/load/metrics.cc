#include "clients/load/metrics.h"

#include <algorithm>
#include <cmath>

namespace plateau::load {
namespace {

constexpr size_t kFailuresKept = 5;

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string Fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, std::isfinite(value) ? value : 0.0);
  return text;
}

}  // namespace

// ----- LatencyHistogram -----

LatencyHistogram::LatencyHistogram() {
  for (auto& bucket : buckets_) bucket.store(0, std::memory_order_relaxed);
}

size_t LatencyHistogram::Index(uint64_t micros) {
  if (micros < kExactMicros) return static_cast<size_t>(micros);
  const uint64_t largest = (uint64_t{1} << (kMaxExponent + 1)) - 1;
  micros = std::min(micros, largest);
  const int exponent = 63 - __builtin_clzll(micros);  // 10..kMaxExponent
  const uint64_t sub = (micros >> (exponent - kSubBits)) & ((uint64_t{1} << kSubBits) - 1);
  return static_cast<size_t>(kExactMicros) +
         static_cast<size_t>(exponent - 10) * (size_t{1} << kSubBits) + static_cast<size_t>(sub);
}

double LatencyHistogram::MidpointMicros(size_t index) {
  if (index < kExactMicros) return static_cast<double>(index) + 0.5;
  const size_t k = index - static_cast<size_t>(kExactMicros);
  const int exponent = 10 + static_cast<int>(k >> kSubBits);
  const double sub = static_cast<double>(k & ((size_t{1} << kSubBits) - 1));
  const double width = std::ldexp(1.0, exponent - kSubBits);
  return std::ldexp(1.0, exponent) + sub * width + width / 2;
}

void LatencyHistogram::Record(Clock::duration latency) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(latency).count();
  buckets_[Index(micros > 0 ? static_cast<uint64_t>(micros) : 0)].fetch_add(
      1, std::memory_order_relaxed);
}

uint64_t LatencyHistogram::Count() const {
  uint64_t n = 0;
  for (const auto& bucket : buckets_) n += bucket.load(std::memory_order_relaxed);
  return n;
}

double LatencyHistogram::QuantileMs(double q) const {
  const uint64_t total = Count();
  if (total == 0) return 0;
  const uint64_t rank = std::clamp<uint64_t>(
      static_cast<uint64_t>(std::ceil(q * static_cast<double>(total))), 1, total);
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += buckets_[i].load(std::memory_order_relaxed);
    if (seen >= rank) return MidpointMicros(i) / 1000.0;
  }
  return MidpointMicros(kBuckets - 1) / 1000.0;
}

// ----- Metrics -----

void Metrics::Accepted(Clock::duration latency) {
  if (!measuring.load(std::memory_order_relaxed)) return;
  accepted_.fetch_add(1, std::memory_order_relaxed);
  latency_.Record(latency);
}

void Metrics::Refused(const std::string& code) {
  if (!measuring.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(mu_);
  ++refused_[code];
}

void Metrics::GameFinished() {
  if (measuring.load(std::memory_order_relaxed)) games_.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::LobbyError(const std::string& code) {
  std::lock_guard lock(mu_);
  ++lobby_errors_[code];
}

void Metrics::Reconnected(Clock::duration took) {
  reconnects_.fetch_add(1, std::memory_order_relaxed);
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(took).count();
  int64_t longest = longest_reconnect_ms_.load();
  while (ms > longest && !longest_reconnect_ms_.compare_exchange_weak(longest, ms)) {
  }
}

void Metrics::ConnectionError(const std::string& what) {
  connection_errors_.fetch_add(1, std::memory_order_relaxed);
  NoteFailure("connection: " + what);
}

void Metrics::RoomFailed(const std::string& why) {
  rooms_failed_.fetch_add(1, std::memory_order_relaxed);
  NoteFailure("room given up: " + why);
}

void Metrics::NoteFailure(const std::string& what) {
  std::lock_guard lock(mu_);
  if (failures_.size() < kFailuresKept) failures_.push_back(what);
}

std::map<std::string, uint64_t> Metrics::refused() const {
  std::lock_guard lock(mu_);
  return refused_;
}

std::map<std::string, uint64_t> Metrics::lobby_errors() const {
  std::lock_guard lock(mu_);
  return lobby_errors_;
}

std::vector<std::string> Metrics::first_failures() const {
  std::lock_guard lock(mu_);
  return failures_;
}

// ----- Report -----

void Report::Text(const std::string& label, const std::string& key, const std::string& value) {
  fields_.push_back({label, key, value, JsonString(value)});
}

void Report::Int(const std::string& label, const std::string& key, uint64_t value) {
  fields_.push_back({label, key, std::to_string(value), std::to_string(value)});
}

void Report::Number(const std::string& label, const std::string& key, double value,
                    int decimals) {
  const std::string text = Fixed(value, decimals);
  fields_.push_back({label, key, text, text});
}

void Report::Counts(const std::string& label, const std::string& key,
                    const std::map<std::string, uint64_t>& counts) {
  uint64_t total = 0;
  std::string parts, json = "{";
  for (const auto& [code, n] : counts) {
    total += n;
    parts += (parts.empty() ? "" : ", ") + code + " " + std::to_string(n);
    json += (json.size() > 1 ? ", " : "") + JsonString(code) + ": " + std::to_string(n);
  }
  json += "}";
  fields_.push_back(
      {label, key, std::to_string(total) + (parts.empty() ? "" : " (" + parts + ")"), json});
}

void Report::Missing(const std::string& label, const std::string& key) {
  fields_.push_back({label, key, "n/a", "null"});
}

void Report::Print(bool json, std::FILE* out) const {
  std::string text;
  if (json) {
    text = "{";
    for (size_t i = 0; i < fields_.size(); ++i) {
      text += (i == 0 ? "" : ", ") + JsonString(fields_[i].key) + ": " + fields_[i].json;
    }
    text += "}\n";
  } else {
    for (const Field& f : fields_) text += f.label + ": " + f.text + "\n";
  }
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

}  // namespace plateau::load
