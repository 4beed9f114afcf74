// Fusions run as units (interp/fused.h): which ops each fusion holds (written here, with XLA's
// rule), that it ran fused or why not, and the same bits as the op-by-op run. The whole corpus
// then runs both ways.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/test_util.h"
#include "interp/interp_util.h"

using namespace rl;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using rl::testing::as_doubles;
using rl::testing::run_text;

namespace {

interp::RunOptions with_inputs(bool fuse) {
  interp::RunOptions o;
  o.inputs = interp::Inputs::Seeded;
  o.seed = 7;
  o.fuse = fuse;
  return o;
}

std::vector<std::string> bits(const interp::RunResult& r) {
  std::vector<std::string> out;
  for (const auto& s : r.results) out.push_back(s.bits);
  return out;
}

std::vector<std::string> op_names(const interp::FusionRun& f) {
  std::vector<std::string> out;
  for (const auto& o : f.ops) out.push_back(std::string(o.op));
  return out;
}

// Runs `text` fused and op by op: both pass, with the same result bits; the fused run's fusions.
std::vector<interp::FusionRun> fused_same_bits(const std::string& text) {
  auto unfused = run_text(text, with_inputs(false));
  auto fused = run_text(text, with_inputs(true));
  INFO((fused.result.errors.empty() ? std::string() : fused.result.errors.front().message));
  REQUIRE(unfused.result.status == "passed");
  REQUIRE(fused.result.status == "passed");
  CHECK(fused.result.fused);
  CHECK_FALSE(unfused.result.fused);
  CHECK(unfused.result.fusions.empty());
  CHECK(bits(fused.result) == bits(unfused.result));
  return fused.result.fusions;
}

}  // namespace

TEST_CASE(
    "a reduce with producers folds their output as it is made, a chunk of rows at a time: the "
    "op's bits, and its input never whole",
    "[interp][fused]") {
  // XLA's input fusion: the reduce is the root, its elementwise producers are evaluated inside
  // the reduction loop. Rows of 70 (the op's lane-wise sums, n >= 32) and of 20, over 300 rows:
  // several chunks of whole rows (interp's kStreamedChunk, 4096 elements); the innermost
  // dimension reduced, kept (dims = [0]: an output row combined lane by lane), and a max.
  struct Case {
    const char* dims;
    const char* body;
    const char* init;
    int cols;
    int out;
  };
  const Case cases[] = {{"[1]", "stablehlo.add", "0.0", 70, 300},
                        {"[1]", "stablehlo.add", "0.0", 20, 300},
                        {"[0]", "stablehlo.add", "0.0", 70, 70},
                        {"[1]", "stablehlo.maximum", "0xFF800000", 70, 300},
                        {"[0, 1]", "stablehlo.multiply", "1.0", 70, 0}};
  for (const Case& c : cases) {
    const std::string in = "tensor<300x" + std::to_string(c.cols) + "xf32>";
    const std::string out = c.out ? "tensor<" + std::to_string(c.out) + "xf32>" : "tensor<f32>";
    const std::string text = "func.func public @main(%x: " + in + ") -> (" + out + ", " + in +
                             ") {\n" + "  %e = stablehlo.exponential %x : " + in + "\n" +
                             "  %h = stablehlo.constant dense<0.5> : tensor<f32>\n" +
                             "  %b = stablehlo.broadcast_in_dim %h, dims = [] : (tensor<f32>) -> " +
                             in + "\n" + "  %m = stablehlo.multiply %e, %b : " + in + "\n" +
                             "  %z = stablehlo.constant dense<" + c.init + "> : tensor<f32>\n" +
                             "  %r = stablehlo.reduce(%m init: %z) applies " + c.body +
                             " across dimensions = " + c.dims + " : (" + in + ", tensor<f32>) -> " +
                             out + "\n" + "  return %r, %x : " + out + ", " + in + "\n" + "}\n";
    INFO(text);
    auto fusions = fused_same_bits(text);
    REQUIRE(fusions.size() == 1);
    CHECK(fusions[0].kind == "kInput");
    CHECK(fusions[0].fallback.empty());
    // Peak live tensors, the argument included: op by op, the producers' outputs beside it;
    // fused, one chunk of the reduce's input (at most 4096 floats) and the result.
    const auto unfused = run_text(text, with_inputs(false));
    const auto fused = run_text(text, with_inputs(true));
    const std::size_t input_bytes = 300u * static_cast<std::size_t>(c.cols) * 4u;
    const std::size_t out_bytes = static_cast<std::size_t>(std::max(c.out, 1)) * 4u;
    CHECK(unfused.result.peak_bytes >= 2 * input_bytes);
    if (c.out > 0)
      CHECK(fused.result.peak_bytes <= input_bytes + 4096 * 4 + out_bytes);
    else  // one row of 21,000, longer than a chunk: made whole, then reduced
      CHECK(fused.result.peak_bytes >= 2 * input_bytes);
    // (%x is returned too: it lives on, and no fused loop may write over it.)
  }
}

