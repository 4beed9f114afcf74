// Generated exercises: every answer recomputed here from the statement's numbers (the IR
// family through the core's own cost analysis), and the checker's forms and feedback.
#include "exercises/exercises.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "catch.hpp"
#include "exercises/answers.h"
#include "hlo/cost.h"

using namespace rl::exercises;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinRel;

namespace {
const Question& question(const Exercise& e, const std::string& id) {
  auto it = std::find_if(e.questions.begin(), e.questions.end(),
                         [&](const Question& q) { return q.id == id; });
  REQUIRE(it != e.questions.end());
  return *it;
}

Question number(double value, const std::string& unit, double rel = 0) {
  Question q;
  q.id = "x";
  q.kind = "number";
  q.unit = unit;
  q.value = value;
  q.rel_tolerance = rel;
  q.exact = std::to_string(value);
  return q;
}
}  // namespace

TEST_CASE("the same seed gives the same exercises, another seed gives others", "[exercises]") {
  auto a = generate("class-7", 10).value(), b = generate("class-7", 10).value(),
       c = generate("class-8", 10).value();
  int different = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].statement == b[i].statement);
    CHECK(a[i].solution == b[i].solution);
    different += a[i].statement != c[i].statement;
  }
  CHECK(different >= 7);
  // Exercise i does not depend on how many were asked for.
  CHECK(generate("class-7", 3).value()[2].statement == a[2].statement);
  // The five families take turns.
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].family == families()[i % 5]);
}

TEST_CASE("every generated answer matches an independent recomputation, for 200 seeds",
          "[exercises]") {
  for (int seed = 0; seed < 200; ++seed) {
    auto set = generate(std::to_string(seed), 5);
    REQUIRE(set.ok());
    for (const auto& e : set.value()) {
      INFO("seed " << seed << ", " << e.family << ": " << e.statement);
      auto p = e.params;
      for (const auto& q : e.questions) {
        INFO(q.id << " expected " << q.exact);
        CHECK(check(q, q.exact).correct);  // the reference answer passes its own checker
      }
      const double m = p["m"], k = p["k"], n = p["n"], s = p["itemsize"];
      if (e.family == "work_traffic") {
        CHECK(question(e, "work").value == 2 * m * k * n);
        CHECK(question(e, "traffic").value == s * (m * k + k * n + m * n));
        CHECK_THAT(question(e, "ratio").value,
                   WithinRel(2 * m * k * n / (s * (m * k + k * n + m * n)), 1e-12));
      } else if (e.family == "bound") {
        const double intensity = 2 * m * k * n / (s * (m * k + k * n + m * n));
        CHECK_THAT(question(e, "ridge").value, WithinRel(p["peak"] / p["bandwidth"], 1e-12));
        CHECK(question(e, "bound").exact ==
              (p["bandwidth"] * intensity < p["peak"] ? "memory-bound" : "compute-bound"));
        CHECK_THAT(question(e, "ceiling").value,
                   WithinRel(std::min(p["peak"], p["bandwidth"] * intensity), 1e-12));
      } else if (e.family == "traffic_factor") {
        std::vector<double> changed;
        for (double size : e.sizes) {
          const double i = 2 * size * size * size / (s * 3 * size * size);
          if (p["bandwidth"] * i > p["peak"] && p["bandwidth"] * i / p["factor"] < p["peak"])
            changed.push_back(size);
        }
        CHECK(question(e, "changed").set == changed);
        const double a = p["asked"], ia = 2 * a / (3 * s);
        CHECK_THAT(question(e, "ceiling").value,
                   WithinRel(std::min(p["peak"], p["bandwidth"] * ia / p["factor"]), 1e-12));
      } else if (e.family == "read_ir") {
        auto analysis = rl::hlo::analyze(e.ir);  // the core's cost analysis of the shown IR
        REQUIRE(analysis.ok());
        CHECK(question(e, "flops").value == analysis.value()[0].flops);
        CHECK(question(e, "transcendentals").value == analysis.value()[0].transcendentals);
        CHECK(question(e, "bytes").value == analysis.value()[0].bytes_accessed);
      } else {
        REQUIRE(e.family == "fusion");
        const double minimum = s * (m * k + k * n + m * n);
        CHECK(question(e, "fused").value == minimum);
        CHECK(question(e, "unfused").value == minimum + 2 * s * m * n);
        CHECK(question(e, "saved").value == 2 * s * m * n);
      }
    }
  }
}

