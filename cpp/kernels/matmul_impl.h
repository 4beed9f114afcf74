// C = A·B or C = tanh(A·B), f32, row-major, written once against the SIMD vocabulary.
//
// Packing is split from compute: pack_b (kernels.cpp) lays B out once in panels of
// NR = NR_VECS·W columns (zero-padded past n), so the inner loop reads B with unit stride, and
// the compute below reads that packed B. A block of rows of A and C can then be computed on its
// own (a Worker of the page's pool gets its rows and the packed B): rows are independent, so a
// row gets the same bits whichever block computes it. A and C are read and written through row
// strides (a_stride ≥ k, c_stride ≥ n floats), so a block may sit inside a larger matrix.
//
// Rows are taken in blocks of A of at most kABlockBytes (a multiple of MR rows, at least MR): for
// each block every panel of B is swept, so the block's rows of A are read from L2 once per panel
// instead of all of A once per panel (at 512³ all of A is 1 MiB, past this machine's 1 MiB L2 with
// B beside it, so every panel read it again from L3: the BLIS/GotoBLAS blocking, k not split).
// A block's panel sweep reads the packed B from L3 at most once per block.
//
// Each MR×NR tile of C is held in registers across the whole k loop: per k step, NR_VECS loads
// of B, MR splats of A, MR·NR_VECS multiply-adds. Rows past m re-read the last valid row of A
// and are not stored; columns past n are padding and are not stored; k needs no tail. tanh,
// when fused, is applied to the tile in registers, so the product is never written and read back.
#pragma once

#include <algorithm>
#include <cstddef>

#include "kernels/math_impl.h"

namespace rl::kernels {

// Bytes of A a row block holds (matmul_packed): a quarter of a 512 KiB L2, the smallest of the
// cores the page meets (this machine's AMD EPYC has 1 MiB per core).
constexpr std::size_t kABlockBytes = 128 * 1024;

template <class Ops, int MR, int NR_VECS, bool kTanh>
void matmul_packed(std::size_t m, std::size_t k, std::size_t n, const float* a,
                   std::size_t a_stride, const float* packed, float* c, std::size_t c_stride) {
  using V = typename Ops::V;
  constexpr int W = Ops::kWidth;
  constexpr int NR = NR_VECS * W;

  const std::size_t block_rows = std::max<std::size_t>(
      MR, kABlockBytes / (sizeof(float) * std::max<std::size_t>(k, 1)) / MR * MR);
  for (std::size_t block0 = 0; block0 < m; block0 += block_rows) {
    const std::size_t block_end = std::min(m, block0 + block_rows);
    for (std::size_t col0 = 0; col0 < n; col0 += NR) {
      const float* panel = packed + col0 * k;  // panel p starts at p·NR·k = col0·k
      const int cols = static_cast<int>(std::min<std::size_t>(NR, n - col0));
      for (std::size_t row0 = block0; row0 < block_end; row0 += MR) {
        const int rows = static_cast<int>(std::min<std::size_t>(MR, m - row0));
        const float* arow[MR];
        for (int r = 0; r < MR; ++r) arow[r] = a + (row0 + std::min(r, rows - 1)) * a_stride;

        V acc[MR][NR_VECS];
        for (int r = 0; r < MR; ++r)
          for (int v = 0; v < NR_VECS; ++v) acc[r][v] = Ops::splat(0.0f);

        const float* bp = panel;
        for (std::size_t kk = 0; kk < k; ++kk, bp += NR) {
          // Fully unrolled, so the tile lives in registers (and g++ can SLP-vectorize the
          // scalar-vocabulary instance).
          V bv[NR_VECS];
#pragma GCC unroll 16
          for (int v = 0; v < NR_VECS; ++v) bv[v] = Ops::load(bp + v * W);
#pragma GCC unroll 16
          for (int r = 0; r < MR; ++r) {
            const V av = Ops::splat(arow[r][kk]);
#pragma GCC unroll 16
            for (int v = 0; v < NR_VECS; ++v) acc[r][v] = Ops::add(acc[r][v], Ops::mul(av, bv[v]));
          }
        }

        for (int r = 0; r < rows; ++r) {
          float* crow = c + (row0 + r) * c_stride + col0;
          for (int v = 0; v < NR_VECS; ++v) {
            V out = acc[r][v];
            if (kTanh) out = tanh_v<Ops>(out);
            const int left = cols - v * W;
            if (left >= W) {
              Ops::store(crow + v * W, out);
            } else if (left > 0) {
              Ops::store_tail(crow + v * W, out, left);
            }
          }
        }
      }
    }
  }
}

}  // namespace rl::kernels
