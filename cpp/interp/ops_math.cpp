// Math ops after the StableHLO spec and CHLO: exponential, log and their ±1 forms, logistic,
// roots, trigonometric and hyperbolic functions and their inverses, erf and its relatives,
// lgamma, digamma, polygamma, zeta, bessel_i1e, conj, the is_inf family, next_after and
// reduce_precision.
//
// Precision: f32 exponential, exponential_minus_one, log, log_plus_one, logistic, tanh, sine,
// cosine, tan, erf, sqrt and rsqrt run the vectorized f32 functions of cpp/kernels/math_impl.h over
// the whole buffer (wasm SIMD in the wasm build; within 0.5–3.5 ulp of the true value, its table
// says which), as XLA's CPU backend runs its own f32 approximations; f16 and bf16 elements of those
// ops are converted exactly to f32, run through the same functions and rounded once to their
// type. Every other f16, bf16 and f32 element is computed in double and rounded once to its type
// (the corpus compares with XLA's results within 3 ulps of the tensor's own format); f64 and
// complex<f64> elements by the functions of math_functions.h, which aim at f64 accuracy. Every
// transcendental function in double is musl's (common/libm.h), natively as in wasm: the same
// bits in both builds. complex<f32> elements are computed as XLA's CPU backend computes them, its
// elemental IR emitter's formulas in f32, step by step (math_complex64.cpp: exp, expm1, log,
// log1p, sqrt, rsqrt, cbrt, tanh, sine, cosine, tan, logistic); CHLO's sinh, cosh and inverse
// functions of complex<f32>, whose decompositions XLA evaluates op by op in f32 and this
// interpreter does not reproduce, are computed in complex<double> and each part rounded once
// (in_double below). Domains and special values follow XLA (math_functions.h lists them).
//
// One exception: chlo.sinh and chlo.cosh of reals are what CHLO defines them as, its
// decomposition e^(x + log ½) ∓ e^(−x + log ½) (sinh below |x| = 1: from expm1), evaluated in f32
// for halves and f32 and in f64 for f64, as XLA runs it. Rounding x + log ½ moves the result by
// up to about 7 ulps from the true value for |x| near 10, and the corpus's expected values carry
// that rounding (sinh_float32_20_20_chlo: XLA's −14654.525 against the true −14654.519).
//
// reduce_precision(x, exponent_bits, mantissa_bits) is XLA's ReducePrecision on the bits of x:
//   mantissa  rounded to nearest, ties to even, at `mantissa_bits` fraction bits (a carry steps the
//             exponent);
//   exponent  with fewer exponent bits than x's type: a biased exponent above the reduced
//             format's largest gives ±inf; one at or below its smallest normal exponent − 1
//             gives ±0 (the reduced format has no subnormals, as XLA);
//   NaN       stays the same NaN; with mantissa_bits = 0 the reduced format has no NaN and XLA
//             gives +inf.
//
// uniform_quantize and uniform_dequantize are refused: their tensors have !quant.uniform element
// types, which no op of this interpreter computes with, and every use in the corpus passes a
// quantized tensor through another op (multiply, divide, sign, round, tanh, gather, convolution,
// dot_general) in between.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "common/libm.h"
#include "interp/elementwise.h"
#include "interp/math_functions.h"
#include "kernels/kernels.h"

