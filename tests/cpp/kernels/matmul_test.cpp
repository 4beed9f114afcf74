// Every matmul variant of the registry against the naive double reference, at the lesson's
// rule |x − y| ≤ 2e-5 + 2e-5·|y|, on the lesson's inputs and on sizes derived from the tile.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "kernels/kernels.h"
#include "kernels/matmul_impl.h"

using namespace rl::kernels;
using Catch::Matchers::Contains;

namespace {

// Runs `variant` on m×k·k×n with inputs from `seed` and reports the first violation.
std::string violations(const MatmulVariant& variant, std::size_t m, std::size_t k, std::size_t n,
                       std::uint32_t seed) {
  auto shape = check_matmul_shape(double(m), double(k), double(n));
  if (!shape) return shape.error();
  auto buffers = allocate_matmul(shape.value());
  if (!buffers) return buffers.error();
  auto& b = buffers.value();
  fill_uniform(b.a.data(), m * k, seed);
  fill_uniform(b.b.data(), k * n, seed + 1);
  // Sentinels past C's end would not catch an overrun inside the malloc slack, so check that
  // C is fully written instead: start from NaN.
  for (std::size_t i = 0; i < m * n; ++i) b.c[i] = std::nanf("");
  auto check = check_matmul(variant, b);
  if (check->passed) return "";
  std::ostringstream out;
  const auto i = check->worst_index;
  out << variant.name << " m=" << m << " k=" << k << " n=" << n << " seed=" << seed << ": C["
      << i / n << "][" << i % n << "] = " << check->worst_value << ", reference "
      << check->worst_reference << " (a row " << i / n << ", b column " << i % n
      << "), error/allowed = " << check->worst_ratio;
  return out.str();
}

}  // namespace

TEST_CASE("every matmul variant reproduces the lesson's tanh(a@b) within 2e-5 + 2e-5|y|",
          "[kernel][matmul][lesson]") {
  for (const auto& variant : matmul_variants()) {
    auto buffers = allocate_matmul(check_matmul_shape(32, 16, 8).value());
    REQUIRE(buffers.ok());
    fill_lesson_inputs(buffers.value());
    CHECK(buffers.value().a[511] == 511.0f / 512);
    CHECK(buffers.value().b[127] == 127.0f / 128);
    auto check = check_matmul(variant, buffers.value());
    INFO(variant.name << ": max |x − y| = " << check->max_abs_error << " at index "
                      << check->worst_index << ": " << check->worst_value << " vs "
                      << check->worst_reference);
    CHECK(check->passed);
    CHECK(check->max_abs_error < 1e-5);
  }
}

TEST_CASE("matmul variants handle every m, k, n around the tile, tails included",
          "[kernel][matmul]") {
  for (const auto& variant : matmul_variants()) {
    const std::size_t mr = variant.mr, nr = variant.nr;
    for (std::size_t m = 1; m <= 2 * mr + 1; ++m) {
      for (std::size_t n = 1; n <= 2 * nr + 1; ++n) {
        for (std::size_t k : {1, 2, 3, 8, 17}) {
          const std::string v = violations(variant, m, k, n, std::uint32_t(m * 1000 + n * 10 + k));
          INFO(v);
          REQUIRE(v.empty());
        }
      }
    }
  }
}

TEST_CASE("matmul variants are right on primes, multiples of the tile and bigger sizes",
          "[kernel][matmul]") {
  struct Size {
    std::size_t m, k, n;
  };
  const Size sizes[] = {{7, 13, 29},   {29, 7, 13}, {13, 29, 7},   {32, 64, 48},
                        {67, 129, 71}, {1, 300, 1}, {128, 1, 128}, {64, 256, 64}};
  for (const auto& variant : matmul_variants()) {
    for (const auto& s : sizes) {
      const std::string v = violations(variant, s.m, s.k, s.n, 7);
      INFO(v);
      CHECK(v.empty());
    }
  }
}

