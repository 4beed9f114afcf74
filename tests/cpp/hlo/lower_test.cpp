// The lowering: both dialects' attribute spellings decode into the same typed fields, constants
// into typed buffers, callees into function indices; problems are errors at the op's line:col.
#include "hlo/lower.h"

#include <algorithm>
#include <cstring>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/attrs.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"
#include "hlo/verify.h"

using namespace rl::hlo;
using Catch::Matchers::Contains;

namespace {

struct Lowered {
  std::vector<Module> modules;
  Program program;
};

// Parses one module and lowers it (the modules stay alive with the program).
Lowered lower_one(const std::string& text) {
  Lowered out;
  auto r = parse(text);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->size() == 1);
  out.modules = std::move(r.value());
  auto p = lower(out.modules.front());
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  out.program = std::move(p.value());
  return out;
}

// The decoded attributes of the first instruction of the entry with this code.
const OpAttrs& attrs_of(const Lowered& l, OpCode code) {
  const Program& p = l.program;
  for (const auto& f : p.functions)
    for (const auto& b : f.body.blocks)
      for (const auto& i : b.instrs)
        if (i.code == code) {
          REQUIRE(p.attrs_of(i));
          return *p.attrs_of(i);
        }
  FAIL("no instruction " << op_short_name(code));
  return p.attrs.front();
}

using I = std::vector<std::int64_t>;

}  // namespace

TEST_CASE(
    "slice, pad, transpose, iota and concatenate decode alike from pretty StableHLO, generic "
    "StableHLO and HLO",
    "[hlo][lower]") {
  const std::string pretty =
      "func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x4xf32> {\n"
      "  %0 = stablehlo.slice %a [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>\n"
      "  %1 = stablehlo.pad %0, %z, low = [0, 1], high = [0, -1], interior = [0, 1] : "
      "(tensor<2x3xf32>, tensor<f32>) -> tensor<2x5xf32>\n"
      "  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<2x5xf32>) -> tensor<5x2xf32>\n"
      "  %3 = stablehlo.iota dim = 1 : tensor<2x4xf32>\n"
      "  %4 = stablehlo.concatenate %3, %3, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> "
      "tensor<4x4xf32>\n"
      "  return %3 : tensor<2x4xf32>\n"
      "}\n";
  const std::string generic =
      "func.func @main(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x4xf32> {\n"
      "  %0 = \"stablehlo.slice\"(%a) <{start_indices = array<i64: 1, 0>, limit_indices = "
      "array<i64: 3, 6>, strides = array<i64: 1, 2>}> : (tensor<4x6xf32>) -> tensor<2x3xf32>\n"
      "  %1 = \"stablehlo.pad\"(%0, %z) <{edge_padding_low = array<i64: 0, 1>, edge_padding_high = "
      "array<i64: 0, -1>, interior_padding = array<i64: 0, 1>}> : (tensor<2x3xf32>, tensor<f32>) "
      "-> tensor<2x5xf32>\n"
      "  %2 = \"stablehlo.transpose\"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<2x5xf32>) "
      "-> tensor<5x2xf32>\n"
      "  %3 = \"stablehlo.iota\"() <{iota_dimension = 1 : i64}> : () -> tensor<2x4xf32>\n"
      "  %4 = \"stablehlo.concatenate\"(%3, %3) <{dimension = 0 : i64}> : (tensor<2x4xf32>, "
      "tensor<2x4xf32>) -> tensor<4x4xf32>\n"
      "  \"func.return\"(%3) : (tensor<2x4xf32>) -> ()\n"
      "}\n";
  const std::string hlo =
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[4,6] parameter(0)\n"
      "  z = f32[] parameter(1)\n"
      "  s = f32[2,3] slice(a), slice={[1:3], [0:6:2]}\n"
      "  p = f32[2,5] pad(s, z), padding=0_0x1_-1_1\n"
      "  t = f32[5,2] transpose(p), dimensions={1,0}\n"
      "  i = f32[2,4] iota(), iota_dimension=1\n"
      "  ROOT c = f32[4,4] concatenate(i, i), dimensions={0}\n"
      "}\n";
  const std::string text = GENERATE_COPY(pretty, generic, hlo);
  Lowered l = lower_one(text);
  const SliceAttrs& s = attrs_of(l, OpCode::Slice).get<SliceAttrs>();
  CHECK(s.starts == I{1, 0});
  CHECK(s.limits == I{3, 6});
  CHECK(s.strides == I{1, 2});
  const PadAttrs& p = attrs_of(l, OpCode::Pad).get<PadAttrs>();
  CHECK(p.low == I{0, 1});
  CHECK(p.high == I{0, -1});
  CHECK(p.interior == I{0, 1});
  CHECK(attrs_of(l, OpCode::Transpose).get<DimsAttrs>().dims == I{1, 0});
  CHECK(attrs_of(l, OpCode::Iota).get<DimensionAttrs>().dimension == 1);
  CHECK(attrs_of(l, OpCode::Concatenate).get<DimensionAttrs>().dimension == 0);
}

