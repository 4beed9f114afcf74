// The one file that includes Emscripten headers: the core's JS surface, through Embind.
//
// Contract (see bindings/README.md and web/core.js for the JS side):
// - every function takes plain JS values and returns a plain object the caller owns:
//   {ok: true, value: ...} or {ok: false, error: "m must be a positive integer, got 0"};
// - nothing is thrown across the boundary and nothing aborts on bad input; a JS value of the
//   wrong type (a string where a number belongs) is refused here with the argument's name;
// - counts are 128-bit exact in C++: they cross as a double (`flops`, exact up to 2^53) plus
//   the exact decimal text (`flops_exact`). Keys are snake_case, as in the CLI's JSON.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings/handles.h"
#include "common/json_writer.h"
#include "common/memory.h"
#include "exercises/exercises.h"
#include "exercises/gradebook.h"
#include "exercises/moodle.h"
#include "hlo/emit.h"
#include "hlo/report.h"
#include "hlo/table.h"
#include "kernels/kernels.h"
#include "measure/ceilings.h"
#include "measure/harness.h"
#include "measure/timer.h"
#include "measure/work.h"
#include "model/model.h"
#include "python/notebook.h"
#include "python/tracer.h"
#include "report/lesson_check.h"
#include "report/measurements.h"
#include "report/report.h"
#include "report/roofline.h"
#include "report/run_report.h"
#include "report/values.h"

using emscripten::val;
using namespace rl;
using namespace rl::model;

namespace {

val ok(val value) {
  val out = val::object();
  out.set("ok", true);
  out.set("value", value);
  return out;
}

val fail(const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("error", message);
  return out;
}

// {ok: false, error, input?, line?, column?}: the fields the core's error carries.
val fail(const Error& e) {
  val out = fail(e.message);
  if (!e.input.empty()) out.set("input", e.input);
  if (e.line > 0) {
    out.set("line", e.line);
    out.set("column", e.column);
    out.set("message", e.without_place());
  }
  return out;
}

template <class T>
val fail_from(const Result<T>& r) {
  return fail(r.error_info());
}

// A number argument: refuses strings, undefined, objects, with the argument's name. Rules
// about the number itself (positive, integer, finite) stay in the model.
Result<double> number_arg(const char* name, const val& v) {
  if (v.isNumber()) return Result<double>::success(v.as<double>());
  std::string got =
      v.isString() ? "the string \"" + v.as<std::string>() + "\"" : v.typeOf().as<std::string>();
  return Result<double>::failure(std::string(name) + " must be a number, got " + got);
}

Result<std::vector<double>> numbers_arg(const char* name, const val& v) {
  using R = Result<std::vector<double>>;
  if (!v.isArray()) {
    return R::failure(std::string(name) + " must be an array of numbers, got " +
                      v.typeOf().as<std::string>());
  }
  std::vector<double> out;
  const unsigned length = v["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    std::string item = std::string(name) + "[" + std::to_string(i) + "]";
    auto x = number_arg(item.c_str(), v[i]);
    if (!x) return R::failure_from(x);
    out.push_back(x.value());
  }
  return R::success(out);
}

template <class T>
val array_of(const std::vector<T>& xs) {
  val out = val::array();
  for (const auto& x : xs) out.call<void>("push", x);
  return out;
}

val ceiling_value(const Ceiling& c) {
  val out = val::object();
  out.set("intensity", c.intensity);
  out.set("bandwidth_ceiling", c.bandwidth_ceiling);
  out.set("ceiling", c.ceiling);
  out.set("bound", std::string(bound_name(c.bound)));
  return out;
}

// Reads (peak, bandwidth) and checks them as budgets.
Result<Budgets> budgets_arg(const val& peak, const val& bandwidth) {
  auto p = number_arg("peak", peak);
  if (!p) return Result<Budgets>::failure_from(p);
  auto b = number_arg("bandwidth", bandwidth);
  if (!b) return Result<Budgets>::failure_from(b);
  return make_budgets(p.value(), b.value());
}

// Reads a core count (report::core_count: an integer from 1 to 256, the pool's limit).
Result<int> cores_arg(const std::string& name, const val& v) {
  auto c = number_arg(name.c_str(), v);
  if (!c) return Result<int>::failure_from(c);
  return report::core_count(name, c.value());
}

// ---- exported functions ----------------------------------------------------------------

val js_contract(val m, val k, val n, val itemsize) {
  double args[4];
  const char* names[4] = {"m", "k", "n", "itemsize"};
  const val* vals[4] = {&m, &k, &n, &itemsize};
  for (int i = 0; i < 4; ++i) {
    if (i == 3 && itemsize.isUndefined()) {  // itemsize=4, as in the seed
      args[i] = lesson::kItemsize;
      continue;
    }
    auto x = number_arg(names[i], *vals[i]);
    if (!x) return fail_from(x);
    args[i] = x.value();
  }
  auto c = contract(args[0], args[1], args[2], args[3]);
  return c ? ok(val(report::contraction_json(c.value()))) : fail_from(c);
}

val js_contract_shapes(val a_rows, val a_cols, val b_rows, val b_cols, val itemsize) {
  double args[5];
  const char* names[5] = {"a rows", "a columns", "b rows", "b columns", "itemsize"};
  const val* vals[5] = {&a_rows, &a_cols, &b_rows, &b_cols, &itemsize};
  for (int i = 0; i < 5; ++i) {
    if (i == 4 && itemsize.isUndefined()) {
      args[i] = lesson::kItemsize;
      continue;
    }
    auto x = number_arg(names[i], *vals[i]);
    if (!x) return fail_from(x);
    args[i] = x.value();
  }
  auto c = contract_shapes(args[0], args[1], args[2], args[3], args[4]);
  return c ? ok(val(report::contraction_json(c.value()))) : fail_from(c);
}

val js_ceilings(val peak, val bandwidth, val intensities) {
  auto budgets = budgets_arg(peak, bandwidth);
  if (!budgets) return fail_from(budgets);
  auto xs = numbers_arg("intensities", intensities);
  if (!xs) return fail_from(xs);
  val rows = val::array();
  for (double x : xs.value()) {
    auto c = ceiling(budgets.value(), x);
    if (!c) return fail_from(c);
    rows.call<void>("push", ceiling_value(c.value()));
  }
  val out = val::object();
  out.set("ridge", ridge(budgets.value()));
  out.set("rows", rows);
  return ok(out);
}

val js_traffic_experiment(val peak, val bandwidth, val intensities, val factor) {
  auto budgets = budgets_arg(peak, bandwidth);
  if (!budgets) return fail_from(budgets);
  auto xs = numbers_arg("intensities", intensities);
  if (!xs) return fail_from(xs);
  auto f = number_arg("traffic factor", factor);
  if (!f) return fail_from(f);
  auto rows = traffic_experiment(budgets.value(), xs.value(), f.value());
  if (!rows) return fail_from(rows);
  val out = val::array();
  for (const auto& r : rows.value()) {
    val row = val::object();
    row.set("original", ceiling_value(r.original));
    row.set("revised", ceiling_value(r.revised));
    row.set("bound_changed", r.bound_changed);
    out.call<void>("push", row);
  }
  return ok(out);
}

val js_figure(val peak, val bandwidth, val intensities) {
  auto budgets = budgets_arg(peak, bandwidth);
  if (!budgets) return fail_from(budgets);
  auto xs = numbers_arg("intensities", intensities);
  if (!xs) return fail_from(xs);
  auto fig = figure(budgets.value(), xs.value());
  if (!fig) return fail_from(fig);
  // Key order is the seed's: kind, x, xlabel, ylabel, series.
  val out = val::object();
  out.set("kind", fig->kind);
  out.set("x", array_of(fig->x));
  out.set("xlabel", fig->xlabel);
  out.set("ylabel", fig->ylabel);
  val series = val::array();
  for (const auto& s : fig->series) {
    val one = val::object();
    one.set("label", s.label);
    one.set("y", array_of(s.y));
    series.call<void>("push", one);
  }
  out.set("series", series);
  return ok(out);
}

// The seed's values and the lesson's element types (report::defaults_json): JSON text.
val js_lesson_defaults() { return ok(val(rl::report::defaults_json())); }

// ---- kernels and measurements ---------------------------------------------------------------

// The variant named by `name`, or the fastest fused tanh(A·B) variant when it is undefined.
Result<const kernels::MatmulVariant*> variant_arg(const val& name) {
  if (name.isUndefined() || name.isNull()) {
    return Result<const kernels::MatmulVariant*>::success(&kernels::best_matmul(true));
  }
  if (!name.isString()) {
    return Result<const kernels::MatmulVariant*>::failure("variant must be a string, got " +
                                                          name.typeOf().as<std::string>());
  }
  return kernels::find_matmul(name.as<std::string>());
}

Result<kernels::MatmulShape> shape_arg(const val& m, const val& k, const val& n) {
  using R = Result<kernels::MatmulShape>;
  auto mm = number_arg("m", m);
  if (!mm) return R::failure_from(mm);
  auto kk = number_arg("k", k);
  if (!kk) return R::failure_from(kk);
  auto nn = number_arg("n", n);
  if (!nn) return R::failure_from(nn);
  return kernels::check_matmul_shape(mm.value(), kk.value(), nn.value());
}

val js_kernel_variants() { return ok(val(report::kernel_variants_json())); }

// The lesson's kernel check (report/measurements.h): a variant run on the lesson's inputs and
// checked against the double reference at |x − y| ≤ 2e-5 + 2e-5·|y|; JSON text.
val js_check_lesson_kernel(val variant) {
  auto v = variant_arg(variant);
  if (!v) return fail_from(v);
  auto json = report::lesson_kernel_check_json(*v.value());
  return json ? ok(val(json.value())) : fail_from(json);
}

// The lesson's StableHLO run by the interpreter on the lesson's inputs and checked against the
// double reference under the same rule as checkLessonKernel (report/lesson_check.h): its check
// beside the kernel's, and the IR's ops timed (a measurement); JSON text.
val js_check_lesson_ir() {
  auto json = report::lesson_ir_check_json();
  return json ? ok(val(json.value())) : fail_from(json);
}

// The kernel timed by the harness (report/measurements.h): JSON text.
val js_time_kernel(val variant, val m, val k, val n, val samples, val min_sample_seconds) {
  auto v = variant_arg(variant);
  if (!v) return fail_from(v);
  auto shape = shape_arg(m, k, n);
  if (!shape) return fail_from(shape);
  auto count = number_arg("samples", samples);
  if (!count) return fail_from(count);
  auto n_samples = report::sample_count(count.value(), 1000);
  if (!n_samples) return fail_from(n_samples);
  std::optional<double> min_seconds;
  if (!min_sample_seconds.isUndefined()) {
    auto ms = number_arg("min_sample_seconds", min_sample_seconds);
    if (!ms) return fail_from(ms);
    min_seconds = ms.value();
  }
  auto json = report::time_kernel_json(*v.value(), shape.value(), n_samples.value(), min_seconds);
  return json ? ok(val(json.value())) : fail_from(json);
}

// The harness's rules for rounds the caller times itself (the page's fork–join rounds over
// Workers): the sampler's state travels as JSON (measure::sampler_json), the loop stays in JS.
val js_sampler_start(val timer_resolution, val min_sample_seconds, val samples) {
  auto r = number_arg("timer_resolution", timer_resolution);
  if (!r) return fail_from(r);
  auto m = number_arg("min_sample_seconds", min_sample_seconds);
  if (!m) return fail_from(m);
  auto n = number_arg("samples", samples);
  if (!n) return fail_from(n);
  auto count = report::sample_count(n.value(), 1000);
  if (!count) return fail_from(count);
  measure::SamplerOptions o;
  o.timer_resolution = r.value();
  o.min_sample_seconds = m.value();
  o.samples = count.value();
  auto s = measure::start_sampler(o);
  if (!s) return fail_from(s);
  return ok(val(measure::sampler_json(s.value())));
}

val js_sampler_record(val state, val elapsed) {
  if (!state.isString())
    return fail("state must be the JSON text samplerStart or samplerRecord gave");
  auto e = number_arg("elapsed", elapsed);
  if (!e) return fail_from(e);
  auto s = measure::sampler_from_json(state.as<std::string>());
  if (!s) return fail_from(s);
  measure::record_round(s.value(), e.value());
  return ok(val(measure::sampler_json(s.value())));
}

val js_measure_compute(val min_seconds) {
  auto s = number_arg("min_seconds", min_seconds);
  if (!s) return fail_from(s);
  auto c = measure::measure_compute(s.value());
  if (!c) return fail_from(c);
  val out = val::object();
  out.set("gflops", c->gflops);
  out.set("chains", c->chains);
  out.set("width", c->width);
  return ok(out);
}

val js_measure_bandwidth(val level, val min_seconds) {
  if (!level.isString())
    return fail("level must be a string, got " + level.typeOf().as<std::string>());
  auto s = number_arg("min_seconds", min_seconds);
  if (!s) return fail_from(s);
  auto b = measure::measure_bandwidth(level.as<std::string>(), s.value());
  if (!b) return fail_from(b);
  val out = val::object();
  out.set("level", b->level);
  out.set("working_set_bytes", double(b->working_set_bytes));
  out.set("gbs", b->gbs);
  return ok(out);
}

// Section 6's experiment measured (report/measurements.h): JSON text.
// options: {reread?: "after-array" (default) | "right-away", samples?: 1..100 (default 3)}.
val js_measure_traffic(val factor, val options) {
  auto f = number_arg("traffic factor", factor);
  if (!f) return fail_from(f);
  if (!options.isUndefined() &&
      !(options.isNull() || options.typeOf().as<std::string>() == "object")) {
    return fail("options must be an object {reread?, samples?}, got " +
                options.typeOf().as<std::string>());
  }
  report::TrafficRequest q;
  q.factor = f.value();
  if (!options.isUndefined() && !options.isNull()) {
    if (!options["samples"].isUndefined()) {
      auto c = number_arg("samples", options["samples"]);
      if (!c) return fail_from(c);
      q.samples = c.value();
    }
    const val r = options["reread"];
    if (!r.isUndefined()) {
      q.reread = r.isString() ? r.as<std::string>() : "";
      q.reread_shown = r.isString() ? "\"" + *q.reread + "\"" : r.typeOf().as<std::string>();
    }
  }
  auto json = report::measure_traffic_json(q);
  return json ? ok(val(json.value())) : fail_from(json);
}

// ---- float arrays, packing, and work for the Worker pool ---------------------------------------

std::string type_name(const val& v) {
  if (v.isNull()) return "null";
  if (v.isArray()) return "an array";
  const std::string t = v.typeOf().as<std::string>();
  if (t == "object") {
    val ctor = v["constructor"];
    if (!ctor.isUndefined() && !ctor.isNull() && ctor["name"].isString())
      return ctor["name"].as<std::string>();
  }
  return t;
}

// Copies a Float32Array of exactly `count` floats (what `what` says it holds) into `dst`.
Result<bool> copy_floats_arg(const char* name, const val& v, std::size_t count,
                             const std::string& what, float* dst) {
  using R = Result<bool>;
  if (!v.instanceof (val::global("Float32Array"))) {
    return R::failure(std::string(name) + " must be a Float32Array, got " + type_name(v));
  }
  const double length = v["length"].as<double>();
  if (length != double(count)) {
    return R::failure(std::string(name) + " must hold " + std::to_string(count) + " floats (" +
                      what + "), got " + format_number(length));
  }
  val(emscripten::typed_memory_view(count, dst)).call<void>("set", v);
  return R::success(true);
}

// A JS-owned copy of `count` floats.
val float_array(const float* data, std::size_t count) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(count, data));
}

