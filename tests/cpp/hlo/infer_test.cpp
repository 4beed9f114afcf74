// HLO instructions written without a shape get the shape XLA infers (infer.cpp), for the
// opcodes where XLA's HLO parser infers one; the others, and bad input, get an error at the
// instruction's line:col. Every expected shape is written as XLA prints it, next to the rule
// that gives it.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"
#include "hlo/verify.h"

using namespace rl::hlo;
using rl::testing::find_op;

namespace {

// The type of instruction `name` (in any computation of the first module), as XLA prints it.
std::string type_of(const std::vector<Module>& modules, const std::string& name) {
  const Module& m = modules.front();
  for (const Function& f : m.functions)
    if (const Op* op = find_op(f, name)) return m.value_type(f, f.results(*op)[0]).text;
  return "<no instruction " + name + ">";
}

std::string inferred(const std::string& text, const std::string& name = "r") {
  auto r = parse_hlo(text);
  INFO(text << (r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return type_of(r.value(), name);
}

std::string error_of(const std::string& text) {
  auto r = parse_hlo(text);
  INFO(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

// An entry computation: the parameter lines, then `ROOT r = <instruction>`.
std::string entry(const std::string& params, const std::string& instruction) {
  return "HloModule m\n\nENTRY e {\n" + params + "  ROOT r = " + instruction + "\n}\n";
}

// Scalar computations that the tests call.
const char* kComputations =
    "add_f32 {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, "
    "y)\n}\n\n"
    "max_f32 {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] maximum(x, "
    "y)\n}\n\n"
    "argmax {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n  b = f32[] parameter(2)\n"
    "  j = s32[] parameter(3)\n  ROOT t = (f32[], s32[]) tuple(a, i)\n}\n\n"
    "to_s32 {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = s32[] "
    "convert(x)\n}\n\n"
    "less {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = pred[] compare(x, y), "
    "direction=LT\n}\n\n";

std::string with_computations(const std::string& params, const std::string& instruction) {
  return "HloModule m\n\n" + std::string(kComputations) + "ENTRY e {\n" + params +
         "  ROOT r = " + instruction + "\n}\n";
}

}  // namespace

TEST_CASE("shapeless elementwise instructions get the shape XLA infers", "[hlo][infer]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  // (parameters, instruction, the shape XLA prints)
  auto [params, instruction, shape] = GENERATE(table<std::string, std::string, std::string>({
      // unary: the operand's shape
      Row{"  p = f32[3,7] parameter(0)\n", "tanh(p)", "f32[3,7]"},
      Row{"  p = bf16[2,<=5] parameter(0)\n", "exponential(p)", "bf16[2,<=5]"},
      Row{"  p = s32[4] parameter(0)\n", "negate(p)", "s32[4]"},
      Row{"  p = s32[4] parameter(0)\n", "abs(p)", "s32[4]"},
      Row{"  p = u8[3] parameter(0)\n", "popcnt(p)", "u8[3]"},
      Row{"  p = pred[5] parameter(0)\n", "not(p)", "pred[5]"},
      Row{"  p = f16[2,2] parameter(0)\n", "round-nearest-even(p)", "f16[2,2]"},
      // abs, real and imag of a complex: its component type (c64 → f32, c128 → f64)
      Row{"  p = c64[2,3] parameter(0)\n", "abs(p)", "f32[2,3]"},
      Row{"  p = c128[3] parameter(0)\n", "real(p)", "f64[3]"},
      Row{"  p = c64[] parameter(0)\n", "imag(p)", "f32[]"},
      Row{"  p = f32[3] parameter(0)\n", "real(p)", "f32[3]"},
      // is-finite: pred with the operand's dimensions
      Row{"  p = bf16[2,2] parameter(0)\n", "is-finite(p)", "pred[2,2]"},
      // binary: equal dimensions and element type → the lhs's shape
      Row{"  a = f32[3,7] parameter(0)\n  b = f32[3,7] parameter(1)\n", "add(a, b)", "f32[3,7]"},
      Row{"  a = s32[2] parameter(0)\n  b = s32[2] parameter(1)\n", "shift-left(a, b)", "s32[2]"},
      Row{"  a = pred[2] parameter(0)\n  b = pred[2] parameter(1)\n", "xor(a, b)", "pred[2]"},
      Row{"  a = f64[] parameter(0)\n  b = f64[] parameter(1)\n", "atan2(a, b)", "f64[]"},
      // a scalar with an array: the array's shape, either side
      Row{"  a = f32[] parameter(0)\n  b = f32[3,7] parameter(1)\n", "multiply(a, b)", "f32[3,7]"},
      Row{"  a = f32[3,7] parameter(0)\n  b = f32[] parameter(1)\n", "subtract(a, b)", "f32[3,7]"},
      // equal ranks, a dimension 1 on one side: the other side's size (degenerate broadcast)
      Row{"  a = f32[3,1] parameter(0)\n  b = f32[3,7] parameter(1)\n", "maximum(a, b)",
          "f32[3,7]"},
      // floating-point types mix: the higher-precision one (f32 over bf16)
      Row{"  a = bf16[2] parameter(0)\n  b = f32[2] parameter(1)\n", "add(a, b)", "f32[2]"},
      // complex: f32 parts → c64, f64 parts → c128
      Row{"  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n", "complex(a, b)", "c64[2]"},
      Row{"  a = f64[] parameter(0)\n  b = f64[] parameter(1)\n", "complex(a, b)", "c128[]"},
      // compare: pred with the operands' dimensions
      Row{"  a = s32[4,2] parameter(0)\n  b = s32[4,2] parameter(1)\n",
          "compare(a, b), direction=LT", "pred[4,2]"},
      // select: on_true's shape (the dimensions of pred)
      Row{"  p = pred[2,3] parameter(0)\n  a = f32[2,3] parameter(1)\n  b = f32[2,3] "
          "parameter(2)\n",
          "select(p, a, b)", "f32[2,3]"},
      // clamp: the middle operand's shape; min and max may be scalars
      Row{"  lo = f32[] parameter(0)\n  x = f32[4] parameter(1)\n  hi = f32[] parameter(2)\n",
          "clamp(lo, x, hi)", "f32[4]"},
  }));
  CHECK(inferred(entry(params, instruction)) == shape);
}

TEST_CASE("shapeless structural instructions get the shape XLA infers", "[hlo][infer]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  auto [params, instruction, shape] = GENERATE(table<std::string, std::string, std::string>({
      // copy, domain, opt-barrier: the operand's shape, tuples too
      Row{"  p = (f32[2], s32[]) parameter(0)\n", "copy(p)", "(f32[2], s32[])"},
      Row{"  p = u32[] parameter(0)\n",
          "domain(p), domain={kind=\"sharding\", entry={maximal device=1}, exit={}}", "u32[]"},
      Row{"  p = (f32[4,4], f32[3,4]) parameter(0)\n", "opt-barrier(p)", "(f32[4,4], f32[3,4])"},
      // tuple: the tuple of the operands' shapes
      Row{"  a = f32[2] parameter(0)\n  b = s32[] parameter(1)\n", "tuple(a, b)",
          "(f32[2], s32[])"},
      Row{"", "tuple()", "()"},
      // get-tuple-element: element `index`
      Row{"  p = (f32[2], (s32[], pred[3])) parameter(0)\n", "get-tuple-element(p), index=1",
          "(s32[], pred[3])"},
      // concatenate along d: the sum of the operands' sizes in d (3 + 4 + 1)
      Row{"  a = f32[2,3] parameter(0)\n  b = f32[2,4] parameter(1)\n  c = f32[2,1] parameter(2)\n",
          "concatenate(a, b, c), dimensions={1}", "f32[2,8]"},
      // broadcast: XLA's two-argument inference reads dimensions as new major sizes:
      // [dimensions..., operand dims...]
      Row{"  p = f32[3] parameter(0)\n", "broadcast(p), dimensions={1}", "f32[1,3]"},
      Row{"  p = f32[] parameter(0)\n", "broadcast(p), dimensions={2,5}", "f32[2,5]"},
      Row{"  p = f32[] parameter(0)\n", "broadcast(p)", "f32[]"},
      // transpose: out[i] = in[dimensions[i]] = [5, 2, 3]
      Row{"  p = f32[2,3,5] parameter(0)\n", "transpose(p), dimensions={2,0,1}", "f32[5,2,3]"},
      // reverse: the operand's shape
      Row{"  p = f32[4,4] parameter(0)\n", "reverse(p), dimensions={0,1}", "f32[4,4]"},
      // pad: d + lo + hi + max(d-1,0)·interior = [4+1+2, 5+0+0+4·3, 3-1-1]
      Row{"  p = f32[4,5,3] parameter(0)\n  z = f32[] parameter(1)\n",
          "pad(p, z), padding=1_2x0_0_3x-1_-1", "f32[7,17,1]"},
      Row{"  p = bf16[6] parameter(0)\n  z = bf16[] parameter(1)\n", "pad(p, z), padding=1_1_0",
          "bf16[8]"},
      // sort: one operand's shape, or the tuple of several
      Row{"  p = f32[10] parameter(0)\n", "sort(p), dimensions={0}, to_apply=less", "f32[10]"},
      Row{"  k = f32[8,2] parameter(0)\n  v = s32[8,2] parameter(1)\n",
          "sort(k, v), dimensions={0}, to_apply=argmax", "(f32[8,2], s32[8,2])"},
      // get-dimension-size: s32[]; set-dimension-size: that dimension bounded by its size
      Row{"  p = f32[4,2] parameter(0)\n", "get-dimension-size(p), dimensions={1}", "s32[]"},
      Row{"  p = f32[4,4] parameter(0)\n  n = s32[] parameter(1)\n",
          "set-dimension-size(p, n), dimensions={1}", "f32[4,<=4]"},
      // after-all: a token; add-dependency: its data operand's shape; replica-id, partition-id:
      // u32[]
      Row{"  t0 = token[] parameter(0)\n  t1 = token[] parameter(1)\n", "after-all(t0, t1)",
          "token[]"},
      Row{"", "after-all()", "token[]"},
      Row{"  p = f32[4,4] parameter(0)\n  t = token[] parameter(1)\n", "add-dependency(p, t)",
          "f32[4,4]"},
      Row{"", "replica-id()", "u32[]"},
      Row{"", "partition-id()", "u32[]"},
  }));
  CHECK(inferred(with_computations(params, instruction)) == shape);
}

TEST_CASE("shapeless reductions, windows, gathers and scatters get the shape XLA infers",
          "[hlo][infer]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  auto [params, instruction, shape] = GENERATE(table<std::string, std::string, std::string>({
      // reduce: the input's dimensions without `dimensions`, in to_apply's element type
      Row{"  p = f32[4,6,5] parameter(0)\n  z = f32[] parameter(1)\n",
          "reduce(p, z), dimensions={0,2}, to_apply=add_f32", "f32[6]"},
      Row{"  p = f32[4,6] parameter(0)\n  z = f32[] parameter(1)\n",
          "reduce(p, z), dimensions={0,1}, to_apply=max_f32", "f32[]"},
      Row{"  p = f32[4,6] parameter(0)\n  z = f32[] parameter(1)\n",
          "reduce(p, z), dimensions={1}, to_apply=to_s32", "s32[4]"},
      // N inputs with a tuple-returning to_apply: a tuple of N arrays
      Row{"  p = f32[4,6] parameter(0)\n  i = s32[4,6] parameter(1)\n  z = f32[] parameter(2)\n  k "
          "= s32[] parameter(3)\n",
          "reduce(p, i, z, k), dimensions={1}, to_apply=argmax", "(f32[4], s32[4])"},
      // reduce-window, per dimension: floor((lo + dilated(size, base) + hi - dilated(window, wd)) /
      // stride) + 1,
      // dilated(n, d) = (n-1)·d+1: [2, (2+17+0-3)/4+1, (0+31+2-3)/4+1, 7] = [2,5,8,7]
      Row{"  p = f32[2,17,31,7] parameter(0)\n  z = f32[] parameter(1)\n",
          "reduce-window(p, z), window={size=1x2x2x1 stride=1x4x4x1 pad=0_0x2_0x0_2x0_0 "
          "rhs_dilate=1x2x2x1}, "
          "to_apply=max_f32",
          "f32[2,5,8,7]"},
      // base dilation: dilated(5, 2) = 9; (9 - 3)/1 + 1 = 7
      Row{"  p = f32[5] parameter(0)\n  z = f32[] parameter(1)\n",
          "reduce-window(p, z), window={size=3 lhs_dilate=2}, to_apply=add_f32", "f32[7]"},
      // a window larger than the padded input: 0
      Row{"  p = f32[2] parameter(0)\n  z = f32[] parameter(1)\n",
          "reduce-window(p, z), window={size=3}, to_apply=add_f32", "f32[0]"},
      // the init value's element type
      Row{"  p = f32[4,6] parameter(0)\n  z = s32[] parameter(1)\n",
          "reduce-window(p, z), window={size=2x3 stride=2x3}, to_apply=to_s32", "s32[2,2]"},
      // two inputs: a tuple (ShapeInference's variadic form)
      Row{"  a = f32[4,6] parameter(0)\n  b = s32[4,6] parameter(1)\n  z = f32[] parameter(2)\n  k "
          "= s32[] parameter(3)\n",
          "reduce-window(a, b, z, k), window={size=1x2 stride=1x2}, to_apply=argmax",
          "(f32[4,3], s32[4,3])"},
      // select-and-scatter: the operand's shape
      Row{"  p = f32[4,5] parameter(0)\n  s = f32[2,2] parameter(1)\n  z = f32[] parameter(2)\n",
          "select-and-scatter(p, s, z), window={size=2x3 stride=2x3 pad=0_0x0_1}, select=less, "
          "scatter=add_f32",
          "f32[4,5]"},
      // map: to_apply's element type over the operands' dimensions
      Row{"  a = f32[4] parameter(0)\n  b = f32[4] parameter(1)\n",
          "map(a, b), dimensions={0}, to_apply=to_s32", "s32[4]"},
      // gather: offset_dims take the uncollapsed slice sizes, the rest the index dims (without
      // index_vector_dim): [10 (indices dim 0), 300 (slice size of operand dim 2)]
      Row{"  p = f32[200,100,300] parameter(0)\n  i = s32[10,2] parameter(1)\n",
          "gather(p, i), offset_dims={1}, collapsed_slice_dims={0,1}, start_index_map={0,1}, "
          "index_vector_dim=1, "
          "slice_sizes={1,1,300}",
          "f32[10,300]"},
      // index_vector_dim = rank(indices): a trailing 1 is implied; offset dims at 0 and 3
      Row{"  p = c64[6,5,4,3,2] parameter(0)\n  i = s32[12,8] parameter(1)\n",
          "gather(p, i), offset_dims={0,3}, collapsed_slice_dims={0,2,3}, start_index_map={0}, "
          "index_vector_dim=2, "
          "slice_sizes={1,5,1,1,2}",
          "c64[5,12,8,2]"},
      // operand_batching_dims count as collapsed
      Row{"  p = bf16[1024,512] parameter(0)\n  i = s32[1024,512,1] parameter(1)\n",
          "gather(p, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, "
          "operand_batching_dims={0}, "
          "start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1}",
          "bf16[1024,512]"},
      // scatter: the operand's shape, or the tuple of the operands' shapes
      Row{"  p = f32[200,100,300] parameter(0)\n  i = s64[10,2] parameter(1)\n  u = f32[10,300] "
          "parameter(2)\n",
          "scatter(p, i, u), update_window_dims={1}, inserted_window_dims={0,1}, "
          "scatter_dims_to_operand_dims={0,1}, "
          "index_vector_dim=1, to_apply=add_f32",
          "f32[200,100,300]"},
      Row{"  p = f32[8] parameter(0)\n  q = s32[8] parameter(1)\n  i = s32[2,1] parameter(2)\n  u "
          "= f32[2] parameter(3)\n"
          "  v = s32[2] parameter(4)\n",
          "scatter(p, q, i, u, v), update_window_dims={}, inserted_window_dims={0}, "
          "scatter_dims_to_operand_dims={0}, "
          "index_vector_dim=1, to_apply=argmax",
          "(f32[8], s32[8])"},
  }));
  CHECK(inferred(with_computations(params, instruction)) == shape);
}