TEST_CASE(
    "the 4M-element chain's shape tanh(2x + 1) * y runs as one loop fusion with the op-by-op bits",
    "[interp][fused]") {
  // XLA's loop fusion (instruction_fusion.cc): every elementwise op, the scalar constants and
  // their broadcasts fuse into the one consumer, the multiply by y.
  const std::string text =
      "func.func public @main(%x: tensor<1000xf32>, %y: tensor<1000xf32>) -> tensor<1000xf32> {\n"
      "  %c2 = stablehlo.constant dense<2.0> : tensor<f32>\n"
      "  %c1 = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "  %b2 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<1000xf32>\n"
      "  %b1 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<1000xf32>\n"
      "  %0 = stablehlo.multiply %b2, %x : tensor<1000xf32>\n"
      "  %1 = stablehlo.add %0, %b1 : tensor<1000xf32>\n"
      "  %2 = stablehlo.tanh %1 : tensor<1000xf32>\n"
      "  %3 = stablehlo.multiply %2, %y : tensor<1000xf32>\n"
      "  return %3 : tensor<1000xf32>\n"
      "}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].kind == "kLoop");
  CHECK(fusions[0].fallback.empty());
  CHECK(op_names(fusions[0]) == std::vector<std::string>{"stablehlo.constant", "stablehlo.constant",
                                                         "stablehlo.broadcast_in_dim",
                                                         "stablehlo.broadcast_in_dim",
                                                         "stablehlo.multiply", "stablehlo.add",
                                                         "stablehlo.tanh", "stablehlo.multiply"});
  // XLA counts: 4 flops per element (multiply, add, multiply; tanh is a transcendental), bytes
  // at the boundary: x and y read once, the output written once.
  CHECK(fusions[0].flops == 3 * 1000);
  CHECK(fusions[0].transcendentals == 1000);
  CHECK(fusions[0].bytes_accessed == 3 * 1000 * 4);
  // And the values are tanh(2x + 1)·y (the fast tanh: a few ulp).
  auto ran = run_text(text, with_inputs(true));
  const auto y = as_doubles(ran.result);
  REQUIRE(y.size() == 1000);
  CHECK(std::all_of(y.begin(), y.end(),
                    [](double v) { return std::isfinite(v) && std::fabs(v) <= 1; }));
}

TEST_CASE(
    "a dot with a bias and tanh epilogue runs as one output fusion, the epilogue on the dot's "
    "output",
    "[interp][fused]") {
  // Output fusion (FuseOptions::dot_epilogues, as XLA's GPU backend and this project's kernel
  // apply tanh in the tile): the dot, the bias broadcast, the add and the tanh.
  const std::string text =
      "func.func public @main(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %bias: tensor<48xf32>) "
      "-> tensor<64x48xf32> {\n"
      "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x32xf32>, "
      "tensor<32x48xf32>) -> tensor<64x48xf32>\n"
      "  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<48xf32>) -> "
      "tensor<64x48xf32>\n"
      "  %2 = stablehlo.add %0, %1 : tensor<64x48xf32>\n"
      "  %3 = stablehlo.tanh %2 : tensor<64x48xf32>\n"
      "  return %3 : tensor<64x48xf32>\n"
      "}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].kind == "kOutput");
  CHECK(fusions[0].fallback.empty());
  CHECK(op_names(fusions[0]) == std::vector<std::string>{"stablehlo.dot_general",
                                                         "stablehlo.broadcast_in_dim",
                                                         "stablehlo.add", "stablehlo.tanh"});
}

TEST_CASE("a reduce of exp(x) * x runs as one input fusion with the op-by-op bits",
          "[interp][fused]") {
  // Input fusion: the reduce is the root, its elementwise producers fuse into it, the init
  // constant too (a scalar constant).
  const std::string text =
      "func.func public @main(%x: tensor<16x100xf32>) -> tensor<16xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %0 = stablehlo.exponential %x : tensor<16x100xf32>\n"
      "  %1 = stablehlo.multiply %0, %x : tensor<16x100xf32>\n"
      "  %2 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [1] : "
      "(tensor<16x100xf32>, tensor<f32>) -> tensor<16xf32>\n"
      "  return %2 : tensor<16xf32>\n"
      "}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].kind == "kInput");
  CHECK(fusions[0].fallback.empty());
  CHECK(op_names(fusions[0]) == std::vector<std::string>{"stablehlo.constant",
                                                         "stablehlo.exponential",
                                                         "stablehlo.multiply", "stablehlo.reduce"});
}

