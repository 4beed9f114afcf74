// rl_run_files: the native build's interpreter over files, for the differential test that
// compares it with the wasm core (tests/js/native_wasm.test.mjs). One JSON line per file:
// {"file": PATH, "run": <report::run_text_json>}, each run with seeded inputs (seed 1) and no
// op timing, fused as the wasm core runs by default (--no-fuse: op by op). A file that cannot be
// read gives {"file": PATH, "error": "..."}.
//
//   rl_run_files [--no-fuse] FILE...
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
    if (std::string(argv[i]) == "--no-fuse") {
      options.fuse = false;
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
