// The timing harness and the ceiling microbenchmarks: their structure and their refusals.
// Wall-clock values are never asserted (they belong to scripts/bench), only their shape.
#include <algorithm>
#include <cmath>

#include "catch.hpp"
#include "kernels/kernels.h"
#include "measure/ceilings.h"
#include "measure/harness.h"
#include "measure/timer.h"
#include "measure/work.h"

using namespace rl;
using Catch::Matchers::Contains;

TEST_CASE("the timer advances and reports a positive resolution", "[measure]") {
  auto r = measure::timer_resolution();
  REQUIRE(r.ok());
  CHECK(r.value() > 0);
  CHECK(r.value() < 0.1);
}

TEST_CASE(
    "the timer's resolution is the median tick of any clock, and a clock that stands still is "
    "refused",
    "[measure]") {
  // A clock that moves by 1e-4 s every 7th reading (as a browser coarsens performance.now()),
  // and by 3e-4 once: the median of the 9 ticks is the usual one.
  long reads = 0;
  double t = 0;
  const auto coarse = [&] {
    if (++reads % 7 == 0) t += reads == 70 ? 3e-4 : 1e-4;
    return t;
  };
  auto r = measure::timer_resolution(coarse);
  REQUIRE(r.ok());
  CHECK(r.value() == Approx(1e-4).epsilon(1e-9));
  const auto still = [] { return 5.0; };
  auto s = measure::timer_resolution(still, 0);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error() == "the timer did not advance within 0 s");
  double back = 10;
  CHECK(measure::timer_resolution([&] { return back -= 0.5; }).error() ==
        "the clock went backwards, from 9.5 to 9 s");
  CHECK(measure::timer_resolution([] { return std::nan(""); }).error() ==
        "the clock must give a finite number of seconds, got NaN");
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
  // A tiny kernel is far below 100 timer ticks: the harness must have repeated it, and every
  // reported sample lasted 100 ticks — checked the way a reader of the numbers would.
  CHECK(t->target_sample_seconds == measure::kTicksPerSample * t->timer_resolution);
  for (double s : t->seconds_per_call) {
    INFO("sample " << s << " s × " << t->repeats << " repeats, timer " << t->timer_resolution
                   << " s");
    CHECK(double(t->repeats) * s >= 100 * t->timer_resolution);
  }
  CHECK(t->recalibrations >= 0);
  CHECK(t->recalibrations <= measure::kMaxRecalibrations);
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

