// Ops with region bodies, after the StableHLO spec: reduce, reduce_window, select_and_scatter,
// scatter, sort, map; and chlo.top_k (no body: a descending sort of the last dimension).
//
// The common bodies run natively: the body is read once per op execution and, when it is one of
// these shapes, the op runs raw typed loops without evaluating the region:
//   combiner (reduce, reduce_window, scatter, select_and_scatter's scatter, map of two inputs):
//     one add / multiply / maximum / minimum / and / or / xor of the two block arguments, in either
//     order, returned; or the second argument returned (scatter's replace); or reduce's compact
//     form `applies stablehlo.add`;
//   select (select_and_scatter): one compare of the two arguments (any direction and type);
//   comparator (sort): a strict compare (LT/GT) of one operand's pair, or JAX's lexicographic chain
//     over several operands (LT on key k, or EQ on key k and the rest), with or without the float
//     canonicalization JAX puts in front of a compare (−0 → +0, every NaN → one positive NaN);
//   argmax / argmin (reduce of a value and an i32/i64 index): JAX's body, compare types as written.
// Every other body is evaluated once per element (per comparison for sort) through
// OpCall::call_body on scalar tensors that are allocated once per op and rewritten in place.
//
// Where the spec leaves a choice, XLA's:
//   reduce order        lane-wise float sums (8 lanes) for long rows; otherwise in index order.
//                       Integer results are exact (wrapping); max/min propagate NaN; f16/bf16
//                       are rounded after each application of the body, as the body would be.
//   reduce_window       padding and base-dilation holes hold the init value (the spec's pad).
//   select_and_scatter  padding is never selected; a window of padding only scatters nothing.
//   scatter             an update window whose start puts any part of it outside the operand is
//                       skipped whole (no clamping); updates apply in order: scatter indices in
//                       row-major order, each one's window in row-major order.
//   sort                stable; under a FLOAT compare NaN sorts after +inf, −0 equals +0.
//   top_k               the total order (NaN largest, −0 < +0); ties by lower index first.
// Results are fresh tensors (an operand's buffer is never updated in place: the evaluator keeps
// every value of a function alive until it returns).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "common/nan.h"
#include "interp/elementwise.h"
#include "interp/math_functions.h"
#include "interp/strided.h"

