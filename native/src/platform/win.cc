// Windows: FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH with sector-aligned buffers, offsets
// and lengths; FlushFileBuffers at the end of writes. Errors are mapped to POSIX errno values so
// the layers above read the same codes on every OS.
#include <windows.h>
#include <malloc.h>

#include <cerrno>
#include <cstdint>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "platform/platform.h"

namespace dd::platform {

namespace {

std::wstring Wide(const std::string& s) {
  if (s.empty()) return std::wstring();
  int n = ::MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<size_t>(n), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), &w[0], n);
  return w;
}

int ErrnoFromWin(DWORD e) {
  switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
      return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
      return EACCES;
    case ERROR_WRITE_PROTECT:
      return EROFS;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    case ERROR_NOT_READY:
    case ERROR_DEVICE_NOT_CONNECTED:
      return ENODEV;
    case ERROR_INVALID_PARAMETER:
      return EINVAL;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
      return ENOMEM;
    case ERROR_DIRECTORY:
      return ENOTDIR;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return EEXIST;
    default:
      return EIO;
  }
}

HANDLE H(Handle h) { return reinterpret_cast<HANDLE>(h); }

// The sector size of every handle opened with FILE_FLAG_NO_BUFFERING. Windows refuses an unaligned
// request on one with a bare ERROR_INVALID_PARAMETER, and Wine does not refuse it at all; checking
// first gives the same refusal everywhere, in words that say what was unaligned.
class UnbufferedHandles {
 public:
  void Add(HANDLE h, uint32_t sector) {
    std::unique_lock<std::shared_mutex> lk(mu_);
    sectors_[h] = sector;
  }
  void Remove(HANDLE h) {
    std::unique_lock<std::shared_mutex> lk(mu_);
    sectors_.erase(h);
  }
  uint32_t SectorOf(HANDLE h) {  // 0: a buffered handle
    std::shared_lock<std::shared_mutex> lk(mu_);
    auto it = sectors_.find(h);
    return it == sectors_.end() ? 0 : it->second;
  }

 private:
  std::shared_mutex mu_;
  std::unordered_map<HANDLE, uint32_t> sectors_;
};

UnbufferedHandles& Unbuffered() {
  static UnbufferedHandles* handles = new UnbufferedHandles();  // outlives every handle
  return *handles;
}

Status CheckAligned(HANDLE h, const void* buf, size_t len, uint64_t off, const char* call) {
  const uint32_t sector = Unbuffered().SectorOf(h);
  if (sector == 0) return Status::Ok();
  const char* what = off % sector                                ? "offset"
                     : len % sector                              ? "length"
                     : reinterpret_cast<uintptr_t>(buf) % sector ? "buffer address"
                                                                 : nullptr;
  if (!what) return Status::Ok();
  return Status::Errno(EINVAL, call, "",
                       std::string("unaligned request refused: the ") + what +
                           " is not a multiple of the " + std::to_string(sector) +
                           " B sector size, which FILE_FLAG_NO_BUFFERING requires (offset " +
                           std::to_string(off) + ", length " + std::to_string(len) + ")");
}

// CreateFileW on a folder fails with ERROR_ACCESS_DENIED; say EISDIR, as POSIX open(2) does.
Status OpenError(const std::wstring& w, const std::string& path) {
  const DWORD e = ::GetLastError();
  if (e == ERROR_ACCESS_DENIED) {
    const DWORD attrs = ::GetFileAttributesW(w.c_str());
    if (attrs != INVALID_FILE_ATTRIBUTES && (attrs & FILE_ATTRIBUTE_DIRECTORY))
      return Status::Errno(EISDIR, "CreateFileW", path);
  }
  return Status::Errno(ErrnoFromWin(e), "CreateFileW", path);
}

}  // namespace

