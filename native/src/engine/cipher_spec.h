// CipherSpec and CipherResult: one in-memory encryption measurement (the cipher ceiling) as plain
// C++ data. Mirrors CipherSpec / CipherProgress / CipherEngineResult in
// app/src/core/engine-types.ts.
#pragma once

#include <cstdint>
#include <string>

#include "engine/status.h"

namespace dd {

// kAes256Xts / kAes256Gcm: the platform library's AES (OpenSSL EVP, CommonCrypto, CNG).
// kKernelXts: the Linux kernel's own xts(aes), the cipher fscrypt and dm-crypt use, through an
// AF_ALG socket (Linux only).
enum class CipherAlgo { kAes256Xts, kAes256Gcm, kKernelXts };

struct CipherSpec {
  CipherAlgo algo = CipherAlgo::kAes256Xts;
  uint32_t threads = 1;          // independent streams, each its own context and buffer
  double seconds = 2;            // how long to encrypt
  uint64_t block_bytes = 16384;  // bytes per encrypt call, as `openssl speed`'s largest block
  // XTS: one tweak (IV) per data unit, numbered like sectors, as fscrypt does with 4096-byte
  // file blocks. GCM encrypts each block as one message with its own nonce.
  uint32_t data_unit = 4096;
  uint32_t progress_interval_ms = 100;
};

constexpr uint32_t kMaxCipherThreads = 256;
constexpr uint64_t kMaxCipherBlock = 16ULL << 20;

struct CipherProgress {
  uint64_t bytes_done;
  double elapsed, seconds_total;
  double inst_mbps, avg_mbps;
};

struct CipherResult {
  CipherSpec spec;
  uint64_t bytes = 0;
  double seconds = 0, mbps = 0;
  std::string provider;  // the library: "OpenSSL 3.0.13 … (libcrypto)", "Linux kernel (AF_ALG)"
  bool cancelled = false;
};

class CipherProgressSink {
 public:
  virtual ~CipherProgressSink() = default;
  virtual void OnProgress(const CipherProgress& p) = 0;
};

const char* CipherAlgoName(CipherAlgo a);
bool ParseCipherAlgo(const std::string& s, CipherAlgo* out);
// Checks ranges in plain words (EINVAL) and clamps the progress interval.
Status NormalizeCipher(CipherSpec* spec);

}  // namespace dd
