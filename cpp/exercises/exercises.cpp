#include "exercises/exercises.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "common/json_writer.h"
#include "common/numbers.h"
#include "exercises/answers.h"
#include "hlo/cost.h"
#include "hlo/emit.h"

namespace rl::exercises {

namespace {

// ---- deterministic randomness: FNV-1a of the seed text, then splitmix64 ---------------------
std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

class Rng {
 public:
  explicit Rng(std::uint64_t state) : state_(state) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  template <class T>
  T pick(const std::vector<T>& xs) {
    return xs[next() % xs.size()];
  }

 private:
  std::uint64_t state_;
};

// Sizes and budgets that keep the numbers readable.
const std::vector<double> kDims = {8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512};
const std::vector<double> kSmallDims = {4, 8, 16, 32, 64};
const std::vector<double> kPeaks = {50, 100, 200, 400, 800};
const std::vector<double> kBandwidths = {10, 20, 25, 40, 50, 100};

std::string num(double x) { return format_number(x); }
std::string sig4(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", x);
  return format_number(std::strtod(buffer, nullptr));
}
std::string dtype_of(double itemsize) {
  return itemsize == 2 ? "bf16" : itemsize == 8 ? "f64" : "f32";
}

Question number_q(std::string id, std::string prompt, std::string unit, double value,
                  double rel_tolerance, std::string exact = "") {
  Question q;
  q.id = std::move(id);
  q.prompt = std::move(prompt);
  q.kind = "number";
  q.unit = std::move(unit);
  q.value = value;
  q.rel_tolerance = rel_tolerance;
  // Non-integer answers print with 4 significant digits (inside the 1e-3 tolerance).
  q.exact = !exact.empty() ? std::move(exact) : rel_tolerance > 0 ? sig4(value) : num(value);
  return q;
}

// A mistake only teaches if its value differs from the right answer.
// `id` names the mistake the same way in every variant (the gradebook counts students by it).
void add_mistake(Question& q, std::string id, double value, std::string feedback) {
  if (std::fabs(value - q.value) > 1e-9 * std::max(1.0, std::fabs(q.value))) {
    q.mistakes.push_back({value, std::move(feedback), std::move(id)});
  }
}

std::string matmul_text(double m, double k, double n) {
  return "(" + num(m) + "×" + num(k) + ")·(" + num(k) + "×" + num(n) + ")";
}

// ---- what the core says about a workload ----------------------------------------------------
// The answers come from cpp/model (contract, ridge, ceiling, the traffic experiment) and from
// cpp/hlo's cost analysis of the emitted text: the generator computes none of the model's
// formulas itself. (The tests recompute them independently; the mistakes below are deliberately
// wrong formulas, the ones students use.)

model::Contraction contraction(double m, double k, double n, double s) {
  return model::contract(m, k, n, s).value();  // small listed sizes: always a valid contraction
}

model::Budgets budgets_of(double peak, double bandwidth) {
  return model::make_budgets(peak, bandwidth).value();
}

// The cost analysis of an emitted module (the emitters' sizes here are always valid).
hlo::Analysis costs_of(const std::string& text) { return hlo::analyze(text).value().front(); }

const hlo::OpCost& op_named(const hlo::Analysis& a, std::string_view family, int nth = 0) {
  for (const auto& o : a.ops)  // the entry's own ops, not those inside a reducer's region
    if (o.top_level && hlo::op_short_name(hlo::op_from_name(o.op, a.dialect)) == family &&
        nth-- == 0)
      return o;
  return a.ops.front();  // not reached for the emitters' modules (the tests check the numbers)
}

// ---- questions shared by the families and the lesson's exercise --------------------------------

// Work, minimum traffic and intensity of a matmul, with the likely mistakes.
std::vector<Question> matmul_questions(const model::Contraction& c, double ratio_tolerance) {
  const double m = double(c.m), k = double(c.k), n = double(c.n), s = double(c.itemsize);
  const double other = s == 4 ? 2 : 4;
  const double flops = double(c.flops), bytes = double(c.minimum_bytes), elements = bytes / s;
  Question work = number_q("work", "Work (flops)", "flops", flops, 0);
  add_mistake(work, "mkn_not_2mkn", m * k * n,
              "You counted m·k·n = " + num(m * k * n) +
                  ": each multiply-add is 2 flops, so the work is 2·m·k·n.");
  add_mistake(work, "tanh_counted", flops + m * n,
              "You included tanh (m·n = " + num(m * n) +
                  " more): the model counts the matmul's multiply-adds only.");
  add_mistake(
      work, "mkn_plus_elementwise", m * k * n + m * n,
      "That is m·k·n plus an elementwise op: count 2 flops per multiply-add and nothing for tanh.");
  work.hints = {"Each output element is a dot product of length k.",
                "A dot product of length k takes k multiplies and k adds."};
  Question traffic = number_q("traffic", "Minimum traffic (bytes)", "bytes", bytes, 0);
  add_mistake(traffic, "elements_not_bytes", elements,
              "That is the number of elements: bytes must use the itemsize, " + num(s) +
                  " bytes per " + dtype_of(s) + " element.");
  add_mistake(
      traffic, "wrong_itemsize", other * elements,
      "That uses " + num(other) + " bytes per element; " + dtype_of(s) + " has " + num(s) + ".");
  add_mistake(traffic, "result_left_out", s * (m * k + k * n),
              "You left out writing the result: C has m·n = " + num(m * n) + " elements.");
  add_mistake(traffic, "counted_twice", 2 * bytes,
              "Minimum traffic reads each operand once and writes the result once.");
  add_mistake(traffic, "result_read_back", bytes + s * m * n,
              "The minimum traffic writes the result once; it is not read.");
  traffic.hints = {"Three matrices move: A, B and the result C.",
                   "bytes = itemsize·(m·k + k·n + m·n)."};
  Question ratio = number_q("ratio", "Intensity (flops per byte)", "flops/byte", c.intensity,
                            ratio_tolerance, c.intensity_fraction);
  add_mistake(ratio, "bytes_per_flop", bytes / flops,
              "You divided bytes by flops: intensity is flops per byte.");
  add_mistake(ratio, "half_the_work", flops / bytes / 2, "That is half: the work is 2·m·k·n.");
  add_mistake(
      ratio, "wrong_itemsize", flops / (other * elements),
      "That uses " + num(other) + " bytes per element; " + dtype_of(s) + " has " + num(s) + ".");
  ratio.hints = {"Divide the work by the traffic.",
                 "Give it as a fraction or with 4 significant digits."};
  return {work, traffic, ratio};
}

// Which budget bounds it: the model's bound at this ceiling. On the ridge both answers count.
Question bound_question(const model::Ceiling& c) {
  Question b;
  b.id = "bound";
  b.prompt = "Bound (memory-bound or compute-bound)";
  b.kind = "choice";
  b.choices = {"memory-bound", "compute-bound"};
  b.aliases = {{"memory-bound", {"memory", "bandwidth", "bandwidth-bound"}},
               {"compute-bound", {"compute", "peak", "peak-bound"}}};
  b.exact = model::bound_name(c.bound);
  if (c.bound == model::Bound::balanced) {
    b.accepted = b.choices;
    b.right_feedback = "Accepted: the workload sits exactly on the ridge, so both budgets bind.";
  }
  b.wrong_feedback = "compare the intensity with the ridge (peak / bandwidth).";
  b.hints = {"Compare the intensity with the ridge.",
             "Below the ridge, bandwidth limits; above it, the peak does."};
  return b;
}

// ---- the families ---------------------------------------------------------------------------

Exercise work_traffic(Rng& rng) {
  const double m = rng.pick(kDims), k = rng.pick(kDims), n = rng.pick(kDims);
  const double s = rng.pick(std::vector<double>{2, 4});
  const auto c = contraction(m, k, n, s);
  const double flops = double(c.flops), bytes = double(c.minimum_bytes);
  Exercise e;
  e.family = "work_traffic";
  e.title = "Work, minimum traffic and intensity of a matmul";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", s}};
  e.statement =
      "A matmul multiplies A (" + num(m) + "×" + num(k) + ") by B (" + num(k) + "×" + num(n) +
      ") in " + dtype_of(s) + " (" + num(s) + " bytes per element). Count its work in flops (the " +
      "multiply-adds only), its minimum traffic in bytes (each operand read once, the result " +
      "written once) and its intensity in flops per byte.";
  e.questions = matmul_questions(c, 1e-3);
  e.solution = "work = 2·" + num(m) + "·" + num(k) + "·" + num(n) + " = " + num(flops) +
               " flops; traffic = " + num(s) + "·(" + num(m) + "·" + num(k) + " + " + num(k) + "·" +
               num(n) + " + " + num(m) + "·" + num(n) + ") = " + num(bytes) +
               " bytes; intensity = " + num(flops) + "/" + num(bytes) + " = " +
               c.intensity_fraction + " ≈ " + format_number(std::round(c.intensity * 1e4) / 1e4) +
               " flops per byte.";
  return e;
}

Exercise bound(Rng& rng) {
  double m, k, n, s, peak, bw;
  model::Contraction c;
  model::Budgets budgets;
  model::Ceiling at;
  do {  // never exactly at the ridge: the question needs one answer
    m = rng.pick(kDims), k = rng.pick(kDims), n = rng.pick(kDims);
    s = rng.pick(std::vector<double>{2, 4});
    peak = rng.pick(kPeaks), bw = rng.pick(kBandwidths);
    c = contraction(m, k, n, s);
    budgets = budgets_of(peak, bw);
    at = model::ceiling(budgets, c.intensity).value();
  } while (at.bound == model::Bound::balanced);
  const double ridge = model::ridge(budgets), intensity = c.intensity;
  const bool memory_bound = at.bound == model::Bound::memory;
  Exercise e;
  e.family = "bound";
  e.title = "Which budget bounds it, and at what ceiling?";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", s}, {"peak", peak}, {"bandwidth", bw}};
  e.statement = "The matmul " + matmul_text(m, k, n) + " in " + dtype_of(s) + " has intensity " +
                c.intensity_fraction + " flops per byte. Under hypothetical budgets of " +
                num(peak) + " GFLOP/s and " + num(bw) +
                " GB/s, find the ridge, the bound and the attainable ceiling.";
  Question r = number_q("ridge", "Ridge (flops per byte)", "flops/byte", ridge, 1e-3);
  add_mistake(r, "bandwidth_over_peak", bw / peak,
              "That is bandwidth / peak: the ridge is peak / bandwidth, in flops per byte.");
  r.hints = {"The ridge is where the bandwidth line reaches the peak.",
             "bandwidth · ridge = peak."};
  Question b = bound_question(at);
  Question ceiling =
      number_q("ceiling", "Attainable ceiling (GFLOP/s)", "GFLOP/s", at.ceiling, 1e-3);
  if (memory_bound)
    add_mistake(ceiling, "peak_below_ridge", peak,
                "Below the ridge the bandwidth line is under the peak: the ceiling is bandwidth × "
                "intensity.");
  else
    add_mistake(
        ceiling, "peak_not_capping", at.bandwidth_ceiling,
        "Above the ridge the peak caps it: the ceiling is min(peak, bandwidth × intensity).");
  ceiling.hints = {"ceiling = min(peak, bandwidth × intensity).", "GB/s × flops/byte = GFLOP/s."};
  e.questions = {r, b, ceiling};
  e.solution = "ridge = " + num(peak) + "/" + num(bw) + " = " +
               format_number(std::round(ridge * 1e4) / 1e4) + " flops per byte; intensity " +
               format_number(std::round(intensity * 1e4) / 1e4) + (memory_bound ? " < " : " > ") +
               "ridge, so it is " + b.exact + "; ceiling = min(" + num(peak) + ", " + num(bw) +
               " × " + format_number(std::round(intensity * 1e4) / 1e4) +
               ") = " + format_number(std::round(at.ceiling * 100) / 100) + " GFLOP/s.";
  return e;
}

Exercise traffic_factor(Rng& rng) {
  std::vector<double> sizes, intensities;
  std::vector<model::TrafficRow> rows;
  double s, peak, bw, factor;
  model::Budgets budgets;
  for (;;) {
    std::set<double> chosen;
    while (chosen.size() < 4) chosen.insert(rng.pick(kDims));
    sizes.assign(chosen.begin(), chosen.end());
    s = rng.pick(std::vector<double>{2, 4});
    peak = rng.pick(kPeaks), bw = rng.pick(kBandwidths),
    factor = rng.pick(std::vector<double>{2, 3, 4});
    budgets = budgets_of(peak, bw);
    intensities.clear();
    for (double n : sizes)
      intensities.push_back(contraction(n, n, n, s).intensity);  // 2n³ / (s·3n²)
    rows = model::traffic_experiment(budgets, intensities, factor).value();
    bool tie = false;  // on the ridge before or after: "changes bound" would be ambiguous
    for (const auto& row : rows)
      tie |= row.original.bound == model::Bound::balanced ||
             row.revised.bound == model::Bound::balanced;
    if (!tie) break;
  }
  std::vector<double> changed;
  std::size_t asked_at = 1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (rows[i].bound_changed) {
      changed.push_back(sizes[i]);
      asked_at = i;
    }
  }
  const double asked = sizes[asked_at];
  const model::TrafficRow& row = rows[asked_at];
  Exercise e;
  e.family = "traffic_factor";
  e.title = "More traffic: which sizes change bound?";
  e.sizes = sizes;
  e.params = {
      {"itemsize", s}, {"peak", peak}, {"bandwidth", bw}, {"factor", factor}, {"asked", asked}};
  std::string list;
  for (double n : sizes) list += (list.empty() ? "" : ", ") + num(n);
  e.statement = "Square matmuls n×n·n×n in " + dtype_of(s) + " for n = " + list +
                " run under hypothetical budgets of " + num(peak) + " GFLOP/s and " + num(bw) +
                " GB/s. Suppose the real traffic is " + num(factor) +
                "× the minimum. Which sizes change from compute-bound to memory-bound, and what is "
                "the new ceiling for n = " +
                num(asked) + "?";
  Question q;
  q.id = "changed";
  q.prompt = "Sizes that change bound (a list, or none)";
  q.kind = "set";
  q.set = changed;
  for (double n : changed) q.exact += (q.exact.empty() ? "" : ", ") + num(n);
  if (q.exact.empty()) q.exact = "none";
  q.hints = {"A square matmul's intensity is 2n/(3·itemsize) flops per byte.",
             "More traffic divides the intensity by the factor; a size changes bound when it "
             "crosses the ridge."};
  Question c = number_q("ceiling", "New ceiling for n = " + num(asked) + " (GFLOP/s)", "GFLOP/s",
                        row.revised.ceiling, 1e-3);
  add_mistake(c, "minimum_traffic_ceiling", row.original.ceiling,
              "That is the ceiling with the minimum traffic: divide the intensity by " +
                  num(factor) + " first.");
  add_mistake(c, "factor_multiplied",
              model::ceiling(budgets, row.original.intensity * factor).value().ceiling,
              "More traffic lowers the intensity: divide by the factor, do not multiply.");
  c.hints = {"new intensity = intensity / factor.",
             "ceiling = min(peak, bandwidth × new intensity)."};
  e.questions = {q, c};
  e.solution = "ridge = " + num(peak) + "/" + num(bw) + " = " +
               format_number(std::round(model::ridge(budgets) * 1e4) / 1e4) +
               "; intensities 2n/(3·" + num(s) + ") are ";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    e.solution += num(sizes[i]) + ": " +
                  format_number(std::round(rows[i].original.intensity * 1e3) / 1e3) +
                  (i + 1 == sizes.size() ? "" : ", ");
  e.solution += "; divided by " + num(factor) + " they become ";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    e.solution += format_number(std::round(rows[i].revised.intensity * 1e3) / 1e3) +
                  (i + 1 == sizes.size() ? "" : ", ");
  e.solution += ". Changed bound: " + q.exact + ". New ceiling for n = " + num(asked) + ": min(" +
                num(peak) + ", " + num(bw) + " × " +
                format_number(std::round(row.revised.intensity * 1e4) / 1e4) +
                ") = " + format_number(std::round(row.revised.ceiling * 100) / 100) + " GFLOP/s.";
  return e;
}

// The lesson's tanh(a @ b): dot_general then tanh, costed by the core's cost analysis.
Exercise read_ir_workload(Rng& rng) {
  const double m = rng.pick(kSmallDims), k = rng.pick(kSmallDims), n = rng.pick(kSmallDims);
  Exercise e;
  e.family = "read_ir";
  e.title = "Read the IR: count what XLA's cost analysis counts";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", 4}};
  e.ir = hlo::emit_workload(m, k, n, "f32").value();
  const hlo::Analysis a = costs_of(e.ir);
  const hlo::OpCost &dot = op_named(a, "dot"), &tanh = op_named(a, "tanh");
  const double flops = a.flops, trans = a.transcendentals, bytes = a.bytes_accessed,
               minimum = a.minimum_traffic_bytes;
  e.statement =
      "Below is the StableHLO of tanh(a @ b). By XLA's counting rules (HloCostAnalysis, each op on "
      "its " +
      std::string("own), how many flops, transcendentals and bytes accessed does it have?");
  Question f = number_q("flops", "flops", "flops", flops, 0);
  add_mistake(f, "tanh_as_flops", flops + trans,
              "tanh is a transcendental: XLA counts it apart, with 0 flops.");
  add_mistake(
      f, "mkn_not_2mkn", m * k * n,
      "dot_general counts 2 flops per multiply-add: 2 × output elements × contracting size.");
  f.hints = {"Only dot_general has flops here.", "2 × (output elements) × (contracting size)."};
  Question t = number_q("transcendentals", "transcendentals", "", trans, 0);
  add_mistake(t, "tanh_not_counted", 0, "tanh counts one transcendental per output element.");
  t.hints = {"One per element of tanh's output."};
  Question b = number_q("bytes", "bytes accessed", "bytes", bytes, 0);
  add_mistake(b, "minimum_traffic", minimum,
              "That is the minimum traffic: XLA counts each op's operands and output, so the "
              "intermediate a@b is written by dot_general and read again by tanh.");
  add_mistake(b, "intermediate_once", minimum + 4 * m * n,
              "The intermediate is counted twice: written by dot_general and read by tanh.");
  b.hints = {
      "dot_general reads a and b and writes its result; tanh reads that result and writes its own.",
      "Each f32 element is 4 bytes."};
  e.questions = {f, t, b};
  e.solution = "dot_general: 2·" + num(m) + "·" + num(n) + "·" + num(k) + " = " + num(dot.flops) +
               " flops, bytes 4·(" + num(m * k) + " + " + num(k * n) + " + " + num(m * n) +
               ") = " + num(dot.bytes_accessed) + "; tanh: 0 flops, " + num(tanh.transcendentals) +
               " transcendentals, bytes 4·(" + num(m * n) + " + " + num(m * n) +
               ") = " + num(tanh.bytes_accessed) + ". Total bytes accessed " + num(bytes) +
               " = minimum traffic " + num(minimum) + " + " + num(bytes - minimum) +
               " for the intermediate written and read back.";
  return e;
}

// An MLP layer relu(x @ w + b): dot_general, broadcast_in_dim, add, a broadcast zero, maximum.
Exercise read_ir_mlp(Rng& rng) {
  const double B = rng.pick(kSmallDims), I = rng.pick(kSmallDims), O = rng.pick(kSmallDims);
  Exercise e;
  e.family = "read_ir";
  e.title = "Read the IR: an MLP layer, op by op";
  e.params = {{"batch", B}, {"d_in", I}, {"d_out", O}, {"itemsize", 4}};
  e.ir = hlo::emit_mlp_layer(B, I, O, "f32").value();
  const hlo::Analysis a = costs_of(e.ir);
  const double dot = op_named(a, "dot").flops, add = op_named(a, "add").flops;
  const double flops = a.flops,
               elementwise = flops - dot;  // add and maximum, one flop each per element
  const double bytes = a.bytes_accessed, minimum = a.minimum_traffic_bytes;
  e.statement =
      "Below is the StableHLO of relu(x @ w + b). By XLA's counting rules (HloCostAnalysis, each "
      "op on its " +
      std::string("own), how many flops, transcendentals and bytes accessed does it have?");
  Question f = number_q("flops", "flops", "flops", flops, 0);
  add_mistake(f, "elementwise_left_out", dot,
              "add and maximum count one flop per output element each.");
  add_mistake(f, "broadcast_flops", dot + elementwise + 2 * B * O,
              "broadcast_in_dim only moves data: 0 flops.");
  add_mistake(f, "mkn_not_2mkn", B * O * I + elementwise,
              "dot_general counts 2 flops per multiply-add.");
  f.hints = {"dot_general: 2 × output elements × contracting size; add and maximum: 1 per element.",
             "broadcast_in_dim and constant have no flops."};
  Question t = number_q("transcendentals", "transcendentals", "", a.transcendentals, 0);
  t.hints = {"Which ops here are transcendental (exp, log, tanh, …)?"};
  Question b = number_q("bytes", "bytes accessed", "bytes", bytes, 0);
  add_mistake(b, "minimum_traffic", minimum,
              "That is the minimum traffic: XLA counts every op's operands and output, "
              "intermediates included.");
  b.hints = {
      "Add, for each op, the bytes of its operands and of its output (constants count nothing).",
      "broadcast_in_dim reads its small input and writes the full " + num(B) + "×" + num(O) +
          " result."};
  e.questions = {f, t, b};
  e.solution = "flops: dot_general 2·" + num(B) + "·" + num(O) + "·" + num(I) + " = " + num(dot) +
               ", add and maximum " + num(add) + " each: " + num(flops) +
               "; no transcendentals; bytes: dot 4·(" + num(B * I) + " + " + num(I * O) + " + " +
               num(B * O) + "), broadcast of b 4·(" + num(O) + " + " + num(B * O) + "), add 4·3·" +
               num(B * O) + ", broadcast of 0 4·(1 + " + num(B * O) + "), maximum 4·3·" +
               num(B * O) + " = " + num(bytes) + " bytes (the minimum traffic is " + num(minimum) +
               ").";
  return e;
}

Exercise read_ir(Rng& rng) { return rng.next() % 2 ? read_ir_mlp(rng) : read_ir_workload(rng); }

// Unfused, XLA's cost analysis of the emitted module counts each op's bytes; fused into one
// kernel, only the module's arguments and result cross: its minimum traffic.
Exercise fusion(Rng& rng) {
  const double m = rng.pick(kDims), k = rng.pick(kDims), n = rng.pick(kDims);
  const double s = rng.pick(std::vector<double>{2, 4});
  const hlo::Analysis a = costs_of(hlo::emit_workload(m, k, n, dtype_of(s)).value());
  const double fused = a.minimum_traffic_bytes, unfused = a.bytes_accessed, saved = unfused - fused;
  Exercise e;
  e.family = "fusion";
  e.title = "Fused or not: the traffic of tanh(a @ b)";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", s}};
  e.statement =
      "tanh(a @ b) with a (" + num(m) + "×" + num(k) + ") and b (" + num(k) + "×" + num(n) +
      ") in " + dtype_of(s) +
      ". Unfused, dot_general writes a@b and tanh reads it back; fused into one kernel, only a, b "
      "and the result " +
      "cross the boundary. Give the bytes accessed both ways (XLA's rules) and what fusion saves.";
  Question u = number_q("unfused", "Unfused bytes accessed", "bytes", unfused, 0);
  add_mistake(u, "intermediate_once", fused + s * m * n,
              "The intermediate moves twice: written by dot_general and read by tanh.");
  add_mistake(u, "fused_traffic", fused,
              "That is the fused traffic: unfused, the intermediate is written and read back.");
  u.hints = {"Add each op's operands and output.", "The intermediate has m·n elements."};
  Question f =
      number_q("fused", "Fused bytes accessed (at the fusion boundary)", "bytes", fused, 0);
  add_mistake(f, "unfused_traffic", unfused,
              "Fused, the intermediate stays inside the kernel: count only a, b and the result.");
  f.hints = {"Only the fusion's operands and its output cross the boundary."};
  Question v = number_q("saved", "Bytes fusion saves", "bytes", saved, 0);
  add_mistake(v, "intermediate_once", s * m * n,
              "The intermediate is both written and read: 2·m·n·itemsize.");
  v.hints = {"unfused − fused."};
  e.questions = {u, f, v};
  e.solution = "fused = " + num(s) + "·(" + num(m * k) + " + " + num(k * n) + " + " + num(m * n) +
               ") = " + num(fused) +
               " bytes; unfused adds the intermediate written and read back, 2·" + num(s) + "·" +
               num(m * n) + " = " + num(saved) + ", so " + num(unfused) + " bytes; fusion saves " +
               num(saved) + " bytes.";
  return e;
}

// The one list of families: ids, what the page calls them, and their generators, in turn order.
struct FamilyEntry {
  Family family;
  Exercise (*make)(Rng&);
};
const std::vector<FamilyEntry>& family_table() {
  static const std::vector<FamilyEntry> table = {
      {{"work_traffic", "work and traffic of a matmul"}, work_traffic},
      {{"bound", "bound and ceiling under budgets"}, bound},
      {{"traffic_factor", "the effect of more traffic"}, traffic_factor},
      {{"read_ir", "reading an IR"}, read_ir},
      {{"fusion", "fused vs unfused traffic"}, fusion},
  };
  return table;
}

std::string joined(const std::vector<std::string>& xs, const std::string& sep) {
  std::string out;
  for (const auto& x : xs) out += (out.empty() ? "" : sep) + x;
  return out;
}

std::string squash(std::string_view s) {
  std::string out;
  for (unsigned char c : s)
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  return out;
}

}  // namespace

