#include "python/pynum.h"

#include <cmath>
#include <limits>

namespace rl::python {

double py_fmod(double x, double y) {
  double m = std::fmod(x, y);
  if (m != 0) {
    if ((y < 0) != (m < 0)) m += y;
  } else {
    m = std::copysign(0.0, y);
  }
  return m;
}

double py_floordiv(double x, double y) {
  if (y == 0) return x / y;  // NumPy: inf or nan (with a warning)
  const double m = std::fmod(x, y);
  double div = (x - m) / y;
  if (m != 0 && ((y < 0) != (m < 0))) div -= 1;
  if (div == 0) return std::copysign(0.0, x / y);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1;
  return fl;
}

namespace {

PyNumResult ok_int(std::int64_t v, bool is_bool = false) {
  PyNumResult r;
  r.value.i = v;
  r.value.is_bool = is_bool;
  return r;
}
PyNumResult ok_float(double v) {
  PyNumResult r;
  r.value.is_float = true;
  r.value.f = v;
  return r;
}
PyNumResult status(PyNumStatus s) {
  PyNumResult r;
  r.status = s;
  return r;
}
PyNumResult error(const char* type, std::string message) {
  PyNumResult r;
  r.status = PyNumStatus::Error;
  r.error_type = type;
  r.message = std::move(message);
  return r;
}

PyNumResult int_op(const std::string& op, std::int64_t a, std::int64_t b, bool bools) {
  std::int64_t r = 0;
  if (op == "+" || op == "-" || op == "*") {
    const bool over = op == "+"   ? __builtin_add_overflow(a, b, &r)
                      : op == "-" ? __builtin_sub_overflow(a, b, &r)
                                  : __builtin_mul_overflow(a, b, &r);
    return over ? status(PyNumStatus::Overflow) : ok_int(r);
  }
  if (op == "/") {
    if (b == 0) return error("ZeroDivisionError", "division by zero");
    return ok_float(static_cast<double>(a) / static_cast<double>(b));
  }
  if (op == "//" || op == "%") {
    if (b == 0)
      return error("ZeroDivisionError",
                   op == "//" ? "integer division or modulo by zero" : "integer modulo by zero");
    if (b == -1 && a == std::numeric_limits<std::int64_t>::min())
      return op == "%" ? ok_int(0) : status(PyNumStatus::Overflow);
    std::int64_t q = a / b, m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) {  // Python's floor: the remainder takes b's sign
      q -= 1;
      m += b;
    }
    return ok_int(op == "//" ? q : m);
  }
  if (op == "**") {
    if (b < 0) {
      if (a == 0) return error("ZeroDivisionError", "0.0 cannot be raised to a negative power");
      return ok_float(std::pow(static_cast<double>(a), static_cast<double>(b)));
    }
    // By squaring: a huge exponent of 0, 1 or -1 must not loop b times.
    std::int64_t res = 1, base = a;
    for (std::int64_t e = b; e > 0; e >>= 1) {
      if ((e & 1) && __builtin_mul_overflow(res, base, &res)) return status(PyNumStatus::Overflow);
      if (e > 1 && __builtin_mul_overflow(base, base, &base)) return status(PyNumStatus::Overflow);
    }
    return ok_int(res);
  }
  if (op == "&") return ok_int(a & b, bools);
  if (op == "|") return ok_int(a | b, bools);
  if (op == "^") return ok_int(a ^ b, bools);
  if (op == "<<" || op == ">>") {
    if (b < 0) return error("ValueError", "negative shift count");
    if (op == ">>") return ok_int(b >= 64 ? (a < 0 ? -1 : 0) : a >> b);
    if (a == 0) return ok_int(0);
    // a << b is a · 2^b (shifting a negative value left is undefined in C++).
    if (b >= 63 || (a > 0 ? a > (std::numeric_limits<std::int64_t>::max() >> b)
                          : a < (std::numeric_limits<std::int64_t>::min() >> b)))
      return status(PyNumStatus::Overflow);
    return ok_int(static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b));
  }
  return status(PyNumStatus::Unsupported);
}

PyNumResult float_op(const std::string& op, double a, double b) {
  if (op == "+") return ok_float(a + b);
  if (op == "-") return ok_float(a - b);
  if (op == "*") return ok_float(a * b);
  if (op == "/") {
    if (b == 0) return error("ZeroDivisionError", "float division by zero");
    return ok_float(a / b);
  }
  if (op == "//" || op == "%") {
    if (b == 0)
      return error("ZeroDivisionError",
                   op == "//" ? "float floor division by zero" : "float modulo");
    return ok_float(op == "%" ? py_fmod(a, b) : py_floordiv(a, b));
  }
  if (op == "**") {
    if (a == 0 && b < 0)
      return error("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    if (a < 0 && b != std::floor(b))
      return error(
          "ValueError",
          "a negative number to a fractional power gives a complex number, not supported here");
    const double r = std::pow(a, b);
    if (std::isinf(r) && std::isfinite(a) && std::isfinite(b))
      return error("OverflowError", "(34, 'Numerical result out of range')");
    return ok_float(r);
  }
  return status(PyNumStatus::Unsupported);
}

}  // namespace

PyNumResult py_number_op(const std::string& op, const PyNum& a, const PyNum& b) {
  if (!a.is_float && !b.is_float) return int_op(op, a.i, b.i, a.is_bool && b.is_bool);
  return float_op(op, a.as_double(), b.as_double());
}

}  // namespace rl::python
