// The evaluator's hot path: tensors' storage, what a kernel reaches through OpCall, and Run —
// calls, regions, one op through its kernel, timing, liveness. A loop body of scalar ops spends
// its time here, not in kernels (scripts/bench's scalar loop measures it).
#include "interp/run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/numbers.h"
#include "hlo/parse.h"
#include "measure/harness.h"
#include "measure/timer.h"

namespace rl::interp {

// ---- storage ------------------------------------------------------------------------------------

std::shared_ptr<Storage> Storage::allocate(const std::shared_ptr<Memory>& memory,
                                           std::size_t bytes) {
  if (memory && !memory->reserve(bytes)) return nullptr;
  std::shared_ptr<Storage> s = std::make_shared<Storage>(Key{});
  if (bytes <= kInlineBytes) {
    s->data_ = s->inline_;
  } else {
    s->data_ = static_cast<std::uint8_t*>(std::malloc(bytes));
    if (!s->data_) {
      if (memory) memory->release(bytes);
      return nullptr;
    }
  }
  s->bytes_ = bytes;
  s->memory_ = memory;
  return s;
}

Storage::~Storage() {
  if (data_ != inline_) std::free(data_);
  if (memory_) memory_->release(bytes_);
}

// ---- OpCall
// ---------------------------------------------------------------------------------------

bool OpCall::alloc(ElementType type, std::vector<std::int64_t> dims, Tensor* out) const {
  if (!hlo::is_computable(type))
    return fail("cannot make a tensor", "a computable element type",
                std::string(hlo::element_info(type).mlir));
  double n = 1;
  for (auto d : dims) n *= static_cast<double>(d);
  const double bytes = n * hlo::element_bytes(type);
  const auto& mem = run.memory();
  if (!(bytes <= static_cast<double>(mem->cap() - mem->live()))) {
    // Say what the whole program needs (its IR's liveness), so the cap is raised once, not op by
    // op.
    const MemoryNeed need = memory_need(run.program());
    return fail(std::string(op().name) + " needs " + format_number(bytes) + " bytes for a result",
                "at most the memory cap of " + std::to_string(mem->cap()) +
                    " bytes of live tensors (" + std::to_string(mem->live()) +
                    " in use; by its IR the program's values need up to " +
                    format_number(need.bytes) + " bytes, reached at " + std::to_string(need.line) +
                    ":" + std::to_string(need.column) + " " + need.op +
                    ", ops' scratch on top: raise memory_cap to run it)",
                "more");
  }
  Tensor t;
  t.type = type;
  t.dims = std::move(dims);
  t.storage = Storage::allocate(mem, static_cast<std::size_t>(bytes));
  if (!t.storage)
    return fail(std::string(op().name) + " could not allocate " + format_number(bytes) + " bytes",
                "memory from the heap", "none left");
  *out = std::move(t);
  return true;
}

bool OpCall::alloc(std::size_t i, Tensor* out) const {
  const hlo::Type& t = out_type(i);
  if (!t.is_array() || !t.is_static())
    return fail("cannot make a result", "a static array type", t.text);
  return alloc(t.etype, t.dims, out);
}

void OpCall::set_all(std::vector<Tensor>& ts) const {
  if (num_results() == ts.size()) {
    for (std::size_t i = 0; i < ts.size(); ++i) set(i, std::move(ts[i]));
    return;
  }
  Value v;
  v.kind = Value::Kind::Tuple;
  for (auto& t : ts) v.tuple.push_back(Value::of(std::move(t)));
  set(0, std::move(v));
}

bool OpCall::writable(const Tensor& t, Tensor* out) const {
  // In place only when `t` is an operand held by its frame slot alone, that value dies at this
  // op (no later op reads the slot) and is not also another operand of it, and the op is not
  // being repeated for timing (a repeat would see its own update).
  bool reuse = t.unique() && !run.timing();
  if (reuse) {
    const auto operands = fn().operands(op());
    const hlo::ValueId* which = nullptr;
    int count = 0;
    for (const hlo::ValueId& v : operands)
      if (&frame[v].tensor == &t) which = &v, ++count;
    const std::vector<hlo::ValueId>* dead = run.dead_after(instr);
    reuse =
        which && count == 1 && dead && std::find(dead->begin(), dead->end(), *which) != dead->end();
  }
  if (reuse) {
    *out = t;
    return true;
  }
  if (!alloc(t.type, t.dims, out)) return false;
  if (t.bytes()) std::memcpy(out->data(), t.data(), t.bytes());
  return true;
}

bool OpCall::fail(const std::string& what, const std::string& rule, const std::string& got) const {
  return run.fail_at(op(), what, rule, got);
}

#if RL_CHECK_INVARIANTS
void verifier_gap(const OpCall& c, const char* rule, const char* file, int line) {
  std::fprintf(stderr,
               "interp: invariant broken at %d:%d: %s runs where the verifier should have refused "
               "it: %s does not hold (%s:%d)\n",
               c.op().line, c.op().column, std::string(c.op().name).c_str(), rule, file, line);
  std::abort();
}
#endif

bool OpCall::call_body(std::size_t index, std::vector<Value> args,
                       std::vector<Value>* results) const {
  const hlo::Op& o = op();
  if (index < o.regions.count)
    return run.region(lfn, lfn.regions[o.regions.begin + index], frame, std::move(args), results);
  if (has_attrs() && index < attrs().callees().size())
    return run.call(attrs().callees()[index], std::move(args), results);
  return fail(std::string(o.name) + " has no body " + std::to_string(index),
              "a region or a computation", "none");
}

bool OpCall::keep_going() const { return run.keep_going(op()); }

// ---- Run --------------------------------------------------------------------------------------

Run::Run(const hlo::Program& program, const RunOptions& options)
    : program_(program), options_(options), memory_(std::make_shared<Memory>(options.memory_cap)) {
  start_ = measure::now_seconds();
}

bool Run::fail(Error e) {
  if (error_.message.empty()) error_ = std::move(e);
  return false;
}

bool Run::fail_at(const hlo::Op& op, const std::string& what, const std::string& rule,
                  const std::string& got) {
  return fail(Error{std::to_string(op.line) + ":" + std::to_string(op.column) + ": error: " + what +
                        " \xE2\x80\x94 expected " + rule + ", got " + got,
                    {},
                    op.line,
                    op.column});
}

// A duration as people read it: 3 significant digits, whole seconds from 100 s, no exponent
// (61.4889 → "61.5 s", 60 → "60 s", 0.0012345 → "0.00123 s").
static std::string seconds_text(double s) {
  if (!(s > 0) || !std::isfinite(s)) return format_number(s) + " s";
  const double scale = std::pow(10.0, 2 - std::floor(std::log10(s)));
  return format_number(scale > 1 ? std::round(s * scale) / scale : std::round(s)) + " s";
}

bool Run::keep_going(const hlo::Op& op) {
  if (failed()) return false;
  if (++ticks_ < 1024) return true;  // read the clock now and then: it is not free in wasm
  ticks_ = 0;
  const double elapsed = measure::now_seconds() - start_;
  if (elapsed > options_.time_budget_seconds)
    return fail_at(op, "the run took too long",
                   "at most " + seconds_text(options_.time_budget_seconds), seconds_text(elapsed));
  return true;
}

bool Run::call(std::size_t index, std::vector<Value> args, std::vector<Value>* results) {
  if (index >= program_.functions.size())
    return fail(Error{"call of a function that does not exist", {}, 0, 0});
  const hlo::LFunction& lfn = program_.functions[index];
  const hlo::Function& f = *lfn.fn;
  if (depth_ >= hlo::kMaxDepth)
    return fail(Error{std::to_string(f.line) + ":" + std::to_string(f.column) +
                          ": error: calls nest too deeply at " + std::string(f.name) +
                          " \xE2\x80\x94 expected at most " + std::to_string(hlo::kMaxDepth) +
                          " levels, got more",
                      {},
                      f.line,
                      f.column});
  if (args.size() != f.args.size())
    return fail(Error{std::to_string(f.line) + ":" + std::to_string(f.column) +
                          ": error: " + std::string(f.name) + " called with " +
                          std::to_string(args.size()) + " arguments \xE2\x80\x94 expected " +
                          std::to_string(f.args.size()) + ", got " + std::to_string(args.size()),
                      {},
                      f.line,
                      f.column});
  // The frame: one a finished call of this function left (its slots emptied), else a new one. A
  // function called in a loop (a PRNG's rounds, a clip) then allocates its slots once.
  if (free_frames_.size() < program_.functions.size())
    free_frames_.resize(program_.functions.size());
  std::vector<std::vector<Value>>& spare = free_frames_[index];
  std::vector<Value> frame;
  if (!spare.empty()) {
    frame = std::move(spare.back());
    spare.pop_back();
  } else {
    frame.resize(f.values.size());
  }
  for (std::size_t i = 0; i < args.size(); ++i) frame[f.args[i]] = std::move(args[i]);
  ++depth_;
  const bool ok = region(lfn, lfn.body, frame, {}, results);
  --depth_;
  for (Value& v : frame)
    if (v.kind != Value::Kind::None) v = Value{};
  if (spare.size() < 4) spare.push_back(std::move(frame));
  return ok;
}

bool Run::region(const hlo::LFunction& lfn, const hlo::LRegion& r, std::vector<Value>& frame,
                 std::vector<Value> args, std::vector<Value>* results) {
  if (r.blocks.empty()) return fail(Error{"an empty region", {}, 0, 0});
  if (r.blocks.size() > 1) {
    const hlo::Op* first =
        r.blocks[1].block->ops.empty() ? nullptr : &r.blocks[1].block->ops.front();
    if (first)
      return fail_at(*first, "a region with several blocks", "one block",
                     std::to_string(r.blocks.size()));
    return fail(Error{"a region with several blocks", {}, 0, 0});
  }
  const hlo::LBlock& b = r.blocks.front();
  const hlo::Function& f = *lfn.fn;
  for (std::size_t i = 0; i < args.size() && i < b.block->args.size(); ++i)
    frame[b.block->args[i]] = std::move(args[i]);
  const bool entry_body = &r == &lfn.body && program_.function_index(&f) == entry_ && depth_ == 1;
  // on_progress is told of the entry's own ops only (every instruction but its return): bodies
  // run per element skip it with one test.
  const bool tell = entry_body && options_.on_progress;
  const std::size_t total =
      !tell ? 0
            : b.instrs.size() -
                  (!b.instrs.empty() && (b.instrs.back().code == hlo::OpCode::Return ||
                                         b.instrs.back().code == hlo::OpCode::FuncReturn));
  auto progress = [&](std::size_t done, bool force) {
    if (!tell) return;
    const double now = measure::now_seconds();
    if (!force && progress_at_ >= 0 && now - progress_at_ < options_.progress_interval_seconds)
      return;
    progress_at_ = now;
    options_.on_progress(done, total);
  };
  progress(0, true);
  // A block with fusions has its roles and liveness by index (one lookup per run of the block).
  const FusedProgram::BlockPlan* bp =
      fused_ && !b.instrs.empty() ? fused_->block(&b.instrs.front()) : nullptr;
  auto dead_at = [&](std::size_t i) {
    return bp ? &bp->dead[i] : program_.dead_after(b.instrs[i]);
  };
  // The values of a return, moved out of the frame where they die here (the last use of a value
  // returned twice is the one moved), else copied; then what dies here is released.
  auto give = [&](std::size_t i, hlo::Span<hlo::ValueId> values) {
    const std::vector<hlo::ValueId>* dead = dead_at(i);
    results->clear();
    results->reserve(values.size());
    for (std::size_t j = 0; j < values.size(); ++j) {
      const hlo::ValueId v = values[j];
      bool last = dead && std::find(dead->begin(), dead->end(), v) != dead->end();
      for (std::size_t k = j + 1; last && k < values.size(); ++k) last = values[k] != v;
      if (last)
        results->push_back(std::move(frame[v]));
      else
        results->push_back(frame[v]);
    }
    release(dead, frame);  // the results are then the only holders of what dies here
  };
  for (std::size_t i = 0; i < b.instrs.size(); ++i) {
    const hlo::Instr& in = b.instrs[i];
    const hlo::OpCode c = in.code;
    if (c == hlo::OpCode::Return || c == hlo::OpCode::FuncReturn) {
      progress(total, true);
      give(i, f.operands(*in.op));
      return true;
    }
    if (i > 0) progress(i, false);
    std::size_t plan = 0;
    const FusedProgram::Role role = bp ? bp->role_of(i, &plan) : FusedProgram::Role::Alone;
    if (role == FusedProgram::Role::Skip) continue;  // runs inside its fusion, at the root
    if (entry_body) entry_op_ = in.op;
    if (role == FusedProgram::Role::Root) {
      if (!execute_fusion(lfn, in, plan, frame, entry_body, entry_body && options_.time_ops))
        return false;
    } else if (!execute(lfn, in, frame, entry_body && options_.time_ops)) {
      return false;
    }
    if (in.op->is_root) {  // HLO: the ROOT instruction's value is the computation's result
      progress(total, true);
      give(i, {f.results(*in.op).ptr, 1});
      return true;
    }
    release(dead_at(i), frame);
  }
  return fail(Error{"a region without a return", {}, 0, 0});
}

namespace {

// Whether a value is what a type says (element type and dims; tuples by their elements).
[[maybe_unused]] bool fits(const Value& v, const hlo::Type& t) {
  switch (t.kind) {
    case hlo::Type::Kind::Tensor:
    case hlo::Type::Kind::Element:
      return v.kind == Value::Kind::Tensor && v.tensor.type == t.etype && v.tensor.dims == t.dims;
    case hlo::Type::Kind::Tuple:
      if (v.kind != Value::Kind::Tuple || v.tuple.size() != t.tuple.size()) return false;
      for (std::size_t i = 0; i < t.tuple.size(); ++i)
        if (!fits(v.tuple[i], t.tuple[i])) return false;
      return true;
    case hlo::Type::Kind::Token:
      return v.kind == Value::Kind::Token;
    case hlo::Type::Kind::Opaque:
      return false;
  }
  return false;
}

[[maybe_unused]] std::string describe(const Value& v, std::string_view dialect) {
  switch (v.kind) {
    case Value::Kind::None:
      return "no value (never computed)";
    case Value::Kind::Token:
      return "a token";
    case Value::Kind::Tuple:
      return "a tuple of " + std::to_string(v.tuple.size());
    case Value::Kind::Tensor: {
      hlo::Type t;
      t.kind = hlo::Type::Kind::Tensor;
      t.dims = v.tensor.dims;
      t.element = std::string(hlo::element_info(v.tensor.type).mlir);
      return hlo::to_string(t, dialect);
    }
  }
  return "?";
}

}  // namespace

void Run::release(const std::vector<hlo::ValueId>* dead, std::vector<Value>& frame) {
  if (dead)
    for (hlo::ValueId v : *dead) frame[v] = Value{};
}

bool Run::execute(const hlo::LFunction& lfn, const hlo::Instr& in, std::vector<Value>& frame,
                  bool timed) {
  // Kernels trust the types the text declares, and a run trusts the verifier (verify.cpp): each
  // operand is checked against its producer's type, in every region, with return, call, while
  // and case signatures, so every value is the type its use declares and no op checks it again.
  // Builds that check invariants (native builds, the fuzz targets: RL_CHECK_INVARIANTS) stop
  // the process loudly where that promise is broken — a verifier gap, never a read past a buffer.
  // One thing is checked in every build, for the evaluator's own sake: each operand was computed.
  // A value never made is a defect of the evaluator or the fusion plan, never of the program; it
  // is an error naming the op, not a read of a buffer that is not there (in wasm, of address 0).
  const hlo::Function& f = *lfn.fn;
  const auto operands = f.operands(*in.op);
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (frame[operands[i]].kind == Value::Kind::None)
      return fail_at(*in.op,
                     "internal error: operand " + std::to_string(i) + " of " +
                         std::string(in.op->name) + " was never computed",
                     "every value computed before its use", "no value");
#if RL_CHECK_INVARIANTS
  const hlo::Module& m = *program_.module;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const hlo::Type& t = m.value_type(f, operands[i]);
    if (!fits(frame[operands[i]], t)) {
      std::fprintf(stderr,
                   "interp: invariant broken at %d:%d: operand %zu of %s is %s, where the "
                   "verified text declares %s\n",
                   in.op->line, in.op->column, i, std::string(in.op->name).c_str(),
                   describe(frame[operands[i]], m.dialect).c_str(),
                   hlo::to_string(t, m.dialect).c_str());
      std::abort();
    }
  }
#endif
  const KernelEntry& k = registry().find(in.code);
  if (!k.run)
    return fail_at(*in.op,
                   std::string(in.op->name) + " is not run by the interpreter" +
                       (k.declined ? std::string(": ") + k.declined : std::string()),
                   "a supported op", std::string(in.op->name));
  OpCall call{*this, *program_.module, program_, lfn, in, frame};
  const bool check = in.code == hlo::OpCode::CustomCall;
  // An op of no cost (a parameter, a constant, a tuple's element: ops.inc's Zero family) is not
  // timed: the analysis has no row for it, so its time would be counted where nothing is.
  const bool no_cost = hlo::op_info(in.code).family == hlo::CostFamily::Zero;
  if (!timed || check || no_cost) return k.run(call) && !failed();
  if (options_.timing_budget_seconds > 0 && timing_spent_ >= options_.timing_budget_seconds) {
    ++untimed_;
    return k.run(call) && !failed();
  }
  double seconds = 0;
  std::uint64_t repeats = 0;
  if (!time_repeated(
          *in.op, [&] { return k.run(call) && !failed(); }, &seconds, &repeats))
    return false;
  timings_.push_back({in.op->line, in.op->column, std::string(in.op->name), seconds, repeats,
                      ran_as_view(lfn, in, frame)});
  return true;
}

