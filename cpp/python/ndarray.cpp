// Host arrays: promotion, broadcasting, elementwise math and NumPy's printing.
#include "python/ndarray.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "python/float_repr.h"
#include "python/pynum.h"

namespace rl::python {

std::string dtype_name(DType t) {
  switch (t) {
    case DType::Bool:
      return "bool";
    case DType::Int32:
      return "int32";
    case DType::Int64:
      return "int64";
    case DType::Float32:
      return "float32";
    case DType::Float64:
      return "float64";
  }
  return "?";
}
bool dtype_is_float(DType t) { return t == DType::Float32 || t == DType::Float64; }
int dtype_kind(DType t) { return t == DType::Bool ? 0 : dtype_is_float(t) ? 2 : 1; }

std::int64_t NdArray::size() const {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  return n;
}

std::string too_many_dims(std::size_t rank) {
  if (rank <= static_cast<std::size_t>(kMaxDims)) return std::string();
  return "maximum supported dimension for an ndarray is " + std::to_string(kMaxDims) + ", found " +
         std::to_string(rank);
}

Result<NdArray> NdArray::zeros(DType t, std::vector<std::int64_t> dims, bool jax) {
  if (auto e = too_many_dims(dims.size()); !e.empty()) return Result<NdArray>::failure(e);
  std::int64_t n = 1;
  for (auto d : dims) {
    if (d < 0) return Result<NdArray>::failure("negative dimensions are not allowed");
    if (d > 0 && n > kMaxArrayElements / d)
      return Result<NdArray>::failure("an array of shape " + shape_repr(dims) +
                                      " is past the notebook's limit of " +
                                      std::to_string(kMaxArrayElements) + " elements");
    n *= d;
  }
  NdArray a;
  a.dt = t;
  a.dims = std::move(dims);
  a.jax = jax;
  if (dtype_is_float(t))
    a.f.assign(static_cast<std::size_t>(n), 0.0);
  else
    a.i.assign(static_cast<std::size_t>(n), 0);
  return Result<NdArray>::success(std::move(a));
}

namespace {
std::int64_t wrap(DType t, std::int64_t v) {
  if (t == DType::Int32)
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
  if (t == DType::Bool) return v != 0;
  return v;
}
std::int64_t to_int(double v) {
  if (std::isnan(v) || v >= 9.2233720368547758e18 || v < -9.2233720368547758e18)
    return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(v);
}
}  // namespace

void NdArray::set(std::size_t k, double v) {
  if (dt == DType::Float32)
    f[k] = static_cast<double>(static_cast<float>(v));
  else if (dt == DType::Float64)
    f[k] = v;
  else if (dt == DType::Bool)
    i[k] = v != 0;
  else if (dt == DType::Int32 && !jax && (std::isnan(v) || v >= 2147483648.0 || v <= -2147483649.0))
    i[k] = std::numeric_limits<std::int32_t>::min();  // NumPy on x86: cvttsd2si's 0x80000000
  else
    i[k] = wrap(dt, to_int(v));
}
void NdArray::set_int(std::size_t k, std::int64_t v) {
  if (is_float())
    set(k, static_cast<double>(v));
  else
    i[k] = wrap(dt, v);
}

NdArray scalar_array(double v, int kind, bool jax) {
  NdArray a;
  a.weak = true;
  a.jax = jax;
  if (kind == 2) {
    a.dt = DType::Float64;
    a.f = {v};
  } else {
    a.dt = kind == 0 ? DType::Bool : DType::Int64;
    a.i = {static_cast<std::int64_t>(v)};
  }
  return a;
}
NdArray scalar_array_int(std::int64_t v, bool is_bool, bool jax) {
  NdArray a;
  a.weak = true;
  a.jax = jax;
  a.dt = is_bool ? DType::Bool : DType::Int64;
  a.i = {is_bool ? (v != 0) : v};
  return a;
}

namespace {
bool g_jax_x64 = false;
}  // namespace

void set_jax_x64(bool on) { g_jax_x64 = on; }
bool jax_x64() { return g_jax_x64; }
DType jax_canonical(DType t) {
  if (g_jax_x64) return t;
  return t == DType::Int64 ? DType::Int32 : t == DType::Float64 ? DType::Float32 : t;
}
DType jax_inexact(DType t) {
  if (dtype_is_float(t)) return t;
  return jax_canonical(t == DType::Int64 ? DType::Float64 : DType::Float32);
}

namespace {

// Plain promotion of two dtypes (np.promote_types; JAX's lattice for jnp, canonicalized).
DType promote(DType a, DType b, bool jax) {
  auto canon = [jax](DType t) { return jax ? jax_canonical(t) : t; };
  if (a == b) return canon(a);
  const int ka = dtype_kind(a), kb = dtype_kind(b);
  if (ka != kb) {
    if (ka == 0) return canon(b);
    if (kb == 0) return canon(a);
    // int with float: NumPy: int32 + float32 → float64, int64 + float32 → float64; JAX: the float.
    const DType fl = ka == 2 ? a : b;
    return jax ? canon(fl) : DType::Float64;
  }
  // same kind, different widths: the wider
  const DType w = (a == DType::Int64 || b == DType::Int64)       ? DType::Int64
                  : (a == DType::Float64 || b == DType::Float64) ? DType::Float64
                                                                 : a;
  return canon(w);
}

// NumPy 1.24's value-based casting (legacy promotion) of a 0-d operand `s` — a Python scalar or
// a NumPy scalar or 0-d array — beside an array of dtype x: a scalar of a higher kind (bool < int
// < float) promotes as its dtype does; one of the array's kind or lower counts as the smallest
// type holding its value (np.min_scalar_type, where a non-negative int that fits the signed type
// of its width counts as that signed type), so int32 + 5 stays int32 and int32 * 2**31 is int64,
// float32 + 1.5 stays float32 and float32 + 1e300 is float64.
DType numpy_scalar_beside(const NdArray& s, DType x) {
  const int ks = dtype_kind(s.dt), kx = dtype_kind(x);
  if (ks > kx) return promote(s.dt, x, false);
  if (ks == 0) return x;
  if (ks == 1) {
    const std::int64_t v = s.i[0];
    if (x == DType::Int32)
      return v >= -(std::int64_t(1) << 31) && v < (std::int64_t(1) << 31) ? x : DType::Int64;
    if (x == DType::Float32) return v >= -32768 && v <= 65535 ? x : DType::Float64;
    return x;  // int64, float64
  }
  const double v = s.f[0];  // a float beside a float array
  if (x == DType::Float32 && std::isfinite(v) && std::fabs(v) >= 3.4e38) return DType::Float64;
  return x;
}

}  // namespace

DType result_type(const NdArray& a, const NdArray& b) {
  const bool jax = a.jax || b.jax;
  if (jax) {
    // JAX: a Python scalar is weakly typed, taking the array's dtype within its kind.
    if (a.weak != b.weak) {
      const NdArray& s = a.weak ? a : b;
      const NdArray& x = a.weak ? b : a;
      const int ks = dtype_kind(s.dt), kx = dtype_kind(x.dt);
      if (ks <= kx) return x.dt;
      return jax_canonical(ks == 1 ? DType::Int64 : DType::Float64);  // int_, float_
    }
    return promote(a.dt, b.dt, true);
  }
  // NumPy: a 0-d operand beside an array is cast by its value; two arrays, or two scalars,
  // promote as their dtypes (a Python int as int64, a Python float as float64).
  const bool sa = a.dims.empty(), sb = b.dims.empty();
  if (sa != sb) return numpy_scalar_beside(sa ? a : b, sa ? b.dt : a.dt);
  return promote(a.dt, b.dt, false);
}

std::string jax_int_overflow(const NdArray& a, const NdArray& b, DType t) {
  if (t != DType::Int32) return "";
  for (const NdArray* s : {&a, &b})
    if (s->weak && s->dt == DType::Int64 && !s->i.empty() &&
        (s->i[0] < -(std::int64_t(1) << 31) || s->i[0] >= (std::int64_t(1) << 31)))
      return "Python int " + std::to_string(s->i[0]) + " too large to convert to int32";
  return "";
}

NdArray astype(const NdArray& a, DType t) {
  if (a.dt == t) return a;
  NdArray r;
  r.dt = t;
  r.dims = a.dims;
  r.jax = a.jax;
  const std::size_t n = static_cast<std::size_t>(a.size());
  if (dtype_is_float(t))
    r.f.resize(n);
  else
    r.i.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (a.is_float())
      r.set(k, a.f[k]);
    else
      r.set_int(k, a.i[k]);
  }
  return r;
}

