#include "server/storage/token_hash.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

namespace plateau::server::storage {

std::string TokenSha256(std::string_view token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(token.data(), token.size(), digest, &size, EVP_sha256(), nullptr) != 1 ||
      size != 32) {
    // Only a broken or misconfigured libcrypto gets here; storing tokens without their hash is
    // not an option, so stop loudly.
    std::fprintf(stderr, "plateau: SHA-256 is unavailable from libcrypto\n");
    std::abort();
  }
  return std::string(reinterpret_cast<const char*>(digest), size);
}

}  // namespace plateau::server::storage
