// Inside the cost analysis: what a cost rule computes (Props), what it may ask of the walk
// (CostContext), and the rules, one per op family (CostFamily in ops.h).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "hlo/ir.h"
#include "hlo/lower.h"

namespace rl::hlo::cost {

// Doubles by operand index, held inline up to kInline (almost every op): a cost walk over
// millions of ops then allocates nothing per op. Enough of std::vector's interface for the rules.
class OperandDoubles {
 public:
  static constexpr std::size_t kInline = 6;
  OperandDoubles() = default;
  OperandDoubles(OperandDoubles&&) = default;
  OperandDoubles& operator=(OperandDoubles&&) = default;
  OperandDoubles(const OperandDoubles& o) { assign(o.begin(), o.end()); }
  OperandDoubles& operator=(const OperandDoubles& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  double* begin() { return data(); }
  double* end() { return data() + size_; }
  const double* begin() const { return data(); }
  const double* end() const { return data() + size_; }
  double& operator[](std::size_t i) { return data()[i]; }
  double operator[](std::size_t i) const { return data()[i]; }
  void clear() { size_ = 0; }
  void resize(std::size_t n, double v = 0.0) {
    if (n > capacity()) grow(n);
    for (std::size_t i = size_; i < n; ++i) data()[i] = v;
    size_ = n;
  }
  void assign(std::size_t n, double v) {
    clear();
    resize(n, v);
  }
  template <class It>
  void assign(It first, It last) {
    const auto n = static_cast<std::size_t>(last - first);
    if (n > capacity()) grow(n);
    std::copy(first, last, data());
    size_ = n;
  }

 private:
  double inline_[kInline] = {};
  std::vector<double> heap_;  // used past kInline
  std::size_t size_ = 0;
  bool on_heap_ = false;
  double* data() { return on_heap_ ? heap_.data() : inline_; }
  const double* data() const { return on_heap_ ? heap_.data() : inline_; }
  std::size_t capacity() const { return on_heap_ ? heap_.size() : kInline; }
  void grow(std::size_t n) {
    std::vector<double> bigger(std::max(n, 2 * capacity()));
    std::copy(data(), data() + size_, bigger.begin());
    heap_.swap(bigger);
    on_heap_ = true;
  }
};

// The counters of one op (or of a region, a function: sums), after XLA's HloCostAnalysis keys.
struct Props {
  double flops = 0, trans = 0, bytes = 0, out = 0, coll = 0;
  double unfused = 0;      // bytes as if every fused op ran alone (= bytes outside fusions)
  OperandDoubles operand;  // XLA's `bytes accessed{i}{}`, by operand index
  std::map<std::string, int> unmodeled;
  std::vector<std::string> notes;

  void set_operand(std::size_t i, double v) {
    if (i > 4096) return;
    if (operand.size() <= i) operand.resize(i + 1, 0);
    operand[i] = v;
  }
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
    if (operand.size() < o.operand.size()) operand.resize(o.operand.size(), 0);
    for (std::size_t i = 0; i < o.operand.size(); ++i) operand[i] += o.operand[i] * k;
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

// One op as a rule sees it, with the defaults XLA's Preprocess computes: every operand's bytes
// and the output's (a tuple of results: its index table, 8 bytes per element).
struct OpInput {
  const OpView& op;
  const OpAttrs* attrs;  // the op's decoded attributes (lower.h), null when it has none
  OperandDoubles operand_bytes;
  double output_bytes = 0;
  double output_elements = 0;  // of the (first) result
  bool static_shapes = true;   // every operand and result has a known size

  double operand_elements(std::size_t i) const;
  // Props with the defaults: each operand and the output once.
  Props defaults() const;
};

// What a rule may ask of the walk: the cost of one application of a sub-computation, the
// module's device count, and how to mark its row.
class CostContext {
 public:
  virtual ~CostContext() = default;
  // Region `index` of the op, else its callee `index` (HLO's to_apply; condition then body;
  // select then scatter), else `applies stablehlo.add`; false when there is none.
  virtual bool body(const OpInput& in, std::size_t index, Props* out) = 0;
  // The op's callee `index` (call, fusion, branches), or null.
  virtual const Function* callee(const OpInput& in, std::size_t index) = 0;
  virtual Props function_props(const Function& f) = 0;
  // The decoded attributes of op (of function f, by its first result): null when it has none.
  virtual const OpAttrs* attrs_of(const Function& f, const Op& op) = 0;
  // replica_count × num_partitions of the module; 0 when it names neither.
  virtual std::int64_t module_devices() const = 0;
  // A StableHLO while whose counter runs from a constant to a constant by 1 (JAX's fori_loop):
  // its trip count, as XLA's while-loop analysis finds it for the compiled module; -1 otherwise.
  virtual std::int64_t counted_trips(const OpInput& in) = 0;
  // The row's note; unmodeled(why) marks the op as having no usable rule and returns its Props.
  virtual void note(const std::string& text) = 0;
  virtual Props unmodeled(const std::string& why) = 0;
};

using Rule = Props (*)(const OpInput& in, CostContext& ctx);

// XLA's FusionParameterReadBytes (HloCostAnalysis): the bytes a fused parameter of `param_bytes`
// is read for, from its users inside the fusion (each user once, in order): a slice reads its
// output, a dynamic-slice what it slices (its index operands whole), a dynamic-update-slice
// nothing of the buffer it updates, a broadcast or reshape the whole parameter each, and every
// other user shares one read of the whole parameter.
struct ParamUse {
  OpCode code = OpCode::Unknown;
  double output_bytes = 0;     // the user's output
  bool first_operand = false;  // the parameter is the user's operand 0
};
double fusion_parameter_read_bytes(double param_bytes, const std::vector<ParamUse>& users);

// The rule of a family (null for Zero: no row, no cost).
Rule rule_for(CostFamily family);

// Families whose rules replace the defaults with what they contain (calls, loops, fusions):
// they are costed even when some operand's size is unknown.
bool contains_computations(CostFamily family);

}  // namespace rl::hlo::cost
