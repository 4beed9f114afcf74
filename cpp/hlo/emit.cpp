#include "hlo/emit.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "common/numbers.h"

namespace rl::hlo {

namespace {

Result<std::int64_t> dimension(const char* name, double v) { return positive_integer(name, v); }

std::string tensor(std::int64_t a, std::int64_t b, const std::string& dtype) {
  return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "x" + dtype + ">";
}

std::string tensor1(std::int64_t a, const std::string& dtype) {
  return "tensor<" + std::to_string(a) + "x" + dtype + ">";
}

Result<std::string> check_dtype(const std::string& dtype) {
  if (dtype != "f32" && dtype != "bf16" && dtype != "f16" && dtype != "f64")
    return Result<std::string>::failure("dtype must be one of f32, bf16, f16, f64, got \"" + dtype + "\"");
  return Result<std::string>::success(dtype);
}

// The header and signature JAX prints for a jitted function named `name`.
std::string module_head(const std::string& name, const std::vector<std::string>& args,
                        const std::string& result) {
  std::string out = "module @jit_" + name +
                    " attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n";
  out += "  func.func public @main(";
  for (std::size_t i = 0; i < args.size(); ++i) {
    out += (i ? ", %arg" : "%arg") + std::to_string(i) + ": " + args[i];
  }
  out += ") -> (" + result + " {jax.result_info = \"result\"}) {\n";
  return out;
}

std::string dot(const std::string& lhs, const std::string& rhs, const std::string& dims,
                const std::string& lt, const std::string& rt, const std::string& out) {
  return "stablehlo.dot_general " + lhs + ", " + rhs + ", contracting_dims = " + dims +
         ", precision = [DEFAULT, DEFAULT] : (" + lt + ", " + rt + ") -> " + out;
}

// A scalar constant as JAX prints it: dense<1.250000e-01>.
std::string scalar(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6e", v);
  return buffer;
}

}  // namespace

Result<std::string> emit_workload(double m, double k, double n, const std::string& dtype) {
  auto mm = dimension("m", m);
  if (!mm) return Result<std::string>::failure_from(mm);
  auto kk = dimension("k", k);
  if (!kk) return Result<std::string>::failure_from(kk);
  auto nn = dimension("n", n);
  if (!nn) return Result<std::string>::failure_from(nn);
  if (dtype != "f32" && dtype != "bf16" && dtype != "f16" && dtype != "f64")
    return Result<std::string>::failure("dtype must be one of f32, bf16, f16, f64, got \"" + dtype + "\"");
  const std::string a = tensor(mm.value(), kk.value(), dtype);
  const std::string b = tensor(kk.value(), nn.value(), dtype);
  const std::string c = tensor(mm.value(), nn.value(), dtype);
  std::string out;
  out += "module @jit_workload attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n";
  out += "  func.func public @main(%arg0: " + a + ", %arg1: " + b + ") -> (" + c +
         " {jax.result_info = \"result\"}) {\n";
  out += "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = "
         "[DEFAULT, DEFAULT] : (" + a + ", " + b + ") -> " + c + "\n";
  out += "    %1 = stablehlo.tanh %0 : " + c + "\n";
  out += "    return %1 : " + c + "\n";
  out += "  }\n";
  out += "}\n";
  return Result<std::string>::success(std::move(out));
}

Result<std::string> emit_mlp_layer(double batch, double d_in, double d_out, const std::string& dtype) {
  auto b = dimension("batch", batch);
  if (!b) return Result<std::string>::failure_from(b);
  auto i = dimension("d_in", d_in);
  if (!i) return Result<std::string>::failure_from(i);
  auto o = dimension("d_out", d_out);
  if (!o) return Result<std::string>::failure_from(o);
  auto t = check_dtype(dtype);
  if (!t) return t;
  const std::string x = tensor(b.value(), i.value(), dtype), w = tensor(i.value(), o.value(), dtype),
                    bias = tensor1(o.value(), dtype), y = tensor(b.value(), o.value(), dtype),
                    s = "tensor<" + dtype + ">";
  std::string out = module_head("mlp_layer", {x, w, bias}, y);
  out += "    %0 = " + dot("%arg0", "%arg1", "[1] x [0]", x, w, y) + "\n";
  out += "    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (" + bias + ") -> " + y + "\n";
  out += "    %2 = stablehlo.add %0, %1 : " + y + "\n";
  out += "    %cst = stablehlo.constant dense<0.000000e+00> : " + s + "\n";
  out += "    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (" + s + ") -> " + y + "\n";
  out += "    %4 = stablehlo.maximum %2, %3 : " + y + "\n";
  out += "    return %4 : " + y + "\n  }\n}\n";
  return Result<std::string>::success(std::move(out));
}

Result<std::string> emit_attention(double seq, double d, const std::string& dtype) {
  auto sq = dimension("seq", seq);
  if (!sq) return Result<std::string>::failure_from(sq);
  auto dd = dimension("d", d);
  if (!dd) return Result<std::string>::failure_from(dd);
  auto t = check_dtype(dtype);
  if (!t) return t;
  const std::string x = tensor(sq.value(), dd.value(), dtype), ss = tensor(sq.value(), sq.value(), dtype),
                    row = tensor1(sq.value(), dtype), s = "tensor<" + dtype + ">";
  std::string out = module_head("attention", {x, x, x}, x);
  out += "    %0 = " + dot("%arg0", "%arg1", "[1] x [1]", x, x, ss) + "\n";
  out += "    %cst = stablehlo.constant dense<" + scalar(1.0 / std::sqrt(double(dd.value()))) + "> : " + s + "\n";
  out += "    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (" + s + ") -> " + ss + "\n";
  out += "    %2 = stablehlo.multiply %0, %1 : " + ss + "\n";
  out += "    %cst_0 = stablehlo.constant dense<0xFF800000> : " + s + "\n";
  out += "    %3 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (" +
         ss + ", " + s + ") -> " + row + "\n";
  out += "    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (" + row + ") -> " + ss + "\n";
  out += "    %5 = stablehlo.subtract %2, %4 : " + ss + "\n";
  out += "    %6 = stablehlo.exponential %5 : " + ss + "\n";
  out += "    %cst_1 = stablehlo.constant dense<0.000000e+00> : " + s + "\n";
  out += "    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (" +
         ss + ", " + s + ") -> " + row + "\n";
  out += "    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (" + row + ") -> " + ss + "\n";
  out += "    %9 = stablehlo.divide %6, %8 : " + ss + "\n";
  out += "    %10 = " + dot("%9", "%arg2", "[1] x [0]", ss, x, x) + "\n";
  out += "    return %10 : " + x + "\n  }\n}\n";
  return Result<std::string>::success(std::move(out));
}

std::vector<Example> examples() {
  return {
      {"lesson", "The lesson: tanh(a @ b), a f32[32,16], b f32[16,8]", emit_workload(32, 16, 8, "f32").value()},
      {"mlp", "An MLP layer: relu(x @ w + b), x f32[128,512], w f32[512,256]", emit_mlp_layer(128, 512, 256, "f32").value()},
      {"attention", "Attention: softmax(q @ kᵀ / √d) @ v, q, k, v f32[128,64]", emit_attention(128, 64, "f32").value()},
  };
}

}  // namespace rl::hlo