// Whether a layout op (the ops whose kernels may hand on the operand's buffer: ops_data.cpp)
// made its result a view of its operand, moving no data.
bool Run::ran_as_view(const hlo::LFunction& lfn, const hlo::Instr& in,
                      const std::vector<Value>& frame) const {
  switch (in.code) {
    case hlo::OpCode::Reshape:
    case hlo::OpCode::Copy:
    case hlo::OpCode::BroadcastInDim:
    case hlo::OpCode::Broadcast:
    case hlo::OpCode::Transpose:
      break;
    default:
      return false;
  }
  const hlo::Function& f = *lfn.fn;
  const auto results = f.results(*in.op), operands = f.operands(*in.op);
  if (results.size() != 1 || operands.empty()) return false;
  const Value& y = frame[results[0]];
  const Value& x = frame[operands[0]];
  return y.kind == Value::Kind::Tensor && x.kind == Value::Kind::Tensor && y.tensor.storage &&
         y.tensor.storage == x.tensor.storage;
}

bool Run::time_repeated(const hlo::Op& op, const std::function<bool()>& once, double* seconds,
                        std::uint64_t* repeats) {
  // A measurement of this machine by the harness's rules (measure/harness.h): the warm run is the
  // one whose result is the op's value (it also pays for first touches of fresh memory); then
  // rounds of the op repeated, the repeats grown until one round lasts the target (100 timer
  // ticks, or min_op_seconds): that round is the op's one sample, seconds per run.
  timing_ = true;
  struct Reset {
    bool& flag;
    double& spent;
    double t0;
    ~Reset() {
      flag = false;
      spent += measure::now_seconds() - t0;
    }
  } reset{timing_, timing_spent_, measure::now_seconds()};
  if (!once()) return false;
  measure::SamplerOptions so;
  so.timer_resolution = timer_resolution_;
  so.min_sample_seconds = std::min(options_.min_op_seconds, 10.0);
  so.samples = 1;
  so.warm_round = false;
  so.settle = false;
  so.max_units = std::size_t(1) << 24;
  auto started = measure::start_sampler(so);
  if (!started)
    return fail_at(op, "could not time the op", "a timer that advances", started.error());
  measure::Sampler sampler = std::move(started.value());
  double elapsed = 0;
  std::uint64_t n = 0;
  while (!sampler.finished()) {
    const std::size_t round = sampler.units;
    const double t1 = measure::now_seconds();
    for (std::size_t i = 0; i < round; ++i)
      if (!once()) return false;
    elapsed = measure::now_seconds() - t1;
    n = round;
    measure::record_round(sampler, elapsed);
    // Out of the run's time: keep the last round, short or not (the run then ends with its error).
    if (measure::now_seconds() - start_ > options_.time_budget_seconds) break;
  }
  *seconds = elapsed / static_cast<double>(n);
  *repeats = n;
  return true;
}

