// plateau-load: an asynchronous load generator for a running plateau-server on this machine.
// Bots play any registered game from their own views over real WebSockets, closed loop or paced;
// or, with --idle-connections, it measures what an idle connection costs the server. See Help()
// in options.cc, and bench/run.sh for the standard runs.
#include <cstdio>
#include <string>
#include <vector>

#include "clients/load/game_run.h"
#include "clients/load/idle_probe.h"
#include "clients/load/options.h"
#include "clients/load/proc_stats.h"
#include "engine/core/registry.h"

namespace plateau::load {
namespace {

int Main(int argc, char** argv) {
  auto parsed = ParseOptions(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.ok()) {
    std::fprintf(stderr, "plateau-load: %s\n\n%s", parsed.status().reason().c_str(),
                 Help().c_str());
    return 2;
  }
  const LoadOptions& options = parsed.value();
  if (options.help) {
    std::fputs(Help().c_str(), stdout);
    return 0;
  }
  // Every bot is a socket: thousands of rooms need far more than the usual soft limit of 1024.
  const uint64_t open_files = RaiseFileLimit();
  const uint64_t margin = 64;  // the process's own files, the standard streams

  if (options.idle_connections > 0) {
    if (static_cast<uint64_t>(options.idle_connections) + margin > open_files) {
      std::fprintf(stderr, "plateau-load: %d connections need more open files than the limit "
                   "(%llu); raise the hard limit (ulimit -Hn).\n",
                   options.idle_connections, static_cast<unsigned long long>(open_files));
      return 2;
    }
    return RunIdleProbe(options);
  }
  if (options.floor) {
    if (2 * static_cast<uint64_t>(options.rooms) + margin > open_files) {
      std::fprintf(stderr, "plateau-load: %d rooms need more open files than the limit (%llu).\n",
                   options.rooms, static_cast<unsigned long long>(open_files));
      return 2;
    }
    return RunFloor(options);
  }

  engine::Status loaded = engine::Registry::LoadAll();
  if (!loaded.ok()) {
    std::fprintf(stderr, "plateau-load: the games could not be loaded: %s\n",
                 loaded.ToString().c_str());
    return 1;
  }
  const engine::Game* game = engine::Registry::Find(options.game);
  if (game == nullptr) {
    std::string known;
    for (const engine::Game* g : engine::Registry::All()) {
      known += (known.empty() ? "" : ", ") + g->Info().id;
    }
    std::fprintf(stderr, "plateau-load: no game '%s' here (games: %s).\n", options.game.c_str(),
                 known.c_str());
    return 2;
  }
  const engine::GameInfo& info = game->Info();
  const int seats = options.seats > 0 ? options.seats : info.min_seats;
  if (seats < info.min_seats || seats > info.max_seats) {
    std::fprintf(stderr, "plateau-load: %s is played by %d to %d players, not %d.\n",
                 info.id.c_str(), info.min_seats, info.max_seats, seats);
    return 2;
  }
  const uint64_t connections = static_cast<uint64_t>(options.rooms) * static_cast<uint64_t>(seats);
  if (connections + margin > open_files) {
    std::fprintf(stderr, "plateau-load: %llu bots need more open files than the limit (%llu); "
                 "raise the hard limit (ulimit -Hn) or use fewer rooms.\n",
                 static_cast<unsigned long long>(connections),
                 static_cast<unsigned long long>(open_files));
    return 2;
  }
  return RunGames(options, *game, seats);
}

}  // namespace
}  // namespace plateau::load

int main(int argc, char** argv) { return plateau::load::Main(argc, argv); }
