// Batch normalization (interp/ops_batch_norm.cpp): the StableHLO specification's examples for the
// three ops, batch_norm_grad checked against finite differences of batch_norm_training, XLA's HLO
// forms with their tuple results, half precision, and the cases not run.
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/float16.h"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::as_doubles;
using rl::testing::close;
using rl::testing::main_of;
using rl::testing::run_error;
using rl::testing::run_ok;

namespace {

using V = std::vector<double>;

// A dense f64 literal of `v` (17 significant digits: exact).
std::string dense(const V& v) {
  std::string s = "[";
  char buf[40];
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.17g", i ? ", " : "", v[i]);
    s += buf;
  }
  return s + "]";
}

// The spec's operand (tensor<2x2x2xf64>, feature_index 2).
const char* kSpecOperand = "[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]";

// batch_norm_training on a 3x2 f64 operand (feature_index 1): (output, mean, variance).
struct Trained {
  V y, mean, variance;
};
Trained train(const V& x, const V& scale, const V& offset, double eps) {
  const std::string t = "tensor<3x2xf64>", f = "tensor<2xf64>";
  char e[40];
  std::snprintf(e, sizeof e, "%.17g", eps);
  auto r = run_ok(main_of(
      "(" + t + ", " + f + ", " + f + ")",
      "  %x = stablehlo.constant dense<" + dense(x) + "> : tensor<6xf64>\n" +
          "  %xs = stablehlo.reshape %x : (tensor<6xf64>) -> " + t + "\n" +
          "  %s = stablehlo.constant dense<" + dense(scale) + "> : " + f + "\n" +
          "  %o = stablehlo.constant dense<" + dense(offset) + "> : " + f + "\n" +
          "  %y, %m, %v = \"stablehlo.batch_norm_training\"(%xs, %s, %o) {epsilon = " + e +
          " : f32, feature_index = 1 : i64} : (" + t + ", " + f + ", " + f + ") -> (" + t + ", " +
          f + ", " + f + ")\n" + "  return %y, %m, %v : " + t + ", " + f + ", " + f + "\n"));
  return {as_doubles(r, 0), as_doubles(r, 1), as_doubles(r, 2)};
}

}  // namespace

TEST_CASE("batch_norm_inference, _training and _grad give the StableHLO spec's examples",
          "[interp][batch_norm]") {
  const std::string x = "  %x = stablehlo.constant dense<" + std::string(kSpecOperand) +
                        "> : tensor<2x2x2xf64>\n"
                        "  %one = stablehlo.constant dense<1.0> : tensor<2xf64>\n";
  const std::string attrs = "{epsilon = 0.0 : f32, feature_index = 2 : i64}";
  SECTION("inference: scale·(x − mean)/√(variance + ε) + offset along feature_index") {
    auto r = run_ok(main_of(
        "tensor<2x2x2xf64>",
        x +
            "  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>\n"
            "  %y = \"stablehlo.batch_norm_inference\"(%x, %one, %one, %mean, %one) " +
            attrs +
            " : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>) "
            "-> tensor<2x2x2xf64>\n"
            "  return %y : tensor<2x2x2xf64>\n"));
    CHECK(as_doubles(r) == V{0, 0, 2, 2, 2, 2, 0, 0});
  }
  SECTION("training: the batch's mean and variance per feature, then inference with them") {
    auto r = run_ok(
        main_of("(tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)",
                x + "  %y, %m, %v = \"stablehlo.batch_norm_training\"(%x, %one, %one) " + attrs +
                    " : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, "
                    "tensor<2xf64>, tensor<2xf64>)\n"
                    "  return %y, %m, %v : tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>\n"));
    CHECK(as_doubles(r, 0) == V{0, 0, 2, 2, 2, 2, 0, 0});
    CHECK(as_doubles(r, 1) == V{2, 3});
    CHECK(as_doubles(r, 2) == V{1, 1});
  }
  SECTION("grad: grad_operand, grad_scale and grad_offset") {
    auto r = run_ok(
        main_of("(tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)",
                x +
                    "  %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf64>\n"
                    "  %g = stablehlo.constant dense<0.1> : tensor<2x2x2xf64>\n"
                    "  %gx, %gs, %go = \"stablehlo.batch_norm_grad\"(%x, %one, %mean, %one, %g) " +
                    attrs +
                    " : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, "
                    "tensor<2x2x2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)\n"
                    "  return %gx, %gs, %go : tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>\n"));
    CHECK(close(as_doubles(r, 0), V(8, 0.0), 1e-15));
    CHECK(close(as_doubles(r, 1), V{0, 0}, 1e-15));
    CHECK(close(as_doubles(r, 2), V{0.4, 0.4}, 1e-15));
  }
}