bool Run::execute_fusion(const hlo::LFunction&, const hlo::Instr& in, std::size_t plan,
                         std::vector<Value>& frame, bool entry, bool timed) {
  const FusionPlan& p = fused_->plans()[plan];
  auto once = [&] { return run_fusion(*this, p, frame) && !failed(); };
  // The fusion as the run lists it: XLA's counts for it, and why it runs op by op, if it does.
  auto described = [&] {
    const hlo::Fusion& fu = fused_->fused().fusions[p.fusion];
    FusionRun d;
    d.name = fu.name;
    d.kind = fu.kind_name;
    d.ops = fu.ops;
    d.line = in.op->line;
    d.column = in.op->column;
    d.flops = fu.flops;
    d.transcendentals = fu.transcendentals;
    d.bytes_accessed = fu.bytes_accessed;
    d.fallback = p.fallback;
    return d;
  };
  FusionRun fr;
  if (entry) fr = described();
  if (!timed ||
      (options_.timing_budget_seconds > 0 && timing_spent_ >= options_.timing_budget_seconds)) {
    if (timed) ++untimed_;
    if (!once()) return false;
  } else if (!time_repeated(*in.op, once, &fr.seconds, &fr.repeats)) {
    return false;
  }
  if (entry) {
    fusion_runs_.push_back(std::move(fr));
  } else if (entry_op_) {
    // A fusion in a body: listed once, untimed, with the entry op that holds it.
    if (body_fusion_seen_.size() < fused_->plans().size())
      body_fusion_seen_.resize(fused_->plans().size(), 0);
    if (!body_fusion_seen_[plan]) {
      body_fusion_seen_[plan] = 1;
      FusionRun b = described();
      b.within_op = std::string(entry_op_->name);
      b.within_line = entry_op_->line;
      b.within_column = entry_op_->column;
      fusion_runs_.push_back(std::move(b));
    }
  }
  return true;
}

}  // namespace rl::interp
