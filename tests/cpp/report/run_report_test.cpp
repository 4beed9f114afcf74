// The run's result summaries: a tuple result lists its elements (shape, checksum, preview each),
// its checksum is theirs summed, and the JSON carries them as results[i].elements.
#include "report/run_report.h"

#include <string>

#include "catch.hpp"
#include "common/json_reader.h"
#include "hlo/emit.h"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::run_text;

namespace {

bool has(const std::string& json, const std::string& part) {
  return json.find(part) != std::string::npos;
}

// Runs `text` and gives its one result's summary (the run must pass).
interp::ResultSummary only_result(const std::string& text) {
  auto ran = run_text(text);
  INFO((ran.result.errors.empty() ? "" : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  REQUIRE(ran.result.results.size() == 1);
  return ran.result.results[0];
}

}  // namespace

TEST_CASE("an HLO module whose ROOT is a tuple summarizes each element", "[interp][results]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[2,3] iota(), iota_dimension=1\n"
      "  b = f32[2,3] add(a, a)\n"
      "  c = s32[4] iota(), iota_dimension=0\n"
      "  d = s32[4] multiply(c, c)\n"
      "  ROOT t = (f32[2,3], s32[4]) tuple(b, d)\n"
      "}\n";
  const interp::ResultSummary r = only_result(text);
  CHECK(r.tuple);
  CHECK(r.shape == "(f32[2,3], s32[4])");
  CHECK(r.preview == "tuple of 2: see elements");
  CHECK(r.checksum == 12 + 14);  // [[0,2,4],[0,2,4]] and [0,1,4,9]
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].shape == "f32[2,3]");
  CHECK(r.elements[0].checksum == 12);
  CHECK(r.elements[0].preview == "0, 2, 4, 0, 2, 4");
  CHECK_FALSE(r.elements[0].tuple);
  CHECK(r.elements[0].elements.empty());
  CHECK(r.elements[1].shape == "s32[4]");
  CHECK(r.elements[1].checksum == 14);
  CHECK(r.elements[1].preview == "0, 1, 4, 9");

  const std::string json = report::run_text_json(text, interp::RunOptions());
  INFO(json);
  CHECK(has(json,
            "\"results\":[{\"shape\":\"(f32[2,3], s32[4])\",\"checksum\":26,\"preview\":\"tuple of "
            "2: see elements\",\"bits\":\"25e247def6f0d821\","
            "\"elements\":[{\"shape\":\"f32[2,3]\",\"checksum\":12,\"preview\":\"0, 2, 4, 0, 2, "
            "4\",\"bits\":\"ca077cac204fa405\"},"
            "{\"shape\":\"s32[4]\",\"checksum\":14,\"preview\":\"0, 1, 4, "
            "9\",\"bits\":\"b6c18c3fe257a449\"}]}]"));
}

TEST_CASE("a nested tuple result lists its elements recursively", "[interp][results]") {
  const std::string text =
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[3] iota(), iota_dimension=0\n"
      "  c = s32[2] iota(), iota_dimension=0\n"
      "  d = s32[2] add(c, c)\n"
      "  i = (s32[2]) tuple(d)\n"
      "  ROOT t = (f32[3], (s32[2])) tuple(a, i)\n"
      "}\n";
  const interp::ResultSummary r = only_result(text);
  CHECK(r.checksum == 3 + 2);
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].shape == "f32[3]");
  CHECK(r.elements[0].checksum == 3);
  CHECK(r.elements[1].shape == "(s32[2])");
  CHECK(r.elements[1].checksum == 2);
  CHECK(r.elements[1].preview == "tuple of 1: see elements");
  REQUIRE(r.elements[1].elements.size() == 1);
  CHECK(r.elements[1].elements[0].shape == "s32[2]");
  CHECK(r.elements[1].elements[0].checksum == 2);
  CHECK(r.elements[1].elements[0].preview == "0, 2");
}

