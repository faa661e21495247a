// plateau-session-bench: the game side of one action, without network or disk. For every
// registered game it records random games first (untimed), then times GameSession::Submit over
// them — parse, validate, apply, every seat's view built and diffed, frames encoded — and reports
// per game:
//   time per action           CPU time of Submit (Google Benchmark's cpu_time / actions)
//   diff_bytes / snap_bytes   mean Diff frame and mean Snapshot frame per seat and action
//   diff_pct                  the two as a percentage (the target: at most 10)
//   moves_bytes               the part of diff_bytes that is the published moves (table.moves)
//   session_KB                the largest a session grew to in a game (views, kept Diffs, state),
//                             serialized
//   heap_KB                   the heap a session holds halfway through its game (malloc's count
//                             of bytes in use, the session alive less before it started): what a
//                             playing room costs the server, connections aside
//
//   plateau-session-bench [--opening=N] [--seats=N] [--benchmark_filter=limit]
//                         [--benchmark_repetitions=3]
//
// --seats=N measures every game that seats N at N seats only (by default each game at its
// fewest seats and two more).
// --opening=N measures and times only each game's first N actions: what the whole server sees of
// 1000 rooms paced at one action a second in a window of a few seconds (bench/run.sh), where the
// games' first turns weigh more than over whole games.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "proto/plateau/v1/protocol.pb.h"
#include "server/room/game_session.h"
#include "tests/conformance/playout.h"

