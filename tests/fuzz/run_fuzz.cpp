// libFuzzer target for lowering and running: arbitrary bytes are parsed, verified, lowered and,
// where that succeeds, run by the interpreter under small limits (memory cap, while iterations,
// time budget), op by op and fused (interp/fused.h). Any input must give a result or an error: no
// crash, no hang, no sanitizer report.
// Built and run by scripts/fuzz run (clang-14, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hlo/lower.h"
#include "hlo/parse.h"
#include "interp/interp.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto modules = rl::hlo::parse(text);
  if (!modules.ok()) return 0;
  rl::interp::RunOptions options;
  options.memory_cap = std::size_t(16) << 20;
  options.max_iterations = 1000;
  options.time_budget_seconds = 2;
  options.inputs = rl::interp::Inputs::Seeded;  // functions with arguments run too
  for (const auto& m : modules.value()) {
    (void)rl::hlo::lower_lenient(m);  // also on modules that do not verify: lowering must not crash
    auto program = rl::hlo::lower(m);
    if (!program.ok()) continue;
    options.fuse = false;
    (void)rl::interp::run_program(program.value(), options);
    options.fuse = true;
    (void)rl::interp::run_program(program.value(), options);
  }
  return 0;
}
