// Math ops against hand-computed values: each function at points where its value is known in
// closed form (the formula next to the literal), XLA's poles and domains, complex branch cuts
// with signed zeros, f16/bf16/f32 rounded once from double, reduce_precision's rounding,
// overflow and underflow, next_after on the bits, and the refusals (wrong element types,
// quantized types).
#include <cmath>
#include <complex>
#include <limits>

#include "catch.hpp"
#include "common/float16.h"
#include "interp/interp_util.h"
#include "interp/math_functions.h"
#include "kernels/kernels.h"

using namespace rl;
using rl::testing::as_complex;
using rl::testing::as_doubles;
using rl::testing::run_text;
namespace m = rl::interp::math;

namespace {

using V = std::vector<double>;
using C = std::complex<double>;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.141592653589793;

// |a − b| within `ulps` units of the last place of b (f64), NaN matching NaN.
bool close(double a, double b, double ulps = 4) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= ulps * std::fabs(b) * 0x1p-52 + 1e-300;
}
bool close(C a, C b, double ulps = 4) {
  return close(a.real(), b.real(), ulps) && close(a.imag(), b.imag(), ulps);
}

// One op on a constant operand; the run must pass.
interp::RunResult run_op(const std::string& op, const std::string& type, const std::string& a,
                         const std::string& result_type = "", const std::string& b = "") {
  const std::string rt = result_type.empty() ? type : result_type;
  std::string body = "  %a = stablehlo.constant dense<" + a + "> : " + type + "\n";
  if (b.empty()) {
    body += "  %c = " + op + " %a : " + type + " -> " + rt + "\n";
  } else {
    body += "  %b = stablehlo.constant dense<" + b + "> : " + type + "\n";
    body += "  %c = " + op + " %a, %b : " + type + ", " + type + " -> " + rt + "\n";
  }
  body += "  return %c : " + rt + "\n";
  auto ran = run_text(rl::testing::main_of(rt, body));
  INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  return std::move(ran.result);
}

V unary(const std::string& op, const std::string& type, const std::string& a,
        const std::string& result_type = "") {
  return as_doubles(run_op(op, type, a, result_type));
}

// The raw bits of a one-element f32/f16/bf16 result.
std::uint64_t bits_of(const interp::RunResult& r) {
  const interp::Tensor& t = r.values.at(0).tensor;
  std::uint64_t u = 0;
  std::memcpy(&u, t.data(), static_cast<std::size_t>(hlo::element_bytes(t.type)));
  return u;
}

std::string refusal(const std::string& text) { return rl::testing::run_error(text); }

}  // namespace

// ---- the scalar functions
// --------------------------------------------------------------------------

TEST_CASE("erf_inv inverts erf to f64 accuracy and is infinite at plus or minus 1",
          "[interp][math]") {
  CHECK(close(m::erf_inv(0.5), 0.47693627620446987338));  // erf(0.4769362762…) = 0.5
  CHECK(close(m::erf_inv(-0.9), -1.1630871536766740867));
  CHECK(close(m::erf_inv(1 - 0x1p-52), 5.8050186831934533));  // the tail: 1 − x exact, through erfc
  CHECK(close(m::erf_inv(1e-300), 0.886226925452758 * 1e-300));  // √π/2·x
  CHECK(m::erf_inv(1) == kInf);
  CHECK(m::erf_inv(-1) == -kInf);
  CHECK(std::isnan(m::erf_inv(1.5)));
  CHECK(std::signbit(m::erf_inv(-0.0)));
  for (double x : {0.001, 0.1, 0.3, 0.7, 0.99, 0.999999})
    CHECK(close(std::erf(m::erf_inv(x)), x, 8));
}

