// The fusion pass (fuse.h): XLA's InstructionFusion rules over each block of the lowered program,
// then the costs of the grouped program (cost.cpp's walk, fusions counted at their boundary) and
// the fused module printed as HLO text.
//
// XLA's sources followed (openxla/xla):
//   xla/service/instruction_fusion.cc      IsExpensive, EffectivelyAtMostUnary, IsAlwaysDuplicable,
//                                          ShouldFuse ("expensive producer would be duplicated"),
//                                          the reverse post order the pass visits consumers in
//   xla/service/cpu/cpu_instruction_fusion.cc   CanBeLoopFused, CanBeOutputFused, ChooseKind,
//                                          ShouldFuse (non-scalar constants, concatenates, an
//                                          expensive producer into a consumer that reuses its
//                                          elements, no 2-op fusion of a constant and one op)
//   xla/service/hlo_cost_analysis.cc       HandleFusion, FusionParameterReadBytes (cost_rules.cpp)
#include "hlo/fuse.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "hlo/cost_rules.h"
#include "hlo/lower.h"

namespace rl::hlo {

std::string_view fusion_kind_name(FusionKind kind) {
  switch (kind) {
    case FusionKind::Loop: return "kLoop";
    case FusionKind::Input: return "kInput";
    case FusionKind::Output: return "kOutput";
    case FusionKind::Other: return "kCustom";
  }
  return "kLoop";
}

namespace {

constexpr int kNone = -1;

// A fusion being built in one block: its ops by index in the block.
struct Group {
  int root = kNone;
  FusionKind kind = FusionKind::Loop;
  bool has_dot = false;            // holds a dot or convolution (at most one: output fusion)
  std::vector<int> home;           // ops that live only here
  std::vector<int> copies;         // broadcasts, iotas, scalar constants copied in (duplicated)
  bool kept = false;
};

// Where the pass records its result: per fusion, its ops (block indices), its function and block.
struct BlockFusion {
  std::uint32_t function = 0;
  const Block* block = nullptr;
  const LBlock* lblock = nullptr;
  Group group;
  std::vector<int> ops;        // home + copies, ascending
  std::vector<int> copy_only;  // copies that never run alone
};

class Fuser {
 public:
  Fuser(const Module& m, const Program& prog, const FuseOptions& options) : m_(m), prog_(prog), options_(options) {}

  std::vector<BlockFusion> fusions;

  void run() {
    // Computations XLA does not fuse inside: the ones an op applies per element or per pair
    // (reducers, comparators, map and scatter bodies). While, conditional and call bodies are
    // fused on their own.
    std::vector<char> applied(m_.functions.size(), 0);
    for (std::size_t fi = 0; fi < m_.functions.size(); ++fi) {
      const LFunction& lf = prog_.functions[fi];
      auto mark = [&](const LRegion& r, auto& self) -> void {
        for (const auto& b : r.blocks)
          for (const auto& in : b.instrs) {
            const CostFamily fam = op_info(in.code).family;
            if (fam == CostFamily::While || fam == CostFamily::Conditional || fam == CostFamily::Call ||
                fam == CostFamily::AsyncStart)
              continue;
            if (const OpAttrs* a = prog_.attrs_of(in))
              for (auto c : a->callees)
                if (c < applied.size()) applied[c] = 1;
            (void)self;
          }
      };
      mark(lf.body, mark);
      for (const auto& r : lf.regions) mark(r, mark);
    }
    for (std::size_t fi = 0; fi < m_.functions.size(); ++fi) {
      if (applied[fi]) continue;
      const Function& f = m_.functions[fi];
      const LFunction& lf = prog_.functions[fi];
      count_uses(f);
      fuse_region(static_cast<std::uint32_t>(fi), f, lf, f.body, lf.body);
    }
  }

 private:
  const Module& m_;
  const Program& prog_;
  const FuseOptions& options_;
  std::vector<std::uint32_t> uses_;  // by value of the current function: operand uses anywhere in it
  std::vector<int> def_;             // by value: the defining op's index in the current block

