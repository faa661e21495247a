#include "server/net/ws_session.h"

#include <spdlog/spdlog.h>

#include <array>

#include <boost/asio/bind_allocator.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include "server/lobby/lobby.h"
#include "server/log_throttle.h"
#include "server/net/handler_memory.h"

namespace plateau::server {
namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

// Errors that only say the connection ended the ordinary way.
bool IsRoutineClose(beast::error_code ec) {
  return ec == websocket::error::closed || ec == boost::asio::error::operation_aborted ||
         ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset ||
         ec == beast::error::timeout || ec == boost::asio::error::broken_pipe;
}

}  // namespace

WsSession::WsSession(boost::asio::ip::tcp::socket&& socket, Lobby& lobby, const NetLimits& limits,
                     std::string address, std::shared_ptr<AddressQuota> address_quota)
    : ws_(std::move(socket)), lobby_(lobby), limits_(limits) {
  remote_address = std::move(address);
  quota.address = std::move(address_quota);
}

// The address's count needs no lobby: the quota is shared and outlives both.
WsSession::~WsSession() { AddressTable::Release(quota.address); }

void WsSession::Run(beast::http::request<beast::http::string_body> request) {
  // The tcp_stream timeout guarded the HTTP read; from now on the WebSocket timeouts apply.
  beast::get_lowest_layer(ws_).expires_never();
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.idle_timeout = limits_.idle_timeout;
  ws_.set_option(timeouts);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
    res.set(beast::http::field::server, "plateau");
  }));
  ws_.read_message_max(limits_.max_message_bytes);
  beast::error_code ignored;
  // Replies and pushes are small and often back to back: Nagle's algorithm would hold the second
  // one until the client's delayed ACK, adding tens of milliseconds to a move.
  beast::get_lowest_layer(ws_).socket().set_option(boost::asio::ip::tcp::no_delay(true), ignored);
  if (limits_.socket_send_buffer > 0) {
    beast::get_lowest_layer(ws_).socket().set_option(
        boost::asio::socket_base::send_buffer_size(limits_.socket_send_buffer), ignored);
  }
  ws_.binary(true);
  ws_.async_accept(request, beast::bind_front_handler(&WsSession::OnAccept, self()));
}

void WsSession::OnAccept(beast::error_code ec) {
  if (ec) {
    if (!IsRoutineClose(ec)) spdlog::debug("websocket handshake failed: {}", ec.message());
    return;
  }
  accepted_ = true;
  lobby_.OnOpen(shared_from_this());
  DoRead();
}

void WsSession::DoRead() {
  reading_ = true;
  ws_.async_read(buffer_, boost::asio::bind_allocator(
                              HandlerAllocator<void>(),
                              beast::bind_front_handler(&WsSession::OnRead, self())));
}

void WsSession::PauseReading() { paused_ = true; }

void WsSession::ResumeReading() {
  boost::asio::post(ws_.get_executor(), [s = self()] {
    s->paused_ = false;
    if (s->reading_ || !s->accepted_) return;
    if (s->closing_) {
      s->ReportIfFinished();  // closed while paused: no read is left to report it
      return;
    }
    s->DoRead();
  });
}

void WsSession::Dispatch(std::function<void()> fn) {
  boost::asio::post(ws_.get_executor(), [s = self(), fn = std::move(fn)] { fn(); });
}

void WsSession::OnRead(beast::error_code ec, size_t bytes) {
  reading_ = false;
  if (ec) {
    if (ec == websocket::error::message_too_big) {
      ClientLog(spdlog::level::info, "closing a connection from {} that sent a message over {} bytes",
                remote_address, limits_.max_message_bytes);
      if (Metrics* m = lobby_.metrics()) m->connections_dropped.Inc("message_too_big");
    } else if (!IsRoutineClose(ec)) {
      spdlog::debug("websocket read failed: {}", ec.message());
    }
    closing_ = true;
    ReportIfFinished();
    return;
  }
  if (closing_ || deaf_) {
    // Closing while this message was already buffered: it is not handled, and no read is left
    // to report the close (the close handshake reads the rest).
    ReportIfFinished();
    return;
  }
  const auto data = buffer_.cdata();
  lobby_.OnMessage(shared_from_this(),
                   std::string_view(static_cast<const char*>(data.data()), data.size()));
  buffer_.consume(bytes);
  if (!closing_ && !paused_) DoRead();
}