TEST_CASE("the checker accepts every usual form of the right answer", "[exercises][answers]") {
  const auto work = number(27648, "flops");
  for (const char* form :
       {"27648", " 27648 ", "27,648", "2.7648e4", "27648 flops", "27648 FLOP", "2.7648e+4 flop"}) {
    INFO(form);
    CHECK(check(work, form).correct);
  }
  const auto traffic = number(8064, "bytes");
  for (const char* form : {"8064", "8064 B", "8064 bytes", "7.875 KiB", "8.064 kB"}) {
    INFO(form);
    CHECK(check(traffic, form).correct);
  }
  const auto ratio = number(24.0 / 7, "flops/byte", 1e-3);
  for (const char* form : {"24/7", "3.4286", "3.43", "3.429 flops/byte", "48/14"}) {
    INFO(form);
    CHECK(check(ratio, form).correct);
  }
  const auto ceiling = number(480.0 / 7, "GFLOP/s", 1e-3);
  for (const char* form :
       {"68.57", "68.57 GFLOP/s", "68.6 GFLOPS", "6.857e10 flop/s", "0.06857 TFLOP/s"}) {
    INFO(form);
    CHECK(check(ceiling, form).correct);
  }
}

TEST_CASE("the checker rejects near misses and says what went wrong", "[exercises][answers]") {
  // The seed's exercise, generated like any other: (48,24)·(24,12) in f32 has work 27648.
  Exercise e;
  bool found = false;
  for (int seed = 0; seed < 5000 && !found; ++seed) {
    e = generate(std::to_string(seed), 1, {"work_traffic"}).value()[0];
    found = e.params["itemsize"] == 4 && e.params["m"] != e.params["n"];
  }
  REQUIRE(found);
  const double m = e.params["m"], k = e.params["k"], n = e.params["n"];
  const auto& work = question(e, "work");
  CHECK_THAT(check(work, std::to_string(long(m * k * n))).feedback,
             StartsWith("You counted m·k·n"));
  CHECK_THAT(check(work, std::to_string(long(2 * m * k * n + m * n))).feedback,
             StartsWith("You included tanh"));
  CHECK(check(work, std::to_string(long(4 * m * k * n))).feedback == "Off by a factor of 2.");
  const auto& traffic = question(e, "traffic");
  CHECK_THAT(check(traffic, std::to_string(long(m * k + k * n + m * n))).feedback,
             Contains("bytes must use the itemsize"));
  CHECK_THAT(check(traffic, std::to_string(long(2 * (m * k + k * n + m * n)))).feedback,
             Contains("uses 2 bytes per element; f32 has 4"));
  CHECK_THAT(check(traffic, std::to_string(long(4 * (m * k + k * n)))).feedback,
             StartsWith("You left out writing the result"));
  const auto& ratio = question(e, "ratio");
  CHECK_THAT(check(ratio, "1e9").feedback, StartsWith("Not quite."));
  CHECK_FALSE(check(ratio, std::to_string(ratio.value * 1.01)).correct);  // 1% off: outside 1e-3
}

TEST_CASE("answers that are not numbers, or carry the wrong unit, get a clear message",
          "[exercises][answers]") {
  const auto traffic = number(8064, "bytes");
  CHECK(check(traffic, "").feedback == "the answer must be a number, got nothing");
  CHECK(check(traffic, "lots").feedback == "the answer must start with a number, got \"lots\"");
  CHECK(check(traffic, "3,43").feedback ==
        "the answer \"3,43\" has a comma that is not a thousands separator; write decimals with a "
        "dot");
  CHECK(check(traffic, "8064 furlongs").feedback ==
        "unknown unit \"furlongs\" in \"8064 furlongs\": use e.g. flops, bytes, KiB, flops/byte, "
        "GFLOP/s, GB/s, or none");
  CHECK(check(traffic, "8064 GFLOP/s").feedback ==
        "the unit \"gflop/s\" is a rate in FLOP/s; this answer is bytes");
  CHECK(check(traffic, "8064/0").feedback == "the answer \"8064/0\" divides by zero");
  CHECK(check(number(27648, "flops"), "27648.5").feedback ==
        "Close, but this count is exact: give the whole number.");
}

TEST_CASE("choice and set answers", "[exercises][answers]") {
  // The bound question as the families and the lesson's exercise build it.
  const auto lesson = lesson_exercise(rl::model::make_budgets(100, 20).value());
  const auto& bound = question(lesson, "bound");
  REQUIRE(bound.exact == "memory-bound");
  for (const char* form : {"memory", "Memory-bound", "memory bound", "bandwidth-bound"})
    CHECK(check(bound, form).correct);
  CHECK_THAT(check(bound, "compute").feedback, StartsWith("Not compute-bound"));
  CHECK(check(bound, "fast").feedback == "Answer memory-bound or compute-bound.");
  Question changed;
  changed.kind = "set";
  changed.set = {32, 64};
  changed.exact = "32, 64";
  for (const char* form : {"32, 64", "64,32", "32 64", "32; 64; 64"})
    CHECK(check(changed, form).correct);
  CHECK_THAT(check(changed, "32").feedback, Contains("One more changes bound"));
  CHECK_THAT(check(changed, "16, 32, 64").feedback, Contains("16 does not change bound"));
  Question none;
  none.kind = "set";
  none.exact = "none";
  CHECK(check(none, "none").correct);
  CHECK(check(none, "").correct);
}

