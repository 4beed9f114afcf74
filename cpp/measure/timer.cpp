#include "measure/timer.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "common/numbers.h"

namespace rl::measure {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

Result<double> timer_resolution(const std::function<double()>& now, double give_up_seconds) {
  constexpr int kTrials = 9;
  const double deadline = now_seconds() + give_up_seconds;
  // The next reading that differs from t0; false once the deadline passes (checked every 1024
  // reads: reading the wall clock is not free).
  auto next = [&](double t0, double* t1) {
    for (long reads = 1;; ++reads) {
      *t1 = now();
      if (*t1 != t0) return true;
      if (reads % 1024 == 0 && now_seconds() > deadline) return false;
    }
  };
  std::vector<double> ticks;
  for (int trial = 0; trial < kTrials; ++trial) {
    double t0 = 0, t1 = 0;
    if (!next(now(), &t0) || !next(t0, &t1))
      return Result<double>::failure("the timer did not advance within " +
                                     format_number(give_up_seconds) + " s");
    ticks.push_back(t1 - t0);
  }
  std::sort(ticks.begin(), ticks.end());
  return Result<double>::success(ticks[kTrials / 2]);
}

Result<double> timer_resolution() { return timer_resolution(now_seconds); }

}  // namespace rl::measure
