#include "exercises/exercises.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "common/numbers.h"
#include "exercises/answers.h"
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
  T pick(const std::vector<T>& xs) { return xs[next() % xs.size()]; }

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
std::string dtype_of(double itemsize) { return itemsize == 2 ? "bf16" : itemsize == 8 ? "f64" : "f32"; }
std::string fraction(double a, double b) {
  return reduced_fraction(static_cast<Count>(a), static_cast<Count>(b));
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
void add_mistake(Question& q, double value, std::string feedback) {
  if (std::fabs(value - q.value) > 1e-9 * std::max(1.0, std::fabs(q.value))) {
    q.mistakes.push_back({value, std::move(feedback)});
  }
}

std::string matmul_text(double m, double k, double n) {
  return "(" + num(m) + "×" + num(k) + ")·(" + num(k) + "×" + num(n) + ")";
}

// ---- the families ---------------------------------------------------------------------------

Exercise work_traffic(Rng& rng) {
  const double m = rng.pick(kDims), k = rng.pick(kDims), n = rng.pick(kDims);
  const double s = rng.pick(std::vector<double>{2, 4});
  const double other = s == 4 ? 2 : 4;
  const double flops = 2 * m * k * n, elements = m * k + k * n + m * n, bytes = s * elements;
  Exercise e;
  e.family = "work_traffic";
  e.title = "Work, minimum traffic and intensity of a matmul";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", s}};
  e.statement = "A matmul multiplies A (" + num(m) + "×" + num(k) + ") by B (" + num(k) + "×" + num(n) +
                ") in " + dtype_of(s) + " (" + num(s) + " bytes per element). Count its work in flops (the " +
                "multiply-adds only), its minimum traffic in bytes (each operand read once, the result " +
                "written once) and its intensity in flops per byte.";
  Question work = number_q("work", "Work (flops)", "flops", flops, 0);
  add_mistake(work, m * k * n, "You counted m·k·n = " + num(m * k * n) + ": each multiply-add is 2 flops, so the work is 2·m·k·n.");
  add_mistake(work, flops + m * n, "You included tanh (m·n = " + num(m * n) + " more): the model counts the matmul's multiply-adds only.");
  add_mistake(work, m * k * n + m * n, "That is m·k·n plus an elementwise op: count 2 flops per multiply-add and nothing for tanh.");
  work.hints = {"Each output element is a dot product of length k.", "A dot product of length k takes k multiplies and k adds."};
  Question traffic = number_q("traffic", "Minimum traffic (bytes)", "bytes", bytes, 0);
  add_mistake(traffic, elements, "That is the number of elements: bytes must use the itemsize, " + num(s) + " bytes per " + dtype_of(s) + " element.");
  add_mistake(traffic, other * elements, "That uses " + num(other) + " bytes per element; " + dtype_of(s) + " has " + num(s) + ".");
  add_mistake(traffic, s * (m * k + k * n), "You left out writing the result: C has m·n = " + num(m * n) + " elements.");
  add_mistake(traffic, 2 * bytes, "Minimum traffic reads each operand once and writes the result once.");
  traffic.hints = {"Three matrices move: A, B and the result C.", "bytes = itemsize·(m·k + k·n + m·n)."};
  Question ratio = number_q("ratio", "Intensity (flops per byte)", "flops/byte", flops / bytes, 1e-3,
                            fraction(flops, bytes));
  add_mistake(ratio, bytes / flops, "You divided bytes by flops: intensity is flops per byte.");
  add_mistake(ratio, flops / bytes / 2, "That is half: the work is 2·m·k·n.");
  add_mistake(ratio, flops / (other * elements), "That uses " + num(other) + " bytes per element; " + dtype_of(s) + " has " + num(s) + ".");
  ratio.hints = {"Divide the work by the traffic.", "Give it as a fraction or with 4 significant digits."};
  e.questions = {work, traffic, ratio};
  e.solution = "work = 2·" + num(m) + "·" + num(k) + "·" + num(n) + " = " + num(flops) + " flops; traffic = " + num(s) +
               "·(" + num(m) + "·" + num(k) + " + " + num(k) + "·" + num(n) + " + " + num(m) + "·" + num(n) + ") = " +
               num(bytes) + " bytes; intensity = " + num(flops) + "/" + num(bytes) + " = " + fraction(flops, bytes) +
               " ≈ " + format_number(std::round(flops / bytes * 1e4) / 1e4) + " flops per byte.";
  return e;
}

Exercise bound(Rng& rng) {
  double m, k, n, s, peak, bw, intensity;
  do {  // never exactly at the ridge: the question needs one answer
    m = rng.pick(kDims), k = rng.pick(kDims), n = rng.pick(kDims);
    s = rng.pick(std::vector<double>{2, 4});
    peak = rng.pick(kPeaks), bw = rng.pick(kBandwidths);
    intensity = 2 * m * k * n / (s * (m * k + k * n + m * n));
  } while (bw * intensity == peak);
  const double ridge = peak / bw, memory = bw * intensity, ceiling = std::min(peak, memory);
  const bool memory_bound = memory < peak;
  Exercise e;
  e.family = "bound";
  e.title = "Which budget bounds it, and at what ceiling?";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", s}, {"peak", peak}, {"bandwidth", bw}};
  e.statement = "The matmul " + matmul_text(m, k, n) + " in " + dtype_of(s) + " has intensity " +
                fraction(2 * m * k * n, s * (m * k + k * n + m * n)) + " flops per byte. Under hypothetical budgets of " +
                num(peak) + " GFLOP/s and " + num(bw) + " GB/s, find the ridge, the bound and the attainable ceiling.";
  Question r = number_q("ridge", "Ridge (flops per byte)", "flops/byte", ridge, 1e-3);
  add_mistake(r, bw / peak, "That is bandwidth / peak: the ridge is peak / bandwidth, in flops per byte.");
  r.hints = {"The ridge is where the bandwidth line reaches the peak.", "bandwidth · ridge = peak."};
  Question b;
  b.id = "bound";
  b.prompt = "Bound (memory-bound or compute-bound)";
  b.kind = "choice";
  b.choices = {"memory-bound", "compute-bound"};
  b.exact = memory_bound ? "memory-bound" : "compute-bound";
  b.hints = {"Compare the intensity with the ridge.", "Below the ridge, bandwidth limits; above it, the peak does."};
  Question c = number_q("ceiling", "Attainable ceiling (GFLOP/s)", "GFLOP/s", ceiling, 1e-3);
  if (memory_bound) add_mistake(c, peak, "Below the ridge the bandwidth line is under the peak: the ceiling is bandwidth × intensity.");
  else add_mistake(c, memory, "Above the ridge the peak caps it: the ceiling is min(peak, bandwidth × intensity).");
  c.hints = {"ceiling = min(peak, bandwidth × intensity).", "GB/s × flops/byte = GFLOP/s."};
  e.questions = {r, b, c};
  e.solution = "ridge = " + num(peak) + "/" + num(bw) + " = " + format_number(std::round(ridge * 1e4) / 1e4) +
               " flops per byte; intensity " + format_number(std::round(intensity * 1e4) / 1e4) + (memory_bound ? " < " : " > ") +
               "ridge, so it is " + b.exact + "; ceiling = min(" + num(peak) + ", " + num(bw) + " × " +
               format_number(std::round(intensity * 1e4) / 1e4) + ") = " + format_number(std::round(ceiling * 100) / 100) + " GFLOP/s.";
  return e;
}

Exercise traffic_factor(Rng& rng) {
  std::vector<double> sizes;
  double s, peak, bw, factor;
  auto intensity = [&](double n) { return 2 * n / (3 * s); };  // 2n³ / (s·3n²)
  for (;;) {
    std::set<double> chosen;
    while (chosen.size() < 4) chosen.insert(rng.pick(kDims));
    sizes.assign(chosen.begin(), chosen.end());
    s = rng.pick(std::vector<double>{2, 4});
    peak = rng.pick(kPeaks), bw = rng.pick(kBandwidths), factor = rng.pick(std::vector<double>{2, 3, 4});
    bool tie = false;
    for (double n : sizes) tie |= bw * intensity(n) == peak || bw * intensity(n) / factor == peak;
    if (!tie) break;
  }
  std::vector<double> changed;
  for (double n : sizes)
    if (bw * intensity(n) > peak && bw * intensity(n) / factor < peak) changed.push_back(n);
  const double asked = changed.empty() ? sizes[1] : changed.back();
  const double revised = std::min(peak, bw * intensity(asked) / factor);
  Exercise e;
  e.family = "traffic_factor";
  e.title = "More traffic: which sizes change bound?";
  e.sizes = sizes;
  e.params = {{"itemsize", s}, {"peak", peak}, {"bandwidth", bw}, {"factor", factor}, {"asked", asked}};
  std::string list;
  for (double n : sizes) list += (list.empty() ? "" : ", ") + num(n);
  e.statement = "Square matmuls n×n·n×n in " + dtype_of(s) + " for n = " + list + " run under hypothetical budgets of " +
                num(peak) + " GFLOP/s and " + num(bw) + " GB/s. Suppose the real traffic is " + num(factor) +
                "× the minimum. Which sizes change from compute-bound to memory-bound, and what is the new ceiling for n = " +
                num(asked) + "?";
  Question q;
  q.id = "changed";
  q.prompt = "Sizes that change bound (a list, or none)";
  q.kind = "set";
  q.set = changed;
  for (double n : changed) q.exact += (q.exact.empty() ? "" : ", ") + num(n);
  if (q.exact.empty()) q.exact = "none";
  q.hints = {"A square matmul's intensity is 2n/(3·itemsize) flops per byte.",
             "More traffic divides the intensity by the factor; a size changes bound when it crosses the ridge."};
  Question c = number_q("ceiling", "New ceiling for n = " + num(asked) + " (GFLOP/s)", "GFLOP/s", revised, 1e-3);
  add_mistake(c, std::min(peak, bw * intensity(asked)), "That is the ceiling with the minimum traffic: divide the intensity by " + num(factor) + " first.");
  add_mistake(c, std::min(peak, bw * intensity(asked) * factor), "More traffic lowers the intensity: divide by the factor, do not multiply.");
  c.hints = {"new intensity = intensity / factor.", "ceiling = min(peak, bandwidth × new intensity)."};
  e.questions = {q, c};
  e.solution = "ridge = " + num(peak) + "/" + num(bw) + " = " + format_number(std::round(peak / bw * 1e4) / 1e4) +
               "; intensities 2n/(3·" + num(s) + ") are ";
  for (double n : sizes) e.solution += num(n) + ": " + format_number(std::round(intensity(n) * 1e3) / 1e3) + (n == sizes.back() ? "" : ", ");
  e.solution += "; divided by " + num(factor) + " they become ";
  for (double n : sizes) e.solution += format_number(std::round(intensity(n) / factor * 1e3) / 1e3) + (n == sizes.back() ? "" : ", ");
  e.solution += ". Changed bound: " + q.exact + ". New ceiling for n = " + num(asked) + ": min(" + num(peak) + ", " + num(bw) +
                " × " + format_number(std::round(intensity(asked) / factor * 1e4) / 1e4) + ") = " +
                format_number(std::round(revised * 100) / 100) + " GFLOP/s.";
  return e;
}

// The lesson's tanh(a @ b): dot_general then tanh.
Exercise read_ir_workload(Rng& rng) {
  const double m = rng.pick(kSmallDims), k = rng.pick(kSmallDims), n = rng.pick(kSmallDims);
  const double flops = 2 * m * k * n, trans = m * n;
  const double minimum = 4 * (m * k + k * n + m * n), bytes = minimum + 2 * 4 * m * n;
  Exercise e;
  e.family = "read_ir";
  e.title = "Read the IR: count what XLA's cost analysis counts";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", 4}};
  e.ir = hlo::emit_workload(m, k, n, "f32").value();
  e.statement = "Below is the StableHLO of tanh(a @ b). By XLA's counting rules (HloCostAnalysis, each op on its " +
                std::string("own), how many flops, transcendentals and bytes accessed does it have?");
  Question f = number_q("flops", "flops", "flops", flops, 0);
  add_mistake(f, flops + trans, "tanh is a transcendental: XLA counts it apart, with 0 flops.");
  add_mistake(f, m * k * n, "dot_general counts 2 flops per multiply-add: 2 × output elements × contracting size.");
  f.hints = {"Only dot_general has flops here.", "2 × (output elements) × (contracting size)."};
  Question t = number_q("transcendentals", "transcendentals", "", trans, 0);
  add_mistake(t, 0, "tanh counts one transcendental per output element.");
  t.hints = {"One per element of tanh's output."};
  Question b = number_q("bytes", "bytes accessed", "bytes", bytes, 0);
  add_mistake(b, minimum, "That is the minimum traffic: XLA counts each op's operands and output, so the intermediate a@b is written by dot_general and read again by tanh.");
  add_mistake(b, minimum + 4 * m * n, "The intermediate is counted twice: written by dot_general and read by tanh.");
  b.hints = {"dot_general reads a and b and writes its result; tanh reads that result and writes its own.",
             "Each f32 element is 4 bytes."};
  e.questions = {f, t, b};
  e.solution = "dot_general: 2·" + num(m) + "·" + num(n) + "·" + num(k) + " = " + num(flops) + " flops, bytes 4·(" + num(m * k) + " + " +
               num(k * n) + " + " + num(m * n) + ") = " + num(minimum) + "; tanh: 0 flops, " + num(trans) +
               " transcendentals, bytes 4·(" + num(m * n) + " + " + num(m * n) + ") = " + num(8 * m * n) + ". Total bytes accessed " +
               num(bytes) + " = minimum traffic " + num(minimum) + " + " + num(8 * m * n) + " for the intermediate written and read back.";
  return e;
}

// An MLP layer relu(x @ w + b): dot_general, broadcast_in_dim, add, a broadcast zero, maximum.
Exercise read_ir_mlp(Rng& rng) {
  const double B = rng.pick(kSmallDims), I = rng.pick(kSmallDims), O = rng.pick(kSmallDims);
  const double dot = 2 * B * O * I, elementwise = 2 * B * O;  // add and maximum, one flop each per element
  const double flops = dot + elementwise;
  // Bytes op by op (f32): dot 4(BI + IO + BO); broadcast of b 4(O + BO); add 4·3BO;
  // broadcast of the zero 4(1 + BO); maximum 4·3BO.
  const double bytes = 4 * (B * I + I * O + B * O + O + B * O + 3 * B * O + 1 + B * O + 3 * B * O);
  const double minimum = 4 * (B * I + I * O + O + B * O);
  Exercise e;
  e.family = "read_ir";
  e.title = "Read the IR: an MLP layer, op by op";
  e.params = {{"batch", B}, {"d_in", I}, {"d_out", O}, {"itemsize", 4}};
  e.ir = hlo::emit_mlp_layer(B, I, O, "f32").value();
  e.statement = "Below is the StableHLO of relu(x @ w + b). By XLA's counting rules (HloCostAnalysis, each op on its " +
                std::string("own), how many flops, transcendentals and bytes accessed does it have?");
  Question f = number_q("flops", "flops", "flops", flops, 0);
  add_mistake(f, dot, "add and maximum count one flop per output element each.");
  add_mistake(f, dot + elementwise + 2 * B * O, "broadcast_in_dim only moves data: 0 flops.");
  add_mistake(f, B * O * I + elementwise, "dot_general counts 2 flops per multiply-add.");
  f.hints = {"dot_general: 2 × output elements × contracting size; add and maximum: 1 per element.",
             "broadcast_in_dim and constant have no flops."};
  Question t = number_q("transcendentals", "transcendentals", "", 0, 0);
  t.hints = {"Which ops here are transcendental (exp, log, tanh, …)?"};
  Question b = number_q("bytes", "bytes accessed", "bytes", bytes, 0);
  add_mistake(b, minimum, "That is the minimum traffic: XLA counts every op's operands and output, intermediates included.");
  b.hints = {"Add, for each op, the bytes of its operands and of its output (constants count nothing).",
             "broadcast_in_dim reads its small input and writes the full " + num(B) + "×" + num(O) + " result."};
  e.questions = {f, t, b};
  e.solution = "flops: dot_general 2·" + num(B) + "·" + num(O) + "·" + num(I) + " = " + num(dot) + ", add and maximum " + num(B * O) +
               " each: " + num(flops) + "; no transcendentals; bytes: dot 4·(" + num(B * I) + " + " + num(I * O) + " + " + num(B * O) +
               "), broadcast of b 4·(" + num(O) + " + " + num(B * O) + "), add 4·3·" + num(B * O) + ", broadcast of 0 4·(1 + " +
               num(B * O) + "), maximum 4·3·" + num(B * O) + " = " + num(bytes) + " bytes (the minimum traffic is " + num(minimum) + ").";
  return e;
}

Exercise read_ir(Rng& rng) { return rng.next() % 2 ? read_ir_mlp(rng) : read_ir_workload(rng); }

Exercise fusion(Rng& rng) {
  const double m = rng.pick(kDims), k = rng.pick(kDims), n = rng.pick(kDims);
  const double s = rng.pick(std::vector<double>{2, 4});
  const double fused = s * (m * k + k * n + m * n), saved = 2 * s * m * n, unfused = fused + saved;
  Exercise e;
  e.family = "fusion";
  e.title = "Fused or not: the traffic of tanh(a @ b)";
  e.params = {{"m", m}, {"k", k}, {"n", n}, {"itemsize", s}};
  e.statement = "tanh(a @ b) with a (" + num(m) + "×" + num(k) + ") and b (" + num(k) + "×" + num(n) + ") in " + dtype_of(s) +
                ". Unfused, dot_general writes a@b and tanh reads it back; fused into one kernel, only a, b and the result " +
                "cross the boundary. Give the bytes accessed both ways (XLA's rules) and what fusion saves.";
  Question u = number_q("unfused", "Unfused bytes accessed", "bytes", unfused, 0);
  add_mistake(u, fused + s * m * n, "The intermediate moves twice: written by dot_general and read by tanh.");
  add_mistake(u, fused, "That is the fused traffic: unfused, the intermediate is written and read back.");
  u.hints = {"Add each op's operands and output.", "The intermediate has m·n elements."};
  Question f = number_q("fused", "Fused bytes accessed (at the fusion boundary)", "bytes", fused, 0);
  add_mistake(f, unfused, "Fused, the intermediate stays inside the kernel: count only a, b and the result.");
  f.hints = {"Only the fusion's operands and its output cross the boundary."};
  Question v = number_q("saved", "Bytes fusion saves", "bytes", saved, 0);
  add_mistake(v, s * m * n, "The intermediate is both written and read: 2·m·n·itemsize.");
  v.hints = {"unfused − fused."};
  e.questions = {u, f, v};
  e.solution = "fused = " + num(s) + "·(" + num(m * k) + " + " + num(k * n) + " + " + num(m * n) + ") = " + num(fused) +
               " bytes; unfused adds the intermediate written and read back, 2·" + num(s) + "·" + num(m * n) + " = " + num(saved) +
               ", so " + num(unfused) + " bytes; fusion saves " + num(saved) + " bytes.";
  return e;
}

std::string squash(std::string_view s) {
  std::string out;
  for (unsigned char c : s)
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  return out;
}

}  // namespace

