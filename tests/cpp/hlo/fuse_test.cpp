// The fusion pass on small programs whose right grouping is written here, with the XLA rule that
// makes it so; the fused costs counted as XLA's HloCostAnalysis counts a fusion; the corpus.
#include "hlo/fuse.h"

#include <set>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/emit.h"
#include "hlo/parse.h"
#include "hlo/report.h"
#include "hlo/test_util.h"
#include "hlo/verify.h"

using namespace rl::hlo;

namespace {

struct Fused {
  std::vector<Module> modules;  // kept alive: the fusions' op names are views into them
  FusedModule f;
};

Fused fuse(const std::string& text, FuseOptions options = FuseOptions()) {
  Fused out;
  auto m = parse(text);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  REQUIRE(m->size() == 1);
  out.modules = std::move(m.value());
  auto v = verify(out.modules[0]);
  INFO((v.ok() ? std::string() : v.error()));
  REQUIRE(v.ok());
  auto r = fuse_module(out.modules[0], options);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  out.f = std::move(r.value());
  return out;
}

// A fusion's ops as "line:op" ("3:stablehlo.dot_general"), in order.
std::vector<std::string> ops_of(const Fusion& f) {
  std::vector<std::string> out;
  for (const auto& o : f.ops) out.push_back(std::to_string(o.line) + ":" + std::string(o.op));
  return out;
}

using Ops = std::vector<std::string>;

}  // namespace

TEST_CASE(
    "the lesson's tanh(dot) is one output fusion, and its fused bytes leave out the 32x8 "
    "intermediate",
    "[hlo][fuse]") {
  // dot_epilogues (the default): the dot takes its elementwise epilogue, as XLA GPU's cuBLASLt
  // epilogues and Triton GEMM fusions do and as this project's kernel applies tanh in its tile.
  Fused x = fuse(emit_workload(32, 16, 8, "f32").value());
  REQUIRE(x.f.fusions.size() == 1);
  const Fusion& f = x.f.fusions[0];
  CHECK(f.kind == FusionKind::Output);
  CHECK(f.kind_name == "kOutput");
  CHECK(ops_of(f) == Ops{"3:stablehlo.dot_general", "4:stablehlo.tanh"});
  CHECK(f.flops == 2 * 32 * 8 * 16);
  CHECK(f.transcendentals == 32 * 8);
  // Parameters read once (A 2048 + B 512), the output written once (1024): 3584, the minimum
  // traffic.
  CHECK(f.bytes_accessed == 2048 + 512 + 1024);
  CHECK(f.unfused_bytes_accessed == 5632);
  CHECK(x.f.analysis.bytes_accessed == 3584);
  CHECK(x.f.analysis.unfused_bytes_accessed == 5632);
  CHECK(x.f.analysis.flops == 8192);
  CHECK(x.f.analysis.transcendentals == 256);
}

TEST_CASE("XLA CPU's own rule leaves the lesson's matrix-matrix dot unfused", "[hlo][fuse]") {
  // cpu_instruction_fusion.cc: CanBeOutputFused needs consumer kAdd and a dot whose result has
  // rank <= 1 (matrix-vector) without batch dimensions; a dot is never a loop-fusible producer
  // (CanBeLoopFused) and IsExpensive(kDot). tanh(dot 32x16x8) stays two ops: no fusion.
  FuseOptions cpu;
  cpu.dot_epilogues = false;
  Fused x = fuse(emit_workload(32, 16, 8, "f32").value(), cpu);
  CHECK(x.f.fusions.empty());
  CHECK(x.f.analysis.bytes_accessed == 5632);
  CHECK(x.f.analysis.unfused_bytes_accessed == 5632);
}

TEST_CASE("XLA CPU output-fuses an add into a matrix-vector dot", "[hlo][fuse]") {
  const std::string text = R"(module @mv {
  func.func public @main(%a: tensor<16x8xf32>, %x: tensor<8xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
    %0 = stablehlo.dot_general %a, %x, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16xf32>
    %1 = stablehlo.add %0, %b : tensor<16xf32>
    return %1 : tensor<16xf32>
  }
})";
  FuseOptions cpu;
  cpu.dot_epilogues = false;
  Fused x = fuse(text, cpu);
  REQUIRE(x.f.fusions.size() == 1);
  CHECK(x.f.fusions[0].kind == FusionKind::Output);
  CHECK(ops_of(x.f.fusions[0]) == Ops{"3:stablehlo.dot_general", "4:stablehlo.add"});
  // a 512 + x 32 + b 64 read, 64 written.
  CHECK(x.f.fusions[0].bytes_accessed == 512 + 32 + 64 + 64);
}

