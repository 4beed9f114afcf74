#include "hlo/jax_emit.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>

#include "common/float16.h"

namespace rl::hlo::jax {

namespace {

// A symbol as MLIR prints it: @name when the name is a bare identifier ([A-Za-z_][A-Za-z0-9_$.]*),
// else quoted with '"' and '\\' escaped and other unprintable bytes as \XX
// (llvm::printEscapedString): a jitted lambda's function is @"<lambda>".
std::string symbol_ref(const std::string& n) {
  auto head = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto tail = [&](char c) {
    return head(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$' || c == '.';
  };
  if (!n.empty() && head(n[0]) && std::all_of(n.begin() + 1, n.end(), tail)) return "@" + n;
  static const char* hex = "0123456789ABCDEF";
  std::string out = "@\"";
  for (char ch : n) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c >= 0x7f) {
      out += '\\';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string join(const std::vector<std::int64_t>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

// Bits of v in `dtype`'s format, and v rounded to that format, for the float types.
std::uint64_t float_bits(double v, const std::string& dtype) {
  if (dtype == "f64") return rl::double_bits(v);
  if (dtype == "f32") return rl::float_bits(static_cast<float>(v));
  if (dtype == "f16") return rl::f64_to_f16(v);
  return rl::f64_to_bf16(v);
}

double round_to(double v, const std::string& dtype) {
  if (dtype == "f64") return v;
  if (dtype == "f32") return static_cast<float>(v);
  if (dtype == "f16") return rl::f16_to_f64(rl::f64_to_f16(v));
  return rl::bf16_to_f64(rl::f64_to_bf16(v));
}

int mantissa_bits(const std::string& dtype) {
  return dtype == "f64" ? 53 : dtype == "f32" ? 24 : dtype == "f16" ? 11 : 8;
}

// |v| rounded to `precision` significant decimal digits, halves away from zero (APFloat's
// toString rounds the exact decimal expansion that way; printf rounds halves to even): the digits
// and the power of ten of the first one.
std::pair<std::string, int> decimal_digits(double v, int precision) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%.60e", std::fabs(v));
  const std::string s = buffer;
  const auto e = s.find('e');
  int exp10 = std::atoi(s.c_str() + e + 1);
  std::string all = s.substr(0, 1) + s.substr(2, e - 2);
  std::string digits = all.substr(0, precision);
  if (all[precision] >= '5') {
    int i = precision - 1;
    while (i >= 0 && digits[i] == '9') digits[i--] = '0';
    if (i >= 0)
      ++digits[i];
    else {
      digits = "1" + digits.substr(0, precision - 1);
      ++exp10;
    }
  }
  return {digits, exp10};
}

std::string hex_bits(double v, const std::string& dtype) {
  const int digits = dtype == "f64" ? 16 : dtype == "f32" ? 8 : 4;
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%0*llX", digits,
                static_cast<unsigned long long>(float_bits(v, dtype)));
  return buffer;
}

}  // namespace

std::string type_text(const Aval& a) {
  std::string out = "tensor<";
  for (auto d : a.dims) out += std::to_string(d) + "x";
  return out + a.dtype + ">";
}

bool is_float(const std::string& t) {
  return t == "f16" || t == "bf16" || t == "f32" || t == "f64";
}
bool is_unsigned(const std::string& t) { return t.size() > 2 && t[0] == 'u' && t[1] == 'i'; }
bool is_bool(const std::string& t) { return t == "i1"; }
bool is_signed_int(const std::string& t) { return !t.empty() && t[0] == 'i' && t != "i1"; }

// MLIR's printFloatValue (mlir/lib/IR/AsmPrinter.cpp): APFloat::toString with precision 6, no
// padding and zeros kept ("1.000000e-01") when that parses back to the same bits; otherwise
// APFloat::toString's default (2 + precision·59/196 significant digits, trailing zeros dropped,
// plain notation unless it needs more than 3 padding zeros, 'E' exponents) when it has a '.';
// otherwise hex.
std::string float_literal(double v, const std::string& dtype) {
  v = round_to(v, dtype);
  if (!std::isfinite(v)) return hex_bits(v, dtype);
  const std::string sign = std::signbit(v) ? "-" : "";
  {
    auto [d6, e6] = decimal_digits(v, 6);
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "e%c%02d", e6 < 0 ? '-' : '+', std::abs(e6));
    const std::string text = sign + d6.substr(0, 1) + "." + d6.substr(1) + "0" + buffer;
    if (float_bits(std::strtod(text.c_str(), nullptr), dtype) == float_bits(v, dtype)) return text;
  }
  const int precision = 2 + mantissa_bits(dtype) * 59 / 196;
  auto [digits, exp10] = decimal_digits(v, precision);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int n = static_cast<int>(digits.size());
  const int exp = exp10 - (n - 1);  // of the last digit
  bool scientific;
  if (exp >= 0)
    scientific = exp > 3 || n + exp > precision;
  else
    scientific = exp + n - 1 < 0 && -(exp + n - 1) > 3;
  std::string out = sign;
  if (scientific) {
    out += digits.substr(0, 1) + "." + (n == 1 ? std::string("0") : digits.substr(1));
    out += std::string("E") + (exp10 >= 0 ? "+" : "-") + std::to_string(std::abs(exp10));
  } else if (exp >= 0) {
    out += digits + std::string(exp, '0');
  } else {
    const int whole = exp + n;
    if (whole > 0)
      out += digits.substr(0, whole) + "." + digits.substr(whole);
    else
      out += "0." + std::string(-whole, '0') + digits;
  }
  if (out.find('.') == std::string::npos) return hex_bits(v, dtype);
  return out;
}

Emitter::Emitter(std::string name, const std::vector<Aval>& args) : module_name_(std::move(name)) {
  // The module's name as JAX makes it (mlir.py's _module_name_regex): a character other than a
  // letter, digit, _, . or - becomes _ (jax.jit of a lambda is @jit__lambda_).
  for (char& c : module_name_)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
  funcs_.emplace_back();
  funcs_[0].name = "main";
  funcs_[0].is_public = true;
  funcs_[0].arg_types = args;
  funcs_[0].next_arg = int(args.size());
  stack_.push_back(0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    cur().types.push_back(args[i]);
    cur().names.push_back("%arg" + std::to_string(i));
  }
}

const Aval& Emitter::aval(Value v) const { return cur().types[v.id]; }

Emitter::Rec* Emitter::keep(const Nest& nest, Prim prim, const Ins& reads, const Ins& results) {
  if (!nest.outer) return nullptr;
  Rec rec;
  rec.prim = prim;
  for (Value v : reads) rec.reads.push_back(v.id);
  for (Value v : results) rec.results.push_back(v.id);
  cur().recs.push_back(std::move(rec));
  return &cur().recs.back();
}

// A recorded primitive made again on e, from e's values `in` (calls to fm(callee)).
Emitter::Ins Emitter::make(Emitter& e, const Rec& k, const Ins& in, const FnMap& fm) {
  switch (k.prim) {
    case Prim::Constant:
      return {k.flag ? e.constant_array(k.data, k.type) : e.constant(k.x, k.type)};
    case Prim::Unary:
      return {e.unary(k.s, in[0])};
    case Prim::IsFinite:
      return {e.is_finite(in[0])};
    case Prim::Binary:
      return {e.binary(k.s, in[0], in[1])};
    case Prim::Compare:
      return {e.compare(k.s, in[0], in[1])};
    case Prim::Select:
      return {e.select(in[0], in[1], in[2])};
    case Prim::Clamp:
      return {e.clamp(in[0], in[1], in[2])};
    case Prim::Convert:
      return {e.convert(in[0], k.s)};
    case Prim::BitcastConvert:
      return {e.bitcast_convert(in[0], k.s)};
    case Prim::ReducePrecision:
      return {e.reduce_precision(in[0], k.v1[0], k.v1[1])};
    case Prim::BroadcastInDim:
      return {e.broadcast_in_dim(in[0], k.v1, k.v2)};
    case Prim::Reshape:
      return {e.reshape(in[0], k.v1)};
    case Prim::Transpose:
      return {e.transpose(in[0], k.v1)};
    case Prim::DotGeneral:
      return {e.dot_general(in[0], in[1], k.v1, k.v2, k.v3, k.v4, k.s)};
    case Prim::Reduce:
      return {e.reduce(in[0], in[1], k.s, k.v1)};
    case Prim::Iota:
      return {e.iota(k.type, k.n)};
    case Prim::ArgMinMax:
      return {e.argminmax(in[0], k.n, k.s, k.flag)};
    case Prim::ReduceWindow:
      return {e.reduce_window(in[0], in[1], k.s, k.v1, k.v2, k.pads)};
    case Prim::Convolution:
      return {e.convolution(in[0], in[1], k.s, k.type, k.v1, k.pads, k.v2, k.v3)};
    case Prim::Reverse:
      return {e.reverse(in[0], k.v1)};
    case Prim::Slice:
      return {e.slice(in[0], k.v1, k.v2, k.v3)};
    case Prim::Gather:
      return {e.gather(in[0], in[1], k.v1, k.v2, k.v3, k.v4)};
    case Prim::Scatter:
      return {e.scatter(in[0], in[1], in[2], k.s, k.v1, k.v2, k.v3, k.flag, k.n != 0)};
    case Prim::Concatenate:
      return {e.concatenate(in, k.n)};
    case Prim::DynamicSlice:
      return {e.dynamic_slice(in[0], Ins(in.begin() + 1, in.end()), k.v1)};
    case Prim::DynamicUpdateSlice:
      return {e.dynamic_update_slice(in[0], in[1], Ins(in.begin() + 2, in.end()))};
    case Prim::Pad:
      return {e.pad(in[0], in[1], k.v1, k.v2, k.v3)};
    case Prim::Sort:
      return e.sort(in, k.n, k.flag, std::int64_t(k.x));
    case Prim::TopK: {
      const auto [values, indices] = e.top_k(in[0], k.n);
      return {values, indices};
    }
    case Prim::Call:
      return e.call(fm(k.callee), in);
    case Prim::ScanWhile:
      return e.scan_while(Ins(in.begin(), in.begin() + std::ptrdiff_t(k.n)),
                          Ins(in.begin() + std::ptrdiff_t(k.n), in.end()), k.v1[0], fm(k.callee));
  }
  return {};
}

Value Emitter::add(const Aval& type, std::string n) {
  Function& f = cur();
  if (n.empty()) n = "%" + std::to_string(f.next_id++);
  f.types.push_back(type);
  f.names.push_back(std::move(n));
  return Value{int(f.types.size() - 1)};
}

// MLIR's SSANameState::uniqueValueName: the first use of a name is bare, later ones probe
// name_<k> with one conflict counter per function shared by all names.
std::string Emitter::fresh_constant_name(const std::string& base) {
  Function& f = cur();
  std::string n = base;
  if (f.used.count(n)) {
    do n = base + "_" + std::to_string(f.next_conflict++);
    while (f.used.count(n));
  }
  f.used[n] = 1;
  return "%" + n;
}

namespace {

// An integer element as a double past 64 bits saturates to the type's end (2^63 - 1 and 2^64 - 1
// are not doubles: an int64 max reduction's init value arrives as 2^63); its bits.
std::uint64_t int_bits(double v, const std::string& dtype) {
  if (is_unsigned(dtype) && v >= 0)
    return v >= 18446744073709551615.0 ? ~0ULL : static_cast<unsigned long long>(v);
  const long long i = v >= 9223372036854775807.0    ? LLONG_MAX
                      : v <= -9223372036854775808.0 ? LLONG_MIN
                                                    : static_cast<long long>(v);
  return static_cast<std::uint64_t>(i);
}

// One element as a dense attribute writes it: a float's MLIR literal, true/false, an integer in
// decimal (unsigned types as unsigned).
std::string element_literal(double v, const std::string& dtype) {
  if (is_float(dtype)) return float_literal(v, dtype);
  if (is_bool(dtype)) return v != 0 ? "true" : "false";
  char buffer[32];
  const std::uint64_t b = int_bits(v, dtype);
  if (is_unsigned(dtype) && v >= 0)
    std::snprintf(buffer, sizeof buffer, "%llu", static_cast<unsigned long long>(b));
  else
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(b));
  return buffer;
}

// The element's bytes in its storage width (i1: one byte), as the low bits of a word.
int element_bytes(const std::string& dtype) {
  if (dtype == "i1" || dtype == "i8" || dtype == "ui8") return 1;
  if (dtype == "f16" || dtype == "bf16" || dtype == "i16" || dtype == "ui16") return 2;
  if (dtype == "f32" || dtype == "i32" || dtype == "ui32") return 4;
  return 8;
}
std::uint64_t element_word(double v, const std::string& dtype) {
  if (is_float(dtype)) return float_bits(v, dtype);
  if (is_bool(dtype)) return v != 0 ? 1 : 0;
  return int_bits(v, dtype);
}

}  // namespace

