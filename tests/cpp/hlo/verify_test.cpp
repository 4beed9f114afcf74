// The shape contract of the ops that carry cost.
#include "hlo/verify.h"

#include "catch.hpp"
#include "hlo/parse.h"

using namespace rl::hlo;

namespace {
// An HLO module's verdict: the module's computations (`text` after "HloModule m").
rl::Result<bool> check_hlo(const std::string& text) {
  auto m = parse_hlo("HloModule m\n" + text);
  INFO((m.ok() ? "" : m.error()));
  REQUIRE(m.ok());
  return verify(m->at(0));
}
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
          "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<32x16xf32>, "
          "tensor<15x8xf32>) -> tensor<32x8xf32>\n",
          "2:3: error: dot_general contracting dimension sizes differ \xE2\x80\x94 expected lhs "
          "dim 1 and rhs dim 0 of equal size, got lhs dim 1 = 16, rhs dim 0 = 15"},
      Row{"%a: tensor<4x32x16xf32>, %b: tensor<3x16x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] "
          "x [1] : (tensor<4x32x16xf32>, tensor<3x16x8xf32>) -> tensor<4x32x8xf32>\n",
          "2:3: error: dot_general batching dimension sizes differ \xE2\x80\x94 expected lhs dim 0 "
          "and rhs dim 0 of equal size, got lhs dim 0 = 4, rhs dim 0 = 3"},
      Row{"%a: tensor<32x16xf32>, %b: tensor<16x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<32x16xf32>, "
          "tensor<16x8xf32>) -> tensor<32x8xf32>\n",
          "2:3: error: dot_general lhs contracting dimension out of range \xE2\x80\x94 expected a "
          "dimension in [0, 2), got 2"},
      Row{"%a: tensor<4x32x16xf32>, %b: tensor<4x16x8xf32>",
          "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] "
          "x [1] : (tensor<4x32x16xf32>, tensor<4x16x8xf32>) -> tensor<32x8xf32>\n",
          "2:3: error: dot_general result shape is wrong \xE2\x80\x94 expected batch x lhs free x "
          "rhs free = [4, 32, 8], got [32, 8]"},
      Row{"%a: tensor<2x3xf32>, %b: tensor<3x2xf32>",
          "  %0 = stablehlo.add %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>\n",
          "2:3: error: stablehlo.add operand 1 shape differs from the result \xE2\x80\x94 expected "
          "the same shape tensor<2x3xf32>, got tensor<3x2xf32>"},
      Row{"%a: tensor<2x3xf32>",
          "  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>\n",
          "2:3: error: reshape changes the element count \xE2\x80\x94 expected 6 elements, got 7"},
      Row{"%a: tensor<2x3xf32>",
          "  %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n",
          "2:3: error: transpose permutation is not a permutation \xE2\x80\x94 expected each of "
          "0..1 once, got [0, 0]"},
      Row{"%a: tensor<3xf32>",
          "  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<3x4xf32>\n",
          "2:3: error: broadcast_in_dim operand dimension does not fit \xE2\x80\x94 expected "
          "operand dim 0 of size 1 or 4, got 3"},
      Row{"%a: tensor<3xf32>",
          "  %0 = \"stablehlo.broadcast_in_dim\"(%a) {broadcast_dimensions = array<i64: 1>} : "
          "(tensor<3xf32>) -> tensor<3x3xf32>\n"
          "  %1 = \"stablehlo.broadcast_in_dim\"(%0) {broadcast_dimensions = array<i64: 0, 0>} "
          ": (tensor<3x3xf32>) -> tensor<3xf32>\n",
          "3:3: error: broadcast_in_dim repeats a result dimension \xE2\x80\x94 expected each "
          "dimension once, got [0, 0]"},
      Row{"%a: tensor<1x3xf32>",
          "  %0 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<1x3xf32>, tensor<1x3xf32>) -> "
          "tensor<2x5xf32>\n",
          "2:3: error: concatenate result differs from its operands outside dimension 0 "
          "\xE2\x80\x94 expected dimension 1 of size 3 as in tensor<1x3xf32>, got "
          "tensor<2x5xf32>"},
      Row{"%a: tensor<2x3xf32>, %z: tensor<f32>",
          "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : "
          "(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n",
          "2:3: error: reduce dimension out of range \xE2\x80\x94 expected a dimension in [0, 2), "
          "got 2"},
      Row{"%a: tensor<1x8x8x3xf32>, %k: tensor<3x3x4x16xf32>",
          "  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, "
          "f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
          "(tensor<1x8x8x3xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>\n",
          "2:3: error: convolution operands break a shape rule \xE2\x80\x94 expected input "
          "features = feature_group_count x kernel input features, got 3 input features, 4 kernel "
          "input features, feature_group_count=1"},
      Row{"%a: tensor<3x8x8x4xf32>, %k: tensor<3x3x4x16xf32>",
          "  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, "
          "f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : "
          "(tensor<3x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>\n",
          "2:3: error: convolution operands break a shape rule \xE2\x80\x94 expected an input "
          "batch divisible by batch_group_count, got 3 with batch_group_count=2"},
      Row{"%a: tensor<1x8x8x4xf32>, %k: tensor<3x3x2x3xf32>",
          "  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, "
          "f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : "
          "(tensor<1x8x8x4xf32>, tensor<3x3x2x3xf32>) -> tensor<1x6x6x3xf32>\n",
          "2:3: error: convolution operands break a shape rule \xE2\x80\x94 expected kernel output "
          "features divisible by the group counts, got 3 with feature_group_count=2, "
          "batch_group_count=1"},
  }));
  auto r = check(body, args);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == message);
}

