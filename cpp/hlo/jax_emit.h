// The one StableHLO emitter: a module built from primitives on abstract values (shape + element
// type) and printed exactly as `jax.jit(f).lower(...).as_text()` prints it in recent JAX.
//
// Whoever builds a program (the bundled examples in emit.cpp, the Python tracer in cpp/python/)
// calls one method per primitive, in the order JAX's lowering rules emit them; this file owns
// every spelling: the module head, `func.func public @main(...)` with `jax.result_info`, SSA names
// (%0, %1, … for results; %cst, %c for constants with MLIR's conflict suffixes _0, _1, … shared
// by all names of one function), each op's pretty form, private functions and their calls, and
// floating-point literals as MLIR prints them.
//
// The forms follow ../shared/reference/lesson.md (the lesson's module byte for byte) and
// ../shared/corpus/stablehlo-interpret/*.mlir (what JAX prints for lax primitives).
// The methods trust their caller for shapes that must agree (the tracer checks them first, with
// JAX's messages); they compute result types where the op determines them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rl::hlo::jax {

// An abstract array: dimensions and the element type as MLIR spells it ("f32", "bf16", "i32",
// "ui8", "i1", ...).
struct Aval {
  std::vector<std::int64_t> dims;
  std::string dtype;
  bool operator==(const Aval& o) const { return dims == o.dims && dtype == o.dtype; }
  bool operator!=(const Aval& o) const { return !(*this == o); }
};

// "tensor<32x16xf32>", "tensor<f32>".
std::string type_text(const Aval& a);

// Element-type classes (MLIR names).
bool is_float(const std::string& dtype);       // f16 bf16 f32 f64
bool is_unsigned(const std::string& dtype);    // ui8 ui16 ui32 ui64
bool is_bool(const std::string& dtype);        // i1
bool is_signed_int(const std::string& dtype);  // i8 i16 i32 i64

// A floating-point literal as MLIR's printer writes it in a dense attribute for `dtype`:
// "1.000000e-01" when six significant digits round-trip, else the shortest form with the type's
// full precision ("0.333333343", "9.99999974E-6"), else (infinities, NaNs, integral values
// beyond the precision) the bits in hex ("0xFF800000").
std::string float_literal(double v, const std::string& dtype);

// A value of the function being built: its index in that function.
struct Value {
  int id = -1;
  bool valid() const { return id >= 0; }
};

class Emitter {
 public:
  // The module `@jit_<name>` whose public @main takes `args`.
  Emitter(std::string name, const std::vector<Aval>& args);

  Value arg(std::size_t i) const { return Value{int(i)}; }
  const Aval& aval(Value v) const;

