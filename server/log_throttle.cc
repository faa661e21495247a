#include "server/log_throttle.h"

#include <google/protobuf/stubs/logging.h>

namespace plateau::server {

bool LogThrottle::Allow(Clock::time_point now, uint64_t* suppressed_before) {
  std::lock_guard lock(mu_);
  *suppressed_before = 0;
  if (now - window_start_ >= window_) {
    window_start_ = now;
    used_ = 0;
  }
  if (used_ >= budget_) {
    ++suppressed_;
    ++suppressed_total_;
    return false;
  }
  ++used_;
  *suppressed_before = suppressed_;
  suppressed_ = 0;
  return true;
}

LogThrottle& ClientLogThrottle() {
  static LogThrottle throttle(20, std::chrono::seconds(10));
  return throttle;
}

namespace {

void ProtobufLogHandler(google::protobuf::LogLevel level, const char* filename, int line,
                        const std::string& message) {
  // Parsing runs on untrusted bytes: its complaints are the client's doing.
  spdlog::level::level_enum to = spdlog::level::warn;
  if (level == google::protobuf::LOGLEVEL_INFO) to = spdlog::level::debug;
  if (level == google::protobuf::LOGLEVEL_FATAL) {
    spdlog::critical("protobuf {}:{}: {}", filename, line, message);
    return;
  }
  ClientLog(to, "protobuf: {}", message);
}

}  // namespace

void InstallProtobufLogHandler() { google::protobuf::SetLogHandler(&ProtobufLogHandler); }

}  // namespace plateau::server
