#include "measure/timer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
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
  std::string problem;
  // The next reading that differs from t0; false (problem set) once the deadline passes (checked
  // every 1024 reads: reading the wall clock is not free), or for a reading that is no finite
  // number of seconds or earlier than t0.
  auto next = [&](double t0, double* t1) {
    for (long reads = 1;; ++reads) {
      *t1 = now();
      if (!std::isfinite(*t1)) {
        problem = "the clock must give a finite number of seconds, got " + format_number(*t1);
        return false;
      }
      if (*t1 < t0) {
        problem = "the clock went backwards, from " + format_number(t0) + " to " +
                  format_number(*t1) + " s";
        return false;
      }
      if (*t1 != t0) return true;
      if (reads % 1024 == 0 && now_seconds() > deadline) {
        problem = "the timer did not advance within " + format_number(give_up_seconds) + " s";
        return false;
      }
    }
  };
  std::vector<double> ticks;
  for (int trial = 0; trial < kTrials; ++trial) {
    double first = now(), t0 = 0, t1 = 0;
    if (!std::isfinite(first))
      return Result<double>::failure("the clock must give a finite number of seconds, got " +
                                     format_number(first));
    if (!next(first, &t0) || !next(t0, &t1)) return Result<double>::failure(problem);
    ticks.push_back(t1 - t0);
  }
  std::sort(ticks.begin(), ticks.end());
  return Result<double>::success(ticks[kTrials / 2]);
}

Result<double> timer_resolution() { return timer_resolution(now_seconds); }

}  // namespace rl::measure
