// The XLA HLO text front door: the grammar XLA prints, into the same IR as StableHLO.
#include <chrono>

#include "catch.hpp"
#include "hlo/cost.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"

using namespace rl::hlo;
using rl::testing::attr_text;
using rl::testing::find_op;
using rl::testing::value_names;

namespace {

// An optimized module as XLA prints it: %-names, a signature, typed operands, tiled layouts
// with memory spaces, a bounded dynamic dimension, /*index=N*/ comments, metadata,
// backend_config, sharding, literals with nested braces; then a second module after `// -----`.
const char* kPrinted =
    "// RUN: hlo-opt %s\n"
    "HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[8,128]{1,0:T(8,128)}, "
    "s32[<=10]{0})->(f32[8,128]{1,0}, s32[<=10]{0})}, replica_count=2\n"
    "\n"
    "%fused_computation (param_0.1: f32[8,128], param_1.2: bf16[8,128]) -> f32[8,128] {\n"
    "  %param_0.1 = f32[8,128]{1,0:T(8,128)} parameter(0)\n"
    "  %param_1.2 = bf16[8,128]{1,0:T(8,128)(2,1)S(1)} parameter(1)\n"
    "  %convert.3 = f32[8,128]{1,0} convert(bf16[8,128]{1,0:T(8,128)(2,1)S(1)} %param_1.2)\n"
    "  ROOT %add.4 = f32[8,128]{1,0} add(f32[8,128]{1,0} %param_0.1, f32[8,128]{1,0} %convert.3), "
    "metadata={op_name=\"jit(f)/add\" source_file=\"f.py\" source_line=3}\n"
    "}\n"
    "\n"
    "ENTRY %main.9 (Arg_0.1: f32[8,128], Arg_1.2: s32[<=10]) -> (f32[8,128], s32[<=10]) {\n"
    "  %Arg_0.1 = f32[8,128]{1,0:T(8,128)} parameter(0), sharding={replicated}\n"
    "  %Arg_1.2 = s32[<=10]{0} parameter(1)\n"
    "  %c = bf16[8,128]{1,0} constant({...})\n"
    "  %table = s32[2,2] constant({ {1, 2}, {3, 4} })\n"
    "  /* a block comment */\n"
    "  %fusion.5 = f32[8,128]{1,0} fusion(%Arg_0.1, %c), kind=kLoop, calls=%fused_computation, "
    "backend_config={\"outer_dimension_partitions\":[\"2\"]}\n"
    "  ROOT %tuple.8 = (f32[8,128]{1,0}, /*index=1*/s32[<=10]{0}) tuple(%fusion.5, %Arg_1.2)\n"
    "}\n"
    "\n"
    "// -----\n"
    "\n"
    "HloModule second\n"
    "\n"
    "ENTRY main {\n"
    "  p = (f32[2], (s4[3], u64[], pred[1]), token[], f8e4m3fn[4], c64[2], f16[], bf16[], f64[], "
    "c128[]) parameter(0)\n"
    "  ROOT g = f32[2] get-tuple-element(p), index=0\n"
    "}\n";

}  // namespace

