// A generated set as Moodle XML, for a course's question bank: one category named after the seed,
// and one Moodle question per question of each exercise —
//   numbers → "numerical", the answer the core's value with the checker's tolerance as Moodle's
//             absolute error (exact counts: 0), the core's known mistakes as 0% answers, one per
//             distinct value, with the feedback the page's checker gives for it;
//   the bound → "multichoice" with one answer (both on the ridge);
//   a list of sizes → "multichoice" with several answers (the sizes and "none").
// The statement (the IR in a <pre>) is the question text, the hints are Moodle hints and the
// worked solution is the general feedback. Read the format at docs.moodle.org, "Moodle XML format".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace rl::exercises {

Result<std::string> moodle_xml(std::string_view seed, int count,
                               const std::vector<std::string>& only = {});

}  // namespace rl::exercises
