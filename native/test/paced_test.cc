// The paced (video) test: the late/dropped rule and the figures on hand-made frame records, and
// RunTest's paced mode on real files in a temporary folder (frames due at their times, the
// stream and the file-per-frame layouts written and read back, the files removed after).
#include "engine/paced.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/pacing.h"

namespace dd {
namespace {

constexpr uint64_t kMs = 1000000;

bool Exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

class TempDir {
 public:
  explicit TempDir(const std::string& base = "/tmp") {
    std::string tmpl = base + "/dd-paced-XXXXXX";
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Four frames at 10 fps (100 ms period) from t0 = 1 s: on time, late by more than a period,
// dropped, on time but slow to complete within its slot.
TEST(PacedSummary, CountsLateAndDroppedByTheDueTimeRule) {
  const uint64_t t0 = 1000 * kMs, period = 100 * kMs;
  std::vector<PacedFrame> f(4);
  f[0] = {t0, t0 + 1 * kMs, t0 + 21 * kMs, true};                 // 20 ms
  f[1] = {t0 + 100 * kMs, t0 + 150 * kMs, t0 + 301 * kMs, true};  // done 201 ms after due
  f[2] = {t0 + 200 * kMs, 0, 0, false};                           // buffer full: dropped
  f[3] = {t0 + 300 * kMs, t0 + 301 * kMs, t0 + 399 * kMs, true};  // 98 ms, inside its slot
  PacedResult r;
  SummarizeFrames(f, 4, t0, period, {}, 4, &r);
  EXPECT_EQ(r.frames, 4u);
  EXPECT_EQ(r.completed, 3u);
  EXPECT_EQ(r.late, 1u);
  EXPECT_EQ(r.dropped, 1u);
  EXPECT_EQ(r.timeline, ".LD.");
  EXPECT_DOUBLE_EQ(r.first_late_s, 0.1);  // frame 1's due time
  EXPECT_DOUBLE_EQ(r.worst_lateness_ms, 201);
  EXPECT_DOUBLE_EQ(r.p50_ms, 98);  // frame times 20, 98, 151: nearest rank
  EXPECT_DOUBLE_EQ(r.max_ms, 151);
  EXPECT_DOUBLE_EQ(r.p99_ms, 151);
  // completion intervals 280 and 98 ms: stdev 91 ms
  EXPECT_NEAR(r.jitter_ms, 91, 1e-9);
}

TEST(PacedSummary, AllOnTimeHasNoFirstLate) {
  std::vector<PacedFrame> f(3);
  for (uint64_t i = 0; i < 3; ++i) f[i] = {i * 10 * kMs, i * 10 * kMs, i * 10 * kMs + kMs, true};
  PacedResult r;
  SummarizeFrames(f, 3, 0, 10 * kMs, {}, 4, &r);
  EXPECT_EQ(r.late + r.dropped, 0u);
  EXPECT_LT(r.first_late_s, 0);
  EXPECT_EQ(r.timeline, "...");
  EXPECT_DOUBLE_EQ(r.jitter_ms, 0);
}

// Due times are absolute: frame i is due i periods after t0, never after the previous wake-up.
TEST(PacedRule, DueTimesCountFromTheStart) {
  const double period = 1e9 / 29.97;  // 33,366,700.03 ns
  EXPECT_EQ(FrameDueNs(5, period, 0), 5u);
  EXPECT_EQ(FrameDueNs(5, period, 1), 5u + 33366700u);
  // 1,000 s in: exactly 10^12 ns, where adding a rounded period each frame would be 1 µs short.
  EXPECT_EQ(FrameDueNs(0, period, 29970), 1000000000000ULL);
}

// Late is counted from the due time: a frame that waited for a busy crew and then took 1 ms is
// late, and its lateness is from its due time, not from when its I/O started.
TEST(PacedRule, LateCountsFromTheDueTimeNotFromTheStartOfIo) {
  const uint64_t period = 10 * kMs;
  EXPECT_FALSE(IsLate(0, 10 * kMs, period));  // completed exactly one period after due: on time
  EXPECT_TRUE(IsLate(0, 10 * kMs + 1, period));
  EXPECT_EQ(LatenessNs(20 * kMs, 15 * kMs), 0u);
  EXPECT_EQ(LatenessNs(20 * kMs, 25 * kMs), 5 * kMs);
  std::vector<PacedFrame> f(1);
  f[0] = {0, 40 * kMs, 41 * kMs, true};  // queued 40 ms behind the crew, 1 ms of I/O
  PacedResult r;
  SummarizeFrames(f, 1, 0, period, {}, 4, &r);
  EXPECT_EQ(r.timeline, "L");
  EXPECT_EQ(r.late, 1u);
  EXPECT_DOUBLE_EQ(r.worst_lateness_ms, 41);
  EXPECT_DOUBLE_EQ(r.max_ms, 1);  // the frame time is the I/O's own
}

// The buffer holds at most `capacity` frames; every frame beyond it is dropped, and a completion
// frees exactly one place.
TEST(PacedRule, BufferHoldsAtMostItsFramesAndDropsEveryFrameBeyond) {
  FrameBuffer b(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(b.Admit()) << i;
  EXPECT_FALSE(b.Admit());
  EXPECT_FALSE(b.Admit());
  EXPECT_EQ(b.outstanding(), 4u);
  b.Release();
  EXPECT_TRUE(b.Admit());
  EXPECT_FALSE(b.Admit());
  FrameBuffer one(1);
  EXPECT_TRUE(one.Admit());
  EXPECT_FALSE(one.Admit());
}

// The pacer's rules together, on a simulated stall: 100 fps, a buffer of 4, one I/O thread; the
// disk stalls the first frame's write until 101 ms, then each frame takes 1 ms. Frames 0-3 are
// taken and complete late (101-104 ms, long after their due times 0-30 ms, though frames 1-3
// took 1 ms each); frames 4-9, due while the buffer is full, are dropped; frame 10 (due 100 ms,
// the buffer still full) too; frames 11-13 find room again and are on time.
TEST(PacedRule, AStallFillsTheBufferThenDropsFrames) {
  const uint64_t period = 10 * kMs;
  const uint64_t n = 14;
  FrameBuffer buffer(4);
  std::vector<PacedFrame> f(n);
  std::vector<uint64_t> queue;  // taken, not yet completed, in order
  uint64_t crew_free = 0;       // when the I/O thread finishes what it has
  uint32_t most = 0;
  // Completes, in order, every taken frame done by `now`.
  auto settle = [&](uint64_t now) {
    while (!queue.empty()) {
      PacedFrame& q = f[queue.front()];
      if (q.done == 0) {
        q.submit = std::max(crew_free, q.due);
        q.done = queue.front() == 0 ? 101 * kMs : q.submit + kMs;
        crew_free = q.done;
      }
      if (q.done > now) return;
      buffer.Release();
      queue.erase(queue.begin());
    }
  };
  for (uint64_t i = 0; i < n; ++i) {
    f[i].due = FrameDueNs(0, static_cast<double>(period), i);
    settle(f[i].due);
    if (buffer.Admit()) {
      f[i].queued = true;
      queue.push_back(i);
    }
    most = std::max(most, buffer.outstanding());
  }
  settle(UINT64_MAX);
  EXPECT_EQ(most, 4u);
  PacedResult r;
  SummarizeFrames(f, n, 0, period, {}, 4, &r);
  EXPECT_EQ(r.timeline, "LLLLDDDDDDD...");
  EXPECT_EQ(r.dropped, 7u);
  EXPECT_EQ(r.late, 4u);
  EXPECT_EQ(r.completed, 7u);
  EXPECT_DOUBLE_EQ(r.first_late_s, 0);
  EXPECT_DOUBLE_EQ(r.worst_lateness_ms, 101);
}

// A pause of the computer covers a late frame when it lasts at least the frame's lateness past
// its period, inside [due - buffer periods, done]; a drive that is late on its own is not excused
// by a short pause, nor by one long before or after the frame.
TEST(PacedRule, ALateFrameIsTheComputersOnlyWhenItsOwnPauseCoversTheLateness) {
  const uint64_t period = 33 * kMs;
  const uint64_t due = 1000 * kMs, done = due + period + 40 * kMs;  // 40 ms past the period
  EXPECT_TRUE(LateFromHost({{due + 10 * kMs, due + 60 * kMs}}, due, done, period, 4));
  // Before the due time, within the 4-frame backlog: the queue it built made this frame late.
  EXPECT_TRUE(LateFromHost({{due - 100 * kMs, due - 50 * kMs}}, due, done, period, 4));
  // Too short, too early (beyond the backlog), after completion, or two that sum short.
  EXPECT_FALSE(LateFromHost({{due, due + 39 * kMs}}, due, done, period, 4));
  EXPECT_FALSE(LateFromHost({{due - 200 * kMs, due - 140 * kMs}}, due, done, period, 4));
  EXPECT_FALSE(LateFromHost({{done, done + 100 * kMs}}, due, done, period, 4));
  EXPECT_FALSE(LateFromHost({{due, due + 20 * kMs}, {due + 30 * kMs, due + 49 * kMs}}, due, done,
                            period, 4));
  EXPECT_TRUE(LateFromHost({{due, due + 20 * kMs}, {due + 30 * kMs, due + 50 * kMs}}, due, done,
                           period, 4));
  // A frame on time is nobody's fault.
  EXPECT_FALSE(LateFromHost({{due, done}}, due, due + period, period, 4));
}

TEST(PacedSummary, CountsTheLateFramesThePausesExplainAndTheLongestPause) {
  const uint64_t period = 100 * kMs;
  std::vector<PacedFrame> f(3);
  for (uint64_t i = 0; i < 3; ++i) f[i] = {i * period, i * period, i * period + 10 * kMs, true};
  f[1].done = f[1].due + 250 * kMs;  // late by 150 ms past the period, inside a 200 ms pause
  f[2].done = f[2].due + 400 * kMs;  // late by 300 ms: more than the pause
  PacedResult r;
  SummarizeFrames(f, 3, 0, period, {{f[1].due, f[1].due + 200 * kMs}}, 4, &r);
  EXPECT_EQ(r.late, 2u);
  EXPECT_EQ(r.host_late, 1u);
  EXPECT_DOUBLE_EQ(r.longest_pause_ms, 200);
}

Spec Paced(const std::string& path, Rw rw, bool per_file) {
  Spec s;
  s.path = path;
  s.rw = rw;
  s.file_size = 1;
  s.paced.fps = 50;
  s.paced.frame_bytes = 100000;  // rounded up to the alignment
  s.paced.frames = 25;
  s.paced.per_file = per_file;
  s.paced.buffer = 8;
  s.keep_file = rw == Rw::kWrite;
  return s;
}

void WriteThenRead(bool per_file) {
  TempDir dir;
  const std::string path = dir.path() + "/video.dat";
  std::atomic<bool> cancel{false};
  for (Rw rw : {Rw::kWrite, Rw::kRead}) {
    Result r;
    Status st = RunTest(Paced(path, rw, per_file), nullptr, cancel, &r);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(r.paced.frames, 25u);
    EXPECT_EQ(r.paced.completed + r.paced.dropped, 25u);
    EXPECT_EQ(r.paced.timeline.size(), 25u);
    EXPECT_EQ(r.paced.frame_bytes % 512, 0u);
    EXPECT_GE(r.paced.frame_bytes, 100000u);
    EXPECT_DOUBLE_EQ(r.paced.budget_ms, 20);
    // Paced, not as fast as it goes: the last frame is due 24 periods after the first.
    EXPECT_GE(r.seconds, 24 / 50.0);
    EXPECT_LT(r.seconds, 24 / 50.0 + 1.0);
    EXPECT_EQ(r.ios, r.paced.completed);
    EXPECT_EQ(r.bytes, r.paced.completed * r.paced.frame_bytes);
    EXPECT_GT(r.paced.max_ms, 0);
    EXPECT_LE(r.paced.p50_ms, r.paced.p99_ms);
    EXPECT_LE(r.paced.p99_ms, r.paced.max_ms);
    if (rw == Rw::kWrite) {
      EXPECT_EQ(r.bytes_written, r.bytes);
      EXPECT_TRUE(per_file ? Exists(FramePath(path, 24)) : Exists(path));
    } else {
      EXPECT_EQ(r.bytes_read, r.bytes);
    }
  }
  // The read did not keep its files.
  EXPECT_FALSE(Exists(per_file ? FramePath(path, 0) : path));
  EXPECT_FALSE(Exists(FramePath(path, 24)));
}

TEST(PacedRun, StreamWrittenAndReadBackAtTheFrameRate) { WriteThenRead(false); }
TEST(PacedRun, FilePerFrameWrittenAndReadBackAtTheFrameRate) { WriteThenRead(true); }

TEST(PacedRun, ReadLaysOutMissingFrames) {
  TempDir dir;
  std::atomic<bool> cancel{false};
  Result r;
  Status st = RunTest(Paced(dir.path() + "/v.dat", Rw::kRead, true), nullptr, cancel, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(r.paced.completed + r.paced.dropped, 25u);
  EXPECT_GT(r.prepare_seconds, 0);
}

// The whole process stopped for 150 ms mid-run (SIGSTOP from a child, as a VM whose CPU is taken
// away): the frames due then complete late, and the pause watch, stopped with them, explains
// them. A frame late on its own (a starved writer thread) is rightly not the host's, so `late` may
// exceed `host_late`; the rule itself is pinned by LateFromHost's cases above.
TEST(PacedRun, AStopOfTheWholeProcessIsCountedAsTheComputersNotTheDrives) {
  // Memory where there is one: CI's other chains cannot make the "drive" late as well.
  TempDir dir(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  Spec s = Paced(dir.path() + "/v.dat", Rw::kWrite, false);
  s.paced.frames = 50;  // 1 s
  s.paced.frame_bytes = 65536;
  s.keep_file = false;
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only async-signal-safe calls in the child of a threaded process.
    const timespec before{0, 400 * 1000000L}, stopped{0, 150 * 1000000L};
    ::nanosleep(&before, nullptr);
    ::kill(parent, SIGSTOP);
    ::nanosleep(&stopped, nullptr);
    ::kill(parent, SIGCONT);
    ::_exit(0);
  }
  std::atomic<bool> cancel{false};
  Result r;
  Status st = RunTest(s, nullptr, cancel, &r);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_GE(r.paced.longest_pause_ms, 140);
  // A stop of at least 140 ms covers at least 6 whole 20 ms periods, and a frame can only be the
  // host's when due at most `buffer` periods before the stop ended: about 15 here.
  EXPECT_GE(r.paced.host_late, 6u) << r.paced.timeline;
  const double periods = (r.paced.longest_pause_ms + s.paced.buffer * 20.0) / 20.0;
  EXPECT_LE(r.paced.host_late, static_cast<uint64_t>(periods) + 2) << r.paced.timeline;
  EXPECT_LE(r.paced.host_late, r.paced.late);
}

TEST(PacedRun, RejectsBadSpecsInPlainWords) {
  std::atomic<bool> cancel{false};
  Result r;
  Spec s = Paced("/tmp/x", Rw::kWrite, false);
  s.paced.buffer = 0;
  EXPECT_EQ(RunTest(s, nullptr, cancel, &r).message(),
            "EINVAL: frame buffer 0 is out of range 1-256");
  s = Paced("/tmp/x", Rw::kRandWrite, false);
  EXPECT_NE(RunTest(s, nullptr, cancel, &r).message().find("rw must be read or write"),
            std::string::npos);
}

TEST(PacedRun, CancelStopsAtTheNextFrame) {
  TempDir dir;
  Spec s = Paced(dir.path() + "/v.dat", Rw::kWrite, false);
  s.paced.fps = 2;
  s.paced.frames = 100;  // 50 s if not cancelled
  std::atomic<bool> cancel{true};
  Result r;
  ASSERT_TRUE(RunTest(s, nullptr, cancel, &r).ok());
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(Exists(s.path));
}

}  // namespace
}  // namespace dd
