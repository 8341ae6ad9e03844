// Spec: one test as plain C++ data. Bindings copy the JS spec into this before any work is
// queued; worker threads read only this.
#pragma once

#include <cstdint>
#include <string>

#include "engine/status.h"

namespace dd {

// kRw: sequential, each I/O a read or a write by rwmixread (fio's rw=rw; CrystalDiskMark's SEQ
// Mix).
enum class Rw { kRead, kWrite, kRandRead, kRandWrite, kRandRw, kRw };
bool IsMixed(Rw rw);
enum class CacheRequest { kAuto, kBufferedFlushed, kBuffered };
// kVerify: every 4 KiB block names itself (engine/verify_block.h); reads check what they read.
enum class Pattern { kRandom, kZeros, kVerify };

// A frame-paced test (the video test): frame i is due at t0 + i / fps and is written (or read)
// whole, uncached; fps 0 means an ordinary test. `buffer` frames may be outstanding (submitted,
// not completed) before a due frame is dropped, as a capture card's buffer overflows.
struct PacedSpec {
  double fps = 0;
  uint64_t frame_bytes = 0;
  uint64_t frames = 0;
  bool per_file = false;  // one file per frame (path.000000, ...) instead of one growing stream
  uint32_t buffer = 4;
};

// The small-file test: `files` files of `file_bytes` each, every file created, written, fsynced,
// closed, stat'ed, opened, read and deleted, each operation timed; files 0 means an ordinary test.
struct SmallFilesSpec {
  uint64_t files = 0;
  uint64_t file_bytes = 0;
};

struct Spec {
  std::string path;
  Rw rw = Rw::kRead;
  uint64_t bs = 1 << 20;
  uint32_t qd = 1;
  uint32_t threads = 1;
  uint64_t file_size = 0;
  uint64_t bytes = 0;  // 0: file_size
  double seconds = 0;  // 0: bytes-bounded only
  double warmup_seconds = 0;
  Pattern pattern = Pattern::kRandom;
  uint32_t rwmixread = 70;
  CacheRequest cache = CacheRequest::kAuto;
  bool keep_file = false;
  // "diskdial" in ASCII, cut to 53 bits so the echo in JS (a double) is exact.
  uint64_t seed = 0x6469736b6469616cULL & ((1ULL << 53) - 1);
  uint32_t progress_interval_ms = 100;
  uint32_t series_interval_ms = 100;
  PacedSpec paced;
  SmallFilesSpec small_files;
  // Pattern kVerify: block 0 of this file is block `verify_base` of the run, so blocks are
  // numbered across every file of a run.
  uint64_t verify_base = 0;
  // The path is a whole block device the caller has proven and may overwrite: opened as it is
  // (never created, resized or removed); file_size 0 means the device's size.
  bool device = false;
  // Device only: the test's region starts this many bytes into the device (a multiple of bs), so
  // a whole device can be verified in parts and a stop keeps the parts done.
  uint64_t offset = 0;
};

constexpr uint64_t kMinBs = 512;
// 128 MiB: room for QuickBench's 100 MB step; threads x qd x bs stays under kMaxBufferBytes.
constexpr uint64_t kMaxBs = 128ULL << 20;
constexpr uint32_t kMaxQd = 64;
constexpr uint32_t kMaxThreads = 64;
// Buffers in flight (threads x qd x bs) are capped so a test can never balloon memory.
constexpr uint64_t kMaxBufferBytes = 512ULL << 20;
constexpr uint64_t kMaxFrameBytes = 256ULL << 20;
constexpr uint32_t kMaxFrameBuffer = 256;
constexpr uint64_t kMaxFrames = 10000000;
inline bool IsPaced(const Spec& s) { return s.paced.fps > 0; }
constexpr uint64_t kMaxSmallFiles = 1000000;
constexpr uint64_t kMaxSmallFileBytes = 64ULL << 20;
inline bool IsSmallFiles(const Spec& s) { return s.small_files.files > 0; }

bool IsRead(Rw rw);   // any reads at all
bool IsWrite(Rw rw);  // any writes at all
bool IsRandom(Rw rw);
const char* RwName(Rw rw);
bool ParseRw(const std::string& s, Rw* out);
const char* CacheRequestName(CacheRequest c);
bool ParseCacheRequest(const std::string& s, CacheRequest* out);
const char* PatternName(Pattern p);
bool ParsePattern(const std::string& s, Pattern* out);

// Checks ranges and fills defaults (bytes). Returns EINVAL with plain words on a bad spec.
Status Normalize(Spec* spec);

}  // namespace dd
