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
#include <unordered_set>

#include "hlo/attrs.h"
#include "hlo/cost_rules.h"
#include "hlo/inline.h"
#include "hlo/lower.h"

namespace rl::hlo {

std::string_view fusion_kind_name(FusionKind kind) {
  switch (kind) {
    case FusionKind::Loop:
      return "kLoop";
    case FusionKind::Input:
      return "kInput";
    case FusionKind::Output:
      return "kOutput";
    case FusionKind::Other:
      return "kCustom";
  }
  return "kLoop";
}

namespace {

constexpr int kNone = -1;

// A fusion being built in one block: its ops by index in the block.
struct Group {
  int root = kNone;
  FusionKind kind = FusionKind::Loop;
  bool has_dot = false;     // holds a dot or convolution (at most one: output fusion)
  std::vector<int> home;    // ops that live only here
  std::vector<int> copies;  // broadcasts, iotas, scalar constants copied in (duplicated)
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
  std::vector<char> alone;     // by ops: also runs on its own (its value is needed in memory)
};

class Fuser {
 public:
  Fuser(const Module& m, const Program& prog, const FuseOptions& options,
        const std::vector<char>& dead)
      : m_(m), prog_(prog), options_(options), dead_(dead) {}

  std::vector<BlockFusion> fusions;

