// Result: what one test measured, as plain C++ data, converted to JS by the bindings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/spec.h"

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
};

enum class Phase { kPrepare, kWarmup, kRun, kFlush };
const char* PhaseName(Phase p);

struct Progress {
  Phase phase;
  uint64_t bytes_done, bytes_total;  // bytes_total 0: bounded by time only
  double elapsed, seconds_total;     // seconds_total 0: bounded by bytes only
  double inst_mbps, avg_mbps;
};

// Where progress goes. Called from the engine's job thread, never from I/O workers.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void OnProgress(const Progress& p) = 0;
};

}  // namespace dd
