// The lowering: a verified module into its execution-ready form, the Program.
//
// The IR already has an opcode per op, operands and results as value slots of their function
// (ValueId), element types as an enum and interned types. The lowering adds what running an op
// needs, decoded once: every attribute the op's semantics depend on as typed fields (dimension
// numbers, windows, slices, comparison direction, ...), constants as typed buffers, and callees
// (HLO's to_apply=, condition=, body=, calls=; StableHLO's func.call) as function indices. Both
// dialects' spellings of an attribute decode into the same fields.
//
// Gated by the verifier: lower() verifies first and refuses a module that does not verify. An
// attribute that is missing or cannot be read, a literal whose element count does not match its
// type, an elided HLO literal (`{...}`), a callee that does not exist: each is a problem of its
// op, an error at the op's line:col. lower() refuses a module with a problem; lower_lenient()
// keeps the module and records the problem on the op, so the cost analysis can still count the
// rest (the op is listed as unmodeled with the problem as its note). An op the table does not
// name (OpCode::Unknown) is lowered with no attributes; whoever runs it decides what to do.
//
// The cost analysis reads its dimension numbers and windows from here too, so what is costed and
// what runs cannot drift apart.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "hlo/decode.h"
#include "hlo/ir.h"
#include "hlo/literal.h"

namespace rl::hlo {

// One op of the program: the IR op (operands, results, regions, line:col) and its decoded
// attributes.
struct Instr {
  const Op* op = nullptr;
  OpCode code = OpCode::Unknown;
  std::uint32_t attrs = kNoAttrs;    // index in Program::attrs
  std::uint32_t problem = kNoAttrs;  // index in Program::problems: why this op cannot be lowered
  std::uint32_t dead = kNoAttrs;     // index in Program::dead: values that die at this op
};

struct LBlock {
  const Block* block = nullptr;
  std::vector<Instr> instrs;
};

struct LRegion {
  std::vector<LBlock> blocks;
};

struct LFunction {
  const Function* fn = nullptr;
  LRegion body;
  std::vector<LRegion>
      regions;  // mirrors Function::regions (an op's Range of regions indexes both)
};

struct Program {
  const Module* module = nullptr;
  std::vector<LFunction> functions;
  std::vector<OpAttrs> attrs;
  std::vector<Literal> literals;
  std::vector<Error> problems;
  // Why the lowering stopped before the end (an empty message when it did not): the heap had
  // no room left for the program (common/memory.h). A program that stopped must not be run.
  Error stopped;
  // Liveness, per op: the values of its own block (results of the block's ops, its arguments)
  // that no later op of the block uses — neither as an operand nor inside a nested region —
  // with the op's own unused results (not HLO's ROOT) and, at a block's first op, the block's
  // unused arguments. A runner may release them once the op has run, and an op may update such
  // an operand's buffer in place when no one else holds it.
  std::vector<std::vector<ValueId>> dead;

  const OpAttrs* attrs_of(const Instr& i) const {
    return i.attrs == kNoAttrs ? nullptr : &attrs[i.attrs];
  }
  const Error* problem_of(const Instr& i) const {
    return i.problem == kNoAttrs ? nullptr : &problems[i.problem];
  }
  const std::vector<ValueId>* dead_after(const Instr& i) const {
    return i.dead == kNoAttrs ? nullptr : &dead[i.dead];
  }
  std::size_t function_index(const Function* f) const {
    return static_cast<std::size_t>(f - module->functions.data());
  }
};

// Verifies, then lowers; the first problem of any op is the error. The program refers to the
// module, which must outlive it.
Result<Program> lower(const Module& module);
// lower() of a module the verifier has already accepted (it is not verified again).
Result<Program> lower_verified(const Module& module);

// Lowers a module that verified, keeping each op's problem on the op (see above).
Program lower_lenient(const Module& module);

// What to lower. The cost analysis leaves constants' literals undecoded (no cost rule reads a
// value, and a big program's constants are most of the lowering's time) and needs no liveness
// (a list per op: a dense module of a million ops would hold a million of them).
struct LowerOptions {
  bool constants = true;  // false: constants get no literal (no attributes, no problem)
  bool liveness = true;   // false: Program::dead stays empty, every Instr::dead kNoAttrs
};
Program lower_lenient(const Module& module, const LowerOptions& options);

}  // namespace rl::hlo
