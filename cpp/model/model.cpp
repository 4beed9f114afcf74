#include "model/model.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rl::model {

namespace {

Result<double> positive_finite(const char* name, double value, const char* unit) {
  if (!std::isfinite(value) || value <= 0) {
    return Result<double>::failure_for(name, std::string(name) +
                                                 " must be a positive, finite number" + unit +
                                                 ", got " + typed_value(value));
  }
  return Result<double>::success(value);
}

std::string dims_text(std::int64_t m, std::int64_t k, std::int64_t n) {
  return "m=" + std::to_string(m) + ", k=" + std::to_string(k) + ", n=" + std::to_string(n);
}

}  // namespace

Result<Contraction> contract(double m_in, double k_in, double n_in, double itemsize_in) {
  using R = Result<Contraction>;
  auto m = positive_integer("m", m_in);
  if (!m) return R::failure_from(m);
  auto k = positive_integer("k", k_in);
  if (!k) return R::failure_from(k);
  auto n = positive_integer("n", n_in);
  if (!n) return R::failure_from(n);
  auto itemsize = positive_integer("itemsize", itemsize_in);
  if (!itemsize) return R::failure_from(itemsize);

  const Count M = m.value(), K = k.value(), N = n.value(), S = itemsize.value();
  Count mk, mkn, flops;
  if (!checked_mul(M, K, &mk) || !checked_mul(mk, N, &mkn) || !checked_mul(2, mkn, &flops)) {
    return R::failure("flops = 2·m·k·n does not fit in 128 bits for " +
                      dims_text(m.value(), k.value(), n.value()) + "; use smaller dimensions");
  }
  Count kn, mn, elements, bytes;
  if (!checked_mul(K, N, &kn) || !checked_mul(M, N, &mn) || !checked_add(mk, kn, &elements) ||
      !checked_add(elements, mn, &elements) || !checked_mul(S, elements, &bytes)) {
    return R::failure("minimum bytes = itemsize·(m·k + k·n + m·n) does not fit in 128 bits for " +
                      dims_text(m.value(), k.value(), n.value()) +
                      ", itemsize=" + std::to_string(itemsize.value()));
  }
  Contraction c;
  c.m = m.value();
  c.k = k.value();
  c.n = n.value();
  c.itemsize = itemsize.value();
  c.flops = flops;
  c.minimum_bytes = bytes;
  // Both counts convert to the nearest double; below 2^53 they are exact, so the quotient is
  // the correctly rounded ratio (8192 / 3584 is the double nearest 16/7).
  c.intensity = static_cast<double>(flops) / static_cast<double>(bytes);
  c.intensity_fraction = reduced_fraction(flops, bytes);
  return R::success(c);
}

Result<Contraction> contract_shapes(double a_rows, double a_cols, double b_rows, double b_cols,
                                    double itemsize) {
  using R = Result<Contraction>;
  // Check every shape entry first so the message names the one that is wrong.
  const std::pair<const char*, double> entries[] = {
      {"a rows", a_rows}, {"a columns", a_cols}, {"b rows", b_rows}, {"b columns", b_cols}};
  for (const auto& [name, value] : entries) {
    auto v = positive_integer(name, value);
    if (!v) return R::failure_from(v);
  }
  if (a_cols != b_rows) {
    return R::failure("inner dimensions must match (columns of a = rows of b), got a (" +
                      format_number(a_rows) + "," + format_number(a_cols) + ") and b (" +
                      format_number(b_rows) + "," + format_number(b_cols) + ")");
  }
  return contract(a_rows, a_cols, b_cols, itemsize);
}

Result<double> check_peak(double peak_gflops) {
  auto peak = positive_finite("peak", peak_gflops, " of GFLOP/s");
  if (peak && peak_gflops > kMaxBudget) {
    return Result<double>::failure_for(
        "peak",
        "peak must be at most 1e9 GFLOP/s (budgets are in GFLOP/s: 100e9 FLOP/s is 100), got " +
            format_number(peak_gflops));
  }
  return peak;
}

Result<double> check_bandwidth(double bandwidth_gbs) {
  auto bandwidth = positive_finite("bandwidth", bandwidth_gbs, " of GB/s");
  if (bandwidth && bandwidth_gbs > kMaxBudget) {
    return Result<double>::failure_for(
        "bandwidth",
        "bandwidth must be at most 1e9 GB/s (budgets are in GB/s: 20e9 B/s is 20), got " +
            format_number(bandwidth_gbs));
  }
  return bandwidth;
}

