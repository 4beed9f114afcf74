// Runs the fusions of the fusion pass (hlo/fuse.h) as units: the interpreter's side of XLA's
// fused kernels.
//
// A fusion runs where its root stands in the block; its other ops (those that do not also run on
// their own) are skipped where they stand, and the values that die at them live on to the root
// (the liveness lists are moved accordingly, so nothing is freed, or updated in place, before the
// fusion has read it). Inside the fusion:
// - the loop part (every op of a kLoop fusion; a kOutput fusion's epilogue; the elementwise
//   producers of a kInput fusion's reduce) is evaluated a block of kFusedBlock elements at a time
//   (run_loop, fused_loop.cpp, built -O3), node by node on small buffers that stay in L1, with the
//   same functions the ops run alone (simd_loops.h, kernels/math_impl.h through best_math(),
//   convert's and iota's rules), so the bits are the unfused bits. Lanes: f32, f16 and bf16 (as
//   f32, rounded to the half after each op as the op alone rounds), s32, u32, pred. Parameters of
//   the loop's size are read in place; broadcasts, slices and transposes of parameters (and
//   reshapes of those) through one index map (offset + a stride per dimension); scalar constants
//   splatted once; iota computed from the element index; reshapes and same-type converts are
//   free; no intermediate tensor is made;
// - a kOutput fusion's dot (or convolution) runs through its kernel, and the epilogue is applied
//   to its output in one pass, in place;
// - a kInput fusion's reduce folds the loop part's output a chunk of whole rows at a time, as
//   it is computed (reduce_streamed, kernel.h: the op's own loop, so the op's bits): the reduce's
//   input is never made whole, as XLA evaluates the producers inside the reduction loop (a
//   combiner the op does not fold natively, or an input also read after the fusion: made whole,
//   then the op runs);
// - a fusion whose ops are outside the loop's vocabulary (f64, i64 and other integer widths,
//   complex, concatenate, dynamic slices, a slice or transpose of a value computed in the loop,
//   integer divide/remainder/power, ...) runs its ops one by one, in program order, inside the
//   fusion, and says why (FusionRun::fallback).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "hlo/fuse.h"
#include "hlo/lower.h"
#include "interp/value.h"

namespace rl::interp {

class Run;

constexpr std::int64_t kFusedBlock = 512;  // elements per block of the loop part

// One node of a fusion's loop part: an op computed a block at a time, or where a block of a
// value outside the loop part is read from. A block holds lanes of the node's type: f32, f16 and
// bf16 as f32 (a half op computes in f32 and rounds to its type, as the op alone does), s32 as
// int32, pred as bytes.
struct LoopNode {
  enum class Kind : std::uint8_t {
    Param,  // a value of the frame with the loop's element count, read in place (halves converted)
    ParamSplat,   // a one-element value of the frame, repeated
    ParamGather,  // a value of the frame read through an index map (broadcast, slice, transpose)
    Splat,        // a scalar constant (its lane's bits)
    Iota,         // the index along `axis` of the shape `dims`, in the node's type
    Pass,         // reshape, a convert to the same lanes: the operand's block as it is
    Binary,       // add, subtract, multiply, divide, maximum, minimum (floats: simd::f32_binary)
    IntBinary,    // s32 add, subtract, multiply, maximum, minimum, and, or, xor (op: the OpCode)
    Negate,
    Abs,      // floats on the sign bit, s32 wrapping
    Not,      // s32 bitwise not
    Math,     // exp, tanh, ... (kernels::best_math), halves through f32
    Compare,  // floats or s32 → pred
    Select,   // pred ? a : b, lanes moved as bits
    Logic,    // pred and, or, xor, not (op 0..3)
    Convert,  // between lane types (from → type), by convert's rules
  };
  Kind kind = Kind::Param;
  hlo::ElementType type = hlo::ElementType::F32;  // F32, F16, BF16, S32 or Pred
  hlo::ElementType from = hlo::ElementType::F32;  // Convert: the operand's type
  bool scalar = false;         // one value repeated over the block (a splat, or ops of splats)
  bool is_unsigned = false;    // Compare: the s32 lanes compared as unsigned
  hlo::ValueId value = 0;      // Param*: the frame's value
  int a = -1, b = -1, c = -1;  // operand nodes
  std::uint32_t bits = 0;      // Splat: the lane's bits
  std::uint16_t op = 0;     // Binary: simd::Binary; IntBinary: hlo::OpCode; Math: kernels::MathFn;
                            // Compare: hlo::Comparison
  std::uint32_t instr = 0;  // the instruction it computes (for Param*: the one reading it)
  std::vector<std::int64_t> dims,
      strides;  // ParamGather: result dims, the operand's stride per result dim; Iota: dims
  std::int64_t offset = 0;           // ParamGather: the operand's element at index 0
  std::int64_t axis = 0;             // Iota: its dimension
  std::int64_t source_elements = 0;  // ParamGather: the operand's element count
  bool pred() const { return type == hlo::ElementType::Pred; }
  bool floats() const {
    return type == hlo::ElementType::F32 || type == hlo::ElementType::F16 ||
           type == hlo::ElementType::BF16;
  }
  bool half() const { return type == hlo::ElementType::F16 || type == hlo::ElementType::BF16; }
  std::size_t lane_bytes() const { return pred() ? 1 : 4; }
};

struct FusionPlan {
  std::size_t fusion = 0;  // index in FusedModule::fusions
  const hlo::LFunction* lfn = nullptr;
  const hlo::LBlock* block = nullptr;
  std::vector<std::uint32_t> members;  // instruction indices in the block, program order
  std::uint32_t root = 0;              // instruction index of the root
  std::string fallback;                // why it runs op by op ("" when it runs fused)
  // The loop part: nodes in evaluation order; loop_root's value is its output.
  std::vector<LoopNode> nodes;
  std::uint32_t loop_root = 0;  // instruction index of the loop part's root
  bool has_loop = false;
  std::vector<char> by_op;  // by member: runs through its own kernel inside the fusion
  // By node, for a Param node: the output may be written over its buffer as far as the plan
  // alone says (no ParamGather reads the same value: it would read elsewhere in the array), and
  // whether a member the fusion runs by its kernel makes the value (fresh on every run). Set
  // once when planned; the frame decides the rest on each run (loop_output).
  std::vector<char> param_overwritable, param_own;
};

class FusedProgram {
 public:
  // Plans every fusion of `fused` (a fuse_module of the program's module) against `program`.
  FusedProgram(const hlo::Program& program, hlo::FusedModule fused);
  ~FusedProgram();
  FusedProgram(const FusedProgram&) = delete;
  FusedProgram& operator=(const FusedProgram&) = delete;

