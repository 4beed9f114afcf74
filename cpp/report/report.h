// The lesson's report, composed by the core in one call: the seed's steps for any inputs. The
// page (through the bindings' lessonReport) and `node scripts/lesson.mjs` print and draw this
// one object, so they cannot disagree, and JS computes none of it.
//
//   step 1   the StableHLO of tanh(a @ b) (hlo::emit_workload) and its contract, read back by
//            the parser and the verifier;
//   step 2   the kernel run on the seed's inputs and checked against the double reference, and
//            the cost estimate of the IR with XLA's rules (hlo::analyze);
//   model    contract(m, k, n, itemsize), square sizes, ceilings and bounds under hypothetical
//            budgets, the ridge, the traffic experiment and its revised roof, the figure's data;
//   figure   this machine's measured roofs and kernel point, when measurements are given, on one
//            core and on every other core count measured (they stay measurements: nothing of
//            them enters the model's numbers);
//   exercise the seed's (48,24)·(24,12) with its questions (exercises::lesson_exercise) and, when
//            answers are given, the checker's verdicts.
//
// A refused input is named ("m", "sizes", "peak", "traffic_factor", "dtype", …) with the model's
// message, so the page can put it next to its field and the CLI next to its option.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exercises/exercises.h"
#include "hlo/cost.h"
#include "kernels/kernels.h"
#include "model/model.h"