TEST_CASE("compare's direction and type decode from both StableHLO forms and from HLO",
          "[hlo][lower]") {
  using Row = std::tuple<std::string, Comparison, CompareType>;
  auto [text, direction, type] = GENERATE(table<std::string, Comparison, CompareType>({
      Row{"func.func @main(%a: tensor<2xf32>) -> tensor<2xi1> {\n"
          "  %0 = stablehlo.compare  GE, %a, %a,  TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> "
          "tensor<2xi1>\n"
          "  return %0 : tensor<2xi1>\n}\n",
          Comparison::GE, CompareType::TotalOrder},
      Row{"func.func @main(%a: tensor<2xi32>) -> tensor<2xi1> {\n"
          "  %0 = \"stablehlo.compare\"(%a, %a) {comparison_direction = "
          "#stablehlo<comparison_direction NE>} : "
          "(tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>\n  return %0 : tensor<2xi1>\n}\n",
          Comparison::NE, CompareType::Default},
      Row{"HloModule m\nENTRY e {\n  a = u8[2] parameter(0)\n  ROOT c = pred[2] compare(a, a), "
          "direction=LT, type=UNSIGNED\n}\n",
          Comparison::LT, CompareType::Unsigned},
  }));
  Lowered l = lower_one(text);
  const CompareAttrs& a = attrs_of(l, OpCode::Compare).get<CompareAttrs>();
  CHECK(a.direction == direction);
  CHECK(a.compare_type == type);
}

