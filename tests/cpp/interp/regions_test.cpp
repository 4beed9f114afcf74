// Ops with region bodies against hand-computed values: reduce, reduce_window, select_and_scatter,
// scatter, sort, chlo.top_k and map, each through its native path (a recognized body) and its
// evaluated path (any other body), with the edge cases: integer wrap, NaN in max/min, −0,
// f16/bf16 rounding, padding and dilation, scatter windows outside the operand, stable sorts,
// ties, empty tensors, bad attributes, the time budget; and both dialects.
#include <cmath>
#include <cstring>
#include <limits>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using Catch::Matchers::Contains;
using rl::testing::as_doubles;
using rl::testing::main_of;
using rl::testing::run_ok;
using rl::testing::run_text;

namespace {

using V = std::vector<double>;

// A two-argument body `^bb0(%a, %b)` of element type `e` applying `op` (one op, or several lines).
std::string body2(const std::string& e, const std::string& lines) {
  return "  ^bb0(%a: tensor<" + e + ">, %b: tensor<" + e + ">):\n" + lines;
}
std::string one_op(const std::string& op, const std::string& e) {
  return body2(e, "    %r = " + op + " %a, %b : tensor<" + e +
                      ">\n    stablehlo.return %r : tensor<" + e + ">\n");
}

// reduce of one input over `dims` with `body`.
std::string reduce_text(const std::string& e, const std::string& in_type, const std::string& x,
                        const std::string& init, const std::string& dims,
                        const std::string& out_type, const std::string& body) {
  return main_of(out_type, "  %x = stablehlo.constant dense<" + x + "> : " + in_type +
                               "\n"
                               "  %z = stablehlo.constant dense<" +
                               init + "> : tensor<" + e +
                               ">\n"
                               "  %r = \"stablehlo.reduce\"(%x, %z) <{dimensions = array<i64: " +
                               dims + ">}> ({\n" + body + "  }) : (" + in_type + ", tensor<" + e +
                               ">) -> " + out_type +
                               "\n"
                               "  return %r : " +
                               out_type + "\n");
}

V reduce_values(const std::string& op, const std::string& e, const std::string& in_type,
                const std::string& x, const std::string& init, const std::string& dims,
                const std::string& out_type) {
  return as_doubles(run_ok(reduce_text(e, in_type, x, init, dims, out_type, one_op(op, e))));
}

// The same reduction through the evaluated path: the op, then `op(r, identity)` in the body.
V reduce_values_evaluated(const std::string& op, const std::string& e, const std::string& in_type,
                          const std::string& x, const std::string& init, const std::string& dims,
                          const std::string& out_type, const std::string& identity) {
  const std::string body = body2(e, "    %s = " + op + " %a, %b : tensor<" + e +
                                        ">\n"
                                        "    %i = stablehlo.constant dense<" +
                                        identity + "> : tensor<" + e +
                                        ">\n"
                                        "    %r = " +
                                        op + " %s, %i : tensor<" + e +
                                        ">\n"
                                        "    stablehlo.return %r : tensor<" +
                                        e + ">\n");
  return as_doubles(run_ok(reduce_text(e, in_type, x, init, dims, out_type, body)));
}

}  // namespace

// ---- reduce
// ------------------------------------------------------------------------------------------

TEST_CASE(
    "reduce sums, multiplies, takes max and min over any dimensions, natively and evaluated alike",
    "[interp][regions]") {
  const std::string x = "[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]";
  // init 10: rows 10+1+2+3 = 16, 10+4+5+6 = 25; columns 10+1+4, 10+2+5, 10+3+6; all 10+21.
  CHECK(reduce_values("stablehlo.add", "f32", "tensor<2x3xf32>", x, "10.0", "1", "tensor<2xf32>") ==
        V{16, 25});
  CHECK(reduce_values("stablehlo.add", "f32", "tensor<2x3xf32>", x, "10.0", "0", "tensor<3xf32>") ==
        V{15, 17, 19});
  CHECK(reduce_values("stablehlo.add", "f32", "tensor<2x3xf32>", x, "10.0", "0, 1",
                      "tensor<f32>") == V{31});
  CHECK(reduce_values("stablehlo.add", "f32", "tensor<2x3xf32>", x, "10.0", "",
                      "tensor<2x3xf32>") == V{11, 12, 13, 14, 15, 16});
  CHECK(reduce_values_evaluated("stablehlo.add", "f32", "tensor<2x3xf32>", x, "10.0", "1",
                                "tensor<2xf32>", "0.0") == V{16, 25});
  CHECK(reduce_values_evaluated("stablehlo.add", "f32", "tensor<2x3xf32>", x, "10.0", "0",
                                "tensor<3xf32>", "0.0") == V{15, 17, 19});
  // 1·2·3 = 6, 4·5·6 = 120; max of columns 4, 5, 6; min of everything with init 0: 0.
  CHECK(reduce_values("stablehlo.multiply", "f32", "tensor<2x3xf32>", x, "1.0", "1",
                      "tensor<2xf32>") == V{6, 120});
  CHECK(reduce_values("stablehlo.maximum", "f32", "tensor<2x3xf32>", x, "0xFF800000", "0",
                      "tensor<3xf32>") == V{4, 5, 6});
  CHECK(reduce_values("stablehlo.minimum", "f32", "tensor<2x3xf32>", x, "0.0", "0, 1",
                      "tensor<f32>") == V{0});
  CHECK(reduce_values_evaluated("stablehlo.maximum", "f32", "tensor<2x3xf32>", x, "0xFF800000", "0",
                                "tensor<3xf32>", "0xFF800000") == V{4, 5, 6});
  // Over the middle dimension of 2x2x2 (0..7): [0+2, 1+3, 4+6, 5+7].
  CHECK(reduce_values("stablehlo.add", "i32", "tensor<2x2x2xi32>",
                      "[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]", "0", "1",
                      "tensor<2x2xi32>") == V{2, 4, 10, 12});
}

TEST_CASE(
    "reduce wraps integers, propagates NaN through max and min, and keeps -0 in long float sums",
    "[interp][regions]") {
  // 100 + 100 + 100 = 300 = 44 mod 256 (i8); 16 · 16 = 256 = 0 (ui8); INT64_MAX + 1 wraps to
  // INT64_MIN.
  CHECK(reduce_values("stablehlo.add", "i8", "tensor<3xi8>", "[100, 100, 100]", "0", "0",
                      "tensor<i8>") == V{44});
  CHECK(reduce_values_evaluated("stablehlo.add", "i8", "tensor<3xi8>", "[100, 100, 100]", "0", "0",
                                "tensor<i8>", "0") == V{44});
  CHECK(reduce_values("stablehlo.multiply", "ui8", "tensor<2xui8>", "[16, 16]", "1", "0",
                      "tensor<ui8>") == V{0});
  auto wrapped = run_ok(reduce_text("i64", "tensor<2xi64>", "[9223372036854775807, 1]", "0", "0",
                                    "tensor<i64>", one_op("stablehlo.add", "i64")));
  CHECK(wrapped.values[0].tensor.as<std::int64_t>()[0] == std::numeric_limits<std::int64_t>::min());
  auto mx = reduce_values("stablehlo.maximum", "f32", "tensor<2x3xf32>",
                          "[[1.0, 0x7FC00000, 3.0], [4.0, 5.0, 0x7FC00000]]", "0xFF800000", "1",
                          "tensor<2xf32>");
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  auto mn =
      reduce_values("stablehlo.minimum", "f64", "tensor<3xf64>", "[0x7FF8000000000000, -1.0, 2.0]",
                    "0x7FF0000000000000", "0", "tensor<f64>");
  CHECK(std::isnan(mn[0]));
  // 40 halves sum to 20 exactly (lane-wise); 40 negative zeros with init -0 stay -0.
  std::string halves, zeros;
  for (int i = 0; i < 40; ++i) {
    halves += std::string(i ? ", " : "") + "0.5";
    zeros += std::string(i ? ", " : "") + "-0.0";
  }
  CHECK(reduce_values("stablehlo.add", "f32", "tensor<40xf32>", "[" + halves + "]", "0.0", "0",
                      "tensor<f32>") == V{20});
  auto z = reduce_values("stablehlo.add", "f32", "tensor<40xf32>", "[" + zeros + "]", "-0.0", "0",
                         "tensor<f32>");
  CHECK(z[0] == 0);
  CHECK(std::signbit(z[0]));
}

