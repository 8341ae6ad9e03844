// POSIX calls shared by Linux and macOS: positional I/O, sizes, removal, aligned memory, clock.
#include "platform/posix.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace dd::platform {

namespace {

// A file type in words, for "not a regular file (…)".
std::string KindOf(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  return "not a file";
}

}  // namespace

// What is at `path` once opened is checked before anything can block on it: O_NONBLOCK makes
// open(2) of a FIFO return at once (it would wait for a writer forever, Ctrl-C or not, when a
// file was swapped for one after the folder was listed), fstat refuses anything but a regular
// file, and only then is blocking I/O switched back on for the reads and writes.
Status OpenFd(const std::string& path, const OpenOptions& opts, int* fd) {
  int flags = (opts.write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK |
              (opts.create ? O_CREAT : 0) | (opts.follow_links ? 0 : O_NOFOLLOW) |
              (opts.device ? O_EXCL : 0);
#ifdef O_DIRECT
  if (opts.like && opts.like->mode == CacheMode::kDirect) flags |= O_DIRECT;
#endif
  do *fd = ::open(path.c_str(), flags, 0600);
  while (*fd < 0 && errno == EINTR);
  if (*fd < 0) {
    // O_NOFOLLOW's ELOOP (Linux) or EMLINK (FreeBSD, older macOS) on a last component that is a
    // symbolic link: say so, rather than "too many levels of symbolic links".
    if (!opts.follow_links && (errno == ELOOP || errno == EMLINK))
      return Status::Errno(ELOOP, "", path,
                           path + " is a symbolic link, not a file: not followed, not read");
    return Status::Errno(errno, "open", path);
  }
  struct stat st;
  Status bad;
  if (::fstat(*fd, &st) != 0)
    bad = Status::Errno(errno, "fstat", path);
  else if (opts.device && !S_ISBLK(st.st_mode))
    bad = Status::Errno(EINVAL, "", path,
                        path + " is not a block device (" + KindOf(st.st_mode) + ")");
  else if (opts.device)
    ;  // the caller proved this device; it is opened as it is
  else if (S_ISDIR(st.st_mode))
    bad = Status::Errno(EISDIR, "", path, path + " is a folder, not a file");
  else if (!S_ISREG(st.st_mode))
    bad = Status::Errno(EINVAL, "", path,
                        path + " is not a regular file (" + KindOf(st.st_mode) + "): not read");
  else if (const int fl = ::fcntl(*fd, F_GETFL);
           fl < 0 || ::fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
    bad = Status::Errno(errno, "fcntl", path);
  if (bad.ok()) return Status::Ok();
  ::close(*fd);
  *fd = -1;
  return bad;
}

void CloseFile(Handle h) {
  if (h >= 0) ::close(static_cast<int>(h));
}

Status RemoveFile(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Status::Errno(errno, "unlink", path);
  return Status::Ok();
}

Status ReadAt(Handle h, void* buf, size_t len, uint64_t off, size_t* done) {
  ssize_t n;
  do n = ::pread(static_cast<int>(h), buf, len, static_cast<off_t>(off));
  while (n < 0 && errno == EINTR);
  if (n < 0) return Status::Errno(errno, "read");
  *done = static_cast<size_t>(n);
  return Status::Ok();
}

// A short write is continued: the kernel returns one when part of the data went out before an
// error (a FUSE daemon failing mid-request, a disk filling up), and the next call names that error
// (EIO, ENOSPC) instead of the caller guessing from the count.
Status WriteAt(Handle h, const void* buf, size_t len, uint64_t off, size_t* done) {
  size_t total = 0;
  while (total < len) {
    ssize_t n;
    do
      n = ::pwrite(static_cast<int>(h), static_cast<const char*>(buf) + total, len - total,
                   static_cast<off_t>(off + total));
    while (n < 0 && errno == EINTR);
    if (n < 0) return Status::Errno(errno, "write");
    if (n == 0) break;
    total += static_cast<size_t>(n);
  }
  *done = total;
  return Status::Ok();
}

Status SetSize(Handle h, uint64_t size, const std::string& path) {
  if (::ftruncate(static_cast<int>(h), static_cast<off_t>(size)) != 0)
    return Status::Errno(errno, "ftruncate", path);
  return Status::Ok();
}

Status GetSize(Handle h, uint64_t* size, const std::string& path) {
  struct stat st;
  if (::fstat(static_cast<int>(h), &st) != 0) return Status::Errno(errno, "fstat", path);
  *size = static_cast<uint64_t>(st.st_size);
  if (S_ISBLK(st.st_mode)) {  // a device's size is where its end is
    const off_t end = ::lseek(static_cast<int>(h), 0, SEEK_END);
    if (end < 0) return Status::Errno(errno, "lseek", path);
    *size = static_cast<uint64_t>(end);
  }
  return Status::Ok();
}

Status StatFile(Handle h, const std::string& path, FileInfo* out) {
  struct stat st;
  if (::fstat(static_cast<int>(h), &st) != 0) return Status::Errno(errno, "fstat", path);
  out->size = static_cast<uint64_t>(st.st_size);
  out->folder = S_ISDIR(st.st_mode);
  out->regular = S_ISREG(st.st_mode);
  return Status::Ok();
}

Status StatPath(const std::string& path, FileInfo* out) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::Errno(errno, "stat", path);
  out->size = static_cast<uint64_t>(st.st_size);
  out->folder = S_ISDIR(st.st_mode);
  out->regular = S_ISREG(st.st_mode);
  return Status::Ok();
}

void* AllocAligned(size_t size, size_t align) {
  void* p = nullptr;
  if (::posix_memalign(&p, align < sizeof(void*) ? sizeof(void*) : align, size) != 0)
    return nullptr;
  return p;
}

void FreeAligned(void* p) { std::free(p); }

uint64_t NowNs() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

void SleepUntilNs(uint64_t deadline_ns) {
#if defined(__APPLE__)
  // macOS has no clock_nanosleep: sleep the remaining time, re-reading the clock after each wake.
  for (uint64_t now = NowNs(); now < deadline_ns; now = NowNs()) {
    const uint64_t left = deadline_ns - now;
    struct timespec ts = {static_cast<time_t>(left / 1000000000ULL),
                          static_cast<long>(left % 1000000000ULL)};
    ::nanosleep(&ts, nullptr);
  }
#else
  struct timespec ts = {static_cast<time_t>(deadline_ns / 1000000000ULL),
                        static_cast<long>(deadline_ns % 1000000000ULL)};
  // The same clock as NowNs(); EINTR (a signal) just sleeps again until the same deadline.
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
#endif
}

}  // namespace dd::platform
