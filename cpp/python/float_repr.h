// Floats as CPython and NumPy print them: the shortest digit string that reads back to the same
// double (David Gay's mode 0, which both use), then CPython's repr layout (`26.666666666666664`,
// `100.0`, `1e-05`, `1e+16`, `inf`, `nan`).
#pragma once

#include <string>

namespace rl::python {

// The shortest round-trip digits of a finite, nonzero |x|: "26666666666666664" with the decimal
// point after `*point` digits (0.001 → "1", point -2).
std::string shortest_digits(double x, int* point);

// repr(x) / str(x) for a Python float.
std::string float_repr(double x);

// A float32 value's shortest round-trip digits (as NumPy prints float32: `0.1` for float32(0.1)).
std::string shortest_digits_f32(float x, int* point);
std::string float32_repr(float x);

}  // namespace rl::python
