// Cost analysis with XLA's HloCostAnalysis counting rules, over the one IR.
//
// flops: dot 2·(output elements)·(contracting sizes); elementwise 1 per output element;
// transcendentals (exp, log, tanh, ...) counted apart with 0 flops; reduce (in − out elements)
// × the reducer's cost; convolution by XLA's valid-window-position count; data movement 0.
// bytes accessed: operands + output per op, with XLA's special cases (slice, dynamic-slice and
// gather read only the output's bytes; dynamic-update-slice and scatter touch the update).
// Constants, parameters, get-tuple-element and returns cost nothing; a tuple writes its index
// table (8 bytes per element, in both dialects, as do multi-result ops). Ops without a rule
// are listed as unmodeled with a count, never counted as zero silently. Calls cost their callee.
// Fusions: the fused computation's flops and transcendentals, bytes only at the fusion boundary
// (XLA's HandleFusion); unfused_bytes_accessed keeps the sum of the fused ops' own bytes, so the
// traffic a fusion saves is unfused_bytes_accessed − bytes_accessed. While loops: body and
// condition × known_trip_count from backend_config, else once (with a note). Collectives:
// collective_bytes, what one device sends in a ring over its replica group (formulas in
// cost_rules.cpp). Custom calls: cuBLAS GEMMs as dots; any other target unmodeled.
//
// The rules are one per op family (the op table's cost column, ops.inc), in cost_rules.cpp.
// One pass: every function is costed once (memoized), producing its rows and its totals.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hlo/ir.h"

namespace rl::hlo {

// One row per op that carries cost or lacks a rule (constants, parameters, returns, tuples'
// elements... are left out), in every function, nested regions included.
struct OpCost {
  int line = 0, column = 0;
  std::string_view op;  // as written: "stablehlo.dot_general", "dot" (a view into the source)
  std::uint32_t function = 0;  // index in Analysis::functions
  TypeId type = 0;  // the result type (several results: a tuple of them), in Analysis::types
  double flops = 0, transcendentals = 0, bytes_accessed = 0, output_bytes = 0;
  // What few rows have (Analysis::extras, read through Analysis::unfused_bytes, collective_bytes_of
  // and note): 0 for a row without collective bytes or a note whose unfused bytes are its bytes.
  // A row is 64 bytes in wasm32 (a 12 MB module has 200,000 of them).
  std::uint32_t extra = 0;
  bool modeled = true;
  bool top_level = false;  // one of the entry's own ops, the ones the totals add up
};

// A row's rarer counts (OpCost::extra).
struct OpCostExtra {
  // bytes_accessed if fusions did not exist: for a fusion (or a call, while, conditional holding
  // fusions) the fused ops' own bytes summed; for any other op equal to bytes_accessed.
  double unfused_bytes_accessed = 0;
  double collective_bytes = 0;
  std::uint32_t note = 0;  // index in Analysis::notes_pool (0: no note)
};

struct Analysis {
  std::string dialect;  // "stablehlo" | "hlo"
  std::string module_name;
  std::string entry;        // the entry function / computation analysed
  std::vector<OpCost> ops;  // every function's rows, in text order per function
  double flops = 0, transcendentals = 0, bytes_accessed = 0, bytes_accessed_output = 0;
  double collective_bytes = 0;
  double unfused_bytes_accessed = 0;  // bytes_accessed with every fusion's ops counted apart
  double minimum_traffic_bytes = 0;   // entry arguments + results, each once
  double intensity = 0;               // flops / bytes_accessed (NaN when 0 bytes)
  std::map<int, double> bytes_accessed_operand;        // XLA's `bytes accessed{N}{}`
  std::vector<std::pair<std::string, int>> unmodeled;  // op name, count
  std::vector<std::string> notes;

  // What the rows refer to. The source keeps the rows' views alive (shared with the module).
  std::shared_ptr<const std::string> source;
  std::vector<std::string_view> functions;         // names, by OpCost::function
  std::vector<Type> types;                         // by OpCost::type
  std::vector<OpCostExtra> extras{OpCostExtra()};  // by OpCost::extra; [0]: a row without any
  // By row of `ops` (empty when analysed without operand bytes, AnalyzeOptions): the bytes read of
  // each of its operands, in operand_bytes_pool.
  std::vector<Range> operand_ranges;
  std::vector<double> operand_bytes_pool;
  std::vector<std::string> notes_pool{""};

  const Type& type(const OpCost& r) const { return types[r.type]; }
  std::string shape(const OpCost& r) const { return to_string(types[r.type], dialect); }
  std::string_view function(const OpCost& r) const { return functions[r.function]; }
  double unfused_bytes(const OpCost& r) const {
    return r.extra ? extras[r.extra].unfused_bytes_accessed : r.bytes_accessed;
  }
  double collective_bytes_of(const OpCost& r) const { return extras[r.extra].collective_bytes; }
  // Index in notes_pool (0: no note), and the note.
  std::uint32_t note_index(const OpCost& r) const { return extras[r.extra].note; }
  const std::string& note(const OpCost& r) const { return notes_pool[note_index(r)]; }
  // The operand bytes of ops[row] (none when analysed without them).
  Span<double> operand_bytes(std::size_t row) const {
    if (row >= operand_ranges.size()) return {nullptr, 0};
    return {operand_bytes_pool.data() + operand_ranges[row].begin, operand_ranges[row].count};
  }
  // flops / bytes_accessed; NaN when no bytes are accessed.
  static double intensity_of(const OpCost& r);
  // The entry's own rows (the ones the totals add up), in order.
  std::vector<const OpCost*> top_level() const;
};

// What each row keeps beyond its counts. operand_bytes: the bytes read of each of its operands
// (Analysis::operand_bytes, the JSON's per-op `bytes_accessed_operand`); the CLI's table shows
// none and leaves them out (a double per operand: 4 MB of a 12 MB module's 65 MB). The totals,
// the entry's per-operand bytes included, are the same either way.
struct AnalyzeOptions {
  bool operand_bytes = true;
};

// Costs of one parsed (and verified) module: rows for every op and the entry's totals.
Result<Analysis> analyze_module(const Module& module);
// The same, taking the module's types over instead of copying them (the module is spent).
Result<Analysis> analyze_module(Module&& module, const AnalyzeOptions& options = {});

// A grouping of ops into fusions (fuse.h makes one, after XLA's fusion rules). The cost walk then
// counts each fusion's bytes once, at its root, as XLA's HandleFusion counts a fusion instruction
// (`bytes`: its parameters as FusionParameterReadBytes reads them, and its output), and no bytes
// for the other ops in it; every op's flops and transcendentals count as before, and every row
// keeps its own bytes as unfused_bytes_accessed.
struct FusionGroups {
  std::unordered_map<const Op*, std::uint32_t> fusion_of;  // an op of the module → its fusion
  std::vector<const Op*> root;                             // by fusion: its last op (the output)
  std::vector<double> bytes, output_bytes;                 // by fusion: at its boundary; its output
};
// What the walk counted per fusion, for one execution of it: sums over its ops.
struct FusionCounts {
  double flops = 0, transcendentals = 0, unfused_bytes_accessed = 0;
};
// The costs of a module with its ops grouped: bytes_accessed fused, unfused_bytes_accessed as if
// every op ran alone; `counts` gets one entry per fusion of `groups`.
Result<Analysis> analyze_module(const Module& module, const FusionGroups& groups,
                                std::vector<FusionCounts>* counts);

// Parses (dialect detected from the text), verifies and costs every module of the text.
Result<std::vector<Analysis>> analyze(std::string_view text);

}  // namespace rl::hlo
