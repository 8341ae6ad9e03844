// Linux: O_DIRECT with the alignment statx reports (STATX_DIOALIGN, Linux 6.1+) or the device's
// logical block size; kernel AIO (the same mechanism as fio's libaio engine) for direct I/O at
// queue depth > 1; fdatasync and POSIX_FADV_DONTNEED for the buffered-flushed fallback.
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "platform/posix.h"

namespace dd::platform {

namespace {

constexpr long kFuseMagic = 0x65735546;
constexpr long kTmpfsMagic = 0x01021994;
constexpr long kRamfsMagic = 0x858458f6;

uint32_t ReadSysfsU32(const std::string& file) {
  std::ifstream in(file);
  uint32_t v = 0;
  if (in >> v) return v;
  return 0;
}

// Logical block size of the block device holding st_dev (a partition's parent carries `queue/`).
uint32_t LogicalBlockSize(dev_t dev) {
  char base[64];
  std::snprintf(base, sizeof base, "/sys/dev/block/%u:%u", major(dev), minor(dev));
  uint32_t v = ReadSysfsU32(std::string(base) + "/queue/logical_block_size");
  if (!v) v = ReadSysfsU32(std::string(base) + "/../queue/logical_block_size");
  return v;
}

Alignment AlignmentFrom(int dirfd, const char* path, int flags) {
  Alignment a;
#ifdef STATX_DIOALIGN
  struct statx sx;
  if (::statx(dirfd, path, flags, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN)) {
    a.offset = sx.stx_dio_offset_align;  // 0: this file cannot do direct I/O
    a.memory = sx.stx_dio_mem_align;
    a.source = "statx";
    return a;
  }
#endif
  // Without statx's answer, take the larger of the device's logical block size and the file
  // system's block size: Btrfs, for one, reports no alignment and silently falls back to
  // buffered I/O for offsets that are sector- but not block-aligned.
  struct stat st;
  if (::fstatat(dirfd, path, &st, flags) == 0) {
    // A device node's own sectors are those of the device it names (st_rdev), not its folder's.
    if (uint32_t lbs = LogicalBlockSize(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev)) {
      const uint32_t fsb = st.st_blksize > 0 ? static_cast<uint32_t>(st.st_blksize) : 0;
      a.offset = a.memory = lbs > fsb ? lbs : fsb;
      a.source = fsb > lbs ? "file system block size" : "logical block size";
      return a;
    }
  }
  a.offset = a.memory = 4096;
  a.source = "assumed (no statx or sysfs information)";
  return a;
}

std::string FsKindOf(long magic) {
  if (magic == kFuseMagic) return "FUSE";
  if (magic == kTmpfsMagic) return "tmpfs";
  if (magic == kRamfsMagic) return "ramfs";
  return "";
}

// Kernel AIO contexts outlive the queue that used them, for the next test to take: io_destroy
// waits for an RCU grace period (measured 30-50 ms a call here), which the many-file test would
// otherwise pay for every file. Only a context with nothing in flight is kept, so no completion
// of one test can ever reach the next; a few idle ones at most, the rest destroyed.
class AioContextPool {
 public:
  static AioContextPool& Get() {
    static AioContextPool* pool = new AioContextPool();  // never destroyed: outlives every queue
    return *pool;
  }
  // An idle context for at least `nr` events, or 0.
  aio_context_t Take(unsigned nr) {
    std::lock_guard<std::mutex> lk(mu_);
    for (size_t i = 0; i < idle_.size(); ++i) {
      if (idle_[i].nr >= nr) {
        const aio_context_t ctx = idle_[i].ctx;
        idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(i));
        return ctx;
      }
    }
    return 0;
  }
  void Give(aio_context_t ctx, unsigned nr) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (idle_.size() < kMaxIdle) {
        idle_.push_back({ctx, nr});
        return;
      }
    }
    ::syscall(SYS_io_destroy, ctx);
  }

 private:
  static constexpr size_t kMaxIdle = 8;
  struct Idle {
    aio_context_t ctx;
    unsigned nr;
  };
  std::mutex mu_;
  std::vector<Idle> idle_;
};

class AioQueue final : public IoQueue {
 public:
  AioQueue(int fd, uint32_t depth) : fd_(fd), cbs_(depth), ptrs_(depth), events_(depth) {
    free_.reserve(depth);
    for (uint32_t i = depth; i > 0; --i) free_.push_back(i - 1);
  }
  ~AioQueue() override {
    if (!ctx_) return;
    // Every slot back in the free list: every I/O was reaped, nothing can complete later.
    if (free_.size() == cbs_.size())
      AioContextPool::Get().Give(ctx_, nr_);
    else
      ::syscall(SYS_io_destroy, ctx_);
  }
  int Setup() {
    nr_ = static_cast<unsigned>(cbs_.size());
    if ((ctx_ = AioContextPool::Get().Take(nr_)) != 0) return 0;
    if (::syscall(SYS_io_setup, nr_, &ctx_) != 0) {
      ctx_ = 0;
      return -errno;
    }
    return 0;
  }
  const char* name() const override { return "libaio"; }

