// The tracer: runs a JAX-style Python program (python/parser.h's subset) the way jax.jit traces
// it, on abstract values, and lowers the traced function to StableHLO through the one emitter
// (hlo/jax_emit.h), so the text is what `jax.jit(f).lower(...).as_text()` prints.
//
// The model is JAX's own: a value inside the traced function is an abstract array (shape, dtype,
// weak_type: Python scalars are weakly typed, so `x * 0.1` stays f32 and `x + 1` on i32 stays
// i32); each jnp/lax/jax.nn name is a composition of primitives written as JAX writes it
// (jnp.matmul's dot_general and transposes, jnp.mean's sum and divide, jax.nn.relu's private
// @relu), each primitive with one lowering rule (Python scalars become constants where used,
// operands of another shape are broadcast with broadcast_in_dim). JAX's default configuration:
// 64-bit types are canonicalized to 32 bits (jax_enable_x64 off).
//
// The file runs top to bottom (imports, defs, assignments of arrays made with jnp.zeros / ones /
// arange(...).reshape(...), jax.ShapeDtypeStruct(...)) until the first `jax.jit(f).lower(args)`
// (or the first on the function named `entry`); what follows that call is parsed, not run.
// Errors carry the place: "LINE:COL: message" with JAX's meaning. A step budget bounds the run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "python/ast.h"

namespace rl::python {

constexpr long kMaxSteps = 2'000'000;  // evaluation steps of one lowering
constexpr int kMaxCallDepth = 100;     // nested Python calls
constexpr int kMaxEvalDepth = 600;     // expressions and statements being evaluated, over all calls

struct Lowered {
  std::string text;      // the module, as JAX prints it
  std::string function;  // the lowered function's name
};

// An abstract argument of a lowering (python/traced.h's Session): shape, dtype as MLIR spells it
// ("f32", "i32") and JAX's weak type (a Python scalar).
struct ArgSpec {
  std::vector<std::int64_t> dims;
  std::string dtype;
  bool weak = false;
};

// The names the tracer knows, as written in a program: "jnp.tanh", "jax.nn.relu", ...
const std::vector<std::string>& supported_names();
bool supported_name(const std::string& name);  // one of supported_names()
// A jax.numpy/numpy dtype attribute's MLIR name ("bfloat16" → "bf16"); null when not a dtype.
const char* dtype_mlir_name(const std::string& attribute);

}  // namespace rl::python
