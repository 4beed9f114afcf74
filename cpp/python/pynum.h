// Python's arithmetic on two numbers that fit a machine word (an int as int64, a float as
// double), written once for both evaluators: the notebook's (python/notebook.cpp, which takes an
// int64 overflow on to its big ints) and the tracer's (python/tracer.cpp, the Python scalars a
// traced function computes with, which refuses ints past 64 bits). CPython 3.11's results (floor
// division and modulo with the divisor's sign, float_divmod's rounding) and its messages.
#pragma once

#include <cstdint>
#include <string>

namespace rl::python {

struct PyNum {
  bool is_float = false;
  bool is_bool = false;  // an int that is a bool: bool & | ^ bool stays a bool
  std::int64_t i = 0;
  double f = 0;
  double as_double() const { return is_float ? f : static_cast<double>(i); }
};

enum class PyNumStatus : std::uint8_t {
  Ok,           // value holds the result
  Overflow,     // an int result past int64 (the caller goes on with big ints, or refuses)
  Error,        // Python raises error_type (ZeroDivisionError, ValueError, OverflowError): message
  Unsupported,  // not an operator on these numbers (the caller's TypeError)
};

struct PyNumResult {
  PyNumStatus status = PyNumStatus::Ok;
  PyNum value;
  const char* error_type = "";
  std::string message;
};

// CPython's float_divmod, for the floats of both evaluators and NumPy's float arrays
// (python/ndarray.cpp): the remainder with the divisor's sign (−0.0 or +0.0 as the divisor), and
// the quotient rounded from (x − mod) / y, since floor(x / y) can be one off (7.0 // 0.1 is 69.0).
// y = 0 gives NumPy's inf or nan; Python's callers raise ZeroDivisionError before.
double py_fmod(double x, double y);
double py_floordiv(double x, double y);

// op: + - * / // % ** & | ^ << >> (& | ^ << >> on ints only).
PyNumResult py_number_op(const std::string& op, const PyNum& a, const PyNum& b);

}  // namespace rl::python
