// A test from its spec: the file opened (or laid out), then its phases in turn (prepare, warm-up,
// run; phase.h runs each), the flush, and the result; paced and small-file specs go to their own
// loops. The calling (job) thread reports progress.
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
#include "engine/phase.h"
#include "engine/prng.h"
#include "engine/series.h"
#include "engine/small_files.h"
#include "engine/verify_block.h"
#include "platform/platform.h"

namespace dd {

const char* const kEngineVersion = "0.7.0";

namespace {

constexpr uint64_t kLayoutBlock = 1 << 20;

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