Value Emitter::constant(double v, const Aval& type) {
  Nest nest(*this);
  Value r = add(type, fresh_constant_name(is_float(type.dtype) ? "cst" : "c"));
  cur().lines.push_back(name(r) + " = stablehlo.constant dense<" + element_literal(v, type.dtype) +
                        "> : " + type_text(type));
  if (Rec* k = keep(nest, Prim::Constant, {}, {r})) {
    k->x = v;
    k->type = type;
  }
  return r;
}

Value Emitter::constant_array(const std::vector<double>& values, const Aval& type) {
  Nest nest(*this);
  const std::string& t = type.dtype;
  bool splat = !values.empty();
  for (std::size_t k = 1; splat && k < values.size(); ++k)
    splat = element_word(values[k], t) == element_word(values[0], t);
  std::string body;
  if (splat) {
    body = element_literal(values[0], t);
  } else if (values.size() > 100) {  // MLIR's printer: hex past 100 elements
    static const char* hex = "0123456789ABCDEF";
    const int n = element_bytes(t);
    body.reserve(4 + values.size() * std::size_t(n) * 2);
    body = "\"0x";
    for (double v : values) {
      const std::uint64_t w = element_word(v, t);
      for (int b = 0; b < n; ++b) {
        const unsigned byte = unsigned(w >> (8 * b)) & 0xFF;
        body += hex[byte >> 4];
        body += hex[byte & 15];
      }
    }
    body += '"';
  } else if (!values.empty()) {
    // Nested lists, one level per dimension.
    std::size_t k = 0;
    std::function<void(std::size_t)> level = [&](std::size_t d) {
      if (d == type.dims.size()) {
        body += element_literal(values[k++], t);
        return;
      }
      body += '[';
      for (std::int64_t j = 0; j < type.dims[d]; ++j) {
        if (j) body += ", ";
        level(d + 1);
      }
      body += ']';
    };
    level(0);
  }
  Value r = add(type, fresh_constant_name(is_float(t) ? "cst" : "c"));
  cur().lines.push_back(name(r) + " = stablehlo.constant dense<" + body + "> : " + type_text(type));
  if (Rec* k = keep(nest, Prim::Constant, {}, {r})) {
    k->data = values;
    k->type = type;
    k->flag = true;
  }
  return r;
}

Value Emitter::unary(const std::string& op, Value x) {
  Nest nest(*this);
  Value r = add(aval(x), "");
  if (op.rfind("chlo.", 0) == 0)  // CHLO prints `: T -> R`
    cur().lines.push_back(name(r) + " = " + op + " " + name(x) + " : " + tt(x) + " -> " + tt(r));
  else
    cur().lines.push_back(name(r) + " = stablehlo." + op + " " + name(x) + " : " + tt(r));
  if (Rec* k = keep(nest, Prim::Unary, {x}, {r})) {
    k->s = op;
  }
  return r;
}

Value Emitter::is_finite(Value x) {
  Nest nest(*this);
  Value r = add(Aval{aval(x).dims, "i1"}, "");
  cur().lines.push_back(name(r) + " = stablehlo.is_finite " + name(x) + " : (" + tt(x) + ") -> " +
                        tt(r));
  keep(nest, Prim::IsFinite, {x}, {r});
  return r;
}

Value Emitter::binary(const std::string& op, Value a, Value b) {
  Nest nest(*this);
  Value r = add(aval(a), "");
  if (op.rfind("chlo.", 0) == 0)  // CHLO prints `: A, B -> R`
    cur().lines.push_back(name(r) + " = " + op + " " + name(a) + ", " + name(b) + " : " + tt(a) +
                          ", " + tt(b) + " -> " + tt(r));
  else
    cur().lines.push_back(name(r) + " = stablehlo." + op + " " + name(a) + ", " + name(b) + " : " +
                          tt(r));
  if (Rec* k = keep(nest, Prim::Binary, {a, b}, {r})) {
    k->s = op;
  }
  return r;
}

Value Emitter::compare(const std::string& direction, Value a, Value b) {
  Nest nest(*this);
  const std::string& t = aval(a).dtype;
  const std::string kind = is_float(t) ? "FLOAT" : is_signed_int(t) ? "SIGNED" : "UNSIGNED";
  Value r = add(Aval{aval(a).dims, "i1"}, "");
  cur().lines.push_back(name(r) + " = stablehlo.compare  " + direction + ", " + name(a) + ", " +
                        name(b) + ",  " + kind + " : (" + tt(a) + ", " + tt(b) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Compare, {a, b}, {r})) {
    k->s = direction;
  }
  return r;
}

Value Emitter::select(Value p, Value t, Value f) {
  Nest nest(*this);
  Value r = add(aval(t), "");
  cur().lines.push_back(name(r) + " = stablehlo.select " + name(p) + ", " + name(t) + ", " +
                        name(f) + " : " + tt(p) + ", " + tt(r));
  keep(nest, Prim::Select, {p, t, f}, {r});
  return r;
}

Value Emitter::clamp(Value lo, Value x, Value hi) {
  Nest nest(*this);
  Value r = add(aval(x), "");
  cur().lines.push_back(
      name(r) + " = stablehlo.clamp " + name(lo) + ", " + name(x) + ", " + name(hi) + " : " +
      (aval(lo) == aval(x) ? tt(r)
                           : "(" + tt(lo) + ", " + tt(x) + ", " + tt(hi) + ") -> " + tt(r)));
  keep(nest, Prim::Clamp, {lo, x, hi}, {r});
  return r;
}

