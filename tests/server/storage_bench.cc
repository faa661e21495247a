// Storage benchmarks, not run by ctest: build storage_bench and run it by hand, e.g.
//   build/bin/storage_bench --benchmark_filter=AppendAction
// The database lives in the system temporary directory; the numbers include its fsyncs, so
// they depend on the disk under it (AppendAction is durable when it returns: one WAL fsync
// each).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "tests/support/temp_dir.h"
#include "server/storage/replay_service.h"
#include "server/storage/sqlite_store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;

using plateau::testing::TempDir;

std::unique_ptr<SqliteStore> OpenOrDie(const std::string& path) {
  auto store = SqliteStore::Open(path);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    std::abort();
  }
  return std::move(store.value());
}

void BeginOrDie(Store& store, const std::string& game_id, const std::string& game, int seats,
                const std::string& options, uint64_t seed) {
  plateau::v1::GameRecord record;
  record.set_game_id(game_id);
  record.set_game(game);
  record.set_options(options);
  record.set_seed(seed);
  for (int s = 0; s < seats; ++s) record.add_seat_names("p" + std::to_string(s));
  if (!store.BeginGame(record, RoomRecord{}).ok()) std::abort();
}

// Durable appends to one game's log: the cost the room pays before broadcasting a move.
void BM_AppendAction(benchmark::State& state) {
  TempDir dir;
  auto store = OpenOrDie(dir.File("bench.sqlite"));
  BeginOrDie(*store, "g", "globalissimo", 4, "", 1);
  plateau::v1::ReplayAction action;
  action.set_action(std::string(12, '\x2a'));
  action.set_text("place { slot: 2 position: 3 }");
  uint32_t index = 0;
  for (auto _ : state) {
    action.set_seat(static_cast<int>(index % 4));
    action.set_at_unix_ms(index);
    Status st = store->AppendAction("g", index++, action);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
// Real time: the cost is the fsync, which CPU time does not see.
BENCHMARK(BM_AppendAction)->Unit(benchmark::kMicrosecond)->UseRealTime();

// What the storage thread pays per action under load: batches of appends, each to a different
// one of many live games (as 1000 rooms in closed loop give it), committed durably. CPU time per
// action is the figure to compare (the fsync waits are not CPU); checkpoints included.
void BM_BatchedAppendsAcrossGames(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  const int batch = static_cast<int>(state.range(1));
  TempDir dir;
  auto store = OpenOrDie(dir.File("bench.sqlite"));
  for (int g = 0; g < games; ++g) {
    BeginOrDie(*store, "game-" + std::to_string(g), "globalissimo", 2, "", g);
  }
  std::vector<uint32_t> next(games, 0);
  plateau::v1::ReplayAction action;
  action.set_action(std::string(12, '\x2a'));
  action.set_text("place { slot: 2 position: 3 }");
  int game = 0;
  for (auto _ : state) {
    if (!store->BeginBatch().ok()) state.SkipWithError("begin");
    for (int i = 0; i < batch; ++i, game = (game + 1) % games) {
      action.set_seat(static_cast<int>(next[game] % 2));
      action.set_at_unix_ms(next[game]);
      Status st = store->AppendAction("game-" + std::to_string(game), next[game]++, action);
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    if (!store->CommitBatch().ok()) state.SkipWithError("commit");
  }
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_BatchedAppendsAcrossGames)->Args({1000, 20})->Unit(benchmark::kMicrosecond)->Iterations(10000);

// The storage thread's steady state at 1000 rooms in closed loop: `games` live games with the
// server's random ids, each `length` actions long, then finished (results in the same batch, as
// the room stores them) and replaced by a new one; each batch of `batch` appends goes to games
// in random order, after earlier rounds have left finished games in the file. The appends'
// pages are what one durable commit writes, so CPU per action here is mostly SQLite's B-tree and
// WAL work.
void BM_RollingGames(benchmark::State& state) {
  const int games = static_cast<int>(state.range(0));
  const int length = static_cast<int>(state.range(1));
  const int batch = static_cast<int>(state.range(2));
  TempDir dir;
  auto store = OpenOrDie(dir.File("bench.sqlite"));
  engine::Rng rng(11);
  auto new_id = [&rng] {
    char hex[20];
    std::snprintf(hex, sizeof hex, "g%016llx", static_cast<unsigned long long>(rng.Next()));
    return std::string(hex);
  };
  struct Live {
    std::string id;
    uint32_t next = 0;
  };
  std::vector<Live> live(games);
  for (Live& g : live) {
    g.id = new_id();
    BeginOrDie(*store, g.id, "globalissimo", 2, "", 1);
  }
  plateau::v1::ReplayAction action;
  action.set_action(std::string(12, '\x2a'));
  action.set_text("Alice places the card on slot 2, position 3");
  std::vector<plateau::v1::SeatResult> results(2);
  for (int s = 0; s < 2; ++s) {
    results[s].set_seat(s);
    results[s].set_name("p" + std::to_string(s));
    results[s].set_rank(s + 1);
  }
  auto round = [&] {
    if (!store->BeginBatch().ok()) state.SkipWithError("begin");
    for (int i = 0; i < batch; ++i) {
      Live& g = live[rng.Below(live.size())];
      action.set_seat(static_cast<int>(g.next % 2));
      action.set_at_unix_ms(1700000000000 + g.next);
      Status st = store->AppendAction(g.id, g.next++, action);
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
      if (g.next == static_cast<uint32_t>(length)) {
        if (!store->FinishGame(g.id, results, 1700000000000).ok()) state.SkipWithError("finish");
        g = Live{new_id(), 0};
        BeginOrDie(*store, g.id, "globalissimo", 2, "", 1);
      }
    }
    if (!store->CommitBatch().ok()) state.SkipWithError("commit");
  };
  // Earlier play: the file already holds this many rounds of finished games.
  for (int i = 0; i < 4 * games * length / batch; ++i) round();
  for (auto _ : state) round();
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_RollingGames)->Args({1000, 32, 150})->Unit(benchmark::kMicrosecond)->Iterations(400);

// One finished Globalissimo game (4 seats, book length) played with random legal actions.
struct StoredGame {
  TempDir dir;
  std::unique_ptr<SqliteStore> store;
  uint32_t steps = 0;
};

StoredGame& TheStoredGame() {
  static StoredGame* stored = [] {
    auto* s = new StoredGame;
    s->store = OpenOrDie(s->dir.File("bench.sqlite"));
    if (!engine::Registry::LoadAll().ok()) std::abort();
    const engine::Game* game = engine::Registry::Find("globalissimo");
    if (game == nullptr) std::abort();
    BeginOrDie(*s->store, "g", "globalissimo", 4, "", 7);
    auto position = game->NewGame(4, "", 7);
    if (!position.ok()) std::abort();
    engine::Rng rng(7);
    while (!position.value()->IsTerminal()) {
      auto acting = position.value()->ActingSeats();
      const int seat = acting[rng.Below(acting.size())];
      auto legal = position.value()->LegalActions(seat);
      if (legal.empty()) legal.push_back(position.value()->DefaultAction(seat));  // typed answer
      const auto& action = *legal[rng.Below(legal.size())];
      if (!position.value()->Apply(seat, action).ok()) std::abort();
      plateau::v1::ReplayAction stored;
      stored.set_seat(seat);
      stored.set_action(engine::DeterministicBytes(action));
      if (!s->store->AppendAction("g", s->steps++, stored).ok()) std::abort();
    }
    if (!s->store->FinishGame("g", {}, 1).ok()) std::abort();
    return s;
  }();
  return *stored;
}

plateau::v1::GetReplay Request(uint32_t step, int seat) {
  plateau::v1::GetReplay r;
  r.set_game_id("g");
  r.set_step(step);
  r.set_seat(seat);
  return r;
}

// A viewer pressing "next": each request is one step after the previous one.
void BM_ReplayGetStepForward(benchmark::State& state) {
  StoredGame& g = TheStoredGame();
  ReplayService service(*g.store);
  uint32_t step = 0;
  for (auto _ : state) {
    auto replay = service.Get(Request(step, -1), "");
    if (!replay.ok()) state.SkipWithError(replay.status().ToString().c_str());
    benchmark::DoNotOptimize(replay);
    step = step == g.steps ? 0 : step + 1;
  }
  state.counters["steps"] = g.steps;
}
BENCHMARK(BM_ReplayGetStepForward)->Unit(benchmark::kMicrosecond);

// A viewer dragging the slider: random steps of a game already in the cache.
void BM_ReplayGetRandomStep(benchmark::State& state) {
  StoredGame& g = TheStoredGame();
  ReplayService service(*g.store);
  engine::Rng rng(3);
  for (auto _ : state) {
    auto replay = service.Get(Request(static_cast<uint32_t>(rng.Below(g.steps + 1)), 0), "");
    if (!replay.ok()) state.SkipWithError(replay.status().ToString().c_str());
    benchmark::DoNotOptimize(replay);
  }
}
BENCHMARK(BM_ReplayGetRandomStep)->Unit(benchmark::kMicrosecond);

// The first request for a game: load the record from SQLite and simulate to the last step.
void BM_ReplayGetColdFinalStep(benchmark::State& state) {
  StoredGame& g = TheStoredGame();
  for (auto _ : state) {
    ReplayService service(*g.store);
    auto replay = service.Get(Request(g.steps, -1), "");
    if (!replay.ok()) state.SkipWithError(replay.status().ToString().c_str());
    benchmark::DoNotOptimize(replay);
  }
}
BENCHMARK(BM_ReplayGetColdFinalStep)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace plateau::server

BENCHMARK_MAIN();
