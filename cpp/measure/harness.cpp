#include "measure/harness.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/json_reader.h"
#include "common/json_writer.h"
#include "common/numbers.h"
#include "measure/ceilings.h"
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
  s.phase = int(s.seconds_per_call.size()) >= s.options.samples ? Sampler::Phase::Done
                                                                : Sampler::Phase::Sample;
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
    return R::failure("timer_resolution must be a positive number of seconds, got " +
                      format_number(o.timer_resolution));
  if (!(o.min_sample_seconds >= 0 && o.min_sample_seconds <= 10))
    return R::failure("min_sample_seconds must be from 0 to 10, got " +
                      format_number(o.min_sample_seconds));
  if (o.samples < 1 || o.samples > 1000)
    return R::failure("samples must be an integer from 1 to 1000, got " +
                      std::to_string(o.samples));
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
    return fail(s, "a round of " + std::to_string(s.units) + " units lasted " +
                       format_number(elapsed) + " s: the clock went backwards or stopped");
  }
  const auto grow = [&] {
    s.units =
        grown_repeats(s.units, elapsed, s.target, s.options.timer_resolution, s.options.max_units);
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
      const bool agree = s.previous >= 0 && std::fabs(elapsed - s.previous) <=
                                                kSettledWithin * std::max(elapsed, s.previous);
      if (agree || ++s.settling > kSettlingRounds) {
        s.phase = Phase::Sample;
        return;
      }
      s.previous = elapsed;
      return;
    }
    case Phase::Sample: {
      if (sample_long_enough(s.units, elapsed / double(s.units), s.target))
        return take_sample(s, elapsed);
      if (s.recalibrations == kMaxRecalibrations || s.units >= s.options.max_units) {
        return fail(s, "a sample of " + std::to_string(s.units) + " calls lasted " +
                           format_number(elapsed) + " s, under the " + format_number(s.target) +
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

namespace {
const char* const kPhaseNames[] = {"warm", "calibrate", "sample", "done", "failed"};
}  // namespace

std::string sampler_json(const Sampler& s) {
  JsonWriter j;
  j.begin_object();
  j.key("phase").value(kPhaseNames[static_cast<int>(s.phase)]);
  j.key("units").value(double(s.units));
  j.key("target").value(s.target);
  j.key("warm_seconds").value(s.warm_seconds);
  j.key("seconds_per_call").begin_array();
  for (double x : s.seconds_per_call) j.value(x);
  j.end_array();
  j.key("recalibrations").value(double(s.recalibrations));
  j.key("settling").value(double(s.settling));
  j.key("previous").value(s.previous);
  j.key("error").value(s.error);
  j.key("options").begin_object();
  j.key("timer_resolution").value(s.options.timer_resolution);
  j.key("min_sample_seconds").value(s.options.min_sample_seconds);
  j.key("samples").value(double(s.options.samples));
  j.key("warm_round").value(s.options.warm_round);
  j.key("settle").value(s.options.settle);
  j.key("max_units").value(double(s.options.max_units));
  j.end_object();
  j.end_object();
  return j.text();
}

Result<Sampler> sampler_from_json(std::string_view text) {
  using R = Result<Sampler>;
  auto parsed = parse_json(text);
  if (!parsed) return R::failure("sampler: " + parsed.error());
  const Json& root = parsed.value();
  const Json* o = root.find("options");
  if (!o || !o->is_object()) return R::failure("sampler.options must be an object");
  std::string why;
  const auto number = [&](const Json& in, const char* where, const char* key, double lo, double hi,
                          bool whole) {
    const Json* v = in.find(key);
    if (!v || !v->is_number() || !(v->number >= lo && v->number <= hi) ||
        (whole && v->number != std::floor(v->number))) {
      if (why.empty()) {
        why = std::string(where) + key + " must be " + (whole ? "a whole number" : "a number") +
              " from " + format_number(lo) + " to " + format_number(hi) + ", got " +
              (!v               ? std::string("nothing")
               : v->is_number() ? format_number(v->number)
                                : json_type_name(v->type));
      }
      return 0.0;
    }
    return v->number;
  };
  const auto flag = [&](const Json& in, const char* key) {
    const Json* v = in.find(key);
    if (!v || !v->is_bool()) {
      if (why.empty()) why = std::string("sampler.options.") + key + " must be true or false";
      return false;
    }
    return v->boolean;
  };
  SamplerOptions opts;
  opts.timer_resolution = number(*o, "sampler.options.", "timer_resolution", 1e-12, 10, false);
  opts.min_sample_seconds = number(*o, "sampler.options.", "min_sample_seconds", 0, 10, false);
  opts.samples = int(number(*o, "sampler.options.", "samples", 1, 1000, true));
  opts.warm_round = flag(*o, "warm_round");
  opts.settle = flag(*o, "settle");
  opts.max_units =
      std::size_t(number(*o, "sampler.options.", "max_units", 1, double(kMaxRepeats), true));
  if (!why.empty()) return R::failure(why);
  auto started = start_sampler(opts);
  if (!started) return R::failure_from(started);
  Sampler s = std::move(started.value());
  const Json* phase = root.find("phase");
  int p = -1;
  for (int i = 0; phase && phase->is_string() && i < 5; ++i)
    if (phase->string == kPhaseNames[i]) p = i;
  if (p < 0)
    return R::failure("sampler.phase must be one of warm, calibrate, sample, done, failed");
  s.phase = static_cast<Sampler::Phase>(p);
  s.units = std::size_t(number(root, "sampler.", "units", 1, double(opts.max_units), true));
  s.target = number(root, "sampler.", "target", 0, 1e3, false);
  s.warm_seconds = number(root, "sampler.", "warm_seconds", 0, 1e9, false);
  s.recalibrations = int(number(root, "sampler.", "recalibrations", 0, kMaxRecalibrations, true));
  s.settling = int(number(root, "sampler.", "settling", 0, kSettlingRounds + 1, true));
  s.previous = number(root, "sampler.", "previous", -1, 1e9, false);
  if (!why.empty()) return R::failure(why);
  const Json* samples = root.find("seconds_per_call");
  if (!samples || !samples->is_array() || samples->items.size() > std::size_t(opts.samples))
    return R::failure("sampler.seconds_per_call must be an array of at most " +
                      std::to_string(opts.samples) + " numbers");
  for (const Json& x : samples->items) {
    if (!x.is_number() || !(x.number >= 0))
      return R::failure("sampler.seconds_per_call must hold seconds (numbers ≥ 0)");
    s.seconds_per_call.push_back(x.number);
  }
  const Json* error = root.find("error");
  if (!error || !error->is_string()) return R::failure("sampler.error must be a string");
  s.error = error->string;
  return R::success(std::move(s));
}

namespace {
// The median of xs (0 for none): the middle one, or the mean of the middle two.
double median_of(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const std::size_t n = xs.size();
  return n == 0 ? 0 : n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}
}  // namespace

Timing summarize(const std::vector<double>& samples, const Calibration& calibration) {
  Timing t;
  t.seconds_per_call = samples;
  t.min = samples.empty() ? 0 : *std::min_element(samples.begin(), samples.end());
  t.max = samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end());
  t.median = median_of(samples);
  t.repeats = calibration.repeats;
  t.timer_resolution = calibration.timer_resolution;
  t.warm_seconds = calibration.warm_seconds;
  t.target_sample_seconds = calibration.target_sample_seconds;
  return t;
}

Result<Timing> time_calls(const std::function<void()>& call, int samples,
                          double min_sample_seconds) {
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

Result<PairedShare> matmul_share_of_ceiling(const kernels::MatmulVariant& variant,
                                            kernels::MatmulBuffers& buffers, std::size_t repeats,
                                            int rounds, double ceiling_seconds) {
  using R = Result<PairedShare>;
  if (rounds < 1 || rounds > 100)
    return R::failure("rounds must be from 1 to 100, got " + std::to_string(rounds));
  if (repeats < 1) return R::failure("repeats must be at least 1, got 0");
  const auto& s = buffers.shape;
  const double flops = 2.0 * double(s.m) * double(s.k) * double(s.n);
  PairedShare out;
  std::vector<double> kernel, ceiling;
  for (int r = 0; r < rounds; ++r) {
    auto c = measure_compute(ceiling_seconds, 1);
    if (!c) return R::failure_from(c);
    const double seconds = run_sample([&] { call_matmul(variant, buffers); }, repeats);
    if (!(seconds > 0)) return R::failure("a round of the kernel lasted no measurable time");
    const double g = flops / seconds / 1e9;
    kernel.push_back(g);
    ceiling.push_back(c->gflops);
    out.ratios.push_back(g / c->gflops);
  }
  out.median = median_of(out.ratios);
  out.min = *std::min_element(out.ratios.begin(), out.ratios.end());
  out.max = *std::max_element(out.ratios.begin(), out.ratios.end());
  out.kernel_gflops_median = median_of(kernel);
  out.ceiling_gflops_median = median_of(ceiling);
  return R::success(std::move(out));
}

}  // namespace rl::measure
