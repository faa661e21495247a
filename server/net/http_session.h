#pragma once
// Reads HTTP requests on one connection: serves the web client's files, /healthz, /metrics, and
// hands GET /ws upgrades to a WsSession (on the shard of the room that `/ws?room=ID` names, when
// it names one: a placement hint, trusted for nothing else). Header and body limits and a read/write timeout are
// explicit; only GET and HEAD are served. A request over a limit is answered (413, 431) before
// the connection closes, so the client learns why.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <memory>
#include <optional>
#include <string>

#include "server/net/limits.h"

namespace plateau::server {

class Lobby;
struct AddressQuota;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // `shard`: the lobby's shard the socket was accepted onto (0 without shards).
  HttpSession(boost::asio::ip::tcp::socket&& socket, Lobby& lobby, const NetLimits& limits,
              size_t shard = 0);
  void Run();

 private:
  void DoRead();
  void OnRead(boost::beast::error_code ec, size_t bytes);
  void OnWrite(bool keep_alive, boost::beast::error_code ec, size_t bytes);
  // Writes a response after which the connection ends.
  void Refuse(boost::beast::http::message_generator msg);
  // The peer's address ("" when the socket has none any more).
  std::string PeerAddress();
  void OnRefusalWritten(boost::beast::error_code ec, size_t bytes);
  void Linger();
  void OnLinger(boost::beast::error_code ec, size_t bytes);
  void DoClose();
  // Hands the upgrade to a WsSession on the shard of the room the request names, else on the
  // next shard in turn for WebSockets; the socket moves there if that is another one (nothing is
  // in flight on it at this point).
  // With several nodes, a room run by another node is reached over a link to it instead (not
  // for a request that came over a link itself: links are one hop).
  void Upgrade(boost::beast::http::request<boost::beast::http::string_body> req,
               std::string address, std::shared_ptr<AddressQuota> quota, bool linked);
  void UpgradeHere(boost::beast::http::request<boost::beast::http::string_body> req,
                   std::string address, std::shared_ptr<AddressQuota> quota,
                   std::optional<size_t> target);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  Lobby& lobby_;
  const NetLimits& limits_;
  size_t lingered_bytes_ = 0;
  size_t shard_;
};

// The room id a WebSocket upgrade's target names (`/ws?room=ID`), empty when none. No I/O.
std::string RoomHint(std::string_view target);

// The address a WebSocket client is limited under: the peer's, or behind a trusted proxy on
// loopback, the last X-Forwarded-For entry when it is an address. No I/O: tested without sockets.
std::string ClientAddress(const boost::beast::http::request<boost::beast::http::string_body>& req,
                          const std::string& peer, bool trust_proxy);

// The address of a client a link carried here (kLinkClientHeader), when it is an address; else
// `peer`. No I/O.
std::string LinkedClientAddress(
    const boost::beast::http::request<boost::beast::http::string_body>& req,
    const std::string& peer);

// The response to a plain (non-upgrade) request. No I/O: tested without sockets.
boost::beast::http::message_generator HandleHttpRequest(
    const NetLimits& limits, boost::beast::http::request<boost::beast::http::string_body>&& req,
    bool peer_is_loopback = true);

// The refusal of a WebSocket upgrade on /ws, or nullopt when it may proceed: 400 without exactly
// one Host (HTTP/1.1) or without a Sec-WebSocket-Key that is 16 bytes in base64, 426 naming
// version 13 for any other Sec-WebSocket-Version. No I/O.
std::optional<boost::beast::http::message_generator> RefuseUpgrade(
    const boost::beast::http::request<boost::beast::http::string_body>& req);

// The answer to a read that failed on a limit: 413 when the body is over http_body_limit, 431
// when the header is over http_header_limit; nullopt for other errors (nothing worth answering).
// `version` is the request's when its header was read, else 11. No I/O.
std::optional<boost::beast::http::message_generator> RefuseRead(boost::beast::error_code ec,
                                                                unsigned version);

}  // namespace plateau::server
