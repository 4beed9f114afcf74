// Calls inlined (inline.h), after XLA's CallInliner (openxla/xla, xla/service/call_inliner.cc):
// every call site gets a copy of its callee's body; the call's results become the callee's
// returned values (the callee's ROOT, in HLO); the callee's arguments (HLO parameters) become the
// call's operands. The callees are read from the lowered program (decode once: the same `callee`
// / `to_apply` the interpreter and the cost analysis use).
#include "hlo/inline.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <unordered_map>

#include "common/memory.h"
#include "hlo/lower.h"
#include "hlo/parse.h"

namespace rl::hlo {

namespace {

constexpr ValueId kUnset = ~ValueId(0);

std::size_t count_ops(const Function& f) {
  std::size_t n = 0;
  for (const auto& b : f.body.blocks) n += b.ops.size();
  for (const auto& r : f.regions)
    for (const auto& b : r.blocks) n += b.ops.size();
  return n;
}

class Inliner {
 public:
  Inliner(const Module& m, const Program& prog) : m_(m), prog_(prog) {
    std::size_t total = 0;
    for (const auto& f : m.functions) total += count_ops(f);
    budget_ = std::max<std::size_t>(100000, 4 * total);
    auto note = [&](const LRegion& r) {
      for (const auto& b : r.blocks)
        for (const auto& in : b.instrs) {
          const OpAttrs* a = prog.attrs_of(in);
          if (in.code == OpCode::Parameter || (a && !a->callees().empty())) instr_[in.op] = &in;
        }
    };
    for (const auto& lf : prog.functions) {
      note(lf.body);
      for (const auto& r : lf.regions) note(r);
    }
    // A function only ever called (never an entry, a loop body, a reducer...) is not inlined
    // into: every call of it gets a copy, and it is left as written.
    called_only_.assign(m.functions.size(), 0);
    std::vector<char> other(m.functions.size(), 0);
    for (const auto& [op, in] : instr_) {
      const OpAttrs* a = prog.attrs_of(*in);
      if (!a) continue;
      for (auto c : a->callees())
        if (c < m.functions.size()) (in->code == OpCode::Call ? called_only_ : other)[c] = 1;
    }
    for (std::size_t i = 0; i < m.functions.size(); ++i)
      if (other[i] || m.functions[i].is_entry) called_only_[i] = 0;
    for (std::uint32_t i = 0; i < m.functions.size(); ++i) by_name_[m.functions[i].name] = i;
    depth_of_.assign(m.functions.size(), -1);
    callee_.assign(m.functions.size(), Callee());
  }

  std::size_t calls = 0, kept = 0;
  std::vector<std::vector<std::uint32_t>> refers;  // by function: the functions its ops refer to
  std::vector<char> inlined_into;                  // by function: a call of it was inlined

  Function build(std::uint32_t fi) {
    const Function& src = m_.functions[fi];
    Function out;
    out.name = src.name;
    out.visibility = src.visibility;
    out.is_entry = src.is_entry;
    out.args = src.args;
    out.result_types = src.result_types;
    out.line = src.line;
    out.column = src.column;
    out.values = src.values;  // the function's own values keep their numbers
    out_ = &out;
    subst_.assign(out.values.size(), kUnset);
    stack_.assign(1, fi);
    inline_here_ = !called_only_[fi];
    fi_ = fi;
    level_ = 0;
    refers.resize(m_.functions.size());
    inlined_into.resize(m_.functions.size(), 0);
    std::vector<ValueId> map(src.values.size());
    std::iota(map.begin(), map.end(), ValueId(0));
    for (const auto& l : src.layouts) out.layouts.push_back(l);
    copy_region(src, map, src.body, &out.body);
    // Every use of a call's result reads the value its callee returned.
    auto resolve = [&](const Region& r) {
      for (const auto& b : r.blocks)
        for (const auto& op : b.ops)
          for (std::uint32_t k = 0; k < op.operands.count; ++k) {
            ValueId& v = out.refs[op.operands.begin + k];
            while (v < subst_.size() && subst_[v] != kUnset) v = subst_[v];
          }
    };
    resolve(out.body);
    for (const auto& r : out.regions) resolve(r);
    std::sort(out.layouts.begin(), out.layouts.end(),
              [](const Function::WrittenLayout& a, const Function::WrittenLayout& b) {
                return a.value < b.value;
              });
    out_ = nullptr;
    return out;
  }

