#include "report/report.h"

#include <algorithm>
#include <cmath>

#include "common/json_writer.h"
#include "common/numbers.h"
#include "hlo/emit.h"
#include "hlo/ir.h"
#include "report/measurements.h"
#include "report/values.h"

namespace rl::report {

namespace {

Outcome refuse(std::string input, std::string error) {
  Outcome out;
  out.input = std::move(input);
  out.error = std::move(error);
  out.refused.push_back({out.input, out.error});
  return out;
}

// How a message names entry i (0-based) of the sizes list: people count from 1.
std::string size_entry(std::size_t i, std::size_t count) {
  return "sizes: entry " + std::to_string(i + 1) + " of " + std::to_string(count);
}
// Said after a refused 0 that follows another entry: a thousands separator splits one size in two.
const char* const kSizesSplitAtCommas = " (the list is split at commas: write 1000, not 1,000)";

std::string first_word(const std::string& s) { return s.substr(0, s.find(' ')); }

std::string joined(const std::vector<std::string>& xs, const std::string& sep) {
  std::string out;
  for (const auto& x : xs) out += (out.empty() ? "" : sep) + x;
  return out;
}

// Positive, finite values, ascending, each once: the points a roof is drawn through.
std::vector<double> sorted_unique(std::vector<double> xs) {
  xs.erase(
      std::remove_if(xs.begin(), xs.end(), [](double x) { return !(std::isfinite(x) && x > 0); }),
      xs.end());
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  return xs;
}

// The usual element type of each itemsize, in the order messages list them.
const std::vector<std::pair<int, std::string>>& usual_types() {
  static const std::vector<std::pair<int, std::string>> table = {
      {4, "f32"}, {2, "bf16"}, {8, "f64"}};
  return table;
}

// The kernel check does not depend on any input: it runs once per process.
const Result<kernels::CheckResult>& kernel_check() {
  static const Result<kernels::CheckResult> check = check_lesson_kernel(kernels::best_matmul(true));
  return check;
}

// Step 1 and the estimate of step 2: the emitted text, parsed, verified and costed by the core.
Result<Lowered> lower(const model::Contraction& c, const std::string& dtype) {
  using R = Result<Lowered>;
  auto text = hlo::emit_workload(double(c.m), double(c.k), double(c.n), dtype);
  if (!text) return R::failure_from(text);
  auto analyses = hlo::analyze(text.value());
  if (!analyses) return R::failure_from(analyses);
  Lowered l;
  l.dtype = dtype;
  l.text = text.value();
  l.cost = analyses.value().front();
  for (const auto& o : l.cost.ops) {
    if (!o.top_level) continue;
    const std::string_view family = hlo::op_short_name(hlo::op_from_name(o.op, l.cost.dialect));
    l.ops_present.push_back(
        std::string(o.op.substr(0, 10) == "stablehlo." ? o.op.substr(10) : o.op));
    if (family == "dot") {
      l.has_dot_general = true;
      if (l.result_type.empty()) l.result_type = l.cost.shape(o);
    }
    l.has_tanh |= family == "tanh";
  }
  return R::success(l);
}

// "1 core", "4 cores": how the messages name a core count.
std::string cores_name(int cores) {
  return std::to_string(cores) + (cores == 1 ? " core" : " cores");
}

Result<MeasuredRoofline> measured_roofline(const Measured& m, const std::vector<double>& figure_x) {
  using R = Result<MeasuredRoofline>;
  // Every core count's ceilings, 1 core first.
  std::vector<MeasuredCeilings> counts = {{1, m.gflops, m.bandwidth_gbs}};
  for (const auto& c : m.other_cores) {
    if (c.cores < 2)
      return R::failure("measured ceilings: a core count other than 1 must be at least 2, got " +
                        std::to_string(c.cores));
    for (const auto& seen : counts) {
      if (seen.cores == c.cores)
        return R::failure("measured ceilings: " + cores_name(c.cores) + " given twice");
    }
    counts.push_back(c);
  }
  std::sort(counts.begin() + 1, counts.end(),
            [](const auto& a, const auto& b) { return a.cores < b.cores; });

  // The kernel is f32: a measured point sits at the model's intensity for itemsize 4.
  auto point_of = [](const MeasuredKernel& t) -> Result<MeasuredPoint> {
    auto c = model::contract(t.m, t.k, t.n, 4);
    if (!c) return Result<MeasuredPoint>::failure("measured kernel: " + c.error());
    return Result<MeasuredPoint>::success(
        MeasuredPoint{c->intensity, t.gflops, t.m, t.k, t.n, t.cores});
  };
  auto headline = point_of({m.m, m.k, m.n, 1, m.point_gflops});
  if (!headline) return R::failure_from(headline);
  std::vector<MeasuredPoint> points;
  if (m.kernels.empty()) points.push_back(headline.value());
  for (const auto& t : m.kernels) {
    if (t.cores < 1)
      return R::failure("measured kernel: cores must be at least 1, got " +
                        std::to_string(t.cores));
    auto p = point_of(t);
    if (!p) return R::failure_from(p);
    points.push_back(p.value());
  }

  MeasuredRoofline out;
  out.x = headline->x;
  out.y = headline->y;
  out.m = m.m, out.k = m.k, out.n = m.n;
  // The roofs' intensities: the figure's, every point's and every roof's corner.
  std::vector<std::vector<model::Budgets>> budgets(counts.size());
  std::vector<double> xs = figure_x;
  xs.push_back(out.x);
  for (const auto& p : points) xs.push_back(p.x);
  for (std::size_t c = 0; c < counts.size(); ++c) {
    for (const auto& [level, gbs] : counts[c].bandwidth_gbs) {
      auto b = model::make_budgets(counts[c].gflops, gbs);
      if (!b) {
        return R::failure("measured " + level + " roof" +
                          (counts[c].cores == 1 ? "" : " on " + cores_name(counts[c].cores)) +
                          ": " + b.error());
      }
      budgets[c].push_back(b.value());
      xs.push_back(model::ridge(b.value()));
    }
  }
  xs = sorted_unique(xs);
  // A layer per core count with ceilings or kernel points: a product with fewer row tiles than
  // Workers runs on fewer of them, and its point may sit on a count without ceilings (a layer
  // without roofs).
  std::vector<int> layer_cores;
  for (const auto& c : counts) layer_cores.push_back(c.cores);
  for (const auto& p : points) layer_cores.push_back(p.cores);
  std::sort(layer_cores.begin(), layer_cores.end());
  layer_cores.erase(std::unique(layer_cores.begin(), layer_cores.end()), layer_cores.end());
  for (int cores : layer_cores) {
    MeasuredLayer layer{cores, {}, {}};
    for (std::size_t c = 0; c < counts.size(); ++c) {
      if (counts[c].cores != cores) continue;
      for (std::size_t i = 0; i < budgets[c].size(); ++i) {
        const auto& level = counts[c].bandwidth_gbs[i];
        MeasuredRoof roof{
            level.first, counts[c].gflops, level.second, model::ridge(budgets[c][i]), {}};
        for (double x : xs)
          roof.points.push_back(model::ceiling(budgets[c][i], x).value());  // x positive and finite
        layer.roofs.push_back(std::move(roof));
      }
    }
    for (const auto& p : points) {
      if (p.cores == cores) layer.points.push_back(p);
    }
    out.layers.push_back(std::move(layer));
  }
  out.roofs = out.layers.front().roofs;  // 1 core: always a layer, and the first
  return R::success(out);
}

}  // namespace

const std::vector<Dtype>& dtypes() {
  static const std::vector<Dtype> list = [] {
    std::vector<Dtype> out;
    for (const char* name : {"f32", "bf16", "f16", "f64"})
      out.push_back({name, hlo::element_byte_size(name)});
    return out;
  }();
  return list;
}

namespace {

// The dtype called `name`, or the error that lists the names there are.
Result<const Dtype*> dtype_named(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& d : dtypes()) {
    if (d.name == name) return Result<const Dtype*>::success(&d);
    names.push_back(d.name);
  }
  return Result<const Dtype*>::failure("dtype must be one of " + joined(names, ", ") + ", got \"" +
                                       name + "\"");
}

// A dtype and an itemsize given together that disagree.
std::string itemsize_disagrees(const Dtype& d, double itemsize) {
  return "dtype " + d.name + " has itemsize " + std::to_string(d.itemsize) + ", got itemsize " +
         format_number(itemsize);
}

}  // namespace