Status OpenFile(const std::string& path, const OpenOptions& opts, OpenedFile* out) {
  if (opts.device)
    return Status::Errno(ENOTSUP, "", path, "verifying a whole disk is supported on Linux only");
  const std::wstring w = Wide(path);
  const DWORD access = GENERIC_READ | (opts.write ? GENERIC_WRITE : 0);
  const DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
  const DWORD disp = opts.create ? OPEN_ALWAYS : OPEN_EXISTING;
  if (opts.like) {
    const bool unbuffered = opts.like->mode == CacheMode::kDirect;
    const DWORD fl =
        FILE_ATTRIBUTE_NORMAL | (unbuffered ? FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH : 0);
    HANDLE h = ::CreateFileW(w.c_str(), access, share, nullptr, disp, fl, nullptr);
    if (h == INVALID_HANDLE_VALUE) return OpenError(w, path);
    if (unbuffered) Unbuffered().Add(h, opts.like->align.offset);
    out->handle = reinterpret_cast<Handle>(h);
    out->mode = opts.like->mode;
    out->note = opts.like->note;
    out->align = opts.like->align;
    return Status::Ok();
  }
  out->align = IoAlignment(path);
  if (opts.uncached && opts.block % out->align.offset == 0) {
    HANDLE h = ::CreateFileW(
        w.c_str(), access, share, nullptr, disp,
        FILE_ATTRIBUTE_NORMAL | FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH, nullptr);
    if (h != INVALID_HANDLE_VALUE) {
      Unbuffered().Add(h, out->align.offset);
      out->handle = reinterpret_cast<Handle>(h);
      out->mode = CacheMode::kDirect;
      return Status::Ok();
    }
    if (::GetLastError() != ERROR_INVALID_PARAMETER) return OpenError(w, path);
    out->note = "the file system refused FILE_FLAG_NO_BUFFERING";
  } else if (opts.uncached) {
    out->note = "the block size is not a multiple of the sector size (" +
                std::to_string(out->align.offset) + " B)";
  }
  HANDLE h = ::CreateFileW(w.c_str(), access, share, nullptr, disp, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) return OpenError(w, path);
  out->handle = reinterpret_cast<Handle>(h);
  out->mode = CacheMode::kBufferedFlushed;
  return Status::Ok();
}

void CloseFile(Handle h) {
  if (h == kInvalidHandle) return;
  Unbuffered().Remove(H(h));
  ::CloseHandle(H(h));
}

Status RemoveFile(const std::string& path) {
  if (!::DeleteFileW(Wide(path).c_str())) {
    const DWORD e = ::GetLastError();
    if (e != ERROR_FILE_NOT_FOUND) return Status::Errno(ErrnoFromWin(e), "DeleteFileW", path);
  }
  return Status::Ok();
}

Status ReadAt(Handle h, void* buf, size_t len, uint64_t off, size_t* done) {
  if (Status st = CheckAligned(H(h), buf, len, off, "ReadFile"); !st.ok()) return st;
  OVERLAPPED ov = {};
  ov.Offset = static_cast<DWORD>(off & 0xffffffffULL);
  ov.OffsetHigh = static_cast<DWORD>(off >> 32);
  DWORD n = 0;
  if (!::ReadFile(H(h), buf, static_cast<DWORD>(len), &n, &ov)) {
    const DWORD e = ::GetLastError();
    if (e != ERROR_HANDLE_EOF) return Status::Errno(ErrnoFromWin(e), "ReadFile");
  }
  *done = n;
  return Status::Ok();
}

Status WriteAt(Handle h, const void* buf, size_t len, uint64_t off, size_t* done) {
  if (Status st = CheckAligned(H(h), buf, len, off, "WriteFile"); !st.ok()) return st;
  OVERLAPPED ov = {};
  ov.Offset = static_cast<DWORD>(off & 0xffffffffULL);
  ov.OffsetHigh = static_cast<DWORD>(off >> 32);
  DWORD n = 0;
  if (!::WriteFile(H(h), buf, static_cast<DWORD>(len), &n, &ov))
    return Status::Errno(ErrnoFromWin(::GetLastError()), "WriteFile");
  *done = n;
  return Status::Ok();
}

Status Flush(Handle h, const std::string& path) {
  if (!::FlushFileBuffers(H(h)))
    return Status::Errno(ErrnoFromWin(::GetLastError()), "FlushFileBuffers", path);
  return Status::Ok();
}

Status DropCache(Handle, const std::string&) { return Status::Ok(); }

