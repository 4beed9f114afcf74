// The cost rules, one per op family, after XLA's HloCostAnalysis
// (xla/service/hlo_cost_analysis.cc).
#include "hlo/cost_rules.h"

#include <cmath>

#include "hlo/attrs.h"

namespace rl::hlo::cost {

double OpInput::operand_elements(std::size_t i) const {
  if (i >= op.num_operands()) return 0.0;
  const Type& t = op.operand_type(i);
  if (t.kind == Type::Kind::Tuple) return t.tuple.empty() ? 0.0 : t.tuple[0].elements();
  return t.elements();
}

Props OpInput::defaults() const {
  Props p;
  p.out = output_bytes;
  p.bytes = output_bytes;
  p.operand.assign(operand_bytes.begin(), operand_bytes.end());
  for (double b : operand_bytes) p.bytes += b;
  return p;
}

namespace {

std::int64_t log2_floor(std::int64_t v) {
  std::int64_t r = 0;
  while (v > 1) v >>= 1, ++r;
  return r;
}
std::int64_t log2_ceil(std::int64_t v) {
  std::int64_t r = log2_floor(v);
  return (v > 0 && (std::int64_t(1) << r) < v) ? r + 1 : r;
}

// XLA's count of kernel positions that land on the input in one spatial dimension, in closed
// form (XLA loops over them). -1 when sizes are too large to count exactly in 64 bits.
double valid_positions(std::int64_t in, std::int64_t kernel, std::int64_t out, const WindowDim& w) {
  constexpr std::int64_t kBig = std::int64_t(1) << 40, kSmall = std::int64_t(1) << 20;
  if (in < 0 || kernel < 0 || out < 0 || in > kBig || kernel > (std::int64_t(1) << 24) ||
      out > kBig || w.stride < 1 || w.stride > kSmall || w.base_dilation < 1 ||
      w.base_dilation > kSmall || w.window_dilation < 1 || w.window_dilation > kSmall ||
      w.pad_low < -kBig || w.pad_low > kBig)
    return -1;
  if (in == out && kernel == out && in == w.base_dilation && w.window_dilation == 1 &&
      std::max<std::int64_t>(1, in - 1) == w.stride && w.pad_low == 0 && w.pad_high == 0)
    return static_cast<double>(in);
  if (in == 1 && kernel == out && w.window_dilation == 1 && w.base_dilation == 1 && w.stride == 1 &&
      w.pad_high == out - 1 && w.pad_low == out - 1)
    return static_cast<double>(out);
  auto fdiv = [](std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  auto cdiv = [&](std::int64_t a, std::int64_t b) { return -fdiv(-a, b); };
  auto mod = [](std::int64_t a, std::int64_t m) { return ((a % m) + m) % m; };
  const std::int64_t s = w.stride, bd = w.base_dilation;
  double count = 0;
  for (std::int64_t k = 0; k < kernel; ++k) {
    // Output o reads undilated input index u = o·s + c; it lands on input element u / bd when
    // bd divides u and 0 <= u <= (in − 1)·bd.
    const std::int64_t c = k * w.window_dilation - w.pad_low;
    const std::int64_t lo = std::max<std::int64_t>(0, cdiv(-c, s));
    const std::int64_t hi = std::min<std::int64_t>(out - 1, fdiv((in - 1) * bd - c, s));
    if (hi < lo) continue;
    if (bd == 1) {
      count += static_cast<double>(hi - lo + 1);
      continue;
    }
    // o·s ≡ −c (mod bd): solvable when g = gcd(s, bd) divides c; then o ≡ o0 (mod bd / g).
    std::int64_t g = s, b = bd;
    while (b) std::swap(g %= b, b);
    if (mod(c, g) != 0) continue;
    const std::int64_t period = bd / g, s1 = mod(s / g, period), target = mod(-(c / g), period);
    std::int64_t inv = 0;  // s1⁻¹ mod period by the extended Euclidean algorithm
    {
      std::int64_t r0 = period, r1 = s1, t0 = 0, t1 = 1;
      while (r1) {
        const std::int64_t q = r0 / r1;
        std::swap(r0 -= q * r1, r1);
        std::swap(t0 -= q * t1, t1);
      }
      inv = mod(t0, period);
    }
    const std::int64_t o0 = period == 1 ? 0 : (target * inv) % period;
    const std::int64_t first = lo + mod(o0 - lo, period);
    if (first <= hi) count += static_cast<double>((hi - first) / period + 1);
  }
  return count;
}

double window_elements(const std::vector<WindowDim>& w) {
  double n = 1;
  for (const auto& d : w) n *= static_cast<double>(d.size);
  return n;
}

// ---- the rules ------------------------------------------------------------------------------

Props unmodeled_rule(const OpInput&, CostContext& ctx) {
  return ctx.unmodeled("no cost rule for this op");
}

// XLA's HandleTuple: only the output's index table (8 bytes per element) is written; the
// elements are not read.
Props tuple_rule(const OpInput& in, CostContext&) {
  Props p;
  p.out = in.output_bytes;
  p.bytes = in.output_bytes;
  p.operand.assign(in.operand_bytes.size(), 0.0);
  return p;
}

Props elementwise_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  p.flops = in.output_elements;
  return p;
}

Props transcendental_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  p.trans = in.output_elements;
  return p;
}

Props data_rule(const OpInput& in, CostContext&) { return in.defaults(); }

Props slice_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  p.bytes = in.output_bytes * 2;
  p.set_operand(0, in.output_bytes);
  return p;
}

