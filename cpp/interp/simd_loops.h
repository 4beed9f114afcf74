// f32 elementwise loops in wasm SIMD (f32x4), for the ops that move the most data: add,
// subtract, multiply, divide, maximum, minimum. Natively the same loops are plain C++ (the
// compiler vectorizes them). maximum/minimum propagate NaN, as XLA's do.
#pragma once

#include <cstddef>

namespace rl::interp::simd {

enum class Binary { Add, Subtract, Multiply, Divide, Maximum, Minimum };

void f32_binary(Binary op, std::size_t n, const float* a, const float* b, float* y);

}  // namespace rl::interp::simd
