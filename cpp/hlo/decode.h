// An op's attributes as typed values, and their one decoder: the verifier checks an op's
// contract on what this decodes (verify.cpp), the lowering keeps it for every reader after it
// (lower.h: the cost rules, the fusion pass, the interpreter). Attribute values stay raw text in
// the IR; both dialects' spellings of an attribute decode into the same field here, so no pass
// reads an attribute's text with a spelling list of its own.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "hlo/attrs.h"
#include "hlo/ir.h"
#include "hlo/literal.h"
#include "hlo/ops.h"

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

#define RL_SCATTER_ATTRS_FIELDS(X)                                \
  X(std::vector<std::int64_t>, update_window_dims, {})            \
  X(std::vector<std::int64_t>, inserted_window_dims, {})          \
  X(std::vector<std::int64_t>, input_batching_dims, {})           \
  X(std::vector<std::int64_t>, scatter_indices_batching_dims, {}) \
  X(std::vector<std::int64_t>, scatter_dims_to_operand_dims, {})  \
  X(std::int64_t, index_vector_dim, 0)                            \
  X(bool, indices_are_sorted, false)                              \
  X(bool, unique_indices, false)                                  \
  X(std::vector<std::uint32_t>, callees, {}) /* HLO's to_apply */
RL_ATTR_STRUCT(ScatterAttrs, RL_SCATTER_ATTRS_FIELDS)

// window_sizes: the window writes its sizes (HLO's window={size=...}); StableHLO's are the
// kernel's.
#define RL_CONV_ATTRS_FIELDS(X)                                         \
  X(ConvDims, dims, {})                                                 \
  X(std::vector<WindowDim>, window, {}) /* one per spatial dimension */ \
  X(bool, window_sizes, false)                                          \
  X(std::vector<bool>, window_reversal, {})                             \
  X(std::int64_t, feature_group_count, 1)                               \
  X(std::int64_t, batch_group_count, 1)
RL_ATTR_STRUCT(ConvAttrs, RL_CONV_ATTRS_FIELDS)

// ---- one struct per attribute family (ops.inc's last column) -----------------------------------
// Callees are function indices in the module: HLO's to_apply, condition and body, branches,
// fusion's calls (StableHLO writes these bodies as regions instead, and its lists stay empty).

// constant: its literal, by index in Program::literals.
#define RL_CONSTANT_ATTRS_FIELDS(X) X(std::uint32_t, literal, kNoAttrs)
RL_ATTR_STRUCT(ConstantAttrs, RL_CONSTANT_ATTRS_FIELDS)

// HLO's parameter: its number (parameter(2)), which argument of its computation it is.
#define RL_PARAMETER_ATTRS_FIELDS(X) X(std::int64_t, number, 0)
RL_ATTR_STRUCT(ParameterAttrs, RL_PARAMETER_ATTRS_FIELDS)

#define RL_COMPARE_ATTRS_FIELDS(X)         \
  X(Comparison, direction, Comparison::EQ) \
  X(CompareType, compare_type, CompareType::Default)
RL_ATTR_STRUCT(CompareAttrs, RL_COMPARE_ATTRS_FIELDS)

// One list of dimensions: broadcast_in_dim's dimensions, broadcast's sizes, transpose's
// permutation, reverse's dimensions, dynamic_slice's sizes.
#define RL_DIMS_ATTRS_FIELDS(X) X(std::vector<std::int64_t>, dims, {})
RL_ATTR_STRUCT(DimsAttrs, RL_DIMS_ATTRS_FIELDS)

#define RL_SLICE_ATTRS_FIELDS(X)           \
  X(std::vector<std::int64_t>, starts, {}) \
  X(std::vector<std::int64_t>, limits, {}) \
  X(std::vector<std::int64_t>, strides, {}) /* one per dimension, 1 when not written */
RL_ATTR_STRUCT(SliceAttrs, RL_SLICE_ATTRS_FIELDS)