const std::vector<Family>& family_list() {
  static const std::vector<Family> list = [] {
    std::vector<Family> out;
    for (const auto& entry : family_table()) out.push_back(entry.family);
    return out;
  }();
  return list;
}

const std::vector<std::string>& families() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const auto& f : family_list()) out.push_back(f.id);
    return out;
  }();
  return ids;
}

namespace {

// The families a set takes turns through, or why `only` names none of ours.
Result<std::vector<const FamilyEntry*>> chosen_families(const std::vector<std::string>& only) {
  using R = Result<std::vector<const FamilyEntry*>>;
  std::vector<const FamilyEntry*> chosen;
  for (const auto& f : only) {
    auto it = std::find_if(family_table().begin(), family_table().end(),
                           [&](const FamilyEntry& e) { return e.family.id == f; });
    if (it == family_table().end())
      return R::failure("family must be one of " + joined(families(), ", ") + ", got \"" + f +
                        "\"");
    chosen.push_back(&*it);
  }
  if (chosen.empty())
    for (const auto& entry : family_table()) chosen.push_back(&entry);
  return R::success(std::move(chosen));
}

Exercise make_exercise(std::string_view seed, const std::vector<const FamilyEntry*>& chosen,
                       int i) {
  const FamilyEntry& family = *chosen[static_cast<std::size_t>(i) % chosen.size()];
  Rng rng(fnv1a(seed) ^ (fnv1a(family.family.id) * 31) ^
          (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1)));
  Exercise e = family.make(rng);
  e.index = i;
  return e;
}

