// complex<f32> functions as XLA's CPU backend computes them: its elemental IR emitter's formulas
// (xla/service/elemental_ir_emitter.cc, openxla/xla after #10376: EmitComplexUnaryOp,
// EmitComplexAbs, EmitComplexLog, EmitComplexSqrt, EmitComplexRsqrt, EmitComplexPower,
// EmitComplexBinaryOp's atan2, EmitCosm1), every step one f32 operation, written out here
// (formulas cited, code our own).
//
// The real sub-functions, the same bits natively and in wasm:
//   exp, expm1, log, log1p, sin, cos   cpp/kernels/math_impl.h's f32 functions, scalar instance
//                                      (XLA calls its own f32 approximations or libm's f32
//                                      functions there: a value may differ by their ulp or two)
//   sqrt                               the IEEE square root (correctly rounded, as XLA's)
//   rsqrt                              1/sqrt(x), two roundings (EmitRsqrt)
//   atan2, pow                         musl's double function (common/libm.h) rounded once to f32
//                                      (XLA calls atan2f and powf)
// Contraction: XLA's CPU backend lets LLVM fuse a multiply into the add that uses it (see
// multiply in math_functions.h); here each such a·b + c is one std::fma, and in x·y + z·w the
// first product is the fused one, as in multiply. This file is built with -ffp-contract=off, so
// nothing else is fused.
//
// max and min are NaN-propagating (XLA's EmitFloatMax/EmitFloatMin without fast min/max).
#include <cmath>
#include <initializer_list>
#include <limits>

#include "common/libm.h"
#include "interp/math_functions.h"
#include "kernels/math_impl.h"
#include "kernels/simd.h"