// dynamic-slice and gather read only what they output from operand 0, plus the indices.
Props dynamic_slice_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  p.bytes = in.output_bytes * 2 + (in.operand_bytes.size() > 1 ? in.operand_bytes[1] : 0);
  p.set_operand(0, in.output_bytes);
  return p;
}

Props dynamic_update_slice_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  const auto& ob = in.operand_bytes;
  const double upd = ob.size() > 1 ? ob[1] : 0, idx = ob.size() > 2 ? ob[2] : 0;
  p.bytes = upd * 2 + idx;
  p.out = upd;
  p.set_operand(0, 0);
  return p;
}

Props scatter_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  const auto& ob = in.operand_bytes;
  const std::size_t n = ob.size() >= 3 ? (ob.size() - 1) / 2 : 0;
  double upd = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = ob[n + 1 + i];
    p.set_operand(i, u);
    p.set_operand(n + 1 + i, u);
    upd += u;
  }
  const double idx = n < ob.size() ? ob[n] : 0;
  p.bytes = upd * 3 + idx;
  p.out = upd;
  Props b;
  if (!ctx.body(in, 0, &b)) return ctx.unmodeled("scatter without an update computation");
  p.add_compute(b, in.operand_elements(n + 1));
  return p;
}

Props dot_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  if (!in.attrs || in.op.num_operands() == 0) return ctx.unmodeled("dot without operands");
  double width = 1;
  const auto& lhs = in.op.operand_type(0).dims;
  for (auto c : in.attrs->get<DotDims>().lhs_contracting)
    if (c >= 0 && static_cast<std::size_t>(c) < lhs.size())
      width *= static_cast<double>(lhs[static_cast<std::size_t>(c)]);
  p.flops = 2 * in.output_elements * width;
  return p;
}

Props convolution_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  if (!in.attrs || in.op.num_operands() < 2) return ctx.unmodeled("convolution needs two operands");
  const ConvAttrs& cv = in.attrs->get<ConvAttrs>();
  const ConvDims& cd = cv.dims;
  const auto& l = in.op.operand_type(0).dims;
  const auto& k = in.op.operand_type(1).dims;
  const auto& o = in.op.result_type(0).dims;
  auto at = [](const std::vector<std::int64_t>& v, std::int64_t i) {
    return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)] : 1;
  };
  const std::size_t rank = cd.input_spatial.size();
  double positions = 1;
  for (std::size_t s = 0; s < rank; ++s) {
    if (s >= cd.kernel_spatial.size() || s >= cd.output_spatial.size() || s >= cv.window.size())
      break;
    const double v = valid_positions(at(l, cd.input_spatial[s]), at(k, cd.kernel_spatial[s]),
                                     at(o, cd.output_spatial[s]), cv.window[s]);
    if (v < 0) return ctx.unmodeled("convolution window too large to count");
    positions *= v;
  }
  const double fgc = static_cast<double>(std::max<std::int64_t>(1, cv.feature_group_count));
  const double bgc = static_cast<double>(std::max<std::int64_t>(1, cv.batch_group_count));
  const double in_feature = static_cast<double>(at(l, cd.input_feature));
  const double out_feature = static_cast<double>(at(o, cd.output_feature));
  const double batch = static_cast<double>(at(l, cd.input_batch));
  p.flops = 2 * std::floor(in_feature / fgc) * out_feature * std::floor(batch / bgc) * positions;
  return p;
}

