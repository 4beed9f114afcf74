#include "python/lexer.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/utf8.h"

namespace rl::python {

namespace {

bool name_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool name_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

// Operators, longest first.
const char* const kOps[] = {"**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>",
                            "<=",  ">=",  "==",  "!=",  "+=",  "-=", "*=", "/=", "%=", "@=",
                            "&=",  "|=",  "^=",  ":=",  "+",   "-",  "*",  "/",  "%",  "@",
                            "<",   ">",   "=",   ".",   ",",   ":",  ";",  "(",  ")",  "[",
                            "]",   "{",   "}",   "~",   "&",   "|",  "^"};

struct Lexer {
  explicit Lexer(const std::string& src) : s(src) {}
  const std::string& s;
  std::size_t i = 0;
  int line = 1;
  std::size_t line_start = 0;
  std::vector<Token> out;
  std::vector<int> indents{0};
  std::vector<char> brackets;
  std::vector<std::pair<int, int>> bracket_at;  // line, column of each open bracket

  int col() const { return int(i - line_start) + 1; }
  Error err(const std::string& m, int l, int c) const {
    return Error{std::to_string(l) + ":" + std::to_string(c) + ": " + m, "", l, c};
  }
  void push(Tok k, std::string text, int l, int c) {
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.line = l;
    t.column = c;
    out.push_back(std::move(t));
  }
  void newline_at(std::size_t pos) {
    ++line;
    line_start = pos + 1;
  }

  // Indentation at the start of a logical line; true when the line is blank or a comment.
  Result<bool> indentation() {
    int width = 0;
    std::size_t j = i;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f')) {
      width = s[j] == '\t' ? (width / 8 + 1) * 8 : s[j] == ' ' ? width + 1 : 0;
      ++j;
    }
    i = j;
    if (i >= s.size() || s[i] == '#' || s[i] == '\n' || s[i] == '\r' ||
        (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n'))
      return Result<bool>::success(true);
    if (width > indents.back()) {
      indents.push_back(width);
      push(Tok::Indent, "", line, col());
    } else {
      while (width < indents.back()) {
        indents.pop_back();
        push(Tok::Dedent, "", line, col());
      }
      if (width != indents.back())
        return Result<bool>::failure(
            err("unindent does not match any outer indentation level", line, col()));
    }
    return Result<bool>::success(false);
  }

  Result<bool> number(int l, int c) {
    const std::size_t start = i;
    Token t;
    t.line = l;
    t.column = c;
    std::string digits;
    auto take_digits = [&](auto ok) {
      while (i < s.size() &&
             (ok(static_cast<unsigned char>(s[i])) ||
              (s[i] == '_' && i + 1 < s.size() && ok(static_cast<unsigned char>(s[i + 1]))))) {
        if (s[i] != '_') digits += s[i];
        ++i;
      }
    };
    if (s[i] == '0' && i + 1 < s.size() && std::strchr("xXoObB", s[i + 1])) {
      const char p = static_cast<char>(std::tolower(s[i + 1]));
      const int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      i += 2;
      if (i < s.size() && s[i] == '_') ++i;
      take_digits([&](unsigned char ch) {
        return base == 16  ? std::isxdigit(ch) != 0
               : base == 8 ? (ch >= '0' && ch <= '7')
                           : (ch == '0' || ch == '1');
      });
      if (digits.empty())
        return Result<bool>::failure(
            err("invalid number literal '" + s.substr(start, i - start) + "'", l, c));
      t.kind = Tok::Int;
      std::uint64_t v = 0;
      for (char d : digits) {
        const unsigned dv = std::isdigit(static_cast<unsigned char>(d))
                                ? unsigned(d - '0')
                                : unsigned(std::tolower(d) - 'a' + 10);
        if (v > (~std::uint64_t(0) - dv) / std::uint64_t(base)) t.int_overflow = true;
        v = v * std::uint64_t(base) + dv;
      }
      if (v > std::uint64_t(INT64_MAX)) t.int_overflow = true;
      t.int_value = static_cast<std::int64_t>(v);
    } else {
      bool is_float = false;
      take_digits([](unsigned char ch) { return std::isdigit(ch) != 0; });
      if (i < s.size() && s[i] == '.') {
        is_float = true;
        digits += '.';
        ++i;
        take_digits([](unsigned char ch) { return std::isdigit(ch) != 0; });
      }
      if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
          is_float = true;
          digits += 'e';
          digits.append(s, i + 1, j - i - 1);
          i = j;
          take_digits([](unsigned char ch) { return std::isdigit(ch) != 0; });
        }
      }
      if (i < s.size() && (s[i] == 'j' || s[i] == 'J'))
        return Result<bool>::failure(err("complex literals are not supported here", l, c));
      if (is_float) {
        t.kind = Tok::Float;
        t.float_value = std::strtod(digits.c_str(), nullptr);
      } else {
        t.kind = Tok::Int;
        if (digits.size() > 1 && digits[0] == '0' &&
            digits.find_first_not_of('0') != std::string::npos)
          return Result<bool>::failure(
              err("leading zeros in decimal integer literals are not permitted", l, c));
        std::uint64_t v = 0;
        for (char d : digits) {
          if (v > (~std::uint64_t(0) - unsigned(d - '0')) / 10) t.int_overflow = true;
          v = v * 10 + unsigned(d - '0');
        }
        if (v > std::uint64_t(INT64_MAX)) t.int_overflow = true;
        t.int_value = static_cast<std::int64_t>(v);
      }
    }
    if (i < s.size() && name_char(static_cast<unsigned char>(s[i])))
      return Result<bool>::failure(
          err("invalid number literal '" + s.substr(start, i - start + 1) + "'", l, c));
    t.text = s.substr(start, i - start);
    out.push_back(std::move(t));
    return Result<bool>::success(true);
  }

