// Data movement against hand-computed values: broadcasts, reshape, transpose (both the plain and
// the tiled path), slices, dynamic slices with clamped starts, dynamic_update_slice in place only
// when its operand dies there, pad with negative and interior padding, concatenate, reverse,
// iota per element type, gather with every kind of dimension (the spec's own example), and the
// shape checks that turn bad attributes into errors.
#include <cmath>
#include <complex>
#include <string>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::as_complex;
using rl::testing::as_doubles;
using rl::testing::main_of;
using rl::testing::run_error;
using rl::testing::run_text;

namespace {

using V = std::vector<double>;

// Runs `body` as main's body with result type `rt`; the result as doubles.
V run_body(const std::string& rt, const std::string& body, interp::RunOptions options = {}) {
  auto ran = run_text(main_of(rt, body), options);
  INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  return as_doubles(ran.result);
}

// 0, 1, ..., n-1 as the text of a dense literal.
std::string arange(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(i);
  return s + "]";
}

}  // namespace

TEST_CASE("broadcast_in_dim repeats size-1 and missing dimensions, and may reorder dimensions",
          "[interp][data]") {
  // [1, 2, 3] along result dimension 1 of 2x3: each row is the operand.
  CHECK(
      run_body(
          "tensor<2x3xi32>",
          "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
          "  %b = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>\n"
          "  return %b : tensor<2x3xi32>\n") == V{1, 2, 3, 1, 2, 3});
  // [1, 2] along dimension 0: each column is the operand.
  CHECK(
      run_body(
          "tensor<2x3xf64>",
          "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>\n"
          "  %b = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<2xf64>) -> tensor<2x3xf64>\n"
          "  return %b : tensor<2x3xf64>\n") == V{1, 1, 1, 2, 2, 2});
  // A size-1 operand dimension repeats: [[5], [6]] (2x1) to 2x3.
  CHECK(run_body("tensor<2x3xi8>",
                 "  %a = stablehlo.constant dense<[[5], [6]]> : tensor<2x1xi8>\n"
                 "  %b = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<2x1xi8>) -> "
                 "tensor<2x3xi8>\n"
                 "  return %b : tensor<2x3xi8>\n") == V{5, 5, 5, 6, 6, 6});
  // dims = [1, 0] transposes: result[i][j] = a[j][i].
  CHECK(
      run_body(
          "tensor<3x2xf16>",
          "  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>\n"
          "  %b = stablehlo.broadcast_in_dim %a, dims = [1, 0] : (tensor<2x3xf16>) -> "
          "tensor<3x2xf16>\n"
          "  return %b : tensor<3x2xf16>\n") == V{1, 4, 2, 5, 3, 6});
  // Only size-1 dimensions added (a reshape, sharing the buffer), and a scalar everywhere.
  CHECK(run_body("tensor<1x3x1xi32>",
                 "  %a = stablehlo.constant dense<[7, 8, 9]> : tensor<3xi32>\n"
                 "  %b = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xi32>) -> "
                 "tensor<1x3x1xi32>\n"
                 "  return %b : tensor<1x3x1xi32>\n") == V{7, 8, 9});
  const auto z = as_complex(
      run_text(main_of("tensor<2x2xcomplex<f64>>",
                       "  %a = stablehlo.constant dense<(1.5, -2.0)> : tensor<complex<f64>>\n"
                       "  %b = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<complex<f64>>) "
                       "-> tensor<2x2xcomplex<f64>>\n"
                       "  return %b : tensor<2x2xcomplex<f64>>\n"))
          .result);
  CHECK(z == std::vector<std::complex<double>>(4, {1.5, -2.0}));
  // Empty results are fine.
  CHECK(
      run_body(
          "tensor<0x3xi32>",
          "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
          "  %b = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xi32>) -> tensor<0x3xi32>\n"
          "  return %b : tensor<0x3xi32>\n")
          .empty());
}