TEST_CASE("batch_norm_grad is the derivative of batch_norm_training (finite differences)",
          "[interp][batch_norm]") {
  // L = Σ g·y, y = batch_norm_training(x, scale, offset): with the batch's own mean and variance,
  // batch_norm_grad gives dL/dx, dL/dscale and dL/doffset.
  const V x{0.5, -1.25, 2.0, 0.75, -0.5, 3.5}, scale{1.5, -0.5}, offset{0.25, 2.0},
      g{0.3, -0.7, 1.1, 0.2, -0.4, 0.9};
  const double eps = 0.0625;
  const Trained t = train(x, scale, offset, eps);
  const std::string ty = "tensor<3x2xf64>", f = "tensor<2xf64>";
  auto r = run_ok(main_of(
      "(" + ty + ", " + f + ", " + f + ")",
      "  %x = stablehlo.constant dense<" + dense(x) + "> : tensor<6xf64>\n" +
          "  %xs = stablehlo.reshape %x : (tensor<6xf64>) -> " + ty + "\n" +
          "  %g = stablehlo.constant dense<" + dense(g) + "> : tensor<6xf64>\n" +
          "  %gs = stablehlo.reshape %g : (tensor<6xf64>) -> " + ty + "\n" +
          "  %s = stablehlo.constant dense<" + dense(scale) + "> : " + f + "\n" +
          "  %m = stablehlo.constant dense<" + dense(t.mean) + "> : " + f + "\n" +
          "  %v = stablehlo.constant dense<" + dense(t.variance) + "> : " + f + "\n" +
          "  %dx, %ds, %do = \"stablehlo.batch_norm_grad\"(%xs, %s, %m, %v, %gs) {epsilon = "
          "0.0625 : f32, feature_index = 1 : i64} : (" +
          ty + ", " + f + ", " + f + ", " + f + ", " + ty + ") -> (" + ty + ", " + f + ", " + f +
          ")\n" + "  return %dx, %ds, %do : " + ty + ", " + f + ", " + f + "\n"));
  const auto loss = [&](const V& xv, const V& sv, const V& ov) {
    const V y = train(xv, sv, ov, eps).y;
    double s = 0;
    for (std::size_t k = 0; k < y.size(); ++k) s += g[k] * y[k];
    return s;
  };
  const double h = 1e-6;
  const auto derivative = [&](V base, std::size_t k, int which) {
    V up = base, down = base;
    up[k] += h;
    down[k] -= h;
    if (which == 0) return (loss(up, scale, offset) - loss(down, scale, offset)) / (2 * h);
    if (which == 1) return (loss(x, up, offset) - loss(x, down, offset)) / (2 * h);
    return (loss(x, scale, up) - loss(x, scale, down)) / (2 * h);
  };
  V dx, ds, dof;
  for (std::size_t k = 0; k < x.size(); ++k) dx.push_back(derivative(x, k, 0));
  for (std::size_t k = 0; k < 2; ++k) ds.push_back(derivative(scale, k, 1));
  for (std::size_t k = 0; k < 2; ++k) dof.push_back(derivative(offset, k, 2));
  CHECK(close(as_doubles(r, 0), dx, 1e-7));
  CHECK(close(as_doubles(r, 1), ds, 1e-7));
  CHECK(close(as_doubles(r, 2), dof, 1e-7));
  // And the values are not all zero (the check above has something to compare).
  CHECK(std::fabs(dx[0]) > 0.01);
}

