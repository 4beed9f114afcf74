#include <cmath>
#include <limits>

#include "catch.hpp"
#include "count_printing.h"
#include "common/numbers.h"

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
