// Histogram arithmetic. Index layout: [0, 128) exact nanoseconds; then, for every power of two
// from 2^7 upward, 64 equal-width buckets.
#include "engine/histogram.h"

#include <algorithm>
#include <cmath>

namespace dd {

namespace {
int Msb(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll(v);
#else
  int n = 0;
  while (v >>= 1) ++n;
  return n;
#endif
}
}  // namespace

int Histogram::IndexOf(uint64_t v) {
  if (v < static_cast<uint64_t>(kLinear)) return static_cast<int>(v);
  const int g = Msb(v) - kSubBits;  // >= 1
  const int sub = static_cast<int>(v >> g) - kSub;
  const int idx = kLinear + (g - 1) * kSub + sub;
  return std::min(idx, kBuckets - 1);
}

uint64_t Histogram::LowerBound(int index) {
  if (index < kLinear) return static_cast<uint64_t>(index);
  const int g = (index - kLinear) / kSub + 1;
  const uint64_t sub = static_cast<uint64_t>((index - kLinear) % kSub + kSub);
  return sub << g;
}

uint64_t Histogram::Width(int index) {
  if (index < kLinear) return 1;
  return 1ULL << ((index - kLinear) / kSub + 1);
}

void Histogram::Record(uint64_t ns) {
  ++buckets_[IndexOf(ns)];
  ++count_;
  sum_ += ns;
  if (ns < min_) min_ = ns;
  if (ns > max_) max_ = ns;
}

void Histogram::Merge(const Histogram& o) {
  for (int i = 0; i < kBuckets; ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

std::vector<Histogram::Bucket> Histogram::NonEmpty() const {
  std::vector<Bucket> out;
  for (int i = 0; i < kBuckets; ++i)
    if (buckets_[i]) out.push_back({LowerBound(i), Width(i), buckets_[i]});
  return out;
}

void Histogram::Reset() { *this = Histogram(); }

uint64_t Histogram::Percentile(double q) const {
  if (!count_) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * count_)));
  uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += buckets_[i];
    if (seen >= rank) {
      const uint64_t mid = LowerBound(i) + Width(i) / 2;
      return std::clamp(mid, min_, max_);
    }
  }
  return max_;
}

}  // namespace dd
