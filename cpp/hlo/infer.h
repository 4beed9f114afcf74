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

// The largest dimension the HLO parser reads, and the bound of the padded sizes inference and the
// verifier accept (2^50).
constexpr std::int64_t kMaxDim = std::int64_t(1) << 50;
// A dimension of `size` padded by low, high and interior padding (size + low + high +
// max(size - 1, 0) * interior, XLA's InferPadShape): false when it overflows or falls outside
// 0 to 2^50.
bool padded_size(std::int64_t size, std::int64_t low, std::int64_t high, std::int64_t interior,
                 std::int64_t* out);

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

// A convolution's result dimensions (XLA's InferConvolveShape), the rule shape inference and the
// verifier share: output batch = input batch / batch_group_count, output features = the kernel's
// output features, each spatial size window_output over the input's (the window's size is the
// kernel's, unless `window_sizes_written`: HLO's window carries its own). The group counts must
// be positive and not both above 1, the input features feature_group_count x the kernel's input
// features, the kernel's output features divisible by both counts and the batch by
// batch_group_count. `lhs` and `rhs` have rank spatial + 2 (-1 = dynamic); ConvDims names
// distinct dimensions of that rank. On success `rule` is empty and `*out` holds the dimensions;
// else `rule` and `got` say what is wrong.
struct ShapeRuleBroken {
  std::string rule, got;
  bool ok() const { return rule.empty(); }
};
ShapeRuleBroken convolution_result(const ConvDims& cd, const std::vector<std::int64_t>& lhs,
                                   const std::vector<std::int64_t>& rhs,
                                   std::int64_t feature_group_count, std::int64_t batch_group_count,
                                   const std::vector<WindowDim>& window, bool window_sizes_written,
                                   std::vector<std::int64_t>* out);

}  // namespace rl::hlo
