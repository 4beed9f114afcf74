// complex<f32> functions as XLA computes them (math_complex64.cpp): the expected values are XLA's
// formulas (xla/service/elemental_ir_emitter.cc) written out again here in f32, step by step,
// over the same real sub-functions (cpp/kernels/math_impl.h's f32 functions, musl's atan2 and pow
// rounded to f32), and compared bit for bit (any NaN matching any NaN) with the functions and with
// the ops run on a program. Hand-written special values anchor XLA's corner cases.
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/float16.h"
#include "common/libm.h"
#include "interp/interp_util.h"
#include "interp/math_functions.h"
#include "kernels/math_impl.h"
#include "kernels/simd.h"

using namespace rl;
using rl::testing::as_complex;
using rl::testing::main_of;
using rl::testing::run_text;

namespace {

using Cf = std::complex<float>;
using Ops = kernels::ScalarOps;
namespace vm = kernels::vmath;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float f_exp(float x) { return vm::exp<Ops>(x); }
float f_expm1(float x) { return vm::expm1<Ops>(x); }
float f_log(float x) { return vm::log<Ops>(x); }
float f_log1p(float x) { return vm::log1p<Ops>(x); }
float f_sin(float x) { return vm::trig<Ops, vm::Trig::Sin>(x); }
float f_cos(float x) { return vm::trig<Ops, vm::Trig::Cos>(x); }
float f_atan2(float y, float x) { return static_cast<float>(libm::atan2(y, x)); }
float f_pow(float x, float y) { return static_cast<float>(libm::pow(x, y)); }

bool same(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}
bool same(Cf a, Cf b) { return same(a.real(), b.real()) && same(a.imag(), b.imag()); }

// ---- XLA's formulas, step by step -----------------------------------------------------------

// EmitComplexAbs: max·sqrt(1 + (min/max)²) (the square fused into the add), min where NaN;
// max and min propagate NaN.
float ref_abs(Cf z) {
  const float x = std::fabs(z.real()), y = std::fabs(z.imag());
  const bool nan = std::isnan(x) || std::isnan(y);
  const float mx = nan ? kNaN : std::fmax(x, y), mn = nan ? kNaN : std::fmin(x, y);
  const float q = mn / mx;
  const float r = mx * std::sqrt(std::fma(q, q, 1.0f));
  return std::isnan(r) ? mn : r;
}

Cf ref_exp(Cf z) {
  const float ea = f_exp(z.real());
  return {ea * f_cos(z.imag()), ea * f_sin(z.imag())};
}

Cf ref_log(Cf z) { return {f_log(ref_abs(z)), f_atan2(z.imag(), z.real())}; }

Cf ref_sqrt(Cf z) {
  const float a = z.real(), b = z.imag();
  const float x = std::fabs(a), y = std::fabs(b);
  const bool nan = std::isnan(x) || std::isnan(y);
  const float mx = nan ? kNaN : std::fmax(x, y), mn = nan ? kNaN : std::fmin(x, y);
  const float q = mn / mx;
  float r = std::sqrt(mx) * f_pow(std::fma(q, q, 1.0f), 0.25f);  // EmitSqrtComplexAbs
  if (std::isnan(r)) r = mn;
  const float t = f_atan2(b, a) * 0.5f;
  const float c = f_cos(t), s = f_sin(t);
  if (r == 0) return {0, 0};
  float re = r * c, im = s == 0 ? s : r * s;
  if (std::isnan(r)) im = kNaN;
  if (a == -kInf && y != kInf) re = 0;
  if (y == kInf || a == kInf) re = kInf;
  if (y == kInf || a == -kInf) im = std::copysign(kInf, b);
  return {re, im};
}

Cf ref_rsqrt(Cf z) {
  const float a = z.real(), b = z.imag();
  const float x = std::fabs(a), y = std::fabs(b);
  const bool nan = std::isnan(x) || std::isnan(y);
  const float mx = nan ? kNaN : std::fmax(x, y), mn = nan ? kNaN : std::fmin(x, y);
  const float q = mn / mx;
  float r = (1.0f / std::sqrt(mx)) * (1.0f / std::sqrt(std::sqrt(std::fma(q, q, 1.0f))));
  if (std::isnan(r)) r = 1.0f / std::sqrt(mn);
  const float t = f_atan2(b, a) * -0.5f;
  if (a == 0 && b == 0) return {kInf, kNaN};
  if ((y == kInf && std::isnan(a)) || x == kInf)
    return {std::copysign(0.0f, a), -std::copysign(0.0f, b)};
  return {r * f_cos(t), r * f_sin(t)};
}

Cf ref_tanh(Cf z) {
  const float a = z.real(), b = z.imag();
  const float e1 = f_expm1(a + a), e2 = f_expm1(-(a + a));
  const float cb = f_cos(b), sb = f_sin(b);
  const float num_im = 4.0f * (cb * sb);
  const float s = e1 + e2;
  const float den = s + (cb * cb) * 4.0f;
  float re = s == kInf ? std::copysign(1.0f, a) : (e1 - e2) / den;
  float im = num_im / den;
  if (std::isnan(num_im) && std::fabs(a) != kInf) re = kNaN;
  if (b == 0 || (std::fabs(a) == kInf && std::isnan(num_im))) im = 0;
  return {re, im};
}

Cf ref_tan(Cf z) {
  const Cf t = ref_tanh({-z.imag(), z.real()});
  return {t.imag(), -t.real()};
}

Cf ref_sin(Cf z) {
  const float e = f_exp(z.imag());
  const float p = 0.5f * e, m = 0.5f / e;
  return {f_sin(z.real()) * (p + m), f_cos(z.real()) * (p - m)};
}

Cf ref_cos(Cf z) {
  const float e = f_exp(z.imag());
  const float p = 0.5f * e, m = 0.5f / e;
  return {f_cos(z.real()) * (p + m), -(f_sin(z.real()) * (p - m))};
}

float ref_cosm1(float x) {
  const float xx = x * x;
  if (xx > 0.61685f) return f_cos(x) - 1.0f;
  const float c[] = {4.7377507964246204691685E-14f, -1.1470284843425359765671E-11f,
                     2.0876754287081521758361E-9f,  -2.7557319214999787979814E-7f,
                     2.4801587301570552304991E-5f,  -1.3888888888888872993737E-3f,
                     4.1666666666666666609054E-2f};
  float p = 0;
  for (float k : c) p = std::fma(p, xx, k);
  return std::fma(xx * xx, p, -0.5f * xx);
}

Cf ref_expm1(Cf z) {
  const float a = z.real(), b = z.imag();
  const float em1 = f_expm1(a), cm1 = ref_cosm1(b);
  return {std::fma(em1, cm1 + 1.0f, cm1), b == 0 ? 0.0f : (em1 + 1.0f) * f_sin(b)};
}

Cf ref_log1p(Cf z) {
  const float a = z.real(), b = z.imag();
  const float a1 = a + 1.0f;
  const float x = std::fabs(a1), y = std::fabs(b);
  const bool nan = std::isnan(x) || std::isnan(y);
  const float mx = nan ? kNaN : std::fmax(x, y), mn = nan ? kNaN : std::fmin(x, y);
  const float q = mn / mx;
  const float r = std::fma(0.5f, f_log1p(q * q), f_log1p(a1 > y ? a : mx - 1.0f));
  return {std::isnan(r) ? mn : r, f_atan2(b, a1)};
}

Cf ref_pow(Cf x, Cf y) {
  const float a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const float m = ref_abs(x);
  const float th = f_atan2(b, a);
  const float k = f_pow(m, c) * f_exp(-d * th);
  const float q = std::fma(c, th, d * f_log(m));
  Cf r{k * f_cos(q), k * f_sin(q)};
  if (m == 0 && d == 0 && c >= 0) r = {c == 0 ? 1.0f : 0.0f, 0};
  if (c == 0 && d == 0) r = {1, 0};
  if (a == 1 && b == 0) r = {1, 0};
  if (a == kInf && b == 0 && d == 0 && c > 0) r = {kInf, 0};
  if (a == kInf && b == 0 && d == 0 && c < 0) r = {0, 0};
  return r;
}

// ---- inputs ---------------------------------------------------------------------------------

std::vector<Cf> ordinary_and_large() {
  std::vector<Cf> v;
  const float parts[] = {0.3f,   -1.7f,     2.5f,     -3.25f,  12.1f,   -37.7f,
                         150.3f, 2.1156e4f, -6.02e7f, 1.5e19f, -3.0e37f};
  for (float re : parts)
    for (float im : parts) v.emplace_back(re, im * 0.73f);
  return v;
}

std::vector<Cf> specials() {
  const float s[] = {0.0f, -0.0f, 1.0f, -2.0f, kInf, -kInf, kNaN};
  std::vector<Cf> v;
  for (float re : s)
    for (float im : s) v.emplace_back(re, im);
  return v;
}

Cf as_f32(std::complex<double> z) {
  return {static_cast<float>(z.real()), static_cast<float>(z.imag())};
}

struct Unary {
  const char* op;
  Cf (*fn)(Cf);
  std::function<Cf(Cf)> ref;
};

}  // namespace

