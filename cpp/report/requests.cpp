#include "report/requests.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/json_writer.h"
#include "common/memory.h"
#include "common/numbers.h"
#include "exercises/gradebook.h"
#include "exercises/moodle.h"
#include "hlo/emit.h"
#include "hlo/report.h"
#include "interp/npy.h"
#include "measure/ceilings.h"
#include "measure/harness.h"
#include "measure/timer.h"
#include "report/run_report.h"
#include "report/values.h"

namespace rl::report {

namespace {

// A failure carrying another's error, as the bindings' callers have always received it.
template <class T, class U>
Result<T> pass(const Result<U>& r) {
  return Result<T>::failure_from(r);
}

// The number `name`, or its error (a macro keeps each read to one line).
#define RL_NUMBER(var, name, arg)  \
  auto var = number_of(name, arg); \
  if (!var) return R::failure_from(var)

void write_ceiling(JsonWriter& j, const model::Ceiling& c) {
  j.begin_object();
  j.key("intensity").value(c.intensity);
  j.key("bandwidth_ceiling").value(c.bandwidth_ceiling);
  j.key("ceiling").value(c.ceiling);
  j.key("bound").value(model::bound_name(c.bound));
  j.end_object();
}

// Reads {level: GB/s, …} (`name` as the messages call it) in its keys' order.
Result<std::vector<std::pair<std::string, double>>> levels_of(const std::string& name,
                                                              const Arg& levels) {
  using R = Result<std::vector<std::pair<std::string, double>>>;
  if (levels.is_nullish() || levels.type_of() != "object")
    return R::failure(name + " must be an object of GB/s by level");
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [level, x] : levels.members) {
    RL_NUMBER(gbs, name + "." + level, x);
    out.push_back({level, gbs.value()});
  }
  return R::success(out);
}

Result<int> cores_of(const std::string& name, const Arg& v) {
  auto c = number_of(name, v);
  if (!c) return pass<int>(c);
  return core_count(name, c.value());
}

}  // namespace

// ---- the model ---------------------------------------------------------------------------------

Result<model::Budgets> budgets_of(const Arg& peak, const Arg& bandwidth) {
  using R = Result<model::Budgets>;
  RL_NUMBER(p, "peak", peak);
  RL_NUMBER(b, "bandwidth", bandwidth);
  return model::make_budgets(p.value(), b.value());
}

namespace {
// Reads the numbers of `args` by `names`; an undefined last one (the itemsize) is the seed's.
Result<std::vector<double>> dimensions(const std::vector<const char*>& names,
                                       const std::vector<const Arg*>& args) {
  using R = Result<std::vector<double>>;
  std::vector<double> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i + 1 == args.size() && args[i]->is_undefined()) {  // itemsize=4, as in the seed
      out.push_back(model::lesson::kItemsize);
      continue;
    }
    RL_NUMBER(x, names[i], *args[i]);
    out.push_back(x.value());
  }
  return R::success(out);
}
}  // namespace

Result<std::string> contract_call(const Arg& m, const Arg& k, const Arg& n, const Arg& itemsize) {
  auto d = dimensions({"m", "k", "n", "itemsize"}, {&m, &k, &n, &itemsize});
  if (!d) return pass<std::string>(d);
  const auto& x = d.value();
  auto c = model::contract(x[0], x[1], x[2], x[3]);
  if (!c) return pass<std::string>(c);
  return Result<std::string>::success(contraction_json(c.value()));
}

Result<std::string> contract_shapes_call(const Arg& a_rows, const Arg& a_cols, const Arg& b_rows,
                                         const Arg& b_cols, const Arg& itemsize) {
  auto d = dimensions({"a rows", "a columns", "b rows", "b columns", "itemsize"},
                      {&a_rows, &a_cols, &b_rows, &b_cols, &itemsize});
  if (!d) return pass<std::string>(d);
  const auto& x = d.value();
  auto c = model::contract_shapes(x[0], x[1], x[2], x[3], x[4]);
  if (!c) return pass<std::string>(c);
  return Result<std::string>::success(contraction_json(c.value()));
}

Result<std::string> ceilings_call(const Arg& peak, const Arg& bandwidth, const Arg& intensities) {
  using R = Result<std::string>;
  auto budgets = budgets_of(peak, bandwidth);
  if (!budgets) return pass<std::string>(budgets);
  auto xs = numbers_of("intensities", intensities);
  if (!xs) return pass<std::string>(xs);
  JsonWriter j;
  j.begin_object().key("ridge").value(model::ridge(budgets.value()));
  j.key("rows").begin_array();
  for (double x : xs.value()) {
    auto c = model::ceiling(budgets.value(), x);
    if (!c) return pass<std::string>(c);
    write_ceiling(j, c.value());
  }
  j.end_array().end_object();
  return R::success(j.text());
}

Result<std::string> traffic_experiment_call(const Arg& peak, const Arg& bandwidth,
                                            const Arg& intensities, const Arg& factor) {
  using R = Result<std::string>;
  auto budgets = budgets_of(peak, bandwidth);
  if (!budgets) return pass<std::string>(budgets);
  auto xs = numbers_of("intensities", intensities);
  if (!xs) return pass<std::string>(xs);
  RL_NUMBER(f, "traffic factor", factor);
  auto rows = model::traffic_experiment(budgets.value(), xs.value(), f.value());
  if (!rows) return pass<std::string>(rows);
  JsonWriter j;
  j.begin_array();
  for (const auto& r : rows.value()) {
    j.begin_object().key("original");
    write_ceiling(j, r.original);
    j.key("revised");
    write_ceiling(j, r.revised);
    j.key("bound_changed").value(r.bound_changed).end_object();
  }
  j.end_array();
  return R::success(j.text());
}