// (count, seed) → Float32Array uniform in [−1, 1), the kernels' own generator (xorshift32).
val js_uniform_floats(val count, val seed) {
  auto c = number_arg("count", count);
  if (!c) return fail_from(c);
  if (!(c.value() >= 1 && c.value() <= double(kernels::kMaxKernelBytes / 4) &&
        c.value() == std::floor(c.value()))) {
    return fail("count must be an integer from 1 to " +
                std::to_string(kernels::kMaxKernelBytes / 4) + ", got " + format_number(c.value()));
  }
  auto s = number_arg("seed", seed);
  if (!s) return fail_from(s);
  if (!(s.value() >= 0 && s.value() <= 4294967295.0 && s.value() == std::floor(s.value()))) {
    return fail("seed must be an integer from 0 to 2^32 - 1, got " + format_number(s.value()));
  }
  auto buffer = kernels::FloatBuffer::allocate(std::size_t(c.value()));
  if (!buffer) return fail_from(buffer);
  kernels::fill_uniform(buffer.value().data(), buffer.value().size(), std::uint32_t(s.value()));
  return ok(float_array(buffer.value().data(), buffer.value().size()));
}

// (variant?, k, n, b) → Float32Array: B (k×n, row-major) laid out the way the variant's compute
// reads it. A pool packs B once and hands the result to every Worker.
val js_pack_b(val variant, val k, val n, val b) {
  auto v = variant_arg(variant);
  if (!v) return fail_from(v);
  auto shape = shape_arg(val(1), k, n);
  if (!shape) return fail_from(shape);
  auto input = kernels::FloatBuffer::allocate(shape->k * shape->n);
  auto packed = kernels::FloatBuffer::allocate(v.value()->packed_floats(shape->k, shape->n));
  if (!input) return fail_from(input);
  if (!packed) return fail_from(packed);
  auto copied = copy_floats_arg("b", b, input.value().size(), "k·n", input.value().data());
  if (!copied) return fail_from(copied);
  v.value()->pack(shape->k, shape->n, input.value().data(), packed.value().data());
  return ok(float_array(packed.value().data(), packed.value().size()));
}