TEST_CASE("stablehlo.broadcast adds major dimensions and HLO's broadcast and copy run too",
          "[interp][data]") {
  CHECK(run_body("tensor<2x3xi32>",
                 "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                 "  %b = \"stablehlo.broadcast\"(%a) {broadcast_sizes = array<i64: 2>} : "
                 "(tensor<3xi32>) -> tensor<2x3xi32>\n"
                 "  return %b : tensor<2x3xi32>\n") == V{1, 2, 3, 1, 2, 3});
  auto ran = run_text(
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = s32[2] constant({4, 5})\n"
      "  b = s32[2,3] broadcast(a), dimensions={0}\n"
      "  ROOT c = s32[2,3] copy(b)\n"
      "}\n");
  REQUIRE(ran.result.status == "passed");
  CHECK(as_doubles(ran.result) == V{4, 4, 4, 5, 5, 5});
}

TEST_CASE("HLO's bitcast reads the bytes in the order the written layouts store them",
          "[interp][data]") {
  auto hlo = [](const std::string& body) {
    auto ran = run_text("HloModule m\nENTRY main {\n" + body + "}\n");
    INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
    REQUIRE(ran.result.status == "passed");
    return as_doubles(ran.result);
  };
  // Row-major on both sides ({1,0}, no layout at all): a reshape.
  CHECK(hlo("  a = f32[2,3]{1,0} constant({{0, 1, 2}, {3, 4, 5}})\n"
            "  ROOT b = f32[3,2]{1,0} bitcast(a)\n") == V{0, 1, 2, 3, 4, 5});
  // A column-major operand: its storage is 0 3 1 4 2 5, read back row-major as f32[6].
  CHECK(hlo("  a = f32[2,3]{0,1} constant({{0, 1, 2}, {3, 4, 5}})\n"
            "  ROOT b = f32[6]{0} bitcast(a)\n") == V{0, 3, 1, 4, 2, 5});
  // XLA's importer test (corpus hlo/import.hlo): f32[3,4] to f32[3,4,1]{2,0,1}. The result
  // stores dimension 1 outermost, then 0, then 2: storage [4][3][1] holds the operand's 0..11 in
  // order, so result element [i][j][0] is storage [j][i][0] = 3j + i.
  CHECK(hlo("  a = f32[3,4] constant({{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}})\n"
            "  ROOT b = f32[3,4,1]{2,0,1} bitcast(a)\n") ==
        V{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11});
  // A column-major operand read as a row-major [3,2]: the transpose.
  CHECK(hlo("  a = f32[2,3]{0,1} constant({{0, 1, 2}, {3, 4, 5}})\n"
            "  ROOT b = f32[3,2]{1,0} bitcast(a)\n") == V{0, 3, 1, 4, 2, 5});
  // Both sides column-major: storage 0 3 1 4 2 5 is, as a column-major [3,2], the columns
  // (0 3 1) and (4 2 5).
  CHECK(hlo("  a = f32[2,3]{0,1} constant({{0, 1, 2}, {3, 4, 5}})\n"
            "  ROOT b = f32[3,2]{0,1} bitcast(a)\n") == V{0, 4, 3, 2, 1, 5});
  // A tiled layout is not a dimension order: refused, quoting it.
  CHECK_THAT(run_error("HloModule m\nENTRY main {\n"
                       "  a = f32[2,3]{1,0:T(2,128)} constant({{0, 1, 2}, {3, 4, 5}})\n"
                       "  ROOT b = f32[6]{0} bitcast(a)\n}\n"),
             Catch::Matchers::Contains("{1,0:T(2,128)}"));
}

TEST_CASE("reshape keeps the elements in order, and a bad element count is refused",
          "[interp][data]") {
  CHECK(run_body("tensor<3x2xi32>",
                 "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>\n"
                 "  %b = stablehlo.reshape %a : (tensor<2x3xi32>) -> tensor<3x2xi32>\n"
                 "  %c = stablehlo.add %b, %b : tensor<3x2xi32>\n"
                 "  return %c : tensor<3x2xi32>\n") == V{2, 4, 6, 8, 10, 12});
  // The verifier refuses it before anything runs.
  CHECK_THAT(run_error(main_of("tensor<4xi32>",
                               "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                               "  %b = stablehlo.reshape %a : (tensor<3xi32>) -> tensor<4xi32>\n"
                               "  return %b : tensor<4xi32>\n")),
             Catch::Matchers::Contains("element count"));
}

