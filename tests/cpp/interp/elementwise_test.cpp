// Elementwise ops against hand-computed values, edge cases included: integer overflow wraps,
// division by zero and INT_MIN / −1 as XLA defines them, shifts past the width, NaN in max/min,
// −0, f16/bf16 rounding, conversions that saturate.
#include <cmath>
#include <limits>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::as_doubles;
using rl::testing::run_text;

namespace {

// One binary op on two constants of `type`; the result as doubles.
std::vector<double> binary(const std::string& op, const std::string& type, const std::string& a,
                           const std::string& b, const std::string& result_type = "") {
  const std::string rt = result_type.empty() ? type : result_type;
  const std::string text =
      rl::testing::main_of(rt, "  %a = stablehlo.constant dense<" + a + "> : " + type +
                                   "\n"
                                   "  %b = stablehlo.constant dense<" +
                                   b + "> : " + type +
                                   "\n"
                                   "  %c = " +
                                   op + " %a, %b : (" + type + ", " + type + ") -> " + rt +
                                   "\n"
                                   "  return %c : " +
                                   rt + "\n");
  auto ran = run_text(text);
  INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  return as_doubles(ran.result);
}

std::vector<double> unary(const std::string& op, const std::string& type, const std::string& a,
                          const std::string& result_type = "") {
  const std::string rt = result_type.empty() ? type : result_type;
  const std::string text =
      rl::testing::main_of(rt, "  %a = stablehlo.constant dense<" + a + "> : " + type +
                                   "\n"
                                   "  %c = " +
                                   op + " %a : (" + type + ") -> " + rt +
                                   "\n"
                                   "  return %c : " +
                                   rt + "\n");
  auto ran = run_text(text);
  INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  return as_doubles(ran.result);
}

using V = std::vector<double>;

}  // namespace

TEST_CASE("integer arithmetic wraps, and division by zero and INT_MIN / -1 give XLA's results",
          "[interp][elementwise]") {
  CHECK(binary("stablehlo.add", "tensor<2xi8>", "[127, -128]", "[1, -1]") == V{-128, 127});
  CHECK(binary("stablehlo.multiply", "tensor<2xi16>", "[300, -300]", "[300, 300]") ==
        V{300 * 300 - 65536, -(300 * 300) + 65536});
  CHECK(binary("stablehlo.multiply", "tensor<ui16>", "65535", "65535") == V{1});  // 65535² mod 2^16
  CHECK(binary("stablehlo.divide", "tensor<4xi32>", "[7, -7, 5, -2147483648]", "[2, 2, 0, -1]") ==
        V{3, -3, -1, -2147483648.0});
  CHECK(binary("stablehlo.divide", "tensor<ui8>", "200", "0") == V{255});
  CHECK(binary("stablehlo.remainder", "tensor<4xi32>", "[7, -7, 5, -2147483648]",
               "[3, 3, 0, -1]") == V{1, -1, 5, 0});
  CHECK(unary("stablehlo.negate", "tensor<i8>", "-128") == V{-128});
  CHECK(unary("stablehlo.abs", "tensor<2xi8>", "[-128, -5]") == V{-128, 5});
  CHECK(binary("stablehlo.power", "tensor<5xi32>", "[2, 3, 1, -1, 2]", "[10, 3, -5, -3, -1]") ==
        V{1024, 27, 1, -1, 0});
}

TEST_CASE("shifts past the bit width give 0, or the sign for arithmetic shifts",
          "[interp][elementwise]") {
  CHECK(binary("stablehlo.shift_left", "tensor<3xi8>", "[1, 1, 1]", "[3, 8, -1]") == V{8, 0, 0});
  CHECK(binary("stablehlo.shift_right_logical", "tensor<3xi8>", "[-128, -128, -128]",
               "[1, 7, 9]") == V{64, 1, 0});
  CHECK(binary("stablehlo.shift_right_arithmetic", "tensor<3xi8>", "[-128, -128, 64]",
               "[1, 9, 9]") == V{-64, -1, 0});
  CHECK(binary("stablehlo.shift_right_logical", "tensor<ui32>", "4294967295", "31") == V{1});
}

