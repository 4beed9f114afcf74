// Fusions run as units (fused.h).
#include "interp/fused.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_set>

#include "hlo/literal.h"
#include "interp/run.h"
#include "interp/simd_loops.h"
#include "kernels/kernels.h"

namespace rl::interp {

using hlo::OpCode;
using Kind = LoopNode::Kind;

namespace {

bool math_fn(OpCode code, kernels::MathFn* fn) {
  switch (code) {
    case OpCode::Exponential: *fn = kernels::MathFn::Exp; return true;
    case OpCode::ExponentialMinusOne: *fn = kernels::MathFn::Expm1; return true;
    case OpCode::Log: *fn = kernels::MathFn::Log; return true;
    case OpCode::LogPlusOne: *fn = kernels::MathFn::Log1p; return true;
    case OpCode::Logistic: *fn = kernels::MathFn::Logistic; return true;
    case OpCode::Tanh: *fn = kernels::MathFn::Tanh; return true;
    case OpCode::Sine: *fn = kernels::MathFn::Sin; return true;
    case OpCode::Cosine: *fn = kernels::MathFn::Cos; return true;
    case OpCode::Tan: case OpCode::ChloTan: *fn = kernels::MathFn::Tan; return true;
    case OpCode::Erf: case OpCode::ChloErf: *fn = kernels::MathFn::Erf; return true;
    case OpCode::Sqrt: *fn = kernels::MathFn::Sqrt; return true;
    case OpCode::Rsqrt: *fn = kernels::MathFn::Rsqrt; return true;
    default: return false;
  }
}

std::string count_text(double n) { return std::to_string(static_cast<long long>(n)); }

// Whether the loop's vocabulary has the op at all (its types are checked as its node is built).
bool in_vocabulary(OpCode c) {
  simd::Binary b;
  kernels::MathFn fn;
  return simd::binary_of(c, &b) || math_fn(c, &fn) || c == OpCode::Constant || c == OpCode::BroadcastInDim || c == OpCode::Reshape ||
         c == OpCode::Convert || c == OpCode::Negate || c == OpCode::Abs || c == OpCode::Compare || c == OpCode::Select ||
         c == OpCode::And || c == OpCode::Or || c == OpCode::Xor || c == OpCode::Not;
}

bool is_f32(const hlo::Type& t) { return t.is_array() && t.is_static() && t.etype == hlo::ElementType::F32; }
bool is_pred(const hlo::Type& t) { return t.is_array() && t.is_static() && t.etype == hlo::ElementType::Pred; }

// Builds a plan's loop part; "" when it can, else why not (the fusion then runs op by op).
class LoopCompiler {
 public:
  LoopCompiler(const hlo::Program& prog, FusionPlan& plan) : prog_(prog), plan_(plan), f_(*plan.lfn->fn), m_(*prog.module) {}

