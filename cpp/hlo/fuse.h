// The fusion pass: XLA's fusion rules over the lowered program (lower.h), the fused program's
// costs counted as XLA counts a fusion (cost.h), and the fused module printed as XLA prints HLO.
//
// The rules (fuse.cpp has each one beside the XLA source it follows; the op table's fusion
// column, ops.inc, says which role each op plays):
// - loop fusion: elementwise ops, broadcasts, reshapes, transposes, slices, converts, selects,
//   compares, iota and scalar constants fuse into their consumers (kLoop);
// - a reduce is the root of an input fusion with its loop-fusible producers (kInput);
// - a dot or convolution with its elementwise epilogue (bias add, activation, convert) is an
//   output fusion (kOutput); FuseOptions::dot_epilogues = false keeps XLA CPU's narrower rule;
// - an expensive producer (exp, tanh, divide, dot, reduce...) is never duplicated: it fuses only
//   when every user is in the same fusion; broadcasts, iotas and scalar constants are copied
//   into every fusion that uses them (they have no flops, so fused flops = unfused flops);
// - calls are inlined first (inline.h), as XLA's CallInliner does before fusion, so a jitted
//   helper's ops (jax.nn.relu's @relu) fuse with their caller's; while and conditional bodies
//   (and the bodies of calls left as calls) are fused on their own; reducer / comparator bodies
//   are left alone (XLA does not fuse inside them either).
// A module that already holds fusion instructions (optimized HLO) is not fused again: its own
// fusions are reported, with the same counts.
//
// Deterministic and a pure function of the module: the same text gives the same fusions, names
// and numbers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hlo/cost.h"
#include "hlo/ir.h"

namespace rl::hlo {

enum class FusionKind : std::uint8_t { Loop, Input, Output, Other };
// "kLoop", "kInput", "kOutput"; Other: the kind a module's own fusion names ("kCustom").
std::string_view fusion_kind_name(FusionKind kind);

struct FuseOptions {
  // true: a dot or convolution takes its whole elementwise epilogue into one output fusion, as
  // XLA's GPU backend does (GemmRewriter's cuBLASLt bias/ReLU/GELU epilogues, Triton GEMM
  // fusions) and as this project's kernels apply tanh in the tile. false: XLA CPU's rule only
  // (CpuInstructionFusion::CanBeOutputFused: an add into a non-batched matrix-vector dot that
  // has one use); a matrix-matrix dot then runs alone, as XLA CPU calls its GEMM library.
  bool dot_epilogues = true;
};

struct FusedOp {
  int line = 0, column = 0;
  std::string_view op;  // as written (a view into the module's source)
};

struct Fusion {
  std::string name;  // "fusion.2" (its computation: "fused_computation.2"); the module's own name
                     // for its own
  FusionKind kind = FusionKind::Loop;
  std::string kind_name;       // "kLoop", or what the module's own fusion says
  std::uint32_t function = 0;  // the function holding it
  std::vector<FusedOp> ops;    // in program order, the root last
  // The same ops of the module (parallel to `ops`) for the interpreter to run the fusion as one
  // unit (interp/fused.h): `alone[i]` says members[i] also runs on its own outside the fusion (a
  // broadcast, iota or constant copied in whose value another op needs in memory). Empty for a
  // module's own fusions.
  std::vector<const Op*> members;
  std::vector<char> alone;
  const Op* root = nullptr;
  // One execution of the fusion, as XLA's HloCostAnalysis counts a fusion instruction: its
  // ops' flops and transcendentals summed; bytes at its boundary (each parameter read as
  // FusionParameterReadBytes reads it, the output written once). unfused_bytes_accessed: its
  // ops' own bytes summed, so the traffic it saves is the difference.
  double flops = 0, transcendentals = 0, bytes_accessed = 0, unfused_bytes_accessed = 0;
};

struct FusedModule {
  // The module the fusions' ops (members, root, function) and `text` belong to: null when it is
  // the module given; else a copy of it with its calls inlined, which a fused run must run.
  std::shared_ptr<const Module> inlined;
  std::size_t calls_inlined = 0;  // call sites replaced by their callee's ops
  std::size_t calls_kept = 0;     // calls left as calls (inline.h says which)
  std::vector<Fusion> fusions;
  // The fused program's costs: bytes_accessed fused, unfused_bytes_accessed as if every op ran
  // alone; flops and transcendentals the same either way.
  Analysis analysis;
  bool already_fused = false;  // the module's own fusions, none added
  std::string text;            // the fused module as XLA prints HLO
};

// Fuses a verified module (lowered here; an op that cannot be lowered is left unfused). Errors:
// the heap has no room for the program, or its costs fail.
Result<FusedModule> fuse_module(const Module& module, const FuseOptions& options = FuseOptions());

}  // namespace rl::hlo