Result<std::string> figure_call(const Arg& peak, const Arg& bandwidth, const Arg& intensities) {
  using R = Result<std::string>;
  auto budgets = budgets_of(peak, bandwidth);
  if (!budgets) return pass<std::string>(budgets);
  auto xs = numbers_of("intensities", intensities);
  if (!xs) return pass<std::string>(xs);
  auto fig = model::figure(budgets.value(), xs.value());
  if (!fig) return pass<std::string>(fig);
  // Key order is the seed's: kind, x, xlabel, ylabel, series.
  JsonWriter j;
  j.begin_object().key("kind").value(fig->kind).key("x").numbers(fig->x);
  j.key("xlabel").value(fig->xlabel).key("ylabel").value(fig->ylabel);
  j.key("series").begin_array();
  for (const auto& s : fig->series)
    j.begin_object().key("label").value(s.label).key("y").numbers(s.y).end_object();
  j.end_array().end_object();
  return R::success(j.text());
}

// ---- the lesson's report
// -------------------------------------------------------------------------

Result<Params> lesson_params(const Arg& v) {
  using R = Result<Params>;
  Params p;
  if (v.is_nullish()) return R::success(p);
  if (!v.is_object()) {
    return R::failure_for("params", "params must be an object, got " + v.type_of());
  }
  for (const auto& [key, x] : v.members) {
    if (x.is_undefined()) continue;
    auto refuse = [&key = key](const auto& r) { return R::failure_for(key, r.error()); };
    if (key == "dtype") {
      if (x.type == Arg::Type::null || (x.is_string() && x.string.empty())) continue;
      if (!x.is_string()) return R::failure_for(key, "dtype must be a string, got " + x.type_of());
      p.dtype = x.string;
    } else if (key == "sizes") {
      auto xs = numbers_of("sizes", x);
      if (!xs) return refuse(xs);
      p.sizes = xs.value();
    } else {
      auto field = number_input(key);
      if (!field) return refuse(field);
      auto number = number_of(field->shown, x);
      if (!number) return refuse(number);
      p.*(field->field) = number.value();
    }
  }
  return R::success(p);
}

namespace {

Result<Measured> measured_of(const Arg& measured) {
  using R = Result<Measured>;
  Measured m;
  RL_NUMBER(gflops, "measured.gflops", measured["gflops"]);
  m.gflops = gflops.value();
  auto levels = levels_of("measured.bandwidth_gbs", measured["bandwidth_gbs"]);
  if (!levels) return pass<Measured>(levels);
  m.bandwidth_gbs = levels.value();
  const Arg& point = measured["point"];
  if (point.is_nullish()) return R::failure("measured.point must be {m, k, n, gflops}");
  const std::pair<const char*, double*> fields[] = {
      {"m", &m.m}, {"k", &m.k}, {"n", &m.n}, {"gflops", &m.point_gflops}};
  for (const auto& [name, out] : fields) {
    RL_NUMBER(x, std::string("measured.point.") + name, point[name]);
    *out = x.value();
  }
  const Arg& others = measured["other_cores"];
  if (!others.is_nullish()) {
    if (!others.is_array())
      return R::failure("measured.other_cores must be an array of {cores, gflops, bandwidth_gbs}");
    for (std::size_t i = 0; i < others.items.size(); ++i) {
      const std::string at = "measured.other_cores[" + std::to_string(i) + "]";
      const Arg& one = others.items[i];
      if (one.is_nullish() || one.type_of() != "object")
        return R::failure(at + " must be {cores, gflops, bandwidth_gbs}");
      MeasuredCeilings c;
      auto cores = cores_of(at + ".cores", one["cores"]);
      if (!cores) return pass<Measured>(cores);
      c.cores = cores.value();
      RL_NUMBER(g, at + ".gflops", one["gflops"]);
      c.gflops = g.value();
      auto l = levels_of(at + ".bandwidth_gbs", one["bandwidth_gbs"]);
      if (!l) return pass<Measured>(l);
      c.bandwidth_gbs = l.value();
      m.other_cores.push_back(c);
    }
  }
  const Arg& kernels = measured["kernels"];
  if (!kernels.is_nullish()) {
    if (!kernels.is_array())
      return R::failure("measured.kernels must be an array of {m, k, n, cores, gflops}");
    for (std::size_t i = 0; i < kernels.items.size(); ++i) {
      const std::string at = "measured.kernels[" + std::to_string(i) + "]";
      const Arg& one = kernels.items[i];
      if (one.is_nullish() || one.type_of() != "object")
        return R::failure(at + " must be {m, k, n, cores, gflops}");
      MeasuredKernel t;
      const std::pair<const char*, double*> dims[] = {
          {"m", &t.m}, {"k", &t.k}, {"n", &t.n}, {"gflops", &t.gflops}};
      for (const auto& [name, out] : dims) {
        RL_NUMBER(x, at + "." + name, one[name]);
        *out = x.value();
      }
      auto cores = cores_of(at + ".cores", one["cores"]);
      if (!cores) return pass<Measured>(cores);
      t.cores = cores.value();
      m.kernels.push_back(t);
    }
  }
  return R::success(m);
}

}  // namespace