Value Emitter::convert(Value x, const std::string& dtype) {
  Nest nest(*this);
  Value r = add(Aval{aval(x).dims, dtype}, "");
  if (aval(x).dtype == dtype)
    cur().lines.push_back(name(r) + " = stablehlo.convert " + name(x) + " : " + tt(r));
  else
    cur().lines.push_back(name(r) + " = stablehlo.convert " + name(x) + " : (" + tt(x) + ") -> " +
                          tt(r));
  if (Rec* k = keep(nest, Prim::Convert, {x}, {r})) {
    k->s = dtype;
  }
  return r;
}

Value Emitter::bitcast_convert(Value x, const std::string& dtype) {
  Nest nest(*this);
  Value r = add(Aval{aval(x).dims, dtype}, "");
  cur().lines.push_back(name(r) + " = stablehlo.bitcast_convert " + name(x) + " : (" + tt(x) +
                        ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::BitcastConvert, {x}, {r})) k->s = dtype;
  return r;
}

Value Emitter::reduce_precision(Value x, std::int64_t exponent_bits, std::int64_t mantissa_bits) {
  Nest nest(*this);
  Value r = add(aval(x), "");
  cur().lines.push_back(name(r) + " = stablehlo.reduce_precision " + name(x) + ", format = e" +
                        std::to_string(exponent_bits) + "m" + std::to_string(mantissa_bits) +
                        " : " + tt(r));
  if (Rec* k = keep(nest, Prim::ReducePrecision, {x}, {r})) k->v1 = {exponent_bits, mantissa_bits};
  return r;
}

Value Emitter::broadcast_in_dim(Value x, const std::vector<std::int64_t>& dims,
                                const std::vector<std::int64_t>& bd) {
  Nest nest(*this);
  Value r = add(Aval{dims, aval(x).dtype}, "");
  cur().lines.push_back(name(r) + " = stablehlo.broadcast_in_dim " + name(x) +
                        ", dims = " + join(bd) + " : (" + tt(x) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::BroadcastInDim, {x}, {r})) {
    k->v1 = dims;
    k->v2 = bd;
  }
  return r;
}

Value Emitter::reshape(Value x, const std::vector<std::int64_t>& dims) {
  Nest nest(*this);
  Value r = add(Aval{dims, aval(x).dtype}, "");
  cur().lines.push_back(name(r) + " = stablehlo.reshape " + name(x) + " : (" + tt(x) + ") -> " +
                        tt(r));
  if (Rec* k = keep(nest, Prim::Reshape, {x}, {r})) {
    k->v1 = dims;
  }
  return r;
}

Value Emitter::transpose(Value x, const std::vector<std::int64_t>& perm) {
  Nest nest(*this);
  Aval t{{}, aval(x).dtype};
  for (auto p : perm) t.dims.push_back(aval(x).dims[p]);
  Value r = add(t, "");
  cur().lines.push_back(name(r) + " = stablehlo.transpose " + name(x) + ", dims = " + join(perm) +
                        " : (" + tt(x) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Transpose, {x}, {r})) {
    k->v1 = perm;
  }
  return r;
}

Value Emitter::dot_general(Value a, Value b, const std::vector<std::int64_t>& lb,
                           const std::vector<std::int64_t>& rb, const std::vector<std::int64_t>& lc,
                           const std::vector<std::int64_t>& rc, const std::string& out_dtype) {
  Nest nest(*this);
  // Result dimensions: batch, then lhs free, then rhs free (the StableHLO spec's order).
  const Aval& ta = aval(a);
  const Aval& tb = aval(b);
  Aval t{{}, out_dtype.empty() ? ta.dtype : out_dtype};
  auto in = [](const std::vector<std::int64_t>& v, std::int64_t d) {
    for (auto x : v)
      if (x == d) return true;
    return false;
  };
  for (auto d : lb) t.dims.push_back(ta.dims[d]);
  for (std::int64_t d = 0; d < std::int64_t(ta.dims.size()); ++d)
    if (!in(lb, d) && !in(lc, d)) t.dims.push_back(ta.dims[d]);
  for (std::int64_t d = 0; d < std::int64_t(tb.dims.size()); ++d)
    if (!in(rb, d) && !in(rc, d)) t.dims.push_back(tb.dims[d]);
  Value r = add(t, "");
  std::string dims;
  if (!lb.empty()) dims += "batching_dims = " + join(lb) + " x " + join(rb) + ", ";
  dims += "contracting_dims = " + join(lc) + " x " + join(rc);
  cur().lines.push_back(name(r) + " = stablehlo.dot_general " + name(a) + ", " + name(b) + ", " +
                        dims + ", precision = [DEFAULT, DEFAULT] : (" + tt(a) + ", " + tt(b) +
                        ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::DotGeneral, {a, b}, {r})) {
    k->v1 = lb;
    k->v2 = rb;
    k->v3 = lc;
    k->v4 = rc;
    k->s = out_dtype;
  }
  return r;
}

Value Emitter::reduce(Value x, Value init, const std::string& op,
                      const std::vector<std::int64_t>& dims) {
  Nest nest(*this);
  Aval t{{}, aval(x).dtype};
  for (std::int64_t d = 0; d < std::int64_t(aval(x).dims.size()); ++d) {
    bool reduced = false;
    for (auto r : dims) reduced = reduced || r == d;
    if (!reduced) t.dims.push_back(aval(x).dims[d]);
  }
  Value r = add(t, "");
  cur().lines.push_back(name(r) + " = stablehlo.reduce(" + name(x) + " init: " + name(init) +
                        ") applies stablehlo." + op + " across dimensions = " + join(dims) +
                        " : (" + tt(x) + ", " + tt(init) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Reduce, {x, init}, {r})) {
    k->s = op;
    k->v1 = dims;
  }
  return r;
}

Value Emitter::iota(const Aval& type, std::int64_t dimension) {
  Nest nest(*this);
  Value r = add(type, "");
  cur().lines.push_back(name(r) + " = stablehlo.iota dim = " + std::to_string(dimension) + " : " +
                        tt(r));
  if (Rec* k = keep(nest, Prim::Iota, {}, {r})) {
    k->type = type;
    k->n = dimension;
  }
  return r;
}

std::string Emitter::region_arg(const Aval& type) {
  (void)type;
  return "%arg" + std::to_string(cur().next_arg++);
}

Value Emitter::argminmax(Value x, std::int64_t axis, const std::string& index_dtype, bool is_max) {
  Nest nest(*this);
  const Aval in = aval(x);
  const std::string& t = in.dtype;
  Value index = iota(Aval{in.dims, index_dtype}, axis);
  double identity;
  const int bits = t == "i1" ? 1 : std::atoi(t.c_str() + (is_unsigned(t) ? 2 : 1));
  if (is_float(t))
    identity = is_max ? -INFINITY : INFINITY;
  else if (is_bool(t))
    identity = is_max ? 0 : 1;
  else if (is_unsigned(t))
    identity = is_max ? 0 : std::ldexp(1.0, bits) - 1;
  else
    identity = is_max ? -std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits - 1) - 1;
  Value init = constant(identity, Aval{{}, t});
  Value zero = constant(0, Aval{{}, index_dtype});
  Aval out_v{{}, t}, out_i{{}, index_dtype};
  for (std::int64_t d = 0; d < std::int64_t(in.dims.size()); ++d)
    if (d != axis) out_v.dims.push_back(in.dims[d]), out_i.dims.push_back(in.dims[d]);
  const std::string n = std::to_string(cur().next_id++);
  const Aval sv{{}, t}, si{{}, index_dtype};
  const std::string a1 = region_arg(sv), a2 = region_arg(si), a3 = region_arg(sv),
                    a4 = region_arg(si);
  auto kind = [](const std::string& d) {
    return is_float(d) ? "FLOAT" : is_signed_int(d) ? "SIGNED" : "UNSIGNED";
  };
  const std::string tv = type_text(sv), ti = type_text(si);
  auto id = [&]() { return "%" + std::to_string(cur().next_id++); };
  auto cmp = [&](const std::string& r, const char* dir, const std::string& a, const std::string& b,
                 const std::string& ty, const std::string& dt) {
    return "  " + r + " = stablehlo.compare  " + dir + ", " + a + ", " + b + ",  " + kind(dt) +
           " : (" + ty + ", " + ty + ") -> tensor<i1>";
  };
  std::vector<std::string> body;
  const std::string c1 = id(), c2 = id(), o1 = id(), c3 = id(), c4 = id(), a5 = id(), o2 = id(),
                    s1 = id(), s2 = id();
  body.push_back(cmp(c1, is_max ? "GT" : "LT", a1, a3, tv, t));
  body.push_back(cmp(c2, "NE", a1, a1, tv, t));
  body.push_back("  " + o1 + " = stablehlo.or " + c1 + ", " + c2 + " : tensor<i1>");
  body.push_back(cmp(c3, "EQ", a1, a3, tv, t));
  body.push_back(cmp(c4, "LT", a2, a4, ti, index_dtype));
  body.push_back("  " + a5 + " = stablehlo.and " + c3 + ", " + c4 + " : tensor<i1>");
  body.push_back("  " + o2 + " = stablehlo.or " + o1 + ", " + a5 + " : tensor<i1>");
  body.push_back("  " + s1 + " = stablehlo.select " + o1 + ", " + a1 + ", " + a3 +
                 " : tensor<i1>, " + tv);
  body.push_back("  " + s2 + " = stablehlo.select " + o2 + ", " + a2 + ", " + a4 +
                 " : tensor<i1>, " + ti);
  body.push_back("  stablehlo.return " + s1 + ", " + s2 + " : " + tv + ", " + ti);
  cur().lines.push_back("%" + n + ":2 = stablehlo.reduce(" + name(x) + " init: " + name(init) +
                        "), (" + name(index) + " init: " + name(zero) + ") across dimensions = [" +
                        std::to_string(axis) + "] : (" + tt(x) + ", " + tt(index) + ", " +
                        tt(init) + ", " + tt(zero) + ") -> (" + type_text(out_v) + ", " +
                        type_text(out_i) + ")");
  cur().lines.push_back(" reducer(" + a1 + ": " + tv + ", " + a3 + ": " + tv + ") (" + a2 + ": " +
                        ti + ", " + a4 + ": " + ti + ")  {");
  for (auto& l : body) cur().lines.push_back(l);
  cur().lines.push_back("}");
  Value r = add(out_i, "%" + n + "#1");
  if (Rec* k = keep(nest, Prim::ArgMinMax, {x}, {r})) {
    k->n = axis;
    k->s = index_dtype;
    k->flag = is_max;
  }
  return r;
}

