// The teacher's gradebook: students' result files (what section 9's "Export my results (JSON)"
// writes) regraded here, answer by answer, from the set's seed, the student's name and the
// answers typed — never from a verdict the file claims — into one class table. Files that are not
// result files, are corrupt, belong to another set or repeat a student are refused one by one,
// each with its reason; the others are graded.
//
// A result file (version 2), as web/model/progress.js writes it:
//   {"kind": "roofline-lab classroom results", "version": 2, "exported": ISO time,
//    "seed": the teacher's seed, "student": a name or "", "count": 1..100,
//    "unnamed_id": with "student": "", the id the student's browser gives its unnamed exports
//                  (optional: one student per id; files without it are one unnamed student),
//    "families": [ids] or "all",
//    "questions": [{"exercise": 1-based, "question": id, "attempts": count, "hints_used": count,
//                   "solution_opened": bool, "history": [{"answer": text, "at": ISO time}, …], …},
//                   …]}
// Other keys (the page's own verdicts, prompts, the score) are for people and are not read.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace rl::exercises {

// Bad-input limits: a file over them is refused with a message naming the limit.
constexpr double kMaxResultFileBytes = 5.0 * 1024 * 1024;  // 5 MB
constexpr int kMaxAttemptsPerQuestion = 1000;
constexpr int kMaxAttemptsPerFile = 20000;
constexpr std::size_t kMaxGradebookFiles = 1000;
constexpr int kResultFileVersion = 2;

struct ResultFile {
  std::string name;   // as the teacher sees it (a file name)
  std::string text;   // its text; may be only its start when `bytes` says the file is too big
  double bytes = -1;  // the file's size when known (else the text's)
};

// The set a gradebook grades: the teacher's seed, the count, the families (empty: all).
struct SetSpec {
  std::string seed;
  int count = 0;
  std::vector<std::string> families;
};

// The class table as JSON text (GradebookTable in web/roofline-lab.d.ts):
//   {set: {seed, count, families, from: "given"|"files"|"none"},
//    questions: [{exercise, family, title, question, prompt, hints}],
//    students: [{file, student, unnamed_id ("" for a named student), seed_used, exported, right,
//                tried, attempts, hints, solutions,
//                answers: [{status: "right"|"wrong"|"not_tried", attempts, right_at, hints,
//                           solution_opened, answer, feedback, category}]}],
//    summary: [{students, tried, right, share_right, mistake: {category, feedback, students} |
//    null}], refused: [{file, reason}], totals: {files, students, refused}}
// `expected`: the set to grade against; without one, the set most readable files belong to. Fails
// only when `expected` is given and is no set the core can make (an unknown family).
Result<std::string> gradebook_json(const std::vector<ResultFile>& files,
                                   const std::optional<SetSpec>& expected);

}  // namespace rl::exercises
