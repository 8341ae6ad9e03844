// One phase of a test (prepare, warm-up or run): `threads` workers, each keeping `qd` I/Os in
// flight on a queue of its own, set up untimed and started together. engine.cc makes a test's
// phases from its spec; RunPhase runs one to its end and merges the workers' figures. Plain C++17.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

#include "engine/engine.h"
#include "engine/histogram.h"
#include "engine/series.h"
#include "engine/spec.h"
#include "engine/status.h"
#include "engine/verify_block.h"
#include "platform/platform.h"

namespace dd {

// A byte budget that never ends a phase (the time bound or cancel does).
constexpr uint64_t kUnbounded = UINT64_MAX / 2;

// One phase's I/O, as the workers see it.
struct Job {
  Rw rw;
  uint64_t bs;
  uint32_t qd, threads;
  uint64_t region;  // the file's size: offsets stay in [0, region)
  uint64_t bytes;   // total budget across threads
  double seconds;   // time bound, 0: none (counted from the start barrier)
  Pattern pattern;
  uint32_t rwmixread;
  uint64_t seed;
  uint64_t series_ns;
  uint64_t verify_base;  // Pattern::kVerify: the file's first block number in the run
  uint64_t base;         // where the region starts in the file (a device's offset)
};

struct Shared {
  platform::Handle handle;
  CacheMode mode;
  uint32_t mem_align;
  std::string path;
  const std::atomic<bool>* cancel;
  std::atomic<bool> stop{false};  // first error stops every worker
  // Start barrier: workers set up (buffers, queues) untimed, then wait for `go`; the measured
  // phase starts at t0, taken when the last worker is ready.
  std::mutex mu;
  std::condition_variable cv;
  uint32_t ready = 0;
  bool go = false;
  uint64_t t0 = 0;
  uint64_t deadline = 0;  // absolute NowNs(), 0: none
};

// What a phase measured: the workers' figures merged.
struct PhaseResult {
  Histogram hist;
  Series series{100000000};
  uint64_t ios = 0, bytes_read = 0, bytes_written = 0;
  uint64_t t0 = 0, end = 0;
  std::string io_engine;
  VerifyTally verify;
};

// Runs one phase to its end (budget, deadline, cancel or first error), reporting progress.
Status RunPhase(Shared& sh, const Job& job, Phase phase, uint32_t interval_ms, ProgressSink* sink,
                PhaseResult* out);

}  // namespace dd
