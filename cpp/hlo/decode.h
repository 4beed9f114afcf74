// An op's attributes as typed values, and their one decoder: the verifier checks an op's
// contract on what this decodes (verify.cpp), the lowering keeps it for every reader after it
// (lower.h: the cost rules, the fusion pass, the interpreter). Attribute values stay raw text in
// the IR; both dialects' spellings of an attribute decode into the same field here, so no pass
// reads an attribute's text with a spelling list of its own.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "hlo/attrs.h"
#include "hlo/ir.h"
#include "hlo/literal.h"

namespace rl::hlo {

constexpr std::uint32_t kNoAttrs = ~std::uint32_t(0);

enum class Comparison : std::uint8_t { EQ, NE, LT, LE, GT, GE };
// How compare orders: by the element type (Default), or as the spec's FLOAT, TOTALORDER, SIGNED,
// UNSIGNED.
enum class CompareType : std::uint8_t { Default, Float, TotalOrder, Signed, Unsigned };
enum class FftType : std::uint8_t { FFT, IFFT, RFFT, IRFFT };
enum class RngAlgorithm : std::uint8_t { Default, ThreeFry, Philox };
enum class Transpose : std::uint8_t { NoTranspose, Transpose, Adjoint };

// The structs below are declared from their lists of fields (attrs.h: RL_ATTR_STRUCT), whose
// for_each_field the lowering's sharing key walks: a field added to a list needs no other edit.
#define RL_GATHER_DIMS_FIELDS(X)                                \
  X(std::vector<std::int64_t>, offset_dims, {})                 \
  X(std::vector<std::int64_t>, collapsed_slice_dims, {})        \
  X(std::vector<std::int64_t>, operand_batching_dims, {})       \
  X(std::vector<std::int64_t>, start_indices_batching_dims, {}) \
  X(std::vector<std::int64_t>, start_index_map, {})             \
  X(std::int64_t, index_vector_dim, 0)                          \
  X(std::vector<std::int64_t>, slice_sizes, {})                 \
  X(bool, indices_are_sorted, false)
RL_ATTR_STRUCT(GatherDims, RL_GATHER_DIMS_FIELDS)

#define RL_SCATTER_DIMS_FIELDS(X)                                 \
  X(std::vector<std::int64_t>, update_window_dims, {})            \
  X(std::vector<std::int64_t>, inserted_window_dims, {})          \
  X(std::vector<std::int64_t>, input_batching_dims, {})           \
  X(std::vector<std::int64_t>, scatter_indices_batching_dims, {}) \
  X(std::vector<std::int64_t>, scatter_dims_to_operand_dims, {})  \
  X(std::int64_t, index_vector_dim, 0)                            \
  X(bool, indices_are_sorted, false)                              \
  X(bool, unique_indices, false)
RL_ATTR_STRUCT(ScatterDims, RL_SCATTER_DIMS_FIELDS)

#define RL_CONV_ATTRS_FIELDS(X)                                         \
  X(ConvDims, dims, {})                                                 \
  X(std::vector<WindowDim>, window, {}) /* one per spatial dimension */ \
  X(std::vector<bool>, window_reversal, {})                             \
  X(std::int64_t, feature_group_count, 1)                               \
  X(std::int64_t, batch_group_count, 1)
RL_ATTR_STRUCT(ConvAttrs, RL_CONV_ATTRS_FIELDS)

// The decoded attributes of one op; which fields mean something depends on the op.
#define RL_OP_ATTRS_FIELDS(X)                                                                  \
  /* Integer lists: broadcast_in_dim/broadcast dims and sizes, transpose permutation, reverse, \
     reduce and map dimensions, dynamic_slice sizes, fft lengths. */                           \
  X(std::vector<std::int64_t>, dims, {})                                                       \
  X(std::vector<std::int64_t>, starts, {}) /* slice */                                         \
  X(std::vector<std::int64_t>, limits, {})                                                     \
  X(std::vector<std::int64_t>, strides, {})                                                    \
  X(std::vector<std::int64_t>, low, {}) /* pad */                                              \
  X(std::vector<std::int64_t>, high, {})                                                       \
  X(std::vector<std::int64_t>, interior, {})                                                   \
  /* concatenate, iota, sort, get_dimension_size, get_tuple_element index, top_k k */          \
  X(std::int64_t, dimension, 0)                                                                \
  X(Comparison, direction, Comparison::EQ) /* compare */                                       \
  X(CompareType, compare_type, CompareType::Default)                                           \
  X(bool, flag, false)     /* sort is_stable, cholesky lower */                                \
  X(int, exponent_bits, 0) /* reduce_precision */                                              \
  X(int, mantissa_bits, 0)                                                                     \
  X(std::vector<WindowDim>, window, {}) /* reduce_window, select_and_scatter */                \
  X(DotDims, dot, {})                                                                          \
  X(ConvAttrs, conv, {})                                                                       \
  X(GatherDims, gather, {})                                                                    \
  X(ScatterDims, scatter, {})                                                                  \
  X(FftType, fft, FftType::FFT)                                                                \
  X(RngAlgorithm, rng, RngAlgorithm::Default)                                                  \
  X(bool, left_side, false) /* triangular_solve */                                             \
  X(bool, lower, false)                                                                        \
  X(bool, unit_diagonal, false)                                                                \
  X(Transpose, transpose_a, Transpose::NoTranspose)                                            \
  X(float, epsilon, 0) /* batch norm */                                                        \
  X(std::int64_t, feature_index, 0)                                                            \
  X(std::string, target, {}) /* custom_call's target ("check.expect_eq") */                    \
  X(bool, has_side_effect, false)                                                              \
  /* function indices: call, HLO to_apply / condition+body / branches */                       \
  X(std::vector<std::uint32_t>, callees, {})                                                   \
  /* reduce's compact form (`applies stablehlo.add`): the body's one op */                     \
  X(OpCode, applies, OpCode::Unknown)                                                          \
  X(std::uint32_t, literal, kNoAttrs) /* constant: index in Program::literals */
RL_ATTR_STRUCT(OpAttrs, RL_OP_ATTRS_FIELDS)

// Decodes ops' attributes in module m. Constants decode their literal into *literals (its index in
// OpAttrs::literal) when literals is given; without it a constant has no attributes to decode.
// Callees (to_apply, condition, body, ...) are looked up in m when resolve_callees is true (the
// lowering); the verifier, whose shape rules need none, leaves them to it (OpAttrs::callees empty).
class AttrDecoder {
 public:
  AttrDecoder(const Module& m, std::vector<Literal>* literals, bool resolve_callees = true)
      : m_(m), literals_(literals), resolve_callees_(resolve_callees) {}

