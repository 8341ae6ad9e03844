// The workers of one phase and the loop that runs them (phase.h). Workers share nothing on the hot
// path: each has its own histogram, series, PRNG and progress counter, merged when the phase ends.
#include "engine/phase.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "engine/prng.h"

namespace dd {

namespace {

using platform::IoOp;
using platform::IoQueue;

constexpr int kReapTimeoutMs = -1;  // see AioQueue::Reap

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

}  // namespace

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

}  // namespace dd
