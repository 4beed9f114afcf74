// Strided copies of boxes of elements: the one loop behind the data-movement ops (transpose,
// slice, reverse, broadcast, pad, concatenate, gather, dynamic slices) and dot_general's packing.
//
// A box has a size per dimension and, per dimension, the step in elements between neighbours in
// the source and in the destination. A step of 0 in the source repeats an element (broadcast), a
// negative one walks backwards (reverse). Before copying, dimensions of size 1 are dropped and
// neighbours that step like one dimension are merged, so a slice of whole rows is a few memcpy
// calls and a broadcast of a row a few fills. The innermost dimension runs as a plain loop (or
// memcpy / fill); the outer ones advance as an odometer of pointer increments, never an index
// vector per element. When the two innermost dimensions are swapped between source and
// destination (a transpose), they are copied in square tiles so both sides stay in cache.
//
// Data movement never computes with elements: kernels pick a storage type by element size
// (by_size), so i32, ui32 and f32 share one instantiation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace rl::interp {

using Dims = std::vector<std::int64_t>;

// The row-major strides (in elements) of a shape.
inline Dims row_major_strides(const Dims& dims) {
  Dims s(dims.size());
  std::int64_t step = 1;
  for (std::size_t i = dims.size(); i-- > 0;) {
    s[i] = step;
    step *= dims[i];
  }
  return s;
}

struct Box {
  Dims dims, src, dst;  // size, source step, destination step per dimension (outermost first)

  void add(std::int64_t size, std::int64_t src_step, std::int64_t dst_step) {
    dims.push_back(size);
    src.push_back(src_step);
    dst.push_back(dst_step);
  }
  bool empty() const {
    for (auto d : dims)
      if (d == 0) return true;
    return false;
  }
  // Drops dimensions of size 1 and merges an outer dimension into the next inner one when the
  // outer steps by exactly the inner's extent on both sides.
  void simplify() {
    Box out;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == 1) continue;
      if (!out.dims.empty()) {
        const std::size_t k = out.dims.size() - 1;
        if (out.src[k] == src[i] * dims[i] && out.dst[k] == dst[i] * dims[i]) {
          out.dims[k] *= dims[i];
          out.src[k] = src[i];
          out.dst[k] = dst[i];
          continue;
        }
      }
      out.add(dims[i], src[i], dst[i]);
    }
    *this = std::move(out);
  }
};

// One storage type per element size: the types data movement instantiates.
struct Bytes16 {
  std::uint64_t lo, hi;
};

template <class F>
bool by_size(std::size_t bytes, F&& f) {
  switch (bytes) {
    case 1:
      f(std::uint8_t{});
      return true;
    case 2:
      f(std::uint16_t{});
      return true;
    case 4:
      f(std::uint32_t{});
      return true;
    case 8:
      f(std::uint64_t{});
      return true;
    case 16:
      f(Bytes16{});
      return true;
    default:
      return false;
  }
}

namespace detail {

// Calls row(src, dst) for every index of the first `outer` dimensions of a simplified box.
template <class T, class Row>
void for_each_outer(const Box& b, std::size_t outer, const T* src, T* dst, Row row) {
  std::int64_t count = 1;
  for (std::size_t k = 0; k < outer; ++k) count *= b.dims[k];
  std::int64_t small[16];
  std::vector<std::int64_t> big;
  std::int64_t* idx = small;
  if (outer > 16) {
    big.assign(outer, 0);
    idx = big.data();
  } else {
    std::fill(small, small + 16, 0);
  }
  for (std::int64_t o = 0; o < count; ++o) {
    row(src, dst);
    for (std::size_t k = outer; k-- > 0;) {
      if (++idx[k] < b.dims[k]) {
        src += b.src[k];
        dst += b.dst[k];
        break;
      }
      idx[k] = 0;
      src -= b.src[k] * (b.dims[k] - 1);
      dst -= b.dst[k] * (b.dims[k] - 1);
    }
  }
}

}  // namespace detail

// Copies a box that simplify() has already run on (callers that copy the same box many times,
// like gather, simplify once).
template <class T>
void copy_simplified(const Box& b, const T* src, T* dst) {
  const std::size_t r = b.dims.size();
  if (r == 0) {
    *dst = *src;
    return;
  }
  const std::int64_t n = b.dims[r - 1], ss = b.src[r - 1], ds = b.dst[r - 1];
  if (r >= 2 && ds == 1 && ss != 1 && b.src[r - 2] == 1 && n >= 8 && b.dims[r - 2] >= 8) {
    // A transpose of the two innermost dimensions: square tiles.
    constexpr std::int64_t kTile = 32;
    const std::int64_t rows = b.dims[r - 2], drow = b.dst[r - 2];
    detail::for_each_outer(b, r - 2, src, dst, [&](const T* s, T* d) {
      for (std::int64_t i0 = 0; i0 < rows; i0 += kTile) {
        const std::int64_t i1 = std::min(rows, i0 + kTile);
        for (std::int64_t j0 = 0; j0 < n; j0 += kTile) {
          const std::int64_t j1 = std::min(n, j0 + kTile);
          for (std::int64_t i = i0; i < i1; ++i) {
            const T* sp = s + i;
            T* dp = d + i * drow;
            for (std::int64_t j = j0; j < j1; ++j) dp[j] = sp[j * ss];
          }
        }
      }
    });
    return;
  }
  detail::for_each_outer(b, r - 1, src, dst, [&](const T* s, T* d) {
    if (ss == 1 && ds == 1) {
      std::memcpy(d, s, static_cast<std::size_t>(n) * sizeof(T));
    } else if (ss == 0 && ds == 1) {
      std::fill(d, d + n, *s);
    } else {
      for (std::int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss];
    }
  });
}

// Copies the box from `src` to `dst` (both point at the box's first element).
template <class T>
void copy_box(Box b, const T* src, T* dst) {
  if (b.empty()) return;
  b.simplify();
  copy_simplified(b, src, dst);
}

// The same by element size in bytes; false for a size no element type has.
inline bool copy_box_bytes(std::size_t element_bytes, const Box& b, const void* src, void* dst) {
  return by_size(element_bytes, [&](auto tag) {
    using T = decltype(tag);
    copy_box(b, static_cast<const T*>(src), static_cast<T*>(dst));
  });
}

// Fills `count` elements of `element_bytes` each with the element at `value`.
inline bool fill_bytes(std::size_t element_bytes, void* dst, std::int64_t count,
                       const void* value) {
  return by_size(element_bytes, [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, value, sizeof v);
    std::fill(static_cast<T*>(dst), static_cast<T*>(dst) + count, v);
  });
}

}  // namespace rl::interp
