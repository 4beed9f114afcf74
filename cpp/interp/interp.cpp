#include "interp/interp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/numbers.h"
#include "hlo/literal.h"
#include "hlo/parse.h"
#include "interp/elements.h"
#include "interp/run.h"
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

// ---- registry -----------------------------------------------------------------------------------

void Registry::add(hlo::OpCode code, Kernel run, Supports supports) {
  entries_[static_cast<std::size_t>(code)] = {run, supports, nullptr};
}
void Registry::decline(hlo::OpCode code, const char* why) {
  entries_[static_cast<std::size_t>(code)] = {nullptr, nullptr, why};
}

void decline_ops(Registry& r) {
  using hlo::OpCode;
  static const char* const collective =
      "a collective: it exchanges values between devices, and the interpreter runs one device";
  for (OpCode c :
       {OpCode::AllGather, OpCode::AllGatherStart, OpCode::AllGatherDone, OpCode::AllReduce,
        OpCode::AllReduceStart, OpCode::AllReduceDone, OpCode::AllToAll, OpCode::AllToAllDone,
        OpCode::RaggedAllToAll, OpCode::CollectiveBroadcast, OpCode::CollectivePermute,
        OpCode::CollectivePermuteStart, OpCode::CollectivePermuteDone, OpCode::ReduceScatter,
        OpCode::ReduceScatterDone})
    r.decline(c, collective);
  for (OpCode c : {OpCode::Infeed, OpCode::Outfeed, OpCode::Send, OpCode::SendDone, OpCode::Recv,
                   OpCode::RecvDone})
    r.decline(c,
              "input or output outside the program (a host or another device): a run in the "
              "page has neither");
  for (OpCode c : {OpCode::AsyncStart, OpCode::AsyncUpdate, OpCode::AsyncDone, OpCode::CopyStart,
                   OpCode::CopyDone, OpCode::CustomCallDone, OpCode::CustomCallUpdate})
    r.decline(c,
              "an asynchronous pair from XLA's scheduling passes: run the module as printed "
              "before them");
  for (OpCode c : {OpCode::DynamicBroadcastInDim, OpCode::DynamicIota, OpCode::DynamicPad,
                   OpCode::DynamicReshape, OpCode::RealDynamicSlice, OpCode::SetDimensionSize})
    r.decline(c,
              "a shape read from a tensor's values (dynamic shapes): the interpreter runs "
              "static shapes");
  for (OpCode c : {OpCode::BatchNormInference, OpCode::BatchNormTraining, OpCode::BatchNormGrad})
    r.decline(c, "not run yet (JAX lowers batch normalization to plain arithmetic and reduce)");
  r.decline(OpCode::Rng,
            "its values are implementation-defined (the StableHLO spec); rng_bit_generator "
            "with THREE_FRY or PHILOX runs");
  r.decline(OpCode::RngGetAndUpdateState, "XLA's internal random-number state: nothing to run");
  r.decline(OpCode::StochasticConvert, "not run yet (XLA-internal rounding by random bits)");
  r.decline(OpCode::Return, "the evaluator's own: a body's results, not a kernel");
  r.decline(OpCode::FuncReturn, "the evaluator's own: a body's results, not a kernel");
}

const Registry& registry() {
  static const Registry r = [] {
    Registry x;
    register_structural_ops(x);
    register_elementwise_ops(x);
    register_math_ops(x);
    register_data_ops(x);
    register_dot_ops(x);
    register_linalg_ops(x);
    register_region_ops(x);
    decline_ops(x);
    return x;
  }();
  return r;
}

namespace {

std::string type_problem(const hlo::Type& t) {
  if (t.kind == hlo::Type::Kind::Token) return "";
  if (t.kind == hlo::Type::Kind::Tuple) {
    for (const auto& e : t.tuple) {
      std::string p = type_problem(e);
      if (!p.empty()) return p;
    }
    return "";
  }
  if (!t.is_array()) return "a value of type " + t.text;
  if (!t.is_static()) return "a dynamic shape " + t.text;
  if (!hlo::is_computable(t.etype)) return "element type " + t.element;
  return "";
}

}  // namespace

