#include "measure/work.h"

#include <utility>

#include "model/model.h"

namespace rl::measure {

float KernelWork::run(std::size_t units) {
  float sum = 0;
  for (std::size_t u = 0; u < units; ++u) {
    variant_->compute(rows_, k_, n_, a_.data(), k_, packed_.data(), c_.data(), n_);
    sum += c_[0] + c_[rows_ * n_ - 1];
  }
  return sum;
}

Result<std::unique_ptr<KernelWork>> make_kernel_work(const kernels::MatmulVariant& variant,
                                                     double rows, double k, double n) {
  using R = Result<std::unique_ptr<KernelWork>>;
  auto shape = kernels::check_matmul_shape(rows, k, n);
  if (!shape) return R::failure_from(shape);
  const auto& s = shape.value();
  auto work = std::make_unique<KernelWork>();
  work->kind = "kernel";
  work->variant_ = &variant;
  work->rows_ = s.m;
  work->k_ = s.k;
  work->n_ = s.n;
  const std::pair<kernels::FloatBuffer*, std::size_t> parts[] = {
      {&work->a_, s.m * s.k},
      {&work->packed_, variant.packed_floats(s.k, s.n)},
      {&work->c_, s.m * s.n}};
  for (const auto& [buffer, count] : parts) {
    auto allocated = kernels::FloatBuffer::allocate(count);
    if (!allocated) return R::failure_from(allocated);
    *buffer = std::move(allocated.value());
  }
  // The model's work and minimum traffic for the block, f32 (cpp/model: the rule lives there).
  auto counts = model::contract(double(s.m), double(s.k), double(s.n), 4);
  if (!counts) return R::failure_from(counts);
  work->flops_per_unit = static_cast<double>(counts->flops);
  work->bytes_per_unit = static_cast<double>(counts->minimum_bytes);
  work->working_set_bytes = 4 * (s.m * s.k + variant.packed_floats(s.k, s.n) + s.m * s.n);
  return R::success(std::move(work));
}

}  // namespace rl::measure
