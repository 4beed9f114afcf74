// The one file that includes Emscripten headers: the core's JS surface, through Embind. It only
// converts: each function turns its JS arguments into plain C++ values (common/arg.h's Arg, texts,
// typed arrays), calls one function of the core (mostly report/requests.h, where every rule on an
// argument and every message lives) and converts its answer.
//
// Contract (see bindings/README.md and web/core.js for the JS side):
// - every function takes plain JS values and returns a plain object the caller owns:
//   {ok: true, value} or {ok: false, error: "m must be a positive integer, got 0", input?, line?,
//   column?, message?}; nothing is thrown across the boundary and nothing aborts on bad input;
// - a value is JSON text written by the one writer (common/json_writer.h), which web/core.js
//   parses; typed arrays only for bulk tensors (floats, bytes, per-op columns), copies the caller
//   owns unless said otherwise. Counts are 128-bit exact in C++: they cross as a number
//   (`flops`, exact up to 2^53) and as exact decimal text (`flops_exact`); keys are snake_case.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bindings/handles.h"
#include "common/arg.h"
#include "common/json_writer.h"
#include "common/memory.h"
#include "hlo/report.h"
#include "hlo/table.h"
#include "measure/timer.h"
#include "measure/work.h"
#include "python/notebook.h"
#include "python/tracer.h"
#include "report/lesson_check.h"
#include "report/measurements.h"
#include "report/report.h"
#include "report/requests.h"
#include "report/roofline.h"
#include "report/run_report.h"
#include "report/values.h"

using emscripten::val;
using namespace rl;

namespace {

// ---- the one encoding of answers and errors --------------------------------------------------

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

// {ok: false, error, input?, line?, column?, message?}: the fields the core's error carries.
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

// Text (JSON, HLO, XML) as the value, or the error.
val reply(const Result<std::string>& r) { return r ? ok(val(r.value())) : fail_from(r); }

// A JS-owned copy of `count` floats.
val float_array(const float* data, std::size_t count) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(count, data));
}

val reply(const Result<kernels::FloatBuffer>& r) {
  return r ? ok(float_array(r.value().data(), r.value().size())) : fail_from(r);
}

// ---- JS values → C++ ----------------------------------------------------------------------------

// Any JS value as an Arg: what the core reads structured arguments from. Arrays and objects are
// copied whole (their keys in Object.keys order); typed arrays of bytes and floats by one copy
// each; past 64 levels of nesting (a cycle) a value is kept as "an object" without its contents.
Arg arg(const val& v, int depth = 0) {
  static const val object = val::global("Object"), uint8 = val::global("Uint8Array"),
                   float32 = val::global("Float32Array"), float64 = val::global("Float64Array");
  Arg a;
  const std::string t = v.typeOf().as<std::string>();
  if (t == "undefined") return a;
  if (t == "number") return Arg::of(v.as<double>());
  if (t == "string") return Arg::of(v.as<std::string>());
  if (t == "boolean") return Arg::of(v.as<bool>());
  if (v.isNull()) return Arg::null();
  a.type = t == "function" ? Arg::Type::function : Arg::Type::other;
  a.class_name = t;
  if (t != "object" || depth > 64) return a;
  const val ctor = v["constructor"];
  const bool named = !ctor.isUndefined() && !ctor.isNull() && ctor["name"].isString();
  a.class_name = named ? ctor["name"].as<std::string>() : "";
  const auto length = [&v] { return static_cast<std::size_t>(v["length"].as<double>()); };
  if (v.isArray()) {
    a.type = Arg::Type::array;
    for (std::size_t i = 0, n = length(); i < n; ++i) a.items.push_back(arg(v[i], depth + 1));
  } else if (v.instanceof (uint8)) {
    a.type = Arg::Type::bytes;
    a.string.resize(length());
    val(emscripten::typed_memory_view(a.string.size(),
                                      reinterpret_cast<unsigned char*>(&a.string[0])))
        .call<void>("set", v);
  } else if (v.instanceof (float32)) {
    a.type = Arg::Type::floats;
    a.floats.resize(length());
    val(emscripten::typed_memory_view(a.floats.size(), a.floats.data())).call<void>("set", v);
  } else if (v.instanceof (float64)) {
    a.type = Arg::Type::doubles;
    a.doubles.resize(length());
    val(emscripten::typed_memory_view(a.doubles.size(), a.doubles.data())).call<void>("set", v);
  } else {
    a.type = Arg::Type::object;
    const val keys = object.call<val>("keys", v);
    for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
      const std::string key = keys[i].as<std::string>();
      a.members.push_back({key, arg(v[key], depth + 1)});
    }
  }
  return a;
}