TEST_CASE("transpose permutes dimensions, in the plain and the tiled path, for every element size",
          "[interp][data]") {
  CHECK(run_body(
            "tensor<3x2xi32>",
            "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>\n"
            "  %b = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>\n"
            "  return %b : tensor<3x2xi32>\n") == V{1, 4, 2, 5, 3, 6});
  // 3-D, permutation [2, 0, 1]: result[k][i][j] = a[i][j][k] with a[i][j][k] = 100i + 10j + k.
  {
    std::string lit = "[";
    V want;
    for (int i = 0; i < 2; ++i) {
      lit += i ? ", [" : "[";
      for (int j = 0; j < 3; ++j) {
        lit += j ? ", [" : "[";
        for (int k = 0; k < 4; ++k) lit += (k ? ", " : "") + std::to_string(100 * i + 10 * j + k);
        lit += "]";
      }
      lit += "]";
    }
    lit += "]";
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) want.push_back(100 * i + 10 * j + k);
    CHECK(run_body("tensor<4x2x3xi64>", "  %a = stablehlo.constant dense<" + lit +
                                            "> : tensor<2x3x4xi64>\n"
                                            "  %b = stablehlo.transpose %a, dims = [2, 0, 1] : "
                                            "(tensor<2x3x4xi64>) -> tensor<4x2x3xi64>\n"
                                            "  return %b : tensor<4x2x3xi64>\n") == want);
  }
  // 45x70 of each element size (1, 2, 4, 8, 16 bytes): tiles with ragged edges. a[i][j] = 70i + j
  // (as iota of the flat index, reshaped); result[j][i] = 70i + j.
  for (const std::string t : {"i8", "bf16", "f32", "f64", "complex<f64>"}) {
    INFO(t);
    V want;
    for (int j = 0; j < 70; ++j)
      for (int i = 0; i < 45; ++i) want.push_back(70 * i + j);
    const bool narrow = t == "i8" || t == "bf16";  // i8 wraps, bf16 keeps 8 significant bits
    if (narrow)
      for (auto& w : want)
        w = t == "i8" ? static_cast<double>(static_cast<std::int8_t>(static_cast<int>(w) & 0xFF))
                      : w;
    const std::string body = "  %a = stablehlo.iota dim = 0 : tensor<3150x" + t +
                             ">\n"
                             "  %r = stablehlo.reshape %a : (tensor<3150x" +
                             t + ">) -> tensor<45x70x" + t +
                             ">\n"
                             "  %b = stablehlo.transpose %r, dims = [1, 0] : (tensor<45x70x" +
                             t + ">) -> tensor<70x45x" + t +
                             ">\n"
                             "  return %b : tensor<70x45x" +
                             t + ">\n";
    const V got = run_body("tensor<70x45x" + t + ">", body);
    if (t == "bf16") {
      // Compare with the bf16 rounding of each expected index: the transpose moved the bits.
      const V flat = run_body(
          "tensor<3150xbf16>",
          "  %a = stablehlo.iota dim = 0 : tensor<3150xbf16>\n  return %a : tensor<3150xbf16>\n");
      V moved;
      for (int j = 0; j < 70; ++j)
        for (int i = 0; i < 45; ++i) moved.push_back(flat[static_cast<std::size_t>(70 * i + j)]);
      CHECK(got == moved);
    } else {
      CHECK(got == want);
    }
  }
}

TEST_CASE("slice takes start, limit and stride per dimension, and refuses bounds out of range",
          "[interp][data]") {
  // Rows 0..2 step 2 (0 and 2) and columns 1..4 step 2 (1 and 3) of a[i][j] = 4i + j.
  CHECK(run_body("tensor<2x2xi32>",
                 "  %a = stablehlo.iota dim = 0 : tensor<12xi32>\n"
                 "  %r = stablehlo.reshape %a : (tensor<12xi32>) -> tensor<3x4xi32>\n"
                 "  %b = stablehlo.slice %r [0:3:2, 1:4:2] : (tensor<3x4xi32>) -> tensor<2x2xi32>\n"
                 "  return %b : tensor<2x2xi32>\n") == V{1, 3, 9, 11});
  CHECK(run_body("tensor<0x4xi32>",
                 "  %a = stablehlo.constant dense<1> : tensor<3x4xi32>\n"
                 "  %b = stablehlo.slice %a [2:2, 0:4] : (tensor<3x4xi32>) -> tensor<0x4xi32>\n"
                 "  return %b : tensor<0x4xi32>\n")
            .empty());
  CHECK_THAT(
      run_error(main_of("tensor<2xi32>",
                        "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                        "  %b = stablehlo.slice %a [2:4] : (tensor<3xi32>) -> tensor<2xi32>\n"
                        "  return %b : tensor<2xi32>\n")),
      Catch::Matchers::Contains("slice bounds out of range") && Catch::Matchers::Contains("2:4:1"));
}

