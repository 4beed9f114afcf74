// The fused loop's evaluator (fused.h, run_loop): the planner (fused.cpp) is built for size; this
// file is built -O3 with the SIMD loops (CMakeLists.txt, RL_SPEED_SOURCES), so the per-block
// loops below are vectorized (wasm SIMD, f32x4/i32x4) and not left scalar by -Oz.
//
// A block of kFusedBlock elements at a time: each node is applied to the whole block (its lanes
// in a scratch buffer that stays in L1, 2 KiB a node), splats and one-element parameters are
// filled once, parameters of the loop's size are read in place, the root's node writes straight
// into the output. The bits are those of the ops alone: the same f32 functions (simd_loops.h,
// kernels' best_math), halves rounded after each op as Elem<F16/BF16>::store rounds, and
// convert's and iota's rules (ops_elementwise.cpp, ops_data.cpp) written the same way.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/float16.h"
#include "interp/fused.h"
#include "interp/run.h"
#include "interp/simd_loops.h"
#include "kernels/kernels.h"

namespace rl::interp {

namespace {

using hlo::ElementType;
using hlo::OpCode;
using Kind = LoopNode::Kind;

float half_lane(ElementType t, std::uint16_t h) {
  return t == ElementType::F16 ? f16_to_f32(h) : bf16_to_f32(h);
}
// A value rounded once to the half type t, as convert rounds (from the exact double), as a lane.
float to_half_lane(ElementType t, double d) {
  return half_lane(t, t == ElementType::F16 ? f64_to_f16(d) : f64_to_bf16(d));
}

// Each lane rounded to the half type t (an f32 result of an op on halves, as Elem::store rounds).
void round_half(ElementType t, std::size_t m, float* y) {
  if (t == ElementType::F16)
    for (std::size_t i = 0; i < m; ++i) y[i] = f16_to_f32(f32_to_f16(y[i]));
  else
    for (std::size_t i = 0; i < m; ++i) y[i] = bf16_to_f32(f32_to_bf16(y[i]));
}

std::int32_t wrap(std::uint32_t u) { return static_cast<std::int32_t>(u); }

// s32 and u32 (u: max, min and shifts unsigned), by ops_elementwise.cpp's binary_value: + − ×
// wrap; a shift by ≥ 32 (an amount read unsigned) gives 0, or the sign for an arithmetic right
// shift.
void int_binary(OpCode op, bool u, std::size_t m, const std::int32_t* a, const std::int32_t* b,
                std::int32_t* y) {
  const auto* ua = reinterpret_cast<const std::uint32_t*>(a);
  const auto* ub = reinterpret_cast<const std::uint32_t*>(b);
  auto* uy = reinterpret_cast<std::uint32_t*>(y);
  if (u && op == OpCode::Maximum) {
    for (std::size_t i = 0; i < m; ++i) uy[i] = ua[i] > ub[i] ? ua[i] : ub[i];
    return;
  }
  if (u && op == OpCode::Minimum) {
    for (std::size_t i = 0; i < m; ++i) uy[i] = ua[i] < ub[i] ? ua[i] : ub[i];
    return;
  }
  switch (op) {
    case OpCode::ShiftLeft:
      for (std::size_t i = 0; i < m; ++i) uy[i] = ub[i] >= 32 ? 0u : ua[i] << ub[i];
      break;
    case OpCode::ShiftRightLogical:
      for (std::size_t i = 0; i < m; ++i) uy[i] = ub[i] >= 32 ? 0u : ua[i] >> ub[i];
      break;
    case OpCode::ShiftRightArithmetic:
      for (std::size_t i = 0; i < m; ++i)
        y[i] = ub[i] >= 32 ? (a[i] < 0 ? -1 : 0) : static_cast<std::int32_t>(a[i] >> ub[i]);
      break;
    case OpCode::Add:
      for (std::size_t i = 0; i < m; ++i)
        y[i] = wrap(static_cast<std::uint32_t>(a[i]) + static_cast<std::uint32_t>(b[i]));
      break;
    case OpCode::Subtract:
      for (std::size_t i = 0; i < m; ++i)
        y[i] = wrap(static_cast<std::uint32_t>(a[i]) - static_cast<std::uint32_t>(b[i]));
      break;
    case OpCode::Multiply:
      for (std::size_t i = 0; i < m; ++i)
        y[i] = wrap(static_cast<std::uint32_t>(a[i]) * static_cast<std::uint32_t>(b[i]));
      break;
    case OpCode::Maximum:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] > b[i] ? a[i] : b[i];
      break;
    case OpCode::Minimum:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] < b[i] ? a[i] : b[i];
      break;
    case OpCode::And:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] & b[i];
      break;
    case OpCode::Or:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] | b[i];
      break;
    case OpCode::Xor:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] ^ b[i];
      break;
    default:
      break;  // the planner admits only the ops above
  }
}