TEST_CASE("reduce's max and min of two NaNs give the first NaN met, quieted, on the bits",
          "[interp][regions]") {
  // f16 from -inf over a signalling NaN (0x7C01) and then a negative NaN (0xFC02): the first NaN
  // comes out with its quiet bit set (0x7E01), never the second, whatever the compiler would make
  // of a + b.
  for (const char* op : {"stablehlo.maximum", "stablehlo.minimum"}) {
    INFO(op);
    auto r = run_ok(reduce_text("f16", "tensor<2xf16>", "[0x7C01, 0xFC02]", "0xFC00", "0",
                                "tensor<f16>", one_op(op, "f16")));
    CHECK(r.values[0].tensor.as<std::uint16_t>()[0] == 0x7E01);
  }
}

TEST_CASE(
    "every element type reduces and pools to the same values, whether its combiner is compiled for "
    "it or evaluated",
    "[interp][regions]") {
  // Arithmetic combiners are compiled for pred, s32, s64, f16, bf16, f32 and f64; the other types
  // run the same one-op body through the evaluator. Both give the op's values: 1 + 2 + 3 = 6,
  // max 3; 100 + 100 + 100 wraps to 44 in ui8 and i8 (300 - 256).
  for (const char* e : {"i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16",
                        "f32", "f64", "complex<f32>", "complex<f64>"}) {
    INFO(e);
    const bool complex = std::string(e).rfind("complex", 0) == 0;
    const std::string t = std::string("tensor<3x") + e + ">", s = std::string("tensor<") + e + ">";
    const std::string x = complex ? "[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)]" : "[1, 2, 3]";
    const std::string zero = complex ? "(0.0, 0.0)" : "0";
    CHECK(reduce_values("stablehlo.add", e, t, x, zero, "0", s) == V{6});
    CHECK(reduce_values_evaluated("stablehlo.add", e, t, x, zero, "0", s, zero) == V{6});
    if (!complex) CHECK(reduce_values("stablehlo.maximum", e, t, x, "0", "0", s) == V{3});
  }
  for (const char* e : {"i8", "ui8"}) {
    INFO(e);
    const std::string t = std::string("tensor<2x") + e + ">", s = std::string("tensor<") + e + ">";
    CHECK(reduce_values("stablehlo.add", e, t, "[100, 100]", "100", "0", s) == V{44});
  }
  // reduce_window: max over windows of 2 of ui16 [5, 1, 7, 2] = [5, 7, 7].
  const std::string rw = main_of(
      "tensor<3xui16>",
      "  %x = stablehlo.constant dense<[5, 1, 7, 2]> : tensor<4xui16>\n"
      "  %z = stablehlo.constant dense<0> : tensor<ui16>\n"
      "  %r = \"stablehlo.reduce_window\"(%x, %z) <{window_dimensions = array<i64: 2>}> ({\n" +
          one_op("stablehlo.maximum", "ui16") +
          "  }) : (tensor<4xui16>, tensor<ui16>) -> tensor<3xui16>\n"
          "  return %r : tensor<3xui16>\n");
  CHECK(as_doubles(run_ok(rw)) == V{5, 7, 7});
}

TEST_CASE(
    "reduce rounds bf16 after each step, reduces booleans and complex numbers, and an empty input "
    "gives the init",
    "[interp][regions]") {
  // bf16 has 8 significant bits: 256 + 1 = 257 rounds to 256 (ties to even), again for the next 1.
  CHECK(reduce_values("stablehlo.add", "bf16", "tensor<3xbf16>", "[256.0, 1.0, 1.0]", "0.0", "0",
                      "tensor<bf16>") == V{256});
  CHECK(reduce_values("stablehlo.add", "f16", "tensor<3xf16>", "[2048.0, 1.0, 1.0]", "0.0", "0",
                      "tensor<f16>") == V{2048});
  // Rows [true, false], [false, false]: or → [1, 0]; and → [0, 0]; columns and with init true → [0,
  // 0].
  const std::string p = "[[true, false], [false, false]]";
  CHECK(reduce_values("stablehlo.or", "i1", "tensor<2x2xi1>", p, "false", "1", "tensor<2xi1>") ==
        V{1, 0});
  CHECK(reduce_values("stablehlo.and", "i1", "tensor<2x2xi1>", p, "true", "0", "tensor<2xi1>") ==
        V{0, 0});
  CHECK(reduce_values("stablehlo.xor", "ui32", "tensor<3xui32>", "[1, 3, 4]", "0", "0",
                      "tensor<ui32>") == V{1 ^ 3 ^ 4});
  auto cx = run_ok(reduce_text("complex<f32>", "tensor<2xcomplex<f32>>", "[(1.0, 2.0), (3.0, 4.0)]",
                               "(0.0, 0.0)", "0", "tensor<complex<f32>>",
                               one_op("stablehlo.add", "complex<f32>")));
  CHECK(rl::testing::as_complex(cx) == std::vector<std::complex<double>>{{4, 6}});
  CHECK(reduce_values("stablehlo.add", "f32", "tensor<0x3xf32>", "", "5.0", "0", "tensor<3xf32>") ==
        V{5, 5, 5});
}

TEST_CASE("a variadic reduce evaluates its body per element: argmax takes the lower index on ties",
          "[interp][regions]") {
  // The body JAX emits for argmax, block arguments (value acc, index acc, value, index).
  const std::string text = main_of(
      "(tensor<f32>, tensor<i32>)",
      "  %v = stablehlo.constant dense<[3.0, 7.0, 7.0, 1.0]> : tensor<4xf32>\n"
      "  %i = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>\n"
      "  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %w = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.reduce(%v init: %z), (%i init: %w) across dimensions = [0] : "
      "(tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
      "   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {\n"
      "    %0 = stablehlo.compare  GT, %a, %c,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %1 = stablehlo.compare  NE, %a, %a,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %2 = stablehlo.or %0, %1 : tensor<i1>\n"
      "    %3 = stablehlo.compare  EQ, %a, %c,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %4 = stablehlo.compare  LT, %b, %d,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    %5 = stablehlo.and %3, %4 : tensor<i1>\n"
      "    %6 = stablehlo.or %2, %5 : tensor<i1>\n"
      "    %7 = stablehlo.select %2, %a, %c : tensor<i1>, tensor<f32>\n"
      "    %8 = stablehlo.select %6, %b, %d : tensor<i1>, tensor<i32>\n"
      "    stablehlo.return %7, %8 : tensor<f32>, tensor<i32>\n"
      "  }\n"
      "  return %r#0, %r#1 : tensor<f32>, tensor<i32>\n");
  auto r = run_ok(text);
  CHECK(as_doubles(r, 0) == V{7});
  CHECK(as_doubles(r, 1) == V{1});
}

