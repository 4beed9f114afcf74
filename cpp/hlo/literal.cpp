// Constant literals → typed little-endian buffers (see literal.h for the forms and the storage).
//
// Facts the decoder relies on, with their sources:
//
// Hex blobs, `dense<"0x...">` (MLIR's DenseElementsAttr; llvm-project mlir/lib/AsmParser/
// AttributeParser.cpp `TensorLiteralParser::getHexAttr` and mlir/lib/IR/BuiltinAttributes.cpp
// `DenseElementsAttr::isValidRawBuffer`):
//   - the bytes are the attribute's raw storage, little-endian on every host ("HEX in raw data
//     of dense element attribute is always LE format", getHexAttr), elements in row-major order;
//   - each element is padded to whole bytes (i4, f4E2M1FN, f6*: one byte, value in the low bits;
//     llvm mlir/test/IR/parse-literal.mlir reads 0x0F per element of tensor<32xi4> as -1);
//   - complex<T> stores (re, im) of T side by side: mlir/test/IR/dense-elements-hex.mlir reads
//     "0x000020410000A040000020410000A040" : tensor<2xcomplex<f32>> as (1.0e+01, 5.0e+00)
//     for both elements (0x41200000 = 10.0, 0x40A00000 = 5.0);
//   - a blob of exactly one element is a splat of the whole tensor (isValidRawBuffer accepts
//     one element's bytes or all of them, nothing else);
//   - i1 is one byte per element, 0x00 or 0x01, since llvm-project commit c6964b1b4dcd
//     (PR #180397, "Remove i1 dense packing special case", February 2026; parse-literal.mlir's
//     tensor<32xi1> blob has 32 bytes). Before it, i1 was bit-packed: ceil(n/8) bytes, element
//     i in bit i%8 of byte i/8 (BuiltinAttributes.cpp `getBit`: rawData[i/8] & (1 << i%8)),
//     and a single byte 0x00 or 0xFF was a splat. The corpus (StableHLO at 3c9301c, 2026-08)
//     postdates the change and holds no i1 blob at all. Both layouts are read: n bytes is the
//     current one; one byte is a splat (0x00 false, 0x01 or 0xFF true); ceil(n/8) bytes for
//     n > 8 is the packed one. For 2 ≤ n ≤ 8 a single byte other than 0x00/0x01/0xFF can only
//     be packed bits, and is read so.
// Element spellings in MLIR (AttributeParser.cpp `parseFloatFromLiteral`,
// `parseFloatFromIntegerLiteral`): a hex integer in a float tensor (`0x7FC00000`) is the
// element's bit pattern and must fit its width; a decimal is parsed as a double, then rounded
// to the element type once. JAX prints non-finite floats that way (0x7F800000, 0xFF80, 0x7E00).
// XLA HLO literals (xla/hlo/parser/hlo_parser.cc): `{...}` nests per dimension, a rank-0
// literal is a bare value, complex is `(re, im)`, floats may be `inf`, `-inf`, `nan`,
// `nan(0xPAYLOAD)`; `{...}` alone means the printer elided the values. A finite value that
// rounds past the type's largest finite value is refused ("out of range") as XLA's parser does.
//
// Decimal text → double uses std::strtod on a NUL-terminated copy of the token (correctly
// rounded in glibc and in Emscripten's musl; the "C" locale, as nothing here calls setlocale).
// std::from_chars for double is missing from Emscripten 3.1.6's libc++ (the overload is
// deleted there), so it is not used.
#include "hlo/literal.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "common/float16.h"
#include "common/utf8.h"

