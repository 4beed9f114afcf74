// Fusions run as units (fused.h).
#include "interp/fused.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_set>

#include "common/float16.h"
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
    case OpCode::Exponential:
      *fn = kernels::MathFn::Exp;
      return true;
    case OpCode::ExponentialMinusOne:
      *fn = kernels::MathFn::Expm1;
      return true;
    case OpCode::Log:
      *fn = kernels::MathFn::Log;
      return true;
    case OpCode::LogPlusOne:
      *fn = kernels::MathFn::Log1p;
      return true;
    case OpCode::Logistic:
      *fn = kernels::MathFn::Logistic;
      return true;
    case OpCode::Tanh:
      *fn = kernels::MathFn::Tanh;
      return true;
    case OpCode::Sine:
      *fn = kernels::MathFn::Sin;
      return true;
    case OpCode::Cosine:
      *fn = kernels::MathFn::Cos;
      return true;
    case OpCode::Tan:
    case OpCode::ChloTan:
      *fn = kernels::MathFn::Tan;
      return true;
    case OpCode::Erf:
    case OpCode::ChloErf:
      *fn = kernels::MathFn::Erf;
      return true;
    case OpCode::Sqrt:
      *fn = kernels::MathFn::Sqrt;
      return true;
    case OpCode::Rsqrt:
      *fn = kernels::MathFn::Rsqrt;
      return true;
    default:
      return false;
  }
}

std::string count_text(double n) { return std::to_string(static_cast<long long>(n)); }

// Whether the loop's vocabulary has the op at all (its types are checked as its node is built).
bool in_vocabulary(OpCode c) {
  simd::Binary b;
  kernels::MathFn fn;
  return simd::binary_of(c, &b) || math_fn(c, &fn) || c == OpCode::Constant ||
         c == OpCode::BroadcastInDim || c == OpCode::Reshape || c == OpCode::Convert ||
         c == OpCode::Negate || c == OpCode::Abs || c == OpCode::Compare || c == OpCode::Select ||
         c == OpCode::And || c == OpCode::Or || c == OpCode::Xor || c == OpCode::Not ||
         c == OpCode::Iota || c == OpCode::Slice || c == OpCode::Transpose ||
         c == OpCode::ShiftLeft || c == OpCode::ShiftRightLogical ||
         c == OpCode::ShiftRightArithmetic;
}

// The element types the loop computes: f32, f16 and bf16 (in f32 lanes), s32, u32 and pred.
constexpr const char* kTypes = "(the fused loop runs f32, f16, bf16, s32, u32 and pred)";
bool lane_type(const hlo::Type& t) {
  if (!t.is_array() || !t.is_static()) return false;
  switch (t.etype) {
    case hlo::ElementType::F32:
    case hlo::ElementType::F16:
    case hlo::ElementType::BF16:
    case hlo::ElementType::S32:
    case hlo::ElementType::U32:
    case hlo::ElementType::Pred:
      return true;
    default:
      return false;
  }
}
bool float_type(hlo::ElementType t) {
  return t == hlo::ElementType::F32 || t == hlo::ElementType::F16 || t == hlo::ElementType::BF16;
}