Result<Extras> lesson_extras(const Arg& v) {
  using R = Result<Extras>;
  Extras e;
  if (v.is_nullish()) return R::success(e);
  const Arg& measured = v["measured"];
  if (!measured.is_nullish()) {
    auto m = measured_of(measured);
    if (!m) return R::failure_for("measurements", m.error());
    e.measured = m.value();
  }
  const Arg& answers = v["answers"];
  if (!answers.is_nullish()) {
    if (answers.type_of() != "object")
      return R::failure_for("answers", "answers must be an object of text by question");
    for (const auto& [id, text] : answers.members) {
      if (text.is_nullish()) continue;
      if (!text.is_string())
        return R::failure_for("answers",
                              "answers." + id + " must be a string, got " + text.type_of());
      e.answers.push_back({id, text.string});
    }
  }
  return R::success(e);
}

LessonReply lesson_report_call(const Arg& params, const Arg& extras) {
  auto p = lesson_params(params);
  if (!p) return {"", {{p.error_info().input, p.error()}}};
  auto e = lesson_extras(extras);
  if (!e) return {"", {{e.error_info().input, e.error()}}};
  auto built = build(p.value(), e.value());
  if (!built.ok()) return {"", built.refused};
  return {report_json(built.report), {}};
}

// ---- a program under roofs
// -------------------------------------------------------------------------

Result<RooflineRequest> roofline_request(const Arg& request) {
  using R = Result<RooflineRequest>;
  if (request.type_of() != "object" || request.type == Arg::Type::null) {
    return R::failure("request must be an object, got " +
                      (request.type == Arg::Type::null ? std::string("null") : request.type_of()));
  }
  RooflineRequest q;
  const Arg& roofs = request["roofs"];
  if (!roofs.is_array() || roofs.items.empty())
    return pass<RooflineRequest>(program_roofline(q));  // its rule: a non-empty array of roofs
  for (std::size_t i = 0; i < roofs.items.size(); ++i) {
    const Arg& roof = roofs.items[i];
    RL_NUMBER(peak, "roof.peak", roof["peak"]);
    RL_NUMBER(bandwidth, "roof.bandwidth", roof["bandwidth"]);
    auto budgets = roof_budgets(i, peak.value(), bandwidth.value());
    if (!budgets) return pass<RooflineRequest>(budgets);
    q.roofs.push_back(budgets.value());
    double interconnect = 0;
    if (!roof["interconnect"].is_nullish()) {
      RL_NUMBER(x, "roof.interconnect", roof["interconnect"]);
      interconnect = x.value();
    }
    q.interconnects.push_back(interconnect);
  }
  // An array or a Float64Array of numbers; undefined or null: none.
  auto column = [](const char* name, const Arg& v, std::vector<double>& out) -> Result<bool> {
    if (v.is_nullish()) return Result<bool>::success(true);
    if (v.type == Arg::Type::doubles) {
      out = v.doubles;
      return Result<bool>::success(true);
    }
    auto xs = v.is_array() ? numbers_of(name, v)
                           : Result<std::vector<double>>::failure(std::string(name) +
                                                                  " must be an array of numbers");
    if (!xs) return pass<bool>(xs);
    out = std::move(xs.value());
    return Result<bool>::success(true);
  };
  for (auto [name, out] : {std::pair{"flops", &q.flops}, std::pair{"bytes", &q.bytes}}) {
    auto c = column(name, request[name], *out);
    if (!c) return pass<RooflineRequest>(c);
  }
  const Arg& totals = request["totals"];
  if (!totals.is_nullish()) {
    const std::pair<const char*, double*> fields[] = {
        {"flops", &q.total_flops},
        {"bytes_accessed", &q.total_bytes},
        {"collective_bytes", &q.total_collective_bytes}};
    for (const auto& [name, out] : fields) {
      if (totals[name].is_nullish()) continue;
      RL_NUMBER(x, std::string("totals.") + name, totals[name]);
      *out = x.value();
    }
  }
  auto range = numbers_of("range", request["range"]);
  if (!range) return pass<RooflineRequest>(range);
  if (range->size() != 2) return R::failure("range must be [xmin, xmax]");
  q.xmin = range.value()[0], q.xmax = range.value()[1];
  // Measured times (a run in this machine's interpreter), per op (NaN: not measured) and the
  // program's total: optional.
  auto s = column("seconds", request["seconds"], q.seconds);
  if (!s) return pass<RooflineRequest>(s);
  if (!request["measured_seconds"].is_nullish()) {
    RL_NUMBER(x, "measured_seconds", request["measured_seconds"]);
    q.measured_seconds = x.value();
  }
  return R::success(std::move(q));
}

std::string roofline_json(const ProgramRoofline& r) {
  JsonWriter j;
  j.begin_object();
  j.key("roofs").raw(r.roofs_json);
  j.key("program").raw(r.program_json);
  j.key("measured").raw(r.measured_json);
  j.key("bound_names").begin_array();
  for (model::Bound b : kBoundCodes) j.value(model::bound_name(b));
  j.end_array().end_object();
  return j.text();
}

// ---- kernels, measurements and work
// ------------------------------------------------------------------