TEST_CASE(
    "gather and scatter dimension numbers, and the callee of a reducer, decode from both dialects",
    "[hlo][lower]") {
  const std::string mlir =
      "func.func @main(%a: tensor<5x7xf32>, %i: tensor<3x1xi32>, %u: tensor<3x7xf32>) -> "
      "tensor<5x7xf32> {\n"
      "  %0 = \"stablehlo.gather\"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = "
      "[1], "
      "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = "
      "array<i64: 1, 7>}> : "
      "(tensor<5x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>\n"
      "  %1 = \"stablehlo.scatter\"(%a, %i, %u) <{scatter_dimension_numbers = "
      "#stablehlo.scatter<update_window_dims = [1], "
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, "
      "unique_indices = true}> ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %s = stablehlo.add %x, %y : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<5x7xf32>, tensor<3x1xi32>, tensor<3x7xf32>) -> tensor<5x7xf32>\n"
      "  return %1 : tensor<5x7xf32>\n"
      "}\n";
  const std::string hlo =
      "HloModule m\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "ENTRY main {\n"
      "  a = f32[5,7] parameter(0)\n  i = s32[3,1] parameter(1)\n  u = f32[3,7] parameter(2)\n"
      "  g = f32[3,7] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, "
      "start_index_map={0}, index_vector_dim=1, slice_sizes={1,7}\n"
      "  ROOT s = f32[5,7] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, "
      "index_vector_dim=1, unique_indices=true, to_apply=add\n"
      "}\n";
  const bool is_hlo = GENERATE(false, true);
  Lowered l = lower_one(is_hlo ? hlo : mlir);
  const GatherDims& g = attrs_of(l, OpCode::Gather).get<GatherDims>();
  CHECK(g.offset_dims == I{1});
  CHECK(g.collapsed_slice_dims == I{0});
  CHECK(g.start_index_map == I{0});
  CHECK(g.index_vector_dim == 1);
  CHECK(g.slice_sizes == I{1, 7});
  const ScatterAttrs& s = attrs_of(l, OpCode::Scatter).get<ScatterAttrs>();
  CHECK(s.update_window_dims == I{1});
  CHECK(s.inserted_window_dims == I{0});
  CHECK(s.scatter_dims_to_operand_dims == I{0});
  CHECK(s.index_vector_dim == 1);
  CHECK(s.unique_indices);
  if (is_hlo) {
    REQUIRE(s.callees.size() == 1);
    CHECK(l.modules.front().functions[s.callees[0]].name == "add");
  }
}

TEST_CASE("reduce's compact form names the op its body applies, and an unknown one is a problem",
          "[hlo][lower]") {
  Lowered l = lower_one(
      "func.func @main(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<3xf32> {\n"
      "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] : "
      "(tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n"
      "}\n");
  const ReduceAttrs& r = attrs_of(l, OpCode::Reduce).get<ReduceAttrs>();
  CHECK(r.applies == OpCode::Maximum);
  CHECK(r.dims == I{0});
  auto bad = parse(
      "func.func @main(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<3xf32> {\n"
      "  %0 = stablehlo.reduce(%a init: %z) applies my.op across dimensions = [0] : "
      "(tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n"
      "}\n");
  REQUIRE(bad.ok());
  Program lenient = lower_lenient(bad->front());
  REQUIRE(lenient.problems.size() == 1);
  CHECK(lenient.problems[0].line == 2);
  CHECK_THAT(lenient.problems[0].message, Contains("my.op"));
}

TEST_CASE(
    "constants become typed buffers, and a literal with the wrong element count is an error at its "
    "place",
    "[hlo][lower]") {
  Lowered l = lower_one(
      "func.func @main() -> tensor<2x2xi32> {\n"
      "  %c = stablehlo.constant dense<[[1, 2], [3, -4]]> : tensor<2x2xi32>\n"
      "  return %c : tensor<2x2xi32>\n"
      "}\n");
  const ConstantAttrs& c = attrs_of(l, OpCode::Constant).get<ConstantAttrs>();
  REQUIRE(c.literal != kNoAttrs);
  const Literal& lit = l.program.literals[c.literal];
  CHECK(lit.type == ElementType::S32);
  CHECK(lit.dims == I{2, 2});
  REQUIRE(lit.bytes.size() == 16);
  std::int32_t v[4];
  std::memcpy(v, lit.bytes.data(), 16);
  CHECK(v[3] == -4);

  auto bad = parse(
      "func.func @main() -> tensor<4xf32> {\n  %c = stablehlo.constant dense<[1.0, 2.0, 3.0]> : "
      "tensor<4xf32>\n"
      "  return %c : tensor<4xf32>\n}\n");
  REQUIRE(bad.ok());
  auto p = lower(bad->front());
  REQUIRE_FALSE(p.ok());
  CHECK(p.error_info().line == 2);
  CHECK(p.error_info().column > 25);  // inside the literal, not at the op
  CHECK_THAT(p.error(), Contains("4"));
  CHECK_THAT(p.error(), Contains("3"));
}

TEST_CASE(
    "an op whose attributes cannot be read is a problem at its place, and lowering keeps going "
    "when asked",
    "[hlo][lower]") {
  auto r = parse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  a = f32[4] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=missing\n"
      "}\n");
  REQUIRE(r.ok());
  auto strict = lower(r->front());
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.error_info().line == 5);
  CHECK_THAT(strict.error(), Contains("unknown computation"));
  Program lenient = lower_lenient(r->front());
  REQUIRE(lenient.problems.size() == 1);
  const Instr& reduce = lenient.functions[0].body.blocks[0].instrs[2];
  REQUIRE(lenient.problem_of(reduce));
  CHECK(lenient.problem_of(reduce)->column == 3);
}

