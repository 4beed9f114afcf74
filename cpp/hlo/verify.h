// The operation and shape contract of the ops that carry cost: dot_general, elementwise ops,
// broadcast_in_dim, reshape, transpose, reduce, convolution. A violation is an error
// "LINE:COL: error: WHAT — expected RULE, got VALUE". Ops with dynamic or unknown shapes are
// checked only where their shapes are known.
#pragma once

#include "common/result.h"
#include "hlo/ir.h"

namespace rl::hlo {

Result<bool> verify(const Module& module);

}  // namespace rl::hlo