TEST_CASE("the fused variant equals tanh of the plain one's output", "[kernel][matmul]") {
  auto shape = check_matmul_shape(9, 11, 13).value();
  for (const auto& fused : matmul_variants()) {
    if (!fused.fused_tanh) continue;
    for (const auto& plain : matmul_variants()) {
      if (plain.fused_tanh || std::string(plain.isa) != fused.isa) continue;
      auto b1 = allocate_matmul(shape), b2 = allocate_matmul(shape);
      fill_uniform(b1.value().a.data(), 99, 3);
      fill_uniform(b1.value().b.data(), 143, 4);
      fill_uniform(b2.value().a.data(), 99, 3);
      fill_uniform(b2.value().b.data(), 143, 4);
      fused.run(9, 11, 13, b1.value().a.data(), b1.value().b.data(), b1.value().c.data(),
                b1.value().packed.data());
      plain.run(9, 11, 13, b2.value().a.data(), b2.value().b.data(), b2.value().c.data(),
                b2.value().packed.data());
      std::vector<float> tanh_of_plain(117);
      for (const auto& t : tanh_variants()) {
        if (std::string(t.isa) != fused.isa) continue;
        t.fn(117, b2.value().c.data(), tanh_of_plain.data());
        for (std::size_t i = 0; i < 117; ++i) {
          INFO(fused.name << " vs " << t.name << "(" << plain.name << ") at " << i);
          CHECK(b1.value().c[i] == tanh_of_plain[i]);
        }
      }
    }
  }
}

TEST_CASE(
    "row blocks computed on their own, through row strides, equal the whole product bit for bit",
    "[kernel][matmul][blocks]") {
  // What the page's Worker pool does: B packed once, each Worker computing its rows of C.
  // Blocks start anywhere (not only on a tile boundary) and sit inside wider matrices.
  const std::size_t m = 23, k = 19, n = 21;
  for (const auto& variant : matmul_variants()) {
    auto whole = allocate_matmul(check_matmul_shape(m, k, n).value());
    REQUIRE(whole.ok());
    auto& w = whole.value();
    fill_uniform(w.a.data(), m * k, 11);
    fill_uniform(w.b.data(), k * n, 12);
    variant.run(m, k, n, w.a.data(), w.b.data(), w.c.data(), w.packed.data());

    std::vector<float> packed(variant.packed_floats(k, n));
    variant.pack(k, n, w.b.data(), packed.data());
    // A with 3 spare floats per row, C with 5; C's spare floats must stay untouched.
    const std::size_t a_stride = k + 3, c_stride = n + 5;
    std::vector<float> a(m * a_stride, std::nanf("")), c(m * c_stride, -7.0f);
    for (std::size_t i = 0; i < m; ++i) std::copy_n(w.a.data() + i * k, k, a.data() + i * a_stride);
    const std::size_t bounds[] = {0, 5, 6, 17, m};  // blocks of 5, 1, 11 and 6 rows
    for (std::size_t b = 0; b + 1 < std::size(bounds); ++b) {
      const std::size_t r0 = bounds[b], rows = bounds[b + 1] - r0;
      variant.compute(rows, k, n, a.data() + r0 * a_stride, a_stride, packed.data(),
                      c.data() + r0 * c_stride, c_stride);
    }
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < c_stride; ++j) {
        INFO(variant.name << " C[" << i << "][" << j << "]");
        if (j < n) {
          CHECK(std::memcmp(&c[i * c_stride + j], &w.c[i * n + j], sizeof(float)) == 0);
        } else {
          CHECK(c[i * c_stride + j] == -7.0f);
        }
      }
    }
  }
}

TEST_CASE("pack lays B out in zero-padded panels of nr columns, or copies it as is",
          "[kernel][matmul]") {
  const float b[] = {1, 2, 3,  // k = 2 rows of n = 3
                     4, 5, 6};
  std::vector<float> packed(8);
  pack_b_panels(2, 2, 3, b, packed.data());
  CHECK(packed == std::vector<float>{1, 2, 4, 5, 3, 0, 6, 0});
  for (const auto& v : matmul_variants()) {
    CHECK(v.packed_floats(2, 3) ==
          (v.packs_b ? std::size_t((3 + v.nr - 1) / v.nr * v.nr * 2) : 6u));
    std::vector<float> out(v.packed_floats(2, 3), -1);
    v.pack(2, 3, b, out.data());
    if (!v.packs_b) CHECK(out == std::vector<float>(b, b + 6));
  }
}

