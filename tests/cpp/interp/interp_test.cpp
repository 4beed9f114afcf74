// The interpreter's engine: functions, calls, while, case, check calls, what it refuses, its
// limits.
#include <cmath>
#include <limits>

#include "catch.hpp"
#include "interp/checks.h"
#include "interp/interp_util.h"

using namespace rl;
using Catch::Matchers::Contains;
using rl::testing::as_doubles;
using rl::testing::run_error;
using rl::testing::run_text;

TEST_CASE("a module of calls, a while loop and a check runs and passes", "[interp]") {
  // sum = 0; i = 0; while i < 5: sum += i; i += 1  →  10
  const std::string text =
      "module @m {\n"
      "  func.func public @main() -> tensor<i32> {\n"
      "    %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "    %r:2 = stablehlo.while(%i = %c0, %s = %c0) : tensor<i32>, tensor<i32>\n"
      "     cond {\n"
      "      %five = stablehlo.constant dense<5> : tensor<i32>\n"
      "      %lt = stablehlo.compare  LT, %i, %five,  SIGNED : (tensor<i32>, tensor<i32>) -> "
      "tensor<i1>\n"
      "      stablehlo.return %lt : tensor<i1>\n"
      "    } do {\n"
      "      %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %s2 = func.call @plus(%s, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
      "      %i2 = stablehlo.add %i, %one : tensor<i32>\n"
      "      stablehlo.return %i2, %s2 : tensor<i32>, tensor<i32>\n"
      "    }\n"
      "    %want = stablehlo.constant dense<10> : tensor<i32>\n"
      "    stablehlo.custom_call @check.expect_eq(%r#1, %want) {has_side_effect = true} : "
      "(tensor<i32>, tensor<i32>) -> ()\n"
      "    return %r#1 : tensor<i32>\n"
      "  }\n"
      "  func.func private @plus(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {\n"
      "    %0 = stablehlo.add %a, %b : tensor<i32>\n"
      "    return %0 : tensor<i32>\n"
      "  }\n"
      "}\n";
  auto ran = run_text(text);
  INFO((ran.result.errors.empty() ? "" : ran.result.errors.front().message));
  CHECK(ran.result.status == "passed");
  REQUIRE(ran.result.checks.size() == 1);
  CHECK(ran.result.checks[0].passed);
  CHECK(ran.result.checks[0].line == 16);
  CHECK(as_doubles(ran.result) == std::vector<double>{10});
  REQUIRE(ran.result.results.size() == 1);
  CHECK(ran.result.results[0].shape == "tensor<i32>");
  CHECK(ran.result.results[0].checksum == 10);
}

TEST_CASE("a failing check says where, what and by how much", "[interp][check]") {
  const std::string text =
      rl::testing::main_of("tensor<3xf32>",
                           "  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n"
                           "  %b = stablehlo.constant dense<[1.0, 2.5, 3.0]> : tensor<3xf32>\n"
                           "  stablehlo.custom_call @check.expect_close(%a, %b) {has_side_effect = "
                           "true} : (tensor<3xf32>, tensor<3xf32>) -> ()\n"
                           "  return %a : tensor<3xf32>\n");
  auto ran = run_text(text);
  CHECK(ran.result.status == "failed");
  REQUIRE(ran.result.checks.size() == 1);
  const auto& c = ran.result.checks[0];
  CHECK_FALSE(c.passed);
  CHECK(c.kind == "expect_close");
  CHECK_THAT(c.detail, Contains("1 of 3 elements differ"));
  CHECK_THAT(c.detail, Contains("first at [1]"));
  CHECK_THAT(c.detail, Contains("got 2, expected 2.5"));
  CHECK_THAT(c.detail, Contains("ulp"));
}

