// Prng: fast, seedable data and offset generator. Fill() writes incompressible bytes fast enough
// (several GB/s on one core) that refilling every write buffer does not limit the test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dd {

class Prng {
 public:
  explicit Prng(uint64_t seed);
  uint64_t Next();  // xoshiro256**
  // Uniform in [0, n), n > 0.
  uint64_t Below(uint64_t n);
  // Fills len bytes (len a multiple of 8 is fastest; any length works).
  void Fill(void* buf, size_t len);

 private:
  static constexpr int kLanes = 8;
  uint64_t s_[4];
  uint64_t lanes_[kLanes];  // independent xorshift lanes for Fill()
};

}  // namespace dd
