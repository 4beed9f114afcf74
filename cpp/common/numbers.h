// Exact counts and honest number printing, shared by the model and (later) the HLO cost code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// Numbers as JavaScript writes them, for text the core formats where the page's JavaScript
// (web/model/format.js) formats the same kind of value: the CLI's per-op table. Each appends to
// `out` and returns it.
//   js_integer: an integer below 2^63 in magnitude as String(x): "-5", "0" for −0.
//   js_precision: Number(x.toPrecision(digits)) as String writes it: x rounded to `digits` (1..17)
//     significant digits, ties away from zero, trailing zeros dropped, plain for exponents −7..20
//     ("0.08333", "12350", "1.235e-7", "1.235e+21"); NaN → "NaN", ±infinity →
//     "Infinity"/"-Infinity".
//   js_exponential: the same rounded value as Number(…).toExponential() writes it: "1.77e-6",
//   "2e+15".
std::string& js_integer(std::string& out, double x);
std::string& js_precision(std::string& out, double x, int digits);
std::string& js_exponential(std::string& out, double x, int digits);

// A value a person typed, quoted in a message: format_number's text, except that an infinity
// reads "infinity" ("Infinity" typed, or 1e400, which no double holds), not the terse "inf".
std::string typed_value(double value);

// A size typed as a double (JS numbers, CLI text) that must be an exact positive integer:
// "m must be a positive integer, got 0" for 0, −1, 2.5, NaN; "got infinity"; "… at most 2^53 …"
// beyond.
Result<std::int64_t> positive_integer(std::string_view name, double value);

// num/den reduced to lowest terms: (8192, 3584) → "16/7"; (6, 3) → "2".
std::string reduced_fraction(Count num, Count den);

// A list of integers as the messages print it: "[1, 0, 2]".
std::string list_text(const std::vector<std::int64_t>& values);

}  // namespace rl
