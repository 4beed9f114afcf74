// Costs of HLO modules with XLA's rules: fusions, while loops, collectives, cuBLAS custom calls,
// tuples. Each expected number is derived by hand next to its literal.
#include "catch.hpp"
#include "hlo/cost.h"
#include "hlo/test_util.h"

using Catch::Matchers::Contains;
using namespace rl::hlo;

namespace {
Analysis one(const std::string& text) { return rl::testing::analyze_one(text); }

const OpCost& row(const Analysis& a, const std::string& op) {
  for (const auto& r : a.ops)
    if (r.op == op) return r;
  FAIL("no row for " << op);
  return a.ops.front();
}
using rl::testing::top_rows;
}  // namespace

TEST_CASE("the lesson's program as HLO gives XLA's recorded CPU cost analysis", "[hlo][cost]") {
  // jax.jit(workload).lower(a, b).compile().as_text() before fusion: dot, then tanh.
  const std::string text =
      "HloModule jit_workload, entry_computation_layout={(f32[32,16]{1,0}, "
      "f32[16,8]{1,0})->f32[32,8]{1,0}}\n"
      "\n"
      "ENTRY %main.4 (Arg_0.1: f32[32,16], Arg_1.2: f32[16,8]) -> f32[32,8] {\n"
      "  %Arg_0.1 = f32[32,16]{1,0} parameter(0)\n"
      "  %Arg_1.2 = f32[16,8]{1,0} parameter(1)\n"
      "  %dot.3 = f32[32,8]{1,0} dot(f32[32,16]{1,0} %Arg_0.1, f32[16,8]{1,0} %Arg_1.2), "
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  ROOT %tanh.4 = f32[32,8]{1,0} tanh(f32[32,8]{1,0} %dot.3)\n"
      "}\n";
  Analysis a = one(text);
  // lesson.md: flops 8192, transcendentals 256, bytes accessed 5632, {0} 3072, {1} 512, out 2048.
  CHECK(a.dialect == "hlo");
  CHECK(a.module_name == "jit_workload");
  CHECK(a.entry == "main.4");
  CHECK(a.flops == 2 * 32 * 8 * 16);                               // 8192
  CHECK(a.transcendentals == 32 * 8);                              // 256
  CHECK(a.bytes_accessed == (2048 + 512 + 1024) + (1024 + 1024));  // 5632
  CHECK(a.unfused_bytes_accessed == a.bytes_accessed);             // nothing is fused
  CHECK(a.bytes_accessed_operand.at(0) == 2048 + 1024);            // 3072
  CHECK(a.bytes_accessed_operand.at(1) == 512);
  CHECK(a.bytes_accessed_output == 1024 + 1024);                      // 2048
  CHECK(a.minimum_traffic_bytes == 4 * (32 * 16 + 16 * 8 + 32 * 8));  // 3584
  CHECK(a.unmodeled.empty());
  REQUIRE(top_rows(a).size() == 2);
  CHECK(top_rows(a)[0].op == "dot");
  CHECK(a.shape(top_rows(a)[0]) == "f32[32,8]");
  CHECK(top_rows(a)[0].line == 6);
  CHECK(top_rows(a)[0].column == 3);
  CHECK(top_rows(a)[1].transcendentals == 256);
}