  // ---- primitives (one line each, in call order) ----
  // A splat constant: `%cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>` (floats),
  // `%c = ... dense<1> : tensor<i32>` (integers), `%c = ... dense<true> : tensor<i1>`.
  Value constant(double v, const Aval& type);
  // A constant array: a host NumPy array JAX bakes into the program (a closed-over constant,
  // which finish prints at the top of its function, before its other primitives, as JAX lowers
  // a jaxpr's consts). `values` in C order, printed as MLIR prints a dense attribute: one value
  // when all are the same (a splat), nested lists up to 100 elements (`dense<[[0, 1], [2, 3]]>`),
  // past that the elements' little-endian bytes in hex (`dense<"0x0000803F...">`, an i1 one
  // byte), `dense<>` when empty.
  Value constant_array(const std::vector<double>& values, const Aval& type);
  Value unary(const std::string& op, Value x);            // "tanh", "exponential", ..., "chlo.tan"
  Value is_finite(Value x);                               // i1 result: `(T) -> tensor<...xi1>`
  Value binary(const std::string& op, Value a, Value b);  // "add", "maximum", ... same types
  Value compare(const std::string& direction, Value a, Value b);  // "GT", ...: i1 result
  Value select(Value pred, Value on_true, Value on_false);
  Value clamp(Value lo, Value x, Value hi);
  // A convert to the same type is printed as MLIR prints it: `stablehlo.convert %x : T`.
  Value convert(Value x, const std::string& dtype);
  // `stablehlo.bitcast_convert %x : (T) -> R` (element types of one width: the shape stays).
  Value bitcast_convert(Value x, const std::string& dtype);
  // `stablehlo.reduce_precision %x, format = e8m23 : T`.
  Value reduce_precision(Value x, std::int64_t exponent_bits, std::int64_t mantissa_bits);
  Value broadcast_in_dim(Value x, const std::vector<std::int64_t>& dims,
                         const std::vector<std::int64_t>& broadcast_dimensions);
  Value reshape(Value x, const std::vector<std::int64_t>& dims);
  Value transpose(Value x, const std::vector<std::int64_t>& permutation);
  Value dot_general(Value a, Value b, const std::vector<std::int64_t>& lhs_batch,
                    const std::vector<std::int64_t>& rhs_batch,
                    const std::vector<std::int64_t>& lhs_contract,
                    const std::vector<std::int64_t>& rhs_contract,
                    const std::string& out_dtype = "");
  // reduce with a one-op body printed in the compact `applies` form: op is "add", "maximum",
  // "minimum", "multiply", "and", "or".
  Value reduce(Value x, Value init, const std::string& op, const std::vector<std::int64_t>& dims);
  Value iota(const Aval& type, std::int64_t dimension);
  // JAX's argmax/argmin lowering (lax's _compute_argminmax): an iota of `index_dtype` along
  // `axis`, the identity and 0 as inits, and a two-operand reduce whose body keeps the larger
  // (smaller) value, NaN first, and the smaller index on ties. The index result (`%N#1`).
  Value argminmax(Value x, std::int64_t axis, const std::string& index_dtype, bool is_max);
  // The generic `"stablehlo.reduce_window"(x, init) <{...}> ({ ^bb0(...): op; return })` with
  // attributes in MLIR's (alphabetical) order, defaults left out. padding: (low, high) per dim.
  Value reduce_window(Value x, Value init, const std::string& op,
                      const std::vector<std::int64_t>& window,
                      const std::vector<std::int64_t>& strides,
                      const std::vector<std::pair<std::int64_t, std::int64_t>>& padding);
  Value slice(Value x, const std::vector<std::int64_t>& start,
              const std::vector<std::int64_t>& limit, const std::vector<std::int64_t>& strides);
  Value concatenate(const std::vector<Value>& xs, std::int64_t dimension);
  // `stablehlo.dynamic_slice %x, %i0, %i1, sizes = [2, 1] : (T, I, I) -> R` (0-d start indices).
  Value dynamic_slice(Value x, const std::vector<Value>& starts,
                      const std::vector<std::int64_t>& sizes);
  // `stablehlo.dynamic_update_slice %x, %update, %i0, ... : (T, U, I, ...) -> T`.
  Value dynamic_update_slice(Value x, Value update, const std::vector<Value>& starts);
  // `stablehlo.pad %x, %value, low = [...], high = [...], interior = [...] : (T, V) -> R`.
  Value pad(Value x, Value value, const std::vector<std::int64_t>& low,
            const std::vector<std::int64_t>& high, const std::vector<std::int64_t>& interior);
  // `"stablehlo.gather"(%x, %indices) <{dimension_numbers = #stablehlo.gather<...>,
  // indices_are_sorted = false, slice_sizes = array<i64: ...>}>` in MLIR's generic form (gather
  // has no other; JAX sets indices_are_sorted, false for array indices), the index vector the last
  // dimension of `indices`, empty dimension lists left out as MLIR prints them; the result's shape
  // is the batch dimensions with the slices' uncollapsed sizes at `offset_dims`.
  Value gather(Value x, Value indices, const std::vector<std::int64_t>& offset_dims,
               const std::vector<std::int64_t>& collapsed_slice_dims,
               const std::vector<std::int64_t>& start_index_map,
               const std::vector<std::int64_t>& slice_sizes);
  // `"stablehlo.scatter"(%x, %indices, %updates) <{[indices_are_sorted = true, ]
  // scatter_dimension_numbers = #stablehlo.scatter<...>[, unique_indices = true]}> ({ region })`:
  // the index vector the last dimension of `indices` (JAX's lowering; printed when not 0), empty
  // dimension lists left out; the region combines the old value and the update with `op`
  // ("add", "multiply", "minimum", "maximum"; "" returns the update: lax.scatter). The result has
  // x's type.
  Value scatter(Value x, Value indices, Value updates, const std::string& op,
                const std::vector<std::int64_t>& update_window_dims,
                const std::vector<std::int64_t>& inserted_window_dims,
                const std::vector<std::int64_t>& scatter_dims_to_operand_dims,
                bool indices_are_sorted, bool unique_indices);
  // `%values, %indices = chlo.top_k(%x, k = K) : T -> (V, I)`: the k largest along the last axis
  // and their int32 indices (lax.top_k; the result names are chlo's, made unique as MLIR does).
  std::pair<Value, Value> top_k(Value x, std::int64_t k);
  // The generic `"stablehlo.sort"(xs...) <{dimension = D[, is_stable = true]}> ({...})` with
  // lax's comparator (_sort_lt_comparator): the first num_keys operands compared, the last key
  // first, each earlier one as lt | (eq & later); a float key compared after -0.0 → 0.0 and NaN
  // → the canonical NaN, `LT` with TOTALORDER. All results, in operand order.
  std::vector<Value> sort(const std::vector<Value>& xs, std::int64_t dimension, bool is_stable,
                          std::int64_t num_keys);
  Value reverse(Value x,
                const std::vector<std::int64_t>& dims);  // `stablehlo.reverse %x, dims = [...] : T`

