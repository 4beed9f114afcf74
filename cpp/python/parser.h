// The parser: tokens → the syntax tree (python/ast.h), by recursive descent with Python's
// grammar and precedence for the subset: import / from-import, def (positional parameters with
// defaults, decorators), assignment (chained, tuple unpacking), augmented assignment, return,
// if/elif/else, for, while, pass/break/continue, assert, raise, del, with, try (parsed so that a
// whole notebook file parses; the tracer says which it runs); expressions from lambda and
// conditional expressions down to atoms (`or and not`, comparisons with `in`/`is`, `| ^ &`,
// shifts, `+ -`, `* / // % @`, unary `- + ~`, `**`, calls with keyword arguments, attributes,
// subscripts with slices, tuples, lists, dicts, sets and comprehensions).
//
// Nesting deeper than kMaxNesting levels (expressions or blocks) is an error, never a stack
// overflow.
#pragma once

#include <string>

#include "common/result.h"
#include "python/ast.h"

namespace rl::python {

constexpr int kMaxNesting = 200;

// Errors carry the place ("LINE:COL: message") and name the token found: "3:9: invalid syntax:
// expected ')', found end of line".
Result<Program> parse(const std::string& source);

}  // namespace rl::python
