// Host arrays for the notebook (python/notebook.h): NumPy's ndarray and JAX's jax.Array as values
// on the host. dtypes bool, int32, int64, float32, float64; NumPy's promotion (with 1.24's
// value-based casting of Python scalars: `f32_array * 0.5` stays float32, `int_array / 2` is
// float64) or JAX's (`jax`: 64-bit types canonicalized to 32 bits, Python scalars weakly typed);
// broadcasting; elementwise arithmetic and comparisons with NumPy's integer floor division and
// modulo signs; `@`; printing as NumPy prints (str `[1.  2.5]`, repr `array([1. , 2.5])`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace rl::python {

enum class DType { Bool, Int32, Int64, Float32, Float64 };

// JAX's jax_enable_x64 for the run (python/tracer.h's set_enable_x64 sets it): whether JAX
// arrays keep 64-bit types.
void set_jax_x64(bool on);
bool jax_x64();
// A JAX dtype canonicalized (64-bit types to 32 bits unless x64 is on).
DType jax_canonical(DType t);
// jnp's to_inexact_dtype: floats stay, ints and bools of up to 32 bits become float32, 64-bit ints
// float64 (canonicalized).
DType jax_inexact(DType t);

std::string dtype_name(DType t);  // "float64"
bool dtype_is_float(DType t);
int dtype_kind(DType t);  // 0 bool, 1 int, 2 float

constexpr std::int64_t kMaxArrayElements = std::int64_t(1) << 26;  // one array's elements
constexpr int kMaxDims = 32;                                       // NumPy's NPY_MAXDIMS
// NumPy's refusal of an array of `rank` dimensions past kMaxDims ("" when it fits).
std::string too_many_dims(std::size_t rank);

struct NdArray {
  DType dt = DType::Float64;
  std::vector<std::int64_t> dims;
  std::vector<double> f;        // float dtypes: the values (float32 ones already rounded)
  std::vector<std::int64_t> i;  // bool and int dtypes
  bool jax = false;             // a jax.Array (JAX's promotion, printed as Array(...))
  bool weak = false;            // a Python scalar taking part in an array operation

  std::int64_t size() const;
  bool is_float() const { return dtype_is_float(dt); }
  double at(std::size_t k) const { return is_float() ? f[k] : static_cast<double>(i[k]); }
  std::int64_t iat(std::size_t k) const {
    return is_float() ? static_cast<std::int64_t>(f[k]) : i[k];
  }
  // Allocates zeros of dtype t with these dims.
  static Result<NdArray> zeros(DType t, std::vector<std::int64_t> dims, bool jax);
  void set(std::size_t k, double v);  // stores v as dtype (float32 rounding, int truncation)
  void set_int(std::size_t k, std::int64_t v);
};

// A Python scalar (bool/int/float) as a weak 0-d array for an operation.
NdArray scalar_array(double v, int kind, bool jax);
NdArray scalar_array_int(std::int64_t v, bool is_bool, bool jax);

// The result dtype of an operation on a and b (NumPy's or JAX's rule).
DType result_type(const NdArray& a, const NdArray& b);
// JAX's refusal of a weakly typed Python int that does not fit int32 t ("" when none).
std::string jax_int_overflow(const NdArray& a, const NdArray& b, DType t);
// Converts to dtype t (NumPy's astype: floats to ints truncate).
NdArray astype(const NdArray& a, DType t);

// "+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!=", "minimum", "maximum",
// "&", "|", "^". Broadcasting as NumPy; errors with NumPy's messages.
Result<NdArray> binary(const std::string& op, const NdArray& a, const NdArray& b);
// "tanh", "exp", "log", "sqrt", "abs", "negative", "sin", "cos", "floor", "ceil", "square",
// "sign", "log2", "log10", "exp2" (ints become floats, but square and sign keep the dtype), and
// "isnan", "isinf", "isfinite" (bool).
Result<NdArray> unary(const std::string& op, const NdArray& a);
// NumPy's matmul (`@`): 1-d operands promoted and their axis removed after, batch dimensions
// broadcast; a JAX operand (jax) refuses in jnp.matmul's and lax.dot_general's words.
Result<NdArray> matmul(const NdArray& a, const NdArray& b);
// The multiply-adds matmul(a, b) does (0 where the shapes do not fit): what it is charged.
double matmul_work(const NdArray& a, const NdArray& b);
// jnp.matmul's and lax.dot_general's words (jax/_src/numpy/tensor_contractions.py, lax.py), for
// the eager arrays here and the tracer alike.
std::string jax_matmul_ndim0(int operand);
std::string jax_matmul_batch(const std::vector<std::int64_t>& a,
                             const std::vector<std::int64_t>& b);
std::string jax_contracting_mismatch(const std::vector<std::int64_t>& a,
                                     const std::vector<std::int64_t>& b);
Result<NdArray> reshape(const NdArray& a, std::vector<std::int64_t> dims);
// NumPy's add.reduce of a float array (float32 or float64, each add rounded to it), in NumPy's
// order for a C-contiguous array: from 0, pairwise (numpy's pairwise_sum: in order below 8
// elements, 8 interleaved partial sums up to 128, halves at a multiple of 8 past it) along a lane
// whose elements are adjacent (the whole array when `axis` < 0, or the last axis), in pieces of
// 8192 (NumPy's reduction buffer), each piece pairwise and added to the running sum; in order
// across lanes otherwise. The result drops `axis` (0-d when < 0). (A NumPy view in another
// memory order, such as a transpose, is added in its own order by NumPy; here in C order.)
NdArray numpy_sum(const NdArray& a, int axis);
// np.sort along `axis` (already in range): each lane ascending, NaNs last, as NumPy's.
NdArray sort_along(const NdArray& a, std::size_t axis);
// np.round(a, decimals): half to even, as NumPy's (x * 10**d, rint, / 10**d; in float32 for a
// float32 array; integers unchanged for d >= 0, rounded to a multiple of 10**-d for d < 0).
NdArray round_to(const NdArray& a, std::int64_t decimals);
std::string shape_repr(const std::vector<std::int64_t>& dims);  // "(32, 16)", "(5,)"
// A shape as NumPy's messages write it, without spaces: "(2,3)", "(4,)".
std::string numpy_shape(const std::vector<std::int64_t>& dims);
// "" when the arrays' shapes broadcast together, else NumPy's refusal naming each shape
// ("operands could not be broadcast together with shapes (2,3) (4,) ") or JAX's.
std::string broadcast_refusal(const std::vector<const NdArray*>& arrays);
// The shape the arrays broadcast to (call broadcast_refusal first), and `a` broadcast to `out`
// (a copy; values as they are, NaN and infinities included).
std::vector<std::int64_t> broadcast_shape(const std::vector<const NdArray*>& arrays);
NdArray broadcast_to(const NdArray& a, const std::vector<std::int64_t>& out);

// NumPy's printing (default print options: precision 8, linewidth 75, maxprec floatmode).
std::string array_str(const NdArray& a);
std::string array_repr(const NdArray& a);
// A 0-d value as array2string prints it (NumPy's messages: "1.", "0.5", "1").
std::string scalar_str(double v, DType t);
// One element as NumPy's scalar repr prints it (np.float32(0.1) → "0.1").
std::string element_repr(const NdArray& a, std::size_t k);

}  // namespace rl::python