TEST_CASE("shapeless dots, convolutions and linear algebra get the shape XLA infers",
          "[hlo][infer]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  auto [params, instruction, shape] = GENERATE(table<std::string, std::string, std::string>({
      // dot: batch dims, then lhs free dims, then rhs free dims = [2, 3, 5]
      Row{"  a = f32[2,3,4] parameter(0)\n  b = f32[2,4,5] parameter(1)\n",
          "dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
          "rhs_contracting_dims={1}",
          "f32[2,3,5]"},
      Row{"  a = f32[32,16] parameter(0)\n  b = f32[16,8] parameter(1)\n",
          "dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}", "f32[32,8]"},
      // no contraction: an outer product; the higher-precision element type (f32 over bf16)
      Row{"  a = bf16[3] parameter(0)\n  b = f32[4] parameter(1)\n", "dot(a, b)", "f32[3,4]"},
      // rhs free dims in their order, after the lhs's: [7 (lhs 0), 2 (rhs 0), 9 (rhs 2)]
      Row{"  a = s8[7,6] parameter(0)\n  b = s8[2,6,9] parameter(1)\n",
          "dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}", "s8[7,2,9]"},
      // convolution, spatial: (28 + 1 + 1 - 3) / 2 + 1 = 14; feature = kernel output features
      Row{"  x = f32[1,28,28,3] parameter(0)\n  k = f32[3,3,3,8] parameter(1)\n",
          "convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
          "f32[1,14,14,8]"},
      // output labels order the result; depthwise: feature_group_count = input features
      Row{"  x = bf16[1,256,56,56] parameter(0)\n  k = bf16[256,1,3,3] parameter(1)\n",
          "convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, "
          "feature_group_count=256",
          "bf16[1,256,56,56]"},
      // batch_group_count divides the batch: 8 / 4 = 2; dilations: (2·(5-1)+1 + 2 - 2·(3-1)-1)/1 +
      // 1 = 7
      Row{"  x = f32[8,5,4] parameter(0)\n  k = f32[4,3,4] parameter(1)\n",
          "convolution(x, k), window={size=3 pad=1_1 lhs_dilate=2 rhs_dilate=2}, "
          "dim_labels=b0f_i0o->b0f, "
          "batch_group_count=4",
          "f32[2,7,4]"},
      // the layout of the output labels: f01b puts the feature first
      Row{"  x = f32[1,30,30,3] parameter(0)\n  k = f32[1,1,3,16] parameter(1)\n",
          "convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->f01b", "f32[16,30,30,1]"},
      // fft: FFT keeps the shape; RFFT: complex, last dim 9/2+1 = 5; IRFFT: real, last dim 9
      Row{"  p = c64[4,8] parameter(0)\n", "fft(p), fft_type=FFT, fft_length={8}", "c64[4,8]"},
      Row{"  p = f32[3,9] parameter(0)\n", "fft(p), fft_type=RFFT, fft_length={9}", "c64[3,5]"},
      Row{"  p = c128[3,5] parameter(0)\n", "fft(p), fft_type=IRFFT, fft_length={9}", "f64[3,9]"},
      // triangular-solve: b's shape
      Row{"  a = f32[4,4] parameter(0)\n  b = f32[4,3] parameter(1)\n",
          "triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE",
          "f32[4,3]"},
      Row{"  a = f32[2,3,3] parameter(0)\n  b = f32[2,5,3] parameter(1)\n",
          "triangular-solve(a, b), lower=true, transpose_a=NO_TRANSPOSE", "f32[2,5,3]"},
      // cholesky: the operand's shape
      Row{"  a = f32[1,5,5] parameter(0)\n", "cholesky(a), lower=true", "f32[1,5,5]"},
      // batch norm: training and grad give (operand, f32[features], f32[features]); inference the
      // operand's shape
      Row{"  x = f32[2,3,4,5] parameter(0)\n  s = f32[3] parameter(1)\n  o = f32[3] parameter(2)\n",
          "batch-norm-training(x, s, o), epsilon=0.001, feature_index=1",
          "(f32[2,3,4,5], f32[3], f32[3])"},
      Row{"  x = f32[2,3] parameter(0)\n  s = f32[3] parameter(1)\n  o = f32[3] parameter(2)\n  m "
          "= f32[3] parameter(3)\n"
          "  v = f32[3] parameter(4)\n",
          "batch-norm-inference(x, s, o, m, v), epsilon=0.001, feature_index=1", "f32[2,3]"},
      Row{"  x = f32[2,3] parameter(0)\n  s = f32[2] parameter(1)\n  m = f32[2] parameter(2)\n  v "
          "= f32[2] parameter(3)\n"
          "  g = f32[2,3] parameter(4)\n",
          "batch-norm-grad(x, s, m, v, g), epsilon=0.001, feature_index=0",
          "(f32[2,3], f32[2], f32[2])"},
  }));
  CHECK(inferred(entry(params, instruction)) == shape);
}

