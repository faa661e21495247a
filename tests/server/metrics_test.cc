// The Prometheus exposition writer: the output is read back line by line as a scraper would and
// checked against the text format 0.0.4, and recording from several threads loses nothing.
#include "server/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace plateau::server {
namespace {

struct Sample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // unescaped values, in order
  double value = 0;

  std::string Label(const std::string& key) const {
    for (const auto& [k, v] : labels) {
      if (k == key) return v;
    }
    return "<none>";
  }
};

struct Family {
  std::string help;
  std::string type;
  std::vector<Sample> samples;
};

bool IsNameChar(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         (!first && c >= '0' && c <= '9');
}

std::optional<double> ParseValue(const std::string& text) {
  if (text == "+Inf") return HUGE_VAL;
  if (text == "-Inf") return -HUGE_VAL;
  if (text == "NaN") return NAN;
  if (text.empty()) return std::nullopt;
  size_t used = 0;
  try {
    const double v = std::stod(text, &used);
    if (used != text.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

// `name{key="value",...} value`, values unescaped; nullopt (and a test failure) if the line is
// not one.
std::optional<Sample> ParseSample(const std::string& line) {
  Sample s;
  size_t i = 0;
  while (i < line.size() && IsNameChar(line[i], i == 0)) ++i;
  s.name = line.substr(0, i);
  if (s.name.empty()) return std::nullopt;
  if (i < line.size() && line[i] == '{') {
    ++i;
    while (i < line.size() && line[i] != '}') {
      const size_t key_start = i;
      while (i < line.size() && IsNameChar(line[i], i == key_start) && line[i] != ':') ++i;
      const std::string key = line.substr(key_start, i - key_start);
      if (key.empty() || i + 1 >= line.size() || line[i] != '=' || line[i + 1] != '"') {
        return std::nullopt;
      }
      i += 2;
      std::string value;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\n') return std::nullopt;
        if (line[i] == '\\') {
          if (i + 1 >= line.size()) return std::nullopt;
          const char e = line[i + 1];
          if (e == 'n') {
            value += '\n';
          } else if (e == '\\' || e == '"') {
            value += e;
          } else {
            return std::nullopt;  // the format knows no other escape
          }
          i += 2;
        } else {
          value += line[i++];
        }
      }
      if (i >= line.size()) return std::nullopt;
      ++i;  // closing quote
      s.labels.emplace_back(key, value);
      if (i < line.size() && line[i] == ',') ++i;
    }
    if (i >= line.size()) return std::nullopt;
    ++i;  // closing brace
  }
  if (i >= line.size() || line[i] != ' ') return std::nullopt;
  const auto value = ParseValue(line.substr(i + 1));
  if (!value) return std::nullopt;
  s.value = *value;
  return s;
}

// The family a sample belongs to: its own name, or for a histogram the name without the suffix.
std::string FamilyOf(const std::string& sample, const std::map<std::string, Family>& families) {
  if (families.count(sample)) return sample;
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s(suffix);
    if (sample.size() > s.size() && sample.ends_with(s)) {
      const std::string base = sample.substr(0, sample.size() - s.size());
      auto it = families.find(base);
      if (it != families.end() && it->second.type == "histogram") return base;
    }
  }
  return "";
}

// Reads an exposition as a scraper would, failing the test on anything out of format: every line
// a HELP, a TYPE or a sample; HELP and TYPE once per family and before its samples; a family's
// samples together.
std::map<std::string, Family> ParseExposition(const std::string& text) {
  std::map<std::string, Family> families;
  EXPECT_TRUE(text.empty() || text.back() == '\n') << "the last line must end";
  std::istringstream in(text);
  std::string line;
  std::string current;  // the family whose samples are being read
  std::set<std::string> finished;
  while (std::getline(in, line)) {
    EXPECT_FALSE(line.empty()) << "blank line";
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      const bool help = line[2] == 'H';
      const std::string rest = line.substr(7);
      const size_t space = rest.find(' ');
      EXPECT_NE(space, std::string::npos) << line;
      if (space == std::string::npos) continue;
      const std::string name = rest.substr(0, space);
      const std::string tail = rest.substr(space + 1);
      Family& f = families[name];
      EXPECT_TRUE(f.samples.empty()) << "HELP/TYPE after samples of " << name;
      EXPECT_FALSE(finished.count(name)) << name << " appears twice";
      if (current != name) {
        if (!current.empty()) finished.insert(current);
        current = name;
      }
      if (help) {
        EXPECT_TRUE(f.help.empty()) << "two HELP lines for " << name;
        f.help = tail;
      } else {
        EXPECT_TRUE(f.type.empty()) << "two TYPE lines for " << name;
        EXPECT_TRUE(tail == "counter" || tail == "gauge" || tail == "histogram" ||
                    tail == "summary" || tail == "untyped")
            << line;
        f.type = tail;
      }
      continue;
    }
    EXPECT_NE(line[0], '#') << "unexpected comment: " << line;
    auto sample = ParseSample(line);
    EXPECT_TRUE(sample.has_value()) << "not a sample line: " << line;
    if (!sample) continue;
    const std::string family = FamilyOf(sample->name, families);
    EXPECT_FALSE(family.empty()) << "sample without HELP/TYPE: " << line;
    EXPECT_EQ(family, current) << "samples of " << family << " are not together";
    if (!family.empty()) families[family].samples.push_back(*sample);
  }
  for (const auto& [name, f] : families) {
    EXPECT_FALSE(f.type.empty()) << name << " has no TYPE";
    EXPECT_FALSE(f.help.empty()) << name << " has no HELP";
  }
  return families;
}

