// The clock the measurements read, and how fine it really is.
#pragma once

#include <functional>

#include "common/result.h"

namespace rl::measure {

// Seconds on a monotonic clock. In wasm this is performance.now(), which browsers coarsen
// (100 µs, 1 ms, sometimes with jitter); natively it is steady_clock.
double now_seconds();

// The clock's observed tick: the median of 9 waits for it to change, each started on a fresh
// tick. Refuses a clock that does not advance within `give_up_seconds` of wall time (now_seconds:
// a clock that stands still cannot time its own wait), rather than spinning forever.
Result<double> timer_resolution(const std::function<double()>& now, double give_up_seconds = 1);
// now_seconds' own tick.
Result<double> timer_resolution();

}  // namespace rl::measure