namespace {

// JAX's argmax (GT) / argmin (LT) over the last dimension of `x`, indices from `idx`;
// `swapped` writes the strict compare as compare(x, v) with the opposite direction (the same
// function, a shape the recognizer leaves to the evaluator).
std::string arg_text(const std::string& dir, const std::string& e, const std::string& x_type,
                     const std::string& x, const std::string& i_elem, const std::string& i_type,
                     const std::string& idx, const std::string& init, const std::string& dims,
                     const std::string& out_dims, bool swapped) {
  const std::string ct = e[0] == 'f' ? "FLOAT" : (e[0] == 'u' || e == "i1") ? "UNSIGNED" : "SIGNED";
  const std::string odir = dir == "GT" ? "LT" : "GT";
  const std::string vt = "tensor<" + out_dims + e + ">", it = "tensor<" + out_dims + i_elem + ">";
  return main_of("(" + vt + ", " + it + ")",
                 "  %v = stablehlo.constant dense<" + x + "> : " + x_type +
                     "\n"
                     "  %i = stablehlo.constant dense<" +
                     idx + "> : " + i_type +
                     "\n"
                     "  %z = stablehlo.constant dense<" +
                     init + "> : tensor<" + e +
                     ">\n"
                     "  %w = stablehlo.constant dense<0> : tensor<" +
                     i_elem +
                     ">\n"
                     "  %r:2 = stablehlo.reduce(%v init: %z), (%i init: %w) across dimensions = [" +
                     dims + "] : (" + x_type + ", " + i_type + ", tensor<" + e + ">, tensor<" +
                     i_elem + ">) -> (" + vt + ", " + it +
                     ")\n"
                     "   reducer(%a: tensor<" +
                     e + ">, %c: tensor<" + e + ">) (%b: tensor<" + i_elem + ">, %d: tensor<" +
                     i_elem + ">)  {\n" +
                     (swapped ? "    %0 = stablehlo.compare " + odir + ", %c, %a, " + ct +
                                    " : (tensor<" + e + ">, tensor<" + e + ">) -> tensor<i1>\n"
                              : "    %0 = stablehlo.compare " + dir + ", %a, %c, " + ct +
                                    " : (tensor<" + e + ">, tensor<" + e + ">) -> tensor<i1>\n") +
                     "    %1 = stablehlo.compare NE, %a, %a, " + ct + " : (tensor<" + e +
                     ">, tensor<" + e +
                     ">) -> tensor<i1>\n"
                     "    %2 = stablehlo.or %0, %1 : tensor<i1>\n"
                     "    %3 = stablehlo.compare EQ, %a, %c, " +
                     ct + " : (tensor<" + e + ">, tensor<" + e +
                     ">) -> tensor<i1>\n"
                     "    %4 = stablehlo.compare LT, %b, %d, SIGNED : (tensor<" +
                     i_elem + ">, tensor<" + i_elem +
                     ">) -> tensor<i1>\n"
                     "    %5 = stablehlo.and %3, %4 : tensor<i1>\n"
                     "    %6 = stablehlo.or %2, %5 : tensor<i1>\n"
                     "    %7 = stablehlo.select %2, %a, %c : tensor<i1>, tensor<" +
                     e +
                     ">\n"
                     "    %8 = stablehlo.select %6, %b, %d : tensor<i1>, tensor<" +
                     i_elem +
                     ">\n"
                     "    stablehlo.return %7, %8 : tensor<" +
                     e + ">, tensor<" + i_elem +
                     ">\n"
                     "  }\n"
                     "  return %r#0, %r#1 : " +
                     vt + ", " + it + "\n");
}

}  // namespace

TEST_CASE(
    "JAX's argmax and argmin run natively and evaluated alike: the first NaN wins, ties take the "
    "lower index",
    "[interp][regions]") {
  for (bool swapped : {false, true}) {
    INFO((swapped ? "evaluated" : "native"));
    // [3, NaN, 7, NaN]: NaN at index 1 is kept (v != v) against everything after it.
    auto nan =
        run_ok(arg_text("GT", "f32", "tensor<4xf32>", "[3.0, 0x7FC00000, 7.0, 0x7FC00000]", "i32",
                        "tensor<4xi32>", "[0, 1, 2, 3]", "0xFF800000", "0", "", swapped));
    CHECK(std::isnan(as_doubles(nan, 0)[0]));
    CHECK(as_doubles(nan, 1) == V{1});
    // Rows [5, 1, 1, 9] and [2, 2, 8, 2] (i64 indices): argmin 1 (value 1) and 0 (value 2, the
    // lower of the ties).
    auto rows = run_ok(arg_text("LT", "i16", "tensor<2x4xi16>", "[[5, 1, 1, 9], [2, 2, 8, 2]]",
                                "i64", "tensor<2x4xi64>", "[[0, 1, 2, 3], [0, 1, 2, 3]]", "32767",
                                "1", "2x", swapped));
    CHECK(as_doubles(rows, 0) == V{1, 2});
    CHECK(as_doubles(rows, 1) == V{1, 0});
    // Booleans compare unsigned: argmax of [false, true, true] is 1.
    auto b = run_ok(arg_text("GT", "i1", "tensor<3xi1>", "[false, true, true]", "i32",
                             "tensor<3xi32>", "[0, 1, 2]", "false", "0", "", swapped));
    CHECK(as_doubles(b, 1) == V{1});
  }
}

TEST_CASE("reduce's compact form applies its op, and one that is no reducer is not run",
          "[interp][regions]") {
  auto r =
      run_ok(main_of("tensor<2xi32>",
                     "  %x = stablehlo.constant dense<[[1, -9, 4], [2, 8, -3]]> : tensor<2x3xi32>\n"
                     "  %z = stablehlo.constant dense<-2147483648> : tensor<i32>\n"
                     "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across "
                     "dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>\n"
                     "  return %r : tensor<2xi32>\n"));
  CHECK(as_doubles(r) == V{4, 8});
  const std::string bad = rl::testing::run_error(
      main_of("tensor<2xi32>",
              "  %x = stablehlo.constant dense<[[1, -9, 4], [2, 8, -3]]> : tensor<2x3xi32>\n"
              "  %z = stablehlo.constant dense<1> : tensor<i32>\n"
              "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.divide across dimensions = "
              "[1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>\n"
              "  return %r : tensor<2xi32>\n"));
  CHECK_THAT(bad, Contains("not run: stablehlo.reduce: reduce applying divide"));
}

TEST_CASE("reduce refuses dimensions out of range or twice, at the op's place",
          "[interp][regions]") {
  const std::string e =
      rl::testing::run_error(reduce_text("f32", "tensor<2xf32>", "[1.0, 2.0]", "0.0", "0, 0",
                                         "tensor<f32>", one_op("stablehlo.add", "f32")));
  CHECK_THAT(e, Contains("4:3: error"));
  CHECK_THAT(e, Contains("each dimension once"));
}

// ---- reduce_window
// --------------------------------------------------------------------------------------

namespace {

std::string reduce_window_text(const std::string& e, const std::string& in_type,
                               const std::string& x, const std::string& init,
                               const std::string& attrs, const std::string& out_type,
                               const std::string& body) {
  return main_of(out_type, "  %x = stablehlo.constant dense<" + x + "> : " + in_type +
                               "\n"
                               "  %z = stablehlo.constant dense<" +
                               init + "> : tensor<" + e +
                               ">\n"
                               "  %r = \"stablehlo.reduce_window\"(%x, %z) <{" +
                               attrs + "}> ({\n" + body + "  }) : (" + in_type + ", tensor<" + e +
                               ">) -> " + out_type +
                               "\n"
                               "  return %r : " +
                               out_type + "\n");
}

}  // namespace

TEST_CASE("a window as long as its padding is refused by the run's memory, not an allocation",
          "[interp][regions]") {
  // Valid (the verifier's window rule allows sizes and padding to 2^61): 5 windows of 2^40
  // elements. The window's rows come from the run's memory (Windows::plan): 8 TB is past any cap.
  const std::string e = rl::testing::run_error(reduce_window_text(
      "f32", "tensor<4xf32>", "[1.0, 2.0, 3.0, 4.0]", "0.0",
      "window_dimensions = array<i64: 1099511627776>, padding = dense<[[1099511627776, 0]]> : "
      "tensor<1x2xi64>",
      "tensor<5xf32>", one_op("stablehlo.add", "f32")));
  CHECK_THAT(e, Contains("stablehlo.reduce_window needs 8796093022208 bytes"));
}

