#include "clients/load/idle_probe.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "clients/load/metrics.h"
#include "clients/load/proc_stats.h"
#include "clients/load/run_support.h"
#include "clients/load/ws_client.h"

namespace plateau::load {

namespace asio = boost::asio;
namespace v1 = plateau::v1;

namespace {

// Connections opening at once (see kSetupConcurrency in game_run.cc: the accept backlog).
constexpr int kOpenConcurrency = 200;
// The server settles (allocator caches, deferred frees) before its memory is read.
constexpr auto kSettle = std::chrono::seconds(2);

// Shared by every connection of the probe; thread-safe.
struct Probe {
  Metrics metrics;
  std::atomic<int> welcomed{0};
  std::atomic<int> answered{0};  // welcomed, refused, or lost before an answer
  std::atomic<bool> stopping{false};
  std::function<void()> open_next;

  void Answered(bool welcome) {
    if (welcome) welcomed.fetch_add(1);
    answered.fetch_add(1);
    open_next();
  }
};

class IdleClient final : public WsClient {
 public:
  IdleClient(Probe& probe, int index, asio::any_io_executor executor,
             const ServerAddress& server, std::optional<asio::ip::address> source)
      : WsClient(std::move(executor), server, std::move(source)), probe_(probe), index_(index) {}

 private:
  void OnOpen() override {
    v1::ClientMessage m;
    m.set_request_id(1);
    m.mutable_hello()->set_name("idle " + std::to_string(index_));
    m.mutable_hello()->set_protocol_version(1);
    Send(m);
  }

  void OnMessage(const v1::ServerMessage& message, size_t /*frame_bytes*/) override {
    if (message.request_id() != 1 || answered_) return;
    answered_ = true;
    if (message.has_error()) probe_.metrics.LobbyError(message.error().code());
    probe_.Answered(message.has_welcome());
  }

  void OnClosed(const std::string& error) override {
    probe_.metrics.ConnectionClosed();
    if (!error.empty() && !probe_.stopping.load()) probe_.metrics.ConnectionError(error);
    if (!answered_) {
      answered_ = true;
      probe_.Answered(false);
    }
  }

  Probe& probe_;
  const int index_;
  bool answered_ = false;
};

}  // namespace

int RunIdleProbe(const LoadOptions& options) {
  const int n = options.idle_connections;
  const std::optional<Memory> before = ReadMemory(options.server_pid);
  if (!before) {
    std::fprintf(stderr, "plateau-load: cannot read /proc/%d/status (is the server running?)\n",
                 options.server_pid);
    return 2;
  }
  const ServerAddress server = MakeServerAddress(options.host, options.port);
  Probe probe;
  asio::io_context ioc(options.threads);
  std::vector<std::unique_ptr<IdleClient>> clients;
  clients.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    // A strand each: a client's read and write handlers must not run at once on two threads.
    clients.push_back(std::make_unique<IdleClient>(probe, i, asio::make_strand(ioc), server,
                                                   SourceAddress(server, n, i)));
  }
  std::atomic<int> next{0};
  probe.open_next = [&] {
    const int i = next.fetch_add(1);
    if (i >= n || probe.stopping.load()) return;
    IdleClient* client = clients[static_cast<size_t>(i)].get();
    probe.metrics.ConnectionOpened();
    asio::post(client->executor(), [client] { client->Connect(); });
  };

  const auto launch = Clock::now();
  Watchdog watchdog(launch + std::chrono::seconds(60) + std::chrono::milliseconds(10) * n,
                    "the idle probe passed 60 s + 10 ms per connection");
  enum class Phase { kOpening, kSettling, kStopping };
  Phase phase = Phase::kOpening;
  Clock::time_point all_answered = launch, stop_deadline = launch;
  std::optional<Memory> after;
  auto step = [&](Clock::time_point now) {
    switch (phase) {
      case Phase::kOpening:
        if (probe.answered.load() == n) {
          all_answered = now;
          phase = Phase::kSettling;
        }
        break;
      case Phase::kSettling:
        if (now >= all_answered + kSettle) {
          after = ReadMemory(options.server_pid);
          phase = Phase::kStopping;
          probe.stopping = true;
          for (auto& client : clients) {
            IdleClient* c = client.get();
            asio::post(c->executor(), [c] { c->Close(); });
          }
          stop_deadline = now + kCloseGrace;
        }
        break;
      case Phase::kStopping:
        return probe.metrics.open_connections() > 0 && now < stop_deadline;
    }
    return true;
  };
  RunTimeline(
      ioc, options.threads,
      [&] {
        for (int i = 0; i < std::min(n, kOpenConcurrency); ++i) probe.open_next();
      },
      step);
  watchdog.Disarm();

  const int welcomed = probe.welcomed.load();
  Report report;
  report.Text("mode", "mode", "idle");
  report.Int("idle connections", "idle_connections", static_cast<uint64_t>(n));
  report.Int("welcomed", "welcomed", static_cast<uint64_t>(welcomed));
  report.Counts("lobby errors", "lobby_errors", probe.metrics.lobby_errors());
  report.Int("connection errors", "connection_errors", probe.metrics.connection_errors());
  report.Number("server rss before MB", "server_rss_before_mb",
                static_cast<double>(before->rss_kb) / 1024.0, 1);
  if (after && welcomed > 0) {
    report.Number("server rss after MB", "server_rss_after_mb",
                  static_cast<double>(after->rss_kb) / 1024.0, 1);
    const double grown_kb =
        static_cast<double>(after->rss_kb) - static_cast<double>(before->rss_kb);
    report.Number("memory per connection KB", "kb_per_connection", grown_kb / welcomed, 2);
  } else {
    report.Missing("server rss after MB", "server_rss_after_mb");
    report.Missing("memory per connection KB", "kb_per_connection");
  }
  report.Print(options.json, stdout);
  for (const std::string& failure : probe.metrics.first_failures()) {
    std::fprintf(stderr, "plateau-load: %s\n", failure.c_str());
  }
  return welcomed == n ? 0 : 1;
}

}  // namespace plateau::load
