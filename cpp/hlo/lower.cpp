#include "hlo/lower.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <type_traits>

#include "common/loop_body.h"
#include "common/memory.h"
#include "hlo/op_memo.h"
#include "hlo/verify.h"

namespace rl::hlo {

namespace {

class Lowerer {
 public:
  Lowerer(const Module& m, const LowerOptions& options) : m_(m), options_(options) {
    p_.module = &m;
  }

  Program run() {
    p_.functions.resize(m_.functions.size());
    for (std::size_t i = 0; i < m_.functions.size(); ++i) {
      const Function& f = m_.functions[i];
      LFunction& lf = p_.functions[i];
      lf.fn = &f;
      lf.regions.resize(f.regions.size());
      fn_ = &f;
      lf_ = &lf;
      region(f.body, lf.body);
      if (options_.liveness && p_.stopped.message.empty()) liveness(f, lf);
    }
    return std::move(p_);
  }

 private:
  const Module& m_;
  LowerOptions options_;
  Program p_;
  const Function* fn_ = nullptr;
  LFunction* lf_ = nullptr;
  OpMemo memo_;
  std::size_t ops_ = 0;
  std::deque<std::string>
      keys_;  // sharing_key of each entry of p_.attrs (stable: by_key_ views them)
  NameMap<std::uint32_t> by_key_;  // → its index in p_.attrs
  std::vector<bool> plain_ = std::vector<bool>(static_cast<std::size_t>(OpCode::Count_), false);
  AttrDecoder decoder_{m_, options_.constants ? &p_.literals : nullptr};

  // One op lowered. Ops alike (op_memo.h) share one decoding; ops of a code without attributes
  // to decode are not looked at again once one has shown it.
  RL_LOOP_BODY Instr instr(const Op& op) {
    Instr in;
    in.op = &op;
    in.code = op.code;
    if ((++ops_ & 4095) == 0 && p_.stopped.message.empty() && !memory::fits(memory::limit() / 8)) {
      p_.stopped =
          Error{std::to_string(op.line) + ":" + std::to_string(op.column) +
                    ": error: the program is too big for the core's memory \xE2\x80\x94 expected "
                    "room to lower it in the " +
                    std::to_string(memory::limit() >> 20) + " MiB the core has, got " +
                    std::to_string(memory::in_use() >> 20) + " MiB in use at this operation",
                {},
                op.line,
                op.column};
    }
    if (!p_.stopped.message.empty()) return in;
    if (plain_[static_cast<std::size_t>(op.code)]) return in;
    decoder_.clear_error();
    const OpView view{m_, *fn_, op};
    std::uint64_t h = 0;
    const std::uint32_t known = memo_.find(view, &h);
    if (known != OpMemo::kNone)
      in.attrs = known;
    else  // through a pointer, so binaryen keeps it out of this function (common/loop_body.h)
      (this->*out_of_line(&Lowerer::first_of_its_kind))(view, h, &in);
    return in;
  }

  // An op unlike any lowered before (op_memo.h): its attributes decoded, or its problem noted.
  // The decoders of every family make this function big: kept out of instr, which runs for every
  // op, it is called seldom and stays in V8's baseline tier — optimizing it cost 47 ms and an
  // 8 MB compilation zone on a 12 MB module whose 200,000 ops are four kinds.
  void first_of_its_kind(const OpView& view, std::uint64_t h, Instr* out) {
    Instr& in = *out;
    const Op& op = view.op;
    OpAttrs decoded;
    bool has = false;
    if (!decoder_.decode(view, &decoded, &has)) {
      in.problem = static_cast<std::uint32_t>(p_.problems.size());
      p_.problems.push_back(decoder_.error());
    } else if (has) {
      in.attrs = static_cast<std::uint32_t>(p_.attrs.size());
      p_.attrs.push_back(std::move(decoded));
      // Ops unlike each other (other types, say) often decode alike: they share the entry.
      keys_.push_back(sharing_key(op.code, p_.attrs[in.attrs]));
      bool had = false;
      std::uint32_t& shared = by_key_.get_or_add(keys_.back(), &had);
      if (had) {
        p_.attrs.pop_back();
        keys_.pop_back();
        in.attrs = shared;
      } else {
        shared = in.attrs;
      }
      memo_.remember(view, h, in.attrs);
    } else {
      plain_[static_cast<std::size_t>(op.code)] = true;
    }
  }

