// The f64 fft's accuracy: FFT, IFFT, RFFT and IRFFT at every length 1..64 and at larger ones
// (powers of two and three, mixed, and primes above 64, which run Bluestein's algorithm), run
// through the interpreter on deterministic inputs and compared with a direct DFT computed here
// in double-double arithmetic (about 106 bits).
//
// The rule, per transform: max |result − reference| over every real and imaginary part, in ulps
// of the transform's scale (the largest |part| of the reference), must be at most 3. Why the
// scale and not each element: an FFT's error is normwise — every output is a sum over all
// inputs, and an output far smaller than the rest is a cancellation whose absolute error is
// that of the large ones. The 3 is upstream's tolerance for float results (check.expect_close);
// a plain double FFT reaches it at about a thousand points (13 ulps were seen on XLA's results),
// this one computes in double-double and rounds once. So the test also asserts the stronger
// property that double-double buys: every part at least 2^−30 of the scale is correctly rounded
// — within ½ ulp of its own value, 0.51 allowing for near-ties and the reference's own 2^−100.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::as_complex;
using rl::testing::as_doubles;
using rl::testing::main_of;
using rl::testing::run_text;

namespace {

// ---- the reference: a direct DFT in double-double ---------------------------------------------
// Written independently of the interpreter's: twiddles by halving the angle four times, a Taylor
// series there, and four double-angle steps back (the interpreter reduces by octants instead).

struct DD {
  double hi = 0, lo = 0;
};
DD add(DD a, DD b) {
  const double s = a.hi + b.hi, v = s - a.hi;
  const double e = (a.hi - (s - v)) + (b.hi - v) + a.lo + b.lo;
  const double h = s + e;
  return {h, e - (h - s)};
}
DD neg(DD a) { return {-a.hi, -a.lo}; }
DD mul(DD a, DD b) {
  const double p = a.hi * b.hi;
  const double e = std::fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi);
  const double h = p + e;
  return {h, e - (h - p)};
}
DD div(DD a, double b) {
  const double q = a.hi / b;
  const DD r = add(a, neg(mul(DD{q, 0}, DD{b, 0})));
  const double q2 = r.hi / b, h = q + q2;
  return {h, q2 - (h - q)};
}

struct Z {
  DD re, im;
};
Z zadd(Z a, Z b) { return {add(a.re, b.re), add(a.im, b.im)}; }
Z zmul(Z a, Z b) {
  return {add(mul(a.re, b.re), neg(mul(a.im, b.im))), add(mul(a.re, b.im), mul(a.im, b.re))};
}

// exp(sign·2πi·j/n).
Z reference_twiddle(std::int64_t j, std::int64_t n, int sign) {
  const DD two_pi{6.283185307179586232, 2.4492935982947064e-16};
  const DD x = div(div(mul(two_pi, DD{static_cast<double>(j % n), 0}), static_cast<double>(n)),
                   16.0);  // ≤ π/8
  const DD x2 = mul(x, x);
  DD s{1, 0}, c{1, 0};
  for (int k = 20; k >= 1; --k) {
    s = add(DD{1, 0}, neg(div(mul(x2, s), static_cast<double>((2 * k) * (2 * k + 1)))));
    c = add(DD{1, 0}, neg(div(mul(x2, c), static_cast<double>((2 * k - 1) * (2 * k)))));
  }
  s = mul(x, s);
  for (int i = 0; i < 4; ++i) {  // (c, s) of 2x
    const DD c2 = add(mul(c, c), neg(mul(s, s))), s2 = mul(DD{2, 0}, mul(s, c));
    c = c2, s = s2;
  }
  return {c, sign < 0 ? neg(s) : s};
}

// X[k] = Σ_t x[t]·exp(∓2πi·kt/n), divided by n for the inverse.
std::vector<Z> reference_dft(const std::vector<Z>& x, bool inverse) {
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  std::vector<Z> w(n), out(n);
  for (std::int64_t j = 0; j < n; ++j) w[j] = reference_twiddle(j, n, inverse ? 1 : -1);
  for (std::int64_t k = 0; k < n; ++k) {
    Z sum{};
    for (std::int64_t t = 0; t < n; ++t) sum = zadd(sum, zmul(x[t], w[(k * t) % n]));
    if (inverse) sum = {div(sum.re, static_cast<double>(n)), div(sum.im, static_cast<double>(n))};
    out[k] = sum;
  }
  return out;
}