void WsSession::Send(SharedBuffer frame, SharedBuffer tail) {
  auto send = [s = self(), m = Outgoing{std::move(frame), std::move(tail)}]() mutable {
    s->DoSend(std::move(m));
  };
  // From outside the session's strand (a room broadcasting), dispatch queues the frame behind
  // those already waiting on the strand, or, when it is free, sends at once: no hop through the
  // scheduler, often no other thread woken. Inside it (the session's handler answering, or a
  // room's work run from that handler), frames another thread queued may be waiting on the
  // strand, and running at once would overtake them: a refusal ahead of the Diff before it.
  // (DoSend only queues and starts a write, so running inside a caller's handler is safe.)
  // (The executor is held here: `target` points into it.)
  const boost::asio::any_io_executor executor = ws_.get_executor();
  const auto* strand = executor.target<Strand>();
  if (strand != nullptr && !strand->running_in_this_thread()) {
    boost::asio::dispatch(executor, std::move(send));
  } else {
    boost::asio::post(executor, std::move(send));
  }
}

void WsSession::DoSend(Outgoing message) {
  if (closing_ || close_when_sent_ || !accepted_) return;
  if (!queue_.empty() && queued_bytes_ + message.size() > limits_.max_queue_bytes) {
    ClientLog(spdlog::level::warn, "dropping a client at {} that is not reading ({} bytes waiting)",
              remote_address, queued_bytes_);
    if (Metrics* m = lobby_.metrics()) m->connections_dropped.Inc("slow_reader");
    Abort();
    return;
  }
  queued_bytes_ += message.size();
  published_queued_bytes_.store(queued_bytes_, std::memory_order_relaxed);
  queue_.push_back(std::move(message));
  if (queue_.size() == 1) DoWrite();
}

void WsSession::DoWrite() {
  const Outgoing& m = queue_.front();
  // Two buffers make one WebSocket message; the empty tail costs nothing.
  const std::array<boost::asio::const_buffer, 2> parts{
      boost::asio::buffer(*m.body),
      m.tail ? boost::asio::buffer(*m.tail) : boost::asio::const_buffer()};
  ws_.async_write(parts,
                  boost::asio::bind_allocator(HandlerAllocator<void>(),
                                              beast::bind_front_handler(&WsSession::OnWrite, self())));
}

void WsSession::OnWrite(beast::error_code ec, size_t) {
  if (ec) {
    if (!IsRoutineClose(ec)) spdlog::debug("websocket write failed: {}", ec.message());
    Abort();
    return;
  }
  queued_bytes_ -= queue_.front().size();
  queue_.pop_front();
  published_queued_bytes_.store(closing_ ? 0 : queued_bytes_, std::memory_order_relaxed);
  if (closing_) {
    queue_.clear();
    queued_bytes_ = 0;
    return;
  }
  if (!queue_.empty()) {
    DoWrite();
  } else if (close_when_sent_) {
    StartClose();
  }
}

void WsSession::Close(bool graceful) {
  boost::asio::post(ws_.get_executor(), [s = self(), graceful] { s->DoClose(graceful); });
}

void WsSession::CloseWith(SharedBuffer last) {
  boost::asio::post(ws_.get_executor(), [s = self(), last = std::move(last)]() mutable {
    if (s->closing_ || s->close_when_sent_ || !s->accepted_) return;
    s->deaf_ = true;
    // A client with frames still waiting may have stopped reading: it would hold the close off
    // for as long as it likes.
    if (!s->queue_.empty()) {
      s->Abort();
      return;
    }
    s->DoSend(Outgoing{std::move(last), nullptr});
    s->DoClose(/*graceful=*/true);
  });
}

void WsSession::DoClose(bool graceful) {
  if (closing_) return;
  if (!graceful || !accepted_) {
    Abort();
    return;
  }
  // A close frame may only start when no write is in flight: what is queued goes first (a
  // stored action's acknowledgement among it), then the close.
  if (!queue_.empty()) {
    close_when_sent_ = true;
    return;
  }
  StartClose();
}

void WsSession::StartClose() {
  closing_ = true;
  handshake_closing_ = true;
  ws_.async_close(websocket::close_code::going_away, [s = self()](beast::error_code) {
    // The client answered the close frame (or the socket ended or timed out): the connection is
    // done once a pending read has also completed.
    s->handshake_closing_ = false;
    s->ReportIfFinished();
  });
}

void WsSession::ReportIfFinished() {
  if (!closing_ || reading_ || handshake_closing_ || closed_reported_ || !accepted_) return;
  closed_reported_ = true;
  lobby_.OnClosed(shared_from_this());
}

void WsSession::Abort() {
  closing_ = true;
  // A pending read (or close) fails and reports the close; without one (paused), report it here.
  if (!reading_) {
    boost::asio::post(ws_.get_executor(), [s = self()] { s->ReportIfFinished(); });
  }
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both,
                                                 ignored);
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

}  // namespace plateau::server