namespace rl::hlo {

namespace {

constexpr std::size_t kMaxRank = 256;          // nesting depth of a list literal
constexpr std::size_t kMaxNumberChars = 1000;  // longest decimal accepted (strtod's input)

// ---- float formats ------------------------------------------------------------------------------

// How a format spends its top exponent (or its one NaN encoding).
enum class Special {
  Ieee,  // exponent all ones: inf (fraction 0) or NaN (f16, bf16, f32, f64, f8E5M2, f8E4M3, f8E3M4)
  NanAllOnes,  // no inf; only S.1111.111 is NaN (f8E4M3FN)
  NanNegZero,  // no inf, no -0; 0x80 is the one NaN (the FNUZ formats)
  FiniteOnly,  // no inf, no NaN (f4E2M1FN, f6E2M3FN, f6E3M2FN)
  PowerOfTwo,  // f8E8M0FNU: 8 exponent bits only, unsigned, no zero; 0xFF is NaN
};

struct FloatFormat {
  int bits;  // value bits (the sign included)
  int exponent_bits;
  int fraction_bits;
  int bias;
  Special special;
};

// Parameters from APFloat's semantics / ml_dtypes (largest finite in the comments).
bool float_format(ElementType t, FloatFormat* f) {
  switch (t) {
    case ElementType::F16:
      *f = {16, 5, 10, 15, Special::Ieee};
      return true;  // 65504
    case ElementType::BF16:
      *f = {16, 8, 7, 127, Special::Ieee};
      return true;  // 3.39e38
    case ElementType::F32:
      *f = {32, 8, 23, 127, Special::Ieee};
      return true;
    case ElementType::F64:
      *f = {64, 11, 52, 1023, Special::Ieee};
      return true;
    case ElementType::F8E5M2:
      *f = {8, 5, 2, 15, Special::Ieee};
      return true;  // 57344
    case ElementType::F8E4M3:
      *f = {8, 4, 3, 7, Special::Ieee};
      return true;  // 240
    case ElementType::F8E3M4:
      *f = {8, 3, 4, 3, Special::Ieee};
      return true;  // 15.5
    case ElementType::F8E4M3FN:
      *f = {8, 4, 3, 7, Special::NanAllOnes};
      return true;  // 448
    case ElementType::F8E4M3FNUZ:
      *f = {8, 4, 3, 8, Special::NanNegZero};
      return true;  // 240
    case ElementType::F8E5M2FNUZ:
      *f = {8, 5, 2, 16, Special::NanNegZero};
      return true;  // 57344
    case ElementType::F8E4M3B11FNUZ:
      *f = {8, 4, 3, 11, Special::NanNegZero};
      return true;  // 30
    case ElementType::F8E8M0FNU:
      *f = {8, 8, 0, 127, Special::PowerOfTwo};
      return true;  // 2^127
    case ElementType::F4E2M1FN:
      *f = {4, 2, 1, 1, Special::FiniteOnly};
      return true;  // 6
    case ElementType::F6E2M3FN:
      *f = {6, 2, 3, 1, Special::FiniteOnly};
      return true;  // 7.5
    case ElementType::F6E3M2FN:
      *f = {6, 3, 2, 3, Special::FiniteOnly};
      return true;  // 28
    default:
      return false;
  }
}

std::uint64_t low_mask(int bits) {
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}
std::uint64_t sign_bit(const FloatFormat& f) {
  return f.special == Special::PowerOfTwo ? 0 : std::uint64_t{1} << (f.bits - 1);
}
std::uint64_t magnitude_mask(const FloatFormat& f) { return low_mask(f.bits) & ~sign_bit(f); }

bool is_nan_bits(const FloatFormat& f, std::uint64_t b) {
  const std::uint64_t mag = b & magnitude_mask(f);
  const std::uint64_t exp_ones = low_mask(f.exponent_bits) << f.fraction_bits;
  switch (f.special) {
    case Special::Ieee:
      return (mag & exp_ones) == exp_ones && (mag & low_mask(f.fraction_bits)) != 0;
    case Special::NanAllOnes:
      return mag == magnitude_mask(f);
    case Special::NanNegZero:
      return b == sign_bit(f);
    case Special::PowerOfTwo:
      return b == 0xFF;
    case Special::FiniteOnly:
      return false;
  }
  return false;
}
bool is_inf_bits(const FloatFormat& f, std::uint64_t b) {
  return f.special == Special::Ieee &&
         (b & magnitude_mask(f)) == (low_mask(f.exponent_bits) << f.fraction_bits);
}

// The NaN that "nan" spells: the quiet NaN (top fraction bit) where the format has a sign
// and an exponent for NaN; the one NaN encoding elsewhere. `negative` sets the sign if any.
bool canonical_nan(const FloatFormat& f, bool negative, std::uint64_t* b) {
  switch (f.special) {
    case Special::Ieee:
      *b = (low_mask(f.exponent_bits) << f.fraction_bits) |
           (std::uint64_t{1} << (f.fraction_bits - 1));
      break;
    case Special::NanAllOnes:
      *b = magnitude_mask(f);
      break;
    case Special::NanNegZero:
      *b = sign_bit(f);
      return true;  // 0x80, whatever the sign
    case Special::PowerOfTwo:
      *b = 0xFF;
      return true;
    case Special::FiniteOnly:
      return false;
  }
  if (negative) *b |= sign_bit(f);
  return true;
}

// The exact value of an encoding (NaN and inf included).
double float_value(const FloatFormat& f, std::uint64_t b) {
  switch (f.bits) {
    case 64:
      return double_from_bits(b);
    case 32:
      return static_cast<double>(float_from_bits(static_cast<std::uint32_t>(b)));
    default:
      break;
  }
  if (f.bits == 16)
    return f.exponent_bits == 5 ? f16_to_f64(static_cast<std::uint16_t>(b))
                                : bf16_to_f64(static_cast<std::uint16_t>(b));
  if (is_nan_bits(f, b))
    return std::copysign(std::numeric_limits<double>::quiet_NaN(), (b & sign_bit(f)) ? -1.0 : 1.0);
  const double sign = (b & sign_bit(f)) ? -1.0 : 1.0;
  if (is_inf_bits(f, b)) return sign * std::numeric_limits<double>::infinity();
  const std::uint64_t mag = b & magnitude_mask(f);
  const int e = static_cast<int>(mag >> f.fraction_bits);
  const std::uint64_t fraction = mag & low_mask(f.fraction_bits);
  if (f.special == Special::PowerOfTwo) return std::ldexp(1.0, e - f.bias);
  // Subnormal: fraction·2^(1-bias-m); normal: (2^m + fraction)·2^(e-bias-m).
  if (e == 0) return sign * std::ldexp(static_cast<double>(fraction), 1 - f.bias - f.fraction_bits);
  return sign * std::ldexp(static_cast<double>(fraction + (std::uint64_t{1} << f.fraction_bits)),
                           e - f.bias - f.fraction_bits);
}

// Largest finite encoding of the magnitude.
std::uint64_t max_finite_bits(const FloatFormat& f) {
  switch (f.special) {
    case Special::Ieee:
      return (low_mask(f.exponent_bits) << f.fraction_bits) - 1;
    case Special::NanAllOnes:
      return magnitude_mask(f) - 1;
    case Special::NanNegZero:
    case Special::FiniteOnly:
      return magnitude_mask(f);
    case Special::PowerOfTwo:
      return 0xFE;
  }
  return 0;
}

// A finite double rounded to the narrow formats (f8/f6/f4) to nearest, ties to even.
// |x| = significand·2^exponent exactly (the double's integer significand). In the binade of x
// (or the subnormal range, if x is below it) the format's step is 2^(max(e, emin) − m); the
// rounded count of steps n is added to the binade's first encoding, ((max(e, emin) − emin) << m):
// a count that reaches 2^(m+1) carries into the next binade, as the encoding's layout requires.
// Returns false when the result passes the largest finite value.
bool round_small_format(const FloatFormat& f, double x, std::uint64_t* out) {
  const std::uint64_t sign = std::signbit(x) ? sign_bit(f) : 0;
  const std::uint64_t xb = double_bits(x) & 0x7FFFFFFFFFFFFFFFull;
  if (xb == 0) {  // ±0; no −0 in the FNUZ formats
    *out = f.special == Special::NanNegZero ? 0 : sign;
    return true;
  }
  const int biased = static_cast<int>(xb >> 52);
  const std::uint64_t significand =
      (xb & 0xFFFFFFFFFFFFFull) | (biased ? std::uint64_t{1} << 52 : 0);
  const int exponent = (biased ? biased : 1) - 1075;
  int top = 63;
  while (!(significand >> top)) --top;  // significand ≠ 0 here
  const int e = top + exponent;         // floor(log2 |x|)
  const int emin = 1 - f.bias;          // exponent of the smallest normal
  const int binade = e > emin ? e : emin;
  const int shift = binade - f.fraction_bits - exponent;  // step 2^(binade−m) over 2^exponent
  std::uint64_t n;
  if (shift <= 0)
    n = significand << -shift;  // x is a multiple of the step (−shift ≤ m here)
  else if (shift > 63)
    n = 0;  // x < 2^63 units of 2^exponent ≤ half a step
  else
    n = shift_right_round_even(significand, static_cast<unsigned>(shift));
  if (binade - emin > 1 << 12) return false;  // far past any narrow format
  const std::uint64_t encoding = (static_cast<std::uint64_t>(binade - emin) << f.fraction_bits) + n;
  if (encoding > max_finite_bits(f)) return false;
  *out = (encoding == 0 && f.special == Special::NanNegZero) ? 0 : (sign | encoding);
  return true;
}

// f8E8M0FNU: 2^(b−127) for b = 0..254. Rounds to the nearer power of two (the midpoint between
// 2^e and 2^(e+1) is 1.5·2^e), ties to the even encoding.
bool round_power_of_two(double x, std::uint64_t* out) {
  int k;
  const double fraction = std::frexp(x, &k);  // x = fraction·2^k, fraction in [0.5, 1)
  long b = static_cast<long>(k) - 1 + 127;    // x in [2^(k−1), 2^k)
  const double r = 2 * fraction;              // x / 2^(k−1), in [1, 2)
  if (r > 1.5 || (r == 1.5 && (b & 1))) ++b;
  if (b < 0 || b > 254) return false;
  *out = static_cast<std::uint64_t>(b);
  return true;
}

enum class Rounding { Ok, OutOfRange, NotRepresentable };

// A finite double to the element format, rounded once.
Rounding round_to_format(ElementType t, const FloatFormat& f, double x, std::uint64_t* out) {
  switch (t) {
    case ElementType::F64:
      *out = double_bits(x);
      return Rounding::Ok;
    case ElementType::F32: {
      // Halfway between float's largest finite value and 2^128 rounds (to even) up to inf.
      if (std::fabs(x) >= 0x1.ffffffp+127) return Rounding::OutOfRange;
      *out = float_bits(static_cast<float>(x));  // IEEE conversion: round to nearest even
      return Rounding::Ok;
    }
    case ElementType::F16:
      *out = f64_to_f16(x);
      break;
    case ElementType::BF16:
      *out = f64_to_bf16(x);
      break;
    default:
      if (f.special == Special::PowerOfTwo) {
        if (!(x > 0)) return Rounding::NotRepresentable;
        return round_power_of_two(x, out) ? Rounding::Ok : Rounding::OutOfRange;
      }
      return round_small_format(f, x, out) ? Rounding::Ok : Rounding::OutOfRange;
  }
  return is_inf_bits(f, *out) ? Rounding::OutOfRange : Rounding::Ok;
}

// ---- text helpers
// ---------------------------------------------------------------------------------

std::string shown(std::string_view s) {  // a token as a message quotes it
  if (s.size() > 40) return std::string(s.substr(0, 37)) + "...";
  return std::string(s);
}

std::string u64_decimal(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%llu", static_cast<unsigned long long>(v));
  return buffer;
}

std::string signed_decimal(std::uint64_t magnitude, bool negative) {
  return (negative && magnitude ? "-" : "") + u64_decimal(magnitude);
}

std::string hex_byte(std::uint8_t b) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02X", b);
  return buffer;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool token_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
         c == '+' || c == '-';
}

// Decimal number syntax: -?(digits[.digits*] | .digits)([eE][+-]?digits)?
bool decimal_syntax(std::string_view s, bool* integral) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  std::size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  *integral = true;
  if (i < s.size() && s[i] == '.') {
    *integral = false;
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    *integral = false;
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == s.size();
}

// Below, with format_element.
std::string format_float(ElementType t, std::uint64_t bits);
std::string decimal_text(double v, int digits);

// "1 item", "3 items".
std::string count_of(std::int64_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// ---- the decoder
// ----------------------------------------------------------------------------------

enum class Dialect { Mlir, Hlo };

class Decoder {
 public:
  Decoder(std::string_view text, Dialect dialect, ElementType type,
          const std::vector<std::int64_t>& dims)
      : s_(text), dialect_(dialect), type_(type), dims_(dims) {}

  Result<Literal> run(std::size_t* error_offset);

 private:
  // Fails with "WHAT — expected RULE, got VALUE" at byte `at` of the text.
  bool fail(std::size_t at, const std::string& what, const std::string& rule,
            const std::string& got) {
    if (error_.empty()) {
      error_ = what + " — expected " + rule + ", got " + got;
      error_at_ = at;
    }
    return false;
  }

  std::string type_name(ElementType t) const {
    const ElementInfo& e = element_info(t);
    return std::string(dialect_ == Dialect::Mlir ? e.mlir : e.hlo);
  }
  std::string element_name() const { return type_name(type_); }
  std::string tensor_name() const {
    std::string out;
    if (dialect_ == Dialect::Mlir) {
      out = "tensor<";
      for (auto d : dims_) out += std::to_string(d) + "x";
      return out + element_name() + ">";
    }
    out = element_name() + "[";
    for (std::size_t i = 0; i < dims_.size(); ++i) out += (i ? "," : "") + std::to_string(dims_[i]);
    return out + "]";
  }
  std::string what() const { return dialect_ == Dialect::Mlir ? "dense literal" : "HLO literal"; }
  char open() const { return dialect_ == Dialect::Mlir ? '[' : '{'; }
  char close() const { return dialect_ == Dialect::Mlir ? ']' : '}'; }

  bool at_end() const { return p_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[p_]; }
  bool skip_space();             // whitespace and comments; false on an unterminated comment
  std::string got_here() const;  // what stands at p_, for messages

  bool check_type_and_shape();
  bool body();
  bool hex_blob();
  bool list(std::size_t level);
  bool element(ElementType t);  // appends one element of type t
  bool scalar_token(std::size_t* begin, std::string_view* token);
  bool integer_element(ElementType t, std::size_t at, std::string_view tok);
  bool float_element(ElementType t, std::size_t at, std::string_view tok);
  bool hex_bits(ElementType t, std::size_t at, std::string_view tok, int bits,
                std::uint64_t* value);

  void append(std::uint64_t bits, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  }

  std::string_view s_;
  Dialect dialect_;
  ElementType type_;
  const std::vector<std::int64_t>& dims_;
  std::int64_t count_ = 0;  // elements the type holds
  std::size_t p_ = 0;
  std::vector<std::uint8_t> out_;
  bool splat_ = false;
  std::string error_;
  std::size_t error_at_ = 0;
};

bool Decoder::skip_space() {
  while (!at_end()) {
    const char c = s_[p_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++p_;
    } else if (c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '/') {
      while (!at_end() && s_[p_] != '\n') ++p_;
    } else if (dialect_ == Dialect::Hlo && c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '*') {
      const std::size_t end = s_.find("*/", p_ + 2);
      if (end == std::string_view::npos)
        return fail(p_, what() + " comment", "a closing */", "the end of the text");
      p_ = end + 2;
    } else {
      break;
    }
  }
  return true;
}

std::string Decoder::got_here() const {
  if (at_end()) return "the end of the text";
  std::size_t e = p_;
  while (e < s_.size() && token_char(s_[e])) ++e;
  if (e == p_) e = p_ + 1;
  return "\"" + shown(s_.substr(p_, e - p_)) + "\"";
}

bool Decoder::check_type_and_shape() {
  const ElementInfo& info = element_info(type_);
  if (type_ == ElementType::Invalid || type_ == ElementType::Quant || info.bytes <= 0) {
    const std::string name = type_ == ElementType::Quant
                                 ? "a quantized type (decode its storage type)"
                                 : "an invalid element type";
    return fail(0, what() + " element type", "an integer, boolean, float or complex type", name);
  }
  if (dims_.size() > kMaxRank)
    return fail(0, what() + " rank", "at most " + std::to_string(kMaxRank) + " dimensions",
                std::to_string(dims_.size()));
  count_ = 1;
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] < 0)
      return fail(0, what() + " dimension " + std::to_string(i),
                  "a static size (a constant has a fixed shape)", std::to_string(dims_[i]));
  }
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] == 0) {
      count_ = 0;
      break;
    }
    if (__builtin_mul_overflow(count_, dims_[i], &count_))
      return fail(0, what() + " shape", "at most 2^63 - 1 elements", "more for " + tensor_name());
  }
  return true;
}

