// IoQueue: submit I/Os, reap completions. The engine keeps `depth` of them in flight per worker.
// Implementations: kernel AIO (linux.cc), inline synchronous and a thread per slot
// (queue_generic.cc).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dd::platform {

struct IoOp {
  bool write = false;
  void* buf = nullptr;
  uint32_t len = 0;
  uint64_t off = 0;
  uint64_t submit_ns = 0;  // set by the engine before Submit
  int64_t result = 0;      // bytes transferred, or -errno
  const char* syscall = "";
};

class IoQueue {
 public:
  virtual ~IoQueue() = default;
  virtual const char* name() const = 0;
  // Queues n ops. Returns the number accepted (>= 1 unless error), or -errno.
  virtual int Submit(IoOp* const* ops, int n) = 0;
  // Waits up to timeout_ms (< 0: no limit) for at least min_n completions; returns how many were
  // written to out (possibly 0 on timeout), or -errno.
  virtual int Reap(IoOp** out, int min_n, int max_n, int timeout_ms) = 0;
};

}  // namespace dd::platform