  std::string compile(hlo::FusionKind kind) {
    const auto& instrs = plan_.block->instrs;
    for (std::size_t k = 0; k < plan_.members.size(); ++k)
      for (hlo::ValueId v : f_.results(*instrs[plan_.members[k]].op)) member_of_[v] = k;
    plan_.by_op.assign(plan_.members.size(), 0);
    // The loop part's root and the ops that run through their own kernels.
    std::uint32_t loop_root = plan_.root;
    const hlo::Instr& root = instrs[plan_.root];
    if (kind == hlo::FusionKind::Input) {
      if (root.code != OpCode::Reduce || root.op->operands.count != 2) return "an input fusion whose root is not a one-operand reduce";
      plan_.by_op[plan_.members.size() - 1] = 1;
      auto it = member_of_.find(f_.operands(*root.op)[0]);
      if (it == member_of_.end()) return "the reduce's operand is not made in the fusion";
      loop_root = plan_.members[it->second];
    }
    for (std::size_t k = 0; k < plan_.members.size(); ++k) {
      const OpCode c = instrs[plan_.members[k]].code;
      if (c == OpCode::DotGeneral || c == OpCode::Dot || c == OpCode::Convolution) {
        if (kind != hlo::FusionKind::Output) return "a dot outside an output fusion";
        plan_.by_op[k] = 1;
      }
    }
    plan_.loop_root = loop_root;
    in_loop_.assign(plan_.members.size(), 0);
    const hlo::Type& rt = m_.value_type(f_, f_.results(*instrs[loop_root].op)[0]);
    if (!is_f32(rt) && !is_pred(rt)) return std::string(instrs[loop_root].op->name) + " gives " + rt.text + " (the fused loop runs f32 and pred)";
    n_ = static_cast<std::int64_t>(rt.elements());
    std::string why;
    if (node_of(f_.results(*instrs[loop_root].op)[0], loop_root, &why) < 0) return why;
    // A member of the loop part whose value another member outside it reads: a constant runs
    // through its kernel too (the reduce's init); anything else is not planned for.
    for (std::size_t k = 0; k < plan_.members.size(); ++k) {
      if (in_loop_[k] || plan_.by_op[k]) continue;
      plan_.by_op[k] = 1;  // e.g. a kInput fusion's init constant
    }
    for (std::size_t k = 0; k < plan_.members.size(); ++k) {
      if (!plan_.by_op[k]) continue;
      for (hlo::ValueId v : f_.operands(*instrs[plan_.members[k]].op)) {
        auto it = member_of_.find(v);
        if (it == member_of_.end() || !in_loop_[it->second] || plan_.members[it->second] == loop_root) continue;
        if (instrs[plan_.members[it->second]].code == OpCode::Constant) plan_.by_op[it->second] = 1;
        else return std::string(instrs[plan_.members[it->second]].op->name) + " is read inside and outside the fused loop";
      }
    }
    plan_.has_loop = true;
    return "";
  }

 private:
  const hlo::Program& prog_;
  FusionPlan& plan_;
  const hlo::Function& f_;
  const hlo::Module& m_;
  std::int64_t n_ = 0;
  std::unordered_map<hlo::ValueId, std::size_t> member_of_;
  std::unordered_map<hlo::ValueId, int> node_;  // values already compiled
  std::vector<char> in_loop_;

  int add(LoopNode n) {
    plan_.nodes.push_back(std::move(n));
    return static_cast<int>(plan_.nodes.size()) - 1;
  }

  // A value read by the loop from outside it (the frame): in place, repeated, or (broadcast) gathered.
  int param(hlo::ValueId v, std::uint32_t reader, std::string* why) {
    const hlo::Type& t = m_.value_type(f_, v);
    if (!is_f32(t) && !is_pred(t)) return *why = "a parameter of type " + t.text + " (the fused loop runs f32 and pred)", -1;
    LoopNode n;
    n.value = v;
    n.pred = is_pred(t);
    n.instr = reader;
    if (t.elements() == n_) n.kind = Kind::Param;
    else if (t.elements() == 1) n.kind = Kind::ParamSplat;
    else return *why = "a parameter of " + t.text + " read elementwise in a loop of " + count_text(static_cast<double>(n_)) + " elements", -1;
    return add(std::move(n));
  }

  int node_of(hlo::ValueId v, std::uint32_t reader, std::string* why) {
    auto done = node_.find(v);
    if (done != node_.end()) return done->second;
    auto it = member_of_.find(v);
    int r;
    if (it == member_of_.end() || plan_.by_op[it->second]) {
      r = param(v, reader, why);
    } else {
      in_loop_[it->second] = 1;
      r = op_node(plan_.members[it->second], why);
    }
    if (r >= 0) node_[v] = r;
    return r;
  }

