// Elementwise arithmetic, logic, comparison, selection and conversion, after the StableHLO spec,
// with XLA's results where the spec leaves them open (the corpus's expected values come from XLA):
//
//   integer x / 0             −1 for signed types, all ones for unsigned (XLA)
//   INT_MIN / −1              INT_MIN;  INT_MIN rem −1: 0;  x rem 0: x
//   integer overflow          wraps (add, subtract, multiply, negate, abs of INT_MIN)
//   shift by ≥ the bit width  shift_left, shift_right_logical: 0; shift_right_arithmetic: the sign
//                             (a negative amount counts as a huge one)
//   maximum, minimum          IEEE 754-2019: the first NaN operand (quieted), else the second;
//                             −0 < +0; complex: by (real, imaginary)
//   integer power, y < 0      1 when x = 1; ±1 when x = −1 (by y's parity); otherwise 0
//   float → integer           truncated toward zero, saturated at the type's range, NaN → 0
//   → pred                    x ≠ 0;  complex → real type: the real part
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/libm.h"
#include "interp/elementwise.h"
#include "interp/math_functions.h"
#include "interp/simd_loops.h"
#include "interp/strided.h"

namespace rl::interp {

namespace {

using hlo::OpCode;

// The real element type of a complex element type, as a constexpr ElementType.
template <class E>
constexpr ElementType complex_real_type() {
  return E::type == ElementType::C64 ? ElementType::F32 : ElementType::F64;
}

// ---- binary
// ---------------------------------------------------------------------------------------

template <OpCode Code, class E>
typename E::Compute binary_value(typename E::Compute a, typename E::Compute b) {
  using C = typename E::Compute;
  if constexpr (Code == OpCode::Add) {
    if constexpr (is_pred_v<E>)
      return a || b;
    else if constexpr (is_int_v<E>)
      return wrap_add(a, b);
    else if constexpr (is_float_v<E>)
      return nan_rule(a + b, a, b);  // of two NaN operands, the first (common/nan.h)
    else
      return a + b;
  } else if constexpr (Code == OpCode::Subtract) {
    if constexpr (is_int_v<E>)
      return wrap_sub(a, b);
    else if constexpr (is_float_v<E>)
      return nan_rule(a - b, a, b);
    else
      return a - b;
  } else if constexpr (Code == OpCode::Multiply) {
    if constexpr (is_pred_v<E>)
      return a && b;
    else if constexpr (is_int_v<E>)
      return wrap_mul(a, b);
    else if constexpr (is_complex_v<E>)
      return math::multiply(a, b);  // XLA's rounding (math_functions.h)
    else
      return nan_rule(a * b, a, b);
  } else if constexpr (Code == OpCode::Divide) {
    if constexpr (is_int_v<E>) {
      if (b == 0) return static_cast<C>(~C(0));  // −1 (signed), all ones (unsigned)
      if constexpr (std::is_signed<C>::value)
        if (a == std::numeric_limits<C>::min() && b == C(-1)) return a;
      return static_cast<C>(a / b);
    } else if constexpr (is_complex_v<E>) {
      return math::divide(a, b);  // XLA's algorithm and rounding (math_functions.h)
    } else {
      return nan_rule(a / b, a, b);
    }
  } else if constexpr (Code == OpCode::Remainder) {
    if constexpr (is_int_v<E>) {
      if (b == 0) return a;
      if constexpr (std::is_signed<C>::value)
        if (a == std::numeric_limits<C>::min() && b == C(-1)) return C(0);
      return static_cast<C>(a % b);
    } else {
      return nan_rule(std::fmod(a, b), a, b);  // the sign of the dividend, as C's fmod
    }
  } else if constexpr (Code == OpCode::Maximum || Code == OpCode::Minimum) {
    constexpr bool max = Code == OpCode::Maximum;
    if constexpr (is_complex_v<E>) {
      const bool a_first = a.real() != b.real()
                               ? (max ? a.real() > b.real() : a.real() < b.real())
                               : (max ? a.imag() >= b.imag() : a.imag() <= b.imag());
      return a_first ? a : b;
    } else if constexpr (is_float_v<E>) {
      return ieee_max_min<max>(a, b);  // IEEE 754-2019, the NaN on the bits (simd_loops.h)
    } else {
      return max ? (a > b ? a : b) : (a < b ? a : b);
    }
  } else if constexpr (Code == OpCode::And) {
    if constexpr (is_pred_v<E>)
      return a && b;
    else
      return static_cast<C>(a & b);
  } else if constexpr (Code == OpCode::Or) {
    if constexpr (is_pred_v<E>)
      return a || b;
    else
      return static_cast<C>(a | b);
  } else if constexpr (Code == OpCode::Xor) {
    if constexpr (is_pred_v<E>)
      return a != b;
    else
      return static_cast<C>(a ^ b);
  } else if constexpr (Code == OpCode::ShiftLeft || Code == OpCode::ShiftRightLogical ||
                       Code == OpCode::ShiftRightArithmetic) {
    using U = std::make_unsigned_t<C>;
    constexpr unsigned bits = sizeof(C) * 8;
    const U amount = static_cast<U>(b);
    const U ua = static_cast<U>(a);
    if constexpr (Code == OpCode::ShiftLeft)
      return amount >= bits ? C(0) : static_cast<C>(static_cast<U>(ua << amount));
    else if constexpr (Code == OpCode::ShiftRightLogical)
      return amount >= bits ? C(0) : static_cast<C>(static_cast<U>(ua >> amount));
    else {
      using S = std::make_signed_t<C>;
      const S sa = static_cast<S>(ua);
      const S r = amount >= bits ? (sa < 0 ? S(-1) : S(0)) : static_cast<S>(sa >> amount);
      return static_cast<C>(r);
    }
  } else if constexpr (Code == OpCode::Power) {
    if constexpr (is_int_v<E>) {
      if constexpr (std::is_signed<C>::value) {
        if (b < 0) return a == 1 ? C(1) : a == C(-1) ? ((b & 1) ? C(-1) : C(1)) : C(0);
      }
      // Exponentiation by squaring, wrapping like multiply.
      C result = 1, base = a;
      using U = std::make_unsigned_t<C>;
      for (U e = static_cast<U>(b); e; e >>= 1) {
        if (e & 1) result = wrap_mul(result, base);
        base = wrap_mul(base, base);
      }
      return result;
    } else if constexpr (E::type == ElementType::C64) {
      return math::c64::pow(a, b);  // XLA's formula in f32 (math_complex64.cpp)
    } else if constexpr (is_complex_v<E>) {
      using R = typename C::value_type;
      const math::Complex r =
          math::pow(math::Complex(a.real(), a.imag()), math::Complex(b.real(), b.imag()));
      return C(static_cast<R>(r.real()), static_cast<R>(r.imag()));
    } else {
      return static_cast<C>(libm::pow(static_cast<double>(a), static_cast<double>(b)));
    }
  } else if constexpr (Code == OpCode::Atan2) {
    if constexpr (E::type == ElementType::C64) {
      return math::c64::atan2(a, b);  // XLA's formula in f32 (math_complex64.cpp)
    } else if constexpr (is_complex_v<E>) {
      using R = typename C::value_type;
      const math::Complex r =
          math::atan2(math::Complex(a.real(), a.imag()), math::Complex(b.real(), b.imag()));
      return C(static_cast<R>(r.real()), static_cast<R>(r.imag()));
    } else {
      return static_cast<C>(libm::atan2(static_cast<double>(a), static_cast<double>(b)));
    }
  } else {
    return a;
  }
}

// The element types a binary op has a loop for: those the op table's types column gives it, but
// complex remainder (no kernel; tests/cpp/interp/pairs_test.cpp lists it as a gap).
template <OpCode Code, class E>
constexpr bool binary_defined() {
  return takes_v<Code, E> && !(Code == OpCode::Remainder && is_complex_v<E>);
}

template <OpCode Code>
bool binary(const OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  RL_VERIFIED(c, a.dims == b.dims);  // verify.cpp's elementwise rule
  // HLO lets floats of two precisions meet (verify.cpp's same_element_types refuses any other
  // pair); the loops take one element type.
  RL_VERIFIED(c, one_kind(a.type, b.type));
  if (a.type != b.type)
    return c.fail(std::string(c.op().name) + " of operands of two element types", "one type",
                  std::string(hlo::element_info(a.type).mlir) + " and " +
                      std::string(hlo::element_info(b.type).mlir));
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  constexpr bool simd_f32 = Code == OpCode::Add || Code == OpCode::Subtract ||
                            Code == OpCode::Multiply || Code == OpCode::Divide ||
                            Code == OpCode::Maximum || Code == OpCode::Minimum;
  if constexpr (simd_f32) {
    if (a.type == ElementType::F32) {
      simd::Binary op = simd::Binary::Add;
      simd::binary_of(Code, &op);  // one of the six, by the constexpr test above
      simd::f32_binary(op, static_cast<std::size_t>(y.elements()), a.as<float>(), b.as<float>(),
                       y.as<float>());
      c.set(0, std::move(y));
      return true;
    }
  }
  if constexpr (Code == OpCode::Power) {
    if (a.type == ElementType::F32) {  // vectorized (simd_loops.h), musl's pow at the edges
      simd::f32_pow(static_cast<std::size_t>(y.elements()), a.as<float>(), b.as<float>(),
                    y.as<float>());
      c.set(0, std::move(y));
      return true;
    }
  }
  constexpr bool sign_free = Code == OpCode::Add || Code == OpCode::Subtract ||
                             Code == OpCode::Multiply || Code == OpCode::And ||
                             Code == OpCode::Or || Code == OpCode::Xor ||
                             Code == OpCode::ShiftLeft || Code == OpCode::ShiftRightLogical ||
                             Code == OpCode::ShiftRightArithmetic;
  const ElementType t = sign_free ? same_width_signed(a.type) : a.type;
  const bool ok = for_type(c, t, [&](auto e) {
    using E = decltype(e);
    // (f32 never gets here under simd_f32 or for power, nor an unsigned type under sign_free:
    // no loop for them.)
    if constexpr (binary_defined<Code, E>() &&
                  !((simd_f32 || Code == OpCode::Power) && E::type == ElementType::F32) &&
                  !(sign_free && is_unsigned_int_v<E>)) {
      map2<E, E>(a, b, y, [](typename E::Compute x, typename E::Compute z) {
        return binary_value<Code, E>(x, z);
      });
      return true;
    } else {
      return false;
    }
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// complex(real, imag).
bool complex_op(const OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::int64_t n = y.elements();
  if (a.type == ElementType::F32) {
    auto* py = y.as<std::complex<float>>();
    for (std::int64_t i = 0; i < n; ++i) py[i] = {a.as<float>()[i], b.as<float>()[i]};
  } else if (a.type == ElementType::F64) {
    auto* py = y.as<std::complex<double>>();
    for (std::int64_t i = 0; i < n; ++i) py[i] = {a.as<double>()[i], b.as<double>()[i]};
  } else {
    return c.fail("complex of this element type", "f32 or f64",
                  std::string(hlo::element_info(a.type).mlir));
  }
  c.set(0, std::move(y));
  return true;
}

// ---- compare
// ------------------------------------------------------------------------------------------

// The spec's total order on floats: −NaN < −inf < … < −0 < +0 < … < +inf < +NaN, by the bits.
template <class S>
std::int64_t total_order_key(S bits_value) {
  using U = std::conditional_t<sizeof(S) == 2, std::uint16_t,
                               std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>>;
  U u;
  std::memcpy(&u, &bits_value, sizeof u);
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  // Negative values: flip all bits (larger magnitude sorts lower); positive: set the sign bit.
  const U k = (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(k) ^ (std::uint64_t(1) << 63));
}

template <class T>
bool compare_values(hlo::Comparison d, T a, T b) {
  switch (d) {
    case hlo::Comparison::EQ:
      return a == b;
    case hlo::Comparison::NE:
      return a != b;
    case hlo::Comparison::LT:
      return a < b;
    case hlo::Comparison::LE:
      return a <= b;
    case hlo::Comparison::GT:
      return a > b;
    case hlo::Comparison::GE:
      return a >= b;
  }
  return false;
}

bool compare(const OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const hlo::CompareAttrs& ca = c.attrs().get<hlo::CompareAttrs>();
  const hlo::Comparison d = ca.direction;
  const hlo::CompareType ct = ca.compare_type;
  const std::int64_t n = y.elements();
  auto* out = y.as<std::uint8_t>();
  const bool ok = for_type(c, a.type, [&](auto e) {
    using E = decltype(e);
    using S = typename E::Storage;
    const S* pa = a.as<S>();
    const S* pb = b.as<S>();
    if constexpr (is_complex_v<E>) {
      if (d != hlo::Comparison::EQ && d != hlo::Comparison::NE) return false;
      for (std::int64_t i = 0; i < n; ++i) out[i] = (pa[i] == pb[i]) == (d == hlo::Comparison::EQ);
    } else if constexpr (is_float_v<E>) {
      if (ct == hlo::CompareType::TotalOrder) {
        for (std::int64_t i = 0; i < n; ++i)
          out[i] = compare_values(d, total_order_key(pa[i]), total_order_key(pb[i]));
      } else {
        for (std::int64_t i = 0; i < n; ++i)
          out[i] = compare_values(d, E::load(pa[i]), E::load(pb[i]));
      }
    } else if constexpr (is_pred_v<E>) {
      for (std::int64_t i = 0; i < n; ++i) out[i] = compare_values(d, pa[i] != 0, pb[i] != 0);
    } else {
      using U = std::make_unsigned_t<S>;
      if (ct == hlo::CompareType::Unsigned)
        for (std::int64_t i = 0; i < n; ++i)
          out[i] = compare_values(d, static_cast<U>(pa[i]), static_cast<U>(pb[i]));
      else
        for (std::int64_t i = 0; i < n; ++i) out[i] = compare_values(d, pa[i], pb[i]);
    }
    return true;
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- select, clamp
// ------------------------------------------------------------------------------------

bool select(const OpCall& c) {
  const Tensor& p = c.tensor(0);
  const Tensor& a = c.tensor(1);
  const Tensor& b = c.tensor(2);
  if (p.elements() == 1) {  // a scalar predicate picks a whole operand
    c.set(0, p.data()[0] ? a : b);
    return true;
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(y.type));
  const std::int64_t n = y.elements();
  const std::uint8_t* pp = p.data();
  // Selection moves bits, never floats (a NaN's payload and sign are kept): one loop per
  // element size, over integers (complex<f64>: two 64-bit halves).
  const bool sized = by_size(eb, [&](auto tag) {
    using T = decltype(tag);
    const T* pa = a.as<T>();
    const T* pb = b.as<T>();
    T* py = y.as<T>();
    for (std::int64_t i = 0; i < n; ++i) py[i] = pp[i] ? pa[i] : pb[i];
  });
  if (!sized)
    return c.fail("select of this element size", "1, 2, 4, 8 or 16 bytes", std::to_string(eb));
  c.set(0, std::move(y));
  return true;
}

// clamp(min, x, max) = minimum(maximum(x, min), max); min and max may be scalars.
bool clamp(const OpCall& c) {
  const Tensor& lo = c.tensor(0);
  const Tensor& x = c.tensor(1);
  const Tensor& hi = c.tensor(2);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::int64_t n = y.elements();
  const bool lo_scalar = lo.elements() == 1 && n != 1, hi_scalar = hi.elements() == 1 && n != 1;
  const bool ok = for_type(c, x.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (is_complex_v<E>) {
      return false;
    } else {
      using S = typename E::Storage;
      const S* pl = lo.as<S>();
      const S* px = x.as<S>();
      const S* ph = hi.as<S>();
      S* py = y.as<S>();
      for (std::int64_t i = 0; i < n; ++i) {
        const auto v =
            binary_value<OpCode::Maximum, E>(E::load(px[i]), E::load(pl[lo_scalar ? 0 : i]));
        py[i] = E::store(binary_value<OpCode::Minimum, E>(v, E::load(ph[hi_scalar ? 0 : i])));
      }
      return true;
    }
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- convert, bitcast_convert
// ---------------------------------------------------------------------

// One value of compute type From to compute type To, with the rules in the file comment.
template <class From, class To>
typename To::Compute convert_value(typename From::Compute v) {
  using F = typename From::Compute;
  using T = typename To::Compute;
  if constexpr (is_pred_v<To>) {
    if constexpr (is_complex_v<From>)
      return v != F(0);
    else
      return v != F(0);
  } else if constexpr (is_complex_v<To>) {
    using R = typename T::value_type;
    if constexpr (is_complex_v<From>)
      return T(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else if constexpr (is_pred_v<From>)
      return T(v ? R(1) : R(0), R(0));
    else
      return T(static_cast<R>(v), R(0));
  } else if constexpr (is_complex_v<From>) {
    return convert_value<Elem<complex_real_type<From>()>, To>(v.real());
  } else if constexpr (is_int_v<To>) {
    if constexpr (std::is_floating_point<F>::value) {
      if (std::isnan(v)) return T(0);
      const double d = std::trunc(static_cast<double>(v));
      if (d <= static_cast<double>(std::numeric_limits<T>::min()))
        return std::numeric_limits<T>::min();
      if (d >= static_cast<double>(std::numeric_limits<T>::max()))
        return std::numeric_limits<T>::max();
      return static_cast<T>(d);
    } else {
      return static_cast<T>(v);  // integers: modulo 2^N (two's complement)
    }
  } else {
    // To a float: from a float or an integer, rounded once to nearest.
    if constexpr (is_half_v<To>) {
      // Halves round from the exact double (an f32 intermediate could round twice).
      const double d = static_cast<double>(v);
      const std::uint16_t bits = To::type == ElementType::F16 ? f64_to_f16(d) : f64_to_bf16(d);
      return To::load(bits);  // exact in float; store() keeps the bits
    } else {
      return static_cast<T>(v);
    }
  }
}

// convert runs in two steps, a block of elements at a time: the source's elements widened,
// exactly, to the one C++ type of their kind (pred and signed integers: int64; unsigned: uint64;
// f16, bf16 and f32: float; f64, c64 and c128: themselves), then each converted by the rules
// above from that type. convert_value gives the same value from the wide type as from the source's
// own (its rules depend only on the value and on the kind of its type), so the results are the
// bits a loop per (source, destination) pair gives, with 9 widening loops and 6 × 15 converting
// ones instead of 15 × 15 (issue 25).
template <class W>
struct WideElem;  // the element type whose compute type is W
template <>
struct WideElem<std::int64_t> : Elem<ElementType::S64> {};
template <>
struct WideElem<std::uint64_t> : Elem<ElementType::U64> {};
template <>
struct WideElem<float> : Elem<ElementType::F32> {};
template <>
struct WideElem<double> : Elem<ElementType::F64> {};
template <>
struct WideElem<std::complex<float>> : Elem<ElementType::C64> {};
template <>
struct WideElem<std::complex<double>> : Elem<ElementType::C128> {};

template <class From>
using wide_t =
    std::conditional_t<is_pred_v<From> || is_signed_int_v<From>, std::int64_t,
                       std::conditional_t<is_int_v<From>, std::uint64_t, typename From::Compute>>;

template <class W, class To>
void convert_from_wide(const W* in, std::int64_t n, std::uint8_t* out) {
  auto* py = reinterpret_cast<typename To::Storage*>(out);
  for (std::int64_t i = 0; i < n; ++i) py[i] = To::store(convert_value<WideElem<W>, To>(in[i]));
}

bool convert(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::int64_t n = y.elements();
  const std::size_t out_bytes = static_cast<std::size_t>(hlo::element_bytes(y.type));
  const bool ok = for_type(c, x.type, [&](auto from) {
    using From = decltype(from);
    using W = wide_t<From>;
    using S = typename From::Storage;
    // The converting loop from W to the destination type, chosen once.
    void (*to_dest)(const W*, std::int64_t, std::uint8_t*) = nullptr;
    dispatch(y.type, [&](auto to) { to_dest = &convert_from_wide<W, decltype(to)>; });
    if (!to_dest)
      return c.fail("convert to this element type", "a type the op is defined for",
                    std::string(hlo::element_info(y.type).mlir));
    const S* px = x.as<S>();
    if constexpr (std::is_same<S, W>::value) {  // already wide
      to_dest(px, n, y.data());
    } else {
      constexpr std::int64_t kBlock = 256;
      W wide[kBlock];
      for (std::int64_t b = 0; b < n; b += kBlock) {
        const std::int64_t m = std::min(kBlock, n - b);
        for (std::int64_t i = 0; i < m; ++i) wide[i] = static_cast<W>(From::load(px[b + i]));
        to_dest(wide, m, y.data() + static_cast<std::size_t>(b) * out_bytes);
      }
    }
    return true;
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

// The same bits under another element type; a wider or narrower type adds or drops the last
// dimension (its size is the ratio of the widths).
bool bitcast_convert(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  // verify.cpp's bitcast_convert rule: the result holds the operand's bits.
  RL_VERIFIED(c, static_cast<double>(x.elements()) * hlo::element_info(x.type).bits ==
                     static_cast<double>(y.elements()) * hlo::element_info(y.type).bits);
  // i1 holds one bit in a byte: between it and a wider type the bits are the spec's, the bytes
  // are not, and that is not run.
  if (y.bytes() != x.bytes())
    return c.fail("bitcast_convert changes the size", std::to_string(x.bytes()) + " bytes",
                  std::to_string(y.bytes()));
  if (x.bytes()) std::memcpy(y.data(), x.data(), x.bytes());
  c.set(0, std::move(y));
  return true;
}

// ---- simple unary ops
// -------------------------------------------------------------------------------

template <OpCode Code>
bool unary(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  constexpr bool sign_free = Code == OpCode::Negate || Code == OpCode::Not ||
                             Code == OpCode::Popcnt || Code == OpCode::CountLeadingZeros;
  const bool ok = for_type(c, sign_free ? same_width_signed(x.type) : x.type, [&](auto e) {
    using E = decltype(e);
    using C = typename E::Compute;
    if constexpr (sign_free && is_unsigned_int_v<E>) {
      return false;  // never here: run as the signed type
    } else if constexpr (!takes_v<Code, E>) {
      return false;  // not a kind the op takes (ops.inc's types column): no loop
    } else if constexpr (Code == OpCode::Negate) {
      if constexpr (is_pred_v<E>)
        return false;
      else if constexpr (is_int_v<E>)
        map1<E, E>(x, y, [](C v) { return wrap_sub(C(0), v); });
      else
        map1<E, E>(x, y, [](C v) { return -v; });
      return true;
    } else if constexpr (Code == OpCode::Not) {
      if constexpr (is_pred_v<E>)
        map1<E, E>(x, y, [](C v) { return !v; });
      else if constexpr (is_int_v<E>)
        map1<E, E>(x, y, [](C v) { return static_cast<C>(~v); });
      else
        return false;
      return true;
    } else if constexpr (Code == OpCode::Abs) {
      if constexpr (is_complex_v<E>) {
        if constexpr (E::type == ElementType::C64)
          map1<E, Elem<ElementType::F32>>(x, y, [](C v) { return math::c64::abs(v); });
        else
          map1<E, Elem<ElementType::F64>>(x, y,
                                          [](C v) { return libm::hypot(v.real(), v.imag()); });
      } else if constexpr (is_int_v<E>) {
        map1<E, E>(x, y, [](C v) { return v < 0 ? wrap_sub(C(0), v) : v; });
      } else if constexpr (is_float_v<E>) {
        map1<E, E>(x, y, [](C v) { return std::fabs(v); });
      } else {
        return false;
      }
      return true;
    } else if constexpr (Code == OpCode::Sign) {
      if constexpr (is_complex_v<E>) {
        if constexpr (E::type == ElementType::C64) {
          map1<E, E>(x, y, [](C v) { return math::c64::sign(v); });  // XLA's, in f32
        } else {
          map1<E, E>(x, y, [](C v) {
            using R = typename C::value_type;
            if (std::isnan(v.real()) || std::isnan(v.imag()))
              return C(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
            const R m = libm::hypot(v.real(), v.imag());  // |v| as abs computes it
            return m == R(0) ? C(0) : v / m;
          });
        }
      } else if constexpr (is_float_v<E>) {
        map1<E, E>(x, y, [](C v) { return std::isnan(v) ? v : v > 0 ? C(1) : v < 0 ? C(-1) : v; });
      } else if constexpr (is_int_v<E>) {
        map1<E, E>(x, y, [](C v) { return static_cast<C>(v > 0 ? 1 : v < 0 ? -1 : 0); });
      } else {
        return false;
      }
      return true;
    } else if constexpr (Code == OpCode::Floor || Code == OpCode::Ceil ||
                         Code == OpCode::RoundNearestAfz || Code == OpCode::RoundNearestEven) {
      if constexpr (is_float_v<E>) {
        map1<E, E>(x, y, [](C v) {
          if constexpr (Code == OpCode::Floor)
            return std::floor(v);
          else if constexpr (Code == OpCode::Ceil)
            return std::ceil(v);
          else if constexpr (Code == OpCode::RoundNearestAfz)
            return std::round(v);
          else
            return std::nearbyint(v);  // the default rounding mode: to nearest, ties to even
        });
        return true;
      } else {
        return false;
      }
    } else if constexpr (Code == OpCode::IsFinite) {
      if constexpr (is_float_v<E>) {
        map1<E, Elem<ElementType::Pred>>(x, y,
                                         [](C v) { return static_cast<bool>(std::isfinite(v)); });
        return true;
      } else {
        return false;
      }
    } else if constexpr (Code == OpCode::Popcnt || Code == OpCode::CountLeadingZeros) {
      if constexpr (is_int_v<E>) {
        using U = std::make_unsigned_t<C>;
        constexpr int bits = sizeof(C) * 8;
        map1<E, E>(x, y, [](C v) {
          U u = static_cast<U>(v);
          int count = 0;
          if constexpr (Code == OpCode::Popcnt) {
            for (; u; u &= static_cast<U>(u - 1)) ++count;
          } else {
            count = bits;
            for (; u; u >>= 1) --count;
          }
          return static_cast<C>(count);
        });
        return true;
      } else {
        return false;
      }
    } else if constexpr (Code == OpCode::Real || Code == OpCode::Imag) {
      if constexpr (is_complex_v<E>) {
        using R = Elem<complex_real_type<E>()>;
        map1<E, R>(x, y, [](C v) { return Code == OpCode::Real ? v.real() : v.imag(); });
        return true;
      } else if constexpr (is_float_v<E>) {
        map1<E, E>(x, y, [](C v) { return Code == OpCode::Real ? v : C(0); });
        return true;
      } else {
        return false;
      }
    } else {
      return false;
    }
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

}  // namespace

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(Add, binary<OpCode::Add>)
RL_KERNEL(Subtract, binary<OpCode::Subtract>)
RL_KERNEL(Multiply, binary<OpCode::Multiply>)
RL_KERNEL(Divide, binary<OpCode::Divide>)
RL_KERNEL(Remainder, binary<OpCode::Remainder>)
RL_KERNEL(Maximum, binary<OpCode::Maximum>)
RL_KERNEL(Minimum, binary<OpCode::Minimum>)
RL_KERNEL(And, binary<OpCode::And>)
RL_KERNEL(Or, binary<OpCode::Or>)
RL_KERNEL(Xor, binary<OpCode::Xor>)
RL_KERNEL(ShiftLeft, binary<OpCode::ShiftLeft>)
RL_KERNEL(ShiftRightLogical, binary<OpCode::ShiftRightLogical>)
RL_KERNEL(ShiftRightArithmetic, binary<OpCode::ShiftRightArithmetic>)
RL_KERNEL(Power, binary<OpCode::Power>)
RL_KERNEL(Atan2, binary<OpCode::Atan2>)
RL_KERNEL(Complex, complex_op)
RL_KERNEL(Compare, compare)
RL_KERNEL(Select, select)
RL_KERNEL(Clamp, clamp)
RL_KERNEL(Convert, convert)
RL_KERNEL(BitcastConvert, bitcast_convert)
RL_KERNEL(Negate, unary<OpCode::Negate>)
RL_KERNEL(Not, unary<OpCode::Not>)
RL_KERNEL(Abs, unary<OpCode::Abs>)
RL_KERNEL(Sign, unary<OpCode::Sign>)
RL_KERNEL(Floor, unary<OpCode::Floor>)
RL_KERNEL(Ceil, unary<OpCode::Ceil>)
RL_KERNEL(RoundNearestAfz, unary<OpCode::RoundNearestAfz>)
RL_KERNEL(RoundNearestEven, unary<OpCode::RoundNearestEven>)
RL_KERNEL(IsFinite, unary<OpCode::IsFinite>)
RL_KERNEL(Popcnt, unary<OpCode::Popcnt>)
RL_KERNEL(CountLeadingZeros, unary<OpCode::CountLeadingZeros>)
RL_KERNEL(Real, unary<OpCode::Real>)
RL_KERNEL(Imag, unary<OpCode::Imag>)

}  // namespace rl::interp