Result<Budgets> make_budgets(double peak_gflops, double bandwidth_gbs) {
  using R = Result<Budgets>;
  // Both positive and finite before either's upper limit: the order the messages always had.
  auto peak = positive_finite("peak", peak_gflops, " of GFLOP/s");
  if (!peak) return R::failure_from(peak);
  auto bandwidth = positive_finite("bandwidth", bandwidth_gbs, " of GB/s");
  if (!bandwidth) return R::failure_from(bandwidth);
  auto peak_in_range = check_peak(peak_gflops);
  if (!peak_in_range) return R::failure_from(peak_in_range);
  auto bandwidth_in_range = check_bandwidth(bandwidth_gbs);
  if (!bandwidth_in_range) return R::failure_from(bandwidth_in_range);
  return R::success(Budgets{peak_gflops, bandwidth_gbs});
}

double ridge(const Budgets& budgets) { return budgets.peak_gflops / budgets.bandwidth_gbs; }

const char* bound_name(Bound bound) {
  switch (bound) {
    case Bound::memory:
      return "memory-bound";
    case Bound::compute:
      return "compute-bound";
    case Bound::balanced:
      return "balanced";
  }
  return "?";
}

Result<Ceiling> ceiling(const Budgets& budgets, double intensity) {
  using R = Result<Ceiling>;
  auto ok = positive_finite("intensity", intensity, " of flops per byte");
  if (!ok) return R::failure_from(ok);
  Ceiling c;
  c.intensity = intensity;
  c.bandwidth_ceiling = budgets.bandwidth_gbs * intensity;
  c.ceiling = std::min(budgets.peak_gflops, c.bandwidth_ceiling);
  c.bound = c.bandwidth_ceiling < budgets.peak_gflops   ? Bound::memory
            : c.bandwidth_ceiling > budgets.peak_gflops ? Bound::compute
                                                        : Bound::balanced;
  return R::success(c);
}

Result<std::vector<Ceiling>> roof_curve(const Budgets& budgets, double xmin, double xmax) {
  using R = Result<std::vector<Ceiling>>;
  auto lo = positive_finite("xmin", xmin, " of flops per byte");
  if (!lo) return R::failure_from(lo);
  auto hi = positive_finite("xmax", xmax, " of flops per byte");
  if (!hi) return R::failure_from(hi);
  if (xmin > xmax)
    return R::failure("xmin must be at most xmax, got " + format_number(xmin) + " > " +
                      format_number(xmax));
  std::vector<double> xs = {xmin};
  const double corner = ridge(budgets);
  if (corner > xmin && corner < xmax) xs.push_back(corner);
  if (xmax > xmin) xs.push_back(xmax);
  std::vector<Ceiling> out;
  for (double x : xs) out.push_back(ceiling(budgets, x).value());  // x is positive and finite here
  return R::success(out);
}

std::optional<Bound> work_bound(const Budgets& budgets, double flops, double bytes) {
  // Times in the budgets' units (the factor 1e9 is common to both and cancels in the comparison).
  const double compute = flops / budgets.peak_gflops, memory = bytes / budgets.bandwidth_gbs;
  if (compute == 0 && memory == 0) return std::nullopt;
  return compute > memory ? Bound::compute : compute < memory ? Bound::memory : Bound::balanced;
}

TimeBound time_lower_bound(const Budgets& budgets, double interconnect_gbs, double flops,
                           double bytes, double collective_bytes) {
  TimeBound t;
  t.compute = flops / (budgets.peak_gflops * 1e9);
  t.memory = bytes / (budgets.bandwidth_gbs * 1e9);
  t.collectives = "none in the program";
  if (collective_bytes > 0) {
    if (interconnect_gbs > 0) {
      t.collective = collective_bytes / (interconnect_gbs * 1e9);
      t.collectives = "modelled";
    } else {
      t.collectives = "not modelled: this roof states no interconnect bandwidth";
    }
  }
  std::vector<std::pair<const char*, double>> parts = {{"compute", t.compute},
                                                       {"memory", t.memory}};
  if (t.collective) parts.push_back({"collectives", *t.collective});
  for (const auto& part : parts) t.seconds = std::max(t.seconds, part.second);
  if (t.seconds == 0) return t;
  std::string winners;
  int count = 0;
  for (const auto& [name, seconds] : parts) {
    if (seconds != t.seconds) continue;
    winners += (count++ ? " = " : "") + std::string(name);
  }
  t.bound = count > 1 ? "balanced (" + winners + ")" : winners;
  return t;
}

