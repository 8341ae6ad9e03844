// Cipher spec names and validation, in plain words a user can act on.
#include "engine/cipher_spec.h"

#include <cmath>

namespace dd {

const char* CipherAlgoName(CipherAlgo a) {
  switch (a) {
    case CipherAlgo::kAes256Xts:
      return "aes-256-xts";
    case CipherAlgo::kAes256Gcm:
      return "aes-256-gcm";
    case CipherAlgo::kKernelXts:
      return "kernel-xts";
  }
  return "?";
}

bool ParseCipherAlgo(const std::string& s, CipherAlgo* out) {
  for (CipherAlgo a : {CipherAlgo::kAes256Xts, CipherAlgo::kAes256Gcm, CipherAlgo::kKernelXts})
    if (s == CipherAlgoName(a)) {
      *out = a;
      return true;
    }
  return false;
}

Status NormalizeCipher(CipherSpec* s) {
  if (s->progress_interval_ms < 20) s->progress_interval_ms = 20;
  if (s->threads < 1 || s->threads > kMaxCipherThreads)
    return Status::Invalid("thread count " + std::to_string(s->threads) + " is out of range 1-256");
  if (!std::isfinite(s->seconds) || !(s->seconds > 0))
    return Status::Invalid("seconds must be a finite number above 0");
  if (s->data_unit < 16 || s->data_unit % 16 != 0 || s->data_unit > kMaxCipherBlock)
    return Status::Invalid("data unit " + std::to_string(s->data_unit) +
                           " B must be a multiple of 16 B, at most 16 MiB");
  if (s->block_bytes < s->data_unit || s->block_bytes > kMaxCipherBlock ||
      s->block_bytes % s->data_unit != 0)
    return Status::Invalid("block size " + std::to_string(s->block_bytes) +
                           " B must be a whole number of data units, at most 16 MiB");
  return Status::Ok();
}

}  // namespace dd
