// The Hash test's three measurements. Every mode runs its work on threads of its own, which set
// up untimed (buffers allocated and touched, hashers created) and start together at t0, while the
// calling (job) thread reports progress; the hot loops share nothing but one atomic counter each.
//
// read and read-hash use the same reader — sequential, one chunk at a time (queue depth 1), from
// offset 0 to the end, uncached where the file system allows — so the two figures differ by the
// hashing alone. In read-hash the reader fills `buffers` chunks of a ring that the hasher drains;
// who waits for whom says where the bottleneck is: the reader waiting for a free chunk means the
// hasher (the CPU) is behind, the hasher waiting for data means the storage is.
#include "engine/hash.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/crew.h"
#include "engine/memory_streams.h"
#include "platform/crypto.h"
#include "platform/platform.h"

namespace dd {

namespace {

// A thread blocked on the ring re-checks the cancel flag this often.
constexpr auto kWaitSlice = std::chrono::milliseconds(20);
// memory: one update is at most this long, so a stream's clock check (every 256 KiB) is never
// far apart.
constexpr size_t kMemoryPiece = 1 << 20;

// Turns a running byte count into HashProgress.
class Reporter {
 public:
  Reporter(HashProgressSink* sink, HashMode mode, uint64_t total, double seconds_total)
      : sink_(sink), mode_(mode), total_(total), seconds_total_(seconds_total) {}
  void Report(uint64_t now, uint64_t t0, uint64_t done) {
    if (!sink_) return;
    const Rates r = meter_.At(now, t0, done);
    sink_->OnProgress({mode_, done, total_, r.elapsed, seconds_total_, r.inst_mbps, r.avg_mbps});
  }

 private:
  HashProgressSink* sink_;
  HashMode mode_;
  uint64_t total_;
  double seconds_total_;
  RateMeter meter_;
};

// Plain words instead of open(2)'s "illegal operation on a directory" (or, on Windows, a bare
// access denied): the user picked the wrong thing, nothing failed.
Status FolderError(const std::string& path) {
  return Status::Errno(EISDIR, "", path, path + " is a folder, not a file");
}

// The file being read, opened read-only, with the chunk size rounded to its alignment.
struct Source {
  platform::Handle handle = platform::kInvalidHandle;
  std::string path;
  uint64_t size = 0;
  uint64_t chunk = 0;
  uint32_t align = 4096;      // file offsets and lengths
  uint32_t mem_align = 4096;  // buffer addresses

