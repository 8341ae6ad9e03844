// The engine: runs one test spec (prepare the file, optional warm-up, measured phase, flush) with
// worker threads of its own, and returns what it measured. Plain C++17: no N-API here.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/result.h"
#include "engine/spec.h"
#include "engine/status.h"

namespace dd {

extern const char* const kEngineVersion;

// What a test achieved: uncached when the file opened so, else buffered as asked or buffered with
// the cache flushed and dropped (auto's fallback), with the reason in `cache_note`.
void SetCacheMode(CacheMode opened, const std::string& note, uint32_t alignment, CacheRequest asked,
                  Result* res);

// Blocks until the test ends. `cancel` is checked between I/Os; once set, no new I/O is issued,
// in-flight I/O drains, the file is removed and `out->cancelled` is set. `sink` may be null.
Status RunTest(const Spec& spec, ProgressSink* sink, const std::atomic<bool>& cancel, Result* out);

}  // namespace dd
