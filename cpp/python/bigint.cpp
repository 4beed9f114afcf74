// Schoolbook arithmetic on base-2^32 magnitudes; division by shift-and-subtract over the
// dividend's bits (sizes are bounded by kMaxBigIntBits, so this stays fast enough).
#include "python/bigint.h"

#include <algorithm>
#include <cmath>

namespace rl::python {

namespace {

int cmp_mag(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (std::size_t k = a.size(); k-- > 0;)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}
std::vector<std::uint32_t> add_mag(const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> r(std::max(a.size(), b.size()) + 1, 0);
  std::uint64_t carry = 0;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const std::uint64_t s = carry + (k < a.size() ? a[k] : 0) + (k < b.size() ? b[k] : 0);
    r[k] = static_cast<std::uint32_t>(s);
    carry = s >> 32;
  }
  return r;
}
// a - b, |a| >= |b|
std::vector<std::uint32_t> sub_mag(const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> r(a.size(), 0);
  std::int64_t borrow = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    std::int64_t d = static_cast<std::int64_t>(a[k]) - borrow -
                     (k < b.size() ? static_cast<std::int64_t>(b[k]) : 0);
    borrow = d < 0;
    if (d < 0) d += std::int64_t(1) << 32;
    r[k] = static_cast<std::uint32_t>(d);
  }
  return r;
}

}  // namespace

void BigInt::trim() {
  while (!mag.empty() && mag.back() == 0) mag.pop_back();
  if (mag.empty()) neg = false;
}

BigInt BigInt::of(std::int64_t v) {
  BigInt b;
  b.neg = v < 0;
  std::uint64_t m = b.neg ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  while (m) {
    b.mag.push_back(static_cast<std::uint32_t>(m));
    m >>= 32;
  }
  return b;
}

bool BigInt::parse(const std::string& digits, int base, BigInt* out) {
  BigInt r;
  for (char c : digits) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'z' ? c - 'a' + 10
            : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                   : 99;
    if (d >= base) return false;
    std::uint64_t carry = static_cast<std::uint64_t>(d);
    for (auto& w : r.mag) {
      const std::uint64_t p =
          static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(base) + carry;
      w = static_cast<std::uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) r.mag.push_back(static_cast<std::uint32_t>(carry));
    if (r.mag.size() * 32 > kMaxBigIntBits + 64) return false;
  }
  r.trim();
  *out = r;
  return true;
}

bool BigInt::fits(std::int64_t* out) const {
  if (mag.size() > 2) return false;
  std::uint64_t m = 0;
  for (std::size_t k = mag.size(); k-- > 0;) m = (m << 32) | mag[k];
  if (!neg && m > static_cast<std::uint64_t>(INT64_MAX)) return false;
  if (neg && m > static_cast<std::uint64_t>(INT64_MAX) + 1) return false;
  *out = neg ? static_cast<std::int64_t>(0 - m) : static_cast<std::int64_t>(m);
  return true;
}

std::size_t BigInt::bits() const {
  if (mag.empty()) return 0;
  std::size_t b = (mag.size() - 1) * 32;
  for (std::uint32_t top = mag.back(); top; top >>= 1) ++b;
  return b;
}

std::string BigInt::to_pow2_base(int shift, bool upper) const {
  if (mag.empty()) return "0";
  const char* dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  const std::size_t total = bits();
  std::string out;
  for (std::size_t at = 0; at < total; at += static_cast<std::size_t>(shift)) {
    unsigned d = 0;
    for (int k = 0; k < shift; ++k) {
      const std::size_t bit = at + static_cast<std::size_t>(k);
      if (bit < total && ((mag[bit / 32] >> (bit % 32)) & 1u)) d |= 1u << k;
    }
    out += dig[d];
  }
  return std::string(out.rbegin(), out.rend());
}

