// Python's ints past 64 bits: sign and magnitude in base 2^32. The notebook (notebook.cpp) keeps
// ints in an int64 while they fit and moves to a BigInt when an operation overflows, so results
// are exact at any size, as Python's are, up to kMaxBigIntBits (past it: an error, not a hang).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rl::python {

constexpr std::size_t kMaxBigIntBits = 1 << 16;  // 65536 bits, about 19,700 decimal digits

struct BigInt {
  bool neg = false;
  std::vector<std::uint32_t> mag;  // little-endian, no leading zero words; zero: empty

  static BigInt of(std::int64_t v);
  // Digits in base 2..36 (no sign, no prefix, no underscores); false on a bad digit.
  static bool parse(const std::string& digits, int base, BigInt* out);
  bool is_zero() const { return mag.empty(); }
  bool fits(std::int64_t* out) const;
  std::size_t bits() const;
  std::string to_decimal() const;
  // The magnitude's digits in base 2^shift (shift 1, 3 or 4: binary, octal, hex), no sign.
  std::string to_pow2_base(int shift, bool upper) const;
  double to_double() const;  // rounded to nearest even; inf when past the double range
  void trim();
};

int compare(const BigInt& a, const BigInt& b);
BigInt add(const BigInt& a, const BigInt& b);
BigInt sub(const BigInt& a, const BigInt& b);
BigInt mul(const BigInt& a, const BigInt& b);
// Floor division and modulo as Python's (the remainder takes the divisor's sign); b nonzero.
void divmod_floor(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r);
// a << n and a >> n as Python's: a * 2**n, and floor(a / 2**n) (toward minus infinity for a
// negative a), word by word.
// a & b, a | b, a ^ b (op '&', '|', '^') as Python's: on the infinite two's complement forms.
BigInt bitwise(const BigInt& a, const BigInt& b, char op);
BigInt shift_left(const BigInt& a, std::size_t n);
BigInt shift_right(const BigInt& a, std::size_t n);

}  // namespace rl::python
