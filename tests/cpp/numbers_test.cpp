#include "common/numbers.h"

#include <cmath>
#include <limits>

#include "catch.hpp"
#include "count_printing.h"

using namespace rl;

TEST_CASE("format_number prints the shortest text that reads back the same", "[numbers]") {
  CHECK(format_number(0) == "0");
  CHECK(format_number(-1) == "-1");
  CHECK(format_number(2.5) == "2.5");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(16.0 / 7) == "2.2857142857142856");
  CHECK(format_number(-100) == "-100");
  CHECK(format_number(100e9) == "100000000000");
  CHECK(format_number(9007199254740992.0) == "9007199254740992");
  CHECK(format_number(1e300) == "1e+300");
  CHECK(format_number(1e-7) == "1e-07");
  CHECK(format_number(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(format_number(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("counts print exactly past 64 bits", "[numbers]") {
  CHECK(to_decimal(0) == "0");
  CHECK(to_decimal(Count(1) << 64) == "18446744073709551616");
  CHECK(to_decimal(~Count(0)) == "340282366920938463463374607431768211455");
}

TEST_CASE("checked arithmetic reports overflow instead of wrapping", "[numbers]") {
  Count out;
  CHECK(checked_mul(Count(1) << 63, 2, &out));
  CHECK(out == Count(1) << 64);
  CHECK_FALSE(checked_mul(Count(1) << 64, Count(1) << 64, &out));
  CHECK_FALSE(checked_add(~Count(0), 1, &out));
}

TEST_CASE("reduced_fraction gives lowest terms", "[numbers]") {
  CHECK(reduced_fraction(8192, 3584) == "16/7");
  CHECK(reduced_fraction(27648, 8064) == "24/7");
  CHECK(reduced_fraction(1024, 768) == "4/3");
  CHECK(reduced_fraction(6, 3) == "2");
}

TEST_CASE("js_precision and js_exponential write what JavaScript writes", "[numbers]") {
  // Expected: Node 20's String(Number(x.toPrecision(4))) and
  // Number(x.toPrecision(4)).toExponential().
  struct Case {
    double x;
    const char* precision;
    const char* exponential;
  };
  const Case cases[] = {
      {1.0625, "1.063", "1.063e+0"},  // an exact tie: away from zero (printf's %.3e gives 1.062)
      {-1.0625, "-1.063", "-1.063e+0"},
      {0.125, "0.125", "1.25e-1"},
      {12345.5, "12350", "1.235e+4"},
      {123456789012.5, "123500000000", "1.235e+11"},
      {1.0 / 12, "0.08333", "8.333e-2"},
      {2.0 / 3, "0.6667", "6.667e-1"},
      {1e-7, "1e-7", "1e-7"},
      {1.2345e-7, "1.235e-7", "1.235e-7"},
      {0.000001234, "0.000001234", "1.234e-6"},
      {9.9995, "9.999", "9.999e+0"},  // the double lies below the tie
      {1e21, "1e+21", "1e+21"},
      {1.5e21, "1.5e+21", "1.5e+21"},
      {5e-324, "5e-324", "5e-324"},  // 4.941e-324 reads back as the smallest subnormal
      {1.7976931348623157e308, "Infinity", "Infinity"},  // 1.798e+308 is past the largest double
      {1.7975e308, "1.797e+308", "1.797e+308"},
      {0.5, "0.5", "5e-1"},
      {99995, "100000", "1e+5"},
      {1e15, "1000000000000000", "1e+15"},
      {2.135e15, "2135000000000000", "2.135e+15"},
      {-0.0, "0", "0e+0"},
      {std::numeric_limits<double>::quiet_NaN(), "NaN", "NaN"},
      {-std::numeric_limits<double>::infinity(), "-Infinity", "-Infinity"},
  };
  for (const auto& c : cases) {
    std::string p, e;
    CAPTURE(c.x);
    CHECK(js_precision(p, c.x, 4) == c.precision);
    CHECK(js_exponential(e, c.x, 4) == c.exponential);
  }
  std::string s = "x=";
  CHECK(js_integer(s, -120) == "x=-120");
  s.clear();
  CHECK(js_integer(s, -0.0) == "0");
}