TEST_CASE("XLA's batch-norm-training gives one tuple, and half precision rounds once",
          "[interp][batch_norm]") {
  SECTION("HLO: a tuple (output, mean, variance) read with get-tuple-element") {
    auto r = run_ok(
        "HloModule m\n\nENTRY main {\n"
        "  x = f32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
        "  s = f32[2] constant({1, 2})\n"
        "  o = f32[2] constant({0, 1})\n"
        "  bn = (f32[3,2], f32[2], f32[2]) batch-norm-training(x, s, o), epsilon=0, "
        "feature_index=1\n"
        "  y = f32[3,2] get-tuple-element(bn), index=0\n"
        "  m = f32[2] get-tuple-element(bn), index=1\n"
        "  ROOT v = f32[2] get-tuple-element(bn), index=2\n"
        "}\n");
    // Each column: 1,3,5 and 2,4,6: mean 3 and 4, variance 8/3 (rounded once to f32).
    CHECK(as_doubles(r) == V{static_cast<float>(8.0 / 3), static_cast<float>(8.0 / 3)});
  }
  SECTION("f16: computed in double, each result rounded once") {
    auto r = run_ok(main_of(
        "(tensor<4x1xf16>, tensor<1xf16>)",
        "  %x = stablehlo.constant dense<[[1.0], [2.0], [3.0], [4.5]]> : tensor<4x1xf16>\n"
        "  %s = stablehlo.constant dense<[2.0]> : tensor<1xf16>\n"
        "  %o = stablehlo.constant dense<[0.5]> : tensor<1xf16>\n"
        "  %y, %m, %v = \"stablehlo.batch_norm_training\"(%x, %s, %o) {epsilon = 0.0 : f32, "
        "feature_index = 1 : i64} : (tensor<4x1xf16>, tensor<1xf16>, tensor<1xf16>) -> "
        "(tensor<4x1xf16>, tensor<1xf16>, tensor<1xf16>)\n"
        "  return %y, %v : tensor<4x1xf16>, tensor<1xf16>\n"));
    // One feature: mean 2.625, variance 1.671875; y = 2·(x − mean)/√variance + 0.5.
    const double mean = 2.625,
                 variance = (1.625 * 1.625 + 0.625 * 0.625 + 0.375 * 0.375 + 1.875 * 1.875) / 4;
    const auto f16 = [](double v) { return static_cast<double>(f16_to_f32(f64_to_f16(v))); };
    V want;
    for (double xv : {1.0, 2.0, 3.0, 4.5})
      want.push_back(f16(2 * (xv - mean) / std::sqrt(variance) + 0.5));
    CHECK(as_doubles(r, 0) == want);
    CHECK(as_doubles(r, 1) == V{f16(variance)});
  }
}

TEST_CASE("batch norm with per-feature operands of another float precision is named, not run",
          "[interp][batch_norm]") {
  // XLA's shape inference lets the per-feature operands differ in float precision; the kernel
  // computes in one element type and says so.
  const std::string e = run_error(
      "HloModule m\n\nENTRY main {\n"
      "  x = f32[2,2] constant({{1, 2}, {3, 4}})\n"
      "  s = bf16[2] constant({1, 1})\n"
      "  o = f32[2] constant({0, 0})\n"
      "  m = f32[2] constant({2, 3})\n"
      "  v = f32[2] constant({1, 1})\n"
      "  ROOT y = f32[2,2] batch-norm-inference(x, s, o, m, v), epsilon=0.001, feature_index=1\n"
      "}\n");
  CHECK(e.find("not run: batch-norm-inference") != std::string::npos);
  CHECK(e.find("operands of two element types (f32, bf16)") != std::string::npos);
}

TEST_CASE("a batch norm's epsilon must be a number", "[interp][batch_norm]") {
  const std::string e = run_error(
      "HloModule m\n\nENTRY main {\n"
      "  x = f32[2,2] constant({{1, 2}, {3, 4}})\n"
      "  s = f32[2] constant({1, 1})\n"
      "  ROOT y = f32[2,2] batch-norm-inference(x, s, s, s, s), epsilon=tiny, feature_index=1\n"
      "}\n");
  CHECK(e.find("bad epsilon of batch-norm-inference") != std::string::npos);
  CHECK(e.find("a floating-point number") != std::string::npos);
  CHECK(e.find("tiny") != std::string::npos);
}