TEST_CASE("bounded dynamic dimensions stay apart from static ones and follow XLA's rules",
          "[hlo][infer]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  q = f32[<=8,4] parameter(1)\n"  // interned first: f32[8,4] must still be its own type
      "  p = f32[8,4] parameter(0)\n"
      "  z = f32[] parameter(2)\n"
      "  s = add(p, q)\n"                                   // either side bounded: bounded
      "  r = reduce(q, z), dimensions={1}, to_apply=add\n"  // kept dimensions keep their mark
      "  t = transpose(q), dimensions={1,0}\n"
      "  ROOT o = tuple(p, q, s, r, t)\n"
      "}\n"
      "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT a = add(x, y)\n}\n";
  auto r = parse_hlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  CHECK(type_of(r.value(), "p") == "f32[8,4]");
  CHECK(type_of(r.value(), "q") == "f32[<=8,4]");
  CHECK(type_of(r.value(), "o") == "(f32[8,4], f32[<=8,4], f32[<=8,4], f32[<=8], f32[4,<=8])");
}

TEST_CASE("the issue's example: a shapeless reduce whose to_apply is defined after it",
          "[hlo][infer]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[8,16] parameter(0)\n"
      "  init = f32[] constant(-inf)\n"
      "  ROOT reduce = reduce(p, init), dimensions={0}, to_apply=Max\n"
      "}\n"
      "Max {\n"
      "  a = f32[] parameter(0)\n"
      "  b = f32[] parameter(1)\n"
      "  ROOT m = maximum(a, b)\n"  // shapeless too: f32[]
      "}\n";
  auto r = parse_hlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Module& m = r->front();
  CHECK(type_of(r.value(), "reduce") == "f32[16]");  // [8,16] without dimension 0
  CHECK(type_of(r.value(), "m") == "f32[]");
  CHECK(m.type(m.entry()->result_types.at(0)).text == "f32[16]");
  CHECK(m.type(m.find("Max")->result_types.at(0)).text == "f32[]");
  CHECK(find_op(*m.entry(), "reduce")->infer_shape);
}

