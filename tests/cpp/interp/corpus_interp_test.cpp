// StableHLO's own interpreter tests, run by this interpreter: every top-level file of
// ../shared/corpus/stablehlo and ../shared/corpus/stablehlo-interpret (their inputs are constants,
// their expected results constants, their verdicts check calls). A file whose ops all run must
// pass every check: a supported op gives the right answer, or it is not supported.
#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/lower.h"
#include "hlo/parse.h"
#include "hlo/test_util.h"
#include "interp/interp.h"
#include "interp/interp_util.h"

using namespace rl;

namespace {

struct FileRun {
  std::string file, status, detail;
  std::vector<std::string> missing;  // ops not run
  std::string over_need;             // modules whose run held more than memory_need said
};

int measured = 0,
    above = 0;  // modules run, and those whose ops' scratch took them past memory_need

FileRun run_file(const std::string& dir, const std::string& name) {
  FileRun out{name, "", "", {}, ""};
  auto mods = hlo::parse(rl::testing::read_file(dir + "/" + name));
  if (!mods.ok()) {
    out.status = "error";
    out.detail = mods.error();
    return out;
  }
  // A file may hold several modules (`// -----`): it passes when every one does.
  out.status = "passed";
  std::size_t checks = 0;
  auto worse = [](const std::string& a, const std::string& b) {
    auto rank = [](const std::string& s) {
      return s == "error" ? 3 : s == "failed" ? 2 : s == "not_run" ? 1 : 0;
    };
    return rank(b) > rank(a) ? b : a;
  };
  for (const auto& m : mods.value()) {
    auto program = hlo::lower(m);
    if (!program.ok()) {
      out.status = "error";
      out.detail = program.error();
      return out;
    }
    interp::RunResult r = interp::run_program(program.value(), interp::RunOptions{});
    out.status = worse(out.status, r.status);
    checks += r.checks.size();
    for (const auto& u : r.unsupported) {
      const std::string key = u.op + " (" + u.why + ")";
      if (std::find(out.missing.begin(), out.missing.end(), key) == out.missing.end())
        out.missing.push_back(key);
    }
    if (!r.errors.empty() && out.detail.empty()) out.detail = r.errors.front().message;
    // What the IR says the program's values need at most, against what the run held: the run adds
    // ops' own scratch (sort's int64 permutation is the most here: 2.7× the values' bytes), so a
    // run past 4× the estimate means the estimate or the interpreter's freeing went wrong.
    if (r.peak_bytes > 0) ++measured;
    if (static_cast<double>(r.peak_bytes) > r.memory_need_bytes) ++above;
    if (static_cast<double>(r.peak_bytes) > 4 * r.memory_need_bytes)
      out.over_need += name + ": peak " + std::to_string(r.peak_bytes) + " bytes > memory_need " +
                       std::to_string(r.memory_need_bytes) + "\n";
    for (const auto& c : r.checks)
      if (!c.passed && out.detail.empty())
        out.detail = std::to_string(c.line) + ": " + c.kind + ": " + c.detail;
  }
  if (out.status == "passed" && checks == 0) {
    out.status = "failed";
    out.detail = "no check ran";
  }
  return out;
}

}  // namespace