TEST_CASE("complex64 unary functions are XLA's f32 formulas, step by step", "[interp][complex]") {
  namespace c = interp::math::c64;
  const Unary fns[] = {
      {"exponential", c::exp, ref_exp},
      {"exponential_minus_one", c::expm1, ref_expm1},
      {"log", c::log, ref_log},
      {"log_plus_one", c::log1p, ref_log1p},
      {"sqrt", c::sqrt, ref_sqrt},
      {"rsqrt", c::rsqrt, ref_rsqrt},
      {"tanh", c::tanh, ref_tanh},
      {"tan", c::tan, ref_tan},
      {"sine", c::sin, ref_sin},
      {"cosine", c::cos, ref_cos},
      {"cbrt", c::cbrt,
       [](Cf z) {
         return ref_pow(z, {1.0f / 3.0f, 0.0f});
       }},
      {"sign", c::sign,
       [](Cf z) {
         const float m = ref_abs(z);
         return m == 0 ? Cf(0, 0) : Cf(z.real() / m, z.imag() / m);
       }},
      {"logistic", c::logistic,
       [](Cf z) {
         const Cf e = ref_exp(-z);
         return interp::math::divide(Cf(1, 0), Cf(1 + e.real(), 0 + e.imag()));
       }},
  };
  auto inputs = ordinary_and_large();
  const auto sp = specials();
  inputs.insert(inputs.end(), sp.begin(), sp.end());
  const std::string n = std::to_string(inputs.size());
  const std::string t = "tensor<" + n + "xcomplex<f32>>";
  for (const Unary& u : fns) {
    // The function.
    for (const Cf z : inputs) {
      INFO(u.op << " at " << z << ": " << u.fn(z) << " against " << u.ref(z));
      CHECK(same(u.fn(z), u.ref(z)));
    }
    // The op.
    auto ran = run_text(main_of(
        t, "  %a = stablehlo.constant dense<" + rl::testing::complex_literal(inputs) + "> : " + t +
               "\n  %b = stablehlo." + u.op + " %a : " + t + "\n  return %b : " + t + "\n"));
    INFO(u.op << ": " << ran.result.status);
    REQUIRE(ran.result.status == "passed");
    const auto got = as_complex(ran.result, 0);
    REQUIRE(got.size() == inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      INFO(u.op << " at " << inputs[i] << ": " << as_f32(got[i]) << " against "
                << u.ref(inputs[i]));
      CHECK(same(as_f32(got[i]), u.ref(inputs[i])));
    }
  }
}

