#include "measure/harness.h"

#include <algorithm>
#include <cmath>
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
// the elapsed time is measurable, else double; never past `most`.
std::size_t grown_repeats(std::size_t repeats, double elapsed, double target, double resolution,
                          std::size_t most) {
  std::size_t next = repeats * 2;
  if (elapsed > 10 * resolution) {
    next = std::max(next, static_cast<std::size_t>(double(repeats) * 1.2 * target / elapsed));
  }
  return std::min(next, most);
}

void fail(Sampler& s, std::string why) {
  s.phase = Sampler::Phase::Failed;
  s.error = std::move(why);
}

// The first sample of a round that lasted the target; Done when it is the last one asked for.
void take_sample(Sampler& s, double elapsed) {
  s.seconds_per_call.push_back(elapsed / double(s.units));
  s.phase = int(s.seconds_per_call.size()) >= s.options.samples ? Sampler::Phase::Done : Sampler::Phase::Sample;
}
}  // namespace

float consumed_checksum() { return g_sink; }

double run_sample(const std::function<void()>& call, std::size_t repeats) {
  const double t0 = now_seconds();
  for (std::size_t r = 0; r < repeats; ++r) call();
  return (now_seconds() - t0) / double(repeats);
}

Result<Sampler> start_sampler(const SamplerOptions& o) {
  using R = Result<Sampler>;
  if (!(o.timer_resolution > 0 && std::isfinite(o.timer_resolution)))
    return R::failure("timer_resolution must be a positive number of seconds, got " + format_number(o.timer_resolution));
  if (!(o.min_sample_seconds >= 0 && o.min_sample_seconds <= 10))
    return R::failure("min_sample_seconds must be from 0 to 10, got " + format_number(o.min_sample_seconds));
  if (o.samples < 1 || o.samples > 1000)
    return R::failure("samples must be an integer from 1 to 1000, got " + std::to_string(o.samples));
  if (o.max_units < 1) return R::failure("max_units must be at least 1, got 0");
  Sampler s;
  s.options = o;
  s.target = std::max(kTicksPerSample * o.timer_resolution, o.min_sample_seconds);
  s.phase = o.warm_round ? Sampler::Phase::Warm : Sampler::Phase::Calibrate;
  return R::success(std::move(s));
}

void record_round(Sampler& s, double elapsed) {
  using Phase = Sampler::Phase;
  if (s.finished()) return;
  if (!(elapsed >= 0 && std::isfinite(elapsed))) {
    return fail(s, "a round of " + std::to_string(s.units) + " units lasted " + format_number(elapsed) +
                       " s: the clock went backwards or stopped");
  }
  const auto grow = [&] {
    s.units = grown_repeats(s.units, elapsed, s.target, s.options.timer_resolution, s.options.max_units);
  };
  switch (s.phase) {
    case Phase::Warm:
      s.warm_seconds = elapsed;
      s.phase = Phase::Calibrate;
      return;
    case Phase::Calibrate: {
      if (elapsed < s.target) {
        if (s.units >= s.options.max_units) {
          return fail(s, "could not make a sample last " + format_number(s.target) + " s within " +
                             std::to_string(s.options.max_units) + " repeats");
        }
        s.previous = -1;
        return grow();
      }
      if (!s.options.settle) return take_sample(s, elapsed);
      const bool agree = s.previous >= 0 && std::fabs(elapsed - s.previous) <= kSettledWithin * std::max(elapsed, s.previous);
      if (agree || ++s.settling > kSettlingRounds) {
        s.phase = Phase::Sample;
        return;
      }
      s.previous = elapsed;
      return;
    }
    case Phase::Sample: {
      if (sample_long_enough(s.units, elapsed / double(s.units), s.target)) return take_sample(s, elapsed);
      if (s.recalibrations == kMaxRecalibrations || s.units >= s.options.max_units) {
        return fail(s, "a sample of " + std::to_string(s.units) + " calls lasted " + format_number(elapsed) +
                           " s, under the " + format_number(s.target) +
                           " s (100 timer ticks) every sample must last, after " +
                           std::to_string(s.recalibrations) + " recalibrations");
      }
      // The samples run faster than the calibration did: raise R past the target and start over.
      ++s.recalibrations;
      s.seconds_per_call.clear();
      return grow();
    }
    case Phase::Done:
    case Phase::Failed:
      return;
  }
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
  auto resolution = timer_resolution();
  if (!resolution) return Result<Timing>::failure_from(resolution);
  SamplerOptions o;
  o.timer_resolution = resolution.value();
  o.min_sample_seconds = min_sample_seconds;
  o.samples = samples;
  auto started = start_sampler(o);
  if (!started) return Result<Timing>::failure_from(started);
  Sampler s = std::move(started.value());
  while (!s.finished()) record_round(s, run_sample(call, s.units) * double(s.units));
  if (s.phase == Sampler::Phase::Failed) return Result<Timing>::failure(s.error);
  Calibration c{s.units, o.timer_resolution, s.warm_seconds, s.target};
  Timing t = summarize(s.seconds_per_call, c);
  t.recalibrations = s.recalibrations;
  return Result<Timing>::success(t);
}

Result<Timing> time_matmul(const kernels::MatmulVariant& variant, kernels::MatmulBuffers& buffers,
                           int samples, double min_sample_seconds) {
  return time_calls([&variant, &buffers] { call_matmul(variant, buffers); }, samples,
                    min_sample_seconds);
}

}  // namespace rl::measure
