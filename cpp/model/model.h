// The lesson's analytic model: work, minimum traffic, intensity, and a roofline under
// hypothetical budgets. A model, not a measurement: nothing here looks at a clock.
//
// Units: budgets in GFLOP/s and GB/s, so bandwidth · intensity (GB/s · flop/byte) is GFLOP/s
// and the ridge peak / bandwidth is in flops per byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/numbers.h"
#include "common/result.h"

namespace rl::model {

// ---- contract: one matmul (m×k)·(k×n) ---------------------------------------------------
struct Contraction {
  std::int64_t m, k, n, itemsize;
  Count flops;          // 2·m·k·n: multiply-adds only (tanh is not counted)
  Count minimum_bytes;  // itemsize·(m·k + k·n + m·n): each operand read once, result written once
  double intensity;     // flops / minimum_bytes, flops per byte
  std::string intensity_fraction;  // the same ratio exactly, reduced: "16/7"
};

// Refuses a dimension or itemsize that is not a positive integer (0, −1, 2.5, NaN, inf), one
// above 2^53 (no longer exact as a double), and sizes whose counts overflow 128 bits.
Result<Contraction> contract(double m, double k, double n, double itemsize = 4);

// The same from operand shapes, as the exercise states them: a is (a_rows, a_cols), b is
// (b_rows, b_cols); refuses shapes whose inner dimensions differ.
Result<Contraction> contract_shapes(double a_rows, double a_cols, double b_rows, double b_cols,
                                    double itemsize = 4);

// ---- roofline ---------------------------------------------------------------------------
struct Budgets {
  double peak_gflops;    // compute budget
  double bandwidth_gbs;  // memory budget
};

// Largest budget accepted, in GFLOP/s or GB/s (a zetta-scale value). Its job is to catch a
// value typed in FLOP/s (100e9) where GFLOP/s (100) is meant.
constexpr double kMaxBudget = 1e9;

// Refuses budgets that are not positive, finite and at most kMaxBudget.
Result<Budgets> make_budgets(double peak_gflops, double bandwidth_gbs);
// The same rule for one budget alone (a form marks each field with its own message).
Result<double> check_peak(double peak_gflops);
Result<double> check_bandwidth(double bandwidth_gbs);

// The intensity where the bandwidth line meets the compute roof: peak / bandwidth.
double ridge(const Budgets& budgets);

enum class Bound { memory, compute, balanced };
const char* bound_name(Bound bound);  // "memory-bound", "compute-bound", "balanced"

struct Ceiling {
  double intensity;          // flops per byte
  double bandwidth_ceiling;  // bandwidth · intensity, GFLOP/s
  double ceiling;            // min(peak, bandwidth · intensity), GFLOP/s
  Bound bound;               // which budget sets the ceiling (balanced: exactly at the ridge)
};

// Refuses an intensity that is not positive and finite.
Result<Ceiling> ceiling(const Budgets& budgets, double intensity);

// The roof's corner and the ends of [xmin, xmax] (flops per byte), ascending, with their
// ceilings: what a figure draws for a roof (straight lines between them in log–log). Refuses
// bounds that are not positive and finite, or xmin > xmax.
Result<std::vector<Ceiling>> roof_curve(const Budgets& budgets, double xmin, double xmax);

// ---- a program under a roof (the analyze view) ----------------------------------------------
// Which budget bounds `flops` of work moving `bytes`: compute time flops / peak against memory
// time bytes / bandwidth (the intensity against the ridge, with no division by zero bytes: work
// with no traffic is compute-bound). Empty when both are 0: nothing bounds no work.
std::optional<Bound> work_bound(const Budgets& budgets, double flops, double bytes);

// The lower bound on a program's time under the budgets: the largest of compute time
// (flops / peak), memory time (bytes / bandwidth) and, when the program has collective bytes and
// the roof states an interconnect bandwidth (GB/s, > 0), collectives time. Seconds.
struct TimeBound {
  double seconds = 0;
  double compute = 0;
  double memory = 0;
  std::optional<double> collective;  // counted only when modelled
  std::string collectives;           // "none in the program", "modelled", or why not
  std::string
      bound;  // "compute", "memory", "collectives", "balanced (compute = memory)"; "" at 0 s
};
TimeBound time_lower_bound(const Budgets& budgets, double interconnect_gbs, double flops,
                           double bytes, double collective_bytes);

// ---- a measured time set against a roof ---------------------------------------------------
// What `seconds` measured on this machine for `flops` of work moving `bytes` achieved, set beside
// the model: GFLOP/s and GB/s achieved, the lower bound on that work's time under the budgets
// (time_lower_bound, no collectives) and the share of the roof reached, bound / measured — for
// work with flops and bytes that is exactly achieved GFLOP/s over its ceiling. Above 1 when the
// machine beats the budgets (hypothetical budgets may be slower than this machine). A measured
// time is a measurement; the bound is the model. Refuses a time that is not positive and finite
// and counts that are negative or not finite.
struct Achieved {
  double gflops = 0;         // flops / seconds, in GFLOP/s
  double gbs = 0;            // bytes / seconds, in GB/s
  double bound_seconds = 0;  // max(flops / peak, bytes / bandwidth)
  double of_roof = 0;        // bound_seconds / seconds
  double over_bound =
      0;  // seconds / bound_seconds: how many times the lower bound (0: no work, no bound)
};
Result<Achieved> achieved(const Budgets& budgets, double flops, double bytes, double seconds);

// ---- the traffic experiment ---------------------------------------------------------------
// The work is unchanged; multiplying the assumed bytes by `factor` divides intensity by it.
struct TrafficRow {
  Ceiling original;
  Ceiling revised;  // at intensity / factor
  bool bound_changed;
};
// Refuses a traffic factor that is not positive and finite (the rule traffic_experiment applies).
Result<double> check_traffic_factor(double factor);
Result<std::vector<TrafficRow>> traffic_experiment(const Budgets& budgets,
                                                   const std::vector<double>& intensities,
                                                   double factor);

// ---- the traffic experiment set against a measurement ----------------------------------------
// What the roofline predicts when a workload of `flops` moving `bytes` (its 1× run) is made to
// move `factor_bytes` instead, doing `factor_flops` (the measured workloads of measure/traffic.h
// may add a little work with the reads): the time ratio
//   max(factor_flops / peak, factor_bytes / bandwidth) / max(flops / peak, bytes / bandwidth),
// which is the factor itself for memory-bound work and 1 for compute-bound work that stays so.
struct TrafficPrediction {
  double intensity = 0, factor_intensity = 0;  // flops per byte, at 1× and at the factor
  Bound bound = Bound::balanced, factor_bound = Bound::balanced;
  double seconds = 0, factor_seconds = 0;  // the lower bounds on time under the roofs
  double time_ratio = 0;                   // factor_seconds / seconds
};
// Refuses counts that are not positive and finite.
Result<TrafficPrediction> predict_traffic(const Budgets& roofs, double flops, double bytes,
                                          double factor_flops, double factor_bytes);

// ---- figure data, with exactly the seed's structure ---------------------------------------
struct Series {
  std::string label;
  std::vector<double> y;  // GFLOP/s
};
struct Figure {
  std::string kind;       // "line"
  std::vector<double> x;  // the intensities plus the ridge, sorted (duplicates kept, as numpy does)
  std::string xlabel;     // "minimum-traffic operations per byte"
  std::string ylabel;     // "hypothetical ceiling (GFLOP/s)"
  std::vector<Series> series;  // "bandwidth budget", "compute budget", "combined ceiling"
};
Result<Figure> figure(const Budgets& budgets, const std::vector<double>& intensities);

// ---- the seed's defaults, as data ---------------------------------------------------------
namespace lesson {
constexpr std::int64_t kM = 32, kK = 16, kN = 8;  // a = f32[32,16], b = f32[16,8]
constexpr std::int64_t kItemsize = 4;             // f32
constexpr double kPeakGflops = 100;               // hypothetical budgets, not a device
constexpr double kBandwidthGbs = 20;
constexpr double kTrafficFactor = 2;
const std::vector<std::int64_t>& square_sizes();  // 8, 16, 32, 64, 128
// The exercise: shapes (48,24) and (24,12).
constexpr std::int64_t kExerciseA[2] = {48, 24};
constexpr std::int64_t kExerciseB[2] = {24, 12};
}  // namespace lesson

}  // namespace rl::model
