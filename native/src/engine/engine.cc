// The engine's I/O loop. A test is a sequence of phases (prepare, warm-up, run, flush); each phase
// runs `threads` workers, each keeping `qd` I/Os in flight on an IoQueue, while the calling (job)
// thread reports progress. Workers share nothing on the hot path: each has its own histogram,
// series, PRNG and progress counter, merged when the phase ends.
#include "engine/engine.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/histogram.h"
#include "engine/paced.h"
#include "engine/prng.h"
#include "engine/series.h"
#include "engine/small_files.h"
#include "engine/verify_block.h"
#include "platform/platform.h"

namespace dd {

const char* const kEngineVersion = "0.7.0";

namespace {

using platform::IoOp;
using platform::IoQueue;

constexpr uint64_t kUnbounded = UINT64_MAX / 2;
constexpr uint64_t kLayoutBlock = 1 << 20;
constexpr int kReapTimeoutMs = -1;  // see AioQueue::Reap

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

struct alignas(64) Worker {
  explicit Worker(uint64_t series_ns) : series(series_ns) {}
  Histogram hist;
  Series series;
  uint64_t ios = 0, bytes_read = 0, bytes_written = 0;
  uint64_t last_ns = 0;
  std::atomic<uint64_t> progress{0};  // written by this worker only
  Status err;
  std::string io_engine;
  VerifyTally verify;  // reads under Pattern::kVerify
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

class AlignedBuffers {
 public:
  AlignedBuffers(size_t count, size_t size, size_t align) {
    for (size_t i = 0; i < count; ++i) {
      void* p = platform::AllocAligned(size, align);
      if (!p) break;
      // Touch every page now, in untimed setup: fresh memory is only mapped on first use, and a
      // direct read into untouched pages makes the kernel fault and zero them inside the timed
      // region (fio fills its buffers before its first I/O too).
      std::memset(p, 0, size);
      bufs_.push_back(p);
    }
    ok_ = bufs_.size() == count;
  }
  ~AlignedBuffers() {
    for (void* p : bufs_) platform::FreeAligned(p);
  }
  AlignedBuffers(const AlignedBuffers&) = delete;
  AlignedBuffers& operator=(const AlignedBuffers&) = delete;
  bool ok() const { return ok_; }
  void* operator[](size_t i) const { return bufs_[i]; }

