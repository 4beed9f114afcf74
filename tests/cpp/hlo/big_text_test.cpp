// Big programs: a text past the size limit is refused with its size and the limit; a dense
// module of several megabytes analyses with every op a row and exact totals; a program past the
// memory the core may use is refused with an error (never an abort) and the core goes on; the
// symbol tables, the sharing of equal decoded attributes, and the rows of regions a rule does
// not walk.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/memory.h"
#include "hlo/lower.h"
#include "hlo/name_map.h"
#include "hlo/parse.h"
#include "hlo/report.h"
#include "hlo/test_util.h"

using namespace rl::hlo;
using Catch::Matchers::Contains;

namespace {

// A dense module of about `bytes` bytes, one op a line (add, tanh, multiply, dot on
// f32[128,128], in turn), as scripts/lib/dense_modules.mjs writes it. `ops` gets the count of
// each (add, tanh, multiply, dot).
std::string dense_hlo(std::size_t bytes, std::size_t ops[4]) {
  std::string t =
      "HloModule dense\n\nENTRY main {\n  p0 = f32[128,128]{1,0} parameter(0)\n  p1 = "
      "f32[128,128]{1,0} parameter(1)\n";
  std::string prev = "p0";
  for (std::size_t i = 1; t.size() < bytes; ++i) {
    const std::string v = "v" + std::to_string(i);
    switch (i % 4) {
      case 1:
        t += "  " + v + " = f32[128,128]{1,0} add(" + prev + ", p1)\n";
        break;
      case 2:
        t += "  " + v + " = f32[128,128]{1,0} tanh(" + prev + ")\n";
        break;
      case 3:
        t += "  " + v + " = f32[128,128]{1,0} multiply(" + prev + ", p1)\n";
        break;
      default:
        t += "  " + v + " = f32[128,128]{1,0} dot(" + prev +
             ", p0), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n";
    }
    ++ops[(i - 1) % 4];
    prev = v;
  }
  return t + "  ROOT out = f32[128,128]{1,0} negate(" + prev + ")\n}\n";
}

std::string dense_stablehlo(std::size_t bytes, std::size_t ops[4]) {
  const std::string ty = "tensor<128x128xf32>";
  std::string t = "module @dense {\n  func.func public @main(%arg0: " + ty + ", %arg1: " + ty +
                  ") -> " + ty + " {\n";
  std::string prev = "%arg0";
  std::size_t i = 0;
  for (; t.size() < bytes; ++i) {
    const std::string v = "%" + std::to_string(i);
    switch (i % 4) {
      case 0:
        t += "    " + v + " = stablehlo.add " + prev + ", %arg1 : " + ty + "\n";
        break;
      case 1:
        t += "    " + v + " = stablehlo.tanh " + prev + " : " + ty + "\n";
        break;
      case 2:
        t += "    " + v + " = stablehlo.multiply " + prev + ", %arg1 : " + ty + "\n";
        break;
      default:
        t += "    " + v + " = stablehlo.dot_general " + prev +
             ", %arg0, contracting_dims = [1] x [0] : (" + ty + ", " + ty + ") -> " + ty + "\n";
    }
    ++ops[i % 4];
    prev = v;
  }
  return t + "    return " + prev + " : " + ty + "\n  }\n}\n";
}

// Counts what a RowColumnSink receives.
struct CountingSink : RowColumnSink {
  std::vector<std::string> names;
  std::vector<std::size_t> sizes;
  void column(std::size_t, const char* name, const std::vector<double>& v) override {
    names.push_back(name), sizes.push_back(v.size());
  }
  void column(std::size_t, const char* name, const std::vector<std::int32_t>& v) override {
    names.push_back(name), sizes.push_back(v.size());
  }
};

// Restores the build's memory limit when a test is done with its own.
struct TestLimit {
  explicit TestLimit(std::size_t bytes) { rl::memory::set_limit_for_tests(bytes); }
  ~TestLimit() { rl::memory::set_limit_for_tests(0); }
};

constexpr double kElements = 128.0 * 128.0;
constexpr double kBytes = 4 * kElements;  // one f32[128,128]

}  // namespace