  int op_node(std::uint32_t idx, std::string* why) {
    const hlo::Instr& in = plan_.block->instrs[idx];
    const hlo::Op& op = *in.op;
    const auto operands = f_.operands(op);
    const hlo::Type& t = m_.value_type(f_, f_.results(op)[0]);
    const std::string name(op.name);
    auto refuse = [&](const std::string& w) { *why = name + " " + w; return -1; };
    if (!in_vocabulary(in.code)) return refuse("is not in the fused loop's vocabulary yet");
    if (!is_f32(t) && !is_pred(t)) return refuse("on " + t.text + " (the fused loop runs f32 and pred)");
    const hlo::OpAttrs* attrs = prog_.attrs_of(in);
    LoopNode n;
    n.pred = is_pred(t);
    n.instr = idx;
    if (in.code == OpCode::Constant) {
      if (t.elements() != 1 || !attrs || attrs->literal == hlo::kNoAttrs || attrs->literal >= prog_.literals.size())
        return refuse("with more than one element");
      const hlo::Literal& lit = prog_.literals[attrs->literal];
      const std::size_t eb = n.pred ? 1 : 4;
      if (lit.bytes.size() < eb) return refuse("without its value");
      n.kind = Kind::Splat;
      n.scalar = n_ != 1;
      std::memcpy(&n.bits, lit.bytes.data(), eb);
      return add(std::move(n));
    }
    // A one-element op in a bigger loop (a scalar computed from scalar constants, then broadcast):
    // computed over the block from splats, every lane the same value, the bits of the op alone.
    const bool scalar = t.elements() == 1 && n_ != 1;
    if (!scalar && t.elements() != static_cast<double>(n_))
      return refuse("of " + count_text(t.elements()) + " elements in a loop of " + count_text(static_cast<double>(n_)));
    n.scalar = scalar;
    // Operands' nodes first (their evaluation comes before this node's).
    if (in.code == OpCode::BroadcastInDim) {
      if (!attrs) return refuse("without its dimensions");
      const hlo::ValueId src = operands[0];
      const hlo::Type& st = m_.value_type(f_, src);
      auto mem = member_of_.find(src);
      if (mem != member_of_.end() && !plan_.by_op[mem->second]) {
        // A broadcast of an op of the loop: a scalar constant (or a one-element value) splats.
        const int a = node_of(src, idx, why);
        if (a < 0) return -1;
        const LoopNode& s = plan_.nodes[static_cast<std::size_t>(a)];
        if (s.kind == Kind::Splat || s.kind == Kind::ParamSplat) {
          LoopNode c = s;
          c.instr = idx;
          c.scalar = false;
          return add(std::move(c));
        }
        if (s.scalar) {  // every lane already holds the one value
          n.kind = Kind::Pass;
          n.a = a;
          return add(std::move(n));
        }
        if (st.elements() == n_) {  // adds dimensions of size 1 only: the same elements in order
          n.kind = Kind::Pass;
          n.a = a;
          return add(std::move(n));
        }
        return refuse("of a value computed in the loop with another shape");
      }
      if (!is_f32(st) && !is_pred(st)) return refuse("of " + st.text + " (the fused loop runs f32 and pred)");
      n.value = src;
      if (st.elements() == 1) {
        n.kind = Kind::ParamSplat;
        return add(std::move(n));
      }
      if (attrs->dims.size() != st.dims.size()) return refuse("with a dimension map of another rank");
      n.kind = Kind::ParamGather;
      n.dims = t.dims;
      n.strides.assign(t.dims.size(), 0);
      std::int64_t stride = 1;
      for (std::size_t i = st.dims.size(); i-- > 0;) {
        const auto d = attrs->dims[i];
        if (d < 0 || d >= static_cast<std::int64_t>(t.dims.size())) return refuse("with a dimension out of range");
        if (st.dims[i] != 1) n.strides[static_cast<std::size_t>(d)] = stride;
        stride *= st.dims[i];
      }
      n.source_elements = st.elements();
      return add(std::move(n));
    }
    std::vector<int> ops;
    for (hlo::ValueId v : operands) {
      const int a = node_of(v, idx, why);
      if (a < 0) return -1;
      const LoopNode& o = plan_.nodes[static_cast<std::size_t>(a)];
      if (scalar && !(o.scalar || o.kind == Kind::Splat || o.kind == Kind::ParamSplat)) return refuse("of one element from a bigger operand");
      ops.push_back(a);
    }
    auto f32_operands = [&] {
      for (int a : ops)
        if (plan_.nodes[static_cast<std::size_t>(a)].pred) return false;
      return true;
    };
    simd::Binary bop;
    kernels::MathFn fn;
    if (in.code == OpCode::Reshape || (in.code == OpCode::Convert && !n.pred && f32_operands())) {
      if (plan_.nodes[static_cast<std::size_t>(ops[0])].pred != n.pred) return refuse("between element types");
      n.kind = Kind::Pass;
    } else if (simd::binary_of(in.code, &bop) && !n.pred && f32_operands()) {
      n.kind = Kind::Binary;
      n.op = static_cast<std::uint8_t>(bop);
    } else if ((in.code == OpCode::Negate || in.code == OpCode::Abs) && !n.pred && f32_operands()) {
      n.kind = in.code == OpCode::Negate ? Kind::Negate : Kind::Abs;
    } else if (math_fn(in.code, &fn) && !n.pred && f32_operands()) {
      n.kind = Kind::Math;
      n.op = static_cast<std::uint8_t>(fn);
    } else if (in.code == OpCode::Compare && n.pred && f32_operands() && attrs &&
               attrs->compare_type != hlo::CompareType::TotalOrder) {
      n.kind = Kind::Compare;
      n.op = static_cast<std::uint8_t>(attrs->direction);
    } else if ((in.code == OpCode::And || in.code == OpCode::Or || in.code == OpCode::Xor || in.code == OpCode::Not) && n.pred) {
      for (int a : ops)
        if (!plan_.nodes[static_cast<std::size_t>(a)].pred) return refuse("of mixed element types");
      n.kind = Kind::Logic;
      n.op = in.code == OpCode::And ? 0 : in.code == OpCode::Or ? 1 : in.code == OpCode::Xor ? 2 : 3;
    } else if (in.code == OpCode::Select && !n.pred && plan_.nodes[static_cast<std::size_t>(ops[0])].pred &&
               !plan_.nodes[static_cast<std::size_t>(ops[1])].pred && !plan_.nodes[static_cast<std::size_t>(ops[2])].pred) {
      n.kind = Kind::Select;
    } else {
      return refuse("on " + t.text + " is not in the fused loop's vocabulary yet");
    }
    n.a = ops.size() > 0 ? ops[0] : -1;
    n.b = ops.size() > 1 ? ops[1] : -1;
    n.c = ops.size() > 2 ? ops[2] : -1;
    return add(std::move(n));
  }
};

}  // namespace

// ---- the plan ----------------------------------------------------------------------------------

FusedProgram::FusedProgram(const hlo::Program& program, hlo::FusedModule fused) : fused_(std::move(fused)) {
  // Where each op of the module stands in the runtime program.
  struct Place {
    const hlo::LFunction* lfn;
    const hlo::LBlock* block;
    std::uint32_t index;
  };
  std::unordered_map<const hlo::Op*, Place> place;
  for (const auto& lf : program.functions) {
    auto walk = [&](const hlo::LRegion& r) {
      for (const auto& b : r.blocks)
        for (std::size_t i = 0; i < b.instrs.size(); ++i) place[b.instrs[i].op] = {&lf, &b, static_cast<std::uint32_t>(i)};
    };
    walk(lf.body);
    for (const auto& r : lf.regions) walk(r);
  }
  std::unordered_map<const hlo::LBlock*, std::vector<std::size_t>> by_block;
  for (std::size_t k = 0; k < fused_.fusions.size(); ++k) {
    const hlo::Fusion& fu = fused_.fusions[k];
    auto rp = place.find(fu.root);
    if (!fu.root || rp == place.end()) continue;
    FusionPlan plan;
    plan.fusion = k;
    plan.lfn = rp->second.lfn;
    plan.block = rp->second.block;
    plan.root = rp->second.index;
    bool same = true;
    for (const hlo::Op* op : fu.members) {
      auto mp = place.find(op);
      if (mp == place.end() || mp->second.block != plan.block) same = false;
      else plan.members.push_back(mp->second.index);
    }
    if (!same || plan.members.empty() || plan.members.back() != plan.root) continue;
    LoopCompiler lc(program, plan);
    plan.fallback = lc.compile(fu.kind);
    if (!plan.fallback.empty()) {
      plan.nodes.clear();
      plan.has_loop = false;
    }
    const std::size_t pi = plans_.size();
    for (std::size_t i = 0; i + 1 < plan.members.size(); ++i) {
      const hlo::Instr* in = &plan.block->instrs[plan.members[i]];
      if (!fu.alone[i] && !role_.count(in)) role_[in] = 0;
    }
    role_[&plan.block->instrs[plan.root]] = static_cast<std::uint32_t>(pi + 1);
    by_block[plan.block].push_back(pi);
    plans_.push_back(std::move(plan));
  }
  // A root copied into another fusion stays a root; an op that runs alone is never skipped.
  // The liveness of blocks with fusions, moved: a value dies after the last op that reads it
  // where it runs (a skipped op reads at its fusion's root, a fusion reads at its root).
  for (auto& [block, pis] : by_block) {
    const auto& instrs = block->instrs;
    blocks_.emplace_back(&instrs.front(), &instrs.back());
    const hlo::Function& f = *plans_[pis.front()].lfn->fn;
    std::unordered_map<hlo::ValueId, std::int64_t> death;
    std::vector<std::int64_t> at(instrs.size());
    for (std::size_t i = 0; i < instrs.size(); ++i) at[i] = static_cast<std::int64_t>(i);
    for (std::size_t pi : pis)
      for (std::uint32_t i : plans_[pi].members) {
        auto r = role_.find(&instrs[i]);
        if (r != role_.end() && r->second == 0) at[i] = std::max(at[i], static_cast<std::int64_t>(plans_[pi].root));
      }
    for (std::size_t i = 0; i < instrs.size(); ++i)
      if (const auto* d = program.dead_after(instrs[i]))
        for (hlo::ValueId v : *d) {
          auto& x = death[v];
          x = std::max(x, at[i]);
        }
    for (std::size_t pi : pis)
      for (std::uint32_t i : plans_[pi].members)
        for (hlo::ValueId v : f.operands(*instrs[i].op)) {
          auto it = death.find(v);
          if (it != death.end()) it->second = std::max(it->second, static_cast<std::int64_t>(plans_[pi].root));
        }
    for (std::size_t i = 0; i < instrs.size(); ++i) dead_[&instrs[i]];
    for (const auto& [v, i] : death) dead_[&instrs[static_cast<std::size_t>(i)]].push_back(v);
    for (std::size_t i = 0; i < instrs.size(); ++i) std::sort(dead_[&instrs[i]].begin(), dead_[&instrs[i]].end());
  }
  std::sort(blocks_.begin(), blocks_.end(), [](const auto& x, const auto& y) { return std::less<const hlo::Instr*>()(x.first, y.first); });
}

FusedProgram::~FusedProgram() = default;

bool FusedProgram::in_fused_block(const hlo::Instr* in) const {
  std::less<const hlo::Instr*> lt;
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), in,
                             [&](const hlo::Instr* x, const std::pair<const hlo::Instr*, const hlo::Instr*>& b) { return lt(x, b.first); });
  if (it == blocks_.begin()) return false;
  --it;
  return !lt(it->second, in);
}