  // The escape after a backslash at s[i - 2] (its letter at s[i - 1]; i is past both), as
  // CPython's string and bytes literals read them: \x with two hex digits, one to three octal
  // digits, \u and \U (str only) with four and eight; \N{name} needs Unicode's name table, which
  // the core does not carry. False, with *error set to CPython's SyntaxError message, when
  // malformed; `at` is the backslash's position in the literal's body, as CPython counts it.
  bool escape(char e, bool bytes, std::size_t at, std::string& value, std::string* error) {
    const auto read_hex = [&](int count, std::uint32_t* cp) {
      *cp = 0;
      for (int k = 0; k < count; ++k) {
        const int d = i < s.size() ? hex_value(s[i]) : -1;
        if (d < 0) return false;
        *cp = *cp * 16 + std::uint32_t(d);
        ++i;
      }
      return true;
    };
    const auto span = [&](std::size_t width) {
      return std::to_string(at) + "-" + std::to_string(at + width - 1);
    };
    switch (e) {
      case 'a':
        value += '\a';
        return true;
      case 'b':
        value += '\b';
        return true;
      case 'f':
        value += '\f';
        return true;
      case 'v':
        value += '\v';
        return true;
      case 'x': {
        std::uint32_t cp = 0;
        const std::size_t begin = i;
        if (!read_hex(2, &cp)) {
          *error = bytes ? "(value error) invalid \\x escape at position " + std::to_string(at)
                         : "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
                               span(2 + (i - begin)) + ": truncated \\xXX escape";
          return false;
        }
        if (bytes)
          value += static_cast<char>(cp);
        else
          append_utf8(value, cp);
        return true;
      }
      case 'u':
      case 'U': {
        if (bytes) {  // not an escape in a bytes literal: kept as written
          value += '\\';
          value += e;
          return true;
        }
        const int count = e == 'u' ? 4 : 8;
        std::uint32_t cp = 0;
        const std::size_t begin = i;
        if (!read_hex(count, &cp)) {
          *error = "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
                   span(2 + (i - begin)) + ": truncated \\" + std::string(1, e) +
                   std::string(std::size_t(count), 'X') + " escape";
          return false;
        }
        if (cp > 0x10FFFF) {
          *error = "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
                   span(2 + std::size_t(count)) + ": illegal Unicode character";
          return false;
        }
        append_utf8(value, cp);
        return true;
      }
      case 'N':
        if (!bytes) {
          *error =
              "\\N{...} escapes are not supported here (the core carries no Unicode name "
              "table); write the character itself or its \\u escape";
          return false;
        }
        value += '\\';
        value += e;
        return true;
      default:
        break;
    }
    if (e >= '0' && e <= '7') {
      std::uint32_t cp = std::uint32_t(e - '0');
      for (int k = 0; k < 2 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k, ++i)
        cp = cp * 8 + std::uint32_t(s[i] - '0');
      if (bytes)
        value += static_cast<char>(cp & 0xFF);
      else
        append_utf8(value, cp);
      return true;
    }
    value += '\\';  // an unknown escape stays as written (CPython warns, and keeps both)
    value += e;
    return true;
  }

