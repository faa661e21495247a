#pragma once
// Reads HTTP requests on one connection: serves the web client's files, /healthz, and hands
// GET /ws upgrades to a WsSession. Header and body limits and a read/write timeout are explicit;
// only GET and HEAD are served.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <memory>
#include <optional>

#include "server/net/limits.h"

namespace plateau::server {

class Lobby;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket&& socket, Lobby& lobby, const NetLimits& limits);
  void Run();

 private:
  void DoRead();
  void OnRead(boost::beast::error_code ec, size_t bytes);
  void OnWrite(bool keep_alive, boost::beast::error_code ec, size_t bytes);
  void DoClose();

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  Lobby& lobby_;
  const NetLimits& limits_;
};

// The response to a plain (non-upgrade) request. No I/O: tested without sockets.
boost::beast::http::message_generator HandleHttpRequest(
    const NetLimits& limits, boost::beast::http::request<boost::beast::http::string_body>&& req);

}  // namespace plateau::server