TEST_CASE("a compare and select with a broadcast operand run in the fused loop",
          "[interp][fused]") {
  // relu-like: max by select, a [4] row broadcast over [3, 4] read through its index map.
  const std::string text =
      "func.func public @main(%x: tensor<3x4xf32>, %r: tensor<4xf32>) -> tensor<12xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<3x4xf32>\n"
      "  %rb = stablehlo.broadcast_in_dim %r, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>\n"
      "  %0 = stablehlo.add %x, %rb : tensor<3x4xf32>\n"
      "  %p = stablehlo.compare GT, %0, %zb, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> "
      "tensor<3x4xi1>\n"
      "  %1 = stablehlo.select %p, %0, %zb : tensor<3x4xi1>, tensor<3x4xf32>\n"
      "  %2 = stablehlo.reshape %1 : (tensor<3x4xf32>) -> tensor<12xf32>\n"
      "  return %2 : tensor<12xf32>\n"
      "}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].kind == "kLoop");
  CHECK(fusions[0].fallback.empty());
  CHECK(op_names(fusions[0]) ==
        std::vector<std::string>{"stablehlo.constant", "stablehlo.broadcast_in_dim",
                                 "stablehlo.broadcast_in_dim", "stablehlo.add", "stablehlo.compare",
                                 "stablehlo.select", "stablehlo.reshape"});
  auto ran = run_text(text, with_inputs(true));
  auto in = run_text(
      "func.func public @main(%x: tensor<3x4xf32>, %r: tensor<4xf32>) -> (tensor<3x4xf32>, "
      "tensor<4xf32>) {\n"
      "  return %x, %r : tensor<3x4xf32>, tensor<4xf32>\n"
      "}\n",
      with_inputs(false));
  const auto x = as_doubles(in.result, 0), r = as_doubles(in.result, 1), y = as_doubles(ran.result);
  REQUIRE(y.size() == 12);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      const float s = static_cast<float>(x[i * 4 + j]) + static_cast<float>(r[j]);
      CHECK(y[i * 4 + j] == (s > 0 ? s : 0.0f));
    }
}

TEST_CASE("a fusion outside the fused loop's types runs op by op inside the fusion and says why",
          "[interp][fused]") {
  const std::string text =
      "func.func public @main(%x: tensor<100xf64>, %y: tensor<100xf64>) -> tensor<100xf64> {\n"
      "  %0 = stablehlo.multiply %x, %y : tensor<100xf64>\n"
      "  %1 = stablehlo.add %0, %x : tensor<100xf64>\n"
      "  %2 = stablehlo.tanh %1 : tensor<100xf64>\n"
      "  return %2 : tensor<100xf64>\n"
      "}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].kind == "kLoop");
  CHECK(fusions[0].ops.size() == 3);
  CHECK_THAT(fusions[0].fallback, Contains("f64"));
}

TEST_CASE("a value a fusion reads stays alive past its last op-by-op use until the fusion's root",
          "[interp][fused]") {
  // x's last use in program order is the barrier; the fusion (add, multiply) reads it at its
  // root, after the barrier: the liveness moves x's release there.
  const std::string text =
      "func.func public @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, "
      "tensor<64xf32>) {\n"
      "  %0 = stablehlo.add %x, %y : tensor<64xf32>\n"
      "  %1 = stablehlo.optimization_barrier %x : tensor<64xf32>\n"
      "  %2 = stablehlo.multiply %0, %0 : tensor<64xf32>\n"
      "  return %2, %1 : tensor<64xf32>, tensor<64xf32>\n"
      "}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(op_names(fusions[0]) == std::vector<std::string>{"stablehlo.add", "stablehlo.multiply"});
  CHECK(fusions[0].fallback.empty());
}

TEST_CASE("a broadcast copied into a fusion and read by a while body is computed for the body too",
          "[interp][fused]") {
  // %b is copied into the multiply's fusion (a broadcast of a scalar constant); its own fusion
  // (the broadcast and the constant) dissolves; the while body reads %b without it being passed
  // in (StableHLO's regions see their enclosing values). It must still be computed on its own.
  const std::string text =
      "func.func public @main(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {\n"
      "  %h = stablehlo.constant dense<0.5> : tensor<f32>\n"
      "  %b = stablehlo.broadcast_in_dim %h, dims = [] : (tensor<f32>) -> tensor<64xf32>\n"
      "  %m = stablehlo.multiply %x, %b : tensor<64xf32>\n"
      "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %c0, %v = %m) : tensor<i32>, tensor<64xf32>\n"
      "   cond {\n"
      "    %n = stablehlo.constant dense<2> : tensor<i32>\n"
      "    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %v2 = stablehlo.add %v, %b : tensor<64xf32>\n"
      "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
      "    stablehlo.return %i2, %v2 : tensor<i32>, tensor<64xf32>\n"
      "  }\n"
      "  return %r#1, %m : tensor<64xf32>, tensor<64xf32>\n"
      "}\n";
  fused_same_bits(text);
  // The broadcast is copied into the multiply's fusion, and runs alone too: the body reads it.
  auto parsed = hlo::parse(text);
  REQUIRE(parsed.ok());
  auto fm = hlo::fuse_module(parsed->front());
  REQUIRE(fm.ok());
  REQUIRE(fm->fusions.size() == 1);
  CHECK(fm->fusions[0].ops.size() == 3);  // the constant, the broadcast and the multiply
}

