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

struct GatherDims {
  std::vector<std::int64_t> offset_dims, collapsed_slice_dims, operand_batching_dims,
      start_indices_batching_dims, start_index_map;
  std::int64_t index_vector_dim = 0;
  std::vector<std::int64_t> slice_sizes;
  bool indices_are_sorted = false;
};

struct ScatterDims {
  std::vector<std::int64_t> update_window_dims, inserted_window_dims, input_batching_dims,
      scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  std::int64_t index_vector_dim = 0;
  bool indices_are_sorted = false, unique_indices = false;
};

struct ConvAttrs {
  ConvDims dims;
  std::vector<WindowDim> window;  // one per spatial dimension
  std::vector<bool> window_reversal;
  std::int64_t feature_group_count = 1, batch_group_count = 1;
};

// The decoded attributes of one op; which fields mean something depends on the op.
struct OpAttrs {
  // Integer lists: broadcast_in_dim/broadcast dims and sizes, transpose permutation, reverse,
  // reduce and map dimensions, dynamic_slice sizes, fft lengths.
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> starts, limits, strides;  // slice
  std::vector<std::int64_t> low, high, interior;      // pad
  std::int64_t dimension =
      0;  // concatenate, iota, sort, get_dimension_size, get_tuple_element index, top_k k
  Comparison direction = Comparison::EQ;  // compare
  CompareType compare_type = CompareType::Default;
  bool flag = false;                         // sort is_stable, cholesky lower
  int exponent_bits = 0, mantissa_bits = 0;  // reduce_precision
  std::vector<WindowDim> window;             // reduce_window, select_and_scatter
  DotDims dot;
  ConvAttrs conv;
  GatherDims gather;
  ScatterDims scatter;
  FftType fft = FftType::FFT;
  RngAlgorithm rng = RngAlgorithm::Default;
  bool left_side = false, lower = false, unit_diagonal = false;  // triangular_solve
  Transpose transpose_a = Transpose::NoTranspose;
  float epsilon = 0;  // batch norm
  std::int64_t feature_index = 0;
  std::string target;  // custom_call's target ("check.expect_eq")
  bool has_side_effect = false;
  std::vector<std::uint32_t>
      callees;  // function indices: call, HLO to_apply / condition+body / branches
  OpCode applies =
      OpCode::Unknown;  // reduce's compact form (`applies stablehlo.add`): the body's one op
  std::uint32_t literal = kNoAttrs;  // constant: index in Program::literals
};

// Decodes ops' attributes in module m. Constants decode their literal into *literals (its index in
// OpAttrs::literal) when literals is given; without it a constant has no attributes to decode.
class AttrDecoder {
 public:
  AttrDecoder(const Module& m, std::vector<Literal>* literals) : m_(m), literals_(literals) {}

  // The op's attributes into *out (*has = true), or *has = false for an op with none to decode.
  // False when an attribute the op needs is missing or cannot be read: error() says which, at
  // the op's line:col (a literal's error at its own place).
  bool decode(const OpView& op, OpAttrs* out, bool* has);
  // The first error since the last clear_error().
  const Error& error() const { return error_; }
  void clear_error() { error_ = Error{}; }

 private:
  const Module& m_;
  std::vector<Literal>* literals_;
  Error error_;

  bool fail(const Op& op, const std::string& what, const std::string& rule, std::string_view got);
  bool pass(const Error& e);
  const Attribute* first(const OpView& op, std::initializer_list<const char*> names) const;
  bool ints(const OpView& op, std::initializer_list<const char*> names,
            std::vector<std::int64_t>* out, bool required, const char* what);
  bool int1(const OpView& op, std::initializer_list<const char*> names, std::int64_t* out,
            bool required, const char* what);
  bool flag(const OpView& op, std::initializer_list<const char*> names) const;
  bool callee(const OpView& op, const char* name, std::vector<std::uint32_t>* out, bool required);
  bool slice_spec(const OpView& op, std::string_view v, OpAttrs* a);
  bool slice_dims(const OpView& op, std::string_view inner, OpAttrs* a);
};

}  // namespace rl::hlo