std::string shape_repr(const std::vector<std::int64_t>& dims) {
  std::string s = "(";
  for (std::size_t k = 0; k < dims.size(); ++k) s += (k ? ", " : "") + std::to_string(dims[k]);
  if (dims.size() == 1) s += ",";
  return s + ")";
}

std::string numpy_shape(const std::vector<std::int64_t>& dims) {
  std::string t = shape_repr(dims);
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  return t;
}

namespace {
bool broadcast(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
               std::vector<std::int64_t>* out);
}  // namespace

std::string broadcast_refusal(const std::vector<const NdArray*>& xs) {
  std::vector<std::int64_t> out = xs.front()->dims;
  bool ok = true, jax = false;
  for (const NdArray* x : xs) {
    std::vector<std::int64_t> next;
    ok = ok && broadcast(out, x->dims, &next);
    out = next;
    jax = jax || x->jax;
  }
  if (ok) return "";
  // JAX: "shapes=[(2, 3), (4,)]"; NumPy writes each shape without spaces: "(2,3) (4,) ".
  std::string s = jax ? "Incompatible shapes for broadcasting: shapes=["
                      : "operands could not be broadcast together with shapes ";
  for (std::size_t k = 0; k < xs.size(); ++k)
    s += jax ? (k ? ", " : "") + shape_repr(xs[k]->dims) : numpy_shape(xs[k]->dims) + " ";
  return jax ? s + "]" : s;
}

namespace {

bool broadcast(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
               std::vector<std::int64_t>* out) {
  const std::size_t r = std::max(a.size(), b.size());
  out->assign(r, 1);
  for (std::size_t k = 0; k < r; ++k) {
    const std::int64_t da = k < r - a.size() ? 1 : a[k - (r - a.size())];
    const std::int64_t db = k < r - b.size() ? 1 : b[k - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[k] = da == 1 ? db : da;
  }
  return true;
}

// Element strides of `dims` seen in an output of rank r (0 on broadcast axes).
std::vector<std::int64_t> strides_in(const std::vector<std::int64_t>& dims,
                                     const std::vector<std::int64_t>& out) {
  std::vector<std::int64_t> s(out.size(), 0);
  std::int64_t stride = 1;
  for (std::size_t k = dims.size(); k-- > 0;) {
    const std::size_t o = k + out.size() - dims.size();
    s[o] = dims[k] == 1 ? 0 : stride;
    stride *= dims[k];
  }
  return s;
}

bool is_compare(const std::string& op) {
  return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
}

}  // namespace

std::vector<std::int64_t> broadcast_shape(const std::vector<const NdArray*>& arrays) {
  std::vector<std::int64_t> out = arrays.front()->dims;
  for (const NdArray* x : arrays) {
    std::vector<std::int64_t> next;
    if (broadcast(out, x->dims, &next)) out = next;
  }
  return out;
}

NdArray broadcast_to(const NdArray& a, const std::vector<std::int64_t>& out) {
  NdArray r;
  r.dt = a.dt;
  r.jax = a.jax;
  r.dims = out;
  std::int64_t n = 1;
  for (auto d : out) n *= d;
  const auto st = strides_in(a.dims, out);
  std::vector<std::int64_t> idx(out.size(), 0);
  std::int64_t at = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    if (a.is_float())
      r.f.push_back(a.f[static_cast<std::size_t>(at)]);
    else
      r.i.push_back(a.i[static_cast<std::size_t>(at)]);
    for (std::size_t d = out.size(); d-- > 0;) {
      at += st[d];
      if (++idx[d] < out[d]) break;
      at -= st[d] * out[d];
      idx[d] = 0;
    }
  }
  return r;
}

