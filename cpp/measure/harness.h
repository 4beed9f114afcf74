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
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "kernels/kernels.h"

namespace rl::measure {

constexpr int kDefaultSamples = 5;       // as the seed notebook
constexpr double kTicksPerSample = 100;  // a sample lasts ≥ 100× the timer resolution
constexpr std::size_t kMaxRepeats = std::size_t(1) << 30;
constexpr int kMaxRecalibrations = 8;   // then the harness gives up with an error
constexpr int kSettlingRounds = 8;      // calibration rounds at most waiting for two to agree
constexpr double kSettledWithin = 0.1;  // two rounds agree: within 10% of the longer

// The harness's rules as steps that any caller drives, so every timing in the project follows
// one set of rules: time_calls below, the interpreter's per-op timing, and the page's fork–join
// rounds over Workers (web/model/measure.js, through the binding) — the page's rounds await
// Workers, so the loop stays with the caller and only the rules live here. The caller runs a
// round of `units` units, times it, and hands the elapsed seconds to record_round(), until the
// sampler is finished.
//
// The rounds: one warm round of 1 unit (first touches, first compile; `warm_round` off when the
// caller already did one); calibration — units grown until a round lasts the target, then more
// rounds until two in a row agree within 10% (the JIT's optimizing tier arrives between calls
// while the first rounds run) or kSettlingRounds have passed; then `samples` sample rounds, every
// one checked with sample_long_enough; a short one raises the units and starts the samples over,
// at most kMaxRecalibrations times. With `settle` off the first round that lasts the target is
// the first sample (the interpreter's per-op timing: quick, one sample).
struct SamplerOptions {
  double timer_resolution = 0;    // seconds, as the caller's clock measured it
  double min_sample_seconds = 0;  // the target is max(100 ticks, this)
  int samples = kDefaultSamples;  // 1..1000
  bool warm_round = true;
  bool settle = true;
  std::size_t max_units = kMaxRepeats;
};

struct Sampler {
  enum class Phase { Warm, Calibrate, Sample, Done, Failed };
  Phase phase = Phase::Warm;
  std::size_t units = 1;  // what the next round runs
  double target = 0;      // seconds every sample round lasts at least
  double warm_seconds = 0;
  std::vector<double> seconds_per_call;  // the samples so far (units × each ≥ target)
  int recalibrations = 0;
  int settling = 0;      // calibration rounds past the target so far
  double previous = -1;  // the last calibration round past the target, seconds
  std::string error;     // why it failed (Phase::Failed)
  SamplerOptions options;

  bool finished() const { return phase == Phase::Done || phase == Phase::Failed; }
};

// A sampler for these options; refuses a resolution that is not positive and finite, a
// min_sample_seconds outside 0..10 s, samples outside 1..1000, naming the value.
Result<Sampler> start_sampler(const SamplerOptions& options);
// The round of `s.units` units that just ran lasted `elapsed` seconds. A negative or non-finite
// elapsed fails the sampler ("a round lasted -1 s: the clock went backwards"); so does a round
// that cannot be made to last the target within max_units units.
void record_round(Sampler& s, double elapsed);

// A sampler as JSON and back, for callers across the wasm seam (the page keeps the state between
// its rounds): {phase: "warm"|"calibrate"|"sample"|"done"|"failed", units, target, warm_seconds,
// seconds_per_call: [..], recalibrations, settling, previous, error, options: {timer_resolution,
// min_sample_seconds, samples, warm_round, settle, max_units}}. Reading checks every field
// ("sampler.units must be a whole number from 1 to max_units, got 0").
std::string sampler_json(const Sampler& s);
Result<Sampler> sampler_from_json(std::string_view text);

struct Calibration {
  std::size_t repeats;      // R: kernel calls per sample
  double timer_resolution;  // seconds, as observed
  double warm_seconds;      // the one warm run (includes first-touch costs)
  double target_sample_seconds;
};

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
// compiler cannot drop. The Sampler's rounds, each round R calls back to back: a warm call, R
// calibrated, then `samples` samples (1..1000), every one checked with sample_long_enough; a
// short one raises R and starts the samples over (at most kMaxRecalibrations times). time_matmul
// and the traffic experiment (measure/traffic.h) time their work with it.
Result<Timing> time_calls(const std::function<void()>& call, int samples = kDefaultSamples,
                          double min_sample_seconds = 0);

// time_calls of one whole product (B packed, then every row computed).
Result<Timing> time_matmul(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                           int samples = kDefaultSamples, double min_sample_seconds = 0);

// A kernel's share of the measured mul+add ceiling, taken in pairs: each round times the ceiling
// (measure_compute, one sample of `ceiling_seconds`) and then the kernel (one sample of `repeats`
// calls, the repeats a time_matmul calibrated), back to back, and divides within the round. Why:
// on a shared machine the speed of one core moves by a third within seconds (another tenant's
// load), and a kernel timed seconds after its ceiling read 0.56-0.67 of it in runs where pairs
// read 0.85-0.97 (scripts/bench, 2026-12-05). The median of the rounds' ratios is the share.
struct PairedShare {
  std::vector<double> ratios;  // kernel GFLOP/s / ceiling GFLOP/s, one per round, in round order
  double median = 0, min = 0, max = 0;
  double kernel_gflops_median = 0, ceiling_gflops_median = 0;
};
Result<PairedShare> matmul_share_of_ceiling(const kernels::MatmulVariant& variant,
                                            kernels::MatmulBuffers& buffers, std::size_t repeats,
                                            int rounds, double ceiling_seconds);

// What every kernel call's output feeds, so no call is dead code.
float consumed_checksum();

}  // namespace rl::measure
