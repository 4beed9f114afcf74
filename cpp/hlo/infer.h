// The result shapes XLA infers for HLO instructions written without one
// (`ROOT r = reduce(p, init), dimensions={0}, to_apply=max`), after XLA's HLO parser
// (CanInferShape and maybe_infer_shape in xla/hlo/parser/hlo_parser.cc) and its
// ShapeInference rules. Opcodes for which XLA requires a written shape (constant, parameter,
// convert, reshape, slice, custom-call, fusion, ...) get an error naming the instruction.
#pragma once

#include "common/result.h"
#include "hlo/ir.h"

namespace rl::hlo {

// Types every instruction of `m` marked infer_shape (in computation order: a callee's result is
// known before its callers) and each computation's result type.
Result<bool> infer_shapes(Module& m, TypeTable& types);

}  // namespace rl::hlo
