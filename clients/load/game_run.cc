#include "clients/load/game_run.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <chrono>
#include <boost/asio/steady_timer.hpp>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "clients/load/metrics.h"
#include "clients/load/proc_stats.h"
#include "clients/load/floor_room.h"
#include "clients/load/room.h"
#include "clients/load/run_support.h"
#include "plateau/v1/table.pb.h"

namespace plateau::load {

namespace asio = boost::asio;

namespace {

// Rooms being set up at once. Thousands of simultaneous connects and Hellos would overflow the
// server's accept backlog and measure that stampede instead of play; a room seated and ready
// lets the next one in.
constexpr int kSetupConcurrency = 64;
constexpr auto kDeadlineSlack = std::chrono::seconds(30);

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
double Megabytes(uint64_t kb) { return static_cast<double>(kb) / 1024.0; }

// The run's timeline around rooms already made: set-up, warmup, the measured window, closing;
// then the report, `label` naming what was played.
int RunRooms(const LoadOptions& options, LoadContext& ctx, asio::io_context& ioc,
             std::vector<std::unique_ptr<RoomBase>>& rooms, const std::string& label);

}  // namespace

int RunGames(const LoadOptions& options, const engine::Game& game, int seats) {
  Metrics metrics;
  LoadContext ctx;
  ctx.game = &game;
  ctx.table_field = game.ViewPrototype().GetDescriptor()->FindFieldByName("table");
  if (ctx.table_field == nullptr ||
      ctx.table_field->message_type() != plateau::v1::Table::descriptor()) {
    std::fprintf(stderr, "plateau-load: %s's View has no plateau.v1.Table table.\n",
                 game.Info().id.c_str());
    return 2;
  }
  ctx.seats = seats;
  ctx.rooms = options.rooms;
  ctx.rate = options.rate;
  ctx.reconnect = options.reconnect;
  ctx.server = MakeServerAddress(options.host, options.port);
  ctx.metrics = &metrics;

  asio::io_context ioc(options.threads);
  std::random_device device;
  const uint64_t seed = (uint64_t{device()} << 32) | device();
  std::vector<std::unique_ptr<RoomBase>> rooms;
  rooms.reserve(static_cast<size_t>(options.rooms));
  for (int i = 0; i < options.rooms; ++i) {
    const uint64_t room_seed = seed + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(i);
    rooms.push_back(std::make_unique<Room>(ctx, i, ioc, room_seed));
  }
  return RunRooms(options, ctx, ioc, rooms, game.Info().id);
}

int RunFloor(const LoadOptions& options) {
  Metrics metrics;
  LoadContext ctx;
  ctx.seats = 2;
  ctx.rooms = options.rooms;
  ctx.rate = options.rate;
  ctx.server = MakeServerAddress(options.host, options.port);
  ctx.metrics = &metrics;
  asio::io_context ioc(options.threads);
  std::vector<std::unique_ptr<RoomBase>> rooms;
  rooms.reserve(static_cast<size_t>(options.rooms));
  for (int i = 0; i < options.rooms; ++i) {
    rooms.push_back(std::make_unique<FloorRoom>(ctx, i, ioc));
  }
  return RunRooms(options, ctx, ioc, rooms, "floor");
}

namespace {

int RunRooms(const LoadOptions& options, LoadContext& ctx, asio::io_context& ioc,
             std::vector<std::unique_ptr<RoomBase>>& rooms, const std::string& label) {
  Metrics& metrics = *ctx.metrics;
  std::atomic<int> next_room{0};
  std::atomic<int> settled{0};
  auto start_next = [&] {
    const int i = next_room.fetch_add(1);
    if (i < options.rooms && !ctx.stopping.load()) rooms[static_cast<size_t>(i)]->Start();
  };
  ctx.room_settled = [&](bool) {
    settled.fetch_add(1);
    start_next();
  };

  // The timeline, on one chain of timer waits (never two at once, so no lock): setup and
  // warmup, the measured window, then closing. Every room is seated and ready before any game
  // starts (Room::Go); the window opens a warmup after that, so it measures play, not set-up.
  const auto launch = Clock::now();
  const auto warmup = std::chrono::seconds(options.warmup_seconds);
  const auto duration = std::chrono::seconds(options.duration_seconds);
  Watchdog watchdog(launch + warmup + duration + kDeadlineSlack,
                    "the run passed warmup + duration + 30 s (set-up too slow, or the server "
                    "stopped answering)");
  enum class Phase { kSetup, kMeasuring, kStopping };
  Phase phase = Phase::kSetup;
  bool all_started = false;
  Clock::time_point setup_done = launch, window_start = launch, window_end = launch;
  Clock::time_point stop_deadline = launch;
  std::optional<uint64_t> cpu_start, cpu_end, switches_start, switches_end, store_start, store_end;
  std::optional<Memory> memory;

  auto begin_stop = [&](Clock::time_point now) {
    phase = Phase::kStopping;
    ctx.stopping = true;
    for (auto& room : rooms) room->Stop();
    stop_deadline = now + kCloseGrace;
  };
  auto step = [&](Clock::time_point now) {
    if (!all_started && settled.load() == options.rooms) {
      all_started = true;
      setup_done = now;
      for (auto& room : rooms) room->Go();
    }
    switch (phase) {
      case Phase::kSetup:
        if (all_started && metrics.rooms_failed() == static_cast<uint64_t>(options.rooms)) {
          window_start = window_end = now;  // nothing left to measure
          begin_stop(now);
        } else if (all_started && now >= setup_done + warmup) {
          if (options.server_pid > 0) {
            cpu_start = CpuTicks(options.server_pid);
            switches_start = ContextSwitches(options.server_pid);
          }
          if (options.store_pid > 0) store_start = TreeCpuTicks(options.store_pid);
          window_start = now;
          metrics.measuring = true;
          phase = Phase::kMeasuring;
        }
        break;
      case Phase::kMeasuring:
        if (now >= window_start + duration) {
          metrics.measuring = false;
          window_end = now;
          if (options.server_pid > 0) {
            cpu_end = CpuTicks(options.server_pid);
            switches_end = ContextSwitches(options.server_pid);
            memory = ReadMemory(options.server_pid);
          }
          if (options.store_pid > 0) store_end = TreeCpuTicks(options.store_pid);
          begin_stop(now);
        }
        break;
      case Phase::kStopping:
        return metrics.open_connections() > 0 && now < stop_deadline;
    }
    return true;
  };
  RunTimeline(
      ioc, options.threads,
      [&] {
        for (int i = 0; i < std::min(options.rooms, kSetupConcurrency); ++i) start_next();
      },
      step);
  watchdog.Disarm();

  const uint64_t accepted = metrics.accepted();
  const double seconds = Seconds(window_end - window_start);
  Report report;
  report.Text("game", "game", label);
  report.Int("rooms", "rooms", static_cast<uint64_t>(options.rooms));
  report.Int("seats", "seats", static_cast<uint64_t>(ctx.seats));
  report.Text("mode", "mode", options.rate > 0 ? "paced" : "closed");
  if (options.rate > 0) report.Number("target actions/s", "target_rate", options.rate, 1);
  report.Int("threads", "threads", static_cast<uint64_t>(options.threads));
  report.Number("setup seconds", "setup_seconds", Seconds(setup_done - launch), 2);
  report.Number("measured seconds", "measured_seconds", seconds, 2);
  report.Int("accepted actions", "accepted", accepted);
  report.Counts("refused", "refused", metrics.refused());
  report.Number("actions/s", "actions_per_second",
                seconds > 0 ? static_cast<double>(accepted) / seconds : 0.0, 1);
  report.Number("latency p50 ms", "latency_p50_ms", metrics.latency().QuantileMs(0.50), 3);
  report.Number("latency p99 ms", "latency_p99_ms", metrics.latency().QuantileMs(0.99), 3);
  report.Number("latency p999 ms", "latency_p999_ms", metrics.latency().QuantileMs(0.999), 3);
  report.Int("games finished", "games_finished", metrics.games_finished());
  report.Int("resyncs", "resyncs", metrics.resyncs());
  if (options.reconnect) {
    report.Int("reconnects", "reconnects", metrics.reconnects());
    report.Int("longest reconnect ms", "longest_reconnect_ms",
               static_cast<uint64_t>(metrics.longest_reconnect_ms()));
  }
  // What the server sent per view update, as received: a Diff's bytes against a Snapshot's.
  report.Number("bytes per diff", "diff_bytes", metrics.mean_diff_bytes(), 0);
  report.Number("bytes per snapshot", "snapshot_bytes", metrics.mean_snapshot_bytes(), 0);
  report.Counts("lobby errors", "lobby_errors", metrics.lobby_errors());
  report.Int("connection errors", "connection_errors", metrics.connection_errors());
  report.Int("rooms failed", "rooms_failed", metrics.rooms_failed());
  // CPU ticks over the window as microseconds per accepted action, or missing.
  auto cpu_per_action = [&](const char* label, const char* key, std::optional<uint64_t> start,
                            std::optional<uint64_t> end) {
    if (start && end && accepted > 0) {
      const double seconds = static_cast<double>(*end - *start) / TicksPerSecond();
      report.Number(label, key, seconds * 1e6 / static_cast<double>(accepted), 1);
    } else {
      report.Missing(label, key);
    }
  };
  if (options.server_pid > 0) {
    cpu_per_action("server cpu us/action", "server_cpu_us_per_action", cpu_start, cpu_end);
    if (switches_start && switches_end && accepted > 0) {
      report.Number("server context switches/action", "server_context_switches_per_action",
                    static_cast<double>(*switches_end - *switches_start) /
                        static_cast<double>(accepted),
                    2);
    } else {
      report.Missing("server context switches/action", "server_context_switches_per_action");
    }
    if (memory) {
      report.Number("server peak rss MB", "server_peak_rss_mb", Megabytes(memory->peak_kb), 1);
      report.Number("server rss MB", "server_rss_mb", Megabytes(memory->rss_kb), 1);
    } else {
      report.Missing("server peak rss MB", "server_peak_rss_mb");
      report.Missing("server rss MB", "server_rss_mb");
    }
  }
  if (options.store_pid > 0) {
    cpu_per_action("store cpu us/action", "store_cpu_us_per_action", store_start, store_end);
  }
  report.Print(options.json, stdout);
  for (const std::string& failure : metrics.first_failures()) {
    std::fprintf(stderr, "plateau-load: %s\n", failure.c_str());
  }
  return metrics.connection_errors() > 0 || metrics.rooms_failed() > 0 ? 1 : 0;
}

}  // namespace

}  // namespace plateau::load
