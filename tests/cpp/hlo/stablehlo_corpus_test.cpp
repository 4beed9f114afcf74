// The shared corpus, read in place: every real StableHLO file parses and costs; every
// dot_general's flops match 2·prod(result dims)·prod(contracting sizes) computed here from the
// parsed types and the attribute text; the invalid lit cases give errors, never crashes.
#include <map>
#include <sstream>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/cost.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"
#include "hlo/verify.h"

using namespace rl::hlo;

namespace {

void walk(const Function& f, const Region& r, std::vector<const Op*>& out) {
  for (const auto& b : r.blocks)
    for (const auto& op : b.ops) {
      out.push_back(&op);
      for (const auto& inner : f.nested(op)) walk(f, inner, out);
    }
}

// The first bracketed integer list after `key` in `text` (independent of the library's helpers).
std::vector<long long> first_list_after(const std::string& text, const std::string& key) {
  std::vector<long long> out;
  auto at = text.find(key);
  if (at == std::string::npos) return out;
  auto open = text.find('[', at + key.size());
  auto close = text.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return out;
  std::istringstream in(text.substr(open + 1, close - open - 1));
  std::string item;
  while (std::getline(in, item, ','))
    if (item.find_first_of("0123456789") != std::string::npos) out.push_back(std::stoll(item));
  return out;
}

std::string whole_attr_text(const Function& f, const Op& op) {
  std::string s;
  for (const auto& a : f.attributes(op))
    s += std::string(a.name) + " = " + std::string(a.value) + "; ";
  return s;
}

// Splits lit's split-input-file text into its parts, each with its first line number.
std::vector<std::pair<int, std::string>> split_parts(const std::string& text) {
  std::vector<std::pair<int, std::string>> parts;
  std::istringstream in(text);
  std::string line, cur;
  int lineno = 0, start = 1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.rfind("// -----", 0) == 0) {
      parts.emplace_back(start, cur);
      cur.clear();
      start = lineno + 1;
      continue;
    }
    cur += line + "\n";
  }
  parts.emplace_back(start, cur);
  return parts;
}

}  // namespace

TEST_CASE("every StableHLO corpus file parses, verifies and costs", "[hlo][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo");
  const std::string dir = rl::testing::corpus_dir() + "/stablehlo";
  auto files = rl::testing::list_files(dir, ".mlir");
  REQUIRE(!files.empty());  // as many as the corpus holds
  int passed = 0;
  std::string failures;
  for (const auto& f : files) {
    auto r = analyze(rl::testing::read_file(dir + "/" + f));
    if (r.ok() && !r->empty())
      ++passed;
    else
      failures += f + ": " + (r.ok() ? std::string("no module") : r.error()) + "\n";
  }
  INFO(passed << " of " << files.size() << " analysed; failures:\n" << failures);
  CHECK(passed == static_cast<int>(files.size()));
}

TEST_CASE("every corpus dot_general costs 2 x result elements x contracting sizes",
          "[hlo][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo");
  const std::string dir = rl::testing::corpus_dir() + "/stablehlo";
  int checked = 0, dynamic = 0;
  for (const auto& f : rl::testing::list_files(dir, ".mlir")) {
    auto mods = parse_stablehlo(rl::testing::read_file(dir + "/" + f));
    REQUIRE(mods.ok());
    for (const auto& m : mods.value()) {
      auto analysis = analyze_module(m);
      REQUIRE(analysis.ok());
      std::map<std::pair<int, int>, const OpCost*> by_place;
      for (const auto& r : analysis->ops) by_place[{r.line, r.column}] = &r;
      for (const auto& fn : m.functions) {
        std::vector<const Op*> ops;
        walk(fn, fn.body, ops);
        for (const Op* op : ops) {
          if (op->name != "stablehlo.dot_general") continue;
          INFO(f << ":" << op->line << ":" << op->column << " " << whole_attr_text(fn, *op));
          REQUIRE(by_place.count({op->line, op->column}) == 1);
          const OpCost& row = *by_place[{op->line, op->column}];
          REQUIRE(fn.operands(*op).size() == 2);
          REQUIRE(fn.results(*op).size() == 1);
          const Type& lhs = m.value_type(fn, fn.operands(*op)[0]);
          const Type& out = m.value_type(fn, fn.results(*op)[0]);
          if (!lhs.is_static() || !out.is_static()) {
            ++dynamic;
            CHECK_FALSE(row.modeled);
            continue;
          }
          std::string text = whole_attr_text(fn, *op);
          auto contracting = text.find("contracting_dims = ") != std::string::npos
                                 ? first_list_after(text, "contracting_dims = ")
                                 : first_list_after(text, "lhs_contracting_dimensions");
          double expected = 2;
          for (auto d : out.dims) expected *= static_cast<double>(d);
          for (auto c : contracting)
            expected *= static_cast<double>(lhs.dims.at(static_cast<std::size_t>(c)));
          CHECK(row.flops == expected);
          CHECK(row.modeled);
          ++checked;
        }
      }
    }
  }
  INFO(checked << " static and " << dynamic << " dynamic dot_general ops");
  CHECK(checked >= 60);
  CHECK(dynamic >= 1);
}

// The verifier checks the shape contract of the ops that carry cost (dot_general,
// broadcast_in_dim, transpose, reshape, reduce, convolution, elementwise). Expected errors whose
// message is about those rules are in scope and must be caught; the rest (gather, scatter,
// while signatures, quantization, custom assembly spelling, ...) are out of scope: they must
// still give a result or an error, never a crash or a hang, and their count is reported.
bool in_scope(const std::string& message) {
  for (const char* key :
       {"_contracting_dimensions value", "_batching_dimensions value",
        "broadcast_dimensions contains invalid value", "broadcast_dimensions size"})
    if (message.find(key) != std::string::npos) return true;
  return false;
}

std::string expected_message(const std::string& part) {
  auto at = part.find("expected-error");
  auto open = part.find("{{", at);
  auto close = part.find("}}", open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return part.substr(open + 2, close - open - 2);
}

TEST_CASE("invalid StableHLO lit cases give errors or are named out of scope, never crash",
          "[hlo][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo-invalid");
  const std::string dir = rl::testing::corpus_dir() + "/stablehlo-invalid";
  int cases = 0, caught = 0, scoped = 0;
  std::map<std::string, std::pair<int, int>> per_file;  // caught, cases
  for (const auto& f : rl::testing::list_files(dir, ".mlir")) {
    for (const auto& [line, part] : split_parts(rl::testing::read_file(dir + "/" + f))) {
      if (part.find("expected-error") == std::string::npos) continue;
      ++cases;
      ++per_file[f].second;
      auto r = analyze(part);  // must return, error or not
      if (!r.ok()) {
        ++caught;
        ++per_file[f].first;
        CHECK(r.error().find(": error: ") != std::string::npos);
      }
      const std::string message = expected_message(part);
      if (in_scope(message)) {
        ++scoped;
        INFO(f << " part at line " << line << ": expected-error {{" << message << "}}");
        CHECK_FALSE(r.ok());
      }
    }
  }
  std::ostringstream summary;
  for (auto& [f, c] : per_file)
    summary << "  " << f << ": " << c.first << " of " << c.second << "\n";
  WARN(caught << " of " << cases << " invalid parts give an error (" << scoped
              << " in scope, all required); the others are out of scope:\n"
              << summary.str());
  REQUIRE(cases > 0);  // the corpus as it is found: its size is reported above, not asserted
  CHECK(scoped >= 8);
}