TEST_CASE("lgamma and digamma follow XLA at their poles", "[interp][math]") {
  CHECK(close(m::lgamma(0.5), 0.57236494292470008707));  // log √π
  CHECK(close(m::lgamma(-0.5), 1.2655121234846453965));  // log 2√π
  CHECK(m::lgamma(0.0) == kInf);
  CHECK(m::lgamma(-3.0) == kInf);
  CHECK(m::lgamma(-kInf) == kInf);
  CHECK(close(m::digamma(1), -0.57721566490153286061));         // −γ
  CHECK(close(m::digamma(0.5), -1.9635100260214234794));        // −γ − 2 ln 2
  CHECK(close(m::digamma(-0.5), 0.036489973978576520559, 16));  // ψ(1/2) + 2
  CHECK(close(m::digamma(100), 4.6001618527380874002));
  CHECK(std::isnan(m::digamma(0.0)));
  CHECK(std::isnan(m::digamma(-2.0)));
  CHECK(std::isnan(m::digamma(-kInf)));
  CHECK(m::digamma(kInf) == kInf);
}

TEST_CASE("zeta and polygamma: values, the harmonic pole and XLA's domain", "[interp][math]") {
  CHECK(close(m::zeta(2, 1), kPi * kPi / 6));            // ζ(2)
  CHECK(close(m::zeta(3, 2), 0.20205690315959428540));   // ζ(3) − 1
  CHECK(close(m::zeta(4, 0.5), 16.234848505667072873));  // (2⁴ − 1)·ζ(4)
  CHECK(m::zeta(1, 3) == kInf);
  CHECK(std::isnan(m::zeta(0.5, 1)));
  CHECK(m::zeta(2, -1) == kInf);      // integer q ≤ 0 is a pole: +inf for even x
  CHECK(std::isnan(m::zeta(3, -1)));  // ... NaN for odd x
  CHECK(std::isnan(m::zeta(2.5, -0.5)));
  CHECK(close(m::polygamma(1, 1), kPi * kPi / 6));               // ψ′(1) = ζ(2)
  CHECK(close(m::polygamma(2, 1), -2 * 1.2020569031595942854));  // ψ″(1) = −2ζ(3)
  CHECK(close(m::polygamma(0, 1), -0.57721566490153286061));
  CHECK(std::isnan(m::polygamma(1.5, 1)));
  CHECK(std::isnan(m::polygamma(-1, 1)));
}

TEST_CASE("bessel_i1e is exp(-|x|) I1(x), odd", "[interp][math]") {
  CHECK(close(m::bessel_i1e(1), 0.20791041534970844887));  // e⁻¹·I1(1), I1(1) = 0.5651591039924851
  CHECK(close(m::bessel_i1e(-1), -0.20791041534970844887));
  CHECK(close(m::bessel_i1e(10), 0.12126268138445552));  // e⁻¹⁰·I1(10), I1(10) = 2670.988303701255
  CHECK(close(m::bessel_i1e(1e-10), 4.9999999995e-11));  // x/2 − x²/2 near 0
  CHECK(m::bessel_i1e(0.0) == 0);
  CHECK(std::signbit(m::bessel_i1e(-0.0)));
  CHECK(m::bessel_i1e(kInf) == 0);
}

