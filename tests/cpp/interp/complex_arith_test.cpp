// Complex products as XLA rounds them: (fma(a, c, −fl(b·d)), fma(a, d, fl(b·c))) in the element
// type (math_functions.h says where the rule comes from). The expected values are computed here
// without fma: for operands of similar magnitude a·c and a·d are exact in double (24 + 24 bits),
// fl(b·d) is the f32 product, and their difference or sum is exact in double too, so one rounding
// to f32 at the end gives the fused result. Inputs around 150 give parts near 21000 with heavy
// cancellation in the real part: where the unfused formula lands an ulp (0.002) away.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/float16.h"
#include "interp/interp_util.h"
#include "interp/math_functions.h"

using namespace rl;
using rl::testing::as_complex;
using rl::testing::main_of;
using rl::testing::run_text;

namespace {

using Cf = std::complex<float>;

Cf xla_rule(Cf x, Cf y) {
  const double a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const double bd = static_cast<float>(b * d), bc = static_cast<float>(b * c);  // f32 products
  return {static_cast<float>(a * c - bd), static_cast<float>(a * d + bc)};
}
Cf unfused(Cf x, Cf y) {
  const float a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  return {ac - bd, ad + bc};
}

// Deterministic f32 operands in [140, 160) with full 24-bit significands.
std::vector<Cf> operands(std::uint32_t seed, int n) {
  std::vector<Cf> v;
  std::uint32_t s = seed;
  auto next = [&] {
    s = s * 1664525u + 1013904223u;
    return 140.0f + static_cast<float>(s >> 8) * (20.0f / 16777216.0f);
  };
  for (int i = 0; i < n; ++i) {
    const float re = next(), im = next();
    v.emplace_back(re, im);
  }
  return v;
}

bool same_bits(Cf a, Cf b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE(
    "complex64 multiply rounds as XLA does: each part one fused multiply-add of an exact product",
    "[interp][complex]") {
  const int n = 64;
  const auto x = operands(1, n), y = operands(2, n);
  // The function itself.
  int differs_from_unfused = 0;
  for (int i = 0; i < n; ++i) {
    INFO("x = " << x[i] << ", y = " << y[i]);
    CHECK(same_bits(interp::math::multiply(x[i], y[i]), xla_rule(x[i], y[i])));
    if (!same_bits(xla_rule(x[i], y[i]), unfused(x[i], y[i]))) ++differs_from_unfused;
  }
  CHECK(differs_from_unfused > 0);  // the inputs tell the two roundings apart
  // The op: multiply, and reduce's product (init (1, 0), then x, then y: (1·x) is x exactly).
  const std::string t = "tensor<" + std::to_string(n) + "xcomplex<f32>>";
  const std::string t2 = "tensor<2x" + std::to_string(n) + "xcomplex<f32>>";
  auto ran = run_text(
      main_of("(" + t + ", " + t + ")",
              "  %a = stablehlo.constant dense<" + rl::testing::complex_literal(x) + "> : " + t +
                  "\n"
                  "  %b = stablehlo.constant dense<" +
                  rl::testing::complex_literal(y) + "> : " + t +
                  "\n"
                  "  %p = stablehlo.multiply %a, %b : " +
                  t +
                  "\n"
                  "  %ab = stablehlo.concatenate %a, %b, dim = 0 : (" +
                  t + ", " + t + ") -> tensor<" + std::to_string(2 * n) +
                  "xcomplex<f32>>\n"
                  "  %m = stablehlo.reshape %ab : (tensor<" +
                  std::to_string(2 * n) + "xcomplex<f32>>) -> " + t2 +
                  "\n"
                  "  %one = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f32>>\n"
                  "  %r = stablehlo.reduce(%m init: %one) applies stablehlo.multiply "
                  "across dimensions = [0] : (" +
                  t2 + ", tensor<complex<f32>>) -> " + t +
                  "\n"
                  "  return %p, %r : " +
                  t + ", " + t + "\n"));
  REQUIRE(ran.result.status == "passed");
  const auto p = as_complex(ran.result, 0), r = as_complex(ran.result, 1);
  REQUIRE(p.size() == static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    INFO("x = " << x[i] << ", y = " << y[i]);
    const Cf want = xla_rule(x[i], y[i]);
    CHECK(same_bits(Cf(static_cast<float>(p[i].real()), static_cast<float>(p[i].imag())), want));
    CHECK(same_bits(Cf(static_cast<float>(r[i].real()), static_cast<float>(r[i].imag())), want));
  }
}

TEST_CASE("complex128 multiply uses the same fused rule in double", "[interp][complex]") {
  // (1 + 2^−30 + i)(1 − 2^−30 + i): a·c = 1 − 2^−60 is not a double; fused, the real part keeps
  // the −2^−60 (fma(a, c, −1) = −2^−60), unfused it is lost (fl(a·c) − 1 = 0).
  const double e = 0x1p-30;
  const std::complex<double> z =
      interp::math::multiply(std::complex<double>(1 + e, 1), std::complex<double>(1 - e, 1));
  CHECK(z.real() == -0x1p-60);
  CHECK(z.imag() == 2.0);  // fma(1 + e, 1, 1 − e) = 2 exactly
}

namespace {

// XLA's complex divide (EmitComplexDivide) for operands whose parts are small integers: the
// products r·c, r·a, r·b of an f32 ratio and an integer below 2^7 are exact in double, and so are
// their sums with another such integer, so rounding each to f32 once is the fused multiply-add
// XLA's backend emits; then the f32 division, as written.
Cf xla_divide_small(Cf x, Cf y) {
  const double a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  if (std::fabs(c) < std::fabs(d)) {
    const double r = static_cast<float>(c / d);
    const float t = static_cast<float>(r * c + d);
    return {static_cast<float>(r * a + b) / t, static_cast<float>(r * b - a) / t};
  }
  const double r = static_cast<float>(d / c);
  const float t = static_cast<float>(r * d + c);
  return {static_cast<float>(a + r * b) / t, static_cast<float>(b - r * a) / t};
}

}  // namespace

TEST_CASE("complex divide is XLA's: Smith's algorithm in the parts' precision, products fused",
          "[interp][complex]") {
  // Every pair of parts from −9 to 9 over a few divisors: the function and the op.
  std::vector<Cf> xs, ys;
  for (int a = -9; a <= 9; a += 2)
    for (int b = -9; b <= 9; b += 3)
      for (const Cf y :
           {Cf(3, 7), Cf(-7, 3), Cf(5, -5), Cf(11, 1), Cf(-1, -13), Cf(6, 0), Cf(0, -6)}) {
        xs.emplace_back(static_cast<float>(a), static_cast<float>(b));
        ys.push_back(y);
      }
  int differs_from_rounded_once = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("x = " << xs[i] << ", y = " << ys[i]);
    const Cf want = xla_divide_small(xs[i], ys[i]);
    CHECK(same_bits(interp::math::divide(xs[i], ys[i]), want));
    const std::complex<double> exact = std::complex<double>(xs[i]) / std::complex<double>(ys[i]);
    const Cf rounded(static_cast<float>(exact.real()), static_cast<float>(exact.imag()));
    if (!same_bits(rounded, want)) ++differs_from_rounded_once;
  }
  CHECK(differs_from_rounded_once > 0);  // the rule is not the true quotient rounded once
  const std::string t = "tensor<" + std::to_string(xs.size()) + "xcomplex<f32>>";
  auto ran = run_text(main_of(
      t, "  %a = stablehlo.constant dense<" + rl::testing::complex_literal(xs) + "> : " + t +
             "\n  %b = stablehlo.constant dense<" + rl::testing::complex_literal(ys) + "> : " + t +
             "\n  %q = stablehlo.divide %a, %b : " + t + "\n  return %q : " + t + "\n"));
  REQUIRE(ran.result.status == "passed");
  const auto q = as_complex(ran.result, 0);
  REQUIRE(q.size() == xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("x = " << xs[i] << ", y = " << ys[i]);
    CHECK(same_bits(Cf(static_cast<float>(q[i].real()), static_cast<float>(q[i].imag())),
                    xla_divide_small(xs[i], ys[i])));
  }
}

TEST_CASE("complex divide's special values are XLA's: zero, infinite and NaN parts",
          "[interp][complex]") {
  using Cd = std::complex<double>;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto is = [](Cd z, double re, double im) {
    const auto same = [](double x, double y) {
      return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
    };
    return same(z.real(), re) && same(z.imag(), im);
  };
  using interp::math::divide;
  // A zero divisor: ±inf times the numerator, the sign of the divisor's real part.
  CHECK(is(divide(Cd(1, -2), Cd(0, 0)), inf, -inf));
  CHECK(is(divide(Cd(1, -2), Cd(-0.0, 0)), -inf, inf));
  CHECK(is(divide(Cd(0, 3), Cd(0, 0)), nan, inf));  // inf·0 is NaN
  CHECK(is(divide(Cd(nan, nan), Cd(0, 0)), nan, nan));
  // An infinite numerator over a finite divisor: Smith's result unless both of its parts are NaN.
  CHECK(is(divide(Cd(inf, 0), Cd(1, 1)), inf, -inf));
  CHECK(is(divide(Cd(-inf, 5), Cd(2, 0)), -inf, nan));   // Smith's: imag 5 − 0·(−inf)
  CHECK(is(divide(Cd(inf, inf), Cd(1, -1)), nan, inf));  // one NaN part: Smith's result stays
  // A finite numerator over an infinite divisor: zeros with the signs of the conjugate product.
  CHECK(is(divide(Cd(1, 1), Cd(inf, 0)), 0.0, 0.0));
  CHECK(is(divide(Cd(1, 1), Cd(-inf, 0)), -0.0, -0.0));
  CHECK(is(divide(Cd(2, -3), Cd(0, inf)), -0.0, -0.0));
  // Neither: NaN stays NaN; a plain quotient is Smith's.
  CHECK(is(divide(Cd(inf, 0), Cd(inf, 0)), nan, nan));
  CHECK(is(divide(Cd(nan, 1), Cd(1, 0)), nan, nan));  // 1 − 0·NaN: both parts NaN, no case applies
  // Both of Smith's parts NaN with an infinite numerator part: inf·(unit parts by the divisor).
  CHECK(is(divide(Cd(inf, nan), Cd(0, 1)), nan, -inf));
  CHECK(is(divide(Cd(1, 0), Cd(0, 2)), 0.0, -0.5));
}

TEST_CASE("complex multiply and divide give NaNs of the same bits in every build",
          "[interp][complex]") {
  // A NaN part is the first NaN part of the operands made quiet, else the quiet NaN with neither
  // sign nor payload (math_functions.h's settled): the fused products left the sign to the
  // platform (natively −NaN from fma(a, c, −(b·NaN)), +NaN in wasm).
  using rl::float_bits;
  using rl::float_from_bits;
  const Cf x(1.5f, 1.5f), y(1.5f, float_from_bits(0x7FA62319u));
  for (const Cf r : {interp::math::multiply(x, y), interp::math::divide(x, y)}) {
    CHECK(float_bits(r.real()) == 0x7FE62319u);
    CHECK(float_bits(r.imag()) == 0x7FE62319u);
  }
  const Cf negative(float_from_bits(0xFFC01234u), 2.0f);
  CHECK(float_bits(interp::math::multiply(negative, y).imag()) == 0xFFC01234u);  // the first NaN
  // Made from numbers: inf·0 in a product.
  const Cf p = interp::math::multiply(Cf(INFINITY, 0.0f), Cf(0.0f, 1.0f));
  CHECK(float_bits(p.real()) == 0x7FC00000u);
  const double dn =
      interp::math::multiply(std::complex<double>(INFINITY, 0.0), std::complex<double>(0.0, 1.0))
          .real();
  CHECK(rl::double_bits(dn) == 0x7FF8000000000000ull);
}
