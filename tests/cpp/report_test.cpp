// The lesson's report composed by the core: every number recomputed here from its formula, next
// to the literal the seed notebook (and XLA's recorded cost analysis) gives.
#include "report/report.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinRel;
using Catch::Matchers::WithinULP;
using namespace rl;

namespace {
report::Report built(const report::Params& p = {}, const report::Extras& e = {}) {
  auto out = report::build(p, e);
  INFO(out.input << ": " << out.error);
  REQUIRE(out.ok());
  return out.report;
}

report::Outcome refused(const report::Params& p, const report::Extras& e = {}) {
  auto out = report::build(p, e);
  REQUIRE_FALSE(out.ok());
  return out;
}
}  // namespace

TEST_CASE("the report with no inputs is the seed's, number by number", "[report]") {
  const auto r = built();
  CHECK(r.accounting.flops == 2 * 32 * 16 * 8);                          // 8192
  CHECK(r.accounting.minimum_bytes == 4 * (32 * 16 + 16 * 8 + 32 * 8));  // 3584
  CHECK(r.accounting.intensity_fraction == "16/7");
  REQUIRE(r.sizes.size() == 5);
  const double expected_ceilings[] = {80.0 / 3, 160.0 / 3, 100, 100, 100};
  for (std::size_t i = 0; i < 5; ++i) {
    const double n = double(r.sizes[i].contraction.m);
    CHECK(n == double(std::int64_t(8) << i));
    CHECK_THAT(r.sizes[i].contraction.intensity, WithinULP(n / 6, 1));  // 2n³ / (4·3n²)
    CHECK_THAT(r.sizes[i].traffic.original.ceiling, WithinRel(expected_ceilings[i], 1e-15));
    CHECK_THAT(r.sizes[i].traffic.revised.ceiling,
               WithinRel(std::min(100.0, 20 * n / 6 / 2), 1e-15));
    CHECK(r.sizes[i].traffic.bound_changed == (n == 32));  // 100 → 160/3: compute- to memory-bound
  }
  CHECK(r.ridge == 100.0 / 20);
  CHECK(r.traffic_factor == 2);
  CHECK(std::count(r.figure.x.begin(), r.figure.x.end(), 5.0) ==
        1);  // the ridge joins the sizes' intensities
  CHECK(r.figure.series.size() == 3);
  // The exercise (48,24)·(24,12): 27648 flops, 8064 bytes, 24/7, 20 · 24/7 = 480/7 GFLOP/s < 100.
  CHECK(r.exercise_contraction.flops == 2 * 48 * 24 * 12);
  CHECK(r.exercise_contraction.minimum_bytes == 4 * (48 * 24 + 24 * 12 + 48 * 12));
  CHECK(r.exercise_contraction.intensity_fraction == "24/7");
  CHECK_THAT(r.exercise_ceiling.bandwidth_ceiling, WithinRel(480.0 / 7, 1e-15));
  CHECK(r.exercise_ceiling.bound == model::Bound::memory);
  CHECK(r.exercise.questions.size() == 4);
  CHECK(r.checked.empty());
  CHECK_FALSE(r.measured.has_value());
}

TEST_CASE(
    "step 1 and 2: the emitted StableHLO, its contract, XLA's recorded costs and the kernel check",
    "[report]") {
  const auto r = built();
  REQUIRE(r.lowered.has_value());
  CHECK(r.lowered->dtype == "f32");
  CHECK_THAT(r.lowered->text, StartsWith("module @jit_workload attributes"));
  CHECK(r.lowered->ops_present == std::vector<std::string>{"dot_general", "tanh"});
  CHECK(r.lowered->has_dot_general);
  CHECK(r.lowered->has_tanh);
  CHECK(r.lowered->result_type == "tensor<32x8xf32>");
  // XLA's CPU cost analysis of this module (reference/lesson.md): 8192 flops, 256
  // transcendentals, 5632 bytes = 3584 minimum + 2 · 4 · 32 · 8 for a@b written and read back.
  CHECK(r.lowered->cost.flops == 2 * 32 * 8 * 16);
  CHECK(r.lowered->cost.transcendentals == 32 * 8);
  CHECK(r.lowered->cost.bytes_accessed == 3584 + 2 * 4 * 32 * 8);
  CHECK(r.lowered->cost.minimum_traffic_bytes == 3584);
  CHECK(r.kernel_check.passed);
  CHECK(r.kernel_check.max_abs_error < 2e-5);
  CHECK_FALSE(r.kernel_variant.empty());
}

