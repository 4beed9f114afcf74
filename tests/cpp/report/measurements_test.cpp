// This machine's measurements as the bindings hand them to JS (report/measurements.h): the
// harness's rule on a sample count, the lesson's kernel check and timing, and section 6's
// experiment measured, each as JSON text read back here with the core's own reader. Times are
// never asserted, only what is derived from them.
#include "report/measurements.h"

#include <string>
#include <vector>

#include "catch.hpp"
#include "common/json_reader.h"
#include "measure/traffic.h"

using namespace rl;

namespace {
Json parsed(const std::string& text) {
  auto j = parse_json(text);
  REQUIRE(j);
  return j.value();
}
std::vector<std::string> keys(const Json& object) {
  std::vector<std::string> out;
  for (const auto& m : object.members) out.push_back(m.first);
  return out;
}
double number(const Json& object, const char* key) {
  const Json* x = object.find(key);
  REQUIRE(x);
  REQUIRE(x->is_number());
  return x->number;
}
const std::vector<std::string> kTimingKeys = {
    "seconds_per_call", "median",           "min",          "max",
    "repeats",          "timer_resolution", "warm_seconds", "target_sample_seconds",
    "recalibrations"};
}  // namespace

TEST_CASE("a sample count is an integer from 1 to the harness's most", "[report][measurements]") {
  CHECK(report::sample_count(3, 100).value() == 3);
  CHECK(report::sample_count(1000, 1000).value() == 1000);
  CHECK(report::sample_count(0, 1000).error() ==
        "samples must be an integer from 1 to 1000, got 0");
  CHECK(report::sample_count(101, 100).error() ==
        "samples must be an integer from 1 to 100, got 101");
  CHECK(report::sample_count(1.5, 100).error() ==
        "samples must be an integer from 1 to 100, got 1.5");
}

TEST_CASE("the lesson's kernel check names its variant and the lesson's rule",
          "[report][measurements]") {
  const auto& best = kernels::best_matmul(true);
  auto json = report::lesson_kernel_check_json(best);
  REQUIRE(json);
  const Json j = parsed(json.value());
  CHECK(keys(j) == std::vector<std::string>{"variant", "max_abs_error", "passed", "worst_ratio",
                                            "worst_index", "worst_value", "worst_reference", "atol",
                                            "rtol"});
  CHECK(j.find("variant")->string == best.name);
  CHECK(j.find("passed")->boolean);
  CHECK(number(j, "atol") == kernels::kLessonAtol);
  CHECK(number(j, "worst_ratio") == report::check_lesson_kernel(best)->worst_ratio);
}

TEST_CASE("the lesson's IR check has the kernel check's fields and its ops timed",
          "[report][measurements]") {
  auto json = report::lesson_ir_check_json();
  REQUIRE(json);
  const Json j = parsed(json.value());
  CHECK(keys(j) == std::vector<std::string>{"max_abs_error", "passed", "worst_ratio", "worst_index",
                                            "worst_value", "worst_reference", "atol", "rtol", "m",
                                            "k", "n", "dtype", "inputs", "ops_seconds", "ops"});
  // The module it ran: the seed's, whatever sizes the page shows.
  CHECK(number(j, "m") == 32);
  CHECK(number(j, "k") == 16);
  CHECK(number(j, "n") == 8);
  CHECK(j.find("dtype")->string == "f32");
  CHECK(j.find("inputs")->string == "arange");
  CHECK(number(j, "ops") >= 2);
}

TEST_CASE("a kernel timing gives every sample and the model's work at the median time",
          "[report][measurements]") {
  const auto shape = kernels::check_matmul_shape(32, 16, 8).value();
  auto json = report::time_kernel_json(kernels::best_matmul(true), shape, 2, 0);
  REQUIRE(json);
  const Json j = parsed(json.value());
  std::vector<std::string> expected = {"variant", "m", "k", "n"};
  expected.insert(expected.end(), kTimingKeys.begin(), kTimingKeys.end());
  expected.push_back("gflops_median");
  CHECK(keys(j) == expected);
  CHECK(j.find("seconds_per_call")->items.size() == 2);
  CHECK(number(j, "gflops_median") == 8192 / number(j, "median") / 1e9);  // 2·32·16·8 flops
  CHECK(report::time_kernel_json(kernels::best_matmul(true), shape, 1, 11).error() ==
        "min_sample_seconds must be from 0 to 10, got 11");
}

TEST_CASE("section 6's experiment measured: the runs' rates and the roofs read off them",
          "[report][measurements]") {
  const double elements = 16 * double(measure::kTrafficChunkFloats);
  auto m = measure::measure_traffic(2, measure::Reread::right_away, 1, elements, 0);
  REQUIRE(m);
  const Json j = parsed(report::traffic_json(m.value()));
  CHECK(keys(j) == std::vector<std::string>{
                       "factor_asked", "reread", "reread_name", "factor", "elements", "array_bytes",
                       "roofs", "agreement_tolerance", "compute_bound_steps", "workloads"});
  CHECK(j.find("reread")->string == "right-away");
  CHECK(j.find("reread_name")->string == "right away");
  const Json& roofs = *j.find("roofs");
  CHECK(number(roofs, "ridge") == number(roofs, "peak_gflops") / number(roofs, "bandwidth_gbs"));
  const auto& workloads = j.find("workloads")->items;
  REQUIRE(workloads.size() == 2);
  CHECK(workloads[0].find("name")->string == "memory-bound");
  CHECK(workloads[1].find("name")->string == "compute-bound");
  for (const Json& w : workloads) {
    CHECK(keys(w) == std::vector<std::string>{"name", "steps", "once", "factor", "measured_ratio",
                                              "predicted", "agreement", "verdict"});
    const Json& once = *w.find("once");
    std::vector<std::string> run = {"reads", "flops", "bytes"};
    run.insert(run.end(), kTimingKeys.begin(), kTimingKeys.end());
    run.insert(run.end(), {"gflops", "gbs"});
    CHECK(keys(once) == run);
    CHECK(number(once, "gflops") == number(once, "flops") / number(once, "median") / 1e9);
    CHECK(number(once, "gbs") == number(once, "bytes") / number(once, "median") / 1e9);
    CHECK(keys(*w.find("predicted")) == std::vector<std::string>{"intensity", "factor_intensity",
                                                                 "bound", "factor_bound", "seconds",
                                                                 "factor_seconds", "time_ratio"});
  }
}

TEST_CASE("the experiment's options are refused by name before anything is measured",
          "[report][measurements]") {
  report::TrafficRequest q;
  q.factor = 2;
  q.samples = 0;
  CHECK(report::measure_traffic_json(q).error() ==
        "samples must be an integer from 1 to 100, got 0");
  q.samples.reset();
  q.reread = "sideways";
  q.reread_shown = "\"sideways\"";
  CHECK(report::measure_traffic_json(q).error() ==
        "reread must be \"after-array\" or \"right-away\", got \"sideways\"");
  q.reread = "";
  q.reread_shown = "number";
  CHECK(report::measure_traffic_json(q).error() ==
        "reread must be \"after-array\" or \"right-away\", got number");
  q.reread.reset();
  q.factor = 0.5;
  CHECK_THAT(report::measure_traffic_json(q).error(),
             Catch::Matchers::StartsWith("traffic factor to measure must be from 1 to 64"));
}