TEST_CASE("calls, loops and conditionals take their callee's result, wherever it is defined",
          "[hlo][infer]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  i = s32[] parameter(1)\n"
      "  b = pred[] parameter(2)\n"
      "  c = call(p, p), to_apply=twice\n"  // twice's ROOT is shapeless and written below
      "  t = tuple(i, c)\n"
      "  w = while(t), condition=cond, body=body\n"
      "  x = conditional(b, p, p), true_computation=neg, false_computation=twice1\n"
      "  y = conditional(i, p, p, p), branch_computations={neg, neg, twice1}\n"
      "  ROOT r = tuple(w, x, y)\n"
      "}\n"
      "twice {\n  a = f32[4] parameter(0)\n  b = f32[4] parameter(1)\n  ROOT s = add(a, b)\n}\n"
      "twice1 {\n  a = f32[4] parameter(0)\n  ROOT s = call(a, a), to_apply=twice\n}\n"
      "neg {\n  a = f32[4] parameter(0)\n  ROOT n = negate(a)\n}\n"
      "cond {\n  s = (s32[], f32[4]) parameter(0)\n  k = get-tuple-element(s), index=0\n"
      "  ten = s32[] constant(10)\n  ROOT lt = compare(k, ten), direction=LT\n}\n"
      "body {\n  s = (s32[], f32[4]) parameter(0)\n  k = get-tuple-element(s), index=0\n"
      "  v = get-tuple-element(s), index=1\n  one = s32[] constant(1)\n  k1 = add(k, one)\n"
      "  v1 = call(v, v), to_apply=twice\n  ROOT n = tuple(k1, v1)\n}\n";
  auto r = parse_hlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  CHECK(type_of(r.value(), "c") == "f32[4]");
  CHECK(type_of(r.value(), "w") == "(s32[], f32[4])");  // while: the init value's shape
  CHECK(type_of(r.value(), "x") == "f32[4]");           // conditional: branch 0's result
  CHECK(type_of(r.value(), "y") == "f32[4]");
  CHECK(type_of(r.value(), "r") == "((s32[], f32[4]), f32[4], f32[4])");
  CHECK(type_of(r.value(), "lt") == "pred[]");
}

TEST_CASE(
    "a long chain of shapeless instructions, written in reverse, is typed without deep recursion",
    "[hlo][infer]") {
  const int n = 20000;
  std::string text = "HloModule m\nENTRY e {\n  ROOT x" + std::to_string(n) + " = negate(x" +
                     std::to_string(n - 1) + ")\n";
  for (int i = n - 1; i >= 1; --i)
    text += "  x" + std::to_string(i) + " = negate(x" + std::to_string(i - 1) + ")\n";
  text += "  x0 = f32[2,3] parameter(0)\n}\n";
  CHECK(inferred(text, "x" + std::to_string(n)) == "f32[2,3]");
  CHECK(inferred(text, "x1") == "f32[2,3]");
}

