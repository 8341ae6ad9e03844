// The paced test. The pacer (the calling thread) wakes at each frame's absolute due time
// (t0 + i / fps, so sleep error never accumulates) and queues the frame if fewer than `buffer`
// frames are outstanding, else drops it (a capture card's buffer overflowing). A crew of I/O
// threads takes queued frames in order and writes (or reads) each whole, uncached where the file
// system allows, recording submit and completion times. Queueing behind a busy crew is part of a
// frame's lateness, as it is for a recorder: late means completed after due + one period.
#include "engine/paced.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "engine/histogram.h"
#include "engine/pacing.h"
#include "engine/prng.h"
#include "engine/series.h"
#include "platform/platform.h"

namespace dd {

namespace {

// I/O threads: a recorder writes a few frames at once, not hundreds; their buffers are capped.
constexpr uint32_t kMaxCrew = 8;
constexpr uint64_t kCrewMemory = 512ULL << 20;
// A long wait for a due time (a low frame rate) re-checks cancel this often.
constexpr uint64_t kCancelSliceNs = 50000000;

using Aligned = std::unique_ptr<void, void (*)(void*)>;

// Writes or reads all of len at off (a short transfer continues where it stopped).
Status Transfer(platform::Handle h, bool write, void* buf, uint64_t len, uint64_t off,
                const std::string& path) {
  uint64_t done = 0;
  auto* p = static_cast<unsigned char*>(buf);
  while (done < len) {
    size_t n = 0;
    Status st = write ? platform::WriteAt(h, p + done, len - done, off + done, &n)
                      : platform::ReadAt(h, p + done, len - done, off + done, &n);
    if (!st.ok()) {
      st.path = path;
      return st;
    }
    if (n == 0)
      return Status::Errno(write ? ENOSPC : EIO, write ? "write" : "read", path,
                           "short " + std::string(write ? "write" : "read") + " at byte " +
                               std::to_string(off + done));
    done += n;
  }
  return Status::Ok();
}

// Where frames live: one stream file (its handle shared by the crew; pwrite/pread are
// thread-safe) or one file per frame, opened, transferred and closed inside the frame's time.
class Frames {
 public:
  Frames(const Spec& spec, platform::OpenOptions oo) : spec_(spec), oo_(oo) {}
  ~Frames() { platform::CloseFile(stream_); }
  Frames(const Frames&) = delete;
  Frames& operator=(const Frames&) = delete;

  // Opens the stream (or frame 0, to learn the cache mode and alignment) and sets the frame size.
  Status Open(platform::OpenedFile* probe) {
    const std::string first = spec_.paced.per_file ? FramePath(spec_.path, 0) : spec_.path;
    if (Status st = platform::OpenFile(first, oo_, probe); !st.ok()) return st;
    if (spec_.paced.per_file)
      platform::CloseFile(probe->handle);
    else
      stream_ = probe->handle;
    const uint64_t a = std::max<uint32_t>(probe->align.offset, 1);
    len_ = (spec_.paced.frame_bytes + a - 1) / a * a;
    return Status::Ok();
  }
  uint64_t len() const { return len_; }
  platform::Handle stream() const { return stream_; }

  // One frame's I/O; flush: make a write durable now (when uncached I/O was refused).
  Status Do(uint64_t i, bool write, void* buf, bool flush) const {
    if (!spec_.paced.per_file) {
      if (Status st = Transfer(stream_, write, buf, len_, i * len_, spec_.path); !st.ok())
        return st;
      return write && flush ? platform::Flush(stream_, spec_.path) : Status::Ok();
    }
    const std::string path = FramePath(spec_.path, i);
    platform::OpenedFile f;
    if (Status st = platform::OpenFile(path, oo_, &f); !st.ok()) return st;
    Status st = Transfer(f.handle, write, buf, len_, 0, path);
    if (st.ok() && write && flush) st = platform::Flush(f.handle, path);
    platform::CloseFile(f.handle);
    return st;
  }

