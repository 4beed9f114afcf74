// Reading the few attributes the verifier and the cost rules need, from either dialect's text:
// dot dimension numbers, convolution dimension numbers and windows, integer lists, replica
// groups. Attribute values stay raw text in the IR; these helpers interpret them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hlo/ir.h"

namespace rl::hlo {

// The integers of a list value: "[1, 0]", "array<i64: 1, 0>", "dense<[[1, 1]]> : tensor<1x2xi64>",
// "{1,0}", "1 : i64". Identifiers with digits (i64, x2) are skipped; a type suffix is ignored.
std::vector<std::int64_t> int_list(std::string_view value);
// int_list's integers when the list holds nothing else: false for a name or a fraction among them,
// two integers without a comma between them, or an integer past 2^58 — `{0,x}` is not {0}.
bool int_list_exact(std::string_view value, std::vector<std::int64_t>* out);

// An HLO layout as written inside its braces ("1,0", "0,1:T(8,128)"): the dimensions from minor
// to major, into *out. False when it says more than that order (after ':' : tiles, element size,
// memory space) or is not a permutation of 0..rank-1.
bool minor_to_major(std::string_view layout, std::size_t rank, std::vector<int>* out);
// The default layout, rank-1,...,1,0 (row-major), with nothing after it: "", "0", "2,1,0".
bool is_default_layout(std::string_view layout);

// The integers after `key = ` inside a structured attribute
// ("#stablehlo.dot<lhs_batching_dimensions = [0], ...>"); found = false when the key is absent.
std::vector<std::int64_t> keyed_list(std::string_view value, std::string_view key, bool* found);

// ---- decoded attributes: each struct's fields named once ---------------------------------------
// A struct of decoded attributes is declared from its list of fields, X(type, name, initial value),
// and its for_each_field is made from the same list: the lowering's sharing key (decode.cpp: equal
// keys, equal attributes) walks every field through it, so a field added to a list is in the key
// with no other edit. (decode.h declares OpAttrs and the structs it holds the same way.)
#define RL_ATTR_FIELD_DECLARE(type, name, init) type name = init;
#define RL_ATTR_FIELD_VISIT(type, name, init) f(s.name);
// Declares `struct Name` from FIELDS and its for_each_field(const Name&, f), which calls f on each
// field in the list's order.
#define RL_ATTR_STRUCT(Name, FIELDS)                 \
  struct Name {                                      \
    FIELDS(RL_ATTR_FIELD_DECLARE)                    \
  };                                                 \
  template <class F>                                 \
  inline void for_each_field(const Name& s, F&& f) { \
    FIELDS(RL_ATTR_FIELD_VISIT)                      \
  }

#define RL_DOT_DIMS_FIELDS(X)                       \
  X(std::vector<std::int64_t>, lhs_batch, {})       \
  X(std::vector<std::int64_t>, rhs_batch, {})       \
  X(std::vector<std::int64_t>, lhs_contracting, {}) \
  X(std::vector<std::int64_t>, rhs_contracting, {}) \
  X(bool, sparse, false) /* HLO's sparsity=: a sparse dot (the decoder's) */
RL_ATTR_STRUCT(DotDims, RL_DOT_DIMS_FIELDS)
// dot_general (pretty `contracting_dims = [1] x [0]`, generic `#stablehlo.dot<...>`), HLO dot
// (`lhs_contracting_dims={1}`), and the legacy stablehlo.dot (lhs last, rhs first).
Result<DotDims> dot_dims(const OpView& op);

#define RL_CONV_DIMS_FIELDS(X)                     \
  X(std::int64_t, input_batch, 0)                  \
  X(std::int64_t, input_feature, 0)                \
  X(std::vector<std::int64_t>, input_spatial, {})  \
  X(std::int64_t, kernel_input_feature, 0)         \
  X(std::int64_t, kernel_output_feature, 0)        \
  X(std::vector<std::int64_t>, kernel_spatial, {}) \
  X(std::int64_t, output_batch, 0)                 \
  X(std::int64_t, output_feature, 0)               \
  X(std::vector<std::int64_t>, output_spatial, {})
RL_ATTR_STRUCT(ConvDims, RL_CONV_DIMS_FIELDS)
// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, `#stablehlo.conv<...>` (also `raw`), HLO
// `b01f_01io->b01f`.
Result<ConvDims> conv_dims(const OpView& op);

#define RL_WINDOW_DIM_FIELDS(X)     \
  X(std::int64_t, size, 1)          \
  X(std::int64_t, stride, 1)        \
  X(std::int64_t, pad_low, 0)       \
  X(std::int64_t, pad_high, 0)      \
  X(std::int64_t, base_dilation, 1) \
  X(std::int64_t, window_dilation, 1)
RL_ATTR_STRUCT(WindowDim, RL_WINDOW_DIM_FIELDS)
// The window of a convolution (sizes from the kernel's spatial dims), a reduce_window or a
// select_and_scatter, in either dialect. `rank` is the number of window dimensions expected.
Result<std::vector<WindowDim>> window(const OpView& op, std::size_t rank);

// Integer attribute (feature_group_count = 1 : i64, feature_group_count=2); `fallback` if absent.
std::int64_t int_attr(const OpView& op, std::string_view name, std::int64_t fallback);

// Size of the first replica group: {{0,1,2,3},{4,5,6,7}} → 4, [2,4]<=[8] → 4,
// dense<[[0, 1]]> : tensor<1x2xi64> → 2; 0 when absent, empty or unreadable.
std::int64_t replica_group_size(const OpView& op);

// The known trip count of a while loop from backend_config={"known_trip_count":{"n":"5"}}; -1 if
// none.
std::int64_t known_trip_count(const OpView& op);

// The integers of the JSON array after "key": in a backend_config, written as JSON
// ({"lhs_contracting_dimensions":["1"]}) or as JSON inside an HLO string (\"...\":[\"1\"]).
// found = false when the key or its array is absent.
std::vector<std::int64_t> json_list(std::string_view value, std::string_view key, bool* found);

// A symbol name in an attribute value: "@f" / "%f" / "f" / "\"f\"" → "f".
std::string symbol_name(std::string_view value);
// The names a callee attribute lists: "%f" → {"f"}; HLO's "{%a, %b}" → {"a", "b"}.
std::vector<std::string> symbol_names(std::string_view value);

}  // namespace rl::hlo
