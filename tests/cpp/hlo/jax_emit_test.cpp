// The one emitter (hlo/jax_emit.h): literals, SSA names, private functions and tuple results as
// JAX prints them.
#include "hlo/jax_emit.h"

#include <cstdlib>

#include "catch.hpp"
#include "hlo/parse.h"
#include "hlo/verify.h"

using namespace rl::hlo::jax;

TEST_CASE("float literals print as MLIR prints them in JAX's modules", "[hlo][jax_emit]") {
  // Scalar constants copied from ../shared/corpus/stablehlo-interpret/*.mlir (what JAX printed):
  // each parses back to a value whose literal must be the same text.
  using Row = std::pair<const char*, const char*>;
  auto [text, dtype] = GENERATE(values<Row>({{"-0.0043243099950505759", "f64"},
                                             {"-1.000000e+00", "f32"},
                                             {"-1.03562903", "f32"},
                                             {"-1.300025009986248E-8", "f64"},
                                             {"-1.3539021", "f32"},
                                             {"-1.501950e+00", "f16"},
                                             {"-2.4558602681405732", "f64"},
                                             {"-5.156250e-01", "bf16"},
                                             {"-5.7637557453858236E-4", "f64"},
                                             {"-6.953130e-01", "bf16"},
                                             {"0.000000e+00", "f16"},
                                             {"0.0016394756169413357", "f64"},
                                             {"0.122255228", "f32"},
                                             {"1.1920929E-7", "f32"},
                                             {"1.601560e+00", "bf16"},
                                             {"2.000000e+03", "f32"},
                                             {"1.250000e-01", "f32"},
                                             {"0.333333343", "f32"}}));
  CAPTURE(text, dtype);
  CHECK(float_literal(std::strtod(text, nullptr), dtype) == text);
}

TEST_CASE("non-finite and integral-beyond-precision floats print as hex bits", "[hlo][jax_emit]") {
  CHECK(float_literal(-INFINITY, "f32") == "0xFF800000");
  CHECK(float_literal(-INFINITY, "f64") == "0xFFF0000000000000");
  CHECK(float_literal(-INFINITY, "f16") == "0xFC00");
  CHECK(float_literal(-INFINITY, "bf16") == "0xFF80");
  CHECK(float_literal(16777217.0, "f64") == "0x4170000010000000");
  CHECK(float_literal(0.1, "f32") == "1.000000e-01");
}

TEST_CASE("constants take MLIR's names with one conflict counter per function", "[hlo][jax_emit]") {
  Emitter e("f", {{{4}, "f32"}});
  auto a = e.constant(1, {{}, "f32"});
  auto b = e.constant(2, {{}, "i32"});
  auto c = e.constant(3, {{}, "f32"});
  auto d = e.constant(4, {{}, "i32"});
  auto x = e.broadcast_in_dim(a, {4}, {});
  auto text = e.finish({e.binary("add", e.arg(0), x), b, c, d});
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "%cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
                       "    %c = stablehlo.constant dense<2> : tensor<i32>\n"
                       "    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f32>\n"
                       "    %c_1 = stablehlo.constant dense<4> : tensor<i32>\n"
                       "    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> "
                       "tensor<4xf32>\n"));
}