TEST_CASE("complex functions take the principal branch and keep the sign of zero on the cuts",
          "[interp][math]") {
  CHECK(close(m::log(C(-1, 0.0)), C(0, kPi)));
  CHECK(close(m::log(C(-1, -0.0)), C(0, -kPi)));
  CHECK(close(m::log(C(1 + 0x1p-30, 0x1p-20)),
              C(9.3177732153183687e-10, 9.5367431551778246e-07)));  // |z| ≈ 1
  CHECK(close(m::sqrt(C(-4, 0.0)), C(0, 2)));
  CHECK(close(m::sqrt(C(-4, -0.0)), C(0, -2)));
  CHECK(close(m::sqrt(C(3, 4)), C(2, 1)));
  CHECK(close(m::rsqrt(C(3, 4)), C(0.4, -0.2)));  // 1/(2 + i) = (2 − i)/5
  CHECK(close(m::exp(C(0, kPi / 2)), C(6.123233995736766e-17, 1)));
  CHECK(close(m::exp(C(709.9, 1)), C(1.0921681920080240e308, 1.7009511788556750e308),
              8));  // e^709.9 overflows alone
  CHECK(close(m::log1p(C(-0.5, 0.5)),
              C(-0.34657359027997264, 0.78539816339744831)));  // log(0.5 + 0.5i)
  CHECK(close(m::tanh(C(1, 1)), C(1.0839233273386946, 0.27175258531951174)));
  CHECK(close(m::tanh(C(400, 1)), C(1, 0)));
  CHECK(close(m::tan(C(1, 1)), C(0.27175258531951174, 1.0839233273386946)));  // tan z = −i·tanh(iz)
  CHECK(close(m::sin(C(1, 1)), C(1.2984575814159773, 0.63496391478473613)));
  CHECK(close(m::cos(C(1, 1)), C(0.83373002513114905, -0.98889770576286510)));
  CHECK(close(m::sinh(C(1, 1)), C(0.63496391478473613, 1.2984575814159773)));
  CHECK(close(m::cosh(C(1, 1)), C(0.83373002513114905, 0.98889770576286510)));
  const double acosh2 = 1.3169578969248167;  // log(2 + √3)
  CHECK(close(m::asin(C(2, 0.0)), C(kPi / 2, acosh2)));
  CHECK(close(m::asin(C(2, -0.0)), C(kPi / 2, -acosh2)));
  CHECK(close(m::acos(C(2, 0.0)), C(0, -acosh2)));
  CHECK(close(m::acos(C(-2, -0.0)), C(kPi, acosh2)));
  CHECK(close(m::acosh(C(-2, 0.0)), C(acosh2, kPi)));
  CHECK(close(m::acosh(C(-2, -0.0)), C(acosh2, -kPi)));
  CHECK(close(m::asinh(C(0.0, 2)), C(acosh2, kPi / 2)));
  CHECK(close(m::atanh(C(2, 0.0)), C(0.54930614433405489, kPi / 2)));  // ½ ln 3 + iπ/2
  CHECK(close(m::atanh(C(2, -0.0)), C(0.54930614433405489, -kPi / 2)));
  CHECK(close(m::atan(C(0.0, 2)), C(kPi / 2, 0.54930614433405489)));
  CHECK(close(m::asin(C(0.5, 0.5)), C(0.45227844715119068, 0.53063753095251783)));
  CHECK(close(m::asin(C(0.6, 1e-200)),
              C(0.64350110879328436, 1.25e-200)));  // Im ≈ y/√(1 − x²) = y/0.8
  CHECK(close(m::atan(C(1, 1)), C(1.0172219678978514, 0.40235947810852510)));
  CHECK(close(m::cbrt(C(-8, 0.0)), C(1, 1.7320508075688772)));  // 2·e^(iπ/3)
  CHECK(close(m::logistic(C(0, 0)), C(0.5, 0)));
}

// ---- the ops
// ------------------------------------------------------------------------------------------

