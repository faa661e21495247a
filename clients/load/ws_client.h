#pragma once
// One WebSocket connection to the server, driven by completion handlers only: no thread ever
// blocks on it. Every handler runs on the executor it is given (a strand), so a connection, and
// whatever shares its strand, needs no lock. One write is in flight at a time, as Beast requires;
// later frames wait in a queue.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include <optional>
#include <string>

#include "plateau/v1/protocol.pb.h"

namespace plateau::load {

struct ServerAddress {
  boost::asio::ip::tcp::endpoint endpoint;
  std::string host_header;  // "127.0.0.1:8080", sent with the upgrade request
};

ServerAddress MakeServerAddress(const boost::asio::ip::address& host, uint16_t port);

// The local address connection number `index` of `total` connects from. Linux gives one local
// address about 28,000 ephemeral ports towards one server port, so past 20,000 connections they
// come from further loopback addresses (127.0.0.2, ...), each with ports of its own. None (the
// kernel's choice) when one address is enough, and always for IPv6, which has one loopback.
std::optional<boost::asio::ip::address> SourceAddress(const ServerAddress& server, int total,
                                                      int index);

class WsClient {
 public:
  WsClient(boost::asio::any_io_executor executor, const ServerAddress& server,
           std::optional<boost::asio::ip::address> source);
  virtual ~WsClient() = default;
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Everything below runs on the executor only.

  // Connects and upgrades to ws://server + `target`; OnOpen or OnClosed follows. Once per client.
  void Connect(std::string target = "/ws");
  // Queues one frame; dropped when the connection is not (or no longer) open.
  void Send(const plateau::v1::ClientMessage& message);
  // A polite close once the frame being written is out; OnClosed follows (with no error). A
  // client still connecting is cut. Nothing happens for one never connected.
  void Close();
  bool is_open() const { return open_ && !closing_; }
  // Connect has been called (whatever came of it).
  bool connecting() const { return connecting_; }
  // Safe from any thread: what to post onto to reach this client.
  const boost::asio::any_io_executor& executor() const { return executor_; }

 protected:
  virtual void OnOpen() = 0;
  // `message` lives only for the call; `frame_bytes` is its size on the wire.
  virtual void OnMessage(const plateau::v1::ServerMessage& message, size_t frame_bytes) = 0;
  // Exactly once per Connect. `error` is empty when the end was asked for (Close), else what
  // went wrong.
  virtual void OnClosed(const std::string& error) = 0;

 private:
  void OnConnected(boost::beast::error_code ec);
  void DoRead();
  void DoWrite();
  void StartClose();
  void End(const std::string& error);

  const boost::asio::any_io_executor executor_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  const ServerAddress& server_;
  std::optional<boost::asio::ip::address> source_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;  // the front one is being written while writing_
  bool connecting_ = false;         // Connect was called
  std::string target_;              // the upgrade's request target (Connect's)
  bool open_ = false;               // upgraded, not ended
  bool writing_ = false;
  bool closing_ = false;            // Close was called
  bool ended_ = false;              // OnClosed was called
};

}  // namespace plateau::load
