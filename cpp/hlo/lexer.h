// A hand-written, pull-based lexer shared by the StableHLO and HLO parsers.
//
// Linear time, no regex, no allocation per token (tokens are views into the text). Every call
// to next() advances by at least one byte unless at the end. Comments (`// ...`, `/* ... */`)
// are skipped; a `// -----` comment line becomes a Split token (lit's split-input-file).
// Line and column (1-based) come from a table of line starts built once.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rl::hlo {

enum class Tok {
  End,
  Split,     // `// -----`
  Percent,   // %name, %0, %0#1
  At,        // @name, @"quoted"
  Caret,     // ^bb0
  Hash,      // #stablehlo.dot (the `<...>` body follows as tokens)
  Bang,      // !stablehlo.token, !quant.uniform
  Ident,     // bare identifiers (HLO mode: may contain '-')
  Number,    // 12, -3, 1.5e-3, 0x1F
  String,    // "..." (text includes the quotes)
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Less, Greater,
  Comma, Equal, Colon, Arrow, LessEq, Question, Star, Minus,
  Other,     // any other single byte
  Error,     // an unterminated string or block comment
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  std::size_t offset = 0;
  bool newline_before = false;  // a line break (or the start of text) precedes it
};

class Lexer {
 public:
  // hlo_mode: identifiers may contain '-' and '.' (get-tuple-element, add.3).
  Lexer(std::string_view text, bool hlo_mode);

  Token peek();
  Token next();
  // Position of the next byte not yet consumed (after the last token returned by next()).
  std::size_t pos() const { return pos_; }
  void set_pos(std::size_t p);  // back to a position a token started at (for char-level parsing)
  std::string_view text() const { return text_; }

  // Skips spaces and comments; returns true if a newline was crossed. Leaves pos at the next
  // significant byte (used by the char-level type parser).
  bool skip_space();

  int line_of(std::size_t offset) const;
  int column_of(std::size_t offset) const;
  // "LINE:COL" of an offset.
  std::string where(std::size_t offset) const;

 private:
  Token lex();
  std::string_view text_;
  bool hlo_mode_;
  std::size_t pos_ = 0;
  std::vector<std::size_t> line_starts_;
  bool have_peek_ = false;
  Token peek_;
  std::size_t peek_end_ = 0;
};

// Text of a token kind, for messages: "'('", "identifier", "end of input".
std::string describe(const Token& t);

// "LINE:COL: error: WHAT — expected RULE, got VALUE"
std::string format_error(const Lexer& lx, std::size_t offset, std::string_view what,
                         std::string_view expected, std::string_view got);

bool is_ident_start(char c);
bool is_ident_char(char c);

}  // namespace rl::hlo
