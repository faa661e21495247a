#include "engine/console/record.h"

#include <google/protobuf/text_format.h>

#include <fstream>
#include <ostream>
#include <sstream>

#include "engine/console/command_line.h"
#include "engine/core/registry.h"

namespace plateau::console {
namespace {

using plateau::v1::GameRecord;
using plateau::v1::SeatResult;

// Code for a record that cannot be read, replayed, or does not agree with itself.
constexpr const char* kBadRecord = "bad_record";

std::string SeatName(const GameRecord& record, int seat) {
  return seat < record.seat_names_size() ? record.seat_names(seat) : "Seat " + std::to_string(seat + 1);
}

void FillResults(const engine::State& state, const GameRecord& names,
                 google::protobuf::RepeatedPtrField<SeatResult>* results) {
  results->Clear();
  const std::vector<int64_t> scores = state.Scores();
  const std::vector<int> ranks = state.Ranks();
  for (int seat = 0; seat < state.num_seats(); ++seat) {
    SeatResult* r = results->Add();
    r->set_seat(seat);
    r->set_name(SeatName(names, seat));
    r->set_score(seat < static_cast<int>(scores.size()) ? scores[seat] : 0);
    r->set_rank(seat < static_cast<int>(ranks.size()) ? ranks[seat] : 0);
    r->set_detail(state.ResultDetail(seat));
  }
}

}  // namespace

std::string MessageText(const google::protobuf::Message& message) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetUseUtf8StringEscaping(true);  // country names and flags stay readable
  std::string out;
  printer.PrintToString(message, &out);
  return out;
}

std::string ActionText(const google::protobuf::Message& action) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  printer.SetUseUtf8StringEscaping(true);
  std::string out;
  printer.PrintToString(action, &out);
  return std::string(Trim(out));
}

GameRecord MakeRecord(const engine::State& state, std::string_view options_bytes, uint64_t seed) {
  GameRecord record;
  const engine::Game& game = state.game();
  record.set_game(game.Info().id);
  record.set_options(std::string(options_bytes));
  record.set_seed(seed);
  for (int seat = 0; seat < state.num_seats(); ++seat) {
    record.add_seat_names("Seat " + std::to_string(seat + 1));
  }
  for (const engine::LoggedAction& logged : state.History()) {
    plateau::v1::ReplayAction* a = record.add_actions();
    a->set_seat(logged.seat);
    a->set_action(logged.action);
    auto parsed = game.ParseActionBytes(logged.action);
    // The log only holds actions the state accepted, so they always decode.
    if (parsed.ok()) a->set_text(game.ActionToText(*parsed.value()));
  }
  if (state.IsTerminal()) FillResults(state, record, record.mutable_results());
  return record;
}

StatusOr<GameRecord> ReadRecordFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(kBadRecord, "Cannot open '" + path + "' for reading.");
  std::stringstream bytes;
  bytes << in.rdbuf();
  GameRecord record;
  if (!record.ParseFromString(bytes.str())) {
    return Status(kBadRecord, "'" + path + "' is not a game record (binary plateau.v1.GameRecord).");
  }
  return record;
}

Status WriteRecordFile(const GameRecord& record, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status(kBadRecord, "Cannot open '" + path + "' for writing.");
  out << engine::DeterministicBytes(record);
  out.close();
  if (!out) return Status(kBadRecord, "Writing '" + path + "' failed.");
  return Status::Ok();
}

std::string FormatResults(const google::protobuf::RepeatedPtrField<SeatResult>& results,
                          int first_seat) {
  std::string out;
  for (const SeatResult& r : results) {
    out += "  seat " + std::to_string(r.seat() + first_seat) + " (" + r.name() + "): score " +
           std::to_string(r.score()) + ", rank " + std::to_string(r.rank());
    if (!r.detail().empty()) out += " - " + r.detail();
    out += "\n";
  }
  return out;
}

