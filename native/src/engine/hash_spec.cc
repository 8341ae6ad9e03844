// Hash spec names and validation, in plain words a user can act on.
#include "engine/hash_spec.h"

#include <cmath>
#include <string>

namespace dd {

namespace {
std::string Bytes(uint64_t b) { return std::to_string(b) + " B"; }
}  // namespace

const char* HashAlgoName(HashAlgo a) { return a == HashAlgo::kSha512 ? "sha512" : "sha256"; }

bool ParseHashAlgo(const std::string& s, HashAlgo* out) {
  if (s == "sha256")
    *out = HashAlgo::kSha256;
  else if (s == "sha512")
    *out = HashAlgo::kSha512;
  else
    return false;
  return true;
}

const char* HashModeName(HashMode m) {
  switch (m) {
    case HashMode::kRead:
      return "read";
    case HashMode::kReadHash:
      return "read-hash";
    case HashMode::kMemory:
      return "memory";
  }
  return "?";
}

bool ParseHashMode(const std::string& s, HashMode* out) {
  for (HashMode m : {HashMode::kRead, HashMode::kReadHash, HashMode::kMemory})
    if (s == HashModeName(m)) {
      *out = m;
      return true;
    }
  return false;
}

const char* HashCacheName(HashCache c) {
  return c == HashCache::kBuffered          ? "buffered"
         : c == HashCache::kBufferedFlushed ? "buffered-flushed"
                                            : "auto";
}

bool ParseHashCache(const std::string& s, HashCache* out) {
  if (s == "auto")
    *out = HashCache::kAuto;
  else if (s == "buffered-flushed")
    *out = HashCache::kBufferedFlushed;
  else if (s == "buffered")
    *out = HashCache::kBuffered;
  else
    return false;
  return true;
}

Status NormalizeHash(HashSpec* s) {
  if (s->progress_interval_ms < 20) s->progress_interval_ms = 20;
  if (s->mode == HashMode::kMemory) {
    if (s->threads < 1 || s->threads > kMaxHashThreads)
      return Status::Invalid("thread count " + std::to_string(s->threads) +
                             " is out of range 1-256");
    if (s->memory_bytes < 1 || s->memory_bytes > kMaxHashMemory)
      return Status::Invalid("memory buffer " + Bytes(s->memory_bytes) +
                             " is out of range: use 1 B to 512 MiB");
    if (s->threads * s->memory_bytes > kMaxHashMemory)
      return Status::Invalid("threads x memory buffer is " + Bytes(s->threads * s->memory_bytes) +
                             ", over the 512 MiB the engine keeps in memory");
    if (!std::isfinite(s->seconds) || !(s->seconds > 0))
      return Status::Invalid("seconds must be a finite number above 0");
    return Status::Ok();
  }
  if (s->path.empty()) return Status::Invalid("the file path is empty");
  if (s->chunk_bytes < 1 || s->chunk_bytes > kMaxHashChunk)
    return Status::Invalid("chunk size " + Bytes(s->chunk_bytes) +
                           " is out of range: use 1 B to 64 MiB");
  if (s->buffers < kMinHashBuffers || s->buffers > kMaxHashBuffers)
    return Status::Invalid("buffer count " + std::to_string(s->buffers) + " is out of range 2-64");
  if (s->mode == HashMode::kReadHash && s->buffers * s->chunk_bytes > kMaxHashMemory)
    return Status::Invalid("buffers x chunk size is " + Bytes(s->buffers * s->chunk_bytes) +
                           ", over the 512 MiB the engine keeps in memory");
  return Status::Ok();
}

}  // namespace dd
