// Every (elementwise op, element type) pair, generated from the op table (ops.inc): each op whose
// verify rule is Elementwise and which StableHLO spells, on each element type, as a one-op program
// on four small inputs. The table's types column decides: a pair it refuses must be refused by the
// verifier, naming the kinds the op takes; a pair it allows must run (but for the interpreter's
// gaps, listed in known_gap() with their reason) and give the answer computed here on its own:
// integers exactly, wrapped to the type's width; floating point within a few units of the type's
// precision of a double reference; complex numbers through std::complex<double>. Convert,
// bitcast_convert and reduce_precision take a second type or attributes: their pairs are
// elementwise_test.cpp's. A new op added to the table with this verify rule fails here until it
// has a reference below.
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catch.hpp"
#include "hlo/ops.h"
#include "interp/interp_util.h"

using namespace rl;

namespace {

using C = std::complex<double>;
enum class Kind { Pred, Signed, Unsigned, Float, Complex };

struct ElemType {
  const char* mlir;  // "i8", "complex<f32>"
  Kind kind;
  int bits;    // integers: the width; floating point: the significand's bits (with the hidden one)
  double tol;  // floating point: relative tolerance of a result against the double reference
};

const std::vector<ElemType>& elem_types() {
  static const std::vector<ElemType> t = {
      {"i1", Kind::Pred, 1, 0},
      {"i8", Kind::Signed, 8, 0},
      {"i16", Kind::Signed, 16, 0},
      {"i32", Kind::Signed, 32, 0},
      {"i64", Kind::Signed, 64, 0},
      {"ui8", Kind::Unsigned, 8, 0},
      {"ui16", Kind::Unsigned, 16, 0},
      {"ui32", Kind::Unsigned, 32, 0},
      {"ui64", Kind::Unsigned, 64, 0},
      {"f16", Kind::Float, 11, 4e-3},
      {"bf16", Kind::Float, 8, 3e-2},
      {"f32", Kind::Float, 24, 4e-6},
      {"f64", Kind::Float, 53, 1e-12},
      {"complex<f32>", Kind::Complex, 24, 4e-6},
      {"complex<f64>", Kind::Complex, 53, 1e-12},
  };
  return t;
}

// ---- integers: the operation on int64 values, wrapped to the type's width -------------------

std::int64_t wrap(std::int64_t v, const ElemType& t) {
  if (t.bits == 64) return v;
  const std::uint64_t mask = (std::uint64_t(1) << t.bits) - 1;
  std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
  if (t.kind == Kind::Signed && (u >> (t.bits - 1)))
    return static_cast<std::int64_t>(u | ~mask);  // sign-extend
  return static_cast<std::int64_t>(u);
}
std::uint64_t bits_of(std::int64_t v, const ElemType& t) {
  return t.bits == 64 ? static_cast<std::uint64_t>(v)
                      : static_cast<std::uint64_t>(v) & ((std::uint64_t(1) << t.bits) - 1);
}

using IntFn =
    std::function<bool(std::int64_t a, std::int64_t b, const ElemType& t, std::int64_t* out)>;

// The integer reference of each op (false: the op has none for this kind of integer).
const std::map<std::string, IntFn>& int_refs() {
  static const std::map<std::string, IntFn> r = {
      {"stablehlo.add", [](auto a, auto b, auto& t, auto* o) { return *o = wrap(a + b, t), true; }},
      {"stablehlo.subtract",
       [](auto a, auto b, auto& t, auto* o) { return *o = wrap(a - b, t), true; }},
      {"stablehlo.multiply",
       [](auto a, auto b, auto& t, auto* o) { return *o = wrap(a * b, t), true; }},
      {"stablehlo.divide",
       [](auto a, auto b, auto& t, auto* o) { return *o = wrap(a / b, t), true; }},
      {"stablehlo.remainder",
       [](auto a, auto b, auto& t, auto* o) { return *o = wrap(a % b, t), true; }},
      {"stablehlo.maximum",
       [](auto a, auto b, auto&, auto* o) { return *o = std::max(a, b), true; }},
      {"stablehlo.minimum",
       [](auto a, auto b, auto&, auto* o) { return *o = std::min(a, b), true; }},
      {"stablehlo.and", [](auto a, auto b, auto&, auto* o) { return *o = a & b, true; }},
      {"stablehlo.or", [](auto a, auto b, auto&, auto* o) { return *o = a | b, true; }},
      {"stablehlo.xor", [](auto a, auto b, auto&, auto* o) { return *o = a ^ b, true; }},
      {"stablehlo.shift_left",
       [](auto a, auto b, auto& t, auto* o) {
         return *o = wrap(static_cast<std::int64_t>(bits_of(a, t) << b), t), true;
       }},
      {"stablehlo.shift_right_logical",
       [](auto a, auto b, auto& t, auto* o) {
         return *o = wrap(static_cast<std::int64_t>(bits_of(a, t) >> b), t), true;
       }},
      {"stablehlo.shift_right_arithmetic",
       [](auto a, auto b, auto& t, auto* o) {
         // The bits as a signed number of the width, shifted with its sign.
         const std::int64_t s = wrap(a, ElemType{"", Kind::Signed, t.bits, 0});
         return *o = wrap(s >> b, t), true;
       }},
      {"stablehlo.not", [](auto a, auto, auto& t, auto* o) { return *o = wrap(~a, t), true; }},
      {"stablehlo.negate", [](auto a, auto, auto& t, auto* o) { return *o = wrap(-a, t), true; }},
      // Unsigned: the number itself (the spec defines abs for signed integers only, and XLA's
      // shape inference refuses it; the interpreter runs it as the identity).
      {"stablehlo.abs",
       [](auto a, auto, auto& t, auto* o) { return *o = wrap(a < 0 ? -a : a, t), true; }},
      {"stablehlo.sign", [](auto a, auto, auto&, auto* o) { return *o = (a > 0) - (a < 0), true; }},
      {"stablehlo.popcnt",
       [](auto a, auto, auto& t, auto* o) {
         std::uint64_t u = bits_of(a, t);
         int n = 0;
         for (; u; u &= u - 1) ++n;
         return *o = n, true;
       }},
      {"stablehlo.count_leading_zeros",
       [](auto a, auto, auto& t, auto* o) {
         const std::uint64_t u = bits_of(a, t);
         int n = 0;
         for (int i = t.bits - 1; i >= 0 && !((u >> i) & 1); --i) ++n;
         return *o = n, true;
       }},
      {"stablehlo.power",
       [](auto a, auto b, auto& t, auto* o) {
         std::int64_t p = 1;
         for (std::int64_t i = 0; i < b; ++i) p = wrap(p * a, t);
         return *o = p, true;
       }},
  };
  return r;
}

// Booleans: StableHLO's logical meaning of the ops defined on i1.
const std::map<std::string, std::function<bool(bool, bool)>>& pred_refs() {
  static const std::map<std::string, std::function<bool(bool, bool)>> r = {
      {"stablehlo.add", [](bool a, bool b) { return a || b; }},
      {"stablehlo.multiply", [](bool a, bool b) { return a && b; }},
      {"stablehlo.maximum", [](bool a, bool b) { return a || b; }},
      {"stablehlo.minimum", [](bool a, bool b) { return a && b; }},
      {"stablehlo.and", [](bool a, bool b) { return a && b; }},
      {"stablehlo.or", [](bool a, bool b) { return a || b; }},
      {"stablehlo.xor", [](bool a, bool b) { return a != b; }},
      {"stablehlo.not", [](bool a, bool) { return !a; }},
  };
  return r;
}

// ---- floating point and complex: std::complex<double> (real inputs have a zero imaginary part)

double digamma(double x) {
  double acc = 0;
  while (x < 12) acc -= 1 / x, x += 1;  // ψ(x) = ψ(x + 1) − 1/x
  const double f = 1 / (x * x);
  return acc + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}
// ζ(s, q) = Σ (q + k)^−s, by N terms and the Euler–Maclaurin tail.
double hurwitz_zeta(double s, double q) {
  const int n = 50;
  double sum = 0;
  for (int k = 0; k < n; ++k) sum += std::pow(q + k, -s);
  const double a = q + n;
  return sum + std::pow(a, 1 - s) / (s - 1) + std::pow(a, -s) / 2 + s * std::pow(a, -s - 1) / 12 -
         s * (s + 1) * (s + 2) * std::pow(a, -s - 3) / 720;
}
double bessel_i1e(double x) {  // e^−|x|·I1(x), I1 by its series
  double term = x / 2, sum = term;
  for (int k = 1; k < 60; ++k) sum += term *= (x * x / 4) / (k * (k + 1.0));
  return std::exp(-std::fabs(x)) * sum;
}
double erf_inv(double y) {  // Newton on erf
  double x = 0;
  for (int i = 0; i < 60; ++i)
    x -= (std::erf(x) - y) / (2 / std::sqrt(3.14159265358979323846) * std::exp(-x * x));
  return x;
}
bool lex_less(C a, C b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}
double factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// f(a, b, p): p the significand's bits of the element type (chlo.next_after steps by its unit).
using FloatFn = std::function<C(C a, C b, int p)>;
struct FloatRef {
  FloatFn f;
  bool complex_ok;  // defined on complex numbers too
  // Inputs where the default ones (0.5, −1.5, 2, 0.25 and 1, 2, 0.5, 4) leave the domain.
  std::vector<double> a, b;
};

const std::map<std::string, FloatRef>& float_refs() {
  using std::vector;
  static const vector<double> positive = {0.5, 1.5, 2.0, 0.25}, unit = {0.5, -0.25, 0.75, 0.125},
                              above_one = {1.5, 2.0, 3.0, 1.25};
  auto re = [](C z) { return z.real(); };
  static const std::map<std::string, FloatRef> r = {
      {"stablehlo.add", {[](C a, C b, int) { return a + b; }, true, {}, {}}},
      {"stablehlo.subtract", {[](C a, C b, int) { return a - b; }, true, {}, {}}},
      {"stablehlo.multiply", {[](C a, C b, int) { return a * b; }, true, {}, {}}},
      {"stablehlo.divide", {[](C a, C b, int) { return a / b; }, true, {}, {}}},
      {"stablehlo.remainder",
       {[re](C a, C b, int) { return C(std::fmod(re(a), re(b))); }, false, {}, {}}},
      // Complex numbers order lexicographically (the spec's maximum and minimum).
      {"stablehlo.maximum", {[](C a, C b, int) { return lex_less(a, b) ? b : a; }, true, {}, {}}},
      {"stablehlo.minimum", {[](C a, C b, int) { return lex_less(b, a) ? b : a; }, true, {}, {}}},
      // Complex: −i·log((x + iy)/√(x² + y²)), y the lhs (XLA's complex atan2; atan2 for reals).
      {"stablehlo.atan2",
       {[](C y, C x, int) {
          if (y.imag() == 0 && x.imag() == 0) return C(std::atan2(y.real(), x.real()));
          const C i(0, 1);
          return -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
        },
        true,
        {},
        {}}},
      {"stablehlo.power", {[](C a, C b, int) { return std::pow(a, b); }, true, {}, {}}},
      {"stablehlo.negate", {[](C a, C, int) { return -a; }, true, {}, {}}},
      {"stablehlo.abs", {[](C a, C, int) { return C(std::abs(a)); }, true, {}, {}}},
      {"stablehlo.sign",
       {[](C a, C, int) { return a == C(0) ? C(0) : a / std::abs(a); }, true, {}, {}}},
      {"stablehlo.floor", {[re](C a, C, int) { return C(std::floor(re(a))); }, false, {}, {}}},
      {"stablehlo.ceil", {[re](C a, C, int) { return C(std::ceil(re(a))); }, false, {}, {}}},
      {"stablehlo.round_nearest_afz",
       {[re](C a, C, int) { return C(std::round(re(a))); }, false, {}, {}}},
      {"stablehlo.round_nearest_even",
       {[re](C a, C, int) { return C(std::nearbyint(re(a))); }, false, {}, {}}},
      {"stablehlo.exponential", {[](C a, C, int) { return std::exp(a); }, true, {}, {}}},
      {"stablehlo.exponential_minus_one",
       {[](C a, C, int) { return std::exp(a) - C(1); }, true, {}, {}}},
      {"stablehlo.log", {[](C a, C, int) { return std::log(a); }, true, positive, {}}},
      {"stablehlo.log_plus_one",
       {[](C a, C, int) { return std::log(C(1) + a); }, true, positive, {}}},
      {"stablehlo.logistic",
       {[](C a, C, int) { return C(1) / (C(1) + std::exp(-a)); }, true, {}, {}}},
      {"stablehlo.sqrt", {[](C a, C, int) { return std::sqrt(a); }, true, positive, {}}},
      {"stablehlo.rsqrt", {[](C a, C, int) { return C(1) / std::sqrt(a); }, true, positive, {}}},
      // Real: the real root (of a negative number too); complex: the principal root.
      {"stablehlo.cbrt",
       {[](C a, C, int) {
          return a.imag() == 0 ? C(std::cbrt(a.real())) : std::exp(std::log(a) / 3.0);
        },
        true,
        {},
        {}}},
      {"stablehlo.tanh", {[](C a, C, int) { return std::tanh(a); }, true, {}, {}}},
      {"stablehlo.sine", {[](C a, C, int) { return std::sin(a); }, true, {}, {}}},
      {"stablehlo.cosine", {[](C a, C, int) { return std::cos(a); }, true, {}, {}}},
      {"stablehlo.tan", {[](C a, C, int) { return std::tan(a); }, true, {}, {}}},
      {"stablehlo.complex", {[](C a, C b, int) { return C(a.real(), b.real()); }, false, {}, {}}},
      {"stablehlo.real", {[](C a, C, int) { return C(a.real()); }, true, {}, {}}},
      {"stablehlo.imag", {[](C a, C, int) { return C(a.imag()); }, true, {}, {}}},
      {"chlo.conj", {[](C a, C, int) { return std::conj(a); }, true, {}, {}}},
      {"chlo.erf", {[re](C a, C, int) { return C(std::erf(re(a))); }, false, {}, {}}},
      {"chlo.erfc", {[re](C a, C, int) { return C(std::erfc(re(a))); }, false, {}, {}}},
      {"chlo.erf_inv", {[re](C a, C, int) { return C(erf_inv(re(a))); }, false, unit, {}}},
      {"chlo.tan", {[](C a, C, int) { return std::tan(a); }, true, {}, {}}},
      {"chlo.lgamma", {[re](C a, C, int) { return C(std::lgamma(re(a))); }, false, {}, {}}},
      {"chlo.digamma", {[re](C a, C, int) { return C(digamma(re(a))); }, false, {}, {}}},
      {"chlo.acos", {[](C a, C, int) { return std::acos(a); }, true, unit, {}}},
      {"chlo.asin", {[](C a, C, int) { return std::asin(a); }, true, unit, {}}},
      {"chlo.atan", {[](C a, C, int) { return std::atan(a); }, true, {}, {}}},
      {"chlo.acosh", {[](C a, C, int) { return std::acosh(a); }, true, above_one, {}}},
      {"chlo.asinh", {[](C a, C, int) { return std::asinh(a); }, true, {}, {}}},
      {"chlo.atanh", {[](C a, C, int) { return std::atanh(a); }, true, unit, {}}},
      {"chlo.cosh", {[](C a, C, int) { return std::cosh(a); }, true, {}, {}}},
      {"chlo.sinh", {[](C a, C, int) { return std::sinh(a); }, true, {}, {}}},
      {"chlo.bessel_i1e", {[re](C a, C, int) { return C(bessel_i1e(re(a))); }, false, {}, {}}},
      {"chlo.polygamma",
       {[re](C n, C x, int) {
          const int k = static_cast<int>(re(n));
          if (k == 0) return C(digamma(re(x)));
          return C((k % 2 ? 1 : -1) * factorial(k) * hurwitz_zeta(k + 1, re(x)));
        },
        false,
        {0, 1, 2, 1},
        {0.5, 1.5, 2.0, 3.0}}},
      // The next number of the type after a toward b (normal numbers: a unit of the last place,
      // half of it below a power of two).
      {"chlo.next_after",
       {[re](C a, C b, int p) {
          const double x = re(a), dir = re(b) > x ? 1 : re(b) < x ? -1 : 0;
          const int e = std::ilogb(x);
          double ulp = std::ldexp(1.0, e - p + 1);
          if (dir * x < 0 && std::fabs(x) == std::ldexp(1.0, e)) ulp /= 2;
          return C(x + dir * ulp);
        },
        false,
        {},
        {}}},
      {"chlo.zeta",
       {[re](C s, C q, int) { return C(hurwitz_zeta(re(s), re(q))); },
        false,
        {2.0, 3.0, 2.5, 4.0},
        {1.0, 2.0, 0.5, 1.5}}},
  };
  return r;
}

// Ops whose result is a predicate of a real floating-point operand.
const std::map<std::string, std::function<bool(double)>>& predicates() {
  static const std::map<std::string, std::function<bool(double)>> r = {
      {"stablehlo.is_finite", [](double x) { return std::isfinite(x); }},
      {"chlo.is_inf", [](double x) { return std::isinf(x); }},
      {"chlo.is_neg_inf", [](double x) { return std::isinf(x) && x < 0; }},
      {"chlo.is_pos_inf", [](double x) { return std::isinf(x) && x > 0; }},
  };
  return r;
}

hlo::ElementKind kind_of(const ElemType& t) {
  switch (t.kind) {
    case Kind::Pred:
      return hlo::ElementKind::Bool;
    case Kind::Signed:
      return hlo::ElementKind::Signed;
    case Kind::Unsigned:
      return hlo::ElementKind::Unsigned;
    case Kind::Float:
      return hlo::ElementKind::Float;
    case Kind::Complex:
      return hlo::ElementKind::Complex;
  }
  return hlo::ElementKind::None;
}

// Pairs the types column allows that the interpreter does not run, and why ("" for the others).
std::string known_gap(const std::string& op, const ElemType& t) {
  if (op == "stablehlo.remainder" && t.kind == Kind::Complex) return "no complex remainder kernel";
  if (op == "stablehlo.complex" && t.bits < 24)
    return "complex parts are f32 or f64 (the dialect's rule, stricter than the column's Fp)";
  return "";
}

std::string join(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s + "]";
}
std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", x);
  std::string s = b;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

struct Case {
  std::string text;                  // the one-op program
  std::vector<std::int64_t> ia, ib;  // integer inputs
  std::vector<C> fa, fb;             // floating-point / complex inputs
  std::string result;                // the result's element type
};

bool skipped_op(std::string_view mlir) {
  // A second element type or attributes: elementwise_test.cpp has their pairs.
  return mlir == "stablehlo.convert" || mlir == "stablehlo.bitcast_convert" ||
         mlir == "stablehlo.reduce_precision";
}

}  // namespace

