#pragma once
// The links between nodes (docs/multinode.md, section 3): a client's WebSocket that names a room
// another node runs is carried to that node. Its upgrade request goes on with the links' shared
// secret and the client's address (so the owner limits the client, not this node), and from
// then on the bytes flow both ways unchanged: the owner builds every view, this node reads none.
// When either side closes, both do; the client reconnects and finds the room where it runs.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace plateau::server {

struct AddressQuota;
class Metrics;

// The header a link's upgrade carries the secret in, and the one naming the client's address.
inline constexpr const char* kLinkSecretHeader = "X-Plateau-Link";
inline constexpr const char* kLinkClientHeader = "X-Plateau-Client";

// Whether `req` came over a link: it carries the secret (compared in constant time). An empty
// secret accepts no link.
bool IsLinkRequest(const boost::beast::http::request<boost::beast::http::string_body>& req,
                   const std::string& secret);

// "host:port" split, "[v6]:port" too; false when it is not of that form.
bool SplitHostPort(const std::string& address, std::string* host, std::string* port);

class LinkRelay;

// Every relay of this node, so that stopping closes them (their clients reconnect elsewhere).
class LinkTable {
 public:
  explicit LinkTable(std::string secret, Metrics* metrics = nullptr)
      : secret_(std::move(secret)), metrics_(metrics) {}
  const std::string& secret() const { return secret_; }
  Metrics* metrics() const { return metrics_; }
  void Add(const std::shared_ptr<LinkRelay>& relay);
  void Remove(const LinkRelay* relay);
  void CloseAll();
  size_t Count();

 private:
  const std::string secret_;
  Metrics* const metrics_;
  std::mutex mu_;
  std::unordered_map<const LinkRelay*, std::weak_ptr<LinkRelay>> relays_;
  bool closed_ = false;
};

class LinkRelay : public std::enable_shared_from_this<LinkRelay> {
 public:
  // `client` with the client's upgrade request `req` already read (nothing after it), to go to
  // the node at `owner` ("host:port"). `quota` is the client's address's slot, held until the
  // relay ends.
  LinkRelay(boost::asio::ip::tcp::socket client,
            boost::beast::http::request<boost::beast::http::string_body> req,
            std::string client_address, std::string owner, std::shared_ptr<AddressQuota> quota,
            LinkTable& table);
  ~LinkRelay();
  void Run();
  // Ends both sides (on the relay's strand).
  void Close();

 private:
  void OnResolved(boost::beast::error_code ec,
                  boost::asio::ip::tcp::resolver::results_type results);
  void OnConnected(boost::beast::error_code ec);
  void OnRequestWritten(boost::beast::error_code ec);
  // Direction 0: client to owner; 1: owner to client.
  void Pump(int direction);
  void OnRead(int direction, boost::beast::error_code ec, size_t bytes);
  void OnWritten(int direction, boost::beast::error_code ec);
  void Fail(const char* what, boost::beast::error_code ec);

  boost::beast::tcp_stream client_;
  boost::beast::tcp_stream owner_;
  boost::asio::ip::tcp::resolver resolver_;
  boost::beast::http::request<boost::beast::http::string_body> req_;
  std::string upgrade_;  // the request as sent on
  const std::string client_address_, owner_address_;
  std::shared_ptr<AddressQuota> quota_;
  LinkTable& table_;
  std::array<std::array<char, 16 * 1024>, 2> buffers_;
  bool closed_ = false;
};

}  // namespace plateau::server