template <class T>
void compare(hlo::Comparison d, std::size_t m, const T* a, const T* b, std::uint8_t* y) {
  switch (d) {
    case hlo::Comparison::EQ:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] == b[i];
      break;
    case hlo::Comparison::NE:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] != b[i];
      break;
    case hlo::Comparison::LT:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] < b[i];
      break;
    case hlo::Comparison::LE:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] <= b[i];
      break;
    case hlo::Comparison::GT:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] > b[i];
      break;
    case hlo::Comparison::GE:
      for (std::size_t i = 0; i < m; ++i) y[i] = a[i] >= b[i];
      break;
  }
}

// convert(x) for lanes of `from` into lanes of `to`, by ops_elementwise.cpp's convert_value:
// float → integer truncated toward zero, saturated, NaN → 0; → pred: x ≠ 0; → a half: rounded
// once from the exact double.
void convert(ElementType from, ElementType to, std::size_t m, const std::uint8_t* x,
             std::uint8_t* y) {
  const bool ffrom =
      from == ElementType::F32 || from == ElementType::F16 || from == ElementType::BF16;
  const bool half_to = to == ElementType::F16 || to == ElementType::BF16;
  const bool ufrom = from == ElementType::U32;
  const auto* xf = reinterpret_cast<const float*>(x);
  const auto* xi = reinterpret_cast<const std::int32_t*>(x);
  const auto* xu = reinterpret_cast<const std::uint32_t*>(x);
  auto* yf = reinterpret_cast<float*>(y);
  auto* yi = reinterpret_cast<std::int32_t*>(y);
  auto* yu = reinterpret_cast<std::uint32_t*>(y);
  // An integer lane as the exact double it holds.
  auto as_double = [&](std::size_t i) {
    return ufrom ? static_cast<double>(xu[i]) : static_cast<double>(xi[i]);
  };
  if (to == ElementType::Pred) {
    if (from == ElementType::Pred)
      for (std::size_t i = 0; i < m; ++i) y[i] = x[i] != 0;
    else if (ffrom)
      for (std::size_t i = 0; i < m; ++i) y[i] = xf[i] != 0.0f;
    else
      for (std::size_t i = 0; i < m; ++i) y[i] = xi[i] != 0;
  } else if (to == ElementType::S32 || to == ElementType::U32) {
    if (from == ElementType::Pred) {
      for (std::size_t i = 0; i < m; ++i) yu[i] = x[i] != 0;
    } else if (ffrom) {
      const double lo = to == ElementType::S32 ? -2147483648.0 : 0.0,
                   hi = to == ElementType::S32 ? 2147483647.0 : 4294967295.0;
      for (std::size_t i = 0; i < m; ++i) {
        const float v = xf[i];
        if (std::isnan(v)) {
          yu[i] = 0;
          continue;
        }
        const double d = std::trunc(static_cast<double>(v));
        const double c = d <= lo ? lo : d >= hi ? hi : d;
        if (to == ElementType::S32)
          yi[i] = static_cast<std::int32_t>(c);
        else
          yu[i] = static_cast<std::uint32_t>(c);
      }
    } else {
      std::memcpy(yu, xu, m * 4);  // s32 ↔ u32: modulo 2^32, the same bits
    }
  } else if (half_to) {
    if (from == ElementType::Pred)
      for (std::size_t i = 0; i < m; ++i) yf[i] = to_half_lane(to, x[i] ? 1.0 : 0.0);
    else if (ffrom)
      for (std::size_t i = 0; i < m; ++i) yf[i] = to_half_lane(to, static_cast<double>(xf[i]));
    else
      for (std::size_t i = 0; i < m; ++i) yf[i] = to_half_lane(to, as_double(i));
  } else {  // f32
    if (from == ElementType::Pred)
      for (std::size_t i = 0; i < m; ++i) yf[i] = x[i] ? 1.0f : 0.0f;
    else if (ffrom)
      std::memcpy(yf, xf, m * 4);  // f16, bf16 → f32: exact
    else if (ufrom)
      for (std::size_t i = 0; i < m; ++i) yf[i] = static_cast<float>(xu[i]);
    else
      for (std::size_t i = 0; i < m; ++i) yf[i] = static_cast<float>(xi[i]);
  }
}

