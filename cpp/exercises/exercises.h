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
#include "model/model.h"

namespace rl {
class JsonWriter;
}  // namespace rl

namespace rl::exercises {

// A wrong answer students often give, and what to tell them.
struct Mistake {
  double value;
  std::string feedback;
  std::string id;  // the same in every variant: "mkn_not_2mkn", "elements_not_bytes", …
};

struct Question {
  std::string id;  // "work", "traffic", "ratio", "ridge", "bound", "ceiling", "changed", …
  std::string prompt;
  std::string kind;          // "number", "choice" (one of `choices`) or "set" (a list of sizes)
  std::string unit;          // "flops", "bytes", "flops/byte", "GFLOP/s" or "" (numbers)
  double value = 0;          // the answer, for "number"
  std::string exact;         // the answer as text: "27648", "24/7", "memory-bound", "32, 64"
  double rel_tolerance = 0;  // 0: exact (integer counts); ratios 1e-3
  std::vector<std::string> choices;  // for "choice"
  std::vector<double> set;           // for "set": the sizes, ascending
  std::vector<Mistake> mistakes;
  std::vector<std::string> hints;  // revealed one at a time
  // For "choice": other names a choice may be given by ("memory" for "memory-bound"); the
  // choices counted right (just `exact` when empty: more than one on a tie such as the ridge);
  // what a right answer is told instead of "Correct: <exact>."; what follows "Not <choice>: ".
  std::map<std::string, std::vector<std::string>> aliases;
  std::vector<std::string> accepted;
  std::string right_feedback;
  std::string wrong_feedback;
};

struct Exercise {
  int index;
  std::string family;
  std::string title;
  std::string statement;
  std::string ir;  // StableHLO text, for "read_ir" (tanh(a@b) or an MLP layer)
  std::map<std::string, double>
      params;                 // every number the statement gives (for tests, for the page)
  std::vector<double> sizes;  // square sizes, for "traffic_factor"
  std::vector<Question> questions;
  std::string solution;  // the worked explanation
};

// The families, in the order a set takes turns through them: the one list the CLI, the page
// and the tests read (through the bindings' exerciseFamilies()).
struct Family {
  std::string id;     // "work_traffic", "bound", "traffic_factor", "read_ir", "fusion"
  std::string label;  // what the page calls it: "work and traffic of a matmul", …
};
const std::vector<Family>& family_list();
const std::vector<std::string>& families();  // the ids of family_list(), in order

// `count` exercises (1..100) for `seed` (any text: a number, a student's name), cycling through
// `only` (all families when empty). Exercise i depends only on (seed, family, i).
Result<std::vector<Exercise>> generate(std::string_view seed, int count,
                                       const std::vector<std::string>& only = {});
// Exercise `index` (0-based) of that set, made alone: the same as generate(...)[index].
Result<Exercise> generate_one(std::string_view seed, int count,
                              const std::vector<std::string>& only, int index);

// The seed of a student's own variant of a set: "teacher/student" ("teacher" when the name is
// blank). The page (web/model/classroom.js, effectiveSeed) shows and uses the same rule; the
// gradebook regrades with this one.
std::string variant_seed(std::string_view seed, std::string_view student);

// The lesson's own exercise (section 7 of the page): (48,24)·(24,12) in f32, model::lesson,
// under `budgets`. Questions "work", "traffic", "ratio" (within kLessonRatioTolerance) and
// "bound", built by the same code as the work_traffic and bound families, so their feedback is
// the same. On the ridge either bound is accepted.
constexpr double kLessonRatioTolerance = 2e-3;
Exercise lesson_exercise(const model::Budgets& budgets);

struct Verdict {
  bool correct;
  std::string feedback;
  // What kind of answer it was, the same in every variant (the gradebook counts by it): "right",
  // a mistake's id, or "factor_of_2", "not_exact", "wrong_unit", "unreadable", "other" (numbers),
  // "not_a_choice", "other_choice" (choices), "sizes_missing", "sizes_extra",
  // "sizes_extra_and_missing" (sets).
  std::string category;
};
// Checks one answer against the question: numbers in any usual form (answers.h), a tolerance
// per question, and feedback that names the likely mistake when the answer matches one.
Verdict check(const Question& question, std::string_view answer);

// As JSON: one question with its choices and hints ({id, prompt, kind, unit, value, exact,
// rel_tolerance, choices, hints}), and a whole set ([{index, family, title, statement, ir, params,
// sizes, questions, solution}]): the text generateExercises hands the page, the lesson's report
// writing its exercise's questions the same way.
void write_question_json(JsonWriter& j, const Question& q);
std::string exercises_json(const std::vector<Exercise>& list);

}  // namespace rl::exercises