TEST_CASE("a StableHLO function returning a tuple summarizes each element", "[interp][results]") {
  const std::string text =
      "func.func @main() -> tuple<tensor<3xf32>, tensor<2xi32>> {\n"
      "  %a = stablehlo.constant dense<[1.0, 2.0, 3.5]> : tensor<3xf32>\n"
      "  %b = stablehlo.add %a, %a : tensor<3xf32>\n"
      "  %c = stablehlo.constant dense<[5, 7]> : tensor<2xi32>\n"
      "  %d = stablehlo.multiply %c, %c : tensor<2xi32>\n"
      "  %t = stablehlo.tuple %b, %d : tuple<tensor<3xf32>, tensor<2xi32>>\n"
      "  return %t : tuple<tensor<3xf32>, tensor<2xi32>>\n"
      "}\n";
  const interp::ResultSummary r = only_result(text);
  CHECK(r.shape == "tuple<tensor<3xf32>, tensor<2xi32>>");
  CHECK(r.checksum == 13 + 74);
  CHECK(r.preview == "tuple of 2: see elements");
  REQUIRE(r.elements.size() == 2);
  CHECK(r.elements[0].shape == "tensor<3xf32>");
  CHECK(r.elements[0].checksum == 13);
  CHECK(r.elements[0].preview == "2, 4, 7");
  CHECK(r.elements[1].shape == "tensor<2xi32>");
  CHECK(r.elements[1].checksum == 74);
  CHECK(r.elements[1].preview == "25, 49");

  const std::string json = report::run_text_json(text, interp::RunOptions());
  INFO(json);
  CHECK(has(json,
            "\"checksum\":87,\"preview\":\"tuple of 2: see "
            "elements\",\"bits\":\"36a7e2153f1c2dc2\",\"elements\":[{\"shape\":\"tensor<3xf32>\","
            "\"checksum\":13,\"preview\":\"2, 4, "
            "7\",\"bits\":\"bb0ba428f99764b5\"},{\"shape\":\"tensor<2xi32>\",\"checksum\":74,"
            "\"preview\":\"25, 49\",\"bits\":\"124a447a4fbc441d\"}]}"));
}

TEST_CASE("a tensor result's JSON has no elements field", "[interp][results]") {
  const std::string json = report::run_text_json(
      "func.func @main() -> tensor<2xf32> {\n"
      "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  return %a : tensor<2xf32>\n"
      "}\n",
      interp::RunOptions());
  INFO(json);
  CHECK(has(json,
            "\"results\":[{\"shape\":\"tensor<2xf32>\",\"checksum\":3,\"preview\":\"1, "
            "2\",\"bits\":\"097a69ee2da301d8\"}]"));
  CHECK_FALSE(has(json, "\"elements\""));
}

TEST_CASE("a result's bits tell bytes apart that its checksum and preview do not",
          "[interp][results]") {
  // -0 and +0: the same checksum (0) and the same value, different bytes (FNV-1a of the f32s'
  // little-endian bytes, computed with Python's struct for this test)
  const auto bits_of = [](const std::string& values) {
    return only_result(
        "func.func @main() -> tensor<2xf32> {\n"
        "  %a = stablehlo.constant dense<" +
        values +
        "> : tensor<2xf32>\n"
        "  return %a : tensor<2xf32>\n"
        "}\n");
  };
  const auto neg = bits_of("[-0.0, 0.0]"), pos = bits_of("[0.0, 0.0]");
  CHECK(neg.checksum == pos.checksum);
  CHECK(neg.bits == "515662f380650845");
  CHECK(pos.bits == "a8c7f832281a39c5");
}

