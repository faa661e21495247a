// What tests that replay recorded games share: the digest they fold views into and the hex form
// their action logs are stored in.
#pragma once

#include <cstdint>
#include <string>

namespace plateau::testing {

// FNV-1a: a recorded digest must come out the same on every build and library.
inline uint64_t Fnv1a(uint64_t h, const std::string& bytes) {
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

inline std::string HexOf(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

inline std::string BytesOfHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

}  // namespace plateau::testing
