// The op table (ops.inc) as C++: an OpCode per op, and what the table says about it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "hlo/element_type.h"

namespace rl::hlo {

enum class OpCode : std::uint16_t {
  Unknown = 0,  // an op the table does not name (kept with its spelling; never costed as zero)
#define RL_OP(id, mlir, hlo, arity, family, verify, fusion, types, attrs) id,
#include "hlo/ops.inc"
#undef RL_OP
  Count_,
};

// The cost rule of an op (cost_rules.cpp: one rule per family).
enum class CostFamily : std::uint8_t {
  Zero,
  Elementwise,
  Transcendental,
  Data,
  Slice,
  DynamicSlice,
  DynamicUpdateSlice,
  Gather,
  Scatter,
  Dot,
  Convolution,
  Reduce,
  ReduceWindow,
  SelectAndScatter,
  Map,
  Sort,
  Fft,
  TriangularSolve,
  Cholesky,
  Rng,
  RngBitGenerator,
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  CollectivePermute,
  While,
  Conditional,
  Call,
  Fusion,
  AsyncStart,
  Tuple,
  CustomCall,
  Unmodeled,
};

// The shape-contract rule of an op (verify.cpp: one function per rule).
enum class VerifyRule : std::uint8_t {
  None,
  Constant,
  Elementwise,
  Select,
  Clamp,
  BroadcastInDim,
  Broadcast,  // stablehlo.broadcast: the sizes, then the operand's dimensions
  Reshape,
  Transpose,
  Concatenate,
  Dot,
  Convolution,
  Reduce,
  ReduceWindow,
  SelectAndScatter,
  Scatter,
  Map,
  Sort,
  Iota,  // the result's element kind is one the types column gives
  // The bounds a run reads and writes within: the interpreter's kernels trust these.
  Slice,
  DynamicSlice,
  DynamicUpdateSlice,
  Pad,
  TopK,    // chlo.top_k's k and results: its kernel trusts them too
  Gather,  // gather's and dynamic_gather's dimension numbers, slice sizes and result
  // Results the spec ties to the operands: a bitcast_convert keeps the bits (its shape gains or
  // loses the last dimension when the element width changes), an optimization_barrier gives
  // its operands back (StableHLO; HLO's one tuple is infer.cpp's), an rng_bit_generator gives
  // a new state of the state's type and values, from a state of ui64 words of the algorithm's
  // count.
  BitcastConvert,
  OptimizationBarrier,
  RngBitGenerator,
  // infer.cpp's rule (check_written_shapes), in StableHLO too: its attributes read alike.
  Inferred,
};

// What the fusion pass may do with an op (ops.inc says each value's XLA source; fuse.cpp the
// rules).
enum class FusionRole : std::uint8_t {
  None,
  Loop,
  LoopExpensive,
  Duplicable,
  Constant,
  Reduce,
  Output
};

// The family of typed attributes an op decodes into (ops.inc's last column; decode.h gives each
// family its struct, in this order).
enum class AttrFamily : std::uint8_t {
  None,
  Constant,
  Parameter,
  Compare,
  Dims,
  Slice,
  Pad,
  Dimension,
  TupleIndex,
  TopK,
  ReducePrecision,
  Reduce,
  Window,
  Sort,
  Gather,
  Scatter,
  Dot,
  Convolution,
  Fft,
  Rng,
  TriangularSolve,
  Cholesky,
  BatchNorm,
  CustomCall,
  Calls,
  Count_,
};

constexpr int kVariadic = -1;

// The kinds of element an op takes (ops.inc's last column): one bit per ElementKind
// (element_type.h: Bool 1, Signed 2, Unsigned 3, Float 4, Complex 5).
namespace types {
constexpr std::uint8_t Pred = 1 << 1, SInt = 1 << 2, UInt = 1 << 3, Float = 1 << 4, Cx = 1 << 5;
constexpr std::uint8_t Any = Pred | SInt | UInt | Float | Cx, IntFpCx = SInt | UInt | Float | Cx,
                       PredInt = Pred | SInt | UInt, Int = SInt | UInt,
                       SIntFpCx = SInt | Float | Cx, Fp = Float, FpCx = Float | Cx;
}  // namespace types

struct OpInfo {
  std::string_view id;    // "DotGeneral"
  std::string_view mlir;  // "stablehlo.dot_general", "" when StableHLO has no such op
  std::string_view hlo;   // "dot", "" when HLO has no such op
  int arity;              // operand count, or kVariadic
  CostFamily family;
  VerifyRule verify;
  FusionRole fusion;
  std::uint8_t types;  // the element kinds it takes (types::)
  AttrFamily attrs;
};

// The types column as a constant table, for code that picks loops at compile time (the
// interpreter instantiates an elementwise loop only for the kinds its op takes).
inline constexpr std::uint8_t kOpTypes[] = {
    types::Any,  // Unknown
#define RL_OP(id, mlir, hlo, arity, family, verify, fusion, types_, attrs) types::types_,
#include "hlo/ops.inc"
#undef RL_OP
};
// Whether op `code` takes elements of kind `k` (never ElementKind::None).
constexpr bool op_takes(OpCode code, ElementKind k) {
  return (kOpTypes[static_cast<std::size_t>(code)] >> static_cast<int>(k)) & 1;
}

// The kinds of element an op takes, in words: "a signed integer, floating-point or complex".
std::string types_text(std::uint8_t set);

const OpInfo& op_info(OpCode code);

// The op a name denotes in a dialect ("stablehlo" or "hlo"): "stablehlo.add", "mhlo.add",
// "func.return", "return" and "call" (pretty MLIR) or "add" (HLO). Unknown when none.
OpCode op_from_name(std::string_view name, std::string_view dialect);

// A short name for messages and tables: the HLO spelling, else the StableHLO one without its
// "stablehlo." prefix ("dot", "broadcast", "chlo.lgamma", "Unknown" for Unknown).
std::string_view op_short_name(OpCode code);

}  // namespace rl::hlo
