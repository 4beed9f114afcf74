// Generated exercises on the lesson's reasoning, deterministic from a seed: the same seed
// gives the same exercises in the CLI (scripts/exercises.mjs) and on the page. Each comes
// with its reference solution and a worked explanation, generated with it, and each answer is
// checked here too, with feedback that points at the likely mistake.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace rl::exercises {

// A wrong answer students often give, and what to tell them.
struct Mistake {
  double value;
  std::string feedback;
};

struct Question {
  std::string id;      // "work", "traffic", "ratio", "ridge", "bound", "ceiling", "changed", …
  std::string prompt;
  std::string kind;    // "number", "choice" (one of `choices`) or "set" (a list of sizes)
  std::string unit;    // "flops", "bytes", "flops/byte", "GFLOP/s" or "" (numbers)
  double value = 0;                  // the answer, for "number"
  std::string exact;                 // the answer as text: "27648", "24/7", "memory-bound", "32, 64"
  double rel_tolerance = 0;          // 0: exact (integer counts); ratios 1e-3
  std::vector<std::string> choices;  // for "choice"
  std::vector<double> set;           // for "set": the sizes, ascending
  std::vector<Mistake> mistakes;
  std::vector<std::string> hints;    // revealed one at a time
};

struct Exercise {
  int index;
  std::string family;
  std::string title;
  std::string statement;
  std::string ir;                        // StableHLO text, for "read_ir" (tanh(a@b) or an MLP layer)
  std::map<std::string, double> params;  // every number the statement gives (for tests, for the page)
  std::vector<double> sizes;             // square sizes, for "traffic_factor"
  std::vector<Question> questions;
  std::string solution;                  // the worked explanation
};

// "work_traffic", "bound", "traffic_factor", "read_ir", "fusion".
const std::vector<std::string>& families();

// `count` exercises (1..100) for `seed` (any text: a number, a student's name), cycling through
// `only` (all families when empty). Exercise i depends only on (seed, family, i).
Result<std::vector<Exercise>> generate(std::string_view seed, int count,
                                       const std::vector<std::string>& only = {});

struct Verdict {
  bool correct;
  std::string feedback;
};
// Checks one answer against the question: numbers in any usual form (answers.h), a tolerance
// per question, and feedback that names the likely mistake when the answer matches one.
Verdict check(const Question& question, std::string_view answer);

}  // namespace rl::exercises