 private:
  std::vector<void*> bufs_;
  bool ok_ = false;
};

// Large random-data writes are the one case worth async I/O at queue depth 1: the next buffer is
// generated while the write is in flight. Otherwise a plain pread/pwrite is the cheapest QD1
// (measured: kernel AIO costs ~15 % of RND4K Q1T1 read IOPS here).
constexpr uint64_t kOverlapFillBs = 64 * 1024;

std::unique_ptr<IoQueue> MakeQueue(const Shared& sh, const Job& job) {
  const bool overlap_fill =
      IsWrite(job.rw) && job.pattern != Pattern::kZeros && job.bs >= kOverlapFillBs;
  if (job.qd == 1 && !overlap_fill) return platform::MakeSyncQueue(sh.handle);
  Status ignored;
  if (auto q = platform::MakeNativeQueue(sh.handle, sh.mode, job.qd, &ignored)) return q;
  if (job.qd == 1) return platform::MakeSyncQueue(sh.handle);
  return platform::MakeThreadedQueue(sh.handle, job.qd);
}

void RunWorker(Shared& sh, const Job& job, uint32_t index, Worker& w) {
  // Sequential jobs give each thread its own slice of the file; random ones use all of it.
  const uint64_t blocks = job.region / job.bs;
  const uint64_t slice_blocks = IsRandom(job.rw) ? blocks : blocks / job.threads;
  const uint64_t slice_start = IsRandom(job.rw) ? 0 : index * slice_blocks * job.bs;
  const uint64_t slice_len = slice_blocks * job.bs;
  uint64_t budget = job.bytes / job.threads;
  budget -= budget % job.bs;
  if (index == job.threads - 1 && job.bytes < kUnbounded) {
    uint64_t rest = job.bytes - budget * job.threads;
    budget += rest - rest % job.bs;
  }

  // One buffer more than the queue depth: the next write's data is generated while the queue is
  // full, so refilling every buffer with fresh random data costs no time between I/Os.
  const uint32_t nbuf = job.qd + 1;
  AlignedBuffers bufs(nbuf, job.bs, std::max<uint32_t>(sh.mem_align, 4096));
  Prng prng(job.seed + 0x9e3779b97f4a7c15ULL * (index + 1));
  const bool writes = IsWrite(job.rw);
  std::unique_ptr<IoQueue> q;
  std::vector<IoOp> ops(nbuf);
  std::vector<IoOp*> free_ops, done(job.qd);
  if (bufs.ok()) {
    for (uint32_t i = 0; i < nbuf; ++i) {
      if (job.pattern == Pattern::kZeros) std::memset(bufs[i], 0, job.bs);
      ops[i].buf = bufs[i];
      ops[i].len = static_cast<uint32_t>(job.bs);
      free_ops.push_back(&ops[i]);
    }
    q = MakeQueue(sh, job);
    w.io_engine = q->name();
  } else {
    w.err = Status::Errno(ENOMEM, "malloc", "", "could not allocate I/O buffers");
    sh.stop = true;
  }
  {
    std::unique_lock<std::mutex> lk(sh.mu);
    ++sh.ready;
    sh.cv.notify_all();
    sh.cv.wait(lk, [&] { return sh.go; });
  }
  if (!q) return;

  uint64_t submitted = 0, cursor = 0;
  uint32_t inflight = 0;
  auto stopping = [&](uint64_t now) {
    return sh.stop.load(std::memory_order_relaxed) || sh.cancel->load(std::memory_order_relaxed) ||
           (sh.deadline && now >= sh.deadline);
  };
  auto fail = [&](Status st) {
    if (w.err.ok()) w.err = std::move(st);
    sh.stop = true;
  };
  // Takes a free buffer and makes it the next I/O: direction, offset, and fresh data to write.
  auto prepare = [&]() -> IoOp* {
    IoOp* op = free_ops.back();
    free_ops.pop_back();
    op->write = IsMixed(job.rw) ? prng.Below(100) >= job.rwmixread : writes;
    if (IsRandom(job.rw)) {
      op->off = slice_start + prng.Below(slice_blocks) * job.bs;
    } else {
      op->off = slice_start + cursor;
      cursor += job.bs;
      if (cursor >= slice_len) cursor = 0;
    }
    if (op->write && job.pattern == Pattern::kRandom) prng.Fill(op->buf, job.bs);
    if (op->write && job.pattern == Pattern::kVerify)
      FillVerifyBlocks(op->buf, job.bs, job.seed, job.verify_base + op->off / kVerifyBlock);
    op->off += job.base;
    submitted += job.bs;
    return op;
  };
  IoOp* next = nullptr;  // prepared, not yet submitted
  uint64_t now = platform::NowNs();

  for (;;) {
    // Top the queue up. Like fio's default (iodepth_batch_submit=1), each I/O is submitted on its
    // own: a batch is held back by the block layer's plug until the whole batch is in, which
    // measurably lowers the real queue occupancy at high depths.
    while (inflight < job.qd && !stopping(now)) {
      if (!next) {
        if (submitted >= budget || free_ops.empty()) break;
        next = prepare();
      }
      IoOp* one = next;
      one->submit_ns = now = platform::NowNs();
      const int r = q->Submit(&one, 1);
      if (r < 0) {
        fail(Status::Errno(-r, "io_submit", sh.path));
        break;
      }
      if (r == 0) break;  // the queue is full: reap first
      next = nullptr;
      ++inflight;
    }
    // Generate the following I/O's data now, while the queue is busy.
    if (!next && submitted < budget && !free_ops.empty() && !stopping(now)) next = prepare();
    if (inflight == 0) break;

    const int n = q->Reap(done.data(), 1, static_cast<int>(job.qd), kReapTimeoutMs);
    now = platform::NowNs();
    if (n < 0) {
      fail(Status::Errno(-n, "io_getevents", sh.path));
      break;  // the queue's destructor waits for what is still in flight
    }
    for (int i = 0; i < n; ++i) {
      IoOp* op = done[i];
      --inflight;
      free_ops.push_back(op);
      if (op->result < 0) {
        fail(Status::Errno(static_cast<int>(-op->result), op->write ? "write" : "read", sh.path));
        continue;
      }
      if (static_cast<uint64_t>(op->result) != op->len) {
        const int e = op->write ? ENOSPC : EIO;
        fail(Status::Errno(e, op->write ? "write" : "read", sh.path,
                           "short " + std::string(op->write ? "write" : "read") + ": " +
                               std::to_string(op->result) + " of " + std::to_string(op->len) +
                               " bytes"));
        continue;
      }
      // Checked here, while the queue's other I/Os are in flight: the check hides behind them.
      if (!op->write && job.pattern == Pattern::kVerify)
        w.verify.Check(op->buf, op->len, job.seed,
                       job.verify_base + (op->off - job.base) / kVerifyBlock);
      w.hist.Record(now - op->submit_ns);
      w.series.Add(now - sh.t0, op->len);
      ++w.ios;
      (op->write ? w.bytes_written : w.bytes_read) += op->len;
      w.progress.store(w.progress.load(std::memory_order_relaxed) + op->len,
                       std::memory_order_relaxed);
    }
    w.last_ns = now;
  }
}

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
                PhaseResult* out) {
  std::vector<std::unique_ptr<Worker>> workers;
  for (uint32_t i = 0; i < job.threads; ++i)
    workers.push_back(std::make_unique<Worker>(job.series_ns));
  std::mutex mu;
  std::condition_variable cv;
  uint32_t finished = 0;

  sh.stop = false;
  sh.ready = 0;
  sh.go = false;
  std::vector<std::thread> threads;
  for (uint32_t i = 0; i < job.threads; ++i) {
    threads.emplace_back([&, i] {
      RunWorker(sh, job, i, *workers[i]);
      std::lock_guard<std::mutex> lk(mu);
      ++finished;
      cv.notify_one();
    });
  }

  {
    std::unique_lock<std::mutex> lk(sh.mu);
    sh.cv.wait(lk, [&] { return sh.ready == job.threads; });
    sh.t0 = platform::NowNs();
    sh.deadline = job.seconds > 0 ? sh.t0 + static_cast<uint64_t>(job.seconds * 1e9) : 0;
    sh.go = true;
  }
  sh.cv.notify_all();

  const uint64_t budget = job.bytes >= kUnbounded ? 0 : job.bytes;
  const double secs_total = job.seconds;
  uint64_t last_bytes = 0, last_t = sh.t0;
  auto report = [&](uint64_t now) {
    if (!sink) return;
    uint64_t sum = 0;
    for (auto& w : workers) sum += w->progress.load(std::memory_order_relaxed);
    const double dt = (now - last_t) / 1e9, total = (now - sh.t0) / 1e9;
    Progress p{phase,
               sum,
               budget,
               total,
               secs_total,
               dt > 0 ? (sum - last_bytes) / dt / 1e6 : 0.0,
               total > 0 ? sum / total / 1e6 : 0.0,
               0,
               0,
               0,
               0};
    sink->OnProgress(p);
    last_bytes = sum;
    last_t = now;
  };
  {
    std::unique_lock<std::mutex> lk(mu);
    while (finished < job.threads) {
      if (cv.wait_for(lk, std::chrono::milliseconds(interval_ms),
                      [&] { return finished == job.threads; }))
        break;
      lk.unlock();
      report(platform::NowNs());
      lk.lock();
    }
  }
  for (auto& t : threads) t.join();

  out->t0 = sh.t0;
  out->end = sh.t0;
  Status first;
  for (auto& w : workers) {
    out->hist.Merge(w->hist);
    out->series.Merge(w->series);
    out->ios += w->ios;
    out->bytes_read += w->bytes_read;
    out->bytes_written += w->bytes_written;
    out->end = std::max(out->end, w->last_ns);
    if (out->io_engine.empty()) out->io_engine = w->io_engine;
    out->verify.Merge(w->verify);
    if (first.ok() && !w->err.ok()) first = w->err;
  }
  report(platform::NowNs());
  return first;
}

uint64_t LayoutBlock(const Spec& spec) {
  uint64_t b = spec.bs;
  while (b * 2 <= kLayoutBlock && spec.file_size % (b * 2) == 0) b *= 2;
  return b;
}

class FileGuard {
 public:
  FileGuard(platform::Handle h, std::string path) : h_(h), path_(std::move(path)) {}
  ~FileGuard() {
    platform::CloseFile(h_);
    if (!keep_) platform::RemoveFile(path_);
  }
  void Keep() { keep_ = true; }

