#include "report/run_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "common/json_writer.h"
#include "common/memory.h"
#include "common/numbers.h"
#include "hlo/cost.h"
#include "hlo/lower.h"
#include "hlo/parse.h"

namespace rl::report {

using namespace rl::interp;

namespace {

int rank(const std::string& status) {
  return status == "error" ? 3 : status == "failed" ? 2 : status == "not_run" ? 1 : 0;
}

void write_error(JsonWriter& j, const Error& e) {
  j.begin_object()
      .field("error", e.message)
      .field("message", e.without_place())
      .field("line", e.line)
      .field("column", e.column)
      .end_object();
}

// {shape, checksum, preview}, and a tuple's elements likewise (absent for a tensor; empty for a
// tuple nested deeper than kMaxResultDepth).
void write_summary(JsonWriter& j, const ResultSummary& s) {
  j.begin_object().field("shape", s.shape).key("checksum");
  // JSON has no NaN or infinity: a non-finite checksum is its name ("nan", "inf", "-inf").
  if (std::isfinite(s.checksum))
    j.value(s.checksum);
  else
    j.value(std::isnan(s.checksum) ? "nan" : s.checksum > 0 ? "inf" : "-inf");
  j.field("preview", s.preview).field("bits", s.bits);
  if (s.tuple) {
    j.key("elements").begin_array();
    for (const auto& e : s.elements) write_summary(j, e);
    j.end_array();
  }
  j.end_object();
}

// A result value as .npy files, a tuple's elements one by one.
void write_files(const Value& v, std::vector<ResultFile>* files) {
  if (v.kind == Value::Kind::Tuple) {
    for (const auto& e : v.tuple) write_files(e, files);
    return;
  }
  ResultFile f;
  f.name = "result_" + std::to_string(files->size()) + ".npy";
  if (!v.is_tensor()) {
    f.error = f.name + ": a token is not an array";
  } else {
    auto bytes = write_npy(v.tensor.type, v.tensor.dims, v.tensor.data());
    if (bytes)
      f.bytes = std::move(bytes.value());
    else
      f.error = f.name + ": " + bytes.error();
  }
  files->push_back(std::move(f));
}

}  // namespace

std::string run_text_json(std::string text, const RunOptions& options,
                          std::vector<ResultFile>* files) {
  JsonWriter j;
  const std::string dialect = hlo::detect_dialect(text);
  j.begin_object().field("dialect", dialect);
  auto modules = hlo::parse_owned(std::move(text));
  std::string status = "passed";
  std::vector<CheckOutcome> checks;
  std::vector<Unsupported> unsupported;
  std::vector<Error> errors;
  std::vector<ResultSummary> results;
  struct Row {
    OpTiming t;
    double flops = 0, trans = 0, bytes = 0;
  };
  std::vector<Row> rows;
  std::vector<FusionRun> fusions;
  bool fused = false, dot_epilogues = options.fusion.dot_epilogues;
  double seconds = 0;
  std::size_t peak = 0, untimed = 0;
  double need = 0;
  std::string inputs = "none";
  if (!modules) {
    status = "error";
    errors.push_back(modules.error_info());
  } else {
    for (const auto& m : modules.value()) {
      // The cost analysis of the same ops: flops and bytes beside each measured time. A fused run
      // inlines calls first, so an op of a callee may run alone in the entry: its row is the one
      // costed in its function (the same op, the same types).
      std::map<std::pair<int, int>, const hlo::OpCost*> cost;
      auto analysis = hlo::analyze_module(m);
      if (analysis)
        for (const auto& r : analysis->ops)
          if (r.top_level || !cost.count({r.line, r.column})) cost[{r.line, r.column}] = &r;
      RunResult r = run_module(m, options);
      if (rank(r.status) > rank(status)) status = r.status;
      for (auto& c : r.checks) checks.push_back(std::move(c));
      for (auto& u : r.unsupported) unsupported.push_back(std::move(u));
      for (auto& e : r.errors) errors.push_back(std::move(e));
      for (auto& s : r.results) results.push_back(std::move(s));
      if (files)
        for (const auto& v : r.values) write_files(v, files);
      for (auto& t : r.ops) {
        Row row{std::move(t)};
        auto it = cost.find({row.t.line, row.t.column});
        if (it != cost.end()) {
          row.flops = it->second->flops;
          row.trans = it->second->transcendentals;
          row.bytes = it->second->bytes_accessed;
        }
        rows.push_back(std::move(row));
      }
      for (auto& fu : r.fusions) fusions.push_back(std::move(fu));
      fused = fused || r.fused;
      seconds += r.seconds;
      if (r.peak_bytes > peak) peak = r.peak_bytes;
      if (r.memory_need_bytes > need) need = r.memory_need_bytes;
      untimed += r.untimed_ops;
      if (!r.inputs.empty()) inputs = r.inputs;  // empty: it stopped before choosing them
    }
  }
  j.field("status", status);
  j.key("checks").begin_array();
  for (const auto& c : checks)
    j.begin_object()
        .field("line", c.line)
        .field("column", c.column)
        .field("kind", c.kind)
        .field("passed", c.passed)
        .field("detail", c.detail)
        .end_object();
  j.end_array();
  j.key("ops").begin_array();
  for (const auto& r : rows)
    j.begin_object()
        .field("line", r.t.line)
        .field("column", r.t.column)
        .field("op", r.t.op)
        .field("seconds", r.t.seconds)
        .field("repeats", static_cast<double>(r.t.repeats))
        .field("flops", r.flops)
        .field("transcendentals", r.trans)
        .field("bytes_accessed", r.bytes)
        .field("view", r.t.view)
        .end_object();
  j.end_array();
  // A fused run's fusions: each one's time beside XLA's counts for the fusion (hlo/fuse.h: its
  // ops' flops and transcendentals, bytes at its boundary); fallback says why one ran op by op;
  // within: null for the entry's own, else the entry op whose body holds it (listed once, untimed).
  j.field("fused", fused);
  j.field("dot_epilogues", dot_epilogues);
  j.key("fusions").begin_array();
  for (const auto& fu : fusions) {
    j.begin_object()
        .field("name", fu.name)
        .field("kind", fu.kind)
        .field("line", fu.line)
        .field("column", fu.column);
    j.key("ops").begin_array();
    for (const auto& o : fu.ops)
      j.begin_object()
          .field("line", o.line)
          .field("column", o.column)
          .field("op", std::string(o.op))
          .end_object();
    j.end_array();
    j.field("seconds", fu.seconds)
        .field("repeats", static_cast<double>(fu.repeats))
        .field("flops", fu.flops)
        .field("transcendentals", fu.transcendentals)
        .field("bytes_accessed", fu.bytes_accessed)
        .field("fallback", fu.fallback);
    // A fusion in a while, call or region body: the entry op that holds it (its time is that op's).
    if (fu.within_op.empty())
      j.key("within").null();
    else
      j.key("within")
          .begin_object()
          .field("line", fu.within_line)
          .field("column", fu.within_column)
          .field("op", fu.within_op)
          .end_object();
    j.end_object();
  }
  j.end_array();
  j.key("unsupported").begin_array();
  for (const auto& u : unsupported)
    j.begin_object()
        .field("op", u.op)
        .field("line", u.line)
        .field("column", u.column)
        .field("why", u.why)
        .end_object();
  j.end_array();
  j.key("errors").begin_array();
  for (const auto& e : errors) write_error(j, e);
  j.end_array();
  j.key("results").begin_array();
  for (const auto& s : results) write_summary(j, s);
  j.end_array();
  // What ran, timed, summed (ops that ran alone and fusions): the program's measured time without
  // the run's overhead (repeats, checks, generated inputs); 0 when nothing was timed.
  double ops_seconds = 0;
  for (const auto& r : rows) ops_seconds += r.t.seconds;
  for (const auto& fu : fusions) ops_seconds += fu.seconds;
  j.field("inputs", inputs)
      .field("seconds", seconds)
      .field("ops_seconds", ops_seconds)
      .field("untimed_ops", static_cast<double>(untimed))
      .field("peak_bytes", static_cast<double>(peak))
      .field("memory_need_bytes", need);
  j.end_object();
  return j.take();
}

std::size_t default_memory_cap() { return std::max(kDefaultMemoryCap, memory::available()); }

RunOptions default_run_options() {
  RunOptions o;
  o.fuse = true;
  o.memory_cap = default_memory_cap();
  return o;
}

Result<Inputs> run_inputs(const std::string& name, const std::string& shown) {
  if (name == "none") return Result<Inputs>::success(Inputs::None);
  if (name == "seeded") return Result<Inputs>::success(Inputs::Seeded);
  if (name == "arange") return Result<Inputs>::success(Inputs::Arange);
  return Result<Inputs>::failure_for("inputs",
                                     "inputs must be one of none, seeded, arange, got " + shown);
}

Result<bool> set_run_number(RunOptions& o, const std::string& key, double x) {
  using R = Result<bool>;
  if (key == "timing_budget_seconds") {
    if (!(x >= 0 && x <= 86400))
      return R::failure_for(
          key, "timing_budget_seconds must be a number of seconds from 0 to 86400, got " +
                   format_number(x));
    o.timing_budget_seconds = x;
    return R::success(true);
  }
  struct Range {
    const char* key;
    double lo, hi;
  };
  static const Range ranges[] = {{"seed", 0, 9007199254740991.0},
                                 {"memory_cap", 1, 4294967296.0},
                                 {"max_iterations", 1, 1e12},
                                 {"time_budget_seconds", 1, 86400}};
  const auto* r = std::find_if(std::begin(ranges), std::end(ranges),
                               [&](const Range& range) { return key == range.key; });
  if (r == std::end(ranges)) return R::failure_for(key, "unknown run option \"" + key + "\"");
  if (!(x >= r->lo && x <= r->hi && x == std::floor(x)))
    return R::failure_for(key, key + " must be an integer from " + format_number(r->lo) + " to " +
                                   format_number(r->hi) + ", got " + format_number(x));
  if (key == "seed") o.seed = static_cast<std::uint64_t>(x);
  if (key == "memory_cap") o.memory_cap = static_cast<std::size_t>(x);
  if (key == "max_iterations") o.max_iterations = static_cast<std::uint64_t>(x);
  if (key == "time_budget_seconds") o.time_budget_seconds = x;
  return R::success(true);
}

}  // namespace rl::report
