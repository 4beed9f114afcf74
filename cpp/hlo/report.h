// The analysis of a whole text, as the page and `node scripts/analyze.mjs` show it: parse,
// then per module verify and cost (a module that does not verify carries its error, the others
// are still analysed), the file's totals summed over its modules, and the JSON text that crosses
// to JavaScript (one call: building it key by key through Embind would dominate the time).
//
// JSON (value of analyzeText):
//   {dialect, modules: [Module | {module_name, module_line, error, line, column}],
//    totals: {flops, transcendentals, bytes_accessed, unfused_bytes_accessed,
//             bytes_accessed_operand: {"0": …}, bytes_accessed_output, collective_bytes,
//             minimum_traffic_bytes, intensity},
//    unmodeled: [{op, count}], notes: [..], errors: [{module_name, error, line, column}]}
//   Module: {module_name, entry, totals, unmodeled, notes,
//            rows: {count, strings: [..], types: [{shape, element_type, dims}],
//                   top_level, line, column, op, type, function, note (string index or -1),
//                   flops, transcendentals, bytes_accessed, unfused_bytes_accessed,
//                   output_bytes, collective_bytes, modeled, operand_bytes}}
// Rows travel as columns (one array per field, strings and types listed once): a module of
// millions of ops would otherwise need JSON text larger than a JavaScript string may be.
// web/core.js turns them back into one object per op, adding each row's intensity (flops /
// bytes_accessed, the division Analysis::intensity_of does; null without bytes).
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "hlo/cost.h"

namespace rl::hlo {

struct ModuleResult {
  std::string name;
  int line = 0;
  Result<Analysis> analysis = Result<Analysis>::failure("not analysed");
};

struct TextAnalysis {
  std::string dialect;
  std::vector<ModuleResult> modules;
};

// Limits on what one text may be: past them, a clear error names the size and the limit.
constexpr std::size_t kMaxTextBytes = std::size_t(1) << 30;  // 1 GiB

// Parses (a parse error fails the whole text, with its line and column), then verifies and
// costs each module on its own. Takes the text over (the modules keep views into it).
Result<TextAnalysis> analyze_text(std::string text);

// The JSON above.
std::string to_json(const TextAnalysis& analysis);

}  // namespace rl::hlo
