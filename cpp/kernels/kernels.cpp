#include "kernels/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "common/numbers.h"

namespace rl::kernels {

void pack_b_panels(std::size_t nr, std::size_t k, std::size_t n, const float* b, float* packed) {
  for (std::size_t col0 = 0; col0 < n; col0 += nr) {
    const std::size_t cols = std::min(nr, n - col0);
    for (std::size_t kk = 0; kk < k; ++kk, packed += nr) {
      std::memcpy(packed, b + kk * n + col0, cols * sizeof(float));
      std::fill(packed + cols, packed + nr, 0.0f);
    }
  }
}

void MatmulVariant::pack(std::size_t k, std::size_t n, const float* b, float* packed) const {
  if (packs_b)
    pack_b_panels(std::size_t(nr), k, n, b, packed);
  else
    std::memcpy(packed, b, k * n * sizeof(float));
}

const std::vector<MatmulVariant>& matmul_variants() {
  static const std::vector<MatmulVariant> variants = {
#define RL_MATMUL(name, isa, mr, nr, fused, packs_b) {#name, #isa, mr, nr, fused, packs_b, &name},
#define RL_TANH(name, isa)
#define RL_MATH(name, isa)
#include "kernels/registry.inc"
#undef RL_MATMUL
#undef RL_TANH
#undef RL_MATH
  };
  return variants;
}

const std::vector<TanhVariant>& tanh_variants() {
  static const std::vector<TanhVariant> variants = {
#define RL_MATMUL(name, isa, mr, nr, fused, packs_b)
#define RL_TANH(name, isa) {#name, #isa, &name},
#define RL_MATH(name, isa)
#include "kernels/registry.inc"
#undef RL_MATMUL
#undef RL_TANH
#undef RL_MATH
  };
  return variants;
}

const std::vector<MathVariant>& math_variants() {
  static const std::vector<MathVariant> variants = {
#define RL_MATMUL(name, isa, mr, nr, fused, packs_b)
#define RL_TANH(name, isa)
#define RL_MATH(name, isa) {#name, #isa, &name},
#include "kernels/registry.inc"
#undef RL_MATMUL
#undef RL_TANH
#undef RL_MATH
  };
  return variants;
}

const MathVariant& best_math() {
  const MathVariant* best = nullptr;
  for (const auto& v : math_variants()) {
    if (!best || std::string_view(v.isa) == "wasmsimd") best = &v;
  }
  return *best;
}

Result<const MatmulVariant*> find_matmul(std::string_view name) {
  std::string known;
  for (const auto& v : matmul_variants()) {
    if (name == v.name) return Result<const MatmulVariant*>::success(&v);
    known += known.empty() ? v.name : std::string(", ") + v.name;
  }
  return Result<const MatmulVariant*>::failure("variant must be one of " + known + ", got \"" +
                                               std::string(name) + "\"");
}

const MatmulVariant& best_matmul(bool fused_tanh) {
  const MatmulVariant* best = nullptr;
  for (const auto& v : matmul_variants()) {
    if (v.fused_tanh != fused_tanh) continue;
    if (!best || std::string_view(v.isa) == "wasmsimd") best = &v;
  }
  return *best;
}

namespace {
Result<std::size_t> dimension(const char* name, double value) {
  auto n = positive_integer(name, value);
  if (!n) return Result<std::size_t>::failure_from(n);
  if (value > double(kMaxKernelBytes)) {  // already far past the cap; keeps the products small
    return Result<std::size_t>::failure_for(name,
                                            std::string(name) + " = " + format_number(value) +
                                                " makes the kernel's buffers pass the 256 MiB cap");
  }
  return Result<std::size_t>::success(static_cast<std::size_t>(n.value()));
}
}  // namespace

Result<MatmulShape> check_matmul_shape(double m_in, double k_in, double n_in) {
  using R = Result<MatmulShape>;
  auto m = dimension("m", m_in);
  if (!m) return R::failure_from(m);
  auto k = dimension("k", k_in);
  if (!k) return R::failure_from(k);
  auto n = dimension("n", n_in);
  if (!n) return R::failure_from(n);
  // In 128 bits: m·k alone can pass 2^64 here.
  const Count M = m.value(), K = k.value(), N = n.value();
  constexpr Count kWidestTile = 8;
  const Count floats =
      M * K + K * N + M * N + (N + kWidestTile - 1) / kWidestTile * kWidestTile * K;
  const Count bytes = floats * 4;
  if (bytes > kMaxKernelBytes) {
    return R::failure("m=" + std::to_string(m.value()) + ", k=" + std::to_string(k.value()) +
                      ", n=" + std::to_string(n.value()) + " needs " +
                      format_number(std::ceil(double(bytes) / (1 << 20))) +
                      " MiB of buffers (A, B, C, packed B), over the 256 MiB cap");
  }
  return R::success({m.value(), k.value(), n.value(), static_cast<std::size_t>(bytes)});
}

FloatBuffer::FloatBuffer(FloatBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
FloatBuffer& FloatBuffer::operator=(FloatBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}
FloatBuffer::~FloatBuffer() { std::free(data_); }

Result<FloatBuffer> FloatBuffer::allocate(std::size_t count) {
  FloatBuffer buffer;
  // 16-byte alignment for v128 loads; malloc returns NULL (not abort) when memory runs out.
  buffer.data_ = static_cast<float*>(std::malloc(count * sizeof(float) + 16));
  if (!buffer.data_) {
    return Result<FloatBuffer>::failure("could not allocate " +
                                        format_number(double(count) * 4 / (1 << 20)) + " MiB");
  }
  buffer.size_ = count;
  return Result<FloatBuffer>::success(std::move(buffer));
}

Result<MatmulBuffers> allocate_matmul(const MatmulShape& s) {
  using R = Result<MatmulBuffers>;
  MatmulBuffers out;
  out.shape = s;
  std::size_t packed = 0;
  for (const auto& v : matmul_variants()) packed = std::max(packed, v.packed_floats(s.k, s.n));
  const std::pair<FloatBuffer*, std::size_t> parts[] = {
      {&out.a, s.m * s.k}, {&out.b, s.k * s.n}, {&out.c, s.m * s.n}, {&out.packed, packed}};
  for (const auto& [buffer, count] : parts) {
    auto allocated = FloatBuffer::allocate(count);
    if (!allocated) return R::failure_from(allocated);
    *buffer = std::move(allocated.value());
  }
  return R::success(std::move(out));
}

void fill_uniform(float* x, std::size_t count, std::uint32_t seed) {
  std::uint32_t state = seed ? seed : 0x9E3779B9u;
  for (std::size_t i = 0; i < count; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    x[i] = static_cast<float>(state >> 8) * (2.0f / 16777216.0f) - 1.0f;  // 24 bits → [−1, 1)
  }
}

void fill_lesson_inputs(MatmulBuffers& buffers) {
  for (std::size_t i = 0; i < buffers.a.size(); ++i) buffers.a[i] = static_cast<float>(i) / 512;
  for (std::size_t i = 0; i < buffers.b.size(); ++i) buffers.b[i] = static_cast<float>(i) / 128;
}

void matmul_reference(std::size_t m, std::size_t k, std::size_t n, const float* a, const float* b,
                      bool fused_tanh, double* c) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::size_t kk = 0; kk < k; ++kk) sum += double(a[i * k + kk]) * double(b[kk * n + j]);
      c[i * n + j] = fused_tanh ? std::tanh(sum) : sum;
    }
  }
}

