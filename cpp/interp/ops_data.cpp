// Data movement, after the StableHLO spec: broadcast_in_dim, broadcast, reshape, transpose,
// slice, dynamic_slice, dynamic_update_slice, pad, concatenate, reverse, iota, gather,
// get_dimension_size, and HLO's copy and bitcast.
//
// These ops move bits and never compute with them, so they are written per element size, not per
// type (strided.h): each is a strided copy of a box, set up once per op. Shapes are checked
// against the attributes before any element moves (the verifier does not check most of these
// ops): a bad attribute is an error at the op, never a read out of bounds.
//
//   reshape, copy             the operand's buffer under new dims: no copy
//   broadcast_in_dim          the same when it only adds dimensions of size 1, in order
//   dynamic_slice, gather     start indices clamped to [0, dim − slice size] (the spec)
//   dynamic_update_slice      start indices clamped to [0, dim − update size]; the operand is
//                             updated in place when this op holds the last reference to it
//   pad                       negative low/high padding crops; interior padding between elements
//   iota                      the index converted to the element type (integers wrap, halves
//                             rounded once, complex: (index, 0), i1: index ≠ 0)
//   unsigned start indices    above the i64 range count as the i64 maximum (then clamped)
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "common/numbers.h"
#include "hlo/attrs.h"
#include "interp/elementwise.h"
#include "interp/strided.h"

namespace rl::interp {

namespace {

using hlo::OpCode;

std::size_t ebytes(ElementType t) { return static_cast<std::size_t>(hlo::element_bytes(t)); }

// Copies a box between two tensors of one element type, from element offsets.
bool copy_between(const OpCall& c, const Box& b, const Tensor& from, std::int64_t from_offset,
                  Tensor& to, std::int64_t to_offset) {
  const std::size_t eb = ebytes(to.type);
  if (!copy_box_bytes(eb, b, from.data() + static_cast<std::size_t>(from_offset) * eb,
                      to.data() + static_cast<std::size_t>(to_offset) * eb))
    return c.fail(std::string(c.op().name) + " of this element size", "1, 2, 4, 8 or 16 bytes",
                  std::to_string(eb));
  return true;
}

// Data movement never converts: the result's element type is the operand's. The verifier's
// (verify.cpp's keeps_element_type and same_element_types, infer.cpp's rules), in both dialects.
#define RL_KEEPS_TYPE(c, x) RL_VERIFIED(c, (c).out_type(0).etype == (x).type)

// Element i of an integer tensor as an i64 (unsigned values past the i64 range saturate).
bool read_index(const OpCall& c, const Tensor& t, std::int64_t i, std::int64_t* out) {
  bool ok = false;
  dispatch(t.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (is_int_v<E>) {
      using S = typename E::Storage;
      const S v = t.as<S>()[i];
      if constexpr (std::is_unsigned<S>::value)
        *out = v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                   ? std::numeric_limits<std::int64_t>::max()
                   : static_cast<std::int64_t>(v);
      else
        *out = static_cast<std::int64_t>(v);
      ok = true;
    }
  });
  if (!ok)
    return c.fail(std::string(c.op().name) + " start index is not an integer", "an integer tensor",
                  std::string(hlo::element_info(t.type).mlir));
  return true;
}

// An integer tensor's elements as i64, in a fresh tensor (one type dispatch for all of them).
bool indices_as_i64(const OpCall& c, const Tensor& t, Tensor* out) {
  if (!c.alloc(ElementType::S64, t.dims, out)) return false;
  std::int64_t* o = out->as<std::int64_t>();
  bool ok = false;
  dispatch(t.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (is_int_v<E>) {
      using S = typename E::Storage;
      const S* p = t.as<S>();
      constexpr auto top = std::numeric_limits<std::int64_t>::max();
      for (std::int64_t i = 0, n = t.elements(); i < n; ++i) {
        if constexpr (std::is_unsigned<S>::value)
          o[i] = p[i] > static_cast<std::uint64_t>(top) ? top : static_cast<std::int64_t>(p[i]);
        else
          o[i] = static_cast<std::int64_t>(p[i]);
      }
      ok = true;
    }
  });
  if (!ok)
    return c.fail(std::string(c.op().name) + " start indices are not integers", "an integer tensor",
                  std::string(hlo::element_info(t.type).mlir));
  return true;
}