TEST_CASE(
    "get_dimension_size's dimension and convolution's window reversal decode from every spelling",
    "[hlo][lower]") {
  const std::string pretty =
      "func.func @main(%a: tensor<2x7xf32>) -> tensor<i32> {\n"
      "  %n = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x7xf32>) -> tensor<i32>\n"
      "  return %n : tensor<i32>\n"
      "}\n";
  const std::string generic =
      "func.func @main(%a: tensor<2x7xf32>) -> tensor<i32> {\n"
      "  %n = \"stablehlo.get_dimension_size\"(%a) <{dimension = 1 : i64}> : (tensor<2x7xf32>) -> "
      "tensor<i32>\n"
      "  \"func.return\"(%n) : (tensor<i32>) -> ()\n"
      "}\n";
  const std::string hlo =
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[2,7] parameter(0)\n"
      "  ROOT n = s32[] get-dimension-size(a), dimensions={1}\n"
      "}\n";
  const std::string text = GENERATE_COPY(pretty, generic, hlo);
  CHECK(attrs_of(lower_one(text), OpCode::GetDimensionSize).get<DimensionAttrs>().dimension == 1);

  auto conv = [](const std::string& window, const std::string& extra) {
    return "func.func @main(%x: tensor<1x1x5xf32>, %k: tensor<1x1x2xf32>) -> tensor<1x1x4xf32> {\n"
           "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], "
           "window = {" +
           window +
           "} "
           "{batch_group_count = 1 : i64, feature_group_count = 1 : i64" +
           extra +
           "} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>\n"
           "  return %y : tensor<1x1x4xf32>\n"
           "}\n";
  };
  for (const std::string& t : {conv("reverse = [true]", ""), conv("reverse = [1]", ""),
                               conv("", ", window_reversal = array<i1: true>")})
    CHECK(attrs_of(lower_one(t), OpCode::Convolution).get<ConvAttrs>().window_reversal ==
          std::vector<bool>{true});
  CHECK(attrs_of(lower_one(conv("stride = [1], reverse = [false]", "")), OpCode::Convolution)
            .get<ConvAttrs>()
            .window_reversal == std::vector<bool>{false});
}

TEST_CASE("liveness: each op lists the values of its block that die there", "[hlo][lower]") {
  Lowered l = lower_one(
      "func.func @main(%a: tensor<4xf32>, %unused: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %b = stablehlo.add %a, %a : tensor<4xf32>\n"       // 0: %a is read again by op 2
      "  %c = stablehlo.negate %b : tensor<4xf32>\n"        // 1: %c is never read
      "  %d = stablehlo.multiply %a, %b : tensor<4xf32>\n"  // 2: the last reads of %a and %b
      "  return %d : tensor<4xf32>\n"
      "}\n");
  const Program& p = l.program;
  const auto& instrs = p.functions[0].body.blocks[0].instrs;
  const Function& f = *p.functions[0].fn;
  auto names = [&](const Instr& in) {
    std::vector<std::string> out;
    if (const auto* d = p.dead_after(in))
      for (ValueId v : *d) out.push_back(f.value_name(v));
    std::sort(out.begin(), out.end());
    return out;
  };
  using S = std::vector<std::string>;
  CHECK(names(instrs[0]) == S{"%unused"});  // an argument nobody reads, released at the first op
  CHECK(names(instrs[1]) == S{"%c"});
  CHECK(names(instrs[2]) == S{"%a", "%b"});
  CHECK(names(instrs[3]) == S{"%d"});  // the return releases what it hands over

  // A value of the function's block used inside a loop body dies at the loop, never inside it.
  Lowered w = lower_one(
      "func.func @main(%x: tensor<f32>) -> tensor<i32> {\n"
      "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %i0, %y = %x) : tensor<i32>, tensor<f32>\n"
      "   cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %ni = stablehlo.add %i, %one : tensor<i32>\n"
      "    %ny = stablehlo.add %y, %x : tensor<f32>\n"
      "    stablehlo.return %ni, %ny : tensor<i32>, tensor<f32>\n"
      "  }\n"
      "  return %r#0 : tensor<i32>\n"
      "}\n");
  const Program& q = w.program;
  const Function& g = *q.functions[0].fn;
  const auto& top = q.functions[0].body.blocks[0].instrs;
  std::vector<std::string> at_while;
  for (ValueId v : *q.dead_after(top[1])) at_while.push_back(g.value_name(v));
  std::sort(at_while.begin(), at_while.end());
  CHECK(at_while == S{"%i0", "%r#1", "%x"});  // %x is read in the body; %r#1 is never read
  for (const auto& region : q.functions[0].regions)
    for (const auto& b : region.blocks)
      for (const auto& in : b.instrs)
        if (const auto* d = q.dead_after(in))
          for (ValueId v : *d) CHECK(g.value_name(v) != "%x");
}

