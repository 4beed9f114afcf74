// Loops for elementwise kernels: the element type is chosen once per op (dispatch), then a plain
// typed loop runs over the contiguous buffers. Used by ops_elementwise.cpp and ops_math.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "interp/elements.h"
#include "interp/kernel.h"
#include "interp/run.h"

namespace rl::interp {

// y[i] = f(x[i]) with x of element E and y of element R.
template <class E, class R, class F>
void map1(const Tensor& x, Tensor& y, F f) {
  const auto* px = x.as<typename E::Storage>();
  auto* py = y.as<typename R::Storage>();
  const std::int64_t n = y.elements();
  for (std::int64_t i = 0; i < n; ++i) py[i] = R::store(f(E::load(px[i])));
}

// y[i] = f(a[i], b[i]).
template <class E, class R, class F>
void map2(const Tensor& a, const Tensor& b, Tensor& y, F f) {
  const auto* pa = a.as<typename E::Storage>();
  const auto* pb = b.as<typename E::Storage>();
  auto* py = y.as<typename R::Storage>();
  const std::int64_t n = y.elements();
  for (std::int64_t i = 0; i < n; ++i) py[i] = R::store(f(E::load(pa[i]), E::load(pb[i])));
}

// Runs body(Elem<t>{}) for the runtime type t; body returns false for a type it is not defined
// for (a compile-time branch), which becomes an error naming the op and the type.
template <class Body>
bool for_type(const OpCall& c, ElementType t, Body body) {
  bool ok = false;
  dispatch(t, [&](auto e) { ok = body(e); });
  if (!ok && !c.run.failed())
    c.fail(std::string(c.op().name) + " of this element type", "a type the op is defined for",
           std::string(hlo::element_info(t).mlir));
  return ok;
}

}  // namespace rl::interp
