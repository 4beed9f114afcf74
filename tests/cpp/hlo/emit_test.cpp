// The emitter: the lesson's StableHLO, exactly as JAX prints it, for any sizes and float dtype.
#include "hlo/emit.h"

#include "catch.hpp"
#include "hlo/cost.h"
#include "hlo/parse.h"

using namespace rl::hlo;

namespace {
// /work/shared/reference/lesson.md, "StableHLO as JAX prints it", recent JAX.
const char* kLessonText =
    "module @jit_workload attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} "
    "{\n"
    "  func.func public @main(%arg0: tensor<32x16xf32>, %arg1: tensor<16x8xf32>) -> "
    "(tensor<32x8xf32> "
    "{jax.result_info = \"result\"}) {\n"
    "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = "
    "[DEFAULT, "
    "DEFAULT] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>\n"
    "    %1 = stablehlo.tanh %0 : tensor<32x8xf32>\n"
    "    return %1 : tensor<32x8xf32>\n"
    "  }\n"
    "}\n";
}  // namespace

TEST_CASE("emit_workload prints the lesson's module exactly as JAX does", "[hlo][emit]") {
  auto text = emit_workload(32, 16, 8, "f32");
  REQUIRE(text.ok());
  CHECK(text.value() == kLessonText);
}

TEST_CASE("emitted text parses back with the sizes and dtype it was given", "[hlo][emit]") {
  using Row = std::tuple<double, double, double, std::string, int>;
  auto [m, k, n, dtype, bytes] = GENERATE(table<double, double, double, std::string, int>(
      {Row{32, 16, 8, "f32", 4}, Row{48, 24, 12, "bf16", 2}, Row{1, 1, 1, "f16", 2},
       Row{7, 5, 3, "f64", 8}}));
  auto text = emit_workload(m, k, n, dtype);
  REQUIRE(text.ok());
  auto mods = parse_stablehlo(text.value());
  REQUIRE(mods.ok());
  REQUIRE(mods->size() == 1);
  const Module& mod = mods->front();
  CHECK(mod.name == "jit_workload");
  REQUIRE(mod.functions.size() == 1);
  const Function& f = mod.functions[0];
  CHECK(f.is_entry);
  REQUIRE(f.args.size() == 2);
  const Type& a = mod.value_type(f, f.args[0]);
  const Type& b = mod.value_type(f, f.args[1]);
  CHECK(a.dims == std::vector<std::int64_t>{std::int64_t(m), std::int64_t(k)});
  CHECK(b.dims == std::vector<std::int64_t>{std::int64_t(k), std::int64_t(n)});
  CHECK(a.element == dtype);
  CHECK(a.element_bytes == bytes);
  REQUIRE(f.body.blocks.size() == 1);
  const auto& ops = f.body.blocks[0].ops;
  REQUIRE(ops.size() == 3);
  CHECK(ops[0].name == "stablehlo.dot_general");
  CHECK(mod.value_type(f, f.results(ops[0])[0]).dims ==
        std::vector<std::int64_t>{std::int64_t(m), std::int64_t(n)});
  CHECK(ops[1].name == "stablehlo.tanh");
  CHECK(ops[2].name == "return");
}

TEST_CASE("emit_workload refuses bad sizes and dtypes, naming the argument and the value",
          "[hlo][emit]") {
  using Row = std::tuple<double, double, double, std::string, std::string>;
  auto [m, k, n, dtype, message] =
      GENERATE(table<double, double, double, std::string, std::string>({
          Row{0, 16, 8, "f32", "m must be a positive integer, got 0"},
          Row{32, -1, 8, "f32", "k must be a positive integer, got -1"},
          Row{32, 16, 2.5, "f32", "n must be a positive integer, got 2.5"},
          Row{32, 16, 8, "i7", "dtype must be one of f32, bf16, f16, f64, got \"i7\""},
          Row{32, 16, 8, "", "dtype must be one of f32, bf16, f16, f64, got \"\""},
          Row{1e300, 16, 8, "f32", "m must be at most 2^53 = 9007199254740992, got 1e+300"},
      }));
  auto text = emit_workload(m, k, n, dtype);
  REQUIRE_FALSE(text.ok());
  CHECK(text.error() == message);
}

TEST_CASE("the bundled examples parse, verify and cost as their formulas say", "[hlo][emit]") {
  auto ex = rl::hlo::examples();
  REQUIRE(ex.size() == 3);
  CHECK(ex[0].name == "lesson");
  CHECK(ex[0].text == rl::hlo::emit_workload(32, 16, 8, "f32").value());
  auto cost = [](const std::string& text) {
    auto a = rl::hlo::analyze(text);
    INFO((a.ok() ? "" : a.error()));
    REQUIRE(a.ok());
    REQUIRE(a.value().size() == 1);
    CHECK(a.value()[0].unmodeled.empty());
    return a.value()[0];
  };
  // MLP (128, 512, 256): dot 2·128·256·512, add and maximum one flop per output element.
  const double B = 128, I = 512, O = 256;
  auto mlp = cost(ex[1].text);
  CHECK(mlp.flops == 2 * B * O * I + 2 * B * O);
  CHECK(mlp.transcendentals == 0);
  CHECK(mlp.minimum_traffic_bytes == 4 * (B * I + I * O + O + B * O));
  // Attention (seq 128, d 64): two dots of 2·S·S·D, scale/subtract/divide S·S each, two reduces
  // of (S·S − S) each, exp S·S transcendentals.
  const double S = 128, D = 64;
  auto att = cost(ex[2].text);
  CHECK(att.flops == 2 * (2 * S * S * D) + 3 * S * S + 2 * (S * S - S));
  CHECK(att.transcendentals == S * S);
  CHECK(att.minimum_traffic_bytes == 4 * 4 * S * D);
  CHECK_THAT(ex[2].text, Catch::Matchers::Contains("dense<1.250000e-01>"));  // 1/√64
}

TEST_CASE("the example emitters refuse bad sizes and dtypes by name", "[hlo][emit]") {
  CHECK(rl::hlo::emit_mlp_layer(0, 4, 4, "f32").error() ==
        "batch must be a positive integer, got 0");
  CHECK(rl::hlo::emit_attention(8, -1, "f32").error() == "d must be a positive integer, got -1");
  CHECK(rl::hlo::emit_attention(8, 8, "i7").error() ==
        "dtype must be one of f32, bf16, f16, f64, got \"i7\"");
  auto bf16 = rl::hlo::analyze(rl::hlo::emit_mlp_layer(2, 3, 4, "bf16").value());
  REQUIRE(bf16.ok());
  CHECK(bf16.value()[0].minimum_traffic_bytes == 2 * (2 * 3 + 3 * 4 + 4 + 2 * 4));
}