Result<NdArray> binary(const std::string& op, const NdArray& a, const NdArray& b) {
  std::vector<std::int64_t> out;
  if (!broadcast(a.dims, b.dims, &out))
    return Result<NdArray>::failure(broadcast_refusal({&a, &b}));
  DType ct = result_type(a, b);
  const bool jax = a.jax || b.jax;
  // JAX converts a weakly typed Python int to the array's int32, refusing one that does not fit.
  if (jax) {
    const std::string overflow = jax_int_overflow(a, b, ct);
    if (!overflow.empty()) return Result<NdArray>::failure(overflow);
  }
  if (op == "/" && !dtype_is_float(ct)) ct = jax ? jax_inexact(ct) : DType::Float64;
  if ((op == "&" || op == "|" || op == "^") && dtype_is_float(ct))
    return Result<NdArray>::failure("ufunc 'bitwise_" +
                                    std::string(op == "&"   ? "and"
                                                : op == "|" ? "or"
                                                            : "xor") +
                                    "' not supported for the input types");
  if (op == "-" && ct == DType::Bool)
    return Result<NdArray>::failure(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
        "operator, or the logical_xor function instead.");
  const DType rt = is_compare(op) ? DType::Bool : ct;
  auto made = NdArray::zeros(rt, out, jax);
  if (!made) return made;
  NdArray r = std::move(made.value());
  const auto sa = strides_in(a.dims, out), sb = strides_in(b.dims, out);
  const std::size_t n = static_cast<std::size_t>(r.size());
  std::vector<std::int64_t> idx(out.size(), 0);
  std::int64_t ia = 0, ib = 0;
  const bool fl = dtype_is_float(ct);
  for (std::size_t k = 0; k < n; ++k) {
    if (fl) {
      double x = a.at(static_cast<std::size_t>(ia)), y = b.at(static_cast<std::size_t>(ib));
      if (ct == DType::Float32) {
        x = static_cast<float>(x);
        y = static_cast<float>(y);
      }
      double v = 0;
      if (op == "+")
        v = x + y;
      else if (op == "-")
        v = x - y;
      else if (op == "*")
        v = x * y;
      else if (op == "/")
        v = x / y;
      else if (op == "//")
        v = py_floordiv(x, y);
      else if (op == "%")
        v = y == 0 ? std::nan("") : py_fmod(x, y);
      else if (op == "**")
        v = std::pow(x, y);
      else if (op == "minimum")
        v = std::isnan(x) || std::isnan(y) ? std::nan("") : std::min(x, y);
      else if (op == "maximum")
        v = std::isnan(x) || std::isnan(y) ? std::nan("") : std::max(x, y);
      else if (op == "<")
        v = x < y;
      else if (op == "<=")
        v = x <= y;
      else if (op == ">")
        v = x > y;
      else if (op == ">=")
        v = x >= y;
      else if (op == "==")
        v = x == y;
      else if (op == "!=")
        v = x != y;
      if (ct == DType::Float32 && op == "/") v = static_cast<float>(x) / static_cast<float>(y);
      r.set(k, v);
    } else {
      const std::int64_t x = a.iat(static_cast<std::size_t>(ia)),
                         y = b.iat(static_cast<std::size_t>(ib));
      const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
      std::int64_t v = 0;
      if (op == "+")
        v = static_cast<std::int64_t>(ux + uy);
      else if (op == "-")
        v = static_cast<std::int64_t>(ux - uy);
      else if (op == "*")
        v = static_cast<std::int64_t>(ux * uy);
      else if (op == "//" || op == "%") {
        if (y == 0 || (y == -1 && x == std::numeric_limits<std::int64_t>::min())) {
          v = 0;
        } else {
          std::int64_t q = x / y, m = x % y;
          if (m != 0 && ((m < 0) != (y < 0))) {
            q -= 1;
            m += y;
          }
          v = op == "//" ? q : m;
        }
      } else if (op == "**") {
        if (y < 0)
          return Result<NdArray>::failure("Integers to negative integer powers are not allowed.");
        std::uint64_t base = ux, res = 1;
        for (std::int64_t e = y; e > 0; e >>= 1) {
          if (e & 1) res *= base;
          base *= base;
        }
        v = static_cast<std::int64_t>(res);
      } else if (op == "minimum")
        v = std::min(x, y);
      else if (op == "maximum")
        v = std::max(x, y);
      else if (op == "&")
        v = x & y;
      else if (op == "|")
        v = x | y;
      else if (op == "^")
        v = x ^ y;
      else if (op == "<")
        v = x < y;
      else if (op == "<=")
        v = x <= y;
      else if (op == ">")
        v = x > y;
      else if (op == ">=")
        v = x >= y;
      else if (op == "==")
        v = x == y;
      else if (op == "!=")
        v = x != y;
      r.set_int(k, v);
    }
    for (std::size_t d = out.size(); d-- > 0;) {
      ia += sa[d];
      ib += sb[d];
      if (++idx[d] < out[d]) break;
      ia -= sa[d] * out[d];
      ib -= sb[d] * out[d];
      idx[d] = 0;
    }
  }
  return Result<NdArray>::success(std::move(r));
}

Result<NdArray> unary(const std::string& op, const NdArray& a) {
  if (op == "negative" || op == "abs") {
    if (a.dt == DType::Bool && op == "negative")
      return Result<NdArray>::failure(
          "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or "
          "the logical_not function instead.");
    NdArray r = a;
    r.weak = false;
    for (std::size_t k = 0; k < static_cast<std::size_t>(a.size()); ++k) {
      if (a.is_float())
        r.f[k] = op == "abs" ? std::fabs(a.f[k]) : -a.f[k];
      else if (a.dt != DType::Bool)
        r.set_int(
            k, op == "abs"
                   ? (a.i[k] < 0 ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a.i[k]))
                                 : a.i[k])
                   : static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a.i[k])));
    }
    return Result<NdArray>::success(std::move(r));
  }
  if (op == "isnan" || op == "isinf" || op == "isfinite") {
    NdArray r;
    r.dt = DType::Bool;
    r.dims = a.dims;
    r.jax = a.jax;
    r.i.resize(static_cast<std::size_t>(a.size()));
    for (std::size_t k = 0; k < r.i.size(); ++k) {
      const double v = a.is_float() ? a.f[k] : 0.0;  // an integer is finite
      r.i[k] = op == "isnan" ? std::isnan(v) : op == "isinf" ? std::isinf(v) : std::isfinite(v);
    }
    return Result<NdArray>::success(std::move(r));
  }
  if ((op == "square" || op == "sign") && !a.is_float()) {  // the int dtype kept, square wrapping
    NdArray r = a;
    r.weak = false;
    for (std::size_t k = 0; k < r.i.size(); ++k) {
      const std::int64_t v = a.i[k];
      r.set_int(k, op == "sign" ? (v > 0) - (v < 0)
                                : static_cast<std::int64_t>(static_cast<std::uint64_t>(v) *
                                                            static_cast<std::uint64_t>(v)));
    }
    return Result<NdArray>::success(std::move(r));
  }
  DType t = a.dt;
  if (!dtype_is_float(t)) t = a.jax ? jax_inexact(t) : DType::Float64;
  NdArray r = astype(a, t);
  r.weak = false;
  for (auto& x : r.f) {
    double v = x;
    if (op == "tanh")
      v = std::tanh(v);
    else if (op == "exp")
      v = std::exp(v);
    else if (op == "log")
      v = std::log(v);
    else if (op == "sqrt")
      v = std::sqrt(v);
    else if (op == "sin")
      v = std::sin(v);
    else if (op == "cos")
      v = std::cos(v);
    else if (op == "floor")
      v = std::floor(v);
    else if (op == "ceil")
      v = std::ceil(v);
    else if (op == "square")
      v = v * v;
    else if (op == "sign")  // NaN stays NaN, a zero of either sign is 0
      v = std::isnan(v) ? v : v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0;
    else if (op == "log2")
      v = std::log2(v);
    else if (op == "log10")
      v = std::log10(v);
    else if (op == "exp2")
      v = std::exp2(v);
    else
      return Result<NdArray>::failure("no function " + op);
    x = t == DType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
  }
  return Result<NdArray>::success(std::move(r));
}

