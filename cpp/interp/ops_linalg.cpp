// Linear algebra and friends but dot_general (ops_dot.cpp), after the StableHLO spec, with XLA's
// results where it is open: convolution, fft, triangular_solve, cholesky, rng_bit_generator.
// Built for size (-Os) in the wasm core: no bench times these, and convolution ran no slower
// (issue 25).
//
//   convolution     direct: for every output position the valid kernel taps are listed once
//                   (lhs_dilation, padding, stride, rhs_dilation and window_reversal resolved
//                   per spatial dimension into a table), then each output element is a sum over
//                   the taps and its group's input features; feature_group_count and
//                   batch_group_count pick the group as the spec's split/concatenate does.
//                   Accumulation as dot_general's.
//   fft             computed in double-double and rounded once (about 106 bits: the f64 results
//                   are the exact transform's, correctly rounded, but for near-ties and elements
//                   far below the largest); run for f64 and complex<f64> only (see
//                   single_precision below: XLA's single-precision results are not reproduced).
//                   Mixed-radix Cooley–Tukey (radix 4 and 2, then each odd prime factor by its
//                   direct p-point sum, or above 64 by Bluestein's algorithm), twiddles
//                   exp(−2πi·j/n) from an octant-reduced angle, its series summed once per angle
//                   (for j ≤ n/8 where 8 divides n), one table per length shared by the op's axes,
//                   lines and Bluestein chirps. IRFFT inverts the leading fft dimensions first,
//                   then the last one from its first n/2+1 coefficients (Hermitian extension, so
//                   the imaginary parts of the zero and Nyquist terms do not count), as pocketfft.
//   triangular_solve, cholesky
//                   computed in double (complex<double>), f64 and complex<f64> only (as fft); only
//                   the named triangle of `a` is read; unit_diagonal reads no diagonal. cholesky
//                   leaves zeros in the other triangle, and a matrix that is not positive definite
//                   (a NaN square root) comes out all NaN, as XLA's expansion does.
//   rng_bit_generator
//                   THREE_FRY and PHILOX exactly as XLA expands them (Threefry-2x32 with 20
//                   rounds and Philox-4x32 with 10, counters, key and state layout of
//                   xla/service/rng_bit_generator_expander.cc and xla/hlo/builder/lib/prng.cc).
//                   DEFAULT is implementation-defined, so it is not run.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/libm.h"
#include "common/numbers.h"
#include "hlo/verify.h"
#include "interp/linalg.h"
#include "interp/strided.h"
#include "kernels/kernels.h"