void Emitter::combiner_region(const std::string& op, const Aval& s) {
  const std::string a = region_arg(s), b = region_arg(s), t = type_text(s);
  cur().lines.push_back("^bb0(" + a + ": " + t + ", " + b + ": " + t + "):");
  if (op.empty()) {
    cur().lines.push_back("  stablehlo.return " + b + " : " + t);
    return;
  }
  const std::string v = "%" + std::to_string(cur().next_id++);
  cur().lines.push_back("  " + v + " = stablehlo." + op + " " + a + ", " + b + " : " + t);
  cur().lines.push_back("  stablehlo.return " + v + " : " + t);
}

Value Emitter::reduce_window(Value x, Value init, const std::string& op,
                             const std::vector<std::int64_t>& window,
                             const std::vector<std::int64_t>& strides,
                             const std::vector<std::pair<std::int64_t, std::int64_t>>& padding) {
  Nest nest(*this);
  const Aval in = aval(x);
  Aval t{{}, in.dtype};
  bool padded = false, strided = false;
  for (std::size_t d = 0; d < in.dims.size(); ++d) {
    const std::int64_t size = in.dims[d] + padding[d].first + padding[d].second;
    t.dims.push_back(size < window[d] ? 0 : (size - window[d]) / strides[d] + 1);
    padded = padded || padding[d].first || padding[d].second;
    strided = strided || strides[d] != 1;
  }
  Value r = add(t, "");
  auto arr = [](const std::vector<std::int64_t>& v) {
    std::string s = "array<i64";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : ": ") + std::to_string(v[i]);
    return s + ">";
  };
  std::string attrs;
  if (padded) {
    attrs += "padding = dense<[";
    for (std::size_t d = 0; d < padding.size(); ++d)
      attrs += (d ? ", [" : "[") + std::to_string(padding[d].first) + ", " +
               std::to_string(padding[d].second) + "]";
    attrs += "]> : tensor<" + std::to_string(padding.size()) + "x2xi64>, ";
  }
  attrs += "window_dimensions = " + arr(window);
  if (strided) attrs += ", window_strides = " + arr(strides);
  cur().lines.push_back(name(r) + " = \"stablehlo.reduce_window\"(" + name(x) + ", " + name(init) +
                        ") <{" + attrs + "}> ({");
  combiner_region(op, Aval{{}, in.dtype});
  cur().lines.push_back("}) : (" + tt(x) + ", " + tt(init) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::ReduceWindow, {x, init}, {r})) {
    k->s = op;
    k->v1 = window;
    k->v2 = strides;
    k->pads = padding;
  }
  return r;
}

Value Emitter::convolution(Value lhs, Value rhs, const std::string& dim_numbers, const Aval& out,
                           const std::vector<std::int64_t>& strides,
                           const std::vector<std::pair<std::int64_t, std::int64_t>>& padding,
                           const std::vector<std::int64_t>& lhs_dilation,
                           const std::vector<std::int64_t>& rhs_dilation) {
  Nest nest(*this);
  auto all = [](const std::vector<std::int64_t>& v, std::int64_t x) {
    for (auto e : v)
      if (e != x) return false;
    return true;
  };
  std::vector<std::string> window;
  if (!all(strides, 1)) window.push_back("stride = " + join(strides));
  bool padded = false;
  std::string pads = "pad = [";
  for (std::size_t d = 0; d < padding.size(); ++d) {
    padded = padded || padding[d].first || padding[d].second;
    pads += (d ? ", [" : "[") + std::to_string(padding[d].first) + ", " +
            std::to_string(padding[d].second) + "]";
  }
  if (padded) window.push_back(pads + "]");
  if (!all(lhs_dilation, 1)) window.push_back("lhs_dilate = " + join(lhs_dilation));
  if (!all(rhs_dilation, 1)) window.push_back("rhs_dilate = " + join(rhs_dilation));
  std::string w;
  for (std::size_t i = 0; i < window.size(); ++i) w += (i ? ", " : "") + window[i];
  Value r = add(out, "");
  cur().lines.push_back(
      name(r) + " = stablehlo.convolution(" + name(lhs) + ", " + name(rhs) +
      ") dim_numbers = " + dim_numbers + ", window = {" + w +
      "} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, "
      "precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (" +
      tt(lhs) + ", " + tt(rhs) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Convolution, {lhs, rhs}, {r})) {
    k->s = dim_numbers;
    k->type = out;
    k->v1 = strides;
    k->pads = padding;
    k->v2 = lhs_dilation;
    k->v3 = rhs_dilation;
  }
  return r;
}

Value Emitter::reverse(Value x, const std::vector<std::int64_t>& dims) {
  Nest nest(*this);
  Value r = add(aval(x), "");
  cur().lines.push_back(name(r) + " = stablehlo.reverse " + name(x) + ", dims = " + join(dims) +
                        " : " + tt(r));
  if (Rec* k = keep(nest, Prim::Reverse, {x}, {r})) {
    k->v1 = dims;
  }
  return r;
}

Value Emitter::slice(Value x, const std::vector<std::int64_t>& start,
                     const std::vector<std::int64_t>& limit,
                     const std::vector<std::int64_t>& strides) {
  Nest nest(*this);
  Aval t{{}, aval(x).dtype};
  std::string ranges;
  for (std::size_t i = 0; i < start.size(); ++i) {
    t.dims.push_back(
        std::max<std::int64_t>(0, (limit[i] - start[i] + strides[i] - 1) / strides[i]));
    ranges += (i ? ", " : "") + std::to_string(start[i]) + ":" + std::to_string(limit[i]);
    if (strides[i] != 1) ranges += ":" + std::to_string(strides[i]);
  }
  Value r = add(t, "");
  cur().lines.push_back(name(r) + " = stablehlo.slice " + name(x) + " [" + ranges + "] : (" +
                        tt(x) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Slice, {x}, {r})) {
    k->v1 = start;
    k->v2 = limit;
    k->v3 = strides;
  }
  return r;
}

Value Emitter::gather(Value x, Value indices, const std::vector<std::int64_t>& offset_dims,
                      const std::vector<std::int64_t>& collapsed_slice_dims,
                      const std::vector<std::int64_t>& start_index_map,
                      const std::vector<std::int64_t>& slice_sizes) {
  Nest nest(*this);
  const Aval& ia = aval(indices);
  const std::int64_t index_vector_dim = std::int64_t(ia.dims.size()) - 1;
  std::vector<std::int64_t> batch(ia.dims.begin(), ia.dims.end() - 1), offsets;
  for (std::size_t d = 0; d < slice_sizes.size(); ++d)
    if (std::find(collapsed_slice_dims.begin(), collapsed_slice_dims.end(), std::int64_t(d)) ==
        collapsed_slice_dims.end())
      offsets.push_back(slice_sizes[d]);
  Aval t{{}, aval(x).dtype};
  const std::size_t rank = batch.size() + offsets.size();
  for (std::size_t d = 0, b = 0, o = 0; d < rank; ++d)
    t.dims.push_back(std::find(offset_dims.begin(), offset_dims.end(), std::int64_t(d)) !=
                             offset_dims.end()
                         ? offsets[o++]
                         : batch[b++]);
  auto list = [](const char* name, const std::vector<std::int64_t>& v) {
    return v.empty() ? std::string() : std::string(name) + " = " + join(v) + ", ";
  };
  std::string sizes;
  for (std::size_t d = 0; d < slice_sizes.size(); ++d)
    sizes += (d ? ", " : "") + std::to_string(slice_sizes[d]);
  Value r = add(t, "");
  cur().lines.push_back(name(r) + " = \"stablehlo.gather\"(" + name(x) + ", " + name(indices) +
                        ") <{dimension_numbers = #stablehlo.gather<" +
                        list("offset_dims", offset_dims) +
                        list("collapsed_slice_dims", collapsed_slice_dims) +
                        list("start_index_map", start_index_map) +
                        "index_vector_dim = " + std::to_string(index_vector_dim) +
                        ">, indices_are_sorted = false, slice_sizes = array<i64: " + sizes +
                        ">}> : (" + tt(x) + ", " + tt(indices) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Gather, {x, indices}, {r})) {
    k->v1 = offset_dims;
    k->v2 = collapsed_slice_dims;
    k->v3 = start_index_map;
    k->v4 = slice_sizes;
  }
  return r;
}