TEST_CASE("f32 math ops run kernels/math_impl.h's functions, f16 and bf16 through f32",
          "[interp][math]") {
  // 67 values, −8 to 8.5 by 1/4 (16 vectors and a tail; exact in f16 and bf16), among them
  // NaN-making ones (log of a negative) and ones past tanh's saturation.
  std::vector<float> x;
  for (int k = 0; k < 67; ++k) x.push_back(-8.0f + 0.25f * static_cast<float>(k));
  std::string text = "[";
  for (std::size_t i = 0; i < x.size(); ++i) text += (i ? ", " : "") + std::to_string(x[i]);
  text += "]";
  const struct {
    const char* op;
    kernels::MathFn fn;
    double (*reference)(double);
  } ops[] = {
      {"stablehlo.exponential", kernels::MathFn::Exp, [](double v) { return std::exp(v); }},
      {"stablehlo.exponential_minus_one", kernels::MathFn::Expm1,
       [](double v) { return std::expm1(v); }},
      {"stablehlo.log", kernels::MathFn::Log, [](double v) { return std::log(v); }},
      {"stablehlo.log_plus_one", kernels::MathFn::Log1p, [](double v) { return std::log1p(v); }},
      {"stablehlo.logistic", kernels::MathFn::Logistic,
       [](double v) { return 1 / (1 + std::exp(-v)); }},
      {"stablehlo.tanh", kernels::MathFn::Tanh, [](double v) { return std::tanh(v); }},
      {"stablehlo.sine", kernels::MathFn::Sin, [](double v) { return std::sin(v); }},
      {"stablehlo.cosine", kernels::MathFn::Cos, [](double v) { return std::cos(v); }},
      {"stablehlo.tan", kernels::MathFn::Tan, [](double v) { return std::tan(v); }},
      {"chlo.erf", kernels::MathFn::Erf, [](double v) { return std::erf(v); }},
      {"stablehlo.sqrt", kernels::MathFn::Sqrt, [](double v) { return std::sqrt(v); }},
      {"stablehlo.rsqrt", kernels::MathFn::Rsqrt, [](double v) { return 1 / std::sqrt(v); }}};
  // So that this test can tell the two paths apart: at some of these points the fast functions
  // differ from the double-precision value rounded once (the path f32 took before).
  int differ_from_double = 0;
  std::vector<float> want(x.size());
  for (const auto& o : ops) {
    kernels::best_math().fn(o.fn, x.size(), x.data(), want.data());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float d = static_cast<float>(o.reference(double(x[i])));
      if (!(std::isnan(d) && std::isnan(want[i])) && d != want[i]) ++differ_from_double;
    }
    for (const char* type : {"f32", "f16", "bf16"}) {
      const std::string t = "tensor<" + std::to_string(x.size()) + "x" + type + ">";
      const auto r = run_op(o.op, t, text);
      const interp::Tensor& y = r.values.at(0).tensor;
      for (std::size_t i = 0; i < x.size(); ++i) {
        std::uint32_t got, expect;
        if (std::string(type) == "f32") {
          std::memcpy(&got, y.as<float>() + i, 4);
          std::memcpy(&expect, &want[i], 4);
        } else {
          got = y.as<std::uint16_t>()[i];
          expect = std::string(type) == "f16" ? f32_to_f16(want[i]) : f32_to_bf16(want[i]);
        }
        INFO(o.op << " of " << type << " at x = " << x[i]);
        CHECK(got == expect);
      }
    }
  }
  CHECK(differ_from_double > 0);
}

TEST_CASE(
    "f32, f16 and bf16 math results: the fast functions or double rounded once, equal at these "
    "points",
    "[interp][math]") {
  CHECK(unary("stablehlo.exponential", "tensor<f32>", "1.0") ==
        V{static_cast<float>(std::exp(1.0))});
  CHECK(unary("stablehlo.exponential", "tensor<f64>", "1.0") == V{std::exp(1.0)});
  // bf16: e = 2.718… lies between 2.703125 and 2.71875 (step 2^-6): nearer the latter.
  CHECK(unary("stablehlo.exponential", "tensor<bf16>", "1.0") == V{2.71875});
  // f16: log 2 = 0.693147…, f16 step 2^-11 near it: 1419.5·2^-11 → 0.69287109375 (1419) or
  // 0.6933593750 (1420): 0.693147… − 0.69287109375 = 2.76e-4 > half a step (2.44e-4), so 1420.
  CHECK(unary("stablehlo.log", "tensor<f16>", "2.0") == V{0.693359375});
  CHECK(unary("stablehlo.sqrt", "tensor<3xf32>", "[4.0, -1.0, 0xFF800000]")[0] == 2);
  CHECK(std::isnan(unary("stablehlo.sqrt", "tensor<f32>", "-1.0")[0]));
  CHECK(unary("stablehlo.rsqrt", "tensor<3xf32>", "[4.0, 0.0, -0.0]") == V{0.5, kInf, -kInf});
  auto cb = unary("stablehlo.cbrt", "tensor<2xf64>", "[-27.0, 8.0]");
  CHECK(close(cb[0], -3, 2));
  CHECK(close(cb[1], 2, 2));
  CHECK(unary("stablehlo.logistic", "tensor<3xf32>", "[0.0, 1000.0, -1000.0]") == V{0.5, 1, 0});
  CHECK(unary("stablehlo.tanh", "tensor<3xf32>", "[0.0, 100.0, -100.0]") == V{0, 1, -1});
  CHECK(unary("stablehlo.exponential_minus_one", "tensor<f64>", "1.0e-20") == V{1e-20});
  CHECK(unary("stablehlo.log_plus_one", "tensor<f64>", "-1.0") == V{-kInf});
  CHECK(unary("stablehlo.sine", "tensor<f32>", "0.5") == V{static_cast<float>(std::sin(0.5))});
  CHECK(unary("stablehlo.cosine", "tensor<f32>", "0.5") == V{static_cast<float>(std::cos(0.5))});
  CHECK(unary("stablehlo.tan", "tensor<f32>", "0.5") == V{static_cast<float>(std::tan(0.5))});
  CHECK(unary("chlo.tan", "tensor<f32>", "0.5") == V{static_cast<float>(std::tan(0.5))});
  CHECK(unary("chlo.erf", "tensor<f32>", "0.5") == V{static_cast<float>(std::erf(0.5))});
  CHECK(unary("chlo.erfc", "tensor<f32>", "3.0") == V{static_cast<float>(std::erfc(3.0))});
  auto empty = unary("stablehlo.exponential", "tensor<0xf32>", "[]");
  CHECK(empty.empty());
}