// (variant?, m, k, n, a, b) → Float32Array C: one whole product on this thread (pack, then
// compute every row), the single-core result a pool's row blocks are compared with.
val js_run_kernel(val variant, val m, val k, val n, val a, val b) {
  auto v = variant_arg(variant);
  if (!v) return fail_from(v);
  auto shape = shape_arg(m, k, n);
  if (!shape) return fail_from(shape);
  auto buffers = kernels::allocate_matmul(shape.value());
  if (!buffers) return fail_from(buffers);
  auto& bf = buffers.value();
  auto ca = copy_floats_arg("a", a, bf.a.size(), "m·k", bf.a.data());
  if (!ca) return fail_from(ca);
  auto cb = copy_floats_arg("b", b, bf.b.size(), "k·n", bf.b.data());
  if (!cb) return fail_from(cb);
  v.value()->run(shape->m, shape->k, shape->n, bf.a.data(), bf.b.data(), bf.c.data(),
                 bf.packed.data());
  return ok(float_array(bf.c.data(), bf.c.size()));
}

// Work held by this wasm instance between calls (one Worker's part of a pool round), by handle.
bindings::Handles<measure::Work> g_works("createWork returned and releaseWork has not released");

// The object behind a handle argument of `table`, or the error naming it.
template <class T>
Result<T*> handle_arg(const bindings::Handles<T>& table, const val& handle) {
  auto h = number_arg("handle", handle);
  if (!h) return Result<T*>::failure_from(h);
  return table.get(h.value());
}

std::string string_field(const val& spec, const char* key) {
  val v = spec[key];
  return v.isString() ? v.as<std::string>() : std::string();
}

// {kind: 'chains'} | {kind: 'triad', level, workers?} | {kind: 'kernel', variant?, rows, k, n,
// a: Float32Array (rows·k), packed_b: Float32Array (packB's)} → {handle, kind, flops_per_unit,
// bytes_per_unit, working_set_bytes}. The work stays in this instance until releaseWork.
val js_create_work(val spec) {
  if (spec.isNull() || spec.typeOf().as<std::string>() != "object") {
    return fail("work must be an object, got " + type_name(spec));
  }
  const std::string kind = string_field(spec, "kind");
  std::unique_ptr<measure::Work> work;
  if (kind == "chains") {
    work = measure::make_chains_work();
  } else if (kind == "triad") {
    if (!spec["level"].isString())
      return fail("work.level must be a string, got " + type_name(spec["level"]));
    double workers = 1;
    if (!spec["workers"].isUndefined()) {
      auto w = cores_arg("work.workers", spec["workers"]);  // the pool's limit
      if (!w) return fail_from(w);
      workers = w.value();
    }
    auto t = measure::make_triad_work(spec["level"].as<std::string>(), int(workers));
    if (!t) return fail_from(t);
    work = std::move(t.value());
  } else if (kind == "kernel") {
    auto v = variant_arg(spec["variant"]);
    if (!v) return fail_from(v);
    auto rows = number_arg("work.rows", spec["rows"]);
    if (!rows) return fail_from(rows);
    auto kk = number_arg("work.k", spec["k"]);
    if (!kk) return fail_from(kk);
    auto nn = number_arg("work.n", spec["n"]);
    if (!nn) return fail_from(nn);
    auto kw = measure::make_kernel_work(*v.value(), rows.value(), kk.value(), nn.value());
    if (!kw) return fail_from(kw);
    auto& block = *kw.value();
    auto ca = copy_floats_arg("work.a", spec["a"], block.a_floats(), "rows·k", block.a());
    if (!ca) return fail_from(ca);
    auto cb = copy_floats_arg("work.packed_b", spec["packed_b"], block.packed_floats(),
                              "packB's result for k, n", block.packed_b());
    if (!cb) return fail_from(cb);
    work = std::move(kw.value());
  } else {
    return fail("work.kind must be one of chains, triad, kernel, got \"" + kind + "\"");
  }
  val out = val::object();
  out.set("kind", work->kind);
  out.set("flops_per_unit", work->flops_per_unit);
  out.set("bytes_per_unit", work->bytes_per_unit);
  out.set("working_set_bytes", double(work->working_set_bytes));
  out.set("handle", g_works.add(std::move(work)));
  return ok(out);
}

// (handle, units) → {checksum}: runs the work's units back to back, untimed (the caller's clock
// times the round).
val js_run_work(val handle, val units) {
  auto w = handle_arg(g_works, handle);
  if (!w) return fail_from(w);
  auto u = number_arg("units", units);
  if (!u) return fail_from(u);
  if (!(u.value() >= 1 && u.value() <= double(measure::kMaxRepeats) &&
        u.value() == std::floor(u.value()))) {
    return fail("units must be an integer from 1 to 2^30, got " + format_number(u.value()));
  }
  val out = val::object();
  out.set("checksum", w.value()->run(std::size_t(u.value())));
  return ok(out);
}

// (handle) → Float32Array: a kernel work's block of C after its last run.
val js_work_output(val handle) {
  auto w = handle_arg(g_works, handle);
  if (!w) return fail_from(w);
  if (w.value()->kind != "kernel")
    return fail("workOutput needs kernel work, got " + w.value()->kind + " work");
  const auto* kw = static_cast<measure::KernelWork*>(w.value());
  return ok(float_array(kw->c(), kw->c_floats()));
}

val js_release_work(val handle) {
  auto w = handle_arg(g_works, handle);
  if (!w) return fail_from(w);
  g_works.release(handle.as<double>());
  return ok(val(true));
}

// ---- HLO: emit, parse, verify, cost ---------------------------------------------------------

val js_emit_workload(val m, val k, val n, val dtype) {
  auto mm = number_arg("m", m);
  if (!mm) return fail_from(mm);
  auto kk = number_arg("k", k);
  if (!kk) return fail_from(kk);
  auto nn = number_arg("n", n);
  if (!nn) return fail_from(nn);
  if (!dtype.isString())
    return fail("dtype must be a string, got " + dtype.typeOf().as<std::string>());
  auto text = hlo::emit_workload(mm.value(), kk.value(), nn.value(), dtype.as<std::string>());
  return text ? ok(val(text.value())) : fail_from(text);
}

// The analyze view's bundled examples, generated by the core: [{name, title, text}].
val js_example_modules() { return ok(val(report::example_modules_json())); }

// A JS string as UTF-8 in a std::string the core then owns, written in place by
// TextEncoder.encodeInto: one copy of the text in wasm memory and no byte loop in JS (Embind's
// std::string conversion makes two copies, byte by byte). The size is checked before anything
// is allocated: past hlo::kMaxTextBytes the error names the size and the limit, where an
// allocation the heap cannot grant would abort the module.
Result<std::string> utf8_text(const val& text) {
  using R = Result<std::string>;
  // UTF-16 units: a string has at least as many UTF-8 bytes, as many when it is ASCII.
  const auto units = static_cast<std::size_t>(text["length"].as<double>());
  if (units > hlo::kMaxTextBytes) return R::failure(hlo::text_too_big(units, true));
  if (!memory::fits(units)) {
    return R::failure("the text is " + std::to_string(units) +
                      " bytes, more than the core's memory has room for now (" +
                      std::to_string(memory::in_use() >> 20) + " MiB of " +
                      std::to_string(memory::limit() >> 20) + " MiB in use)");
  }
  static const val encoder = val::global("TextEncoder").new_();
  std::string bytes(units, '\0');
  const val done =
      encoder.call<val>("encodeInto", text,
                        val(emscripten::typed_memory_view(
                            bytes.size(), reinterpret_cast<unsigned char*>(bytes.data()))));
  const auto read = static_cast<std::size_t>(done["read"].as<double>());
  auto written = static_cast<std::size_t>(done["written"].as<double>());
  if (read < units) {
    // Not ASCII: the rest's exact UTF-8 length first (encoded in JS memory), then its bytes.
    const val rest =
        encoder.call<val>("encode", text.call<val>("substring", static_cast<double>(read)));
    const auto more = static_cast<std::size_t>(rest["length"].as<double>());
    if (written + more > hlo::kMaxTextBytes)
      return R::failure(hlo::text_too_big(written + more, false));
    if (!memory::fits(more))
      return R::failure("the text is more than the core's memory has room for now");
    bytes.resize(written + more);
    val(emscripten::typed_memory_view(more,
                                      reinterpret_cast<unsigned char*>(bytes.data()) + written))
        .call<void>("set", rest);
    written += more;
  }
  bytes.resize(written);
  return R::success(std::move(bytes));
}

// Why JSON text past hlo::kMaxReportBytes is not handed over: "the analysis is N bytes of JSON,
// more than the M one JavaScript string can hold".
std::string too_big_for_a_string(const char* what, const std::string& json) {
  return std::string("the ") + what + " is " + std::to_string(json.size()) +
         " bytes of JSON, more than the " + std::to_string(hlo::kMaxReportBytes) +
         " one JavaScript string can hold";
}

// UTF-8 text (JSON) as a JS string, decoded where it lies by TextDecoder.
val js_string(const std::string& utf8) {
  static const val decoder = val::global("TextDecoder").new_();
  return decoder.call<val>("decode",
                           val(emscripten::typed_memory_view(
                               utf8.size(), reinterpret_cast<const unsigned char*>(utf8.data()))));
}