namespace rl::interp {

namespace {

using hlo::OpCode;
using linalg::Acc;
using linalg::product;
using linalg::same_types;
using linalg::type_name;

// ---- convolution --------------------------------------------------------------------------------

// Every dimension number names a dimension of the operands' rank (verify.cpp: each side's are
// distinct dimensions of its rank).
bool conv_dims_in_range(const hlo::ConvDims& cd, std::size_t rank) {
  auto ok = [&](std::int64_t v) { return v >= 0 && static_cast<std::size_t>(v) < rank; };
  bool in = ok(cd.input_batch) && ok(cd.input_feature) && ok(cd.kernel_input_feature) &&
            ok(cd.kernel_output_feature) && ok(cd.output_batch) && ok(cd.output_feature);
  for (std::size_t s = 0; s < cd.input_spatial.size(); ++s)
    in = in && ok(cd.input_spatial[s]) && ok(cd.kernel_spatial[s]) && ok(cd.output_spatial[s]);
  return in;
}

bool convolution(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& w = c.tensor(1);
  const hlo::ConvAttrs& a = c.attrs().get<hlo::ConvAttrs>();
  const hlo::ConvDims& cd = a.dims;
  const Dims& od = c.out_type(0).dims;
  const std::size_t S = cd.input_spatial.size(), rank = S + 2;
  // The dimension numbers, the groups, the window and the result's shape are the verifier's
  // (verify.cpp's convolution rule, with infer.h's convolution_result).
  RL_VERIFIED(
      c, cd.kernel_spatial.size() == S && cd.output_spatial.size() == S && a.window.size() == S);
  RL_VERIFIED(c, x.dims.size() == rank && w.dims.size() == rank && od.size() == rank);
  RL_VERIFIED(c, conv_dims_in_range(cd, rank));
  RL_VERIFIED(c, a.window_reversal.empty() || a.window_reversal.size() == S);
  if (x.type != w.type || x.type != c.out_type(0).etype)
    return c.fail("convolution mixes element types", type_name(x.type),
                  type_name(w.type) + " -> " + c.out_type(0).element);
  auto at = [](const Dims& v, std::int64_t i) { return v[static_cast<std::size_t>(i)]; };
  const std::int64_t n_in = at(x.dims, cd.input_batch), c_in = at(x.dims, cd.input_feature);
  const std::int64_t I = at(w.dims, cd.kernel_input_feature),
                     O = at(w.dims, cd.kernel_output_feature);
  const std::int64_t n_out = at(od, cd.output_batch), G = a.feature_group_count,
                     BG = a.batch_group_count;
  RL_VERIFIED(c, G >= 1 && BG >= 1 && c_in == I * G && O % G == 0 && O % BG == 0 &&
                     n_in % BG == 0 && n_out == n_in / BG && at(od, cd.output_feature) == O);
  // Per spatial dimension: the input index each (output position, kernel tap) reads, or −1.
  Dims ksize(S), osize(S), table_at(S);
  std::int64_t table_size = 0;
  for (std::size_t s = 0; s < S; ++s) {
    const hlo::WindowDim& win = a.window[s];
    const std::int64_t in = at(x.dims, cd.input_spatial[s]), k = at(w.dims, cd.kernel_spatial[s]);
    RL_VERIFIED(c, win.stride >= 1 && win.base_dilation >= 1 && win.window_dilation >= 1);
    const std::int64_t dil_in = in == 0 ? 0 : (in - 1) * win.base_dilation + 1;
    const std::int64_t dil_k = k == 0 ? 0 : (k - 1) * win.window_dilation + 1;
    const std::int64_t padded = win.pad_low + dil_in + win.pad_high;
    const std::int64_t want = padded < dil_k ? 0 : (padded - dil_k) / win.stride + 1;
    RL_VERIFIED(c, at(od, cd.output_spatial[s]) == want);
    ksize[s] = k;
    osize[s] = want;
    table_at[s] = table_size;
    table_size += want * k;
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (y.elements() == 0) {
    c.set(0, std::move(y));
    return true;
  }
  const std::int64_t taps = product(ksize);
  Tensor table, pairs;
  if (!c.alloc(ElementType::S64, {table_size}, &table) ||
      !c.alloc(ElementType::S64, {2 * taps}, &pairs))
    return false;
  std::int64_t* tab = table.as<std::int64_t>();
  for (std::size_t s = 0; s < S; ++s) {
    const hlo::WindowDim& win = a.window[s];
    const std::int64_t in = at(x.dims, cd.input_spatial[s]), k = ksize[s];
    const std::int64_t dil_in = in == 0 ? 0 : (in - 1) * win.base_dilation + 1;
    const bool reversed = !a.window_reversal.empty() && a.window_reversal[s];
    for (std::int64_t p = 0; p < osize[s]; ++p)
      for (std::int64_t t = 0; t < k; ++t) {
        const std::int64_t tap =
            reversed ? k - 1 - t : t;  // the kernel element used at window position tap
        const std::int64_t q = p * win.stride + tap * win.window_dilation - win.pad_low;
        tab[table_at[s] + p * k + t] =
            q < 0 || q >= dil_in || q % win.base_dilation != 0 ? -1 : q / win.base_dilation;
      }
  }
  const Dims xs = row_major_strides(x.dims), ws = row_major_strides(w.dims),
             ys = row_major_strides(od);
  const std::int64_t x_batch = at(xs, cd.input_batch), x_feat = at(xs, cd.input_feature);
  const std::int64_t w_in = at(ws, cd.kernel_input_feature),
                     w_out = at(ws, cd.kernel_output_feature);
  const std::int64_t y_batch = at(ys, cd.output_batch), y_feat = at(ys, cd.output_feature);
  const std::int64_t per_group = O / G, per_batch_group = O / BG;
  std::int64_t* pr = pairs.as<std::int64_t>();
  const bool ok = for_type(c, y.type, [&](auto e) {
    using E = decltype(e);
    using St = typename E::Storage;
    using A = Acc<E>;
    const St* X = x.as<St>();
    const St* W = w.as<St>();
    St* Y = y.as<St>();
    Dims p(S, 0), t(S, 0);
    const std::int64_t positions = product(osize);
    for (std::int64_t pi = 0; pi < positions; ++pi) {
      // The taps of this output position that land on the input.
      std::int64_t count = 0;
      std::fill(t.begin(), t.end(), 0);
      for (std::int64_t ti = 0; ti < taps; ++ti) {
        std::int64_t xo = 0, wo = 0;
        bool valid = true;
        for (std::size_t s = 0; s < S && valid; ++s) {
          const std::int64_t q = tab[table_at[s] + p[s] * ksize[s] + t[s]];
          valid = q >= 0;
          xo += q * xs[static_cast<std::size_t>(cd.input_spatial[s])];
          wo += t[s] * ws[static_cast<std::size_t>(cd.kernel_spatial[s])];
        }
        if (valid) {
          pr[2 * count] = xo;
          pr[2 * count + 1] = wo;
          ++count;
        }
        for (std::size_t s = S; s-- > 0;) {
          if (++t[s] < ksize[s]) break;
          t[s] = 0;
        }
      }
      std::int64_t yo = 0;
      for (std::size_t s = 0; s < S; ++s)
        yo += p[s] * ys[static_cast<std::size_t>(cd.output_spatial[s])];
      for (std::int64_t n = 0; n < n_out; ++n)
        for (std::int64_t o = 0; o < O; ++o) {
          const std::int64_t g = o / per_group, bg = o / per_batch_group;
          const St* xb = X + (bg * n_out + n) * x_batch + g * I * x_feat;
          const St* wb = W + o * w_out;
          typename A::T acc{};
          for (std::int64_t j = 0; j < count; ++j) {
            const St* xp = xb + pr[2 * j];
            const St* wp = wb + pr[2 * j + 1];
            for (std::int64_t i = 0; i < I; ++i)
              acc = A::madd(acc, E::load(xp[i * x_feat]), E::load(wp[i * w_in]));
          }
          Y[yo + n * y_batch + o * y_feat] = E::store(acc);
        }
      if (!c.keep_going()) return true;
      for (std::size_t s = S; s-- > 0;) {
        if (++p[s] < osize[s]) break;
        p[s] = 0;
      }
    }
    return true;
  });
  if (!ok || c.run.failed()) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- fft
// ----------------------------------------------------------------------------------------------
//
// Every transform runs in double-double arithmetic (a value is an unevaluated sum hi + lo of two
// doubles, about 106 bits) and is rounded to double once at the end, so an f64 result is the
// correctly rounded value of the exact DFT of its input except in near-ties and in elements below
// about 2^−50 of the transform's largest (where the few-ulp error of 2^−100 of the scale shows).
// A plain double FFT, even with exact twiddles, errs by a few ulps of the largest element at a
// thousand points (its error grows with log n and the largest element sits above the mean).
// Only +, −, ×, ÷ and std::fma are used: IEEE-exact in both builds, so native and wasm agree bit
// for bit. (The error-free transforms below assume a·b + c is not fused by the compiler: g++
// without -march and clang for wasm do not fuse.)

using Cd = std::complex<double>;

struct Dd {
  double hi = 0, lo = 0;
};

// a + b exactly as hi + lo (Knuth's TwoSum). An infinite or NaN sum keeps lo 0, so infinities
// pass through as they do in double arithmetic instead of turning into NaN (∞ − ∞ in the error).
Dd two_sum(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s)) return {s, 0};
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
// a + b exactly, for |a| ≥ |b| (or a = 0).
Dd fast_two_sum(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s)) return {s, 0};
  return {s, b - (s - a)};
}
Dd two_prod(double a, double b) {
  const double p = a * b;
  if (!std::isfinite(p)) return {p, 0};
  return {p, libm::fma(a, b, -p)};
}
// The accurate double-double sum (relative error below 3·2^−106 even under cancellation:
// Joldes, Muller and Popescu, "Tight and rigorous error bounds for basic building blocks of
// double-word arithmetic", 2017, AccurateDWPlusDW).
Dd operator+(Dd a, Dd b) {
  const Dd s = two_sum(a.hi, b.hi), t = two_sum(a.lo, b.lo);
  const Dd v = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(v.hi, t.lo + v.lo);
}
Dd operator-(Dd a) { return {-a.hi, -a.lo}; }
Dd operator-(Dd a, Dd b) { return a + -b; }
Dd operator*(Dd a, Dd b) {
  const Dd p = two_prod(a.hi, b.hi);
  if (!std::isfinite(p.hi)) return p;
  const double cross = libm::fma(a.hi, b.lo, a.lo * b.hi);
  return fast_two_sum(p.hi, p.lo + cross);
}
Dd operator*(Dd a, double b) {
  const Dd p = two_prod(a.hi, b);
  if (!std::isfinite(p.hi)) return p;
  return fast_two_sum(p.hi, libm::fma(a.lo, b, p.lo));
}
// a / b: the quotient of the high part, then of the remainder (exact by fma).
Dd operator/(Dd a, double b) {
  const double q1 = a.hi / b;
  if (!std::isfinite(q1)) return {q1, 0};
  const double r = libm::fma(-q1, b, a.hi) + a.lo;
  return fast_two_sum(q1, r / b);
}

struct Zd {
  Dd re, im;
};
Zd operator+(const Zd& a, const Zd& b) { return {a.re + b.re, a.im + b.im}; }
Zd operator-(const Zd& a, const Zd& b) { return {a.re - b.re, a.im - b.im}; }
Zd operator*(const Zd& a, const Zd& b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
Zd conj(const Zd& a) { return {a.re, -a.im}; }
Zd times_minus_i(const Zd& a) { return {a.im, -a.re}; }  // exact

// sin and cos of 0 ≤ x ≤ π/4 given in double-double, by their Taylor series in Horner form
// (x²/((2k)(2k+1)) needs only a division by an exact integer). 14 terms leave a truncation below
// x^30/30! < 2^−110 of the result.
void sin_cos_small(Dd x, Dd* s, Dd* c) {
  const Dd x2 = x * x;
  Dd ts{1, 0}, tc{1, 0};
  for (int k = 14; k >= 1; --k) {
    ts = Dd{1, 0} - (x2 * ts) / static_cast<double>((2 * k) * (2 * k + 1));
    tc = Dd{1, 0} - (x2 * tc) / static_cast<double>((2 * k - 1) * (2 * k));
  }
  *s = x * ts;
  *c = tc;
}

// exp(−2πi·j/n), 0 ≤ j < n, to double-double accuracy. The angle is reduced by octants in
// integers (8j = o·n + r), so sin and cos only ever see an angle in [0, π/4] formed as
// (π/4)·(num/n) in double-double, num = r or n − r; the symmetries make w(n − j) = conj w(j),
// w(n/2) = −1 and w(n/4) = −i exactly.
//
// The series is the cost (some 60 double-double operations), so it runs once per angle: num is
// a multiple of g = gcd(8, n), and (π/4)·num/n formed in double-double is bit for bit
// (π/4)·(num/g)/(n/g) (scaling by a power of two is exact in every step of that product and
// quotient), so a base table of (cos, sin) of (π/4)·u/d for u ≤ d = n/g serves all n twiddles: for
// n divisible by 8 that is the j ≤ n/8 of the first octant, filled out by the symmetries. A chirp
// of length 2p (p odd) reads the base table of a length p; a power-of-two n reads the one of n/8.

// The largest power of two dividing both 8 and n (n ≥ 1).
std::int64_t octant_scale(std::int64_t n) {
  return n % 8 == 0 ? 8 : n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1;
}

// base[u] = (cos, sin) of (π/4)·u/d for u ≤ d, as re and im.
void fill_base(Zd* base, std::int64_t d) {
  const Dd quarter_pi{0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55};  // π/4 = hi + lo to 2^−107
  for (std::int64_t u = 0; u <= d; ++u) {
    Dd s, c;
    sin_cos_small(quarter_pi * static_cast<double>(u) / static_cast<double>(d), &s, &c);
    base[u] = {c, s};
  }
}

// w(j) of length n from the base table of d = n / octant_scale(n).
Zd twiddle(std::int64_t j, std::int64_t n, std::int64_t g, const Zd* base) {
  const std::int64_t o = (8 * j) / n, r = (8 * j) % n;
  const bool odd = (o & 1) != 0;
  const std::int64_t num = odd ? n - r : r;  // θ = (π/2)·q ± (π/4)·num/n
  const std::int64_t q = (odd ? o + 1 : o) / 2;
  const Zd& b = base[num / g];
  const Dd c = b.re, s = odd ? -b.im : b.im;
  Dd cs, sn;  // cos θ, sin θ: (c, s) turned by q quarter turns
  switch (q & 3) {
    case 0:
      cs = c, sn = s;
      break;
    case 1:
      cs = -s, sn = c;
      break;
    case 2:
      cs = -c, sn = -s;
      break;
    default:
      cs = s, sn = -c;
      break;
  }
  return {cs, -sn};
}

// The twiddle tables of one op, shared by its axes, their lines and their Bluestein plans: the
// base table per d and the full table w(j), j < n, per length n (counted tensors, alive as long
// as the op's lines).
class Twiddles {
 public:
  explicit Twiddles(const OpCall& c) : c_(c) {}

  // (cos, sin) of (π/4)·u/d, u ≤ d; null if the allocation failed (the op has failed).
  const Zd* base(std::int64_t d) {
    for (const auto& e : bases_)
      if (e.n == d) return e.t.as<Zd>();
    Entry e{d, {}};
    if (!c_.alloc(ElementType::C128, {d + 1, 2}, &e.t))
      return nullptr;  // one Zd is two complex<double>
    fill_base(e.t.as<Zd>(), d);
    bases_.push_back(std::move(e));
    return bases_.back().t.as<Zd>();
  }

  // w(j) = exp(−2πi·j/n), j < n; null if an allocation failed.
  const Zd* table(std::int64_t n) {
    for (const auto& e : tables_)
      if (e.n == n) return e.t.as<Zd>();
    const std::int64_t g = octant_scale(n);
    const Zd* b = base(n / g);
    Entry e{n, {}};
    if (!b || !c_.alloc(ElementType::C128, {n, 2}, &e.t)) return nullptr;
    Zd* w = e.t.as<Zd>();
    for (std::int64_t j = 0; j < n; ++j) w[j] = twiddle(j, n, g, b);
    tables_.push_back(std::move(e));
    return tables_.back().t.as<Zd>();
  }

 private:
  struct Entry {
    std::int64_t n;
    Tensor t;
  };
  const OpCall& c_;
  std::vector<Entry> bases_, tables_;
};

// Odd prime factors up to this run as a direct p-point sum in the mixed-radix stages (p² products
// per p outputs); larger ones by Bluestein's algorithm (three power-of-two FFTs of at least 2p − 1
// points), so a prime length n costs O(n log n), not O(n²), in double-double.
constexpr std::int64_t kDirectMax = 64;

struct Bluestein;

// A 1-D transform of length n: its twiddles w(j) = exp(−2πi·j/n) (the op's shared table), its
// factors (4s, then 2, then odd factors ascending), scratch, all counted tensors, and a Bluestein
// plan per prime factor above kDirectMax.
struct Line {
  std::int64_t n = 0, largest = 1;
  std::vector<std::int64_t> factors;
  const Zd* tw = nullptr;
  Tensor in, out, group;
  std::vector<std::unique_ptr<Bluestein>> chirps;

  Line() = default;
  ~Line();

  static bool alloc_zd(const OpCall& c, std::int64_t count, Tensor* t) {
    return c.alloc(ElementType::C128, {count, 2}, t);  // one Zd is two complex<double>
  }

  bool init(const OpCall& c, std::int64_t length, Twiddles& twiddles);
  void rec(Zd* dst, const Zd* src, std::int64_t stride, std::int64_t len, std::size_t f,
           std::int64_t fs);

  // in ← DFT(in) (inverse: conj(DFT(conj(x)))/n).
  void run(bool inverse) {
    Zd* a = in.as<Zd>();
    Zd* b = out.as<Zd>();
    if (inverse)
      for (std::int64_t t = 0; t < n; ++t) a[t] = conj(a[t]);
    rec(b, a, 1, n, 0, 1);
    const double scale = static_cast<double>(n);
    for (std::int64_t k = 0; k < n; ++k)
      a[k] = inverse ? Zd{b[k].re / scale, -(b[k].im / scale)} : b[k];
  }
};

// Bluestein's p-point DFT: with b(k) = exp(−πi·k²/p), qu = (q² + u² − (u − q)²)/2 turns
// X[u] = Σ_q x[q]·w_p^(qu) into X[u] = b(u)·Σ_q (x[q]·b(q))·conj b(u − q): a convolution, done by
// power-of-two FFTs of length m ≥ 2p − 1. b(k) = exp(−2πi·(k² mod 2p)/(2p)), by twiddle() from the
// base table of p (which a line of length p shares).
struct Bluestein {
  std::int64_t p = 0, m = 1;
  Tensor chirp, filter;  // b(k) for k < p; the FFT of conj b laid out circularly (k and m − k)
  Line conv;             // length m

  bool init(const OpCall& c, std::int64_t length, Twiddles& twiddles) {
    p = length;
    while (m < 2 * p - 1) m *= 2;
    if (!Line::alloc_zd(c, p, &chirp) || !Line::alloc_zd(c, m, &filter) ||
        !conv.init(c, m, twiddles))
      return false;
    const std::int64_t g = octant_scale(2 * p);
    const Zd* base = twiddles.base(2 * p / g);
    if (!base) return false;
    Zd* b = chirp.as<Zd>();
    for (std::int64_t k = 0; k < p; ++k) b[k] = twiddle((k * k) % (2 * p), 2 * p, g, base);
    Zd* h = conv.in.as<Zd>();
    std::fill(h, h + m, Zd{});
    h[0] = conj(b[0]);
    for (std::int64_t k = 1; k < p; ++k) h[k] = h[m - k] = conj(b[k]);
    conv.run(false);
    std::copy(h, h + m, filter.as<Zd>());
    return true;
  }

  // x[0, p) ← DFT(x).
  void run(Zd* x) {
    const Zd* b = chirp.as<Zd>();
    const Zd* hf = filter.as<Zd>();
    Zd* a = conv.in.as<Zd>();
    for (std::int64_t q = 0; q < p; ++q) a[q] = x[q] * b[q];
    std::fill(a + p, a + m, Zd{});
    conv.run(false);
    for (std::int64_t k = 0; k < m; ++k) a[k] = a[k] * hf[k];
    conv.run(true);
    for (std::int64_t u = 0; u < p; ++u) x[u] = a[u] * b[u];
  }
};

Line::~Line() = default;

bool Line::init(const OpCall& c, std::int64_t length, Twiddles& twiddles) {
  n = length;
  factors.clear();
  chirps.clear();
  std::int64_t rest = n;
  while (rest % 4 == 0) factors.push_back(4), rest /= 4;
  while (rest % 2 == 0) factors.push_back(2), rest /= 2;
  for (std::int64_t p = 3; p * p <= rest; p += 2)
    while (rest % p == 0) factors.push_back(p), rest /= p;
  if (rest > 1) factors.push_back(rest);
  largest = 1;
  for (auto p : factors) largest = std::max(largest, p);
  tw = twiddles.table(n);
  if (!tw || !alloc_zd(c, n, &in) || !alloc_zd(c, n, &out) || !alloc_zd(c, largest, &group))
    return false;
  for (std::size_t i = 0; i < factors.size(); ++i) {
    const std::int64_t p = factors[i];
    if (p <= kDirectMax || (i > 0 && factors[i - 1] == p))
      continue;  // factors ascend: one plan per prime
    chirps.push_back(std::make_unique<Bluestein>());
    if (!chirps.back()->init(c, p, twiddles)) return false;
  }
  return true;
}

// dst[0, len) ← DFT of x[t] = src[t·stride], t < len, where len = n / fs (so exp(−2πi/len) is
// w(fs)), factors from `f` on. Decimation in time: with len = p·m, the p sub-transforms of
// x[p·t + q] go to dst[q·m, (q+1)·m), then X[k + u·m] = Σ_q w(q·k·fs)·Y_q[k] · w((q·u mod p)·n/p).
void Line::rec(Zd* dst, const Zd* src, std::int64_t stride, std::int64_t len, std::size_t f,
               std::int64_t fs) {
  if (len == 1) {
    dst[0] = src[0];
    return;
  }
  const std::int64_t p = factors[f], m = len / p;
  for (std::int64_t q = 0; q < p; ++q)
    rec(dst + q * m, src + q * stride, stride * p, m, f + 1, fs * p);
  Zd* t = group.as<Zd>();
  Bluestein* plan = nullptr;
  if (p > kDirectMax)
    for (auto& b : chirps)
      if (b->p == p) plan = b.get();
  for (std::int64_t k = 0; k < m; ++k) {
    t[0] = dst[k];
    for (std::int64_t q = 1; q < p; ++q)
      t[q] = k == 0 ? dst[q * m] : dst[q * m + k] * tw[q * k * fs];
    if (p == 2) {
      dst[k] = t[0] + t[1];
      dst[k + m] = t[0] - t[1];
    } else if (p == 4) {  // w(n/4) = −i: the radix-4 butterfly needs no products
      const Zd a = t[0] + t[2], b = t[0] - t[2], c = t[1] + t[3], d = times_minus_i(t[1] - t[3]);
      dst[k] = a + c;
      dst[k + m] = b + d;
      dst[k + 2 * m] = a - c;
      dst[k + 3 * m] = b - d;
    } else if (plan) {
      plan->run(t);
      for (std::int64_t u = 0; u < p; ++u) dst[k + u * m] = t[u];
    } else {
      const std::int64_t step = n / p;
      for (std::int64_t u = 0; u < p; ++u) {
        Zd sum = t[0];
        std::int64_t e = 0;  // q·u mod p
        for (std::int64_t q = 1; q < p; ++q) {
          e += u;
          if (e >= p) e -= p;
          sum = sum + (e == 0 ? t[q] : t[q] * tw[e * step]);
        }
        dst[k + u * m] = sum;
      }
    }
  }
}

double round_dd(Dd v) { return v.hi + v.lo; }

// Transforms every line of `work` (Zd elements, dims `dims`) along dimension `axis`.
bool transform_axis(const OpCall& c, Zd* w, const Dims& dims, std::size_t axis, bool inverse,
                    Twiddles& twiddles) {
  const std::int64_t n = dims[axis];
  std::int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i < axis) outer *= dims[i];
    if (i > axis) inner *= dims[i];
  }
  if (n == 0 || outer == 0 || inner == 0) return true;
  Line line;
  if (!line.init(c, n, twiddles)) return false;
  Zd* a = line.in.as<Zd>();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      Zd* base = w + o * n * inner + i;
      for (std::int64_t t = 0; t < n; ++t) a[t] = base[t * inner];
      line.run(inverse);
      for (std::int64_t t = 0; t < n; ++t) base[t * inner] = a[t];
    }
    if (!c.keep_going()) return false;
  }
  return true;
}

