// The StableHLO front door: the textual forms real tools print, into the one IR.
#include "hlo/parse.h"

#include "catch.hpp"
#include "corpus.h"
#include "hlo/test_util.h"

using namespace rl::hlo;
using rl::testing::attr_text;
using rl::testing::value_names;

// Every corpus file parsing (and verifying and costing) is tested in stablehlo_corpus_test.cpp
// (StableHLO) and hlo_corpus_test.cpp (HLO).

namespace {
const Op& op_at(const Module& m, std::size_t fn, std::size_t i) {
  return m.functions.at(fn).body.blocks.at(0).ops.at(i);
}
}  // namespace

TEST_CASE("generic ops, properties, regions, multi-results and locations parse into one IR",
          "[hlo][parse]") {
  const std::string text =
      "// RUN: stablehlo-opt %s\n"
      "#loc1 = loc(\"x.py\":1:2)\n"
      "module @m attributes {mhlo.num_replicas = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<2x3xf32> loc(#loc1), %arg1: tensor<?x4xbf16>) -> "
      "(tensor<3xf32>, tensor<2xi32>) {\n"
      "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "    %0:2 = \"stablehlo.reduce\"(%arg0, %cst) <{dimensions = array<i64: 0>}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "      %s = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "      \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
      "    }) : (tensor<2x3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>) loc(#loc1)\n"
      "    %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : "
      "(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
      "    %2 = stablehlo.convert %1 : (tensor<2xf32>) -> tensor<2xi32>\n"
      "    return %0#1, %2 : tensor<3xf32>, tensor<2xi32>\n"
      "  }\n"
      "}\n"
      "// -----\n"
      "func.func @g(%t: tuple<tensor<f32>, !stablehlo.token>, %c: tensor<2xcomplex<f32>>, %q: "
      "tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) {\n"
      "  return\n"
      "}\n";
  auto r = parse_stablehlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->size() == 2);
  const Module& m = r->at(0);
  CHECK(m.name == "m");
  const Function& f = m.functions.at(0);
  CHECK(f.is_entry);
  const Type& arg1 = m.value_type(f, f.args.at(1));
  CHECK(arg1.dims == std::vector<std::int64_t>{-1, 4});
  CHECK(arg1.element_bytes == 2);
  CHECK(arg1.etype == ElementType::BF16);
  CHECK_FALSE(arg1.is_static());
  const Op& reduce = op_at(m, 0, 1);
  CHECK(reduce.name == "stablehlo.reduce");
  CHECK(reduce.code == OpCode::Reduce);
  CHECK(reduce.line == 6);
  CHECK(reduce.column == 5);
  CHECK(value_names(f, f.results(reduce)) == std::vector<std::string>{"%0#0", "%0#1"});
  REQUIRE(f.nested(reduce).size() == 1);
  const Region& body = f.nested(reduce)[0];
  CHECK(value_names(f, body.blocks[0].args) == std::vector<std::string>{"%a", "%b"});
  CHECK(body.blocks[0].ops.size() == 2);
  CHECK(attr_text(f, reduce, "dimensions") == "array<i64: 0>");
  const Op& pretty = op_at(m, 0, 2);
  CHECK(value_names(f, f.operands(pretty)) == std::vector<std::string>{"%arg0", "%cst"});
  CHECK(attr_text(f, pretty, "applies") == "stablehlo.add");
  CHECK(attr_text(f, pretty, "dimensions") == "[1]");
  const Op& ret = op_at(m, 0, 4);
  CHECK(ret.code == OpCode::FuncReturn);
  CHECK(value_names(f, f.operands(ret)) == std::vector<std::string>{"%0#1", "%2"});
  CHECK(m.value_type(f, f.operands(ret)[0]).text ==
        "tensor<3xf32>");  // result 1 of the generic reduce
  CHECK(m.value_type(f, f.operands(ret)[1]).element == "i32");
  // The constant keeps its value; equal types are one interned type.
  CHECK(attr_text(f, op_at(m, 0, 0), "value") == "dense<0.000000e+00>");
  CHECK(f.values[f.operands(ret)[0]].type == f.values[f.results(reduce)[0]].type);
  const Module& m2 = r->at(1);
  const Function& g = m2.functions.at(0);
  const Type& t0 = m2.value_type(g, g.args[0]);
  CHECK(t0.kind == Type::Kind::Tuple);
  CHECK(t0.tuple.at(1).kind == Type::Kind::Token);
  CHECK(m2.value_type(g, g.args[1]).element_bytes == 8);  // complex<f32>: two f32
  CHECK(m2.value_type(g, g.args[1]).etype == ElementType::C64);
  CHECK(m2.value_type(g, g.args[2]).element_bytes == 1);  // i8 storage
}

