#include "engine/console/session.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <istream>
#include <ostream>

#include "engine/console/command_line.h"
#include "engine/console/expect.h"
#include "engine/console/record.h"
#include "engine/core/data.h"

namespace plateau::console {
namespace {

struct CommandHelp {
  const char* usage;
  const char* what;
};

constexpr CommandHelp kCommands[] = {
    {"act <seat> <action>", "apply an action in text format, e.g. act 0 place { slot: 2 position: 3 }"},
    {"view <seat|spectator>", "print what that seat may see"},
    {"show <seat|spectator>",
     "the same view as a player reads it: the game's summary, questions and latest log in words"},
    {"legal <seat>",
     "list the seat's legal actions, and its open question with how to answer it"},
    {"acting", "list the seats that may act now"},
    {"state", "print the whole position (hidden information included)"},
    {"history", "list the actions applied so far"},
    {"scores", "print scores and ranks once the game is over"},
    {"expect-error <code> <seat> <action>", "check that the action is refused with that code"},
    {"expect-view <seat|spectator> <fragment>",
     "check that every field written in the text-format fragment has that value in the view; "
     "repeated fields list leading elements"},
    {"expect-field <seat|spectator> <path> <value>",
     "check one view field, e.g. display[2].card.name \"France\"; a repeated field without index "
     "is its size"},
    {"expect-acting <seat>...|none", "check exactly which seats may act now"},
    {"expect-scores <score>...", "check the game is over with these scores, seat by seat"},
    {"export <file>", "write the game so far as a GameRecord (binary) for `replay`"},
    {"load-position <file>",
     "replace the whole position with one in the text format `state` prints (edit a printed "
     "position to set up a rule-book example); the game checks it first"},
    {"help", "this list"},
    {"quit", "stop reading commands"},
};

std::string JoinSeats(const std::vector<int>& seats) {
  std::string out;
  for (int s : seats) {
    if (!out.empty()) out += ' ';
    out += std::to_string(s);
  }
  return out;
}

// A question as the console shows it: its words (seats as "Seat N"), its shape, and how to
// answer it with `act`.
std::string DescribePrompt(const engine::Game& game, const plateau::v1::Prompt& p) {
  auto name = [](int seat) { return "Seat " + std::to_string(seat); };
  const auto& words = game.TextRenderer();
  std::string out = "question " + p.id() + ": " + words.Render(p.title(), name);
  if (p.has_detail()) out += " (" + words.Render(p.detail(), name) + ")";
  switch (p.kind()) {
    case plateau::v1::PROMPT_CHOOSE:
      out += "\n  choose " + std::to_string(p.min()) + " to " + std::to_string(p.max()) + " of:";
      for (const auto& o : game.OptionsOf(p)) out += " " + o.id();
      out += "\n  answer: core { answer { options: \"<id>\" } }";
      break;
    case plateau::v1::PROMPT_ORDER:
      out += "\n  order all of:";
      for (const auto& o : game.OptionsOf(p)) out += " " + o.id();
      out += "\n  answer: core { answer { options: \"<first>\" options: \"<second>\" ... } }";
      break;
    case plateau::v1::PROMPT_NUMBER:
      out += "\n  a number from " + std::to_string(p.min()) + " to " + std::to_string(p.max()) +
             "\n  answer: core { answer { number: <n> } }";
      break;
    case plateau::v1::PROMPT_YES_NO:
      out += "\n  answer: core { answer { yes: true } } or core { answer { yes: false } }";
      break;
    case plateau::v1::PROMPT_TEXT:
      out += "\n  a text of " + std::to_string(p.min()) + " to " + std::to_string(p.max()) +
             " characters\n  answer: core { answer { text: \"...\" } }";
      break;
    default:
      break;
  }
  return out;
}

}  // namespace

std::string Session::Help() {
  std::string out = "Commands:\n";
  for (const CommandHelp& c : kCommands) out += std::string("  ") + c.usage + "\n      " + c.what + "\n";
  return out;
}

StatusOr<std::unique_ptr<Session>> Session::Start(const engine::Game& game, int num_seats,
                                                  std::string_view options_text, uint64_t seed) {
  std::unique_ptr<engine::Message> options(game.OptionsPrototype().New());
  std::string error = engine::ParseTextFormat(options_text, options.get());
  if (!error.empty()) {
    return Status(engine::codes::kBadOptions,
                  "Cannot read the options as " + options->GetTypeName() + ": " + error);
  }
  std::string options_bytes = engine::DeterministicBytes(*options);
  auto state = game.NewGame(num_seats, options_bytes, seed);
  if (!state.ok()) return state.status();
  return std::unique_ptr<Session>(
      new Session(game, std::move(state.value()), std::move(options_bytes), seed));
}

Session::Session(const engine::Game& game, std::unique_ptr<engine::State> state,
                 std::string options_bytes, uint64_t seed)
    : game_(game), state_(std::move(state)), options_bytes_(std::move(options_bytes)), seed_(seed) {}

StatusOr<int> Session::Seat(std::string_view word, bool allow_spectator) const {
  if (word.empty()) return Status(kUsage, "A seat is missing.");
  return ParseSeat(word, state_->num_seats(), allow_spectator);
}

StatusOr<std::unique_ptr<engine::Message>> Session::Action(std::string_view text) const {
  if (text.empty()) {
    return Status(kUsage, "The action is missing (text format, e.g. " +
                              game_.ActionPrototype().GetTypeName() + " fields).");
  }
  return game_.ParseActionText(text);
}

std::string Session::ActingText() const {
  if (state_->IsTerminal()) return "none (the game is over)";
  std::vector<int> seats = state_->ActingSeats();
  return seats.empty() ? "none" : JoinSeats(seats);
}

Status Session::Execute(std::string_view line, std::ostream& out) {
  auto [command, rest] = SplitFirstWord(line);

  if (command == "act" || command == "expect-error") {
    std::string_view code;
    if (command == "expect-error") std::tie(code, rest) = SplitFirstWord(rest);
    auto [seat_word, action_text] = SplitFirstWord(rest);
    auto seat = Seat(seat_word, false);
    if (!seat.ok()) return seat.status();
    auto action = Action(action_text);
    if (command == "act") {
      if (!action.ok()) return action.status();
      Status st = state_->Apply(seat.value(), *action.value());
      if (!st.ok()) return st;
      out << "ok; acting: " << ActingText() << "\n";
      return Status::Ok();
    }
    if (code.empty()) return Status(kUsage, "expect-error needs a code, a seat and an action.");
    // Validate never changes the state, so an unexpected acceptance leaves the game as it was.
    Status st = action.ok() ? state_->Validate(seat.value(), *action.value()) : action.status();
    if (st.ok()) {
      return Status(kExpectationFailed, "the action was accepted, expected refusal '" +
                                            std::string(code) + "'.");
    }
    if (st.code() != code) {
      return Status(kExpectationFailed, "refused with '" + st.ToString() + "', expected code '" +
                                            std::string(code) + "'.");
    }
    out << "refused as expected: " << st.ToString() << "\n";
    return Status::Ok();
  }
  if (command == "view" || command == "show" || command == "expect-view" ||
      command == "expect-field") {
    auto [seat_word, arg] = SplitFirstWord(rest);
    auto seat = Seat(seat_word, true);
    if (!seat.ok()) return seat.status();
    std::unique_ptr<engine::Message> view = state_->View(seat.value());
    if (command == "view" || command == "show") {
      if (!arg.empty()) return Status(kUsage, std::string(command) + " takes only a seat.");
      if (command == "view") out << MessageText(*view);
      else out << game_.ViewText(*view, [](int s) { return "seat " + std::to_string(s); });
      return Status::Ok();
    }
    if (command == "expect-view") {
      if (arg.empty()) return Status(kUsage, "expect-view needs a seat and a text-format fragment.");
      return MatchFragment(*view, arg);
    }
    auto [path, value] = SplitFirstWord(arg);
    if (path.empty() || value.empty()) {
      return Status(kUsage, "expect-field needs a seat, a field path and a value.");
    }
    return ExpectField(*view, path, value);
  }
  if (command == "legal") {
    auto seat = Seat(rest, false);
    if (!seat.ok()) return seat.status();
    auto actions = state_->LegalActions(seat.value());
    auto prompts = state_->Prompts(seat.value());
    if (actions.empty() && prompts.empty()) out << "Seat " << seat.value() << " may not act now.\n";
    for (const auto& a : actions) out << ActionText(*a) << "\n";
    // A question whose answers are described rather than listed (free text, many choices).
    for (const auto& p : prompts) out << DescribePrompt(game_, p) << "\n";
    return Status::Ok();
  }
  if (command == "expect-acting") {
    if (rest.empty()) return Status(kUsage, "expect-acting needs seats, or 'none'.");
    std::vector<int> want;
    if (rest != "none") {
      for (const std::string& word : SplitWords(rest)) {
        auto seat = Seat(word, false);
        if (!seat.ok()) return seat.status();
        want.push_back(seat.value());
      }
    }
    std::vector<int> got = state_->ActingSeats();
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got) {
      return Status(kExpectationFailed, "acting seats are " + ActingText() + ", expected " +
                                            (want.empty() ? "none" : JoinSeats(want)) + ".");
    }
    return Status::Ok();
  }
  if (command == "expect-scores") {
    if (!state_->IsTerminal()) return Status(kExpectationFailed, "the game is not over.");
    std::vector<int64_t> want;
    for (const std::string& word : SplitWords(rest)) {
      auto score = ParseInt(word, "A score");
      if (!score.ok()) return score.status();
      want.push_back(score.value());
    }
    std::vector<int64_t> got = state_->Scores();
    if (want != got) {
      std::string got_text;
      for (int64_t s : got) {
        if (!got_text.empty()) got_text += ' ';
        got_text += std::to_string(s);
      }
      return Status(kExpectationFailed, "scores are " + got_text + ", expected " + std::string(rest) + ".");
    }
    return Status::Ok();
  }
  if (command == "load-position") {
    if (rest.empty()) return Status(kUsage, "load-position needs a file name.");
    return LoadPosition(std::string(rest), out);
  }
  if (!rest.empty() && command != "export") {
    std::string reason = "'";
    reason.append(command).append("' takes no arguments.");
    return Status(kUsage, reason);
  }
  if (command == "acting") {
    out << "acting: " << ActingText() << "\n";
  } else if (command == "state") {
    out << state_->DebugString();
    if (!state_->DebugString().empty() && state_->DebugString().back() != '\n') out << "\n";
  } else if (command == "history") {
    const auto& history = state_->History();
    if (history.empty()) out << "No actions yet.\n";
    for (size_t i = 0; i < history.size(); ++i) {
      auto action = game_.ParseActionBytes(history[i].action);
      out << "step " << i + 1 << ": seat " << history[i].seat << ": "
          << (action.ok() ? ActionText(*action.value()) : "<undecodable>") << "\n";
    }
  } else if (command == "scores") {
    if (!state_->IsTerminal()) {
      out << "The game is not over; acting: " << ActingText() << "\n";
    } else {
      out << FormatResults(MakeRecord(*state_, options_bytes_, seed_).results());
    }
  } else if (command == "export") {
    if (rest.empty()) return Status(kUsage, "export needs a file name.");
    if (loaded_position_) {
      return Status(kUsage,
                    "This game started from a loaded position; a record must replay from the "
                    "setup, so it cannot be exported.");
    }
    Status st = WriteRecordFile(MakeRecord(*state_, options_bytes_, seed_), std::string(rest));
    if (!st.ok()) return Status(kUsage, st.reason());
    out << "wrote " << state_->History().size() << " actions to " << rest << "\n";
  } else if (command == "help") {
    out << Help();
  } else if (command == "quit") {
    quit_ = true;
  } else {
    return Status(kUsage, "Unknown command '" + std::string(command) + "'; try 'help'.");
  }
  return Status::Ok();
}

