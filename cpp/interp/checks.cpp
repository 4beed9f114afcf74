#include "interp/checks.h"

#include <cmath>
#include <cstring>

#include "hlo/literal.h"
#include "interp/elements.h"

namespace rl::interp {

bool is_check(const std::string& name) {
  return name == "check.expect_eq" || name == "check.expect_close" ||
         name == "check.expect_almost_eq" || name == "check.eq";
}

std::uint64_t ulp_distance(std::uint64_t a, std::uint64_t b, int bits) {
  if (a == b) return 0;
  const std::uint64_t sign = std::uint64_t(1) << (bits - 1);
  const std::uint64_t ma = a & (sign - 1), mb = b & (sign - 1);
  if ((a & sign) == (b & sign)) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;  // across zero: both magnitudes
}

namespace {

std::string index_text(std::int64_t flat, const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> idx(dims.size());
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (dims[d] > 0) {
      idx[d] = flat % dims[d];
      flat /= dims[d];
    }
  }
  std::string s = "[";
  for (std::size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + "]";
}

// Bits of a float element widened to 64 (for the ulp distance in its own format).
template <class S>
std::uint64_t bits_of(S s) {
  if constexpr (sizeof(S) == 2)
    return static_cast<std::uint16_t>(s);
  else if constexpr (sizeof(S) == 4) {
    std::uint32_t u;
    std::memcpy(&u, &s, 4);
    return u;
  } else {
    std::uint64_t u;
    std::memcpy(&u, &s, 8);
    return u;
  }
}

struct Verdict {
  bool ok = true;
  double distance = 0;  // ulps or |a − b|
};

// One real component under a check: NaN/inf rules, then the check's own measure.
template <class S, class C>
Verdict compare_real(const std::string& kind, S sa, S sb, C a, C b, int bits) {
  Verdict v;
  const double x = static_cast<double>(a), y = static_cast<double>(b);
  if (kind == "check.expect_eq") {
    v.ok = x == y;  // NaN never equals NaN; +0 == -0
    v.distance = std::isnan(x) || std::isnan(y) ? NAN : std::fabs(x - y);
    return v;
  }
  if (std::isnan(x) || std::isnan(y)) {
    v.ok = std::isnan(x) && std::isnan(y);
    v.distance = v.ok ? 0 : NAN;
    return v;
  }
  if (std::isinf(x) || std::isinf(y)) {
    v.ok = x == y;
    v.distance = v.ok ? 0 : INFINITY;
    return v;
  }
  if (kind == "check.expect_close") {
    const std::uint64_t d = ulp_distance(bits_of(sa), bits_of(sb), bits);
    v.distance = static_cast<double>(d);
    v.ok = d <= static_cast<std::uint64_t>(kCloseUlps);
    return v;
  }
  v.distance = std::fabs(x - y);
  v.ok = v.distance <= (kind == "check.eq" ? kEqTolerance : kAlmostEqTolerance);
  return v;
}

}  // namespace

CheckOutcome evaluate_check(const std::string& name, const Tensor& actual, const Tensor& expected) {
  CheckOutcome out;
  out.kind = name.substr(name.find('.') + 1);
  if (actual.type != expected.type || actual.dims != expected.dims) {
    out.passed = false;
    out.detail = "the two operands differ in type or shape";
    return out;
  }
  const std::int64_t n = actual.elements();
  std::int64_t mismatches = 0, first = -1;
  double first_distance = 0, worst = 0;
  const bool close = name == "check.expect_close";
  dispatch(actual.type, [&](auto e) {
    using E = decltype(e);
    using S = typename E::Storage;
    const S* a = actual.as<S>();
    const S* b = expected.as<S>();
    for (std::int64_t i = 0; i < n; ++i) {
      Verdict v;
      if constexpr (is_complex_v<E>) {
        using R = typename E::Compute::value_type;
        R pa[2], pb[2];
        std::memcpy(pa, &a[i], sizeof pa);
        std::memcpy(pb, &b[i], sizeof pb);
        constexpr int bits = sizeof(R) * 8;
        const Verdict re = compare_real<R, R>(name, pa[0], pb[0], pa[0], pb[0], bits);
        const Verdict im = compare_real<R, R>(name, pa[1], pb[1], pa[1], pb[1], bits);
        v.ok = re.ok && im.ok;
        v.distance = std::isnan(re.distance) || std::isnan(im.distance)
                         ? NAN
                         : std::max(re.distance, im.distance);
      } else if constexpr (is_float_v<E>) {
        constexpr int bits = sizeof(S) * 8;
        v = compare_real<S>(name, a[i], b[i], E::load(a[i]), E::load(b[i]), bits);
      } else {
        // Integers and booleans compare exactly under every check.
        v.ok = a[i] == b[i];
        v.distance = v.ok ? 0 : 1;
      }
      if (!v.ok) {
        ++mismatches;
        if (first < 0) first = i, first_distance = v.distance;
        if (!(v.distance <= worst)) worst = v.distance;
      }
    }
  });
  out.passed = mismatches == 0;
  if (out.passed) {
    out.detail = std::to_string(n) + " elements match";
    return out;
  }
  const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(actual.type));
  const auto* pa = actual.data() + static_cast<std::size_t>(first) * eb;
  const auto* pb = expected.data() + static_cast<std::size_t>(first) * eb;
  auto num = [](double d) {
    if (std::isnan(d)) return std::string("NaN");
    if (std::isinf(d)) return std::string("inf");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", d);
    return std::string(buf);
  };
  out.detail = std::to_string(mismatches) + " of " + std::to_string(n) +
               " elements differ; first at " + index_text(first, actual.dims) + ": got " +
               hlo::format_element(actual.type, pa) + ", expected " +
               hlo::format_element(expected.type, pb) + ", " +
               (close                       ? "distance " + num(first_distance) + " ulp (at most 3)"
                : name == "check.expect_eq" ? std::string("exact equality required")
                                            : "|difference| " + num(first_distance) + " (at most " +
                                                  (name == "check.eq" ? "0.0001" : "0.001") + ")") +
               "; largest distance " + num(worst);
  return out;
}

}  // namespace rl::interp