TEST_CASE("the lesson's program fused into one fusion moves only the boundary bytes",
          "[hlo][cost]") {
  const std::string kind = GENERATE(as<std::string>{}, "kLoop", "kOutput");
  const std::string text =
      "HloModule jit_workload\n"
      "\n"
      "%fused_computation (param_0: f32[32,16], param_1: f32[16,8]) -> f32[32,8] {\n"
      "  %param_0 = f32[32,16]{1,0} parameter(0)\n"
      "  %param_1 = f32[16,8]{1,0} parameter(1)\n"
      "  %dot.0 = f32[32,8]{1,0} dot(%param_0, %param_1), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}\n"
      "  ROOT %tanh.0 = f32[32,8]{1,0} tanh(%dot.0)\n"
      "}\n"
      "\n"
      "ENTRY %main (a: f32[32,16], b: f32[16,8]) -> f32[32,8] {\n"
      "  %a = f32[32,16]{1,0} parameter(0)\n"
      "  %b = f32[16,8]{1,0} parameter(1)\n"
      "  ROOT %fusion = f32[32,8]{1,0} fusion(%a, %b), kind=" +
      kind +
      ", calls=%fused_computation\n"
      "}\n";
  Analysis a = one(text);
  CHECK(a.flops == 2 * 32 * 8 * 16);             // the fused dot: 8192
  CHECK(a.transcendentals == 32 * 8);            // the fused tanh: 256
  CHECK(a.bytes_accessed == 1024 + 2048 + 512);  // output + each parameter once: 3584
  CHECK(a.bytes_accessed == a.minimum_traffic_bytes);
  CHECK(a.unfused_bytes_accessed == 3584 + 2048);  // dot and tanh on their own: 5632
  CHECK(a.bytes_accessed_operand.at(0) == 2048);
  CHECK(a.bytes_accessed_operand.at(1) == 512);
  REQUIRE(top_rows(a).size() == 1);
  CHECK(top_rows(a)[0].op == "fusion");
  CHECK(top_rows(a)[0].bytes_accessed == 3584);
  CHECK(a.unfused_bytes(top_rows(a)[0]) == 5632);
}

TEST_CASE("a fusion counts its fused flops, reads a shared parameter once, and saves traffic",
          "[hlo][cost]") {
  const std::string text =
      "HloModule m\n"
      "fused {\n"
      "  p0 = f32[1024] parameter(0)\n"
      "  p1 = f32[1024] parameter(1)\n"
      "  mul = f32[1024] multiply(p0, p1)\n"
      "  e = f32[1024] exponential(mul)\n"
      "  b = f32[1024] broadcast(p1), dimensions={0}\n"
      "  ROOT out = f32[1024] add(e, b)\n"
      "}\n"
      "ENTRY main {\n"
      "  x = f32[1024] parameter(0)\n"
      "  y = f32[1024] parameter(1)\n"
      "  ROOT f = f32[1024] fusion(x, y), kind=kLoop, calls=fused\n"
      "}\n";
  Analysis a = one(text);
  CHECK(a.flops == 1024 + 1024);     // multiply + add
  CHECK(a.transcendentals == 1024);  // exponential
  // p0: one read (multiply); p1: one shared read (multiply) + one per broadcast user, as XLA.
  CHECK(a.bytes_accessed_operand.at(0) == 4096);
  CHECK(a.bytes_accessed_operand.at(1) == 4096 + 4096);
  CHECK(a.bytes_accessed == 4096 + 4096 + 8192);  // output + operands: 16384
  // unfused: multiply 3·4096 + exponential 2·4096 + broadcast 2·4096 + add 3·4096 = 40960
  CHECK(a.unfused_bytes_accessed == 10 * 4096);
  CHECK(a.bytes_accessed < a.unfused_bytes_accessed);
}

namespace {
std::string while_module(const std::string& backend_config) {
  return "HloModule loop\n"
         "body {\n"
         "  p = (s32[], f32[4]) parameter(0)\n"
         "  i = s32[] get-tuple-element(p), index=0\n"
         "  x = f32[4] get-tuple-element(p), index=1\n"
         "  one = s32[] constant(1)\n"
         "  i1 = s32[] add(i, one)\n"
         "  y = f32[4] multiply(x, x)\n"
         "  ROOT t = (s32[], f32[4]) tuple(i1, y)\n"
         "}\n"
         "cond {\n"
         "  p = (s32[], f32[4]) parameter(0)\n"
         "  i = s32[] get-tuple-element(p), index=0\n"
         "  n = s32[] constant(5)\n"
         "  ROOT lt = pred[] compare(i, n), direction=LT\n"
         "}\n"
         "ENTRY main {\n"
         "  x = f32[4] parameter(0)\n"
         "  zero = s32[] constant(0)\n"
         "  init = (s32[], f32[4]) tuple(zero, x)\n"
         "  ROOT w = (s32[], f32[4]) while(init), condition=cond, body=body" +
         backend_config + "\n}\n";
}
// One trip: body add (s32) 1 flop, 4+4+4 bytes; multiply 4 flops, 3·16 bytes; tuple 2·8 bytes;
// condition compare 1 flop, 4+4+1 bytes. So 6 flops and 12+48+16+9 = 85 bytes per trip.
constexpr double kTripFlops = 1 + 4 + 1;
constexpr double kTripBytes = 12 + 48 + 16 + 9;
constexpr double kInitTuple = 2 * 8;  // the entry's tuple: its index table
}  // namespace