 private:
  const Module& m_;
  const Program& prog_;
  std::unordered_map<const Op*, const Instr*> instr_;  // calls, parameters, ops with callees
  std::vector<char> called_only_;
  std::size_t budget_ = 0, added_ = 0;
  Function* out_ = nullptr;
  std::vector<ValueId> subst_;        // by value of out_: the value it stands for
  std::vector<std::uint32_t> stack_;  // the functions being copied, outermost first
  bool inline_here_ = true;
  std::uint32_t fi_ = 0;
  int level_ = 0;  // regions and inlined calls the copy is inside: bounds the recursion
  std::unordered_map<std::string_view, std::uint32_t> by_name_;
  std::vector<int> depth_of_;  // by function: its regions' nesting (-1: not yet counted)

  // What a callee's body gives every call of it, found once (a call site then costs its
  // parameters, not the callee's ops): its ops, and in HLO its ROOT and its parameters with their
  // numbers (root null: no copy can stand for a call of it).
  struct Callee {
    bool known = false;
    std::size_t ops = 0;
    const Op* root = nullptr;
    std::vector<std::pair<const Op*, std::int64_t>> params;
  };
  std::vector<Callee> callee_;
  const Callee& callee(std::uint32_t c) {
    Callee& k = callee_[c];
    if (k.known) return k;
    k.known = true;
    const Function& g = m_.functions[c];
    k.ops = count_ops(g);
    if (m_.dialect != "hlo" || g.body.blocks.size() != 1) return k;
    bool ok = true;
    for (const auto& op : g.body.blocks[0].ops) {
      if (op.is_root) k.root = &op;
      if (op.code != OpCode::Parameter) continue;
      const OpAttrs* pa = attrs(op);
      const ParameterAttrs* p = pa ? pa->get_if<ParameterAttrs>() : nullptr;
      if (!p || p->number < 0 || op.results.count != 1)
        ok = false;
      else
        k.params.emplace_back(&op, p->number);
    }
    if (!ok || (k.root && (k.root->code == OpCode::Parameter || k.root->results.count != 1)))
      k.root = nullptr;
    return k;
  }

