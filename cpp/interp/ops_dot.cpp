// dot_general (and the legacy dot), after the StableHLO spec, with XLA's results where it is open.
// Built -O3 in the wasm core, apart from the rest of the linear algebra (ops_linalg.cpp, built for
// size): the interpreter's bench times it (issue 25).
//
//   dot_general     one generic loop over (batch, lhs free, rhs free) with the contracting
//                   dimensions innermost, offsets tabulated once per op. Integers accumulate in
//                   their own type and wrap; f16/bf16 accumulate in f32 and are rounded once;
//                   i1 is an or of ands. f32 runs the SIMD matmul kernel (kernels/) per batch
//                   on [batch, M, K] × [batch, K, N]: an operand is copied into that layout only
//                   when it is not already in it, and the kernel's packing scratch is allocated
//                   once per op.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/numbers.h"
#include "interp/linalg.h"
#include "kernels/kernels.h"

namespace rl::interp {

namespace {

using hlo::OpCode;
using linalg::Acc;
using linalg::product;
using linalg::type_name;

// The element offsets of every index of the dimensions `dims` of a tensor with strides `steps`,
// row-major over the list, into a fresh i64 tensor.
bool offsets(const OpCall& c, const Dims& sizes, const Dims& steps, Tensor* out) {
  std::int64_t n = 1;
  for (auto s : sizes) n *= s;
  if (!c.alloc(ElementType::S64, {n}, out)) return false;
  std::int64_t* o = out->as<std::int64_t>();
  if (n == 0) return true;
  Dims idx(sizes.size(), 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    o[i] = at;
    for (std::size_t k = sizes.size(); k-- > 0;) {
      if (++idx[k] < sizes[k]) {
        at += steps[k];
        break;
      }
      idx[k] = 0;
      at -= steps[k] * (sizes[k] - 1);
    }
  }
  return true;
}

Dims pick(const Dims& of, const Dims& which) {
  Dims out;
  for (auto w : which) out.push_back(of[static_cast<std::size_t>(w)]);
  return out;
}

// The dimensions of a rank-`rank` tensor in none of the lists.
Dims free_dims(std::size_t rank, const Dims& a, const Dims& b) {
  Dims out;
  for (std::size_t i = 0; i < rank; ++i) {
    const auto x = static_cast<std::int64_t>(i);
    if (std::find(a.begin(), a.end(), x) == a.end() && std::find(b.begin(), b.end(), x) == b.end())
      out.push_back(x);
  }
  return out;
}

// ---- dot_general
// ------------------------------------------------------------------------------------

// f32 through the matmul kernel: lhs as [B, M, K], rhs as [B, K, N], result [B, M, N].
bool dot_f32(const OpCall& c, const Tensor& l, const Tensor& r, Tensor& y, const hlo::DotDims& d,
             const Dims& lf, const Dims& rf, std::int64_t B, std::int64_t M, std::int64_t K,
             std::int64_t N) {
  // An operand as a contiguous [batch, rows, cols] buffer: itself when its dimensions are
  // already in that order, else a copy.
  auto arrange = [&](const Tensor& t, const Dims& order, Tensor* scratch, const float** out) {
    bool in_order = true;
    for (std::size_t i = 0; i < order.size(); ++i)
      in_order = in_order && order[i] == static_cast<std::int64_t>(i);
    if (in_order) {
      *out = t.as<float>();
      return true;
    }
    const Dims sizes = pick(t.dims, order);
    if (!c.alloc(ElementType::F32, {product(sizes)}, scratch)) return false;
    const Dims ts = row_major_strides(t.dims), ds = row_major_strides(sizes);
    Box b;
    for (std::size_t i = 0; i < order.size(); ++i)
      b.add(sizes[i], ts[static_cast<std::size_t>(order[i])], ds[i]);
    copy_box(b, t.as<float>(), scratch->as<float>());
    *out = scratch->as<float>();
    return true;
  };
  Dims lorder = d.lhs_batch, rorder = d.rhs_batch;
  lorder.insert(lorder.end(), lf.begin(), lf.end());
  lorder.insert(lorder.end(), d.lhs_contracting.begin(), d.lhs_contracting.end());
  rorder.insert(rorder.end(), d.rhs_contracting.begin(), d.rhs_contracting.end());
  rorder.insert(rorder.end(), rf.begin(), rf.end());
  float* out = y.as<float>();
  if (K == 0) {
    std::fill(out, out + y.elements(), 0.0f);
    return true;
  }
  Tensor lscratch, rscratch, packed;
  const float *a = nullptr, *b = nullptr;
  if (!arrange(l, lorder, &lscratch, &a) || !arrange(r, rorder, &rscratch, &b)) return false;
  const kernels::MatmulVariant& mm = kernels::best_matmul(false);
  const auto m = static_cast<std::size_t>(M), k = static_cast<std::size_t>(K),
             n = static_cast<std::size_t>(N);
  if (!c.alloc(ElementType::F32, {static_cast<std::int64_t>(mm.packed_floats(k, n))}, &packed))
    return false;
  for (std::int64_t i = 0; i < B; ++i) {
    mm.run(m, k, n, a + static_cast<std::size_t>(i) * m * k,
           b + static_cast<std::size_t>(i) * k * n, out + static_cast<std::size_t>(i) * m * n,
           packed.as<float>());
    if (!c.keep_going()) return false;
  }
  return true;
}

bool dot_general(const OpCall& c) {
  const Tensor& l = c.tensor(0);
  const Tensor& r = c.tensor(1);
  const hlo::DotDims& d = c.attrs().get<hlo::DotDims>();
  const std::size_t lr = l.dims.size(), rr = r.dims.size();
  // verify.cpp's dot rule (both dialects): lists of equal length, distinct dimensions in range,
  // batch and contracting sizes equal, the result batch x lhs free x rhs free. The kernel trusts
  // it; operands of two element types (valid: a preferred result type) are not run here.
  RL_VERIFIED(c, d.lhs_batch.size() == d.rhs_batch.size() &&
                     d.lhs_contracting.size() == d.rhs_contracting.size());
  Dims lboth = d.lhs_batch, rboth = d.rhs_batch;
  lboth.insert(lboth.end(), d.lhs_contracting.begin(), d.lhs_contracting.end());
  rboth.insert(rboth.end(), d.rhs_contracting.begin(), d.rhs_contracting.end());
  RL_VERIFIED(c, distinct_dims(lboth, lr) && distinct_dims(rboth, rr));
  const Dims lb = pick(l.dims, d.lhs_batch), rb = pick(r.dims, d.rhs_batch);
  const Dims lc = pick(l.dims, d.lhs_contracting), rc = pick(r.dims, d.rhs_contracting);
  RL_VERIFIED(c, lb == rb && lc == rc);
  const Dims lf = free_dims(lr, d.lhs_batch, d.lhs_contracting),
             rf = free_dims(rr, d.rhs_batch, d.rhs_contracting);
  Dims want = lb;
  for (auto x : pick(l.dims, lf)) want.push_back(x);
  for (auto x : pick(r.dims, rf)) want.push_back(x);
  RL_VERIFIED(c, c.out_type(0).dims == want);
  if (l.type != r.type || l.type != c.out_type(0).etype)
    return c.fail("dot_general mixes element types", type_name(l.type),
                  type_name(r.type) + " -> " + c.out_type(0).element);
  Tensor y;
  if (!c.alloc(0, &y)) return false;
  const std::int64_t B = product(lb), M = product(pick(l.dims, lf)), K = product(lc),
                     N = product(pick(r.dims, rf));
  if (y.elements() == 0) {
    c.set(0, std::move(y));
    return true;
  }
  if (y.type == ElementType::F32) {
    if (!dot_f32(c, l, r, y, d, lf, rf, B, M, K, N)) return false;
    c.set(0, std::move(y));
    return true;
  }
  const Dims ls = row_major_strides(l.dims), rs = row_major_strides(r.dims);
  Tensor lbo, lfo, lco, rbo, rfo, rco;
  if (!offsets(c, lb, pick(ls, d.lhs_batch), &lbo) ||
      !offsets(c, pick(l.dims, lf), pick(ls, lf), &lfo) ||
      !offsets(c, lc, pick(ls, d.lhs_contracting), &lco) ||
      !offsets(c, rb, pick(rs, d.rhs_batch), &rbo) ||
      !offsets(c, pick(r.dims, rf), pick(rs, rf), &rfo) ||
      !offsets(c, rc, pick(rs, d.rhs_contracting), &rco))
    return false;
  const std::int64_t *pb = lbo.as<std::int64_t>(), *pm = lfo.as<std::int64_t>(),
                     *pk = lco.as<std::int64_t>();
  const std::int64_t *qb = rbo.as<std::int64_t>(), *qn = rfo.as<std::int64_t>(),
                     *qk = rco.as<std::int64_t>();
  const bool ok = for_type(c, y.type, [&](auto e) {
    using E = decltype(e);
    using S = typename E::Storage;
    using A = Acc<E>;
    const S* L = l.as<S>();
    const S* R = r.as<S>();
    S* Y = y.as<S>();
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t m = 0; m < M; ++m) {
        const S* lrow = L + pb[b] + pm[m];
        for (std::int64_t n = 0; n < N; ++n) {
          const S* rcol = R + qb[b] + qn[n];
          typename A::T acc{};
          for (std::int64_t k = 0; k < K; ++k)
            acc = A::madd(acc, E::load(lrow[pk[k]]), E::load(rcol[qk[k]]));
          *Y++ = E::store(acc);
        }
        if (!c.keep_going()) return true;
      }
    return true;
  });
  if (!ok || c.run.failed()) return false;
  c.set(0, std::move(y));
  return true;
}

}  // namespace

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(DotGeneral, dot_general, linalg::same_types)
RL_KERNEL(Dot, dot_general, linalg::same_types)

}  // namespace rl::interp
