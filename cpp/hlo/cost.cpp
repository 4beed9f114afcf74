// The cost walk: every function once (memoized), its rows and its totals; the rules live in
// cost_rules.cpp, one per family of the op table.
#include "hlo/cost.h"

#include <cmath>
#include <limits>
#include <unordered_map>

#include "common/float16.h"
#include "common/loop_body.h"
#include "common/memory.h"
#include "hlo/attrs.h"
#include "hlo/cost_rules.h"
#include "hlo/lower.h"
#include "hlo/parse.h"
#include "hlo/verify.h"

namespace rl::hlo {

double Analysis::intensity_of(const OpCost& r) {
  return r.bytes_accessed > 0 ? r.flops / r.bytes_accessed
                              : std::numeric_limits<double>::quiet_NaN();
}

std::vector<const OpCost*> Analysis::top_level() const {
  std::vector<const OpCost*> out;
  for (const auto& r : ops)
    if (r.top_level) out.push_back(&r);
  return out;
}

namespace {

using cost::Props;

class Coster : public cost::CostContext {
 public:
  // The rows go straight into a.ops, each function's (in the order the walk makes them) in a
  // place of its own: one row per op with a cost family, nested regions included, counted
  // before costing. An op whose rule does not walk its regions leaves places empty, closed up
  // at the end (finish_rows); a region walked twice overflows into a list of its own.
  Coster(const Module& m, const Program& prog, Analysis& a, const FusionGroups* groups = nullptr,
         std::vector<FusionCounts>* counts = nullptr, const AnalyzeOptions& options = {})
      : m_(m), prog_(prog), a_(a), groups_(groups), options_(options), counts_(counts) {
    if (groups_ && counts_) {
      counts_->assign(groups_->root.size(), FusionCounts());
      counted_.assign(groups_->root.size(), 0);
    }
    for (const auto& f : m.functions) a_.functions.push_back(f.name);
    std::size_t rows = 0, operands = 0;
    const auto count_fn = out_of_line(&Coster::count_rows);  // common/loop_body.h
    for (const auto& f : m.functions) {
      first_row_.push_back(rows);
      count_fn(f.body, &rows, &operands);
      for (const auto& r : f.regions) count_fn(r, &rows, &operands);
      end_row_.push_back(rows);
    }
    next_row_ = first_row_;
    overflow_.resize(m.functions.size());
    overflow_ranges_.resize(m.functions.size());
    state_.assign(m.functions.size(), kNew);
    memo_.resize(m.functions.size());
    a_.ops.resize(rows);
    if (options_.operand_bytes) {
      a_.operand_ranges.resize(rows);
      a_.operand_bytes_pool.reserve(operands);
    }
  }

  // a.ops in function order without gaps (out of line: see count_rows).
  RL_LOOP_BODY void finish_rows() {
    bool overflowed = false;
    for (const auto& o : overflow_) overflowed = overflowed || !o.empty();
    const bool ranges = options_.operand_bytes;
    if (!overflowed) {
      std::size_t w = 0;
      for (std::size_t f = 0; f < first_row_.size(); ++f)
        for (std::size_t k = first_row_[f]; k < next_row_[f]; ++k, ++w)
          if (w != k) {
            a_.ops[w] = a_.ops[k];
            if (ranges) a_.operand_ranges[w] = a_.operand_ranges[k];
          }
      a_.ops.resize(w);
      if (ranges) a_.operand_ranges.resize(w);
      return;
    }
    std::vector<OpCost> rows;
    std::vector<Range> row_ranges;
    for (std::size_t f = 0; f < first_row_.size(); ++f) {
      const auto first = static_cast<std::ptrdiff_t>(first_row_[f]);
      const auto next = static_cast<std::ptrdiff_t>(next_row_[f]);
      rows.insert(rows.end(), a_.ops.begin() + first, a_.ops.begin() + next);
      rows.insert(rows.end(), overflow_[f].begin(), overflow_[f].end());
      if (!ranges) continue;
      row_ranges.insert(row_ranges.end(), a_.operand_ranges.begin() + first,
                        a_.operand_ranges.begin() + next);
      row_ranges.insert(row_ranges.end(), overflow_ranges_[f].begin(), overflow_ranges_[f].end());
    }
    a_.ops.swap(rows);
    a_.operand_ranges.swap(row_ranges);
  }
  std::string error;
  int error_line = 0, error_column = 0;