  void run() {
    // Computations XLA does not fuse inside: the ones an op applies per element or per pair
    // (reducers, comparators, map and scatter bodies). While, conditional and call bodies are
    // fused on their own.
    std::vector<char> applied(m_.functions.size(), 0);
    for (std::size_t fi = 0; fi < m_.functions.size(); ++fi) {
      const LFunction& lf = prog_.functions[fi];
      auto mark = [&](const LRegion& r) {
        for (const auto& b : r.blocks)
          for (const auto& in : b.instrs) {
            const CostFamily fam = op_info(in.code).family;
            if (fam == CostFamily::While || fam == CostFamily::Conditional ||
                fam == CostFamily::Call || fam == CostFamily::AsyncStart)
              continue;
            if (const OpAttrs* a = prog_.attrs_of(in))
              for (auto c : a->callees())
                if (c < applied.size()) applied[c] = 1;
          }
      };
      mark(lf.body);
      for (const auto& r : lf.regions) mark(r);
    }
    for (std::size_t fi = 0; fi < m_.functions.size(); ++fi) {
      if (applied[fi] || (fi < dead_.size() && dead_[fi])) continue;
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
  const std::vector<char>& dead_;  // by function: inlined everywhere, no longer called
  std::vector<std::uint32_t>
      uses_;              // by value of the current function: operand uses anywhere in it
  std::vector<int> def_;  // by value: the defining op's index in the current block

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

  void fuse_region(std::uint32_t fi, const Function& f, const LFunction& lf, const Region& r,
                   const LRegion& lr) {
    for (std::size_t bi = 0; bi < r.blocks.size() && bi < lr.blocks.size(); ++bi) {
      fuse_block(fi, f, r.blocks[bi], lr.blocks[bi]);
      // Bodies of while loops and conditionals inside the block: fused on their own.
      for (const auto& in : lr.blocks[bi].instrs) {
        const CostFamily fam = op_info(in.code).family;
        if (fam != CostFamily::While && fam != CostFamily::Conditional) continue;
        for (std::uint32_t k = 0; k < in.op->regions.count; ++k) {
          const std::uint32_t ri = in.op->regions.begin + k;
          if (ri < f.regions.size() && ri < lf.regions.size())
            fuse_region(fi, f, lf, f.regions[ri], lf.regions[ri]);
        }
      }
    }
  }

  const Type& result(const Function& f, const Op& op) const {
    return m_.value_type(f, f.results(op)[0]);
  }
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
    if (role == FusionRole::Constant)
      return t.elements() <= 1;  // "Don't fuse non-scalar constants."
    return true;
  }

  static bool expensive(FusionRole r) {
    return r == FusionRole::LoopExpensive || r == FusionRole::Reduce || r == FusionRole::Output;
  }
  static bool duplicable(FusionRole r) {
    return r == FusionRole::Duplicable || r == FusionRole::Constant;
  }

  // CpuInstructionFusion::ShouldFuse's concatenate rule: more than 8 operands, or a concatenate
  // along the minor dimension with at least 64 bytes along it and 2048 in all, is not fused.
  bool blocked_concatenate(const Function& f, const Instr& in) const {
    if (in.code != OpCode::Concatenate) return false;
    if (in.op->operands.count > 8) return true;
    const Type& t = result(f, *in.op);
    const OpAttrs* a = prog_.attrs_of(in);
    if (!a || t.dims.size() <= 1) return false;
    const auto dim = a->get<DimensionAttrs>().dimension;
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
    if (cr == FusionRole::Output || cr == FusionRole::None || cr == FusionRole::Constant)
      return false;
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
      if (cr != FusionRole::Loop && cr != FusionRole::LoopExpensive)
        return false;  // an elementwise epilogue
      if (options_.dot_epilogues) return true;
      // CanBeOutputFused: consumer add, producer a non-complex dot with a result of rank <= 1
      // and no batch dimensions, used once.
      const OpAttrs* a = prog_.attrs_of(pi);
      const Type& t = result(f, *pi.op);
      return ci.code == OpCode::Add && pi.code != OpCode::Convolution && t.dims.size() <= 1 &&
             t.element.rfind("complex", 0) != 0 && t.element[0] != 'c' && a &&
             a->get<DotDims>().lhs_batch.empty();
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
    for (int i = 0; i < n; ++i)
      ok[static_cast<std::size_t>(i)] = fusible(f, lb.instrs[static_cast<std::size_t>(i)]);
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
    std::vector<std::set<int>> copied_into(
        static_cast<std::size_t>(n));                              // groups an op is copied into
    std::vector<char> standalone(static_cast<std::size_t>(n), 0);  // runs as its own op too
    // The groups a user's value is computed in, and whether it also runs on its own.
    auto places = [&](int j, std::set<int>* gs) {
      const auto jj = static_cast<std::size_t>(j);
      if (home[jj] != kNone) gs->insert(home[jj]);
      gs->insert(copied_into[jj].begin(), copied_into[jj].end());
    };
    auto start = [&](int i, FusionRole role) {
      Group g;
      g.root = i;
      g.kind = role == FusionRole::Reduce   ? FusionKind::Input
               : role == FusionRole::Output ? FusionKind::Output
                                            : FusionKind::Loop;
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
            if (pj.count(g) && !can_fuse(f, lb, i, j, groups[static_cast<std::size_t>(g)]))
              fits = false;
          }
          if (fits)
            copied_into[ii].insert(g);
          else
            needs_value = true;
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
      if (role == FusionRole::Loop || role == FusionRole::LoopExpensive ||
          role == FusionRole::Reduce || role == FusionRole::Output)
        start(i, role);
      else
        standalone[ii] = 1;
    }

    // A fusion needs two ops that are not constants ("avoid creating 2-instruction fusions with
    // just a constant and another node"); the others dissolve into their ops.
    for (auto& g : groups) {
      int real = 0;
      for (int i : g.home)
        if (op_info(lb.instrs[static_cast<std::size_t>(i)].code).fusion != FusionRole::Constant)
          ++real;
      for (int i : g.copies)
        if (op_info(lb.instrs[static_cast<std::size_t>(i)].code).fusion != FusionRole::Constant)
          ++real;
      g.kept = real >= 2;
    }
    // Ops of dissolved fusions run alone; a producer copied into fusions then runs alone too when
    // one of its users (in a dissolved fusion, or alone) needs its value in memory, or when its
    // value escapes the block (a nested region reads it, or it is the ROOT): a broadcast copied
    // into its consumers' fusions whose own fusion dissolved, read by a while body it is not
    // passed to, was computed nowhere (found by scripts/fuzz run's invariant check).
    for (int i = n - 1; i >= 0; --i) {
      const auto ii = static_cast<std::size_t>(i);
      if (home[ii] != kNone && !groups[static_cast<std::size_t>(home[ii])].kept) home[ii] = kNone;
      for (auto it = copied_into[ii].begin(); it != copied_into[ii].end();)
        it = groups[static_cast<std::size_t>(*it)].kept ? std::next(it) : copied_into[ii].erase(it);
      if (home[ii] == kNone && (copied_into[ii].empty() || escapes(i))) {
        standalone[ii] = 1;
        continue;
      }
      for (int j : users[ii]) {
        const auto jj = static_cast<std::size_t>(j);
        if (standalone[jj] &&
            (home[jj] == kNone || groups[static_cast<std::size_t>(home[jj])].root != j))
          standalone[ii] = 1;
        std::set<int> pj;
        places(j, &pj);
        for (int g : pj)
          if (home[ii] != g && !copied_into[ii].count(g)) standalone[ii] = 1;
      }
    }
    // Numbered in program order (by root), as the fused module prints them.
    std::vector<std::size_t> order;
    for (std::size_t gi = 0; gi < groups.size(); ++gi)
      if (groups[gi].kept) order.push_back(gi);
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return groups[x].root < groups[y].root; });
    for (std::size_t gi : order) {
      Group& g = groups[gi];
      BlockFusion bf;
      bf.function = fi;
      bf.block = &b;
      bf.lblock = &lb;
      for (int i : g.home)
        if (home[static_cast<std::size_t>(i)] == static_cast<int>(gi)) bf.ops.push_back(i);
      for (int i : g.copies)
        if (copied_into[static_cast<std::size_t>(i)].count(static_cast<int>(gi)))
          bf.ops.push_back(i);
      std::sort(bf.ops.begin(), bf.ops.end());
      bf.ops.erase(std::unique(bf.ops.begin(), bf.ops.end()), bf.ops.end());
      // An op copied in that also runs alone stays a copy; one that lives only in fusions is
      // costed in the first of them.
      g.copies.clear();
      for (int i : bf.ops)
        if (home[static_cast<std::size_t>(i)] != static_cast<int>(gi)) g.copies.push_back(i);
      for (int i : g.copies)
        if (!standalone[static_cast<std::size_t>(i)]) bf.copy_only.push_back(i);
      for (int i : bf.ops)
        bf.alone.push_back(i != g.root && standalone[static_cast<std::size_t>(i)]);
      bf.group = g;
      fusions.push_back(std::move(bf));
    }
    for (int i = 0; i < n; ++i)
      for (ValueId v : f.results(b.ops[static_cast<std::size_t>(i)])) def_[v] = kNone;
  }
};

