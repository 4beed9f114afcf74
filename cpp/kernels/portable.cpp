// The portable instances: the same scalar-vocabulary algorithm with a 4×8 tile, compiled
// natively with -O3 -march=native and auto-vectorization on. Only the native benchmark
// build defines RL_HAVE_PORTABLE; it is the "what a native compiler makes of the portable
// code" row of scripts/bench.
#include "kernels/kernels.h"
#include "kernels/matmul_impl.h"
#include "kernels/simd.h"

namespace rl::kernels {

namespace {
// A type of this file's own, so these template instances cannot be merged with another
// file's instances of the same templates (compiled with other flags) at link time.
struct Ops : ScalarOps {};
}  // namespace

void matmul_f32_4x8__portable(std::size_t m, std::size_t k, std::size_t n, const float* a,
                              std::size_t a_stride, const float* packed_b, float* c,
                              std::size_t c_stride) {
  matmul_packed<Ops, 4, 8, false>(m, k, n, a, a_stride, packed_b, c, c_stride);
}

void tanh_matmul_f32_4x8__portable(std::size_t m, std::size_t k, std::size_t n, const float* a,
                                   std::size_t a_stride, const float* packed_b, float* c,
                                   std::size_t c_stride) {
  matmul_packed<Ops, 4, 8, true>(m, k, n, a, a_stride, packed_b, c, c_stride);
}

void tanh_f32__portable_expm1(std::size_t count, const float* x, float* y) {
  tanh_array<Ops>(count, x, y);
}

void math_f32__portable(MathFn f, std::size_t count, const float* x, float* y) {
  math_array<Ops>(f, count, x, y);
}

}  // namespace rl::kernels
