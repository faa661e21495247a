#include "server/net/listener.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/bind_handler.hpp>

#include "server/lobby/lobby.h"
#include "server/net/http_session.h"

namespace plateau::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

Listener::Listener(net::io_context& ioc, Lobby& lobby, const NetLimits& limits)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), lobby_(lobby), limits_(limits) {}

engine::Status Listener::Open(const tcp::endpoint& endpoint) {
  boost::beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return engine::Status("listen_failed", "Cannot listen on " + endpoint.address().to_string() +
                                               ":" + std::to_string(endpoint.port()) + ": " +
                                               ec.message());
  }
  port_ = acceptor_.local_endpoint().port();
  return engine::Status::Ok();
}

void Listener::Run() { DoAccept(); }

void Listener::Stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::beast::error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void Listener::DoAccept() {
  // Each connection on a strand of its own (WsSession::Strand, which its Send looks for), on the
  // next shard in turn: its socket's reactor and handlers are that shard's thread.
  const size_t shard = lobby_.NextShard();
  net::io_context& context = lobby_.ShardCount() == 0 ? ioc_ : lobby_.Shard(shard);
  acceptor_.async_accept(net::make_strand(context),
                         boost::beast::bind_front_handler(&Listener::OnAccept, shared_from_this(),
                                                          shard));
}

void Listener::OnAccept(size_t shard, boost::beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    // Out of descriptors and the like: keep accepting, the condition may pass.
    spdlog::warn("accept failed: {}", ec.message());
  } else {
    std::make_shared<HttpSession>(std::move(socket), lobby_, limits_, shard)->Run();
  }
  DoAccept();
}

}  // namespace plateau::server
