// The transcendental functions the core computes in double: musl's, compiled into both builds
// (cpp/common/libm.cmake), so that a result has the same bits natively (where std::sin would be
// glibc's) and in wasm (musl's, as Emscripten builds it). Use these, not <cmath>'s, wherever a
// value can reach a result: the interpreter's ops and the functions behind them. sqrt, fabs,
// floor, fmod and the like stay <cmath>'s: IEEE 754 defines them exactly, and every platform
// computes them alike. fma too, but for the NaN it gives: use libm::fma below.
//
// Accuracy is musl's: below 1 ulp for most (exp, log, pow: about 0.52 ulp), cbrt within 0.667 ulp.
#pragma once

#include <cmath>

#include "common/nan.h"

extern "C" {
double rl_musl_sin(double);
double rl_musl_cos(double);
double rl_musl_tan(double);
double rl_musl_asin(double);
double rl_musl_acos(double);
double rl_musl_atan(double);
double rl_musl_atan2(double, double);
double rl_musl_sinh(double);
double rl_musl_cosh(double);
double rl_musl_tanh(double);
double rl_musl_asinh(double);
double rl_musl_acosh(double);
double rl_musl_atanh(double);
double rl_musl_exp(double);
double rl_musl_expm1(double);
double rl_musl_log(double);
double rl_musl_log1p(double);
double rl_musl_pow(double, double);
double rl_musl_cbrt(double);
double rl_musl_hypot(double, double);
double rl_musl_erf(double);
double rl_musl_erfc(double);
double rl_musl_lgamma_r(double, int*);
}

namespace rl::libm {

// a·b + c rounded once (std::fma), with a NaN operand's rule fixed: the first NaN of a, b, c made
// quiet (sign and payload kept), as x86's FMA instructions give it. glibc's fma (the instruction)
// and Emscripten's did not agree: with c a signalling NaN the wasm build kept it signalling, and
// with 0·inf + NaN it gave the default NaN where the native build gave c.
template <class T>
inline T fma(T a, T b, T c) {
  if (a != a) return quieted(a);
  if (b != b) return quieted(b);
  if (c != c) return quieted(c);
  return std::fma(a, b, c);
}

inline double sin(double x) { return rl_musl_sin(x); }
inline double cos(double x) { return rl_musl_cos(x); }
inline double tan(double x) { return rl_musl_tan(x); }
inline double asin(double x) { return rl_musl_asin(x); }
inline double acos(double x) { return rl_musl_acos(x); }
inline double atan(double x) { return rl_musl_atan(x); }
// Of two NaN operands, the first (nan_rule): musl returns x + y, whose NaN the compiler picks.
inline double atan2(double y, double x) { return nan_rule(rl_musl_atan2(y, x), y, x); }
inline double sinh(double x) { return rl_musl_sinh(x); }
inline double cosh(double x) { return rl_musl_cosh(x); }
inline double tanh(double x) { return rl_musl_tanh(x); }
inline double asinh(double x) { return rl_musl_asinh(x); }
inline double acosh(double x) { return rl_musl_acosh(x); }
inline double atanh(double x) { return rl_musl_atanh(x); }
inline double exp(double x) { return rl_musl_exp(x); }
inline double expm1(double x) { return rl_musl_expm1(x); }
inline double log(double x) { return rl_musl_log(x); }
inline double log1p(double x) { return rl_musl_log1p(x); }
inline double pow(double x, double y) { return nan_rule(rl_musl_pow(x, y), x, y); }
inline double cbrt(double x) { return rl_musl_cbrt(x); }
inline double hypot(double x, double y) { return nan_rule(rl_musl_hypot(x, y), x, y); }
inline double erf(double x) { return rl_musl_erf(x); }
inline double erfc(double x) { return rl_musl_erfc(x); }
// log|Γ(x)| (the sign of Γ(x) is not returned).
inline double lgamma(double x) {
  int sign = 0;
  return rl_musl_lgamma_r(x, &sign);
}

}  // namespace rl::libm