TEST_CASE(
    "reduce_window pools with strides, pads with the init value, and dilates the base and the "
    "window",
    "[interp][regions]") {
  // 2x2 max pool, stride 2, over 0..15 in 4x4: [[5, 7], [13, 15]].
  auto pool = run_ok(reduce_window_text(
      "i32", "tensor<4x4xi32>", "[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]",
      "-2147483648", "window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>",
      "tensor<2x2xi32>", one_op("stablehlo.maximum", "i32")));
  CHECK(as_doubles(pool) == V{5, 7, 13, 15});
  // Padded [0 | 1 2 3 4 | 0], windows of 2: 1, 3, 5, 7, 4.
  auto padded = run_ok(reduce_window_text(
      "f32", "tensor<4xf32>", "[1.0, 2.0, 3.0, 4.0]", "0.0",
      "window_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>",
      "tensor<5xf32>", one_op("stablehlo.add", "f32")));
  CHECK(as_doubles(padded) == V{1, 3, 5, 7, 4});
  // Base dilation 2: [1 _ 2 _ 3] (holes hold the init 0), windows of 2: 1, 2, 2, 3.
  auto base =
      run_ok(reduce_window_text("f32", "tensor<3xf32>", "[1.0, 2.0, 3.0]", "0.0",
                                "window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>",
                                "tensor<4xf32>", one_op("stablehlo.add", "f32")));
  CHECK(as_doubles(base) == V{1, 2, 2, 3});
  // Window dilation 2 over 1..5: 1+3, 2+4, 3+5.
  auto dil = run_ok(
      reduce_window_text("f32", "tensor<5xf32>", "[1.0, 2.0, 3.0, 4.0, 5.0]", "0.0",
                         "window_dimensions = array<i64: 2>, window_dilations = array<i64: 2>",
                         "tensor<3xf32>", one_op("stablehlo.add", "f32")));
  CHECK(as_doubles(dil) == V{4, 6, 8});
  // The spec pads with the init value: init 10 over [10 | 1 2] gives 10+10+1 = 21 and 10+1+2 = 13.
  auto init = run_ok(reduce_window_text(
      "i32", "tensor<2xi32>", "[1, 2]", "10",
      "window_dimensions = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>",
      "tensor<2xi32>", one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(init) == V{21, 13});
  // A cumulative sum (window 3, padded 2 low), evaluated: 1, 3, 6, 9.
  const std::string eval_body = body2("ui16",
                                      "    %s = stablehlo.add %a, %b : tensor<ui16>\n"
                                      "    %m = stablehlo.multiply %s, %s : tensor<ui16>\n"
                                      "    stablehlo.return %s : tensor<ui16>\n");
  auto cum = run_ok(reduce_window_text(
      "ui16", "tensor<4xui16>", "[1, 2, 3, 4]", "0",
      "window_dimensions = array<i64: 3>, padding = dense<[[2, 0]]> : tensor<1x2xi64>",
      "tensor<4xui16>", eval_body));
  CHECK(as_doubles(cum) == V{1, 3, 6, 9});
}

TEST_CASE("a variadic reduce_window evaluates its body over every window, padding included",
          "[interp][regions]") {
  // Inputs [1, 2, 3] and [2, 3, 4], window 2 padded 1 low: sums of the first, products of the
  // second.
  const std::string text =
      main_of("(tensor<3xf32>, tensor<3xf32>)",
              "  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n"
              "  %y = stablehlo.constant dense<[2.0, 3.0, 4.0]> : tensor<3xf32>\n"
              "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
              "  %o = stablehlo.constant dense<1.0> : tensor<f32>\n"
              "  %r:2 = \"stablehlo.reduce_window\"(%x, %y, %z, %o) <{window_dimensions = "
              "array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>}> ({\n"
              "  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):\n"
              "    %s = stablehlo.add %a, %c : tensor<f32>\n"
              "    %p = stablehlo.multiply %b, %d : tensor<f32>\n"
              "    stablehlo.return %s, %p : tensor<f32>, tensor<f32>\n"
              "  }) : (tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, "
              "tensor<3xf32>)\n"
              "  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>\n");
  auto r = run_ok(text);
  CHECK(as_doubles(r, 0) == V{1, 3, 5});
  CHECK(as_doubles(r, 1) == V{2, 6, 12});
}

TEST_CASE("reduce_window refuses a result shape that does not match its windows",
          "[interp][regions]") {
  const std::string e = rl::testing::run_error(reduce_window_text(
      "f32", "tensor<4xf32>", "[1.0, 2.0, 3.0, 4.0]", "0.0", "window_dimensions = array<i64: 2>",
      "tensor<4xf32>", one_op("stablehlo.add", "f32")));
  // The verifier refuses it, before the run (the analyzer says the same).
  CHECK_THAT(e, Contains("4:3: error: stablehlo.reduce_window result 0 has the wrong type "
                         "\xE2\x80\x94 expected tensor<3xf32> (the window's output over input 0"));
}

// ---- select_and_scatter
// --------------------------------------------------------------------------------

namespace {

std::string select_and_scatter_text(const std::string& e, const std::string& x_type,
                                    const std::string& x, const std::string& s_type,
                                    const std::string& s, const std::string& init,
                                    const std::string& attrs, const std::string& select,
                                    const std::string& scatter) {
  return main_of(x_type, "  %x = stablehlo.constant dense<" + x + "> : " + x_type +
                             "\n"
                             "  %s = stablehlo.constant dense<" +
                             s + "> : " + s_type +
                             "\n"
                             "  %z = stablehlo.constant dense<" +
                             init + "> : tensor<" + e +
                             ">\n"
                             "  %r = \"stablehlo.select_and_scatter\"(%x, %s, %z) <{" +
                             attrs + "}> ({\n" + select + "  }, {\n" + scatter + "  }) : (" +
                             x_type + ", " + s_type + ", tensor<" + e + ">) -> " + x_type +
                             "\n"
                             "  return %r : " +
                             x_type + "\n");
}

std::string select_cmp(const std::string& dir, const std::string& e) {
  return body2(e, "    %r = stablehlo.compare " + dir + ", %a, %b, FLOAT : (tensor<" + e +
                      ">, tensor<" + e +
                      ">) -> tensor<i1>\n    stablehlo.return %r : tensor<i1>\n");
}

}  // namespace

TEST_CASE(
    "select_and_scatter adds each source element at its window's selection, first on ties with GE",
    "[interp][regions]") {
  // Windows of 2 over [1, 5, 3, 5, 2] select indices 1, 1, 3, 3: [0, 1+2, 0, 3+4, 0].
  const std::string x = "[1.0, 5.0, 3.0, 5.0, 2.0]";
  auto r = run_ok(select_and_scatter_text("f32", "tensor<5xf32>", x, "tensor<4xf32>",
                                          "[1.0, 2.0, 3.0, 4.0]", "0.0",
                                          "window_dimensions = array<i64: 2>",
                                          select_cmp("GE", "f32"), one_op("stablehlo.add", "f32")));
  CHECK(as_doubles(r) == V{0, 3, 0, 7, 0});
  // The evaluated path (select and scatter of two ops each) agrees.
  const std::string select = body2(
      "f32",
      "    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
      "    %r = stablehlo.and %c, %t : tensor<i1>\n"
      "    stablehlo.return %r : tensor<i1>\n");
  const std::string scatter = body2("f32",
                                    "    %s = stablehlo.add %a, %b : tensor<f32>\n"
                                    "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                                    "    %r = stablehlo.add %s, %z : tensor<f32>\n"
                                    "    stablehlo.return %r : tensor<f32>\n");
  auto e = run_ok(select_and_scatter_text("f32", "tensor<5xf32>", x, "tensor<4xf32>",
                                          "[1.0, 2.0, 3.0, 4.0]", "0.0",
                                          "window_dimensions = array<i64: 2>", select, scatter));
  CHECK(as_doubles(e) == V{0, 3, 0, 7, 0});
  // Ties: GE keeps the first, GT moves to the second.
  CHECK(as_doubles(run_ok(select_and_scatter_text(
            "f32", "tensor<2xf32>", "[5.0, 5.0]", "tensor<1xf32>", "[1.0]", "0.0",
            "window_dimensions = array<i64: 2>", select_cmp("GE", "f32"),
            one_op("stablehlo.add", "f32")))) == V{1, 0});
  CHECK(as_doubles(run_ok(select_and_scatter_text(
            "f32", "tensor<2xf32>", "[5.0, 5.0]", "tensor<1xf32>", "[1.0]", "0.0",
            "window_dimensions = array<i64: 2>", select_cmp("GT", "f32"),
            one_op("stablehlo.add", "f32")))) == V{0, 1});
}

TEST_CASE("select_and_scatter never selects padding, and starts its result at the init value",
          "[interp][regions]") {
  // Padded [pad | -5 -7]: windows [pad, -5] and [-5, -7] both select -5 (index 0); init 100.
  auto r = run_ok(select_and_scatter_text(
      "i32", "tensor<2xi32>", "[-5, -7]", "tensor<2xi32>", "[1, 2]", "100",
      "window_dimensions = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>",
      body2("i32",
            "    %r = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> "
            "tensor<i1>\n"
            "    stablehlo.return %r : tensor<i1>\n"),
      one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(r) == V{103, 100});
  // A 2x2 window with stride 2 over a 2x4 max-pool gradient.
  auto g = run_ok(select_and_scatter_text(
      "f32", "tensor<2x4xf32>", "[[1.0, 9.0, 4.0, 2.0], [3.0, 0.0, 8.0, 8.0]]", "tensor<1x2xf32>",
      "[[10.0, 20.0]]", "0.0",
      "window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>",
      select_cmp("GE", "f32"), one_op("stablehlo.add", "f32")));
  CHECK(as_doubles(g) == V{0, 10, 0, 0, 0, 0, 20, 0});
}

// ---- scatter
// ---------------------------------------------------------------------------------------------

namespace {

std::string scatter_text(const std::string& /*element type*/, const std::string& x_type,
                         const std::string& x, const std::string& i_type, const std::string& i,
                         const std::string& u_type, const std::string& u, const std::string& dims,
                         const std::string& body) {
  return main_of("(" + x_type + ", " + x_type + ")",
                 "  %x = stablehlo.constant dense<" + x + "> : " + x_type +
                     "\n"
                     "  %i = stablehlo.constant dense<" +
                     i + "> : " + i_type +
                     "\n"
                     "  %u = stablehlo.constant dense<" +
                     u + "> : " + u_type +
                     "\n"
                     "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = "
                     "#stablehlo.scatter<" +
                     dims + ">}> ({\n" + body + "  }) : (" + x_type + ", " + i_type + ", " +
                     u_type + ") -> " + x_type +
                     "\n"
                     "  return %r, %x : " +
                     x_type + ", " + x_type + "\n");
}

std::string replace_body(const std::string& e) {
  return body2(e, "    stablehlo.return %b : tensor<" + e + ">\n");
}

}  // namespace

TEST_CASE("scatter adds duplicates in order and leaves its operand unchanged",
          "[interp][regions]") {
  // Indices 1, 3, 1 with updates 10, 20, 30: [0, 40, 0, 20, 0].
  const std::string dims =
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1";
  auto r = run_ok(scatter_text("i32", "tensor<5xi32>", "[0, 0, 0, 0, 0]", "tensor<3x1xi32>",
                               "[[1], [3], [1]]", "tensor<3xi32>", "[10, 20, 30]", dims,
                               one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(r, 0) == V{0, 40, 0, 20, 0});
  CHECK(as_doubles(r, 1) == V{0, 0, 0, 0, 0});
  // Replace: the last update to an index wins.
  auto rep = run_ok(scatter_text("i32", "tensor<5xi32>", "[0, 0, 0, 0, 0]", "tensor<3x1xi32>",
                                 "[[1], [3], [1]]", "tensor<3xi32>", "[10, 20, 30]", dims,
                                 replace_body("i32")));
  CHECK(as_doubles(rep, 0) == V{0, 30, 0, 20, 0});
  // An evaluated body (add, then add 0) agrees; ui8 multiply wraps (16·16 = 0 mod 256).
  const std::string eval = body2("i32",
                                 "    %s = stablehlo.add %a, %b : tensor<i32>\n"
                                 "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
                                 "    %r = stablehlo.add %s, %z : tensor<i32>\n"
                                 "    stablehlo.return %r : tensor<i32>\n");
  auto ev = run_ok(scatter_text("i32", "tensor<5xi32>", "[0, 0, 0, 0, 0]", "tensor<3x1xi32>",
                                "[[1], [3], [1]]", "tensor<3xi32>", "[10, 20, 30]", dims, eval));
  CHECK(as_doubles(ev, 0) == V{0, 40, 0, 20, 0});
  auto mul =
      run_ok(scatter_text("ui8", "tensor<2xui8>", "[16, 3]", "tensor<1x1xi64>", "[[0]]",
                          "tensor<1xui8>", "[16]", dims, one_op("stablehlo.multiply", "ui8")));
  CHECK(as_doubles(mul, 0) == V{0, 3});
  // max with NaN on either side gives NaN.
  auto mx = run_ok(scatter_text("f32", "tensor<2xf32>", "[1.0, 0x7FC00000]", "tensor<2x1xi32>",
                                "[[0], [1]]", "tensor<2xf32>", "[0x7FC00000, 2.0]", dims,
                                one_op("stablehlo.maximum", "f32")));
  CHECK(std::isnan(as_doubles(mx, 0)[0]));
  CHECK(std::isnan(as_doubles(mx, 0)[1]));
}

TEST_CASE(
    "scatter replaces the bits of every element type and adds in the ones no combiner is compiled "
    "for",
    "[interp][regions]") {
  const std::string dims =
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1";
  // f16 0x7E01 is a NaN with a payload: replace moves it as bits, payload included.
  auto rep = run_ok(scatter_text("f16", "tensor<2xf16>", "[1.0, 2.0]", "tensor<1x1xi32>", "[[1]]",
                                 "tensor<1xf16>", "[0x7E01]", dims, replace_body("f16")));
  CHECK(rep.values[0].tensor.as<std::uint16_t>()[0] == 0x3C00);  // 1.0
  CHECK(rep.values[0].tensor.as<std::uint16_t>()[1] == 0x7E01);
  for (const char* e : {"i8", "ui16", "ui64", "complex<f64>", "i1"}) {
    INFO(e);
    const std::string t = std::string("tensor<3x") + e + ">",
                      u = std::string("tensor<2x") + e + ">";
    const bool pred = std::string(e) == "i1", complex = std::string(e) == "complex<f64>";
    const std::string x = pred      ? "[false, true, false]"
                          : complex ? "[(1.0, 1.0), (2.0, 0.0), (3.0, 0.0)]"
                                    : "[1, 2, 3]";
    const std::string up = pred      ? "[true, true]"
                           : complex ? "[(10.0, 0.0), (20.0, 0.0)]"
                                     : "[10, 20]";
    auto r = run_ok(
        scatter_text(e, t, x, "tensor<2x1xi32>", "[[2], [0]]", u, up, dims, replace_body(e)));
    CHECK(as_doubles(r, 0) == (pred ? V{1, 1, 1} : V{20, 2, 10}));
    auto a = run_ok(scatter_text(e, t, x, "tensor<2x1xi32>", "[[2], [2]]", u, up, dims,
                                 one_op("stablehlo.add", e)));
    CHECK(as_doubles(a, 0) == (pred ? V{0, 1, 1} : V{1, 2, 33}));
  }
}

TEST_CASE(
    "scatter skips a window that falls partly or wholly outside the operand, and negative or huge "
    "indices",
    "[interp][regions]") {
  // Rows of a 3x3 operand: indices 0, 2, -1, 3; only rows 0 and 2 are written.
  auto rows = run_ok(scatter_text(
      "f32", "tensor<3x3xf32>", "0.0", "tensor<4x1xi32>", "[[0], [2], [-1], [3]]",
      "tensor<4x3xf32>", "[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0], [4.0, 4.0, 4.0]]",
      "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
      "index_vector_dim = 1",
      replace_body("f32")));
  CHECK(as_doubles(rows, 0) == V{1, 1, 1, 0, 0, 0, 2, 2, 2});
  // 2x2 windows into the columns of a 2x4 operand: start 1 fits (columns 1-2), start 3 does not
  // (columns 3-4): it is skipped whole, not clamped and not cut.
  auto cols = run_ok(scatter_text(
      "i32", "tensor<2x4xi32>", "0", "tensor<2x1xi32>", "[[1], [3]]", "tensor<2x2x2xi32>",
      "[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]",
      "update_window_dims = [1, 2], scatter_dims_to_operand_dims = [1], index_vector_dim = 1",
      replace_body("i32")));
  CHECK(as_doubles(cols, 0) == V{0, 1, 2, 0, 0, 3, 4, 0});
  // An unsigned index past int64's range is out of bounds too.
  auto huge = run_ok(scatter_text(
      "i32", "tensor<2xi32>", "[0, 0]", "tensor<2x1xui64>", "[[18446744073709551615], [1]]",
      "tensor<2xi32>", "[5, 6]",
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
      one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(huge, 0) == V{0, 6});
  // Empty windows (a window dimension of size 0) change nothing.
  auto empty = run_ok(scatter_text("i32", "tensor<2x0xi32>", "", "tensor<3x1xi32>",
                                   "[[0], [1], [0]]", "tensor<3x0xi32>", "",
                                   "update_window_dims = [1], inserted_window_dims = [0], "
                                   "scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
                                   one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(empty, 0).empty());
}

TEST_CASE(
    "scatter reads scalar indices when index_vector_dim is the indices' rank, and batching "
    "dimensions pair up",
    "[interp][regions]") {
  auto implicit = run_ok(scatter_text(
      "i32", "tensor<3xi32>", "[0, 0, 0]", "tensor<2xi32>", "[0, 2]", "tensor<2xi32>", "[5, 6]",
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
      one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(implicit, 0) == V{5, 0, 6});
  // Batch b of the operand takes indices[b]: result[0][2] += 7, result[1][0] += 8.
  auto batch = run_ok(scatter_text(
      "i32", "tensor<2x3xi32>", "0", "tensor<2x1xi32>", "[[2], [0]]", "tensor<2xi32>", "[7, 8]",
      "inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], "
      "scatter_dims_to_operand_dims = [1], index_vector_dim = 1",
      one_op("stablehlo.add", "i32")));
  CHECK(as_doubles(batch, 0) == V{0, 0, 7, 8, 0, 0});
  // bf16 adds round once per update: 256 + 1 = 256 (ties to even), twice.
  auto bf = run_ok(scatter_text(
      "bf16", "tensor<1xbf16>", "[256.0]", "tensor<2x1xi32>", "[[0], [0]]", "tensor<2xbf16>",
      "[1.0, 1.0]",
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
      one_op("stablehlo.add", "bf16")));
  CHECK(as_doubles(bf, 0) == V{256});
}

TEST_CASE("a variadic scatter evaluates its body with every input and update",
          "[interp][regions]") {
  const std::string text =
      main_of("(tensor<3xi32>, tensor<3xf32>)",
              "  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
              "  %y = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n"
              "  %i = stablehlo.constant dense<[[2], [0], [2]]> : tensor<3x1xi32>\n"
              "  %u = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>\n"
              "  %v = stablehlo.constant dense<[2.0, 4.0, 0.5]> : tensor<3xf32>\n"
              "  %r:2 = \"stablehlo.scatter\"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = "
              "#stablehlo.scatter<inserted_window_dims = [0], "
              "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
              "  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):\n"
              "    %s = stablehlo.add %a, %c : tensor<i32>\n"
              "    %p = stablehlo.multiply %b, %d : tensor<f32>\n"
              "    stablehlo.return %s, %p : tensor<i32>, tensor<f32>\n"
              "  }) : (tensor<3xi32>, tensor<3xf32>, tensor<3x1xi32>, tensor<3xi32>, "
              "tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>)\n"
              "  return %r#0, %r#1 : tensor<3xi32>, tensor<3xf32>\n");
  auto r = run_ok(text);
  CHECK(as_doubles(r, 0) == V{21, 2, 43});  // 1+20, 2, 3+10+30
  CHECK(as_doubles(r, 1) == V{4, 2, 3});    // 1·4, 2, 3·2·0.5
}

TEST_CASE("scatter refuses inconsistent dimension numbers at the op's place", "[interp][regions]") {
  const std::string e = rl::testing::run_error(scatter_text(
      "i32", "tensor<3xi32>", "[0, 0, 0]", "tensor<2x1xi32>", "[[0], [2]]", "tensor<2xi32>",
      "[5, 6]",
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1",
      one_op("stablehlo.add", "i32")));
  // The verifier's scatter rule, before anything runs: the kernel trusts it.
  CHECK_THAT(e, Contains("error: stablehlo.scatter scatter_dims_to_operand_dims out of range"));
  CHECK_THAT(e, Contains("expected dimensions in [0, 1), got [0, 1]"));
}

TEST_CASE("an evaluated scatter stops at the time budget", "[interp][regions]") {
  std::string idx = "[", upd = "[";
  for (int k = 0; k < 3000; ++k) {
    idx += std::string(k ? ", " : "") + "[" + std::to_string(k % 7) + "]";
    upd += std::string(k ? ", " : "") + "1";
  }
  const std::string eval = body2("i32",
                                 "    %s = stablehlo.add %a, %b : tensor<i32>\n"
                                 "    %r = stablehlo.add %s, %b : tensor<i32>\n"
                                 "    stablehlo.return %r : tensor<i32>\n");
  interp::RunOptions o;
  o.time_budget_seconds = 0;
  const std::string e = rl::testing::run_error(
      scatter_text(
          "i32", "tensor<7xi32>", "0", "tensor<3000x1xi32>", idx + "]", "tensor<3000xi32>",
          upd + "]",
          "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1",
          eval),
      o);
  CHECK_THAT(e, Contains("took too long"));
}

// ---- sort
// -----------------------------------------------------------------------------------------------

namespace {

// JAX's comparator for a float key: −0 → +0, NaN → one NaN, then TOTALORDER LT.
std::string jax_float_lt(const std::string& e, const std::string& nan) {
  return "  ^bb0(%a: tensor<" + e + ">, %b: tensor<" + e +
         ">):\n"
         "    %z = stablehlo.constant dense<0.0> : tensor<" +
         e +
         ">\n"
         "    %0 = stablehlo.compare EQ, %a, %z, FLOAT : (tensor<" +
         e + ">, tensor<" + e +
         ">) -> tensor<i1>\n"
         "    %1 = stablehlo.select %0, %z, %a : tensor<i1>, tensor<" +
         e +
         ">\n"
         "    %2 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<" +
         e + ">, tensor<" + e +
         ">) -> tensor<i1>\n"
         "    %n = stablehlo.constant dense<" +
         nan + "> : tensor<" + e +
         ">\n"
         "    %3 = stablehlo.select %2, %n, %1 : tensor<i1>, tensor<" +
         e +
         ">\n"
         "    %4 = stablehlo.compare EQ, %b, %z, FLOAT : (tensor<" +
         e + ">, tensor<" + e +
         ">) -> tensor<i1>\n"
         "    %5 = stablehlo.select %4, %z, %b : tensor<i1>, tensor<" +
         e +
         ">\n"
         "    %6 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<" +
         e + ">, tensor<" + e +
         ">) -> tensor<i1>\n"
         "    %7 = stablehlo.select %6, %n, %5 : tensor<i1>, tensor<" +
         e +
         ">\n"
         "    %8 = stablehlo.compare LT, %3, %7, TOTALORDER : (tensor<" +
         e + ">, tensor<" + e +
         ">) -> tensor<i1>\n"
         "    stablehlo.return %8 : tensor<i1>\n";
}

std::string sort1_text(const std::string& type, const std::string& x, const std::string& attrs,
                       const std::string& body) {
  return main_of(type, "  %x = stablehlo.constant dense<" + x + "> : " + type +
                           "\n"
                           "  %r = \"stablehlo.sort\"(%x) <{" +
                           attrs + "}> ({\n" + body + "  }) : (" + type + ") -> " + type +
                           "\n"
                           "  return %r : " +
                           type + "\n");
}

std::string cmp_body(const std::string& e, const std::string& dir, const std::string& type,
                     bool swapped = false) {
  return body2(e, "    %r = stablehlo.compare " + dir + ", " + (swapped ? "%b, %a" : "%a, %b") +
                      ", " + type + " : (tensor<" + e + ">, tensor<" + e +
                      ">) -> tensor<i1>\n    stablehlo.return %r : tensor<i1>\n");
}

}  // namespace

TEST_CASE("sort with JAX's float comparator puts NaN last and keeps -0 and +0 in their order",
          "[interp][regions]") {
  auto r = run_ok(sort1_text("tensor<6xf32>", "[3.0, 0x7FC00000, -0.0, 0.0, 0xFF800000, 1.0]",
                             "dimension = 0 : i64", jax_float_lt("f32", "0x7FC00000")));
  auto v = as_doubles(r);
  CHECK(v[0] == -INFINITY);
  CHECK((v[1] == 0 && std::signbit(v[1])));  // -0.0 came first in the input
  CHECK((v[2] == 0 && !std::signbit(v[2])));
  CHECK(v[3] == 1);
  CHECK(v[4] == 3);
  CHECK(std::isnan(v[5]));
  // The same for bf16 and f16 (their NaN constants).
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xbf16>", "[2.0, -1.0, 0.5]", "dimension = 0 : i64",
                                     jax_float_lt("bf16", "0x7FC0")))) == V{-1, 0.5, 2});
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xf16>", "[2.0, -1.0, 0.5]", "dimension = 0 : i64",
                                     jax_float_lt("f16", "0x7E00")))) == V{-1, 0.5, 2});
}

