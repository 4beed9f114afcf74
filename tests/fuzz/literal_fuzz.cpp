// libFuzzer target for the literal decoder (hlo/literal.h): arbitrary text as MLIR dense<...>
// and as an HLO literal, for an element type and shape chosen by the first two bytes. Any input
// must give a literal or an error: no crash, no hang, no sanitizer report. A decoded literal must
// also hold what it claims (its byte count, an error offset inside the text), and each of its
// elements must survive format_element → decode with the same bits; a broken invariant traps.
// Built and run by scripts/fuzz (clang-14, -fsanitize=fuzzer,address,undefined).
//
// Input: byte 0 picks the element type (kTypes), byte 1 the shape (kShapes), the rest is text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hlo/literal.h"

namespace {

using rl::hlo::ElementType;

const ElementType kTypes[] = {
    ElementType::Pred,       ElementType::S2,         ElementType::S4,
    ElementType::S8,         ElementType::S16,        ElementType::S32,
    ElementType::S64,        ElementType::U2,         ElementType::U4,
    ElementType::U8,         ElementType::U16,        ElementType::U32,
    ElementType::U64,        ElementType::F16,        ElementType::BF16,
    ElementType::F32,        ElementType::F64,        ElementType::C64,
    ElementType::C128,       ElementType::F8E4M3FN,   ElementType::F8E5M2,
    ElementType::F8E4M3FNUZ, ElementType::F8E5M2FNUZ, ElementType::F8E4M3B11FNUZ,
    ElementType::F8E4M3,     ElementType::F8E3M4,     ElementType::F8E8M0FNU,
    ElementType::F4E2M1FN,   ElementType::F6E2M3FN,   ElementType::F6E3M2FN,
    ElementType::Index,      ElementType::Quant,      ElementType::Invalid,
};

const std::vector<std::int64_t> kShapes[] = {
    {},     {1}, {2},       {4},       {2, 2},    {3, 2},
    {2, 0}, {0}, {1, 1, 1}, {2, 2, 2}, {1 << 20}, {std::int64_t{1} << 40, 1 << 20},
};

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void exercise(bool hlo, std::string_view text, ElementType type,
              const std::vector<std::int64_t>& dims) {
  std::size_t offset = ~std::size_t{0};
  auto r = hlo ? rl::hlo::decode_hlo_literal(text, type, dims, &offset)
               : rl::hlo::decode_dense(text, type, dims, &offset);
  if (!r.ok()) {
    check(offset <= text.size() && !r.error().empty());
    return;
  }
  const rl::hlo::Literal& lit = r.value();
  const std::size_t width = static_cast<std::size_t>(rl::hlo::element_bytes(type));
  const std::int64_t n = lit.elements();
  check(lit.splat ? (n > 1 && lit.bytes.size() == width)
                  : lit.bytes.size() == static_cast<std::size_t>(n) * width);
  // Round trip of up to 64 elements through their text.
  for (std::size_t i = 0; i + width <= lit.bytes.size() && i < 64 * width; i += width) {
    const std::string element = rl::hlo::format_element(type, &lit.bytes[i]);
    auto back = hlo ? rl::hlo::decode_hlo_literal(element, type, {}, nullptr)
                    : rl::hlo::decode_dense("dense<" + element + ">", type, {}, nullptr);
    check(back.ok() && back->bytes.size() == width);
    for (std::size_t k = 0; k < width; ++k) check(back->bytes[k] == lit.bytes[i + k]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const ElementType type = kTypes[data[0] % (sizeof kTypes / sizeof kTypes[0])];
  const std::vector<std::int64_t>& dims = kShapes[data[1] % (sizeof kShapes / sizeof kShapes[0])];
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
  exercise(false, text, type, dims);
  exercise(true, text, type, dims);
  return 0;
}
