#include "common/numbers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace rl {

bool checked_mul(Count a, Count b, Count* out) { return !__builtin_mul_overflow(a, b, out); }
bool checked_add(Count a, Count b, Count* out) { return !__builtin_add_overflow(a, b, out); }

std::string to_decimal(Count value) {
  if (value == 0) return "0";
  std::string digits;
  while (value > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  return digits;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[40];
  // Integers print as integers while a double holds them exactly: -100, not -1e+02.
  if (std::floor(value) == value && std::fabs(value) <= kMaxExactInteger) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

Result<std::int64_t> positive_integer(std::string_view name, double value) {
  if (!std::isfinite(value) || value <= 0 || std::floor(value) != value) {
    return Result<std::int64_t>::failure_for(std::string(name), std::string(name) + " must be a positive integer, got " +
                                         format_number(value));
  }
  if (value > kMaxExactInteger) {
    return Result<std::int64_t>::failure_for(std::string(name), std::string(name) +
                                         " must be at most 2^53 = 9007199254740992, got " +
                                         format_number(value));
  }
  return Result<std::int64_t>::success(static_cast<std::int64_t>(value));
}

static Count gcd(Count a, Count b) {
  while (b != 0) {
    Count t = a % b;
    a = b;
    b = t;
  }
  return a;
}

std::string reduced_fraction(Count num, Count den) {
  Count g = gcd(num, den);
  if (g == 0) return "0";
  num /= g;
  den /= g;
  if (den == 1) return to_decimal(num);
  return to_decimal(num) + "/" + to_decimal(den);
}

std::string list_text(const std::vector<std::int64_t>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

}  // namespace rl