TEST_CASE(
    "sort orders by plain compares in either direction, signed or unsigned, along any dimension",
    "[interp][regions]") {
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xi32>", "[1, -5, 7]", "dimension = 0 : i64",
                                     cmp_body("i32", "GT", "SIGNED")))) == V{7, 1, -5});
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xi32>", "[1, -5, 7]", "dimension = 0 : i64",
                                     cmp_body("i32", "LT", "SIGNED", true)))) == V{7, 1, -5});
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xi8>", "[1, -5, 7]", "dimension = 0 : i64",
                                     cmp_body("i8", "LT", "SIGNED")))) == V{-5, 1, 7});
  // -1 as unsigned is the largest i8.
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xi8>", "[1, -1, 7]", "dimension = 0 : i64",
                                     cmp_body("i8", "LT", "UNSIGNED")))) == V{1, 7, -1});
  auto u = run_ok(sort1_text("tensor<2xui64>", "[9223372036854775809, 5]", "dimension = 0 : i64",
                             cmp_body("ui64", "LT", "UNSIGNED")));
  CHECK(u.values[0].tensor.as<std::uint64_t>()[0] == 5);
  CHECK(u.values[0].tensor.as<std::uint64_t>()[1] == 9223372036854775809ull);
  CHECK(as_doubles(run_ok(sort1_text("tensor<3xi1>", "[true, false, true]", "dimension = 0 : i64",
                                     cmp_body("i1", "LT", "UNSIGNED")))) == V{0, 1, 1});
  // Columns of 2x3 (dimension 0) and rows (dimension -1).
  CHECK(as_doubles(run_ok(sort1_text("tensor<2x3xf32>", "[[3.0, 1.0, 5.0], [2.0, 4.0, 0.0]]",
                                     "dimension = 0 : i64", cmp_body("f32", "LT", "FLOAT")))) ==
        V{2, 1, 0, 3, 4, 5});
  CHECK(as_doubles(run_ok(sort1_text("tensor<2x3xf32>", "[[3.0, 1.0, 5.0], [2.0, 4.0, 0.0]]",
                                     "dimension = -1 : i64", cmp_body("f32", "LT", "FLOAT")))) ==
        V{1, 3, 5, 0, 2, 4});
}