namespace rl::interp::math::c64 {

namespace {

using Ops = kernels::ScalarOps;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float exp_f(float x) { return kernels::vmath::exp<Ops>(x); }
float expm1_f(float x) { return kernels::vmath::expm1<Ops>(x); }
float log_f(float x) { return kernels::vmath::log<Ops>(x); }
float log1p_f(float x) { return kernels::vmath::log1p<Ops>(x); }
float sin_f(float x) { return kernels::vmath::trig<Ops, kernels::vmath::Trig::Sin>(x); }
float cos_f(float x) { return kernels::vmath::trig<Ops, kernels::vmath::Trig::Cos>(x); }
float sqrt_f(float x) { return std::sqrt(x); }
float rsqrt_f(float x) { return 1.0f / std::sqrt(x); }
float atan2_f(float y, float x) {
  return static_cast<float>(libm::atan2(static_cast<double>(y), static_cast<double>(x)));
}
float pow_f(float x, float y) {
  return static_cast<float>(libm::pow(static_cast<double>(x), static_cast<double>(y)));
}
float max_f(float a, float b) { return std::isnan(a) || std::isnan(b) ? kNaN : a > b ? a : b; }
float min_f(float a, float b) { return std::isnan(a) || std::isnan(b) ? kNaN : a < b ? a : b; }

// EmitComplexAbsHelper: min and max of |a|, |b|, and 1 + (min/max)², the square fused.
struct AbsParts {
  float min, max, one_p_div_sq;
};
AbsParts abs_parts(C z) {
  const float ar = std::fabs(z.real()), ai = std::fabs(z.imag());
  const float mx = max_f(ar, ai), mn = min_f(ar, ai);
  const float div = mn / mx;
  return {mn, mx, libm::fma(div, div, 1.0f)};
}

// Cephes' cosm1 as EmitCosm1 writes it: −x²/2 + x⁴·P(x²) for x² ≤ 0.61685 ((π/4)²), else cos x − 1.
// P by Horner, each step fused.
float cosm1_f(float x) {
  static constexpr float kCoeffs[] = {
      4.7377507964246204691685E-14f, -1.1470284843425359765671E-11f, 2.0876754287081521758361E-9f,
      -2.7557319214999787979814E-7f, 2.4801587301570552304991E-5f,   -1.3888888888888872993737E-3f,
      4.1666666666666666609054E-2f,
  };
  const float xx = x * x;
  if (xx > 0.61685f) return cos_f(x) + -1.0f;
  const float xxxx = xx * xx;
  float p = 0.0f;
  for (float c : kCoeffs) p = libm::fma(p, xx, c);
  return libm::fma(xxxx, p, -0.5f * xx);
}

}  // namespace

// The formulas; the functions below settle their NaNs (math_functions.h's settled: scripts/fuzz
// run found rsqrt of a NaN with a payload give the operand's NaN natively and 0x7FC00000 in wasm).
namespace formula {

// EmitComplexAbs: max·√(1 + (min/max)²); where that is NaN ((0, 0), (inf, inf), a NaN part), min.
float abs(C z) {
  const AbsParts p = abs_parts(z);
  const float r = p.max * sqrt_f(p.one_p_div_sq);
  return std::isnan(r) ? p.min : r;
}

// sign z = z/|z|, (0, 0) where |z| = 0.
C sign(C z) {
  const float m = abs(z);
  if (m == 0.0f) return {0.0f, 0.0f};
  return {z.real() / m, z.imag() / m};
}

// e^(a+bi) = (e^a·cos b, e^a·sin b), nothing special-cased (e^inf·sin 0 is NaN, as XLA's).
C exp(C z) {
  const float e = exp_f(z.real());
  return {e * cos_f(z.imag()), e * sin_f(z.imag())};
}

// e^z − 1 = (expm1(a)·cos b + cosm1(b), (expm1(a) + 1)·sin b), imaginary part 0 where b = 0.
C expm1(C z) {
  const float a = z.real(), b = z.imag();
  const float em1 = expm1_f(a);
  const float e = em1 + 1.0f;
  const float cm1 = cosm1_f(b);
  const float c = cm1 + 1.0f;
  return {libm::fma(em1, c, cm1), b == 0.0f ? 0.0f : e * sin_f(b)};
}

// log z = (log|z|, atan2(b, a)) with EmitComplexAbs's |z|.
C log(C z) { return {log_f(abs(z)), atan2_f(z.imag(), z.real())}; }

// log(1 + z): with a1 = a + 1, M = max(|a1|, |b|), m = min(|a1|, |b|),
//   Re = ½·log1p((m/M)²) + log1p(a1 > |b| ? a : M − 1)   (m where that is NaN)
//   Im = atan2(b, a1)
C log1p(C z) {
  const float a = z.real(), b = z.imag();
  const float a1 = a + 1.0f;
  const float aa1 = std::fabs(a1), ab = std::fabs(b);
  const float mx = max_f(aa1, ab), mn = min_f(aa1, ab);
  const float mx_m1 = a1 > ab ? a : mx - 1.0f;
  const float ratio = mn / mx;
  const float l_max = log1p_f(mx_m1);
  const float l_sqrt = log1p_f(ratio * ratio);
  const float r = libm::fma(0.5f, l_sqrt, l_max);
  return {std::isnan(r) ? mn : r, atan2_f(b, a1)};
}

// √z = √r·(cos(t/2), sin(t/2)), r = |z| as √max·(1 + (min/max)²)^¼ (EmitSqrtComplexAbs, min
// where NaN), t = atan2(b, a); the special values EmitComplexSqrt selects: Re inf where |b| = inf
// or a = +inf, 0 where a = −inf and |b| finite; Im ±inf (b's sign) where |b| = inf or a = −inf,
// NaN where r is NaN, sin(t/2) itself where that is 0; (0, 0) where r = 0.
C sqrt(C z) {
  const float a = z.real(), b = z.imag();
  const AbsParts p = abs_parts(z);
  float r = sqrt_f(p.max) * pow_f(p.one_p_div_sq, 0.25f);
  if (std::isnan(r)) r = p.min;
  const float angle = atan2_f(b, a) * 0.5f;
  const float c = cos_f(angle), s = sin_f(angle);
  if (r == 0.0f) return {0.0f, 0.0f};
  const float ab = std::fabs(b);
  const float re = (ab == kInf || a == kInf) ? kInf : (a == -kInf && ab != kInf) ? 0.0f : r * c;
  const float im = (ab == kInf || a == -kInf) ? std::copysign(kInf, b)
                   : std::isnan(r)            ? kNaN
                   : s == 0.0f                ? s
                                              : r * s;
  return {re, im};
}

// 1/√z = r·(cos(−t/2), sin(−t/2)), r = rsqrt(max)·rsqrt(√(1 + (min/max)²)) (rsqrt(min) where
// NaN); (inf, NaN) at (0, 0); (±0 with a's sign, ∓0 against b's sign) where |a| = inf or
// |b| = inf with a NaN (EmitComplexRsqrt).
C rsqrt(C z) {
  const float a = z.real(), b = z.imag();
  const AbsParts p = abs_parts(z);
  float r = rsqrt_f(p.max) * rsqrt_f(sqrt_f(p.one_p_div_sq));
  if (std::isnan(r)) r = rsqrt_f(p.min);
  const float angle = atan2_f(b, a) * -0.5f;
  const float c = cos_f(angle), s = sin_f(angle);
  if (b == 0.0f && a == 0.0f) return {kInf, kNaN};
  if ((std::fabs(b) == kInf && std::isnan(a)) || std::fabs(a) == kInf)
    return {std::copysign(0.0f, a), std::copysign(0.0f, b) * -1.0f};
  return {r * c, r * s};
}

// tanh(a + bi) = (e^2a − e^−2a + 2i·sin 2b) / (e^2a + e^−2a + 2·cos 2b), written with
// expm1: Re = (E⁺ − E⁻)/D, Im = 4·cos b·sin b/D, D = (E⁺ + E⁻) + 4·cos²b, E± = expm1(±2a);
// Re = ±1 (a's sign) where E⁺ + E⁻ = inf; NaN real part where sin 2b is NaN and a finite; zero
// imaginary part where b = 0 or (a infinite and sin 2b NaN) (EmitComplexUnaryOp, kTanh).
C tanh(C z) {
  const float a = z.real(), b = z.imag();
  const float two_a = a + a;
  const float neg_2a = -1.0f * two_a;
  const float ep = expm1_f(two_a), en = expm1_f(neg_2a);
  const float real_num = ep - en;
  const float cb = cos_f(b);
  const float cb_sq = cb * cb;
  const float two_cos_2b_p2 = cb_sq * 4.0f;
  const float sb = sin_f(b);
  const float imag_num = 4.0f * (cb * sb);
  const float sum_m2 = ep + en;
  const float denom = sum_m2 + two_cos_2b_p2;
  float re = sum_m2 == kInf ? std::copysign(1.0f, a) : real_num / denom;
  float im = imag_num / denom;
  const bool a_inf = std::fabs(a) == kInf;
  const bool sin_nan = std::isnan(imag_num);
  if (sin_nan && !a_inf) re = kNaN;
  if (b == 0.0f || (a_inf && sin_nan)) im = 0.0f;
  return {re, im};
}

// tan(x + yi) = −i·tanh(−y + xi): tanh's steps on (−y, x), the result (Im, −Re).
C tan(C z) {
  const C t = tanh({-1.0f * z.imag(), z.real()});
  return {t.imag(), -1.0f * t.real()};
}

// sin(x + yi) = (sin x·cosh y, cos x·sinh y), cos(x + yi) = (cos x·cosh y, −sin x·sinh y), with
// cosh y = ½e^y + ½/e^y and sinh y = ½e^y − ½/e^y.
C sin(C z) {
  const float x = z.real(), y = z.imag();
  const float ey = exp_f(y);
  const float h = 0.5f * ey, hn = 0.5f / ey;
  return {sin_f(x) * (h + hn), cos_f(x) * (h - hn)};
}

C cos(C z) {
  const float x = z.real(), y = z.imag();
  const float ey = exp_f(y);
  const float h = 0.5f * ey, hn = 0.5f / ey;
  return {cos_f(x) * (h + hn), -(sin_f(x) * (h - hn))};
}

// (a + bi)^(c + di) = |z|^c·e^(−d·θ)·(cos q, sin q), θ = atan2(b, a), q = c·θ + d·log|z|
// (|z| EmitComplexAbs's); then XLA's cases, the last listed winning: (1, 0) for a zero base with
// d = 0 and c = 0, (0, 0) for c > 0; (1, 0) for c = d = 0; (1, 0) for a base of 1; (inf, 0) and
// (0, 0) for a base of +inf with d = 0 and c > 0, c < 0 (EmitComplexPower).
C pow(C x, C y) {
  const float a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const float m = abs(x);
  const float m_c = pow_f(m, c);
  const float theta = atan2_f(b, a);
  const float coeff = m_c * exp_f(-d * theta);
  const float q = libm::fma(c, theta, d * log_f(m));
  if (a == kInf && b == 0.0f && d == 0.0f && c < 0.0f) return {0.0f, 0.0f};
  if (a == kInf && b == 0.0f && d == 0.0f && c > 0.0f) return {kInf, 0.0f};
  if (a == 1.0f && b == 0.0f) return {1.0f, 0.0f};
  if (c == 0.0f && d == 0.0f) return {1.0f, 0.0f};
  if (m == 0.0f && d == 0.0f && 0.0f <= c) return {c == 0.0f ? 1.0f : 0.0f, 0.0f};
  return {coeff * cos_f(q), coeff * sin_f(q)};
}

// cbrt z = z^(1/3 + 0i) (XLA's EmitComplexCbrt: EmitComplexPower with c = 1/3, d = 0).
C cbrt(C z) { return pow(z, {1.0f / 3.0f, 0.0f}); }

// logistic z = 1/(1 + e^−z): XLA's LogisticExpander, then its complex exp, add and divide.
C logistic(C z) {
  const C e = exp({-z.real(), -z.imag()});
  return divide(C(1.0f, 0.0f), C(1.0f + e.real(), 0.0f + e.imag()));
}

// atan2(y, x) = −i·log((x + i·y)/√(x² + y²)), each step XLA's complex multiply, add, sqrt,
// divide and log in f32.
C atan2(C y, C x) {
  const C x2 = multiply(x, x), y2 = multiply(y, y);
  const C s = sqrt({x2.real() + y2.real(), x2.imag() + y2.imag()});
  const C iy = multiply(C(0.0f, 1.0f), y);
  const C l = log(divide(C(x.real() + iy.real(), x.imag() + iy.imag()), s));
  return multiply(C(0.0f, -1.0f), l);
}

}  // namespace formula

float abs(C z) { return settled(formula::abs(z), {z}); }
C sign(C z) { return settled(formula::sign(z), {z}); }
C exp(C z) { return settled(formula::exp(z), {z}); }
C expm1(C z) { return settled(formula::expm1(z), {z}); }
C log(C z) { return settled(formula::log(z), {z}); }
C log1p(C z) { return settled(formula::log1p(z), {z}); }
C sqrt(C z) { return settled(formula::sqrt(z), {z}); }
C rsqrt(C z) { return settled(formula::rsqrt(z), {z}); }
C cbrt(C z) { return settled(formula::cbrt(z), {z}); }
C tanh(C z) { return settled(formula::tanh(z), {z}); }
C tan(C z) { return settled(formula::tan(z), {z}); }
C sin(C z) { return settled(formula::sin(z), {z}); }
C cos(C z) { return settled(formula::cos(z), {z}); }
C logistic(C z) { return settled(formula::logistic(z), {z}); }
C pow(C x, C y) { return settled(formula::pow(x, y), {x, y}); }
C atan2(C y, C x) { return settled(formula::atan2(y, x), {y, x}); }

}  // namespace rl::interp::math::c64