TEST_CASE("the elementwise chain tanh(2x+1)*y is one loop fusion", "[hlo][fuse]") {
  // CanBeLoopFused: elementwise ops and broadcasts; the broadcast constants are duplicable
  // (IsAlwaysDuplicable), the scalar constants fuse ("Don't fuse non-scalar constants" only).
  const std::string text = R"(module @chain {
  func.func public @main(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
    %c2 = stablehlo.constant dense<2.0> : tensor<f32>
    %c1 = stablehlo.constant dense<1.0> : tensor<f32>
    %b2 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %b1 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %0 = stablehlo.multiply %b2, %x : tensor<1024xf32>
    %1 = stablehlo.add %0, %b1 : tensor<1024xf32>
    %2 = stablehlo.tanh %1 : tensor<1024xf32>
    %3 = stablehlo.multiply %2, %y : tensor<1024xf32>
    return %3 : tensor<1024xf32>
  }
})";
  Fused x = fuse(text);
  REQUIRE(x.f.fusions.size() == 1);
  const Fusion& f = x.f.fusions[0];
  CHECK(f.kind == FusionKind::Loop);
  CHECK(ops_of(f) == Ops{"3:stablehlo.constant", "4:stablehlo.constant",
                         "5:stablehlo.broadcast_in_dim", "6:stablehlo.broadcast_in_dim",
                         "7:stablehlo.multiply", "8:stablehlo.add", "9:stablehlo.tanh",
                         "10:stablehlo.multiply"});
  CHECK(f.flops == 3 * 1024);
  CHECK(f.transcendentals == 1024);
  CHECK(f.bytes_accessed == 3 * 4096);  // x and y read, the result written
  CHECK(x.f.analysis.bytes_accessed == 3 * 4096);
  // Unfused: two broadcasts (4 + 4096 each), three binary ops (3 x 4096 each), tanh (2 x 4096).
  CHECK(x.f.analysis.unfused_bytes_accessed == 2 * (4 + 4096) + 3 * 3 * 4096 + 2 * 4096);
  CHECK(f.unfused_bytes_accessed == x.f.analysis.unfused_bytes_accessed);
}

TEST_CASE("an expensive producer with two users in different fusions is not duplicated",
          "[hlo][fuse]") {
  // instruction_fusion.cc ShouldFuse: "expensive producer would be duplicated" (exp is
  // IsExpensive); it runs as the root of its own fusion, its value written once.
  const std::string text = R"(module @multi {
  func.func public @main(%x: tensor<256xf32>, %y: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
    %0 = stablehlo.negate %x : tensor<256xf32>
    %1 = stablehlo.exponential %0 : tensor<256xf32>
    %2 = stablehlo.add %1, %y : tensor<256xf32>
    %3 = stablehlo.abs %2 : tensor<256xf32>
    %4 = stablehlo.multiply %1, %y : tensor<256xf32>
    %5 = stablehlo.sqrt %4 : tensor<256xf32>
    return %3, %5 : tensor<256xf32>, tensor<256xf32>
  }
})";
  Fused x = fuse(text);
  REQUIRE(x.f.fusions.size() == 3);
  std::set<Ops> groups;
  for (const auto& f : x.f.fusions) {
    CHECK(f.kind == FusionKind::Loop);
    groups.insert(ops_of(f));
  }
  CHECK(groups == std::set<Ops>{{"3:stablehlo.negate", "4:stablehlo.exponential"},
                                {"5:stablehlo.add", "6:stablehlo.abs"},
                                {"7:stablehlo.multiply", "8:stablehlo.sqrt"}});
  // Each op once: fused flops and transcendentals are the unfused ones.
  CHECK(x.f.analysis.flops == 4 * 256);
  CHECK(x.f.analysis.transcendentals == 2 * 256);
  // Each fusion reads its inputs and writes one result: 2 + 3 + 3 arrays of 1024 bytes.
  CHECK(x.f.analysis.bytes_accessed == 8 * 1024);
  CHECK(x.f.analysis.unfused_bytes_accessed == (2 + 2 + 3 + 2 + 3 + 2) * 1024);
}

TEST_CASE("a reduce roots an input fusion with its elementwise producers", "[hlo][fuse]") {
  // A reduction fusion is kInput (HloInstruction::FusionKind; XLA GPU's reduction emitter);
  // the init constant is scalar, so it fuses.
  const std::string text = R"(module @red {
  func.func public @main(%x: tensor<64x32xf32>) -> tensor<64xf32> {
    %0 = stablehlo.multiply %x, %x : tensor<64x32xf32>
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
    return %1 : tensor<64xf32>
  }
})";
  Fused x = fuse(text);
  REQUIRE(x.f.fusions.size() == 1);
  const Fusion& f = x.f.fusions[0];
  CHECK(f.kind == FusionKind::Input);
  CHECK(ops_of(f) == Ops{"3:stablehlo.multiply", "4:stablehlo.constant", "5:stablehlo.reduce"});
  CHECK(f.flops == 64 * 32 + (64 * 32 - 64));
  CHECK(f.bytes_accessed ==
        64 * 32 * 4 + 64 * 4);  // x once (one trivial user), the row sums written
}