TEST_CASE("sort of several operands moves them together: lexicographic keys, stable ties",
          "[interp][regions]") {
  // Keys [2, 1, 2, 1], values [40, 30, 20, 10], by (key, value): (1,10) (1,30) (2,20) (2,40).
  const std::string lex = main_of(
      "(tensor<4xi32>, tensor<4xi32>)",
      "  %k = stablehlo.constant dense<[2, 1, 2, 1]> : tensor<4xi32>\n"
      "  %v = stablehlo.constant dense<[40, 30, 20, 10]> : tensor<4xi32>\n"
      "  %r:2 = \"stablehlo.sort\"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({\n"
      "  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):\n"
      "    %0 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    %2 = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    %3 = stablehlo.and %2, %0 : tensor<i1>\n"
      "    %4 = stablehlo.or %1, %3 : tensor<i1>\n"
      "    stablehlo.return %4 : tensor<i1>\n"
      "  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)\n"
      "  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>\n");
  auto r = run_ok(lex);
  CHECK(as_doubles(r, 0) == V{1, 1, 2, 2});
  CHECK(as_doubles(r, 1) == V{10, 30, 20, 40});
  // One key: equal keys keep their input order (stable).
  const std::string one = main_of(
      "(tensor<4xi32>, tensor<4xf32>)",
      "  %k = stablehlo.constant dense<[2, 1, 2, 1]> : tensor<4xi32>\n"
      "  %v = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
      "  %r:2 = \"stablehlo.sort\"(%k, %v) <{dimension = 0 : i64}> ({\n"
      "  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):\n"
      "    %0 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %0 : tensor<i1>\n"
      "  }) : (tensor<4xi32>, tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>)\n"
      "  return %r#0, %r#1 : tensor<4xi32>, tensor<4xf32>\n");
  auto o = run_ok(one);
  CHECK(as_doubles(o, 0) == V{1, 1, 2, 2});
  CHECK(as_doubles(o, 1) == V{2, 4, 1, 3});
}

