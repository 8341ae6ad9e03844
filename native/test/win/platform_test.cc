// The Windows platform layer's checks that need a bare Windows process (run under Wine by
// scripts/wine-tests.sh): uncached opens and their sector alignment, positional I/O, and the
// refusal of unaligned requests on a FILE_FLAG_NO_BUFFERING handle. Prints one line per check and
// exits non-zero when any fails. Usage: platform-test.exe <empty folder>
#include "platform/platform.h"

#include <windows.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

using dd::Status;
namespace platform = dd::platform;

int failures = 0;

void Check(bool ok, const std::string& what, const std::string& detail = "") {
  std::printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what.c_str(), detail.empty() ? "" : ": ",
              detail.c_str());
  if (!ok) ++failures;
}

// An unaligned request must fail with EINVAL, name its syscall and say which part was unaligned.
void CheckRefused(const Status& st, const char* syscall, const char* part,
                  const std::string& what) {
  const std::string m = st.message();
  Check(st.err == EINVAL && st.syscall == syscall &&
            m.find(std::string("the ") + part + " is not a multiple of the") != std::string::npos &&
            m.find("FILE_FLAG_NO_BUFFERING") != std::string::npos,
        what, m);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: platform-test.exe <empty folder>\n");
    return 2;
  }
  const std::string dir = argv[1];
  const std::string file = dir + "\\platform-test.bin";

  const platform::Alignment a = platform::IoAlignment(dir);
  Check(a.source == "sector size" && a.offset >= 512 && (a.offset & (a.offset - 1)) == 0,
        "IoAlignment reads the sector size", std::to_string(a.offset) + " B from " + a.source);

  platform::OpenOptions oo;
  oo.write = oo.create = true;
  oo.block = 4096;
  platform::OpenedFile f;
  Status st = platform::OpenFile(file, oo, &f);
  Check(st.ok() && f.mode == dd::CacheMode::kDirect, "a 4 KiB-block open is uncached",
        st.message() + " " + f.note);
  if (!st.ok()) return 1;
  const uint32_t sector = f.align.offset;

  char* buf = static_cast<char*>(platform::AllocAligned(3 * 4096, 4096));
  std::memset(buf, 'd', 3 * 4096);
  size_t done = 0;
  st = platform::WriteAt(f.handle, buf, 2 * 4096, 0, &done);
  Check(st.ok() && done == 2 * 4096, "an aligned write", st.message());
  st = platform::Flush(f.handle, file);
  Check(st.ok(), "FlushFileBuffers", st.message());
  std::memset(buf, 0, 4096);
  st = platform::ReadAt(f.handle, buf, 4096, 4096, &done);
  Check(st.ok() && done == 4096 && buf[0] == 'd' && buf[4095] == 'd', "an aligned read",
        st.message());

  CheckRefused(platform::ReadAt(f.handle, buf, 4096, sector / 2, &done), "ReadFile", "offset",
               "a read at an unaligned offset is refused");
  CheckRefused(platform::WriteAt(f.handle, buf, sector + 1, 0, &done), "WriteFile", "length",
               "a write of an unaligned length is refused");
  CheckRefused(platform::ReadAt(f.handle, buf + 1, 4096, 0, &done), "ReadFile", "buffer address",
               "a read into an unaligned buffer is refused");
  platform::CloseFile(f.handle);

  // Once closed, the handle value may be reused by a buffered file: nothing is refused there.
  oo.block = 1000;
  platform::OpenedFile g;
  st = platform::OpenFile(file, oo, &g);
  Check(st.ok() && g.mode == dd::CacheMode::kBufferedFlushed &&
            g.note.find("not a multiple of the sector size") != std::string::npos,
        "a block that is not a sector multiple falls back to buffered, and says so", g.note);
  st = platform::ReadAt(g.handle, buf + 1, 1000, 3, &done);
  Check(st.ok() && done == 1000, "a buffered handle takes unaligned requests", st.message());
  platform::CloseFile(g.handle);
  platform::FreeAligned(buf);

  st = platform::RemoveFile(file);
  Check(st.ok() && ::GetFileAttributesA(file.c_str()) == INVALID_FILE_ATTRIBUTES,
        "RemoveFile deletes the file", st.message());
  st = platform::RemoveFile(file);
  Check(st.ok(), "RemoveFile of a missing file is not an error", st.message());

  platform::OpenedFile missing;
  oo.block = 4096;
  st = platform::OpenFile(dir + "\\no such folder\\f.bin", oo, &missing);
  Check(st.err == ENOENT && st.syscall == "CreateFileW", "a missing folder is ENOENT",
        st.message());
  st = platform::OpenFile(dir, platform::OpenOptions(), &missing);
  Check(st.err == EISDIR, "opening a folder is EISDIR", st.message());

  std::printf("%s: %d failed\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
