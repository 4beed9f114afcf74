// A minimal JSON writer for results too big to build key by key through Embind (thousands of
// op rows: one JS call per field is slow). The core writes the text (hlo/report, exercises),
// the bindings return it, web/core.js parses it.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

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
    comma();
    char buffer[kNumberChars];
    out_.append(buffer, format_number(x, buffer));
    return *this;
  }
  JsonWriter& value(int x) { return integer(x); }
  JsonWriter& integer(long long x) {
    comma();
    char buffer[kNumberChars];
    out_.append(buffer, format_integer(x, buffer));
    return *this;
  }
  // An array of `count` numbers, value_of(i) each (as value(double) writes them), formatted
  // through a local buffer: columns of millions of values.
  template <class F>
  JsonWriter& numbers(std::size_t count, F value_of) {
    comma();
    char chunk[kChunk];
    std::size_t used = 0;
    chunk[used++] = '[';
    for (std::size_t i = 0; i < count; ++i) {
      if (used > kChunk - kNumberChars - 2) {
        out_.append(chunk, used);
        used = 0;
      }
      if (i) chunk[used++] = ',';
      used += format_number(static_cast<double>(value_of(i)), chunk + used);
    }
    chunk[used++] = ']';
    out_.append(chunk, used);
    first_ = false;
    return *this;
  }
  JsonWriter& numbers(const std::vector<double>& xs) {
    return numbers(xs.size(), [&xs](std::size_t i) { return xs[i]; });
  }
  // An array of arrays of numbers: list_of(i) gives the i-th inner list (begin(), end()).
  template <class F>
  JsonWriter& number_lists(std::size_t count, F list_of) {
    comma();
    char chunk[kChunk];
    std::size_t used = 0;
    chunk[used++] = '[';
    for (std::size_t i = 0; i < count; ++i) {
      if (i) chunk[used++] = ',';
      chunk[used++] = '[';
      bool first = true;
      for (double x : list_of(i)) {
        if (used > kChunk - kNumberChars - 4) {
          out_.append(chunk, used);
          used = 0;
        }
        if (!first) chunk[used++] = ',';
        first = false;
        used += format_number(x, chunk + used);
      }
      if (used > kChunk - 4) {
        out_.append(chunk, used);
        used = 0;
      }
      chunk[used++] = ']';
    }
    chunk[used++] = ']';
    out_.append(chunk, used);
    first_ = false;
    return *this;
  }
  // Lengths of what numbers() and number_lists() write (to reserve the text exactly).
  template <class F>
  static std::size_t numbers_length(std::size_t count, F value_of) {
    std::size_t n = 2 + (count ? count - 1 : 0);
    for (std::size_t i = 0; i < count; ++i) n += number_length(static_cast<double>(value_of(i)));
    return n;
  }
  template <class F>
  static std::size_t number_lists_length(std::size_t count, F list_of) {
    std::size_t n = 2 + (count ? count - 1 : 0);
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t k = 0;
      for (double x : list_of(i)) n += number_length(x), ++k;
      n += 2 + (k ? k - 1 : 0);
    }
    return n;
  }
  // The length of format_number(x).
  static std::size_t number_length(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e15) {
      const long long v = static_cast<long long>(x);
      unsigned long long u =
          v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
      std::size_t n = v < 0 ? 2 : 1;
      for (unsigned long long p = 10; n < 20 && u >= p; p *= 10) ++n;
      return n;
    }
    char buffer[kNumberChars];
    return format_number(x, buffer);
  }
  // The text of a number as value(double) writes it, into `out` (kNumberChars bytes); its length.
  // Integers below 1e15 (counts, bytes: exact in a double) take the fast path.
  static std::size_t format_number(double x, char* out) {
    if (x == std::floor(x) && std::fabs(x) < 1e15)
      return format_integer(static_cast<long long>(x), out);
    if (!std::isfinite(x)) {
      std::memcpy(out, "null", 4);
      return 4;
    }
    return static_cast<std::size_t>(
        std::snprintf(out, kNumberChars, "%.17g", x));  // see value(double)
  }
  static std::size_t format_integer(long long x, char* out) {
    char buffer[24];
    char* end = buffer + sizeof buffer;
    char* p = end;
    unsigned long long u =
        x < 0 ? 0ULL - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x);
    while (u >= 100) {
      const unsigned d = static_cast<unsigned>(u % 100);
      u /= 100;
      *--p = kDigitPairs[2 * d + 1];
      *--p = kDigitPairs[2 * d];
    }
    if (u >= 10) {
      *--p = kDigitPairs[2 * u + 1];
      *--p = kDigitPairs[2 * u];
    } else {
      *--p = static_cast<char>('0' + u);
    }
    if (x < 0) *--p = '-';
    const auto n = static_cast<std::size_t>(end - p);
    std::memcpy(out, p, n);
    return n;
  }
  void reserve(std::size_t n) { out_.reserve(n); }
  std::size_t size() const { return out_.size(); }
  std::string take() { return std::move(out_); }
  JsonWriter& null() {
    comma();
    out_ += "null";
    return *this;
  }
  // A value another writer wrote (whole JSON text), placed as it is.
  JsonWriter& raw(std::string_view json) {
    comma();
    out_ += json;
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
    // Runs of bytes that need no escape are appended whole.
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;  // UTF-8 passes through
      out_.append(s.data() + run, i - run);
      run = i + 1;
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default: {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out_ += esc;
        }
      }
    }
    out_.append(s.data() + run, s.size() - run);
    out_ += '"';
  }

  static constexpr std::size_t kNumberChars = 32;
  static constexpr std::size_t kChunk = 4096;
  static constexpr const char* kDigitPairs =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";

  std::string out_;
  bool first_ = true;
  bool after_key_ = false;
};

}  // namespace rl