TEST_CASE("opcodes XLA requires a shape for are refused with an error at their line",
          "[hlo][infer]") {
  auto [instruction, opcode] = GENERATE(table<std::string, std::string>({
      {"async-start(p), calls=neg", "async-start"},
      {"async-update(p)", "async-update"},
      {"async-done(p)", "async-done"},
      {"all-gather(p), dimensions={0}", "all-gather"},
      {"all-gather-start(p), dimensions={0}", "all-gather-start"},
      {"all-gather-done(p)", "all-gather-done"},
      {"all-reduce(p), to_apply=add_f32", "all-reduce"},
      {"all-reduce-start(p), to_apply=add_f32", "all-reduce-start"},
      {"all-reduce-done(p)", "all-reduce-done"},
      {"all-to-all(p), dimensions={0}", "all-to-all"},
      {"collective-broadcast(p), replica_groups={}", "collective-broadcast"},
      {"collective-permute(p), source_target_pairs={{0,1}}", "collective-permute"},
      {"collective-permute-start(p), source_target_pairs={{0,1}}", "collective-permute-start"},
      {"collective-permute-done(p)", "collective-permute-done"},
      {"copy-start(p)", "copy-start"},
      {"copy-done(p)", "copy-done"},
      {"dynamic-reshape(p, i)", "dynamic-reshape"},
      {"dynamic-slice(p, i), dynamic_slice_sizes={2}", "dynamic-slice"},
      {"dynamic-update-slice(p, p, i)", "dynamic-update-slice"},
      {"ragged-all-to-all(p, p, i, i, i, i)", "ragged-all-to-all"},
      {"recv(t), channel_id=1", "recv"},
      {"recv-done(p), channel_id=1", "recv-done"},
      {"reduce-scatter(p), dimensions={0}, to_apply=add_f32", "reduce-scatter"},
      {"send(p, t), channel_id=1", "send"},
      {"send-done(p), channel_id=1", "send-done"},
      {"slice(p), slice={[0:2]}", "slice"},
      {"bitcast(p)", "bitcast"},
      {"bitcast-convert(p)", "bitcast-convert"},
      {"constant(1)", "constant"},
      {"convert(p)", "convert"},
      {"custom-call(p), custom_call_target=\"f\"", "custom-call"},
      {"fusion(p), kind=kLoop, calls=neg", "fusion"},
      {"infeed(t)", "infeed"},
      {"iota(), iota_dimension=0", "iota"},
      {"outfeed(p, t)", "outfeed"},
      {"parameter(3)", "parameter"},
      {"reduce-precision(p), exponent_bits=5, mantissa_bits=10", "reduce-precision"},
      {"reshape(p)", "reshape"},
      {"rng(p, p), distribution=rng_uniform", "rng"},
      {"rng-bit-generator(p), algorithm=rng_default", "rng-bit-generator"},
      {"rng-get-and-update-state(), delta=1", "rng-get-and-update-state"},
      {"stochastic-convert(p, i)", "stochastic-convert"},
      {"frobnicate(p)", "frobnicate"},  // an opcode the op table does not name
  }));
  const std::string text =
      "HloModule m\n\n" + std::string(kComputations) +
      "neg {\n  a = f32[4] parameter(0)\n  ROOT n = f32[4] negate(a)\n}\n\n"
      "ENTRY e {\n  p = f32[4] parameter(0)\n  i = s32[] parameter(1)\n  t = token[] parameter(2)\n"
      "  ROOT r = " +
      instruction + "\n}\n";
  const int line = static_cast<int>(std::count(text.begin(), text.end(), '\n'));  // the ROOT line
  CHECK(error_of(text) ==
        std::to_string(line - 1) + ":3: error: the shape of " + opcode +
            " cannot be inferred \xE2\x80\x94 expected a shape before the opcode, got " + opcode +
            " without a shape");
}

