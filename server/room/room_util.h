#pragma once
// Private to the room's files (server/room/room*.cc): the names and small helpers more than one
// of them needs.
#include <chrono>
#include <cstdint>
#include <string_view>

#include "plateau/v1/protocol.pb.h"

namespace plateau::server {

namespace v1 = plateau::v1;

inline int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A bot's seat is stored like a person's, under an id no player can have ("bot:<level>:<n>"), so
// a restored game knows its bots and how they play.
inline constexpr std::string_view kBotPrefix = "bot:";

}  // namespace plateau::server