  void region(const Region& r, LRegion& out) {
    out.blocks.resize(r.blocks.size());
    const auto instr_fn = out_of_line(&Lowerer::instr);  // common/loop_body.h
    for (std::size_t b = 0; b < r.blocks.size(); ++b) {
      out.blocks[b].block = &r.blocks[b];
      out.blocks[b].instrs.reserve(r.blocks[b].ops.size());
      for (const Op& op : r.blocks[b].ops) {
        out.blocks[b].instrs.push_back((this->*instr_fn)(op));
        for (std::uint32_t k = 0; k < op.regions.count; ++k) {
          const std::uint32_t index = op.regions.begin + k;
          region(fn_->regions[index], lf_->regions[index]);
        }
      }
    }
  }

  // ---- liveness (Program::dead) ----

  static constexpr std::uint32_t kNone = ~std::uint32_t(0);

  // Every operand used by the ops of `r`, nested regions included.
  void uses_in(const Function& f, const Region& r, std::vector<ValueId>* out) const {
    for (const Block& b : r.blocks)
      for (const Op& op : b.ops) {
        for (ValueId v : f.operands(op)) out->push_back(v);
        for (const Region& inner : f.nested(op)) uses_in(f, inner, out);
      }
  }

  void liveness(const Function& f, LFunction& lf) {
    std::vector<std::uint32_t> owner(f.values.size(), kNone), seen(f.values.size(), kNone);
    std::uint32_t next = 0;
    auto walk = [&](const Region& r, LRegion& lr, bool entry, auto&& self) -> void {
      for (std::size_t bi = 0; bi < r.blocks.size(); ++bi) {
        const Block& b = r.blocks[bi];
        LBlock& lb = lr.blocks[bi];
        const std::uint32_t id = next++;
        std::vector<ValueId> args = b.args;
        if (entry && bi == 0) args.insert(args.end(), f.args.begin(), f.args.end());
        for (ValueId v : args)
          if (v < owner.size()) owner[v] = id;
        for (const Op& op : b.ops)
          for (ValueId v : f.results(op))
            if (v < owner.size()) owner[v] = id;
        std::vector<ValueId> uses;
        for (std::size_t i = b.ops.size(); i-- > 0;) {
          const Op& op = b.ops[i];
          uses.assign(f.operands(op).begin(), f.operands(op).end());
          for (const Region& inner : f.nested(op)) uses_in(f, inner, &uses);
          std::vector<ValueId> dead;
          for (ValueId v : uses)
            if (v < owner.size() && owner[v] == id && seen[v] != id) {
              seen[v] = id;
              dead.push_back(v);
            }
          // HLO's ROOT value is the computation's result: it outlives the block, even when it
          // is a parameter (`ROOT rhs = s32[] parameter(1)`, a body that keeps the update).
          for (ValueId v : f.results(op))
            if (v < seen.size() && seen[v] != id) {
              seen[v] = id;
              if (!op.is_root) dead.push_back(v);
            }
          if (i == 0)
            for (ValueId v : args)
              if (v < seen.size() && seen[v] != id) {
                seen[v] = id;
                dead.push_back(v);
              }
          if (!dead.empty() && i < lb.instrs.size()) {
            lb.instrs[i].dead = static_cast<std::uint32_t>(p_.dead.size());
            p_.dead.push_back(std::move(dead));
          }
        }
        for (const Op& op : b.ops)
          for (std::uint32_t k = 0; k < op.regions.count; ++k)
            self(f.regions[op.regions.begin + k], lf.regions[op.regions.begin + k], false, self);
      }
    };
    walk(f.body, lf.body, true, walk);
  }
};

}  // namespace

Program lower_lenient(const Module& module) { return Lowerer(module, LowerOptions()).run(); }
Program lower_lenient(const Module& module, const LowerOptions& options) {
  return Lowerer(module, options).run();
}

Result<Program> lower(const Module& module) {
  auto v = verify(module);
  if (!v) return Result<Program>::failure_from(v);
  return lower_verified(module);
}

Result<Program> lower_verified(const Module& module) {
  Program p = lower_lenient(module);
  if (!p.stopped.message.empty()) return Result<Program>::failure(p.stopped);
  if (!p.problems.empty()) return Result<Program>::failure(p.problems.front());
  return Result<Program>::success(std::move(p));
}

}  // namespace rl::hlo