Status Session::LoadPosition(const std::string& name, std::ostream& out) {
  const std::string path = base_dir_.empty() || name.front() == '/' ? name : base_dir_ + "/" + name;
  std::ifstream in(path);
  if (!in) return Status(kUsage, "Cannot open '" + path + "' for reading.");
  std::stringstream text;
  text << in.rdbuf();
  std::unique_ptr<engine::Message> position = state_->NewPositionMessage();
  if (position == nullptr) {
    return Status(kUsage, "This game cannot load positions from text.");
  }
  std::string error = engine::ParseTextFormat(text.str(), position.get());
  if (!error.empty()) return Status(kUsage, "'" + path + "': " + error);
  auto loaded = game_.Deserialize(engine::DeterministicBytes(*position));
  if (!loaded.ok()) {
    return Status(kUsage, "'" + path + "' is not a consistent position: " + loaded.status().reason());
  }
  state_ = std::move(loaded.value());
  loaded_position_ = true;
  out << "loaded the position in " << path << "; acting: " << ActingText() << "\n";
  return Status::Ok();
}

std::string FailureText(const Status& status) {
  if (status.code() == kUsage) return "error: " + status.reason();
  if (status.code() == kExpectationFailed) return "expectation failed: " + status.reason();
  return "refused: " + status.code() + ": " + status.reason();
}

int RunCommands(Session& session, std::istream& in, const std::string& source, bool strict,
                bool prompt, std::ostream& out, std::ostream& err) {
  std::string line;
  int line_number = 0;
  while (!session.quit_requested()) {
    if (prompt) out << "> " << std::flush;
    if (!std::getline(in, line)) break;
    ++line_number;
    std::string_view command = StripComment(line);
    if (command.empty()) continue;
    Status st = session.Execute(command, out);
    if (st.ok()) continue;
    if (strict) {
      out << std::flush;
      err << source << ":" << line_number << ": " << FailureText(st) << "\n  in: " << command
          << "\n";
      return 1;
    }
    out << FailureText(st) << "\n";
  }
  return 0;
}

}  // namespace plateau::console
