// Cost analysis with XLA's counting rules. Expected numbers are written as their formula.
#include "hlo/cost.h"

#include <cmath>
#include <utility>

#include "catch.hpp"
#include "hlo/emit.h"
#include "hlo/test_util.h"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using namespace rl::hlo;

namespace {
Analysis one(const std::string& text) { return rl::testing::analyze_one(text); }
}  // namespace

TEST_CASE("the lesson's module gives exactly XLA's recorded CPU cost analysis", "[hlo][cost]") {
  Analysis a = one(emit_workload(32, 16, 8, "f32").value());
  // lesson.md: flops 8192, transcendentals 256, bytes accessed 5632, {0} 3072, {1} 512, out 2048.
  CHECK(a.flops == 2 * 32 * 8 * 16);                               // 8192
  CHECK(a.transcendentals == 32 * 8);                              // 256
  CHECK(a.bytes_accessed == (2048 + 512 + 1024) + (1024 + 1024));  // 5632
  CHECK(a.bytes_accessed_operand.at(0) == 2048 + 1024);            // 3072
  CHECK(a.bytes_accessed_operand.at(1) == 512);
  CHECK(a.bytes_accessed_output == 1024 + 1024);                      // 2048
  CHECK(a.minimum_traffic_bytes == 4 * (32 * 16 + 16 * 8 + 32 * 8));  // 3584
  CHECK_THAT(a.intensity, WithinRel(8192.0 / 5632.0, 1e-12));
  CHECK(a.unmodeled.empty());
  CHECK(a.dialect == "stablehlo");
  CHECK(a.module_name == "jit_workload");
  REQUIRE(a.ops.size() == 2);
  CHECK(a.ops[0].op == "stablehlo.dot_general");
  CHECK(a.ops[0].line == 3);
  CHECK(a.ops[0].column == 5);
  CHECK(a.ops[0].flops == 8192);
  CHECK(a.ops[0].bytes_accessed == 2048 + 512 + 1024);
  CHECK_THAT(Analysis::intensity_of(a.ops[0]), WithinRel(8192.0 / 3584.0, 1e-12));
  CHECK(a.ops[1].op == "stablehlo.tanh");
  CHECK(a.ops[1].flops == 0);
  CHECK(a.ops[1].transcendentals == 256);
  CHECK(a.shape(a.ops[1]) == "tensor<32x8xf32>");
  CHECK(a.type(a.ops[1]).etype == ElementType::F32);
  CHECK(a.ops[0].top_level);
}

TEST_CASE("reduce costs (input - output elements) x the reducer, in both printed forms",
          "[hlo][cost]") {
  const std::string text =
      "func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<6xf32> {\n"
      "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : "
      "(tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>\n"
      "  %1 = \"stablehlo.reduce\"(%a, %z) <{dimensions = array<i64: 0>}> ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %m = stablehlo.multiply %x, %y : tensor<f32>\n"
      "    %e = stablehlo.exponential %m : tensor<f32>\n"
      "    stablehlo.return %e : tensor<f32>\n"
      "  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>\n"
      "  return %0 : tensor<6xf32>\n"
      "}\n";
  Analysis a = one(text);
  const auto top = rl::testing::top_rows(a);
  REQUIRE(top.size() == 2);
  CHECK(top[0].flops == 4 * 6 - 6);                  // one add per combined element
  CHECK(top[1].flops == 4 * 6 - 6);                  // the multiply
  CHECK(top[1].transcendentals == 4 * 6 - 6);        // the exponential
  CHECK(top[0].bytes_accessed == 4 * (24 + 1 + 6));  // operands + output, once each
  // The reducer's own ops are rows too (not top-level), costed once each, written before the
  // reduce.
  REQUIRE(a.ops.size() == 4);
  CHECK(a.ops[1].op == "stablehlo.multiply");
  CHECK(a.ops[1].flops == 1);
  CHECK_FALSE(a.ops[1].top_level);
  CHECK(a.ops[3].op == "stablehlo.reduce");
  CHECK(a.ops[3].top_level);
  CHECK(a.flops == 2 * (24 - 6));
}

