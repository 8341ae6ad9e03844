// The platform's SHA-2: OpenSSL's libcrypto on Linux (crypto_linux.cc), CommonCrypto on macOS
// (crypto_darwin.cc), CNG on Windows (crypto_win.cc). Each uses the CPU's SHA instructions where
// the library does, so the Hash test measures what the system's own tools get. binding.gyp picks
// one file per OS.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "engine/hash_spec.h"
#include "engine/status.h"

namespace dd::platform {

// One running digest. Not thread-safe: one hasher per thread.
class Hasher {
 public:
  virtual ~Hasher() = default;
  // Feeds len bytes (any length). False when the library reports a failure.
  virtual bool Update(const void* data, size_t len) = 0;
  // Finishes the digest; lowercase hex, or empty when the library failed. Call once.
  virtual std::string FinalHex() = 0;
};

// A fresh hasher, or null with *err set (the library refused the algorithm).
std::unique_ptr<Hasher> MakeHasher(HashAlgo algo, Status* err);

// The crypto library, for the result: "OpenSSL 3.0.13 30 Jan 2024 (libcrypto)", "CommonCrypto
// (macOS)", "Windows CNG (BCrypt)".
std::string CryptoProvider();

// Lowercase hex of a raw digest (shared by the implementations).
inline std::string ToHex(const unsigned char* bytes, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = kDigits[bytes[i] >> 4];
    s[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return s;
}

}  // namespace dd::platform
