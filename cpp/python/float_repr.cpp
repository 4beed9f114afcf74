// Shortest round-trip digits by trying 1..17 significant digits (printf's correctly rounded %e,
// read back with strtod): the first that reads back to x is the shortest, and among strings of
// that length printf's is the nearest, as Gay's mode 0 gives.
#include "python/float_repr.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rl::python {

namespace {

template <class F>
std::string digits_of(double x, int* point, F reads_back) {
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    if (!reads_back(std::strtod(buf, nullptr)) && p < 17) continue;
    // buf: "d.ddde±XX" (x > 0)
    std::string d;
    const char* c = buf;
    for (; *c && *c != 'e'; ++c)
      if (*c >= '0' && *c <= '9') d += *c;
    const int e = std::atoi(c + 1);
    while (d.size() > 1 && d.back() == '0') d.pop_back();
    *point = e + 1;
    return d;
  }
  *point = 1;
  return "0";
}

std::string layout(const std::string& sign, const std::string& d, int point) {
  std::string out = sign;
  if (point > -4 && point <= 16) {
    if (point <= 0) {
      out += "0." + std::string(static_cast<std::size_t>(-point), '0') + d;
    } else if (static_cast<std::size_t>(point) >= d.size()) {
      out += d + std::string(static_cast<std::size_t>(point) - d.size(), '0') + ".0";
    } else {
      out += d.substr(0, static_cast<std::size_t>(point)) + "." +
             d.substr(static_cast<std::size_t>(point));
    }
    return out;
  }
  out += d.substr(0, 1);
  if (d.size() > 1) out += "." + d.substr(1);
  const int e = point - 1;
  char buf[16];
  std::snprintf(buf, sizeof buf, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
  return out + buf;
}

}  // namespace

std::string shortest_digits(double x, int* point) {
  x = std::fabs(x);
  return digits_of(x, point, [x](double y) { return y == x; });
}

std::string shortest_digits_f32(float x, int* point) {
  const float a = std::fabs(x);
  return digits_of(static_cast<double>(a), point,
                   [a](double y) { return static_cast<float>(y) == a; });
}

std::string float_repr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(x) ? "-" : "";
  if (x == 0) return sign + "0.0";
  int point = 0;
  const std::string d = shortest_digits(x, &point);
  return layout(sign, d, point);
}

std::string float32_repr(float x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(x) ? "-" : "";
  if (x == 0) return sign + "0.0";
  int point = 0;
  const std::string d = shortest_digits_f32(x, &point);
  return layout(sign, d, point);
}

}  // namespace rl::python
