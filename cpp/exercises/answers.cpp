#include "exercises/answers.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/numbers.h"

namespace rl::exercises {

namespace {

std::string lower_trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  std::string out;
  for (std::size_t i = a; i < b; ++i) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    if (c != ' ') out += c;  // "GFLOP / s" → "gflop/s"
  }
  return out;
}

struct UnitInfo {
  const char* name;
  Dimension dimension;
  double scale;
};

// Units people write, lower-cased without spaces.
const UnitInfo kUnits[] = {
    {"", Dimension::none, 1},
    {"b", Dimension::byte, 1},
    {"byte", Dimension::byte, 1},
    {"bytes", Dimension::byte, 1},
    {"kb", Dimension::byte, 1e3},
    {"kib", Dimension::byte, 1024},
    {"mb", Dimension::byte, 1e6},
    {"mib", Dimension::byte, 1048576},
    {"gb", Dimension::byte, 1e9},
    {"gib", Dimension::byte, 1073741824.0},
    {"flop", Dimension::flop, 1},
    {"flops", Dimension::flop_or_rate, 1},
    {"kflop", Dimension::flop, 1e3},
    {"mflop", Dimension::flop, 1e6},
    {"gflop", Dimension::flop, 1e9},
    {"tflop", Dimension::flop, 1e12},
    {"mflops", Dimension::flop_or_rate, 1e6},
    {"gflops", Dimension::flop_or_rate, 1e9},
    {"tflops", Dimension::flop_or_rate, 1e12},
    {"flop/s", Dimension::flop_rate, 1},
    {"flops/s", Dimension::flop_rate, 1},
    {"mflop/s", Dimension::flop_rate, 1e6},
    {"gflop/s", Dimension::flop_rate, 1e9},
    {"tflop/s", Dimension::flop_rate, 1e12},
    {"pflop/s", Dimension::flop_rate, 1e15},
    {"b/s", Dimension::byte_rate, 1},
    {"gb/s", Dimension::byte_rate, 1e9},
    {"tb/s", Dimension::byte_rate, 1e12},
    {"flop/byte", Dimension::intensity, 1},
    {"flops/byte", Dimension::intensity, 1},
    {"flop/b", Dimension::intensity, 1},
    {"flops/b", Dimension::intensity, 1},
    {"op/byte", Dimension::intensity, 1},
    {"ops/byte", Dimension::intensity, 1},
};

const char* dimension_name(Dimension d) {
  switch (d) {
    case Dimension::none:
      return "a number";
    case Dimension::flop:
      return "a flop count";
    case Dimension::byte:
      return "bytes";
    case Dimension::flop_rate:
      return "a rate in FLOP/s";
    case Dimension::byte_rate:
      return "a bandwidth";
    case Dimension::intensity:
      return "flops per byte";
    case Dimension::flop_or_rate:
      return "flops";
  }
  return "?";
}

}  // namespace

Result<Quantity> parse_quantity(std::string_view text) {
  using R = Result<Quantity>;
  const std::string s = lower_trim(text);
  if (s.empty()) return R::failure("the answer must be a number, got nothing");
  // The number: digits with optional thousands groups, a decimal part, an exponent, or a/b.
  std::size_t i = 0;
  std::string digits;
  auto take_digits = [&]() {
    std::size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i++];
    return i - start;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) digits += s[i++];
  std::size_t lead = take_digits();
  // Thousands groups: "27,648" or "1,234,567" — exactly three digits after each comma.
  while (i < s.size() && s[i] == ',') {
    std::size_t j = i + 1, n = 0;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j, ++n;
    if (n != 3 || lead == 0 || lead > 3) {
      return R::failure(
          "the answer \"" + std::string(text) +
          "\" has a comma that is not a thousands separator; write decimals with a dot");
    }
    digits.append(s, i + 1, 3);
    i = j;
  }
  if (i < s.size() && s[i] == '.') {
    digits += s[i++];
    take_digits();
  }
  if (digits.empty() || digits == "-" || digits == "+" || digits == ".") {
    return R::failure("the answer must start with a number, got \"" + std::string(text) + "\"");
  }
  if (i < s.size() && s[i] == 'e' && i + 1 < s.size() &&
      (std::isdigit(static_cast<unsigned char>(s[i + 1])) ||
       ((s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < s.size() &&
        std::isdigit(static_cast<unsigned char>(s[i + 2]))))) {
    digits += s[i++];
    if (s[i] == '-' || s[i] == '+') digits += s[i++];
    take_digits();
  }
  double value = std::strtod(digits.c_str(), nullptr);
  // A fraction: "24/7" (the denominator a plain number, not a unit such as flop/s).
  if (i < s.size() && s[i] == '/' && i + 1 < s.size() &&
      std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
    ++i;
    std::string den;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.'))
      den += s[i++];
    const double d = std::strtod(den.c_str(), nullptr);
    if (d == 0) return R::failure("the answer \"" + std::string(text) + "\" divides by zero");
    value /= d;
  }
  if (!std::isfinite(value))
    return R::failure("the answer must be a finite number, got \"" + std::string(text) + "\"");
  const std::string unit = s.substr(i);
  for (const auto& u : kUnits) {
    if (unit == u.name) {
      std::string typed(text);
      return R::success({value * u.scale, u.dimension, unit});
    }
  }
  return R::failure("unknown unit \"" + unit + "\" in \"" + std::string(text) +
                    "\": use e.g. flops, bytes, KiB, flops/byte, GFLOP/s, GB/s, or none");
}

Result<double> in_unit(const Quantity& q, const std::string& question_unit) {
  using R = Result<double>;
  Dimension want = Dimension::none;
  double scale = 1;
  if (question_unit == "flops")
    want = Dimension::flop;
  else if (question_unit == "bytes")
    want = Dimension::byte;
  else if (question_unit == "flops/byte")
    want = Dimension::intensity;
  else if (question_unit == "GFLOP/s")
    want = Dimension::flop_rate, scale = 1e9;
  else if (question_unit == "GB/s")
    want = Dimension::byte_rate, scale = 1e9;
  if (q.dimension == Dimension::none)
    return R::success(q.value);  // a bare number: the question's unit
  Dimension got = q.dimension;
  if (got == Dimension::flop_or_rate)
    got = want == Dimension::flop_rate ? Dimension::flop_rate : Dimension::flop;
  if (got != want) {
    return R::failure("the unit \"" + q.unit + "\" is " + dimension_name(got) +
                      "; this answer is " +
                      (want == Dimension::none ? std::string("a plain number") : question_unit));
  }
  return R::success(q.value / scale);
}

}  // namespace rl::exercises
