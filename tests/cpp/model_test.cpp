// The lesson's model, number by number. Expected values are written as their formula next to
// the literal the seed notebook asserts; the same file runs natively and as wasm under Node.
#include "model/model.h"

#include <cmath>
#include <limits>

#include "catch.hpp"
#include "count_printing.h"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using Catch::Matchers::WithinULP;
using namespace rl;
using namespace rl::model;

namespace {
const Budgets kLessonBudgets{lesson::kPeakGflops, lesson::kBandwidthGbs};
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

std::vector<double> square_intensities() {
  std::vector<double> out;
  for (auto n : lesson::square_sizes()) out.push_back(contract(n, n, n).value().intensity);
  return out;
}
}  // namespace

TEST_CASE("contract counts the lesson's matmul: 8192 flops, 3584 bytes, 16/7 flops per byte",
          "[model]") {
  auto c = contract(32, 16, 8);
  REQUIRE(c.ok());
  CHECK(c->flops == 2 * 32 * 16 * 8);
  CHECK(c->flops == 8192);
  CHECK(c->minimum_bytes == 4 * (32 * 16 + 16 * 8 + 32 * 8));
  CHECK(c->minimum_bytes == 3584);
  CHECK(c->intensity == 16.0 / 7.0);
  CHECK(c->intensity_fraction == "16/7");
}

TEST_CASE("contract uses the itemsize for bytes and never for flops", "[model]") {
  auto f32 = contract(32, 16, 8, 4).value();
  auto bf16 = contract(32, 16, 8, 2).value();
  CHECK(bf16.flops == f32.flops);
  CHECK(bf16.minimum_bytes * 2 == f32.minimum_bytes);
  CHECK(bf16.intensity == 2 * f32.intensity);
}

TEST_CASE("square sizes 8..128 have intensity n/6", "[model]") {
  auto n = GENERATE(8, 16, 32, 64, 128);
  auto c = contract(n, n, n);
  REQUIRE(c.ok());
  // 2n³ / (4·3n²) = n/6
  CHECK_THAT(c->intensity, WithinULP(n / 6.0, 1));
  CHECK(c->flops == Count(2) * n * n * n);
  CHECK(c->minimum_bytes == Count(12) * n * n);
}

TEST_CASE("the lesson's sizes are 8, 16, 32, 64, 128", "[model]") {
  CHECK(lesson::square_sizes() == std::vector<std::int64_t>{8, 16, 32, 64, 128});
}

TEST_CASE("contract refuses dimensions that are not positive integers, naming them", "[model]") {
  using Row = std::tuple<double, double, double, double, std::string>;
  auto [m, k, n, itemsize, message] = GENERATE(table<double, double, double, double, std::string>({
      Row{0, 16, 8, 4, "m must be a positive integer, got 0"},
      Row{32, -1, 8, 4, "k must be a positive integer, got -1"},
      Row{32, 16, 2.5, 4, "n must be a positive integer, got 2.5"},
      Row{32, 16, 8, 0, "itemsize must be a positive integer, got 0"},
      Row{32, 16, 8, 1.5, "itemsize must be a positive integer, got 1.5"},
      Row{kNaN, 16, 8, 4, "m must be a positive integer, got NaN"},
      Row{32, kInf, 8, 4, "k must be a positive integer, got infinity"},
      Row{32, 16, -kInf, 4, "n must be a positive integer, got -infinity"},
      Row{1e300, 16, 8, 4, "m must be at most 2^53 = 9007199254740992, got 1e+300"},
  }));
  auto c = contract(m, k, n, itemsize);
  REQUIRE_FALSE(c.ok());
  CHECK(c.error() == message);
}

TEST_CASE("contract is exact past 64 bits: m = k = n = 2^21 gives 2^64 flops", "[model]") {
  const double d = 1 << 21;
  auto c = contract(d, d, d);
  REQUIRE(c.ok());
  CHECK(to_decimal(c->flops) == "18446744073709551616");    // 2^64, one past UINT64_MAX
  CHECK(to_decimal(c->minimum_bytes) == "52776558133248");  // 4·3·2^42
  CHECK_THAT(c->intensity, WithinULP(d / 6, 1));
}