namespace {

double pairwise_sum(const double* v, std::int64_t n, std::int64_t stride, bool f32) {
  auto r = [f32](double x) { return f32 ? static_cast<double>(static_cast<float>(x)) : x; };
  if (n < 8) {
    double res = 0;
    for (std::int64_t i = 0; i < n; ++i) res = r(res + v[i * stride]);
    return res;
  }
  if (n <= 128) {
    double p[8];
    for (int k = 0; k < 8; ++k) p[k] = v[k * stride];
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k) p[k] = r(p[k] + v[(i + k) * stride]);
    double res = r(r(r(p[0] + p[1]) + r(p[2] + p[3])) + r(r(p[4] + p[5]) + r(p[6] + p[7])));
    for (; i < n; ++i) res = r(res + v[i * stride]);
    return res;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return r(pairwise_sum(v, n2, stride, f32) + pairwise_sum(v + n2 * stride, n - n2, stride, f32));
}

}  // namespace

NdArray numpy_sum(const NdArray& a, int axis) {
  constexpr std::int64_t kBuffer = 8192;  // NumPy's default ufunc buffer size
  const bool f32 = a.dt == DType::Float32;
  NdArray r;
  r.dt = a.dt;
  r.jax = a.jax;
  std::vector<std::int64_t> dims = a.dims;
  if (axis < 0) dims = {a.size()};
  const std::size_t ax = axis < 0 ? 0 : static_cast<std::size_t>(axis);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (d < ax) outer *= dims[d];
    if (d > ax) inner *= dims[d];
  }
  const std::int64_t n = dims.empty() ? 1 : dims[ax];
  if (axis >= 0) {
    r.dims = a.dims;
    r.dims.erase(r.dims.begin() + axis);
  }
  r.f.assign(static_cast<std::size_t>(outer * inner), 0.0);
  auto rd = [f32](double x) { return f32 ? static_cast<double>(static_cast<float>(x)) : x; };
  for (std::int64_t o = 0; o < outer; ++o) {
    if (inner == 1) {  // the lane's elements are adjacent: pairwise, buffer by buffer
      const double* v = a.f.data() + o * n;
      double acc = 0;
      const std::int64_t step = kBuffer;
      for (std::int64_t s = 0; s < n; s += step)
        acc = rd(acc + pairwise_sum(v + s, std::min(step, n - s), 1, f32));
      r.f[static_cast<std::size_t>(o)] = acc;
      continue;
    }
    for (std::int64_t k = 0; k < n; ++k)  // across lanes: slice by slice, in order
      for (std::int64_t i = 0; i < inner; ++i) {
        double& acc = r.f[static_cast<std::size_t>(o * inner + i)];
        acc = rd(acc + a.f[static_cast<std::size_t>((o * n + k) * inner + i)]);
      }
  }
  return r;
}

std::string jax_matmul_ndim0(int operand) {
  return "matmul input operand " + std::to_string(operand) +
         " must have ndim at least 1, but it has ndim 0";
}
std::string jax_matmul_batch(const std::vector<std::int64_t>& a,
                             const std::vector<std::int64_t>& b) {
  return "Incompatible shapes for matmul arguments: " + shape_repr(a) + " and " + shape_repr(b);
}
std::string jax_contracting_mismatch(const std::vector<std::int64_t>& a,
                                     const std::vector<std::int64_t>& b) {
  return "dot_general requires contracting dimensions to have the same shape, got " +
         shape_repr(a) + " and " + shape_repr(b) + ".";
}

