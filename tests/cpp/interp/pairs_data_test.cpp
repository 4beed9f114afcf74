// Every (op, element type) pair of the interpreter's ops that are not elementwise, generated from
// the op table (ops.inc): data movement (broadcasts, reshape, transpose, reverse, slices, dynamic
// slices, pad, concatenate, iota, gathers, get_dimension_size), the ops with regions (reduce with
// an add and a max body, reduce_window, select_and_scatter, scatter, sort, map, chlo.top_k),
// dot_general, dot and convolution, and the structural ops that carry values of any type
// (constant, tuple, get_tuple_element, optimization_barrier, while, case, if, call, composite).
// Each runs as a small one-op program on each of the 15 element types of pairs_test.cpp, on
// inputs whose elements differ from one another, and its result is compared exactly with the
// answer computed here on its own: for data movement, the input element each output index maps
// to; for the others, the fold, product or order written out below with the type's arithmetic
// (integers wrapped to their width, i1's add as or and multiply as and). The inputs are small
// numbers every type holds exactly, so floating-point answers are exact too.
//
// Which ops: every op StableHLO (or CHLO) spells whose cost family is neither Elementwise nor
// Transcendental and whose verify rule is not Elementwise (pairs_test.cpp and elementwise_test.cpp
// have those), and which the interpreter registers. Each has cases below or is left out in
// left_out() with the reason: a new op of these families fails here until it has one. A pair the
// dialect refuses (StableHLO's iota of i1: its result is HLO_StaticShapeIntFpOrComplexTensor in
// StablehloOps.td) must be refused by the verifier, naming the rule; a pair it allows must run, but
// for the interpreter's gaps, listed in known_gap() with their reason.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "hlo/ops.h"
#include "interp/interp_util.h"
#include "interp/kernel.h"

using namespace rl;

namespace {

using C = std::complex<double>;
using Dims = std::vector<int>;
using Vals = std::vector<C>;
enum class Kind { Pred, Signed, Unsigned, Float, Complex };

struct ElemType {
  const char* mlir;  // "i8", "complex<f32>"
  Kind kind;
  int bits;  // integers: the width (0 for the others)
};

const std::vector<ElemType>& elem_types() {
  static const std::vector<ElemType> t = {
      {"i1", Kind::Pred, 1},
      {"i8", Kind::Signed, 8},
      {"i16", Kind::Signed, 16},
      {"i32", Kind::Signed, 32},
      {"i64", Kind::Signed, 64},
      {"ui8", Kind::Unsigned, 8},
      {"ui16", Kind::Unsigned, 16},
      {"ui32", Kind::Unsigned, 32},
      {"ui64", Kind::Unsigned, 64},
      {"f16", Kind::Float, 0},
      {"bf16", Kind::Float, 0},
      {"f32", Kind::Float, 0},
      {"f64", Kind::Float, 0},
      {"complex<f32>", Kind::Complex, 0},
      {"complex<f64>", Kind::Complex, 0},
  };
  return t;
}

bool is_int(const ElemType& t) { return t.kind == Kind::Signed || t.kind == Kind::Unsigned; }

// ---- the type's arithmetic on small values ---------------------------------------------------

// An integer wrapped to the type's width (the values here stay far inside int64).
C wrap(const ElemType& t, C v) {
  if (t.kind == Kind::Pred) return C(v != C(0) ? 1 : 0);
  if (!is_int(t) || t.bits == 64) return v;
  const std::int64_t x = static_cast<std::int64_t>(v.real());
  const std::uint64_t mask = (std::uint64_t(1) << t.bits) - 1;
  std::uint64_t u = static_cast<std::uint64_t>(x) & mask;
  if (t.kind == Kind::Signed && (u >> (t.bits - 1)))
    return C(static_cast<double>(static_cast<std::int64_t>(u | ~mask)));
  return C(static_cast<double>(u));
}
// add and multiply as StableHLO defines them on the type: or and and on i1.
C add(const ElemType& t, C a, C b) {
  if (t.kind == Kind::Pred) return C(a != C(0) || b != C(0) ? 1 : 0);
  return wrap(t, a + b);
}
C mul(const ElemType& t, C a, C b) {
  if (t.kind == Kind::Pred) return C(a != C(0) && b != C(0) ? 1 : 0);
  return wrap(t, a * b);
}
// maximum: complex numbers by (real, imaginary), lexicographically (the spec's order for them).
C maximum(C a, C b) {
  const bool less = a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  return less ? b : a;
}

// Element k of an input: small numbers that differ from their neighbours, exact in every type;
// signed integers alternate in sign, unsigned ones are above 127 (the high bit of ui8 set), floats
// are halves, complex numbers have an imaginary part of their own.
C value(const ElemType& t, int k) {
  switch (t.kind) {
    case Kind::Pred:
      return C(k % 3 == 0 || k % 5 == 1 ? 1 : 0);
    case Kind::Signed:
      return C(k % 2 ? -(k + 1) : k + 1);
    case Kind::Unsigned:
      return C(200 - 3 * k);
    case Kind::Float:
      return C((k % 2 ? -0.5 : 0.5) * (k + 1));
    case Kind::Complex:
      return C((k % 2 ? -0.5 : 0.5) * (k + 1), 0.25 * (k + 2) * (k % 3 == 1 ? -1 : 1));
  }
  return C(0);
}
Vals values(const ElemType& t, int n, int first = 0) {
  Vals v;
  for (int k = 0; k < n; ++k) v.push_back(value(t, first + k));
  return v;
}

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", x);
  std::string s = b;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}