// A scalar token at p_: a run of letters, digits and . _ + -; `nan(0x...)` keeps its payload.
bool Decoder::scalar_token(std::size_t* begin, std::string_view* token) {
  *begin = p_;
  std::size_t e = p_;
  while (e < s_.size() && token_char(s_[e])) ++e;
  if (e == p_) {
    if (peek() == open())
      return fail(p_, what() + " element",
                  "a single value (this nesting level is the tensor's last)", "a nested list");
    return fail(p_, what() + " element", "a number, true, false, inf or nan", got_here());
  }
  std::string_view tok = s_.substr(p_, e - p_);
  if ((tok == "nan" || tok == "-nan") && e < s_.size() && s_[e] == '(') {
    const std::size_t close_at = s_.find(')', e);
    if (close_at == std::string_view::npos || close_at - e > 40)
      return fail(e, what() + " NaN payload", "nan(0xHEX)",
                  "\"" + shown(s_.substr(*begin, e + 1 - *begin)) + "\"");
    e = close_at + 1;
    tok = s_.substr(p_, e - p_);
  }
  p_ = e;
  *token = tok;
  return true;
}

// A hex bit pattern "0x..." that must fit in `bits` bits. No sign: it is bits, not a number.
bool Decoder::hex_bits(ElementType t, std::size_t at, std::string_view tok, int bits,
                       std::uint64_t* value) {
  std::size_t i = 2;
  while (i < tok.size() && tok[i] == '0') ++i;  // leading zeros do not count against the width
  if (tok.size() == 2)
    return fail(at, what() + " hex bit pattern", "hex digits after 0x", "\"" + shown(tok) + "\"");
  std::uint64_t v = 0;
  for (std::size_t j = 2; j < tok.size(); ++j)
    if (hex_value(tok[j]) < 0)
      return fail(at, what() + " hex bit pattern", "hex digits 0-9 A-F", "\"" + shown(tok) + "\"");
  if (tok.size() - i > 16)
    return fail(at, what() + " " + type_name(t) + " bit pattern",
                "at most " + std::to_string(bits) + " bits", "\"" + shown(tok) + "\"");
  for (; i < tok.size(); ++i) v = (v << 4) | static_cast<std::uint64_t>(hex_value(tok[i]));
  if (v > low_mask(bits))
    return fail(at, what() + " " + type_name(t) + " bit pattern",
                "at most " + std::to_string(bits) + " bits", "\"" + shown(tok) + "\"");
  *value = v;
  return true;
}