// An attribute that is missing or unreadable gets the decoder's error (decode.h: the one reader
// of attributes, which the verifier and the lowering use too); a shape rule broken gets
// "the shape of OP cannot be inferred".
TEST_CASE("bad shapeless instructions get an error at their line that names the rule and the value",
          "[hlo][infer]") {
  const std::string dash = " \xE2\x80\x94 expected ";
  auto [params, instruction, message] = GENERATE_REF(table<std::string, std::string, std::string>({
      {"  a = f32[2,3] parameter(0)\n  b = f32[3,2] parameter(1)\n", "add(a, b)",
       "the shape of add cannot be inferred" + dash +
           "operands of equal dimensions (or 1 where they differ), got f32[2,3] and f32[3,2]"},
      {"  a = f32[2] parameter(0)\n  b = s32[2] parameter(1)\n", "add(a, b)",
       "the shape of add cannot be inferred" + dash +
           "operands of one element type, got f32[2] and s32[2]"},
      {"  a = f32[2] parameter(0)\n  b = f32[2,2] parameter(1)\n", "multiply(a, b)",
       "the shape of multiply cannot be inferred" + dash +
           "operands of equal rank, or a scalar and an array, got f32[2] and f32[2,2]"},
      {"  a = f32[2] parameter(0)\n", "add(a)",
       "the shape of add cannot be inferred" + dash + "2 operands, got 1"},
      {"  a = u32[2] parameter(0)\n", "abs(a)",
       "the shape of abs cannot be inferred" + dash +
           "a signed integer, floating-point or complex operand, got u32[2]"},
      {"  a = s32[2] parameter(0)\n", "tanh(a)",
       "the shape of tanh cannot be inferred" + dash +
           "a floating-point or complex operand, got s32[2]"},
      {"  a = (f32[2]) parameter(0)\n", "negate(a)",
       "the shape of negate cannot be inferred" + dash + "an array as operand 0, got (f32[2])"},
      {"  a = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce(a, z), dimensions={2}, to_apply=add_f32",
       "the shape of reduce cannot be inferred" + dash +
           "dimensions below the rank of f32[2,3], got dimensions={2}"},
      {"  a = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n", "reduce(a, z), to_apply=add_f32",
       "reduce needs its dimensions" + dash + "the dimensions attribute, got none"},
      {"  a = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce(a, z), dimensions={0}, to_apply=nowhere",
       "reduce calls an unknown computation" + dash + "a computation of this module, got nowhere"},
      {"  a = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce(a, z), dimensions={0}, to_apply=argmax",
       "the shape of reduce cannot be inferred" + dash +
           "to_apply taking 2 parameters, got argmax taking 4"},
      {"  a = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce(a, z, z), dimensions={0}, to_apply=add_f32",
       "the shape of reduce cannot be inferred" + dash +
           "N inputs and N init values (an even number of operands), got 3 operands"},
      {"  a = f32[2,3] parameter(0)\n", "transpose(a), dimensions={0,0}",
       "the shape of transpose cannot be inferred" + dash +
           "dimensions without repeats, got dimensions={0,0}"},
      {"  a = f32[2,3] parameter(0)\n", "transpose(a), dimensions={0,x}",
       "bad permutation of transpose" + dash + "a list of integers, got {0,x}"},
      {"  a = f32[2,3] parameter(0)\n  b = f32[3,3] parameter(1)\n",
       "concatenate(a, b), dimensions={1}",
       "the shape of concatenate cannot be inferred" + dash +
           "operands that differ only in dimension 1, got f32[2,3] and f32[3,3]"},
      {"  a = f32[2,3] parameter(0)\n  b = f32[3,3] parameter(1)\n",
       "concatenate(a, b), dimensions={2}",
       "the shape of concatenate cannot be inferred" + dash +
           "a dimension below the rank of f32[2,3], got dimensions={2}"},
      {"  a = f32[2,3] parameter(0)\n", "get-tuple-element(a), index=0",
       "the shape of get-tuple-element cannot be inferred" + dash +
           "a tuple operand, got f32[2,3]"},
      {"  a = (f32[2], s32[]) parameter(0)\n", "get-tuple-element(a), index=2",
       "the shape of get-tuple-element cannot be inferred" + dash +
           "index below the tuple size 2, got index=2"},
      {"  a = (f32[2], s32[]) parameter(0)\n", "get-tuple-element(a)",
       "get_tuple_element without an index" + dash + "index = N, got none"},
      {"  a = f32[2,3] parameter(0)\n  b = f32[4,5] parameter(1)\n",
       "dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
       "the shape of dot cannot be inferred" + dash +
           "batch and contracting dimensions of equal sizes in f32[2,3] and f32[4,5], got "
           "lhs_batch_dims={}, lhs_contracting_dims={1}, rhs_batch_dims={}, "
           "rhs_contracting_dims={0}"},
      {"  a = f32[2,3] parameter(0)\n  b = f32[3,5] parameter(1)\n",
       "dot(a, b), lhs_contracting_dims={2}, rhs_contracting_dims={0}",
       "the shape of dot cannot be inferred" + dash +
           "distinct dimension numbers within the ranks of f32[2,3] and f32[3,5], got "
           "lhs_batch_dims={}, lhs_contracting_dims={2}, rhs_batch_dims={}, "
           "rhs_contracting_dims={0}"},
      {"  a = f32[2,8] parameter(0)\n  b = f32[8,3] parameter(1)\n  s = u16[2,1] parameter(2)\n",
       "dot(a, b, s), lhs_contracting_dims={1}, rhs_contracting_dims={0}, sparsity=L.1@2:4",
       "the shape of dot cannot be inferred" + dash +
           "a shape before the opcode for a sparse dot, got sparsity=L.1@2:4"},
      {"  a = f32[4] parameter(0)\n  z = f32[] parameter(1)\n", "pad(a, z), padding=0_0x1_1",
       "the shape of pad cannot be inferred" + dash +
           "padding for each of the 1 dimensions of f32[4], got padding=0_0x1_1"},
      {"  a = f32[4] parameter(0)\n  z = f32[] parameter(1)\n", "pad(a, z), padding=-3_-2",
       "the shape of pad cannot be inferred" + dash +
           "padded sizes from 0 to 2^50, got dimension 0 padded by -3_-2"},
      {"  a = f32[4] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce-window(a, z), window={size=2 pad=-5_0}, to_apply=add_f32",
       "the shape of reduce-window cannot be inferred" + dash +
           "a window whose padded size is from 0 to 2^61 in every dimension, got a padded size of "
           "-1 in dimension 0"},
      {"  a = f32[4] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce-window(a, z), to_apply=add_f32",
       "the shape of reduce-window cannot be inferred" + dash +
           "window={size=...} with 1 dimensions, got no window attribute"},
      {"  a = f32[4] parameter(0)\n  z = f32[] parameter(1)\n",
       "reduce-window(a, z), window={size=0}, to_apply=add_f32",
       "the shape of reduce-window cannot be inferred" + dash +
           "a window of positive sizes, strides and dilations (at most 2^50), got window={size=0}"},
      {"  a = f32[3] parameter(0)\n", "broadcast(a)",
       "broadcast needs its broadcast dimensions" + dash +
           "the broadcast dimensions attribute, got none"},
      {"  a = f32[3] parameter(0)\n", "call(a), to_apply=add_f32",
       "the shape of call cannot be inferred" + dash +
           "to_apply taking 1 parameter, got add_f32 taking 2"},
      {"  a = f32[3] parameter(0)\n  b = f32[3] parameter(1)\n", "call(a, b), to_apply=add_f32",
       "the shape of call cannot be inferred" + dash +
           "to_apply parameter 0 of the operand's shape f32[3], got add_f32 taking f32[]"},
      {"  b = f32[] parameter(0)\n  a = f32[3] parameter(1)\n",
       "conditional(b, a, a), true_computation=add_f32, false_computation=add_f32",
       "the shape of conditional cannot be inferred" + dash +
           "a pred[] or s32[] branch index, got f32[]"},
      {"  x = f32[1,8,8,3] parameter(0)\n  k = f32[3,3,4,8] parameter(1)\n",
       "convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f",
       "the shape of convolution cannot be inferred" + dash +
           "input features = feature_group_count x kernel input features, got f32[1,8,8,3] and "
           "f32[3,3,4,8]: 3 input features, 4 kernel input features, feature_group_count=1"},
      {"  x = f32[1,8,8,3] parameter(0)\n  k = f32[3,3,3,8] parameter(1)\n",
       "convolution(x, k), dim_labels=b01f_01io->b01f",
       "the shape of convolution cannot be inferred" + dash +
           "window={size=...} with 2 dimensions, got no window attribute"},
      {"  p = f32[3,8] parameter(0)\n", "fft(p), fft_type=RFFT, fft_length={9}",
       "the shape of fft cannot be inferred" + dash +
           "innermost dimensions equal to fft_length, got f32[3,8] with fft_length={9}"},
      {"  p = f32[3,8] parameter(0)\n", "fft(p), fft_type=DCT, fft_length={8}",
       "bad fft type" + dash + "FFT, IFFT, RFFT or IRFFT, got DCT"},
  }));
  const std::string text = with_computations(params, instruction);
  const int line =
      static_cast<int>(std::count(text.begin(), text.end(), '\n')) - 1;  // the ROOT line
  CHECK(error_of(text) == std::to_string(line) + ":3: error: " + message);
}

TEST_CASE("a cycle of shapeless instructions is an error, not a hang", "[hlo][infer]") {
  const std::string within =
      "HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  a = add(b, p)\n  ROOT b = "
      "negate(a)\n}\n";
  CHECK(error_of(within) ==
        "4:3: error: the shape of add cannot be inferred \xE2\x80\x94 expected shapes that do not "
        "depend on themselves, "
        "got a cycle a \xE2\x86\x92 b \xE2\x86\x92 a");
  const std::string recursive =
      "HloModule m\nf {\n  p = f32[2] parameter(0)\n  ROOT c = call(p), to_apply=f\n}\n"
      "ENTRY e {\n  p = f32[2] parameter(0)\n  ROOT c = call(p), to_apply=f\n}\n";
  CHECK(error_of(recursive) ==
        "4:3: error: the shape of call cannot be inferred \xE2\x80\x94 expected shapes that do not "
        "depend on themselves, "
        "got a cycle c \xE2\x86\x92 c");
}

TEST_CASE("a callee whose result cannot be inferred makes its caller fail, naming both",
          "[hlo][infer]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[2,3] parameter(0)\n"
      "  ROOT c = call(p), to_apply=flat\n"
      "}\n"
      "flat {\n"
      "  x = f32[2,3] parameter(0)\n"
      "  ROOT y = reshape(x)\n"
      "}\n";
  CHECK(error_of(text) ==
        "8:3: error: the shape of reshape cannot be inferred \xE2\x80\x94 expected a shape before "
        "the opcode, got reshape "
        "without a shape (the result of computation flat, needed by call at 4:3)");
}