// ---- the fused module as XLA prints HLO ------------------------------------------------------
// One computation per function, per region of a while / conditional / reduce... (XLA's
// %region_N), and per fusion (%fused_computation.N, its parameters %param_N); instructions as
// `%name.N = f32[32,8] op(f32[32,16] %a.1, ...), attributes`. Names are numbered once across the
// module, as XLA numbers them. Layouts are not printed (a call whose layouts differ from its
// callee's is left a call by the inliner, so the values keep the ones written).
class Printer {
 public:
  Printer(const Module& m, const Program& prog, const std::vector<BlockFusion>& fusions,
          const std::vector<char>& dead)
      : m_(m), prog_(prog), fusions_(fusions), dead_(dead) {}

  std::string run() {
    if (m_.dialect == "hlo")
      for (const auto& f : m_.functions) {
        written_.insert(f.name);
        for (const auto& v : f.values)
          if (!v.name.empty()) written_.insert(v.name);
      }
    std::string out = "HloModule " + (m_.name.empty() ? std::string("module") : m_.name) + "\n";
    const Function* entry = m_.entry();
    for (std::size_t fi = 0; fi < m_.functions.size(); ++fi)
      if (&m_.functions[fi] != entry && !(fi < dead_.size() && dead_[fi])) out += function(fi);
    for (std::size_t fi = 0; fi < m_.functions.size(); ++fi)
      if (&m_.functions[fi] == entry) out += function(fi);
    return out;
  }

 private:
  const Module& m_;
  const Program& prog_;
  const std::vector<BlockFusion>& fusions_;
  const std::vector<char>& dead_;
  int next_ = 1;
  std::set<std::string> taken_;  // HLO names printed (an inlined callee's copies repeat them)
  std::unordered_set<std::string_view> written_;  // every name the HLO text wrote (its views)
  std::vector<std::string> names_;                // by value of the function being printed