std::string lit(const ElemType& t, C v) {
  switch (t.kind) {
    case Kind::Pred:
      return v != C(0) ? "true" : "false";
    case Kind::Signed:
    case Kind::Unsigned:
      return std::to_string(static_cast<std::int64_t>(v.real()));
    case Kind::Float:
      return num(v.real());
    case Kind::Complex:
      return "(" + num(v.real()) + ", " + num(v.imag()) + ")";
  }
  return "";
}

std::string ty(const std::string& e, const Dims& dims) {
  std::string s = "tensor<";
  for (int d : dims) s += std::to_string(d) + "x";
  return s + e + ">";
}
std::string ty(const ElemType& t, const Dims& dims) { return ty(t.mlir, dims); }

// A dense literal of `vals` (row-major) in nested brackets.
std::string dense_body(const ElemType& t, const Dims& dims, const Vals& vals, std::size_t d,
                       std::size_t* at) {
  if (d == dims.size()) return lit(t, vals.at((*at)++));
  std::string s = "[";
  for (int i = 0; i < dims[d]; ++i) s += (i ? ", " : "") + dense_body(t, dims, vals, d + 1, at);
  return s + "]";
}
// `  %name = stablehlo.constant dense<...> : tensor<...>`
std::string constant(const std::string& name, const ElemType& t, const Dims& dims,
                     const Vals& vals) {
  std::size_t at = 0;
  return "  %" + name + " = stablehlo.constant dense<" + dense_body(t, dims, vals, 0, &at) +
         "> : " + ty(t, dims) + "\n";
}
std::string i32_constant(const std::string& name, const std::string& dense, const Dims& dims) {
  return "  %" + name + " = stablehlo.constant dense<" + dense + "> : " + ty("i32", dims) + "\n";
}

// The row-major offset of `idx` in `dims`.
int offset(const Dims& dims, const Dims& idx) {
  int o = 0;
  for (std::size_t d = 0; d < dims.size(); ++d) o = o * dims[d] + idx[d];
  return o;
}
// Every index of `dims`, row-major.
std::vector<Dims> indices(const Dims& dims) {
  int n = 1;
  for (int d : dims) n *= d;
  std::vector<Dims> out;
  for (int k = 0; k < n; ++k) {
    Dims idx(dims.size());
    int r = k;
    for (std::size_t d = dims.size(); d-- > 0;) idx[d] = r % dims[d], r /= dims[d];
    out.push_back(idx);
  }
  return out;
}

// A body `^bb0(%a, %b)` of 0-d tensors of `e` returning `op(%a, %b)`.
std::string body2(const std::string& e, const std::string& op) {
  const std::string s = ty(e, {});
  return "  ^bb0(%a: " + s + ", %b: " + s + "):\n    %r = " + op + " %a, %b : " + s +
         "\n    stablehlo.return %r : " + s + "\n";
}
// A comparator `^bb0(%a, %b)` giving a DIR b: for complex numbers, of their real parts.
std::string comparator(const ElemType& t, const std::string& dir) {
  const std::string s = ty(t, {});
  std::string lines = "  ^bb0(%a: " + s + ", %b: " + s + "):\n";
  std::string a = "%a", b = "%b",
              ct = t.kind == Kind::Pred       ? "UNSIGNED"
                   : t.kind == Kind::Signed   ? "SIGNED"
                   : t.kind == Kind::Unsigned ? "UNSIGNED"
                                              : "FLOAT";
  std::string cs = s;
  if (t.kind == Kind::Complex) {
    cs = ty(std::string(t.mlir) == "complex<f32>" ? "f32" : "f64", {});
    lines += "    %ra = stablehlo.real %a : (" + s + ") -> " + cs + "\n";
    lines += "    %rb = stablehlo.real %b : (" + s + ") -> " + cs + "\n";
    a = "%ra", b = "%rb";
  }
  lines += "    %c = stablehlo.compare " + dir + ", " + a + ", " + b + ", " + ct + " : (" + cs +
           ", " + cs + ") -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n";
  return lines;
}
// The comparators' order: complex numbers by their real parts.
bool less(C a, C b) { return a.real() < b.real(); }

// ---- the cases ------------------------------------------------------------------------------

struct Built {
  std::string text;        // the module
  std::vector<Vals> want;  // each result's elements, row-major
  std::string refused;     // non-empty: the verifier refuses, with this in its message
};
using Builder = std::function<Built(const ElemType&)>;
struct OpCase {
  std::string op;    // "stablehlo.pad"
  std::string what;  // what the case does, for the failure message
  Builder build;
};

// A one-function module: main returns `result` (one type, or "(T1, T2)").
Built one(const std::string& result, const std::string& body, std::vector<Vals> want) {
  return {rl::testing::main_of(result, body), std::move(want), ""};
}

