// A program under roofs, as the analyze view draws it: composed here from the model's rules
// (ceiling, ridge, roof_curve, work_bound, time_lower_bound, achieved), so the binding only
// converts and JS only draws.
//
// Every roof gets its ridge, its curve over [xmin, xmax] and the program's lower bound on time
// (roofs_json: [{ridge, curve: [{x, y}], time: {seconds, compute, memory, collective, collectives,
// bound}}]). Under the first roof: each op's bound (a code: 0 none, i → kBoundCodes[i − 1]) and
// ceiling (GFLOP/s, NaN: none), the program's point (program_json: {x, y} | null), and with
// measured times what each measured op achieved (gflops, gbs, of_roof; NaN where not measured or
// no bound) and the program's total (measured_json: {seconds, gflops, gbs, bound_seconds,
// of_roof, over_bound} | null). The per-op columns are plain vectors: a big program has 10^5 ops.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/model.h"

namespace rl::report {

// The order of bound codes in ProgramRoofline::bounds (code i names kBoundCodes[i − 1]).
inline constexpr model::Bound kBoundCodes[] = {model::Bound::memory, model::Bound::compute,
                                               model::Bound::balanced};

struct RooflineRequest {
  std::vector<model::Budgets> roofs;  // at least one; the first is the one ops are read under
  std::vector<double> interconnects;  // GB/s per roof, 0: none
  std::vector<double> flops, bytes;   // per op
  std::vector<double> seconds;        // per op, NaN: not measured; empty: no run
  double total_flops = 0, total_bytes = 0, total_collective_bytes = 0;
  double xmin = 0, xmax = 0;
  std::optional<double> measured_seconds;  // the program's measured total
};

struct ProgramRoofline {
  std::string roofs_json, program_json, measured_json;
  std::vector<std::uint8_t> bounds;
  std::vector<double> ceilings;
  std::vector<double> gflops, gbs, of_roof;  // empty without measured seconds
};

// Roof i of a request (0-based): its budgets by model::make_budgets, a refusal named
// "roofs[i]: …".
Result<model::Budgets> roof_budgets(std::size_t i, double peak_gflops, double bandwidth_gbs);

// Refuses what the rules refuse, naming the input: "seconds must have one entry per op (NaN: not
// measured), got 2 for 3 ops", "seconds[1]: …", a curve's range.
Result<ProgramRoofline> program_roofline(const RooflineRequest& request);

}  // namespace rl::report