bool fft(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const hlo::FftAttrs& at = c.attrs().get<hlo::FftAttrs>();
  const Dims& len = at.lengths;
  const Dims& od = c.out_type(0).dims;
  const ElementType ot = c.out_type(0).etype;
  const std::size_t rank = x.dims.size(), L = len.size();
  // infer.cpp's fft rule (XLA's InferFftShape, both dialects): 1 to 3 lengths, at most the rank,
  // the element types of the fft type, the result's rank.
  RL_VERIFIED(c, L >= 1 && L <= 3 && L <= rank && od.size() == rank);
  const bool c64 = x.type == ElementType::C64 || ot == ElementType::C64;
  const ElementType ctype = c64 ? ElementType::C64 : ElementType::C128,
                    rtype = c64 ? ElementType::F32 : ElementType::F64;
  const hlo::FftType kind = at.type;
  const bool real_in = kind == hlo::FftType::RFFT, real_out = kind == hlo::FftType::IRFFT;
  RL_VERIFIED(c, x.type == (real_in ? rtype : ctype) && ot == (real_out ? rtype : ctype));
  // The shapes: the transformed dimensions of the complex side are the lengths, except that the
  // last has n/2 + 1 entries for RFFT's result and IRFFT's operand. The rule checks them for RFFT
  // and IRFFT, as StableHLO's verifier does; FFT's and IFFT's lengths, which neither compares
  // with the operand, and zero lengths are checked here.
  const std::int64_t last = len.back(), half = last / 2 + 1;
  Dims want_x = od;
  bool shape_ok = true;
  for (std::size_t i = 0; i < L; ++i) {
    const std::size_t d = rank - L + i;
    const std::int64_t full = len[i];
    const bool halved_in = real_out && i == L - 1, halved_out = real_in && i == L - 1;
    if (full < 0) shape_ok = false;
    if (x.dims[d] != (halved_in ? half : full)) shape_ok = false;
    if (od[d] != (halved_out ? half : full)) shape_ok = false;
    want_x[d] = x.dims[d];
  }
  if (!shape_ok || want_x != x.dims)
    return c.fail(
        "fft shapes do not fit its lengths",
        "the last dimensions " + list_text(len) + " (n/2 + 1 on the complex side of RFFT/IRFFT)",
        list_text(x.dims) + " -> " + list_text(od));
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (y.elements() == 0) {
    c.set(0, std::move(y));
    return true;
  }
  if (last == 0 || x.elements() == 0)
    return c.fail("fft of empty lines with a non-empty result", "lengths of at least 1",
                  list_text(len));
  const std::int64_t nx = x.elements();
  Tensor work;
  if (!Line::alloc_zd(c, nx, &work)) return false;
  Zd* w = work.as<Zd>();
  auto real = [](double v) { return Zd{{v, 0}, {0, 0}}; };
  auto cplx = [](double re, double im) { return Zd{{re, 0}, {im, 0}}; };
  if (real_in) {
    if (x.type == ElementType::F32)
      for (std::int64_t i = 0; i < nx; ++i) w[i] = real(x.as<float>()[i]);
    else
      for (std::int64_t i = 0; i < nx; ++i) w[i] = real(x.as<double>()[i]);
  } else {
    if (x.type == ElementType::C64) {
      const auto* p = x.as<std::complex<float>>();
      for (std::int64_t i = 0; i < nx; ++i) w[i] = cplx(p[i].real(), p[i].imag());
    } else {
      const auto* p = x.as<Cd>();
      for (std::int64_t i = 0; i < nx; ++i) w[i] = cplx(p[i].real(), p[i].imag());
    }
  }
  const bool inverse = kind == hlo::FftType::IFFT || kind == hlo::FftType::IRFFT;
  const std::size_t axes = real_out ? L - 1 : L;  // IRFFT's last dimension comes after
  Twiddles twiddles(c);                           // one table per length for all the op's lines
  for (std::size_t i = 0; i < axes; ++i)
    if (!transform_axis(c, w, x.dims, rank - L + i, inverse, twiddles)) return false;
  if (real_out) {
    // c2r along the last dimension: coefficients k ≤ n/2 as given, k > n/2 as conj(X[n − k]).
    Line line;
    if (!line.init(c, last, twiddles)) return false;
    Zd* a = line.in.as<Zd>();
    const std::int64_t lines = nx / half;
    for (std::int64_t l = 0; l < lines; ++l) {
      const Zd* src = w + l * half;
      for (std::int64_t k = 0; k < last; ++k) a[k] = k < half ? src[k] : conj(src[last - k]);
      line.run(true);
      if (ot == ElementType::F32)
        for (std::int64_t t = 0; t < last; ++t)
          y.as<float>()[l * last + t] = static_cast<float>(round_dd(a[t].re));
      else
        for (std::int64_t t = 0; t < last; ++t) y.as<double>()[l * last + t] = round_dd(a[t].re);
      if ((l & 255) == 255 && !c.keep_going()) return false;
    }
  } else {
    // The complex result: all of work, or (RFFT) the first n/2 + 1 of each last-dimension line.
    const std::int64_t keep = real_in ? half : last, lines = nx / last;
    for (std::int64_t l = 0; l < lines; ++l)
      for (std::int64_t k = 0; k < keep; ++k) {
        const Zd& v = w[l * last + k];
        if (ot == ElementType::C64)
          y.as<std::complex<float>>()[l * keep + k] = {static_cast<float>(round_dd(v.re)),
                                                       static_cast<float>(round_dd(v.im))};
        else
          y.as<Cd>()[l * keep + k] = Cd(round_dd(v.re), round_dd(v.im));
      }
  }
  c.set(0, std::move(y));
  return true;
}

