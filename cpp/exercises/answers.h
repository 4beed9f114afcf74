// Reading a student's answer: numbers in any usual form, with or without a unit.
//
//   27648   27,648   2.7648e4   24/7   3.43   8064 B   7.875 KiB   68.6 GFLOP/s   6.86e10 flop/s
//
// Commas are thousands separators only in groups of three ("27,648"); "3,43" is refused with a
// message rather than misread. A unit is converted to the question's unit, or refused by name
// when it measures something else (bytes for a flop count).
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace rl::exercises {

// What a unit measures, and the factor to its base (flop, byte, flop/s, byte/s, flop/byte).
enum class Dimension { none, flop, byte, flop_rate, byte_rate, intensity, flop_or_rate };

struct Quantity {
  double value;         // in the base unit of `dimension` (GFLOP/s → flop/s), as typed if none
  Dimension dimension;  // none: a bare number
  std::string unit;     // the unit as typed, "" if none
};

Result<Quantity> parse_quantity(std::string_view text);

// The question's unit: "flops", "bytes", "flops/byte", "GFLOP/s", "GB/s" or "" (a bare number).
// Returns the answer in that unit, or an error naming the mismatch.
Result<double> in_unit(const Quantity& q, const std::string& question_unit);

}  // namespace rl::exercises