TEST_CASE("contract refuses sizes whose counts overflow 128 bits instead of wrapping", "[model]") {
  const double d = std::ldexp(1.0, 50);  // 2·(2^50)³ = 2^151
  auto c = contract(d, d, d);
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.error(), Contains("flops = 2·m·k·n does not fit in 128 bits"));
  CHECK_THAT(c.error(), Contains("m=1125899906842624"));
  // Just under the line: 2·(2^42)³ = 2^127 still fits.
  auto edge = contract(std::ldexp(1.0, 42), std::ldexp(1.0, 42), std::ldexp(1.0, 42));
  REQUIRE(edge.ok());
  CHECK(edge->flops == Count(1) << 127);
  // Bytes overflow on their own: flops fit, itemsize·elements does not.
  auto bytes = contract(std::ldexp(1.0, 53), std::ldexp(1.0, 53), 1, std::ldexp(1.0, 53));
  REQUIRE_FALSE(bytes.ok());
  CHECK_THAT(bytes.error(), Contains("minimum bytes = itemsize·(m·k + k·n + m·n) does not fit"));
}

TEST_CASE("contract_shapes checks the inner dimensions", "[model]") {
  auto ok = contract_shapes(48, 24, 24, 12);
  REQUIRE(ok.ok());
  CHECK(ok->m == 48);
  CHECK(ok->k == 24);
  CHECK(ok->n == 12);
  auto bad = contract_shapes(48, 24, 25, 12);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() ==
        "inner dimensions must match (columns of a = rows of b), got a (48,24) and b (25,12)");
  auto zero = contract_shapes(48, 0, 0, 12);
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error() == "a columns must be a positive integer, got 0");
}

TEST_CASE("budgets are positive, finite and in GFLOP/s and GB/s", "[model]") {
  CHECK(make_budgets(100, 20).ok());
  using Row = std::tuple<double, double, std::string>;
  auto [peak, bandwidth, message] = GENERATE(table<double, double, std::string>({
      Row{0, 20, "peak must be a positive, finite number of GFLOP/s, got 0"},
      Row{-100, 20, "peak must be a positive, finite number of GFLOP/s, got -100"},
      Row{kInf, 20, "peak must be a positive, finite number of GFLOP/s, got infinity"},
      Row{kNaN, 20, "peak must be a positive, finite number of GFLOP/s, got NaN"},
      Row{100, 0, "bandwidth must be a positive, finite number of GB/s, got 0"},
      Row{100, kInf, "bandwidth must be a positive, finite number of GB/s, got infinity"},
      Row{100e9, 20,
          "peak must be at most 1e9 GFLOP/s (budgets are in GFLOP/s: 100e9 FLOP/s is 100), got "
          "100000000000"},
      Row{100, 20e9,
          "bandwidth must be at most 1e9 GB/s (budgets are in GB/s: 20e9 B/s is 20), got "
          "20000000000"},
  }));
  auto b = make_budgets(peak, bandwidth);
  REQUIRE_FALSE(b.ok());
  CHECK(b.error() == message);
}

TEST_CASE("the ridge of the hypothetical budgets is 100 / 20 = 5 flops per byte", "[model]") {
  CHECK(ridge(kLessonBudgets) == 5.0);
}

TEST_CASE("hypothetical ceilings are 80/3, 160/3, then the 100 GFLOP/s peak", "[model]") {
  auto intensities = square_intensities();
  const double expected[] = {80.0 / 3, 160.0 / 3, 100, 100, 100};  // 20·n/6, capped at 100
  const Bound bounds[] = {Bound::memory, Bound::memory, Bound::compute, Bound::compute,
                          Bound::compute};
  for (std::size_t i = 0; i < intensities.size(); ++i) {
    auto c = ceiling(kLessonBudgets, intensities[i]);
    REQUIRE(c.ok());
    INFO("n = " << lesson::square_sizes()[i]);
    CHECK_THAT(c->ceiling, WithinRel(expected[i], 1e-15));
    CHECK(c->bound == bounds[i]);
  }
  // The seed asserts the compute-bound ceilings equal the peak exactly.
  CHECK(ceiling(kLessonBudgets, intensities[2]).value().ceiling == 100.0);
}

TEST_CASE("at the ridge the two budgets agree: balanced", "[model]") {
  auto c = ceiling(kLessonBudgets, 5);
  REQUIRE(c.ok());
  CHECK(c->bound == Bound::balanced);
  CHECK(c->ceiling == 100);
  CHECK(std::string(bound_name(Bound::balanced)) == "balanced");
}

