// Arg: an argument as the caller handed it, and the rules every binding reads numbers, strings
// and lists by, with the messages the page shows (the input, the rule and the value).
#include "common/arg.h"

#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"

using namespace rl;

TEST_CASE("an argument's type is named as typeof names it, and more closely where that helps",
          "[arg]") {
  CHECK(Arg().type_of() == "undefined");
  CHECK(Arg::null().type_of() == "object");
  CHECK(Arg::null().type_name() == "null");
  CHECK(Arg::array({}).type_of() == "object");
  CHECK(Arg::array({}).type_name() == "an array");
  CHECK(Arg::object({}).type_name() == "Object");
  CHECK(Arg::of(true).type_of() == "boolean");
  CHECK(Arg::of("x").type_of() == "string");
  Arg floats;
  floats.type = Arg::Type::floats;
  floats.class_name = "Float32Array";
  CHECK(floats.type_of() == "object");
  CHECK(floats.type_name() == "Float32Array");
  Arg bare = Arg::object({});
  bare.class_name = "";  // Object.create(null): no constructor
  CHECK(bare.type_name() == "object");
  Arg function;
  function.type = Arg::Type::function;
  CHECK(function.type_of() == "function");
}

TEST_CASE("an object's member is found by key, the last of repeated keys, else undefined",
          "[arg]") {
  const Arg o = Arg::object({{"m", Arg::of(1.0)}, {"m", Arg::of(2.0)}, {"k", Arg::of("x")}});
  CHECK(o["m"].number == 2);
  CHECK(o["k"].string == "x");
  CHECK(o["n"].is_undefined());
  CHECK(Arg::of(3.0)["m"].is_undefined());
}

TEST_CASE("number_of refuses what is not a number by name, quoting a string", "[arg]") {
  CHECK(number_of("m", Arg::of(32.0)).value() == 32);
  CHECK(number_of("m", Arg::of("32")).error() == "m must be a number, got the string \"32\"");
  CHECK(number_of("k", Arg::null()).error() == "k must be a number, got object");
  CHECK(number_of("n", Arg()).error() == "n must be a number, got undefined");
}

TEST_CASE("numbers_of and strings_of name the refused item by its index", "[arg]") {
  auto xs = numbers_of("sizes", Arg::array({Arg::of(8.0), Arg::of(16.0)}));
  REQUIRE(xs);
  CHECK(xs.value() == std::vector<double>{8, 16});
  CHECK(numbers_of("sizes", Arg::array({Arg::of(8.0), Arg::of(true)})).error() ==
        "sizes[1] must be a number, got boolean");
  CHECK(numbers_of("sizes", Arg::of(8.0)).error() ==
        "sizes must be an array of numbers, got number");
  CHECK(strings_of("families", Arg()).value().empty());
  CHECK(strings_of("families", Arg::null()).value().empty());
  CHECK(strings_of("families", Arg::array({Arg::of("a"), Arg::of(1.0)})).error() ==
        "families[1] must be a string, got number");
  CHECK(strings_of("families", Arg::of("a")).error() ==
        "families must be an array of strings, got string");
  CHECK(string_of("dtype", Arg::of(4.0)).error() == "dtype must be a string, got number");
}

TEST_CASE("integer_of keeps integers in range and says the range it wants", "[arg]") {
  CHECK(integer_of("count", Arg::of(100.0), 1, 100).value() == 100);
  CHECK(integer_of("count", Arg::of(0.0), 1, 100).error() ==
        "count must be an integer from 1 to 100, got 0");
  CHECK(integer_of("count", Arg::of(2.5), 1, 100).error() ==
        "count must be an integer from 1 to 100, got 2.5");
  CHECK(integer_of("count", Arg::of(std::nan("")), 1, 100).error() ==
        "count must be an integer from 1 to 100, got NaN");
  CHECK(integer_of("seed", Arg::of(-1.0), 0, 4294967295.0, "0 to 2^32 - 1").error() ==
        "seed must be an integer from 0 to 2^32 - 1, got -1");
  CHECK(integer_of("count", Arg::of("3"), 1, 100).error() ==
        "count must be a number, got the string \"3\"");
}
