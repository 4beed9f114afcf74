// What the interpreter's dot_general (ops_dot.cpp, built for speed) and the rest of its linear
// algebra (ops_linalg.cpp, built for size in the wasm core) share: the accumulation rule and the
// type check.
#pragma once

#include <cstdint>
#include <string>

#include "interp/elementwise.h"
#include "interp/strided.h"

namespace rl::interp::linalg {

inline std::string type_name(ElementType t) { return std::string(hlo::element_info(t).mlir); }

// Multiply-add in the accumulation type of element E (ops_dot.cpp's file comment: integers wrap,
// f16/bf16 accumulate in f32, i1 is an or of ands).
template <class E>
struct Acc {
  using C = typename E::Compute;
  using T = C;  // halves already compute in float
  static T madd(T acc, C a, C b) {
    if constexpr (is_pred_v<E>)
      return acc || (a && b);
    else if constexpr (is_int_v<E>)
      return wrap_add(acc, wrap_mul(a, b));
    else
      return acc + a * b;
  }
};

inline std::int64_t product(const Dims& d) {
  std::int64_t n = 1;
  for (auto x : d) n *= x;
  return n;
}

// Both operands and the result of one element type: what these kernels compute with.
std::string same_types(const hlo::OpView& op, const hlo::OpAttrs* attrs);

}  // namespace rl::interp::linalg
