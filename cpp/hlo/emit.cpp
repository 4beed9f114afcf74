#include "hlo/emit.h"

#include <cmath>
#include <cstdint>

#include "common/numbers.h"

namespace rl::hlo {

namespace {

Result<std::int64_t> dimension(const char* name, double v) {
  if (!std::isfinite(v) || v < 1 || v != std::floor(v))
    return Result<std::int64_t>::failure(std::string(name) + " must be a positive integer, got " +
                                         format_number(v));
  if (v > kMaxExactInteger)
    return Result<std::int64_t>::failure(std::string(name) +
                                         " must be at most 2^53 = 9007199254740992, got " +
                                         format_number(v));
  return Result<std::int64_t>::success(static_cast<std::int64_t>(v));
}

std::string tensor(std::int64_t a, std::int64_t b, const std::string& dtype) {
  return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "x" + dtype + ">";
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

}  // namespace rl::hlo
