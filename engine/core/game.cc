#include "engine/core/game.h"

#include "engine/core/data.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <numeric>

namespace plateau::engine {

std::string DeterministicBytes(const Message& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream sos(&out);
    google::protobuf::io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&cos);
  }
  return out;
}

std::vector<int> RanksFromScores(const std::vector<int64_t>& scores) {
  std::vector<int> ranks(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) {
    int better = 0;
    for (size_t j = 0; j < scores.size(); ++j) better += scores[j] > scores[i] ? 1 : 0;
    ranks[i] = better + 1;
  }
  return ranks;
}

Status Game::ValidateOptions(int num_seats, const Message& options) const {
  if (num_seats < Info().min_seats || num_seats > Info().max_seats) {
    return Status(codes::kBadOptions, Info().title + " is played by " +
                                          std::to_string(Info().min_seats) + " to " +
                                          std::to_string(Info().max_seats) + " players, not " +
                                          std::to_string(num_seats) + ".");
  }
  if (options.GetDescriptor() != OptionsPrototype().GetDescriptor()) {
    return Status(codes::kBadOptions, "Options are not " + OptionsPrototype().GetTypeName() + ".");
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<Message>> Game::ParseOptions(std::string_view bytes) const {
  std::unique_ptr<Message> options(OptionsPrototype().New());
  if (!options->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(codes::kBadOptions, "The game options could not be decoded as " +
                                          options->GetTypeName() + ".");
  }
  return options;
}

StatusOr<std::unique_ptr<State>> Game::NewGame(int num_seats, std::string_view options_bytes,
                                               uint64_t seed) const {
  auto options = ParseOptions(options_bytes);
  if (!options.ok()) return options.status();
  Status st = ValidateOptions(num_seats, *options.value());
  if (!st.ok()) return st;
  return NewInitialState(num_seats, *options.value(), seed);
}

StatusOr<std::unique_ptr<State>> Game::Replay(int num_seats, std::string_view options_bytes,
                                              uint64_t seed,
                                              const std::vector<LoggedAction>& log) const {
  auto state = NewGame(num_seats, options_bytes, seed);
  if (!state.ok()) return state.status();
  for (size_t i = 0; i < log.size(); ++i) {
    Status st = state.value()->ApplyBytes(log[i].seat, log[i].action);
    if (!st.ok()) {
      return Status(st.code(), "Action " + std::to_string(i) + " of the log was refused: " +
                                   st.reason());
    }
  }
  return state;
}

std::unique_ptr<Message> Game::NewAction() const {
  return std::unique_ptr<Message>(ActionPrototype().New());
}

StatusOr<std::unique_ptr<Message>> Game::ParseActionBytes(std::string_view bytes) const {
  auto action = NewAction();
  if (!action->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(codes::kMalformed,
                  "The action could not be decoded as " + action->GetTypeName() + ".");
  }
  return action;
}


StatusOr<std::unique_ptr<Message>> Game::ParseActionText(std::string_view text) const {
  auto action = NewAction();
  std::string error = ParseTextFormat(text, action.get());
  if (!error.empty()) return Status(codes::kMalformed, "Cannot read the action: " + error);
  return action;
}

std::string Game::ActionToText(const Message& action) const {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  // Answers are typed by people in any language: keep "Bogotá" readable, not octal escapes.
  printer.SetUseUtf8StringEscaping(true);
  std::string out;
  printer.PrintToString(action, &out);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool State::IsActing(int seat) const {
  auto seats = ActingSeats();
  return std::find(seats.begin(), seats.end(), seat) != seats.end();
}

Status State::Validate(int seat, const Message& action) const {
  if (seat < 0 || seat >= num_seats_) {
    return Status(codes::kBadSeat, "Seat " + std::to_string(seat) + " is not in this game.");
  }
  if (IsTerminal()) return Status(codes::kGameOver, "The game is over.");
  if (action.GetDescriptor() != game_->ActionPrototype().GetDescriptor()) {
    return Status(codes::kMalformed, "Actions in this game are " +
                                         game_->ActionPrototype().GetTypeName() + ", not " +
                                         action.GetTypeName() + ".");
  }
  if (!IsActing(seat)) return Status(codes::kNotYourTurn, "It is not your turn to act.");
  return DoValidate(seat, action);
}

Status State::Apply(int seat, const Message& action) {
  Status st = Validate(seat, action);
  if (!st.ok()) return st;
  history_.push_back({seat, DeterministicBytes(action)});
  DoApply(seat, action);
  return st;
}

Status State::ApplyBytes(int seat, std::string_view action_bytes) {
  auto action = game_->ParseActionBytes(action_bytes);
  if (!action.ok()) return action.status();
  return Apply(seat, *action.value());
}

Status State::ApplyText(int seat, std::string_view action_text) {
  auto action = game_->ParseActionText(action_text);
  if (!action.ok()) return action.status();
  return Apply(seat, *action.value());
}

std::vector<int> State::Ranks() const { return RanksFromScores(Scores()); }

}  // namespace plateau::engine