Props reduce_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  Props b;
  if (!ctx.body(in, 0, &b)) return ctx.unmodeled("reduce without a reducer");
  p.add_compute(b, in.operand_elements(0) - in.output_elements);
  return p;
}

Props reduce_window_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  Props b;
  if (!ctx.body(in, 0, &b)) return ctx.unmodeled("reduce_window without a reducer");
  if (!in.attrs) return ctx.unmodeled("reduce_window without a window");
  p.add_compute(b, (window_elements(in.attrs->get<WindowAttrs>().window) - 1) * in.output_elements);
  return p;
}

Props select_and_scatter_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  Props sel, sc;
  if (!ctx.body(in, 0, &sel) || !ctx.body(in, 1, &sc))
    return ctx.unmodeled("select_and_scatter without its computations");
  if (!in.attrs) return ctx.unmodeled("select_and_scatter without a window");
  const double source = in.operand_elements(1);
  p.add_compute(sel, source * (window_elements(in.attrs->get<WindowAttrs>().window) - 1));
  p.add_compute(sc, source);
  return p;
}

Props map_rule(const OpInput& in, CostContext& ctx) {
  Props p = in.defaults();
  Props b;
  if (!ctx.body(in, 0, &b)) return ctx.unmodeled("map without a computation");
  p.add_compute(b, in.output_elements);
  return p;
}

Props sort_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  const double e = in.operand_elements(0);
  p.flops = e < 4e18 ? e * static_cast<double>(log2_ceil(static_cast<std::int64_t>(e)))
                     : e * std::ceil(std::log2(e));
  return p;
}

Props fft_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  double factors = 1;
  if (in.attrs)
    for (auto l : in.attrs->get<FftAttrs>().lengths) factors *= static_cast<double>(log2_floor(l));
  p.flops = 2 * 4 * factors * in.operand_elements(0);
  return p;
}

Props triangular_solve_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  const auto& ob = in.operand_bytes;
  const double a = ob.empty() ? 0 : ob[0], b = ob.size() > 1 ? ob[1] : 0;
  p.bytes = in.output_bytes + a / 2 + b;
  p.set_operand(0, b);  // XLA sets operand 0's key twice; the second (operand 1's size) stays
  const auto& ad = in.op.operand_type(0).dims;
  p.flops = 2 * (ad.empty() ? 0.0 : static_cast<double>(ad.back())) * in.operand_elements(1);
  return p;
}

Props cholesky_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  const double a = in.operand_bytes.empty() ? 0 : in.operand_bytes[0];
  p.bytes = a;
  p.out = a / 2;
  p.set_operand(0, a / 2);
  const auto& ad = in.op.operand_type(0).dims;
  p.flops =
      std::floor((ad.empty() ? 0.0 : static_cast<double>(ad.back())) * in.operand_elements(0) / 3);
  return p;
}

Props rng_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  p.trans = in.output_elements;
  return p;
}

Props rng_bit_generator_rule(const OpInput& in, CostContext&) {
  Props p = in.defaults();
  double e = 0;
  for (std::size_t i = 0; i < in.op.num_results(); ++i) {
    const Type& t = in.op.result_type(i);
    if (t.kind == Type::Kind::Tuple)
      for (const auto& s : t.tuple) e += std::max(0.0, s.elements());
    else
      e += std::max(0.0, t.elements());
  }
  p.trans = e;
  return p;
}

