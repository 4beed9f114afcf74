// Element types as an enum, shared by the IR, the literal decoder, the lowering and the
// interpreter. Both dialects' spellings map to one value: "i1"/"pred", "i32"/"s32",
// "ui8"/"u8", "complex<f32>"/"c64".
//
// Storage (how a buffer holds one element, little-endian, row-major):
//   pred: one byte, 0 or 1;  sN / uN (N = 8..64): N/8 bytes, two's complement;
//   f16, bf16: their 16 bits;  f32, f64: IEEE binary32/64;  c64/c128: (re, im) of f32/f64;
//   the f8/f6/f4 formats and s4/u4/s2/u2: one byte each (as XLA stores them).
#pragma once

#include <cstdint>
#include <string_view>

namespace rl::hlo {

enum class ElementType : std::uint8_t {
  Invalid = 0,  // not an element type (tuples, tokens, unknown names)
  Pred,
  S2,
  S4,
  S8,
  S16,
  S32,
  S64,
  U2,
  U4,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  C64,
  C128,
  F8E4M3FN,
  F8E5M2,
  F8E4M3FNUZ,
  F8E5M2FNUZ,
  F8E4M3B11FNUZ,
  F8E4M3,
  F8E3M4,
  F8E8M0FNU,
  F4E2M1FN,
  F6E2M3FN,
  F6E3M2FN,
  Index,   // MLIR `index`: 64-bit, sized but never computed with
  Quant,   // !quant.uniform<...>: sized by its storage type, never computed with here
  Count_,  // number of values; keep last
};

enum class ElementKind : std::uint8_t { None, Bool, Signed, Unsigned, Float, Complex };

struct ElementInfo {
  std::string_view mlir;  // "i1", "i32", "ui8", "f32", "complex<f32>", "f8E4M3FN"
  std::string_view hlo;   // "pred", "s32", "u8", "f32", "c64", "f8e4m3fn"
  ElementKind kind;
  int bytes;  // storage bytes of one element (see the file comment)
  int bits;   // value bits: 1 for pred, 4 for s4, 16 for bf16, 64 for c64 (both halves)
};

const ElementInfo& element_info(ElementType t);

// The element type of a name in either dialect; Invalid when the name is none of them.
// "!quant.uniform<i8:f32, ...>" gives Quant; "index" gives Index.
ElementType element_type_from_name(std::string_view name);

inline int element_bytes(ElementType t) { return element_info(t).bytes; }
inline ElementKind element_kind(ElementType t) { return element_info(t).kind; }
inline bool is_float(ElementType t) { return element_kind(t) == ElementKind::Float; }
inline bool is_complex(ElementType t) { return element_kind(t) == ElementKind::Complex; }
inline bool is_integer(ElementType t) {
  return element_kind(t) == ElementKind::Signed || element_kind(t) == ElementKind::Unsigned;
}
// The types the interpreter computes with: pred, s8..s64, u8..u64, f16, bf16, f32, f64, c64, c128.
bool is_computable(ElementType t);
// The component type of a complex type (c64 → f32, c128 → f64); t itself otherwise.
ElementType complex_component(ElementType t);

}  // namespace rl::hlo