TEST_CASE("fusions inside a while body run fused with the op-by-op bits", "[interp][fused]") {
  const std::string text =
      "func.func public @main(%x: tensor<256xf32>) -> tensor<256xf32> {\n"
      "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<256xf32>\n"
      "   cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %h = stablehlo.constant dense<0.5> : tensor<f32>\n"
      "    %hb = stablehlo.broadcast_in_dim %h, dims = [] : (tensor<f32>) -> tensor<256xf32>\n"
      "    %t = stablehlo.tanh %v : tensor<256xf32>\n"
      "    %v2 = stablehlo.multiply %t, %hb : tensor<256xf32>\n"
      "    %i2 = stablehlo.add %i, %one : tensor<i32>\n"
      "    stablehlo.return %i2, %v2 : tensor<i32>, tensor<256xf32>\n"
      "  }\n"
      "  return %r#1 : tensor<256xf32>\n"
      "}\n";
  fused_same_bits(text);
  // The body's fusion (tanh, the broadcast constant, multiply) is planned and runs fused.
  auto parsed = hlo::parse(text);
  REQUIRE(parsed.ok());
  auto fm = hlo::fuse_module(parsed->front());
  REQUIRE(fm.ok());
  REQUIRE(fm->fusions.size() == 1);
  CHECK(fm->fusions[0].ops.size() == 4);
}