namespace rl::interp {

namespace {

using hlo::OpCode;
using hlo::ValueId;
using Dims = std::vector<std::int64_t>;

std::string dims_text(const Dims& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

std::string type_name(ElementType t) { return std::string(hlo::element_info(t).mlir); }

Dims strides_of(const Dims& d) {
  Dims s(d.size(), 1);
  for (std::size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * d[i];
  return s;
}

std::int64_t count_of(const Dims& d) {
  std::int64_t n = 1;
  for (auto x : d) n *= x;
  return n;
}

std::size_t elem_bytes(ElementType t) { return static_cast<std::size_t>(hlo::element_bytes(t)); }

// Row-major steps over an index space, carrying one or two linear offsets.
struct Odometer {
  Dims size, stride, stride2, idx;
  std::int64_t offset = 0, offset2 = 0;

  void add(std::int64_t n, std::int64_t s, std::int64_t s2 = 0) {
    size.push_back(n);
    stride.push_back(s);
    stride2.push_back(s2);
    idx.push_back(0);
  }
  std::int64_t count() const { return count_of(size); }
  void reset() {
    std::fill(idx.begin(), idx.end(), 0);
    offset = offset2 = 0;
  }
  // The next index; false (and back at the start) after the last.
  bool next() {
    for (std::size_t d = size.size(); d-- > 0;) {
      offset += stride[d];
      offset2 += stride2[d];
      if (++idx[d] < size[d]) return true;
      offset -= stride[d] * size[d];
      offset2 -= stride2[d] * size[d];
      idx[d] = 0;
    }
    return false;
  }
};

// A dimension list the verifier checked (each in [0, rank), none twice): its marks.
std::vector<bool> verified_marks(const OpCall& c, const Dims& dims, std::size_t rank) {
  RL_VERIFIED(c, distinct_dims(dims, rank));
  std::vector<bool> mark(rank, false);
  for (auto d : dims) mark[static_cast<std::size_t>(d)] = true;
  return mark;
}

// ---- results
// ----------------------------------------------------------------------------------------

// The array types of an op's results: its results, or the elements of its one tuple result (HLO).
std::vector<const hlo::Type*> result_types(const OpCall& c) {
  std::vector<const hlo::Type*> out;
  if (c.num_results() == 1 && c.out_type(0).kind == hlo::Type::Kind::Tuple) {
    for (const auto& t : c.out_type(0).tuple) out.push_back(&t);
  } else {
    for (std::size_t i = 0; i < c.num_results(); ++i) out.push_back(&c.out_type(i));
  }
  return out;
}

bool alloc_type(const OpCall& c, const hlo::Type& t, Tensor* out) {
  if (!t.is_array() || !t.is_static())
    return c.fail("cannot make a result", "a static array type", t.text);
  return c.alloc(t.etype, t.dims, out);
}

// Result i must have these dims (the verifier's, as each caller says) and this element type (what
// the op computes: a wider one, from StableHLO's promotable body or HLO's to_apply, is not run).
bool check_result(const OpCall& c, const hlo::Type& t, std::size_t i, ElementType type,
                  const Dims& dims) {
  RL_VERIFIED(c, t.dims == dims);
  if (t.etype != type)
    return c.fail(
        std::string(c.op().name) + "'s result " + std::to_string(i) + " has the wrong type",
        type_name(type) + " " + dims_text(dims), t.text);
  return true;
}

// ---- bodies
// -----------------------------------------------------------------------------------------

// A body as the recognizers see it: its arguments, its ops (no parameters, no return) and what it
// returns. From a region of the op (StableHLO) or from a callee (HLO to_apply, select, scatter).
struct Body {
  const hlo::Function* fn = nullptr;
  std::vector<ValueId> args, results;
  std::vector<const hlo::Instr*> ops;
};

bool body_of(const OpCall& c, std::size_t index, Body* b) {
  const hlo::Op& o = c.op();
  const hlo::LRegion* r = nullptr;
  if (index < o.regions.count) {
    r = &c.lfn.regions[o.regions.begin + index];
    b->fn = c.lfn.fn;
    if (r->blocks.size() != 1) return false;
    b->args.assign(r->blocks[0].block->args.begin(), r->blocks[0].block->args.end());
  } else if (c.has_attrs() && index < c.attrs().callees().size()) {
    const hlo::LFunction& lf = c.program.functions[c.attrs().callees()[index]];
    r = &lf.body;
    b->fn = lf.fn;
    if (r->blocks.size() != 1) return false;
    b->args = lf.fn->args;
  } else {
    return false;
  }
  const hlo::Function& f = *b->fn;
  for (const hlo::Instr& in : r->blocks[0].instrs) {
    if (in.code == OpCode::Return || in.code == OpCode::FuncReturn) {
      for (ValueId v : f.operands(*in.op)) b->results.push_back(v);
      break;
    }
    if (in.code == OpCode::Parameter) continue;
    if (in.op->is_root) {  // HLO: the computation ends at its ROOT
      if (in.code == OpCode::Tuple) {
        for (ValueId v : f.operands(*in.op)) b->results.push_back(v);
      } else {
        b->ops.push_back(&in);
        b->results.push_back(f.results(*in.op)[0]);
      }
      break;
    }
    b->ops.push_back(&in);
  }
  return !b->results.empty();
}

const hlo::Type& body_type(const OpCall& c, const Body& b, ValueId v) {
  return c.module.value_type(*b.fn, v);
}

bool is_scalar_of(const hlo::Type& t, ElementType e) {
  return t.is_array() && t.dims.empty() && t.etype == e;
}

// ---- combiners
// ----------------------------------------------------------------------------------------

enum class Comb : std::uint8_t { None, Add, Multiply, Maximum, Minimum, And, Or, Xor, Replace };

Comb comb_of(OpCode k) {
  switch (k) {
    case OpCode::Add:
      return Comb::Add;
    case OpCode::Multiply:
      return Comb::Multiply;
    case OpCode::Maximum:
      return Comb::Maximum;
    case OpCode::Minimum:
      return Comb::Minimum;
    case OpCode::And:
      return Comb::And;
    case OpCode::Or:
      return Comb::Or;
    case OpCode::Xor:
      return Comb::Xor;
    default:
      return Comb::None;
  }
}

// Body `index` as a combiner of (lhs, rhs) of element type t, or None.
Comb combiner(const OpCall& c, std::size_t index, ElementType t) {
  const hlo::ReduceAttrs* ra = c.has_attrs() ? c.attrs().get_if<hlo::ReduceAttrs>() : nullptr;
  if (index == 0 && c.op().regions.count == 0 && ra && ra->applies != OpCode::Unknown)
    return comb_of(ra->applies);
  Body b;
  if (!body_of(c, index, &b) || b.args.size() != 2 || b.results.size() != 1) return Comb::None;
  for (ValueId a : b.args)
    if (!is_scalar_of(body_type(c, b, a), t)) return Comb::None;
  if (b.ops.empty()) return b.results[0] == b.args[1] ? Comb::Replace : Comb::None;
  if (b.ops.size() != 1) return Comb::None;
  const hlo::Op& op = *b.ops[0]->op;
  const Comb k = comb_of(b.ops[0]->code);
  if (k == Comb::None || op.operands.count != 2 || op.results.count != 1) return Comb::None;
  const auto ops = b.fn->operands(op);
  const bool uses_both =
      (ops[0] == b.args[0] && ops[1] == b.args[1]) || (ops[0] == b.args[1] && ops[1] == b.args[0]);
  if (!uses_both || b.fn->results(op)[0] != b.results[0]) return Comb::None;
  return k;
}

template <Comb K, class E>
constexpr bool comb_defined() {
  if constexpr (K == Comb::And || K == Comb::Or || K == Comb::Xor)
    return is_pred_v<E> || is_int_v<E>;
  return true;
}

// One application of a combiner, with the elementwise ops' semantics (integers wrap, max/min
// propagate NaN, complex max/min order by (real, imaginary), pred add/multiply are or/and).
template <Comb K, class E>
inline typename E::Compute combine(typename E::Compute a, typename E::Compute b) {
  using C = typename E::Compute;
  if constexpr (K == Comb::Add) {
    if constexpr (is_pred_v<E>)
      return a || b;
    else if constexpr (is_int_v<E>)
      return wrap_add(a, b);
    else if constexpr (is_float_v<E>)
      return nan_rule(a + b, a, b);  // of two NaN operands, the first (common/nan.h)
    else
      return a + b;
  } else if constexpr (K == Comb::Multiply) {
    if constexpr (is_pred_v<E>)
      return a && b;
    else if constexpr (is_int_v<E>)
      return wrap_mul(a, b);
    else if constexpr (is_complex_v<E>)
      return math::multiply(a, b);  // XLA's rounding (math_functions.h)
    else
      return nan_rule(a * b, a, b);
  } else if constexpr (K == Comb::Maximum || K == Comb::Minimum) {
    constexpr bool max = K == Comb::Maximum;
    if constexpr (is_complex_v<E>) {
      const bool a_first = a.real() != b.real()
                               ? (max ? a.real() > b.real() : a.real() < b.real())
                               : (max ? a.imag() >= b.imag() : a.imag() <= b.imag());
      return a_first ? a : b;
    } else if constexpr (is_float_v<E>) {
      // A NaN operand: the first one, quieted, on the bits (common/nan.h's rule). This was
      // a + b, whose NaN of two the compiler picks (it may swap the operands) and wasm leaves to
      // the engine.
      if (a != a) return quieted(a);
      if (b != b) return quieted(b);
      return max ? (a > b ? a : b) : (a < b ? a : b);
    } else if constexpr (is_pred_v<E>) {
      return max ? (a || b) : (a && b);
    } else {
      return max ? (a > b ? a : b) : (a < b ? a : b);
    }
  } else if constexpr (K == Comb::And) {
    if constexpr (is_pred_v<E>)
      return a && b;
    else if constexpr (is_int_v<E>)
      return static_cast<C>(a & b);
    else
      return a;
  } else if constexpr (K == Comb::Or) {
    if constexpr (is_pred_v<E>)
      return a || b;
    else if constexpr (is_int_v<E>)
      return static_cast<C>(a | b);
    else
      return a;
  } else if constexpr (K == Comb::Xor) {
    if constexpr (is_pred_v<E>)
      return a != b;
    else if constexpr (is_int_v<E>)
      return static_cast<C>(a ^ b);
    else
      return a;
  } else {  // Replace
    return b;
  }
}

// A combiner step as the body would compute it: f16/bf16 round after each application.
template <Comb K, class E>
inline typename E::Compute step(typename E::Compute a, typename E::Compute b) {
  if constexpr (is_half_v<E>)
    return E::load(E::store(combine<K, E>(a, b)));
  else
    return combine<K, E>(a, b);
}

// Calls f(std::integral_constant<Comb, K>{}) for a native combiner (not None).
template <class F>
bool with_comb(Comb k, F&& f) {
  switch (k) {
    case Comb::Add:
      f(std::integral_constant<Comb, Comb::Add>{});
      return true;
    case Comb::Multiply:
      f(std::integral_constant<Comb, Comb::Multiply>{});
      return true;
    case Comb::Maximum:
      f(std::integral_constant<Comb, Comb::Maximum>{});
      return true;
    case Comb::Minimum:
      f(std::integral_constant<Comb, Comb::Minimum>{});
      return true;
    case Comb::And:
      f(std::integral_constant<Comb, Comb::And>{});
      return true;
    case Comb::Or:
      f(std::integral_constant<Comb, Comb::Or>{});
      return true;
    case Comb::Xor:
      f(std::integral_constant<Comb, Comb::Xor>{});
      return true;
    case Comb::Replace:
      f(std::integral_constant<Comb, Comb::Replace>{});
      return true;
    default:
      return false;
  }
}

// A combiner that applies to element type t at all (and, or and xor need pred or integers).
bool comb_applies(Comb k, ElementType t) {
  if (k == Comb::None) return false;
  if (k == Comb::And || k == Comb::Or || k == Comb::Xor)
    return t == ElementType::Pred || hlo::is_integer(t);
  return true;
}

// The element types reduce_window's, select_and_scatter's, scatter's and map's arithmetic
// combiners are compiled natively for: the ones programs pool and scatter in (f32, bf16, f16,
// f64; s32 and s64 indices and counts; pred masks). Any other type runs the same body through
// the evaluator, element by element, with the same results: compiling those combiners for all 15
// types was 130 kB of the wasm core (issue 14, item 16). (reduce's are compiled for every type:
// see reduce.) Replace only moves bits, so it runs natively for every type, through a stand-in
// of the same size whose load and store are the identity (bits_type).
template <class E>
constexpr bool native_arith_v =
    E::type == ElementType::Pred || E::type == ElementType::S32 || E::type == ElementType::S64 ||
    E::type == ElementType::F16 || E::type == ElementType::BF16 || E::type == ElementType::F32 ||
    E::type == ElementType::F64;
template <class E>
constexpr bool bits_v =
    E::type == ElementType::S8 || E::type == ElementType::S16 || E::type == ElementType::S32 ||
    E::type == ElementType::S64 || E::type == ElementType::C128;

// The same two sets for a runtime type.
bool native_arith_type(ElementType t) {
  bool in = false;
  dispatch(t, [&](auto e) { in = native_arith_v<decltype(e)>; });
  return in;
}
bool is_bits_type(ElementType t) {
  bool in = false;
  dispatch(t, [&](auto e) { in = bits_v<decltype(e)>; });
  return in;
}

// The stand-in for moving elements of type t as bits (Replace); t itself when there is none.
ElementType bits_type(ElementType t) {
  if (!dispatch(t, [](auto) {})) return t;  // not a type the interpreter computes with
  switch (hlo::element_bytes(t)) {
    case 1:
      return ElementType::S8;
    case 2:
      return ElementType::S16;
    case 4:
      return ElementType::S32;
    case 8:
      return ElementType::S64;
    case 16:
      return ElementType::C128;
    default:
      return t;
  }
}

// A combiner that runs natively on element type t (after bits_type for Replace).
bool native_comb(Comb k, ElementType t) {
  if (!comb_applies(k, t)) return false;
  return k == Comb::Replace ? is_bits_type(t) : native_arith_type(t);
}

// ---- the native combiners' loops
// ---------------------------------------------------------------------

// The element loops of a native combiner, one small set per (combiner, element type). The ops'
// walks over rows, windows and scatter points around them are written once, over bytes:
// compiling each walk per combiner and type was ~180 kB of the wasm core (issue 25).
struct CombLoops {
  // dst[j·ds] = combine(dst[j·ds], src[j·ss]) for j < n (strides in elements).
  void (*combine)(std::uint8_t* dst, std::int64_t ds, const std::uint8_t* src, std::int64_t ss,
                  std::int64_t n) = nullptr;
  // *acc folded with row[0], ..., row[n − 1] in order (n = 0: *acc loaded and stored again). f32
  // and f64 add: lane-wise partial sums for n ≥ 32 (the spec leaves the order open).
  void (*fold_row)(std::uint8_t* acc, const std::uint8_t* row, std::int64_t n) = nullptr;
  // *acc folded with x[at[0]], ..., x[at[n − 1]] in order, the init value where at[j] < 0.
  void (*fold_at)(std::uint8_t* acc, const std::uint8_t* x, const std::int64_t* at, std::int64_t n,
                  const std::uint8_t* init) = nullptr;
};

template <Comb K, class E>
void combine_loop(std::uint8_t* dst, std::int64_t ds, const std::uint8_t* src, std::int64_t ss,
                  std::int64_t n) {
  using S = typename E::Storage;
  S* d = reinterpret_cast<S*>(dst);
  const S* s = reinterpret_cast<const S*>(src);
  for (std::int64_t j = 0; j < n; ++j)
    d[j * ds] = E::store(combine<K, E>(E::load(d[j * ds]), E::load(s[j * ss])));
}

template <Comb K, class E>
void fold_row_loop(std::uint8_t* acc_at, const std::uint8_t* row_at, std::int64_t n) {
  using S = typename E::Storage;
  using C = typename E::Compute;
  S* out = reinterpret_cast<S*>(acc_at);
  const S* row = reinterpret_cast<const S*>(row_at);
  const C start = E::load(*out);
  C acc = start;
  std::int64_t j = 0;
  if constexpr (K == Comb::Add && (E::type == ElementType::F32 || E::type == ElementType::F64)) {
    if (n >= 32) {  // lane-wise partial sums (the spec leaves the order open)
      C lane[8];
      for (auto& v : lane) v = C(-0.0);  // the additive identity, −0 included
      for (; j + 8 <= n; j += 8)
        for (int k = 0; k < 8; ++k) lane[k] += row[j + k];
      acc +=
          ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
      // Which NaN of two the lanes' adds kept is the compiler's or the engine's: a NaN row is
      // folded again in order, by the NaN rule (step's nan_rule), so its bits are the same in
      // every build. (Numbers never take this path.)
      if (acc != acc) acc = start, j = 0;
    }
  }
  for (; j < n; ++j) acc = step<K, E>(acc, E::load(row[j]));
  *out = E::store(acc);
}

template <Comb K, class E>
void fold_at_loop(std::uint8_t* acc_at, const std::uint8_t* x, const std::int64_t* at,
                  std::int64_t n, const std::uint8_t* init) {
  using S = typename E::Storage;
  using C = typename E::Compute;
  S* out = reinterpret_cast<S*>(acc_at);
  const S* in = reinterpret_cast<const S*>(x);
  const C init_v = E::load(*reinterpret_cast<const S*>(init));
  C acc = E::load(*out);
  for (std::int64_t j = 0; j < n; ++j)
    acc = step<K, E>(acc, at[j] < 0 ? init_v : E::load(in[at[j]]));
  *out = E::store(acc);
}

// The loops of combiner k on element type t, for Replace t after bits_type: combine and fold_row
// for every type the combiner applies to (reduce's), fold_at for native_comb's types; null where
// there are none. Add, multiply, and, or and xor of an unsigned integer type are those of the
// signed type of its width, bit for bit (they wrap): one loop serves both.
CombLoops comb_loops(Comb k, ElementType t) {
  CombLoops l;
  if (k == Comb::Add || k == Comb::Multiply || k == Comb::And || k == Comb::Or || k == Comb::Xor)
    t = same_width_signed(t);
  with_comb(k, [&](auto kk) {
    constexpr Comb K = decltype(kk)::value;
    constexpr bool sign_free =
        K == Comb::Add || K == Comb::Multiply || K == Comb::And || K == Comb::Or || K == Comb::Xor;
    dispatch(t, [&](auto e) {
      using E = decltype(e);
      if constexpr (K == Comb::Replace
                        ? bits_v<E>
                        : comb_defined<K, E>() && !(sign_free && is_unsigned_int_v<E>)) {
        l.combine = &combine_loop<K, E>;
        l.fold_row = &fold_row_loop<K, E>;
        if constexpr (K == Comb::Replace || native_arith_v<E>) l.fold_at = &fold_at_loop<K, E>;
      }
    });
  });
  return l;
}

// ---- evaluated bodies
// -------------------------------------------------------------------------------

// A body run once per element: its scalar arguments are made once and rewritten in place; what
// it returns is copied out before the next run (a body may return one of its arguments).
class Evaluator {
 public:
  Evaluator(const OpCall& c, std::size_t index) : c_(c), index_(index) {}

  bool init(const std::vector<ElementType>& args, const std::vector<ElementType>& results) {
    for (ElementType t : args) {
      Tensor s;
      if (!c_.alloc(t, {}, &s)) return false;
      args_.push_back(Value::of(std::move(s)));
    }
    result_types_ = results;
    std::size_t at = 0;
    for (ElementType t : results) {
      offsets_.push_back(at);
      at += elem_bytes(t);
    }
    staging_.assign(at ? at : 1, 0);
    return true;
  }
  std::uint8_t* arg(std::size_t i) { return args_[i].tensor.data(); }
  const std::uint8_t* result(std::size_t i) const { return staging_.data() + offsets_[i]; }

  bool run() {
    if (!c_.keep_going()) return false;
    out_.clear();
    if (!c_.call_body(index_, args_, &out_)) return false;
    if (out_.size() == 1 && out_[0].kind == Value::Kind::Tuple) {  // HLO: a ROOT tuple
      std::vector<Value> flat = out_[0].tuple.take();
      out_ = std::move(flat);
    }
    if (out_.size() != result_types_.size())
      return c_.fail(
          std::string(c_.op().name) + "'s body returned " + std::to_string(out_.size()) + " values",
          std::to_string(result_types_.size()), std::to_string(out_.size()));
    for (std::size_t i = 0; i < out_.size(); ++i) {
      const Value& v = out_[i];
      if (!v.is_tensor() || v.tensor.elements() != 1 || v.tensor.type != result_types_[i])
        return c_.fail(std::string(c_.op().name) + "'s body returned a value of the wrong type",
                       "a scalar " + type_name(result_types_[i]),
                       v.is_tensor() ? type_name(v.tensor.type) : "a non-tensor");
      std::memcpy(staging_.data() + offsets_[i], v.tensor.data(), elem_bytes(result_types_[i]));
    }
    return true;
  }

 private:
  const OpCall& c_;
  std::size_t index_;
  std::vector<Value> args_, out_;
  std::vector<ElementType> result_types_;
  std::vector<std::size_t> offsets_;
  std::vector<std::uint8_t> staging_;
};

// ---- ordering keys
// ----------------------------------------------------------------------------------

// Unsigned 64-bit keys whose order is the element order a compare uses.
template <class U>
std::uint64_t total_order_bits(U u) {  // the spec's total order of a float's bits
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  return (u & sign) ? static_cast<std::uint64_t>(static_cast<U>(~u))
                    : static_cast<std::uint64_t>(u | sign);
}

enum class KeyKind : std::uint8_t {
  Signed,      // integers as signed
  Unsigned,    // integers (and pred) as unsigned
  FloatTotal,  // the total order of the bits (−NaN < −inf < … < −0 < +0 < … < +inf < +NaN)
  FloatCanon,  // −0 = +0, every NaN equal and after +inf (JAX's canonicalized compare; FLOAT
               // compare)
};

template <class E>
std::uint64_t key_of(typename E::Storage s, KeyKind kind) {
  using S = typename E::Storage;
  if constexpr (is_float_v<E>) {
    using U = std::conditional_t<sizeof(S) == 2, std::uint16_t,
                                 std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>>;
    U u;
    std::memcpy(&u, &s, sizeof u);
    if (kind == KeyKind::FloatCanon) {
      const auto v = E::load(s);
      if (std::isnan(v)) return ~std::uint64_t(0);
      if (v == 0) u = 0;
    }
    return total_order_bits(u);
  } else if constexpr (is_pred_v<E>) {
    return s != 0;
  } else if constexpr (is_int_v<E>) {
    if (kind == KeyKind::Signed) {
      using Sg = std::make_signed_t<S>;
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<Sg>(s))) ^
             (std::uint64_t(1) << 63);
    }
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<S>>(s));
  } else {
    return 0;
  }
}

// The key kind of a compare of element type t under compare type ct (pred and complex: none for
// complex).
bool key_kind_for(ElementType t, hlo::CompareType ct, KeyKind* out) {
  if (hlo::is_complex(t)) return false;
  if (t == ElementType::Pred) {
    *out = KeyKind::Unsigned;
    return true;
  }
  if (hlo::is_float(t)) {
    if (ct == hlo::CompareType::Signed || ct == hlo::CompareType::Unsigned) return false;
    *out = ct == hlo::CompareType::TotalOrder ? KeyKind::FloatTotal : KeyKind::FloatCanon;
    return true;
  }
  if (ct == hlo::CompareType::Float || ct == hlo::CompareType::TotalOrder) return false;
  if (ct == hlo::CompareType::Default)
    *out = hlo::element_kind(t) == hlo::ElementKind::Signed ? KeyKind::Signed : KeyKind::Unsigned;
  else
    *out = ct == hlo::CompareType::Signed ? KeyKind::Signed : KeyKind::Unsigned;
  return true;
}

// A compare of two values of element type E under a direction and compare type: TOTALORDER by
// the bits, FLOAT (and default floats) by IEEE, integers signed or unsigned as asked.
template <class E>
bool compare_as(hlo::Comparison dir, hlo::CompareType ct, typename E::Storage a,
                typename E::Storage b) {
  auto by = [dir](auto x, auto y) {
    switch (dir) {
      case hlo::Comparison::EQ:
        return x == y;
      case hlo::Comparison::NE:
        return x != y;
      case hlo::Comparison::LT:
        return x < y;
      case hlo::Comparison::LE:
        return x <= y;
      case hlo::Comparison::GT:
        return x > y;
      case hlo::Comparison::GE:
        return x >= y;
    }
    return false;
  };
  if constexpr (is_float_v<E>) {
    if (ct == hlo::CompareType::TotalOrder)
      return by(key_of<E>(a, KeyKind::FloatTotal), key_of<E>(b, KeyKind::FloatTotal));
    return by(E::load(a), E::load(b));
  } else if constexpr (is_int_v<E>) {
    const KeyKind k = ct == hlo::CompareType::Unsigned             ? KeyKind::Unsigned
                      : ct == hlo::CompareType::Signed             ? KeyKind::Signed
                      : std::is_signed<typename E::Storage>::value ? KeyKind::Signed
                                                                   : KeyKind::Unsigned;
    return by(key_of<E>(a, k), key_of<E>(b, k));
  } else if constexpr (is_pred_v<E>) {
    return by(a != 0, b != 0);
  } else {
    return dir == hlo::Comparison::EQ ? a == b : dir == hlo::Comparison::NE ? a != b : false;
  }
}

// ---- reduce
// ------------------------------------------------------------------------------------------

// The input's dimensions for a native reduce: size-1 dimensions dropped, neighbours of the same
// kind merged; out_stride is the output stride of a kept dimension, 0 for a reduced one.
struct ReduceLoop {
  Dims size, out_stride;
};

ReduceLoop reduce_loop(const Dims& in, const std::vector<bool>& reduced) {
  Dims out_strides(in.size(), 0);
  std::int64_t s = 1;
  for (std::size_t d = in.size(); d-- > 0;)
    if (!reduced[d]) {
      out_strides[d] = s;
      s *= in[d];
    }
  ReduceLoop l;
  bool last_reduced = false;
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (in[d] == 1) continue;
    if (!l.size.empty() && last_reduced == reduced[d]) {
      l.size.back() *= in[d];
      l.out_stride.back() = out_strides[d];
    } else {
      l.size.push_back(in[d]);
      l.out_stride.push_back(out_strides[d]);
      last_reduced = reduced[d];
    }
  }
  if (l.size.empty()) {
    l.size.push_back(1);
    l.out_stride.push_back(0);
  }
  return l;
}

