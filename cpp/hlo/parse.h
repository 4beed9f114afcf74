// The two front doors: StableHLO/MLIR text and XLA HLO text, both into the one IR (ir.h).
//
// Each `// -----` separated part (lit's split-input-file) and each `module { }` / `HloModule`
// becomes its own Module. Errors read "LINE:COL: error: WHAT — expected RULE, got VALUE";
// callers prefix a file name. Nothing here throws; nesting deeper than kMaxDepth is refused.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hlo/ir.h"

namespace rl::hlo {

constexpr int kMaxDepth = 256;  // nested regions, brackets and tuple types

// "hlo" when the first significant word is HloModule (or ENTRY), else "stablehlo".
std::string detect_dialect(std::string_view text);

// The modules keep a copy of the text (names and raw attributes are views into it); the
// *_owned forms take the text over instead of copying it (big inputs).
Result<std::vector<Module>> parse_stablehlo(std::string_view text);
Result<std::vector<Module>> parse_stablehlo_owned(std::string text);
Result<std::vector<Module>> parse_hlo(std::string_view text);
Result<std::vector<Module>> parse_hlo_owned(std::string text);
// Detects the dialect, then parses.
Result<std::vector<Module>> parse(std::string_view text);
Result<std::vector<Module>> parse_owned(std::string text);

}  // namespace rl::hlo
