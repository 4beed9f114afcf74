// The clock the measurements read, and how fine it really is.
#pragma once

#include "common/result.h"

namespace rl::measure {

// Seconds on a monotonic clock. In wasm this is performance.now(), which browsers coarsen
// (100 µs, 1 ms, sometimes with jitter); natively it is steady_clock.
double now_seconds();

// The clock's observed tick: the median of several waits for it to change. Refuses a clock
// that does not advance within about a second, rather than spinning forever.
Result<double> timer_resolution();

}  // namespace rl::measure
