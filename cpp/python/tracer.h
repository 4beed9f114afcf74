// The tracer: JAX's rules for abstract arrays, lowering what a traced function does to StableHLO
// through the one emitter (hlo/jax_emit.h), so the text is what `jax.jit(f).lower(...).as_text()`
// prints. The Python around them is the notebook's evaluator's (python/notebook.h runs it, and
// python/traced.h's Session is the door it uses).
//
// The model is JAX's own: a value inside the traced function is an abstract array (shape, dtype,
// weak_type: Python scalars are weakly typed, so `x * 0.1` stays f32 and `x + 1` on i32 stays
// i32); each jnp/lax/jax.nn name is a composition of primitives written as JAX writes it
// (jnp.matmul's dot_general and transposes, jnp.mean's sum and divide, jax.nn.relu's private
// @relu), each primitive with one lowering rule (Python scalars become constants where used,
// operands of another shape are broadcast with broadcast_in_dim). JAX's default configuration
// (jax_enable_x64 off: 64-bit types canonicalized to 32 bits) unless the program turns x64 on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace rl::python {

struct Lowered {
  std::string text;      // the module, as JAX prints it
  std::string function;  // the lowered function's name
  // The arguments @main takes, by their index among the function's: jit drops those nothing
  // reads (JAX's keep_unused=False), and a call passes only these.
  std::vector<int> kept_args;
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

// JAX's jax_enable_x64: off by default, 64-bit types canonicalized to 32 bits and Python numbers
// weakly typed as float32/int32; on (jax.config.update("jax_enable_x64", True)), 64-bit types
// stay and Python numbers are float64/int64. One flag for a run: the notebook clears it when a
// run starts.
void set_enable_x64(bool on);
bool enable_x64();

}  // namespace rl::python