TEST_CASE(
    "compare's direction and type are the same named fields in the pretty and the generic form",
    "[hlo][parse]") {
  const std::string text =
      "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xi1>) {\n"
      "  %0 = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<2xf32>, tensor<2xf32>) -> "
      "tensor<2xi1>\n"
      "  %1 = \"stablehlo.compare\"(%a, %b) {comparison_direction = "
      "#stablehlo<comparison_direction LT>, "
      "compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2xf32>, tensor<2xf32>) -> "
      "tensor<2xi1>\n"
      "  return %0, %1 : tensor<2xi1>, tensor<2xi1>\n"
      "}\n";
  auto r = parse_stablehlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Function& f = r->at(0).functions.at(0);
  for (std::size_t i = 0; i < 2; ++i) {
    const Op& c = f.body.blocks[0].ops[i];
    CHECK(c.code == OpCode::Compare);
    CHECK(attr_text(f, c, "comparison_direction") == "LT");
    CHECK(attr_text(f, c, "compare_type") == "FLOAT");
    CHECK(attr_text(f, c, "keywords") == "<absent>");
  }
}

TEST_CASE("CHLO's short signature names operand types before the arrow and result types after it",
          "[hlo][parse]") {
  const std::string text =
      "func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
      "  %0 = chlo.is_inf %a : tensor<2xf32> -> tensor<2xi1>\n"
      "  %1 = chlo.next_after %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>\n"
      "  return %0 : tensor<2xi1>\n"
      "}\n";
  auto r = parse_stablehlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Module& m = r->front();
  const Function& f = m.functions.at(0);
  const Op& is_inf = op_at(m, 0, 0);
  const Op& next = op_at(m, 0, 1);
  CHECK(m.value_type(f, f.results(is_inf)[0]).text == "tensor<2xi1>");
  REQUIRE(next.results.count == 1);
  CHECK(m.value_type(f, f.results(next)[0]).text == "tensor<2xf32>");
}

TEST_CASE("a region may reuse the names of a sibling region, and its names end with it",
          "[hlo][parse]") {
  const std::string text =
      "func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) "
      "-> tensor<f32>\n"
      "   reducer(%x: tensor<f32>, %y: tensor<f32>)  {\n"
      "    %s = stablehlo.add %x, %y : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }\n"
      "  %1 = stablehlo.reduce(%a init: %0) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) "
      "-> tensor<f32>\n"
      "   reducer(%x: tensor<f32>, %y: tensor<f32>)  {\n"
      "    %s = stablehlo.maximum %x, %y : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }\n"
      "  return %1 : tensor<f32>\n"
      "}\n";
  auto r = parse_stablehlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Function& f = r->at(0).functions.at(0);
  const Op& second = f.body.blocks[0].ops[1];
  CHECK(value_names(f, f.operands(second)) == std::vector<std::string>{"%a", "%0"});
  const Region& body = f.nested(second)[0];
  CHECK(f.values[f.operands(body.blocks[0].ops[0])[0]].name == "%x");
  CHECK(f.operands(body.blocks[0].ops[0])[0] ==
        body.blocks[0].args[0]);  // this region's %x, not the first's
  auto bad = parse_stablehlo(
      "func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) "
      "-> tensor<f32>\n"
      "   reducer(%x: tensor<f32>, %y: tensor<f32>)  {\n"
      "    %s = stablehlo.add %x, %y : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }\n"
      "  return %s : tensor<f32>\n"
      "}\n");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("7:3: error: use of an undefined value"));
}

TEST_CASE(
    "a variadic pretty reduce takes its inputs, then its inits, and its reducer's pairs (lhs, rhs) "
    "give the block lhs_0, lhs_1, then rhs_0, rhs_1",
    "[hlo][parse]") {
  const std::string text =
      "func.func @f(%a: tensor<4xf32>, %b: tensor<4xi32>, %z: tensor<f32>, %w: tensor<i32>) -> "
      "tensor<f32> {\n"
      "  %0:2 = stablehlo.reduce(%a init: %z), (%b init: %w) across dimensions = [0] : "
      "(tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
      "   reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<i32>, %s: tensor<i32>)  {\n"
      "    stablehlo.return %p, %r : tensor<f32>, tensor<i32>\n"
      "  }\n"
      "  return %0#0 : tensor<f32>\n"
      "}\n";
  auto r = parse_stablehlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Function& f = r->at(0).functions.at(0);
  const Region& body = f.nested(f.body.blocks[0].ops[0])[0];
  REQUIRE(body.blocks[0].args.size() == 4);
  CHECK(value_names(f, f.operands(f.body.blocks[0].ops[0])) ==
        std::vector<std::string>{"%a", "%b", "%z", "%w"});
  CHECK(value_names(f, body.blocks[0].args) == std::vector<std::string>{"%p", "%r", "%q", "%s"});
  CHECK(r->at(0).value_type(f, body.blocks[0].args[1]).element == "i32");
}

