// The cost rules, one per op family, after XLA's HloCostAnalysis (xla/service/hlo_cost_analysis.cc).
#include "hlo/cost.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "common/numbers.h"
#include "hlo/attrs.h"
#include "hlo/parse.h"
#include "hlo/verify.h"

namespace rl::hlo {

namespace {

enum class Family {
  Zero, Elementwise, Transcendental, Data, Slice, DynamicSlice, DynamicUpdateSlice, Gather,
  Scatter, Dot, Convolution, Reduce, ReduceWindow, SelectAndScatter, Map, Sort, Fft,
  TriangularSolve, Cholesky, Rng, RngBitGenerator, AllReduce, AllGather, ReduceScatter,
  AllToAll, CollectivePermute, While, Conditional, Call, Fusion, AsyncStart, Tuple, CustomCall,
  Unmodeled,
};

const std::unordered_map<std::string, Family>& families() {
  static const auto* table = [] {
    auto* t = new std::unordered_map<std::string, Family>();
    for (const char* n : {"constant", "parameter", "get-tuple-element", "return", "bitcast",
                          "after-all", "add-dependency", "domain", "create-token", "all-reduce-done",
                          "all-gather-done", "collective-permute-done", "async-done", "async-update",
                          "send-done", "recv-done", "copy-done", "optimization-barrier", "opt-barrier",
                          "reduce-scatter-done", "all-to-all-done", "custom-call-done", "custom-call-update"})
      (*t)[n] = Family::Zero;
    for (const char* n : {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum",
                          "and", "or", "xor", "not", "negate", "abs", "sign", "floor", "ceil",
                          "round-nearest-afz", "round-nearest-even", "compare", "select", "clamp",
                          "convert", "bitcast-convert", "shift-left", "shift-right-logical",
                          "shift-right-arithmetic", "popcnt", "clz", "count-leading-zeros",
                          "is-finite", "real", "imag", "complex", "reduce-precision",
                          "stochastic-convert"})
      (*t)[n] = Family::Elementwise;
    for (const char* n : {"exponential", "exponential-minus-one", "log", "log-plus-one", "logistic",
                          "power", "sqrt", "cbrt", "rsqrt", "tanh", "sine", "cosine", "tan", "atan2",
                          "erf"})
      (*t)[n] = Family::Transcendental;
    for (const char* n : {"broadcast", "reshape", "transpose", "reverse", "concatenate", "pad", "copy",
                          "iota", "dynamic-reshape", "dynamic-broadcast-in-dim", "dynamic-iota",
                          "dynamic-pad", "get-dimension-size", "set-dimension-size", "partition-id",
                          "replica-id", "copy-start", "send", "recv", "infeed", "outfeed",
                          "rng-get-and-update-state"})
      (*t)[n] = Family::Data;
    (*t)["slice"] = Family::Slice;
    (*t)["dynamic-slice"] = Family::DynamicSlice;
    (*t)["dynamic-update-slice"] = Family::DynamicUpdateSlice;
    (*t)["gather"] = Family::Gather;
    (*t)["dynamic-gather"] = Family::Gather;
    (*t)["scatter"] = Family::Scatter;
    (*t)["dot"] = Family::Dot;
    (*t)["convolution"] = Family::Convolution;
    (*t)["reduce"] = Family::Reduce;
    (*t)["reduce-window"] = Family::ReduceWindow;
    (*t)["select-and-scatter"] = Family::SelectAndScatter;
    (*t)["map"] = Family::Map;
    (*t)["sort"] = Family::Sort;
    (*t)["fft"] = Family::Fft;
    (*t)["triangular-solve"] = Family::TriangularSolve;
    (*t)["cholesky"] = Family::Cholesky;
    (*t)["rng"] = Family::Rng;
    (*t)["rng-bit-generator"] = Family::RngBitGenerator;
    (*t)["all-reduce"] = Family::AllReduce;
    (*t)["all-reduce-start"] = Family::AllReduce;
    (*t)["all-gather"] = Family::AllGather;
    (*t)["all-gather-start"] = Family::AllGather;
    (*t)["reduce-scatter"] = Family::ReduceScatter;
    (*t)["all-to-all"] = Family::AllToAll;
    (*t)["collective-permute"] = Family::CollectivePermute;
    (*t)["collective-permute-start"] = Family::CollectivePermute;
    (*t)["collective-broadcast"] = Family::CollectivePermute;
    (*t)["ragged-all-to-all"] = Family::AllToAll;
    (*t)["tuple"] = Family::Tuple;
    (*t)["custom-call"] = Family::CustomCall;
    (*t)["while"] = Family::While;
    (*t)["conditional"] = Family::Conditional;
    (*t)["call"] = Family::Call;
    (*t)["composite"] = Family::Call;
    (*t)["fusion"] = Family::Fusion;
    (*t)["async-start"] = Family::AsyncStart;
    return t;
  }();
  return *table;
}

Family family_of(const std::string& canon) {
  auto it = families().find(canon);
  return it == families().end() ? Family::Unmodeled : it->second;
}

struct Props {
  double flops = 0, trans = 0, bytes = 0, out = 0, coll = 0;
  double unfused = 0;  // bytes as if every fused op ran alone (= bytes outside fusions)
  std::map<int, double> operand;
  std::map<std::string, int> unmodeled;
  std::vector<std::string> notes;