TEST_CASE(
    "a dtype sets the itemsize, and an itemsize with no float type has no StableHLO, and says why",
    "[report]") {
  report::Params bf16;
  bf16.dtype = "bf16";
  const auto r = built(bf16);
  CHECK(r.accounting.itemsize == 2);
  CHECK(r.lowered->dtype == "bf16");
  CHECK(r.lowered->result_type == "tensor<32x8xbf16>");
  report::Params three;
  three.itemsize = 3;
  const auto t = built(three);
  CHECK_FALSE(t.lowered.has_value());
  CHECK(t.stablehlo_unavailable == "no StableHLO float type has itemsize 3 (f32 4, bf16 2, f64 8)");
  CHECK(t.accounting.minimum_bytes == 3 * (32 * 16 + 16 * 8 + 32 * 8));
  for (const auto& d : report::dtypes()) {
    INFO(d.name);
    CHECK(report::dtype_of_itemsize(d.itemsize) == (d.itemsize == 2 ? "bf16" : d.name));
  }
  CHECK(report::dtype_of_itemsize(3).empty());
}

TEST_CASE("a refused input is named with the model's message", "[report]") {
  struct Case {
    report::Params params;
    std::string input, error;
  };
  report::Params m0, no_sizes, bad_size, peak, factor, huge, dtype, mismatch;
  m0.m = 0;
  no_sizes.sizes = std::vector<double>{};
  bad_size.sizes = std::vector<double>{8, 0};
  peak.peak = INFINITY;
  factor.traffic_factor = 0;
  huge.m = huge.k = huge.n = 1125899906842624.0;
  dtype.dtype = "i7";
  mismatch.dtype = "bf16";
  mismatch.itemsize = 4;
  const Case cases[] = {
      {m0, "m", "m must be a positive integer, got 0"},
      {no_sizes, "sizes", "sizes must be a non-empty list of positive integers, got []"},
      {bad_size, "sizes",
       "sizes: entry 2 of 2 must be a positive integer, got 0 (the list is split at commas: write "
       "1000, not 1,000)"},
      {peak, "peak", "peak must be a positive, finite number of GFLOP/s, got infinity"},
      {factor, "traffic_factor", "traffic factor must be a positive, finite number, got 0"},
      {huge, "dimensions", ""},
      {dtype, "dtype", "dtype must be one of f32, bf16, f16, f64, got \"i7\""},
      {mismatch, "dtype", "dtype bf16 has itemsize 2, got itemsize 4"},
  };
  for (const auto& c : cases) {
    auto out = refused(c.params);
    CHECK(out.input == c.input);
    if (!c.error.empty()) CHECK(out.error == c.error);
  }
  CHECK_THAT(refused(huge).error, StartsWith("flops = 2·m·k·n does not fit in 128 bits"));
}

TEST_CASE(
    "every refused input is named at once, each with its own rule's message, in the form's order",
    "[report]") {
  // m = 0 and peak = NaN together: both refused, not only the first (the page marks both fields).
  report::Params p;
  p.m = 0;
  p.n = 2.5;
  p.peak = NAN;
  p.sizes = std::vector<double>{1, 0};
  p.traffic_factor = -1;
  p.dtype = "bf16";
  p.itemsize = 4;
  const auto out = refused(p);
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& r : out.refused) got.push_back({r.input, r.error});
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"m", "m must be a positive integer, got 0"},
      {"n", "n must be a positive integer, got 2.5"},
      {"dtype", "dtype bf16 has itemsize 2, got itemsize 4"},
      {"sizes",
       "sizes: entry 2 of 2 must be a positive integer, got 0 (the list is split at commas: write "
       "1000, not 1,000)"},
      {"peak", "peak must be a positive, finite number of GFLOP/s, got NaN"},
      {"traffic_factor", "traffic factor must be a positive, finite number, got -1"},
  };
  CHECK(got == expected);
  CHECK(out.input == "m");  // the first is still the one `input` and `error` name
  CHECK(out.error == expected.front().second);
  CHECK(report::check_inputs(p).size() == expected.size());
  // Each alone is judged the same as in the list: no field's message depends on another's.
  report::Params peak_only;
  peak_only.peak = NAN;
  CHECK(refused(peak_only).refused.size() == 1);
  CHECK(refused(peak_only).error == "peak must be a positive, finite number of GFLOP/s, got NaN");
  // Acceptable inputs: nothing refused.
  CHECK(report::check_inputs(report::Params{}).empty());
  // A refusal of inputs together (counts that overflow) is the only one in the list.
  report::Params huge;
  huge.m = huge.k = huge.n = 1125899906842624.0;
  CHECK(report::check_inputs(huge).empty());
  REQUIRE(refused(huge).refused.size() == 1);
  CHECK(refused(huge).refused.front().input == "dimensions");
}

