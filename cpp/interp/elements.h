// Element types as C++ types, and the one switch that turns a runtime ElementType into a
// template instantiation (the type is chosen once per op, never per element).
//
// Each type has its storage (what the buffer holds) and the type it is computed in:
//   pred: uint8_t (0/1), computed as bool;  sN/uN: intN_t/uintN_t (integer arithmetic that may
//   overflow is done in the unsigned type, so it wraps as the spec says, never traps);
//   f16/bf16: their 16 bits, computed in float and rounded back to nearest even (wasm has no
//   half arithmetic; + − × ÷ √ of two halves rounded once from float are correctly rounded);
//   f32, f64: themselves;  c64/c128: std::complex<float/double>.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "common/float16.h"
#include "hlo/element_type.h"
#include "hlo/ops.h"

namespace rl::interp {

using hlo::ElementType;

template <ElementType E>
struct Elem;

#define RL_ELEM_SAME(E, T)                              \
  template <>                                           \
  struct Elem<ElementType::E> {                         \
    using Storage = T;                                  \
    using Compute = T;                                  \
    static constexpr ElementType type = ElementType::E; \
    static Compute load(Storage s) { return s; }        \
    static Storage store(Compute c) { return c; }       \
  };
RL_ELEM_SAME(S8, std::int8_t)
RL_ELEM_SAME(S16, std::int16_t)
RL_ELEM_SAME(S32, std::int32_t)
RL_ELEM_SAME(S64, std::int64_t)
RL_ELEM_SAME(U8, std::uint8_t)
RL_ELEM_SAME(U16, std::uint16_t)
RL_ELEM_SAME(U32, std::uint32_t)
RL_ELEM_SAME(U64, std::uint64_t)
RL_ELEM_SAME(F32, float)
RL_ELEM_SAME(F64, double)
RL_ELEM_SAME(C64, std::complex<float>)
RL_ELEM_SAME(C128, std::complex<double>)
#undef RL_ELEM_SAME

template <>
struct Elem<ElementType::Pred> {
  using Storage = std::uint8_t;
  using Compute = bool;
  static constexpr ElementType type = ElementType::Pred;
  static Compute load(Storage s) { return s != 0; }
  static Storage store(Compute c) { return c ? 1 : 0; }
};
template <>
struct Elem<ElementType::F16> {
  using Storage = std::uint16_t;
  using Compute = float;
  static constexpr ElementType type = ElementType::F16;
  static Compute load(Storage s) { return f16_to_f32(s); }
  static Storage store(Compute c) { return f32_to_f16(c); }
};
template <>
struct Elem<ElementType::BF16> {
  using Storage = std::uint16_t;
  using Compute = float;
  static constexpr ElementType type = ElementType::BF16;
  static Compute load(Storage s) { return bf16_to_f32(s); }
  static Storage store(Compute c) { return f32_to_bf16(c); }
};

template <class E>
constexpr bool is_half_v = E::type == ElementType::F16 || E::type == ElementType::BF16;
template <class E>
constexpr bool is_float_v = std::is_floating_point<typename E::Compute>::value;
template <class E>
constexpr bool is_complex_v = E::type == ElementType::C64 || E::type == ElementType::C128;
template <class E>
constexpr bool is_pred_v = E::type == ElementType::Pred;
template <class E>
constexpr bool is_int_v = std::is_integral<typename E::Compute>::value && !is_pred_v<E>;
template <class E>
constexpr bool is_signed_int_v = is_int_v<E>&& std::is_signed<typename E::Compute>::value;
template <class E>
constexpr bool is_unsigned_int_v = is_int_v<E> && !std::is_signed<typename E::Compute>::value;

// The kind of element E, and whether op Code takes E (ops.inc's types column, which the verifier
// checks first): elementwise kernels instantiate a loop only where it does.
template <class E>
constexpr hlo::ElementKind kind_v = is_pred_v<E>           ? hlo::ElementKind::Bool
                                    : is_signed_int_v<E>   ? hlo::ElementKind::Signed
                                    : is_unsigned_int_v<E> ? hlo::ElementKind::Unsigned
                                    : is_complex_v<E>      ? hlo::ElementKind::Complex
                                                           : hlo::ElementKind::Float;
template <hlo::OpCode Code, class E>
constexpr bool takes_v = hlo::op_takes(Code, kind_v<E>);

// A double rounded once to a real element type E's storage (halves straight from double, not
// through float: one rounding).
template <class E>
typename E::Storage from_double(double v) {
  if constexpr (E::type == ElementType::F16)
    return f64_to_f16(v);
  else if constexpr (E::type == ElementType::BF16)
    return f64_to_bf16(v);
  else
    return static_cast<typename E::Storage>(v);
}

// Calls f(Elem<E>{}) for the runtime type `t`; false for a type the interpreter does not compute
// with (f8, s4, quantized, ...).
template <class F>
bool dispatch(ElementType t, F&& f) {
  switch (t) {
    case ElementType::Pred:
      f(Elem<ElementType::Pred>{});
      return true;
    case ElementType::S8:
      f(Elem<ElementType::S8>{});
      return true;
    case ElementType::S16:
      f(Elem<ElementType::S16>{});
      return true;
    case ElementType::S32:
      f(Elem<ElementType::S32>{});
      return true;
    case ElementType::S64:
      f(Elem<ElementType::S64>{});
      return true;
    case ElementType::U8:
      f(Elem<ElementType::U8>{});
      return true;
    case ElementType::U16:
      f(Elem<ElementType::U16>{});
      return true;
    case ElementType::U32:
      f(Elem<ElementType::U32>{});
      return true;
    case ElementType::U64:
      f(Elem<ElementType::U64>{});
      return true;
    case ElementType::F16:
      f(Elem<ElementType::F16>{});
      return true;
    case ElementType::BF16:
      f(Elem<ElementType::BF16>{});
      return true;
    case ElementType::F32:
      f(Elem<ElementType::F32>{});
      return true;
    case ElementType::F64:
      f(Elem<ElementType::F64>{});
      return true;
    case ElementType::C64:
      f(Elem<ElementType::C64>{});
      return true;
    case ElementType::C128:
      f(Elem<ElementType::C128>{});
      return true;
    default:
      return false;
  }
}

// The signed integer type of t's width for an unsigned integer type t, else t. The ops whose
// results are the same bits for both signednesses (add, subtract, multiply and negate, which wrap;
// and, or, xor, not; the shifts; popcnt, count_leading_zeros) run the signed type's loop for both:
// one instantiation instead of two (issue 25): their loops skip is_unsigned_int_v types.
inline ElementType same_width_signed(ElementType t) {
  switch (t) {
    case ElementType::U8:
      return ElementType::S8;
    case ElementType::U16:
      return ElementType::S16;
    case ElementType::U32:
      return ElementType::S32;
    case ElementType::U64:
      return ElementType::S64;
    default:
      return t;
  }
}

// Integer arithmetic that wraps: computed in the unsigned type of the same width.
template <class T>
T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
T wrap_sub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
T wrap_mul(T a, T b) {
  using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

}  // namespace rl::interp
