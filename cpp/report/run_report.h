// A run of a whole text, as `node scripts/run.mjs --json` and the page show it: every module of
// the text is lowered and run (a file passes when every module passes), each of the entry's own
// ops carries its measured time beside the cost analysis's flops and bytes for the same op, so
// achieved GFLOP/s and GB/s follow. The measured numbers are measurements of this machine; the
// flops and bytes are estimates from the IR.
//
// JSON: {dialect, status: "passed" | "failed" | "not_run" | "error",
//        checks: [{line, column, kind, passed, detail}],
//        ops: [{line, column, op, seconds, repeats, flops, transcendentals, bytes_accessed}],
//        fused: the run fused (RunOptions::fuse), dot_epilogues: its fusion rule (false: a dot's
//          epilogue fused only as XLA's CPU backend fuses it; RunOptions::fusion),
//        fusions: [{name, kind, line, column (its root),
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

// A run's options as the page and the CLIs give them (the bindings read the JS values; these rules
// judge them, each refusal naming its option as the error's input).
//
// A run starts fused (as a compiler would fuse it) under default_memory_cap(): what the heap can
// still give (it grows to RL_HEAP_MAX, 2 GiB), at least the interpreter's own default (a heap that
// cannot give that much fails the allocation with an error, never an abort).
std::size_t default_memory_cap();
interp::RunOptions default_run_options();
// How the inputs of an entry with arguments are made: "none", "seeded" or "arange" (`shown`: how a
// refused value is named, "\"x\"" or the type of a value that is not a string).
Result<interp::Inputs> run_inputs(const std::string& name, const std::string& shown);
// The options that are numbers, in the order they are judged: seed (0 to 2^53 − 1), memory_cap (1
// to 2^32), max_iterations (1 to 1e12), time_budget_seconds (1 to 86400), all integers, and
// timing_budget_seconds (seconds, 0 to 86400).
inline constexpr const char* kRunNumberOptions[] = {"seed", "memory_cap", "max_iterations",
                                                    "time_budget_seconds", "timing_budget_seconds"};
// Sets option `key` (one of kRunNumberOptions) in `o`, or refuses `value` by that option's rule.
Result<bool> set_run_number(interp::RunOptions& o, const std::string& key, double value);

// Parses, verifies, lowers and runs every module of `text`; never fails: a parse error is a
// status "error" with the error's place. With `files`, the results of a run that finished are
// also written there as .npy files.
std::string run_text_json(std::string text, const interp::RunOptions& options,
                          std::vector<ResultFile>* files = nullptr);

}  // namespace rl::report