TEST_CASE("reverse flips the named dimensions", "[interp][data]") {
  CHECK(run_body("tensor<2x3xi32>",
                 "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>\n"
                 "  %b = stablehlo.reverse %a, dims = [1] : tensor<2x3xi32>\n"
                 "  return %b : tensor<2x3xi32>\n") == V{3, 2, 1, 6, 5, 4});
  CHECK(
      run_body(
          "tensor<2x3xf32>",
          "  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>\n"
          "  %b = stablehlo.reverse %a, dims = [0, 1] : tensor<2x3xf32>\n"
          "  return %b : tensor<2x3xf32>\n") == V{6, 5, 4, 3, 2, 1});
}

TEST_CASE("dynamic_slice clamps its start indices so the slice fits, whatever their integer type",
          "[interp][data]") {
  auto slice_at = [](const std::string& type, const std::string& start) {
    return run_body(
        "tensor<2xi32>",
        "  %a = stablehlo.constant dense<[10, 11, 12, 13, 14]> : tensor<5xi32>\n"
        "  %i = stablehlo.constant dense<" +
            start + "> : tensor<" + type +
            ">\n"
            "  %b = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<5xi32>, tensor<" +
            type +
            ">) -> tensor<2xi32>\n"
            "  return %b : tensor<2xi32>\n");
  };
  CHECK(slice_at("i32", "1") == V{11, 12});
  CHECK(slice_at("i32", "-3") == V{10, 11});                     // clamp(−3, 0, 5 − 2) = 0
  CHECK(slice_at("i64", "4") == V{13, 14});                      // clamp(4, 0, 3) = 3
  CHECK(slice_at("ui64", "18446744073709551615") == V{13, 14});  // past i64: the largest start
  CHECK(slice_at("i8", "-128") == V{10, 11});
  // Two dimensions, one index each: rows clamp(5) = 1, columns 1.
  CHECK(run_body(
            "tensor<2x2xi32>",
            "  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>\n"
            "  %i = stablehlo.constant dense<5> : tensor<i32>\n"
            "  %j = stablehlo.constant dense<1> : tensor<i32>\n"
            "  %b = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 2] : (tensor<3x3xi32>, "
            "tensor<i32>, tensor<i32>) -> tensor<2x2xi32>\n"
            "  return %b : tensor<2x2xi32>\n") == V{5, 6, 8, 9});
}

