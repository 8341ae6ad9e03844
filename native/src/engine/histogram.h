// Histogram: fixed-memory log-linear latency histogram (fio / HdrHistogram style). Values below
// 128 ns are exact; above, each power of two is split into 64 buckets, so a percentile is within
// 1/64 (1.6 %) of the true value. One per worker thread, merged at the end.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace dd {

class Histogram {
 public:
  static constexpr int kLinear = 128;
  static constexpr int kSubBits = 6;
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kBuckets = kLinear + 57 * kSub;

  void Record(uint64_t ns);
  void Merge(const Histogram& other);
  void Reset();

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  // q in [0, 1]; the value below which a fraction q of the samples lie (bucket midpoint).
  uint64_t Percentile(double q) const;

  // Every bucket holding samples, lowest first: what a caller needs to merge histograms of
  // several tests (the many-file test pools the latencies of all its files) and to take
  // percentiles of the union by the same rule as Percentile().
  struct Bucket {
    uint64_t lower_ns, width_ns, count;
  };
  std::vector<Bucket> NonEmpty() const;

  static int IndexOf(uint64_t v);
  static uint64_t LowerBound(int index);
  static uint64_t Width(int index);

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

}  // namespace dd
