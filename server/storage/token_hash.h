#pragma once
// Player tokens are stored only as their SHA-256 (OpenSSL's libcrypto computes it).
#include <string>
#include <string_view>

namespace plateau::server::storage {

// The 32-byte SHA-256 digest of `token`, as raw bytes.
std::string TokenSha256(std::string_view token);

}  // namespace plateau::server::storage