// The start indices of dynamic_slice / dynamic_update_slice, from operand `first` on: one scalar
// per dimension (StableHLO, HLO), or one 1-D tensor of them (HLO's older form). Their count and
// shapes are the verifier's (verify.cpp's start_indices); their values are clamped by the caller.
bool start_indices(const OpCall& c, std::size_t first, std::size_t rank, Dims* out) {
  out->assign(rank, 0);
  const std::size_t n = c.num_operands() - first;
  if (n == 1 && rank != 1 && c.in(first).is_tensor() && c.tensor(first).dims.size() == 1 &&
      c.tensor(first).dims[0] == static_cast<std::int64_t>(rank)) {
    for (std::size_t i = 0; i < rank; ++i)
      if (!read_index(c, c.tensor(first), static_cast<std::int64_t>(i), &(*out)[i])) return false;
    return true;
  }
  RL_VERIFIED(c, n == rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const Value& v = c.in(first + i);
    RL_VERIFIED(c, v.is_tensor() && v.tensor.elements() == 1);
    if (!read_index(c, v.tensor, 0, &(*out)[i])) return false;
  }
  return true;
}

std::int64_t clamp_start(std::int64_t start, std::int64_t dim, std::int64_t size) {
  return std::max<std::int64_t>(0, std::min(start, dim - size));
}

// ---- reshape, copy, broadcast -------------------------------------------------------------------

// reshape: the same buffer under the result's dims, whose element type and count are the
// operand's (verify.cpp's reshape rule).
bool reshape(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  RL_KEEPS_TYPE(c, x);
  RL_VERIFIED(c, c.out_type(0).is_static() &&
                     c.out_type(0).elements() == static_cast<double>(x.elements()));
  Tensor y = x;
  y.dims = c.out_type(0).dims;
  c.set(0, std::move(y));
  return true;
}

// Value v's layout, dimensions from minor to major: the written one (hlo::Function::layouts,
// non-default only), else row-major. False, with the error set, for one the interpreter cannot
// order (tiles, memory spaces).
bool layout_of(const OpCall& c, hlo::ValueId v, std::size_t rank, std::vector<int>* out) {
  const std::string_view layout = c.fn().layout(v);
  if (layout.empty()) {
    out->clear();
    for (std::size_t i = rank; i-- > 0;) out->push_back(static_cast<int>(i));
    return true;
  }
  if (!hlo::minor_to_major(layout, rank, out))
    return c.fail(std::string(c.op().name) + " of a layout the interpreter cannot order",
                  "a dimension order such as {0,1} (no tiles or memory space)",
                  "{" + std::string(layout) + "}");
  return true;
}

// HLO bitcast: the operand's bytes, in the order its layout stores them, read back in the order
// the result's layout stores it (XLA's bitcast is free because both orders are one buffer).
// Arrays are held row-major, so: operand → its storage order (a transpose), then storage order →
// the result's dimensions (the inverse transpose); with both layouts row-major, a reshape.
// verify.cpp's bitcast rule keeps the byte size (XLA's, layout-sensitive); XLA also lets a
// bitcast reinterpret the bytes as another element type of that size, which is not run here.
bool bitcast(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const hlo::Type& t = c.out_type(0);
  if (t.etype != x.type)
    return c.fail("bitcast changes the element type", std::string(hlo::element_info(x.type).mlir),
                  t.element);
  // One element type and one byte size: one element count (static: computable_types).
  RL_VERIFIED(c, t.is_static() && t.elements() == static_cast<double>(x.elements()));
  const Dims& od = c.out_type(0).dims;
  std::vector<int> in_order, out_order;
  if (!layout_of(c, c.fn().operands(c.op())[0], x.dims.size(), &in_order) ||
      !layout_of(c, c.fn().results(c.op())[0], od.size(), &out_order))
    return false;
  const auto row_major = [](const std::vector<int>& o) {
    for (std::size_t i = 0; i < o.size(); ++i)
      if (o[i] != static_cast<int>(o.size() - 1 - i)) return false;
    return true;
  };
  if (row_major(in_order) && row_major(out_order)) return reshape(c);  // the buffer, new dims
  // Storage order, major to minor: the operand's dimensions in it, and the result's.
  std::reverse(in_order.begin(), in_order.end());
  std::reverse(out_order.begin(), out_order.end());
  Dims stored_in, stored_out;
  for (int d : in_order) stored_in.push_back(x.dims[static_cast<std::size_t>(d)]);
  for (int d : out_order) stored_out.push_back(od[static_cast<std::size_t>(d)]);
  // One strided copy: result element j (row-major) sits in storage at the offset its
  // coordinates give under the result's order; the operand's element at that storage offset is
  // the one whose coordinates the operand's order gives. The box walks the result's storage
  // order and maps each storage position to both tensors.
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od);
  Dims in_stride(stored_in.size()), out_stride(stored_out.size());
  for (std::size_t k = 0; k < stored_in.size(); ++k)
    in_stride[k] = xs[static_cast<std::size_t>(in_order[k])];
  for (std::size_t k = 0; k < stored_out.size(); ++k)
    out_stride[k] = ys[static_cast<std::size_t>(out_order[k])];
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::size_t eb = ebytes(x.type);
  const std::int64_t n = x.elements();
  // Storage position p → coordinates in each storage order → offsets (odometers, no division).
  std::vector<std::int64_t> ci(stored_in.size(), 0), co(stored_out.size(), 0);
  std::int64_t xo = 0, yo = 0;
  for (std::int64_t p = 0; p < n; ++p) {
    std::memcpy(y.data() + static_cast<std::size_t>(yo) * eb,
                x.data() + static_cast<std::size_t>(xo) * eb, eb);
    for (std::size_t k = ci.size(); k-- > 0;) {
      xo += in_stride[k];
      if (++ci[k] < stored_in[k]) break;
      xo -= in_stride[k] * ci[k];
      ci[k] = 0;
    }
    for (std::size_t k = co.size(); k-- > 0;) {
      yo += out_stride[k];
      if (++co[k] < stored_out[k]) break;
      yo -= out_stride[k] * co[k];
      co[k] = 0;
    }
    if ((p & 0xffff) == 0xffff && !c.keep_going()) return false;
  }
  c.set(0, std::move(y));
  return true;
}