Value Emitter::scatter(Value x, Value indices, Value updates, const std::string& op,
                       const std::vector<std::int64_t>& update_window_dims,
                       const std::vector<std::int64_t>& inserted_window_dims,
                       const std::vector<std::int64_t>& scatter_dims_to_operand_dims,
                       bool indices_are_sorted, bool unique_indices) {
  Nest nest(*this);
  const std::int64_t index_vector_dim = std::int64_t(aval(indices).dims.size()) - 1;
  std::vector<std::string> fields;
  if (!update_window_dims.empty())
    fields.push_back("update_window_dims = " + join(update_window_dims));
  if (!inserted_window_dims.empty())
    fields.push_back("inserted_window_dims = " + join(inserted_window_dims));
  if (!scatter_dims_to_operand_dims.empty())
    fields.push_back("scatter_dims_to_operand_dims = " + join(scatter_dims_to_operand_dims));
  if (index_vector_dim != 0)
    fields.push_back("index_vector_dim = " + std::to_string(index_vector_dim));
  std::string dn;
  for (std::size_t i = 0; i < fields.size(); ++i) dn += (i ? ", " : "") + fields[i];
  Value r = add(aval(x), "");
  cur().lines.push_back(name(r) + " = \"stablehlo.scatter\"(" + name(x) + ", " + name(indices) +
                        ", " + name(updates) + ") <{" +
                        (indices_are_sorted ? "indices_are_sorted = true, " : "") +
                        "scatter_dimension_numbers = #stablehlo.scatter<" + dn + ">" +
                        (unique_indices ? ", unique_indices = true" : "") + "}> ({");
  combiner_region(op, Aval{{}, aval(x).dtype});
  cur().lines.push_back("}) : (" + tt(x) + ", " + tt(indices) + ", " + tt(updates) + ") -> " +
                        tt(r));
  if (Rec* k = keep(nest, Prim::Scatter, {x, indices, updates}, {r})) {
    k->s = op;
    k->v1 = update_window_dims;
    k->v2 = inserted_window_dims;
    k->v3 = scatter_dims_to_operand_dims;
    k->flag = indices_are_sorted;
    k->n = unique_indices;
  }
  return r;
}

std::vector<Value> Emitter::sort(const std::vector<Value>& xs, std::int64_t dimension,
                                 bool is_stable, std::int64_t num_keys) {
  Nest nest(*this);
  const std::size_t n = xs.size();
  const std::string num = std::to_string(cur().next_id++);
  std::vector<std::string> args;  // x0, y0, x1, y1, ...
  for (std::size_t i = 0; i < 2 * n; ++i)
    args.push_back(region_arg(Aval{{}, aval(xs[i / 2]).dtype}));
  auto id = [&]() { return "%" + std::to_string(cur().next_id++); };
  auto kind = [](const std::string& d) {
    return is_float(d) ? "FLOAT" : is_signed_int(d) ? "SIGNED" : "UNSIGNED";
  };
  std::vector<std::string> body;
  auto compare = [&](const char* dir, const std::string& a, const std::string& b,
                     const std::string& t, const char* how) {
    const std::string r = id(), st = type_text(Aval{{}, t});
    body.push_back("  " + r + " = stablehlo.compare  " + dir + ", " + a + ", " + b + ",  " + how +
                   " : (" + st + ", " + st + ") -> tensor<i1>");
    return r;
  };
  auto constant = [&](double v, const std::string& t) {
    const std::string r = fresh_constant_name("cst");
    body.push_back("  " + r + " = stablehlo.constant dense<" + float_literal(v, t) +
                   "> : " + type_text(Aval{{}, t}));
    return r;
  };
  // lax._canonicalize_float_for_sort: x == 0 ? 0 : x, then isnan(x) ? NaN : that.
  auto canonical = [&](const std::string& x, const std::string& t) {
    const std::string st = type_text(Aval{{}, t});
    const std::string zero = constant(0, t);
    const std::string is_zero = compare("EQ", x, zero, t, "FLOAT");
    const std::string zeros = constant(0, t);
    const std::string s1 = id();
    body.push_back("  " + s1 + " = stablehlo.select " + is_zero + ", " + zeros + ", " + x +
                   " : tensor<i1>, " + st);
    const std::string is_nan = compare("NE", x, x, t, "FLOAT");
    const std::string nan = constant(std::nan(""), t);
    const std::string s2 = id();
    body.push_back("  " + s2 + " = stablehlo.select " + is_nan + ", " + nan + ", " + s1 +
                   " : tensor<i1>, " + st);
    return s2;
  };
  auto lt = [&](std::size_t key) {
    const std::string t = aval(xs[key]).dtype;
    const std::string &x = args[2 * key], &y = args[2 * key + 1];
    if (!is_float(t)) return compare("LT", x, y, t, kind(t));
    const std::string cx = canonical(x, t), cy = canonical(y, t);
    return compare("LT", cx, cy, t, "TOTALORDER");
  };
  std::string p;
  for (std::size_t key = std::size_t(num_keys); key-- > 0;) {
    if (p.empty()) {
      p = lt(key);
      continue;
    }
    const std::string less = lt(key);
    const std::string t = aval(xs[key]).dtype;
    const std::string eq =
        compare("EQ", args[2 * key], args[2 * key + 1], t, is_float(t) ? "FLOAT" : kind(t));
    const std::string both = id();
    body.push_back("  " + both + " = stablehlo.and " + eq + ", " + p + " : tensor<i1>");
    const std::string either = id();
    body.push_back("  " + either + " = stablehlo.or " + less + ", " + both + " : tensor<i1>");
    p = either;
  }
  body.push_back("  stablehlo.return " + p + " : tensor<i1>");
  std::string operands, in_types, out_types, block;
  for (std::size_t i = 0; i < n; ++i) {
    operands += (i ? ", " : "") + name(xs[i]);
    in_types += (i ? ", " : "") + tt(xs[i]);
  }
  for (std::size_t i = 0; i < 2 * n; ++i)
    block += (i ? ", " : "") + args[i] + ": " + type_text(Aval{{}, aval(xs[i / 2]).dtype});
  out_types = n == 1 ? in_types : "(" + in_types + ")";
  cur().lines.push_back("%" + num + (n > 1 ? ":" + std::to_string(n) : "") +
                        " = \"stablehlo.sort\"(" + operands +
                        ") <{dimension = " + std::to_string(dimension) + " : i64" +
                        (is_stable ? ", is_stable = true" : "") + "}> ({");
  cur().lines.push_back("^bb0(" + block + "):");
  for (auto& l : body) cur().lines.push_back(l);
  cur().lines.push_back("}) : (" + in_types + ") -> " + out_types);
  std::vector<Value> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(add(aval(xs[i]), n == 1 ? "%" + num : "%" + num + "#" + std::to_string(i)));
  if (Rec* k = keep(nest, Prim::Sort, xs, out)) {
    k->n = dimension;
    k->flag = is_stable;
    k->x = double(num_keys);
  }
  return out;
}

std::pair<Value, Value> Emitter::top_k(Value x, std::int64_t k) {
  Nest nest(*this);
  Aval tv = aval(x);
  tv.dims.back() = k;
  const Aval ti{tv.dims, "i32"};
  const Value values = add(tv, fresh_constant_name("values"));
  const Value indices = add(ti, fresh_constant_name("indices"));
  cur().lines.push_back(name(values) + ", " + name(indices) + " = chlo.top_k(" + name(x) +
                        ", k = " + std::to_string(k) + ") : " + tt(x) + " -> (" + tt(values) +
                        ", " + tt(indices) + ")");
  if (Rec* r = keep(nest, Prim::TopK, {x}, {values, indices})) r->n = k;
  return {values, indices};
}

Value Emitter::concatenate(const std::vector<Value>& xs, std::int64_t dimension) {
  Nest nest(*this);
  Aval t = aval(xs[0]);
  t.dims[dimension] = 0;
  std::string operands, types;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    t.dims[dimension] += aval(xs[i]).dims[dimension];
    operands += (i ? ", " : "") + name(xs[i]);
    types += (i ? ", " : "") + tt(xs[i]);
  }
  Value r = add(t, "");
  cur().lines.push_back(name(r) + " = stablehlo.concatenate " + operands +
                        ", dim = " + std::to_string(dimension) + " : (" + types + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Concatenate, xs, {r})) {
    k->n = dimension;
  }
  return r;
}