TEST_CASE(
    "a fused run's JSON lists each fusion with its ops, time and XLA's counts, and ops_seconds "
    "sums what ran",
    "[interp][fused][report]") {
  // exp(x)·x fuses (kLoop: exponential, multiply); the dot_general that reads it runs alone (a
  // dot takes no producers, XLA CPU's CanBeLoopFused).
  const std::string text =
      "func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
      "  %0 = stablehlo.exponential %x : tensor<8x8xf32>\n"
      "  %1 = stablehlo.multiply %0, %x : tensor<8x8xf32>\n"
      "  %2 = stablehlo.dot_general %1, %1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, "
      "tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "  return %2 : tensor<8x8xf32>\n"
      "}\n";
  interp::RunOptions o;
  o.inputs = interp::Inputs::Seeded;
  o.time_ops = true;
  o.fuse = true;
  auto parsed = parse_json(report::run_text_json(text, o));
  REQUIRE(parsed.ok());
  const Json& j = parsed.value();
  REQUIRE(j.find("fused"));
  CHECK(j.find("fused")->boolean);
  const Json* fusions = j.find("fusions");
  REQUIRE(fusions);
  REQUIRE(fusions->items.size() == 1);
  const Json& f = fusions->items[0];
  CHECK(f.find("name")->string == "fusion.0");
  CHECK(f.find("kind")->string == "kLoop");
  CHECK(f.find("fallback")->string.empty());
  REQUIRE(f.find("ops")->items.size() == 2);
  CHECK(f.find("ops")->items[0].find("op")->string == "stablehlo.exponential");
  CHECK(f.find("ops")->items[0].find("line")->number == 2);
  CHECK(f.find("ops")->items[1].find("op")->string == "stablehlo.multiply");
  CHECK(f.find("flops")->number == 64);                   // the multiply, one per element
  CHECK(f.find("transcendentals")->number == 64);         // the exponential
  CHECK(f.find("bytes_accessed")->number == 2 * 64 * 4);  // x read once, the product written once
  CHECK(f.find("seconds")->number > 0);
  CHECK(f.find("repeats")->number >= 1);
  const Json* ops = j.find("ops");
  REQUIRE(ops->items.size() == 1);
  CHECK(ops->items[0].find("op")->string == "stablehlo.dot_general");
  CHECK(j.find("ops_seconds")->number ==
        f.find("seconds")->number + ops->items[0].find("seconds")->number);
  // Op by op: no fusions, three ops timed.
  o.fuse = false;
  auto plain = parse_json(report::run_text_json(text, o));
  REQUIRE(plain.ok());
  CHECK_FALSE(plain.value().find("fused")->boolean);
  CHECK(plain.value().find("fusions")->items.empty());
  CHECK(plain.value().find("ops")->items.size() == 3);
}

TEST_CASE(
    "a fused run's JSON lists a while body's fusion once, untimed, with the while that holds it",
    "[interp][fused][report]") {
  // The body's tanh(x)·x fuses (kLoop) and runs once per trip; the entry's exp(r) + r fuses too.
  const std::string text =
      "func.func @main() -> tensor<256xf32> {\n"
      "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "  %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "  %x0 = stablehlo.constant dense<0.5> : tensor<256xf32>\n"
      "  %r:2 = stablehlo.while(%i = %c0, %x = %x0) : tensor<i32>, tensor<256xf32>\n"
      "    cond {\n"
      "      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %p : tensor<i1>\n"
      "    } do {\n"
      "      %i2 = stablehlo.add %i, %one : tensor<i32>\n"
      "      %x2 = stablehlo.tanh %x : tensor<256xf32>\n"
      "      %x3 = stablehlo.multiply %x2, %x : tensor<256xf32>\n"
      "      stablehlo.return %i2, %x3 : tensor<i32>, tensor<256xf32>\n"
      "    }\n"
      "  %y = stablehlo.exponential %r#1 : tensor<256xf32>\n"
      "  %z = stablehlo.add %y, %r#1 : tensor<256xf32>\n"
      "  return %z : tensor<256xf32>\n"
      "}\n";
  interp::RunOptions o;
  o.time_ops = true;
  o.fuse = true;
  auto parsed = parse_json(report::run_text_json(text, o));
  REQUIRE(parsed.ok());
  const Json& j = parsed.value();
  REQUIRE(j.find("status")->string == "passed");
  const Json* fusions = j.find("fusions");
  REQUIRE(fusions);
  REQUIRE(fusions->items.size() ==
          2);  // the body's once (it ran 3 times, and again while timed), the entry's
  const Json& body = fusions->items[0];
  CHECK(body.find("kind")->string == "kLoop");
  REQUIRE(body.find("ops")->items.size() == 2);
  CHECK(body.find("ops")->items[0].find("op")->string == "stablehlo.tanh");
  CHECK(body.find("ops")->items[0].find("line")->number == 12);
  CHECK(body.find("ops")->items[1].find("op")->string == "stablehlo.multiply");
  CHECK(body.find("seconds")->number == 0);  // its time is the while's
  CHECK(body.find("repeats")->number == 0);
  CHECK(body.find("transcendentals")->number == 256);
  const Json* within = body.find("within");
  REQUIRE(within);
  REQUIRE(within->find("op"));
  CHECK(within->find("op")->string == "stablehlo.while");
  CHECK(within->find("line")->number == 6);
  CHECK(within->find("column")->number == 3);
  const Json& top = fusions->items[1];
  CHECK(top.find("ops")->items[0].find("op")->string == "stablehlo.exponential");
  CHECK(top.find("seconds")->number > 0);
  REQUIRE(top.find("within"));
  CHECK(top.find("within")->is_null());  // the entry's own
  // The while runs alone and carries the body's time; ops_seconds sums what ran at the top.
  double alone = 0;
  bool has_while = false;
  for (const Json& op : j.find("ops")->items) {
    alone += op.find("seconds")->number;
    has_while = has_while || op.find("op")->string == "stablehlo.while";
  }
  CHECK(has_while);
  CHECK(j.find("ops_seconds")->number == alone + top.find("seconds")->number);
}