std::string BigInt::to_decimal() const {
  if (mag.empty()) return "0";
  std::vector<std::uint32_t> m = mag;
  std::string out;
  while (!m.empty()) {
    std::uint64_t rem = 0;
    for (std::size_t k = m.size(); k-- > 0;) {
      const std::uint64_t cur = (rem << 32) | m[k];
      m[k] = static_cast<std::uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    while (!m.empty() && m.back() == 0) m.pop_back();
    std::string chunk = std::to_string(rem);
    if (!m.empty()) chunk = std::string(9 - chunk.size(), '0') + chunk;
    out = chunk + out;
  }
  return (neg ? "-" : "") + out;
}

double BigInt::to_double() const {
  const std::size_t nb = bits();
  if (nb == 0) return 0;
  if (nb > 1024) return neg ? -HUGE_VAL : HUGE_VAL;
  // The top 64 bits, with a sticky bit for anything below, rounded once by the conversion of a
  // 64-bit integer (whose low bit carries the sticky information below the 53 kept).
  const std::size_t shift = nb > 64 ? nb - 64 : 0;
  std::uint64_t top = 0;
  bool sticky = false;
  for (std::size_t b = nb; b-- > shift;) top = (top << 1) | ((mag[b / 32] >> (b % 32)) & 1u);
  for (std::size_t b = 0; b < shift && !sticky; ++b) sticky = (mag[b / 32] >> (b % 32)) & 1u;
  if (sticky) top |= 1;
  const double v = std::ldexp(static_cast<double>(top), static_cast<int>(shift));
  return neg ? -v : v;
}

int compare(const BigInt& a, const BigInt& b) {
  if (a.neg != b.neg) return a.neg ? -1 : 1;
  const int c = cmp_mag(a.mag, b.mag);
  return a.neg ? -c : c;
}

BigInt add(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.neg == b.neg) {
    r.mag = add_mag(a.mag, b.mag);
    r.neg = a.neg;
  } else if (cmp_mag(a.mag, b.mag) >= 0) {
    r.mag = sub_mag(a.mag, b.mag);
    r.neg = a.neg;
  } else {
    r.mag = sub_mag(b.mag, a.mag);
    r.neg = b.neg;
  }
  r.trim();
  return r;
}

BigInt sub(const BigInt& a, const BigInt& b) {
  BigInt nb = b;
  nb.neg = !b.neg;
  nb.trim();
  return add(a, nb);
}

BigInt mul(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.is_zero() || b.is_zero()) return r;
  r.mag.assign(a.mag.size() + b.mag.size(), 0);
  for (std::size_t i = 0; i < a.mag.size(); ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < b.mag.size(); ++j) {
      const std::uint64_t cur =
          static_cast<std::uint64_t>(a.mag[i]) * b.mag[j] + r.mag[i + j] + carry;
      r.mag[i + j] = static_cast<std::uint32_t>(cur);
      carry = cur >> 32;
    }
    std::size_t k = i + b.mag.size();
    while (carry) {
      const std::uint64_t cur = static_cast<std::uint64_t>(r.mag[k]) + carry;
      r.mag[k++] = static_cast<std::uint32_t>(cur);
      carry = cur >> 32;
    }
  }
  r.neg = a.neg != b.neg;
  r.trim();
  return r;
}

namespace {

// Truncated division of magnitudes, u / v (v nonzero), word by word: Knuth's algorithm D in base
// 2^32 (the divisor normalized so its top bit is set, each quotient word estimated from the top
// two words and corrected at most twice, then a multiply-subtract and at most one add-back).
void divmod_mag(const std::vector<std::uint32_t>& u, const std::vector<std::uint32_t>& v,
                std::vector<std::uint32_t>* q, std::vector<std::uint32_t>* r) {
  const std::size_t n = v.size(), m = u.size();
  q->clear();
  r->clear();
  if (cmp_mag(u, v) < 0) {
    *r = u;
    return;
  }
  if (n == 1) {
    std::uint64_t rem = 0;
    q->assign(m, 0);
    for (std::size_t j = m; j-- > 0;) {
      const std::uint64_t cur = (rem << 32) | u[j];
      (*q)[j] = static_cast<std::uint32_t>(cur / v[0]);
      rem = cur % v[0];
    }
    if (rem) r->push_back(static_cast<std::uint32_t>(rem));
  } else {
    const int s = __builtin_clz(v[n - 1]);
    auto up = [s](std::uint32_t hi, std::uint32_t lo) {  // (hi:lo) << s, the high word
      return s ? (hi << s) | static_cast<std::uint32_t>(lo >> (32 - s)) : hi;
    };
    std::vector<std::uint32_t> vn(n), un(m + 1);
    for (std::size_t i = n - 1; i > 0; --i) vn[i] = up(v[i], v[i - 1]);
    vn[0] = v[0] << s;
    un[m] = s ? static_cast<std::uint32_t>(u[m - 1] >> (32 - s)) : 0;
    for (std::size_t i = m - 1; i > 0; --i) un[i] = up(u[i], u[i - 1]);
    un[0] = u[0] << s;
    q->assign(m - n + 1, 0);
    constexpr std::uint64_t kBase = std::uint64_t(1) << 32;
    for (std::size_t j = m - n + 1; j-- > 0;) {
      const std::uint64_t num = (std::uint64_t(un[j + n]) << 32) | un[j + n - 1];
      std::uint64_t qhat = num / vn[n - 1], rhat = num % vn[n - 1];
      while (qhat >= kBase || qhat * vn[n - 2] > ((rhat << 32) | un[j + n - 2])) {
        --qhat;
        rhat += vn[n - 1];
        if (rhat >= kBase) break;
      }
      std::int64_t borrow = 0;
      std::uint64_t carry = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t p = qhat * vn[i] + carry;
        carry = p >> 32;
        const std::int64_t t =
            std::int64_t(un[i + j]) - borrow - static_cast<std::int64_t>(p & 0xFFFFFFFFu);
        un[i + j] = static_cast<std::uint32_t>(t);
        borrow = t < 0 ? 1 : 0;
      }
      const std::int64_t t = std::int64_t(un[j + n]) - borrow - static_cast<std::int64_t>(carry);
      un[j + n] = static_cast<std::uint32_t>(t);
      if (t < 0) {  // qhat was one too large: add the divisor back
        --qhat;
        std::uint64_t c = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint64_t sum = std::uint64_t(un[i + j]) + vn[i] + c;
          un[i + j] = static_cast<std::uint32_t>(sum);
          c = sum >> 32;
        }
        un[j + n] = static_cast<std::uint32_t>(un[j + n] + c);
      }
      (*q)[j] = static_cast<std::uint32_t>(qhat);
    }
    r->assign(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      (*r)[i] =
          (un[i] >> s) | (s ? static_cast<std::uint32_t>(std::uint64_t(un[i + 1]) << (32 - s)) : 0);
  }
  while (!q->empty() && q->back() == 0) q->pop_back();
  while (!r->empty() && r->back() == 0) r->pop_back();
}

}  // namespace