TEST_CASE("sort evaluates any other comparator with a stable merge sort", "[interp][regions]") {
  // By absolute value: [-3, 1, 2, -2] → [1, 2, -2, -3] (2 before -2: stable).
  const std::string body = body2(
      "i32",
      "    %x = stablehlo.abs %a : tensor<i32>\n"
      "    %y = stablehlo.abs %b : tensor<i32>\n"
      "    %r = stablehlo.compare LT, %x, %y, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %r : tensor<i1>\n");
  CHECK(as_doubles(run_ok(sort1_text("tensor<4xi32>", "[-3, 1, 2, -2]", "dimension = 0 : i64",
                                     body))) == V{1, 2, -2, -3});
  // A comparator that is no order at all (always true) still ends, with some permutation.
  const std::string always = body2("i32",
                                   "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
                                   "    stablehlo.return %t : tensor<i1>\n");
  auto p = as_doubles(
      run_ok(sort1_text("tensor<5xi32>", "[1, 2, 3, 4, 5]", "dimension = 0 : i64", always)));
  std::sort(p.begin(), p.end());
  CHECK(p == V{1, 2, 3, 4, 5});
}

TEST_CASE("sort refuses a dimension out of range before it runs", "[interp][regions]") {
  // The verifier's sort rule: the kernel trusts it.
  const std::string e = rl::testing::run_error(sort1_text(
      "tensor<3xi32>", "[1, 2, 3]", "dimension = 1 : i64", cmp_body("i32", "LT", "SIGNED")));
  CHECK_THAT(e, Contains("stablehlo.sort dimension out of range"));
  CHECK_THAT(e, Contains("expected a dimension in [-1, 1), got 1"));
}

// ---- chlo.top_k
// --------------------------------------------------------------------------------------------

TEST_CASE("top_k takes the k largest of each row in the total order, ties by lower index",
          "[interp][regions]") {
  const std::string text = main_of(
      "(tensor<6xf32>, tensor<6xi32>)",
      "  %x = stablehlo.constant dense<[1.0, 3.0, 0x7FC00000, 3.0, -0.0, 0.0]> : tensor<6xf32>\n"
      "  %values, %indices = chlo.top_k(%x, k = 6) : tensor<6xf32> -> (tensor<6xf32>, "
      "tensor<6xi32>)\n"
      "  return %values, %indices : tensor<6xf32>, tensor<6xi32>\n");
  auto r = run_ok(text);
  auto v = as_doubles(r, 0);
  CHECK(std::isnan(v[0]));
  CHECK(V(v.begin() + 1, v.end()) == V{3, 3, 1, 0, 0});
  CHECK(!std::signbit(v[4]));
  CHECK(std::signbit(v[5]));
  CHECK(as_doubles(r, 1) == V{2, 1, 3, 0, 5, 4});
  const std::string rows =
      main_of("(tensor<2x2xui16>, tensor<2x2xi32>)",
              "  %x = stablehlo.constant dense<[[5, 9, 1], [7, 7, 65535]]> : tensor<2x3xui16>\n"
              "  %values, %indices = chlo.top_k(%x, k = 2) : tensor<2x3xui16> -> "
              "(tensor<2x2xui16>, tensor<2x2xi32>)\n"
              "  return %values, %indices : tensor<2x2xui16>, tensor<2x2xi32>\n");
  auto q = run_ok(rows);
  CHECK(as_doubles(q, 0) == V{9, 5, 65535, 7});
  CHECK(as_doubles(q, 1) == V{1, 0, 2, 0});
  const std::string none = main_of("(tensor<0xi32>, tensor<0xi32>)",
                                   "  %x = stablehlo.constant dense<[4, 2]> : tensor<2xi32>\n"
                                   "  %values, %indices = chlo.top_k(%x, k = 0) : tensor<2xi32> -> "
                                   "(tensor<0xi32>, tensor<0xi32>)\n"
                                   "  return %values, %indices : tensor<0xi32>, tensor<0xi32>\n");
  CHECK(as_doubles(run_ok(none), 0).empty());
}