TEST_CASE(
    "every corpus module that verifies lowers, and only elided HLO literals and unknown callees "
    "are problems",
    "[hlo][lower][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo");
  int modules = 0, problems = 0;
  std::string unexpected;
  for (const char* sub : {"stablehlo", "stablehlo-interpret", "hlo"}) {
    const std::string dir = rl::testing::corpus_dir() + "/" + sub;
    for (const auto& f :
         rl::testing::list_files(dir, std::string(sub) == "hlo" ? ".hlo" : ".mlir")) {
      auto r = parse(rl::testing::read_file(dir + "/" + f));
      if (!r.ok()) continue;  // the parse tests cover these
      for (const auto& m : r.value()) {
        if (!verify(m).ok()) continue;
        ++modules;
        Program p = lower_lenient(m);
        for (const auto& e : p.problems) {
          ++problems;
          if (e.message.find("literal is elided") == std::string::npos &&
              e.message.find("unknown computation") == std::string::npos)
            unexpected += f + ": " + e.message + "\n";
        }
      }
    }
  }
  WARN(modules << " corpus modules lowered; " << problems
               << " ops with elided literals or unknown callees");
  INFO(unexpected);
  CHECK(unexpected.empty());
  CHECK(modules > 1000);
}

TEST_CASE("an integer attribute written as a splat stands for every element of its type",
          "[hlo][lower]") {
  CHECK(int_list("dense<2> : tensor<2x2xi64>") == std::vector<std::int64_t>{2, 2, 2, 2});
  CHECK(int_list("dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>") ==
        std::vector<std::int64_t>{1, 0, 0, 1});
  CHECK(int_list("dense<7> : tensor<i64>") == std::vector<std::int64_t>{7});
  CHECK(int_list("dense<[3]> : tensor<1xi64>") == std::vector<std::int64_t>{3});
  CHECK(int_list("dense<1> : tensor<0xi64>").empty());
}

TEST_CASE("layouts: the parser keeps the non-default ones, read as a dimension order",
          "[hlo][lower][layout]") {
  CHECK(is_default_layout(""));
  CHECK(is_default_layout("0"));
  CHECK(is_default_layout("2,1,0"));
  CHECK(is_default_layout("1, 0"));
  CHECK_FALSE(is_default_layout("0,1"));
  CHECK_FALSE(is_default_layout("1,0:T(8,128)"));
  CHECK_FALSE(is_default_layout("2,0"));
  CHECK_FALSE(is_default_layout("1,0,"));
  std::vector<int> order;
  CHECK(minor_to_major("2,0,1", 3, &order));
  CHECK(order == std::vector<int>{2, 0, 1});
  CHECK_FALSE(minor_to_major("0,0", 2, &order));
  CHECK_FALSE(minor_to_major("0,2", 2, &order));
  CHECK_FALSE(minor_to_major("1,0:T(8,128)", 2, &order));
  CHECK_FALSE(minor_to_major("0", 2, &order));
  // Only the instructions whose layout is not row-major are kept, by value, in order.
  auto r = parse(
      "HloModule m\nENTRY main {\n  a = f32[2,3]{1,0} constant({{0, 1, 2}, {3, 4, 5}})\n"
      "  b = f32[3,2]{0,1} transpose(a), dimensions={1,0}\n"
      "  t = (f32[2]{0}, f32[2,2]{0,1}) parameter(0)\n"
      "  ROOT c = f32[6]{0} bitcast(b)\n}\n");
  REQUIRE(r.ok());
  const Function& f = r->front().functions.front();
  REQUIRE(f.layouts.size() == 1);
  CHECK(f.value_name(f.layouts[0].value) == "b");
  CHECK(f.layouts[0].layout == "0,1");
}

