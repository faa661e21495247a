#pragma once
// Generic per-recipient view diffs (proto/plateau/v1/diff.proto). ComputeDiff walks two messages
// of the same type side by side in their serialized form; ApplyDiff replays the ops. For any two
// views a and b of one type: ApplyDiff(a, ComputeDiff(a, b)) makes a byte-identical to b. Views
// must not use map fields (their order is not stable); repeated fields are diffed by position,
// or by key where their element type marks one (plateau.v1.diff_key) and elements came, went or
// moved.
#include <google/protobuf/message.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/status.h"
#include "plateau/v1/diff.pb.h"

namespace plateau::engine {

std::vector<plateau::v1::DiffOp> ComputeDiff(const google::protobuf::Message& from,
                                             const google::protobuf::Message& to);
// The same from the two messages' deterministic bytes (DeterministicBytes), for a holder that keeps
// views serialized and diffs every action: nothing is parsed but what changed, and the ops are
// appended to `ops` already serialized, as the `ops` fields of a ViewDiff (a ViewDiff's bytes
// are its other fields followed by these).
void ComputeDiff(const google::protobuf::Descriptor& type, std::string_view from,
                 std::string_view to, std::string* ops);
// Single ops written the same way, for holders that keep part of a view themselves (a log).
void AppendMessageOp(std::initializer_list<uint32_t> path, std::string_view message,
                     std::string* ops);
void DropFirstOp(std::initializer_list<uint32_t> path, uint32_t n, std::string* ops);

// Applies ops in order. A malformed op (unknown field, index out of range, wrong value kind)
// returns an error; ops before it stay applied, so callers apply to a copy when it matters.
Status ApplyDiff(const std::vector<plateau::v1::DiffOp>& ops, google::protobuf::Message* target);
Status ApplyDiff(const google::protobuf::RepeatedPtrField<plateau::v1::DiffOp>& ops,
                 google::protobuf::Message* target);

}  // namespace plateau::engine