// Histogram rules: buckets in increasing `le`, counts cumulative, the last le="+Inf" equal to
// _count, and one _sum.
void CheckHistogram(const std::string& name, const Family& f) {
  ASSERT_EQ(f.type, "histogram") << name;
  double last_le = -HUGE_VAL;
  double last_count = 0;
  std::optional<double> inf, sum, count;
  for (const Sample& s : f.samples) {
    if (s.name == name + "_bucket") {
      EXPECT_FALSE(inf.has_value()) << name << ": a bucket after +Inf";
      const auto le = ParseValue(s.Label("le"));
      ASSERT_TRUE(le.has_value()) << name << " le=" << s.Label("le");
      EXPECT_GT(*le, last_le) << name;
      EXPECT_GE(s.value, last_count) << name << " le=" << s.Label("le") << " is not cumulative";
      last_le = *le;
      last_count = s.value;
      if (std::isinf(*le)) inf = s.value;
    } else if (s.name == name + "_sum") {
      EXPECT_FALSE(sum.has_value());
      sum = s.value;
    } else if (s.name == name + "_count") {
      EXPECT_FALSE(count.has_value());
      count = s.value;
    } else {
      ADD_FAILURE() << "unexpected sample " << s.name << " in " << name;
    }
  }
  ASSERT_TRUE(inf.has_value()) << name << " has no +Inf bucket";
  ASSERT_TRUE(sum.has_value()) << name << " has no _sum";
  ASSERT_TRUE(count.has_value()) << name << " has no _count";
  EXPECT_EQ(*inf, *count) << name;
}