TEST_CASE(
    "every op's decoded attributes are the family the op table gives it, over the whole corpus",
    "[hlo][lower][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo-interpret");
  // The decoder refuses to write another family than ops.inc's (a problem at the op); here every
  // decoded op of every corpus module is read back against the table, and no op may have that
  // problem. The families seen are counted, so a family the corpus never decodes shows.
  std::size_t decoded = 0, modules = 0;
  std::vector<std::size_t> seen(static_cast<std::size_t>(AttrFamily::Count_), 0);
  std::string wrong;
  const std::pair<const char*, const char*> dirs[] = {
      {"stablehlo", ".mlir"}, {"hlo", ".hlo"}, {"stablehlo-interpret", ".mlir"}};
  for (const auto& [sub, suffix] : dirs) {
    const std::string dir = rl::testing::corpus_dir() + "/" + sub;
    for (const auto& file : rl::testing::list_files(dir, suffix)) {
      auto parsed = parse(rl::testing::read_file(dir + "/" + file));
      if (!parsed.ok()) continue;  // the corpus tests name those
      for (const Module& m : parsed.value()) {
        ++modules;
        Program p = lower_lenient(m);
        for (const rl::Error& e : p.problems)
          if (e.message.find("another family") != std::string::npos)
            wrong += file + ": " + e.message + "\n";
        for (const LFunction& f : p.functions) {
          std::vector<const LRegion*> regions{&f.body};
          for (const LRegion& r : f.regions) regions.push_back(&r);
          for (const LRegion* r : regions)
            for (const auto& b : r->blocks)
              for (const auto& i : b.instrs)
                if (const OpAttrs* a = p.attrs_of(i)) {
                  ++decoded;
                  ++seen[static_cast<std::size_t>(a->family())];
                  if (a->family() != op_info(i.code).attrs)
                    wrong += file + ": " + std::string(op_short_name(i.code)) + "\n";
                }
        }
      }
    }
  }
  std::string counts;
  for (std::size_t k = 1; k < seen.size(); ++k) counts += std::to_string(seen[k]) + " ";
  INFO(modules << " modules, " << decoded << " ops decoded; per family: " << counts);
  CHECK(wrong.empty());
  CHECK(decoded > 1000);
  // Every family but None is decoded somewhere in the corpus.
  for (std::size_t k = 1; k < seen.size(); ++k) {
    INFO("family " << k);
    CHECK(seen[k] > 0);
  }
}

TEST_CASE("an op's callees are read the same way whatever its family", "[hlo][lower]") {
  Lowered l = lower_one(
      "HloModule m\n"
      "add {\n"
      "  a = f32[] parameter(0)\n"
      "  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n"
      "}\n"
      "ENTRY main {\n"
      "  x = f32[4] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  r = f32[] reduce(x, z), dimensions={0}, to_apply=add\n"
      "  ROOT c = f32[] call(r, z), to_apply=add\n"
      "}\n");
  const OpAttrs& r = attrs_of(l, OpCode::Reduce);
  const OpAttrs& c = attrs_of(l, OpCode::Call);
  CHECK(r.family() == AttrFamily::Reduce);
  CHECK(c.family() == AttrFamily::Calls);
  REQUIRE(r.callees().size() == 1);
  REQUIRE(c.callees().size() == 1);
  CHECK(r.callees() == c.callees());
  CHECK(l.modules.front().functions[c.callees()[0]].name == "add");
  CHECK(r.get<ReduceAttrs>().dims == I{0});
  CHECK(attrs_of(l, OpCode::Constant).callees().empty());
}

