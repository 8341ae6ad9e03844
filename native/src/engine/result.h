// Result: what one test measured, as plain C++ data, converted to JS by the bindings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/spec.h"
#include "engine/verify_block.h"

namespace dd {

enum class CacheMode { kDirect, kNoCache, kBufferedFlushed, kBuffered };
const char* CacheModeName(CacheMode m);

struct LatencyUs {
  double min = 0, mean = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
};

// The latency histogram's non-empty buckets, for pooling several tests' latencies.
struct LatencyBucket {
  uint64_t lower_ns, width_ns, count;
};

struct SeriesPoint {
  double t;  // end of the bucket, seconds since the measured phase started
  double mbps;
};

// A paced test's figures (spec.paced): frame times are completion - submit; a frame is late when
// it completes after its due time + one frame period, dropped when the buffer was full at its due
// time (it was never submitted).
struct PacedResult {
  uint64_t frames = 0, completed = 0, late = 0, dropped = 0;
  uint64_t frame_bytes = 0;  // the frame size used: rounded up to the direct-I/O alignment
  double budget_ms = 0;      // one frame period
  double p50_ms = 0, p99_ms = 0, p999_ms = 0, max_ms = 0;
  double jitter_ms = 0;          // stdev of the intervals between successive frames' completions
  double first_late_s = -1;      // due time of the first late or dropped frame since t0; -1: none
  double worst_lateness_ms = 0;  // the most any frame completed after its due time
  std::string timeline;          // one character a frame: '.' on time, 'L' late, 'D' dropped
  uint64_t host_late = 0;        // late frames this computer's own pauses explain (LateFromHost)
  double longest_pause_ms = 0;   // the longest the computer itself stood still during the run
};

// One operation kind of the small-file test (create, write, fsync, close, stat, open, read,
// delete): how many, their sum and their spread, ms.
struct SmallFilesOp {
  std::string name;
  uint64_t count = 0;
  double total_ms = 0, mean_ms = 0, p50_ms = 0, p99_ms = 0, max_ms = 0;
};

// The small-file test's figures: per operation kind, and per file (the sum of a file's operations).
struct SmallFilesResult {
  uint64_t files = 0;  // files that went through every operation
  uint64_t file_bytes = 0;
  double seconds = 0;  // the sum of every timed operation
  double files_per_s = 0, ms_per_file = 0;
  double write_mbps = 0;  // payload bytes / (create + write + fsync + close)
  double read_mbps = 0;   // payload bytes / (open + read)
  double file_p50_ms = 0, file_p99_ms = 0;
  std::vector<SmallFilesOp> ops;
};

struct Result {
  Spec spec;
  uint64_t bytes = 0, bytes_read = 0, bytes_written = 0, ios = 0;
  double seconds = 0, mbps = 0, iops = 0;
  LatencyUs latency;
  std::vector<LatencyBucket> latency_buckets;
  uint64_t latency_min_ns = 0, latency_max_ns = 0;
  std::vector<SeriesPoint> series;
  CacheMode cache_mode = CacheMode::kBuffered;
  std::string cache_note;
  std::string io_engine;
  uint32_t alignment = 0;
  double prepare_seconds = 0, warmup_seconds = 0, flush_seconds = 0;
  bool cancelled = false;
  PacedResult paced;             // IsPaced(spec) only
  SmallFilesResult small_files;  // IsSmallFiles(spec) only
  VerifyTally verify;            // reads under Pattern::kVerify only
};

enum class Phase { kPrepare, kWarmup, kRun, kFlush };
const char* PhaseName(Phase p);

struct Progress {
  Phase phase;
  uint64_t bytes_done, bytes_total;  // bytes_total 0: bounded by time only
  double elapsed, seconds_total;     // seconds_total 0: bounded by bytes only
  double inst_mbps, avg_mbps;
  // A paced test's frames so far (frames_due 0: not paced): each frame counted once its fate is
  // known, as the summary counts it (late: done after due + one period; dropped: buffer full).
  uint64_t frames_due, frames_on_time, frames_late, frames_dropped;
};

// Where progress goes. Called from the engine's job thread, never from I/O workers.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void OnProgress(const Progress& p) = 0;
};

}  // namespace dd
