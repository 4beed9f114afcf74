#include "measure/ceilings.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "kernels/kernels.h"
#include "kernels/simd.h"
#include "measure/timer.h"
#include "measure/work.h"

namespace rl::measure {

namespace {

using Ops = kernels::WidestOps;

constexpr int kChains = 12;  // 12 vector accumulators + 2 constants fit 16 registers
constexpr std::size_t kStepsPerCall = 4096;
volatile float g_sink = 0;
// Read at run time, so the compiler cannot fold the chains.
volatile float g_m = 0.999f, g_a = 0.001f;

// `steps` steps of kChains independent chains; returns a sum so the work is consumed.
// Kept out of line and called in short chunks: V8 runs a wasm function first in its baseline
// compiler (Liftoff) and switches to optimized code only at a later call, never inside a
// running loop, so one long call would measure the baseline compiler (about 4× slower).
__attribute__((noinline)) float mul_add_chains(std::size_t steps, float m, float a) {
  using V = Ops::V;
  V acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = Ops::splat(float(c) * 1e-3f);
  const V vm = Ops::splat(m), va = Ops::splat(a);
  for (std::size_t s = 0; s < steps; ++s) {
    for (int c = 0; c < kChains; ++c) acc[c] = Ops::add(Ops::mul(acc[c], vm), va);
  }
  float out[Ops::kWidth];
  V sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = Ops::add(sum, acc[c]);
  Ops::store(out, sum);
  float total = 0;
  for (float x : out) total += x;
  return total;
}

__attribute__((noinline)) void triad(std::size_t count, float* a, const float* b, const float* c,
                                     float s) {
  const auto vs = Ops::splat(s);
  std::size_t i = 0;
  for (; i + Ops::kWidth <= count; i += Ops::kWidth) {
    Ops::store(a + i, Ops::add(Ops::load(b + i), Ops::mul(vs, Ops::load(c + i))));
  }
  for (; i < count; ++i) a[i] = b[i] + s * c[i];
}

// Runs body(units) with units doubled until it lasts min_seconds, then keeps the best rate
// (units per second) over `samples` runs.
template <class Body>
Result<double> best_rate(double min_seconds, int samples, Body body) {
  if (!(min_seconds > 0 && min_seconds <= 10)) {
    return Result<double>::failure("min_seconds must be in (0, 10], got " +
                                   std::to_string(min_seconds));
  }
  if (samples < 1 || samples > 100) {
    return Result<double>::failure("samples must be from 1 to 100, got " + std::to_string(samples));
  }
  std::size_t units = 1;
  double elapsed = 0;
  for (;;) {
    const double t0 = now_seconds();
    body(units);
    elapsed = now_seconds() - t0;
    if (elapsed >= min_seconds || units >= (std::size_t(1) << 30)) break;
    units *= 2;
  }
  double best = double(units) / elapsed;
  for (int i = 1; i < samples; ++i) {
    const double t0 = now_seconds();
    body(units);
    best = std::max(best, double(units) / (now_seconds() - t0));
  }
  return Result<double>::success(best);
}

}  // namespace

Result<ComputeCeiling> measure_compute(double min_seconds, int samples) {
  // m < 1 and a small: every chain converges to a / (1 − m) = 1, far from overflow or subnormals.
  auto steps_per_second = best_rate(min_seconds, samples, [](std::size_t units) {
    float sum = 0;
    for (std::size_t u = 0; u < units; ++u) sum += mul_add_chains(kStepsPerCall, g_m, g_a);
    g_sink = g_sink + sum;
  });
  if (!steps_per_second) return Result<ComputeCeiling>::failure_from(steps_per_second);
  ComputeCeiling c;
  c.chains = kChains;
  c.width = Ops::kWidth;
  const double flops_per_unit = double(kStepsPerCall) * kChains * Ops::kWidth * 2;
  c.gflops = steps_per_second.value() * flops_per_unit / 1e9;
  c.seconds = min_seconds;
  return Result<ComputeCeiling>::success(c);
}

namespace {

// Bytes of the three arrays for a level, or 0 for an unknown level.
std::size_t level_working_set(const std::string& level) {
  if (level == "l1") return 24 << 10;
  if (level == "l2") return 192 << 10;
  if (level == "memory") return std::size_t(96) << 20;
  return 0;
}

// The three arrays of a triad over `working_set` bytes (rounded down to whole elements).
struct TriadArrays {
  std::size_t count = 0;
  kernels::FloatBuffer a, b, c;
  void pass() { triad(count, a.data(), b.data(), c.data(), 0.5f); }
};
Result<TriadArrays> triad_arrays(const std::string& level, std::size_t working_set) {
  TriadArrays t;
  t.count = working_set / 3 / sizeof(float);
  auto a = kernels::FloatBuffer::allocate(t.count);
  auto b = kernels::FloatBuffer::allocate(t.count);
  auto c = kernels::FloatBuffer::allocate(t.count);
  if (!a || !b || !c)
    return Result<TriadArrays>::failure("could not allocate the " + level + " working set");
  t.a = std::move(a.value());
  t.b = std::move(b.value());
  t.c = std::move(c.value());
  kernels::fill_uniform(t.b.data(), t.count, 1);
  kernels::fill_uniform(t.c.data(), t.count, 2);
  t.pass();  // first touch
  return Result<TriadArrays>::success(std::move(t));
}

class ChainsWork : public Work {
 public:
  ChainsWork() {
    kind = "chains";
    flops_per_unit = double(kStepsPerCall) * kChains * Ops::kWidth * 2;
    working_set_bytes = 0;
  }
  float run(std::size_t units) override {
    float sum = 0;
    for (std::size_t u = 0; u < units; ++u) sum += mul_add_chains(kStepsPerCall, g_m, g_a);
    return sum;
  }
};

class TriadWork : public Work {
 public:
  explicit TriadWork(TriadArrays arrays) : arrays_(std::move(arrays)) {
    kind = "triad";
    working_set_bytes = arrays_.count * 3 * sizeof(float);
    bytes_per_unit = double(working_set_bytes);
  }
  float run(std::size_t units) override {
    for (std::size_t u = 0; u < units; ++u) arrays_.pass();
    return arrays_.a[arrays_.count / 2];
  }

