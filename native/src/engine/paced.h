// The paced (video) test: frames written or read whole at a frame rate, each due at its time,
// counting the ones that miss their slot. RunTest hands a paced spec (IsPaced) here. Plain C++17.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/pacing.h"
#include "engine/result.h"
#include "engine/spec.h"
#include "engine/status.h"

namespace dd {

// Blocks until every due frame has been submitted (or dropped) and completed. The calling thread
// is the pacer: it sleeps to each frame's absolute due time (platform::SleepUntilNs) and hands
// the frame to a small crew of I/O threads; progress is reported from it. Reads lay out whatever
// frames are missing first (untimed). `cancel` stops the pacer at the next frame; the files are
// removed unless spec.keep_file (and not cancelled).
Status RunPaced(const Spec& spec, ProgressSink* sink, const std::atomic<bool>& cancel, Result* out);

// One frame's record (NowNs() times; done 0: never completed). queued false: dropped.
struct PacedFrame {
  uint64_t due = 0, submit = 0, done = 0;
  bool queued = false;
};

// The figures of the first `issued` frames: late (done > due + period), dropped, frame-time
// percentiles (nearest rank, done - submit), jitter, the timeline, the first late frame's due
// time since t0, and the late frames the computer's own `pauses` explain (LateFromHost with a
// `buffer`-frame backlog). Fills every PacedResult field but frame_bytes and budget_ms.
void SummarizeFrames(const std::vector<PacedFrame>& frames, uint64_t issued, uint64_t t0,
                     uint64_t period_ns, const std::vector<HostPause>& pauses, uint32_t buffer,
                     PacedResult* out);

// One file per frame: "<path>.000000", "<path>.000001", ...
std::string FramePath(const std::string& path, uint64_t index);

}  // namespace dd