// HLO copy: the value itself (tensors are immutable once made; a layout it changes matters only
// to a later bitcast, which reads the written layouts).
bool copy(const OpCall& c) {
  c.set(0, c.in(0));
  return true;
}

// Operand dimension i becomes result dimension map[i] (broadcast_in_dim); result dimensions no
// operand dimension maps to, and operand dimensions of size 1, repeat.
bool broadcast_to(const OpCall& c, const Dims& map) {
  const Tensor& x = c.tensor(0);
  RL_KEEPS_TYPE(c, x);
  const Dims& od = c.out_type(0).dims;
  // The map is the verifier's (verify.cpp's broadcast_in_dim rule) or broadcast()'s.
  RL_VERIFIED(c, map.size() == x.dims.size());
  bool in_order = true;
  for (std::size_t i = 0; i < map.size(); ++i) {
    RL_VERIFIED(c, map[i] >= 0 && static_cast<std::size_t>(map[i]) < od.size());
    RL_VERIFIED(c, i == 0 || std::find(map.begin(), map.begin() + static_cast<std::ptrdiff_t>(i),
                                       map[i]) == map.begin() + static_cast<std::ptrdiff_t>(i));
    RL_VERIFIED(c, x.dims[i] == 1 || x.dims[i] == od[static_cast<std::size_t>(map[i])]);
    if (i > 0 && map[i] < map[i - 1]) in_order = false;
  }
  std::int64_t out_elements = 1;
  for (auto d : od) out_elements *= d;
  if (in_order && out_elements == x.elements()) {  // only dimensions of size 1 added: a reshape
    Tensor y = x;
    y.dims = od;
    c.set(0, std::move(y));
    return true;
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od);
  Dims src(od.size(), 0);
  for (std::size_t i = 0; i < map.size(); ++i)
    if (x.dims[i] != 1) src[static_cast<std::size_t>(map[i])] = xs[i];
  Box b;
  for (std::size_t j = 0; j < od.size(); ++j) b.add(od[j], src[j], ys[j]);
  if (!copy_between(c, b, x, 0, y, 0)) return false;
  c.set(0, std::move(y));
  return true;
}

bool broadcast_in_dim(const OpCall& c) {
  return broadcast_to(c, c.attrs().get<hlo::DimsAttrs>().dims);
}

// stablehlo.broadcast: the sizes become new major dimensions, the operand's follow.
bool broadcast(const OpCall& c) {
  const Dims& sizes = c.attrs().get<hlo::DimsAttrs>().dims;
  const std::size_t added = sizes.size(), rank = c.tensor(0).dims.size();
  // The result, the sizes then the operand's dimensions, is the verifier's (its broadcast rule).
  RL_VERIFIED(c, c.out_type(0).dims.size() == added + rank);
  for (std::size_t i = 0; i < added; ++i) RL_VERIFIED(c, c.out_type(0).dims[i] == sizes[i]);
  Dims map(rank);
  for (std::size_t i = 0; i < rank; ++i) map[i] = static_cast<std::int64_t>(added + i);
  return broadcast_to(c, map);
}