TEST_CASE("a slice's or a pad's bounds are checked before anything runs, in both dialects",
          "[hlo][verify]") {
  // What the interpreter's kernels read and write within: they trust the verifier for it.
  const std::string d = " \xE2\x80\x94 expected ";
  using Row = std::tuple<std::string, std::string, std::string>;
  SECTION("StableHLO") {
    auto [args, body, message] = GENERATE_COPY(table<std::string, std::string, std::string>({
        Row{"%a: tensor<3xi32>",
            "  %0 = stablehlo.slice %a [2:4] : (tensor<3xi32>) -> tensor<2xi32>\n",
            "2:3: error: stablehlo.slice bounds out of range in dimension 0" + d +
                "0 <= start <= limit <= 3 and stride >= 1, got 2:4:1"},
        Row{"%a: tensor<3xi32>",
            "  %0 = stablehlo.slice %a [2:1] : (tensor<3xi32>) -> tensor<0xi32>\n",
            "2:3: error: stablehlo.slice bounds out of range in dimension 0" + d +
                "0 <= start <= limit <= 3 and stride >= 1, got 2:1:1"},
        Row{"%a: tensor<3xi32>",
            "  %0 = \"stablehlo.slice\"(%a) {start_indices = array<i64: 0>, limit_indices = "
            "array<i64: 3>, strides = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xi32>\n",
            "2:3: error: stablehlo.slice bounds out of range in dimension 0" + d +
                "0 <= start <= limit <= 3 and stride >= 1, got 0:3:0"},
        Row{"%a: tensor<3x4xi32>",
            "  %0 = \"stablehlo.slice\"(%a) {start_indices = array<i64: 0>, limit_indices = "
            "array<i64: 3>, strides = array<i64: 1>} : (tensor<3x4xi32>) -> tensor<3xi32>\n",
            "2:3: error: stablehlo.slice needs a start, limit and stride per dimension" + d +
                "2 of each (the operand's rank), got 1 starts, 1 limits, 1 strides"},
        Row{"%a: tensor<4x8xf32>, %i: tensor<i32>",
            "  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [2, 9] : (tensor<4x8xf32>, "
            "tensor<i32>, tensor<i32>) -> tensor<2x9xf32>\n",
            "2:3: error: stablehlo.dynamic_slice slice size out of range in dimension 1" + d +
                "0..8, got 9"},
        Row{"%a: tensor<4x8xf32>, %i: tensor<i32>",
            "  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2, 8] : (tensor<4x8xf32>, "
            "tensor<i32>) -> tensor<2x8xf32>\n",
            "2:3: error: stablehlo.dynamic_slice needs one start index per dimension of the "
            "operand" +
                d + "2 indices, got 1"},
        Row{"%a: tensor<4x8xf32>, %i: tensor<i32>, %x: tensor<f32>",
            "  %0 = stablehlo.dynamic_slice %a, %i, %x, sizes = [2, 8] : (tensor<4x8xf32>, "
            "tensor<i32>, tensor<f32>) -> tensor<2x8xf32>\n",
            "2:3: error: stablehlo.dynamic_slice start index 1 is not a scalar integer" + d +
                "a 0-d integer tensor, got tensor<f32>"},
        Row{"%a: tensor<4x8xf32>, %i: tensor<2xi32>",
            "  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [2, 8] : (tensor<4x8xf32>, "
            "tensor<2xi32>, tensor<2xi32>) -> tensor<2x8xf32>\n",
            "2:3: error: stablehlo.dynamic_slice start index 0 is not a scalar integer" + d +
                "a 0-d integer tensor, got tensor<2xi32>"},
        Row{"%a: tensor<4x8xf32>, %u: tensor<2x9xf32>, %i: tensor<i32>",
            "  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x8xf32>, "
            "tensor<2x9xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>\n",
            "2:3: error: stablehlo.dynamic_update_slice update is larger than the operand in "
            "dimension 1" +
                d + "at most 8, got 9"},
        Row{"%a: tensor<4x8xf32>, %u: tensor<8xf32>, %i: tensor<i32>",
            "  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x8xf32>, "
            "tensor<8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>\n",
            "2:3: error: stablehlo.dynamic_update_slice update has another rank than the "
            "operand" +
                d + "rank 2 as in tensor<4x8xf32>, got tensor<8xf32>"},
        Row{"%a: tensor<4x8xf32>, %u: tensor<2x8xi32>, %i: tensor<i32>",
            "  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x8xf32>, "
            "tensor<2x8xi32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>\n",
            "2:3: error: stablehlo.dynamic_update_slice update has another element type than "
            "the operand" +
                d + "f32 (as tensor<4x8xf32>), got i32"},
        Row{"%a: tensor<2x3xf32>, %z: tensor<f32>",
            "  %0 = stablehlo.pad %a, %z, low = [0, 0], high = [1, 1], interior = [-1, 0] : "
            "(tensor<2x3xf32>, tensor<f32>) -> tensor<2x4xf32>\n",
            "2:3: error: stablehlo.pad interior padding is negative in dimension 0" + d +
                "at least 0, got -1"},
        Row{"%a: tensor<2x3xf32>, %z: tensor<2xf32>",
            "  %0 = stablehlo.pad %a, %z, low = [0, 0], high = [1, 1], interior = [0, 0] : "
            "(tensor<2x3xf32>, tensor<2xf32>) -> tensor<3x4xf32>\n",
            "2:3: error: stablehlo.pad padding value is not a scalar" + d +
                "a 0-d tensor, got tensor<2xf32>"},
        Row{"%a: tensor<2x3xf32>, %z: tensor<i32>",
            "  %0 = \"stablehlo.pad\"(%a, %z) {edge_padding_low = array<i64: 0, 0>, "
            "edge_padding_high = array<i64: 1, 1>, interior_padding = array<i64: 0, 0>} : "
            "(tensor<2x3xf32>, tensor<i32>) -> tensor<3x4xf32>\n",
            "2:3: error: stablehlo.pad padding value has another element type than the "
            "operand" +
                d + "f32 (as tensor<2x3xf32>), got i32"},
        Row{"%a: tensor<2x3xf32>, %z: tensor<f32>",
            "  %0 = stablehlo.pad %a, %z, low = [0, -4], high = [0, 0], interior = [0, 0] : "
            "(tensor<2x3xf32>, tensor<f32>) -> tensor<2x0xf32>\n",
            "2:3: error: stablehlo.pad padded size out of range in dimension 1" + d +
                "0 to 2^50 (size + low + high + (size - 1) * interior), got 3 + -4 + 0 + 2 * 0"},
        Row{"", "  %0 = stablehlo.iota dim = 2 : tensor<2x3xf32>\n",
            "2:3: error: stablehlo.iota dimension out of range" + d +
                "a dimension in [0, 2), got 2"},
        Row{"%a: tensor<2x3xf32>, %z: tensor<f32>",
            "  %0 = stablehlo.pad %a, %z, low = [0], high = [0], interior = [0] : "
            "(tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>\n",
            "2:3: error: stablehlo.pad needs low, high and interior padding per dimension" + d +
                "2 of each (the operand's rank), got 1 low, 1 high, 1 interior"},
    }));
    auto r = check(body, args);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("HLO") {
    auto [body, message] = GENERATE_COPY(table<std::string, std::string>({
        std::tuple<std::string, std::string>{
            "  a = f32[4,8] parameter(0)\n  ROOT s = f32[3,8] slice(a), slice={[1:5], [0:8]}\n",
            "4:3: error: slice bounds out of range in dimension 0" + d +
                "0 <= start <= limit <= 4 and stride >= 1, got 1:5:1"},
        {"  a = f32[4,8] parameter(0)\n  ROOT s = f32[2,8] slice(a), slice={[0:4:2], [0:4]}\n",
         "4:3: error: slice result shape is wrong" + d + "[2, 4], got [2, 8]"},
        {"  a = f32[4,8] parameter(0)\n  i = s32[] parameter(1)\n  ROOT s = f32[2,9] "
         "dynamic-slice(a, i, i), dynamic_slice_sizes={2,9}\n",
         "5:3: error: dynamic-slice slice size out of range in dimension 1" + d + "0..8, got 9"},
        {"  a = f32[4,8] parameter(0)\n  u = f32[5,8] parameter(1)\n  i = s32[] parameter(2)\n"
         "  ROOT s = f32[4,8] dynamic-update-slice(a, u, i, i)\n",
         "6:3: error: dynamic-update-slice update is larger than the operand in dimension 0" + d +
             "at most 4, got 5"},
        {"  ROOT i = s32[4] iota(), iota_dimension=1\n",
         "3:3: error: iota dimension out of range" + d + "a dimension in [0, 1), got 1"},
        {"  a = f32[2,3] parameter(0)\n  z = f32[] parameter(1)\n  ROOT p = f32[2,3] pad(a, z), "
         "padding=0_0_-1x0_0\n",
         "5:3: error: pad interior padding is negative in dimension 0" + d + "at least 0, got -1"},
    }));
    auto r = check_hlo("ENTRY e {\n" + body + "}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("well-formed slices and pads pass, dynamic sizes and HLO's 1-D start indices included") {
    auto r = check(
        "  %0 = stablehlo.slice %a [0:2, 1:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>\n"
        "  %1 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 8] : (tensor<?x8xf32>, "
        "tensor<i32>, tensor<i32>) -> tensor<1x8xf32>\n"
        "  %2 = stablehlo.dynamic_update_slice %a, %1, %i, %i : (tensor<?x8xf32>, "
        "tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<?x8xf32>\n"
        "  %3 = stablehlo.pad %0, %z, low = [-1, 2], high = [0, 0], interior = [0, 3] : "
        "(tensor<2x4xf32>, tensor<f32>) -> tensor<1x15xf32>\n",
        "%a: tensor<?x8xf32>, %i: tensor<i32>, %z: tensor<f32>");
    INFO((r.ok() ? "" : r.error()));
    CHECK(r.ok());
    auto v = check_hlo(
        "ENTRY e {\n  a = f32[4,8] parameter(0)\n  i = s32[2] parameter(1)\n"
        "  ROOT s = f32[2,8] dynamic-slice(a, i), dynamic_slice_sizes={2,8}\n}\n");
    INFO((v.ok() ? "" : v.error()));
    CHECK(v.ok());
  }
}

TEST_CASE("the region ops' inputs, dimensions and windows are checked before anything runs",
          "[hlo][verify]") {
  // What the kernels of sort, map, top_k, reduce, reduce_window, select_and_scatter, scatter and
  // gather trust (RL_VERIFIED in ops_regions.cpp, ops_data.cpp): each broken rule is refused by
  // the verifier, at the op.
  const std::string d = " \xE2\x80\x94 expected ";
  const std::string add_f32 =
      "({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    %s = stablehlo.add %x, %y : "
      "tensor<f32>\n    stablehlo.return %s : tensor<f32>\n  })";
  const std::string less_f32 =
      "({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    %c = stablehlo.compare LT, %x, %y : "
      "(tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  })";
  const std::string ge_f32 =
      "({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    %c = stablehlo.compare GE, %x, %y : "
      "(tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  }, {\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n    %s = stablehlo.add %x, %y : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n  })";
  // scatter(%x, %i, %u) of f32[4] at indices %i, updates %u, with `dn` for its dimension numbers.
  auto scatter = [&](const std::string& i, const std::string& u, const std::string& dn) {
    return "  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = "
           "#stablehlo.scatter<" +
           dn + ">}> " + add_f32 + " : (tensor<4xf32>, " + i + ", " + u + ") -> tensor<4xf32>\n";
  };
  const std::string one_dim =
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1";
  // gather(%a, %i) of f32[10, 10] with `dn`, slice sizes `sizes` and result type `out`.
  auto gather = [](const std::string& dn, const std::string& sizes, const std::string& out) {
    return "  %0 = \"stablehlo.gather\"(%a, %i) <{dimension_numbers = #stablehlo.gather<" + dn +
           ">, slice_sizes = array<i64: " + sizes +
           ">}> : (tensor<10x10xf32>, tensor<3x1xi32>) -> " + out + "\n";
  };
  using Row = std::tuple<std::string, std::string, std::string>;
  SECTION("StableHLO") {
    auto [args, body, message] = GENERATE_COPY(table<std::string, std::string, std::string>({
        Row{"%a: tensor<3xf32>",
            "  %0 = \"stablehlo.sort\"(%a) " + less_f32 +
                " {dimension = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>\n",
            "2:3: error: stablehlo.sort dimension out of range" + d +
                "a dimension in [-1, 1), got 1"},
        Row{"%a: tensor<3xf32>, %t: !stablehlo.token",
            "  %0:2 = \"stablehlo.sort\"(%a, %t) " + less_f32 +
                " {dimension = 0 : i64} : (tensor<3xf32>, !stablehlo.token) -> (tensor<3xf32>, "
                "!stablehlo.token)\n",
            "2:3: error: stablehlo.sort operand 1 is not a tensor" + d +
                "a tensor, got !stablehlo.token"},
        Row{"%a: tensor<2x3xf32>",
            "  %0 = \"stablehlo.map\"(%a) " + add_f32 +
                " {dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n",
            "2:3: error: stablehlo.map dimensions are not every dimension in order" + d +
                "0 to 2 - 1, got [1, 0]"},
        Row{"%a: tensor<3x5xf32>",
            "  %0:2 = chlo.top_k(%a, k = 6) : tensor<3x5xf32> -> (tensor<3x6xf32>, "
            "tensor<3x6xi32>)\n",
            "2:3: error: chlo.top_k k out of range" + d + "0 <= k <= 5, got 6"},
        Row{"%a: tensor<f32>",
            "  %0:2 = chlo.top_k(%a, k = 1) : tensor<f32> -> (tensor<1xf32>, tensor<1xi32>)\n",
            "2:3: error: chlo.top_k of a scalar" + d +
                "a tensor of rank 1 or more, got tensor<f32>"},
        Row{"%a: tensor<4xf32>, %b: tensor<5xf32>, %z: tensor<f32>",
            "  %0:2 = \"stablehlo.reduce\"(%a, %b, %z, %z) ({\n  ^bb0(%x: tensor<f32>, %y: "
            "tensor<f32>, %p: tensor<f32>, %q: tensor<f32>):\n    stablehlo.return %x, %y : "
            "tensor<f32>, tensor<f32>\n  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, "
            "tensor<5xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)\n",
            "2:3: error: stablehlo.reduce operand 1 shape differs from operand 0" + d +
                "tensor<4xf32>'s shape, got tensor<5xf32>"},
        Row{"%a: tensor<4xf32>, %z: tensor<i32>",
            "  %0 = \"stablehlo.reduce\"(%a, %z) " + add_f32 +
                " {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<i32>) -> tensor<f32>\n",
            "2:3: error: stablehlo.reduce init value 0 has another element type than input 0" + d +
                "f32 (as tensor<4xf32>), got tensor<i32>"},
        Row{"%a: tensor<4xf32>, %z: tensor<f32>",
            "  %0 = \"stablehlo.reduce_window\"(%a, %z) " + add_f32 +
                " {window_dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> "
                "tensor<5xf32>\n",
            "2:3: error: stablehlo.reduce_window window dimensions must be positive" + d +
                "sizes of at least 1, got 0"},
        Row{"%a: tensor<4xf32>, %s: tensor<3xf32>, %z: tensor<f32>",
            "  %0 = \"stablehlo.select_and_scatter\"(%a, %s, %z) " + ge_f32 +
                " {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : "
                "(tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>\n",
            "2:3: error: stablehlo.select_and_scatter source does not have the window's output "
            "shape" +
                d + "[2] (the window's output over the operand), got tensor<3xf32>"},
        Row{"%a: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>",
            "  %0 = \"stablehlo.select_and_scatter\"(%a, %s, %z) " + ge_f32 +
                " {window_dimensions = array<i64: 2>, window_strides = array<i64: 0>} : "
                "(tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>\n",
            "2:3: error: stablehlo.select_and_scatter window strides and dilations must be "
            "positive" +
                d + "values of at least 1, got 0"},
        Row{"%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>",
            scatter("tensor<2x1xi32>", "tensor<2xf32>",
                    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], "
                    "index_vector_dim = 1"),
            "2:3: error: stablehlo.scatter scatter_dims_to_operand_dims out of range" + d +
                "dimensions in [0, 1), got [0, 1]"},
        Row{"%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>",
            scatter("tensor<2x1xi32>", "tensor<2xf32>",
                    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], "
                    "index_vector_dim = 3"),
            "2:3: error: stablehlo.scatter index_vector_dim out of range" + d +
                "a dimension in [0, 2], got 3"},
        Row{"%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<3xf32>",
            scatter("tensor<2x1xi32>", "tensor<3xf32>", one_dim),
            "2:3: error: stablehlo.scatter update dimension 0 differs from the indices'" + d +
                "2 (indices dimension 0), got 3"},
        Row{"%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x5xf32>",
            scatter("tensor<2x1xi32>", "tensor<2x5xf32>",
                    "update_window_dims = [1], scatter_dims_to_operand_dims = [0], "
                    "index_vector_dim = 1"),
            "2:3: error: stablehlo.scatter update window dimension 1 is larger than the input" + d +
                "at most 4 (input dimension 0), got 5"},
        Row{"%x: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>",
            scatter("tensor<2x1xi32>", "tensor<2xf32>",
                    "scatter_dims_to_operand_dims = [0], index_vector_dim = 1"),
            "2:3: error: stablehlo.scatter dimension numbers do not cover the input" + d +
                "rank 1 = update_window_dims + inserted_window_dims + input_batching_dims, got 0"},
        Row{"%x: tensor<4xf32>, %i: tensor<2x1xf32>, %u: tensor<2xf32>",
            scatter("tensor<2x1xf32>", "tensor<2xf32>", one_dim),
            "2:3: error: stablehlo.scatter indices are not integers" + d +
                "an integer tensor, got tensor<2x1xf32>"},
        Row{"%a: tensor<10x10xf32>, %i: tensor<3x1xi32>",
            gather("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], "
                   "index_vector_dim = 1",
                   "1, 10", "tensor<3x10xf32>"),
            "2:3: error: stablehlo.gather start_index_map does not match the index vector" + d +
                "1 dimensions (the index vector's size), got [0, 1]"},
        Row{"%a: tensor<10x10xf32>, %i: tensor<3x1xi32>",
            gather("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
                   "index_vector_dim = 1",
                   "2, 10", "tensor<3x10xf32>"),
            "2:3: error: stablehlo.gather collapsed or batching dimension 0 has a slice size over "
            "1" +
                d + "0 or 1, got 2"},
        Row{"%a: tensor<10x10xf32>, %i: tensor<3x1xi32>",
            gather("offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
                   "index_vector_dim = 1",
                   "1, 11", "tensor<3x11xf32>"),
            "2:3: error: stablehlo.gather slice size out of range in dimension 1" + d +
                "0..10, got 11"},
        Row{"%a: tensor<10x10xf32>, %i: tensor<3x1xi32>",
            gather("offset_dims = [1], collapsed_slice_dims = [0, 0], start_index_map = [0], "
                   "index_vector_dim = 1",
                   "1, 10", "tensor<3x10xf32>"),
            "2:3: error: stablehlo.gather collapsed_slice_dims repeats a dimension" + d +
                "each dimension once, got [0, 0]"},
        Row{"%a: tensor<10x10xf32>, %i: tensor<3x1xi32>",
            gather("offset_dims = [1], start_index_map = [0], index_vector_dim = 1", "1, 10",
                   "tensor<3x10xf32>"),
            "2:3: error: stablehlo.gather dimension numbers do not cover the operand" + d +
                "rank 2 = offset_dims + collapsed_slice_dims + operand_batching_dims, got 1"},
        Row{"%a: tensor<4xf32>, %s: tensor<2xf16>, %z: tensor<f32>",
            "  %0 = \"stablehlo.select_and_scatter\"(%a, %s, %z) " + ge_f32 +
                " {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : "
                "(tensor<4xf32>, tensor<2xf16>, tensor<f32>) -> tensor<4xf32>\n",
            "2:3: error: stablehlo.select_and_scatter source has another element type than the "
            "operand" +
                d + "f32 (as tensor<4xf32>), got tensor<2xf16>"},
    }));
    auto r = check(body, args);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("HLO") {
    auto [body, message] = GENERATE_COPY(table<std::string, std::string>({
        std::tuple<std::string, std::string>{
            "  a = f32[3] parameter(0)\n  ROOT s = f32[3] sort(a), dimensions={1}, "
            "to_apply=less\n",
            "18:3: error: sort dimension out of range" + d + "a dimension in [-1, 1), got 1"},
        {"  a = f32[2,3] parameter(0)\n  ROOT m = f32[2,3] map(a), dimensions={1,0}, "
         "to_apply=neg\n",
         "18:3: error: map dimensions are not every dimension in order" + d +
             "0 to 2 - 1, got [1, 0]"},
        {"  a = f32[4] parameter(0)\n  b = f32[5] parameter(1)\n  z = f32[] parameter(2)\n"
         "  ROOT r = (f32[], f32[]) reduce(a, b, z, z), dimensions={0}, to_apply=add\n",
         "20:3: error: reduce operand 1 shape differs from operand 0" + d +
             "f32[4]'s shape, got f32[5]"},
        {"  a = f32[4] parameter(0)\n  z = f32[] parameter(1)\n"
         "  ROOT r = f32[] reduce(a, z, z), dimensions={0}, to_apply=add\n",
         "19:3: error: reduce needs as many init values as inputs" + d +
             "N inputs and N init values, N at least 1, got 3 operands"},
        {"  a = f32[4] parameter(0)\n  b = f32[4] parameter(1)\n  z = f32[] parameter(2)\n"
         "  ROOT r = f32[] reduce(a, b, z, z), dimensions={0}, to_apply=add\n",
         "20:3: error: reduce has another number of results than inputs" + d + "2, got 1"},
        {"  a = f32[10,10] parameter(0)\n  i = s32[3,1] parameter(1)\n  ROOT g = f32[3,10] "
         "gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
         "start_indices_batching_dims={0}, index_vector_dim=1, slice_sizes={1,10}\n",
         "19:3: error: gather batching dimensions differ in number" + d +
             "as many in operand_batching_dims as in start_indices_batching_dims, got [] and [0]"},
        {"  a = f32[4] parameter(0)\n  i = s32[2,1] parameter(1)\n  u = f32[3] parameter(2)\n"
         "  ROOT s = f32[4] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, "
         "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n",
         "20:3: error: scatter update dimension 0 differs from the indices'" + d +
             "2 (indices dimension 0), got 3"},
    }));
    auto r = check_hlo(
        "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
        "less {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = pred[] "
        "compare(x, y), direction=LT\n}\n"
        "neg {\n  x = f32[] parameter(0)\n  ROOT n = f32[] negate(x)\n}\n"
        "ENTRY e {\n" +
        body + "}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("well-formed region ops pass, a reduce's 1-d init value included (StableHLO allows it)") {
    auto r = check(
        "  %0:2 = chlo.top_k(%a, k = 2) : tensor<3x5xf32> -> (tensor<3x2xf32>, "
        "tensor<3x2xi32>)\n"
        "  %1 = \"stablehlo.sort\"(%a) " +
            less_f32 +
            " {dimension = -1 : i64} : (tensor<3x5xf32>) -> tensor<3x5xf32>\n"
            "  %2 = \"stablehlo.reduce\"(%a, %v) ({\n  ^bb0(%x: tensor<5xf32>, %y: "
            "tensor<5xf32>):\n    %s = stablehlo.add %x, %y : tensor<5xf32>\n"
            "    stablehlo.return %s : tensor<5xf32>\n  }) {dimensions = array<i64: "
            "0>} : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<5xf32>\n",
        "%a: tensor<3x5xf32>, %v: tensor<5xf32>");
    INFO((r.ok() ? "" : r.error()));
    CHECK(r.ok());
  }
}

TEST_CASE(
    "bitcast_convert, optimization_barrier and rng_bit_generator give the results the spec "
    "ties to their operands, in both dialects",
    "[hlo][verify]") {
  // Before this rule an optimization_barrier of one operand and two results ran and gave a
  // second result read past its operands, and a wrong bitcast_convert or rng_bit_generator was
  // found only by its kernel, at run time.
  const std::string d = " \xE2\x80\x94 expected ";
  const std::string three_fry = "{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}";
  const std::string philox = "{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}";
  using Row = std::tuple<std::string, std::string, std::string>;
  SECTION("StableHLO: wrong ones are refused at the op") {
    auto [args, body, message] = GENERATE_COPY(table<std::string, std::string, std::string>({
        Row{"%a: tensor<2x3xi16>",
            "  %0 = stablehlo.bitcast_convert %a : (tensor<2x3xi16>) -> tensor<2xf32>\n",
            "2:3: error: stablehlo.bitcast_convert to a wider element needs the operand's last "
            "dimension" +
                d + "a last dimension of 2 (32 / 16 bits), got tensor<2x3xi16>"},
        Row{"%a: tensor<4xf32>",
            "  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<8xi16>\n",
            "2:3: error: stablehlo.bitcast_convert result has the wrong shape" + d +
                "tensor<4x2xi16> (the operand's shape and 2, the 16-bit words in each 32-bit "
                "element), got tensor<8xi16>"},
        Row{"%s: tensor<3xui64>",
            "  %0:2 = \"stablehlo.rng_bit_generator\"(%s) " + three_fry +
                " : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)\n",
            "2:3: error: stablehlo.rng_bit_generator state has the wrong number of words for its "
            "algorithm" +
                d + "2 (THREE_FRY), got 3 (tensor<3xui64>)"},
        Row{"%s: tensor<4xui64>",
            "  %0:2 = \"stablehlo.rng_bit_generator\"(%s) " + philox +
                " : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)\n",
            "2:3: error: stablehlo.rng_bit_generator state has the wrong number of words for its "
            "algorithm" +
                d + "2 or 3 (PHILOX), got 4 (tensor<4xui64>)"},
        Row{"%s: tensor<2xui32>",
            "  %0:2 = \"stablehlo.rng_bit_generator\"(%s) " + three_fry +
                " : (tensor<2xui32>) -> (tensor<2xui32>, tensor<4xui32>)\n",
            "2:3: error: stablehlo.rng_bit_generator state is not a 1-d array of ui64 words" + d +
                "tensor<Nxui64>, got tensor<2xui32>"},
        Row{"%s: tensor<2xui64>",
            "  %0 = \"stablehlo.rng_bit_generator\"(%s) " + three_fry +
                " : (tensor<2xui64>) -> tensor<4xui32>\n",
            "2:3: error: stablehlo.rng_bit_generator gives other results than (new state, values)" +
                d + "2 results, got tensor<4xui32>"},
        Row{"%a: tensor<2xf32>",
            "  %0:2 = \"stablehlo.optimization_barrier\"(%a) : (tensor<2xf32>) -> (tensor<2xf32>, "
            "tensor<2xf32>)\n",
            "2:3: error: stablehlo.optimization_barrier has another number of results than its "
            "operands" +
                d + "1, got 2"},
    }));
    INFO(body);
    auto r = check(body, args);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("StableHLO: right ones pass, a dynamic state and DEFAULT's any count included") {
    auto r = check(
        "  %0 = stablehlo.bitcast_convert %a : (tensor<4x2xi16>) -> tensor<4xf32>\n"
        "  %1 = stablehlo.bitcast_convert %b : (tensor<3xf64>) -> tensor<3x8xui8>\n"
        "  %2 = stablehlo.bitcast_convert %c : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>\n"
        "  %3:2 = \"stablehlo.rng_bit_generator\"(%p) " +
            philox +
            " : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xf32>)\n"
            "  %4:2 = \"stablehlo.rng_bit_generator\"(%q) {rng_algorithm = "
            "#stablehlo<rng_algorithm DEFAULT>} : (tensor<5xui64>) -> (tensor<5xui64>, "
            "tensor<7xi8>)\n"
            "  %5:2 = \"stablehlo.rng_bit_generator\"(%r) " +
            three_fry +
            " : (tensor<?xui64>) -> (tensor<?xui64>, tensor<7xui64>)\n"
            "  %6:2 = \"stablehlo.optimization_barrier\"(%a, %b) : (tensor<4x2xi16>, "
            "tensor<3xf64>) -> (tensor<4x2xi16>, tensor<3xf64>)\n",
        "%a: tensor<4x2xi16>, %b: tensor<3xf64>, %c: tensor<3xcomplex<f32>>, %p: tensor<3xui64>, "
        "%q: tensor<5xui64>, %r: "
        "tensor<?xui64>");
    INFO((r.ok() ? "" : r.error()));
    CHECK(r.ok());
  }
  SECTION("HLO: the same rules; rng-bit-generator gives one tuple, or the values alone") {
    auto [body, message] = GENERATE_COPY(table<std::string, std::string>({
        {"  a = f32[4] parameter(0)\n  ROOT b = s16[4] bitcast-convert(a)\n",
         "4:3: error: bitcast-convert result has the wrong shape" + d +
             "s16[4,2] (the operand's shape and 2, the 16-bit words in each 32-bit "
             "element), got s16[4]"},
        {"  s = u64[2] parameter(0)\n  ROOT r = (u64[3], u32[4]) rng-bit-generator(s), "
         "algorithm=rng_three_fry\n",
         "4:3: error: rng-bit-generator new state has another type than the state" + d +
             "u64[2] (the state's type), got u64[3]"},
        {"  s = u64[2] parameter(0)\n  ROOT r = (u32[4]) rng-bit-generator(s), "
         "algorithm=rng_three_fry\n",
         "4:3: error: rng-bit-generator gives other results than (new state, values)" + d +
             "one tuple of 2, or the values alone, got (u32[4])"},
    }));
    auto r = check_hlo("ENTRY e {\n" + body + "}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
    auto ok = check_hlo(
        "ENTRY e {\n  a = s16[4,2] parameter(0)\n  s = u64[3] parameter(1)\n"
        "  b = f32[4] bitcast-convert(a)\n"
        "  v = u32[2,2] rng-bit-generator(s), algorithm=rng_philox\n"
        "  ROOT r = (u64[3], f32[2,2]) rng-bit-generator(s), algorithm=rng_philox\n}\n");
    INFO((ok.ok() ? "" : ok.error()));
    CHECK(ok.ok());
  }
}

TEST_CASE("an HLO dot is held to the dot rule StableHLO's dot_general is, before it runs",
          "[hlo][verify]") {
  // verify.cpp's dot rule, which the dot_general kernel trusts (both dialects).
  const std::string d = " \xE2\x80\x94 expected ";
  auto r = check_hlo(
      "ENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[4,5] parameter(1)\n"
      "  ROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == "5:3: error: dot_general contracting dimension sizes differ" + d +
                         "lhs dim 1 and rhs dim 0 of equal size, got lhs dim 1 = 3, rhs dim 0 = 4");
  auto twice = check_hlo(
      "ENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[3,5] parameter(1)\n"
      "  ROOT d = f32[2,5] dot(a, b), lhs_contracting_dims={1,1}, rhs_contracting_dims={0,0}\n}\n");
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.error() == "5:3: error: dot_general lhs dimension used twice" + d +
                             "each dimension at most once, got 1");
}

TEST_CASE("a refusal by a rule that is XLA's shape inference in full is the op's error",
          "[hlo][verify]") {
  // check_written_shapes: an inference rule's refusal used to be dropped (only the written result
  // was compared when the rule gave one); for the ops infer.cpp states in full it is an error.
  const std::string d = " \xE2\x80\x94 expected ";
  SECTION("HLO") {
    auto [body, message] = GENERATE_COPY(table<std::string, std::string>({
        std::tuple<std::string, std::string>{
            "  a = f32[2,3] parameter(0)\n  ROOT r = f32[2,3] reverse(a), dimensions={2}\n",
            "9:3: error: the shape of reverse cannot be inferred" + d +
                "dimensions below the rank of f32[2,3], got dimensions={2}"},
        {"  a = f32[4,4] parameter(0)\n  z = f32[] parameter(1)\n  ROOT r = f32[2,2] "
         "reduce-window(a, z), window={size=2 stride=2}, to_apply=add\n",
         "10:3: error: bad window size" + d + "2 values, got 1"},
        {"  a = c64[2,2,2,2] parameter(0)\n  ROOT f = c64[2,2,2,2] fft(a), fft_type=FFT, "
         "fft_length={2,2,2,2}\n",
         "9:3: error: the shape of fft cannot be inferred" + d +
             "fft_length of 1 to 3 entries, at most the rank of c64[2,2,2,2], got "
             "fft_length={2,2,2,2}"},
        {"  a = f32[3,4] parameter(0)\n  ROOT c = f32[3,4] cholesky(a), lower=true\n",
         "9:3: error: the shape of cholesky cannot be inferred" + d +
             "a floating-point or complex operand of rank 2 or more, square in its two minor "
             "dimensions, got f32[3,4]"},
    }));
    auto r = check_hlo(
        "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
        "ENTRY e {\n" +
        body + "}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("StableHLO") {
    auto [args, body, message] = GENERATE_COPY(table<std::string, std::string, std::string>({
        std::tuple<std::string, std::string, std::string>{
            "%a: tensor<2x3xf32>", "  %0 = stablehlo.reverse %a, dims = [2] : tensor<2x3xf32>\n",
            "2:3: error: the shape of stablehlo.reverse cannot be inferred" + d +
                "dimensions below the rank of tensor<2x3xf32>, got dimensions={2}"},
        {"%a: tensor<3x4xf32>",
         "  %0 = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<3x4xf32>) -> "
         "tensor<3x4xf32>\n",
         "2:3: error: the shape of stablehlo.cholesky cannot be inferred" + d +
             "a floating-point or complex operand of rank 2 or more, square in its two minor "
             "dimensions, got tensor<3x4xf32>"},
        {"%a: tensor<4xcomplex<f32>>",
         "  %0 = stablehlo.fft %a, type = RFFT, length = [4] : (tensor<4xcomplex<f32>>) -> "
         "tensor<3xcomplex<f32>>\n",
         "2:3: error: the shape of stablehlo.fft cannot be inferred" + d +
             "an f32 or f64 operand for RFFT, got tensor<4xcomplex<f32>>"},
    }));
    auto r = check(body, args);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
}

TEST_CASE(
    "data movement keeps its element type, and a tuple index, a branch index and a "
    "loop's condition are checked before anything runs, in both dialects",
    "[hlo][verify]") {
  // The interpreter's data-movement kernels and its get_tuple_element, while, case and if trust
  // these (RL_VERIFIED); each was the kernel's own check, or nothing's, before.
  const std::string d = " \xE2\x80\x94 expected ";
  SECTION("HLO") {
    auto [body, message] = GENERATE_COPY(table<std::string, std::string>({
        std::tuple<std::string, std::string>{
            "  a = f32[2,3] parameter(0)\n  ROOT r = s32[6] reshape(a)\n",
            "12:3: error: reshape changes the element type" + d + "f32 (the operand's), got s32"},
        {"  a = f32[4] parameter(0)\n  ROOT r = s32[2] slice(a), slice={[0:2]}\n",
         "12:3: error: slice changes the element type" + d + "f32 (the operand's), got s32"},
        {"  a = f32[4] parameter(0)\n  i = s32[] parameter(1)\n"
         "  ROOT r = bf16[2] dynamic-slice(a, i), dynamic_slice_sizes={2}\n",
         "13:3: error: dynamic-slice changes the element type" + d +
             "f32 (the operand's), got bf16"},
        {"  a = f32[4] parameter(0)\n  u = f32[2] parameter(1)\n  i = s32[] parameter(2)\n"
         "  ROOT r = s32[4] dynamic-update-slice(a, u, i)\n",
         "14:3: error: dynamic-update-slice changes the element type" + d +
             "f32 (the operand's), got s32"},
        {"  a = f32[3] parameter(0)\n  ROOT r = s32[2,3] broadcast(a), dimensions={1}\n",
         "12:3: error: broadcast changes the element type" + d + "f32 (the operand's), got s32"},
        {"  a = f32[3] parameter(0)\n  t = (f32[3]) tuple(a)\n"
         "  ROOT g = f32[3] get-tuple-element(t), index=1\n",
         "13:3: error: the shape of get-tuple-element cannot be inferred" + d +
             "index below the tuple size 1, got index=1"},
        {"  a = s32[] parameter(0)\n  ROOT w = s32[] while(a), condition=cond, body=body\n",
         "12:3: error: the shape of while cannot be inferred" + d +
             "condition returning pred[], got cond returning s32[]"},
        {"  i = f32[] parameter(0)\n  a = s32[] parameter(1)\n"
         "  ROOT c = s32[] conditional(i, a, a), true_computation=body, "
         "false_computation=body\n",
         "13:3: error: the shape of conditional cannot be inferred" + d +
             "a pred[] or s32[] branch index, got f32[]"},
        {"  i = s32[] parameter(0)\n  a = s32[] parameter(1)\n"
         "  ROOT c = s32[] conditional(i, a), branch_computations={body, body}\n",
         "13:3: error: the shape of conditional cannot be inferred" + d +
             "3 operands (the index and one per branch), got 2"},
        // A tuple where an array is read: the interpreter holds tuples of arrays as values, so
        // only the verifier stops one.
        {"  a = f32[3] parameter(0)\n  t = (f32[3]) tuple(a)\n"
         "  ROOT b = f32[2,3] broadcast(t), dimensions={1}\n",
         "13:3: error: broadcast operand 0 is not a tensor" + d + "a tensor, got (f32[3])"},
    }));
    auto r = check_hlo(
        "cond {\n  x = s32[] parameter(0)\n  ROOT c = s32[] copy(x)\n}\n"
        "body {\n  x = s32[] parameter(0)\n  ROOT c = s32[] copy(x)\n}\n"
        "ENTRY e {\n" +
        body + "}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("StableHLO") {
    auto [args, body, message] = GENERATE_COPY(table<std::string, std::string, std::string>({
        std::tuple<std::string, std::string, std::string>{
            "%a: tuple<tensor<4xf32>>",
            "  %0 = stablehlo.get_tuple_element %a[1] : (tuple<tensor<4xf32>>) -> tensor<4xf32>\n",
            "2:3: error: the shape of stablehlo.get_tuple_element cannot be inferred" + d +
                "index below the tuple size 1, got index=1"},
        {"%i: tensor<f32>, %a: tensor<f32>",
         "  %0 = \"stablehlo.case\"(%i) ({\n    stablehlo.return %a : tensor<f32>\n  }) : "
         "(tensor<f32>) -> tensor<f32>\n",
         "2:3: error: stablehlo.case index is not a 0-d i32 tensor" + d +
             "tensor<i32>, got tensor<f32>"},
        {"%p: tensor<2xi1>, %a: tensor<f32>",
         "  %0 = \"stablehlo.if\"(%p) ({\n    stablehlo.return %a : tensor<f32>\n  }, {\n"
         "    stablehlo.return %a : tensor<f32>\n  }) : (tensor<2xi1>) -> tensor<f32>\n",
         "2:3: error: stablehlo.if predicate is not a 0-d i1 tensor" + d +
             "tensor<i1>, got tensor<2xi1>"},
        {"%a: tensor<3xf32>",
         "  %0 = \"stablehlo.broadcast\"(%a) {broadcast_sizes = array<i64: -1>} : "
         "(tensor<3xf32>) -> tensor<2x3xf32>\n",
         "2:3: error: broadcast size is negative" + d + "sizes of at least 0, got [-1]"},
        // The generic form can write an op that gives one value with none: its kernel would
        // write a result that is not there (scripts/fuzz run found a dot_general so written).
        {"%a: tensor<2xf32>",
         "  \"stablehlo.dot_general\"(%a, %a) {dot_dimension_numbers = #stablehlo.dot<"
         "lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>} : "
         "(tensor<2xf32>, tensor<2xf32>) -> ()\n",
         "2:3: error: stablehlo.dot_general has another number of results than the one value it "
         "gives" +
             d + "1, got 0"},
        {"%a: tensor<2xf32>",
         "  \"stablehlo.add\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()\n",
         "2:3: error: stablehlo.add has another number of results than the one value it gives" + d +
             "1, got 0"},
        // The same for an op infer.cpp's rule holds, which is left out where the result is
        // unranked or missing: the rule still runs on its ranked operands.
        {"%a: tensor<3xf32>",
         "  \"stablehlo.reverse\"(%a) {dimensions = array<i64: 4>} : (tensor<3xf32>) -> ()\n",
         "2:3: error: stablehlo.reverse has another number of results than the one value it gives" +
             d + "1, got 0"},
        {"%t: tuple<tensor<f32>>",
         "  %0 = \"stablehlo.get_tuple_element\"(%t) {index = 3 : i32} : (tuple<tensor<f32>>) -> "
         "tensor<*xf32>\n",
         "2:3: error: the shape of stablehlo.get_tuple_element cannot be inferred" + d +
             "index below the tuple size 1, got index=3"},
        {"%a: tuple<tensor<3xf32>>",
         "  %0 = \"stablehlo.reshape\"(%a) : (tuple<tensor<3xf32>>) -> tensor<3xf32>\n",
         "2:3: error: stablehlo.reshape operand 0 is not a tensor" + d +
             "a tensor, got tuple<tensor<3xf32>>"},
        {"%i: tensor<i32>, %a: tensor<f32>",
         "  %0 = \"stablehlo.case\"(%i, %a) ({\n    stablehlo.return %a : tensor<f32>\n  }) : "
         "(tensor<i32>, tensor<f32>) -> tensor<f32>\n",
         "2:3: error: stablehlo.case has the wrong number of operands" + d +
             "1 operand (the index), got 2"},
        // A return ends its block: the run would leave the condition at the first one.
        {"%a: tensor<f32>",
         "  %0 = stablehlo.while(%x = %a) : tensor<f32>\n   cond {\n"
         "    stablehlo.return %x : tensor<f32>\n"
         "    %c = stablehlo.constant dense<true> : tensor<i1>\n"
         "    stablehlo.return %c : tensor<i1>\n  } do {\n    stablehlo.return %x : tensor<f32>\n  "
         "}\n",
         "4:5: error: stablehlo.return is not the last op of its block" + d +
             "the block's terminator, got 2 ops after it"},
    }));
    auto r = check(body, args);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
}

TEST_CASE("well-formed ops pass the verifier, dynamic dimensions included", "[hlo][verify]") {
  auto r = check(
      "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x "
      "[1] : (tensor<?x32x16xf32>, tensor<?x16x8xf32>) -> tensor<?x32x8xf32>\n"
      "  %1 = stablehlo.transpose %0, dims = [0, 2, 1] : (tensor<?x32x8xf32>) -> "
      "tensor<?x8x32xf32>\n",
      "%a: tensor<?x32x16xf32>, %b: tensor<?x16x8xf32>");
  INFO((r.ok() ? "" : r.error()));
  CHECK(r.ok());
}

TEST_CASE(
    "a typo is an error, never a silently costed op: undefined values, unknown element "
    "types, wrong operand counts",
    "[hlo][verify]") {
  const std::string head = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n";
  auto undefined = parse_stablehlo(
      head + "  %0 = stablehlo.add %a, %zz : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n");
  REQUIRE_FALSE(undefined.ok());
  CHECK(undefined.error() ==
        "2:3: error: use of an undefined value \xE2\x80\x94 expected a value defined before this "
        "operation, got %zz");

  auto element = parse_stablehlo(
      head + "  %0 = stablehlo.add %a, %a : tensor<2xf33>\n  return %0 : tensor<2xf32>\n}\n");
  REQUIRE_FALSE(element.ok());
  CHECK_THAT(element.error(), Catch::Matchers::StartsWith("2:40: error: unknown element type"));
  CHECK_THAT(element.error(), Catch::Matchers::EndsWith("got 'f33'"));

  auto arity = parse_stablehlo(
      head + "  %0 = stablehlo.add %a, : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n");
  REQUIRE(arity.ok());  // `%a,` parses; the contract check catches the missing operand
  auto verified = verify(arity->at(0));
  REQUIRE_FALSE(verified.ok());
  CHECK(verified.error() ==
        "2:3: error: stablehlo.add has the wrong number of operands \xE2\x80\x94 expected 2 "
        "operands, got 1");

  auto unary =
      check("  %0 = \"stablehlo.tanh\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n",
            "%a: tensor<2xf32>");
  REQUIRE_FALSE(unary.ok());
  CHECK(unary.error() ==
        "2:3: error: stablehlo.tanh has the wrong number of operands \xE2\x80\x94 expected 1 "
        "operand, got 2");
}

// ---- one contract for analysis and run (issue 23) -----------------------------------------------

#include "hlo/lower.h"
#include "hlo/report.h"
#include "report/run_report.h"

namespace {

// The verifier's error for a whole text (one module), after checking that the analyzer's door
// (analyze_text, what the page and analyze.mjs use) and the run's door (lower, what run.mjs and
// the page's Run use) refuse it with the very same error at the same place.
std::string refused(const std::string& text) {
  auto m = parse_stablehlo(text);
  INFO(text << (m.ok() ? "" : m.error()));
  REQUIRE(m.ok());
  REQUIRE(m->size() == 1);
  auto v = verify(m->at(0));
  REQUIRE_FALSE(v.ok());
  auto lowered = lower(m->at(0));
  REQUIRE_FALSE(lowered.ok());
  CHECK(lowered.error() == v.error());
  CHECK(lowered.error_info().line == v.error_info().line);
  CHECK(lowered.error_info().column == v.error_info().column);
  auto analysed = analyze_text(text);
  REQUIRE(analysed.ok());
  REQUIRE(analysed->modules.size() == 1);
  REQUIRE_FALSE(analysed->modules[0].analysis.ok());
  CHECK(analysed->modules[0].analysis.error() == v.error());
  CHECK(v.error_info().line > 0);
  return v.error();
}

}  // namespace

TEST_CASE("an operand whose type differs from the op's written signature is refused, in any region",
          "[hlo][verify]") {
  // The fuzzer's heap-buffer-overflow: compare reads %1 as f64 (8 bytes an element) from an i1
  // buffer (1 byte). The op inside the while's condition is checked like a top-level one.
  const std::string in_while =
      "func.func @main() -> tensor<f64> {\n"
      "  %0 = stablehlo.constant dense<0.0> : tensor<f64>\n"
      "  %1 = stablehlo.constant dense<true> : tensor<i1>\n"
      "  %2 = stablehlo.while(%iterArg = %0) : tensor<f64>\n"
      "   cond {\n"
      "    %3 = stablehlo.compare GT, %iterArg, %1 : (tensor<f64>, tensor<f64>) -> tensor<i1>\n"
      "    stablehlo.return %3 : tensor<i1>\n"
      "  } do {\n"
      "    stablehlo.return %iterArg : tensor<f64>\n"
      "  }\n"
      "  return %2 : tensor<f64>\n"
      "}\n";
  CHECK(refused(in_while) ==
        "6:5: error: stablehlo.compare operand 1 is not of the type its signature writes "
        "\xE2\x80\x94 expected "
        "tensor<f64>, got tensor<i1> (%1)");

  // The generic form, in a reduce body.
  const std::string in_reduce =
      "func.func @main(%a: tensor<4xf32>, %z: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {\n"
      "  %0 = \"stablehlo.reduce\"(%a, %z) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %s = \"stablehlo.add\"(%x, %p) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
      "  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n";
  CHECK(refused(in_reduce) ==
        "4:5: error: stablehlo.add operand 1 is not of the type its signature writes \xE2\x80\x94 "
        "expected "
        "tensor<f32>, got tensor<i1> (%p)");

  // A sort comparator.
  const std::string in_sort =
      "func.func @main(%a: tensor<4xf32>, %k: tensor<i32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.sort\"(%a) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %c = stablehlo.compare LT, %x, %k : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n";
  CHECK(refused(in_sort) ==
        "4:5: error: stablehlo.compare operand 1 is not of the type its signature writes "
        "\xE2\x80\x94 expected "
        "tensor<f32>, got tensor<i32> (%k)");
}

TEST_CASE("the one-type pretty form gives every operand the result's element type",
          "[hlo][verify]") {
  auto r =
      check("  %0 = stablehlo.add %a, %p : tensor<2xf32>\n", "%a: tensor<2xf32>, %p: tensor<2xi1>");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() ==
        "2:3: error: stablehlo.add operand 1 has another element type than the result \xE2\x80\x94 "
        "expected f32 "
        "(as tensor<2xf32>), got i1 (tensor<2xi1>)");
  auto cmp =
      check("  %0 = stablehlo.compare LT, %a, %p : (tensor<2xf32>, tensor<2xi1>) -> tensor<2xi1>\n",
            "%a: tensor<2xf32>, %p: tensor<2xi1>");
  REQUIRE_FALSE(cmp.ok());
  CHECK(cmp.error() ==
        "2:3: error: stablehlo.compare operand 1 has another element type than operand 0 "
        "\xE2\x80\x94 expected "
        "f32 (as tensor<2xf32>), got i1 (tensor<2xi1>)");
}

TEST_CASE("return gives the function's result types, and calls match their callee's signature",
          "[hlo][verify]") {
  const std::string head = "func.func @main(%a: tensor<32x8xf32>) -> tensor<32x7xf32> {\n";
  // The written type of the return's operand is checked first: it is the operand's own.
  CHECK(
      refused(head +
              "  %1 = stablehlo.tanh %a : tensor<32x8xf32>\n  return %1 : tensor<32x7xf32>\n}\n") ==
      "3:3: error: return operand 0 is not of the type its signature writes \xE2\x80\x94 expected "
      "tensor<32x7xf32>, got tensor<32x8xf32> (%1)");
  // Written right, yet not what the function's signature returns.
  CHECK(
      refused(head +
              "  %1 = stablehlo.tanh %a : tensor<32x8xf32>\n  return %1 : tensor<32x8xf32>\n}\n") ==
      "3:3: error: return operand 0 differs from @main's result type \xE2\x80\x94 expected "
      "tensor<32x7xf32> (result 0 of @main), got tensor<32x8xf32> (%1)");
  CHECK(refused(head + "  return %a, %a : tensor<32x8xf32>, tensor<32x8xf32>\n}\n") ==
        "2:3: error: return gives another number of values than @main returns \xE2\x80\x94 "
        "expected 1 (the "
        "results in @main's signature), got 2");

  const std::string callee =
      "func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : "
      "tensor<4xf32>\n}\n";
  CHECK(refused("func.func @main(%a: tensor<4xi32>) -> tensor<4xf32> {\n"
                "  %0 = func.call @f(%a) : (tensor<4xi32>) -> tensor<4xf32>\n"
                "  return %0 : tensor<4xf32>\n}\n" +
                callee) ==
        "2:3: error: func.call operand 0 differs from @f's argument \xE2\x80\x94 expected "
        "tensor<4xf32> "
        "(argument 0 of @f), got tensor<4xi32> (%a)");
  CHECK(refused("func.func @main(%a: tensor<4xf32>) -> tensor<4xi32> {\n"
                "  %0 = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xi32>\n"
                "  return %0 : tensor<4xi32>\n}\n" +
                callee) ==
        "2:3: error: func.call result 0 differs from @f's result \xE2\x80\x94 expected "
        "tensor<4xf32> (result 0 "
        "of @f), got tensor<4xi32>");
  CHECK(refused("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                "  %0 = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                "  return %0 : tensor<4xf32>\n}\n" +
                callee) ==
        "2:3: error: func.call names no function of this module \xE2\x80\x94 expected a function "
        "defined in the "
        "module, got @g");
}

TEST_CASE("a while's regions take and give its operands' types", "[hlo][verify]") {
  const std::string text =
      "func.func @main(%n: tensor<i32>, %x: tensor<f32>) -> tensor<i32> {\n"
      "  %0:2 = \"stablehlo.while\"(%n, %x) ({\n"
      "  ^bb0(%i: tensor<i32>, %v: tensor<f32>):\n"
      "    %c = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }, {\n"
      "  ^bb0(%i: tensor<i32>, %v: tensor<f32>):\n"
      "    stablehlo.return %i, %i : tensor<i32>, tensor<i32>\n"
      "  }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)\n"
      "  return %0#0 : tensor<i32>\n"
      "}\n";
  CHECK(refused(text) ==
        "2:3: error: while body's value 1 differs from operand 1 \xE2\x80\x94 expected tensor<f32> "
        "(the operand's "
        "type), got tensor<i32>");
}

TEST_CASE(
    "a convolution's written result shape must be the one inferred, before costing or running",
    "[hlo][verify]") {
  // [b, f, 0, 1] input 2x3x9x9, [o, i, 0, 1] kernel 4x3x3x3, no padding, stride 1:
  // each spatial size is (9 - 3) / 1 + 1 = 7, so the result is 2x4x7x7.
  auto conv = [](const std::string& out) {
    return "func.func @main(%x: tensor<2x3x9x9xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<" + out +
           "xf32> {\n"
           "  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, "
           "0, 1], "
           "window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : "
           "i64} : "
           "(tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<" +
           out +
           "xf32>\n"
           "  return %0 : tensor<" +
           out + "xf32>\n}\n";
  };
  CHECK(refused(conv("2x4x7x8")) ==
        "2:3: error: convolution result shape is wrong \xE2\x80\x94 expected [2, 4, 7, 7], got [2, "
        "4, 7, 8]");
  auto good = parse_stablehlo(conv("2x4x7x7"));
  REQUIRE(good.ok());
  auto v = verify(good->at(0));
  INFO((v.ok() ? "" : v.error()));
  CHECK(v.ok());
  // The run's JSON carries the same message (the interpreter's door is lower()).
  const std::string json = rl::report::run_text_json(conv("2x4x7x8"), rl::interp::RunOptions());
  CHECK(json.find("convolution result shape is wrong \xE2\x80\x94 expected [2, 4, 7, 7], got [2, "
                  "4, 7, 8]") != std::string::npos);
}

TEST_CASE("every branch of a case gives the op's result types", "[hlo][verify]") {
  const std::string text =
      "func.func @main(%i: tensor<i32>, %x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {\n"
      "  %0 = \"stablehlo.case\"(%i) ({\n"
      "    stablehlo.return %x : tensor<f32>\n"
      "  }, {\n"
      "    stablehlo.return %n : tensor<i32>\n"
      "  }) : (tensor<i32>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n";
  CHECK(refused(text) ==
        "2:3: error: stablehlo.case branch 1's value 0 differs from result 0 \xE2\x80\x94 expected "
        "tensor<f32> (the "
        "result's type), got tensor<i32>");
}

// The verifier reads an op's attributes through the lowering's decoder (decode.h), so every
// spelling either dialect writes is checked: HLO's broadcast writes `dimensions={...}`, which the
// verifier's own reader (it looked for `dims` and `broadcast_dimensions`) passed unchecked.
TEST_CASE("the verifier checks every spelling of an attribute the lowering decodes",
          "[hlo][verify]") {
  SECTION("HLO broadcast's dimensions={...}") {
    auto m = parse_hlo(
        "HloModule m\n\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT b = f32[3,4] "
        "broadcast(p), dimensions={1}\n}\n");
    REQUIRE(m.ok());
    auto v = verify(m->at(0));
    REQUIRE_FALSE(v.ok());
    CHECK(v.error() ==
          "5:3: error: broadcast_in_dim operand dimension does not fit \xE2\x80\x94 expected "
          "operand dim 0 of size 1 or 4, got 3");
    auto good = parse_hlo(
        "HloModule m\n\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT b = f32[3,4] "
        "broadcast(p), dimensions={0}\n}\n");
    REQUIRE(good.ok());
    CHECK(verify(good->at(0)).ok());
  }
  SECTION("generic StableHLO: broadcast_dimensions, permutation, dimension") {
    using Row = std::tuple<std::string, std::string, std::string>;
    auto [args, body, message] = GENERATE(table<std::string, std::string, std::string>({
        Row{"%a: tensor<3xf32>",
            "  %0 = \"stablehlo.broadcast_in_dim\"(%a) {broadcast_dimensions = array<i64: 1>} : "
            "(tensor<3xf32>) -> tensor<3x4xf32>\n",
            "2:3: error: broadcast_in_dim operand dimension does not fit \xE2\x80\x94 expected "
            "operand dim 0 of size 1 or 4, got 3"},
        Row{"%a: tensor<2x3xf32>",
            "  %0 = \"stablehlo.transpose\"(%a) {permutation = array<i64: 1, 1>} : "
            "(tensor<2x3xf32>) -> tensor<3x3xf32>\n",
            "2:3: error: transpose permutation is not a permutation \xE2\x80\x94 expected each of "
            "0..1 once, got [1, 1]"},
        Row{"%a: tensor<2x3xf32>",
            "  %0 = \"stablehlo.concatenate\"(%a, %a) {dimension = 2 : i64} : (tensor<2x3xf32>, "
            "tensor<2x3xf32>) -> tensor<4x3xf32>\n",
            "2:3: error: concatenate dimension out of range \xE2\x80\x94 expected a dimension in "
            "[0, 2), got 2"},
    }));
    auto v = check(body, args);
    INFO(body);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error() == message);
  }
}

// An integer list with anything else in it is refused, naming the value: before, the decoder
// skipped the name in `dimensions={0,x}` and read {0}, which a rank-1 operand then accepted.
TEST_CASE("an attribute's integer list with a name, a fraction or a missing comma is refused",
          "[hlo][verify]") {
  auto [value, shown] = GENERATE(table<std::string, std::string>({
      {"{0,x}", "{0,x}"},
      {"{1.5}", "{1.5}"},
      {"{0 1}", "{0 1}"},
      {"{999999999999999999999}", "{999999999999999999999}"},
  }));
  auto m = parse_hlo(
      "HloModule m\n\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT b = f32[3,4] "
      "broadcast(p), dimensions=" +
      value + "\n}\n");
  INFO(value);
  REQUIRE(m.ok());
  auto v = verify(m->at(0));
  REQUIRE_FALSE(v.ok());
  CHECK(
      v.error() ==
      "5:3: error: bad broadcast dimensions of broadcast \xE2\x80\x94 expected a list of integers, "
      "got " +
          shown);
  // The same list with integers only is read.
  auto good = parse_hlo(
      "HloModule m\n\nENTRY e {\n  p = f32[3] parameter(0)\n  ROOT b = f32[3,4] "
      "broadcast(p), dimensions={ 0 }\n}\n");
  REQUIRE(good.ok());
  CHECK(verify(good->at(0)).ok());
}

TEST_CASE(
    "an op's operands hold one element type (HLO: floats of two precisions may meet), a bitcast "
    "keeps its byte size and a convolution's window_reversal fits it, before anything runs",
    "[hlo][verify]") {
  // The interpreter's kernels trust these (RL_VERIFIED); each was the kernel's own refusal at run
  // time before, for HLO (and for window_reversal, in both dialects).
  const std::string d = " \xE2\x80\x94 expected ";
  const std::string hlo_head =
      "add_f32 {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(x, y)\n}\n"
      "ge {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
      "  ROOT p = pred[] compare(x, y), direction=GE\n}\n"
      "ENTRY e {\n  a = f32[4] parameter(0)\n  b = s32[4] parameter(1)\n  i = s32[] parameter(2)\n"
      "  z = f32[] parameter(3)\n  k = s32[4,1] parameter(4)\n  h = bf16[4] parameter(5)\n";
  SECTION("HLO refuses other pairs") {
    auto [op, message] = GENERATE_COPY(table<std::string, std::string>({
        std::tuple<std::string, std::string>{
            "ROOT r = f32[4] add(a, b)",
            "19:3: error: add operand 1 has another element type than the result" + d +
                "f32 (as f32[4]), got s32 (s32[4])"},
        {"ROOT r = pred[4] compare(a, b), direction=LT",
         "19:3: error: compare operand 1 has another element type than operand 0" + d +
             "f32 (as f32[4]), got s32 (s32[4])"},
        {"ROOT r = f32[8] concatenate(a, b), dimensions={0}",
         "19:3: error: concatenate operand 1 has another element type than the result" + d +
             "f32 (as f32[8]), got s32 (s32[4])"},
        {"ROOT r = f32[4] dynamic-update-slice(a, b, i)",
         "19:3: error: dynamic-update-slice update has another element type than the operand" + d +
             "f32 (as f32[4]), got s32"},
        {"ROOT r = s32[] reduce(b, z), dimensions={0}, to_apply=add_f32",
         "19:3: error: reduce init value 0 has another element type than input 0" + d +
             "s32 (as s32[4]), got f32[]"},
        {"ROOT r = f32[4] scatter(a, k, b), update_window_dims={}, inserted_window_dims={0}, "
         "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f32",
         "19:3: error: scatter update 0 has another element type than input 0" + d +
             "f32 (as f32[4]), got s32[4]"},
        {"ROOT r = f32[4] select-and-scatter(a, b, z), window={size=1}, select=ge, "
         "scatter=add_f32",
         "19:3: error: select-and-scatter source has another element type than the operand" + d +
             "f32 (as f32[4]), got s32[4]"},
        {"ROOT r = f32[5] bitcast(a)",
         "19:3: error: bitcast changes the byte size" + d +
             "16 bytes (the operand's, f32[4]), got 20 bytes (f32[5])"},
    }));
    auto r = check_hlo(hlo_head + "  " + op + "\n}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  SECTION("HLO lets floats of two precisions meet, and a bitcast reinterpret its bytes") {
    // Valid XLA (the interpreter refuses to run them, naming the types: not the verifier's).
    auto op = GENERATE(as<std::string>{}, "ROOT r = f32[4] add(a, h)",
                       "ROOT r = f32[8] concatenate(a, h), dimensions={0}",
                       "ROOT r = f32[4] dynamic-update-slice(a, h, i)",
                       "ROOT r = f32[] reduce(h, z), dimensions={0}, to_apply=add_f32",
                       "ROOT r = s32[2,2] bitcast(a)");
    auto r = check_hlo(hlo_head + "  " + op + "\n}\n");
    INFO(op);
    CHECK(r.ok());
  }
  SECTION("StableHLO: window_reversal") {
    auto r = check(
        "  %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
        "window = {stride = [1], reverse = [true, false]} {batch_group_count = 1 : i64, "
        "feature_group_count = 1 : i64} : (tensor<1x4x1xf32>, tensor<2x1x1xf32>) -> "
        "tensor<1x3x1xf32>\n",
        "%a: tensor<1x4x1xf32>, %w: tensor<2x1x1xf32>");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() ==
          "2:3: error: convolution window_reversal does not fit its spatial dimensions" + d +
              "1 flags (one per spatial dimension), got 2");
  }
}

TEST_CASE(
    "every block of a StableHLO op's region ends with its return, checked before anything runs",
    "[hlo][verify]") {
  // The if's second branch gives no value: caught here, not only when a run takes it.
  auto r = check(
      "  %0 = \"stablehlo.if\"(%p) ({\n"
      "    stablehlo.return %x : tensor<f32>\n"
      "  }, {\n"
      "    %1 = stablehlo.add %x, %x : tensor<f32>\n"
      "  }) : (tensor<i1>) -> tensor<f32>\n",
      "%p: tensor<i1>, %x: tensor<f32>");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() ==
        "2:3: error: stablehlo.if has a region that does not end with a return \xE2\x80\x94 "
        "expected stablehlo.return as the last op of each of its regions' blocks, got a block "
        "ending with stablehlo.add");
  auto ok = check(
      "  %0 = \"stablehlo.if\"(%p) ({\n"
      "    stablehlo.return %x : tensor<f32>\n"
      "  }, {\n"
      "    %1 = stablehlo.add %x, %x : tensor<f32>\n"
      "    stablehlo.return %1 : tensor<f32>\n"
      "  }) : (tensor<i1>) -> tensor<f32>\n",
      "%p: tensor<i1>, %x: tensor<f32>");
  CHECK(ok.ok());
}