TEST_CASE("parse errors name the place, what was expected and what was found", "[hlo][parse]") {
  using Row = std::tuple<std::string, std::string>;
  auto [text, message] = GENERATE(table<std::string, std::string>({
      Row{"func.func @f(%a: tensor<2xf32>) {\n  %0 = stablehlo.add %a, %a : tensor<2xf32\n}\n",
          "3:1: error: bad tensor type \xE2\x80\x94 expected '>', got '}'"},
      Row{"module {\n  func.func @f() {\n",
          "3:1: error: unterminated region \xE2\x80\x94 expected '}', got end of input"},
      Row{"garbage\n",
          "1:1: error: unexpected text at the top level \xE2\x80\x94 expected 'module', "
          "'func.func' or "
          "'// -----', got 'garbage'"},
      Row{"func.func @f(%a tensor<2xf32>) {\n}\n",
          "1:17: error: bad function argument \xE2\x80\x94 expected ':' and a type after %a, got "
          "'tensor'"},
  }));
  auto r = parse_stablehlo(text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == message);
}

TEST_CASE("nesting deeper than 256 levels is refused, not a crash", "[hlo][parse]") {
  std::string deep_type = "func.func @f(%a: ";
  for (int i = 0; i < 300; ++i) deep_type += "tuple<";
  deep_type += "f32";
  for (int i = 0; i < 300; ++i) deep_type += ">";
  deep_type += ") {\n  return\n}\n";
  auto r1 = parse_stablehlo(deep_type);
  REQUIRE_FALSE(r1.ok());
  CHECK_THAT(r1.error(), Catch::Matchers::Contains("too deep"));
  std::string deep_region = "func.func @f(%p: tensor<i32>) {\n";
  for (int i = 0; i < 300; ++i) deep_region += "\"stablehlo.case\"(%p) ({\n";
  auto r2 = parse_stablehlo(deep_region);
  REQUIRE_FALSE(r2.ok());
  CHECK_THAT(r2.error(), Catch::Matchers::Contains("too deeply"));
}

TEST_CASE("every prefix of a real module gives a result or an error, never a crash",
          "[hlo][parse]") {
  const std::string text =
      "module @jit_f {\n"
      "  func.func public @main(%arg0: tensor<4x3xf32>) -> (tensor<3xf32> {jax.result_info = "
      "\"\"}) {\n"
      "    %cst = stablehlo.constant dense<\"0x0000803F\"> : tensor<f32>\n"
      "    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<4x3xf32>, "
      "tensor<f32>) -> tensor<3xf32>\n"
      "     reducer(%a: tensor<f32>, %b: tensor<f32>)  {\n"
      "      %1 = stablehlo.add %a, %b : tensor<f32>\n"
      "      stablehlo.return %1 : tensor<f32>\n"
      "    }\n"
      "    %2:2 = stablehlo.while(%i = %cst, %j = %0) : tensor<f32>, tensor<3xf32>\n"
      "     cond {\n"
      "      %c = stablehlo.compare  LT, %i, %i,  FLOAT : (tensor<f32>, tensor<f32>) -> "
      "tensor<i1>\n"
      "      stablehlo.return %c : tensor<i1>\n"
      "    } do {\n"
      "      stablehlo.return %i, %j : tensor<f32>, tensor<3xf32>\n"
      "    }\n"
      "    return %2#1 : tensor<3xf32>\n"
      "  }\n"
      "}\n";
  REQUIRE(parse_stablehlo(text).ok());
  int errors = 0;
  for (std::size_t n = 0; n < text.size(); ++n) {
    auto r = parse_stablehlo(text.substr(0, n));
    if (!r.ok()) ++errors;
  }
  CHECK(errors > static_cast<int>(text.size()) / 2);
}

TEST_CASE("HLO text is detected by its HloModule header or its ENTRY computation", "[hlo][parse]") {
  const std::string text =
      "// RUN: hlo-opt %s\nHloModule m\n\nENTRY main {\n  ROOT p = f32[2] parameter(0)\n}\n";
  CHECK(detect_dialect(text) == "hlo");
  CHECK(detect_dialect("ENTRY main {\n  ROOT p = f32[] parameter(0)\n}\n") == "hlo");
  CHECK(detect_dialect("module {\n}\n") == "stablehlo");
  auto r = parse(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->size() == 1);
  CHECK(r->front().dialect == "hlo");
  CHECK(r->front().name == "m");
}

TEST_CASE("a signature of one operand type and an arrow gives the result types (chlo.top_k)",
          "[hlo][parse]") {
  auto r = parse_stablehlo(
      "func.func @f(%x: tensor<5x3xf32>) -> tensor<5x2xi32> {\n"
      "  %values, %indices = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, "
      "tensor<5x2xi32>)\n"
      "  return %indices : tensor<5x2xi32>\n"
      "}\n");
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Module& m = r->at(0);
  const Function& f = m.functions.at(0);
  const Op& top = f.body.blocks[0].ops[0];
  REQUIRE(top.results.count == 2);
  CHECK(m.value_type(f, f.results(top)[0]).text == "tensor<5x2xf32>");
  CHECK(m.value_type(f, f.results(top)[1]).text == "tensor<5x2xi32>");
  CHECK(attr_text(f, top, "k") == "2");
}
