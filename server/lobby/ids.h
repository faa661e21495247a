#pragma once
// Identifiers and secrets. The server (unlike the engine) may use OS randomness: tokens are
// secrets, game seeds must not be guessable by players, and ids only need to be unique.
#include <cstdint>
#include <string>
#include <string_view>

namespace plateau::server {

// Join codes avoid letters people confuse when reading one aloud or off a screen: no O/0, I/1/L.
inline constexpr std::string_view kJoinCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
inline constexpr size_t kJoinCodeLength = 6;
// A watch code only lets its holder watch; it is longer because nobody types it: it travels in a
// link, with the room id.
inline constexpr size_t kWatchCodeLength = 12;

// `bytes` random bytes as lowercase hex (2 * bytes characters), from the OS generator.
std::string RandomHex(size_t bytes);
uint64_t RandomSeed();
std::string NewToken();     // 128 bits, hex
// 128 bits, hex: opens a private game's replay to whoever is given its link, so it must be as
// unguessable as a player token.
std::string NewReplayToken();
std::string NewPlayerId();  // "p" + 64 bits hex
std::string NewRoomId();    // "r" + 64 bits hex
std::string NewGameId();    // "g" + 64 bits hex
std::string NewJoinCode();  // kJoinCodeLength characters of kJoinCodeAlphabet
std::string NewWatchCode();  // kWatchCodeLength characters of kJoinCodeAlphabet

bool IsJoinCode(std::string_view s);

}  // namespace plateau::server