// The rows' number columns as JS typed arrays (copies the caller owns): [{name: Int32Array |
// Float64Array}], one object per module.
class JsColumns : public hlo::RowColumnSink {
 public:
  val modules = val::array();
  void column(std::size_t module, const char* name, const std::vector<double>& values) override {
    static const val float64 = val::global("Float64Array");
    of(module).set(name, float64.new_(emscripten::typed_memory_view(values.size(), values.data())));
  }
  void column(std::size_t module, const char* name,
              const std::vector<std::int32_t>& values) override {
    static const val int32 = val::global("Int32Array");
    of(module).set(name, int32.new_(emscripten::typed_memory_view(values.size(), values.data())));
  }

 private:
  // Modules come in order (to_json writes them so): the last one pushed is the one being filled.
  std::size_t count_ = 0;  // modules pushed
  val last_ = val::undefined();
  val& of(std::size_t module) {
    while (count_ <= module) {
      last_ = val::object();
      modules.call<void>("push", last_);
      ++count_;
    }
    return last_;
  }
};

// JAX-style Python → the StableHLO JAX prints for its jax.jit(f).lower(...) call (cpp/python):
// {ok: true, value: {text, function}} or the error with its line, column and message.
// options: {entry?: the function to lower} (undefined/null: the file's first .lower(...) call).
val js_lower(val source, val options) {
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  std::string entry;
  if (!options.isUndefined() && !options.isNull()) {
    const val e = options["entry"];
    if (!e.isUndefined() && !e.isNull()) {
      if (!e.isString()) return fail("entry must be a string, got " + e.typeOf().as<std::string>());
      entry = e.as<std::string>();
    }
  }
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  auto r = python::lower_source(bytes.value(), entry);
  if (!r) return fail_from(r);
  val out = val::object();
  out.set("text", r->text);
  out.set("function", r->function);
  return ok(out);
}

// A Python notebook run on the host values of cpp/python/notebook.h: {ok: true, value: {stdout,
// error, errorType, line}} (error: Python's traceback of the uncaught exception, "" when it ran to
// the end). options: {filename?: as the traceback names the file, maxSteps?: the step budget}.
// time.perf_counter() reads measure's clock.
val js_notebook(val source, val options) {
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  python::NotebookOptions o;
  if (!options.isUndefined() && !options.isNull()) {
    const val f = options["filename"];
    if (!f.isUndefined() && !f.isNull()) {
      if (!f.isString())
        return fail("filename must be a string, got " + f.typeOf().as<std::string>());
      o.filename = f.as<std::string>();
    }
    const val m = options["maxSteps"];
    if (!m.isUndefined() && !m.isNull()) {
      auto n = number_arg("maxSteps", m);
      if (!n) return fail_from(n);
      auto steps = python::max_steps_of(n.value());
      if (!steps) return fail_from(steps);
      o.max_steps = steps.value();
    }
  }
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  o.clock = [] { return measure::now_seconds(); };
  auto r = python::run_notebook(bytes.value(), o);
  val out = val::object();
  out.set("stdout", r.stdout_text);
  out.set("error", r.error);
  out.set("errorType", r.error_type);
  out.set("line", r.line);
  return ok(out);
}

// Notebook sessions (kernels) held by this wasm instance between calls, by handle: the page's
// Notebook view keeps one in its own Worker.
bindings::Handles<python::NotebookSession> g_sessions(
    "notebookSession returned and notebookRelease has not released");

// {maxSteps?} → {handle}: a fresh kernel; time.perf_counter() reads measure's clock.
val js_notebook_session(val options) {
  python::NotebookOptions o;
  if (!options.isUndefined() && !options.isNull()) {
    const val m = options["maxSteps"];
    if (!m.isUndefined() && !m.isNull()) {
      auto n = number_arg("maxSteps", m);
      if (!n) return fail_from(n);
      auto steps = python::max_steps_of(n.value());
      if (!steps) return fail_from(steps);
      o.max_steps = steps.value();
    }
  }
  o.clock = [] { return measure::now_seconds(); };
  val out = val::object();
  out.set("handle", g_sessions.add(std::make_unique<python::NotebookSession>(std::move(o))));
  return ok(out);
}

// (handle, source, cell) → {stdout, error, errorType, exception, line, column, file, sourceLine}:
// one cell run in the session's globals (python::NotebookSession::run_cell); cell numbers it
// ("<cell N>" in tracebacks).
val js_notebook_run_cell(val handle, val source, val cell) {
  auto s = handle_arg(g_sessions, handle);
  if (!s) return fail_from(s);
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  auto c = number_arg("cell", cell);
  if (!c) return fail_from(c);
  if (!(c.value() >= 1 && c.value() <= 1e6) || std::floor(c.value()) != c.value())
    return fail("cell must be an integer from 1 to 1000000, got " + format_number(c.value()));
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  const auto r = s.value()->run_cell(bytes.value(), int(c.value()));
  val out = val::object();
  out.set("stdout", r.stdout_text);
  out.set("error", r.error);
  out.set("errorType", r.error_type);
  out.set("exception", r.exception);
  out.set("line", r.line);
  out.set("column", r.column);
  out.set("file", r.file);
  out.set("sourceLine", r.source_line);
  out.set("cellsRun", s.value()->cells_run());
  return ok(out);
}

val js_notebook_reset(val handle) {
  auto s = handle_arg(g_sessions, handle);
  if (!s) return fail_from(s);
  s.value()->reset();
  return ok(val(true));
}

val js_notebook_release(val handle) {
  auto s = handle_arg(g_sessions, handle);
  if (!s) return fail_from(s);
  g_sessions.release(handle.as<double>());
  return ok(val(true));
}

// source → [{source, firstLine}]: a notebook split into cells (python::split_cells).
val js_notebook_cells(val source) {
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  val list = val::array();
  for (const auto& c : python::split_cells(bytes.value())) {
    val cell = val::object();
    cell.set("source", c.source);
    cell.set("firstLine", c.first_line);
    list.call<void>("push", cell);
  }
  return ok(list);
}

// Parses StableHLO or HLO text (dialect detected), verifies and costs every module in it: the
// core's report (hlo/report.h) as JSON text plus the rows' number columns as typed arrays,
// {json, columns}, put together by web/core.js. A parse error fails the whole text with its line
// and column; a module that fails to verify carries its error. The text and each module's
// analysis are freed as soon as they are written.
val js_analyze_text(val text) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  std::string json;
  JsColumns columns;
  {
    auto bytes = utf8_text(text);
    if (!bytes) return fail_from(bytes);
    auto report = hlo::analyze_text(std::move(bytes.value()));
    if (!report) return fail_from(report);
    auto written = hlo::to_json(std::move(report.value()), columns);
    if (!written) return fail_from(written);
    json = std::move(written.value());
  }
  if (json.size() > hlo::kMaxReportBytes) return fail(too_big_for_a_string("analysis", json));
  val out = val::object();
  out.set("json", js_string(json));
  out.set("columns", columns.modules);
  return ok(out);
}

// Room for a text of `size` bytes in the heap: none past the core's text limit or what its memory
// has room for now.
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

// Texts being filled in the heap (textBuffer) until tableStart takes them.
bindings::Handles<std::string> g_text_buffers("textBuffer returned and no tableStart took");

// Room in the heap for a text of `size` bytes, for a caller that reads a file straight into it
// (the CLI): {handle, bytes}, bytes a view of the room, valid until the next call into the core.
// tableStart({buffer: handle}) takes the text over; textBufferRelease drops one not taken. A file
// read this way is never a JavaScript object as well: 12 MB less for a 12 MB module.
val js_text_buffer(val size) {
  auto n = number_arg("size", size);
  if (!n) return fail_from(n);
  if (!(n.value() >= 0 && n.value() <= 9007199254740991.0) || n.value() != std::floor(n.value()))
    return fail("size must be a whole number of bytes, got " + format_number(n.value()));
  // Compared as a double: past 2^32 a size_t of wasm32 would wrap.
  if (n.value() > static_cast<double>(hlo::kMaxTextBytes))
    return fail("size must be at most " + std::to_string(hlo::kMaxTextBytes) +
                " bytes (the most text the core analyses at once), got " +
                format_number(n.value()));
  auto room = text_room(static_cast<std::size_t>(n.value()));
  if (!room) return fail_from(room);
  auto text = std::make_unique<std::string>(static_cast<std::size_t>(n.value()), '\0');
  unsigned char* data = reinterpret_cast<unsigned char*>(text->data());
  const std::size_t length = text->size();
  val out = val::object();
  out.set("handle", g_text_buffers.add(std::move(text)));
  out.set("bytes", val(emscripten::typed_memory_view(length, data)));
  return ok(out);
}

// Drops a text buffer no tableStart took; true.
val js_text_buffer_release(val handle) {
  auto h = number_arg("handle", handle);
  if (!h) return fail_from(h);
  g_text_buffers.release(h.value());
  return ok(val(true));
}

