// Timing a kernel honestly under coarse timers: one warm run, then N samples, each repeating
// the kernel R times inside wasm (so JS call overhead is not measured) with R chosen so one
// sample lasts at least 100 timer ticks. Every call's result is consumed, so the compiler
// cannot drop the work. These are measurements of this machine, never the model's numbers.
#pragma once

#include <cstddef>
#include <vector>

#include "common/result.h"
#include "kernels/kernels.h"

namespace rl::measure {

constexpr int kDefaultSamples = 5;          // as the seed notebook
constexpr double kTicksPerSample = 100;     // a sample lasts ≥ 100× the timer resolution
constexpr std::size_t kMaxRepeats = std::size_t(1) << 30;

struct Calibration {
  std::size_t repeats;         // R: kernel calls per sample
  double timer_resolution;     // seconds, as observed
  double warm_seconds;         // the one warm run (includes first-touch costs)
  double target_sample_seconds;
};

// One warm run, then R doubled until R calls last ≥ max(100 ticks, min_sample_seconds).
Result<Calibration> calibrate(const kernels::MatmulVariant& variant,
                              kernels::MatmulBuffers& buffers, double min_sample_seconds = 0);

// One sample: R calls back to back; returns seconds per call.
double run_sample(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                  std::size_t repeats);

struct Timing {
  std::vector<double> seconds_per_call;  // every sample
  double median, min, max;
  std::size_t repeats;
  double timer_resolution;
  double warm_seconds;
};
Timing summarize(const std::vector<double>& samples, const Calibration& calibration);

// calibrate, then `samples` samples (1..1000).
Result<Timing> time_matmul(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                           int samples = kDefaultSamples, double min_sample_seconds = 0);

// What every kernel call's output feeds, so no call is dead code.
float consumed_checksum();

}  // namespace rl::measure
