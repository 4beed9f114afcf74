// The interpreter: runs a lowered StableHLO module (hlo::Program) on tensors, in wasm and
// natively, evaluates its check calls, and times its ops.
//
// A module runs only after it verifies and lowers, and only when every op reachable from the
// entry has a kernel for its element types: otherwise nothing runs, and every op that cannot run
// is named with its line:col (never a silent skip, never a guessed result). Bad input and limits
// are errors at an op's line:col, never an abort: tensors past the memory cap, a while loop past
// the iteration cap, a run past its time budget.
//
// One function per op family (ops_*.cpp), shaped after the StableHLO spec, with raw typed loops
// chosen once per (op, element type); f32 elementwise ops and dot_general run through the wasm
// SIMD kernels. Region bodies that are one add/multiply/max/min/and/or/xor (reducers), a plain
// replace or add (scatter) or a plain comparison (sort) run natively; other bodies are evaluated.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/result.h"
#include "hlo/fuse.h"
#include "hlo/ir.h"
#include "hlo/lower.h"
#include "interp/npy.h"
#include "interp/value.h"

namespace rl::interp {

constexpr std::size_t kDefaultMemoryCap = std::size_t(256) << 20;  // live tensor bytes
constexpr std::uint64_t kDefaultMaxIterations = 10'000'000;        // of one while loop

// How an entry function's arguments are made: none (an entry without arguments), deterministic
// values from a seed, arange(size)/size, or given arrays (RunOptions::args, e.g. .npy files).
enum class Inputs { None, Seeded, Arange, Given };

struct RunOptions {
  Inputs inputs = Inputs::None;  // for an entry function with arguments
  // Inputs::Given: one array per argument, each checked against the entry's signature (element
  // type and shape, exactly: nothing is converted) before anything runs.
  std::vector<HostArray> args;
  std::uint64_t seed = 1;  // Inputs::Seeded
  std::size_t memory_cap = kDefaultMemoryCap;
  std::uint64_t max_iterations = kDefaultMaxIterations;
  double time_budget_seconds = 60;  // the whole run; past it, an error
  bool time_ops = false;            // measure each of the entry's own ops
  double min_op_seconds = 0;  // with time_ops: a timed op is repeated until it lasts this long
  // With time_ops: once this many seconds of the run have gone to timing ops, the later ops run
  // once, untimed (counted in RunResult::untimed_ops): a program of 10^4 small ops under a
  // browser's coarse timer would otherwise take minutes. 0: no limit.
  double timing_budget_seconds = 0;
  // Told how far the run is: `done` of the entry function's `total` own ops (return excluded),
  // once when it starts, then at most every progress_interval_seconds, and at the end. Empty: not
  // told. (The page's Worker passes each call on to its progress bar.)
  std::function<void(std::size_t done, std::size_t total)> on_progress;
  double progress_interval_seconds = 0.1;
  // Fuse as XLA does (hlo/fuse.h) and run each fusion as one unit (fused.h); false: op by op.
  bool fuse = false;
  // With fuse: the fusion rules (dot_epilogues false: a dot's epilogue fused only as XLA's CPU
  // backend fuses it).
  hlo::FuseOptions fusion;
};

// A check call's verdict. detail says how it failed: the first mismatching index, both values,
// the distance (ulps or absolute), and how many elements mismatched.
struct CheckOutcome {
  int line = 0, column = 0;
  std::string kind;  // "expect_eq", "expect_close", "expect_almost_eq", "eq"
  bool passed = false;
  std::string detail;
};

// An op the interpreter does not run (the module was not run because of it).
struct Unsupported {
  std::string op;
  int line = 0, column = 0;
  std::string why;
};

// One of the entry's own ops, timed: a measurement of this machine.
struct OpTiming {
  int line = 0, column = 0;
  std::string op;
  double seconds = 0;  // per execution
  std::uint64_t repeats = 0;
  // Run as a view of its operand (a reshape, a copy, a broadcast adding only ones...): its
  // result is the operand's buffer, so it moved none of the bytes the cost analysis counts.
  bool view = false;
};

// One fusion that ran: its time (when timed) beside XLA's counts for one execution of it
// (hlo::Fusion). A fusion inside a while, call or region body is listed once, untimed (its time
// is in the entry op that holds it, named by `within`).
struct FusionRun {
  std::string name, kind;         // "fusion.2", "kLoop"
  std::vector<hlo::FusedOp> ops;  // the ops it holds, the root last
  int line = 0, column = 0;       // its root's
  double seconds = 0;             // per execution (0: untimed)
  std::uint64_t repeats = 0;      // 0: untimed
  double flops = 0, transcendentals = 0, bytes_accessed = 0;
  std::string fallback;  // why it ran op by op inside the fusion ("" when fused)
  // The entry op holding it ("stablehlo.while" and its place); empty for the entry's own fusions.
  std::string within_op;
  int within_line = 0, within_column = 0;
};

struct ResultSummary {
  std::string shape;    // "tensor<4x5xf32>" (tuples: "tuple<...>")
  double checksum = 0;  // the sum of the elements as doubles (complex: real + imaginary parts);
                        // a tuple's: the sum of its elements' checksums
  std::string preview;  // the first few elements as text (a tuple: "tuple of 2: see elements")
  // FNV-1a (64-bit) of the result's bytes as XLA stores them, 16 hex digits: equal bits, equal
  // hash (NaN payloads and signed zeros count). A tuple's: of its elements' hashes in order.
  std::string bits;
  // A tuple's elements, one summary each (nested tuples likewise, kMaxResultDepth levels deep;
  // deeper tuples keep their shape and checksum but list no elements). Empty for a tensor.
  std::vector<ResultSummary> elements;
  bool tuple = false;  // the result is a tuple (its elements are listed, even none)
};
constexpr int kMaxResultDepth = 4;

struct RunResult {
  std::string status;  // "passed" | "failed" | "not_run" | "error"
  std::vector<CheckOutcome> checks;
  std::vector<Unsupported> unsupported;
  std::vector<Error> errors;
  std::vector<OpTiming> ops;       // ops that ran alone (a fused run: those in no fusion)
  std::vector<FusionRun> fusions;  // a fused run: its fusions, in the order they first ran (those
                                   // in bodies once each, with the entry op that holds them)
  bool fused = false;              // the run fused (RunOptions::fuse)
  std::vector<ResultSummary> results;
  std::vector<Value> values;  // the entry's results
  std::string
      inputs;  // how arguments were made: "none", "seeded (seed 1)", "arange", "a.npy, b.npy"
  double seconds = 0;           // the run, wall clock
  std::size_t untimed_ops = 0;  // entry ops run untimed once the timing budget was spent
  std::size_t peak_bytes = 0;   // of live tensors
  double memory_need_bytes =
      0;  // what the entry's values need at most by its IR (memory_need): an estimate
};

// How many bytes of live tensors a module's entry's values need at most, from its IR
// (memory_need.cpp): the peak of the lowered form's liveness and the op where it is reached. An
// estimate known before the run; ops' own scratch (sort's permutation...) comes on top of it.
struct MemoryNeed {
  double bytes = 0;
  int line = 0, column = 0;
  std::string op;  // where the peak is reached ("stablehlo.dot_general"; "the arguments")
};
MemoryNeed memory_need(const hlo::Program& program);

// Lists what in the module the interpreter cannot run (empty: everything can).
std::vector<Unsupported> unsupported_ops(const hlo::Program& program);

// Runs the entry function of a lowered module. A refused module (unsupported ops) gives status
// "not_run"; an error while running, status "error" with the error; otherwise "passed" or
// "failed" by its checks.
RunResult run_program(const hlo::Program& program, const RunOptions& options);

// The same run of a module not yet lowered: it verifies and lowers what runs, once. A fused run
// whose calls are inlined runs the inlined copy, and only that copy's constants are decoded
// (run_program, given a program, lowers the inlined copy beside it: its constants twice).
RunResult run_module(const hlo::Module& module, const RunOptions& options);

}  // namespace rl::interp