Result<CheckResult> check_matmul(const MatmulVariant& variant, MatmulBuffers& buffers) {
  const MatmulShape& s = buffers.shape;
  variant.run(s.m, s.k, s.n, buffers.a.data(), buffers.b.data(), buffers.c.data(),
              buffers.packed.data());
  std::vector<double> reference(s.m * s.n);
  matmul_reference(s.m, s.k, s.n, buffers.a.data(), buffers.b.data(), variant.fused_tanh,
                   reference.data());
  return Result<CheckResult>::success(
      check_lesson_rule(buffers.c.data(), reference.data(), reference.size()));
}

CheckResult check_lesson_rule(const float* got, const double* reference, std::size_t count) {
  CheckResult r;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = got[i], y = reference[i];
    const double error = std::fabs(x - y);
    const double ratio = error / (kLessonAtol + kLessonRtol * std::fabs(y));
    if (error > r.max_abs_error || std::isnan(error)) r.max_abs_error = error;
    // NaN counts as worst, and stays worst: a later finite ratio must not replace it.
    if (!std::isnan(r.worst_ratio) && !(ratio <= r.worst_ratio)) {
      r.worst_ratio = ratio;
      r.worst_index = i;
      r.worst_value = got[i];
      r.worst_reference = y;
    }
  }
  r.passed = r.worst_ratio <= 1.0;
  return r;
}

}  // namespace rl::kernels
