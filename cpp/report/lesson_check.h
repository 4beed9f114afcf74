// The seed's compile-and-check step done on the IR itself: the lesson's StableHLO for tanh(a @ b)
// (hlo::emit_workload, the text JAX prints for it) run by the interpreter on the lesson's inputs —
// arange(size)/size per argument, so a = arange(512)/512 as 32×16 and b = arange(128)/128 as
// 16×8 — and its result compared with the double reference under the lesson's rule
// (kernels::check_lesson_rule, the same rule the hand-written kernel's check applies).
#pragma once

#include <string>

#include "common/result.h"
#include "kernels/kernels.h"

namespace rl::report {

struct LessonIrCheck {
  kernels::CheckResult check;  // against the double reference, |x − y| ≤ 2e-5 + 2e-5·|y|
  std::string inputs;          // how the arguments were made: "arange"
  double ops_seconds = 0;  // the entry's ops, each timed (a measurement of this machine), summed
  std::size_t ops = 0;     // how many were timed
};

// Fails (naming the step) only if the lesson's own text does not parse, lower or run: a bug.
Result<LessonIrCheck> check_lesson_ir();

}  // namespace rl::report
