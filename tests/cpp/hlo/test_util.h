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

// The names of values ("%0", "%0#1", "add.3").
inline std::vector<std::string> value_names(const hlo::Function& f, hlo::Span<hlo::ValueId> vs) {
  std::vector<std::string> out;
  for (hlo::ValueId v : vs) out.push_back(f.value_name(v));
  return out;
}
inline std::vector<std::string> value_names(const hlo::Function& f,
                                            const std::vector<hlo::ValueId>& vs) {
  return value_names(f, hlo::Span<hlo::ValueId>{vs.data(), vs.size()});
}

// The op of the function's top-level blocks whose first result is called `name`, or nullptr.
inline const hlo::Op* find_op(const hlo::Function& f, const std::string& name) {
  for (const auto& b : f.body.blocks)
    for (const auto& op : b.ops)
      if (op.results.count > 0 && f.value_name(f.results(op)[0]) == name) return &op;
  return nullptr;
}

// An attribute's raw text, or "<absent>".
inline std::string attr_text(const hlo::Function& f, const hlo::Op& op, const std::string& name) {
  const hlo::Attribute* a = f.attr(op, name);
  return a ? std::string(a->value) : std::string("<absent>");
}

// The entry's own rows (the ones the totals add up), copied.
inline std::vector<hlo::OpCost> top_rows(const hlo::Analysis& a) {
  std::vector<hlo::OpCost> out;
  for (const auto* r : a.top_level()) out.push_back(*r);
  return out;
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
      if (n.size() > suffix.size() &&
          n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace rl::testing