TEST_CASE("softmax: the reductions stay apart, the exp is not duplicated", "[hlo][fuse]") {
  // reduce max; x - broadcast(max) -> exp (exp has two users: the sum and the divide, so it is
  // the root of its own loop fusion and written once); reduce sum; e / broadcast(sum).
  // A reduce never fuses into a broadcast that grows it (expensive producer, consumer reusing
  // its elements: CpuInstructionFusion::ShouldFuse), and a fusion of a reduce with only its
  // init constant is no fusion ("insufficient non-constant nodes").
  const std::string text = R"(module @softmax {
  func.func public @main(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>
    %s = stablehlo.subtract %x, %mb : tensor<8x128xf32>
    %e = stablehlo.exponential %s : tensor<8x128xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>
    %y = stablehlo.divide %e, %zb : tensor<8x128xf32>
    return %y : tensor<8x128xf32>
  }
})";
  Fused x = fuse(text);
  std::set<Ops> groups;
  for (const auto& f : x.f.fusions) groups.insert(ops_of(f));
  CHECK(groups == std::set<Ops>{{"5:stablehlo.broadcast_in_dim", "6:stablehlo.subtract",
                                 "7:stablehlo.exponential"},
                                {"10:stablehlo.broadcast_in_dim", "11:stablehlo.divide"}});
  for (const auto& f : x.f.fusions) CHECK(f.kind == FusionKind::Loop);
  const double big = 8 * 128 * 4, row = 8 * 4;
  // Fused: reduce max (big + 4 + row), {x, m -> e} (big + row + big), reduce sum (big + 4 + row),
  // {e, z -> y} (big + row + big).
  CHECK(x.f.analysis.bytes_accessed ==
        (big + 4 + row) + (2 * big + row) + (big + 4 + row) + (2 * big + row));
  CHECK(x.f.analysis.bytes_accessed < x.f.analysis.unfused_bytes_accessed);
}

TEST_CASE("a while body is fused on its own", "[hlo][fuse]") {
  const std::string text = R"(module @loop {
  func.func public @main(%x: tensor<128xf32>) -> tensor<128xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<128xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %t = stablehlo.tanh %v : tensor<128xf32>
      %w = stablehlo.multiply %t, %v : tensor<128xf32>
      stablehlo.return %j, %w : tensor<i32>, tensor<128xf32>
    }
    return %r#1 : tensor<128xf32>
  }
})";
  Fused x = fuse(text);
  std::set<Ops> groups;
  for (const auto& f : x.f.fusions) groups.insert(ops_of(f));
  // tanh and multiply in the body fuse; the counter's add and the condition's compare fuse with
  // nothing but scalar constants, so they stay alone.
  CHECK(groups == std::set<Ops>{{"12:stablehlo.tanh", "13:stablehlo.multiply"}});
  REQUIRE(x.f.fusions.size() == 1);
  CHECK(x.f.fusions[0].bytes_accessed ==
        512 + 512);  // v read once (two users share the read), w written
  CHECK(x.f.fusions[0].unfused_bytes_accessed == 2 * 512 + 3 * 512);
}

TEST_CASE("a bias add and an activation join the dot in one output fusion", "[hlo][fuse]") {
  const std::string text = R"(module @dense {
  func.func public @main(%x: tensor<32x64xf32>, %w: tensor<64x16xf32>, %b: tensor<16xf32>) -> tensor<32x16xbf16> {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<32x16xf32>
    %2 = stablehlo.add %0, %1 : tensor<32x16xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %3 = stablehlo.maximum %2, %zb : tensor<32x16xf32>
    %4 = stablehlo.convert %3 : (tensor<32x16xf32>) -> tensor<32x16xbf16>
    return %4 : tensor<32x16xbf16>
  }
})";
  Fused x = fuse(text);
  REQUIRE(x.f.fusions.size() == 1);
  const Fusion& f = x.f.fusions[0];
  CHECK(f.kind == FusionKind::Output);
  CHECK(f.ops.size() == 7);
  CHECK(f.ops.front().op == "stablehlo.dot_general");
  CHECK(f.ops.back().op == "stablehlo.convert");
  // x, w and b read once each (b through its broadcast: the whole 64 bytes), the bf16 result
  // written.
  CHECK(f.bytes_accessed == 32 * 64 * 4 + 64 * 16 * 4 + 16 * 4 + 32 * 16 * 2);
  CHECK(f.flops == 2 * 32 * 16 * 64 + 3 * 32 * 16);
}