Status SetSize(Handle h, uint64_t size, const std::string& path) {
  LARGE_INTEGER li;
  li.QuadPart = static_cast<LONGLONG>(size);
  if (!::SetFilePointerEx(H(h), li, nullptr, FILE_BEGIN) || !::SetEndOfFile(H(h)))
    return Status::Errno(ErrnoFromWin(::GetLastError()), "SetEndOfFile", path);
  return Status::Ok();
}

Status GetSize(Handle h, uint64_t* size, const std::string& path) {
  LARGE_INTEGER li;
  if (!::GetFileSizeEx(H(h), &li))
    return Status::Errno(ErrnoFromWin(::GetLastError()), "GetFileSizeEx", path);
  *size = static_cast<uint64_t>(li.QuadPart);
  return Status::Ok();
}

Status StatFile(Handle h, const std::string& path, FileInfo* out) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!::GetFileInformationByHandle(H(h), &info))
    return Status::Errno(ErrnoFromWin(::GetLastError()), "GetFileInformationByHandle", path);
  out->size = (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  out->folder = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
  out->regular = !out->folder && ::GetFileType(H(h)) == FILE_TYPE_DISK;
  return Status::Ok();
}

Status StatPath(const std::string& path, FileInfo* out) {
  WIN32_FILE_ATTRIBUTE_DATA a;
  if (!::GetFileAttributesExW(Wide(path).c_str(), GetFileExInfoStandard, &a))
    return Status::Errno(ErrnoFromWin(::GetLastError()), "GetFileAttributesExW", path);
  out->size = (static_cast<uint64_t>(a.nFileSizeHigh) << 32) | a.nFileSizeLow;
  out->folder = (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
  out->regular = !out->folder && (a.dwFileAttributes & FILE_ATTRIBUTE_DEVICE) == 0;
  return Status::Ok();
}

Alignment IoAlignment(const std::string& path) {
  Alignment a;
  wchar_t root[MAX_PATH];
  DWORD spc = 0, bps = 0, nfc = 0, tnc = 0;
  if (::GetVolumePathNameW(Wide(path).c_str(), root, MAX_PATH) &&
      ::GetDiskFreeSpaceW(root, &spc, &bps, &nfc, &tnc) && bps) {
    a.offset = bps;
    a.memory = bps < 4096 ? 4096 : bps;
    a.source = "sector size";
  } else {
    a.source = "assumed";
  }
  return a;
}

void* AllocAligned(size_t size, size_t align) { return ::_aligned_malloc(size, align); }
void FreeAligned(void* p) { ::_aligned_free(p); }

uint64_t NowNs() {
  static LARGE_INTEGER freq = [] {
    LARGE_INTEGER f;
    ::QueryPerformanceFrequency(&f);
    return f;
  }();
  LARGE_INTEGER c;
  ::QueryPerformanceCounter(&c);
  return static_cast<uint64_t>(static_cast<double>(c.QuadPart) * 1e9 / freq.QuadPart);
}

#ifndef CREATE_WAITABLE_TIMER_HIGH_RESOLUTION
#define CREATE_WAITABLE_TIMER_HIGH_RESOLUTION 0x00000002  // Windows 10 1803 and later
#endif

void SleepUntilNs(uint64_t deadline_ns) {
  // A high-resolution waitable timer for the bulk of the wait (Sleep's 15.6 ms tick is longer
  // than a 60 fps frame), then yield until the deadline.
  HANDLE timer = ::CreateWaitableTimerExW(nullptr, nullptr, CREATE_WAITABLE_TIMER_HIGH_RESOLUTION,
                                          TIMER_ALL_ACCESS);
  for (uint64_t now = NowNs(); now + 500000 < deadline_ns; now = NowNs()) {
    LARGE_INTEGER due;
    due.QuadPart = -static_cast<LONGLONG>((deadline_ns - now - 500000) / 100);  // relative, 100 ns
    if (!timer || !::SetWaitableTimer(timer, &due, 0, nullptr, nullptr, FALSE)) {
      ::Sleep(1);
      continue;
    }
    ::WaitForSingleObject(timer, INFINITE);
  }
  if (timer) ::CloseHandle(timer);
  while (NowNs() < deadline_ns) ::SwitchToThread();
}

std::unique_ptr<IoQueue> MakeNativeQueue(Handle, CacheMode, uint32_t, Status*) { return nullptr; }

}  // namespace dd::platform
