#include "interp/simd_loops.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace rl::interp::simd {

namespace {

#if defined(__wasm_simd128__)
constexpr std::uint32_t kQuietBit = 0x00400000u;  // of an f32 NaN (quieted() in common/nan.h)

// A lane op whose NaN operand makes a NaN lane (add, subtract, multiply, divide, max, min), then
// each NaN-operand lane replaced by its first NaN operand, quieted, as nan_rule and ieee_max_min
// say.
inline v128_t nan_from_operands(v128_t r, v128_t a, v128_t b) {
  const v128_t quiet = wasm_i32x4_splat(static_cast<std::int32_t>(kQuietBit));
  r = wasm_v128_bitselect(wasm_v128_or(b, quiet), r, wasm_f32x4_ne(b, b));
  return wasm_v128_bitselect(wasm_v128_or(a, quiet), r, wasm_f32x4_ne(a, a));
}
#endif

template <Binary Op>
void scalar_loop(std::size_t i, std::size_t n, const float* a, const float* b, float* y) {
  for (; i < n; ++i) {
    const float x = a[i], z = b[i];
    // Of two NaN operands, the first (common/nan.h's nan_rule), as the vector loop below.
    if constexpr (Op == Binary::Add)
      y[i] = nan_rule(x + z, x, z);
    else if constexpr (Op == Binary::Subtract)
      y[i] = nan_rule(x - z, x, z);
    else if constexpr (Op == Binary::Multiply)
      y[i] = nan_rule(x * z, x, z);
    else if constexpr (Op == Binary::Divide)
      y[i] = nan_rule(x / z, x, z);
    else if constexpr (Op == Binary::Maximum)
      y[i] = ieee_max_min<true>(x, z);
    else
      y[i] = ieee_max_min<false>(x, z);
  }
}

template <Binary Op>
void loop(std::size_t n, const float* a, const float* b, float* y) {
  std::size_t i = 0;
#if defined(__wasm_simd128__)
  // Two vectors per step: enough independent work to hide the latency of a load.
  for (; i + 8 <= n; i += 8) {
    v128_t a0 = wasm_v128_load(a + i), a1 = wasm_v128_load(a + i + 4);
    v128_t b0 = wasm_v128_load(b + i), b1 = wasm_v128_load(b + i + 4);
    v128_t y0, y1;
    if constexpr (Op == Binary::Add)
      y0 = wasm_f32x4_add(a0, b0), y1 = wasm_f32x4_add(a1, b1);
    else if constexpr (Op == Binary::Subtract)
      y0 = wasm_f32x4_sub(a0, b0), y1 = wasm_f32x4_sub(a1, b1);
    else if constexpr (Op == Binary::Multiply)
      y0 = wasm_f32x4_mul(a0, b0), y1 = wasm_f32x4_mul(a1, b1);
    else if constexpr (Op == Binary::Divide)
      y0 = wasm_f32x4_div(a0, b0), y1 = wasm_f32x4_div(a1, b1);
    else if constexpr (Op == Binary::Maximum)
      y0 = wasm_f32x4_max(a0, b0), y1 = wasm_f32x4_max(a1, b1);
    else
      y0 = wasm_f32x4_min(a0, b0), y1 = wasm_f32x4_min(a1, b1);
    // A NaN operand gives a NaN lane, whose bits the engine picks when both are NaNs: the NaN
    // lanes then as the scalar rule says (nan_rule; ieee_max_min for max/min, which are IEEE
    // 754-2019 maximum/minimum).
    // One test for both vectors: NaN lanes are rare, so numbers take one compare and a branch.
    if (wasm_v128_any_true(wasm_v128_or(wasm_f32x4_ne(y0, y0), wasm_f32x4_ne(y1, y1))))
      y0 = nan_from_operands(y0, a0, b0), y1 = nan_from_operands(y1, a1, b1);
    wasm_v128_store(y + i, y0);
    wasm_v128_store(y + i + 4, y1);
  }
#endif
  scalar_loop<Op>(i, n, a, b, y);
}

}  // namespace

void f32_binary(Binary op, std::size_t n, const float* a, const float* b, float* y) {
  switch (op) {
    case Binary::Add:
      return loop<Binary::Add>(n, a, b, y);
    case Binary::Subtract:
      return loop<Binary::Subtract>(n, a, b, y);
    case Binary::Multiply:
      return loop<Binary::Multiply>(n, a, b, y);
    case Binary::Divide:
      return loop<Binary::Divide>(n, a, b, y);
    case Binary::Maximum:
      return loop<Binary::Maximum>(n, a, b, y);
    case Binary::Minimum:
      return loop<Binary::Minimum>(n, a, b, y);
  }
}

bool binary_of(hlo::OpCode code, Binary* op) {
  using hlo::OpCode;
  switch (code) {
    case OpCode::Add:
      *op = Binary::Add;
      return true;
    case OpCode::Subtract:
      *op = Binary::Subtract;
      return true;
    case OpCode::Multiply:
      *op = Binary::Multiply;
      return true;
    case OpCode::Divide:
      *op = Binary::Divide;
      return true;
    case OpCode::Maximum:
      *op = Binary::Maximum;
      return true;
    case OpCode::Minimum:
      *op = Binary::Minimum;
      return true;
    default:
      return false;
  }
}

}  // namespace rl::interp::simd