bool Decoder::integer_element(ElementType t, std::size_t at, std::string_view tok) {
  const ElementInfo& info = element_info(t);
  const int bits = info.bits;
  const std::string name = type_name(t);
  if (tok == "true" || tok == "false") {
    if (info.kind != ElementKind::Bool)
      return fail(at, what() + " " + name + " element",
                  "an integer (true and false are for " + type_name(ElementType::Pred) + ")",
                  tok == "true" ? "true" : "false");
    append(tok == "true" ? 1 : 0, 1);
    return true;
  }
  if (tok.size() >= 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
    std::uint64_t v;
    if (!hex_bits(t, at, tok, bits, &v)) return false;
    append(v, info.bytes);
    return true;
  }
  if (tok.size() >= 3 && tok[0] == '-' && tok[1] == '0' && (tok[2] == 'x' || tok[2] == 'X'))
    return fail(at, what() + " " + name + " element", "a hex bit pattern without a sign",
                "\"" + shown(tok) + "\"");
  bool integral = false;
  if (!decimal_syntax(tok, &integral))
    return fail(at, what() + " " + name + " element",
                info.kind == ElementKind::Bool ? "true, false, 0 or 1" : "an integer",
                "\"" + shown(tok) + "\"");
  if (!integral)
    return fail(at, what() + " " + name + " element", "an integer, not a float",
                "\"" + shown(tok) + "\"");
  const bool negative = tok[0] == '-';
  std::uint64_t magnitude = 0;
  bool overflow = false;
  for (std::size_t i = negative ? 1 : 0; i < tok.size(); ++i) {
    const std::uint64_t d = static_cast<std::uint64_t>(tok[i] - '0');
    if (magnitude > (~std::uint64_t{0} - d) / 10) overflow = true;
    if (!overflow) magnitude = magnitude * 10 + d;
  }
  // Range of the type: signed −2^(N−1) … 2^(N−1) − 1; unsigned 0 … 2^N − 1; pred 0, 1.
  std::string range;
  bool fits;
  if (info.kind == ElementKind::Signed) {
    const std::uint64_t max = low_mask(bits - 1);
    fits = !overflow && (negative ? magnitude <= max + 1 : magnitude <= max);
    range = "an integer from -" + u64_decimal(max + 1) + " to " + u64_decimal(max);
  } else {
    const std::uint64_t max = info.kind == ElementKind::Bool ? 1 : low_mask(bits);
    fits = !overflow && !negative && magnitude <= max;
    range = info.kind == ElementKind::Bool ? "true, false, 0 or 1"
                                           : "an integer from 0 to " + u64_decimal(max);
  }
  if (!fits) return fail(at, what() + " " + name + " element out of range", range, shown(tok));
  const std::uint64_t v = negative ? (~magnitude + 1) : magnitude;  // two's complement
  append(v & low_mask(bits), info.bytes);
  return true;
}

