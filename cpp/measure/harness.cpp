#include "measure/harness.h"

#include <algorithm>
#include <string>

#include "common/numbers.h"
#include "measure/timer.h"

namespace rl::measure {

namespace {
volatile float g_sink = 0;

void call(const kernels::MatmulVariant& v, kernels::MatmulBuffers& b) {
  const auto& s = b.shape;
  v.run(s.m, s.k, s.n, b.a.data(), b.b.data(), b.c.data(), b.packed.data());
  g_sink = g_sink + b.c[0] + b.c[s.m * s.n - 1];
}
}  // namespace

float consumed_checksum() { return g_sink; }

double run_sample(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                  std::size_t repeats) {
  const double t0 = now_seconds();
  for (std::size_t r = 0; r < repeats; ++r) call(variant, buffers);
  return (now_seconds() - t0) / double(repeats);
}

Result<Calibration> calibrate(const kernels::MatmulVariant& variant,
                              kernels::MatmulBuffers& buffers, double min_sample_seconds) {
  using R = Result<Calibration>;
  auto resolution = timer_resolution();
  if (!resolution) return R::failure_from(resolution);
  Calibration c;
  c.timer_resolution = resolution.value();
  c.target_sample_seconds = std::max(kTicksPerSample * c.timer_resolution, min_sample_seconds);
  double t0 = now_seconds();
  call(variant, buffers);
  c.warm_seconds = now_seconds() - t0;

  std::size_t repeats = 1;
  for (;;) {
    const double elapsed = run_sample(variant, buffers, repeats) * double(repeats);
    if (elapsed >= c.target_sample_seconds) break;
    if (repeats >= kMaxRepeats) {
      return R::failure("could not make a sample last " + format_number(c.target_sample_seconds) +
                        " s within 2^30 repeats");
    }
    // Jump close to the target when the elapsed time is measurable, else double.
    std::size_t next = repeats * 2;
    if (elapsed > 10 * c.timer_resolution) {
      next = std::max(next, static_cast<std::size_t>(double(repeats) * 1.2 *
                                                     c.target_sample_seconds / elapsed));
    }
    repeats = std::min(next, kMaxRepeats);
  }
  c.repeats = repeats;
  return R::success(c);
}

Timing summarize(const std::vector<double>& samples, const Calibration& calibration) {
  Timing t;
  t.seconds_per_call = samples;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  t.min = n ? sorted.front() : 0;
  t.max = n ? sorted.back() : 0;
  t.median = n == 0 ? 0 : n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  t.repeats = calibration.repeats;
  t.timer_resolution = calibration.timer_resolution;
  t.warm_seconds = calibration.warm_seconds;
  return t;
}

Result<Timing> time_matmul(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                           int samples, double min_sample_seconds) {
  if (samples < 1 || samples > 1000) {
    return Result<Timing>::failure("samples must be an integer from 1 to 1000, got " +
                                   std::to_string(samples));
  }
  auto c = calibrate(variant, buffers, min_sample_seconds);
  if (!c) return Result<Timing>::failure_from(c);
  std::vector<double> seconds;
  for (int i = 0; i < samples; ++i) seconds.push_back(run_sample(variant, buffers, c->repeats));
  return Result<Timing>::success(summarize(seconds, c.value()));
}

}  // namespace rl::measure