TEST_CASE(
    "every prefix and every byte flip of a module of shapeless instructions gives a result or an "
    "error",
    "[hlo][infer]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[8,16] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  r = reduce(p, z), dimensions={0}, to_apply=add\n"
      "  w = reduce-window(p, z), window={size=2x3 stride=2x1 pad=1_0x0_2}, to_apply=add\n"
      "  g = pad(w, z), padding=1_2_1x0_0\n"
      "  t = transpose(g), dimensions={1,0}\n"
      "  d = dot(t, g), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  b = broadcast(r), dimensions={3}\n"
      "  c = concatenate(b, b), dimensions={0}\n"
      "  ROOT o = tuple(d, c, r)\n"
      "}\n"
      "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = add(x, y)\n}\n";
  auto whole = parse_hlo(text);
  INFO((whole.ok() ? "" : whole.error()));
  REQUIRE(whole.ok());
  // w: [(1+8+0-2)/2+1, (0+16+2-3)/1+1] = [4,16]; g: [4+1+2+3·1, 16] = [10,16]; t: [16,10];
  // d: [16,16]; b: [3,16] (broadcast's dimensions as sizes); c: [3+3,16]
  CHECK(type_of(whole.value(), "o") == "(f32[16,16], f32[6,16], f32[16])");
  int errors = 0;
  for (std::size_t n = 0; n < text.size(); ++n)
    if (!parse_hlo(text.substr(0, n)).ok()) ++errors;
  for (std::size_t i = 0; i < text.size(); ++i)
    for (char c : {'0', '9', 'x', ',', '}', '-'}) {
      std::string t = text;
      t[i] = c;
      auto r = parse_hlo(t);  // must return
      if (!r.ok()) {
        ++errors;
        CHECK(r.error_info().line > 0);
      }
    }
  CHECK(errors > 0);
}

// ---- the corpus ---------------------------------------------------------------------------

namespace {

// The HLO opcodes whose shape XLA infers (hlo_parser.cc CanInferShape), except broadcast: its
// printed result sizes are not in the text (XLA's inference reads `dimensions` as sizes).
const std::set<std::string> kInferable = {"abs",
                                          "add",
                                          "add-dependency",
                                          "after-all",
                                          "and",
                                          "atan2",
                                          "batch-norm-grad",
                                          "batch-norm-inference",
                                          "batch-norm-training",
                                          "call",
                                          "cbrt",
                                          "ceil",
                                          "cholesky",
                                          "clamp",
                                          "clz",
                                          "compare",
                                          "complex",
                                          "concatenate",
                                          "conditional",
                                          "convolution",
                                          "copy",
                                          "cosine",
                                          "divide",
                                          "domain",
                                          "dot",
                                          "erf",
                                          "exponential",
                                          "exponential-minus-one",
                                          "fft",
                                          "floor",
                                          "gather",
                                          "get-dimension-size",
                                          "get-tuple-element",
                                          "imag",
                                          "is-finite",
                                          "log",
                                          "log-plus-one",
                                          "logistic",
                                          "map",
                                          "maximum",
                                          "minimum",
                                          "multiply",
                                          "negate",
                                          "not",
                                          "opt-barrier",
                                          "or",
                                          "pad",
                                          "partition-id",
                                          "popcnt",
                                          "power",
                                          "real",
                                          "reduce",
                                          "reduce-window",
                                          "remainder",
                                          "replica-id",
                                          "reverse",
                                          "round-nearest-afz",
                                          "round-nearest-even",
                                          "rsqrt",
                                          "scatter",
                                          "select",
                                          "select-and-scatter",
                                          "set-dimension-size",
                                          "shift-left",
                                          "shift-right-arithmetic",
                                          "shift-right-logical",
                                          "sign",
                                          "sine",
                                          "sort",
                                          "sqrt",
                                          "subtract",
                                          "tan",
                                          "tanh",
                                          "transpose",
                                          "triangular-solve",
                                          "tuple",
                                          "while",
                                          "xor"};

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
         c == '$';
}

// In a line `[ROOT] name = SHAPE opcode(...`: where the instruction, SHAPE and the opcode
// start; false when the line is not an instruction with a written shape.
bool split_instruction(const std::string& line, std::size_t* start, std::size_t* shape_at,
                       std::size_t* opcode_at, std::string* opcode) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line.compare(i, 2, "//") == 0) return false;
  *start = i;
  if (line.compare(i, 5, "ROOT ") == 0) i = line.find_first_not_of(" \t", i + 5);
  if (i < line.size() && line[i] == '%') ++i;
  const std::size_t name_at = i;
  while (i < line.size() && name_char(line[i])) ++i;
  if (i == name_at) return false;
  i = line.find_first_not_of(" \t", i);
  if (i == std::string::npos || line[i] != '=') return false;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos) return false;
  *shape_at = i;
  auto skip_group = [&](char open, char close) {  // from line[i] == open, past its closer
    int depth = 0;
    for (; i < line.size(); ++i) {
      if (line[i] == open) ++depth;
      if (line[i] == close && --depth == 0) {
        ++i;
        return true;
      }
    }
    return false;
  };
  if (line[i] == '(') {
    if (!skip_group('(', ')')) return false;
  } else {
    while (i < line.size() && std::isalnum(static_cast<unsigned char>(line[i]))) ++i;
    if (i == *shape_at || i >= line.size() || line[i] != '[' || !skip_group('[', ']')) return false;
    if (i < line.size() && line[i] == '{' && !skip_group('{', '}')) return false;
  }
  i = line.find_first_not_of(" \t", i);
  if (i == std::string::npos) return false;
  *opcode_at = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '-'))
    ++i;
  if (i >= line.size() || line[i] != '(') return false;
  *opcode = line.substr(*opcode_at, i - *opcode_at);
  return true;
}

// Every computation named by a call, loop, conditional, reduction, ... is in the module.
bool calls_defined(const Module& m) {
  for (const Function& f : m.functions)
    for (const auto& b : f.body.blocks)
      for (const auto& op : b.ops)
        for (const Attribute& a : f.attributes(op)) {
          static const std::set<std::string> kCallers = {"to_apply",
                                                         "calls",
                                                         "body",
                                                         "condition",
                                                         "true_computation",
                                                         "false_computation",
                                                         "branch_computations",
                                                         "select",
                                                         "scatter"};
          if (!kCallers.count(std::string(a.name))) continue;
          std::string list(a.value);
          for (char& c : list)
            if (c == '{' || c == '}' || c == ',' || c == '%') c = ' ';
          std::istringstream names(list);
          std::string name;
          while (names >> name)
            if (!m.find(name)) return false;
        }
  return true;
}

using Place = std::pair<int, int>;  // an instruction's line and column