  void note(const std::string& n) {
    if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(n);
  }
  void merge_meta(const Props& o) {
    for (auto& [k, v] : o.unmodeled) unmodeled[k] += v;
    for (auto& n : o.notes) note(n);
  }
  // Everything, times k (calls, while bodies).
  void add_all(const Props& o, double k) {
    flops += o.flops * k;
    trans += o.trans * k;
    bytes += o.bytes * k;
    unfused += o.unfused * k;
    out += o.out * k;
    coll += o.coll * k;
    for (auto& [i, v] : o.operand) operand[i] += v * k;
    merge_meta(o);
  }
  // What XLA copies from a reducer/mapper: all but the bytes keys.
  void add_compute(const Props& o, double k) {
    flops += o.flops * k;
    trans += o.trans * k;
    coll += o.coll * k;
    merge_meta(o);
  }
};

std::int64_t log2_floor(std::int64_t v) {
  std::int64_t r = 0;
  while (v > 1) v >>= 1, ++r;
  return r;
}
std::int64_t log2_ceil(std::int64_t v) {
  std::int64_t r = log2_floor(v);
  return (v > 0 && (std::int64_t(1) << r) < v) ? r + 1 : r;
}

// XLA's count of kernel positions that land on the input in one spatial dimension, in closed
// form (XLA loops over them). -1 when sizes are too large to count exactly in 64 bits.
double valid_positions(std::int64_t in, std::int64_t kernel, std::int64_t out, const WindowDim& w) {
  constexpr std::int64_t kBig = std::int64_t(1) << 40, kSmall = std::int64_t(1) << 20;
  if (in < 0 || kernel < 0 || out < 0 || in > kBig || kernel > (std::int64_t(1) << 24) || out > kBig || w.stride < 1 ||
      w.stride > kSmall || w.base_dilation < 1 || w.base_dilation > kSmall || w.window_dilation < 1 ||
      w.window_dilation > kSmall || w.pad_low < -kBig || w.pad_low > kBig)
    return -1;
  if (in == out && kernel == out && in == w.base_dilation && w.window_dilation == 1 &&
      std::max<std::int64_t>(1, in - 1) == w.stride && w.pad_low == 0 && w.pad_high == 0)
    return static_cast<double>(in);
  if (in == 1 && kernel == out && w.window_dilation == 1 && w.base_dilation == 1 && w.stride == 1 &&
      w.pad_high == out - 1 && w.pad_low == out - 1)
    return static_cast<double>(out);
  auto fdiv = [](std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  auto cdiv = [&](std::int64_t a, std::int64_t b) { return -fdiv(-a, b); };
  auto mod = [](std::int64_t a, std::int64_t m) { return ((a % m) + m) % m; };
  const std::int64_t s = w.stride, bd = w.base_dilation;
  double count = 0;
  for (std::int64_t k = 0; k < kernel; ++k) {
    // Output o reads undilated input index u = o·s + c; it lands on input element u / bd when
    // bd divides u and 0 <= u <= (in − 1)·bd.
    const std::int64_t c = k * w.window_dilation - w.pad_low;
    const std::int64_t lo = std::max<std::int64_t>(0, cdiv(-c, s));
    const std::int64_t hi = std::min<std::int64_t>(out - 1, fdiv((in - 1) * bd - c, s));
    if (hi < lo) continue;
    if (bd == 1) {
      count += static_cast<double>(hi - lo + 1);
      continue;
    }
    // o·s ≡ −c (mod bd): solvable when g = gcd(s, bd) divides c; then o ≡ o0 (mod bd / g).
    std::int64_t g = s, b = bd;
    while (b) std::swap(g %= b, b);
    if (mod(c, g) != 0) continue;
    const std::int64_t period = bd / g, s1 = mod(s / g, period), target = mod(-(c / g), period);
    std::int64_t inv = 0;  // s1⁻¹ mod period by the extended Euclidean algorithm
    {
      std::int64_t r0 = period, r1 = s1, t0 = 0, t1 = 1;
      while (r1) {
        const std::int64_t q = r0 / r1;
        std::swap(r0 -= q * r1, r1);
        std::swap(t0 -= q * t1, t1);
      }
      inv = mod(t0, period);
    }
    const std::int64_t o0 = period == 1 ? 0 : (target * inv) % period;
    const std::int64_t first = lo + mod(o0 - lo, period);
    if (first <= hi) count += static_cast<double>((hi - first) / period + 1);
  }
  return count;
}

class Coster {
 public:
  explicit Coster(const Module& m) : m_(m) {}
  std::string error;
  std::vector<OpCost>* nested_rows = nullptr;  // op_costs: rows for ops inside regions too

  Props function_props(const Function* f, int depth) {
    auto it = memo_.find(f);
    if (it != memo_.end()) return it->second;
    if (active_.count(f) || depth > kMaxDepth) {
      if (error.empty() && depth > kMaxDepth)
        error = std::to_string(f->line) + ":" + std::to_string(f->column) + ": error: calls nest too deeply at " +
                f->name + " \xE2\x80\x94 expected at most 256 levels of calls and regions, got more";
      else if (error.empty())
        error = std::to_string(f->line) + ":" + std::to_string(f->column) + ": error: recursive call of " + f->name +
                " \xE2\x80\x94 expected a call graph without cycles, got a cycle through " + f->name;
      return Props();
    }
    active_.insert(f);
    std::vector<OpCost>* saved = nested_rows;
    nested_rows = nullptr;
    Props p = region_props(f->body, f, nullptr, depth + 1);
    nested_rows = saved;
    active_.erase(f);
    memo_[f] = p;
    return p;
  }

  Props region_props(const Region& r, const Function* fn, std::vector<OpCost>* rows, int depth) {
    Props total;
    if (depth > kMaxDepth) {
      if (error.empty()) error = "1:1: error: regions nest too deeply \xE2\x80\x94 expected at most 256 levels, got more";
      return total;
    }
    for (const auto& b : r.blocks)
      for (const auto& op : b.ops) {
        OpCost row;
        bool listed = false;
        Props p = op_props(op, fn, r, &row, &listed, depth);
        if (!error.empty()) return total;
        total.add_all(p, 1);
        if (rows && listed) rows->push_back(std::move(row));
      }
    return total;
  }

 private:
  const Module& m_;
  std::map<const Function*, Props> memo_;
  std::set<const Function*> active_;

  const Function* callee(const Op& op, const char* attr) {
    const Attribute* a = op.attr(attr);
    if (!a) return nullptr;
    return m_.find(symbol_name(a->value));
  }

  // The cost of one application of a sub-computation: region idx of the op, or the named
  // computation, or `applies stablehlo.add`.
  bool body(const Op& op, std::size_t idx, const char* attr, const Function* fn, int depth, Props* out) {
    if (op.regions.size() > idx) {
      *out = region_props(op.regions[idx], fn, nested_rows, depth + 1);
      return true;
    }
    if (attr) {
      if (const Function* f = callee(op, attr)) {
        *out = function_props(f, depth + 1);
        return true;
      }
    }
    if (const Attribute* a = op.attr("applies")) {
      Family f = family_of(canonical_op(a->value));
      *out = Props();
      if (f == Family::Elementwise) out->flops = 1;
      else if (f == Family::Transcendental) out->trans = 1;
      else out->unmodeled[a->value] += 1;
      return true;
    }
    return false;
  }

  static double size_of(const Type& t) { return t.byte_size(); }

  Props op_props(const Op& op, const Function* fn, const Region& enclosing, OpCost* row, bool* listed, int depth) {
    Props p;
    const std::string canon = canonical_op(op.name);
    const Family fam = family_of(canon);
    row->line = op.line;
    row->column = op.column;
    row->op = op.name;
    row->function = fn ? fn->name : "";
    if (!op.result_types.empty()) {
      if (op.result_types.size() == 1) row->shape = to_string(op.result_types[0], m_.dialect);
      else {
        row->shape = "(";
        for (std::size_t i = 0; i < op.result_types.size(); ++i)
          row->shape += (i ? ", " : "") + to_string(op.result_types[i], m_.dialect);
        row->shape += ")";
      }
    }
    if (fam == Family::Zero) return p;
    *listed = true;

    auto unmodeled = [&](const std::string& why) {
      Props u;
      u.unmodeled[op.name] += 1;
      row->modeled = false;
      row->note = why;
      return u;
    };
    if (fam == Family::Unmodeled) return unmodeled("no cost rule for this op");

    // Defaults (XLA's Preprocess): every operand and the output, once.
    double out = 0;
    bool known = true;
    if (op.result_types.size() == 1) out = size_of(op.result_types[0]);
    else if (op.result_types.size() > 1) {
      out = 8.0 * static_cast<double>(op.result_types.size());  // a tuple: its index table
      for (const auto& t : op.result_types)
        if (!t.is_static()) known = false;
    }
    if (out < 0) known = false;
    std::vector<double> ob(op.operand_types.size());
    for (std::size_t i = 0; i < ob.size(); ++i) {
      ob[i] = size_of(op.operand_types[i]);
      if (ob[i] < 0) known = false;
    }
    auto finish = [&](Props& q) {
      row->flops = q.flops;
      row->transcendentals = q.trans;
      row->bytes_accessed = q.bytes;
      row->unfused_bytes_accessed = q.unfused;
      row->output_bytes = q.out;
      row->collective_bytes = q.coll;
      row->operand_bytes.clear();
      for (auto& [i, v] : q.operand) {
        if (i < 0 || i > 4096) continue;
        if (row->operand_bytes.size() <= static_cast<std::size_t>(i)) row->operand_bytes.resize(i + 1, 0);
        row->operand_bytes[i] = v;
      }
      row->intensity = q.bytes > 0 ? q.flops / q.bytes : std::numeric_limits<double>::quiet_NaN();
      if (!q.unmodeled.empty() && row->modeled && row->note.empty()) row->note = "contains ops without a cost rule";
      return q;
    };
    auto defaults = [&] {
      p.out = out;
      p.bytes = out;
      for (std::size_t i = 0; i < ob.size(); ++i) {
        p.operand[static_cast<int>(i)] = ob[i];
        p.bytes += ob[i];
      }
    };
    const bool replaces = fam == Family::While || fam == Family::Conditional || fam == Family::Call ||
                          fam == Family::AsyncStart || fam == Family::Fusion;
    if (fam == Family::CustomCall) {
      if (!known) return unmodeled("dynamic or unknown shape: counts need static shapes");
      return finish(p = custom_call(op, ob, row));
    }
    if (!known && !replaces) return unmodeled("dynamic or unknown shape: counts need static shapes");
    const double out_elems = op.result_types.empty() ? 0
                             : op.result_types[0].kind == Type::Kind::Tuple && !op.result_types[0].tuple.empty()
                                 ? op.result_types[0].tuple[0].elements()
                                 : op.result_types[0].elements();
    auto operand_elems = [&](std::size_t i) {
      if (i >= op.operand_types.size()) return 0.0;
      const Type& t = op.operand_types[i];
      if (t.kind == Type::Kind::Tuple) return t.tuple.empty() ? 0.0 : t.tuple[0].elements();
      return t.elements();
    };

    switch (fam) {
      case Family::Tuple:
        // XLA's HandleTuple: only the output's index table (8 bytes per element) is written;
        // the elements are not read.
        p.out = out;
        p.bytes = out;
        for (std::size_t i = 0; i < ob.size(); ++i) p.operand[static_cast<int>(i)] = 0;
        break;
      case Family::Elementwise:
        defaults();
        p.flops = out_elems;
        break;
      case Family::Transcendental:
        defaults();
        p.trans = out_elems;
        break;
      case Family::Data:
        defaults();
        break;
      case Family::Slice:
        defaults();
        p.bytes = out * 2;
        p.operand[0] = out;
        break;
      case Family::DynamicSlice:
      case Family::Gather:  // both read only what they output from operand 0, plus the indices
        defaults();
        p.bytes = out * 2 + (ob.size() > 1 ? ob[1] : 0);
        p.operand[0] = out;
        break;
      case Family::DynamicUpdateSlice: {
        defaults();
        double upd = ob.size() > 1 ? ob[1] : 0, idx = ob.size() > 2 ? ob[2] : 0;
        p.bytes = upd * 2 + idx;
        p.out = upd;
        p.operand[0] = 0;
        break;
      }
      case Family::Scatter: {
        defaults();
        const std::size_t n = op.operand_types.size() >= 3 ? (op.operand_types.size() - 1) / 2 : 0;
        double upd = 0;
        for (std::size_t i = 0; i < n; ++i) {
          double u = ob[n + 1 + i];
          p.operand[static_cast<int>(i)] = u;
          p.operand[static_cast<int>(n + 1 + i)] = u;
          upd += u;
        }
        double idx = n < ob.size() ? ob[n] : 0;
        p.bytes = upd * 3 + idx;
        p.out = upd;
        Props b;
        if (body(op, 0, "to_apply", fn, depth, &b)) p.add_compute(b, operand_elems(n + 1));
        else return finish(p = unmodeled("scatter without an update computation"));
        break;
      }
      case Family::Dot: {
        defaults();
        auto d = dot_dims(op);
        if (!d.ok() || op.operand_types.empty()) return unmodeled(d.ok() ? "dot without operands" : d.error());
        double width = 1;
        const auto& lhs = op.operand_types[0].dims;
        for (auto c : d->lhs_contracting)
          if (c >= 0 && static_cast<std::size_t>(c) < lhs.size()) width *= static_cast<double>(lhs[c]);
        p.flops = 2 * out_elems * width;
        break;
      }
      case Family::Convolution: {
        defaults();
        auto cd = conv_dims(op);
        if (!cd.ok() || op.operand_types.size() < 2) return unmodeled(cd.ok() ? "convolution needs two operands" : cd.error());
        const auto& l = op.operand_types[0].dims;
        const auto& k = op.operand_types[1].dims;
        const auto& o = op.result_types[0].dims;
        auto at = [](const std::vector<std::int64_t>& v, std::int64_t i) {
          return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)] : 1;
        };
        const std::size_t rank = cd->input_spatial.size();
        auto w = window(op, rank);
        if (!w.ok()) return unmodeled(w.error());
        double positions = 1;
        for (std::size_t s = 0; s < rank; ++s) {
          if (s >= cd->kernel_spatial.size() || s >= cd->output_spatial.size()) break;
          const double v = valid_positions(at(l, cd->input_spatial[s]), at(k, cd->kernel_spatial[s]),
                                           at(o, cd->output_spatial[s]), w.value()[s]);
          if (v < 0) return unmodeled("convolution window too large to count");
          positions *= v;
        }
        const double fgc = static_cast<double>(std::max<std::int64_t>(1, int_attr(op, "feature_group_count", 1)));
        const double bgc = static_cast<double>(std::max<std::int64_t>(1, int_attr(op, "batch_group_count", 1)));
        const double in_feature = static_cast<double>(at(l, cd->input_feature));
        const double out_feature = static_cast<double>(at(o, cd->output_feature));
        const double batch = static_cast<double>(at(l, cd->input_batch));
        p.flops = 2 * std::floor(in_feature / fgc) * out_feature * std::floor(batch / bgc) * positions;
        break;
      }
      case Family::Reduce: {
        defaults();
        Props b;
        if (!body(op, 0, "to_apply", fn, depth, &b)) return unmodeled("reduce without a reducer");
        p.add_compute(b, operand_elems(0) - out_elems);
        break;
      }
      case Family::ReduceWindow: {
        defaults();
        Props b;
        if (!body(op, 0, "to_apply", fn, depth, &b)) return unmodeled("reduce_window without a reducer");
        const std::size_t rank = op.operand_types.empty() ? 0 : op.operand_types[0].dims.size();
        auto w = window(op, rank);
        if (!w.ok()) return unmodeled(w.error());
        double window_elems = 1;
        for (const auto& d : w.value()) window_elems *= static_cast<double>(d.size);
        p.add_compute(b, (window_elems - 1) * out_elems);
        break;
      }
      case Family::SelectAndScatter: {
        defaults();
        Props sel, sc;
        if (!body(op, 0, "select", fn, depth, &sel) || !body(op, 1, "scatter", fn, depth, &sc))
          return unmodeled("select_and_scatter without its computations");
        const std::size_t rank = op.operand_types.empty() ? 0 : op.operand_types[0].dims.size();
        auto w = window(op, rank);
        if (!w.ok()) return unmodeled(w.error());
        double window_elems = 1;
        for (const auto& d : w.value()) window_elems *= static_cast<double>(d.size);
        const double source = operand_elems(1);
        p.add_compute(sel, source * (window_elems - 1));
        p.add_compute(sc, source);
        break;
      }
      case Family::Map: {
        defaults();
        Props b;
        if (!body(op, 0, "to_apply", fn, depth, &b)) return unmodeled("map without a computation");
        p.add_compute(b, out_elems);
        break;
      }
      case Family::Sort: {
        defaults();
        const double e = operand_elems(0);
        p.flops = e < 4e18 ? e * static_cast<double>(log2_ceil(static_cast<std::int64_t>(e))) : e * std::ceil(std::log2(e));
        break;
      }
      case Family::Fft: {
        defaults();
        std::vector<std::int64_t> len;
        if (auto* a = op.attr("length")) len = int_list(a->value);
        else if (auto* a2 = op.attr("fft_length")) len = int_list(a2->value);
        double factors = 1;
        for (auto l : len) factors *= static_cast<double>(log2_floor(l));
        p.flops = 2 * 4 * factors * operand_elems(0);
        break;
      }
      case Family::TriangularSolve: {
        defaults();
        const double a = ob.empty() ? 0 : ob[0], b = ob.size() > 1 ? ob[1] : 0;
        p.bytes = out + a / 2 + b;
        p.operand[0] = b;  // XLA sets operand 0's key twice; the second (operand 1's size) stays
        const auto& ad = op.operand_types.empty() ? std::vector<std::int64_t>() : op.operand_types[0].dims;
        p.flops = 2 * (ad.empty() ? 0.0 : static_cast<double>(ad.back())) * operand_elems(1);
        break;
      }
      case Family::Cholesky: {
        defaults();
        const double a = ob.empty() ? 0 : ob[0];
        p.bytes = a;
        p.out = a / 2;
        p.operand[0] = a / 2;
        const auto& ad = op.operand_types.empty() ? std::vector<std::int64_t>() : op.operand_types[0].dims;
        p.flops = std::floor((ad.empty() ? 0.0 : static_cast<double>(ad.back())) * operand_elems(0) / 3);
        break;
      }
      case Family::Rng:
        defaults();
        p.trans = out_elems;
        break;
      case Family::RngBitGenerator: {
        defaults();
        double e = 0;
        for (const auto& t : op.result_types) {
          if (t.kind == Type::Kind::Tuple)
            for (const auto& s : t.tuple) e += std::max(0.0, s.elements());
          else
            e += std::max(0.0, t.elements());
        }
        p.trans = e;
        break;
      }
      case Family::AllReduce: case Family::AllGather: case Family::ReduceScatter:
      case Family::AllToAll: case Family::CollectivePermute: {
        defaults();
        double leaves_out = 0, elems = 0;
        for (const auto& t : op.result_types) {
          if (t.kind == Type::Kind::Tuple)
            for (const auto& s : t.tuple) leaves_out += std::max(0.0, s.byte_size()), elems += std::max(0.0, s.elements());
          else
            leaves_out += std::max(0.0, t.byte_size()), elems += std::max(0.0, t.elements());
        }
        double leaves_in = 0;
        for (const auto& t : op.operand_types) leaves_in += std::max(0.0, t.leaf_bytes());
        // all-gather-start's result is the tuple (operands..., outputs...): the outputs alone.
        if (fam == Family::AllGather && canon == "all-gather-start" && op.result_types.size() == 1 &&
            op.result_types[0].kind == Type::Kind::Tuple)
          leaves_out = std::max(0.0, leaves_out - leaves_in);
        if (fam == Family::AllReduce) {
          p.flops = elems;
          p.out = leaves_out;
          p.bytes = leaves_out;
          for (double b : ob) p.bytes += b;
        }
        // collective_bytes: what one device sends over the links in a ring of the n devices of
        // its replica group (S: the operand bytes, O: the output bytes):
        //   all-reduce          2·(n−1)/n·S   (reduce-scatter pass, then all-gather pass)
        //   all-gather          (n−1)/n·O     (each device forwards the n−1 pieces it lacks)
        //   reduce-scatter      (n−1)/n·S
        //   all-to-all          (n−1)/n·S     (keeps 1/n of its data, sends the rest)
        //   collective-permute  S             (its buffer once to its target; broadcast alike)
        // n comes from replica_groups ({{0,1,2,3}} → 4, [2,4]<=[8] → 4); with empty groups, the
        // module's replica_count × num_partitions; unknown, the factor (n−1)/n is taken as 1.
        std::int64_t n = replica_group_size(op);
        double f = 1;
        if (n <= 0 && fam != Family::CollectivePermute) {
          n = module_devices();
          if (n > 0) row->note = "replica_groups empty: all " + std::to_string(n) + " devices of the module";
        }
        if (n > 0) f = static_cast<double>(n - 1) / static_cast<double>(n);
        else if (fam != Family::CollectivePermute)
          row->note = "replica group size unknown: ring factor (n-1)/n taken as 1";
        switch (fam) {
          case Family::AllReduce: p.coll = 2 * f * leaves_in; break;
          case Family::AllGather: p.coll = f * leaves_out; break;
          case Family::ReduceScatter: case Family::AllToAll: p.coll = f * leaves_in; break;
          default: p.coll = leaves_in; break;
        }
        break;
      }
      case Family::While: {
        Props b, c;
        bool have_b = body(op, 1, "body", fn, depth, &b);
        bool have_c = body(op, 0, "condition", fn, depth, &c);
        if (!have_b || !have_c) return unmodeled("while without its condition and body");
        std::int64_t trips = known_trip_count(op);
        double k = trips >= 0 ? static_cast<double>(trips) : 1;
        p.add_all(b, k);
        p.add_all(c, k);
        if (trips >= 0) row->note = "body and condition counted " + std::to_string(trips) + " times (known_trip_count)";
        else {
          row->note = "trip count unknown: body counted once";
          p.note("a while loop without a known trip count is counted once (line " + std::to_string(op.line) + ")");
        }
        break;
      }
      case Family::Conditional: {
        std::vector<Props> branches;
        for (std::size_t i = 0; i < op.regions.size(); ++i) branches.push_back(region_props(op.regions[i], fn, nested_rows, depth + 1));
        if (branches.empty()) {
          std::vector<std::string> names;
          if (auto* a = op.attr("branch_computations")) {
            std::string v = a->value, cur;
            for (char ch : v) {
              if (ch == ',' || ch == '{' || ch == '}') {
                if (!symbol_name(cur).empty()) names.push_back(symbol_name(cur));
                cur.clear();
              } else {
                cur += ch;
              }
            }
          }
          for (const char* k : {"true_computation", "false_computation"})
            if (auto* a = op.attr(k)) names.push_back(symbol_name(a->value));
          for (const auto& nm : names)
            if (const Function* f = m_.find(nm)) branches.push_back(function_props(f, depth + 1));
        }
        if (branches.empty()) return unmodeled("conditional without branches");
        p = branches[0];
        for (std::size_t i = 1; i < branches.size(); ++i) {
          const Props& q = branches[i];
          p.flops = std::max(p.flops, q.flops);
          p.trans = std::max(p.trans, q.trans);
          p.bytes = std::max(p.bytes, q.bytes);
          p.out = std::max(p.out, q.out);
          p.coll = std::max(p.coll, q.coll);
          p.unfused = std::max(p.unfused, q.unfused);
          for (auto& [k, v] : q.operand) p.operand[k] = std::max(p.operand[k], v);
          p.merge_meta(q);
        }
        row->note = "the costliest branch, per counter";
        break;
      }
      case Family::Call: case Family::AsyncStart: {
        const Function* f = callee(op, "callee");
        if (!f) f = callee(op, "to_apply");
        if (!f) f = callee(op, "calls");
        if (!f) f = callee(op, "decomposition");
        if (!f) return unmodeled("call of an unknown function");
        p.add_all(function_props(f, depth + 1), 1);
        row->note = "cost of " + f->name;
        break;
      }
      case Family::Fusion: {
        const Function* f = callee(op, "calls");
        if (!f) return unmodeled("fusion without a fused computation");
        Props inner = function_props(f, depth + 1);
        p.add_compute(inner, 1);
        fusion_bytes(op, *f, &p);
        p.unfused = inner.unfused;
        row->note = "flops of " + f->name + "; bytes at the fusion boundary";
        break;
      }
      default:
        return unmodeled("no cost rule for this op");
    }
    if (!replaces) p.unfused = p.bytes;
    (void)enclosing;
    return finish(p);
  }

