#include "hlo/lexer.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "common/loop_body.h"

namespace rl::hlo {

namespace {
bool is_digit(char c) { return chars::digit(c); }
std::string byte_hex(char c) {  // "0x1B"
  const char* hex = "0123456789ABCDEF";
  const auto u = static_cast<unsigned char>(c);
  return std::string("0x") + hex[u >> 4] + hex[u & 15];
}
}  // namespace

Lexer::Lexer(std::string_view text, bool hlo_mode) : text_(text), hlo_mode_(hlo_mode) {}

void Lexer::seek(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  const char* base = text_.data();
  if (offset >= cur_) {
    // Forward: count the line breaks in [cur_, offset).
    const char* p = base + cur_;
    const char* end = base + offset;
    while (p < end) {
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      if (!nl) break;
      p = static_cast<const char*>(nl) + 1;
      ++cur_line_;
      cur_line_start_ = static_cast<std::size_t>(p - base);
    }
  } else if (offset < cur_line_start_) {
    // Backward past the cursor's line (errors only): uncount the breaks in [offset, line start).
    for (std::size_t q = offset; q < cur_line_start_; ++q)
      if (base[q] == '\n') --cur_line_;
    std::size_t start = offset;
    while (start > 0 && base[start - 1] != '\n') --start;
    cur_line_start_ = start;
  }
  cur_ = offset;
}

int Lexer::line_of(std::size_t offset) const {
  seek(offset);
  return cur_line_;
}

int Lexer::column_of(std::size_t offset) const {
  seek(offset);
  return static_cast<int>(std::min(offset, text_.size()) - cur_line_start_) + 1;
}

std::string Lexer::where(std::size_t offset) const {
  return std::to_string(line_of(offset)) + ":" + std::to_string(column_of(offset));
}

void Lexer::set_pos(std::size_t p) {
  pos_ = std::min(p, text_.size());
  have_peek_ = false;
}

bool Lexer::skip_space() {
  bool newline = false;
  const std::size_t n = text_.size();
  while (pos_ < n) {
    char c = text_[pos_];
    if (c == ' ') {  // most of what is skipped
      ++pos_;
    } else if (c == '\n') {
      newline = true;
      ++pos_;
    } else if (chars::is(c, chars::kSpace)) {
      ++pos_;
    } else if (c != '/') {
      break;
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
      // `// -----` is a split marker: leave it for lex() to return.
      std::size_t q = pos_ + 2;
      while (q < n && text_[q] == ' ') ++q;
      if (text_.compare(q, 5, "-----") == 0) return newline;
      const void* nl = std::memchr(text_.data() + pos_, '\n', n - pos_);
      pos_ = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text_.data()) : n;
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
      std::size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) return newline;  // lex() reports it
      for (std::size_t q = pos_; q < close; ++q)
        if (text_[q] == '\n') newline = true;
      pos_ = close + 2;
    } else {
      break;
    }
  }
  return newline;
}

Token Lexer::peek() {
  if (have_peek_) return peek_;
  std::size_t save = pos_;
  peek_ = lex();
  peek_end_ = pos_;
  pos_ = save;
  have_peek_ = true;
  return peek_;
}

Token Lexer::next() {
  if (have_peek_) {
    have_peek_ = false;
    pos_ = peek_end_;
    return peek_;
  }
  return lex();
}

