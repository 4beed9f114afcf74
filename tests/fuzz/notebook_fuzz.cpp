// libFuzzer target for the notebook (cpp/python/notebook.h): arbitrary text run as a Python
// program on host values, NumPy arrays and jax.jit through the tracer and the interpreter, under
// a small step budget (so `while True:` ends) and a fixed clock. Any input must run to its end or
// end with Python's traceback: no crash, no hang, no sanitizer report. An error must name its
// exception ("Type: message", a traceback or a SyntaxError's place before it); a broken invariant
// traps. Built and run by scripts/fuzz (clang-14, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string>

#include "python/notebook.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  rl::python::NotebookOptions o;
  o.filename = "fuzz.py";
  o.max_steps = 20000;
  double t = 0;
  o.clock = [&t] { return t += 0.001; };
  const auto r = rl::python::run_notebook(source, o);
  if (r.error.empty()) {
    if (!r.exception.empty() || !r.error_type.empty()) __builtin_trap();
    return 0;
  }
  if (r.exception.empty() || r.error_type.empty()) __builtin_trap();
  if (r.exception.compare(0, r.error_type.size(), r.error_type) != 0) __builtin_trap();
  const bool traceback = r.error.rfind("Traceback (most recent call last):\n", 0) == 0;
  const bool syntax =
      r.error_type == "SyntaxError" && r.error.rfind("  File \"fuzz.py\", line ", 0) == 0;
  if (!traceback && !syntax) __builtin_trap();
  if (r.error.size() < r.exception.size() + 1 ||
      r.error.compare(r.error.size() - r.exception.size() - 1, r.exception.size(), r.exception) !=
          0)
    __builtin_trap();
  return 0;
}
