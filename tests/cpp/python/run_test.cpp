// Every supported name, lowered from Python, then parsed, verified and run by the interpreter on
// arange inputs, equals NumPy's value of the same function (run_cases.inc, made by
// make_expectations.py with Debian's python3-numpy).
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "interp/interp_util.h"
#include "python/notebook.h"
#include "python/tracer.h"

namespace {
struct Case {
  const char* name;
  const char* source;
  std::vector<double> expected;
  const char* shape;  // NumPy's result shape, "2x3" ("" for a scalar)
};
const Case kCases[] = {
#include "python/run_cases.inc"
};
}  // namespace

TEST_CASE("each supported name lowers, verifies, runs and equals NumPy", "[python][run]") {
  for (const Case& c : kCases) {
    CAPTURE(c.name, c.source);
    auto lowered = rl::python::lower_source(c.source);
    INFO((lowered.ok() ? lowered->text : lowered.error()));
    REQUIRE(lowered.ok());
    rl::interp::RunOptions options;
    options.inputs = rl::interp::Inputs::Arange;
    auto ran = rl::testing::run_text(lowered->text, options);
    INFO("status " << ran.result.status);
    REQUIRE(ran.result.status == "passed");
    REQUIRE(ran.result.results.size() == 1);
    const std::string shape = ran.result.results[0].shape;
    const std::string want = std::string("tensor<") + c.shape + (*c.shape ? "x" : "");
    CHECK(shape.compare(0, want.size(), want) == 0);
    auto got = rl::testing::as_doubles(ran.result, 0);
    REQUIRE(got.size() == c.expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i, got[i], c.expected[i]);
      // The lesson's rule: |actual − desired| ≤ atol + rtol·|desired| with 2e-5 each (f32 math).
      CHECK(std::fabs(got[i] - c.expected[i]) <= 2e-5 + 2e-5 * std::fabs(c.expected[i]));
    }
  }
}