  int region_depth(const Function& f, const Region& r, int depth) const {
    int most = depth;
    for (const auto& b : r.blocks)
      for (const auto& op : b.ops)
        for (const auto& sub : f.nested(op)) most = std::max(most, region_depth(f, sub, depth + 1));
    return most;
  }
  int depth_of(std::uint32_t c) {
    if (depth_of_[c] < 0) depth_of_[c] = region_depth(m_.functions[c], m_.functions[c].body, 0);
    return depth_of_[c];
  }
  // The functions an op's attributes name (HLO's to_apply=%f, called_computations={%f}...), as
  // written: kept for what the lowering does not decode (an all-reduce's reducer), so that a
  // function still named is never dropped.
  void note_names(const Function& src, const Op& op) {
    for (const auto& a : src.attributes(op)) {
      const std::string_view t = a.value;
      for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k] != '%' && t[k] != '@') continue;
        std::size_t e = k + 1;
        while (e < t.size() && (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_' ||
                                t[e] == '.' || t[e] == '-' || t[e] == '$'))
          ++e;
        auto it = by_name_.find(t.substr(k + 1, e - k - 1));
        if (it != by_name_.end()) refers[fi_].push_back(it->second);
        k = e - 1;
      }
    }
  }

  const OpAttrs* attrs(const Op& op) const {
    auto it = instr_.find(&op);
    return it == instr_.end() ? nullptr : prog_.attrs_of(*it->second);
  }

  // The callee of a call this pass may inline here (nullptr: the call stays).
  const Function* inlinable(const Function& caller, const Op& call) {
    if (call.code != OpCode::Call || !inline_here_) return nullptr;
    auto it = instr_.find(&call);
    if (it == instr_.end() || prog_.problem_of(*it->second)) return nullptr;
    const OpAttrs* a = prog_.attrs_of(*it->second);
    if (!a || a->callees().size() != 1 || a->callees()[0] >= m_.functions.size()) return nullptr;
    const std::uint32_t c = a->callees()[0];
    if (std::find(stack_.begin(), stack_.end(), c) != stack_.end()) return nullptr;
    // The copy nests the callee's regions where the call is: within the parser's limit.
    if (level_ + 1 + depth_of(c) >= kMaxDepth) return nullptr;
    const Function& g = m_.functions[c];
    if (g.body.blocks.size() != 1) return nullptr;
    const Callee& facts = callee(c);
    if (added_ + facts.ops > budget_) return nullptr;
    const auto& ops = g.body.blocks[0].ops;
    if (m_.dialect == "hlo") {
      if (call.results.count != 1 || !facts.root) return nullptr;
      // The values keep one layout each: a call whose result or operand is written in another
      // layout than the callee's root or parameter (a bitcast reads it) stays a call.
      if (caller.layout(caller.results(call)[0]) != g.layout(g.results(*facts.root)[0]))
        return nullptr;
      for (const auto& [op, number] : facts.params) {
        if (static_cast<std::size_t>(number) >= call.operands.count) return nullptr;
        if (g.layout(g.results(*op)[0]) !=
            caller.layout(caller.operands(call)[static_cast<std::size_t>(number)]))
          return nullptr;
      }
      return &g;
    }
    if (ops.empty() || g.args.size() != call.operands.count) return nullptr;
    const Op& ret = ops.back();
    if ((ret.code != OpCode::FuncReturn && ret.code != OpCode::Return) ||
        ret.operands.count != call.results.count)
      return nullptr;
    return &g;
  }

  ValueId fresh(const Value& v) {
    out_->values.push_back(v);
    subst_.push_back(kUnset);
    return static_cast<ValueId>(out_->values.size() - 1);
  }

  void copy_region(const Function& src, const std::vector<ValueId>& map, const Region& r,
                   Region* dst, bool call_root = true) {
    for (const auto& b : r.blocks) {
      Block nb;
      for (ValueId a : b.args) nb.args.push_back(map[a]);
      copy_ops(src, map, b, &nb, call_root);
      dst->blocks.push_back(std::move(nb));
    }
  }

  // The ops of block b into nb. `call_root`: whether a ROOT of b stays the ROOT (false inside a
  // callee whose call was not its computation's ROOT).
  void copy_ops(const Function& src, const std::vector<ValueId>& map, const Block& b, Block* nb,
                bool call_root) {
    for (const auto& op : b.ops) {
      if (const Function* g = inlinable(src, op)) {
        inline_call(src, map, op, *g, nb, call_root && op.is_root);
        continue;
      }
      if (op.code == OpCode::Call && inline_here_) ++kept;
      nb->ops.push_back(copy_op(src, map, op, call_root && op.is_root));
    }
  }

  Op copy_op(const Function& src, const std::vector<ValueId>& map, const Op& op, bool root) {
    Function& out = *out_;
    Op o = op;
    o.is_root = root;
    o.operands.begin = static_cast<std::uint32_t>(out.refs.size());
    for (ValueId v : src.operands(op)) out.refs.push_back(map[v]);
    o.results.begin = static_cast<std::uint32_t>(out.refs.size());
    for (ValueId v : src.results(op)) out.refs.push_back(map[v]);
    o.attributes.begin = static_cast<std::uint32_t>(out.attrs.size());
    for (const auto& a : src.attributes(op)) out.attrs.push_back(a);
    if (const OpAttrs* a = attrs(op))
      for (auto c : a->callees()) refers[fi_].push_back(c);
    if (op.code != OpCode::Call) note_names(src, op);
    // The op's regions take consecutive slots; each is built apart and moved in (building one
    // appends the regions nested in it).
    o.regions.begin = static_cast<std::uint32_t>(out.regions.size());
    out.regions.resize(out.regions.size() + op.regions.count);
    ++level_;
    for (std::uint32_t k = 0; k < op.regions.count; ++k) {
      Region r;
      copy_region(src, map, src.regions[op.regions.begin + k], &r);
      out_->regions[o.regions.begin + k] = std::move(r);
    }
    --level_;
    ++added_;
    return o;
  }

  void inline_call(const Function& src, const std::vector<ValueId>& map, const Op& call,
                   const Function& g, Block* nb, bool call_root) {
    ++calls;
    const std::uint32_t c = static_cast<std::uint32_t>(&g - m_.functions.data());
    inlined_into[c] = 1;
    ++level_;
    std::vector<ValueId> gm(g.values.size());
    for (std::size_t v = 0; v < g.values.size(); ++v) gm[v] = fresh(g.values[v]);
    for (const auto& l : g.layouts) out_->layouts.push_back({gm[l.value], l.layout});
    const auto operands = src.operands(call);
    const auto results = src.results(call);
    const bool hlo = m_.dialect == "hlo";
    if (!hlo)
      for (std::size_t i = 0; i < g.args.size(); ++i) subst_[gm[g.args[i]]] = map[operands[i]];
    stack_.push_back(c);
    for (const auto& op : g.body.blocks[0].ops) {
      if (hlo && op.code == OpCode::Parameter) {
        const auto number = attrs(op)->get<ParameterAttrs>().number;
        subst_[gm[g.results(op)[0]]] = map[operands[static_cast<std::size_t>(number)]];
        continue;
      }
      if (!hlo && &op == &g.body.blocks[0].ops.back()) {
        const auto returned = g.operands(op);
        for (std::size_t i = 0; i < results.size(); ++i) subst_[map[results[i]]] = gm[returned[i]];
        continue;
      }
      if (hlo && op.is_root) subst_[map[results[0]]] = gm[g.results(op)[0]];
      if (const Function* h = inlinable(g, op)) {
        inline_call(g, gm, op, *h, nb, call_root && op.is_root);
        continue;
      }
      if (op.code == OpCode::Call) ++kept;
      nb->ops.push_back(copy_op(g, gm, op, call_root && op.is_root));
    }
    stack_.pop_back();
    --level_;
  }
};

}  // namespace

