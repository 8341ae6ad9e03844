// The platform's SHA-2 and AES: OpenSSL's libcrypto on Linux (crypto_linux.cc), CommonCrypto on
// macOS (crypto_darwin.cc), CNG on Windows (crypto_win.cc). Each uses the CPU's SHA and AES
// instructions where the library does, so the Hash test and the cipher ceiling measure what the
// system's own tools get. binding.gyp picks one file per OS.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/cipher_spec.h"
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

// One encryption context with a fixed key. Not thread-safe: one cipher per thread.
class Cipher {
 public:
  virtual ~Cipher() = default;
  // Encrypts len bytes of `in` into `out` (which may be `in`). XTS: len is a whole number of
  // data units, unit i taking the tweak first_unit + i (little-endian, as dm-crypt's plain64 and
  // fscrypt's block numbers). GCM: one message with a fresh nonce and its tag. False when the
  // library reports a failure.
  virtual bool Encrypt(const unsigned char* in, unsigned char* out, size_t len,
                       uint64_t first_unit) = 0;
};

// Key bytes every cipher takes: 64 (two AES-256 keys for XTS; GCM uses the first 32).
constexpr size_t kCipherKeyBytes = 64;

// A cipher for algo, or null with *err set (ENOTSUP: this platform does not offer it).
std::unique_ptr<Cipher> MakeCipher(CipherAlgo algo, const unsigned char* key, uint32_t data_unit,
                                   Status* err);

// Who encrypts for algo, for the result: the library, or "Linux kernel crypto API (AF_ALG)".
std::string CipherProvider(CipherAlgo algo);

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
