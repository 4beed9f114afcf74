// Work that one Worker of the page's pool repeats on command while another thread's clock
// times the whole round: fork–join timing of one core or of all cores at once
// (web/model/measure.js runs the rounds; each Worker holds its own wasm instance and its own
// Work). Each kind says what one unit is worth, so a round of N Workers × U units is converted
// into a rate the same way for any N. Measurements of this machine, never the model's numbers.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "common/result.h"
#include "kernels/kernels.h"

namespace rl::measure {

class Work {
 public:
  virtual ~Work() = default;
  // Runs `units` units back to back and returns a value that depends on their results, so no
  // unit is dead code.
  virtual float run(std::size_t units) = 0;

  std::string kind;           // "chains", "triad", "kernel"
  double flops_per_unit = 0;  // chains: 2 per lane per step; kernel: 2·rows·k·n (tanh not counted)
  double bytes_per_unit = 0;  // triad: 2 reads + 1 write per element (write-allocate not counted)
  std::size_t working_set_bytes = 0;  // what one unit touches
};

// Independent f32x4 mul+add chains, the same as measure_compute: one unit is one call of
// kChainStepsPerCall steps (short calls: V8 swaps in optimized code only between calls).
std::unique_ptr<Work> make_chains_work();

// The triad a[i] = b[i] + s·c[i] over the level's working set: one unit is one pass. The L1-
// and L2-sized sets are per core (24 KiB, 192 KiB); the memory-sized set, 96 MiB, is shared out
// among `workers` Workers running at once (at least 8 MiB each), so together they stream as
// much as one core alone does and no Worker's part fits a cache.
Result<std::unique_ptr<Work>> make_triad_work(const std::string& level, int workers);

// tanh(A·B) or A·B on a block of rows: A's rows (rows×k) and B as the variant's pack laid it
// out, both filled by the caller through a() and packed_b(); one unit is one compute of the
// block into c(). B is never packed here: a pool packs it once for every Worker.
class KernelWork : public Work {
 public:
  float run(std::size_t units) override;
  float* a() { return a_.data(); }
  float* packed_b() { return packed_.data(); }
  const float* c() const { return c_.data(); }
  std::size_t a_floats() const { return a_.size(); }
  std::size_t packed_floats() const { return packed_.size(); }
  std::size_t c_floats() const { return c_.size(); }

 private:
  friend Result<std::unique_ptr<KernelWork>> make_kernel_work(const kernels::MatmulVariant&, double,
                                                              double, double);
  const kernels::MatmulVariant* variant_ = nullptr;
  std::size_t rows_ = 0, k_ = 0, n_ = 0;
  kernels::FloatBuffer a_, packed_, c_;
};
// Refuses rows, k, n as check_matmul_shape does (names, the 256 MiB cap).
Result<std::unique_ptr<KernelWork>> make_kernel_work(const kernels::MatmulVariant& variant,
                                                     double rows, double k, double n);

}  // namespace rl::measure