TEST_CASE("ceiling refuses non-positive and non-finite intensity", "[model]") {
  auto intensity = GENERATE(0.0, -1.0, kNaN, kInf);
  auto c = ceiling(kLessonBudgets, intensity);
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.error(), Contains("intensity must be a positive, finite number of flops per byte"));
}

TEST_CASE("doubling the traffic halves the first two ceilings and leaves the last at peak",
          "[model]") {
  auto rows = traffic_experiment(kLessonBudgets, square_intensities(), lesson::kTrafficFactor);
  REQUIRE(rows.ok());
  const auto& r = rows.value();
  REQUIRE(r.size() == 5);
  CHECK_THAT(r[0].revised.ceiling, WithinRel(r[0].original.ceiling / 2, 1e-15));  // 40/3
  CHECK_THAT(r[1].revised.ceiling, WithinRel(r[1].original.ceiling / 2, 1e-15));  // 80/3
  CHECK_THAT(r[2].revised.ceiling, WithinRel(160.0 / 3, 1e-15));  // n=32 falls from 100
  CHECK(r[3].revised.ceiling == 100);
  CHECK(r[4].revised.ceiling == 100);
  // Only n = 32 changes bound: 32/12 ≈ 2.67 flops/byte is below the ridge of 5.
  CHECK_FALSE(r[0].bound_changed);
  CHECK_FALSE(r[1].bound_changed);
  CHECK(r[2].bound_changed);
  CHECK_FALSE(r[3].bound_changed);  // 64/12 ≈ 5.33 stays above the ridge
  CHECK_FALSE(r[4].bound_changed);
  CHECK(r[2].revised.intensity == r[2].original.intensity / 2);
}

TEST_CASE("the traffic factor must be positive and finite", "[model]") {
  auto factor = GENERATE(0.0, -2.0, kNaN, kInf);
  auto rows = traffic_experiment(kLessonBudgets, square_intensities(), factor);
  REQUIRE_FALSE(rows.ok());
  CHECK_THAT(rows.error(), Contains("traffic factor must be a positive, finite number, got"));
}

TEST_CASE("predict_traffic: memory-bound time grows with the factor, compute-bound stays",
          "[model][traffic]") {
  // Under the lesson's budgets (ridge 5 flops per byte).
  SECTION("memory-bound work (1 flop per byte) read 3 times: 3× the time") {
    auto p = predict_traffic(kLessonBudgets, 1e9, 1e9, 1e9, 3e9);
    REQUIRE(p.ok());
    CHECK(p->bound == Bound::memory);
    CHECK(p->factor_bound == Bound::memory);
    CHECK(p->seconds == 1e9 / 20e9);  // bytes / bandwidth
    CHECK(p->factor_seconds == 3e9 / 20e9);
    CHECK_THAT(p->time_ratio, WithinULP(3.0, 2));
    CHECK_THAT(p->factor_intensity, WithinULP(1.0 / 3, 2));
  }
  SECTION("compute-bound work (40 flops per byte) with twice the bytes stays compute-bound: 1×") {
    auto p = predict_traffic(kLessonBudgets, 40e9, 1e9, 40e9, 2e9);
    REQUIRE(p.ok());
    CHECK(p->bound == Bound::compute);
    CHECK(p->factor_bound == Bound::compute);
    CHECK(p->time_ratio == 1);
  }
  SECTION("compute-bound work pushed past the ridge: the bandwidth term takes over") {
    // 40 flops per byte read 16 times is 2.5 flops per byte, under the ridge of 5:
    // time 16e9 / 20e9 = 0.8 s against 40e9 / 100e9 = 0.4 s, so 2×.
    auto p = predict_traffic(kLessonBudgets, 40e9, 1e9, 40e9, 16e9);
    REQUIRE(p.ok());
    CHECK(p->bound == Bound::compute);
    CHECK(p->factor_bound == Bound::memory);
    CHECK_THAT(p->time_ratio, WithinULP(2.0, 2));
  }
  SECTION("counts must be positive and finite, each named") {
    auto p = predict_traffic(kLessonBudgets, 1e9, 1e9, 1e9, 0);
    REQUIRE_FALSE(p.ok());
    CHECK_THAT(p.error(), Contains("bytes at the factor must be a positive, finite number, got 0"));
    CHECK_THAT(predict_traffic(kLessonBudgets, kNaN, 1, 1, 1).error(), Contains("flops must be"));
  }
}