TEST_CASE(
    "dynamic_update_slice clamps its starts, and updates in place only an operand that dies there",
    "[interp][data]") {
  // Start 3 of 4 for an update of 2 clamps to 2.
  CHECK(run_body("tensor<4xi32>",
                 "  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>\n"
                 "  %u = stablehlo.constant dense<[8, 9]> : tensor<2xi32>\n"
                 "  %i = stablehlo.constant dense<3> : tensor<i32>\n"
                 "  %b = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xi32>, "
                 "tensor<2xi32>, tensor<i32>) -> tensor<4xi32>\n"
                 "  return %b : tensor<4xi32>\n") == V{1, 2, 8, 9});
  // The operand is read again after the update: it keeps its values (%a + %b = [0,1,2,3] +
  // [0,9,2,3]).
  CHECK(run_body("tensor<4xi32>",
                 "  %a = stablehlo.iota dim = 0 : tensor<4xi32>\n"
                 "  %u = stablehlo.constant dense<[9]> : tensor<1xi32>\n"
                 "  %i = stablehlo.constant dense<1> : tensor<i32>\n"
                 "  %b = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xi32>, "
                 "tensor<1xi32>, tensor<i32>) -> tensor<4xi32>\n"
                 "  %c = stablehlo.add %a, %b : tensor<4xi32>\n"
                 "  return %c : tensor<4xi32>\n") == V{0, 10, 4, 6});
  // Memory: 1 MiB elements of f32 (4 MiB). Updating an operand that dies there needs no second
  // buffer; one read later needs a copy.
  const std::string dies =
      "  %a = stablehlo.iota dim = 0 : tensor<1048576xf32>\n"
      "  %u = stablehlo.constant dense<[-1.0]> : tensor<1xf32>\n"
      "  %i = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %b = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<1048576xf32>, tensor<1xf32>, "
      "tensor<i32>) -> tensor<1048576xf32>\n";
  auto in_place =
      run_text(main_of("tensor<1048576xf32>", dies + "  return %b : tensor<1048576xf32>\n"));
  REQUIRE(in_place.result.status == "passed");
  CHECK(as_doubles(in_place.result)[0] == -1);
  CHECK(as_doubles(in_place.result)[1] == 1);
  CHECK(in_place.result.peak_bytes < (std::size_t(5) << 20));
  auto copied = run_text(
      main_of("tensor<1048576xf32>", dies + "  %c = stablehlo.add %a, %b : tensor<1048576xf32>\n  "
                                            "return %c : tensor<1048576xf32>\n"));
  REQUIRE(copied.result.status == "passed");
  CHECK(as_doubles(copied.result)[0] == -1);  // 0 + (−1)
  CHECK(as_doubles(copied.result)[1] == 2);   // 1 + 1
  CHECK(copied.result.peak_bytes >= (std::size_t(8) << 20));
  // Timing repeats the op: it must then not update its operand in place (the result stays right).
  interp::RunOptions timed;
  timed.time_ops = true;
  timed.min_op_seconds = 1e-4;
  CHECK(run_body("tensor<4xi32>",
                 "  %a = stablehlo.iota dim = 0 : tensor<4xi32>\n"
                 "  %u = stablehlo.constant dense<[9]> : tensor<1xi32>\n"
                 "  %i = stablehlo.constant dense<1> : tensor<i32>\n"
                 "  %b = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xi32>, "
                 "tensor<1xi32>, tensor<i32>) -> tensor<4xi32>\n"
                 "  return %b : tensor<4xi32>\n",
                 timed) == V{0, 9, 2, 3});
}

TEST_CASE("a while loop updating its carried buffer slot by slot gets every update",
          "[interp][data]") {
  // for i in 0..3: buf[i] = 10·i + 1, the buffer carried through the loop.
  CHECK(
      run_body("tensor<4xi32>",
               "  %z = stablehlo.constant dense<0> : tensor<4xi32>\n"
               "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
               "  %r:2 = stablehlo.while(%i = %i0, %buf = %z) : tensor<i32>, tensor<4xi32>\n"
               "   cond {\n"
               "    %n = stablehlo.constant dense<4> : tensor<i32>\n"
               "    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
               "    stablehlo.return %lt : tensor<i1>\n"
               "  } do {\n"
               "    %ten = stablehlo.constant dense<10> : tensor<i32>\n"
               "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
               "    %v = stablehlo.multiply %i, %ten : tensor<i32>\n"
               "    %w = stablehlo.add %v, %one : tensor<i32>\n"
               "    %u = stablehlo.reshape %w : (tensor<i32>) -> tensor<1xi32>\n"
               "    %nb = stablehlo.dynamic_update_slice %buf, %u, %i : (tensor<4xi32>, "
               "tensor<1xi32>, tensor<i32>) -> tensor<4xi32>\n"
               "    %ni = stablehlo.add %i, %one : tensor<i32>\n"
               "    stablehlo.return %ni, %nb : tensor<i32>, tensor<4xi32>\n"
               "  }\n"
               "  return %r#1 : tensor<4xi32>\n") == V{1, 11, 21, 31});
}

