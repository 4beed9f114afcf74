// Every instance of math_impl.h's functions against the standard library in double: the largest
// error in ulp over every 251st f32 bit pattern of both signs (about 17 million inputs per
// function), dense sweeps where a function is hardest (the overflow and underflow edges, tanh's
// saturation, the trig reduction's limit, the subnormals), and the special values (±0, ±inf, NaN
// payloads). The measured maximum is printed per function and instance; the bound asserted is
// the table's in math_impl.h. In wasm, the scalar and the SIMD instance must give the same bits.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

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

struct Fn {
  MathFn fn;
  const char* name;
  double (*reference)(double);
  double bound;  // ulp, as math_impl.h's table states
};

const Fn kFns[] = {
    {MathFn::Exp, "exp", [](double x) { return std::exp(x); }, 2},
    {MathFn::Expm1, "expm1", [](double x) { return std::expm1(x); }, 2},
    {MathFn::Log, "log", [](double x) { return std::log(x); }, 2},
    {MathFn::Log1p, "log1p", [](double x) { return std::log1p(x); }, 2},
    {MathFn::Logistic, "logistic", [](double x) { return 1 / (1 + std::exp(-x)); }, 3},
    {MathFn::Tanh, "tanh", [](double x) { return std::tanh(x); }, 3},
    {MathFn::Sin, "sin", [](double x) { return std::sin(x); }, 2.5},
    {MathFn::Cos, "cos", [](double x) { return std::cos(x); }, 2.5},
    {MathFn::Tan, "tan", [](double x) { return std::tan(x); }, 3.5},
    {MathFn::Erf, "erf", [](double x) { return std::erf(x); }, 2},
    {MathFn::Sqrt, "sqrt", [](double x) { return std::sqrt(x); }, 0.5},
    {MathFn::Rsqrt, "rsqrt", [](double x) { return 1 / std::sqrt(x); }, 1.5},
};

// |y − exact| in units of the last place of the f32 nearest `exact` (subnormal spacing below
// 2^-126). A result that should round past FLT_MAX must be that infinity; NaN must match NaN.
double ulp_error(float y, double exact) {
  if (std::isnan(exact)) return std::isnan(y) ? 0 : INFINITY;
  const float nearest = static_cast<float>(exact);
  if (std::isinf(nearest) || std::isinf(y)) return nearest == y ? 0 : INFINITY;
  if (std::isnan(y)) return INFINITY;
  const float a = std::fabs(nearest);
  const double ulp = a < 0x1p-126f ? 0x1p-149 : double(std::nextafter(a, INFINITY)) - double(a);
  return std::fabs(double(y) - exact) / ulp;
}

// Every 251st bit pattern of both signs, then dense runs of consecutive floats around the hard
// places, then the special values.
std::vector<float> inputs() {
  std::vector<float> x;
  for (std::uint64_t u = 0; u < 0x7F800000u; u += 251) {
    x.push_back(from_bits(std::uint32_t(u)));
    x.push_back(-from_bits(std::uint32_t(u)));
  }
  const float centres[] = {88.72283935546875f,
                           88.3762626647949f,
                           -87.33654f,
                           -103.972076f,
                           -103.27893f,
                           -16.635532f,
                           9.0109f,
                           0.921875f,
                           3.9999f,
                           0.5493f,
                           vmath::kTrigMaxReduced,
                           1.5707963f,
                           3.1415927f,
                           4.712389f,
                           0x1p-126f,
                           1.0f,
                           0.34657359f,
                           -0.29289322f,
                           0.41421356f,
                           1e-4f,
                           -1e-4f,
                           0.75f,
                           -1.0f};
  for (float c : centres) {
    for (int sign = 0; sign < 2; ++sign) {
      const std::uint32_t b = to_bits(sign ? -c : c);
      for (std::uint32_t d = 0; d < 4096; ++d) {
        x.push_back(from_bits(b + d));
        if (b >= d) x.push_back(from_bits(b - d));
      }
    }
  }
  for (std::uint32_t u = 1; u < 0x00800000u; u += 997) x.push_back(from_bits(u));  // subnormals
  return x;
}

}  // namespace