// The text to analyse as UTF-8 bytes: a string (encoded as utf8_text does), a Uint8Array of
// UTF-8 (a file's bytes, copied once into the heap: no JavaScript string of the text is made), or
// {buffer: handle}, a textBuffer's bytes, taken over (the handle ends).
Result<std::string> text_bytes(const val& text) {
  using R = Result<std::string>;
  if (text.isString()) return utf8_text(text);
  static const val uint8 = val::global("Uint8Array");
  if (!text.instanceof (uint8)) {
    if (text.typeOf().as<std::string>() == "object" && !text.isNull() &&
        text.hasOwnProperty("buffer")) {
      auto buffer = handle_arg(g_text_buffers, text["buffer"]);
      if (!buffer) return R::failure_from(buffer);
      std::string bytes = std::move(*buffer.value());
      g_text_buffers.release(text["buffer"].as<double>());
      return R::success(std::move(bytes));
    }
    return R::failure("text must be a string, a Uint8Array of UTF-8 or {buffer: handle}, got " +
                      text.typeOf().as<std::string>());
  }
  const auto size = static_cast<std::size_t>(text["length"].as<double>());
  auto room = text_room(size);
  if (!room) return R::failure_from(room);
  std::string bytes(size, '\0');
  val(emscripten::typed_memory_view(size, reinterpret_cast<unsigned char*>(bytes.data())))
      .call<void>("set", text);
  return R::success(std::move(bytes));
}

// Per-op tables being written (hlo/table.h), by handle, between tableStart and the tableNext
// that hands out their last lines.
bindings::Handles<hlo::OpTable> g_tables("tableStart returned whose lines are not all out");

// The text's analysis as the CLI's per-op table (hlo/table.h): analyses the text (a string or a
// Uint8Array of UTF-8) and returns {handle, dialect, rows, errors: [{module_name, error, message,
// line, column}]} (the modules that did not verify); the lines come from tableNext. A parse
// error fails the whole text with its line and column.
val js_table_start(val text) {
  std::unique_ptr<hlo::OpTable> table;
  {
    auto bytes = text_bytes(text);
    if (!bytes) return fail_from(bytes);
    // The table shows no operand's bytes: the rows leave them out (hlo/cost.h AnalyzeOptions).
    hlo::AnalyzeOptions lean;
    lean.operand_bytes = false;
    auto report = hlo::analyze_text(std::move(bytes.value()), lean);
    if (!report) return fail_from(report);
    table = std::make_unique<hlo::OpTable>(std::move(report.value()));
  }
  val errors = val::array();
  for (const auto& m : table->analysis().modules) {
    if (m.analysis) continue;
    const Error& e = m.analysis.error_info();
    val x = val::object();
    x.set("module_name", m.name);
    x.set("error", e.message);
    x.set("message", e.without_place());
    x.set("line", e.line);
    x.set("column", e.column);
    errors.call<void>("push", x);
  }
  val out = val::object();
  out.set("dialect", table->analysis().dialect);
  out.set("rows", static_cast<double>(table->rows()));
  out.set("errors", errors);
  out.set("handle", g_tables.add(std::move(table)));
  return ok(out);
}

// The table's next whole lines (about `bytes` bytes of UTF-8, or a line more) as a Uint8Array
// over the core's memory, valid until the next call into the core (write it out before that: no
// copy is made); an empty one once every line is out, and the table is then released.
std::string g_table_chunk;
val js_table_next(val handle, val bytes) {
  auto t = handle_arg(g_tables, handle);
  if (!t) return fail_from(t);
  auto n = number_arg("bytes", bytes);
  if (!n) return fail_from(n);
  if (!(n.value() >= 1 && n.value() <= (1 << 26)))
    return fail("bytes must be from 1 to 67108864, got " + format_number(n.value()));
  g_table_chunk.clear();
  g_table_chunk.reserve(static_cast<std::size_t>(n.value()) + 4096);
  if (!t.value()->next(g_table_chunk, static_cast<std::size_t>(n.value())) &&
      g_table_chunk.empty()) {
    g_tables.release(handle.as<double>());
    std::string().swap(g_table_chunk);
  }
  return ok(val(emscripten::typed_memory_view(
      g_table_chunk.size(), reinterpret_cast<const unsigned char*>(g_table_chunk.data()))));
}

// Releases a table whose lines are not all out (the caller stopped early); true.
val js_table_release(val handle) {
  auto h = number_arg("handle", handle);
  if (!h) return fail_from(h);
  g_tables.release(h.value());
  return ok(val(true));
}

// The fusion pass over StableHLO or HLO text (hlo/report.h fused_json): the fused module as HLO
// text, its fusions and the unfused and fused totals, as JSON text. options: {dot_epilogues:
// boolean} (default true; false: XLA CPU's output-fusion rule only).
val js_fuse_text(val text, val options) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  hlo::FuseOptions o;
  if (!options.isUndefined() && !options.isNull()) {
    if (options.typeOf().as<std::string>() != "object")
      return fail("options must be an object, got " + options.typeOf().as<std::string>());
    val e = options["dot_epilogues"];
    if (!e.isUndefined()) {
      if (e.typeOf().as<std::string>() != "boolean")
        return fail(
            Error{"dot_epilogues must be true or false, got " + e.typeOf().as<std::string>(),
                  "dot_epilogues", 0, 0});
      o.dot_epilogues = e.as<bool>();
    }
  }
  std::string json;
  {
    auto bytes = utf8_text(text);
    if (!bytes) return fail_from(bytes);
    auto r = hlo::fused_json(std::move(bytes.value()), o);
    if (!r) return fail_from(r);
    json = std::move(r.value());
  }
  if (json.size() > hlo::kMaxReportBytes) return fail(too_big_for_a_string("fused analysis", json));
  return ok(js_string(json));
}

// The wasm heap's size in bytes (it only grows: after a call, the call's peak) and its limit:
// {size, limit}, for the benchmarks.
val js_heap_bytes() {
  val out = val::object();
  out.set("size", static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0);
  out.set("limit", static_cast<double>(memory::limit()));
  return ok(out);
}

// The options of a run (js_run_text's): into `o` (report::default_run_options unless told); an
// {ok:false} value when one is refused, undefined otherwise. The rules on each are the core's
// (report/run_report.h). fuse (default true): fusions run as units, as XLA would compile the
// program; false: op by op. args: [{name, bytes: Uint8Array}], .npy files, one per argument of
// the entry.
val run_options(const val& options, interp::RunOptions& o) {
  o = report::default_run_options();
  if (!options.isUndefined() && !options.isNull()) {
    if (options.typeOf().as<std::string>() != "object")
      return fail("options must be an object, got " + options.typeOf().as<std::string>());
    val inputs = options["inputs"];
    if (!inputs.isUndefined()) {
      auto how = report::run_inputs(inputs.isString() ? inputs.as<std::string>() : std::string(),
                                    inputs.isString() ? "\"" + inputs.as<std::string>() + "\""
                                                      : inputs.typeOf().as<std::string>());
      if (!how) return fail_from(how);
      o.inputs = how.value();
    }
    for (const char* key : report::kRunNumberOptions) {
      val v = options[key];
      if (v.isUndefined()) continue;
      auto x = number_arg(key, v);
      if (!x) return fail(Error{x.error(), key, 0, 0});
      auto set = report::set_run_number(o, key, x.value());
      if (!set) return fail_from(set);
    }
    val t = options["time_ops"];
    if (!t.isUndefined()) {
      if (!t.isTrue() && !t.isFalse())
        return fail(Error{"time_ops must be true or false", "time_ops", 0, 0});
      o.time_ops = t.isTrue();
    }
    val fuse = options["fuse"];
    if (!fuse.isUndefined()) {
      if (!fuse.isTrue() && !fuse.isFalse())
        return fail(Error{"fuse must be true or false", "fuse", 0, 0});
      o.fuse = fuse.isTrue();
    }
    // on_progress(done, total): the entry's own ops run so far, at most every 0.1 s (the
    // page's Worker posts each call to its progress bar while the core runs).
    val progress = options["on_progress"];
    if (!progress.isUndefined()) {
      if (progress.typeOf().as<std::string>() != "function")
        return fail(
            Error{"on_progress must be a function, got " + progress.typeOf().as<std::string>(),
                  "on_progress", 0, 0});
      o.on_progress = [progress](std::size_t done, std::size_t total) {
        progress(double(done), double(total));
      };
    }
    val args = options["args"];
    if (!args.isUndefined()) {
      if (!inputs.isUndefined()) return fail(Error{"give inputs or args, not both", "args", 0, 0});
      if (!args.isArray())
        return fail(
            Error{"args must be an array of {name, bytes}, got " + type_name(args), "args", 0, 0});
      const auto n = args["length"].as<unsigned>();
      for (unsigned i = 0; i < n; ++i) {
        val a = args[i];
        const std::string at = "args[" + std::to_string(i) + "]";
        if (a.typeOf().as<std::string>() != "object" || a.isNull() || !a["name"].isString() ||
                !a["bytes"].instanceof
            (val::global("Uint8Array")))
          return fail(Error{at + " must be {name: string, bytes: Uint8Array}, got " + type_name(a),
                            "args", 0, 0});
        std::string bytes(a["bytes"]["length"].as<std::size_t>(), '\0');
        val(emscripten::typed_memory_view(bytes.size(),
                                          reinterpret_cast<unsigned char*>(&bytes[0])))
            .call<void>("set", a["bytes"]);
        auto array = interp::read_npy(bytes, a["name"].as<std::string>());
        if (!array) return fail(Error{array.error(), "args", 0, 0});
        o.args.push_back(std::move(array.value()));
      }
      o.inputs = interp::Inputs::Given;
    }
  }
  return val::undefined();
}

