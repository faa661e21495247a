#include "server/server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "server/log_throttle.h"
#include "server/net/listener.h"

namespace plateau::server {

Server::Server(boost::asio::io_context& ioc, ServerOptions options, Store& store, Replays* replays)
    : ioc_(ioc),
      options_(std::move(options)),
      store_(store),
      storage_(store, &metrics_, options_.commit_interval, options_.renew_leases_every),
      lobby_(ioc.get_executor(), store_, storage_, replays, options_.empty_room_grace,
             options_.client_limits, &metrics_) {
  InstallProtobufLogHandler();
  lobby_.SetBotDelay(options_.bot_delay);
  lobby_.SetBotThink(options_.bot_think);
  lobby_.SetOfflineGrace(options_.offline_grace);
  lobby_.SetAbandonedAfter(options_.abandoned_after);
  lobby_.SetTokenInactive(options_.token_inactive);
  lobby_.SetWallClock(options_.wall_clock);
  metrics_.rooms.SetSource([this] { return static_cast<double>(lobby_.RoomCount()); });
  metrics_.connections.SetSource(
      [this] { return static_cast<double>(lobby_.ConnectionCount()); });
  metrics_.ws_queued_bytes.SetSource([this] { return static_cast<double>(lobby_.QueuedBytes()); });
  if (!options_.link_secret.empty()) {
    links_ = std::make_unique<LinkTable>(options_.link_secret, &metrics_);
    options_.limits.links = links_.get();
  }
  lobby_.SetClustered(options_.renew_leases_every.count() > 0, links_ != nullptr);
  if (!options_.limits.metrics_text) {
    options_.limits.metrics_text = [this] { return metrics_.Render(); };
  }
}

Server::Server(std::vector<boost::asio::io_context*> shards, ServerOptions options, Store& store,
               Replays* replays)
    : Server(*shards.front(), std::move(options), store, replays) {
  for (boost::asio::io_context* shard : shards) busy_.emplace_back(shard->get_executor());
  lobby_.SetShards(std::move(shards));
}

// What is queued for storage runs while the lobby its answers call back into still exists.
Server::~Server() { storage_.Stop(); }

void Server::StopWorkers() {
  storage_.Stop();
  lobby_.StopThinking();
}

Status Server::Start() {
  Status restored = lobby_.RestoreRooms();
  if (!restored.ok()) return restored;
  if (options_.renew_leases_every.count() > 0) lobby_.StartTakeovers(options_.renew_leases_every);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(options_.bind, ec);
  if (ec) return Status("bad_address", "'" + options_.bind + "' is not an IP address.");
  listener_ = std::make_shared<Listener>(ioc_, lobby_, options_.limits);
  Status opened = listener_->Open({address, options_.port});
  if (!opened.ok()) return opened;
  listener_->Run();
  spdlog::info("listening on {}:{}", options_.bind, listener_->port());
  return Status::Ok();
}

void Server::Shutdown() {
  if (listener_) listener_->Stop();
  lobby_.CloseAll();
  if (links_) links_->CloseAll();
}

void Server::StopGracefully(std::chrono::milliseconds deadline, std::function<void()> done) {
  if (listener_) listener_->Stop();
  lobby_.StopTakingRequests();
  const auto start = std::chrono::steady_clock::now();
  stop_.end = start + deadline;
  // Closing starts once every action taken is answered, or at three quarters of the deadline
  // (a sync stuck that long: its action, if it lands, is seen on resync).
  stop_.close_by = start + deadline * 3 / 4;
  stop_.done = std::move(done);
  stop_timer_ = std::make_unique<boost::asio::steady_timer>(ioc_);
  boost::asio::post(ioc_, [this] { StopStep(); });
}

void Server::StopStep() {
  const auto now = std::chrono::steady_clock::now();
  if (!stop_.closed) {
    const bool drained = lobby_.Quiet() && storage_.stats().pending == 0;
    if ((drained || now >= stop_.close_by) && !stop_.handing_over) {
      if (!drained) spdlog::warn("shutdown: closing with actions still being stored");
      // Several nodes: the rooms are given up before the clients are closed, so the other nodes
      // are taking them over by the time the clients come back (on one node, nothing to do).
      stop_.handing_over = true;
      storage_.Submit([](Store& store) { return store.HandOver(); },
                      [this](Status st) {
                        boost::asio::post(ioc_, [this, st] {
                          if (!st.ok()) spdlog::error("shutdown: cannot hand the rooms over: {}", st.ToString());
                          stop_.handed_over = true;
                        });
                      },
                      StorageExecutor::Kind::kRead);
    }
    if (stop_.handed_over || (stop_.handing_over && now >= stop_.close_by)) {
      stop_.closed = true;
      lobby_.CloseAll();
      // Carried clients reconnect too, and reach their rooms through another node.
      if (links_) links_->CloseAll();
    }
  } else if (lobby_.ConnectionCount() == 0 || now >= stop_.end) {
    // A connection still open here has not read its queue or answered its close frame in time:
    // it ends without a close handshake when the caller tears the server down.
    const size_t left = lobby_.ConnectionCount();
    if (left > 0) spdlog::info("shutdown: {} connections did not finish closing", left);
    busy_.clear();
    stop_.done();
    return;
  }
  stop_timer_->expires_after(std::chrono::milliseconds(5));
  stop_timer_->async_wait([this](const boost::system::error_code& ec) {
    if (!ec) StopStep();
  });
}

uint16_t Server::port() const { return listener_ ? listener_->port() : 0; }

}  // namespace plateau::server
