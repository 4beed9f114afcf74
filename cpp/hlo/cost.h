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
// cost.cpp). Custom calls: cuBLAS GEMMs as dots; any other target unmodeled.
// Plain data, so the bindings can hand it to JS as it is.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "hlo/ir.h"

namespace rl::hlo {

struct OpCost {
  int line = 0, column = 0;
  std::string op;        // as written: "stablehlo.dot_general", "dot"
  std::string shape;     // result type as the dialect prints it
  std::string function;  // enclosing function / computation
  double flops = 0, transcendentals = 0, bytes_accessed = 0, output_bytes = 0, collective_bytes = 0;
  // bytes_accessed if fusions did not exist: for a fusion (or a call, while, conditional holding
  // fusions) the fused ops' own bytes summed; for any other op equal to bytes_accessed.
  double unfused_bytes_accessed = 0;
  std::vector<double> operand_bytes;  // bytes read of operand i
  double intensity = 0;               // flops / bytes_accessed; NaN when no bytes are accessed
  bool modeled = true;
  std::string note;
};

struct Analysis {
  std::string dialect;      // "stablehlo" | "hlo"
  std::string module_name;
  std::string entry;        // the entry function / computation analysed
  std::vector<OpCost> ops;  // the entry's ops that carry cost or lack a rule, in order
  double flops = 0, transcendentals = 0, bytes_accessed = 0, bytes_accessed_output = 0;
  double collective_bytes = 0;
  double unfused_bytes_accessed = 0;  // bytes_accessed with every fusion's ops counted apart
  double minimum_traffic_bytes = 0;  // entry arguments + results, each once
  double intensity = 0;              // flops / bytes_accessed (NaN when 0 bytes)
  std::map<int, double> bytes_accessed_operand;  // XLA's `bytes accessed{N}{}`
  std::vector<std::pair<std::string, int>> unmodeled;  // op name, count
  std::vector<std::string> notes;
};

// Costs of one parsed (and verified) module.
Result<Analysis> analyze_module(const Module& module);

// Rows for every op of every function, nested regions included, each costed where it is
// written (a reducer's add costs one element; the reduce row carries the repeats).
Result<std::vector<OpCost>> op_costs(const Module& module);

// Parses (dialect detected from the text), verifies and costs every module of the text.
Result<std::vector<Analysis>> analyze(std::string_view text);

// The op family name shared by both dialects: "stablehlo.dot_general" → "dot",
// "stablehlo.broadcast_in_dim" → "broadcast", "log_plus_one" → "log-plus-one", "add" → "add".
std::string canonical_op(std::string_view name);

}  // namespace rl::hlo