Token Lexer::lex() {
  Token t;
  t.newline_before = skip_space() || pos_ == 0;
  const std::size_t n = text_.size();
  const std::size_t start = pos_;
  t.offset = start;
  auto make = [&](Tok k, std::size_t end) {
    t.kind = k;
    t.text = text_.substr(start, end - start);
    pos_ = end;
    return t;
  };
  if (start >= n) return make(Tok::End, n);
  // Line-start check for the split marker sits in skip_space.
  char c = text_[start];
  if (c == '/' && start + 1 < n && text_[start + 1] == '/') {
    const void* nl = std::memchr(text_.data() + start, '\n', n - start);
    std::size_t end =
        nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text_.data()) : n;
    return make(Tok::Split, end);
  }
  if (c == '/' && start + 1 < n && text_[start + 1] == '*') return make(Tok::Error, n);
  // Identifier bytes: HLO's names may contain '-' (get-tuple-element).
  const std::uint8_t ident = hlo_mode_ ? chars::kHloName : chars::kIdentChar;
  auto ident_end = [&](std::size_t p) {
    while (p < n && chars::is(text_[p], ident)) ++p;
    return p;
  };
  switch (c) {
    case '%': {
      std::size_t p = start + 1;
      while (p < n && chars::is(text_[p], chars::kHloName)) ++p;
      if (!hlo_mode_ && p < n && text_[p] == '#') {
        ++p;
        while (p < n && is_digit(text_[p])) ++p;
      }
      return make(Tok::Percent, p);
    }
    case '@': {
      std::size_t p = start + 1;
      if (p < n && text_[p] == '"') {
        ++p;
        while (p < n && text_[p] != '"' && text_[p] != '\n') p += (text_[p] == '\\') ? 2 : 1;
        if (p >= n || text_[p] != '"') return make(Tok::Error, std::min(p, n));
        return make(Tok::At, p + 1);
      }
      while (p < n && chars::is(text_[p], chars::kHloName)) ++p;
      return make(Tok::At, p);
    }
    case '^':
      return make(Tok::Caret, ident_end(start + 1));
    case '#':
      return make(Tok::Hash, ident_end(start + 1));
    case '!':
      return make(Tok::Bang, ident_end(start + 1));
    case '"': {
      std::size_t p = start + 1;
      while (p < n && text_[p] != '"') p += (text_[p] == '\\') ? 2 : 1;
      if (p >= n) return make(Tok::Error, n);
      return make(Tok::String, p + 1);
    }
    case '(':
      return make(Tok::LParen, start + 1);
    case ')':
      return make(Tok::RParen, start + 1);
    case '[':
      return make(Tok::LBracket, start + 1);
    case ']':
      return make(Tok::RBracket, start + 1);
    case '{':
      return make(Tok::LBrace, start + 1);
    case '}':
      return make(Tok::RBrace, start + 1);
    case '>':
      return make(Tok::Greater, start + 1);
    case ',':
      return make(Tok::Comma, start + 1);
    case '=':
      return make(Tok::Equal, start + 1);
    case ':':
      return make(Tok::Colon, start + 1);
    case '?':
      return make(Tok::Question, start + 1);
    case '*':
      return make(Tok::Star, start + 1);
    case '<':
      if (start + 1 < n && text_[start + 1] == '=') return make(Tok::LessEq, start + 2);
      return make(Tok::Less, start + 1);
    default:
      break;
  }
  if (c == '-') {
    if (start + 1 < n && text_[start + 1] == '>') return make(Tok::Arrow, start + 2);
    if (!(start + 1 < n && (is_digit(text_[start + 1]) || text_[start + 1] == '.')))
      return make(Tok::Minus, start + 1);
  }
  if (is_digit(c) || c == '-' || c == '+' ||
      (c == '.' && start + 1 < n && is_digit(text_[start + 1]))) {
    std::size_t p = start;
    if (text_[p] == '-' || text_[p] == '+') ++p;
    if (p + 1 < n && text_[p] == '0' && (text_[p + 1] == 'x' || text_[p + 1] == 'X') && p + 2 < n &&
        chars::hex_digit(text_[p + 2])) {
      p += 2;
      while (p < n && chars::hex_digit(text_[p])) ++p;
      return make(Tok::Number, p);
    }
    while (p < n && is_digit(text_[p])) ++p;
    if (p < n && text_[p] == '.' && !(p + 1 < n && text_[p + 1] == '.')) {
      ++p;
      while (p < n && is_digit(text_[p])) ++p;
    }
    if (p < n && (text_[p] == 'e' || text_[p] == 'E')) {
      std::size_t q = p + 1;
      if (q < n && (text_[q] == '+' || text_[q] == '-')) ++q;
      if (q < n && is_digit(text_[q])) {
        p = q;
        while (p < n && is_digit(text_[p])) ++p;
      }
    }
    if (p == start) p = start + 1;
    return make(Tok::Number, p);
  }
  if (is_ident_start(c)) return make(Tok::Ident, ident_end(start + 1));
  if (chars::control(c)) return make(Tok::Error, start + 1);  // never skipped as if it were space
  return make(Tok::Other, start + 1);
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End:
      return "end of input";
    case Tok::Split:
      return "'// -----'";
    case Tok::Error:
      if (t.text.size() == 1 && chars::control(t.text[0]))
        return "control character " + byte_hex(t.text[0]);
      return t.text.substr(0, 2) == "/*" ? "an unterminated comment" : "an unterminated string";
    default:
      break;
  }
  std::string_view s = t.text.substr(0, 40);
  std::string out = "'" + std::string(s) + (t.text.size() > 40 ? "...'" : "'");
  return out;
}