// fft, triangular_solve and cholesky compute in double. XLA computes single and half precision
// in the element type with its own algorithms (DUCC's FFT; inverted diagonal blocks for triangular
// solves; a blocked Cholesky), and their rounding errors are not reproduced here: on the corpus,
// upstream's 3-ulp checks of XLA's single-precision results fail by up to 75514 ulps (an IRFFT)
// and 40 ulps (a triangular solve) against these double-precision results rounded once. Where
// XLA's results are the reference, these ops run in double precision only.
bool single_precision(ElementType t) {
  return t == ElementType::F32 || t == ElementType::C64 || t == ElementType::F16 ||
         t == ElementType::BF16;
}
constexpr const char* kSinglePrecision =
    " in single or half precision: XLA computes it in that precision with its own algorithm, whose "
    "rounding this "
    "interpreter (double precision, rounded once) does not reproduce; f64 and complex<f64> run";

std::string fft_types(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  std::string p = computable_types(op, attrs);
  if (!p.empty()) return p;
  const ElementType t = op.operand_type(0).etype;
  if (t != ElementType::F32 && t != ElementType::F64 && t != ElementType::C64 &&
      t != ElementType::C128)
    return "element type " + op.operand_type(0).element;
  if (single_precision(t) || single_precision(op.result_type(0).etype))
    return std::string("fft") + kSinglePrecision;
  return "";
}