std::string first_type_problem(const hlo::OpView& op, std::string (*rule)(const hlo::Type&)) {
  for (std::size_t i = 0; i < op.num_operands(); ++i) {
    std::string p = rule(op.operand_type(i));
    if (!p.empty()) return p;
  }
  for (std::size_t i = 0; i < op.num_results(); ++i) {
    std::string p = rule(op.result_type(i));
    if (!p.empty()) return p;
  }
  return "";
}

std::string computable_types(const hlo::OpView& op, const hlo::OpAttrs*) {
  return first_type_problem(op, type_problem);
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
    return fail(std::string(op().name) + " needs " + std::to_string(static_cast<long long>(bytes)) +
                    " bytes for a result",
                "at most the memory cap of " + std::to_string(mem->cap()) +
                    " bytes of live tensors (" + std::to_string(mem->live()) +
                    " in use; by its IR the program's values need up to " +
                    std::to_string(static_cast<long long>(need.bytes)) + " bytes, reached at " +
                    std::to_string(need.line) + ":" + std::to_string(need.column) + " " + need.op +
                    ", ops' scratch on top: raise memory_cap to run it)",
                "more");
  }
  Tensor t;
  t.type = type;
  t.dims = std::move(dims);
  t.storage = Storage::allocate(mem, static_cast<std::size_t>(bytes));
  if (!t.storage)
    return fail(std::string(op().name) + " could not allocate " +
                    std::to_string(static_cast<long long>(bytes)) + " bytes",
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

bool OpCall::call_body(std::size_t index, std::vector<Value> args,
                       std::vector<Value>* results) const {
  const hlo::Op& o = op();
  if (index < o.regions.count)
    return run.region(lfn, lfn.regions[o.regions.begin + index], frame, std::move(args), results);
  if (has_attrs() && index < attrs().callees.size())
    return run.call(attrs().callees[index], std::move(args), results);
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
  std::vector<Value> frame(f.values.size());
  for (std::size_t i = 0; i < args.size(); ++i) frame[f.args[i]] = std::move(args[i]);
  ++depth_;
  const bool ok = region(lfn, lfn.body, frame, {}, results);
  --depth_;
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
  for (std::size_t i = 0; i < b.instrs.size(); ++i) {
    const hlo::Instr& in = b.instrs[i];
    const hlo::OpCode c = in.code;
    if (c == hlo::OpCode::Return || c == hlo::OpCode::FuncReturn) {
      progress(total, true);
      results->clear();
      for (hlo::ValueId v : f.operands(*in.op)) results->push_back(frame[v]);
      release(in, frame);  // the results are then the only holders of what dies here
      return true;
    }
    if (i > 0) progress(i, false);
    std::size_t plan = 0;
    const FusedProgram::Role role = fused_ ? fused_->role(in, &plan) : FusedProgram::Role::Alone;
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
      results->clear();
      results->push_back(frame[f.results(*in.op)[0]]);
      release(in, frame);
      return true;
    }
    release(in, frame);
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

void Run::release(const hlo::Instr& in, std::vector<Value>& frame) {
  if (const std::vector<hlo::ValueId>* dead = dead_after(in))
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
  if (!timed || check) return k.run(call) && !failed();
  if (options_.timing_budget_seconds > 0 && timing_spent_ >= options_.timing_budget_seconds) {
    ++untimed_;
    return k.run(call) && !failed();
  }
  double seconds = 0;
  std::uint64_t repeats = 0;
  if (!time_repeated(
          *in.op, [&] { return k.run(call) && !failed(); }, &seconds, &repeats))
    return false;
  timings_.push_back({in.op->line, in.op->column, std::string(in.op->name), seconds, repeats});
  return true;
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
  FusionRun fr;
  if (entry) {
    const hlo::Fusion& fu = fused_->fused().fusions[p.fusion];
    fr.name = fu.name;
    fr.kind = fu.kind_name;
    fr.ops = fu.ops;
    fr.line = in.op->line;
    fr.column = in.op->column;
    fr.flops = fu.flops;
    fr.transcendentals = fu.transcendentals;
    fr.bytes_accessed = fu.bytes_accessed;
    fr.fallback = p.fallback;
  }
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
      const hlo::Fusion& fu = fused_->fused().fusions[p.fusion];
      FusionRun b;
      b.name = fu.name;
      b.kind = fu.kind_name;
      b.ops = fu.ops;
      b.line = in.op->line;
      b.column = in.op->column;
      b.flops = fu.flops;
      b.transcendentals = fu.transcendentals;
      b.bytes_accessed = fu.bytes_accessed;
      b.fallback = p.fallback;
      b.within_op = std::string(entry_op_->name);
      b.within_line = entry_op_->line;
      b.within_column = entry_op_->column;
      fusion_runs_.push_back(std::move(b));
    }
  }
  return true;
}