TEST_CASE("maximum and minimum propagate NaN, and floats keep -0 and ±inf",
          "[interp][elementwise]") {
  auto mx = binary("stablehlo.maximum", "tensor<3xf32>", "[0x7FC00000, 1.0, 0xFF800000]",
                   "[1.0, 0x7FC00000, 2.0]");
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  CHECK(mx[2] == 2.0);
  auto mn = binary("stablehlo.minimum", "tensor<17xf32>",
                   "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, "
                   "15.0, 16.0, 0x7FC00000]",
                   "[2.0, 1.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, "
                   "15.0, 0x7FC00000, 1.0]");
  CHECK(mn[0] == 1.0);
  CHECK(mn[1] == 1.0);
  CHECK(std::isnan(mn[15]));  // in the SIMD body
  CHECK(std::isnan(mn[16]));  // in the scalar tail
  auto neg0 = unary("stablehlo.negate", "tensor<f32>", "0.0");
  CHECK(std::signbit(neg0[0]));
  CHECK(binary("stablehlo.divide", "tensor<2xf64>", "[1.0, -1.0]", "[0.0, 0.0]") ==
        V{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()});
}

TEST_CASE("f16 and bf16 are computed in float and rounded back to nearest even",
          "[interp][elementwise]") {
  // bf16 has 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7; it rounds to even, 1.
  CHECK(binary("stablehlo.add", "tensor<bf16>", "1.0", "0.00390625") == V{1.0});
  // 1 + 3·2^-9... in f16 (11 significant bits): 1 + 2^-11 is a tie that rounds to 1.
  CHECK(binary("stablehlo.add", "tensor<f16>", "1.0", "0.00048828125") == V{1.0});
  CHECK(binary("stablehlo.add", "tensor<f16>", "1.0", "0.0009765625") == V{1.0009765625});
  CHECK(binary("stablehlo.multiply", "tensor<f16>", "300.0", "300.0") ==
        V{std::numeric_limits<double>::infinity()});
}