namespace {

using plateau::engine::Game;
using plateau::engine::LoggedAction;
using plateau::server::GameSession;

size_t g_opening = 0;  // 0: whole games
int g_seats = 0;       // 0: each game's fewest and two more

struct RecordedGame {
  uint64_t seed;
  std::vector<LoggedAction> log;
};

std::vector<RecordedGame> Record(const Game& game, int seats, int games) {
  std::vector<RecordedGame> out;
  for (int i = 0; i < games; ++i) {
    const uint64_t seed = 1000 + static_cast<uint64_t>(i);
    auto state = game.NewGame(seats, "", seed);
    if (!state.ok()) continue;
    plateau::engine::Rng rng(seed * 7 + 1);
    std::string error;
    if (plateau::testing::RandomPlayout(*state.value(), rng, nullptr, &error) < 0) continue;
    auto log = state.value()->History();
    if (g_opening > 0 && log.size() > g_opening) log.resize(g_opening);
    out.push_back({seed, std::move(log)});
  }
  return out;
}

size_t SessionBytes(const GameSession& s) {
  size_t bytes = s.state().Serialize().size();
  for (size_t k = 0; k < s.num_views(); ++k) bytes += s.view(k)->ByteSizeLong();
  for (size_t k = 0; k < s.num_views(); ++k)
    for (const auto& f : s.ResyncFor(k, 1)) bytes += f->size();
  return bytes;
}

size_t HeapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// The heap a session of `g` holds once half its actions are played, in bytes.
double HeapHalfway(const Game& game, int seats, const RecordedGame& g) {
  const size_t before = HeapInUse();
  auto session = GameSession::Start(game, "bench", seats, "", g.seed);
  if (!session.ok()) return 0;
  for (size_t i = 0; i < g.log.size() / 2; ++i) {
    if (!session.value()->Submit(g.log[i].seat, g.log[i].action).ok()) break;
  }
  const size_t after = HeapInUse();
  return after > before ? static_cast<double>(after - before) : 0;
}

// The bytes of a Diff frame's ops that change the seat's moves (table.moves and moves_held).
size_t MovesBytes(const std::string& frame, int table_field) {
  plateau::v1::ServerMessage m;
  if (!m.ParseFromString(frame)) return 0;
  size_t bytes = 0;
  for (const auto& op : m.diff().diff().ops())
    if (op.path_size() >= 2 && static_cast<int>(op.path(0)) == table_field &&
        (op.path(1) == 4 || op.path(1) == 5))
      bytes += op.ByteSizeLong() + 2;  // with its tag and length
  return bytes;
}

void BM_Submit(benchmark::State& bm, const Game* game, int seats,
               const std::vector<RecordedGame>* games) {
  // Sizes first, untimed: every seat's Diff against its Snapshot after each action.
  double diff_bytes = 0, snap_bytes = 0, frames = 0, session_bytes = 0, moves_bytes = 0;
  for (const auto& g : *games) {
    auto session = GameSession::Start(*game, "bench", seats, "", g.seed);
    if (!session.ok()) continue;
    const auto* table = session.value()->view(0)->GetDescriptor()->FindFieldByName("table");
    const int table_field = table != nullptr ? table->number() : -1;
    for (const auto& a : g.log) {
      auto applied = session.value()->Submit(a.seat, a.action);
      if (!applied.ok()) break;
      for (int k = 0; k < seats; ++k) {
        const std::string& diff = *applied.value().diffs[static_cast<size_t>(k)];
        diff_bytes += static_cast<double>(diff.size());
        moves_bytes += static_cast<double>(MovesBytes(diff, table_field));
        snap_bytes += static_cast<double>(session.value()->SnapshotFor(static_cast<size_t>(k))->size());
        frames += 1;
      }
    }
    session_bytes = std::max(session_bytes, static_cast<double>(SessionBytes(*session.value())));
  }
  double heap = 0;
  for (const auto& g : *games) heap += HeapHalfway(*game, seats, g);
  size_t next = 0;
  int64_t actions = 0;
  for (auto _ : bm) {
    const RecordedGame& g = (*games)[next++ % games->size()];
    auto session = GameSession::Start(*game, "bench", seats, "", g.seed);
    for (const auto& a : g.log) {
      auto applied = session.value()->Submit(a.seat, a.action);
      benchmark::DoNotOptimize(applied);
    }
    actions += static_cast<int64_t>(g.log.size());
  }
  bm.counters["actions"] = benchmark::Counter(static_cast<double>(actions),
                                              benchmark::Counter::kIsRate |
                                                  benchmark::Counter::kInvert);
  bm.counters["diff_bytes"] = frames > 0 ? diff_bytes / frames : 0;
  bm.counters["moves_bytes"] = frames > 0 ? moves_bytes / frames : 0;
  bm.counters["snap_bytes"] = frames > 0 ? snap_bytes / frames : 0;
  bm.counters["diff_pct"] = snap_bytes > 0 ? 100 * diff_bytes / snap_bytes : 0;
  bm.counters["session_KB"] = session_bytes / 1024;
  bm.counters["heap_KB"] = games->empty() ? 0 : heap / static_cast<double>(games->size()) / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  // Our one flag, taken out before Google Benchmark reads the rest.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--opening=", 0) == 0) {
      g_opening = std::strtoul(arg.c_str() + 10, nullptr, 10);
      continue;
    }
    if (arg.rfind("--seats=", 0) == 0) {
      g_seats = std::atoi(arg.c_str() + 8);
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  if (!plateau::engine::Registry::LoadAll().ok()) return 1;
  static std::vector<std::unique_ptr<std::vector<RecordedGame>>> recorded;
  for (const Game* game : plateau::engine::Registry::All()) {
    const auto& info = game->Info();
    std::vector<int> counts = {info.min_seats};
    if (info.max_seats > info.min_seats) counts.push_back(std::min(info.max_seats, info.min_seats + 2));
    if (g_seats > 0) {
      if (g_seats < info.min_seats || g_seats > info.max_seats) continue;
      counts = {g_seats};
    }
    for (int seats : counts) {
      recorded.push_back(std::make_unique<std::vector<RecordedGame>>(Record(*game, seats, 8)));
      if (recorded.back()->empty()) continue;
      benchmark::RegisterBenchmark(
          (info.id + "/seats:" + std::to_string(seats)).c_str(),
          [game, seats, games = recorded.back().get()](benchmark::State& bm) {
            BM_Submit(bm, game, seats, games);
          })
          ->Unit(benchmark::kMillisecond)
          ->MeasureProcessCPUTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