TEST_CASE("pad adds low, high and interior padding, and negative padding crops", "[interp][data]") {
  auto pad1 = [](const std::string& lo, const std::string& hi, const std::string& in, int size) {
    const std::string rt = "tensor<" + std::to_string(size) + "xi32>";
    return run_body(rt,
                    "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                    "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
                    "  %b = stablehlo.pad %a, %z, low = [" +
                        lo + "], high = [" + hi + "], interior = [" + in +
                        "] : (tensor<3xi32>, tensor<i32>) -> " + rt +
                        "\n"
                        "  return %b : " +
                        rt + "\n");
  };
  // size = low + high + 3 + 2·interior
  CHECK(pad1("1", "2", "1", 8) == V{0, 1, 0, 2, 0, 3, 0, 0});
  CHECK(pad1("-1", "-1", "1", 3) == V{0, 2, 0});  // [1,0,2,0,3] without its ends
  CHECK(pad1("-2", "0", "0", 1) == V{3});
  CHECK(pad1("0", "-3", "0", 0).empty());
  CHECK(pad1("-4", "1", "1", 2) == V{3, 0});  // [1,0,2,0,3,0] from index 4
  // 2-D with a float pad value: a 1x2 block in the middle of 3x4 of −1, one interior column.
  CHECK(run_body("tensor<3x5xf32>",
                 "  %a = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>\n"
                 "  %z = stablehlo.constant dense<-1.0> : tensor<f32>\n"
                 "  %b = stablehlo.pad %a, %z, low = [1, 1], high = [1, 1], interior = [0, 1] : "
                 "(tensor<1x2xf32>, tensor<f32>) -> tensor<3x5xf32>\n"
                 "  return %b : tensor<3x5xf32>\n") ==
        V{-1, -1, -1, -1, -1, -1, 1, -1, 2, -1, -1, -1, -1, -1, -1});
  CHECK_THAT(run_error(main_of("tensor<4xi32>",
                               "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                               "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
                               "  %b = stablehlo.pad %a, %z, low = [0], high = [0], interior = "
                               "[-1] : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>\n"
                               "  return %b : tensor<4xi32>\n")),
             Catch::Matchers::Contains("interior padding is negative"));
}

TEST_CASE("concatenate joins operands along a dimension", "[interp][data]") {
  CHECK(run_body("tensor<2x3xi32>",
                 "  %a = stablehlo.constant dense<[[1], [4]]> : tensor<2x1xi32>\n"
                 "  %b = stablehlo.constant dense<[[2, 3], [5, 6]]> : tensor<2x2xi32>\n"
                 "  %c = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x1xi32>, "
                 "tensor<2x2xi32>) -> tensor<2x3xi32>\n"
                 "  return %c : tensor<2x3xi32>\n") == V{1, 2, 3, 4, 5, 6});
  CHECK(run_body("tensor<3xui8>",
                 "  %a = stablehlo.constant dense<[1, 2]> : tensor<2xui8>\n"
                 "  %e = stablehlo.constant dense<> : tensor<0xui8>\n"
                 "  %b = stablehlo.constant dense<[255]> : tensor<1xui8>\n"
                 "  %c = stablehlo.concatenate %a, %e, %b, dim = 0 : (tensor<2xui8>, "
                 "tensor<0xui8>, tensor<1xui8>) -> tensor<3xui8>\n"
                 "  return %c : tensor<3xui8>\n") == V{1, 2, 255});
}

TEST_CASE("iota counts along its dimension in every element type", "[interp][data]") {
  CHECK(run_body(
            "tensor<2x3xi32>",
            "  %a = stablehlo.iota dim = 1 : tensor<2x3xi32>\n  return %a : tensor<2x3xi32>\n") ==
        V{0, 1, 2, 0, 1, 2});
  CHECK(run_body(
            "tensor<2x3xf32>",
            "  %a = stablehlo.iota dim = 0 : tensor<2x3xf32>\n  return %a : tensor<2x3xf32>\n") ==
        V{0, 0, 0, 1, 1, 1});
  // i8 wraps: index 300 is 300 − 256 = 44; f16 rounds 2049 to the even 2048.
  CHECK(run_body("tensor<301xi8>",
                 "  %a = stablehlo.iota dim = 0 : tensor<301xi8>\n  return %a : tensor<301xi8>\n")
            .at(300) == 44);
  CHECK(
      run_body("tensor<2050xf16>",
               "  %a = stablehlo.iota dim = 0 : tensor<2050xf16>\n  return %a : tensor<2050xf16>\n")
          .at(2049) == 2048);
  // No i1: StableHLO's iota gives an integer, floating-point or complex tensor, as XLA's does.
  CHECK_THAT(
      run_error(
          main_of("tensor<3xi1>",
                  "  %a = stablehlo.iota dim = 0 : tensor<3xi1>\n  return %a : tensor<3xi1>\n")),
      Catch::Matchers::Contains("stablehlo.iota of this element type \xE2\x80\x94 expected an "
                                "integer, floating-point or complex element type, got i1"));
  const auto z =
      as_complex(run_text(main_of("tensor<3xcomplex<f32>>",
                                  "  %a = stablehlo.iota dim = 0 : tensor<3xcomplex<f32>>\n  "
                                  "return %a : tensor<3xcomplex<f32>>\n"))
                     .result);
  CHECK(z == std::vector<std::complex<double>>{{0, 0}, {1, 0}, {2, 0}});
}

