#pragma once
// Accepts TCP connections; each gets its own strand, on the lobby's shards in turn (see
// Lobby::SetShards), and an HttpSession.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/error.hpp>

#include <memory>

#include "engine/core/status.h"
#include "server/net/limits.h"

namespace plateau::server {

class Lobby;

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& ioc, Lobby& lobby, const NetLimits& limits);
  // Binds and listens; port 0 picks a free port (see port()).
  engine::Status Open(const boost::asio::ip::tcp::endpoint& endpoint);
  void Run();
  // Stops accepting; open connections are not touched.
  void Stop();
  uint16_t port() const { return port_; }

 private:
  void DoAccept();
  void OnAccept(size_t shard, boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  Lobby& lobby_;
  const NetLimits& limits_;
  uint16_t port_ = 0;
};

}  // namespace plateau::server