TEST_CASE("a text past kMaxTextBytes is refused with its size and the limit, before it is parsed",
          "[hlo][limits]") {
  auto r = analyze_text(std::string(kMaxTextBytes + 1, ' '));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error_info().input == "text");
  CHECK(r.error() == "the text is 256.0 MiB (" + std::to_string(kMaxTextBytes + 1) +
                         " bytes), more than the 256.0 MiB (" + std::to_string(kMaxTextBytes) +
                         " bytes) the core can analyse at once");
  CHECK_THAT(text_too_big(kMaxTextBytes + 7, true).message, Contains("the text is at least"));
}

TEST_CASE(
    "a dense module of several megabytes analyses in both dialects: every op a row, totals exact, "
    "the last line counted",
    "[hlo][big]") {
  for (const bool hlo : {true, false}) {
    std::size_t ops[4] = {0, 0, 0, 0};  // add, tanh, multiply, dot
    const std::string text = hlo ? dense_hlo(6'000'000, ops) : dense_stablehlo(6'000'000, ops);
    const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    INFO((hlo ? "hlo" : "stablehlo") << ", " << text.size() << " bytes");
    auto r = analyze_text(text);
    REQUIRE(r.ok());
    REQUIRE(r->modules.size() == 1);
    REQUIRE(r->modules[0].analysis.ok());
    const Analysis& a = r->modules[0].analysis.value();
    const std::size_t n = ops[0] + ops[1] + ops[2] + ops[3] + (hlo ? 1 : 0);  // HLO's ROOT negate
    REQUIRE(a.ops.size() == n);
    // flops: add, multiply (and negate) one per element; dot 2·128·128·128; tanh transcendental.
    const double flops =
        (ops[0] + ops[2] + (hlo ? 1 : 0)) * kElements + ops[3] * 2.0 * 128 * 128 * 128;
    CHECK(a.flops == flops);
    CHECK(a.transcendentals == ops[1] * kElements);
    // bytes: two operands and the output, one operand for tanh and negate.
    CHECK(a.bytes_accessed ==
          (ops[0] + ops[2] + ops[3]) * 3 * kBytes + (ops[1] + (hlo ? 1 : 0)) * 2 * kBytes);
    // The rows are in text order and carry their lines: the last row is HLO's ROOT (before its
    // closing '}') or StableHLO's last op (before return and two '}').
    CHECK(a.ops.front().line == (hlo ? 6 : 3));
    CHECK(static_cast<std::size_t>(a.ops.back().line) == lines - (hlo ? 1 : 3));
    CHECK(a.ops.back().column == (hlo ? 3 : 5));
    // The report: every number column of every row reaches the sink.
    CountingSink sink;
    auto json = to_json(std::move(r.value()), sink);
    REQUIRE(json.ok());
    CHECK_THAT(json.value(), Contains("\"count\":" + std::to_string(n)));
    CHECK(sink.names.size() == 17);  // 14 columns, the operand lists' values, starts and choice
    for (std::size_t k = 0; k < sink.names.size(); ++k) {
      INFO(sink.names[k]);
      // Two distinct operand lists, shared by the rows: {a, a} (binary ops) and {a} (tanh, negate).
      if (sink.names[k] == "operand_bytes")
        CHECK(sink.sizes[k] == 3);
      else if (sink.names[k] == "operand_bytes_start")
        CHECK(sink.sizes[k] == 3);
      else
        CHECK(sink.sizes[k] == n);
    }
  }
}

TEST_CASE(
    "a program past the memory the core may use is refused with an error, and the core goes on",
    "[hlo][limits]") {
  std::size_t ops[4] = {0, 0, 0, 0};
  const std::string text = dense_hlo(8'000'000, ops);
  {
    // Room for a few megabytes more than now: reading 8 MB of instructions needs more.
    TestLimit limit(rl::memory::in_use() + (std::size_t(4) << 20));
    auto r = analyze_text(text);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Contains("error: the program is too big for the core's memory"));
    CHECK(r.error_info().line > 5);
  }
  {
    // Parsed within the limit, then costing its ops needs more than is left.
    auto parsed = parse(text);
    REQUIRE(parsed.ok());
    TestLimit limit(rl::memory::in_use() + (std::size_t(1) << 20));
    auto a = analyze_module(parsed->front());
    REQUIRE_FALSE(a.ok());
    CHECK_THAT(a.error(), Contains("the module is too big for the core's memory: costing its"));
  }
  // The limit restored, the same text analyses.
  auto r = analyze_text(text);
  REQUIRE(r.ok());
  CHECK(r->modules[0].analysis.ok());
}