// ---- inputs and results -----------------------------------------------------------------------

namespace {

// A deterministic generator (splitmix64): the same values everywhere.
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() {
    return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
  }  // [0, 1)
};

// Fills an argument: seeded — floats uniform in [-1, 1), integers in [-8, 8) (unsigned [0, 16)),
// booleans half true; arange — element i is i / elements for floats (the seed's arange/size), i
// modulo the type's range for integers, i odd for booleans.
bool fill_input(Tensor& t, Inputs how, SplitMix& rng) {
  const std::int64_t n = t.elements();
  return dispatch(t.type, [&](auto e) {
    using E = decltype(e);
    using S = typename E::Storage;
    using C = typename E::Compute;
    S* out = t.as<S>();
    for (std::int64_t i = 0; i < n; ++i) {
      C v{};
      if constexpr (is_pred_v<E>) {
        v = how == Inputs::Seeded ? (rng.next() & 1) != 0 : (i & 1) != 0;
      } else if constexpr (is_int_v<E>) {
        if (how == Inputs::Seeded) {
          const auto r = static_cast<std::int64_t>(rng.next() % 16);
          v = static_cast<C>(std::is_signed<C>::value ? r - 8 : r);
        } else {
          v = static_cast<C>(i);
        }
      } else if constexpr (is_complex_v<E>) {
        using R = typename C::value_type;
        if (how == Inputs::Seeded)
          v = C(static_cast<R>(rng.uniform() * 2 - 1), static_cast<R>(rng.uniform() * 2 - 1));
        else
          v = C(static_cast<R>(static_cast<double>(i) / static_cast<double>(n)), R(0));
      } else {
        v = static_cast<C>(how == Inputs::Seeded ? rng.uniform() * 2 - 1
                                                 : static_cast<double>(i) / static_cast<double>(n));
      }
      out[i] = E::store(v);
    }
  });
}

// FNV-1a, 64-bit: a fingerprint of bytes (not a checksum against tampering).
std::uint64_t fnv1a(const unsigned char* p, std::size_t n,
                    std::uint64_t h = 0xcbf29ce484222325ull) {
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

std::string hex64(std::uint64_t h) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = digits[h & 15];
  return out;
}

// A tuple's elements are summarized one by one (depth: how deep in tuples this value lies).
void summarize(const Value& v, std::string_view dialect, const hlo::Type& type, ResultSummary* out,
               int depth = 0) {
  out->shape = hlo::to_string(type, dialect);
  if (v.kind == Value::Kind::Tuple) {
    const std::size_t n = v.tuple.size();
    out->tuple = true;
    static const hlo::Type unknown;  // when the type does not say (shape "")
    double sum = 0;
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < n; ++i) {
      const hlo::Type& et =
          type.kind == hlo::Type::Kind::Tuple && i < type.tuple.size() ? type.tuple[i] : unknown;
      ResultSummary e;
      summarize(v.tuple[i], dialect, et, &e, depth + 1);
      sum += e.checksum;
      h = fnv1a(reinterpret_cast<const unsigned char*>(e.bits.data()), e.bits.size(), h);
      if (depth < kMaxResultDepth) out->elements.push_back(std::move(e));
    }
    out->checksum = sum;
    out->bits = hex64(h);
    out->preview = "tuple of " + std::to_string(n) +
                   (n == 0                    ? std::string()
                    : depth < kMaxResultDepth ? ": see elements"
                                              : ": nested too deep to list");
    return;
  }
  if (!v.is_tensor()) return;
  const Tensor& t = v.tensor;
  const std::int64_t n = t.elements();
  double sum = 0;
  std::string preview;
  const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(t.type));
  for (std::int64_t i = 0; i < n && i < 8; ++i) {
    if (i) preview += ", ";
    preview += hlo::format_element(t.type, t.data() + static_cast<std::size_t>(i) * eb);
  }
  if (n > 8) preview += ", …";
  dispatch(t.type, [&](auto e) {
    using E = decltype(e);
    const auto* p = t.as<typename E::Storage>();
    for (std::int64_t i = 0; i < n; ++i) {
      const auto c = E::load(p[i]);
      if constexpr (is_complex_v<E>)
        sum += static_cast<double>(c.real()) + static_cast<double>(c.imag());
      else
        sum += static_cast<double>(c);
    }
  });
  out->checksum = sum;
  out->preview = preview;
  out->bits = hex64(
      fnv1a(reinterpret_cast<const unsigned char*>(t.data()), static_cast<std::size_t>(n) * eb));
}