// collective_bytes: what one device sends over the links in a ring of the n devices of its
// replica group (S: the operand bytes, O: the output bytes):
//   all-reduce          2·(n−1)/n·S   (reduce-scatter pass, then all-gather pass)
//   all-gather          (n−1)/n·O     (each device forwards the n−1 pieces it lacks)
//   reduce-scatter      (n−1)/n·S
//   all-to-all          (n−1)/n·S     (keeps 1/n of its data, sends the rest)
//   collective-permute  S             (its buffer once to its target; broadcast alike)
// n comes from replica_groups ({{0,1,2,3}} → 4, [2,4]<=[8] → 4); with empty groups, the
// module's replica_count × num_partitions; unknown, the factor (n−1)/n is taken as 1.
Props collective(const OpInput& in, CostContext& ctx, CostFamily fam) {
  Props p = in.defaults();
  double leaves_out = 0, elems = 0;
  for (std::size_t i = 0; i < in.op.num_results(); ++i) {
    const Type& t = in.op.result_type(i);
    if (t.kind == Type::Kind::Tuple)
      for (const auto& s : t.tuple)
        leaves_out += std::max(0.0, s.byte_size()), elems += std::max(0.0, s.elements());
    else
      leaves_out += std::max(0.0, t.byte_size()), elems += std::max(0.0, t.elements());
  }
  double leaves_in = 0;
  for (std::size_t i = 0; i < in.op.num_operands(); ++i)
    leaves_in += std::max(0.0, in.op.operand_type(i).leaf_bytes());
  // all-gather-start's result is the tuple (operands..., outputs...): the outputs alone.
  if (in.op.op.code == OpCode::AllGatherStart && in.op.num_results() == 1 &&
      in.op.result_type(0).kind == Type::Kind::Tuple)
    leaves_out = std::max(0.0, leaves_out - leaves_in);
  if (fam == CostFamily::AllReduce) {
    p.flops = elems;
    p.out = leaves_out;
    p.bytes = leaves_out;
    for (double b : in.operand_bytes) p.bytes += b;
  }
  std::int64_t n = replica_group_size(in.op);
  double f = 1;
  if (n <= 0 && fam != CostFamily::CollectivePermute) {
    n = ctx.module_devices();
    if (n > 0)
      ctx.note("replica_groups empty: all " + std::to_string(n) + " devices of the module");
  }
  if (n > 0)
    f = static_cast<double>(n - 1) / static_cast<double>(n);
  else if (fam != CostFamily::CollectivePermute)
    ctx.note("replica group size unknown: ring factor (n-1)/n taken as 1");
  switch (fam) {
    case CostFamily::AllReduce:
      p.coll = 2 * f * leaves_in;
      break;
    case CostFamily::AllGather:
      p.coll = f * leaves_out;
      break;
    case CostFamily::ReduceScatter:
    case CostFamily::AllToAll:
      p.coll = f * leaves_in;
      break;
    default:
      p.coll = leaves_in;
      break;
  }
  return p;
}
Props all_reduce_rule(const OpInput& in, CostContext& ctx) {
  return collective(in, ctx, CostFamily::AllReduce);
}
Props all_gather_rule(const OpInput& in, CostContext& ctx) {
  return collective(in, ctx, CostFamily::AllGather);
}
Props reduce_scatter_rule(const OpInput& in, CostContext& ctx) {
  return collective(in, ctx, CostFamily::ReduceScatter);
}
Props all_to_all_rule(const OpInput& in, CostContext& ctx) {
  return collective(in, ctx, CostFamily::AllToAll);
}
Props permute_rule(const OpInput& in, CostContext& ctx) {
  return collective(in, ctx, CostFamily::CollectivePermute);
}

