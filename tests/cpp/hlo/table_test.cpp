// The CLI's per-op table (hlo/table.h): lines, widths, numbers as JavaScript writes them, chunks of
// whole lines. tests/js/analyze_table.test.mjs compares it with the rows' table on the corpus.
#include "hlo/table.h"

#include <string>

#include "catch.hpp"
#include "hlo/report.h"

using namespace rl::hlo;

namespace {

const char* kModule =
    "HloModule m\n\nENTRY e {\n  p0 = f32[10,2]{1,0} parameter(0)\n  p1 = f32[10,25]{1,0} "
    "parameter(1)\n"
    "  d = f32[2,25]{1,0} dot(p0, p1), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
    "  t = f32[2,25]{1,0} tanh(d)\n  ROOT c = f32[2,25]{1,0} custom-call(t), "
    "custom_call_target=\"foo\"\n}\n";

// The dot: 2·2·10·25 = 1000 flops over 4·(20 + 250 + 50) = 1280 bytes = 0.78125, an exact tie at
// the fourth digit, which JavaScript's toPrecision rounds away from zero.
const char* kTable =
    "line  op                       shape      flops  transcendentals  bytes  intensity\n"
    "   6  dot                      f32[2,25]   1000                0   1280     0.7813\n"
    "   7  tanh                     f32[2,25]      0               50    400          0\n"
    "   8  custom-call (unmodeled)  f32[2,25]      0                0      0          "
    "\xe2\x80\x94\n"
    "totals: flops 1000, transcendentals 50, bytes accessed 1680 (operand 0: 280, operand 1: 1000, "
    "output: 400), "
    "intensity 0.5952 flops/byte\n"
    "minimum traffic (arguments + results, once each): 1280 bytes\n"
    "unmodeled (no cost rule; not counted): custom-call \xc3\x97"
    "1\n";

OpTable table_of(const std::string& text) {
  auto a = analyze_text(text);
  REQUIRE(a);
  return OpTable(std::move(a.value()));
}

}  // namespace

TEST_CASE("the per-op table: rows padded to their columns, then the totals", "[table]") {
  OpTable t = table_of(kModule);
  CHECK(t.rows() == 3);
  std::string out;
  CHECK_FALSE(t.next(out, 1 << 20));
  CHECK(out == kTable);
  std::string more;
  CHECK_FALSE(t.next(more, 1 << 20));
  CHECK(more.empty());
}

TEST_CASE("the per-op table comes out in chunks of whole lines", "[table]") {
  OpTable t = table_of(kModule);
  std::string all;
  int chunks = 0;
  for (bool more = true; more;) {
    std::string chunk;
    more = t.next(chunk, 10);
    if (chunk.empty()) break;
    ++chunks;
    CHECK(chunk.back() == '\n');
    all += chunk;
  }
  CHECK(chunks ==
        5);  // every line is over 10 bytes: the header, 3 rows, and the totals' lines at once
  CHECK(all == kTable);
}

TEST_CASE("no table without ops, no totals without a module that analysed", "[table]") {
  OpTable t = table_of("HloModule m\n\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n");
  CHECK(t.rows() == 0);  // a parameter is no op: no table, the totals only (no bytes: no intensity)
  std::string out;
  t.next(out, 1 << 20);
  CHECK(out ==
        "totals: flops 0, transcendentals 0, bytes accessed 0 (output: 0), intensity \xe2\x80\x94 "
        "flops/byte\n"
        "minimum traffic (arguments + results, once each): 32 bytes\n");
  auto broken = analyze_text(
      "func.func @main(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {\n"
      "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, "
      "tensor<4x5xf32>) -> tensor<2x5xf32>\n"
      "  return %0 : tensor<2x5xf32>\n}\n");
  REQUIRE(broken);
  OpTable b(std::move(broken.value()));
  std::string none;
  CHECK_FALSE(b.next(none, 1 << 20));
  CHECK(none.empty());
  CHECK_FALSE(b.analysis().modules.at(0).analysis);
}

TEST_CASE("rows without their operands' bytes (the table's analysis) keep every count and total",
          "[table]") {
  AnalyzeOptions lean;
  lean.operand_bytes = false;
  auto full = analyze_text(kModule);
  auto without = analyze_text(kModule, lean);
  REQUIRE(full);
  REQUIRE(without);
  const Analysis& a = full.value().modules.at(0).analysis.value();
  const Analysis& b = without.value().modules.at(0).analysis.value();
  REQUIRE(a.ops.size() == b.ops.size());
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    CHECK(a.ops[i].flops == b.ops[i].flops);
    CHECK(a.ops[i].bytes_accessed == b.ops[i].bytes_accessed);
    CHECK(b.operand_bytes(i).size() == 0);
  }
  CHECK(a.operand_bytes(0).size() == 2);  // the dot reads two operands
  CHECK(b.operand_bytes_pool.empty());
  CHECK(a.bytes_accessed == b.bytes_accessed);
  CHECK(a.bytes_accessed_operand == b.bytes_accessed_operand);
  CHECK(b.bytes_accessed_operand.size() == 2);
}

TEST_CASE("a number with the same bits as a count and as an intensity is written each one's way",
          "[table]") {
  // Cells are kept by the number's bits (OpTable::cell): 4.5e15 flops over 1 byte is an intensity
  // of 4.5e15 too, which the table writes in full where the count takes exponent form; the second
  // row repeats both, from the kept cells.
  Analysis a;
  a.dialect = "hlo";
  a.functions.push_back("e");
  Type t;
  t.kind = Type::Kind::Opaque;
  t.text = "f32[]";
  a.types.push_back(t);
  OpCost r;
  r.line = 3;
  r.op = "dot";
  r.flops = 4.5e15;
  r.bytes_accessed = 1;
  a.ops = {r, r};
  a.ops[1].line = 4;
  TextAnalysis text;
  text.dialect = "hlo";
  ModuleResult m;
  m.analysis = rl::Result<Analysis>::success(std::move(a));
  text.modules.push_back(std::move(m));
  OpTable table(std::move(text));
  std::string out;
  table.next(out, 1 << 20);
  const std::string row = "  dot  f32[]  4.5e+15                0      1  4500000000000000\n";
  CHECK(out.find("   3" + row) != std::string::npos);
  CHECK(out.find("   4" + row) != std::string::npos);
}