void divmod_floor(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r) {
  BigInt qq, rr;
  divmod_mag(a.mag, b.mag, &qq.mag, &rr.mag);
  qq.neg = a.neg != b.neg;
  qq.trim();
  rr.neg = a.neg;
  rr.trim();
  // floor: when the remainder is nonzero and the signs differ, q -= 1 and r += b
  if (!rr.is_zero() && (a.neg != b.neg)) {
    qq = sub(qq, BigInt::of(1));
    rr = add(rr, b);
  }
  *q = qq;
  *r = rr;
}

BigInt shift_left(const BigInt& a, std::size_t n) {
  BigInt r;
  if (a.is_zero()) return r;
  r.neg = a.neg;
  const std::size_t words = n / 32, bits = n % 32;
  r.mag.assign(words, 0);
  std::uint32_t carry = 0;
  for (std::uint32_t w : a.mag) {
    r.mag.push_back(bits ? (w << bits) | carry : w);
    carry = bits ? w >> (32 - bits) : 0;
  }
  if (carry) r.mag.push_back(carry);
  r.trim();
  return r;
}

BigInt shift_right(const BigInt& a, std::size_t n) {
  BigInt r;
  const std::size_t words = n / 32, bits = n % 32;
  if (words >= a.mag.size()) return a.neg ? BigInt::of(-1) : r;
  bool lost = false;  // a one bit shifted out (a negative a then rounds down, away from zero)
  for (std::size_t k = 0; k < words; ++k) lost = lost || a.mag[k] != 0;
  if (bits) lost = lost || (a.mag[words] & ((std::uint32_t(1) << bits) - 1)) != 0;
  for (std::size_t k = words; k < a.mag.size(); ++k) {
    std::uint32_t w = bits ? a.mag[k] >> bits : a.mag[k];
    if (bits && k + 1 < a.mag.size()) w |= a.mag[k + 1] << (32 - bits);
    r.mag.push_back(w);
  }
  r.trim();
  r.neg = a.neg;
  if (a.neg && lost) r = sub(r, BigInt::of(1));
  if (r.is_zero()) r.neg = false;
  return r;
}

namespace {

// x's two's complement in `words` words (enough for its sign bit).
std::vector<std::uint32_t> twos(const BigInt& x, std::size_t words) {
  std::vector<std::uint32_t> w(words, 0);
  for (std::size_t k = 0; k < x.mag.size(); ++k) w[k] = x.mag[k];
  if (!x.neg) return w;
  std::uint64_t carry = 1;  // ~|x| + 1
  for (auto& e : w) {
    const std::uint64_t v = std::uint64_t(static_cast<std::uint32_t>(~e)) + carry;
    e = static_cast<std::uint32_t>(v);
    carry = v >> 32;
  }
  return w;
}

}  // namespace

BigInt bitwise(const BigInt& a, const BigInt& b, char op) {
  const std::size_t words = std::max(a.mag.size(), b.mag.size()) + 1;
  std::vector<std::uint32_t> x = twos(a, words);
  const std::vector<std::uint32_t> y = twos(b, words);
  for (std::size_t k = 0; k < words; ++k)
    x[k] = op == '&' ? x[k] & y[k] : op == '|' ? x[k] | y[k] : x[k] ^ y[k];
  BigInt r;
  r.neg = (x.back() >> 31) != 0;
  if (r.neg) {  // the magnitude: ~x + 1
    std::uint64_t carry = 1;
    for (auto& e : x) {
      const std::uint64_t v = std::uint64_t(static_cast<std::uint32_t>(~e)) + carry;
      e = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
  }
  r.mag = std::move(x);
  r.trim();
  return r;
}

}  // namespace rl::python
