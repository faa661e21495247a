#pragma once
// Log lines a client can cause at will (undecodable frames, oversized messages, protobuf's own
// complaints about bad UTF-8, limits hit) are throttled server-wide: a flood of bad frames must
// not become a flood of disk writes. Lines over the budget are counted and reported as one line
// when logging resumes.
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <mutex>

namespace plateau::server {

class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;
  LogThrottle(int lines_per_window, std::chrono::milliseconds window)
      : budget_(lines_per_window), window_(window) {}

  // True when a line may be written at `now`. `*suppressed_before` is set to the number of lines
  // dropped since the last one allowed (worth a line of its own), else 0.
  bool Allow(Clock::time_point now, uint64_t* suppressed_before);
  uint64_t suppressed_total() const { return suppressed_total_; }

 private:
  std::mutex mu_;
  const int budget_;
  const std::chrono::milliseconds window_;
  Clock::time_point window_start_{};
  int used_ = 0;
  uint64_t suppressed_ = 0;
  uint64_t suppressed_total_ = 0;
};

// The server-wide throttle for client-caused lines: 20 lines per 10 seconds.
LogThrottle& ClientLogThrottle();

// Logs a client-caused line through ClientLogThrottle.
template <typename... Args>
void ClientLog(spdlog::level::level_enum level, spdlog::format_string_t<Args...> fmt,
               Args&&... args) {
  if (!spdlog::should_log(level)) return;
  uint64_t suppressed = 0;
  if (!ClientLogThrottle().Allow(LogThrottle::Clock::now(), &suppressed)) return;
  if (suppressed > 0) {
    spdlog::log(level, "{} similar lines caused by clients were not logged", suppressed);
  }
  spdlog::log(level, fmt, std::forward<Args>(args)...);
}

// Routes protobuf's own log lines (e.g. invalid UTF-8 in a received string field) through the
// client throttle into spdlog. Idempotent.
void InstallProtobufLogHandler();

}  // namespace plateau::server
