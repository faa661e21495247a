// plateau-load: a small, bounded load generator for plateau-server. Not run by ctest.
//
//   plateau-load [--rooms N] [--duration-seconds S] [--port P]
//
// Opens N rooms (1..64, default 8), each with two bot players over real WebSocket connections on
// 127.0.0.1, and has them play Globalissimo for S seconds (1..60, default 10): the bot to act
// picks a random free card and a random position, or a random answer to a barrier question,
// from its own view. When a game ends the room's bots start a new one. At the end it prints the
// number of accepted actions, actions per second, and the p50/p99 latency from sending
// SubmitAction to receiving ActionResult.
//
// Without --port it starts a server in-process (SQLite in a temporary directory, 2 threads), so
// the numbers include the durable write of every action. With --port it drives a server already
// listening on 127.0.0.1:P. Rerun with the same arguments to compare builds.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <random>

#include "games/globalissimo.pb.h"
#include "../test_support.h"

namespace {

using namespace plateau::server::testing;
namespace g = plateau::games::globalissimo;
using Clock = std::chrono::steady_clock;

struct Totals {
  std::mutex mu;
  std::vector<double> latencies_ms;
  int games = 0;
  int errors = 0;
};

bool ParseInt(const char* text, int lo, int hi, int* out) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

std::string RandomAction(const HeldView& held, int seat, std::mt19937_64& rng) {
  const auto& view = static_cast<const g::View&>(*held.view);
  g::Action action;
  if (view.phase() == g::PHASE_PLACEMENT && view.to_act() == seat) {
    std::vector<uint32_t> free;
    for (int i = 0; i < view.display_size(); ++i) {
      if (view.display(i).tile_seat() < 0) free.push_back(static_cast<uint32_t>(i));
    }
    if (free.empty() || view.max_position() == 0) return {};
    action.mutable_place()->set_slot(free[rng() % free.size()]);
    action.mutable_place()->set_position(1 + static_cast<uint32_t>(rng() % view.max_position()));
    return action.SerializeAsString();
  }
  if (view.phase() == g::PHASE_QUESTION && static_cast<int>(view.question().seat()) == seat) {
    if (view.question().kind() == g::BARRIER_ORANGE) {
      action.mutable_answer_capital()->set_text(rng() % 2 ? "Paris" : "Lima");
    } else {
      char id[4];
      std::snprintf(id, sizeof id, "%03u", static_cast<unsigned>(rng() % 900));
      action.mutable_answer_location()->set_map_id(id);
    }
    return action.SerializeAsString();
  }
  return {};
}

// One room's two bots, playing games back to back until `end`.
void RunRoom(uint16_t port, Clock::time_point end, Totals& totals, uint64_t seed) {
  std::mt19937_64 rng(seed);
  TestClient a(port), b(port);
  if (!a.open() || !b.open() || !a.Call(HelloName("bot-a")).has_welcome() ||
      !b.Call(HelloName("bot-b")).has_welcome()) {
    std::lock_guard lock(totals.mu);
    ++totals.errors;
    return;
  }
  TestClient* seats[2] = {&a, &b};
  while (Clock::now() < end) {
    plateau::v1::ClientMessage create;
    create.mutable_create_room()->set_game("globalissimo");
    create.mutable_create_room()->set_seats(2);
    const std::string room_id = a.Call(create).room().room_id();
    plateau::v1::ClientMessage join, ready, start;
    join.mutable_join_room()->set_room_id(room_id);
    ready.mutable_set_ready()->set_room_id(room_id);
    ready.mutable_set_ready()->set_ready(true);
    start.mutable_start_game()->set_room_id(room_id);
    if (room_id.empty() || !b.Call(join).has_room() || !b.Call(ready).has_ok() ||
        !a.Call(start).has_ok()) {
      std::lock_guard lock(totals.mu);
      ++totals.errors;
      return;
    }
    auto is_snapshot = [](const plateau::v1::ServerMessage& m) { return m.has_snapshot(); };
    if (!a.WaitPush(is_snapshot) || !b.WaitPush(is_snapshot)) return;
    std::vector<double> local;
    while (Clock::now() < end && !a.view(room_id).game_over) {
      bool moved = false;
      for (int seat = 0; seat < 2 && !moved; ++seat) {
        const std::string action = RandomAction(seats[seat]->view(room_id), seat, rng);
        if (action.empty()) continue;
        plateau::v1::ClientMessage m;
        m.mutable_action()->set_room_id(room_id);
        m.mutable_action()->set_action(action);
        const auto t0 = Clock::now();
        const plateau::v1::ServerMessage reply = seats[seat]->Call(m);
        local.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (!reply.has_action_result()) {
          std::lock_guard lock(totals.mu);
          ++totals.errors;
        }
        const uint64_t next = seats[seat]->view(room_id).version + 1;
        for (TestClient* c : seats) {
          c->WaitPush([&](const plateau::v1::ServerMessage& p) {
            return p.has_diff() && p.diff().diff().to_version() == next;
          });
        }
        moved = true;
      }
      if (!moved) break;  // a view out of step: give up this room rather than spin
    }
    std::lock_guard lock(totals.mu);
    totals.latencies_ms.insert(totals.latencies_ms.end(), local.begin(), local.end());
    if (a.view(room_id).game_over) ++totals.games;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rooms = 8, duration = 10, port = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    bool ok = false;
    if (arg == "--rooms" && has_value) ok = ParseInt(argv[++i], 1, 64, &rooms);
    else if (arg == "--duration-seconds" && has_value) ok = ParseInt(argv[++i], 1, 60, &duration);
    else if (arg == "--port" && has_value) ok = ParseInt(argv[++i], 1, 65535, &port);
    if (!ok) {
      std::fprintf(stderr,
                   "usage: plateau-load [--rooms 1..64] [--duration-seconds 1..60] [--port P]\n");
      return 2;
    }
  }
  std::unique_ptr<TempDir> dir;
  std::unique_ptr<TestServer> server;
  if (port == 0) {
    spdlog::set_level(spdlog::level::warn);
    dir = std::make_unique<TempDir>();
    server = std::make_unique<TestServer>(dir->File("load.db"));
    port = server->port();
    if (port == 0) return 1;
  }
  Totals totals;
  const auto start = Clock::now();
  const auto end = start + std::chrono::seconds(duration);
  std::vector<std::thread> threads;
  std::random_device rd;
  for (int r = 0; r < rooms; ++r) {
    threads.emplace_back(RunRoom, static_cast<uint16_t>(port), end, std::ref(totals),
                         (static_cast<uint64_t>(rd()) << 32) | rd());
  }
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (server) server->Stop();

  auto& lat = totals.latencies_ms;
  std::sort(lat.begin(), lat.end());
  auto pct = [&](double p) {
    return lat.empty() ? 0.0 : lat[std::min(lat.size() - 1, static_cast<size_t>(p * lat.size()))];
  };
  std::printf("rooms %d, %.1f s: %zu actions (%.0f actions/s), %d games finished, %d errors\n",
              rooms, seconds, lat.size(), lat.size() / seconds, totals.games, totals.errors);
  std::printf("SubmitAction -> ActionResult latency: p50 %.2f ms, p99 %.2f ms\n", pct(0.50),
              pct(0.99));
  return totals.errors == 0 ? 0 : 1;
}
