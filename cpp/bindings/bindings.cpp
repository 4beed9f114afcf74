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

#include <string>
#include <vector>

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

template <class T>
val fail_from(const Result<T>& r) { return fail(r.error()); }

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

}  // namespace

EMSCRIPTEN_BINDINGS(roofline_core) {
  emscripten::function("contract", &js_contract);
  emscripten::function("contractShapes", &js_contract_shapes);
  emscripten::function("ceilings", &js_ceilings);
  emscripten::function("trafficExperiment", &js_traffic_experiment);
  emscripten::function("figure", &js_figure);
  emscripten::function("lessonDefaults", &js_lesson_defaults);
}