TEST_CASE("CHLO functions keep XLA's special values through the ops", "[interp][math]") {
  CHECK(unary("chlo.lgamma", "tensor<4xf32>", "[0.0, -2.0, 1.0, 0xFF800000]") ==
        V{kInf, kInf, 0, kInf});
  auto dg = unary("chlo.digamma", "tensor<3xf64>", "[-1.0, 0.0, 1.0]");
  CHECK(std::isnan(dg[0]));
  CHECK(std::isnan(dg[1]));
  CHECK(close(dg[2], -0.57721566490153286061));
  auto ei = unary("chlo.erf_inv", "tensor<4xbf16>", "[1.0, -1.0, 0.0, 2.0]");
  CHECK(ei[0] == kInf);
  CHECK(ei[1] == -kInf);
  CHECK(ei[2] == 0);
  CHECK(std::isnan(ei[3]));
  CHECK(unary("chlo.bessel_i1e", "tensor<f16>", "0.0") == V{0});
  CHECK(unary("chlo.acos", "tensor<f32>", "-1.0") == V{static_cast<float>(kPi)});
  CHECK(unary("chlo.acosh", "tensor<f64>", "1.0") == V{0});
  CHECK(std::isnan(unary("chlo.acosh", "tensor<f64>", "0.5")[0]));
  CHECK(unary("chlo.atanh", "tensor<2xf32>", "[1.0, -1.0]") == V{kInf, -kInf});
  CHECK(std::isnan(unary("chlo.atanh", "tensor<f32>", "1.5")[0]));
  CHECK(unary("chlo.asin", "tensor<f64>", "1.0") == V{kPi / 2});
  CHECK(unary("chlo.atan", "tensor<f64>", "0x7FF0000000000000") == V{kPi / 2});
  CHECK(unary("chlo.asinh", "tensor<f32>", "-0.0") == V{0});
  // chlo.sinh/cosh of reals are CHLO's decomposition in f32: e^(x + log ½) ∓ e^(−x + log ½), each
  // step rounded to f32. For x = −10.285651: x + log ½ rounds, and the result is −14654.526367
  // (0x C664FA1B), 7 ulps from the true −14654.518555: what XLA gives (the corpus's
  // sinh_float32_20_20_chlo expects −14654.525391, 1 ulp away).
  CHECK(unary("chlo.sinh", "tensor<f32>", "-10.285651206970215") == V{-14654.5263671875});
  CHECK(unary("chlo.sinh", "tensor<f32>", "0.5") ==
        V{0.5210953354835510});  // (e + e/(e + 1))/2, e = expm1 ½, in f32
  CHECK(unary("chlo.cosh", "tensor<f32>", "1.0") ==
        V{1.5430805683135986});  // true cosh 1 = 1.5430806348…
  CHECK(close(unary("chlo.cosh", "tensor<f64>", "1.0")[0], std::cosh(1.0)));
  CHECK(unary("chlo.is_inf", "tensor<4xf32>", "[0x7F800000, 0xFF800000, 0x7FC00000, 1.0]",
              "tensor<4xi1>") == V{1, 1, 0, 0});
  CHECK(unary("chlo.is_pos_inf", "tensor<2xf16>", "[0x7C00, 0xFC00]", "tensor<2xi1>") == V{1, 0});
  CHECK(unary("chlo.is_neg_inf", "tensor<2xf64>", "[0x7FF0000000000000, 0xFFF0000000000000]",
              "tensor<2xi1>") == V{0, 1});
  auto pg = as_doubles(
      run_op("chlo.polygamma", "tensor<3xf32>", "[1.0, 0.0, 0.5]", "", "[1.0, 1.0, 1.0]"));
  CHECK(pg[0] == static_cast<float>(kPi * kPi / 6));
  CHECK(pg[1] == static_cast<float>(-0.57721566490153286061));
  CHECK(std::isnan(pg[2]));
  auto z = as_doubles(run_op("chlo.zeta", "tensor<2xf64>", "[2.0, 1.0]", "", "[1.0, 1.0]"));
  CHECK(close(z[0], kPi * kPi / 6));
  CHECK(z[1] == kInf);
}