TEST_CASE("the pass is deterministic", "[hlo][fuse]") {
  const std::string text = emit_workload(64, 32, 16, "f32").value();
  Fused a = fuse(text), b = fuse(text);
  REQUIRE(a.f.fusions.size() == b.f.fusions.size());
  for (std::size_t i = 0; i < a.f.fusions.size(); ++i) {
    CHECK(a.f.fusions[i].name == b.f.fusions[i].name);
    CHECK(ops_of(a.f.fusions[i]) == ops_of(b.f.fusions[i]));
    CHECK(a.f.fusions[i].bytes_accessed == b.f.fusions[i].bytes_accessed);
  }
  CHECK(a.f.text == b.f.text);
  CHECK(a.f.analysis.bytes_accessed == b.f.analysis.bytes_accessed);
}

TEST_CASE("the fused module prints as XLA prints HLO: a fused computation and a fusion instruction",
          "[hlo][fuse]") {
  Fused x = fuse(emit_workload(32, 16, 8, "f32").value());
  const std::string& t = x.f.text;
  INFO(t);
  CHECK(t.rfind("HloModule jit_workload\n", 0) == 0);
  CHECK(t.find("\n%fused_computation.0 (param_0.") != std::string::npos);
  CHECK(t.find(" = f32[32,16] parameter(0)\n") != std::string::npos);
  CHECK(t.find(" = f32[32,8] dot(f32[32,16] %param_0.") != std::string::npos);
  CHECK(t.find("lhs_contracting_dims={1}, rhs_contracting_dims={0}") != std::string::npos);
  CHECK(t.find("  ROOT %tanh.") != std::string::npos);
  CHECK(t.find("\nENTRY %main (") != std::string::npos);
  CHECK(t.find("  ROOT %fusion.0 = f32[32,8] fusion(f32[32,16] %Arg_0.") != std::string::npos);
  CHECK(t.find("kind=kOutput, calls=%fused_computation.0") != std::string::npos);
  // The fused computation comes before the entry that calls it, as XLA prints them.
  CHECK(t.find("%fused_computation.0 (") < t.find("ENTRY"));
}

TEST_CASE("every corpus module fuses, fused bytes never exceed unfused bytes, flops do not change",
          "[hlo][fuse][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo");
  int modules = 0, fused_modules = 0, own = 0, fusions = 0;
  double unfused = 0, fused = 0;
  std::string failures;
  for (const char* sub : {"stablehlo", "stablehlo-interpret", "hlo"}) {
    const std::string dir = rl::testing::corpus_dir() + "/" + sub;
    for (const auto& file :
         rl::testing::list_files(dir, std::string(sub) == "hlo" ? ".hlo" : ".mlir")) {
      auto r = parse(rl::testing::read_file(dir + "/" + file));
      if (!r.ok()) continue;  // the parse tests cover these
      for (const auto& m : r.value()) {
        if (!verify(m).ok()) continue;
        auto plain = analyze_module(m);
        if (!plain.ok()) continue;  // the cost tests cover these
        ++modules;
        auto x = fuse_module(m);
        if (!x.ok()) {
          failures += file + ": " + x.error() + "\n";
          continue;
        }
        const Analysis& a = x->analysis;
        if (!x->fusions.empty()) ++fused_modules;
        if (x->already_fused) ++own;
        fusions += static_cast<int>(x->fusions.size());
        unfused += a.unfused_bytes_accessed;
        fused += a.bytes_accessed;
        if (!(a.bytes_accessed <= a.unfused_bytes_accessed))
          failures += file + ": fused bytes " + std::to_string(a.bytes_accessed) + " > unfused " +
                      std::to_string(a.unfused_bytes_accessed) + "\n";
        if (a.flops != plain->flops || a.transcendentals != plain->transcendentals)
          failures += file + ": flops changed\n";
        if (!x->already_fused && a.unfused_bytes_accessed != plain->bytes_accessed)
          failures += file + ": unfused bytes " + std::to_string(a.unfused_bytes_accessed) +
                      " differ from the cost analysis's " + std::to_string(plain->bytes_accessed) +
                      "\n";
        for (const auto& f : x->fusions)
          if (!(f.bytes_accessed <= f.unfused_bytes_accessed))
            failures += file + ": " + f.name + " fused bytes exceed its ops' own\n";
        if (x->text.empty()) failures += file + ": no fused text\n";
      }
    }
  }
  WARN(modules << " corpus modules fused: " << fusions << " fusions in " << fused_modules
               << " modules (" << own << " with fusions of their own); bytes accessed " << unfused
               << " unfused, " << fused << " fused");
  INFO(failures);
  CHECK(failures.empty());
  CHECK(modules > 1000);
}

