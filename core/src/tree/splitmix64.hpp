// The one deterministic random generator of the core and its tests: splitmix64 (Steele, Lea,
// Flood 2014): tiny, seedable, identical on every platform and in WASM (no libm, no <random>).
#pragma once

#include <cstdint>

namespace speccalc {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  // Uniform in 0..n-1 (n > 0; the modulo bias is below 2^-50 for the small n tests use).
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

}  // namespace speccalc