// ---- map
// ---------------------------------------------------------------------------------------------------

TEST_CASE("map applies its body at each index, natively for one op and evaluated otherwise",
          "[interp][regions]") {
  auto add = run_ok(main_of("tensor<3xi32>",
                            "  %x = stablehlo.constant dense<[1, 2, 2147483647]> : tensor<3xi32>\n"
                            "  %y = stablehlo.constant dense<[10, 20, 1]> : tensor<3xi32>\n"
                            "  %r = \"stablehlo.map\"(%x, %y) <{dimensions = array<i64: 0>}> ({\n" +
                                one_op("stablehlo.add", "i32") +
                                "  }) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>\n"
                                "  return %r : tensor<3xi32>\n"));
  CHECK(as_doubles(add) == V{11, 22, -2147483648.0});
  // x·y + 1, and a compare whose result type differs from the inputs'.
  auto fma = run_ok(
      main_of("(tensor<2xf32>, tensor<2xi1>)",
              "  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>\n"
              "  %y = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>\n"
              "  %r = \"stablehlo.map\"(%x, %y) <{dimensions = array<i64: 0>}> ({\n" +
                  body2("f32",
                        "    %p = stablehlo.multiply %a, %b : tensor<f32>\n    %o = "
                        "stablehlo.constant dense<1.0> : tensor<f32>\n"
                        "    %s = stablehlo.add %p, %o : tensor<f32>\n    stablehlo.return %s : "
                        "tensor<f32>\n") +
                  "  }) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
                  "  %c = \"stablehlo.map\"(%x, %y) <{dimensions = array<i64: 0>}> ({\n" +
                  body2("f32",
                        "    %q = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) "
                        "-> tensor<i1>\n    stablehlo.return %q : tensor<i1>\n") +
                  "  }) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
                  "  return %r, %c : tensor<2xf32>, tensor<2xi1>\n"));
  CHECK(as_doubles(fma, 0) == V{4, -5});
  CHECK(as_doubles(fma, 1) == V{1, 1});
}

// ---- HLO
// --------------------------------------------------------------------------------------------------

TEST_CASE(
    "HLO's reduce, variadic reduce and sort run their to_apply computations, tuples in and out",
    "[interp][regions]") {
  auto sum = run_ok(
      "HloModule m\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "ENTRY main {\n"
      "  a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=add\n"
      "}\n");
  CHECK(as_doubles(sum) == V{6, 15});
  auto pair = run_ok(
      "HloModule m\n"
      "red { a = f32[] parameter(0)\n b = s32[] parameter(1)\n c = f32[] parameter(2)\n d = s32[] "
      "parameter(3)\n"
      " s = f32[] add(a, c)\n t = s32[] multiply(b, d)\n ROOT r = (f32[], s32[]) tuple(s, t) }\n"
      "ENTRY main {\n"
      "  x = f32[3] constant({1, 2, 3})\n  y = s32[3] constant({4, 5, 6})\n"
      "  z = f32[] constant(0)\n  w = s32[] constant(1)\n"
      "  ROOT r = (f32[], s32[]) reduce(x, y, z, w), dimensions={0}, to_apply=red\n"
      "}\n");
  REQUIRE(pair.values.size() == 1);
  REQUIRE(pair.values[0].tuple.size() == 2);
  CHECK(pair.values[0].tuple[0].tensor.as<float>()[0] == 6);
  CHECK(pair.values[0].tuple[1].tensor.as<std::int32_t>()[0] == 120);
  auto sorted = run_ok(
      "HloModule m\n"
      "cmp { p0 = s32[] parameter(0)\n p1 = s32[] parameter(1)\n p2 = f32[] parameter(2)\n p3 = "
      "f32[] parameter(3)\n"
      " ROOT lt = pred[] compare(p0, p1), direction=GT }\n"
      "ENTRY main {\n"
      "  k = s32[3] constant({3, 1, 2})\n  v = f32[3] constant({30, 10, 20})\n"
      "  ROOT s = (s32[3], f32[3]) sort(k, v), dimensions={0}, to_apply=cmp\n"
      "}\n");
  REQUIRE(sorted.values[0].tuple.size() == 2);
  const float* v = sorted.values[0].tuple[1].tensor.as<float>();
  CHECK((v[0] == 30 && v[1] == 20 && v[2] == 10));
}

TEST_CASE(
    "an HLO computation whose ROOT is a parameter returns it: a scatter that keeps the "
    "update, a reduce that keeps the last element",
    "[interp][regions]") {
  // XLA's TensorFlowScatterV1 test (corpus hlo/fused_scatter.hlo) writes its update computation
  // so; the parameter is the result, never an operand, and must outlive the body.
  const std::string keep =
      "keep (lhs: s32[], rhs: s32[]) -> s32[] {\n  lhs = s32[] parameter(0)\n"
      "  ROOT rhs = s32[] parameter(1)\n}\n";
  auto scattered = run_ok("HloModule m\n" + keep +
                          "ENTRY main {\n"
                          "  o = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}})\n"
                          "  i = s32[2] constant({0, 2})\n"
                          "  u = s32[2,3] constant({{10, 20, 30}, {40, 50, 60}})\n"
                          "  ROOT s = s32[3,3] scatter(o, i, u), to_apply=keep, "
                          "update_window_dims={1}, inserted_window_dims={0}, "
                          "scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"
                          "}\n");
  CHECK(as_doubles(scattered) == V{10, 20, 30, 4, 5, 6, 40, 50, 60});
  auto last = run_ok("HloModule m\n" + keep +
                     "ENTRY main {\n"
                     "  a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                     "  z = s32[] constant(0)\n"
                     "  ROOT r = s32[2] reduce(a, z), dimensions={1}, to_apply=keep\n"
                     "}\n");
  CHECK(as_doubles(last) == V{3, 6});
}

TEST_CASE("HLO's conditional passes each branch its own operand", "[interp][regions]") {
  // XLA: conditional(pred, true_operand, false_operand) calls true_computation on the second
  // operand or false_computation on the third; with branch_computations, branch i gets operand
  // i + 1. The branches here take different types, as XLA allows.
  const std::string branches =
      "then_b {\n  t = (f32[]) parameter(0)\n  x = f32[] get-tuple-element(t), index=0\n"
      "  ROOT n = f32[] negate(x)\n}\n"
      "else_b {\n  y = s32[2] parameter(0)\n  c = f32[2] convert(y)\n"
      "  z = f32[] constant(0)\n  ROOT s = f32[] reduce(c, z), dimensions={0}, to_apply=add\n}\n"
      "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n";
  auto run_with = [&](const std::string& index, const std::string& call) {
    return as_doubles(run_ok("HloModule m\n" + branches +
                             "ENTRY main {\n"
                             "  p = " +
                             index +
                             "\n"
                             "  f = f32[] constant(2.5)\n  t = (f32[]) tuple(f)\n"
                             "  v = s32[2] constant({3, 4})\n"
                             "  ROOT r = f32[] conditional(p, t, v), " +
                             call + "\n}\n"));
  };
  const std::string by_pred = "true_computation=then_b, false_computation=else_b";
  CHECK(run_with("pred[] constant(true)", by_pred) == V{-2.5});
  CHECK(run_with("pred[] constant(false)", by_pred) == V{7});
  const std::string by_index = "branch_computations={then_b, else_b}";
  CHECK(run_with("s32[] constant(0)", by_index) == V{-2.5});
  CHECK(run_with("s32[] constant(1)", by_index) == V{7});
  CHECK(run_with("s32[] constant(7)", by_index) == V{7});  // out of range: the last branch
}
