// StableHLO's own verifier tests (../shared/corpus/stablehlo-invalid, lit files split by
// `// -----`, each invalid part annotated `// expected-error @+N {{message}}`): how many of the
// errors about shape and type rules — the contract verify.cpp owns — this core catches, and
// where. The count is reported, not fixed (the corpus may grow); what is asserted can fail
// honestly: every refusal is an error with a place, never a crash; the kinds of error we claim
// to catch are all caught, at the annotated line; the count stays at or above what was measured.
#include <map>
#include <set>
#include <sstream>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"
#include "hlo/verify.h"

using namespace rl::hlo;

namespace {

struct Expected {
  int line = 0;  // 1-based, in the part
  std::string message;
};

struct Part {
  int first_line = 1;  // in the file
  std::string text;
  std::vector<Expected> expected;
};

// lit's split-input-file parts with their expected-error annotations. `@+N`/`@-N` point N lines
// below/above the annotation, `@above`/`@below` one line; no `@` means the annotation's own line.
std::vector<Part> parts_of(const std::string& file_text) {
  std::vector<Part> parts(1);
  std::istringstream in(file_text);
  std::string line;
  int lineno = 0, in_part = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.rfind("// -----", 0) == 0) {
      parts.emplace_back();
      parts.back().first_line = lineno + 1;
      in_part = 0;
      continue;
    }
    ++in_part;
    Part& p = parts.back();
    p.text += line + "\n";
    const auto at = line.find("expected-error");
    if (at == std::string::npos) continue;
    const auto open = line.find("{{", at), close = line.rfind("}}");
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    Expected e{in_part, line.substr(open + 2, close - open - 2)};
    const std::string between = line.substr(at, open - at);
    const auto sign = between.find('@');
    if (sign != std::string::npos) {
      const std::string where = between.substr(sign + 1);
      if (where.rfind("above", 0) == 0)
        e.line -= 1;
      else if (where.rfind("below", 0) == 0)
        e.line += 1;
      else if (where.size() > 1 && (where[0] == '+' || where[0] == '-'))
        e.line += (where[0] == '-' ? -1 : 1) * std::atoi(where.c_str() + 1);
    }
    p.expected.push_back(e);
  }
  return parts;
}

bool contains(const std::string& s, const char* key) { return s.find(key) != std::string::npos; }

// An expected error about a shape or type rule (what verify.cpp and infer.cpp own): operand,
// result and region types, inferred result types, dimension numbers, sizes and ranks. Out of
// scope: the custom assembly's spelling, attribute value constraints, collectives' replica
// groups and channels, quantization, dot algorithms, layouts and tokens.
bool in_scope(const std::string& m) {
  for (const char* out : {"custom op",
                          "expected '",
                          "failed parsing",
                          "failed to parse",
                          "attribute '",
                          "replica",
                          "channel",
                          "quant",
                          "algorithm",
                          "ResultAccuracy",
                          "tolerances",
                          "layout",
                          "token",
                          "namespaced op name",
                          "unknown stablehlo type",
                          "expected non-function type",
                          "precision config",
                          "memref",
                          "commutative binary-op",
                          "has_dynamic_root",
                          "non-negative",
                          "must be positive",
                          "unregistered"})
    if (contains(m, out)) return false;
  for (const char* in : {"type", "shape", "dimension", "rank", "size", "compatible", "operand",
                         "result", "argument", "parameter", "return"})
    if (contains(m, in)) return true;
  return false;
}

// The kinds of expected error this core claims to catch, each at the annotated line: every part
// whose message names one of them must be refused there.
const char* claimed_kind(const std::string& m) {
  for (const char* kind :
       {"broadcast_dimensions contains invalid value", "broadcast_dimensions size",
        "contracting dimension sizes must match", "batching dimension sizes must match",
        "expect operands to be compatible with body block return types",
        "expect operands to be compatible with body block arguments",
        "expect operands to be compatible with condition block arguments"})
    if (contains(m, kind)) return kind;
  return nullptr;
}

}  // namespace

