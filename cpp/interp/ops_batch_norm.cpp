// Batch normalization: StableHLO's batch_norm_inference, batch_norm_training and batch_norm_grad
// (XLA's batch-norm-inference, -training, -grad), as the StableHLO specification defines them
// (stablehlo/docs/spec.md): per feature f (the operand's dimension feature_index), over the
// N = elements / features elements of that feature,
//   inference: y = scale[f] · (x − mean[f]) / √(variance[f] + ε) + offset[f]
//   training:  mean[f] = Σx / N, variance[f] = Σ(x − mean[f])² / N, then y as inference;
//              results (y, mean, variance)
//   grad:      with c = x − mean[f], σ = √(variance[f] + ε), g = grad_output,
//              grad_scale[f] = Σ g·c/σ, grad_offset[f] = Σ g, and
//              grad_operand = scale[f]/σ/N · (N·g − Σg − c·Σ(g·c)/(variance[f] + ε))
//              (the spec's formula, after XLA's BatchNormExpander); results (grad_operand,
//              grad_scale, grad_offset).
// The shapes are infer.cpp's rule (XLA's InferBatchNorm*Shape), which the kernels trust. They
// compute in double from the element type and round each result once; XLA expands these ops into
// arithmetic in the element type, so single and half precision results may differ from XLA's in
// their last bits. A result of training and grad is one tuple in HLO, three values in StableHLO.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interp/elements.h"
#include "interp/elementwise.h"
#include "interp/kernel.h"

