#include "measure/traffic.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "common/numbers.h"
#include "kernels/kernels.h"
#include "kernels/simd.h"

namespace rl::measure {

namespace {

using Ops = kernels::WidestOps;

constexpr int kVectors = 8;  // independent chains: enough to hide the multiply and add latency
constexpr std::size_t kStride = std::size_t(kVectors) * Ops::kWidth;
static_assert(kTrafficChunkFloats % kStride == 0, "a chunk holds whole groups of chains");

volatile float g_sink = 0;
volatile float g_add = 0.001f;  // read at run time, so the compiler cannot fold the chains

// `steps` steps of acc ← acc·x + a over `count` floats of x, kVectors vectors at once; the
// accumulators live in `state` between calls.
__attribute__((noinline)) void read_chunk(const float* x, std::size_t count, int steps,
                                          float* state, float add) {
  using V = Ops::V;
  V acc[kVectors];
  for (int j = 0; j < kVectors; ++j) acc[j] = Ops::load(state + j * Ops::kWidth);
  const V a = Ops::splat(add);
  for (std::size_t i = 0; i < count; i += kStride) {
    V v[kVectors];
    for (int j = 0; j < kVectors; ++j) v[j] = Ops::load(x + i + j * Ops::kWidth);
    for (int s = 0; s < steps; ++s) {
      for (int j = 0; j < kVectors; ++j) acc[j] = Ops::add(Ops::mul(acc[j], v[j]), a);
    }
  }
  for (int j = 0; j < kVectors; ++j) Ops::store(state + j * Ops::kWidth, acc[j]);
}

// How many times chunk i of `chunks` is read when the whole array takes `reads` chunk reads.
std::size_t reads_of(std::size_t i, std::size_t chunks, std::size_t reads) {
  return reads / chunks + (i < reads % chunks ? 1 : 0);
}

// Steps for read p of r of one element: `total` split as evenly as whole steps allow.
int steps_of(int p, int r, int total) { return total / r + (p < total % r ? 1 : 0); }

struct Workload {
  const kernels::FloatBuffer* x;
  std::size_t chunks, reads;  // chunk reads in one call
  bool compute_bound;         // steps split over the reads; else 1 step per read
  Reread reread;
  float state[kStride];

  void read(std::size_t i, int p, int r, double& flops) {
    const int steps = compute_bound ? steps_of(p, r, kComputeBoundSteps) : 1;
    read_chunk(x->data() + i * kTrafficChunkFloats, kTrafficChunkFloats, steps, state, g_add);
    flops += 2.0 * steps * double(kTrafficChunkFloats);
  }