// Runs StableHLO text in the interpreter (report/run_report.h): options {inputs: "none" | "seeded"
// | "arange", args, seed, time_ops, memory_cap, max_iterations, time_budget_seconds,
// timing_budget_seconds, on_progress}, all optional (see run_options). The value is JSON text; it
// says how the run went (passed, failed, not_run, error) rather than failing.
val js_run_text(val text, val options) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  interp::RunOptions o;
  if (val refused = run_options(options, o); !refused.isUndefined()) return refused;
  return ok(val(report::run_text_json(text.as<std::string>(), o)));
}

// js_run_text, and the results as .npy files: {report: JSON text, files: [{name, bytes: Uint8Array}
// | {name, error}]} (result_N.npy; report/run_report.h).
val js_run_text_npy(val text, val options) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  interp::RunOptions o;
  if (val refused = run_options(options, o); !refused.isUndefined()) return refused;
  std::vector<report::ResultFile> files;
  val out = val::object();
  out.set("report", val(report::run_text_json(text.as<std::string>(), o, &files)));
  val list = val::array();
  for (const auto& f : files) {
    val file = val::object();
    file.set("name", f.name);
    if (f.error.empty())
      file.set("bytes",
               val::global("Uint8Array")
                   .new_(emscripten::typed_memory_view(
                       f.bytes.size(), reinterpret_cast<const unsigned char*>(f.bytes.data()))));
    else
      file.set("error", f.error);
    list.call<void>("push", file);
  }
  out.set("files", list);
  return ok(out);
}

// ---- exercises ----------------------------------------------------------------------------

Result<std::vector<std::string>> strings_arg(const char* name, const val& v) {
  using R = Result<std::vector<std::string>>;
  if (v.isUndefined() || v.isNull()) return R::success({});
  if (!v.isArray())
    return R::failure(std::string(name) + " must be an array of strings, got " +
                      v.typeOf().as<std::string>());
  std::vector<std::string> out;
  const unsigned length = v["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    if (!v[i].isString()) {
      return R::failure(std::string(name) + "[" + std::to_string(i) + "] must be a string, got " +
                        v[i].typeOf().as<std::string>());
    }
    out.push_back(v[i].as<std::string>());
  }
  return R::success(out);
}

Result<std::vector<exercises::Exercise>> exercises_arg(const val& seed, const val& count,
                                                       const val& families) {
  using R = Result<std::vector<exercises::Exercise>>;
  if (!seed.isString())
    return R::failure("seed must be a string, got " + seed.typeOf().as<std::string>());
  auto c = number_arg("count", count);
  if (!c) return R::failure_from(c);
  if (!(c.value() >= 1 && c.value() <= 100 && c.value() == std::floor(c.value()))) {
    return R::failure("count must be an integer from 1 to 100, got " + format_number(c.value()));
  }
  auto f = strings_arg("families", families);
  if (!f) return R::failure_from(f);
  return exercises::generate(seed.as<std::string>(), int(c.value()), f.value());
}

// (seed, count, families?) → the exercises with their answers, hints and solutions, as JSON text.
val js_generate_exercises(val seed, val count, val families) {
  auto set = exercises_arg(seed, count, families);
  if (!set) return fail_from(set);
  return ok(val(exercises::exercises_json(set.value())));
}

// (seed, count, families?, index, questionId, answer) → {correct, feedback}: the exercise is
// generated again from the seed, so the page keeps no answer key of its own.
val js_check_answer(val seed, val count, val families, val index, val question_id, val answer) {
  auto set = exercises_arg(seed, count, families);
  if (!set) return fail_from(set);
  auto i = number_arg("index", index);
  if (!i) return fail_from(i);
  if (!(i.value() >= 0 && i.value() < double(set->size()) && i.value() == std::floor(i.value()))) {
    return fail("index must be an integer from 0 to " + std::to_string(set->size() - 1) + ", got " +
                format_number(i.value()));
  }
  if (!question_id.isString())
    return fail("question must be a string, got " + question_id.typeOf().as<std::string>());
  if (!answer.isString())
    return fail("answer must be a string, got " + answer.typeOf().as<std::string>());
  const auto& e = set.value()[std::size_t(i.value())];
  const std::string id = question_id.as<std::string>();
  for (const auto& q : e.questions) {
    if (q.id != id) continue;
    return ok(val(report::verdict_json(exercises::check(q, answer.as<std::string>()))));
  }
  return fail("question must be one of the exercise's questions, got \"" + id + "\"");
}

// (question, answer) → {correct, feedback} for a question built in JS (the seed's fixed
// exercise): {kind: "number"|"choice"|"set", unit, value, exact, rel_tolerance, set?,
// mistakes?: [{value, feedback}], hints?: [..]}. The same checker as generated exercises.
val js_check_question(val question, val answer) {
  if (question.isNull() || question.typeOf().as<std::string>() != "object") {
    return fail("question must be an object, got " +
                (question.isNull() ? std::string("null") : question.typeOf().as<std::string>()));
  }
  if (!answer.isString())
    return fail("answer must be a string, got " + answer.typeOf().as<std::string>());
  exercises::Question q;
  auto text = [&](const char* key) {
    val v = question[key];
    return v.isString() ? v.as<std::string>() : std::string();
  };
  q.kind = text("kind");
  if (q.kind != "number" && q.kind != "choice" && q.kind != "set") {
    return fail("question.kind must be one of number, choice, set, got \"" + q.kind + "\"");
  }
  q.unit = text("unit");
  q.exact = text("exact");
  if (q.kind == "number") {
    auto v = number_arg("question.value", question["value"]);
    if (!v) return fail_from(v);
    q.value = v.value();
    if (!question["rel_tolerance"].isUndefined()) {
      auto r = number_arg("question.rel_tolerance", question["rel_tolerance"]);
      if (!r) return fail_from(r);
      q.rel_tolerance = r.value();
    }
    if (!question["mistakes"].isUndefined()) {
      val ms = question["mistakes"];
      if (!ms.isArray()) return fail("question.mistakes must be an array");
      const unsigned length = ms["length"].as<unsigned>();
      for (unsigned i = 0; i < length; ++i) {
        auto mv = number_arg("question.mistakes[].value", ms[i]["value"]);
        if (!mv) return fail_from(mv);
        q.mistakes.push_back({mv.value(), ms[i]["feedback"].isString()
                                              ? ms[i]["feedback"].as<std::string>()
                                              : std::string()});
      }
    }
  } else if (q.kind == "choice") {
    auto choices = strings_arg("question.choices", question["choices"]);
    if (!choices) return fail_from(choices);
    q.choices = choices.value();
  } else if (q.kind == "set") {
    auto xs = numbers_arg("question.set", question["set"]);
    if (!xs) return fail_from(xs);
    q.set = xs.value();
    std::sort(q.set.begin(), q.set.end());
  }
  auto hints = strings_arg("question.hints", question["hints"]);
  if (!hints) return fail_from(hints);
  q.hints = hints.value();
  return ok(val(report::verdict_json(exercises::check(q, answer.as<std::string>()))));
}

// (files: [{name, text, size?}], set?: {seed, count, families?}) → the class table as JSON text
// (GradebookTable): every file's answers regraded here from its seed and student; a file that
// cannot be graded is listed with its reason. `size` is the file's size in bytes when `text`
// holds only its start (the page does not read a file far over the limit).
val js_gradebook(val files, val set) {
  if (!files.isArray())
    return fail("files must be an array of {name, text}, got " + files.typeOf().as<std::string>());
  std::vector<exercises::ResultFile> in;
  const unsigned length = files["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    const val f = files[i];
    const std::string where = "files[" + std::to_string(i) + "]";
    if (f.isNull() || f.typeOf().as<std::string>() != "object")
      return fail(where + " must be {name, text}");
    if (!f["name"].isString())
      return fail(where + ".name must be a string, got " + f["name"].typeOf().as<std::string>());
    if (!f["text"].isString())
      return fail(where + ".text must be a string, got " + f["text"].typeOf().as<std::string>());
    exercises::ResultFile r{f["name"].as<std::string>(), f["text"].as<std::string>(), -1};
    if (!f["size"].isUndefined() && !f["size"].isNull()) {
      auto size = number_arg((where + ".size").c_str(), f["size"]);
      if (!size) return fail_from(size);
      r.bytes = size.value();
    }
    in.push_back(std::move(r));
  }
  std::optional<exercises::SetSpec> expected;
  if (!set.isUndefined() && !set.isNull()) {
    if (set.typeOf().as<std::string>() != "object")
      return fail("set must be {seed, count, families?}, got " + set.typeOf().as<std::string>());
    auto made =
        exercises_arg(set["seed"], set["count"], set["families"]);  // refuses what generate refuses
    if (!made) return fail("set: " + made.error());
    auto families = strings_arg("set.families", set["families"]);
    expected = exercises::SetSpec{set["seed"].as<std::string>(), int(set["count"].as<double>()),
                                  families.value()};
  }
  auto table = exercises::gradebook_json(in, expected);
  if (!table) return fail_from(table);
  return ok(val(table.value()));
}

