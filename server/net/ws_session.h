#pragma once
// One WebSocket client. Binary frames, each one ClientMessage / ServerMessage.
//
// Runs on its own strand (the socket's executor). One write in flight; the rest wait in a queue
// bounded in bytes: a client that stops reading while messages pile up past max_queue_bytes is cut
// off (socket closed), so it can never hold memory or stall a room. It comes back with its token
// and Resyncs. A message larger than the limit still goes out when nothing else is waiting.
//
// Incoming messages above max_message_bytes are refused by Beast with WebSocket close code 1009
// ("message too big") and the connection ends: the frame is never buffered in full, so there is
// nothing left to answer on. Undecodable messages get Error{"malformed"} and the connection stays.
//
// A graceful close (Close(true): the server shutting down) sends what is already queued, then the
// close frame (1001, going away); frames sent after the Close are dropped. The lobby hears that
// the connection is gone only once the client has answered the close frame (or the socket has
// ended): until then the server's shutdown waits for it.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <deque>
#include <memory>

#include "server/lobby/connection.h"
#include "server/net/limits.h"

namespace plateau::server {

class Lobby;

class WsSession : public Connection {
 public:
  // `address` is the client's (see ClientAddress), already admitted under `address_quota`.
  WsSession(boost::asio::ip::tcp::socket&& socket, Lobby& lobby, const NetLimits& limits,
            std::string address, std::shared_ptr<AddressQuota> address_quota);
  ~WsSession() override;

  // Completes the upgrade the HTTP session read.
  void Run(boost::beast::http::request<boost::beast::http::string_body> request);

  // The strand a session's socket runs on (the listener makes one per connection).
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

  // The session's strand, for starting it from another thread.
  boost::asio::any_io_executor executor() { return ws_.get_executor(); }

  using Connection::Send;
  void Send(SharedBuffer frame, SharedBuffer tail) override;
  void Close(bool graceful) override;
  void CloseWith(SharedBuffer last) override;
  void PauseReading() override;
  void ResumeReading() override;
  void Dispatch(std::function<void()> fn) override;
  size_t QueuedBytes() const override {
    return published_queued_bytes_.load(std::memory_order_relaxed);
  }

 private:
  std::shared_ptr<WsSession> self() {
    return std::static_pointer_cast<WsSession>(shared_from_this());
  }
  void OnAccept(boost::beast::error_code ec);
  void DoRead();
  void OnRead(boost::beast::error_code ec, size_t bytes);
  // One queued message: its bytes are body's, then tail's (if any).
  struct Outgoing {
    SharedBuffer body;
    SharedBuffer tail;
    size_t size() const { return body->size() + (tail ? tail->size() : 0); }
  };
  void DoSend(Outgoing message);
  void DoWrite();
  void OnWrite(boost::beast::error_code ec, size_t bytes);
  void DoClose(bool graceful);
  void StartClose();
  void Abort();
  // Tells the lobby, once, that this connection is gone: once it is closing and nothing is left
  // in flight on its socket (no read, no close handshake). Until then it counts as open, and a
  // server shutting down waits for it (so its queue and close frame reach the client).
  void ReportIfFinished();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  Lobby& lobby_;
  const NetLimits& limits_;
  std::deque<Outgoing> queue_;
  size_t queued_bytes_ = 0;
  std::atomic<size_t> published_queued_bytes_{0};  // queued_bytes_, readable from any thread
  bool accepted_ = false;
  bool closing_ = false;
  bool close_when_sent_ = false;  // a graceful close waits for the queue to empty
  bool deaf_ = false;             // CloseWith: what the client still sends is not handled
  bool handshake_closing_ = false;  // the close frame is out; waiting for the client's answer
  bool closed_reported_ = false;
  bool paused_ = false;   // a request is being answered later: read nothing more until then
  bool reading_ = false;  // a read is in flight
};

}  // namespace plateau::server