std::vector<std::int64_t> row_major(const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> s(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

// A value of the frame read through an index map: element (i_0, ..., i_r) of the result is the
// operand's element offset + Σ i_d·strides[d] (broadcast: stride 0; slice: start and step;
// transpose: permuted strides).
struct View {
  hlo::ValueId value = 0;
  std::int64_t offset = 0;
  std::vector<std::int64_t> dims, strides;
  bool contiguous() const { return strides == row_major(dims); }
};

// Builds a plan's loop part; "" when it can, else why not (the fusion then runs op by op).
class LoopCompiler {
 public:
  LoopCompiler(const hlo::Program& prog, FusionPlan& plan)
      : prog_(prog), plan_(plan), f_(*plan.lfn->fn), m_(*prog.module) {}

  // The fused loop follows each chain of ops by recursion: a longer fusion (calls inlined into a
  // chain of thousands of ops) runs its ops one by one.
  static constexpr std::size_t kMaxLoopOps = 1024;

  std::string compile(hlo::FusionKind kind) {
    const auto& instrs = plan_.block->instrs;
    if (plan_.members.size() > kMaxLoopOps)
      return "a fusion of " + std::to_string(plan_.members.size()) +
             " ops, more than the fused loop takes (" + std::to_string(kMaxLoopOps) + ")";
    for (std::size_t k = 0; k < plan_.members.size(); ++k)
      for (hlo::ValueId v : f_.results(*instrs[plan_.members[k]].op)) member_of_[v] = k;
    plan_.by_op.assign(plan_.members.size(), 0);
    // The loop part's root and the ops that run through their own kernels.
    std::uint32_t loop_root = plan_.root;
    const hlo::Instr& root = instrs[plan_.root];
    if (kind == hlo::FusionKind::Input) {
      if (root.code != OpCode::Reduce || root.op->operands.count != 2)
        return "an input fusion whose root is not a one-operand reduce";
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
    if (!lane_type(rt))
      return std::string(instrs[loop_root].op->name) + " gives " + rt.text + " " + kTypes;
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
        if (it == member_of_.end() || !in_loop_[it->second] ||
            plan_.members[it->second] == loop_root)
          continue;
        if (instrs[plan_.members[it->second]].code == OpCode::Constant)
          plan_.by_op[it->second] = 1;
        else
          return std::string(instrs[plan_.members[it->second]].op->name) +
                 " is read inside and outside the fused loop";
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
  std::unordered_set<hlo::ValueId> visiting_;   // values being compiled (a cycle: refused)
  std::vector<char> in_loop_;

  int add(LoopNode n) {
    plan_.nodes.push_back(std::move(n));
    return static_cast<int>(plan_.nodes.size()) - 1;
  }

  bool in_loop_member(hlo::ValueId v) const {
    auto it = member_of_.find(v);
    return it != member_of_.end() && !plan_.by_op[it->second];
  }

  // The view of v when v is a value of the frame, or a broadcast, slice, transpose or reshape
  // (of the fusion) of a view; false (why set) otherwise.
  bool view_of(hlo::ValueId v, View* out, std::string* why) {
    const hlo::Type& t = m_.value_type(f_, v);
    auto it = member_of_.find(v);
    if (it == member_of_.end() || plan_.by_op[it->second]) {
      out->value = v;
      out->offset = 0;
      out->dims = t.dims;
      out->strides = row_major(t.dims);
      return true;
    }
    const hlo::Instr& in = plan_.block->instrs[plan_.members[it->second]];
    const hlo::OpAttrs* attrs = prog_.attrs_of(in);
    const std::string name(in.op->name);
    if (in.code != OpCode::BroadcastInDim && in.code != OpCode::Slice &&
        in.code != OpCode::Transpose && in.code != OpCode::Reshape) {
      *why = name + " of a value computed in the loop reads it out of order";
      return false;
    }
    if (!attrs && in.code != OpCode::Reshape) return *why = name + " without its attributes", false;
    View src;
    if (!view_of(f_.operands(*in.op)[0], &src, why)) return false;
    const std::size_t rank = src.dims.size();
    View r;
    r.value = src.value;
    r.offset = src.offset;
    r.dims = t.dims;
    if (in.code == OpCode::Reshape) {
      if (!src.contiguous()) return *why = name + " of a strided view", false;
      r.strides = row_major(t.dims);
    } else if (in.code == OpCode::BroadcastInDim) {
      const std::vector<std::int64_t>& map = attrs->get<hlo::DimsAttrs>().dims;
      if (map.size() != rank) return *why = name + " with a dimension map of another rank", false;
      r.strides.assign(t.dims.size(), 0);
      for (std::size_t i = 0; i < rank; ++i) {
        const auto d = map[i];
        if (d < 0 || d >= static_cast<std::int64_t>(t.dims.size()))
          return *why = name + " with a dimension out of range", false;
        if (src.dims[i] != 1) r.strides[static_cast<std::size_t>(d)] = src.strides[i];
      }
    } else if (in.code == OpCode::Slice) {
      const hlo::SliceAttrs& sl = attrs->get<hlo::SliceAttrs>();
      if (sl.starts.size() != rank || sl.strides.size() != rank || t.dims.size() != rank)
        return *why = name + " with bounds of another rank", false;
      r.strides.resize(rank);
      for (std::size_t i = 0; i < rank; ++i) {
        if (sl.starts[i] < 0 || sl.strides[i] < 1 ||
            sl.starts[i] + (t.dims[i] - 1) * sl.strides[i] >= src.dims[i])
          if (t.dims[i] > 0) return *why = name + " out of its operand's bounds", false;
        r.offset += sl.starts[i] * src.strides[i];
        r.strides[i] = src.strides[i] * sl.strides[i];
      }
    } else {  // transpose: result dimension i is the operand's perm[i]
      const std::vector<std::int64_t>& perm = attrs->get<hlo::DimsAttrs>().dims;
      if (perm.size() != rank || t.dims.size() != rank)
        return *why = name + " with a permutation of another rank", false;
      r.strides.resize(rank);
      for (std::size_t i = 0; i < rank; ++i) {
        const auto d = perm[i];
        if (d < 0 || d >= static_cast<std::int64_t>(rank) ||
            src.dims[static_cast<std::size_t>(d)] != t.dims[i])
          return *why = name + " with a bad permutation", false;
        r.strides[i] = src.strides[static_cast<std::size_t>(d)];
      }
    }
    in_loop_[it->second] = 1;
    *out = std::move(r);
    return true;
  }

  // A node reading a view of the frame: in place, repeated, or gathered through its index map.
  int view_node(const View& v, std::uint32_t reader, std::string* why) {
    const hlo::Type& st = m_.value_type(f_, v.value);
    if (!lane_type(st)) return *why = "a parameter of type " + st.text + " " + kTypes, -1;
    double elements = 1;
    for (auto d : v.dims) elements *= static_cast<double>(d);
    LoopNode n;
    n.value = v.value;
    n.type = st.etype;
    n.instr = reader;
    if (st.elements() == 1) {
      n.kind = Kind::ParamSplat;
    } else if (elements == static_cast<double>(n_) && v.offset == 0 && v.contiguous() &&
               st.elements() == n_) {
      n.kind = Kind::Param;
    } else if (elements == static_cast<double>(n_)) {
      n.kind = Kind::ParamGather;
      n.dims = v.dims;
      n.strides = v.strides;
      n.offset = v.offset;
      n.source_elements = static_cast<std::int64_t>(st.elements());
    } else {
      return *why = "a parameter of " + st.text + " read elementwise in a loop of " +
                    count_text(static_cast<double>(n_)) + " elements",
             -1;
    }
    return add(std::move(n));
  }

  int node_of(hlo::ValueId v, std::uint32_t reader, std::string* why) {
    auto done = node_.find(v);
    if (done != node_.end()) return done->second;
    // HLO text may name an op's operand before it is made: ops that read each other never run.
    if (!visiting_.insert(v).second) {
      *why = "its ops read each other's values (a cycle)";
      return -1;
    }
    int r;
    if (!in_loop_member(v)) {
      View view;
      view_of(v, &view, why);
      r = view_node(view, reader, why);
    } else {
      auto it = member_of_.find(v);
      in_loop_[it->second] = 1;
      r = op_node(plan_.members[it->second], why);
    }
    visiting_.erase(v);
    if (r >= 0) node_[v] = r;
    return r;
  }

  int op_node(std::uint32_t idx, std::string* why) {
    const hlo::Instr& in = plan_.block->instrs[idx];
    const hlo::Op& op = *in.op;
    const auto operands = f_.operands(op);
    const hlo::Type& t = m_.value_type(f_, f_.results(op)[0]);
    const std::string name(op.name);
    auto refuse = [&](const std::string& w) {
      *why = name + " " + w;
      return -1;
    };
    if (!in_vocabulary(in.code)) return refuse("is not in the fused loop's vocabulary yet");
    if (!lane_type(t)) return refuse("on " + t.text + " " + kTypes);
    const hlo::OpAttrs* attrs = prog_.attrs_of(in);
    LoopNode n;
    n.type = t.etype;
    n.instr = idx;
    if (in.code == OpCode::Constant) {
      const hlo::ConstantAttrs* k = attrs ? &attrs->get<hlo::ConstantAttrs>() : nullptr;
      if (t.elements() != 1 || !k || k->literal == hlo::kNoAttrs ||
          k->literal >= prog_.literals.size())
        return refuse("with more than one element");
      const hlo::Literal& lit = prog_.literals[k->literal];
      const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(t.etype));
      if (lit.bytes.size() < eb) return refuse("without its value");
      n.kind = Kind::Splat;
      n.scalar = n_ != 1;
      if (eb == 2) {
        std::uint16_t h;
        std::memcpy(&h, lit.bytes.data(), 2);
        const float f = t.etype == hlo::ElementType::F16 ? f16_to_f32(h) : bf16_to_f32(h);
        std::memcpy(&n.bits, &f, 4);
      } else {
        std::memcpy(&n.bits, lit.bytes.data(), eb);
      }
      return add(std::move(n));
    }
    // A one-element op in a bigger loop (a scalar computed from scalar constants, then broadcast):
    // computed over the block from splats, every lane the same value, the bits of the op alone.
    const bool scalar = t.elements() == 1 && n_ != 1;
    if (!scalar && t.elements() != static_cast<double>(n_))
      return refuse("of " + count_text(t.elements()) + " elements in a loop of " +
                    count_text(static_cast<double>(n_)));
    n.scalar = scalar;
    if (in.code == OpCode::Iota) {
      const hlo::DimensionAttrs* iota = attrs ? &attrs->get<hlo::DimensionAttrs>() : nullptr;
      if (!iota || iota->dimension < 0 ||
          iota->dimension >= static_cast<std::int64_t>(t.dims.size()))
        return refuse("with its dimension out of range");
      n.kind = Kind::Iota;
      n.dims = t.dims;
      n.axis = iota->dimension;
      return add(std::move(n));
    }
    // Data movement: a view of the frame through its index map, or (broadcast, reshape) of a
    // value computed in the loop that keeps its elements in order.
    if (in.code == OpCode::BroadcastInDim || in.code == OpCode::Reshape ||
        in.code == OpCode::Slice || in.code == OpCode::Transpose) {
      const hlo::ValueId src = operands[0];
      View view;
      std::string view_why;
      const int mem = static_cast<int>(member_of_.count(src));
      (void)mem;
      if (view_of(f_.results(op)[0], &view, &view_why)) {
        const hlo::Type& vt = m_.value_type(f_, view.value);
        if (!in_loop_member(view.value) && lane_type(vt)) return view_node(view, idx, why);
      }
      if (in.code == OpCode::Slice || in.code == OpCode::Transpose)
        return refuse(view_why.empty() ? "of a value computed in the loop" : "(" + view_why + ")");
      const int a = node_of(src, idx, why);
      if (a < 0) return -1;
      const LoopNode& s = plan_.nodes[static_cast<std::size_t>(a)];
      const hlo::Type& st = m_.value_type(f_, src);
      if (s.kind == Kind::Splat || s.kind == Kind::ParamSplat) {
        LoopNode c = s;
        c.instr = idx;
        c.scalar = false;
        return add(std::move(c));
      }
      if (s.scalar ||
          st.elements() ==
              n_) {  // every lane already holds the one value, or the same elements in order
        n.kind = Kind::Pass;
        n.a = a;
        return add(std::move(n));
      }
      return refuse("of a value computed in the loop with another shape");
    }
    std::vector<int> ops;
    for (hlo::ValueId v : operands) {
      const int a = node_of(v, idx, why);
      if (a < 0) return -1;
      const LoopNode& o = plan_.nodes[static_cast<std::size_t>(a)];
      if (scalar && !(o.scalar || o.kind == Kind::Splat || o.kind == Kind::ParamSplat))
        return refuse("of one element from a bigger operand");
      ops.push_back(a);
    }
    auto operand = [&](std::size_t i) -> const LoopNode& {
      return plan_.nodes[static_cast<std::size_t>(ops[i])];
    };
    auto same_operands = [&] {
      for (std::size_t i = 0; i < ops.size(); ++i)
        if (operand(i).type != t.etype) return false;
      return true;
    };
    const bool f = float_type(t.etype),
               s32 = t.etype == hlo::ElementType::S32 || t.etype == hlo::ElementType::U32,
               pred = t.etype == hlo::ElementType::Pred;
    simd::Binary bop;
    kernels::MathFn fn;
    const hlo::CompareAttrs* cmp = attrs ? attrs->get_if<hlo::CompareAttrs>() : nullptr;
    if (in.code == OpCode::Convert) {
      if (operand(0).type == t.etype) {
        n.kind = Kind::Pass;
      } else {
        n.kind = Kind::Convert;
        n.from = operand(0).type;
      }
    } else if (simd::binary_of(in.code, &bop) && f && same_operands()) {
      n.kind = Kind::Binary;
      n.op = static_cast<std::uint16_t>(bop);
    } else if (s32 && same_operands() &&
               (in.code == OpCode::Add || in.code == OpCode::Subtract ||
                in.code == OpCode::Multiply || in.code == OpCode::Maximum ||
                in.code == OpCode::Minimum || in.code == OpCode::And || in.code == OpCode::Or ||
                in.code == OpCode::Xor || in.code == OpCode::ShiftLeft ||
                in.code == OpCode::ShiftRightLogical || in.code == OpCode::ShiftRightArithmetic)) {
      n.kind = Kind::IntBinary;
      n.op = static_cast<std::uint16_t>(in.code);
    } else if ((in.code == OpCode::Negate || in.code == OpCode::Abs) && (f || s32) &&
               same_operands()) {
      n.kind = in.code == OpCode::Negate ? Kind::Negate : Kind::Abs;
    } else if (in.code == OpCode::Not && s32 && same_operands()) {
      n.kind = Kind::Not;
    } else if (math_fn(in.code, &fn) && f && same_operands()) {
      n.kind = Kind::Math;
      n.op = static_cast<std::uint16_t>(fn);
    } else if (in.code == OpCode::Compare && pred && cmp && ops.size() == 2 &&
               operand(0).type == operand(1).type &&
               (float_type(operand(0).type) || operand(0).type == hlo::ElementType::S32 ||
                operand(0).type == hlo::ElementType::U32) &&
               !(float_type(operand(0).type) &&
                 cmp->compare_type == hlo::CompareType::TotalOrder)) {
      n.kind = Kind::Compare;
      n.op = static_cast<std::uint16_t>(cmp->direction);
      n.is_unsigned = cmp->compare_type == hlo::CompareType::Unsigned ||
                      operand(0).type == hlo::ElementType::U32;
    } else if ((in.code == OpCode::And || in.code == OpCode::Or || in.code == OpCode::Xor ||
                in.code == OpCode::Not) &&
               pred && same_operands()) {
      n.kind = Kind::Logic;
      n.op = in.code == OpCode::And   ? 0
             : in.code == OpCode::Or  ? 1
             : in.code == OpCode::Xor ? 2
                                      : 3;
    } else if (in.code == OpCode::Select && ops.size() == 3 && operand(0).pred() &&
               operand(1).type == t.etype && operand(2).type == t.etype) {
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

FusedProgram::FusedProgram(const hlo::Program& program, hlo::FusedModule fused)
    : fused_(std::move(fused)) {
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
        for (std::size_t i = 0; i < b.instrs.size(); ++i)
          place[b.instrs[i].op] = {&lf, &b, static_cast<std::uint32_t>(i)};
    };
    walk(lf.body);
    for (const auto& r : lf.regions) walk(r);
  }
  std::unordered_map<const hlo::LBlock*, std::vector<std::size_t>> by_block;
  std::unordered_map<const hlo::LBlock*, std::vector<std::uint32_t>> role;  // BlockPlan::role
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
      if (mp == place.end() || mp->second.block != plan.block)
        same = false;
      else
        plan.members.push_back(mp->second.index);
    }
    if (!same || plan.members.empty() || plan.members.back() != plan.root) continue;
    LoopCompiler lc(program, plan);
    plan.fallback = lc.compile(fu.kind);
    if (!plan.fallback.empty()) {
      plan.nodes.clear();
      plan.has_loop = false;
    }
    plan.param_overwritable.assign(plan.nodes.size(), 0);
    plan.param_own.assign(plan.nodes.size(), 0);
    for (std::size_t k = 0; k < plan.nodes.size(); ++k) {
      const LoopNode& nd = plan.nodes[k];
      if (nd.kind != LoopNode::Kind::Param) continue;
      bool gathered = false;
      for (const LoopNode& g : plan.nodes)
        gathered = gathered || (g.kind == LoopNode::Kind::ParamGather && g.value == nd.value);
      plan.param_overwritable[k] = !gathered;
      for (std::size_t j = 0; j < plan.members.size(); ++j)
        if (plan.by_op[j])
          for (hlo::ValueId r : plan.lfn->fn->results(*plan.block->instrs[plan.members[j]].op))
            plan.param_own[k] = plan.param_own[k] || r == nd.value;
    }
    const std::size_t pi = plans_.size();
    std::vector<std::uint32_t>& roles = role[plan.block];
    roles.resize(plan.block->instrs.size(), kAlone);
    for (std::size_t i = 0; i + 1 < plan.members.size(); ++i) {
      std::uint32_t& r = roles[plan.members[i]];
      if (!fu.alone[i] && r == kAlone) r = 0;
    }
    roles[plan.root] = static_cast<std::uint32_t>(pi + 1);
    by_block[plan.block].push_back(pi);
    plans_.push_back(std::move(plan));
  }
  // A root copied into another fusion stays a root; an op that runs alone is never skipped.
  // The liveness of blocks with fusions, moved: a value dies after the last op that reads it
  // where it runs (a skipped op reads at its fusion's root, a fusion reads at its root).
  for (auto& [block, pis] : by_block) {
    const auto& instrs = block->instrs;
    BlockPlan bp;
    bp.first = &instrs.front();
    bp.size = instrs.size();
    bp.role = std::move(role[block]);
    bp.dead.resize(instrs.size());
    const hlo::Function& f = *plans_[pis.front()].lfn->fn;
    std::unordered_map<hlo::ValueId, std::int64_t> death;
    std::vector<std::int64_t> at(instrs.size());
    for (std::size_t i = 0; i < instrs.size(); ++i) at[i] = static_cast<std::int64_t>(i);
    for (std::size_t pi : pis)
      for (std::uint32_t i : plans_[pi].members)
        if (bp.role[i] == 0) at[i] = std::max(at[i], static_cast<std::int64_t>(plans_[pi].root));
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
          if (it != death.end())
            it->second = std::max(it->second, static_cast<std::int64_t>(plans_[pi].root));
        }
    for (const auto& [v, i] : death) bp.dead[static_cast<std::size_t>(i)].push_back(v);
    for (auto& d : bp.dead) std::sort(d.begin(), d.end());
    blocks_.push_back(std::move(bp));
  }
  std::sort(blocks_.begin(), blocks_.end(), [](const BlockPlan& x, const BlockPlan& y) {
    return std::less<const hlo::Instr*>()(x.first, y.first);
  });
}

FusedProgram::~FusedProgram() = default;

const FusedProgram::BlockPlan* FusedProgram::block_of(const hlo::Instr* in) const {
  std::less<const hlo::Instr*> lt;
  auto it =
      std::upper_bound(blocks_.begin(), blocks_.end(), in,
                       [&](const hlo::Instr* x, const BlockPlan& b) { return lt(x, b.first); });
  if (it == blocks_.begin()) return nullptr;
  --it;
  return lt(in, it->first + it->size) ? &*it : nullptr;
}

const FusedProgram::BlockPlan* FusedProgram::block(const hlo::Instr* first) const {
  const BlockPlan* b = block_of(first);
  return b && b->first == first ? b : nullptr;
}

const std::vector<hlo::ValueId>* FusedProgram::dead_after(const hlo::Instr& in,
                                                          bool* covered) const {
  const BlockPlan* b = block_of(&in);
  *covered = b != nullptr;
  return b ? &b->dead[static_cast<std::size_t>(&in - b->first)] : nullptr;
}

// ---- running ----------------------------------------------------------------------------------

namespace {

// The loop part's output made whole (a kLoop or kOutput fusion's result; a kInput fusion's reduce
// input when it cannot be streamed), as frame[rv]. A kOutput epilogue writes over the dot's result
// when it is the same type and no one else holds it; otherwise a fresh tensor.
bool loop_output(Run& run, const FusionPlan& plan, std::vector<Value>& frame) {
  const auto& instrs = plan.block->instrs;
  const hlo::Function& f = *plan.lfn->fn;
  const hlo::Instr& in = instrs[plan.loop_root];
  const hlo::ValueId rv = f.results(*in.op)[0];
  const hlo::Type& t = run.program().module->value_type(f, rv);
  Tensor out;
  bool reused = false;
  const auto* dead = run.dead_after(instrs[plan.root]);
  for (std::size_t k = 0; k < plan.nodes.size() && !reused; ++k) {
    const LoopNode& nd = plan.nodes[k];
    // Block i of the output is written after block i of every parameter is read (a parameter also
    // read through a broadcast's index map is not overwritable). Made by this fusion (its dot):
    // fresh each time it runs. Otherwise: it must die here, and not while the fusion is repeated
    // for timing.
    if (nd.kind != Kind::Param || !plan.param_overwritable[k]) continue;
    const bool own = plan.param_own[k];
    const bool dies = dead && std::find(dead->begin(), dead->end(), nd.value) != dead->end();
    Value& v = frame[nd.value];
    if ((own || (dies && !run.timing())) && v.is_tensor() && v.tensor.unique() &&
        v.tensor.type == t.etype && v.tensor.dims == t.dims) {
      out = v.tensor;
      reused = true;
    }
  }
  if (!reused) {
    OpCall call{run, *run.program().module, run.program(), *plan.lfn, in, frame};
    if (!call.alloc(0, &out)) return false;
  }
  if (!run_loop(run, plan, frame, out.data(), out.elements(), 0, out.elements())) return false;
  frame[rv] = Value::of(std::move(out));
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
  // The loop reads its parameters in place: each one made before the fusion was computed (as
  // Run::execute checks an op's operands), else an error naming the fusion's root, never a read
  // of a buffer that is not there. (A kOutput fusion's dot makes its own, inside.)
  for (const LoopNode& nd : plan.nodes) {
    if (nd.kind != Kind::Param && nd.kind != Kind::ParamSplat && nd.kind != Kind::ParamGather)
      continue;
    if (frame[nd.value].kind != Value::Kind::None) continue;
    bool own = false;
    for (std::uint32_t i : plan.members)
      for (hlo::ValueId r : f.results(*instrs[i].op)) own = own || r == nd.value;
    if (!own)
      return run.fail_at(*instrs[plan.root].op,
                         "internal error: a value the fusion at " +
                             std::string(instrs[plan.root].op->name) + " reads was never computed",
                         "every value computed before its use", "no value");
  }
  // A kInput fusion's reduce input is streamed into the reduce when nothing after the fusion
  // reads it (it dies at the root).
  const hlo::Instr& root = instrs[plan.root];
  const hlo::ValueId input = f.results(*instrs[plan.loop_root].op)[0];
  bool stream = false;
  if (root.code == OpCode::Reduce && plan.loop_root != plan.root) {
    const auto* dead = run.dead_after(root);
    stream = dead && std::find(dead->begin(), dead->end(), input) != dead->end();
  }
  for (std::size_t k = 0; k < plan.members.size(); ++k) {
    const std::uint32_t i = plan.members[k];
    if (stream && i == plan.root) {
      const hlo::Type& t = run.program().module->value_type(f, input);
      const std::int64_t n = static_cast<std::int64_t>(t.elements());
      OpCall call{run, *run.program().module, run.program(), lfn, root, frame};
      Tensor chunk;  // counted against the memory cap: at most kStreamedChunk elements
      StreamedInput s;
      s.type = t.etype;
      s.dims = t.dims;
      s.fill = [&](std::int64_t begin, std::int64_t end) -> const std::uint8_t* {
        if (chunk.elements() < end - begin && !call.alloc(t.etype, {end - begin}, &chunk))
          return nullptr;
        if (!run_loop(run, plan, frame, chunk.data(), n, begin, end)) return nullptr;
        return chunk.data();
      };
      bool done = false;
      if (!reduce_streamed(call, s, &done)) return false;
      if (done) continue;
      if (!loop_output(run, plan, frame)) return false;  // made whole after all
    }
    if (plan.by_op[k]) {
      if (!run.execute_alone(lfn, instrs[i], frame)) return false;
      continue;
    }
    if (i == plan.loop_root && !stream && !loop_output(run, plan, frame)) return false;
  }
  return !run.failed();
}

}  // namespace rl::interp