  // A fresh name: never one the HLO text wrote (a name it printed later would repeat).
  std::string id(const std::string& base) {
    for (;;) {
      std::string s = base + "." + std::to_string(next_++);
      if (!written_.count(std::string_view(s))) return s;
    }
  }
  // HLO's spelling of a type, whichever dialect the text was: f32[32,8], pred[], (f32[2], s32[]).
  static std::string type(const Type& t) {
    if (t.kind == Type::Kind::Tuple) {
      std::string s = "(";
      for (std::size_t i = 0; i < t.tuple.size(); ++i) s += (i ? ", " : "") + type(t.tuple[i]);
      return s + ")";
    }
    if (t.kind == Type::Kind::Token) return "token[]";
    if (!t.is_array()) return t.text;
    std::string_view e = element_info(t.etype).hlo;
    std::string s = e.empty() ? t.element : std::string(e);
    s += "[";
    for (std::size_t i = 0; i < t.dims.size(); ++i)
      s += (i ? "," : "") + (t.dims[i] < 0 ? std::string("?") : std::to_string(t.dims[i]));
    return s + "]";
  }
  std::string result_type(const Function& f, const Op& op) const {
    const auto r = f.results(op);
    if (r.size() == 1) return type(m_.value_type(f, r[0]));
    std::string s = "(";
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? ", " : "") + type(m_.value_type(f, r[i]));
    return s + ")";
  }
  static std::string list(const std::vector<std::int64_t>& v) {
    std::string s = "{";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "}";
  }
  static std::string op_name(const Instr& in) {
    if (in.code == OpCode::Unknown) return std::string(in.op->name);
    return std::string(op_short_name(in.code));
  }
  static std::string base_name(const Instr& in) {
    std::string s = op_name(in);
    for (char& c : s)
      if (c == '.') c = '_';
    return s;
  }
  // A constant's value: a scalar as written, anything longer as XLA elides it. The text is only
  // quoted into the printed module (which parses back to the same literal), never read for a value.
  std::string constant_value(const Function& f, const Op& op) const {
    const Attribute* a = f.attr(op, "value");
    if (!a) a = f.attr(op, "literal");
    if (!a) return "{...}";
    std::string_view v = a->value;
    if (v.rfind("dense<", 0) == 0 && v.size() > 7)
      v = v.substr(6, v.find('>') == std::string_view::npos ? 0 : v.rfind('>') - 6);
    if (v.empty() || v.size() > 32 || v.find('[') != std::string_view::npos ||
        v.find('{') != std::string_view::npos || v.find(',') != std::string_view::npos)
      return "{...}";
    return std::string(v);
  }
  // The attributes XLA prints for the op, from its decoded form (both dialects decode alike).
  std::string attributes(const Function& f, const Instr& in,
                         const std::vector<std::string>& called) const {
    std::string s;
    const OpAttrs* a = prog_.attrs_of(in);
    if (m_.dialect == "hlo") {
      // By name only: constant(...) and parameter(...) print these two.
      for (const auto& at : f.attributes(*in.op))
        if (at.name != "literal" && at.name != "parameter_number")
          s += ", " + std::string(at.name) + "=" + std::string(at.value);
      return s;
    }
    if (a) {
      switch (in.code) {
        case OpCode::BroadcastInDim:
        case OpCode::Transpose:
        case OpCode::Reverse:
          s += ", dimensions=" + list(a->get<DimsAttrs>().dims);
          break;
        case OpCode::Reduce:
          s += ", dimensions=" + list(a->get<ReduceAttrs>().dims);
          break;
        case OpCode::Concatenate:
          s += ", dimensions={" + std::to_string(a->get<DimensionAttrs>().dimension) + "}";
          break;
        case OpCode::Iota:
          s += ", iota_dimension=" + std::to_string(a->get<DimensionAttrs>().dimension);
          break;
        case OpCode::Compare: {
          static const char* kDir[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
          s += std::string(", direction=") +
               kDir[static_cast<int>(a->get<CompareAttrs>().direction)];
          break;
        }
        case OpCode::DotGeneral:
        case OpCode::Dot: {
          const DotDims& d = a->get<DotDims>();
          if (!d.lhs_batch.empty()) s += ", lhs_batch_dims=" + list(d.lhs_batch);
          s += ", lhs_contracting_dims=" + list(d.lhs_contracting);
          if (!d.rhs_batch.empty()) s += ", rhs_batch_dims=" + list(d.rhs_batch);
          s += ", rhs_contracting_dims=" + list(d.rhs_contracting);
          break;
        }
        case OpCode::Slice: {
          const SliceAttrs& sl = a->get<SliceAttrs>();
          s += ", slice={";
          for (std::size_t i = 0; i < sl.starts.size(); ++i) {
            s += (i ? ", [" : "[") + std::to_string(sl.starts[i]) + ":" +
                 (i < sl.limits.size() ? std::to_string(sl.limits[i]) : std::string("?"));
            if (i < sl.strides.size() && sl.strides[i] != 1)
              s += ":" + std::to_string(sl.strides[i]);
            s += "]";
          }
          s += "}";
          break;
        }
        default:
          break;
      }
    }
    const CostFamily fam = op_info(in.code).family;
    if (fam == CostFamily::While && called.size() == 2) {
      s += ", condition=%" + called[0] + ", body=%" + called[1];
    } else if (fam == CostFamily::Conditional && !called.empty()) {
      s += ", branch_computations={";
      for (std::size_t i = 0; i < called.size(); ++i) s += (i ? ", %" : "%") + called[i];
      s += "}";
    } else if (!called.empty()) {
      s += ", to_apply=%" + called[0];
    }
    return s;
  }

  std::string operands(const Function& f, const Op& op,
                       const std::unordered_map<ValueId, std::string>* local) const {
    std::string s;
    const auto ops = f.operands(op);
    for (std::size_t i = 0; i < ops.size(); ++i) {
      std::string name;
      if (local) {
        auto it = local->find(ops[i]);
        if (it != local->end()) name = it->second;
      }
      if (name.empty())
        name = ops[i] < names_.size() && !names_[ops[i]].empty() ? names_[ops[i]]
                                                                 : f.value_name(ops[i]);
      s += (i ? ", " : "") + type(m_.value_type(f, ops[i])) + " %" + name;
    }
    return s;
  }

  // The computation a compact reduce (`applies stablehlo.add`) applies, printed into `pre` as XLA
  // prints a reducer: two scalar parameters, one op. Empty when the op has none.
  std::string applied(const Function& f, const Instr& in, std::string* pre) {
    const OpAttrs* at = prog_.attrs_of(in);  // decode.h: ReduceAttrs::applies, read once
    const ReduceAttrs* a = at ? at->get_if<ReduceAttrs>() : nullptr;
    if (!a || a->applies == OpCode::Unknown || in.op->results.count == 0) return "";
    const OpCode code = a->applies;
    const Type& t = m_.value_type(f, f.results(*in.op)[0]);
    std::string e = t.is_array() ? type(t) : t.text;
    e = e.substr(0, e.find('[')) + "[]";
    const std::string name = id("region_" + std::string(op_short_name(code)));
    const std::string p0 = id("Arg_0"), p1 = id("Arg_1"), r = id(std::string(op_short_name(code)));
    *pre += "\n%" + name + " (" + p0 + ": " + e + ", " + p1 + ": " + e + ") -> " + e + " {\n  %" +
            p0 + " = " + e + " parameter(0)\n  %" + p1 + " = " + e + " parameter(1)\n  ROOT %" + r +
            " = " + e + " " + std::string(op_short_name(code)) + "(" + e + " %" + p0 + ", " + e +
            " %" + p1 + ")\n}\n";
    return name;
  }

  // The computations an op calls, printed into `pre` where they are its regions (XLA's
  // %region_N) or a compact reduce's one op; else its callees' names.
  std::vector<std::string> called(std::size_t fi, const Function& f, const Instr& in,
                                  std::string* pre) {
    std::vector<std::string> out;
    const Op& op = *in.op;
    for (std::uint32_t k = 0; k < op.regions.count; ++k) {
      const std::uint32_t ri = op.regions.begin + k;
      if (ri >= f.regions.size() || ri >= prog_.functions[fi].regions.size()) continue;
      const Region& sub = f.regions[ri];
      const std::string rn = id("region_" + std::to_string(ri));
      std::vector<ValueId> sub_args;
      if (!sub.blocks.empty()) sub_args = sub.blocks[0].args;
      *pre += computation(fi, f, sub, prog_.functions[fi].regions[ri], rn, false, sub_args, pre);
      out.push_back(rn);
    }
    if (out.empty())
      if (const OpAttrs* a = prog_.attrs_of(in))
        for (auto c : a->callees())
          if (c < m_.functions.size()) out.push_back(std::string(m_.functions[c].name));
    if (out.empty()) {
      const std::string r = applied(f, in, pre);
      if (!r.empty()) out.push_back(r);
    }
    return out;
  }

  // One instruction's line (without indentation and ROOT); names its results.
  std::string instruction(const Function& f, const Instr& in,
                          const std::vector<std::string>& called,
                          std::unordered_map<ValueId, std::string>* local) {
    const Op& op = *in.op;
    std::string name;
    if (in.code == OpCode::Parameter && !local && op.results.count == 1 &&
        f.results(op)[0] < names_.size())
      name = names_[f.results(op)[0]];
    // HLO text keeps its own (unique) names outside fused computations; a second copy of an
    // inlined callee's op is numbered afresh.
    if (name.empty() && !local && m_.dialect == "hlo" && op.results.count == 1 &&
        !f.values[f.results(op)[0]].name.empty() &&
        taken_.insert(std::string(f.values[f.results(op)[0]].name)).second)
      name = std::string(f.values[f.results(op)[0]].name);
    if (name.empty()) name = id(base_name(in));
    for (ValueId v : f.results(op)) {
      if (local)
        (*local)[v] = name;
      else if (v < names_.size())
        names_[v] = name;
    }
    std::string s = "%" + name + " = " + result_type(f, op) + " ";
    // Several results: HLO's op returns a tuple, each result its get-tuple-element.
    std::string elements;
    const auto results = f.results(op);
    if (!local && results.size() > 1)
      for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string g = id("get-tuple-element");
        if (results[i] < names_.size()) names_[results[i]] = g;
        elements += "\n  %" + g + " = " + type(m_.value_type(f, results[i])) +
                    " get-tuple-element(" + result_type(f, op) + " %" + name +
                    "), index=" + std::to_string(i);
      }
    if (in.code == OpCode::Constant) return s + "constant(" + constant_value(f, op) + ")";
    if (in.code == OpCode::Parameter) {
      const OpAttrs* a = prog_.attrs_of(in);
      const ParameterAttrs* pa = a ? a->get_if<ParameterAttrs>() : nullptr;
      return s + "parameter(" + std::to_string(pa ? pa->number : 0) + ")";
    }
    return s + op_name(in) + "(" + operands(f, op, local) + ")" + attributes(f, in, called) +
           elements;
  }

  std::string function(std::size_t fi) {
    const Function& f = m_.functions[fi];
    names_.assign(f.values.size(), std::string());
    std::string pre;
    const std::string body = computation(fi, f, f.body, prog_.functions[fi].body,
                                         std::string(f.name), f.is_entry, f.args, &pre);
    return pre + body;
  }

  std::string computation(std::size_t fi, const Function& f, const Region& r, const LRegion& lr,
                          const std::string& name, bool entry, const std::vector<ValueId>& args,
                          std::string* pre) {
    std::string head = std::string("\n") + (entry ? "ENTRY " : "") + "%" + name + " (";
    std::string lines;
    // HLO text names a computation's parameters by its parameter instructions (printed in order
    // below); StableHLO's by its arguments.
    const bool hlo_params = m_.dialect == "hlo" && &r == &f.body;
    if (hlo_params) {
      bool first = true;
      for (const auto& b : r.blocks)
        for (const auto& op : b.ops)
          if (op.code == OpCode::Parameter && op.results.count == 1) {
            const ValueId v = f.results(op)[0];
            const std::string pn =
                f.values[v].name.empty() ? id("parameter") : std::string(f.values[v].name);
            if (v < names_.size()) names_[v] = pn;
            head += (first ? "" : ", ") + pn + ": " + type(m_.value_type(f, v));
            first = false;
          }
    }
    for (std::size_t i = 0; i < args.size() && !hlo_params; ++i) {
      const std::string an = id("Arg_" + std::to_string(i));
      if (args[i] < names_.size()) names_[args[i]] = an;
      const std::string t = type(m_.value_type(f, args[i]));
      head += (i ? ", " : "") + an + ": " + t;
      lines += "  %" + an + " = " + t + " parameter(" + std::to_string(i) + ")\n";
    }
    std::string result = "()";
    std::vector<std::string> out;  // the instructions' lines
    std::unordered_map<ValueId, std::size_t> line_of;
    std::string root_line;
    for (std::size_t bi = 0; bi < r.blocks.size() && bi < lr.blocks.size(); ++bi) {
      const Block& b = r.blocks[bi];
      const LBlock& lb = lr.blocks[bi];
      // The fusions of this block: their roots print as fusion instructions, their other ops not.
      std::unordered_map<int, std::size_t> root_of;
      std::set<int> inside;
      for (std::size_t k = 0; k < fusions_.size(); ++k) {
        if (fusions_[k].block != &b) continue;
        root_of[fusions_[k].group.root] = k;
        for (int i : fusions_[k].group.home)
          if (i != fusions_[k].group.root) inside.insert(i);
        for (int i : fusions_[k].copy_only) inside.insert(i);
      }
      for (std::size_t i = 0; i < lb.instrs.size(); ++i) {
        const Instr& in = lb.instrs[i];
        const Op& op = *in.op;
        if (in.code == OpCode::Return || in.code == OpCode::FuncReturn) {
          const auto vals = f.operands(op);
          if (vals.size() == 1 && line_of.count(vals[0])) {
            out[line_of[vals[0]]] = "ROOT " + out[line_of[vals[0]]];
            result = type(m_.value_type(f, vals[0]));
          } else {
            std::vector<std::string> called;
            const std::string tn = id("tuple");
            std::string t = "(", args_text;
            for (std::size_t k = 0; k < vals.size(); ++k) {
              t += (k ? ", " : "") + type(m_.value_type(f, vals[k]));
            }
            t += ")";
            result = vals.size() == 1 ? type(m_.value_type(f, vals[0])) : t;
            out.push_back("ROOT %" + tn + " = " + t + " tuple(" + operands(f, op, nullptr) + ")");
          }
          continue;
        }
        if (inside.count(static_cast<int>(i))) continue;
        auto rk = root_of.find(static_cast<int>(i));
        std::string line;
        if (rk != root_of.end()) {
          line = fusion(fi, f, lb, fusions_[rk->second], rk->second, pre);
        } else {
          line = instruction(f, in, called(fi, f, in, pre), nullptr);
        }
        if (op.is_root) {
          line = "ROOT " + line;
          if (op.results.count) result = result_type(f, op);
        }
        for (ValueId v : f.results(op)) line_of[v] = out.size();
        out.push_back(line);
      }
    }
    head += ") -> " + result + " {\n";
    for (const auto& l : out) lines += "  " + l + "\n";
    return head + lines + "}\n";
  }

  // The fused computation (into `pre`) and the fusion instruction's line.
  std::string fusion(std::size_t fi, const Function& f, const LBlock& lb, const BlockFusion& bf,
                     std::size_t k, std::string* pre) {
    std::unordered_map<ValueId, std::string> local;
    std::set<ValueId> made;
    for (int i : bf.ops)
      for (ValueId v : f.results(*lb.instrs[static_cast<std::size_t>(i)].op)) made.insert(v);
    std::vector<ValueId> params;
    for (int i : bf.ops)
      for (ValueId v : f.operands(*lb.instrs[static_cast<std::size_t>(i)].op))
        if (!made.count(v) && std::find(params.begin(), params.end(), v) == params.end())
          params.push_back(v);
    const std::string cname = "fused_computation." + std::to_string(k);
    std::string head = "\n%" + cname + " (", body;
    for (std::size_t p = 0; p < params.size(); ++p) {
      const std::string pn = id("param_" + std::to_string(p));
      local[params[p]] = pn;
      const std::string t = type(m_.value_type(f, params[p]));
      head += (p ? ", " : "") + pn + ": " + t;
      body += "  %" + pn + " = " + t + " parameter(" + std::to_string(p) + ")\n";
    }
    const Op& root = *lb.instrs[static_cast<std::size_t>(bf.group.root)].op;
    for (int i : bf.ops) {
      const Instr& in = lb.instrs[static_cast<std::size_t>(i)];
      std::string line = instruction(f, in, called(fi, f, in, pre), &local);
      body += std::string("  ") + (in.op == &root ? "ROOT " : "") + line + "\n";
    }
    const std::string rt = result_type(f, root);
    *pre += head + ") -> " + rt + " {\n" + body + "}\n";
    const std::string name = "fusion." + std::to_string(k);
    for (ValueId v : f.results(root))
      if (v < names_.size()) names_[v] = name;
    std::string ops;
    for (std::size_t p = 0; p < params.size(); ++p) {
      const ValueId v = params[p];
      const std::string n = v < names_.size() && !names_[v].empty() ? names_[v] : f.value_name(v);
      ops += (p ? ", " : "") + type(m_.value_type(f, v)) + " %" + n;
    }
    return "%" + name + " = " + rt + " fusion(" + ops +
           "), kind=" + std::string(fusion_kind_name(bf.group.kind)) + ", calls=%" + cname;
  }
};

}  // namespace