TEST_CASE("elementwise f32 math stays within its stated ulp of the double-precision reference",
          "[kernel][math]") {
  const std::vector<float> x = inputs();
  std::vector<float> y(x.size());
  for (const auto& variant : math_variants()) {
    for (const Fn& fn : kFns) {
      variant.fn(fn.fn, x.size(), x.data(), y.data());
      double worst = 0;
      std::size_t worst_i = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double e = ulp_error(y[i], fn.reference(double(x[i])));
        if (!(e <= worst)) {
          worst = e;
          worst_i = i;
        }
      }
      std::printf("%s %-8s max %.3f ulp (at x = %.9g: got %.9g, reference %.17g) over %zu inputs\n",
                  variant.name, fn.name, worst, double(x[worst_i]), double(y[worst_i]),
                  fn.reference(double(x[worst_i])), x.size());
      INFO(variant.name << " " << fn.name << ": worst " << worst << " ulp at x = " << x[worst_i]
                        << " (bits 0x" << std::hex << to_bits(x[worst_i]) << std::dec << "): got "
                        << y[worst_i] << ", reference " << fn.reference(double(x[worst_i])));
      CHECK(worst <= fn.bound);
    }
  }
}

TEST_CASE("elementwise f32 math: zeros, infinities, NaN payloads and domain edges",
          "[kernel][math]") {
  const float inf = INFINITY;
  const float nan_payload = from_bits(0x7FC12345u), neg_nan = from_bits(0xFFC00001u),
              snan = from_bits(0x7F800001u);
  // {function, input, expected} with NaNs compared as bits.
  struct Case {
    MathFn fn;
    float x, want;
  };
  const float qnan = from_bits(0x7FC00000u);
  const Case cases[] = {
      {MathFn::Exp, 0.0f, 1},
      {MathFn::Exp, -0.0f, 1},
      {MathFn::Exp, inf, inf},
      {MathFn::Exp, -inf, 0},
      {MathFn::Exp, 89.0f, inf},
      {MathFn::Exp, -104.0f, 0},
      {MathFn::Exp, -103.0f, from_bits(1)},  // e^-103 = 1.32·2^-149
      {MathFn::Expm1, 0.0f, 0.0f},
      {MathFn::Expm1, -0.0f, -0.0f},
      {MathFn::Expm1, inf, inf},
      {MathFn::Expm1, -inf, -1},
      {MathFn::Expm1, 1e-30f, 1e-30f},
      {MathFn::Expm1, from_bits(1), from_bits(1)},
      {MathFn::Log, 0.0f, -inf},
      {MathFn::Log, -0.0f, -inf},
      {MathFn::Log, 1.0f, 0.0f},
      {MathFn::Log, inf, inf},
      {MathFn::Log, -1.0f, qnan},
      {MathFn::Log, -inf, qnan},
      {MathFn::Log1p, -1.0f, -inf},
      {MathFn::Log1p, -0.0f, -0.0f},
      {MathFn::Log1p, 0.0f, 0.0f},
      {MathFn::Log1p, inf, inf},
      {MathFn::Log1p, -2.0f, qnan},
      {MathFn::Log1p, from_bits(1), from_bits(1)},
      {MathFn::Logistic, 0.0f, 0.5f},
      {MathFn::Logistic, inf, 1},
      {MathFn::Logistic, -inf, 0},
      {MathFn::Logistic, 1000.0f, 1},
      {MathFn::Logistic, -1000.0f, 0},
      {MathFn::Tanh, 0.0f, 0.0f},
      {MathFn::Tanh, -0.0f, -0.0f},
      {MathFn::Tanh, inf, 1},
      {MathFn::Tanh, -inf, -1},
      {MathFn::Tanh, 10.0f, 1},
      {MathFn::Tanh, from_bits(0x80000001u), from_bits(0x80000001u)},
      {MathFn::Sin, -0.0f, -0.0f},
      {MathFn::Sin, inf, qnan},
      {MathFn::Cos, -inf, qnan},
      {MathFn::Cos, 0.0f, 1},
      {MathFn::Tan, -0.0f, -0.0f},
      {MathFn::Tan, inf, qnan},
      {MathFn::Erf, -0.0f, -0.0f},
      {MathFn::Erf, inf, 1},
      {MathFn::Erf, -inf, -1},
      {MathFn::Erf, 5.0f, 1},
      {MathFn::Erf, from_bits(1), from_bits(1)},
      {MathFn::Sqrt, -0.0f, -0.0f},
      {MathFn::Sqrt, inf, inf},
      {MathFn::Sqrt, -1.0f, qnan},
      {MathFn::Rsqrt, 0.0f, inf},
      {MathFn::Rsqrt, -0.0f, -inf},
      {MathFn::Rsqrt, inf, 0},
      {MathFn::Rsqrt, -4.0f, qnan},
      {MathFn::Rsqrt, 4.0f, 0.5f},
  };
  for (const auto& variant : math_variants()) {
    for (const Case& c : cases) {
      float y;
      variant.fn(c.fn, 1, &c.x, &y);
      INFO(variant.name << " function " << int(c.fn) << " at x = " << c.x << ": got " << y << " (0x"
                        << std::hex << to_bits(y) << "), want " << c.want << " (0x"
                        << to_bits(c.want) << ")");
      CHECK(to_bits(y) == to_bits(c.want));
    }
    // A NaN comes out as the same NaN, quiet: sign and payload kept, for every function.
    for (const Fn& fn : kFns) {
      for (float n : {nan_payload, neg_nan, snan}) {
        float y;
        variant.fn(fn.fn, 1, &n, &y);
        INFO(variant.name << " " << fn.name << " of NaN 0x" << std::hex << to_bits(n) << " gave 0x"
                          << to_bits(y));
        CHECK(to_bits(y) == (to_bits(n) | 0x00400000u));
      }
    }
  }
}

