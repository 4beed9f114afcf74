// rl_bench: GFLOP/s of every matmul variant this build has, on the benchmark's sizes, plus the
// measured mul+add ceiling, once first and again before each size's rows (each row's
// ceiling_gflops). Built natively (with the "portable" variants at -O3 -march=native)
// and as wasm (run under Node). Prints one JSON object per line; scripts/bench merges the two
// builds into a table. Flops are the model's 2·m·k·n (tanh not counted). Not a test.
//
// Each SIMD variant's share of the ceiling is also measured in pairs
// (measure::matmul_share_of_ceiling: the ceiling and the kernel timed back to back, round after
// round), its row's "paired" field.
//
//   rl_bench [--sizes 32x16x8,256x256x256] [--min-sample-seconds 0.1] [--samples 5]
//            [--paired-rounds 9]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "kernels/kernels.h"
#include "measure/ceilings.h"
#include "measure/harness.h"

using namespace rl;

namespace {
struct Size {
  double m, k, n;
};

std::vector<Size> parse_sizes(const char* text) {
  std::vector<Size> out;
  std::string s(text);
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    Size z{};
    if (std::sscanf(s.substr(start, end - start).c_str(), "%lfx%lfx%lf", &z.m, &z.k, &z.n) != 3) {
      std::fprintf(stderr, "rl_bench: --sizes must look like 32x16x8,64x64x64, got \"%s\"\n", text);
      std::exit(1);
    }
    out.push_back(z);
    start = end + 1;
  }
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<Size> sizes = {
      {32, 16, 8}, {64, 64, 64}, {128, 128, 128}, {256, 256, 256}, {512, 512, 512}};
  double min_sample_seconds = 0.1;
  int samples = 5;
  int paired_rounds = 9;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc)
      sizes = parse_sizes(argv[++i]);
    else if (!std::strcmp(argv[i], "--min-sample-seconds") && i + 1 < argc)
      min_sample_seconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--samples") && i + 1 < argc)
      samples = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--paired-rounds") && i + 1 < argc)
      paired_rounds = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "rl_bench: unknown argument \"%s\"\n", argv[i]);
      return 1;
    }
  }
  auto compute = measure::measure_compute(0.2, 5);
  if (!compute) {
    std::fprintf(stderr, "rl_bench: %s\n", compute.error().c_str());
    return 1;
  }
  {
    JsonWriter w;
    w.begin_object().key("measured_ceiling_gflops").value(compute->gflops);
    w.key("chains").value(compute->chains).key("width").value(compute->width).end_object();
    std::printf("%s\n", w.text().c_str());
  }
  for (const auto& z : sizes) {
    auto shape = kernels::check_matmul_shape(z.m, z.k, z.n);
    if (!shape) {
      std::fprintf(stderr, "rl_bench: %s\n", shape.error().c_str());
      return 1;
    }
    auto buffers = kernels::allocate_matmul(shape.value());
    if (!buffers) {
      std::fprintf(stderr, "rl_bench: %s\n", buffers.error().c_str());
      return 1;
    }
    kernels::fill_uniform(buffers.value().a.data(), buffers.value().a.size(), 1);
    kernels::fill_uniform(buffers.value().b.data(), buffers.value().b.size(), 2);
    // The ceiling again beside this size's rows: a shared machine's speed moves by a third between
    // minutes, and a kernel's share of a ceiling measured a minute before read 0.67 where the two
    // measured together read 0.85-0.97.
    auto beside = measure::measure_compute(0.2, 5);
    if (!beside) {
      std::fprintf(stderr, "rl_bench: %s\n", beside.error().c_str());
      return 1;
    }
    for (const auto& v : kernels::matmul_variants()) {
      auto t = measure::time_matmul(v, buffers.value(), samples, min_sample_seconds);
      if (!t) {
        std::fprintf(stderr, "rl_bench: %s: %s\n", v.name, t.error().c_str());
        return 1;
      }
      const double flops = 2.0 * z.m * z.k * z.n;
      JsonWriter w;
      w.begin_object().key("m").value(z.m).key("k").value(z.k).key("n").value(z.n);
      w.key("kernel").value(v.name).key("isa").value(v.isa).key("fused_tanh").value(v.fused_tanh);
      w.key("median_seconds")
          .value(t->median)
          .key("repeats")
          .integer(static_cast<long long>(t->repeats));
      w.key("gflops").value(flops / t->median / 1e9);
      w.key("ceiling_gflops").value(beside->gflops);
      // Pairs where the targets are set (256³ and up); scalar variants are far from the SIMD
      // ceiling by design: no pairs for them.
      if (std::strcmp(v.isa, "scalar") != 0 && paired_rounds > 0 &&
          z.m * z.k * z.n >= 256.0 * 256 * 256) {
        auto share = measure::matmul_share_of_ceiling(v, buffers.value(), t->repeats, paired_rounds,
                                                      min_sample_seconds);
        if (!share) {
          std::fprintf(stderr, "rl_bench: %s: %s\n", v.name, share.error().c_str());
          return 1;
        }
        w.key("paired").begin_object();
        w.key("rounds").integer(static_cast<long long>(share->ratios.size()));
        w.key("ratio_median").value(share->median);
        w.key("ratio_min").value(share->min).key("ratio_max").value(share->max);
        w.key("gflops_median").value(share->kernel_gflops_median);
        w.key("ceiling_gflops_median").value(share->ceiling_gflops_median);
        w.end_object();
      }
      w.end_object();
      std::printf("%s\n", w.text().c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
