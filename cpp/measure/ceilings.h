// Measured ceilings of this machine (ERT-style microbenchmarks): what this browser's wasm can
// sustain here and now. Measurements of this machine, never a device specification.
#pragma once

#include <cstddef>
#include <string>

#include "common/result.h"

namespace rl::measure {

struct ComputeCeiling {
  double gflops;   // best of the samples
  int chains;      // independent accumulator chains (hide the add latency)
  int width;       // f32 lanes per vector (4 with wasm SIMD, 1 scalar)
  double seconds;  // length of the best sample
};
// Independent f32x4 mul+add chains: acc = acc·m + a, 2 flops per lane per step.
Result<ComputeCeiling> measure_compute(double min_seconds = 0.05, int samples = 3);

struct BandwidthCeiling {
  std::string level;              // "l1", "l2", "memory"
  std::size_t working_set_bytes;  // three arrays together
  double gbs;  // triad bytes (2 reads + 1 write per element) / second, best sample
};
// Triad a[i] = b[i] + s·c[i] over a working set sized for the level: 24 KiB (L1),
// 192 KiB (L2), 96 MiB (main memory). Write-allocate traffic is not counted.
Result<BandwidthCeiling> measure_bandwidth(const std::string& level, double min_seconds = 0.05,
                                           int samples = 3);

}  // namespace rl::measure
