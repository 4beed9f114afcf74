// The shape contract of the ops that carry cost.
#include "catch.hpp"
#include "hlo/parse.h"
#include "hlo/verify.h"

using namespace rl::hlo;

namespace {
rl::Result<bool> check(const std::string& body, const std::string& args) {
  auto m = parse_stablehlo("func.func @main(" + args + ") {\n" + body + "  return\n}\n");
  INFO((m.ok() ? "" : m.error()));
  REQUIRE(m.ok());
  return verify(m->at(0));
}
}  // namespace

TEST_CASE("the verifier names the op, the rule and the values that break it", "[hlo][verify]") {
  using Row = std::tuple<std::string, std::string, std::string>;
  auto [args, body, message] = GENERATE(table<std::string, std::string, std::string>({
      Row{"%a: tensor<32x16xf32>, %b: tensor<15x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<15x8xf32>) -> tensor<32x8xf32>\n",
          "2:3: error: dot_general contracting dimension sizes differ \xE2\x80\x94 expected lhs dim 1 and rhs dim 0 of equal size, got lhs dim 1 = 16, rhs dim 0 = 15"},
      Row{"%a: tensor<4x32x16xf32>, %b: tensor<3x16x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x16xf32>, tensor<3x16x8xf32>) -> tensor<4x32x8xf32>\n",
          "2:3: error: dot_general batching dimension sizes differ \xE2\x80\x94 expected lhs dim 0 and rhs dim 0 of equal size, got lhs dim 0 = 4, rhs dim 0 = 3"},
      Row{"%a: tensor<32x16xf32>, %b: tensor<16x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>\n",
          "2:3: error: dot_general lhs contracting dimension out of range \xE2\x80\x94 expected a dimension in [0, 2), got 2"},
      Row{"%a: tensor<4x32x16xf32>, %b: tensor<4x16x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x16xf32>, tensor<4x16x8xf32>) -> tensor<32x8xf32>\n",
          "2:3: error: dot_general result shape is wrong \xE2\x80\x94 expected batch x lhs free x rhs free = [4, 32, 8], got [32, 8]"},
      Row{"%a: tensor<2x3xf32>, %b: tensor<3x2xf32>", "  %0 = stablehlo.add %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>\n",
          "2:3: error: stablehlo.add operand 1 shape differs from the result \xE2\x80\x94 expected the same shape tensor<2x3xf32>, got tensor<3x2xf32>"},
      Row{"%a: tensor<2x3xf32>", "  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>\n",
          "2:3: error: reshape changes the element count \xE2\x80\x94 expected 6 elements, got 7"},
      Row{"%a: tensor<2x3xf32>", "  %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n",
          "2:3: error: transpose permutation is not a permutation \xE2\x80\x94 expected each of 0..1 once, got [0, 0]"},
      Row{"%a: tensor<3xf32>", "  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<3x4xf32>\n",
          "2:3: error: broadcast_in_dim operand dimension does not fit \xE2\x80\x94 expected operand dim 0 of size 1 or 4, got 3"},
      Row{"%a: tensor<2x3xf32>, %z: tensor<f32>",
          "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n",
          "2:3: error: reduce dimension out of range \xE2\x80\x94 expected a dimension in [0, 2), got 2"},
      Row{"%a: tensor<1x8x8x3xf32>, %k: tensor<3x3x4x16xf32>",
          "  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>\n",
          "2:3: error: convolution input features do not match the kernel \xE2\x80\x94 expected input features / feature_group_count = kernel input features (3 / 1), got 4"},
  }));
  auto r = check(body, args);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == message);
}

TEST_CASE("well-formed ops pass the verifier, dynamic dimensions included", "[hlo][verify]") {
  auto r = check(
      "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x32x16xf32>, tensor<?x16x8xf32>) -> tensor<?x32x8xf32>\n"
      "  %1 = stablehlo.transpose %0, dims = [0, 2, 1] : (tensor<?x32x8xf32>) -> tensor<?x8x32xf32>\n",
      "%a: tensor<?x32x16xf32>, %b: tensor<?x16x8xf32>");
  INFO((r.ok() ? "" : r.error()));
  CHECK(r.ok());
}

TEST_CASE("a typo is an error, never a silently costed op: undefined values, unknown element "
          "types, wrong operand counts", "[hlo][verify]") {
  const std::string head = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n";
  auto undefined = parse_stablehlo(head + "  %0 = stablehlo.add %a, %zz : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n");
  REQUIRE_FALSE(undefined.ok());
  CHECK(undefined.error() ==
        "2:3: error: use of an undefined value \xE2\x80\x94 expected a value defined before this operation, got %zz");

  auto element = parse_stablehlo(head + "  %0 = stablehlo.add %a, %a : tensor<2xf33>\n  return %0 : tensor<2xf32>\n}\n");
  REQUIRE_FALSE(element.ok());
  CHECK_THAT(element.error(), Catch::Matchers::StartsWith("2:40: error: unknown element type"));
  CHECK_THAT(element.error(), Catch::Matchers::EndsWith("got 'f33'"));

  auto arity = parse_stablehlo(head + "  %0 = stablehlo.add %a, : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n");
  REQUIRE(arity.ok());  // `%a,` parses; the contract check catches the missing operand
  auto verified = verify(arity->at(0));
  REQUIRE_FALSE(verified.ok());
  CHECK(verified.error() ==
        "2:3: error: stablehlo.add has the wrong number of operands \xE2\x80\x94 expected 2 operands, got 1");

  auto unary = check("  %0 = \"stablehlo.tanh\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n",
                     "%a: tensor<2xf32>");
  REQUIRE_FALSE(unary.ok());
  CHECK(unary.error() ==
        "2:3: error: stablehlo.tanh has the wrong number of operands \xE2\x80\x94 expected 1 operand, got 2");
}