TEST_CASE("a while with known_trip_count 5 costs its body and condition five times",
          "[hlo][cost]") {
  const std::string config =
      GENERATE(as<std::string>{}, ", backend_config={\"known_trip_count\":{\"n\":\"5\"}}",
               ", backend_config=\"{\\\"known_trip_count\\\":{\\\"n\\\":\\\"5\\\"}}\"");
  Analysis a = one(while_module(config));
  CHECK(a.flops == 5 * kTripFlops);                        // 30
  CHECK(a.bytes_accessed == 5 * kTripBytes + kInitTuple);  // 441
  const OpCost& w = row(a, "while");
  CHECK(w.flops == 30);
  CHECK(w.bytes_accessed == 425);
  CHECK_THAT(a.note(w), Contains("5 times"));
  CHECK(a.notes.empty());
}

TEST_CASE("a while without a known trip count is counted once, with a note", "[hlo][cost]") {
  Analysis a = one(while_module(""));
  CHECK(a.flops == kTripFlops);                        // 6
  CHECK(a.bytes_accessed == kTripBytes + kInitTuple);  // 101
  REQUIRE(a.notes.size() == 1);
  CHECK_THAT(a.notes[0], Contains("counted once"));
  CHECK_THAT(a.note(row(a, "while")), Contains("counted once"));
}

TEST_CASE("collectives send ring-model bytes per device over their replica group", "[hlo][cost]") {
  using Row = std::tuple<std::string, double>;
  // S = f32[1024] = 4096 bytes, n = 4 devices in the group.
  auto [instruction, bytes] = GENERATE(table<std::string, double>({
      Row{"f32[1024] all-reduce(x), replica_groups={{0,1,2,3}}, to_apply=sum",
          2.0 * 3 / 4 * 4096},  // 6144
      Row{"f32[1024] all-reduce(x), replica_groups=[1,4]<=[4], to_apply=sum", 2.0 * 3 / 4 * 4096},
      Row{"f32[1024] all-reduce(x), replica_groups={}, to_apply=sum",
          2.0 * 3 / 4 * 4096},  // replica_count=4
      Row{"f32[1024] all-reduce-start(x), replica_groups={{0,1,2,3}}, to_apply=sum",
          2.0 * 3 / 4 * 4096},
      Row{"f32[4096] all-gather(x), replica_groups={{0,1,2,3}}, dimensions={0}",
          3.0 / 4 * 16384},  // 12288
      Row{"f32[256] reduce-scatter(x), replica_groups={{0,1,2,3}}, dimensions={0}, to_apply=sum",
          3.0 / 4 * 4096},
      Row{"f32[1024] all-to-all(x), replica_groups={{0,1,2,3}}, dimensions={0}",
          3.0 / 4 * 4096},  // 3072
      Row{"f32[1024] collective-permute(x), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}", 4096.0},
  }));
  const std::string text =
      "HloModule m, replica_count=4\n"
      "sum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n"
      "ENTRY main {\n  x = f32[1024] parameter(0)\n  ROOT r = " +
      instruction + "\n}\n";
  Analysis a = one(text);
  CHECK(a.collective_bytes == bytes);
  REQUIRE(top_rows(a).size() == 1);
  CHECK(a.collective_bytes_of(top_rows(a)[0]) == bytes);
}