  // The op's attributes into *out (*has = true), or *has = false for an op with none to decode.
  // False when an attribute the op needs is missing or cannot be read: error() says which, at
  // the op's line:col (a literal's error at its own place).
  bool decode(const OpView& op, OpAttrs* out, bool* has);
  // The first error since the last clear_error().
  const Error& error() const { return error_; }
  // The module's function of this name (the first, as Module::find), or nullptr: by an index
  // built on the first call (a module may have thousands of computations).
  const Function* function(std::string_view name) const;
  void clear_error() { error_ = Error{}; }

 private:
  const Module& m_;
  std::vector<Literal>* literals_;
  bool resolve_callees_;
  Error error_;
  mutable std::unordered_map<std::string_view, const Function*> by_name_;  // function()'s index

  bool fail(const Op& op, const std::string& what, const std::string& rule, std::string_view got);
  bool pass(const Error& e);
  const Attribute* first(const OpView& op, std::initializer_list<const char*> names) const;
  bool ints(const OpView& op, std::initializer_list<const char*> names,
            std::vector<std::int64_t>* out, bool required, const char* what);
  bool int1(const OpView& op, std::initializer_list<const char*> names, std::int64_t* out,
            bool required, const char* what);
  bool flag(const OpView& op, std::initializer_list<const char*> names) const;
  // The functions attribute `name` lists (symbol_names), appended to *out as indices.
  bool callee(const OpView& op, const char* name, std::vector<std::uint32_t>* out, bool required);
  bool slice_spec(const OpView& op, std::string_view v, OpAttrs* a);
  bool slice_dims(const OpView& op, std::string_view inner, OpAttrs* a);
};

}  // namespace rl::hlo
