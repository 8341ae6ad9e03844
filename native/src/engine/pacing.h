// The paced test's rules, apart from its threads and files so they can be tested alone: when a
// frame is due, when it is late, and the recorder's buffer that queues a frame only while fewer
// than `buffer` are outstanding and drops every frame beyond it. Plain C++17, no I/O, no clock.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace dd {

// Frame i's due time: t0 + i periods, from the start, so a late wake-up never shifts later frames.
inline uint64_t FrameDueNs(uint64_t t0, double period_ns, uint64_t i) {
  return t0 + static_cast<uint64_t>(std::llround(static_cast<double>(i) * period_ns));
}

// Late: completed more than one period after its due time. Counted from the due time, not from
// the I/O's start: waiting for a busy crew is part of a frame's lateness, as for a recorder.
inline bool IsLate(uint64_t due, uint64_t done, uint64_t period_ns) {
  return done > due + period_ns;
}

// How long after its due time a frame completed (0 when on or before it).
inline uint64_t LatenessNs(uint64_t due, uint64_t done) { return done > due ? done - due : 0; }

// A stretch when this computer itself stood still (its threads not run, a VM's CPU taken away):
// the pause watch asked to wake at `from` and woke at `to`.
struct HostPause {
  uint64_t from = 0, to = 0;
};

// How much of [a, b) the pauses cover; pauses are in time order and do not overlap.
inline uint64_t PausedWithin(const std::vector<HostPause>& pauses, uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  for (const HostPause& p : pauses) {
    const uint64_t lo = p.from > a ? p.from : a, hi = p.to < b ? p.to : b;
    if (hi > lo) sum += hi - lo;
  }
  return sum;
}

// A late frame is this computer's, not the drive's, when the computer stood still at least as
// long as the frame was late past its allowed period, between `buffer` periods before its due
// time (a pause there backs the queue up into it) and its completion.
inline bool LateFromHost(const std::vector<HostPause>& pauses, uint64_t due, uint64_t done,
                         uint64_t period_ns, uint32_t buffer) {
  if (!IsLate(due, done, period_ns)) return false;
  const uint64_t back = static_cast<uint64_t>(buffer) * period_ns;
  return PausedWithin(pauses, due > back ? due - back : 0, done) >= done - (due + period_ns);
}

// The recorder's buffer: at most `capacity` frames outstanding (queued or in I/O); a frame that
// arrives when it is full is dropped. Not thread-safe: the caller holds its lock.
class FrameBuffer {
 public:
  explicit FrameBuffer(uint32_t capacity) : capacity_(capacity) {}
  // Takes the frame when there is room (true), else the frame is dropped (false).
  bool Admit() {
    if (outstanding_ >= capacity_) return false;
    ++outstanding_;
    return true;
  }
  // A taken frame completed (or failed): its place is free.
  void Release() {
    if (outstanding_ > 0) --outstanding_;
  }
  uint32_t outstanding() const { return outstanding_; }

 private:
  uint32_t capacity_;
  uint32_t outstanding_ = 0;
};

}  // namespace dd