std::string dtype_of_itemsize(double itemsize) {
  for (const auto& [size, name] : usual_types())
    if (itemsize == size) return name;
  return "";
}

Result<NumberInput> number_input(const std::string& name) {
  static const std::pair<const char*, NumberInput> numbers[] = {
      {"m", {&Params::m, "m"}},
      {"k", {&Params::k, "k"}},
      {"n", {&Params::n, "n"}},
      {"itemsize", {&Params::itemsize, "itemsize"}},
      {"peak", {&Params::peak, "peak"}},
      {"bandwidth", {&Params::bandwidth, "bandwidth"}},
      {"traffic_factor", {&Params::traffic_factor, "traffic factor"}}};
  for (const auto& [key, input] : numbers)
    if (name == key) return Result<NumberInput>::success(input);
  return Result<NumberInput>::failure(
      "unknown lesson input \"" + name +
      "\": one of m, k, n, dtype, itemsize, peak, bandwidth, traffic_factor, sizes");
}

Result<int> core_count(const std::string& name, double cores) {
  if (!(cores >= 1 && cores <= 256 && cores == std::floor(cores))) {
    return Result<int>::failure(name + " must be an integer from 1 to 256, got " +
                                format_number(cores));
  }
  return Result<int>::success(int(cores));
}

std::string defaults_json() {
  namespace lesson = model::lesson;
  JsonWriter j;
  j.begin_object()
      .field("m", double(lesson::kM))
      .field("k", double(lesson::kK))
      .field("n", double(lesson::kN))
      .field("itemsize", double(lesson::kItemsize))
      .field("peak", lesson::kPeakGflops)
      .field("bandwidth", lesson::kBandwidthGbs)
      .field("traffic_factor", lesson::kTrafficFactor);
  j.key("sizes").begin_array();
  for (auto size : lesson::square_sizes()) j.value(double(size));
  j.end_array();
  j.key("exercise").begin_object();
  j.key("a")
      .begin_array()
      .value(double(lesson::kExerciseA[0]))
      .value(double(lesson::kExerciseA[1]));
  j.end_array();
  j.key("b")
      .begin_array()
      .value(double(lesson::kExerciseB[0]))
      .value(double(lesson::kExerciseB[1]));
  j.end_array();
  j.end_object();
  j.field("max_budget", model::kMaxBudget);
  j.key("dtypes").begin_object();
  for (const auto& d : dtypes()) j.field(d.name, d.itemsize);
  j.end_object();
  j.key("dtype_of_itemsize").begin_object();
  for (int size = 1; size <= 16; ++size) {
    const std::string name = dtype_of_itemsize(size);
    if (!name.empty()) j.field(std::to_string(size), name);
  }
  j.end_object().end_object();
  return j.take();
}