namespace {

// matmul's shapes: the core sizes (n, k, m), the broadcast batch shape, and each operand's
// batch strides in matrices (0 where it broadcasts); "" or NumPy's / JAX's refusal.
struct MatmulShape {
  std::int64_t n = 1, k = 1, m = 1;
  std::vector<std::int64_t> batch, a_stride, b_stride;
};

// NumPy's "(2,2,3)->(2,newaxis,newaxis)": an operand's shape with its core axes as newaxis.
std::string remapped(const std::vector<std::int64_t>& d, std::size_t core) {
  std::string to = "(";
  for (std::size_t i = 0; i < d.size(); ++i)
    to += (i ? "," : "") + (i + core < d.size() ? std::to_string(d[i]) : std::string("newaxis"));
  return numpy_shape(d) + "->" + to + ")";
}

std::string matmul_shape(const NdArray& a, const NdArray& b, bool jax, MatmulShape* s) {
  if (a.dims.empty() || b.dims.empty()) {
    const int which = a.dims.empty() ? 0 : 1;
    return jax ? jax_matmul_ndim0(which)
               : "matmul: Input operand " + std::to_string(which) +
                     " does not have enough dimensions (has 0, gufunc core with signature "
                     "(n?,k),(k,m?)->(n?,m?) requires 1)";
  }
  const std::size_t ra = a.dims.size(), rb = b.dims.size();
  const bool va = ra == 1, vb = rb == 1;
  s->n = va ? 1 : a.dims[ra - 2];
  s->k = a.dims.back();
  const std::int64_t kb = vb ? b.dims[0] : b.dims[rb - 2];
  s->m = vb ? 1 : b.dims.back();
  const std::vector<std::int64_t> ab(a.dims.begin(), a.dims.end() - (va ? 1 : 2)),
      bb(b.dims.begin(), b.dims.end() - (vb ? 1 : 2));
  // JAX checks the batch shapes first (jnp.matmul), then dot_general the contracting size;
  // NumPy's gufunc the core dimension first.
  std::string batch_error;
  const std::size_t nb = std::max(ab.size(), bb.size());
  s->batch.assign(nb, 1);
  for (std::size_t i = 0; i < nb; ++i) {
    const std::int64_t da = i + ab.size() >= nb ? ab[i + ab.size() - nb] : 1,
                       db = i + bb.size() >= nb ? bb[i + bb.size() - nb] : 1;
    if (da != db && da != 1 && db != 1 && batch_error.empty()) {
      std::vector<std::int64_t> core{s->n, s->m};
      if (va) core.erase(core.begin());
      if (vb) core.pop_back();
      std::string requested = "(";
      for (std::size_t c = 0; c < core.size(); ++c)
        requested += (c ? "," : "") + std::to_string(core[c]);
      batch_error = jax ? jax_matmul_batch(a.dims, b.dims)
                        : "operands could not be broadcast together with remapped shapes "
                          "[original->remapped]: " +
                              remapped(a.dims, va ? 1 : 2) + " " + remapped(b.dims, vb ? 1 : 2) +
                              "  and requested shape " + requested + ")";
    }
    s->batch[i] = std::max(da, db);
  }
  const std::string core_error =
      s->k == kb ? ""
      : jax      ? jax_contracting_mismatch({s->k}, {kb})
                 : "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                   "signature (n?,k),(k,m?)->(n?,m?) (size " +
                  std::to_string(kb) + " is different from " + std::to_string(s->k) + ")";
  const std::string& first = jax ? batch_error : core_error;
  const std::string& second = jax ? core_error : batch_error;
  if (!first.empty() || !second.empty()) return first.empty() ? second : first;
  // Strides in matrices over the broadcast batch shape (row-major), 0 where size 1 broadcasts.
  const auto strides = [&](const std::vector<std::int64_t>& d, std::vector<std::int64_t>* out) {
    out->assign(nb, 0);
    std::int64_t st = 1;
    for (std::size_t i = nb; i-- > 0;) {
      if (i + d.size() < nb) continue;
      const std::int64_t size = d[i + d.size() - nb];
      (*out)[i] = size == 1 ? 0 : st;
      st *= size;
    }
  };
  strides(ab, &s->a_stride);
  strides(bb, &s->b_stride);
  return "";
}

}  // namespace

double matmul_work(const NdArray& a, const NdArray& b) {
  MatmulShape s;
  if (!matmul_shape(a, b, a.jax || b.jax, &s).empty()) return 0;
  double w = static_cast<double>(s.n) * static_cast<double>(s.k) * static_cast<double>(s.m);
  for (auto d : s.batch) w *= static_cast<double>(d);
  return w;
}

Result<NdArray> matmul(const NdArray& a0, const NdArray& b0) {
  const bool jax = a0.jax || b0.jax;  // JAX's words (jnp.matmul, then lax.dot_general's rule)
  MatmulShape s;
  const std::string refused = matmul_shape(a0, b0, jax, &s);
  if (!refused.empty()) return Result<NdArray>::failure(refused);
  NdArray a = a0, b = b0;
  a.weak = b.weak = false;
  const DType t = result_type(a, b);
  const bool va = a.dims.size() == 1, vb = b.dims.size() == 1;
  std::vector<std::int64_t> od = s.batch;
  if (!va) od.push_back(s.n);
  if (!vb) od.push_back(s.m);
  auto made = NdArray::zeros(t, od, jax);
  if (!made) return made;
  NdArray r = std::move(made.value());
  const std::int64_t n = s.n, k = s.k, m = s.m;
  std::int64_t batches = 1;
  for (auto d : s.batch) batches *= d;
  std::vector<std::int64_t> idx(s.batch.size(), 0);
  for (std::int64_t q = 0; q < batches; ++q) {
    std::int64_t am = 0, bm = 0;  // the operands' matrices for this batch index
    for (std::size_t i = 0; i < idx.size(); ++i) {
      am += idx[i] * s.a_stride[i];
      bm += idx[i] * s.b_stride[i];
    }
    const std::size_t ao = static_cast<std::size_t>(am * n * k),
                      bo = static_cast<std::size_t>(bm * k * m),
                      ro = static_cast<std::size_t>(q * n * m);
    for (std::int64_t p = 0; p < n; ++p)
      for (std::int64_t j = 0; j < m; ++j) {
        const std::size_t out = ro + static_cast<std::size_t>(p * m + j);
        if (t == DType::Float32 && !a.jax) {
          // As the reference BLAS's sgemm/sgemv/sdot NumPy calls: each product and each add
          // rounded to float32, in order along the contraction.
          float sum = 0;
          for (std::int64_t c = 0; c < k; ++c)
            sum += static_cast<float>(a.at(ao + static_cast<std::size_t>(p * k + c))) *
                   static_cast<float>(b.at(bo + static_cast<std::size_t>(c * m + j)));
          r.set(out, sum);
        } else if (dtype_is_float(t)) {
          double sum = 0;
          for (std::int64_t c = 0; c < k; ++c)
            sum += a.at(ao + static_cast<std::size_t>(p * k + c)) *
                   b.at(bo + static_cast<std::size_t>(c * m + j));
          r.set(out, sum);
        } else {
          std::uint64_t sum = 0;
          for (std::int64_t c = 0; c < k; ++c)
            sum += static_cast<std::uint64_t>(a.iat(ao + static_cast<std::size_t>(p * k + c))) *
                   static_cast<std::uint64_t>(b.iat(bo + static_cast<std::size_t>(c * m + j)));
          r.set_int(out, static_cast<std::int64_t>(sum));
        }
      }
    for (std::size_t i = idx.size(); i-- > 0;) {  // the next batch index, row-major
      if (++idx[i] < s.batch[i]) break;
      idx[i] = 0;
    }
  }
  return Result<NdArray>::success(std::move(r));
}

NdArray sort_along(const NdArray& a, std::size_t axis) {
  NdArray r = a;
  r.weak = false;
  if (axis >= a.dims.size() || a.size() == 0) return r;
  const std::int64_t n = a.dims[axis];
  std::int64_t inner = 1;
  for (std::size_t d = axis + 1; d < a.dims.size(); ++d) inner *= a.dims[d];
  const std::int64_t outer = a.size() / (n * inner);
  std::vector<double> fl(static_cast<std::size_t>(n));
  std::vector<std::int64_t> il(static_cast<std::size_t>(n));
  const auto nan_last = [](double p, double q) { return std::isnan(q) ? !std::isnan(p) : p < q; };
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t in = 0; in < inner; ++in) {
      const std::int64_t base = o * n * inner + in;
      const auto at = [&](std::int64_t k) { return static_cast<std::size_t>(base + k * inner); };
      if (r.is_float()) {
        for (std::int64_t k = 0; k < n; ++k) fl[static_cast<std::size_t>(k)] = r.f[at(k)];
        std::sort(fl.begin(), fl.end(), nan_last);
        for (std::int64_t k = 0; k < n; ++k) r.f[at(k)] = fl[static_cast<std::size_t>(k)];
      } else {
        for (std::int64_t k = 0; k < n; ++k) il[static_cast<std::size_t>(k)] = r.i[at(k)];
        std::sort(il.begin(), il.end());
        for (std::int64_t k = 0; k < n; ++k) r.i[at(k)] = il[static_cast<std::size_t>(k)];
      }
    }
  return r;
}

