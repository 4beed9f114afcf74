// A NaN's bits set by rule, not left to arithmetic: wasm leaves the sign and payload of a NaN that
// an operation makes to the engine (V8 gave −NaN where x86 gave +NaN), and libraries differ (fma).
// The core's rule, wherever a result must have the same bits in every build: a NaN operand comes
// out quieted, its sign and payload kept (of two, the first: nan_rule); a NaN the core's own
// functions make from numbers is default_nan (math_impl.h's f32 functions, math_functions.h's
// complex results). One an arithmetic instruction makes from numbers (inf − inf, 0 / 0, the
// square root of −1) keeps the instruction's bits: −NaN on x86, natively and in wasm alike, +NaN
// on an ARM host.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace rl {

// x with its quiet bit (the top fraction bit) set, on the bits. F: float or double.
template <class F>
F quieted(F x) {
  using U = std::conditional_t<sizeof(F) == 8, std::uint64_t, std::uint32_t>;
  static_assert(sizeof(F) == sizeof(U), "float or double");
  U u;
  std::memcpy(&u, &x, sizeof u);
  u |= U(1) << (std::numeric_limits<F>::digits - 2);
  std::memcpy(&x, &u, sizeof u);
  return x;
}

// The quiet NaN without sign or payload (0x7FC00000, 0x7FF8000000000000), on the bits.
template <class F>
F default_nan() {
  using U = std::conditional_t<sizeof(F) == 8, std::uint64_t, std::uint32_t>;
  static_assert(sizeof(F) == sizeof(U), "float or double");
  const U u = (U(1) << (sizeof(F) * 8 - 1)) - (U(1) << (std::numeric_limits<F>::digits - 2));
  F x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// The result r of an arithmetic op on a and b (add, subtract, multiply, divide, remainder, pow,
// atan2, hypot), with the rule for NaN operands: where r is a NaN and an operand is one, the
// first NaN operand, quieted. Hardware and libraries pick either when both are NaNs: x86 the
// operand the compiler made the destination (it may swap a + b), wasm the engine, musl's atan2 and
// pow x + y. On the result, so numbers take no branch but the one test.
template <class F>
F nan_rule(F r, F a, F b) {
  if (r == r) return r;
  if (a != a) return quieted(a);
  if (b != b) return quieted(b);
  return r;
}

}  // namespace rl