  // The devices of the module: replica_count × num_partitions from the HLO header (or
  // mhlo.num_replicas × mhlo.num_partitions); 0 when the module names neither.
  std::int64_t module_devices() const {
    std::int64_t replicas = -1, partitions = -1;
    for (const auto& a : m_.attributes) {
      auto v = int_list(a.value);
      if (v.empty() || v[0] < 1) continue;
      const std::int64_t x = std::min<std::int64_t>(v[0], std::int64_t(1) << 20);
      if (a.name == "replica_count" || a.name == "mhlo.num_replicas") replicas = x;
      if (a.name == "num_partitions" || a.name == "mhlo.num_partitions") partitions = x;
    }
    if (replicas < 0 && partitions < 0) return 0;
    return std::max<std::int64_t>(1, replicas) * std::max<std::int64_t>(1, partitions);
  }

  // custom-call. cuBLAS GEMMs (__cublas$gemm, __cublas$lt$matmul) cost a dot, from the dot
  // dimension numbers of their backend_config, as XLA's GpuHloCostAnalysis does: flops
  // 2·(result elements)·(lhs contracting sizes), the result being element 0 of a tuple result
  // (the workspace is left out of the bytes too); bytes: operands + that result. Any other
  // target is unmodeled (XLA's HloCostAnalysis reports -1 for it).
  Props custom_call(const Op& op, const std::vector<double>& ob, OpCost* row) {
    auto unmodeled = [&](const std::string& why) {
      Props u;
      u.unmodeled[op.name] += 1;
      row->modeled = false;
      row->note = why;
      return u;
    };
    std::string target;
    if (const Attribute* a = op.attr("custom_call_target")) target = symbol_name(a->value);
    else if (const Attribute* b = op.attr("call_target_name")) target = symbol_name(b->value);
    else if (const Attribute* c = op.attr("callee")) target = c->value;
    const bool gemm = target == "__cublas$gemm" || target == "__cublas$lt$matmul" || target == "__cublas$lt$matmul$f8";
    if (!gemm)
      return unmodeled("custom call" + (target.empty() ? std::string() : " " + target.substr(0, 60)) +
                       ": its cost is unknown (XLA reports -1)");
    const Attribute* cfg = op.attr("backend_config");
    bool found = false;
    std::vector<std::int64_t> contracting;
    if (cfg) contracting = json_list(cfg->value, "lhs_contracting_dimensions", &found);
    if (!found || op.operand_types.empty() || op.result_types.size() != 1)
      return unmodeled("cuBLAS GEMM without dot dimension numbers in its backend_config");
    const Type& lhs = op.operand_types[0];
    const Type& whole = op.result_types[0];
    const Type& result = whole.kind == Type::Kind::Tuple && !whole.tuple.empty() ? whole.tuple[0] : whole;
    if (!lhs.is_array() || !result.is_array() || !result.is_static())
      return unmodeled("cuBLAS GEMM with operands that are not arrays");
    double k = 1;
    for (auto c : contracting) {
      if (c < 0 || static_cast<std::size_t>(c) >= lhs.dims.size())
        return unmodeled("cuBLAS GEMM contracting dimension " + std::to_string(c) + " out of range");
      k *= static_cast<double>(lhs.dims[static_cast<std::size_t>(c)]);
    }
    Props p;
    p.flops = 2 * result.elements() * k;
    p.out = std::max(0.0, result.byte_size());
    p.bytes = p.out;
    for (std::size_t i = 0; i < ob.size(); ++i) {
      p.operand[static_cast<int>(i)] = ob[i];
      p.bytes += ob[i];
    }
    p.unfused = p.bytes;
    row->note = "cuBLAS GEMM: a dot's flops from its backend_config";
    return p;
  }