bool Decoder::float_element(ElementType t, std::size_t at, std::string_view tok) {
  FloatFormat f;
  float_format(t, &f);
  const ElementInfo& info = element_info(t);
  const std::string name = type_name(t);
  const std::string quoted = "\"" + shown(tok) + "\"";
  std::uint64_t bits = 0;
  if (tok.size() >= 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
    if (!hex_bits(t, at, tok, f.bits, &bits)) return false;
    append(bits, info.bytes);
    return true;
  }
  if (tok.size() >= 3 && tok[0] == '-' && tok[1] == '0' && (tok[2] == 'x' || tok[2] == 'X'))
    return fail(at, what() + " " + name + " element", "a hex bit pattern without a sign", quoted);
  if (tok == "true" || tok == "false")
    return fail(at, what() + " " + name + " element",
                "a number (true and false are for " + type_name(ElementType::Pred) + ")", quoted);
  const bool negative = !tok.empty() && tok[0] == '-';
  const std::string_view unsigned_tok = negative ? tok.substr(1) : tok;
  if (unsigned_tok == "inf") {
    if (f.special != Special::Ieee)
      return fail(at, what() + " " + name + " element",
                  "a finite value (" + name + " has no infinity)", quoted);
    append((low_mask(f.exponent_bits) << f.fraction_bits) | (negative ? sign_bit(f) : 0),
           info.bytes);
    return true;
  }
  if (unsigned_tok == "nan") {
    if (!canonical_nan(f, negative, &bits))
      return fail(at, what() + " " + name + " element", "a finite value (" + name + " has no NaN)",
                  quoted);
    append(bits, info.bytes);
    return true;
  }
  if (unsigned_tok.substr(0, 4) == "nan(") {
    // nan(0xPAYLOAD): the fraction bits of an IEEE-layout NaN (XLA prints payloads so).
    const std::string_view hex = unsigned_tok.substr(4, unsigned_tok.size() - 5);
    std::uint64_t payload = 0;
    if (f.special != Special::Ieee || unsigned_tok.back() != ')' || hex.size() < 3 ||
        hex[0] != '0' || (hex[1] != 'x' && hex[1] != 'X'))
      return fail(at, what() + " " + name + " NaN payload",
                  "nan(0xHEX) for a type with NaN payloads", quoted);
    if (!hex_bits(t, at, hex, f.fraction_bits, &payload)) return false;
    if (payload == 0)
      return fail(at, what() + " " + name + " NaN payload", "a non-zero payload (zero is inf)",
                  quoted);
    append((low_mask(f.exponent_bits) << f.fraction_bits) | payload | (negative ? sign_bit(f) : 0),
           info.bytes);
    return true;
  }
  bool integral;
  if (!decimal_syntax(tok, &integral))
    return fail(at, what() + " " + name + " element", "a number, inf or nan", quoted);
  if (tok.size() > kMaxNumberChars)
    return fail(at, what() + " " + name + " element",
                "a number of at most " + std::to_string(kMaxNumberChars) + " characters",
                std::to_string(tok.size()) + " characters");
  char buffer[kMaxNumberChars + 1];
  std::memcpy(buffer, tok.data(), tok.size());
  buffer[tok.size()] = '\0';
  const double x = std::strtod(buffer, nullptr);
  if (std::isinf(x))  // the decimal is past double's range: past every format's
    return fail(at, what() + " " + name + " element out of range",
                "a value that rounds to a finite " + name, quoted);
  switch (round_to_format(t, f, x, &bits)) {
    case Rounding::Ok:
      break;
    case Rounding::NotRepresentable:
      return fail(at, what() + " " + name + " element",
                  "a positive value (" + name + " holds powers of two)", quoted);
    case Rounding::OutOfRange: {
      const std::string limit = decimal_text(float_value(f, max_finite_bits(f)), 17);  // exact here
      if (f.special == Special::PowerOfTwo)
        return fail(at, what() + " " + name + " element out of range",
                    "a value from 2^-127 to 2^127", quoted);
      return fail(
          at, what() + " " + name + " element out of range",
          "a magnitude that rounds to at most " + limit + " (the largest finite " + name + ")",
          quoted);
    }
  }
  append(bits, info.bytes);
  return true;
}

