// StableHLO's interpreter check calls (`stablehlo.custom_call @check.NAME(%actual, %expected)`),
// with the semantics upstream gives them (stablehlo/tests/CheckOps.cpp and
// StablehloTranslateMain.cpp; written down in ../shared/reference/interpreter-checks.md):
//
//   expect_eq         exactly equal: NaN never equals NaN, +0 equals −0
//   expect_close      distance in units in the last place of the tensor's own format ≤ 3 (bf16
//                     counts bf16 ulps): equal bits 0, else the distance of the sign-magnitude bit
//                     patterns (the two magnitudes added when the signs differ); NaN against NaN
//                     counts 0; any other mismatch of non-finite values fails; complex: the
//                     larger of the real and imaginary parts' distances; integers exact
//   expect_almost_eq  |a − b| ≤ 0.001 computed in double; NaN matches NaN; infinities must be
//                     equal; complex part by part; integers exact
//   eq                exact for integers, |a − b| ≤ 1e-4 for floats (the quantized tests)
#pragma once

#include <string>

#include "interp/interp.h"
#include "interp/value.h"

namespace rl::interp {

constexpr int kCloseUlps = 3;
constexpr double kAlmostEqTolerance = 0.001;
constexpr double kEqTolerance = 1e-4;

// True when `name` ("check.expect_close") is a check call this interpreter evaluates.
bool is_check(const std::string& name);

// Compares two tensors of the same type and shape with check `name`; the outcome's detail says
// how they differ (first mismatching index, both values, the distance, how many mismatched).
CheckOutcome evaluate_check(const std::string& name, const Tensor& actual, const Tensor& expected);

// The distance in ulps of two values of a float format of `bits` bits (their bit patterns).
std::uint64_t ulp_distance(std::uint64_t a, std::uint64_t b, int bits);

}  // namespace rl::interp