Props while_rule(const OpInput& in, CostContext& ctx) {
  Props p, b, c;
  const bool have_b = ctx.body(in, 1, &b);
  const bool have_c = ctx.body(in, 0, &c);
  if (!have_b || !have_c) return ctx.unmodeled("while without its condition and body");
  const std::int64_t known = in.attrs ? in.attrs->get<CallsAttrs>().known_trip_count : -1;
  const std::int64_t trips = known >= 0 ? known : ctx.counted_trips(in);
  const double k = trips >= 0 ? static_cast<double>(trips) : 1;
  p.add_all(b, k);
  p.add_all(c, k);
  if (known >= 0) {
    ctx.note("body and condition counted " + std::to_string(trips) + " times (known_trip_count)");
  } else if (trips >= 0) {
    ctx.note("body and condition counted " + std::to_string(trips) +
             " times (its counter runs from one constant to another by 1, the trip count XLA "
             "finds when it compiles the loop)");
  } else {
    ctx.note("trip count unknown: body counted once");
    p.note("a while loop without a known trip count is counted once (line " +
           std::to_string(in.op.op.line) + ")");
  }
  return p;
}

Props conditional_rule(const OpInput& in, CostContext& ctx) {
  std::vector<Props> branches;
  const std::size_t n =
      in.op.regions().size() ? in.op.regions().size() : (in.attrs ? in.attrs->callees().size() : 0);
  for (std::size_t i = 0; i < n; ++i) {
    Props b;
    ctx.body(in, i, &b);
    branches.push_back(std::move(b));
  }
  if (branches.empty()) return ctx.unmodeled("conditional without branches");
  Props p = branches[0];
  for (std::size_t i = 1; i < branches.size(); ++i) {
    const Props& q = branches[i];
    p.flops = std::max(p.flops, q.flops);
    p.trans = std::max(p.trans, q.trans);
    p.bytes = std::max(p.bytes, q.bytes);
    p.out = std::max(p.out, q.out);
    p.coll = std::max(p.coll, q.coll);
    p.unfused = std::max(p.unfused, q.unfused);
    if (p.operand.size() < q.operand.size()) p.operand.resize(q.operand.size(), 0);
    for (std::size_t k = 0; k < q.operand.size(); ++k)
      p.operand[k] = std::max(p.operand[k], q.operand[k]);
    p.merge_meta(q);
  }
  ctx.note("the costliest branch, per counter");
  return p;
}

Props call_rule(const OpInput& in, CostContext& ctx) {
  const Function* f = ctx.callee(in, 0);
  if (!f) return ctx.unmodeled("call of an unknown function");
  Props p;
  p.add_all(ctx.function_props(*f), 1);
  ctx.note("cost of " + std::string(f->name));
  return p;
}

// custom-call. cuBLAS GEMMs (__cublas$gemm, __cublas$lt$matmul) cost a dot, from the dot
// dimension numbers of their backend_config, as XLA's GpuHloCostAnalysis does: flops
// 2·(result elements)·(lhs contracting sizes), the result being element 0 of a tuple result
// (the workspace is left out of the bytes too); bytes: operands + that result. Any other
// target is unmodeled (XLA's HloCostAnalysis reports -1 for it).
Props custom_call_rule(const OpInput& in, CostContext& ctx) {
  const OpView& op = in.op;
  const std::string target =
      in.attrs ? in.attrs->get<CustomCallAttrs>().target : std::string();  // decode.h
  const bool gemm = target == "__cublas$gemm" || target == "__cublas$lt$matmul" ||
                    target == "__cublas$lt$matmul$f8";
  if (!gemm)
    return ctx.unmodeled("custom call" +
                         (target.empty() ? std::string() : " " + target.substr(0, 60)) +
                         ": its cost is unknown (XLA reports -1)");
  const bool found = in.attrs && in.attrs->get<CustomCallAttrs>().gemm_dims;  // decode.h
  const std::vector<std::int64_t> contracting =
      found ? in.attrs->get<CustomCallAttrs>().gemm_lhs_contracting : std::vector<std::int64_t>();
  if (!found || op.num_operands() == 0 || op.num_results() != 1)
    return ctx.unmodeled("cuBLAS GEMM without dot dimension numbers in its backend_config");
  const Type& lhs = op.operand_type(0);
  const Type& whole = op.result_type(0);
  const Type& result =
      whole.kind == Type::Kind::Tuple && !whole.tuple.empty() ? whole.tuple[0] : whole;
  if (!lhs.is_array() || !result.is_array() || !result.is_static())
    return ctx.unmodeled("cuBLAS GEMM with operands that are not arrays");
  double k = 1;
  for (auto c : contracting) {
    if (c < 0 || static_cast<std::size_t>(c) >= lhs.dims.size())
      return ctx.unmodeled("cuBLAS GEMM contracting dimension " + std::to_string(c) +
                           " out of range");
    k *= static_cast<double>(lhs.dims[static_cast<std::size_t>(c)]);
  }
  Props p;
  p.flops = 2 * result.elements() * k;
  p.out = std::max(0.0, result.byte_size());
  p.bytes = p.out;
  p.operand.assign(in.operand_bytes.begin(), in.operand_bytes.end());
  for (double b : in.operand_bytes) p.bytes += b;
  ctx.note("cuBLAS GEMM: a dot's flops from its backend_config");
  return p;
}

}  // namespace

