// Verify blocks: every way a block can come back (intact, aliased, lost, stale, corrupted) is told
// apart, and bad blocks are gathered into runs with their positions.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "engine/verify_block.h"

namespace dd {
namespace {

constexpr uint64_t kSeed = 0x1234567;
constexpr size_t kB = kVerifyBlock;

std::vector<unsigned char> Blocks(size_t n, uint64_t first, uint64_t seed = kSeed) {
  std::vector<unsigned char> buf(n * kB);
  FillVerifyBlocks(buf.data(), buf.size(), seed, first);
  return buf;
}

TEST(VerifyBlock, IntactBlocksPass) {
  auto buf = Blocks(64, 1000);
  VerifyTally t;
  t.Check(buf.data(), buf.size(), kSeed, 1000);
  EXPECT_EQ(t.blocks, 64u);
  EXPECT_EQ(t.intact, 64u);
  EXPECT_TRUE(t.runs.empty());
}

TEST(VerifyBlock, PayloadIsIncompressibleAndDiffersByBlockAndSeed) {
  auto a = Blocks(1, 5), b = Blocks(1, 6), c = Blocks(1, 5, kSeed + 1);
  EXPECT_NE(std::memcmp(a.data() + 64, b.data() + 64, kB - 64), 0);
  EXPECT_NE(std::memcmp(a.data() + 64, c.data() + 64, kB - 64), 0);
  // The payloads (each block less its 32-byte header) of 256 blocks: 4,064 of each byte value on
  // average, sd 64; 5 sd either side (the data is fixed by the seed: this cannot flake).
  std::vector<int> counts(256);
  auto big = Blocks(256, 0);
  for (size_t i = 0; i < big.size(); ++i)
    if (i % kB >= 32) ++counts[big[i]];
  for (int n : counts) {
    EXPECT_GT(n, 4064 - 320);
    EXPECT_LT(n, 4064 + 320);
  }
}

TEST(VerifyBlock, ABlockFromElsewhereIsAliasedWithWhatItHeld) {
  // Blocks 100..103 read back holding blocks 0..3: a drive that wraps at 100 blocks.
  auto buf = Blocks(4, 0);
  VerifyTally t;
  t.Check(buf.data(), buf.size(), kSeed, 100);
  EXPECT_EQ(t.aliased, 4u);
  ASSERT_EQ(t.runs.size(), 1u);
  EXPECT_EQ(t.runs[0].kind, VerifyBad::kAliased);
  EXPECT_EQ(t.runs[0].block, 100u);
  EXPECT_EQ(t.runs[0].blocks, 4u);
  EXPECT_EQ(t.runs[0].held, 0u);
}

TEST(VerifyBlock, ZerosOnesAndOtherDataAreLostNotCorrupted) {
  std::vector<unsigned char> buf(3 * kB);
  std::memset(buf.data(), 0, kB);
  std::memset(buf.data() + kB, 0xff, kB);
  FillVerifyBlocks(buf.data() + 2 * kB, kB, kSeed + 99, 2);  // an older run's block 2
  VerifyTally t;
  t.Check(buf.data(), buf.size(), kSeed, 0);
  EXPECT_EQ(t.zeros, 1u);
  EXPECT_EQ(t.ones, 1u);
  EXPECT_EQ(t.stale, 1u);
  EXPECT_EQ(t.corrupted, 0u);
  ASSERT_EQ(t.runs.size(), 3u);
  EXPECT_EQ(t.runs[0].kind, VerifyBad::kZeros);
  EXPECT_EQ(t.runs[1].kind, VerifyBad::kOnes);
  EXPECT_EQ(t.runs[2].kind, VerifyBad::kStale);
  EXPECT_EQ(t.runs[2].block, 2u);
}

TEST(VerifyBlock, FlippedBitsAreCountedWhereverTheyFall) {
  // One flip in the header, the checksum and the payload of three blocks: each is its own block,
  // damaged, and every flipped bit is counted.
  auto buf = Blocks(4, 10);
  buf[0 * kB + 17] ^= 0x01;    // block 10: the block number
  buf[1 * kB + 24] ^= 0x80;    // block 11: the checksum
  buf[3 * kB + 4000] ^= 0x0f;  // block 13: four payload bits
  VerifyTally t;
  t.Check(buf.data(), buf.size(), kSeed, 10);
  EXPECT_EQ(t.intact, 1u);
  EXPECT_EQ(t.corrupted, 3u);
  EXPECT_EQ(t.bit_errors, 6u);
  ASSERT_EQ(t.runs.size(), 2u);
  EXPECT_EQ(t.runs[0].block, 10u);
  EXPECT_EQ(t.runs[0].blocks, 2u);
  EXPECT_EQ(t.runs[0].bits, 2u);
  EXPECT_EQ(t.runs[1].block, 13u);
  EXPECT_EQ(t.runs[1].bits, 4u);
}

TEST(VerifyBlock, AliasedRunsSplitWhereTheDisplacementChanges) {
  std::vector<unsigned char> buf(4 * kB);
  FillVerifyBlocks(buf.data(), 2 * kB, kSeed, 0);           // blocks 50, 51 hold 0, 1
  FillVerifyBlocks(buf.data() + 2 * kB, 2 * kB, kSeed, 7);  // blocks 52, 53 hold 7, 8
  VerifyTally t;
  t.Check(buf.data(), buf.size(), kSeed, 50);
  ASSERT_EQ(t.runs.size(), 2u);
  EXPECT_EQ(t.runs[0].held, 0u);
  EXPECT_EQ(t.runs[1].block, 52u);
  EXPECT_EQ(t.runs[1].held, 7u);
}

TEST(VerifyBlock, MergeOrdersAndJoinsWorkersRuns) {
  std::vector<unsigned char> zeros(2 * kB, 0);
  VerifyTally a, b;
  b.Check(zeros.data(), zeros.size(), kSeed, 8);  // blocks 8, 9 (a later slice)
  a.Check(zeros.data(), zeros.size(), kSeed, 6);  // blocks 6, 7
  VerifyTally all;
  all.Merge(b);
  all.Merge(a);
  EXPECT_EQ(all.zeros, 4u);
  ASSERT_EQ(all.runs.size(), 1u);
  EXPECT_EQ(all.runs[0].block, 6u);
  EXPECT_EQ(all.runs[0].blocks, 4u);
}

TEST(VerifyBlock, RunsStopAtTheCapButCountsGoOn) {
  // Alternating intact and zero blocks: every zero block is a run of its own.
  const size_t n = 2 * (kMaxVerifyRuns + 10);
  auto buf = Blocks(n, 0);
  for (size_t i = 1; i < n; i += 2) std::memset(buf.data() + i * kB, 0, kB);
  VerifyTally t;
  t.Check(buf.data(), buf.size(), kSeed, 0);
  EXPECT_EQ(t.zeros, n / 2);
  EXPECT_EQ(t.runs.size(), kMaxVerifyRuns);
  EXPECT_TRUE(t.truncated);
}

}  // namespace
}  // namespace dd