namespace rl::report {

// The element types the lesson emits StableHLO for, with their itemsize in bytes.
struct Dtype {
  std::string name;  // "f32", "bf16", "f16", "f64"
  int itemsize;
};
const std::vector<Dtype>& dtypes();
// The usual element type of an itemsize when none is chosen: 2 → bf16, 4 → f32, 8 → f64; "" for
// any other (a model without StableHLO).
std::string dtype_of_itemsize(double itemsize);

// The seed's values as JSON text (lessonDefaults): m, k, n, itemsize, peak, bandwidth,
// traffic_factor, sizes, exercise {a, b}, max_budget, then the element types the lesson emits
// ({f32: 4, …}) and the usual one of each itemsize ({"2": "bf16", …}): the page's dtype selector
// and its dtype ↔ itemsize link read these.
std::string defaults_json();

// The inputs; one left empty takes the seed's value (model::lesson).
struct Params {
  std::optional<double> m, k, n, itemsize, peak, bandwidth, traffic_factor;
  std::optional<std::string> dtype;  // sets the element type and, without an itemsize, the itemsize
  std::optional<std::vector<double>> sizes;
};

// A lesson input that is a number, by the name the page and the CLI give it ("m", …,
// "traffic_factor"): its field of Params and how a message names it ("traffic factor"). Any other
// name but dtype and sizes (not numbers: the caller reads them apart) is refused, naming the
// lesson's inputs: "unknown lesson input \"x\": one of m, k, n, dtype, itemsize, …".
struct NumberInput {
  std::optional<double> Params::*field;
  const char* shown;
};
Result<NumberInput> number_input(const std::string& name);

// The ceilings measured on one core count: compute and a bandwidth per level.
struct MeasuredCeilings {
  int cores = 1;
  double gflops = 0;                                          // compute ceiling, GFLOP/s
  std::vector<std::pair<std::string, double>> bandwidth_gbs;  // level → GB/s, in drawing order
};

// One timing of the kernel: its size, the Workers it ran on at once, its measured GFLOP/s.
struct MeasuredKernel {
  double m = 0, k = 0, n = 0;
  int cores = 1;
  double gflops = 0;
};

// A core count a measurement was taken on: an integer from 1 to 256 (the Worker pool's limit);
// `name` is how the message calls it ("measured.kernels[0].cores must be an integer from 1 to
// 256, got 0").
Result<int> core_count(const std::string& name, double cores);

// This machine's measurements, for the figure: a roof per bandwidth level and the measured
// kernel's point (its model intensity at itemsize 4, its measured GFLOP/s), on one core; and,
// when more core counts were measured (all cores at once, through the Worker pool), their
// roofs and every kernel timing, one layer per core count.
struct Measured {
  double gflops = 0;                                          // compute ceiling on 1 core, GFLOP/s
  std::vector<std::pair<std::string, double>> bandwidth_gbs;  // level → GB/s, in drawing order
  double m = 0, k = 0, n = 0, point_gflops = 0;               // the headline kernel point, 1 core
  std::vector<MeasuredCeilings> other_cores;  // the ceilings on other core counts (> 1), if any
  std::vector<MeasuredKernel> kernels;        // every kernel timing; empty: the headline point only
};

struct Extras {
  std::optional<Measured> measured;
  // The exercise's answers as typed, by question id ("work", "traffic", "ratio", "bound"); a
  // blank one is not checked.
  std::vector<std::pair<std::string, std::string>> answers;
};

// Step 1 and the estimate of step 2.
struct Lowered {
  std::string dtype;
  std::string text;                      // as JAX prints it
  std::vector<std::string> ops_present;  // without the dialect prefix: "dot_general", "tanh"
  bool has_dot_general = false, has_tanh = false;
  std::string result_type;  // the dot's result type, "tensor<32x8xf32>"
  hlo::Analysis cost;       // totals and per-op rows (the entry's ops)
};

struct SizeRow {
  model::Contraction contraction;  // n×n·n×n at the itemsize
  model::TrafficRow traffic;       // its ceiling and bound, before and after the traffic factor
};

struct MeasuredRoof {
  std::string level;  // "l1", "l2", "memory", as given
  double gflops, gbs, ridge;
  std::vector<model::Ceiling> points;  // over the figure's intensities and every corner
};
struct MeasuredPoint {
  double x, y;  // a measured kernel: model intensity, measured GFLOP/s
  double m, k, n;
  int cores;
};
// One core count's roofs and kernel points.
struct MeasuredLayer {
  int cores;
  std::vector<MeasuredRoof> roofs;
  std::vector<MeasuredPoint> points;
};
struct MeasuredRoofline {
  std::vector<MeasuredRoof> roofs;  // on 1 core (layers' first)
  double x, y;  // the headline measured kernel: model intensity, measured GFLOP/s (1 core)
  double m, k, n;
  // Per core count, ascending (1 core first); every roof over the same intensities: the figure's,
  // every kernel point's and every roof's corner.
  std::vector<MeasuredLayer> layers;
};

struct Report {
  double traffic_factor = 0;
  model::Budgets budgets{};
  std::optional<Lowered> lowered;
  std::string stablehlo_unavailable;  // why there is no StableHLO (an itemsize with no float type)
  std::string kernel_variant;
  kernels::CheckResult kernel_check;
  model::Contraction accounting;
  std::vector<SizeRow> sizes;
  double ridge = 0;
  model::Figure figure;
  double revised_ridge = 0;  // the corner of the roof with more traffic
  std::vector<model::Ceiling>
      revised_curve;  // that roof over the figure's axis (x: minimum-traffic intensity)
  std::vector<double> revised_curve_x;
  model::Contraction exercise_contraction;
  model::Ceiling exercise_ceiling;
  exercises::Exercise exercise;
  std::vector<std::pair<std::string, exercises::Verdict>> checked;  // in question order
  std::optional<MeasuredRoofline> measured;
};

// One refused input: its name ("m", "sizes", …) and the message naming the rule and the value.
struct Refusal {
  std::string input;
  std::string error;
};

// Every given input that its own rule refuses, each judged alone, in the page's field order (m, k,
// n, dtype, itemsize, sizes, peak, bandwidth, traffic_factor): a form marks them all at once.
// Empty when each is acceptable on its own (together they may still be refused: counts that
// overflow).
std::vector<Refusal> check_inputs(const Params& params);

struct Outcome {
  bool ok() const { return error.empty(); }
  Report report;                 // when ok
  std::string input;             // when not: which input is refused (the first of `refused`)
  std::string error;             // and why: the input, the rule and the value
  std::vector<Refusal> refused;  // when not: every refused input (check_inputs), or this one alone
};

Outcome build(const Params& params, const Extras& extras = {});

// The report as JSON text, with the keys (and order) the seed's report has had since the first
// CLI, then what the figure and the experiment draw: what lessonReport hands the page and
// `scripts/lesson.mjs` prints.
std::string report_json(const Report& r);

}  // namespace rl::report
