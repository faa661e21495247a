#include "clients/load/run_support.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace plateau::load {

void RunIoContext(boost::asio::io_context& ioc, int threads) {
  std::vector<std::thread> extra;
  for (int i = 1; i < threads; ++i) extra.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : extra) t.join();
}

void RunTimeline(boost::asio::io_context& ioc, int threads, const std::function<void()>& start,
                 const std::function<bool(Clock::time_point)>& step) {
  boost::asio::steady_timer tick(ioc);
  std::function<void()> on_tick = [&] {
    if (!step(Clock::now())) {
      ioc.stop();
      return;
    }
    tick.expires_after(kTick);
    tick.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) on_tick();
    });
  };
  boost::asio::post(ioc, [&] {
    start();
    on_tick();
  });
  RunIoContext(ioc, threads);
}

Watchdog::Watchdog(Clock::time_point deadline, std::string what) {
  thread_ = std::thread([this, deadline, what = std::move(what)] {
    std::unique_lock lock(mu_);
    if (cv_.wait_until(lock, deadline, [this] { return disarmed_; })) return;
    std::fprintf(stderr, "plateau-load: %s: giving up\n", what.c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    // Threads may be stuck in the I/O: no destructor is worth waiting for now.
    std::_Exit(3);
  });
}

Watchdog::~Watchdog() {
  Disarm();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::Disarm() {
  {
    std::lock_guard lock(mu_);
    disarmed_ = true;
  }
  cv_.notify_all();
}

}  // namespace plateau::load