// ---- triangular_solve, cholesky
// ---------------------------------------------------------------------

template <class E>
constexpr bool is_solvable_v = is_float_v<E> || is_complex_v<E>;

// The compute type of E's solves: double, or complex<double>.
template <class E>
using Wide = std::conditional_t<is_complex_v<E>, Cd, double>;

template <class E>
Wide<E> widen(typename E::Storage s) {
  if constexpr (is_complex_v<E>)
    return Cd(s.real(), s.imag());
  else
    return static_cast<double>(E::load(s));
}

template <class E>
typename E::Storage narrow(Wide<E> v) {
  if constexpr (is_complex_v<E>) {
    using R = typename E::Storage::value_type;
    return typename E::Storage(static_cast<R>(v.real()), static_cast<R>(v.imag()));
  } else {
    return from_double<E>(v);
  }
}

inline double conj_of(double v) { return v; }
inline Cd conj_of(Cd v) { return std::conj(v); }

// The batch count of a (and b): square matrices of one batch shape, infer.cpp's cholesky and
// triangular_solve rules (XLA's shape inference, both dialects), which the kernels trust.
std::int64_t batch_of(const OpCall& c, const Tensor& a, const Tensor* b) {
  const std::size_t r = a.dims.size();
  RL_VERIFIED(c, r >= 2 && a.dims[r - 1] == a.dims[r - 2]);
  RL_VERIFIED(c, !b || (b->dims.size() == r &&
                        std::equal(a.dims.begin(), a.dims.end() - 2, b->dims.begin())));
  std::int64_t batches = 1;
  for (std::size_t i = 0; i + 2 < r; ++i) batches *= a.dims[i];
  return batches;
}

