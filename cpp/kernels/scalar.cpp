// The scalar instances. CMake compiles this file with auto-vectorization off
// (-fno-vectorize -fno-slp-vectorize for clang, -fno-tree-vectorize for g++), so "scalar"
// stays a scalar baseline in the benchmark.
#include "kernels/kernels.h"
#include "kernels/matmul_impl.h"
#include "kernels/simd.h"

namespace rl::kernels {

namespace {
// A type of this file's own, so these template instances cannot be merged with another
// file's instances of the same templates (compiled with other flags) at link time.
struct Ops : ScalarOps {};
}  // namespace

void matmul_f32_4x2__scalar(std::size_t m, std::size_t k, std::size_t n, const float* a,
                            const float* b, float* c, float* packed) {
  matmul_tiled<Ops, 4, 2, false>(m, k, n, a, b, c, packed);
}

void tanh_matmul_f32_4x2__scalar(std::size_t m, std::size_t k, std::size_t n, const float* a,
                                 const float* b, float* c, float* packed) {
  matmul_tiled<Ops, 4, 2, true>(m, k, n, a, b, c, packed);
}

// The textbook triple loop, for contrast: one accumulator, B read down a column (stride n).
// It shows what register blocking and packing buy before any SIMD.
void matmul_f32_1x1__scalar_naive(std::size_t m, std::size_t k, std::size_t n, const float* a,
                                  const float* b, float* c, float* /*packed*/) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float sum = 0;
      for (std::size_t kk = 0; kk < k; ++kk) sum += a[i * k + kk] * b[kk * n + j];
      c[i * n + j] = sum;
    }
  }
}

void tanh_f32__scalar_expm1(std::size_t count, const float* x, float* y) {
  tanh_array<Ops>(count, x, y);
}

}  // namespace rl::kernels