NdArray round_to(const NdArray& a, std::int64_t decimals) {
  NdArray r = a;
  r.weak = false;
  if (r.dt == DType::Bool) return r;  // the caller refuses it (NumPy gives float16)
  // NumPy's PyArray_Round: x * 10**d, rint, / 10**d (for d < 0: x / 10**-d, rint, * 10**-d),
  // the factor a double made by repeated multiplication (inf past 1e308).
  double scale = 1;
  for (std::int64_t k = 0; k < (decimals < 0 ? -decimals : decimals) && !std::isinf(scale); ++k)
    scale *= 10;
  const bool up = decimals >= 0;
  if (!r.is_float()) {
    if (up) return r;
    // Integers: in float64, then cast back to the dtype as C casts (a value out of its range,
    // or NaN, is the dtype's minimum, as x86's conversion gives).
    const bool i32 = r.dt == DType::Int32;
    const double lo = i32 ? -2147483648.0 : -9223372036854775808.0;
    for (auto& v : r.i) {
      const double y = std::nearbyint(static_cast<double>(v) / scale) * scale;
      const bool in = y >= lo && y < -lo;
      v = !in ? static_cast<std::int64_t>(lo) : static_cast<std::int64_t>(y);
    }
    return r;
  }
  // float32: each step's result stored as float32; the factor is float32 when it fits
  // (NumPy's value-based casting of the Python float), else the steps run in float64.
  const bool f32 = r.dt == DType::Float32;
  const double s = f32 && scale <= 3.4028234663852886e38
                       ? static_cast<double>(static_cast<float>(scale))
                       : scale;
  const auto store = [&](double y) { return f32 ? static_cast<double>(static_cast<float>(y)) : y; };
  for (auto& v : r.f) {
    const double t = store(up ? v * s : v / s);
    v = store(up ? std::nearbyint(t) / s : std::nearbyint(t) * s);
  }
  return r;
}

Result<NdArray> reshape(const NdArray& a, std::vector<std::int64_t> dims) {
  if (auto e = too_many_dims(dims.size()); !e.empty()) return Result<NdArray>::failure(e);
  std::int64_t known = 1;
  int unknown = -1;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] == -1) {
      if (unknown >= 0) return Result<NdArray>::failure("can only specify one unknown dimension");
      unknown = static_cast<int>(k);
    } else if (dims[k] < 0) {
      return Result<NdArray>::failure("negative dimensions not allowed");
    } else {
      // Checked: reshape(2, 2**63 - 1) overflowed int64 (found by scripts/fuzz notebook).
      if (__builtin_mul_overflow(known, dims[k], &known) || known > kMaxArrayElements) {
        known = kMaxArrayElements + 1;
        break;
      }
    }
  }
  if (unknown >= 0 && known > 0 && a.size() % known == 0)
    dims[static_cast<std::size_t>(unknown)] = a.size() / known;
  std::int64_t total = 1;
  for (auto d : dims)
    if (__builtin_mul_overflow(total, d < 0 ? 1 : d, &total)) {
      total = -1;  // no array has that many elements: the size differs, said below
      break;
    }
  if (total != a.size() || (unknown >= 0 && known == 0)) {
    std::string s;  // NumPy writes the shape without spaces: (4,2)
    for (std::size_t k = 0; k < dims.size(); ++k) s += (k ? "," : "") + std::to_string(dims[k]);
    if (dims.size() == 1) s += ",";
    if (a.jax)
      return Result<NdArray>::failure("cannot reshape array of shape " + shape_repr(a.dims) +
                                      " (size " + std::to_string(a.size()) + ") into shape " +
                                      shape_repr(dims));
    return Result<NdArray>::failure("cannot reshape array of size " + std::to_string(a.size()) +
                                    " into shape (" + s + ")");
  }
  NdArray r = a;
  r.dims = std::move(dims);
  return Result<NdArray>::success(std::move(r));
}

// ---- printing --------------------------------------------------------------------------------

