// rl_run_files: the native build's interpreter over files, for the differential test that
// compares it with the wasm core (tests/js/native_wasm.test.mjs). One JSON line per file:
// {"file": PATH, "run": <report::run_text_json>}, each run with seeded inputs (seed 1) and no
// op timing, fused as the wasm core runs by default (--no-fuse: op by op). A file that cannot be
// read gives {"file": PATH, "error": "..."}. The limits a run has (the scripts/fuzz run target's,
// for its differential check) may be given before the files; each applies to the files after it.
//
//   rl_run_files [--no-fuse] [--memory-cap BYTES] [--max-iterations N] [--time-budget SECONDS]
//   FILE...
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "common/json_writer.h"
#include "report/run_report.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: rl_run_files FILE...\n");
    return 2;
  }
  rl::interp::RunOptions options;
  options.inputs = rl::interp::Inputs::Seeded;
  options.seed = 1;
  options.time_ops = false;
  options.fuse = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--no-fuse") {
      options.fuse = false;
      continue;
    }
    if (arg == "--memory-cap" || arg == "--max-iterations" || arg == "--time-budget") {
      const char* v = i + 1 < argc ? argv[i + 1] : "";
      const char* end = v + std::string(v).size();
      double number = 0;
      unsigned long long whole = 0;
      const bool ok = arg == "--time-budget"
                          ? std::from_chars(v, end, number).ptr == end && *v != 0 && number > 0
                          : std::from_chars(v, end, whole).ptr == end && *v != 0 && whole > 0;
      if (!ok) {
        std::fprintf(stderr, "rl_run_files: %s takes a positive number, got \"%s\"\n", arg.c_str(),
                     v);
        return 2;
      }
      if (arg == "--memory-cap") options.memory_cap = static_cast<std::size_t>(whole);
      if (arg == "--max-iterations") options.max_iterations = static_cast<std::uint64_t>(whole);
      if (arg == "--time-budget") options.time_budget_seconds = number;
      ++i;
      continue;
    }
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    rl::JsonWriter head;
    head.begin_object().field("file", std::string(argv[i]));
    // The run's JSON is already text: it goes in as the value of "run", written as it is.
    const std::string line =
        in ? head.text() + ",\"run\":" + rl::report::run_text_json(text.str(), options) + "}"
           : head.field("error", std::string("cannot read the file")).end_object().text();
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
  }
  return 0;
}