bool triangular_solve(const OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  const hlo::TriangularSolveAttrs& at = c.attrs().get<hlo::TriangularSolveAttrs>();
  const std::int64_t batches = batch_of(c, a, &b);
  const std::size_t r = b.dims.size();
  const std::int64_t rows = b.dims[r - 2], cols = b.dims[r - 1], k = a.dims[r - 1];
  RL_VERIFIED(c, (at.left_side ? rows : cols) == k);
  RL_VERIFIED(c, a.type == b.type && c.out_type(0).dims == b.dims && c.out_type(0).etype == b.type);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  // T = op(a) restricted to a's triangle; T is lower when a is lower xor op transposes.
  const bool transposed = at.transpose_a != hlo::Transpose::NoTranspose,
             conj = at.transpose_a == hlo::Transpose::Adjoint;
  const bool t_lower = at.lower != transposed;
  const bool ok = for_type(c, a.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (!is_solvable_v<E>) {
      return false;
    } else {
      using St = typename E::Storage;
      using W = Wide<E>;
      Tensor tm, xm;
      const ElementType wt = is_complex_v<E> ? ElementType::C128 : ElementType::F64;
      if (!c.alloc(wt, {k * k}, &tm) || !c.alloc(wt, {rows * cols}, &xm)) return true;
      W* T = tm.as<W>();
      W* X = xm.as<W>();
      for (std::int64_t bi = 0; bi < batches; ++bi) {
        const St* A = a.as<St>() + bi * k * k;
        const St* Bm = b.as<St>() + bi * rows * cols;
        for (std::int64_t i = 0; i < k; ++i)
          for (std::int64_t j = 0; j < k; ++j) {
            const bool inside = t_lower ? j <= i : j >= i;
            W v = 0;
            if (i == j && at.unit_diagonal)
              v = 1;
            else if (inside) {
              v = transposed ? widen<E>(A[j * k + i]) : widen<E>(A[i * k + j]);
              if (conj) v = conj_of(v);
            }
            T[i * k + j] = v;
          }
        for (std::int64_t i = 0; i < rows * cols; ++i) X[i] = widen<E>(Bm[i]);
        if (at.left_side) {
          // T·X = B, column by column: forward (T lower) or backward substitution.
          for (std::int64_t j = 0; j < cols; ++j)
            for (std::int64_t s = 0; s < k; ++s) {
              const std::int64_t i = t_lower ? s : k - 1 - s;
              W v = X[i * cols + j];
              if (t_lower)
                for (std::int64_t p = 0; p < i; ++p) v -= T[i * k + p] * X[p * cols + j];
              else
                for (std::int64_t p = i + 1; p < k; ++p) v -= T[i * k + p] * X[p * cols + j];
              X[i * cols + j] = v / T[i * k + i];
            }
        } else {
          // X·T = B, row by row: x[i] needs the x[p] that T's column i mixes in.
          for (std::int64_t row = 0; row < rows; ++row)
            for (std::int64_t s = 0; s < k; ++s) {
              const std::int64_t i = t_lower ? k - 1 - s : s;
              W v = X[row * cols + i];
              if (t_lower)
                for (std::int64_t p = i + 1; p < k; ++p) v -= X[row * cols + p] * T[p * k + i];
              else
                for (std::int64_t p = 0; p < i; ++p) v -= X[row * cols + p] * T[p * k + i];
              X[row * cols + i] = v / T[i * k + i];
            }
        }
        St* Y = y.as<St>() + bi * rows * cols;
        for (std::int64_t i = 0; i < rows * cols; ++i) Y[i] = narrow<E>(X[i]);
        if (!c.keep_going()) return true;
      }
      return true;
    }
  });
  if (!ok || c.run.failed()) return false;
  c.set(0, std::move(y));
  return true;
}

