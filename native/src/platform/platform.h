// The platform layer: the only code that calls the operating system. One implementation file per
// OS (linux.cc, darwin.cc, win.cc) plus posix.cc shared by Linux and macOS; binding.gyp picks them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/result.h"
#include "engine/status.h"
#include "platform/io_queue.h"

namespace dd::platform {

using Handle = intptr_t;  // a file descriptor, or a Windows HANDLE
constexpr Handle kInvalidHandle = -1;

// The defaults open an existing file read-only (the Hash test's reads): nothing is created,
// truncated or written, and the buffered fallback keeps the same access.
struct OpenedFile;

struct OpenOptions {
  bool write = false;    // open read-write (else read-only)
  bool create = false;   // create if missing
  bool uncached = true;  // ask for direct / no-cache I/O
  // Follow a symbolic link at the last component. The Hash test follows what the user named, as
  // sha256sum does; a folder check never reads through a link (it lists them as skipped), and
  // the engine's own test files are never links.
  bool follow_links = true;
  // The I/O size the caller will use (direct I/O needs it aligned); 0: the caller rounds its
  // I/O sizes up to the alignment OpenFile returns.
  uint64_t block = 0;
  // Open as `like` was opened (its cache mode, note and alignment) without probing the file
  // system again: the small-file test opens thousands of files and times each open, which must
  // cost what an application's open costs, not DiskDial's checks (a network round trip each).
  const OpenedFile* like = nullptr;
  // Open a whole block device (and nothing else) for writing, exclusively where the OS allows
  // (Linux: O_EXCL, refused while the device is mounted or held).
  bool device = false;
};

struct Alignment {
  uint32_t offset = 4096;  // file offsets and lengths must be multiples of this
  uint32_t memory = 4096;  // buffer addresses must be multiples of this
  std::string source;      // where the numbers came from ("statx", "logical block size", ...)
};

struct OpenedFile {
  Handle handle = kInvalidHandle;
  CacheMode mode = CacheMode::kBuffered;  // what was achieved
  std::string note;                       // why not uncached, in plain words
  Alignment align;                        // what offsets, lengths and buffers are aligned to
};

// Opens (or creates) the test file, achieving uncached I/O where the file system allows it and
// saying plainly what was achieved. Never falls back silently. Only a regular file is opened:
// a FIFO, device, socket or folder is refused (EINVAL, EISDIR) without blocking.
Status OpenFile(const std::string& path, const OpenOptions& opts, OpenedFile* out);
void CloseFile(Handle h);
Status RemoveFile(const std::string& path);

Status ReadAt(Handle h, void* buf, size_t len, uint64_t off, size_t* done);
Status WriteAt(Handle h, const void* buf, size_t len, uint64_t off, size_t* done);
// Makes written data durable on the device (fdatasync; F_FULLFSYNC; FlushFileBuffers).
Status Flush(Handle h, const std::string& path);
// Evicts the file's pages from the OS cache, where the OS can (buffered-flushed mode).
Status DropCache(Handle h, const std::string& path);
// Sets the file's size without writing data (sparse where the file system allows).
Status SetSize(Handle h, uint64_t size, const std::string& path);
Status GetSize(Handle h, uint64_t* size, const std::string& path);

struct FileInfo {
  uint64_t size = 0;
  bool folder = false;
  bool regular = false;  // a plain file (not a folder, device, pipe or socket)
};
// What an open handle refers to (fstat; GetFileInformationByHandle).
Status StatFile(Handle h, const std::string& path, FileInfo* out);
// What a path refers to, without opening it (stat; GetFileAttributesExW): a copy's stat.
Status StatPath(const std::string& path, FileInfo* out);

// Direct-I/O alignment for files in `path` (a folder or a file).
Alignment IoAlignment(const std::string& path);

void* AllocAligned(size_t size, size_t align);
void FreeAligned(void* p);

uint64_t NowNs();  // monotonic
// Sleeps until NowNs() >= deadline_ns: an absolute-deadline sleep (clock_nanosleep TIMER_ABSTIME
// on Linux), so a paced loop's error does not accumulate from frame to frame.
void SleepUntilNs(uint64_t deadline_ns);

// The best queue this OS has for the achieved cache mode (Linux: kernel AIO for direct I/O);
// null when the generic ones should be used.
std::unique_ptr<IoQueue> MakeNativeQueue(Handle h, CacheMode mode, uint32_t depth, Status* err);

// Generic queues built on ReadAt/WriteAt (queue_generic.cc): inline for depth 1, a thread per
// slot otherwise.
std::unique_ptr<IoQueue> MakeSyncQueue(Handle h);
std::unique_ptr<IoQueue> MakeThreadedQueue(Handle h, uint32_t depth);

}  // namespace dd::platform
