// NumPy's legacy random numbers (np.random.seed, rand, randn, ...: the global RandomState), bit
// for bit: the Mersenne Twister MT19937 seeded as NumPy's mt19937_seed seeds it (one 32-bit
// seed through Knuth's multiplier), 53-bit doubles from two draws, normals by the polar method
// with the second value kept for the next call, integers by masked rejection. Pure: no notebook,
// no NumPy arrays; the notebook fills its arrays from these.
#pragma once

#include <cstdint>

namespace rl::python {

class LegacyRandom {
 public:
  explicit LegacyRandom(std::uint32_t seed = 0) { seed_with(seed); }
  void seed_with(std::uint32_t seed);
  std::uint32_t next_u32();
  double next_double();  // [0, 1), 53 bits: (a >> 5) * 2^26 + (b >> 6), over 2^53
  double gauss();        // a standard normal (the polar method; every other call is free)
  // An integer in [0, range] (range < 2^64) by NumPy's masked rejection: draws masked to the
  // smallest all-ones mask covering range until one is within it (32-bit draws while range
  // fits 32 bits, 64-bit ones — two draws, high word first — past it).
  std::uint64_t bounded(std::uint64_t range);

 private:
  void twist();
  std::uint32_t key_[624];
  int pos_ = 624;
  bool has_gauss_ = false;
  double gauss_ = 0;
};

}  // namespace rl::python