// One input, a native combiner: the output starts at init; the input is read once in order,
// each row folded into its output (reduced innermost dimension) or combined lane by lane with
// an output row (kept innermost dimension).
// The input is `whole` (nx elements), or, when that is null, comes from `streamed` a chunk of
// whole rows (about kStreamedChunk elements) at a time: the same rows in the same order, so the
// same bits.
constexpr std::int64_t kStreamedChunk = 4096;
bool reduce_native(const OpCall& c, const CombLoops& k, const std::uint8_t* whole, std::int64_t nx,
                   const StreamedInput* streamed, const Tensor& init, Tensor& y,
                   const ReduceLoop& l) {
  const std::size_t eb = elem_bytes(y.type);
  std::uint8_t* out = y.data();
  const std::int64_t ny = y.elements();
  if (ny > 0) {  // the init value, loaded and stored as the type's loop would
    std::memcpy(out, init.data(), eb);
    k.fold_row(out, nullptr, 0);
  }
  for (std::int64_t i = 1; i < ny; ++i)
    std::memcpy(out + static_cast<std::size_t>(i) * eb, out, eb);
  if (nx == 0) return true;
  const std::int64_t n = l.size.back(), os = l.out_stride.back();
  const std::uint8_t* chunk = whole;
  std::int64_t chunk_begin = 0, chunk_end = whole ? nx : 0;
  const std::int64_t chunk_rows = std::max<std::int64_t>(1, kStreamedChunk / n);
  Odometer rows;  // every dimension but the innermost; offset = in the output
  for (std::size_t d = 0; d + 1 < l.size.size(); ++d) rows.add(l.size[d], l.out_stride[d]);
  for (std::int64_t ib = 0; ib < nx; ib += n, rows.next()) {
    if (!c.keep_going()) return false;
    if (ib >= chunk_end) {
      chunk_begin = ib;
      chunk_end = std::min(nx, ib + chunk_rows * n);
      chunk = streamed->fill(chunk_begin, chunk_end);
      if (!chunk) return false;
    }
    const std::uint8_t* row = chunk + static_cast<std::size_t>(ib - chunk_begin) * eb;
    std::uint8_t* at = out + static_cast<std::size_t>(rows.offset) * eb;
    if (os == 0)
      k.fold_row(at, row, n);
    else
      k.combine(at, 1, row, 1, n);
  }
  return true;
}

// Any body: per output element, the accumulators start at the inits and the body folds in each
// element of the reduced dimensions in index order: body(acc..., x...) → acc....
bool reduce_evaluated(const OpCall& c, std::size_t n, const std::vector<bool>& reduced,
                      std::vector<Tensor>& outs) {
  const Dims& in = c.tensor(0).dims;
  const Dims st = strides_of(in);
  Odometer kept, red;
  for (std::size_t d = 0; d < in.size(); ++d) (reduced[d] ? red : kept).add(in[d], st[d]);
  std::vector<ElementType> types;
  for (std::size_t i = 0; i < n; ++i) types.push_back(c.tensor(i).type);
  std::vector<ElementType> args = types;
  args.insert(args.end(), types.begin(), types.end());
  Evaluator ev(c, 0);
  if (!ev.init(args, types)) return false;
  const std::int64_t ny = kept.count(), nr = red.count();
  for (std::int64_t o = 0; o < ny; ++o, kept.next()) {
    for (std::size_t i = 0; i < n; ++i)
      std::memcpy(ev.arg(i), c.tensor(n + i).data(), elem_bytes(types[i]));
    red.reset();
    for (std::int64_t r = 0; r < nr; ++r, red.next()) {
      const std::int64_t at = kept.offset + red.offset;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t eb = elem_bytes(types[i]);
        std::memcpy(ev.arg(n + i), c.tensor(i).data() + static_cast<std::size_t>(at) * eb, eb);
      }
      if (!ev.run()) return false;
      for (std::size_t i = 0; i < n; ++i)
        std::memcpy(ev.arg(i), ev.result(i), elem_bytes(types[i]));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t eb = elem_bytes(types[i]);
      std::memcpy(outs[i].data() + static_cast<std::size_t>(o) * eb, ev.arg(i), eb);
    }
  }
  return true;
}

// The shared checks of the ops with N inputs and N init values. N inputs of one shape and N init
// values are verify.cpp's inputs_and_inits, in both dialects; scalar inits of the inputs' types
// are StableHLO's rule, but HLO may give a reduce a wider float or a 1-d init value (XLA's
// importer prints one), which these kernels do not run.
bool inputs_and_inits(const OpCall& c, std::size_t* n) {
  const std::size_t k = c.num_operands();
  RL_VERIFIED(c, k >= 2 && k % 2 == 0);
  *n = k / 2;
  for (std::size_t i = 0; i < *n; ++i) {
    RL_VERIFIED(
        c, c.in(i).is_tensor() && c.in(*n + i).is_tensor() && c.tensor(i).dims == c.tensor(0).dims);
    const Tensor& init = c.tensor(*n + i);
    // verify.cpp's inputs_and_inits: one element type, or HLO's floats of two precisions.
    RL_VERIFIED(c, one_kind(init.type, c.tensor(i).type));
    if (!init.dims.empty() || init.type != c.tensor(i).type)
      return c.fail(std::string(c.op().name) + "'s init value " + std::to_string(i),
                    "a scalar " + type_name(c.tensor(i).type),
                    type_name(init.type) + " " + dims_text(init.dims));
  }
  return true;
}

// JAX's argmax / argmin body over (value, index) pairs, block arguments (v, i, x, j):
//   keep = compare(v, x) | (v != v);  value = keep ? v : x
//   index = keep | (v == x & i < j) ? i : j
// with any strict direction and compare types (they are kept and applied as written).
struct ArgReducer {
  bool ok = false;
  hlo::CompareType strict_type = hlo::CompareType::Default, nan_type = hlo::CompareType::Default,
                   eq_type = hlo::CompareType::Default, index_type = hlo::CompareType::Default;
  hlo::Comparison dir = hlo::Comparison::GT;
};