double fusion_parameter_read_bytes(double psize, const std::vector<ParamUse>& users) {
  double size = 0;
  bool trivial = false;
  for (const ParamUse& user : users) {
    switch (user.code) {
      case OpCode::Slice:
        size += user.output_bytes;
        break;
      case OpCode::DynamicSlice:
        if (user.first_operand)
          size += user.output_bytes;
        else if (!trivial)
          trivial = true, size += psize;
        break;
      case OpCode::DynamicUpdateSlice:
        if (!user.first_operand && !trivial) trivial = true, size += psize;
        break;
      case OpCode::BroadcastInDim:
      case OpCode::Broadcast:
      case OpCode::Reshape:
        size += psize;
        break;
      default:
        if (!trivial) {
          trivial = true;
          size += psize;
        }
    }
  }
  return size;
}

namespace {

// XLA's HandleFusion bytes: outputs (a dynamic-update-slice root writes its update) plus,
// per fused parameter, what its users read (FusionParameterReadBytes): slices read their
// output, dynamic-slice/update-slice what they touch, broadcast and reshape the whole
// parameter each, all other users share one read. One pass over the fused ops.
void fusion_bytes(const OpView& fusion, const Function& f, CostContext& ctx, Props* p) {
  const Module& m = fusion.m;
  const Op* root = nullptr;
  std::vector<const Op*> ops;
  std::vector<const Op*> def(f.values.size(), nullptr);
  std::vector<std::vector<const Op*>> users(f.values.size());  // each user once, in order
  for (const auto& b : f.body.blocks)
    for (const auto& o : b.ops) {
      ops.push_back(&o);
      if (o.is_root) root = &o;
      for (ValueId r : f.results(o)) def[r] = &o;
      for (ValueId v : f.operands(o)) {
        auto& u = users[v];
        if (u.empty() || u.back() != &o) u.push_back(&o);
      }
    }
  if (!root && !ops.empty()) root = ops.back();
  auto type_of = [&](const Op& o, std::size_t i) -> const Type& {
    return m.value_type(f, f.operands(o)[i]);
  };
  auto out_type = [&](const Op& o) -> const Type* {
    return o.results.count ? &m.value_type(f, f.results(o)[0]) : nullptr;
  };
  double out = 0;
  auto leaf_out = [&](const Type& t, const Op* producer) {
    if (producer && producer->code == OpCode::DynamicUpdateSlice && producer->operands.count > 1)
      return std::max(0.0, type_of(*producer, 1).byte_size());
    return std::max(0.0, t.byte_size());
  };
  if (fusion.num_results() > 0) {
    const Type& t = fusion.result_type(0);
    if (t.kind == Type::Kind::Tuple) {
      for (std::size_t i = 0; i < t.tuple.size(); ++i) {
        const Op* prod = nullptr;
        if (root && root->code == OpCode::Tuple && i < root->operands.count)
          prod = def[f.operands(*root)[i]];
        out += leaf_out(t.tuple[i], prod);
      }
    } else {
      out = leaf_out(t, root);
    }
  }
  p->out = out;
  p->bytes = out;
  for (const Op* o : ops)  // large constants inside the fusion are read from memory
    if (o->code == OpCode::Constant && out_type(*o) && out_type(*o)->elements() > 1)
      p->bytes += std::max(0.0, out_type(*o)->byte_size());
  p->operand.clear();
  for (const Op* param : ops) {
    if (param->code != OpCode::Parameter || param->results.count == 0) continue;
    const OpAttrs* pa = ctx.attrs_of(f, *param);
    const std::int64_t index =
        pa && pa->get_if<ParameterAttrs>() ? pa->get<ParameterAttrs>().number : -1;
    if (index < 0 || index > 4096) continue;
    const ValueId pv = f.results(*param)[0];
    const double psize = std::max(0.0, m.value_type(f, pv).byte_size());
    std::vector<ParamUse> uses;
    for (const Op* user : users[pv]) {
      const double uout = out_type(*user) ? std::max(0.0, out_type(*user)->byte_size()) : 0;
      uses.push_back({user->code, uout, user->operands.count > 0 && f.operands(*user)[0] == pv});
    }
    const double size = fusion_parameter_read_bytes(psize, uses);
    const auto i = static_cast<std::size_t>(index);
    if (p->operand.size() <= i) p->operand.resize(i + 1, 0);
    p->operand[i] += size;
    p->bytes += size;
  }
}

Props fusion_rule(const OpInput& in, CostContext& ctx) {
  const Function* f = ctx.callee(in, 0);
  if (!f) return ctx.unmodeled("fusion without a fused computation");
  const Props inner = ctx.function_props(*f);
  Props p;
  p.add_compute(inner, 1);
  fusion_bytes(in.op, *f, ctx, &p);
  p.unfused = inner.unfused;
  ctx.note("flops of " + std::string(f->name) + "; bytes at the fusion boundary");
  return p;
}

}  // namespace

