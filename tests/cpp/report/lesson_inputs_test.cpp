// What the lesson's page reads before and beside the report: the seed's values as lessonDefaults
// hands them to JS (report::defaults_json), and the rule on a measured core count.
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/json_reader.h"
#include "report/report.h"

using namespace rl;

TEST_CASE("the seed's defaults as JSON: the lesson's values, element types and usual dtypes",
          "[report][defaults]") {
  auto j = parse_json(report::defaults_json());
  REQUIRE(j);
  std::vector<std::string> keys;
  for (const auto& m : j->members) keys.push_back(m.first);
  CHECK(keys == std::vector<std::string>{"m", "k", "n", "itemsize", "peak", "bandwidth",
                                         "traffic_factor", "sizes", "exercise", "max_budget",
                                         "dtypes", "dtype_of_itemsize"});
  CHECK(j->find("m")->number == 32);
  CHECK(j->find("k")->number == 16);
  CHECK(j->find("n")->number == 8);
  CHECK(j->find("itemsize")->number == 4);
  CHECK(j->find("peak")->number == 100);
  CHECK(j->find("bandwidth")->number == 20);
  CHECK(j->find("traffic_factor")->number == 2);
  std::vector<double> sizes;
  for (const auto& x : j->find("sizes")->items) sizes.push_back(x.number);
  CHECK(sizes == std::vector<double>{8, 16, 32, 64, 128});
  const Json& exercise = *j->find("exercise");
  CHECK(exercise.find("a")->items.at(0).number == 48);
  CHECK(exercise.find("a")->items.at(1).number == 24);
  CHECK(exercise.find("b")->items.at(0).number == 24);
  CHECK(exercise.find("b")->items.at(1).number == 12);
  CHECK(j->find("max_budget")->number == 1e9);
  const Json& dtypes = *j->find("dtypes");
  REQUIRE(dtypes.members.size() == 4);
  CHECK(dtypes.members[0].first == "f32");
  CHECK(dtypes.find("f32")->number == 4);
  CHECK(dtypes.find("bf16")->number == 2);
  CHECK(dtypes.find("f16")->number == 2);
  CHECK(dtypes.find("f64")->number == 8);
  const Json& usual = *j->find("dtype_of_itemsize");
  REQUIRE(usual.members.size() == 3);
  CHECK(usual.find("2")->string == "bf16");
  CHECK(usual.find("4")->string == "f32");
  CHECK(usual.find("8")->string == "f64");
}

TEST_CASE("a measured core count is an integer from 1 to 256, named as the caller names it",
          "[report][defaults]") {
  CHECK(report::core_count("cores", 1).value() == 1);
  CHECK(report::core_count("cores", 256).value() == 256);
  CHECK(report::core_count("measured.kernels[0].cores", 0).error() ==
        "measured.kernels[0].cores must be an integer from 1 to 256, got 0");
  CHECK(report::core_count("cores", 2.5).error() ==
        "cores must be an integer from 1 to 256, got 2.5");
  CHECK(report::core_count("cores", 257).error() ==
        "cores must be an integer from 1 to 256, got 257");
}

TEST_CASE("the lesson's number inputs by name, and a name that is none of the lesson's inputs",
          "[report][defaults]") {
  auto m = report::number_input("m");
  REQUIRE(m);
  CHECK(m->field == &report::Params::m);
  CHECK(std::string(m->shown) == "m");
  auto factor = report::number_input("traffic_factor");
  REQUIRE(factor);
  CHECK(factor->field == &report::Params::traffic_factor);
  CHECK(std::string(factor->shown) == "traffic factor");
  CHECK(report::number_input("mm").error() ==
        "unknown lesson input \"mm\": one of m, k, n, dtype, itemsize, peak, bandwidth, "
        "traffic_factor, sizes");
}