 private:
  TriadArrays arrays_;
};

}  // namespace

std::unique_ptr<Work> make_chains_work() { return std::make_unique<ChainsWork>(); }

Result<std::unique_ptr<Work>> make_triad_work(const std::string& level, int workers) {
  using R = Result<std::unique_ptr<Work>>;
  std::size_t working_set = level_working_set(level);
  if (!working_set) return R::failure("level must be one of l1, l2, memory, got \"" + level + "\"");
  if (workers < 1 || workers > 256) {
    return R::failure("workers must be an integer from 1 to 256, got " + std::to_string(workers));
  }
  if (level == "memory")
    working_set = std::max(working_set / std::size_t(workers), std::size_t(8) << 20);
  auto arrays = triad_arrays(level, working_set);
  if (!arrays) return R::failure_from(arrays);
  return R::success(std::make_unique<TriadWork>(std::move(arrays.value())));
}

Result<BandwidthCeiling> measure_bandwidth(const std::string& level, double min_seconds,
                                           int samples) {
  using R = Result<BandwidthCeiling>;
  const std::size_t working_set = level_working_set(level);
  if (!working_set) return R::failure("level must be one of l1, l2, memory, got \"" + level + "\"");
  auto arrays = triad_arrays(level, working_set);
  if (!arrays) return R::failure_from(arrays);
  auto& t = arrays.value();
  auto passes_per_second = best_rate(min_seconds, samples, [&](std::size_t passes) {
    for (std::size_t p = 0; p < passes; ++p) t.pass();
    g_sink = g_sink + t.a[t.count / 2];
  });
  if (!passes_per_second) return R::failure_from(passes_per_second);
  BandwidthCeiling out;
  out.level = level;
  out.working_set_bytes = t.count * 3 * sizeof(float);
  out.gbs = passes_per_second.value() * double(out.working_set_bytes) / 1e9;
  return R::success(out);
}

}  // namespace rl::measure
