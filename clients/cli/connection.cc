#include "clients/cli/connection.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/websocket.hpp>

namespace plateau::cli {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {
// Views of big games stay far below this; a larger frame means a confused peer.
constexpr size_t kMaxFrameBytes = 4 * 1024 * 1024;
}  // namespace

Connection::Connection(MessageHandler on_message, ClosedHandler on_closed)
    : on_message_(std::move(on_message)),
      on_closed_(std::move(on_closed)),
      work_(asio::make_work_guard(ioc_)),
      ws_(ioc_) {
  thread_ = std::thread([this] { ioc_.run(); });
}

Connection::~Connection() {
  Close();
}

bool Connection::is_open() const {
  std::lock_guard<std::mutex> lock(mu_);
  return open_;
}

Status Connection::Connect(const std::string& host, const std::string& port,
                           std::chrono::milliseconds timeout, const std::string& target) {
  auto resolver = std::make_shared<tcp::resolver>(ioc_);
  asio::post(ioc_, [this, resolver, host, port, timeout, target] {
    resolver->async_resolve(host, port, [this, resolver, host, port, timeout, target](
                                            beast::error_code ec, tcp::resolver::results_type results) {
      if (ec) return Fail("cannot resolve " + host + ": " + ec.message());
      beast::get_lowest_layer(ws_).expires_after(timeout);
      beast::get_lowest_layer(ws_).async_connect(
          results, [this, host, port, target](beast::error_code ec, const tcp::endpoint&) {
            if (ec) return Fail("cannot connect to " + host + ":" + port + ": " + ec.message());
            // The handshake and later reads use WebSocket timeouts, not the TCP deadline.
            beast::get_lowest_layer(ws_).expires_never();
            ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
            ws_.binary(true);
            ws_.read_message_max(kMaxFrameBytes);
            ws_.async_handshake(host + ":" + port, target, [this](beast::error_code ec) {
              if (ec) return Fail("WebSocket handshake failed: " + ec.message());
              {
                std::lock_guard<std::mutex> lock(mu_);
                open_ = true;
                done_ = true;
              }
              cv_.notify_all();
              DoRead();
            });
          });
    });
  });
  std::unique_lock<std::mutex> lock(mu_);
  if (!cv_.wait_for(lock, timeout + std::chrono::milliseconds(500), [this] { return done_; })) {
    lock.unlock();
    asio::post(ioc_, [this] { beast::get_lowest_layer(ws_).close(); });
    return Status("network", "Timed out connecting to " + host + ":" + port + ".");
  }
  if (!open_) return Status("network", error_);
  return Status::Ok();
}

void Connection::Fail(const std::string& reason) {
  bool was_open;
  bool closing;
  {
    std::lock_guard<std::mutex> lock(mu_);
    was_open = open_;
    closing = closing_;
    if (!done_) error_ = reason;
    open_ = false;
    done_ = true;
  }
  cv_.notify_all();
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  if (was_open && !closing && on_closed_) on_closed_(reason);
}

void Connection::DoRead() {
  ws_.async_read(buffer_, [this](beast::error_code ec, size_t) {
    if (ec == websocket::error::closed) return Fail("the server closed the connection");
    if (ec) return Fail("connection lost: " + ec.message());
    plateau::v1::ServerMessage message;
    const bool parsed = message.ParseFromString(beast::buffers_to_string(buffer_.data()));
    buffer_.consume(buffer_.size());
    if (!parsed) return Fail("the server sent a frame that is not a ServerMessage");
    if (on_message_) on_message_(message);
    DoRead();
  });
}

bool Connection::Send(const plateau::v1::ClientMessage& message) {
  if (!is_open()) return false;
  std::string bytes = message.SerializeAsString();
  asio::post(ioc_, [this, bytes = std::move(bytes)]() mutable {
    outbox_.push_back(std::move(bytes));
    if (outbox_.size() == 1) DoWrite();
  });
  return true;
}

void Connection::DoWrite() {
  ws_.async_write(asio::buffer(outbox_.front()), [this](beast::error_code ec, size_t) {
    if (ec) return Fail("sending failed: " + ec.message());
    outbox_.pop_front();
    if (!outbox_.empty()) DoWrite();
  });
}

void Connection::Close() {
  if (!thread_.joinable()) return;
  bool was_open;
  {
    std::lock_guard<std::mutex> lock(mu_);
    was_open = open_;
    closing_ = true;
  }
  if (was_open) {
    // Best effort: a polite close frame, bounded so a dead server cannot hang the client.
    std::mutex m;
    std::condition_variable closed_cv;
    bool closed = false;
    asio::post(ioc_, [&] {
      ws_.async_close(websocket::close_code::normal, [&](beast::error_code) {
        std::lock_guard<std::mutex> lock(m);
        closed = true;
        closed_cv.notify_all();
      });
    });
    std::unique_lock<std::mutex> lock(m);
    closed_cv.wait_for(lock, std::chrono::seconds(2), [&] { return closed; });
  }
  asio::post(ioc_, [this] {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  });
  work_.reset();
  ioc_.stop();
  thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  open_ = false;
}

}  // namespace plateau::cli
