#pragma once
// Agones (deploy/agones/, docs/kubernetes.md): this node as a GameServer of a Fleet, told through
// the SDK sidecar's REST API on localhost. Once serving it says Ready; it sends a health ping
// every few ticks; it keeps the Counter "rooms" at the number of rooms it runs; with its first
// room it asks to be Allocated (a Fleet never scales an allocated GameServer down, so scaling
// never ends a live game), and with its last room gone it says Ready again (it may then be
// scaled down). Calls go one at a time over short HTTP/1.1 connections on the given executor;
// a failed call is logged and counted, and the next tick tries what is still owed.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/http/verb.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace plateau::server {

class AgonesSdk : public std::enable_shared_from_this<AgonesSdk> {
 public:
  struct Options {
    std::string host = "127.0.0.1";
    uint16_t port = 9358;  // the sidecar's HTTP port (AGONES_SDK_HTTP_PORT)
    std::chrono::milliseconds tick{1000};
    int health_every_ticks = 5;
    std::string counter = "rooms";
  };
  // The sidecar's port from AGONES_SDK_HTTP_PORT, else 9358.
  static uint16_t PortFromEnvironment();

  // `rooms` is read on `executor` at each tick (it must be safe to call from there).
  AgonesSdk(boost::asio::any_io_executor executor, Options options,
            std::function<size_t()> rooms);
  // Says Ready, then ticks until Stop.
  void Start();
  // No call after this one (one in flight may still end).
  void Stop();

  uint64_t calls_ok() const { return ok_.load(); }
  uint64_t calls_failed() const { return failed_.load(); }

 private:
  struct Call {
    boost::beast::http::verb verb;
    std::string target, body;
    std::function<void(bool ok)> done;  // on the strand; may be empty
  };
  void Tick();
  void Queue(boost::beast::http::verb verb, std::string target, std::string body,
             std::function<void(bool ok)> done = {});
  void SendNext();

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  const Options options_;
  const std::function<size_t()> rooms_;
  boost::asio::steady_timer timer_;
  std::deque<Call> calls_;
  bool sending_ = false;
  bool stopped_ = false;
  int ticks_ = 0;
  // What the sidecar was last told: the counter's value (-1: nothing yet), allocated or not.
  int64_t counted_ = -1;
  bool allocated_ = false;
  std::atomic<uint64_t> ok_{0}, failed_{0};
};

}  // namespace plateau::server
