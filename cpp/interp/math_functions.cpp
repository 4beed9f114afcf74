#include "interp/math_functions.h"

#include <cmath>
#include <limits>

#include "common/libm.h"

namespace rl::interp::math {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.141592653589793238462643383279502884;
constexpr double kLn2 = 0.693147180559945309417232121458176568;

// ---- double-double helpers: exact sums and products as (high, low) pairs -----------------------

struct DD {
  double hi, lo;
};

DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

DD two_prod(double a, double b) {
  const double p = a * b;
  return {p, libm::fma(a, b, -p)};
}

DD dd_add(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  s.lo += a.lo + b.lo;
  return two_sum(s.hi, s.lo);
}

// a² + b² − 1 with one rounding at the end: the argument of log1p for log|z| when |z| ≈ 1.
double sum_squares_minus_one(double a, double b) {
  DD s = dd_add(two_prod(a, a), DD{-1.0, 0.0});
  s = dd_add(s, two_prod(b, b));
  return s.hi + s.lo;
}

// 1 − a² − b² with one rounding at the end.
double one_minus_sum_squares(double a, double b) { return -sum_squares_minus_one(a, b); }

// log(hypot(a, b)) for a ≥ b ≥ 0, exact near |z| = 1, without overflow or underflow of a².
double log_hypot(double a, double b) {
  if (a < b) std::swap(a, b);
  if (a == 0) return -kInf;
  if (std::isinf(a)) return kInf;
  if (a > 0.5 && a < 2 && b < 2) {
    const double h2 = a * a + b * b;
    if (h2 > 0.5 && h2 < 2) return 0.5 * libm::log1p(sum_squares_minus_one(a, b));
  }
  if (a > 1e300) return libm::log(libm::hypot(a * 0.25, b * 0.25)) + 2 * kLn2;
  if (a < 1e-300) return libm::log(libm::hypot(a * 0x1p600, b * 0x1p600)) - 600 * kLn2;
  return libm::log(libm::hypot(a, b));
}

// The Chebyshev series Σ' c_k T_k(x) by Clenshaw's recurrence (Cephes' chbevl).
template <std::size_t N>
double chebyshev(double x, const double (&c)[N]) {
  double b0 = 0, b1 = 0, b2 = 0;
  for (double ck : c) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + ck;
  }
  return 0.5 * (b0 - b2);
}

}  // namespace

// ---- real functions ----------------------------------------------------------------------------

double logistic(double x) {
  if (x >= 0) return 1 / (1 + libm::exp(-x));
  const double e = libm::exp(x);  // x < 0: no overflow, and e/(1 + e) keeps the tiny values
  return e / (1 + e);
}

double rsqrt(double x) { return 1 / std::sqrt(x); }

// The inverse of erf by Halley's iteration from an approximation good to about 2e-3
// (Winitzki's); near ±1 the residual is taken on erfc with 1 − |x| exact, so the tail keeps its
// relative accuracy.
double erf_inv(double x) {
  if (std::isnan(x)) return x;
  const double a = std::fabs(x);
  if (a > 1) return kNaN;
  if (a == 1) return std::copysign(kInf, x);
  if (a == 0) return x;
  double y;
  if (a < 1e-3) {
    y = 0.886226925452758013649 * a * (1 + 0.261799387799149436539 * a * a);  // √π/2·a(1 + πa²/12)
  } else {
    const double l = libm::log1p(-a * a);  // log(1 − x²)
    const double k = 2 / (kPi * 0.147) + 0.5 * l;
    y = std::sqrt(std::sqrt(k * k - l / 0.147) - k);
  }
  const double one_minus_a = 1 - a;  // exact for a ≥ 0.5
  for (int i = 0; i < 6; ++i) {
    const double residual = a < 0.5 ? libm::erf(y) - a : one_minus_a - libm::erfc(y);
    const double slope = 1.12837916709551257390 * libm::exp(-y * y);  // 2/√π·e^(−y²)
    if (residual == 0 || slope == 0) break;
    const double u = residual / slope;
    const double step = u / (1 + y * u);  // Halley: erf'' = −2y·erf'
    y -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(y)) break;
  }
  return std::copysign(y, x);
}

double lgamma(double x) {
  if (std::isinf(x)) return kInf;
  if (x <= 0 && x == std::floor(x)) return kInf;
  return libm::lgamma(x);
}

