// A program under roofs, composed in the core (the analyze view's figure and table draw this):
// the lesson's hypothetical budgets (100 GFLOP/s, 20 GB/s, ridge 5) with ops on both sides of
// the ridge, one without work, one measured and one not.
#include "report/roofline.h"

#include <cmath>
#include <string>

#include "catch.hpp"

using namespace rl;

namespace {
report::RooflineRequest lesson_request() {
  report::RooflineRequest q;
  q.roofs = {{100, 20}, {50, 40}};
  q.interconnects = {0, 0};
  // the lesson's dot (8192 flops, 3584 bytes: 16/7 flops per byte), a compute-bound op
  // (intensity 10), a copy (no flops) and an op with neither flops nor bytes
  q.flops = {8192, 1e6, 0, 0};
  q.bytes = {3584, 1e5, 1024, 0};
  q.total_flops = 8192 + 1e6;
  q.total_bytes = 3584 + 1e5 + 1024;
  q.xmin = 0.01, q.xmax = 1e4;
  return q;
}
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("each op's bound and ceiling under the first roof, every roof's ridge and curve",
          "[report][roofline]") {
  auto r = report::program_roofline(lesson_request());
  REQUIRE(r.ok());
  // codes: 1 memory, 2 compute (report::kBoundCodes), 0 nothing bounds no work
  CHECK(r->bounds == std::vector<std::uint8_t>{1, 2, 1, 0});
  CHECK(r->ceilings[0] == Approx(20.0 * 16 / 7));  // bandwidth · intensity below the ridge
  CHECK(r->ceilings[1] == 100);                    // the peak above it
  CHECK(std::isnan(r->ceilings[2]));               // no flops: no ceiling
  CHECK(std::isnan(r->ceilings[3]));
  CHECK(has(r->roofs_json, "\"ridge\":5,"));
  CHECK(has(r->roofs_json, "\"ridge\":1.25,"));  // the second roof: 50 / 40
  CHECK(r->measured_json == "null");
  CHECK(r->gflops.empty());
  CHECK(has(r->program_json, "\"x\":"));
}

TEST_CASE("measured ops are set against the first roof, unmeasured ones stay NaN",
          "[report][roofline]") {
  auto q = lesson_request();
  // the dot at 20 GFLOP/s, the copy at 10 GB/s, the op without counted work timed too
  q.seconds = {8192 / 20e9, NAN, 1024 / 10e9, 1e-6};
  q.measured_seconds = 1e-3;
  auto r = report::program_roofline(q);
  REQUIRE(r.ok());
  CHECK(r->gflops[0] == Approx(20));
  CHECK(r->gbs[2] == Approx(10));
  CHECK(r->of_roof[2] == Approx(0.5));  // 20 GB/s is the roof: half of it reached
  CHECK(std::isnan(r->gflops[1]));
  CHECK(r->gflops[2] == 0);  // a copy does no flops: 0 GFLOP/s is what it achieved
  // No counted work (an unmodeled op): its rates are unknown, not 0.
  CHECK(std::isnan(r->gflops[3]));
  CHECK(std::isnan(r->gbs[3]));
  CHECK(std::isnan(r->of_roof[3]));
  CHECK(has(r->measured_json, "\"seconds\":0.001,"));
}

TEST_CASE("a request the rules refuse is named", "[report][roofline]") {
  auto q = lesson_request();
  q.seconds = {1, 2};
  CHECK(report::program_roofline(q).error() ==
        "seconds must have one entry per op (NaN: not measured), got 2 for 4 ops");
  q = lesson_request();
  q.seconds = {1e-6, -1, NAN, NAN};
  CHECK_THAT(report::program_roofline(q).error(), Catch::Matchers::StartsWith("seconds[1]: "));
  q = lesson_request();
  q.bytes.pop_back();
  CHECK(report::program_roofline(q).error() ==
        "flops and bytes must have one entry per op, got 4 and 3");
  q = lesson_request();
  q.xmin = 10, q.xmax = 1;
  CHECK_FALSE(report::program_roofline(q).ok());
}

TEST_CASE("a roof of a request is refused by the model's budget rule, named by its index",
          "[report][roofline]") {
  auto ok = report::roof_budgets(0, 100, 20);
  REQUIRE(ok);
  CHECK(ok->peak_gflops == 100);
  CHECK(ok->bandwidth_gbs == 20);
  auto bad = report::roof_budgets(2, 100, 0);
  CHECK_THAT(bad.error(), Catch::Matchers::StartsWith("roofs[2]: "));
  CHECK(bad.error() == "roofs[2]: " + model::make_budgets(100, 0).error());
  CHECK(report::program_roofline({}).error() == "roofs must be a non-empty array of roofs");
}