TEST_CASE(
    "an infinity is quoted as infinity, not inf (typed as Infinity, or 1e400, which no double "
    "holds)",
    "[report]") {
  report::Params p;
  p.m = INFINITY;
  p.bandwidth = -INFINITY;
  const auto out = refused(p);
  REQUIRE(out.refused.size() == 2);
  CHECK(out.refused[0].error == "m must be a positive integer, got infinity");
  CHECK(out.refused[1].error ==
        "bandwidth must be a positive, finite number of GB/s, got -infinity");
}

TEST_CASE("the revised roof turns at ridge · factor and sits at min(peak, bandwidth · x / factor)",
          "[report][figure]") {
  report::Params p;
  p.traffic_factor = 4;
  const auto r = built(p);
  CHECK(r.revised_ridge == 5.0 * 4);
  REQUIRE(r.revised_curve.size() == r.revised_curve_x.size());
  CHECK(std::is_sorted(r.revised_curve_x.begin(), r.revised_curve_x.end()));
  CHECK(std::find(r.revised_curve_x.begin(), r.revised_curve_x.end(), 20.0) !=
        r.revised_curve_x.end());
  for (std::size_t i = 0; i < r.revised_curve.size(); ++i) {
    const double x = r.revised_curve_x[i];
    CHECK_THAT(r.revised_curve[i].ceiling, WithinRel(std::min(100.0, 20 * x / 4), 1e-15));
  }
}

TEST_CASE("measured roofs: one per level through every corner, the kernel at its model intensity",
          "[report][figure]") {
  report::Extras e;
  e.measured =
      report::Measured{50, {{"l1", 200}, {"l2", 100}, {"memory", 10}}, 256, 256, 256, 12.5};
  const auto r = built({}, e);
  REQUIRE(r.measured.has_value());
  const auto& m = *r.measured;
  CHECK(m.x == 2.0 * 256 * 256 * 256 / (4.0 * 3 * 256 * 256));  // itemsize 4: 256/6
  CHECK(m.y == 12.5);
  REQUIRE(m.roofs.size() == 3);
  const double gbs[] = {200, 100, 10};
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(m.roofs[i].ridge == 50 / gbs[i]);
    for (const auto& p : m.roofs[i].points)
      CHECK_THAT(p.ceiling, WithinRel(std::min(50.0, gbs[i] * p.intensity), 1e-15));
    // Every roof's corner and the kernel's intensity are among the points.
    for (double corner : {50 / 200.0, 50 / 100.0, 50 / 10.0, m.x}) {
      CHECK(std::any_of(m.roofs[i].points.begin(), m.roofs[i].points.end(),
                        [&](const auto& p) { return p.intensity == corner; }));
    }
  }
  report::Extras bad;
  bad.measured = report::Measured{50, {{"l1", 0}}, 256, 256, 256, 12.5};
  auto out = refused({}, bad);
  CHECK(out.input == "measurements");
  CHECK(out.error ==
        "measured l1 roof: bandwidth must be a positive, finite number of GB/s, got 0");
}

