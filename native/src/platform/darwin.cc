// macOS: F_NOCACHE set on the descriptor before the first I/O (the page cache is bypassed for
// this file), F_FULLFSYNC to push data past the drive's own cache. macOS has no useful async
// file I/O, so the generic threaded queue supplies queue depth.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/param.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/posix.h"

namespace dd::platform {

Status OpenFile(const std::string& path, const OpenOptions& opts, OpenedFile* out) {
  int fd;
  if (Status st = OpenFd(path, opts, &fd); !st.ok()) return st;
  out->handle = fd;
  if (opts.like) {
    out->mode = opts.like->mode;
    out->note = opts.like->note;
    out->align = opts.like->align;
    if (out->mode == CacheMode::kNoCache && ::fcntl(fd, F_NOCACHE, 1) != 0) {
      const int e = errno;
      ::close(fd);
      return Status::Errno(e, "fcntl(F_NOCACHE)", path);
    }
    return Status::Ok();
  }
  out->align = IoAlignment(path);
  out->mode = CacheMode::kBufferedFlushed;
  if (!opts.uncached) return Status::Ok();
  if (::fcntl(fd, F_NOCACHE, 1) != 0) {
    out->note = "the file system refused F_NOCACHE (" + ErrnoCode(errno) + ")";
    return Status::Ok();
  }
  out->mode = CacheMode::kNoCache;
  return Status::Ok();
}

Status Flush(Handle h, const std::string& path) {
  // F_FULLFSYNC asks the drive to flush its own cache; some file systems (network, FUSE) do not
  // support it, and fsync is the most they offer.
  if (::fcntl(static_cast<int>(h), F_FULLFSYNC) == 0) return Status::Ok();
  if (::fsync(static_cast<int>(h)) != 0) return Status::Errno(errno, "fsync", path);
  return Status::Ok();
}

Status DropCache(Handle, const std::string&) {
  // No per-file eviction call exists; buffered-flushed reads on macOS may be served from cache,
  // which is why F_NOCACHE is always tried first.
  return Status::Ok();
}

Alignment IoAlignment(const std::string& path) {
  Alignment a;
  struct statfs sfs;
  if (::statfs(path.c_str(), &sfs) == 0 && sfs.f_bsize > 0) {
    a.offset = a.memory = static_cast<uint32_t>(sfs.f_bsize < 4096 ? sfs.f_bsize : 4096);
    a.source = "statfs block size";
  } else {
    a.source = "assumed";
  }
  return a;
}

std::unique_ptr<IoQueue> MakeNativeQueue(Handle, CacheMode, uint32_t, Status*) { return nullptr; }

}  // namespace dd::platform