// ψ(x): reflection ψ(x) = ψ(1 − x) − π·cot(πx) below 1/2, the recurrence ψ(x) = ψ(x + 1) − 1/x up
// to x ≥ 10, then the asymptotic series ln x − 1/(2x) − Σ B₂ₖ/(2k·x²ᵏ).
double digamma(double x) {
  if (std::isnan(x)) return x;
  if (x == kInf) return kInf;
  if (x <= 0 && x == std::floor(x)) return kNaN;  // the poles, −inf included (as XLA)
  double result = 0;
  if (x < 0.5) {
    // cot(πx) has period 1: reduce x to r in [−1/2, 1/2] exactly before multiplying by π.
    const double r = x - std::nearbyint(x);
    result = -kPi / libm::tan(kPi * r);
    x = 1 - x;
  }
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  const double z = 1 / (x * x);
  // B₂ₖ/(2k) for k = 1..7: 1/12, −1/120, 1/252, −1/240, 1/132, −691/32760, 1/12.
  const double series =
      z * (1.0 / 12 - z * (1.0 / 120 -
                           z * (1.0 / 252 -
                                z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return result + libm::log(x) - 0.5 / x - series;
}

// Hurwitz ζ(x, q) = Σₖ (q + k)^−x by the Euler–Maclaurin formula: N terms summed, then
// a^(1−x)/(x − 1) + a^−x/2 + Σⱼ B₂ⱼ/(2j)!·x(x+1)…(x+2j−2)·a^(−x−2j+1) with a = q + N.
double zeta(double x, double q) {
  if (std::isnan(x) || std::isnan(q)) return kNaN;
  if (x == 1) return kInf;
  if (x < 1) return kNaN;
  const bool x_int = x == std::floor(x);
  if (q <= 0) {
    if (q == std::floor(q)) return x_int && std::fmod(x, 2) == 0 ? kInf : kNaN;  // a pole
    if (!x_int) return kNaN;
  }
  static constexpr double kB2jOverFactorial[] = {
      8.3333333333333333333e-2,  -1.3888888888888888889e-3,  3.3068783068783068783e-5,
      -8.2671957671957671958e-7, 2.0876756987868098979e-8,   -5.2841901386874931848e-10,
      1.3382536530684678833e-11, -3.3896802963225828668e-13, 8.5860620562778445641e-15,
      -2.174868698558061873e-16, 5.5090028283602295152e-18,  -1.3954464685812523341e-19,
  };
  // Sum terms until a = q + N is at least 10 (and at least 10 terms). A negative q needs |q| + 10
  // terms to leave the negative axis, where the expansion does not hold: past 10^5 the result is
  // NaN rather than a guess.
  double n = 10;
  if (q < 0) {
    n = std::ceil(10 - q);
    if (n > 1e5) return kNaN;
  }
  double sum = 0;
  double a = q;
  for (double k = 0; k < n; ++k, a = q + k) sum += libm::pow(a, -x);
  a = q + n;
  const double a_neg_x = libm::pow(a, -x);
  if (std::fabs(a_neg_x) < std::fabs(sum) * 0x1p-60) return sum;
  double tail = a_neg_x * a / (x - 1) + 0.5 * a_neg_x;
  double factor = x * a_neg_x / a;  // x(x+1)…(x+2j−2)·a^(−x−2j+1), j = 1
  const double inv_a2 = 1 / (a * a);
  for (int j = 0; j < 12; ++j) {
    const double term = kB2jOverFactorial[j] * factor;
    tail += term;
    if (std::fabs(term) < std::fabs(sum + tail) * 0x1p-60) break;
    factor *= (x + 2 * j + 1) * (x + 2 * j + 2) * inv_a2;
  }
  return sum + tail;
}

// ψ⁽ⁿ⁾(x) = (−1)ⁿ⁺¹·n!·ζ(n + 1, x) for natural n ≥ 1; ψ⁽⁰⁾ = ψ.
double polygamma(double n, double x) {
  if (std::isnan(n) || std::isnan(x)) return kNaN;
  if (n < 0 || n != std::floor(n)) return kNaN;
  if (n == 0) return digamma(x);
  const double sign = std::fmod(n, 2) == 0 ? -1 : 1;
  return sign * libm::exp(libm::lgamma(n + 1)) * zeta(n + 1, x);
}

// exp(−|x|)·I1(x): on [0, 8] the power series I1(x) = Σ (x/2)^(2k+1)/(k!(k+1)!) (positive terms:
// nothing cancels) times e^−|x|; above 8 Cephes' Chebyshev expansion (i1e.c) in 32/x − 2
// divided by √x.
double bessel_i1e(double x) {
  static constexpr double kB[] = {
      7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
      -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
      -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
      4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
      -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
      3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
      -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
      -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
      7.78576235018280120474E-1};
  if (std::isnan(x)) return x;
  const double z = std::fabs(x);
  double r;
  if (z <= 8) {
    const double h = 0.5 * z, h2 = h * h;
    double term = h, sum = h;
    for (int k = 1; k < 60 && term > sum * 1e-18; ++k) {
      term *= h2 / (k * (k + 1.0));
      sum += term;
    }
    r = sum * libm::exp(-z);
  } else {
    r = chebyshev(32 / z - 2, kB) / std::sqrt(z);
  }
  return std::copysign(r, x);  // odd; keeps −0
}

namespace {

float exp_in(float x) { return static_cast<float>(libm::exp(static_cast<double>(x))); }
double exp_in(double x) { return libm::exp(x); }
float expm1_in(float x) { return static_cast<float>(libm::expm1(static_cast<double>(x))); }
double expm1_in(double x) { return libm::expm1(x); }

template <class T>
T sinh_decomposed(T x) {
  if (std::fabs(x) < 1) {
    const T e = expm1_in(x);
    return T(0.5) * (e + e / (e + T(1)));
  }
  const T log_half = static_cast<T>(-kLn2);
  return exp_in(x + log_half) - exp_in(log_half - x);
}

template <class T>
T cosh_decomposed(T x) {
  const T log_half = static_cast<T>(-kLn2);
  return exp_in(x + log_half) + exp_in(log_half - x);
}

}  // namespace

float chlo_sinh(float x) { return sinh_decomposed(x); }
double chlo_sinh(double x) { return sinh_decomposed(x); }
float chlo_cosh(float x) { return cosh_decomposed(x); }
double chlo_cosh(double x) { return cosh_decomposed(x); }

// ---- complex functions -------------------------------------------------------------------------

Complex exp(Complex z) {
  const double x = z.real(), y = z.imag();
  if (y == 0) return {libm::exp(x), y};
  if (x > 700) {  // e^x overflows before e^x·cos y does: split it in two halves
    const double h = libm::exp(0.5 * x);
    return {h * (h * libm::cos(y)), h * (h * libm::sin(y))};
  }
  const double e = libm::exp(x);
  return {e * libm::cos(y), e * libm::sin(y)};
}

// e^z − 1: the real part e^x·cos y − 1 = expm1(x)·cos y − 2·sin²(y/2) keeps its small values.
Complex expm1(Complex z) {
  const double x = z.real(), y = z.imag();
  if (y == 0) return {libm::expm1(x), y};
  const double s = libm::sin(0.5 * y);
  if (x > 700) return exp(z) - Complex(1, 0);
  return {libm::expm1(x) * libm::cos(y) - 2 * s * s, libm::exp(x) * libm::sin(y)};
}

Complex log(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x) || std::isinf(y)) return {kInf, kNaN};
    return {kNaN, kNaN};
  }
  return {log_hypot(std::fabs(x), std::fabs(y)), libm::atan2(y, x)};
}