#define RL_PAD_ATTRS_FIELDS(X)           \
  X(std::vector<std::int64_t>, low, {})  \
  X(std::vector<std::int64_t>, high, {}) \
  X(std::vector<std::int64_t>, interior, {})
RL_ATTR_STRUCT(PadAttrs, RL_PAD_ATTRS_FIELDS)

// One dimension: concatenate's, iota's, get_dimension_size's and set_dimension_size's.
#define RL_DIMENSION_ATTRS_FIELDS(X) X(std::int64_t, dimension, 0)
RL_ATTR_STRUCT(DimensionAttrs, RL_DIMENSION_ATTRS_FIELDS)

#define RL_TUPLE_INDEX_ATTRS_FIELDS(X) X(std::int64_t, index, 0) /* get_tuple_element */
RL_ATTR_STRUCT(TupleIndexAttrs, RL_TUPLE_INDEX_ATTRS_FIELDS)

#define RL_TOP_K_ATTRS_FIELDS(X) X(std::int64_t, k, 0) /* chlo.top_k */
RL_ATTR_STRUCT(TopKAttrs, RL_TOP_K_ATTRS_FIELDS)

#define RL_REDUCE_PRECISION_ATTRS_FIELDS(X) \
  X(int, exponent_bits, 0)                  \
  X(int, mantissa_bits, 0)
RL_ATTR_STRUCT(ReducePrecisionAttrs, RL_REDUCE_PRECISION_ATTRS_FIELDS)

// reduce and map: the dimensions (dims_written: whether they were written, as map may leave
// them out), reduce's compact form (`applies stablehlo.add`: the body's one op), HLO's to_apply.
#define RL_REDUCE_ATTRS_FIELDS(X)        \
  X(std::vector<std::int64_t>, dims, {}) \
  X(bool, dims_written, false)           \
  X(OpCode, applies, OpCode::Unknown)    \
  X(std::vector<std::uint32_t>, callees, {})
RL_ATTR_STRUCT(ReduceAttrs, RL_REDUCE_ATTRS_FIELDS)

// reduce_window and select_and_scatter: the window (one per operand dimension; sizes: whether
// it writes its sizes as HLO's window={size=...}), HLO's to_apply (select, scatter).
#define RL_WINDOW_ATTRS_FIELDS(X)       \
  X(std::vector<WindowDim>, window, {}) \
  X(bool, sizes, false)                 \
  X(std::vector<std::uint32_t>, callees, {})
RL_ATTR_STRUCT(WindowAttrs, RL_WINDOW_ATTRS_FIELDS)

#define RL_SORT_ATTRS_FIELDS(X) \
  X(std::int64_t, dimension, 0) \
  X(bool, is_stable, false)     \
  X(std::vector<std::uint32_t>, callees, {})
RL_ATTR_STRUCT(SortAttrs, RL_SORT_ATTRS_FIELDS)

#define RL_FFT_ATTRS_FIELDS(X)   \
  X(FftType, type, FftType::FFT) \
  X(std::vector<std::int64_t>, lengths, {})
RL_ATTR_STRUCT(FftAttrs, RL_FFT_ATTRS_FIELDS)

#define RL_RNG_ATTRS_FIELDS(X) X(RngAlgorithm, algorithm, RngAlgorithm::Default)
RL_ATTR_STRUCT(RngAttrs, RL_RNG_ATTRS_FIELDS)

#define RL_TRIANGULAR_SOLVE_ATTRS_FIELDS(X) \
  X(bool, left_side, false)                 \
  X(bool, lower, false)                     \
  X(bool, unit_diagonal, false)             \
  X(Transpose, transpose_a, Transpose::NoTranspose)
RL_ATTR_STRUCT(TriangularSolveAttrs, RL_TRIANGULAR_SOLVE_ATTRS_FIELDS)