  // stablehlo.convolution in its pretty form: `dim_numbers` as printed ("[b, f, 0, 1]x[o, i, 0,
  // 1]->[b, f, 0, 1]"), the window's non-default entries, group counts 1, DEFAULT precision.
  Value convolution(Value lhs, Value rhs, const std::string& dim_numbers, const Aval& out,
                    const std::vector<std::int64_t>& strides,
                    const std::vector<std::pair<std::int64_t, std::int64_t>>& padding,
                    const std::vector<std::int64_t>& lhs_dilation,
                    const std::vector<std::int64_t>& rhs_dilation);

  // JAX's lowering of a scan with no scanned inputs or outputs (lax.fori_loop with static bounds
  // is one): a `stablehlo.while` over (consts..., a counter from 0, carry...) whose cond compares
  // the counter with `length` and whose body calls the private function `body` on (consts...,
  // carry...) (`func.call`, the scan body as a closed call) and adds 1 to the counter. The counter
  // is i32 (x64 off). Values inside the regions are named as MLIR's printer names them, after all
  // of the function's own values, so the op is printed when the function is. Returns the while's
  // results for `carry`.
  std::vector<Value> scan_while(const std::vector<Value>& consts, const std::vector<Value>& carry,
                                std::int64_t length, int body);

  // ---- private functions (JAX's jitted helpers, e.g. jax.nn.relu → @relu) ----
  // How many functions there are (main is 0); drop_functions(n) removes those from index n on,
  // for a trace that is thrown away (a body traced once to learn its types and captures).
  int function_count() const { return int(funcs_.size()); }
  void drop_functions(int first);
  // Which of function `fn`'s values (by id: its arguments first) its results from
  // `first_result` on need, through the ops that reach them (jit's dead-code elimination: a read
  // by a dead op, or an argument of a call whose callee never reads it, is none).
  std::vector<bool> needed_values(int fn, std::size_t first_result) const;
  // Makes function `fn` again in its place from its recorded primitives (a loop's body, traced
  // once, then given the arguments the loop passes): on arguments `args`, the old function's value
  // given[k].first being the new argument given[k].second, returning the old results from
  // `first_result` on. Only the primitives those results need (needed_values) are made, none
  // whose results a given value stands for; a call's argument its callee never reads and nothing
  // gives is a zero of its type (finish leaves it out). The old function's values are gone.
  void remake_function(int fn, const std::vector<Aval>& args,
                       const std::vector<std::pair<int, int>>& given, std::size_t first_result);
  // The index of an already-emitted private function named `name` taking `args`, or -1.
  int find_function(const std::string& name, const std::vector<Aval>& args) const;
  // Starts a private function: later primitives go into it until end_function. Returns its index.
  int begin_function(const std::string& name, const std::vector<Aval>& args);
  void end_function(const std::vector<Value>& results);
  // `%0 = call @relu(%arg0) : (tensor<...>) -> tensor<...>` in the current function; a function
  // of several results gives `%0:2 = call @f(...) : (...) -> (..., ...)`, read as %0#0, %0#1.
  std::vector<Value> call(int function, const std::vector<Value>& args);

