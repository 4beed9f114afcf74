// Timing a kernel honestly under coarse timers: one warm run, then N samples, each repeating
// the kernel R times inside wasm (so JS call overhead is not measured) with R chosen so one
// sample lasts at least 100 timer ticks. Every call's result is consumed, so the compiler
// cannot drop the work. These are measurements of this machine, never the model's numbers.
//
// The rule holds for every reported sample, not only for the calibration: a calibration trial
// can run slower than the samples that follow it (the JIT's optimizing tier arriving after it,
// the thread preempted or the optimizing compile sharing its core on a busy machine), and then
// R is too small. So each sample is checked — R·seconds ≥ target, the same product a reader of
// the numbers computes — and a short one makes the harness raise R and take every sample again.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "common/result.h"
#include "kernels/kernels.h"

namespace rl::measure {

constexpr int kDefaultSamples = 5;          // as the seed notebook
constexpr double kTicksPerSample = 100;     // a sample lasts ≥ 100× the timer resolution
constexpr std::size_t kMaxRepeats = std::size_t(1) << 30;
constexpr int kMaxRecalibrations = 8;        // then the harness gives up with an error

struct Calibration {
  std::size_t repeats;         // R: kernel calls per sample
  double timer_resolution;     // seconds, as observed
  double warm_seconds;         // the one warm run (includes first-touch costs)
  double target_sample_seconds;
};

// One warm run, then R doubled until R calls last ≥ max(100 ticks, min_sample_seconds) twice
// in a row (one trial alone may have been slowed down).
Result<Calibration> calibrate(const std::function<void()>& call, double min_sample_seconds = 0);

// One sample: R calls back to back; returns seconds per call.
double run_sample(const std::function<void()>& call, std::size_t repeats);

struct Timing {
  std::vector<double> seconds_per_call;  // every sample; repeats × each ≥ target_sample_seconds
  double median, min, max;
  std::size_t repeats;
  double timer_resolution;
  double warm_seconds;
  double target_sample_seconds;  // max(100 × timer_resolution, min_sample_seconds)
  int recalibrations = 0;        // times a short sample made the harness raise R and start over
};
Timing summarize(const std::vector<double>& samples, const Calibration& calibration);

// Whether a sample of `repeats` calls at `seconds_per_call` each lasted the target.
inline bool sample_long_enough(std::size_t repeats, double seconds_per_call, double target) {
  return double(repeats) * seconds_per_call >= target;
}

// The harness for any call: `call()` runs the work once and feeds its result to something the
// compiler cannot drop. calibrate, then `samples` samples (1..1000), every one checked with
// sample_long_enough; a short one raises R and starts the samples over (at most
// kMaxRecalibrations times). time_matmul and the traffic experiment (measure/traffic.h) time
// their work with it.
Result<Timing> time_calls(const std::function<void()>& call, int samples = kDefaultSamples,
                          double min_sample_seconds = 0);

// time_calls of one whole product (B packed, then every row computed).
Result<Timing> time_matmul(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                           int samples = kDefaultSamples, double min_sample_seconds = 0);

// What every kernel call's output feeds, so no call is dead code.
float consumed_checksum();

}  // namespace rl::measure