TEST_CASE("the check calls have upstream's semantics", "[interp][check]") {
  using interp::ulp_distance;
  // f32 bits: 1.0 = 0x3F800000; its neighbours differ by one in the pattern.
  CHECK(ulp_distance(0x3F800000u, 0x3F800003u, 32) == 3);
  CHECK(ulp_distance(0x3F800003u, 0x3F800000u, 32) == 3);
  // Across zero the two magnitudes add: +min subnormal to −min subnormal is 2 ulps.
  CHECK(ulp_distance(0x00000001u, 0x80000001u, 32) == 2);
  CHECK(ulp_distance(0x00000000u, 0x80000000u, 32) == 0);  // +0 and −0 (magnitudes 0)
  // bf16 counts bf16 ulps: 0x3F80 (1.0) and 0x3F83.
  CHECK(ulp_distance(0x3F80u, 0x3F83u, 16) == 3);

  auto check = [](const std::string& kind, const std::string& type, const std::string& a,
                  const std::string& b) {
    const std::string text = rl::testing::main_of(
        type, "  %a = stablehlo.constant dense<" + a + "> : " + type +
                  "\n"
                  "  %b = stablehlo.constant dense<" +
                  b + "> : " + type +
                  "\n"
                  "  stablehlo.custom_call @check." +
                  kind + "(%a, %b) {has_side_effect = true} : (" + type + ", " + type +
                  ") -> ()\n"
                  "  return %a : " +
                  type + "\n");
    auto ran = run_text(text);
    REQUIRE(ran.result.checks.size() == 1);
    return ran.result.checks[0].passed;
  };
  // expect_eq: NaN never equals NaN, +0 equals −0.
  CHECK_FALSE(check("expect_eq", "tensor<f32>", "0x7FC00000", "0x7FC00000"));
  CHECK(check("expect_eq", "tensor<f32>", "0.0", "-0.0"));
  // expect_close: ≤ 3 ulps in the tensor's own format; NaN against NaN counts 0; inf must match.
  CHECK(check("expect_close", "tensor<f32>", "0x3F800000", "0x3F800003"));
  CHECK_FALSE(check("expect_close", "tensor<f32>", "0x3F800000", "0x3F800004"));
  CHECK(check("expect_close", "tensor<bf16>", "0x3F80", "0x3F83"));
  CHECK_FALSE(check("expect_close", "tensor<bf16>", "0x3F80", "0x3F84"));
  CHECK(check("expect_close", "tensor<f32>", "0x7FC00000", "0xFFC00000"));
  CHECK_FALSE(check("expect_close", "tensor<f32>", "0x7F800000", "0x7F7FFFFF"));
  CHECK(check("expect_close", "tensor<complex<f32>>", "(1.0, 2.0)", "(1.0, 2.0)"));
  // expect_almost_eq: |a − b| ≤ 0.001.
  CHECK(check("expect_almost_eq", "tensor<f32>", "1.0", "1.0009"));
  CHECK_FALSE(check("expect_almost_eq", "tensor<f32>", "1.0", "1.0011"));
  CHECK(check("expect_almost_eq", "tensor<f32>", "0x7FC00000", "0x7FC00000"));
  // Integers compare exactly under every check.
  CHECK(check("expect_close", "tensor<i32>", "7", "7"));
  CHECK_FALSE(check("expect_almost_eq", "tensor<i32>", "7", "8"));
}

TEST_CASE("an op the interpreter does not run is named with its place and nothing runs",
          "[interp]") {
  const std::string text = rl::testing::main_of(
      "tensor<2xf32>",
      "  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  %b = \"mydialect.magic\"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  %c = stablehlo.custom_call @my_kernel(%b) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %c : tensor<2xf32>\n");
  auto ran = run_text(text);
  CHECK(ran.result.status == "not_run");
  REQUIRE(ran.result.unsupported.size() == 2);
  CHECK(ran.result.unsupported[0].op == "mydialect.magic");
  CHECK(ran.result.unsupported[0].line == 3);
  CHECK(ran.result.unsupported[1].op == "stablehlo.custom_call");
  CHECK_THAT(ran.result.unsupported[1].why, Contains("my_kernel"));
  CHECK(ran.result.checks.empty());
  CHECK(ran.result.values.empty());
}