TEST_CASE(
    "complex elements: complex<f32> computed in complex<f64>, conj negates the imaginary part",
    "[interp][math]") {
  auto e = as_complex(run_op("stablehlo.exponential", "tensor<complex<f32>>", "(0.0, 3.14159274)"));
  CHECK(e[0].real() == -1.0);
  CHECK(e[0].imag() == static_cast<float>(std::sin(static_cast<double>(3.14159274f))));
  auto l =
      as_complex(run_op("stablehlo.log", "tensor<2xcomplex<f64>>", "[(-1.0, 0.0), (-1.0, -0.0)]"));
  CHECK(l[0] == C(0, kPi));
  CHECK(l[1] == C(0, -kPi));
  auto s = as_complex(run_op("stablehlo.sqrt", "tensor<complex<f64>>", "(3.0, 4.0)"));
  CHECK(s[0] == C(2, 1));
  auto cj = as_complex(run_op("chlo.conj", "tensor<2xcomplex<f32>>", "[(1.0, 2.0), (3.0, -0.0)]"));
  CHECK(cj[0] == C(1, -2));
  CHECK(cj[1] == C(3, 0));
  auto t = as_complex(run_op("stablehlo.tanh", "tensor<complex<f64>>", "(1.0, 1.0)"));
  CHECK(close(t[0], C(1.0839233273386946, 0.27175258531951174)));
  auto ac = as_complex(run_op("chlo.acosh", "tensor<complex<f64>>", "(-2.0, 0.0)"));
  CHECK(close(ac[0], C(1.3169578969248167, kPi)));
}

TEST_CASE(
    "reduce_precision rounds the mantissa to nearest even, overflows to inf, flushes underflow to "
    "zero",
    "[interp][math]") {
  auto rp = [](const std::string& values, const std::string& format) {
    const std::string text = rl::testing::main_of(
        "tensor<6xf32>", "  %a = stablehlo.constant dense<" + values +
                             "> : tensor<6xf32>\n"
                             "  %c = stablehlo.reduce_precision %a, format = " +
                             format +
                             " : tensor<6xf32>\n"
                             "  return %c : tensor<6xf32>\n");
    auto ran = run_text(text);
    REQUIRE(ran.result.status == "passed");
    return as_doubles(ran.result);
  };
  // To f16's format (e5m10): 1 + 2^-11 is a tie → 1 (even); 1 + 3·2^-11 → 1 + 2^-9 (even);
  // 70000 > 65504 overflows to inf; 1e-5 < 2^-14 (f16's smallest normal) becomes 0 (no
  // subnormals in XLA's reduction); −1e-5 keeps its sign.
  auto h = rp("[1.00048828125, 1.00146484375, 70000.0, 1.0e-5, -1.0e-5, 65504.0]", "e5m10");
  CHECK(h == V{1.0, 1.001953125, kInf, 0, 0, 65504});
  CHECK(std::signbit(h[4]));
  // To bf16's format (e8m7): the same rounding as a conversion to bf16 for normal values.
  auto b = rp("[1.00390625, 1.01171875, 3.0e38, -2.5, 1.0e-39, 0x7FC00001]", "e8m7");
  CHECK(b[0] == 1.0);          // 1 + 2^-8: a tie → 1
  CHECK(b[1] == 1.015625);     // 1 + 3·2^-8 → 1 + 2^-6
  CHECK(b[2] == 0x1.c4p+127);  // 3e38 = 0x7F61B1E6 rounds to 0x7F620000
  CHECK(b[3] == -2.5);
  CHECK(b[4] != 0);  // same exponent width: subnormals stay
  CHECK(std::isnan(b[5]));
  // Wider than the type: nothing changes.
  auto w = rp("[1.1, 2.2, 3.3, 1.0e-40, 0x7F800000, -0.0]", "e11m52");
  CHECK(w[0] == static_cast<double>(1.1f));
  CHECK(w[3] == static_cast<double>(1.0e-40f));
}

