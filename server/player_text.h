#pragma once
// Checks on the text players type (player names, room titles, chat), shared by the lobby's and
// the rooms' requests. Characters are counted as people count them: UTF-8 code points (protobuf
// has already rejected invalid UTF-8).
#include <cstddef>
#include <string>
#include <string_view>

namespace plateau::server {

inline std::string Trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

inline size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

inline bool HasControlChars(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

}  // namespace plateau::server