// The lane of iota's index j in type t (ops_data.cpp: integers wrap, halves rounded once, i1: j ≠
// 0).
void iota_lane(ElementType t, std::int64_t j, std::uint8_t* dst) {
  if (t == ElementType::Pred) {
    *dst = j != 0;
  } else if (t == ElementType::S32 || t == ElementType::U32) {
    const std::uint32_t v = static_cast<std::uint32_t>(j);
    std::memcpy(dst, &v, 4);
  } else {
    const float v =
        t == ElementType::F32 ? static_cast<float>(j) : to_half_lane(t, static_cast<double>(j));
    std::memcpy(dst, &v, 4);
  }
}

// Storage elements of type t (contiguous) as lanes.
void load_lanes(ElementType t, const std::uint8_t* src, std::size_t m, std::uint8_t* dst) {
  if (t == ElementType::F16 || t == ElementType::BF16) {
    const auto* s = reinterpret_cast<const std::uint16_t*>(src);
    auto* d = reinterpret_cast<float*>(dst);
    if (t == ElementType::F16)
      for (std::size_t i = 0; i < m; ++i) d[i] = f16_to_f32(s[i]);
    else
      for (std::size_t i = 0; i < m; ++i) d[i] = bf16_to_f32(s[i]);
  } else {
    std::memcpy(dst, src, m * (t == ElementType::Pred ? 1 : 4));
  }
}

// One element of storage type t at src as a lane at dst.
inline void load_lane(ElementType t, std::size_t eb, const std::uint8_t* src, std::uint8_t* dst) {
  if (eb == 2) {
    std::uint16_t h;
    std::memcpy(&h, src, 2);
    const float f = half_lane(t, h);
    std::memcpy(dst, &f, 4);
  } else {
    std::memcpy(dst, src, eb);
  }
}

}  // namespace

