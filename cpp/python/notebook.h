// The notebook: runs a Python program (python/parser.h's syntax) with Python's semantics on
// host values: arbitrary statements of a notebook (imports, defs, assignment, if/for/while,
// assert, raise), Python's ints, floats (CPython's repr), str, list, tuple, dict (insertion
// order), NumPy arrays on the host (python/ndarray.h), and JAX: jnp arrays, jax.jit(f) traced as
// JAX traces it — this evaluator runs f's Python on traced arrays and hands each operation on one
// to the tracer's rules (python/traced.h) — compiled and run by the interpreter (cpp/interp), with
// XLA's cost-analysis keys from the core's cost rules (cpp/hlo/cost.h).
//
// What the program prints is returned, with the uncaught exception as Python's traceback. A step
// budget bounds the run (`while True:` ends with an error, never a hang), as do a call-depth and
// nesting limit and the arrays' size limit.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "python/tracer.h"

namespace rl::python {

constexpr std::int64_t kNotebookMaxSteps = 20'000'000;  // evaluation steps of one run
constexpr int kNotebookMaxCallDepth = 200;              // nested Python calls
constexpr int kNotebookMaxIntDigits = 4300;             // CPython's limit on int ↔ str conversion

struct NotebookOptions {
  std::string filename = "<notebook>";  // as the traceback names the file
  std::int64_t max_steps = kNotebookMaxSteps;
  // time.perf_counter(): seconds from a clock the host supplies (empty: time.perf_counter is an
  // error naming that no clock was given).
  std::function<double()> clock;
};

// A step budget as given (the notebook's maxSteps option): an integer from 1 to 1e12.
Result<std::int64_t> max_steps_of(double steps);

struct NotebookResult {
  std::string stdout_text;  // what print wrote
  // A kernel's cell (NotebookSession::run_cell): the repr of its last statement when that is an
  // expression whose value is not None, as Jupyter shows it (Out[n]); "" otherwise, or when the
  // cell ends with ';' (Jupyter's way to hide it). run_notebook runs a script: never set.
  std::string display;
  // The modules the run lowered (each jax.jit(f).lower(...), and each call of a jitted function
  // that lowered anew), in order, as JAX prints them.
  std::vector<std::string> lowered;
  std::string error;       // the traceback of the uncaught exception ("" when it ran to the end)
  std::string error_type;  // "ValueError", ... ("SyntaxError" for a parse error)
  std::string exception;   // the traceback's last part: "ValueError: message" ("" when none)
  int line = 0;            // the failing line (0: none), in `file`
  int column = 0;          // a SyntaxError's column (1-based; 0 for other errors)
  std::string file;     // the source the failing line is in, as the traceback names it ("<cell 1>")
  int source_line = 0;  // the line of the source this run was given where the error surfaced (the
                        // traceback's first frame): `line` unless a function of another cell raised
};

NotebookResult run_notebook(const std::string& source, const NotebookOptions& options = {});

// A lowering run, the page's Write section: runs the program as run_notebook does, but prints
// nothing, lowers jitted functions instead of calling them, makes jnp's arrays at the top level
// abstract (shape and dtype, no data), and stops at the program's first `jax.jit(f).lower(...)`
// call (or the first on the function named `entry`), whose module it returns. An error is
// "LINE:COL: message", the place of the expression that raised it (JAX's words for the tracer's
// rules, Python's exception otherwise).
Result<Lowered> lower_source(const std::string& source, const std::string& entry = "");

// The notebook values alive on this thread: after a run, or a session's reset or end, as many as
// before it (cycles included: a run's end empties what it made).
std::int64_t objects_alive();

// A kernel: cells run one after another in the same globals, as in a Jupyter notebook. A cell's
// variables, functions and imports stay for the next cells, also when a later cell fails; each
// cell has its own step budget (options.max_steps) and its own output. Tracebacks name a cell's
// lines "<cell N>" (N as the caller numbers its cells), a function by the cell that defined it.
// jax.jit(f).lower(...) traces the function f is now, whichever cell defined it.
class NotebookSession {
 public:
  explicit NotebookSession(NotebookOptions options = {});
  ~NotebookSession();
  NotebookSession(NotebookSession&&) noexcept;
  NotebookSession& operator=(NotebookSession&&) noexcept;

  NotebookResult run_cell(const std::string& source, int cell);
  // Forgets every variable, function and import (and the cells kept for them): a fresh kernel.
  void reset();
  int cells_run() const;  // cells run (parsed) since the start or the last reset

 private:
  struct State;
  std::unique_ptr<State> s_;
};

std::string cell_filename(int cell);  // "<cell N>"

// A notebook's source split into cells: at `# %%` marker lines when it has any (the marker line
// itself in no cell), otherwise before each top-level statement that a blank line precedes (the
// comment lines right above it go with it). Blank lines around a cell are dropped; first_line is
// the 1-based line of the source where the cell's text begins.
struct NotebookCell {
  std::string source;
  int first_line = 1;
};
std::vector<NotebookCell> split_cells(const std::string& source);

}  // namespace rl::python
