// The kernels: tanh(A·B) and A·B in f32, row-major, in scalar and wasm SIMD variants, and the
// obviously-correct references the tests compare them against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "kernels/math_impl.h"
#include "kernels/simd.h"

#ifndef RL_HAVE_PORTABLE
#define RL_HAVE_PORTABLE 0
#endif

namespace rl::kernels {

// c[m×n] = (tanh)(a[m×k] · b[k×n]) where b has already been laid out by the variant's pack
// (MatmulVariant::pack): rows of A start a_stride floats apart, rows of C c_stride floats apart.
using MatmulFn = void (*)(std::size_t m, std::size_t k, std::size_t n, const float* a,
                          std::size_t a_stride, const float* packed_b, float* c,
                          std::size_t c_stride);
using TanhFn = void (*)(std::size_t count, const float* x, float* y);
// y[i] = f(x[i]) for i < count (math_impl.h's functions); in place allowed.
using MathArrayFn = void (*)(MathFn f, std::size_t count, const float* x, float* y);

#define RL_MATMUL(name, isa, mr, nr, fused, packs_b)                                        \
  void name(std::size_t, std::size_t, std::size_t, const float*, std::size_t, const float*, \
            float*, std::size_t);
#define RL_TANH(name, isa) void name(std::size_t, const float*, float*);
#define RL_MATH(name, isa) void name(MathFn, std::size_t, const float*, float*);
#include "kernels/registry.inc"
#undef RL_MATMUL
#undef RL_TANH
#undef RL_MATH

// Lays B (k×n, row-major) out in panels of nr columns, zero-padded past n: panel p holds
// columns p·nr … p·nr+nr−1, one row of nr floats per k. `packed` holds packed_floats floats.
void pack_b_panels(std::size_t nr, std::size_t k, std::size_t n, const float* b, float* packed);

struct MatmulVariant {
  const char* name;
  const char* isa;  // "scalar", "wasmsimd", "portable"
  int mr, nr;       // the register tile
  bool fused_tanh;  // tanh(A·B) rather than A·B
  bool packs_b;     // B in panels of nr columns; false: B as given (row-major k×n), copied
  MatmulFn compute;
  std::size_t packed_floats(std::size_t k, std::size_t n) const {
    return packs_b ? (n + nr - 1) / nr * nr * k : k * n;
  }
  // B laid out the way compute reads it: once per B, whatever the number of row blocks.
  void pack(std::size_t k, std::size_t n, const float* b, float* packed) const;
  // One whole product, as a caller without a pool makes it: pack B, then compute every row.
  void run(std::size_t m, std::size_t k, std::size_t n, const float* a, const float* b, float* c,
           float* packed) const {
    pack(k, n, b, packed);
    compute(m, k, n, a, k, packed, c, n);
  }
};
struct TanhVariant {
  const char* name;
  const char* isa;
  TanhFn fn;
};

struct MathVariant {
  const char* name;
  const char* isa;
  MathArrayFn fn;
};

const std::vector<MatmulVariant>& matmul_variants();
const std::vector<TanhVariant>& tanh_variants();
const std::vector<MathVariant>& math_variants();
// The elementwise math the interpreter runs: wasm SIMD where compiled in, else scalar (natively
// the portable instance only exists in the benchmark binary, and is not chosen: its -march=native
// FMAs would change the bits).
const MathVariant& best_math();
// The variant named `name`, or an error listing the ones this build has.
Result<const MatmulVariant*> find_matmul(std::string_view name);
// The fastest variant of this build for A·B or tanh(A·B): wasm SIMD where compiled in.
const MatmulVariant& best_matmul(bool fused_tanh);

// ---- sizes and buffers ------------------------------------------------------------------
// Buffers of one kernel call (A, B, C and packed B) may not pass this: the page must never
// run the wasm heap out of memory.
constexpr std::size_t kMaxKernelBytes = std::size_t(256) << 20;

struct MatmulShape {
  std::size_t m, k, n;
  std::size_t buffer_bytes;  // A + B + C + packed B (widest tile)
};
// Refuses m, k, n that are not positive integers, and shapes whose buffers pass the cap.
Result<MatmulShape> check_matmul_shape(double m, double k, double n);

// A float buffer from malloc: a failed allocation is an error value, never an abort.
class FloatBuffer {
 public:
  FloatBuffer() = default;
  FloatBuffer(FloatBuffer&& other) noexcept;
  FloatBuffer& operator=(FloatBuffer&& other) noexcept;
  FloatBuffer(const FloatBuffer&) = delete;
  FloatBuffer& operator=(const FloatBuffer&) = delete;
  ~FloatBuffer();
  static Result<FloatBuffer> allocate(std::size_t count);
  float* data() { return data_; }
  const float* data() const { return data_; }
  std::size_t size() const { return size_; }
  float& operator[](std::size_t i) { return data_[i]; }
  float operator[](std::size_t i) const { return data_[i]; }

 private:
  float* data_ = nullptr;
  std::size_t size_ = 0;
};

// The buffers of one matmul call, filled with inputs.
struct MatmulBuffers {
  MatmulShape shape;
  FloatBuffer a, b, c, packed;
};
Result<MatmulBuffers> allocate_matmul(const MatmulShape& shape);

// Inputs: uniform in [−1, 1) from a fixed seed (xorshift32), reproducible everywhere.
void fill_uniform(float* x, std::size_t count, std::uint32_t seed);
// The lesson's inputs: a = arange(32·16)/512 as 32×16, b = arange(16·8)/128 as 16×8.
void fill_lesson_inputs(MatmulBuffers& buffers);

// ---- references: naive, in double ----------------------------------------------------------
void matmul_reference(std::size_t m, std::size_t k, std::size_t n, const float* a, const float* b,
                      bool fused_tanh, double* c);

// The lesson's rule, numpy's assert_allclose(rtol=atol=2e-5): |x − y| ≤ 2e-5 + 2e-5·|y|.
constexpr double kLessonAtol = 2e-5, kLessonRtol = 2e-5;

struct CheckResult {
  double max_abs_error = 0;  // max |x − y|
  double worst_ratio = 0;    // max |x − y| / (atol + rtol·|y|): passes while ≤ 1
  bool passed = true;
  std::size_t worst_index = 0;
  float worst_value = 0;
  double worst_reference = 0;
};
// Compares `count` outputs with their double reference under the lesson's rule (the one place it
// is applied: the kernels' check and the interpreter's run of the lesson's IR both use it).
CheckResult check_lesson_rule(const float* got, const double* reference, std::size_t count);

// Runs `variant` on `buffers` (inputs already filled) and compares every output with the
// double reference under the lesson's rule.
Result<CheckResult> check_matmul(const MatmulVariant& variant, MatmulBuffers& buffers);

}  // namespace rl::kernels