Error set_error(std::string_view seed, int count) {
  if (count < 1 || count > 100)
    return {"count must be an integer from 1 to 100, got " + std::to_string(count), "count", 0, 0};
  if (seed.empty()) return {"seed must not be empty", "seed", 0, 0};
  return {};
}

}  // namespace

Result<std::vector<Exercise>> generate(std::string_view seed, int count,
                                       const std::vector<std::string>& only) {
  using R = Result<std::vector<Exercise>>;
  if (auto e = set_error(seed, count); !e.message.empty()) return R::failure(e.message);
  auto chosen = chosen_families(only);
  if (!chosen) return R::failure_from(chosen);
  std::vector<Exercise> out;
  for (int i = 0; i < count; ++i) out.push_back(make_exercise(seed, chosen.value(), i));
  return R::success(std::move(out));
}

Result<Exercise> generate_one(std::string_view seed, int count,
                              const std::vector<std::string>& only, int index) {
  using R = Result<Exercise>;
  if (auto e = set_error(seed, count); !e.message.empty()) return R::failure(e.message);
  auto chosen = chosen_families(only);
  if (!chosen) return R::failure_from(chosen);
  if (index < 0 || index >= count) {
    return R::failure("index must be an integer from 0 to " + std::to_string(count - 1) + ", got " +
                      std::to_string(index));
  }
  return R::success(make_exercise(seed, chosen.value(), index));
}