Value Emitter::dynamic_slice(Value x, const std::vector<Value>& starts,
                             const std::vector<std::int64_t>& sizes) {
  Nest nest(*this);
  std::string operands = name(x), types = tt(x);
  for (Value v : starts) {
    operands += ", " + name(v);
    types += ", " + tt(v);
  }
  Value r = add(Aval{sizes, aval(x).dtype}, "");
  cur().lines.push_back(name(r) + " = stablehlo.dynamic_slice " + operands +
                        ", sizes = " + join(sizes) + " : (" + types + ") -> " + tt(r));
  Ins reads{x};
  reads.insert(reads.end(), starts.begin(), starts.end());
  if (Rec* k = keep(nest, Prim::DynamicSlice, reads, {r})) k->v1 = sizes;
  return r;
}

Value Emitter::dynamic_update_slice(Value x, Value update, const std::vector<Value>& starts) {
  Nest nest(*this);
  std::string operands = name(x) + ", " + name(update), types = tt(x) + ", " + tt(update);
  for (Value v : starts) {
    operands += ", " + name(v);
    types += ", " + tt(v);
  }
  Value r = add(aval(x), "");
  cur().lines.push_back(name(r) + " = stablehlo.dynamic_update_slice " + operands + " : (" + types +
                        ") -> " + tt(r));
  Ins reads{x, update};
  reads.insert(reads.end(), starts.begin(), starts.end());
  (void)keep(nest, Prim::DynamicUpdateSlice, reads, {r});
  return r;
}

Value Emitter::pad(Value x, Value value, const std::vector<std::int64_t>& low,
                   const std::vector<std::int64_t>& high,
                   const std::vector<std::int64_t>& interior) {
  Nest nest(*this);
  Aval t = aval(x);
  for (std::size_t d = 0; d < t.dims.size(); ++d)
    t.dims[d] =
        low[d] + high[d] + t.dims[d] + std::max<std::int64_t>(t.dims[d] - 1, 0) * interior[d];
  Value r = add(t, "");
  cur().lines.push_back(name(r) + " = stablehlo.pad " + name(x) + ", " + name(value) + ", low = " +
                        join(low) + ", high = " + join(high) + ", interior = " + join(interior) +
                        " : (" + tt(x) + ", " + tt(value) + ") -> " + tt(r));
  if (Rec* k = keep(nest, Prim::Pad, {x, value}, {r})) {
    k->v1 = low;
    k->v2 = high;
    k->v3 = interior;
  }
  return r;
}

int Emitter::find_function(const std::string& n, const std::vector<Aval>& args) const {
  for (std::size_t i = 1; i < funcs_.size(); ++i) {
    const std::string& f = funcs_[i].name;
    // A helper traced again with other types is renamed n_0, n_1, ... (MLIR's symbol uniquing).
    const bool same =
        f == n || (f.size() > n.size() + 1 && f.compare(0, n.size() + 1, n + "_") == 0 &&
                   f.find_first_not_of("0123456789", n.size() + 1) == std::string::npos);
    if (same && funcs_[i].arg_types == args && funcs_[i].result_types.size()) return int(i);
  }
  return -1;
}

int Emitter::begin_function(const std::string& n, const std::vector<Aval>& args) {
  std::string unique = n;
  const int before = uniquing_counter_;
  auto taken = [&](const std::string& s) {
    for (const auto& f : funcs_)
      if (f.name == s) return true;
    return false;
  };
  while (taken(unique)) unique = n + "_" + std::to_string(uniquing_counter_++);
  funcs_.emplace_back();
  Function& f = funcs_.back();
  f.counter_before = before;
  f.name = unique;
  f.base = n;
  f.arg_types = args;
  f.next_arg = int(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    f.types.push_back(args[i]);
    f.names.push_back("%arg" + std::to_string(i));
  }
  stack_.push_back(int(funcs_.size() - 1));
  return stack_.back();
}

void Emitter::end_function(const std::vector<Value>& results) {
  Function& f = cur();
  std::string names, types;
  for (std::size_t i = 0; i < results.size(); ++i) {
    f.result_ids.push_back(results[i].id);
    f.result_types.push_back(aval(results[i]));
    names += (i ? ", " : "") + name(results[i]);
    types += (i ? ", " : "") + tt(results[i]);
  }
  f.lines.push_back("return " + names + " : " + types);
  stack_.pop_back();
}

std::vector<Value> Emitter::call(int function, const std::vector<Value>& args) {
  Nest nest(*this);
  const Function& f = funcs_[function];
  std::string operands, types;
  for (std::size_t i = 0; i < args.size(); ++i) {
    operands += (i ? ", " : "") + name(args[i]);
    types += (i ? ", " : "") + tt(args[i]);
  }
  const std::size_t n = f.result_types.size();
  std::vector<Value> rs;
  std::string head, results;
  if (n == 1) {
    rs.push_back(add(f.result_types[0], ""));
    head = name(rs[0]);
    results = type_text(f.result_types[0]);
  } else {
    const std::string base = "%" + std::to_string(cur().next_id++);
    for (std::size_t k = 0; k < n; ++k) {
      rs.push_back(add(f.result_types[k], base + "#" + std::to_string(k)));
      results += (k ? ", " : "") + type_text(f.result_types[k]);
    }
    head = base + ":" + std::to_string(n);
    results = "(" + results + ")";
  }
  cur().lines.push_back(head + " = call " + symbol_ref(f.name) + "(" + operands + ") : (" + types +
                        ") -> " + results);
  if (Rec* k = keep(nest, Prim::Call, args, rs)) k->callee = function;
  return rs;
}

