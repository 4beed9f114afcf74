// tanh in f32, written once against the SIMD vocabulary (simd.h).
//
//   tanh(x) = sign(x) · e / (e + 2),  e = expm1(2|x|)
//
// expm1(t): t = n·ln2 + r with |r| ≤ ln2/2 (Cody–Waite: ln2 split in a part whose product with
// n is exact and a small remainder), expm1(r) by its degree-7 Taylor polynomial (truncation
// below 1e-8 relative on that interval), then expm1(t) = 2^n·expm1(r) + (2^n − 1). Near 0,
// n = 0 and e = expm1(2x) ≈ 2x keeps full relative accuracy, so tanh(x) ≈ x down to
// subnormals. Beyond |x| = 9.0109 (where 1 − tanh(x) = 2^-25, half an ulp of 1) tanh rounds to
// ±1 in f32; |x| is clamped at 9.1, where e + 2 rounds to e and the formula gives exactly 1.
// That also maps ±inf to ±1. ±0 gives ±0; NaN stays NaN.
//
// Accuracy, measured by tests/cpp/kernels/tanh_test.cpp against std::tanh in double:
// at most 3 ulp over [−10, 10] (every float in [0, 2^-10], and a dense sweep beyond).
#pragma once

#include <cstddef>

namespace rl::kernels {

template <class Ops>
inline typename Ops::V tanh_v(typename Ops::V x) {
  using V = typename Ops::V;
  using VI = typename Ops::VI;
  const VI sign_mask = Ops::splat_bits(0x80000000u);
  const VI sign = Ops::and_bits(Ops::bits(x), sign_mask);
  V ax = Ops::from_bits(Ops::andnot_bits(Ops::bits(x), sign_mask));
  ax = Ops::pmin(ax, Ops::splat(9.1f));  // NaN stays in ax: pmin keeps its first operand

  const V t = Ops::add(ax, ax);  // 2|x|, in [0, 18.2]
  // n = round(t / ln2) with the 1.5·2^23 trick: n lands in the low mantissa bits of `v`.
  const V magic = Ops::splat(12582912.0f);  // 0x1.8p23
  const V v = Ops::add(Ops::mul(t, Ops::splat(1.44269502f)), magic);
  const V n = Ops::sub(v, magic);
  const V r = Ops::sub(Ops::sub(t, Ops::mul(n, Ops::splat(0.693145751953125f))),  // ln2 high bits
                       Ops::mul(n, Ops::splat(1.42860677e-6f)));                  // ln2 − high
  // 2^n from n's bits (n is 0..26): (n << 23) + bias.
  const V s = Ops::from_bits(
      Ops::add_bits(Ops::shl_bits(Ops::bits(v), 23), Ops::splat_bits(0x3F800000u)));

  // expm1(r) = r + r²·(1/2 + r·(1/6 + r·(1/24 + r·(1/120 + r·(1/720 + r/5040)))))
  V p = Ops::splat(1.0f / 5040);
  p = Ops::add(Ops::mul(p, r), Ops::splat(1.0f / 720));
  p = Ops::add(Ops::mul(p, r), Ops::splat(1.0f / 120));
  p = Ops::add(Ops::mul(p, r), Ops::splat(1.0f / 24));
  p = Ops::add(Ops::mul(p, r), Ops::splat(1.0f / 6));
  p = Ops::add(Ops::mul(p, r), Ops::splat(0.5f));
  p = Ops::add(Ops::mul(Ops::mul(p, r), r), r);

  const V e = Ops::add(Ops::mul(s, p), Ops::sub(s, Ops::splat(1.0f)));  // expm1(2|x|)
  const V y = Ops::div(e, Ops::add(e, Ops::splat(2.0f)));
  return Ops::from_bits(Ops::or_bits(Ops::bits(y), sign));
}

// y[i] = tanh(x[i]) for i < count; in place allowed.
template <class Ops>
inline void tanh_array(std::size_t count, const float* x, float* y) {
  constexpr int W = Ops::kWidth;
  std::size_t i = 0;
  for (; i + W <= count; i += W) Ops::store(y + i, tanh_v<Ops>(Ops::load(x + i)));
  if (i < count) {
    float in[W] = {}, out[W];
    for (std::size_t j = 0; i + j < count; ++j) in[j] = x[i + j];
    Ops::store(out, tanh_v<Ops>(Ops::load(in)));
    for (std::size_t j = 0; i + j < count; ++j) y[i + j] = out[j];
  }
}

}  // namespace rl::kernels
