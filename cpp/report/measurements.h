// This machine's measurements as the page and the CLIs receive them, composed here so the
// bindings only convert: the harness's rules on a sample count, the lesson's kernel checked and
// timed, and section 6's experiment measured (measure/traffic.h) with what it derives from the
// times (GFLOP/s, GB/s, the roofs' ridge). Each value is JSON text through the one writer
// (common/json_writer.h); web/core.js parses it. Keys are snake_case, as in the CLI's JSON.
#pragma once

#include <optional>
#include <string>

#include "common/json_writer.h"
#include "common/result.h"
#include "kernels/kernels.h"
#include "measure/harness.h"
#include "measure/traffic.h"

namespace rl::report {

// A count of samples for the harness: an integer from 1 to `most` ("samples must be an integer
// from 1 to 1000, got 0").
Result<int> sample_count(double samples, int most);

// A harness timing's fields, as timeKernel and measureTraffic give them: seconds_per_call, median,
// min, max, repeats, timer_resolution, warm_seconds, target_sample_seconds, recalibrations.
void write_timing(JsonWriter& j, const measure::Timing& t);

// [{name, isa, mr, nr, fused_tanh, packs_b, default}]: the kernel variants; `default` marks the
// one an undefined variant means (kernels::best_matmul(true)).
std::string kernel_variants_json();

// The lesson's check's fields (max_abs_error, passed, worst_ratio, worst_index, worst_value,
// worst_reference, atol, rtol) into the object `j` is writing: checkLessonKernel, checkLessonIr and
// the lesson report's kernel_check give them.
void write_kernel_check(JsonWriter& j, const kernels::CheckResult& c);

// The lesson's kernel check: `variant` run on the lesson's inputs (a = arange(512)/512 as 32×16,
// b = arange(128)/128 as 16×8) and checked against the double reference at
// |x − y| ≤ 2e-5 + 2e-5·|y|.
Result<kernels::CheckResult> check_lesson_kernel(const kernels::MatmulVariant& variant);
// {variant, max_abs_error, passed, worst_ratio, worst_index, worst_value, worst_reference, atol,
// rtol}: checkLessonKernel's value.
Result<std::string> lesson_kernel_check_json(const kernels::MatmulVariant& variant);
// checkLessonIr's value: the same check's fields (without the variant) and the IR's ops timed
// (report/lesson_check.h).
Result<std::string> lesson_ir_check_json();

// One warm run, then `samples` samples of R calls each (R calibrated to the timer), every sample
// at least `min_sample_seconds` (0 to 10; none: the timer's 100 ticks alone). Inputs: the
// lesson's for 32×16×8, uniform random otherwise. {variant, m, k, n, the timing's fields,
// gflops_median}: the model's work per call (2·m·k·n) at the median time, GFLOP/s.
Result<std::string> time_kernel_json(const kernels::MatmulVariant& variant,
                                     const kernels::MatmulShape& shape, int samples,
                                     std::optional<double> min_sample_seconds);

// measureTraffic's options as given: samples (an integer from 1 to 100, default 3) and the order
// of reads, "after-array" (default) or "right-away"; `reread_shown` is how a refused one is named
// in the message ("\"sideways\"", or the type of a value that is not a string).
struct TrafficRequest {
  double factor = 0;
  std::optional<double> samples;
  std::optional<std::string> reread;
  std::string reread_shown;
};

// Section 6's experiment measured (measure::measure_traffic): {factor_asked, reread, reread_name,
// factor, elements, array_bytes, roofs: {peak_gflops, bandwidth_gbs, ridge}, agreement_tolerance,
// compute_bound_steps, workloads: [memory-bound, compute-bound]}, each workload {name, steps,
// once, factor, measured_ratio, predicted, agreement, verdict}, each run {reads, flops, bytes,
// the timing's fields, gflops, gbs}.
Result<std::string> measure_traffic_json(const TrafficRequest& request);
std::string traffic_json(const measure::TrafficMeasurement& m);

}  // namespace rl::report