namespace {

// A value's positional digits as NumPy's dragon4 (unique, precision 8, trim '.'): "26.66666667",
// "1.", "0.001".
std::string positional(double v, bool f32) {
  int point = 0;
  std::string d =
      f32 ? shortest_digits_f32(static_cast<float>(v), &point) : shortest_digits(v, &point);
  const double av = std::fabs(v);
  std::string s;
  if (av == 0) {
    s = "0.";
  } else {
    const int frac = static_cast<int>(d.size()) - point;
    if (frac > 8) {
      char buf[512];
      std::snprintf(buf, sizeof buf, "%.8f", av);
      s = buf;
      while (!s.empty() && s.back() == '0') s.pop_back();
    } else if (point <= 0) {
      s = "0." + std::string(static_cast<std::size_t>(-point), '0') + d;
    } else if (static_cast<std::size_t>(point) >= d.size()) {
      s = d + std::string(static_cast<std::size_t>(point) - d.size(), '0') + ".";
    } else {
      s = d.substr(0, static_cast<std::size_t>(point)) + "." +
          d.substr(static_cast<std::size_t>(point));
    }
  }
  return (std::signbit(v) ? "-" : "") + s;
}

// Scientific digits (unique, precision 8, trim '.'): mantissa "1.5" / "1.", exponent -5.
void scientific(double v, bool f32, std::string* mant, int* exp) {
  int point = 0;
  std::string d =
      f32 ? shortest_digits_f32(static_cast<float>(v), &point) : shortest_digits(v, &point);
  if (v == 0) {
    d = "0";
    point = 1;
  }
  if (d.size() > 9) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.8e", std::fabs(v));
    std::string s = buf;
    const auto e = s.find('e');
    d.clear();
    for (std::size_t k = 0; k < e; ++k)
      if (s[k] != '.') d += s[k];
    while (d.size() > 1 && d.back() == '0') d.pop_back();
    point = std::atoi(s.c_str() + e + 1) + 1;
  }
  *mant = (std::signbit(v) ? "-" : "") + d.substr(0, 1) + "." + d.substr(1);
  *exp = point - 1;
}

struct Formatter {
  bool fl = false, f32 = false, exp_mode = false;
  std::size_t pad_left = 0, pad_right = 0, exp_digits = 2, width = 0;
  const NdArray* a = nullptr;

  void init(const NdArray& arr) {
    a = &arr;
    fl = arr.is_float();
    f32 = arr.dt == DType::Float32;
    const std::size_t n = static_cast<std::size_t>(arr.size());
    if (!fl) {
      // NumPy's BoolFormat: " True" as wide as "False" in any array but a 0-d one.
      if (arr.dt == DType::Bool && !arr.dims.empty() && n > 0) width = 5;
      for (std::size_t k = 0; k < n; ++k) width = std::max(width, raw(k).size());
      return;
    }
    double mx = 0, mn = std::numeric_limits<double>::infinity();
    bool any = false;
    for (double v : arr.f)
      if (std::isfinite(v)) {
        any = true;
        const double av = std::fabs(v);
        mx = std::max(mx, av);
        if (av != 0) mn = std::min(mn, av);
      }
    if (any && mn != std::numeric_limits<double>::infinity())
      exp_mode = mx >= 1e8 || mn < 0.0001 || mx / mn > 1000;
    bool neg_nonfinite = false;
    for (double v : arr.f) {
      if (!std::isfinite(v)) {
        if (std::signbit(v) && !std::isnan(v)) neg_nonfinite = true;
        continue;
      }
      if (exp_mode) {
        std::string m;
        int e = 0;
        scientific(v, f32, &m, &e);
        const auto dot = m.find('.');
        pad_left = std::max(pad_left, dot);
        pad_right = std::max(pad_right, m.size() - dot - 1);
        exp_digits = std::max(exp_digits, std::to_string(e < 0 ? -e : e).size());
      } else {
        const std::string s = positional(v, f32);
        const auto dot = s.find('.');
        pad_left = std::max(pad_left, dot);
        pad_right = std::max(pad_right, s.size() - dot - 1);
      }
    }
    if (!any) pad_left = 0;
    // nan/inf fit the field
    std::size_t field = pad_left + pad_right + 1 + (exp_mode ? exp_digits + 2 : 0);
    for (double v : arr.f)
      if (!std::isfinite(v)) {
        const std::size_t w = std::isnan(v) ? 3 : (std::signbit(v) ? 4 : 3);
        if (w > field) {
          pad_left += w - field;
          field = w;
        }
      }
    (void)neg_nonfinite;
  }
  std::string raw(std::size_t k) const {
    if (a->dt == DType::Bool) return a->i[k] ? "True" : "False";
    return std::to_string(a->i[k]);
  }
  std::string operator()(std::size_t k) const {
    if (!fl) {
      std::string s = raw(k);
      return std::string(width - s.size(), ' ') + s;
    }
    const double v = a->f[k];
    const std::size_t field = pad_left + pad_right + 1 + (exp_mode ? exp_digits + 2 : 0);
    if (!std::isfinite(v)) {
      std::string s = std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
      return std::string(field > s.size() ? field - s.size() : 0, ' ') + s;
    }
    std::string s;
    if (exp_mode) {
      std::string m;
      int e = 0;
      scientific(v, f32, &m, &e);
      const auto dot = m.find('.');
      std::string es = std::to_string(e < 0 ? -e : e);
      es = std::string(exp_digits - es.size(), '0') + es;
      s = std::string(pad_left - dot, ' ') + m;
      const std::size_t fr = m.size() - dot - 1;
      s += std::string(pad_right - fr, '0');
      s += std::string("e") + (e < 0 ? "-" : "+") + es;
    } else {
      const std::string p = positional(v, f32);
      const auto dot = p.find('.');
      s = std::string(pad_left - dot, ' ') + p + std::string(pad_right - (p.size() - dot - 1), ' ');
    }
    return s;
  }
};

constexpr std::size_t kEdgeItems = 3;             // NumPy's edgeitems
constexpr std::int64_t kSummaryThreshold = 1000;  // NumPy's threshold: larger arrays are summarized