// A number argument: refuses strings, undefined, objects, with the argument's name. Rules about
// the number itself (positive, integer, finite) stay in the core.
Result<double> number_arg(const char* name, const val& v) { return number_of(name, arg(v)); }

// The object behind a handle argument of `table`, or the error naming it.
template <class T>
Result<T*> handle_arg(const bindings::Handles<T>& table, const val& handle) {
  auto h = number_arg("handle", handle);
  if (!h) return Result<T*>::failure_from(h);
  return table.get(h.value());
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
  auto room = report::text_room(units);
  if (!room) return R::failure_from(room);
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

// A string argument's UTF-8 (utf8_text), refused by name when it is no string.
Result<std::string> text_arg(const char* name, const val& v) {
  if (!v.isString())
    return Result<std::string>::failure(std::string(name) + " must be a string, got " +
                                        v.typeOf().as<std::string>());
  return utf8_text(v);
}

// UTF-8 text (JSON) as a JS string, decoded where it lies by TextDecoder; refused past
// hlo::kMaxReportBytes, more than one JavaScript string can hold.
val big_json(const char* what, const std::string& utf8) {
  if (utf8.size() > hlo::kMaxReportBytes) {
    return fail(std::string("the ") + what + " is " + std::to_string(utf8.size()) +
                " bytes of JSON, more than the " + std::to_string(hlo::kMaxReportBytes) +
                " one JavaScript string can hold");
  }
  static const val decoder = val::global("TextDecoder").new_();
  return ok(decoder.call<val>(
      "decode", val(emscripten::typed_memory_view(
                    utf8.size(), reinterpret_cast<const unsigned char*>(utf8.data())))));
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

// A view of bytes in the core's memory, valid until the next call into the core (no copy).
val bytes_view(const std::string& bytes) {
  return val(emscripten::typed_memory_view(bytes.size(),
                                           reinterpret_cast<const unsigned char*>(bytes.data())));
}

// ---- the model and the lesson
// ---------------------------------------------------------------------

val js_contract(val m, val k, val n, val itemsize) {
  return reply(report::contract_call(arg(m), arg(k), arg(n), arg(itemsize)));
}

val js_contract_shapes(val a_rows, val a_cols, val b_rows, val b_cols, val itemsize) {
  return reply(report::contract_shapes_call(arg(a_rows), arg(a_cols), arg(b_rows), arg(b_cols),
                                            arg(itemsize)));
}

val js_ceilings(val peak, val bandwidth, val intensities) {
  return reply(report::ceilings_call(arg(peak), arg(bandwidth), arg(intensities)));
}

val js_traffic_experiment(val peak, val bandwidth, val intensities, val factor) {
  return reply(
      report::traffic_experiment_call(arg(peak), arg(bandwidth), arg(intensities), arg(factor)));
}

val js_figure(val peak, val bandwidth, val intensities) {
  return reply(report::figure_call(arg(peak), arg(bandwidth), arg(intensities)));
}

val js_lesson_defaults() { return ok(val(report::defaults_json())); }

// (params?, extras?) → the lesson's report, or {ok: false, input, error, errors} naming the first
// refused input and every refused input (so a form can mark them all at once).
val js_lesson_report(val params, val extras) {
  auto r = report::lesson_report_call(arg(params), arg(extras));
  return r.refused.empty() ? ok(val(r.json)) : fail_inputs(r.refused);
}

val js_exercise_families() { return ok(val(report::exercise_families_json())); }

// ---- kernels and measurements ------------------------------------------------------------------

val js_kernel_variants() { return ok(val(report::kernel_variants_json())); }

val js_check_lesson_kernel(val variant) {
  auto v = report::variant_of(arg(variant));
  return v ? reply(report::lesson_kernel_check_json(*v.value())) : fail_from(v);
}

val js_check_lesson_ir() { return reply(report::lesson_ir_check_json()); }

val js_time_kernel(val variant, val m, val k, val n, val samples, val min_sample_seconds) {
  return reply(report::time_kernel_call(arg(variant), arg(m), arg(k), arg(n), arg(samples),
                                        arg(min_sample_seconds)));
}

// The caller's clock, read by the core: now() in seconds (a non-number reads as NaN, which
// counts as a change, so it cannot spin).
val js_timer_resolution(val now, val give_up_seconds) {
  const auto read = [&now] {
    const val t = now();
    return t.isNumber() ? t.as<double>() : std::nan("");
  };
  return reply(report::timer_resolution_call(arg(now), read, arg(give_up_seconds)));
}

val js_sampler_start(val timer_resolution, val min_sample_seconds, val samples) {
  return reply(
      report::sampler_start_call(arg(timer_resolution), arg(min_sample_seconds), arg(samples)));
}

val js_sampler_record(val state, val elapsed) {
  return reply(report::sampler_record_call(arg(state), arg(elapsed)));
}

val js_measure_compute(val min_seconds) {
  return reply(report::measure_compute_call(arg(min_seconds)));
}

val js_measure_bandwidth(val level, val min_seconds) {
  return reply(report::measure_bandwidth_call(arg(level), arg(min_seconds)));
}

val js_measure_traffic(val factor, val options) {
  return reply(report::measure_traffic_call(arg(factor), arg(options)));
}

// ---- float arrays, packing, and work for the Worker pool ----------------------------------------

val js_uniform_floats(val count, val seed) {
  return reply(report::uniform_floats_call(arg(count), arg(seed)));
}

val js_pack_b(val variant, val k, val n, val b) {
  return reply(report::pack_b_call(arg(variant), arg(k), arg(n), arg(b)));
}

val js_run_kernel(val variant, val m, val k, val n, val a, val b) {
  return reply(report::run_kernel_call(arg(variant), arg(m), arg(k), arg(n), arg(a), arg(b)));
}

// Work held by this wasm instance between calls (one Worker's part of a pool round), by handle.
bindings::Handles<measure::Work> g_works("createWork returned and releaseWork has not released");

val js_create_work(val spec) {
  auto work = report::make_work(arg(spec));
  if (!work) return fail_from(work);
  const measure::Work& w = *work.value();
  return ok(val(report::work_json(w, g_works.add(std::move(work.value())))));
}

val js_run_work(val handle, val units) {
  auto w = handle_arg(g_works, handle);
  if (!w) return fail_from(w);
  auto u = report::work_units(arg(units));
  if (!u) return fail_from(u);
  return ok(val(report::number_json("checksum", w.value()->run(u.value()))));
}

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

val js_heap_bytes() {
  JsonWriter j;
  j.begin_object().key("size").value(double(__builtin_wasm_memory_size(0)) * 65536.0);
  j.key("limit").value(double(memory::limit())).end_object();
  return ok(val(j.text()));
}

// ---- HLO: emit, parse, verify, cost, fuse
// ---------------------------------------------------------

val js_emit_workload(val m, val k, val n, val dtype) {
  return reply(report::emit_workload_call(arg(m), arg(k), arg(n), arg(dtype)));
}

val js_example_modules() { return ok(val(report::example_modules_json())); }

// The analysis (hlo/report.h) as JSON text without the rows' numbers, and those as typed arrays
// per module: {json, columns}. The text and each module's analysis are freed once written.
val js_analyze_text(val text) {
  std::string json;
  JsColumns columns;
  {
    auto bytes = text_arg("text", text);
    if (!bytes) return fail_from(bytes);
    auto report = hlo::analyze_text(std::move(bytes.value()));
    if (!report) return fail_from(report);
    auto written = hlo::to_json(std::move(report.value()), columns);
    if (!written) return fail_from(written);
    json = std::move(written.value());
  }
  val out = big_json("analysis", json);
  if (!out["ok"].as<bool>()) return out;
  val value = val::object();
  value.set("json", out["value"]);
  value.set("columns", columns.modules);
  return ok(value);
}

// Texts being filled in the heap (textBuffer) until tableStart takes them.
bindings::Handles<std::string> g_text_buffers("textBuffer returned and no tableStart took");

// {handle, bytes}: room in the heap for a text, `bytes` a view of it valid until the next call.
val js_text_buffer(val size) {
  auto n = report::text_buffer_size(arg(size));
  if (!n) return fail_from(n);
  auto text = std::make_unique<std::string>(n.value(), '\0');
  val out = val::object();
  out.set("bytes", bytes_view(*text));
  out.set("handle", g_text_buffers.add(std::move(text)));
  return ok(out);
}

val js_text_buffer_release(val handle) {
  auto h = number_arg("handle", handle);
  if (!h) return fail_from(h);
  g_text_buffers.release(h.value());
  return ok(val(true));
}

// The text to analyse as UTF-8 bytes: a string (as utf8_text), a Uint8Array of UTF-8 (copied once
// into the heap, no JavaScript string of it made) or {buffer: handle}, a textBuffer's, taken over.
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
  auto room = report::text_room(size);
  if (!room) return R::failure_from(room);
  std::string bytes(size, '\0');
  val(emscripten::typed_memory_view(size, reinterpret_cast<unsigned char*>(bytes.data())))
      .call<void>("set", text);
  return R::success(std::move(bytes));
}

// Per-op tables being written (hlo/table.h), by handle, between tableStart and the tableNext
// that hands out their last lines.
bindings::Handles<hlo::OpTable> g_tables("tableStart returned whose lines are not all out");

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
  const hlo::OpTable& t = *table;
  return ok(val(report::table_json(t, g_tables.add(std::move(table)))));
}