  // XLA's HandleFusion bytes: outputs (a dynamic-update-slice root writes its update) plus,
  // per fused parameter, what its users read (FusionParameterReadBytes): slices read their
  // output, dynamic-slice/update-slice what they touch, broadcast and reshape the whole
  // parameter each, all other users share one read. One pass over the fused ops.
  void fusion_bytes(const Op& op, const Function& f, Props* p) {
    const Op* root = nullptr;
    std::vector<const Op*> ops;
    std::unordered_map<std::string, const Op*> def;
    std::unordered_map<std::string, std::vector<const Op*>> users;  // each user once, in order
    for (const auto& b : f.body.blocks)
      for (const auto& o : b.ops) {
        ops.push_back(&o);
        if (o.attr("is_root")) root = &o;
        for (const auto& r : o.results) def[r] = &o;
        for (const auto& name : o.operands) {
          auto& u = users[name];
          if (u.empty() || u.back() != &o) u.push_back(&o);
        }
      }
    if (!root && !ops.empty()) root = ops.back();
    auto find_def = [&](const std::string& name) -> const Op* {
      auto it = def.find(name);
      return it == def.end() ? nullptr : it->second;
    };
    double out = 0;
    auto leaf_out = [&](const Type& t, const Op* producer) {
      if (producer && canonical_op(producer->name) == "dynamic-update-slice" && producer->operand_types.size() > 1)
        return std::max(0.0, producer->operand_types[1].byte_size());
      return std::max(0.0, t.byte_size());
    };
    if (!op.result_types.empty()) {
      const Type& t = op.result_types[0];
      if (t.kind == Type::Kind::Tuple) {
        for (std::size_t i = 0; i < t.tuple.size(); ++i) {
          const Op* prod = nullptr;
          if (root && canonical_op(root->name) == "tuple" && i < root->operands.size()) prod = find_def(root->operands[i]);
          out += leaf_out(t.tuple[i], prod);
        }
      } else {
        out = leaf_out(t, root);
      }
    }
    p->out = out;
    p->bytes = out;
    for (const Op* o : ops)  // large constants inside the fusion are read from memory
      if (canonical_op(o->name) == "constant" && !o->result_types.empty() && o->result_types[0].elements() > 1)
        p->bytes += std::max(0.0, o->result_types[0].byte_size());
    p->operand.clear();
    for (const Op* param : ops) {
      if (canonical_op(param->name) != "parameter" || param->results.empty()) continue;
      std::int64_t index = int_attr(*param, "parameter_number", -1);
      if (index < 0 || index > 4096) continue;
      const std::string& pname = param->results[0];
      const double psize = param->result_types.empty() ? 0 : std::max(0.0, param->result_types[0].byte_size());
      double size = 0;
      bool trivial = false;
      auto it = users.find(pname);
      if (it != users.end())
        for (const Op* user : it->second) {
          const std::string uc = canonical_op(user->name);
          const double uout = user->result_types.empty() ? 0 : std::max(0.0, user->result_types[0].byte_size());
          const bool first_operand = !user->operands.empty() && user->operands[0] == pname;
          if (uc == "slice") {
            size += uout;
          } else if (uc == "dynamic-slice") {
            if (first_operand) size += uout;
            else if (!trivial) trivial = true, size += psize;
          } else if (uc == "dynamic-update-slice") {
            if (!first_operand && !trivial) trivial = true, size += psize;
          } else if (uc == "broadcast" || uc == "reshape") {
            size += psize;
          } else if (!trivial) {
            trivial = true;
            size += psize;
          }
        }
      p->operand[static_cast<int>(index)] += size;
      p->bytes += size;
    }
  }
};

}  // namespace