TEST_CASE("slices read only what they output, and calls cost their callee at the call site",
          "[hlo][cost]") {
  const std::string text =
      "module @m {\n"
      "  func.func public @main(%a: tensor<10x10xf32>) -> tensor<2x10xf32> {\n"
      "    %0 = stablehlo.slice %a [0:2, 0:10] : (tensor<10x10xf32>) -> tensor<2x10xf32>\n"
      "    %1 = func.call @twice(%0) : (tensor<2x10xf32>) -> tensor<2x10xf32>\n"
      "    return %1 : tensor<2x10xf32>\n"
      "  }\n"
      "  func.func private @twice(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {\n"
      "    %0 = stablehlo.add %x, %x : tensor<2x10xf32>\n"
      "    return %0 : tensor<2x10xf32>\n"
      "  }\n"
      "}\n";
  Analysis a = one(text);
  REQUIRE(a.ops.size() == 3);  // main's slice and call, twice's add
  const auto top = rl::testing::top_rows(a);
  REQUIRE(top.size() == 2);
  CHECK(top[0].bytes_accessed ==
        2 * (2 * 10 * 4));  // XLA: output bytes twice, not the whole operand
  CHECK(a.operand_bytes(static_cast<std::size_t>(a.top_level()[0] - a.ops.data()))[0] ==
        2 * 10 * 4);
  CHECK(top[1].flops == 20);               // the callee's add
  CHECK(top[1].bytes_accessed == 3 * 80);  // the callee's add: two operands and a result
  CHECK(a.function(a.ops[2]) == "twice");
  CHECK_FALSE(a.ops[2].top_level);
  CHECK(a.flops == 20);
  CHECK(a.minimum_traffic_bytes == 400 + 80);
}

TEST_CASE("ops without a rule and dynamic shapes are listed as unmodeled, never zero",
          "[hlo][cost]") {
  const std::string text =
      "func.func @main(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {\n"
      "  %0 = stablehlo.add %a, %a : tensor<?x4xf32>\n"
      "  stablehlo.custom_call @check.expect_eq(%b, %b) {has_side_effect = true} : (tensor<4xf32>, "
      "tensor<4xf32>) -> ()\n"
      "  %1 = chlo.lgamma %b : tensor<4xf32> -> tensor<4xf32>\n"
      "  return %0 : tensor<?x4xf32>\n"
      "}\n";
  Analysis a = one(text);
  REQUIRE(a.ops.size() == 3);
  for (const auto& op : a.ops) CHECK_FALSE(op.modeled);
  CHECK(a.unmodeled.size() == 3);
  CHECK(a.flops == 0);
}

namespace {
// JAX's lax.fori_loop(start, limit, body, x) as it lowers (a counter carry, compared in the
// condition against a constant and incremented by 1 in the body), with the pieces varied.
std::string fori(const std::string& start, const std::string& cmp, const std::string& limit,
                 const std::string& step) {
  return "func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
         "  %c = stablehlo.constant dense<" +
         start +
         "> : tensor<i32>\n"
         "  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, "
         "tensor<4xf32>\n"
         "   cond {\n"
         "    %c_1 = stablehlo.constant dense<" +
         limit +
         "> : tensor<i32>\n"
         "    %1 = stablehlo.compare  " +
         cmp +
         ", %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
         "    stablehlo.return %1 : tensor<i1>\n"
         "  } do {\n"
         "    %1 = stablehlo.tanh %iterArg_0 : tensor<4xf32>\n"
         "    %c_1 = stablehlo.constant dense<" +
         step +
         "> : tensor<i32>\n"
         "    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>\n"
         "    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>\n"
         "  }\n"
         "  return %0#1 : tensor<4xf32>\n"
         "}\n";
}
// The while's row (the ops of its regions have rows of their own).
const OpCost& while_row(const Analysis& a) {
  for (const OpCost& o : a.ops)
    if (o.op == "stablehlo.while") return o;
  FAIL("no stablehlo.while row");
  return a.ops.front();
}
}  // namespace

TEST_CASE("a fori_loop's while is counted its trip count, as XLA's while-loop analysis finds it",
          "[hlo][cost]") {
  // Each trip: tanh of 4 elements (4 transcendentals); the counter's add and compare (2 flops).
  Analysis a = one(fori("0", "LT", "50", "1"));
  CHECK(a.transcendentals == 50 * 4);
  CHECK(a.flops == 50 * 2);
  CHECK_THAT(a.note(while_row(a)), Contains("counted 50 times"));
  CHECK(a.notes.empty());
  CHECK(one(fori("3", "LT", "10", "1")).transcendentals == 7 * 4);
  CHECK(one(fori("3", "LE", "10", "1")).transcendentals == 8 * 4);
  CHECK(one(fori("9", "LT", "2", "1")).transcendentals == 0);  // never runs
  CHECK(one(fori("-5", "LT", "5", "1")).transcendentals == 10 * 4);
  // Not the trivial pattern: counted once, with XLA's note.
  for (const auto& [cmp, step] :
       {std::pair<std::string, std::string>{"LT", "2"}, {"GT", "1"}, {"NE", "1"}}) {
    Analysis once = one(fori("0", cmp, "50", step));
    INFO(cmp << " step " << step);
    CHECK(once.transcendentals == 4);
    CHECK_THAT(once.note(while_row(once)), Contains("counted once"));
  }
}