std::string given_names(const std::vector<HostArray>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : ", ") + a.name;
  return out.empty() ? "none given" : out;
}

// The given arrays against the entry's signature: as many as it takes, each of its argument's
// element type and shape exactly (nothing is converted: a float64 array for an f32 argument is
// the caller's to cast). An empty message: they fit.
Error check_given(const hlo::Module& m, const hlo::Function& entry,
                  const std::vector<HostArray>& args) {
  const std::string where =
      std::to_string(entry.line) + ":" + std::to_string(entry.column) + ": error: ";
  auto signature = [&] {
    std::string s;
    for (hlo::ValueId a : entry.args) s += (s.empty() ? "" : ", ") + m.value_type(entry, a).text;
    return s;
  };
  if (args.size() != entry.args.size())
    return Error{where + std::string(entry.name) + " takes " + std::to_string(entry.args.size()) +
                     " argument" + (entry.args.size() == 1 ? "" : "s") + " (" + signature() +
                     "), got " + std::to_string(args.size()) + " array" +
                     (args.size() == 1 ? "" : "s") + " (" + given_names(args) + ")",
                 "args", entry.line, entry.column};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const hlo::Type& t = m.value_type(entry, entry.args[i]);
    if (t.etype == args[i].type && t.dims == args[i].dims) continue;
    return Error{where + "argument " + std::to_string(i + 1) + " of " + std::string(entry.name) +
                     " (" + entry.value_name(entry.args[i]) + ") must be " + t.text +
                     (hlo::is_computable(t.etype) ? " = " + numpy_spelling(t.etype, t.dims)
                                                  : std::string()) +
                     ", got " + args[i].name + ": " + numpy_spelling(args[i].type, args[i].dims),
                 "args", entry.line, entry.column};
  }
  return Error{};
}

}  // namespace

std::vector<Unsupported> unsupported_ops(const hlo::Program& program) {
  std::vector<Unsupported> out;
  const hlo::Module& m = *program.module;
  auto walk = [&](const hlo::LFunction& lf, const hlo::LRegion& r, auto&& self) -> void {
    for (const auto& b : r.blocks)
      for (const hlo::Instr& in : b.instrs) {
        const hlo::Op& op = *in.op;
        std::string why;
        const KernelEntry& k = registry().find(in.code);
        if (in.code == hlo::OpCode::Return || in.code == hlo::OpCode::FuncReturn) {
          // run by the evaluator
        } else if (in.code == hlo::OpCode::Unknown) {
          why = "an op the core does not know";
        } else if (const Error* p = program.problem_of(in)) {
          why = p->without_place();
        } else if (!k.run) {
          why = k.declined ? k.declined : "not run by the interpreter yet";
        } else if (k.supports) {
          why = k.supports(hlo::OpView{m, *lf.fn, op}, program.attrs_of(in));
        }
        if (!why.empty()) out.push_back({std::string(op.name), op.line, op.column, why});
        for (std::uint32_t i = 0; i < op.regions.count; ++i)
          self(lf, lf.regions[op.regions.begin + i], self);
      }
  };
  for (const auto& lf : program.functions) walk(lf, lf.body, walk);
  return out;
}