  Source() = default;
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
  ~Source() { platform::CloseFile(handle); }
};

Status OpenSource(const HashSpec& spec, HashResult* res, Source* src) {
  platform::OpenOptions oo;  // read-only, never created: the defaults
  oo.uncached = spec.cache == HashCache::kAuto;
  oo.block = 0;  // the chunk is rounded up to the alignment below
  oo.follow_links = spec.follow_links;
  platform::OpenedFile f;
  if (Status st = platform::OpenFile(spec.path, oo, &f); !st.ok())
    return st.err == EISDIR ? FolderError(spec.path) : st;
  src->handle = f.handle;
  src->path = spec.path;

  platform::FileInfo info;
  if (Status st = platform::StatFile(f.handle, spec.path, &info); !st.ok()) return st;
  if (info.folder) return FolderError(spec.path);
  if (!info.regular)
    return Status::Errno(EINVAL, "", spec.path,
                         spec.path + " is not a regular file (a device, pipe or socket)");
  src->size = info.size;
  src->align = std::max<uint32_t>(f.align.offset, 1);
  src->mem_align = std::max<uint32_t>(f.align.memory, 4096);
  src->chunk = (spec.chunk_bytes + src->align - 1) / src->align * src->align;

  const bool uncached = f.mode == CacheMode::kDirect || f.mode == CacheMode::kNoCache;
  if (uncached) {
    res->cache_mode = f.mode;
  } else if (spec.cache == HashCache::kBuffered) {
    res->cache_mode = CacheMode::kBuffered;
    res->cache_note = "buffered I/O was requested";
  } else {
    // Uncached I/O was refused: read through the cache, but not from it. Dropping the file's
    // clean pages (POSIX_FADV_DONTNEED) changes nothing in the file.
    res->cache_mode = CacheMode::kBufferedFlushed;
    res->cache_note =
        spec.cache == HashCache::kBufferedFlushed ? "buffered-flushed was requested" : f.note;
    if (Status st = platform::DropCache(f.handle, spec.path); !st.ok())
      res->cache_note += "; dropping the file's cached pages failed (" + st.message() + ")";
  }
  res->alignment = src->align;
  res->chunk_bytes = src->chunk;
  return Status::Ok();
}

// What the reader did, written by the reader only.
struct ReaderState {
  std::atomic<uint64_t> progress{0};
  uint64_t bytes = 0;
  uint64_t end_ns = 0;
  Status err;
};

// Reads the file from offset 0 to its end, a chunk at a time: `acquire` gives the buffer to read
// into (null: stop, the other side failed), `publish(buf, n, eof)` hands over what was read. A
// short read at an unaligned length is the end of the file (direct I/O cannot go on from there); a
// read of 0 bytes is too.
template <class Acquire, class Publish>
void ReadLoop(const Source& src, const std::atomic<bool>& cancel, ReaderState* rs, Acquire acquire,
              Publish publish) {
  uint64_t off = 0;
  while (!cancel.load(std::memory_order_relaxed)) {
    void* buf = acquire();
    if (!buf) break;
    size_t n = 0;
    Status st = platform::ReadAt(src.handle, buf, src.chunk, off, &n);
    if (!st.ok()) {
      st.path = src.path;
      st.detail = "at byte " + std::to_string(off);
      rs->err = st;
      break;
    }
    bool eof = n == 0;
    if (n > 0 && n < src.chunk && (off + n) % src.align != 0) {
      platform::FileInfo now;
      const uint64_t size = platform::StatFile(src.handle, src.path, &now).ok() ? now.size : 0;
      if (off + n < std::min(size, src.size)) {
        rs->err =
            Status::Errno(EIO, "read", src.path,
                          "short read mid-file: " + std::to_string(n) + " of " +
                              std::to_string(src.chunk) + " bytes at byte " + std::to_string(off));
        break;
      }
      eof = true;
    }
    off += n;
    rs->bytes = off;
    rs->progress.store(off, std::memory_order_relaxed);
    publish(buf, n, eof);
    if (eof) break;
  }
  rs->end_ns = platform::NowNs();
}

// The chunks between the reader and the hasher: a fixed ring of aligned buffers, a mutex and two
// condition variables (one hand-off per chunk, negligible next to a chunk's read or hash).
class Ring {
 public:
  Ring(uint32_t n, size_t chunk, size_t align, const std::atomic<bool>& cancel)
      : lens_(n), cancel_(cancel) {
    for (uint32_t i = 0; i < n; ++i) {
      bufs_.push_back(std::make_unique<AlignedBuffer>(chunk, align));
      if (!bufs_.back()->get()) return;
    }
    ok_ = true;
  }
  bool ok() const { return ok_; }