// log(1 + z): with w = 1 + x kept exactly as a pair, |1 + z|² − 1 = w² + y² − 1 is summed exactly
// when |1 + z| is near 1, where log1p of it keeps the small real part.
Complex log1p(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isnan(x) || std::isnan(y)) return {kNaN, kNaN};
  const DD w = two_sum(1.0, x);
  const double im = libm::atan2(y, w.hi);
  const double aw = std::fabs(w.hi), ay = std::fabs(y);
  const double m2 = aw * aw + ay * ay;
  if (m2 > 0.25 && m2 < 4) {
    DD s = dd_add(two_prod(w.hi, w.hi), DD{-1.0, 0.0});
    s = dd_add(s, two_prod(y, y));
    s = dd_add(s, DD{2 * w.hi * w.lo, 0.0});
    return {0.5 * libm::log1p(s.hi + s.lo), im};
  }
  return {log_hypot(aw, ay), im};
}

// logistic z = (1 + tanh(z/2))/2, exact as an identity and free of the pole-side cancellation of
// 1/(1 + e^−z); far left, where 1 + tanh cancels, e^z/(1 + e^z) instead.
Complex logistic(Complex z) {
  if (z.real() >= -1) {
    const Complex t = tanh(0.5 * z);
    return {0.5 + 0.5 * t.real(), 0.5 * t.imag()};
  }
  const Complex e = exp(z);
  return divide(e, Complex(1 + e.real(), e.imag()));
}