// The table's next whole lines as a Uint8Array view of the core's memory (valid until the next
// call); an empty one once every line is out, and the table is then released.
std::string g_table_chunk;
val js_table_next(val handle, val bytes) {
  auto t = handle_arg(g_tables, handle);
  if (!t) return fail_from(t);
  auto n = report::chunk_bytes(arg(bytes));
  if (!n) return fail_from(n);
  g_table_chunk.clear();
  g_table_chunk.reserve(n.value() + 4096);
  if (!t.value()->next(g_table_chunk, n.value()) && g_table_chunk.empty()) {
    g_tables.release(handle.as<double>());
    std::string().swap(g_table_chunk);
  }
  return ok(bytes_view(g_table_chunk));
}

val js_table_release(val handle) {
  auto h = number_arg("handle", handle);
  if (!h) return fail_from(h);
  g_tables.release(h.value());
  return ok(val(true));
}

val js_fuse_text(val text, val options) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  auto o = report::fuse_options(arg(options));
  if (!o) return fail_from(o);
  std::string json;
  {
    auto bytes = utf8_text(text);
    if (!bytes) return fail_from(bytes);
    auto r = hlo::fused_json(std::move(bytes.value()), o.value());
    if (!r) return fail_from(r);
    json = std::move(r.value());
  }
  return big_json("fused analysis", json);
}

