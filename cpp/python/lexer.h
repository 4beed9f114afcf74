// The Python lexer: source text → tokens, each with its 1-based line and column (MicroPython's
// and pocketpy's compact lexers are the model). Python's rules: NEWLINE ends a logical line,
// INDENT/DEDENT mark changes of indentation (a stack of widths, tabs to the next multiple of 8),
// newlines inside brackets and after a backslash continue the line, comments and blank lines
// give no tokens. Number literals as Python reads them (0x/0o/0b, underscores, floats with
// exponents); strings with prefixes (r, b, u, f), both quotes, triple quotes and escapes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace rl::python {

enum class Tok { Name, Int, Float, String, Op, Newline, Indent, Dedent, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // the name, the operator, the string's value, the number as written
  std::int64_t int_value = 0;
  double float_value = 0;
  bool int_overflow = false;  // an integer literal past 2^63 - 1
  bool fstring = false;       // a string with the f prefix (its text keeps the braces)
  int line = 1, column = 1;
};

constexpr std::size_t kMaxSourceBytes = std::size_t(1) << 20;  // 1 MiB
constexpr int kMaxBracketDepth = 200;                          // Python's own parser limit

// A readable name for a token in messages: "name 'x'", "'('", "end of line", "indent".
std::string describe(const Token& t);

// Errors carry the place: "LINE:COL: message".
Result<std::vector<Token>> tokenize(const std::string& source);

}  // namespace rl::python