TEST_CASE(
    "every elementwise op runs on every element type its kernel registers, with the answer "
    "computed independently",
    "[interp][pairs]") {
  int ran = 0, refused = 0;
  std::vector<std::string> gaps;
  for (int c = 1; c < static_cast<int>(hlo::OpCode::Count_); ++c) {
    const hlo::OpInfo& info = hlo::op_info(static_cast<hlo::OpCode>(c));
    if (info.verify != hlo::VerifyRule::Elementwise || info.mlir.empty() || skipped_op(info.mlir))
      continue;
    const std::string op(info.mlir);
    const int arity = info.arity;
    REQUIRE((arity == 1 || arity == 2));
    for (const ElemType& t : elem_types()) {
      INFO(op << " on " << t.mlir);
      // The inputs and the result's element type.
      std::vector<std::string> sa, sb;
      std::vector<std::int64_t> ia, ib;
      std::vector<C> fa, fb;
      std::string result = t.mlir;
      if (t.kind == Kind::Pred) {
        ia = {0, 1, 1, 0}, ib = {0, 0, 1, 1};
        for (auto v : ia) sa.push_back(v ? "true" : "false");
        for (auto v : ib) sb.push_back(v ? "true" : "false");
      } else if (t.kind == Kind::Signed || t.kind == Kind::Unsigned) {
        ia = t.kind == Kind::Signed ? std::vector<std::int64_t>{5, -6, 7, 0}
                                    : std::vector<std::int64_t>{5, 6, 7, 0};
        ib = {1, 2, 3, 1};
        for (auto v : ia) sa.push_back(std::to_string(v));
        for (auto v : ib) sb.push_back(std::to_string(v));
      } else {
        std::vector<double> ra = {0.5, -1.5, 2.0, 0.25}, rb = {1.0, 2.0, 0.5, 4.0};
        auto fr = float_refs().find(op);
        if (fr != float_refs().end()) {
          if (!fr->second.a.empty()) ra = fr->second.a;
          if (!fr->second.b.empty()) rb = fr->second.b;
        }
        const std::vector<double> ia_im = {0.25, 0.5, -0.5, 0.125}, ib_im = {0.5, 0.0, -1.0, 0.25};
        for (std::size_t i = 0; i < 4; ++i) {
          const bool cx = t.kind == Kind::Complex;
          fa.push_back(C(ra[i], cx ? ia_im[i] : 0));
          fb.push_back(C(rb[i], cx ? ib_im[i] : 0));
          sa.push_back(cx ? "(" + num(ra[i]) + "," + num(ia_im[i]) + ")" : num(ra[i]));
          sb.push_back(cx ? "(" + num(rb[i]) + "," + num(ib_im[i]) + ")" : num(rb[i]));
        }
        if (predicates().count(op)) result = "i1";
        if (t.kind == Kind::Complex &&
            (op == "stablehlo.abs" || op == "stablehlo.real" || op == "stablehlo.imag"))
          result = t.mlir == std::string("complex<f32>") ? "f32" : "f64";
      }
      if (op == "stablehlo.compare") result = "i1";
      if (op == "stablehlo.complex" && t.kind == Kind::Float)
        result = "complex<" + std::string(t.mlir) + ">";
      const std::string T = "tensor<4x" + std::string(t.mlir) + ">", R = "tensor<4x" + result + ">";
      std::string body = "  %a = stablehlo.constant dense<" + join(sa) + "> : " + T + "\n";
      if (arity == 2) body += "  %b = stablehlo.constant dense<" + join(sb) + "> : " + T + "\n";
      body += "  %c = \"" + op + "\"(%a" + (arity == 2 ? ", %b) " : ") ");
      // LT, but EQ for complex numbers (the spec orders none).
      const bool complex_compare = op == "stablehlo.compare" && t.kind == Kind::Complex;
      if (op == "stablehlo.compare")
        body += std::string("{comparison_direction = #stablehlo<comparison_direction ") +
                (complex_compare ? "EQ" : "LT") + ">} ";
      body += ": (" + T + (arity == 2 ? ", " + T : std::string()) + ") -> " + R + "\n";
      body += "  return %c : " + R + "\n";
      const std::string text = rl::testing::main_of(R, body);
      INFO(text);
      auto r = hlo::parse(text);
      REQUIRE(r.ok());
      auto p = hlo::lower(r->front());
      // The table says which kinds of element the op takes; the verifier refuses the others.
      if (!hlo::op_takes(static_cast<hlo::OpCode>(c), kind_of(t))) {
        INFO("the types column refuses this pair: the verifier must");
        REQUIRE_FALSE(p.ok());
        CHECK(p.error().find(" of this element type \xE2\x80\x94 expected " +
                             hlo::types_text(info.types) + " element type, got ") !=
              std::string::npos);
        ++refused;
        continue;
      }
      INFO((p.ok() ? std::string() : p.error()));
      REQUIRE(p.ok());
      const interp::RunResult res = interp::run_program(p.value(), {});
      std::string not_run;
      if (!res.unsupported.empty()) not_run = res.unsupported.front().why;
      if (!res.errors.empty() &&
          res.errors.front().message.find(" of this element type") != std::string::npos)
        not_run = res.errors.front().message;
      // A pair the table allows runs, but for the interpreter's gaps, listed with their reason.
      const std::string gap = known_gap(op, t);
      if (!gap.empty()) {
        INFO("a listed gap now runs: take it off known_gap()");
        CHECK_FALSE(not_run.empty());
        gaps.push_back(op + " on " + t.mlir + ": " + gap);
        continue;
      }
      INFO(not_run);
      REQUIRE(not_run.empty());
      INFO((res.errors.empty() ? res.status : res.errors.front().message));
      REQUIRE(res.status == "passed");
      ++ran;
      const interp::Tensor& out = res.values.at(0).tensor;
      // The expected values, and the comparison.
      if (result == "i1") {
        const std::vector<double> got = rl::testing::as_doubles(res);
        for (std::size_t i = 0; i < 4; ++i) {
          bool want = false;
          if (op == "stablehlo.compare") {
            want = complex_compare            ? fa[i] == fb[i]
                   : t.kind == Kind::Float    ? fa[i].real() < fb[i].real()
                   : t.kind == Kind::Unsigned ? bits_of(ia[i], t) < bits_of(ib[i], t)
                                              : ia[i] < ib[i];
          } else if (t.kind == Kind::Pred) {
            auto pr = pred_refs().find(op);
            INFO("no boolean reference for this op: add one to pred_refs()");
            REQUIRE(pr != pred_refs().end());
            want = pr->second(ia[i] != 0, ib[i] != 0);
          } else {
            auto pr = predicates().find(op);
            INFO("no predicate reference for this op: add one to predicates()");
            REQUIRE(pr != predicates().end());
            want = pr->second(fa[i].real());
          }
          CHECK(got[i] == (want ? 1.0 : 0.0));
        }
      } else if (t.kind == Kind::Signed || t.kind == Kind::Unsigned) {
        auto ir = int_refs().find(op);
        INFO("no integer reference for this op: add one to int_refs()");
        REQUIRE(ir != int_refs().end());
        const std::vector<double> got = rl::testing::as_doubles(res);
        for (std::size_t i = 0; i < 4; ++i) {
          std::int64_t want = 0;
          INFO("element " << i);
          REQUIRE(ir->second(ia[i], ib[i], t, &want));
          const double w = t.kind == Kind::Unsigned ? static_cast<double>(bits_of(want, t))
                                                    : static_cast<double>(want);
          CHECK(got[i] == w);
        }
      } else {
        auto fr = float_refs().find(op);
        INFO("no floating-point reference for this op: add one to float_refs()");
        REQUIRE(fr != float_refs().end());
        INFO("no complex reference for this op: mark it complex_ok with a complex formula");
        REQUIRE((t.kind != Kind::Complex || fr->second.complex_ok));
        std::vector<C> got;
        if (out.type == hlo::ElementType::C64 || out.type == hlo::ElementType::C128)
          got = rl::testing::as_complex(res);
        else
          for (double x : rl::testing::as_doubles(res)) got.push_back(C(x));
        for (std::size_t i = 0; i < 4; ++i) {
          const C want = fr->second.f(fa[i], fb[i], t.bits);
          char shown[160];
          std::snprintf(shown, sizeof shown, "element %zu: got (%.17g, %.17g), want (%.17g, %.17g)",
                        i, got[i].real(), got[i].imag(), want.real(), want.imag());
          INFO(shown);
          // A few units of the type's precision of the result's size (1 where it is smaller).
          const double bound = t.tol * std::max(std::abs(want), 1.0);
          CHECK(std::abs(got[i] - want) <= bound);
        }
      }
    }
  }
  // Every numeric type runs the four arithmetic ops: a registry that lost a type fails here.
  CHECK(ran >= 4 * 14);
  std::string why;
  for (const auto& g : gaps) why += "\n  " + g;
  WARN(ran << " (op, element type) pairs ran and matched; " << refused
           << " refused by the verifier, as the types column says; " << gaps.size()
           << " the column allows that the interpreter does not run:" << why);
}
