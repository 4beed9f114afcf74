// StableHLO text for the lesson's workload, tanh(a @ b), exactly as JAX prints it
// (`jax.jit(workload).lower(a, b).as_text()`, recent JAX), for any sizes and float dtype.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace rl::hlo {

// a is (m, k), b is (k, n), both of `dtype` ("f32", "bf16", "f16" or "f64"). Refuses sizes
// that are not positive integers at most 2^53 and other dtypes, naming the argument:
// "m must be a positive integer, got 0", "dtype must be one of f32, bf16, f16, f64, got \"i7\"".
// The text ends with a newline, like as_text().
Result<std::string> emit_workload(double m, double k, double n, const std::string& dtype);

// An MLP layer, relu(x @ w + b), as JAX lowers it: x is (batch, d_in), w is (d_in, d_out),
// b is (d_out): dot_general, broadcast_in_dim, add, a broadcast zero and maximum.
Result<std::string> emit_mlp_layer(double batch, double d_in, double d_out,
                                   const std::string& dtype);

// Attention-like softmax(q @ kᵀ / √d) @ v for q, k, v of shape (seq, d): two dot_generals,
// a scale, a max-reduce, subtract, exponential, a sum-reduce and divide.
Result<std::string> emit_attention(double seq, double d, const std::string& dtype);

// The bundled examples of the analyze view: the lesson's workload (32, 16, 8), an MLP layer
// (128, 512, 256) and attention (seq 128, d 64), all f32. Generated here, not shipped files.
struct Example {
  std::string name, title, text;
};
std::vector<Example> examples();

}  // namespace rl::hlo