TEST_CASE("the checker reads a choice question's own choices, aliases and accepted answers",
          "[exercises][answers]") {
  Question q;
  q.kind = "choice";
  q.choices = {"fused", "unfused"};
  q.aliases = {{"unfused", {"separate"}}};
  q.exact = "fused";
  CHECK(check(q, "Fused").correct);
  CHECK(check(q, "fused").feedback == "Correct: fused.");
  CHECK(check(q, "separate").feedback == "Not unfused.");
  CHECK(check(q, "memory").feedback ==
        "Answer fused or unfused.");  // not one of this question's choices
  q.accepted = {"fused", "unfused"};
  q.right_feedback = "Either reading is right here.";
  CHECK(check(q, "unfused").correct);
  CHECK(check(q, "unfused").feedback == "Either reading is right here.");
  Question bare;  // no choices listed: its answer is the one choice
  bare.kind = "choice";
  bare.exact = "memory-bound";
  CHECK(check(bare, "Memory bound").correct);
}

TEST_CASE("the families are one list: ids, labels, turn order and the refusal name them",
          "[exercises]") {
  const auto& list = family_list();
  REQUIRE(list.size() == 5);
  CHECK(families() ==
        std::vector<std::string>{"work_traffic", "bound", "traffic_factor", "read_ir", "fusion"});
  for (std::size_t i = 0; i < list.size(); ++i) {
    CHECK(list[i].id == families()[i]);
    CHECK_FALSE(list[i].label.empty());
  }
  std::string ids;
  for (const auto& f : list) ids += (ids.empty() ? "" : ", ") + f.id;
  CHECK(generate("s", 1, {"nope"}).error() == "family must be one of " + ids + ", got \"nope\"");
}

TEST_CASE(
    "the lesson's exercise: 27648 flops, 8064 bytes, 24/7 within 2e-3, memory-bound at 100 and 20",
    "[exercises][lesson]") {
  const auto e = lesson_exercise(rl::model::make_budgets(100, 20).value());
  std::vector<std::string> ids;
  for (const auto& q : e.questions) ids.push_back(q.id);
  CHECK(ids == std::vector<std::string>{"work", "traffic", "ratio", "bound"});
  CHECK(question(e, "work").value == 2 * 48 * 24 * 12);
  CHECK(question(e, "traffic").value == 4 * (48 * 24 + 24 * 12 + 48 * 12));
  CHECK(question(e, "ratio").value == 24.0 / 7);
  CHECK(question(e, "ratio").exact == "24/7");
  CHECK(question(e, "ratio").rel_tolerance == 2e-3);
  CHECK(check(question(e, "ratio"), "3.43").correct);  // within 0.2 %
  CHECK_FALSE(check(question(e, "ratio"), "3.44").correct);
  CHECK(question(e, "bound").exact == "memory-bound");  // 20 · 24/7 ≈ 68.6 < 100
  CHECK_THAT(check(question(e, "work"), "13824").feedback, StartsWith("You counted m·k·n = 13824"));
  CHECK_THAT(check(question(e, "traffic"), std::to_string(8064 + 4 * 48 * 12)).feedback,
             Contains("writes the result once; it is not read"));
  CHECK_THAT(e.solution, Contains("27648 flops") && Contains("8064 bytes") && Contains("24/7") &&
                             Contains("memory-bound"));
  // Above the ridge it is compute-bound; exactly on it, either answer is accepted.
  const auto above = lesson_exercise(rl::model::make_budgets(50, 20).value());
  CHECK(question(above, "bound").exact == "compute-bound");
  const double ratio = 27648.0 / 8064;
  const auto on_ridge = lesson_exercise(rl::model::make_budgets(20 * ratio, 20).value());
  for (const char* form : {"memory", "compute"}) {
    auto v = check(question(on_ridge, "bound"), form);
    CHECK(v.correct);
    CHECK(v.feedback == "Accepted: the workload sits exactly on the ridge, so both budgets bind.");
  }
}

TEST_CASE("generate refuses a bad count, family or seed", "[exercises]") {
  CHECK(generate("s", 0).error() == "count must be an integer from 1 to 100, got 0");
  CHECK(generate("s", 101).error() == "count must be an integer from 1 to 100, got 101");
  CHECK(generate("", 3).error() == "seed must not be empty");
  CHECK(
      generate("s", 3, {"bound", "vibes"}).error() ==
      "family must be one of work_traffic, bound, traffic_factor, read_ir, fusion, got \"vibes\"");
}