TEST_CASE(
    "measured roofs on all cores: a layer per core count, every kernel timing a point in its layer",
    "[report][figure]") {
  report::Extras e;
  report::Measured m{50, {{"l1", 200}, {"l2", 100}, {"memory", 10}}, 256, 256, 256, 12.5};
  m.other_cores = {{4, 190, {{"l1", 800}, {"l2", 390}, {"memory", 25}}}};
  m.kernels = {{256, 256, 256, 1, 12.5},
               {256, 256, 256, 4, 45},
               {512, 512, 512, 1, 13},
               {512, 512, 512, 4, 50}};
  e.measured = m;
  const auto r = built({}, e);
  REQUIRE(r.measured.has_value());
  const auto& out = *r.measured;
  REQUIRE(out.layers.size() == 2);
  CHECK(out.layers[0].cores == 1);
  CHECK(out.layers[1].cores == 4);
  // The 1-core layer is the roofs and the headline point as before.
  REQUIRE(out.roofs.size() == 3);
  CHECK(out.layers[0].roofs.size() == 3);
  CHECK(out.x == 256.0 / 6);
  CHECK(out.y == 12.5);
  const double gbs4[] = {800, 390, 25};
  REQUIRE(out.layers[1].roofs.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& roof = out.layers[1].roofs[i];
    CHECK(roof.gflops == 190);
    CHECK(roof.ridge == 190 / gbs4[i]);
    for (const auto& p : roof.points)
      CHECK_THAT(p.ceiling, WithinRel(std::min(190.0, gbs4[i] * p.intensity), 1e-15));
    // Every roof of every layer runs through the same intensities: every corner and every point.
    CHECK(roof.points.size() == out.roofs[i].points.size());
    for (double corner : {50 / 200.0, 50 / 10.0, 190 / 800.0, 190 / 25.0, 256.0 / 6, 512.0 / 6}) {
      CHECK(std::any_of(roof.points.begin(), roof.points.end(),
                        [&](const auto& p) { return p.intensity == corner; }));
      CHECK(std::any_of(out.roofs[i].points.begin(), out.roofs[i].points.end(),
                        [&](const auto& p) { return p.intensity == corner; }));
    }
  }
  REQUIRE(out.layers[0].points.size() == 2);
  REQUIRE(out.layers[1].points.size() == 2);
  CHECK(out.layers[1].points[0].x == 256.0 / 6);
  CHECK(out.layers[1].points[0].y == 45);
  CHECK(out.layers[1].points[1].x == 512.0 / 6);
  CHECK(out.layers[1].points[1].cores == 4);
  // A product with fewer row tiles than Workers ran on fewer of them: a layer of points, no roofs.
  m.kernels.push_back({8, 8, 8, 2, 1});
  e.measured = m;
  const auto few = built({}, e);
  REQUIRE(few.measured->layers.size() == 3);
  CHECK(few.measured->layers[1].cores == 2);
  CHECK(few.measured->layers[1].roofs.empty());
  CHECK(few.measured->layers[1].points.size() == 1);

  report::Extras bad;
  report::Measured twice = m;
  twice.other_cores.push_back(twice.other_cores.front());
  bad.measured = twice;
  auto out2 = refused({}, bad);
  CHECK(out2.input == "measurements");
  CHECK(out2.error == "measured ceilings: 4 cores given twice");
  report::Measured zero = m;
  zero.other_cores[0].bandwidth_gbs[2].second = 0;
  bad.measured = zero;
  CHECK(refused({}, bad).error ==
        "measured memory roof on 4 cores: bandwidth must be a positive, finite number of GB/s, got "
        "0");
  report::Measured kernel = m;
  kernel.kernels.push_back({0, 8, 8, 1, 1});
  bad.measured = kernel;
  CHECK(refused({}, bad).error == "measured kernel: m must be a positive integer, got 0");
}

TEST_CASE("answers to the exercise are checked by the exercises' checker, blank ones not at all",
          "[report][exercise]") {
  report::Extras e;
  e.answers = {{"bound", "compute"}, {"work", "27,648"}, {"traffic", "  "}, {"ratio", "7/24"}};
  const auto r = built({}, e);
  REQUIRE(r.checked.size() == 3);
  CHECK(r.checked[0].first == "work");  // in the questions' order
  CHECK(r.checked[0].second.correct);
  CHECK(r.checked[1].first == "ratio");
  CHECK_THAT(r.checked[1].second.feedback, StartsWith("You divided bytes by flops"));
  CHECK(r.checked[2].first == "bound");
  CHECK_THAT(r.checked[2].second.feedback, StartsWith("Not compute-bound"));
  report::Extras unknown;
  unknown.answers = {{"colour", "blue"}};
  auto out = refused({}, unknown);
  CHECK(out.input == "answers");
  CHECK_THAT(out.error, Contains("no question \"colour\""));
}
