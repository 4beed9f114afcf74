// f16 and bf16 conversions (common/float16.h): exhaustive over the 65536 patterns of each, and
// narrowing checked against a slow reference that finds the nearest value by search.
#include "common/float16.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "catch.hpp"

using namespace rl;

namespace {

// The function pointers are noexcept like the functions: a call through a pointer that may
// throw goes through a JS trampoline in the wasm tests, which quiets signalling NaNs in transit.
struct Half {
  const char* name;
  int exponent_bits, fraction_bits;
  float (*to_f32)(std::uint16_t) noexcept;
  std::uint16_t (*from_f32)(float) noexcept;
  std::uint16_t (*from_f64)(double) noexcept;
};

const Half kF16{"f16", 5, 10, f16_to_f32, f32_to_f16, f64_to_f16};
const Half kBF16{"bf16", 8, 7, bf16_to_f32, f32_to_bf16, f64_to_bf16};

int bias(const Half& h) { return (1 << (h.exponent_bits - 1)) - 1; }
std::uint16_t inf_bits(const Half& h) {
  return static_cast<std::uint16_t>(((1u << h.exponent_bits) - 1) << h.fraction_bits);
}

// The value of a finite pattern from the definition: (−1)^s · 2^(e−bias) · (1 + f/2^m) for
// normal e, (−1)^s · 2^(1−bias) · f/2^m for e = 0.
double definition(const Half& h, std::uint16_t bits) {
  const int e = (bits >> h.fraction_bits) & ((1 << h.exponent_bits) - 1);
  const int f = bits & ((1 << h.fraction_bits) - 1);
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const double scale = std::ldexp(1.0, -h.fraction_bits);
  if (e == 0) return sign * std::ldexp(f * scale, 1 - bias(h));
  return sign * std::ldexp(1.0 + f * scale, e - bias(h));
}

// Slow reference rounding: the positive finite values in encoding order, then the value the
// next encoding (inf) would have had with an unbounded exponent, 2^(emax+1). x rounds to the
// lower of its two neighbours below their midpoint, to the upper above it, and to the even
// encoding on it. Midpoints of f16/bf16 neighbours have at most 12 significant bits, so they
// and the comparisons are exact in double.
struct Reference {
  const Half& h;
  std::vector<double> values;
  explicit Reference(const Half& half) : h(half) {
    for (std::uint32_t b = 0; b < inf_bits(h); ++b)
      values.push_back(definition(h, static_cast<std::uint16_t>(b)));
    values.push_back(
        std::ldexp(1.0, (1 << (h.exponent_bits - 1))));  // 2^16 for f16, 2^128 for bf16
  }
  std::uint16_t round(double x) const {
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const double a = std::fabs(x);
    if (a >= values.back()) return sign | inf_bits(h);
    const auto upper = std::upper_bound(values.begin(), values.end(), a);  // first value > a
    const std::size_t hi = static_cast<std::size_t>(upper - values.begin());
    const std::size_t lo = hi - 1;  // values[lo] ≤ a < values[hi]
    if (values[lo] == a) return static_cast<std::uint16_t>(sign | lo);
    const double mid = (values[lo] + values[hi]) / 2;
    std::size_t pick = a < mid ? lo : a > mid ? hi : (lo % 2 == 0 ? lo : hi);
    return static_cast<std::uint16_t>(sign | pick);
  }
};

bool is_nan16(const Half& h, std::uint16_t b) { return (b & 0x7FFF) > inf_bits(h); }

}  // namespace

TEST_CASE("f16 and bf16 widen exactly: every one of the 65536 patterns matches its definition",
          "[float16]") {
  for (const Half* h : {&kF16, &kBF16}) {
    INFO(h->name);
    int checked = 0;
    for (std::uint32_t b = 0; b < 65536; ++b) {
      const auto bits = static_cast<std::uint16_t>(b);
      const float f = h->to_f32(bits);
      if (is_nan16(*h, bits)) {
        // A NaN keeps its sign, its quiet bit and its payload at the top of f32's fraction.
        INFO("pattern 0x" << std::hex << b);
        REQUIRE(std::isnan(f));
        CHECK(std::signbit(f) == ((b & 0x8000) != 0));
        CHECK(((float_bits(f) >> 22) & 1) == ((b >> (h->fraction_bits - 1)) & 1));
        CHECK(((float_bits(f) & 0x7FFFFF) >> (23 - h->fraction_bits)) ==
              (b & ((1u << h->fraction_bits) - 1)));
      } else if ((b & 0x7FFF) == inf_bits(*h)) {
        CHECK(std::isinf(f));
        CHECK(std::signbit(f) == ((b & 0x8000) != 0));
      } else {
        const double expected = definition(*h, bits);
        if (static_cast<double>(f) != expected || std::signbit(f) != std::signbit(expected)) {
          FAIL_CHECK(h->name << " 0x" << std::hex << b << std::dec << ": got " << f << ", expected "
                             << expected);
        }
      }
      ++checked;
    }
    CHECK(checked == 65536);
  }
}