TEST_CASE("next_after steps one unit toward the target on the bits", "[interp][math]") {
  const std::string f32 = "tensor<5xf32>";
  auto r = as_doubles(run_op("chlo.next_after", f32, "[1.0, 1.0, 0.0, -0.0, 2.0]", "",
                             "[2.0, 0.0, -1.0, 0.0, 2.0]"));
  CHECK(r[0] == 1.0 + 0x1p-23);
  CHECK(r[1] == 1.0 - 0x1p-24);
  CHECK(r[2] == -0x1p-149);  // the smallest subnormal, signed like the target
  CHECK(r[3] == 0);
  CHECK(!std::signbit(r[3]));  // equal values give the target (+0)
  CHECK(r[4] == 2.0);
  auto n =
      as_doubles(run_op("chlo.next_after", "tensor<2xbf16>", "[1.0, 0x7FC0]", "", "[2.0, 1.0]"));
  CHECK(n[0] == 1.0078125);  // 1 + 2^-7
  CHECK(std::isnan(n[1]));
  auto big = run_op("chlo.next_after", "tensor<f16>", "0x7BFF", "", "0x7C00");
  CHECK(bits_of(big) == 0x7C00);  // the largest finite f16 steps to inf
}

// The verifier refuses a math op on a kind of element the op table's types column leaves out,
// before anything runs; the interpreter refuses quantized tensors it cannot compute with.
TEST_CASE("math ops refuse element types they are not defined for, and quantized tensors",
          "[interp][math]") {
  const std::string exp_i32 =
      rl::testing::main_of("tensor<i32>",
                           "  %a = stablehlo.constant dense<1> : tensor<i32>\n"
                           "  %c = stablehlo.exponential %a : tensor<i32>\n"
                           "  return %c : tensor<i32>\n");
  CHECK(refusal(exp_i32) ==
        "3:3: error: stablehlo.exponential of this element type \xE2\x80\x94 expected a "
        "floating-point or complex element type, got i32");
  const std::string erf_c64 =
      rl::testing::main_of("tensor<complex<f32>>",
                           "  %a = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f32>>\n"
                           "  %c = chlo.erf %a : tensor<complex<f32>> -> tensor<complex<f32>>\n"
                           "  return %c : tensor<complex<f32>>\n");
  CHECK(refusal(erf_c64) ==
        "3:3: error: chlo.erf of this element type \xE2\x80\x94 expected a floating-point "
        "element type, got complex<f32>");
  const std::string quant =
      rl::testing::main_of("tensor<2xf32>",
                           "  %a = stablehlo.constant dense<[0.5, 1.0]> : tensor<2xf32>\n"
                           "  %q = stablehlo.uniform_quantize %a : (tensor<2xf32>) -> "
                           "tensor<2x!quant.uniform<i8:f32, 0.5:-1>>\n"
                           "  %c = stablehlo.uniform_dequantize %q : "
                           "(tensor<2x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<2xf32>\n"
                           "  return %c : tensor<2xf32>\n");
  CHECK(refusal(quant).find("not run: stablehlo.uniform_quantize: quantized element types") !=
        std::string::npos);
}
