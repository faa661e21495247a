// The loopback test client's WebSocket (see test_support.h): every Beast call it makes.
#include "tests/server/test_support.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace plateau::server::testing {

namespace {

// How an operation ended, once it has.
struct Outcome {
  bool done = false;
  boost::beast::error_code ec;
};

}  // namespace

struct TestClient::Wire {
  boost::asio::io_context ioc;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws{ioc};
  boost::beast::flat_buffer buffer;
};

TestClient::TestClient(uint16_t port, int receive_buffer) : wire_(std::make_unique<Wire>()) {
  auto& ws = wire_->ws;
  auto& socket = boost::beast::get_lowest_layer(ws).socket();
  boost::system::error_code ec;
  socket.open(boost::asio::ip::tcp::v4(), ec);
  if (receive_buffer > 0) {
    socket.set_option(boost::asio::socket_base::receive_buffer_size(receive_buffer), ec);
  }
  boost::beast::get_lowest_layer(ws).expires_after(5s);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) {
    ADD_FAILURE() << "connect: " << ec.message();
    return;
  }
  // What a handler reports lives on the heap: after a timeout the handler may still run, in a
  // later wait, when this frame is gone.
  auto handshake = std::make_shared<Outcome>();
  ws.async_handshake("127.0.0.1", "/ws", [handshake](boost::beast::error_code e) {
    handshake->ec = e;
    handshake->done = true;
  });
  RunUntil([&] { return handshake->done; }, 5s);
  if (!handshake->done || handshake->ec) {
    ADD_FAILURE() << "websocket handshake: "
                  << (handshake->done ? handshake->ec.message() : "timed out");
    return;
  }
  boost::beast::get_lowest_layer(ws).expires_never();
  socket.set_option(boost::asio::ip::tcp::no_delay(true), ec);
  ws.binary(true);
  open_ = true;
  StartRead();
}

TestClient::~TestClient() = default;

uint16_t TestClient::close_code() const { return wire_->ws.reason().code; }

bool TestClient::SendRaw(const std::string& bytes) {
  if (!open_) return false;
  auto written = std::make_shared<Outcome>();
  auto buffer = std::make_shared<std::string>(bytes);
  wire_->ws.async_write(boost::asio::buffer(*buffer),
                        [written, buffer](boost::beast::error_code e, size_t) {
                          written->ec = e;
                          written->done = true;
                        });
  RunUntil([&] { return written->done; }, 5s);
  return written->done && !written->ec;
}

void TestClient::Close() {
  if (!open_) return;
  boost::beast::error_code ec;
  boost::beast::get_lowest_layer(wire_->ws).socket().close(ec);
  RunUntil([&] { return !open_; }, 1s);
  open_ = false;
}

void TestClient::StartRead() {
  wire_->ws.async_read(wire_->buffer, [this](boost::beast::error_code ec, size_t) {
    if (ec) {
      open_ = false;
      return;
    }
    v1::ServerMessage m;
    const auto data = wire_->buffer.cdata();
    if (!m.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
      ADD_FAILURE() << "the server sent an undecodable frame";
    }
    wire_->buffer.consume(wire_->buffer.size());
    Received(std::move(m));
    StartRead();
  });
}

void TestClient::Received(v1::ServerMessage m) {
  if (m.has_diff()) diff_frames_.push_back(m);
  if (m.request_id() != 0 && m.has_diff()) {
    // An accepted action's answer carries the mover's Diff: a client applies it like any other
    // update, so it is also kept as a push.
    v1::ServerMessage push = m;
    push.clear_request_id();
    push.clear_accepted();
    inbox_.push_back(std::move(push));
  }
  inbox_.push_back(std::move(m));
}

void TestClient::RunUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  auto& ioc = wire_->ioc;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    ioc.restart();
    ioc.run_one_for(deadline - std::chrono::steady_clock::now());
  }
}

}  // namespace plateau::server::testing