TEST_CASE("elementwise f32 math gives the same bits in every instance and at every position",
          "[kernel][math]") {
  const std::vector<float> x = inputs();
  const auto& variants = math_variants();
  // In place, in arrays of every length up to 9 (the tails shorter than a vector), against the
  // whole array: an element's bits do not depend on where it sits.
  for (const auto& variant : variants) {
    for (const Fn& fn : kFns) {
      std::vector<float> whole(64);
      variant.fn(fn.fn, whole.size(), x.data() + 1000, whole.data());
      for (std::size_t count = 1; count <= 9; ++count) {
        std::vector<float> part(x.begin() + 1000 + 64 - count, x.begin() + 1000 + 64);
        variant.fn(fn.fn, count, part.data(), part.data());
        for (std::size_t i = 0; i < count; ++i) {
          INFO(variant.name << " " << fn.name << " count " << count << " element " << i);
          CHECK(to_bits(part[i]) == to_bits(whole[64 - count + i]));
        }
      }
    }
  }
  // Every instance against the first (scalar) on every input: the same bits. (Natively the core
  // has only the scalar instance; in wasm the SIMD one is compared with it here.)
  std::vector<float> want(x.size()), got(x.size());
  for (std::size_t v = 1; v < variants.size(); ++v) {
    if (std::string(variants[v].isa) == "portable") continue;  // -march=native FMAs: other bits
    for (const Fn& fn : kFns) {
      variants[0].fn(fn.fn, x.size(), x.data(), want.data());
      variants[v].fn(fn.fn, x.size(), x.data(), got.data());
      std::size_t differ = 0, first = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (to_bits(want[i]) != to_bits(got[i]) && differ++ == 0) first = i;
      }
      std::printf("%s vs %s %-8s: %zu of %zu results differ in their bits\n", variants[v].name,
                  variants[0].name, fn.name, differ, x.size());
      INFO(variants[v].name << " " << fn.name << ": first difference at x = " << x[first]);
      CHECK(differ == 0);
    }
  }
}