std::vector<Refusal> check_inputs(const Params& params) {
  std::vector<Refusal> out;
  auto note = [&](const std::string& input, const auto& result) {
    if (!result) out.push_back({input, result.error()});
  };
  for (const auto& [name, value] :
       {std::pair{"m", &params.m}, std::pair{"k", &params.k}, std::pair{"n", &params.n}}) {
    if (*value) note(name, positive_integer(name, **value));
  }
  // The dtype's name, and its itemsize against one given (when that itemsize is acceptable).
  const auto itemsize = params.itemsize ? positive_integer("itemsize", *params.itemsize)
                                        : Result<std::int64_t>::success(0);
  if (params.dtype) {
    const auto found = dtype_named(*params.dtype);
    if (!found) {
      out.push_back({"dtype", found.error()});
    } else if (params.itemsize && itemsize && itemsize.value() != found.value()->itemsize) {
      out.push_back({"dtype", itemsize_disagrees(*found.value(), *params.itemsize)});
    }
  }
  note("itemsize", itemsize);
  if (params.sizes) {
    const auto& sizes = *params.sizes;
    if (sizes.empty())
      out.push_back({"sizes", "sizes must be a non-empty list of positive integers, got []"});
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      auto size = positive_integer("size", sizes[i]);
      if (!size) {
        // "size must be …, got 0" → "sizes: entry 2 of 2 must be …, got 0"; a 0 after the first
        // entry is most likely "1,000" typed for 1000: said so.
        const bool split_thousands = i > 0 && sizes[i] == 0;
        out.push_back({"sizes", size_entry(i, sizes.size()) + size.error().substr(4) +
                                    (split_thousands ? kSizesSplitAtCommas : "")});
        break;  // one message per field: the first bad entry
      }
    }
  }
  if (params.peak) note("peak", model::check_peak(*params.peak));
  if (params.bandwidth) note("bandwidth", model::check_bandwidth(*params.bandwidth));
  if (params.traffic_factor)
    note("traffic_factor", model::check_traffic_factor(*params.traffic_factor));
  return out;
}

