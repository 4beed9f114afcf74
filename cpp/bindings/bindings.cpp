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
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "common/memory.h"
#include "exercises/exercises.h"
#include "hlo/emit.h"
#include "hlo/report.h"
#include "kernels/kernels.h"
#include "measure/ceilings.h"
#include "measure/harness.h"
#include "model/model.h"

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
val fail_from(const Result<T>& r) { return fail(r.error_info()); }

// A number argument: refuses strings, undefined, objects, with the argument's name. Rules
// about the number itself (positive, integer, finite) stay in the model.
Result<double> number_arg(const char* name, const val& v) {
  if (v.isNumber()) return Result<double>::success(v.as<double>());
  std::string got = v.isString() ? "the string \"" + v.as<std::string>() + "\""
                                 : v.typeOf().as<std::string>();
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

void set_count(val& obj, const char* key, Count count) {
  obj.set(key, static_cast<double>(count));
  obj.set(std::string(key) + "_exact", to_decimal(count));
}

val contraction_value(const Contraction& c) {
  val out = val::object();
  out.set("m", static_cast<double>(c.m));
  out.set("k", static_cast<double>(c.k));
  out.set("n", static_cast<double>(c.n));
  out.set("itemsize", static_cast<double>(c.itemsize));
  set_count(out, "flops", c.flops);
  set_count(out, "minimum_bytes", c.minimum_bytes);
  out.set("intensity", c.intensity);
  out.set("intensity_fraction", c.intensity_fraction);
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
  return c ? ok(contraction_value(c.value())) : fail_from(c);
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
  return c ? ok(contraction_value(c.value())) : fail_from(c);
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

val js_lesson_defaults() {
  val out = val::object();
  out.set("m", static_cast<double>(lesson::kM));
  out.set("k", static_cast<double>(lesson::kK));
  out.set("n", static_cast<double>(lesson::kN));
  out.set("itemsize", static_cast<double>(lesson::kItemsize));
  out.set("peak", lesson::kPeakGflops);
  out.set("bandwidth", lesson::kBandwidthGbs);
  out.set("traffic_factor", lesson::kTrafficFactor);
  std::vector<double> sizes(lesson::square_sizes().begin(), lesson::square_sizes().end());
  out.set("sizes", array_of(sizes));
  val exercise = val::object();
  exercise.set("a", array_of(std::vector<double>{double(lesson::kExerciseA[0]), double(lesson::kExerciseA[1])}));
  exercise.set("b", array_of(std::vector<double>{double(lesson::kExerciseB[0]), double(lesson::kExerciseB[1])}));
  out.set("exercise", exercise);
  out.set("max_budget", kMaxBudget);
  return ok(out);
}

// ---- kernels and measurements ---------------------------------------------------------------

// The variant named by `name`, or the fastest fused tanh(A·B) variant when it is undefined.
Result<const kernels::MatmulVariant*> variant_arg(const val& name) {
  if (name.isUndefined() || name.isNull()) {
    return Result<const kernels::MatmulVariant*>::success(&kernels::best_matmul(true));
  }
  if (!name.isString()) {
    return Result<const kernels::MatmulVariant*>::failure(
        "variant must be a string, got " + name.typeOf().as<std::string>());
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

val js_kernel_variants() {
  val out = val::array();
  for (const auto& v : kernels::matmul_variants()) {
    val one = val::object();
    one.set("name", std::string(v.name));
    one.set("isa", std::string(v.isa));
    one.set("mr", v.mr);
    one.set("nr", v.nr);
    one.set("fused_tanh", v.fused_tanh);
    out.call<void>("push", one);
  }
  return ok(out);
}

// Runs a variant on the lesson's inputs (a = arange(512)/512 as 32×16, b = arange(128)/128 as
// 16×8) and checks it against the double reference at |x − y| ≤ 2e-5 + 2e-5·|y|.
val js_check_lesson_kernel(val variant) {
  auto v = variant_arg(variant);
  if (!v) return fail_from(v);
  auto buffers = kernels::allocate_matmul(kernels::check_matmul_shape(32, 16, 8).value());
  if (!buffers) return fail_from(buffers);
  kernels::fill_lesson_inputs(buffers.value());
  auto check = kernels::check_matmul(*v.value(), buffers.value());
  if (!check) return fail_from(check);
  val out = val::object();
  out.set("variant", std::string(v.value()->name));
  out.set("max_abs_error", check->max_abs_error);
  out.set("passed", check->passed);
  out.set("worst_ratio", check->worst_ratio);
  out.set("worst_index", static_cast<double>(check->worst_index));
  out.set("worst_value", check->worst_value);
  out.set("worst_reference", check->worst_reference);
  out.set("atol", kernels::kLessonAtol);
  out.set("rtol", kernels::kLessonRtol);
  return ok(out);
}

// One warm run, then `samples` samples of R calls each (R calibrated to the timer), all in
// wasm. Inputs: the lesson's for 32×16×8, uniform random otherwise.
val js_time_kernel(val variant, val m, val k, val n, val samples, val min_sample_seconds) {
  auto v = variant_arg(variant);
  if (!v) return fail_from(v);
  auto shape = shape_arg(m, k, n);
  if (!shape) return fail_from(shape);
  auto count = number_arg("samples", samples);
  if (!count) return fail_from(count);
  if (!(count.value() >= 1 && count.value() <= 1000 && count.value() == int(count.value()))) {
    return fail("samples must be an integer from 1 to 1000, got " + format_number(count.value()));
  }
  double min_seconds = 0;
  if (!min_sample_seconds.isUndefined()) {
    auto ms = number_arg("min_sample_seconds", min_sample_seconds);
    if (!ms) return fail_from(ms);
    if (!(ms.value() >= 0 && ms.value() <= 10)) {
      return fail("min_sample_seconds must be from 0 to 10, got " + format_number(ms.value()));
    }
    min_seconds = ms.value();
  }
  auto buffers = kernels::allocate_matmul(shape.value());
  if (!buffers) return fail_from(buffers);
  auto& b = buffers.value();
  if (shape->m == 32 && shape->k == 16 && shape->n == 8) {
    kernels::fill_lesson_inputs(b);
  } else {
    kernels::fill_uniform(b.a.data(), b.a.size(), 1);
    kernels::fill_uniform(b.b.data(), b.b.size(), 2);
  }
  auto t = measure::time_matmul(*v.value(), b, int(count.value()), min_seconds);
  if (!t) return fail_from(t);
  val out = val::object();
  out.set("variant", std::string(v.value()->name));
  out.set("m", double(shape->m));
  out.set("k", double(shape->k));
  out.set("n", double(shape->n));
  out.set("seconds_per_call", array_of(t->seconds_per_call));
  out.set("median", t->median);
  out.set("min", t->min);
  out.set("max", t->max);
  out.set("repeats", double(t->repeats));
  out.set("timer_resolution", t->timer_resolution);
  out.set("warm_seconds", t->warm_seconds);
  out.set("gflops_median", 2.0 * double(shape->m) * double(shape->k) * double(shape->n) / t->median / 1e9);
  return ok(out);
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
  if (!level.isString()) return fail("level must be a string, got " + level.typeOf().as<std::string>());
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

// ---- HLO: emit, parse, verify, cost ---------------------------------------------------------

val js_emit_workload(val m, val k, val n, val dtype) {
  auto mm = number_arg("m", m);
  if (!mm) return fail_from(mm);
  auto kk = number_arg("k", k);
  if (!kk) return fail_from(kk);
  auto nn = number_arg("n", n);
  if (!nn) return fail_from(nn);
  if (!dtype.isString()) return fail("dtype must be a string, got " + dtype.typeOf().as<std::string>());
  auto text = hlo::emit_workload(mm.value(), kk.value(), nn.value(), dtype.as<std::string>());
  return text ? ok(val(text.value())) : fail_from(text);
}

// The analyze view's bundled examples, generated by the core: [{name, title, text}].
val js_example_modules() {
  val out = val::array();
  for (const auto& e : hlo::examples()) {
    val one = val::object();
    one.set("name", e.name);
    one.set("title", e.title);
    one.set("text", e.text);
    out.call<void>("push", one);
  }
  return ok(out);
}

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
    return R::failure("the text is " + std::to_string(units) + " bytes, more than the core's memory has room for now (" +
                      std::to_string(memory::in_use() >> 20) + " MiB of " + std::to_string(memory::limit() >> 20) +
                      " MiB in use)");
  }
  static const val encoder = val::global("TextEncoder").new_();
  std::string bytes(units, '\0');
  const val done = encoder.call<val>(
      "encodeInto", text, val(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<unsigned char*>(bytes.data()))));
  const auto read = static_cast<std::size_t>(done["read"].as<double>());
  auto written = static_cast<std::size_t>(done["written"].as<double>());
  if (read < units) {
    // Not ASCII: the rest's exact UTF-8 length first (encoded in JS memory), then its bytes.
    const val rest = encoder.call<val>("encode", text.call<val>("substring", static_cast<double>(read)));
    const auto more = static_cast<std::size_t>(rest["length"].as<double>());
    if (written + more > hlo::kMaxTextBytes) return R::failure(hlo::text_too_big(written + more, false));
    if (!memory::fits(more)) return R::failure("the text is more than the core's memory has room for now");
    bytes.resize(written + more);
    val(emscripten::typed_memory_view(more, reinterpret_cast<unsigned char*>(bytes.data()) + written))
        .call<void>("set", rest);
    written += more;
  }
  bytes.resize(written);
  return R::success(std::move(bytes));
}

// UTF-8 text (JSON) as a JS string, decoded where it lies by TextDecoder.
val js_string(const std::string& utf8) {
  static const val decoder = val::global("TextDecoder").new_();
  return decoder.call<val>("decode", val(emscripten::typed_memory_view(
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
  void column(std::size_t module, const char* name, const std::vector<std::int32_t>& values) override {
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

// Parses StableHLO or HLO text (dialect detected), verifies and costs every module in it: the
// core's report (hlo/report.h) as JSON text plus the rows' number columns as typed arrays,
// {json, columns}, put together by web/core.js. A parse error fails the whole text with its line
// and column; a module that fails to verify carries its error. The text and each module's
// analysis are freed as soon as they are written.
val js_analyze_text(val text) {
  if (!text.isString()) return fail("text must be a string, got " + text.typeOf().as<std::string>());
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
  if (json.size() > hlo::kMaxReportBytes) {
    return fail("the analysis is " + std::to_string(json.size()) + " bytes of JSON, more than the " +
                std::to_string(hlo::kMaxReportBytes) + " one JavaScript string can hold");
  }
  val out = val::object();
  out.set("json", js_string(json));
  out.set("columns", columns.modules);
  return ok(out);
}

// The wasm heap's size in bytes (it only grows: after a call, the call's peak) and its limit:
// {size, limit}, for the benchmarks.
val js_heap_bytes() {
  val out = val::object();
  out.set("size", static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0);
  out.set("limit", static_cast<double>(memory::limit()));
  return ok(out);
}

// ---- exercises ----------------------------------------------------------------------------

Result<std::vector<std::string>> strings_arg(const char* name, const val& v) {
  using R = Result<std::vector<std::string>>;
  if (v.isUndefined() || v.isNull()) return R::success({});
  if (!v.isArray()) return R::failure(std::string(name) + " must be an array of strings, got " + v.typeOf().as<std::string>());
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

Result<std::vector<exercises::Exercise>> exercises_arg(const val& seed, const val& count, const val& families) {
  using R = Result<std::vector<exercises::Exercise>>;
  if (!seed.isString()) return R::failure("seed must be a string, got " + seed.typeOf().as<std::string>());
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
  JsonWriter j;
  j.begin_array();
  for (const auto& e : set.value()) {
    j.begin_object().field("index", e.index).field("family", e.family).field("title", e.title)
        .field("statement", e.statement).field("ir", e.ir);
    j.key("params").begin_object();
    for (const auto& [name, value] : e.params) j.field(name, value);
    j.end_object();
    j.key("sizes").begin_array();
    for (double x : e.sizes) j.value(x);
    j.end_array();
    j.key("questions").begin_array();
    for (const auto& q : e.questions) {
      j.begin_object().field("id", q.id).field("prompt", q.prompt).field("kind", q.kind).field("unit", q.unit)
          .field("value", q.value).field("exact", q.exact).field("rel_tolerance", q.rel_tolerance);
      j.key("choices").begin_array();
      for (const auto& c : q.choices) j.value(c);
      j.end_array();
      j.key("hints").begin_array();
      for (const auto& h : q.hints) j.value(h);
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.field("solution", e.solution).end_object();
  }
  j.end_array();
  return ok(val(j.text()));
}

// (seed, count, families?, index, questionId, answer) → {correct, feedback}: the exercise is
// generated again from the seed, so the page keeps no answer key of its own.
val js_check_answer(val seed, val count, val families, val index, val question_id, val answer) {
  auto set = exercises_arg(seed, count, families);
  if (!set) return fail_from(set);
  auto i = number_arg("index", index);
  if (!i) return fail_from(i);
  if (!(i.value() >= 0 && i.value() < double(set->size()) && i.value() == std::floor(i.value()))) {
    return fail("index must be an integer from 0 to " + std::to_string(set->size() - 1) + ", got " + format_number(i.value()));
  }
  if (!question_id.isString()) return fail("question must be a string, got " + question_id.typeOf().as<std::string>());
  if (!answer.isString()) return fail("answer must be a string, got " + answer.typeOf().as<std::string>());
  const auto& e = set.value()[std::size_t(i.value())];
  const std::string id = question_id.as<std::string>();
  for (const auto& q : e.questions) {
    if (q.id != id) continue;
    auto verdict = exercises::check(q, answer.as<std::string>());
    val out = val::object();
    out.set("correct", verdict.correct);
    out.set("feedback", verdict.feedback);
    return ok(out);
  }
  return fail("question must be one of the exercise's questions, got \"" + id + "\"");
}

// (question, answer) → {correct, feedback} for a question built in JS (the seed's fixed
// exercise): {kind: "number"|"choice"|"set", unit, value, exact, rel_tolerance, set?,
// mistakes?: [{value, feedback}], hints?: [..]}. The same checker as generated exercises.
val js_check_question(val question, val answer) {
  if (question.isNull() || question.typeOf().as<std::string>() != "object") {
    return fail("question must be an object, got " + (question.isNull() ? std::string("null") : question.typeOf().as<std::string>()));
  }
  if (!answer.isString()) return fail("answer must be a string, got " + answer.typeOf().as<std::string>());
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
        q.mistakes.push_back({mv.value(), ms[i]["feedback"].isString() ? ms[i]["feedback"].as<std::string>() : std::string()});
      }
    }
  } else if (q.kind == "set") {
    auto xs = numbers_arg("question.set", question["set"]);
    if (!xs) return fail_from(xs);
    q.set = xs.value();
    std::sort(q.set.begin(), q.set.end());
  }
  auto hints = strings_arg("question.hints", question["hints"]);
  if (!hints) return fail_from(hints);
  q.hints = hints.value();
  auto verdict = exercises::check(q, answer.as<std::string>());
  val out = val::object();
  out.set("correct", verdict.correct);
  out.set("feedback", verdict.feedback);
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
  emscripten::function("timeKernel", &js_time_kernel);
  emscripten::function("measureCompute", &js_measure_compute);
  emscripten::function("measureBandwidth", &js_measure_bandwidth);
  emscripten::function("emitWorkload", &js_emit_workload);
  emscripten::function("analyzeText", &js_analyze_text);
  emscripten::function("heapBytes", &js_heap_bytes);
  emscripten::function("exampleModules", &js_example_modules);
  emscripten::function("generateExercises", &js_generate_exercises);
  emscripten::function("checkAnswer", &js_check_answer);
  emscripten::function("checkQuestion", &js_check_question);
}