ArgReducer arg_reducer(const OpCall& c, ElementType value, ElementType index) {
  ArgReducer out;
  Body b;
  if (!body_of(c, 0, &b) || b.args.size() != 4 || b.results.size() != 2 || b.ops.size() > 16)
    return out;
  const ValueId v = b.args[0], i = b.args[1], x = b.args[2], j = b.args[3];
  if (!is_scalar_of(body_type(c, b, v), value) || !is_scalar_of(body_type(c, b, x), value) ||
      !is_scalar_of(body_type(c, b, i), index) || !is_scalar_of(body_type(c, b, j), index))
    return out;
  auto def = [&](ValueId r, OpCode code, std::size_t arity) -> const hlo::Instr* {
    for (const hlo::Instr* in : b.ops)
      if (in->code == code && in->op->results.count == 1 && b.fn->results(*in->op)[0] == r &&
          in->op->operands.count == arity)
        return in;
    return nullptr;
  };
  auto operands = [&](const hlo::Instr* in) { return b.fn->operands(*in->op); };
  auto compare = [&](ValueId r, ValueId l0, ValueId r0, hlo::Comparison* dir,
                     hlo::CompareType* ct) {
    const hlo::Instr* in = def(r, OpCode::Compare, 2);
    const hlo::OpAttrs* a = in ? c.program.attrs_of(*in) : nullptr;
    if (!a || operands(in)[0] != l0 || operands(in)[1] != r0) return false;
    const hlo::CompareAttrs& ca = a->get<hlo::CompareAttrs>();
    *dir = ca.direction;
    *ct = ca.compare_type;
    return true;
  };
  // Either operand order of an and / or: calls f(first, second) for both, true when one matches.
  auto either = [&](ValueId r, OpCode code, auto&& f) {
    const hlo::Instr* in = def(r, code, 2);
    if (!in) return false;
    const auto ops = operands(in);
    return f(ops[0], ops[1]) || f(ops[1], ops[0]);
  };
  const hlo::Instr* sv = def(b.results[0], OpCode::Select, 3);
  const hlo::Instr* si = def(b.results[1], OpCode::Select, 3);
  if (!sv || !si || operands(sv)[1] != v || operands(sv)[2] != x || operands(si)[1] != i ||
      operands(si)[2] != j)
    return out;
  const ValueId keep = operands(sv)[0];
  hlo::Comparison d;
  const bool keep_ok = either(keep, OpCode::Or, [&](ValueId strict, ValueId nan) {
    hlo::Comparison nd;
    return compare(strict, v, x, &out.dir, &out.strict_type) &&
           (out.dir == hlo::Comparison::GT || out.dir == hlo::Comparison::LT) &&
           compare(nan, v, v, &nd, &out.nan_type) && nd == hlo::Comparison::NE;
  });
  const bool index_ok = either(operands(si)[0], OpCode::Or, [&](ValueId k, ValueId tie) {
    return k == keep && either(tie, OpCode::And, [&](ValueId eq, ValueId lt) {
             hlo::Comparison ld;
             return compare(eq, v, x, &d, &out.eq_type) && d == hlo::Comparison::EQ &&
                    compare(lt, i, j, &ld, &out.index_type) && ld == hlo::Comparison::LT;
           });
  });
  out.ok = keep_ok && index_ok && !hlo::is_complex(value) && !hlo::is_complex(index);
  return out;
}

template <class E, class I>
bool arg_reduce_native(const OpCall& c, const ArgReducer& a, const std::vector<bool>& reduced,
                       std::vector<Tensor>& outs) {
  using S = typename E::Storage;
  using SI = typename I::Storage;
  const Dims& in = c.tensor(0).dims;
  const Dims st = strides_of(in);
  Odometer kept, red;
  for (std::size_t d = 0; d < in.size(); ++d) (reduced[d] ? red : kept).add(in[d], st[d]);
  const S* xs = c.tensor(0).as<S>();
  const SI* js = c.tensor(1).as<SI>();
  S* ov = outs[0].as<S>();
  SI* oi = outs[1].as<SI>();
  const std::int64_t ny = kept.count(), nr = red.count();
  for (std::int64_t o = 0; o < ny; ++o, kept.next()) {
    if (!c.keep_going()) return false;
    S v = c.tensor(2).as<S>()[0];
    SI i = c.tensor(3).as<SI>()[0];
    red.reset();
    for (std::int64_t r = 0; r < nr; ++r, red.next()) {
      const std::int64_t at = kept.offset + red.offset;
      const S x = xs[at];
      const SI j = js[at];
      const bool keep = compare_as<E>(a.dir, a.strict_type, v, x) ||
                        compare_as<E>(hlo::Comparison::NE, a.nan_type, v, v);
      const bool keep_index = keep || (compare_as<E>(hlo::Comparison::EQ, a.eq_type, v, x) &&
                                       compare_as<I>(hlo::Comparison::LT, a.index_type, i, j));
      if (!keep) v = x;
      if (!keep_index) i = j;
    }
    ov[o] = v;
    oi[o] = i;
  }
  return true;
}

bool reduce(const OpCall& c) {
  std::size_t n = 0;
  if (!inputs_and_inits(c, &n)) return false;
  const Dims& in = c.tensor(0).dims;
  const std::vector<bool> reduced =
      verified_marks(c, c.attrs().get<hlo::ReduceAttrs>().dims, in.size());
  Dims out_dims;
  for (std::size_t d = 0; d < in.size(); ++d)
    if (!reduced[d]) out_dims.push_back(in[d]);
  const auto types = result_types(c);
  RL_VERIFIED(c, types.size() == n);
  // check_result: the dimensions are verified; a result of a wider element type (StableHLO's
  // promotable body, HLO's to_apply) is not run.
  std::vector<Tensor> outs(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!check_result(c, *types[i], i, c.tensor(i).type, out_dims) ||
        !alloc_type(c, *types[i], &outs[i]))
      return false;
  const ElementType t = c.tensor(0).type;
  const Comb k = n == 1 ? combiner(c, 0, t) : Comb::None;
  // Compiled for every type, unlike the other region ops' combiners: reduce's compact form
  // (`applies stablehlo.add`) has no body for the evaluator to run.
  if (comb_applies(k, t)) {
    const ReduceLoop l = reduce_loop(in, reduced);
    const CombLoops loops = comb_loops(k, k == Comb::Replace ? bits_type(t) : t);
    if (!loops.fold_row)
      return c.fail("reduce of this element type", "a type its combiner applies to", type_name(t));
    if (!reduce_native(c, loops, c.tensor(0).data(), c.tensor(0).elements(), nullptr, c.tensor(1),
                       outs[0], l))
      return false;
    c.set_all(outs);
    return true;
  }
  if (n == 2 && native_arith_type(t) &&
      (c.tensor(1).type == ElementType::S32 || c.tensor(1).type == ElementType::S64)) {
    const ArgReducer a = arg_reducer(c, t, c.tensor(1).type);
    if (a.ok) {
      bool ok = for_type(c, t, [&](auto e) {
        using E = decltype(e);
        if constexpr (native_arith_v<E>) {
          if (c.tensor(1).type == ElementType::S32)
            return arg_reduce_native<E, Elem<ElementType::S32>>(c, a, reduced, outs);
          return arg_reduce_native<E, Elem<ElementType::S64>>(c, a, reduced, outs);
        } else {
          return false;
        }
      });
      if (!ok) return false;
      c.set_all(outs);
      return true;
    }
  }
  if (!reduce_evaluated(c, n, reduced, outs)) return false;
  c.set_all(outs);
  return true;
}

// ---- windows
// -------------------------------------------------------------------------------------------

// The windows of reduce_window and select_and_scatter over an input padded (with the init value)
// and base-dilated (holes hold the init value too). For one output index, visit() calls
// v(offset) for each window element in row-major order: the input's linear offset, or −1 for
// padding and holes.
class Windows {
 public:
  // A window verified to fit the rank, with sizes, strides and dilations of at least 1 and a
  // padded size within 2^61 (verify.cpp's reduce_window and select_and_scatter rules, infer.cpp's
  // window_checked and window_output). False (with the error set) only when its rows do not fit
  // the run's memory: a window may be as long as its padding (2^40 elements, say).
  bool plan(const OpCall& c, const Dims& in, const std::vector<hlo::WindowDim>& w) {
    RL_VERIFIED(c, w.size() == in.size());
    in_ = in;
    w_ = w;
    stride_ = strides_of(in);
    out_.clear();
    row_at_.clear();
    std::int64_t rows = 0;
    for (std::size_t d = 0; d < in.size(); ++d) {
      const hlo::WindowDim& x = w[d];
      RL_VERIFIED(c,
                  x.size >= 1 && x.stride >= 1 && x.base_dilation >= 1 && x.window_dilation >= 1);
      const std::int64_t padded =
          (in[d] == 0 ? 0 : (in[d] - 1) * x.base_dilation + 1) + x.pad_low + x.pad_high;
      const std::int64_t span = (x.size - 1) * x.window_dilation + 1;
      out_.push_back(padded < span ? 0 : (padded - span) / x.stride + 1);
      row_at_.push_back(rows);
      rows += x.size;
    }
    if (!c.alloc(ElementType::S64, {rows}, &rows_t_)) return false;
    idx_.assign(in.size(), 0);
    return true;
  }
  const Dims& out_dims() const { return out_; }

  // The window of output index `o` (one entry per dimension).
  void at(const Dims& o) {
    for (std::size_t d = 0; d < in_.size(); ++d) {
      const hlo::WindowDim& x = w_[d];
      const std::int64_t last = (in_[d] - 1) * x.base_dilation;  // the last input element, dilated
      std::int64_t* row = rows_t_.as<std::int64_t>() + row_at_[d];
      for (std::int64_t k = 0; k < x.size; ++k) {
        const std::int64_t p = o[d] * x.stride + k * x.window_dilation - x.pad_low;
        row[k] = (p < 0 || p > last || p % x.base_dilation != 0)
                     ? -1
                     : (p / x.base_dilation) * stride_[d];
      }
    }
  }

  template <class V>
  void visit(V&& v) {
    const std::size_t m = in_.size();
    if (m == 0) {
      v(std::int64_t(0));
      return;
    }
    std::int64_t* idx = idx_.data();
    std::fill(idx_.begin(), idx_.end(), 0);
    const std::int64_t* rows = rows_t_.as<std::int64_t>();
    const std::int64_t* last = rows + row_at_[m - 1];
    const std::int64_t n = w_[m - 1].size;
    while (true) {
      std::int64_t base = 0;
      bool pad = false;
      for (std::size_t d = 0; d + 1 < m; ++d) {
        const std::int64_t r = rows[row_at_[d] + idx[d]];
        pad = pad || r < 0;
        base += r;
      }
      for (std::int64_t j = 0; j < n; ++j)
        v(pad || last[j] < 0 ? std::int64_t(-1) : base + last[j]);
      std::size_t d = m - 1;
      while (d-- > 0) {
        if (++idx[d] < w_[d].size) break;
        idx[d] = 0;
      }
      if (d == static_cast<std::size_t>(-1)) return;
    }
  }

 private:
  Dims in_, stride_, out_, row_at_, idx_;
  Tensor rows_t_;  // each dimension's window row: an input offset or -1 (from the run's memory)
  std::vector<hlo::WindowDim> w_;
};

// Steps a row-major output index; false after the last.
bool next_index(Dims& o, const Dims& dims) {
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (++o[d] < dims[d]) return true;
    o[d] = 0;
  }
  return false;
}

// ---- reduce_window
// -------------------------------------------------------------------------------------

bool reduce_window_native(const OpCall& c, const CombLoops& k, Windows& w, const Tensor& x,
                          const Tensor& init, Tensor& y) {
  const std::size_t eb = elem_bytes(y.type);
  std::uint8_t* out = y.data();
  const std::int64_t ny = y.elements();
  Dims o(w.out_dims().size(), 0), at;
  for (std::int64_t i = 0; i < ny; ++i, next_index(o, w.out_dims())) {
    if (!c.keep_going()) return false;
    w.at(o);
    at.clear();
    w.visit([&](std::int64_t off) { at.push_back(off); });
    std::uint8_t* acc = out + static_cast<std::size_t>(i) * eb;
    std::memcpy(acc, init.data(), eb);
    k.fold_at(acc, x.data(), at.data(), static_cast<std::int64_t>(at.size()), init.data());
  }
  return true;
}

bool reduce_window_evaluated(const OpCall& c, Windows& w, std::size_t n,
                             std::vector<Tensor>& outs) {
  std::vector<ElementType> types;
  for (std::size_t i = 0; i < n; ++i) types.push_back(c.tensor(i).type);
  std::vector<ElementType> args = types;
  args.insert(args.end(), types.begin(), types.end());
  Evaluator ev(c, 0);
  if (!ev.init(args, types)) return false;
  const std::int64_t ny = count_of(w.out_dims());
  Dims o(w.out_dims().size(), 0);
  for (std::int64_t k = 0; k < ny; ++k, next_index(o, w.out_dims())) {
    w.at(o);
    for (std::size_t i = 0; i < n; ++i)
      std::memcpy(ev.arg(i), c.tensor(n + i).data(), elem_bytes(types[i]));
    bool ok = true;
    w.visit([&](std::int64_t off) {
      if (!ok) return;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t eb = elem_bytes(types[i]);
        const std::uint8_t* src = off < 0 ? c.tensor(n + i).data()
                                          : c.tensor(i).data() + static_cast<std::size_t>(off) * eb;
        std::memcpy(ev.arg(n + i), src, eb);
      }
      ok = ev.run();
      if (ok)
        for (std::size_t i = 0; i < n; ++i)
          std::memcpy(ev.arg(i), ev.result(i), elem_bytes(types[i]));
    });
    if (!ok) return false;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t eb = elem_bytes(types[i]);
      std::memcpy(outs[i].data() + static_cast<std::size_t>(k) * eb, ev.arg(i), eb);
    }
  }
  return true;
}

