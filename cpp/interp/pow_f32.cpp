// f32 power, vectorized: x^y = 2^(y·log2 x) computed in double lanes (wasm f64x2, two per f32x4)
// and rounded once to f32. One algorithm over a two-instance vocabulary (scalar double, wasm
// f64x2) whose operations are each one IEEE double operation (no FMA; this file is built with
// -ffp-contract=off), so the scalar path, the SIMD path and the native build give the same bits.
//
// For x in (0, inf) and finite y:
//   x = 2^k·m, m in [√½, √2) (by the bits, as musl's log does); ln m = 2s·(1 + s²/3 + … + s¹⁴/15)
//   with s = (m − 1)/(m + 1), |s| ≤ 0.1716 (the first term left out, s¹⁶/17, is below 3.5e-14 of
//   the sum); t = y·(k + ln m·log2 e), clamped to [−200, 200] (beyond, the f32 result is 0 or
//   +inf either way); t = n + r with n = round(t), |r| ≤ ½, exact; 2^r = e^(r·ln2) by its Taylor
//   series to degree 11 (next term below 7e-15); times 2^n by the exponent bits.
// The double result is within about 1e-13 of x^y relative (the error of t is |t|·2^-52 a few
// times over, |t| ≤ 200), so its one rounding to f32 is the correctly rounded result except
// where x^y lies within 1e-13 of a rounding boundary: at most 0.5 ulp + 2e-6 ulp. Measured
// against musl's pow in double by tests/cpp/interp/pow_test.cpp.
//
// Every other lane — x ≤ 0 (negative bases, signed zeros), x = ±inf, y = ±inf, a NaN in either
// operand — is computed as before, by musl's pow in double (cpp/common/libm.h) rounded to f32,
// lane by lane: the special values of C's pow and the same NaN bits in every build.
#include <cstdint>
#include <cstring>

#include "common/libm.h"
#include "interp/simd_loops.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace rl::interp::simd {

