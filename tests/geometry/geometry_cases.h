#pragma once
// The shared geometry test vectors (vectors.json): what each case asks of engine/core/hex.h and
// region_graph.h, and what the engine answers. make_vectors writes the file with it once; the
// engine's test and the web client's test (clients/web/test/geometry.test.ts) recompute every
// case and must find the recorded answer.
#include <google/protobuf/struct.pb.h>

#include <string>
#include <vector>

namespace plateau::geometry_vectors {

struct Case {
  std::string fn;                   // which function: "line", "shortest_path", ...
  google::protobuf::Value in;       // its arguments, by name
};

// What the engine answers for a case (aborts on an unknown fn: the file and the code disagree).
google::protobuf::Value Evaluate(const std::string& fn, const google::protobuf::Value& in);

// Every fn Evaluate knows, so the test can check the file exercises each of them.
const std::vector<std::string>& Functions();

// The cases vectors.json holds (their inputs).
std::vector<Case> Cases();

}  // namespace plateau::geometry_vectors
