// Half-precision formats in software: IEEE binary16 (f16) and bfloat16 (bf16), as their 16 bits.
//
//   f16:  1 sign, 5 exponent (bias 15), 10 fraction bits. Largest finite 65504 = 0x7BFF;
//         smallest normal 2^-14 = 0x0400; smallest subnormal 2^-24 = 0x0001.
//   bf16: 1 sign, 8 exponent (bias 127), 7 fraction bits: the top half of an f32. Largest
//         finite 0x7F7F = (2 - 2^-7)·2^127; smallest subnormal 2^-133 = 0x0001.
//
// Widening (f16/bf16 → f32, hence → f64) is exact. Narrowing rounds to nearest, ties to even,
// with subnormal results, and overflows to ±inf at half an ulp past the largest finite value
// (f16: |x| ≥ 65520). Signs are kept, −0 included. A NaN stays a NaN with its sign, its quiet
// bit (the top fraction bit) and the top bits of its payload; a signalling NaN whose payload
// lived only in the dropped bits gets payload 1, so it stays a (signalling) NaN, not an inf.
//
// double → f16/bf16 rounds the double directly. Going through float would round twice:
// 1 + 2^-11 + 2^-40 (a double) rounds to float 1 + 2^-11, an f16 tie that goes to even (1.0),
// while the double itself lies above the tie and rounds to 1 + 2^-10.
//
// Bit manipulation on integers (one exact float multiply for f16 subnormals) and a few
// branches, so they can serve as the interpreter's f16/bf16 loads and stores. All noexcept:
// under Emscripten's JS exception handling (-fexceptions, as the Catch2 tests are built), a call
// that may throw goes through a JS trampoline, and a float that passes through JS loses a
// signalling NaN (it comes back quiet); calls of noexcept functions stay in wasm.
#pragma once

#include <cstdint>
#include <cstring>

