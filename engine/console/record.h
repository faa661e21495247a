#pragma once
// Game records (plateau.v1.GameRecord, the export file format shared with the server): writing
// one from a console game and re-simulating one with the engine.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "engine/core/game.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::console {

using engine::Status;
using engine::StatusOr;

// The record of `state` as played from (options_bytes, seed): seats named "Seat 1".., every
// action with its text, and the results once the game is over. No game id or times: a console
// game is not stored anywhere, and leaving them out keeps the file reproducible byte for byte.
plateau::v1::GameRecord MakeRecord(const engine::State& state, std::string_view options_bytes,
                                   uint64_t seed);

StatusOr<plateau::v1::GameRecord> ReadRecordFile(const std::string& path);
Status WriteRecordFile(const plateau::v1::GameRecord& record, const std::string& path);

struct ReplayRequest {
  int64_t step = -1;   // the step whose view to print; -1: the last step
  int seat = engine::kSpectator;
  bool all_steps = false;  // print the view after every step
};

// Re-simulates `record`, printing the number of steps, each action, the final results and the
// requested view(s), and checks the stored results (when there are any) against the
// re-simulation. Fails (after printing what it could) when the record does not replay, the
// request is out of range, or the results differ.
Status ReplayRecord(const plateau::v1::GameRecord& record, const ReplayRequest& request,
                    std::ostream& out);

// "seat 0 (Alice): score 5, rank 1 — detail" lines for a finished game, seats numbered from
// `first_seat` (the console counts from 0 like the wire; the terminal client from 1 like people).
std::string FormatResults(const google::protobuf::RepeatedPtrField<plateau::v1::SeatResult>& results,
                          int first_seat = 0);

// Readable multi-line text format of a message (views, states), with a trailing newline.
// Unlike the protobuf default, non-ASCII text (country names, flags) is printed as is.
std::string MessageText(const google::protobuf::Message& message);

// One-line text format of an action, UTF-8 as is: `answer_capital { text: "Bogotá" }`. Parses
// back with Game::ParseActionText.
std::string ActionText(const google::protobuf::Message& action);

}  // namespace plateau::console