#define RL_CHOLESKY_ATTRS_FIELDS(X) X(bool, lower, false)
RL_ATTR_STRUCT(CholeskyAttrs, RL_CHOLESKY_ATTRS_FIELDS)

#define RL_BATCH_NORM_ATTRS_FIELDS(X) \
  X(float, epsilon, 0)                \
  X(std::int64_t, feature_index, 0)
RL_ATTR_STRUCT(BatchNormAttrs, RL_BATCH_NORM_ATTRS_FIELDS)

// gemm_lhs_contracting: a cuBLAS GEMM's lhs_contracting_dimensions, read from its backend_config
// (gemm_dims: whether it gives them).
#define RL_CUSTOM_CALL_ATTRS_FIELDS(X)                   \
  X(std::string, target, {}) /* "check.expect_eq" */     \
  X(bool, has_side_effect, false)                        \
  X(std::vector<std::int64_t>, gemm_lhs_contracting, {}) \
  X(bool, gemm_dims, false)
RL_ATTR_STRUCT(CustomCallAttrs, RL_CUSTOM_CALL_ATTRS_FIELDS)

// call, composite, fusion, async_start, while (condition, body), case (its branches);
// known_trip_count: a while's, from its backend_config (-1: none); fusion_kind: a fusion's kind
// as written ("kLoop", ""when not written).
#define RL_CALLS_ATTRS_FIELDS(X)             \
  X(std::vector<std::uint32_t>, callees, {}) \
  X(std::int64_t, known_trip_count, -1)      \
  X(std::string, fusion_kind, {})
RL_ATTR_STRUCT(CallsAttrs, RL_CALLS_ATTRS_FIELDS)

// AttrFamily (ops.h) → its struct (None has none).
#define RL_ATTR_FAMILIES(X)                \
  X(Constant, ConstantAttrs)               \
  X(Parameter, ParameterAttrs)             \
  X(Compare, CompareAttrs)                 \
  X(Dims, DimsAttrs)                       \
  X(Slice, SliceAttrs)                     \
  X(Pad, PadAttrs)                         \
  X(Dimension, DimensionAttrs)             \
  X(TupleIndex, TupleIndexAttrs)           \
  X(TopK, TopKAttrs)                       \
  X(ReducePrecision, ReducePrecisionAttrs) \
  X(Reduce, ReduceAttrs)                   \
  X(Window, WindowAttrs)                   \
  X(Sort, SortAttrs)                       \
  X(Gather, GatherDims)                    \
  X(Scatter, ScatterAttrs)                 \
  X(Dot, DotDims)                          \
  X(Convolution, ConvAttrs)                \
  X(Fft, FftAttrs)                         \
  X(Rng, RngAttrs)                         \
  X(TriangularSolve, TriangularSolveAttrs) \
  X(Cholesky, CholeskyAttrs)               \
  X(BatchNorm, BatchNormAttrs)             \
  X(CustomCall, CustomCallAttrs)           \
  X(Calls, CallsAttrs)

#define RL_ATTR_COUNT(family, type) +1
static_assert(1 RL_ATTR_FAMILIES(RL_ATTR_COUNT) == static_cast<int>(AttrFamily::Count_),
              "one struct per AttrFamily but None");
#undef RL_ATTR_COUNT

// Which family a struct is: AttrFamilyOf<SliceAttrs>::value == AttrFamily::Slice.
template <class F>
struct AttrFamilyOf;
#define RL_ATTR_FAMILY_OF(family, type)                     \
  template <>                                               \
  struct AttrFamilyOf<type> {                               \
    static constexpr AttrFamily value = AttrFamily::family; \
  };
RL_ATTR_FAMILIES(RL_ATTR_FAMILY_OF)
#undef RL_ATTR_FAMILY_OF

