// NumPy's .npy format, read and written: arrays from the real world as a program's arguments,
// and a program's results saved for NumPy (np.load) to read back.
//
// The format (NumPy's "NEP 1", numpy/lib/format.py): the magic "\x93NUMPY", a major and minor
// version (1.0: a 2-byte header length; 2.0 and 3.0: 4 bytes; 3.0's header is UTF-8), then a
// header that is a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (32, 16),
// } padded with spaces and a newline so the data starts on a 64-byte boundary, then the elements.
//
// Read: descr '<'/'>'/'|'/'=' with b1, i1..i8, u1..u8, f2, f4, f8, c8, c16 (big-endian data is
// swapped to the core's little-endian storage); C order only (a Fortran-order file is refused
// with what to do); the data's length must be what the shape says. Written: version 1.0, C order,
// little-endian, the same types (types .npy cannot name — bf16, the f8 formats, s4... — are
// refused by name: NumPy has no descr for them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hlo/element_type.h"

namespace rl::interp {

// An array as the core stores one: element type, dims (row-major) and little-endian bytes.
struct HostArray {
  hlo::ElementType type = hlo::ElementType::Invalid;
  std::vector<std::int64_t> dims;
  std::string bytes;
  std::string name;  // where it came from ("a.npy"), for messages
};

// Reads a .npy file's bytes; `name` names the file in every message ("a.npy: ...").
Result<HostArray> read_npy(std::string_view file, std::string_view name);

// Writes an array as .npy bytes (version 1.0). `data` holds `elements × element_bytes(type)`
// bytes in the core's storage (the interpreter's tensors).
Result<std::string> write_npy(hlo::ElementType type, const std::vector<std::int64_t>& dims,
                              const std::uint8_t* data);

// The descr NumPy writes for an element type ("<f4", "|b1"); empty when .npy has none.
std::string npy_descr(hlo::ElementType type);

// An array's type as NumPy users read it: "float32 (32, 16)", "bool ()".
std::string numpy_spelling(hlo::ElementType type, const std::vector<std::int64_t>& dims);

}  // namespace rl::interp
