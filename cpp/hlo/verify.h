// The operation and shape contract, the one gate before costing (report.cpp's analyze_text,
// cost.cpp's analyze) and before running (lower.cpp's lower, the interpreter's door):
// - every operand has the type the op's written signature gives it (StableHLO, any region);
// - a function's return gives its result types; a call matches its callee's signature; a
//   while's regions take and give its operands' types; case/if branches give its results';
// - the rules of the ops that carry cost: dot_general, elementwise ops (one element type),
//   broadcast_in_dim, reshape, transpose, concatenate, reduce, convolution (its result shape);
// - StableHLO's region ops: reduce's, reduce_window's, sort's, map's, scatter's and
//   select_and_scatter's bodies take and give the types their operands call for, and their
//   results follow (tests/cpp/hlo/verify_ops_test.cpp has a case for every op with a rule);
// - StableHLO elementwise ops: the result type infer.cpp's unary/binary rule gives (compare and
//   is_finite give i1, real/imag/abs of a complex its part, complex a complex);
// - HLO: every written shape is the one shape inference gives (infer.h, check_written_shapes).
// A violation is an error "LINE:COL: error: WHAT — expected RULE, got VALUE" at the op. Ops with
// dynamic or unknown shapes are checked only where their shapes are known.
#pragma once

#include <string>

#include "common/result.h"
#include "hlo/decode.h"
#include "hlo/ir.h"

namespace rl::hlo {

Result<bool> verify(const Module& module);

// rng_bit_generator's rules, which its kernel reads too: its results as (new state, values) —
// two (StableHLO), one tuple of two (HLO), or the values alone (HLO; *state null) — false for
// any other form; and the state words its algorithm takes: "" when `words` fits, else the rule
// ("2 (THREE_FRY)", "2 or 3 (PHILOX)"; DEFAULT's count is the implementation's).
bool rng_results(const OpView& op, const Type** state, const Type** values);
std::string rng_words_rule(RngAlgorithm algorithm, std::int64_t words);

}  // namespace rl::hlo
