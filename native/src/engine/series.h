// Series: bytes completed per time bucket, one per worker thread (no sharing on the hot path),
// summed into a throughput time series at the end.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/result.h"

namespace dd {

class Series {
 public:
  explicit Series(uint64_t bucket_ns) : bucket_ns_(bucket_ns) {}
  void Add(uint64_t ns_since_start, uint64_t bytes);
  void Merge(const Series& other);
  // total_ns: length of the measured phase; the last, partial bucket is scaled by its length, or
  // joins the one before when shorter than half a bucket.
  std::vector<SeriesPoint> Points(uint64_t total_ns) const;

 private:
  uint64_t bucket_ns_;
  std::vector<uint64_t> bytes_;
};

}  // namespace dd