Outcome build(const Params& params, const Extras& extras) {
  // Each input by its own rule first: every refused one is named at once.
  const auto refused = check_inputs(params);
  if (!refused.empty()) {
    Outcome out = refuse(refused.front().input, refused.front().error);
    out.refused = refused;
    return out;
  }

  // The seed's values where none is given.
  double m = params.m.value_or(double(model::lesson::kM));
  double k = params.k.value_or(double(model::lesson::kK));
  double n = params.n.value_or(double(model::lesson::kN));
  double itemsize = params.itemsize.value_or(double(model::lesson::kItemsize));
  const double peak = params.peak.value_or(model::lesson::kPeakGflops);
  const double bandwidth = params.bandwidth.value_or(model::lesson::kBandwidthGbs);
  const double factor = params.traffic_factor.value_or(model::lesson::kTrafficFactor);
  std::vector<double> sizes;
  if (params.sizes)
    sizes = *params.sizes;
  else
    for (auto s : model::lesson::square_sizes()) sizes.push_back(double(s));

  // An explicit dtype sets the itemsize, or must agree with the one given.
  std::string dtype;
  if (params.dtype) {
    const auto found = dtype_named(*params.dtype);
    if (!found) return refuse("dtype", found.error());
    const Dtype& d = *found.value();
    if (!params.itemsize)
      itemsize = d.itemsize;
    else if (itemsize != d.itemsize)
      return refuse("dtype", itemsize_disagrees(d, itemsize));
    dtype = d.name;
  }

  Report r;
  auto accounting = model::contract(m, k, n, itemsize);
  if (!accounting) {
    const std::string named = first_word(accounting.error());
    const bool field = named == "m" || named == "k" || named == "n" || named == "itemsize";
    return refuse(field ? named : "dimensions", accounting.error());
  }
  r.accounting = accounting.value();

  if (sizes.empty())
    return refuse("sizes", "sizes must be a non-empty list of positive integers, got []");
  std::vector<double> intensities;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto c = model::contract(sizes[i], sizes[i], sizes[i], itemsize);
    if (!c)
      return refuse("sizes",
                    size_entry(i, sizes.size()) + ": " + c.error());  // counts that overflow
    r.sizes.push_back({c.value(), {}});
    intensities.push_back(c->intensity);
  }

  auto budgets = model::make_budgets(peak, bandwidth);
  if (!budgets) return refuse(first_word(budgets.error()), budgets.error());
  r.budgets = budgets.value();
  r.ridge = model::ridge(r.budgets);
  auto traffic = model::traffic_experiment(r.budgets, intensities, factor);
  if (!traffic) return refuse("traffic_factor", traffic.error());
  for (std::size_t i = 0; i < r.sizes.size(); ++i) r.sizes[i].traffic = traffic.value()[i];
  r.traffic_factor = factor;
  auto figure = model::figure(r.budgets, intensities);
  if (!figure) return refuse("figure", figure.error());
  r.figure = figure.value();

  // The roof with `factor` times the traffic, over the same axis (minimum-traffic intensity):
  // min(peak, bandwidth · x / factor), whose corner moves from the ridge to ridge · factor.
  r.revised_ridge = r.ridge * factor;
  std::vector<double> curve_x = r.figure.x;
  curve_x.push_back(r.revised_ridge);
  r.revised_curve_x = sorted_unique(curve_x);
  auto curve = model::traffic_experiment(r.budgets, r.revised_curve_x, factor);
  if (!curve) return refuse("traffic_factor", curve.error());
  for (const auto& row : curve.value()) r.revised_curve.push_back(row.revised);

  // The seed's exercise, always in the seed's itemsize, under the chosen budgets.
  const auto& ea = model::lesson::kExerciseA;
  const auto& eb = model::lesson::kExerciseB;
  auto exercise = model::contract_shapes(double(ea[0]), double(ea[1]), double(eb[0]), double(eb[1]),
                                         double(model::lesson::kItemsize));
  if (!exercise) return refuse("exercise", exercise.error());
  r.exercise_contraction = exercise.value();
  auto at = model::ceiling(r.budgets, exercise->intensity);
  if (!at) return refuse("exercise", at.error());
  r.exercise_ceiling = at.value();
  r.exercise = exercises::lesson_exercise(r.budgets);

  if (dtype.empty()) dtype = dtype_of_itemsize(itemsize);
  if (dtype.empty()) {
    std::string usual;
    for (const auto& [size, name] : usual_types())
      usual += (usual.empty() ? "" : ", ") + name + " " + std::to_string(size);
    r.stablehlo_unavailable =
        "no StableHLO float type has itemsize " + format_number(itemsize) + " (" + usual + ")";
  } else {
    auto lowered = lower(r.accounting, dtype);
    if (!lowered) return refuse("stablehlo", lowered.error());
    r.lowered = lowered.value();
  }

  const auto& check = kernel_check();
  if (!check) return refuse("kernel", check.error());
  r.kernel_check = check.value();
  r.kernel_variant = kernels::best_matmul(true).name;

  if (extras.measured) {
    auto measured = measured_roofline(*extras.measured, r.figure.x);
    if (!measured) return refuse("measurements", measured.error());
    r.measured = measured.value();
  }

  for (const auto& entry : extras.answers) {
    const std::string& id = entry.first;
    const std::string& answer = entry.second;
    const auto& qs = r.exercise.questions;
    auto q = std::find_if(qs.begin(), qs.end(),
                          [&](const exercises::Question& x) { return x.id == id; });
    if (q == qs.end()) {
      std::vector<std::string> ids;
      for (const auto& x : qs) ids.push_back(x.id);
      return refuse("answers", "answers: the exercise has no question \"" + id +
                                   "\"; its questions are " + joined(ids, ", "));
    }
    if (answer.find_first_not_of(" \t\r\n") == std::string::npos) continue;  // blank: not checked
    r.checked.push_back({id, exercises::check(*q, answer)});
  }
  // In the questions' order, whatever the answers' order.
  std::stable_sort(r.checked.begin(), r.checked.end(), [&](const auto& a, const auto& b) {
    auto pos = [&](const std::string& id) {
      const auto& qs = r.exercise.questions;
      return std::find_if(qs.begin(), qs.end(),
                          [&](const exercises::Question& x) { return x.id == id; }) -
             qs.begin();
    };
    return pos(a.first) < pos(b.first);
  });

  Outcome out;
  out.report = std::move(r);
  return out;
}