// jit prunes the jaxpr before lowering (pxla._dce_jaxpr, keep_unused=False: pe.dce_jaxpr_consts,
// whose rule for a pjit call prunes the callee too): what reaches no result is not printed, and
// the names are those of the pruned module.
TEST_CASE("finish leaves out what nothing uses, as jit does: ops, arguments, functions",
          "[hlo][jax_emit]") {
  Emitter e("f", {{{2}, "f32"}, {{3}, "f32"}, {{2}, "f32"}});
  auto dead = e.unary("exponential", e.arg(0));  // read by nothing
  (void)e.binary("multiply", dead, dead);
  (void)e.constant(7, {{}, "i32"});  // a constant nothing reads: %c never printed
  const int unused = e.begin_function("cos", {{{2}, "f32"}});
  e.end_function({e.unary("cosine", e.arg(0))});
  (void)e.call(unused, {e.arg(0)});  // a call nothing reads: @cos not printed
  const int h = e.begin_function("h", {{{3}, "f32"}, {{2}, "f32"}});
  (void)e.unary("sine", e.arg(0));  // dead inside @h, whose first argument goes too
  e.end_function({e.unary("tanh", e.arg(1))});
  auto one = e.broadcast_in_dim(e.constant(1, {{}, "f32"}), {2}, {});
  auto r = e.binary("add", e.call(h, {e.arg(1), e.arg(2)})[0], one);
  const std::string text = e.finish({r});
  CHECK(text ==
        "module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
        "  func.func public @main(%arg0: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = "
        "\"result\"}) {\n"
        "    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
        "    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>\n"
        "    %1 = call @h(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
        "    %2 = stablehlo.add %1, %0 : tensor<2xf32>\n"
        "    return %2 : tensor<2xf32>\n"
        "  }\n"
        "  func.func private @h(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
        "    %0 = stablehlo.tanh %arg0 : tensor<2xf32>\n"
        "    return %0 : tensor<2xf32>\n"
        "  }\n"
        "}\n");
  CHECK(e.kept_args() == std::vector<int>{2});  // @main's %arg0 is the function's third
  auto m = rl::hlo::parse_stablehlo(text);
  REQUIRE(m.ok());
  CHECK(rl::hlo::verify(m->at(0)).ok());
  // Nothing to leave out: every argument kept, the text as built.
  Emitter all("g", {{{2}, "f32"}, {{2}, "f32"}});
  const std::string kept = all.finish({all.binary("add", all.arg(0), all.arg(1))});
  CHECK(all.kept_args() == std::vector<int>{0, 1});
  CHECK_THAT(kept, Catch::Matchers::Contains("%0 = stablehlo.add %arg0, %arg1 : tensor<2xf32>"));
}

// A jitted helper returning a pytree is one private function of several results; JAX's DCE rule
// for pjit drops the results a call leaves unread, and then what only they needed. A name that is
// not a bare identifier is quoted, as MLIR prints a jitted lambda's @"<lambda>".
TEST_CASE("a call of several results, its unread results left out, a quoted name",
          "[hlo][jax_emit]") {
  const Aval v2{{2}, "f32"};
  Emitter e("f", {v2, v2});
  const int pair = e.begin_function("pair", {v2, v2});
  e.end_function({e.unary("exponential", e.arg(0)), e.unary("tanh", e.arg(1))});
  const auto both = e.call(pair, {e.arg(0), e.arg(1)});
  REQUIRE(both.size() == 2);
  const std::string whole = e.finish({e.binary("add", both[0], both[1])});
  CHECK_THAT(whole, Catch::Matchers::Contains(
                        "    %0:2 = call @pair(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> "
                        "(tensor<2xf32>, tensor<2xf32>)\n"
                        "    %1 = stablehlo.add %0#0, %0#1 : tensor<2xf32>\n"));
  CHECK_THAT(whole, Catch::Matchers::Contains(
                        "  func.func private @pair(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> "
                        "(tensor<2xf32>, tensor<2xf32>) {\n"));
  auto m = rl::hlo::parse_stablehlo(whole);
  REQUIRE(m.ok());
  CHECK(rl::hlo::verify(m->at(0)).ok());

  // Only the second result read: @pair keeps tanh and its second argument; @main its second.
  Emitter g("<lambda>", {v2, v2});
  const int lam = g.begin_function("<lambda>", {v2, v2});
  g.end_function({g.unary("exponential", g.arg(0)), g.unary("tanh", g.arg(1))});
  const std::string pruned = g.finish({g.call(lam, {g.arg(0), g.arg(1)})[1]});
  CHECK(g.kept_args() == std::vector<int>{1});
  CHECK_THAT(pruned,
             Catch::Matchers::Contains(
                 "    %0 = call @\"<lambda>\"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"));
  CHECK_THAT(pruned,
             Catch::Matchers::Contains(
                 "  func.func private @\"<lambda>\"(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
                 "    %0 = stablehlo.tanh %arg0 : tensor<2xf32>\n"));
  CHECK_THAT(pruned, !Catch::Matchers::Contains("exponential"));
  auto pm = rl::hlo::parse_stablehlo(pruned);
  REQUIRE(pm.ok());
  CHECK(rl::hlo::verify(pm->at(0)).ok());

  // Called twice, each call reading another result: two functions, as two pruned jaxprs lower.
  Emitter h("f", {v2});
  const int p2 = h.begin_function("pair", {v2, v2});
  h.end_function({h.unary("exponential", h.arg(0)), h.unary("tanh", h.arg(1))});
  const auto first = h.call(p2, {h.arg(0), h.arg(0)});
  const auto second = h.call(p2, {h.arg(0), h.arg(0)});
  const std::string two = h.finish({h.binary("add", first[0], second[1])});
  CHECK_THAT(two, Catch::Matchers::Contains("func.func private @pair(%arg0: tensor<2xf32>)"));
  CHECK_THAT(two, Catch::Matchers::Contains("func.func private @pair_0(%arg0: tensor<2xf32>)"));
  auto tm = rl::hlo::parse_stablehlo(two);
  REQUIRE(tm.ok());
  CHECK(rl::hlo::verify(tm->at(0)).ok());
}

