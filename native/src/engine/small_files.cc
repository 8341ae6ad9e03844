// The small-file test. Four passes over the set, each file one operation at a time, every
// operation timed on its own (NowNs around the one platform call):
//   1. create (open with create), write (the whole file, one transfer), fsync, close;
//   2. stat (by path, as a copy checks what it wrote);
//   3. open, read (the whole file) and close, timed together as "read" after "open";
//   4. delete.
// Writing every file before reading any keeps the reads from being served by what was just
// written; the cache mode is probed once (untimed) and each file is then opened as that probe was,
// so an open costs what an application's open costs. Whatever happens, every file created is
// removed before this returns.
#include "engine/small_files.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "engine/engine.h"
#include "engine/prng.h"
#include "platform/platform.h"

namespace dd {

namespace {

using Aligned = std::unique_ptr<void, void (*)(void*)>;

enum Op { kCreate, kWrite, kFsync, kClose, kStat, kOpen, kRead, kDelete, kOps };
const char* const kOpNames[kOps] = {"create", "write", "fsync", "close",
                                    "stat",   "open",  "read",  "delete"};

// Writes or reads all of len at offset 0 (a short transfer continues where it stopped).
Status Whole(platform::Handle h, bool write, void* buf, uint64_t len, const std::string& path) {
  uint64_t done = 0;
  auto* p = static_cast<unsigned char*>(buf);
  while (done < len) {
    size_t n = 0;
    Status st = write ? platform::WriteAt(h, p + done, len - done, done, &n)
                      : platform::ReadAt(h, p + done, len - done, done, &n);
    if (!st.ok()) {
      st.path = path;
      return st;
    }
    if (n == 0)
      return Status::Errno(
          write ? ENOSPC : EIO, write ? "write" : "read", path,
          "short " + std::string(write ? "write" : "read") + " at byte " + std::to_string(done));
    done += n;
  }
  return Status::Ok();
}

// Removes every file that may exist (indices below `made`), untimed; the first error is kept.
class Cleanup {
 public:
  explicit Cleanup(const std::string& path) : path_(path) {}
  ~Cleanup() { RemoveFrom(0); }
  void Made(uint64_t n) { made_ = std::max(made_, n); }
  // Files below `from` are already gone (the delete pass removed them).
  void RemoveFrom(uint64_t from) {
    for (uint64_t i = from; i < made_; ++i) platform::RemoveFile(SmallFilePath(path_, i));
    made_ = std::min(made_, from);
  }