TEST_CASE("complex64 abs, power and atan2 are XLA's f32 formulas, through the ops",
          "[interp][complex]") {
  namespace c = interp::math::c64;
  const auto x = ordinary_and_large();
  std::vector<Cf> y(x.rbegin(), x.rend());
  for (Cf& v : y) v = {v.real() * 1e-3f, v.imag() * 1e-3f};  // exponents of a sane size
  const std::string n = std::to_string(x.size());
  const std::string t = "tensor<" + n + "xcomplex<f32>>", tr = "tensor<" + n + "xf32>";
  auto ran = run_text(main_of(
      "(" + tr + ", " + t + ", " + t + ")",
      "  %a = stablehlo.constant dense<" + rl::testing::complex_literal(x) + "> : " + t +
          "\n  %b = stablehlo.constant dense<" + rl::testing::complex_literal(y) + "> : " + t +
          "\n  %m = stablehlo.abs %a : (" + t + ") -> " + tr +
          "\n  %p = stablehlo.power %a, %b : " + t + "\n  %q = stablehlo.atan2 %a, %b : " + t +
          "\n  return %m, %p, %q : " + tr + ", " + t + ", " + t + "\n"));
  REQUIRE(ran.result.status == "passed");
  const auto m = rl::testing::as_doubles(ran.result, 0);
  const auto p = as_complex(ran.result, 1), q = as_complex(ran.result, 2);
  for (std::size_t i = 0; i < x.size(); ++i) {
    INFO("x = " << x[i] << ", y = " << y[i]);
    CHECK(same(static_cast<float>(m[i]), ref_abs(x[i])));
    CHECK(same(as_f32(p[i]), ref_pow(x[i], y[i])));
    CHECK(same(c::pow(x[i], y[i]), ref_pow(x[i], y[i])));
    // atan2(y, x) = −i·log((x + i·y)/√(x² + y²)) with XLA's complex multiply, add, sqrt, divide
    // and log (the operands here: lhs x[i], rhs y[i]).
    const Cf yy = x[i], xx = y[i];
    const Cf x2 = interp::math::multiply(xx, xx), y2 = interp::math::multiply(yy, yy);
    const Cf s = ref_sqrt({x2.real() + y2.real(), x2.imag() + y2.imag()});
    const Cf iy = interp::math::multiply(Cf(0, 1), yy);
    const Cf l = ref_log(interp::math::divide(Cf(xx.real() + iy.real(), xx.imag() + iy.imag()), s));
    const Cf want = interp::math::multiply(Cf(0, -1), l);
    CHECK(same(as_f32(q[i]), want));
  }
  for (const Cf a : specials())
    for (const Cf b : specials()) {
      INFO("x = " << a << ", y = " << b);
      CHECK(same(c::pow(a, b), ref_pow(a, b)));
    }
}