TEST(MetricsTest, RenderIsValidExposition) {
  Metrics m;
  m.rooms.Set(3);
  m.connections.SetSource([] { return 7.0; });
  m.actions_accepted.Inc();
  m.actions_accepted.Inc(4);
  m.actions_refused.Inc("not_your_turn");
  m.actions_refused.Inc("not_your_turn");
  m.actions_refused.Inc("malformed");
  for (double s : {0.0001, 0.0005, 0.003, 0.2, 0.2, 7.0}) m.action_latency.Observe(s);
  m.storage_batches.Inc(2);
  m.storage_batch_jobs.Observe(1);
  m.storage_batch_jobs.Observe(300);
  m.storage_commit.ObserveDuration(std::chrono::milliseconds(3));
  m.ws_queued_bytes.Add(100);
  m.ws_queued_bytes.Sub(40);
  m.connections_dropped.Inc("slow_reader");
  m.limits_hit.Inc("message_bytes");
  ASSERT_TRUE(m.AddGaugeCallback("plateau_test_ratio", "A ratio \\ with\na newline.",
                                 [] { return 0.25; }));

  const std::string text = m.Render();
  const auto families = ParseExposition(text);
  for (const char* name :
       {"plateau_rooms", "plateau_connections", "plateau_requests_total",
        "plateau_actions_accepted_total",
        "plateau_actions_refused_total", "plateau_action_latency_seconds",
        "plateau_storage_batches_total", "plateau_storage_batch_jobs",
        "plateau_storage_commit_seconds", "plateau_storage_failed_commits_total",
        "plateau_ws_queued_bytes", "plateau_connections_dropped_total", "plateau_limits_hit_total",
        "plateau_test_ratio"}) {
    EXPECT_TRUE(families.count(name)) << name << " missing from\n" << text;
  }
  const auto value_of = [&](const std::string& family, const std::string& label = "",
                            const std::string& label_value = "") -> double {
    for (const Sample& s : families.at(family).samples) {
      if (label.empty() || s.Label(label) == label_value) return s.value;
    }
    ADD_FAILURE() << family << " " << label << "=" << label_value << " not found";
    return -1;
  };
  EXPECT_EQ(families.at("plateau_rooms").type, "gauge");
  EXPECT_EQ(value_of("plateau_rooms"), 3);
  EXPECT_EQ(value_of("plateau_connections"), 7);
  EXPECT_EQ(families.at("plateau_actions_accepted_total").type, "counter");
  EXPECT_EQ(value_of("plateau_actions_accepted_total"), 5);
  EXPECT_EQ(value_of("plateau_actions_refused_total", "code", "not_your_turn"), 2);
  EXPECT_EQ(value_of("plateau_actions_refused_total", "code", "malformed"), 1);
  EXPECT_EQ(value_of("plateau_ws_queued_bytes"), 60);
  EXPECT_EQ(value_of("plateau_test_ratio"), 0.25);
  EXPECT_EQ(families.at("plateau_test_ratio").help, "A ratio \\\\ with\\na newline.");
  EXPECT_EQ(value_of("plateau_storage_failed_commits_total"), 0);

  for (const char* h : {"plateau_action_latency_seconds", "plateau_storage_batch_jobs",
                        "plateau_storage_commit_seconds"}) {
    CheckHistogram(h, families.at(h));
  }
  // The latency buckets as asked, written as people write them; 0.0005 itself falls in its
  // bucket (le is inclusive) and 7 s only in +Inf.
  const Family& latency = families.at("plateau_action_latency_seconds");
  std::vector<std::string> les;
  std::map<std::string, double> by_le;
  for (const Sample& s : latency.samples) {
    if (s.name != "plateau_action_latency_seconds_bucket") continue;
    les.push_back(s.Label("le"));
    by_le[s.Label("le")] = s.value;
  }
  EXPECT_EQ(les, (std::vector<std::string>{"0.0005", "0.001", "0.002", "0.005", "0.01", "0.02",
                                           "0.05", "0.1", "0.25", "0.5", "1", "2.5", "+Inf"}));
  EXPECT_EQ(by_le["0.0005"], 2);
  EXPECT_EQ(by_le["0.005"], 3);
  EXPECT_EQ(by_le["0.25"], 5);
  EXPECT_EQ(by_le["2.5"], 5);
  EXPECT_EQ(by_le["+Inf"], 6);
  double sum = -1;
  for (const Sample& s : latency.samples) {
    if (s.name == "plateau_action_latency_seconds_sum") sum = s.value;
  }
  EXPECT_NEAR(sum, 0.0001 + 0.0005 + 0.003 + 0.2 + 0.2 + 7.0, 1e-9);

  const Family& jobs = families.at("plateau_storage_batch_jobs");
  EXPECT_EQ(jobs.samples.front().Label("le"), "1");
  EXPECT_EQ(jobs.samples.front().value, 1);
}

TEST(MetricsTest, LabelValuesAreEscaped) {
  Metrics m;
  const std::string awkward = "quote\" back\\slash\nnewline {},=";
  m.actions_refused.Inc(awkward);
  const std::string text = m.Render();
  const std::string expected =
      R"(plateau_actions_refused_total{code="quote\" back\\slash\nnewline {},="} 1)";
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  const auto families = ParseExposition(text);
  const auto& samples = families.at("plateau_actions_refused_total").samples;
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].Label("code"), awkward);

  EXPECT_EQ(metrics_text::EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(metrics_text::EscapeLabelValue("plain"), "plain");
}

TEST(MetricsTest, ValuesAreFormattedAsTheFormatSpellsThem) {
  using metrics_text::FormatValue;
  EXPECT_EQ(FormatValue(0), "0");
  EXPECT_EQ(FormatValue(100), "100");
  EXPECT_EQ(FormatValue(-3), "-3");
  EXPECT_EQ(FormatValue(2.5), "2.5");
  EXPECT_EQ(FormatValue(0.0005), "0.0005");
  EXPECT_EQ(FormatValue(HUGE_VAL), "+Inf");
  EXPECT_EQ(FormatValue(-HUGE_VAL), "-Inf");
  EXPECT_EQ(FormatValue(NAN), "NaN");
  for (double v : {1e-9, 0.1, 1.0 / 3, 12345.678, 1e20, 6.02e23}) {
    const auto back = ParseValue(FormatValue(v));
    ASSERT_TRUE(back.has_value()) << FormatValue(v);
    EXPECT_EQ(*back, v) << FormatValue(v);
  }
}