TEST_CASE("kernel shapes are refused by name: non-positive, non-integer, past the memory cap",
          "[kernel][matmul]") {
  CHECK(check_matmul_shape(0, 16, 8).error() == "m must be a positive integer, got 0");
  CHECK(check_matmul_shape(32, -1, 8).error() == "k must be a positive integer, got -1");
  CHECK(check_matmul_shape(32, 16, 2.5).error() == "n must be a positive integer, got 2.5");
  CHECK(check_matmul_shape(32, 16, NAN).error() == "n must be a positive integer, got NaN");
  // 4096³: 4·(3·2^24 + 2^24) bytes = exactly 256 MiB of A, B, C and packed B: allowed.
  CHECK(check_matmul_shape(4096, 4096, 4096).ok());
  // 4097³: 4·(3·4097² + 4104·4097) = 268681260 bytes ≈ 256.2 MiB: refused.
  auto big = check_matmul_shape(4097, 4097, 4097);
  REQUIRE_FALSE(big.ok());
  CHECK(
      big.error() ==
      "m=4097, k=4097, n=4097 needs 257 MiB of buffers (A, B, C, packed B), over the 256 MiB cap");
  auto huge = check_matmul_shape(1e12, 1, 1);
  REQUIRE_FALSE(huge.ok());
  CHECK_THAT(huge.error(), Contains("256 MiB cap"));
}

TEST_CASE("find_matmul names the variants it knows", "[kernel][matmul]") {
  CHECK(find_matmul("matmul_f32_4x2__scalar").ok());
  auto missing = find_matmul("matmul_f32_9x9__avx");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error(), Contains("variant must be one of matmul_f32_4x2__scalar"));
  CHECK_THAT(missing.error(), Contains("got \"matmul_f32_9x9__avx\""));
  CHECK(std::string(best_matmul(true).isa) == (RL_HAVE_WASMSIMD ? "wasmsimd" : "scalar"));
  CHECK(best_matmul(true).fused_tanh);
  CHECK_FALSE(best_matmul(false).fused_tanh);
}

TEST_CASE("the kernel's row blocks of A (kABlockBytes) give every row its exact product",
          "[kernel][matmul][blocks]") {
  // matmul_packed sweeps every panel of B for one block of A's rows at a time (a block holds at
  // most kABlockBytes of A, and at least one tile of mr rows). k is chosen so a block is two
  // tiles, then one tile (the bytes of a row allow less than one): m spans several blocks and
  // ends in a partial tile. Small integers keep every partial sum exact in f32 (|sum| ≤ 4k <
  // 2^24), so each element must equal the integer dot product, and a row computed on its own
  // (one block) must give the same bits.
  for (const auto& variant : matmul_variants()) {
    const std::size_t row_bytes = kABlockBytes / (2 * std::size_t(variant.mr));
    for (const std::size_t k : {row_bytes / sizeof(float), row_bytes / sizeof(float) * 2 + 4}) {
      const std::size_t m = 5 * std::size_t(variant.mr) + 3, n = std::size_t(variant.nr) + 5;
      auto made = allocate_matmul(check_matmul_shape(double(m), double(k), double(n)).value());
      REQUIRE(made.ok());
      auto& w = made.value();
      for (std::size_t i = 0; i < m * k; ++i) w.a[i] = float(int((i * 7 + 3) % 5) - 2);
      for (std::size_t i = 0; i < k * n; ++i) w.b[i] = float(int((i * 11 + 1) % 5) - 2);
      variant.run(m, k, n, w.a.data(), w.b.data(), w.c.data(), w.packed.data());
      std::vector<float> row(n);
      for (std::size_t i = 0; i < m; ++i) {
        variant.compute(1, k, n, w.a.data() + i * k, k, w.packed.data(), row.data(), n);
        for (std::size_t j = 0; j < n; ++j) {
          double exact = 0;
          for (std::size_t q = 0; q < k; ++q) exact += double(w.a[i * k + q]) * w.b[q * n + j];
          INFO(variant.name << " k=" << k << " C[" << i << "][" << j << "]");
          if (!variant.fused_tanh) CHECK(w.c[i * n + j] == float(exact));
          CHECK(std::memcmp(&row[j], &w.c[i * n + j], sizeof(float)) == 0);
        }
      }
    }
  }
}