 private:
  std::string path_;
  uint64_t made_ = 0;
};

}  // namespace

std::string SmallFilePath(const std::string& path, uint64_t index) {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%06llu", static_cast<unsigned long long>(index));
  return path + suffix;
}

SmallFilesOp SummarizeOp(const char* name, std::vector<uint64_t>* ns) {
  SmallFilesOp op;
  op.name = name;
  op.count = ns->size();
  if (ns->empty()) return op;
  std::sort(ns->begin(), ns->end());
  double sum = 0;
  for (uint64_t v : *ns) sum += v;
  // Nearest rank: the smallest sample with at least q of the samples at or below it.
  auto rank = [&](double q) {
    const size_t k = static_cast<size_t>(std::ceil(q * ns->size()));
    return (*ns)[k == 0 ? 0 : k - 1] / 1e6;
  };
  op.total_ms = sum / 1e6;
  op.mean_ms = op.total_ms / ns->size();
  op.p50_ms = rank(0.50);
  op.p99_ms = rank(0.99);
  op.max_ms = ns->back() / 1e6;
  return op;
}

Status RunSmallFiles(const Spec& spec, ProgressSink* sink, const std::atomic<bool>& cancel,
                     Result* res) {
  const uint64_t n = spec.small_files.files;
  const uint64_t len = spec.small_files.file_bytes;
  Cleanup cleanup(spec.path);

  // The probe (untimed): what this file system gives a file of this size, and its alignment.
  platform::OpenOptions oo;
  oo.write = true;
  oo.create = true;
  oo.uncached = spec.cache == CacheRequest::kAuto;
  oo.block = len;
  platform::OpenedFile probe;
  const std::string probe_path = spec.path + ".probe";
  if (Status st = platform::OpenFile(probe_path, oo, &probe); !st.ok()) return st;
  platform::CloseFile(probe.handle);
  platform::RemoveFile(probe_path);
  SetCacheMode(probe.mode, probe.note, probe.align.offset, spec.cache, res);
  const bool uncached = probe.mode == CacheMode::kDirect || probe.mode == CacheMode::kNoCache;
  const bool flushing = res->cache_mode != CacheMode::kBuffered;
  // Direct I/O moves whole aligned blocks: the buffer is the file rounded up to the alignment.
  const uint64_t align = std::max<uint32_t>(probe.align.offset, 1);
  const uint64_t io_len = uncached ? (len + align - 1) / align * align : len;
  Aligned buf(platform::AllocAligned(io_len, std::max<uint32_t>(probe.align.memory, 4096)),
              platform::FreeAligned);
  if (!buf) return Status::Errno(ENOMEM, "malloc", "", "could not allocate a file buffer");
  Prng(spec.seed).Fill(buf.get(), io_len);
  oo.like = &probe;

  std::vector<uint64_t> ns[kOps];
  for (auto& v : ns) v.reserve(n);
  std::vector<uint64_t> per_file(n, 0);
  uint64_t at = platform::NowNs();
  auto timed = [&](Op op, uint64_t i, auto&& call) -> Status {
    const uint64_t t0 = platform::NowNs();
    Status st = call();
    at = platform::NowNs();
    ns[op].push_back(at - t0);
    per_file[i] += at - t0;
    return st;
  };

  const uint64_t t_start = platform::NowNs();
  const uint64_t interval = static_cast<uint64_t>(spec.progress_interval_ms) * 1000000ULL;
  uint64_t last_report = t_start, last_bytes = 0, bytes_done = 0;
  const uint64_t bytes_total = 2 * n * len;
  auto report = [&] {
    if (!sink || at - last_report < interval) return;
    const double dt = (at - last_report) / 1e9, el = (at - t_start) / 1e9;
    sink->OnProgress({Phase::kRun, bytes_done, bytes_total, el, 0,
                      dt > 0 ? (bytes_done - last_bytes) / dt / 1e6 : 0.0,
                      el > 0 ? bytes_done / el / 1e6 : 0.0, 0, 0, 0, 0});
    last_report = at;
    last_bytes = bytes_done;
  };

  // 1. create, write, fsync, close.
  for (uint64_t i = 0; i < n && !cancel; ++i) {
    const std::string path = SmallFilePath(spec.path, i);
    platform::OpenedFile f;
    cleanup.Made(i + 1);
    if (Status st = timed(kCreate, i, [&] { return platform::OpenFile(path, oo, &f); }); !st.ok())
      return st;
    // Each file's data differs (its index in the first bytes): nothing can deduplicate it.
    std::memcpy(buf.get(), &i, std::min<uint64_t>(sizeof i, io_len));
    Status st = timed(kWrite, i, [&] { return Whole(f.handle, true, buf.get(), io_len, path); });
    if (st.ok() && io_len != len) st = platform::SetSize(f.handle, len, path);  // untimed
    if (st.ok() && flushing) st = timed(kFsync, i, [&] { return platform::Flush(f.handle, path); });
    // The page cache keeps nothing of a buffered file once it is flushed: its read is real.
    if (st.ok() && !uncached && flushing) st = platform::DropCache(f.handle, path);
    (void)timed(kClose, i, [&] {
      platform::CloseFile(f.handle);
      return Status::Ok();
    });
    if (!st.ok()) return st;
    bytes_done += len;
    report();
  }
  // 2. stat.
  for (uint64_t i = 0; i < n && !cancel; ++i) {
    const std::string path = SmallFilePath(spec.path, i);
    platform::FileInfo info;
    if (Status st = timed(kStat, i, [&] { return platform::StatPath(path, &info); }); !st.ok())
      return st;
    if (info.size != len)
      return Status::Errno(EIO, "stat", path,
                           "the file holds " + std::to_string(info.size) + " B, not " +
                               std::to_string(len) + " B as written");
  }
  // 3. open, read (and close, inside read: a reader's close is part of reading the file).
  platform::OpenOptions ro = oo;
  ro.write = false;
  ro.create = false;
  for (uint64_t i = 0; i < n && !cancel; ++i) {
    const std::string path = SmallFilePath(spec.path, i);
    platform::OpenedFile f;
    if (Status st = timed(kOpen, i, [&] { return platform::OpenFile(path, ro, &f); }); !st.ok())
      return st;
    Status st = timed(kRead, i, [&] {
      // Direct I/O reads whole blocks: the last one comes back short, at the end of the file.
      uint64_t got = 0;
      auto* p = static_cast<unsigned char*>(buf.get());
      while (got < len) {
        size_t k = 0;
        Status r = platform::ReadAt(f.handle, p + got, io_len - got, got, &k);
        if (!r.ok()) {
          r.path = path;
          platform::CloseFile(f.handle);
          return r;
        }
        if (k == 0) break;
        got += k;
      }
      platform::CloseFile(f.handle);
      if (got < len)
        return Status::Errno(EIO, "read", path, "short read at byte " + std::to_string(got));
      return Status::Ok();
    });
    if (!st.ok()) return st;
    bytes_done += len;
    report();
  }
  // 4. delete.
  uint64_t deleted = 0;
  for (uint64_t i = 0; i < n && !cancel; ++i) {
    const std::string path = SmallFilePath(spec.path, i);
    if (Status st = timed(kDelete, i, [&] { return platform::RemoveFile(path); }); !st.ok())
      return st;
    deleted = i + 1;
  }
  cleanup.RemoveFrom(deleted);
  res->cancelled = cancel.load();

  SmallFilesResult& out = res->small_files;
  out.file_bytes = len;
  out.files = ns[kDelete].size();
  std::vector<uint64_t> whole(per_file.begin(), per_file.begin() + out.files);
  for (int op = 0; op < kOps; ++op) out.ops.push_back(SummarizeOp(kOpNames[op], &ns[op]));
  double write_ms = 0, read_ms = 0, all_ms = 0;
  for (const SmallFilesOp& op : out.ops) {
    all_ms += op.total_ms;
    if (op.name == "create" || op.name == "write" || op.name == "fsync" || op.name == "close")
      write_ms += op.total_ms;
    if (op.name == "open" || op.name == "read") read_ms += op.total_ms;
  }
  const SmallFilesOp file = SummarizeOp("file", &whole);
  out.seconds = all_ms / 1e3;
  out.files_per_s = out.seconds > 0 ? out.files / out.seconds : 0;
  out.ms_per_file = out.files > 0 ? all_ms / out.files : 0;
  out.file_p50_ms = file.p50_ms;
  out.file_p99_ms = file.p99_ms;
  const double written = static_cast<double>(ns[kWrite].size()) * len;
  const double read = static_cast<double>(ns[kRead].size()) * len;
  out.write_mbps = write_ms > 0 ? written / (write_ms / 1e3) / 1e6 : 0;
  out.read_mbps = read_ms > 0 ? read / (read_ms / 1e3) / 1e6 : 0;

  res->bytes_written = static_cast<uint64_t>(written);
  res->bytes_read = static_cast<uint64_t>(read);
  res->bytes = res->bytes_written + res->bytes_read;
  res->ios = ns[kWrite].size() + ns[kRead].size();
  res->seconds = out.seconds;
  res->mbps = res->seconds > 0 ? res->bytes / res->seconds / 1e6 : 0;
  res->iops = out.files_per_s;
  // The latency figures are whole files' times (every operation of one file), µs.
  auto at_rank = [&](double q) {
    const size_t k = static_cast<size_t>(std::ceil(q * whole.size()));
    return whole.empty() ? 0.0 : whole[k == 0 ? 0 : k - 1] / 1e3;
  };
  res->latency = {whole.empty() ? 0.0 : whole.front() / 1e3,
                  file.mean_ms * 1e3,
                  at_rank(0.5),
                  at_rank(0.9),
                  at_rank(0.99),
                  at_rank(0.999),
                  file.max_ms * 1e3};
  res->io_engine = "small files, one at a time";
  return Status::Ok();
}

}  // namespace dd