TEST_CASE("complex64 special values are XLA's corner cases", "[interp][complex]") {
  namespace c = interp::math::c64;
  // abs: NaN with a NaN part even beside an infinite one (NaN-propagating max); inf with inf.
  CHECK(std::isnan(c::abs({kInf, kNaN})));
  CHECK(c::abs({kInf, -kInf}) == kInf);
  CHECK(c::abs({-0.0f, 0.0f}) == 0.0f);
  CHECK(c::abs({3.0f, -4.0f}) == 5.0f);
  CHECK(c::abs({1e38f, 1e38f}) == ref_abs({1e38f, 1e38f}));  // no overflow of the squares
  CHECK(std::isfinite(c::abs({1e38f, 1e38f})));
  // exp: e^inf·sin 0 is NaN; e^−inf·(cos, sin) is (0, 0).
  CHECK(c::exp({kInf, 0.0f}).real() == kInf);
  CHECK(std::isnan(c::exp({kInf, 0.0f}).imag()));
  CHECK(same(c::exp({-kInf, 1.0f}), Cf(0.0f, 0.0f)));
  // sqrt: (0, 0) at zero; (0, +inf) at −inf + 1i; (+inf, −inf) at 1 − inf·i; (+inf, ..) at +inf.
  CHECK(same(c::sqrt({-0.0f, -0.0f}), Cf(0.0f, 0.0f)));
  CHECK(same(c::sqrt({-kInf, 1.0f}), Cf(0.0f, kInf)));
  CHECK(same(c::sqrt({1.0f, -kInf}), Cf(kInf, -kInf)));
  CHECK(c::sqrt({kInf, 1.0f}).real() == kInf);
  CHECK(same(c::sqrt({-4.0f, 0.0f}), ref_sqrt({-4.0f, 0.0f})));
  // rsqrt: (inf, NaN) at zero; signed zeros at an infinite part.
  CHECK(c::rsqrt({0.0f, -0.0f}).real() == kInf);
  CHECK(std::isnan(c::rsqrt({0.0f, -0.0f}).imag()));
  CHECK(same(c::rsqrt({-kInf, 2.0f}), Cf(-0.0f, -0.0f)));
  CHECK(same(c::rsqrt({kNaN, -kInf}), Cf(0.0f, 0.0f)));
  // tanh: (±1, 0) far out; (NaN, 0) at NaN + 0i; (NaN, NaN) at 1 + inf·i.
  CHECK(same(c::tanh({kInf, 1.0f}), ref_tanh({kInf, 1.0f})));
  CHECK(c::tanh({kInf, 1.0f}).real() == 1.0f);
  CHECK(c::tanh({-100.0f, 2.0f}).real() == -1.0f);
  CHECK(same(c::tanh({kNaN, 0.0f}), Cf(kNaN, 0.0f)));
  CHECK(same(c::tanh({1.0f, kInf}), Cf(kNaN, kNaN)));
  CHECK(same(c::tanh({kInf, kInf}), Cf(1.0f, 0.0f)));
  // power: 0^0 = 1, 0^2 = 0, 1^z = 1, inf^2 = inf, inf^−2 = 0.
  CHECK(same(c::pow({0.0f, 0.0f}, {0.0f, 0.0f}), Cf(1.0f, 0.0f)));
  CHECK(same(c::pow({0.0f, 0.0f}, {2.0f, 0.0f}), Cf(0.0f, 0.0f)));
  CHECK(same(c::pow({1.0f, 0.0f}, {kNaN, 3.0f}), Cf(1.0f, 0.0f)));
  CHECK(same(c::pow({kInf, 0.0f}, {2.0f, 0.0f}), Cf(kInf, 0.0f)));
  CHECK(same(c::pow({kInf, 0.0f}, {-2.0f, 0.0f}), Cf(0.0f, 0.0f)));
  // sign: (0, 0) at zero, NaN with a NaN part.
  CHECK(same(c::sign({-0.0f, 0.0f}), Cf(0.0f, 0.0f)));
  CHECK(same(c::sign({kNaN, 1.0f}), Cf(kNaN, kNaN)));
  CHECK(same(c::sign({3.0f, 4.0f}), Cf(0.6f, 0.8f)));
}

