// f32 elementwise loops in wasm SIMD (f32x4), for the ops that move the most data: add,
// subtract, multiply, divide, maximum, minimum. Natively the same loops are plain C++ (the
// compiler vectorizes them). maximum/minimum propagate NaN, as XLA's do.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "common/nan.h"
#include "hlo/ops.h"

namespace rl::interp {

// Maximum and minimum as IEEE 754-2019 maximum/minimum (what XLA's CPU backend emits, LLVM's
// llvm.maximum/llvm.minimum, and what wasm's f32x4.max/min compute): a NaN in either operand
// gives NaN, and −0 < +0. Which NaN is set on the bits, the same in every build: the first
// operand's if it is a NaN, else the second's, quieted (wasm leaves the sign of the NaN that
// f32x4.max makes to the engine: V8 gave −NaN where x86 gave +NaN). The one rule for every float
// type: the f32 loops below and the generic elementwise path (ops_elementwise.cpp) call it.
template <bool Max, class F>
F ieee_max_min(F a, F b) {
  if (a != a) return quieted(a);
  if (b != b) return quieted(b);
  if (a == b) return std::signbit(a) == Max ? b : a;  // ±0: +0 is the larger (equal others: either)
  return Max ? (a > b ? a : b) : (a < b ? a : b);
}

}  // namespace rl::interp

namespace rl::interp::simd {

enum class Binary { Add, Subtract, Multiply, Divide, Maximum, Minimum };

// The loop an op runs on (add, subtract, multiply, divide, maximum, minimum): into *op; false for
// any other op. The one map, for the op-by-op path and the fused loop.
bool binary_of(hlo::OpCode code, Binary* op);

void f32_binary(Binary op, std::size_t n, const float* a, const float* b, float* y);

// y[i] = a[i]^b[i] for f32 (stablehlo.power): vectorized in double lanes where a[i] > 0 is finite
// and b[i] finite, within 0.5 ulp + 2e-6 ulp; musl's pow in double, rounded, everywhere else
// (pow_f32.cpp says how). The same bits in every build, SIMD or not. `y` may be `a` or `b`.
void f32_pow(std::size_t n, const float* a, const float* b, float* y);
// One element by the same rule (the scalar path of f32_pow).
float f32_pow_one(float a, float b);

}  // namespace rl::interp::simd