// The report with the keys (and order) the seed's report has had since the first CLI, then
// what the figure and the experiment draw.
std::string report_json(const Report& r) {
  JsonWriter j;
  j.begin_object();
  const auto& low = r.lowered;
  if (low) {
    const auto& a = r.accounting;
    j.key("stablehlo").begin_object().field("dtype", low->dtype).field("text", low->text);
    j.key("ops_present").begin_array();
    for (const auto& op : low->ops_present) j.value(op);
    j.end_array();
    j.key("contract")
        .begin_object()
        .field("dot_general", low->has_dot_general)
        .field("tanh", low->has_tanh);
    j.key("lhs").numbers({double(a.m), double(a.k)});
    j.key("rhs").numbers({double(a.k), double(a.n)});
    j.key("result").numbers({double(a.m), double(a.n)});
    j.field("contracting", "lhs dimension 1 with rhs dimension 0");
    if (low->result_type.empty())
      j.key("result_type").null();
    else
      j.field("result_type", low->result_type);
    j.field("verified", true).end_object().end_object();
    j.key("stablehlo_ops").begin_array();
    for (const auto& op : low->ops_present) j.value(op);
    j.end_array();
    j.key("stablehlo_unavailable").null();
    const auto& c = low->cost;
    j.key("cost_estimate")
        .begin_object()
        .field("flops", c.flops)
        .field("transcendentals", c.transcendentals)
        .field("bytes_accessed", c.bytes_accessed);
    j.key("bytes_accessed_operand").begin_object();
    for (const auto& [index, bytes] : c.bytes_accessed_operand)
      j.field(std::to_string(index), bytes);
    j.end_object();
    j.field("bytes_accessed_output", c.bytes_accessed_output)
        .field("minimum_traffic_bytes", c.minimum_traffic_bytes);
    j.key("per_op").begin_array();
    for (const auto& o : c.ops) {
      j.begin_object()
          .field("line", o.line)
          .field("op", o.op)
          .field("flops", o.flops)
          .field("transcendentals", o.transcendentals)
          .field("bytes_accessed", o.bytes_accessed)
          .end_object();
    }
    j.end_array().end_object();
  } else {
    j.key("stablehlo")
        .null()
        .key("stablehlo_ops")
        .null()
        .field("stablehlo_unavailable", r.stablehlo_unavailable);
    j.key("cost_estimate").null();
  }
  const auto& kc = r.kernel_check;
  j.key("kernel_check").begin_object().field("variant", r.kernel_variant);
  write_kernel_check(j, kc);
  j.end_object();
  j.key("local_samples_seconds")
      .null();  // measurements are added by whoever measures, never by the model
  const auto& a = r.accounting;
  j.key("matmul_accounting")
      .begin_object()
      .field("m", double(a.m))
      .field("k", double(a.k))
      .field("n", double(a.n))
      .field("itemsize", double(a.itemsize))
      .field("flops", double(a.flops))
      .field("minimum_bytes", double(a.minimum_bytes))
      .field("flops_per_byte", a.intensity)
      .field("flops_exact", to_decimal(a.flops))
      .field("minimum_bytes_exact", to_decimal(a.minimum_bytes))
      .field("flops_per_byte_fraction", a.intensity_fraction)
      .end_object();
  std::vector<double> sizes, intensity, ceilings, revised;
  for (const auto& s : r.sizes) {
    sizes.push_back(double(s.contraction.m));
    intensity.push_back(s.contraction.intensity);
    ceilings.push_back(s.traffic.original.ceiling);
    revised.push_back(s.traffic.revised.ceiling);
  }
  j.key("sizes").numbers(sizes);
  j.key("intensity").numbers(intensity);
  j.key("intensity_fraction").begin_array();
  for (const auto& s : r.sizes) j.value(s.contraction.intensity_fraction);
  j.end_array();
  j.key("hypothetical_ceilings_gflops").numbers(ceilings);
  j.key("bounds").begin_array();
  for (const auto& s : r.sizes) j.value(bound_name(s.traffic.original.bound));
  j.end_array();
  j.field("traffic_factor", r.traffic_factor);
  j.key("doubled_traffic_ceilings_gflops").numbers(revised);
  j.key("traffic_bound_changed_sizes").begin_array();
  for (const auto& s : r.sizes)
    if (s.traffic.bound_changed) j.value(double(s.contraction.m));
  j.end_array();
  j.field("ridge", r.ridge);
  // The figure's data, key order as the seed's: kind, x, xlabel, ylabel, series.
  j.key("figure").begin_object().field("kind", r.figure.kind);
  j.key("x").numbers(r.figure.x);
  j.field("xlabel", r.figure.xlabel).field("ylabel", r.figure.ylabel);
  j.key("series").begin_array();
  for (const auto& s : r.figure.series) {
    j.begin_object().field("label", s.label);
    j.key("y").numbers(s.y);
    j.end_object();
  }
  j.end_array().end_object();
  const auto& ec = r.exercise_contraction;
  j.key("exercise").begin_object();
  j.key("a").numbers({double(model::lesson::kExerciseA[0]), double(model::lesson::kExerciseA[1])});
  j.key("b").numbers({double(model::lesson::kExerciseB[0]), double(model::lesson::kExerciseB[1])});
  j.field("itemsize", double(ec.itemsize))
      .field("work", double(ec.flops))
      .field("traffic", double(ec.minimum_bytes))
      .field("ratio", ec.intensity)
      .field("ratio_fraction", ec.intensity_fraction)
      .field("bandwidth_times_ratio_gflops", r.exercise_ceiling.bandwidth_ceiling)
      .field("ceiling_gflops", r.exercise_ceiling.ceiling)
      .field("bound", bound_name(r.exercise_ceiling.bound));
  j.key("questions").begin_array();
  for (const auto& q : r.exercise.questions) exercises::write_question_json(j, q);
  j.end_array();
  j.key("check").begin_object();
  for (const auto& [id, verdict] : r.checked) {
    j.key(id);
    write_verdict(j, verdict);
  }
  j.end_object().end_object();
  j.key("budgets")
      .begin_object()
      .field("peak", r.budgets.peak_gflops)
      .field("bandwidth", r.budgets.bandwidth_gbs)
      .field("hypothetical", true);
  j.key("units")
      .begin_object()
      .field("peak", "GFLOP/s")
      .field("bandwidth", "GB/s")
      .end_object()
      .end_object();
  // What the experiment's table and the figure draw.
  j.key("traffic_experiment").begin_array();
  for (const auto& s : r.sizes) {
    const auto& t = s.traffic;
    j.begin_object()
        .field("n", double(s.contraction.m))
        .field("intensity", t.original.intensity)
        .field("fraction", s.contraction.intensity_fraction)
        .field("ceiling", t.original.ceiling)
        .field("bound", bound_name(t.original.bound))
        .field("revised_intensity", t.revised.intensity)
        .field("revised_ceiling", t.revised.ceiling)
        .field("revised_bound", bound_name(t.revised.bound))
        .field("bound_changed", t.bound_changed)
        .end_object();
  }
  j.end_array();
  j.key("revised_roof")
      .begin_object()
      .field("factor", r.traffic_factor)
      .field("ridge", r.revised_ridge);
  j.key("curve").begin_array();
  for (std::size_t i = 0; i < r.revised_curve.size(); ++i) {
    j.begin_object()
        .field("x", r.revised_curve_x[i])
        .field("y", r.revised_curve[i].ceiling)
        .end_object();
  }
  j.end_array().end_object();
  if (!r.measured) {
    j.key("measured_roofline").null();
  } else {
    const auto& m = *r.measured;
    auto write_roofs = [&j](const std::vector<MeasuredRoof>& roofs) {
      j.begin_array();
      for (const auto& roof : roofs) {
        j.begin_object()
            .field("level", roof.level)
            .field("gflops", roof.gflops)
            .field("gbs", roof.gbs)
            .field("ridge", roof.ridge);
        j.key("points").begin_array();
        for (const auto& p : roof.points)
          j.begin_object().field("x", p.intensity).field("y", p.ceiling).end_object();
        j.end_array().end_object();
      }
      j.end_array();
    };
    auto write_point = [&j](const MeasuredPoint& p) {
      j.begin_object()
          .field("x", p.x)
          .field("y", p.y)
          .field("m", p.m)
          .field("k", p.k)
          .field("n", p.n)
          .field("cores", double(p.cores))
          .end_object();
    };
    j.key("measured_roofline").begin_object();
    j.key("roofs");
    write_roofs(m.roofs);
    j.key("point");
    write_point({m.x, m.y, m.m, m.k, m.n, 1});
    j.key("layers").begin_array();
    for (const auto& layer : m.layers) {
      j.begin_object().field("cores", double(layer.cores));
      j.key("roofs");
      write_roofs(layer.roofs);
      j.key("points").begin_array();
      for (const auto& p : layer.points) write_point(p);
      j.end_array().end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_object();
  return j.text();
}

}  // namespace rl::report
