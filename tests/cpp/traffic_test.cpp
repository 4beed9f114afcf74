// Section 6's experiment measured (measure/traffic.h): what each workload did — exact flops and
// bytes at 1× and at the factor —, that its times are the harness's, and that the prediction is
// the model's for those counts under the roofs the 1× runs show. Times are never asserted.
#include "measure/traffic.h"

#include <cmath>
#include <limits>
#include <string>

#include "catch.hpp"

using namespace rl;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinULP;

namespace {
// A small array (16 chunks, 256 KiB) keeps the test quick; the page uses 64 MiB.
constexpr double kSmall = 16 * double(measure::kTrafficChunkFloats);
}  // namespace

TEST_CASE("the traffic experiment counts what each workload read and did, exactly",
          "[measure][traffic]") {
  // The same counts whichever order the reads come in.
  const auto reread = GENERATE(measure::Reread::after_array, measure::Reread::right_away);
  auto m = measure::measure_traffic(2.5, reread, 2, kSmall, 0);
  REQUIRE(m.ok());
  const double n = kSmall;
  CHECK(m->reread == reread);
  CHECK(m->elements == std::size_t(n));
  CHECK(m->array_bytes == std::size_t(4 * n));
  CHECK(m->factor == 2.5);  // 40 chunk reads over 16 chunks
  // Memory-bound: 1 step (2 flops) per element per read; 4 bytes per element read.
  CHECK(m->memory.once.bytes == 4 * n);
  CHECK(m->memory.once.flops == 2 * n);
  CHECK(m->memory.factor.bytes == 2.5 * 4 * n);
  CHECK(m->memory.factor.flops == 2.5 * 2 * n);
  // Compute-bound: 64 steps per element in all, whatever the number of reads.
  CHECK(m->compute.once.flops == 2 * measure::kComputeBoundSteps * n);
  CHECK(m->compute.factor.flops == m->compute.once.flops);
  CHECK(m->compute.factor.bytes == 2.5 * 4 * n);
  CHECK(m->compute.once.reads == 1);
  CHECK(m->compute.factor.reads == 2.5);
}

TEST_CASE("the traffic experiment's times come from the harness and its prediction from the model",
          "[measure][traffic]") {
  auto m = measure::measure_traffic(4, measure::Reread::after_array, 3, kSmall, 0);
  REQUIRE(m.ok());
  for (const measure::TrafficWorkload* w : {&m->memory, &m->compute}) {
    INFO(w->name);
    for (const measure::TrafficRun* r : {&w->once, &w->factor}) {
      REQUIRE(r->timing.seconds_per_call.size() == 3);
      CHECK(r->timing.median > 0);
      for (double s : r->timing.seconds_per_call) {
        CHECK(measure::sample_long_enough(r->timing.repeats, s, r->timing.target_sample_seconds));
      }
    }
    CHECK(w->measured_ratio == w->factor.timing.median / w->once.timing.median);
    auto p = model::predict_traffic(m->roofs, w->once.flops, w->once.bytes, w->factor.flops,
                                    w->factor.bytes);
    REQUIRE(p.ok());
    CHECK(w->predicted.time_ratio == p->time_ratio);
    CHECK(w->agreement == w->measured_ratio / p->time_ratio);
    const bool agrees = std::fabs(w->agreement - 1) <= measure::kTrafficAgreement;
    CHECK(w->verdict == (agrees             ? "agrees"
                         : w->agreement < 1 ? "faster than predicted"
                                            : "slower than predicted"));
  }
  // The roofs are read off the 1× runs: each workload's own rate there.
  CHECK(m->roofs.peak_gflops == m->compute.once.flops / m->compute.once.timing.median / 1e9);
  CHECK(m->roofs.bandwidth_gbs == m->memory.once.bytes / m->memory.once.timing.median / 1e9);
  // The memory-bound workload's reads bring their own steps, so its work and bytes both grow
  // by the factor and the predicted time does too, whichever roof binds it (on a 256 KiB array in
  // cache it need not be bandwidth; on the page's 64 MiB array it is).
  CHECK_THAT(m->memory.predicted.time_ratio, WithinULP(4.0, 4));
  CHECK_THAT(m->memory.predicted.factor_intensity, WithinULP(m->memory.predicted.intensity, 2));
  CHECK(m->memory.name == "memory-bound");
  CHECK(m->compute.name == "compute-bound");
}

TEST_CASE("the two orders of the reads have their names", "[measure][traffic]") {
  CHECK(std::string(measure::reread_name(measure::Reread::after_array)) == "after the whole array");
  CHECK(std::string(measure::reread_name(measure::Reread::right_away)) == "right away");
}

TEST_CASE("at factor 1 the workloads are timed once and the ratios are exactly 1",
          "[measure][traffic]") {
  auto m = measure::measure_traffic(1, measure::Reread::after_array, 1, kSmall, 0);
  REQUIRE(m.ok());
  CHECK(m->memory.measured_ratio == 1);
  CHECK(m->compute.predicted.time_ratio == 1);
  CHECK(m->compute.verdict == "agrees");
}

TEST_CASE("the traffic experiment refuses what it cannot measure, naming the value",
          "[measure][traffic]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  SECTION("a factor under 1, over 64 or not finite") {
    for (double f : {0.25, 0.0, -2.0, 65.0, nan}) {
      auto m = measure::measure_traffic(f, measure::Reread::after_array, 1, kSmall, 0);
      REQUIRE_FALSE(m.ok());
      CHECK(m.error_info().input == "traffic factor");
      CHECK_THAT(m.error(), Contains("traffic factor to measure must be from 1 to 64"));
    }
    CHECK_THAT(measure::measure_traffic(0.25, measure::Reread::after_array, 1, kSmall, 0).error(),
               Contains("got 0.25"));
  }
  SECTION("an array that is not whole chunks, or past the cap") {
    for (double e : {1000.0, 4096.5, 4096.0 * 3 + 1, 1e12}) {
      auto m = measure::measure_traffic(2, measure::Reread::after_array, 1, e, 0);
      REQUIRE_FALSE(m.ok());
      CHECK(m.error_info().input == "elements");
      CHECK_THAT(m.error(), Contains("elements must be a whole multiple of 4096"));
    }
  }
  SECTION("samples outside 1..100") {
    auto m = measure::measure_traffic(2, measure::Reread::after_array, 0, kSmall, 0);
    REQUIRE_FALSE(m.ok());
    CHECK_THAT(m.error(), Contains("samples must be an integer from 1 to 100, got 0"));
  }
}
