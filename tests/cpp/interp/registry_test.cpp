// The interpreter's registry against the op table (hlo/ops.inc): every op the core knows either
// has a kernel or is declined with the reason a reader sees when a program uses it. A new line in
// the table does not link until it gets one or the other (kernel_of, interp/kernel.h); this checks
// each entry holds exactly one. Then the small ops whose kernels are one
// line each: HLO's fusion (it calls its fused computation, so optimized HLO runs), add-dependency,
// domain, replica-id and partition-id.
#include <string>

#include "catch.hpp"
#include "hlo/ops.h"
#include "interp/interp_util.h"
#include "interp/kernel.h"

using namespace rl;
using rl::testing::run_ok;

TEST_CASE("every op of the table has a kernel or a reason it is not run", "[interp][registry]") {
  int run = 0, declined = 0;
  for (int i = 1; i < static_cast<int>(hlo::OpCode::Count_); ++i) {
    const auto code = static_cast<hlo::OpCode>(i);
    const interp::KernelEntry& k = interp::registry().find(code);
    INFO(hlo::op_info(code).id);
    CHECK((k.run != nullptr) != (k.declined != nullptr));
    if (k.declined) CHECK(std::string(k.declined).size() > 20);
    run += k.run != nullptr;
    declined += k.declined != nullptr;
  }
  WARN(run << " ops run, " << declined << " declined with a reason");
  CHECK(run > 100);
}

TEST_CASE("a declined op is refused with its reason, at its line", "[interp][registry]") {
  const std::string e = testing::run_error(
      "HloModule m\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "ENTRY main {\n"
      "  a = f32[4] constant({1, 2, 3, 4})\n"
      "  ROOT r = f32[4] all-reduce(a), replica_groups={}, to_apply=add\n"
      "}\n");
  CHECK(e ==
        "not run: all-reduce: a collective: it exchanges values between devices, and the "
        "interpreter runs one device");
}

TEST_CASE("HLO's fusion runs its fused computation: optimized HLO runs", "[interp][registry]") {
  // What XLA prints after optimization: a loop fusion of multiply and subtract, called with its
  // parameters in order (calls=), and a second fusion that reduces. Op by op and fused alike.
  interp::RunOptions options;
  options.fuse = GENERATE(false, true);
  const interp::RunResult r = run_ok(
      "HloModule jit_f\n"
      "fused_computation {\n"
      "  p0 = f32[4] parameter(0)\n"
      "  p1 = f32[4] parameter(1)\n"
      "  m = f32[4] multiply(p0, p1)\n"
      "  c = f32[] constant(1)\n"
      "  b = f32[4] broadcast(c), dimensions={}\n"
      "  ROOT s = f32[4] subtract(m, b)\n"
      "}\n"
      "add { x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y) }\n"
      "fused_reduce {\n"
      "  q = f32[4] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[] reduce(q, z), dimensions={0}, to_apply=add\n"
      "}\n"
      "ENTRY main {\n"
      "  a = f32[4] constant({1, 2, 3, 4})\n"
      "  b = f32[4] constant({2, 2, 2, 2})\n"
      "  f = f32[4]{0} fusion(a, b), kind=kLoop, calls=fused_computation\n"
      "  g = f32[] fusion(f), kind=kInput, calls=fused_reduce\n"
      "  ROOT t = (f32[4], f32[]) tuple(f, g)\n"
      "}\n",
      options);
  REQUIRE(r.values.size() == 1);
  REQUIRE(r.values[0].tuple.size() == 2);
  const float* f = r.values[0].tuple[0].tensor.as<float>();
  CHECK((f[0] == 1 && f[1] == 3 && f[2] == 5 && f[3] == 7));
  CHECK(r.values[0].tuple[1].tensor.as<float>()[0] == 16);
}

TEST_CASE("add-dependency and domain give their value, replica-id and partition-id are 0",
          "[interp][registry]") {
  const interp::RunResult r = run_ok(
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[2] constant({5, 6})\n"
      "  t = token[] after-all()\n"
      "  d = f32[2] add-dependency(a, t)\n"
      "  e = f32[2] domain(d), domain={kind=\"sharding\", entry={maximal device=0}, "
      "exit={maximal device=0}}\n"
      "  r = u32[] replica-id()\n"
      "  p = u32[] partition-id()\n"
      "  ROOT o = (f32[2], u32[], u32[]) tuple(e, r, p)\n"
      "}\n");
  REQUIRE(r.values.size() == 1);
  REQUIRE(r.values[0].tuple.size() == 3);
  const float* e = r.values[0].tuple[0].tensor.as<float>();
  CHECK((e[0] == 5 && e[1] == 6));
  CHECK(r.values[0].tuple[1].tensor.as<std::uint32_t>()[0] == 0);
  CHECK(r.values[0].tuple[2].tensor.as<std::uint32_t>()[0] == 0);
}
