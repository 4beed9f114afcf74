#include "report/measurements.h"

#include <cmath>

#include "common/numbers.h"
#include "model/model.h"
#include "report/lesson_check.h"

namespace rl::report {

namespace {

const char* reread_spelling(measure::Reread reread) {
  return reread == measure::Reread::right_away ? "right-away" : "after-array";
}

void write_run(JsonWriter& j, const measure::TrafficRun& r) {
  j.begin_object().field("reads", r.reads).field("flops", r.flops).field("bytes", r.bytes);
  write_timing(j, r.timing);
  j.field("gflops", r.flops / r.timing.median / 1e9)
      .field("gbs", r.bytes / r.timing.median / 1e9)
      .end_object();
}

}  // namespace

void write_kernel_check(JsonWriter& j, const kernels::CheckResult& c) {
  j.field("max_abs_error", c.max_abs_error)
      .field("passed", c.passed)
      .field("worst_ratio", c.worst_ratio)
      .field("worst_index", static_cast<double>(c.worst_index))
      .field("worst_value", static_cast<double>(c.worst_value))
      .field("worst_reference", c.worst_reference)
      .field("atol", kernels::kLessonAtol)
      .field("rtol", kernels::kLessonRtol);
}

std::string kernel_variants_json() {
  JsonWriter j;
  j.begin_array();
  for (const auto& v : kernels::matmul_variants()) {
    j.begin_object()
        .field("name", v.name)
        .field("isa", v.isa)
        .field("mr", v.mr)
        .field("nr", v.nr)
        .field("fused_tanh", v.fused_tanh)
        .field("packs_b", v.packs_b)
        .field("default", &v == &kernels::best_matmul(true))
        .end_object();
  }
  j.end_array();
  return j.take();
}

Result<int> sample_count(double samples, int most) {
  if (!(samples >= 1 && samples <= most && samples == int(samples))) {
    return Result<int>::failure("samples must be an integer from 1 to " + std::to_string(most) +
                                ", got " + format_number(samples));
  }
  return Result<int>::success(int(samples));
}

void write_timing(JsonWriter& j, const measure::Timing& t) {
  j.key("seconds_per_call").numbers(t.seconds_per_call);
  j.field("median", t.median)
      .field("min", t.min)
      .field("max", t.max)
      .field("repeats", double(t.repeats))
      .field("timer_resolution", t.timer_resolution)
      .field("warm_seconds", t.warm_seconds)
      .field("target_sample_seconds", t.target_sample_seconds)
      .field("recalibrations", t.recalibrations);
}

Result<kernels::CheckResult> check_lesson_kernel(const kernels::MatmulVariant& variant) {
  using R = Result<kernels::CheckResult>;
  auto shape = kernels::check_matmul_shape(double(model::lesson::kM), double(model::lesson::kK),
                                           double(model::lesson::kN));
  if (!shape) return R::failure_from(shape);
  auto buffers = kernels::allocate_matmul(shape.value());
  if (!buffers) return R::failure_from(buffers);
  kernels::fill_lesson_inputs(buffers.value());
  return kernels::check_matmul(variant, buffers.value());
}

Result<std::string> lesson_kernel_check_json(const kernels::MatmulVariant& variant) {
  auto check = check_lesson_kernel(variant);
  if (!check) return Result<std::string>::failure_from(check);
  JsonWriter j;
  j.begin_object().field("variant", variant.name);
  write_kernel_check(j, check.value());
  j.end_object();
  return Result<std::string>::success(j.take());
}

Result<std::string> lesson_ir_check_json() {
  auto r = check_lesson_ir();
  if (!r) return Result<std::string>::failure_from(r);
  JsonWriter j;
  j.begin_object();
  write_kernel_check(j, r->check);
  // The module it ran: the seed's, whatever sizes the page shows (its view says which).
  j.field("m", static_cast<double>(model::lesson::kM))
      .field("k", static_cast<double>(model::lesson::kK))
      .field("n", static_cast<double>(model::lesson::kN))
      .field("dtype", "f32");
  j.field("inputs", r->inputs)
      .field("ops_seconds", r->ops_seconds)
      .field("ops", static_cast<double>(r->ops))
      .end_object();
  return Result<std::string>::success(j.take());
}

Result<std::string> time_kernel_json(const kernels::MatmulVariant& variant,
                                     const kernels::MatmulShape& shape, int samples,
                                     std::optional<double> min_sample_seconds) {
  using R = Result<std::string>;
  double min_seconds = 0;
  if (min_sample_seconds) {
    if (!(*min_sample_seconds >= 0 && *min_sample_seconds <= 10)) {
      return R::failure("min_sample_seconds must be from 0 to 10, got " +
                        format_number(*min_sample_seconds));
    }
    min_seconds = *min_sample_seconds;
  }
  auto buffers = kernels::allocate_matmul(shape);
  if (!buffers) return R::failure_from(buffers);
  auto& b = buffers.value();
  if (shape.m == 32 && shape.k == 16 && shape.n == 8) {
    kernels::fill_lesson_inputs(b);
  } else {
    kernels::fill_uniform(b.a.data(), b.a.size(), 1);
    kernels::fill_uniform(b.b.data(), b.b.size(), 2);
  }
  auto t = measure::time_matmul(variant, b, samples, min_seconds);
  if (!t) return R::failure_from(t);
  JsonWriter j;
  j.begin_object()
      .field("variant", variant.name)
      .field("m", double(shape.m))
      .field("k", double(shape.k))
      .field("n", double(shape.n));
  write_timing(j, t.value());
  // The model's work per call (2·m·k·n) at the median time: a measured rate, GFLOP/s.
  const auto work = model::contract(double(shape.m), double(shape.k), double(shape.n), 4);
  j.field("gflops_median", work ? static_cast<double>(work->flops) / t->median / 1e9 : NAN);
  j.end_object();
  return R::success(j.take());
}

Result<std::string> measure_traffic_json(const TrafficRequest& q) {
  using R = Result<std::string>;
  int samples = 3;
  if (q.samples) {
    auto n = sample_count(*q.samples, 100);
    if (!n) return R::failure_from(n);
    samples = n.value();
  }
  auto reread = measure::Reread::after_array;
  if (q.reread) {
    if (*q.reread == reread_spelling(measure::Reread::right_away)) {
      reread = measure::Reread::right_away;
    } else if (*q.reread != reread_spelling(measure::Reread::after_array)) {
      return R::failure("reread must be \"after-array\" or \"right-away\", got " + q.reread_shown);
    }
  }
  auto m = measure::measure_traffic(q.factor, reread, samples);
  if (!m) return R::failure_from(m);
  return R::success(traffic_json(m.value()));
}

std::string traffic_json(const measure::TrafficMeasurement& m) {
  JsonWriter j;
  j.begin_object()
      .field("factor_asked", m.factor_asked)
      .field("reread", reread_spelling(m.reread))
      .field("reread_name", measure::reread_name(m.reread))
      .field("factor", m.factor)
      .field("elements", double(m.elements))
      .field("array_bytes", double(m.array_bytes));
  j.key("roofs")
      .begin_object()
      .field("peak_gflops", m.roofs.peak_gflops)
      .field("bandwidth_gbs", m.roofs.bandwidth_gbs)
      .field("ridge", model::ridge(m.roofs))
      .end_object();
  j.field("agreement_tolerance", measure::kTrafficAgreement)
      .field("compute_bound_steps", measure::kComputeBoundSteps);
  j.key("workloads").begin_array();
  for (const measure::TrafficWorkload* w : {&m.memory, &m.compute}) {
    j.begin_object().field("name", w->name).field("steps", w->steps);
    j.key("once");
    write_run(j, w->once);
    j.key("factor");
    write_run(j, w->factor);
    j.field("measured_ratio", w->measured_ratio);
    const auto& p = w->predicted;
    j.key("predicted")
        .begin_object()
        .field("intensity", p.intensity)
        .field("factor_intensity", p.factor_intensity)
        .field("bound", model::bound_name(p.bound))
        .field("factor_bound", model::bound_name(p.factor_bound))
        .field("seconds", p.seconds)
        .field("factor_seconds", p.factor_seconds)
        .field("time_ratio", p.time_ratio)
        .end_object();
    j.field("agreement", w->agreement).field("verdict", w->verdict).end_object();
  }
  j.end_array().end_object();
  return j.take();
}

}  // namespace rl::report