  // Reader: the next free chunk, waiting while all are full; null when stopping.
  void* Free(uint64_t* waited_ns) {
    std::unique_lock<std::mutex> lk(mu_);
    auto ready = [&] { return count_ < bufs_.size() || stop_ || cancel_.load(); };
    if (!ready()) {
      const uint64_t w0 = platform::NowNs();
      while (!not_full_.wait_for(lk, kWaitSlice, ready)) {
      }
      *waited_ns += platform::NowNs() - w0;
    }
    if (stop_ || cancel_.load()) return nullptr;
    return bufs_[head_]->get();
  }
  // Reader: the chunk from Free() now holds n bytes; eof: nothing follows.
  void Push(size_t n, bool eof) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (n > 0) {
        lens_[head_] = n;
        head_ = (head_ + 1) % bufs_.size();
        ++count_;
      }
      eof_ = eof_ || eof;
    }
    not_empty_.notify_one();
  }
  // Hasher: the oldest filled chunk, waiting while none is; false at the end or when stopping.
  bool Next(const void** buf, size_t* len, uint64_t* waited_ns) {
    std::unique_lock<std::mutex> lk(mu_);
    auto ready = [&] { return count_ > 0 || eof_ || stop_ || cancel_.load(); };
    if (!ready()) {
      const uint64_t w0 = platform::NowNs();
      while (!not_empty_.wait_for(lk, kWaitSlice, ready)) {
      }
      *waited_ns += platform::NowNs() - w0;
    }
    if (stop_ || cancel_.load() || count_ == 0) return false;
    *buf = bufs_[tail_]->get();
    *len = lens_[tail_];
    return true;
  }
  // Hasher: done with the chunk from Next().
  void Pop() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      tail_ = (tail_ + 1) % bufs_.size();
      --count_;
    }
    not_full_.notify_one();
  }
  // Either side failed: wake and stop the other.
  void Stop() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    not_full_.notify_all();
    not_empty_.notify_all();
  }
  // Whether the hasher has consumed everything the reader will ever publish.
  bool Drained() {
    std::lock_guard<std::mutex> lk(mu_);
    return eof_ && count_ == 0;
  }

 private:
  std::vector<std::unique_ptr<AlignedBuffer>> bufs_;
  std::vector<size_t> lens_;
  const std::atomic<bool>& cancel_;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  size_t head_ = 0, tail_ = 0, count_ = 0;
  bool eof_ = false, stop_ = false, ok_ = false;
};

Status HashFailed(HashAlgo algo) {
  return Status::Errno(
      EIO, "", "", std::string("the crypto library failed while computing ") + HashAlgoName(algo));
}

void Finish(HashResult* res, uint64_t t0, uint64_t end, uint64_t bytes) {
  const uint64_t ns = std::max<uint64_t>(end > t0 ? end - t0 : 0, 1);
  res->bytes = bytes;
  res->seconds = ns / 1e9;
  res->mbps = bytes / res->seconds / 1e6;
}

Status RunRead(const HashSpec& spec, HashProgressSink* sink, const std::atomic<bool>& cancel,
               HashResult* res) {
  Source src;
  if (Status st = OpenSource(spec, res, &src); !st.ok()) return st;

  ReaderState rs;
  Crew crew;
  Reporter reporter(sink, spec.mode, src.size, 0);
  auto reader = [&] {
    AlignedBuffer buf(src.chunk, src.mem_align);
    if (!buf.get())
      rs.err = Status::Errno(ENOMEM, "malloc", "", "could not allocate a read buffer");
    crew.Ready();
    if (!buf.get()) return;
    ReadLoop(
        src, cancel, &rs, [&] { return buf.get(); }, [](void*, size_t, bool) {});
  };
  crew.Run({reader}, spec.progress_interval_ms,
           [&](uint64_t now) { reporter.Report(now, crew.t0(), rs.progress.load()); });

  if (!rs.err.ok()) return rs.err;
  res->cancelled = cancel.load();
  Finish(res, crew.t0(), rs.end_ns, rs.bytes);
  return Status::Ok();
}

