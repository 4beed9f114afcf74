// A hand-written, pull-based lexer shared by the StableHLO and HLO parsers.
//
// Linear time, no regex, no allocation per token (tokens are views into the text). Every call
// to next() advances by at least one byte unless at the end. Comments (`// ...`, `/* ... */`)
// are skipped; a `// -----` comment line becomes a Split token (lit's split-input-file).
// Line and column (1-based) come from a cursor that counts line breaks from the last place
// asked about: the parsers ask in text order, so the whole text is counted once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rl::hlo {

// Byte classes, one table lookup each (libc's isalnum goes through the locale).
namespace chars {
enum : std::uint8_t {
  kDigit = 1,       // 0-9
  kAlpha = 2,       // A-Z a-z
  kIdentStart = 4,  // letters, '_', '$'
  kIdentChar = 8,   // letters, digits, '_', '$', '.'
  kHexDigit = 16,   // 0-9 a-f A-F
  kSpace = 32,      // ' ' \t \r (not \n)
  kHloName = 64,    // HLO names: letters, digits, '_', '.', '-', '$'
  kBracket = 128,   // ( ) [ ] { } < > and '"'
};
struct Table {
  std::uint8_t bits[256] = {};
  constexpr Table() {
    for (int c = 0; c < 256; ++c) {
      std::uint8_t b = 0;
      const bool digit = c >= '0' && c <= '9';
      const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (digit) b |= kDigit;
      if (alpha) b |= kAlpha;
      if (alpha || c == '_' || c == '$') b |= kIdentStart;
      if (alpha || digit || c == '_' || c == '$' || c == '.') b |= kIdentChar | kHloName;
      if (c == '-') b |= kHloName;
      if (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) b |= kHexDigit;
      if (c == ' ' || c == '\t' || c == '\r') b |= kSpace;
      if (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == '<' ||
          c == '>' || c == '"')
        b |= kBracket;
      bits[c] = b;
    }
  }
};
inline constexpr Table kTable{};
inline bool is(char c, std::uint8_t cls) {
  return (kTable.bits[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool digit(char c) { return is(c, kDigit); }
inline bool alpha(char c) { return is(c, kAlpha); }
inline bool alnum(char c) { return is(c, kDigit | kAlpha); }
inline bool hex_digit(char c) { return is(c, kHexDigit); }
// 0x00-0x1F other than tab, LF and CR, and DEL (0x7F): allowed only inside string literals.
inline bool control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && u != '\t' && u != '\n' && u != '\r') || u == 0x7F;
}
}  // namespace chars

enum class Tok {
  End,
  Split,    // `// -----`
  Percent,  // %name, %0, %0#1
  At,       // @name, @"quoted"
  Caret,    // ^bb0
  Hash,     // #stablehlo.dot (the `<...>` body follows as tokens)
  Bang,     // !stablehlo.token, !quant.uniform
  Ident,    // bare identifiers (HLO mode: may contain '-')
  Number,   // 12, -3, 1.5e-3, 0x1F
  String,   // "..." (text includes the quotes)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Less,
  Greater,
  Comma,
  Equal,
  Colon,
  Arrow,
  LessEq,
  Question,
  Star,
  Minus,
  Other,  // any other single byte
  Error,  // an unterminated string or block comment, or a control character
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

  // Amortized O(1) when asked in text order; any order is correct.
  int line_of(std::size_t offset) const;
  int column_of(std::size_t offset) const;
  // "LINE:COL" of an offset.
  std::string where(std::size_t offset) const;

 private:
  Token lex();
  std::string_view text_;
  bool hlo_mode_;
  std::size_t pos_ = 0;
  // The line cursor: offset cur_ is on line cur_line_, which starts at cur_line_start_.
  void seek(std::size_t offset) const;
  mutable std::size_t cur_ = 0, cur_line_start_ = 0;
  mutable int cur_line_ = 1;
  bool have_peek_ = false;
  Token peek_;
  std::size_t peek_end_ = 0;
};

// Text of a token kind, for messages: "'('", "identifier", "end of input".
std::string describe(const Token& t);

// The offset of the first control character (chars::control) outside a string literal, or
// npos. Comments are read like the lexer reads them (a '"' in a comment opens no string), and a
// control character in a comment counts too. One pass; both parsers call it before reading.
std::size_t find_control_char(std::string_view text);
// "L:C: error: control character 0x1B at line L, column C is not allowed outside a string — ..."
std::string control_char_error(const Lexer& lx, std::size_t offset);

// "LINE:COL: error: WHAT — expected RULE, got VALUE"
std::string format_error(const Lexer& lx, std::size_t offset, std::string_view what,
                         std::string_view expected, std::string_view got);

// A whole token of decimal digits (no sign, no fraction, no hex) whose value is in [lo, hi], read
// without throwing (std::from_chars): false for anything else, with *out untouched.
bool decimal_in_range(std::string_view text, std::int64_t lo, std::int64_t hi, std::int64_t* out);

inline bool is_ident_start(char c) { return chars::is(c, chars::kIdentStart); }
inline bool is_ident_char(char c) { return chars::is(c, chars::kIdentChar); }

}  // namespace rl::hlo