// Kahan's square root: t = √((|x| + |z|)/2), then (t, y/2t) for x ≥ 0, (|y|/2t, ±t) for x < 0.
Complex sqrt(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isinf(y)) return {kInf, y};
  if (std::isnan(x)) return {x, std::isnan(y) ? y : kNaN};
  if (std::isinf(x)) {
    if (x > 0) return {x, std::isnan(y) ? y : std::copysign(0.0, y)};
    return {std::isnan(y) ? y : 0.0, std::copysign(kInf, y)};
  }
  if (std::isnan(y)) return {kNaN, y};
  if (x == 0 && y == 0) return {0.0, y};
  double ax = std::fabs(x), ay = std::fabs(y);
  double scale = 1;
  if (ax > 1e300 || ay > 1e300) {
    ax *= 0.25, ay *= 0.25, scale = 2;
  } else if (ax < 1e-300 && ay < 1e-300) {
    ax *= 0x1p600, ay *= 0x1p600, scale = 0x1p-300;
  }
  const double t = std::sqrt(0.5 * (ax + libm::hypot(ax, ay)));
  const double u = 0.5 * ay / t;
  if (x >= 0) return {scale * t, std::copysign(scale * u, y)};
  return {scale * u, std::copysign(scale * t, y)};
}

// 1/√z = conj(√z)/|z|, as √z·conj(√z) = |z|.
Complex rsqrt(Complex z) {
  const Complex s = sqrt(z);
  const double x = z.real(), y = z.imag();
  if (x == 0 && y == 0) return {kInf, kNaN};  // 1/0 in the complex plane: C99's infinity
  const double ax = std::fabs(x), ay = std::fabs(y);
  if (ax > 1e300 || ay > 1e300) {
    const double m = libm::hypot(0.25 * ax, 0.25 * ay);
    return {s.real() / m * 0.25, -s.imag() / m * 0.25};
  }
  const double m = libm::hypot(ax, ay);
  return {s.real() / m, -s.imag() / m};
}

// The principal cube root: |z|^(1/3)·e^(i·arg(z)/3).
Complex cbrt(Complex z) {
  const double r = libm::cbrt(libm::hypot(z.real(), z.imag()));
  const double t = libm::atan2(z.imag(), z.real()) / 3;
  return {r * libm::cos(t), r * libm::sin(t)};
}

Complex sinh(Complex z) {
  const double x = z.real(), y = z.imag();
  if (y == 0) return {libm::sinh(x), y};
  return {libm::sinh(x) * libm::cos(y), libm::cosh(x) * libm::sin(y)};
}

Complex cosh(Complex z) {
  const double x = z.real(), y = z.imag();
  if (y == 0) return {libm::cosh(x), x == 0 ? y * x : std::copysign(0.0, x) * y};
  return {libm::cosh(x) * libm::cos(y), libm::sinh(x) * libm::sin(y)};
}

// tanh(x + iy) with T = tanh x and D = cos²y + T²·sin²y (a sum of positive terms in [T², 1]):
//   Re = T + T·(sin²y / cosh²x) / D,   Im = (sin y·cos y / cosh²x) / D
// (from (T + i·tan y)/(1 + i·T·tan y), using 1 − T² = 1/cosh²x so that nothing cancels). Past
// |x| = 354, cosh²x overflows: the real part is ±1 and the imaginary part 4·sin y·cos y·e^(−2|x|).
Complex tanh(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isnan(x)) return {x, y == 0 ? y : kNaN};
  if (std::isinf(x))
    return {std::copysign(1.0, x), std::isfinite(y)
                                       ? std::copysign(0.0, libm::sin(y) * libm::cos(y))
                                       : std::copysign(0.0, y)};
  if (y == 0) return {libm::tanh(x), y};
  const double sy = libm::sin(y), cy = libm::cos(y);
  const double ax = std::fabs(x);
  if (ax > 354) {
    double im = 4 * sy * cy;
    im *= libm::exp(-354.0 * 2);
    im *= libm::exp(-2 * (ax - 354));
    return {std::copysign(1.0, x), im};
  }
  const double t = libm::tanh(x), c = libm::cosh(x);
  const double c2 = c * c;
  const double d = cy * cy + (t * t) * (sy * sy);
  return {t + t * ((sy * sy / c2) / d), (sy * cy / c2) / d};
}

