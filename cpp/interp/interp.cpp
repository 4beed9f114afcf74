#include "interp/interp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "common/numbers.h"
#include "hlo/literal.h"
#include "hlo/parse.h"
#include "hlo/verify.h"
#include "interp/elements.h"
#include "interp/run.h"
#include "measure/harness.h"
#include "measure/timer.h"

namespace rl::interp {

// ---- registry -----------------------------------------------------------------------------------

// The ops the interpreter does not run, each with its reason (unsupported_ops names it).
namespace {
constexpr const char* kCollective =
    "a collective: it exchanges values between devices, and the interpreter runs one device";
constexpr const char* kOutside =
    "input or output outside the program (a host or another device): a run in the page has "
    "neither";
constexpr const char* kAsync =
    "an asynchronous pair from XLA's scheduling passes: run the module as printed before them";
constexpr const char* kDynamicShape =
    "a shape read from a tensor's values (dynamic shapes): the interpreter runs static shapes";
constexpr const char* kEvaluators = "the evaluator's own: a body's results, not a kernel";
}  // namespace

RL_DECLINED(AllGather, kCollective)
RL_DECLINED(AllGatherStart, kCollective)
RL_DECLINED(AllGatherDone, kCollective)
RL_DECLINED(AllReduce, kCollective)
RL_DECLINED(AllReduceStart, kCollective)
RL_DECLINED(AllReduceDone, kCollective)
RL_DECLINED(AllToAll, kCollective)
RL_DECLINED(AllToAllDone, kCollective)
RL_DECLINED(RaggedAllToAll, kCollective)
RL_DECLINED(CollectiveBroadcast, kCollective)
RL_DECLINED(CollectivePermute, kCollective)
RL_DECLINED(CollectivePermuteStart, kCollective)
RL_DECLINED(CollectivePermuteDone, kCollective)
RL_DECLINED(ReduceScatter, kCollective)
RL_DECLINED(ReduceScatterDone, kCollective)
RL_DECLINED(Infeed, kOutside)
RL_DECLINED(Outfeed, kOutside)
RL_DECLINED(Send, kOutside)
RL_DECLINED(SendDone, kOutside)
RL_DECLINED(Recv, kOutside)
RL_DECLINED(RecvDone, kOutside)
RL_DECLINED(AsyncStart, kAsync)
RL_DECLINED(AsyncUpdate, kAsync)
RL_DECLINED(AsyncDone, kAsync)
RL_DECLINED(CopyStart, kAsync)
RL_DECLINED(CopyDone, kAsync)
RL_DECLINED(CustomCallDone, kAsync)
RL_DECLINED(CustomCallUpdate, kAsync)
RL_DECLINED(DynamicBroadcastInDim, kDynamicShape)
RL_DECLINED(DynamicIota, kDynamicShape)
RL_DECLINED(DynamicPad, kDynamicShape)
RL_DECLINED(DynamicReshape, kDynamicShape)
RL_DECLINED(RealDynamicSlice, kDynamicShape)
RL_DECLINED(SetDimensionSize, kDynamicShape)
RL_DECLINED(Rng,
            "its values are implementation-defined (the StableHLO spec); rng_bit_generator with "
            "THREE_FRY or PHILOX runs")
RL_DECLINED(RngGetAndUpdateState, "XLA's internal random-number state: nothing to run")
RL_DECLINED(StochasticConvert, "not run yet (XLA-internal rounding by random bits)")
RL_DECLINED(Return, kEvaluators)
RL_DECLINED(FuncReturn, kEvaluators)

// One entry per row of the op table.
Registry::Registry() {
#define RL_OP(id, ...) \
  entries_[static_cast<std::size_t>(hlo::OpCode::id)] = kernel_of<hlo::OpCode::id>();
#include "hlo/ops.inc"
#undef RL_OP
}

const Registry& registry() {
  static const Registry r;
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

namespace {

// Where each value of a block is defined: the block's number and the op's index in it. HLO text
// may name an operand that a later line defines (the parser reads it, and the analysis counts
// it); a run computes ops in the order written, so such an op cannot run.
struct Definitions {
  std::vector<std::uint32_t> block, index;
  std::uint32_t blocks = 0;
  explicit Definitions(std::size_t values) : block(values, ~0u), index(values, 0) {}

  // Numbers the block's definitions; the block's number.
  std::uint32_t enter(const hlo::Function& f, const hlo::LBlock& b) {
    const std::uint32_t id = blocks++;
    for (std::uint32_t i = 0; i < b.instrs.size(); ++i)
      for (hlo::ValueId v : f.results(*b.instrs[i].op))
        if (v < block.size()) {
          block[v] = id;
          index[v] = i;
        }
    return id;
  }

  // Why op `i` of block `id` cannot run yet: an operand defined at or below it, or "".
  std::string later_operand(const hlo::Function& f, std::uint32_t id, std::uint32_t i,
                            const hlo::LBlock& b) const {
    for (hlo::ValueId v : f.operands(*b.instrs[i].op))
      if (v < block.size() && block[v] == id && index[v] >= i) {
        const hlo::Op& def = *b.instrs[index[v]].op;
        return "its operand %" + std::string(f.values[v].name.substr(0, 60)) +
               (index[v] == i ? " is its own result"
                              : " is defined below it, at line " + std::to_string(def.line)) +
               ": a run computes instructions in the order written, so an operand's definition "
               "comes first (as XLA writes HLO)";
      }
    return std::string();
  }
};

}  // namespace

std::vector<Unsupported> unsupported_ops(const hlo::Program& program) {
  std::vector<Unsupported> out;
  const hlo::Module& m = *program.module;
  std::unique_ptr<Definitions> defs;
  auto walk = [&](const hlo::LFunction& lf, const hlo::LRegion& r, auto&& self) -> void {
    for (const auto& b : r.blocks) {
      const std::uint32_t id = defs->enter(*lf.fn, b);
      for (std::uint32_t i = 0; i < b.instrs.size(); ++i) {
        const hlo::Instr& in = b.instrs[i];
        const hlo::Op& op = *in.op;
        std::string why;
        const KernelEntry& k = registry().find(in.code);
        std::string later = defs->later_operand(*lf.fn, id, i, b);
        if (!later.empty()) {
          why = std::move(later);
        } else if (in.code == hlo::OpCode::Return || in.code == hlo::OpCode::FuncReturn) {
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
        for (std::uint32_t k = 0; k < op.regions.count; ++k)
          self(lf, lf.regions[op.regions.begin + k], self);
      }
    }
  };
  for (const auto& lf : program.functions) {
    defs = std::make_unique<Definitions>(lf.fn->values.size());
    walk(lf, lf.body, walk);
  }
  return out;
}

namespace {

RunResult failed_with(Error e) {
  RunResult out;
  out.status = "error";
  out.errors.push_back(std::move(e));
  return out;
}

// A fused run's plan: XLA's fusions of `m` (hlo/fuse.h), found after its calls are inlined
// (FusedModule::inlined, then what runs); none for a run op by op or a module already fused.
Result<std::optional<hlo::FusedModule>> plan_fusions(const hlo::Module& m,
                                                     const RunOptions& options) {
  using R = Result<std::optional<hlo::FusedModule>>;
  if (!options.fuse) return R::success(std::nullopt);
  auto f = hlo::fuse_module(m, options.fusion);
  if (!f) return R::failure_from(f);
  if (f.value().already_fused) return R::success(std::nullopt);
  return R::success(std::move(f.value()));
}

RunResult run_lowered(const hlo::Program& program, const hlo::Program& given,
                      std::optional<hlo::FusedModule> fm, const RunOptions& options, double t0);

}  // namespace

RunResult run_program(const hlo::Program& given, const RunOptions& options) {
  const double t0 = measure::now_seconds();
  auto fm = plan_fusions(*given.module, options);
  if (!fm) return failed_with(fm.error_info());
  if (!fm.value() || !fm.value()->inlined)
    return run_lowered(given, given, std::move(fm.value()), options, t0);
  // Calls were inlined: the inlined module runs, lowered here as `given` was.
  auto p = hlo::lower(*fm.value()->inlined);
  if (!p) return failed_with(p.error_info());
  return run_lowered(p.value(), given, std::move(fm.value()), options, t0);
}

RunResult run_module(const hlo::Module& module, const RunOptions& options) {
  const double t0 = measure::now_seconds();
  auto v = hlo::verify(module);
  if (!v) return failed_with(v.error_info());
  auto fm = plan_fusions(module, options);
  if (!fm) return failed_with(fm.error_info());
  if (!fm.value() || !fm.value()->inlined) {
    auto p = hlo::lower_verified(module);  // verified above
    if (!p) return failed_with(p.error_info());
    return run_lowered(p.value(), p.value(), std::move(fm.value()), options, t0);
  }
  // Only the module that runs has its constants decoded: the given one is lowered without them,
  // for naming what cannot run (each op once, not per inlined copy).
  hlo::LowerOptions light;
  light.constants = false;
  light.liveness = false;
  const hlo::Program given = hlo::lower_lenient(module, light);
  if (!given.stopped.message.empty()) return failed_with(given.stopped);
  auto p = hlo::lower(*fm.value()->inlined);
  if (!p) return failed_with(p.error_info());
  return run_lowered(p.value(), given, std::move(fm.value()), options, t0);
}

namespace {

RunResult run_lowered(const hlo::Program& program, const hlo::Program& given,
                      std::optional<hlo::FusedModule> fm, const RunOptions& options, double t0) {
  RunResult out;
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
  out.unsupported = unsupported_ops(given);  // each op once (not per inlined copy)
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
  // The fusions planned against the program that runs.
  std::unique_ptr<FusedProgram> fused;
  if (fm) {
    fused = std::make_unique<FusedProgram>(program, std::move(*fm));
    run.set_fused(fused.get());
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
      // Counted in double before anything is allocated: a product past what size_t holds (4 GiB
      // in the wasm core) must be refused, not wrapped around into a small buffer.
      double need = hlo::element_bytes(t.etype);
      for (auto d : t.dims) need *= static_cast<double>(d);
      const auto& mem = run.memory();
      Tensor x;
      x.type = t.etype;
      x.dims = t.dims;
      if (need <= static_cast<double>(mem->cap() - mem->live()))
        x.storage = Storage::allocate(mem, static_cast<std::size_t>(need));
      if (!x.storage) {
        out.status = "error";
        out.errors.push_back(
            Error{std::to_string(entry->line) + ":" + std::to_string(entry->column) +
                      ": error: argument " + entry->value_name(a) + " (" + t.text + ") needs " +
                      format_number(need) +
                      " bytes \xE2\x80\x94 expected the inputs within the memory cap of " +
                      std::to_string(mem->cap()) + " bytes (" + std::to_string(mem->live()) +
                      " in use): raise memory_cap to run it",
                  {},
                  entry->line,
                  entry->column});
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

}  // namespace

}  // namespace rl::interp