Status RunReadHash(const HashSpec& spec, HashProgressSink* sink, const std::atomic<bool>& cancel,
                   HashResult* res) {
  Source src;
  if (Status st = OpenSource(spec, res, &src); !st.ok()) return st;

  ReaderState rs;
  Ring ring(spec.buffers, src.chunk, src.mem_align, cancel);
  if (!ring.ok()) return Status::Errno(ENOMEM, "malloc", "", "could not allocate the read buffers");
  Status hasher_err;
  std::unique_ptr<platform::Hasher> hasher = platform::MakeHasher(spec.algo, &hasher_err);
  if (!hasher) return hasher_err;

  std::atomic<uint64_t> hashed{0};
  uint64_t reader_wait = 0, hasher_wait = 0, hasher_end = 0;
  std::string digest;
  Crew crew;
  Reporter reporter(sink, spec.mode, src.size, 0);
  auto reader = [&] {
    crew.Ready();
    ReadLoop(
        src, cancel, &rs, [&] { return ring.Free(&reader_wait); },
        [&](void*, size_t n, bool eof) { ring.Push(n, eof); });
    if (!rs.err.ok()) ring.Stop();
  };
  auto hash_chunks = [&] {
    crew.Ready();
    const void* buf;
    size_t len;
    uint64_t done = 0;
    while (ring.Next(&buf, &len, &hasher_wait)) {
      if (!hasher->Update(buf, len)) {
        hasher_err = HashFailed(spec.algo);
        ring.Stop();
        break;
      }
      ring.Pop();
      done += len;
      hashed.store(done, std::memory_order_relaxed);
    }
    if (hasher_err.ok() && ring.Drained()) {
      digest = hasher->FinalHex();
      if (digest.empty()) hasher_err = HashFailed(spec.algo);
    }
    hasher_end = platform::NowNs();
  };
  crew.Run({reader, hash_chunks}, spec.progress_interval_ms,
           [&](uint64_t now) { reporter.Report(now, crew.t0(), hashed.load()); });

  if (!rs.err.ok()) return rs.err;
  if (!hasher_err.ok()) return hasher_err;
  res->cancelled = cancel.load();
  if (!res->cancelled) res->digest = digest;
  res->reader_wait_seconds = reader_wait / 1e9;
  res->hasher_wait_seconds = hasher_wait / 1e9;
  Finish(res, crew.t0(), std::max(hasher_end, rs.end_ns), hashed.load());
  return Status::Ok();
}

// One memory stream's work: its own hasher over its buffer, a piece at a time, wrapping around.
class HashStream {
 public:
  HashStream(HashAlgo algo, std::unique_ptr<platform::Hasher> hasher)
      : algo_(algo), hasher_(std::move(hasher)) {}
  size_t Step(unsigned char* data, size_t len, Status* err) {
    const size_t n = std::min(len - pos_, kMemoryPiece);
    if (!hasher_->Update(data + pos_, n)) {
      *err = HashFailed(algo_);
      return 0;
    }
    pos_ = pos_ + n == len ? 0 : pos_ + n;
    return n;
  }
  // Finishing is part of hashing (the last block and the padding), though a tiny one.
  void Finish(Status* err) {
    if (err->ok() && hasher_->FinalHex().empty()) *err = HashFailed(algo_);
  }

 private:
  HashAlgo algo_;
  std::unique_ptr<platform::Hasher> hasher_;
  size_t pos_ = 0;
};

Status RunMemory(const HashSpec& spec, HashProgressSink* sink, const std::atomic<bool>& cancel,
                 HashResult* res) {
  Reporter reporter(sink, spec.mode, 0, spec.seconds);
  // threads, seconds, buffer bytes, fill seed, what the buffer is for, progress interval.
  const MemoryStreamsSpec streams{
      spec.threads,          spec.seconds, static_cast<size_t>(spec.memory_bytes),
      0x6469736b68617368ULL, "hash",       spec.progress_interval_ms};
  auto make = [&](uint32_t, Status* err) -> std::unique_ptr<HashStream> {
    auto hasher = platform::MakeHasher(spec.algo, err);
    return hasher ? std::make_unique<HashStream>(spec.algo, std::move(hasher)) : nullptr;
  };
  auto report = [&](uint64_t now, uint64_t t0, uint64_t done) { reporter.Report(now, t0, done); };
  MemoryStreamsTotals totals;
  if (Status st = RunMemoryStreams(streams, cancel, make, report, &totals); !st.ok()) return st;
  res->cancelled = cancel.load();
  Finish(res, totals.t0, totals.end_ns, totals.bytes);
  return Status::Ok();
}

}  // namespace

Status RunHash(const HashSpec& spec_in, HashProgressSink* sink, const std::atomic<bool>& cancel,
               HashResult* res) {
  HashSpec spec = spec_in;
  if (Status st = NormalizeHash(&spec); !st.ok()) return st;
  res->spec = spec;
  res->cancelled = false;
  res->provider = platform::CryptoProvider();
  switch (spec.mode) {
    case HashMode::kRead:
      return RunRead(spec, sink, cancel, res);
    case HashMode::kReadHash:
      return RunReadHash(spec, sink, cancel, res);
    case HashMode::kMemory:
      return RunMemory(spec, sink, cancel, res);
  }
  return Status::Invalid("unknown hash mode");
}

}  // namespace dd
