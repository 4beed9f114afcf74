#include "python/tracer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "hlo/jax_emit.h"
#include "python/ast.h"
#include "python/ndarray.h"
#include "python/traced.h"

namespace rl::python {

namespace hj = rl::hlo::jax;

namespace {

// ---- values ------------------------------------------------------------------------------------

using tr::K;
using tr::Obj;
using tr::Ref;

Ref mk(K k) {
  auto r = std::make_shared<Obj>();
  r->k = k;
  return r;
}
Ref mk_int(std::int64_t v) {
  auto r = mk(K::Int);
  r->i = v;
  return r;
}
Ref mk_float(double v) {
  auto r = mk(K::Float);
  r->f = v;
  return r;
}
Ref mk_str(std::string s, K k = K::Str) {
  auto r = mk(k);
  r->s = std::move(s);
  return r;
}
Ref mk_tuple(std::vector<Ref> items, K k = K::Tuple) {
  auto r = mk(k);
  r->items = std::move(items);
  return r;
}

bool is_pyscalar(const Ref& r) { return r->k == K::Bool || r->k == K::Int || r->k == K::Float; }
double scalar_value(const Ref& r) {
  return r->k == K::Bool ? (r->b ? 1 : 0) : r->k == K::Int ? double(r->i) : r->f;
}

// NumPy's shape repr ("(3,)", "(2, 3)"): the notebook's (python/ndarray.h), one spelling.
std::string shape_text(const std::vector<std::int64_t>& d) { return shape_repr(d); }

}  // namespace

// JAX's dtype names for messages: "float32", "int32", "bool".
std::string tr::dtype_name(const std::string& t) {
  if (t == "i1") return "bool";
  if (t == "bf16") return "bfloat16";
  if (t[0] == 'f') return "float" + t.substr(1);
  if (t[0] == 'u') return "uint" + t.substr(2);
  return "int" + t.substr(1);
}
std::string tr::aval_text(const hj::Aval& a) {
  std::string dims;
  for (std::size_t i = 0; i < a.dims.size(); ++i)
    dims += (i ? "," : "") + std::to_string(a.dims[i]);
  return dtype_name(a.dtype) + "[" + dims + "]";
}

namespace {

std::string jax_dtype_name(const std::string& t) { return tr::dtype_name(t); }
std::string aval_text(const Ref& a) { return tr::aval_text(a->aval); }

std::string type_name(const Ref& r) {
  switch (r->k) {
    case K::None:
      return "None";
    case K::Bool:
      return "bool";
    case K::Int:
      return "int";
    case K::Float:
      return "float";
    case K::Str:
      return "str";
    case K::Tuple:
      return "tuple";
    case K::List:
      return "list";
    case K::Ellipsis:
      return "ellipsis";
    case K::Slice:
      return "slice";
    case K::Array:
      return "Array " + aval_text(r);
    case K::Builtin:
      return "function";
    case K::Method:
      return "method";
    case K::DType:
      return "dtype";
    case K::Func:
      return "function";
  }
  return "?";
}

// ---- dtypes (JAX's promotion lattice; x64 as the program set it) --------------------------------

namespace {
bool g_enable_x64 = false;
}  // namespace

int category(const std::string& t) { return t == "i1" ? 0 : hj::is_float(t) ? 2 : 1; }
int bits(const std::string& t) {
  if (t == "i1") return 1;
  std::size_t k = 0;
  while (k < t.size() && !std::isdigit(static_cast<unsigned char>(t[k]))) ++k;
  return std::atoi(t.c_str() + k);
}
// jnp.float_ and jnp.int_ (dtypes.float_, dtypes.int_ canonicalized): the types of Python
// numbers and the defaults of jnp's constructors.
std::string default_float() { return g_enable_x64 ? "f64" : "f32"; }
std::string default_int() { return g_enable_x64 ? "i64" : "i32"; }
std::string canonical(const std::string& t) {
  if (g_enable_x64) return t;
  if (t == "f64") return "f32";
  if (t == "i64") return "i32";
  if (t == "ui64") return "ui32";
  return t;
}

struct DT {
  std::string t;
  bool weak = false;
};

DT promote2(const DT& a, const DT& b) {
  if (a.weak && b.weak) {
    const int c = std::max(category(a.t), category(b.t));
    return {c == 2 ? default_float() : default_int(), true};
  }
  if (a.weak || b.weak) {
    const DT& w = a.weak ? a : b;
    const DT& s = a.weak ? b : a;
    if (category(w.t) <= category(s.t)) return {s.t, false};
    return {category(w.t) == 2 ? default_float() : default_int(), true};
  }
  if (a.t == b.t) return {a.t, false};
  const int ca = category(a.t), cb = category(b.t);
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 2) {
    if ((a.t == "f16" && b.t == "bf16") || (a.t == "bf16" && b.t == "f16")) return {"f32", false};
    return bits(a.t) >= bits(b.t) ? a : b;
  }
  const bool ua = hj::is_unsigned(a.t), ub = hj::is_unsigned(b.t);
  if (ua == ub) return bits(a.t) >= bits(b.t) ? a : b;
  const DT& u = ua ? a : b;
  const DT& i = ua ? b : a;
  if (bits(i.t) > bits(u.t)) return i;
  if (bits(u.t) >= 64) return {default_float(), true};
  return {canonical("i" + std::to_string(std::min(64, bits(u.t) * 2))), false};
}

DT dt_of(const Ref& r) {
  if (r->k == K::Array) return {r->aval.dtype, r->weak};
  if (r->k == K::Bool) return {"i1", false};
  if (r->k == K::Int) return {r->strong.empty() ? default_int() : r->strong, r->strong.empty()};
  return {r->strong.empty() ? default_float() : r->strong, r->strong.empty()};
}

// ---- the names ----------------------------------------------------------------------------------

// The name tables are plain arrays of literals (no static std::map to build at start-up: its
// initializer is code, several kB of the wasm core, where an array is data).
struct NameOp {
  const char* name;
  const char* op;
  bool inexact;  // unary: ints are promoted to float first (jnp), or refused (lax)
};
template <std::size_t N>
const NameOp* find_name(const NameOp (&table)[N], const std::string& name) {
  for (const NameOp& e : table)
    if (name == e.name) return &e;
  return nullptr;
}

// dtype attribute names (jnp.float32, np.int64, ...) → MLIR's element type.
constexpr NameOp kDtypeNames[] = {
    {"bfloat16", "bf16", false}, {"bool_", "i1", false},    {"float16", "f16", false},
    {"float32", "f32", false},   {"float64", "f64", false}, {"float_", "f64", false},
    {"int16", "i16", false},     {"int32", "i32", false},   {"int64", "i64", false},
    {"int8", "i8", false},       {"int_", "i64", false},    {"uint16", "ui16", false},
    {"uint32", "ui32", false},   {"uint64", "ui64", false}, {"uint8", "ui8", false}};
const char* dtype_named(const std::string& name) {
  const NameOp* e = find_name(kDtypeNames, name);
  return e ? e->op : nullptr;
}

// Unary elementwise functions: jnp name → StableHLO op (inexact: ints are promoted to float first).
constexpr NameOp kUnaryOps[] = {{"tanh", "tanh", true},
                                {"exp", "exponential", true},
                                {"log", "log", true},
                                {"sqrt", "sqrt", true},
                                {"sin", "sine", true},
                                {"cos", "cosine", true},
                                {"log1p", "log_plus_one", true},
                                {"expm1", "exponential_minus_one", true},
                                {"abs", "abs", false},
                                {"absolute", "abs", false},
                                {"sign", "sign", false},
                                {"negative", "negate", false},
                                {"floor", "floor", true},
                                {"ceil", "ceil", true},
                                {"rsqrt", "rsqrt", true},
                                {"tan", "chlo.tan", true},
                                {"sinh", "chlo.sinh", true},
                                {"cosh", "chlo.cosh", true},
                                {"arctan", "chlo.atan", true},
                                {"arcsin", "chlo.asin", true},
                                {"arccos", "acos", true},
                                {"logistic", "logistic", true}};

// lax's elementwise functions: name → StableHLO op. Unary: whether only floats are accepted.
constexpr NameOp kLaxUnary[] = {{"tanh", "tanh", true},
                                {"exp", "exponential", true},
                                {"log", "log", true},
                                {"sqrt", "sqrt", true},
                                {"sin", "sine", true},
                                {"cos", "cosine", true},
                                {"tan", "chlo.tan", true},
                                {"log1p", "log_plus_one", true},
                                {"expm1", "exponential_minus_one", true},
                                {"floor", "floor", true},
                                {"ceil", "ceil", true},
                                {"logistic", "logistic", true},
                                {"rsqrt", "rsqrt", true},
                                {"abs", "abs", false},
                                {"neg", "negate", false},
                                {"sign", "sign", false},
                                {"bitwise_not", "not", false},
                                {"is_finite", "is_finite", true},
                                {"population_count", "popcnt", false},
                                {"sinh", "chlo.sinh", true},
                                {"cosh", "chlo.cosh", true},
                                {"atan", "chlo.atan", true},
                                {"asin", "chlo.asin", true},
                                {"acos", "acos", true},  // acos_impl's expansion (unary_fn)
                                {"erf", "chlo.erf", true},
                                {"erf_inv", "chlo.erf_inv", true},
                                {"lgamma", "chlo.lgamma", true},
                                {"digamma", "chlo.digamma", true},
                                {"bessel_i1e", "chlo.bessel_i1e", true}};
constexpr NameOp kLaxBinary[] = {{"add", "add", false},
                                 {"sub", "subtract", false},
                                 {"mul", "multiply", false},
                                 {"div", "divide", false},
                                 {"rem", "remainder", false},
                                 {"pow", "power", false},
                                 {"max", "maximum", false},
                                 {"min", "minimum", false},
                                 {"atan2", "atan2", false},
                                 {"nextafter", "chlo.next_after", false},
                                 {"bitwise_and", "and", false},
                                 {"bitwise_or", "or", false},
                                 {"bitwise_xor", "xor", false},
                                 {"shift_left", "shift_left", false},
                                 {"shift_right_arithmetic", "shift_right_arithmetic", false},
                                 {"shift_right_logical", "shift_right_logical", false},
                                 {"eq", "compare EQ", false},
                                 {"ne", "compare NE", false},
                                 {"lt", "compare LT", false},
                                 {"le", "compare LE", false},
                                 {"gt", "compare GT", false},
                                 {"ge", "compare GE", false}};

const std::vector<std::string>& names_list() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> out = {"jnp.matmul",
                                    "jnp.dot",
                                    "jnp.maximum",
                                    "jnp.minimum",
                                    "jnp.add",
                                    "jnp.subtract",
                                    "jnp.multiply",
                                    "jnp.divide",
                                    "jnp.true_divide",
                                    "jnp.power",
                                    "jnp.where",
                                    "jnp.sum",
                                    "jnp.mean",
                                    "jnp.max",
                                    "jnp.min",
                                    "jnp.reshape",
                                    "jnp.transpose",
                                    "jnp.square",
                                    "jnp.zeros",
                                    "jnp.ones",
                                    "jnp.full",
                                    "jnp.arange",
                                    "jnp.array",
                                    "jnp.asarray",
                                    "jnp.zeros_like",
                                    "jnp.ones_like",
                                    "jnp.concatenate",
                                    "jnp.stack",
                                    "jnp.expand_dims",
                                    "jnp.squeeze",
                                    "jnp.swapaxes",
                                    "jnp.broadcast_to",
                                    "jnp.flip",
                                    "jnp.fliplr",
                                    "jnp.flipud",
                                    "jnp.roll",
                                    "jnp.split",
                                    "jnp.array_split",
                                    "jnp.tile",
                                    "jnp.pad",
                                    "jnp.prod",
                                    "jnp.clip",
                                    "jnp.var",
                                    "jnp.std",
                                    "jnp.outer",
                                    "jnp.argmax",
                                    "jnp.argmin",
                                    "jnp.cumsum",
                                    "jnp.cumprod",
                                    "jnp.einsum",
                                    "jnp.eye",
                                    "jnp.tril",
                                    "jnp.sort",
                                    "jnp.argsort",
                                    "jnp.round",
                                    "jnp.around",
                                    "jnp.triu",
                                    "jnp.floor_divide",
                                    "jnp.remainder",
                                    "jnp.mod",
                                    "jnp.ravel",
                                    "jax.nn.one_hot",
                                    "lax.argmax",
                                    "lax.argmin",
                                    "lax.cumsum",
                                    "lax.cumprod",
                                    "lax.cummax",
                                    "lax.cummin",
                                    "jax.nn.relu",
                                    "jax.nn.sigmoid",
                                    "jax.nn.silu",
                                    "jax.nn.softmax",
                                    "jax.nn.log_softmax",
                                    "jax.nn.logsumexp",
                                    "jax.nn.gelu",
                                    "jax.scipy.special.logsumexp",
                                    "lax.dot_general",
                                    "lax.dynamic_slice",
                                    "lax.dynamic_update_slice",
                                    "lax.pad",
                                    "lax.scatter",
                                    "lax.scatter_add",
                                    "lax.scatter_mul",
                                    "lax.scatter_min",
                                    "lax.scatter_max",
                                    "lax.ScatterDimensionNumbers",
                                    "lax.bitcast_convert_type",
                                    "lax.reduce_precision",
                                    "lax.fori_loop",
                                    "lax.stop_gradient",
                                    "jax.jit",
                                    "jax.ShapeDtypeStruct",
                                    "np.zeros",
                                    "np.ones",
                                    "np.arange"};
    for (const NameOp& e : kUnaryOps)
      if (std::strcmp(e.name, "logistic") != 0) out.push_back(std::string("jnp.") + e.name);
    for (const NameOp& e : kLaxUnary) out.push_back(std::string("lax.") + e.name);
    for (const NameOp& e : kLaxBinary) out.push_back(std::string("lax.") + e.name);
    for (const char* l : {"reduce_sum",
                          "reduce_max",
                          "reduce_min",
                          "reduce_prod",
                          "reduce_and",
                          "reduce_or",
                          "reduce_xor",
                          "convert_element_type",
                          "clamp",
                          "select_n",
                          "transpose",
                          "reshape",
                          "squeeze",
                          "top_k",
                          "sort",
                          "slice",
                          "round",
                          "concatenate",
                          "broadcast_in_dim",
                          "integer_pow",
                          "reduce_window",
                          "conv_general_dilated",
                          "conv",
                          "rev"})
      out.push_back(std::string("lax.") + l);
    for (const NameOp& e : kDtypeNames) out.push_back(std::string("jnp.") + e.name);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return v;
}

bool known_name(const std::string& q) {
  const auto& v = names_list();
  return std::binary_search(v.begin(), v.end(), q);
}

