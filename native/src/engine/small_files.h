// The small-file test: what copying many small files costs, operation by operation. For each of
// N files of one size: create, write, fsync, close; then stat each; then open and read each; then
// delete each, every operation timed on its own here in the engine. RunTest hands a small-files
// spec (IsSmallFiles) here. Plain C++17.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/result.h"
#include "engine/spec.h"
#include "engine/status.h"

namespace dd {

// Blocks until every file has been through every operation, or `cancel` is set (checked between
// operations). Every file it created is removed whatever happens: done, cancelled or failed.
Status RunSmallFiles(const Spec& spec, ProgressSink* sink, const std::atomic<bool>& cancel,
                     Result* out);

// The figures of one operation's samples (ns): count, total, mean, nearest-rank p50 and p99, max
// (all ms). Sorts `ns` in place.
SmallFilesOp SummarizeOp(const char* name, std::vector<uint64_t>* ns);

// File i of the set: "<path>.000000", "<path>.000001", ...
std::string SmallFilePath(const std::string& path, uint64_t index);

}  // namespace dd