namespace rl::interp {

namespace {

using hlo::ElementType;
using hlo::OpCode;

// The operand as [outer, features, inner] around feature_index.
struct Around {
  std::int64_t outer = 1, features = 1, inner = 1;
  std::int64_t per_feature() const { return outer * inner; }
  std::int64_t feature_of(std::int64_t i) const { return (i / inner) % features; }
};

Around around(const std::vector<std::int64_t>& dims, std::int64_t feature_index) {
  Around a;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const auto fd = static_cast<std::size_t>(feature_index);
    if (d < fd) a.outer *= dims[d];
    if (d == fd) a.features = dims[d];
    if (d > fd) a.inner *= dims[d];
  }
  return a;
}

// Element i of a float array, as double, and stored rounded once: one pair per float type, so
// the op's loops below are compiled once, not once per type (a batch norm is no hot loop).
struct Access {
  double (*load)(const std::uint8_t* p, std::int64_t i);
  void (*store)(std::uint8_t* p, std::int64_t i, double v);
};

template <class E>
Access access_of() {
  using St = typename E::Storage;
  Access acc;
  acc.load = [](const std::uint8_t* p, std::int64_t i) {
    return static_cast<double>(E::load(reinterpret_cast<const St*>(p)[i]));
  };
  acc.store = [](std::uint8_t* p, std::int64_t i, double v) {
    reinterpret_cast<St*>(p)[i] = from_double<E>(v);
  };
  return acc;
}

// The op: the per-feature operands widened to double (features long), the operand and
// grad_output read in place, each result written rounded once. No scratch the size of the
// operand.
bool batch_norm_with(const OpCall& c, const Around& a, double epsilon, const Access& acc) {
  const OpCode code = c.op().code;
  const Tensor& operand = c.tensor(0);
  const ElementType type = operand.type;
  const std::uint8_t* x = operand.data();
  const std::int64_t n = operand.elements();
  const auto nf = static_cast<std::size_t>(a.features);
  const auto wide = [&](std::size_t i) {
    std::vector<double> v(nf);
    for (std::size_t f = 0; f < nf; ++f)
      v[f] = acc.load(c.tensor(i).data(), static_cast<std::int64_t>(f));
    return v;
  };
  const std::vector<double> scale = wide(1);
  const std::vector<std::int64_t> feature_dims{a.features};
  const auto per_feature = [&](const std::vector<double>& v, Tensor* out) {
    if (!c.alloc(type, feature_dims, out)) return false;
    for (std::size_t f = 0; f < nf; ++f) acc.store(out->data(), static_cast<std::int64_t>(f), v[f]);
    return true;
  };
  // y = scale·(x − mean)/√(variance + ε) + offset, per feature, rounded once.
  const auto normalized = [&](const std::vector<double>& offset, const std::vector<double>& mean,
                              const std::vector<double>& variance, Tensor* out) {
    if (!c.alloc(type, operand.dims, out)) return false;
    for (std::int64_t k = 0; k < n; ++k) {
      const auto f = static_cast<std::size_t>(a.feature_of(k));
      acc.store(
          out->data(), k,
          scale[f] * (acc.load(x, k) - mean[f]) / std::sqrt(variance[f] + epsilon) + offset[f]);
    }
    return true;
  };
  const double count = static_cast<double>(a.per_feature());
  Tensor r1, r2, r3;
  if (code == OpCode::BatchNormInference) {
    if (!normalized(wide(2), wide(3), wide(4), &r1)) return false;
    c.set(0, std::move(r1));
    return true;
  }
  std::vector<double> s1(nf, 0.0), s2(nf, 0.0);
  if (code == OpCode::BatchNormTraining) {
    for (std::int64_t k = 0; k < n; ++k)
      s1[static_cast<std::size_t>(a.feature_of(k))] += acc.load(x, k);
    for (auto& v : s1) v /= count;  // the mean
    for (std::int64_t k = 0; k < n; ++k) {
      const auto f = static_cast<std::size_t>(a.feature_of(k));
      const double d = acc.load(x, k) - s1[f];
      s2[f] += d * d;
    }
    for (auto& v : s2) v /= count;  // the (biased) variance
    if (!normalized(wide(2), s1, s2, &r1) || !per_feature(s1, &r2) || !per_feature(s2, &r3))
      return false;
    std::vector<Tensor> results{std::move(r1), std::move(r2), std::move(r3)};
    c.set_all(results);
    return true;
  }
  // Grad: operand, scale, mean, variance, grad_output.
  const std::vector<double> mean = wide(2), variance = wide(3);
  const std::uint8_t* g = c.tensor(4).data();
  for (std::int64_t k = 0; k < n; ++k) {
    const auto f = static_cast<std::size_t>(a.feature_of(k));
    s1[f] += acc.load(g, k);                               // Σ g: grad_offset
    s2[f] += acc.load(g, k) * (acc.load(x, k) - mean[f]);  // Σ g·c
  }
  std::vector<double> grad_scale(nf);
  for (std::size_t f = 0; f < nf; ++f) grad_scale[f] = s2[f] / std::sqrt(variance[f] + epsilon);
  if (!c.alloc(type, operand.dims, &r1)) return false;
  for (std::int64_t k = 0; k < n; ++k) {
    const auto f = static_cast<std::size_t>(a.feature_of(k));
    const double ve = variance[f] + epsilon, centered = acc.load(x, k) - mean[f];
    acc.store(r1.data(), k,
              scale[f] / std::sqrt(ve) / count *
                  (count * acc.load(g, k) - s1[f] - centered * s2[f] / ve));
  }
  if (!per_feature(grad_scale, &r2) || !per_feature(s1, &r3)) return false;
  std::vector<Tensor> results{std::move(r1), std::move(r2), std::move(r3)};
  c.set_all(results);
  return true;
}

bool batch_norm(const OpCall& c) {
  const OpCode code = c.op().code;
  const auto& at = c.attrs().get<hlo::BatchNormAttrs>();
  const Tensor& operand = c.tensor(0);
  RL_VERIFIED(
      c, at.feature_index >= 0 && static_cast<std::size_t>(at.feature_index) < operand.dims.size());
  const Around a = around(operand.dims, at.feature_index);
  for (std::size_t i = 1; i < c.num_operands(); ++i) {
    const bool whole = code == OpCode::BatchNormGrad && i == 4;
    RL_VERIFIED(c, c.tensor(i).elements() == (whole ? operand.elements() : a.features));
    RL_VERIFIED(c, c.tensor(i).type == operand.type);  // batch_norm_types
  }
  Access acc{};
  const bool ok = for_type(c, operand.type, [&](auto e) {
    using E = decltype(e);
    if constexpr (!is_float_v<E>) {
      return false;
    } else {
      acc = access_of<E>();
      return true;
    }
  });
  return ok && batch_norm_with(c, a, static_cast<double>(at.epsilon), acc);
}

// Every operand of one floating-point element type the interpreter computes with (HLO lets the
// per-feature operands be of another float precision: not run).
std::string batch_norm_types(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  std::string p = computable_types(op, attrs);
  if (!p.empty()) return p;
  const hlo::Type& t = op.operand_type(0);
  bool is_float = false;
  dispatch(t.etype, [&](auto e) { is_float = is_float_v<decltype(e)>; });
  if (!is_float) return "element type " + t.element + " (floating-point only)";
  for (std::size_t i = 1; i < op.num_operands(); ++i)
    if (op.operand_type(i).etype != t.etype)
      return "operands of two element types (" + t.element + ", " + op.operand_type(i).element +
             ")";
  return "";
}

}  // namespace

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(BatchNormInference, batch_norm, batch_norm_types)
RL_KERNEL(BatchNormTraining, batch_norm, batch_norm_types)
RL_KERNEL(BatchNormGrad, batch_norm, batch_norm_types)

}  // namespace rl::interp