TEST_CASE("an all-reduce counts XLA's flops and bytes besides its ring bytes", "[hlo][cost]") {
  const std::string text =
      "HloModule m\n"
      "sum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n"
      "ENTRY main {\n  x = f32[1024] parameter(0)\n"
      "  ROOT r = f32[1024] all-reduce(x), replica_groups={{0,1,2,3}}, to_apply=sum\n}\n";
  Analysis a = one(text);
  CHECK(a.flops == 1024);                                 // XLA: one add per output element
  CHECK(a.bytes_accessed == 4096 + 4096);                 // operand + output
  CHECK(a.collective_bytes == 2.0 * (4 - 1) / 4 * 4096);  // 6144
}

TEST_CASE(
    "cuBLAS GEMM custom calls cost a dot from their backend_config, and other targets are "
    "unmodeled",
    "[hlo][cost]") {
  const std::string config = GENERATE(
      as<std::string>{},
      "{\"gemm_backend_config\":{\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"
      "\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],\"rhs_batch_dimensions\":"
      "[]}}}",
      "\"{\\\"gemm_backend_config\\\":{\\\"dot_dimension_numbers\\\":{\\\"lhs_contracting_"
      "dimensions\\\":[\\\"1\\\"],"
      "\\\"rhs_contracting_dimensions\\\":[\\\"0\\\"]}}}\"");
  const std::string text =
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[32,16] parameter(0)\n"
      "  b = f32[16,8] parameter(1)\n"
      "  g = (f32[32,8], s8[4096]) custom-call(a, b), custom_call_target=\"__cublas$lt$matmul\", "
      "backend_config=" +
      config +
      "\n"
      "  r = f32[32,8] get-tuple-element(g), index=0\n"
      "  ROOT o = f32[32,8] custom-call(r), custom_call_target=\"my_kernel\"\n"
      "}\n";
  Analysis a = one(text);
  CHECK(a.flops == 2 * 32 * 8 * 16);             // 8192, as the lesson's dot
  CHECK(a.bytes_accessed == 2048 + 512 + 1024);  // operands + the result (workspace left out)
  REQUIRE(a.unmodeled.size() == 1);
  CHECK(a.unmodeled[0].first == "custom-call");
  REQUIRE(top_rows(a).size() == 2);
  CHECK(top_rows(a)[0].modeled);
  CHECK_FALSE(top_rows(a)[1].modeled);
  CHECK_THAT(a.note(top_rows(a)[1]), Contains("my_kernel"));
}

TEST_CASE("tuples write their index table and get-tuple-element is free, in both dialects",
          "[hlo][cost]") {
  Analysis h = one(
      "HloModule m\nENTRY main {\n  a = f32[4] parameter(0)\n  b = s32[] parameter(1)\n"
      "  t = (f32[4], s32[]) tuple(a, b)\n  ROOT g = f32[4] get-tuple-element(t), index=0\n}\n");
  Analysis s =
      one("func.func @main(%a: tensor<4xf32>, %b: tensor<i32>) -> tensor<4xf32> {\n"
          "  %t = stablehlo.tuple %a, %b : tuple<tensor<4xf32>, tensor<i32>>\n"
          "  %g = stablehlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> "
          "tensor<4xf32>\n"
          "  return %g : tensor<4xf32>\n"
          "}\n");
  for (const Analysis* a : {&h, &s}) {
    CHECK(a->bytes_accessed == 2 * 8);  // XLA's HandleTuple: 8 bytes per element, operands not read
    CHECK(a->bytes_accessed_output == 16);
    CHECK(a->bytes_accessed_operand.at(0) == 0);
    REQUIRE(a->ops.size() == 1);  // get-tuple-element has no row: it costs nothing
  }
}

TEST_CASE("the intentionally invalid concatenate is refused by the verifier", "[hlo][verify]") {
  auto r = analyze(
      "HloModule module_computation\n\nENTRY %computation (Arg_1.2: f32[2,1], Arg_2.2: f32[3,1]) "
      "-> f32[3,2] {\n"
      "  %Arg_1.2 = f32[2,1]{1,0} parameter(0)\n  %Arg_2.2 = f32[3,1]{1,0} parameter(1)\n"
      "  ROOT %cat.3 = f32[3,2]{1,0} concatenate(f32[2,1]{1,0} %Arg_1.2, f32[3,1]{1,0} %Arg_2.2), "
      "dimensions={1}\n}\n");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() ==
        "6:3: error: concatenate operand 1 differs outside dimension 1 \xE2\x80\x94 expected "
        "dimension 0 "
        "of size 2 as in f32[2,1], got f32[3,1]");
}