namespace {
std::string compute_canonical_op(std::string_view name) {
  std::string s(name);
  for (const char* prefix : {"stablehlo.", "mhlo.", "func."})
    if (s.rfind(prefix, 0) == 0) s = s.substr(std::string(prefix).size());
  if (s.rfind("chlo.", 0) == 0) {
    std::string rest = s.substr(5);
    if (rest == "erf" || rest == "tan") return rest;
    return s;
  }
  for (char& c : s)
    if (c == '_') c = '-';
  if (s == "dot-general") return "dot";
  if (s == "broadcast-in-dim") return "broadcast";
  if (s == "case" || s == "if") return "conditional";
  if (s == "count-leading-zeros") return "clz";
  if (s == "exp") return "exponential";
  return s;
}
}  // namespace

// Called for every op by the verifier and the cost rules: the few distinct names are computed
// once (a program has thousands of ops but tens of op names).
std::string canonical_op(std::string_view name) {
  static std::map<std::string, std::string, std::less<>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    if (cache.size() > 4096) cache.clear();  // bound the memory on adversarial input
    it = cache.emplace(std::string(name), compute_canonical_op(name)).first;
  }
  return it->second;
}

Result<Analysis> analyze_module(const Module& module) {
  Analysis a;
  a.dialect = module.dialect;
  a.module_name = module.name;
  const Function* entry = module.entry();
  if (!entry) return Result<Analysis>::success(a);
  a.entry = entry->name;
  Coster c(module);
  Props p = c.region_props(entry->body, entry, &a.ops, 0);
  if (!c.error.empty()) return Result<Analysis>::failure(c.error);
  a.flops = p.flops;
  a.transcendentals = p.trans;
  a.bytes_accessed = p.bytes;
  a.unfused_bytes_accessed = p.unfused;
  a.bytes_accessed_output = p.out;
  a.collective_bytes = p.coll;
  a.bytes_accessed_operand = p.operand;
  for (auto& [k, v] : p.unmodeled) a.unmodeled.emplace_back(k, v);
  a.notes = p.notes;
  a.intensity = a.bytes_accessed > 0 ? a.flops / a.bytes_accessed : std::numeric_limits<double>::quiet_NaN();
  double traffic = 0;
  bool known = true;
  for (const auto& t : entry->arg_types) {
    double b = t.leaf_bytes();
    if (b < 0) known = false;
    else traffic += b;
  }
  for (const auto& t : entry->result_types) {
    double b = t.leaf_bytes();
    if (b < 0) known = false;
    else traffic += b;
  }
  a.minimum_traffic_bytes = traffic;
  if (!known) a.notes.push_back("minimum traffic leaves out arguments or results of dynamic shape");
  return Result<Analysis>::success(std::move(a));
}

Result<std::vector<OpCost>> op_costs(const Module& module) {
  std::vector<OpCost> rows;
  Coster c(module);
  c.nested_rows = &rows;
  for (const auto& f : module.functions) {
    c.region_props(f.body, &f, &rows, 0);
    if (!c.error.empty()) return Result<std::vector<OpCost>>::failure(c.error);
  }
  return Result<std::vector<OpCost>>::success(std::move(rows));
}

Result<std::vector<Analysis>> analyze(std::string_view text) {
  auto modules = parse(text);
  if (!modules) return Result<std::vector<Analysis>>::failure_from(modules);
  std::vector<Analysis> out;
  for (const auto& m : modules.value()) {
    auto v = verify(m);
    if (!v) return Result<std::vector<Analysis>>::failure_from(v);
    auto a = analyze_module(m);
    if (!a) return Result<std::vector<Analysis>>::failure_from(a);
    out.push_back(std::move(a.value()));
  }
  return Result<std::vector<Analysis>>::success(std::move(out));
}

}  // namespace rl::hlo