  // One call: every chunk read as many times as it is due, in passes over the whole array or
  // each chunk's reads back to back. Returns the exact flops.
  double run() {
    double flops = 0;
    const int most = int(reads_of(0, chunks, reads));
    if (reread == Reread::after_array) {
      for (int p = 0; p < most; ++p) {
        for (std::size_t i = 0; i < chunks; ++i) {
          const int r = int(reads_of(i, chunks, reads));
          if (p < r) read(i, p, r, flops);
        }
      }
    } else {
      for (std::size_t i = 0; i < chunks; ++i) {
        const int r = int(reads_of(i, chunks, reads));
        for (int p = 0; p < r; ++p) read(i, p, r, flops);
      }
    }
    float sum = 0;
    for (float s : state) sum += s;
    g_sink = g_sink + sum;
    return flops;
  }
};

Result<TrafficRun> time_workload(Workload& w, int samples, double min_sample_seconds) {
  using R = Result<TrafficRun>;
  for (float& s : w.state) s = 0;
  TrafficRun run;
  run.reads = double(w.reads) / double(w.chunks);
  run.bytes = 4.0 * double(w.reads) * double(kTrafficChunkFloats);
  auto t = time_calls([&w, &run] { run.flops = w.run(); }, samples, min_sample_seconds);
  if (!t) return R::failure_from(t);
  run.timing = t.value();
  return R::success(run);
}

const char* verdict_of(double agreement) {
  if (std::fabs(agreement - 1) <= kTrafficAgreement) return "agrees";
  return agreement < 1 ? "faster than predicted" : "slower than predicted";
}

}  // namespace

const char* reread_name(Reread reread) {
  return reread == Reread::after_array ? "after the whole array" : "right away";
}

Result<TrafficMeasurement> measure_traffic(double factor, Reread reread, int samples,
                                           double elements, double min_sample_seconds) {
  using R = Result<TrafficMeasurement>;
  if (!(std::isfinite(factor) && factor >= kMinMeasuredTrafficFactor &&
        factor <= kMaxMeasuredTrafficFactor)) {
    return R::failure_for("traffic factor",
                          "traffic factor to measure must be from 1 to 64 (the workloads read "
                          "their array at least once, and at most once per step), got " +
                              typed_value(factor));
  }
  if (samples < 1 || samples > 100) {
    return R::failure_for(
        "samples", "samples must be an integer from 1 to 100, got " + std::to_string(samples));
  }
  if (!(std::isfinite(elements) && elements >= double(kTrafficChunkFloats) &&
        elements <= double(kTrafficMaxFloats) &&
        std::fmod(elements, double(kTrafficChunkFloats)) == 0)) {
    return R::failure_for(
        "elements", "elements must be a whole multiple of " + std::to_string(kTrafficChunkFloats) +
                        " from " + std::to_string(kTrafficChunkFloats) + " to " +
                        std::to_string(kTrafficMaxFloats) + ", got " + typed_value(elements));
  }
  TrafficMeasurement m;
  m.factor_asked = factor;
  m.reread = reread;
  m.elements = std::size_t(elements);
  m.array_bytes = m.elements * sizeof(float);
  const std::size_t chunks = m.elements / kTrafficChunkFloats;
  const std::size_t reads =
      std::max<std::size_t>(chunks, std::size_t(std::llround(factor * double(chunks))));
  m.factor = double(reads) / double(chunks);

  auto x = kernels::FloatBuffer::allocate(m.elements);
  if (!x) return R::failure_from(x);
  // Values in [0.5, 0.75): every chain converges to a / (1 − x), far from overflow and subnormals.
  float* values = x.value().data();
  kernels::fill_uniform(values, m.elements, 20261201u);
  for (std::size_t i = 0; i < m.elements; ++i) values[i] = 0.625f + 0.125f * values[i];

  TrafficWorkload* workloads[] = {&m.memory, &m.compute};
  for (TrafficWorkload* w : workloads) {
    const bool compute_bound = w == &m.compute;
    w->name = compute_bound ? "compute-bound" : "memory-bound";
    w->steps = compute_bound ? kComputeBoundSteps : 1;
    auto timed = [&](std::size_t r) {
      Workload work{&x.value(), chunks, r, compute_bound, reread, {}};
      return time_workload(work, samples, min_sample_seconds);
    };
    auto once = timed(chunks);
    if (!once) return R::failure_from(once);
    w->once = once.value();
    if (reads == chunks) {
      w->factor = w->once;  // factor 1: the same run
    } else {
      auto more = timed(reads);
      if (!more) return R::failure_from(more);
      w->factor = more.value();
    }
    w->measured_ratio = w->factor.timing.median / w->once.timing.median;
  }
  // The roofs read off the 1× runs: each workload is bound by one of them there.
  auto roofs = model::make_budgets(m.compute.once.flops / m.compute.once.timing.median / 1e9,
                                   m.memory.once.bytes / m.memory.once.timing.median / 1e9);
  if (!roofs) return R::failure_from(roofs);
  m.roofs = roofs.value();
  for (TrafficWorkload* w : workloads) {
    auto p = model::predict_traffic(m.roofs, w->once.flops, w->once.bytes, w->factor.flops,
                                    w->factor.bytes);
    if (!p) return R::failure_from(p);
    w->predicted = p.value();
    w->agreement = w->measured_ratio / w->predicted.time_ratio;
    w->verdict = verdict_of(w->agreement);
  }
  return R::success(std::move(m));
}

}  // namespace rl::measure
