// The lesson's StableHLO through the interpreter, checked like the hand-written kernel.
#include "report/lesson_check.h"

#include <cmath>

#include "catch.hpp"
#include "kernels/kernels.h"

using namespace rl;

TEST_CASE("the lesson's IR runs on arange inputs and passes the lesson's check",
          "[interp][lesson]") {
  auto r = report::check_lesson_ir();
  REQUIRE(r);
  CHECK(r->inputs == "arange");
  CHECK(r->check.passed);
  CHECK(r->check.worst_ratio <= 1.0);
  // f32 dot and tanh against a double reference: errors of a few f32 ulps of values below 1.
  CHECK(r->check.max_abs_error < 1e-6);
  CHECK(r->ops >= 2);  // dot_general and tanh, each timed
  CHECK(r->ops_seconds > 0);
}

TEST_CASE("the lesson's rule is one function: a value off by more than atol + rtol·|y| fails",
          "[kernels][lesson]") {
  const double reference[3] = {0.5, -1.0, 0.0};
  const float ok[3] = {0.5f, -1.0f, 0.0f};
  auto pass = kernels::check_lesson_rule(ok, reference, 3);
  CHECK(pass.passed);
  CHECK(pass.max_abs_error == 0);
  // |x − y| = 1e-4 at index 1, allowed 2e-5 + 2e-5·1 = 4e-5: ratio 2.5.
  const float off[3] = {0.5f, static_cast<float>(-1.0 + 1e-4), 0.0f};
  auto fail = kernels::check_lesson_rule(off, reference, 3);
  CHECK_FALSE(fail.passed);
  CHECK(fail.worst_index == 1);
  CHECK_THAT(fail.worst_ratio,
             Catch::Matchers::WithinRel(std::fabs(double(off[1]) + 1.0) / 4e-5, 1e-12));
  const float nan[3] = {0.5f, NAN, 0.0f};
  CHECK_FALSE(kernels::check_lesson_rule(nan, reference, 3).passed);
}
