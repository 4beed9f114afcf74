// The scalar functions behind the math ops (ops_math.cpp), in double and complex<double>.
//
// Every op computes f16, bf16 and f32 elements in double and rounds the result once, and f64
// elements with the same functions, so each function here aims at f64 accuracy (a few ulps):
// musl's where the C library has the function (exp, log1p, tanh, erf, lgamma, ...: common/libm.h,
// compiled into both builds, so that native and wasm results are the same bits), careful
// algorithms over those where it does not (erf_inv, digamma, zeta, bessel_i1e) and for every
// complex function (written out over the real ones and IEEE arithmetic; std::complex's exp, log,
// sqrt, pow, abs and operator/ are libstdc++'s and glibc's natively, libc++'s and musl's in wasm,
// with other formulas, so none is used).
//
// Domains, poles and special values follow XLA, whose results the corpus's expected values are
// (xla/client/lib/math.cc, StableHLO's CHLO decompositions):
//   lgamma(x)         +inf at x = 0, at negative integers and at ±inf
//   digamma(x)        NaN at negative integers and −inf; −inf at ±0; +inf at +inf
//   erf_inv(x)        ±inf at ±1, NaN for |x| > 1
//   polygamma(n, x)   NaN unless n is a natural number; n = 0 is digamma
//   zeta(x, q)        Hurwitz zeta Σ (q + k)^−x: +inf at x = 1, NaN for x < 1, NaN for q ≤ 0
//                     unless x is an integer, and at a pole (integer q ≤ 0) +inf for even x,
//                     NaN for odd x; NaN for q < −10^5 (its sum would need more than 10^5 terms)
//   bessel_i1e(x)     exp(−|x|)·I1(x), odd
//
// Complex functions use the principal branches the StableHLO spec and the C99 conventions use:
// log and sqrt cut along the negative real axis; asin, acos, atanh cut along the real axis
// outside [−1, 1]; asinh, atan along the imaginary axis outside [−i, i]; acosh along the real
// axis left of 1, with a non-negative real part.
#pragma once

#include <cmath>
#include <complex>
#include <initializer_list>
#include <limits>

#include "common/libm.h"