Result<const kernels::MatmulVariant*> variant_of(const Arg& name) {
  using R = Result<const kernels::MatmulVariant*>;
  if (name.is_nullish()) return R::success(&kernels::best_matmul(true));
  if (!name.is_string()) return R::failure("variant must be a string, got " + name.type_of());
  return kernels::find_matmul(name.string);
}

Result<kernels::MatmulShape> shape_of(const Arg& m, const Arg& k, const Arg& n) {
  using R = Result<kernels::MatmulShape>;
  RL_NUMBER(mm, "m", m);
  RL_NUMBER(kk, "k", k);
  RL_NUMBER(nn, "n", n);
  return kernels::check_matmul_shape(mm.value(), kk.value(), nn.value());
}

Result<bool> copy_floats(const std::string& name, const Arg& floats, std::size_t count,
                         const std::string& what, float* dst) {
  using R = Result<bool>;
  if (floats.type != Arg::Type::floats)
    return R::failure(name + " must be a Float32Array, got " + floats.type_name());
  if (floats.floats.size() != count) {
    return R::failure(name + " must hold " + std::to_string(count) + " floats (" + what +
                      "), got " + std::to_string(floats.floats.size()));
  }
  std::copy(floats.floats.begin(), floats.floats.end(), dst);
  return R::success(true);
}

Result<kernels::FloatBuffer> uniform_floats_call(const Arg& count, const Arg& seed) {
  using R = Result<kernels::FloatBuffer>;
  auto c = integer_of("count", count, 1, double(kernels::kMaxKernelBytes / 4));
  if (!c) return pass<kernels::FloatBuffer>(c);
  auto s = integer_of("seed", seed, 0, 4294967295.0, "0 to 2^32 - 1");
  if (!s) return pass<kernels::FloatBuffer>(s);
  auto buffer = kernels::FloatBuffer::allocate(std::size_t(c.value()));
  if (!buffer) return buffer;
  kernels::fill_uniform(buffer.value().data(), buffer.value().size(), std::uint32_t(s.value()));
  return R::success(std::move(buffer.value()));
}

Result<kernels::FloatBuffer> pack_b_call(const Arg& variant, const Arg& k, const Arg& n,
                                         const Arg& b) {
  using R = Result<kernels::FloatBuffer>;
  auto v = variant_of(variant);
  if (!v) return pass<kernels::FloatBuffer>(v);
  auto shape = shape_of(Arg::of(1.0), k, n);
  if (!shape) return pass<kernels::FloatBuffer>(shape);
  auto input = kernels::FloatBuffer::allocate(shape->k * shape->n);
  auto packed = kernels::FloatBuffer::allocate(v.value()->packed_floats(shape->k, shape->n));
  if (!input) return input;
  if (!packed) return packed;
  auto copied = copy_floats("b", b, input.value().size(), "k·n", input.value().data());
  if (!copied) return pass<kernels::FloatBuffer>(copied);
  v.value()->pack(shape->k, shape->n, input.value().data(), packed.value().data());
  return R::success(std::move(packed.value()));
}

Result<kernels::FloatBuffer> run_kernel_call(const Arg& variant, const Arg& m, const Arg& k,
                                             const Arg& n, const Arg& a, const Arg& b) {
  using R = Result<kernels::FloatBuffer>;
  auto v = variant_of(variant);
  if (!v) return pass<kernels::FloatBuffer>(v);
  auto shape = shape_of(m, k, n);
  if (!shape) return pass<kernels::FloatBuffer>(shape);
  auto buffers = kernels::allocate_matmul(shape.value());
  if (!buffers) return pass<kernels::FloatBuffer>(buffers);
  auto& bf = buffers.value();
  auto ca = copy_floats("a", a, bf.a.size(), "m·k", bf.a.data());
  if (!ca) return pass<kernels::FloatBuffer>(ca);
  auto cb = copy_floats("b", b, bf.b.size(), "k·n", bf.b.data());
  if (!cb) return pass<kernels::FloatBuffer>(cb);
  v.value()->run(shape->m, shape->k, shape->n, bf.a.data(), bf.b.data(), bf.c.data(),
                 bf.packed.data());
  return R::success(std::move(bf.c));
}

Result<std::string> time_kernel_call(const Arg& variant, const Arg& m, const Arg& k, const Arg& n,
                                     const Arg& samples, const Arg& min_sample_seconds) {
  using R = Result<std::string>;
  auto v = variant_of(variant);
  if (!v) return pass<std::string>(v);
  auto shape = shape_of(m, k, n);
  if (!shape) return pass<std::string>(shape);
  RL_NUMBER(count, "samples", samples);
  auto n_samples = sample_count(count.value(), 1000);
  if (!n_samples) return pass<std::string>(n_samples);
  std::optional<double> min_seconds;
  if (!min_sample_seconds.is_undefined()) {
    RL_NUMBER(ms, "min_sample_seconds", min_sample_seconds);
    min_seconds = ms.value();
  }
  return time_kernel_json(*v.value(), shape.value(), n_samples.value(), min_seconds);
}