bool reduce_window(const OpCall& c) {
  std::size_t n = 0;
  if (!inputs_and_inits(c, &n)) return false;
  Windows w;
  if (!w.plan(c, c.tensor(0).dims, c.attrs().get<hlo::WindowAttrs>().window)) return false;
  const auto types = result_types(c);
  RL_VERIFIED(c, types.size() == n);
  std::vector<Tensor> outs(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!check_result(c, *types[i], i, c.tensor(i).type, w.out_dims()) ||
        !alloc_type(c, *types[i], &outs[i]))
      return false;
  const ElementType t = c.tensor(0).type;
  const Comb k = n == 1 ? combiner(c, 0, t) : Comb::None;
  const ElementType nt = k == Comb::Replace ? bits_type(t) : t;
  if (native_comb(k, nt)) {
    if (!reduce_window_native(c, comb_loops(k, nt), w, c.tensor(0), c.tensor(1), outs[0]))
      return false;
  } else if (!reduce_window_evaluated(c, w, n, outs)) {
    return false;
  }
  c.set_all(outs);
  return true;
}

// ---- compare bodies
// -----------------------------------------------------------------------------------

// A body that is one compare of its two arguments (select_and_scatter's select): the direction
// as compare(first, second).
struct PairCompare {
  bool ok = false;
  hlo::Comparison dir = hlo::Comparison::GE;
  hlo::CompareType ct = hlo::CompareType::Default;
};

PairCompare pair_compare(const OpCall& c, std::size_t index, ElementType t) {
  PairCompare out;
  Body b;
  if (!body_of(c, index, &b) || b.args.size() != 2 || b.results.size() != 1 || b.ops.size() != 1)
    return out;
  for (ValueId a : b.args)
    if (!is_scalar_of(body_type(c, b, a), t)) return out;
  const hlo::Instr& in = *b.ops[0];
  if (in.code != OpCode::Compare || in.op->operands.count != 2 ||
      b.fn->results(*in.op)[0] != b.results[0] || !c.program.attrs_of(in))
    return out;
  const auto ops = b.fn->operands(*in.op);
  const hlo::CompareAttrs& a = c.program.attrs_of(in)->get<hlo::CompareAttrs>();
  if (hlo::is_complex(t) && a.direction != hlo::Comparison::EQ &&
      a.direction != hlo::Comparison::NE)
    return out;
  out.ct = a.compare_type;
  if (ops[0] == b.args[0] && ops[1] == b.args[1]) {
    out.dir = a.direction;
  } else if (ops[0] == b.args[1] && ops[1] == b.args[0]) {
    switch (a.direction) {  // compare(y, x) as compare(x, y)
      case hlo::Comparison::LT:
        out.dir = hlo::Comparison::GT;
        break;
      case hlo::Comparison::LE:
        out.dir = hlo::Comparison::GE;
        break;
      case hlo::Comparison::GT:
        out.dir = hlo::Comparison::LT;
        break;
      case hlo::Comparison::GE:
        out.dir = hlo::Comparison::LE;
        break;
      default:
        out.dir = a.direction;
        break;
    }
  } else {
    return out;
  }
  out.ok = true;
  return out;
}

// ---- select_and_scatter
// -----------------------------------------------------------------------------

// For each source element: the window's selected operand element (the first, replaced by each
// later one the select body does not prefer it to), updated with the source element by the
// scatter body. The result starts at the init value everywhere.
// The window's element the select body picks: the first, replaced by each later one the body does
// not prefer it to (at[j] < 0: padding, never picked); −1 for a window of padding only.
template <class E>
std::int64_t select_in(const std::uint8_t* x, const std::int64_t* at, std::int64_t n,
                       const PairCompare& sel) {
  using S = typename E::Storage;
  const S* op = reinterpret_cast<const S*>(x);
  std::int64_t chosen = -1;
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int64_t off = at[j];
    if (off < 0) continue;
    if (chosen < 0 || !compare_as<E>(sel.dir, sel.ct, op[chosen], op[off])) chosen = off;
  }
  return chosen;
}

// For each source element: the window's selected operand element, updated with the source
// element by the scatter body. The result starts at the init value everywhere.
bool select_and_scatter_native(const OpCall& c, const CombLoops& k, Windows& w,
                               const PairCompare& sel, Tensor& y) {
  std::int64_t (*select)(const std::uint8_t*, const std::int64_t*, std::int64_t,
                         const PairCompare&) = nullptr;
  dispatch(y.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (native_arith_v<E> || bits_v<E>) select = &select_in<E>;
  });
  if (!select)
    return c.fail("select_and_scatter of this element type", "a type its select runs natively for",
                  type_name(y.type));
  const std::size_t eb = elem_bytes(y.type);
  const std::uint8_t* op = c.tensor(0).data();
  const std::uint8_t* src = c.tensor(1).data();
  const std::int64_t ns = c.tensor(1).elements();
  Dims o(w.out_dims().size(), 0), at;
  for (std::int64_t i = 0; i < ns; ++i, next_index(o, w.out_dims())) {
    if (!c.keep_going()) return false;
    w.at(o);
    at.clear();
    w.visit([&](std::int64_t off) { at.push_back(off); });
    const std::int64_t chosen = select(op, at.data(), static_cast<std::int64_t>(at.size()), sel);
    if (chosen >= 0)
      k.combine(y.data() + static_cast<std::size_t>(chosen) * eb, 1,
                src + static_cast<std::size_t>(i) * eb, 1, 1);
  }
  return true;
}

bool select_and_scatter_evaluated(const OpCall& c, Windows& w, Tensor& y) {
  const ElementType t = c.tensor(0).type;
  const std::size_t eb = elem_bytes(t);
  Evaluator select(c, 0), scatter(c, 1);
  if (!select.init({t, t}, {ElementType::Pred}) || !scatter.init({t, t}, {t})) return false;
  const std::uint8_t* op = c.tensor(0).data();
  const std::uint8_t* src = c.tensor(1).data();
  const std::int64_t ns = c.tensor(1).elements();
  Dims o(w.out_dims().size(), 0);
  for (std::int64_t i = 0; i < ns; ++i, next_index(o, w.out_dims())) {
    w.at(o);
    std::int64_t chosen = -1;
    bool ok = true;
    w.visit([&](std::int64_t off) {
      if (off < 0 || !ok) return;
      if (chosen < 0) {
        chosen = off;
        return;
      }
      std::memcpy(select.arg(0), op + static_cast<std::size_t>(chosen) * eb, eb);
      std::memcpy(select.arg(1), op + static_cast<std::size_t>(off) * eb, eb);
      ok = select.run();
      if (ok && select.result(0)[0] == 0) chosen = off;
    });
    if (!ok) return false;
    if (chosen < 0) continue;
    std::uint8_t* at = y.data() + static_cast<std::size_t>(chosen) * eb;
    std::memcpy(scatter.arg(0), at, eb);
    std::memcpy(scatter.arg(1), src + static_cast<std::size_t>(i) * eb, eb);
    if (!scatter.run()) return false;
    std::memcpy(at, scatter.result(0), eb);
  }
  return true;
}

bool select_and_scatter(const OpCall& c) {
  RL_VERIFIED(c, c.num_operands() == 3 && c.tensor(2).dims.empty());
  const Tensor& x = c.tensor(0);
  const Tensor& source = c.tensor(1);
  const Tensor& init = c.tensor(2);
  // verify.cpp's scatter_elements; HLO lets floats of two precisions meet (not run here).
  RL_VERIFIED(c, one_kind(source.type, x.type) && one_kind(init.type, x.type));
  if (source.type != x.type || init.type != x.type)
    return c.fail(
        "select_and_scatter's source and init value",
        "the operand's element type (the init value a scalar)",
        type_name(source.type) + " and " + type_name(init.type) + " " + dims_text(init.dims));
  const std::vector<hlo::WindowDim>& window = c.attrs().get<hlo::WindowAttrs>().window;
  for (const auto& d : window)  // HLO's window may be dilated: not run here
    if (d.base_dilation != 1 || d.window_dilation != 1)
      return c.fail("select_and_scatter with a dilated window", "no dilation",
                    std::to_string(d.base_dilation) + " and " + std::to_string(d.window_dilation));
  Windows w;
  if (!w.plan(c, x.dims, window)) return false;
  RL_VERIFIED(c, source.dims == w.out_dims());
  RL_VERIFIED(c, c.out_type(0).dims == x.dims && c.out_type(0).etype == x.type);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::size_t eb = elem_bytes(x.type);
  for (std::int64_t i = 0; i < y.elements(); ++i)
    std::memcpy(y.data() + static_cast<std::size_t>(i) * eb, init.data(), eb);
  const PairCompare sel = pair_compare(c, 0, x.type);
  const Comb k = combiner(c, 1, x.type);
  if (sel.ok && native_comb(k, x.type)) {
    if (!select_and_scatter_native(c, comb_loops(k, x.type), w, sel, y)) return false;
  } else if (!select_and_scatter_evaluated(c, w, y)) {
    return false;
  }
  c.set(0, std::move(y));
  return true;
}

// ---- scatter
// -------------------------------------------------------------------------------------------

// scatter's index arithmetic, checked once: where each update's window starts in the operand and
// how its window walks the operand and the updates.
struct ScatterPlan {
  Odometer points;  // update scatter dimensions: offset = in the updates, offset2 = in the indices
  std::int64_t index_count = 1;    // components of one start index
  std::int64_t index_step = 0;     // their stride in the indices
  Dims start_stride, start_limit;  // start component k: its operand stride, its largest value
                                   // (operand size − window size)
  std::vector<std::pair<std::size_t, std::int64_t>>
      batch;      // (scatter point dimension, operand stride)
  Odometer walk;  // the window, contiguous runs merged: offset = in the operand, offset2 = in the
                  // updates
};

