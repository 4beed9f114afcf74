// libFuzzer target for the hlo room: arbitrary bytes into both parsers, the verifier, the
// lowering and the cost analysis. Any input must give a result or an error: no crash, no hang, no
// sanitizer report. Built and run by scripts/fuzz (clang-14, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hlo/cost.h"
#include "hlo/lower.h"
#include "hlo/parse.h"
#include "hlo/verify.h"

namespace {

void exercise(const rl::Result<std::vector<rl::hlo::Module>>& modules) {
  if (!modules.ok()) return;
  for (const auto& m : modules.value()) {
    (void)rl::hlo::verify(m);
    (void)rl::hlo::lower_lenient(m);
    (void)rl::hlo::analyze_module(m);  // also on modules the verifier refuses: costs every op
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  exercise(rl::hlo::parse_hlo(text));
  exercise(rl::hlo::parse_stablehlo(text));
  (void)rl::hlo::analyze(text);
  return 0;
}