TEST_CASE("the fused HLO text parses back and costs what the pass counted", "[hlo][fuse]") {
  // The printed module goes through the HLO front door and XLA's HandleFusion rule
  // (cost_rules.cpp): the same flops, transcendentals and fused bytes as the pass's grouping gave.
  const std::vector<std::string> texts = {emit_workload(32, 16, 8, "f32").value(),
                                          R"(module @chain {
  func.func public @main(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
    %c2 = stablehlo.constant dense<2.0> : tensor<f32>
    %b2 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %0 = stablehlo.multiply %b2, %x : tensor<1024xf32>
    %1 = stablehlo.exponential %0 : tensor<1024xf32>
    %2 = stablehlo.add %1, %y : tensor<1024xf32>
    %3 = stablehlo.multiply %1, %y : tensor<1024xf32>
    %4 = stablehlo.subtract %2, %3 : tensor<1024xf32>
    return %4 : tensor<1024xf32>
  }
})",
                                          R"(module @softmax {
  func.func public @main(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>
    %s = stablehlo.subtract %x, %mb : tensor<8x128xf32>
    %e = stablehlo.exponential %s : tensor<8x128xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.reduce(%e init: %zero) across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
     reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
    %sq = stablehlo.multiply %e, %e : tensor<8x128xf32>
    %q = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %zq = stablehlo.add %z, %q : tensor<8xf32>
    %zb = stablehlo.broadcast_in_dim %zq, dims = [0] : (tensor<8xf32>) -> tensor<8x128xf32>
    %y = stablehlo.divide %e, %zb : tensor<8x128xf32>
    return %y : tensor<8x128xf32>
  }
})"};
  for (const auto& text : texts) {
    Fused x = fuse(text);
    INFO(x.f.text);
    auto back = analyze(x.f.text);
    INFO((back.ok() ? std::string() : back.error()));
    REQUIRE(back.ok());
    REQUIRE(back->size() == 1);
    const Analysis& b = back->front();
    CHECK(b.dialect == "hlo");
    CHECK(b.flops == x.f.analysis.flops);
    CHECK(b.transcendentals == x.f.analysis.transcendentals);
    CHECK(b.bytes_accessed == x.f.analysis.bytes_accessed);
    CHECK(b.unfused_bytes_accessed == x.f.analysis.unfused_bytes_accessed);
  }
}

TEST_CASE("optimized HLO keeps its own fusions, counted as the cost analysis counts them",
          "[hlo][fuse]") {
  const std::string text = R"(HloModule m

%fused_computation (param_0: f32[8], param_1: f32[8]) -> f32[8] {
  %param_0 = f32[8] parameter(0)
  %param_1 = f32[8] parameter(1)
  %add = f32[8] add(f32[8] %param_0, f32[8] %param_1)
  ROOT %tanh = f32[8] tanh(f32[8] %add)
}

ENTRY %main (a: f32[8], b: f32[8]) -> f32[8] {
  %a = f32[8] parameter(0)
  %b = f32[8] parameter(1)
  ROOT %fusion = f32[8] fusion(f32[8] %a, f32[8] %b), kind=kLoop, calls=%fused_computation
}
)";
  Fused x = fuse(text);
  CHECK(x.f.already_fused);
  REQUIRE(x.f.fusions.size() == 1);
  const Fusion& f = x.f.fusions[0];
  CHECK(f.name == "fusion");
  CHECK(f.kind_name == "kLoop");
  CHECK(ops_of(f) == Ops{"6:add", "7:tanh"});
  CHECK(f.flops == 8);
  CHECK(f.transcendentals == 8);
  CHECK(f.bytes_accessed == 3 * 32);                   // a, b read, the result written
  CHECK(f.unfused_bytes_accessed == 3 * 32 + 2 * 32);  // add, then tanh alone
  CHECK(x.f.analysis.bytes_accessed == 96);
}