TEST_CASE("f16 and bf16 round-trip all 65536 patterns through f32 and f64, NaN payloads included",
          "[float16]") {
  for (const Half* h : {&kF16, &kBF16}) {
    INFO(h->name);
    int same = 0;
    for (std::uint32_t b = 0; b < 65536; ++b) {
      const auto bits = static_cast<std::uint16_t>(b);
      const float f = h->to_f32(bits);
      const std::uint16_t via_f32 = h->from_f32(f);
      const std::uint16_t via_f64 = h->from_f64(h == &kF16 ? f16_to_f64(bits) : bf16_to_f64(bits));
      if (via_f32 == bits && via_f64 == bits) {
        ++same;
      } else {
        FAIL_CHECK("0x" << std::hex << b << ": via f32 0x" << via_f32 << ", via f64 0x" << via_f64);
      }
    }
    CHECK(same == 65536);
  }
}

TEST_CASE(
    "f32 and f64 round to f16 and bf16 like the slow reference, at every midpoint and at random",
    "[float16]") {
  for (const Half* h : {&kF16, &kBF16}) {
    INFO(h->name);
    const Reference ref(*h);
    std::vector<double> inputs;
    // Every value, every midpoint between neighbours (ties), and the doubles and floats just
    // either side of each midpoint; also each value's own neighbours.
    for (std::size_t i = 0; i + 1 < ref.values.size(); ++i) {
      const double v = ref.values[i], mid = (ref.values[i] + ref.values[i + 1]) / 2;
      for (double x : {v, mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY),
                       static_cast<double>(std::nextafter(static_cast<float>(mid), 0.0f)),
                       static_cast<double>(std::nextafter(static_cast<float>(mid), INFINITY))}) {
        inputs.push_back(x);
        inputs.push_back(-x);
      }
    }
    std::mt19937_64 rng(20240611);
    for (int i = 0; i < 100000; ++i) {
      // Random f32 patterns, and doubles with exponents around the format's range.
      inputs.push_back(static_cast<double>(float_from_bits(static_cast<std::uint32_t>(rng()))));
      const int span = (1 << (h->exponent_bits - 1)) + 30;
      const int e = static_cast<int>(rng() % static_cast<std::uint64_t>(2 * span)) - span;
      const std::uint64_t fraction = rng() & 0xFFFFFFFFFFFFFull;
      inputs.push_back(std::ldexp(1.0 + std::ldexp(static_cast<double>(fraction), -52), e) *
                       ((rng() & 1) ? -1 : 1));
    }
    for (double x : {0.0, -0.0, 1e-300, -1e-300, 4.9406564584124654e-324, 1e300, -1e300,
                     (double)INFINITY, -(double)INFINITY})
      inputs.push_back(x);

    int agree = 0, from_f32 = 0;
    for (double x : inputs) {
      if (std::isnan(x)) continue;
      const std::uint16_t expected = ref.round(x);
      const std::uint16_t got = h->from_f64(x);
      if (got == expected) {
        ++agree;
      } else {
        FAIL_CHECK(h->name << " from f64 " << x << " (0x" << std::hex << double_bits(x)
                           << "): got 0x" << got << ", reference 0x" << expected);
      }
      const float xf = static_cast<float>(x);
      if (static_cast<double>(xf) == x) {  // x is a float: the f32 path must agree too
        ++from_f32;
        const std::uint16_t got32 = h->from_f32(xf);
        if (got32 != expected)
          FAIL_CHECK(h->name << " from f32 " << x << ": got 0x" << std::hex << got32
                             << ", reference 0x" << expected);
      }
    }
    CHECK(agree == static_cast<int>(std::count_if(inputs.begin(), inputs.end(),
                                                  [](double x) { return !std::isnan(x); })));
    CHECK(from_f32 > 100000);
  }
}

TEST_CASE("double to f16 rounds once: a double just above an f16 tie does not double-round to even",
          "[float16]") {
  // 1 + 2^-11 is the midpoint between f16 1.0 (0x3C00) and 1 + 2^-10 (0x3C01). The double
  // 1 + 2^-11 + 2^-40 lies above it and rounds up; through float it first becomes exactly the
  // midpoint (2^-40 is below float's half ulp 2^-24), and then ties to even: 0x3C00.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(f64_to_f16(x) == 0x3C01);
  CHECK(f32_to_f16(static_cast<float>(x)) == 0x3C00);
  // The same for bf16: 1 + 2^-8 is the tie between 0x3F80 and 0x3F81.
  const double y = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  CHECK(f64_to_bf16(y) == 0x3F81);
  CHECK(f32_to_bf16(static_cast<float>(y)) == 0x3F80);
}