Result<std::string> timer_resolution_call(const Arg& now, const std::function<double()>& read,
                                          const Arg& give_up_seconds) {
  using R = Result<std::string>;
  if (now.type != Arg::Type::function)
    return R::failure_for("now", "now must be a function returning seconds, got " +
                                     (now.is_number() ? format_number(now.number) : now.shown()));
  double give_up = 1;
  if (!give_up_seconds.is_undefined()) {
    RL_NUMBER(g, "give_up_seconds", give_up_seconds);
    if (!(g.value() >= 0 && g.value() <= 60))
      return R::failure_for("give_up_seconds", "give_up_seconds must be from 0 to 60, got " +
                                                   format_number(g.value()));
    give_up = g.value();
  }
  auto r = measure::timer_resolution(read, give_up);
  if (!r) return pass<std::string>(r);
  JsonWriter j;
  j.begin_object().field("seconds", r.value()).end_object();
  return R::success(j.take());
}

Result<std::string> sampler_start_call(const Arg& timer_resolution, const Arg& min_sample_seconds,
                                       const Arg& samples) {
  using R = Result<std::string>;
  RL_NUMBER(r, "timer_resolution", timer_resolution);
  RL_NUMBER(m, "min_sample_seconds", min_sample_seconds);
  RL_NUMBER(n, "samples", samples);
  auto count = sample_count(n.value(), 1000);
  if (!count) return pass<std::string>(count);
  measure::SamplerOptions o;
  o.timer_resolution = r.value();
  o.min_sample_seconds = m.value();
  o.samples = count.value();
  auto s = measure::start_sampler(o);
  if (!s) return pass<std::string>(s);
  return R::success(measure::sampler_json(s.value()));
}

Result<std::string> sampler_record_call(const Arg& state, const Arg& elapsed) {
  using R = Result<std::string>;
  if (!state.is_string())
    return R::failure("state must be the JSON text samplerStart or samplerRecord gave");
  RL_NUMBER(e, "elapsed", elapsed);
  auto s = measure::sampler_from_json(state.string);
  if (!s) return pass<std::string>(s);
  measure::record_round(s.value(), e.value());
  return R::success(measure::sampler_json(s.value()));
}

Result<std::string> measure_compute_call(const Arg& min_seconds) {
  using R = Result<std::string>;
  RL_NUMBER(s, "min_seconds", min_seconds);
  auto c = measure::measure_compute(s.value());
  if (!c) return pass<std::string>(c);
  JsonWriter j;
  j.begin_object().key("gflops").value(c->gflops).key("chains").value(c->chains);
  j.key("width").value(c->width).end_object();
  return R::success(j.text());
}

Result<std::string> measure_bandwidth_call(const Arg& level, const Arg& min_seconds) {
  using R = Result<std::string>;
  if (!level.is_string()) return R::failure("level must be a string, got " + level.type_of());
  RL_NUMBER(s, "min_seconds", min_seconds);
  auto b = measure::measure_bandwidth(level.string, s.value());
  if (!b) return pass<std::string>(b);
  JsonWriter j;
  j.begin_object().key("level").value(b->level);
  j.key("working_set_bytes").value(double(b->working_set_bytes));
  j.key("gbs").value(b->gbs).end_object();
  return R::success(j.text());
}

Result<TrafficRequest> traffic_request(const Arg& factor, const Arg& options) {
  using R = Result<TrafficRequest>;
  RL_NUMBER(f, "traffic factor", factor);
  if (!options.is_undefined() && options.type_of() != "object") {
    return R::failure("options must be an object {reread?, samples?}, got " + options.type_of());
  }
  TrafficRequest q;
  q.factor = f.value();
  if (options.is_nullish()) return R::success(q);
  if (!options["samples"].is_undefined()) {
    RL_NUMBER(c, "samples", options["samples"]);
    q.samples = c.value();
  }
  const Arg& r = options["reread"];
  if (!r.is_undefined()) {
    q.reread = r.is_string() ? r.string : "";
    q.reread_shown = r.is_string() ? "\"" + r.string + "\"" : r.type_of();
  }
  return R::success(q);
}

Result<std::string> measure_traffic_call(const Arg& factor, const Arg& options) {
  auto q = traffic_request(factor, options);
  if (!q) return pass<std::string>(q);
  return measure_traffic_json(q.value());
}

Result<std::unique_ptr<measure::Work>> make_work(const Arg& spec) {
  using R = Result<std::unique_ptr<measure::Work>>;
  if (spec.type == Arg::Type::null || spec.type_of() != "object")
    return R::failure("work must be an object, got " + spec.type_name());
  const std::string kind = spec["kind"].is_string() ? spec["kind"].string : "";
  if (kind == "chains") return R::success(measure::make_chains_work());
  if (kind == "triad") {
    if (!spec["level"].is_string())
      return R::failure("work.level must be a string, got " + spec["level"].type_name());
    int workers = 1;
    if (!spec["workers"].is_undefined()) {
      auto w = cores_of("work.workers", spec["workers"]);  // the pool's limit
      if (!w) return pass<std::unique_ptr<measure::Work>>(w);
      workers = w.value();
    }
    return measure::make_triad_work(spec["level"].string, workers);
  }
  if (kind == "kernel") {
    auto v = variant_of(spec["variant"]);
    if (!v) return pass<std::unique_ptr<measure::Work>>(v);
    RL_NUMBER(rows, "work.rows", spec["rows"]);
    RL_NUMBER(kk, "work.k", spec["k"]);
    RL_NUMBER(nn, "work.n", spec["n"]);
    auto kw = measure::make_kernel_work(*v.value(), rows.value(), kk.value(), nn.value());
    if (!kw) return pass<std::unique_ptr<measure::Work>>(kw);
    auto& block = *kw.value();
    auto ca = copy_floats("work.a", spec["a"], block.a_floats(), "rows·k", block.a());
    if (!ca) return pass<std::unique_ptr<measure::Work>>(ca);
    auto cb = copy_floats("work.packed_b", spec["packed_b"], block.packed_floats(),
                          "packB's result for k, n", block.packed_b());
    if (!cb) return pass<std::unique_ptr<measure::Work>>(cb);
    return R::success(std::move(kw.value()));
  }
  return R::failure("work.kind must be one of chains, triad, kernel, got \"" + kind + "\"");
}