// ---- Python: lower, notebooks
// --------------------------------------------------------------------

val js_lower(val source, val options) {
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  auto entry = report::lower_entry(arg(options));
  if (!entry) return fail_from(entry);
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  auto r = python::lower_source(bytes.value(), entry.value());
  return r ? ok(val(report::lowered_json(r.value()))) : fail_from(r);
}

// time.perf_counter() reads measure's clock.
val js_notebook(val source, val options) {
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  auto o = report::notebook_options(arg(options), true);
  if (!o) return fail_from(o);
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  o.value().clock = [] { return measure::now_seconds(); };
  return ok(val(report::notebook_json(python::run_notebook(bytes.value(), o.value()))));
}

// Notebook sessions (kernels) held by this wasm instance between calls, by handle.
bindings::Handles<python::NotebookSession> g_sessions(
    "notebookSession returned and notebookRelease has not released");

val js_notebook_session(val options) {
  auto o = report::notebook_options(arg(options), false);
  if (!o) return fail_from(o);
  o.value().clock = [] { return measure::now_seconds(); };
  const double handle =
      g_sessions.add(std::make_unique<python::NotebookSession>(std::move(o.value())));
  return ok(val(report::number_json("handle", handle)));
}

val js_notebook_run_cell(val handle, val source, val cell) {
  auto s = handle_arg(g_sessions, handle);
  if (!s) return fail_from(s);
  if (!source.isString())
    return fail("source must be a string, got " + source.typeOf().as<std::string>());
  auto c = report::cell_number(arg(cell));
  if (!c) return fail_from(c);
  auto bytes = utf8_text(source);
  if (!bytes) return fail_from(bytes);
  const auto r = s.value()->run_cell(bytes.value(), c.value());
  return ok(val(report::notebook_json(r, s.value()->cells_run())));
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

val js_notebook_cells(val source) {
  auto bytes = text_arg("source", source);
  if (!bytes) return fail_from(bytes);
  return ok(val(report::cells_json(python::split_cells(bytes.value()))));
}

// ---- runs in the interpreter
// ------------------------------------------------------------------------

// The run's options (report::run_options); on_progress(done, total), a JS function, is handed on
// here: the page's Worker posts each call to its progress bar while the core runs.
Result<interp::RunOptions> run_options_arg(const val& options) {
  auto o = report::run_options(arg(options));
  if (o && !options.isUndefined() && !options.isNull() && !options["on_progress"].isUndefined()) {
    const val progress = options["on_progress"];
    o.value().on_progress = [progress](std::size_t done, std::size_t total) {
      progress(double(done), double(total));
    };
  }
  return o;
}

val js_run_text(val text, val options) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  auto o = run_options_arg(options);
  if (!o) return fail_from(o);
  return ok(val(report::run_text_json(text.as<std::string>(), o.value())));
}

