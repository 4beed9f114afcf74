// How many bytes of live tensors a program needs at most, from its IR: the lowered form's liveness
// (hlo::Program::dead) walked as the interpreter walks the program — arguments live from the
// start, each op's results from the op on, a value released once the op where it dies has run,
// a nested region's or a callee's own peak added at the op that runs it.
//
// The program's values, not a measurement of a run: the interpreter shares buffers (a reshape is
// the same bytes) and updates a dying operand in place, and a fused run keeps no intermediate
// tensors, so a run's values hold at most this; ops' own scratch comes on top at the op that
// uses it (sort's int64 permutation, a mixed-type dot's converted operands, convolution's
// windows: up to 2.7× the values' bytes on the StableHLO corpus,
// tests/cpp/interp/corpus_interp_test.cpp).
#include <algorithm>

#include "interp/interp.h"

namespace rl::interp {

namespace {

struct Walker {
  const hlo::Program& program;
  const hlo::Module& m;
  std::vector<double> function_peak;  // -1: not yet known; -2: being walked (a cycle)
  MemoryNeed need;

  double bytes_of(const hlo::Function& f, hlo::ValueId v) const {
    const double b = m.value_type(f, v).leaf_bytes();
    return b > 0 ? b : 0;  // tokens, dynamic shapes: nothing known
  }

  // The peak of a region run once, over what is live outside it (`outside`). With `record`, the
  // op where the peak is reached (the op itself, or the op whose region or callee reaches it) is
  // kept in `need`: the entry's own ops are named, not ops inside what they run.
  double region(const hlo::LFunction& lf, const hlo::LRegion& r, double outside, bool record) {
    const hlo::Function& f = *lf.fn;
    double peak = outside;
    for (const auto& b : r.blocks) {
      double live = outside;
      for (hlo::ValueId a : b.block->args) live += bytes_of(f, a);
      peak = std::max(peak, live);
      for (const hlo::Instr& in : b.instrs) {
        const hlo::Op& op = *in.op;
        // What runs inside this op (its regions, its callees) over what is live now, then its
        // results.
        double here = live;
        for (std::uint32_t i = 0; i < op.regions.count; ++i)
          here = std::max(here, region(lf, lf.regions[op.regions.begin + i], live, false));
        if (const hlo::OpAttrs* at = program.attrs_of(in))
          for (std::uint32_t callee : at->callees()) here = std::max(here, live + function(callee));
        for (hlo::ValueId v : f.results(op)) live += bytes_of(f, v);
        here = std::max(here, live);
        peak = std::max(peak, here);
        if (record && here > need.bytes)
          need = MemoryNeed{here, op.line, op.column, std::string(op.name)};
        if (const std::vector<hlo::ValueId>* dead = program.dead_after(in))
          for (hlo::ValueId v : *dead) live -= bytes_of(f, v);
      }
    }
    return peak;
  }

  // A function's own peak, its arguments excluded (the caller holds them).
  double function(std::uint32_t index) {
    if (index >= program.functions.size()) return 0;
    double& known = function_peak[index];
    if (known >= 0) return known;
    if (known == -2) return 0;  // a cycle (StableHLO forbids recursion; the verifier says so)
    known = -2;
    // The body's block arguments are the function's arguments: counted there, then taken off.
    const hlo::LFunction& lf = program.functions[index];
    double args = 0;
    for (hlo::ValueId a : lf.fn->args) args += bytes_of(*lf.fn, a);
    const double peak = std::max(0.0, region(lf, lf.body, 0, false) - args);
    function_peak[index] = peak;
    return peak;
  }
};

}  // namespace

MemoryNeed memory_need(const hlo::Program& program) {
  const hlo::Module& m = *program.module;
  const hlo::Function* entry = m.entry();
  if (!entry) return {};
  Walker w{program, m, std::vector<double>(program.functions.size(), -1.0), {}};
  const std::size_t index = program.function_index(entry);
  const hlo::LFunction& lf = program.functions[index];
  double args = 0;
  for (hlo::ValueId a : entry->args) args += w.bytes_of(*entry, a);
  if (args > w.need.bytes) w.need = MemoryNeed{args, entry->line, entry->column, "the arguments"};
  w.function_peak[index] = -2;
  w.region(lf, lf.body, 0, true);  // the body's block arguments are the entry's arguments
  return w.need;
}

}  // namespace rl::interp