TEST_CASE("a run's options: fused under the heap's room unless told, each number by its own rule",
          "[report][run_options]") {
  const auto o = report::default_run_options();
  CHECK(o.fuse);
  CHECK(o.memory_cap == report::default_memory_cap());
  CHECK(report::default_memory_cap() >= interp::kDefaultMemoryCap);
  CHECK(o.seed == 1);
  CHECK(o.time_budget_seconds == 60);

  CHECK(report::run_inputs("arange", "\"arange\"").value() == interp::Inputs::Arange);
  CHECK(report::run_inputs("none", "\"none\"").value() == interp::Inputs::None);
  auto bad = report::run_inputs("", "number");
  CHECK(bad.error() == "inputs must be one of none, seeded, arange, got number");
  CHECK(bad.error_info().input == "inputs");

  interp::RunOptions r;
  CHECK(report::set_run_number(r, "seed", 7));
  CHECK(r.seed == 7);
  CHECK(report::set_run_number(r, "memory_cap", 1024));
  CHECK(r.memory_cap == 1024);
  CHECK(report::set_run_number(r, "max_iterations", 5));
  CHECK(r.max_iterations == 5);
  CHECK(report::set_run_number(r, "time_budget_seconds", 2));
  CHECK(r.time_budget_seconds == 2);
  CHECK(report::set_run_number(r, "timing_budget_seconds", 0.5));
  CHECK(r.timing_budget_seconds == 0.5);
  auto seed = report::set_run_number(r, "seed", -1);
  CHECK(seed.error() == "seed must be an integer from 0 to 9007199254740991, got -1");
  CHECK(seed.error_info().input == "seed");
  CHECK(report::set_run_number(r, "memory_cap", 0.5).error() ==
        "memory_cap must be an integer from 1 to 4294967296, got 0.5");
  CHECK(report::set_run_number(r, "time_budget_seconds", 86401).error() ==
        "time_budget_seconds must be an integer from 1 to 86400, got 86401");
  CHECK(report::set_run_number(r, "timing_budget_seconds", -1).error() ==
        "timing_budget_seconds must be a number of seconds from 0 to 86400, got -1");
  CHECK(r.seed == 7);  // a refused value changes nothing
}

