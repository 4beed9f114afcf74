// The tracer's values, and a lowering that another evaluator drives (issue 25's evaluator merge):
// the notebook's Machine (python/notebook.cpp) runs the traced function's Python itself and hands
// the tracer each operation that meets a traced array (arithmetic, comparisons, indexing, the
// attributes and methods of arrays, jnp/lax/jax.nn calls), as JAX's tracers take the operations
// Python hands them. The tracer keeps what only it knows: abstract values, promotion, the rules
// that emit primitives, and the emitter (hlo/jax_emit.h).
//
// The driving evaluator owns the Python values; it wraps a traced array (an Obj of kind Array) in
// its own value and converts its scalars, tuples, lists, slices, dtypes and functions to Objs
// where it hands them over. A function it hands over (kind Func with `call` set) is called back
// when a rule traces it (lax.fori_loop's body, a jitted helper).
#pragma once

#include <cctype>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hlo/jax_emit.h"
#include "python/tracer.h"

namespace rl::python::tr {

// A rule's refusal as the exception JAX raises for it. A rule that JAX refuses with another
// exception than TypeError starts its message with the type ("ValueError: Incompatible shapes
// for broadcasting: ...", "IndexError: ...", NotImplementedError for what JAX runs and this
// tracer does not; UnexpectedTracerError for a tracer of an ended trace kept by a side effect);
// any other refusal is JAX's TypeError.
struct Refusal {
  std::string type, text;
};
inline Refusal refusal(const std::string& message) {
  const std::size_t colon = message.find(": ");
  const std::string head = message.substr(0, colon == std::string::npos ? 0 : colon);
  const bool typed =
      head.size() > 5 && head.compare(head.size() - 5, 5, "Error") == 0 &&
      std::isupper(static_cast<unsigned char>(head[0])) &&
      head.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") ==
          std::string::npos;
  if (typed) return {head, message.substr(colon + 2)};
  return {"TypeError", message};
}

enum class K {
  None,
  Bool,
  Int,
  Float,
  Str,
  Tuple,
  List,
  Ellipsis,
  Slice,  // a slice object (items: start, stop, step; None where not written)
  Array,
  Builtin,  // s: a function of the tracer by name ("lax.add"), or "builtins.float" as a dtype
  Method,   // s: the method; self: the array
  DType,    // s: the MLIR name ("f32")
  Func,     // s: its name; call: the driving evaluator's function
};

struct Obj;
using Ref = std::shared_ptr<Obj>;
using Kw = std::vector<std::pair<std::string, Ref>>;
// A function of the driving evaluator, called with traced values: its result, or a failure (when
// the function raised, the evaluator keeps its exception and the message is unused).
using Callback = std::function<Result<Ref>(const std::vector<Ref>&)>;

struct Obj {
  K k = K::None;
  bool b = false;
  std::int64_t i = 0;
  double f = 0;
  std::string s;  // Str: value; Builtin, Method, DType, Func: see K
  // Int, Float: a NumPy scalar's canonical dtype ("i32" for np.int64, "f32" for np.float64): a
  // number JAX takes as an index or a shape, but as an operand strongly typed; empty: a Python
  // number, weakly typed.
  std::string strong;
  std::vector<Ref> items;  // Tuple, List, Slice
  // Array: an abstract value. traced: it has a value in the function being emitted; literal: a
  // Python scalar being used as an array (materialized as a constant where used).
  hlo::jax::Aval aval;
  bool weak = false, traced = false, literal = false;
  double lit = 0;
  hlo::jax::Value v;
  int fn = -1;    // the emitter function the traced value belongs to
  int epoch = 0;  // that function's trace (a thrown-away trace's index is reused)
  Ref self;       // Method: the array
  Callback call;  // Func
};

// JAX's names: a dtype's ("bf16" → "bfloat16", "i1" → "bool") and an abstract array's
// ("float32[3]").
std::string dtype_name(const std::string& mlir);
std::string aval_text(const hlo::jax::Aval& a);

// The methods of x.at[...] the tracer runs (get, set, add, multiply, mul, min, max, divide,
// power), and the AttributeError for another name.
const std::vector<std::string>& index_update_methods();
std::string index_update_refusal(const std::string& name);

// One lowering, `jax.jit(f).lower(args)`, whose Python another evaluator runs. The errors are the
// tracer's messages (JAX's meaning), without a place: the evaluator knows where it is.
class Session {
 public:
  Session(const std::string& function, const std::vector<ArgSpec>& args);
  // No function: the arrays of a lowering run's top level (python/notebook.h's lower_source), as
  // jnp's constructors make them there, abstract (shape and dtype, no data, nothing emitted).
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::vector<Ref>& args() const;  // the traced arguments, in order

  // A jnp/lax/jax.nn/np function by its qualified name as python/tracer.h's supported_names()
  // spells it ("jnp.tanh", "lax.fori_loop", "jax.nn.relu"), or a Python builtin the tracer models
  // on arrays ("abs").
  Result<Ref> call(const std::string& name, const std::vector<Ref>& pos, const Kw& kw);
  Result<Ref> binop(const std::string& op, const Ref& x, const Ref& y);    // + - * / // % ** @
  Result<Ref> compare(const std::string& op, const Ref& x, const Ref& y);  // < > <= >= == !=
  Result<Ref> negate(const Ref& x);                                        // -x
  Result<Ref> subscript(const Ref& x, const Ref& index);  // index as Python hands it over
  // x.at[index].method(*pos, **kw), a method of index_update_methods() (JAX's _IndexUpdateRef;
  // the updates are scatters).
  Result<Ref> index_update(const Ref& x, const Ref& index, const std::string& method,
                           const std::vector<Ref>& pos, const Kw& kw);
  // An attribute of a traced array: a value (.shape, .T, ...), or a Method to call_method.
  Result<Ref> attribute(const Ref& x, const std::string& name);
  Result<Ref> call_method(const Ref& method, const std::vector<Ref>& pos, const Kw& kw);
  // A jitted helper called on traced values: a private function named `name`, traced once per
  // function object (`identity`, which the caller keeps alive for the trace), pytree and argument
  // types by calling `body`.
  Result<Ref> call_jitted(const std::string& name, const std::string& identity,
                          const std::vector<Ref>& pos, const Callback& body);
  // A dtype called on a traced array (jnp.float32(x)), and a host value that meets a traced one:
  // a constant of the traced function (`dims` empty: JAX's 0-d constant).
  Result<Ref> convert(const Ref& x, const std::string& dtype);
  Result<Ref> constant(double value, const std::string& dtype, bool weak);
  // A host array (a NumPy array, an eager jax.Array) used by the traced function: JAX's
  // closed-over constant, printed at the top of the function, one per host object (`identity`,
  // which the caller keeps alive for the trace) and function. `values` in C order, already of
  // `type`'s dtype (canonicalized by the caller). Refused in a loop's body (JAX makes it one of
  // the loop's consts).
  Result<Ref> constant_array(const std::vector<double>& values, const hlo::jax::Aval& type,
                             const void* identity);

  // The function's result (an array, a Python scalar, or a tuple or list of them) → the module.
  // `result_info`: each leaf of `out`'s path as JAX prints it (empty: JAX's for a flat out).
  Result<Lowered> finish(const Ref& out, const std::vector<std::string>& result_info = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rl::python::tr
