#include "common/memory.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <limits>

namespace rl::memory {

namespace {
std::size_t test_limit = 0;
}

std::size_t limit() {
  if (test_limit) return test_limit;
#ifdef RL_HEAP_MAX
  return static_cast<std::size_t>(RL_HEAP_MAX);
#else
  return std::numeric_limits<std::size_t>::max();
#endif
}

std::size_t top() {
#ifdef __EMSCRIPTEN__
  return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(sbrk(0)));
#else
  return in_use();
#endif
}

std::size_t in_use() {
#if defined(__EMSCRIPTEN__)
  return static_cast<std::size_t>(mallinfo().uordblks);
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  // Natively only the tests' limits apply: glibc's count (heap and mapped blocks) stands in.
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
#else
  return 0;
#endif
}

bool fits(std::size_t more) {
  const std::size_t max = limit();
  if (more >= max) return false;
  if (top() < max - more) return true;
  const std::size_t room = max - max / 16;
  return more < room && in_use() < room - more;
}

std::size_t available() {
  const std::size_t max = limit();
  const std::size_t room = max - max / 16;
  const std::size_t used = in_use();
  return used < room ? room - used : 0;
}

void set_limit_for_tests(std::size_t bytes) { test_limit = bytes; }

}  // namespace rl::memory