// ---- inputs and the op --------------------------------------------------------------------------

// Deterministic doubles in (−1, 1) with full 53-bit significands (splitmix64).
struct Inputs {
  std::uint64_t state;
  double next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1p-52 - 1.0;
  }
};

std::string hex_constant(const std::vector<double>& v) {
  static const char* digits = "0123456789ABCDEF";
  std::string s = "\"0x";
  for (double d : v) {
    unsigned char b[8];
    std::memcpy(b, &d, 8);  // little-endian bytes, as the dense hex form stores them
    for (unsigned char x : b) s += digits[x >> 4], s += digits[x & 15];
  }
  return s + "\"";
}

// FNV-1a over the bits of every result, printed with the table: native and wasm must print the
// same hash (the transforms use only IEEE-exact +, −, ×, ÷ and fma).
std::uint64_t result_hash = 0xcbf29ce484222325ull;
void hash_bits(const std::vector<double>& v) {
  for (double d : v) {
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    for (int i = 0; i < 8; ++i)
      result_hash = (result_hash ^ ((b >> (8 * i)) & 0xff)) * 0x100000001b3ull;
  }
}

// Runs one fft on a constant operand (flattened re, im pairs for complex) and returns the result
// flattened the same way.
std::vector<double> run_fft(const std::string& kind, const std::vector<double>& operand,
                            bool complex_in, std::int64_t in_len, bool complex_out,
                            std::int64_t out_len, std::int64_t n) {
  const std::string it =
      "tensor<" + std::to_string(in_len) + (complex_in ? "xcomplex<f64>>" : "xf64>");
  const std::string ot =
      "tensor<" + std::to_string(out_len) + (complex_out ? "xcomplex<f64>>" : "xf64>");
  auto ran = run_text(main_of(ot, "  %a = stablehlo.constant dense<" + hex_constant(operand) +
                                      "> : " + it + "\n  %b = stablehlo.fft %a, type = " + kind +
                                      ", length = [" + std::to_string(n) + "] : (" + it + ") -> " +
                                      ot + "\n  return %b : " + ot + "\n"));
  const interp::RunResult& r = ran.result;
  INFO((r.errors.empty()
            ? r.status + (r.unsupported.empty() ? "" : ": " + r.unsupported.front().why)
            : r.errors.front().message));
  REQUIRE(r.status == "passed");
  std::vector<double> out;
  if (complex_out)
    for (auto z : as_complex(r)) out.push_back(z.real()), out.push_back(z.imag());
  else
    out = as_doubles(r);
  hash_bits(out);
  return out;
}

double ulp_of(double x) {
  x = std::fabs(x);
  if (x < 0x1p-1022) return 0x1p-1074;
  return std::ldexp(1.0, std::ilogb(x) - 52);
}

struct Errors {
  double scale_ulps = 0;  // max |error| in ulps of the largest |part|
  double element_ulps =
      0;  // max |error| in ulps of the part itself, over parts ≥ 2^−30 of the scale
};

// got: result parts; want: reference parts (double-double), the same length.
Errors measure(const std::vector<double>& got, const std::vector<DD>& want) {
  REQUIRE(got.size() == want.size());
  double scale = 0;
  for (const DD& w : want) scale = std::max(scale, std::fabs(w.hi));
  Errors e;
  if (scale == 0) return e;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const DD d = add(DD{got[i], 0}, neg(want[i]));
    const double err = std::fabs(d.hi + d.lo);
    e.scale_ulps = std::max(e.scale_ulps, err / ulp_of(scale));
    if (std::fabs(want[i].hi) >= scale * 0x1p-30)
      e.element_ulps = std::max(e.element_ulps, err / ulp_of(want[i].hi));
  }
  return e;
}

}  // namespace

