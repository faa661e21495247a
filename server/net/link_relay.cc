// Carries a client's WebSocket to the node that runs its room, bytes unchanged both ways.
#include "server/net/link_relay.h"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <sstream>

#include "server/lobby/rate_limit.h"
#include "server/metrics.h"

namespace plateau::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

bool IsLinkRequest(const http::request<http::string_body>& req, const std::string& secret) {
  if (secret.empty()) return false;
  const auto given = req.find(kLinkSecretHeader);
  if (given == req.end()) return false;
  const std::string_view value = given->value();
  if (value.size() != secret.size()) return false;
  // Every byte compared whatever the first difference: the time taken tells nothing.
  unsigned char diff = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    diff |= static_cast<unsigned char>(value[i] ^ secret[i]);
  }
  return diff == 0;
}

bool SplitHostPort(const std::string& address, std::string* host, std::string* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) return false;
  std::string h = address.substr(0, colon);
  if (h.front() == '[') {
    if (h.size() < 3 || h.back() != ']') return false;
    h = h.substr(1, h.size() - 2);
  }
  const std::string p = address.substr(colon + 1);
  if (p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos) return false;
  *host = std::move(h);
  *port = p;
  return true;
}

void LinkTable::Add(const std::shared_ptr<LinkRelay>& relay) {
  bool closed;
  {
    std::lock_guard lock(mu_);
    closed = closed_;
    if (!closed) relays_[relay.get()] = relay;
  }
  if (closed) relay->Close();
}

void LinkTable::Remove(const LinkRelay* relay) {
  std::lock_guard lock(mu_);
  relays_.erase(relay);
}

void LinkTable::CloseAll() {
  std::vector<std::shared_ptr<LinkRelay>> open;
  {
    std::lock_guard lock(mu_);
    closed_ = true;
    for (auto& [key, weak] : relays_) {
      if (auto relay = weak.lock()) open.push_back(std::move(relay));
    }
  }
  for (auto& relay : open) relay->Close();
}

size_t LinkTable::Count() {
  std::lock_guard lock(mu_);
  return relays_.size();
}

LinkRelay::LinkRelay(tcp::socket client, http::request<http::string_body> req,
                     std::string client_address, std::string owner,
                     std::shared_ptr<AddressQuota> quota, LinkTable& table)
    : client_(std::move(client)),
      owner_(client_.get_executor()),
      resolver_(client_.get_executor()),
      req_(std::move(req)),
      client_address_(std::move(client_address)),
      owner_address_(std::move(owner)),
      quota_(std::move(quota)),
      table_(table) {
  if (Metrics* m = table_.metrics()) m->links_open.Add();
}

LinkRelay::~LinkRelay() {
  table_.Remove(this);
  if (Metrics* m = table_.metrics()) m->links_open.Sub();
  AddressTable::Release(quota_);
}

void LinkRelay::Run() {
  table_.Add(shared_from_this());
  std::string host, port;
  if (!SplitHostPort(owner_address_, &host, &port)) {
    spdlog::warn("link: the owner's address '{}' is not host:port", owner_address_);
    return Close();
  }
  // The owner trusts the client's address from this node because of the secret; whatever the
  // client sent under these names is replaced.
  req_.set(kLinkSecretHeader, table_.secret());
  req_.set(kLinkClientHeader, client_address_);
  std::ostringstream out;
  out << req_;
  upgrade_ = out.str();
  resolver_.async_resolve(host, port,
                          beast::bind_front_handler(&LinkRelay::OnResolved, shared_from_this()));
}

void LinkRelay::OnResolved(beast::error_code ec, tcp::resolver::results_type results) {
  if (ec || closed_) return Fail("resolving the owner", ec);
  owner_.expires_after(std::chrono::seconds(5));
  owner_.async_connect(results, [self = shared_from_this()](beast::error_code ec,
                                                            const tcp::endpoint&) {
    self->OnConnected(ec);
  });
}

void LinkRelay::OnConnected(beast::error_code ec) {
  if (ec || closed_) return Fail("connecting to the owner", ec);
  beast::error_code ignored;
  owner_.socket().set_option(tcp::no_delay(true), ignored);
  boost::asio::async_write(owner_, boost::asio::buffer(upgrade_),
                           [self = shared_from_this()](beast::error_code ec, size_t) {
                             self->OnRequestWritten(ec);
                           });
}

void LinkRelay::OnRequestWritten(beast::error_code ec) {
  if (ec || closed_) return Fail("sending the upgrade to the owner", ec);
  if (Metrics* m = table_.metrics()) m->links_opened.Inc();
  // The WebSocket's own pings and idle timeout (at both ends) bound a silent peer from here on.
  owner_.expires_never();
  client_.expires_never();
  upgrade_.clear();
  upgrade_.shrink_to_fit();
  Pump(0);
  Pump(1);
}

void LinkRelay::Pump(int direction) {
  beast::tcp_stream& from = direction == 0 ? client_ : owner_;
  from.async_read_some(
      boost::asio::buffer(buffers_[direction]),
      [self = shared_from_this(), direction](beast::error_code ec, size_t n) {
        self->OnRead(direction, ec, n);
      });
}

void LinkRelay::OnRead(int direction, beast::error_code ec, size_t bytes) {
  if (ec || closed_) return Close();
  if (Metrics* m = table_.metrics()) m->link_bytes.Inc(direction == 0 ? "to_owner" : "to_client", bytes);
  beast::tcp_stream& to = direction == 0 ? owner_ : client_;
  // One read in flight per direction, written whole before the next: a slow reader slows its
  // sender through TCP, never a queue here.
  boost::asio::async_write(to, boost::asio::buffer(buffers_[direction].data(), bytes),
                           [self = shared_from_this(), direction](beast::error_code ec, size_t) {
                             self->OnWritten(direction, ec);
                           });
}

void LinkRelay::OnWritten(int direction, beast::error_code ec) {
  if (ec || closed_) return Close();
  Pump(direction);
}

void LinkRelay::Fail(const char* what, beast::error_code ec) {
  if (!closed_ && ec) spdlog::warn("link to {}: {}: {}", owner_address_, what, ec.message());
  Close();
}

void LinkRelay::Close() {
  boost::asio::dispatch(client_.get_executor(), [self = shared_from_this()] {
    if (self->closed_) return;
    self->closed_ = true;
    self->resolver_.cancel();
    beast::error_code ignored;
    self->client_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    self->client_.close();
    self->owner_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    self->owner_.close();
  });
}

}  // namespace plateau::server