  // Costs function `fi` once: its props and its rows (kept for assembly in text order).
  Props function(std::size_t fi, int depth) {
    const Function& f = m_.functions[fi];
    if (state_[fi] == kDone) return memo_[fi];
    if (state_[fi] == kActive || depth >= kMaxDepth) {
      const std::string at = std::to_string(f.line) + ":" + std::to_string(f.column) + ": error: ";
      if (error.empty()) error_line = f.line, error_column = f.column;
      if (error.empty() && depth >= kMaxDepth)
        error = at + "calls nest too deeply at " + std::string(f.name) +
                " \xE2\x80\x94 expected at most 256 levels of calls and regions, got more";
      else if (error.empty())
        error = at + "recursive call of " + std::string(f.name) +
                " \xE2\x80\x94 expected a call graph without cycles, got a cycle through " +
                std::string(f.name);
      return Props();
    }
    state_[fi] = kActive;
    const Function* saved_fn = fn_;
    const LFunction* saved_lf = lf_;
    std::size_t saved_index = fn_index_;
    const int saved_depth = depth_;
    fn_ = &f;
    lf_ = &prog_.functions[fi];
    fn_index_ = fi;
    depth_ = depth + 1;
    Props p = region(lf_->body, f.is_entry);
    fn_ = saved_fn;
    lf_ = saved_lf;
    fn_index_ = saved_index;
    depth_ = saved_depth;
    state_[fi] = kDone;
    memo_[fi] = p;
    return p;
  }

