// The timing harness and the ceiling microbenchmarks: their structure and their refusals.
// Wall-clock values are never asserted (they belong to scripts/bench), only their shape.
#include <algorithm>

#include "catch.hpp"
#include "kernels/kernels.h"
#include "measure/ceilings.h"
#include "measure/harness.h"
#include "measure/timer.h"

using namespace rl;
using Catch::Matchers::Contains;

TEST_CASE("the timer advances and reports a positive resolution", "[measure]") {
  auto r = measure::timer_resolution();
  REQUIRE(r.ok());
  CHECK(r.value() > 0);
  CHECK(r.value() < 0.1);
}

TEST_CASE("time_matmul takes N samples of R repeats, after calibrating R to the timer",
          "[measure]") {
  auto buffers = kernels::allocate_matmul(kernels::check_matmul_shape(32, 16, 8).value());
  kernels::fill_lesson_inputs(buffers.value());
  auto t = measure::time_matmul(kernels::best_matmul(true), buffers.value(), 5);
  REQUIRE(t.ok());
  REQUIRE(t->seconds_per_call.size() == 5);
  CHECK(t->repeats >= 1);
  CHECK(t->timer_resolution > 0);
  CHECK(t->min <= t->median);
  CHECK(t->median <= t->max);
  CHECK(t->min == *std::min_element(t->seconds_per_call.begin(), t->seconds_per_call.end()));
  CHECK(t->max == *std::max_element(t->seconds_per_call.begin(), t->seconds_per_call.end()));
  for (double s : t->seconds_per_call) CHECK(s > 0);
  // A tiny kernel is far below 100 timer ticks: the harness must have repeated it.
  CHECK(double(t->repeats) * t->max >= 0.5 * measure::kTicksPerSample * t->timer_resolution);
  // The work was consumed: the output of the lesson's tanh(a@b) is positive.
  CHECK(measure::consumed_checksum() > 0);
}

TEST_CASE("summarize gives the median of an even count as the mean of the middle two",
          "[measure]") {
  measure::Calibration c{8, 1e-6, 1e-3, 1e-4};
  auto t = measure::summarize({4, 1, 3, 2}, c);
  CHECK(t.median == 2.5);
  CHECK(t.min == 1);
  CHECK(t.max == 4);
  CHECK(t.repeats == 8);
  CHECK(measure::summarize({5, 1, 3}, c).median == 3);
}

TEST_CASE("time_matmul refuses a sample count out of range", "[measure]") {
  auto buffers = kernels::allocate_matmul(kernels::check_matmul_shape(4, 4, 4).value());
  CHECK(measure::time_matmul(kernels::best_matmul(false), buffers.value(), 0).error() ==
        "samples must be an integer from 1 to 1000, got 0");
}

TEST_CASE("the measured ceilings are positive rates, labelled by level", "[measure]") {
  auto compute = measure::measure_compute(0.01, 1);
  REQUIRE(compute.ok());
  CHECK(compute->gflops > 0);
  CHECK(compute->width == (RL_HAVE_WASMSIMD ? 4 : 1));
  for (const char* level : {"l1", "l2"}) {
    auto bw = measure::measure_bandwidth(level, 0.01, 1);
    REQUIRE(bw.ok());
    CHECK(bw->level == level);
    CHECK(bw->gbs > 0);
  }
  CHECK(measure::measure_bandwidth("l1", 0.01, 1).value().working_set_bytes == 24 * 1024);
  CHECK(measure::measure_bandwidth("l3", 0.01, 1).error() ==
        "level must be one of l1, l2, memory, got \"l3\"");
  CHECK_THAT(measure::measure_compute(0, 1).error(), Contains("min_seconds must be in (0, 10]"));
}