Complex sin(Complex z) {
  const double x = z.real(), y = z.imag();
  if (y == 0) return {libm::sin(x), y * libm::cos(x)};
  if (x == 0) return {x, libm::sinh(y)};  // sin(0) is exact: no 0·inf
  return {libm::sin(x) * libm::cosh(y), libm::cos(x) * libm::sinh(y)};
}

Complex cos(Complex z) {
  const double x = z.real(), y = z.imag();
  if (y == 0) return {libm::cos(x), -libm::sin(x) * y};
  if (x == 0) return {libm::cosh(y), -x * std::copysign(1.0, y)};
  return {libm::cos(x) * libm::cosh(y), -libm::sin(x) * libm::sinh(y)};
}

// tan z = −i·tanh(iz).
Complex tan(Complex z) {
  const Complex t = tanh(Complex(-z.imag(), z.real()));
  return {t.imag(), -t.real()};
}

namespace {

// Hull, Fairgrieve and Tang's algorithm for asin and acos ("Implementing the complex arcsine and
// arccosine functions using exception handling", ACM TOMS 23(3), 1997), on x = |Re z| and
// y = |Im z|. Gives, for the first quadrant, the real part of asin (or acos) and the imaginary
// part of asin (= −imaginary part of acos).
struct ArcParts {
  double asin_re, acos_re, im;
};

ArcParts arc_parts(double x, double y) {
  constexpr double kBCross = 0.6417, kACross = 1.5;
  ArcParts out{};
  if (x > 1e150 || y > 1e150) {
    // |z| huge: asin z ≈ −i·log(2iz): real part arg, imaginary part log|z| + log 2.
    out.asin_re = libm::atan2(x, y);
    out.acos_re = libm::atan2(y, x);
    out.im = log_hypot(x, y) + kLn2;
    return out;
  }
  const double r = libm::hypot(x + 1, y), s = libm::hypot(x - 1, y);
  const double a = 0.5 * (r + s);  // ≥ 1
  const double b = x / a;          // ≤ 1
  const double y2 = y * y;
  const double xp1 = x + 1;
  if (b <= kBCross) {
    out.asin_re = libm::asin(b);
    out.acos_re = libm::acos(b);
  } else if (x <= 1) {
    const double d = 0.5 * (a + x) * (y2 / (r + xp1) + (s + (1 - x)));
    out.asin_re = libm::atan(x / std::sqrt(d));
    out.acos_re = libm::atan(std::sqrt(d) / x);
  } else {
    const double apx = a + x;
    const double d = 0.5 * (apx / (r + xp1) + apx / (s + (x - 1)));
    out.asin_re = libm::atan(x / (y * std::sqrt(d)));
    out.acos_re = libm::atan(y * std::sqrt(d) / x);
  }
  if (x < 1 && y < 1e-150) {
    // y² underflows: Im asin z = y/√(1 − x²) to first order (and exactly enough here).
    out.im = y / std::sqrt((1 - x) * xp1);
  } else if (a <= kACross) {
    double am1;
    if (x < 1)
      am1 = 0.5 * (y2 / (r + xp1) + y2 / (s + (1 - x)));
    else
      am1 = 0.5 * (y2 / (r + xp1) + (s + (x - 1)));
    out.im = libm::log1p(am1 + std::sqrt(am1 * (a + 1)));
  } else {
    out.im = libm::log(a + std::sqrt(a * a - 1));
  }
  return out;
}

}  // namespace

Complex asin(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x) || std::isinf(y)) return {kNaN, std::copysign(kInf, y)};
    if (x == 0) return {x, kNaN};
    return {kNaN, kNaN};
  }
  const ArcParts p = arc_parts(std::fabs(x), std::fabs(y));
  return {std::copysign(p.asin_re, x), std::copysign(p.im, y)};
}

