// Prng, Series and spec validation: the engine's plain-data pieces.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <vector>

#include "engine/prng.h"
#include "engine/series.h"
#include "engine/spec.h"

namespace dd {
namespace {

TEST(Prng, SameSeedSameStream) {
  Prng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.Next(), b.Next());
  EXPECT_NE(Prng(42).Next(), c.Next());
}

TEST(Prng, BelowStaysInRangeAndCoversIt) {
  Prng p(7);
  std::set<uint64_t> seen;
  for (int i = 0; i < 10000; ++i) {
    uint64_t v = p.Below(10);
    ASSERT_LT(v, 10u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 10u);
}

TEST(Prng, FillIsIncompressibleAndRefreshed) {
  Prng p(1);
  std::vector<unsigned char> a(1 << 16), b(1 << 16);
  p.Fill(a.data(), a.size());
  p.Fill(b.data(), b.size());
  EXPECT_NE(std::memcmp(a.data(), b.data(), a.size()), 0) << "a refill must give new bytes";
  // Every byte value appears, roughly uniformly: a crude but sharp incompressibility check.
  std::vector<int> counts(256);
  for (unsigned char c : a) ++counts[c];
  for (int c : counts) {
    EXPECT_GT(c, 256 * 0.7);
    EXPECT_LT(c, 256 * 1.3);
  }
}

TEST(Prng, FillHandlesOddLengths) {
  Prng p(3);
  std::vector<unsigned char> buf(37 + 8, 0xAA);
  p.Fill(buf.data(), 37);
  for (size_t i = 37; i < buf.size(); ++i) EXPECT_EQ(buf[i], 0xAA) << "wrote past the end";
}

TEST(Series, BucketsBytesIntoThroughput) {
  Series s(100000000);          // 100 ms
  s.Add(10000000, 50000000);    // 50 MB in the first 100 ms
  s.Add(150000000, 100000000);  // 100 MB in the second
  auto pts = s.Points(200000000);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NEAR(pts[0].t, 0.1, 1e-9);
  EXPECT_NEAR(pts[0].mbps, 500.0, 1e-6);
  EXPECT_NEAR(pts[1].mbps, 1000.0, 1e-6);
}

TEST(Series, PartialLastBucketIsScaledByItsLength) {
  Series s(100000000);
  s.Add(120000000, 10000000);  // 10 MB in a 50 ms tail
  auto pts = s.Points(150000000);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_NEAR(pts[1].t, 0.15, 1e-9);
  EXPECT_NEAR(pts[1].mbps, 200.0, 1e-6);
}

TEST(Series, ShortTailJoinsTheBucketBefore) {
  Series s(100000000);
  s.Add(50000000, 50000000);  // 50 MB in the first 100 ms
  s.Add(101000000, 8000000);  // 8 MB completing in a 2 ms tail: alone it would read 4,000 MB/s
  auto pts = s.Points(102000000);
  ASSERT_EQ(pts.size(), 1u);
  EXPECT_NEAR(pts[0].t, 0.102, 1e-9);
  EXPECT_NEAR(pts[0].mbps, 58.0 / 0.102, 1e-6);
}

TEST(Series, MergeSums) {
  Series a(100000000), b(100000000);
  a.Add(0, 1000000);
  b.Add(0, 1000000);
  b.Add(250000000, 1000000);
  a.Merge(b);
  auto pts = a.Points(300000000);
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_NEAR(pts[0].mbps, 20.0, 1e-9);
  EXPECT_NEAR(pts[2].mbps, 10.0, 1e-9);
}

Spec Valid() {
  Spec s;
  s.path = "/tmp/x";
  s.bs = 1 << 20;
  s.file_size = 64 << 20;
  return s;
}

TEST(Normalize, FillsDefaultBytesAndRoundsFileSize) {
  Spec s = Valid();
  s.file_size = (64 << 20) + 1234;
  ASSERT_TRUE(Normalize(&s).ok());
  EXPECT_EQ(s.file_size, 64u << 20);
  EXPECT_EQ(s.bytes, 64u << 20);
}

TEST(Normalize, RejectsOutOfRangeWithPlainWords) {
  struct Case {
    void (*mutate)(Spec*);
    const char* words;
  };
  const Case cases[] = {
      {[](Spec* s) { s->bs = 100; }, "block size"},
      {[](Spec* s) { s->bs = 256ull << 20; }, "block size"},
      {[](Spec* s) { s->bs = (100ull << 20) + 256; }, "block size"},
      {[](Spec* s) { s->qd = 0; }, "queue depth"},
      {[](Spec* s) { s->qd = 65; }, "queue depth"},
      {[](Spec* s) { s->threads = 65; }, "thread count"},
      {[](Spec* s) { s->file_size = 1000; }, "test file"},
      {[](Spec* s) { s->path.clear(); }, "path"},
      {[](Spec* s) { s->seconds = -1; }, "seconds"},
      {[](Spec* s) { s->offset = 1 << 20; }, "only to a whole device"},
      {[](Spec* s) {
         s->device = true;
         s->offset = 4096;
       },
       "not a multiple of the block size"},
      {[](Spec* s) {
         s->bs = 64ull << 20;
         s->qd = 64;
         s->file_size = 1ull << 40;
       },
       "512 MiB"},
  };
  for (const auto& c : cases) {
    Spec s = Valid();
    c.mutate(&s);
    Status st = Normalize(&s);
    EXPECT_EQ(st.code, "EINVAL");
    EXPECT_NE(st.message().find(c.words), std::string::npos) << st.message();
  }
}

TEST(Normalize, ADeviceTakesAnOffsetOnABlock) {
  Spec s = Valid();
  s.device = true;
  s.offset = 40ull << 20;
  ASSERT_TRUE(Normalize(&s).ok());
  EXPECT_EQ(s.offset, 40ull << 20);
}

TEST(Status, NodeStyleMessage) {
  Status st = Status::Errno(ENOSPC, "write", "/mnt/x/f");
  EXPECT_EQ(st.code, "ENOSPC");
  EXPECT_EQ(st.message(), "ENOSPC: no space left on device, write '/mnt/x/f'");
}

}  // namespace
}  // namespace dd
