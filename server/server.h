#pragma once
// The server assembled from its layers, without main(): the binary and the loopback tests both
// build one of these on their own io_context.
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <functional>

#include <memory>
#include <string>

#include "server/lobby/lobby.h"
#include "server/net/limits.h"
#include "server/net/link_relay.h"
#include "server/replays.h"
#include "server/metrics.h"
#include "server/storage_executor.h"

namespace plateau::server {

class Listener;

// One shard's io_context (concurrency hint 1: run by one thread). Its owner shuts every shard
// down before destroying any: a handler queued on one shard can hold the last reference to a
// session or room whose strand belongs to another, and must be destroyed while that one lives.
class ShardContext : public boost::asio::io_context {
 public:
  ShardContext() : boost::asio::io_context(1) {}
  using boost::asio::execution_context::shutdown;
};

struct ServerOptions {
  std::string bind = "127.0.0.1";
  uint16_t port = 0;  // 0: any free port, see Server::port()
  NetLimits limits;
  std::chrono::milliseconds empty_room_grace{std::chrono::minutes(5)};
  std::chrono::milliseconds bot_delay{0};  // see RoomHost::bot_delay
  std::chrono::milliseconds bot_think{400};  // see RoomHost::bot_think
  std::chrono::milliseconds offline_grace{std::chrono::seconds(60)};  // see RoomSettings
  std::chrono::milliseconds abandoned_after{std::chrono::hours(72)};  // see RoomSettings
  // A player's token unused this long is refused (see Lobby::SetTokenInactive).
  std::chrono::milliseconds token_inactive{std::chrono::hours(24 * 30)};
  // Unix milliseconds for tokens' use; null: the system clock (tests move their own).
  std::function<int64_t()> wall_clock;
  ClientLimits client_limits;
  // See StorageExecutor: the least time between two storage batches' starts.
  std::chrono::microseconds commit_interval = StorageExecutor::kDefaultCommitInterval;
  // How often the storage thread renews this node's leases, and the lobby looks for the rooms of
  // dead nodes to take over (several nodes); zero: never.
  std::chrono::milliseconds renew_leases_every{0};
  // Several nodes: the links' shared secret (net/link_relay.h); empty: no links.
  std::string link_secret;
};

class Server {
 public:
  // `store` and `replays` (may be null) must outlive the server. Every store call while serving
  // runs on the server's storage thread.
  Server(boost::asio::io_context& ioc, ServerOptions options, Store& store, Replays* replays);
  // Sharded (docs/threading.md): each io_context is run by one thread of the caller's, and the
  // server keeps each busy until Shutdown or StopGracefully's end. The first one also runs the
  // listener, the lobby's timers and the shutdown steps.
  Server(std::vector<boost::asio::io_context*> shards, ServerOptions options, Store& store,
         Replays* replays);
  ~Server();

  // Brings back the rooms of unfinished games, then listens. Errors: the store cannot be read,
  // or the address cannot be bound.
  Status Start();
  // Stops accepting and closes every connection. A single io_context runs out of work
  // afterwards; shards keep running until their owner stops them (once ConnectionCount() is 0).
  void Shutdown();
  // How long the binary gives StopGracefully on SIGTERM/SIGINT (server/main.cc).
  static constexpr std::chrono::milliseconds kStopDeadline{2000};
  // SIGTERM: stops accepting and refuses new requests; lets every request already taken be
  // answered (an action stored and acknowledged, a request waiting on the storage thread too);
  // then closes every WebSocket (1001, after what is queued for it) and calls `done` once every
  // client has answered its close frame or `deadline` has passed, whichever is first. Closing
  // starts once all is answered, or at three quarters of `deadline` if a sync is stuck. Call
  // once, from any thread; `done` runs on the io_context and nothing in it blocks.
  void StopGracefully(std::chrono::milliseconds deadline, std::function<void()> done);
  // Once the shards' threads have returned, before any shard is shut down: runs what the storage
  // thread has queued and joins it, and lets the bots' searches end. A handler one of them drops
  // may hold the last reference to a connection, and a socket closed on another thread while
  // its shard shuts down corrupts Asio's list of descriptors (epoll_reactor::shutdown walks it
  // without its lock): a double free when the shard is destroyed. Storage asked for afterwards
  // runs on the caller's thread.
  void StopWorkers();

  uint16_t port() const;
  Lobby& lobby() { return lobby_; }
  Metrics& metrics() { return metrics_; }

 private:
  boost::asio::io_context& ioc_;
  ServerOptions options_;  // limits.metrics_text is filled in by the constructor
  Metrics metrics_;        // before everything that records into it
  Store& store_;
  StorageExecutor storage_;  // before the lobby: rooms hold references to it
  Lobby lobby_;
  std::unique_ptr<LinkTable> links_;  // several nodes with links only
  std::shared_ptr<Listener> listener_;
  // StopGracefully's progress, checked every 5 ms on the io_context by StopStep.
  void StopStep();
  struct StopState {
    std::chrono::steady_clock::time_point close_by, end;
    bool closed = false;
    bool handing_over = false, handed_over = false;
    std::function<void()> done;
  } stop_;
  std::unique_ptr<boost::asio::steady_timer> stop_timer_;
  // Keeps a shard's thread running while it has no connection yet; released on shutdown.
  std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> busy_;
};

}  // namespace plateau::server
