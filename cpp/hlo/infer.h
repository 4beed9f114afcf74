// The result shapes XLA infers for HLO instructions written without one
// (`ROOT r = reduce(p, init), dimensions={0}, to_apply=max`), after XLA's HLO parser
// (CanInferShape and maybe_infer_shape in xla/hlo/parser/hlo_parser.cc) and its ShapeInference
// rules (xla/service/shape_inference.cc): elementwise ops, tuples, get-tuple-element,
// concatenate, sort, map, reduce, reduce-window, select-and-scatter, broadcast (XLA's reading:
// `dimensions` are new major sizes), transpose, reverse, pad, gather, scatter, dot,
// convolution, fft, triangular-solve, cholesky, call, while, conditional, the batch norms,
// get/set-dimension-size, after-all, add-dependency, replica-id and partition-id. Opcodes for
// which XLA requires a written shape (constant, parameter, convert, reshape, slice, the
// collectives, custom-call, fusion, ...) and bad input get an error at the instruction's
// line:col that names the rule and the value.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"
#include "hlo/attrs.h"
#include "hlo/ir.h"

namespace rl::hlo {

// Types every instruction of `m` marked infer_shape, and each computation's result type. An
// instruction is typed after the shapeless instructions it uses and after the computations
// whose result it needs, wherever they are written; a cycle is an error.
Result<bool> infer_shapes(Module& m, TypeTable& types);

// XLA HLO only: every instruction written with a shape whose opcode has a rule here (the
// elementwise ops, dot, convolution, reduce, ...) has the shape the rule infers from its
// operands; else an error at the instruction naming both shapes. Other dialects pass.
Result<bool> check_written_shapes(const Module& m);

// The size of one dimension of a window's output (convolution, reduce_window), the rule shape
// inference and the verifier share: *out = (padded - dilated window) / stride + 1, 0 when the
// window is larger, -1 when `in` is dynamic. Returns "" or what is wrong ("a padded size of -3").
std::string window_output(std::int64_t in, const WindowDim& w, std::int64_t* out);

}  // namespace rl::hlo