// One element of type t at p_: a scalar token, or (re, im) for complex.
bool Decoder::element(ElementType t) {
  const ElementKind kind = element_kind(t);
  if (kind == ElementKind::Complex) {
    if (peek() != '(') {
      std::size_t at;
      std::string_view tok;
      if (!scalar_token(&at, &tok)) return false;
      return fail(at, what() + " " + type_name(t) + " element", "a pair (re, im)",
                  "\"" + shown(tok) + "\"");
    }
    ++p_;
    const ElementType part = complex_component(t);
    if (!skip_space() || !element(part) || !skip_space()) return false;
    if (peek() != ',')
      return fail(p_, what() + " " + type_name(t) + " element", "',' between re and im",
                  got_here());
    ++p_;
    if (!skip_space() || !element(part) || !skip_space()) return false;
    if (peek() != ')')
      return fail(p_, what() + " " + type_name(t) + " element", "')' after im", got_here());
    ++p_;
    return true;
  }
  if (dialect_ == Dialect::Hlo && s_.substr(p_, 3) == "...")
    return fail(p_, "HLO literal is elided",
                "the values (print the module with print_large_constants)", "{...}");
  std::size_t at;
  std::string_view tok;
  if (!scalar_token(&at, &tok)) return false;
  if (kind == ElementKind::Float) return float_element(t, at, tok);
  return integer_element(t, at, tok);
}

// A list at p_ (its opening bracket) for dimension `level`: dims_[level] items, each a list for
// the next dimension or, at the last one, an element. Depth is bounded by the rank (≤ 256).
bool Decoder::list(std::size_t level) {
  const std::size_t open_at = p_;
  ++p_;
  if (!skip_space()) return false;
  const std::int64_t want = dims_[level];
  const bool last = level + 1 == dims_.size();
  std::int64_t items = 0;
  const std::string where = level == 0 ? std::string() : " at depth " + std::to_string(level + 1);
  if (peek() != close()) {
    while (true) {
      if (items == want) {
        if (dims_.size() == 1)
          return fail(p_, what() + " has more than " + std::to_string(want) + " elements",
                      std::to_string(count_) + " for " + tensor_name(), "another at " + got_here());
        return fail(p_,
                    what() + " list" + where + " has more than " + std::to_string(want) + " items",
                    std::to_string(want) + " (dimension " + std::to_string(level) + " of " +
                        tensor_name() + ")",
                    "another at " + got_here());
      }
      if (!last) {
        if (peek() != open())
          return fail(p_, what() + " nesting",
                      std::string("'") + open() + "' opening dimension " +
                          std::to_string(level + 1) + " of " + tensor_name(),
                      got_here());
        if (!list(level + 1)) return false;
      } else if (!element(type_)) {
        return false;
      }
      ++items;
      if (!skip_space()) return false;
      if (peek() == ',') {
        ++p_;
        if (!skip_space()) return false;
        continue;
      }
      if (peek() == close()) break;
      return fail(p_, what() + " list", std::string("',' or '") + close() + "'", got_here());
    }
  }
  const std::size_t close_at = p_;
  ++p_;
  if (items != want) {
    if (dims_.size() == 1)
      return fail(close_at, what() + " has " + count_of(items, "element"),
                  std::to_string(count_) + " for " + tensor_name(), std::to_string(items));
    return fail(items == 0 ? open_at : close_at,
                what() + " list" + where + " has " + count_of(items, "item"),
                std::to_string(want) + " (dimension " + std::to_string(level) + " of " +
                    tensor_name() + ")",
                std::to_string(items));
  }
  return true;
}