FusedProgram::Role FusedProgram::role(const hlo::Instr& in, std::size_t* plan) const {
  if (!in_fused_block(&in)) return Role::Alone;
  auto it = role_.find(&in);
  if (it == role_.end()) return Role::Alone;
  if (it->second == 0) return Role::Skip;
  *plan = it->second - 1;
  return Role::Root;
}

const std::vector<hlo::ValueId>* FusedProgram::dead_after(const hlo::Instr& in, bool* covered) const {
  *covered = false;
  if (!in_fused_block(&in)) return nullptr;
  auto it = dead_.find(&in);
  *covered = it != dead_.end();
  return *covered ? &it->second : nullptr;
}

// ---- running ----------------------------------------------------------------------------------

namespace {

// Evaluates the loop part of `plan` into `out` (the loop root's elements).
bool run_loop(Run& run, const FusionPlan& plan, std::vector<Value>& frame, std::uint8_t* out, std::int64_t n) {
  const hlo::Op& op = *plan.block->instrs[plan.loop_root].op;
  const std::size_t count = plan.nodes.size();
  // Blocks of kFusedBlock elements; a smaller tensor in one block of its size (no scratch to clear
  // beyond it: a fusion inside a loop body runs many times on few elements).
  const std::int64_t block = std::max<std::int64_t>(1, std::min<std::int64_t>(kFusedBlock, n));
  std::vector<std::uint32_t> scratch(count * static_cast<std::size_t>(block));
  std::vector<const std::uint8_t*> base(count, nullptr);
  auto buf = [&](std::size_t k) { return reinterpret_cast<std::uint8_t*>(scratch.data() + k * static_cast<std::size_t>(block)); };
  // Parameters found in the frame; splats filled once.
  for (std::size_t k = 0; k < count; ++k) {
    const LoopNode& nd = plan.nodes[k];
    const std::size_t eb = nd.pred ? 1 : 4;
    if (nd.kind == Kind::Splat) {
      for (std::int64_t i = 0; i < block; ++i) std::memcpy(buf(k) + static_cast<std::size_t>(i) * eb, &nd.bits, eb);
      continue;
    }
    if (nd.kind != Kind::Param && nd.kind != Kind::ParamSplat && nd.kind != Kind::ParamGather) continue;
    const Value& v = frame[nd.value];
    const std::int64_t want = nd.kind == Kind::Param ? n : nd.kind == Kind::ParamSplat ? 1 : nd.source_elements;
    if (!v.is_tensor() || v.tensor.elements() != want ||
        v.tensor.type != (nd.pred ? hlo::ElementType::Pred : hlo::ElementType::F32))
      return run.fail_at(*plan.block->instrs[nd.instr].op, "a fusion's parameter is not the value its plan reads",
                         std::to_string(want) + (nd.pred ? " pred" : " f32") + " elements", "another value");
    base[k] = v.tensor.data();
    if (nd.kind == Kind::ParamSplat)
      for (std::int64_t i = 0; i < block; ++i) std::memcpy(buf(k) + static_cast<std::size_t>(i) * eb, base[k], eb);
  }
  std::vector<const std::uint8_t*> p(count, nullptr);
  std::vector<std::int64_t> index;
  for (std::int64_t i0 = 0; i0 < n; i0 += block) {
    if (!run.keep_going(op)) return false;
    const std::int64_t m = std::min(block, n - i0);
    const auto mm = static_cast<std::size_t>(m);
    for (std::size_t k = 0; k < count; ++k) {
      const LoopNode& nd = plan.nodes[k];
      const std::size_t eb = nd.pred ? 1 : 4;
      const bool last = k + 1 == count;
      std::uint8_t* dst = last ? out + static_cast<std::size_t>(i0) * eb : buf(k);
      const float* pa = nd.a >= 0 ? reinterpret_cast<const float*>(p[static_cast<std::size_t>(nd.a)]) : nullptr;
      const float* pb = nd.b >= 0 ? reinterpret_cast<const float*>(p[static_cast<std::size_t>(nd.b)]) : nullptr;
      switch (nd.kind) {
        case Kind::Param:
          p[k] = base[k] + static_cast<std::size_t>(i0) * eb;
          break;
        case Kind::ParamSplat: case Kind::Splat:
          p[k] = buf(k);
          break;
        case Kind::Pass:
          p[k] = p[static_cast<std::size_t>(nd.a)];
          break;
        case Kind::ParamGather: {
          // The result index of i0, then counted up: the operand's offset follows the strides.
          const std::size_t r = nd.dims.size();
          index.assign(r, 0);
          std::int64_t rest = i0, src = 0;
          for (std::size_t d = r; d-- > 0;) {
            index[d] = nd.dims[d] ? rest % nd.dims[d] : 0;
            rest = nd.dims[d] ? rest / nd.dims[d] : 0;
            src += index[d] * nd.strides[d];
          }
          const std::int64_t inner = r ? nd.strides[r - 1] : 0;
          const std::int64_t inner_dim = r ? nd.dims[r - 1] : 1;
          for (std::int64_t i = 0; i < m; ++i) {
            std::memcpy(dst + static_cast<std::size_t>(i) * eb, base[k] + static_cast<std::size_t>(src) * eb, eb);
            if (r == 0) continue;
            src += inner;
            if (++index[r - 1] < inner_dim) continue;
            src -= inner * inner_dim;
            index[r - 1] = 0;
            for (std::size_t d = r - 1; d-- > 0;) {
              src += nd.strides[d];
              if (++index[d] < nd.dims[d]) break;
              src -= nd.strides[d] * nd.dims[d];
              index[d] = 0;
            }
          }
          p[k] = dst;
          break;
        }
        case Kind::Binary:
          simd::f32_binary(static_cast<simd::Binary>(nd.op), mm, pa, pb, reinterpret_cast<float*>(dst));
          p[k] = dst;
          break;
        case Kind::Negate: {
          auto* y = reinterpret_cast<float*>(dst);
          for (std::size_t i = 0; i < mm; ++i) y[i] = -pa[i];
          p[k] = dst;
          break;
        }
        case Kind::Abs: {
          auto* y = reinterpret_cast<float*>(dst);
          for (std::size_t i = 0; i < mm; ++i) y[i] = std::fabs(pa[i]);
          p[k] = dst;
          break;
        }
        case Kind::Math:
          kernels::best_math().fn(static_cast<kernels::MathFn>(nd.op), mm, pa, reinterpret_cast<float*>(dst));
          p[k] = dst;
          break;
        case Kind::Compare: {
          std::uint8_t* y = dst;
          switch (static_cast<hlo::Comparison>(nd.op)) {
            case hlo::Comparison::EQ: for (std::size_t i = 0; i < mm; ++i) y[i] = pa[i] == pb[i]; break;
            case hlo::Comparison::NE: for (std::size_t i = 0; i < mm; ++i) y[i] = pa[i] != pb[i]; break;
            case hlo::Comparison::LT: for (std::size_t i = 0; i < mm; ++i) y[i] = pa[i] < pb[i]; break;
            case hlo::Comparison::LE: for (std::size_t i = 0; i < mm; ++i) y[i] = pa[i] <= pb[i]; break;
            case hlo::Comparison::GT: for (std::size_t i = 0; i < mm; ++i) y[i] = pa[i] > pb[i]; break;
            case hlo::Comparison::GE: for (std::size_t i = 0; i < mm; ++i) y[i] = pa[i] >= pb[i]; break;
          }
          p[k] = dst;
          break;
        }
        case Kind::Logic: {
          const std::uint8_t* x = p[static_cast<std::size_t>(nd.a)];
          const std::uint8_t* z = nd.b >= 0 ? p[static_cast<std::size_t>(nd.b)] : nullptr;
          std::uint8_t* y = dst;
          if (nd.op == 0) for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] != 0) & (z[i] != 0);
          else if (nd.op == 1) for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] != 0) | (z[i] != 0);
          else if (nd.op == 2) for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] != 0) ^ (z[i] != 0);
          else for (std::size_t i = 0; i < mm; ++i) y[i] = x[i] == 0;
          p[k] = dst;
          break;
        }
        case Kind::Select: {
          const std::uint8_t* pp = p[static_cast<std::size_t>(nd.a)];
          const auto* xa = reinterpret_cast<const std::uint32_t*>(p[static_cast<std::size_t>(nd.b)]);
          const auto* xb = reinterpret_cast<const std::uint32_t*>(p[static_cast<std::size_t>(nd.c)]);
          auto* y = reinterpret_cast<std::uint32_t*>(dst);
          for (std::size_t i = 0; i < mm; ++i) y[i] = pp[i] ? xa[i] : xb[i];
          p[k] = dst;
          break;
        }
      }
      if (last && p[k] != dst) std::memmove(dst, p[k], mm * eb);
    }
  }
  return true;
}

}  // namespace