TEST_CASE(
    "StableHLO's invalid lit cases about shape and type rules: how many the verifier catches, and "
    "where",
    "[hlo][corpus][verify]") {
  SKIP_WITHOUT_CORPUS("stablehlo-invalid");
  const std::string dir = rl::testing::corpus_dir() + "/stablehlo-invalid";
  int cases = 0, scoped = 0, caught = 0, at_line = 0, by_parser = 0, valid = 0, valid_refused = 0;
  std::map<std::string, std::pair<int, int>> per_file;  // in scope: caught, cases
  std::map<std::string, int> claimed;                   // claimed kind: parts seen
  std::ostringstream refused_valid;
  const auto files = rl::testing::list_files(dir, ".mlir");
  for (const auto& f : files) {
    for (const Part& part : parts_of(rl::testing::read_file(dir + "/" + f))) {
      // Parse and verify only: every module, stopping at the first error, as the page does.
      rl::Error err;
      bool refused = false, parse_error = false;
      auto modules = parse_stablehlo(part.text);
      if (!modules) {
        refused = parse_error = true;
        err = modules.error_info();
      } else {
        for (const auto& m : modules.value()) {
          auto v = verify(m);
          if (!v) {
            refused = true;
            err = v.error_info();
            break;
          }
        }
      }
      if (refused) {
        INFO(f << " part at line " << part.first_line << ": " << err.message);
        CHECK(err.message.find(": error: ") != std::string::npos);
        CHECK(err.line >= 1);
      }
      if (part.expected.empty()) {
        // A valid program: refusing it is a false alarm unless our parser does not read it.
        ++valid;
        if (refused && !parse_error) {
          ++valid_refused;
          refused_valid << "  " << f << ":" << part.first_line + err.line - 1 << ": "
                        << err.without_place() << "\n";
        }
        continue;
      }
      ++cases;
      bool scope = false;
      const char* kind = nullptr;
      for (const auto& e : part.expected) {
        scope = scope || in_scope(e.message);
        if (!kind) kind = claimed_kind(e.message);
      }
      bool on_line = false;
      for (const auto& e : part.expected) on_line = on_line || (refused && err.line == e.line);
      if (kind) {
        ++claimed[kind];
        INFO(f << " part at line " << part.first_line << " expects {{"
               << part.expected.front().message << "}}; got "
               << (refused ? err.message : std::string("no error")));
        CHECK(on_line);
      }
      if (!scope) continue;
      ++scoped;
      ++per_file[f].second;
      if (refused) {
        ++caught;
        ++per_file[f].first;
        if (parse_error) ++by_parser;
        if (on_line) ++at_line;
      }
    }
  }
  std::ostringstream summary;
  for (const auto& [f, c] : per_file)
    summary << "  " << f << ": " << c.first << " of " << c.second << "\n";
  std::ostringstream kinds;
  for (const auto& [k, n] : claimed) kinds << "  " << k << ": " << n << " parts\n";
  WARN(caught << " of " << scoped << " invalid parts about shape and type rules are refused ("
              << at_line << " at the annotated line, " << by_parser << " by the parser), of "
              << cases << " invalid parts in " << files.size() << " files:\n"
              << summary.str() << "claimed kinds, all required at their line:\n"
              << kinds.str() << valid_refused << " of " << valid
              << " valid parts refused by the verifier:\n"
              << refused_valid.str());
  // Any refusal of a valid part is a false alarm (a splat padding, `dense<2> : tensor<2x2xi64>`,
  // once refused 2 valid convolutions).
  CHECK(valid_refused == 0);
  CHECK(caught >= 122);  // measured: 122 of 363 with the region rules, the result types of
                         // reduce, sort, map, scatter, reduce_window and select_and_scatter, and
                         // the StableHLO element types of infer.cpp's elementwise rules (93 before)
}