// runText, and the results as .npy files: {report: JSON text, files: [{name, bytes: Uint8Array} |
// {name, error}]} (result_N.npy; report/run_report.h).
val js_run_text_npy(val text, val options) {
  if (!text.isString())
    return fail("text must be a string, got " + text.typeOf().as<std::string>());
  auto o = run_options_arg(options);
  if (!o) return fail_from(o);
  std::vector<report::ResultFile> files;
  val out = val::object();
  out.set("report", val(report::run_text_json(text.as<std::string>(), o.value(), &files)));
  val list = val::array();
  for (const auto& f : files) {
    val file = val::object();
    file.set("name", f.name);
    if (f.error.empty())
      file.set("bytes", val::global("Uint8Array").new_(bytes_view(f.bytes)));
    else
      file.set("error", f.error);
    list.call<void>("push", file);
  }
  out.set("files", list);
  return ok(out);
}

// ---- exercises
// --------------------------------------------------------------------------------------

val js_generate_exercises(val seed, val count, val families) {
  return reply(report::exercises_call(arg(seed), arg(count), arg(families)));
}

val js_check_answer(val seed, val count, val families, val index, val question_id, val answer) {
  return reply(report::check_answer_call(arg(seed), arg(count), arg(families), arg(index),
                                         arg(question_id), arg(answer)));
}

val js_check_question(val question, val answer) {
  return reply(report::check_question_call(arg(question), arg(answer)));
}

val js_gradebook(val files, val set) { return reply(report::gradebook_call(arg(files), arg(set))); }

val js_moodle_xml(val seed, val count, val families) {
  return reply(report::moodle_call(arg(seed), arg(count), arg(families)));
}

// ---- a program under roofs (the analyze view)
// --------------------------------------------------------

// {json: {roofs, program, measured, bound_names} as JSON text, bounds: Uint8Array (codes into
// bound_names, 0: none), ceilings: Float64Array (NaN: none), and with measured seconds gflops, gbs,
// of_roof: Float64Arrays}: the per-op columns cross as typed arrays (10^5 ops are common).
val js_roofline(val request) {
  auto q = report::roofline_request(arg(request));
  if (!q) return fail_from(q);
  auto r = report::program_roofline(q.value());
  if (!r) return fail_from(r);
  // JS-owned copies: the vectors are freed when this returns.
  const auto copy = [](const char* type, const auto& xs) {
    return val::global(type).new_(val(emscripten::typed_memory_view(xs.size(), xs.data())));
  };
  val out = val::object();
  out.set("json", report::roofline_json(r.value()));
  out.set("bounds", copy("Uint8Array", r->bounds));
  out.set("ceilings", copy("Float64Array", r->ceilings));
  if (!q->seconds.empty()) {
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
  emscripten::function("timerResolution", &js_timer_resolution);
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
