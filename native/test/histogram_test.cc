// Histogram: bucket layout, exactness below 128 ns, bounded relative error, percentiles and merge.
#include "engine/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dd {
namespace {

TEST(Histogram, EmptyReportsZeros) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.Percentile(0.5), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
}

TEST(Histogram, SmallValuesAreExact) {
  Histogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.Record(v);
  EXPECT_EQ(h.Percentile(0.50), 50u);
  EXPECT_EQ(h.Percentile(0.90), 90u);
  EXPECT_EQ(h.Percentile(0.99), 99u);
  EXPECT_EQ(h.Percentile(1.0), 100u);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_EQ(h.max(), 100u);
}

TEST(Histogram, IndexAndBoundsAreConsistent) {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 129ull, 255ull, 256ull, 1000ull, 123456789ull,
                     (1ull << 40) + 12345}) {
    const int i = Histogram::IndexOf(v);
    EXPECT_LE(Histogram::LowerBound(i), v) << v;
    EXPECT_GT(Histogram::LowerBound(i) + Histogram::Width(i), v) << v;
  }
  // Buckets tile the number line without gaps.
  for (int i = 0; i + 1 < Histogram::kBuckets; ++i)
    ASSERT_EQ(Histogram::LowerBound(i) + Histogram::Width(i), Histogram::LowerBound(i + 1)) << i;
}

TEST(Histogram, PercentilesWithinOnePointSixPercent) {
  // Latencies spread over four decades, like a real random-read run with a long tail.
  std::vector<uint64_t> values;
  uint64_t x = 12345;
  for (int i = 0; i < 100000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(x >> 11) / 9007199254740992.0;
    values.push_back(static_cast<uint64_t>(1000.0 * std::pow(10.0, 4.0 * u)));
  }
  Histogram h;
  for (uint64_t v : values) h.Record(v);
  std::sort(values.begin(), values.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const double exact =
        static_cast<double>(values[static_cast<size_t>(std::ceil(q * values.size())) - 1]);
    const double got = static_cast<double>(h.Percentile(q));
    EXPECT_NEAR(got / exact, 1.0, 1.0 / 64) << "q=" << q;
  }
}

TEST(Histogram, MergeEqualsRecordingEverything) {
  Histogram a, b, all;
  for (uint64_t v = 100; v < 50000; v += 7) {
    (v % 2 ? a : b).Record(v);
    all.Record(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_DOUBLE_EQ(a.mean(), all.mean());
  for (double q : {0.1, 0.5, 0.99}) EXPECT_EQ(a.Percentile(q), all.Percentile(q));
}

TEST(Histogram, PercentileClampedToObservedRange) {
  Histogram h;
  h.Record(1000003);
  EXPECT_EQ(h.Percentile(0.5), 1000003u);
  EXPECT_EQ(h.Percentile(0.999), 1000003u);
}

TEST(Histogram, NonEmptyListsOccupiedBucketsInOrder) {
  Histogram h;
  for (uint64_t v : {5u, 5u, 1000u, 1001u, 250000u}) h.Record(v);
  const auto buckets = h.NonEmpty();
  uint64_t total = 0, prev = 0;
  for (const auto& b : buckets) {
    EXPECT_GT(b.count, 0u);
    EXPECT_GE(b.lower_ns, prev);
    prev = b.lower_ns + b.width_ns;
    total += b.count;
  }
  EXPECT_EQ(total, h.count());
  ASSERT_FALSE(buckets.empty());
  EXPECT_EQ(buckets.front().lower_ns, 5u);
  EXPECT_EQ(buckets.front().count, 2u);
  // 250 µs lies in the last occupied bucket.
  EXPECT_LE(buckets.back().lower_ns, 250000u);
  EXPECT_GT(buckets.back().lower_ns + buckets.back().width_ns, 250000u);
}

}  // namespace
}  // namespace dd