std::string supported_in(const std::string& prefix) {
  std::string out;
  for (const auto& n : names_list())
    if (n.compare(0, prefix.size() + 1, prefix + ".") == 0) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// ---- the interpreter ---------------------------------------------------------------------------

struct Fail {
  Error e;
  template <class T>
  [[gnu::noinline]] operator Result<T>() && {  // NOLINT: return Fail{...} for any Result
    return Result<T>::failure(std::move(e));
  }
};

// A failed Result passed on (UNWRAP's error path): one out-of-line copy per type instead of the
// error's copy written out at each of the tracer's hundreds of UNWRAPs.
template <class T>
[[gnu::noinline]] Fail pass_on(const Result<T>& r) {
  return Fail{r.error_info()};
}

#define UNWRAP(var, expr)                    \
  auto var##_res = (expr);                   \
  if (!var##_res) return pass_on(var##_res); \
  auto var = std::move(var##_res.value())

struct Args {
  std::vector<Ref> pos;
  std::vector<std::pair<std::string, Ref>> kw;
  Ref get(std::size_t i, const char* name) const {
    if (i < pos.size()) return pos[i];
    for (auto& [k, v] : kw)
      if (k == name) return v;
    return nullptr;
  }
};

// The tracer's rules, over one lowering: the emitter of the function being traced (null: a
// lowering run's top level, whose arrays are abstract), its trace levels, and the result.
struct Interp {
  std::unique_ptr<hj::Emitter> em;
  std::vector<int> fn_stack;  // emitter function of the current trace level (0: main)
  Lowered result;

  // A rule's refusal: the message alone (the driving evaluator knows where it is).
  Fail fail(const std::string& m) const { return Fail{Error{m, "", 0, 0}}; }
  // A refusal JAX raises as another exception than TypeError (tr::refusal reads it back).
  Fail fail_as(const char* type, const std::string& m) const { return fail(type + (": " + m)); }
  bool tracing() const { return em != nullptr; }

  // ---- arrays ----
  Ref new_array(const hj::Aval& a, bool weak) {
    auto r = mk(K::Array);
    r->aval = a;
    r->aval.dtype = canonical(a.dtype);
    r->weak = weak;
    return r;
  }
  Ref traced(hj::Value v, bool weak) {
    auto r = mk(K::Array);
    r->aval = em->aval(v);
    r->weak = weak;
    r->traced = true;
    r->v = v;
    r->fn = fn_stack.back();
    r->epoch = epoch_of(r->fn);
    return r;
  }
  // A Python scalar used where an array is wanted (JAX: a weakly typed literal).
  Ref literal(const Ref& s, const std::string& dtype) {
    auto r = mk(K::Array);
    const DT d = dt_of(s);
    r->aval = {{}, dtype.empty() ? d.t : dtype};
    r->weak = d.weak;
    r->literal = true;
    r->lit = scalar_value(s);
    return r;
  }
  Result<Ref> as_array(const Ref& x, const std::string& fn) {
    if (x->k == K::Array) return Result<Ref>::success(x);
    if (is_pyscalar(x)) return Result<Ref>::success(literal(x, ""));
    if ((x->k == K::Tuple || x->k == K::List) && !x->items.empty()) {
      return fail(fn +
                  ": lists and tuples as arrays are not supported here; build arrays with "
                  "jnp.zeros, jnp.ones or "
                  "jnp.arange, or pass them as arguments");
    }
    return fail(fn + " requires ndarray or scalar arguments, got " + type_name(x));
  }
  // The emitted value of an array operand (a literal becomes a constant here).
  Result<hj::Value> value_of(const Ref& a) {
    if (a->literal) {
      // A Python int as an integer array must fit its dtype (JAX: OverflowError).
      const std::string& t = a->aval.dtype;
      if (!hj::is_float(t) && t != "i1") {
        const int b = bits(t);
        const bool u = hj::is_unsigned(t);
        const double lo = u ? 0 : -std::ldexp(1.0, b - 1), hi = std::ldexp(1.0, u ? b : b - 1);
        if (a->lit < lo || a->lit >= hi) {
          char v[32];
          std::snprintf(v, sizeof v, "%.0f", a->lit);
          return fail_as("OverflowError", std::string("Python int ") + v +
                                              " too large to convert to " + jax_dtype_name(t));
        }
      }
      return Result<hj::Value>::success(em->constant(a->lit, {{}, t}));
    }
    // A value of a trace that has ended (a loop's body, a jitted helper) kept by a side effect:
    // JAX's UnexpectedTracerError, in its words (the notebook raises it by them).
    const bool enclosing = std::find(fn_stack.begin(), fn_stack.end(), a->fn) != fn_stack.end();
    if (a->traced && (a->epoch != epoch_of(a->fn) || !enclosing))
      return fail_as(
          "UnexpectedTracerError",
          "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
          "allowing for a reference to "
          "an intermediate value with type " +
              aval_text(a) +
              " wrapped in a DynamicJaxprTracer to escape the scope of the transformation. "
              "JAX transformations require that functions explicitly return their outputs, "
              "and disallow saving intermediate values to global state.");
    if (a->traced && a->fn != fn_stack.back() && !captures.empty() &&
        captures.back().fn == fn_stack.back())
      return capture(a);
    if (!a->traced || a->fn != fn_stack.back())
      return fail_as(
          "NotImplementedError",
          "an array from outside the traced function (" + aval_text(a) +
              ") would be a constant baked into the program; pass it as an argument instead "
              "(not supported here)");
    return Result<hj::Value>::success(a->v);
  }
  // convert_element_type: a no-op when the dtype is already right.
  // A literal's is folded (a constant of the new type where used); a traced value's is an op,
  // an identity `stablehlo.convert %x : T` when only the weak type changes (JAX binds
  // convert_element_type then: its forwarding rule needs dtype and weak type both unchanged).
  Result<Ref> convert(const Ref& a, const std::string& dtype, bool weak) {
    const std::string t = canonical(dtype);
    if (a->aval.dtype == t && a->weak == weak) return Result<Ref>::success(a);
    if (a->aval.dtype == t && (a->literal || !tracing() || !a->traced)) {
      auto c = std::make_shared<Obj>(*a);
      c->weak = weak;
      return Result<Ref>::success(c);
    }
    if (a->literal) {
      auto c = std::make_shared<Obj>(*a);
      c->aval.dtype = t;
      c->weak = weak;
      if (!hj::is_float(t)) c->lit = t == "i1" ? (c->lit != 0) : std::trunc(c->lit);
      return Result<Ref>::success(c);
    }
    if (!tracing()) return Result<Ref>::success(new_array({a->aval.dims, t}, weak));
    UNWRAP(v, value_of(a));
    return Result<Ref>::success(traced(em->convert(v, t), weak));
  }

  // lax.broadcast_shapes with JAX's message.
  Result<std::vector<std::int64_t>> broadcast_shapes(const std::vector<Ref>& xs) {
    std::size_t rank = 0;
    for (auto& x : xs) rank = std::max(rank, x->aval.dims.size());
    std::vector<std::int64_t> out(rank, 1);
    for (auto& x : xs) {
      const auto& d = x->aval.dims;
      for (std::size_t k = 0; k < d.size(); ++k) {
        std::int64_t& o = out[rank - d.size() + k];
        if (d[k] == o || d[k] == 1) continue;
        if (o == 1) {
          o = d[k];
          continue;
        }
        std::string shapes;
        for (std::size_t j = 0; j < xs.size(); ++j)
          shapes += (j ? ", " : "") + shape_text(xs[j]->aval.dims);
        return fail_as("ValueError",
                       "Incompatible shapes for broadcasting: shapes=[" + shapes + "]");
      }
    }
    UNWRAP(okshape, check_shape(out, "broadcasting"));
    (void)okshape;
    return Result<std::vector<std::int64_t>>::success(out);
  }

  // lax.broadcast_in_dim as a staged primitive (a literal operand becomes a constant first).
  Result<Ref> broadcast_in_dim(const Ref& a, const std::vector<std::int64_t>& shape,
                               const std::vector<std::int64_t>& dims) {
    if (!tracing()) return Result<Ref>::success(new_array({shape, a->aval.dtype}, a->weak));
    UNWRAP(v, value_of(a));
    return Result<Ref>::success(traced(em->broadcast_in_dim(v, shape, dims), a->weak));
  }

  // The axes an `axis` argument names (an int or a sequence of ints), canonicalized; all of them
  // for None.
  Result<std::vector<std::int64_t>> axes_arg(const Ref& axis, std::size_t nd,
                                             const std::string& q) {
    std::vector<std::int64_t> out;
    if (!axis || axis->k == K::None) {
      for (std::size_t k = 0; k < nd; ++k) out.push_back(std::int64_t(k));
      return Result<std::vector<std::int64_t>>::success(out);
    }
    UNWRAP(given, int_list(axis, q + ": axis"));
    for (auto g : given) {
      UNWRAP(c, canonical_axis(g, nd));
      out.push_back(c);
    }
    return Result<std::vector<std::int64_t>>::success(out);
  }
  // lax.slice_in_dim: x[start:limit] along `axis`, whole along the others.
  Result<Ref> slice_in_dim(const Ref& x, std::int64_t start, std::int64_t limit,
                           std::int64_t axis) {
    std::vector<std::int64_t> starts(x->aval.dims.size(), 0), limits = x->aval.dims,
                                                              strides(x->aval.dims.size(), 1);
    starts[std::size_t(axis)] = start;
    limits[std::size_t(axis)] = limit;
    return lax_slice(x, starts, limits, strides);
  }

  // jnp.flip (fliplr: axis 1, flipud: axis 0): JAX's jitted _flip, a private @_flip per static
  // axis, whose body is lax.rev of the axes in the order given (all for None).
  // The static axis is reductions._ensure_optional_axes's: None, an int, or a tuple of ints (a
  // list and a tuple are one function; -1 and 1 two). lax.rev binds even with no axes.
  Result<Ref> jnp_flip(const Ref& x, const Ref& axis) {
    UNWRAP(dims, axes_arg(axis, x->aval.dims.size(), "jnp.flip"));
    std::string key = "None";
    if (axis && axis->k == K::Int) {
      key = std::to_string(axis->i);
    } else if (axis && axis->k != K::None) {
      UNWRAP(given, int_list(axis, "jnp.flip: axis"));
      key = shape_text(given);
    }
    auto body = [&](const std::vector<Ref>& in) { return rev(in[0], dims); };
    if (!tracing()) return body({x});
    return call_jitted_private("_flip", {x}, body, "axis=" + key);
  }

  // jnp.roll with static shifts: JAX's jitted _roll_static (a private @_roll_static per static
  // shift and axis) — for each (axis, shift), i = -shift mod n, the slices [i:n] and [0:i]
  // concatenated (an axis of size 0 skipped); axis None rolls the flattened array (reshapes
  // around the call).
  Result<Ref> jnp_roll(const std::string& q, const Ref& x, const Ref& shift, const Ref& axis) {
    if (!axis || axis->k == K::None) {
      std::int64_t n = 1;
      for (auto d : x->aval.dims) n *= d;
      UNWRAP(flat, reshape(x, {n}));
      UNWRAP(r, jnp_roll(q, flat, shift, mk_int(0)));
      return reshape(r, x->aval.dims);
    }
    if (shift->k == K::Array)
      return fail_as("NotImplementedError",
                     q + " with a traced shift (a dynamic_slice in JAX) is not supported here");
    UNWRAP(shifts, int_list(shift, q + ": shift"));
    UNWRAP(axes, axes_arg(axis, x->aval.dims.size(), q));
    // np.broadcast_arrays(axis, shift)
    if (shifts.size() != axes.size() && shifts.size() != 1 && axes.size() != 1)
      return fail_as("ValueError",
                     "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                     "is between arg 0 with shape (" +
                         std::to_string(axes.size()) + ",) and arg 1 with shape (" +
                         std::to_string(shifts.size()) + ",).");
    const std::size_t n = std::max(shifts.size(), axes.size());
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      Ref a = in[0];
      for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t ax = axes[axes.size() == 1 ? 0 : k];
        const std::int64_t s = shifts[shifts.size() == 1 ? 0 : k];
        const std::int64_t size = a->aval.dims[std::size_t(ax)];
        if (size == 0) continue;
        const std::int64_t i = ((-s) % size + size) % size;
        UNWRAP(hi, slice_in_dim(a, i, size, ax));
        UNWRAP(lo, slice_in_dim(a, 0, i, ax));
        if (!tracing()) continue;
        UNWRAP(hv, value_of(hi));
        UNWRAP(lv, value_of(lo));
        a = traced(em->concatenate({hv, lv}, ax), a->weak);
      }
      return Result<Ref>::success(a);
    };
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    // The static arguments as roll passes them: the shifts and the canonical axes, as tuples.
    return call_jitted_private("_roll_static", {x}, body,
                               "shift=" + shape_text(shifts) + ",axis=" + shape_text(axes));
  }

  // jnp.split / jnp.array_split (_split): the boundaries from a section count (an unequal split
  // is split's ValueError; array_split gives the first pieces one more) or a list of indices, one
  // lax.slice per piece along the axis, whole along the others; a list of the pieces.
  Result<Ref> jnp_split(const std::string& op, const Ref& x, const Ref& sections,
                        const Ref& axis0) {
    const std::string q = "jnp." + op;
    if (axis0->k != K::Int) return fail(q + ": axis must be an int, got " + type_name(axis0));
    // ary.shape[axis], as Python indexes a tuple.
    const std::int64_t nd = std::int64_t(x->aval.dims.size());
    if (axis0->i < -nd || axis0->i >= nd) return fail_as("IndexError", "tuple index out of range");
    const std::int64_t axis = axis0->i < 0 ? axis0->i + nd : axis0->i;
    const std::int64_t size = x->aval.dims[std::size_t(axis)];
    std::vector<std::int64_t> bounds;
    if (sections->k == K::Tuple || sections->k == K::List) {
      UNWRAP(idx, int_list(sections, q + ": indices_or_sections"));
      bounds.push_back(0);
      bounds.insert(bounds.end(), idx.begin(), idx.end());
      bounds.push_back(size);
    } else if (sections->k == K::Int) {
      const std::int64_t n = sections->i;
      if (n == 0) return fail_as("ZeroDivisionError", "integer division or modulo by zero");
      // Python's divmod (floor): a negative count gives no pieces.
      std::int64_t part = size / n, r = size % n;
      if (r != 0 && ((r < 0) != (n < 0))) {
        r += n;
        --part;
      }
      if (r == 0) {
        for (std::int64_t i = 0; i <= n; ++i) bounds.push_back(i * part);
        if (n < 0) bounds.clear();
      } else if (op == "array_split") {
        for (std::int64_t i = 0; i <= r; ++i) bounds.push_back(i * (part + 1));
        for (std::int64_t i = 0; i < n - r; ++i)
          bounds.push_back(i * part + ((r + 1) * (part + 1) - 1));
      } else {
        return fail_as("ValueError", "array split does not result in an equal division: rest is " +
                                         std::to_string(r));
      }
    } else {
      return fail(q + ": indices_or_sections must be an int or a list of ints, got " +
                  type_name(sections));
    }
    std::vector<Ref> pieces;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
      UNWRAP(p, slice_in_dim(x, bounds[k], bounds[k + 1], axis));
      pieces.push_back(p);
    }
    return Result<Ref>::success(mk_tuple(pieces, K::List));
  }

  // jnp.tile: A reshaped to [1, d0, 1, d1, ...] (ones prepended to A's shape or to reps to one
  // length), broadcast_to [r0, d0, r1, d1, ...], reshaped to the product.
  Result<Ref> jnp_tile(const std::string& q, const Ref& x, const Ref& reps_r) {
    UNWRAP(reps, int_list(reps_r, q + ": reps"));
    std::vector<std::int64_t> shape = x->aval.dims;
    if (reps.size() > shape.size()) shape.insert(shape.begin(), reps.size() - shape.size(), 1);
    if (shape.size() > reps.size()) reps.insert(reps.begin(), shape.size() - reps.size(), 1);
    std::vector<std::int64_t> spread, grown, out;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      spread.push_back(1);
      spread.push_back(shape[k]);
      grown.push_back(reps[k]);
      grown.push_back(shape[k]);
      out.push_back(shape[k] * reps[k]);
    }
    UNWRAP(a, reshape(x, spread));
    UNWRAP(b, broadcast_to(a, grown));
    return reshape(b, out);
  }

  // jnp.pad with mode 'constant' and a scalar constant_values: JAX's jitted _pad (a private @_pad
  // per static pad_width, taking the array and the value), whose body converts the value to the
  // array's dtype and pads (lax.pad, no interior). pad_width: p, (p,), (lo, hi), ((lo, hi),) or
  // one (lo, hi) per axis.
  Result<Ref> jnp_pad(const std::string& q, const Ref& x, const Ref& width, const Ref& cv0) {
    const std::size_t nd = x->aval.dims.size();
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    auto as_int = [&](const Ref& e, std::int64_t* v) {
      if (e->k != K::Int) return false;
      *v = e->i;
      return true;
    };
    std::int64_t p = 0, lo = 0, hi = 0;
    const bool seq = width->k == K::Tuple || width->k == K::List;
    const std::string shape_msg =
        "jnp.pad: pad_width with nd=" + std::to_string(nd) + " has unsupported shape";
    if (as_int(width, &p)) {
      pairs.assign(nd, {p, p});
    } else if (seq && width->items.size() == 1 && as_int(width->items[0], &p)) {
      pairs.assign(nd, {p, p});
    } else if (seq && width->items.size() == 2 && as_int(width->items[0], &lo) &&
               as_int(width->items[1], &hi)) {
      pairs.assign(nd, {lo, hi});
    } else if (seq) {
      for (const Ref& e : width->items) {
        if ((e->k != K::Tuple && e->k != K::List) || e->items.size() != 2 ||
            !as_int(e->items[0], &lo) || !as_int(e->items[1], &hi))
          return fail(q +
                      ": pad_width must be an int, (before, after) or one (before, after) "
                      "pair per axis, got " +
                      type_name(width));
        pairs.push_back({lo, hi});
      }
      if (pairs.size() == 1) pairs.assign(nd, pairs[0]);
      if (pairs.size() != nd)
        return fail_as("ValueError", shape_msg + " (" + std::to_string(pairs.size()) +
                                         ", 2). Valid shapes are (" + std::to_string(nd) +
                                         ", 2), (1, 2), (2,), (1,), or ().");
    } else {
      return fail(q + ": pad_width must be an int or a tuple of ints, got " + type_name(width));
    }
    for (auto& [l, h] : pairs)
      if (l < 0 || h < 0) return fail_as("ValueError", "index can't contain negative values");
    UNWRAP(cv, as_array(cv0, q));
    if (!cv->aval.dims.empty())
      return fail_as("NotImplementedError",
                     q + ": constant_values other than a scalar are not supported here");
    std::string key = "pad_width=";
    for (auto& [l, h] : pairs) key += std::to_string(l) + ":" + std::to_string(h) + ",";
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      if (nd == 0) return Result<Ref>::success(in[0]);  // _pad returns a 0-d array as it is
      UNWRAP(v, convert(in[1], in[0]->aval.dtype, in[0]->weak));
      std::vector<std::int64_t> low, high, interior(nd, 0);
      std::vector<std::int64_t> out;
      for (std::size_t d = 0; d < nd; ++d) {
        low.push_back(pairs[d].first);
        high.push_back(pairs[d].second);
        out.push_back(in[0]->aval.dims[d] + pairs[d].first + pairs[d].second);
      }
      if (!tracing()) return Result<Ref>::success(new_array({out, in[0]->aval.dtype}, in[0]->weak));
      UNWRAP(xv, value_of(in[0]));
      UNWRAP(vv, value_of(v));
      return Result<Ref>::success(traced(em->pad(xv, vv, low, high, interior), in[0]->weak));
    };
    if (!tracing()) return body({x, cv});
    return call_jitted_private("_pad", {x, cv}, body, key);
  }

  // jnp.broadcast_to (util._broadcast_to): nothing when the shape is already `shape`; else the
  // axes of size 1 that grow squeezed (lax.squeeze: a reshape), then a broadcast_in_dim.
  Result<Ref> broadcast_to(const Ref& x, const std::vector<std::int64_t>& shape) {
    const auto& d = x->aval.dims;
    if (shape.size() < d.size())
      return fail_as("ValueError", "Cannot broadcast to shape with fewer dimensions: arr_shape=" +
                                       shape_text(d) + " shape=" + shape_text(shape));
    bool ok = true;
    for (std::size_t k = 0; ok && k < d.size(); ++k) {
      const std::int64_t want = shape[shape.size() - d.size() + k];
      ok = d[k] == want || d[k] == 1;
    }
    if (!ok)
      return fail_as("ValueError", "Incompatible shapes for broadcasting: " + shape_text(d) +
                                       " and requested shape " + shape_text(shape));
    if (shape == d) return Result<Ref>::success(x);
    for (auto e : shape)
      if (e < 0)
        return fail("broadcast_in_dim shape must have every element be nonnegative, got " +
                    shape_text(shape) + ".");
    const std::size_t lead = shape.size() - d.size();
    std::vector<std::int64_t> squeezed, kept;
    for (std::size_t k = 0; k < d.size(); ++k)
      if (d[k] == shape[lead + k]) {
        squeezed.push_back(d[k]);
        kept.push_back(std::int64_t(lead + k));
      }
    Ref y = x;
    if (squeezed.size() != d.size()) {
      UNWRAP(r, reshape(x, squeezed));
      y = r;
    }
    return broadcast_in_dim(y, shape, kept);
  }

  // jnp's promote_args: dtypes (converts), then ranks (broadcast_to_rank when two nonscalar ranks
  // differ). `inexact`: ints and bools are promoted to float first (jnp's promote_args_inexact).
  Result<std::vector<Ref>> promote_args(const std::string& fn, std::vector<Ref> xs, bool inexact) {
    for (auto& x : xs) {
      UNWRAP(a, as_array(x, fn));
      x = a;
    }
    DT d = dt_of(xs[0]);
    for (std::size_t i = 1; i < xs.size(); ++i) d = promote2(d, dt_of(xs[i]));
    // jnp's to_inexact_dtype: ints and bools up to 32 bits become float32, 64-bit ints float64.
    if (inexact && category(d.t) != 2) d = {canonical(bits(d.t) == 64 ? "f64" : "f32"), d.weak};
    for (auto& x : xs) {
      UNWRAP(c, convert(x, d.t, d.weak));
      x = c;
    }
    std::set<std::size_t> ranks;
    for (auto& x : xs)
      if (!x->aval.dims.empty()) ranks.insert(x->aval.dims.size());
    if (ranks.size() >= 2) {
      UNWRAP(shape, broadcast_shapes(xs));
      const std::size_t r = shape.size();
      for (auto& x : xs) {
        const std::size_t n = x->aval.dims.size();
        if (n == r) continue;
        std::vector<std::int64_t> to(r - n, 1), dims;
        for (auto dd : x->aval.dims) to.push_back(dd);
        for (std::size_t k = 0; k < n; ++k) dims.push_back(std::int64_t(r - n + k));
        UNWRAP(b, broadcast_in_dim(x, to, dims));
        x = b;
      }
    }
    return Result<std::vector<Ref>>::success(std::move(xs));
  }

  // A lax n-ary elementwise primitive on promoted operands: operands are read (literals become
  // constants), those of another shape are broadcast (mlir.multi_broadcast_in_dim), then the op.
  Result<Ref> nary(const std::string& op, const std::vector<Ref>& xs,
                   const std::string& out_dtype = "") {
    UNWRAP(shape, broadcast_shapes(xs));
    const bool weak = std::all_of(xs.begin(), xs.end(), [](const Ref& x) { return x->weak; });
    const std::string t = !out_dtype.empty()                 ? out_dtype
                          : op == "select" && xs.size() == 3 ? xs[1]->aval.dtype
                                                             : xs[0]->aval.dtype;
    if (!tracing()) return Result<Ref>::success(new_array({shape, t}, out_dtype.empty() && weak));
    std::vector<hj::Value> vs;
    for (auto& x : xs) {
      UNWRAP(v, value_of(x));
      vs.push_back(v);
    }
    for (std::size_t k = 0; k < xs.size(); ++k) {
      if (xs[k]->aval.dims == shape) continue;
      const std::size_t n = xs[k]->aval.dims.size();
      std::vector<std::int64_t> dims;
      for (std::size_t j = 0; j < n; ++j) dims.push_back(std::int64_t(shape.size() - n + j));
      vs[k] = em->broadcast_in_dim(vs[k], shape, dims);
    }
    hj::Value r;
    if (op == "select")
      r = em->select(vs[0], vs[1], vs[2]);
    else if (op.compare(0, 8, "compare ") == 0)
      r = em->compare(op.substr(8), vs[0], vs[1]);
    else if (vs.size() == 1)
      r = em->unary(op, vs[0]);
    else
      r = em->binary(op, vs[0], vs[1]);
    return Result<Ref>::success(traced(r, out_dtype.empty() && weak));
  }

  Result<Ref> binary_fn(const std::string& fn, const std::string& op, const Ref& a, const Ref& b,
                        bool inexact = false) {
    UNWRAP(xs, promote_args(fn, {a, b}, inexact));
    return nary(op, xs);
  }
  Result<Ref> compare_fn(const std::string& fn, const std::string& dir, const Ref& a,
                         const Ref& b) {
    UNWRAP(xs, promote_args(fn, {a, b}, false));
    return nary("compare " + dir, xs, "i1");
  }
  Result<Ref> unary_fn(const std::string& fn, const std::string& op, const Ref& x, bool inexact) {
    UNWRAP(xs, promote_args(fn, {x}, inexact));
    if (op == "abs" || op == "negate" || op == "sign") {
      if (xs[0]->aval.dtype == "i1") return fail(fn + " does not accept dtype bool");
    }
    // StableHLO's abs and sign take no unsigned integer (the op table's types column): as JAX,
    // jnp.absolute gives an unsigned array itself, and lax.sign lowers to x == 0 ? 0 : 1.
    const std::string t = xs[0]->aval.dtype;
    if (hj::is_unsigned(t) && op == "abs") return Result<Ref>::success(xs[0]);
    if (hj::is_unsigned(t) && op == "sign") {
      if (!tracing()) return nary(op, xs);  // the shape only
      // JAX's order: zeros, the compare, zeros and ones, the select.
      UNWRAP(v, value_of(xs[0]));
      const std::vector<std::int64_t>& dims = xs[0]->aval.dims;
      auto full = [&](int k) { return em->broadcast_in_dim(em->constant(k, {{}, t}), dims, {}); };
      const hj::Value zero = full(0);
      const hj::Value eq = em->compare("EQ", v, zero);
      const hj::Value zeros = full(0);
      const hj::Value ones = full(1);
      return Result<Ref>::success(traced(em->select(eq, zeros, ones), false));
    }
    if (op == "acos" && tracing()) {
      // lax.acos lowers through acos_impl: x != -1 ? 2 * atan2(sqrt(1 - x*x), 1 + x) : pi, each
      // constant made where it is used.
      UNWRAP(v, value_of(xs[0]));
      const std::vector<std::int64_t>& dims = xs[0]->aval.dims;
      auto full = [&](double c) {
        const hj::Value k = em->constant(c, {{}, t});
        return dims.empty() ? k : em->broadcast_in_dim(k, dims, {});
      };
      const hj::Value ne = em->compare("NE", v, full(-1));
      const hj::Value sq = em->binary("multiply", v, v);
      const hj::Value root = em->unary("sqrt", em->binary("subtract", full(1), sq));
      const hj::Value at = em->binary("atan2", root, em->binary("add", full(1), v));
      const hj::Value twice = em->binary("multiply", full(2), at);
      const hj::Value pi = full(3.141592653589793);
      return Result<Ref>::success(traced(em->select(ne, twice, pi), xs[0]->weak));
    }
    if (op == "logistic" && tracing()) {
      // lax.logistic lowers through logistic_impl, 1 / (1 + exp(-x)) (the corpus's JAX; its
      // LogisticOp lowering is a TODO there): neg, exp, then each 1 made where it is used.
      UNWRAP(v, value_of(xs[0]));
      const std::vector<std::int64_t>& dims = xs[0]->aval.dims;
      auto one = [&]() {
        const hj::Value c = em->constant(1, {{}, t});
        return dims.empty() ? c : em->broadcast_in_dim(c, dims, {});
      };
      const hj::Value e = em->unary("exponential", em->unary("negate", v));
      const hj::Value sum = em->binary("add", one(), e);
      return Result<Ref>::success(traced(em->binary("divide", one(), sum), xs[0]->weak));
    }
    return nary(op, xs);
  }

  // lax.integer_pow's lowering (2 and 3 directly, -1 as 1/x, others by squaring).
  Result<Ref> integer_pow(const Ref& x0, std::int64_t y) {
    if (y == INT64_MIN)
      return fail("integer_pow: the exponent " + std::to_string(y) +
                  " is past 64 bits when negated");
    UNWRAP(xs, promote_args("power", {x0}, false));
    Ref x = xs[0];
    if (x->aval.dtype == "i1") {  // jnp.power's promote_dtypes_numeric: bool to int_
      UNWRAP(xi, convert(x, default_int(), x->weak));
      x = xi;
    }
    if (y < 0 && !hj::is_float(x->aval.dtype))  // lax's _integer_pow_dtype_rule
      return fail_as("TypeError",
                     "Integers cannot be raised to negative powers, got "
                     "integer_pow(" +
                         aval_text(x) + ", " + std::to_string(y) + ")");
    if (!tracing() || y == 1)
      return Result<Ref>::success(tracing() ? x : new_array(x->aval, x->weak));
    UNWRAP(v, value_of(x));
    auto ones = [&](const hj::Aval& a) {
      return em->broadcast_in_dim(em->constant(1, {{}, a.dtype}), a.dims, {});
    };
    hj::Value r;
    if (y == 2)
      r = em->binary("multiply", v, v);
    else if (y == 3)
      r = em->binary("multiply", em->binary("multiply", v, v), v);
    else if (y == -1)
      r = em->binary("divide", ones(x->aval), v);
    else if (y == 0)
      r = ones(x->aval);
    else if (y >= 4 || y <= -3) {
      // _integer_pow_lowering caches the general case for |y| >= 3 (mlir.cache_lowering): a
      // private @integer_pow of the exponent.
      auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
        UNWRAP(iv, value_of(in[0]));
        return Result<Ref>::success(traced(pow_by_squaring(iv, y, in[0]->aval), in[0]->weak));
      };
      return call_jitted_private("integer_pow", {x}, body, "y:" + std::to_string(y));
    } else {  // y == -2, inline: 1 / (x * x)
      const hj::Value sq = em->binary("multiply", v, v);
      r = em->binary("divide", ones(x->aval), sq);
    }
    return Result<Ref>::success(traced(r, x->weak));
  }

  // lax's _integer_pow: x^|y| by repeated squaring (the partial product taken where y's bit is
  // set, the base squared while bits remain), then 1 / acc for y < 0.
  hj::Value pow_by_squaring(hj::Value v, std::int64_t y, const hj::Aval& a) {
    std::int64_t n = y < 0 ? -y : y;
    hj::Value acc, base = v;
    bool have = false;
    while (n > 0) {
      if (n & 1) acc = have ? em->binary("multiply", acc, base) : base, have = true;
      n >>= 1;
      if (n > 0) base = em->binary("multiply", base, base);
    }
    if (y >= 0) return acc;
    hj::Value one = em->constant(1, {{}, a.dtype});
    if (!a.dims.empty()) one = em->broadcast_in_dim(one, a.dims, {});
    return em->binary("divide", one, acc);
  }

  // ---- shapes ----
  Result<std::int64_t> canonical_axis(std::int64_t axis, std::size_t ndim) {
    const std::int64_t n = std::int64_t(ndim);
    if (axis < -n || axis >= n)
      return fail_as("ValueError", "axis " + std::to_string(axis) +
                                       " is out of bounds for array of dimension " +
                                       std::to_string(n));
    return Result<std::int64_t>::success(axis < 0 ? axis + n : axis);
  }
  // A shape this tool can write and read back: dimensions from 0 to 2^50 (the StableHLO
  // parser's limit) and at most 2^62 elements, so element counts never overflow.
  Result<bool> check_shape(const std::vector<std::int64_t>& shape, const std::string& what) {
    std::int64_t n = 1;
    for (auto d : shape) {
      if (d < 0)
        return fail(what + ": negative dimensions are not allowed, got " + shape_text(shape));
      if (d > (std::int64_t(1) << 50))
        return fail(what + ": dimensions past 2^50 are not supported here, got " +
                    shape_text(shape));
      if (__builtin_mul_overflow(n, d, &n) || n > (std::int64_t(1) << 62))
        return fail(what + ": arrays of more than 2^62 elements are not supported here, got " +
                    shape_text(shape));
    }
    return Result<bool>::success(true);
  }

  Result<std::vector<std::int64_t>> int_list(const Ref& r, const std::string& what) {
    std::vector<std::int64_t> out;
    if (r->k == K::Int) return Result<std::vector<std::int64_t>>::success({r->i});
    if (r->k == K::Tuple || r->k == K::List) {
      for (auto& x : r->items) {
        if (x->k != K::Int) return fail(what + " must be integers, got " + type_name(x));
        out.push_back(x->i);
      }
      return Result<std::vector<std::int64_t>>::success(out);
    }
    return fail(what + " must be an int or a tuple of ints, got " + type_name(r));
  }

  Result<Ref> reshape(const Ref& x0, std::vector<std::int64_t> shape) {
    UNWRAP(x, as_array(x0, "reshape"));
    std::int64_t known = 1, size = 1;
    int minus = -1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == -1) {
        if (minus >= 0) return fail("can only specify one unknown dimension");
        minus = int(k);
      } else if (shape[k] < 0) {
        return fail("reshape: negative dimension " + std::to_string(shape[k]) + " in new shape " +
                    shape_text(shape));
      } else if (__builtin_mul_overflow(known, shape[k], &known)) {
        return fail("reshape: the new shape " + shape_text(shape) +
                    " has more elements than this tool supports");
      }
    }
    for (auto d : x->aval.dims)
      if (__builtin_mul_overflow(size, d, &size))
        return fail("reshape: arrays of more than 2^63 elements are not supported here");
    if (minus >= 0) {
      if (known == 0 || size % known != 0)
        return fail("cannot reshape array of shape " + shape_text(x->aval.dims) + " (size " +
                    std::to_string(size) + ") into shape " + shape_text(shape) +
                    " because the product of specified axis sizes (" + std::to_string(known) +
                    ") does not evenly divide " + std::to_string(size));
      shape[minus] = size / known;
      known = size;
    }
    if (known != size)
      return fail("cannot reshape array of shape " + shape_text(x->aval.dims) + " (size " +
                  std::to_string(size) + ") into shape " + shape_text(shape) + " (size " +
                  std::to_string(known) + ")");
    // lax.reshape returns its operand for the same shape unless the shape is empty (a 0-d
    // reshape is bound).
    if (shape == x->aval.dims && !shape.empty()) return Result<Ref>::success(x);
    if (!tracing()) return Result<Ref>::success(new_array({shape, x->aval.dtype}, x->weak));
    UNWRAP(v, value_of(x));
    return Result<Ref>::success(traced(em->reshape(v, shape), x->weak));
  }

  Result<Ref> transpose(const Ref& x0, std::vector<std::int64_t> perm, bool given) {
    UNWRAP(x, as_array(x0, "transpose"));
    const std::size_t n = x->aval.dims.size();
    if (!given) {
      perm.clear();
      for (std::size_t k = n; k-- > 0;) perm.push_back(std::int64_t(k));
    }
    if (perm.size() != n)
      return fail("axes don't match array: transpose permutation " + shape_text(perm) +
                  " for an array of " + std::to_string(n) + " dimensions");
    std::vector<bool> seen(n, false);
    for (auto& p : perm) {
      UNWRAP(c, canonical_axis(p, n));
      if (seen[c]) return fail("repeated axis in transpose: " + shape_text(perm));
      seen[c] = true;
      p = c;
    }
    bool identity = true;
    for (std::size_t k = 0; k < n; ++k) identity = identity && perm[k] == std::int64_t(k);
    if (identity) return Result<Ref>::success(x);
    hj::Aval out{{}, x->aval.dtype};
    for (auto p : perm) out.dims.push_back(x->aval.dims[p]);
    if (!tracing()) return Result<Ref>::success(new_array(out, x->weak));
    UNWRAP(v, value_of(x));
    return Result<Ref>::success(traced(em->transpose(v, perm), x->weak));
  }

  // lax.dot_general with its shape rule's messages.
  Result<Ref> dot_general(const Ref& a, const Ref& b, const std::vector<std::int64_t>& lc,
                          const std::vector<std::int64_t>& rc, const std::vector<std::int64_t>& lb,
                          const std::vector<std::int64_t>& rb, const std::string& out_dtype = "") {
    auto dims_of = [](const Ref& x, const std::vector<std::int64_t>& ds) {
      std::vector<std::int64_t> out;
      for (auto d : ds) out.push_back(x->aval.dims[d]);
      return out;
    };
    // lax's _dot_general_shape_rule, in its order and words.
    for (int side = 0; side < 2; ++side) {
      const Ref& x = side ? b : a;
      const auto& bt = side ? rb : lb;
      const auto& ct = side ? rc : lc;
      const char* name = side ? "rhs" : "lhs";
      const std::int64_t rank = std::int64_t(x->aval.dims.size());
      for (auto d : bt)
        if (d < 0 || d >= rank)
          return fail(
              std::string("dot_general requires ") + name +
              " dimension numbers to be nonnegative and less than the number of axes of the " +
              name + " value, got " + name + "_batch of " + shape_text(bt) + " and " + name +
              "_contracting of " + shape_text(ct) + " for " + name + " of rank " +
              std::to_string(rank));
      for (auto d : ct)
        if (d < 0 || d >= rank)
          return fail(
              std::string("dot_general requires ") + name +
              " dimension numbers to be nonnegative and less than the number of axes of the " +
              name + " value, got " + name + "_batch of " + shape_text(bt) + " and " + name +
              "_contracting of " + shape_text(ct) + " for " + name + " of rank " +
              std::to_string(rank));
      std::vector<std::int64_t> all = bt;
      all.insert(all.end(), ct.begin(), ct.end());
      std::sort(all.begin(), all.end());
      if (std::adjacent_find(all.begin(), all.end()) != all.end())
        return fail(std::string("dot_general requires ") + name +
                    " batch and contracting dimensions to be distinct, got " + name + "_batch " +
                    shape_text(bt) + " and " + name + "_contracting " + shape_text(ct) + ".");
    }
    if (lb.size() != rb.size())
      return fail(
          "dot_general requires equal numbers of lhs_batch and rhs_batch dimensions, got "
          "lhs_batch " +
          shape_text(lb) + " and rhs_batch " + shape_text(rb) + ".");
    if (lc.size() != rc.size())
      return fail(
          "dot_general requires equal numbers of lhs_contracting and rhs_contracting dimensions, "
          "got lhs_contracting " +
          shape_text(lc) + " and rhs_contracting " + shape_text(rc) + ".");
    if (dims_of(a, lb) != dims_of(b, rb))
      return fail(
          "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same "
          "shape, got " +
          shape_text(dims_of(a, lb)) + " and " + shape_text(dims_of(b, rb)) + ".");
    if (dims_of(a, lc) != dims_of(b, rc))
      return fail(jax_contracting_mismatch(dims_of(a, lc), dims_of(b, rc)));
    if (a->aval.dtype != b->aval.dtype)
      return fail("dot_general requires operands of the same dtype, got " +
                  jax_dtype_name(a->aval.dtype) + " and " + jax_dtype_name(b->aval.dtype));
    hj::Aval out{dims_of(a, lb), out_dtype.empty() ? a->aval.dtype : out_dtype};
    auto free = [](const Ref& x, const std::vector<std::int64_t>& c,
                   const std::vector<std::int64_t>& bt, std::vector<std::int64_t>& o) {
      for (std::int64_t d = 0; d < std::int64_t(x->aval.dims.size()); ++d)
        if (std::find(c.begin(), c.end(), d) == c.end() &&
            std::find(bt.begin(), bt.end(), d) == bt.end())
          o.push_back(x->aval.dims[d]);
    };
    free(a, lc, lb, out.dims);
    free(b, rc, rb, out.dims);
    if (!tracing()) return Result<Ref>::success(new_array(out, a->weak && b->weak));
    UNWRAP(va, value_of(a));
    UNWRAP(vb, value_of(b));
    return Result<Ref>::success(
        traced(em->dot_general(va, vb, lb, rb, lc, rc, out_dtype), a->weak && b->weak));
  }

  // jnp.matmul (jax/_src/numpy/tensor_contractions.py): batch dims broadcast, size-1 batch dims
  // squeezed, dot_general, then a transpose to NumPy's order when needed.
  Result<Ref> matmul(const Ref& a0, const Ref& b0, const std::string& fn) {
    UNWRAP(a1, as_array(a0, fn));
    UNWRAP(b1, as_array(b0, fn));
    for (int w = 0; w < 2; ++w)
      if ((w ? b1 : a1)->aval.dims.empty()) return fail_as("ValueError", jax_matmul_ndim0(w));
    const DT d = promote2(dt_of(a1), dt_of(b1));
    UNWRAP(a, convert(a1, d.t, d.weak));
    UNWRAP(b, convert(b1, d.t, d.weak));
    const bool a_mat = a->aval.dims.size() > 1, b_mat = b->aval.dims.size() > 1;
    std::vector<std::int64_t> ab(a->aval.dims.begin(), a->aval.dims.end() - (a_mat ? 2 : 1));
    std::vector<std::int64_t> bb(b->aval.dims.begin(), b->aval.dims.end() - (b_mat ? 2 : 1));
    if (!a_mat) ab.clear();
    if (!b_mat) bb.clear();
    const std::size_t nb = std::max(ab.size(), bb.size());
    std::vector<std::int64_t> a_sq, b_sq, a_batch, b_batch, idx_batch, idx_a, idx_b;
    for (std::size_t i = 0; i < nb; ++i) {
      const bool has_a = i >= nb - ab.size(), has_b = i >= nb - bb.size();
      const std::int64_t da = has_a ? ab[i - (nb - ab.size())] : 0,
                         db = has_b ? bb[i - (nb - bb.size())] : 0;
      if (!has_a)
        idx_b.push_back(std::int64_t(i));
      else if (!has_b)
        idx_a.push_back(std::int64_t(i));
      else if (da == 1) {
        idx_b.push_back(std::int64_t(i));
        a_sq.push_back(std::int64_t(idx_batch.size() + idx_a.size() + a_sq.size()));
      } else if (db == 1) {
        idx_a.push_back(std::int64_t(i));
        b_sq.push_back(std::int64_t(idx_batch.size() + idx_b.size() + b_sq.size()));
      } else if (da == db) {
        a_batch.push_back(std::int64_t(idx_batch.size() + idx_a.size()));
        b_batch.push_back(std::int64_t(idx_batch.size() + idx_b.size()));
        idx_batch.push_back(std::int64_t(i));
      } else {
        return fail_as("ValueError", jax_matmul_batch(a->aval.dims, b->aval.dims));
      }
    }
    if (a_mat) idx_a.push_back(std::int64_t(nb));
    if (b_mat) idx_b.push_back(std::int64_t(nb) + (a_mat ? 1 : 0));
    std::vector<std::int64_t> order = idx_batch;
    order.insert(order.end(), idx_a.begin(), idx_a.end());
    order.insert(order.end(), idx_b.begin(), idx_b.end());
    std::vector<std::int64_t> perm(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
      perm[order[k]] = std::int64_t(k);  // argsort of a permutation
    auto squeeze = [&](const Ref& x, const std::vector<std::int64_t>& dims) -> Result<Ref> {
      if (dims.empty()) return Result<Ref>::success(x);
      std::vector<std::int64_t> shape;
      for (std::int64_t d = 0; d < std::int64_t(x->aval.dims.size()); ++d)
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) shape.push_back(x->aval.dims[d]);
      return reshape(x, shape);
    };
    UNWRAP(as, squeeze(a, a_sq));
    UNWRAP(bs, squeeze(b, b_sq));
    const std::int64_t ra = std::int64_t(as->aval.dims.size()),
                       rb = std::int64_t(bs->aval.dims.size());
    UNWRAP(out, dot_general(as, bs, {ra - 1}, {rb - 1 - (b_mat ? 1 : 0)}, a_batch, b_batch));
    return transpose(out, perm, true);
  }

  // jnp.dot: scalars multiply; otherwise contract a's last axis with b's second-to-last (or only).
  Result<Ref> dot(const Ref& a0, const Ref& b0) {
    UNWRAP(a1, as_array(a0, "dot"));
    UNWRAP(b1, as_array(b0, "dot"));
    if (a1->aval.dims.empty() || b1->aval.dims.empty()) return binary_fn("dot", "multiply", a0, b0);
    DT d = promote2(dt_of(a1), dt_of(b1));
    UNWRAP(a, convert(a1, d.t, d.weak));
    UNWRAP(b, convert(b1, d.t, d.weak));
    const std::int64_t ra = std::int64_t(a->aval.dims.size()),
                       rb = std::int64_t(b->aval.dims.size());
    return dot_general(a, b, {ra - 1}, {rb >= 2 ? rb - 2 : 0}, {}, {});
  }

  // A jnp function's or method's arguments by JAX's positions `params` (after `a` for a
  // function, `first` 1), each found by position or name (null when not given); `keyword_only`
  // are taken by name only. A keyword of neither (nor `a`) is Python's TypeError; out=, where=,
  // initial=, correction= and promote_integers= other than their defaults are refused by name.
  Result<std::vector<Ref>> numpy_params(const std::string& q, const Args& a, std::size_t first,
                                        const std::vector<std::string>& params,
                                        const std::vector<std::string>& keyword_only = {}) {
    if (a.pos.size() > first + params.size())
      return fail_as("TypeError", q + "() takes from " + std::to_string(first) + " to " +
                                      std::to_string(first + params.size()) +
                                      " positional arguments but " + std::to_string(a.pos.size()) +
                                      " were given");
    auto among = [](const std::vector<std::string>& v, const std::string& k) {
      return std::find(v.begin(), v.end(), k) != v.end();
    };
    for (auto& [k, v] : a.kw)
      if (!among(params, k) && !among(keyword_only, k) && !(first && k == "a"))
        return fail_as("TypeError", q + "() got an unexpected keyword argument '" + k + "'");
    std::vector<Ref> out;
    std::vector<std::string> all = params;
    all.insert(all.end(), keyword_only.begin(), keyword_only.end());
    for (std::size_t i = 0; i < all.size(); ++i) {
      Ref r = i < params.size() ? a.get(first + i, all[i].c_str()) : a.get(9999, all[i].c_str());
      const std::string& n = all[i];
      const bool unmodelled = n == "out" || n == "where" || n == "initial" || n == "correction";
      if (unmodelled && r && r->k != K::None)
        return fail_as("NotImplementedError",
                       q + ": " + n + "= is not supported here" +
                           (n == "out" ? " (JAX arrays are immutable)" : ""));
      if (n == "promote_integers" && r && !(is_pyscalar(r) && scalar_value(r) != 0))
        return fail_as("NotImplementedError", q + ": promote_integers=False is not supported here");
      out.push_back(r);
    }
    return Result<std::vector<Ref>>::success(std::move(out));
  }
  static bool truthy(const Ref& r) { return r && is_pyscalar(r) && scalar_value(r) != 0; }
  // jnp.var / std (a, axis, dtype, out, ddof, keepdims) and the methods; jnp.argmax / argmin
  // (a, axis, out, keepdims) and the methods. dtype= of var/std is refused by name.
  Result<Ref> var_std_call(const std::string& q, bool is_std, const Ref& x, const Args& a,
                           std::size_t first) {
    UNWRAP(p, numpy_params(q, a, first, {"axis", "dtype", "out", "ddof", "keepdims"},
                           {"where", "correction"}));
    if (p[1] && p[1]->k != K::None)
      return fail_as("NotImplementedError", q + ": dtype= is not supported here");
    return var_std(is_std, x, p[0], p[3], truthy(p[4]));
  }
  Result<Ref> argminmax_call(const std::string& q, bool is_max, const Ref& x, const Args& a,
                             std::size_t first) {
    UNWRAP(p, numpy_params(q, a, first, {"axis", "out", "keepdims"}));
    return jnp_argminmax(is_max, x, p[0], truthy(p[2]));
  }

  // jnp.sum(a, axis, dtype, out, keepdims) / prod / mean, jnp.max(a, axis, out, keepdims) / min,
  // and the methods (`first` 0: no `a`): axis, keepdims and dtype read, out None, others refused
  // by name.
  Result<Ref> reduction_call(const std::string& q, const std::string& kind, const Ref& x,
                             const Args& a, std::size_t first) {
    const bool typed = kind == "sum" || kind == "prod" || kind == "mean";
    // jnp.sum(a, axis, dtype, out, keepdims, initial, where, promote_integers); max's without
    // dtype; mean's where is keyword-only.
    const std::vector<std::string> params =
        kind == "mean" ? std::vector<std::string>{"axis", "dtype", "out", "keepdims"}
        : typed ? std::vector<std::string>{"axis",  "dtype",           "out", "keepdims", "initial",
                                           "where", "promote_integers"}
                : std::vector<std::string>{"axis", "out", "keepdims", "initial", "where"};
    UNWRAP(p, numpy_params(
                  q, a, first, params,
                  kind == "mean" ? std::vector<std::string>{"where"} : std::vector<std::string>{}));
    std::string dtype;
    if (Ref d = typed ? p[1] : nullptr; d && d->k != K::None) {
      UNWRAP(t, dtype_arg(d, q));
      dtype = canonical(t);
    }
    return reduction(kind, x, p[0], truthy(p[typed ? 3 : 2]), nullptr, dtype);
  }

  // `dtype` (sum, prod, mean's dtype=): the result's type, the operand converted to it (f32 for a
  // 16-bit float) before the reduce.
  Result<Ref> reduction(const std::string& kind, const Ref& x0, const Ref& axis_r, bool keepdims,
                        const double* initial = nullptr, const std::string& dtype = "") {
    UNWRAP(x, as_array(x0, kind));
    const std::size_t n = x->aval.dims.size();
    std::vector<std::int64_t> dims;
    if (!axis_r || axis_r->k == K::None) {
      for (std::size_t k = 0; k < n; ++k) dims.push_back(std::int64_t(k));
    } else {
      UNWRAP(axes, int_list(axis_r, "axis"));
      for (auto a : axes) {
        UNWRAP(c, canonical_axis(a, n));
        if (std::find(dims.begin(), dims.end(), c) != dims.end())
          return fail_as("ValueError", "duplicate value in 'axis': " + shape_text(axes));
        dims.push_back(c);
      }
    }
    const std::string t = x->aval.dtype;
    std::string comp = t, result_t = t;
    if (kind == "sum" || kind == "mean" || kind == "prod") {
      // jnp's promote_integers: a bool or narrower int sums as int_ (uint for unsigned).
      if (kind == "mean" && category(t) != 2) result_t = canonical(bits(t) == 64 ? "f64" : "f32");
      if (kind != "mean" && category(t) < 2 && bits(t) < bits(default_int()))
        result_t = hj::is_unsigned(t) ? "u" + default_int() : default_int();
      if (!dtype.empty()) result_t = dtype;
      if (result_t == "i1")
        return fail_as("NotImplementedError",
                       "jnp." + kind + " with dtype=bool is not supported here");
      comp = (result_t == "f16" || result_t == "bf16") ? "f32" : result_t;
    }
    if ((kind == "max" || kind == "min") && t == "i1")
      return fail_as("NotImplementedError",
                     "jnp." + kind + " of a bool array is not supported here");
    for (auto d : dims)
      if (x->aval.dims[d] == 0 && (kind == "max" || kind == "min"))
        return fail_as("ValueError",
                       "zero-size array to reduction operation " + kind + " which has no identity");
    std::vector<std::int64_t> out_dims, kept;
    for (std::int64_t d = 0; d < std::int64_t(n); ++d) {
      const bool r = std::find(dims.begin(), dims.end(), d) != dims.end();
      if (!r) out_dims.push_back(x->aval.dims[d]);
      kept.push_back(r ? 1 : x->aval.dims[d]);
    }
    std::int64_t count = 1;
    for (auto d : dims) count *= x->aval.dims[d];
    if (!tracing())
      return Result<Ref>::success(new_array({keepdims ? kept : out_dims, result_t}, false));
    UNWRAP(xc, convert(x, comp, false));
    UNWRAP(v, value_of(xc));
    double init = kind == "prod" ? 1 : 0;
    std::string op = kind == "prod" ? "multiply" : "add";
    if (kind == "max" || kind == "min") {
      op = kind == "max" ? "maximum" : "minimum";
      const double sign = kind == "max" ? -1 : 1;
      if (hj::is_float(comp))
        init = sign * INFINITY;
      else if (hj::is_unsigned(comp))
        init = kind == "max" ? 0 : std::ldexp(1.0, bits(comp)) - 1;
      else
        init =
            kind == "max" ? -std::ldexp(1.0, bits(comp) - 1) : std::ldexp(1.0, bits(comp) - 1) - 1;
    }
    hj::Value r = em->reduce(v, em->constant(init, {{}, comp}), op, dims);
    if (initial) {  // op(convert(initial), result): a constant, broadcast to the result's shape
      hj::Value c = em->constant(*initial, {{}, comp});
      if (!out_dims.empty()) c = em->broadcast_in_dim(c, out_dims, {});
      r = em->binary(op, c, r);
    }
    if (keepdims) {  // lax.expand_dims is a broadcast_in_dim
      std::vector<std::int64_t> bd;
      for (std::int64_t d = 0; d < std::int64_t(n); ++d)
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) bd.push_back(d);
      r = em->broadcast_in_dim(r, kept, bd);
    }
    if (kind == "mean") {  // jnp.mean: lax.div(sum(..., keepdims), the element count as a literal)
      const auto& shape = keepdims ? kept : out_dims;
      hj::Value c = em->constant(double(count), {{}, comp});
      if (!shape.empty()) c = em->broadcast_in_dim(c, shape, {});
      r = em->binary("divide", r, c);
    }
    Ref out = traced(r, false);
    return convert(out, result_t, false);
  }

  // A traced signed index `v` of an axis of `size` normalized as JAX's _normalize_index and
  // _dynamic_slice_indices do: i < 0 ? i + size : i, by compare, add and select in that order,
  // each constant made where it is used (broadcast to the index's shape); unsigned: as it is.
  // _normalize_index makes the axis size a constant of the index's dtype (lax._const, NumPy's
  // np.array(size, dtype)): a size past a signed dtype is NumPy's OverflowError there (an
  // unsigned index is not normalized).
  Result<bool> axis_size_fits(const std::string& t, std::int64_t size) {
    if (!hj::is_unsigned(t) && bits(t) < 64 && size >= (std::int64_t(1) << (bits(t) - 1)))
      return fail_as("OverflowError", "Python integer " + std::to_string(size) +
                                          " out of bounds for " + jax_dtype_name(t));
    return Result<bool>::success(true);
  }
  hj::Value normalized_index(hj::Value v, const hj::Aval& a, std::int64_t size) {
    if (hj::is_unsigned(a.dtype)) return v;
    auto splat = [&](double c) {
      const hj::Value k = em->constant(c, {{}, a.dtype});
      return a.dims.empty() ? k : em->broadcast_in_dim(k, a.dims, {});
    };
    const hj::Value neg = em->compare("LT", v, splat(0));
    const hj::Value wrapped = em->binary("add", v, splat(double(size)));
    return em->select(neg, wrapped, v);
  }

  // Whether integer dtype `t` holds v (a start or an axis size made a constant of it); JAX's
  // words when not.
  Result<bool> index_fits(const std::string& t, std::int64_t v) {
    const int b = bits(t);
    const bool u = hj::is_unsigned(t);
    const bool ok = b >= 64 ? (!u || v >= 0)
                    : u     ? v >= 0 && v < (std::int64_t(1) << b)
                        : v >= -(std::int64_t(1) << (b - 1)) && v < (std::int64_t(1) << (b - 1));
    if (!ok)
      return fail_as("OverflowError", "Python int " + std::to_string(v) +
                                          " too large to convert to " + jax_dtype_name(t));
    return Result<bool>::success(true);
  }

  // lax.dynamic_slice(operand, start_indices, slice_sizes) and lax.dynamic_update_slice(operand,
  // update, start_indices) (`u` set): each start index a 0-d integer (a traced array or a Python
  // int, all of one dtype: JAX's dtype rule); a traced signed index normalized as
  // _dynamic_slice_indices does (i < 0 ? i + size : i, by compare, add and select, in order), a
  // negative Python int made positive; the Python ints become constants where the op uses them.
  Result<Ref> dynamic_slicing(const std::string& q, const Ref& x, const Ref& u, const Ref& si,
                              const std::vector<std::int64_t>& sizes) {
    const auto& dims = x->aval.dims;
    const bool update = u != nullptr;
    if (si->k != K::Tuple && si->k != K::List)
      return fail_as("NotImplementedError",
                     q + ": start_indices as an array is not supported here; pass a tuple of "
                         "scalars (i, j, ...)");
    const std::vector<Ref>& items = si->items;
    if (items.size() != dims.size())
      return fail_as("ValueError",
                     "Length of slice indices must match number of operand dimensions (" +
                         std::to_string(items.size()) + " vs " + shape_text(dims) + ")");
    if (update) {
      if (u->aval.dims.size() != dims.size())
        return fail(
            "dynamic_update_slice update must have the same rank as operand, got "
            "update shape " +
            shape_text(u->aval.dims) + " for operand shape " + shape_text(dims) + ".");
      if (u->aval.dtype != x->aval.dtype)
        return fail("lax.dynamic_update_slice requires arguments to have the same dtypes, got " +
                    jax_dtype_name(x->aval.dtype) + ", " + jax_dtype_name(u->aval.dtype) + ".");
      for (std::size_t d = 0; d < dims.size(); ++d)
        if (u->aval.dims[d] > dims[d])
          return fail(
              "dynamic_update_slice update shape must be smaller than operand shape, "
              "got update shape " +
              shape_text(u->aval.dims) + " for operand shape " + shape_text(dims) + ".");
    } else {
      if (sizes.size() != dims.size())
        return fail(
            "dynamic_slice slice_sizes must have the same length as the operand's "
            "rank, got slice_sizes " +
            shape_text(sizes) + " for operand shape " + shape_text(dims) + ".");
      for (std::size_t d = 0; d < dims.size(); ++d) {
        if (sizes[d] < 0)
          return fail(
              "dynamic_slice slice_sizes must be greater than or equal to zero, got "
              "slice_sizes " +
              shape_text(sizes) + ".");
        if (sizes[d] > dims[d])
          return fail(
              "dynamic_slice slice_sizes must be less than or equal to operand shape, "
              "got slice_sizes " +
              shape_text(sizes) + " for operand shape " + shape_text(dims) + ".");
      }
    }
    // One dtype for all indices (a Python int is weak int32, int64 with x64).
    std::vector<std::string> types;
    for (const Ref& i : items) {
      if (i->k == K::Int) {
        types.push_back(i->strong.empty() ? default_int() : i->strong);
      } else if (i->k == K::Array && i->aval.dims.empty() && !hj::is_float(i->aval.dtype) &&
                 i->aval.dtype != "i1") {
        types.push_back(i->aval.dtype);
      } else {
        return fail(q + ": each start index must be a scalar integer, got " + type_name(i));
      }
    }
    for (auto& t : types)
      if (t != types[0]) {
        std::string got;
        for (auto& t2 : types) got += (got.empty() ? "" : ", ") + jax_dtype_name(t2);
        return fail("index arguments to " +
                    std::string(update ? "dynamic_update_slice" : "dynamic_slice") +
                    " must be integers of the same type, got: " + got);
      }
    if (!tracing())
      return Result<Ref>::success(new_array({update ? dims : sizes, x->aval.dtype}, x->weak));
    UNWRAP(xv, value_of(x));
    hj::Value uv;
    if (update) {
      UNWRAP(v, value_of(u));
      uv = v;
    }
    for (std::size_t d = 0; d < items.size(); ++d) {
      UNWRAP(fit, index_fits(types[0], items[d]->k == K::Int ? items[d]->i : dims[d]));
      (void)fit;
    }
    std::vector<hj::Value> starts(items.size());
    std::vector<bool> made(items.size(), false);
    for (std::size_t d = 0; d < items.size(); ++d) {
      const Ref& i = items[d];
      if (i->k == K::Int) continue;
      UNWRAP(v, value_of(i));
      made[d] = true;
      starts[d] = normalized_index(v, i->aval, dims[d]);
    }
    for (std::size_t d = 0; d < items.size(); ++d)
      if (!made[d]) {
        std::int64_t k = items[d]->i;
        if (k < 0) k += dims[d];
        starts[d] = em->constant(double(k), {{}, types[0]});
      }
    hj::Value r =
        update ? em->dynamic_update_slice(xv, uv, starts) : em->dynamic_slice(xv, starts, sizes);
    return Result<Ref>::success(traced(r, x->weak));
  }

  // A scatter's `mode` (lax.GatherScatterMode.from_any): None, 'fill' or 'drop' (FILL_OR_DROP,
  // updates out of bounds dropped: XLA's scatter as it is), 'promise_in_bounds' (the same op), or
  // 'clip' (true: JAX clamps the indices first).
  Result<bool> scatter_mode(const std::string& q, const Ref& mode) {
    if (!mode || mode->k == K::None) return Result<bool>::success(false);
    if (mode->k == K::Str) {
      if (mode->s == "clip") return Result<bool>::success(true);
      if (mode->s == "fill" || mode->s == "drop" || mode->s == "promise_in_bounds")
        return Result<bool>::success(false);
    }
    return fail_as("ValueError", "Unknown gather mode \"" +
                                     (mode->k == K::Str ? mode->s : type_name(mode)) + "\"");
  }

  // lax.scatter, scatter_add, scatter_mul, scatter_min, scatter_max (`op` the region's combiner,
  // "" for scatter): JAX's shape and dtype rules (lax/slicing.py's _scatter_shape_rule and
  // _scatter_dtype_rule), in their order and words; the index vector is the indices' last
  // dimension (JAX sets index_vector_dim so). Batching dimensions are refused by name.
  Result<Ref> lax_scatter(const std::string& q, const std::string& op, const Ref& x, const Ref& idx,
                          const Ref& u, const Ref& dn, bool sorted, bool unique) {
    if (dn->k != K::Tuple || dn->items.size() != 5)
      return fail(q + ": dimension_numbers must be a lax.ScatterDimensionNumbers, got " +
                  type_name(dn));
    std::vector<std::vector<std::int64_t>> d(5);
    for (std::size_t k = 0; k < 5; ++k) {
      UNWRAP(v, int_list(dn->items[k], q + ": dimension_numbers"));
      d[k] = v;
    }
    if (!d[3].empty() || !d[4].empty())
      return fail_as("NotImplementedError",
                     q + ": operand_batching_dims and scatter_indices_batching_dims are not "
                         "supported here");
    const auto& uwd = d[0];
    const auto& iwd = d[1];
    const auto& sdod = d[2];
    const std::string& t = x->aval.dtype;
    // scatter_add and scatter_mul build their region with lax.add and lax.mul first.
    if (t == "i1" && (op == "add" || op == "multiply"))
      return fail(std::string(op == "add" ? "add" : "mul") +
                  " does not accept dtype bool. Accepted dtypes are subtypes of number.");
    // The shape rule (abstract evaluation runs it before the dtype rule).
    const auto& xs = x->aval.dims;
    const auto& is = idx->aval.dims;
    const auto& us = u->aval.dims;
    const std::int64_t xr = std::int64_t(xs.size()), ur = std::int64_t(us.size());
    const std::int64_t ivd = std::int64_t(is.size()) - 1;
    if (ivd < 0)
      return fail(
          "Scatter index leaf dimension must be within [0, rank(indices) + 1). "
          "rank(indices) is 0 and scatter index leaf dimension is -1.");
    const std::int64_t want_rank = ivd + std::int64_t(uwd.size());
    if (ur != want_rank)
      return fail("Updates tensor must be of rank " + std::to_string(want_rank) + "; got " +
                  std::to_string(ur) + ".");
    auto sorted_unique_in_range = [&](const std::vector<std::int64_t>& v, std::int64_t rank,
                                      const std::string& name) -> Result<bool> {
      for (std::size_t k = 1; k < v.size(); ++k)
        if (v[k] < v[k - 1])
          return fail(name + " in scatter op must be sorted; got " + shape_text(v));
      for (std::size_t k = 1; k < v.size(); ++k)
        if (v[k] == v[k - 1])
          return fail(name + " in scatter op must not repeat; got: " + shape_text(v) + ".");
      if (!v.empty() && (v.front() < 0 || v.back() >= rank))
        return fail("Invalid " + name + " set in scatter op; valid range is [0, " +
                    std::to_string(rank) +
                    "); got: " + std::to_string(v.front() < 0 ? v.front() : v.back()) + ".");
      return Result<bool>::success(true);
    };
    UNWRAP(ok1, sorted_unique_in_range(uwd, ur, "update_window_dims"));
    UNWRAP(ok2, sorted_unique_in_range(iwd, xr, "inserted_window_dims"));
    (void)ok1;
    (void)ok2;
    const std::int64_t window = std::int64_t(uwd.size() + iwd.size());
    if (window != xr)
      return fail("Scatter op has window of size " + std::to_string(window) +
                  "; doesn't match operand of rank " + std::to_string(xr) + ".");
    if (std::int64_t(sdod.size()) != is[std::size_t(ivd)])
      return fail("Scatter op has " + std::to_string(sdod.size()) +
                  " elements in scatter_dims_to_operand_dims and the bound of dimension "
                  "index_vector_dim=" +
                  std::to_string(ivd) + " of indices is " + std::to_string(is[std::size_t(ivd)]) +
                  ". These two numbers must be equal");
    for (std::size_t k = 0; k < sdod.size(); ++k)
      if (sdod[k] < 0 || sdod[k] >= xr)
        return fail("Invalid scatter_dims_to_operand_dims mapping; domain is [0, " +
                    std::to_string(xr) + "), got: " + std::to_string(k) + "->" +
                    std::to_string(sdod[k]) + ".");
    {
      std::vector<std::int64_t> sorted_sdod = sdod;
      std::sort(sorted_sdod.begin(), sorted_sdod.end());
      for (std::size_t k = 1; k < sorted_sdod.size(); ++k)
        if (sorted_sdod[k] == sorted_sdod[k - 1])
          return fail("scatter_dims_to_operand_dims in scatter op must not repeat; got: " +
                      shape_text(sdod) + ".");
    }
    std::vector<std::int64_t> max_window;
    for (std::int64_t k = 0; k < xr; ++k)
      if (std::find(iwd.begin(), iwd.end(), k) == iwd.end())
        max_window.push_back(xs[std::size_t(k)]);
    for (std::size_t k = 0; k < uwd.size(); ++k)
      if (max_window[k] < us[std::size_t(uwd[k])])
        return fail(
            "Bounds of the window dimensions of updates must not exceed the bounds of "
            "the corresponding dimensions of operand. For dimension " +
            std::to_string(uwd[k]) + ", updates bound is " +
            std::to_string(us[std::size_t(uwd[k])]) + ", operand bound is " +
            std::to_string(max_window[k]) + ".");
    std::vector<std::int64_t> scatter_dims;
    for (std::int64_t k = 0; k < ur; ++k)
      if (std::find(uwd.begin(), uwd.end(), k) == uwd.end()) scatter_dims.push_back(k);
    {
      std::int64_t seen = 0;
      for (std::int64_t k : scatter_dims) {
        if (seen == ivd) ++seen;
        const std::int64_t bound = seen < std::int64_t(is.size()) ? is[std::size_t(seen)] : 1;
        if (us[std::size_t(k)] != bound)
          return fail(
              "Bounds of the scatter dimensions of updates must be the same as the "
              "bounds of the corresponding dimensions of scatter indices. For scatter "
              "dimension " +
              std::to_string(k) + ", updates bound is " + std::to_string(us[std::size_t(k)]) +
              ", indices bound is " + std::to_string(bound) + ".");
        ++seen;
      }
    }
    // The dtype rule.
    if (hj::is_float(idx->aval.dtype) || idx->aval.dtype == "i1")
      return fail_as("ValueError", "indices must have an integer type");
    if (u->aval.dtype != t)
      return fail("lax.scatter requires arguments to have the same dtypes, got " +
                  jax_dtype_name(t) + ", " + jax_dtype_name(u->aval.dtype) + ".");
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    UNWRAP(xv, value_of(x));
    UNWRAP(iv, value_of(idx));
    UNWRAP(uv, value_of(u));
    return Result<Ref>::success(
        traced(em->scatter(xv, iv, uv, op, uwd, iwd, sdod, sorted, unique), x->weak));
  }

  // lax.slice: lax's _slice_shape_rule, in its words and order (each index list nonnegative, the
  // ranks, every limit within the shape, every start >= 0, every limit >= its start; strides,
  // when not all 1, nonnegative, of the rank, positive), then the op.
  Result<Ref> lax_slice(const Ref& x, const std::vector<std::int64_t>& starts,
                        const std::vector<std::int64_t>& limits,
                        const std::vector<std::int64_t>& strides) {
    const std::vector<std::int64_t>& dims = x->aval.dims;
    auto all_of = [](const std::vector<std::int64_t>& v, auto ok) {
      return std::all_of(v.begin(), v.end(), ok);
    };
    const auto nonneg = [](std::int64_t e) { return e >= 0; };
    if (!all_of(starts, nonneg))
      return fail("slice start_indices must have every element be nonnegative, got " +
                  shape_text(starts) + ".");
    if (!all_of(limits, nonneg))
      return fail("slice limit_indices must have every element be nonnegative, got " +
                  shape_text(limits) + ".");
    if (starts.size() != dims.size())
      return fail(
          "slice start_indices must have length equal to the number of dimensions of the "
          "operand, got indices " +
          shape_text(starts) + " for operand shape " + shape_text(dims) + ".");
    if (limits.size() != starts.size())
      return fail(
          "slice limit_indices must have the same length as start_indices, got "
          "start_indices " +
          shape_text(starts) + " and limit_indices " + shape_text(limits) + ".");
    for (std::size_t d = 0; d < dims.size(); ++d)
      if (limits[d] > dims[d])
        return fail(
            "slice limit_indices must be less than or equal to operand shape, got "
            "limit_indices " +
            shape_text(limits) + " for operand shape " + shape_text(dims) + ".");
    for (std::size_t d = 0; d < dims.size(); ++d)
      if (limits[d] < starts[d])
        return fail(
            "slice limit_indices must be greater than or equal to start_indices, got "
            "start_indices " +
            shape_text(starts) + " and limit_indices " + shape_text(limits) + ".");
    if (!all_of(strides, [](std::int64_t e) { return e == 1; })) {
      if (!all_of(strides, nonneg))
        return fail("slice strides must have every element be nonnegative, got " +
                    shape_text(strides) + ".");
      if (strides.size() != dims.size())
        return fail(
            "slice strides must have length equal to the number of dimensions of "
            "the operand, got strides " +
            shape_text(strides) + " for operand shape " + shape_text(dims) + ".");
      if (!all_of(strides, [](std::int64_t e) { return e > 0; }))
        return fail("slice strides must be positive, got " + shape_text(strides));
    }
    std::vector<std::int64_t> out;
    for (std::size_t d = 0; d < dims.size(); ++d)
      out.push_back((limits[d] - starts[d] + strides[d] - 1) / strides[d]);
    if (!tracing()) return Result<Ref>::success(new_array({out, x->aval.dtype}, x->weak));
    UNWRAP(v, value_of(x));
    return Result<Ref>::success(traced(em->slice(v, starts, limits, strides), x->weak));
  }

  // lax.pad(operand, padding_value, padding_config): ((low, high, interior), ...) per axis; the
  // padding value a scalar of the operand's dtype (a Python scalar as a weak one).
  Result<Ref> lax_pad(const std::string& q, const Ref& x, const Ref& v0, const Ref& cfg) {
    const auto& dims = x->aval.dims;
    if (cfg->k != K::Tuple && cfg->k != K::List)
      return fail(q + ": padding_config must be a sequence of (low, high, interior) triples");
    if (cfg->items.size() != dims.size())
      return fail_as("ValueError",
                     "length of padding_config must equal the number of axes of operand, got "
                     "padding_config of length " +
                         std::to_string(cfg->items.size()) + " for operand shape " +
                         shape_text(dims));
    std::vector<std::int64_t> lo, hi, in;
    for (const Ref& t : cfg->items) {
      UNWRAP(triple, int_list(t, q + ": padding_config"));
      if (triple.size() != 3)
        return fail(q + ": each padding_config entry must be (low, high, interior), got " +
                    shape_text(triple));
      lo.push_back(triple[0]);
      hi.push_back(triple[1]);
      in.push_back(triple[2]);
    }
    for (auto i : in)
      if (i < 0)
        return fail_as("ValueError",
                       "interior padding in padding_config must be nonnegative, got interior " +
                           shape_text(in));
    std::vector<std::int64_t> out;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      out.push_back(lo[d] + hi[d] + dims[d] + std::max<std::int64_t>(dims[d] - 1, 0) * in[d]);
      if (out.back() < 0)
        return fail_as("ValueError",
                       "Dimension size after padding is not at least 0, got result shape " +
                           shape_text(out) + " (axis " + std::to_string(d) + ")");
    }
    Ref v;
    if (is_pyscalar(v0)) {
      const DT d = dt_of(v0);
      if (category(d.t) != category(x->aval.dtype) ||
          (category(d.t) == 2) != hj::is_float(x->aval.dtype))
        return fail("pad operand and padding_value must be same dtype: got " +
                    jax_dtype_name(x->aval.dtype) + " and " + jax_dtype_name(d.t) + ".");
      v = literal(v0, x->aval.dtype);
    } else {
      UNWRAP(a, as_array(v0, q));
      if (!a->aval.dims.empty())
        return fail(q + ": padding_value must be a scalar, got shape " + shape_text(a->aval.dims));
      if (a->aval.dtype != x->aval.dtype)
        return fail("pad operand and padding_value must be same dtype: got " +
                    jax_dtype_name(x->aval.dtype) + " and " + jax_dtype_name(a->aval.dtype) + ".");
      v = a;
    }
    if (!tracing()) return Result<Ref>::success(new_array({out, x->aval.dtype}, x->weak));
    UNWRAP(xv, value_of(x));
    UNWRAP(vv, value_of(v));
    return Result<Ref>::success(traced(em->pad(xv, vv, lo, hi, in), x->weak));
  }

  // lax.expand_dims: a broadcast_in_dim inserting size-1 axes.
  Result<Ref> expand_dims(const Ref& x, const std::vector<std::int64_t>& axes) {
    const std::size_t out_rank = x->aval.dims.size() + axes.size();
    std::vector<std::int64_t> dims;
    for (auto a : axes) {
      UNWRAP(c, canonical_axis(a, out_rank));
      if (std::find(dims.begin(), dims.end(), c) != dims.end())
        return fail_as("ValueError", "repeated axis in expand_dims: " + shape_text(axes));
      dims.push_back(c);
    }
    std::vector<std::int64_t> shape, bd;
    std::size_t k = 0;
    for (std::int64_t d = 0; d < std::int64_t(out_rank); ++d) {
      if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
        shape.push_back(1);
      } else {
        bd.push_back(d);
        shape.push_back(x->aval.dims[k++]);
      }
    }
    return broadcast_in_dim(x, shape, bd);
  }

  // jnp.concatenate (promote, then one lax.concatenate) and jnp.stack (expand_dims each first).
  Result<Ref> concatenate(bool stack, const std::vector<Ref>& items, std::int64_t axis0) {
    const std::string q = stack ? "jnp.stack" : "jnp.concatenate";
    std::vector<Ref> xs;
    for (auto& it : items) {
      UNWRAP(a, as_array(it, q));
      xs.push_back(a);
    }
    std::int64_t axis = axis0;
    if (stack) {
      const auto shape0 = xs[0]->aval.dims;
      UNWRAP(c, canonical_axis(axis0, shape0.size() + 1));
      axis = c;
      for (auto& x : xs) {
        if (x->aval.dims != shape0)
          return fail_as("ValueError", "All input arrays must have the same shape.");
        UNWRAP(e, expand_dims(x, {axis}));
        x = e;
      }
    }
    if (xs[0]->aval.dims.empty())
      return fail_as("ValueError", "Zero-dimensional arrays cannot be concatenated.");
    UNWRAP(c, canonical_axis(axis, xs[0]->aval.dims.size()));
    axis = c;
    DT d = dt_of(xs[0]);
    for (std::size_t k = 1; k < xs.size(); ++k) d = promote2(d, dt_of(xs[k]));
    for (auto& x : xs) {
      UNWRAP(cv, convert(x, d.t, d.weak));
      x = cv;
    }
    if (xs.size() == 1) return Result<Ref>::success(xs[0]);
    std::vector<std::int64_t> out = xs[0]->aval.dims;
    out[axis] = 0;
    std::string shapes;
    for (auto& x : xs) shapes += (shapes.empty() ? "" : ", ") + shape_text(x->aval.dims);
    for (auto& x : xs) {
      if (x->aval.dims.size() != out.size())
        return fail("Cannot concatenate arrays with different numbers of dimensions: got " +
                    shapes + ".");
      for (std::size_t k = 0; k < out.size(); ++k)
        if (std::int64_t(k) != axis && x->aval.dims[k] != xs[0]->aval.dims[k])
          return fail(
              "Cannot concatenate arrays with shapes that differ in dimensions other than the one "
              "being "
              "concatenated: concatenating along dimension " +
              std::to_string(axis) + " for shapes " + shapes + ".");
      out[axis] += x->aval.dims[axis];
    }
    UNWRAP(okshape, check_shape(out, stack ? "jnp.stack" : "jnp.concatenate"));
    (void)okshape;
    if (!tracing()) return Result<Ref>::success(new_array({out, d.t}, d.weak));
    std::vector<hj::Value> vs;
    for (auto& x : xs) {
      UNWRAP(v, value_of(x));
      vs.push_back(v);
    }
    return Result<Ref>::success(traced(em->concatenate(vs, axis), d.weak));
  }

  // jnp.where(c, x, y): c made bool (c != 0), x and y promoted, all three broadcast, select.
  Result<Ref> where(const Ref& c0, const Ref& x0, const Ref& y0) {
    UNWRAP(c, as_array(c0, "where"));
    if (c->aval.dtype != "i1") {
      UNWRAP(z, compare_fn("where", "NE", c, mk_int(0)));
      c = z;
    }
    UNWRAP(xy, promote_args("where", {x0, y0}, false));
    UNWRAP(shape, broadcast_shapes({c, xy[0], xy[1]}));
    std::vector<Ref> all = {c, xy[0], xy[1]};
    for (auto& a : all) {
      if (a->aval.dims == shape) continue;
      const std::size_t n = a->aval.dims.size();
      std::vector<std::int64_t> dims;
      for (std::size_t j = 0; j < n; ++j) dims.push_back(std::int64_t(shape.size() - n + j));
      UNWRAP(b, broadcast_in_dim(a, shape, dims));
      a = b;
    }
    if (!tracing())
      return Result<Ref>::success(new_array({shape, all[1]->aval.dtype}, all[1]->weak));
    UNWRAP(vc, value_of(all[0]));
    UNWRAP(vx, value_of(all[1]));
    UNWRAP(vy, value_of(all[2]));
    return Result<Ref>::success(traced(em->select(vc, vx, vy), all[1]->weak && all[2]->weak));
  }

  // A NumPy scalar of `dtype` (not weakly typed), e.g. np.sqrt(2 / np.pi).astype(x.dtype):
  // a constant where it is used.
  Ref typed_literal(double v, const std::string& dtype) {
    auto r = literal(mk_float(v), dtype);
    r->weak = false;
    return r;
  }

  // The reduced axes of `axis` (an int, a tuple, or None for all), canonical, in the given order.
  Result<std::vector<std::int64_t>> reduced_axes(const Ref& axis_r, std::size_t n) {
    std::vector<std::int64_t> dims;
    if (!axis_r || axis_r->k == K::None) {
      for (std::size_t k = 0; k < n; ++k) dims.push_back(std::int64_t(k));
      return Result<std::vector<std::int64_t>>::success(dims);
    }
    UNWRAP(axes, int_list(axis_r, "axis"));
    for (auto a : axes) {
      UNWRAP(c, canonical_axis(a, n));
      if (std::find(dims.begin(), dims.end(), c) != dims.end())
        return fail_as("ValueError", "duplicate value in 'axis': " + shape_text(axes));
      dims.push_back(c);
    }
    return Result<std::vector<std::int64_t>>::success(dims);
  }

  std::string axis_key(const Ref& axis_r) {
    if (!axis_r || axis_r->k == K::None) return "None";
    auto l = int_list(axis_r, "axis");
    return l ? shape_text(l.value()) : "?";
  }

  Result<Ref> require_float(const std::string& q, const Ref& x0) {
    UNWRAP(x, as_array(x0, q));
    if (!hj::is_float(x->aval.dtype))
      return fail_as("NotImplementedError", q + " here needs a floating-point array, got " +
                                                aval_text(x) +
                                                "; convert it first with .astype(jnp.float32)");
    return Result<Ref>::success(x);
  }

  // jax.nn.softmax: not jitted, and its custom_jvp rule inlines: the max along `axis` with
  // initial=-inf (a maximum after the reduce) kept as size-1 axes, exp(x - max), divided by its
  // sum.
  Result<Ref> softmax(const Ref& x0, const Ref& axis) {
    UNWRAP(x, require_float("jax.nn.softmax", x0));
    const double ninf = -INFINITY;
    UNWRAP(m, reduction("max", x, axis, true, &ninf));
    UNWRAP(d, binary_fn("subtract", "subtract", x, m));
    UNWRAP(e, unary_fn("exp", "exponential", d, true));
    UNWRAP(s, reduction("sum", e, axis, true));
    return binary_fn("true_divide", "divide", e, s, true);
  }

  // jax.nn.log_softmax: jitted with a static axis (a private @log_softmax); the shift by the max
  // is under stop_gradient, which adds no op.
  Result<Ref> log_softmax(const Ref& x0, const Ref& axis) {
    UNWRAP(x, require_float("jax.nn.log_softmax", x0));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      const double ninf = -INFINITY;
      UNWRAP(m, reduction("max", in[0], axis, true, &ninf));
      UNWRAP(shifted, binary_fn("subtract", "subtract", in[0], m));
      UNWRAP(e, unary_fn("exp", "exponential", shifted, true));
      UNWRAP(s, reduction("sum", e, axis, true));
      UNWRAP(l, unary_fn("log", "log", s, true));
      return binary_fn("subtract", "subtract", shifted, l);
    };
    if (!tracing()) return body({x});
    return call_jitted_private("log_softmax", {x}, body, axis_key(axis));
  }

  // jax.nn.logsumexp (= jax.scipy.special.logsumexp), not jitted: amax = max(a), made 0 where
  // not finite (select, under stop_gradient), then log(sum(exp(a - amax))) + amax with lax ops.
  Result<Ref> logsumexp(const Ref& x0, const Ref& axis, bool keepdims) {
    UNWRAP(xs, promote_args("logsumexp", {x0}, true));
    const Ref a = xs[0];
    UNWRAP(dims, reduced_axes(axis, a->aval.dims.size()));
    UNWRAP(amax0, reduction("max", a, axis, keepdims));
    Ref amax = amax0;
    if (tracing()) {
      UNWRAP(v, value_of(amax0));
      const hj::Value finite = em->is_finite(v);
      UNWRAP(zeros, full(amax0->aval.dims, 0, amax0->aval.dtype, false));
      UNWRAP(zv, value_of(zeros));
      amax = traced(em->select(finite, v, zv), false);
    }
    Ref with_dims = amax;
    if (!keepdims) {
      UNWRAP(e, expand_dims(amax, dims));
      with_dims = e;
    }
    UNWRAP(d, nary("subtract", {a, with_dims}));
    UNWRAP(e, nary("exponential", {d}));
    UNWRAP(s, reduction("sum", e, axis, keepdims));
    UNWRAP(l, nary("log", {s}));
    return nary("add", {l, amax});
  }

  // jax.nn.gelu, approximate: x * 0.5 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))), with
  // sqrt(2/pi) a NumPy scalar of x's dtype (not weak). Not jitted.
  Result<Ref> gelu(const Ref& x0, bool approximate) {
    UNWRAP(xs, promote_args("gelu", {x0}, true));
    const Ref x = xs[0];
    if (!approximate) {  // 0.5 * x * lax.erfc(-x * sqrt_half), sqrt_half a NumPy scalar of x's
                         // dtype
      UNWRAP(h, binary_fn("multiply", "multiply", mk_float(0.5), x));
      UNWRAP(n, unary_fn("negative", "negate", x, false));
      UNWRAP(m, binary_fn("multiply", "multiply", n, typed_literal(std::sqrt(0.5), x->aval.dtype)));
      UNWRAP(e, nary("chlo.erfc", {m}));
      return binary_fn("multiply", "multiply", h, e);
    }
    UNWRAP(x3, integer_pow(x, 3));
    UNWRAP(a, binary_fn("multiply", "multiply", mk_float(0.044715), x3));
    UNWRAP(b, binary_fn("add", "add", x, a));
    UNWRAP(c,
           binary_fn("multiply", "multiply", typed_literal(std::sqrt(2 / M_PI), x->aval.dtype), b));
    UNWRAP(t, unary_fn("tanh", "tanh", c, true));
    UNWRAP(d, binary_fn("add", "add", mk_float(1.0), t));
    UNWRAP(cdf, binary_fn("multiply", "multiply", mk_float(0.5), d));
    return binary_fn("multiply", "multiply", x, cdf);
  }

  // jnp.clip: jitted (a private @clip taking the array and the given bounds; a Python bound is a
  // weakly typed scalar argument); maximum(min, x), then minimum(max, x).
  Result<Ref> clip(const Ref& x0, const Ref& lo, const Ref& hi) {
    UNWRAP(x, as_array(x0, "clip"));
    const bool has_lo = lo && lo->k != K::None, has_hi = hi && hi->k != K::None;
    std::vector<Ref> args = {x};
    for (const Ref& b : {lo, hi}) {
      if (!b || b->k == K::None) continue;
      UNWRAP(ba, as_array(b, "clip"));
      args.push_back(ba);
    }
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      Ref r = in[0];
      std::size_t k = 1;
      if (has_lo) {
        UNWRAP(m, binary_fn("maximum", "maximum", in[k++], r));
        r = m;
      }
      if (has_hi) {
        UNWRAP(m, binary_fn("minimum", "minimum", in[k++], r));
        r = m;
      }
      return Result<Ref>::success(r);
    };
    if (!tracing()) return body(args);
    return call_jitted_private("clip", args, body,
                               std::string(has_lo ? "min" : "") + (has_hi ? "max" : ""));
  }

  // jnp.var (a private @_var: axis, dtype and keepdims static, the correction ddof an argument):
  // the mean kept as size-1 axes, (a - mean)^2 summed, divided by (count - ddof), NaN where that
  // is not positive. jnp.std is a private @_std: sqrt of the call to @_var.
  Result<Ref> var_body(const Ref& a0, const Ref& corr, const Ref& axis, bool keepdims) {
    const std::string t = a0->aval.dtype;
    // _var_promote_types: an int or bool array's variance is float_ (float64 with x64).
    const std::string dtype = hj::is_float(t) ? t : default_float();
    const std::string comp = (dtype == "f16" || dtype == "bf16") ? "f32" : dtype;
    UNWRAP(a, convert(a0, comp, false));
    UNWRAP(dims, reduced_axes(axis, a->aval.dims.size()));
    UNWRAP(mean, reduction("mean", a, axis, true));
    UNWRAP(centered0, nary("subtract", {a, mean}));
    UNWRAP(centered, nary("multiply", {centered0, centered0}));
    std::int64_t count = 1;
    for (auto d : dims) count *= a->aval.dims[d];
    UNWRAP(cc, convert(corr, comp, false));
    UNWRAP(normalizer, nary("subtract", {typed_literal(double(count), comp), cc}));
    UNWRAP(sum, reduction("sum", centered, axis, keepdims));
    UNWRAP(q, nary("divide", {sum, normalizer}));
    UNWRAP(result, convert(q, dtype, false));
    UNWRAP(positive, compare_fn(">", "GT", normalizer, mk_int(0)));
    UNWRAP(nan, full(result->aval.dims, NAN, dtype, false));
    if (!tracing()) return Result<Ref>::success(result);
    UNWRAP(vp, value_of(positive));
    UNWRAP(vr, value_of(result));
    UNWRAP(vn, value_of(nan));
    return Result<Ref>::success(traced(em->select(vp, vr, vn), false));
  }
  Result<Ref> var_std(bool is_std, const Ref& x0, const Ref& axis, const Ref& ddof0,
                      bool keepdims) {
    const std::string q = is_std ? "jnp.std" : "jnp.var";
    UNWRAP(x, as_array(x0, q));
    Ref ddof = ddof0 && ddof0->k != K::None ? ddof0 : mk_int(0);
    if (!is_pyscalar(ddof) && ddof->k != K::Array)
      return fail(q + ": ddof must be a number, got " + type_name(ddof));
    UNWRAP(corr, as_array(ddof, q));
    UNWRAP(dims, reduced_axes(axis, x->aval.dims.size()));
    (void)dims;
    const std::string key = axis_key(axis) + (keepdims ? "k" : "");
    auto var_call = [&](const Ref& a, const Ref& c) -> Result<Ref> {
      auto body = [&](const std::vector<Ref>& in) {
        return var_body(in[0], in[1], axis, keepdims);
      };
      if (!tracing()) return body({a, c});
      return call_jitted_private("_var", {a, c}, body, key);
    };
    if (!is_std) return var_call(x, corr);
    auto std_body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      UNWRAP(v, var_call(in[0], in[1]));
      return nary("sqrt", {v});
    };
    if (!tracing()) return std_body({x, corr});
    return call_jitted_private("_std", {x, corr}, std_body, key);
  }

  // jnp.outer: dtypes promoted, both raveled, a[:, None] * b[None, :].
  Result<Ref> outer(const Ref& a0, const Ref& b0) {
    UNWRAP(a1, as_array(a0, "outer"));
    UNWRAP(b1, as_array(b0, "outer"));
    const DT d = promote2(dt_of(a1), dt_of(b1));
    UNWRAP(a2, convert(a1, d.t, d.weak));
    UNWRAP(b2, convert(b1, d.t, d.weak));
    auto ravel = [&](const Ref& x) {
      std::int64_t n = 1;
      for (auto dd : x->aval.dims) n *= dd;
      return reshape(x, {n});
    };
    UNWRAP(a3, ravel(a2));
    UNWRAP(b3, ravel(b2));
    UNWRAP(a, expand_dims(a3, {1}));
    UNWRAP(b, expand_dims(b3, {0}));
    return binary_fn("multiply", "multiply", a, b);
  }

  // The identity of a reduction op for `dtype`: add 0, multiply 1, maximum the lowest value
  // (-inf, INT_MIN, 0, false), minimum the highest.
  static double reduce_identity(const std::string& op, const std::string& dtype) {
    if (op == "add") return 0;
    if (op == "multiply") return 1;
    const bool mx = op == "maximum";
    if (hj::is_float(dtype)) return mx ? -INFINITY : INFINITY;
    if (dtype == "i1") return mx ? 0 : 1;
    if (hj::is_unsigned(dtype)) return mx ? 0 : std::ldexp(1.0, bits(dtype)) - 1;
    return mx ? -std::ldexp(1.0, bits(dtype) - 1) : std::ldexp(1.0, bits(dtype) - 1) - 1;
  }

  // lax.argmax / argmin: JAX caches the lowering as a private @argmax (mlir.cache_lowering), one
  // per axis and index dtype, holding the two-operand reduce (hj::Emitter::argminmax).
  Result<Ref> lax_argminmax(bool is_max, const Ref& x, std::int64_t axis,
                            const std::string& index_dtype) {
    const std::string name = is_max ? "argmax" : "argmin";
    UNWRAP(c, canonical_axis(axis, x->aval.dims.size()));
    if (x->aval.dims[c] == 0)
      return fail_as("ValueError", "attempt to get " + name + " of an empty sequence");
    hj::Aval out{{}, index_dtype};
    for (std::size_t d = 0; d < x->aval.dims.size(); ++d)
      if (std::int64_t(d) != c) out.dims.push_back(x->aval.dims[d]);
    if (!tracing()) return Result<Ref>::success(new_array(out, false));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      UNWRAP(v, value_of(in[0]));
      return Result<Ref>::success(traced(em->argminmax(v, c, index_dtype, is_max), false));
    };
    return call_jitted_private(name, {x}, body, "lax:" + std::to_string(c) + index_dtype);
  }

  // jnp.argmax / argmin (jit inline): raveled when axis is None, lax.argmax with int32 indices,
  // keepdims as lax.expand_dims.
  Result<Ref> jnp_argminmax(bool is_max, const Ref& x0, const Ref& axis_r, bool keepdims) {
    const std::string q = is_max ? "jnp.argmax" : "jnp.argmin";
    UNWRAP(x1, as_array(x0, q));
    Ref x = x1;
    std::int64_t axis = 0;
    std::vector<std::int64_t> dims;
    const std::size_t nd = x->aval.dims.size();
    if (!axis_r || axis_r->k == K::None) {
      std::int64_t n = 1;
      for (auto d : x->aval.dims) n *= d;
      for (std::size_t d = 0; d < nd; ++d) dims.push_back(std::int64_t(d));
      UNWRAP(r, reshape(x, {n}));
      x = r;
    } else {
      if (axis_r->k != K::Int)
        return fail(q + ": axis must be an int or None, got " + type_name(axis_r));
      UNWRAP(c, canonical_axis(axis_r->i, nd));
      axis = c;
      dims = {c};
    }
    UNWRAP(r, lax_argminmax(is_max, x, axis, default_int()));
    if (keepdims) return expand_dims(r, dims);
    return Result<Ref>::success(r);
  }

  // lax.cumsum / cumprod / cummax / cummin, lowered as on CPU: a private @cumsum (cache_lowering)
  // holding one reduce_window over the whole axis, padded low by n - 1 (high when reverse).
  // sum, max and min are reduce_window's own primitives, whose init goes through a
  // broadcast_in_dim to its own shape; prod is the generic lax.reduce_window, without it.
  Result<Ref> lax_cumulative(const std::string& kind, const Ref& x, std::int64_t axis0,
                             bool reverse) {
    UNWRAP(c, canonical_axis(axis0, x->aval.dims.size()));
    if (x->aval.dims[c] == 0)
      return fail_as(
          "NotImplementedError",
          "lax." + kind + " over an empty axis is not supported here (its window would be empty)");
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    const std::string op = kind == "cumsum"    ? "add"
                           : kind == "cumprod" ? "multiply"
                           : kind == "cummax"  ? "maximum"
                                               : "minimum";
    if (x->aval.dtype == "i1" && (op == "add" || op == "multiply"))
      return fail("lax." + kind + " does not accept dtype bool");
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      UNWRAP(v, value_of(in[0]));
      const hj::Aval& a = in[0]->aval;
      hj::Value init = em->constant(reduce_identity(op, a.dtype), {{}, a.dtype});
      if (kind != "cumprod") init = em->broadcast_in_dim(init, {}, {});
      std::vector<std::int64_t> window(a.dims.size(), 1), strides(a.dims.size(), 1);
      std::vector<std::pair<std::int64_t, std::int64_t>> padding(a.dims.size(), {0, 0});
      const std::int64_t n = a.dims[c];
      window[c] = n;
      padding[c] =
          reverse ? std::make_pair(std::int64_t(0), n - 1) : std::make_pair(n - 1, std::int64_t(0));
      return Result<Ref>::success(
          traced(em->reduce_window(v, init, op, window, strides, padding), in[0]->weak));
    };
    return call_jitted_private(kind, {x}, body, "lax:" + std::to_string(c) + (reverse ? "r" : ""));
  }

  // jnp.cumsum / cumprod(a, axis=None, dtype=None): jitted (axis, dtype static): a private
  // @cumsum that ravels when axis is None, converts to the result dtype (bool sums as int32),
  // and calls lax.cumsum.
  Result<Ref> jnp_cumulative(const std::string& kind, const Ref& x0, const Ref& axis_r,
                             const Ref& dtype_r) {
    const std::string q = "jnp." + kind;
    UNWRAP(x, as_array(x0, q));
    std::string want;
    if (dtype_r && dtype_r->k != K::None) {
      UNWRAP(t, dtype_arg(dtype_r, q));
      want = canonical(t);
    }
    if (axis_r && axis_r->k != K::None) {
      if (axis_r->k != K::Int)
        return fail(q + ": axis must be an int or None, got " + type_name(axis_r));
      UNWRAP(c, canonical_axis(axis_r->i, x->aval.dims.size()));
      (void)c;
    }
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      Ref a = in[0];
      std::int64_t axis = 0;
      if (!axis_r || axis_r->k == K::None || a->aval.dims.empty()) {
        std::int64_t n = 1;
        for (auto d : a->aval.dims) n *= d;
        UNWRAP(r, reshape(a, {n}));
        a = r;
      }
      if (axis_r && axis_r->k == K::Int) axis = axis_r->i;
      std::string result_t = want.empty() ? a->aval.dtype : want;
      if (result_t == "i1") result_t = default_int();
      if (want == "i1" && a->aval.dtype != "i1") {
        UNWRAP(b, convert(a, "i1", false));
        a = b;
      }
      UNWRAP(ac, convert(a, result_t, false));
      UNWRAP(r, lax_cumulative(kind, ac, axis, false));
      if (want == "i1") return convert(r, "i1", false);
      return Result<Ref>::success(r);
    };
    if (!tracing()) return body({x});
    return call_jitted_private(kind, {x}, body, "jnp:" + axis_key(axis_r) + want);
  }

  // A lax binary function: no promotion but weak Python scalars; equal ranks (rank 0 aside) with
  // dims equal or 1 (lax's broadcasting shape rule), then the op (mlir's multi_broadcast_in_dim).
  Result<Ref> lax_binary_op(const std::string& q, const std::string& op, const Ref& x0,
                            const Ref& y0) {
    UNWRAP(x, as_array(x0, q));
    UNWRAP(y, as_array(y0, q));
    if (!x->weak && !y->weak && x->aval.dtype != y->aval.dtype)
      return fail(q + " requires arguments to have the same dtypes, got " +
                  jax_dtype_name(x->aval.dtype) + ", " + jax_dtype_name(y->aval.dtype) + ".");
    const DT d = promote2(dt_of(x), dt_of(y));
    UNWRAP(xc, convert(x, d.t, d.weak));
    UNWRAP(yc, convert(y, d.t, d.weak));
    const auto &dx = xc->aval.dims, &dy = yc->aval.dims;
    if (!dx.empty() && !dy.empty()) {
      if (dx.size() != dy.size())
        return fail(q + ": arrays must have same number of dimensions, got " + shape_text(dx) +
                    ", " + shape_text(dy) + ".");
      for (std::size_t k = 0; k < dx.size(); ++k)
        if (dx[k] != dy[k] && dx[k] != 1 && dy[k] != 1)
          return fail(q + " got incompatible shapes for broadcasting: " + shape_text(dx) + ", " +
                      shape_text(dy) + ".");
    }
    const std::string& t = d.t;
    const bool bitwise = op == "and" || op == "or" || op == "xor" || op.compare(0, 5, "shift") == 0;
    if (bitwise && hj::is_float(t))
      return fail(q + " does not accept dtype " + jax_dtype_name(t) +
                  ". Accepted dtypes are subtypes of integer, bool.");
    if (op.compare(0, 5, "shift") == 0 && t == "i1")
      return fail(q + " does not accept dtype bool. Accepted dtypes are subtypes of integer.");
    if ((op == "atan2" || op == "power" || op == "chlo.next_after") && !hj::is_float(t))
      return fail(q + " does not accept dtype " + jax_dtype_name(t) +
                  ". Accepted dtypes are subtypes of floating.");
    if (t == "i1" && (op == "add" || op == "subtract" || op == "multiply" || op == "divide" ||
                      op == "remainder"))
      return fail(q + " does not accept dtype bool. Accepted dtypes are subtypes of number.");
    if (op.compare(0, 8, "compare ") == 0) return nary(op, {xc, yc}, "i1");
    return nary(op, {xc, yc});
  }

  // lax.reduce_sum / max / min / prod / and / or / xor(operand, axes): one reduce with the op's
  // identity of the operand's own dtype (no promotion).
  Result<Ref> lax_reduce(const std::string& q, const std::string& kind, const Ref& x,
                         std::vector<std::int64_t> axes) {
    static constexpr NameOp ops[] = {{"sum", "add", false},     {"max", "maximum", false},
                                     {"min", "minimum", false}, {"prod", "multiply", false},
                                     {"and", "and", false},     {"or", "or", false},
                                     {"xor", "xor", false}};
    const NameOp* o = find_name(ops, kind);
    if (!o)
      return fail_as("NotImplementedError",
                     q + " is not supported here; supported: " + supported_in("lax"));
    const std::string& t = x->aval.dtype;
    const std::string op = o->op;
    if ((op == "and" || op == "or" || op == "xor") && hj::is_float(t))
      return fail(q + " does not accept dtype " + jax_dtype_name(t) +
                  ". Accepted dtypes are subtypes of integer, bool.");
    std::vector<std::int64_t> out;
    for (auto& a : axes) {
      if (a < 0 || a >= std::int64_t(x->aval.dims.size()))
        return fail_as("ValueError", q + ": axes " + shape_text(axes) +
                                         " out of range for an array of rank " +
                                         std::to_string(x->aval.dims.size()));
    }
    std::vector<std::int64_t> sorted = axes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return fail_as("ValueError", q + ": duplicate value in axes: " + shape_text(axes));
    for (std::int64_t d = 0; d < std::int64_t(x->aval.dims.size()); ++d)
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) out.push_back(x->aval.dims[d]);
    if (!tracing()) return Result<Ref>::success(new_array({out, t}, x->weak));
    UNWRAP(v, value_of(x));
    double init;
    if (op == "and")
      init = t == "i1" ? 1 : -1;
    else if (op == "or" || op == "xor")
      init = 0;
    else
      init = reduce_identity(op, t);
    if (op == "and" && hj::is_unsigned(t)) init = std::ldexp(1.0, bits(t)) - 1;
    return Result<Ref>::success(
        traced(em->reduce(v, em->constant(init, {{}, t}), op, axes), x->weak));
  }

  // lax.clamp(min, x, max): same dtypes; min and max scalar or x's shape; each broadcast, clamp.
  Result<Ref> lax_clamp(const std::string& q, const Ref& lo0, const Ref& x0, const Ref& hi0) {
    UNWRAP(x, as_array(x0, q));
    UNWRAP(lo1, as_array(lo0, q));
    UNWRAP(hi1, as_array(hi0, q));
    UNWRAP(lo, convert(lo1, lo1->weak ? x->aval.dtype : lo1->aval.dtype, lo1->weak && x->weak));
    UNWRAP(hi, convert(hi1, hi1->weak ? x->aval.dtype : hi1->aval.dtype, hi1->weak && x->weak));
    for (const Ref& b : {lo, hi}) {
      if (b->aval.dtype != x->aval.dtype)
        return fail("lax.clamp requires arguments to have the same dtypes, got " +
                    jax_dtype_name(lo->aval.dtype) + ", " + jax_dtype_name(x->aval.dtype) + ", " +
                    jax_dtype_name(hi->aval.dtype) + ".");
      if (!b->aval.dims.empty() && b->aval.dims != x->aval.dims)
        return fail(std::string("Arrays passed to clamp must have the same shape as the operand or "
                                "be scalars, got operand shape ") +
                    shape_text(x->aval.dims) + " and bound shape " + shape_text(b->aval.dims) +
                    ".");
    }
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    UNWRAP(vl, value_of(lo));
    UNWRAP(vx, value_of(x));
    UNWRAP(vh, value_of(hi));
    if (lo->aval.dims != x->aval.dims) vl = em->broadcast_in_dim(vl, x->aval.dims, {});
    if (hi->aval.dims != x->aval.dims) vh = em->broadcast_in_dim(vh, x->aval.dims, {});
    return Result<Ref>::success(traced(em->clamp(vl, vx, vh), x->weak));
  }

  // lax.select_n's lowering: cases split in halves, select(which < mid, low half, high half); a
  // bool selector picks case 1 when true.
  Result<Ref> select_n(const Ref& which, const std::vector<Ref>& cases, std::int64_t offset) {
    if (cases.size() == 1) return Result<Ref>::success(cases[0]);
    const std::size_t mid = cases.size() / 2;
    Ref pred = which;
    if (which->aval.dtype != "i1") {
      UNWRAP(bound,
             full(which->aval.dims, double(offset + std::int64_t(mid)), which->aval.dtype, false));
      UNWRAP(p, nary("compare LT", {which, bound}, "i1"));
      pred = p;
    }
    UNWRAP(lo, select_n(which, std::vector<Ref>(cases.begin(), cases.begin() + mid), offset));
    UNWRAP(hi, select_n(which, std::vector<Ref>(cases.begin() + mid, cases.end()),
                        offset + std::int64_t(mid)));
    if (which->aval.dtype == "i1") return nary("select", {pred, hi, lo});
    return nary("select", {pred, lo, hi});
  }

  // sign of an unsigned array: select(x == 0, 0, 1).
  Result<Ref> unsigned_sign(const Ref& x) {
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    UNWRAP(z, full(x->aval.dims, 0, x->aval.dtype, false));
    UNWRAP(eq, nary("compare EQ", {x, z}, "i1"));
    UNWRAP(z2, full(x->aval.dims, 0, x->aval.dtype, false));
    UNWRAP(one, full(x->aval.dims, 1, x->aval.dtype, false));
    UNWRAP(r, nary("select", {eq, z2, one}));
    r->weak = x->weak;
    return Result<Ref>::success(r);
  }

  // lax.padtype_to_pads: 'VALID' pads nothing; 'SAME' pads so the output is ceil(in / stride),
  // the odd element at the end.
  Result<std::vector<std::pair<std::int64_t, std::int64_t>>> padding_arg(
      const std::string& q, const Ref& pad, const std::vector<std::int64_t>& in,
      const std::vector<std::int64_t>& window, const std::vector<std::int64_t>& strides) {
    using Pads = std::vector<std::pair<std::int64_t, std::int64_t>>;
    Pads out;
    if (pad->k == K::Str) {
      std::string type = pad->s;  // as JAX reads it: upper-cased
      for (char& ch : type) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (type != "SAME" && type != "VALID" && type != "SAME_LOWER")
        return fail_as(
            "RuntimeError",
            "Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got " + pad->s +
                ".");
      for (std::size_t d = 0; d < in.size(); ++d) {
        if (type == "VALID") {
          out.push_back({0, 0});
          continue;
        }
        const std::int64_t o = (in[d] + strides[d] - 1) / strides[d];
        const std::int64_t total =
            std::max<std::int64_t>((o - 1) * strides[d] + window[d] - in[d], 0);
        const std::int64_t lo = type == "SAME" ? total / 2 : total - total / 2;
        out.push_back({lo, total - lo});
      }
      return Result<Pads>::success(out);
    }
    if (pad->k != K::Tuple && pad->k != K::List)
      return fail(q + ": padding must be 'SAME', 'VALID' or a sequence of (low, high) pairs");
    for (auto& p : pad->items) {
      if ((p->k != K::Tuple && p->k != K::List) || p->items.size() != 2 ||
          p->items[0]->k != K::Int || p->items[1]->k != K::Int)
        return fail(q + ": padding must be 'SAME', 'VALID' or a sequence of (low, high) int pairs");
      out.push_back({p->items[0]->i, p->items[1]->i});
    }
    if (out.size() != in.size())
      return fail(q + ": padding has " + std::to_string(out.size()) +
                  " pairs for an operand of rank " + std::to_string(in.size()));
    return Result<Pads>::success(out);
  }

  // lax.reduce_window with lax.add / max / min / mul: with the op's identity as init, JAX binds
  // its own primitive (reduce_window_sum/max/min, init through a broadcast_in_dim); otherwise the
  // generic reduce_window (the init a constant).
  Result<Ref> reduce_window(const std::string& q, const Ref& x, const Ref& init0, const Ref& comp,
                            const std::vector<std::int64_t>& window,
                            const std::vector<std::int64_t>& strides0, const Ref& pad) {
    static constexpr NameOp ops[] = {{"lax.add", "add", false},
                                     {"lax.max", "maximum", false},
                                     {"lax.min", "minimum", false},
                                     {"lax.mul", "multiply", false}};
    const NameOp* o = comp->k == K::Builtin ? find_name(ops, comp->s) : nullptr;
    if (!o)
      return fail_as("NotImplementedError",
                     q + ": computation must be lax.add, lax.max, lax.min or lax.mul here, got " +
                         type_name(comp));
    const std::string op = o->op;
    const std::size_t n = x->aval.dims.size();
    std::vector<std::int64_t> strides = strides0;
    if (window.size() != n || strides.size() != n)
      return fail(q + ": window_dimensions and window_strides need " + std::to_string(n) +
                  " entries (the operand's rank), got " + shape_text(window) + " and " +
                  shape_text(strides));
    for (std::size_t d = 0; d < n; ++d)
      if (window[d] < 1 || strides[d] < 1)
        return fail(q + ": window_dimensions and window_strides must be positive, got " +
                    shape_text(window) + " and " + shape_text(strides));
    if (!is_pyscalar(init0) && !(init0->k == K::Array && init0->aval.dims.empty()))
      return fail(q + ": init_value must be a scalar, got " + type_name(init0));
    UNWRAP(pads, padding_arg(q, pad, x->aval.dims, window, strides));
    for (auto& [lo, hi] : pads)
      if (lo < 0 || hi < 0)
        return fail_as("NotImplementedError", q + ": negative padding is not supported here");
    const std::string& t = x->aval.dtype;
    std::vector<std::int64_t> out;
    for (std::size_t d = 0; d < n; ++d) {
      const std::int64_t size = x->aval.dims[d] + pads[d].first + pads[d].second;
      out.push_back(size < window[d] ? 0 : (size - window[d]) / strides[d] + 1);
    }
    if (!tracing()) return Result<Ref>::success(new_array({out, t}, x->weak));
    UNWRAP(v, value_of(x));
    const bool known = is_pyscalar(init0) || init0->literal;
    const double iv = init0->k == K::Array ? init0->lit : scalar_value(init0);
    const bool monoid = known && op != "multiply" && iv == reduce_identity(op, t);
    hj::Value init;
    if (monoid) {
      init = em->broadcast_in_dim(em->constant(iv, {{}, t}), {}, {});
    } else if (known) {
      init = em->constant(iv, {{}, t});
    } else {
      UNWRAP(ic, convert(init0, t, false));
      UNWRAP(vi, value_of(ic));
      init = vi;
    }
    return Result<Ref>::success(
        traced(em->reduce_window(v, init, op, window, strides, pads), x->weak));
  }

  // x // y: jnp.floor_divide, jitted (a private @floor_divide; Python scalars are weakly typed
  // arguments). Unsigned: div. Signed: div, less one where the signs differ and the remainder is
  // not 0. Floats: CPython's float_divmod, (x - rem) / y, less one where rem and y differ in sign,
  // rounded half away from zero (the remainder it also computes is dead and dropped).
  Result<Ref> floor_divide(const Ref& a0, const Ref& b0) {
    UNWRAP(a, as_array(a0, "floor_divide"));
    UNWRAP(b, as_array(b0, "floor_divide"));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      UNWRAP(xs, promote_args("floor_divide", {in[0], in[1]}, false));
      const Ref x1 = xs[0], x2 = xs[1];
      const std::string t = x1->aval.dtype;
      if (t == "i1")
        return fail_as("NotImplementedError",
                       "floor_divide of bool arrays is not supported here; convert them with "
                       ".astype(jnp.int32)");
      if (hj::is_unsigned(t)) return nary("divide", {x1, x2});
      if (!hj::is_float(t)) {
        UNWRAP(q, nary("divide", {x1, x2}));
        UNWRAP(s1, nary("sign", {x1}));
        UNWRAP(s2, nary("sign", {x2}));
        UNWRAP(ne1, compare_fn("!=", "NE", s1, s2));
        UNWRAP(r, nary("remainder", {x1, x2}));
        UNWRAP(ne2, compare_fn("!=", "NE", r, mk_int(0)));
        UNWRAP(sel, nary("and", {ne1, ne2}));
        UNWRAP(qm1, binary_fn("subtract", "subtract", q, mk_int(1)));
        return nary("select", {sel, qm1, q});
      }
      UNWRAP(mod, nary("remainder", {x1, x2}));
      UNWRAP(d0, nary("subtract", {x1, mod}));
      UNWRAP(div, nary("divide", {d0, x2}));
      UNWRAP(ne0, compare_fn("!=", "NE", mod, mk_int(0)));
      UNWRAP(sx2, nary("sign", {x2}));
      UNWRAP(smod, nary("sign", {mod}));
      UNWRAP(ne1, compare_fn("!=", "NE", sx2, smod));
      UNWRAP(ind, nary("and", {ne0, ne1}));
      UNWRAP(dm1, binary_fn("subtract", "subtract", div, typed_literal(1, t)));
      UNWRAP(d2, nary("select", {ind, dm1, div}));
      return nary("round_nearest_afz", {d2});
    };
    if (!tracing()) return body({a, b});
    return call_jitted_private("floor_divide", {a, b}, body);
  }

  // x % y: jnp.remainder, jitted (@remainder): rem, plus y where rem is not 0 and its sign
  // differs from y's; an integer divisor of 0 is replaced by 1 first.
  Result<Ref> remainder(const Ref& a0, const Ref& b0) {
    UNWRAP(a, as_array(a0, "remainder"));
    UNWRAP(b, as_array(b0, "remainder"));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      UNWRAP(xs, promote_args("remainder", {in[0], in[1]}, false));
      const Ref x1 = xs[0];
      Ref x2 = xs[1];
      const std::string t = x1->aval.dtype;
      if (t == "i1")
        return fail_as(
            "NotImplementedError",
            "remainder of bool arrays is not supported here; convert them with .astype(jnp.int32)");
      const Ref zero = typed_literal(0, t);
      if (!hj::is_float(t)) {
        UNWRAP(eq, compare_fn("==", "EQ", x2, mk_int(0)));
        UNWRAP(ones, full(x2->aval.dims, 1, t, false));
        UNWRAP(safe, nary("select", {eq, ones, x2}));
        x2 = safe;
      }
      UNWRAP(trunc, nary("remainder", {x1, x2}));
      UNWRAP(nz, nary("compare NE", {trunc, zero}, "i1"));
      UNWRAP(lt1, nary("compare LT", {trunc, zero}, "i1"));
      UNWRAP(lt2, nary("compare LT", {x2, zero}, "i1"));
      UNWRAP(ne, nary("compare NE", {lt1, lt2}, "i1"));
      UNWRAP(plus, nary("and", {ne, nz}));
      UNWRAP(sum, nary("add", {trunc, x2}));
      return nary("select", {plus, sum, trunc});
    };
    if (!tracing()) return body({a, b});
    return call_jitted_private("remainder", {a, b}, body);
  }

  // jax.nn.one_hot: a private @_one_hot (num_classes, dtype, axis static): x with a size-1 axis
  // compared with an iota of x's dtype along that axis, converted to dtype.
  Result<Ref> one_hot(const Ref& x0, const Ref& nc, const Ref& dtype_r, const Ref& axis_r) {
    const std::string q = "jax.nn.one_hot";
    UNWRAP(x, as_array(x0, q));
    if (!nc || nc->k != K::Int)
      return fail(q + ": num_classes must be a Python int, got " +
                  (nc ? type_name(nc) : std::string("nothing")));
    if (nc->i < 0)
      return fail(q + ": num_classes must be nonnegative, got " + std::to_string(nc->i));
    std::string dtype = default_float();
    if (dtype_r && dtype_r->k != K::None) {
      UNWRAP(t, dtype_arg(dtype_r, q));
      dtype = canonical(t);
    }
    std::int64_t axis = -1;
    if (axis_r && axis_r->k != K::None) {
      if (axis_r->k != K::Int) return fail(q + ": axis must be an int, got " + type_name(axis_r));
      axis = axis_r->i;
    }
    if (hj::is_float(x->aval.dtype))
      return fail_as("NotImplementedError",
                     q + " here needs integer class indices, got " + aval_text(x));
    UNWRAP(pos, canonical_axis(axis, x->aval.dims.size() + 1));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      UNWRAP(lhs, expand_dims(in[0], {pos}));
      std::vector<std::int64_t> rhs_shape(in[0]->aval.dims.size() + 1, 1);
      rhs_shape[pos] = nc->i;
      UNWRAP(okshape, check_shape(rhs_shape, q));
      (void)okshape;
      Ref rhs;
      if (!tracing())
        rhs = new_array({rhs_shape, in[0]->aval.dtype}, false);
      else
        rhs = traced(em->iota({rhs_shape, in[0]->aval.dtype}, pos), false);
      UNWRAP(eq, compare_fn("==", "EQ", lhs, rhs));
      return convert(eq, dtype, false);
    };
    if (!tracing()) return body({x});
    return call_jitted_private("_one_hot", {x}, body,
                               std::to_string(nc->i) + dtype + std::to_string(pos));
  }

  // jnp.einsum with one or two operands (jax/_src/numpy/einsum.py), after opt_einsum's
  // parse_einsum_input and contract_path checks (their messages): `...` becomes the unused
  // letters a, b, ... (the last ones for shorter operands), an implicit output is the ellipsis
  // labels then the labels seen once, sorted. opt_einsum pops the operands in the order (1, 0),
  // so lhs is the second operand and rhs the first. _einsum then: size-1 dims against a larger
  // counterpart squeezed; labels contracted in one operand only summed out (one reduce, sorted
  // label order); each label repeated within an operand masked to its diagonal (lax._delta: uint32
  // iotas compared EQ, a select with zeros) and summed over all its axes but the last when it is
  // kept; one dot_general with preferred_element_type the operands' promoted dtype (operands of
  // two dtypes both converted to it first, as the CPU lowering does), trying (rhs, lhs), then
  // (lhs, rhs), then a transpose to the output order.
  Result<Ref> einsum(const Args& a) {
    const std::string q = "jnp.einsum";
    std::string pref;  // preferred_element_type, when given
    for (auto& [k, v] : a.kw) {
      if (k == "optimize") continue;  // one or two operands: one contraction whatever the path
      if (k == "out" && v->k != K::None)
        return fail_as("NotImplementedError", "The 'out' argument to jnp.einsum is not supported.");
      if ((k == "precision" || k == "out") && v->k == K::None) continue;
      if (k == "preferred_element_type") {
        if (v->k == K::None) continue;
        UNWRAP(t, dtype_arg(v, q));
        pref = canonical(t);
        continue;
      }
      return fail(q + ": the keyword argument '" + k + "' is not supported here");
    }
    if (a.pos.empty()) return fail(q + "() missing required argument 'subscripts'");
    if (a.pos[0]->k != K::Str)
      return fail_as(
          "NotImplementedError",
          q + " here needs a subscripts string first (the sublist form is not supported), got " +
              type_name(a.pos[0]));
    std::string spec;
    for (char c : a.pos[0]->s)
      if (c != ' ') spec += c;
    for (char c : spec) {
      if (static_cast<unsigned char>(c) >= 0x80)
        return fail_as("NotImplementedError",
                       q + ": subscripts here must be ASCII letters, got '" + a.pos[0]->s + "'");
      if (!std::strchr(".,->", c) && !std::isalpha(static_cast<unsigned char>(c)))
        return fail_as("ValueError", "Character " + std::string(1, c) + " is not a valid symbol.");
    }
    std::vector<Ref> xs;
    for (std::size_t i = 1; i < a.pos.size(); ++i) {
      UNWRAP(x, as_array(a.pos[i], q));
      xs.push_back(x);
    }
    const std::string kCount =
        "Number of einsum subscripts must be equal to the number of operands.";
    if (spec.find('-') != std::string::npos || spec.find('>') != std::string::npos) {
      if (std::count(spec.begin(), spec.end(), '-') > 1 ||
          std::count(spec.begin(), spec.end(), '>') > 1 || spec.find("->") == std::string::npos)
        return fail_as("ValueError", "Subscripts can only contain one '->'.");
    }
    auto split = [](const std::string& s) {
      std::vector<std::string> parts(1);
      for (char c : s) {
        if (c == ',')
          parts.emplace_back();
        else
          parts.back() += c;
      }
      return parts;
    };
    auto join = [](const std::vector<std::string>& parts) {
      std::string s;
      for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "," : "") + parts[i];
      return s;
    };
    // opt_einsum's find_output_str: the labels seen once, sorted.
    auto find_output = [](const std::string& subs) {
      std::string all, out;
      for (char c : subs)
        if (c != ',') all += c;
      std::string sorted = all;
      std::sort(sorted.begin(), sorted.end());
      sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      for (char c : sorted)
        if (std::count(all.begin(), all.end(), c) == 1) out += c;
      return out;
    };
    const auto arrow = spec.find("->");
    std::string in_str = arrow == std::string::npos ? spec : spec.substr(0, arrow);
    std::string out;
    bool have_out = arrow != std::string::npos;
    if (have_out) out = spec.substr(arrow + 2);
    if (spec.find('.') != std::string::npos) {
      std::vector<std::string> subs = split(in_str);
      if (xs.empty() || subs.size() > xs.size()) return fail_as("ValueError", kCount);
      std::string used;
      for (char c : spec)
        if (!std::strchr(".,->", c)) used += c;
      std::size_t maxrank = 0;
      for (auto& x : xs) maxrank = std::max(maxrank, x->aval.dims.size());
      static const char* const kSymbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
      std::string inds;  // opt_einsum's gen_unused_symbols
      for (const char* s = kSymbols; *s && inds.size() < maxrank; ++s)
        if (used.find(*s) == std::string::npos) inds += *s;
      if (inds.size() < maxrank)
        return fail_as("NotImplementedError", q + ": no letters left for the axes of '...' (" +
                                                  std::to_string(maxrank) + " needed)");
      std::int64_t longest = 0;
      for (std::size_t num = 0; num < subs.size(); ++num) {
        std::string& sub = subs[num];
        if (sub.find('.') == std::string::npos) continue;
        if (std::count(sub.begin(), sub.end(), '.') != 3 || sub.find("...") == std::string::npos)
          return fail_as("ValueError", "Invalid Ellipses.");
        const std::size_t rank = xs[num]->aval.dims.size();
        const std::int64_t count =
            rank == 0 ? 0 : std::int64_t(rank) - std::int64_t(sub.size() - 3);
        longest = std::max(longest, count);
        if (count < 0) return fail_as("ValueError", "Ellipses lengths do not match.");
        sub.replace(sub.find("..."), 3,
                    count == 0 ? std::string() : inds.substr(inds.size() - std::size_t(count)));
      }
      in_str = join(subs);
      const std::string out_ellipse =
          longest == 0 ? std::string() : inds.substr(inds.size() - std::size_t(longest));
      if (have_out) {
        for (std::size_t p; (p = out.find("...")) != std::string::npos;)
          out.replace(p, 3, out_ellipse);
      } else {
        out = out_ellipse;
        for (char c : find_output(in_str))
          if (out_ellipse.find(c) == std::string::npos) out += c;
        have_out = true;
      }
    }
    if (!have_out) out = find_output(in_str);
    for (char c : out) {
      if (std::count(out.begin(), out.end(), c) != 1)
        return fail_as("ValueError", "Output character '" + std::string(1, c) +
                                         "' appeared more than once in the output.");
      if (in_str.find(c) == std::string::npos)
        return fail_as("ValueError",
                       "Output character '" + std::string(1, c) + "' did not appear in the input");
      if (c == ',' || c == '.')
        return fail(q + ": '" + std::string(1, c) + "' in the output subscripts is not a label");
    }
    const std::vector<std::string> terms = split(in_str);
    if (terms.size() != xs.size()) return fail_as("ValueError", kCount);
    if (xs.size() > 2)
      return fail_as("NotImplementedError",
                     q + " here takes one or two operands, got " + std::to_string(xs.size()));
    // contract_path's size checks (its message: the size seen first, then this operand's).
    std::map<char, std::int64_t> size;
    for (std::size_t t = 0; t < xs.size(); ++t) {
      const auto& d = xs[t]->aval.dims;
      if (d.size() != terms[t].size())
        return fail_as("ValueError",
                       "Einstein sum subscript '" + terms[t] +
                           "' does not contain the correct number of indices for operand " +
                           std::to_string(t) + ".");
      for (std::size_t k = 0; k < d.size(); ++k) {
        const char c = terms[t][k];
        auto it = size.find(c);
        if (it == size.end() || it->second == 1)
          size[c] = d[k];
        else if (d[k] != 1 && d[k] != it->second)
          return fail_as("ValueError", "Size of label '" + std::string(1, c) + "' for operand " +
                                           std::to_string(t) + " (" + std::to_string(it->second) +
                                           ") does not match previous terms (" +
                                           std::to_string(d[k]) + ").");
      }
    }
    // _einsum: preferred_element_type is the operands' result type (weak only when all are).
    DT res = dt_of(xs[0]);
    for (std::size_t i = 1; i < xs.size(); ++i) res = promote2(res, dt_of(xs[i]));
    const std::string P = pref.empty() ? res.t : pref;
    const bool out_weak = pref.empty() && res.weak;
    if (xs.size() == 2 && P == "i1")
      return fail_as("NotImplementedError", q + " of two bool arrays is not supported here");
    if (!pref.empty()) {
      for (auto& x : xs)
        if (hj::is_float(x->aval.dtype) && !hj::is_float(P))
          return fail_as("NotImplementedError",
                         q + ": preferred_element_type " + jax_dtype_name(P) + " for " +
                             jax_dtype_name(x->aval.dtype) + " operands is not supported here");
    }
    std::string contracted;  // sorted: the labels of the inputs not in the output
    for (auto& [c, n] : size)
      if (out.find(c) == std::string::npos) contracted += c;
    auto remove_chars = [](const std::string& s, const std::string& gone) {
      std::string r;
      for (char c : s)
        if (gone.find(c) == std::string::npos) r += c;
      return r;
    };
    // Labels in first-seen order with their counts (collections.Counter).
    auto counter = [](const std::string& names) {
      std::vector<std::pair<char, int>> counts;
      for (char c : names) {
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&](const std::pair<char, int>& p) { return p.first == c; });
        if (it == counts.end())
          counts.push_back({c, 1});
        else
          ++it->second;
      }
      return counts;
    };
    auto count_of = [](const std::vector<std::pair<char, int>>& counts, char c) {
      for (auto& p : counts)
        if (p.first == c) return p.second;
      return 0;
    };
    // _einsum's sum: converted to the preferred type when that is wider, then lax.reduce with
    // add (bitwise_or for bool) and 0: reduce_sum's (reduce_or's) lowering.
    auto esum = [&](Ref& x, const std::vector<std::int64_t>& axes) -> Result<bool> {
      if (promote2(dt_of(x), {P, false}).t != x->aval.dtype) {
        UNWRAP(c, convert(x, P, false));
        x = c;
      }
      UNWRAP(r, lax_reduce(q, x->aval.dtype == "i1" ? "or" : "sum", x, axes));
      x = r;
      return Result<bool>::success(true);
    };
    auto sum_uniques = [&](Ref& x, std::string& names, const std::string& uniques) -> Result<bool> {
      if (uniques.empty()) return Result<bool>::success(true);
      std::vector<std::int64_t> axes;
      for (char c : uniques) axes.push_back(std::int64_t(names.find(c)));
      UNWRAP(s, esum(x, axes));
      (void)s;
      names = remove_chars(names, uniques);
      return Result<bool>::success(true);
    };
    // lax._delta(bool, shape, axes): uint32 iotas over the repeated axes, neighbours compared EQ,
    // and-ed, broadcast to the operand's shape (no op when it is already that shape).
    auto delta = [&](const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& axes) -> Result<Ref> {
      std::vector<std::int64_t> base;
      for (auto ax : axes) base.push_back(shape[ax]);
      std::vector<Ref> iotas;
      for (std::size_t i = 0; i < base.size(); ++i)
        iotas.push_back(tracing() ? traced(em->iota({base, "ui32"}, std::int64_t(i)), false)
                                  : new_array({base, "ui32"}, false));
      std::vector<Ref> eyes;
      for (std::size_t i = 0; i + 1 < iotas.size(); ++i) {
        UNWRAP(e, nary("compare EQ", {iotas[i], iotas[i + 1]}, "i1"));
        eyes.push_back(e);
      }
      Ref r = eyes[0];
      for (std::size_t i = 1; i < eyes.size(); ++i) {
        UNWRAP(n, nary("and", {r, eyes[i]}));
        r = n;
      }
      if (base == shape) return Result<Ref>::success(r);
      return broadcast_in_dim(r, shape, axes);
    };
    auto sum_repeats = [&](Ref& x, std::string& names,
                           const std::vector<std::pair<char, int>>& counts,
                           const std::string& keep) -> Result<bool> {
      for (auto& [c, n] : counts) {
        if (n < 2) continue;
        std::vector<std::int64_t> axes;
        for (std::size_t i = 0; i < names.size(); ++i)
          if (names[i] == c) axes.push_back(std::int64_t(i));
        UNWRAP(eye, delta(x->aval.dims, axes));
        UNWRAP(zeros, full(x->aval.dims, 0, x->aval.dtype, x->weak));
        UNWRAP(sel, nary("select", {eye, x, zeros}));
        x = sel;
        if (keep.find(c) == std::string::npos) {
          UNWRAP(s, esum(x, axes));
          (void)s;
          names = remove_chars(names, std::string(1, c));
        } else {
          axes.pop_back();
          UNWRAP(s, esum(x, axes));
          (void)s;
          for (int k = 0; k < n - 1; ++k) names.erase(names.find(c), 1);
        }
      }
      return Result<bool>::success(true);
    };
    Ref r;
    std::string names;
    if (xs.size() == 1) {
      Ref x = xs[0];
      names = terms[0];
      const auto counts = counter(names);
      std::string uniques;
      for (char c : contracted)
        if (count_of(counts, c) == 1) uniques += c;
      UNWRAP(s1, sum_uniques(x, names, uniques));
      UNWRAP(s2, sum_repeats(x, names, counts, out));
      (void)s1, (void)s2;
      r = x;
    } else {
      Ref lhs = xs[1], rhs = xs[0];
      std::string ln = terms[1], rn = terms[0];
      auto filter_singletons = [&](Ref& x, std::string& nm, const std::vector<std::int64_t>& other,
                                   const std::string& other_names) -> Result<bool> {
        std::vector<std::int64_t> shape;
        std::string kept;
        for (std::size_t i = 0; i < nm.size(); ++i) {
          const auto j = other_names.find(nm[i]);
          if (x->aval.dims[i] != 1 || j == std::string::npos || other[j] == 1) {
            shape.push_back(x->aval.dims[i]);
            kept += nm[i];
          }
        }
        UNWRAP(sq, reshape(x, shape));
        x = sq;
        nm = kept;
        return Result<bool>::success(true);
      };
      UNWRAP(f1, filter_singletons(lhs, ln, rhs->aval.dims, rn));
      UNWRAP(f2, filter_singletons(rhs, rn, lhs->aval.dims, ln));
      (void)f1, (void)f2;
      const auto lcounts = counter(ln), rcounts = counter(rn);
      std::string lu, ru;
      for (char c : contracted) {
        if (count_of(lcounts, c) == 1 && count_of(rcounts, c) == 0) lu += c;
        if (count_of(rcounts, c) == 1 && count_of(lcounts, c) == 0) ru += c;
      }
      UNWRAP(s1, sum_uniques(lhs, ln, lu));
      UNWRAP(s2, sum_uniques(rhs, rn, ru));
      UNWRAP(s3, sum_repeats(lhs, ln, lcounts, out + rn));
      UNWRAP(s4, sum_repeats(rhs, rn, rcounts, out + ln));
      (void)s1, (void)s2, (void)s3, (void)s4;
      std::string cnames, batch;
      for (char c : contracted)
        if (ln.find(c) != std::string::npos || rn.find(c) != std::string::npos) cnames += c;
      for (char c : out)
        if (ln.find(c) != std::string::npos && rn.find(c) != std::string::npos) batch += c;
      std::vector<std::int64_t> lb, rb, lc, rc;
      for (char c : batch)
        lb.push_back(std::int64_t(ln.find(c))), rb.push_back(std::int64_t(rn.find(c)));
      for (char c : cnames) {
        if (ln.find(c) == std::string::npos || rn.find(c) == std::string::npos)
          return fail(q + ": label '" + std::string(1, c) +
                      "' is contracted but not in both operands after the reductions");
        lc.push_back(std::int64_t(ln.find(c))), rc.push_back(std::int64_t(rn.find(c)));
      }
      const std::string deleted = batch + cnames;
      const std::string rem_l = remove_chars(ln, deleted), rem_r = remove_chars(rn, deleted);
      // lax.dot_general's CPU lowering: operands of two dtypes are both converted to the result's.
      auto dot = [&](Ref x, Ref y, const std::vector<std::int64_t>& xc,
                     const std::vector<std::int64_t>& yc, const std::vector<std::int64_t>& xb,
                     const std::vector<std::int64_t>& yb) -> Result<Ref> {
        if (x->aval.dtype != y->aval.dtype) {
          for (Ref* z : {&x, &y}) {
            if (!tracing()) {
              *z = new_array({(*z)->aval.dims, P}, (*z)->weak);
            } else {
              UNWRAP(v, value_of(*z));
              *z = traced(em->convert(v, P), (*z)->weak);
            }
          }
        }
        return dot_general(x, y, xc, yc, xb, yb, P);
      };
      names = batch + rem_r + rem_l;
      if (names == out) {
        UNWRAP(d, dot(rhs, lhs, rc, lc, rb, lb));
        r = d;
      } else {
        names = batch + rem_l + rem_r;
        UNWRAP(d, dot(lhs, rhs, lc, rc, lb, rb));
        r = d;
      }
    }
    if (names != out) {
      std::vector<std::int64_t> perm;
      for (char c : out) perm.push_back(std::int64_t(names.find(c)));
      UNWRAP(t, transpose(r, perm, true));
      r = t;
    }
    return convert(r, P, out_weak);
  }

  // jnp.eye(N, M=None, k=0, dtype=None) (jax/_src/numpy/array_creation.py's _eye): row and
  // column iotas of int32, i + k (k a weakly typed scalar) == j, then astype(dtype) (float32 by
  // default; no convert for bool).
  Result<Ref> eye(const std::string& q, const Args& a) {
    Ref n_r = a.get(0, "N"), m_r = a.get(1, "M"), k_r = a.get(2, "k"), d_r = a.get(3, "dtype");
    if (!n_r) return fail(q + "() missing required argument 'N'");
    if (a.pos.size() > 4)
      return fail(q + "() takes from 1 to 4 positional arguments but " +
                  std::to_string(a.pos.size()) + " were given");
    for (auto& [k, v] : a.kw)
      if (k != "N" && k != "M" && k != "k" && k != "dtype")
        return fail(q + "() got an unexpected keyword argument '" + k + "'");
    auto dim = [&](const Ref& r, const char* what) -> Result<std::int64_t> {
      if (r->k != K::Int && r->k != K::Bool)
        return fail(q + ": " + what + " must be an int, got " + type_name(r));
      return Result<std::int64_t>::success(r->k == K::Bool ? std::int64_t(r->b) : r->i);
    };
    UNWRAP(n, dim(n_r, "N"));
    std::int64_t m = n;
    if (m_r && m_r->k != K::None) {
      UNWRAP(mm, dim(m_r, "M"));
      m = mm;
    }
    if (n < 0 || m < 0)
      return fail_as("ValueError",
                     "negative dimensions are not allowed, got " + std::to_string(n) + " and " +
                         (m_r && m_r->k != K::None ? std::to_string(m) : std::string("None")));
    std::int64_t k = 0;
    if (k_r && k_r->k != K::None) {
      if (k_r->k != K::Int && k_r->k != K::Bool)
        return fail_as("ValueError", "k must be a scalar integer; got " + type_name(k_r));
      k = k_r->k == K::Bool ? std::int64_t(k_r->b) : k_r->i;
    }
    k = std::max<std::int64_t>(
        INT32_MIN, std::min<std::int64_t>(INT32_MAX, k));  // lax._clip_int_to_valid_range
    std::string dtype = default_float();
    if (d_r && d_r->k != K::None) {
      UNWRAP(t, dtype_arg(d_r, q));
      dtype = canonical(t);
    }
    const std::vector<std::int64_t> shape = {n, m};
    UNWRAP(okshape, check_shape(shape, q));
    (void)okshape;
    if (!tracing()) return Result<Ref>::success(new_array({shape, dtype}, false));
    Ref i = traced(em->iota({shape, "i32"}, 0), false);
    Ref j = traced(em->iota({shape, "i32"}, 1), false);
    UNWRAP(shifted, binary_fn("add", "add", i, mk_int(k)));
    UNWRAP(eq, compare_fn("==", "EQ", shifted, j));
    return convert(eq, dtype, false);
  }

  // lax.RoundingMethod as an int (AWAY_FROM_ZERO 0, TO_NEAREST_EVEN 1; the notebook's
  // lax.RoundingMethod.X are these ints): whether it rounds half to even.
  Result<bool> rounding_method(const Ref& r, const std::string& q) {
    if (!r || r->k == K::None) return Result<bool>::success(false);
    if ((r->k != K::Int && r->k != K::Bool) || (r->k == K::Int && r->i != 0 && r->i != 1))
      return fail_as("ValueError", q +
                                       ": rounding_method must be lax.RoundingMethod."
                                       "AWAY_FROM_ZERO (0) or TO_NEAREST_EVEN (1), got " +
                                       (r->k == K::Int ? std::to_string(r->i) : type_name(r)));
    return Result<bool>::success(r->k == K::Int ? r->i == 1 : r->b);
  }

  // jnp.round / jnp.around(a, decimals=0): jitted with decimals static, so a private @round. An
  // integer array comes back as it is (decimals >= 0); a float one is lax.round to nearest even,
  // with decimals != 0 scaled by a constant 10**decimals of its dtype (float16 in float32) first
  // and divided back after.
  Result<Ref> jnp_round(const std::string& q, const Args& a) {
    Ref a_r = a.get(0, "a"), d_r = a.get(1, "decimals");
    if (!a_r) return fail(q + "() missing 1 required positional argument: 'a'");
    for (auto& [k, v] : a.kw)
      if (k != "a" && k != "decimals" && k != "out")
        return fail(q + "() got an unexpected keyword argument '" + k + "'");
    if (Ref o = a.get(2, "out"); o && o->k != K::None)
      return fail_as("NotImplementedError", "The 'out' argument to jnp.round is not supported.");
    UNWRAP(x, as_array(a_r, "round"));
    std::int64_t d = 0;
    if (d_r) {
      if (d_r->k != K::Int && d_r->k != K::Bool)
        return fail(q + ": decimals must be an int, got " + type_name(d_r));
      d = d_r->k == K::Int ? d_r->i : std::int64_t(d_r->b);
    }
    const std::string t = x->aval.dtype;
    if (t == "i1")  // not an integer to JAX: lax.round refuses it
      return fail("round does not accept dtype bool. Accepted dtypes are subtypes of floating.");
    if (!hj::is_float(t) && d < 0)
      return fail_as("NotImplementedError", "integer np.round not implemented for decimals < 0");
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      Ref v = in[0];
      if (!hj::is_float(t)) return Result<Ref>::success(v);
      if (d == 0) return nary("round_nearest_even", {v});
      const std::string work = t == "f16" ? "f32" : t;
      if (work != t) {
        UNWRAP(c, convert(v, work, false));
        v = c;
      }
      const double factor = std::pow(10.0, static_cast<double>(d));
      UNWRAP(m, binary_fn("multiply", "multiply", v, typed_literal(factor, work)));
      UNWRAP(r, nary("round_nearest_even", {m}));
      UNWRAP(q2, binary_fn("divide", "divide", r, typed_literal(factor, work)));
      if (work != t) return convert(q2, t, false);
      return Result<Ref>::success(q2);
    };
    return call_jitted_private("round", {x}, body, "decimals:" + std::to_string(d));
  }

  // lax.sort over arrays of one shape: the sorted arrays (an abstract shape when not tracing).
  Result<std::vector<Ref>> sort_arrays(const std::string& q, const std::vector<Ref>& xs,
                                       std::int64_t dimension, bool stable, std::int64_t num_keys) {
    const std::vector<std::int64_t>& dims = xs[0]->aval.dims;
    for (auto& x : xs)
      if (x->aval.dims != dims)
        return fail(q + ": all operands must have the same shape, got " + shape_text(dims) +
                    " and " + shape_text(x->aval.dims));
    if (dims.empty()) return fail(q + ": the operands must have at least one dimension");
    UNWRAP(d, canonical_axis(dimension, dims.size()));
    if (num_keys < 1 || num_keys > std::int64_t(xs.size()))
      return fail_as("ValueError",
                     "num_keys=" + std::to_string(num_keys) +
                         " must be between 1 and len(operand)=" + std::to_string(xs.size()));
    std::vector<Ref> out;
    if (!tracing()) {
      for (auto& x : xs) out.push_back(new_array(x->aval, x->weak));
      return Result<std::vector<Ref>>::success(out);
    }
    std::vector<hj::Value> vs;
    for (auto& x : xs) {
      UNWRAP(v, value_of(x));
      vs.push_back(v);
    }
    const auto sorted = em->sort(vs, d, stable, num_keys);
    for (std::size_t i = 0; i < xs.size(); ++i) out.push_back(traced(sorted[i], xs[i]->weak));
    return Result<std::vector<Ref>>::success(out);
  }

  // jnp.sort / jnp.argsort(a, axis=-1, *, kind=None, order=None, stable=True, descending=False):
  // jitted with the options static, so a private @sort / @argsort. sort is lax.sort along the
  // axis (None: the array raveled); argsort sorts the array with an int32 iota as its value
  // (lax.sort_key_val, one key) and returns the iota; descending reverses (a stable descending
  // argsort reverses the operands first, then the indices).
  Result<Ref> jnp_sort(const std::string& q, const std::string& fn, const Args& a) {
    Ref a_r = a.get(0, "a"), ax_r = a.get(1, "axis");
    if (!a_r) return fail(q + "() missing 1 required positional argument: 'a'");
    if (a.pos.size() > 2)
      return fail(q + "() takes from 1 to 2 positional arguments but " +
                  std::to_string(a.pos.size()) + " were given");
    bool stable = true, descending = false;
    for (auto& [k, v] : a.kw) {
      if (k == "a" || k == "axis" || k == "kind") continue;
      if (k == "order") {
        if (v->k != K::None)
          return fail_as("ValueError", "'order' argument to sort is not supported.");
      } else if (k == "stable" || k == "descending") {
        if (v->k != K::Bool && v->k != K::Int)
          return fail(q + ": " + k + " must be a bool, got " + type_name(v));
        (k == "stable" ? stable : descending) = v->k == K::Bool ? v->b : v->i != 0;
      } else {
        return fail(q + "() got an unexpected keyword argument '" + k + "'");
      }
    }
    UNWRAP(x0, as_array(a_r, fn));
    Ref x = x0;
    std::int64_t axis = -1;
    const bool flat = ax_r && ax_r->k == K::None;
    if (ax_r && !flat) {
      if (ax_r->k != K::Int)
        return fail(q + ": axis must be an int or None, got " + type_name(ax_r));
      axis = ax_r->i;
    }
    const std::size_t rank = flat ? 1 : x->aval.dims.size();
    if (rank == 0)
      return fail_as("ValueError",
                     "axis " + std::to_string(axis) + " is out of bounds for array of dimension 0");
    UNWRAP(d, canonical_axis(axis, rank));
    const std::string key = std::string(flat ? "flat" : std::to_string(d)) + (stable ? "s" : "") +
                            (descending ? "d" : "");
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      Ref arr = in[0];
      if (flat) {
        std::int64_t n = 1;
        for (auto e : arr->aval.dims) n *= e;
        UNWRAP(r, reshape(arr, {n}));
        arr = r;
      }
      if (fn == "sort") {
        UNWRAP(sorted, sort_arrays(q, {arr}, d, stable, 1));
        if (!descending) return Result<Ref>::success(sorted[0]);
        return rev(sorted[0], {d});
      }
      Ref iota = tracing() ? traced(em->iota({arr->aval.dims, default_int()}, d), false)
                           : new_array({arr->aval.dims, default_int()}, false);
      if (descending && stable) {
        UNWRAP(ra, rev(arr, {d}));
        UNWRAP(ri, rev(iota, {d}));
        arr = ra;
        iota = ri;
      }
      UNWRAP(sorted, sort_arrays(q, {arr, iota}, d, stable, 1));
      if (!descending) return Result<Ref>::success(sorted[1]);
      return rev(sorted[1], {d});
    };
    if (!tracing()) return body({x});
    return call_jitted_private(fn, {x}, body, key);
  }

  // jnp.tril / jnp.triu(m, k=0) (jax/_src/numpy/lax_numpy.py): jitted with k static, so a private
  // @tril / @triu taking m. The mask is lax._tri's (int32 row iota + k >= column iota; k - 1 for
  // triu), broadcast over m's leading axes; then select(mask, m, zeros_like(m)) for tril and
  // select(mask, zeros_like(m), m) for triu.
  Result<Ref> tri_part(const std::string& q, const std::string& fn, const Args& a) {
    Ref m_r = a.get(0, "m"), k_r = a.get(1, "k");
    if (!m_r) return fail(q + "() missing 1 required positional argument: 'm'");
    if (a.pos.size() > 2)
      return fail(q + "() takes from 1 to 2 positional arguments but " +
                  std::to_string(a.pos.size()) + " were given");
    for (auto& [k, v] : a.kw)
      if (k != "m" && k != "k")
        return fail(q + "() got an unexpected keyword argument '" + k + "'");
    UNWRAP(m, as_array(m_r, fn));
    const std::vector<std::int64_t> dims = m->aval.dims;
    const std::size_t r = dims.size();
    if (r < 2) return fail_as("ValueError", "Argument to jax.numpy." + fn + " must be at least 2D");
    std::int64_t k = 0;
    if (k_r && k_r->k != K::None) {
      if (k_r->k != K::Int && k_r->k != K::Bool)
        return fail(q + ": k must be an int, got " + type_name(k_r));
      k = k_r->k == K::Bool ? std::int64_t(k_r->b) : k_r->i;
    }
    const bool lower = fn == "tril";
    if (!lower) k = k == INT64_MIN ? k : k - 1;
    k = std::max<std::int64_t>(
        INT32_MIN, std::min<std::int64_t>(INT32_MAX, k));  // lax._clip_int_to_valid_range
    if (!tracing()) return Result<Ref>::success(new_array(m->aval, m->weak));
    auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
      const Ref& x = in[0];
      const hj::Aval square{{dims[r - 2], dims[r - 1]}, "i32"};
      // ge(add(iota(0), k), iota(1)): Python evaluates the add before the second iota.
      Ref i = traced(em->iota(square, 0), false);
      UNWRAP(shifted, binary_fn("add", "add", i, mk_int(k)));
      Ref j = traced(em->iota(square, 1), false);
      UNWRAP(mask0, compare_fn(">=", "GE", shifted, j));
      Ref mask = mask0;
      if (r > 2) {
        UNWRAP(mb, broadcast_in_dim(mask0, dims, {std::int64_t(r - 2), std::int64_t(r - 1)}));
        mask = mb;
      }
      UNWRAP(zeros, full(dims, 0, x->aval.dtype, x->weak));
      return nary("select",
                  lower ? std::vector<Ref>{mask, x, zeros} : std::vector<Ref>{mask, zeros, x});
    };
    return call_jitted_private(fn, {m}, body, "k:" + std::to_string(k));
  }

  // lax.conv_general_dilated: dimension numbers as specs ('NCHW', 'OIHW', 'NCHW' by default, any
  // letters JAX accepts) ordered as lax.conv_general_permutations orders them (spatial dims in
  // the rhs spec's order), 'SAME'/'VALID' padding over the dilated window, one convolution.
  Result<Ref> conv(const std::string& q, const Ref& lhs, const Ref& rhs,
                   const std::vector<std::int64_t>& strides0, const Ref& pad, const Ref& ld,
                   const Ref& rd, const Ref& dn) {
    const std::size_t n = lhs->aval.dims.size();
    if (n < 3 || rhs->aval.dims.size() != n)
      return fail(q + ": lhs and rhs must have the same rank, at least 3, got " +
                  shape_text(lhs->aval.dims) + " and " + shape_text(rhs->aval.dims));
    if (lhs->aval.dtype != rhs->aval.dtype)
      return fail(q + " requires arguments to have the same dtypes, got " +
                  jax_dtype_name(lhs->aval.dtype) + ", " + jax_dtype_name(rhs->aval.dtype) + ".");
    const std::size_t ns = n - 2;
    std::string specs[3];
    if (!dn || dn->k == K::None) {
      const std::string sp = std::string("HWDXYZUV").substr(0, ns);
      specs[0] = "NC" + sp, specs[1] = "OI" + sp, specs[2] = "NC" + sp;
    } else {
      if ((dn->k != K::Tuple && dn->k != K::List) || dn->items.size() != 3)
        return fail(q +
                    ": dimension_numbers must be None or a tuple of three strings such as ('NHWC', "
                    "'HWIO', 'NHWC')");
      for (int k = 0; k < 3; ++k) {
        if (dn->items[k]->k != K::Str || dn->items[k]->s.size() != n)
          return fail(q + ": dimension_numbers must be three strings of length " +
                      std::to_string(n) + " (the rank)");
        specs[k] = dn->items[k]->s;
        std::string sorted = specs[k];
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
          return fail(q + ": dimension_numbers spec '" + specs[k] + "' repeats a dimension");
      }
    }
    // Permutations: (batch/out-feature, feature/in-feature, spatial...) positions in each spec.
    const char pairs[3][2] = {{'N', 'C'}, {'O', 'I'}, {'N', 'C'}};
    std::vector<std::int64_t> perm[3];
    for (int k = 0; k < 3; ++k) {
      const std::string& s = specs[k];
      const auto a = s.find(pairs[k][0]), b = s.find(pairs[k][1]);
      if (a == std::string::npos || b == std::string::npos)
        return fail(q + ": dimension_numbers spec '" + s + "' must contain " + pairs[k][0] +
                    " and " + pairs[k][1]);
      perm[k] = {std::int64_t(a), std::int64_t(b)};
      std::vector<std::int64_t> spatial;
      for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] != pairs[k][0] && s[i] != pairs[k][1]) spatial.push_back(std::int64_t(i));
      if (k != 1) {
        for (auto i : spatial)
          if (specs[1].find(s[i]) == std::string::npos)
            return fail(q + ": the spatial dimension '" + std::string(1, s[i]) + "' of '" + s +
                        "' is not in the rhs spec '" + specs[1] + "'");
        std::sort(spatial.begin(), spatial.end(), [&](std::int64_t x, std::int64_t y) {
          return specs[1].find(s[x]) < specs[1].find(s[y]);
        });
      }
      perm[k].insert(perm[k].end(), spatial.begin(), spatial.end());
    }
    auto labels = [&](int k, const char* roles) {
      std::vector<std::string> lab(n);
      lab[perm[k][0]] = std::string(1, roles[0]);
      lab[perm[k][1]] = std::string(1, roles[1]);
      for (std::size_t s = 0; s < ns; ++s) lab[perm[k][2 + s]] = std::to_string(s);
      std::string out = "[";
      for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + lab[i];
      return out + "]";
    };
    const std::string dims_text = labels(0, "bf") + "x" + labels(1, "oi") + "->" + labels(2, "bf");
    auto ints = [&](const Ref& r, const char* what) -> Result<std::vector<std::int64_t>> {
      if (!r || r->k == K::None)
        return Result<std::vector<std::int64_t>>::success(std::vector<std::int64_t>(ns, 1));
      UNWRAP(v, int_list(r, q + ": " + what));
      if (v.size() != ns)
        return fail(q + ": " + what + " needs " + std::to_string(ns) + " entries, got " +
                    shape_text(v));
      for (auto x : v)
        if (x < 1) return fail(q + ": " + what + " must be positive, got " + shape_text(v));
      return Result<std::vector<std::int64_t>>::success(v);
    };
    if (strides0.size() != ns)
      return fail_as("ValueError", q + ": window_strides needs " + std::to_string(ns) +
                                       " entries, got " + shape_text(strides0));
    for (auto x : strides0)
      if (x < 1) return fail(q + ": window_strides must be positive, got " + shape_text(strides0));
    UNWRAP(lhs_dil, ints(ld, "lhs_dilation"));
    UNWRAP(rhs_dil, ints(rd, "rhs_dilation"));
    const auto& L = lhs->aval.dims;
    const auto& R = rhs->aval.dims;
    if (L[perm[0][1]] != R[perm[1][1]])
      return fail_as(
          "ValueError",
          "conv_general_dilated lhs feature dimension size divided by feature_group_count must "
          "equal the rhs input feature "
          "dimension size, but " +
              std::to_string(L[perm[0][1]]) + " // 1 != " + std::to_string(R[perm[1][1]]) + ".");
    std::vector<std::int64_t> in_sp, win_sp;
    for (std::size_t s = 0; s < ns; ++s)
      if (R[perm[1][2 + s]] < 1)
        return fail(q + ": the rhs window must not be empty, got rhs shape " + shape_text(R));
    for (std::size_t s = 0; s < ns; ++s) {
      in_sp.push_back(L[perm[0][2 + s]]);
      win_sp.push_back((R[perm[1][2 + s]] - 1) * rhs_dil[s] + 1);
    }
    UNWRAP(pads, padding_arg(q, pad, in_sp, win_sp, strides0));
    if (pads.size() != ns) return fail(q + ": padding needs " + std::to_string(ns) + " pairs");
    std::vector<std::int64_t> out(n);
    out[perm[2][0]] = L[perm[0][0]];
    out[perm[2][1]] = R[perm[1][0]];
    for (std::size_t s = 0; s < ns; ++s) {
      const std::int64_t padded =
          (in_sp[s] == 0 ? 0 : (in_sp[s] - 1) * lhs_dil[s] + 1) + pads[s].first + pads[s].second;
      out[perm[2][2 + s]] = padded < win_sp[s] ? 0 : (padded - win_sp[s]) / strides0[s] + 1;
    }
    UNWRAP(okshape, check_shape(out, q));
    (void)okshape;
    const hj::Aval av{out, lhs->aval.dtype};
    if (!tracing()) return Result<Ref>::success(new_array(av, false));
    UNWRAP(vl, value_of(lhs));
    UNWRAP(vr, value_of(rhs));
    return Result<Ref>::success(
        traced(em->convolution(vl, vr, dims_text, av, strides0, pads, lhs_dil, rhs_dil), false));
  }

  // lax.rev(operand, dimensions): one stablehlo.reverse, bound for no dimensions too (rev_p has
  // no shortcut: jnp.flip of a scalar prints `dims = []`).
  Result<Ref> rev(const Ref& x, const std::vector<std::int64_t>& dims) {
    std::vector<std::int64_t> seen;
    for (auto d : dims) {
      if (d < 0 || d >= std::int64_t(x->aval.dims.size()))
        return fail("rev dimensions " + shape_text(dims) + " out of range for an array of rank " +
                    std::to_string(x->aval.dims.size()));
      if (std::find(seen.begin(), seen.end(), d) != seen.end())
        return fail("rev dimensions must be unique, got " + shape_text(dims) + ".");
      seen.push_back(d);
    }
    if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
    UNWRAP(v, value_of(x));
    return Result<Ref>::success(traced(em->reverse(v, dims), x->weak));
  }

  // lax.full(shape, value, dtype): a constant broadcast to the shape.
  Result<Ref> full(const std::vector<std::int64_t>& shape, double value, const std::string& dtype,
                   bool weak) {
    UNWRAP(okshape, check_shape(shape, "full"));
    (void)okshape;
    const std::string t = canonical(dtype);
    if (!tracing()) return Result<Ref>::success(new_array({shape, t}, weak));
    hj::Value c = em->constant(value, {{}, t});
    if (!shape.empty()) c = em->broadcast_in_dim(c, shape, {});
    return Result<Ref>::success(traced(c, weak));
  }

  // A host array in the function being traced: a closed-over constant (Emitter::constant_array),
  // one per host object and function trace.
  std::map<std::tuple<int, int, const void*>, Ref> host_constants;
  Result<Ref> host_constant(const std::vector<double>& values, const hj::Aval& type,
                            const void* identity) {
    if (!tracing()) return Result<Ref>::success(new_array(type, false));
    const int fn = fn_stack.back();
    if (!captures.empty() && captures.back().fn == fn)
      return fail_as("NotImplementedError",
                     "a host array (" + tr::aval_text(type) +
                         ") used in a loop's body is one of the loop's consts in JAX: not "
                         "supported here; use it outside the loop or pass it in the carry");
    const auto key = std::make_tuple(fn, epoch_of(fn), identity);
    auto hit = host_constants.find(key);
    if (hit != host_constants.end()) return Result<Ref>::success(hit->second);
    Ref r = traced(em->constant_array(values, type), false);
    host_constants.emplace(key, r);
    return Result<Ref>::success(r);
  }

  // A jax.jit-decorated helper called while tracing: a private function named after it.
  // `key` names the static arguments (jax.jit's static_argnames: an axis, keepdims): a call with
  // other static values is another function (MLIR renames it name_0, name_1, ...).
  std::map<std::string, int> private_cache;
  std::map<int, int> epochs;  // function index → how many of its traces were thrown away
  int epoch_of(int fn) const {
    auto it = epochs.find(fn);
    return it == epochs.end() ? 0 : it->second;
  }

  // A scan body being traced (lax.fori_loop): arrays of the enclosing functions it uses become
  // the scan's consts (JAX's closed-over tracers), in the order of first use. The trace reads each
  // as a zero placeholder; the body is then made again with them as its first arguments
  // (Emitter::remake_function), the placeholders' ops left out.
  struct Capture {
    int fn = -1;
    std::vector<Ref> refs;
    std::vector<hj::Value> vals;
  };
  std::vector<Capture> captures;
  Result<hj::Value> capture(const Ref& a) {
    Capture& c = captures.back();
    for (std::size_t k = 0; k < c.refs.size(); ++k)
      if (c.refs[k]->fn == a->fn && c.refs[k]->v.id == a->v.id)
        return Result<hj::Value>::success(c.vals[k]);
    c.refs.push_back(a);
    hj::Value z = em->constant(0, {{}, a->aval.dtype});
    if (!a->aval.dims.empty()) z = em->broadcast_in_dim(z, a->aval.dims, {});
    c.vals.push_back(z);
    return Result<hj::Value>::success(z);
  }

  // A pytree of arrays (tuples and lists of arrays and Python scalars): its leaves, and a
  // rebuild from new leaves.
  Result<bool> flatten(const Ref& x, std::vector<Ref>& leaves, const std::string& q) {
    if (x->k == K::Tuple || x->k == K::List) {
      for (auto& it : x->items) {
        UNWRAP(ok, flatten(it, leaves, q));
        (void)ok;
      }
      return Result<bool>::success(true);
    }
    if (x->k == K::None) return Result<bool>::success(true);
    UNWRAP(a, as_array(x, q));
    leaves.push_back(a);
    return Result<bool>::success(true);
  }
  Ref unflatten(const Ref& shape, const std::vector<Ref>& leaves, std::size_t& at) {
    if (shape->k == K::Tuple || shape->k == K::List) {
      std::vector<Ref> items;
      for (auto& it : shape->items) items.push_back(unflatten(it, leaves, at));
      return mk_tuple(items, shape->k);
    }
    if (shape->k == K::None) return shape;
    return leaves[at++];
  }
  // jax.tree_util's structure check, as lax.scan's _check_carry_type words it for a fori_loop
  // (the carry is (i, x): x's path is loop_carry[1]).
  std::string structure_diff(const Ref& a, const Ref& b, const std::string& path) {
    auto kind = [](const Ref& r) {
      return r->k == K::Tuple  ? std::string("a tuple")
             : r->k == K::List ? std::string("a list")
             : r->k == K::None ? std::string("None")
                               : std::string("an array");
    };
    const bool ca = a->k == K::Tuple || a->k == K::List, cb = b->k == K::Tuple || b->k == K::List;
    if (kind(a) != kind(b) && (ca || cb || a->k == K::None || b->k == K::None))
      return "the input carry component " + path + " is " + kind(a) +
             " but the corresponding component of the carry output is " + kind(b) +
             ", so their Python types differ";
    if (ca && a->items.size() != b->items.size())
      return "the input carry component " + path + " is " + kind(a) + " of length " +
             std::to_string(a->items.size()) +
             " but the corresponding component of the carry output is " + kind(b) + " of length " +
             std::to_string(b->items.size()) + ", so the lengths do not match";
    if (ca)
      for (std::size_t k = 0; k < a->items.size(); ++k) {
        std::string d =
            structure_diff(a->items[k], b->items[k], path + "[" + std::to_string(k) + "]");
        if (!d.empty()) return d;
      }
    return "";
  }
  std::vector<std::string> leaf_paths(const Ref& x, const std::string& path) {
    if (x->k == K::Tuple || x->k == K::List) {
      std::vector<std::string> out;
      for (std::size_t k = 0; k < x->items.size(); ++k)
        for (auto& p : leaf_paths(x->items[k], path + "[" + std::to_string(k) + "]"))
          out.push_back(p);
      return out;
    }
    if (x->k == K::None) return {};
    return {path};
  }

  // lax.fori_loop(lower, upper, body_fun, init_val) with Python int bounds: JAX calls
  // lax.scan(_fori_scan_body_fun(body_fun), (lower, init_val), length=max(upper - lower, 0))
  // (jax/_src/lax/control_flow/loops.py), whose lowering (_scan_impl) is a while over (consts,
  // counter, carry) calling the body as a closed call (@None). The carry's i is weakly typed
  // int32; jit's dead-code elimination drops it when body_fun does not use it; weakly typed init
  // leaves whose output type differs are converted first (_promote_weak_typed_inputs).
  Result<Ref> fori_loop(const Args& a) {
    const std::string q = "lax.fori_loop";
    if (g_enable_x64)  // the loop's counter would be int64, which the emitter's loop does not take
      return fail_as("NotImplementedError",
                     q + " with jax_enable_x64 on is not supported here (its counter is int64)");
    Ref lo_r = a.get(0, "lower"), hi_r = a.get(1, "upper"), body_r = a.get(2, "body_fun"),
        init_r = a.get(3, "init_val");
    for (auto& [k, v] : a.kw) {
      if (k == "unroll" && (v->k == K::None || (v->k == K::Bool && !v->b))) continue;
      if (k != "lower" && k != "upper" && k != "body_fun" && k != "init_val")
        return fail(q + ": the keyword argument '" + k + "' is not supported here");
    }
    if (!lo_r || !hi_r || !body_r || !init_r)
      return fail(q + "() missing required arguments: lower, upper, body_fun and init_val");
    if (body_r->k != K::Func && body_r->k != K::Builtin)
      return fail("lax.fori_loop: body_fun argument should be callable.");
    for (const Ref& b : {lo_r, hi_r})
      if (b->k != K::Int)
        return fail_as("NotImplementedError",
                       q + " here needs Python int bounds (JAX's scan form), got " + type_name(b) +
                           "; bounds from traced values (a while_loop) are not supported here");
    for (const Ref& b : {lo_r, hi_r})
      if (b->i < INT32_MIN || b->i > INT32_MAX)
        return fail(q + ": the bound " + std::to_string(b->i) + " does not fit in int32");
    if (!tracing())
      return fail_as("NotImplementedError",
                     q + " outside the traced function is not supported here");
    const std::int64_t lower = lo_r->i, length = std::max<std::int64_t>(0, hi_r->i - lo_r->i);
    std::vector<Ref> init;
    UNWRAP(okf, flatten(init_r, init, q));
    (void)okf;
    if (init.empty())
      return fail_as("NotImplementedError", q + " here needs an init_val with at least one array");

    // The trace of the body into a private @None taking (i, carry), arrays it closes over read as
    // placeholders (Capture); made again below with the scan's arguments (consts, [i], carry).
    struct Trace {
      int fn = -1;
      std::vector<Ref> out;  // output leaves (values in the body function)
      Ref out_tree;
      std::vector<Ref> consts;
      std::vector<hj::Value> const_vals;  // their placeholders in the body
      std::vector<bool> needed;           // the body's values its carry needs (Emitter)
    };
    auto trace = [&](const std::vector<Ref>& carry) -> Result<Trace> {
      std::vector<hj::Aval> types{{{}, "i32"}};
      for (auto& c : carry) types.push_back(c->aval);
      Trace t;
      t.fn = em->begin_function("None", types);
      fn_stack.push_back(t.fn);
      Capture cap;
      cap.fn = t.fn;
      captures.push_back(cap);
      auto done = [&]() {
        captures.pop_back();
        fn_stack.pop_back();
      };
      std::vector<Ref> xs;
      for (std::size_t k = 0; k < carry.size(); ++k)
        xs.push_back(traced(hj::Value{int(1 + k)}, carry[k]->weak));
      std::size_t at = 0;
      Ref x = unflatten(init_r, xs, at);
      Ref i = traced(hj::Value{0}, true);
      auto ni = binary_fn("add", "add", i, mk_int(1));
      if (!ni) return done(), pass_on(ni);
      Ref next_i = ni.value();
      auto r = call_function(body_r, {i, x}, {});
      if (!r) return done(), pass_on(r);
      t.out_tree = r.value();
      const std::string diff = structure_diff(init_r, t.out_tree, "loop_carry[1]");
      if (!diff.empty()) {
        done();
        std::string d = diff;
        d[0] = char(std::toupper(static_cast<unsigned char>(d[0])));
        return fail(
            "scan body function carry input and carry output must have the same pytree structure, "
            "but they differ: " +
            d +
            ". Revise the function so that the carry output has the same pytree structure as "
            "the carry input.");
      }
      auto fl = flatten(t.out_tree, t.out, q);
      if (!fl) return done(), pass_on(fl);
      std::vector<hj::Value> results;
      auto v = value_of(next_i);
      if (!v) return done(), pass_on(v);
      results.push_back(v.value());
      for (auto& o : t.out) {
        auto ov = value_of(o);
        if (!ov) return done(), pass_on(ov);
        results.push_back(ov.value());
      }
      t.consts = captures.back().refs;
      t.const_vals = captures.back().vals;
      done();
      em->end_function(results);
      return Result<Trace>::success(t);
    };

    const int first_fn = em->function_count();
    auto discard = [&]() {
      for (int f = first_fn; f < em->function_count(); ++f) ++epochs[f];
      em->drop_functions(first_fn);
      for (auto it = private_cache.begin(); it != private_cache.end();)
        it = it->second >= first_fn ? private_cache.erase(it) : std::next(it);
    };
    std::vector<Ref> carry = init;
    Trace probe;
    for (int pass = 0;; ++pass) {
      auto t = trace(carry);
      if (!t) {
        discard();
        return pass_on(t);
      }
      probe = t.value();
      // i is carried when the body's carry needs it (results from 1: i + 1 is result 0); else
      // jit's dead-code elimination drops it, a read by a dead op included.
      probe.needed = em->needed_values(probe.fn, 1);
      // Weakly typed init leaves whose type differs from the output's are converted, and the body
      // traced again (as lax.scan's _promote_weak_typed_inputs makes JAX trace it again).
      std::vector<std::pair<std::size_t, std::string>> converts;
      for (std::size_t k = 0; k < carry.size(); ++k) {
        const Ref& o = probe.out[k];
        if (carry[k]->weak &&
            (carry[k]->aval.dtype != o->aval.dtype || carry[k]->aval.dims != o->aval.dims) &&
            pass == 0) {
          const DT d = promote2(dt_of(carry[k]), DT{o->aval.dtype, o->weak});
          if (d.t != carry[k]->aval.dtype) converts.push_back({k, d.t});
        }
      }
      if (!converts.empty()) {
        discard();
        for (const auto& [k, dtype] : converts) {
          UNWRAP(c, convert(carry[k], dtype, false));
          carry[k] = c;
        }
        continue;
      }
      std::vector<std::string> diffs;
      const auto paths = leaf_paths(init_r, "loop_carry[1]");
      for (std::size_t k = 0; k < carry.size(); ++k) {
        const Ref& o = probe.out[k];
        const bool dt = carry[k]->aval.dtype != o->aval.dtype,
                   sh = carry[k]->aval.dims != o->aval.dims;
        if (!dt && !sh) continue;
        diffs.push_back("the input carry component " + paths[k] + " has type " +
                        aval_text(carry[k]) +
                        " but the corresponding output carry component has type " + aval_text(o) +
                        ", so " + (dt ? "the dtypes do not match" : "") +
                        (dt && sh ? " and also " : "") + (sh ? "the shapes do not match" : ""));
      }
      if (!diffs.empty()) {
        discard();
        std::string m;
        for (std::size_t k = 0; k < diffs.size(); ++k) m += (k ? "; " : "") + diffs[k];
        m[0] = char(std::toupper(static_cast<unsigned char>(m[0])));
        return fail(
            "scan body function carry input and carry output must have equal types (e.g. shapes "
            "and dtypes of arrays), "
            "but they differ: " +
            m +
            ". Revise the function so that all output types (e.g. shapes and dtypes) match the "
            "corresponding input types.");
      }
      break;
    }
    if (length ==
        0) {  // _scan_impl makes no while for no trips: the (converted) init is the result
      discard();
      std::size_t at = 0;
      return Result<Ref>::success(unflatten(init_r, carry, at));
    }
    // The body as the while calls it, (consts, [i], carry), made again from its one trace: the
    // placeholders the carry needs become the leading arguments (scan's DCE rule drops a const
    // only dead ops read), and without i its increment goes.
    const bool i_used = probe.needed[0];  // i (the body's %arg0) reaches the carry
    std::vector<hj::Aval> types;
    std::vector<std::pair<int, int>> given;
    std::vector<Ref> consts;
    for (std::size_t k = 0; k < probe.consts.size(); ++k) {
      if (!probe.needed[std::size_t(probe.const_vals[k].id)]) continue;
      given.push_back({probe.const_vals[k].id, int(types.size())});
      types.push_back(probe.consts[k]->aval);
      consts.push_back(probe.consts[k]);
    }
    if (i_used) {
      given.push_back({0, int(types.size())});
      types.push_back({{}, "i32"});
    }
    for (std::size_t k = 0; k < carry.size(); ++k) {
      given.push_back({int(1 + k), int(types.size())});
      types.push_back(carry[k]->aval);
    }
    em->remake_function(probe.fn, types, given, i_used ? 0 : 1);
    ++epochs[probe.fn];  // the trace's values of the body are gone
    std::vector<hj::Value> const_vals, carry_vals;
    for (auto& c : consts) {
      UNWRAP(v, value_of(c));
      const_vals.push_back(v);
    }
    if (i_used) carry_vals.push_back(em->constant(double(lower), {{}, "i32"}));
    for (auto& c : carry) {
      UNWRAP(v, value_of(c));
      carry_vals.push_back(v);
    }
    auto outs = em->scan_while(const_vals, carry_vals, length, probe.fn);
    std::vector<Ref> leaves;
    for (std::size_t k = 0; k < carry.size(); ++k)
      leaves.push_back(traced(outs[k + (i_used ? 1 : 0)], probe.out[k]->weak));
    std::size_t at = 0;
    return Result<Ref>::success(unflatten(init_r, leaves, at));
  }

  // A private function's output as its body returned it: the containers (tuples, lists, None)
  // around its leaves, and each leaf's weak type, by function index.
  struct PrivateOut {
    Ref tree;
    std::vector<bool> weak;
  };
  std::map<int, PrivateOut> private_outs;
  // Its arguments and results are pytrees (JAX flattens both): the function takes the leaves of
  // `args` and returns the leaves of what `body` gives, and a call gives the same containers
  // around the call's results.
  Result<Ref> call_jitted_private(const std::string& name, const std::vector<Ref>& args,
                                  const std::function<Result<Ref>(const std::vector<Ref>&)>& body,
                                  const std::string& key = "") {
    std::vector<Ref> leaves;
    for (auto& a : args) {
      UNWRAP(ok, flatten(a, leaves, name));
      (void)ok;
    }
    std::vector<hj::Aval> types;
    std::vector<hj::Value> vals;
    std::vector<bool> weak;
    for (auto& a : leaves) {
      UNWRAP(v, value_of(a));
      vals.push_back(v);
      types.push_back(em->aval(v));
      weak.push_back(a->weak);
    }
    // Arguments in containers: JAX traces each pytree structure on its own (a tuple and a list
    // of the same arrays are two functions).
    std::string tree;
    std::function<void(const Ref&)> describe = [&](const Ref& x) {
      if (x->k == K::Tuple || x->k == K::List) {
        tree += x->k == K::Tuple ? "(" : "[";
        for (auto& it : x->items) describe(it);
        tree += x->k == K::Tuple ? ")" : "]";
      } else {
        tree += x->k == K::None ? "N" : "*";
      }
    };
    for (auto& a : args) describe(a);
    // JAX's trace cache: one function per (function, static arguments, pytree, argument types
    // with their weak types); another function of the same name is name_0.
    std::string cache_key = name + "|" + key + "|" + tree;
    for (std::size_t k = 0; k < types.size(); ++k)
      cache_key += "|" + hj::type_text(types[k]) + (weak[k] ? "~" : "");
    int f = -1;
    if (auto it = private_cache.find(cache_key); it != private_cache.end()) f = it->second;
    if (f < 0 || !private_outs.count(f)) {
      f = em->begin_function(name, types);
      private_cache[cache_key] = f;
      fn_stack.push_back(f);
      std::vector<Ref> inner_leaves;
      for (std::size_t k = 0; k < types.size(); ++k)
        inner_leaves.push_back(traced(hj::Value{int(k)}, weak[k]));
      std::vector<Ref> inner;
      std::size_t at = 0;
      for (auto& a : args) inner.push_back(unflatten(a, inner_leaves, at));
      // A failed trace leaves nothing behind: the body's function (and any it began) goes, as a
      // program may catch the error and go on tracing.
      auto drop = [&]() {
        for (int g = f; g < em->function_count(); ++g) ++epochs[g];
        em->drop_functions(f);
        for (auto it = private_cache.begin(); it != private_cache.end();)
          it = it->second >= f ? private_cache.erase(it) : std::next(it);
        for (auto it = private_outs.begin(); it != private_outs.end();)
          it = it->first >= f ? private_outs.erase(it) : std::next(it);
      };
      auto r = body(inner);
      std::vector<Ref> outs;
      auto flat = r ? flatten(r.value(), outs, name) : Result<bool>::failure(r.error_info());
      std::vector<hj::Value> results;
      PrivateOut po;
      for (std::size_t k = 0; flat && k < outs.size(); ++k) {
        auto v = value_of(outs[k]);
        if (!v) {
          flat = Result<bool>::failure(v.error_info());
          break;
        }
        results.push_back(v.value());
        po.weak.push_back(outs[k]->weak);
      }
      fn_stack.pop_back();
      if (!flat) {
        drop();
        return pass_on(flat);
      }
      po.tree = r.value();
      em->end_function(results);
      private_outs[f] = std::move(po);
    }
    const PrivateOut& po = private_outs[f];
    const std::vector<hj::Value> rs = em->call(f, vals);
    std::vector<Ref> out;
    for (std::size_t k = 0; k < rs.size(); ++k) out.push_back(traced(rs[k], po.weak[k]));
    std::size_t at = 0;
    return Result<Ref>::success(unflatten(po.tree, out, at));
  }

  // ---- builtins ----
  Result<std::string> dtype_arg(const Ref& r, const std::string& fn) {
    if (r->k == K::DType) return Result<std::string>::success(r->s);
    if (r->k == K::Str) {
      if (const char* t = dtype_named(r->s == "bool" ? "bool_" : r->s))
        return Result<std::string>::success(t);
    }
    if (r->k == K::Builtin &&
        (r->s == "builtins.float" || r->s == "builtins.int" || r->s == "builtins.bool"))
      return Result<std::string>::success(r->s == "builtins.float" ? default_float()
                                          : r->s == "builtins.int" ? default_int()
                                                                   : "i1");
    return fail(fn + ": dtype must be a dtype such as jnp.float32, got " + type_name(r));
  }

  Result<Ref> call_builtin(const std::string& q, const Args& a) {
    auto arg = [&](std::size_t i, const char* n) { return a.get(i, n); };
    auto need = [&](std::size_t i, const char* n) -> Result<Ref> {
      Ref r = a.get(i, n);
      if (!r) return fail(q + "() missing required argument '" + n + "'");
      return Result<Ref>::success(r);
    };
    const std::string mod = q.substr(0, q.rfind('.'));
    const std::string fn = q.substr(q.rfind('.') + 1);
    // Python's abs of an array (the notebook hands over nothing else of builtins).
    if (mod == "builtins") {
      if (fn == "abs") {
        UNWRAP(x, need(0, "x"));
        if (x->k == K::Int) return Result<Ref>::success(mk_int(x->i < 0 ? -x->i : x->i));
        if (x->k == K::Float) return Result<Ref>::success(mk_float(std::fabs(x->f)));
        return unary_fn("abs", "abs", x, false);
      }
      return fail_as("NotImplementedError",
                     "the Python builtin " + fn + "() is not supported here");
    }
    // Array constructors (jnp, and np with NumPy's 64-bit defaults, canonicalized at jit).
    if ((mod == "jnp" || mod == "np") && (fn == "zeros" || fn == "ones" || fn == "full" ||
                                          fn == "zeros_like" || fn == "ones_like")) {
      std::vector<std::int64_t> shape;
      std::string t = mod == "np" ? "f64" : default_float();
      double value = fn == "ones" || fn == "ones_like" ? 1 : 0;
      bool weak = false;
      std::size_t dt_pos = 1;
      if (fn == "zeros_like" || fn == "ones_like") {
        UNWRAP(x0, need(0, "a"));
        UNWRAP(x, as_array(x0, q));
        shape = x->aval.dims;
        t = x->aval.dtype;
        weak = x->weak;
      } else {
        UNWRAP(shape_r, need(0, "shape"));
        UNWRAP(s, int_list(shape_r, q + ": shape"));
        shape = s;
      }
      if (fn == "full") {
        UNWRAP(fv, need(1, "fill_value"));
        if (!is_pyscalar(fv))
          return fail_as("NotImplementedError",
                         q + ": fill_value must be a Python scalar here, got " + type_name(fv));
        value = scalar_value(fv);
        const DT d = dt_of(fv);
        t = d.t;
        weak = d.weak;
        dt_pos = 2;
      }
      if (Ref d = arg(dt_pos, "dtype"); d && d->k != K::None) {
        UNWRAP(tt, dtype_arg(d, q));
        t = tt;
        weak = false;
      } else if (fn == "full") {
        weak = false;  // jnp.full without dtype: the value's default dtype, not weak
      }
      return full(shape, value, t, weak);
    }
    if ((mod == "jnp" || mod == "np") && fn == "arange") {
      std::vector<Ref> xs;
      for (auto& p : a.pos) xs.push_back(p);
      for (const char* n : {"start", "stop", "step"})
        for (auto& [k, v] : a.kw)
          if (k == n) xs.push_back(v);
      if (xs.empty() || xs.size() > 3)
        return fail(q + " takes 1 to 3 positional arguments (start, stop, step)");
      bool any_float = false;
      for (auto& x : xs) {
        if (!is_pyscalar(x))
          return fail(q + ": start, stop and step must be Python numbers here, got " +
                      type_name(x));
        any_float = any_float || x->k == K::Float;
      }
      double lo = 0, hi = 0, st = 1;
      if (xs.size() == 1)
        hi = scalar_value(xs[0]);
      else
        lo = scalar_value(xs[0]), hi = scalar_value(xs[1]);
      if (xs.size() == 3) st = scalar_value(xs[2]);
      if (st == 0) return fail_as("ZeroDivisionError", q + ": step must not be zero");
      const double n = std::max(0.0, std::ceil((hi - lo) / st));
      if (n > 1e9)
        return fail(q + ": " + std::to_string(std::int64_t(n)) +
                    " elements is more than this tool allows (10^9)");
      std::string t = any_float ? (mod == "np" ? "f64" : default_float())
                                : (mod == "np" ? "i64" : default_int());
      if (Ref d = arg(99, "dtype"); d && d->k != K::None) {
        UNWRAP(tt, dtype_arg(d, q));
        t = tt;
      }
      if (tracing()) {
        if (lo != 0 || st != 1)
          return fail_as(
              "NotImplementedError",
              q + " with a start or step inside the traced function is not supported here");
        const hj::Aval av{{std::int64_t(n)}, canonical(t)};
        return Result<Ref>::success(traced(em->iota(av, 0), false));
      }
      return Result<Ref>::success(new_array({{std::int64_t(n)}, t}, false));
    }
    if (mod == "jnp" && fn == "eye") return eye(q, a);
    if (mod == "jnp" && (fn == "tril" || fn == "triu")) return tri_part(q, fn, a);
    if (mod == "jnp" && (fn == "round" || fn == "around")) return jnp_round(q, a);
    if (mod == "jnp" && (fn == "sort" || fn == "argsort")) return jnp_sort(q, fn, a);
    if ((mod == "jnp" || mod == "np") && (fn == "array" || fn == "asarray")) {
      UNWRAP(x, need(0, "a"));
      Ref d = arg(1, "dtype");
      if (x->k == K::Array) {
        if (d && d->k != K::None) {
          UNWRAP(t, dtype_arg(d, q));
          return convert(x, t, false);
        }
        return Result<Ref>::success(x);
      }
      if (is_pyscalar(x)) {
        std::string t = dt_of(x).t;
        if (d && d->k != K::None) {
          UNWRAP(tt, dtype_arg(d, q));
          t = tt;
        }
        return full({}, scalar_value(x), t, false);
      }
      return fail_as(
          "NotImplementedError",
          q + " of " + type_name(x) +
              " is not supported here; build arrays with jnp.zeros, jnp.ones or jnp.arange");
    }
    if (mod == "np")
      return fail_as("NotImplementedError", q + " is not supported here; supported: " +
                                                supported_in("np") + " (and np dtypes)");
    if (mod == "jnp") {
      const NameOp* u = find_name(kUnaryOps, fn);
      if (u && fn != "logistic") {
        UNWRAP(x, need(0, "x"));
        return unary_fn(q, u->op, x, u->inexact);
      }
      if (fn == "square") {
        UNWRAP(x, need(0, "x"));
        return integer_pow(x, 2);
      }
      if (fn == "maximum" || fn == "minimum" || fn == "add" || fn == "subtract" ||
          fn == "multiply") {
        UNWRAP(x, need(0, "x1"));
        UNWRAP(y, need(1, "x2"));
        return binary_fn(q, fn, x, y);
      }
      if (fn == "divide" || fn == "true_divide") {
        UNWRAP(x, need(0, "x1"));
        UNWRAP(y, need(1, "x2"));
        return binary_fn(q, "divide", x, y, true);
      }
      if (fn == "power") {
        UNWRAP(x, need(0, "x1"));
        UNWRAP(y, need(1, "x2"));
        return power(x, y);
      }
      if (fn == "matmul") {
        UNWRAP(x, need(0, "a"));
        UNWRAP(y, need(1, "b"));
        return matmul(x, y, q);
      }
      if (fn == "dot") {
        UNWRAP(x, need(0, "a"));
        UNWRAP(y, need(1, "b"));
        return dot(x, y);
      }
      if (fn == "where") {
        if (a.pos.size() != 3)
          return fail(
              "jnp.where with one argument (the indices of nonzero elements) is not supported "
              "here: it has no static shape; use jnp.where(condition, x, y)");
        return where(a.pos[0], a.pos[1], a.pos[2]);
      }
      if (fn == "sum" || fn == "mean" || fn == "max" || fn == "min" || fn == "prod") {
        UNWRAP(x, need(0, "a"));
        return reduction_call(q, fn, x, a, 1);
      }
      if (fn == "clip") {
        Ref x = arg(0, "arr");
        if (!x) x = arg(99, "a");
        if (!x || x->k == K::None)
          return fail_as("ValueError", "No input was provided to the clip function.");
        Ref lo = arg(1, "min"), hi = arg(2, "max");
        if (!lo) lo = arg(99, "a_min");
        if (!hi) hi = arg(99, "a_max");
        return clip(x, lo, hi);
      }
      if (fn == "var" || fn == "std") {
        UNWRAP(x, need(0, "a"));
        return var_std_call(q, fn == "std", x, a, 1);
      }
      if (fn == "argmax" || fn == "argmin") {
        UNWRAP(x, need(0, "a"));
        return argminmax_call(q, fn == "argmax", x, a, 1);
      }
      if (fn == "cumsum" || fn == "cumprod") {
        UNWRAP(x, need(0, "a"));
        return jnp_cumulative(fn, x, arg(1, "axis"), arg(2, "dtype"));
      }
      if (fn == "floor_divide" || fn == "remainder" || fn == "mod") {
        UNWRAP(x, need(0, "x1"));
        UNWRAP(y, need(1, "x2"));
        return fn == "floor_divide" ? floor_divide(x, y) : remainder(x, y);
      }
      if (fn == "einsum") return einsum(a);
      if (fn == "outer") {
        UNWRAP(x, need(0, "a"));
        UNWRAP(y, need(1, "b"));
        return outer(x, y);
      }
      if (fn == "ravel") {  // jnp.ravel(a, order='C'): a reshape to the size
        UNWRAP(x0, need(0, "a"));
        if (Ref o = arg(1, "order"); o && !(o->k == K::Str && o->s == "C"))
          return fail_as("NotImplementedError",
                         q + " with order other than 'C' is not supported here");
        UNWRAP(x, as_array(x0, q));
        std::int64_t n = 1;
        for (auto d : x->aval.dims) n *= d;
        return reshape(x, {n});
      }
      if (fn == "reshape") {
        UNWRAP(x, need(0, "a"));
        Ref s = arg(1, "shape");
        if (!s) s = arg(1, "newshape");
        if (!s) return fail("jnp.reshape() missing required argument 'shape'");
        UNWRAP(shape, int_list(s, "jnp.reshape: shape"));
        return reshape(x, shape);
      }
      if (fn == "transpose") {
        UNWRAP(x, need(0, "a"));
        Ref ax = arg(1, "axes");
        if (ax && ax->k != K::None) {
          UNWRAP(perm, int_list(ax, "jnp.transpose: axes"));
          return transpose(x, perm, true);
        }
        return transpose(x, {}, false);
      }
      if (fn == "concatenate" || fn == "stack") {
        UNWRAP(seq, need(0, "arrays"));
        if (seq->k != K::Tuple && seq->k != K::List)
          return fail(q + " requires a non-empty tuple or list of arrays, got " + type_name(seq));
        if (seq->items.empty()) return fail_as("ValueError", "Need at least one array to " + fn);
        Ref ax = arg(1, "axis");
        if (ax && ax->k != K::Int) return fail(q + ": axis must be an int, got " + type_name(ax));
        return concatenate(fn == "stack", seq->items, ax ? ax->i : 0);
      }
      if (fn == "expand_dims") {
        UNWRAP(x0, need(0, "a"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(ax_r, need(1, "axis"));
        UNWRAP(axes, int_list(ax_r, q + ": axis"));
        return expand_dims(x, axes);
      }
      if (fn == "squeeze") {
        UNWRAP(x0, need(0, "a"));
        UNWRAP(x, as_array(x0, q));
        Ref ax = arg(1, "axis");
        std::vector<std::int64_t> dims;
        if (!ax || ax->k == K::None) {
          for (std::size_t d = 0; d < x->aval.dims.size(); ++d)
            if (x->aval.dims[d] == 1) dims.push_back(std::int64_t(d));
        } else {
          UNWRAP(axes, int_list(ax, q + ": axis"));
          for (auto a0 : axes) {
            UNWRAP(c, canonical_axis(a0, x->aval.dims.size()));
            if (x->aval.dims[c] != 1)
              return fail_as(
                  "ValueError",
                  "cannot select an axis to squeeze out which has size not equal to one, got "
                  "shape=" +
                      shape_text(x->aval.dims) + " and dimensions=" + shape_text(axes));
            dims.push_back(c);
          }
        }
        if (dims.empty()) return Result<Ref>::success(x);
        std::vector<std::int64_t> shape;
        for (std::int64_t d = 0; d < std::int64_t(x->aval.dims.size()); ++d)
          if (std::find(dims.begin(), dims.end(), d) == dims.end())
            shape.push_back(x->aval.dims[d]);
        return reshape(x, shape);
      }
      if (fn == "swapaxes") {
        UNWRAP(x0, need(0, "a"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(a1, need(1, "axis1"));
        UNWRAP(a2, need(2, "axis2"));
        if (a1->k != K::Int || a2->k != K::Int) return fail(q + ": axes must be ints");
        UNWRAP(c1, canonical_axis(a1->i, x->aval.dims.size()));
        UNWRAP(c2, canonical_axis(a2->i, x->aval.dims.size()));
        std::vector<std::int64_t> perm;
        for (std::int64_t d = 0; d < std::int64_t(x->aval.dims.size()); ++d) perm.push_back(d);
        std::swap(perm[c1], perm[c2]);
        return transpose(x, perm, true);
      }
      if (fn == "flip" || fn == "fliplr" || fn == "flipud") {
        UNWRAP(x0, need(0, "m"));
        UNWRAP(x, as_array(x0, q));
        Ref axis = fn == "flip" ? arg(1, "axis") : mk_int(fn == "fliplr" ? 1 : 0);
        return jnp_flip(x, axis);
      }
      if (fn == "roll") {
        UNWRAP(x0, need(0, "a"));
        UNWRAP(shift, need(1, "shift"));
        UNWRAP(x, as_array(x0, q));
        return jnp_roll(q, x, shift, arg(2, "axis"));
      }
      if (fn == "split" || fn == "array_split") {
        UNWRAP(x0, need(0, "ary"));
        UNWRAP(sections, need(1, "indices_or_sections"));
        UNWRAP(x, as_array(x0, q));
        Ref axis = arg(2, "axis");
        return jnp_split(fn, x, sections, axis ? axis : mk_int(0));
      }
      if (fn == "tile") {
        UNWRAP(x0, need(0, "A"));
        UNWRAP(reps, need(1, "reps"));
        UNWRAP(x, as_array(x0, q));
        return jnp_tile(q, x, reps);
      }
      if (fn == "pad") {
        UNWRAP(x0, need(0, "array"));
        UNWRAP(width, need(1, "pad_width"));
        UNWRAP(x, as_array(x0, q));
        if (a.pos.size() > 3)
          return fail("pad() takes from 2 to 3 positional arguments but " +
                      std::to_string(a.pos.size()) + " were given");
        Ref mode = arg(2, "mode");
        for (const auto& [k, v] : a.kw)
          if (k != "array" && k != "pad_width" && k != "mode" && k != "constant_values")
            return fail_as("ValueError",
                           "unsupported keyword arguments for mode 'constant': {'" + k + "'}");
        if (mode && !(mode->k == K::Str && mode->s == "constant"))
          return fail_as("NotImplementedError",
                         q + ": mode " +
                             (mode->k == K::Str ? "'" + mode->s + "'" : type_name(mode)) +
                             " is not supported here (mode='constant' is)");
        Ref cv = arg(99, "constant_values");
        return jnp_pad(q, x, width, cv ? cv : mk_int(0));
      }
      if (fn == "broadcast_to") {
        UNWRAP(x0, need(0, "array"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(shape_r, need(1, "shape"));
        UNWRAP(shape, int_list(shape_r, q + ": shape"));
        UNWRAP(okshape, check_shape(shape, q));
        (void)okshape;
        return broadcast_to(x, shape);
      }
      return fail_as("NotImplementedError",
                     q + " is not supported here; supported: " + supported_in("jnp"));
    }
    if (mod == "jax.nn" || mod == "jax.scipy.special") {
      UNWRAP(x, need(0, "x"));
      if (mod == "jax.scipy.special" && fn != "logsumexp")
        return fail_as("NotImplementedError",
                       q + " is not supported here; supported: " + supported_in(mod));
      if (fn == "relu") {
        // @custom_jvp @jax.jit def relu(x): return jnp.maximum(x, 0) → a private @relu.
        if (!tracing()) return binary_fn(q, "maximum", x, mk_int(0));
        return call_jitted_private("relu", {x}, [&](const std::vector<Ref>& in) {
          return binary_fn(q, "maximum", in[0], mk_int(0));
        });
      }
      if (fn == "sigmoid") return unary_fn(q, "logistic", x, true);
      if (fn == "softmax" || fn == "log_softmax") {
        for (auto& [k, v] : a.kw)
          if (k != "axis") return fail(q + ": the argument '" + k + "' is not supported here");
        Ref axis = arg(1, "axis");
        if (!axis) axis = mk_int(-1);
        return fn == "softmax" ? softmax(x, axis) : log_softmax(x, axis);
      }
      if (fn == "logsumexp") {
        for (auto& [k, v] : a.kw)
          if (k != "axis" && k != "keepdims")
            return fail(q + ": the argument '" + k + "' is not supported here");
        if (a.pos.size() > 2)
          return fail(q + ": pass keepdims by name; b and return_sign are not supported here");
        Ref keep = arg(99, "keepdims");
        return logsumexp(x, arg(1, "axis"), keep && is_pyscalar(keep) && scalar_value(keep) != 0);
      }
      if (fn == "one_hot") {
        for (auto& [k, v] : a.kw)
          if (k != "num_classes" && k != "dtype" && k != "axis")
            return fail(q + ": the argument '" + k + "' is not supported here");
        return one_hot(x, arg(1, "num_classes"), arg(2, "dtype"), arg(3, "axis"));
      }
      if (fn == "gelu") {
        Ref ap = arg(1, "approximate");
        if (ap && !is_pyscalar(ap))
          return fail(q + ": approximate must be True or False, got " + type_name(ap));
        return gelu(x, !ap || scalar_value(ap) != 0);
      }
      if (fn == "silu") {
        // @jax.jit def silu(x): return x * sigmoid(x) → a private @silu.
        auto body = [&](const std::vector<Ref>& in) -> Result<Ref> {
          UNWRAP(xs, promote_args(q, {in[0]}, true));
          UNWRAP(s, unary_fn(q, "logistic", xs[0], true));
          return binary_fn(q, "multiply", xs[0], s);
        };
        if (!tracing()) return body({x});
        return call_jitted_private("silu", {x}, body);
      }
      return fail_as("NotImplementedError",
                     q + " is not supported here; supported: " + supported_in("jax.nn"));
    }
    if (mod == "lax") {
      if (const NameOp* u = find_name(kLaxUnary, fn)) {
        UNWRAP(x0, need(0, "x"));
        UNWRAP(x, as_array(x0, q));
        const std::string& t = x->aval.dtype;
        if (u->inexact && !hj::is_float(t))
          return fail(q + " does not accept dtype " + jax_dtype_name(t) +
                      ". Accepted dtypes are subtypes of floating.");
        if ((fn == "abs" || fn == "neg" || fn == "sign") && t == "i1")
          return fail(q + " does not accept dtype bool. Accepted dtypes are subtypes of number.");
        if (fn == "population_count" && (hj::is_float(t) || t == "i1"))
          return fail(q + " does not accept dtype " + jax_dtype_name(t) +
                      ". Accepted dtypes are subtypes of integer.");
        if (fn == "bitwise_not" && hj::is_float(t))
          return fail(q + " does not accept dtype " + jax_dtype_name(t) +
                      ". Accepted dtypes are subtypes of integer, bool.");
        if (fn == "sign" && hj::is_unsigned(t)) return unsigned_sign(x);
        if (fn == "is_finite") {
          if (!tracing()) return Result<Ref>::success(new_array({x->aval.dims, "i1"}, false));
          UNWRAP(v, value_of(x));
          return Result<Ref>::success(traced(em->is_finite(v), false));
        }
        if (fn == "logistic" || fn == "acos") return unary_fn(q, u->op, x, true);  // expanded
        return nary(u->op, {x});
      }
      if (const NameOp* b = find_name(kLaxBinary, fn)) {
        UNWRAP(x0, need(0, "x"));
        UNWRAP(y0, need(1, "y"));
        return lax_binary_op(q, b->op, x0, y0);
      }
      if (fn.compare(0, 7, "reduce_") == 0 && fn != "reduce_window" && fn != "reduce_precision") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(ax, need(1, "axes"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(axes, int_list(ax, q + ": axes"));
        return lax_reduce(q, fn.substr(7), x, axes);
      }
      if (fn == "convert_element_type") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(d, need(1, "new_dtype"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(t, dtype_arg(d, q));
        return convert(x, t, false);
      }
      if (fn == "clamp") {
        UNWRAP(lo0, need(0, "min"));
        UNWRAP(x0, need(1, "x"));
        UNWRAP(hi0, need(2, "max"));
        return lax_clamp(q, lo0, x0, hi0);
      }
      if (fn == "select_n") {
        if (a.pos.size() < 2) return fail_as("ValueError", q + " requires at least one case");
        UNWRAP(w, as_array(a.pos[0], q));
        std::vector<Ref> cases;
        for (std::size_t k = 1; k < a.pos.size(); ++k) {
          UNWRAP(c, as_array(a.pos[k], q));
          cases.push_back(c);
        }
        for (auto& c : cases)
          if (c->aval != cases[0]->aval)
            return fail(q + " cases must have the same shapes and dtypes, got " +
                        aval_text(cases[0]) + " and " + aval_text(c));
        if (!w->aval.dims.empty() && w->aval.dims != cases[0]->aval.dims)
          return fail(
              q + " which must be scalar or have the same shape as cases, got which shape " +
              shape_text(w->aval.dims) + " but case shape " + shape_text(cases[0]->aval.dims));
        if (w->aval.dtype == "i1" ? cases.size() > 2
                                  : (w->aval.dtype != "i32" && w->aval.dtype != "ui32"))
          return fail(q + ": which must be bool (with at most two cases) or int32, got " +
                      jax_dtype_name(w->aval.dtype));
        return select_n(w, cases, 0);
      }
      if (fn == "transpose") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(p, need(1, "permutation"));
        UNWRAP(perm, int_list(p, q + ": permutation"));
        return transpose(x0, perm, true);
      }
      if (fn == "reshape") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(sz, need(1, "new_sizes"));
        UNWRAP(shape, int_list(sz, q + ": new_sizes"));
        for (auto d : shape)
          if (d < 0) return fail(q + ": new_sizes must be nonnegative, got " + shape_text(shape));
        Ref x = x0;
        if (Ref dr = arg(2, "dimensions"); dr && dr->k != K::None) {  // a transpose first
          UNWRAP(perm, int_list(dr, q + ": dimensions"));
          UNWRAP(t, transpose(x0, perm, true));
          x = t;
        }
        return reshape(x, shape);
      }
      if (fn == "squeeze") {
        UNWRAP(x0, need(0, "array"));
        UNWRAP(dr, need(1, "dimensions"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(dims, int_list(dr, q + ": dimensions"));
        std::vector<std::int64_t> keep;
        for (auto& d : dims) {
          UNWRAP(c, canonical_axis(d, x->aval.dims.size()));
          if (x->aval.dims[c] != 1)
            return fail_as(
                "ValueError",
                "cannot select an axis to squeeze out which has size not equal to one, got shape=" +
                    shape_text(x->aval.dims) + " and dimensions=" + shape_text(dims));
          d = c;
        }
        for (std::int64_t d = 0; d < std::int64_t(x->aval.dims.size()); ++d)
          if (std::find(dims.begin(), dims.end(), d) == dims.end()) keep.push_back(x->aval.dims[d]);
        return reshape(x, keep);
      }
      if (fn == "concatenate") {
        UNWRAP(seq, need(0, "operands"));
        UNWRAP(dim, need(1, "dimension"));
        if (seq->k != K::Tuple && seq->k != K::List)
          return fail(q + " requires a non-empty sequence of arrays, got " + type_name(seq));
        if (seq->items.empty())
          return fail_as("ValueError", q + " requires a non-empty sequence of arrays, got " +
                                           type_name(seq) + " of length 0");
        if (dim->k != K::Int) return fail(q + ": dimension must be an int, got " + type_name(dim));
        std::vector<Ref> xs;
        for (auto& it : seq->items) {
          UNWRAP(x, as_array(it, q));
          if (x->aval.dtype != seq->items[0]->aval.dtype)
            return fail(q + " requires arguments to have the same dtypes, got " +
                        jax_dtype_name(seq->items[0]->aval.dtype) + ", " +
                        jax_dtype_name(x->aval.dtype) + ".");
          xs.push_back(x);
        }
        if (dim->i < 0 || dim->i >= std::int64_t(xs[0]->aval.dims.size()))
          return fail("concatenate dimension out of bounds: dimension " + std::to_string(dim->i) +
                      " for shapes " + shape_text(xs[0]->aval.dims) + ".");
        return concatenate(false, xs, dim->i);
      }
      if (fn == "broadcast_in_dim") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(sh, need(1, "shape"));
        UNWRAP(bd, need(2, "broadcast_dimensions"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(shape, int_list(sh, q + ": shape"));
        UNWRAP(dims, int_list(bd, q + ": broadcast_dimensions"));
        UNWRAP(okshape, check_shape(shape, q));
        (void)okshape;
        if (dims.size() != x->aval.dims.size())
          return fail(
              "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
              "broadcast_dimensions " +
              shape_text(dims) + " for operand ndim " + std::to_string(x->aval.dims.size()) + ".");
        for (std::size_t k = 0; k < dims.size(); ++k) {
          if (dims[k] < 0 || dims[k] >= std::int64_t(shape.size()) ||
              (k && dims[k] <= dims[k - 1]) ||
              (x->aval.dims[k] != 1 && x->aval.dims[k] != shape[dims[k]]))
            return fail("broadcast_in_dim: operand shape " + shape_text(x->aval.dims) +
                        " cannot go to shape " + shape_text(shape) + " with broadcast_dimensions " +
                        shape_text(dims));
        }
        bool same = shape == x->aval.dims;
        if (same) return Result<Ref>::success(x);
        return broadcast_in_dim(x, shape, dims);
      }
      if (fn == "sort") {  // lax.sort(operand, dimension=-1, is_stable=True, num_keys=1)
        UNWRAP(o, need(0, "operand"));
        const bool many = o->k == K::Tuple || o->k == K::List;
        std::vector<Ref> xs;
        for (const Ref& e : many ? o->items : std::vector<Ref>{o}) {
          UNWRAP(x, as_array(e, q));
          xs.push_back(x);
        }
        if (xs.empty()) return fail(q + ": at least one operand is needed");
        std::int64_t dimension = -1, num_keys = 1;
        bool stable = true;
        if (Ref r = arg(1, "dimension")) {
          if (r->k != K::Int) return fail(q + ": dimension must be an int, got " + type_name(r));
          dimension = r->i;
        }
        if (Ref r = arg(2, "is_stable")) {
          if (r->k != K::Bool && r->k != K::Int)
            return fail(q + ": is_stable must be a bool, got " + type_name(r));
          stable = r->k == K::Bool ? r->b : r->i != 0;
        }
        if (Ref r = arg(3, "num_keys")) {
          if (r->k != K::Int) return fail(q + ": num_keys must be an int, got " + type_name(r));
          num_keys = r->i;
        }
        UNWRAP(sorted, sort_arrays(q, xs, dimension, stable, num_keys));
        if (!many) return Result<Ref>::success(sorted[0]);
        return Result<Ref>::success(mk_tuple(sorted, o->k));
      }
      if (fn == "top_k") {  // lax.top_k(operand, k): [values, int32 indices] along the last axis
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(kr, need(1, "k"));
        UNWRAP(x, as_array(x0, q));
        if (kr->k != K::Int && kr->k != K::Bool)
          return fail("'" + type_name(kr) + "' object cannot be interpreted as an integer");
        const std::int64_t k = kr->k == K::Int ? kr->i : std::int64_t(kr->b);
        const std::vector<std::int64_t>& dims = x->aval.dims;
        if (k < 0)
          return fail_as("ValueError",
                         "k argument to top_k must be nonnegative, got " + std::to_string(k));
        if (dims.empty())
          return fail("top_k operand must have >= 1 dimension, got " + shape_text(dims));
        if (dims.back() < k)
          return fail_as("ValueError",
                         "k argument to top_k must be no larger than minor dimension; " +
                             std::to_string(k) + " vs " + shape_text(dims));
        std::vector<std::int64_t> out = dims;
        out.back() = k;
        if (!tracing())
          return Result<Ref>::success(mk_tuple(
              {new_array({out, x->aval.dtype}, x->weak), new_array({out, "i32"}, false)}, K::List));
        UNWRAP(v, value_of(x));
        const auto [values, indices] = em->top_k(v, k);
        return Result<Ref>::success(
            mk_tuple({traced(values, x->weak), traced(indices, false)}, K::List));
      }
      if (fn == "slice") {  // lax.slice(operand, start_indices, limit_indices, strides=None)
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(sr, need(1, "start_indices"));
        UNWRAP(lr, need(2, "limit_indices"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(starts, int_list(sr, q + ": start_indices"));
        UNWRAP(limits, int_list(lr, q + ": limit_indices"));
        std::vector<std::int64_t> strides(x->aval.dims.size(), 1);
        if (Ref st = arg(3, "strides"); st && st->k != K::None) {
          UNWRAP(given, int_list(st, q + ": strides"));
          strides = given;
        }
        return lax_slice(x, starts, limits, strides);
      }
      if (fn == "dynamic_slice" || fn == "dynamic_update_slice") {
        const bool update = fn == "dynamic_update_slice";
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(x, as_array(x0, q));
        Ref u;
        if (update) {
          UNWRAP(u0, need(1, "update"));
          UNWRAP(uu, as_array(u0, q));
          u = uu;
        }
        UNWRAP(si, need(update ? 2 : 1, "start_indices"));
        std::vector<std::int64_t> sizes;
        if (!update) {
          UNWRAP(ss, need(2, "slice_sizes"));
          UNWRAP(sz, int_list(ss, q + ": slice_sizes"));
          sizes = sz;
        }
        return dynamic_slicing(q, x, u, si, sizes);
      }
      if (fn == "bitcast_convert_type") {  // element types of one width only
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(d, need(1, "new_dtype"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(t0, dtype_arg(d, q));
        const std::string t = canonical(t0);
        if (bits(t) != bits(x->aval.dtype) || t == "i1" || x->aval.dtype == "i1")
          return fail_as("NotImplementedError", q + " between element types of different widths (" +
                                                    jax_dtype_name(x->aval.dtype) + " to " +
                                                    jax_dtype_name(t) +
                                                    ") changes the shape: not supported here");
        if (!tracing()) return Result<Ref>::success(new_array({x->aval.dims, t}, false));
        UNWRAP(v, value_of(x));
        return Result<Ref>::success(traced(em->bitcast_convert(v, t), false));
      }
      if (fn == "reduce_precision") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(eb, need(1, "exponent_bits"));
        UNWRAP(mb, need(2, "mantissa_bits"));
        UNWRAP(x, as_array(x0, q));
        if (eb->k != K::Int || mb->k != K::Int)
          return fail(q + ": exponent_bits and mantissa_bits must be ints");
        if (!hj::is_float(x->aval.dtype))
          return fail(q + " does not accept dtype " + jax_dtype_name(x->aval.dtype) +
                      ". Accepted dtypes are subtypes of floating.");
        if (eb->i < 1 || mb->i < 0)
          return fail(q + ": exponent_bits must be at least 1 and mantissa_bits at least 0, got " +
                      std::to_string(eb->i) + " and " + std::to_string(mb->i));
        if (!tracing()) return Result<Ref>::success(new_array(x->aval, x->weak));
        UNWRAP(v, value_of(x));
        return Result<Ref>::success(traced(em->reduce_precision(v, eb->i, mb->i), x->weak));
      }
      if (fn == "ScatterDimensionNumbers") {  // a NamedTuple in JAX: a tuple of its fields
        static const char* const names[] = {"update_window_dims", "inserted_window_dims",
                                            "scatter_dims_to_operand_dims", "operand_batching_dims",
                                            "scatter_indices_batching_dims"};
        std::vector<Ref> items;
        for (std::size_t k = 0; k < 5; ++k) {
          Ref f = arg(k, names[k]);
          if (!f) {
            if (k < 3) return fail(q + "() missing required argument '" + names[k] + "'");
            f = mk_tuple({});
          }
          UNWRAP(d, int_list(f, q + ": " + names[k]));
          std::vector<Ref> ds;
          for (auto e : d) ds.push_back(mk_int(e));
          items.push_back(mk_tuple(ds));
        }
        return Result<Ref>::success(mk_tuple(items));
      }
      if (fn == "scatter" || fn == "scatter_add" || fn == "scatter_mul" || fn == "scatter_min" ||
          fn == "scatter_max") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(i0, need(1, "scatter_indices"));
        UNWRAP(u0, need(2, "updates"));
        UNWRAP(dn, need(3, "dimension_numbers"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(idx, as_array(i0, q));
        UNWRAP(u, as_array(u0, q));
        if (a.pos.size() > 4)
          return fail(fn + "() takes 4 positional arguments but " + std::to_string(a.pos.size()) +
                      " were given");
        bool flags[2] = {false, false};
        const char* const flag_names[] = {"indices_are_sorted", "unique_indices"};
        for (std::size_t k = 0; k < 2; ++k)
          if (Ref f = arg(99, flag_names[k]); f && f->k != K::None) {
            if (f->k != K::Bool && f->k != K::Int)
              return fail(q + ": " + flag_names[k] + " must be a bool, got " + type_name(f));
            flags[k] = f->k == K::Bool ? f->b : f->i != 0;
          }
        Ref mode = arg(99, "mode");
        UNWRAP(clip, scatter_mode(q, mode));
        if (clip)
          return fail_as("NotImplementedError",
                         q + ": mode='clip' (indices clamped first) is not supported here; the "
                             "default mode drops updates out of bounds");
        static constexpr NameOp ops[] = {{"scatter", "", false},
                                         {"scatter_add", "add", false},
                                         {"scatter_mul", "multiply", false},
                                         {"scatter_min", "minimum", false},
                                         {"scatter_max", "maximum", false}};
        return lax_scatter(q, find_name(ops, fn)->op, x, idx, u, dn, flags[0], flags[1]);
      }
      if (fn == "pad") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(v0, need(1, "padding_value"));
        UNWRAP(cfg, need(2, "padding_config"));
        UNWRAP(x, as_array(x0, q));
        return lax_pad(q, x, v0, cfg);
      }
      if (fn == "rev") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(dr, need(1, "dimensions"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(dims, int_list(dr, q + ": dimensions"));
        return rev(x, dims);
      }
      if (fn == "conv_general_dilated" || fn == "conv") {
        UNWRAP(l0, need(0, "lhs"));
        UNWRAP(r0, need(1, "rhs"));
        UNWRAP(ws, need(2, "window_strides"));
        UNWRAP(pad, need(3, "padding"));
        for (const char* k : {"feature_group_count", "batch_group_count"})
          if (Ref g = arg(99, k); g && !(g->k == K::Int && g->i == 1))
            return fail_as("NotImplementedError",
                           q + ": " + k + " other than 1 is not supported here");
        for (const char* k : {"precision", "preferred_element_type"})
          if (Ref g = arg(99, k); g && g->k != K::None)
            return fail_as("NotImplementedError", q + ": " + k + " is not supported here");
        UNWRAP(lhs, as_array(l0, q));
        UNWRAP(rhs, as_array(r0, q));
        UNWRAP(strides, int_list(ws, q + ": window_strides"));
        Ref ld = fn == "conv" ? nullptr : arg(4, "lhs_dilation");
        Ref rd = fn == "conv" ? nullptr : arg(5, "rhs_dilation");
        Ref dn = fn == "conv" ? nullptr : arg(6, "dimension_numbers");
        return conv(q, lhs, rhs, strides, pad, ld, rd, dn);
      }
      if (fn == "reduce_window") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(init, need(1, "init_value"));
        UNWRAP(comp, need(2, "computation"));
        UNWRAP(wd, need(3, "window_dimensions"));
        UNWRAP(ws, need(4, "window_strides"));
        UNWRAP(pad, need(5, "padding"));
        for (const char* k : {"base_dilation", "window_dilation"})
          if (Ref d = arg(99, k); d && d->k != K::None)
            return fail_as("NotImplementedError", q + ": " + k + " is not supported here");
        UNWRAP(x, as_array(x0, q));
        UNWRAP(window, int_list(wd, q + ": window_dimensions"));
        UNWRAP(strides, int_list(ws, q + ": window_strides"));
        return reduce_window(q, x, init, comp, window, strides, pad);
      }
      if (fn == "round") {  // lax.round(x, rounding_method=AWAY_FROM_ZERO)
        UNWRAP(x0, need(0, "x"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(even, rounding_method(arg(1, "rounding_method"), q));
        if (!hj::is_float(x->aval.dtype))
          return fail(q + " does not accept dtype " + jax_dtype_name(x->aval.dtype) +
                      ". Accepted dtypes are subtypes of floating.");
        return nary(even ? "round_nearest_even" : "round_nearest_afz", {x});
      }
      if (fn == "integer_pow") {
        UNWRAP(x0, need(0, "x"));
        UNWRAP(y, need(1, "y"));
        UNWRAP(x, as_array(x0, q));
        if (y->k != K::Int) return fail(q + ": y must be an int, got " + type_name(y));
        if (x->aval.dtype == "i1") return fail(q + " does not accept dtype bool");
        return integer_pow(x, y->i);
      }
      if (fn == "argmax" || fn == "argmin") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(ax, need(1, "axis"));
        UNWRAP(it, need(2, "index_dtype"));
        UNWRAP(x, as_array(x0, q));
        if (ax->k != K::Int) return fail(q + ": axis must be an int, got " + type_name(ax));
        UNWRAP(t, dtype_arg(it, q));
        if (hj::is_float(canonical(t)) || t == "i1")
          return fail(q + ": index_dtype must be an integer type, got " + jax_dtype_name(t));
        return lax_argminmax(fn == "argmax", x, ax->i, canonical(t));
      }
      if (fn == "cumsum" || fn == "cumprod" || fn == "cummax" || fn == "cummin") {
        UNWRAP(x0, need(0, "operand"));
        UNWRAP(x, as_array(x0, q));
        Ref ax = arg(1, "axis");
        Ref rev = arg(2, "reverse");
        if (ax && ax->k != K::Int) return fail(q + ": axis must be an int, got " + type_name(ax));
        if (x->aval.dims.empty())
          return fail_as("ValueError", q + " needs an array of rank 1 or more");
        return lax_cumulative(fn, x, ax ? ax->i : 0,
                              rev && is_pyscalar(rev) && scalar_value(rev) != 0);
      }
      if (fn == "fori_loop") return fori_loop(a);
      if (fn == "stop_gradient") {  // no op in the lowering (it only stops differentiation)
        UNWRAP(x0, need(0, "x"));
        if (x0->k == K::Tuple || x0->k == K::List) return Result<Ref>::success(x0);
        return as_array(x0, q);
      }
      if (fn == "dot_general") {
        UNWRAP(x0, need(0, "lhs"));
        UNWRAP(y0, need(1, "rhs"));
        UNWRAP(dn, need(2, "dimension_numbers"));
        UNWRAP(x, as_array(x0, q));
        UNWRAP(y, as_array(y0, q));
        // ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))
        if (dn->k != K::Tuple && dn->k != K::List)
          return fail(q + ": dimension_numbers must be ((lc, rc), (lb, rb))");
        if (dn->items.size() != 2 || dn->items[0]->items.size() != 2 ||
            dn->items[1]->items.size() != 2)
          return fail(q +
                      ": dimension_numbers must be ((lhs_contracting, rhs_contracting), "
                      "(lhs_batch, rhs_batch))");
        UNWRAP(lc, int_list(dn->items[0]->items[0], q + ": dimensions"));
        UNWRAP(rc, int_list(dn->items[0]->items[1], q + ": dimensions"));
        UNWRAP(lb, int_list(dn->items[1]->items[0], q + ": dimensions"));
        UNWRAP(rb, int_list(dn->items[1]->items[1], q + ": dimensions"));
        return dot_general(x, y, lc, rc, lb, rb);
      }
      return fail_as("NotImplementedError",
                     q + " is not supported here; supported: " + supported_in("lax"));
    }
    return fail_as("NotImplementedError", q + " is not supported here");
  }

  // x ** y: jnp.power; a Python int exponent uses lax.integer_pow.
  Result<Ref> power(const Ref& x, const Ref& y) {
    if (y->k == K::Int && x->k == K::Array) return integer_pow(x, y->i);
    return binary_fn("power", "power", x, y);
  }

  // Methods and properties of arrays.
  Result<Ref> array_attr(const Ref& x, const std::string& name) {
    if (name == "shape") {
      std::vector<Ref> items;
      for (auto d : x->aval.dims) items.push_back(mk_int(d));
      return Result<Ref>::success(mk_tuple(items));
    }
    if (name == "ndim") return Result<Ref>::success(mk_int(std::int64_t(x->aval.dims.size())));
    if (name == "size") {
      std::int64_t n = 1;
      for (auto d : x->aval.dims) n *= d;
      return Result<Ref>::success(mk_int(n));
    }
    if (name == "dtype") return Result<Ref>::success(mk_str(x->aval.dtype, K::DType));
    if (name == "T") return transpose(x, {}, false);
    static const char* const methods[] = {
        "reshape",   "sum",  "mean",   "max",     "min",    "prod",    "var",
        "std",       "clip", "argmax", "argmin",  "cumsum", "cumprod", "astype",
        "transpose", "dot",  "sort",   "argsort", "round",  "ravel",   "flatten"};
    if (std::any_of(std::begin(methods), std::end(methods),
                    [&](const char* m) { return name == m; })) {
      auto m = mk(K::Method);
      m->s = name;
      m->self = x;
      return Result<Ref>::success(m);
    }
    return fail_as(
        "NotImplementedError",
        "Array." + name +
            " is not supported here; supported: .T, .shape, .ndim, .size, .dtype, .reshape, .sum, "
            ".mean, .max, .min, .prod, .var, .std, .clip, .argmax, .argmin, .cumsum, .cumprod, "
            ".astype, .transpose, .dot, .sort, .argsort, .round, .ravel, .flatten");
  }
  Result<Ref> call_method(const Ref& m, const Args& a) {
    const Ref& x = m->self;
    // JAX's Array.sort, .argsort and .round are jnp's functions with the array first.
    if (m->s == "sort" || m->s == "argsort" || m->s == "round") {
      Args b = a;
      b.pos.insert(b.pos.begin(), x);
      return m->s == "round" ? jnp_round("Array.round", b) : jnp_sort("Array." + m->s, m->s, b);
    }
    const std::string& name = m->s;
    if (name == "ravel" || name == "flatten") {  // JAX's Array.ravel/flatten: jnp.ravel
      if (!a.pos.empty() || !a.kw.empty())
        return fail_as("NotImplementedError", name + " with order= is not supported here");
      std::int64_t n = 1;
      for (auto d : x->aval.dims) n *= d;
      return reshape(x, {n});
    }
    if (name == "reshape") {
      std::vector<std::int64_t> shape;
      if (a.pos.size() == 1 && (a.pos[0]->k == K::Tuple || a.pos[0]->k == K::List)) {
        UNWRAP(s, int_list(a.pos[0], "reshape: shape"));
        shape = s;
      } else {
        for (auto& p : a.pos) {
          if (p->k != K::Int)
            return fail("reshape: dimensions must be integers, got " + type_name(p));
          shape.push_back(p->i);
        }
        if (Ref s = a.get(99, "shape")) {
          UNWRAP(ss, int_list(s, "reshape: shape"));
          shape = ss;
        }
      }
      return reshape(x, shape);
    }
    if (name == "var" || name == "std") return var_std_call(name, name == "std", x, a, 0);
    if (name == "clip") return clip(x, a.get(0, "min"), a.get(1, "max"));
    if (name == "argmax" || name == "argmin")
      return argminmax_call(name, name == "argmax", x, a, 0);
    if (name == "cumsum" || name == "cumprod")
      return jnp_cumulative(name, x, a.get(0, "axis"), a.get(1, "dtype"));
    if (name == "sum" || name == "mean" || name == "max" || name == "min" || name == "prod")
      return reduction_call(name, name, x, a, 0);
    if (name == "astype") {
      Ref d = a.get(0, "dtype");
      if (!d) return fail("astype() missing required argument 'dtype'");
      UNWRAP(t, dtype_arg(d, "astype"));
      return convert(x, t, false);
    }
    if (name == "transpose") {
      if (a.pos.empty()) return transpose(x, {}, false);
      std::vector<std::int64_t> perm;
      if (a.pos.size() == 1 && a.pos[0]->k != K::Int) {
        UNWRAP(p, int_list(a.pos[0], "transpose: axes"));
        perm = p;
      } else {
        for (auto& p : a.pos) {
          if (p->k != K::Int) return fail("transpose: axes must be integers");
          perm.push_back(p->i);
        }
      }
      return transpose(x, perm, true);
    }
    if (name == "dot") {
      if (a.pos.size() != 1) return fail("dot() takes one argument");
      return dot(x, a.pos[0]);
    }
    return fail_as("NotImplementedError", "Array." + name + "() is not supported here");
  }

  // The traced function `name` returned `out` (arrays, Python scalars, or a tuple or list of
  // them): the module is `result`.
  Result<bool> finish(const std::string& name, const Ref& out,
                      const std::vector<std::string>& result_info = {}) {
    std::vector<hj::Value> results;
    std::vector<Ref> outs =
        out->k == K::Tuple || out->k == K::List ? out->items : std::vector<Ref>{out};
    for (auto& o : outs) {
      if (o->k != K::Array && !is_pyscalar(o))
        return fail(name + " must return arrays (or a tuple of arrays), got " + type_name(o));
      UNWRAP(arr, as_array(o, name));
      UNWRAP(v, value_of(arr));
      results.push_back(v);
    }
    if (results.empty()) return fail(name + " returns no arrays");
    result.text = em->finish(results, result_info);
    result.function = name;
    result.kept_args = em->kept_args();
    em.reset();
    return Result<bool>::success(true);
  }

  // A function of the driving evaluator (tr::Session), called with traced values: it binds its
  // own arguments.
  Result<Ref> call_function(const Ref& f, const std::vector<Ref>& pos,
                            const std::vector<std::pair<std::string, Ref>>& kw) {
    if (f->k == K::Builtin) return call_builtin(f->s, Args{pos, kw});  // lax.fori_loop(.., jnp.add)
    if (!f->call) return fail("a function of the program is not callable here");
    if (!kw.empty())
      return fail_as("NotImplementedError", f->s + "(): keyword arguments are not supported here");
    return f->call(pos);
  }

  // x op y where x or y is an array (the driving evaluator keeps Python's own arithmetic).
  Result<Ref> binop(const std::string& op, const Ref& x, const Ref& y) {
    const bool arrays =
        (x->k == K::Array || is_pyscalar(x)) && (y->k == K::Array || is_pyscalar(y));
    if (!arrays)
      return fail("unsupported operand type(s) for " + op + ": '" + type_name(x) + "' and '" +
                  type_name(y) + "'");
    if (op == "+") return binary_fn("add", "add", x, y);
    if (op == "-") return binary_fn("subtract", "subtract", x, y);
    if (op == "*") return binary_fn("multiply", "multiply", x, y);
    if (op == "/") return binary_fn("true_divide", "divide", x, y, true);
    if (op == "@") return matmul(x, y, "matmul");
    if (op == "**") return power(x, y);
    if (op == "//") return floor_divide(x, y);
    if (op == "%") return remainder(x, y);
    return fail_as(
        "NotImplementedError",
        "the operator " + op +
            " on arrays is not supported here (supported: + - * / // % ** @ and comparisons)");
  }

  Result<Ref> compare(const std::string& op, const Ref& x, const Ref& y) {
    if (x->k == K::Array || y->k == K::Array) {
      static constexpr NameOp dirs[] = {{"<", "LT", false},  {">", "GT", false},
                                        {"<=", "LE", false}, {">=", "GE", false},
                                        {"==", "EQ", false}, {"!=", "NE", false}};
      const NameOp* d = find_name(dirs, op);
      if (!d)
        return fail_as("NotImplementedError",
                       "the comparison '" + op + "' on arrays is not supported here");
      return compare_fn(op, d->op, x, y);
    }
    return fail("'" + op + "' not supported between instances of '" + type_name(x) + "' and '" +
                type_name(y) + "'");
  }

  // x[...] with ints, contiguous slices, `...` and None, as jnp's _rewriting_take does it without
  // a gather: lax.slice then a squeeze (reshape) of the int axes; None with only whole slices is
  // lax.expand_dims (broadcast_in_dim). Strided or reversed slices, negative ints and array
  // indices are gathers or dynamic slices in JAX: refused here, by name.
  // x[index], where index is the evaluated subscript: an int, a slice, None, Ellipsis, or a tuple
  // of them (as Python passes it to __getitem__).
  // x[idx] with integer arrays among the indices: JAX's gather (jax/_src/numpy/indexing.py's
  // rewriting_take -> _gather -> index_to_gather; lax.gather's mode None is PROMISE_IN_BOUNDS, a
  // plain stablehlo.gather). Each index array is normalized (_normalize_index: a negative index
  // plus the axis size, by select), converted to the index dtype (int32 unless a dimension needs
  // int64), given a trailing index-vector dimension (and concatenated along it when several), and
  // gathered with slices of 1 along the indexed axes and whole along the others; None inserts
  // axes after it. The index arrays broadcast to one shape, which goes where the first of them
  // stands, or first when they are not adjacent (NumPy's rule). Modelled here: traced integer
  // arrays of one shape, whole slices, None and `...`; an int or a partial slice beside them is
  // refused by name.
  // jnp's _index_to_gather: how an index selects from x, as gather (x[idx]) and scatter
  // (x.at[idx]) both read it. Basic indexing (no index array): static ints (a negative one
  // normalized by a staged add), traced 0-d integers (normalized by select, as _normalize_index),
  // slices (a partial one of step 1 gives its start; a strided one start + step * iota, reversed
  // when the step is negative), None and `...`; its indices are sorted and unique. Advanced
  // indexing: integer arrays of one shape (traced, or host arrays baked in) with whole slices,
  // None and `...`; an int or a partial slice beside them is refused by name. The indices are
  // emitted (when tracing) in JAX's order: each element's ops as the walk meets it, then the
  // index vector built (expand_dims of one index, broadcasts and a concatenate of several; a
  // constant tensor<0xi32> of none).
  struct Indexer {
    hj::Value indices;
    std::vector<std::int64_t> offset_dims, collapsed, start_map, slice_shape, newaxis_dims,
        reversed_dims;
    bool basic = true;
  };
  Result<Indexer> index_to_gather(const Ref& x, const std::vector<Ref>& parts) {
    const auto& shape = x->aval.dims;
    const std::size_t nd = shape.size();
    std::vector<std::size_t> adv_pos;  // positions of the index arrays, as written
    std::size_t consumed = 0;
    int ellipses = 0;
    std::vector<std::int64_t> adv_shape;
    bool advanced = false;
    for (const Ref& v : parts)
      advanced = advanced || (v->k == K::Array && !v->literal && !v->aval.dims.empty());
    const char* beside =
        "an int or a 0-d index beside an integer array index is not supported here yet (JAX "
        "makes it one more gathered index)";
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const Ref& v = parts[p];
      if (v->k == K::Array) {
        if (v->aval.dtype == "i1")
          return fail_as("NonConcreteBooleanIndexError",
                         "Array boolean indices must be concrete; got " + aval_text(v));
        if (hj::is_float(v->aval.dtype) || v->aval.dtype.rfind("complex", 0) == 0 ||
            v->aval.dtype[0] == 'c')
          return fail_as("TypeError",
                         "Indexer must have integer or boolean type, got indexer with type " +
                             jax_dtype_name(v->aval.dtype) + " at position " + std::to_string(p));
        if (v->literal || (advanced && v->aval.dims.empty()))
          return fail_as("NotImplementedError", beside);
        if (!v->aval.dims.empty()) {
          if (!adv_pos.empty() && v->aval.dims != adv_shape)
            return fail_as("NotImplementedError",
                           "index arrays of different shapes (" + shape_text(adv_shape) + " and " +
                               shape_text(v->aval.dims) +
                               ") broadcast together in JAX: not supported here yet");
          adv_shape = v->aval.dims;
          adv_pos.push_back(p);
        }
        ++consumed;
      } else if (v->k == K::Ellipsis) {
        ++ellipses;
      } else if (v->k == K::None) {
      } else if (v->k == K::Slice) {
        ++consumed;
      } else if (v->k == K::Int && !advanced) {
        ++consumed;
      } else if (v->k == K::Int || v->k == K::Bool) {
        if (v->k == K::Bool && !advanced)
          return fail_as("NotImplementedError",
                         "a bool as an index (a new axis of 1 or 0) is not supported here");
        return fail_as("NotImplementedError", beside);
      } else if (v->k == K::List) {
        return fail_as("NotImplementedError",
                       "a list inside an index (an index array in JAX) is not supported here; "
                       "write jnp.array([...]) for it");
      } else if (v->k == K::Str) {
        return fail("JAX does not support string indexing; got idx='" + v->s + "'");
      } else {
        return fail_as("TypeError",
                       "Indexer must have integer or boolean type, got indexer of "
                       "type " +
                           type_name(v));
      }
    }
    if (ellipses > 1) return fail_as("IndexError", "Multiple ellipses (...) not supported");
    if (consumed > nd)
      return fail_as("IndexError", "Too many indices: " + std::to_string(nd) +
                                       "-dimensional array indexed "
                                       "with " +
                                       std::to_string(consumed) + " regular indices.");
    bool contiguous = true;
    for (std::size_t k = 1; k < adv_pos.size(); ++k)
      contiguous = contiguous && adv_pos[k] == adv_pos[k - 1] + 1;
    // `...` (or the end) made whole slices.
    struct Part {
      int kind;  // 0 index array, 1 slice, 2 None, 3 int, 4 traced 0-d integer
      Ref r;
    };
    std::vector<Part> idx;
    for (const Ref& v : parts) {
      if (v->k == K::Ellipsis) {
        for (std::size_t k = 0; k < nd - consumed; ++k) idx.push_back({1, nullptr});
      } else {
        idx.push_back({v->k == K::Array   ? (v->aval.dims.empty() ? 4 : 0)
                       : v->k == K::Slice ? 1
                       : v->k == K::None  ? 2
                                          : 3,
                       v});
      }
    }
    if (!ellipses)
      for (std::size_t k = consumed; k < nd; ++k) idx.push_back({1, nullptr});
    // Each slice as slice.indices reads it (start, step, size); whole ones only beside arrays.
    struct Sl {
      std::int64_t start = 0, step = 1, size = 0;
      bool whole = true;
    };
    std::vector<Sl> sl(idx.size());
    for (std::size_t p = 0, axis = 0; p < idx.size(); ++p) {
      if (idx[p].kind == 2) continue;
      const std::int64_t n = shape[axis++];
      if (idx[p].kind != 1) continue;
      Sl& s = sl[p];
      s.size = n;
      if (!idx[p].r) continue;
      const Ref& a = idx[p].r->items[0];
      const Ref& b = idx[p].r->items[1];
      const Ref& c = idx[p].r->items[2];
      for (const Ref& e : {a, b, c})
        if (e->k != K::None && e->k != K::Int)
          return fail_as("IndexError",
                         "Array slice indices must have static start/stop/step to be used "
                         "with NumPy indexing syntax; got " +
                             type_name(e));
      s.step = c->k == K::None ? 1 : c->i;
      if (s.step == 0) return fail_as("ValueError", "slice step cannot be zero");
      auto clampi = [&](const Ref& e, std::int64_t dflt) {
        if (e->k == K::None) return dflt;
        std::int64_t i = e->i < 0 ? e->i + n : e->i;
        return s.step > 0 ? std::min(std::max<std::int64_t>(i, 0), n)
                          : std::min(std::max<std::int64_t>(i, -1), n - 1);
      };
      s.start = clampi(a, s.step > 0 ? 0 : n - 1);
      const std::int64_t stop = clampi(b, s.step > 0 ? n : -1);
      const std::int64_t dist = s.step > 0 ? stop - s.start : s.start - stop;
      const std::int64_t st = s.step > 0 ? s.step : -s.step;
      s.size = std::max<std::int64_t>(0, dist + st - 1) / st;
      // A step-1 slice as long as the axis is whole (no gathered index); any other step,
      // ::-1 included, is gathered (mid-2024's _index_to_gather special-cases step 1 only).
      s.whole = s.step == 1 && s.size == n;
      if (advanced && !(s.whole && s.step == 1))
        return fail_as("NotImplementedError",
                       "a partial or strided slice beside an integer array index is not "
                       "supported here yet (JAX gathers it too); slice first, then index");
    }
    Indexer out;
    out.basic = !advanced;
    std::string index_dtype = "i32";
    for (auto d : shape)
      if (d > 2147483647) index_dtype = "i64";
    // The x axis of each index array.
    std::vector<std::int64_t> x_adv_axes;
    std::vector<std::size_t> idx_adv;  // positions in idx
    for (std::size_t p = 0, axis = 0; p < idx.size(); ++p) {
      if (idx[p].kind == 2) continue;
      if (idx[p].kind == 0) {
        x_adv_axes.push_back(std::int64_t(axis));
        idx_adv.push_back(p);
      }
      ++axis;
    }
    // The walk: dimension numbers and shapes (ops below, when tracing).
    std::int64_t y_axis = 0, collapsed_y = 0;
    std::vector<std::size_t> gathered_at;  // which parts give a gathered index, in order
    std::vector<std::int64_t> ishape;      // the index batch shape
    for (std::size_t p = 0, axis = 0; p < idx.size(); ++p) {
      if (advanced && (contiguous ? p == idx_adv[0] : p == 0)) {
        out.start_map.insert(out.start_map.end(), x_adv_axes.begin(), x_adv_axes.end());
        out.collapsed.insert(out.collapsed.end(), x_adv_axes.begin(), x_adv_axes.end());
        out.slice_shape.insert(out.slice_shape.end(), adv_shape.begin(), adv_shape.end());
        ishape.insert(ishape.end(), adv_shape.begin(), adv_shape.end());
        y_axis += std::int64_t(adv_shape.size());
        collapsed_y += std::int64_t(adv_shape.size());
      }
      const int kind = idx[p].kind;
      if (kind == 0) {
        ++axis;
      } else if (kind == 2) {
        out.slice_shape.push_back(1);
        out.newaxis_dims.push_back(y_axis++);
      } else if (kind == 3 || kind == 4) {  // an int, a traced 0-d index
        gathered_at.push_back(p);
        out.collapsed.push_back(std::int64_t(axis));
        out.start_map.push_back(std::int64_t(axis));
        ++axis;
      } else {  // a slice
        const Sl& s = sl[p];
        out.slice_shape.push_back(s.size);
        if (s.whole) {
          out.offset_dims.push_back(collapsed_y);
        } else if (s.step == 1) {
          gathered_at.push_back(p);
          out.start_map.push_back(std::int64_t(axis));
          out.offset_dims.push_back(collapsed_y);
        } else {
          if (s.step < 0) out.reversed_dims.push_back(collapsed_y);
          gathered_at.push_back(p);
          out.start_map.push_back(std::int64_t(axis));
          out.collapsed.push_back(std::int64_t(axis));
          ishape.push_back(s.size);
        }
        ++collapsed_y;
        ++y_axis;
        ++axis;
      }
    }
    std::sort(out.collapsed.begin(), out.collapsed.end());
    if (!tracing()) return Result<Indexer>::success(out);
    if (advanced) {
      for (std::size_t k = 0; k < idx_adv.size(); ++k) {
        const std::int64_t size = shape[std::size_t(x_adv_axes[k])];
        // XLA refuses a gather slice of 1 from an axis of size 0 (JAX's message for an int).
        if (size == 0 && !adv_shape.empty())
          return fail_as("IndexError", "index is out of bounds for axis " +
                                           std::to_string(x_adv_axes[k]) + " with size 0");
        // _normalize_index makes the axis size a constant of the index's dtype (lax._const): a
        // size past it is NumPy's OverflowError there.
        UNWRAP(fits, axis_size_fits(idx[idx_adv[k]].r->aval.dtype, size));
        (void)fits;
      }
      std::vector<hj::Value> normalized;
      for (std::size_t k = 0; k < idx_adv.size(); ++k) {
        const Ref& a = idx[idx_adv[k]].r;
        UNWRAP(v, value_of(a));
        normalized.push_back(normalized_index(v, a->aval, shape[std::size_t(x_adv_axes[k])]));
      }
      std::vector<hj::Value> gathered;
      for (auto& v : normalized)
        gathered.push_back(em->aval(v).dtype == index_dtype ? v : em->convert(v, index_dtype));
      std::vector<std::int64_t> full = adv_shape;
      full.push_back(1);
      std::vector<std::int64_t> keep_dims;
      for (std::size_t d = 0; d < adv_shape.size(); ++d) keep_dims.push_back(std::int64_t(d));
      if (gathered.size() == 1) {
        out.indices = em->broadcast_in_dim(gathered[0], full, keep_dims);
      } else {
        std::vector<hj::Value> cols;
        for (auto& g : gathered) cols.push_back(em->broadcast_in_dim(g, full, keep_dims));
        out.indices = em->concatenate(cols, std::int64_t(adv_shape.size()));
      }
      return Result<Indexer>::success(out);
    }
    // Basic: each gathered index as the walk meets it (a value, or a static int made a constant
    // where the index vector uses it), its place in the index batch shape.
    struct G {
      bool is_static = false;
      std::int64_t k = 0;
      hj::Value v;
      std::size_t at = 0;  // its first dimension in ishape
    };
    std::vector<G> gs;
    std::size_t batch = 0;
    for (std::size_t p : gathered_at) {
      std::size_t axis = 0;
      for (std::size_t q = 0; q < p; ++q) axis += idx[q].kind != 2;
      const std::int64_t n = shape[axis];
      G g;
      g.at = batch;
      const Ref& r = idx[p].r;
      if (idx[p].kind != 1 && n == 0)  // an int or a scalar index into an empty axis
        return fail_as("IndexError",
                       "index is out of bounds for axis " + std::to_string(axis) + " with size 0");
      if (idx[p].kind == 3) {
        if (r->i >= 0) {
          g.is_static = true;
          g.k = r->i;
        } else {  // lax.add(i, n) on two Python ints, staged; then the convert
          const std::string t = default_int();
          const hj::Value lhs = em->constant(double(r->i), {{}, t});  // in operand order
          const hj::Value sum = em->binary("add", lhs, em->constant(double(n), {{}, t}));
          g.v = em->convert(sum, index_dtype);
        }
      } else if (idx[p].kind == 4) {
        UNWRAP(fits, axis_size_fits(r->aval.dtype, n));
        (void)fits;
        UNWRAP(v, value_of(r));
        const hj::Value nv = normalized_index(v, r->aval, n);
        // Normalized, the index is strong (the axis size is a strong constant): converted only
        // to another dtype.
        g.v = r->aval.dtype == index_dtype ? nv : em->convert(nv, index_dtype);
      } else {
        const Sl& s = sl[p];
        if (s.step == 1) {
          g.is_static = true;
          g.k = s.start;
        } else {  // start + step * iota(size), reversed for a negative step
          const hj::Aval it{{s.size}, index_dtype};
          const hj::Value io = em->iota(it, 0);
          const hj::Value mul = em->binary(
              "multiply",
              em->broadcast_in_dim(em->constant(double(s.step), {{}, index_dtype}), {s.size}, {}),
              io);
          hj::Value v = em->binary(
              "add",
              em->broadcast_in_dim(em->constant(double(s.start), {{}, index_dtype}), {s.size}, {}),
              mul);
          if (s.step < 0) v = em->reverse(v, {0});
          g.v = v;
          ++batch;
        }
      }
      gs.push_back(g);
    }
    std::vector<std::int64_t> full = ishape;
    full.push_back(1);
    auto column = [&](const G& g) {
      hj::Value v = g.is_static ? em->constant(double(g.k), {{}, index_dtype}) : g.v;
      const std::size_t r = em->aval(v).dims.size();
      std::vector<std::int64_t> dims;
      for (std::size_t d = 0; d < r; ++d) dims.push_back(std::int64_t(g.at + d));
      return em->broadcast_in_dim(v, full, dims);
    };
    if (gs.empty()) {
      out.indices = em->constant_array({}, {{0}, index_dtype});
    } else if (gs.size() == 1) {  // lax.expand_dims(g, (g.ndim,)): its own column
      out.indices = column(gs[0]);
    } else {
      std::vector<hj::Value> cols;
      for (const G& g : gs) cols.push_back(column(g));
      out.indices = em->concatenate(cols, std::int64_t(ishape.size()));
    }
    return Result<Indexer>::success(out);
  }

  // x[idx] with integer arrays among the indices: JAX's gather (jax/_src/numpy/indexing.py's
  // rewriting_take -> _gather -> index_to_gather; lax.gather's mode None is PROMISE_IN_BOUNDS, a
  // plain stablehlo.gather), the index built by index_to_gather; an empty result is
  // lax.full_like(x, 0, shape=...), no gather; None's axes are inserted after (lax.expand_dims).
  Result<Ref> gather_index(const Ref& x, const std::vector<Ref>& parts) {
    UNWRAP(ix, index_to_gather(x, parts));
    const auto& shape = x->aval.dims;
    // The result's shape: the slice shape, None's axes included.
    const std::vector<std::int64_t>& out_shape = ix.slice_shape;
    if (!tracing()) return Result<Ref>::success(new_array({out_shape, x->aval.dtype}, x->weak));
    std::vector<std::int64_t> slice_sizes;
    for (std::size_t a = 0; a < shape.size(); ++a)
      slice_sizes.push_back(std::find(ix.collapsed.begin(), ix.collapsed.end(), std::int64_t(a)) !=
                                    ix.collapsed.end()
                                ? 1
                                : shape[a]);
    for (auto d : out_shape)
      if (d == 0) {  // an empty result: lax.full_like(x, 0, shape=...), no gather
        hj::Value z = em->constant(0, {{}, x->aval.dtype});
        return Result<Ref>::success(traced(em->broadcast_in_dim(z, out_shape, {}), x->weak));
      }
    UNWRAP(xv, value_of(x));
    hj::Value y =
        em->gather(xv, ix.indices, ix.offset_dims, ix.collapsed, ix.start_map, slice_sizes);
    if (!ix.newaxis_dims.empty()) {  // lax.expand_dims: a broadcast_in_dim
      std::vector<std::int64_t> bd;
      for (std::int64_t d = 0; d < std::int64_t(out_shape.size()); ++d)
        if (std::find(ix.newaxis_dims.begin(), ix.newaxis_dims.end(), d) == ix.newaxis_dims.end())
          bd.push_back(d);
      y = em->broadcast_in_dim(y, out_shape, bd);
    }
    return Result<Ref>::success(traced(y, x->weak));
  }

  // x.at[index].<method>(...) (jax/_src/numpy/array_methods.py's _IndexUpdateRef): get is x[index];
  // set, add, multiply (mul), min and max are scatter_update with lax.scatter, scatter_add,
  // scatter_mul, scatter_min and scatter_max; divide and power scatter-multiply the values into
  // ones_like(x) and divide x by that, or raise x to it. Keywords: indices_are_sorted,
  // unique_indices, mode (clip refused by name); get's mode and fill_value are refused.
  Result<Ref> index_update(const Ref& x, const Ref& index, const std::string& method,
                           const Args& a) {
    const std::string q = "_IndexUpdateRef." + method;
    const auto& methods = tr::index_update_methods();
    if (std::find(methods.begin(), methods.end(), method) == methods.end())
      return fail_as("AttributeError", tr::index_update_refusal(method));
    bool flags[2] = {false, false};
    const char* const flag_names[] = {"indices_are_sorted", "unique_indices"};
    Ref mode;
    for (const auto& [k, v] : a.kw) {
      if (k == "mode") {
        mode = v;
      } else if (k == flag_names[0] || k == flag_names[1]) {
        if (v->k != K::Bool && v->k != K::Int)
          return fail(q + ": " + k + " must be a bool, got " + type_name(v));
        flags[k == flag_names[1]] = v->k == K::Bool ? v->b : v->i != 0;
      } else if (!(k == "values" && method != "get") && !(k == "fill_value" && method == "get")) {
        return fail(q + "() got an unexpected keyword argument '" + k + "'");
      }
    }
    const std::size_t most = method == "get" ? 0 : 1;
    if (a.pos.size() > most)
      return fail(q + "() takes " + std::to_string(most + 1) + " positional argument" +
                  (most ? "s" : "") + " but " + std::to_string(a.pos.size() + 1) + " were given");
    if (method == "get") {
      Ref fill = a.get(99, "fill_value");
      if ((mode && mode->k != K::None) || (fill && fill->k != K::None))
        return fail_as("NotImplementedError",
                       q + ": mode and fill_value are not supported here (x[index] is)");
      return index_array(x, index);
    }
    UNWRAP(clip, scatter_mode(q, mode));
    if (clip)
      return fail_as("NotImplementedError",
                     q + ": mode='clip' (indices clamped first) is not supported here; the "
                         "default mode drops updates out of bounds");
    Ref y0 = a.get(0, "values");
    if (!y0) return fail(q + "() missing 1 required positional argument: 'values'");
    UNWRAP(y, as_array(y0, q));
    static constexpr NameOp ops[] = {{"set", "", false},
                                     {"add", "add", false},
                                     {"multiply", "multiply", false},
                                     {"mul", "multiply", false},
                                     {"min", "minimum", false},
                                     {"max", "maximum", false},
                                     {"divide", "multiply", false},
                                     {"power", "multiply", false}};
    const std::string op = find_name(ops, method)->op;
    if (method != "divide" && method != "power")
      return scatter_update(q, x, index, y, op, flags[0], flags[1]);
    // jnp.ones_like(x): lax.full_like, a constant broadcast to x's shape (x's weak type kept).
    UNWRAP(ones, full(x->aval.dims, 1, x->aval.dtype, x->weak));
    UNWRAP(factor, scatter_update(q, ones, index, y, op, flags[0], flags[1]));
    if (method == "divide") return binary_fn("jnp.divide", "divide", x, factor, true);
    return power(x, factor);
  }

  // jax/_src/ops/scatter.py's _scatter_update and _scatter_impl: the index read by
  // index_to_gather (its ops first); an empty slice leaves x as it is; x and the values promoted
  // (x converted first), the values broadcast to the slice's shape (jnp.broadcast_to), None's axes
  // squeezed, reversed axes reversed; the scatter (the indices sorted and unique when no index
  // array is among them, or as the caller says); the result converted back to x's dtype.
  Result<Ref> scatter_update(const std::string& q, const Ref& x, const Ref& index, const Ref& y,
                             const std::string& op, bool sorted, bool unique) {
    if (index->k == K::List)
      return fail(
          "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
          "`arr[array(seq)]` instead of `arr[seq]`. See "
          "https://github.com/google/jax/issues/4564 for more information.");
    std::vector<Ref> parts;
    if (index->k == K::Tuple)
      parts = index->items;
    else
      parts.push_back(index);
    UNWRAP(ix, index_to_gather(x, parts));
    for (auto d : ix.slice_shape)
      if (d == 0) return Result<Ref>::success(x);
    const DT d = promote2(dt_of(x), dt_of(y));
    UNWRAP(xc, convert(x, d.t, d.weak));
    UNWRAP(yc, convert(y, d.t, d.weak));
    if (d.t == "i1" && (op == "add" || op == "multiply"))
      return fail(std::string(op == "add" ? "add" : "mul") +
                  " does not accept dtype bool. Accepted dtypes are subtypes of number.");
    UNWRAP(yb, broadcast_to(yc, ix.slice_shape));
    Ref ys = yb;
    if (!ix.newaxis_dims.empty()) {  // jnp.squeeze of None's axes: a reshape
      std::vector<std::int64_t> to;
      for (std::size_t k = 0; k < ix.slice_shape.size(); ++k)
        if (std::find(ix.newaxis_dims.begin(), ix.newaxis_dims.end(), std::int64_t(k)) ==
            ix.newaxis_dims.end())
          to.push_back(ix.slice_shape[k]);
      UNWRAP(r, reshape(ys, to));
      ys = r;
    }
    if (!ix.reversed_dims.empty()) {
      UNWRAP(r, rev(ys, ix.reversed_dims));
      ys = r;
    }
    Ref out;
    if (!tracing()) {
      out = new_array(xc->aval, xc->weak);
    } else {
      UNWRAP(xv, value_of(xc));
      UNWRAP(yv, value_of(ys));
      out = traced(em->scatter(xv, ix.indices, yv, op, ix.offset_dims, ix.collapsed, ix.start_map,
                               sorted || ix.basic, unique || ix.basic),
                   xc->weak);
    }
    return convert(out, x->aval.dtype, x->weak);
  }

  // x[i] with a traced 0-d integer i among ints and slices: JAX's dynamic_slice
  // (_attempt_rewriting_take_via_slice): per axis a start (the traced index, normalized by select;
  // an int or a slice's start, a constant of the indices' promoted dtype) and a size (1 for an
  // index, the slice's length), then the indexed axes squeezed by a reshape. Modelled: ints in
  // range and not negative, slices of step 1, `...`; None, negative ints and strides are refused
  // by name (JAX gathers or normalizes them otherwise).
  Result<Ref> dynamic_index(const Ref& x, const std::vector<Ref>& parts) {
    const auto& shape = x->aval.dims;
    const std::size_t nd = shape.size();
    std::size_t consumed = 0;
    int ellipses = 0;
    std::string itype;
    for (const Ref& v : parts) {
      if (v->k == K::Ellipsis) {
        ++ellipses;
        continue;
      }
      if (v->k == K::None)
        return fail_as("NotImplementedError",
                       "None beside a traced index is a gather in JAX: not supported here yet");
      if (v->k == K::Array) {
        if (v->aval.dtype == "i1")
          return fail_as("NonConcreteBooleanIndexError",
                         "Array boolean indices must be concrete; got " + aval_text(v));
        if (hj::is_float(v->aval.dtype))
          return fail_as("TypeError",
                         "Indexer must have integer or boolean type, got indexer with type " +
                             jax_dtype_name(v->aval.dtype));
        if (!itype.empty() && itype != v->aval.dtype)
          return fail_as("NotImplementedError",
                         "traced indices of two dtypes (" + jax_dtype_name(itype) + ", " +
                             jax_dtype_name(v->aval.dtype) + ") are not supported here");
        itype = v->aval.dtype;
      } else if (v->k != K::Int && v->k != K::Slice) {
        return fail_as(
            "TypeError",
            "Indexer must have integer or boolean type, got indexer of type " + type_name(v));
      }
      ++consumed;
    }
    if (ellipses > 1) return fail_as("IndexError", "Multiple ellipses (...) not supported");
    if (consumed > nd)
      return fail_as("IndexError", "Too many indices: " + std::to_string(nd) +
                                       "-dimensional array indexed with " +
                                       std::to_string(consumed) + " regular indices.");
    std::vector<Ref> idx;
    for (const Ref& v : parts) {
      if (v->k == K::Ellipsis) {
        for (std::size_t k = 0; k < nd - consumed; ++k) idx.push_back(nullptr);
      } else {
        idx.push_back(v);
      }
    }
    while (idx.size() < nd) idx.push_back(nullptr);  // whole slices
    // Starts (a traced value, or a static start) and sizes, per axis.
    std::vector<Ref> traced_at(nd);
    std::vector<std::int64_t> static_start(nd, 0), sizes(nd), squeezed;
    for (std::size_t d = 0; d < nd; ++d) {
      const Ref& v = idx[d];
      const std::int64_t size = shape[d];
      if (!v) {
        sizes[d] = size;
      } else if (v->k == K::Array) {
        if (size == 0)
          return fail_as("IndexError",
                         "index is out of bounds for axis " + std::to_string(d) + " with size 0");
        traced_at[d] = v;
        sizes[d] = 1;
        squeezed.push_back(std::int64_t(d));
      } else if (v->k == K::Int) {
        if (v->i < 0 || v->i >= size)
          return fail_as("NotImplementedError",
                         "index " + std::to_string(v->i) + " for axis " + std::to_string(d) +
                             " of size " + std::to_string(size) +
                             " beside a traced index is not supported here (write it as a "
                             "nonnegative index in range)");
        static_start[d] = v->i;
        sizes[d] = 1;
        squeezed.push_back(std::int64_t(d));
      } else {  // a slice
        Ref b[3] = {v->items[0], v->items[1], v->items[2]};
        for (const Ref& e : b)
          if (e->k != K::None && e->k != K::Int)
            return fail_as("IndexError",
                           "Array slice indices must have static start/stop/step to be used with "
                           "NumPy indexing syntax; got " +
                               type_name(e));
        if (b[2]->k == K::Int && b[2]->i != 1)
          return fail_as("NotImplementedError",
                         "a slice with step " + std::to_string(b[2]->i) +
                             " beside a traced index is a gather in JAX: not supported here yet");
        auto clampi = [&](const Ref& r, std::int64_t dflt) {
          if (r->k == K::None) return dflt;
          const std::int64_t w = r->i < 0 ? r->i + size : r->i;
          return std::min(std::max<std::int64_t>(w, 0), size);
        };
        const std::int64_t lo = clampi(b[0], 0), hi = std::max(lo, clampi(b[1], size));
        static_start[d] = lo;
        sizes[d] = hi - lo;
      }
    }
    std::vector<std::int64_t> out;
    for (std::size_t d = 0; d < nd; ++d)
      if (std::find(squeezed.begin(), squeezed.end(), std::int64_t(d)) == squeezed.end())
        out.push_back(sizes[d]);
    for (std::size_t d = 0; d < nd; ++d) {
      UNWRAP(fit, index_fits(itype, traced_at[d] ? shape[d] : static_start[d]));
      (void)fit;
    }
    if (!tracing()) return Result<Ref>::success(new_array({out, x->aval.dtype}, x->weak));
    UNWRAP(xv, value_of(x));
    std::vector<hj::Value> starts(nd);
    std::vector<bool> made(nd, false);
    for (std::size_t d = 0; d < nd; ++d) {  // the traced indices, normalized, in order
      if (!traced_at[d]) continue;
      UNWRAP(v, value_of(traced_at[d]));
      made[d] = true;
      starts[d] = normalized_index(v, traced_at[d]->aval, shape[d]);
    }
    for (std::size_t d = 0; d < nd; ++d)
      if (!made[d]) starts[d] = em->constant(double(static_start[d]), {{}, itype});
    hj::Value r = em->dynamic_slice(xv, starts, sizes);
    if (!squeezed.empty()) r = em->reshape(r, out);
    return Result<Ref>::success(traced(r, x->weak));
  }

  Result<Ref> index_array(const Ref& x, const Ref& index) {
    {
      std::vector<Ref> parts;
      if (index->k == K::Tuple)
        parts = index->items;
      else
        parts.push_back(index);
      for (const Ref& v : parts)
        if (v->k == K::Array && !v->literal && !v->aval.dims.empty()) return gather_index(x, parts);
      for (const Ref& v : parts)
        if (v->k == K::Array && !v->literal) return dynamic_index(x, parts);
    }
    struct Ix {
      int kind = 0;  // 0 int, 1 slice, 2 None, 3 Ellipsis
      std::int64_t i = 0;
      Ref start, stop, step;
    };
    std::vector<Ref> parts;
    if (index->k == K::Tuple)
      parts = index->items;
    else
      parts.push_back(index);
    std::vector<Ix> ix;
    int ellipses = 0;
    std::size_t regular = 0;
    for (const Ref& v : parts) {
      Ix one;
      if (v->k == K::Slice) {
        one.kind = 1;
        Ref* slots[3] = {&one.start, &one.stop, &one.step};
        for (int w = 0; w < 3; ++w) {
          const Ref& b = v->items[static_cast<std::size_t>(w)];
          if (b->k == K::None) continue;
          if (b->k != K::Int)
            return fail_as(
                "IndexError",
                "Array slice indices must have static start/stop/step to be used with NumPy "
                "indexing syntax; got " +
                    type_name(b));
          *slots[w] = b;
        }
      } else if (v->k == K::Ellipsis) {
        one.kind = 3, ++ellipses;
      } else if (v->k == K::None) {
        one.kind = 2;
      } else if (v->k == K::Int) {
        one.i = v->i;
      } else {
        if (v->k == K::Array)
          return fail_as("NotImplementedError",
                         "indexing with a 0-d array (" + aval_text(v) +
                             ") is a dynamic_slice in JAX: not supported here yet");
        if (v->k == K::List || v->k == K::Tuple)
          return fail_as("NotImplementedError",
                         "indexing with a list is a gather of constant indices in JAX: not "
                         "supported here; pass the indices as an array argument");
        return fail("Indexer must have integer or boolean type, got indexer of type " +
                    type_name(v));
      }
      if (one.kind == 0 || one.kind == 1) ++regular;
      ix.push_back(std::move(one));
    }
    const auto& shape = x->aval.dims;
    const std::size_t nd = shape.size();
    if (ellipses > 1)
      return fail_as("IndexError", "An index can only have a single ellipsis ('...')");
    if (regular > nd)
      return fail_as("IndexError", "Too many indices: " + std::to_string(nd) +
                                       "-dimensional array indexed with " +
                                       std::to_string(regular) + " regular indices.");
    // Expand `...` (or pad at the end) with whole slices.
    std::vector<Ix> full;
    for (auto& one : ix) {
      if (one.kind == 3) {
        for (std::size_t k = 0; k < nd - regular; ++k)
          full.push_back(Ix{1, 0, nullptr, nullptr, nullptr});
      } else {
        full.push_back(one);
      }
    }
    if (!ellipses)
      for (std::size_t k = regular; k < nd; ++k)
        full.push_back(Ix{1, 0, nullptr, nullptr, nullptr});
    // Per axis: start, limit (Python's slice.indices), whether it is an int index.
    std::vector<std::int64_t> starts, limits, int_axes, out_after_none, reversed;
    bool any_none = false, partial = false;
    std::size_t axis = 0;
    for (auto& one : full) {
      if (one.kind == 2) {
        any_none = true;
        continue;
      }
      const std::int64_t size = shape[axis];
      if (one.kind == 0) {
        if (one.i < -size || one.i >= size)
          // A limit of this tracer, as the message says (JAX clamps the index in a gather).
          return fail_as("NotImplementedError",
                         "index " + std::to_string(one.i) + " is out of bounds for axis " +
                             std::to_string(axis) + " with size " + std::to_string(size) +
                             " (JAX clamps it in a gather: not supported here)");
        if (one.i < 0)
          return fail_as("NotImplementedError",
                         "a negative index (" + std::to_string(one.i) +
                             ") is a dynamic_slice in JAX: not supported here yet; write " +
                             std::to_string(one.i + size) + " instead");
        starts.push_back(one.i);
        limits.push_back(one.i + 1);
        int_axes.push_back(std::int64_t(axis));
        partial = true;
      } else {
        const std::int64_t step = one.step ? one.step->i : 1;
        if (step == 0) return fail_as("ValueError", "slice step cannot be zero");
        if (step == -1 && !one.start &&
            !one.stop) {  // a simple reverse: lax.rev, then a whole slice
          reversed.push_back(std::int64_t(axis));
          starts.push_back(0);
          limits.push_back(size);
          ++axis;
          continue;
        }
        if (step != 1)
          return fail_as("NotImplementedError", "a slice with step " + std::to_string(step) +
                                                    " is a gather in JAX: not supported here yet");
        auto clampi = [&](const Ref& r, std::int64_t dflt) {
          if (!r) return dflt;
          std::int64_t v = r->i < 0 ? r->i + size : r->i;
          return std::min(std::max<std::int64_t>(v, 0), size);
        };
        const std::int64_t lo = clampi(one.start, 0), hi = std::max(lo, clampi(one.stop, size));
        starts.push_back(lo);
        limits.push_back(hi);
        if (lo != 0 || hi != size) partial = true;
      }
      ++axis;
    }
    if (any_none && !reversed.empty())
      return fail_as(
          "NotImplementedError",
          "indexing with None beside a reversed slice is a gather in JAX: not supported here yet");
    Ref xr = x;
    if (!reversed.empty()) {  // jnp's _rewriting_take: lax.rev of the simple reverses first
      UNWRAP(r, rev(x, reversed));
      xr = r;
    }
    if (any_none) {
      if (partial)
        return fail_as(
            "NotImplementedError",
            "indexing with None beside integers or partial slices is a gather in JAX: not "
            "supported here yet");
      std::vector<std::int64_t> out, bd;
      std::size_t a = 0;
      for (auto& one : full) {
        if (one.kind == 2) {
          out.push_back(1);
        } else {
          bd.push_back(std::int64_t(out.size()));
          out.push_back(shape[a++]);
        }
      }
      return broadcast_in_dim(x, out, bd);
    }
    if (!partial) return Result<Ref>::success(xr);
    std::vector<std::int64_t> sliced, squeezed;
    for (std::size_t a = 0; a < nd; ++a) {
      sliced.push_back(limits[a] - starts[a]);
      if (std::find(int_axes.begin(), int_axes.end(), std::int64_t(a)) == int_axes.end())
        squeezed.push_back(sliced.back());
    }
    Ref out;
    if (!tracing()) {
      out = new_array({sliced, x->aval.dtype}, x->weak);
    } else {
      UNWRAP(v, value_of(xr));
      out = traced(em->slice(v, starts, limits, std::vector<std::int64_t>(nd, 1)), x->weak);
    }
    if (int_axes.empty()) return Result<Ref>::success(out);
    return reshape(out, squeezed);
  }

  // The value of a subscript's index expression: a slice (`a:b:c`) becomes a slice object, and
  // a tuple of them a tuple (what Python hands __getitem__); anything else is evaluated.
};

}  // namespace

const std::vector<std::string>& supported_names() { return names_list(); }
bool supported_name(const std::string& name) { return known_name(name); }
const char* dtype_mlir_name(const std::string& attribute) { return dtype_named(attribute); }

// ---- a lowering another evaluator drives (python/traced.h) ----------------------------------

namespace tr {

const std::vector<std::string>& index_update_methods() {
  static const std::vector<std::string> methods = {"get", "set", "add",    "multiply", "mul",
                                                   "min", "max", "divide", "power"};
  return methods;
}
std::string index_update_refusal(const std::string& name) {
  std::string known;
  for (const auto& m : index_update_methods()) known += (known.empty() ? "" : ", ") + m;
  return "'_IndexUpdateRef' object has no attribute '" + name + "' (here: " + known + ")";
}

struct Session::Impl {
  Interp in;
  std::vector<Ref> args;
  std::string name;
  Interp& rules() { return in; }
};

Session::Session(const std::string& function, const std::vector<ArgSpec>& specs)
    : impl_(std::make_unique<Impl>()) {
  Interp& in = impl_->rules();
  std::vector<hj::Aval> types;
  for (auto& a : specs) types.push_back({a.dims, canonical(a.dtype)});
  in.em = std::make_unique<hj::Emitter>(function, types);
  in.fn_stack = {0};
  for (std::size_t k = 0; k < specs.size(); ++k)
    impl_->args.push_back(in.traced(in.em->arg(k), specs[k].weak));
  impl_->name = function;
}
Session::Session() : impl_(std::make_unique<Impl>()) {}
Session::~Session() = default;

const std::vector<Ref>& Session::args() const { return impl_->args; }

Result<Ref> Session::call(const std::string& name, const std::vector<Ref>& pos, const Kw& kw) {
  return impl_->rules().call_builtin(name, Args{pos, kw});
}
Result<Ref> Session::binop(const std::string& op, const Ref& x, const Ref& y) {
  return impl_->rules().binop(op, x, y);
}
Result<Ref> Session::compare(const std::string& op, const Ref& x, const Ref& y) {
  return impl_->rules().compare(op, x, y);
}
Result<Ref> Session::negate(const Ref& x) {
  return impl_->rules().unary_fn("negative", "negate", x, false);
}
Result<Ref> Session::subscript(const Ref& x, const Ref& index) {
  Interp& in = impl_->rules();
  if (x->k != K::Array) return in.fail("'" + type_name(x) + "' object is not subscriptable");
  return in.index_array(x, index);
}
Result<Ref> Session::index_update(const Ref& x, const Ref& index, const std::string& method,
                                  const std::vector<Ref>& pos, const Kw& kw) {
  Interp& in = impl_->rules();
  if (x->k != K::Array) return in.fail("'" + type_name(x) + "' object has no attribute 'at'");
  return in.index_update(x, index, method, Args{pos, kw});
}
Result<Ref> Session::attribute(const Ref& x, const std::string& name) {
  Interp& in = impl_->rules();
  if (x->k != K::Array)
    return in.fail_as("AttributeError",
                      "'" + type_name(x) + "' object has no attribute '" + name + "'");
  return in.array_attr(x, name);
}
Result<Ref> Session::call_method(const Ref& method, const std::vector<Ref>& pos, const Kw& kw) {
  return impl_->rules().call_method(method, Args{pos, kw});
}
Result<Ref> Session::call_jitted(const std::string& name, const std::string& identity,
                                 const std::vector<Ref>& pos, const Callback& body) {
  return impl_->rules().call_jitted_private(name, pos, body, "fn:" + identity);
}
Result<Ref> Session::convert(const Ref& x, const std::string& dtype) {
  Interp& in = impl_->rules();
  UNWRAP(a, in.as_array(x, jax_dtype_name(dtype)));
  return in.convert(a, dtype, false);
}
Result<Ref> Session::constant(double value, const std::string& dtype, bool weak) {
  return impl_->rules().full({}, value, dtype, weak);
}
Result<Ref> Session::constant_array(const std::vector<double>& values, const hj::Aval& type,
                                    const void* identity) {
  return impl_->rules().host_constant(values, type, identity);
}
Result<Lowered> Session::finish(const Ref& out, const std::vector<std::string>& result_info) {
  Interp& in = impl_->rules();
  if (!in.em) return Result<Lowered>::failure(Error{"the lowering has finished already", "", 0, 0});
  auto ok = in.finish(impl_->name, out, result_info);
  if (!ok) return Result<Lowered>::failure(ok.error_info());
  return Result<Lowered>::success(in.result);
}

}  // namespace tr

}  // namespace rl::python

namespace rl::python {
void set_enable_x64(bool on) {
  g_enable_x64 = on;
  set_jax_x64(on);  // the host's JAX arrays too
}
bool enable_x64() { return g_enable_x64; }
}  // namespace rl::python