std::string variant_seed(std::string_view seed, std::string_view student) {
  std::size_t a = 0, b = student.size();
  while (a < b && std::isspace(static_cast<unsigned char>(student[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(student[b - 1]))) --b;
  if (a == b) return std::string(seed);
  return std::string(seed) + "/" + std::string(student.substr(a, b - a));
}

Exercise lesson_exercise(const model::Budgets& budgets) {
  const auto& a = model::lesson::kExerciseA;
  const auto& b = model::lesson::kExerciseB;
  const auto c = model::contract_shapes(double(a[0]), double(a[1]), double(b[0]), double(b[1]),
                                        double(model::lesson::kItemsize))
                     .value();
  const auto at = model::ceiling(budgets, c.intensity).value();
  const double m = double(c.m), k = double(c.k), n = double(c.n), s = double(c.itemsize);
  Exercise e;
  e.index = 0;
  e.family = "lesson";
  e.title = "The lesson's exercise: work, traffic, ratio and bound";
  e.params = {{"m", m},
              {"k", k},
              {"n", n},
              {"itemsize", s},
              {"peak", budgets.peak_gflops},
              {"bandwidth", budgets.bandwidth_gbs}};
  e.statement = "A matmul of shapes (" + num(m) + "," + num(k) + ") and (" + num(k) + "," + num(n) +
                ") in " + dtype_of(s) + ", under hypothetical budgets of " +
                num(budgets.peak_gflops) + " GFLOP/s and " + num(budgets.bandwidth_gbs) +
                " GB/s: its work, its minimum traffic, their ratio, and which budget bounds it.";
  e.questions = matmul_questions(c, kLessonRatioTolerance);
  e.questions.push_back(bound_question(at));
  e.solution = "work = 2·" + num(m) + "·" + num(k) + "·" + num(n) + " = " + num(double(c.flops)) +
               " flops; traffic = " + num(s) + "·(" + num(m) + "·" + num(k) + " + " + num(k) + "·" +
               num(n) + " + " + num(m) + "·" + num(n) + ") = " + num(double(c.minimum_bytes)) +
               " bytes; ratio = " + c.intensity_fraction + " ≈ " + sig4(c.intensity) +
               " flops/byte; bandwidth · ratio ≈ " + sig4(at.bandwidth_ceiling) +
               " GFLOP/s against a peak of " + num(budgets.peak_gflops) + ": " +
               model::bound_name(at.bound) + ".";
  return e;
}

Verdict check(const Question& q, std::string_view answer) {
  if (q.kind == "choice") {
    // The answer names one of the question's choices: by itself or by one of its aliases.
    // A question that lists no choices has one: its answer.
    const std::string a = squash(answer);
    const std::vector<std::string> choices =
        q.choices.empty() ? std::vector<std::string>{q.exact} : q.choices;
    std::string picked;
    for (const auto& choice : choices) {
      bool named = a == squash(choice);
      auto aliases = q.aliases.find(choice);
      if (aliases != q.aliases.end())
        for (const auto& alias : aliases->second) named |= a == squash(alias);
      if (named) picked = choice;
    }
    if (picked.empty()) return {false, "Answer " + joined(choices, " or ") + ".", "not_a_choice"};
    const std::vector<std::string> right =
        q.accepted.empty() ? std::vector<std::string>{q.exact} : q.accepted;
    if (std::find(right.begin(), right.end(), picked) != right.end()) {
      return {true, q.right_feedback.empty() ? "Correct: " + q.exact + "." : q.right_feedback,
              "right"};
    }
    return {false, "Not " + picked + (q.wrong_feedback.empty() ? "." : ": " + q.wrong_feedback),
            "other_choice"};
  }
  if (q.kind == "set") {
    std::vector<double> got;
    const std::string text(answer);
    if (squash(text) != "none" && squash(text) != "") {
      // The sizes are separated by commas, semicolons or white space. (Split by hand: a string
      // stream here pulled the iostreams' locale machinery, 68 kB of code, into the wasm core.)
      const auto separator = [](char c) {
        return c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c));
      };
      for (std::size_t i = 0; i < text.size();) {
        if (separator(text[i])) {
          ++i;
          continue;
        }
        std::size_t end = i;
        while (end < text.size() && !separator(text[end])) ++end;
        const std::string token = text.substr(i, end - i);
        i = end;
        auto qty = parse_quantity(token);
        if (!qty || qty->dimension != Dimension::none)
          return {false, "List the sizes as numbers, e.g. 32, 64 (or none).", "unreadable"};
        got.push_back(qty->value);
      }
    }
    std::sort(got.begin(), got.end());
    got.erase(std::unique(got.begin(), got.end()), got.end());
    if (got == q.set) return {true, "Correct: " + q.exact + ".", "right"};
    std::string missing, extra;
    for (double x : q.set)
      if (!std::binary_search(got.begin(), got.end(), x))
        missing += (missing.empty() ? "" : ", ") + format_number(x);
    for (double x : got)
      if (!std::binary_search(q.set.begin(), q.set.end(), x))
        extra += (extra.empty() ? "" : ", ") + format_number(x);
    std::string fb = "Not quite.";
    if (!extra.empty())
      fb += " " + extra + (extra.find(',') == std::string::npos ? " does" : " do") +
            " not change bound.";
    if (!missing.empty())
      fb += " One more changes bound" +
            std::string(missing.find(',') == std::string::npos ? "" : " (several)") +
            ": check every size against the ridge.";
    return {false, fb,
            extra.empty()     ? "sizes_missing"
            : missing.empty() ? "sizes_extra"
                              : "sizes_extra_and_missing"};
  }
  auto parsed = parse_quantity(answer);
  if (!parsed) return {false, parsed.error(), "unreadable"};
  auto x = in_unit(parsed.value(), q.unit);
  if (!x) return {false, x.error(), "wrong_unit"};
  const double v = q.value, got = x.value();
  auto near = [&](double target) {
    return q.rel_tolerance == 0 ? got == target
                                : std::fabs(got - target) <= q.rel_tolerance * std::fabs(target);
  };
  if (near(v))
    return {true, "Correct: " + q.exact + (q.unit.empty() ? "" : " " + q.unit) + ".", "right"};
  for (const auto& mistake : q.mistakes)
    if (near(mistake.value))
      return {false, mistake.feedback, mistake.id.empty() ? "known_mistake" : mistake.id};
  if (near(2 * v) || near(v / 2)) return {false, "Off by a factor of 2.", "factor_of_2"};
  if (q.rel_tolerance == 0 && std::fabs(got - v) <= 1e-3 * std::fabs(v)) {
    return {false, "Close, but this count is exact: give the whole number.", "not_exact"};
  }
  return {false, "Not quite." + (q.hints.empty() ? std::string() : " Hint: " + q.hints.front()),
          "other"};
}