TEST_CASE("StableHLO's interpreter tests run: every file whose ops are supported passes its checks",
          "[interp][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo-interpret");
  std::map<std::string, int> by_status;
  std::map<std::string, int> missing;  // op (why) → files
  std::string failures, over_need;
  int files = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const char* sub : {"stablehlo", "stablehlo-interpret"}) {
    const std::string dir = rl::testing::corpus_dir() + "/" + sub;
    for (const auto& name : rl::testing::list_files(dir, ".mlir")) {
      FileRun f = run_file(dir, name);
      ++files;
      ++by_status[f.status];
      for (const auto& m : f.missing) ++missing[m];
      if (f.status == "failed" || f.status == "error")
        failures += std::string(sub) + "/" + name + ": " + f.status + ": " + f.detail + "\n";
      over_need += f.over_need;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<std::pair<int, std::string>> ranked;
  for (const auto& [op, n] : missing) ranked.emplace_back(n, op);
  std::sort(ranked.rbegin(), ranked.rend());
  std::ostringstream report;
  report << files << " files in " << seconds << " s: " << by_status["passed"] << " passed, "
         << by_status["failed"] << " failed, " << by_status["not_run"] << " not run, "
         << by_status["error"] << " errors (" << (100.0 * by_status["passed"] / files)
         << "% pass)\nnot run, by op (files):\n";
  for (const auto& [n, op] : ranked) report << "  " << n << "  " << op << "\n";
  WARN(report.str());
  INFO(failures);
  CHECK(by_status["failed"] == 0);
  CHECK(by_status["error"] == 0);
  INFO(over_need);
  CHECK(over_need.empty());
  WARN(above << " of " << measured
             << " modules held more than memory_need (ops' scratch), none past 4x");
  CHECK(measured > 0);
  // The corpus is read as it is found: its size is reported above, not asserted.
  REQUIRE(files > 0);
  // The goal: at least 95 % of the files pass (what is not run uses dynamic shapes,
  // quantized types, or single-precision fft/triangular_solve, where XLA's own f32 rounding is
  // the expected value and upstream does not run those files either).
  CHECK(by_status["passed"] * 100 >= files * 95);
}

// The HLO corpus (XLA's own test and benchmark modules, many after optimization: fusions,
// bitcasts, layouts) run on arange inputs, op by op and fused: each module runs, is refused naming
// the op it does not run and why, or stops at a limit its data sets (an elided literal, the memory
// cap, the iteration cap, the time budget). Any other error is a bug of the interpreter (the two
// this test found: a computation whose ROOT is a parameter, HLO conditional's branch operands).
// Fused and op-by-op runs give the same bits. Modules the verifier refuses are hlo_corpus_test's.
TEST_CASE("the HLO corpus runs on arange inputs, or is refused with a reason, or stops at a limit",
          "[interp][corpus][hlo]") {
  SKIP_WITHOUT_CORPUS("hlo");
  const std::string dir = rl::testing::corpus_dir() + "/hlo";
  std::map<std::string, int> by_status;
  std::string failures;
  int modules = 0, compared = 0;
  for (const auto& name : rl::testing::list_files(dir, ".hlo")) {
    auto mods = hlo::parse(rl::testing::read_file(dir + "/" + name));
    if (!mods.ok()) {
      ++by_status["not parsed"];
      continue;
    }
    for (const hlo::Module& m : mods.value()) {
      ++modules;
      auto p = hlo::lower(m);
      if (!p.ok()) {
        ++by_status["not verified"];
        continue;
      }
      std::vector<std::vector<std::uint8_t>> bits[2];
      for (int fused = 0; fused < 2; ++fused) {
        interp::RunOptions o;
        o.inputs = interp::Inputs::Arange;
        o.memory_cap = std::size_t(64) << 20;
        o.max_iterations = 10000;
        o.time_budget_seconds = 5;
        o.fuse = fused == 1;
        const interp::RunResult r = interp::run_program(p.value(), o);
        if (!r.errors.empty()) {
          const std::string& e = r.errors.front().message;
          const bool limit = e.find("elided") != std::string::npos ||
                             e.find("memory cap") != std::string::npos ||
                             e.find("bytes for") != std::string::npos ||
                             e.find("iteration cap") != std::string::npos ||
                             e.find("took too long") != std::string::npos;
          if (!fused) ++by_status[limit ? "stopped at a limit" : "error"];
          if (!limit) failures += name + (fused ? " (fused)" : "") + ": " + e + "\n";
          break;
        }
        if (!fused) ++by_status[r.status == "passed" ? "ran" : r.status];
        if (r.status != "passed") break;
        for (const interp::Value& v : r.values) bits[fused].push_back(rl::testing::value_bytes(v));
      }
      if (!bits[0].empty() && !bits[1].empty()) {
        ++compared;
        if (bits[0] != bits[1]) failures += name + ": fused and op-by-op results differ\n";
      }
    }
  }
  std::ostringstream report;
  report << modules << " HLO modules:";
  for (const auto& [status, n] : by_status) report << " " << n << " " << status << ";";
  report << " " << compared << " compared fused with op by op";
  WARN(report.str());
  INFO(failures);
  CHECK(failures.empty());
  CHECK(by_status["ran"] > 0);
  CHECK(compared > 0);
}
