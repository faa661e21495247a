// This node as an Agones GameServer: Ready, health, the rooms counter, Allocated while it runs rooms.
#include "server/net/agones_sdk.h"

#include <spdlog/spdlog.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <cstdlib>

namespace plateau::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

uint16_t AgonesSdk::PortFromEnvironment() {
  const char* text = std::getenv("AGONES_SDK_HTTP_PORT");
  unsigned port = 0;
  if (text != nullptr) {
    const std::string_view v(text);
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), port);
    if (ec == std::errc() && end == v.data() + v.size() && port > 0 && port <= 65535) {
      return static_cast<uint16_t>(port);
    }
  }
  return 9358;
}

AgonesSdk::AgonesSdk(boost::asio::any_io_executor executor, Options options,
                     std::function<size_t()> rooms)
    : strand_(boost::asio::make_strand(executor)),
      options_(std::move(options)),
      rooms_(std::move(rooms)),
      timer_(strand_) {}

void AgonesSdk::Start() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    self->Queue(http::verb::post, "/ready", "{}");
    self->Tick();
  });
}

void AgonesSdk::Stop() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    self->stopped_ = true;
    self->calls_.clear();
    self->timer_.cancel();
  });
}

void AgonesSdk::Tick() {
  if (stopped_) return;
  if (++ticks_ % options_.health_every_ticks == 0) Queue(http::verb::post, "/health", "{}");
  const auto rooms = static_cast<int64_t>(rooms_());
  if (rooms != counted_) {
    // Counts travel as strings (int64 in the SDK's JSON).
    counted_ = rooms;
    Queue(http::verb::patch, "/v1beta1/counters/" + options_.counter,
          "{\"count\":\"" + std::to_string(rooms) + "\"}", [this](bool ok) {
            if (!ok) counted_ = -1;  // told again at the next tick
          });
  }
  if ((rooms > 0) != allocated_) {
    allocated_ = rooms > 0;
    Queue(http::verb::post, allocated_ ? "/allocate" : "/ready", "{}", [this, was = !allocated_](bool ok) {
      if (!ok) allocated_ = was;
    });
  }
  timer_.expires_after(options_.tick);
  timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec) self->Tick();
  });
}

void AgonesSdk::Queue(http::verb verb, std::string target, std::string body,
                      std::function<void(bool)> done) {
  if (stopped_) return;
  calls_.push_back(Call{verb, std::move(target), std::move(body), std::move(done)});
  if (!sending_) SendNext();
}

namespace {

// One call over a connection of its own: the sidecar is on localhost, calls are a few a second.
struct Exchange : std::enable_shared_from_this<Exchange> {
  Exchange(boost::asio::strand<boost::asio::any_io_executor> strand, const std::string& host,
           uint16_t port, http::request<http::string_body> req, std::function<void(bool, std::string)> done)
      : stream(strand), endpoint(boost::asio::ip::make_address(host), port), req(std::move(req)),
        done(std::move(done)) {}
  void Run() {
    stream.expires_after(std::chrono::seconds(2));
    stream.async_connect(endpoint, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->done(false, "connect: " + ec.message());
      http::async_write(self->stream, self->req, [self](beast::error_code ec, size_t) {
        if (ec) return self->done(false, "write: " + ec.message());
        http::async_read(self->stream, self->buffer, self->res, [self](beast::error_code ec, size_t) {
          if (ec) return self->done(false, "read: " + ec.message());
          beast::error_code ignored;
          self->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
          const bool ok = self->res.result_int() / 100 == 2;
          self->done(ok, ok ? "" : "HTTP " + std::to_string(self->res.result_int()) + ": " + self->res.body());
        });
      });
    });
  }
  beast::tcp_stream stream;
  tcp::endpoint endpoint;
  http::request<http::string_body> req;
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  std::function<void(bool, std::string)> done;
};

}  // namespace

void AgonesSdk::SendNext() {
  if (calls_.empty() || stopped_) {
    sending_ = false;
    return;
  }
  sending_ = true;
  Call call = std::move(calls_.front());
  calls_.pop_front();
  http::request<http::string_body> req{call.verb, call.target, 11};
  req.set(http::field::host, options_.host + ":" + std::to_string(options_.port));
  req.set(http::field::content_type, "application/json");
  req.set(http::field::connection, "close");
  req.body() = call.body;
  req.prepare_payload();
  auto exchange = std::make_shared<Exchange>(
      strand_, options_.host, options_.port, std::move(req),
      [self = shared_from_this(), target = call.target, done = std::move(call.done)](bool ok, std::string why) {
        // Exchange's handlers run on the strand: so does this.
        (ok ? self->ok_ : self->failed_).fetch_add(1);
        if (!ok) spdlog::warn("agones: {}: {}", target, why);
        if (done) done(ok);
        self->SendNext();
      });
  exchange->Run();
}

}  // namespace plateau::server