TEST_CASE(
    "StableHLO's interpreter tests give the same result bits fused and op by op, and pass their "
    "checks fused",
    "[interp][corpus][fused]") {
  SKIP_WITHOUT_CORPUS("stablehlo-interpret");
  int files = 0, modules = 0, compared = 0, fusions = 0, fused_fusions = 0;
  std::map<std::string, int> fallbacks;  // why → fusions
  std::string differences;
  const auto t0 = std::chrono::steady_clock::now();
  for (const char* sub : {"stablehlo", "stablehlo-interpret"}) {
    const std::string dir = rl::testing::corpus_dir() + "/" + sub;
    for (const auto& name : rl::testing::list_files(dir, ".mlir")) {
      ++files;
      auto mods = hlo::parse(rl::testing::read_file(dir + "/" + name));
      if (!mods.ok()) continue;
      for (const auto& m : mods.value()) {
        auto program = hlo::lower(m);
        if (!program.ok()) continue;
        ++modules;
        interp::RunOptions plain, fuse;
        fuse.fuse = true;
        const interp::RunResult a = interp::run_program(program.value(), plain);
        if (a.status == "not_run") continue;
        const interp::RunResult b = interp::run_program(program.value(), fuse);
        ++compared;
        for (const auto& f : b.fusions) {
          ++fusions;
          if (f.fallback.empty())
            ++fused_fusions;
          else
            ++fallbacks[f.fallback.substr(0, f.fallback.find(" ("))];
        }
        std::string why;
        if (a.status != b.status)
          why = "status " + a.status + " op by op, " + b.status + " fused";
        else if (bits(a) != bits(b))
          why = "result bits differ";
        for (std::size_t i = 0; why.empty() && i < a.checks.size() && i < b.checks.size(); ++i)
          if (a.checks[i].passed != b.checks[i].passed)
            why = "check at line " + std::to_string(a.checks[i].line) + " differs";
        if (!why.empty()) {
          differences += std::string(sub) + "/" + name + ": " + why;
          if (!b.errors.empty()) differences += ": " + b.errors.front().message;
          differences += "\n";
        }
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<std::pair<int, std::string>> ranked;
  for (const auto& [w, n] : fallbacks) ranked.emplace_back(n, w);
  std::sort(ranked.rbegin(), ranked.rend());
  std::ostringstream report;
  report << files << " files, " << modules << " modules, " << compared << " run both ways in "
         << seconds << " s; " << fusions << " fusions in entry functions, " << fused_fusions
         << " ran fused; op by op inside the fusion, by reason:\n";
  for (std::size_t i = 0; i < ranked.size() && i < 12; ++i)
    report << "  " << ranked[i].first << "  " << ranked[i].second << "\n";
  WARN(report.str());
  INFO(differences);
  CHECK(differences.empty());
  REQUIRE(compared > 0);
  CHECK(fused_fusions > 0);
}

// ---- the loop's vocabulary beyond f32: each program runs as one fusion, in the loop (no
// fallback), with the op-by-op bits.

namespace {
// One fusion that ran in the loop; its op names.
std::vector<std::string> one_loop_fusion(const std::string& text) {
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  INFO(fusions[0].fallback);
  CHECK(fusions[0].fallback.empty());
  return op_names(fusions[0]);
}
}  // namespace

TEST_CASE(
    "iota, s32 arithmetic, compare and select, and converts between s32 and f32 run in the fused "
    "loop",
    "[interp][fused]") {
  // XLA's loop fusion takes iota and converts like any elementwise op (instruction_fusion.cc:
  // IsExpensive is false for them).
  const std::string text =
      "func.func public @main(%x: tensor<6x40xi32>, %y: tensor<6x40xf32>) -> tensor<6x40xf32> {\n"
      "  %i = stablehlo.iota dim = 1 : tensor<6x40xi32>\n"
      "  %j = stablehlo.iota dim = 0 : tensor<6x40xf32>\n"
      "  %c = stablehlo.constant dense<-7> : tensor<i32>\n"
      "  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x40xi32>\n"
      "  %0 = stablehlo.multiply %x, %i : tensor<6x40xi32>\n"
      "  %1 = stablehlo.add %0, %cb : tensor<6x40xi32>\n"
      "  %2 = stablehlo.xor %1, %x : tensor<6x40xi32>\n"
      "  %3 = stablehlo.maximum %2, %cb : tensor<6x40xi32>\n"
      "  %4 = stablehlo.negate %3 : tensor<6x40xi32>\n"
      "  %p = stablehlo.compare LT, %4, %i, SIGNED : (tensor<6x40xi32>, tensor<6x40xi32>) -> "
      "tensor<6x40xi1>\n"
      "  %f = stablehlo.convert %4 : (tensor<6x40xi32>) -> tensor<6x40xf32>\n"
      "  %g = stablehlo.multiply %y, %j : tensor<6x40xf32>\n"
      "  %h = stablehlo.select %p, %f, %g : tensor<6x40xi1>, tensor<6x40xf32>\n"
      "  return %h : tensor<6x40xf32>\n"
      "}\n";
  const auto ops = one_loop_fusion(text);
  CHECK(ops.size() == 13);
  // And the values, by hand at a few elements (x and y as the run generated them).
  auto in = run_text(
      "func.func public @main(%x: tensor<6x40xi32>, %y: tensor<6x40xf32>) -> (tensor<6x40xi32>, "
      "tensor<6x40xf32>) {\n"
      "  return %x, %y : tensor<6x40xi32>, tensor<6x40xf32>\n"
      "}\n",
      with_inputs(false));
  auto ran = run_text(text, with_inputs(true));
  const auto x = as_doubles(in.result, 0), y = as_doubles(in.result, 1), h = as_doubles(ran.result);
  REQUIRE(h.size() == 240);
  for (int e : {0, 1, 39, 41, 200, 239}) {
    const auto xi = static_cast<std::int32_t>(x[e]);
    const std::int32_t i = e % 40, j = e / 40;
    const std::int32_t v4 =
        -std::max(static_cast<std::int32_t>(
                      static_cast<std::uint32_t>(xi) * static_cast<std::uint32_t>(i) - 7u) ^
                      xi,
                  -7);
    const double want = v4 < i
                            ? static_cast<double>(static_cast<float>(v4))
                            : static_cast<double>(static_cast<float>(y[e]) * static_cast<float>(j));
    CHECK(h[e] == want);
  }
}

TEST_CASE(
    "f16 and bf16 chains run in the fused loop through f32, rounded after each op as the ops alone "
    "round",
    "[interp][fused]") {
  for (const std::string ty : {"f16", "bf16"}) {
    INFO(ty);
    const std::string T = "tensor<300x" + ty + ">";
    const std::string text = "func.func public @main(%x: " + T + ", %y: " + T + ") -> " + T +
                             " {\n"
                             "  %c = stablehlo.constant dense<0.3> : tensor<" +
                             ty +
                             ">\n"
                             "  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<" +
                             ty + ">) -> " + T +
                             "\n"
                             "  %0 = stablehlo.multiply %x, %cb : " +
                             T +
                             "\n"
                             "  %1 = stablehlo.add %0, %y : " +
                             T +
                             "\n"
                             "  %2 = stablehlo.tanh %1 : " +
                             T +
                             "\n"
                             "  %3 = stablehlo.exponential %2 : " +
                             T +
                             "\n"
                             "  %4 = stablehlo.divide %3, %x : " +
                             T +
                             "\n"
                             "  %5 = stablehlo.abs %4 : " +
                             T +
                             "\n"
                             "  return %5 : " +
                             T +
                             "\n"
                             "}\n";
    CHECK(one_loop_fusion(text).size() == 8);
  }
  // Converts between the float types and s32 (rounded once from the exact value).
  const std::string conv =
      "func.func public @main(%x: tensor<200xf32>, %k: tensor<200xi32>) -> tensor<200xbf16> {\n"
      "  %s = stablehlo.constant dense<1000.5> : tensor<f32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<200xf32>\n"
      "  %0 = stablehlo.multiply %x, %sb : tensor<200xf32>\n"
      "  %1 = stablehlo.convert %0 : (tensor<200xf32>) -> tensor<200xf16>\n"
      "  %2 = stablehlo.convert %k : (tensor<200xi32>) -> tensor<200xf16>\n"
      "  %3 = stablehlo.add %1, %2 : tensor<200xf16>\n"
      "  %4 = stablehlo.convert %3 : (tensor<200xf16>) -> tensor<200xi32>\n"
      "  %5 = stablehlo.convert %4 : (tensor<200xi32>) -> tensor<200xf32>\n"
      "  %6 = stablehlo.convert %5 : (tensor<200xf32>) -> tensor<200xbf16>\n"
      "  return %6 : tensor<200xbf16>\n"
      "}\n";
  CHECK(one_loop_fusion(conv).size() == 9);
}

TEST_CASE("slices and transposes of parameters are read in the fused loop through their index maps",
          "[interp][fused]") {
  // XLA fuses slices and transposes into their consumers as loop fusions read them (an index
  // map on the parameter): no sliced or transposed tensor is made.
  const std::string text =
      "func.func public @main(%x: tensor<8x12xf32>, %y: tensor<12x8xf32>, %r: tensor<3xf32>) -> "
      "tensor<3x5xf32> {\n"
      "  %a = stablehlo.slice %x [2:8:2, 1:11:2] : (tensor<8x12xf32>) -> tensor<3x5xf32>\n"
      "  %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<12x8xf32>) -> tensor<8x12xf32>\n"
      "  %b = stablehlo.slice %t [1:4, 3:8] : (tensor<8x12xf32>) -> tensor<3x5xf32>\n"
      "  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<3xf32>) -> tensor<3x5xf32>\n"
      "  %0 = stablehlo.multiply %a, %b : tensor<3x5xf32>\n"
      "  %1 = stablehlo.subtract %0, %rb : tensor<3x5xf32>\n"
      "  return %1 : tensor<3x5xf32>\n"
      "}\n";
  CHECK(one_loop_fusion(text).size() == 6);
  auto in = run_text(
      "func.func public @main(%x: tensor<8x12xf32>, %y: tensor<12x8xf32>, %r: tensor<3xf32>) -> "
      "(tensor<8x12xf32>, tensor<12x8xf32>, tensor<3xf32>) {\n"
      "  return %x, %y, %r : tensor<8x12xf32>, tensor<12x8xf32>, tensor<3xf32>\n"
      "}\n",
      with_inputs(false));
  auto ran = run_text(text, with_inputs(true));
  const auto x = as_doubles(in.result, 0), y = as_doubles(in.result, 1),
             r = as_doubles(in.result, 2), out = as_doubles(ran.result);
  REQUIRE(out.size() == 15);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) {
      const float a = static_cast<float>(x[(2 + 2 * i) * 12 + (1 + 2 * j)]);
      const float b = static_cast<float>(
          y[(3 + j) * 8 + (1 + i)]);  // t[i'][j'] = y[j'][i'], i' = 1 + i, j' = 3 + j
      CHECK(out[i * 5 + j] == static_cast<double>(a * b - static_cast<float>(r[i])));
    }
}

TEST_CASE(
    "u32 arithmetic, shifts and unsigned compares (a threefry round's shape) run in the fused loop",
    "[interp][fused]") {
  // JAX's threefry: adds, rotations by shifts and ors, xors on u32; all elementwise, one loop
  // fusion.
  const std::string fixed =
      "func.func public @main(%x: tensor<2x64xui32>, %k: tensor<2x64xui32>) -> tensor<2x64xf32> {\n"
      "  %r = stablehlo.constant dense<13> : tensor<ui32>\n"
      "  %q = stablehlo.constant dense<19> : tensor<i32>\n"
      "  %big = stablehlo.constant dense<40> : tensor<ui32>\n"
      "  %rb = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<ui32>) -> tensor<2x64xui32>\n"
      "  %qb = stablehlo.broadcast_in_dim %q, dims = [] : (tensor<i32>) -> tensor<2x64xi32>\n"
      "  %qu = stablehlo.convert %qb : (tensor<2x64xi32>) -> tensor<2x64xui32>\n"
      "  %bb = stablehlo.broadcast_in_dim %big, dims = [] : (tensor<ui32>) -> tensor<2x64xui32>\n"
      "  %0 = stablehlo.add %x, %k : tensor<2x64xui32>\n"
      "  %1 = stablehlo.shift_left %0, %rb : tensor<2x64xui32>\n"
      "  %2 = stablehlo.shift_right_logical %0, %qu : tensor<2x64xui32>\n"
      "  %3 = stablehlo.or %1, %2 : tensor<2x64xui32>\n"
      "  %4 = stablehlo.xor %3, %k : tensor<2x64xui32>\n"
      "  %5 = stablehlo.shift_left %4, %bb : tensor<2x64xui32>\n"
      "  %6 = stablehlo.maximum %4, %5 : tensor<2x64xui32>\n"
      "  %p = stablehlo.compare GT, %6, %x, UNSIGNED : (tensor<2x64xui32>, tensor<2x64xui32>) -> "
      "tensor<2x64xi1>\n"
      "  %s = stablehlo.convert %6 : (tensor<2x64xui32>) -> tensor<2x64xi32>\n"
      "  %a = stablehlo.shift_right_arithmetic %s, %qb : tensor<2x64xi32>\n"
      "  %m = stablehlo.minimum %a, %s : tensor<2x64xi32>\n"
      "  %f = stablehlo.convert %m : (tensor<2x64xi32>) -> tensor<2x64xf32>\n"
      "  %g = stablehlo.convert %6 : (tensor<2x64xui32>) -> tensor<2x64xf32>\n"
      "  %h = stablehlo.select %p, %f, %g : tensor<2x64xi1>, tensor<2x64xf32>\n"
      "  return %h : tensor<2x64xf32>\n"
      "}\n";
  CHECK(one_loop_fusion(fixed).size() == 21);
}

TEST_CASE("a fusion's output never overwrites a parameter it also reads through an index map",
          "[interp][fused]") {
  // x + transpose(x) over more than one block: x dies at the fusion and nothing else holds it, so
  // the output could take x's buffer — but block 1 of the transpose reads x where block 0 of the
  // output would already have been written. The fused run must give the op-by-op bits.
  const std::string text =
      "func.func public @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
      "  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>\n"
      "  %y = stablehlo.add %x, %t : tensor<64x64xf32>\n"
      "  return %y : tensor<64x64xf32>\n"
      "}\n";
  const auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].fallback.empty());
  // And a parameter read only elementwise, which the output may overwrite: x + x·x, the same
  // bits as op by op.
  fused_same_bits(
      "func.func public @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
      "  %s = stablehlo.multiply %x, %x : tensor<64x64xf32>\n"
      "  %y = stablehlo.add %x, %s : tensor<64x64xf32>\n"
      "  return %y : tensor<64x64xf32>\n"
      "}\n");
}