TEST_CASE(
    "f64 fft, ifft, rfft and irfft stay within 3 ulps of the transform's scale at every tested "
    "length",
    "[interp][linalg][fft]") {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 1; n <= 64; ++n) sizes.push_back(n);
  for (std::int64_t n : {100, 127, 128, 202, 243, 256, 1000, 1009, 1024})
    sizes.push_back(n);  // 127, 202 = 2·101, 1009: Bluestein
  std::printf(
      "f64 fft errors against a double-double DFT: worst |error| in ulps of the scale (of the "
      "element)\n");
  std::printf("%6s %18s %18s %18s %18s\n", "n", "FFT", "IFFT", "RFFT", "IRFFT");
  double worst_scale = 0, worst_element = 0;
  for (std::int64_t n : sizes) {
    INFO("n = " << n);
    Inputs rng{static_cast<std::uint64_t>(n) * 7919u};
    const std::int64_t half = n / 2 + 1;
    std::vector<Errors> row;
    // FFT and IFFT of a complex signal.
    std::vector<Z> z(n);
    std::vector<double> flat;
    for (auto& v : z) {
      v = {{rng.next(), 0}, {rng.next(), 0}};
      flat.push_back(v.re.hi), flat.push_back(v.im.hi);
    }
    for (bool inverse : {false, true}) {
      const auto ref = reference_dft(z, inverse);
      std::vector<DD> want;
      for (const Z& r : ref) want.push_back(r.re), want.push_back(r.im);
      row.push_back(measure(run_fft(inverse ? "IFFT" : "FFT", flat, true, n, true, n, n), want));
    }
    // RFFT of a real signal: the first n/2 + 1 coefficients.
    {
      std::vector<Z> x(n);
      std::vector<double> real;
      for (auto& v : x) v = {{rng.next(), 0}, {0, 0}}, real.push_back(v.re.hi);
      const auto ref = reference_dft(x, false);
      std::vector<DD> want;
      for (std::int64_t k = 0; k < half; ++k) want.push_back(ref[k].re), want.push_back(ref[k].im);
      row.push_back(measure(run_fft("RFFT", real, false, n, true, half, n), want));
    }
    // IRFFT of n/2 + 1 coefficients: the Hermitian extension's inverse, real part (the imaginary
    // parts of the zero and Nyquist terms only reach the imaginary part, which is dropped).
    {
      std::vector<Z> spec(n);
      std::vector<double> coeffs;
      for (std::int64_t k = 0; k < half; ++k) {
        spec[k] = {{rng.next(), 0}, {rng.next(), 0}};
        coeffs.push_back(spec[k].re.hi), coeffs.push_back(spec[k].im.hi);
      }
      for (std::int64_t k = half; k < n; ++k) spec[k] = {spec[n - k].re, neg(spec[n - k].im)};
      const auto ref = reference_dft(spec, true);
      std::vector<DD> want;
      for (const Z& r : ref) want.push_back(r.re);
      row.push_back(measure(run_fft("IRFFT", coeffs, true, half, false, n, n), want));
    }
    std::printf("%6lld", static_cast<long long>(n));
    for (const Errors& e : row) {
      std::printf("   %6.3f (%6.3f)", e.scale_ulps, e.element_ulps);
      worst_scale = std::max(worst_scale, e.scale_ulps);
      worst_element = std::max(worst_element, e.element_ulps);
      CHECK(e.scale_ulps <= 3.0);
      CHECK(e.element_ulps <= 0.51);
    }
    std::printf("\n");
  }
  std::printf("worst: %.3f ulps of the scale, %.3f ulps of the element; result bits hash %016llx\n",
              worst_scale, worst_element, static_cast<unsigned long long>(result_hash));
}

TEST_CASE(
    "f64 fft twiddle symmetries hold exactly: an impulse's transform and a real signal's conjugate "
    "pairs",
    "[interp][linalg][fft]") {
  // FFT of δ[t − 1] is exp(−2πik/n): at n = 12 the values at k = 3, 6, 9 are exactly −i, −1, i,
  // and X[n − k] = conj X[k] bit for bit (the twiddles come from one octant-reduced angle).
  std::vector<double> delta(24, 0.0);
  delta[2] = 1.0;
  const auto y = run_fft("FFT", delta, true, 12, true, 12, 12);
  CHECK(y[6] == 0.0);
  CHECK(y[7] == -1.0);
  CHECK(y[12] == -1.0);
  CHECK(y[13] == 0.0);
  CHECK(y[18] == 0.0);
  CHECK(y[19] == 1.0);
  for (int k = 1; k < 12; ++k) {
    CHECK(y[2 * k] == y[2 * (12 - k)]);
    CHECK(y[2 * k + 1] == -y[2 * (12 - k) + 1]);
  }
  // cos(π/6) = √3/2 at k = 1, to the last bit.
  CHECK(y[2] == std::sqrt(3.0) / 2);
  CHECK(y[3] == -0.5);
}