bool cholesky(const OpCall& c) {
  const Tensor& a = c.tensor(0);
  const std::int64_t batches = batch_of(c, a, nullptr);
  RL_VERIFIED(c, c.out_type(0).dims == a.dims && c.out_type(0).etype == a.type);
  const std::int64_t n = a.dims.back();
  const bool lower = c.attrs().get<hlo::CholeskyAttrs>().lower;
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const bool ok = for_type(c, a.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (!is_solvable_v<E>) {
      return false;
    } else {
      using St = typename E::Storage;
      using W = Wide<E>;
      Tensor lm;
      if (!c.alloc(is_complex_v<E> ? ElementType::C128 : ElementType::F64, {n * n}, &lm))
        return true;
      W* Lm = lm.as<W>();
      for (std::int64_t bi = 0; bi < batches; ++bi) {
        const St* A = a.as<St>() + bi * n * n;
        // The lower triangle to factor: a's own (lower), or the transpose of its upper one.
        auto get = [&](std::int64_t i, std::int64_t j) {
          return lower ? widen<E>(A[i * n + j]) : widen<E>(A[j * n + i]);
        };
        std::fill(Lm, Lm + n * n, W(0));
        bool failed = false;
        for (std::int64_t j = 0; j < n; ++j) {
          W dsum = get(j, j);
          for (std::int64_t p = 0; p < j; ++p) dsum -= Lm[j * n + p] * conj_of(Lm[j * n + p]);
          const double d = std::real(dsum);
          const double root = std::sqrt(d);
          if (std::isnan(root)) failed = true;
          Lm[j * n + j] = root;
          for (std::int64_t i = j + 1; i < n; ++i) {
            W v = get(i, j);
            for (std::int64_t p = 0; p < j; ++p) v -= Lm[i * n + p] * conj_of(Lm[j * n + p]);
            Lm[i * n + j] = v / W(root);
          }
        }
        St* Y = y.as<St>() + bi * n * n;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (std::int64_t i = 0; i < n; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            // Upper: the transpose of the lower factor (of the transposed upper triangle).
            const W v = failed ? W(nan) : lower ? Lm[i * n + j] : Lm[j * n + i];
            Y[i * n + j] = narrow<E>(v);
          }
        if (!c.keep_going()) return true;
      }
      return true;
    }
  });
  if (!ok || c.run.failed()) return false;
  c.set(0, std::move(y));
  return true;
}

std::string float_types(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  std::string p = same_types(op, attrs);
  if (!p.empty()) return p;
  const ElementType t = op.result_type(0).etype;
  bool ok = false;
  dispatch(t, [&](auto e) { ok = is_solvable_v<decltype(e)>; });
  if (!ok) return "element type " + op.result_type(0).element + " (floating-point or complex only)";
  if (single_precision(t)) return std::string(op.op.name) + kSinglePrecision;
  return "";
}

// ---- rng_bit_generator
// --------------------------------------------------------------------------------

std::uint32_t rotl(std::uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }

// Threefry-2x32, 20 rounds (Salmon et al. 2011), as xla/hlo/builder/lib/prng.cc writes it.
void threefry2x32(std::uint32_t key0, std::uint32_t key1, std::uint32_t& x0, std::uint32_t& x1) {
  static constexpr int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const std::uint32_t ks[3] = {key0, key1, 0x1BD11BDAu ^ key0 ^ key1};
  x0 += ks[0];
  x1 += ks[1];
  for (int block = 0; block < 5; ++block) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = rotl(x1, rot[(block % 2) * 4 + r]) ^ x0;
    }
    x0 += ks[(block + 1) % 3];
    x1 += ks[(block + 2) % 3] + static_cast<std::uint32_t>(block + 1);
  }
}

// Philox-4x32, 10 rounds, as xla/hlo/builder/lib/prng.cc writes it.
void philox4x32(std::uint32_t key0, std::uint32_t key1, std::uint32_t x[4]) {
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t{x[0]} * 0xD2511F53u,
                        p1 = std::uint64_t{x[2]} * 0xCD9E8D57u;
    const std::uint32_t y0 = static_cast<std::uint32_t>(p1 >> 32) ^ x[1] ^ key0,
                        y1 = static_cast<std::uint32_t>(p1);
    const std::uint32_t y2 = static_cast<std::uint32_t>(p0 >> 32) ^ x[3] ^ key1,
                        y3 = static_cast<std::uint32_t>(p0);
    x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
    key0 += 0x9E3779B9u;
    key1 += 0xBB67AE85u;
  }
}

std::string rng_support(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  std::string p = computable_types(op, attrs);
  if (!p.empty()) return p;
  const hlo::RngAlgorithm alg =
      attrs ? attrs->get<hlo::RngAttrs>().algorithm : hlo::RngAlgorithm::Default;
  if (alg == hlo::RngAlgorithm::Default)
    return "the DEFAULT algorithm, whose bits are implementation-defined (THREE_FRY and PHILOX "
           "run)";
  // The results' forms are the verifier's (VerifyRule::RngBitGenerator), as is the new state's
  // type.
  const hlo::Type *state_t = nullptr, *values_t = nullptr;
  hlo::rng_results(op, &state_t, &values_t);
  bool integer = false;
  dispatch(values_t->etype, [&](auto e) { integer = is_int_v<decltype(e)>; });
  if (!integer)
    return "output type " + values_t->text + " (integer outputs run; XLA defines no float bits)";
  return "";
}

