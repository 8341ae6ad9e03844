// The Hash test's engine: how fast a file streams in (read), streams in and gets its SHA-2
// (read-hash, a reader and a hasher thread with a ring of buffers between them), and how fast
// the CPU hashes from memory (memory, one stream per thread). Plain C++17: no N-API here.
#pragma once

#include <atomic>

#include "engine/hash_spec.h"
#include "engine/status.h"

namespace dd {

// Blocks until the measurement ends. The file is opened read-only and never modified. `cancel`
// is checked between chunks (and every 20 ms by a thread that is waiting); once set, every thread
// stops and is joined, the file is closed and `out->cancelled` is set, the figures covering what
// was done. `sink` may be null; it is called from this (the calling) thread only.
Status RunHash(const HashSpec& spec, HashProgressSink* sink, const std::atomic<bool>& cancel,
               HashResult* out);

}  // namespace dd