// dense<"0x...">: the raw little-endian storage, all elements or one (a splat).
bool Decoder::hex_blob() {
  const std::size_t quote_at = p_;
  const std::size_t end = s_.find('"', p_ + 1);
  if (end == std::string_view::npos)
    return fail(quote_at, what() + " hex string", "a closing '\"'", "the end of the text");
  const std::string_view body = s_.substr(p_ + 1, end - p_ - 1);
  if (body.size() < 2 || body[0] != '0' || body[1] != 'x')
    return fail(quote_at + 1, what() + " hex string", "\"0x\" followed by hex digits",
                "\"" + shown(body) + "\"");
  const std::string_view digits = body.substr(2);
  for (std::size_t i = 0; i < digits.size(); ++i)
    if (hex_value(digits[i]) < 0)
      return fail(quote_at + 3 + i, what() + " hex string", "hex digits 0-9 A-F",
                  "\"" + std::string(1, digits[i]) + "\"");
  if (digits.size() % 2 != 0)
    return fail(quote_at + 3, what() + " hex string", "an even number of hex digits (two per byte)",
                std::to_string(digits.size()) + " digits");
  const std::size_t n_bytes = digits.size() / 2;
  const ElementInfo& info = element_info(type_);
  const std::size_t width = static_cast<std::size_t>(info.bytes);
  auto byte_at = [&](std::size_t i) {
    return static_cast<std::uint8_t>(hex_value(digits[2 * i]) * 16 + hex_value(digits[2 * i + 1]));
  };
  const std::uint64_t n = static_cast<std::uint64_t>(count_);
  p_ = end + 1;

  if (type_ == ElementType::Pred) {
    // See the file comment: n bytes (current MLIR), one byte (a splat), ceil(n/8) packed bits.
    const std::uint64_t packed = n / 8 + (n % 8 != 0);
    auto bool_byte = [&](std::size_t i) {
      const std::uint8_t b = byte_at(i);
      if (b > 1)
        return fail(quote_at + 3 + 2 * i, what() + " i1 byte " + std::to_string(i), "0x00 or 0x01",
                    hex_byte(b));
      out_.push_back(b);
      return true;
    };
    auto unpack = [&]() {
      for (std::uint64_t i = 0; i < n; ++i) out_.push_back((byte_at(i / 8) >> (i % 8)) & 1);
    };
    if (n_bytes == 1) {
      const std::uint8_t b = byte_at(0);
      if (b <= 1 || b == 0xFF) {
        out_.push_back(b ? 1 : 0);
        splat_ = n > 1;
      } else if (n >= 2 && n <= 8) {
        unpack();
      } else {
        return bool_byte(0);
      }
      return true;
    }
    if (n_bytes == n) {
      for (std::size_t i = 0; i < n_bytes; ++i)
        if (!bool_byte(i)) return false;
      return true;
    }
    if (n_bytes == packed) {  // n > 8 here: two or more packed bytes
      unpack();
      return true;
    }
    return fail(quote_at, what() + " hex string has " + std::to_string(n_bytes) + " bytes",
                u64_decimal(n) + " (one per i1 of " + tensor_name() + "), 1 (a splat) or " +
                    u64_decimal(packed) + " (bit-packed, before MLIR's 2026 change)",
                std::to_string(n_bytes));
  }

  const bool one = n_bytes == width;
  const bool all = n_bytes % width == 0 && n_bytes / width == n;
  if (!one && !all)
    return fail(quote_at, what() + " hex string has " + std::to_string(n_bytes) + " bytes",
                u64_decimal(n) + " x " + std::to_string(width) + " bytes for " + tensor_name() +
                    ", or " + std::to_string(width) + " (a splat)",
                std::to_string(n_bytes));
  // Sub-byte types keep the value in the low bits of each byte; the rest must be zero.
  const int value_bits = info.bits;
  const bool sub_byte = value_bits < 8 && info.kind != ElementKind::Bool;
  out_.reserve(n_bytes);
  for (std::size_t i = 0; i < n_bytes; ++i) {
    const std::uint8_t b = byte_at(i);
    if (sub_byte && (b >> value_bits) != 0)
      return fail(quote_at + 3 + 2 * i,
                  what() + " " + element_name() + " byte " + std::to_string(i),
                  "a value in the low " + std::to_string(value_bits) + " bits", hex_byte(b));
    out_.push_back(b);
  }
  // All n elements, or one element's bytes standing for n ≠ 1 of them (for n = 1 the two agree).
  splat_ = !all && n > 1;
  return true;
}

// The value: empty, a hex blob, a list, or a single value (a splat).
bool Decoder::body() {
  if (!skip_space()) return false;
  const char c = peek();
  if (dialect_ == Dialect::Mlir && c == '>') {
    if (count_ != 0)
      return fail(p_, what() + " is empty", count_of(count_, "element") + " for " + tensor_name(),
                  "dense<>");
    return true;
  }
  if (dialect_ == Dialect::Mlir && c == '"') return hex_blob();
  if (dialect_ == Dialect::Hlo && c == '{') {
    std::size_t q = p_ + 1;
    while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\n' || s_[q] == '\t' || s_[q] == '\r')) ++q;
    if (s_.substr(q, 3) == "...")
      return fail(p_, "HLO literal is elided",
                  "the values (print the module with print_large_constants)", "{...}");
  }
  if (c == open()) {
    if (dims_.empty())
      return fail(p_, what() + " for " + tensor_name(), "a single value (the tensor is a scalar)",
                  "a list");
    return list(0);
  }
  if (dialect_ == Dialect::Hlo && !dims_.empty())
    return fail(
        p_, what() + " for " + tensor_name(),
        std::string("'") + open() + "' opening a list of " + std::to_string(dims_[0]) + " items",
        got_here());
  // A single value: the whole tensor for a scalar or one element, a splat otherwise.
  if (!element(type_)) return false;
  splat_ = count_ > 1;
  if (count_ == 0) out_.clear();  // a splat of nothing: no elements to keep
  return true;
}

