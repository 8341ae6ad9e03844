// Verify blocks: 4 KiB blocks that name themselves (the run's seed, their block number, a
// checksum; the rest incompressible), so reading one back tells an intact block from one the
// drive lost, corrupted, or served from another address (a fake drive that wraps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dd {

constexpr uint64_t kVerifyBlock = 4096;
// Bad runs kept per result; past this, counts go on but positions are dropped.
constexpr size_t kMaxVerifyRuns = 1024;

enum class VerifyBad { kAliased, kZeros, kOnes, kStale, kCorrupted };
const char* VerifyBadName(VerifyBad k);

// Consecutive bad blocks of one kind (for aliased, one displacement held - block).
struct VerifyRun {
  uint64_t block = 0, blocks = 0;
  VerifyBad kind = VerifyBad::kStale;
  uint64_t held = 0;  // aliased: the block number the run's first block held
  uint64_t bits = 0;  // corrupted: bits wrong across the run
};

// Writes len / kVerifyBlock blocks numbered first, first + 1, ... (len a multiple of 4 KiB).
void FillVerifyBlocks(void* buf, size_t len, uint64_t seed, uint64_t first);

// What reading back found. One per worker; merged when the phase ends.
class VerifyTally {
 public:
  // Checks len / kVerifyBlock blocks that should be blocks first, first + 1, ...
  void Check(const void* buf, size_t len, uint64_t seed, uint64_t first);
  void Merge(const VerifyTally& other);

  uint64_t blocks = 0, intact = 0, aliased = 0, zeros = 0, ones = 0, stale = 0, corrupted = 0;
  uint64_t bit_errors = 0;
  std::vector<VerifyRun> runs;  // in block order after Merge; at most kMaxVerifyRuns
  bool truncated = false;

 private:
  void Add(VerifyBad kind, uint64_t block, uint64_t held, uint64_t bits);
  void Append(const VerifyRun& r);
  std::vector<uint64_t> scratch_;  // the expected block, for counting flipped bits
};

}  // namespace dd
