// Series arithmetic.
#include "engine/series.h"

#include <algorithm>

namespace dd {

namespace {
// A run that outlives this many buckets keeps adding into the last one rather than growing
// without bound (at 100 ms buckets: over 27 hours).
constexpr size_t kMaxBuckets = 1 << 20;
}  // namespace

void Series::Add(uint64_t ns, uint64_t bytes) {
  size_t i = std::min<size_t>(ns / bucket_ns_, kMaxBuckets - 1);
  if (i >= bytes_.size()) bytes_.resize(i + 1 + bytes_.size() / 2, 0);
  bytes_[i] += bytes;
}

void Series::Merge(const Series& o) {
  if (o.bytes_.size() > bytes_.size()) bytes_.resize(o.bytes_.size(), 0);
  for (size_t i = 0; i < o.bytes_.size(); ++i) bytes_[i] += o.bytes_[i];
}

std::vector<SeriesPoint> Series::Points(uint64_t total_ns) const {
  std::vector<SeriesPoint> out;
  if (!total_ns) return out;
  const size_t n = std::min<size_t>((total_ns + bucket_ns_ - 1) / bucket_ns_, kMaxBuckets);
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t start = i * bucket_ns_;
    const uint64_t end = std::min<uint64_t>(start + bucket_ns_, total_ns);
    const uint64_t b = i < bytes_.size() ? bytes_[i] : 0;
    const double secs = static_cast<double>(end - start) / 1e9;
    out.push_back({static_cast<double>(end) / 1e9, secs > 0 ? b / secs / 1e6 : 0.0});
  }
  // A tail shorter than half a bucket joins the bucket before it: a few I/Os completing in its
  // last milliseconds would otherwise read as a peak many times the disk's speed.
  const uint64_t tail_ns = total_ns - (n - 1) * bucket_ns_;
  if (n >= 2 && n < kMaxBuckets && tail_ns * 2 < bucket_ns_) {
    const uint64_t b =
        (n - 2 < bytes_.size() ? bytes_[n - 2] : 0) + (n - 1 < bytes_.size() ? bytes_[n - 1] : 0);
    const double secs = static_cast<double>(bucket_ns_ + tail_ns) / 1e9;
    out.pop_back();
    out.back() = {static_cast<double>(total_ns) / 1e9, b / secs / 1e6};
  }
  return out;
}

}  // namespace dd