 private:
  platform::Handle h_;
  std::string path_;
  bool keep_ = false;
};

}  // namespace

void SetCacheMode(CacheMode opened, const std::string& note, uint32_t alignment, CacheRequest asked,
                  Result* res) {
  const bool uncached = opened == CacheMode::kDirect || opened == CacheMode::kNoCache;
  res->cache_mode = uncached                           ? opened
                    : asked == CacheRequest::kBuffered ? CacheMode::kBuffered
                                                       : CacheMode::kBufferedFlushed;
  res->cache_note = note;
  if (asked != CacheRequest::kAuto && res->cache_note.empty())
    res->cache_note = std::string(CacheRequestName(asked)) + " I/O was requested";
  res->alignment = alignment;
}

Status RunTest(const Spec& spec_in, ProgressSink* sink, const std::atomic<bool>& cancel,
               Result* res) {
  Spec spec = spec_in;
  if (Status st = Normalize(&spec); !st.ok()) return st;
  res->spec = spec;
  res->cancelled = false;
  if (IsPaced(spec)) return RunPaced(spec, sink, cancel, res);
  if (IsSmallFiles(spec)) return RunSmallFiles(spec, sink, cancel, res);

  platform::OpenOptions oo;
  oo.write = true;  // the file is ours: it may need laying out even for a read test
  oo.create = !spec.device;
  oo.device = spec.device;
  oo.uncached = spec.cache == CacheRequest::kAuto;
  oo.block = spec.bs;
  platform::OpenedFile f;
  if (Status st = platform::OpenFile(spec.path, oo, &f); !st.ok()) return st;
  FileGuard guard(f.handle, spec.path);
  if (spec.device) {
    guard.Keep();  // a device is never removed
    uint64_t dev = 0;
    if (Status st = platform::GetSize(f.handle, &dev, spec.path); !st.ok()) return st;
    dev -= dev % spec.bs;
    if (spec.offset >= dev)
      return Status::Invalid(spec.path + " ends before the offset " + std::to_string(spec.offset));
    const uint64_t room = dev - spec.offset;
    if (spec_in.file_size == 0 || spec.file_size > room) {
      if (room < spec.bs * spec.threads)
        return Status::Invalid(spec.path + " is smaller than one block of the test");
      spec.file_size = room;
      if (spec_in.bytes == 0 && spec.seconds == 0) spec.bytes = room;
    }
    res->spec = spec;
  }

  SetCacheMode(f.mode, f.note, f.align.offset, spec.cache, res);
  const bool flushing = res->cache_mode != CacheMode::kBuffered;

  Shared sh;
  sh.handle = f.handle;
  sh.mode = f.mode;
  sh.mem_align = f.align.memory;
  sh.path = spec.path;
  sh.cancel = &cancel;
  const uint64_t series_ns = static_cast<uint64_t>(spec.series_interval_ms) * 1000000ULL;

  auto make_job = [&](Rw rw, uint64_t bs, uint32_t qd, uint32_t threads, uint64_t bytes,
                      double seconds) {
    return Job{rw,
               bs,
               qd,
               threads,
               spec.file_size,
               bytes,
               seconds,
               spec.pattern,
               spec.rwmixread,
               spec.seed,
               series_ns,
               spec.verify_base,
               spec.offset};
  };
  auto flush_and_drop = [&]() -> Status {
    if (Status st = platform::Flush(f.handle, spec.path); !st.ok()) return st;
    if (res->cache_mode == CacheMode::kBufferedFlushed) platform::DropCache(f.handle, spec.path);
    return Status::Ok();
  };

  // Prepare: reads need a file of real data; writes get a file of the right size to write into.
  const uint64_t prep0 = platform::NowNs();
  uint64_t size = 0;
  if (Status st = platform::GetSize(f.handle, &size, spec.path); !st.ok()) return st;
  if (spec.device) {
    // A device is as big as it is: nothing to lay out or resize.
  } else if (spec.pattern == Pattern::kVerify && IsRead(spec.rw) && size < spec.file_size) {
    // Laying the file out would write fresh blocks and "verify" them: say what is missing.
    return Status::Errno(EIO, "", spec.path,
                         spec.path + " is " + std::to_string(size) + " B, shorter than the " +
                             std::to_string(spec.file_size) + " B that were written to it");
  } else if (IsRead(spec.rw) && size < spec.file_size) {
    PhaseResult pr;
    Job layout = make_job(Rw::kWrite, LayoutBlock(spec), 4, 1, spec.file_size, 0);
    if (Status st = RunPhase(sh, layout, Phase::kPrepare, spec.progress_interval_ms, sink, &pr);
        !st.ok())
      return st;
    if (cancel) {
      res->cancelled = true;
      return Status::Ok();
    }
    if (Status st = flush_and_drop(); !st.ok()) return st;
  } else if (size < spec.file_size) {
    if (Status st = platform::SetSize(f.handle, spec.file_size, spec.path); !st.ok()) return st;
  }
  res->prepare_seconds = (platform::NowNs() - prep0) / 1e9;

  if (spec.warmup_seconds > 0) {
    PhaseResult pr;
    Job warm = make_job(spec.rw, spec.bs, spec.qd, spec.threads, kUnbounded, spec.warmup_seconds);
    if (Status st = RunPhase(sh, warm, Phase::kWarmup, spec.progress_interval_ms, sink, &pr);
        !st.ok())
      return st;
    res->warmup_seconds = (pr.end - pr.t0) / 1e9;
    if (cancel) {
      res->cancelled = true;
      return Status::Ok();
    }
  }
  if (res->cache_mode == CacheMode::kBufferedFlushed && IsRead(spec.rw)) {
    if (Status st = flush_and_drop(); !st.ok()) return st;
  }

  PhaseResult pr;
  pr.series = Series(series_ns);
  Job run = make_job(spec.rw, spec.bs, spec.qd, spec.threads, spec.bytes, spec.seconds);
  if (Status st = RunPhase(sh, run, Phase::kRun, spec.progress_interval_ms, sink, &pr); !st.ok())
    return st;
  uint64_t end = std::max(pr.end, pr.t0 + 1);
  res->cancelled = cancel.load();
  if (IsWrite(spec.rw) && flushing && !res->cancelled) {
    // The flush is part of the write: without it the figure would include the drive's cache.
    const uint64_t f0 = platform::NowNs();
    if (sink) sink->OnProgress({Phase::kFlush, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    if (Status st = platform::Flush(f.handle, spec.path); !st.ok()) return st;
    const uint64_t f1 = platform::NowNs();
    res->flush_seconds = (f1 - f0) / 1e9;
    end += f1 - f0;
  }

  const uint64_t total_ns = end - pr.t0;
  res->seconds = total_ns / 1e9;
  res->bytes_read = pr.bytes_read;
  res->bytes_written = pr.bytes_written;
  res->bytes = pr.bytes_read + pr.bytes_written;
  res->ios = pr.ios;
  res->mbps = res->bytes / res->seconds / 1e6;
  res->iops = pr.ios / res->seconds;
  res->latency = {pr.hist.min() / 1e3,
                  pr.hist.mean() / 1e3,
                  pr.hist.Percentile(0.50) / 1e3,
                  pr.hist.Percentile(0.90) / 1e3,
                  pr.hist.Percentile(0.99) / 1e3,
                  pr.hist.Percentile(0.999) / 1e3,
                  pr.hist.max() / 1e3};
  for (const Histogram::Bucket& b : pr.hist.NonEmpty())
    res->latency_buckets.push_back({b.lower_ns, b.width_ns, b.count});
  res->latency_min_ns = pr.hist.min();
  res->latency_max_ns = pr.hist.max();
  res->series = pr.series.Points(pr.end > pr.t0 ? pr.end - pr.t0 : 0);
  res->io_engine = pr.io_engine;
  if (spec.pattern == Pattern::kVerify && IsRead(spec.rw)) res->verify = pr.verify;
  if (spec.keep_file && !res->cancelled) guard.Keep();
  return Status::Ok();
}

}  // namespace dd
