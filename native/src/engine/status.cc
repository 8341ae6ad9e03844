// Status formatting: errno names and texts kept here so messages read the same on every OS.
#include "engine/status.h"

#include <cerrno>
#include <string>

namespace dd {

namespace {
struct ErrnoName {
  int e;
  const char* code;
  const char* text;
};

const ErrnoName kNames[] = {
    {EPERM, "EPERM", "operation not permitted"},
    {ENOENT, "ENOENT", "no such file or directory"},
    {EIO, "EIO", "i/o error"},
    {ENXIO, "ENXIO", "no such device or address"},
    {EBADF, "EBADF", "bad file descriptor"},
    {EAGAIN, "EAGAIN", "resource temporarily unavailable"},
    {ENOMEM, "ENOMEM", "not enough memory"},
    {EACCES, "EACCES", "permission denied"},
    {EBUSY, "EBUSY", "resource busy or locked"},
    {EEXIST, "EEXIST", "file already exists"},
    {ENODEV, "ENODEV", "no such device"},
    {ENOTDIR, "ENOTDIR", "not a directory"},
    {EISDIR, "EISDIR", "illegal operation on a directory"},
    {EINVAL, "EINVAL", "invalid argument"},
    {EMFILE, "EMFILE", "too many open files"},
    {EFBIG, "EFBIG", "file too large"},
    {ENOSPC, "ENOSPC", "no space left on device"},
    {EROFS, "EROFS", "read-only file system"},
    {ENAMETOOLONG, "ENAMETOOLONG", "name too long"},
    {ELOOP, "ELOOP", "too many levels of symbolic links"},
    {ENOSYS, "ENOSYS", "function not implemented"},
    {ENOTSUP, "ENOTSUP", "operation not supported"},
#if defined(EOPNOTSUPP) && EOPNOTSUPP != ENOTSUP
    {EOPNOTSUPP, "EOPNOTSUPP", "operation not supported"},
#endif
#ifdef EDQUOT
    {EDQUOT, "EDQUOT", "disk quota exceeded"},
#endif
#ifdef ENOMEDIUM
    {ENOMEDIUM, "ENOMEDIUM", "no medium found"},
#endif
#ifdef ENOTCONN
    // A FUSE file system (exFAT, NTFS) whose daemon is gone: its disk was pulled.
    {ENOTCONN, "ENOTCONN", "transport endpoint is not connected"},
#endif
#ifdef ECONNABORTED
    // The same pulled FUSE disk, seen by a request that was in flight when its connection was
    // aborted.
    {ECONNABORTED, "ECONNABORTED", "connection aborted"},
#endif
    {ETIMEDOUT, "ETIMEDOUT", "operation timed out"},
    {ECANCELED, "ECANCELED", "operation canceled"},
    {EINTR, "EINTR", "interrupted system call"},
};
}  // namespace

std::string ErrnoCode(int e) {
  for (const auto& n : kNames)
    if (n.e == e) return n.code;
  return "E" + std::to_string(e);
}

std::string ErrnoText(int e) {
  for (const auto& n : kNames)
    if (n.e == e) return n.text;
  return "error " + std::to_string(e);
}

std::string Status::message() const {
  if (ok()) return "ok";
  std::string m = code.empty() ? ErrnoCode(err) : code;
  m += ": ";
  // Plain words stand alone when no syscall failed ("EISDIR: /x is a folder, not a file"); the
  // path is still carried in its own field.
  if (syscall.empty() && !detail.empty()) return m + detail;
  m += err ? ErrnoText(err) : "error";
  if (!syscall.empty()) m += ", " + syscall;
  if (!path.empty()) m += " '" + path + "'";
  if (!detail.empty()) m += " (" + detail + ")";
  return m;
}

Status Status::Errno(int e, std::string syscall, std::string path, std::string detail) {
  Status s;
  s.err = e ? e : EIO;
  s.code = ErrnoCode(s.err);
  s.syscall = std::move(syscall);
  s.path = std::move(path);
  s.detail = std::move(detail);
  return s;
}

Status Status::Invalid(std::string detail) {
  Status s = Errno(EINVAL, "", "", std::move(detail));
  return s;
}

}  // namespace dd
