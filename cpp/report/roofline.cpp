#include "report/roofline.h"

#include <algorithm>
#include <cmath>

#include "common/json_writer.h"

namespace rl::report {

using namespace rl::model;

Result<Budgets> roof_budgets(std::size_t i, double peak_gflops, double bandwidth_gbs) {
  auto budgets = make_budgets(peak_gflops, bandwidth_gbs);
  if (!budgets)
    return Result<Budgets>::failure("roofs[" + std::to_string(i) + "]: " + budgets.error());
  return budgets;
}

Result<ProgramRoofline> program_roofline(const RooflineRequest& q) {
  using R = Result<ProgramRoofline>;
  if (q.roofs.empty()) return R::failure("roofs must be a non-empty array of roofs");
  if (q.interconnects.size() != q.roofs.size())
    return R::failure("interconnects must have one entry per roof, got " +
                      std::to_string(q.interconnects.size()) + " for " +
                      std::to_string(q.roofs.size()) + " roofs");
  if (q.flops.size() != q.bytes.size())
    return R::failure("flops and bytes must have one entry per op, got " +
                      std::to_string(q.flops.size()) + " and " + std::to_string(q.bytes.size()));
  if (!q.seconds.empty() && q.seconds.size() != q.flops.size())
    return R::failure("seconds must have one entry per op (NaN: not measured), got " +
                      std::to_string(q.seconds.size()) + " for " + std::to_string(q.flops.size()) +
                      " ops");
  ProgramRoofline out;
  JsonWriter j;
  j.begin_array();
  for (std::size_t i = 0; i < q.roofs.size(); ++i) {
    auto curve = roof_curve(q.roofs[i], q.xmin, q.xmax);
    if (!curve) return R::failure_from(curve);
    const auto t = time_lower_bound(q.roofs[i], q.interconnects[i], q.total_flops, q.total_bytes,
                                    q.total_collective_bytes);
    j.begin_object().field("ridge", ridge(q.roofs[i]));
    j.key("curve").begin_array();
    for (const auto& c : curve.value())
      j.begin_object().field("x", c.intensity).field("y", c.ceiling).end_object();
    j.end_array();
    j.key("time")
        .begin_object()
        .field("seconds", t.seconds)
        .field("compute", t.compute)
        .field("memory", t.memory);
    if (t.collective)
      j.field("collective", *t.collective);
    else
      j.key("collective").null();
    j.field("collectives", t.collectives);
    if (t.bound.empty())
      j.key("bound").null();
    else
      j.field("bound", t.bound);
    j.end_object().end_object();
  }
  j.end_array();
  out.roofs_json = j.text();

  const Budgets& primary = q.roofs.front();
  const auto* codes_end = kBoundCodes + 3;
  out.bounds.assign(q.flops.size(), 0);
  out.ceilings.assign(q.flops.size(), NAN);
  for (std::size_t i = 0; i < q.flops.size(); ++i) {
    const double f = q.flops[i], b = q.bytes[i];
    if (auto bound = work_bound(primary, f, b))
      out.bounds[i] = std::uint8_t(std::find(kBoundCodes, codes_end, *bound) - kBoundCodes + 1);
    if (f > 0 && b > 0) {
      auto c = ceiling(primary, f / b);
      if (c) out.ceilings[i] = c->ceiling;
    }
  }
  // Under the first roof, what each measured op achieved (model::achieved): NaN where not measured,
  // or where the op has no counted work (an unmodeled op: its rate is unknown, not 0).
  const std::size_t n = q.seconds.size();
  out.gflops.assign(n, NAN);
  out.gbs.assign(n, NAN);
  out.of_roof.assign(n, NAN);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = q.seconds[i];
    if (std::isnan(t)) continue;
    auto a = achieved(primary, q.flops[i], q.bytes[i], t);
    if (!a) return R::failure("seconds[" + std::to_string(i) + "]: " + a.error());
    if (q.flops[i] == 0 && q.bytes[i] == 0) continue;
    out.gflops[i] = a->gflops, out.gbs[i] = a->gbs,
    out.of_roof[i] = a->bound_seconds > 0 ? a->of_roof : NAN;
  }
  JsonWriter measured;
  if (q.measured_seconds) {
    auto a = achieved(primary, q.total_flops, q.total_bytes, *q.measured_seconds);
    if (!a) return R::failure_from(a);
    measured.begin_object()
        .field("seconds", *q.measured_seconds)
        .field("gflops", a->gflops)
        .field("gbs", a->gbs)
        .field("bound_seconds", a->bound_seconds)
        .field("of_roof", a->of_roof)
        .field("over_bound", a->over_bound)
        .end_object();
  } else {
    measured.null();
  }
  out.measured_json = measured.text();
  JsonWriter program;
  auto point = q.total_flops > 0 && q.total_bytes > 0
                   ? ceiling(primary, q.total_flops / q.total_bytes)
                   : Result<Ceiling>::failure("");
  if (point)
    program.begin_object().field("x", point->intensity).field("y", point->ceiling).end_object();
  else
    program.null();
  out.program_json = program.text();
  return R::success(std::move(out));
}

}  // namespace rl::report
