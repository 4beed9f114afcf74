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

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hlo/cost.h"
#include "hlo/fuse.h"

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

// A text's totals: its modules' (those that analysed) summed in order, as the JSON's file-level
// totals, unmodeled ops (each op once, in the order the modules name them) and notes.
struct TextTotals {
  double flops = 0, transcendentals = 0, bytes_accessed = 0, unfused_bytes_accessed = 0;
  double bytes_accessed_output = 0, collective_bytes = 0, minimum_traffic_bytes = 0;
  std::map<int, double> bytes_accessed_operand;
  std::vector<std::pair<std::string, int>> unmodeled;
  std::vector<std::string> notes;

  void add(const Analysis& module);
  // flops / bytes_accessed; NaN without bytes.
  double intensity() const;
};

// The largest text the core analyses at once: past it, a clear error names the size and the
// limit. Measured in wasm (2 GiB heap): a dense HLO module of 260 MB peaks at 1.13 GiB of heap
// (4.5 bytes per byte of text), a StableHLO one at about 3.7 bytes per byte; its rows then take
// about as much JavaScript memory. Texts of very short ops or of a new shape per op need up to
// 8–15 bytes per byte; those meet the core's memory checks (common/memory.h), which refuse with
// an error before the heap runs out, rather than this limit.
constexpr std::size_t kMaxTextBytes = std::size_t(256) << 20;  // 256 MiB
// The JSON text crosses to JavaScript as one string: V8's longest is 2^29 − 24 one-byte characters.
constexpr std::size_t kMaxReportBytes = (std::size_t(1) << 29) - 64;

// "the text is 286.1 MiB (300000000 bytes), more than the 256.0 MiB (268435456 bytes) the core
// can analyse at once"; `at_least` when `bytes` is a lower bound (JavaScript's count of UTF-16
// units).
Error text_too_big(std::size_t bytes, bool at_least);

// Parses (a parse error fails the whole text, with its line and column), then verifies and
// costs each module on its own (the rows keeping what `options` asks). Takes the text over (the
// modules keep views into it).
Result<TextAnalysis> analyze_text(std::string text, const AnalyzeOptions& options = {});

// The JSON above; the second form consumes the analysis, freeing each module's rows as soon as
// they are written (a big text's rows and its JSON are not held together).
std::string to_json(const TextAnalysis& analysis);
std::string to_json(TextAnalysis&& analysis);

// Receives the rows' number columns, module by module (`module`: the index in the JSON's modules
// array): top_level, line, column, op, type, function, note and modeled as 32-bit integers;
// flops, transcendentals, bytes_accessed, unfused_bytes_accessed, output_bytes and
// collective_bytes as 32-bit integers when every value of the column is one, else as doubles
// (NaN and infinities as they are); and the operand byte lists, each
// distinct list once: operand_bytes (the lists' values one after another), operand_bytes_start
// (list k is values [start[k], start[k + 1])) and operand_bytes_list (each row's list).
class RowColumnSink {
 public:
  virtual ~RowColumnSink() = default;
  virtual void column(std::size_t module, const char* name, const std::vector<double>& values) = 0;
  virtual void column(std::size_t module, const char* name,
                      const std::vector<std::int32_t>& values) = 0;
};

// The report as the bindings send it: the JSON above without the rows' number columns and
// operand_bytes, which go to `columns` instead (JavaScript receives them as typed arrays: no
// number is formatted or parsed). Consumes the analysis as the form above does. Fails, naming
// the sizes, when the heap has no room for the text (common/memory.h).
Result<std::string> to_json(TextAnalysis&& analysis, RowColumnSink& columns);

// The fused analysis of a whole text (`node scripts/analyze.mjs --fused`): per module, the
// fusion pass's fusions (fuse.h; a module with fusions of its own keeps them) and the fused
// module as XLA prints HLO, with the unfused and the fused totals side by side. JSON:
//   {dialect, modules: [FusedModule | {module_name, module_line, error, message, line, column}],
//    totals: Totals, fused_totals: Totals, errors: [{module_name, error, message, line, column}]}
//   FusedModule: {module_name, entry, already_fused, calls_inlined, calls_kept, text,
//                 totals: Totals, fused_totals: Totals,
//                 fusions: [{name, kind, function, ops: [{line, column, op}], flops,
//                            transcendentals, bytes_accessed, unfused_bytes_accessed,
//                            bytes_saved}]}
//   Totals: {flops, transcendentals, bytes_accessed}: the entry's, unfused (every op alone) or
//   fused (each fusion counted at its boundary); the file's summed over its modules.
// A parse error fails the whole text; a module that does not verify carries its error.
Result<std::string> fused_json(std::string text, const FuseOptions& options = FuseOptions());

}  // namespace rl::hlo