TEST_CASE("get_dimension_size gives a dimension's size as i32", "[interp][data]") {
  CHECK(run_body(
            "tensor<i32>",
            "  %a = stablehlo.constant dense<0.0> : tensor<2x7xf32>\n"
            "  %n = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x7xf32>) -> tensor<i32>\n"
            "  return %n : tensor<i32>\n") == V{7});
}

TEST_CASE("gather reads clamped slices, with batching dimensions as in the spec's example",
          "[interp][data]") {
  // The StableHLO spec's gather example. Result[i0][i1][i2] is the 2x2 slice of
  // operand[i1] (batching) at rows clamp(v1, 0, 2) (dim 1, collapsed) and columns
  // clamp(v0, 0, 2).. (dim 2) of the index vector (v0, v1) = start[i0][i1][i2].
  const std::string text = main_of(
      "tensor<2x2x3x2x2xi32>",
      "  %operand = stablehlo.constant dense<[[[[1, 2], [3, 4], [5, 6], [7, 8]], [[9, 10], [11, "
      "12], [13, 14], [15, 16]], "
      "[[17, 18], [19, 20], [21, 22], [23, 24]]], [[[25, 26], [27, 28], [29, 30], [31, 32]], [[33, "
      "34], [35, 36], [37, 38], [39, 40]], "
      "[[41, 42], [43, 44], [45, 46], [47, 48]]]]> : tensor<2x3x4x2xi32>\n"
      "  %start = stablehlo.constant dense<[[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], "
      "[[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>\n"
      "  %r = \"stablehlo.gather\"(%operand, %start) {dimension_numbers = "
      "#stablehlo.gather<offset_dims = [3, 4], "
      "collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], "
      "start_index_map = [2, 1], "
      "index_vector_dim = 3>, slice_sizes = array<i64: 1, 1, 2, 2>, indices_are_sorted = false} : "
      "(tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>\n"
      "  return %r : tensor<2x2x3x2x2xi32>\n");
  auto ran = run_text(text);
  INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  CHECK(as_doubles(ran.result) == V{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,  //
                                    33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,  //
                                    1,  2,  3,  4,  13, 14, 15, 16, 21, 22, 23, 24,  //
                                    43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30});
  // Rows of a table (an embedding lookup), the index vector implicit (index_vector_dim = rank):
  // rows 2, 0 and clamp(9, 0, 2) = 2 of a[i][j] = 3i + j.
  CHECK(run_body("tensor<3x3xf32>",
                 "  %a = stablehlo.iota dim = 0 : tensor<9xf32>\n"
                 "  %t = stablehlo.reshape %a : (tensor<9xf32>) -> tensor<3x3xf32>\n"
                 "  %i = stablehlo.constant dense<[2, 0, 9]> : tensor<3xi32>\n"
                 "  %r = \"stablehlo.gather\"(%t, %i) {dimension_numbers = "
                 "#stablehlo.gather<offset_dims = [1], "
                 "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
                 "slice_sizes = array<i64: 1, 3>} : "
                 "(tensor<3x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>\n"
                 "  return %r : tensor<3x3xf32>\n") == V{6, 7, 8, 0, 1, 2, 6, 7, 8});
  // A slice size larger than the operand is an error, not a read out of bounds.
  CHECK_THAT(run_error(main_of("tensor<1x4xf32>",
                               "  %t = stablehlo.constant dense<0.0> : tensor<3x3xf32>\n"
                               "  %i = stablehlo.constant dense<[0]> : tensor<1xi32>\n"
                               "  %r = \"stablehlo.gather\"(%t, %i) {dimension_numbers = "
                               "#stablehlo.gather<offset_dims = [1], "
                               "collapsed_slice_dims = [0], start_index_map = [0], "
                               "index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>} : "
                               "(tensor<3x3xf32>, tensor<1xi32>) -> tensor<1x4xf32>\n"
                               "  return %r : tensor<1x4xf32>\n")),
             Catch::Matchers::Contains("gather slice size out of range"));
}
