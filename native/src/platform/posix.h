// Helpers shared by the POSIX platform files (linux.cc, darwin.cc), implemented in posix.cc.
#pragma once

#include <string>

#include "platform/platform.h"

namespace dd::platform {

// open(2) of the test file as `opts` asks (read-write or read-only, created if asked), retried on
// EINTR, close-on-exec, never blocking in open itself: anything but a regular file (a FIFO, a
// device, a socket, a folder) is refused in plain words before any I/O. The caller sets the cache
// mode.
Status OpenFd(const std::string& path, const OpenOptions& opts, int* fd);

}  // namespace dd::platform