std::vector<OpCase> cases() {
  std::vector<OpCase> c;
  // ---- data movement: the output element at each index is the input element it maps to
  c.push_back({"stablehlo.broadcast_in_dim", "3 -> 2x3 along dimension 1", [](const ElemType& t) {
                 const Vals x = values(t, 3);
                 Vals want;
                 for (const Dims& i : indices({2, 3})) want.push_back(x[i[1]]);
                 return one(ty(t, {2, 3}),
                            constant("x", t, {3}, x) +
                                "  %r = stablehlo.broadcast_in_dim %x, dims = [1] : (" +
                                ty(t, {3}) + ") -> " + ty(t, {2, 3}) +
                                "\n  return %r : " + ty(t, {2, 3}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.broadcast", "3 -> 2x3, a new major dimension", [](const ElemType& t) {
                 const Vals x = values(t, 3);
                 Vals want;
                 for (const Dims& i : indices({2, 3})) want.push_back(x[i[1]]);
                 return one(ty(t, {2, 3}),
                            constant("x", t, {3}, x) +
                                "  %r = \"stablehlo.broadcast\"(%x) {broadcast_sizes = array<i64: "
                                "2>} : (" +
                                ty(t, {3}) + ") -> " + ty(t, {2, 3}) +
                                "\n  return %r : " + ty(t, {2, 3}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.reshape", "2x3 -> 3x2, the same row-major order", [](const ElemType& t) {
                 const Vals x = values(t, 6);
                 return one(ty(t, {3, 2}),
                            constant("x", t, {2, 3}, x) + "  %r = stablehlo.reshape %x : (" +
                                ty(t, {2, 3}) + ") -> " + ty(t, {3, 2}) +
                                "\n  return %r : " + ty(t, {3, 2}) + "\n",
                            {x});
               }});
  c.push_back({"stablehlo.transpose", "2x3x2 by [2, 0, 1]", [](const ElemType& t) {
                 const Vals x = values(t, 12);
                 Vals want;  // result[a][b][c] = x[b][c][a]
                 for (const Dims& i : indices({2, 2, 3}))
                   want.push_back(x[offset({2, 3, 2}, {i[1], i[2], i[0]})]);
                 return one(ty(t, {2, 2, 3}),
                            constant("x", t, {2, 3, 2}, x) +
                                "  %r = stablehlo.transpose %x, dims = [2, 0, 1] : (" +
                                ty(t, {2, 3, 2}) + ") -> " + ty(t, {2, 2, 3}) +
                                "\n  return %r : " + ty(t, {2, 2, 3}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.reverse", "2x3 along dimension 1", [](const ElemType& t) {
                 const Vals x = values(t, 6);
                 Vals want;
                 for (const Dims& i : indices({2, 3}))
                   want.push_back(x[offset({2, 3}, {i[0], 2 - i[1]})]);
                 return one(ty(t, {2, 3}),
                            constant("x", t, {2, 3}, x) +
                                "  %r = stablehlo.reverse %x, dims = [1] : " + ty(t, {2, 3}) +
                                "\n  return %r : " + ty(t, {2, 3}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.slice", "3x4 [0:3:2, 1:4:2]", [](const ElemType& t) {
                 const Vals x = values(t, 12);
                 Vals want;
                 for (const Dims& i : indices({2, 2}))
                   want.push_back(x[offset({3, 4}, {2 * i[0], 1 + 2 * i[1]})]);
                 return one(ty(t, {2, 2}),
                            constant("x", t, {3, 4}, x) +
                                "  %r = stablehlo.slice %x [0:3:2, 1:4:2] : (" + ty(t, {3, 4}) +
                                ") -> " + ty(t, {2, 2}) + "\n  return %r : " + ty(t, {2, 2}) + "\n",
                            {want});
               }});
  c.push_back(
      {"stablehlo.dynamic_slice", "2x2 of 3x3 at (2, 0), clamped to (1, 0)", [](const ElemType& t) {
         const Vals x = values(t, 9);
         Vals want;
         for (const Dims& i : indices({2, 2})) want.push_back(x[offset({3, 3}, {1 + i[0], i[1]})]);
         return one(ty(t, {2, 2}),
                    constant("x", t, {3, 3}, x) + i32_constant("i", "2", {}) +
                        i32_constant("j", "0", {}) +
                        "  %r = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (" +
                        ty(t, {3, 3}) + ", tensor<i32>, tensor<i32>) -> " + ty(t, {2, 2}) +
                        "\n  return %r : " + ty(t, {2, 2}) + "\n",
                    {want});
       }});
  c.push_back({"stablehlo.dynamic_update_slice", "2x2 into 3x3 at (1, 5), clamped to (1, 1)",
               [](const ElemType& t) {
                 const Vals x = values(t, 9), u = values(t, 4, 9);
                 Vals want = x;
                 for (const Dims& i : indices({2, 2}))
                   want[offset({3, 3}, {1 + i[0], 1 + i[1]})] = u[offset({2, 2}, i)];
                 return one(ty(t, {3, 3}),
                            constant("x", t, {3, 3}, x) + constant("u", t, {2, 2}, u) +
                                i32_constant("i", "1", {}) + i32_constant("j", "5", {}) +
                                "  %r = stablehlo.dynamic_update_slice %x, %u, %i, %j : (" +
                                ty(t, {3, 3}) + ", " + ty(t, {2, 2}) +
                                ", tensor<i32>, tensor<i32>) -> " + ty(t, {3, 3}) +
                                "\n  return %r : " + ty(t, {3, 3}) + "\n",
                            {want});
               }});
  c.push_back(
      {"stablehlo.pad", "2x3, low [1, -1], high [0, 1], interior [1, 0]", [](const ElemType& t) {
         const Vals x = values(t, 6);
         const C pad = value(t, 20);
         const Dims low = {1, -1}, interior = {1, 0}, in = {2, 3}, out = {4, 3};
         Vals want;
         for (const Dims& o : indices(out)) {
           Dims src(2);
           bool inside = true;
           for (int d = 0; d < 2; ++d) {
             const int p = o[d] - low[d];
             if (p < 0 || p % (interior[d] + 1) != 0 || p / (interior[d] + 1) >= in[d])
               inside = false;
             else
               src[d] = p / (interior[d] + 1);
           }
           want.push_back(inside ? x[offset(in, src)] : pad);
         }
         return one(ty(t, out),
                    constant("x", t, in, x) + constant("z", t, {}, {pad}) +
                        "  %r = stablehlo.pad %x, %z, low = [1, -1], high = [0, 1], "
                        "interior = [1, 0] : (" +
                        ty(t, in) + ", " + ty(t, {}) + ") -> " + ty(t, out) +
                        "\n  return %r : " + ty(t, out) + "\n",
                    {want});
       }});
  c.push_back({"stablehlo.concatenate", "2x2 and 2x1 along dimension 1", [](const ElemType& t) {
                 const Vals a = values(t, 4), b = values(t, 2, 4);
                 Vals want;
                 for (const Dims& i : indices({2, 3}))
                   want.push_back(i[1] < 2 ? a[offset({2, 2}, i)] : b[i[0]]);
                 return one(ty(t, {2, 3}),
                            constant("a", t, {2, 2}, a) + constant("b", t, {2, 1}, b) +
                                "  %r = stablehlo.concatenate %a, %b, dim = 1 : (" + ty(t, {2, 2}) +
                                ", " + ty(t, {2, 1}) + ") -> " + ty(t, {2, 3}) +
                                "\n  return %r : " + ty(t, {2, 3}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.iota", "2x3 along dimension 1", [](const ElemType& t) {
                 Vals want;
                 for (const Dims& i : indices({2, 3})) want.push_back(C(i[1]));
                 Built b = one(ty(t, {2, 3}),
                               "  %r = stablehlo.iota dim = 1 : " + ty(t, {2, 3}) +
                                   "\n  return %r : " + ty(t, {2, 3}) + "\n",
                               {want});
                 // StablehloOps.td: IotaOp's result is HLO_StaticShapeIntFpOrComplexTensor.
                 if (t.kind == Kind::Pred) b.refused = "integer, floating-point or complex";
                 return b;
               }});
  const auto gather = [](const std::string& op) {
    return [op](const ElemType& t) {
      // Rows 2, 0 and clamp(9) = 2 of a 3x3 operand.
      const Vals x = values(t, 9);
      Vals want;
      for (int row : {2, 0, 2})
        for (int j = 0; j < 3; ++j) want.push_back(x[offset({3, 3}, {row, j})]);
      const bool dynamic = op == "stablehlo.dynamic_gather";
      const std::string dn =
          "dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
          "start_index_map = [0], index_vector_dim = 1>";
      return one(ty(t, {3, 3}),
                 constant("x", t, {3, 3}, x) + i32_constant("i", "[2, 0, 9]", {3}) +
                     (dynamic ? i32_constant("s", "[1, 3]", {2}) : std::string()) + "  %r = \"" +
                     op + "\"(%x, %i" + (dynamic ? ", %s) {" : ") {") + dn +
                     (dynamic ? std::string() : ", slice_sizes = array<i64: 1, 3>") + "} : (" +
                     ty(t, {3, 3}) + ", tensor<3xi32>" + (dynamic ? ", tensor<2xi32>" : "") +
                     ") -> " + ty(t, {3, 3}) + "\n  return %r : " + ty(t, {3, 3}) + "\n",
                 {want});
    };
  };
  c.push_back(
      {"stablehlo.gather", "rows 2, 0 and 9 (clamped to 2) of 3x3", gather("stablehlo.gather")});
  c.push_back({"stablehlo.dynamic_gather", "rows 2, 0 and 9 (clamped to 2) of 3x3",
               gather("stablehlo.dynamic_gather")});
  c.push_back({"stablehlo.get_dimension_size", "dimension 1 of 2x7, as i32", [](const ElemType& t) {
                 return one("tensor<i32>",
                            constant("x", t, {2, 7}, values(t, 14)) +
                                "  %r = stablehlo.get_dimension_size %x, dim = 1 : (" +
                                ty(t, {2, 7}) + ") -> tensor<i32>\n  return %r : tensor<i32>\n",
                            {{C(7)}});
               }});

  // ---- regions: the fold, scatter or order written out with the type's arithmetic
  const auto reduce = [](const std::string& op) {
    return [op](const ElemType& t) {
      const Vals x = values(t, 6);
      const bool is_add = op == "stablehlo.add";
      const C init = is_add ? C(0) : value(t, 7);
      Vals want;
      for (int r = 0; r < 2; ++r) {
        C acc = init;
        for (int j = 0; j < 3; ++j)
          acc = is_add ? add(t, acc, x[r * 3 + j]) : maximum(acc, x[r * 3 + j]);
        want.push_back(acc);
      }
      return one(ty(t, {2}),
                 constant("x", t, {2, 3}, x) + constant("z", t, {}, {init}) +
                     "  %r = \"stablehlo.reduce\"(%x, %z) <{dimensions = array<i64: 1>}> ({\n" +
                     body2(t.mlir, op) + "  }) : (" + ty(t, {2, 3}) + ", " + ty(t, {}) + ") -> " +
                     ty(t, {2}) + "\n  return %r : " + ty(t, {2}) + "\n",
                 {want});
    };
  };
  c.push_back({"stablehlo.reduce", "rows of 2x3 with an add body", reduce("stablehlo.add")});
  c.push_back({"stablehlo.reduce", "rows of 2x3 with a max body", reduce("stablehlo.maximum")});
  c.push_back({"stablehlo.reduce_window", "2x3, windows 1x2, an add body", [](const ElemType& t) {
                 const Vals x = values(t, 6);
                 const C init = value(t, 9);
                 Vals want;
                 for (const Dims& o : indices({2, 2}))
                   want.push_back(add(t, add(t, init, x[offset({2, 3}, {o[0], o[1]})]),
                                      x[offset({2, 3}, {o[0], o[1] + 1})]));
                 return one(ty(t, {2, 2}),
                            constant("x", t, {2, 3}, x) + constant("z", t, {}, {init}) +
                                "  %r = \"stablehlo.reduce_window\"(%x, %z) <{window_dimensions = "
                                "array<i64: 1, 2>}> ({\n" +
                                body2(t.mlir, "stablehlo.add") + "  }) : (" + ty(t, {2, 3}) + ", " +
                                ty(t, {}) + ") -> " + ty(t, {2, 2}) +
                                "\n  return %r : " + ty(t, {2, 2}) + "\n",
                            {want});
               }});
  c.push_back(
      {"stablehlo.select_and_scatter", "6 in windows of 3, select GE, scatter add",
       [](const ElemType& t) {
         const Vals x = values(t, 6), s = values(t, 2, 6);
         const C init = value(t, 10);
         Vals want(6, init);
         for (int w = 0; w < 2; ++w) {
           // The selection: the window's first element, then each next one it is not GE.
           int sel = 3 * w;
           for (int k = 3 * w + 1; k < 3 * w + 3; ++k)
             if (less(x[sel], x[k])) sel = k;
           want[sel] = add(t, want[sel], s[w]);
         }
         return one(ty(t, {6}),
                    constant("x", t, {6}, x) + constant("s", t, {2}, s) +
                        constant("z", t, {}, {init}) +
                        "  %r = \"stablehlo.select_and_scatter\"(%x, %s, %z) <{window_dimensions = "
                        "array<i64: 3>, window_strides = array<i64: 3>}> ({\n" +
                        comparator(t, "GE") + "  }, {\n" + body2(t.mlir, "stablehlo.add") +
                        "  }) : (" + ty(t, {6}) + ", " + ty(t, {2}) + ", " + ty(t, {}) + ") -> " +
                        ty(t, {6}) + "\n  return %r : " + ty(t, {6}) + "\n",
                    {want});
       }});
  c.push_back({"stablehlo.scatter", "two updates added at 2 and 0 of 3", [](const ElemType& t) {
                 const Vals x = values(t, 3), u = values(t, 2, 3);
                 Vals want = x;
                 want[2] = add(t, want[2], u[0]);
                 want[0] = add(t, want[0], u[1]);
                 return one(ty(t, {3}),
                            constant("x", t, {3}, x) + i32_constant("i", "[[2], [0]]", {2, 1}) +
                                constant("u", t, {2}, u) +
                                "  %r = \"stablehlo.scatter\"(%x, %i, %u) "
                                "<{scatter_dimension_numbers = #stablehlo.scatter<"
                                "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
                                "index_vector_dim = 1>}> ({\n" +
                                body2(t.mlir, "stablehlo.add") + "  }) : (" + ty(t, {3}) +
                                ", tensor<2x1xi32>, " + ty(t, {2}) + ") -> " + ty(t, {3}) +
                                "\n  return %r : " + ty(t, {3}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.sort", "6 elements, a stable LT sort", [](const ElemType& t) {
                 const Vals x = values(t, 6);
                 Vals want = x;
                 std::stable_sort(want.begin(), want.end(), less);
                 return one(ty(t, {6}),
                            constant("x", t, {6}, x) +
                                "  %r = \"stablehlo.sort\"(%x) <{dimension = 0 : i64, is_stable = "
                                "true}> ({\n" +
                                comparator(t, "LT") + "  }) : (" + ty(t, {6}) + ") -> " +
                                ty(t, {6}) + "\n  return %r : " + ty(t, {6}) + "\n",
                            {want});
               }});
  c.push_back({"stablehlo.map", "a multiply body over two 2x2 inputs", [](const ElemType& t) {
                 const Vals a = values(t, 4), b = values(t, 4, 4);
                 Vals want;
                 for (int k = 0; k < 4; ++k) want.push_back(mul(t, a[k], b[k]));
                 return one(ty(t, {2, 2}),
                            constant("a", t, {2, 2}, a) + constant("b", t, {2, 2}, b) +
                                "  %r = \"stablehlo.map\"(%a, %b) <{dimensions = array<i64: 0, "
                                "1>}> ({\n" +
                                body2(t.mlir, "stablehlo.multiply") + "  }) : (" + ty(t, {2, 2}) +
                                ", " + ty(t, {2, 2}) + ") -> " + ty(t, {2, 2}) +
                                "\n  return %r : " + ty(t, {2, 2}) + "\n",
                            {want});
               }});
  c.push_back({"chlo.top_k", "the 2 largest of 5 and their indices", [](const ElemType& t) {
                 const Vals x = values(t, 5);
                 std::vector<int> order = {0, 1, 2, 3, 4};
                 std::stable_sort(order.begin(), order.end(),
                                  [&](int i, int j) { return less(x[j], x[i]); });
                 const std::string r = "(" + ty(t, {2}) + ", tensor<2xi32>)";
                 return one(r,
                            constant("x", t, {5}, x) +
                                "  %v, %i = chlo.top_k(%x, k = 2) : " + ty(t, {5}) + " -> " + r +
                                "\n  return %v, %i : " + ty(t, {2}) + ", tensor<2xi32>\n",
                            {{x[order[0]], x[order[1]]}, {C(order[0]), C(order[1])}});
               }});

  // ---- dot and convolution: sums of products in the type's arithmetic
  const auto matmul = [](const std::string& op) {
    return [op](const ElemType& t) {
      const Vals a = values(t, 6), b = values(t, 6, 6);
      Vals want;
      for (const Dims& o : indices({2, 2})) {
        C acc(0);
        for (int k = 0; k < 3; ++k)
          acc = add(t, acc, mul(t, a[offset({2, 3}, {o[0], k})], b[offset({3, 2}, {k, o[1]})]));
        want.push_back(acc);
      }
      const std::string call = op == "stablehlo.dot"
                                   ? "  %r = \"stablehlo.dot\"(%a, %b) : ("
                                   : "  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] "
                                     "x [0] : (";
      return one(ty(t, {2, 2}),
                 constant("a", t, {2, 3}, a) + constant("b", t, {3, 2}, b) + call + ty(t, {2, 3}) +
                     ", " + ty(t, {3, 2}) + ") -> " + ty(t, {2, 2}) +
                     "\n  return %r : " + ty(t, {2, 2}) + "\n",
                 {want});
    };
  };
  c.push_back({"stablehlo.dot_general", "2x3 by 3x2", matmul("stablehlo.dot_general")});
  c.push_back({"stablehlo.dot", "2x3 by 3x2", matmul("stablehlo.dot")});
  c.push_back(
      {"stablehlo.convolution", "1x1x5 by a 1x1x2 kernel, no padding", [](const ElemType& t) {
         const Vals x = values(t, 5), k = values(t, 2, 5);
         Vals want;
         for (int j = 0; j < 4; ++j)
           want.push_back(add(t, mul(t, x[j], k[0]), mul(t, x[j + 1], k[1])));
         return one(ty(t, {1, 1, 4}),
                    constant("x", t, {1, 1, 5}, x) + constant("k", t, {1, 1, 2}, k) +
                        "  %r = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, "
                        "i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, "
                        "feature_group_count = 1 : i64} : (" +
                        ty(t, {1, 1, 5}) + ", " + ty(t, {1, 1, 2}) + ") -> " + ty(t, {1, 1, 4}) +
                        "\n  return %r : " + ty(t, {1, 1, 4}) + "\n",
                    {want});
       }});

  // ---- structural: the values come back as they went in (reversed where a branch says so)
  c.push_back({"stablehlo.constant", "a 2x2 constant returned", [](const ElemType& t) {
                 const Vals x = values(t, 4);
                 return one(ty(t, {2, 2}),
                            constant("x", t, {2, 2}, x) + "  return %x : " + ty(t, {2, 2}) + "\n",
                            {x});
               }});
  const auto tuple = [](const ElemType& t) {
    const Vals x = values(t, 3), y = values(t, 2, 3);
    const std::string tt = "tuple<" + ty(t, {3}) + ", " + ty(t, {2}) + ">";
    return one(ty(t, {2}),
               constant("x", t, {3}, x) + constant("y", t, {2}, y) +
                   "  %p = stablehlo.tuple %x, %y : " + tt +
                   "\n  %r = stablehlo.get_tuple_element %p[1] : (" + tt + ") -> " + ty(t, {2}) +
                   "\n  return %r : " + ty(t, {2}) + "\n",
               {y});
  };
  c.push_back({"stablehlo.tuple", "a tuple of two, element 1 read back", tuple});
  c.push_back({"stablehlo.get_tuple_element", "a tuple of two, element 1 read back", tuple});
  c.push_back({"stablehlo.optimization_barrier", "two values through", [](const ElemType& t) {
                 const Vals x = values(t, 3), y = values(t, 2, 3);
                 const std::string r = "(" + ty(t, {3}) + ", " + ty(t, {2}) + ")";
                 return one(r,
                            constant("x", t, {3}, x) + constant("y", t, {2}, y) +
                                "  %r:2 = stablehlo.optimization_barrier %x, %y : " + ty(t, {3}) +
                                ", " + ty(t, {2}) + "\n  return %r#0, %r#1 : " + ty(t, {3}) + ", " +
                                ty(t, {2}) + "\n",
                            {x, y});
               }});
  c.push_back(
      {"stablehlo.while", "3 iterations, each reversing the carried value", [](const ElemType& t) {
         const Vals x = values(t, 4);
         const Vals want(x.rbegin(), x.rend());  // reversed an odd number of times
         const std::string X = ty(t, {4});
         return one(X,
                    constant("x", t, {4}, x) + i32_constant("i0", "0", {}) +
                        "  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, " + X +
                        "\n   cond {\n"
                        "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
                        "    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, "
                        "tensor<i32>) -> tensor<i1>\n"
                        "    stablehlo.return %lt : tensor<i1>\n"
                        "  } do {\n"
                        "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
                        "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
                        "    %v2 = stablehlo.reverse %v, dims = [0] : " +
                        X + "\n    stablehlo.return %i2, %v2 : tensor<i32>, " + X +
                        "\n  }\n  return %r#1 : " + X + "\n",
                    {want});
       }});
  c.push_back(
      {"stablehlo.case", "index 1 of two branches: the reversed value", [](const ElemType& t) {
         const Vals x = values(t, 4);
         const std::string X = ty(t, {4});
         return one(X,
                    constant("x", t, {4}, x) + i32_constant("k", "1", {}) +
                        "  %r = \"stablehlo.case\"(%k) ({\n    stablehlo.return %x : " + X +
                        "\n  }, {\n    %v = stablehlo.reverse %x, dims = [0] : " + X +
                        "\n    stablehlo.return %v : " + X + "\n  }) : (tensor<i32>) -> " + X +
                        "\n  return %r : " + X + "\n",
                    {Vals(x.rbegin(), x.rend())});
       }});
  c.push_back({"stablehlo.if", "false: the else branch, the reversed value", [](const ElemType& t) {
                 const Vals x = values(t, 4);
                 const std::string X = ty(t, {4});
                 return one(X,
                            constant("x", t, {4}, x) +
                                "  %p = stablehlo.constant dense<false> : tensor<i1>\n"
                                "  %r = \"stablehlo.if\"(%p) ({\n    stablehlo.return %x : " +
                                X + "\n  }, {\n    %v = stablehlo.reverse %x, dims = [0] : " + X +
                                "\n    stablehlo.return %v : " + X + "\n  }) : (tensor<i1>) -> " +
                                X + "\n  return %r : " + X + "\n",
                            {Vals(x.rbegin(), x.rend())});
               }});
  const auto call = [](const std::string& op) {
    return [op](const ElemType& t) {
      const Vals x = values(t, 4);
      const std::string X = ty(t, {4});
      const std::string site =
          op == "func.call"
              ? "  %r = func.call @rev(%x) : (" + X + ") -> " + X + "\n"
              : "  %r = stablehlo.composite \"my.rev\" %x {decomposition = @rev} : (" + X +
                    ") -> " + X + "\n";
      const std::string text =
          "module {\n" +
          rl::testing::main_of(X, constant("x", t, {4}, x) + site + "  return %r : " + X + "\n") +
          "func.func private @rev(%a: " + X + ") -> " + X +
          " {\n  %v = stablehlo.reverse %a, dims = [0] : " + X + "\n  return %v : " + X +
          "\n}\n}\n";
      return Built{text, {Vals(x.rbegin(), x.rend())}, ""};
    };
  };
  c.push_back({"func.call", "a function that reverses its argument", call("func.call")});
  c.push_back({"stablehlo.composite", "its decomposition reverses the argument",
               call("stablehlo.composite")});
  return c;
}

// Ops of these families the interpreter registers that have no case here, and why.
const std::map<std::string, std::string>& left_out() {
  static const std::map<std::string, std::string> r = {
      {"stablehlo.after_all", "makes a token: no element values"},
      {"stablehlo.create_token", "makes a token: no element values"},
      {"stablehlo.custom_call", "runs only the check.* calls (interp_test.cpp, checks)"},
      {"stablehlo.fft", "complex and real floating point only, one rule per type: fft_test.cpp"},
      {"stablehlo.triangular_solve", "floating point and complex only: linalg_test.cpp"},
      {"stablehlo.cholesky", "floating point and complex only: linalg_test.cpp"},
      {"stablehlo.batch_norm_inference", "floating point only: batch_norm_test.cpp"},
      {"stablehlo.batch_norm_training", "floating point only: batch_norm_test.cpp"},
      {"stablehlo.batch_norm_grad", "floating point only: batch_norm_test.cpp"},
      {"stablehlo.rng_bit_generator", "a state of ui64 and random bits: linalg_test.cpp"},
      {"stablehlo.uniform_quantize", "quantized element types, not these 15"},
      {"stablehlo.uniform_dequantize", "quantized element types, not these 15"},
      {"stablehlo.replica_id", "a ui32 scalar, 0 in a one-process run: registry_test.cpp"},
      {"stablehlo.partition_id", "a ui32 scalar, 0 in a one-process run: registry_test.cpp"},
  };
  return r;
}

// Pairs the dialect allows that the interpreter does not run, and why ("" for the others).
std::string known_gap(const std::string& op, const ElemType& t) {
  if (op == "chlo.top_k" && t.kind == Kind::Complex)
    return "ChloOps.td's top_k takes any tensor (HLO_AnyTensor), but the interpreter refuses "
           "complex numbers: they have no order for its GT comparisons";
  return "";
}

bool covered_family(const hlo::OpInfo& info) {
  return info.family != hlo::CostFamily::Elementwise &&
         info.family != hlo::CostFamily::Transcendental &&
         info.verify != hlo::VerifyRule::Elementwise;
}

std::string shown(const Vals& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + (v[i].imag() == 0
                                ? num(v[i].real())
                                : "(" + num(v[i].real()) + ", " + num(v[i].imag()) + ")");
  return s + "]";
}

}  // namespace

TEST_CASE(
    "every data-movement, region, dot, convolution and structural op runs on every element type, "
    "with the answer computed independently",
    "[interp][pairs][pairs_data]") {
  const std::vector<OpCase> all = cases();
  std::set<std::string> has_case;
  for (const OpCase& oc : all) {
    INFO(oc.op << " has a case but the table does not name it");
    REQUIRE(hlo::op_from_name(oc.op, "stablehlo") != hlo::OpCode::Unknown);
    has_case.insert(oc.op);
  }
  // The table drives: each op of these families the interpreter runs has a case or a reason.
  int ops = 0;
  for (int c = 1; c < static_cast<int>(hlo::OpCode::Count_); ++c) {
    const auto code = static_cast<hlo::OpCode>(c);
    const hlo::OpInfo& info = hlo::op_info(code);
    if (info.mlir.empty() || !covered_family(info) || interp::registry().find(code).run == nullptr)
      continue;
    // Return ops end every case's functions and regions.
    if (info.mlir == "stablehlo.return" || info.mlir == "func.return") continue;
    const std::string op(info.mlir);
    INFO(op << " is registered in the interpreter but has no case here: add one to cases(), or "
               "say in left_out() why not");
    CHECK((has_case.count(op) + left_out().count(op)) == 1);
    ++ops;
  }
  for (const auto& [op, why] : left_out()) {
    INFO(op << " is left out but has a case, or is no longer in the table");
    CHECK(has_case.count(op) == 0);
    CHECK(hlo::op_from_name(op, "stablehlo") != hlo::OpCode::Unknown);
  }

  int ran = 0, refused = 0;
  std::vector<std::string> gaps;
  for (const OpCase& oc : all) {
    for (const ElemType& t : elem_types()) {
      INFO(oc.op << " on " << t.mlir << ": " << oc.what);
      const Built b = oc.build(t);
      INFO(b.text);
      auto parsed = hlo::parse(b.text);
      INFO((parsed.ok() ? std::string() : parsed.error()));
      REQUIRE(parsed.ok());
      auto p = hlo::lower(parsed->front());
      if (!b.refused.empty()) {
        INFO("the dialect refuses this pair: the verifier must, naming the rule");
        REQUIRE_FALSE(p.ok());
        CHECK_THAT(p.error(), Catch::Matchers::Contains(b.refused));
        ++refused;
        continue;
      }
      INFO((p.ok() ? std::string() : p.error()));
      REQUIRE(p.ok());
      const interp::RunResult res = interp::run_program(p.value(), {});
      const std::string not_run = res.unsupported.empty() ? "" : res.unsupported.front().why;
      const std::string gap = known_gap(oc.op, t);
      if (!gap.empty()) {
        INFO("a listed gap now runs: take it off known_gap()");
        CHECK_FALSE(not_run.empty());
        gaps.push_back(oc.op + " on " + t.mlir + ": " + gap);
        continue;
      }
      INFO(not_run);
      INFO((res.errors.empty() ? res.status : res.errors.front().message));
      REQUIRE(res.status == "passed");
      REQUIRE(res.values.size() == b.want.size());
      ++ran;
      for (std::size_t r = 0; r < b.want.size(); ++r) {
        const interp::Tensor& out = res.values[r].tensor;
        Vals got;
        if (out.type == hlo::ElementType::C64 || out.type == hlo::ElementType::C128)
          got = rl::testing::as_complex(res, r);
        else
          for (double x : rl::testing::as_doubles(res, r)) got.push_back(C(x));
        INFO("result " << r << ": got " << shown(got) << ", want " << shown(b.want[r]));
        CHECK(got == b.want[r]);
      }
    }
  }
  // Every op of the families has its place, and the pairs ran.
  CHECK(ops == static_cast<int>(has_case.size() + left_out().size()));
  std::string why;
  for (const auto& g : gaps) why += "\n  " + g;
  WARN(ran << " (op, element type) pairs ran and matched; " << refused
           << " refused by the verifier, as the dialect refuses them; " << gaps.size()
           << " the dialect allows that the interpreter does not run:" << why);
}