  // Reads need every frame on disk: lays out what is missing (a dropped frame, a fresh file),
  // untimed, and drops the cached pages where I/O goes through the cache.
  Status LayOut(uint64_t frames, void* buf, bool drop) {
    uint64_t size = 0;
    if (!spec_.paced.per_file) {
      if (Status st = platform::GetSize(stream_, &size, spec_.path); !st.ok()) return st;
      for (uint64_t i = size / len_; i < frames; ++i)
        if (Status st = Transfer(stream_, true, buf, len_, i * len_, spec_.path); !st.ok())
          return st;
      if (Status st = platform::Flush(stream_, spec_.path); !st.ok()) return st;
      if (drop) platform::DropCache(stream_, spec_.path);
      return Status::Ok();
    }
    for (uint64_t i = 0; i < frames; ++i) {
      const std::string path = FramePath(spec_.path, i);
      platform::OpenedFile f;
      if (Status st = platform::OpenFile(path, oo_, &f); !st.ok()) return st;
      Status st = platform::GetSize(f.handle, &size, path);
      if (st.ok() && size < len_) {
        st = Transfer(f.handle, true, buf, len_, 0, path);
        if (st.ok()) st = platform::Flush(f.handle, path);
      }
      if (st.ok() && drop) platform::DropCache(f.handle, path);
      platform::CloseFile(f.handle);
      if (!st.ok()) return st;
    }
    return Status::Ok();
  }

  void Remove(uint64_t frames) {
    if (!spec_.paced.per_file) {
      platform::CloseFile(stream_);
      stream_ = platform::kInvalidHandle;
      platform::RemoveFile(spec_.path);
      return;
    }
    for (uint64_t i = 0; i < frames; ++i) platform::RemoveFile(FramePath(spec_.path, i));
  }

 private:
  const Spec& spec_;
  platform::OpenOptions oo_;
  platform::Handle stream_ = platform::kInvalidHandle;
  uint64_t len_ = 0;
};

// What the pacer and the crew share, under one mutex (one hand-off per frame: negligible next to
// a frame's I/O).
struct Board {
  std::mutex mu;
  std::condition_variable work, ready_cv;
  std::deque<uint64_t> queue;
  FrameBuffer buffer;
  uint32_t ready = 0;
  bool go = false, closing = false;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> bytes{0};
  uint64_t due = 0, on_time = 0, late = 0, dropped = 0;  // for progress, under mu
  Status err;
  std::vector<PacedFrame> frames;
  explicit Board(uint32_t buffer_frames) : buffer(buffer_frames) {}
};

double Ms(uint64_t ns) { return ns / 1e6; }

// Watches this computer, not the drive: a thread that asks to wake every millisecond and records
// each wake-up at least kPauseNs late. A late frame inside such a pause is the computer's (a VM's
// CPU taken away, a starved process), and the verdict says so instead of blaming the drive.
class PauseWatch {
 public:
  PauseWatch() : thread_([this] { Run(); }) {}
  ~PauseWatch() { Stop(); }
  PauseWatch(const PauseWatch&) = delete;
  PauseWatch& operator=(const PauseWatch&) = delete;
  // Ends the watch; the pauses are whole after this.
  const std::vector<HostPause>& Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return pauses_;
  }

 private:
  static constexpr uint64_t kTickNs = 1000000, kPauseNs = 5000000;
  static constexpr size_t kMaxPauses = 100000;  // a run paused this often is judged by these
  void Run() {
    while (!stop_) {
      const uint64_t want = platform::NowNs() + kTickNs;
      platform::SleepUntilNs(want);
      const uint64_t woke = platform::NowNs();
      if (woke >= want + kPauseNs && pauses_.size() < kMaxPauses) pauses_.push_back({want, woke});
    }
  }
  std::atomic<bool> stop_{false};
  std::vector<HostPause> pauses_;
  std::thread thread_;
};

}  // namespace