bool decimal_in_range(std::string_view text, std::int64_t lo, std::int64_t hi, std::int64_t* out) {
  if (text.empty()) return false;
  for (char c : text)
    if (!is_digit(c)) return false;
  std::int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || v < lo || v > hi) return false;
  *out = v;
  return true;
}

namespace {

// Eight bytes at a time (one 64-bit word, SWAR): whether any byte of `w` is a control character
// (chars::control), a '"' or a '/' — the bytes find_control_char stops at. Exact per byte, with no
// carry between bytes: (x & 0x7F..) + c stays below 0x100 in each byte.
constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHigh = 0x8080808080808080ull;
constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
inline std::uint64_t bytes_equal(std::uint64_t w, unsigned char v) {  // 0x80 in each byte == v
  const std::uint64_t t = w ^ (kOnes * v);
  return ~(((t & kLow7) + kLow7) | t) & kHigh;
}
inline bool word_is_plain(std::uint64_t w) {
  const std::uint64_t below_space = ~(((w & kLow7) + kOnes * 0x60) | w) & kHigh;  // byte < 0x20
  const std::uint64_t allowed = bytes_equal(w, '\t') | bytes_equal(w, '\n') | bytes_equal(w, '\r');
  return ((below_space & ~allowed) | bytes_equal(w, 0x7F) | bytes_equal(w, '"') |
          bytes_equal(w, '/')) == 0;
}

// How many of the first `n` bytes at `s` are whole plain words (a multiple of 8, at most 64 KiB):
// out of line, so the scan runs in optimized code after its first calls (common/loop_body.h).
RL_LOOP_BODY std::size_t plain_words(const char* s, std::size_t n) {
  const std::size_t limit = std::min<std::size_t>(n, std::size_t(1) << 16) & ~std::size_t(7);
  std::size_t p = 0;
  for (std::uint64_t w; p < limit; p += 8) {
    std::memcpy(&w, s + p, 8);
    if (!word_is_plain(w)) break;
  }
  return p;
}

}  // namespace

std::size_t find_control_char(std::string_view text) {
  const char* s = text.data();
  const std::size_t n = text.size();
  std::size_t p = 0;
  while (p < n) {
    // Nearly every word of a program holds none of the bytes below: skipped whole.
    if (const std::size_t plain = plain_words(s + p, n - p)) {
      p += plain;
      continue;
    }
    const char c = s[p];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7F && c != '"' && c != '/') {  // nearly every byte
      ++p;
      continue;
    }
    if (c == '"') {  // a string literal, as lex() reads it: to the next '"' not escaped
      ++p;
      while (p < n && s[p] != '"') p += s[p] == '\\' ? 2 : 1;
      ++p;
      continue;
    }
    if (c == '/' && p + 1 < n &&
        (s[p + 1] == '/' || s[p + 1] == '*')) {  // a comment: no strings in it
      const bool line = s[p + 1] == '/';
      for (p += 2; p < n; ++p) {
        if (line ? s[p] == '\n' : (s[p] == '*' && p + 1 < n && s[p + 1] == '/')) break;
        if (chars::control(s[p])) return p;
      }
      p += line ? 1 : 2;
      continue;
    }
    if (chars::control(c)) return p;
    ++p;
  }
  return std::string_view::npos;
}

std::string control_char_error(const Lexer& lx, std::size_t offset) {
  const std::string byte = byte_hex(lx.text()[offset]);
  return format_error(
      lx, offset,
      "control character " + byte + " at line " + std::to_string(lx.line_of(offset)) + ", column " +
          std::to_string(lx.column_of(offset)) + " is not allowed outside a string",
      "text, tabs and line breaks (control characters only inside \"...\")", "byte " + byte);
}

std::string format_error(const Lexer& lx, std::size_t offset, std::string_view what,
                         std::string_view expected, std::string_view got) {
  std::string out = lx.where(offset) + ": error: " + std::string(what);
  if (!expected.empty())
    out += " \xE2\x80\x94 expected " + std::string(expected) + ", got " + std::string(got);
  return out;
}

}  // namespace rl::hlo