// ---- as JSON (what generateExercises and the lesson's report hand the page) ----------------

void write_question_json(JsonWriter& j, const Question& q) {
  j.begin_object()
      .field("id", q.id)
      .field("prompt", q.prompt)
      .field("kind", q.kind)
      .field("unit", q.unit)
      .field("value", q.value)
      .field("exact", q.exact)
      .field("rel_tolerance", q.rel_tolerance);
  j.key("choices").begin_array();
  for (const auto& c : q.choices) j.value(c);
  j.end_array();
  j.key("hints").begin_array();
  for (const auto& h : q.hints) j.value(h);
  j.end_array();
  j.end_object();
}

std::string exercises_json(const std::vector<Exercise>& list) {
  JsonWriter j;
  j.begin_array();
  for (const auto& e : list) {
    j.begin_object()
        .field("index", e.index)
        .field("family", e.family)
        .field("title", e.title)
        .field("statement", e.statement)
        .field("ir", e.ir);
    j.key("params").begin_object();
    for (const auto& [name, value] : e.params) j.field(name, value);
    j.end_object();
    j.key("sizes").numbers(e.sizes);
    j.key("questions").begin_array();
    for (const auto& q : e.questions) write_question_json(j, q);
    j.end_array();
    j.field("solution", e.solution).end_object();
  }
  j.end_array();
  return j.text();
}

}  // namespace rl::exercises