bool run_loop(Run& run, const FusionPlan& plan, std::vector<Value>& frame, std::uint8_t* out,
              std::int64_t n, std::int64_t begin, std::int64_t end) {
  const hlo::Op& op = *plan.block->instrs[plan.loop_root].op;
  const std::size_t count = plan.nodes.size();
  // Blocks of kFusedBlock elements; a smaller tensor in one block of its size (no scratch to clear
  // beyond it: a fusion inside a loop body runs many times on few elements).
  const std::int64_t block =
      std::max<std::int64_t>(1, std::min<std::int64_t>(kFusedBlock, end - begin));
  // Scratch lanes and pointers on the stack when they are few (a fusion in a loop body, run once
  // per iteration on a few elements, then allocates nothing), else on the heap.
  constexpr std::size_t kStackLanes = 256, kStackNodes = 32;
  const std::size_t lanes = count * static_cast<std::size_t>(block);
  alignas(16) std::uint32_t stack_lanes[kStackLanes];
  const std::uint8_t* stack_ptrs[2 * kStackNodes];
  std::vector<std::uint32_t> heap_lanes;
  std::vector<const std::uint8_t*> heap_ptrs;
  std::uint32_t* scratch = stack_lanes;
  const std::uint8_t** base = stack_ptrs;
  if (lanes > kStackLanes) {
    heap_lanes.assign(lanes, 0);
    scratch = heap_lanes.data();
  } else {
    std::fill(stack_lanes, stack_lanes + lanes, 0u);
  }
  if (count > kStackNodes) {
    heap_ptrs.assign(2 * count, nullptr);
    base = heap_ptrs.data();
  } else {
    std::fill(stack_ptrs, stack_ptrs + 2 * count, nullptr);
  }
  const std::uint8_t** p = base + count;  // each node's lanes in the block being computed
  auto buf = [&](std::size_t k) {
    return reinterpret_cast<std::uint8_t*>(scratch + k * static_cast<std::size_t>(block));
  };
  // Parameters found in the frame; splats filled once.
  for (std::size_t k = 0; k < count; ++k) {
    const LoopNode& nd = plan.nodes[k];
    const std::size_t lb = nd.lane_bytes();
    if (nd.kind == Kind::Splat) {
      for (std::int64_t i = 0; i < block; ++i)
        std::memcpy(buf(k) + static_cast<std::size_t>(i) * lb, &nd.bits, lb);
      continue;
    }
    if (nd.kind != Kind::Param && nd.kind != Kind::ParamSplat && nd.kind != Kind::ParamGather)
      continue;
    const Value& v = frame[nd.value];
    const std::int64_t want = nd.kind == Kind::Param        ? n
                              : nd.kind == Kind::ParamSplat ? 1
                                                            : nd.source_elements;
    if (!v.is_tensor() || v.tensor.elements() != want || v.tensor.type != nd.type)
      return run.fail_at(
          *plan.block->instrs[nd.instr].op, "a fusion's parameter is not the value its plan reads",
          std::to_string(want) + " " + std::string(hlo::element_info(nd.type).mlir) + " elements",
          "another value");
    base[k] = v.tensor.data();
    if (nd.kind == Kind::ParamSplat) {
      std::uint8_t lane[4];
      load_lanes(nd.type, base[k], 1, lane);
      for (std::int64_t i = 0; i < block; ++i)
        std::memcpy(buf(k) + static_cast<std::size_t>(i) * lb, lane, lb);
    }
  }
  const LoopNode& root = plan.nodes.back();
  const std::size_t root_bytes = static_cast<std::size_t>(hlo::element_bytes(root.type));
  std::vector<std::int64_t> index;
  for (std::int64_t i0 = begin; i0 < end; i0 += block) {
    if (!run.keep_going(op)) return false;
    const std::int64_t m = std::min(block, end - i0);
    const auto mm = static_cast<std::size_t>(m);
    for (std::size_t k = 0; k < count; ++k) {
      const LoopNode& nd = plan.nodes[k];
      const std::size_t lb = nd.lane_bytes();
      // The root writes its lanes straight into the output (a half's lanes are stored below).
      const bool last = k + 1 == count && !nd.half();
      std::uint8_t* dst = last ? out + static_cast<std::size_t>(i0 - begin) * lb : buf(k);
      const std::uint8_t* ra = nd.a >= 0 ? p[static_cast<std::size_t>(nd.a)] : nullptr;
      const std::uint8_t* rb = nd.b >= 0 ? p[static_cast<std::size_t>(nd.b)] : nullptr;
      const auto* pa = reinterpret_cast<const float*>(ra);
      const auto* pb = reinterpret_cast<const float*>(rb);
      const auto* ia = reinterpret_cast<const std::int32_t*>(ra);
      const auto* ib = reinterpret_cast<const std::int32_t*>(rb);
      p[k] = dst;
      switch (nd.kind) {
        case Kind::Param:
          if (nd.half())
            load_lanes(nd.type, base[k] + static_cast<std::size_t>(i0) * 2, mm, dst);
          else
            p[k] = base[k] + static_cast<std::size_t>(i0) * lb;
          break;
        case Kind::ParamSplat:
        case Kind::Splat:
          p[k] = buf(k);
          break;
        case Kind::Pass:
          p[k] = p[static_cast<std::size_t>(nd.a)];
          break;
        case Kind::ParamGather: {
          // The result index of i0, then counted up: the operand's offset follows the strides.
          const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(nd.type));
          const std::size_t r = nd.dims.size();
          index.assign(r, 0);
          std::int64_t rest = i0, src = nd.offset;
          for (std::size_t d = r; d-- > 0;) {
            index[d] = nd.dims[d] ? rest % nd.dims[d] : 0;
            rest = nd.dims[d] ? rest / nd.dims[d] : 0;
            src += index[d] * nd.strides[d];
          }
          const std::int64_t inner = r ? nd.strides[r - 1] : 0;
          const std::int64_t inner_dim = r ? nd.dims[r - 1] : 1;
          for (std::int64_t i = 0; i < m; ++i) {
            load_lane(nd.type, eb, base[k] + static_cast<std::size_t>(src) * eb,
                      dst + static_cast<std::size_t>(i) * lb);
            if (r == 0) continue;
            src += inner;
            if (++index[r - 1] < inner_dim) continue;
            src -= inner * inner_dim;
            index[r - 1] = 0;
            for (std::size_t d = r - 1; d-- > 0;) {
              src += nd.strides[d];
              if (++index[d] < nd.dims[d]) break;
              src -= nd.strides[d] * nd.dims[d];
              index[d] = 0;
            }
          }
          break;
        }
        case Kind::Iota: {
          const std::size_t r = nd.dims.size();
          std::int64_t inner = 1;
          for (std::size_t d = static_cast<std::size_t>(nd.axis) + 1; d < r; ++d)
            inner *= nd.dims[d];
          const std::int64_t dim = nd.dims[static_cast<std::size_t>(nd.axis)];
          std::int64_t j = (i0 / inner) % dim, q = i0 % inner;
          for (std::int64_t i = 0; i < m; ++i) {
            iota_lane(nd.type, j, dst + static_cast<std::size_t>(i) * lb);
            if (++q == inner) {
              q = 0;
              if (++j == dim) j = 0;
            }
          }
          break;
        }
        case Kind::Binary:
          simd::f32_binary(static_cast<simd::Binary>(nd.op), mm, pa, pb,
                           reinterpret_cast<float*>(dst));
          if (nd.half()) round_half(nd.type, mm, reinterpret_cast<float*>(dst));
          break;
        case Kind::IntBinary:
          int_binary(static_cast<OpCode>(nd.op), nd.type == ElementType::U32, mm, ia, ib,
                     reinterpret_cast<std::int32_t*>(dst));
          break;
        case Kind::Negate:
        case Kind::Abs: {
          auto* y = reinterpret_cast<std::uint32_t*>(dst);
          const auto* x = reinterpret_cast<const std::uint32_t*>(ra);
          if (nd.floats()) {  // the sign bit only, as negate and abs alone touch it
            if (nd.kind == Kind::Negate)
              for (std::size_t i = 0; i < mm; ++i) y[i] = x[i] ^ 0x80000000u;
            else
              for (std::size_t i = 0; i < mm; ++i) y[i] = x[i] & 0x7fffffffu;
          } else {  // s32, wrapping (−INT_MIN and |INT_MIN| are INT_MIN)
            if (nd.kind == Kind::Negate)
              for (std::size_t i = 0; i < mm; ++i) y[i] = 0u - x[i];
            else if (nd.type == ElementType::U32)
              std::memcpy(y, x, mm * 4);
            else
              for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] >> 31) ? 0u - x[i] : x[i];
          }
          break;
        }
        case Kind::Not: {
          auto* y = reinterpret_cast<std::uint32_t*>(dst);
          const auto* x = reinterpret_cast<const std::uint32_t*>(ra);
          for (std::size_t i = 0; i < mm; ++i) y[i] = ~x[i];
          break;
        }
        case Kind::Math:
          kernels::best_math().fn(static_cast<kernels::MathFn>(nd.op), mm, pa,
                                  reinterpret_cast<float*>(dst));
          if (nd.half()) round_half(nd.type, mm, reinterpret_cast<float*>(dst));
          break;
        case Kind::Compare: {
          const LoopNode& o = plan.nodes[static_cast<std::size_t>(nd.a)];
          const auto d = static_cast<hlo::Comparison>(nd.op);
          if (o.floats())
            compare(d, mm, pa, pb, dst);
          else if (nd.is_unsigned)
            compare(d, mm, reinterpret_cast<const std::uint32_t*>(ra),
                    reinterpret_cast<const std::uint32_t*>(rb), dst);
          else
            compare(d, mm, ia, ib, dst);
          break;
        }
        case Kind::Logic: {
          const std::uint8_t* x = ra;
          const std::uint8_t* z = rb;
          std::uint8_t* y = dst;
          if (nd.op == 0)
            for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] != 0) & (z[i] != 0);
          else if (nd.op == 1)
            for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] != 0) | (z[i] != 0);
          else if (nd.op == 2)
            for (std::size_t i = 0; i < mm; ++i) y[i] = (x[i] != 0) ^ (z[i] != 0);
          else
            for (std::size_t i = 0; i < mm; ++i) y[i] = x[i] == 0;
          break;
        }
        case Kind::Select: {
          const std::uint8_t* pp = ra;
          const std::uint8_t* xb = rb;
          const std::uint8_t* xc = p[static_cast<std::size_t>(nd.c)];
          if (lb == 4) {
            const auto* xa4 = reinterpret_cast<const std::uint32_t*>(xb);
            const auto* xb4 = reinterpret_cast<const std::uint32_t*>(xc);
            auto* y = reinterpret_cast<std::uint32_t*>(dst);
            for (std::size_t i = 0; i < mm; ++i) y[i] = pp[i] ? xa4[i] : xb4[i];
          } else {
            for (std::size_t i = 0; i < mm; ++i) dst[i] = pp[i] ? xb[i] : xc[i];
          }
          break;
        }
        case Kind::Convert:
          convert(nd.from, nd.type, mm, ra, dst);
          break;
      }
      if (k + 1 == count) {
        if (nd.half()) {  // lanes → the half's storage
          auto* y = reinterpret_cast<std::uint16_t*>(out) + (i0 - begin);
          const auto* x = reinterpret_cast<const float*>(p[k]);
          if (nd.type == ElementType::F16)
            for (std::size_t i = 0; i < mm; ++i) y[i] = f32_to_f16(x[i]);
          else
            for (std::size_t i = 0; i < mm; ++i) y[i] = f32_to_bf16(x[i]);
        } else if (p[k] != dst) {
          std::memmove(dst, p[k], mm * root_bytes);
        }
      }
    }
  }
  return true;
}

}  // namespace rl::interp