bool rng_bit_generator(const OpCall& c) {
  const Tensor& st = c.tensor(0);
  const hlo::RngAlgorithm alg = c.attrs().get<hlo::RngAttrs>().algorithm;
  const hlo::Type *state_t = nullptr, *values_t = nullptr;
  hlo::rng_results(hlo::OpView{c.module, c.fn(), c.op()}, &state_t, &values_t);
  Tensor ns, out;
  if (!c.alloc(st.type, st.dims, &ns) || !c.alloc(values_t->etype, values_t->dims, &out))
    return false;
  // Two results, one tuple of both (HLO), or the values alone (HLO).
  auto finish = [&]() {
    if (c.num_results() == 2) {
      c.set(0, std::move(ns));
      c.set(1, std::move(out));
    } else if (state_t) {
      Value v;
      v.kind = Value::Kind::Tuple;
      v.tuple.push_back(Value::of(std::move(ns)));
      v.tuple.push_back(Value::of(std::move(out)));
      c.set(0, std::move(v));
    } else {
      c.set(0, std::move(out));
    }
    return true;
  };
  const std::size_t words = static_cast<std::size_t>(st.elements());
  // The verifier checked the count where the state's size is written; a `?` size is known here.
  const std::string rule = hlo::rng_words_rule(alg, static_cast<std::int64_t>(words));
  if (!rule.empty())
    return c.fail("rng_bit_generator state has the wrong number of words for its algorithm", rule,
                  std::to_string(words));
  const std::uint64_t* s = st.as<std::uint64_t>();
  std::uint64_t* s2 = ns.as<std::uint64_t>();
  const std::int64_t count = out.elements();
  const int bits = hlo::element_bytes(out.type) * 8;
  // Each output element's bits as a u64, then truncated to the element's width.
  auto put = [&](std::int64_t i, std::uint64_t v) {
    switch (bits) {
      case 8:
        out.as<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
        break;
      case 16:
        out.as<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
        break;
      case 32:
        out.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(v);
        break;
      default:
        out.as<std::uint64_t>()[i] = v;
        break;
    }
  };
  const std::uint64_t key = s[0];
  const auto k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  s2[0] = key;
  if (alg == hlo::RngAlgorithm::ThreeFry) {
    const std::uint64_t counter = s[1];
    if (bits == 64) {
      // Element i: Threefry of the 64-bit counter + i (its two halves), the outputs joined.
      for (std::int64_t i = 0; i < count; ++i) {
        const std::uint64_t ctr = counter + static_cast<std::uint64_t>(i);
        std::uint32_t x0 = static_cast<std::uint32_t>(ctr),
                      x1 = static_cast<std::uint32_t>(ctr >> 32);
        threefry2x32(k0, k1, x0, x1);
        put(i, std::uint64_t{x0} | (std::uint64_t{x1} << 32));
      }
      s2[1] = counter + static_cast<std::uint64_t>(count);
    } else {
      // 32 bits and narrower: the shape is split in two along its first even dimension (else its
      // largest; a scalar counts as [1] of [2]); element h of the half makes the pair of elements
      // 2h and 2h + 1 of that dimension from Threefry's two words, past its end dropped.
      const Dims& dims = out.dims;
      std::size_t split = 0;
      bool found = false;
      for (std::size_t i = 0; i < dims.size() && !found; ++i)
        if (dims[i] % 2 == 0) split = i, found = true;
      if (!found)
        for (std::size_t i = 0; i < dims.size(); ++i)
          if (dims[i] > dims[split]) split = i;
      const std::int64_t n = dims.empty() ? 1 : dims[split];
      const std::int64_t halfn = (n + 1) / 2;
      std::int64_t outer = 1, inner = 1;
      for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i < split) outer *= dims[i];
        if (i > split) inner *= dims[i];
      }
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t h = 0; h < halfn; ++h)
          for (std::int64_t in = 0; in < inner; ++in) {
            const std::uint64_t ctr =
                counter + static_cast<std::uint64_t>((o * halfn + h) * inner + in);
            std::uint32_t x0 = static_cast<std::uint32_t>(ctr),
                          x1 = static_cast<std::uint32_t>(ctr >> 32);
            threefry2x32(k0, k1, x0, x1);
            if (dims.empty()) {
              put(0, x0);
              continue;
            }
            put((o * n + 2 * h) * inner + in, x0);
            if (2 * h + 1 < n) put((o * n + 2 * h + 1) * inner + in, x1);
          }
      s2[1] = counter + static_cast<std::uint64_t>(outer * halfn * inner);
    }
    return finish();
  }
  // PHILOX: a 128-bit counter (low, high) = (state[1], state[2]), or (state[1], state[0]) for a
  // two-word state; each block of 128 bits is Philox of counter + block.
  const std::uint64_t lo = s[1], hi = words >= 3 ? s[2] : s[0];
  auto block = [&](std::uint64_t j, std::uint32_t x[4]) {
    const std::uint64_t l = lo + j, h = hi + (l < lo ? 1 : 0);
    x[0] = static_cast<std::uint32_t>(l), x[1] = static_cast<std::uint32_t>(l >> 32);
    x[2] = static_cast<std::uint32_t>(h), x[3] = static_cast<std::uint32_t>(h >> 32);
    philox4x32(k0, k1, x);
  };
  std::uint64_t blocks = 0;
  if (bits == 64) {
    // Two u64 per block: (x0 | x1 << 32), (x2 | x3 << 32).
    blocks = static_cast<std::uint64_t>((count + 1) / 2);
    for (std::uint64_t j = 0; j < blocks; ++j) {
      std::uint32_t x[4];
      block(j, x);
      for (std::uint64_t q = 0; q < 2 && 2 * j + q < static_cast<std::uint64_t>(count); ++q)
        put(static_cast<std::int64_t>(2 * j + q),
            std::uint64_t{x[2 * q]} | (std::uint64_t{x[2 * q + 1]} << 32));
    }
  } else {
    blocks = static_cast<std::uint64_t>((count + 3) / 4);
    for (std::uint64_t j = 0; j < blocks; ++j) {
      std::uint32_t x[4];
      block(j, x);
      for (std::uint64_t q = 0; q < 4 && 4 * j + q < static_cast<std::uint64_t>(count); ++q)
        put(static_cast<std::int64_t>(4 * j + q), x[q]);
    }
  }
  const std::uint64_t nlo = lo + blocks, nhi = hi + (nlo < lo ? 1 : 0);
  s2[1] = nlo;
  if (words >= 3) s2[2] = nhi;
  return finish();
}

}  // namespace

// Both operands and the result of one element type: what these kernels compute with.
std::string linalg::same_types(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  std::string p = computable_types(op, attrs);
  if (!p.empty()) return p;
  const ElementType t = op.result_type(0).etype;
  for (std::size_t i = 0; i < op.num_operands(); ++i)
    if (op.operand_type(i).etype != t)
      return "operands of another element type than the result (" + op.operand_type(i).element +
             " -> " + op.result_type(0).element + ")";
  return "";
}

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(Convolution, convolution, same_types)
RL_KERNEL(Fft, fft, fft_types)
RL_KERNEL(TriangularSolve, triangular_solve, float_types)
RL_KERNEL(Cholesky, cholesky, float_types)
RL_KERNEL(RngBitGenerator, rng_bit_generator, rng_support)

}  // namespace rl::interp