TEST_CASE(
    "a run fused by XLA CPU's rule leaves a matrix-matrix dot and its epilogue apart, and says "
    "so (dot_epilogues)",
    "[interp][fused][report]") {
  // tanh(A @ B), the lesson's program: by default one output fusion; by XLA CPU's rule the dot
  // runs alone (a GEMM library call there) and the tanh alone after it (a fusion needs two ops).
  const std::string text = hlo::emit_workload(32, 16, 8, "f32").value();
  interp::RunOptions o;
  o.inputs = interp::Inputs::Arange;
  o.time_ops = true;
  o.fuse = true;
  auto gpu = parse_json(report::run_text_json(text, o));
  REQUIRE(gpu.ok());
  CHECK(gpu.value().find("dot_epilogues")->boolean);
  REQUIRE(gpu.value().find("fusions")->items.size() == 1);
  CHECK(gpu.value().find("fusions")->items[0].find("kind")->string == "kOutput");
  o.fusion.dot_epilogues = false;
  auto cpu = parse_json(report::run_text_json(text, o));
  REQUIRE(cpu.ok());
  const Json& j = cpu.value();
  CHECK(j.find("status")->string == "passed");
  CHECK(j.find("fused")->boolean);
  CHECK_FALSE(j.find("dot_epilogues")->boolean);
  CHECK(j.find("fusions")->items.empty());
  REQUIRE(j.find("ops")->items.size() == 2);
  CHECK(j.find("ops")->items[0].find("op")->string == "stablehlo.dot_general");
  CHECK(j.find("ops")->items[0].find("flops")->number == 8192);
  // The same values either way.
  CHECK(j.find("results")->items[0].find("bits")->string ==
        gpu.value().find("results")->items[0].find("bits")->string);
}

TEST_CASE(
    "a fused run inlines calls first: a callee's op that runs alone keeps the flops and bytes of "
    "its row",
    "[interp][fused][report]") {
  // @f's reduce has nothing to fuse with: inlined, it runs alone in main, and its row is the one
  // costed in @f.
  const std::string text =
      "func.func @main(%x: tensor<64xf32>) -> tensor<f32> {\n"
      "  %0 = call @f(%x) : (tensor<64xf32>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n"
      "func.func private @f(%x: tensor<64xf32>) -> tensor<f32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : "
      "(tensor<64xf32>, tensor<f32>) -> tensor<f32>\n"
      "  return %s : tensor<f32>\n"
      "}\n";
  interp::RunOptions o;
  o.inputs = interp::Inputs::Seeded;
  o.time_ops = true;
  o.fuse = true;
  auto parsed = parse_json(report::run_text_json(text, o));
  REQUIRE(parsed.ok());
  const Json& j = parsed.value();
  REQUIRE(j.find("status")->string == "passed");
  CHECK(j.find("fusions")->items.empty());
  const Json* reduce = nullptr;
  for (const auto& op : j.find("ops")->items)
    if (op.find("op")->string == "stablehlo.reduce") reduce = &op;
  REQUIRE(reduce);
  CHECK(reduce->find("line")->number == 7);
  CHECK(reduce->find("flops")->number == 63);  // XLA counts 64 - 1 adds
  CHECK(reduce->find("bytes_accessed")->number == 64 * 4 + 4 + 4);
}

TEST_CASE("a timed op run as a view of its operand says so: it moved none of its counted bytes",
          "[interp][report]") {
  // The reshape hands on its operand's buffer (ops_data.cpp); the add writes a new one; the
  // transpose of a matrix moves its elements. Op by op, each is timed.
  const std::string text =
      "func.func @main(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {\n"
      "  %0 = stablehlo.add %x, %x : tensor<4x6xf32>\n"
      "  %1 = stablehlo.reshape %0 : (tensor<4x6xf32>) -> tensor<6x4xf32>\n"
      "  %2 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>\n"
      "  %3 = stablehlo.add %1, %2 : tensor<6x4xf32>\n"
      "  return %3 : tensor<6x4xf32>\n"
      "}\n";
  interp::RunOptions o;
  o.inputs = interp::Inputs::Seeded;
  o.time_ops = true;
  o.fuse = false;
  auto parsed = parse_json(report::run_text_json(text, o));
  REQUIRE(parsed.ok());
  const Json* ops = parsed.value().find("ops");
  REQUIRE(ops);
  REQUIRE(ops->items.size() == 4);
  std::vector<std::pair<std::string, bool>> seen;
  for (const auto& op : ops->items)
    seen.emplace_back(op.find("op")->string, op.find("view")->boolean);
  CHECK(seen == std::vector<std::pair<std::string, bool>>{{"stablehlo.add", false},
                                                          {"stablehlo.reshape", true},
                                                          {"stablehlo.transpose", false},
                                                          {"stablehlo.add", false}});
  CHECK(ops->items[1].find("bytes_accessed")->number == 2 * 24 * 4);  // XLA's count: a copy
}