TEST_CASE("a value of a type the core does not know is not moved by a call: nothing runs",
          "[interp]") {
  // The verifier cannot tell an opaque type from another, so the call's result is refused by the
  // run: its callee's tensor<2xf32> would go on under a type no later op checks.
  const std::string text =
      "module {\n"
      "  func.func public @main() -> tensor<2xf32> {\n"
      "    %0 = call @make() : () -> ten3or<2xf32>\n"
      "    %1 = call @twice(%0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %1 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @make() -> tensor<2xf32> {\n"
      "    %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "    return %c : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @twice(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = stablehlo.add %a, %a : tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n";
  auto ran = run_text(text);
  CHECK(ran.result.status == "not_run");
  REQUIRE_FALSE(ran.result.unsupported.empty());
  CHECK(ran.result.unsupported[0].line == 3);
  CHECK(ran.result.unsupported[0].why == "a value of type ten3or<2xf32>");
  CHECK(ran.result.values.empty());
}

TEST_CASE(
    "limits: the memory cap, the while iteration cap and the time budget are errors, never hangs",
    "[interp]") {
  interp::RunOptions small;
  small.memory_cap = 1000;
  const std::string big =
      rl::testing::main_of("tensor<1000xf32>",
                           "  %a = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
                           "  return %a : tensor<1000xf32>\n");
  const std::string e1 = run_error(big, small);
  CHECK_THAT(e1, Contains("2:3: error: stablehlo.constant needs 4000 bytes"));
  CHECK_THAT(e1, Contains("memory cap of 1000 bytes"));

  const std::string forever =
      "func.func @main() -> tensor<i32> {\n"
      "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r = stablehlo.while(%i = %c) : tensor<i32>\n"
      "   cond {\n"
      "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
      "    stablehlo.return %t : tensor<i1>\n"
      "  } do {\n"
      "    stablehlo.return %i : tensor<i32>\n"
      "  }\n"
      "  return %r : tensor<i32>\n"
      "}\n";
  interp::RunOptions capped;
  capped.max_iterations = 1000;
  const std::string e2 = run_error(forever, capped);
  CHECK_THAT(e2, Contains("3:3: error: while ran past the iteration cap"));
  CHECK_THAT(e2, Contains("at most 1000 iterations"));
  interp::RunOptions budget;
  budget.time_budget_seconds = 0;
  CHECK_THAT(run_error(forever, budget), Contains("the run took too long"));
}

TEST_CASE("a function with arguments runs on seeded or arange inputs, never on nothing",
          "[interp]") {
  const std::string text =
      "func.func @main(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
      "  %0 = stablehlo.add %a, %b : tensor<2x4xf32>\n"
      "  return %0 : tensor<2x4xf32>\n"
      "}\n";
  CHECK_THAT(run_error(text), Contains("takes 2 arguments"));
  interp::RunOptions arange;
  arange.inputs = interp::Inputs::Arange;
  auto r = run_text(text, arange);
  REQUIRE(r.result.status == "passed");  // no checks: passed means it ran
  // arange(8)/8 twice: element i is 2·i/8.
  CHECK(as_doubles(r.result) == std::vector<double>{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75});
  CHECK(r.result.inputs == "arange");
  interp::RunOptions seeded;
  seeded.inputs = interp::Inputs::Seeded;
  seeded.seed = 7;
  auto s1 = run_text(text, seeded), s2 = run_text(text, seeded);
  CHECK(as_doubles(s1.result) == as_doubles(s2.result));  // deterministic
  for (double x : as_doubles(s1.result)) CHECK(std::abs(x) < 2);
}

TEST_CASE("case runs the branch its index picks, and the last one out of range", "[interp]") {
  auto run_case = [](int index) {
    const std::string text = rl::testing::main_of(
        "tensor<i32>", "  %i = stablehlo.constant dense<" + std::to_string(index) +
                           "> : tensor<i32>\n"
                           "  %r = \"stablehlo.case\"(%i) ({\n"
                           "    %a = stablehlo.constant dense<10> : tensor<i32>\n"
                           "    stablehlo.return %a : tensor<i32>\n"
                           "  }, {\n"
                           "    %b = stablehlo.constant dense<20> : tensor<i32>\n"
                           "    stablehlo.return %b : tensor<i32>\n"
                           "  }) : (tensor<i32>) -> tensor<i32>\n"
                           "  return %r : tensor<i32>\n");
    auto ran = run_text(text);
    REQUIRE(ran.result.status == "passed");
    return as_doubles(ran.result).at(0);
  };
  CHECK(run_case(0) == 10);
  CHECK(run_case(1) == 20);
  CHECK(run_case(7) == 20);
  CHECK(run_case(-1) == 20);
}

// An op of no cost (the constant here: ops.inc's Zero family) runs untimed: the analysis has no
// row for it.
TEST_CASE("timing the entry's ops gives one measurement per op, repeated until the timer sees it",
          "[interp]") {
  interp::RunOptions o;
  o.time_ops = true;
  o.min_op_seconds = 1e-4;
  const std::string text =
      rl::testing::main_of("tensor<64xf32>",
                           "  %a = stablehlo.constant dense<1.5> : tensor<64xf32>\n"
                           "  %b = stablehlo.add %a, %a : tensor<64xf32>\n"
                           "  %c = stablehlo.multiply %b, %b : tensor<64xf32>\n"
                           "  return %c : tensor<64xf32>\n");
  auto ran = run_text(text, o);
  REQUIRE(ran.result.status == "passed");
  REQUIRE(ran.result.ops.size() == 2);
  for (const auto& t : ran.result.ops) {
    CHECK(t.seconds > 0);
    CHECK(t.seconds * static_cast<double>(t.repeats) >= 1e-4);  // the whole timed span
  }
  CHECK(ran.result.ops[0].op == "stablehlo.add");
  CHECK(ran.result.ops[1].op == "stablehlo.multiply");
  CHECK(ran.result.untimed_ops == 0);        // the constant ran, and is not counted as left untimed
  CHECK(as_doubles(ran.result).at(0) == 9);  // (1.5 + 1.5)², repeats did not change the result
}

TEST_CASE("a value's buffer is freed after its last use, so a long chain fits a small memory cap",
          "[interp]") {
  // 50 adds of 1 MiB tensors: kept to the end they would need 50 MiB; freed after their last use,
  // at most three are alive at once (the two inputs of an add and its result).
  std::string body = "  %v0 = stablehlo.constant dense<1.0> : tensor<262144xf32>\n";
  for (int i = 1; i <= 50; ++i)
    body += "  %v" + std::to_string(i) + " = stablehlo.add %v" + std::to_string(i - 1) +
            ", %v0 : tensor<262144xf32>\n";
  body += "  return %v50 : tensor<262144xf32>\n";
  interp::RunOptions o;
  o.memory_cap = std::size_t(4) << 20;
  auto ran = run_text(rl::testing::main_of("tensor<262144xf32>", body), o);
  INFO((ran.result.errors.empty() ? "" : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  CHECK(as_doubles(ran.result).at(0) == 51);
  CHECK(ran.result.peak_bytes <= std::size_t(3) << 20);
}

TEST_CASE(
    "what a program needs at most is known from its IR before it runs, and a capped run says it",
    "[interp]") {
  // The chain above: 1 MiB constant, then adds whose results die at the next add. The IR's
  // liveness says three 1 MiB tensors at most (v0, the previous result and the new one); the run's
  // own peak is no more (an add may write its dying operand in place).
  std::string body = "  %v0 = stablehlo.constant dense<1.0> : tensor<262144xf32>\n";
  for (int i = 1; i <= 50; ++i)
    body += "  %v" + std::to_string(i) + " = stablehlo.add %v" + std::to_string(i - 1) +
            ", %v0 : tensor<262144xf32>\n";
  body += "  return %v50 : tensor<262144xf32>\n";
  auto ran = run_text(rl::testing::main_of("tensor<262144xf32>", body));
  REQUIRE(ran.result.status == "passed");
  CHECK(ran.result.memory_need_bytes == 3 * 1048576.0);
  CHECK(static_cast<double>(ran.result.peak_bytes) <= ran.result.memory_need_bytes);

  // Arguments count from the start; a while body's own tensors count at the while, over what is
  // live there; a callee's at its call.
  const std::string text =
      "func.func @main(%a: tensor<1000xf32>) -> tensor<1000xf32> {\n"
      "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %c, %x = %a) : tensor<i32>, tensor<1000xf32>\n"
      "   cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %p : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %j = stablehlo.add %i, %one : tensor<i32>\n"
      "    %y = func.call @twice(%x) : (tensor<1000xf32>) -> tensor<1000xf32>\n"
      "    stablehlo.return %j, %y : tensor<i32>, tensor<1000xf32>\n"
      "  }\n"
      "  return %r#1 : tensor<1000xf32>\n"
      "}\n"
      "func.func private @twice(%x: tensor<1000xf32>) -> tensor<1000xf32> {\n"
      "  %s = stablehlo.add %x, %x : tensor<1000xf32>\n"
      "  %t = stablehlo.add %s, %x : tensor<1000xf32>\n"
      "  return %t : tensor<1000xf32>\n"
      "}\n";
  interp::RunOptions arange;
  arange.inputs = interp::Inputs::Arange;
  auto looped = run_text(text, arange);
  REQUIRE(looped.result.status == "passed");
  // At the call inside the body: %a and %c (4004) outside, the body's %x and %j (4004; %i and
  // %one died at the add), and in @twice %s and %t (8000) over its argument, which the caller
  // holds = 16008 bytes.
  CHECK(looped.result.memory_need_bytes == 16008);
  CHECK(static_cast<double>(looped.result.peak_bytes) <= looped.result.memory_need_bytes);
  auto need = interp::memory_need(rl::testing::lowered(text));
  CHECK(need.line == 3);
  CHECK(need.op == "stablehlo.while");

  interp::RunOptions capped = arange;
  capped.memory_cap = 10000;
  CHECK_THAT(run_error(text, capped),
             Contains("memory cap of 10000 bytes") &&
                 Contains("by its IR the program's values need up to 16008 bytes, reached at 3:3 "
                          "stablehlo.while, ops' scratch on top: raise memory_cap"));
}

TEST_CASE(
    "on_progress is told the entry's own ops run so far, 0 first, then in order, all of them last, "
    "and not the ops inside bodies",
    "[interp]") {
  // Three ops of the entry (a constant, a while, an add) and its return; the while's body runs
  // 5 times, and its ops are no ops of the entry.
  const std::string text =
      "func.func @main() -> tensor<i32> {\n"
      "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r = stablehlo.while(%i = %c0) : tensor<i32>\n"
      "    cond {\n"
      "      %n = stablehlo.constant dense<5> : tensor<i32>\n"
      "      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %p : tensor<i1>\n"
      "    } do {\n"
      "      %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %j = stablehlo.add %i, %one : tensor<i32>\n"
      "      stablehlo.return %j : tensor<i32>\n"
      "    }\n"
      "  %s = stablehlo.add %r, %r : tensor<i32>\n"
      "  return %s : tensor<i32>\n"
      "}\n";
  std::vector<std::pair<std::size_t, std::size_t>> told;
  interp::RunOptions o;
  o.progress_interval_seconds = 0;  // every op
  o.on_progress = [&](std::size_t done, std::size_t total) { told.emplace_back(done, total); };
  auto ran = rl::testing::run_text(text, o);
  REQUIRE(ran.result.status == "passed");
  CHECK(told == std::vector<std::pair<std::size_t, std::size_t>>{{0, 3}, {1, 3}, {2, 3}, {3, 3}});
  CHECK(ran.result.values[0].tensor.as<std::int32_t>()[0] == 10);  // (0 + 5 ones) · 2
  // At the default interval a short run is told its start and its end only.
  told.clear();
  o.progress_interval_seconds = 0.1;
  REQUIRE(rl::testing::run_text(text, o).result.status == "passed");
  CHECK(told.front() == std::make_pair(std::size_t(0), std::size_t(3)));
  CHECK(told.back() == std::make_pair(std::size_t(3), std::size_t(3)));
  CHECK(told.size() <= 4);
}

TEST_CASE("a tuple's copies share its elements, and a change to one copy copies the elements first",
          "[interp][tuple]") {
  auto scalar = [](float x) {
    interp::Tensor t;
    t.type = hlo::ElementType::F32;
    t.storage = interp::Storage::allocate(nullptr, 4);
    std::memcpy(t.data(), &x, 4);
    return interp::Value::of(std::move(t));
  };
  interp::Value a;
  a.kind = interp::Value::Kind::Tuple;
  a.tuple.push_back(scalar(1));
  a.tuple.push_back(scalar(2));
  interp::Value b = a;  // one reference, not a copy of each element
  REQUIRE(b.tuple.size() == 2);
  CHECK(&b.tuple[0] == &a.tuple[0]);
  b.tuple.push_back(scalar(3));  // b's own elements now; a unchanged
  CHECK(a.tuple.size() == 2);
  CHECK(b.tuple.size() == 3);
  CHECK(&b.tuple[0] != &a.tuple[0]);
  CHECK(*b.tuple[1].tensor.as<float>() == 2);
  // take() moves the elements out of their only holder, and copies them out of a shared one.
  interp::Value c = a;
  std::vector<interp::Value> taken = c.tuple.take();
  CHECK(c.tuple.empty());
  REQUIRE(a.tuple.size() == 2);
  REQUIRE(taken.size() == 2);
  CHECK(*taken[0].tensor.as<float>() == 1);
  CHECK(*a.tuple[0].tensor.as<float>() == 1);
  taken = b.tuple.take();
  CHECK(b.tuple.empty());
  CHECK(taken.size() == 3);
}

TEST_CASE("a function called on every iteration of a while gives each call's own result",
          "[interp]") {
  // %inc runs ten times, in the frame its call before left (emptied): x + 1 + 2 + ... + 10, added
  // in that order. Fused and op by op alike.
  const std::string text = R"(HloModule frames
%inc (a: f32[1000], i: s32[]) -> f32[1000] {
  %a = f32[1000] parameter(0)
  %i = s32[] parameter(1)
  %f = f32[] convert(%i)
  %unused = f32[] multiply(%f, %f)
  %b = f32[1000] broadcast(%f), dimensions={}
  ROOT %r = f32[1000] add(%a, %b)
}
%body (t: (s32[], f32[1000])) -> (s32[], f32[1000]) {
  %t = (s32[], f32[1000]) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %x = f32[1000] get-tuple-element(%t), index=1
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %y = f32[1000] call(%x, %j), to_apply=%inc
  ROOT %r = (s32[], f32[1000]) tuple(%j, %y)
}
%cond (t: (s32[], f32[1000])) -> pred[] {
  %t = (s32[], f32[1000]) parameter(0)
  %i = s32[] get-tuple-element(%t), index=0
  %n = s32[] constant(10)
  ROOT %p = pred[] compare(%i, %n), direction=LT
}
ENTRY %main (x: f32[1000]) -> (s32[], f32[1000]) {
  %x = f32[1000] parameter(0)
  %z = s32[] constant(0)
  %t = (s32[], f32[1000]) tuple(%z, %x)
  ROOT %w = (s32[], f32[1000]) while(%t), condition=%cond, body=%body
}
)";
  for (bool fuse : {false, true}) {
    INFO("fused: " << fuse);
    interp::RunOptions o;
    o.fuse = fuse;
    o.inputs = interp::Inputs::Arange;
    const interp::RunResult r = rl::testing::run_ok(text, o);
    REQUIRE(r.values.size() == 1);
    REQUIRE(r.values[0].tuple.size() == 2);
    CHECK(*r.values[0].tuple[0].tensor.as<std::int32_t>() == 10);
    const float* y = r.values[0].tuple[1].tensor.as<float>();
    float want = 0.999f;
    for (int k = 1; k <= 10; ++k) want += static_cast<float>(k);
    CHECK(y[0] == 55.0f);
    CHECK(y[999] == want);
  }
}