namespace rl::interp::math {

using Complex = std::complex<double>;

double logistic(double x);
double rsqrt(double x);
double erf_inv(double x);
double lgamma(double x);
double digamma(double x);
double zeta(double x, double q);
double polygamma(double n, double x);
double bessel_i1e(double x);

// CHLO's decompositions of sinh and cosh, evaluated in float or double:
//   sinh x = e^(x + log ½) − e^(−x + log ½) for |x| ≥ 1, (e + e/(e + 1))/2 with e = expm1(x) below;
//   cosh x = e^(x + log ½) + e^(−x + log ½).
// Each operation rounds to the type (exp and expm1 correctly rounded), so the results carry the
// decomposition's own rounding, not the true value's.
float chlo_sinh(float x);
double chlo_sinh(double x);
float chlo_cosh(float x);
double chlo_cosh(double x);

// The NaN a complex result's part gets, the same in every build: `r` where it is not NaN; else the
// first NaN part of the operands made quiet (sign and payload kept); else the quiet NaN with
// neither sign nor payload (0x7FC00000, 0x7FF8000000000000) — the rule of math_impl.h's f32
// functions. Arithmetic leaves a NaN's sign and payload to the platform (wasm's NaN results are
// nondeterministic by its specification, and fma's NaN is the library's): natively and in wasm the
// products below gave NaNs of other signs (scripts/fuzz run found complex64 rsqrt differ).
template <class T>
T settled(T r, std::initializer_list<std::complex<T>> operands) {
  if (!std::isnan(r)) return r;
  for (const auto& z : operands)
    for (T part : {z.real(), z.imag()})
      if (std::isnan(part)) return quieted(part);  // common/nan.h
  return default_nan<T>();
}
template <class T>
std::complex<T> settled(std::complex<T> r, std::initializer_list<std::complex<T>> operands) {
  return {settled(r.real(), operands), settled(r.imag(), operands)};
}

// The complex product as XLA computes it for complex<f32> and complex<f64>, in the element type:
// its elemental IR emitter writes (a + bi)(c + di) = (ac − bd) + (ad + bc)i
// (xla/service/elemental_ir_emitter.cc, EmitComplexMultiply), and its CPU backend lets LLVM fuse
// a multiply into the following add or subtract ("Always allow FMA fusion",
// xla/service/cpu: llvm::FPOpFusion::Fast), which on an FMA machine keeps the first product of
// each part exact: (fma(a, c, −(b·d)), fma(a, d, b·c)). This reproduces XLA's expected values
// bit for bit on the corpus's integer_pow_complex64_20_30 and integer_pow_complex128_20_30
// (x·x then its square: 600 of 600 elements each; the unfused formula matches 300 and 284, and
// computing in double and rounding once 313 of the complex64 ones). No C99 Annex G recovery of
// infinities from NaN parts, as XLA has none. libm::fma is std::fma (correctly rounded natively and
// in wasm) with its NaN fixed.
template <class T>
std::complex<T> multiply(std::complex<T> x, std::complex<T> y) {
  const T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const T bd = b * d, bc = b * c;
  return settled<T>({libm::fma(a, c, -bd), libm::fma(a, d, bc)}, {x, y});
}

// complex / complex as XLA's elemental IR emitter divides (EmitComplexDivide, for complex64 and
// complex128 alike), in the parts' own precision: Smith's algorithm (CACM 5(8), 1962), the ratio
// of the smaller part of the divisor to the larger —
//   |c| < |d|:  r = c/d, t = d + r·c, ((r·a + b) / t, (r·b − a) / t)
//   otherwise:  r = d/c, t = c + r·d, ((a + r·b) / t, (b − r·a) / t)
// — each product contracted into its sum as XLA's CPU backend contracts it (as multiply above).
// When both parts come out NaN, XLA's three corner cases: a zero divisor and a numerator that is
// not all NaN give ±inf·numerator (the sign of c); an infinite numerator over a finite divisor
// gives inf·(the numerator's infinite parts, ±1 or ±0, times the divisor's conjugate); a finite
// numerator over an infinite divisor gives 0·(the same with the divisor's infinite parts). Only
// IEEE operations and fma: the same bits natively and in wasm (std::complex's operator/ is
// glibc's Annex G code natively and libc++'s in wasm).
template <class T>
std::complex<T> divide(std::complex<T> x, std::complex<T> y) {
  const auto out = [&](T re, T im) { return settled<T>({re, im}, {x, y}); };
  const T a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const T inf = std::numeric_limits<T>::infinity();
  T re, im;
  if (std::fabs(c) < std::fabs(d)) {
    const T r = c / d, t = libm::fma(r, c, d);
    re = libm::fma(r, a, b) / t;
    im = libm::fma(r, b, -a) / t;
  } else {
    const T r = d / c, t = libm::fma(r, d, c);
    re = libm::fma(r, b, a) / t;
    im = libm::fma(-r, a, b) / t;
  }
  if (!(std::isnan(re) && std::isnan(im))) return out(re, im);
  const auto finite = [&](T v) { return !std::isnan(v) && std::fabs(v) != inf; };
  const auto unit = [&](T v) { return std::copysign(std::fabs(v) == inf ? T(1) : T(0), v); };
  if (c == 0 && d == 0 && !(std::isnan(a) && std::isnan(b))) {
    const T s = std::copysign(inf, c);
    return out(s * a, s * b);
  }
  if ((std::fabs(a) == inf || std::fabs(b) == inf) && finite(c) && finite(d)) {
    const T ua = unit(a), ub = unit(b);
    return out(inf * libm::fma(ua, c, ub * d), inf * libm::fma(ub, c, -(ua * d)));
  }
  if ((std::fabs(c) == inf || std::fabs(d) == inf) && finite(a) && finite(b)) {
    const T uc = unit(c), ud = unit(d);
    return out(T(0) * libm::fma(a, uc, b * ud), T(0) * libm::fma(b, uc, -(a * ud)));
  }
  return out(re, im);
}

// complex<f32> as XLA's CPU backend computes it: its elemental IR emitter's formulas in single
// precision, step by step (math_complex64.cpp says which formulas and which f32 sub-functions).
// XLA's special values come with them (abs is NaN with a NaN part even beside an infinite one;
// exp(inf + 0i) is (inf, NaN)), not C99's.
namespace c64 {
using C = std::complex<float>;
float abs(C z);
C sign(C z);
C exp(C z);
C expm1(C z);
C log(C z);
C log1p(C z);
C sqrt(C z);
C rsqrt(C z);
C cbrt(C z);
C tanh(C z);
C tan(C z);
C sin(C z);
C cos(C z);
C logistic(C z);
C pow(C x, C y);
C atan2(C y, C x);
}  // namespace c64

Complex exp(Complex z);
Complex expm1(Complex z);
Complex log(Complex z);
Complex log1p(Complex z);
Complex logistic(Complex z);
Complex sqrt(Complex z);
Complex rsqrt(Complex z);
Complex cbrt(Complex z);
Complex sin(Complex z);
Complex cos(Complex z);
Complex tan(Complex z);
Complex sinh(Complex z);
Complex cosh(Complex z);
Complex tanh(Complex z);
Complex asin(Complex z);
Complex acos(Complex z);
Complex atan(Complex z);
Complex asinh(Complex z);
Complex acosh(Complex z);
Complex atanh(Complex z);
Complex pow(Complex x, Complex y);
Complex atan2(Complex y, Complex x);

}  // namespace rl::interp::math
