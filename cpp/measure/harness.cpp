#include "measure/harness.h"

#include <algorithm>
#include <string>

#include "common/numbers.h"
#include "measure/timer.h"

namespace rl::measure {

namespace {
volatile float g_sink = 0;

void call_matmul(const kernels::MatmulVariant& v, kernels::MatmulBuffers& b) {
  const auto& s = b.shape;
  v.run(s.m, s.k, s.n, b.a.data(), b.b.data(), b.c.data(), b.packed.data());
  g_sink = g_sink + b.c[0] + b.c[s.m * s.n - 1];
}

// The next R after `repeats` calls lasted `elapsed`: close to the target (with a margin) when
// the elapsed time is measurable, else double.
std::size_t grown_repeats(std::size_t repeats, double elapsed, const Calibration& c) {
  std::size_t next = repeats * 2;
  if (elapsed > 10 * c.timer_resolution) {
    next = std::max(
        next, static_cast<std::size_t>(double(repeats) * 1.2 * c.target_sample_seconds / elapsed));
  }
  return next;
}
}  // namespace

float consumed_checksum() { return g_sink; }

double run_sample(const std::function<void()>& call, std::size_t repeats) {
  const double t0 = now_seconds();
  for (std::size_t r = 0; r < repeats; ++r) call();
  return (now_seconds() - t0) / double(repeats);
}

Result<Calibration> calibrate(const std::function<void()>& call, double min_sample_seconds) {
  using R = Result<Calibration>;
  auto resolution = timer_resolution();
  if (!resolution) return R::failure_from(resolution);
  Calibration c;
  c.timer_resolution = resolution.value();
  c.target_sample_seconds = std::max(kTicksPerSample * c.timer_resolution, min_sample_seconds);
  double t0 = now_seconds();
  call();
  c.warm_seconds = now_seconds() - t0;

  std::size_t repeats = 1;
  bool confirming = false;  // the last trial reached the target: run it again before trusting it
  for (;;) {
    const double elapsed = run_sample(call, repeats) * double(repeats);
    if (elapsed >= c.target_sample_seconds) {
      if (confirming) break;
      confirming = true;
      continue;
    }
    confirming = false;
    if (repeats >= kMaxRepeats) {
      return R::failure("could not make a sample last " + format_number(c.target_sample_seconds) +
                        " s within 2^30 repeats");
    }
    repeats = std::min(grown_repeats(repeats, elapsed, c), kMaxRepeats);
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
  t.target_sample_seconds = calibration.target_sample_seconds;
  return t;
}

Result<Timing> time_calls(const std::function<void()>& call, int samples,
                          double min_sample_seconds) {
  if (samples < 1 || samples > 1000) {
    return Result<Timing>::failure("samples must be an integer from 1 to 1000, got " +
                                   std::to_string(samples));
  }
  auto c = calibrate(call, min_sample_seconds);
  if (!c) return Result<Timing>::failure_from(c);
  Calibration calibration = c.value();
  for (int recalibrations = 0;; ++recalibrations) {
    std::vector<double> seconds;
    double short_elapsed = -1;
    for (int i = 0; i < samples; ++i) {
      const double s = run_sample(call, calibration.repeats);
      if (!sample_long_enough(calibration.repeats, s, calibration.target_sample_seconds)) {
        short_elapsed = s * double(calibration.repeats);
        break;
      }
      seconds.push_back(s);
    }
    if (short_elapsed < 0) {
      Timing t = summarize(seconds, calibration);
      t.recalibrations = recalibrations;
      return Result<Timing>::success(t);
    }
    if (recalibrations == kMaxRecalibrations || calibration.repeats >= kMaxRepeats) {
      return Result<Timing>::failure("a sample of " + std::to_string(calibration.repeats) +
                                     " calls lasted " + format_number(short_elapsed) +
                                     " s, under the " +
                                     format_number(calibration.target_sample_seconds) +
                                     " s (100 timer ticks) every sample must last, after " +
                                     std::to_string(recalibrations) + " recalibrations");
    }
    // The samples run faster than the calibration did: raise R past the target and start over.
    calibration.repeats =
        std::min(grown_repeats(calibration.repeats, short_elapsed, calibration), kMaxRepeats);
  }
}

Result<Timing> time_matmul(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                           int samples, double min_sample_seconds) {
  return time_calls([&variant, &buffers] { call_matmul(variant, buffers); }, samples,
                    min_sample_seconds);
}

}  // namespace rl::measure
