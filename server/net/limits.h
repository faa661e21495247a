#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace plateau::server {

class LinkTable;

// Everything the network layer bounds, in one place (set from the command line).
struct NetLimits {
  std::string static_dir;                   // the web client; empty: no static files
  size_t max_message_bytes = 64 * 1024;     // largest WebSocket message accepted
  size_t max_queue_bytes = 4 * 1024 * 1024; // outgoing bytes waiting per session before it is cut
  std::chrono::seconds idle_timeout{300};   // WebSocket: no traffic (pings answered count) for this long
  // SO_SNDBUF of WebSocket sockets; 0 leaves the OS default (auto-tuned). Tests set it small so
  // a client that stops reading overflows the queue after a known number of bytes.
  int socket_send_buffer = 0;
  // HTTP requests are small: the client is static files plus the upgrade.
  size_t http_header_limit = 8 * 1024;
  size_t http_body_limit = 16 * 1024;
  // Behind a reverse proxy on loopback: a WebSocket from loopback is limited under the address in
  // the last X-Forwarded-For entry (the client the proxy saw) instead of the proxy's.
  bool trust_proxy = false;
  // Several nodes: the links to the other nodes (net/link_relay.h) and their secret; null: this
  // node neither carries clients to others nor takes them from others.
  LinkTable* links = nullptr;
  // /metrics answers loopback peers only, unless this is set.
  bool public_metrics = false;
  std::chrono::seconds http_timeout{30};
  // The body of GET /metrics (Prometheus text format); empty: /metrics is a 404. Called on a
  // network thread for each scrape, so it must be safe to call from any thread.
  std::function<std::string()> metrics_text;
};

}  // namespace plateau::server