// A loop's body is traced once with placeholders for what it closes over, then made again with
// the loop's arguments (remake_function); finish prunes a loop as JAX's _scan_dce_rule does.
TEST_CASE("a loop body made again from its record, and a loop's unread carries left out",
          "[hlo][jax_emit]") {
  const Aval v2{{2}, "f32"};
  Emitter e("f", {v2, v2, v2});
  // The body as traced: (i, a, b) -> (i + 1, a * w, b + a), w a placeholder (a zero).
  const int body = e.begin_function("None", {{{}, "i32"}, v2, v2});
  auto w = e.broadcast_in_dim(e.constant(0, {{}, "f32"}), {2}, {});
  auto next_i = e.binary("add", e.arg(0), e.constant(1, {{}, "i32"}));
  auto a = e.binary("multiply", e.arg(1), w);
  auto b = e.binary("add", e.arg(2), e.arg(1));
  e.end_function({next_i, a, b});
  // i reaches no carry: the body the loop calls takes (w, a, b) and gives (a', b').
  const std::vector<bool> needed = e.needed_values(body, 1);
  CHECK_FALSE(needed[0]);
  CHECK(needed[std::size_t(w.id)]);
  e.remake_function(body, {v2, v2, v2}, {{w.id, 0}, {1, 1}, {2, 2}}, 1);
  auto outs = e.scan_while({e.arg(2)}, {e.arg(0), e.arg(1)}, 3, body);
  // Only a is read after the loop, and a' needs neither b nor b's init: both go, and @main's
  // second argument with them.
  const std::string text = e.finish({outs[0]});
  CHECK(e.kept_args() == std::vector<int>{0, 2});
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %c, %iterArg_1 = "
                       "%arg0) : tensor<2xf32>, tensor<i32>, tensor<2xf32>\n"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "  func.func private @None(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> "
                       "tensor<2xf32> {\n"
                       "    %0 = stablehlo.multiply %arg1, %arg0 : tensor<2xf32>\n"
                       "    return %0 : tensor<2xf32>\n"
                       "  }\n"));
  auto m = rl::hlo::parse_stablehlo(text);
  REQUIRE(m.ok());
  CHECK(rl::hlo::verify(m->at(0)).ok());
}

TEST_CASE("private functions, calls and tuple results print as JAX does and verify",
          "[hlo][jax_emit]") {
  Emitter e("g", {{{2, 3}, "f32"}});
  REQUIRE(e.find_function("relu", {{{2, 3}, "f32"}}) == -1);
  int relu = e.begin_function("relu", {{{2, 3}, "f32"}});
  auto zero = e.broadcast_in_dim(e.constant(0, {{}, "f32"}), {2, 3}, {});
  e.end_function({e.binary("maximum", e.arg(0), zero)});
  CHECK(e.find_function("relu", {{{2, 3}, "f32"}}) == relu);
  auto r = e.call(relu, {e.arg(0)})[0];
  auto t = e.transpose(r, {1, 0});
  const std::string text = e.finish({r, t});
  const std::string expected =
      "module @jit_g attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32> {jax.result_info = "
      "\"result[0]\"}, "
      "tensor<3x2xf32> {jax.result_info = \"result[1]\"}) {\n"
      "    %0 = call @relu(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
      "    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
      "    return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>\n"
      "  }\n"
      "  func.func private @relu(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
      "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>\n"
      "    %1 = stablehlo.maximum %arg0, %0 : tensor<2x3xf32>\n"
      "    return %1 : tensor<2x3xf32>\n"
      "  }\n"
      "}\n";
  CHECK(text == expected);
  auto mods = rl::hlo::parse_stablehlo(text);
  INFO((mods.ok() ? "" : mods.error()));
  REQUIRE(mods.ok());
  auto v = rl::hlo::verify(mods->front());
  CHECK(v.ok());
}