TEST_CASE("HLO as XLA prints it parses into computations, instructions, shapes and attributes",
          "[hlo][parse]") {
  auto r = parse_hlo(kPrinted);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->size() == 2);
  const Module& m = r->at(0);
  CHECK(m.dialect == "hlo");
  CHECK(m.name == "jit_f");
  CHECK(m.line == 2);
  REQUIRE(m.attributes.size() == 3);
  CHECK(m.attributes[0].name == "is_scheduled");
  CHECK(m.attributes[2].name == "replica_count");
  CHECK(m.attributes[2].value == "2");
  REQUIRE(m.functions.size() == 2);
  const Function& fused = m.functions[0];
  CHECK(fused.name == "fused_computation");
  CHECK_FALSE(fused.is_entry);
  const Function* entry = m.entry();
  REQUIRE(entry);
  CHECK(entry->name == "main.9");
  CHECK(entry->line == 11);
  CHECK(value_names(*entry, entry->args) == std::vector<std::string>{"Arg_0.1", "Arg_1.2"});
  REQUIRE(entry->args.size() == 2);
  const Type& arg0 = m.value_type(*entry, entry->args[0]);
  const Type& arg1 = m.value_type(*entry, entry->args[1]);
  CHECK(arg0.text == "f32[8,128]");
  CHECK(arg0.element_bytes == 4);
  CHECK(arg1.dims == std::vector<std::int64_t>{10});  // <=10: sized by its bound
  CHECK(arg1.text == "s32[<=10]");
  CHECK(arg1.etype == ElementType::S32);
  REQUIRE(entry->result_types.size() == 1);
  CHECK(m.type(entry->result_types[0]).kind == Type::Kind::Tuple);
  CHECK(m.type(entry->result_types[0]).text == "(f32[8,128], s32[<=10])");

  const Op* convert = find_op(fused, "convert.3");
  REQUIRE(convert);
  CHECK(convert->code == OpCode::Convert);
  CHECK(m.value_type(fused, fused.operands(*convert)[0]).element == "bf16");
  CHECK(convert->line == 7);
  CHECK(convert->column == 3);
  const Op* add = find_op(fused, "add.4");
  REQUIRE(add);
  CHECK(add->is_root);
  CHECK_FALSE(convert->is_root);
  CHECK(attr_text(fused, *add, "metadata") ==
        "{op_name=\"jit(f)/add\" source_file=\"f.py\" source_line=3}");

  const Op* fusion = find_op(*entry, "fusion.5");
  REQUIRE(fusion);
  CHECK(fusion->name == "fusion");
  CHECK(fusion->code == OpCode::Fusion);
  CHECK(value_names(*entry, entry->operands(*fusion)) == std::vector<std::string>{"Arg_0.1", "c"});
  CHECK(m.value_type(*entry, entry->operands(*fusion)[1]).element ==
        "bf16");  // from its definition
  CHECK(attr_text(*entry, *fusion, "kind") == "kLoop");
  CHECK(attr_text(*entry, *fusion, "calls") == "%fused_computation");
  CHECK(attr_text(*entry, *fusion, "backend_config") == "{\"outer_dimension_partitions\":[\"2\"]}");
  CHECK(attr_text(*entry, *find_op(*entry, "Arg_0.1"), "sharding") == "{replicated}");
  CHECK(attr_text(*entry, *find_op(*entry, "Arg_0.1"), "parameter_number") == "0");
  CHECK(attr_text(*entry, *find_op(*entry, "c"), "literal") == "{...}");
  CHECK(attr_text(*entry, *find_op(*entry, "table"), "literal") == "{ {1, 2}, {3, 4} }");
  const Op* tuple = find_op(*entry, "tuple.8");
  REQUIRE(tuple);
  CHECK(tuple->is_root);
  CHECK(m.value_type(*entry, entry->results(*tuple)[0]).tuple.size() == 2);

  const Module& second = r->at(1);
  CHECK(second.name == "second");
  const Type& p = second.value_type(second.functions.at(0), second.functions.at(0).args.at(0));
  REQUIRE(p.tuple.size() == 9);
  CHECK(p.tuple[1].tuple.at(0).element_bytes == 1);  // s4: one byte per element as XLA stores it
  CHECK(p.tuple[1].tuple.at(1).element_bytes == 8);  // u64
  CHECK(p.tuple[1].tuple.at(2).element_bytes == 1);  // pred
  CHECK(p.tuple[2].kind == Type::Kind::Token);
  CHECK(p.tuple[3].element_bytes == 1);  // f8e4m3fn
  CHECK(p.tuple[4].element_bytes == 8);  // c64: two f32
  CHECK(p.tuple[5].element_bytes == 2);
  CHECK(p.tuple[6].element_bytes == 2);
  CHECK(p.tuple[7].element_bytes == 8);
  CHECK(p.tuple[8].element_bytes == 16);
  CHECK(p.byte_size() == 8 * 9);  // a tuple: its index table
}

TEST_CASE("operands without shapes are typed from their definitions, also defined later",
          "[hlo][parse]") {
  const std::string text =
      "HloModule m\n"
      "add {\n"
      "  x = f32[] parameter(0)\n"
      "  y = f32[] parameter(1)\n"
      "  ROOT out = add(%x, %y)\n"  // shape left out: inferred as operand 0's
      "}\n"
      "ENTRY e {\n"
      "  ROOT g = get-tuple-element(t), index=1\n"
      "  t = (f32[2], s32[3]) tuple(a, b)\n"
      "  a = f32[2]{0} parameter(0)\n"
      "  b = s32[3]{0} parameter(1)\n"
      "}\n";
  auto r = parse_hlo(text);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Module& m = r->front();
  const Function& e = *m.entry();
  CHECK(e.name == "e");
  const Op& g = e.body.blocks[0].ops[0];
  CHECK(g.is_root);
  CHECK(g.infer_shape);
  CHECK(m.value_type(e, e.operands(g)[0]).text == "(f32[2], s32[3])");
  CHECK(m.value_type(e, e.results(g)[0]).text == "s32[3]");
  CHECK(m.type(e.result_types.at(0)).text == "s32[3]");
  CHECK(m.value_type(e, e.args.at(1)).text == "s32[3]");
  const Function& add = *m.find("add");
  CHECK(m.value_type(add, add.results(add.body.blocks[0].ops[2])[0]).text == "f32[]");
}

TEST_CASE("a bounded dynamic dimension and a static one are different types", "[hlo][parse]") {
  auto r = parse_hlo(
      "HloModule m\nENTRY e {\n  q = f32[<=8,4] parameter(1)\n  p = f32[8,4] parameter(0)\n"
      "  ROOT t = (f32[<=8,4], f32[8,4]) tuple(q, p)\n}\n");
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  const Module& m = r->front();
  const Function& e = *m.entry();
  CHECK(m.value_type(e, e.args.at(0)).text == "f32[8,4]");
  CHECK(m.value_type(e, e.args.at(1)).text == "f32[<=8,4]");
  CHECK(m.value_type(e, e.args.at(0)).dims ==
        m.value_type(e, e.args.at(1)).dims);  // sized by the bound
}