TEST_CASE("figure data has the seed's structure: sorted x with the ridge, three series",
          "[model][figure]") {
  auto fig = figure(kLessonBudgets, square_intensities());
  REQUIRE(fig.ok());
  CHECK(fig->kind == "line");
  CHECK(fig->xlabel == "minimum-traffic operations per byte");
  CHECK(fig->ylabel == "hypothetical ceiling (GFLOP/s)");
  REQUIRE(fig->x.size() == 6);
  const double x[] = {8.0 / 6, 16.0 / 6, 5, 32.0 / 6, 64.0 / 6, 128.0 / 6};  // ridge 5 sorted in
  for (int i = 0; i < 6; ++i) CHECK_THAT(fig->x[i], WithinULP(x[i], 1));
  REQUIRE(fig->series.size() == 3);
  CHECK(fig->series[0].label == "bandwidth budget");
  CHECK(fig->series[1].label == "compute budget");
  CHECK(fig->series[2].label == "combined ceiling");
  for (int i = 0; i < 6; ++i) {
    CHECK_THAT(fig->series[0].y[i], WithinRel(20 * x[i], 1e-15));
    CHECK(fig->series[1].y[i] == 100);
    CHECK_THAT(fig->series[2].y[i], WithinRel(std::min(100.0, 20 * x[i]), 1e-15));
  }
  CHECK(fig->series[2].y[2] == 100);  // at the ridge, both budgets give the peak
}

TEST_CASE("figure refuses a bad intensity instead of drawing it", "[model][figure]") {
  auto fig = figure(kLessonBudgets, {1.0, -2.0});
  REQUIRE_FALSE(fig.ok());
  CHECK(fig.error() == "intensity must be a positive, finite number of flops per byte, got -2");
}

TEST_CASE("the exercise (48,24)·(24,12): 27648 flops, 8064 bytes, 24/7, memory-bound",
          "[model][exercise]") {
  auto c = contract_shapes(lesson::kExerciseA[0], lesson::kExerciseA[1], lesson::kExerciseB[0],
                           lesson::kExerciseB[1]);
  REQUIRE(c.ok());
  CHECK(c->flops == 2 * 48 * 24 * 12);
  CHECK(c->flops == 27648);
  CHECK(c->minimum_bytes == 4 * (48 * 24 + 24 * 12 + 48 * 12));
  CHECK(c->minimum_bytes == 8064);
  CHECK(c->intensity_fraction == "24/7");
  CHECK(c->intensity == 24.0 / 7);
  auto at = ceiling(kLessonBudgets, c->intensity);
  REQUIRE(at.ok());
  CHECK_THAT(at->bandwidth_ceiling, WithinRel(480.0 / 7, 1e-15));  // ≈ 68.57 GFLOP/s
  CHECK(at->bandwidth_ceiling < 100);
  CHECK(at->bound == Bound::memory);
}

TEST_CASE("a roof's curve runs through the ends of the range and the ridge between",
          "[model][roof]") {
  auto curve = roof_curve(kLessonBudgets, 1, 100).value();
  REQUIRE(curve.size() == 3);
  // x = 1: bandwidth · 1 = 20; x = 100/20 = 5: the corner at the 100 GFLOP/s peak; x = 100: the
  // peak.
  CHECK(curve[0].intensity == 1);
  CHECK(curve[0].ceiling == 20 * 1);
  CHECK(curve[1].intensity == 100.0 / 20);
  CHECK(curve[1].ceiling == 100);
  CHECK(curve[2].ceiling == 100);
  CHECK(roof_curve(kLessonBudgets, 10, 100).value().size() ==
        2);  // the ridge lies left of the range
  CHECK(roof_curve(kLessonBudgets, 0, 10).error() ==
        "xmin must be a positive, finite number of flops per byte, got 0");
  CHECK(roof_curve(kLessonBudgets, 10, 1).error() == "xmin must be at most xmax, got 10 > 1");
}

