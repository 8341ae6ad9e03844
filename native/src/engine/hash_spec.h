// HashSpec and HashResult: one hash measurement (the Hash test) as plain C++ data. The bindings
// copy the JS spec into HashSpec before any work starts; the engine's threads read only this.
// Mirrors HashSpec / HashProgress / HashEngineResult in app/src/core/engine-types.ts.
#pragma once

#include <cstdint>
#include <string>

#include "engine/result.h"

namespace dd {

enum class HashAlgo { kSha256, kSha512 };
// kRead: stream the file in, uncached, nothing else (the storage's rate). kReadHash: the same
// reading on one thread while another hashes (what a user checking a file gets). kMemory: hash an
// in-memory buffer over and over on `threads` threads (the CPU's ceiling).
enum class HashMode { kRead, kReadHash, kMemory };
// As the run engine's requests: kAuto uncached where the file system allows (else as
// kBufferedFlushed); kBufferedFlushed through the cache, the file's cached pages dropped first;
// kBuffered through the cache as it is.
enum class HashCache { kAuto, kBufferedFlushed, kBuffered };

struct HashSpec {
  HashMode mode = HashMode::kReadHash;
  HashAlgo algo = HashAlgo::kSha256;
  std::string path;                // read modes
  bool follow_links = true;        // read modes: false refuses a symbolic link (a folder check)
  uint64_t chunk_bytes = 1 << 20;  // read modes: rounded up to the direct-I/O alignment
  uint32_t buffers = 4;            // read-hash: chunks in the ring between reader and hasher
  HashCache cache = HashCache::kAuto;
  uint32_t threads = 1;             // memory: independent streams
  double seconds = 2;               // memory: how long to hash
  uint64_t memory_bytes = 1 << 20;  // memory: the buffer each stream hashes over and over
  uint32_t progress_interval_ms = 100;
};

constexpr uint64_t kMaxHashChunk = 64ULL << 20;
constexpr uint32_t kMinHashBuffers = 2;
constexpr uint32_t kMaxHashBuffers = 64;
constexpr uint32_t kMaxHashThreads = 256;
// Memory held for a measurement (buffers x chunk, or threads x memory bytes) is capped so a spec
// can never balloon the process.
constexpr uint64_t kMaxHashMemory = 512ULL << 20;

struct HashProgress {
  HashMode mode;
  uint64_t bytes_done, bytes_total;  // bytes_total: the file's size; 0 for memory (time-bound)
  double elapsed, seconds_total;     // seconds_total: memory's run time; 0 for read modes
  double inst_mbps, avg_mbps;
};

struct HashResult {
  HashSpec spec;
  uint64_t bytes = 0;
  double seconds = 0, mbps = 0;
  std::string digest;                           // read-hash, when it ran to the end: lowercase hex
  CacheMode cache_mode = CacheMode::kBuffered;  // read modes
  std::string cache_note;
  uint64_t chunk_bytes = 0;  // read modes: the chunk actually used
  uint32_t alignment = 0;
  double reader_wait_seconds = 0, hasher_wait_seconds = 0;  // read-hash
  std::string provider;
  bool cancelled = false;
};

// Where hash progress goes. Called from the job thread, never from the reader or hashers.
class HashProgressSink {
 public:
  virtual ~HashProgressSink() = default;
  virtual void OnProgress(const HashProgress& p) = 0;
};

const char* HashAlgoName(HashAlgo a);
bool ParseHashAlgo(const std::string& s, HashAlgo* out);
const char* HashModeName(HashMode m);
bool ParseHashMode(const std::string& s, HashMode* out);
const char* HashCacheName(HashCache c);
bool ParseHashCache(const std::string& s, HashCache* out);
inline bool IsReadMode(HashMode m) { return m != HashMode::kMemory; }

// Checks ranges in plain words (EINVAL) and clamps the progress interval.
Status NormalizeHash(HashSpec* spec);

}  // namespace dd