RunResult run_program(const hlo::Program& program, const RunOptions& options) {
  RunResult out;
  const double t0 = measure::now_seconds();
  const hlo::Module& m = *program.module;
  out.inputs = options.inputs == Inputs::None     ? "none"
               : options.inputs == Inputs::Arange ? "arange"
               : options.inputs == Inputs::Given
                   ? given_names(options.args)
                   : "seeded (seed " + std::to_string(options.seed) + ")";
  const hlo::Function* entry = m.entry();
  if (!entry) {
    out.status = "error";
    out.errors.push_back(Error{"the module has no entry function to run", {}, 0, 0});
    return out;
  }
  const MemoryNeed need = memory_need(program);
  out.memory_need_bytes = need.bytes;
  out.unsupported = unsupported_ops(program);
  if (!out.unsupported.empty()) {
    out.status = "not_run";
    return out;
  }
  RunOptions o = options;
  double resolution = 0;
  if (o.time_ops) {
    // Every timed op lasts at least 100 ticks of the timer as measured here (browsers coarsen it).
    auto r = measure::timer_resolution();
    if (!r) {
      out.status = "error";
      out.errors.push_back(Error{"could not time the ops: " + r.error(), {}, 0, 0});
      return out;
    }
    resolution = r.value();
  }
  Run run(program, o);
  run.set_timer_resolution(resolution);
  // A fused run: XLA's fusions of the same module (hlo/fuse.h), planned against this program.
  std::unique_ptr<FusedProgram> fused;
  if (o.fuse) {
    auto fm = hlo::fuse_module(m);
    if (!fm) {
      out.status = "error";
      out.errors.push_back(fm.error_info());
      return out;
    }
    if (!fm.value().already_fused) {
      fused = std::make_unique<FusedProgram>(program, std::move(fm.value()));
      run.set_fused(fused.get());
    }
  }
  out.fused = fused != nullptr;
  const std::size_t entry_index = program.function_index(entry);
  run.set_entry(entry_index);
  std::vector<Value> args;
  if (!entry->args.empty()) {
    if (options.inputs == Inputs::None) {
      out.status = "error";
      out.errors.push_back(Error{
          std::to_string(entry->line) + ":" + std::to_string(entry->column) + ": error: " +
              std::string(entry->name) + " takes " + std::to_string(entry->args.size()) +
              " arguments \xE2\x80\x94 expected inputs to run it on (seeded or arange), got none",
          {},
          entry->line,
          entry->column});
      return out;
    }
    if (options.inputs == Inputs::Given) {
      if (auto e = check_given(m, *entry, options.args); !e.message.empty()) {
        out.status = "error";
        out.errors.push_back(std::move(e));
        return out;
      }
    }
    SplitMix rng{options.seed};
    std::size_t index = 0;
    for (hlo::ValueId a : entry->args) {
      const hlo::Type& t = m.value_type(*entry, a);
      if (!t.is_array() || !t.is_static() || !hlo::is_computable(t.etype)) {
        out.status = "not_run";
        out.unsupported.push_back({"argument " + entry->value_name(a), entry->line, entry->column,
                                   "no inputs can be made for " + t.text});
        return out;
      }
      Tensor x;
      x.type = t.etype;
      x.dims = t.dims;
      x.storage = Storage::allocate(run.memory(), x.bytes());
      if (!x.storage) {
        out.status = "error";
        out.errors.push_back(Error{
            "the inputs pass the memory cap of " + std::to_string(options.memory_cap) + " bytes",
            {},
            0,
            0});
        return out;
      }
      if (options.inputs == Inputs::Given)
        std::memcpy(x.data(), options.args[index].bytes.data(), x.bytes());
      else
        fill_input(x, options.inputs, rng);
      ++index;
      args.push_back(Value::of(std::move(x)));
    }
  }
  std::vector<Value> results;
  const bool ok = run.call(entry_index, std::move(args), &results);
  out.seconds = measure::now_seconds() - t0;
  out.checks = std::move(run.checks());
  out.ops = std::move(run.timings());
  out.fusions = std::move(run.fusion_runs());
  out.untimed_ops = run.untimed();
  out.peak_bytes = run.memory()->peak();
  if (!ok || run.failed()) {
    out.status = "error";
    out.errors.push_back(run.failed() ? run.error() : Error{"the run failed", {}, 0, 0});
    return out;
  }
  for (std::size_t i = 0; i < results.size(); ++i) {
    ResultSummary s;
    if (i < entry->result_types.size())
      summarize(results[i], m.dialect, m.type(entry->result_types[i]), &s);
    out.results.push_back(std::move(s));
  }
  out.values = std::move(results);
  bool all = true;
  for (const auto& c : out.checks) all = all && c.passed;
  out.status = all ? "passed" : "failed";
  return out;
}

}  // namespace rl::interp