  void count_uses(const Function& f) {
    uses_.assign(f.values.size(), 0);
    def_.assign(f.values.size(), kNone);
    auto count = [&](const Region& r) {
      for (const auto& b : r.blocks)
        for (const auto& op : b.ops)
          for (ValueId v : f.operands(op))
            if (v < uses_.size()) ++uses_[v];
    };
    count(f.body);
    for (const auto& r : f.regions) count(r);
  }

  void fuse_region(std::uint32_t fi, const Function& f, const LFunction& lf, const Region& r, const LRegion& lr) {
    for (std::size_t bi = 0; bi < r.blocks.size() && bi < lr.blocks.size(); ++bi) {
      fuse_block(fi, f, r.blocks[bi], lr.blocks[bi]);
      // Bodies of while loops and conditionals inside the block: fused on their own.
      for (const auto& in : lr.blocks[bi].instrs) {
        const CostFamily fam = op_info(in.code).family;
        if (fam != CostFamily::While && fam != CostFamily::Conditional) continue;
        for (std::uint32_t k = 0; k < in.op->regions.count; ++k) {
          const std::uint32_t ri = in.op->regions.begin + k;
          if (ri < f.regions.size() && ri < lf.regions.size()) fuse_region(fi, f, lf, f.regions[ri], lf.regions[ri]);
        }
      }
    }
  }

  const Type& result(const Function& f, const Op& op) const { return m_.value_type(f, f.results(op)[0]); }
  const Type& operand(const Function& f, const Op& op, std::size_t i) const {
    return m_.value_type(f, f.operands(op)[i]);
  }

  // An op the pass may fuse at all: a role in the table, one static array result, static array
  // operands, no lowering problem, no regions but a reduce's reducer (one input, one init).
  bool fusible(const Function& f, const Instr& in) const {
    const Op& op = *in.op;
    const FusionRole role = op_info(in.code).fusion;
    if (role == FusionRole::None || op.results.count != 1 || prog_.problem_of(in)) return false;
    const Type& t = result(f, op);
    if (!t.is_array() || !t.is_static()) return false;
    for (std::size_t i = 0; i < op.operands.count; ++i) {
      const Type& o = operand(f, op, i);
      if (!o.is_array() || !o.is_static()) return false;
    }
    if (role == FusionRole::Reduce) return op.operands.count == 2;
    if (op.regions.count) return false;
    if (role == FusionRole::Constant) return t.elements() <= 1;  // "Don't fuse non-scalar constants."
    return true;
  }

  static bool expensive(FusionRole r) {
    return r == FusionRole::LoopExpensive || r == FusionRole::Reduce || r == FusionRole::Output;
  }
  static bool duplicable(FusionRole r) { return r == FusionRole::Duplicable || r == FusionRole::Constant; }

  // CpuInstructionFusion::ShouldFuse's concatenate rule: more than 8 operands, or a concatenate
  // along the minor dimension with at least 64 bytes along it and 2048 in all, is not fused.
  bool blocked_concatenate(const Function& f, const Instr& in) const {
    if (in.code != OpCode::Concatenate) return false;
    if (in.op->operands.count > 8) return true;
    const Type& t = result(f, *in.op);
    const OpAttrs* a = prog_.attrs_of(in);
    if (!a || t.dims.size() <= 1) return false;
    const auto dim = a->dimension;
    if (dim != static_cast<std::int64_t>(t.dims.size()) - 1) return false;
    return static_cast<double>(t.dims.back()) * t.element_bytes >= 64 && t.byte_size() >= 2048;
  }