// The dimension numbers are verify.cpp's scatter_operands, in both dialects: the plan trusts them.
void scatter_plan(const OpCall& c, const Tensor& x, const Tensor& indices, const Tensor& updates,
                  ScatterPlan* p) {
  const hlo::ScatterAttrs& s = c.attrs().get<hlo::ScatterAttrs>();
  const std::size_t ro = x.dims.size(), ri = indices.dims.size(), ru = updates.dims.size();
  const std::int64_t ivd = s.index_vector_dim;
  RL_VERIFIED(c, ivd >= 0 && static_cast<std::size_t>(ivd) <= ri);
  const bool has_ivd = static_cast<std::size_t>(ivd) < ri;
  p->index_count = has_ivd ? indices.dims[static_cast<std::size_t>(ivd)] : 1;
  const std::vector<bool> is_window = verified_marks(c, s.update_window_dims, ru),
                          inserted = verified_marks(c, s.inserted_window_dims, ro),
                          batching = verified_marks(c, s.input_batching_dims, ro),
                          mapped = verified_marks(c, s.scatter_dims_to_operand_dims, ro),
                          index_batching = verified_marks(c, s.scatter_indices_batching_dims, ri);
  RL_VERIFIED(c, std::is_sorted(s.update_window_dims.begin(), s.update_window_dims.end()));
  for (std::size_t d = 0; d < ro; ++d) RL_VERIFIED(c, !(batching[d] && (inserted[d] || mapped[d])));
  RL_VERIFIED(c, ro == s.update_window_dims.size() + s.inserted_window_dims.size() +
                           s.input_batching_dims.size());
  RL_VERIFIED(c,
              static_cast<std::int64_t>(s.scatter_dims_to_operand_dims.size()) == p->index_count);
  RL_VERIFIED(c, s.input_batching_dims.size() == s.scatter_indices_batching_dims.size());
  RL_VERIFIED(c, !has_ivd || !index_batching[static_cast<std::size_t>(ivd)]);
  // Update scatter dimensions pair with the indices' dimensions other than index_vector_dim.
  Dims point_dim_of_index(ri, -1);
  const Dims ust = strides_of(updates.dims), ist = strides_of(indices.dims);
  std::size_t t = 0;
  for (std::size_t d = 0; d < ru; ++d) {
    if (is_window[d]) continue;
    if (has_ivd && t == static_cast<std::size_t>(ivd)) ++t;
    RL_VERIFIED(c, t < ri && updates.dims[d] == indices.dims[t]);
    point_dim_of_index[t] = static_cast<std::int64_t>(p->points.size.size());
    p->points.add(updates.dims[d], ust[d], ist[t]);
    ++t;
  }
  if (has_ivd && t == static_cast<std::size_t>(ivd)) ++t;
  RL_VERIFIED(c, t == ri);
  p->index_step = has_ivd ? ist[static_cast<std::size_t>(ivd)] : 0;
  const Dims ost = strides_of(x.dims);
  for (std::size_t i = 0; i < s.input_batching_dims.size(); ++i) {
    const auto od = static_cast<std::size_t>(s.input_batching_dims[i]);
    const auto id = static_cast<std::size_t>(s.scatter_indices_batching_dims[i]);
    RL_VERIFIED(c, x.dims[od] == indices.dims[id]);
    p->batch.emplace_back(static_cast<std::size_t>(point_dim_of_index[id]),
                          ost[od]);  // always in bounds: equal sizes
  }
  // The window: operand dimensions neither inserted nor batching, in order, pair with
  // update_window_dims.
  Dims window(ro, 1);
  std::size_t wi = 0;
  for (std::size_t d = 0; d < ro; ++d) {
    if (inserted[d] || batching[d]) continue;
    const auto ud = static_cast<std::size_t>(s.update_window_dims[wi++]);
    const std::int64_t n = updates.dims[ud];
    RL_VERIFIED(c, n <= x.dims[d]);
    window[d] = n;
    if (n == 1) continue;
    auto& w = p->walk;
    if (!w.size.empty() && w.stride.back() == ost[d] * n && w.stride2.back() == ust[ud] * n) {
      w.size.back() *= n;  // contiguous in both: one run
      w.stride.back() = ost[d];
      w.stride2.back() = ust[ud];
    } else {
      w.add(n, ost[d], ust[ud]);
    }
  }
  if (p->walk.size.empty()) p->walk.add(1, 0, 0);
  // A start component's operand dimension is no batching dimension (checked above); the
  // dimensions no component names start at 0, always in bounds.
  for (auto d : s.scatter_dims_to_operand_dims) {
    p->start_stride.push_back(ost[static_cast<std::size_t>(d)]);
    p->start_limit.push_back(x.dims[static_cast<std::size_t>(d)] -
                             window[static_cast<std::size_t>(d)]);
  }
}

// The indices as int64 (an unsigned index past int64's range becomes negative: out of bounds).
bool indices_as_i64(const OpCall& c, const Tensor& indices, Tensor* out) {
  RL_VERIFIED(c, hlo::is_integer(indices.type));  // verify.cpp's scatter_operands
  if (!c.alloc(ElementType::S64, indices.dims, out)) return false;
  std::int64_t* o = out->as<std::int64_t>();
  const std::int64_t n = indices.elements();
  dispatch(indices.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (is_int_v<E>) {
      const auto* p = indices.as<typename E::Storage>();
      for (std::int64_t i = 0; i < n; ++i) o[i] = static_cast<std::int64_t>(p[i]);
    }
  });
  return true;
}

// Calls f(operand base, updates base) for each scatter point whose window lies inside the
// operand, in row-major order of the points; false when f does or the time budget runs out.
template <class F>
bool for_each_window(const OpCall& c, ScatterPlan& p, const std::int64_t* idx, F&& f) {
  const std::int64_t n = p.points.count();
  if (n == 0) return true;
  const std::size_t nk = p.start_stride.size();
  const std::int64_t* stride = p.start_stride.data();
  const std::int64_t* limit = p.start_limit.data();
  p.points.reset();
  for (std::int64_t k = 0; k < n; ++k, p.points.next()) {
    if ((k & 255) == 0 && !c.keep_going()) return false;
    const std::int64_t* start = idx + p.points.offset2;
    bool inside = true;
    std::int64_t base = 0;
    for (std::size_t j = 0; j < nk; ++j) {
      const std::int64_t v = start[static_cast<std::int64_t>(j) * p.index_step];
      inside = inside && v >= 0 && v <= limit[j];  // the whole window inside the operand
      base += v * stride[j];
    }
    for (const auto& [pd, st] : p.batch) base += p.points.idx[pd] * st;
    if (inside && !f(base, p.points.offset)) return false;
  }
  return true;
}

bool scatter_native(const OpCall& c, const CombLoops& k, ScatterPlan& p, const std::int64_t* idx,
                    const Tensor& updates, Tensor& y) {
  const std::size_t eb = elem_bytes(y.type);
  std::uint8_t* out = y.data();
  const std::uint8_t* upd = updates.data();
  Odometer& w = p.walk;
  const std::size_t m = w.size.size();
  const std::int64_t n = w.size[m - 1], os = w.stride[m - 1], us = w.stride2[m - 1];
  if (n == 0) return true;  // an empty window
  const std::int64_t runs = w.count() / n;
  return for_each_window(c, p, idx, [&](std::int64_t ob, std::int64_t ub) {
    w.reset();
    for (std::int64_t r = 0; r < runs; ++r) {
      k.combine(out + static_cast<std::size_t>(ob + w.offset) * eb, os,
                upd + static_cast<std::size_t>(ub + w.offset2) * eb, us, n);
      // Step the runs (every dimension but the last).
      for (std::size_t d = m - 1; d-- > 0;) {
        w.offset += w.stride[d];
        w.offset2 += w.stride2[d];
        if (++w.idx[d] < w.size[d]) break;
        w.offset -= w.stride[d] * w.size[d];
        w.offset2 -= w.stride2[d] * w.size[d];
        w.idx[d] = 0;
      }
    }
    return true;
  });
}

bool scatter_evaluated(const OpCall& c, ScatterPlan& p, const std::int64_t* idx, std::size_t n,
                       std::vector<Tensor>& outs) {
  std::vector<ElementType> types;
  for (std::size_t i = 0; i < n; ++i) types.push_back(c.tensor(i).type);
  std::vector<ElementType> args = types;
  args.insert(args.end(), types.begin(), types.end());
  Evaluator ev(c, 0);
  if (!ev.init(args, types)) return false;
  Odometer& w = p.walk;
  const std::int64_t count = w.count();
  return for_each_window(c, p, idx, [&](std::int64_t ob, std::int64_t ub) {
    w.reset();
    for (std::int64_t e = 0; e < count; ++e, w.next()) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t eb = elem_bytes(types[i]);
        std::memcpy(ev.arg(i), outs[i].data() + static_cast<std::size_t>(ob + w.offset) * eb, eb);
        std::memcpy(ev.arg(n + i),
                    c.tensor(n + 1 + i).data() + static_cast<std::size_t>(ub + w.offset2) * eb, eb);
      }
      if (!ev.run()) return false;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t eb = elem_bytes(types[i]);
        std::memcpy(outs[i].data() + static_cast<std::size_t>(ob + w.offset) * eb, ev.result(i),
                    eb);
      }
    }
    return true;
  });
}

// scatter(inputs..., indices, updates...): the results start as the inputs; each update element
// is combined into the result element its window puts it on (see the file comment for the order
// and for windows outside the operand).
bool scatter(const OpCall& c) {
  // verify.cpp's scatter rule: N inputs of one shape, integer indices, N updates of one shape,
  // the dimension numbers (scatter_plan), N results.
  const std::size_t k = c.num_operands();
  RL_VERIFIED(c, k >= 3 && k % 2 == 1);
  const std::size_t n = (k - 1) / 2;
  for (std::size_t i = 0; i < k; ++i) RL_VERIFIED(c, c.in(i).is_tensor());
  const Tensor& x0 = c.tensor(0);
  const Tensor& indices = c.tensor(n);
  const Tensor& u0 = c.tensor(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const Tensor& x = c.tensor(i);
    const Tensor& u = c.tensor(n + 1 + i);
    RL_VERIFIED(c, x.dims == x0.dims && u.dims == u0.dims);
    RL_VERIFIED(c, one_kind(u.type, x.type));  // verify.cpp's scatter_operands
    if (u.type != x.type)  // HLO lets floats of two precisions meet: not run here
      return c.fail("scatter's input and update " + std::to_string(i), "of one element type",
                    type_name(x.type) + " and " + type_name(u.type));
  }
  ScatterPlan p;
  scatter_plan(c, x0, indices, u0, &p);
  const auto types = result_types(c);
  RL_VERIFIED(c, types.size() == n);
  std::vector<Tensor> outs(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Tensor& x = c.tensor(i);
    // The operand's own buffer when it dies here (updated in place), else a copy of it.
    if (!check_result(c, *types[i], i, x.type, x.dims) || !c.writable(x, &outs[i])) return false;
  }
  Tensor idx = indices;  // read in place when already int64
  if (indices.type != ElementType::S64 && !indices_as_i64(c, indices, &idx)) return false;
  const Comb comb = n == 1 ? combiner(c, 0, x0.type) : Comb::None;
  const ElementType nt = comb == Comb::Replace ? bits_type(x0.type) : x0.type;
  if (native_comb(comb, nt)) {
    if (!scatter_native(c, comb_loops(comb, nt), p, idx.as<std::int64_t>(), u0, outs[0]))
      return false;
  } else if (!scatter_evaluated(c, p, idx.as<std::int64_t>(), n, outs)) {
    return false;
  }
  c.set_all(outs);
  return true;
}

// ---- sort comparators
// -----------------------------------------------------------------------------

// One key of a recognized comparator: operand `operand` ordered by `kind`, ascending or not.
struct SortKey {
  std::size_t operand = 0;
  bool descending = false;
  KeyKind kind = KeyKind::Signed;
};

// What a comparator's values are, symbolically: a block argument (possibly canonicalized), a
// float constant that is zero or a positive NaN, a compare, an and / or of booleans.
struct Sym {
  enum class Kind : std::uint8_t { Other, Arg, Zero, NaN, Cmp, And, Or } kind = Kind::Other;
  std::size_t arg = 0;
  std::uint8_t canon = 0;  // Arg: 1 = −0 made +0, 2 = NaN made one positive NaN
  hlo::Comparison dir = hlo::Comparison::EQ;
  hlo::CompareType ct = hlo::CompareType::Default;
  int a = -1, b = -1;  // Cmp, And, Or: operand symbols
};

class ComparatorReader {
 public:
  ComparatorReader(const OpCall& c, const Body& b) : c_(c), b_(b) {}

  // The keys of the comparator, or false when it is none of the recognized shapes.
  bool read(std::vector<SortKey>* keys) {
    if (b_.ops.size() > 256 || b_.results.size() != 1 || b_.args.size() % 2 != 0) return false;
    for (std::size_t i = 0; i < b_.args.size(); ++i) {
      Sym s;
      s.kind = Sym::Kind::Arg;
      s.arg = i;
      bind(b_.args[i], s);
    }
    for (const hlo::Instr* in : b_.ops) bind_op(*in);
    const int r = find(b_.results[0]);
    return r >= 0 && lex(r, keys);
  }

 private:
  const OpCall& c_;
  const Body& b_;
  std::vector<Sym> syms_;
  std::vector<std::pair<ValueId, int>> names_;

  int find(ValueId v) const {
    for (auto it = names_.rbegin(); it != names_.rend(); ++it)
      if (it->first == v) return it->second;
    return -1;
  }
  void bind(ValueId v, const Sym& s) {
    syms_.push_back(s);
    names_.emplace_back(v, static_cast<int>(syms_.size() - 1));
  }
  const Sym* sym(int i) const { return i < 0 ? nullptr : &syms_[static_cast<std::size_t>(i)]; }
  static bool float_compare(const Sym& s) {
    return s.ct == hlo::CompareType::Default || s.ct == hlo::CompareType::Float;
  }

