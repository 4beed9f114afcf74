// What an op family implements: a kernel per OpCode, and a predicate saying whether it can run a
// given op (its element types, its attributes). The registry (built once in interp.cpp) has one
// entry per row of the op table (hlo/ops.inc), each defined beside its kernel (RL_KERNEL, below)
// or declined with a reason (RL_DECLINED); the interpreter refuses a module with an op that has no
// kernel or whose predicate says no, naming the op and the reason.
//
// A kernel reads its operands from the frame, allocates its results (counted against the memory
// cap), computes, and stores them. What its op's verify rule checked it trusts (RL_VERIFIED,
// below); on bad input the verifier cannot see (values, limits, what the interpreter cannot do)
// it calls fail() (an error at the op's line:col) and returns false; it never aborts (but for a
// broken RL_VERIFIED rule in a build that checks invariants), never throws and never loops
// without bound.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hlo/lower.h"
#include "interp/value.h"

namespace rl::interp {

class Run;

struct OpCall {
  Run& run;
  const hlo::Module& module;
  const hlo::Program& program;
  const hlo::LFunction& lfn;
  const hlo::Instr& instr;
  std::vector<Value>& frame;  // the slots of the running function

  const hlo::Function& fn() const { return *lfn.fn; }
  const hlo::Op& op() const { return *instr.op; }
  const hlo::OpAttrs& attrs() const { return program.attrs[instr.attrs]; }
  bool has_attrs() const { return instr.attrs != hlo::kNoAttrs; }
  std::size_t num_operands() const { return instr.op->operands.count; }
  std::size_t num_results() const { return instr.op->results.count; }
  const Value& in(std::size_t i) const { return frame[fn().operands(op())[i]]; }
  const Tensor& tensor(std::size_t i) const { return in(i).tensor; }
  const hlo::Type& in_type(std::size_t i) const {
    return module.value_type(fn(), fn().operands(op())[i]);
  }
  const hlo::Type& out_type(std::size_t i) const {
    return module.value_type(fn(), fn().results(op())[i]);
  }
  void set(std::size_t i, Value v) const { frame[fn().results(op())[i]] = std::move(v); }
  void set(std::size_t i, Tensor t) const { set(i, Value::of(std::move(t))); }
  // The op's results, in order: one per result (StableHLO's several), or one tuple of them (HLO's
  // one tuple result).
  void set_all(std::vector<Tensor>& ts) const;