Complex acos(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x) || std::isinf(y)) return {kNaN, std::isinf(y) ? -y : kInf};
    if (x == 0) return {kPi / 2, kNaN};
    return {kNaN, kNaN};
  }
  const ArcParts p = arc_parts(std::fabs(x), std::fabs(y));
  return {x < 0 ? kPi - p.acos_re : p.acos_re, -std::copysign(p.im, y)};
}

// asinh z = −i·asin(iz).
Complex asinh(Complex z) {
  const Complex a = asin(Complex(-z.imag(), z.real()));
  return {a.imag(), -a.real()};
}

// acosh z = ±i·acos z, the sign chosen so that the real part is ≥ 0 and the imaginary part has
// the sign of Im z.
Complex acosh(Complex z) {
  const Complex a = acos(z);
  if (std::isnan(a.real()) || std::isnan(a.imag())) {
    if (std::isinf(a.imag())) return {kInf, a.real()};
    return {std::fabs(a.imag()), a.real()};
  }
  return {std::fabs(a.imag()), std::copysign(a.real(), z.imag())};
}

// atanh z = ¼·log1p(4x / ((1 − x)² + y²)) + ½·i·atan2(2y, (1 − x)(1 + x) − y²), the denominator of
// the imaginary part, 1 − x² − y², summed exactly.
Complex atanh(Complex z) {
  const double x = z.real(), y = z.imag();
  if (std::isnan(x) || std::isnan(y)) {
    if (std::isinf(x) || std::isinf(y)) return {std::copysign(0.0, x), std::copysign(kPi / 2, y)};
    if (x == 0) return {x, kNaN};
    return {kNaN, kNaN};
  }
  const double ax = std::fabs(x), ay = std::fabs(y);
  if (ax > 1e150 || ay > 1e150) {
    // |z| huge: atanh z ≈ 1/z + i·(±π/2).
    const double re = ax > ay ? 1 / (x + y * (y / x)) : (x / y) / (x * (x / y) + y);
    return {re, std::copysign(kPi / 2, y)};
  }
  if (ax == 1 && ay == 0) return {std::copysign(kInf, x), y};
  const double xm1 = 1 - ax;
  const double den = xm1 * xm1 + ay * ay;
  const double re = 0.25 * libm::log1p(4 * ax / den);
  const double im = 0.5 * libm::atan2(2 * y, one_minus_sum_squares(ax, ay));
  return {std::copysign(re, x), im};
}

// atan z = −i·atanh(iz).
Complex atan(Complex z) {
  const Complex a = atanh(Complex(-z.imag(), z.real()));
  return {a.imag(), -a.real()};
}

// ---- complex binary functions, as XLA's elemental IR emitter computes them --------------------

// (a + bi)^(c + di) = (a² + b²)^(c/2)·e^(−d·θ)·(cos q + i·sin q), θ = atan2(b, a),
// q = c·θ + (d/2)·log(a² + b²) (EmitComplexPower); a zero base with a real exponent c ≥ 0 gives
// 1 for c = 0 and 0 otherwise. a² + b² keeps its first product exact, as XLA's CPU backend
// contracts it (see multiply in math_functions.h).
Complex pow(Complex x, Complex y) {
  const double a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  const double aa_bb = libm::fma(a, a, b * b);
  if (aa_bb == 0 && d == 0 && c >= 0) return {c == 0 ? 1.0 : 0.0, 0.0};
  const double theta = libm::atan2(b, a);
  const double coeff = libm::pow(aa_bb, 0.5 * c) * libm::exp(-d * theta);
  const double q = c * theta + 0.5 * d * libm::log(aa_bb);
  return {coeff * libm::cos(q), coeff * libm::sin(q)};
}

// atan2(y, x) = −i·log((x + i·y) / √(x² + y²)) (the spec's definition; XLA's EmitComplexBinaryOp
// computes it so), with this file's multiply, divide, sqrt and log.
Complex atan2(Complex y, Complex x) {
  const Complex x2 = multiply(x, x), y2 = multiply(y, y);
  const Complex r = sqrt(Complex(x2.real() + y2.real(), x2.imag() + y2.imag()));
  const Complex l = log(divide(Complex(x.real() - y.imag(), x.imag() + y.real()), r));
  return {l.imag(), -l.real()};
}

}  // namespace rl::interp::math