namespace {

struct ScalarD {
  using V = double;
  using B = std::uint64_t;
  static V splat(double v) { return v; }
  static V add(V a, V b) { return a + b; }
  static V sub(V a, V b) { return a - b; }
  static V mul(V a, V b) { return a * b; }
  static V div(V a, V b) { return a / b; }
  static V pmin(V a, V b) { return b < a ? b : a; }  // wasm's f64x2.pmin
  static V pmax(V a, V b) { return a < b ? b : a; }  // wasm's f64x2.pmax
  static B bits(V v) {
    B b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  static V from_bits(B b) {
    V v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  }
  static B splat_bits(std::uint64_t b) { return b; }
  static B add_bits(B a, B b) { return a + b; }
  static B and_bits(B a, B b) { return a & b; }
  static B or_bits(B a, B b) { return a | b; }
  static B shl52(B a) { return a << 52; }
  static B shr52(B a) { return a >> 52; }
};

#if defined(__wasm_simd128__)
struct WasmD {
  using V = v128_t;
  using B = v128_t;
  static V splat(double v) { return wasm_f64x2_splat(v); }
  static V add(V a, V b) { return wasm_f64x2_add(a, b); }
  static V sub(V a, V b) { return wasm_f64x2_sub(a, b); }
  static V mul(V a, V b) { return wasm_f64x2_mul(a, b); }
  static V div(V a, V b) { return wasm_f64x2_div(a, b); }
  static V pmin(V a, V b) { return wasm_f64x2_pmin(a, b); }
  static V pmax(V a, V b) { return wasm_f64x2_pmax(a, b); }
  static B bits(V v) { return v; }
  static V from_bits(B b) { return b; }
  static B splat_bits(std::uint64_t b) { return wasm_i64x2_splat(static_cast<std::int64_t>(b)); }
  static B add_bits(B a, B b) { return wasm_i64x2_add(a, b); }
  static B and_bits(B a, B b) { return wasm_v128_and(a, b); }
  static B or_bits(B a, B b) { return wasm_v128_or(a, b); }
  static B shl52(B a) { return wasm_i64x2_shl(a, 52); }
  static B shr52(B a) { return wasm_u64x2_shr(a, 52); }
};
#endif

constexpr double kLog2e = 1.4426950408889634;  // 1/ln 2
constexpr double kLn2 = 0.6931471805599453;    // ln 2
constexpr double kRound = 6755399441055744.0;  // 1.5·2^52: t + kRound − kRound rounds t
constexpr double kTwo52 = 4503599627370496.0;  // 2^52
constexpr std::uint64_t kSqrtHalfBits = 0x3FE6A09E667F3BCDull;  // √½
constexpr std::uint64_t kOneBits = 0x3FF0000000000000ull;

// x^y for x in (0, inf) and finite y, in double (see the top of the file).
template <class D>
typename D::V pow_positive(typename D::V x, typename D::V y) {
  using V = typename D::V;
  using B = typename D::B;
  const V one = D::splat(1.0);
  // x = 2^k·m, m in [√½, √2): the bits offset so that m's range starts at √½.
  const B ix = D::add_bits(D::bits(x), D::splat_bits(kOneBits - kSqrtHalfBits));
  // The biased exponent as a double: its 11 bits in the mantissa of 2^52.
  const V kb = D::sub(D::from_bits(D::or_bits(D::shr52(ix), D::splat_bits(0x4330000000000000ull))),
                      D::splat(kTwo52));
  const V k = D::sub(kb, D::splat(1023.0));
  const V m = D::from_bits(D::add_bits(D::and_bits(ix, D::splat_bits(0x000FFFFFFFFFFFFFull)),
                                       D::splat_bits(kSqrtHalfBits)));
  const V s = D::div(D::sub(m, one), D::add(m, one));
  const V z = D::mul(s, s);
  V p = D::splat(1.0 / 15);
  p = D::add(D::mul(p, z), D::splat(1.0 / 13));
  p = D::add(D::mul(p, z), D::splat(1.0 / 11));
  p = D::add(D::mul(p, z), D::splat(1.0 / 9));
  p = D::add(D::mul(p, z), D::splat(1.0 / 7));
  p = D::add(D::mul(p, z), D::splat(1.0 / 5));
  p = D::add(D::mul(p, z), D::splat(1.0 / 3));
  p = D::add(D::mul(p, z), one);
  const V ln_m = D::mul(D::add(s, s), p);
  V t = D::mul(y, D::add(k, D::mul(ln_m, D::splat(kLog2e))));
  t = D::pmin(D::pmax(t, D::splat(-200.0)), D::splat(200.0));
  const V tr = D::add(t, D::splat(kRound));  // n in its low mantissa bits
  const V r = D::sub(t, D::sub(tr, D::splat(kRound)));
  const V u = D::mul(r, D::splat(kLn2));
  // e^u, |u| ≤ ln2/2: Taylor to degree 11.
  V e = D::splat(1.0 / 39916800);
  e = D::add(D::mul(e, u), D::splat(1.0 / 3628800));
  e = D::add(D::mul(e, u), D::splat(1.0 / 362880));
  e = D::add(D::mul(e, u), D::splat(1.0 / 40320));
  e = D::add(D::mul(e, u), D::splat(1.0 / 5040));
  e = D::add(D::mul(e, u), D::splat(1.0 / 720));
  e = D::add(D::mul(e, u), D::splat(1.0 / 120));
  e = D::add(D::mul(e, u), D::splat(1.0 / 24));
  e = D::add(D::mul(e, u), D::splat(1.0 / 6));
  e = D::add(D::mul(e, u), D::splat(0.5));
  e = D::add(D::mul(e, u), one);
  e = D::add(D::mul(e, u), one);
  // 2^n: n + 1023 shifted into the exponent field (the low 12 bits of tr's bits hold n + the
  // 1.5·2^52 pattern, whose low 12 bits are 0).
  const V two_n = D::from_bits(D::shl52(D::add_bits(D::bits(tr), D::splat_bits(1023))));
  return D::mul(e, two_n);
}

// The lanes the double path covers: x in (0, inf), y finite (a NaN fails every comparison).
inline bool positive_finite(float x, float y) {
  return x > 0.0f && x < INFINITY && y > -INFINITY && y < INFINITY;
}

inline float pow_lane(float x, float y) {
  if (positive_finite(x, y))
    return static_cast<float>(
        pow_positive<ScalarD>(static_cast<double>(x), static_cast<double>(y)));
  return static_cast<float>(libm::pow(static_cast<double>(x), static_cast<double>(y)));
}

}  // namespace

float f32_pow_one(float x, float y) { return pow_lane(x, y); }

void f32_pow(std::size_t n, const float* x, const float* y, float* out) {
  std::size_t i = 0;
#if defined(__wasm_simd128__)
  const v128_t zero = wasm_f32x4_splat(0.0f), inf = wasm_f32x4_splat(INFINITY);
  for (; i + 4 <= n; i += 4) {
    const v128_t xv = wasm_v128_load(x + i), yv = wasm_v128_load(y + i);
    const v128_t ok = wasm_v128_and(wasm_v128_and(wasm_f32x4_gt(xv, zero), wasm_f32x4_lt(xv, inf)),
                                    wasm_f32x4_lt(wasm_f32x4_abs(yv), inf));
    const v128_t lo =
        pow_positive<WasmD>(wasm_f64x2_promote_low_f32x4(xv), wasm_f64x2_promote_low_f32x4(yv));
    const v128_t hi =
        pow_positive<WasmD>(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(xv, xv, 2, 3, 2, 3)),
                            wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(yv, yv, 2, 3, 2, 3)));
    const v128_t r = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo),
                                        wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
    if (wasm_i32x4_all_true(ok)) {
      wasm_v128_store(out + i, r);
    } else {  // read before the store: out may be x or y
      float xs[4], ys[4];
      wasm_v128_store(xs, xv);
      wasm_v128_store(ys, yv);
      wasm_v128_store(out + i, r);
      for (std::size_t j = 0; j < 4; ++j)
        if (!positive_finite(xs[j], ys[j])) out[i + j] = pow_lane(xs[j], ys[j]);
    }
  }
#endif
  for (; i < n; ++i) out[i] = pow_lane(x[i], y[i]);
}

}  // namespace rl::interp::simd