TEST_CASE("a kernel's share of the ceiling is taken round by round, ceiling and kernel in pairs",
          "[measure]") {
  auto buffers = kernels::allocate_matmul(kernels::check_matmul_shape(32, 16, 8).value());
  kernels::fill_lesson_inputs(buffers.value());
  const auto& variant = kernels::best_matmul(false);
  auto share = measure::matmul_share_of_ceiling(variant, buffers.value(), 200, 5, 0.005);
  REQUIRE(share.ok());
  REQUIRE(share->ratios.size() == 5);
  for (double r : share->ratios) CHECK(r > 0);
  CHECK(share->min == *std::min_element(share->ratios.begin(), share->ratios.end()));
  CHECK(share->max == *std::max_element(share->ratios.begin(), share->ratios.end()));
  CHECK(share->min <= share->median);
  CHECK(share->median <= share->max);
  CHECK(share->kernel_gflops_median > 0);
  CHECK(share->ceiling_gflops_median > 0);
  CHECK(measure::matmul_share_of_ceiling(variant, buffers.value(), 200, 0, 0.005).error() ==
        "rounds must be from 1 to 100, got 0");
  CHECK(measure::matmul_share_of_ceiling(variant, buffers.value(), 0, 3, 0.005).error() ==
        "repeats must be at least 1, got 0");
  CHECK(measure::matmul_share_of_ceiling(variant, buffers.value(), 200, 3, 0).error() ==
        "min_seconds must be in (0, 10], got 0.000000");
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

TEST_CASE("every sample lasts the target, also when min_sample_seconds sets it", "[measure]") {
  auto buffers = kernels::allocate_matmul(kernels::check_matmul_shape(16, 16, 16).value());
  kernels::fill_uniform(buffers.value().a.data(), 256, 1);
  kernels::fill_uniform(buffers.value().b.data(), 256, 2);
  auto t = measure::time_matmul(kernels::best_matmul(true), buffers.value(), 7, 0.004);
  REQUIRE(t.ok());
  CHECK(t->target_sample_seconds >= 0.004);
  CHECK(t->target_sample_seconds >= 100 * t->timer_resolution);
  for (double s : t->seconds_per_call)
    CHECK(measure::sample_long_enough(t->repeats, s, t->target_sample_seconds));
  CHECK_FALSE(measure::sample_long_enough(1000, 6.84e-7, 100 * 1e-4));  // the page's 7-tick sample
  CHECK(measure::sample_long_enough(16384, 6.84e-7, 100 * 1e-4));
}

TEST_CASE("work units: chains and triads say what a unit is worth and consume their results",
          "[measure][work]") {
  auto chains = measure::make_chains_work();
  CHECK(chains->kind == "chains");
  CHECK(chains->flops_per_unit == 4096.0 * 12 * (RL_HAVE_WASMSIMD ? 4 : 1) * 2);
  CHECK(chains->run(3) > 0);  // chains converge towards 1 per lane: the sum is positive

  auto l1 = measure::make_triad_work("l1", 4);
  REQUIRE(l1.ok());
  CHECK(l1.value()->working_set_bytes == 24 * 1024);  // per core, whatever the Worker count
  CHECK(l1.value()->bytes_per_unit == 24 * 1024);
  l1.value()->run(2);
  auto memory = measure::make_triad_work("memory", 4);
  REQUIRE(memory.ok());
  CHECK(memory.value()->working_set_bytes == 24u << 20);  // 96 MiB shared out among 4
  auto memory32 = measure::make_triad_work("memory", 32);
  REQUIRE(memory32.ok());
  CHECK(memory32.value()->working_set_bytes ==
        (8u << 20) / 12 * 12);  // never under 8 MiB (whole triples of floats)
  CHECK(measure::make_triad_work("l3", 1).error() ==
        "level must be one of l1, l2, memory, got \"l3\"");
  CHECK(measure::make_triad_work("l1", 0).error() ==
        "workers must be an integer from 1 to 256, got 0");
}

TEST_CASE("kernel work computes its block of rows from the packed B it was given",
          "[measure][work]") {
  const auto& variant = kernels::best_matmul(true);
  const std::size_t m = 10, k = 12, n = 9;
  auto whole = kernels::allocate_matmul(kernels::check_matmul_shape(m, k, n).value());
  auto& w = whole.value();
  kernels::fill_uniform(w.a.data(), m * k, 5);
  kernels::fill_uniform(w.b.data(), k * n, 6);
  variant.run(m, k, n, w.a.data(), w.b.data(), w.c.data(), w.packed.data());

  auto block = measure::make_kernel_work(variant, 3, k, n);  // rows 4, 5, 6
  REQUIRE(block.ok());
  auto& kw = *block.value();
  CHECK(kw.flops_per_unit == 2.0 * 3 * k * n);
  REQUIRE(kw.a_floats() == 3 * k);
  REQUIRE(kw.packed_floats() == variant.packed_floats(k, n));
  std::copy_n(w.a.data() + 4 * k, 3 * k, kw.a());
  variant.pack(k, n, w.b.data(), kw.packed_b());
  kw.run(2);
  for (std::size_t i = 0; i < 3 * n; ++i) CHECK(kw.c()[i] == w.c[4 * n + i]);
  CHECK(measure::make_kernel_work(variant, 0, k, n).error() ==
        "m must be a positive integer, got 0");
}

// The harness's rules, driven by hand: each round's elapsed seconds are written in the test, so
// every step (warm, growth, settling, samples, recalibration, refusals) is checked exactly.
namespace {
measure::Sampler sampler(double resolution, double min_seconds, int samples, bool settle = true) {
  measure::SamplerOptions o;
  o.timer_resolution = resolution;
  o.min_sample_seconds = min_seconds;
  o.samples = samples;
  o.settle = settle;
  auto s = measure::start_sampler(o);
  REQUIRE(s.ok());
  return s.value();
}
}  // namespace

TEST_CASE("the sampler: a warm round, units grown to the target, two agreeing rounds, then samples",
          "[measure][sampler]") {
  auto s = sampler(1e-4, 0, 3);  // target 100 ticks of 0.1 ms = 10 ms
  CHECK(s.target == Approx(0.01));
  CHECK(s.phase == measure::Sampler::Phase::Warm);
  measure::record_round(s, 0.5);  // the warm round: slow first touch
  CHECK(s.warm_seconds == 0.5);
  CHECK(s.units == 1);
  measure::record_round(s, 1e-4);  // 1 unit lasts 1 tick: too short to scale by, so doubled
  CHECK(s.units == 2);
  measure::record_round(s, 2e-3);  // 20 ticks: scaled to 1.2 × the target: 2 × 1.2 × 0.01 / 0.002
  CHECK(s.units == 12);
  measure::record_round(s, 0.012);  // past the target: one more round must agree
  CHECK(s.phase == measure::Sampler::Phase::Calibrate);
  measure::record_round(s, 0.020);  // 0.020 vs 0.012: not within 10%
  CHECK(s.phase == measure::Sampler::Phase::Calibrate);
  measure::record_round(s, 0.019);  // within 10% of 0.020: settled
  CHECK(s.phase == measure::Sampler::Phase::Sample);
  measure::record_round(s, 0.012);
  measure::record_round(s, 0.011);
  CHECK_FALSE(s.finished());
  measure::record_round(s, 0.013);
  CHECK(s.phase == measure::Sampler::Phase::Done);
  REQUIRE(s.seconds_per_call.size() == 3);
  CHECK(s.seconds_per_call[1] == Approx(0.011 / 12));
  CHECK(s.recalibrations == 0);
}

TEST_CASE("the sampler: a short sample raises the units and starts the samples over",
          "[measure][sampler]") {
  auto s = sampler(1e-3, 0.05, 2);  // 100 ticks of 1 ms = 0.1 s beats min 0.05 s
  CHECK(s.target == Approx(0.1));
  measure::record_round(s, 0.2);   // warm
  measure::record_round(s, 0.15);  // 1 unit already past the target
  measure::record_round(s, 0.15);  // and again, equal: settled
  REQUIRE(s.phase == measure::Sampler::Phase::Sample);
  measure::record_round(s, 0.12);  // a sample
  measure::record_round(s,
                        0.05);  // the JIT arrived: short, so R grows (1.2 × 0.1 / 0.05 = 2.4 → 2)
  CHECK(s.recalibrations == 1);
  CHECK(s.seconds_per_call.empty());
  CHECK(s.units == 2);
  measure::record_round(s, 0.11);
  measure::record_round(s, 0.10);
  CHECK(s.phase == measure::Sampler::Phase::Done);
  for (double x : s.seconds_per_call) CHECK(measure::sample_long_enough(s.units, x, s.target));
}

TEST_CASE("the sampler gives up after 8 recalibrations or when units cannot grow, saying why",
          "[measure][sampler]") {
  auto s = sampler(1e-3, 0, 1);
  measure::record_round(s, 0.2);
  measure::record_round(s, 0.2);
  measure::record_round(s, 0.2);
  REQUIRE(s.phase == measure::Sampler::Phase::Sample);
  for (int i = 0; i <= measure::kMaxRecalibrations && !s.finished(); ++i)
    measure::record_round(s, 0.001);
  REQUIRE(s.phase == measure::Sampler::Phase::Failed);
  CHECK_THAT(
      s.error,
      Contains("under the 0.1 s (100 timer ticks) every sample must last, after 8 recalibrations"));

  measure::SamplerOptions o;
  o.timer_resolution = 1e-3;
  o.max_units = 4;
  auto t = measure::start_sampler(o).value();
  for (int i = 0; i < 10 && !t.finished(); ++i) measure::record_round(t, 1e-4);
  CHECK(t.phase == measure::Sampler::Phase::Failed);
  CHECK(t.error == "could not make a sample last 0.1 s within 4 repeats");

  auto u = sampler(1e-3, 0, 1);
  measure::record_round(u, -0.5);
  CHECK(u.error == "a round of 1 units lasted -0.5 s: the clock went backwards or stopped");
}

TEST_CASE("the sampler without settling: the first round past the target is the sample",
          "[measure][sampler]") {
  auto s = sampler(1e-4, 0, 1, false);
  measure::record_round(s, 1e-4);  // warm
  measure::record_round(s, 1e-4);
  measure::record_round(s, 0.0101);
  CHECK(s.phase == measure::Sampler::Phase::Done);
  REQUIRE(s.seconds_per_call.size() == 1);
  CHECK(s.seconds_per_call[0] == Approx(0.0101 / 2));
}

TEST_CASE("the sampler refuses options it cannot keep, naming the value", "[measure][sampler]") {
  measure::SamplerOptions o;
  o.timer_resolution = 0;
  CHECK(measure::start_sampler(o).error() ==
        "timer_resolution must be a positive number of seconds, got 0");
  o.timer_resolution = 1e-6;
  o.samples = 0;
  CHECK(measure::start_sampler(o).error() == "samples must be an integer from 1 to 1000, got 0");
  o.samples = 5;
  o.min_sample_seconds = 11;
  CHECK(measure::start_sampler(o).error() == "min_sample_seconds must be from 0 to 10, got 11");
}

TEST_CASE(
    "a sampler's state goes through JSON and back unchanged, and bad state is refused by field",
    "[measure][sampler]") {
  auto s = sampler(1e-4, 0.02, 3);
  for (double e : {0.5, 1e-4, 2e-3, 0.03, 0.031, 0.03}) measure::record_round(s, e);
  const std::string text = measure::sampler_json(s);
  auto back = measure::sampler_from_json(text);
  REQUIRE(back.ok());
  CHECK(measure::sampler_json(back.value()) == text);
  // Driving the copy and the original the same way keeps them equal.
  measure::record_round(s, 0.04);
  measure::record_round(back.value(), 0.04);
  CHECK(measure::sampler_json(back.value()) == measure::sampler_json(s));

  auto broken = text;
  broken.replace(broken.find("\"units\":"), 9, "\"units\":0,\"x\":");
  CHECK(measure::sampler_from_json(broken).error() ==
        "sampler.units must be a whole number from 1 to 1073741824, got 0");
  CHECK(measure::sampler_from_json("{}").error() == "sampler.options must be an object");
  CHECK_THAT(measure::sampler_from_json("{").error(), Contains("sampler: "));
}