TEST_CASE("HLO parse errors name the place, what was expected and what was found", "[hlo][parse]") {
  using Row = std::tuple<std::string, std::string>;
  auto [text, message] = GENERATE(table<std::string, std::string>({
      Row{"HloModule m\n\nENTRY e {\n  ROOT x = f32[2] add(a, b)\n}\n",
          "4:23: error: operand a is not defined in e \xE2\x80\x94 expected the name of an "
          "instruction of this "
          "computation, got 'a'"},
      Row{"HloModule m\n\nENTRY e {\n  p = f32[2 parameter(0)\n}\n",
          "4:13: error: bad shape dimensions \xE2\x80\x94 expected ',' or ']', got 'parameter'"},
      Row{"HloModule m\n\nENTRY e {\n  p = q32[2] parameter(0)\n}\n",
          "4:7: error: unknown element type 'q32' \xE2\x80\x94 expected pred, s4..s64, u4..u64, "
          "f16, bf16, f32, f64, "
          "f8e4m3fn..., c64, c128, token or opaque, got 'q32'"},
      Row{"HloModule m\n\nENTRY e {\n  p = f32[2] parameter(0)\n",
          "5:1: error: unterminated computation e \xE2\x80\x94 expected '}', got end of input"},
      Row{"HloModule m\n\nENTRY e {\n  p = f32[2] parameter(0)\n  p = f32[2] parameter(1)\n}\n",
          "5:3: error: instruction p defined twice \xE2\x80\x94 expected unique instruction names "
          "in a computation, got 'p'"},
      Row{"HloModule m\n",
          "2:1: error: HloModule m has no computations \xE2\x80\x94 expected a computation such as "
          "ENTRY main { ... }, got end of input"},
      Row{"HloModule m\n\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT t = f32[2] tanh(p), "
          "metadata=\n}\n",
          "6:1: error: missing value of attribute metadata \xE2\x80\x94 expected a value after "
          "'=', got '}'"},
      Row{"HloModule m\n\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n\nENTRY f {\n  ROOT p = "
          "f32[2] parameter(0)\n}\n",
          "7:1: error: a second ENTRY computation f \xE2\x80\x94 expected one ENTRY per module, "
          "got 'ENTRY'"},
      Row{"HloModule m\n\nENTRY e {\n  ROOT p = f32[2]{0} parameter(0) /* open\n}\n",
          "4:35: error: bad instruction \xE2\x80\x94 expected a name such as %add.1 = f32[2] "
          "add(a, b), or '}', got an "
          "unterminated comment"},
  }));
  auto r = parse_hlo(text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == message);
}

TEST_CASE("HLO nesting deeper than 256 levels is refused, not a crash", "[hlo][parse]") {
  std::string deep_shape = "HloModule m\nENTRY e {\n  ROOT p = ";
  for (int i = 0; i < 300; ++i) deep_shape += "(";
  deep_shape += "f32[]";
  for (int i = 0; i < 300; ++i) deep_shape += ")";
  deep_shape += " parameter(0)\n}\n";
  auto r1 = parse_hlo(deep_shape);
  REQUIRE_FALSE(r1.ok());
  CHECK_THAT(r1.error(), Catch::Matchers::Contains("too deeply"));
  std::string deep_value = "HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0), sharding=";
  for (int i = 0; i < 300; ++i) deep_value += "{";
  auto r2 = parse_hlo(deep_value);
  REQUIRE_FALSE(r2.ok());
  CHECK_THAT(r2.error(), Catch::Matchers::Contains("too deep"));
}

TEST_CASE("every prefix of an HLO module gives a result or an error, never a crash",
          "[hlo][parse]") {
  const std::string text = kPrinted;
  int errors = 0;
  for (std::size_t n = 0; n < text.size(); ++n) {
    auto r = analyze(text.substr(0, n));  // parse, verify and cost: must return
    if (!r.ok()) ++errors;
  }
  CHECK(errors > static_cast<int>(text.size()) / 2);
}

TEST_CASE("a big literal is kept whole, as a view of the text, in one pass", "[hlo][parse]") {
  std::string text = "HloModule m\nENTRY e {\n  ROOT c = f32[200000] constant({";
  for (int i = 0; i < 200000; ++i) text += i ? ", 1.5" : "1.5";
  text += "})\n}\n";
  auto t0 = std::chrono::steady_clock::now();
  auto r = parse_hlo(text);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.ok());
  const Function& f = r->front().functions[0];
  const Op& c = f.body.blocks[0].ops[0];
  const Attribute* lit = f.attr(c, "literal");
  REQUIRE(lit);
  CHECK(lit->value.size() ==
        200000 * 5 - 2 + 2);  // "{1.5, 1.5, ..., 1.5}": every value, both braces
  CHECK(lit->value.substr(0, 6) == "{1.5, ");
  CHECK(lit->value.back() == '}');
  WARN("a " << text.size() / 1e6 << " MB literal parsed in " << seconds * 1e3 << " ms");
}
