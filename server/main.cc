// plateau-server: wiring only. Flags, logging, the store, the shards (one io_context and one
// thread each, docs/threading.md), and
// SIGINT/SIGTERM for a clean shutdown (stop accepting, close sessions, then close the store).
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "engine/core/registry.h"
#include "server/flags.h"
#include "server/net/agones_sdk.h"
#include "server/server.h"
#include "server/storage/pg_listing_feed.h"
#include "server/storage/pg_store.h"
#include "server/storage/replay_service.h"
#include "server/storage/sqlite_store.h"

int main(int argc, char** argv) {
  using namespace plateau;
  auto parsed = server::ParseFlags(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n", parsed.status().reason().c_str());
    return 2;
  }
  const server::ServerFlags& flags = parsed.value();
  if (flags.help) {
    std::fputs(server::FlagsHelp().c_str(), stdout);
    return 0;
  }
  spdlog::set_level(spdlog::level::from_str(flags.log_level));

  engine::Status loaded = engine::Registry::LoadAll();
  if (!loaded.ok()) {
    spdlog::critical("cannot load the games: {}", loaded.ToString());
    return 1;
  }
  // PostgreSQL when a connection string is given (a commit returns once the server has written
  // it ahead), else the SQLite file.
  std::string node = flags.node_id;
  if (node.empty()) {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "node");
    node = std::string(host) + ":" + std::to_string(flags.port);
  }
  auto open_store = [&]() -> engine::StatusOr<std::unique_ptr<server::Store>> {
    if (!flags.store.empty()) {
      server::PgStore::Options pg_options;
      pg_options.node = node;
      pg_options.address = flags.node_address.empty()
                               ? flags.bind + ":" + std::to_string(flags.port)
                               : flags.node_address;
      pg_options.lease = std::chrono::milliseconds(flags.lease_ms);
      spdlog::info("node {} on PostgreSQL, leases of {} ms", pg_options.node, flags.lease_ms);
      auto pg = server::PgStore::Open(flags.store, pg_options);
      if (!pg.ok()) return pg.status();
      return std::unique_ptr<server::Store>(std::move(pg.value()));
    }
    auto lite = server::SqliteStore::Open(flags.db, flags.durability == "process"
                                                        ? server::SqliteStore::Durability::kProcess
                                                        : server::SqliteStore::Durability::kMachine);
    if (!lite.ok()) return lite.status();
    return std::unique_ptr<server::Store>(std::move(lite.value()));
  };
  auto store = open_store();
  if (!store.ok()) {
    spdlog::critical("cannot open the database {}: {}", flags.store.empty() ? flags.db : "(--store)",
                     store.status().ToString());
    return 1;
  }
  {
    // Scoped so every room and session is gone before the store closes.
    server::ReplayService replays(*store.value());

    // Concurrency hint 1: a handler posted from a shard's own thread goes on that thread's
    // private queue, with no lock and no wake-up.
    std::vector<std::unique_ptr<server::ShardContext>> shards;
    std::vector<boost::asio::io_context*> shard_list;
    for (int i = 0; i < flags.threads; ++i) {
      shards.push_back(std::make_unique<server::ShardContext>());
      shard_list.push_back(shards.back().get());
    }
    boost::asio::io_context& ioc = *shards.front();
    server::ServerOptions options;
    options.bind = flags.bind;
    options.port = flags.port;
    options.limits.static_dir = flags.static_dir;
    options.limits.max_message_bytes = flags.max_message_bytes;
    options.limits.max_queue_bytes = flags.max_queue_bytes;
    options.limits.idle_timeout = std::chrono::seconds(flags.idle_timeout_seconds);
    options.empty_room_grace = std::chrono::seconds(flags.empty_room_grace_seconds);
    options.bot_delay = std::chrono::milliseconds(flags.bot_delay_ms);
    options.bot_think = std::chrono::milliseconds(flags.bot_think_ms);
    options.offline_grace = std::chrono::seconds(flags.offline_grace_seconds);
    options.abandoned_after = std::chrono::seconds(flags.abandoned_game_seconds);
    options.token_inactive = std::chrono::hours(24) * flags.token_inactive_days;
    options.client_limits = flags.limits;
    options.commit_interval = std::chrono::microseconds(flags.commit_interval_us);
    if (!flags.store.empty()) options.renew_leases_every = std::chrono::milliseconds(flags.lease_ms / 3);
    if (!flags.link_secret_file.empty()) {
      auto secret = server::ReadLinkSecret(flags.link_secret_file);
      if (!secret.ok()) {
        spdlog::critical("cannot use --link-secret-file: {}", secret.status().ToString());
        return 1;
      }
      options.link_secret = std::move(secret.value());
    }
    options.limits.trust_proxy = flags.trust_proxy;
    options.limits.public_metrics = flags.public_metrics;
    server::Server srv(shard_list, options, *store.value(), &replays);
    // Several nodes: the public room list is shared through the database (declared after the
    // server: stopped before it goes).
    std::unique_ptr<server::PgListingFeed> room_list;
    if (!flags.store.empty()) {
      room_list = std::make_unique<server::PgListingFeed>(
          flags.store, node, std::chrono::milliseconds(flags.lease_ms),
          [&srv](std::vector<server::PgListingFeed::Line> lines, bool all) {
            srv.lobby().ApplyRemoteListings(lines, all);
          });
      srv.lobby().SetListingSink(
          [feed = room_list.get()](const std::string& room_id, std::optional<std::string> info) {
            feed->Publish(room_id, std::move(info));
          });
    }
    engine::Status started = srv.Start();
    if (!started.ok()) {
      spdlog::critical("cannot start: {}", started.ToString());
      return 1;
    }
    if (room_list) room_list->Start();
    std::shared_ptr<server::AgonesSdk> agones;
    if (flags.agones) {
      server::AgonesSdk::Options agones_options;
      agones_options.port = server::AgonesSdk::PortFromEnvironment();
      agones = std::make_shared<server::AgonesSdk>(ioc.get_executor(), agones_options,
                                                   [&srv] { return srv.lobby().RoomCount(); });
      agones->Start();
    }

    boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
    // Requests already taken are answered, then every WebSocket is closed (1001) after what is
    // queued for it; the loop stops once every client has answered its close, at most
    // Server::kStopDeadline after the signal.
    signals.async_wait([&](const boost::system::error_code& ec, int signal) {
      if (ec) return;
      spdlog::info("signal {}: shutting down", signal);
      if (agones) agones->Stop();
      srv.StopGracefully(server::Server::kStopDeadline, [&shards] {
        for (auto& shard : shards) shard->stop();
      });
    });

    std::vector<std::thread> threads;
    for (int i = 1; i < flags.threads; ++i) threads.emplace_back([&shards, i] { shards[i]->run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    srv.StopWorkers();
    // Every shard's handlers destroyed before any shard is (see ShardContext).
    for (auto& shard : shards) shard->shutdown();
  }
  spdlog::info("stopped");
  return 0;
}