std::vector<Value> Emitter::scan_while(const std::vector<Value>& consts,
                                       const std::vector<Value>& carry, std::int64_t length,
                                       int body) {
  Nest nest(*this);
  Value counter = constant(0, Aval{{}, "i32"});
  Loop loop;
  loop.nconsts = consts.size();
  loop.length = length;
  loop.body = body;
  std::vector<Value> all = consts;
  all.push_back(counter);
  all.insert(all.end(), carry.begin(), carry.end());
  for (Value v : all) loop.operands.push_back(name(v)), loop.types.push_back(aval(v));
  loop.result = "%" + std::to_string(cur().next_id++);
  cur().lines.push_back("\x01" + std::to_string(cur().loops.size()));
  std::vector<Value> out;
  for (std::size_t k = 0; k < loop.types.size(); ++k) {
    Value r = add(loop.types[k], loop.result + "#" + std::to_string(k));
    if (k > consts.size()) out.push_back(r);
  }
  cur().loops.push_back(std::move(loop));
  Ins reads = consts;
  reads.insert(reads.end(), carry.begin(), carry.end());
  if (Rec* k = keep(nest, Prim::ScanWhile, reads, out)) {
    k->callee = body;
    k->n = std::int64_t(consts.size());
    k->v1 = {length};
  }
  return out;
}
// MLIR's SSANameState numbers a function's nested regions after all of its own values, each
// region from the same state (sibling regions do not see each other's names): the block
// arguments are %iterArg, %iterArg_<k>, ...; constants and results continue the counters.
std::string Emitter::print_loop(const Function& f, const Loop& loop) const {
  std::map<std::string, int> used = f.used;
  int conflict = f.next_conflict;
  auto unique = [&](const std::string& base) {
    std::string n = base;
    if (used.count(n)) {
      do n = base + "_" + std::to_string(conflict++);
      while (used.count(n));
    }
    used[n] = 1;
    return "%" + n;
  };
  std::vector<std::string> args;
  for (std::size_t k = 0; k < loop.operands.size(); ++k) args.push_back(unique("iterArg"));
  const std::string c = unique("c"), first = "%" + std::to_string(f.next_id),
                    second = "%" + std::to_string(f.next_id + 1);
  const std::string& counter = args[loop.nconsts];
  const Function& callee = funcs_[loop.body];
  std::string header, types, call_args, call_types, results, result_types;
  for (std::size_t k = 0; k < args.size(); ++k) {
    header += (k ? ", " : "") + args[k] + " = " + loop.operands[k];
    types += (k ? ", " : "") + type_text(loop.types[k]);
    if (k != loop.nconsts) {
      call_args += (call_args.empty() ? "" : ", ") + args[k];
      call_types += (call_types.empty() ? "" : ", ") + type_text(loop.types[k]);
    }
  }
  const std::size_t nres = callee.result_types.size();
  for (std::size_t k = 0; k < nres; ++k)
    result_types += (k ? ", " : "") + type_text(callee.result_types[k]);
  std::string returned;
  for (std::size_t k = 0; k < loop.nconsts; ++k) returned += args[k] + ", ";
  returned += second;
  for (std::size_t k = 0; k < nres; ++k)
    returned += ", " + (nres == 1 ? first : first + "#" + std::to_string(k));
  const std::string pad = "    ";
  std::string out;
  out += pad + loop.result + ":" + std::to_string(loop.operands.size()) + " = stablehlo.while(" +
         header + ") : " + types + "\n";
  out += pad + " cond {\n";
  out += pad + "  " + c + " = stablehlo.constant dense<" + std::to_string(loop.length) +
         "> : tensor<i32>\n";
  out += pad + "  " + first + " = stablehlo.compare  LT, " + counter + ", " + c +
         ",  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n";
  out += pad + "  stablehlo.return " + first + " : tensor<i1>\n";
  out += pad + "} do {\n";
  out += pad + "  " + first + (nres == 1 ? "" : ":" + std::to_string(nres)) + " = func.call " +
         symbol_ref(callee.name) + "(" + call_args + ") : (" + call_types + ") -> " +
         (nres == 1 ? result_types : "(" + result_types + ")") + "\n";
  out += pad + "  " + c + " = stablehlo.constant dense<1> : tensor<i32>\n";
  out += pad + "  " + second + " = stablehlo.add " + counter + ", " + c + " : tensor<i32>\n";
  out += pad + "  stablehlo.return " + returned + " : " + types + "\n";
  out += pad + "}\n";
  return out;
}
std::vector<bool> Emitter::results_from(int fn, std::size_t first) const {
  std::vector<bool> kept(funcs_[std::size_t(fn)].result_ids.size(), false);
  for (std::size_t k = first; k < kept.size(); ++k) kept[k] = true;
  return kept;
}
std::vector<bool> Emitter::needed_values(int fn, std::size_t first_result) const {
  const auto kept = results_from(fn, first_result);
  std::vector<bool> reads, used;
  live_recs(fn, analyze(), &reads, &kept, &used);
  return used;
}
void Emitter::remake_function(int fn, const std::vector<Aval>& args,
                              const std::vector<std::pair<int, int>>& given,
                              std::size_t first_result) {
  const std::vector<std::vector<bool>> callee_reads = analyze();
  const std::size_t nvalues = funcs_[std::size_t(fn)].types.size();
  std::vector<bool> is_given(nvalues, false), reads;
  std::vector<Value> map(nvalues);
  for (const auto& [v, a] : given) {
    is_given[std::size_t(v)] = true;
    map[std::size_t(v)] = arg(std::size_t(a));
  }
  const auto kept = results_from(fn, first_result);
  const std::vector<bool> live = live_recs(fn, callee_reads, &reads, &kept, nullptr, &is_given);
  Function old = std::move(funcs_[std::size_t(fn)]);
  Function& f = funcs_[std::size_t(fn)];
  f = Function{};
  f.name = old.name;
  f.base = old.base;
  f.arg_types = args;
  f.next_arg = int(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    f.types.push_back(args[i]);
    f.names.push_back("%arg" + std::to_string(i));
  }
  stack_.push_back(fn);
  const FnMap same = [](int callee) { return callee; };
  for (std::size_t k = 0; k < old.recs.size(); ++k) {
    if (!live[k]) continue;
    const Rec& rec = old.recs[k];
    Ins in;
    for (int v : rec.reads) {
      Value x = map[std::size_t(v)];
      if (!x.valid()) {  // what no kept result needs: a call's argument its callee never
                         // reads, a loop's carry dropped (finish leaves the zero out)
        const Aval& t = old.types[std::size_t(v)];
        x = constant(0, {{}, t.dtype});
        if (!t.dims.empty()) x = broadcast_in_dim(x, t.dims, {});
      }
      in.push_back(x);
    }
    const Ins out = make(*this, rec, in, same);
    for (std::size_t j = 0; j < rec.results.size() && j < out.size(); ++j)
      if (!is_given[std::size_t(rec.results[j])]) map[std::size_t(rec.results[j])] = out[j];
  }
  std::vector<Value> results;
  for (std::size_t k = first_result; k < old.result_ids.size(); ++k)
    results.push_back(map[std::size_t(old.result_ids[k])]);
  end_function(results);
}
void Emitter::drop_functions(int first) {
  if (first < 1 || first >= int(funcs_.size())) return;
  uniquing_counter_ = funcs_[std::size_t(first)].counter_before;  // their names were never taken
  funcs_.resize(std::size_t(first));
  while (stack_.size() > 1 && stack_.back() >= first) stack_.pop_back();
}
std::string Emitter::print_function(const Function& f) const {
  std::string out = "  func.func " + std::string(f.is_public ? "public" : "private") + " " +
                    symbol_ref(f.name) + "(";
  for (std::size_t i = 0; i < f.arg_types.size(); ++i)
    out += (i ? ", %arg" : "%arg") + std::to_string(i) + ": " + type_text(f.arg_types[i]);
  out += ") -> ";
  if (f.is_public) {
    out += "(";
    for (std::size_t i = 0; i < f.result_types.size(); ++i) {
      const std::string info = result_info_.size() == f.result_types.size() ? result_info_[i]
                               : f.result_types.size() == 1                 ? "result"
                                                            : "result[" + std::to_string(i) + "]";
      out +=
          (i ? ", " : "") + type_text(f.result_types[i]) + " {jax.result_info = \"" + info + "\"}";
    }
    out += ")";
  } else if (f.result_types.size() == 1) {
    out += type_text(f.result_types[0]);
  } else {
    out += "(";
    for (std::size_t i = 0; i < f.result_types.size(); ++i)
      out += (i ? ", " : "") + type_text(f.result_types[i]);
    out += ")";
  }
  out += " {\n";
  for (const auto& line : f.lines) {
    if (!line.empty() && line[0] == '\x01')
      out += print_loop(f, f.loops[std::size_t(std::atoi(line.c_str() + 1))]);
    else
      out += "    " + line + "\n";
  }
  return out + "  }\n";
}

std::vector<bool> Emitter::live_recs(int fn, const std::vector<std::vector<bool>>& callee_reads,
                                     std::vector<bool>* args_read,
                                     const std::vector<bool>* results_kept,
                                     std::vector<bool>* values_used, const std::vector<bool>* given,
                                     std::vector<LoopKeep>* loops) const {
  const Function& f = funcs_[std::size_t(fn)];
  std::vector<bool> used(f.types.size(), false), live(f.recs.size(), false);
  for (std::size_t k = 0; k < f.result_ids.size(); ++k)
    if (!results_kept || (*results_kept)[k]) used[std::size_t(f.result_ids[k])] = true;
  if (loops) loops->assign(f.recs.size(), {});
  for (std::size_t k = f.recs.size(); k-- > 0;) {
    const Rec& rec = f.recs[k];
    bool any = false;
    for (int v : rec.results)
      any = any || (used[std::size_t(v)] && !(given && (*given)[std::size_t(v)]));
    if (!any) continue;
    live[k] = true;
    if (rec.prim == Prim::ScanWhile) {
      // The carries used, then those the body needs for them, until none is added.
      const std::size_t nc = std::size_t(rec.n);
      LoopKeep keep;
      for (int v : rec.results) keep.carries.push_back(used[std::size_t(v)]);
      std::vector<bool> body_reads;
      for (bool grew = true; grew;) {
        auto key = std::make_pair(rec.callee, keep.carries);
        auto hit = body_reads_.find(key);
        if (hit != body_reads_.end()) {
          body_reads = hit->second;
        } else {
          live_recs(rec.callee, callee_reads, &body_reads, &keep.carries);
          body_reads_.emplace(std::move(key), body_reads);
        }
        grew = false;
        for (std::size_t r = 0; r < keep.carries.size(); ++r)
          if (body_reads[nc + r] && !keep.carries[r]) keep.carries[r] = grew = true;
      }
      keep.consts.assign(body_reads.begin(), body_reads.begin() + std::ptrdiff_t(nc));
      for (std::size_t j = 0; j < rec.reads.size(); ++j)
        if (keep.keeps(j)) used[std::size_t(rec.reads[j])] = true;
      if (loops) (*loops)[k] = std::move(keep);
      continue;
    }
    const std::vector<bool>* reads = nullptr;
    if (rec.prim == Prim::Call) reads = &call_reads(rec, used, callee_reads);
    for (std::size_t j = 0; j < rec.reads.size(); ++j)
      if (!reads || (*reads)[j]) used[std::size_t(rec.reads[j])] = true;
  }
  args_read->assign(used.begin(), used.begin() + std::ptrdiff_t(f.arg_types.size()));
  if (values_used) *values_used = std::move(used);
  return live;
}

std::vector<bool> Emitter::results_used(const Rec& rec, const std::vector<bool>& used) const {
  std::vector<bool> mask;
  for (int v : rec.results) mask.push_back(used[std::size_t(v)]);
  return mask;
}
const std::vector<bool>& Emitter::call_reads(
    const Rec& rec, const std::vector<bool>& used,
    const std::vector<std::vector<bool>>& callee_reads) const {
  std::vector<bool> mask = results_used(rec, used);
  if (std::all_of(mask.begin(), mask.end(), [](bool b) { return b; }))
    return callee_reads[std::size_t(rec.callee)];
  auto key = std::make_pair(rec.callee, std::move(mask));
  auto hit = body_reads_.find(key);
  if (hit == body_reads_.end()) {
    std::vector<bool> r;
    live_recs(rec.callee, callee_reads, &r, &key.second);
    hit = body_reads_.emplace(std::move(key), std::move(r)).first;
  }
  return hit->second;
}