TEST_CASE(
    "a call is inlined before the run fuses: relu's maximum runs in the dot's fusion, with the "
    "op-by-op bits, and a while body's call too",
    "[interp][fused]") {
  const std::string layer = R"(module @jit_layer {
  func.func public @main(%arg0: tensor<32x64xf32>, %arg1: tensor<64x16xf32>, %arg2: tensor<16xf32>) -> tensor<32x16xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<32x16xf32>
    %2 = stablehlo.add %0, %1 : tensor<32x16xf32>
    %3 = call @relu(%2) : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %4 = call @relu(%3) : (tensor<32x16xf32>) -> tensor<32x16xf32>
    return %4 : tensor<32x16xf32>
  }
  func.func private @relu(%arg0: tensor<32x16xf32>) -> tensor<32x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x16xf32>
    return %1 : tensor<32x16xf32>
  }
})";
  auto fusions = fused_same_bits(layer);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].fallback.empty());
  const auto names = op_names(fusions[0]);
  CHECK(std::count(names.begin(), names.end(), "stablehlo.maximum") == 2);
  CHECK(names.front() == "stablehlo.dot_general");

  const std::string loop = R"(module @loop {
  func.func public @main(%x: tensor<256xf32>) -> tensor<256xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<256xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %t = call @step(%v) : (tensor<256xf32>) -> tensor<256xf32>
      %i2 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %i2, %t : tensor<i32>, tensor<256xf32>
    }
    return %r#1 : tensor<256xf32>
  }
  func.func private @step(%v: tensor<256xf32>) -> tensor<256xf32> {
    %t = stablehlo.tanh %v : tensor<256xf32>
    %w = stablehlo.multiply %t, %v : tensor<256xf32>
    return %w : tensor<256xf32>
  }
})";
  auto in_loop = fused_same_bits(loop);
  REQUIRE(in_loop.size() == 1);
  CHECK(op_names(in_loop[0]) == std::vector<std::string>{"stablehlo.tanh", "stablehlo.multiply"});
  CHECK(in_loop[0].within_op == "stablehlo.while");
}

