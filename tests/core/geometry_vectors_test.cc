// The engine against the shared geometry vectors (tests/geometry/vectors.json, which the web
// client's test reads too): every recorded answer must be what the engine gives now.
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "tests/geometry/geometry_cases.h"

namespace plateau::data::core_test {
extern const std::string_view kvectors;
}

namespace plateau::geometry_vectors {
namespace {

using google::protobuf::Value;
using google::protobuf::util::MessageDifferencer;

const google::protobuf::RepeatedPtrField<Value>& FileCases() {
  static const Value file = [] {
    Value v;
    const auto status =
        google::protobuf::util::JsonStringToMessage(std::string(data::core_test::kvectors), &v);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return v;
  }();
  return file.struct_value().fields().at("cases").list_value().values();
}

std::string Field(const Value& c, const std::string& name, const Value** out) {
  const auto& f = c.struct_value().fields();
  auto it = f.find(name);
  if (it == f.end()) return "no \"" + name + "\"";
  *out = &it->second;
  return "";
}

TEST(GeometryVectors, EveryRecordedAnswerIsTheEngines) {
  ASSERT_GT(FileCases().size(), 0);
  int n = 0;
  for (const Value& c : FileCases()) {
    ++n;
    const Value *fn = nullptr, *in = nullptr, *out = nullptr;
    ASSERT_EQ(Field(c, "fn", &fn) + Field(c, "in", &in) + Field(c, "out", &out), "") << "case " << n;
    const Value got = Evaluate(fn->string_value(), *in);
    std::string got_json, in_json;
    (void)google::protobuf::util::MessageToJsonString(got, &got_json);
    (void)google::protobuf::util::MessageToJsonString(*in, &in_json);
    EXPECT_TRUE(MessageDifferencer::Equals(got, *out))
        << "case " << n << ": " << fn->string_value() << " " << in_json << "\n  engine gives " << got_json;
  }
}

TEST(GeometryVectors, TheFileHoldsTheCurrentCasesAndCoversEveryFunction) {
  // A case added to geometry_cases.cc without regenerating the file would go unchecked on the web.
  const auto cases = Cases();
  ASSERT_EQ(static_cast<std::size_t>(FileCases().size()), cases.size())
      << "regenerate tests/geometry/vectors.json with plateau-geometry-vectors";
  std::set<std::string> seen;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Value& c = FileCases()[static_cast<int>(i)];
    EXPECT_EQ(c.struct_value().fields().at("fn").string_value(), cases[i].fn) << "case " << i + 1;
    EXPECT_TRUE(MessageDifferencer::Equals(c.struct_value().fields().at("in"), cases[i].in))
        << "case " << i + 1 << " (" << cases[i].fn << ") has other inputs in the file";
    seen.insert(cases[i].fn);
  }
  for (const std::string& fn : Functions()) EXPECT_TRUE(seen.contains(fn)) << fn << " has no case";
}

}  // namespace
}  // namespace plateau::geometry_vectors
