// Elementwise f32 math, written once against the SIMD vocabulary (simd.h): one algorithm per
// function, instantiated per ISA (scalar.cpp, wasmsimd.cpp, portable.cpp). The interpreter's f32,
// f16 and bf16 math ops (cpp/interp/ops_math.cpp) and the kernels' tanh(A·B) epilogue
// (matmul_impl.h) call these same functions, so a value computed by either is the same bits.
//
// Every operation is one f32 operation rounded once (no FMA), so the scalar and the f32x4
// instance give the same bits (tested in wasm). Specials are chosen, never left to arithmetic:
// a NaN input comes out as the same NaN made quiet (sign and payload kept: x | 0x00400000); a
// NaN made from numbers (log of a negative, sin of ±inf, sqrt of a negative) is 0x7FC00000.
//
// Accuracy: the largest error, in units in the last place of the f32 result nearest the exact
// value, measured by tests/cpp/kernels/math_test.cpp against the standard library's function in
// double, over every 64th f32 bit pattern of both signs (every 16th where the function changes
// fastest) and the special values. The test asserts the bound column; the measured column is
// what it printed (the same natively and in wasm; "same bits" in wasm between scalar and SIMD).
//
//   function  method                                                      bound   measured
//   exp       Cody–Waite n·ln2 + r, 1 + a degree-7 fit, 2^n in two parts   2       0.94
//   expm1     the same reduction and fit, 2^n·p + (2^n − 1)                2       1.50
//   log       x = 2^k·m, m in [√½, √2), s = f/(2+f), fdlibm's logf series  2       0.80
//   log1p     log of u = 1 + x plus the rounding error of u, over u        2       0.82
//   logistic  e = exp(−|x|): 1/(1 + e) or e/(1 + e)                       3       2.15
//   tanh      sign(x)·e/(e + 2), e = expm1(2|x|), one-part ln2, |x| ≤ 9.1  3       2.38
//   sin       x − q·π/2 (π/2 in four parts), Taylor degree 9 and 10        2.5     2.23
//   cos       the same                                                     2.5     2.14
//   tan       sin/cos of the reduced argument, −cos/sin on odd q           3.5     3.35
//   erf       Arm's erff: x + x·A(x²) below 0.921875, 1 − e^−(a + a·B(a))  2       1.12
//   sqrt      the instruction (correctly rounded)                          0.5     0.50
//   rsqrt     1 / sqrt(x), two roundings                                   1.5     1.48
// (Measured over 17.4 million inputs per function, natively and in wasm alike.)
// The trig functions reduce |x| ≤ 8192 with f32 arithmetic; larger |x| (rare in any model) are
// computed lane by lane in double (musl's sin, cos and tan, cpp/common/libm.h: the same bits
// natively and in wasm) and rounded once, in every instance alike.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/libm.h"