// (seed, count, families?) → the set as Moodle XML text (cpp/exercises/moodle.h).
val js_moodle_xml(val seed, val count, val families) {
  auto set =
      exercises_arg(seed, count, families);  // the arguments' types and rules, as generateExercises
  if (!set) return fail_from(set);
  auto f = strings_arg("families", families);
  auto text = exercises::moodle_xml(seed.as<std::string>(), int(count.as<double>()), f.value());
  if (!text) return fail_from(text);
  return ok(val(text.value()));
}

// ---- the lesson report: the seed's steps composed by the core in one call ---------------------

// Reads {m, k, n, dtype, itemsize, peak, bandwidth, traffic_factor, sizes}: an absent or
// undefined key takes the seed's value; an empty or null dtype follows the itemsize.
Result<report::Params> lesson_params_arg(const val& v, std::string* input) {
  using R = Result<report::Params>;
  report::Params p;
  if (v.isUndefined() || v.isNull()) return R::success(p);
  if (v.typeOf().as<std::string>() != "object" || v.isArray()) {
    *input = "params";
    return R::failure("params must be an object, got " + v.typeOf().as<std::string>());
  }
  const val keys = val::global("Object").call<val>("keys", v);
  const unsigned length = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val x = v[key];
    if (x.isUndefined()) continue;
    *input = key;
    if (key == "dtype") {
      if (x.isNull() || (x.isString() && x.as<std::string>().empty())) continue;
      if (!x.isString())
        return R::failure("dtype must be a string, got " + x.typeOf().as<std::string>());
      p.dtype = x.as<std::string>();
    } else if (key == "sizes") {
      auto xs = numbers_arg("sizes", x);
      if (!xs) return R::failure_from(xs);
      p.sizes = xs.value();
    } else {
      auto field = report::number_input(key);
      if (!field) return R::failure_from(field);
      auto number = number_arg(field->shown, x);
      if (!number) return R::failure_from(number);
      p.*(field->field) = number.value();
    }
  }
  input->clear();
  return R::success(p);
}

// Reads {level: GB/s, …} (`name` as the messages call it) in its keys' order.
Result<std::vector<std::pair<std::string, double>>> levels_arg(const std::string& name,
                                                               const val& levels) {
  using R = Result<std::vector<std::pair<std::string, double>>>;
  if (levels.isUndefined() || levels.isNull() || levels.typeOf().as<std::string>() != "object") {
    return R::failure(name + " must be an object of GB/s by level");
  }
  std::vector<std::pair<std::string, double>> out;
  const val keys = val::global("Object").call<val>("keys", levels);
  for (unsigned i = 0; i < keys["length"].as<unsigned>(); ++i) {
    const std::string level = keys[i].as<std::string>();
    auto gbs = number_arg((name + "." + level).c_str(), levels[level]);
    if (!gbs) return R::failure_from(gbs);
    out.push_back({level, gbs.value()});
  }
  return R::success(out);
}

// Reads {measured?: {gflops, bandwidth_gbs: {level: GB/s, …}, point: {m, k, n, gflops},
// other_cores?: [{cores, gflops, bandwidth_gbs}], kernels?: [{m, k, n, cores, gflops}]},
// answers?: {questionId: text, …}}.
Result<report::Extras> lesson_extras_arg(const val& v, std::string* input) {
  using R = Result<report::Extras>;
  report::Extras e;
  if (v.isUndefined() || v.isNull()) return R::success(e);
  const val measured = v["measured"];
  if (!measured.isUndefined() && !measured.isNull()) {
    *input = "measurements";
    report::Measured m;
    auto gflops = number_arg("measured.gflops", measured["gflops"]);
    if (!gflops) return R::failure_from(gflops);
    m.gflops = gflops.value();
    auto levels = levels_arg("measured.bandwidth_gbs", measured["bandwidth_gbs"]);
    if (!levels) return R::failure_from(levels);
    m.bandwidth_gbs = levels.value();
    const val point = measured["point"];
    if (point.isUndefined() || point.isNull())
      return R::failure("measured.point must be {m, k, n, gflops}");
    const std::pair<const char*, double*> fields[] = {
        {"m", &m.m}, {"k", &m.k}, {"n", &m.n}, {"gflops", &m.point_gflops}};
    for (const auto& [name, out] : fields) {
      auto x = number_arg((std::string("measured.point.") + name).c_str(), point[name]);
      if (!x) return R::failure_from(x);
      *out = x.value();
    }
    const val others = measured["other_cores"];
    if (!others.isUndefined() && !others.isNull()) {
      if (!others.isArray())
        return R::failure(
            "measured.other_cores must be an array of {cores, gflops, bandwidth_gbs}");
      for (unsigned i = 0; i < others["length"].as<unsigned>(); ++i) {
        const std::string at = "measured.other_cores[" + std::to_string(i) + "]";
        const val one = others[i];
        if (one.isUndefined() || one.isNull() || one.typeOf().as<std::string>() != "object") {
          return R::failure(at + " must be {cores, gflops, bandwidth_gbs}");
        }
        report::MeasuredCeilings c;
        auto cores = cores_arg(at + ".cores", one["cores"]);
        if (!cores) return R::failure_from(cores);
        c.cores = cores.value();
        auto g = number_arg((at + ".gflops").c_str(), one["gflops"]);
        if (!g) return R::failure_from(g);
        c.gflops = g.value();
        auto l = levels_arg(at + ".bandwidth_gbs", one["bandwidth_gbs"]);
        if (!l) return R::failure_from(l);
        c.bandwidth_gbs = l.value();
        m.other_cores.push_back(c);
      }
    }
    const val kernels = measured["kernels"];
    if (!kernels.isUndefined() && !kernels.isNull()) {
      if (!kernels.isArray())
        return R::failure("measured.kernels must be an array of {m, k, n, cores, gflops}");
      for (unsigned i = 0; i < kernels["length"].as<unsigned>(); ++i) {
        const std::string at = "measured.kernels[" + std::to_string(i) + "]";
        const val one = kernels[i];
        if (one.isUndefined() || one.isNull() || one.typeOf().as<std::string>() != "object") {
          return R::failure(at + " must be {m, k, n, cores, gflops}");
        }
        report::MeasuredKernel t;
        const std::pair<const char*, double*> dims[] = {
            {"m", &t.m}, {"k", &t.k}, {"n", &t.n}, {"gflops", &t.gflops}};
        for (const auto& [name, out] : dims) {
          auto x = number_arg((at + "." + name).c_str(), one[name]);
          if (!x) return R::failure_from(x);
          *out = x.value();
        }
        auto cores = cores_arg(at + ".cores", one["cores"]);
        if (!cores) return R::failure_from(cores);
        t.cores = cores.value();
        m.kernels.push_back(t);
      }
    }
    e.measured = m;
  }
  const val answers = v["answers"];
  if (!answers.isUndefined() && !answers.isNull()) {
    *input = "answers";
    if (answers.typeOf().as<std::string>() != "object")
      return R::failure("answers must be an object of text by question");
    const val keys = val::global("Object").call<val>("keys", answers);
    for (unsigned i = 0; i < keys["length"].as<unsigned>(); ++i) {
      const std::string id = keys[i].as<std::string>();
      const val text = answers[id];
      if (text.isUndefined() || text.isNull()) continue;
      if (!text.isString())
        return R::failure("answers." + id + " must be a string, got " +
                          text.typeOf().as<std::string>());
      e.answers.push_back({id, text.as<std::string>()});
    }
  }
  input->clear();
  return R::success(e);
}

// {ok: false, input, error, errors: [{input, error}]}: the first refused input and every one.
val fail_inputs(const std::vector<report::Refusal>& refused) {
  val out = fail(refused.front().error);
  out.set("input", refused.front().input);  // even "" (an unknown key "")
  val list = val::array();
  for (const auto& r : refused) {
    val one = val::object();
    one.set("input", r.input);
    one.set("error", r.error);
    list.call<void>("push", one);
  }
  out.set("errors", list);
  return out;
}

// (params?, extras?) → the lesson's report as JSON text (web/core.js parses it), or
// {ok: false, input, error, errors} naming the first refused input and every refused input
// (report::check_inputs: each field by its own rule, so a form can mark them all at once).
val js_lesson_report(val params, val extras) {
  std::string input;
  auto p = lesson_params_arg(params, &input);
  if (!p) return fail_inputs({{input, p.error()}});
  auto e = lesson_extras_arg(extras, &input);
  if (!e) return fail_inputs({{input, e.error()}});
  auto built = report::build(p.value(), e.value());
  if (!built.ok()) return fail_inputs(built.refused);
  return ok(val(report::report_json(built.report)));
}

