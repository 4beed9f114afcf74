// libFuzzer target for NumPy's .npy reader (cpp/interp/npy.cpp): arbitrary bytes read as a
// file. Any input must give an array or an error that names the file: no crash, no sanitizer
// report. An array read must write back to bytes that read as the same array (type, dims and
// data); a broken invariant traps. Built and run by scripts/fuzz (clang-14,
// -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string>

#include "interp/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string file(reinterpret_cast<const char*>(data), size);
  auto r = rl::interp::read_npy(file, "f.npy");
  if (!r) {
    if (r.error().compare(0, 7, "f.npy: ") != 0 || r.error_info().input != "f.npy")
      __builtin_trap();
    return 0;
  }
  auto w = rl::interp::write_npy(r->type, r->dims,
                                 reinterpret_cast<const std::uint8_t*>(r->bytes.data()));
  if (!w) __builtin_trap();
  auto back = rl::interp::read_npy(w.value(), "back.npy");
  if (!back || back->type != r->type || back->dims != r->dims || back->bytes != r->bytes)
    __builtin_trap();
  return 0;
}