TEST_CASE("compare orders floats by IEEE or by the total order, integers signed or unsigned",
          "[interp][elementwise]") {
  auto ieee = binary("stablehlo.compare LT,", "tensor<3xf32>", "[1.0, 0x7FC00000, -0.0]",
                     "[2.0, 1.0, 0.0]", "tensor<3xi1>");
  CHECK(ieee == V{1, 0, 0});
  const std::string total = rl::testing::main_of(
      "tensor<3xi1>",
      "  %a = stablehlo.constant dense<[-0.0, 0x7FC00000, 0xFF800000]> : tensor<3xf32>\n"
      "  %b = stablehlo.constant dense<[0.0, 0x7F800000, 0xFFC00000]> : tensor<3xf32>\n"
      "  %c = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> "
      "tensor<3xi1>\n"
      "  return %c : tensor<3xi1>\n");
  // −0 < +0; +NaN is above +inf; −NaN is below −inf.
  CHECK(as_doubles(run_text(total).result) == V{1, 0, 0});
  const std::string unsigned_cmp = rl::testing::main_of(
      "tensor<i1>",
      "  %a = stablehlo.constant dense<-1> : tensor<i32>\n"
      "  %b = stablehlo.constant dense<1> : tensor<i32>\n"
      "  %c = stablehlo.compare  GT, %a, %b,  UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "  return %c : tensor<i1>\n");
  CHECK(as_doubles(run_text(unsigned_cmp).result) == V{1});
}

TEST_CASE("convert truncates toward zero, saturates, sends NaN to 0, and rounds halves once",
          "[interp][elementwise]") {
  CHECK(unary("stablehlo.convert", "tensor<6xf32>",
              "[2.7, -2.7, 1.0e10, -1.0e10, 0x7FC00000, 127.9]",
              "tensor<6xi8>") == V{2, -2, 127, -128, 0, 127});
  CHECK(unary("stablehlo.convert", "tensor<2xf32>", "[-1.0, 300.0]", "tensor<2xui8>") == V{0, 255});
  CHECK(unary("stablehlo.convert", "tensor<3xi32>", "[0, 5, -1]", "tensor<3xi1>") == V{0, 1, 1});
  CHECK(unary("stablehlo.convert", "tensor<i32>", "-1", "tensor<ui8>") == V{255});  // modulo 2^8
  // 1 + 2^-11 + 2^-30 is just above the f16 tie: from f64 it rounds up; through f32 it would too,
  // but 1 + 2^-11 + 2^-40 (lost in f32) must still round up from the double.
  CHECK(unary("stablehlo.convert", "tensor<f64>", "1.0004882812509095", "tensor<f16>") ==
        V{1.0009765625});
  CHECK(unary("stablehlo.convert", "tensor<complex<f32>>", "(3.0, 4.0)", "tensor<f32>") == V{3});
}

TEST_CASE("select with a scalar or a full predicate, clamp with scalar bounds",
          "[interp][elementwise]") {
  const std::string sel =
      rl::testing::main_of("tensor<3xi32>",
                           "  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>\n"
                           "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
                           "  %b = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>\n"
                           "  %c = stablehlo.select %p, %a, %b : tensor<3xi1>, tensor<3xi32>\n"
                           "  return %c : tensor<3xi32>\n");
  CHECK(as_doubles(run_text(sel).result) == V{1, 20, 3});
  const std::string clamp = rl::testing::main_of(
      "tensor<4xf32>",
      "  %lo = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %x = stablehlo.constant dense<[-1.0, 0.5, 2.0, 0x7FC00000]> : tensor<4xf32>\n"
      "  %hi = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "  %c = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> "
      "tensor<4xf32>\n"
      "  return %c : tensor<4xf32>\n");
  auto c = as_doubles(run_text(clamp).result);
  CHECK(c[0] == 0);
  CHECK(c[1] == 0.5);
  CHECK(c[2] == 1);
  CHECK(std::isnan(c[3]));
}

TEST_CASE("bit-level ops: not, popcnt, count_leading_zeros, bitcast_convert",
          "[interp][elementwise]") {
  CHECK(unary("stablehlo.not", "tensor<2xi8>", "[0, -1]") == V{-1, 0});
  CHECK(unary("stablehlo.not", "tensor<2xi1>", "[true, false]") == V{0, 1});
  CHECK(unary("stablehlo.popcnt", "tensor<3xi16>", "[0, -1, 255]") == V{0, 16, 8});
  CHECK(unary("stablehlo.count_leading_zeros", "tensor<3xi32>", "[0, 1, -1]") == V{32, 31, 0});
  CHECK(unary("stablehlo.bitcast_convert", "tensor<f32>", "1.0", "tensor<i32>") == V{0x3F800000});
}

TEST_CASE("f32 elementwise ops agree with a scalar reference over SIMD bodies and tails",
          "[interp][elementwise]") {
  for (int n : {1, 3, 7, 8, 9, 16, 33}) {
    std::string a = "[", b = "[";
    V want_add, want_div;
    for (int i = 0; i < n; ++i) {
      const double x = 0.5 * i - 3, y = 0.25 * i + 1;
      a += (i ? ", " : "") + std::to_string(x);
      b += (i ? ", " : "") + std::to_string(y);
      want_add.push_back(static_cast<double>(static_cast<float>(x) + static_cast<float>(y)));
      want_div.push_back(static_cast<double>(static_cast<float>(x) / static_cast<float>(y)));
    }
    a += "]";
    b += "]";
    const std::string type = "tensor<" + std::to_string(n) + "xf32>";
    INFO("n = " << n);
    CHECK(binary("stablehlo.add", type, a, b) == want_add);
    CHECK(binary("stablehlo.divide", type, a, b) == want_div);
  }
}
