// plateau-engine: the rules console. Lists the registered games, plays one from commands typed
// or scripted (with assertions, so rule-book examples can be checked), and re-simulates exported
// game records. Pure engine: it links no network or database code.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/console/command_line.h"
#include "engine/console/record.h"
#include "engine/console/session.h"
#include "engine/core/registry.h"

namespace plateau::console {
namespace {

constexpr const char* kMainHelp = R"(Usage: plateau-engine <command> [options]

Commands:
  games     list the registered games
  play      play a game from commands (stdin or a script)
  replay    re-simulate an exported game record

Run 'plateau-engine <command> --help' for a command's options.
)";

constexpr const char* kGamesHelp = R"(Usage: plateau-engine games

Lists every registered game: id, title and number of seats.
)";

constexpr const char* kPlayHelp = R"(Usage: plateau-engine play <game> [--seats N] [--seed S] [--options TEXT] [--script FILE]

Starts <game> and reads commands, one per line; blank lines and '#' comments are ignored.
  --seats N       number of seats (default: the game's minimum)
  --seed S        seed of the game's random draws (default 1)
  --options TEXT  the game's Options message in protobuf text format, e.g. 'rounds: 1'
  --script FILE   read commands from FILE ('-' for stdin) and stop at the first failure
                  (a refused act, a failed expectation or a malformed command) with exit
                  status 1 and the line number. Without it, commands come from stdin and
                  failures are reported without stopping.

)";

constexpr const char* kReplayHelp = R"(Usage: plateau-engine replay FILE [--step N] [--seat S|spectator] [--all]

Re-simulates a game record (exported by 'play' or downloaded from a server): prints the number
of steps, every action, the final results and a view, and checks the stored results against the
re-simulation (exit status 1 when they differ or an action is refused).
  --step N     print the view after N actions (0 = the start; default: the last step)
  --seat S     whose view: a seat number or 'spectator' (default)
  --all        print the view after every step
)";

bool WantsHelp(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int Fail(const Status& st, const char* help) {
  std::cerr << "plateau-engine: " << st.reason() << "\n";
  if (help != nullptr && st.code() == kUsage) std::cerr << "\n" << help;
  return st.code() == kUsage ? 2 : 1;
}

const engine::Game* FindGame(const std::string& id) {
  const engine::Game* game = engine::Registry::Find(id);
  if (game == nullptr) {
    std::cerr << "plateau-engine: unknown game '" << id << "'; known games:";
    for (const engine::Game* g : engine::Registry::All()) std::cerr << " " << g->Info().id;
    std::cerr << "\n";
  }
  return game;
}

int Games(const std::vector<std::string>& argv) {
  auto args = Args::Parse(argv, {}, {});
  if (!args.ok()) return Fail(args.status(), kGamesHelp);
  if (!args.value().positionals().empty()) {
    return Fail(Status(kUsage, "games takes no arguments."), kGamesHelp);
  }
  for (const engine::Game* g : engine::Registry::All()) {
    const engine::GameInfo& info = g->Info();
    std::cout << info.id << "\t" << info.title << "\t" << info.min_seats << "-" << info.max_seats
              << " seats\n";
  }
  return 0;
}

int Play(const std::vector<std::string>& argv) {
  auto parsed = Args::Parse(argv, {"seats", "seed", "options", "script"}, {});
  if (!parsed.ok()) return Fail(parsed.status(), kPlayHelp);
  const Args& args = parsed.value();
  if (args.positionals().size() != 1) {
    return Fail(Status(kUsage, "play needs exactly one game id."), kPlayHelp);
  }
  const engine::Game* game = FindGame(args.positionals()[0]);
  if (game == nullptr) return 1;
  auto seats = ParseUint(args.Get("seats", std::to_string(game->Info().min_seats)), "--seats");
  if (!seats.ok()) return Fail(seats.status(), kPlayHelp);
  auto seed = ParseUint(args.Get("seed", "1"), "--seed");
  if (!seed.ok()) return Fail(seed.status(), kPlayHelp);
  auto session = Session::Start(*game, static_cast<int>(std::min<uint64_t>(seats.value(), 1000)),
                                args.Get("options"), seed.value());
  if (!session.ok()) return Fail(session.status(), nullptr);

  const std::string script = args.Get("script");
  if (script.empty()) {
    const bool terminal = isatty(STDIN_FILENO);
    if (terminal) {
      std::cout << game->Info().title << ", " << seats.value() << " seats, seed " << seed.value()
                << ". Type 'help' for commands.\n";
    }
    return RunCommands(*session.value(), std::cin, "stdin", false, terminal, std::cout, std::cerr);
  }
  if (script == "-") {
    return RunCommands(*session.value(), std::cin, "stdin", true, false, std::cout, std::cerr);
  }
  std::ifstream in(script);
  const size_t slash = script.find_last_of('/');
  session.value()->set_base_dir(slash == std::string::npos ? "." : script.substr(0, slash));
  if (!in) {
    std::cerr << "plateau-engine: cannot open script '" << script << "'.\n";
    return 1;
  }
  return RunCommands(*session.value(), in, script, true, false, std::cout, std::cerr);
}

int Replay(const std::vector<std::string>& argv) {
  auto parsed = Args::Parse(argv, {"step", "seat"}, {"all"});
  if (!parsed.ok()) return Fail(parsed.status(), kReplayHelp);
  const Args& args = parsed.value();
  if (args.positionals().size() != 1) {
    return Fail(Status(kUsage, "replay needs exactly one record file."), kReplayHelp);
  }
  auto record = ReadRecordFile(args.positionals()[0]);
  if (!record.ok()) return Fail(record.status(), nullptr);
  ReplayRequest request;
  request.all_steps = args.Has("all");
  if (args.Has("step")) {
    auto step = ParseUint(args.Get("step"), "--step");
    if (!step.ok()) return Fail(step.status(), kReplayHelp);
    request.step = static_cast<int64_t>(std::min<uint64_t>(step.value(), INT64_MAX));
  }
  if (args.Has("seat")) {
    // The seat range is checked against the record's seats by ReplayRecord.
    auto seat = ParseSeat(args.Get("seat"), 1 << 20, true);
    if (!seat.ok()) return Fail(seat.status(), kReplayHelp);
    request.seat = seat.value();
  }
  Status st = ReplayRecord(record.value(), request, std::cout);
  if (!st.ok()) return Fail(st, kReplayHelp);
  return 0;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kMainHelp;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  const char* help = command == "games"    ? kGamesHelp
                     : command == "play"   ? kPlayHelp
                     : command == "replay" ? kReplayHelp
                                           : nullptr;
  if (help == nullptr) {
    std::cerr << "plateau-engine: unknown command '" << command << "'.\n\n" << kMainHelp;
    return 2;
  }
  if (WantsHelp(args)) {
    std::cout << help;
    if (command == "play") std::cout << Session::Help();
    return 0;
  }
  Status loaded = engine::Registry::LoadAll();
  if (!loaded.ok()) {
    std::cerr << "plateau-engine: the games could not be loaded: " << loaded.reason() << "\n";
    return 1;
  }
  if (command == "games") return Games(args);
  if (command == "play") return Play(args);
  return Replay(args);
}

}  // namespace
}  // namespace plateau::console

int main(int argc, char** argv) { return plateau::console::Main(argc, argv); }