namespace rl::interp {

namespace {

using hlo::OpCode;
using math::Complex;
using C64 = std::complex<float>;

// f(z) in complex<double>, each part rounded once to f32: CHLO's inverse and hyperbolic functions
// of complex<f32>. XLA evaluates their CHLO decompositions op by op in f32, which is not
// reproduced here; these are the more accurate values (within the corpus's checks), and may differ
// from XLA's in the last bits.
C64 in_double(C64 z, Complex (*f)(Complex)) {
  const Complex r = f(Complex(z.real(), z.imag()));
  return {static_cast<float>(r.real()), static_cast<float>(r.imag())};
}

// ---- which element types an op takes ----------------------------------------------------------

bool is_real_float(ElementType t) {
  return t == ElementType::F16 || t == ElementType::BF16 || t == ElementType::F32 ||
         t == ElementType::F64;
}
bool is_complex_type(ElementType t) { return t == ElementType::C64 || t == ElementType::C128; }

// Every operand of a kind the op takes (ops.inc's types column: floats, and complex numbers for
// some), and of a float type the functions compute in (not f8).
std::string float_operands(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  std::string p = computable_types(op, attrs);
  if (!p.empty()) return p;
  const bool complex = hlo::op_takes(op.op.code, hlo::ElementKind::Complex);
  for (std::size_t i = 0; i < op.num_operands(); ++i) {
    const hlo::Type& t = op.operand_type(i);
    if (is_real_float(t.etype) || (complex && is_complex_type(t.etype))) continue;
    return "element type " + t.element + " (the op is defined for floats" +
           (complex ? std::string(" and complex numbers)") : ")");
  }
  return "";
}

// ---- unary functions: one struct per function, real (double) and complex parts
// --------------------

// kFloat32: halves and f32 go through real32 (computed in float, as the op's definition does)
// instead of through double. kFast: f32 runs kernels::math_impl.h's function kFn over the whole
// buffer (wasm SIMD in the wasm build), and halves go through f32 to it (see the file comment).
#define RL_MATH_FN(Name, real_expr, complex_expr, c64_expr)                 \
  struct Name {                                                             \
    static constexpr bool kComplex = true, kFloat32 = false, kFast = false; \
    static constexpr kernels::MathFn kFn = kernels::MathFn::Exp;            \
    static double real(double x) { return real_expr; }                      \
    static float real32(float x) { return x; }                              \
    static Complex cplx(Complex z) { return complex_expr; }                 \
    static C64 cplx32(C64 z) { return c64_expr; }                           \
  };
#define RL_MATH_FAST_FN(Name, fn, c64_fn, real_expr, complex_expr)         \
  struct Name {                                                            \
    static constexpr bool kComplex = true, kFloat32 = false, kFast = true; \
    static constexpr kernels::MathFn kFn = kernels::MathFn::fn;            \
    static double real(double x) { return real_expr; }                     \
    static float real32(float x) { return x; }                             \
    static Complex cplx(Complex z) { return complex_expr; }                \
    static C64 cplx32(C64 z) { return math::c64::c64_fn(z); }              \
  };
#define RL_MATH_REAL_FN(Name, real_expr)                                     \
  struct Name {                                                              \
    static constexpr bool kComplex = false, kFloat32 = false, kFast = false; \
    static constexpr kernels::MathFn kFn = kernels::MathFn::Exp;             \
    static double real(double x) { return real_expr; }                       \
    static float real32(float x) { return x; }                               \
    static Complex cplx(Complex z) { return z; }                             \
    static C64 cplx32(C64 z) { return z; }                                   \
  };

RL_MATH_FAST_FN(Exp, Exp, exp, libm::exp(x), math::exp(z))
RL_MATH_FAST_FN(Expm1, Expm1, expm1, libm::expm1(x), math::expm1(z))
RL_MATH_FAST_FN(Log, Log, log, libm::log(x), math::log(z))
RL_MATH_FAST_FN(Log1p, Log1p, log1p, libm::log1p(x), math::log1p(z))
RL_MATH_FAST_FN(Logistic, Logistic, logistic, math::logistic(x), math::logistic(z))
RL_MATH_FAST_FN(Sqrt, Sqrt, sqrt, std::sqrt(x), math::sqrt(z))
RL_MATH_FN(Cbrt, libm::cbrt(x), math::cbrt(z), math::c64::cbrt(z))
RL_MATH_FAST_FN(Rsqrt, Rsqrt, rsqrt, math::rsqrt(x), math::rsqrt(z))
RL_MATH_FAST_FN(Tanh, Tanh, tanh, libm::tanh(x), math::tanh(z))
RL_MATH_FAST_FN(Sin, Sin, sin, libm::sin(x), math::sin(z))
RL_MATH_FAST_FN(Cos, Cos, cos, libm::cos(x), math::cos(z))
RL_MATH_FAST_FN(Tan, Tan, tan, libm::tan(x), math::tan(z))
// chlo.sinh and chlo.cosh on reals are their CHLO decompositions (see the file comment).
struct Sinh {
  static constexpr bool kComplex = true, kFloat32 = true, kFast = false;
  static constexpr kernels::MathFn kFn = kernels::MathFn::Exp;
  static double real(double x) { return math::chlo_sinh(x); }
  static float real32(float x) { return math::chlo_sinh(x); }
  static Complex cplx(Complex z) { return math::sinh(z); }
  static C64 cplx32(C64 z) { return in_double(z, math::sinh); }
};
struct Cosh {
  static constexpr bool kComplex = true, kFloat32 = true, kFast = false;
  static constexpr kernels::MathFn kFn = kernels::MathFn::Exp;
  static double real(double x) { return math::chlo_cosh(x); }
  static float real32(float x) { return math::chlo_cosh(x); }
  static Complex cplx(Complex z) { return math::cosh(z); }
  static C64 cplx32(C64 z) { return in_double(z, math::cosh); }
};
RL_MATH_FN(Asin, libm::asin(x), math::asin(z), in_double(z, math::asin))
RL_MATH_FN(Acos, libm::acos(x), math::acos(z), in_double(z, math::acos))
RL_MATH_FN(Atan, libm::atan(x), math::atan(z), in_double(z, math::atan))
RL_MATH_FN(Asinh, libm::asinh(x), math::asinh(z), in_double(z, math::asinh))
RL_MATH_FN(Acosh, libm::acosh(x), math::acosh(z), in_double(z, math::acosh))
RL_MATH_FN(Atanh, libm::atanh(x), math::atanh(z), in_double(z, math::atanh))
RL_MATH_FN(Conj, x, std::conj(z), std::conj(z))
struct Erf {
  static constexpr bool kComplex = false, kFloat32 = false, kFast = true;
  static constexpr kernels::MathFn kFn = kernels::MathFn::Erf;
  static double real(double x) { return libm::erf(x); }
  static float real32(float x) { return x; }
  static Complex cplx(Complex z) { return z; }
  static C64 cplx32(C64 z) { return z; }
};
RL_MATH_REAL_FN(Erfc, libm::erfc(x))
RL_MATH_REAL_FN(ErfInv, math::erf_inv(x))
RL_MATH_REAL_FN(Lgamma, math::lgamma(x))
RL_MATH_REAL_FN(Digamma, math::digamma(x))
RL_MATH_REAL_FN(BesselI1e, math::bessel_i1e(x))
#undef RL_MATH_FN
#undef RL_MATH_FAST_FN
#undef RL_MATH_REAL_FN

// A unary function's element loops, one small set per function; the walk over element types and
// the halves' conversions around them are written once (unary_math was ~34 kB of the wasm core
// compiled per function: issue 25).
struct MathLoops {
  bool fast;           // f32 by kernels::math_impl.h's function `fn`, halves through f32 to it
  kernels::MathFn fn;  //
  void (*real)(const double*, double*, std::int64_t);  // f64; halves and f32 unless fast or real32
  void (*real32)(const float*, float*, std::int64_t);  // halves and f32 in float (kFloat32) or null
  void (*cplx)(const Complex*, Complex*, std::int64_t);  // c128, or null (real functions)
  void (*cplx32)(const C64*, C64*, std::int64_t);        // c64, or null
};

template <class F>
void real_loop(const double* x, double* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = F::real(x[i]);
}
template <class F>
void real32_loop(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = F::real32(x[i]);
}
template <class F>
void cplx_loop(const Complex* x, Complex* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = F::cplx(x[i]);
}
template <class F>
void cplx32_loop(const C64* x, C64* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) y[i] = F::cplx32(x[i]);
}

template <class F>
constexpr MathLoops math_loops() {
  return {F::kFast,
          F::kFn,
          &real_loop<F>,
          F::kFloat32 ? &real32_loop<F> : nullptr,
          F::kComplex ? &cplx_loop<F> : nullptr,
          F::kComplex ? &cplx32_loop<F> : nullptr};
}

// y = f(x) elementwise: f32 by the fast function where there is one (halves through f32 to it, a
// block at a time: each converted exactly to f32, the block run by kernels::best_math(), each
// result rounded once to the half type), otherwise halves and f32 through double (or in float,
// with real32), rounded once.
bool run_math(const OpCall& c, const MathLoops& f) {
  const Tensor& x = c.tensor(0);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::int64_t n = y.elements();
  constexpr std::int64_t kBlock = 256;
  switch (x.type) {
    case ElementType::F16:
    case ElementType::BF16: {
      const bool bf = x.type == ElementType::BF16;
      const auto* px = x.as<std::uint16_t>();
      auto* py = y.as<std::uint16_t>();
      if (f.fast || f.real32) {
        float buf[kBlock];
        const kernels::MathArrayFn fn = kernels::best_math().fn;
        for (std::int64_t i0 = 0; i0 < n; i0 += kBlock) {
          const std::int64_t m = std::min(kBlock, n - i0);
          for (std::int64_t j = 0; j < m; ++j)
            buf[j] = bf ? bf16_to_f32(px[i0 + j]) : f16_to_f32(px[i0 + j]);
          if (f.fast)
            fn(f.fn, static_cast<std::size_t>(m), buf, buf);
          else
            f.real32(buf, buf, m);
          for (std::int64_t j = 0; j < m; ++j)
            py[i0 + j] = bf ? f32_to_bf16(buf[j]) : f32_to_f16(buf[j]);
        }
      } else {
        double buf[kBlock];
        for (std::int64_t i0 = 0; i0 < n; i0 += kBlock) {
          const std::int64_t m = std::min(kBlock, n - i0);
          for (std::int64_t j = 0; j < m; ++j)
            buf[j] = bf ? bf16_to_f64(px[i0 + j]) : f16_to_f64(px[i0 + j]);
          f.real(buf, buf, m);
          for (std::int64_t j = 0; j < m; ++j)
            py[i0 + j] = bf ? f64_to_bf16(buf[j]) : f64_to_f16(buf[j]);
        }
      }
      break;
    }
    case ElementType::F32: {
      const auto* px = x.as<float>();
      auto* py = y.as<float>();
      if (f.fast) {
        kernels::best_math().fn(f.fn, static_cast<std::size_t>(n), px, py);
      } else if (f.real32) {
        f.real32(px, py, n);
      } else {
        double buf[kBlock];
        for (std::int64_t i0 = 0; i0 < n; i0 += kBlock) {
          const std::int64_t m = std::min(kBlock, n - i0);
          for (std::int64_t j = 0; j < m; ++j) buf[j] = static_cast<double>(px[i0 + j]);
          f.real(buf, buf, m);
          for (std::int64_t j = 0; j < m; ++j) py[i0 + j] = static_cast<float>(buf[j]);
        }
      }
      break;
    }
    case ElementType::F64:
      f.real(x.as<double>(), y.as<double>(), n);
      break;
    case ElementType::C64:
    case ElementType::C128:
      if (f.cplx) {
        if (x.type == ElementType::C64)
          f.cplx32(x.as<C64>(), y.as<C64>(), n);
        else
          f.cplx(x.as<Complex>(), y.as<Complex>(), n);
        break;
      }
      [[fallthrough]];
    default:
      return c.fail(std::string(c.op().name) + " of this element type",
                    f.cplx ? "a float or complex type" : "a float type",
                    std::string(hlo::element_info(x.type).mlir));
  }
  c.set(0, std::move(y));
  return true;
}

template <class F>
bool unary_math(const OpCall& c) {
  static constexpr MathLoops loops = math_loops<F>();
  return run_math(c, loops);
}

// chlo.conj: a real operand is the result as it is (its bits: a signalling NaN stays one), a
// complex one is conjugated.
bool conj(const OpCall& c) {
  if (!is_complex_type(c.tensor(0).type)) {
    c.set(0, c.in(0));
    return true;
  }
  return unary_math<Conj>(c);
}

// ---- binary functions of floats
// --------------------------------------------------------------------

// y = f(a, b) for float a, b computed in double. With `slow`, f may take many steps per element
// (zeta sums up to 10^5 terms for a negative q), so the run's clock is consulted as it goes.
template <class F>
bool binary_float(const OpCall& c, F f, bool slow = false) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  // One shape and element type: the verifier's (elementwise and same_element_types; CHLO's ops
  // are StableHLO's only).
  RL_VERIFIED(c, a.dims == b.dims && a.type == b.type);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::int64_t n = y.elements();
  switch (a.type) {
    case ElementType::F16:
    case ElementType::BF16: {
      const bool f16 = a.type == ElementType::F16;
      const auto* pa = a.as<std::uint16_t>();
      const auto* pb = b.as<std::uint16_t>();
      auto* py = y.as<std::uint16_t>();
      for (std::int64_t i = 0; i < n; ++i) {
        if (slow && !c.keep_going()) return false;
        const double r = f16 ? f(f16_to_f64(pa[i]), f16_to_f64(pb[i]))
                             : f(bf16_to_f64(pa[i]), bf16_to_f64(pb[i]));
        py[i] = f16 ? f64_to_f16(r) : f64_to_bf16(r);
      }
      break;
    }
    case ElementType::F32: {
      const auto* pa = a.as<float>();
      const auto* pb = b.as<float>();
      auto* py = y.as<float>();
      for (std::int64_t i = 0; i < n; ++i) {
        if (slow && !c.keep_going()) return false;
        py[i] = static_cast<float>(f(static_cast<double>(pa[i]), static_cast<double>(pb[i])));
      }
      break;
    }
    case ElementType::F64: {
      const auto* pa = a.as<double>();
      const auto* pb = b.as<double>();
      auto* py = y.as<double>();
      for (std::int64_t i = 0; i < n; ++i) {
        if (slow && !c.keep_going()) return false;
        py[i] = f(pa[i], pb[i]);
      }
      break;
    }
    default:
      return c.fail(std::string(c.op().name) + " of this element type", "a float type",
                    std::string(hlo::element_info(a.type).mlir));
  }
  c.set(0, std::move(y));
  return true;
}