  // A fresh tensor of result i's type (contents unset). False, with the error set, past the
  // memory cap or when the type is not an array of a computable element type.
  bool alloc(std::size_t i, Tensor* out) const;
  bool alloc(ElementType type, std::vector<std::int64_t> dims, Tensor* out) const;
  // `t` itself when no one else holds its buffer, else a copy: a tensor this op may overwrite.
  bool writable(const Tensor& t, Tensor* out) const;
  // "LINE:COL: error: WHAT — expected RULE, got VALUE" at this op. Returns false.
  bool fail(const std::string& what, const std::string& rule, const std::string& got) const;
  // Runs region `index` of the op (StableHLO) or its callee `index` (HLO's to_apply, condition,
  // body) on `args`; `results` receives what its return gives.
  bool call_body(std::size_t index, std::vector<Value> args, std::vector<Value>* results) const;
  // The run's clock and limits: false (error set) past the time budget. Call it in long loops.
  bool keep_going() const;
};

// A rule the verifier checked before the run (hlo/verify.cpp): the kernel trusts it and does not
// check it again (issue 25, "verify once"). Builds that check invariants (native builds, the fuzz
// targets: RL_CHECK_INVARIANTS) stop loudly where it does not hold, naming the op and the rule —
// a verifier gap, never a read past a buffer; the wasm core does not evaluate it. Errors that
// depend on data (indices, budgets, memory) are fail()s, never this.
#if RL_CHECK_INVARIANTS
[[noreturn]] void verifier_gap(const OpCall& c, const char* rule, const char* file, int line);
#define RL_VERIFIED(c, rule) \
  ((rule) ? (void)0 : ::rl::interp::verifier_gap((c), #rule, __FILE__, __LINE__))
#else
// Never evaluated (a constant false branch the compiler drops), yet a use: `c` may be a helper's
// parameter for this alone, and a function only a rule calls is not an unneeded declaration.
#define RL_VERIFIED(c, rule) (false ? ((void)(c), (void)(rule)) : (void)0)
#endif

// One element type, or two floating-point ones: what the verifier lets an op's operands hold
// together (verify.cpp's kinds_differ: HLO's floats of two precisions meet, as XLA's
// SameElementTypeIgnoringFpPrecision allows). For RL_VERIFIED; the kernels that copy or compute in
// one type refuse the second case with fail(), as what they do not compute.
inline bool one_kind(hlo::ElementType a, hlo::ElementType b) {
  return a == b || (hlo::is_float(a) && hlo::is_float(b));
}

// Each of `v` in [0, rank), none twice: what a verified dimension list holds (for RL_VERIFIED).
inline bool distinct_dims(const std::vector<std::int64_t>& v, std::size_t rank) {
  std::vector<bool> seen(rank, false);
  for (auto d : v) {
    if (d < 0 || static_cast<std::size_t>(d) >= rank || seen[static_cast<std::size_t>(d)])
      return false;
    seen[static_cast<std::size_t>(d)] = true;
  }
  return true;
}

using Kernel = bool (*)(const OpCall&);
// "" when the kernel can run the op; otherwise why not ("element type f8E4M3FN").
using Supports = std::string (*)(const hlo::OpView& op, const hlo::OpAttrs* attrs);

// Supports for ops whose operands and results are arrays of types the interpreter computes with.
std::string computable_types(const hlo::OpView& op, const hlo::OpAttrs* attrs);
// The first problem `rule` finds with one of op's operand or result types ("" when none): the walk
// behind computable_types and the structural ops' rule.
std::string first_type_problem(const hlo::OpView& op, std::string (*rule)(const hlo::Type&));

struct KernelEntry {
  Kernel run = nullptr;
  Supports supports = nullptr;
  const char* declined = nullptr;  // no kernel: why the interpreter does not run the op

  static KernelEntry of(Kernel run, Supports supports = computable_types) {
    return {run, supports, nullptr};
  }
  static KernelEntry decline(const char* why) { return {nullptr, nullptr, why}; }
};

// Each op's entry: one specialization per row of the op table (hlo/ops.inc), defined beside its
// kernel with RL_KERNEL (ops_*.cpp) or with its reason with RL_DECLINED (interp.cpp). The
// registry is made from the table's rows, so an op without one does not link.
template <hlo::OpCode>
KernelEntry kernel_of();
#define RL_OP(id, ...) \
  template <>          \
  KernelEntry kernel_of<hlo::OpCode::id>();
#include "hlo/ops.inc"
#undef RL_OP

// RL_KERNEL(Id, kernel[, supports]): op Id runs `kernel` where `supports` (default:
// computable_types) says it can. RL_DECLINED(Id, why): the interpreter refuses op Id, saying why.
#define RL_KERNEL(id, ...)                   \
  template <>                                \
  KernelEntry kernel_of<hlo::OpCode::id>() { \
    return KernelEntry::of(__VA_ARGS__);     \
  }
#define RL_DECLINED(id, why)                 \
  template <>                                \
  KernelEntry kernel_of<hlo::OpCode::id>() { \
    return KernelEntry::decline(why);        \
  }

// Every op's entry, indexed by OpCode: made once from the table's rows (interp.cpp).
class Registry {
 public:
  Registry();
  const KernelEntry& find(hlo::OpCode code) const {
    return entries_[static_cast<std::size_t>(code)];
  }

 private:
  KernelEntry entries_[static_cast<std::size_t>(hlo::OpCode::Count_)];
};

const Registry& registry();

// A reduce's input that is never made whole (a kInput fusion's loop part, fused.h): fill(begin,
// end) computes its elements [begin, end) (whole rows of the reduce), in their storage type, and
// gives them, valid until the next fill; null, with the run's error set, on failure.
struct StreamedInput {
  hlo::ElementType type = hlo::ElementType::F32;
  std::vector<std::int64_t> dims;
  std::function<const std::uint8_t*(std::int64_t begin, std::int64_t end)> fill;
};
// Runs reduce `c` (one input, its init in the frame) on `in` when it folds with a native
// combiner — the op alone's loop over the same rows in the same order, so the same bits — and
// sets *done; *done false: it does not, or its rows are longer than a chunk of 4096 elements
// (make the input and run the op). False on an error.
bool reduce_streamed(const OpCall& c, const StreamedInput& in, bool* done);

}  // namespace rl::interp
