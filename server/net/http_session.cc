#include "server/net/http_session.h"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "server/lobby/lobby.h"
#include "server/lobby/rate_limit.h"
#include "server/net/link_relay.h"
#include "server/net/static_files.h"
#include "server/net/ws_session.h"

namespace plateau::server {
namespace {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;
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

// For a client that is broken or hostile: whatever it sends next cannot be trusted to start a
// new request, so the connection ends after this.
http::response<http::string_body> ClosingResponse(unsigned version, bool head,
                                                  http::status status, std::string body) {
  http::response<http::string_body> res{status, version};
  res.set(http::field::server, "plateau");
  res.set(http::field::content_type, "text/plain");
  res.keep_alive(false);
  res.content_length(body.size());
  if (!head) res.body() = std::move(body);
  return res;
}

// RFC 9112 3.2: an HTTP/1.1 request needs exactly one Host; HTTP/1.0 may leave it out.
bool HostMissingOrRepeated(const Request& req) {
  const size_t hosts = req.count(http::field::host);
  return hosts > 1 || (hosts == 0 && req.version() >= 11);
}

bool IsBase64Char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

// 16 bytes encode to 22 characters and "==". The unused low bits of the last character are not
// checked: lenient decoders ignore them, and the key is only ever echoed back hashed.
bool IsWebSocketKey(std::string_view key) {
  if (key.size() != 24 || !key.ends_with("==")) return false;
  for (size_t i = 0; i < 22; ++i) {
    if (!IsBase64Char(key[i])) return false;
  }
  return true;
}

std::string_view PathOf(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

}  // namespace

std::optional<http::message_generator> RefuseUpgrade(const Request& req) {
  if (HostMissingOrRepeated(req)) {
    return http::message_generator(
        ClosingResponse(req.version(), false, http::status::bad_request, "Bad Host header\n"));
  }
  if (req.count(http::field::sec_websocket_key) != 1 ||
      !IsWebSocketKey(req[http::field::sec_websocket_key])) {
    return http::message_generator(ClosingResponse(req.version(), false,
                                                   http::status::bad_request,
                                                   "Bad Sec-WebSocket-Key\n"));
  }
  if (req.count(http::field::sec_websocket_version) != 1 ||
      req[http::field::sec_websocket_version] != "13") {
    auto res = ClosingResponse(req.version(), false, http::status::upgrade_required,
                               "Unsupported Sec-WebSocket-Version\n");
    res.set(http::field::sec_websocket_version, "13");
    return http::message_generator(std::move(res));
  }
  return std::nullopt;
}

std::string ClientAddress(const Request& req, const std::string& peer, bool trust_proxy) {
  if (!trust_proxy || !IsLoopbackAddress(peer)) return peer;
  const std::string_view forwarded = req["X-Forwarded-For"];
  // The proxy appends the address it saw last; earlier entries are the client's own claims.
  std::string_view last = forwarded.substr(forwarded.rfind(',') + 1);
  while (!last.empty() && last.front() == ' ') last.remove_prefix(1);
  while (!last.empty() && last.back() == ' ') last.remove_suffix(1);
  boost::system::error_code bad;
  boost::asio::ip::make_address(std::string(last), bad);
  return last.empty() || bad ? peer : std::string(last);
}

std::string LinkedClientAddress(const Request& req, const std::string& peer) {
  const auto given = req.find(kLinkClientHeader);
  if (given == req.end()) return peer;
  boost::system::error_code bad;
  const auto address = boost::asio::ip::make_address(std::string(given->value()), bad);
  return bad ? peer : address.to_string();
}

std::string HttpSession::PeerAddress() {
  beast::error_code ec;
  const auto peer = stream_.socket().remote_endpoint(ec);
  return ec ? std::string() : peer.address().to_string();
}

std::optional<http::message_generator> RefuseRead(beast::error_code ec, unsigned version) {
  if (ec == http::error::body_limit) {
    return http::message_generator(
        ClosingResponse(version, false, http::status::payload_too_large, "Payload too large\n"));
  }
  if (ec == http::error::header_limit) {
    return http::message_generator(ClosingResponse(version, false,
                                                   http::status::request_header_fields_too_large,
                                                   "Request header too large\n"));
  }
  return std::nullopt;
}

http::message_generator HandleHttpRequest(const NetLimits& limits, Request&& req,
                                          bool peer_is_loopback) {
  if (HostMissingOrRepeated(req)) {
    return ClosingResponse(req.version(), req.method() == http::verb::head,
                           http::status::bad_request, "Bad Host header\n");
  }
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
  if (path == "/metrics") {
    if (!limits.metrics_text || (!limits.public_metrics && !peer_is_loopback)) {
      return TextResponse(req, http::status::not_found, "text/plain", "Not found\n");
    }
    return TextResponse(req, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                        limits.metrics_text());
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
                         const NetLimits& limits, size_t shard)
    : stream_(std::move(socket)), lobby_(lobby), limits_(limits), shard_(shard) {}

std::string RoomHint(std::string_view target) {
  const size_t query = target.find('?');
  if (query == std::string_view::npos) return {};
  std::string_view rest = target.substr(query + 1);
  rest = rest.substr(0, rest.find('#'));
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    // Room ids are short and plain (lobby/ids.h): anything else names no room.
    if (pair.starts_with("room=") && pair.size() > 5 && pair.size() <= 5 + 64) {
      return std::string(pair.substr(5));
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return {};
}

void HttpSession::Upgrade(Request req, std::string address, std::shared_ptr<AddressQuota> quota,
                          bool linked) {
  const std::string hint = RoomHint(req.target());
  std::optional<size_t> target = hint.empty() ? std::nullopt : lobby_.ShardOfRoom(hint);
  if (!hint.empty() && limits_.links != nullptr && !linked && !lobby_.FindRoom(hint)) {
    // Not a room of this node: the store says whether another runs it (read on the storage
    // thread; this connection waits, nothing else does).
    lobby_.FindOwner(hint, [self = shared_from_this(), req = std::move(req),
                            address = std::move(address),
                            quota = std::move(quota)](Store::RoomOwner found) mutable {
      net::dispatch(self->stream_.get_executor(), [self, req = std::move(req),
                                                   address = std::move(address),
                                                   quota = std::move(quota),
                                                   owner = std::move(found.address)]() mutable {
        if (owner.empty()) {
          return self->UpgradeHere(std::move(req), std::move(address), std::move(quota),
                                   std::nullopt);
        }
        auto relay = std::make_shared<LinkRelay>(self->stream_.release_socket(), std::move(req),
                                                 std::move(address), std::move(owner),
                                                 std::move(quota), *self->limits_.links);
        relay->Run();
      });
    });
    return;
  }
  UpgradeHere(std::move(req), std::move(address), std::move(quota), target);
}

void HttpSession::UpgradeHere(Request req, std::string address,
                              std::shared_ptr<AddressQuota> quota, std::optional<size_t> target) {
  if (!target && lobby_.ShardCount() > 1) target = lobby_.NextWebSocketShard();
  const size_t shard = target.value_or(shard_);
  tcp::socket socket = stream_.release_socket();
  if (shard != shard_) {
    // The socket leaves this shard's reactor for the room's (its seats' frames and the room's
    // then run on one thread, with no hand-off between two), or for the next in turn.
    beast::error_code ec;
    const auto protocol = socket.local_endpoint(ec).protocol();
    tcp::socket::native_handle_type native = -1;
    if (!ec) native = socket.release(ec);
    tcp::socket moved(net::make_strand(lobby_.Shard(shard)));
    if (!ec) moved.assign(protocol, native, ec);
    if (ec) {
      // The client is gone (or the socket could not move): no session, so its address's count,
      // which a session gives back when it ends, is given back here.
      if (native >= 0 && !moved.is_open()) ::close(native);
      AddressTable::Release(quota);
      return;
    }
    socket = std::move(moved);
  }
  auto session = std::make_shared<WsSession>(std::move(socket), lobby_, limits_,
                                             std::move(address), std::move(quota));
  session->shard = shard;
  // On this strand (the same shard) the session starts at once; on another, there.
  net::dispatch(session->executor(), [session, req = std::move(req)]() mutable {
    session->Run(std::move(req));
  });
}

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
  const unsigned version = parser_->is_header_done() ? parser_->get().version() : 11;
  if (auto refusal = RefuseRead(ec, version)) return Refuse(std::move(*refusal));
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
      // Checked here rather than left to the accept: no session (nor lobby connection) is made
      // for a handshake that cannot succeed.
      if (auto refusal = RefuseUpgrade(req)) return Refuse(std::move(*refusal));
      const bool linked =
          limits_.links != nullptr && IsLinkRequest(req, limits_.links->secret());
      if (!linked && req.find(kLinkSecretHeader) != req.end()) {
        return Refuse(ClosingResponse(req.version(), false, http::status::forbidden,
                                      "This link's secret is not this node's.\n"));
      }
      std::string address = linked ? LinkedClientAddress(req, PeerAddress())
                                   : ClientAddress(req, PeerAddress(), limits_.trust_proxy);
      auto quota = lobby_.AdmitAddress(address);
      if (!quota) {
        if (Metrics* m = lobby_.metrics()) m->limits_hit.Inc("ip_connections");
        auto res = ClosingResponse(req.version(), false, http::status::service_unavailable,
                                   "Too many connections from your address.\n");
        res.set(http::field::retry_after, "10");
        return Refuse(std::move(res));
      }
      return Upgrade(std::move(req), std::move(address), std::move(quota), linked);
    }
    // Upgrades elsewhere get the ordinary answer for that path (404 or a file) and no upgrade.
  }
  http::message_generator msg =
      HandleHttpRequest(limits_, std::move(req), IsLoopbackAddress(PeerAddress()));
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

void HttpSession::Refuse(http::message_generator msg) {
  stream_.expires_after(limits_.http_timeout);
  beast::async_write(stream_, std::move(msg),
                     beast::bind_front_handler(&HttpSession::OnRefusalWritten,
                                               shared_from_this()));
}

void HttpSession::OnRefusalWritten(beast::error_code ec, size_t) {
  if (ec) return;
  DoClose();
  Linger();
}

// A refused client may still be sending (the rest of a body, of a header). Closing a socket with
// unread input makes the kernel send a reset, and a reset can discard the refusal before the
// client reads it; so the input is read and dropped until the client closes, for a bounded time
// and amount.
void HttpSession::Linger() {
  stream_.expires_after(std::chrono::seconds(2));
  buffer_.clear();
  stream_.async_read_some(buffer_.prepare(4096),
                          beast::bind_front_handler(&HttpSession::OnLinger, shared_from_this()));
}

void HttpSession::OnLinger(beast::error_code ec, size_t bytes) {
  if (ec) return;
  lingered_bytes_ += bytes;
  if (lingered_bytes_ > 1024 * 1024) return;
  stream_.async_read_some(buffer_.prepare(4096),
                          beast::bind_front_handler(&HttpSession::OnLinger, shared_from_this()));
}

void HttpSession::DoClose() {
  beast::error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
}

}  // namespace plateau::server
