#pragma once
// Assertions over protobuf messages, game-agnostic (reflection only), so book examples can be
// scripted and checked against any game's View:
//  - MatchFragment: every field *written* in a text-format fragment equals the message's. Written
//    fields are found from the parser's location records rather than from field presence, so
//    `to_act: 0` is checked even though proto3 cannot tell 0 from unset. A repeated field in the
//    fragment lists the leading elements: the message must have at least that many, and each one
//    listed must match (messages partially, scalars exactly).
//  - FieldText: one value addressed by a path such as `display[2].card.name`; a path ending on a
//    repeated field without an index means its element count.
#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "engine/core/status.h"

namespace plateau::console {

using engine::Status;
using engine::StatusOr;

// Code for a check that did not hold.
inline constexpr const char* kExpectationFailed = "expectation_failed";

// Ok when `actual` matches `fragment`; kUsage when the fragment cannot be read as actual's type;
// kExpectationFailed naming the first differing field otherwise.
Status MatchFragment(const google::protobuf::Message& actual, std::string_view fragment);

// The value at `path` as text: numbers in decimal, enums by name, bools as true/false, strings
// unquoted, messages in one-line text format, repeated fields without index as their size.
StatusOr<std::string> FieldText(const google::protobuf::Message& message, std::string_view path);

// Ok when the value at `path` equals `expected`. Strings may be written with or without
// quotes, enums by name, numbers in any spelling of the same value ("2" and "2.0").
Status ExpectField(const google::protobuf::Message& message, std::string_view path,
                   std::string_view expected);

}  // namespace plateau::console