const std::vector<std::string>& families() {
  static const std::vector<std::string> names = {"work_traffic", "bound", "traffic_factor", "read_ir", "fusion"};
  return names;
}

Result<std::vector<Exercise>> generate(std::string_view seed, int count, const std::vector<std::string>& only) {
  using R = Result<std::vector<Exercise>>;
  if (count < 1 || count > 100) return R::failure("count must be an integer from 1 to 100, got " + std::to_string(count));
  if (seed.empty()) return R::failure("seed must not be empty");
  for (const auto& f : only) {
    if (std::find(families().begin(), families().end(), f) == families().end()) {
      return R::failure("family must be one of work_traffic, bound, traffic_factor, read_ir, fusion, got \"" + f + "\"");
    }
  }
  const std::vector<std::string>& chosen = only.empty() ? families() : only;
  std::vector<Exercise> out;
  for (int i = 0; i < count; ++i) {
    const std::string& family = chosen[static_cast<std::size_t>(i) % chosen.size()];
    Rng rng(fnv1a(seed) ^ (fnv1a(family) * 31) ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1)));
    Exercise e = family == "work_traffic" ? work_traffic(rng)
                 : family == "bound"      ? bound(rng)
                 : family == "traffic_factor" ? traffic_factor(rng)
                 : family == "read_ir"    ? read_ir(rng)
                                          : fusion(rng);
    e.index = i;
    out.push_back(std::move(e));
  }
  return R::success(std::move(out));
}

