#include "hlo/element_type.h"

namespace rl::hlo {

namespace {

using K = ElementKind;

// Indexed by ElementType; the order must follow the enum (checked by the tests).
constexpr ElementInfo kInfo[] = {
    {"", "", K::None, 0, 0},  // Invalid
    {"i1", "pred", K::Bool, 1, 1},
    {"i2", "s2", K::Signed, 1, 2},
    {"i4", "s4", K::Signed, 1, 4},
    {"i8", "s8", K::Signed, 1, 8},
    {"i16", "s16", K::Signed, 2, 16},
    {"i32", "s32", K::Signed, 4, 32},
    {"i64", "s64", K::Signed, 8, 64},
    {"ui2", "u2", K::Unsigned, 1, 2},
    {"ui4", "u4", K::Unsigned, 1, 4},
    {"ui8", "u8", K::Unsigned, 1, 8},
    {"ui16", "u16", K::Unsigned, 2, 16},
    {"ui32", "u32", K::Unsigned, 4, 32},
    {"ui64", "u64", K::Unsigned, 8, 64},
    {"f16", "f16", K::Float, 2, 16},
    {"bf16", "bf16", K::Float, 2, 16},
    {"f32", "f32", K::Float, 4, 32},
    {"f64", "f64", K::Float, 8, 64},
    {"complex<f32>", "c64", K::Complex, 8, 64},
    {"complex<f64>", "c128", K::Complex, 16, 128},
    {"f8E4M3FN", "f8e4m3fn", K::Float, 1, 8},
    {"f8E5M2", "f8e5m2", K::Float, 1, 8},
    {"f8E4M3FNUZ", "f8e4m3fnuz", K::Float, 1, 8},
    {"f8E5M2FNUZ", "f8e5m2fnuz", K::Float, 1, 8},
    {"f8E4M3B11FNUZ", "f8e4m3b11fnuz", K::Float, 1, 8},
    {"f8E4M3", "f8e4m3", K::Float, 1, 8},
    {"f8E3M4", "f8e3m4", K::Float, 1, 8},
    {"f8E8M0FNU", "f8e8m0fnu", K::Float, 1, 8},
    {"f4E2M1FN", "f4e2m1fn", K::Float, 1, 4},
    {"f6E2M3FN", "f6e2m3fn", K::Float, 1, 6},
    {"f6E3M2FN", "f6e3m2fn", K::Float, 1, 6},
    {"index", "index", K::Signed, 8, 64},
    {"!quant", "!quant", K::None, 0, 0},  // bytes come from the storage type (see Type)
};
static_assert(sizeof(kInfo) / sizeof(kInfo[0]) == static_cast<std::size_t>(ElementType::Count_),
              "one ElementInfo per ElementType");

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

const ElementInfo& element_info(ElementType t) {
  const auto i = static_cast<std::size_t>(t);
  return i < static_cast<std::size_t>(ElementType::Count_) ? kInfo[i] : kInfo[0];
}

ElementType element_type_from_name(std::string_view name) {
  if (name.empty()) return ElementType::Invalid;
  if (name.substr(0, 7) == "!quant.") return ElementType::Quant;
  for (std::size_t i = 1; i < static_cast<std::size_t>(ElementType::Quant); ++i) {
    const ElementInfo& e = kInfo[i];
    if (name == e.mlir || name == e.hlo) return static_cast<ElementType>(i);
    // f8 names: MLIR writes f8E4M3FN, HLO f8e4m3fn; accept either case for these.
    if (e.kind == K::Float && e.bytes == 1 && iequals(name, e.mlir))
      return static_cast<ElementType>(i);
  }
  if (name == "si8") return ElementType::S8;
  if (name == "si16") return ElementType::S16;
  if (name == "si32") return ElementType::S32;
  if (name == "si64") return ElementType::S64;
  return ElementType::Invalid;
}

bool is_computable(ElementType t) {
  switch (t) {
    case ElementType::Pred:
    case ElementType::S8:
    case ElementType::S16:
    case ElementType::S32:
    case ElementType::S64:
    case ElementType::U8:
    case ElementType::U16:
    case ElementType::U32:
    case ElementType::U64:
    case ElementType::F16:
    case ElementType::BF16:
    case ElementType::F32:
    case ElementType::F64:
    case ElementType::C64:
    case ElementType::C128:
      return true;
    default:
      return false;
  }
}

ElementType complex_component(ElementType t) {
  if (t == ElementType::C64) return ElementType::F32;
  if (t == ElementType::C128) return ElementType::F64;
  return t;
}

}  // namespace rl::hlo