// ---- transpose, reverse, slice
// ----------------------------------------------------------------------

bool transpose(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  RL_KEEPS_TYPE(c, x);
  const Dims& perm = c.attrs().get<hlo::DimsAttrs>().dims;
  const Dims& od = c.out_type(0).dims;
  // The permutation and the result's shape are the verifier's (verify.cpp's transpose rule).
  RL_VERIFIED(c, perm.size() == x.dims.size() && od.size() == x.dims.size());
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od);
  Box b;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    RL_VERIFIED(c, perm[i] >= 0 && static_cast<std::size_t>(perm[i]) < x.dims.size());
    const auto p = static_cast<std::size_t>(perm[i]);
    RL_VERIFIED(c, od[i] == x.dims[p]);
    b.add(od[i], xs[p], ys[i]);
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (!copy_between(c, b, x, 0, y, 0)) return false;
  c.set(0, std::move(y));
  return true;
}

bool reverse(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  RL_KEEPS_TYPE(c, x);
  const Dims& rev = c.attrs().get<hlo::DimsAttrs>().dims;
  // The dimensions are the verifier's (infer.cpp's reverse rule, complete_rule).
  RL_VERIFIED(c, distinct_dims(rev, x.dims.size()));
  const Dims xs = row_major_strides(x.dims);
  Dims src = xs;
  std::int64_t offset = 0;
  for (auto d : rev) {
    const auto k = static_cast<std::size_t>(d);
    src[k] = -xs[k];
    if (x.dims[k] > 0) offset += (x.dims[k] - 1) * xs[k];
  }
  Box b;
  for (std::size_t i = 0; i < x.dims.size(); ++i) b.add(x.dims[i], src[i], xs[i]);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (!copy_between(c, b, x, offset, y, 0)) return false;
  c.set(0, std::move(y));
  return true;
}

bool slice(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  RL_KEEPS_TYPE(c, x);
  const hlo::SliceAttrs& a = c.attrs().get<hlo::SliceAttrs>();
  const Dims& od = c.out_type(0).dims;
  const std::size_t rank = x.dims.size();
  // The bounds and the result's shape are the verifier's (verify.cpp's slice rule).
  RL_VERIFIED(c, a.starts.size() == rank && a.limits.size() == rank && a.strides.size() == rank &&
                     od.size() == rank);
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od);
  Box b;
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t s = a.starts[i], l = a.limits[i], st = a.strides[i], n = od[i];
    RL_VERIFIED(c, s >= 0 && s <= l && l <= x.dims[i] && st >= 1 && n == (l - s + st - 1) / st);
    offset += s * xs[i];
    b.add(n, xs[i] * st, ys[i]);
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (!copy_between(c, b, x, offset, y, 0)) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- dynamic_slice, dynamic_update_slice
// ------------------------------------------------------------

bool dynamic_slice(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  RL_KEEPS_TYPE(c, x);
  const Dims& sizes = c.attrs().get<hlo::DimsAttrs>().dims;
  const Dims& od = c.out_type(0).dims;
  const std::size_t rank = x.dims.size();
  // The sizes and the result's shape are the verifier's (verify.cpp's dynamic_slice rule).
  RL_VERIFIED(c, sizes.size() == rank && od == sizes);
  Dims starts;
  if (!start_indices(c, 1, rank, &starts)) return false;
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od);
  Box b;
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < rank; ++i) {
    RL_VERIFIED(c, sizes[i] >= 0 && sizes[i] <= x.dims[i]);
    offset += clamp_start(starts[i], x.dims[i], sizes[i]) * xs[i];
    b.add(sizes[i], xs[i], ys[i]);
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (!copy_between(c, b, x, offset, y, 0)) return false;
  c.set(0, std::move(y));
  return true;
}