TEST_CASE("the symbol tables find, replace and forget names, numbered ones by their number",
          "[hlo][names]") {
  NameMap<std::uint32_t> map;
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back("name." + std::to_string(i));
  for (std::uint32_t i = 0; i < keys.size(); ++i) CHECK(map.insert(keys[i], i));
  CHECK_FALSE(map.insert(keys[7], 99));  // already there: kept
  CHECK(*map.find(keys[7]) == 7);
  // Erasing every other name keeps the rest findable (probe chains are repaired).
  for (std::size_t i = 0; i < keys.size(); i += 2) map.erase(keys[i]);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    INFO(keys[i]);
    if (i % 2)
      REQUIRE((map.find(keys[i]) && *map.find(keys[i]) == i));
    else
      REQUIRE(map.find(keys[i]) == nullptr);
  }
  CHECK(map.size() == keys.size() / 2);

  SymbolTable<std::uint32_t> sym;
  const std::vector<std::string> names = {"%1",  "%01",   "%0",          "%arg0",           "%cst",
                                          "v17", "add.3", "%4000000000", "fusion.123456789"};
  for (std::uint32_t i = 0; i < names.size(); ++i) CHECK(sym.insert(names[i], i));
  for (std::uint32_t i = 0; i < names.size(); ++i)
    CHECK(*sym.find(names[i]) == i);  // "%01" is not "%1"
  CHECK(sym.find("%2") == nullptr);
  CHECK(sym.find("v") == nullptr);
  bool had = false;
  sym.get_or_add("%1", &had) = 42;
  CHECK(had);
  CHECK(*sym.find("%1") == 42);
  sym.erase("%1");
  sym.erase("fusion.123456789");
  CHECK(sym.find("%1") == nullptr);
  CHECK(sym.find("fusion.123456789") == nullptr);
  CHECK(*sym.find("%01") == 1);
  CHECK(sym.size() == names.size() - 2);
  sym.clear();
  CHECK(sym.size() == 0);
  CHECK(sym.find("%0") == nullptr);
  CHECK(sym.insert("%0", 5));
  CHECK(*sym.find("%0") == 5);
}

TEST_CASE("ops whose attributes decode alike share one entry of the program's attributes",
          "[hlo][lower]") {
  auto parsed = parse(R"(HloModule m
ENTRY e {
  a = f32[4,4] parameter(0)
  s = f32[] parameter(1)
  d1 = f32[4,4] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = f32[4,4] dot(d1, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  b1 = f32[4] broadcast(s), dimensions={}
  b2 = f32[8] broadcast(s), dimensions={}
  t = f32[4,4] transpose(a), dimensions={1,0}
  ROOT r = f32[4,4] add(d2, t)
}
)");
  REQUIRE(parsed.ok());
  auto p = lower(parsed->front());
  REQUIRE(p.ok());
  const auto& instrs = p->functions[0].body.blocks[0].instrs;
  REQUIRE(instrs.size() == 8);
  // d1 and d2 are alike; b1 and b2 differ in shape but decode alike; the transpose is its own,
  // as is each parameter's number.
  CHECK(instrs[2].attrs == instrs[3].attrs);
  CHECK(instrs[4].attrs == instrs[5].attrs);
  CHECK(instrs[2].attrs != instrs[4].attrs);
  CHECK(instrs[0].attrs != instrs[1].attrs);
  CHECK(p->attrs.size() == 5);
  CHECK(p->attrs_of(instrs[3])->get<DotDims>().lhs_contracting == std::vector<std::int64_t>{1});
  CHECK(p->attrs_of(instrs[6])->get<DimsAttrs>().dims == std::vector<std::int64_t>{1, 0});
}

TEST_CASE(
    "an op whose rule does not look into its region leaves no rows for it, and the rows after it "
    "keep their places",
    "[hlo][cost]") {
  // The sort has a dynamic shape: it is unmodeled without its comparator being costed.
  const Analysis a = rl::testing::analyze_one(
      R"(func.func @main(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  %w = stablehlo.add %y, %y : tensor<4xf32>
  return %w : tensor<4xf32>
}
)");
  REQUIRE(a.ops.size() == 2);
  CHECK(a.ops[0].line == 2);
  CHECK_FALSE(a.ops[0].modeled);
  CHECK(a.ops[1].line == 7);
  CHECK(a.ops[1].flops == 4);
  CHECK(a.flops == 4);
}