  void bind_op(const hlo::Instr& in) {
    const hlo::Function& f = *b_.fn;
    const hlo::Op& op = *in.op;
    Sym s;
    if (op.results.count != 1) return;
    const auto ops = f.operands(op);
    const hlo::OpAttrs* attrs = c_.program.attrs_of(in);
    const hlo::ConstantAttrs* k = attrs ? attrs->get_if<hlo::ConstantAttrs>() : nullptr;
    if (in.code == OpCode::Constant && k && k->literal != hlo::kNoAttrs) {
      const hlo::Literal& lit = c_.program.literals[k->literal];
      if (lit.elements() == 1 && hlo::is_float(lit.type) && !lit.bytes.empty()) {
        dispatch(lit.type, [&](auto e) {
          using E = decltype(e);
          if constexpr (is_float_v<E>) {
            typename E::Storage raw;
            std::memcpy(&raw, lit.bytes.data(), sizeof raw);
            const auto v = E::load(raw);
            if (v == 0)
              s.kind = Sym::Kind::Zero;
            else if (std::isnan(v) && !std::signbit(v))
              s.kind = Sym::Kind::NaN;
          }
        });
      }
    } else if (in.code == OpCode::Compare && attrs && ops.size() == 2) {
      s.kind = Sym::Kind::Cmp;
      const hlo::CompareAttrs& ca = attrs->get<hlo::CompareAttrs>();
      s.dir = ca.direction;
      s.ct = ca.compare_type;
      s.a = find(ops[0]);
      s.b = find(ops[1]);
    } else if ((in.code == OpCode::And || in.code == OpCode::Or) && ops.size() == 2 &&
               c_.module.value_type(f, f.results(op)[0]).etype == ElementType::Pred) {
      s.kind = in.code == OpCode::And ? Sym::Kind::And : Sym::Kind::Or;
      s.a = find(ops[0]);
      s.b = find(ops[1]);
    } else if (in.code == OpCode::Select && ops.size() == 3) {
      canonicalization(find(ops[0]), find(ops[1]), find(ops[2]), &s);
    }
    bind(f.results(op)[0], s);
  }

  // select(x != x, NaN, x') and select(x == 0, 0, x') (FLOAT compares, x and x' the same argument,
  // canonicalized or not): x' with NaN or zero canonicalized.
  void canonicalization(int p, int t, int f, Sym* out) const {
    const Sym* cmp = sym(p);
    const Sym* val = sym(t);
    const Sym* x = sym(f);
    if (!cmp || !val || !x || cmp->kind != Sym::Kind::Cmp || x->kind != Sym::Kind::Arg ||
        !float_compare(*cmp))
      return;
    const Sym* l = sym(cmp->a);
    const Sym* r = sym(cmp->b);
    if (!l || !r) return;
    auto same_arg = [&](const Sym* s) { return s->kind == Sym::Kind::Arg && s->arg == x->arg; };
    std::uint8_t flag = 0;
    if (cmp->dir == hlo::Comparison::NE && val->kind == Sym::Kind::NaN && same_arg(l) &&
        same_arg(r))
      flag = 2;
    if (cmp->dir == hlo::Comparison::EQ && val->kind == Sym::Kind::Zero &&
        ((same_arg(l) && r->kind == Sym::Kind::Zero) ||
         (same_arg(r) && l->kind == Sym::Kind::Zero)))
      flag = 1;
    if (!flag) return;
    *out = *x;
    out->canon = static_cast<std::uint8_t>(out->canon | flag);
  }

  // A compare of the pair (2k, 2k+1) of one operand: its key, with `dir` as written.
  bool pair_key(int i, SortKey* key, hlo::Comparison* dir) const {
    const Sym* s = sym(i);
    if (!s || s->kind != Sym::Kind::Cmp) return false;
    const Sym* l = sym(s->a);
    const Sym* r = sym(s->b);
    if (!l || !r || l->kind != Sym::Kind::Arg || r->kind != Sym::Kind::Arg || l->canon != r->canon)
      return false;
    if (l->arg / 2 != r->arg / 2 || l->arg == r->arg) return false;
    const ElementType t = c_.module.value_type(*b_.fn, b_.args[l->arg]).etype;
    KeyKind kind;
    if (!key_kind_for(t, s->ct, &kind)) return false;
    if (l->canon != 0) {
      if (l->canon != 3 || !hlo::is_float(t)) return false;  // only the full canonicalization
      kind = KeyKind::FloatCanon;
    }
    key->operand = l->arg / 2;
    key->kind = kind;
    *dir = s->dir;
    if (l->arg % 2 == 1) {  // compare(rhs, lhs)
      if (*dir == hlo::Comparison::LT)
        *dir = hlo::Comparison::GT;
      else if (*dir == hlo::Comparison::GT)
        *dir = hlo::Comparison::LT;
    }
    return true;
  }

  bool strict(int i, SortKey* key) const {
    hlo::Comparison d;
    if (!pair_key(i, key, &d) || (d != hlo::Comparison::LT && d != hlo::Comparison::GT))
      return false;
    key->descending = d == hlo::Comparison::GT;
    return true;
  }

  bool equal(int i, const SortKey& key) const {
    SortKey k;
    hlo::Comparison d;
    return pair_key(i, &k, &d) && d == hlo::Comparison::EQ && k.operand == key.operand &&
           k.kind == key.kind;
  }

  // less(k) | (equal(k) & rest), in any operand order, or a single strict compare.
  bool lex(int i, std::vector<SortKey>* keys) const {
    SortKey key;
    if (strict(i, &key)) {
      keys->push_back(key);
      return true;
    }
    const Sym* s = sym(i);
    if (!s || s->kind != Sym::Kind::Or) return false;
    for (auto [first, second] :
         {std::pair<int, int>{s->a, s->b}, std::pair<int, int>{s->b, s->a}}) {
      const Sym* both = sym(second);
      if (!strict(first, &key) || !both || both->kind != Sym::Kind::And) continue;
      for (auto [eq, rest] :
           {std::pair<int, int>{both->a, both->b}, std::pair<int, int>{both->b, both->a}}) {
        if (!equal(eq, key)) continue;
        std::vector<SortKey> more{key};
        if (lex(rest, &more)) {
          keys->insert(keys->end(), more.begin(), more.end());
          return true;
        }
      }
    }
    return false;
  }
};

// ---- sort
// ----------------------------------------------------------------------------------------------

// Writes len keys of one operand's slice (elements base, base + stride, ...), complemented for a
// descending key.
using KeyFill = void (*)(const std::uint8_t* data, std::int64_t base, std::int64_t stride,
                         std::int64_t len, KeyKind kind, bool descending, std::uint64_t* out);

template <class E>
void fill_keys(const std::uint8_t* data, std::int64_t base, std::int64_t stride, std::int64_t len,
               KeyKind kind, bool descending, std::uint64_t* out) {
  const auto* p = reinterpret_cast<const typename E::Storage*>(data) + base;
  const std::uint64_t flip = descending ? ~std::uint64_t(0) : 0;
  for (std::int64_t j = 0; j < len; ++j) out[j] = key_of<E>(p[j * stride], kind) ^ flip;
}

KeyFill key_fill_for(ElementType t) {
  KeyFill f = nullptr;
  dispatch(t, [&](auto e) { f = &fill_keys<decltype(e)>; });
  return f;
}

// Moves the elements of one slice into the order of `perm`.
using Permute = void (*)(const std::uint8_t* in, std::uint8_t* out, std::int64_t base,
                         std::int64_t stride, std::int64_t len, const std::int64_t* perm);

template <class T>
void permute(const std::uint8_t* in, std::uint8_t* out, std::int64_t base, std::int64_t stride,
             std::int64_t len, const std::int64_t* perm) {
  const T* src = reinterpret_cast<const T*>(in) + base;
  T* dst = reinterpret_cast<T*>(out) + base;
  for (std::int64_t j = 0; j < len; ++j) dst[j * stride] = src[perm[j] * stride];
}

// By the element's size, as integers: a NaN key or value keeps its bits.
Permute permute_for(std::size_t bytes) {
  Permute f = nullptr;
  by_size(bytes, [&](auto tag) { f = &permute<decltype(tag)>; });
  return f;
}

// A stable sort of a[0, len) by less(x, y, &x_first), which may fail (then false): insertion
// sorts of short runs, then bottom-up merges between a and tmp. Correct for any comparator,
// strict weak order or not: it only ever asks whether a later element goes before an earlier one.
template <class T, class Less>
bool stable_sort_by(T* a, T* tmp, std::int64_t len, Less&& less) {
  constexpr std::int64_t kRun = 16;
  for (std::int64_t lo = 0; lo < len; lo += kRun) {
    const std::int64_t hi = std::min(lo + kRun, len);
    for (std::int64_t i = lo + 1; i < hi; ++i) {
      const T x = a[i];
      std::int64_t j = i;
      for (; j > lo; --j) {
        bool before = false;
        if (!less(x, a[j - 1], &before)) return false;
        if (!before) break;
        a[j] = a[j - 1];
      }
      a[j] = x;
    }
  }
  T* from = a;
  T* to = tmp;
  for (std::int64_t width = kRun; width < len; width *= 2) {
    for (std::int64_t lo = 0; lo < len; lo += 2 * width) {
      const std::int64_t mid = std::min(lo + width, len), hi = std::min(lo + 2 * width, len);
      std::int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        bool right_first = false;
        if (!less(from[j], from[i], &right_first)) return false;
        to[o++] = right_first ? from[j++] : from[i++];
      }
      while (i < mid) to[o++] = from[i++];
      while (j < hi) to[o++] = from[j++];
    }
    std::swap(from, to);
  }
  if (from != a) std::copy(from, from + len, a);
  return true;
}

// A slice's first key and its index, sorted together (the keys after the first are looked up).
struct Keyed {
  std::uint64_t key;
  std::int64_t index;
};

