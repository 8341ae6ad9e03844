// Status: the one error value that crosses every layer. Errors are collected on worker threads as
// plain data (errno number, syscall, path) and turned into JS errors only on the JS thread.
#pragma once

#include <string>

namespace dd {

struct Status {
  int err = 0;          // POSIX errno numbering on every platform; 0 = ok
  std::string code;     // "ENOSPC"; set from err when empty
  std::string syscall;  // "write", "open", ...
  std::string path;
  std::string detail;  // extra plain words, appended to the message

  bool ok() const { return err == 0 && code.empty(); }
  // Node's shape: "ENOSPC: no space left on device, write '/mnt/x/f'"; without a syscall, the
  // detail alone: "EISDIR: /mnt/x is a folder, not a file".
  std::string message() const;

  static Status Ok() { return Status{}; }
  static Status Errno(int e, std::string syscall, std::string path = {}, std::string detail = {});
  static Status Invalid(std::string detail);  // EINVAL for a bad spec
};

// "ENOSPC" for ENOSPC; "E<number>" for numbers without a name.
std::string ErrnoCode(int e);
// "no space left on device"
std::string ErrnoText(int e);

}  // namespace dd