bool dynamic_update_slice(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& u = c.tensor(1);
  RL_KEEPS_TYPE(c, x);
  const std::size_t rank = x.dims.size();
  // HLO lets floats of two precisions meet (verify.cpp's dynamic_update_slice rule refuses any
  // other pair); the interpreter copies bytes, so one type only.
  RL_VERIFIED(c, one_kind(u.type, x.type));
  if (u.type != x.type)
    return c.fail("dynamic_update_slice update of another element type than the operand",
                  std::string(hlo::element_info(x.type).mlir),
                  std::string(hlo::element_info(u.type).mlir));
  // The update's rank and sizes are the verifier's (verify.cpp's dynamic_update_slice rule).
  RL_VERIFIED(c, u.dims.size() == rank);
  for (std::size_t i = 0; i < rank; ++i) RL_VERIFIED(c, u.dims[i] <= x.dims[i]);
  Dims starts;
  if (!start_indices(c, 2, rank, &starts)) return false;
  const Dims xs = row_major_strides(x.dims), us = row_major_strides(u.dims);
  Box b;
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < rank; ++i) {
    offset += clamp_start(starts[i], x.dims[i], u.dims[i]) * xs[i];
    b.add(u.dims[i], us[i], xs[i]);
  }
  Tensor y;
  if (!c.writable(x, &y)) return false;  // in place when this op holds the last reference
  if (!copy_between(c, b, u, 0, y, offset)) return false;
  c.set(0, std::move(y));
  return true;
}

// ---- pad, concatenate ---------------------------------------------------------------------------

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

bool pad(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& v = c.tensor(1);
  // HLO lets floats of two precisions meet (its result the wider type; verify.cpp's pad rule
  // refuses any other pair); the interpreter fills bytes, so one type only. Checked first: the
  // result's type follows from the two.
  RL_VERIFIED(c, one_kind(v.type, x.type));
  if (v.type != x.type)
    return c.fail("pad value of another element type than the operand",
                  std::string(hlo::element_info(x.type).mlir),
                  std::string(hlo::element_info(v.type).mlir));
  RL_KEEPS_TYPE(c, x);
  const hlo::PadAttrs& a = c.attrs().get<hlo::PadAttrs>();
  const std::size_t rank = x.dims.size();
  const Dims& od = c.out_type(0).dims;
  // The padding and the result's shape are the verifier's (verify.cpp's pad rule, then
  // infer.cpp's, which compares the written result).
  RL_VERIFIED(c, v.elements() == 1 && a.low.size() == rank && a.high.size() == rank &&
                     a.interior.size() == rank && od.size() == rank);
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od);
  Box b;
  std::int64_t from = 0, to = 0;
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t d = x.dims[i], lo = a.low[i], hi = a.high[i], in = a.interior[i];
    const std::int64_t size = od[i];
    RL_VERIFIED(
        c, in >= 0 && size >= 0 && size == lo + hi + d + std::max<std::int64_t>(d - 1, 0) * in);
    // Operand element k lands at lo + k·(in + 1); keep those inside [0, size).
    const std::int64_t step = in + 1;
    const std::int64_t first = std::max<std::int64_t>(0, ceil_div(-lo, step));
    const std::int64_t last = std::min<std::int64_t>(d - 1, floor_div(size - 1 - lo, step));
    const std::int64_t count = std::max<std::int64_t>(0, last - first + 1);
    from += first * xs[i];
    to += (lo + first * step) * ys[i];
    b.add(count, xs[i], ys[i] * step);
  }
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  fill_bytes(ebytes(y.type), y.data(), y.elements(), v.data());
  if (!b.empty() && !copy_between(c, b, x, from, y, to)) return false;
  c.set(0, std::move(y));
  return true;
}

bool concatenate(const OpCall& c) {
  const Dims& od = c.out_type(0).dims;
  const std::int64_t dim = c.attrs().get<hlo::DimensionAttrs>().dimension;
  // The dimension and the shapes are the verifier's (verify.cpp's concatenate rule).
  RL_VERIFIED(c, dim >= 0 && static_cast<std::size_t>(dim) < od.size());
  const auto k = static_cast<std::size_t>(dim);
  std::int64_t total = 0;
  for (std::size_t i = 0; i < c.num_operands(); ++i) {
    const Tensor& x = c.tensor(i);
    // HLO lets floats of two precisions meet (verify.cpp's same_element_types refuses any other
    // pair); the interpreter copies bytes, so one type only.
    RL_VERIFIED(c, one_kind(x.type, c.out_type(0).etype));
    if (x.type != c.out_type(0).etype)
      return c.fail(
          "concatenate operand " + std::to_string(i) + " of another element type than the result",
          c.out_type(0).element, std::string(hlo::element_info(x.type).mlir));
    RL_VERIFIED(c, x.dims.size() == od.size());
    for (std::size_t j = 0; j < od.size(); ++j) RL_VERIFIED(c, j == k || x.dims[j] == od[j]);
    total += x.dims[k];
  }
  RL_VERIFIED(c, total == od[k]);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const Dims ys = row_major_strides(od);
  std::int64_t at = 0;
  for (std::size_t i = 0; i < c.num_operands(); ++i) {
    const Tensor& x = c.tensor(i);
    const Dims xs = row_major_strides(x.dims);
    Box b;
    for (std::size_t j = 0; j < od.size(); ++j) b.add(x.dims[j], xs[j], ys[j]);
    if (!copy_between(c, b, x, 0, y, at * ys[k])) return false;
    at += x.dims[k];
  }
  c.set(0, std::move(y));
  return true;
}