// Instruction types by where the instructions start (deleting a shape moves neither).
std::map<Place, std::string> types_by_place(const std::vector<Module>& modules) {
  std::map<Place, std::string> out;
  for (const Module& m : modules)
    for (const Function& f : m.functions)
      for (const auto& b : f.body.blocks)
        for (const auto& op : b.ops)
          if (op.results.count) out[{op.line, op.column}] = m.value_type(f, f.results(op)[0]).text;
  return out;
}

}  // namespace

TEST_CASE("every inferable HLO corpus instruction, its shape deleted, gets back the shape written",
          "[hlo][infer][corpus]") {
  SKIP_WITHOUT_CORPUS("hlo");
  const std::string dir = rl::testing::corpus_dir() + "/hlo";
  const auto files = rl::testing::list_files(dir, ".hlo");
  REQUIRE(!files.empty());
  int checked = 0, agreeing = 0, preferred = 0, skipped_modules = 0;
  std::map<std::string, int> by_opcode, preferred_kinds;
  std::string failures;
  for (const auto& file : files) {
    const std::string text = rl::testing::read_file(dir + "/" + file);
    auto original = parse_hlo(text);
    if (!original.ok()) {
      failures += file + ": the original does not parse: " + original.error() + "\n";
      continue;
    }
    // Only modules that verify as written, and define every computation they call, are used;
    // each covers its lines up to the next one.
    std::vector<std::pair<int, bool>> module_lines;  // (first line, used)
    for (const Module& m : original.value()) {
      const bool ok = verify(m).ok() && calls_defined(m);
      if (!ok) ++skipped_modules;
      module_lines.push_back({m.line, ok});
    }
    std::string edited;
    std::map<Place, std::string> deleted;  // where → opcode
    std::size_t at = 0;
    int line_no = 0;
    std::size_t module = 0;
    while (at < text.size()) {
      std::size_t end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(at, end - at);
      ++line_no;
      while (module + 1 < module_lines.size() && line_no >= module_lines[module + 1].first)
        ++module;
      std::string opcode;
      std::size_t start = 0, shape_at = 0, opcode_at = 0;
      if (!module_lines.empty() && module_lines[module].second &&
          split_instruction(line, &start, &shape_at, &opcode_at, &opcode) &&
          kInferable.count(opcode)) {
        line.erase(shape_at, opcode_at - shape_at);
        deleted[{line_no, static_cast<int>(start) + 1}] = opcode;
        ++by_opcode[opcode];
      }
      edited += line;
      if (end < text.size()) edited += '\n';
      at = end + 1;
    }
    if (deleted.empty()) continue;
    auto reparsed = parse_hlo(edited);
    if (!reparsed.ok()) {
      failures += file + ": " + reparsed.error() + "\n";
      checked += static_cast<int>(deleted.size());
      continue;
    }
    const auto written = types_by_place(original.value());
    const auto inferred_types = types_by_place(reparsed.value());
    for (const auto& [key, opcode] : deleted) {
      ++checked;
      auto w = written.find(key);
      auto i = inferred_types.find(key);
      const std::string w_text = w == written.end() ? "?" : w->second,
                        i_text = i == inferred_types.end() ? "?" : i->second;
      if (w_text == i_text) {
        ++agreeing;
        continue;
      }
      // A dot's or convolution's result element type may be a preferred_element_type the text
      // does not carry (XLA's parser infers them without one): the dimensions must agree.
      const auto dims = [](const std::string& t) {
        return t.substr(std::min(t.find('['), t.size()));
      };
      if ((opcode == "dot" || opcode == "convolution") && dims(w_text) == dims(i_text) &&
          w_text != "?") {
        ++preferred;
        ++preferred_kinds[opcode + " " + w_text.substr(0, w_text.find('[')) + " (inferred " +
                          i_text.substr(0, i_text.find('[')) + ")"];
        continue;
      }
      failures += file + ":" + std::to_string(key.first) + ":" + std::to_string(key.second) + ": " +
                  opcode + " written " + w_text + ", inferred " + i_text + "\n";
    }
  }
  std::string opcodes, kinds;
  for (const auto& [op, n] : by_opcode) opcodes += op + " " + std::to_string(n) + ", ";
  for (const auto& [kind, n] : preferred_kinds) kinds += kind + " x" + std::to_string(n) + ", ";
  INFO(failures.substr(0, 20000));
  CHECK(checked > 5000);
  CHECK(agreeing + preferred == checked);
  WARN("HLO corpus shape inference: "
       << checked << " instructions with their shape deleted, " << agreeing
       << " inferred as written, " << preferred
       << " dots and convolutions with the written dimensions and another (preferred) "
          "element type ("
       << kinds << "); " << skipped_modules
       << " modules that do not verify or call missing computations left as they are; "
          "by opcode: "
       << opcodes);
}

TEST_CASE("an HLO instruction written with a shape must have the shape its rule infers",
          "[hlo][infer][verify]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  // (parameters, instruction as written, the verifier's error)
  auto [params, instruction, message] = GENERATE(table<std::string, std::string, std::string>({
      // reverse keeps its operand's shape
      Row{"  p = f32[2,3] parameter(0)\n", "f32[3,2] reverse(p), dimensions={0}",
          "5:3: error: reverse's written shape differs from the one its operands give \xE2\x80\x94 "
          "expected "
          "f32[2,3] (XLA's shape inference), got f32[3,2]"},
      // pad: low + size + high (+ interior) per dimension: 1 + 2 + 1 = 4, 3
      Row{"  p = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n",
          "f32[4,4] pad(p, z), padding=1_1x0_0",
          "6:3: error: pad's written shape differs from the one its operands give \xE2\x80\x94 "
          "expected "
          "f32[4,3] (XLA's shape inference), got f32[4,4]"},
      // compare gives pred
      Row{"  p = f32[2] parameter(0)\n", "f32[2] compare(p, p), direction=LT",
          "5:3: error: compare's written shape differs from the one its operands give \xE2\x80\x94 "
          "expected "
          "pred[2] (XLA's shape inference), got f32[2]"},
  }));
  const std::string text = entry(params, instruction);
  auto parsed = parse_hlo(text);
  INFO(text << (parsed.ok() ? std::string() : parsed.error()));
  REQUIRE(parsed.ok());
  auto v = verify(parsed->front());
  REQUIRE_FALSE(v.ok());
  CHECK(v.error() == message);
}

TEST_CASE(
    "HLO instructions written with the inferred shape pass, dynamic and bounded sizes included",
    "[hlo][infer][verify]") {
  auto parsed = parse_hlo(entry("  p = f32[2,<=5] parameter(0)\n  z = f32[] parameter(1)\n",
                                "f32[4,<=5] pad(p, z), padding=1_1x0_0"));
  REQUIRE(parsed.ok());
  auto v = verify(parsed->front());
  INFO((v.ok() ? "" : v.error()));
  CHECK(v.ok());
}