  enum class Role : std::uint8_t { Alone, Skip, Root };
  // A block that holds fusions: by instruction index, its role (Skip: 0, Alone: kAlone, Root: its
  // plan + 1) and the values that die there in the fused order. The evaluator looks a block up once
  // per run of it and then indexes, where a lookup per instruction was a tenth of a scalar loop's
  // time.
  static constexpr std::uint32_t kAlone = ~std::uint32_t(0);
  struct BlockPlan {
    const hlo::Instr* first = nullptr;
    std::size_t size = 0;
    std::vector<std::uint32_t> role;
    std::vector<std::vector<hlo::ValueId>> dead;
    Role role_of(std::size_t i, std::size_t* plan) const {
      const std::uint32_t r = role[i];
      if (r == kAlone) return Role::Alone;
      if (r == 0) return Role::Skip;
      *plan = r - 1;
      return Role::Root;
    }
  };
  // The plan of the block whose instructions start at `first`; nullptr: a block without fusions.
  const BlockPlan* block(const hlo::Instr* first) const;
  // The values that die at `in` in the fused order; nullptr: as the program's liveness says.
  const std::vector<hlo::ValueId>* dead_after(const hlo::Instr& in, bool* covered) const;

  const hlo::FusedModule& fused() const { return fused_; }
  const std::vector<FusionPlan>& plans() const { return plans_; }

 private:
  hlo::FusedModule fused_;
  std::vector<FusionPlan> plans_;
  // The blocks that hold fusions, sorted by their first instruction's address: an instruction
  // elsewhere (a reducer's body run per element, ...) is answered by one binary search.
  std::vector<BlockPlan> blocks_;
  const BlockPlan* block_of(const hlo::Instr* in) const;
};

// Evaluates elements [begin, end) of the loop part of `plan` (its root has n elements) into `out`
// (element begin first, in the root's storage type): block by block, node by node
// (fused_loop.cpp, built for speed). False with the run's error set.
bool run_loop(Run& run, const FusionPlan& plan, std::vector<Value>& frame, std::uint8_t* out,
              std::int64_t n, std::int64_t begin, std::int64_t end);

// Runs one fusion (at its root) in `frame`. False with the run's error set on failure.
bool run_fusion(Run& run, const FusionPlan& plan, std::vector<Value>& frame);

}  // namespace rl::interp