TEST_CASE("fused_json: per module the fusions, the HLO text and both totals, summed over the file",
          "[hlo][fuse]") {
  auto j = fused_json(emit_workload(32, 16, 8, "f32").value());
  REQUIRE(j.ok());
  const std::string& t = j.value();
  INFO(t);
  CHECK(t.find("\"dialect\":\"stablehlo\"") != std::string::npos);
  CHECK(t.find("\"already_fused\":false") != std::string::npos);
  CHECK(t.find("\"name\":\"fusion.0\",\"kind\":\"kOutput\",\"function\":\"main\"") !=
        std::string::npos);
  CHECK(t.find("\"ops\":[{\"line\":3,\"column\":5,\"op\":\"stablehlo.dot_general\"},{\"line\":4,"
               "\"column\":5,\"op\":\"stablehlo.tanh\"}]") != std::string::npos);
  CHECK(t.find("\"bytes_accessed\":3584,\"unfused_bytes_accessed\":5632,\"bytes_saved\":2048") !=
        std::string::npos);
  CHECK(t.find("\"totals\":{\"flops\":8192,\"transcendentals\":256,\"bytes_accessed\":5632},"
               "\"fused_totals\":{\"flops\":8192,\"transcendentals\":256,\"bytes_accessed\":3584},"
               "\"errors\":[]}") != std::string::npos);
  auto bad = fused_json("module {");
  CHECK(!bad.ok());
}

TEST_CASE(
    "a cheap op with users in two fusions runs once, its value written (fused flops stay the "
    "unfused flops)",
    "[hlo][fuse]") {
  // XLA may duplicate a cheap producer into each consumer fusion (InstructionFusion::ShouldFuse
  // forbids duplication only for expensive producers); this pass copies only broadcasts, iotas
  // and scalar constants, which have no flops. The add below stays alone; the two fusions read it.
  const std::string text = R"(module @cheap {
  func.func public @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %0 = stablehlo.add %x, %y : tensor<64xf32>
    %1 = stablehlo.tanh %0 : tensor<64xf32>
    %2 = stablehlo.negate %1 : tensor<64xf32>
    %3 = stablehlo.exponential %0 : tensor<64xf32>
    %4 = stablehlo.abs %3 : tensor<64xf32>
    return %2, %4 : tensor<64xf32>, tensor<64xf32>
  }
})";
  Fused x = fuse(text);
  std::set<Ops> groups;
  for (const auto& f : x.f.fusions) groups.insert(ops_of(f));
  CHECK(groups == std::set<Ops>{{"4:stablehlo.tanh", "5:stablehlo.negate"},
                                {"6:stablehlo.exponential", "7:stablehlo.abs"}});
  CHECK(x.f.analysis.flops == 3 * 64);
  CHECK(x.f.analysis.bytes_accessed == 3 * 256 + 2 * (256 + 256));
}

namespace {

// A dense layer as JAX prints `jax.nn.relu(x @ w + b)`: jax.nn.relu is a jitted function, lowered
// to a private @relu called from main.
const char* kLayerWithReluCall = R"(module @jit_layer {
  func.func public @main(%arg0: tensor<32x64xf32>, %arg1: tensor<64x16xf32>, %arg2: tensor<16xf32>) -> tensor<32x16xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<32x16xf32>
    %2 = stablehlo.add %0, %1 : tensor<32x16xf32>
    %3 = call @relu(%2) : (tensor<32x16xf32>) -> tensor<32x16xf32>
    return %3 : tensor<32x16xf32>
  }
  func.func private @relu(%arg0: tensor<32x16xf32>) -> tensor<32x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x16xf32>
    return %1 : tensor<32x16xf32>
  }
})";

}  // namespace

TEST_CASE(
    "calls are inlined before fusion, as XLA's CallInliner does: jax.nn.relu's @relu joins the "
    "dot's output fusion",
    "[hlo][fuse]") {
  Fused x = fuse(kLayerWithReluCall);
  CHECK(x.f.calls_inlined == 1);
  CHECK(x.f.calls_kept == 0);
  REQUIRE(x.f.inlined != nullptr);
  REQUIRE(x.f.fusions.size() == 1);
  const Fusion& f = x.f.fusions[0];
  CHECK(f.kind == FusionKind::Output);
  // The ops keep the lines they were written on: relu's constant, broadcast and maximum are
  // lines 10 to 12 of the text.
  CHECK(ops_of(f) == Ops{"3:stablehlo.dot_general", "4:stablehlo.broadcast_in_dim",
                         "5:stablehlo.add", "10:stablehlo.constant",
                         "11:stablehlo.broadcast_in_dim", "12:stablehlo.maximum"});
  CHECK(f.function == 0);
  // x, w and b read once each, the result written once: the 32x16 sum before relu never goes to
  // memory.
  CHECK(f.bytes_accessed == 32 * 64 * 4 + 64 * 16 * 4 + 16 * 4 + 32 * 16 * 4);
  CHECK(x.f.analysis.bytes_accessed == f.bytes_accessed);
  CHECK(x.f.analysis.flops == 2 * 32 * 16 * 64 + 2 * 32 * 16);
  // The fused module has no call, and no relu computation left over.
  CHECK_THAT(x.f.text, !Catch::Matchers::Contains("call("));
  CHECK_THAT(x.f.text, !Catch::Matchers::Contains("relu"));
  // Unfused, the call costs what its body costs: the same totals as before inlining.
  auto before = analyze(kLayerWithReluCall);
  REQUIRE(before.ok());
  CHECK(x.f.analysis.unfused_bytes_accessed == before->front().bytes_accessed);
  CHECK(x.f.analysis.flops == before->front().flops);
}

