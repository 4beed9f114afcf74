// Where the shared corpus of real StableHLO and HLO text lives, for the tests that need it.
//
// ../shared/corpus beside the checkout (RL_CORPUS_DIR, set by CMake), or $ROOFLINE_CORPUS.
// The corpus is read in place, never copied into the project. Without it, a test says so
// with SKIP_WITHOUT_CORPUS(): ctest reports such a test as skipped, not passed.
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "catch.hpp"

namespace rl::testing {

inline std::string corpus_dir() {
  const char* env = std::getenv("ROOFLINE_CORPUS");
  return env && *env ? std::string(env) : std::string(RL_CORPUS_DIR);
}

inline bool corpus_present(const std::string& sub = "") {
  struct stat st;
  std::string path = corpus_dir() + (sub.empty() ? "" : "/" + sub);
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace rl::testing

// The words "SKIPPED: corpus absent" make ctest count the test as skipped (see CMakeLists).
#define SKIP_WITHOUT_CORPUS(sub)                                                   \
  do {                                                                             \
    if (!rl::testing::corpus_present(sub)) {                                       \
      WARN("SKIPPED: corpus absent: " << rl::testing::corpus_dir() << "/" << (sub) \
                                      << " (set ROOFLINE_CORPUS to its folder)");  \
      return;                                                                      \
    }                                                                              \
  } while (0)