// The decoded attributes of one op: the struct of its family (ops.inc's last column), which
// AttrDecoder writes, held on the heap (a copy copies it). A reader asks for the family the table
// gives the op: get<SliceAttrs>() of a slice.
class OpAttrs {
 public:
  OpAttrs() = default;  // no attributes (AttrFamily::None)
  ~OpAttrs() { reset(); }
  OpAttrs(const OpAttrs& o);
  OpAttrs(OpAttrs&& o) noexcept : family_(o.family_), p_(o.p_) {
    o.family_ = AttrFamily::None;
    o.p_ = nullptr;
  }
  OpAttrs& operator=(const OpAttrs& o) { return *this = OpAttrs(o); }
  OpAttrs& operator=(OpAttrs&& o) noexcept {
    if (this != &o) {
      reset();
      family_ = o.family_;
      p_ = o.p_;
      o.family_ = AttrFamily::None;
      o.p_ = nullptr;
    }
    return *this;
  }

  AttrFamily family() const { return family_; }
  // The family's attributes. Another family's is a bug (the decoder writes the table's family,
  // and checks that it does): builds that check invariants stop there; others read F's defaults.
  template <class F>
  const F& get() const {
    if (const F* p = get_if<F>()) return *p;
    return wrong_family<F>();
  }
  template <class F>
  const F* get_if() const {
    return family_ == AttrFamilyOf<F>::value ? static_cast<const F*>(p_) : nullptr;
  }
  // Fresh attributes of family F (the decoder's), in place of any held.
  template <class F>
  F& emplace() {
    F* f = new F();
    reset();
    family_ = AttrFamilyOf<F>::value;
    p_ = f;
    return *f;
  }
  // The functions an op calls by name (HLO's to_apply, condition, body, branches, fusion's
  // calls), as indices in the module: empty for a family that calls none.
  const std::vector<std::uint32_t>& callees() const;
  // Calls f on the held struct (nothing for AttrFamily::None).
  template <class Fn>
  void visit(Fn&& f) const;

 private:
  AttrFamily family_ = AttrFamily::None;
  void* p_ = nullptr;  // the family's struct

  void reset();  // deletes the struct (decode.cpp: one switch over the families)
  template <class F>
  const F& wrong_family() const {
#if RL_CHECK_INVARIANTS
    std::fprintf(stderr, "OpAttrs: asked for family %d, holds family %d\n",
                 static_cast<int>(AttrFamilyOf<F>::value), static_cast<int>(family_));
    std::abort();
#endif
    static const F defaults{};
    return defaults;
  }
};

template <class Fn>
void OpAttrs::visit(Fn&& f) const {
  switch (family_) {
#define RL_ATTR_VISIT(family, type)   \
  case AttrFamily::family:            \
    f(*static_cast<const type*>(p_)); \
    break;
    RL_ATTR_FAMILIES(RL_ATTR_VISIT)
#undef RL_ATTR_VISIT
    default:
      break;
  }
}

// The key by which the lowering shares one entry among ops that decode alike: the op, its family
// and every field of the family's struct (walked from the lists that declare them, so a field added
// to a list is in the key with no other edit) as bytes. Equal keys, equal attributes.
std::string sharing_key(OpCode code, const OpAttrs& a);

// Decodes ops' attributes in module m. Constants decode their literal into *literals (its index in
// ConstantAttrs::literal) when literals is given; without it a constant has no attributes to
// decode. Callees (to_apply, condition, body, ...) are looked up in m when resolve_callees is true
// (the lowering); the verifier, whose shape rules need none, leaves them to it (OpAttrs::callees()
// empty).
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
  bool real1(const OpView& op, const char* name, float* out);
  bool flag(const OpView& op, std::initializer_list<const char*> names) const;
  // The functions attribute `name` lists (symbol_names), appended to *out as indices.
  bool callee(const OpView& op, const char* name, std::vector<std::uint32_t>* out, bool required);
  bool slice_spec(const OpView& op, std::string_view v, SliceAttrs* a);
  bool slice_dims(const OpView& op, std::string_view inner, SliceAttrs* a);
};

}  // namespace rl::hlo