Verdict check(const Question& q, std::string_view answer) {
  if (q.kind == "choice") {
    const std::string a = squash(answer);
    std::string picked;
    if (a == "memory" || a == "memorybound" || a == "bandwidth" || a == "bandwidthbound") picked = "memory-bound";
    else if (a == "compute" || a == "computebound" || a == "peak" || a == "peakbound") picked = "compute-bound";
    if (picked.empty()) return {false, "Answer memory-bound or compute-bound."};
    if (picked == q.exact) return {true, "Correct: " + q.exact + "."};
    return {false, "Not " + picked + ": compare the intensity with the ridge (peak / bandwidth)."};
  }
  if (q.kind == "set") {
    std::vector<double> got;
    std::string token;
    const std::string text(answer);
    if (squash(text) != "none" && squash(text) != "") {
      std::string cleaned;
      for (char c : text) cleaned += (c == ',' || c == ';') ? ' ' : c;
      std::istringstream in(cleaned);
      while (in >> token) {
        auto qty = parse_quantity(token);
        if (!qty || qty->dimension != Dimension::none) return {false, "List the sizes as numbers, e.g. 32, 64 (or none)."};
        got.push_back(qty->value);
      }
    }
    std::sort(got.begin(), got.end());
    got.erase(std::unique(got.begin(), got.end()), got.end());
    if (got == q.set) return {true, "Correct: " + q.exact + "."};
    std::string missing, extra;
    for (double x : q.set)
      if (!std::binary_search(got.begin(), got.end(), x)) missing += (missing.empty() ? "" : ", ") + format_number(x);
    for (double x : got)
      if (!std::binary_search(q.set.begin(), q.set.end(), x)) extra += (extra.empty() ? "" : ", ") + format_number(x);
    std::string fb = "Not quite.";
    if (!extra.empty()) fb += " " + extra + (extra.find(',') == std::string::npos ? " does" : " do") + " not change bound.";
    if (!missing.empty()) fb += " One more changes bound" + std::string(missing.find(',') == std::string::npos ? "" : " (several)") + ": check every size against the ridge.";
    return {false, fb};
  }
  auto parsed = parse_quantity(answer);
  if (!parsed) return {false, parsed.error()};
  auto x = in_unit(parsed.value(), q.unit);
  if (!x) return {false, x.error()};
  const double v = q.value, got = x.value();
  auto near = [&](double target) {
    return q.rel_tolerance == 0 ? got == target : std::fabs(got - target) <= q.rel_tolerance * std::fabs(target);
  };
  if (near(v)) return {true, "Correct: " + q.exact + (q.unit.empty() ? "" : " " + q.unit) + "."};
  for (const auto& mistake : q.mistakes)
    if (near(mistake.value)) return {false, mistake.feedback};
  if (near(2 * v) || near(v / 2)) return {false, "Off by a factor of 2."};
  if (q.rel_tolerance == 0 && std::fabs(got - v) <= 1e-3 * std::fabs(v)) {
    return {false, "Close, but this count is exact: give the whole number."};
  }
  return {false, "Not quite." + (q.hints.empty() ? std::string() : " Hint: " + q.hints.front())};
}

}  // namespace rl::exercises