  // The module's text (ending with a newline, as as_text()); `results` are @main's: one prints
  // jax.result_info = "result", several "result[0]", "result[1]", ...
  // As jit lowers (pxla._dce_jaxpr with keep_unused=False: pe.dce_jaxpr_consts before lowering),
  // what nothing uses is left out: the primitives whose results reach no result (in @main and in
  // the private functions it calls; a loop whole), the private functions nothing calls, @main's
  // arguments nothing reads (kept_args() says which stay) and a called function's (its calls
  // pass the others: JAX's DCE rule for pjit); a loop's body keeps its arguments.
  // `result_info`: each result's jax.result_info (its pytree path, "result[0]['a']"); empty: one
  // result is "result", several "result[i]".
  std::string finish(const std::vector<Value>& results,
                     const std::vector<std::string>& result_info = {});
  // After finish: the indices of @main's arguments the module takes, in order.
  const std::vector<int>& kept_args() const { return kept_args_; }

 private:
  struct Loop {  // a scan_while, printed with the function
    std::vector<std::string> operands;
    std::vector<Aval> types;
    std::size_t nconsts = 0;
    std::int64_t length = 0;
    int body = 0;
    std::string result;  // "%16"
  };
  // A primitive as its caller made it, for finish's dead-code elimination: which one, the values
  // of its function it reads and gives, the private function it calls (-1: none) and its own
  // arguments, so that it can be made again on another emitter from that emitter's values (the
  // live ones are made again, in order, so every name is the one MLIR prints for the pruned
  // module).
  using Ins = std::vector<Value>;
  using FnMap = std::function<int(int)>;
  enum class Prim : std::uint8_t {
    Constant,
    Unary,
    IsFinite,
    Binary,
    Compare,
    Select,
    Clamp,
    Convert,
    BitcastConvert,
    ReducePrecision,
    BroadcastInDim,
    Reshape,
    Transpose,
    DotGeneral,
    Reduce,
    Iota,
    ArgMinMax,
    ReduceWindow,
    Convolution,
    Reverse,
    Slice,
    Concatenate,
    DynamicSlice,
    DynamicUpdateSlice,
    Pad,
    Gather,
    Scatter,
    TopK,
    Sort,
    Call,
    ScanWhile,
  };
  struct Rec {
    Prim prim = Prim::Constant;
    std::vector<int> reads, results;
    int callee = -1;  // Call (its callee takes only the arguments it reads), ScanWhile
    // Its arguments: an op, direction or dtype name (s), integer lists (v1..v4: dims, strides,
    // ...), padding, a type, a constant's value (x), a dimension, axis or count (n), argmax (flag).
    std::string s;
    std::vector<std::int64_t> v1, v2, v3, v4;
    std::vector<std::pair<std::int64_t, std::int64_t>> pads;
    Aval type;
    double x = 0;
    std::vector<double> data;  // constant_array's values
    std::int64_t n = 0;
    bool flag = false;
  };
  static Ins make(Emitter& e, const Rec& rec, const Ins& in, const FnMap& fm);
  // Inside a primitive the primitives it calls (argminmax's iota, scan_while's counter) are its
  // own: only the outermost is recorded.
  int depth_ = 0;
  struct Nest {
    Emitter& e;
    bool outer;
    explicit Nest(Emitter& x) : e(x), outer(x.depth_++ == 0) {}
    ~Nest() { --e.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
  };
  // Records the outermost primitive (null inside another): the caller fills in its arguments.
  Rec* keep(const Nest& nest, Prim prim, const Ins& reads, const Ins& results);
  struct Function {
    std::string name;
    std::string base;  // the name asked for (a second function of one name is base_0, ...)
    bool is_public = false;
    std::vector<Aval> arg_types;
    std::vector<Aval> types;         // of every value (arguments first)
    std::vector<std::string> names;  // "%arg0", "%0", "%cst_1"
    std::vector<std::string> lines;
    std::vector<Aval> result_types;
    std::map<std::string, int> used;  // constant names taken
    int next_id = 0, next_conflict = 0;
    int next_arg =
        0;  // block arguments are numbered across the function: regions continue after its args
    std::vector<Loop> loops;      // lines "\x01<k>" stand for loops[k]
    std::vector<Rec> recs;        // its primitives, in order
    std::vector<int> result_ids;  // the values it returns (end_function)
    int counter_before = 0;       // the module's uniquing counter before its name was taken
  };
  // A live loop's kept operands (JAX's _scan_dce_rule): the carries whose results are used and,
  // to a fixed point, those the body needs for them; the consts the body needs for those.
  struct LoopKeep {
    std::vector<bool> consts, carries;
    // Whether the loop keeps its operand j (its consts first, then its carries).
    bool keeps(std::size_t j) const {
      return j < consts.size() ? consts[j] : carries[j - consts.size()];
    }
  };
  // Which of function fn's primitives reach its results (those `results_kept` marks; all if
  // null); *args_read: which of its arguments they (or the results) read, a call reading what its
  // callee reads (callee_reads, by function) and a loop what it keeps. *values_used (if asked
  // for): every value the live primitives read, and the results; a primitive whose every result
  // is *given (a value that will stand for it) is not live. *loops (if asked for): each live
  // loop's LoopKeep, by primitive.
  std::vector<bool> live_recs(int fn, const std::vector<std::vector<bool>>& callee_reads,
                              std::vector<bool>* args_read,
                              const std::vector<bool>* results_kept = nullptr,
                              std::vector<bool>* values_used = nullptr,
                              const std::vector<bool>* given = nullptr,
                              std::vector<LoopKeep>* loops = nullptr) const;
  // For every function, the arguments its live primitives read (callees first; a loop's body
  // reads all of its arguments here: what a loop keeps is live_recs' LoopKeep): the callee_reads
  // live_recs takes.
  std::vector<std::vector<bool>> analyze() const;
  // Which of a primitive's results are `used` (a value mask of its function).
  std::vector<bool> results_used(const Rec& rec, const std::vector<bool>& used) const;
  // The arguments a call's callee reads for the call's results that are used (JAX's DCE rule for
  // pjit drops a private function's unused results, then what only they read).
  const std::vector<bool>& call_reads(const Rec& rec, const std::vector<bool>& used,
                                      const std::vector<std::vector<bool>>& callee_reads) const;
  // Function fn's results from `first` on, as live_recs' results_kept.
  std::vector<bool> results_from(int fn, std::size_t first) const;
  // A loop body's or callee's arguments read for a mask of its results, by (function, mask): one
  // analysis asks again for the bodies of nested loops (analyze() starts it afresh).
  mutable std::map<std::pair<int, std::vector<bool>>, std::vector<bool>> body_reads_;
  // The live primitives of f (by index), constant_array's first: a closed-over constant is printed
  // at the top of its function (JAX's lowering emits a jaxpr's consts before its equations).
  static std::vector<std::size_t> hoisted_first(const Function& f, const std::vector<bool>& live);
  std::vector<int> kept_args_;
  // MLIR's SymbolTable renames a clashing symbol name_N with one counter for the whole module
  // (@None, @None_0, @_split_1, @None_2, ... in JAX's modules), counting every attempt.
  int uniquing_counter_ = 0;
  bool pruned_ = false;                   // a module made again by finish: printed as it is
  std::vector<std::string> result_info_;  // @main's results' jax.result_info (finish's)
  std::string print_loop(const Function& f, const Loop& loop) const;
  Function& cur() { return funcs_[stack_.back()]; }
  const Function& cur() const { return funcs_[stack_.back()]; }
  Value add(const Aval& type, std::string name);
  std::string fresh_constant_name(const std::string& base);
  std::string region_arg(const Aval& type);  // "%argN" for a region's block argument
  // A region of two scalar block arguments of type s whose body combines them with `op` (an
  // op name; "" returns the second): `^bb0(...)`, the op, `stablehlo.return` (reduce_window's
  // and scatter's bodies).
  void combiner_region(const std::string& op, const Aval& s);
  const std::string& name(Value v) const { return cur().names[v.id]; }
  std::string tt(Value v) const { return type_text(aval(v)); }
  std::string print_function(const Function& f) const;
  std::string print_module() const;

  std::string module_name_;
  std::vector<Function> funcs_;
  std::vector<int> stack_;
};

}  // namespace rl::hlo::jax
