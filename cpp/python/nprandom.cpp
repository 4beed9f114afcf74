#include "python/nprandom.h"

#include "common/libm.h"

namespace rl::python {

namespace {
constexpr int kN = 624, kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
}  // namespace

void LegacyRandom::seed_with(std::uint32_t seed) {
  for (int i = 0; i < kN; ++i) {
    key_[i] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + static_cast<std::uint32_t>(i + 1);
  }
  pos_ = kN;
  has_gauss_ = false;
  gauss_ = 0;
}

void LegacyRandom::twist() {
  for (int i = 0; i < kN; ++i) {
    const std::uint32_t y = (key_[i] & kUpper) | (key_[(i + 1) % kN] & kLower);
    key_[i] = key_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
  }
  pos_ = 0;
}

std::uint32_t LegacyRandom::next_u32() {
  if (pos_ >= kN) twist();
  std::uint32_t y = key_[pos_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

double LegacyRandom::next_double() {
  const std::uint32_t a = next_u32() >> 5, b = next_u32() >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double LegacyRandom::gauss() {
  if (has_gauss_) {
    has_gauss_ = false;
    return gauss_;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * next_double() - 1.0;
    x2 = 2.0 * next_double() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * libm::log(r2) / r2);
  gauss_ = f * x1;
  has_gauss_ = true;
  return f * x2;
}

std::uint64_t LegacyRandom::bounded(std::uint64_t range) {
  if (range == 0) return 0;
  std::uint64_t mask = range;
  for (int s = 1; s < 64; s <<= 1) mask |= mask >> s;
  if (range <= 0xffffffffu) {
    for (;;) {
      const std::uint64_t v = next_u32() & mask;
      if (v <= range) return v;
    }
  }
  for (;;) {
    const std::uint64_t hi = next_u32();
    const std::uint64_t v = ((hi << 32) | next_u32()) & mask;
    if (v <= range) return v;
  }
}

}  // namespace rl::python
