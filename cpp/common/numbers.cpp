#include "common/numbers.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

namespace {

constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Decimal digits of a positive finite value: `count` digits d[0..count) (no trailing zeros) and
// the exponent of the first, value = d[0].d[1]… × 10^exponent.
struct Digits {
  char d[20];
  int count = 0;
  int exponent = 0;
};

void drop_trailing_zeros(Digits& x) {
  while (x.count > 1 && x.d[x.count - 1] == '0') --x.count;
}

// `ax` rounded to `p` (1..17) significant digits, ties away from zero, as toPrecision rounds the
// exact binary value. Multiplying by a power of ten exactly held in a double errs by half an ulp
// at most, so the rounding is decided there unless the value lies next to a tie; then (and out
// of the powers' range) the exact decimal expansion (printf prints it exactly) decides.
Digits round_to(double ax, int p) {
  Digits out;
  int e = static_cast<int>(std::floor(std::log10(ax)));
  for (int attempt = 0; p <= 15 && attempt < 3; ++attempt) {
    const int shift = p - 1 - e;
    double scaled;
    if (shift >= 0 && shift <= 22)
      scaled = ax * kPow10[shift];
    else if (shift < 0 && -shift <= 22)
      scaled = ax / kPow10[-shift];
    else
      break;
    if (scaled < kPow10[p - 1]) {
      --e;
      continue;
    }
    if (scaled >= kPow10[p]) {
      ++e;
      continue;
    }
    const double whole = std::floor(scaled);
    const double fraction = scaled - whole;
    if (std::fabs(fraction - 0.5) <= scaled * 1e-12) break;  // next to a tie
    auto n = static_cast<std::uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
    if (static_cast<double>(n) == kPow10[p]) {  // 9999.7 → 10000: one digit more to the left
      n /= 10;
      ++e;
    }
    for (int i = p - 1; i >= 0; --i) {
      out.d[i] = static_cast<char>('0' + n % 10);
      n /= 10;
    }
    out.count = p;
    out.exponent = e;
    drop_trailing_zeros(out);
    return out;
  }
  // Exact: a double's decimal expansion has at most 767 significant digits.
  char text[800];
  std::snprintf(text, sizeof text, "%.*e", 770, ax);
  out.d[0] = text[0];
  std::memcpy(out.d + 1, text + 2, static_cast<std::size_t>(p - 1));
  out.exponent = std::atoi(std::strchr(text, 'e') + 1);
  out.count = p;
  if (text[p + 1] >= '5') {  // the first digit dropped: ties and above round up
    int i = p - 1;
    while (i >= 0 && out.d[i] == '9') out.d[i--] = '0';
    if (i >= 0) {
      ++out.d[i];
    } else {
      out.d[0] = '1';
      ++out.exponent;
    }
  }
  drop_trailing_zeros(out);
  return out;
}

// The shortest digits that read back as `v` (positive, finite), as JavaScript's String finds them.
Digits shortest(double v) {
  Digits out;
  char text[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(text, sizeof text, "%.*e", p - 1, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  out.d[0] = text[0];
  int n = 1;
  for (const char* c = text + 2; *c >= '0' && *c <= '9'; ++c) out.d[n++] = *c;
  out.count = n;
  out.exponent = std::atoi(std::strchr(text, 'e') + 1);
  drop_trailing_zeros(out);
  return out;
}

// Number(rounded) in JavaScript: the nearest double to the rounded digits, and its shortest
// digits. Those are the rounded digits themselves wherever doubles hold 17 digits apart (a
// decimal of 17 digits or fewer is the only one that short reading back so); near the ends
// of the range (subnormals, past the largest double) they are read back. Returns false for an
// infinity.
bool as_number(Digits& x) {
  if (x.exponent > -300 && x.exponent < 300) return true;
  char text[48];
  int n = 0;
  text[n++] = x.d[0];
  text[n++] = '.';
  for (int i = 1; i < x.count; ++i) text[n++] = x.d[i];
  std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), "e%d", x.exponent);
  const double v = std::strtod(text, nullptr);
  if (std::isinf(v)) return false;
  x = shortest(v);
  return true;
}

void append_exponent(std::string& out, int exponent) {
  out += exponent < 0 ? "e-" : "e+";
  out += std::to_string(exponent < 0 ? -exponent : exponent);
}

}  // namespace

std::string& js_integer(std::string& out, double x) {
  char text[24];
  char* end = text + sizeof text;
  char* p = end;
  const bool negative = x < 0;
  auto n = static_cast<std::uint64_t>(negative ? -x : x);
  do {
    *--p = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  if (negative) *--p = '-';
  return out.append(p, static_cast<std::size_t>(end - p));
}

std::string& js_precision(std::string& out, double x, int digits) {
  if (std::isnan(x)) return out += "NaN";
  if (std::isinf(x)) return out += x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return out += '0';
  Digits r = round_to(std::fabs(x), digits);
  if (x < 0) out += '-';
  if (!as_number(r)) return out += "Infinity";
  // Number::toString: k digits, the point after n of them.
  const int k = r.count, n = r.exponent + 1;
  if (k <= n && n <= 21) {
    out.append(r.d, static_cast<std::size_t>(k));
    out.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out.append(r.d, static_cast<std::size_t>(n));
    out += '.';
    out.append(r.d + n, static_cast<std::size_t>(k - n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-n), '0');
    out.append(r.d, static_cast<std::size_t>(k));
  } else {
    out += r.d[0];
    if (k > 1) {
      out += '.';
      out.append(r.d + 1, static_cast<std::size_t>(k - 1));
    }
    append_exponent(out, n - 1);
  }
  return out;
}

std::string& js_exponential(std::string& out, double x, int digits) {
  if (std::isnan(x)) return out += "NaN";
  if (std::isinf(x)) return out += x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return out += "0e+0";
  Digits r = round_to(std::fabs(x), digits);
  if (x < 0) out += '-';
  if (!as_number(r)) return out += "Infinity";
  out += r.d[0];
  if (r.count > 1) {
    out += '.';
    out.append(r.d + 1, static_cast<std::size_t>(r.count - 1));
  }
  append_exponent(out, r.exponent);
  return out;
}

std::string typed_value(double value) {
  if (std::isinf(value)) return value > 0 ? "infinity" : "-infinity";
  return format_number(value);
}

Result<std::int64_t> positive_integer(std::string_view name, double value) {
  if (!std::isfinite(value) || value <= 0 || std::floor(value) != value) {
    return Result<std::int64_t>::failure_for(
        std::string(name),
        std::string(name) + " must be a positive integer, got " + typed_value(value));
  }
  if (value > kMaxExactInteger) {
    return Result<std::int64_t>::failure_for(
        std::string(name), std::string(name) + " must be at most 2^53 = 9007199254740992, got " +
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
