// StableHLO text for the lesson's workload, tanh(a @ b), exactly as JAX prints it
// (`jax.jit(workload).lower(a, b).as_text()`, recent JAX), for any sizes and float dtype.
#pragma once

#include <string>

#include "common/result.h"

namespace rl::hlo {

// a is (m, k), b is (k, n), both of `dtype` ("f32", "bf16", "f16" or "f64"). Refuses sizes
// that are not positive integers at most 2^53 and other dtypes, naming the argument:
// "m must be a positive integer, got 0", "dtype must be one of f32, bf16, f16, f64, got \"i7\"".
// The text ends with a newline, like as_text().
Result<std::string> emit_workload(double m, double k, double n, const std::string& dtype);

}  // namespace rl::hlo