bool inline_calls(const Module& module, Inlined* out) {
  bool any = false;
  std::size_t bytes = 0;
  for (const auto& f : module.functions) {
    if (!f.written_types.empty()) return false;
    for (const auto& b : f.body.blocks)
      for (const auto& op : b.ops) any = any || op.code == OpCode::Call;
    for (const auto& r : f.regions)
      for (const auto& b : r.blocks)
        for (const auto& op : b.ops) any = any || op.code == OpCode::Call;
    bytes += f.values.size() * sizeof(Value) + f.refs.size() * sizeof(ValueId) +
             f.attrs.size() * sizeof(Attribute) + count_ops(f) * (sizeof(Op) + 64);
  }
  // The copy, and the lowering that finds the callees, must fit beside the module; without room
  // the calls stay calls (the fusion pass then fuses each callee's body on its own).
  if (!any || !memory::fits(3 * bytes)) return false;
  LowerOptions lo;
  lo.constants = false;
  lo.liveness = false;
  const Program prog = lower_lenient(module, lo);
  if (!prog.stopped.message.empty()) return false;
  Inliner inliner(module, prog);
  Inlined r;
  r.module.dialect = module.dialect;
  r.module.name = module.name;
  r.module.attributes = module.attributes;
  r.module.line = module.line;
  r.module.source = module.source;
  r.module.types = module.types;
  for (std::size_t fi = 0; fi < module.functions.size(); ++fi)
    r.module.functions.push_back(inliner.build(static_cast<std::uint32_t>(fi)));
  if (inliner.calls == 0) return false;
  r.calls = inliner.calls;
  r.kept = inliner.kept;
  // Dead: a function whose calls were inlined and that nothing printed still names. Every
  // function that was never inlined stays (the entry, loop bodies, reducers, ones nothing calls),
  // and so does every function that one of those, or a live one, names: a call kept, a reducer, a
  // computation an attribute names as written.
  const std::size_t n = module.functions.size();
  std::vector<char> live(n, 0);
  std::vector<std::uint32_t> todo;
  for (std::uint32_t i = 0; i < n; ++i)
    if (!inliner.inlined_into[i] || module.functions[i].is_entry) live[i] = 1, todo.push_back(i);
  while (!todo.empty()) {
    const std::uint32_t f = todo.back();
    todo.pop_back();
    for (auto c : inliner.refers[f])
      if (c < n && !live[c]) live[c] = 1, todo.push_back(c);
  }
  r.dead.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) r.dead[i] = !live[i];
  *out = std::move(r);
  return true;
}

}  // namespace rl::hlo