namespace rl::kernels {

// The functions of this file by name: what an array call runs.
enum class MathFn { Exp, Expm1, Log, Log1p, Logistic, Tanh, Sin, Cos, Tan, Erf, Sqrt, Rsqrt };

namespace vmath {

template <class Ops>
struct Consts {
  using V = typename Ops::V;
  using VI = typename Ops::VI;
  static constexpr float kMagic =
      12582912.0f;  // 1.5·2^23: x + kMagic − kMagic rounds x to an integer
};

template <class Ops>
inline typename Ops::V abs(typename Ops::V x) {
  return Ops::from_bits(Ops::andnot_bits(Ops::bits(x), Ops::splat_bits(0x80000000u)));
}

// The last step of every function: y, except where x is NaN (there x made quiet, its sign and
// payload kept), and a NaN made from numbers gets its sign cleared (0x7FC00000: the arithmetic
// gives the quiet NaN with payload 0x400000 — wasm's canonical NaN, x86's and Arm's default
// NaN — but its sign differs between them). Done on the bits: a compiler may replace one NaN
// by another in float selects (clang did, for sqrt of a negative, in the scalar wasm build).
template <class Ops>
inline typename Ops::V keep_nan(typename Ops::V x, typename Ops::V y) {
  using VI = typename Ops::VI;
  const VI xnan = Ops::ne(x, x);
  const VI ynan = Ops::ne(y, y);
  const VI yb = Ops::andnot_bits(Ops::bits(y), Ops::and_bits(ynan, Ops::splat_bits(0x80000000u)));
  const VI xq = Ops::or_bits(Ops::bits(x), Ops::splat_bits(0x00400000u));
  return Ops::from_bits(Ops::or_bits(Ops::andnot_bits(yb, xnan), Ops::and_bits(xq, xnan)));
}

// keep_nan for a function that makes no NaN from numbers (exp, expm1, logistic, tanh, erf): only
// a NaN input is put back, quiet (three fewer operations).
template <class Ops>
inline typename Ops::V keep_nan_input(typename Ops::V x, typename Ops::V y) {
  const auto xq = Ops::from_bits(Ops::or_bits(Ops::bits(x), Ops::splat_bits(0x00400000u)));
  return Ops::select(Ops::eq(x, x), y, xq);  // a select on the bits (simd.h): one wasm bitselect
}

template <class Ops>
inline typename Ops::V qnan() {
  return Ops::from_bits(Ops::splat_bits(0x7FC00000u));
}

// 2^n for an integral n in [−126, 127] held as a float: n's bits after adding 1.5·2^23 hold n in
// the low mantissa bits (two's complement), which shifted into the exponent field and biased
// give the power.
template <class Ops>
inline typename Ops::V pow2(typename Ops::V n) {
  const auto v = Ops::bits(Ops::add(n, Ops::splat(Consts<Ops>::kMagic)));
  return Ops::from_bits(Ops::add_bits(Ops::shl_bits(v, 23), Ops::splat_bits(0x3F800000u)));
}

// Cody–Waite: r = x − n·ln2 with n = round(x/ln2). ln2 = kLn2Hi + kLn2Lo, kLn2Hi with 15
// significant bits, so n·kLn2Hi and x − n·kLn2Hi are exact for |n| < 2^9.
constexpr float kLog2e = 1.44269502f;
constexpr float kLn2Hi = 0.693145751953125f;  // 0x3F317200
constexpr float kLn2Lo = 1.42860677e-6f;      // ln2 − kLn2Hi, rounded
// *nm = n + 1.5·2^23 as computed (its bits hold n: pow2_of_magic).
template <class Ops>
inline void reduce_ln2(typename Ops::V x, typename Ops::V& n, typename Ops::V& r,
                       typename Ops::V* nm = nullptr) {
  const auto magic = Ops::splat(Consts<Ops>::kMagic);
  const auto m = Ops::add(Ops::mul(x, Ops::splat(kLog2e)), magic);
  if (nm) *nm = m;
  n = Ops::sub(m, magic);
  r = Ops::sub(Ops::sub(x, Ops::mul(n, Ops::splat(kLn2Hi))), Ops::mul(n, Ops::splat(kLn2Lo)));
}

// pow2(n) from n + 1.5·2^23 as reduce_ln2 computed it: the same bits, one addition fewer.
template <class Ops>
inline typename Ops::V pow2_of_magic(typename Ops::V nm) {
  return Ops::from_bits(
      Ops::add_bits(Ops::shl_bits(Ops::bits(nm), 23), Ops::splat_bits(0x3F800000u)));
}

// expm1(r) for |r| ≤ ln2/2 + a little: r + r²·P(r), P of degree 5 fitted for expm1's relative
// error over |r| ≤ 0.3536 (Lawson's iteration towards minimax, in double: 2.7e-10 there before the
// coefficients' rounding to f32; they are written as the f32 bit patterns the fit rounded to).
// P is evaluated by Estrin's scheme — (a + r²·b) + r⁴·d with a, b, d linear in r — not Horner's:
// the same count of operations, but a chain of 7 dependent ones where Horner's has 13. tanh, exp
// and logistic are bound by that latency, not by their count of operations: in V8, the Taylor
// series to degree 8 by Horner, or this fit by Horner (two operations fewer), ran tanh at the
// same speed; this runs it about 10 % faster (the old and the new core alternating in one Node
// process, 15 rounds). In f32 it is as close as the Taylor series was (1.28·2^-24 relative at
// worst, of 20,000 points).
template <class Ops>
inline typename Ops::V expm1_poly(typename Ops::V r) {
  using V = typename Ops::V;
  auto c = [](std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return Ops::splat(f);
  };
  const V r2 = Ops::mul(r, r);
  const V r4 = Ops::mul(r2, r2);
  const V a = Ops::add(Ops::mul(c(0x3e2aaaaau), r), Ops::splat(0.5f));  // 1.66666657e-1
  const V b = Ops::add(Ops::mul(c(0x3c0888cau), r), c(0x3d2aaa52u));  // 8.3333943e-3, 4.16663364e-2
  const V d =
      Ops::add(Ops::mul(c(0x395019cfu), r), c(0x3ab6bff6u));  // 1.98460402e-4, 1.39427069e-3
  const V p = Ops::add(Ops::add(a, Ops::mul(r2, b)), Ops::mul(r4, d));
  return Ops::add(Ops::mul(r2, p), r);
}

// expm1(t) for t in [−30, 89] (no NaN): 2^n·expm1(r) + (2^n − 1), n ≤ 127 in the power and a
// final ×2 for n = 128 (t past 88.38). Below t = −17.4 the result rounds to −1. kUpTo127: the
// caller's t is below 88 (tanh's), and the n = 128 step is left out.
template <class Ops, bool kUpTo127 = false>
inline typename Ops::V expm1_core(typename Ops::V t) {
  using V = typename Ops::V;
  V n, r, nm;
  if constexpr (kUpTo127) {
    // tanh's reduction, ln2 in one part (two operations fewer): r is off by up to n·2e-9 plus
    // the product's rounding, e = expm1(t) by as much relatively, and tanh = e/(e + 2) feels
    // 2/(e + 2) of that — below 0.1 ulp for every n ≥ 1 (at n = 0 the reduction is exact). The
    // accuracy table's tanh row is measured with it.
    const auto magic = Ops::splat(Consts<Ops>::kMagic);
    nm = Ops::add(Ops::mul(t, Ops::splat(kLog2e)), magic);
    n = Ops::sub(nm, magic);
    r = Ops::sub(t, Ops::mul(n, Ops::splat(0.693147182f)));
  } else {
    reduce_ln2<Ops>(t, n, r, &nm);
  }
  const V p = expm1_poly<Ops>(r);
  const V one = Ops::splat(1.0f);
  if constexpr (kUpTo127) {
    const V s = pow2_of_magic<Ops>(nm);
    return Ops::add(Ops::mul(s, p), Ops::sub(s, one));
  } else {
    const V n1 = Ops::pmin(n, Ops::splat(127.0f));
    const V s = pow2<Ops>(n1);
    const V e = Ops::add(Ops::mul(s, p), Ops::sub(s, one));
    return Ops::mul(e, Ops::add(one, Ops::sub(n, n1)));  // × 2 where n = 128
  }
}

// e^x. x is clamped to [−110, 89] (e^−110 rounds to 0, e^89 to +inf); n = round(x/ln2) lies in
// [−159, 129] and 2^n is applied as 2^n1·2^n2 with n1 in [−125, 127]: e^r·2^n1 stays normal and
// exact, and the one rounding into the subnormals (or to +inf) is the second product's.
template <class Ops>
inline typename Ops::V exp(typename Ops::V x) {
  using V = typename Ops::V;
  const V xc = Ops::pmin(Ops::pmax(x, Ops::splat(-110.0f)), Ops::splat(89.0f));
  V n, r;
  reduce_ln2<Ops>(xc, n, r);
  const V e = Ops::add(Ops::splat(1.0f), expm1_poly<Ops>(r));
  const V n1 = Ops::pmin(Ops::pmax(n, Ops::splat(-125.0f)), Ops::splat(127.0f));
  const V y = Ops::mul(Ops::mul(e, pow2<Ops>(n1)), pow2<Ops>(Ops::sub(n, n1)));
  return keep_nan_input<Ops>(x, y);
}

template <class Ops>
inline typename Ops::V expm1(typename Ops::V x) {
  using V = typename Ops::V;
  const V xc = Ops::pmin(Ops::pmax(x, Ops::splat(-30.0f)), Ops::splat(89.0f));
  const V y = expm1_core<Ops>(xc);
  return keep_nan_input<Ops>(x,
                             Ops::select(Ops::eq(x, Ops::splat(0.0f)), x, y));  // ±0 keeps its sign
}

// log(u) + c for u > 0 finite (c a small correction, log1p's), after fdlibm's logf (FreeBSD
// msun e_logf.c): u = 2^k·m with m in [√½, √2), f = m − 1, s = f/(2 + f),
// log(1 + f) = f − f²/2 + s·(f²/2 + R(s²)), R a degree-4 series in s² with fdlibm's
// coefficients Lg1..Lg4 (0xaaaaaa.0p-24, 0xccce13.0p-25, 0x91e9ee.0p-25, 0xf89e26.0p-26), and
// k·ln2 in two parts. Subnormal u are scaled by 2^23 first.
template <class Ops>
inline typename Ops::V log_core(typename Ops::V u, typename Ops::V c) {
  using V = typename Ops::V;
  using VI = typename Ops::VI;
  const VI tiny = Ops::lt(u, Ops::splat(0x1p-126f));
  u = Ops::select(tiny, Ops::mul(u, Ops::splat(0x1p23f)), u);
  const V bias = Ops::select(tiny, Ops::splat(150.0f), Ops::splat(127.0f));  // 127 (+ 23)
  const VI ix = Ops::add_bits(Ops::bits(u), Ops::splat_bits(0x3F800000u - 0x3F3504F3u));
  // The biased exponent as a float: its bits added to 1.5·2^23's.
  const V magic = Ops::splat(Consts<Ops>::kMagic);
  const V kbiased =
      Ops::sub(Ops::from_bits(Ops::add_bits(Ops::shr_bits(ix, 23), Ops::bits(magic))), magic);
  const V k = Ops::sub(kbiased, bias);
  const V m = Ops::from_bits(
      Ops::add_bits(Ops::and_bits(ix, Ops::splat_bits(0x007FFFFFu)), Ops::splat_bits(0x3F3504F3u)));
  const V f = Ops::sub(m, Ops::splat(1.0f));
  const V s = Ops::div(f, Ops::add(Ops::splat(2.0f), f));
  const V z = Ops::mul(s, s);
  const V w = Ops::mul(z, z);
  const V t1 =
      Ops::mul(w, Ops::add(Ops::splat(0x1.999c26p-2f), Ops::mul(w, Ops::splat(0x1.f13c4cp-3f))));
  const V t2 =
      Ops::mul(z, Ops::add(Ops::splat(0x1.555554p-1f), Ops::mul(w, Ops::splat(0x1.23d3dcp-2f))));
  const V R = Ops::add(t2, t1);
  const V hfsq = Ops::mul(Ops::splat(0.5f), Ops::mul(f, f));
  constexpr float kLogLn2Hi = 6.9313812256e-01f;  // 0x3F317180: k·kLogLn2Hi exact for |k| < 2^8
  constexpr float kLogLn2Lo = 9.0580006145e-06f;  // 0x3717F7D1
  const V lo = Ops::add(Ops::mul(k, Ops::splat(kLogLn2Lo)), c);
  const V inner = Ops::add(Ops::mul(s, Ops::add(hfsq, R)), lo);
  return Ops::sub(Ops::mul(k, Ops::splat(kLogLn2Hi)), Ops::sub(Ops::sub(hfsq, inner), f));
}

// log(x): −inf at ±0, NaN below 0, +inf at +inf.
template <class Ops>
inline typename Ops::V log(typename Ops::V x) {
  using V = typename Ops::V;
  const V zero = Ops::splat(0.0f);
  const V inf = Ops::splat(INFINITY);
  V y = log_core<Ops>(x, zero);
  y = Ops::select(Ops::eq(x, inf), inf, y);
  y = Ops::select(Ops::eq(x, zero), Ops::splat(-INFINITY), y);
  y = Ops::select(Ops::lt(x, zero), qnan<Ops>(), y);
  return keep_nan<Ops>(x, y);
}

// log1p(x) = log(u) + err/u with u = 1 + x rounded and err its rounding error (exact: x − (u − 1)
// when |x| ≤ 1, 1 − (u − x) when x > 1). −inf at −1, NaN below, ±0 kept.
template <class Ops>
inline typename Ops::V log1p(typename Ops::V x) {
  using V = typename Ops::V;
  const V one = Ops::splat(1.0f);
  const V zero = Ops::splat(0.0f);
  const V inf = Ops::splat(INFINITY);
  const V u = Ops::add(one, x);
  const V err =
      Ops::select(Ops::lt(one, x), Ops::sub(one, Ops::sub(u, x)), Ops::sub(x, Ops::sub(u, one)));
  const V uc = Ops::select(Ops::lt(zero, u), u, one);  // u ≤ 0 is replaced below
  V y = log_core<Ops>(uc, Ops::div(err, uc));
  y = Ops::select(Ops::eq(x, inf), inf, y);
  y = Ops::select(Ops::eq(u, zero), Ops::splat(-INFINITY), y);
  y = Ops::select(Ops::lt(x, Ops::splat(-1.0f)), qnan<Ops>(), y);
  y = Ops::select(Ops::eq(x, zero), x, y);
  return keep_nan<Ops>(x, y);
}

// logistic(x) = 1/(1 + e^−x): with e = e^−|x| (never overflows), 1/(1 + e) for x ≥ 0 and
// e/(1 + e) for x < 0, which keeps e^x's accuracy down into the subnormals.
template <class Ops>
inline typename Ops::V logistic(typename Ops::V x) {
  using V = typename Ops::V;
  const V one = Ops::splat(1.0f);
  const V e = exp<Ops>(Ops::sub(Ops::splat(0.0f), abs<Ops>(x)));
  const V num = Ops::select(Ops::lt(x, Ops::splat(0.0f)), e, one);
  return keep_nan_input<Ops>(x, Ops::div(num, Ops::add(one, e)));
}

// tanh(x) = sign(x)·e/(e + 2), e = expm1(2|x|). Near 0, e ≈ 2x keeps full relative accuracy
// (tanh x ≈ x down to the subnormals). Beyond |x| = 9.0109 (where 1 − tanh x = 2^-25, half an
// ulp of 1) tanh rounds to ±1 in f32; |x| is clamped at 9.1, where e + 2 rounds to e and the
// formula gives exactly 1 (±inf too). ±0 gives ±0.
template <class Ops>
inline typename Ops::V tanh(typename Ops::V x) {
  using V = typename Ops::V;
  using VI = typename Ops::VI;
  const VI sign = Ops::and_bits(Ops::bits(x), Ops::splat_bits(0x80000000u));
  const V ax = Ops::pmin(abs<Ops>(x), Ops::splat(9.1f));
  const V e = expm1_core<Ops, true>(Ops::add(ax, ax));
  const V y = Ops::div(e, Ops::add(e, Ops::splat(2.0f)));
  return keep_nan_input<Ops>(x, Ops::from_bits(Ops::or_bits(Ops::bits(y), sign)));
}

// ---- sin, cos, tan ------------------------------------------------------------------------------
// |x| = q·π/2 + r, |r| ≤ π/4 (a little more from rounding q), with π/2 in four parts whose
// products with q < 2^14 are exact (the parts of π in SLEEF's single-precision trig, halved).
constexpr float kTrigMaxReduced = 8192.0f;
constexpr float kPio2A = 1.5703125f, kPio2B = 0.00048351287841796875f,
                kPio2C = 3.13855707645416259765e-07f, kPio2D = 6.07710062827671038e-11f;

// sin(r) = r + r³·(−1/6 + r²/120 − …), Taylor to degree 9 (next term below 2.2e-9·|r|).
template <class Ops>
inline typename Ops::V sin_poly(typename Ops::V r, typename Ops::V z) {
  using V = typename Ops::V;
  V p = Ops::splat(1.0f / 362880);
  p = Ops::add(Ops::mul(p, z), Ops::splat(-1.0f / 5040));
  p = Ops::add(Ops::mul(p, z), Ops::splat(1.0f / 120));
  p = Ops::add(Ops::mul(p, z), Ops::splat(-1.0f / 6));
  return Ops::add(Ops::mul(Ops::mul(p, z), r), r);
}

// cos(r) = 1 − r²/2 + r⁴·(1/24 − …), Taylor to degree 10; 1 − r²/2 with its rounding error put
// back (fdlibm's k_cos does the same).
template <class Ops>
inline typename Ops::V cos_poly(typename Ops::V z) {
  using V = typename Ops::V;
  V p = Ops::splat(-1.0f / 3628800);
  p = Ops::add(Ops::mul(p, z), Ops::splat(1.0f / 40320));
  p = Ops::add(Ops::mul(p, z), Ops::splat(-1.0f / 720));
  p = Ops::add(Ops::mul(p, z), Ops::splat(1.0f / 24));
  const V one = Ops::splat(1.0f);
  const V hz = Ops::mul(Ops::splat(0.5f), z);
  const V w = Ops::sub(one, hz);
  return Ops::add(w, Ops::add(Ops::sub(Ops::sub(one, w), hz), Ops::mul(Ops::mul(z, z), p)));
}

// The quadrant q (as bits: q mod 4 in the low bits) and r for |x| (finite, ≤ kTrigMaxReduced).
template <class Ops>
inline void reduce_pio2(typename Ops::V ax, typename Ops::VI& q, typename Ops::V& r) {
  using V = typename Ops::V;
  const V magic = Ops::splat(Consts<Ops>::kMagic);
  const V v = Ops::add(Ops::mul(ax, Ops::splat(0.636619772f)), magic);
  const V n = Ops::sub(v, magic);
  q = Ops::bits(v);
  r = Ops::sub(ax, Ops::mul(n, Ops::splat(kPio2A)));
  r = Ops::sub(r, Ops::mul(n, Ops::splat(kPio2B)));
  r = Ops::sub(r, Ops::mul(n, Ops::splat(kPio2C)));
  r = Ops::sub(r, Ops::mul(n, Ops::splat(kPio2D)));
}

// Lanes whose |x| is past kTrigMaxReduced (and finite): f(x) in double, rounded once.
template <class Ops, class F>
inline typename Ops::V trig_far(typename Ops::V x, typename Ops::V y, F f) {
  using VI = typename Ops::VI;
  const auto ax = abs<Ops>(x);
  const VI far =
      Ops::and_bits(Ops::lt(Ops::splat(kTrigMaxReduced), ax), Ops::lt(ax, Ops::splat(INFINITY)));
  if (!Ops::any(far)) return y;
  constexpr int W = Ops::kWidth;
  float xs[W], ys[W], ms[W];
  Ops::store(xs, x);
  Ops::store(ys, y);
  Ops::store(ms, Ops::from_bits(far));
  for (int i = 0; i < W; ++i) {
    std::uint32_t m;
    std::memcpy(&m, &ms[i], sizeof m);
    if (m) ys[i] = static_cast<float>(f(static_cast<double>(xs[i])));
  }
  return Ops::load(ys);
}

enum class Trig { Sin, Cos, Tan };

template <class Ops, Trig T>
inline typename Ops::V trig(typename Ops::V x) {
  using V = typename Ops::V;
  using VI = typename Ops::VI;
  const V ax = Ops::pmin(abs<Ops>(x), Ops::splat(kTrigMaxReduced));  // far lanes are redone below
  VI q;
  V r;
  reduce_pio2<Ops>(ax, q, r);
  const V z = Ops::mul(r, r);
  const V s = sin_poly<Ops>(r, z);
  const V c = cos_poly<Ops>(z);
  const VI one = Ops::splat_bits(1u);
  const VI odd = Ops::eq_bits(Ops::and_bits(q, one), one);
  V y;
  VI flip;  // bit 31: negate
  const VI xsign = Ops::and_bits(Ops::bits(x), Ops::splat_bits(0x80000000u));
  if constexpr (T == Trig::Sin) {
    y = Ops::select(odd, c, s);  // sin(|x|) up to sign
    flip = Ops::xor_bits(Ops::shl_bits(Ops::and_bits(q, Ops::splat_bits(2u)), 30), xsign);
  } else if constexpr (T == Trig::Cos) {
    y = Ops::select(odd, s, c);
    flip = Ops::shl_bits(Ops::and_bits(Ops::add_bits(q, one), Ops::splat_bits(2u)), 30);
  } else {
    y = Ops::div(Ops::select(odd, c, s), Ops::select(odd, s, c));           // tan or cot of r
    flip = Ops::xor_bits(Ops::shl_bits(Ops::and_bits(q, one), 31), xsign);  // −cot on odd q
  }
  y = Ops::from_bits(Ops::xor_bits(Ops::bits(y), flip));
  if constexpr (T == Trig::Sin) {
    y = trig_far<Ops>(x, y, [](double v) { return libm::sin(v); });
    y = Ops::select(Ops::eq(x, Ops::splat(0.0f)), x, y);  // sin(±0) = ±0
  } else if constexpr (T == Trig::Cos) {
    y = trig_far<Ops>(x, y, [](double v) { return libm::cos(v); });
  } else {
    y = trig_far<Ops>(x, y, [](double v) { return libm::tan(v); });
    y = Ops::select(Ops::eq(x, Ops::splat(0.0f)), x, y);
  }
  y = Ops::select(Ops::eq(abs<Ops>(x), Ops::splat(INFINITY)), qnan<Ops>(), y);
  return keep_nan<Ops>(x, y);
}

// erf, after Arm's optimized-routines erff (math/erff.c; its minimax coefficients,
// math/erff_data.c): for |x| < 0.921875, x + x·A(x²) with A of degree 5 in x²; for |x| in
// [0.921875, 4), 1 − e^−(a + a·B(a)), a = |x|, B of degree 6; ±1 beyond (erfc(4) = 1.5e-8 is below
// half an ulp of 1). Arm evaluates it with FMAs; here every step rounds, which the measured error
// includes.
template <class Ops>
inline typename Ops::V erf(typename Ops::V x) {
  using V = typename Ops::V;
  const V x2 = Ops::mul(x, x);
  V p = Ops::splat(-0x1.3a1a82p-11f);
  p = Ops::add(Ops::mul(p, x2), Ops::splat(0x1.473f48p-8f));
  p = Ops::add(Ops::mul(p, x2), Ops::splat(-0x1.b68bd2p-6f));
  p = Ops::add(Ops::mul(p, x2), Ops::splat(0x1.ce1a46p-4f));
  p = Ops::add(Ops::mul(p, x2), Ops::splat(-0x1.8126e0p-2f));
  p = Ops::add(Ops::mul(p, x2), Ops::splat(0x1.06eba6p-3f));
  const V small = Ops::add(Ops::mul(p, x), x);
  const V a = Ops::pmin(abs<Ops>(x), Ops::splat(4.0f));
  const V a2 = Ops::mul(a, a);
  V r = Ops::add(Ops::mul(Ops::splat(0x1.222900p-16f), a), Ops::splat(-0x1.91d2ccp-12f));
  const V u = Ops::add(Ops::mul(Ops::splat(0x1.fd1336p-9f), a), Ops::splat(-0x1.8d6300p-6f));
  r = Ops::add(Ops::mul(r, a2), u);
  r = Ops::add(Ops::mul(r, a), Ops::splat(0x1.b55cb0p-4f));
  r = Ops::add(Ops::mul(r, a), Ops::splat(0x1.450aa0p-1f));
  r = Ops::add(Ops::mul(r, a), Ops::splat(0x1.079d0cp-3f));
  r = Ops::add(Ops::mul(r, a), a);
  const V big = Ops::sub(Ops::splat(1.0f), exp<Ops>(Ops::sub(Ops::splat(0.0f), r)));
  const V signed_big = Ops::from_bits(
      Ops::or_bits(Ops::bits(big), Ops::and_bits(Ops::bits(x), Ops::splat_bits(0x80000000u))));
  return keep_nan_input<Ops>(
      x, Ops::select(Ops::lt(abs<Ops>(x), Ops::splat(0.921875f)), small, signed_big));
}

// sqrt is the instruction (correctly rounded); below 0 the NaN is 0x7FC00000 (keep_nan).
template <class Ops>
inline typename Ops::V sqrt(typename Ops::V x) {
  return keep_nan<Ops>(x, Ops::sqrt(x));
}

// 1/sqrt(x): +inf at +0, −inf at −0, 0 at +inf, NaN below 0.
template <class Ops>
inline typename Ops::V rsqrt(typename Ops::V x) {
  const auto y = Ops::div(Ops::splat(1.0f), Ops::sqrt(x));
  return keep_nan<Ops>(x, Ops::select(Ops::lt(x, Ops::splat(0.0f)), qnan<Ops>(), y));
}

template <class Ops, MathFn F>
inline typename Ops::V apply(typename Ops::V x) {
  if constexpr (F == MathFn::Exp)
    return exp<Ops>(x);
  else if constexpr (F == MathFn::Expm1)
    return expm1<Ops>(x);
  else if constexpr (F == MathFn::Log)
    return log<Ops>(x);
  else if constexpr (F == MathFn::Log1p)
    return log1p<Ops>(x);
  else if constexpr (F == MathFn::Logistic)
    return logistic<Ops>(x);
  else if constexpr (F == MathFn::Tanh)
    return tanh<Ops>(x);
  else if constexpr (F == MathFn::Sin)
    return trig<Ops, Trig::Sin>(x);
  else if constexpr (F == MathFn::Cos)
    return trig<Ops, Trig::Cos>(x);
  else if constexpr (F == MathFn::Tan)
    return trig<Ops, Trig::Tan>(x);
  else if constexpr (F == MathFn::Erf)
    return erf<Ops>(x);
  else if constexpr (F == MathFn::Sqrt)
    return sqrt<Ops>(x);
  else
    return rsqrt<Ops>(x);
}

// y[i] = F(x[i]) for i < count; in place allowed. Two vectors a step (independent work for the
// long dependency chains of the polynomials); the tail shorter than a vector runs through the
// same vector function (padded with zeros), so every element gets the same bits wherever it sits.
template <class Ops, MathFn F>
inline void map(std::size_t count, const float* x, float* y) {
  constexpr int W = Ops::kWidth;
  std::size_t i = 0;
  for (; i + 2 * W <= count; i += 2 * W) {
    const auto a = apply<Ops, F>(Ops::load(x + i));
    const auto b = apply<Ops, F>(Ops::load(x + i + W));
    Ops::store(y + i, a);
    Ops::store(y + i + W, b);
  }
  for (; i + W <= count; i += W) Ops::store(y + i, apply<Ops, F>(Ops::load(x + i)));
  if (i < count) {
    float in[W] = {}, out[W];
    for (std::size_t j = 0; i + j < count; ++j) in[j] = x[i + j];
    Ops::store(out, apply<Ops, F>(Ops::load(in)));
    for (std::size_t j = 0; i + j < count; ++j) y[i + j] = out[j];
  }
}

}  // namespace vmath

// The kernels' tanh, for matmul_impl.h's epilogue and the tanh variants.
template <class Ops>
inline typename Ops::V tanh_v(typename Ops::V x) {
  return vmath::tanh<Ops>(x);
}
template <class Ops>
inline void tanh_array(std::size_t count, const float* x, float* y) {
  vmath::map<Ops, MathFn::Tanh>(count, x, y);
}

// y = f(x) for any MathFn: the entry point every instance file wraps.
template <class Ops>
inline void math_array(MathFn f, std::size_t count, const float* x, float* y) {
  switch (f) {
    case MathFn::Exp:
      return vmath::map<Ops, MathFn::Exp>(count, x, y);
    case MathFn::Expm1:
      return vmath::map<Ops, MathFn::Expm1>(count, x, y);
    case MathFn::Log:
      return vmath::map<Ops, MathFn::Log>(count, x, y);
    case MathFn::Log1p:
      return vmath::map<Ops, MathFn::Log1p>(count, x, y);
    case MathFn::Logistic:
      return vmath::map<Ops, MathFn::Logistic>(count, x, y);
    case MathFn::Tanh:
      return vmath::map<Ops, MathFn::Tanh>(count, x, y);
    case MathFn::Sin:
      return vmath::map<Ops, MathFn::Sin>(count, x, y);
    case MathFn::Cos:
      return vmath::map<Ops, MathFn::Cos>(count, x, y);
    case MathFn::Tan:
      return vmath::map<Ops, MathFn::Tan>(count, x, y);
    case MathFn::Erf:
      return vmath::map<Ops, MathFn::Erf>(count, x, y);
    case MathFn::Sqrt:
      return vmath::map<Ops, MathFn::Sqrt>(count, x, y);
    case MathFn::Rsqrt:
      return vmath::map<Ops, MathFn::Rsqrt>(count, x, y);
  }
}

}  // namespace rl::kernels