  // Whether producer p may join consumer c's fusion g (c uses p's result).
  bool can_fuse(const Function& f, const LBlock& lb, int p, int c, const Group& g) const {
    const Instr& pi = lb.instrs[static_cast<std::size_t>(p)];
    const Instr& ci = lb.instrs[static_cast<std::size_t>(c)];
    const FusionRole pr = op_info(pi.code).fusion, cr = op_info(ci.code).fusion;
    // CanBeLoopFused(consumer): a dot or convolution takes no producers (XLA CPU calls its GEMM
    // library; only tiny matrix-vector operands are fused there, left out here).
    if (cr == FusionRole::Output || cr == FusionRole::None || cr == FusionRole::Constant) return false;
    if (blocked_concatenate(f, pi) || blocked_concatenate(f, ci)) return false;
    // "Cost condition: not fuse (simple, expensive producers) and (consumers who reuse operand
    // elements)": a broadcast that grows, a gather.
    if (expensive(pr)) {
      const bool grows = cr == FusionRole::Duplicable && ci.code != OpCode::Iota &&
                         result(f, *ci.op).elements() > operand(f, *ci.op, 0).elements();
      if (grows || ci.code == OpCode::Gather) return false;
    }
    // A reduce is the root of its input fusion, never a producer inside another one.
    if (pr == FusionRole::Reduce) return false;
    if (pr == FusionRole::Output) {
      if (g.has_dot || g.kind == FusionKind::Input) return false;
      if (cr != FusionRole::Loop && cr != FusionRole::LoopExpensive) return false;  // an elementwise epilogue
      if (options_.dot_epilogues) return true;
      // CanBeOutputFused: consumer add, producer a non-complex dot with a result of rank <= 1
      // and no batch dimensions, used once.
      const OpAttrs* a = prog_.attrs_of(pi);
      const Type& t = result(f, *pi.op);
      return ci.code == OpCode::Add && pi.code != OpCode::Convolution && t.dims.size() <= 1 &&
             t.element.rfind("complex", 0) != 0 && t.element[0] != 'c' && a && a->dot.lhs_batch.empty();
    }
    return true;
  }