std::string work_json(const measure::Work& work, double handle) {
  JsonWriter j;
  j.begin_object().key("kind").value(work.kind);
  j.key("flops_per_unit").value(work.flops_per_unit);
  j.key("bytes_per_unit").value(work.bytes_per_unit);
  j.key("working_set_bytes").value(double(work.working_set_bytes));
  j.key("handle").value(handle).end_object();
  return j.text();
}

Result<std::size_t> work_units(const Arg& units) {
  auto u = integer_of("units", units, 1, double(measure::kMaxRepeats), "1 to 2^30");
  if (!u) return pass<std::size_t>(u);
  return Result<std::size_t>::success(std::size_t(u.value()));
}

// ---- text: HLO, Python

Result<bool> text_room(std::size_t size) {
  if (size > hlo::kMaxTextBytes) return Result<bool>::failure(hlo::text_too_big(size, false));
  if (!memory::fits(size)) {
    return Result<bool>::failure("the text is " + std::to_string(size) +
                                 " bytes, more than the core's memory has room for now (" +
                                 std::to_string(memory::in_use() >> 20) + " MiB of " +
                                 std::to_string(memory::limit() >> 20) + " MiB in use)");
  }
  return Result<bool>::success(true);
}

Result<std::size_t> text_buffer_size(const Arg& size) {
  using R = Result<std::size_t>;
  RL_NUMBER(n, "size", size);
  if (!(n.value() >= 0 && n.value() <= 9007199254740991.0) || n.value() != std::floor(n.value()))
    return R::failure("size must be a whole number of bytes, got " + format_number(n.value()));
  // Compared as a double: past 2^32 a size_t of wasm32 would wrap.
  if (n.value() > static_cast<double>(hlo::kMaxTextBytes))
    return R::failure("size must be at most " + std::to_string(hlo::kMaxTextBytes) +
                      " bytes (the most text the core analyses at once), got " +
                      format_number(n.value()));
  auto room = text_room(static_cast<std::size_t>(n.value()));
  if (!room) return pass<std::size_t>(room);
  return R::success(static_cast<std::size_t>(n.value()));
}

std::string table_json(const hlo::OpTable& table, double handle) {
  JsonWriter j;
  j.begin_object().key("dialect").value(table.analysis().dialect);
  j.key("rows").value(static_cast<double>(table.rows()));
  j.key("errors").begin_array();
  for (const auto& m : table.analysis().modules) {
    if (m.analysis) continue;
    const Error& e = m.analysis.error_info();
    j.begin_object().key("module_name").value(m.name).key("error").value(e.message);
    j.key("message").value(e.without_place()).key("line").value(e.line);
    j.key("column").value(e.column).end_object();
  }
  j.end_array().key("handle").value(handle).end_object();
  return j.text();
}

Result<std::size_t> chunk_bytes(const Arg& bytes) {
  auto n = number_of("bytes", bytes);
  if (!n) return pass<std::size_t>(n);
  if (!(n.value() >= 1 && n.value() <= (1 << 26)))
    return Result<std::size_t>::failure("bytes must be from 1 to 67108864, got " +
                                        format_number(n.value()));
  return Result<std::size_t>::success(static_cast<std::size_t>(n.value()));
}
// -----------------------------------------------------------------------------

Result<std::string> emit_workload_call(const Arg& m, const Arg& k, const Arg& n, const Arg& dtype) {
  using R = Result<std::string>;
  RL_NUMBER(mm, "m", m);
  RL_NUMBER(kk, "k", k);
  RL_NUMBER(nn, "n", n);
  if (!dtype.is_string()) return R::failure("dtype must be a string, got " + dtype.type_of());
  return hlo::emit_workload(mm.value(), kk.value(), nn.value(), dtype.string);
}

Result<hlo::FuseOptions> fuse_options(const Arg& options) {
  using R = Result<hlo::FuseOptions>;
  hlo::FuseOptions o;
  if (options.is_nullish()) return R::success(o);
  if (options.type_of() != "object")
    return R::failure("options must be an object, got " + options.type_of());
  const Arg& e = options["dot_epilogues"];
  if (!e.is_undefined()) {
    if (!e.is_boolean())
      return R::failure_for("dot_epilogues",
                            "dot_epilogues must be true or false, got " + e.type_of());
    o.dot_epilogues = e.boolean;
  }
  return R::success(o);
}

Result<std::string> lower_entry(const Arg& options) {
  using R = Result<std::string>;
  if (options.is_nullish() || options["entry"].is_nullish()) return R::success("");
  return string_of("entry", options["entry"]);
}

std::string lowered_json(const python::Lowered& l) {
  JsonWriter j;
  j.begin_object().key("text").value(l.text).key("function").value(l.function);
  j.key("kept_args").begin_array();
  for (int k : l.kept_args) j.value(k);
  j.end_array().end_object();
  return j.text();
}

