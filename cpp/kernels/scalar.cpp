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

void tanh_f32__scalar_expm1(std::size_t count, const float* x, float* y) {
  tanh_array<Ops>(count, x, y);
}

}  // namespace rl::kernels
