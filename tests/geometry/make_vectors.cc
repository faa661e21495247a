// Writes the shared geometry test vectors (tests/geometry/vectors.json) from the engine's answers:
//   plateau-geometry-vectors > tests/geometry/vectors.json
// Run it when a case is added or a convention changes on purpose, and review the diff: both the
// engine's test and the web client's test hold their code to this file.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/geometry/geometry_cases.h"

namespace {

using google::protobuf::Value;

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Compact JSON with object keys sorted, so a regenerated file diffs cleanly.
std::string Json(const Value& v) {
  switch (v.kind_case()) {
    case Value::kNumberValue: {
      const double n = v.number_value();
      char buf[32];
      if (n == std::floor(n) && std::abs(n) < 1e15) {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n));
      } else {
        // The shortest form that reads back as the same double.
        for (int digits = 15; digits <= 17; ++digits) {
          std::snprintf(buf, sizeof buf, "%.*g", digits, n);
          if (std::strtod(buf, nullptr) == n) break;
        }
      }
      return buf;
    }
    case Value::kStringValue: return Quote(v.string_value());
    case Value::kBoolValue: return v.bool_value() ? "true" : "false";
    case Value::kListValue: {
      std::string out = "[";
      for (int i = 0; i < v.list_value().values_size(); ++i) {
        if (i) out += ",";
        out += Json(v.list_value().values(i));
      }
      return out + "]";
    }
    case Value::kStructValue: {
      std::vector<std::string> keys;
      for (const auto& [k, x] : v.struct_value().fields()) keys.push_back(k);
      std::sort(keys.begin(), keys.end());
      std::string out = "{";
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i) out += ",";
        out += Quote(keys[i]) + ":" + Json(v.struct_value().fields().at(keys[i]));
      }
      return out + "}";
    }
    default: return "null";
  }
}

}  // namespace

int main() {
  using namespace plateau::geometry_vectors;
  const auto cases = Cases();
  std::cout << "{\"about\":" << Quote("Hex and region geometry: each case's function, inputs and "
                                      "the engine's answer. Written by plateau-geometry-vectors; "
                                      "checked by core_test and clients/web/test/geometry.test.ts.")
            << ",\n\"cases\":[\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    std::cout << "{\"fn\":" << Quote(c.fn) << ",\"in\":" << Json(c.in)
              << ",\"out\":" << Json(Evaluate(c.fn, c.in)) << "}" << (i + 1 < cases.size() ? ",\n" : "\n");
  }
  std::cout << "]}\n";
  return 0;
}