TEST(MetricsTest, HistogramBucketsAreInclusiveAndCumulative) {
  Histogram h("t_seconds", "test", {1, 2, 4});
  for (double v : {0.5, 1.0, 1.5, 4.0, 100.0}) h.Observe(v);
  h.Observe(NAN);  // ignored
  const Histogram::Snapshot s = h.Read();
  EXPECT_EQ(s.cumulative, (std::vector<uint64_t>{2, 3, 4, 5}));
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.sum, 107.0);
}

TEST(MetricsTest, LabelValuesAreCapped) {
  LabeledCounter c("t_total", "test", "code");
  for (size_t i = 0; i < LabeledCounter::kMaxLabelValues + 72; ++i) {
    c.Inc("code_" + std::to_string(i));
  }
  c.Inc("code_0");  // a value already seen still counts as itself
  EXPECT_EQ(c.value("code_0"), 2u);
  EXPECT_EQ(c.Values().size(), LabeledCounter::kMaxLabelValues + 1);
  EXPECT_EQ(c.value(LabeledCounter::kOverflowValue), 72u);
}

TEST(MetricsTest, GaugeCallbacksNeedAFreshValidName) {
  Metrics m;
  EXPECT_FALSE(m.AddGaugeCallback("plateau_rooms", "taken", [] { return 1.0; }));
  EXPECT_FALSE(m.AddGaugeCallback("plateau_action_latency_seconds_count", "a histogram's",
                                  [] { return 1.0; }));
  EXPECT_FALSE(m.AddGaugeCallback("9lives", "bad", [] { return 1.0; }));
  EXPECT_FALSE(m.AddGaugeCallback("has space", "bad", [] { return 1.0; }));
  EXPECT_FALSE(m.AddGaugeCallback("", "bad", [] { return 1.0; }));
  EXPECT_FALSE(m.AddGaugeCallback("plateau_empty", "no function", {}));
  EXPECT_TRUE(m.AddGaugeCallback("plateau_open_files", "Files open.", [] { return 12.0; }));
  EXPECT_FALSE(m.AddGaugeCallback("plateau_open_files", "twice", [] { return 1.0; }));
  const std::string text = m.Render();
  EXPECT_NE(text.find("\nplateau_open_files 12\n"), std::string::npos) << text;
  ParseExposition(text);
}

TEST(MetricsTest, ConcurrentRecordingLosesNothing) {
  Metrics m;
  constexpr int kThreads = 8;
  constexpr int kPerThread = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&m, t] {
      const std::string code = t % 2 == 0 ? "even" : "odd";
      for (int i = 0; i < kPerThread; ++i) {
        m.actions_accepted.Inc();
        m.actions_refused.Inc(code);
        m.action_latency.Observe(0.001 * (i % 4));  // 0, 1, 2, 3 ms
        m.ws_queued_bytes.Add(3);
        m.ws_queued_bytes.Sub(1);
        if (i % 1000 == 0) m.Render();  // scrapes while others record
      }
    });
  }
  for (auto& t : threads) t.join();
  const uint64_t total = uint64_t{kThreads} * kPerThread;
  EXPECT_EQ(m.actions_accepted.value(), total);
  EXPECT_EQ(m.actions_refused.value("even") + m.actions_refused.value("odd"), total);
  EXPECT_EQ(m.actions_refused.value("even"), total / 2);
  EXPECT_EQ(m.ws_queued_bytes.value(), static_cast<int64_t>(2 * total));
  const auto latency = m.action_latency.Read();
  EXPECT_EQ(latency.count, total);
  // 0 and 1 ms fall in le=0.001, 2 ms in le=0.002, 3 ms in le=0.005.
  EXPECT_EQ(latency.cumulative[1], total / 2);
  EXPECT_EQ(latency.cumulative[2], total * 3 / 4);
  EXPECT_EQ(latency.cumulative[3], total);
  EXPECT_NEAR(latency.sum, total / 4 * (0.0 + 0.001 + 0.002 + 0.003), 1e-6);

  const auto families = ParseExposition(m.Render());
  CheckHistogram("plateau_action_latency_seconds", families.at("plateau_action_latency_seconds"));
}

}  // namespace
}  // namespace plateau::server