  Result<bool> string(int l, int c, bool raw, bool bytes = false) {
    const char q = s[i];
    const bool triple = i + 2 < s.size() && s[i + 1] == q && s[i + 2] == q;
    i += triple ? 3 : 1;
    const std::size_t body = i;
    std::string value;
    while (true) {
      if (i >= s.size())
        return Result<bool>::failure(err(
            triple ? "unterminated triple-quoted string literal" : "unterminated string literal", l,
            c));
      const char ch = s[i];
      if (ch == q && (!triple || (i + 2 < s.size() && s[i + 1] == q && s[i + 2] == q))) {
        i += triple ? 3 : 1;
        break;
      }
      if (ch == '\n') {
        if (!triple) return Result<bool>::failure(err("unterminated string literal", l, c));
        newline_at(i);
        value += ch;
        ++i;
        continue;
      }
      if (ch == '\\' && i + 1 < s.size()) {
        const char e = s[i + 1];
        if (raw) {
          value += ch;
          value += e;
          if (e == '\n') newline_at(i + 1);
          i += 2;
          continue;
        }
        i += 2;
        switch (e) {
          case 'n':
            value += '\n';
            break;
          case 't':
            value += '\t';
            break;
          case 'r':
            value += '\r';
            break;
          case '\\':
            value += '\\';
            break;
          case '\'':
            value += '\'';
            break;
          case '"':
            value += '"';
            break;
          case '\n':
            newline_at(i - 1);
            break;
          default: {
            std::string why;
            if (!escape(e, bytes, i - 2 - body, value, &why))
              return Result<bool>::failure(err(why, l, c));
            break;
          }
        }
        continue;
      }
      value += ch;
      ++i;
    }
    push(Tok::String, std::move(value), l, c);
    return Result<bool>::success(true);
  }