// NumPy's _formatArray (non-legacy): rows wrap when the line would pass the width, the hanging
// indent is the prefix's width plus one per level, each level's width one less for its ']'; a
// summarized array shows 3 items at each end of a long axis with "..." between.
std::string format_rec(const NdArray& a, const Formatter& fmt, std::size_t axis, std::size_t offset,
                       const std::string& sep, const std::string& hanging, std::size_t width,
                       bool summarize) {
  const std::size_t rank = a.dims.size();
  std::size_t stride = 1;
  for (std::size_t d = axis + 1; d < rank; ++d) stride *= static_cast<std::size_t>(a.dims[d]);
  const std::size_t n = static_cast<std::size_t>(a.dims[axis]);
  const bool summary = summarize && 2 * kEdgeItems < n;
  const std::size_t leading = summary ? kEdgeItems : 0, trailing = summary ? kEdgeItems : n;
  const std::string next_hanging = hanging + " ";
  const std::size_t next_width = width - 1;
  std::string sep_trim = sep.substr(0, sep.find_last_not_of(' ') + 1);
  std::string s;
  if (axis + 1 == rank) {
    const std::size_t elem_width = width - std::max<std::size_t>(sep_trim.size(), 1);
    std::string line = hanging;
    auto extend = [&](const std::string& word) {
      if (line.size() + word.size() > elem_width && line.size() > hanging.size()) {
        const auto e = line.find_last_not_of(' ');
        s += line.substr(0, e == std::string::npos ? 0 : e + 1) + "\n";
        line = hanging;
      }
      line += word;
    };
    for (std::size_t k = 0; k < leading; ++k) {
      extend(fmt(offset + k));
      line += sep;
    }
    if (summary) {
      extend("...");
      line += sep;
    }
    for (std::size_t k = n - trailing; k < n; ++k) {
      extend(fmt(offset + k));
      if (k + 1 < n) line += sep;
    }
    s += line;
  } else {
    const std::string line_sep = sep_trim + std::string(rank - axis - 1, '\n');
    for (std::size_t k = 0; k < leading; ++k)
      s += hanging +
           format_rec(a, fmt, axis + 1, offset + k * stride, sep, next_hanging, next_width,
                      summarize) +
           line_sep;
    if (summary) s += hanging + "..." + line_sep;
    for (std::size_t k = n - trailing; k < n; ++k) {
      s += hanging + format_rec(a, fmt, axis + 1, offset + k * stride, sep, next_hanging,
                                next_width, summarize);
      if (k + 1 < n) s += line_sep;
    }
  }
  return "[" + s.substr(hanging.size()) + "]";
}

// The elements a summarized array shows (NumPy's _leading_trailing), in order.
void shown_indices(const NdArray& a, std::size_t axis, std::size_t offset,
                   std::vector<std::size_t>* out) {
  if (axis == a.dims.size()) {
    out->push_back(offset);
    return;
  }
  std::size_t stride = 1;
  for (std::size_t d = axis + 1; d < a.dims.size(); ++d)
    stride *= static_cast<std::size_t>(a.dims[d]);
  const std::size_t n = static_cast<std::size_t>(a.dims[axis]);
  for (std::size_t k = 0; k < n; ++k) {
    if (2 * kEdgeItems < n && k == kEdgeItems) k = n - kEdgeItems;
    shown_indices(a, axis + 1, offset + k * stride, out);
  }
}

std::string format_array(const NdArray& a, const std::string& sep, const std::string& indent) {
  Formatter fmt;
  const bool summarize = a.size() > kSummaryThreshold;
  NdArray shown;
  if (summarize) {
    std::vector<std::size_t> idx;
    shown_indices(a, 0, 0, &idx);
    shown.dt = a.dt;
    shown.dims = {static_cast<std::int64_t>(idx.size())};
    for (auto k : idx) {
      if (a.is_float())
        shown.f.push_back(a.f[k]);
      else
        shown.i.push_back(a.i[k]);
    }
    fmt.init(shown);
    fmt.a = &a;
  } else {
    fmt.init(a);
  }
  if (a.dims.empty()) return fmt(0);
  for (auto d : a.dims)
    if (d == 0) return "[]";
  return format_rec(a, fmt, 0, 0, sep, indent + " ", 75, summarize);
}

}  // namespace

std::string element_repr(const NdArray& a, std::size_t k) {
  if (a.dt == DType::Bool) return a.i[k] ? "True" : "False";
  if (!a.is_float()) return std::to_string(a.i[k]);
  return a.dt == DType::Float32 ? float32_repr(static_cast<float>(a.f[k])) : float_repr(a.f[k]);
}

std::string scalar_str(double v, DType t) {
  if (t == DType::Bool) return v != 0 ? "True" : "False";
  NdArray a;
  a.dt = t;
  a.dims = {1};
  if (dtype_is_float(t))
    a.f = {v};
  else
    a.i = {static_cast<std::int64_t>(v)};
  std::string s = format_array(a, " ", "");
  return s.substr(1, s.size() - 2);
}

std::string array_str(const NdArray& a) {
  if (a.dims.empty()) return element_repr(a, 0);
  return format_array(a, " ", "");
}

std::string array_repr(const NdArray& a) {
  const std::string prefix = a.jax ? "Array(" : "array(";
  bool show_dtype = a.jax
                        ? !(a.dt == DType::Float32 || a.dt == DType::Int32 || a.dt == DType::Bool)
                        : !(a.dt == DType::Float64 || a.dt == DType::Int64 || a.dt == DType::Bool);
  if (a.jax) show_dtype = true;
  std::string body;
  if (a.dims.empty()) {  // array2string of one value: precision 8 for floats (array(0.72850719))
    body = a.is_float() ? format_array(a, ", ", "") : element_repr(a, 0);
  } else {
    bool empty = false;
    for (auto d : a.dims) empty = empty || d == 0;
    body = empty ? "[]" : format_array(a, ", ", std::string(prefix.size(), ' '));
    if (empty && !a.jax) {
      show_dtype = true;
      if (a.dims != std::vector<std::int64_t>{0}) body += ", shape=" + shape_repr(a.dims);
    }
    // JAX's Array.__repr__ writes an empty array's shape whatever its rank.
    if (empty && a.jax) body += ", shape=" + shape_repr(a.dims);
  }
  if (!show_dtype) return prefix + body + ")";
  // The dtype goes on a line of its own when it would take the last line past the width:
  // NumPy's _array_repr_implementation measures prefix, body and ','; JAX's Array.__repr__
  // measures the body alone plus 2 (its len(s) - s.rfind('\n') + 1) and pads with spaces, not
  // a new line.
  const std::string dt = "dtype=" + dtype_name(a.dt) + ")";
  constexpr std::size_t kWidth = 75;
  if (a.jax) {
    const auto nl = body.rfind('\n');
    const std::size_t last = nl == std::string::npos ? body.size() + 2 : body.size() - nl + 1;
    return prefix + body + "," +
           (last + dt.size() + 1 > kWidth ? std::string(prefix.size(), ' ') : " ") + dt;
  }
  const std::string s = prefix + body + ",";
  const auto nl = s.rfind('\n');
  const std::size_t last = s.size() - (nl == std::string::npos ? 0 : nl + 1);
  return s + (last + dt.size() + 1 > kWidth ? "\n" + std::string(prefix.size(), ' ') : " ") + dt;
}

}  // namespace rl::python