std::vector<std::vector<bool>> Emitter::analyze() const {
  body_reads_.clear();  // the functions may have grown since the last analysis
  const std::size_t n = funcs_.size();
  std::vector<bool> loop_body(n, false), done(n, false);
  for (const auto& f : funcs_)
    for (const auto& rec : f.recs)
      if (rec.callee >= 0 && rec.prim != Prim::Call) loop_body[std::size_t(rec.callee)] = true;
  std::vector<std::vector<bool>> args_read(n);
  std::function<void(int)> visit = [&](int fn) {
    if (done[std::size_t(fn)]) return;
    done[std::size_t(fn)] = true;
    for (const auto& rec : funcs_[std::size_t(fn)].recs)
      if (rec.callee >= 0) visit(rec.callee);
    live_recs(fn, args_read, &args_read[std::size_t(fn)]);
    if (loop_body[std::size_t(fn)])
      args_read[std::size_t(fn)].assign(funcs_[std::size_t(fn)].arg_types.size(), true);
  };
  for (std::size_t fn = 0; fn < n; ++fn) visit(int(fn));
  return args_read;
}

std::string Emitter::finish(const std::vector<Value>& results,
                            const std::vector<std::string>& result_info) {
  if (result_info.size() == results.size()) result_info_ = result_info;
  while (stack_.size() > 1) stack_.pop_back();
  if (funcs_[0].result_types.empty()) {
    stack_.push_back(0);
    end_function(results);
    stack_.push_back(0);
  }
  const std::vector<std::vector<bool>> args_read = analyze();
  const std::size_t n = funcs_.size();
  // Each reached function's live primitives and live loops' LoopKeep: a loop's body's for the
  // carries its loop keeps (set when the loop is reached).
  std::vector<std::vector<bool>> live(n);
  std::vector<std::vector<LoopKeep>> loops(n);
  std::vector<std::vector<bool>> body_results(n);  // a body's kept results (its loop's carries)
  std::vector<bool> reached(n, false);
  // What the module keeps: @main, and the functions its live primitives call, transitively.
  bool pruned = false;
  std::vector<int> todo{0};
  reached[0] = true;
  while (!todo.empty()) {
    const std::size_t fn = std::size_t(todo.back());
    todo.pop_back();
    std::vector<bool> reads, used;
    const std::vector<bool>* kept = body_results[fn].empty() ? nullptr : &body_results[fn];
    live[fn] = live_recs(int(fn), args_read, &reads, kept, &used, nullptr, &loops[fn]);
    if (!kept)
      for (bool a : args_read[fn]) pruned = pruned || !a;
    const auto& recs = funcs_[fn].recs;
    for (std::size_t k = 0; k < recs.size(); ++k) {
      if (!live[fn][k]) {
        pruned = true;
        continue;
      }
      const int c = recs[k].callee;
      if (recs[k].prim == Prim::Call)
        for (bool b : results_used(recs[k], used)) pruned = pruned || !b;
      if (recs[k].prim == Prim::ScanWhile) {
        const LoopKeep& lk = loops[fn][k];
        for (bool b : lk.consts) pruned = pruned || !b;
        for (bool b : lk.carries) pruned = pruned || !b;
        body_results[std::size_t(c)] = lk.carries;
      }
      if (c >= 0 && !reached[std::size_t(c)]) reached[std::size_t(c)] = true, todo.push_back(c);
    }
  }
  for (bool r : reached) pruned = pruned || !r;
  // Closed-over constants made after other primitives are printed first: the module is made again.
  for (std::size_t fn = 0; fn < n; ++fn) {
    if (!reached[fn]) continue;
    const std::vector<std::size_t> order = hoisted_first(funcs_[fn], live[fn]);
    for (std::size_t j = 1; j < order.size(); ++j) pruned = pruned || order[j] < order[j - 1];
  }
  const std::vector<bool>& main_args = args_read[0];
  kept_args_.clear();
  for (std::size_t i = 0; i < funcs_[0].arg_types.size(); ++i)
    if (main_args[i]) kept_args_.push_back(int(i));
  if (!pruned || pruned_) return print_module();
  // Made again, live primitives only, on an emitter of the kept arguments: each function when
  // its first live call is made, as the trace made it; a loop's body with the loop, of the
  // consts and carries it keeps.
  std::vector<Aval> args;
  for (int i : kept_args_) args.push_back(funcs_[0].arg_types[std::size_t(i)]);
  Emitter e(module_name_, args);
  e.pruned_ = true;
  e.result_info_ = result_info_;
  // A callee is made once for each mask of its results its calls use (its function's index on
  // `e`, by (callee, mask)).
  std::map<std::pair<int, std::vector<bool>>, int> made;
  // Function fn made on `e` from `arg_values` (its arguments' values there, invalid for those left
  // out), returning the results `kept` marks (all when empty).
  std::function<std::vector<Value>(int, const std::vector<Value>&, const std::vector<bool>&)>
      replay = [&](int fn, const std::vector<Value>& arg_values, const std::vector<bool>& kept) {
        const Function& f = funcs_[std::size_t(fn)];
        std::vector<Value> map(f.types.size());
        for (std::size_t i = 0; i < arg_values.size(); ++i) map[i] = arg_values[i];
        std::vector<bool> fn_reads, used;
        std::vector<LoopKeep> fn_loops;
        const std::vector<bool> fn_live = live_recs(
            fn, args_read, &fn_reads, kept.empty() ? nullptr : &kept, &used, nullptr, &fn_loops);
        for (std::size_t k : hoisted_first(f, fn_live)) {
          const Rec& rec = f.recs[k];
          if (rec.prim == Prim::Call) {
            std::vector<bool> mask = results_used(rec, used);
            const std::vector<bool>& reads = call_reads(rec, used, args_read);
            auto key = std::make_pair(rec.callee, mask);
            auto hit = made.find(key);
            if (hit == made.end()) {
              const Function& g = funcs_[std::size_t(rec.callee)];
              std::vector<Aval> types;
              for (std::size_t i = 0; i < g.arg_types.size(); ++i)
                if (reads[i]) types.push_back(g.arg_types[i]);
              const int index = e.begin_function(g.base, types);
              std::vector<Value> in(g.arg_types.size());
              for (std::size_t i = 0, a = 0; i < g.arg_types.size(); ++i)
                if (reads[i]) in[i] = e.arg(a++);
              const bool all = std::all_of(mask.begin(), mask.end(), [](bool b) { return b; });
              e.end_function(replay(rec.callee, in, all ? std::vector<bool>{} : mask));
              hit = made.emplace(std::move(key), index).first;
            }
            Ins in;
            for (std::size_t j = 0; j < rec.reads.size(); ++j)  // what its callee reads
              if (reads[j]) in.push_back(map[std::size_t(rec.reads[j])]);
            const Ins out = e.call(hit->second, in);
            for (std::size_t r = 0, o = 0; r < rec.results.size(); ++r)
              if (mask[r]) map[std::size_t(rec.results[r])] = out[o++];
            continue;
          }
          if (rec.prim == Prim::ScanWhile) {
            const LoopKeep& lk = fn_loops[k];
            const std::size_t nc = lk.consts.size();
            const Function& g = funcs_[std::size_t(rec.callee)];
            Ins consts, carry;
            std::vector<Aval> types;
            for (std::size_t j = 0; j < rec.reads.size(); ++j)
              if (lk.keeps(j)) {
                (j < nc ? consts : carry).push_back(map[std::size_t(rec.reads[j])]);
                types.push_back(g.arg_types[j]);
              }
            const int index = e.begin_function(g.base, types);
            std::vector<Value> in(g.arg_types.size());
            for (std::size_t j = 0, a = 0; j < g.arg_types.size(); ++j)
              if (lk.keeps(j)) in[j] = e.arg(a++);
            e.end_function(replay(rec.callee, in, lk.carries));
            const Ins out = e.scan_while(consts, carry, rec.v1[0], index);
            for (std::size_t r = 0, o = 0; r < rec.results.size(); ++r)
              if (lk.carries[r]) map[std::size_t(rec.results[r])] = out[o++];
            continue;
          }
          Ins in;
          for (int v : rec.reads) in.push_back(map[std::size_t(v)]);
          const Ins out = make(e, rec, in, [](int callee) { return callee; });
          for (std::size_t j = 0; j < rec.results.size() && j < out.size(); ++j)
            map[std::size_t(rec.results[j])] = out[j];
        }
        std::vector<Value> res;
        for (std::size_t r = 0; r < f.result_ids.size(); ++r)
          if (kept.empty() || kept[r]) res.push_back(map[std::size_t(f.result_ids[r])]);
        return res;
      };
  std::vector<Value> main_in(funcs_[0].arg_types.size());
  for (std::size_t k = 0; k < kept_args_.size(); ++k)
    main_in[std::size_t(kept_args_[k])] = e.arg(k);
  const std::vector<Value> main_out = replay(0, main_in, {});
  return e.finish(main_out);
}

std::vector<std::size_t> Emitter::hoisted_first(const Function& f, const std::vector<bool>& live) {
  std::vector<std::size_t> order;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t k = 0; k < f.recs.size(); ++k) {
      const bool hoisted = f.recs[k].prim == Prim::Constant && f.recs[k].flag;
      if (live[k] && hoisted == (pass == 0)) order.push_back(k);
    }
  return order;
}

std::string Emitter::print_module() const {
  std::string out = "module @jit_" + module_name_ +
                    " attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n";
  for (const auto& f : funcs_) out += print_function(f);
  return out + "}\n";
}

}  // namespace rl::hlo::jax
