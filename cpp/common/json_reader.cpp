#include "common/json_reader.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "common/utf8.h"

namespace rl {

const Json* Json::find(std::string_view key) const {
  if (type != Type::object) return nullptr;
  for (auto it = members.rbegin(); it != members.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

const char* json_type_name(Json::Type t) {
  switch (t) {
    case Json::Type::null:
      return "null";
    case Json::Type::boolean:
      return "a boolean";
    case Json::Type::number:
      return "a number";
    case Json::Type::string:
      return "a string";
    case Json::Type::array:
      return "an array";
    case Json::Type::object:
      return "an object";
  }
  return "?";
}

namespace {

class Reader {
 public:
  Reader(std::string_view text, const JsonLimits& limits) : s_(text), limits_(limits) {}

  Result<Json> document() {
    Json out;
    skip_space();
    if (!value(out, 0)) return failure();
    skip_space();
    if (i_ < s_.size()) {
      fail("unexpected " + shown() + " after the JSON value");
      return failure();
    }
    return Result<Json>::success(std::move(out));
  }

 private:
  std::string_view s_;
  JsonLimits limits_;
  std::size_t i_ = 0;
  std::size_t values_ = 0;
  std::string error_;
  std::size_t error_at_ = 0;

  Result<Json> failure() const {
    int line = 1, column = 1;
    for (std::size_t k = 0; k < error_at_ && k < s_.size(); ++k) {
      if (s_[k] == '\n')
        ++line, column = 1;
      else if ((static_cast<unsigned char>(s_[k]) & 0xC0) != 0x80)
        ++column;  // count characters, not UTF-8 bytes
    }
    return Result<Json>::failure_at(
        std::to_string(line) + ":" + std::to_string(column) + ": " + error_, line, column);
  }

  bool fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      error_at_ = i_;
    }
    return false;
  }

  // The character at the cursor, as a message shows it.
  std::string shown() const {
    if (i_ >= s_.size()) return "the end of the text";
    const unsigned char c = static_cast<unsigned char>(s_[i_]);
    if (c < 0x20 || c == 0x7F) return "a control character (code " + std::to_string(c) + ")";
    if (c >= 0x80) return "a non-ASCII character";
    return std::string("'") + static_cast<char>(c) + "'";
  }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }

  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return fail("expected a JSON value, got " + shown());
    i_ += word.size();
    return true;
  }

  bool value(Json& out, std::size_t depth) {
    if (++values_ > limits_.max_values)
      return fail("more than " + std::to_string(limits_.max_values) + " values");
    if (i_ >= s_.size()) return fail("expected a JSON value, got the end of the text");
    switch (s_[i_]) {
      case '{':
        return object(out, depth + 1);
      case '[':
        return array(out, depth + 1);
      case '"':
        out.type = Json::Type::string;
        return string(out.string);
      case 't':
        out.type = Json::Type::boolean;
        out.boolean = true;
        return literal("true");
      case 'f':
        out.type = Json::Type::boolean;
        out.boolean = false;
        return literal("false");
      case 'n':
        out.type = Json::Type::null;
        return literal("null");
      default:
        out.type = Json::Type::number;
        return number(out.number);
    }
  }

  bool nested(std::size_t depth) {
    if (depth > limits_.max_depth)
      return fail("arrays and objects nested deeper than " + std::to_string(limits_.max_depth));
    return true;
  }

  bool array(Json& out, std::size_t depth) {
    out.type = Json::Type::array;
    if (!nested(depth)) return false;
    ++i_;
    skip_space();
    if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
    for (;;) {
      out.items.emplace_back();
      skip_space();
      if (!value(out.items.back(), depth)) return false;
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
      return fail("expected ',' or ']' after an array item, got " + shown());
    }
  }

  bool object(Json& out, std::size_t depth) {
    out.type = Json::Type::object;
    if (!nested(depth)) return false;
    ++i_;
    skip_space();
    if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
    for (;;) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '"')
        return fail("expected a member name in double quotes, got " + shown());
      std::string key;
      if (!string(key)) return false;
      skip_space();
      if (i_ >= s_.size() || s_[i_] != ':')
        return fail("expected ':' after a member name, got " + shown());
      ++i_;
      skip_space();
      out.members.emplace_back(std::move(key), Json{});
      if (!value(out.members.back().second, depth)) return false;
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
      return fail("expected ',' or '}' after a member, got " + shown());
    }
  }

  bool hex4(std::uint32_t& out) {
    out = 0;
    for (int k = 0; k < 4; ++k, ++i_) {
      if (i_ >= s_.size()) return fail("expected 4 hex digits after \\u, got the end of the text");
      const char c = s_[i_];
      const int d = hex_value(c);
      if (d < 0) return fail("expected 4 hex digits after \\u, got " + shown());
      out = out * 16 + std::uint32_t(d);
    }
    return true;
  }

  bool string(std::string& out) {
    ++i_;  // the opening quote
    for (;;) {
      if (i_ >= s_.size())
        return fail("a string is not closed: expected '\"' before the end of the text");
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') return ++i_, true;
      if (c < 0x20)
        return fail("a string holds " + shown() + ": write it as an escape (\\n, \\t, \\u0001)");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++i_;
        continue;
      }
      ++i_;
      if (i_ >= s_.size()) return fail("a string ends inside an escape");
      const char e = s_[i_];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          ++i_;
          std::uint32_t cp;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(i_, 2) == "\\u") {
            const std::size_t at = i_;
            i_ += 2;
            std::uint32_t low;
            if (!hex4(low)) return false;
            if (low >= 0xDC00 && low <= 0xDFFF)
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            else
              i_ = at;  // an unpaired high surrogate, then another escape
          }
          // Unpaired surrogates (JSON allows them, UTF-8 cannot hold them) become U+FFFD.
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
          append_utf8(out, cp);
          continue;
        }
        default:
          return fail("unknown escape \\" + std::string(1, e) + " in a string");
      }
      ++i_;
    }
  }

  bool number(double& out) {
    const std::size_t start = i_;
    auto digits = [&]() {
      const std::size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (digits() == 0) {
      i_ = start;
      return fail("expected a JSON value, got " + shown());
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (digits() == 0) return fail("expected a digit after the decimal point, got " + shown());
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) return fail("expected a digit in the exponent, got " + shown());
    }
    const std::string text(s_.substr(start, i_ - start));
    out = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(out)) {
      i_ = start;
      return fail("the number " + text.substr(0, 40) + " is too large for a double");
    }
    return true;
  }
};

}  // namespace

Result<Json> parse_json(std::string_view text, const JsonLimits& limits) {
  return Reader(text, limits).document();
}

}  // namespace rl