TEST_CASE("decoded attributes copy, move and replace as values", "[hlo][lower]") {
  OpAttrs a;
  CHECK(a.family() == AttrFamily::None);
  CHECK(a.get_if<SliceAttrs>() == nullptr);
  CHECK(a.callees().empty());
  SliceAttrs& s = a.emplace<SliceAttrs>();
  s.starts = {1, 2};
  OpAttrs copy = a;  // its own struct: a later change of a's leaves it
  a.emplace<CallsAttrs>().callees = {7};
  REQUIRE(copy.family() == AttrFamily::Slice);
  CHECK(copy.get<SliceAttrs>().starts == I{1, 2});
  CHECK(a.family() == AttrFamily::Calls);
  CHECK(a.get_if<SliceAttrs>() == nullptr);
  CHECK(a.callees() == std::vector<std::uint32_t>{7});
  OpAttrs moved = std::move(copy);
  CHECK(moved.get<SliceAttrs>().starts == I{1, 2});
  CHECK(copy.family() == AttrFamily::None);  // NOLINT(bugprone-use-after-move): moved from
  moved = a;
  CHECK(moved.callees() == std::vector<std::uint32_t>{7});
  std::vector<OpAttrs> many(100, a);  // copies made, grown and destroyed
  many.emplace_back().emplace<DimsAttrs>().dims = {3};
  CHECK(many.front().callees() == std::vector<std::uint32_t>{7});
  CHECK(many.back().get<DimsAttrs>().dims == I{3});
}

TEST_CASE(
    "what shape inference asks of an op's text is decoded too: a parameter's number, whether map's "
    "dimensions and a window's sizes are written",
    "[hlo][lower]") {
  Lowered l = lower_one(
      "HloModule m\n"
      "add {\n"
      "  a = f32[] parameter(0)\n"
      "  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n"
      "}\n"
      "ENTRY main {\n"
      "  y = f32[4] parameter(1)\n"
      "  x = f32[4] parameter(0)\n"
      "  i = f32[1,8,8,3] parameter(2)\n"
      "  k = f32[3,3,3,8] parameter(3)\n"
      "  z = f32[] constant(0)\n"
      "  m1 = f32[4] map(x, y), to_apply=add\n"
      "  m2 = f32[4] map(m1, y), dimensions={0}, to_apply=add\n"
      "  w = f32[2] reduce-window(m2, z), window={size=2 stride=2}, to_apply=add\n"
      "  c1 = f32[1,6,6,8] convolution(i, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n"
      "  ROOT t = (f32[2], f32[1,6,6,8]) tuple(w, c1)\n"
      "}\n");
  // The decoded attributes of the entry's instruction named `name`.
  auto named = [&](const char* name) -> const OpAttrs& {
    const Module& m = l.modules.front();
    for (const LFunction& f : l.program.functions)
      if (f.fn->is_entry)
        for (const auto& b : f.body.blocks)
          for (const auto& i : b.instrs)
            if (i.op->results.count == 1 && f.fn->value_name(f.fn->results(*i.op)[0]) == name) {
              REQUIRE(l.program.attrs_of(i));
              return *l.program.attrs_of(i);
            }
    FAIL("no instruction " << name << " in " << m.functions.size() << " computations");
    return l.program.attrs.front();
  };
  REQUIRE(named("y").family() == AttrFamily::Parameter);
  CHECK(named("y").get<ParameterAttrs>().number == 1);
  CHECK(named("k").get<ParameterAttrs>().number == 3);
  CHECK_FALSE(named("m1").get<ReduceAttrs>().dims_written);
  CHECK(named("m2").get<ReduceAttrs>().dims_written);
  CHECK(named("m2").get<ReduceAttrs>().dims == I{0});
  CHECK(named("w").get<WindowAttrs>().sizes);
  CHECK(named("c1").get<ConvAttrs>().window_sizes);
  // The number is in the key by which equal decodings share one entry.
  CHECK(sharing_key(OpCode::Parameter, named("x")) != sharing_key(OpCode::Parameter, named("y")));
}