Status ReplayRecord(const GameRecord& record, const ReplayRequest& request, std::ostream& out) {
  const engine::Game* game = engine::Registry::Find(record.game());
  if (game == nullptr) {
    return Status(engine::codes::kUnknownGame,
                  "The record is a game of '" + record.game() + "', which this build does not know.");
  }
  const int num_seats = record.seat_names_size();
  const int64_t steps = record.actions_size();
  if (request.step > steps) {
    return Status(kUsage, "Step " + std::to_string(request.step) + " is past the end: the game has " +
                              std::to_string(steps) + " steps (0 to " + std::to_string(steps) + ").");
  }
  if (request.seat != engine::kSpectator && (request.seat < 0 || request.seat >= num_seats)) {
    return Status(kUsage, "Seat " + std::to_string(request.seat) + " is not in this game (0 to " +
                              std::to_string(num_seats - 1) + ").");
  }
  auto started = game->NewGame(num_seats, record.options(), record.seed());
  if (!started.ok()) {
    return Status(kBadRecord, "The record's game cannot start: " + started.status().reason());
  }
  std::unique_ptr<engine::State> state = std::move(started.value());
  const int64_t view_step = request.step < 0 ? steps : request.step;
  const std::string who = request.seat == engine::kSpectator ? std::string("spectator")
                                                             : "seat " + std::to_string(request.seat);

  out << "game: " << game->Info().id << " (" << game->Info().title << "), " << num_seats
      << " seats, seed " << record.seed() << "\n";
  if (!record.game_id().empty()) out << "game id: " << record.game_id() << "\n";
  out << "steps: " << steps << "\n";
  auto print_view = [&](int64_t step) {
    out << "--- view of " << who << " at step " << step << " ---\n"
        << MessageText(*state->View(request.seat));
  };
  for (int64_t i = 0; i <= steps; ++i) {
    if (request.all_steps || i == view_step) print_view(i);
    if (i == steps) break;
    const plateau::v1::ReplayAction& a = record.actions(static_cast<int>(i));
    auto action = game->ParseActionBytes(a.action());
    std::string text = action.ok() ? ActionText(*action.value()) : "<undecodable>";
    out << "step " << i + 1 << ": seat " << a.seat() << ": " << text << "\n";
    Status st = action.ok() ? state->Apply(a.seat(), *action.value(),
                                           a.origin() == plateau::v1::ORIGIN_CLOCK)
                            : action.status();
    if (!st.ok()) {
      return Status(kBadRecord, "Action " + std::to_string(i + 1) + " (seat " +
                                    std::to_string(a.seat()) + ": " + text +
                                    ") is refused by the rules: " + st.ToString());
    }
  }

  if (!state->IsTerminal()) {
    out << "The game is not over after " << steps << " steps.\n";
    if (record.results_size() > 0) {
      return Status(kBadRecord, "The record has results but its actions do not finish the game.");
    }
    return Status::Ok();
  }
  GameRecord simulated;
  *simulated.mutable_seat_names() = record.seat_names();
  FillResults(*state, simulated, simulated.mutable_results());
  out << "results:\n" << FormatResults(simulated.results());
  if (record.results_size() == 0) {
    out << "The record stores no results to check.\n";
    return Status::Ok();
  }
  std::string differences;
  for (const SeatResult& stored : record.results()) {
    const int seat = static_cast<int>(stored.seat());
    if (seat >= simulated.results_size()) {
      differences += "  seat " + std::to_string(seat) + " is not in the game\n";
      continue;
    }
    const SeatResult& sim = simulated.results(seat);
    if (stored.score() != sim.score() || stored.rank() != sim.rank()) {
      differences += "  seat " + std::to_string(seat) + ": stored score " +
                     std::to_string(stored.score()) + " rank " + std::to_string(stored.rank()) +
                     ", re-simulated score " + std::to_string(sim.score()) + " rank " +
                     std::to_string(sim.rank()) + "\n";
    }
  }
  if (record.results_size() != simulated.results_size()) {
    differences += "  the record has " + std::to_string(record.results_size()) +
                   " results for " + std::to_string(simulated.results_size()) + " seats\n";
  }
  if (!differences.empty()) {
    out << "The stored results DIFFER from the re-simulation:\n" << differences;
    return Status(kBadRecord, "The stored results differ from the re-simulation.");
  }
  out << "The stored results match the re-simulation.\n";
  return Status::Ok();
}

}  // namespace plateau::console