void SummarizeFrames(const std::vector<PacedFrame>& frames, uint64_t issued, uint64_t t0,
                     uint64_t period, const std::vector<HostPause>& pauses, uint32_t buffer,
                     PacedResult* out) {
  std::vector<uint64_t> times;
  uint64_t prev_done = 0;
  double sum = 0, sum2 = 0;
  uint64_t intervals = 0;
  out->timeline.reserve(issued);
  for (uint64_t i = 0; i < issued; ++i) {
    const PacedFrame& f = frames[i];
    char c = 'D';
    if (f.queued && f.done) {
      times.push_back(f.done - f.submit);
      c = IsLate(f.due, f.done, period) ? 'L' : '.';
      out->host_late += c == 'L' && LateFromHost(pauses, f.due, f.done, period, buffer);
      out->worst_lateness_ms = std::max(out->worst_lateness_ms, Ms(LatenessNs(f.due, f.done)));
      if (prev_done) {
        const double d = Ms(f.done > prev_done ? f.done - prev_done : 0);
        sum += d;
        sum2 += d * d;
        ++intervals;
      }
      prev_done = f.done;
    }
    if (c != '.' && out->first_late_s < 0) out->first_late_s = (f.due - t0) / 1e9;
    out->late += c == 'L';
    out->dropped += c == 'D';
    out->timeline.push_back(c);
  }
  out->frames = issued;
  out->completed = times.size();
  if (intervals > 0) {
    const double mean = sum / intervals;
    out->jitter_ms = std::sqrt(std::max(0.0, sum2 / intervals - mean * mean));
  }
  std::sort(times.begin(), times.end());
  auto rank = [&](double q) {
    if (times.empty()) return 0.0;
    const size_t k = static_cast<size_t>(std::ceil(q * times.size()));
    return Ms(times[std::min(times.size() - 1, k > 0 ? k - 1 : 0)]);
  };
  out->p50_ms = rank(0.50);
  out->p99_ms = rank(0.99);
  out->p999_ms = rank(0.999);
  out->max_ms = times.empty() ? 0 : Ms(times.back());
  for (const HostPause& p : pauses)
    out->longest_pause_ms = std::max(out->longest_pause_ms, Ms(p.to - p.from));
}

std::string FramePath(const std::string& path, uint64_t index) {
  char digits[24];
  std::snprintf(digits, sizeof digits, ".%06llu", static_cast<unsigned long long>(index));
  return path + digits;
}

