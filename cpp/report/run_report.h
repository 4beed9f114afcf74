// A run of a whole text, as `node scripts/run.mjs --json` and the page show it: every module of
// the text is lowered and run (a file passes when every module passes), each of the entry's own
// ops carries its measured time beside the cost analysis's flops and bytes for the same op, so
// achieved GFLOP/s and GB/s follow. The measured numbers are measurements of this machine; the
// flops and bytes are estimates from the IR.
//
// JSON: {dialect, status: "passed" | "failed" | "not_run" | "error",
//        checks: [{line, column, kind, passed, detail}],
//        ops: [{line, column, op, seconds, repeats, flops, transcendentals, bytes_accessed}],
//        fused: the run fused (RunOptions::fuse), fusions: [{name, kind, line, column (its root),
//          ops: [{line, column, op}], seconds, repeats, flops, transcendentals, bytes_accessed,
//          fallback, within}] (the fusions that ran; counts as XLA counts a fusion; ops then
//          lists only the ops that ran alone; within: null for the entry's own fusions, else
//          {line, column, op} of the entry op whose while, call or region body holds it — such a
//          fusion is listed once, untimed (seconds 0, repeats 0): its time is in that op's),
//        unsupported: [{op, line, column, why}],
//        errors: [{error, message, line, column}],
//        results: [{shape, checksum, preview}], inputs, seconds, ops_seconds, untimed_ops,
//        peak_bytes, memory_need_bytes}
// seconds: the whole run, wall clock (with the timing's repeats); ops_seconds: the timed ops'
// and fusions' per-execution times summed (the program's measured time, set beside its lower
// bound); untimed_ops: the entry ops run untimed once RunOptions::timing_budget_seconds was spent.
// peak_bytes: the live tensors' peak, measured; memory_need_bytes: what the program needs at most
// by its IR (interp::memory_need), an estimate known before it runs.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "interp/interp.h"

namespace rl::report {

// A result as NumPy's .npy bytes (run.mjs --out, the page's download): named result_N.npy, N
// counting the results in order across the text's modules, a tuple's elements one by one (depth
// first); `error` says why one has no bytes (a type .npy cannot hold, a token).
struct ResultFile {
  std::string name;
  std::string bytes;
  std::string error;
};

// Parses, verifies, lowers and runs every module of `text`; never fails: a parse error is a
// status "error" with the error's place. With `files`, the results of a run that finished are
// also written there as .npy files.
std::string run_text_json(std::string text, const interp::RunOptions& options,
                          std::vector<ResultFile>* files = nullptr);

}  // namespace rl::report
