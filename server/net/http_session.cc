#include "server/net/http_session.h"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "server/net/static_files.h"
#include "server/net/ws_session.h"

namespace plateau::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

using Request = http::request<http::string_body>;

http::message_generator TextResponse(const Request& req, http::status status,
                                     std::string_view content_type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "plateau");
  res.set(http::field::content_type, content_type);
  res.keep_alive(req.keep_alive());
  const size_t size = body.size();
  if (req.method() != http::verb::head) res.body() = std::move(body);
  res.content_length(size);  // HEAD announces the length of the body it leaves out
  return res;
}

std::string_view PathOf(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

}  // namespace

http::message_generator HandleHttpRequest(const NetLimits& limits, Request&& req) {
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return TextResponse(req, http::status::method_not_allowed, "text/plain", "Method not allowed\n");
  }
  const std::string_view path = PathOf(req.target());
  if (path == "/healthz") {
    return TextResponse(req, http::status::ok, "application/json", R"({"status":"ok"})");
  }
  if (path == "/ws") {
    return TextResponse(req, http::status::upgrade_required, "text/plain",
                        "This endpoint speaks WebSocket only.\n");
  }
  if (limits.static_dir.empty()) {
    return TextResponse(req, http::status::not_found, "text/plain", "Not found\n");
  }
  const StaticTarget target = ResolveStatic(limits.static_dir, req.target());
  if (target.kind == StaticTarget::Kind::kBadPath) {
    return TextResponse(req, http::status::bad_request, "text/plain", "Bad path\n");
  }
  if (target.kind == StaticTarget::Kind::kNotFound) {
    return TextResponse(req, http::status::not_found, "text/plain", "Not found\n");
  }
  http::file_body::value_type body;
  beast::error_code ec;
  body.open(target.path.c_str(), beast::file_mode::scan, ec);
  if (ec) {
    return TextResponse(req, http::status::not_found, "text/plain", "Not found\n");
  }
  const auto size = body.size();
  const std::string_view type = MimeType(target.path);
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    res.set(http::field::server, "plateau");
    res.set(http::field::content_type, type);
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  res.set(http::field::server, "plateau");
  res.set(http::field::content_type, type);
  // index.html names the hashed asset files, so it must be fetched fresh after a deploy.
  if (target.path.size() >= 10 && target.path.ends_with("index.html")) {
    res.set(http::field::cache_control, "no-cache");
  }
  res.content_length(size);
  res.keep_alive(req.keep_alive());
  return res;
}

HttpSession::HttpSession(boost::asio::ip::tcp::socket&& socket, Lobby& lobby,
                         const NetLimits& limits)
    : stream_(std::move(socket)), lobby_(lobby), limits_(limits) {}

void HttpSession::Run() {
  // Start on the connection's strand: the socket was accepted onto it.
  boost::asio::dispatch(stream_.get_executor(),
                        beast::bind_front_handler(&HttpSession::DoRead, shared_from_this()));
}

void HttpSession::DoRead() {
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(limits_.http_header_limit));
  parser_->body_limit(limits_.http_body_limit);
  stream_.expires_after(limits_.http_timeout);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::OnRead, shared_from_this()));
}

void HttpSession::OnRead(beast::error_code ec, size_t) {
  if (ec == http::error::end_of_stream) return DoClose();
  if (ec) {
    if (ec != beast::error::timeout && ec != boost::asio::error::operation_aborted &&
        ec != boost::asio::error::connection_reset) {
      spdlog::debug("http read failed: {}", ec.message());
    }
    return;
  }
  Request req = parser_->release();
  if (beast::websocket::is_upgrade(req)) {
    if (PathOf(req.target()) == "/ws") {
      std::make_shared<WsSession>(stream_.release_socket(), lobby_, limits_)->Run(std::move(req));
      return;
    }
    // Upgrades elsewhere get the ordinary answer for that path (404 or a file) and no upgrade.
  }
  http::message_generator msg = HandleHttpRequest(limits_, std::move(req));
  const bool keep_alive = msg.keep_alive();
  beast::async_write(stream_, std::move(msg),
                     beast::bind_front_handler(&HttpSession::OnWrite, shared_from_this(),
                                               keep_alive));
}

void HttpSession::OnWrite(bool keep_alive, beast::error_code ec, size_t) {
  if (ec) return;
  if (!keep_alive) return DoClose();
  DoRead();
}

void HttpSession::DoClose() {
  beast::error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
}

}  // namespace plateau::server
