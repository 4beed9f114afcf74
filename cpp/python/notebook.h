// The notebook: runs a Python program (python/parser.h's syntax) with Python's semantics on
// host values: arbitrary statements of a notebook (imports, defs, assignment, if/for/while,
// assert, raise), Python's ints, floats (CPython's repr), str, list, tuple, dict (insertion
// order), NumPy arrays on the host (python/ndarray.h), and JAX: jnp arrays, jax.jit(f) lowered by
// the tracer (python/tracer.h), compiled and run by the interpreter (cpp/interp), with XLA's
// cost-analysis keys from the core's cost rules (cpp/hlo/cost.h).
//
// What the program prints is returned, with the uncaught exception as Python's traceback. A step
// budget bounds the run (`while True:` ends with an error, never a hang), as do a call-depth and
// nesting limit and the arrays' size limit.
#pragma once

#include <functional>
#include <string>

namespace rl::python {

constexpr long kNotebookMaxSteps = 20'000'000;  // evaluation steps of one run
constexpr int kNotebookMaxCallDepth = 200;      // nested Python calls
constexpr int kNotebookMaxIntDigits = 4300;     // CPython's limit on int ↔ str conversion

struct NotebookOptions {
  std::string filename = "<notebook>";  // as the traceback names the file
  long max_steps = kNotebookMaxSteps;
  // time.perf_counter(): seconds from a clock the host supplies (empty: time.perf_counter is an
  // error naming that no clock was given).
  std::function<double()> clock;
};

struct NotebookResult {
  std::string stdout_text;  // what print wrote
  std::string error;        // the traceback of the uncaught exception ("" when it ran to the end)
  std::string error_type;   // "ValueError", ... ("SyntaxError" for a parse error)
  std::string exception;    // the traceback's last part: "ValueError: message" ("" when none)
  int line = 0;             // the failing line (0: none)
};

NotebookResult run_notebook(const std::string& source, const NotebookOptions& options = {});

}  // namespace rl::python
