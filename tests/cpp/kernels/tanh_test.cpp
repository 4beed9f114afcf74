// Every tanh variant against std::tanh in double: accuracy in ulp over [−10, 10] and the
// special values. The scalar variant runs natively and in wasm; the SIMD one in wasm.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "catch.hpp"
#include "kernels/kernels.h"

using namespace rl::kernels;

namespace {
float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::uint32_t to_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
// |y − tanh(x)| in units of the last place of the f32 nearest the exact value.
double ulp_error(float y, double exact) {
  const float nearest = static_cast<float>(exact);
  const float above = std::nextafter(std::fabs(nearest), std::numeric_limits<float>::infinity());
  const double ulp = double(above) - double(std::fabs(nearest));
  return std::fabs(double(y) - exact) / ulp;
}
constexpr double kMaxUlp = 3;  // the bound stated in cpp/kernels/math_impl.h
}  // namespace

TEST_CASE("tanh variants stay within 3 ulp of std::tanh over [-10, 10]", "[kernel][tanh]") {
  // Every 17th float from 2^-10 to 10, both signs, plus a sweep of the tiny ones down to
  // subnormals: about 13 million inputs per variant.
  std::vector<float> x;
  for (std::uint32_t u = to_bits(0x1p-10f); u <= to_bits(10.0f); u += 17) {
    x.push_back(from_bits(u));
    x.push_back(-from_bits(u));
  }
  for (std::uint32_t u = 1; u < to_bits(0x1p-10f); u += 4099) x.push_back(from_bits(u));
  std::vector<float> y(x.size());
  for (const auto& variant : tanh_variants()) {
    variant.fn(x.size(), x.data(), y.data());
    double worst = 0;
    std::size_t worst_i = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double e = ulp_error(y[i], std::tanh(double(x[i])));
      if (!(e <= worst)) {
        worst = e;
        worst_i = i;
      }
    }
    INFO(variant.name << ": worst " << worst << " ulp at x = " << x[worst_i] << " (index "
                      << worst_i << "): got " << y[worst_i] << ", std::tanh gives "
                      << std::tanh(double(x[worst_i])));
    CHECK(worst <= kMaxUlp);
  }
}

TEST_CASE("tanh variants handle zeros, infinities, NaN and large inputs", "[kernel][tanh]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float x[] = {0.0f,   -0.0f,   inf,    -inf,  std::numeric_limits<float>::quiet_NaN(),
                     9.0f,   9.5f,    -20.0f, 1e30f, -3.4e38f,
                     1e-40f, -1e-45f, 1e-20f};
  constexpr std::size_t n = sizeof x / sizeof x[0];
  for (const auto& variant : tanh_variants()) {
    INFO(variant.name);
    float y[n];
    variant.fn(n, x, y);
    CHECK(y[0] == 0.0f);
    CHECK_FALSE(std::signbit(y[0]));
    CHECK(y[1] == 0.0f);
    CHECK(std::signbit(y[1]));  // tanh(−0) = −0
    CHECK(y[2] == 1.0f);
    CHECK(y[3] == -1.0f);
    CHECK(std::isnan(y[4]));
    CHECK(ulp_error(y[5], std::tanh(9.0)) <= kMaxUlp);  // 1 − 3.05e-8: a hair from halfway
    CHECK(y[6] == 1.0f);  // beyond 9.0109, 1 − tanh(x) < 2^-25: tanh rounds to 1 in f32
    CHECK(y[7] == -1.0f);
    CHECK(y[8] == 1.0f);
    CHECK(y[9] == -1.0f);
    CHECK(y[10] == 1e-40f);  // subnormal: tanh(x) = x in f32
    CHECK(y[11] == -1e-45f);
    CHECK(y[12] == 1e-20f);
  }
}

TEST_CASE("tanh variants handle every count, including tails shorter than a vector",
          "[kernel][tanh]") {
  for (const auto& variant : tanh_variants()) {
    for (std::size_t count = 0; count <= 11; ++count) {
      std::vector<float> x(count + 1), y(count + 1, 42.0f);
      for (std::size_t i = 0; i < count; ++i) x[i] = 0.25f * float(i) - 1.0f;
      variant.fn(count, x.data(), y.data());
      INFO(variant.name << " count " << count);
      for (std::size_t i = 0; i < count; ++i)
        CHECK(ulp_error(y[i], std::tanh(double(x[i]))) <= kMaxUlp);
      CHECK(y[count] == 42.0f);  // nothing written past the end
    }
  }
}

TEST_CASE("the registry has a scalar tanh everywhere and a SIMD one in wasm", "[kernel][tanh]") {
  bool scalar = false, simd = false;
  for (const auto& v : tanh_variants()) {
    scalar |= std::string(v.isa) == "scalar";
    simd |= std::string(v.isa) == "wasmsimd";
  }
  CHECK(scalar);
  CHECK(simd == bool(RL_HAVE_WASMSIMD));
}
