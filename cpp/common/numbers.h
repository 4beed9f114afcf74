// Exact counts and honest number printing, shared by the model and (later) the HLO cost code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>
#include <string_view>

#include "common/result.h"

namespace rl {

// Work and traffic counts are exact unsigned 128-bit integers: 2·m·k·n for m = k = n = 2^21
// is 2^64, one past what 64 bits hold. Arithmetic on them is checked, never wrapping.
using Count = unsigned __int128;

// The largest integer a double (and so a JS number) holds exactly: 2^53.
constexpr double kMaxExactInteger = 9007199254740992.0;

// a·b and a+b, or false when the exact result does not fit in 128 bits.
bool checked_mul(Count a, Count b, Count* out);
bool checked_add(Count a, Count b, Count* out);

// Decimal digits of a count: "18446744073709551616".
std::string to_decimal(Count value);

// The shortest text that reads back as the same double: 2.5 → "2.5", 1e300 → "1e+300",
// NaN → "NaN", infinities → "inf" / "-inf". Used in every message that quotes a value.
std::string format_number(double value);

// A size typed as a double (JS numbers, CLI text) that must be an exact positive integer:
// "m must be a positive integer, got 0" for 0, −1, 2.5, NaN, inf; "… at most 2^53 …" beyond.
Result<std::int64_t> positive_integer(std::string_view name, double value);

// num/den reduced to lowest terms: (8192, 3584) → "16/7"; (6, 3) → "2".
std::string reduced_fraction(Count num, Count den);

// A list of integers as the messages print it: "[1, 0, 2]".
std::string list_text(const std::vector<std::int64_t>& values);

}  // namespace rl
