#include "engine/verify_block.h"

#include <algorithm>
#include <bitset>

namespace dd {

namespace {

constexpr size_t kWords = kVerifyBlock / 8;
constexpr uint64_t kMagic = 0x5946495245564444ULL;  // "DDVERIFY", little-endian
constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
// Header words: magic, seed, block number, checksum; the payload follows.
constexpr size_t kHeader = 4;
constexpr size_t kSumWord = 3;
// A block within this many wrong bits of what was written is "corrupted" (its own data, damaged);
// further away (random data differs in half its 32,768 bits) it is someone else's data.
constexpr uint64_t kCorruptBits = kVerifyBlock * 8 / 8;

inline uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Eight xorshift lanes seeded from (seed, block): no multiply on the hot path, so writing
// blocks costs about what the random pattern costs.
void Payload(uint64_t* w, uint64_t seed, uint64_t block) {
  const uint64_t key = Mix(seed ^ Mix(block + kGolden));
  uint64_t x[8];
  for (uint64_t l = 0; l < 8; ++l) x[l] = Mix(key + (l + 1) * kGolden) | 1;
  for (size_t i = kHeader; i < kHeader + 4; ++i) w[i] = Mix(key ^ i);  // up to the 8-word stride
  for (size_t i = 8; i < kWords; i += 8)
    for (size_t l = 0; l < 8; ++l) {
      x[l] ^= x[l] << 13;
      x[l] ^= x[l] >> 7;
      x[l] ^= x[l] << 17;
      w[i + l] = x[l];
    }
}

// Eight independent multiply chains over every word but the checksum's own: each step is a
// bijection of its lane, so any change to one word always changes the sum.
uint64_t Checksum(const uint64_t* w) {
  uint64_t h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (size_t i = 0; i < kWords; i += 8)
    for (size_t l = 0; l < 8; ++l) h[l] = (h[l] + (i + l == kSumWord ? 0 : w[i + l])) * kGolden;
  uint64_t out = 0;
  for (uint64_t x : h) out = Mix(out ^ x);
  return out;
}

void Build(uint64_t* w, uint64_t seed, uint64_t block) {
  w[0] = kMagic;
  w[1] = seed;
  w[2] = block;
  Payload(w, seed, block);
  w[kSumWord] = Checksum(w);
}

bool All(const uint64_t* w, uint64_t v) {
  for (size_t i = 0; i < kWords; ++i)
    if (w[i] != v) return false;
  return true;
}

}  // namespace

const char* VerifyBadName(VerifyBad k) {
  switch (k) {
    case VerifyBad::kAliased:
      return "aliased";
    case VerifyBad::kZeros:
      return "zeros";
    case VerifyBad::kOnes:
      return "ones";
    case VerifyBad::kStale:
      return "stale";
    case VerifyBad::kCorrupted:
      return "corrupted";
  }
  return "?";
}

void FillVerifyBlocks(void* buf, size_t len, uint64_t seed, uint64_t first) {
  auto* w = static_cast<uint64_t*>(buf);
  for (size_t b = 0; b < len / kVerifyBlock; ++b) Build(w + b * kWords, seed, first + b);
}

void VerifyTally::Check(const void* buf, size_t len, uint64_t seed, uint64_t first) {
  const auto* all = static_cast<const uint64_t*>(buf);
  for (size_t b = 0; b < len / kVerifyBlock; ++b) {
    const uint64_t* w = all + b * kWords;
    const uint64_t block = first + b;
    ++blocks;
    const bool ours = w[0] == kMagic && w[1] == seed && w[kSumWord] == Checksum(w);
    if (ours && w[2] == block) {
      ++intact;
      continue;
    }
    if (ours) {
      Add(VerifyBad::kAliased, block, w[2], 0);
    } else if (All(w, 0)) {
      Add(VerifyBad::kZeros, block, 0, 0);
    } else if (All(w, ~0ULL)) {
      Add(VerifyBad::kOnes, block, 0, 0);
    } else {
      scratch_.resize(kWords);
      Build(scratch_.data(), seed, block);
      uint64_t bits = 0;
      for (size_t i = 0; i < kWords; ++i) bits += std::bitset<64>(w[i] ^ scratch_[i]).count();
      if (bits <= kCorruptBits)
        Add(VerifyBad::kCorrupted, block, 0, bits);
      else
        Add(VerifyBad::kStale, block, 0, 0);
    }
  }
}

void VerifyTally::Add(VerifyBad kind, uint64_t block, uint64_t held, uint64_t bits) {
  switch (kind) {
    case VerifyBad::kAliased:
      ++aliased;
      break;
    case VerifyBad::kZeros:
      ++zeros;
      break;
    case VerifyBad::kOnes:
      ++ones;
      break;
    case VerifyBad::kStale:
      ++stale;
      break;
    case VerifyBad::kCorrupted:
      ++corrupted;
      bit_errors += bits;
      break;
  }
  Append({block, 1, kind, held, bits});
}

// Joins `r` to the last run when it carries on from it (same kind, next block, and for aliased
// the same displacement); else starts a new run, while there is room.
void VerifyTally::Append(const VerifyRun& r) {
  if (!runs.empty()) {
    VerifyRun& last = runs.back();
    if (last.kind == r.kind && last.block + last.blocks == r.block &&
        (r.kind != VerifyBad::kAliased || last.held + last.blocks == r.held)) {
      last.blocks += r.blocks;
      last.bits += r.bits;
      return;
    }
  }
  if (runs.size() >= kMaxVerifyRuns) {
    truncated = true;
    return;
  }
  runs.push_back(r);
}

void VerifyTally::Merge(const VerifyTally& o) {
  blocks += o.blocks;
  intact += o.intact;
  aliased += o.aliased;
  zeros += o.zeros;
  ones += o.ones;
  stale += o.stale;
  corrupted += o.corrupted;
  bit_errors += o.bit_errors;
  truncated = truncated || o.truncated;
  std::vector<VerifyRun> all = runs;
  all.insert(all.end(), o.runs.begin(), o.runs.end());
  std::sort(all.begin(), all.end(),
            [](const VerifyRun& a, const VerifyRun& b) { return a.block < b.block; });
  runs.clear();
  for (const VerifyRun& r : all) Append(r);
}

}  // namespace dd