  int Submit(IoOp* const* ops, int n) override {
    if (n > static_cast<int>(free_.size())) n = static_cast<int>(free_.size());
    for (int i = 0; i < n; ++i) {
      const uint32_t slot = free_.back();
      free_.pop_back();
      struct iocb& cb = cbs_[slot];
      cb = {};
      cb.aio_data = reinterpret_cast<uint64_t>(ops[i]);
      cb.aio_lio_opcode = ops[i]->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
      cb.aio_fildes = static_cast<uint32_t>(fd_);
      cb.aio_buf = reinterpret_cast<uint64_t>(ops[i]->buf);
      cb.aio_nbytes = ops[i]->len;
      cb.aio_offset = static_cast<int64_t>(ops[i]->off);
      ptrs_[i] = &cb;
    }
    long r = ::syscall(SYS_io_submit, ctx_, static_cast<long>(n), ptrs_.data());
    const int err = errno;
    const int accepted = r < 0 ? 0 : static_cast<int>(r);
    for (int i = accepted; i < n; ++i)
      free_.push_back(static_cast<uint32_t>(ptrs_[i] - cbs_.data()));
    if (r < 0) return -err;
    return accepted;
  }

  int Reap(IoOp** out, int min_n, int max_n, int timeout_ms) override {
    if (max_n > static_cast<int>(events_.size())) max_n = static_cast<int>(events_.size());
    // A negative timeout waits without a timer: arming an hrtimer on every wait costs measurable
    // IOPS at high queue depths, and in-flight I/O always completes (or fails) on its own.
    struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
    long r = ::syscall(SYS_io_getevents, ctx_, static_cast<long>(min_n), static_cast<long>(max_n),
                       events_.data(), timeout_ms < 0 ? nullptr : &ts);
    if (r < 0) return errno == EINTR ? 0 : -errno;
    for (long i = 0; i < r; ++i) {
      IoOp* op = reinterpret_cast<IoOp*>(events_[i].data);
      op->result = events_[i].res;
      op->syscall = op->write ? "io_submit(write)" : "io_submit(read)";
      auto* cb = reinterpret_cast<struct iocb*>(events_[i].obj);
      free_.push_back(static_cast<uint32_t>(cb - cbs_.data()));
      out[i] = op;
    }
    return static_cast<int>(r);
  }

 private:
  int fd_;
  aio_context_t ctx_ = 0;
  unsigned nr_ = 0;
  std::vector<struct iocb> cbs_;
  std::vector<struct iocb*> ptrs_;
  std::vector<struct io_event> events_;
  std::vector<uint32_t> free_;
};

}  // namespace

Status OpenFile(const std::string& path, const OpenOptions& opts, OpenedFile* out) {
  int fd;
  if (Status st = OpenFd(path, opts, &fd); !st.ok()) return st;
  out->handle = fd;
  if (opts.like) {  // OpenFd set O_DIRECT when `like` had it
    out->mode = opts.like->mode;
    out->note = opts.like->note;
    out->align = opts.like->align;
    return Status::Ok();
  }
  out->align = AlignmentFrom(fd, "", AT_EMPTY_PATH);
  out->mode = CacheMode::kBufferedFlushed;
  if (!opts.uncached) return Status::Ok();

  struct statfs sfs;
  // A device node lives on devtmpfs, whose kind says nothing about the device it names.
  const std::string kind =
      !opts.device && ::fstatfs(fd, &sfs) == 0 ? FsKindOf(static_cast<long>(sfs.f_type)) : "";
  if (out->align.offset == 0) {
    out->note = "this file system does not support direct I/O (statx reports no alignment)";
    out->align.offset = out->align.memory = 4096;
    return Status::Ok();
  }
  if (opts.block % out->align.offset != 0) {
    out->note = "the block size (" + std::to_string(opts.block) +
                " B) is not a multiple of the file system's direct-I/O alignment (" +
                std::to_string(out->align.offset) + " B)";
    return Status::Ok();
  }
  const int fl = ::fcntl(fd, F_GETFL);
  if (fl < 0 || ::fcntl(fd, F_SETFL, fl | O_DIRECT) != 0) {
    out->note = "the file system refused O_DIRECT (" + ErrnoCode(errno) + ")";
    return Status::Ok();
  }
  if (kind == "FUSE") {
    // The kernel's cache is bypassed, but the FUSE daemon does its own, cached, I/O on the
    // device: calling that "direct" would be a lie.
    out->note =
        "FUSE file system: O_DIRECT reaches the FUSE daemon, which reads and writes the device "
        "through its own cache; writes are flushed and the cache dropped, but results may "
        "still include caching";
    return Status::Ok();
  }
  if (kind == "tmpfs" || kind == "ramfs") {
    // These accept O_DIRECT, but the page cache is where their data lives.
    out->note = "the target is in RAM (" + kind + "): every read and write is served by memory";
    return Status::Ok();
  }
  out->mode = CacheMode::kDirect;
  return Status::Ok();
}

Status Flush(Handle h, const std::string& path) {
  int r;
  do r = ::fdatasync(static_cast<int>(h));
  while (r != 0 && errno == EINTR);
  if (r != 0 && errno != EINVAL) return Status::Errno(errno, "fdatasync", path);
  return Status::Ok();
}

Status DropCache(Handle h, const std::string& path) {
  const int r = ::posix_fadvise(static_cast<int>(h), 0, 0, POSIX_FADV_DONTNEED);
  if (r != 0) return Status::Errno(r, "posix_fadvise", path);
  return Status::Ok();
}

Alignment IoAlignment(const std::string& path) { return AlignmentFrom(AT_FDCWD, path.c_str(), 0); }

std::unique_ptr<IoQueue> MakeNativeQueue(Handle h, CacheMode mode, uint32_t depth, Status* err) {
  // Kernel AIO is only asynchronous for O_DIRECT; with the page cache it blocks in io_submit.
  if (mode != CacheMode::kDirect) return nullptr;
  auto q = std::make_unique<AioQueue>(static_cast<int>(h), depth);
  if (int e = q->Setup(); e < 0) {
    *err = Status::Errno(-e, "io_setup");
    return nullptr;
  }
  return q;
}

}  // namespace dd::platform