TEST_CASE(
    "calls that double at every level: 4095 inlined, the long fusion runs its ops one by one and "
    "says why, with the op-by-op bits",
    "[interp][fused]") {
  // @f1 calls @f2 twice, @f2 calls @f3 twice... @f12 is one sine: 2048 sines in a chain.
  std::string text =
      "module @dbl {\n  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = call @f1(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    return %0 : tensor<4xf32>\n  }\n";
  for (int i = 1; i < 12; ++i) {
    const std::string next = "@f" + std::to_string(i + 1);
    text += "  func.func private @f" + std::to_string(i) +
            "(%x: tensor<4xf32>) -> tensor<4xf32> {\n    %0 = call " + next +
            "(%x) : (tensor<4xf32>) -> tensor<4xf32>\n    %1 = call " + next +
            "(%0) : (tensor<4xf32>) -> tensor<4xf32>\n    return %1 : tensor<4xf32>\n  }\n";
  }
  text +=
      "  func.func private @f12(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = stablehlo.sine %x : tensor<4xf32>\n    return %0 : tensor<4xf32>\n  }\n}\n";
  auto fusions = fused_same_bits(text);
  REQUIRE(fusions.size() == 1);
  CHECK(fusions[0].ops.size() == 2048);
  CHECK_THAT(fusions[0].fallback, Contains("a fusion of 2048 ops, more than the fused loop takes"));
}