Result<FusedModule> fuse_module(const Module& module_given, const FuseOptions& options) {
  using R = Result<FusedModule>;
  FusedModule out;
  bool own = false;
  for (const auto& f : module_given.functions) {
    for (const auto& b : f.body.blocks)
      for (const auto& op : b.ops)
        if (op.code == OpCode::Fusion) own = true;
  }
  if (own) {
    const Module& module = module_given;
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
          const OpAttrs* decoded = prog.attrs_of(in);  // decode.h: the fusion's kind, read once
          const std::string kind = decoded ? decoded->get<CallsAttrs>().fusion_kind : "";
          fu.kind_name = kind.empty() ? "kLoop" : kind;
          fu.kind = fu.kind_name == "kLoop"     ? FusionKind::Loop
                    : fu.kind_name == "kInput"  ? FusionKind::Input
                    : fu.kind_name == "kOutput" ? FusionKind::Output
                                                : FusionKind::Other;
          if (const OpAttrs* a = prog.attrs_of(in))
            if (!a->callees().empty() && a->callees()[0] < module.functions.size())
              for (const auto& b : module.functions[a->callees()[0]].body.blocks)
                for (const auto& op : b.ops)
                  if (op.code != OpCode::Parameter) fu.ops.push_back({op.line, op.column, op.name});
          auto it = rows.find({static_cast<std::uint32_t>(fi), in.op->line, in.op->column});
          if (it != rows.end()) {
            fu.flops = it->second->flops;
            fu.transcendentals = it->second->transcendentals;
            fu.bytes_accessed = it->second->bytes_accessed;
            fu.unfused_bytes_accessed = out.analysis.unfused_bytes(*it->second);
          }
          out.fusions.push_back(std::move(fu));
        }
    }
    out.text = std::string(*module.source);
    return R::success(std::move(out));
  }

  // Calls first (inline.h): the fusions are found in, and refer to, the module with its calls
  // inlined.
  Inlined inlined;
  std::vector<char> dead;
  if (inline_calls(module_given, &inlined)) {
    out.calls_inlined = inlined.calls;
    out.calls_kept = inlined.kept;
    dead = std::move(inlined.dead);
    out.inlined = std::make_shared<const Module>(std::move(inlined.module));
  }
  const Module& module = out.inlined ? *out.inlined : module_given;
  // Lenient: an op that cannot be lowered (an elided HLO literal) is not fused and is costed as
  // the cost analysis costs it; constants' values are not needed to group ops.
  LowerOptions lo;
  lo.constants = false;
  lo.liveness = false;
  const Program prog = lower_lenient(module, lo);
  if (!prog.stopped.message.empty()) return R::failure(prog.stopped);
  Fuser fuser(module, prog, options, dead);
  fuser.run();

  // The groups as the cost walk takes them, with their boundary bytes.
  FusionGroups groups;
  for (std::size_t k = 0; k < fuser.fusions.size(); ++k) {
    const BlockFusion& bf = fuser.fusions[k];
    const Function& f = module.functions[bf.function];
    const Block& b = *bf.block;
    const Op& root = b.ops[static_cast<std::size_t>(bf.group.root)];
    groups.root.push_back(&root);
    for (int i : bf.group.home)
      groups.fusion_of.emplace(&b.ops[static_cast<std::size_t>(i)], static_cast<std::uint32_t>(k));
    const double out_bytes = std::max(0.0, module.value_type(f, f.results(root)[0]).byte_size());
    // Parameters: values the fusion's ops use that no op of the fusion makes, in first use order.
    std::vector<ValueId> params;
    std::map<ValueId, std::vector<cost::ParamUse>> uses;
    std::set<ValueId> made;
    for (int i : bf.ops)
      for (ValueId r : f.results(b.ops[static_cast<std::size_t>(i)])) made.insert(r);
    for (int i : bf.ops) {
      const Op& op = b.ops[static_cast<std::size_t>(i)];
      const auto operands = f.operands(op);
      for (std::size_t oi = 0; oi < operands.size(); ++oi) {
        const ValueId v = operands[oi];
        if (made.count(v)) continue;
        auto& u = uses[v];
        if (u.empty()) params.push_back(v);
        bool again = false;  // each user once
        for (std::size_t k2 = 0; k2 < oi; ++k2) again = again || operands[k2] == v;
        if (!again)
          u.push_back({op.code, std::max(0.0, module.value_type(f, f.results(op)[0]).byte_size()),
                       oi == 0});
      }
    }
    double bytes = out_bytes;
    for (ValueId v : params)
      bytes += cost::fusion_parameter_read_bytes(std::max(0.0, module.value_type(f, v).byte_size()),
                                                 uses[v]);
    groups.bytes.push_back(bytes);
    groups.output_bytes.push_back(out_bytes);
  }
  // Ops copied into fusions that never run alone: costed (their own bytes) in the first fusion
  // that holds them; they have no flops.
  for (std::size_t k = 0; k < fuser.fusions.size(); ++k)
    for (int i : fuser.fusions[k].copy_only)
      groups.fusion_of.emplace(&fuser.fusions[k].block->ops[static_cast<std::size_t>(i)],
                               static_cast<std::uint32_t>(k));
  std::vector<FusionCounts> counts;
  auto a = analyze_module(module, groups, &counts);
  if (!a) return R::failure_from(a);
  out.analysis = std::move(a.value());
  out.text = Printer(module, prog, fuser.fusions, dead).run();
  for (std::size_t k = 0; k < fuser.fusions.size(); ++k) {
    const BlockFusion& bf = fuser.fusions[k];
    Fusion fu;
    fu.name = "fusion." + std::to_string(k);
    fu.kind = bf.group.kind;
    fu.kind_name = std::string(fusion_kind_name(fu.kind));
    fu.function = bf.function;
    for (std::size_t oi = 0; oi < bf.ops.size(); ++oi) {
      const Op& op = bf.block->ops[static_cast<std::size_t>(bf.ops[oi])];
      fu.ops.push_back({op.line, op.column, op.name});
      fu.members.push_back(&op);
      fu.alone.push_back(bf.alone[oi]);
    }
    fu.root = &bf.block->ops[static_cast<std::size_t>(bf.group.root)];
    fu.flops = counts[k].flops;
    fu.transcendentals = counts[k].transcendentals;
    fu.unfused_bytes_accessed = counts[k].unfused_bytes_accessed;
    fu.bytes_accessed = groups.bytes[k];
    out.fusions.push_back(std::move(fu));
  }
  return R::success(std::move(out));
}

}  // namespace rl::hlo
