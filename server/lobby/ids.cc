// Identifiers and secrets (see ids.h): tokens, game seeds and ids from the OS's randomness.
#include "server/lobby/ids.h"

#include <random>

namespace plateau::server {
namespace {

// std::random_device reads the OS generator (getrandom on Linux). One per thread because its
// operator() is not specified to be thread-safe.
uint32_t OsRandom32() {
  thread_local std::random_device device;
  return device();
}

}  // namespace

std::string RandomHex(size_t bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  for (size_t i = 0; i < bytes; i += 4) {
    uint32_t word = OsRandom32();
    for (size_t j = 0; j < 4 && i + j < bytes; ++j) {
      const uint8_t b = static_cast<uint8_t>(word >> (8 * j));
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xf]);
    }
  }
  return out;
}

uint64_t RandomSeed() { return (static_cast<uint64_t>(OsRandom32()) << 32) | OsRandom32(); }

std::string NewToken() { return RandomHex(16); }
std::string NewReplayToken() { return RandomHex(16); }
std::string NewPlayerId() { return "p" + RandomHex(8); }
std::string NewRoomId() { return "r" + RandomHex(8); }
std::string NewGameId() { return "g" + RandomHex(8); }

namespace {

std::string NewCode(size_t length) {
  // Rejection sampling keeps every character equally likely.
  const uint32_t n = static_cast<uint32_t>(kJoinCodeAlphabet.size());
  const uint32_t limit = UINT32_MAX - (UINT32_MAX % n);
  std::string out;
  while (out.size() < length) {
    uint32_t x = OsRandom32();
    if (x >= limit) continue;
    out.push_back(kJoinCodeAlphabet[x % n]);
  }
  return out;
}

}  // namespace

std::string NewJoinCode() { return NewCode(kJoinCodeLength); }
std::string NewWatchCode() { return NewCode(kWatchCodeLength); }

bool IsJoinCode(std::string_view s) {
  if (s.size() != kJoinCodeLength) return false;
  for (char c : s) {
    if (kJoinCodeAlphabet.find(c) == std::string_view::npos) return false;
  }
  return true;
}

}  // namespace plateau::server