// ---- iota, get_dimension_size
// ---------------------------------------------------------------------

bool iota(const OpCall& c) {
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const Dims& od = y.dims;
  const std::int64_t dim = c.attrs().get<hlo::DimensionAttrs>().dimension;
  RL_VERIFIED(c, dim >= 0 && static_cast<std::size_t>(dim) < od.size());  // verify.cpp's iota rule
  std::int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < od.size(); ++i) {
    if (static_cast<std::int64_t>(i) < dim) outer *= od[i];
    if (static_cast<std::int64_t>(i) > dim) inner *= od[i];
  }
  const std::int64_t n = od[static_cast<std::size_t>(dim)];
  const bool ok = for_type(c, y.type, [&](auto e) {
    using E = decltype(e);
    using S = typename E::Storage;
    S* out = y.as<S>();
    for (std::int64_t j = 0; j < n; ++j) {
      S v{};
      if constexpr (is_pred_v<E>) {
        v = j != 0 ? 1 : 0;
      } else if constexpr (is_int_v<E>) {
        v = static_cast<S>(static_cast<std::make_unsigned_t<S>>(j));  // wraps past the type's range
      } else if constexpr (is_half_v<E>) {
        v = E::type == ElementType::F16 ? f64_to_f16(static_cast<double>(j))
                                        : f64_to_bf16(static_cast<double>(j));
      } else if constexpr (is_complex_v<E>) {
        v = S(static_cast<typename S::value_type>(j), 0);
      } else {
        v = static_cast<S>(j);
      }
      for (std::int64_t o = 0; o < outer; ++o) {
        S* p = out + (o * n + j) * inner;
        std::fill(p, p + inner, v);
      }
    }
    return true;
  });
  if (!ok) return false;
  c.set(0, std::move(y));
  return true;
}

bool get_dimension_size(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const std::int64_t dim = c.attrs().get<hlo::DimensionAttrs>().dimension;
  // The dimension and the s32[] result are the verifier's (infer.cpp's rule, complete_rule).
  RL_VERIFIED(c, dim >= 0 && static_cast<std::size_t>(dim) < x.dims.size());
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  RL_VERIFIED(c, y.type == ElementType::S32 && y.elements() == 1);
  *y.as<std::int32_t>() = static_cast<std::int32_t>(x.dims[static_cast<std::size_t>(dim)]);
  c.set(0, std::move(y));
  return true;
}

// ---- gather
// -----------------------------------------------------------------------------------------