Result<Achieved> achieved(const Budgets& budgets, double flops, double bytes, double seconds) {
  using R = Result<Achieved>;
  auto t = positive_finite("measured seconds", seconds, "");
  if (!t) return R::failure_from(t);
  if (!(flops >= 0 && std::isfinite(flops)))
    return R::failure("flops must be a finite number >= 0, got " + format_number(flops));
  if (!(bytes >= 0 && std::isfinite(bytes)))
    return R::failure("bytes must be a finite number >= 0, got " + format_number(bytes));
  Achieved a;
  a.gflops = flops / seconds / 1e9;
  a.gbs = bytes / seconds / 1e9;
  a.bound_seconds = time_lower_bound(budgets, 0, flops, bytes, 0).seconds;
  a.of_roof = a.bound_seconds / seconds;
  a.over_bound = a.bound_seconds > 0 ? seconds / a.bound_seconds : 0;
  return R::success(a);
}

Result<double> check_traffic_factor(double factor) {
  return positive_finite("traffic factor", factor, "");
}

Result<std::vector<TrafficRow>> traffic_experiment(const Budgets& budgets,
                                                   const std::vector<double>& intensities,
                                                   double factor) {
  using R = Result<std::vector<TrafficRow>>;
  auto f = check_traffic_factor(factor);
  if (!f) return R::failure_from(f);
  std::vector<TrafficRow> rows;
  for (double intensity : intensities) {
    auto original = ceiling(budgets, intensity);
    if (!original) return R::failure_from(original);
    auto revised = ceiling(budgets, intensity / factor);
    if (!revised) {
      return R::failure("intensity / traffic factor must stay positive and finite, got " +
                        format_number(intensity) + " / " + format_number(factor));
    }
    rows.push_back({original.value(), revised.value(), original->bound != revised->bound});
  }
  return R::success(rows);
}

Result<TrafficPrediction> predict_traffic(const Budgets& roofs, double flops, double bytes,
                                          double factor_flops, double factor_bytes) {
  using R = Result<TrafficPrediction>;
  const std::pair<const char*, double> counts[] = {{"flops", flops},
                                                   {"bytes", bytes},
                                                   {"flops at the factor", factor_flops},
                                                   {"bytes at the factor", factor_bytes}};
  for (const auto& [name, value] : counts) {
    auto checked = positive_finite(name, value, "");
    if (!checked) return R::failure_from(checked);
  }
  TrafficPrediction p;
  p.intensity = flops / bytes;
  p.factor_intensity = factor_flops / factor_bytes;
  p.bound = *work_bound(roofs, flops, bytes);
  p.factor_bound = *work_bound(roofs, factor_flops, factor_bytes);
  p.seconds = time_lower_bound(roofs, 0, flops, bytes, 0).seconds;
  p.factor_seconds = time_lower_bound(roofs, 0, factor_flops, factor_bytes, 0).seconds;
  p.time_ratio = p.factor_seconds / p.seconds;
  return R::success(p);
}

Result<Figure> figure(const Budgets& budgets, const std::vector<double>& intensities) {
  using R = Result<Figure>;
  Figure fig;
  fig.kind = "line";
  fig.xlabel = "minimum-traffic operations per byte";
  fig.ylabel = "hypothetical ceiling (GFLOP/s)";
  fig.x = intensities;
  fig.x.push_back(ridge(budgets));
  std::sort(fig.x.begin(), fig.x.end());
  Series bandwidth{"bandwidth budget", {}}, compute{"compute budget", {}},
      combined{"combined ceiling", {}};
  for (double x : fig.x) {
    auto c = ceiling(budgets, x);
    if (!c) return R::failure_from(c);
    bandwidth.y.push_back(c->bandwidth_ceiling);
    compute.y.push_back(budgets.peak_gflops);
    combined.y.push_back(c->ceiling);
  }
  fig.series = {bandwidth, compute, combined};
  return R::success(fig);
}

const std::vector<std::int64_t>& lesson::square_sizes() {
  static const std::vector<std::int64_t> sizes = {8, 16, 32, 64, 128};
  return sizes;
}

}  // namespace rl::model