  void fuse_block(std::uint32_t fi, const Function& f, const Block& b, const LBlock& lb) {
    const int n = static_cast<int>(lb.instrs.size());
    if (n == 0) return;
    for (int i = 0; i < n; ++i)
      for (ValueId v : f.results(b.ops[static_cast<std::size_t>(i)])) def_[v] = i;
    // Users in the block, each once, and operand uses in the block by value.
    std::vector<std::vector<int>> users(static_cast<std::size_t>(n));
    std::unordered_map<ValueId, std::uint32_t> in_block;
    for (int j = 0; j < n; ++j) {
      const Op& op = b.ops[static_cast<std::size_t>(j)];
      for (ValueId v : f.operands(op)) {
        ++in_block[v];
        const int d = def_[v];
        if (d == kNone) continue;
        auto& u = users[static_cast<std::size_t>(d)];
        if (u.empty() || u.back() != j) u.push_back(j);
      }
    }
    std::vector<char> ok(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ok[static_cast<std::size_t>(i)] = fusible(f, lb.instrs[static_cast<std::size_t>(i)]);
    // Escapes: used outside the block (a nested region, another block) or the computation's ROOT.
    auto escapes = [&](int i) {
      const Op& op = b.ops[static_cast<std::size_t>(i)];
      if (op.is_root) return true;
      for (ValueId v : f.results(op)) {
        auto it = in_block.find(v);
        if (uses_[v] != (it == in_block.end() ? 0u : it->second)) return true;
      }
      return false;
    };

    std::vector<Group> groups;
    std::vector<int> home(static_cast<std::size_t>(n), kNone);
    std::vector<std::set<int>> copied_into(static_cast<std::size_t>(n));  // groups an op is copied into
    std::vector<char> standalone(static_cast<std::size_t>(n), 0);       // runs as its own op too
    // The groups a user's value is computed in, and whether it also runs on its own.
    auto places = [&](int j, std::set<int>* gs) {
      const auto jj = static_cast<std::size_t>(j);
      if (home[jj] != kNone) gs->insert(home[jj]);
      gs->insert(copied_into[jj].begin(), copied_into[jj].end());
    };
    auto start = [&](int i, FusionRole role) {
      Group g;
      g.root = i;
      g.kind = role == FusionRole::Reduce ? FusionKind::Input : role == FusionRole::Output ? FusionKind::Output : FusionKind::Loop;
      g.has_dot = role == FusionRole::Output;
      g.home.push_back(i);
      home[static_cast<std::size_t>(i)] = static_cast<int>(groups.size());
      groups.push_back(std::move(g));
    };

    // Consumers before producers (XLA's reverse post order): when op i is reached, every user
    // of it has been placed.
    for (int i = n - 1; i >= 0; --i) {
      const auto ii = static_cast<std::size_t>(i);
      if (!ok[ii]) continue;
      const FusionRole role = op_info(lb.instrs[ii].code).fusion;
      bool needs_value = escapes(i) || users[ii].empty();
      std::set<int> target;
      for (int j : users[ii]) {
        const auto jj = static_cast<std::size_t>(j);
        if (standalone[jj] || (home[jj] == kNone && copied_into[jj].empty())) needs_value = true;
        places(j, &target);
      }
      if (duplicable(role)) {
        // IsAlwaysDuplicable (broadcast) and EffectivelyAtMostUnary's negligible inputs (iota,
        // scalar constants): copied into every fusion whose ops use it.
        for (int g : target) {
          bool fits = true;
          for (int j : users[ii]) {
            std::set<int> pj;
            places(j, &pj);
            if (pj.count(g) && !can_fuse(f, lb, i, j, groups[static_cast<std::size_t>(g)])) fits = false;
          }
          if (fits) copied_into[ii].insert(g);
          else needs_value = true;
        }
        if (!needs_value && copied_into[ii].size() == 1) {
          const int g = *copied_into[ii].begin();
          copied_into[ii].clear();
          home[ii] = g;
          groups[static_cast<std::size_t>(g)].home.push_back(i);
        } else {
          for (int g : copied_into[ii]) groups[static_cast<std::size_t>(g)].copies.push_back(i);
        }
        if (needs_value) {
          standalone[ii] = 1;
          if (role == FusionRole::Duplicable) {
            start(i, role);
            standalone[ii] = 0;
          }
        }
        continue;
      }
      // Any other op joins a fusion only when all its users are in that one fusion: an expensive
      // producer is never duplicated ("expensive producer would be duplicated"), and a cheap one
      // is not copied here either (fused flops stay the unfused flops).
      if (!needs_value && target.size() == 1) {
        const int g = *target.begin();
        Group& grp = groups[static_cast<std::size_t>(g)];
        bool fits = true;
        for (int j : users[ii])
          if (!can_fuse(f, lb, i, j, grp)) fits = false;
        if (fits) {
          home[ii] = g;
          grp.home.push_back(i);
          if (role == FusionRole::Output) {
            grp.has_dot = true;
            grp.kind = FusionKind::Output;
          }
          continue;
        }
      }
      if (role == FusionRole::Loop || role == FusionRole::LoopExpensive || role == FusionRole::Reduce ||
          role == FusionRole::Output)
        start(i, role);
      else
        standalone[ii] = 1;
    }

    // A fusion needs two ops that are not constants ("avoid creating 2-instruction fusions with
    // just a constant and another node"); the others dissolve into their ops.
    for (auto& g : groups) {
      int real = 0;
      for (int i : g.home)
        if (op_info(lb.instrs[static_cast<std::size_t>(i)].code).fusion != FusionRole::Constant) ++real;
      for (int i : g.copies)
        if (op_info(lb.instrs[static_cast<std::size_t>(i)].code).fusion != FusionRole::Constant) ++real;
      g.kept = real >= 2;
    }
    // Ops of dissolved fusions run alone; a producer copied into fusions then runs alone too when
    // one of its users (in a dissolved fusion, or alone) needs its value in memory.
    for (int i = n - 1; i >= 0; --i) {
      const auto ii = static_cast<std::size_t>(i);
      if (home[ii] != kNone && !groups[static_cast<std::size_t>(home[ii])].kept) home[ii] = kNone;
      for (auto it = copied_into[ii].begin(); it != copied_into[ii].end();)
        it = groups[static_cast<std::size_t>(*it)].kept ? std::next(it) : copied_into[ii].erase(it);
      if (home[ii] == kNone && copied_into[ii].empty()) {
        standalone[ii] = 1;
        continue;
      }
      for (int j : users[ii]) {
        const auto jj = static_cast<std::size_t>(j);
        if (standalone[jj] && (home[jj] == kNone || groups[static_cast<std::size_t>(home[jj])].root != j))
          standalone[ii] = 1;
        std::set<int> pj;
        places(j, &pj);
        for (int g : pj)
          if (home[ii] != g && !copied_into[ii].count(g)) standalone[ii] = 1;
      }
    }
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      Group& g = groups[gi];
      if (!g.kept) continue;
      BlockFusion bf;
      bf.function = fi;
      bf.block = &b;
      bf.lblock = &lb;
      for (int i : g.home)
        if (home[static_cast<std::size_t>(i)] == static_cast<int>(gi)) bf.ops.push_back(i);
      for (int i : g.copies)
        if (copied_into[static_cast<std::size_t>(i)].count(static_cast<int>(gi))) bf.ops.push_back(i);
      std::sort(bf.ops.begin(), bf.ops.end());
      bf.ops.erase(std::unique(bf.ops.begin(), bf.ops.end()), bf.ops.end());
      // An op copied in that also runs alone stays a copy; one that lives only in fusions is
      // costed in the first of them.
      g.copies.clear();
      for (int i : bf.ops)
        if (home[static_cast<std::size_t>(i)] != static_cast<int>(gi)) g.copies.push_back(i);
      for (int i : g.copies)
        if (!standalone[static_cast<std::size_t>(i)]) bf.copy_only.push_back(i);
      bf.group = g;
      fusions.push_back(std::move(bf));
    }
    for (int i = 0; i < n; ++i)
      for (ValueId v : f.results(b.ops[static_cast<std::size_t>(i)])) def_[v] = kNone;
  }
};

}  // namespace

Result<FusedModule> fuse_module(const Module& module, const FuseOptions& options) {
  using R = Result<FusedModule>;
  FusedModule out;
  bool own = false;
  for (const auto& f : module.functions) {
    for (const auto& b : f.body.blocks)
      for (const auto& op : b.ops)
        if (op.code == OpCode::Fusion) own = true;
  }
  if (own) {
    auto a = analyze_module(module);
    if (!a) return R::failure_from(a);
    out.already_fused = true;
    out.analysis = std::move(a.value());
    // The module's own fusions: each fusion instruction's row, its computation's ops.
    std::map<std::tuple<std::uint32_t, int, int>, const OpCost*> rows;
    for (const auto& r : out.analysis.ops) rows[{r.function, r.line, r.column}] = &r;
    LowerOptions lo;
    lo.constants = false;
    lo.liveness = false;
    const Program prog = lower_lenient(module, lo);
    for (std::size_t fi = 0; fi < module.functions.size(); ++fi) {
      const Function& f = module.functions[fi];
      const LFunction& lf = prog.functions[fi];
      for (const auto& lb : lf.body.blocks)
        for (const auto& in : lb.instrs) {
          if (in.code != OpCode::Fusion) continue;
          Fusion fu;
          fu.function = static_cast<std::uint32_t>(fi);
          if (in.op->results.count) fu.name = f.value_name(f.results(*in.op)[0]);
          const Attribute* kind = f.attr(*in.op, "kind");
          fu.kind_name = kind ? std::string(kind->value) : "kLoop";
          fu.kind = fu.kind_name == "kLoop" ? FusionKind::Loop : fu.kind_name == "kInput" ? FusionKind::Input
                    : fu.kind_name == "kOutput" ? FusionKind::Output : FusionKind::Other;
          if (const OpAttrs* a = prog.attrs_of(in))
            if (!a->callees.empty() && a->callees[0] < module.functions.size())
              for (const auto& b : module.functions[a->callees[0]].body.blocks)
                for (const auto& op : b.ops)
                  if (op.code != OpCode::Parameter) fu.ops.push_back({op.line, op.column, op.name});
          auto it = rows.find({static_cast<std::uint32_t>(fi), in.op->line, in.op->column});
          if (it != rows.end()) {
            fu.flops = it->second->flops;
            fu.transcendentals = it->second->transcendentals;
            fu.bytes_accessed = it->second->bytes_accessed;
            fu.unfused_bytes_accessed = it->second->unfused_bytes_accessed;
          }
          out.fusions.push_back(std::move(fu));
        }
    }
    out.text = std::string(*module.source);
    return R::success(std::move(out));
  }

  auto lowered = lower(module);
  if (!lowered) return R::failure_from(lowered);
  const Program& prog = lowered.value();
  Fuser fuser(module, prog, options);
  fuser.run();

  // The groups as the cost walk takes them, with their boundary bytes.
  FusionGroups groups;
  for (std::size_t k = 0; k < fuser.fusions.size(); ++k) {
    const BlockFusion& bf = fuser.fusions[k];
    const Function& f = module.functions[bf.function];
    const Block& b = *bf.block;
    std::set<int> in(bf.ops.begin(), bf.ops.end());
    const Op& root = b.ops[static_cast<std::size_t>(bf.group.root)];
    groups.root.push_back(&root);
    for (int i : bf.group.home) groups.fusion_of.emplace(&b.ops[static_cast<std::size_t>(i)], static_cast<std::uint32_t>(k));
    const double out_bytes = std::max(0.0, module.value_type(f, f.results(root)[0]).byte_size());
    // Parameters: values the fusion's ops use that no op of the fusion makes, in first use order.
    std::vector<ValueId> params;
    std::map<ValueId, std::vector<cost::ParamUse>> uses;
    for (int i : bf.ops) {
      const Op& op = b.ops[static_cast<std::size_t>(i)];
      const auto operands = f.operands(op);
      for (std::size_t oi = 0; oi < operands.size(); ++oi) {
        const ValueId v = operands[oi];
        bool inside = false;
        for (int j : bf.ops)
          for (ValueId r : f.results(b.ops[static_cast<std::size_t>(j)])) inside = inside || r == v;
        if (inside) continue;
        auto& u = uses[v];
        if (u.empty()) params.push_back(v);
        bool again = false;  // each user once
        for (std::size_t k2 = 0; k2 < oi; ++k2) again = again || operands[k2] == v;
        if (!again)
          u.push_back({op.code, std::max(0.0, module.value_type(f, f.results(op)[0]).byte_size()), oi == 0});
      }
    }
    double bytes = out_bytes;
    for (ValueId v : params) bytes += cost::fusion_parameter_read_bytes(std::max(0.0, module.value_type(f, v).byte_size()), uses[v]);
    groups.bytes.push_back(bytes);
    groups.output_bytes.push_back(out_bytes);
  }
  // Ops copied into fusions that never run alone: costed (their own bytes) in the first fusion
  // that holds them; they have no flops.
  for (std::size_t k = 0; k < fuser.fusions.size(); ++k)
    for (int i : fuser.fusions[k].copy_only)
      groups.fusion_of.emplace(&fuser.fusions[k].block->ops[static_cast<std::size_t>(i)], static_cast<std::uint32_t>(k));
  std::vector<FusionCounts> counts;
  auto a = analyze_module(module, groups, &counts);
  if (!a) return R::failure_from(a);
  out.analysis = std::move(a.value());
  for (std::size_t k = 0; k < fuser.fusions.size(); ++k) {
    const BlockFusion& bf = fuser.fusions[k];
    Fusion fu;
    fu.name = "fusion." + std::to_string(k);
    fu.kind = bf.group.kind;
    fu.kind_name = std::string(fusion_kind_name(fu.kind));
    fu.function = bf.function;
    for (int i : bf.ops) {
      const Op& op = bf.block->ops[static_cast<std::size_t>(i)];
      fu.ops.push_back({op.line, op.column, op.name});
    }
    fu.flops = counts[k].flops;
    fu.transcendentals = counts[k].transcendentals;
    fu.unfused_bytes_accessed = counts[k].unfused_bytes_accessed;
    fu.bytes_accessed = groups.bytes[k];
    out.fusions.push_back(std::move(fu));
  }
  return R::success(std::move(out));
}

}  // namespace rl::hlo