namespace rl {

inline std::uint32_t float_bits(float f) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float float_from_bits(std::uint32_t u) noexcept {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline std::uint64_t double_bits(double d) noexcept {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline double double_from_bits(std::uint64_t u) noexcept {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

// value / 2^shift rounded to the nearest integer, ties to even; 1 ≤ shift ≤ 63. The dropped
// bits are compared with half of 2^shift; on a tie the kept value's low bit decides.
inline std::uint64_t shift_right_round_even(std::uint64_t value, unsigned shift) noexcept {
  const std::uint64_t kept = value >> shift;
  const std::uint64_t dropped = value & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  return kept + ((dropped > half || (dropped == half && (kept & 1))) ? 1 : 0);
}

// ---- widening: exact ------------------------------------------------------------------------

inline float f16_to_f32(std::uint16_t h) noexcept {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu;
  const std::uint32_t fraction = h & 0x3FFu;
  if (exponent == 0x1F)  // inf, or NaN with its payload moved to the top of f32's fraction
    return float_from_bits(sign | 0x7F800000u | (fraction << 13));
  if (exponent == 0) {
    // ±0, or a subnormal fraction·2^-24: exact in float (at most 10 significant bits,
    // far above float's subnormal range).
    const float magnitude = static_cast<float>(fraction) * 0x1p-24f;
    return float_from_bits(sign | float_bits(magnitude));
  }
  // Normal: rebias the exponent from 15 to 127 (+112), widen the fraction by 13 zero bits.
  return float_from_bits(sign | ((exponent + 112) << 23) | (fraction << 13));
}

inline float bf16_to_f32(std::uint16_t b) noexcept {
  return float_from_bits(std::uint32_t{b} << 16);
}

// float → double keeping a NaN's bits: the hardware conversion may quiet a signalling NaN
// (x86 does) or replace the payload (wasm's f64.promote_f32 may), so NaNs are widened by hand.
inline double f32_to_f64_exact(float f) noexcept {
  const std::uint32_t u = float_bits(f);
  if ((u & 0x7FFFFFFFu) <= 0x7F800000u) return static_cast<double>(f);
  return double_from_bits((std::uint64_t{u & 0x80000000u} << 32) | 0x7FF0000000000000ull |
                          (std::uint64_t{u & 0x7FFFFFu} << 29));
}

inline double f16_to_f64(std::uint16_t h) noexcept { return f32_to_f64_exact(f16_to_f32(h)); }
inline double bf16_to_f64(std::uint16_t b) noexcept { return f32_to_f64_exact(bf16_to_f32(b)); }

// ---- narrowing: round to nearest, ties to even -------------------------------------------------

inline std::uint16_t f32_to_f16(float f) noexcept {
  const std::uint32_t x = float_bits(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t a = x & 0x7FFFFFFFu;  // magnitude bits
  if (a > 0x7F800000u) {                    // NaN: keep quiet bit and top payload bits
    const std::uint32_t payload = (a >> 13) & 0x3FFu;
    return static_cast<std::uint16_t>(sign | 0x7C00u | (payload ? payload : 1u));
  }
  std::uint64_t h;
  if (a >= 0x38800000u) {
    // |x| ≥ 2^-14, f16's normal range: f32 and f16 encodings are both exponent·fraction, so
    // dropping 13 fraction bits with rounding and rebiasing (127 → 15: −112 in the exponent
    // field) gives the f16 encoding; a carry out of the fraction steps the exponent, and
    // anything from 65520 up reaches 0x7C00 (inf), where it is clamped.
    h = shift_right_round_even(a, 13) - (std::uint64_t{112} << 10);
    if (h > 0x7C00u) h = 0x7C00u;  // also f32 inf
  } else {
    // Subnormal f16: count units of 2^-24. |x| = significand·2^(E-150) for f32's biased
    // exponent E ≥ 1 (f32 subnormals are < 2^-126, far below half a unit: they give 0).
    const std::uint32_t e = a >> 23;
    if (e < 102) return sign;  // |x| < 2^-25, under half of 2^-24
    const std::uint64_t significand = (a & 0x7FFFFFu) | 0x800000u;
    h = shift_right_round_even(significand, 126 - e);  // 2^(E-150) / 2^-24 = 2^-(126-E)
  }
  return static_cast<std::uint16_t>(sign | h);
}

inline std::uint16_t f32_to_bf16(float f) noexcept {
  const std::uint32_t x = float_bits(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t a = x & 0x7FFFFFFFu;
  if (a > 0x7F800000u) {
    const std::uint32_t payload = (a >> 16) & 0x7Fu;
    return static_cast<std::uint16_t>(sign | 0x7F80u | (payload ? payload : 1u));
  }
  // bf16 has f32's exponent field, so its encodings are f32's with 16 fraction bits dropped,
  // subnormals included (the unit 2^-149·2^16 = 2^-133 is bf16's subnormal step). A carry past
  // the largest finite value lands exactly on 0x7F80 (inf).
  return static_cast<std::uint16_t>(sign | shift_right_round_even(a, 16));
}

inline std::uint16_t f64_to_f16(double d) noexcept {
  const std::uint64_t x = double_bits(d);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
  const std::uint64_t a = x & 0x7FFFFFFFFFFFFFFFull;
  if (a > 0x7FF0000000000000ull) {  // NaN: the quiet bit is bit 51 here, bit 9 in f16
    const std::uint64_t payload = (a >> 42) & 0x3FFu;
    return static_cast<std::uint16_t>(sign | 0x7C00u | (payload ? payload : 1u));
  }
  const std::uint64_t e = a >> 52;  // biased by 1023
  std::uint64_t h;
  if (e >= 1023 - 14) {
    // Normal f16 range: drop 42 of 52 fraction bits, rebias 1023 → 15 (−1008); clamp to inf.
    h = shift_right_round_even(a, 42);
    h = h >= (std::uint64_t{1008} << 10) + 0x7C00u ? 0x7C00u : h - (std::uint64_t{1008} << 10);
  } else {
    // Subnormal f16, units of 2^-24: |x| = significand·2^(E-1075), so shift by 1051 − E.
    // From E < 988 (|x| < 2^-35) the shift passes 63 and the value is far under half a unit;
    // double subnormals (E = 0) are among them.
    if (e < 988) return sign;
    const std::uint64_t significand = (a & 0xFFFFFFFFFFFFFull) | (std::uint64_t{1} << 52);
    h = shift_right_round_even(significand, static_cast<unsigned>(1051 - e));
  }
  return static_cast<std::uint16_t>(sign | h);
}

inline std::uint16_t f64_to_bf16(double d) noexcept {
  const std::uint64_t x = double_bits(d);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
  const std::uint64_t a = x & 0x7FFFFFFFFFFFFFFFull;
  if (a > 0x7FF0000000000000ull) {  // NaN: quiet bit 51 → bf16 bit 6
    const std::uint64_t payload = (a >> 45) & 0x7Fu;
    return static_cast<std::uint16_t>(sign | 0x7F80u | (payload ? payload : 1u));
  }
  const std::uint64_t e = a >> 52;
  std::uint64_t b;
  if (e >= 1023 - 126) {
    // Normal bf16 range: drop 45 of 52 fraction bits, rebias 1023 → 127 (−896); clamp to inf.
    b = shift_right_round_even(a, 45);
    b = b >= (std::uint64_t{896} << 7) + 0x7F80u ? 0x7F80u : b - (std::uint64_t{896} << 7);
  } else {
    // Subnormal bf16, units of 2^-133: |x| = significand·2^(E-1075), so shift by 942 − E.
    if (e < 879) return sign;  // shift past 63: |x| < 2^-143, far under half a unit
    const std::uint64_t significand = (a & 0xFFFFFFFFFFFFFull) | (std::uint64_t{1} << 52);
    b = shift_right_round_even(significand, static_cast<unsigned>(942 - e));
  }
  return static_cast<std::uint16_t>(sign | b);
}

}  // namespace rl