TEST_CASE("HLO ops that read each other's values are refused up front, fused as op by op",
          "[interp][fused]") {
  // HLO text may name an operand before it is made; %c and %d read each other.
  for (const char* call :
       {"  %c = f32[8] call(f32[8] %d), to_apply=%f\n", "  %c = f32[8] negate(f32[8] %d)\n"}) {
    const std::string text = std::string(
                                 "HloModule cy\n\n%f (p: f32[8]) -> f32[8] {\n"
                                 "  %p = f32[8] parameter(0)\n"
                                 "  ROOT %n = f32[8] negate(f32[8] %p)\n}\n\n"
                                 "ENTRY %main (a: f32[8]) -> f32[8] {\n"
                                 "  %a = f32[8] parameter(0)\n") +
                             call +
                             "  %d = f32[8] add(f32[8] %a, f32[8] %c)\n"
                             "  ROOT %r = f32[8] negate(f32[8] %d)\n}\n";
    INFO(text);
    for (bool fuse : {false, true}) {
      auto ran = run_text(text, with_inputs(fuse));
      CHECK(ran.result.status == "not_run");
      REQUIRE(ran.result.unsupported.size() == 1);
      CHECK(ran.result.unsupported[0].line == 10);  // %c, the first to read a later value
      CHECK_THAT(ran.result.unsupported[0].why,
                 StartsWith("its operand %d is defined below it, at line 11: a run computes "
                            "instructions in the order written"));
    }
  }
}

TEST_CASE("an HLO operand defined on a later line is named before a run, and written in order runs",
          "[interp][fused]") {
  // No cycle: %b reads %c, written below it. The analysis reads it (hlo_parse_test); a run
  // names the op and its operand's line instead of failing midway.
  const std::string later =
      "HloModule later\n\nENTRY %main (a: f32[4]) -> f32[4] {\n"
      "  %a = f32[4] parameter(0)\n"
      "  ROOT %b = f32[4] negate(f32[4] %c)\n"
      "  %c = f32[4] add(f32[4] %a, f32[4] %a)\n}\n";
  const std::string in_order =
      "HloModule later\n\nENTRY %main (a: f32[4]) -> f32[4] {\n"
      "  %a = f32[4] parameter(0)\n"
      "  %c = f32[4] add(f32[4] %a, f32[4] %a)\n"
      "  ROOT %b = f32[4] negate(f32[4] %c)\n}\n";
  for (bool fuse : {false, true}) {
    INFO("fuse " << fuse);
    auto ran = run_text(later, with_inputs(fuse));
    CHECK(ran.result.status == "not_run");
    REQUIRE(ran.result.unsupported.size() == 1);
    CHECK(ran.result.unsupported[0].op == "negate");
    CHECK(ran.result.unsupported[0].line == 5);
    CHECK(ran.result.unsupported[0].why.rfind("its operand %c is defined below it, at line 6", 0) ==
          0);
    auto ok = run_text(in_order, with_inputs(fuse));
    CHECK(ok.result.status == "passed");
  }
}

// A helper called twice whose one op cannot run (a custom_call).
const char* const kCustomCallTwice = R"(module @u {
  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = call @f(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
})";

TEST_CASE("a fused run names an op it cannot run once, not once per inlined copy",
          "[interp][fused]") {
  const std::string text = kCustomCallTwice;
  for (bool fuse : {false, true}) {
    auto ran = run_text(text, with_inputs(fuse));
    CHECK(ran.result.status == "not_run");
    CHECK(ran.result.unsupported.size() == 1);
  }
}

TEST_CASE("run_module runs what run_program runs, lowering only the module that runs",
          "[interp][fused]") {
  // Two calls of a helper with a constant: fused, the inlined copy runs (its constants are the
  // only ones decoded); op by op, the module as written. Same bits, same fusions as run_program.
  const std::string text = R"(module @m {
  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = call @f(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %0 = stablehlo.multiply %x, %c : tensor<4xf32>
    %1 = stablehlo.tanh %0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
})";
  for (bool fuse : {false, true}) {
    INFO("fuse " << fuse);
    const auto by_program = run_text(text, with_inputs(fuse));
    auto parsed = hlo::parse(text);
    REQUIRE(parsed.ok());
    const auto by_module = interp::run_module(parsed->front(), with_inputs(fuse));
    CHECK(by_module.status == "passed");
    CHECK(by_module.status == by_program.result.status);
    CHECK(by_module.fused == fuse);
    CHECK(by_module.fusions.size() == by_program.result.fusions.size());
    REQUIRE(by_module.values.size() == 1);
    CHECK(as_doubles(by_module) == as_doubles(by_program.result));
  }
  // What cannot run is named once per op written, and a module that does not verify is refused.
  auto u = hlo::parse(kCustomCallTwice);
  REQUIRE(u.ok());
  const auto not_run = interp::run_module(u->front(), with_inputs(true));
  CHECK(not_run.status == "not_run");
  CHECK(not_run.unsupported.size() == 1);
  auto bad = hlo::parse(
      "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n}\n");
  REQUIRE(bad.ok());
  const auto refused = interp::run_module(bad->front(), with_inputs(true));
  CHECK(refused.status == "error");
  REQUIRE(refused.errors.size() == 1);
  CHECK(refused.errors[0].line == 2);
}
