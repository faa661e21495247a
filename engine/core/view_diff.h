#pragma once
// Generic per-recipient view diffs (proto/plateau/v1/diff.proto). ComputeDiff walks two messages
// of the same type side by side in their serialized form; ApplyDiff replays the ops. For any two
// views a and b of one type: ApplyDiff(a, ComputeDiff(a, b)) makes a byte-identical to b. Views
// must not use map fields (their order is not stable); repeated fields are diffed by position,
// or by key where their element type marks one (plateau.v1.diff_key) and elements came, went or
// moved.
#include <google/protobuf/message.h>

#include <string_view>
#include <vector>

#include "engine/core/status.h"
#include "plateau/v1/diff.pb.h"

namespace plateau::engine {

std::vector<plateau::v1::DiffOp> ComputeDiff(const google::protobuf::Message& from,
                                             const google::protobuf::Message& to);
// The same from the two messages' deterministic bytes (DeterministicBytes), appended to `ops`,
// for a holder that keeps views serialized and diffs every action (the ops may live on an arena):
// nothing is parsed but what changed.
void ComputeDiff(const google::protobuf::Descriptor& type, std::string_view from,
                 std::string_view to, google::protobuf::RepeatedPtrField<plateau::v1::DiffOp>* ops);

// Applies ops in order. A malformed op (unknown field, index out of range, wrong value kind)
// returns an error; ops before it stay applied, so callers apply to a copy when it matters.
Status ApplyDiff(const std::vector<plateau::v1::DiffOp>& ops, google::protobuf::Message* target);
Status ApplyDiff(const google::protobuf::RepeatedPtrField<plateau::v1::DiffOp>& ops,
                 google::protobuf::Message* target);

}  // namespace plateau::engine
