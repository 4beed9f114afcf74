// A minimal JSON writer for results too big to build key by key through Embind (thousands of
// op rows: one JS call per field is slow). The core writes the text (hlo/report, exercises),
// the bindings return it, web/core.js parses it.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace rl {

class JsonWriter {
 public:
  const std::string& text() const { return out_; }

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  JsonWriter& key(std::string_view k) {
    comma();
    string_literal(k);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view s) {
    comma();
    string_literal(s);
    return *this;
  }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b) {
    comma();
    out_ += b ? "true" : "false";
    return *this;
  }
  // Round-trip text; NaN and infinities become null (JSON has no such numbers). Only JSON.parse
  // reads this text (web/core.js), so 17 significant digits, which always read back as the same
  // double, are printed at once: trying 15 first and checking with strtod cost more than the rest
  // of the lesson's report call in wasm (measured: 0.29 → 0.23 ms per keystroke).
  JsonWriter& value(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e15) return integer(static_cast<long long>(x));  // counts: exact
    comma();
    if (!std::isfinite(x)) {
      out_ += "null";
      return *this;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    out_ += buffer;
    return *this;
  }
  JsonWriter& value(int x) { return integer(x); }
  JsonWriter& integer(long long x) {
    comma();
    char buffer[24];
    char* end = buffer + sizeof buffer;
    char* p = end;
    unsigned long long u = x < 0 ? 0ULL - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x);
    do {
      *--p = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    if (x < 0) *--p = '-';
    out_.append(p, static_cast<std::size_t>(end - p));
    return *this;
  }
  void reserve(std::size_t n) { out_.reserve(n); }
  std::string take() { return std::move(out_); }
  JsonWriter& null() {
    comma();
    out_ += "null";
    return *this;
  }
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  JsonWriter& open(char c) {
    comma();
    out_ += c;
    first_ = true;
    return *this;
  }
  JsonWriter& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  void comma() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ',';
    first_ = false;
  }
  void string_literal(std::string_view s) {
    out_ += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (c < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c);
            out_ += esc;
          } else {
            out_ += static_cast<char>(c);  // UTF-8 passes through
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  bool first_ = true;
  bool after_key_ = false;
};

}  // namespace rl
