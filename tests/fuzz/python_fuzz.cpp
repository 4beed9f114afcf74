// libFuzzer target for the Python front end (cpp/python): arbitrary text through the lexer, the
// parser and the tracer. Any input must give a module or an error with a place: no crash, no
// hang, no sanitizer report. A module the tracer gives must parse and verify (every text it
// emits is valid StableHLO), and an error must start with its own "LINE:COL: "; a broken
// invariant traps. Built and run by scripts/fuzz (clang-14, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string>

#include "hlo/parse.h"
#include "hlo/verify.h"
#include "python/notebook.h"
#include "python/tracer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  auto r = rl::python::lower_source(source);
  if (!r) {
    const rl::Error& e = r.error_info();
    const std::string place = std::to_string(e.line) + ":" + std::to_string(e.column) + ": ";
    if (e.line < 1 || e.column < 1 || e.message.compare(0, place.size(), place) != 0)
      __builtin_trap();
    return 0;
  }
  auto mods = rl::hlo::parse_stablehlo(r->text);
  if (!mods || mods->size() != 1) __builtin_trap();
  if (!rl::hlo::verify(mods->front())) __builtin_trap();
  return 0;
}