Result<python::NotebookOptions> notebook_options(const Arg& options, bool with_filename) {
  using R = Result<python::NotebookOptions>;
  python::NotebookOptions o;
  if (options.is_nullish()) return R::success(std::move(o));
  if (with_filename && !options["filename"].is_nullish()) {
    auto f = string_of("filename", options["filename"]);
    if (!f) return pass<python::NotebookOptions>(f);
    o.filename = f.value();
  }
  if (!options["maxSteps"].is_nullish()) {
    RL_NUMBER(n, "maxSteps", options["maxSteps"]);
    auto steps = python::max_steps_of(n.value());
    if (!steps) return pass<python::NotebookOptions>(steps);
    o.max_steps = steps.value();
  }
  return R::success(std::move(o));
}

Result<int> cell_number(const Arg& cell) {
  auto c = integer_of("cell", cell, 1, 1e6, "1 to 1000000");
  if (!c) return pass<int>(c);
  return Result<int>::success(int(c.value()));
}

std::string notebook_json(const python::NotebookResult& r, int cells_run) {
  JsonWriter j;
  j.begin_object().key("stdout").value(r.stdout_text);
  if (cells_run >= 0) j.key("display").value(r.display);
  j.key("error").value(r.error);
  j.key("errorType").value(r.error_type);
  if (cells_run >= 0) j.key("exception").value(r.exception);
  j.key("line").value(r.line);
  if (cells_run >= 0) {
    j.key("column").value(r.column).key("file").value(r.file);
    j.key("sourceLine").value(r.source_line).key("cellsRun").value(cells_run);
  }
  j.end_object();
  return j.text();
}

std::string cells_json(const std::vector<python::NotebookCell>& cells) {
  JsonWriter j;
  j.begin_array();
  for (const auto& c : cells)
    j.begin_object()
        .key("source")
        .value(c.source)
        .key("firstLine")
        .value(c.first_line)
        .end_object();
  j.end_array();
  return j.text();
}

std::string number_json(const char* key, double value) {
  JsonWriter j;
  j.begin_object().key(key).value(value).end_object();
  return j.text();
}

// ---- runs
// --------------------------------------------------------------------------------------------

Result<interp::RunOptions> run_options(const Arg& options) {
  using R = Result<interp::RunOptions>;
  interp::RunOptions o = default_run_options();
  if (options.is_nullish()) return R::success(std::move(o));
  if (options.type_of() != "object")
    return R::failure("options must be an object, got " + options.type_of());
  const Arg& inputs = options["inputs"];
  if (!inputs.is_undefined()) {
    auto how = run_inputs(inputs.is_string() ? inputs.string : std::string(),
                          inputs.is_string() ? "\"" + inputs.string + "\"" : inputs.type_of());
    if (!how) return pass<interp::RunOptions>(how);
    o.inputs = how.value();
  }
  for (const char* key : kRunNumberOptions) {
    const Arg& v = options[key];
    if (v.is_undefined()) continue;
    auto x = number_of(key, v);
    if (!x) return R::failure_for(key, x.error());
    auto set = set_run_number(o, key, x.value());
    if (!set) return pass<interp::RunOptions>(set);
  }
  for (auto [key, out] : {std::pair{"time_ops", &o.time_ops}, std::pair{"fuse", &o.fuse},
                          std::pair{"dot_epilogues", &o.fusion.dot_epilogues}}) {
    const Arg& v = options[key];
    if (v.is_undefined()) continue;
    if (!v.is_boolean())
      return R::failure_for(key, std::string(key) + " must be true or false, got " + v.type_of());
    *out = v.boolean;
  }
  // on_progress(done, total): the entry's own ops run so far, at most every 0.1 s (the page's
  // Worker posts each call to its progress bar while the core runs); the caller hands it on.
  const Arg& progress = options["on_progress"];
  if (!progress.is_undefined() && progress.type != Arg::Type::function)
    return R::failure_for("on_progress",
                          "on_progress must be a function, got " + progress.type_of());
  const Arg& args = options["args"];
  if (!args.is_undefined()) {
    if (!inputs.is_undefined()) return R::failure_for("args", "give inputs or args, not both");
    if (!args.is_array())
      return R::failure_for("args",
                            "args must be an array of {name, bytes}, got " + args.type_name());
    for (std::size_t i = 0; i < args.items.size(); ++i) {
      const Arg& a = args.items[i];
      const std::string at = "args[" + std::to_string(i) + "]";
      if (!a.is_object() || !a["name"].is_string() || a["bytes"].type != Arg::Type::bytes)
        return R::failure_for(
            "args", at + " must be {name: string, bytes: Uint8Array}, got " + a.type_name());
      auto array = interp::read_npy(a["bytes"].string, a["name"].string);
      if (!array) return R::failure_for("args", array.error());
      o.args.push_back(std::move(array.value()));
    }
    o.inputs = interp::Inputs::Given;
  }
  return R::success(std::move(o));
}

// ---- exercises
// -----------------------------------------------------------------------------------------

Result<std::vector<exercises::Exercise>> exercise_set(const Arg& seed, const Arg& count,
                                                      const Arg& families) {
  using R = Result<std::vector<exercises::Exercise>>;
  if (!seed.is_string()) return R::failure("seed must be a string, got " + seed.type_of());
  auto c = integer_of("count", count, 1, 100);
  if (!c) return pass<std::vector<exercises::Exercise>>(c);
  auto f = strings_of("families", families);
  if (!f) return pass<std::vector<exercises::Exercise>>(f);
  return exercises::generate(seed.string, int(c.value()), f.value());
}

