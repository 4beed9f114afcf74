// Section 6's experiment measured on this machine: the model says that multiplying the bytes a
// memory-bound program moves multiplies its time by the same factor, and leaves a compute-bound
// program's time alone while it stays compute-bound. Here two workloads read one array of
// floats (64 MiB by default: larger than most last-level caches) once, then `factor` times,
// each timed by the harness, and the measured time ratios are set beside the roofline's
// prediction (model::predict_traffic). Measurements of this machine, never the model's numbers.
//
// The workloads: per element x of the array, chains acc ← acc·x + a (one multiply and one add,
// 2 flops per step, 8 f32x4 chains at once). The array is read in chunks of 16 KiB, one call per
// chunk (V8 swaps in optimized code between calls, never inside a running loop).
//   memory-bound:  1 step per element per read. Each read does its own step, so the work grows
//                  with the reads (2 flops per 4 bytes whatever the factor: far below any ridge).
//   compute-bound: 64 steps per element in all (128 flops per 4 bytes read once), split over the
//                  element's reads: the work is the same at every factor; only the bytes grow.
// When the array is read more than once, the reads come
//   after_array: in passes over the whole array, so a chunk read again has left the caches
//                (on a machine whose last-level cache holds less than the array): the bytes the
//                model counts, from memory, grow by the factor;
//   right_away:  a chunk's reads back to back, so every read after the first finds its 16 KiB
//                in L1: more loads, but no more traffic from memory — the model's bytes are
//                bytes from memory, and here they do not grow.
// A factor that is not whole is met exactly to 1/chunks: some chunks are read once more than
// others (chunk i is read ⌊R/C⌋ or ⌊R/C⌋+1 times, R = round(factor·C) chunk reads over C chunks).
#pragma once

#include <cstddef>
#include <string>

#include "common/result.h"
#include "measure/harness.h"
#include "model/model.h"

namespace rl::measure {

constexpr std::size_t kTrafficChunkFloats = 4096;                     // 16 KiB per call
constexpr std::size_t kTrafficDefaultFloats = std::size_t(16) << 20;  // 64 MiB
constexpr std::size_t kTrafficMaxFloats = std::size_t(64) << 20;      // 256 MiB, the kernels' cap
constexpr int kComputeBoundSteps = 64;  // per element, in all its reads
// A factor below 1 would read the array less than once; above 64, some read of the
// compute-bound workload would have no step left to do.
constexpr double kMinMeasuredTrafficFactor = 1, kMaxMeasuredTrafficFactor = 64;
// A measured ratio within this share of the predicted one agrees with the model.
constexpr double kTrafficAgreement = 0.25;

enum class Reread { after_array, right_away };
const char* reread_name(Reread reread);  // "after the whole array", "right away"

// One workload run at one factor: what it did and how long it took.
struct TrafficRun {
  double reads = 0;  // chunk reads / chunks: 1, or the factor as met
  double flops = 0;  // exact: 2 per step
  double bytes = 0;  // exact: 4 per element read (the array is only read)
  Timing timing;     // seconds per call: one call reads the whole array `reads` times
};

struct TrafficWorkload {
  std::string name;  // "memory-bound", "compute-bound"
  int steps;  // multiply-add steps per element: per read (memory-bound) or in all (compute-bound)
  TrafficRun once, factor;
  double measured_ratio = 0;           // factor.timing.median / once.timing.median
  model::TrafficPrediction predicted;  // under the roofs read off the 1× runs
  double agreement = 0;                // measured_ratio / predicted.time_ratio
  std::string
      verdict;  // "agrees", "faster than predicted", "slower than predicted" (kTrafficAgreement)
};

struct TrafficMeasurement {
  double factor_asked = 0;
  Reread reread = Reread::after_array;
  double factor = 0;         // as met: chunk reads / chunks
  std::size_t elements = 0;  // floats in the array
  std::size_t array_bytes = 0;
  // This machine's roofs as the 1× runs show them: the compute-bound workload's flops over its
  // time, the memory-bound workload's bytes over its time (each bound by that roof at 1×).
  model::Budgets roofs{0, 0};
  TrafficWorkload memory, compute;
};

// Refuses a factor outside [1, 64] or not finite, samples outside 1..100, and an array size
// (elements) that is not a whole multiple of the chunk or is past the cap, each naming the value.
Result<TrafficMeasurement> measure_traffic(double factor, Reread reread = Reread::after_array,
                                           int samples = 3,
                                           double elements = double(kTrafficDefaultFloats),
                                           double min_sample_seconds = 0.02);

}  // namespace rl::measure
