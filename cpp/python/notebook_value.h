// The notebook's values (python/notebook.h): one refcounted object per Python value.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "python/ast.h"
#include "python/bigint.h"
#include "python/ndarray.h"

namespace rl::python::tr {
struct Obj;  // python/traced.h: a value of the tracer
}

namespace rl::python::nb {

enum class T {
  None,
  Bool,
  Int,
  Float,
  Str,
  List,
  Tuple,
  Dict,
  Range,
  Slice,
  Set,       // items: CPython's hash table's slots (null: empty), hashes beside them; used, fill
  Func,      // a def or lambda
  Builtin,   // a function of the runtime: s is its qualified name ("print", "np.sort")
  Method,    // s: the attribute; self: the receiver
  Module,    // s: "numpy", "jax.numpy", "numpy.testing", "time", "jax"
  DType,     // a NumPy/JAX dtype (dt)
  Array,     // a host array (arr): numpy.ndarray or jax.Array
  ExcType,   // s: "ValueError"
  Exc,       // an exception instance: s its type, text its message
  Jitted,    // jax.jit(f): self is f
  Lowered,   // text: the module; s: the function's name
  IR,        // lowered.compiler_ir(...): text
  Compiled,  // lowered.compile(): text, compiled (the parsed, lowered module)
  Ellipsis,  // `...`
  Traced,    // an array of the function jax.jit is tracing (tv; i: the trace it belongs to)
  SDS,       // jax.ShapeDtypeStruct: items the shape (ints), dt (s) the dtype
  // A lazy iterator, made where a traced array is iterated (JAX's iteration of a tracer is a
  // generator: each row's slice is emitted when the loop asks for it). s: its kind, as type()
  // names it: "generator" (a traced array's rows: self the array, i the next row),
  // "list_iterator" (items, i the next; reversed()'s "list_reverseiterator" reads its list live,
  // i the next index counting down, "reversed" and "dict_reversekeyiterator" a reversed copy, its
  // "range_iterator" has text "reversed" and counts from the range's end), "enumerate" (self the
  // inner iterator, i the next count), "zip" (items: the iterators), "map" and "filter" (self the
  // function, items[0] the iterator), and "generator" of a generator expression (lambda the
  // expression, closure its scope, items the iterators of the clauses entered, outermost first).
  Iter,
};

struct Obj;
using V = std::shared_ptr<Obj>;

// A NumPy view (basic indexing, a row, .T, a reshape of a whole array): its own copy of the
// elements, kept equal to the array it views. `at[k]`: the root array's flat index of element k
// (row-major); `order`: 1 when `at` ascends, -1 when it descends, 0 otherwise (a lookup then
// scans). The root is the array that is no view; it lists its live views (Obj::views).
struct ArrayView {
  V root;
  std::vector<std::int64_t> at;
  int order = 0;
};

struct Scope {
  std::unordered_map<std::string, V> vars;
  std::shared_ptr<Scope> parent;  // the enclosing function's scope (closures); null: globals next
};

struct CompiledModule;  // notebook.cpp: a parsed and lowered module kept for runs

// How many notebook values exist on this thread (notebook.h objects_alive): what a test of the
// cycles' teardown counts.
inline thread_local std::int64_t t_objects_alive = 0;
struct Counted {
  Counted() { ++t_objects_alive; }
  Counted(const Counted&) { ++t_objects_alive; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --t_objects_alive; }
};

struct Obj {
  Counted counted;
  T t = T::None;
  bool b = false;      // Bool: the value; DType: a JAX dtype; Array: a 0-d numpy.ndarray
                       // (np.array(2.5)), not a NumPy scalar (what reductions and indexing give)
  std::int64_t i = 0;  // Int: the value, or (big) the nearest int64
  std::shared_ptr<const BigInt> big;  // Int: set when the value is past int64
  double f = 0;
  std::string s, text;
  std::vector<V>
      items;  // List, Tuple; Dict: keys; Range: start, stop, step; Slice: start, stop, step
  std::vector<V> vals;                // Dict: values, in the keys' order
  std::vector<std::uint64_t> hashes;  // Set: each slot's hash
  std::int64_t used = 0, fill = 0;    // Set: live entries; live and deleted ones (CPython's fill)
  NdArray arr;
  DType dt = DType::Float64;  // DType (s: the MLIR name of a dtype only a traced array has, "bf16")
  V self;
  const Stmt* def = nullptr;     // Func (def)
  const Expr* lambda = nullptr;  // Func (lambda)
  std::vector<V> defaults;       // Func: one per parameter (null: none)
  int file = 0;  // Func: the source it was defined in (a session's cell), as tracebacks name it
  std::shared_ptr<Scope> closure;
  std::shared_ptr<CompiledModule> compiled;
  std::shared_ptr<tr::Obj> tv;  // Traced: the tracer's abstract array
  // Array: a view of another NumPy array (null: none); an array that is no view: its views, a
  // write into either side updates the other (NumPy's shared memory).
  std::shared_ptr<ArrayView> view;
  std::vector<std::weak_ptr<Obj>> views;
};

}  // namespace rl::python::nb