TEST_CASE("a function called twice is copied into each call site, and fuses at each",
          "[hlo][fuse]") {
  const std::string text = R"(module @twice {
  func.func public @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %0 = call @f(%a) : (tensor<64xf32>) -> tensor<64xf32>
    %1 = call @f(%b) : (tensor<64xf32>) -> tensor<64xf32>
    return %0, %1 : tensor<64xf32>, tensor<64xf32>
  }
  func.func private @f(%x: tensor<64xf32>) -> tensor<64xf32> {
    %t = stablehlo.tanh %x : tensor<64xf32>
    %m = stablehlo.multiply %t, %x : tensor<64xf32>
    return %m : tensor<64xf32>
  }
})";
  Fused x = fuse(text);
  CHECK(x.f.calls_inlined == 2);
  REQUIRE(x.f.fusions.size() == 2);
  for (const auto& f : x.f.fusions) {
    CHECK(ops_of(f) == Ops{"8:stablehlo.tanh", "9:stablehlo.multiply"});
    CHECK(f.bytes_accessed == 256 + 256);
  }
  CHECK(x.f.analysis.flops == 2 * 64);
  CHECK(x.f.analysis.transcendentals == 2 * 64);
  CHECK(x.f.analysis.bytes_accessed == 4 * 256);
  // The printed module parses back and costs the same, but for the tuple HLO returns two results
  // in (XLA counts a tuple as 8 bytes per element).
  auto back = analyze(x.f.text);
  INFO(x.f.text);
  REQUIRE(back.ok());
  CHECK(back->front().bytes_accessed == x.f.analysis.bytes_accessed + 2 * 8);
  CHECK(back->front().flops == x.f.analysis.flops);
  CHECK(back->front().transcendentals == x.f.analysis.transcendentals);
}

TEST_CASE(
    "HLO: a computation called twice is inlined at both calls, and the printed copies get names of "
    "their own",
    "[hlo][fuse]") {
  const std::string text = R"(HloModule twice

%f (p: f32[64]) -> f32[64] {
  %p = f32[64] parameter(0)
  %t = f32[64] tanh(f32[64] %p)
  ROOT %m = f32[64] multiply(f32[64] %t, f32[64] %p)
}

ENTRY %main (a: f32[64], b: f32[64]) -> f32[64] {
  %a = f32[64] parameter(0)
  %b = f32[64] parameter(1)
  %c1 = f32[64] call(f32[64] %a), to_apply=%f
  %c2 = f32[64] call(f32[64] %b), to_apply=%f
  ROOT %s = f32[64] add(f32[64] %c1, f32[64] %c2)
}
)";
  Fused x = fuse(text);
  CHECK(x.f.calls_inlined == 2);
  // Both copies feed the add: one loop fusion of five ops, reading a and b, writing s.
  REQUIRE(x.f.fusions.size() == 1);
  CHECK(ops_of(x.f.fusions[0]) == Ops{"5:tanh", "6:multiply", "5:tanh", "6:multiply", "14:add"});
  CHECK(x.f.fusions[0].bytes_accessed == 3 * 256);
  INFO(x.f.text);
  CHECK_THAT(x.f.text, !Catch::Matchers::Contains("%f ("));
  auto back = analyze(x.f.text);
  INFO((back.ok() ? std::string() : back.error()));
  REQUIRE(back.ok());
  CHECK(back->front().bytes_accessed == x.f.analysis.bytes_accessed);
  CHECK(back->front().transcendentals == 2 * 64);
}

TEST_CASE("a ROOT call of a computation whose ROOT is its parameter stays a call", "[hlo][fuse]") {
  const std::string text = R"(HloModule ident

%id (p: f32[8]) -> f32[8] {
  ROOT %p = f32[8] parameter(0)
}

ENTRY %main (a: f32[8]) -> f32[8] {
  %a = f32[8] parameter(0)
  %n = f32[8] negate(f32[8] %a)
  ROOT %c = f32[8] call(f32[8] %n), to_apply=%id
}
)";
  Fused x = fuse(text);
  CHECK(x.f.calls_inlined == 0);
  CHECK(x.f.inlined == nullptr);
  CHECK_THAT(x.f.text, Catch::Matchers::Contains("call("));
}