bool run_fusion(Run& run, const FusionPlan& plan, std::vector<Value>& frame) {
  const auto& instrs = plan.block->instrs;
  const hlo::LFunction& lfn = *plan.lfn;
  const hlo::Function& f = *lfn.fn;
  if (!plan.has_loop) {
    // Op by op, in program order, inside the fusion (values die at the root).
    for (std::uint32_t i : plan.members)
      if (!run.execute_alone(lfn, instrs[i], frame)) return false;
    return true;
  }
  for (std::size_t k = 0; k < plan.members.size(); ++k) {
    const std::uint32_t i = plan.members[k];
    if (plan.by_op[k]) {
      if (!run.execute_alone(lfn, instrs[i], frame)) return false;
      continue;
    }
    if (i != plan.loop_root) continue;
    // The loop part's output: a kOutput epilogue writes over the dot's result when it is the
    // same type and no one else holds it; otherwise a fresh tensor.
    const hlo::Instr& in = instrs[i];
    const hlo::ValueId rv = f.results(*in.op)[0];
    const hlo::Type& t = run.program().module->value_type(f, rv);
    Tensor out;
    bool reused = false;
    const auto* dead = run.dead_after(instrs[plan.root]);
    for (const LoopNode& nd : plan.nodes) {
      if (nd.kind != Kind::Param || reused) continue;
      // Block i of the output is written after block i of every parameter is read; a parameter
      // also read through a broadcast's index map would be read elsewhere: not reused.
      bool gathered = false;
      for (const LoopNode& g : plan.nodes) gathered = gathered || (g.kind == Kind::ParamGather && g.value == nd.value);
      // Made by this fusion (its dot): fresh each time it runs. Otherwise: it must die here, and
      // not while the fusion is repeated for timing.
      bool own = false;
      for (std::size_t j = 0; j < plan.members.size(); ++j)
        if (plan.by_op[j])
          for (hlo::ValueId r : f.results(*instrs[plan.members[j]].op)) own = own || r == nd.value;
      const bool dies = dead && std::find(dead->begin(), dead->end(), nd.value) != dead->end();
      Value& v = frame[nd.value];
      if (!gathered && (own || (dies && !run.timing())) && v.is_tensor() && v.tensor.unique() && v.tensor.type == t.etype &&
          v.tensor.dims == t.dims) {
        out = v.tensor;
        reused = true;
      }
    }
    if (!reused) {
      OpCall call{run, *run.program().module, run.program(), lfn, in, frame};
      if (!call.alloc(0, &out)) return false;
    }
    if (!run_loop(run, plan, frame, out.data(), out.elements())) return false;
    frame[rv] = Value::of(std::move(out));
  }
  return !run.failed();
}

}  // namespace rl::interp
