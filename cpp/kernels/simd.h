// A thin SIMD vocabulary: the kernels' algorithms are written once against it (math_impl.h,
// matmul_impl.h) and instantiated per ISA. Scalar is just another instance, with a width of 1.
//
//   ScalarOps     one float; compiled with auto-vectorization off, so it stays scalar
//   WasmSimdOps   f32x4 from <wasm_simd128.h>; only when compiling for wasm with -msimd128
//
// Every operation is what its name says, lane by lane. pmin(a, b) is `b < a ? b : a` and pmax(a,
// b) is `a < b ? b : a`, so a NaN in `a` survives (std::fmin would drop it). Comparisons give a
// mask per lane (all ones where true, zero where not); select(m, a, b) takes a where m is set.
// Every operation rounds as IEEE 754 binary32 does, once, in every instance: no fused
// multiply-add (wasm SIMD 128 has none without relaxed SIMD), so an algorithm written against
// this vocabulary gives the same bits in every instance (tests/cpp/kernels/math_test.cpp checks
// it in wasm).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define RL_HAVE_WASMSIMD 1
#else
#define RL_HAVE_WASMSIMD 0
#endif

namespace rl::kernels {

struct ScalarOps {
  using V = float;
  using VI = std::uint32_t;
  static constexpr int kWidth = 1;
  static constexpr const char* kIsa = "scalar";

  static V load(const float* p) { return *p; }
  static void store(float* p, V v) { *p = v; }
  static void store_tail(float* p, V v, int count) {
    if (count > 0) *p = v;
  }
  static V splat(float x) { return x; }
  static V add(V a, V b) { return a + b; }
  static V sub(V a, V b) { return a - b; }
  static V mul(V a, V b) { return a * b; }
  static V div(V a, V b) { return a / b; }
  static V pmin(V a, V b) { return b < a ? b : a; }
  static VI bits(V v) {
    VI u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  }
  static V from_bits(VI u) {
    V v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
  static VI splat_bits(std::uint32_t u) { return u; }
  static VI and_bits(VI a, VI b) { return a & b; }
  static VI andnot_bits(VI a, VI b) { return a & ~b; }  // a with b's bits cleared
  static VI or_bits(VI a, VI b) { return a | b; }
  static VI add_bits(VI a, VI b) { return a + b; }
  static VI shl_bits(VI a, int s) { return a << s; }
  static VI shr_bits(VI a, int s) { return a >> s; }  // logical
  static VI xor_bits(VI a, VI b) { return a ^ b; }
  static V pmax(V a, V b) { return a < b ? b : a; }
  static V sqrt(V a) { return __builtin_sqrtf(a); }
  static VI lt(V a, V b) { return a < b ? ~0u : 0u; }
  static VI le(V a, V b) { return a <= b ? ~0u : 0u; }
  static VI eq(V a, V b) { return a == b ? ~0u : 0u; }
  static VI ne(V a, V b) { return a != b ? ~0u : 0u; }  // true for NaN
  static VI eq_bits(VI a, VI b) { return a == b ? ~0u : 0u; }
  static V select(VI m, V a, V b) { return from_bits((bits(a) & m) | (bits(b) & ~m)); }
  static bool any(VI m) { return m != 0; }
};

#if RL_HAVE_WASMSIMD
struct WasmSimdOps {
  using V = v128_t;
  using VI = v128_t;
  static constexpr int kWidth = 4;
  static constexpr const char* kIsa = "wasmsimd";

  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
  static void store_tail(float* p, V v, int count) {  // count in 1..3
    if (count & 2) {
      wasm_v128_store64_lane(p, v, 0);
      v = wasm_i64x2_shuffle(v, v, 1, 1);
      p += 2;
    }
    if (count & 1) wasm_v128_store32_lane(p, v, 0);
  }
  static V splat(float x) { return wasm_f32x4_splat(x); }
  static V add(V a, V b) { return wasm_f32x4_add(a, b); }
  static V sub(V a, V b) { return wasm_f32x4_sub(a, b); }
  static V mul(V a, V b) { return wasm_f32x4_mul(a, b); }
  static V div(V a, V b) { return wasm_f32x4_div(a, b); }
  static V pmin(V a, V b) { return wasm_f32x4_pmin(a, b); }
  static VI bits(V v) { return v; }
  static V from_bits(VI v) { return v; }
  static VI splat_bits(std::uint32_t u) { return wasm_i32x4_splat(static_cast<std::int32_t>(u)); }
  static VI and_bits(VI a, VI b) { return wasm_v128_and(a, b); }
  static VI andnot_bits(VI a, VI b) { return wasm_v128_andnot(a, b); }
  static VI or_bits(VI a, VI b) { return wasm_v128_or(a, b); }
  static VI add_bits(VI a, VI b) { return wasm_i32x4_add(a, b); }
  static VI shl_bits(VI a, int s) { return wasm_i32x4_shl(a, s); }
  static VI shr_bits(VI a, int s) { return wasm_u32x4_shr(a, s); }
  static VI xor_bits(VI a, VI b) { return wasm_v128_xor(a, b); }
  static V pmax(V a, V b) { return wasm_f32x4_pmax(a, b); }
  static V sqrt(V a) { return wasm_f32x4_sqrt(a); }
  static VI lt(V a, V b) { return wasm_f32x4_lt(a, b); }
  static VI le(V a, V b) { return wasm_f32x4_le(a, b); }
  static VI eq(V a, V b) { return wasm_f32x4_eq(a, b); }
  static VI ne(V a, V b) { return wasm_f32x4_ne(a, b); }
  static VI eq_bits(VI a, VI b) { return wasm_i32x4_eq(a, b); }
  static V select(VI m, V a, V b) { return wasm_v128_bitselect(a, b, m); }
  static bool any(VI m) { return wasm_v128_any_true(m); }
};
#endif

// The widest vocabulary this build has: what measurement loops outside the kernel registry use.
#if RL_HAVE_WASMSIMD
using WidestOps = WasmSimdOps;
#else
using WidestOps = ScalarOps;
#endif

}  // namespace rl::kernels