TEST_CASE("f16 and bf16 narrowing keeps NaN a NaN with its sign and quiet bit", "[float16]") {
  using Row = std::tuple<std::uint32_t, std::uint16_t, std::uint16_t>;  // f32 bits, f16, bf16
  auto row = GENERATE(table<std::uint32_t, std::uint16_t, std::uint16_t>({
      Row{0x7FC00000u, 0x7E00, 0x7FC0},  // the default quiet NaN
      Row{0xFFC00000u, 0xFE00, 0xFFC0},  // negative quiet NaN
      Row{0x7FC00001u, 0x7E00, 0x7FC0},  // payload below both formats' bits: dropped, still quiet
      Row{0x7F800001u, 0x7C01, 0x7F81},  // signalling NaN, payload only in dropped bits: payload 1
      Row{0xFF800001u, 0xFC01, 0xFF81},  // the same, negative
      Row{0x7FA00000u, 0x7D00, 0x7FA0},  // signalling NaN with its top payload bit: kept
      Row{0x7FFFFFFFu, 0x7FFF, 0x7FFF},  // all payload bits set
  }));
  const float f = float_from_bits(std::get<0>(row));
  INFO("f32 0x" << std::hex << std::get<0>(row));
  CHECK(f32_to_f16(f) == std::get<1>(row));
  CHECK(f32_to_bf16(f) == std::get<2>(row));
  // From f64 the payload comes from the same top bits (the f32's payload widened by 29 zeros;
  // widened by hand, as a hardware float → double conversion may quiet a signalling NaN).
  const double d = f32_to_f64_exact(f);
  REQUIRE(double_bits(d) >> 29 == ((std::uint64_t{std::get<0>(row) & 0x80000000u} << 3) |
                                   (0x7FFull << 23) | (std::get<0>(row) & 0x7FFFFFu)));
  CHECK(f64_to_f16(d) == std::get<1>(row));
  CHECK(f64_to_bf16(d) == std::get<2>(row));
}

TEST_CASE("f16 and bf16 edges: signed zeros, subnormals, the largest finite value and overflow",
          "[float16]") {
  using Row = std::tuple<double, std::uint16_t, std::uint16_t>;  // x, f16 bits, bf16 bits
  auto row = GENERATE(table<double, std::uint16_t, std::uint16_t>({
      Row{0.0, 0x0000, 0x0000}, Row{-0.0, 0x8000, 0x8000},
      Row{0x1p-24, 0x0001, 0x3380},         // f16's smallest subnormal; bf16 normal 2^-24
      Row{0x1p-25, 0x0000, 0x3300},         // f16: exactly half of 2^-24, ties to even 0
      Row{0x1.000002p-25, 0x0001, 0x3300},  // f16: just above that half rounds up
      Row{0x1.8p-24, 0x0002, 0x33C0},       // 1.5·2^-24: tie between 1 and 2 units, to even 2
      Row{0x1.ffcp-15, 0x0400, 0x3880},     // 1023.5 units of 2^-24: ties up (to even) to 2^-14
      Row{65504.0, 0x7BFF, 0x4780},         // f16's largest finite; bf16 rounds 65504 to 65536
      Row{65519.99, 0x7BFF, 0x4780},        // below f16's overflow threshold 65520
      Row{65520.0, 0x7C00, 0x4780},         // the threshold: the tie goes to even, inf
      Row{-1e6, 0xFC00, 0xC974},            // -1e6 in bf16: 0xC974 = -(1 + 116/128)·2^19 = -999424
      Row{0x1p-133, 0x0000, 0x0001},        // bf16's smallest subnormal
      Row{0x1p-134, 0x0000, 0x0000},        // bf16: half of it, ties to even 0
      Row{0x1.fep+127, 0x7C00, 0x7F7F},     // bf16's largest finite (1 + 127/128)·2^127
      Row{0x1.ffp+127, 0x7C00, 0x7F80},     // its overflow threshold: ties to even, inf
      Row{0.1, 0x2E66, 0x3DCD},             // 0.1 → 1.6·2^-4 rounds to 0x2E66 / 0x3DCD
  }));
  const double x = std::get<0>(row);
  INFO("x = " << x);
  CHECK(f64_to_f16(x) == std::get<1>(row));
  CHECK(f64_to_bf16(x) == std::get<2>(row));
  const float xf = static_cast<float>(x);
  if (static_cast<double>(xf) == x) {
    CHECK(f32_to_f16(xf) == std::get<1>(row));
    CHECK(f32_to_bf16(xf) == std::get<2>(row));
  }
}
