#include "server/server.h"

#include <spdlog/spdlog.h>

#include "server/net/listener.h"

namespace plateau::server {

Server::Server(boost::asio::io_context& ioc, ServerOptions options, Store& store, Replays* replays)
    : ioc_(ioc),
      options_(std::move(options)),
      store_(store),
      storage_(store),
      lobby_(ioc.get_executor(), store_, storage_, replays, options_.empty_room_grace) {}

// What is queued for storage runs while the lobby its answers call back into still exists.
Server::~Server() { storage_.Stop(); }

Status Server::Start() {
  Status restored = lobby_.RestoreRooms();
  if (!restored.ok()) return restored;
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
}

uint16_t Server::port() const { return listener_ ? listener_->port() : 0; }

}  // namespace plateau::server
