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
                            std::size_t a_stride, const float* packed_b, float* c,
                            std::size_t c_stride) {
  matmul_packed<Ops, 4, 2, false>(m, k, n, a, a_stride, packed_b, c, c_stride);
}

void tanh_matmul_f32_4x2__scalar(std::size_t m, std::size_t k, std::size_t n, const float* a,
                                 std::size_t a_stride, const float* packed_b, float* c,
                                 std::size_t c_stride) {
  matmul_packed<Ops, 4, 2, true>(m, k, n, a, a_stride, packed_b, c, c_stride);
}

// The textbook triple loop, for contrast: one accumulator, B read down a column (stride n).
// It shows what register blocking and packing buy before any SIMD. Its "packed" B is a plain
// copy of B (packs_b is false in the registry).
void matmul_f32_1x1__scalar_naive(std::size_t m, std::size_t k, std::size_t n, const float* a,
                                  std::size_t a_stride, const float* b, float* c,
                                  std::size_t c_stride) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float sum = 0;
      for (std::size_t kk = 0; kk < k; ++kk) sum += a[i * a_stride + kk] * b[kk * n + j];
      c[i * c_stride + j] = sum;
    }
  }
}

void tanh_f32__scalar_expm1(std::size_t count, const float* x, float* y) {
  tanh_array<Ops>(count, x, y);
}

void math_f32__scalar(MathFn f, std::size_t count, const float* x, float* y) {
  math_array<Ops>(f, count, x, y);
}

}  // namespace rl::kernels