TEST_CASE(
    "HLO: a call whose layouts differ from its callee's stays a call (a bitcast reads the layout)",
    "[hlo][fuse]") {
  const std::string text = R"(HloModule lay

%f (p: f32[2,3]) -> f32[2,3] {
  %p = f32[2,3]{1,0} parameter(0)
  ROOT %n = f32[2,3]{1,0} negate(f32[2,3]{1,0} %p)
}

ENTRY %main (a: f32[2,3]) -> f32[6] {
  %a = f32[2,3]{1,0} parameter(0)
  %c = f32[2,3]{0,1} call(f32[2,3]{1,0} %a), to_apply=%f
  ROOT %b = f32[6]{0} bitcast(f32[2,3]{0,1} %c)
}
)";
  Fused x = fuse(text);
  CHECK(x.f.calls_inlined == 0);
  CHECK_THAT(x.f.text, Catch::Matchers::Contains("call("));
  // The same call with the callee's layout is inlined.
  std::string same = text;
  same.replace(same.find("f32[2,3]{0,1} call"), 13, "f32[2,3]{1,0}");
  same.replace(same.find("bitcast(f32[2,3]{0,1}"), 21, "bitcast(f32[2,3]{1,0}");
  Fused y = fuse(same);
  CHECK(y.f.calls_inlined == 1);
}

TEST_CASE(
    "the printed module keeps every name once: a copy's new names avoid the names the text wrote",
    "[hlo][fuse]") {
  const std::string text = R"(HloModule names

%f (p: f32[8,8]) -> f32[8,8] {
  %p = f32[8,8] parameter(0)
  ROOT %d = f32[8,8] dot(f32[8,8] %p, f32[8,8] %p), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}

ENTRY %main (a: f32[8,8], b: f32[8,8]) -> (f32[8,8], f32[8,8], f32[8,8]) {
  %a = f32[8,8] parameter(0)
  %b = f32[8,8] parameter(1)
  %c1 = f32[8,8] call(f32[8,8] %a), to_apply=%f
  %c2 = f32[8,8] call(f32[8,8] %b), to_apply=%f
  %dot.1 = f32[8,8] dot(f32[8,8] %a, f32[8,8] %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %t = (f32[8,8], f32[8,8], f32[8,8]) tuple(f32[8,8] %c1, f32[8,8] %c2, f32[8,8] %dot.1)
}
)";
  Fused x = fuse(text);
  CHECK(x.f.calls_inlined == 2);
  INFO(x.f.text);
  auto back = analyze(x.f.text);  // a name defined twice would not parse
  INFO((back.ok() ? std::string() : back.error()));
  REQUIRE(back.ok());
  CHECK(back->front().flops == 3 * 2 * 8 * 8 * 8);
}

TEST_CASE(
    "a computation still named after inlining is printed: a kept call's callee, an all-reduce's "
    "reducer",
    "[hlo][fuse]") {
  const std::vector<std::string> texts = {R"(HloModule orphan

%id (p: f32[8]) -> f32[8] {
  ROOT %p = f32[8] parameter(0)
}

%g (a: f32[8]) -> f32[8] {
  %a = f32[8] parameter(0)
  ROOT %n = f32[8] negate(f32[8] %a)
}

%x (a: f32[8]) -> f32[8] {
  %a = f32[8] parameter(0)
  ROOT %c = f32[8] call(f32[8] %a), to_apply=%id
}

ENTRY %main (a: f32[8]) -> f32[8] {
  %a = f32[8] parameter(0)
  ROOT %c = f32[8] call(f32[8] %a), to_apply=%g
}
)",
                                          R"(HloModule ar

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (a: f32[8], b: f32[], c: f32[]) -> (f32[8], f32[]) {
  %a = f32[8] parameter(0)
  %b = f32[] parameter(1)
  %c = f32[] parameter(2)
  %r = f32[8] all-reduce(f32[8] %a), replica_groups={}, to_apply=%add
  %k = f32[] call(f32[] %b, f32[] %c), to_apply=%add
  ROOT %t = (f32[8], f32[]) tuple(f32[8] %r, f32[] %k)
}
)"};
  for (const auto& text : texts) {
    Fused x = fuse(text);
    CHECK(x.f.calls_inlined == 1);
    INFO(x.f.text);
    auto back = analyze(x.f.text);  // a computation named but not printed would not verify
    INFO((back.ok() ? std::string() : back.error()));
    CHECK(back.ok());
  }
  // The inlined %g itself is gone.
  CHECK_THAT(fuse(texts[0]).f.text, !Catch::Matchers::Contains("%g ("));
}