  // ---- CostContext ----
  const OpAttrs* attrs_of(const Function& f, const Op& op) override {
    if (op.results.count == 0) return nullptr;
    const Instr* i = definition_in(prog_.function_index(&f), f.results(op)[0]);
    return i ? prog_.attrs_of(*i) : nullptr;
  }
  bool body(const cost::OpInput& in, std::size_t index, Props* out) override {
    const Op& op = in.op.op;
    if (op.regions.count > index) {
      ++depth_;
      *out = region(lf_->regions[op.regions.begin + index], false);
      --depth_;
      return true;
    }
    if (const Function* f = callee(in, index)) {
      *out = function_props(*f);
      return true;
    }
    const ReduceAttrs* reduce = in.attrs ? in.attrs->get_if<ReduceAttrs>() : nullptr;
    if (reduce && reduce->applies != OpCode::Unknown) {  // decode.h: ReduceAttrs, read once
      *out = Props();
      const OpCode applied = reduce->applies;
      const CostFamily fam = op_info(applied).family;
      if (fam == CostFamily::Elementwise)
        out->flops = 1;
      else if (fam == CostFamily::Transcendental)
        out->trans = 1;
      else
        out->unmodeled[std::string(op_info(applied).mlir)] += 1;
      return true;
    }
    return false;
  }
  const Function* callee(const cost::OpInput& in, std::size_t index) override {
    if (!in.attrs || index >= in.attrs->callees().size()) return nullptr;
    return &m_.functions[in.attrs->callees()[index]];
  }
  Props function_props(const Function& f) override {
    return function(static_cast<std::size_t>(&f - m_.functions.data()), depth_ + 1);
  }
  std::int64_t module_devices() const override {
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
  std::int64_t counted_trips(const cost::OpInput& in) override {
    // After XLA's MatchTrivialLoopTripCount: carry k starts at a constant A, the condition is
    // `compare LT (or LE) k, B` with B a constant, and the body returns `add k, 1` for it.
    const Op& op = in.op.op;
    const Function& f = *fn_;
    if (op.regions.count != 2 || m_.dialect != "stablehlo") return -1;
    const LRegion& cond = lf_->regions[op.regions.begin];
    const LRegion& body = lf_->regions[op.regions.begin + 1];
    if (cond.blocks.size() != 1 || body.blocks.size() != 1) return -1;
    const auto& ca = cond.blocks[0].block->args;
    const auto& ba = body.blocks[0].block->args;
    const auto& ci = cond.blocks[0].instrs;
    const auto& bi = body.blocks[0].instrs;
    if (ci.empty() || bi.empty() || ca.size() != op.operands.count || ba.size() != ca.size())
      return -1;
    // The condition: its return's value, a compare of carry k against a constant.
    const Op& cret = *ci.back().op;
    if (cret.operands.count != 1) return -1;
    const Instr* cmp = def_in(ci, f.operands(cret)[0]);
    if (!cmp || cmp->code != OpCode::Compare || cmp->op->operands.count != 2) return -1;
    const CompareAttrs* ct =
        prog_.attrs_of(*cmp) ? prog_.attrs_of(*cmp)->get_if<CompareAttrs>() : nullptr;
    if (!ct || (ct->direction != Comparison::LT && ct->direction != Comparison::LE)) return -1;
    const auto cv = f.operands(*cmp->op);
    std::size_t k = ca.size();
    for (std::size_t i = 0; i < ca.size(); ++i)
      if (ca[i] == cv[0]) k = i;
    std::int64_t limit = 0, start = 0, step = 0;
    if (k == ca.size() || !scalar_int(def_in(ci, cv[1]), &limit)) return -1;
    // The body: what it returns for carry k is `add k, 1`.
    const Op& bret = *bi.back().op;
    if (bret.operands.count != ca.size()) return -1;
    const Instr* add = def_in(bi, f.operands(bret)[k]);
    if (!add || add->code != OpCode::Add || add->op->operands.count != 2) return -1;
    const auto av = f.operands(*add->op);
    const ValueId other = av[0] == ba[k] ? av[1] : av[1] == ba[k] ? av[0] : ba[k];
    if (other == ba[k] || !scalar_int(def_in(bi, other), &step) || step != 1) return -1;
    // The start: the while's operand k, a constant of the function.
    if (!scalar_int(definition(f.operands(op)[k]), &start)) return -1;
    const __int128 trips = __int128(limit) - start + (ct->direction == Comparison::LE ? 1 : 0);
    return trips <= 0                                         ? 0
           : trips > std::numeric_limits<std::int64_t>::max() ? -1
                                                              : std::int64_t(trips);
  }
  void note(const std::string& text) override { note_ = text; }
  Props unmodeled(const std::string& why) override {
    Props u;
    u.unmodeled[std::string(current_->op.name)] += 1;
    modeled_ = false;
    note_ = why;
    return u;
  }

 private:
  // The op of `instrs` whose results include v (null: none there).
  const Instr* def_in(const std::vector<Instr>& instrs, ValueId v) const {
    for (const Instr& i : instrs)
      for (ValueId r : fn_->results(*i.op))
        if (r == v) return &i;
    return nullptr;
  }
  // The op of the current function that defines v, from a map made the first time it is asked.
  const Instr* definition(ValueId v) { return definition_in(fn_index_, v); }
  // The op of function fi that defines v.
  const Instr* definition_in(std::size_t fi, ValueId v) {
    auto& defs = defs_[fi];
    if (defs.empty()) {
      const Function& f = m_.functions[fi];
      const LFunction& lf = prog_.functions[fi];
      defs.assign(f.values.size(), nullptr);
      auto mark = [&](const LRegion& r) {
        for (const auto& b : r.blocks)
          for (const Instr& i : b.instrs)
            for (ValueId x : f.results(*i.op)) defs[x] = &i;
      };
      mark(lf.body);
      for (const LRegion& r : lf.regions) mark(r);
    }
    return v < defs.size() ? defs[v] : nullptr;
  }
  // A constant scalar integer's value: its literal as the decoder reads it (the program's, or,
  // when the program left constants undecoded, decoded here: a loop has few such constants).
  bool scalar_int(const Instr* i, std::int64_t* out) {
    if (!i || i->code != OpCode::Constant || i->op->results.count != 1) return false;
    const Type& t = m_.value_type(*fn_, fn_->results(*i->op)[0]);
    if (!t.is_array() || !t.dims.empty() || !is_integer(t.etype)) return false;
    const Literal* lit = nullptr;
    if (const OpAttrs* a = prog_.attrs_of(*i);
        a && a->get_if<ConstantAttrs>() && a->get<ConstantAttrs>().literal < prog_.literals.size())
      lit = &prog_.literals[a->get<ConstantAttrs>().literal];
    if (!lit) {
      literals_.clear();
      AttrDecoder decoder(m_, &literals_);
      OpAttrs a;
      bool has = false;
      if (!decoder.decode(OpView{m_, *fn_, *i->op}, &a, &has) || literals_.empty()) return false;
      lit = &literals_.front();
    }
    if (lit->bytes.empty()) return false;
    const int n = element_bytes(t.etype);
    std::uint64_t bits = 0;
    for (int b = n - 1; b >= 0; --b) bits = bits << 8 | lit->bytes[std::size_t(b)];
    const bool sign =
        element_kind(t.etype) == ElementKind::Signed && n < 8 && (bits >> (8 * n - 1)) & 1;
    if (sign) bits |= ~std::uint64_t(0) << (8 * n);
    if (element_kind(t.etype) == ElementKind::Unsigned && n == 8 && bits >> 63) return false;
    *out = static_cast<std::int64_t>(bits);
    return true;
  }

  const Module& m_;
  const Program& prog_;
  Analysis& a_;
  // Fusions (null: none): each fusion's ops are summed into counts_ the first time its region is
  // walked (counted_ marks the fusions whose root has been costed).
  const FusionGroups* groups_;
  AnalyzeOptions options_;
  std::vector<FusionCounts>* counts_;
  std::vector<char> counted_;
  // By function: not costed yet, being costed (a call back into it is a cycle), or costed (memo_).
  enum : std::uint8_t { kNew, kActive, kDone };
  std::vector<std::uint8_t> state_;
  std::vector<Props> memo_;
  // By function: where its rows start and end in a_.ops, where its next row goes, and the rows
  // past its end (a region walked twice).
  std::vector<std::size_t> first_row_, end_row_, next_row_;
  std::vector<std::vector<OpCost>> overflow_;
  std::vector<std::vector<Range>> overflow_ranges_;  // theirs of operand_ranges
  std::size_t ops_ = 0;  // ops costed (the memory check looks every 4096)
  const Function* fn_ = nullptr;
  const LFunction* lf_ = nullptr;
  std::size_t fn_index_ = 0;
  int depth_ = 0;
  // The op being costed.
  const OpView* current_ = nullptr;
  bool modeled_ = true;
  std::string note_;
  std::unordered_map<std::string, std::uint32_t> note_ids_;
  std::unordered_map<std::string, TypeId> result_tuples_;
  // By function: the op defining each value (counted_trips' start), made when first asked.
  std::unordered_map<std::size_t, std::vector<const Instr*>> defs_;
  std::vector<Literal> literals_;  // scalar_int(): a constant's literal, decoded when asked

  // Out of line (common/loop_body.h), as every loop over a module's ops here: V8 optimizes the
  // function holding a long loop once it has run, useless for this one-call walk (14 ms and a 4 MB
  // compilation zone for a 12 MB module).
  RL_LOOP_BODY static void count_rows(const Region& r, std::size_t* rows, std::size_t* operands) {
    for (const auto& b : r.blocks)
      for (const auto& op : b.ops)
        if (op_info(op.code).family != CostFamily::Zero) {
          ++*rows;
          *operands += op.operands.count;
        }
  }

  // An op of a fusion: its flops and own bytes go to the fusion's counts; its bytes become the
  // fusion's boundary bytes at the root, none elsewhere (XLA's HandleFusion).
  void in_fusion(const Op& op, Props* p) {
    const auto it = groups_->fusion_of.find(&op);
    if (it == groups_->fusion_of.end()) return;
    const std::uint32_t k = it->second;
    const bool root = groups_->root[k] == &op;
    if (counts_ && !counted_[k]) {
      FusionCounts& c = (*counts_)[k];
      c.flops += p->flops;
      c.transcendentals += p->trans;
      c.unfused_bytes_accessed += p->unfused;
      if (root) counted_[k] = 1;
    }
    p->bytes = root ? groups_->bytes[k] : 0;
    p->out = root ? groups_->output_bytes[k] : 0;
    p->operand.clear();
  }

  // The next row's place, and its operand_ranges entry (null without operand bytes).
  OpCost& new_row(Range** range) {
    std::size_t& k = next_row_[fn_index_];
    const bool ranges = options_.operand_bytes;
    if (k < end_row_[fn_index_]) {
      *range = ranges ? &a_.operand_ranges[k] : nullptr;
      return a_.ops[k++];
    }
    if (ranges) {
      overflow_ranges_[fn_index_].emplace_back();
      *range = &overflow_ranges_[fn_index_].back();
    } else {
      *range = nullptr;
    }
    overflow_[fn_index_].emplace_back();
    return overflow_[fn_index_].back();
  }

  Props region(const LRegion& r, bool top) {
    Props total;
    if (depth_ > kMaxDepth) {
      if (error.empty()) {
        error =
            "1:1: error: regions nest too deeply \xE2\x80\x94 expected at most 256 levels, got "
            "more";
        error_line = error_column = 1;
      }
      return total;
    }
    const auto add_op_fn = out_of_line(&Coster::add_op);  // common/loop_body.h
    for (const auto& b : r.blocks)
      for (const auto& instr : b.instrs)
        if (!(this->*add_op_fn)(total, instr, top)) return total;
    return total;
  }

  // One op's costs added to its region's (out of line: common/loop_body.h); false on an error.
  RL_LOOP_BODY bool add_op(Props& total, const Instr& instr, bool top) {
    Props p = op_props(OpView{m_, *fn_, *instr.op}, instr, top);
    if (!error.empty()) return false;
    total.add_all(p, 1);
    return true;
  }

  std::uint32_t note_id(const std::string& text) {
    if (text.empty()) return 0;
    auto it = note_ids_.find(text);
    if (it != note_ids_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(a_.notes_pool.size());
    a_.notes_pool.push_back(text);
    note_ids_.emplace(text, id);
    return id;
  }

  // The row's type: the result's, or a tuple of the results for several.
  TypeId row_type(const OpView& op) {
    const auto results = op.f.results(op.op);
    if (results.size() == 1) return op.f.values[results[0]].type;
    std::string key;
    for (ValueId v : results) key += std::to_string(op.f.values[v].type) + ",";
    auto it = result_tuples_.find(key);
    if (it != result_tuples_.end()) return it->second;
    Type t;
    t.kind = results.empty() ? Type::Kind::Opaque : Type::Kind::Tuple;  // no result: no shape ("")
    t.text = "(";
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Type& e = m_.value_type(op.f, results[i]);
      t.tuple.push_back(e);
      t.text += (i ? ", " : "") + to_string(e, m_.dialect);
    }
    t.text += ")";
    if (results.empty()) t.text.clear();
    const auto id = static_cast<TypeId>(m_.types.size() + extra_types_.size());
    extra_types_.push_back(std::move(t));
    result_tuples_.emplace(key, id);
    return id;
  }

 public:
  // The types the rows refer to: the module's, then the tuples made for multi-result rows.
  std::vector<Type> extra_types_;

 private:
  RL_LOOP_BODY Props op_props(const OpView& op, const Instr& instr, bool top) {
    if ((++ops_ & 4095) == 0 && error.empty() && !memory::fits(memory::limit() / 16)) {
      error_line = op.op.line;
      error_column = op.op.column;
      error = std::to_string(op.op.line) + ":" + std::to_string(op.op.column) +
              ": error: the program is too big for the core's memory \xE2\x80\x94 expected room to "
              "cost it in the " +
              std::to_string(memory::limit() >> 20) + " MiB the core has, got " +
              std::to_string(memory::in_use() >> 20) + " MiB in use at this operation";
      return Props();
    }
    const CostFamily fam = op_info(op.op.code).family;
    if (fam == CostFamily::Zero) return Props();
    // Defaults (XLA's Preprocess): every operand and the output, once.
    cost::OpInput in{op, prog_.attrs_of(instr), {}, 0, 0, true};
    const std::size_t nres = op.num_results();
    if (nres == 1)
      in.output_bytes = op.result_type(0).byte_size();
    else if (nres > 1) {
      in.output_bytes = 8.0 * static_cast<double>(nres);  // a tuple: its index table
      for (std::size_t i = 0; i < nres; ++i)
        if (!op.result_type(i).is_static()) in.static_shapes = false;
    }
    if (in.output_bytes < 0) in.static_shapes = false;
    in.operand_bytes.resize(op.num_operands());  // inline: no allocation
    for (std::size_t i = 0; i < in.operand_bytes.size(); ++i) {
      in.operand_bytes[i] = op.operand_type(i).byte_size();
      if (in.operand_bytes[i] < 0) in.static_shapes = false;
    }
    if (nres > 0) {
      const Type& t = op.result_type(0);
      in.output_elements =
          t.kind == Type::Kind::Tuple && !t.tuple.empty() ? t.tuple[0].elements() : t.elements();
    }
    // The row's state; an op costed inside this one (a callee's, a region's) keeps its own.
    const OpView* saved = current_;
    const bool saved_modeled = modeled_;
    std::string saved_note = std::move(note_);
    current_ = &op;
    modeled_ = true;
    note_.clear();
    Props p;
    if (const Error* problem = prog_.problem_of(instr)) {
      p = unmodeled(problem->without_place());
    } else if (!in.static_shapes && !cost::contains_computations(fam)) {
      p = unmodeled("dynamic or unknown shape: counts need static shapes");
    } else {
      p = cost::rule_for(fam)(in, *this);
      if (!cost::contains_computations(fam)) p.unfused = p.bytes;
    }
    if (groups_) in_fusion(op.op, &p);
    Range* range = nullptr;
    OpCost& row = new_row(&range);
    row.line = op.op.line;
    row.column = op.op.column;
    row.op = op.op.name;
    row.function = static_cast<std::uint32_t>(fn_index_);
    row.type = row_type(op);
    row.flops = p.flops;
    row.transcendentals = p.trans;
    row.bytes_accessed = p.bytes;
    row.output_bytes = p.out;
    if (range) {
      range->begin = static_cast<std::uint32_t>(a_.operand_bytes_pool.size());
      range->count = static_cast<std::uint32_t>(p.operand.size());
      a_.operand_bytes_pool.insert(a_.operand_bytes_pool.end(), p.operand.begin(), p.operand.end());
    }
    row.modeled = modeled_;
    if (!p.unmodeled.empty() && row.modeled && note_.empty())
      note_ = "contains ops without a cost rule";
    const std::uint32_t note = note_id(note_);
    // Bit for bit: an unfused count that is another double (or a NaN) keeps its own.
    if (note != 0 || double_bits(p.coll) != 0 || double_bits(p.unfused) != double_bits(p.bytes)) {
      row.extra = static_cast<std::uint32_t>(a_.extras.size());
      a_.extras.push_back(OpCostExtra{p.unfused, p.coll, note});
    } else {
      row.extra = 0;
    }
    row.top_level = top;
    current_ = saved;
    modeled_ = saved_modeled;
    note_ = std::move(saved_note);
    return p;
  }
};

}  // namespace

namespace {

// The analysis; the module's types are copied into it, or moved when `consumed` is the module
// (analyze_text drops each module once analysed).
Result<Analysis> analyze(const Module& module, Module* consumed,
                         const FusionGroups* groups = nullptr,
                         std::vector<FusionCounts>* counts = nullptr,
                         const AnalyzeOptions& analyze_options = {}) {
  Analysis a;
  a.dialect = module.dialect;
  a.module_name = module.name;
  a.source = module.source;
  // The lowering and the rows take room in proportion to the ops: refused up front when the
  // heap cannot hold them (an allocation past it would abort the wasm module).
  std::size_t ops = 0, operands = 0;
  for (const auto& f : module.functions) {
    ops += f.values.size();
    operands += f.refs.size();
  }
  const std::size_t need = ops * (sizeof(Instr) + sizeof(OpCost) + 48) +
                           (analyze_options.operand_bytes ? operands * sizeof(double) : 0);
  if (!memory::fits(need)) {
    return Result<Analysis>::failure(
        "the module is too big for the core's memory: costing its " + std::to_string(ops) +
        " values needs about " + std::to_string(need >> 20) + " MiB more, with " +
        std::to_string(memory::in_use() >> 20) + " MiB of the " +
        std::to_string(memory::limit() >> 20) + " MiB the core has in use");
  }
  LowerOptions options;
  options.constants = false;  // no cost rule reads a constant's value
  options.liveness = false;   // nor which values die where
  const Program program = lower_lenient(module, options);
  if (!program.stopped.message.empty()) return Result<Analysis>::failure(program.stopped);
  Coster c(module, program, a, groups, counts, analyze_options);
  Props entry_props;
  const Function* entry = module.entry();
  for (std::size_t i = 0; i < module.functions.size(); ++i) {
    Props p = c.function(i, 0);
    if (!c.error.empty())
      return Result<Analysis>::failure_at(c.error, c.error_line, c.error_column);
    if (&module.functions[i] == entry) entry_props = p;
  }
  (c.*out_of_line(&Coster::finish_rows))();
  // The rows' types. Taken from the module last: the minimum traffic below still reads them.
  auto take_types = [&]() {
    if (consumed)
      a.types = std::move(consumed->types);
    else
      a.types = module.types;
    a.types.insert(a.types.end(), std::make_move_iterator(c.extra_types_.begin()),
                   std::make_move_iterator(c.extra_types_.end()));
  };
  if (!entry) {
    take_types();
    return Result<Analysis>::success(std::move(a));
  }
  a.entry = std::string(entry->name);
  const Props& p = entry_props;
  a.flops = p.flops;
  a.transcendentals = p.trans;
  a.bytes_accessed = p.bytes;
  a.unfused_bytes_accessed = p.unfused;
  a.bytes_accessed_output = p.out;
  a.collective_bytes = p.coll;
  for (std::size_t i = 0; i < p.operand.size(); ++i)
    a.bytes_accessed_operand[static_cast<int>(i)] = p.operand[i];
  for (auto& [k, v] : p.unmodeled) a.unmodeled.emplace_back(k, v);
  a.notes = p.notes;
  a.intensity =
      a.bytes_accessed > 0 ? a.flops / a.bytes_accessed : std::numeric_limits<double>::quiet_NaN();
  double traffic = 0;
  bool known = true;
  for (ValueId v : entry->args) {
    const double b = module.value_type(*entry, v).leaf_bytes();
    if (b < 0)
      known = false;
    else
      traffic += b;
  }
  for (TypeId t : entry->result_types) {
    const double b = module.type(t).leaf_bytes();
    if (b < 0)
      known = false;
    else
      traffic += b;
  }
  a.minimum_traffic_bytes = traffic;
  if (!known) a.notes.push_back("minimum traffic leaves out arguments or results of dynamic shape");
  take_types();
  return Result<Analysis>::success(std::move(a));
}

}  // namespace

Result<Analysis> analyze_module(const Module& module) { return analyze(module, nullptr); }
Result<Analysis> analyze_module(Module&& module, const AnalyzeOptions& options) {
  return analyze(module, &module, nullptr, nullptr, options);
}
Result<Analysis> analyze_module(const Module& module, const FusionGroups& groups,
                                std::vector<FusionCounts>* counts) {
  return analyze(module, nullptr, &groups, counts);
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