Status RunPaced(const Spec& spec, ProgressSink* sink, const std::atomic<bool>& cancel,
                Result* res) {
  const PacedSpec& pc = spec.paced;
  const bool write = spec.rw == Rw::kWrite;
  platform::OpenOptions oo;
  oo.write = true;  // the files are ours: a read may need to lay frames out first
  oo.create = true;
  oo.uncached = spec.cache == CacheRequest::kAuto;
  oo.block = 0;  // the frame size is rounded up to the alignment
  Frames files(spec, oo);
  platform::OpenedFile probe;
  if (Status st = files.Open(&probe); !st.ok()) return st;
  const uint64_t len = files.len();
  bool kept = false;
  struct Cleanup {
    Frames& f;
    uint64_t n;
    const bool& kept;
    ~Cleanup() {
      if (!kept) f.Remove(n);
    }
  } cleanup{files, pc.frames, kept};

  SetCacheMode(probe.mode, probe.note, probe.align.offset, spec.cache, res);
  const bool through_cache = res->cache_mode == CacheMode::kBufferedFlushed;
  const size_t mem_align = std::max<uint32_t>(probe.align.memory, 4096);

  // Setup, untimed: a growing stream starts empty; a read has every frame laid out.
  const uint64_t prep0 = platform::NowNs();
  {
    Aligned buf(platform::AllocAligned(len, mem_align), platform::FreeAligned);
    if (!buf) return Status::Errno(ENOMEM, "malloc", "", "could not allocate a frame buffer");
    Prng(spec.seed).Fill(buf.get(), len);
    if (write && !pc.per_file) {
      if (Status st = platform::SetSize(files.stream(), 0, spec.path); !st.ok()) return st;
    } else if (!write) {
      if (Status st = files.LayOut(pc.frames, buf.get(), through_cache); !st.ok()) return st;
    }
  }
  res->prepare_seconds = (platform::NowNs() - prep0) / 1e9;
  if (cancel) {
    res->cancelled = true;
    return Status::Ok();
  }

  Board b(pc.buffer);
  b.frames.resize(pc.frames);
  const double period_f = 1e9 / pc.fps;
  const uint64_t period = static_cast<uint64_t>(std::llround(period_f));
  const uint32_t crew_size = static_cast<uint32_t>(
      std::max<uint64_t>(1, std::min<uint64_t>({pc.buffer, kMaxCrew, kCrewMemory / len})));
  auto crew_body = [&](uint32_t index) {
    Aligned buf(platform::AllocAligned(len, mem_align), platform::FreeAligned);
    if (buf) {
      Prng(spec.seed + 0x9e3779b97f4a7c15ULL * (index + 1)).Fill(buf.get(), len);
    }
    std::unique_lock<std::mutex> lk(b.mu);
    if (!buf && b.err.ok()) {
      b.err = Status::Errno(ENOMEM, "malloc", "", "could not allocate a frame buffer");
      b.stop = true;
    }
    ++b.ready;
    b.ready_cv.notify_all();
    for (;;) {
      b.work.wait(lk, [&] { return !b.queue.empty() || b.closing || b.stop || cancel; });
      if (b.queue.empty() || b.stop || cancel || !buf) return;
      const uint64_t i = b.queue.front();
      b.queue.pop_front();
      lk.unlock();
      // Each frame's data differs (its index in the first bytes): nothing can deduplicate it.
      if (write) std::memcpy(buf.get(), &i, std::min<uint64_t>(sizeof i, len));
      const uint64_t submit = platform::NowNs();
      Status st = files.Do(i, write, buf.get(), through_cache);
      const uint64_t done = platform::NowNs();
      lk.lock();
      b.frames[i].submit = submit;
      b.frames[i].done = st.ok() ? done : 0;
      b.buffer.Release();
      if (!st.ok() && b.err.ok()) {
        b.err = st;
        b.stop = true;
        b.work.notify_all();
      }
      if (st.ok()) {
        b.bytes.fetch_add(len, std::memory_order_relaxed);
        ++(IsLate(b.frames[i].due, done, period) ? b.late : b.on_time);
      }
    }
  };
  std::vector<std::thread> crew;
  for (uint32_t i = 0; i < crew_size; ++i) crew.emplace_back(crew_body, i);
  {
    std::unique_lock<std::mutex> lk(b.mu);
    b.ready_cv.wait(lk, [&] { return b.ready == crew_size; });
  }

  PauseWatch watch;
  const uint64_t t0 = platform::NowNs();
  const uint64_t total = pc.frames * len;
  const uint64_t interval = static_cast<uint64_t>(spec.progress_interval_ms) * 1000000ULL;
  uint64_t last_t = t0, last_bytes = 0;
  auto report = [&](uint64_t now) {
    if (!sink) return;
    const uint64_t done = b.bytes.load(std::memory_order_relaxed);
    const double dt = (now - last_t) / 1e9, el = (now - t0) / 1e9;
    Progress p{Phase::kRun,
               done,
               total,
               el,
               pc.frames / pc.fps,
               dt > 0 ? (done - last_bytes) / dt / 1e6 : 0.0,
               el > 0 ? done / el / 1e6 : 0.0,
               0,
               0,
               0,
               0};
    {
      std::lock_guard<std::mutex> lk(b.mu);
      p.frames_due = b.due;
      p.frames_on_time = b.on_time;
      p.frames_late = b.late;
      p.frames_dropped = b.dropped;
    }
    sink->OnProgress(p);
    last_t = now;
    last_bytes = done;
  };
  uint64_t issued = 0;
  for (uint64_t i = 0; i < pc.frames; ++i) {
    const uint64_t due = FrameDueNs(t0, period_f, i);
    for (uint64_t now = platform::NowNs(); now < due && !cancel && !b.stop;
         now = platform::NowNs()) {
      if (now - last_t >= interval) report(now);
      platform::SleepUntilNs(std::min(due, now + kCancelSliceNs));
    }
    if (cancel || b.stop) break;
    {
      std::lock_guard<std::mutex> lk(b.mu);
      b.frames[i].due = due;
      b.due = i + 1;
      if (b.buffer.Admit()) {
        b.frames[i].queued = true;
        b.queue.push_back(i);
      } else {
        ++b.dropped;
      }
    }
    b.work.notify_one();
    issued = i + 1;
  }
  {
    std::lock_guard<std::mutex> lk(b.mu);
    b.closing = true;
  }
  b.work.notify_all();
  for (auto& t : crew) t.join();
  const std::vector<HostPause>& pauses = watch.Stop();
  if (!b.err.ok()) return b.err;
  report(platform::NowNs());  // the last frames' fates, so the live strip ends complete
  res->cancelled = cancel.load();

  uint64_t end = t0 + 1;
  Histogram hist;
  Series series(static_cast<uint64_t>(spec.series_interval_ms) * 1000000ULL);
  for (uint64_t i = 0; i < issued; ++i) {
    const PacedFrame& f = b.frames[i];
    if (!f.queued || !f.done) continue;
    end = std::max(end, f.done);
    hist.Record(f.done - f.submit);
    series.Add(f.done - t0, len);
  }
  // The stream's last writes made durable, as every write test ends (not part of frame times).
  if (write && !pc.per_file && res->cache_mode != CacheMode::kBuffered && !res->cancelled) {
    const uint64_t f0 = platform::NowNs();
    if (Status st = platform::Flush(files.stream(), spec.path); !st.ok()) return st;
    res->flush_seconds = (platform::NowNs() - f0) / 1e9;
  }

  PacedResult& p = res->paced;
  p.frame_bytes = len;
  p.budget_ms = period_f / 1e6;
  SummarizeFrames(b.frames, issued, t0, period, pauses, pc.buffer, &p);
  res->ios = p.completed;
  res->bytes = p.completed * len;
  (write ? res->bytes_written : res->bytes_read) = res->bytes;
  res->seconds = (end - t0) / 1e9;
  res->mbps = res->bytes / res->seconds / 1e6;
  res->iops = res->ios / res->seconds;
  res->latency = {hist.min() / 1e3,
                  hist.mean() / 1e3,
                  hist.Percentile(0.50) / 1e3,
                  hist.Percentile(0.90) / 1e3,
                  hist.Percentile(0.99) / 1e3,
                  hist.Percentile(0.999) / 1e3,
                  hist.max() / 1e3};
  for (const Histogram::Bucket& bk : hist.NonEmpty())
    res->latency_buckets.push_back({bk.lower_ns, bk.width_ns, bk.count});
  res->latency_min_ns = hist.min();
  res->latency_max_ns = hist.max();
  res->series = series.Points(end - t0);
  res->io_engine = pc.per_file ? "paced, a file a frame" : "paced, one stream";
  kept = spec.keep_file && !res->cancelled;
  // A kept stream is read back next: frames dropped from it are written now, after the figures
  // (untimed), so the read reads real data and not a hole's zeros. Missing frame files are laid
  // out by the read itself.
  if (kept && write && !pc.per_file && p.completed < pc.frames) {
    Aligned buf(platform::AllocAligned(len, mem_align), platform::FreeAligned);
    if (!buf) return Status::Errno(ENOMEM, "malloc", "", "could not allocate a frame buffer");
    Prng(spec.seed).Fill(buf.get(), len);
    for (uint64_t i = 0; i < pc.frames; ++i) {
      if (i < issued && b.frames[i].queued && b.frames[i].done) continue;
      if (Status st = Transfer(files.stream(), true, buf.get(), len, i * len, spec.path); !st.ok())
        return st;
    }
    if (Status st = platform::Flush(files.stream(), spec.path); !st.ok()) return st;
  }
  return Status::Ok();
}

}  // namespace dd
