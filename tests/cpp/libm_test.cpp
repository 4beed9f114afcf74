// common/libm.h: musl's transcendental functions, compiled into both builds, give the same bits
// natively and in wasm. Each pinned value below is one where glibc's libm (what std::sin and the
// others call natively) gives another last bit, found by comparing the two over random inputs;
// the hashes pin 4096 results per function, so the wasm build of this test checks that its
// results are the native ones, bit for bit. Then the complex functions built over them
// (interp/math_functions.h) at their special values: signed zeros, infinities, NaN parts.
#include "common/libm.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "catch.hpp"
#include "common/float16.h"
#include "interp/math_functions.h"

namespace libm = rl::libm;
namespace m = rl::interp::math;

namespace {

using C = std::complex<double>;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.141592653589793;

std::uint64_t bits(double x) {
  std::uint64_t u = 0;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// The same bits, NaN payloads and the sign of zero included.
bool same(double a, double b) { return bits(a) == bits(b); }
bool same(C a, C b) { return same(a.real(), b.real()) && same(a.imag(), b.imag()); }

// FNV-1a over the bits of f(x) for 4096 inputs spread over [lo, hi) by a fixed xorshift.
template <class F>
std::uint64_t hash_of(F f, double lo, double hi) {
  std::uint64_t s = 88172645463325252ull, h = 14695981039346656037ull;
  for (int i = 0; i < 4096; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    const double x = lo + (hi - lo) * (static_cast<double>(s >> 11) * 0x1p-53);
    const std::uint64_t b = bits(f(x));
    for (int k = 0; k < 8; ++k) h = (h ^ ((b >> (8 * k)) & 0xff)) * 1099511628211ull;
  }
  return h;
}

}  // namespace

TEST_CASE("libm gives musl's last bit where glibc's differs", "[interp][libm]") {
  struct Case {
    const char* name;
    double (*f)(double);
    double x, musl;  // glibc's result is one or two ulps away
  };
  const Case cases[] = {
      {"sin", libm::sin, 0x1.f2940e9f3f7c8p+1, -0x1.5e53b78332728p-1},
      {"cos", libm::cos, 0x1.42ca768a0af4p+1, -0x1.a0c4befde2581p-1},
      {"tan", libm::tan, -0x1.721219e255918p+2, 0x1.18425e10562d4p-1},
      {"exp", libm::exp, -0x1.4811fbb15099p+2, 0x1.854388e9a686ep-8},
      {"log", libm::log, 0x1.f38ee7ec7e984p-1, -0x1.930dd38a45037p-6},
      {"tanh", libm::tanh, -0x1.af3f0ef9fe564p-1, -0x1.5fc043eb75188p-1},
      {"erf", libm::erf, -0x1.716bffe0575fp-2, -0x1.8f72cafd17a2ep-2},
      {"erfc", libm::erfc, 0x1.26bd4661c336cp+0, 0x1.a7d8bdad0c38ap-4},
      {"lgamma", libm::lgamma, 0x1.034d5b8026f19p+4, 0x1.c776272340e5p+4},
      {"asin", libm::asin, -0x1.e2a252a17ff7cp-1, -0x1.3affdced45988p+0},
      {"expm1", libm::expm1, -0x1.882d7ba2c5d4p-5, -0x1.7ef03361ad0d6p-5},
      {"log1p", libm::log1p, 0x1.b8f22958eec9ap-2, 0x1.6eb23e199a035p-2},
      {"cbrt", libm::cbrt, -0x1.b84f8aab58b03p+5, -0x1.e6e478d583937p+1},
      {"sinh", libm::sinh, -0x1.1db49b1d0b694p+0, -0x1.5cd1f27460086p+0},
      {"acosh", libm::acosh, 0x1.714f2f16d580dp+0, 0x1.d1859c12c6297p-1},
      {"atanh", libm::atanh, 0x1.75c9851461e8p-3, 0x1.7a05c839f3f3cp-3},
      {"asinh", libm::asinh, 0x1.3e914cccb61ep-1, 0x1.2cf02820c2591p-1},
  };
  for (const Case& c : cases) {
    INFO(c.name << "(" << c.x << ")");
    CHECK(bits(c.f(c.x)) == bits(c.musl));
  }
  CHECK(bits(libm::pow(0x1.196804659ecbdp+2, -0x1.5bf27a7778c48p+0)) == bits(0x1.11a328b863bp-3));
  CHECK(bits(libm::atan2(0x1.e26cd1dd08284p+2, -0x1.cf7e41b7f706p-3)) ==
        bits(0x1.99cebf4689d5bp+0));
  CHECK(bits(libm::hypot(0x1.0f21957788fap+0, 0x1.43c37c19a0e66p+1)) == bits(0x1.5efff74d33c4p+1));
}

TEST_CASE("libm's results hash the same natively and in wasm", "[interp][libm]") {
  struct Case {
    const char* name;
    std::uint64_t hash;
    double (*f)(double);
    double lo, hi;
  };
  // The arguments of sin, cos and tan reach 1e6, past the reduction's fast path (|x| < 2^20·π/2).
  const Case cases[] = {
      {"sin", 0x292e775f9bcedb58ull, libm::sin, -1e6, 1e6},
      {"cos", 0x825220d219791fd4ull, libm::cos, -1e6, 1e6},
      {"tan", 0xc0224d7c27b260bcull, libm::tan, -1e6, 1e6},
      {"asin", 0xac71b196f5b7f0f1ull, libm::asin, -1, 1},
      {"acos", 0xdffbfbc58d52c919ull, libm::acos, -1, 1},
      {"atan", 0xd2432df60ac29638ull, libm::atan, -20, 20},
      {"sinh", 0x7f0e14353b407c97ull, libm::sinh, -30, 30},
      {"cosh", 0x6e6eb0f53bf871d6ull, libm::cosh, -30, 30},
      {"tanh", 0xd08b0ab42da89728ull, libm::tanh, -5, 5},
      {"asinh", 0xfd42539ffe0d17b4ull, libm::asinh, -50, 50},
      {"acosh", 0xe98a00e622315dbcull, libm::acosh, 1, 50},
      {"atanh", 0x86c2c9d803b85c82ull, libm::atanh, -1, 1},
      {"exp", 0xedecf7b68cdf7845ull, libm::exp, -700, 700},
      {"expm1", 0xe6ad766fd7864a2bull, libm::expm1, -3, 3},
      {"log", 0x24285f6116b0e66aull, libm::log, 0, 1e3},
      {"log1p", 0x8b2b878e889783aull, libm::log1p, -1, 10},
      {"cbrt", 0x1aa821e70e97a055ull, libm::cbrt, -1e3, 1e3},
      {"erf", 0x86611ac93b936abcull, libm::erf, -4, 4},
      {"erfc", 0x6f80822c4f702958ull, libm::erfc, -4, 10},
      {"lgamma", 0xc4bf954661c69147ull, libm::lgamma, -20, 50},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(hash_of(c.f, c.lo, c.hi) == c.hash);
  }
  INFO("pow, atan2, hypot");
  CHECK(hash_of([](double x) { return libm::pow(x * x, 1 / x); }, -20, 20) ==
        0x403d5a8ffd175621ull);
  CHECK(hash_of([](double x) { return libm::atan2(x, 1 - x * x); }, -3, 3) ==
        0x748e6edca2df362eull);
  CHECK(hash_of([](double x) { return libm::hypot(x, 7 - x); }, -10, 10) == 0x271200d332b09bf4ull);
}

TEST_CASE("libm keeps C's special values", "[interp][libm]") {
  CHECK(same(libm::sin(-0.0), -0.0));
  CHECK(std::isnan(libm::sin(kInf)));
  CHECK(same(libm::exp(-kInf), 0.0));
  CHECK(same(libm::exp(kInf), kInf));
  CHECK(same(libm::log(0.0), -kInf));
  CHECK(std::isnan(libm::log(-1.0)));
  CHECK(same(libm::pow(0.0, 0.0), 1.0));
  CHECK(same(libm::pow(-0.0, -1.0), -kInf));
  CHECK(same(libm::atan2(0.0, -0.0), kPi));
  CHECK(same(libm::atan2(-0.0, -0.0), -kPi));
  CHECK(same(libm::hypot(kInf, kNaN), kInf));
  CHECK(same(libm::lgamma(1.0), 0.0));
  CHECK(same(libm::erfc(30.0), 0.0));
  CHECK(same(libm::tanh(-kInf), -1.0));
}

TEST_CASE("complex functions give documented values at zeros, infinities and NaN parts",
          "[interp][libm]") {
  // exp: a real argument stays real, its zero imaginary part's sign kept.
  CHECK(same(m::exp(C(0.0, 0.0)), C(1, 0.0)));
  CHECK(same(m::exp(C(-0.0, -0.0)), C(1, -0.0)));
  CHECK(same(m::exp(C(-kInf, 0.0)), C(0, 0.0)));
  // log: log|z| + i·arg z; a NaN part with an infinite one is +inf + i·NaN (C99).
  CHECK(same(m::log(C(0.0, 0.0)), C(-kInf, 0.0)));
  CHECK(same(m::log(C(-0.0, 0.0)), C(-kInf, kPi)));
  CHECK(same(m::log(C(-0.0, -0.0)), C(-kInf, -kPi)));
  CHECK(same(m::log(C(kInf, kNaN)).real(), kInf));
  CHECK(std::isnan(m::log(C(kInf, kNaN)).imag()));
  CHECK(std::isnan(m::log(C(1, kNaN)).real()));
  // sqrt: Kahan's special values.
  CHECK(same(m::sqrt(C(0.0, -0.0)), C(0.0, -0.0)));
  CHECK(same(m::sqrt(C(-kInf, 1)), C(0.0, kInf)));
  CHECK(same(m::sqrt(C(-kInf, -1)), C(0.0, -kInf)));
  CHECK(same(m::sqrt(C(kInf, -1)), C(kInf, -0.0)));
  CHECK(same(m::sqrt(C(kNaN, kInf)).real(), kInf));
  CHECK(same(m::sqrt(C(-4, 0.0)), C(0, 2)));
  // tanh: ±1 at ±inf real part, the imaginary part a zero with the sign of sin y·cos y.
  CHECK(same(m::tanh(C(kInf, 1)), C(1, 0.0)));
  CHECK(same(m::tanh(C(-kInf, -1)), C(-1, -0.0)));
  CHECK(same(m::tanh(C(-kInf, 2)), C(-1, -0.0)));  // sin 2·cos 2 < 0
  CHECK(same(m::tanh(C(kNaN, 0.0)).imag(), 0.0));
  CHECK(same(m::tanh(C(-0.0, 0.0)), C(-0.0, 0.0)));
  // sin, cos, sinh on the axes: no 0·inf.
  CHECK(same(m::sin(C(0.0, kInf)), C(0.0, kInf)));
  CHECK(same(m::sin(C(-0.0, 0.0)), C(-0.0, 0.0)));
  CHECK(same(m::cos(C(0.0, kInf)), C(kInf, -0.0)));
  CHECK(same(m::sinh(C(-0.0, 0.0)), C(-0.0, 0.0)));
  // asin, acos, atanh: C99's values with NaN parts.
  CHECK(same(m::asin(C(kNaN, kInf)).imag(), kInf));
  CHECK(same(m::acos(C(0.0, kNaN)).real(), kPi / 2));
  CHECK(same(m::atanh(C(-1, 0.0)), C(-kInf, 0.0)));
  CHECK(same(m::atanh(C(kInf, kNaN)).real(), 0.0));
  // logistic: 1/2 at 0; far left e^z/(1 + e^z), through divide.
  CHECK(same(m::logistic(C(0, 0)), C(0.5, 0)));
  CHECK(same(m::logistic(C(-800, 0)), C(0, 0)));
}

TEST_CASE("complex power and atan2 follow XLA's formulas", "[interp][libm]") {
  // (a + bi)^(c + di) = |z|^c·e^(−dθ)·(cos q + i sin q): a zero base to a real power c ≥ 0 is 1
  // for c = 0 and 0 above; to a negative one the formula's e^... ·(cos NaN) gives NaN, as XLA's.
  CHECK(same(m::pow(C(0, 0), C(0, 0)), C(1, 0)));
  CHECK(same(m::pow(C(0, 0), C(2.5, 0)), C(0, 0)));
  CHECK(std::isnan(m::pow(C(0, 0), C(-1, 0)).real()));
  const C i2 = m::pow(C(0, 1), C(2, 0));  // i² = −1 to within the rounding of cos π, sin π
  CHECK(i2.real() == -1);
  CHECK(std::fabs(i2.imag()) < 1e-15);
  const C ii = m::pow(C(0, 1), C(0, 1));  // i^i = e^(−π/2)
  CHECK(std::fabs(ii.real() - 0.20787957635076193) < 1e-16);
  CHECK(ii.imag() == 0);
  // atan2(y, x) = −i·log((x + iy)/√(x² + y²)): real operands give the real atan2.
  const C a = m::atan2(C(1, 0), C(1, 0));
  CHECK(std::fabs(a.real() - kPi / 4) < 1e-15);
  CHECK(std::fabs(a.imag()) < 1e-15);
  const C b = m::atan2(C(1, 0), C(-1, 0));
  CHECK(std::fabs(b.real() - 3 * kPi / 4) < 1e-15);
}

TEST_CASE("libm::fma is std::fma with the NaN of a NaN operand fixed", "[interp][libm]") {
  // The first NaN of a, b, c made quiet in both builds (Emscripten's fma kept a signalling c and
  // gave the default NaN for 0·inf + NaN; the native build's instruction gave c quieted).
  const double snan = rl::double_from_bits(0x7FF4000000012345ull),
               qnan = rl::double_from_bits(0xFFF8000000001234ull);
  CHECK(bits(rl::libm::fma(1.5, -2.0, snan)) == 0x7FFC000000012345ull);
  CHECK(bits(rl::libm::fma(0.0, std::numeric_limits<double>::infinity(), qnan)) ==
        0xFFF8000000001234ull);
  CHECK(bits(rl::libm::fma(qnan, snan, 1.0)) == 0xFFF8000000001234ull);
  CHECK(rl::libm::fma(1.5, -2.0, 0.25) == -2.75);
  CHECK(rl::libm::fma(0x1.0000001p0f, 0x1.0000001p0f, -1.0f) ==
        std::fma(0x1.0000001p0f, 0x1.0000001p0f, -1.0f));
}