TEST_CASE("work is bound by whichever time is longer: flops / peak or bytes / bandwidth",
          "[model][roof]") {
  // The lesson's module under 100 GFLOP/s, 20 GB/s: 8192 / 100 < 3584 / 20.
  CHECK(work_bound(kLessonBudgets, 8192, 3584) == Bound::memory);
  CHECK(work_bound(kLessonBudgets, 1e6, 1) == Bound::compute);
  CHECK(work_bound(kLessonBudgets, 5, 1) == Bound::balanced);  // intensity 5 = the ridge
  CHECK(work_bound(kLessonBudgets, 7, 0) == Bound::compute);   // no traffic at all
  CHECK_FALSE(work_bound(kLessonBudgets, 0, 0).has_value());
}

TEST_CASE("a measured time is set against the roof: achieved rates and the share of the roof",
          "[model][roof]") {
  // The lesson's tanh(a@b): 8192 flops, 5632 bytes, memory-bound under 100 GFLOP/s and 20 GB/s;
  // its ceiling is 20 * 8192/5632 GFLOP/s, its bound 5632 / 20e9 s.
  const double seconds = 2e-6;
  auto a = achieved(kLessonBudgets, 8192, 5632, seconds);
  REQUIRE(a);
  CHECK_THAT(a->gflops, Catch::Matchers::WithinRel(8192 / seconds / 1e9, 1e-15));
  CHECK_THAT(a->gbs, Catch::Matchers::WithinRel(5632 / seconds / 1e9, 1e-15));
  CHECK(a->bound_seconds == 5632 / 20e9);
  CHECK_THAT(a->of_roof, Catch::Matchers::WithinRel((5632 / 20e9) / seconds, 1e-15));
  // With flops and bytes, the share of the roof is achieved GFLOP/s over the op's ceiling.
  auto c = ceiling(kLessonBudgets, 8192.0 / 5632.0);
  REQUIRE(c);
  CHECK_THAT(a->of_roof, Catch::Matchers::WithinRel(a->gflops / c->ceiling, 1e-12));
  CHECK_THAT(a->over_bound, Catch::Matchers::WithinRel(seconds / (5632 / 20e9), 1e-15));
  // Data movement (no flops) still has a memory bound; no work has no bound.
  auto copy = achieved(kLessonBudgets, 0, 4e6, 1e-3);
  REQUIRE(copy);
  CHECK(copy->gflops == 0);
  CHECK_THAT(copy->of_roof, Catch::Matchers::WithinRel((4e6 / 20e9) / 1e-3, 1e-15));
  auto none = achieved(kLessonBudgets, 0, 0, 1e-3);
  REQUIRE(none);
  CHECK(none->of_roof == 0);
  CHECK(none->over_bound == 0);
}

TEST_CASE("a measured time must be positive and finite, counts finite and not negative",
          "[model][roof]") {
  CHECK(achieved(kLessonBudgets, 1, 1, 0).error() ==
        "measured seconds must be a positive, finite number, got 0");
  CHECK(achieved(kLessonBudgets, 1, 1, -1).error() ==
        "measured seconds must be a positive, finite number, got -1");
  CHECK(achieved(kLessonBudgets, -1, 1, 1).error() == "flops must be a finite number >= 0, got -1");
  CHECK_FALSE(achieved(kLessonBudgets, 1, std::nan(""), 1));
}

TEST_CASE("the lower bound on time is the longest of compute, memory and collectives time",
          "[model][roof]") {
  auto t = time_lower_bound(kLessonBudgets, 0, 8192, 5632, 0);
  CHECK(t.compute == 8192 / 100e9);
  CHECK(t.memory == 5632 / 20e9);
  CHECK(t.seconds == t.memory);
  CHECK(t.bound == "memory");
  CHECK_FALSE(t.collective.has_value());
  CHECK(t.collectives == "none in the program");
  CHECK(time_lower_bound(kLessonBudgets, 0, 100, 20, 0).bound == "balanced (compute = memory)");
  CHECK(time_lower_bound(kLessonBudgets, 0, 0, 0, 0).bound.empty());
  // 9e9 collective bytes: not modelled without an interconnect; with 450 GB/s, 9e9 / 450e9 s.
  auto without = time_lower_bound(kLessonBudgets, 0, 1e9, 1e6, 9e9);
  CHECK(without.collectives == "not modelled: this roof states no interconnect bandwidth");
  CHECK(without.bound == "compute");
  auto with = time_lower_bound(kLessonBudgets, 450, 1e9, 1e6, 9e9);
  REQUIRE(with.collective.has_value());
  CHECK(*with.collective == 9e9 / 450e9);
  CHECK(with.collectives == "modelled");
  CHECK(with.bound == "collectives");
}
