// The small values the bindings hand to JS as JSON text (report/values.h and the kernel variants
// of report/measurements.h), read back with the core's own reader.
#include "report/values.h"

#include <string>
#include <vector>

#include "catch.hpp"
#include "common/json_reader.h"
#include "hlo/emit.h"
#include "report/measurements.h"

using namespace rl;

namespace {
Json parsed(const std::string& text) {
  auto j = parse_json(text);
  REQUIRE(j);
  return j.value();
}
}  // namespace

TEST_CASE("a contraction as JSON: counts as numbers and as exact decimal text",
          "[report][values]") {
  CHECK(report::contraction_json(model::contract(32, 16, 8, 4).value()) ==
        "{\"m\":32,\"k\":16,\"n\":8,\"itemsize\":4,\"flops\":8192,\"flops_exact\":\"8192\","
        "\"minimum_bytes\":3584,\"minimum_bytes_exact\":\"3584\",\"intensity\":" +
            [] {
              JsonWriter j;
              j.value(8192.0 / 3584);
              return j.text();
            }() +
            ",\"intensity_fraction\":\"16/7\"}");
  // Past 2^53 the number rounds, the text stays exact.
  const auto big = model::contract(1 << 30, 1 << 30, 1 << 30, 4).value();
  const Json j = parsed(report::contraction_json(big));
  CHECK(j.find("flops_exact")->string == "2475880078570760549798248448");  // 2·2^90 = 2^91
  CHECK(j.find("flops")->number == 2475880078570760549798248448.0);
}

TEST_CASE("a verdict as JSON keeps its feedback's text", "[report][values]") {
  const Json j = parsed(report::verdict_json({false, "say \"16/7\"\nper byte", "other"}));
  CHECK_FALSE(j.find("correct")->boolean);
  CHECK(j.find("feedback")->string == "say \"16/7\"\nper byte");
  CHECK(j.members.size() == 2);
}

TEST_CASE("the catalogues as JSON: example modules, exercise families, kernel variants",
          "[report][values]") {
  const Json examples = parsed(report::example_modules_json());
  const auto expected = hlo::examples();
  REQUIRE(examples.items.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(examples.items[i].find("name")->string == expected[i].name);
    CHECK(examples.items[i].find("title")->string == expected[i].title);
    CHECK(examples.items[i].find("text")->string == expected[i].text);
  }
  const Json families = parsed(report::exercise_families_json());
  REQUIRE(families.items.size() == exercises::family_list().size());
  CHECK(families.items[0].find("id")->string == exercises::family_list()[0].id);
  CHECK(families.items[0].find("label")->string == exercises::family_list()[0].label);
  const Json variants = parsed(report::kernel_variants_json());
  REQUIRE(variants.items.size() == kernels::matmul_variants().size());
  int defaults = 0;
  for (const Json& v : variants.items) {
    if (v.find("default")->boolean) {
      ++defaults;
      CHECK(v.find("name")->string == kernels::best_matmul(true).name);
    }
  }
  CHECK(defaults == 1);
}
