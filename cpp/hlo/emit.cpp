#include "hlo/emit.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "common/numbers.h"
#include "hlo/jax_emit.h"

namespace rl::hlo {

namespace {

Result<std::int64_t> dimension(const char* name, double v) { return positive_integer(name, v); }

Result<std::string> check_dtype(const std::string& dtype) {
  if (dtype != "f32" && dtype != "bf16" && dtype != "f16" && dtype != "f64")
    return Result<std::string>::failure("dtype must be one of f32, bf16, f16, f64, got \"" + dtype +
                                        "\"");
  return Result<std::string>::success(dtype);
}

}  // namespace

// Each example is the primitives JAX's lowering emits for it, in its order, through the one
// emitter.
Result<std::string> emit_workload(double m, double k, double n, const std::string& dtype) {
  auto mm = dimension("m", m);
  if (!mm) return Result<std::string>::failure_from(mm);
  auto kk = dimension("k", k);
  if (!kk) return Result<std::string>::failure_from(kk);
  auto nn = dimension("n", n);
  if (!nn) return Result<std::string>::failure_from(nn);
  auto t = check_dtype(dtype);
  if (!t) return t;
  // tanh(a @ b): jnp.matmul's dot_general, then tanh.
  jax::Emitter e("workload",
                 {{{mm.value(), kk.value()}, dtype}, {{kk.value(), nn.value()}, dtype}});
  auto c = e.dot_general(e.arg(0), e.arg(1), {}, {}, {1}, {0});
  return Result<std::string>::success(e.finish({e.unary("tanh", c)}));
}

Result<std::string> emit_mlp_layer(double batch, double d_in, double d_out,
                                   const std::string& dtype) {
  auto b = dimension("batch", batch);
  if (!b) return Result<std::string>::failure_from(b);
  auto i = dimension("d_in", d_in);
  if (!i) return Result<std::string>::failure_from(i);
  auto o = dimension("d_out", d_out);
  if (!o) return Result<std::string>::failure_from(o);
  auto t = check_dtype(dtype);
  if (!t) return t;
  const std::vector<std::int64_t> y{b.value(), o.value()};
  jax::Emitter e(
      "mlp_layer",
      {{{b.value(), i.value()}, dtype}, {{i.value(), o.value()}, dtype}, {{o.value()}, dtype}});
  auto h = e.dot_general(e.arg(0), e.arg(1), {}, {}, {1}, {0});
  auto bias = e.broadcast_in_dim(e.arg(2), y, {1});
  auto sum = e.binary("add", h, bias);
  auto zero = e.broadcast_in_dim(e.constant(0, {{}, dtype}), y, {});
  return Result<std::string>::success(e.finish({e.binary("maximum", sum, zero)}));
}

Result<std::string> emit_attention(double seq, double d, const std::string& dtype) {
  auto sq = dimension("seq", seq);
  if (!sq) return Result<std::string>::failure_from(sq);
  auto dd = dimension("d", d);
  if (!dd) return Result<std::string>::failure_from(dd);
  auto t = check_dtype(dtype);
  if (!t) return t;
  const std::int64_t S = sq.value(), D = dd.value();
  const jax::Aval x{{S, D}, dtype}, scalar{{}, dtype};
  const std::vector<std::int64_t> ss{S, S};
  jax::Emitter e("attention", {x, x, x});
  auto scores = e.dot_general(e.arg(0), e.arg(1), {}, {}, {1}, {1});
  auto scale = e.broadcast_in_dim(e.constant(1.0 / std::sqrt(double(D)), scalar), ss, {});
  auto scaled = e.binary("multiply", scores, scale);
  auto row_max = e.reduce(scaled, e.constant(-INFINITY, scalar), "maximum", {1});
  auto shifted = e.binary("subtract", scaled, e.broadcast_in_dim(row_max, ss, {0}));
  auto ex = e.unary("exponential", shifted);
  auto row_sum = e.reduce(ex, e.constant(0, scalar), "add", {1});
  auto p = e.binary("divide", ex, e.broadcast_in_dim(row_sum, ss, {0}));
  return Result<std::string>::success(e.finish({e.dot_general(p, e.arg(2), {}, {}, {1}, {0})}));
}

std::vector<Example> examples() {
  return {
      {"lesson", "The lesson: tanh(a @ b), a f32[32,16], b f32[16,8]",
       emit_workload(32, 16, 8, "f32").value()},
      {"mlp", "An MLP layer: relu(x @ w + b), x f32[128,512], w f32[512,256]",
       emit_mlp_layer(128, 512, 256, "f32").value()},
      {"attention", "Attention: softmax(q @ kᵀ / √d) @ v, q, k, v f32[128,64]",
       emit_attention(128, 64, "f32").value()},
  };
}

}  // namespace rl::hlo