TEST_CASE("complex64 in f32 differs from complex128 rounded once at large magnitudes",
          "[interp][complex]") {
  // The point of the f32 formulas: with |b| large, sin b and cos b are reduced in f32 and e^a·cos b
  // is rounded twice, so some results differ from the double computation rounded once.
  namespace c = interp::math::c64;
  int differs = 0;
  for (const Cf z : ordinary_and_large()) {
    if (std::fabs(z.real()) > 80) continue;  // keep e^a finite
    const Cf f = c::exp(z);
    const Cf d = as_f32(interp::math::exp(std::complex<double>(z.real(), z.imag())));
    if (!same(f, d)) ++differs;
    CHECK(std::fabs(f.real() - d.real()) <= 1e-5f * std::abs(d) + 1e-30f);
  }
  CHECK(differs > 0);
}

TEST_CASE("complex64 CHLO inverse and hyperbolic functions run in double, each part rounded once",
          "[interp][complex]") {
  // XLA evaluates their CHLO decompositions op by op in f32 (not reproduced): these are the
  // complex<f64> functions' values rounded to f32, part by part.
  const std::vector<std::complex<double>> in = {{0.5, 2.0}, {3.0, -0.25}};
  using F = std::complex<double> (*)(std::complex<double>);
  const std::vector<std::pair<std::string, F>> ops = {
      {"asin", interp::math::asin},   {"acos", interp::math::acos},
      {"atan", interp::math::atan},   {"asinh", interp::math::asinh},
      {"acosh", interp::math::acosh}, {"atanh", interp::math::atanh},
      {"sinh", interp::math::sinh},   {"cosh", interp::math::cosh}};
  for (const auto& [op, f] : ops) {
    INFO(op);
    auto ran = run_text(main_of(
        "tensor<2xcomplex<f32>>",
        "  %a = stablehlo.constant dense<[(0.5, 2.0), (3.0, -0.25)]> : tensor<2xcomplex<f32>>\n"
        "  %b = chlo." +
            op + " %a : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>\n  return %b : " +
            "tensor<2xcomplex<f32>>\n"));
    REQUIRE(ran.result.status == "passed");
    const auto got = rl::testing::as_complex(ran.result);
    REQUIRE(got.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      const std::complex<double> want = f(in[i]);
      CHECK(got[i].real() == static_cast<double>(static_cast<float>(want.real())));
      CHECK(got[i].imag() == static_cast<double>(static_cast<float>(want.imag())));
    }
  }
}

TEST_CASE("complex64 results' NaNs are the same bits in every build", "[interp][complex]") {
  namespace c = interp::math::c64;
  // A NaN part of the result is the first NaN part of the operands made quiet, else 0x7FC00000
  // (math_complex64.cpp's settled): the formulas' own arithmetic leaves the payload to the
  // platform (scripts/fuzz run found rsqrt differ between the native and the wasm build).
  using rl::float_bits;
  using rl::float_from_bits;
  const Cf payload(float_from_bits(0x7FA62319u), -0.03f);  // a signalling NaN with a payload
  for (const Cf r : {c::rsqrt(payload), c::sqrt(payload), c::exp(payload), c::log(payload),
                     c::tanh(payload), c::sin(payload), c::pow(payload, Cf(2.0f, 0.0f))}) {
    CHECK(float_bits(r.real()) == 0x7FE62319u);
    CHECK(float_bits(r.imag()) == 0x7FE62319u);
  }
  CHECK(float_bits(c::abs(payload)) == 0x7FE62319u);
  const Cf second =
      c::pow(Cf(2.0f, 1.0f), Cf(0.5f, float_from_bits(0xFFC01234u)));  // the exponent's NaN
  CHECK(float_bits(second.real()) == 0xFFC01234u);
  // A NaN made from numbers: e^inf·sin 0 (XLA's exp special-cases nothing).
  const Cf e = c::exp(Cf(INFINITY, 0.0f));
  CHECK(e.real() == INFINITY);
  CHECK(float_bits(e.imag()) == 0x7FC00000u);
}