// () → [{id, label}]: the exercise families in turn order, the one list the page, the CLI and the
// tests read.
val js_exercise_families() { return ok(val(report::exercise_families_json())); }

// ---- a program under roofs (the analyze view) -------------------------------------------------

// ({roofs: [{peak GFLOP/s, bandwidth GB/s, interconnect GB/s | null}], flops: number[],
//   bytes: number[], totals: {flops, bytes_accessed, collective_bytes}, range: [xmin, xmax]})
// → {roofs: JSON text of [{ridge, curve: [{x, y}], time}], program: JSON text of {x, y} | null,
//    bound_names: the names of the bound codes, bounds: Uint8Array, ceilings: Float64Array}:
// every roof's ridge, its curve over the range and the program's lower bound on time; under the
// first roof, each op's bound (0: none, i: bound_names[i − 1]) and ceiling (GFLOP/s, NaN: none).
// With measured times (seconds: per op, NaN where not measured; measured_seconds: the program's
// total), also under the first roof what each measured op achieved (model::achieved: gflops, gbs,
// of_roof: Float64Arrays, NaN where not measured or no bound) and measured: JSON text of {seconds,
// gflops, gbs, bound_seconds, of_roof, over_bound} | null for the program.
// The per-op columns cross as typed arrays the caller owns (a big program has 10^5 ops: printing
// them as JSON would cost more than computing them); web/core.js turns them into plain arrays.
val js_roofline(val request) {
  if (request.isNull() || request.typeOf().as<std::string>() != "object") {
    return fail("request must be an object, got " +
                (request.isNull() ? std::string("null") : request.typeOf().as<std::string>()));
  }
  const val roofs_in = request["roofs"];
  if (!roofs_in.isArray() || roofs_in["length"].as<unsigned>() == 0)
    return fail_from(report::program_roofline({}));  // its rule: a non-empty array of roofs
  std::vector<Budgets> roofs;
  std::vector<double> interconnects;
  for (unsigned i = 0; i < roofs_in["length"].as<unsigned>(); ++i) {
    const val roof = roofs_in[i];
    auto peak = number_arg("roof.peak", roof["peak"]);
    if (!peak) return fail_from(peak);
    auto bandwidth = number_arg("roof.bandwidth", roof["bandwidth"]);
    if (!bandwidth) return fail_from(bandwidth);
    auto budgets = report::roof_budgets(i, peak.value(), bandwidth.value());
    if (!budgets) return fail_from(budgets);
    roofs.push_back(budgets.value());
    double interconnect = 0;
    if (!roof["interconnect"].isUndefined() && !roof["interconnect"].isNull()) {
      auto x = number_arg("roof.interconnect", roof["interconnect"]);
      if (!x) return fail_from(x);
      interconnect = x.value();
    }
    interconnects.push_back(interconnect);
  }
  // Typed or plain arrays of numbers, copied in one go.
  auto column = [](const char* name, const val& v) -> Result<std::vector<double>> {
    if (v.isUndefined() || v.isNull()) return Result<std::vector<double>>::success({});
    if (!v.isArray() && !v.instanceof (val::global("Float64Array"))) {
      return Result<std::vector<double>>::failure(std::string(name) +
                                                  " must be an array of numbers");
    }
    return Result<std::vector<double>>::success(
        emscripten::convertJSArrayToNumberVector<double>(v));
  };
  auto flops = column("flops", request["flops"]);
  if (!flops) return fail_from(flops);
  auto bytes = column("bytes", request["bytes"]);
  if (!bytes) return fail_from(bytes);
  const val totals = request["totals"];
  double t_flops = 0, t_bytes = 0, t_collective = 0;
  if (!totals.isUndefined() && !totals.isNull()) {
    const std::pair<const char*, double*> fields[] = {
        {"flops", &t_flops}, {"bytes_accessed", &t_bytes}, {"collective_bytes", &t_collective}};
    for (const auto& [name, out] : fields) {
      if (totals[name].isUndefined() || totals[name].isNull()) continue;
      auto x = number_arg((std::string("totals.") + name).c_str(), totals[name]);
      if (!x) return fail_from(x);
      *out = x.value();
    }
  }
  auto range = numbers_arg("range", request["range"]);
  if (!range) return fail_from(range);
  if (range->size() != 2) return fail("range must be [xmin, xmax]");
  // Measured times (a run in this machine's interpreter), per op (NaN: not measured) and the
  // program's total: optional.
  auto seconds = column("seconds", request["seconds"]);
  if (!seconds) return fail_from(seconds);
  report::RooflineRequest q;
  q.roofs = std::move(roofs);
  q.interconnects = std::move(interconnects);
  q.flops = std::move(flops.value());
  q.bytes = std::move(bytes.value());
  q.seconds = std::move(seconds.value());
  q.total_flops = t_flops, q.total_bytes = t_bytes, q.total_collective_bytes = t_collective;
  q.xmin = range.value()[0], q.xmax = range.value()[1];
  if (!request["measured_seconds"].isUndefined() && !request["measured_seconds"].isNull()) {
    auto x = number_arg("measured_seconds", request["measured_seconds"]);
    if (!x) return fail_from(x);
    q.measured_seconds = x.value();
  }
  auto r = report::program_roofline(q);
  if (!r) return fail_from(r);
  val names = val::array();
  for (Bound b : report::kBoundCodes) names.call<void>("push", std::string(bound_name(b)));
  // JS-owned copies: the vectors are freed when this returns.
  const auto copy = [](const char* type, const auto& xs) {
    return val::global(type).new_(val(emscripten::typed_memory_view(xs.size(), xs.data())));
  };
  val out = val::object();
  out.set("roofs", r->roofs_json);
  out.set("program", r->program_json);
  out.set("bound_names", names);
  out.set("bounds", copy("Uint8Array", r->bounds));
  out.set("ceilings", copy("Float64Array", r->ceilings));
  out.set("measured", r->measured_json);
  if (!q.seconds.empty()) {
    out.set("gflops", copy("Float64Array", r->gflops));
    out.set("gbs", copy("Float64Array", r->gbs));
    out.set("of_roof", copy("Float64Array", r->of_roof));
  }
  return ok(out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(roofline_core) {
  emscripten::function("contract", &js_contract);
  emscripten::function("contractShapes", &js_contract_shapes);
  emscripten::function("ceilings", &js_ceilings);
  emscripten::function("trafficExperiment", &js_traffic_experiment);
  emscripten::function("figure", &js_figure);
  emscripten::function("lessonDefaults", &js_lesson_defaults);
  emscripten::function("kernelVariants", &js_kernel_variants);
  emscripten::function("checkLessonKernel", &js_check_lesson_kernel);
  emscripten::function("checkLessonIr", &js_check_lesson_ir);
  emscripten::function("timeKernel", &js_time_kernel);
  emscripten::function("samplerStart", &js_sampler_start);
  emscripten::function("samplerRecord", &js_sampler_record);
  emscripten::function("measureCompute", &js_measure_compute);
  emscripten::function("measureBandwidth", &js_measure_bandwidth);
  emscripten::function("measureTraffic", &js_measure_traffic);
  emscripten::function("uniformFloats", &js_uniform_floats);
  emscripten::function("packB", &js_pack_b);
  emscripten::function("runKernel", &js_run_kernel);
  emscripten::function("createWork", &js_create_work);
  emscripten::function("runWork", &js_run_work);
  emscripten::function("workOutput", &js_work_output);
  emscripten::function("releaseWork", &js_release_work);
  emscripten::function("emitWorkload", &js_emit_workload);
  emscripten::function("analyzeText", &js_analyze_text);
  emscripten::function("textBuffer", &js_text_buffer);
  emscripten::function("textBufferRelease", &js_text_buffer_release);
  emscripten::function("tableStart", &js_table_start);
  emscripten::function("tableNext", &js_table_next);
  emscripten::function("tableRelease", &js_table_release);
  emscripten::function("fuseText", &js_fuse_text);
  emscripten::function("lower", &js_lower);
  emscripten::function("notebook", &js_notebook);
  emscripten::function("notebookSession", &js_notebook_session);
  emscripten::function("notebookRunCell", &js_notebook_run_cell);
  emscripten::function("notebookReset", &js_notebook_reset);
  emscripten::function("notebookRelease", &js_notebook_release);
  emscripten::function("notebookCells", &js_notebook_cells);
  emscripten::function("heapBytes", &js_heap_bytes);
  emscripten::function("runText", &js_run_text);
  emscripten::function("runTextNpy", &js_run_text_npy);
  emscripten::function("exampleModules", &js_example_modules);
  emscripten::function("generateExercises", &js_generate_exercises);
  emscripten::function("checkAnswer", &js_check_answer);
  emscripten::function("checkQuestion", &js_check_question);
  emscripten::function("lessonReport", &js_lesson_report);
  emscripten::function("exerciseFamilies", &js_exercise_families);
  emscripten::function("gradebook", &js_gradebook);
  emscripten::function("moodleXml", &js_moodle_xml);
  emscripten::function("roofline", &js_roofline);
}
