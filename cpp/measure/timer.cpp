#include "measure/timer.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace rl::measure {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

Result<double> timer_resolution() {
  constexpr int kTrials = 9;
  std::vector<double> ticks;
  const double give_up = now_seconds() + 1.0;
  for (int trial = 0; trial < kTrials; ++trial) {
    // Start on a fresh tick, then wait for the next one.
    double t0 = now_seconds(), t1;
    while ((t1 = now_seconds()) == t0) {
    }
    t0 = t1;
    do {
      t1 = now_seconds();
      if (t1 > give_up && t1 == t0) {
        return Result<double>::failure("the timer did not advance within 1 s");
      }
    } while (t1 == t0);
    ticks.push_back(t1 - t0);
  }
  std::sort(ticks.begin(), ticks.end());
  return Result<double>::success(ticks[kTrials / 2]);
}

}  // namespace rl::measure
