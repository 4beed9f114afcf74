// The wasm SIMD instances (f32x4). Compiled only in the wasm build, with -msimd128.
#include "kernels/kernels.h"
#include "kernels/matmul_impl.h"
#include "kernels/simd.h"

#if !RL_HAVE_WASMSIMD
#error "wasmsimd.cpp needs -msimd128 (wasm build only)"
#endif

namespace rl::kernels {

namespace {
// A type of this file's own, so these template instances cannot be merged with another
// file's instances of the same templates (compiled with other flags) at link time.
struct Ops : WasmSimdOps {};
}  // namespace

void matmul_f32_4x8__wasmsimd_splat(std::size_t m, std::size_t k, std::size_t n, const float* a,
                                    std::size_t a_stride, const float* packed_b, float* c,
                                    std::size_t c_stride) {
  matmul_packed<Ops, 4, 2, false>(m, k, n, a, a_stride, packed_b, c, c_stride);
}

void tanh_matmul_f32_4x8__wasmsimd_splat(std::size_t m, std::size_t k, std::size_t n,
                                         const float* a, std::size_t a_stride,
                                         const float* packed_b, float* c, std::size_t c_stride) {
  matmul_packed<Ops, 4, 2, true>(m, k, n, a, a_stride, packed_b, c, c_stride);
}

void tanh_f32__wasmsimd_expm1(std::size_t count, const float* x, float* y) {
  tanh_array<Ops>(count, x, y);
}

void math_f32__wasmsimd(MathFn f, std::size_t count, const float* x, float* y) {
  math_array<Ops>(f, count, x, y);
}

}  // namespace rl::kernels