  Result<std::vector<Token>> run() {
    using R = Result<std::vector<Token>>;
    bool at_line_start = true;
    while (true) {
      if (at_line_start && brackets.empty()) {
        auto blank = indentation();
        if (!blank) return R::failure(blank.error_info());
        at_line_start = false;
        if (blank.value()) {
          // skip the comment / blank line
          while (i < s.size() && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') break;
            ++i;
          }
          if (i >= s.size()) break;
          if (s[i] == '\\') ++i;
          newline_at(i);
          ++i;
          at_line_start = true;
          continue;
        }
      }
      if (i >= s.size()) break;
      const unsigned char ch = static_cast<unsigned char>(s[i]);
      const int l = line, c = col();
      if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\r') {
        ++i;
      } else if (ch == '#') {
        while (i < s.size() && s[i] != '\n') ++i;
      } else if (ch == '\\') {
        std::size_t j = i + 1;
        if (j < s.size() && s[j] == '\r') ++j;
        if (j >= s.size() || s[j] != '\n')
          return R::failure(err("unexpected character after line continuation character", l, c));
        newline_at(j);
        i = j + 1;
      } else if (ch == '\n') {
        if (brackets.empty()) {
          push(Tok::Newline, "", l, c);
          at_line_start = true;
        }
        newline_at(i);
        ++i;
      } else if (std::isdigit(ch) || (ch == '.' && i + 1 < s.size() &&
                                      std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
        auto r = number(l, c);
        if (!r) return R::failure(r.error_info());
      } else if (name_start(ch)) {
        std::size_t j = i;
        while (j < s.size() && name_char(static_cast<unsigned char>(s[j]))) ++j;
        std::string word = s.substr(i, j - i);
        std::string lower;
        for (char x : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(x)));
        const bool prefix =
            word.size() <= 2 && lower.find_first_not_of("rbuf") == std::string::npos;
        if (prefix && j < s.size() && (s[j] == '\'' || s[j] == '"')) {
          i = j;
          auto r = string(l, c, lower.find('r') != std::string::npos,
                          lower.find('b') != std::string::npos);
          if (!r) return R::failure(r.error_info());
          if (lower.find('f') != std::string::npos && !out.empty()) out.back().fstring = true;
        } else {
          push(Tok::Name, std::move(word), l, c);
          i = j;
        }
      } else if (ch == '\'' || ch == '"') {
        auto r = string(l, c, false);
        if (!r) return R::failure(r.error_info());
      } else {
        const char* op = nullptr;
        for (const char* o : kOps)
          if (s.compare(i, std::strlen(o), o) == 0) {
            op = o;
            break;
          }
        if (!op) {
          std::string shown =
              ch >= 0x20 && ch < 0x7f ? std::string(1, char(ch)) : "\\x" + std::to_string(ch);
          return R::failure(err("invalid character '" + shown + "'", l, c));
        }
        const std::string o = op;
        if (o == "(" || o == "[" || o == "{") {
          if (int(brackets.size()) >= kMaxBracketDepth)
            return R::failure(err("too many nested parentheses (the limit is " +
                                      std::to_string(kMaxBracketDepth) + ")",
                                  l, c));
          brackets.push_back(o[0]);
          bracket_at.emplace_back(l, c);
        } else if (o == ")" || o == "]" || o == "}") {
          const char open = o == ")" ? '(' : o == "]" ? '[' : '{';
          if (brackets.empty()) return R::failure(err("unmatched '" + o + "'", l, c));
          if (brackets.back() != open)
            return R::failure(err("closing parenthesis '" + o +
                                      "' does not match opening parenthesis '" +
                                      std::string(1, brackets.back()) + "'",
                                  l, c));
          brackets.pop_back();
          bracket_at.pop_back();
        }
        push(Tok::Op, o, l, c);
        i += o.size();
      }
    }
    if (!brackets.empty())
      return R::failure(err("'" + std::string(1, brackets.back()) + "' was never closed",
                            bracket_at.back().first, bracket_at.back().second));
    if (!out.empty() && out.back().kind != Tok::Newline && out.back().kind != Tok::Dedent &&
        out.back().kind != Tok::Indent)
      push(Tok::Newline, "", line, col());
    while (indents.size() > 1) {
      indents.pop_back();
      push(Tok::Dedent, "", line, col());
    }
    push(Tok::End, "", line, col());
    return R::success(std::move(out));
  }
};

}  // namespace

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Name:
      return "name '" + t.text + "'";
    case Tok::Int:
    case Tok::Float:
      return "number " + t.text;
    case Tok::String:
      return "a string";
    case Tok::Op:
      return "'" + t.text + "'";
    case Tok::Newline:
      return "end of line";
    case Tok::Indent:
      return "an indent";
    case Tok::Dedent:
      return "an unindent";
    case Tok::End:
      return "end of file";
  }
  return "?";
}

Result<std::vector<Token>> tokenize(const std::string& source) {
  if (source.size() > kMaxSourceBytes)
    return Result<std::vector<Token>>::failure(
        Error{"1:1: the program is " + std::to_string(source.size()) + " bytes; the limit is " +
                  std::to_string(kMaxSourceBytes) + " (1 MiB)",
              "", 1, 1});
  Lexer lx(source);
  return lx.run();
}

}  // namespace rl::python