TEST_CASE("call chains cost to the nesting limit and are refused beyond it, never overflow",
          "[hlo][cost]") {
  // Each level of calls is two levels of nesting (the call, the callee's body): 120 calls fit.
  const int depth = GENERATE(120, 5000);
  std::string text = "HloModule chain\n";
  text += "c0 {\n  x = f32[8] parameter(0)\n  ROOT y = f32[8] negate(x)\n}\n";
  for (int i = 1; i < depth; ++i)
    text += "c" + std::to_string(i) +
            " {\n  x = f32[8] parameter(0)\n  ROOT y = f32[8] call(x), to_apply=c" +
            std::to_string(i - 1) + "\n}\n";
  text += "ENTRY main {\n  x = f32[8] parameter(0)\n  ROOT y = f32[8] call(x), to_apply=c" +
          std::to_string(depth - 1) + "\n}\n";
  if (depth > 128) {
    // Each computation is costed once, callees first as written: a long chain needs no deep
    // recursion. Written callers first, the same chain nests as deep as it is long: refused.
    CHECK(one(text).flops == 8);
    std::string reversed =
        "HloModule chain\nENTRY main {\n  x = f32[8] parameter(0)\n  ROOT y = f32[8] call(x), "
        "to_apply=c" +
        std::to_string(depth - 1) + "\n}\n";
    for (int i = depth - 1; i >= 1; --i)
      reversed += "c" + std::to_string(i) +
                  " {\n  x = f32[8] parameter(0)\n  ROOT y = f32[8] call(x), to_apply=c" +
                  std::to_string(i - 1) + "\n}\n";
    reversed += "c0 {\n  x = f32[8] parameter(0)\n  ROOT y = f32[8] negate(x)\n}\n";
    auto deep = analyze(reversed);
    REQUIRE_FALSE(deep.ok());
    CHECK_THAT(deep.error(), Contains("calls nest too deeply"));
    return;
  }
  Analysis a = one(text);
  CHECK(a.flops == 8);  // the one negate at the bottom
  // A cycle is an error, not a hang.
  auto r = analyze(
      "HloModule m\nf {\n  x = f32[] parameter(0)\n  ROOT y = f32[] call(x), to_apply=f\n}\n"
      "ENTRY main {\n  x = f32[] parameter(0)\n  ROOT y = f32[] call(x), to_apply=f\n}\n");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error(), Contains("recursive call"));
  CHECK_THAT(a.note(top_rows(a)[0]), Contains("cost of c119"));
  CHECK(a.bytes_accessed == 32 + 32);  // the negate's operand and output; calls add nothing
}

// The target is read by the one attribute decoder (decode.h) in every spelling: HLO's
// custom_call_target, StableHLO's pretty `@callee` and generic call_target_name give one name.
TEST_CASE("a custom call's target reads alike in every spelling, in the unmodeled note",
          "[hlo][cost]") {
  const std::string text = GENERATE(
      as<std::string>{},
      "HloModule m\nENTRY main {\n  a = f32[4] parameter(0)\n"
      "  ROOT o = f32[4] custom-call(a), custom_call_target=\"my_kernel\"\n}\n",
      "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.custom_call @my_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n",
      "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.custom_call\"(%a) {call_target_name = \"my_kernel\"} : (tensor<4xf32>) "
      "-> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n");
  Analysis a = one(text);
  INFO(text);
  REQUIRE(top_rows(a).size() == 1);
  CHECK_FALSE(top_rows(a)[0].modeled);
  CHECK(a.note(top_rows(a)[0]) == "custom call my_kernel: its cost is unknown (XLA reports -1)");
}
