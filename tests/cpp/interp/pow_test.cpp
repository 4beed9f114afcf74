// f32 power (interp/pow_f32.cpp): its error against musl's pow in double over many bases and
// exponents, C's special values exactly as the double path gives them, and the vectorized path
// equal to the one-element path bit for bit (in the wasm build the first runs f64x2 lanes).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "common/float16.h"
#include "common/libm.h"
#include "interp/simd_loops.h"

using rl::interp::simd::f32_pow;
using rl::interp::simd::f32_pow_one;

namespace {

float from_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// The double path's answer (what stablehlo.power of f32 computed before pow_f32.cpp).
float reference(float x, float y) {
  return static_cast<float>(rl::libm::pow(static_cast<double>(x), static_cast<double>(y)));
}

// |got − exact| in units of the last place of the f32 nearest the exact value (2^-149 below the
// normal range).
double ulps(float got, double exact) {
  const double a = std::fabs(exact);
  const int e = a >= 0x1p-126 ? std::ilogb(a) : -126;
  return std::fabs(static_cast<double>(got) - exact) / std::ldexp(1.0, e - 23);
}

}  // namespace

TEST_CASE("f32 power is within 0.51 ulp of pow in double, over bases by stride and many exponents",
          "[interp][pow]") {
  const float exponents[] = {0.5f,  -0.5f, 2.0f,     -2.0f,  3.0f,   -3.0f,    0.1f,
                             -0.1f, 1.5f,  1 / 3.0f, 7.25f,  -7.25f, 100.375f, -100.375f,
                             1e-3f, 1e-7f, 40.5f,    -40.5f, 127.9f, -149.5f,  0.0f,
                             -0.0f, 1.0f,  -1.0f,    1e5f,   -1e5f,  12345.6f, 2.2e-5f};
  double worst = 0;
  float worst_x = 0, worst_y = 0;
  std::size_t count = 0;
  for (float y : exponents)
    for (std::uint32_t b = 1; b < 0x7F800000u; b += 4099) {  // every positive finite f32 by stride
      const float x = from_bits(b);
      const double exact = rl::libm::pow(static_cast<double>(x), static_cast<double>(y));
      const float got = f32_pow_one(x, y);
      ++count;
      if (std::isinf(exact) || std::fabs(exact) >= 0x1.ffffffp127) {  // past f32's largest
        CHECK(got == reference(x, y));
        continue;
      }
      const double e = ulps(got, exact);
      if (e > worst) worst = e, worst_x = x, worst_y = y;
    }
  WARN("f32 power: worst " << worst << " ulp at x = " << worst_x << ", y = " << worst_y << " over "
                           << count << " pairs");
  CHECK(worst <= 0.51);
}

TEST_CASE("f32 power near the overflow and underflow edges rounds as pow in double does",
          "[interp][pow]") {
  // 2^127.99… is finite, 2^128 overflows; 2^-149 is the least subnormal, 2^-150 rounds to 0 or up.
  for (float x : {2.0f, 0.5f, 3.0f, 1.0001f, 0.9999f, 10.0f})
    for (int i = -400; i <= 400; ++i) {
      const double target = i < 0 ? -150.0 : 128.0;
      const float y =
          static_cast<float>(target / std::log2(static_cast<double>(x)) * (1.0 + i * 1e-6));
      const float got = f32_pow_one(x, y);
      const float want = reference(x, y);
      if (std::isinf(want) || want == 0.0f || want < 0x1p-126f) {
        INFO("x = " << x << ", y = " << y);
        CHECK(got == want);
      } else {
        CHECK(ulps(got, rl::libm::pow(static_cast<double>(x), static_cast<double>(y))) <= 0.51);
      }
    }
}

TEST_CASE("f32 power's special values are C's, with the double path's NaN bits", "[interp][pow]") {
  const float inf = INFINITY;
  const float values[] = {0.0f,
                          -0.0f,
                          inf,
                          -inf,
                          1.0f,
                          -1.0f,
                          2.0f,
                          -2.0f,
                          0.5f,
                          -0.5f,
                          3.0f,
                          -3.0f,
                          2.5f,
                          -2.5f,
                          1e-45f,
                          -1e-45f,
                          0x1p-130f,
                          from_bits(0x7FC00000u),
                          from_bits(0xFFC00001u),
                          from_bits(0x7F800123u),
                          1e30f,
                          -1e30f};
  std::size_t nans = 0;
  for (float x : values)
    for (float y : values) {
      const bool positive_finite = x > 0 && x < inf && std::fabs(y) < inf;
      if (positive_finite) continue;  // the double lanes: covered above
      const float got = f32_pow_one(x, y);
      const float want = reference(x, y);
      INFO("x bits " << rl::float_bits(x) << ", y bits " << rl::float_bits(y));
      CHECK(rl::float_bits(got) == rl::float_bits(want));
      nans += std::isnan(want);
    }
  CHECK(nans > 0);  // the table reaches NaN results (negative bases, NaN operands)
  CHECK(f32_pow_one(1.0f, from_bits(0x7FC00000u)) == 1.0f);  // 1^NaN = 1
  CHECK(f32_pow_one(from_bits(0x7FC00000u), 0.0f) == 1.0f);  // NaN^0 = 1
  CHECK(rl::float_bits(f32_pow_one(-0.0f, 3.0f)) == 0x80000000u);
  CHECK(f32_pow_one(-2.0f, 3.0f) == -8.0f);
}

TEST_CASE("f32 power over arrays equals the one-element path bit for bit, in place too",
          "[interp][pow]") {
  // Every kind of lane mixed, at lengths that leave a tail after the vectors.
  std::vector<float> a, b;
  std::uint32_t s = 12345;
  auto next = [&] { return s = s * 1664525u + 1013904223u; };
  for (int i = 0; i < 1003; ++i) {
    const std::uint32_t r = next();
    switch (r % 5) {
      case 0:
        a.push_back(from_bits(next() & 0x7FFFFFFFu));  // any positive, NaNs and inf included
        break;
      case 1:
        a.push_back(-static_cast<float>(r % 7));  // negative integers and −0
        break;
      default:
        a.push_back(static_cast<float>(r % 100000) / 997.0f);
    }
    const std::uint32_t q = next();
    b.push_back(q % 4 == 0 ? static_cast<float>(q % 9) - 4.0f
                           : static_cast<float>(static_cast<int>(q % 20001) - 10000) / 313.0f);
  }
  b[5] = INFINITY;
  b[6] = from_bits(0x7FC12345u);
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(4), std::size_t(7), a.size()}) {
    std::vector<float> y(n);
    f32_pow(n, a.data(), b.data(), y.data());
    std::vector<float> in_place(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n));
    f32_pow(n, in_place.data(), b.data(), in_place.data());
    for (std::size_t i = 0; i < n; ++i) {
      INFO("n = " << n << ", i = " << i);
      CHECK(rl::float_bits(y[i]) == rl::float_bits(f32_pow_one(a[i], b[i])));
      CHECK(rl::float_bits(in_place[i]) == rl::float_bits(y[i]));
    }
  }
}
