// Helpers for the hlo tests: reading corpus files and listing a corpus folder.
#pragma once

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "hlo/cost.h"

namespace rl::testing {

// The analysis of a text that must hold exactly one module (a failure shows the error).
inline hlo::Analysis analyze_one(const std::string& text) {
  auto r = hlo::analyze(text);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->size() == 1);
  return r->front();
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Sorted names of the files in `dir` ending in `suffix`.
inline std::vector<std::string> list_files(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace rl::testing
