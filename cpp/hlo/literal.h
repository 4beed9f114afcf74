// Constant values as typed buffers: MLIR's `dense<...>` attributes and XLA HLO literals.
//
// Every form real files use is decoded: hex blobs (`dense<"0x0000803F">`, also a one-element
// blob as a splat), nested decimal lists, splats (`dense<1.5>`), booleans, complex `(re, im)`
// pairs, hex bit patterns (`0x7FC0`, `0x7F800000`) for floats, `inf`/`nan` spellings, and
// every element type of the corpus (i1, i8..i64, ui8..ui64, f16, bf16, f32, f64,
// complex<f32>, complex<f64>). HLO literals (`{ {1, 2}, {3, 4} }`, `1.5`, `true`, `-inf`,
// `(1, 2)`) likewise; an elided literal (`{...}`) is refused with a message that says so.
//
// Storage: see element_type.h (little-endian, row-major). Floats written in decimal are
// rounded to the element type once, to nearest even (f16/bf16 through exact binary rounding
// from the decimal's double value); integers must fit the type (i8 -129 is an error, ui8 -1
// too), booleans are 0/1 bytes.
//
// Errors are "WHAT — expected RULE, got VALUE" with `error_offset` set to the byte offset in
// `text` where the problem starts, so the caller can point at LINE:COL. A literal whose count
// of elements does not match its type is an error ("dense literal has 3 elements — expected
// 4 for tensor<2x2xf32>, got 3"), except a single value, which is a splat.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hlo/element_type.h"

namespace rl::hlo {

struct Literal {
  ElementType type = ElementType::Invalid;
  std::vector<std::int64_t> dims;
  // splat = true: `bytes` holds one element that stands for all of them (a splat of a large
  // tensor is not expanded). Otherwise elements(dims) · element_bytes(type) bytes.
  bool splat = false;
  std::vector<std::uint8_t> bytes;

  std::int64_t elements() const;  // product of dims (1 for a scalar)
};

// `text` is the attribute value from "dense<" to its closing ">" inclusive (a trailing
// ": tensor<...>" is allowed and ignored); `type` and `dims` come from the constant's type.
Result<Literal> decode_dense(std::string_view text, ElementType type,
                             const std::vector<std::int64_t>& dims, std::size_t* error_offset);

// `text` is what stands between `constant(` and its closing `)` in HLO text.
Result<Literal> decode_hlo_literal(std::string_view text, ElementType type,
                                   const std::vector<std::int64_t>& dims,
                                   std::size_t* error_offset);

// One element as text: integers in decimal, booleans true/false, floats in the shortest form
// that reads back to the same bits (nan, inf, -inf; -0 kept), complex as (re, im).
std::string format_element(ElementType type, const std::uint8_t* element);

}  // namespace rl::hlo
