#pragma once
// What both modes need around the I/O: threads to run it, and a last-resort deadline.
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "clients/load/metrics.h"

namespace plateau::load {

// Both modes' timelines advance on a timer of this period.
inline constexpr auto kTick = std::chrono::milliseconds(50);
// After a run: how long the close handshakes may take before the loop stops anyway.
inline constexpr auto kCloseGrace = std::chrono::seconds(3);

// Runs `ioc` on `threads` threads, this one included, until it stops.
void RunIoContext(boost::asio::io_context& ioc, int threads);

// A run's timeline: runs `start` on `ioc`, then `step` every kTick (on `ioc`) until it returns
// false, then stops `ioc`. Returns once it is stopped; `ioc` runs on `threads` threads meanwhile.
void RunTimeline(boost::asio::io_context& ioc, int threads, const std::function<void()>& start,
                 const std::function<bool(Clock::time_point)>& step);

// Ends the process with exit status 3 at `deadline` unless disarmed before: whatever the server
// or the network do, a run ends (a stuck run would hold a benchmark script forever).
class Watchdog {
 public:
  Watchdog(Clock::time_point deadline, std::string what);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  void Disarm();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool disarmed_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace plateau::load
