// Spec names and validation, in plain words a user can act on.
#include "engine/spec.h"

#include <cmath>
#include <limits>
#include <string>

#include "engine/result.h"
#include "engine/verify_block.h"

namespace dd {

bool IsMixed(Rw rw) { return rw == Rw::kRandRw || rw == Rw::kRw; }
bool IsRead(Rw rw) { return rw == Rw::kRead || rw == Rw::kRandRead || IsMixed(rw); }
bool IsWrite(Rw rw) { return rw == Rw::kWrite || rw == Rw::kRandWrite || IsMixed(rw); }
bool IsRandom(Rw rw) { return rw == Rw::kRandRead || rw == Rw::kRandWrite || rw == Rw::kRandRw; }

namespace {
struct RwName {
  Rw rw;
  const char* name;
};
const RwName kRw[] = {{Rw::kRead, "read"},         {Rw::kWrite, "write"},
                      {Rw::kRandRead, "randread"}, {Rw::kRandWrite, "randwrite"},
                      {Rw::kRandRw, "randrw"},     {Rw::kRw, "rw"}};

std::string Bytes(uint64_t b) { return std::to_string(b) + " B"; }
}  // namespace

const char* RwName(Rw rw) {
  for (const auto& r : kRw)
    if (r.rw == rw) return r.name;
  return "?";
}

bool ParseRw(const std::string& s, Rw* out) {
  for (const auto& r : kRw)
    if (s == r.name) {
      *out = r.rw;
      return true;
    }
  return false;
}

const char* CacheRequestName(CacheRequest c) {
  switch (c) {
    case CacheRequest::kAuto:
      return "auto";
    case CacheRequest::kBufferedFlushed:
      return "buffered-flushed";
    case CacheRequest::kBuffered:
      return "buffered";
  }
  return "?";
}

bool ParseCacheRequest(const std::string& s, CacheRequest* out) {
  for (CacheRequest c :
       {CacheRequest::kAuto, CacheRequest::kBufferedFlushed, CacheRequest::kBuffered})
    if (s == CacheRequestName(c)) {
      *out = c;
      return true;
    }
  return false;
}

const char* PatternName(Pattern p) {
  return p == Pattern::kZeros ? "zeros" : p == Pattern::kVerify ? "verify" : "random";
}

bool ParsePattern(const std::string& s, Pattern* out) {
  if (s == "random")
    *out = Pattern::kRandom;
  else if (s == "zeros")
    *out = Pattern::kZeros;
  else if (s == "verify")
    *out = Pattern::kVerify;
  else
    return false;
  return true;
}

const char* CacheModeName(CacheMode m) {
  switch (m) {
    case CacheMode::kDirect:
      return "direct";
    case CacheMode::kNoCache:
      return "nocache";
    case CacheMode::kBufferedFlushed:
      return "buffered-flushed";
    case CacheMode::kBuffered:
      return "buffered";
  }
  return "?";
}

const char* PhaseName(Phase p) {
  switch (p) {
    case Phase::kPrepare:
      return "prepare";
    case Phase::kWarmup:
      return "warmup";
    case Phase::kRun:
      return "run";
    case Phase::kFlush:
      return "flush";
  }
  return "?";
}

namespace {
// A paced spec's own ranges; its bs/qd/threads/bytes are not used (each frame is one I/O).
Status NormalizePaced(Spec* s) {
  const PacedSpec& p = s->paced;
  if (!std::isfinite(p.fps) || p.fps > 1000)
    return Status::Invalid("frame rate must be above 0 and at most 1000 frames a second");
  if (p.frame_bytes < 1 || p.frame_bytes > kMaxFrameBytes)
    return Status::Invalid("frame size " + Bytes(p.frame_bytes) +
                           " is out of range: use 1 B to 256 MiB");
  if (p.frames < 1 || p.frames > kMaxFrames)
    return Status::Invalid("frame count " + std::to_string(p.frames) +
                           " is out of range 1-10000000");
  if (p.buffer < 1 || p.buffer > kMaxFrameBuffer)
    return Status::Invalid("frame buffer " + std::to_string(p.buffer) + " is out of range 1-256");
  if (s->rw != Rw::kRead && s->rw != Rw::kWrite)
    return Status::Invalid("a paced test reads or writes frames: rw must be read or write");
  // What the echo shows: the whole run's size (before rounding frames to the alignment).
  s->file_size = s->bytes = p.frames * p.frame_bytes;
  if (s->progress_interval_ms < 20) s->progress_interval_ms = 20;
  if (s->series_interval_ms < 10) s->series_interval_ms = 10;
  return Status::Ok();
}
// A small-files spec's own ranges; its bs/qd/threads/seconds are not used (each file is written
// and read whole, one at a time).
Status NormalizeSmallFiles(Spec* s) {
  const SmallFilesSpec& f = s->small_files;
  if (f.files > kMaxSmallFiles)
    return Status::Invalid("file count " + std::to_string(f.files) + " is out of range 1-1000000");
  if (f.file_bytes < 1 || f.file_bytes > kMaxSmallFileBytes)
    return Status::Invalid("file size " + Bytes(f.file_bytes) +
                           " is out of range: use 1 B to 64 MiB");
  s->file_size = s->bytes = f.files * f.file_bytes;
  if (s->progress_interval_ms < 20) s->progress_interval_ms = 20;
  return Status::Ok();
}
}  // namespace

Status Normalize(Spec* s) {
  if (s->path.empty()) return Status::Invalid("the test file path is empty");
  if (s->device && (IsPaced(*s) || IsSmallFiles(*s)))
    return Status::Invalid(
        "a whole device is verified or timed as one region, not in frames or files");
  if (IsPaced(*s)) return NormalizePaced(s);
  if (IsSmallFiles(*s)) return NormalizeSmallFiles(s);
  if (s->bs < kMinBs || s->bs > kMaxBs || s->bs % 512 != 0)
    return Status::Invalid("block size " + Bytes(s->bs) +
                           " is out of range: use a multiple of 512 B from 512 B to 128 MiB");
  if (s->qd < 1 || s->qd > kMaxQd)
    return Status::Invalid("queue depth " + std::to_string(s->qd) + " is out of range 1-64");
  if (s->threads < 1 || s->threads > kMaxThreads)
    return Status::Invalid("thread count " + std::to_string(s->threads) + " is out of range 1-64");
  const uint64_t buffers = static_cast<uint64_t>(s->threads) * s->qd * s->bs;
  if (buffers > kMaxBufferBytes)
    return Status::Invalid("threads x queue depth x block size is " + Bytes(buffers) +
                           ", over the 512 MiB the engine keeps in flight");
  if (s->pattern == Pattern::kVerify) {
    if (s->bs % kVerifyBlock != 0)
      return Status::Invalid(
          "the verify pattern writes 4 KiB blocks: use a block size that is a "
          "multiple of 4 KiB");
    if (IsMixed(s->rw))
      return Status::Invalid("the verify pattern either writes or reads: rw must not mix them");
  }
  if (s->offset > 0 && !s->device)
    return Status::Invalid("an offset applies only to a whole device (device: true)");
  if (s->offset % s->bs != 0)
    return Status::Invalid("the offset " + Bytes(s->offset) +
                           " is not a multiple of the block size");
  // A device's size is read once it is open (RunTest); until then any size passes.
  if (s->device && s->file_size == 0) s->file_size = s->bs * s->threads;
  s->file_size -= s->file_size % s->bs;
  if (s->file_size < s->bs * s->threads)
    return Status::Invalid("the test file must hold at least threads x block size (" +
                           Bytes(s->bs * s->threads) + ")");
  if (!(s->seconds >= 0) || !std::isfinite(s->seconds) || !(s->warmup_seconds >= 0) ||
      !std::isfinite(s->warmup_seconds))
    return Status::Invalid("seconds and warm-up seconds must be finite and not negative");
  if (s->bytes == 0)
    s->bytes = s->seconds > 0 ? std::numeric_limits<uint64_t>::max() / 2 : s->file_size;
  if (s->bytes < s->bs) return Status::Invalid("bytes to transfer must be at least one block");
  if (s->rwmixread > 100) return Status::Invalid("rwmixread must be 0-100");
  if (s->progress_interval_ms < 20) s->progress_interval_ms = 20;
  if (s->series_interval_ms < 10) s->series_interval_ms = 10;
  return Status::Ok();
}

}  // namespace dd