Result<Literal> Decoder::run(std::size_t* error_offset) {
  bool ok = check_type_and_shape();
  if (ok && dialect_ == Dialect::Mlir) {
    ok = skip_space();
    if (ok && s_.substr(p_, 6) != "dense<") ok = fail(p_, what(), "dense<...>", got_here());
    if (ok) p_ += 6;
  }
  ok = ok && body() && skip_space();
  if (ok && dialect_ == Dialect::Mlir) {
    if (peek() != '>') {
      ok = fail(p_, what(), "'>' closing dense<", got_here());
    } else {
      ++p_;
      ok = skip_space();
      if (ok && !at_end() && peek() != ':')
        ok = fail(p_, what(), "the end, or ': tensor<...>'", got_here());
      p_ = s_.size();  // ": type" is the caller's; ignored here
    }
  }
  if (ok && !at_end()) ok = fail(p_, what(), "the end of the literal", got_here());
  if (!ok) {
    if (error_offset) *error_offset = error_at_;
    return Result<Literal>::failure(error_);
  }
  Literal lit;
  lit.type = type_;
  lit.dims = dims_;
  lit.splat = splat_ && count_ > 1;
  if (count_ == 0) out_.clear();
  lit.bytes = std::move(out_);
  return Result<Literal>::success(std::move(lit));
}

// ---- formatting
// -----------------------------------------------------------------------------------

std::uint64_t load_le(const std::uint8_t* p, int bytes) {  // bytes ≤ 8
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

// Decimal text with `digits` significant digits (%.*e gives d.ddde±X), written plain
// (65500, 0.001) or with an exponent (1e-7, 3.4028235e38), whichever is shorter; plain on a tie.
std::string decimal_text(double v, int digits) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, v);
  std::string text = buffer;
  const std::size_t e_at = text.find('e');
  int exponent = 0;  // printf's exponent: a sign and two or three digits, never out of range
  const char* e_text = text.c_str() + e_at + 1;
  if (*e_text == '+') ++e_text;
  std::from_chars(e_text, text.c_str() + text.size(), exponent);
  std::string mantissa = text.substr(0, e_at);
  const bool negative = mantissa[0] == '-';
  std::string d;  // the significant digits alone
  for (char c : mantissa)
    if (is_digit(c)) d += c;
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  const std::string sign = negative ? "-" : "";
  const std::string scientific = sign + d.substr(0, 1) + (d.size() > 1 ? "." + d.substr(1) : "") +
                                 "e" + std::to_string(exponent);
  std::string plain;
  if (exponent >= 0) {
    const std::size_t int_digits = static_cast<std::size_t>(exponent) + 1;
    if (d.size() <= int_digits)
      plain = d + std::string(int_digits - d.size(), '0');
    else
      plain = d.substr(0, int_digits) + "." + d.substr(int_digits);
  } else {
    plain = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + d;
  }
  plain = sign + plain;
  return plain.size() <= scientific.size() ? plain : scientific;
}

// The shortest text that reads back (strtod, then rounding to the format, as the decoder does)
// to the same bits: the fewest significant digits that do, in the shorter notation.
std::string format_float(ElementType t, std::uint64_t bits) {
  FloatFormat f;
  float_format(t, &f);
  bits &= low_mask(f.bits);
  const bool negative = (bits & sign_bit(f)) != 0;
  if (is_nan_bits(f, bits)) {
    std::uint64_t canonical;
    if (canonical_nan(f, false, &canonical) && bits == canonical) return "nan";
    if (canonical_nan(f, true, &canonical) && bits == canonical) return "-nan";
    char buffer[24];  // any other NaN as its bit pattern, which both dialects read back
    std::snprintf(buffer, sizeof buffer, "0x%0*llX", (f.bits + 3) / 4,
                  static_cast<unsigned long long>(bits));
    return buffer;
  }
  if (is_inf_bits(f, bits)) return negative ? "-inf" : "inf";
  const double v = float_value(f, bits);
  if (v == 0) return negative ? "-0" : "0";
  for (int digits = 1; digits < 17; ++digits) {
    const std::string text = decimal_text(v, digits);
    std::uint64_t back;
    if (round_to_format(t, f, std::strtod(text.c_str(), nullptr), &back) == Rounding::Ok &&
        back == bits)
      return text;
  }
  return decimal_text(v, 17);  // 17 significant digits identify every double
}

}  // namespace

std::int64_t Literal::elements() const {
  std::int64_t n = 1;
  for (auto d : dims) {
    if (d <= 0) return d == 0 ? 0 : -1;  // a negative (dynamic) size: unknown
    if (__builtin_mul_overflow(n, d, &n)) return INT64_MAX;
  }
  return n;
}

Result<Literal> decode_dense(std::string_view text, ElementType type,
                             const std::vector<std::int64_t>& dims, std::size_t* error_offset) {
  return Decoder(text, Dialect::Mlir, type, dims).run(error_offset);
}

Result<Literal> decode_hlo_literal(std::string_view text, ElementType type,
                                   const std::vector<std::int64_t>& dims,
                                   std::size_t* error_offset) {
  return Decoder(text, Dialect::Hlo, type, dims).run(error_offset);
}

std::string format_element(ElementType type, const std::uint8_t* element) {
  const ElementInfo& info = element_info(type);
  if (!element || info.bytes <= 0) return "?";
  // One element of at most 8 bytes; complex types read their two halves below.
  const std::uint64_t raw = info.kind == ElementKind::Complex ? 0 : load_le(element, info.bytes);
  switch (info.kind) {
    case ElementKind::Bool:
      return raw ? "true" : "false";
    case ElementKind::Unsigned:
      return u64_decimal(raw & low_mask(info.bits));
    case ElementKind::Signed: {
      const std::uint64_t v = raw & low_mask(info.bits);
      const bool negative = (v >> (info.bits - 1)) & 1;
      // Magnitude of a negative N-bit value: 2^N − v (as unsigned arithmetic modulo 2^N).
      return signed_decimal(negative ? (~v + 1) & low_mask(info.bits) : v, negative);
    }
    case ElementKind::Float:
      return format_float(type, raw);
    case ElementKind::Complex: {
      const ElementType part = complex_component(type);
      const int half = info.bytes / 2;
      return "(" + format_float(part, load_le(element, half)) + ", " +
             format_float(part, load_le(element + half, half)) + ")";
    }
    case ElementKind::None:
      break;
  }
  return "?";
}

}  // namespace rl::hlo