// gather (and dynamic_gather, whose slice sizes are an operand). For every batch position of the
// result (its dimensions that are not offset_dims), the start of a slice of the operand is read
// from start_indices (start_index_map places it, clamped so the slice fits; operand_batching_dims
// take the batch position itself), and the slice is one strided copy into the result's offset
// dimensions (the operand's dimensions that are neither collapsed nor batching, in order).
// The dimension numbers, the slice sizes' count and (gather's) values, and the result's shape are
// verify.cpp's gather rule, in both dialects: the kernel trusts them. dynamic_gather's slice sizes
// are values, checked here; so is a collapsed or batching slice of size 0 (valid: not run here).
bool gather(const OpCall& c) {
  const Tensor& x = c.tensor(0);
  const Tensor& idx = c.tensor(1);
  RL_VERIFIED(c, c.out_type(0).etype == x.type);
  const hlo::GatherDims& g = c.attrs().get<hlo::GatherDims>();
  const Dims& od = c.out_type(0).dims;
  const std::size_t xr = x.dims.size(), ir = idx.dims.size(), yr = od.size();
  const bool dynamic = c.op().code == OpCode::DynamicGather;
  Dims slice = g.slice_sizes;
  if (dynamic) {
    const Tensor& s = c.tensor(2);
    slice.assign(static_cast<std::size_t>(s.elements()), 0);
    for (std::int64_t i = 0; i < s.elements(); ++i)
      if (!read_index(c, s, i, &slice[static_cast<std::size_t>(i)])) return false;
  }
  const std::int64_t ivd = g.index_vector_dim;
  RL_VERIFIED(c, ivd >= 0 && static_cast<std::size_t>(ivd) <= ir && slice.size() == xr);
  const bool has_vector = static_cast<std::size_t>(ivd) < ir;
  const std::int64_t vector_len = has_vector ? idx.dims[static_cast<std::size_t>(ivd)] : 1;
  RL_VERIFIED(c, distinct_dims(g.offset_dims, yr) && distinct_dims(g.collapsed_slice_dims, xr) &&
                     distinct_dims(g.operand_batching_dims, xr) &&
                     distinct_dims(g.start_index_map, xr) &&
                     distinct_dims(g.start_indices_batching_dims, ir));
  RL_VERIFIED(c, std::is_sorted(g.offset_dims.begin(), g.offset_dims.end()) &&
                     static_cast<std::int64_t>(g.start_index_map.size()) == vector_len &&
                     g.operand_batching_dims.size() == g.start_indices_batching_dims.size());
  std::vector<int> role(xr, 0);  // 0 offset, 1 collapsed, 2 batching
  for (auto d : g.collapsed_slice_dims) role[static_cast<std::size_t>(d)] = 1;
  for (auto d : g.operand_batching_dims) {
    RL_VERIFIED(c, role[static_cast<std::size_t>(d)] == 0);
    role[static_cast<std::size_t>(d)] = 2;
  }
  for (auto d : g.start_index_map) RL_VERIFIED(c, role[static_cast<std::size_t>(d)] != 2);
  for (std::size_t d = 0; d < xr; ++d) {
    if (dynamic && (slice[d] < 0 || slice[d] > x.dims[d]))
      return c.fail("dynamic_gather slice size out of range in dimension " + std::to_string(d),
                    "0.." + std::to_string(x.dims[d]), std::to_string(slice[d]));
    RL_VERIFIED(
        c, dynamic || (slice[d] >= 0 && slice[d] <= x.dims[d] && (role[d] == 0 || slice[d] <= 1)));
    if (role[d] != 0 && slice[d] != 1)
      return c.fail(std::string(c.op().name) + " collapsed or batching dimension " +
                        std::to_string(d) + " has a slice size other than 1",
                    "1 (a slice of size 0 there is not run)", std::to_string(slice[d]));
  }
  for (auto d : g.start_indices_batching_dims) RL_VERIFIED(c, d != ivd);
  for (std::size_t i = 0; i < g.operand_batching_dims.size(); ++i)
    RL_VERIFIED(c, x.dims[static_cast<std::size_t>(g.operand_batching_dims[i])] ==
                       idx.dims[static_cast<std::size_t>(g.start_indices_batching_dims[i])]);
  // The result's shape: batch dimensions (start_indices' without index_vector_dim) and offsets.
  Dims offset_operand;  // operand dims that become offset dims, in order
  for (std::size_t d = 0; d < xr; ++d)
    if (role[d] == 0) offset_operand.push_back(static_cast<std::int64_t>(d));
  Dims batch_result,
      batch_index_dim;  // result dims of the batch, and the start_indices dim each reads
  {
    std::vector<bool> is_offset(yr, false);
    for (auto d : g.offset_dims) is_offset[static_cast<std::size_t>(d)] = true;
    for (std::size_t d = 0; d < yr; ++d)
      if (!is_offset[d]) batch_result.push_back(static_cast<std::int64_t>(d));
    for (std::size_t d = 0; d < ir; ++d)
      if (static_cast<std::int64_t>(d) != ivd)
        batch_index_dim.push_back(static_cast<std::int64_t>(d));
  }
  // The result's rank and batch dimensions are the verifier's (verify.cpp's gather rule, in both
  // forms); its offset sizes too, but for dynamic_gather, whose slice sizes are values.
  RL_VERIFIED(c, offset_operand.size() == g.offset_dims.size() &&
                     batch_result.size() == batch_index_dim.size());
  for (std::size_t k = 0; k < batch_result.size(); ++k)
    RL_VERIFIED(c, od[static_cast<std::size_t>(batch_result[k])] ==
                       idx.dims[static_cast<std::size_t>(batch_index_dim[k])]);
  bool shape_ok = true;
  for (std::size_t k = 0; shape_ok && k < offset_operand.size(); ++k)
    shape_ok = od[static_cast<std::size_t>(g.offset_dims[k])] ==
               slice[static_cast<std::size_t>(offset_operand[k])];
  RL_VERIFIED(c, shape_ok || dynamic);
  if (!shape_ok)  // dynamic_gather's slice sizes, values, against its written result
    return c.fail("dynamic_gather result shape is wrong",
                  "batch dimensions of start_indices and the offset slice sizes", list_text(od));

  Tensor y;
  if (!c.alloc(0, &y)) return false;
  if (y.elements() == 0) {
    c.set(0, std::move(y));
    return true;
  }
  const Dims xs = row_major_strides(x.dims), ys = row_major_strides(od),
             is = row_major_strides(idx.dims);
  Box slice_box;
  for (std::size_t k = 0; k < offset_operand.size(); ++k)
    slice_box.add(slice[static_cast<std::size_t>(offset_operand[k])],
                  xs[static_cast<std::size_t>(offset_operand[k])],
                  ys[static_cast<std::size_t>(g.offset_dims[k])]);
  slice_box.simplify();
  // For each batching pair: the position in the batch list of its start_indices dimension.
  std::vector<std::size_t> batching_pos;
  for (auto d : g.start_indices_batching_dims)
    batching_pos.push_back(static_cast<std::size_t>(
        std::find(batch_index_dim.begin(), batch_index_dim.end(), d) - batch_index_dim.begin()));
  const std::int64_t vstep = has_vector ? is[static_cast<std::size_t>(ivd)] : 0;
  const std::size_t nb = batch_result.size();
  std::int64_t batches = 1;
  for (std::size_t k = 0; k < nb; ++k) batches *= od[static_cast<std::size_t>(batch_result[k])];
  Dims pos(nb, 0);
  Tensor starts;
  if (!indices_as_i64(c, idx, &starts)) return false;
  const std::int64_t* sp = starts.as<std::int64_t>();
  const std::size_t eb = ebytes(x.type);
  const bool ok = by_size(eb, [&](auto tag) {
    using T = decltype(tag);
    const T* src = x.as<T>();
    T* dst = y.as<T>();
    for (std::int64_t n = 0; n < batches; ++n) {
      std::int64_t at_index = 0, at_result = 0;
      for (std::size_t k = 0; k < nb; ++k) {
        at_index += pos[k] * is[static_cast<std::size_t>(batch_index_dim[k])];
        at_result += pos[k] * ys[static_cast<std::size_t>(batch_result[k])];
      }
      std::int64_t at_operand = 0;
      for (std::size_t j = 0; j < g.start_index_map.size(); ++j) {
        const auto d = static_cast<std::size_t>(g.start_index_map[j]);
        const std::int64_t s = sp[at_index + static_cast<std::int64_t>(j) * vstep];
        at_operand += clamp_start(s, x.dims[d], slice[d]) * xs[d];
      }
      for (std::size_t i = 0; i < batching_pos.size(); ++i)
        at_operand +=
            pos[batching_pos[i]] * xs[static_cast<std::size_t>(g.operand_batching_dims[i])];
      copy_simplified(slice_box, src + at_operand, dst + at_result);
      for (std::size_t k = nb; k-- > 0;) {
        if (++pos[k] < od[static_cast<std::size_t>(batch_result[k])]) break;
        pos[k] = 0;
      }
      if ((n & 1023) == 1023 && !c.keep_going()) return;
    }
  });
  if (!ok)
    return c.fail("gather of this element size", "1, 2, 4, 8 or 16 bytes", std::to_string(eb));
  if (c.run.failed()) return false;
  c.set(0, std::move(y));
  return true;
}

}  // namespace

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(BroadcastInDim, broadcast_in_dim)
RL_KERNEL(Broadcast, broadcast)
RL_KERNEL(Reshape, reshape)
RL_KERNEL(Copy, copy)
RL_KERNEL(Bitcast, bitcast)
RL_KERNEL(Transpose, transpose)
RL_KERNEL(Reverse, reverse)
RL_KERNEL(Slice, slice)
RL_KERNEL(DynamicSlice, dynamic_slice)
RL_KERNEL(DynamicUpdateSlice, dynamic_update_slice)
RL_KERNEL(Pad, pad)
RL_KERNEL(Concatenate, concatenate)
RL_KERNEL(Iota, iota)
RL_KERNEL(GetDimensionSize, get_dimension_size)
RL_KERNEL(Gather, gather)
RL_KERNEL(DynamicGather, gather)

}  // namespace rl::interp
