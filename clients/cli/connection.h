#pragma once
// One WebSocket connection to a Plateau server, run on its own I/O thread. Frames are binary,
// one ServerMessage / ClientMessage each. Handlers run on the I/O thread; Send may be called
// from any thread (it posts to the I/O thread, which keeps one write in flight and a queue).
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::cli {

using engine::Status;

class Connection {
 public:
  using MessageHandler = std::function<void(const plateau::v1::ServerMessage&)>;
  // Called once when the connection ends after it was open: the reason, for people.
  using ClosedHandler = std::function<void(const std::string& reason)>;

  Connection(MessageHandler on_message, ClosedHandler on_closed);
  ~Connection();  // closes and joins the I/O thread
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Resolves, connects and upgrades to ws://host:port`target` (see WsTarget); blocks up to
  // `timeout`.
  Status Connect(const std::string& host, const std::string& port, std::chrono::milliseconds timeout,
                 const std::string& target = "/ws");
  // Queues a message; false when the connection is not open.
  bool Send(const plateau::v1::ClientMessage& message);
  // Closes politely (waits briefly for the close handshake) and stops the I/O thread.
  void Close();
  bool is_open() const;

 private:
  void DoRead();
  void DoWrite();
  void Fail(const std::string& reason);

  MessageHandler on_message_;
  ClosedHandler on_closed_;
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;  // I/O thread only
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;     // guarded by mu_
  bool done_ = false;     // connect finished (either way); guarded by mu_
  bool closing_ = false;  // guarded by mu_
  std::string error_;     // guarded by mu_
};

}  // namespace plateau::cli