bool polygamma(const OpCall& c) {
  return binary_float(
      c, [](double n, double x) { return math::polygamma(n, x); }, true);
}
bool zeta(const OpCall& c) {
  return binary_float(
      c, [](double x, double q) { return math::zeta(x, q); }, true);
}

// ---- bit-level ops: a float format's fields
// -----------------------------------------------------------

struct Format {
  int exponent_bits, mantissa_bits;
};

Format format_of(ElementType t) {
  switch (t) {
    case ElementType::F16:
      return {5, 10};
    case ElementType::BF16:
      return {8, 7};
    case ElementType::F32:
      return {8, 23};
    default:
      return {11, 52};
  }
}

// Runs body(U{}) with U the unsigned integer of the float type's width.
template <class Body>
bool for_float_bits(const OpCall& c, ElementType t, Body body) {
  switch (t) {
    case ElementType::F16:
    case ElementType::BF16:
      body(std::uint16_t{});
      return true;
    case ElementType::F32:
      body(std::uint32_t{});
      return true;
    case ElementType::F64:
      body(std::uint64_t{});
      return true;
    default:
      return c.fail(std::string(c.op().name) + " of this element type", "a float type",
                    std::string(hlo::element_info(t).mlir));
  }
}

// next_after(x, y): the next representable value after x toward y (CHLO's decomposition on bits):
// NaN if either is NaN; y when x = y (±0 included); the smallest subnormal with y's sign from ±0;
// otherwise x's bits one step toward zero or away from it.
bool next_after(const OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  RL_VERIFIED(c, a.dims == b.dims && a.type == b.type);  // as binary_float's
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const Format f = format_of(a.type);
  const std::int64_t n = y.elements();
  const bool ok = for_float_bits(c, a.type, [&](auto tag) {
    using U = decltype(tag);
    constexpr int bits = sizeof(U) * 8;
    const U sign = static_cast<U>(U(1) << (bits - 1));
    const U inf = static_cast<U>(((U(1) << f.exponent_bits) - 1) << f.mantissa_bits);
    const U qnan = static_cast<U>(inf | (U(1) << (f.mantissa_bits - 1)));
    const U* px = a.as<U>();
    const U* py = b.as<U>();
    U* out = y.as<U>();
    for (std::int64_t i = 0; i < n; ++i) {
      const U x = px[i], t = py[i];
      const U xa = static_cast<U>(x & ~sign), ta = static_cast<U>(t & ~sign);
      U r;
      if (xa > inf || ta > inf)
        r = qnan;
      else if (x == t || (xa == 0 && ta == 0))
        r = t;
      else if (xa == 0)
        r = static_cast<U>((t & sign) | 1);
      else if (xa > ta || ((x ^ t) & sign))
        r = static_cast<U>(x - 1);
      else
        r = static_cast<U>(x + 1);
      out[i] = r;
    }
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// reduce_precision, as the file comment says.
bool reduce_precision(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const hlo::ReducePrecisionAttrs& rp = c.attrs().get<hlo::ReducePrecisionAttrs>();
  const int exponent_bits = rp.exponent_bits, mantissa_bits = rp.mantissa_bits;
  const Format f = format_of(x.type);
  const std::int64_t n = y.elements();
  const bool ok = for_float_bits(c, x.type, [&](auto tag) {
    using U = decltype(tag);
    constexpr int bits = sizeof(U) * 8;
    const U sign = static_cast<U>(U(1) << (bits - 1));
    const U exp_mask = static_cast<U>(((U(1) << f.exponent_bits) - 1) << f.mantissa_bits);
    const U inf = exp_mask;
    const bool round_mantissa = mantissa_bits < f.mantissa_bits;
    const int dropped = round_mantissa ? f.mantissa_bits - mantissa_bits : 0;
    const U last_bit = static_cast<U>(U(1) << dropped);
    const U base_bias = static_cast<U>((last_bit >> 1) - (round_mantissa ? 1 : 0));
    const U keep = static_cast<U>(~(last_bit - 1));
    const bool reduce_exponent = exponent_bits < f.exponent_bits;
    U max_exp = 0, min_exp = 0;
    if (reduce_exponent) {
      const U bias = static_cast<U>((U(1) << (f.exponent_bits - 1)) - 1);
      const U reduced_bias = static_cast<U>((U(1) << (exponent_bits - 1)) - 1);
      max_exp = static_cast<U>(static_cast<U>(bias + reduced_bias) << f.mantissa_bits);
      min_exp = static_cast<U>(static_cast<U>(bias - reduced_bias) << f.mantissa_bits);
    }
    const U* px = x.as<U>();
    U* out = y.as<U>();
    for (std::int64_t i = 0; i < n; ++i) {
      const U v = px[i];
      if (static_cast<U>(v & ~sign) > inf) {  // NaN
        out[i] = mantissa_bits > 0 ? v : inf;
        continue;
      }
      U r = v;
      if (round_mantissa) {
        const U bias = static_cast<U>(((r & last_bit) >> dropped) + base_bias);
        r = static_cast<U>(static_cast<U>(r + bias) & keep);
      }
      if (reduce_exponent) {
        const U e = static_cast<U>(r & exp_mask);
        if (e > max_exp)
          r = static_cast<U>((r & sign) | inf);
        else if (e <= min_exp)
          r = static_cast<U>(r & sign);
      }
      out[i] = r;
    }
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- predicates
// --------------------------------------------------------------------------------------

enum class InfKind { Any, Negative, Positive };

template <InfKind K>
bool is_inf(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const Format f = format_of(x.type);
  const std::int64_t n = y.elements();
  std::uint8_t* out = y.as<std::uint8_t>();
  const bool ok = for_float_bits(c, x.type, [&](auto tag) {
    using U = decltype(tag);
    constexpr int bits = sizeof(U) * 8;
    const U sign = static_cast<U>(U(1) << (bits - 1));
    const U inf = static_cast<U>(((U(1) << f.exponent_bits) - 1) << f.mantissa_bits);
    const U* px = x.as<U>();
    for (std::int64_t i = 0; i < n; ++i) {
      const U v = px[i];
      if constexpr (K == InfKind::Any)
        out[i] = static_cast<U>(v & ~sign) == inf;
      else if constexpr (K == InfKind::Negative)
        out[i] = v == static_cast<U>(sign | inf);
      else
        out[i] = v == inf;
    }
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- quantization (refused)
// -------------------------------------------------------------------------

std::string quantized_types(const hlo::OpView&, const hlo::OpAttrs*) {
  return "quantized element types (!quant.uniform) are not computed with by this interpreter";
}

bool quantized(const OpCall& c) {
  return c.fail(std::string(c.op().name) + " is not run", "an op on computable element types",
                "quantized types");
}

}  // namespace

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(Exponential, unary_math<Exp>, float_operands)
RL_KERNEL(ExponentialMinusOne, unary_math<Expm1>, float_operands)
RL_KERNEL(Log, unary_math<Log>, float_operands)
RL_KERNEL(LogPlusOne, unary_math<Log1p>, float_operands)
RL_KERNEL(Logistic, unary_math<Logistic>, float_operands)
RL_KERNEL(Sqrt, unary_math<Sqrt>, float_operands)
RL_KERNEL(Cbrt, unary_math<Cbrt>, float_operands)
RL_KERNEL(Rsqrt, unary_math<Rsqrt>, float_operands)
RL_KERNEL(Tanh, unary_math<Tanh>, float_operands)
RL_KERNEL(Sine, unary_math<Sin>, float_operands)
RL_KERNEL(Cosine, unary_math<Cos>, float_operands)
RL_KERNEL(Tan, unary_math<Tan>, float_operands)
RL_KERNEL(ChloTan, unary_math<Tan>, float_operands)
RL_KERNEL(Erf, unary_math<Erf>, float_operands)
RL_KERNEL(ChloErf, unary_math<Erf>, float_operands)
RL_KERNEL(ChloErfc, unary_math<Erfc>, float_operands)
RL_KERNEL(ChloErfInv, unary_math<ErfInv>, float_operands)
RL_KERNEL(ChloLgamma, unary_math<Lgamma>, float_operands)
RL_KERNEL(ChloDigamma, unary_math<Digamma>, float_operands)
RL_KERNEL(ChloBesselI1e, unary_math<BesselI1e>, float_operands)
RL_KERNEL(ChloAcos, unary_math<Acos>, float_operands)
RL_KERNEL(ChloAcosh, unary_math<Acosh>, float_operands)
RL_KERNEL(ChloAsin, unary_math<Asin>, float_operands)
RL_KERNEL(ChloAsinh, unary_math<Asinh>, float_operands)
RL_KERNEL(ChloAtan, unary_math<Atan>, float_operands)
RL_KERNEL(ChloAtanh, unary_math<Atanh>, float_operands)
RL_KERNEL(ChloCosh, unary_math<Cosh>, float_operands)
RL_KERNEL(ChloSinh, unary_math<Sinh>, float_operands)
RL_KERNEL(ChloConj, conj, float_operands)
RL_KERNEL(ChloIsInf, is_inf<InfKind::Any>, float_operands)
RL_KERNEL(ChloIsNegInf, is_inf<InfKind::Negative>, float_operands)
RL_KERNEL(ChloIsPosInf, is_inf<InfKind::Positive>, float_operands)
RL_KERNEL(ChloNextAfter, next_after, float_operands)
RL_KERNEL(ChloPolygamma, polygamma, float_operands)
RL_KERNEL(ChloZeta, zeta, float_operands)
RL_KERNEL(ReducePrecision, reduce_precision, float_operands)
RL_KERNEL(UniformQuantize, quantized, quantized_types)
RL_KERNEL(UniformDequantize, quantized, quantized_types)

}  // namespace rl::interp