bool sort(const OpCall& c) {
  // verify.cpp's sort rule: inputs of one shape, a dimension in [-rank, rank); the results are
  // the inputs' types (its StableHLO rule, infer.cpp's in HLO).
  const std::size_t n = c.num_operands();
  RL_VERIFIED(c, n > 0);
  for (std::size_t i = 0; i < n; ++i)
    RL_VERIFIED(c, c.in(i).is_tensor() && c.tensor(i).dims == c.tensor(0).dims);
  const Dims& dims = c.tensor(0).dims;
  const auto rank = static_cast<std::int64_t>(dims.size());
  std::int64_t dim = c.attrs().get<hlo::SortAttrs>().dimension;
  if (dim < 0) dim += rank;
  RL_VERIFIED(c, dim >= 0 && dim < rank);
  const auto types = result_types(c);
  RL_VERIFIED(c, types.size() == n);
  std::vector<Tensor> outs(n);
  std::vector<Permute> moves(n);
  for (std::size_t i = 0; i < n; ++i) {
    RL_VERIFIED(c, types[i]->dims == dims && types[i]->etype == c.tensor(i).type);
    if (!alloc_type(c, *types[i], &outs[i])) return false;
    moves[i] = permute_for(elem_bytes(c.tensor(i).type));
    if (!moves[i])
      return c.fail("sort of this element size", "1, 2, 4, 8 or 16 bytes",
                    std::to_string(elem_bytes(c.tensor(i).type)));
  }
  const auto d = static_cast<std::size_t>(dim);
  const std::int64_t len = dims[d];
  const Dims st = strides_of(dims);
  Odometer slices;
  for (std::size_t k = 0; k < dims.size(); ++k)
    if (k != d) slices.add(dims[k], st[k]);
  const std::int64_t count = len == 0 ? 0 : slices.count();
  Body b;
  std::vector<SortKey> keys;
  bool native = body_of(c, 0, &b) && b.args.size() == 2 * n;
  for (std::size_t i = 0; native && i < b.args.size(); ++i)
    native = is_scalar_of(body_type(c, b, b.args[i]), c.tensor(i / 2).type);
  native = native && ComparatorReader(c, b).read(&keys);
  Tensor perm_t, tmp_t, keys_t;  // scratch, counted against the memory cap
  if (!c.alloc(ElementType::S64, {len}, &perm_t) || !c.alloc(ElementType::S64, {len}, &tmp_t))
    return false;
  if (native &&
      !c.alloc(ElementType::U64, {static_cast<std::int64_t>(keys.size() + 4) * len}, &keys_t))
    return false;
  std::int64_t* perm = perm_t.as<std::int64_t>();
  std::int64_t* tmp = tmp_t.as<std::int64_t>();
  std::vector<KeyFill> fills;
  for (const SortKey& k : keys) fills.push_back(key_fill_for(c.tensor(k.operand).type));
  Evaluator ev(c, 0);
  if (!native) {
    std::vector<ElementType> args;
    for (std::size_t i = 0; i < n; ++i)
      args.insert(args.end(), {c.tensor(i).type, c.tensor(i).type});
    if (!ev.init(args, {ElementType::Pred})) return false;
  }
  const std::int64_t stride = st[d];
  for (std::int64_t s = 0; s < count; ++s, slices.next()) {
    if (!c.keep_going()) return false;
    const std::int64_t base = slices.offset;
    for (std::int64_t j = 0; j < len; ++j) perm[j] = j;
    if (native) {
      // Keys: [pairs: 2·len][sorted copy: 2·len][key 1][key 2]...; key 0 travels in the pairs.
      std::uint64_t* kv = keys_t.as<std::uint64_t>();
      Keyed* pairs = reinterpret_cast<Keyed*>(kv);
      Keyed* scratch = pairs + len;
      std::uint64_t* more = kv + 4 * static_cast<std::size_t>(len);
      fills[0](c.tensor(keys[0].operand).data(), base, stride, len, keys[0].kind,
               keys[0].descending, more);
      for (std::int64_t j = 0; j < len; ++j) pairs[j] = {more[j], j};
      for (std::size_t k = 1; k < keys.size(); ++k)
        fills[k](c.tensor(keys[k].operand).data(), base, stride, len, keys[k].kind,
                 keys[k].descending, more + (k - 1) * static_cast<std::size_t>(len));
      const std::size_t nk = keys.size();
      if (nk == 1) {
        stable_sort_by(pairs, scratch, len, [](const Keyed& x, const Keyed& y, bool* out) {
          *out = x.key < y.key;
          return true;
        });
      } else {
        stable_sort_by(pairs, scratch, len, [&](const Keyed& x, const Keyed& y, bool* out) {
          if (x.key != y.key) {
            *out = x.key < y.key;
            return true;
          }
          *out = false;
          for (std::size_t k = 1; k < nk; ++k) {
            const std::uint64_t* row = more + (k - 1) * static_cast<std::size_t>(len);
            if (row[x.index] != row[y.index]) {
              *out = row[x.index] < row[y.index];
              break;
            }
          }
          return true;
        });
      }
      for (std::int64_t j = 0; j < len; ++j) perm[j] = pairs[j].index;
    } else {
      auto less = [&](std::int64_t x, std::int64_t y, bool* out) {
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t eb = elem_bytes(c.tensor(i).type);
          const std::uint8_t* data = c.tensor(i).data();
          std::memcpy(ev.arg(2 * i), data + static_cast<std::size_t>(base + x * stride) * eb, eb);
          std::memcpy(ev.arg(2 * i + 1), data + static_cast<std::size_t>(base + y * stride) * eb,
                      eb);
        }
        if (!ev.run()) return false;
        *out = ev.result(0)[0] != 0;
        return true;
      };
      if (!stable_sort_by(perm, tmp, len, less)) return false;
    }
    for (std::size_t i = 0; i < n; ++i)
      moves[i](c.tensor(i).data(), outs[i].data(), base, stride, len, perm);
  }
  c.set_all(outs);
  return true;
}

// ---- chlo.top_k
// ---------------------------------------------------------------------------------------

// The k largest elements of each row (the last dimension) in descending order, and their
// indices: the total order for floats, ties by the lower index first.
bool top_k(const OpCall& c) {
  // verify.cpp's top_k rule: rank 1 or more, 0 <= k <= the last dimension, values and i32
  // indices of the operand's shape with k last; complex operands are declined (top_k_supported).
  const Tensor& x = c.tensor(0);
  RL_VERIFIED(c, !x.dims.empty());
  const std::int64_t k = c.attrs().get<hlo::TopKAttrs>().k, len = x.dims.back();
  RL_VERIFIED(c, k >= 0 && k <= len);
  if (hlo::is_complex(x.type))
    return c.fail("top_k of complex numbers", "an ordered element type", type_name(x.type));
  Dims out_dims = x.dims;
  out_dims.back() = k;
  RL_VERIFIED(c, c.num_results() == 2 && c.out_type(0).dims == out_dims &&
                     c.out_type(0).etype == x.type && c.out_type(1).dims == out_dims &&
                     c.out_type(1).etype == ElementType::S32);
  Tensor values, indices, keys_t, perm_t;
  if (!c.alloc(0, &values) || !c.alloc(1, &indices) || !c.alloc(ElementType::U64, {len}, &keys_t) ||
      !c.alloc(ElementType::S64, {len}, &perm_t))
    return false;
  const KeyFill fill = key_fill_for(x.type);
  KeyKind kind = KeyKind::Unsigned;  // set here for every type but complex, refused above
  key_kind_for(x.type,
               hlo::is_float(x.type) ? hlo::CompareType::TotalOrder : hlo::CompareType::Default,
               &kind);
  std::uint64_t* key = keys_t.as<std::uint64_t>();
  std::int64_t* perm = perm_t.as<std::int64_t>();
  std::int32_t* idx = indices.as<std::int32_t>();
  const std::int64_t rows = len == 0 ? 0 : x.elements() / len;
  const std::size_t eb = elem_bytes(x.type);
  for (std::int64_t r = 0; r < rows; ++r) {
    if (!c.keep_going()) return false;
    fill(x.data(), r * len, 1, len, kind, false, key);
    for (std::int64_t j = 0; j < len; ++j) perm[j] = j;
    std::partial_sort(perm, perm + k, perm + len, [&](std::int64_t a, std::int64_t b) {
      return key[a] != key[b] ? key[a] > key[b] : a < b;
    });
    for (std::int64_t j = 0; j < k; ++j) {
      std::memcpy(values.data() + static_cast<std::size_t>(r * k + j) * eb,
                  x.data() + static_cast<std::size_t>(r * len + perm[j]) * eb, eb);
      idx[r * k + j] = static_cast<std::int32_t>(perm[j]);
    }
  }
  c.set(0, std::move(values));
  c.set(1, std::move(indices));
  return true;
}

// ---- map
// -----------------------------------------------------------------------------------------------

// The body applied to the inputs' elements at each index.
bool map(const OpCall& c) {
  // verify.cpp's map rule: at least one input, `dimensions` every dimension in order; StableHLO's
  // inputs of one shape and its result (infer.cpp's rule in HLO, where a scalar may stand beside
  // arrays, as XLA allows: not run here).
  const std::size_t n = c.num_operands();
  RL_VERIFIED(c, n > 0);
  const Dims& dims = c.tensor(0).dims;
  for (std::size_t i = 0; i < n; ++i) {
    // Arrays (verify.cpp's inputs_alike); of one shape but for HLO's scalars beside arrays.
    RL_VERIFIED(c, c.in(i).is_tensor() &&
                       (c.tensor(i).dims == dims || c.tensor(i).dims.empty() || dims.empty()));
    if (c.tensor(i).dims != dims)
      return c.fail("map's operands differ in shape", dims_text(dims), dims_text(c.tensor(i).dims));
  }
  const Dims& md = c.attrs().get<hlo::ReduceAttrs>().dims;
  for (std::size_t i = 0; i < md.size(); ++i)
    RL_VERIFIED(c, md.size() == dims.size() && md[i] == static_cast<std::int64_t>(i));
  const hlo::Type& rt = c.out_type(0);
  RL_VERIFIED(c, rt.is_array() && rt.dims == dims);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const ElementType t = c.tensor(0).type;
  const Comb k = n == 2 && c.tensor(1).type == t && y.type == t ? combiner(c, 0, t) : Comb::None;
  const std::int64_t count = y.elements();
  const ElementType nt = k == Comb::Replace ? bits_type(t) : t;
  if (native_comb(k, nt)) {  // y = the first input, combined with the second in place
    if (y.bytes()) std::memcpy(y.data(), c.tensor(0).data(), y.bytes());
    comb_loops(k, nt).combine(y.data(), 1, c.tensor(1).data(), 1, count);
  } else {
    std::vector<ElementType> args;
    for (std::size_t i = 0; i < n; ++i) args.push_back(c.tensor(i).type);
    Evaluator ev(c, 0);
    if (!ev.init(args, {y.type})) return false;
    const std::size_t eo = elem_bytes(y.type);
    for (std::int64_t j = 0; j < count; ++j) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t eb = elem_bytes(args[i]);
        std::memcpy(ev.arg(i), c.tensor(i).data() + static_cast<std::size_t>(j) * eb, eb);
      }
      if (!ev.run()) return false;
      std::memcpy(y.data() + static_cast<std::size_t>(j) * eo, ev.result(0), eo);
    }
  }
  c.set(0, std::move(y));
  return true;
}

// ---- what runs
// ------------------------------------------------------------------------------------------

std::string reduce_supported(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  const OpCode applies = attrs ? attrs->get<hlo::ReduceAttrs>().applies : OpCode::Unknown;
  if (applies != OpCode::Unknown && comb_of(applies) == Comb::None)
    return "reduce applying " + std::string(hlo::op_short_name(applies)) +
           " (not a reducer the interpreter runs)";
  return computable_types(op, attrs);
}

std::string top_k_supported(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  if (op.num_operands() == 1 && op.operand_type(0).is_array() &&
      hlo::is_complex(op.operand_type(0).etype))
    return "top_k of complex numbers (they have no order)";
  return computable_types(op, attrs);
}

}  // namespace

bool reduce_streamed(const OpCall& c, const StreamedInput& in, bool* done) {
  *done = false;
  if (c.num_operands() != 2 || !c.in(1).is_tensor()) return true;
  const Tensor& init = c.tensor(1);
  if (!init.dims.empty() || init.type != in.type) return true;  // the op alone says what is wrong
  const Comb k = combiner(c, 0, in.type);
  if (!comb_applies(k, in.type)) return true;
  const auto types = result_types(c);
  if (types.size() != 1) return true;
  const std::vector<bool> reduced =
      verified_marks(c, c.attrs().get<hlo::ReduceAttrs>().dims, in.dims.size());
  Dims out_dims;
  for (std::size_t d = 0; d < in.dims.size(); ++d)
    if (!reduced[d]) out_dims.push_back(in.dims[d]);
  std::vector<Tensor> outs(1);
  if (!check_result(c, *types[0], 0, in.type, out_dims) || !alloc_type(c, *types[0], &outs[0]))
    return false;
  std::int64_t nx = 1;
  for (auto d : in.dims) nx *= d;
  const ReduceLoop l = reduce_loop(in.dims, reduced);
  // A chunk holds whole rows: a row longer than a chunk is not streamed (the input is made whole).
  if (l.size.back() > kStreamedChunk) {
    outs.clear();
    return true;
  }
  const CombLoops loops = comb_loops(k, k == Comb::Replace ? bits_type(in.type) : in.type);
  if (!loops.fold_row) {
    outs.clear();
    return true;  // the op alone says what is wrong
  }
  if (!reduce_native(c, loops, nullptr, nx, &in, init, outs[0], l)) return false;
  c.set_all(outs);
  *done = true;
  return true;
}

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(Reduce, reduce, reduce_supported)
RL_KERNEL(ReduceWindow, reduce_window)
RL_KERNEL(SelectAndScatter, select_and_scatter)
RL_KERNEL(Scatter, scatter)
RL_KERNEL(Sort, sort)
RL_KERNEL(ChloTopK, top_k, top_k_supported)
RL_KERNEL(Map, map)

}  // namespace rl::interp