Result<std::string> exercises_call(const Arg& seed, const Arg& count, const Arg& families) {
  auto set = exercise_set(seed, count, families);
  if (!set) return pass<std::string>(set);
  return Result<std::string>::success(exercises::exercises_json(set.value()));
}

Result<std::string> check_answer_call(const Arg& seed, const Arg& count, const Arg& families,
                                      const Arg& index, const Arg& question_id, const Arg& answer) {
  using R = Result<std::string>;
  auto set = exercise_set(seed, count, families);
  if (!set) return pass<std::string>(set);
  auto i = integer_of("index", index, 0, double(set->size()) - 1);
  if (!i) return pass<std::string>(i);
  if (!question_id.is_string())
    return R::failure("question must be a string, got " + question_id.type_of());
  if (!answer.is_string()) return R::failure("answer must be a string, got " + answer.type_of());
  for (const auto& q : set.value()[std::size_t(i.value())].questions) {
    if (q.id == question_id.string)
      return R::success(verdict_json(exercises::check(q, answer.string)));
  }
  return R::failure("question must be one of the exercise's questions, got \"" +
                    question_id.string + "\"");
}

Result<std::string> check_question_call(const Arg& question, const Arg& answer) {
  using R = Result<std::string>;
  if (question.type == Arg::Type::null || question.type_of() != "object") {
    return R::failure("question must be an object, got " + (question.type == Arg::Type::null
                                                                ? std::string("null")
                                                                : question.type_of()));
  }
  if (!answer.is_string()) return R::failure("answer must be a string, got " + answer.type_of());
  exercises::Question q;
  auto text = [&](const char* key) {
    return question[key].is_string() ? question[key].string : std::string();
  };
  q.kind = text("kind");
  if (q.kind != "number" && q.kind != "choice" && q.kind != "set")
    return R::failure("question.kind must be one of number, choice, set, got \"" + q.kind + "\"");
  q.unit = text("unit");
  q.exact = text("exact");
  if (q.kind == "number") {
    RL_NUMBER(v, "question.value", question["value"]);
    q.value = v.value();
    if (!question["rel_tolerance"].is_undefined()) {
      RL_NUMBER(r, "question.rel_tolerance", question["rel_tolerance"]);
      q.rel_tolerance = r.value();
    }
    const Arg& ms = question["mistakes"];
    if (!ms.is_undefined()) {
      if (!ms.is_array()) return R::failure("question.mistakes must be an array");
      for (const Arg& m : ms.items) {
        RL_NUMBER(mv, "question.mistakes[].value", m["value"]);
        q.mistakes.push_back(
            {mv.value(), m["feedback"].is_string() ? m["feedback"].string : "", ""});
      }
    }
  } else if (q.kind == "choice") {
    auto choices = strings_of("question.choices", question["choices"]);
    if (!choices) return pass<std::string>(choices);
    q.choices = choices.value();
  } else {
    auto xs = numbers_of("question.set", question["set"]);
    if (!xs) return pass<std::string>(xs);
    q.set = xs.value();
    std::sort(q.set.begin(), q.set.end());
  }
  auto hints = strings_of("question.hints", question["hints"]);
  if (!hints) return pass<std::string>(hints);
  q.hints = hints.value();
  return R::success(verdict_json(exercises::check(q, answer.string)));
}

Result<std::string> gradebook_call(const Arg& files, const Arg& set) {
  using R = Result<std::string>;
  if (!files.is_array())
    return R::failure("files must be an array of {name, text}, got " + files.type_of());
  std::vector<exercises::ResultFile> in;
  for (std::size_t i = 0; i < files.items.size(); ++i) {
    const Arg& f = files.items[i];
    const std::string where = "files[" + std::to_string(i) + "]";
    if (f.type == Arg::Type::null || f.type_of() != "object")
      return R::failure(where + " must be {name, text}");
    if (!f["name"].is_string())
      return R::failure(where + ".name must be a string, got " + f["name"].type_of());
    if (!f["text"].is_string())
      return R::failure(where + ".text must be a string, got " + f["text"].type_of());
    exercises::ResultFile r{f["name"].string, f["text"].string, -1};
    if (!f["size"].is_nullish()) {
      RL_NUMBER(size, where + ".size", f["size"]);
      r.bytes = size.value();
    }
    in.push_back(std::move(r));
  }
  std::optional<exercises::SetSpec> expected;
  if (!set.is_nullish()) {
    if (set.type_of() != "object")
      return R::failure("set must be {seed, count, families?}, got " + set.type_of());
    auto made = exercise_set(set["seed"], set["count"], set["families"]);  // as generate refuses
    if (!made) return R::failure("set: " + made.error());
    auto families = strings_of("set.families", set["families"]);
    expected = exercises::SetSpec{set["seed"].string, int(set["count"].number), families.value()};
  }
  return exercises::gradebook_json(in, expected);
}

Result<std::string> moodle_call(const Arg& seed, const Arg& count, const Arg& families) {
  auto set = exercise_set(seed, count, families);  // the arguments' rules, as generateExercises
  if (!set) return pass<std::string>(set);
  auto f = strings_of("families", families);
  return exercises::moodle_xml(seed.string, int(count.number), f.value());
}

}  // namespace rl::report
