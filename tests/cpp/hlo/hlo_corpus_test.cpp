// The shared HLO corpus, read in place: every file parses, verifies and costs except those its
// MANIFEST.tsv marks INTENTIONALLY-INVALID, which are refused naming one of their main ops; every
// dot's (and cuBLAS GEMM's) flops match 2·prod(result dims)·prod(lhs contracting sizes) computed
// here from the parsed shapes and the attribute text, without the library's attribute helpers.
#include <chrono>
#include <map>
#include <sstream>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/cost.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"

using namespace rl::hlo;

namespace {

// The integers between the first '{' (or '[') after `key` and its closer:
// "lhs_contracting_dims={1,2}" → {1, 2}; in JSON, "lhs_contracting_dimensions":["1"] → {1}. Quotes
// and backslashes are skipped.
std::vector<long long> ints_after(const std::string& text, const std::string& key, bool* found) {
  std::vector<long long> out;
  *found = false;
  auto at = text.find(key);
  if (at == std::string::npos) return out;
  auto open = text.find_first_of("{[", at + key.size());
  if (open == std::string::npos) return out;
  auto close = text.find_first_of("}]", open);
  if (close == std::string::npos) return out;
  *found = true;
  std::string inside = text.substr(open + 1, close - open - 1);
  for (char& c : inside)
    if (c == '"' || c == '\\') c = ' ';
  std::istringstream in(inside);
  std::string item;
  while (std::getline(in, item, ','))
    if (item.find_first_of("0123456789") != std::string::npos) out.push_back(std::stoll(item));
  return out;
}

// The files MANIFEST.tsv marks intentionally invalid (its notes column says
// "INTENTIONALLY-INVALID(why)"), each with the ops of its main_ops column ("top:add,not" → add,
// not).
std::map<std::string, std::vector<std::string>> intentionally_invalid(const std::string& dir) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream manifest(rl::testing::read_file(dir + "/MANIFEST.tsv"));
  std::string line;
  while (std::getline(manifest, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, '\t');) cells.push_back(cell);
    if (cells.size() < 7 || cells[6].find("INTENTIONALLY-INVALID") == std::string::npos) continue;
    std::vector<std::string> ops;
    auto top = cells[5].find("top:");
    if (top != std::string::npos) {
      std::istringstream names(cells[5].substr(top + 4));
      for (std::string name; std::getline(names, name, ',');) ops.push_back(name);
    }
    out[cells[0]] = ops;
  }
  return out;
}

}  // namespace

TEST_CASE("every HLO corpus file parses, verifies and costs, except those marked invalid",
          "[hlo][corpus]") {
  SKIP_WITHOUT_CORPUS("hlo");
  const std::string dir = rl::testing::corpus_dir() + "/hlo";
  auto files = rl::testing::list_files(dir, ".hlo");
  REQUIRE(!files.empty());  // as many as the corpus holds
  const auto invalid = intentionally_invalid(dir);
  int passed = 0, modules = 0, refused = 0;
  double bytes = 0, seconds = 0;
  std::string failures;
  for (const auto& f : files) {
    const std::string text = rl::testing::read_file(dir + "/" + f);
    auto t0 = std::chrono::steady_clock::now();
    auto parsed = parse_hlo(text);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bytes += static_cast<double>(text.size());
    auto r = analyze(text);
    auto marked = invalid.find(f);
    if (marked != invalid.end()) {
      INFO(f << " (marked invalid): " << (r.ok() ? std::string("accepted") : r.error()));
      CHECK_FALSE(r.ok());
      bool names_an_op = false;
      for (const auto& op : marked->second)
        names_an_op =
            names_an_op || (!r.ok() && r.error().find(": error: " + op) != std::string::npos);
      CHECK(names_an_op);
      ++refused;
      continue;
    }
    if (r.ok() && !r->empty()) {
      ++passed;
      modules += static_cast<int>(r->size());
      for (const auto& a : r.value()) CHECK(a.dialect == "hlo");
    } else {
      failures += f + ": " + (r.ok() ? std::string("no module") : r.error()) + "\n";
    }
  }
  INFO(passed << " of " << files.size() - invalid.size() << " analysed; failures:\n" << failures);
  CHECK(passed + refused == static_cast<int>(files.size()));
  CHECK(modules >= 120);
  WARN("HLO corpus: " << passed << " files, " << refused << " marked invalid and refused, "
                      << modules << " modules; parsed " << bytes / 1e6 << " MB at "
                      << bytes / 1e6 / seconds << " MB/s");
}

TEST_CASE("every HLO corpus dot costs 2 x result elements x contracting sizes", "[hlo][corpus]") {
  SKIP_WITHOUT_CORPUS("hlo");
  const std::string dir = rl::testing::corpus_dir() + "/hlo";
  int dots = 0, gemms = 0;
  for (const auto& f : rl::testing::list_files(dir, ".hlo")) {
    auto mods = parse_hlo(rl::testing::read_file(dir + "/" + f));
    REQUIRE(mods.ok());
    for (const auto& m : mods.value()) {
      auto analysis = analyze_module(m);
      INFO(f << ": " << (analysis.ok() ? "" : analysis.error()));
      REQUIRE(analysis.ok());
      std::map<std::pair<int, int>, const OpCost*> by_place;
      for (const auto& r : analysis->ops) by_place[std::make_pair(r.line, r.column)] = &r;
      for (const auto& fn : m.functions)
        for (const auto& op : fn.body.blocks.at(0).ops) {
          const bool dot = op.name == "dot";
          const Attribute* t = fn.attr(op, "custom_call_target");
          std::string target = t ? std::string(t->value) : "";
          const bool gemm = op.name == "custom-call" &&
                            target.find("__cublas$") != std::string::npos &&
                            target.find("matmul") + target.find("gemm") != 2 * std::string::npos;
          if (!dot && !gemm) continue;
          std::string attrs;
          for (const auto& a : fn.attributes(op))
            attrs += std::string(a.name) + "=" + std::string(a.value) + "; ";
          INFO(f << ":" << op.line << ":" << op.column << " " << attrs.substr(0, 400));
          REQUIRE(by_place.count(std::make_pair(op.line, op.column)) == 1);
          const OpCost& row = *by_place[std::make_pair(op.line, op.column)];
          REQUIRE(fn.operands(op).size() >= 2);
          REQUIRE(fn.results(op).size() == 1);
          const Type& lhs = m.value_type(fn, fn.operands(op)[0]);
          const Type& whole = m.value_type(fn, fn.results(op)[0]);
          const Type& out = whole.kind == Type::Kind::Tuple ? whole.tuple.at(0) : whole;
          bool found = false;
          auto contracting = dot ? ints_after(attrs, "lhs_contracting_dims=", &found)
                                 : ints_after(attrs, "lhs_contracting_dimensions", &found);
          double expected = 2;
          for (auto d : out.dims) expected *= static_cast<double>(d);
          for (auto c : contracting)
            expected *= static_cast<double>(lhs.dims.at(static_cast<std::size_t>(c)));
          CHECK(row.modeled);
          CHECK(row.flops == expected);
          ++(dot ? dots : gemms);
        }
    }
  }
  INFO(dots << " dots and " << gemms << " cuBLAS GEMMs checked");
  CHECK(dots >= 150);
  CHECK(gemms >= 10);
}