// A host array JAX bakes in (a closed-over constant): MLIR's dense forms, and printed at the top
// of its function whatever the point of use (jax's lowering emits a jaxpr's consts first).
TEST_CASE("constant arrays print as MLIR's dense forms, at the top of their function",
          "[hlo][jax_emit]") {
  Emitter e("f", {{{2, 2}, "f32"}});
  auto two = e.broadcast_in_dim(e.constant(2, {{}, "f32"}), {2, 2}, {});
  auto x = e.binary("multiply", e.arg(0), two);
  auto w = e.constant_array({1, 2.5, -3, 0.1}, {{2, 2}, "f32"});  // nested lists
  auto s = e.constant_array({7, 7, 7}, {{3}, "i32"});             // a splat
  auto u = e.constant_array({1, 0, 1}, {{3}, "i1"});
  auto big = e.constant_array(std::vector<double>(101, 0.0), {{101}, "ui8"});  // splat wins
  std::vector<double> ramp;
  for (int k = 0; k < 101; ++k) ramp.push_back(k == 100 ? -1 : k);
  auto hex = e.constant_array(ramp, {{101}, "i16"});  // past 100 elements: hex
  auto h1 = e.constant_array(std::vector<double>(101, 1.0), {{101}, "f16"});
  auto empty = e.constant_array({}, {{0}, "f32"});
  const std::string text = e.finish({e.binary("add", x, w), s, u, big, hex, h1, empty});
  CAPTURE(text);
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "{\n    %cst = stablehlo.constant dense<[[1.000000e+00, 2.500000e+00], "
                       "[-3.000000e+00, 1.000000e-01]]> : tensor<2x2xf32>\n"
                       "    %c = stablehlo.constant dense<7> : tensor<3xi32>\n"
                       "    %c_0 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>\n"
                       "    %c_1 = stablehlo.constant dense<0> : tensor<101xui8>\n"
                       "    %c_2 = stablehlo.constant dense<\"0x000001000200"));
  CHECK_THAT(text, Catch::Matchers::Contains("6300FFFF\"> : tensor<101xi16>\n"
                                             "    %cst_3 = stablehlo.constant "
                                             "dense<1.000000e+00> : tensor<101xf16>\n"
                                             "    %cst_4 = stablehlo.constant dense<> : "
                                             "tensor<0xf32>\n"
                                             "    %cst_5 = stablehlo.constant "
                                             "dense<2.000000e+00> : tensor<f32>\n"));
  auto mods = rl::hlo::parse_stablehlo(text);
  INFO((mods.ok() ? "" : mods.error()));
  REQUIRE(mods.ok());
  CHECK(rl::hlo::verify(mods->front()).ok());
}

TEST_CASE("scatter prints JAX's generic form: dimension numbers, flags, the region",
          "[hlo][jax_emit]") {
  // The second scatter's index constant is printed first (a closed-over constant); MLIR numbers
  // a region's values and block arguments on from the function's.
  Emitter e("f", {{{5, 6, 7}, "f32"}, {{5, 2, 2}, "f32"}, {{4}, "i32"}, {{}, "i32"}});
  auto idx = e.constant_array({0, 1, 2, 3, 4, 0, 1, 2}, {{2, 2, 2}, "i64"});
  auto a = e.scatter(e.arg(0), idx, e.arg(1), "add", {0}, {1, 2}, {1, 2}, false, true);
  auto i1 = e.constant_array({2}, {{1}, "i32"});
  auto b = e.scatter(e.arg(2), i1, e.arg(3), "", {}, {0}, {0}, true, true);
  const std::string text = e.finish({a, b});
  CAPTURE(text);
  CHECK_THAT(text,
             Catch::Matchers::Contains(
                 "    %0 = \"stablehlo.scatter\"(%arg0, %c, %arg1) <{scatter_dimension_numbers = "
                 "#stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1, 2], "
                 "scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 2>, unique_indices = "
                 "true}> ({\n"
                 "    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):\n"
                 "      %1 = stablehlo.add %arg4, %arg5 : tensor<f32>\n"
                 "      stablehlo.return %1 : tensor<f32>\n"
                 "    }) : (tensor<5x6x7xf32>, tensor<2x2x2xi64>, tensor<5x2x2xf32>) -> "
                 "tensor<5x6x7xf32>\n"
                 "    %2 = \"stablehlo.scatter\"(%arg2, %c_0, %arg3) <{indices_are_sorted = true, "
                 "scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
                 "scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({\n"
                 "    ^bb0(%arg6: tensor<i32>, %arg7: tensor<i32>):\n"
                 "      stablehlo.return %arg7 : tensor<i32>\n"));
  auto mods = rl::hlo::parse_stablehlo(text);
  INFO((mods.ok() ? "" : mods.error()));
  REQUIRE(mods.ok());
  CHECK(rl::hlo::verify(mods->front()).ok());
}
