#include "clients/load/ws_client.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstddef>

#include "engine/core/stack_arena.h"

namespace plateau::load {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kConnectTimeout = std::chrono::seconds(10);
constexpr int kConnectionsPerSource = 20000;
// Views of the largest games stay far below this; a larger frame means a confused server.
constexpr size_t kMaxFrameBytes = 16 * 1024 * 1024;
// Holds the parsed messages of a frame of every view measured so far (Diffs are a few hundred
// bytes); a larger frame's arena takes more blocks from the heap.
constexpr size_t kArenaBlockBytes = 8 * 1024;

}  // namespace

ServerAddress MakeServerAddress(const asio::ip::address& host, uint16_t port) {
  ServerAddress server;
  server.endpoint = tcp::endpoint(host, port);
  const std::string name = host.is_v6() ? "[" + host.to_string() + "]" : host.to_string();
  server.host_header = name + ":" + std::to_string(port);
  return server;
}

std::optional<asio::ip::address> SourceAddress(const ServerAddress& server, int total,
                                               int index) {
  if (total <= kConnectionsPerSource || !server.endpoint.address().is_v4()) return std::nullopt;
  const uint32_t first = 0x7F000001;  // 127.0.0.1
  return asio::ip::address(
      asio::ip::address_v4(first + static_cast<uint32_t>(index / kConnectionsPerSource)));
}

WsClient::WsClient(asio::any_io_executor executor, const ServerAddress& server,
                   std::optional<asio::ip::address> source)
    : executor_(std::move(executor)),
      ws_(executor_),
      server_(server),
      source_(std::move(source)) {}

void WsClient::Connect(std::string target) {
  if (connecting_) return;
  connecting_ = true;
  target_ = std::move(target);
  auto& stream = beast::get_lowest_layer(ws_);
  if (source_) {
    beast::error_code ec;
    stream.socket().open(server_.endpoint.protocol(), ec);
    if (!ec) stream.socket().bind(tcp::endpoint(*source_, 0), ec);
    if (ec) {
      // Reported from a handler, as every other end is, never from inside Connect.
      asio::post(executor_, [this, ec] { End("bind: " + ec.message()); });
      return;
    }
  }
  stream.expires_after(kConnectTimeout);
  stream.async_connect(server_.endpoint, [this](beast::error_code ec) { OnConnected(ec); });
}

void WsClient::OnConnected(beast::error_code ec) {
  if (ec) return End("connect: " + ec.message());
  if (closing_) return End("");
  auto& stream = beast::get_lowest_layer(ws_);
  // From here the WebSocket's own timeouts apply (Beast wants the stream's disabled).
  stream.expires_never();
  beast::error_code ignored;
  // Requests are small and each waits for its reply: Nagle's algorithm would only delay them.
  stream.socket().set_option(tcp::no_delay(true), ignored);
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  ws_.binary(true);
  ws_.read_message_max(kMaxFrameBytes);
  ws_.async_handshake(server_.host_header, target_, [this](beast::error_code ec) {
    if (ec) return End("handshake: " + ec.message());
    if (closing_) return End("");
    open_ = true;
    DoRead();
    OnOpen();
  });
}

void WsClient::DoRead() {
  ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
    if (ended_) return;
    if (ec == websocket::error::closed) return End("the server closed the connection");
    if (ec) return End("read: " + ec.message());
    // A frame's messages (its Diff's ops above all) live on an arena whose first block is on the
    // stack, dropped at once after the frame is handled: parsing one costs few allocations, if any.
    engine::StackArena<kArenaBlockBytes> arena;
    auto* message = google::protobuf::Arena::CreateMessage<plateau::v1::ServerMessage>(arena.get());
    const auto data = buffer_.cdata();
    const size_t bytes = data.size();
    const bool parsed = message->ParseFromArray(data.data(), static_cast<int>(bytes));
    buffer_.consume(buffer_.size());
    if (!parsed) return End("the server sent a frame that is not a ServerMessage");
    OnMessage(*message, bytes);
    // Reading goes on while closing: the close handshake ends the read with `closed`.
    if (!ended_) DoRead();
  });
}

void WsClient::Send(const plateau::v1::ClientMessage& message) {
  if (!open_ || closing_ || ended_) return;
  outbox_.push_back(message.SerializeAsString());
  if (!writing_) DoWrite();
}

void WsClient::DoWrite() {
  writing_ = true;
  ws_.async_write(asio::buffer(outbox_.front()), [this](beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ended_) return;
    if (ec) return End("write: " + ec.message());
    outbox_.pop_front();
    if (closing_) return StartClose();
    if (!outbox_.empty()) DoWrite();
  });
}

void WsClient::Close() {
  if (!connecting_ || closing_ || ended_) return;
  closing_ = true;
  if (!open_) {
    // Still connecting or upgrading: cutting makes the pending operation fail, which ends it.
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    return;
  }
  // A close frame may not start while a message is being written: the write's handler starts it.
  if (!writing_) StartClose();
}

void WsClient::StartClose() {
  if (ended_) return;
  outbox_.clear();
  ws_.async_close(websocket::close_code::normal, [this](beast::error_code ec) {
    // On success the pending read ends with `closed` and reports the end.
    if (ec) End("close: " + ec.message());
  });
}

void WsClient::End(const std::string& error) {
  if (ended_) return;
  ended_ = true;
  open_ = false;
  // Cancels whatever is still pending; its handler finds the client ended. The queue stays: a
  // cancelled write may still refer to its front until its handler runs.
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  OnClosed(closing_ ? std::string() : error);
}

}  // namespace plateau::load