bool contains_computations(CostFamily family) {
  return family == CostFamily::While || family == CostFamily::Conditional ||
         family == CostFamily::Call || family == CostFamily::AsyncStart ||
         family == CostFamily::Fusion;
}

Rule rule_for(CostFamily family) {
  switch (family) {
    case CostFamily::Zero:
      return nullptr;
    case CostFamily::Elementwise:
      return elementwise_rule;
    case CostFamily::Transcendental:
      return transcendental_rule;
    case CostFamily::Data:
      return data_rule;
    case CostFamily::Slice:
      return slice_rule;
    case CostFamily::DynamicSlice:
    case CostFamily::Gather:
      return dynamic_slice_rule;
    case CostFamily::DynamicUpdateSlice:
      return dynamic_update_slice_rule;
    case CostFamily::Scatter:
      return scatter_rule;
    case CostFamily::Dot:
      return dot_rule;
    case CostFamily::Convolution:
      return convolution_rule;
    case CostFamily::Reduce:
      return reduce_rule;
    case CostFamily::ReduceWindow:
      return reduce_window_rule;
    case CostFamily::SelectAndScatter:
      return select_and_scatter_rule;
    case CostFamily::Map:
      return map_rule;
    case CostFamily::Sort:
      return sort_rule;
    case CostFamily::Fft:
      return fft_rule;
    case CostFamily::TriangularSolve:
      return triangular_solve_rule;
    case CostFamily::Cholesky:
      return cholesky_rule;
    case CostFamily::Rng:
      return rng_rule;
    case CostFamily::RngBitGenerator:
      return rng_bit_generator_rule;
    case CostFamily::AllReduce:
      return all_reduce_rule;
    case CostFamily::AllGather:
      return all_gather_rule;
    case CostFamily::ReduceScatter:
      return reduce_scatter_rule;
    case CostFamily::AllToAll:
      return all_to_all_rule;
    case CostFamily::CollectivePermute:
      return permute_rule;
    case CostFamily::While:
      return while_rule;
    case CostFamily::Conditional:
      return conditional_rule;
    case CostFamily::Call:
    case CostFamily::AsyncStart:
      return call_rule;
    case CostFamily::Fusion:
      return fusion_rule;
    case CostFamily::Tuple:
      return tuple_rule;
    case CostFamily::CustomCall:
      return custom_call_rule;
    case CostFamily::Unmodeled:
      return unmodeled_rule;
  }
  return unmodeled_rule;
}

}  // namespace rl::hlo::cost
