// Helpers for the interpreter's tests: run a module's text, read a result back as numbers.
#pragma once

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "hlo/lower.h"
#include "hlo/parse.h"
#include "interp/elements.h"
#include "interp/interp.h"

namespace rl::testing {

struct Ran {
  std::vector<hlo::Module> modules;  // kept alive: the program and the results refer to them
  interp::RunResult result;
};

// Parses, lowers and runs a one-module text (the parse and the lowering must succeed).
inline Ran run_text(const std::string& text, interp::RunOptions options = {}) {
  Ran out;
  auto r = hlo::parse(text);
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  REQUIRE(r->size() == 1);
  out.modules = std::move(r.value());
  auto p = hlo::lower(out.modules.front());
  INFO((p.ok() ? std::string() : p.error()));
  REQUIRE(p.ok());
  out.result = interp::run_program(p.value(), options);
  return out;
}

// Runs a module that must pass (no checks needed: "passed" means it ran); on failure the test
// shows the text, the error or the op not run.
inline interp::RunResult run_ok(const std::string& text, interp::RunOptions options = {}) {
  Ran ran = run_text(text, options);
  INFO(text);
  INFO((ran.result.errors.empty() ? ran.result.status : ran.result.errors.front().message));
  INFO((ran.result.unsupported.empty()
            ? std::string()
            : ran.result.unsupported.front().op + ": " + ran.result.unsupported.front().why));
  REQUIRE(ran.result.status == "passed");
  return std::move(ran.result);
}

// A one-module text lowered (kept alive for the test's length: the program refers to it).
inline const hlo::Program& lowered(const std::string& text) {
  static std::vector<std::unique_ptr<std::pair<std::vector<hlo::Module>, hlo::Program>>> kept;
  auto r = hlo::parse(text);
  REQUIRE(r.ok());
  auto owned = std::make_unique<std::pair<std::vector<hlo::Module>, hlo::Program>>();
  owned->first = std::move(r.value());
  auto p = hlo::lower(owned->first.front());
  REQUIRE(p.ok());
  owned->second = std::move(p.value());
  kept.push_back(std::move(owned));
  return kept.back()->second;
}

// The error of a run that must fail, or of a lowering that must fail.
inline std::string run_error(const std::string& text, interp::RunOptions options = {}) {
  auto r = hlo::parse(text);
  if (!r.ok()) return r.error();
  auto p = hlo::lower(r->front());
  if (!p.ok()) return p.error();
  auto res = interp::run_program(p.value(), options);
  if (!res.errors.empty()) return res.errors.front().message;
  if (!res.unsupported.empty())
    return "not run: " + res.unsupported.front().op + ": " + res.unsupported.front().why;
  return "no error (" + res.status + ")";
}

// A value's bytes, a tuple's elements in order (two runs compared bit for bit).
inline std::vector<std::uint8_t> value_bytes(const interp::Value& v) {
  std::vector<std::uint8_t> out;
  if (v.is_tensor()) {
    const std::size_t n = static_cast<std::size_t>(v.tensor.elements()) *
                          static_cast<std::size_t>(hlo::element_bytes(v.tensor.type));
    out.assign(v.tensor.data(), v.tensor.data() + n);
  }
  for (const interp::Value& e : v.tuple) {
    const std::vector<std::uint8_t> b = value_bytes(e);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

// Result i as doubles (complex: real parts; see as_complex).
inline std::vector<double> as_doubles(const interp::RunResult& r, std::size_t i = 0) {
  REQUIRE(r.values.size() > i);
  const interp::Tensor& t = r.values[i].tensor;
  std::vector<double> out;
  interp::dispatch(t.type, [&](auto e) {
    using E = decltype(e);
    const auto* p = t.as<typename E::Storage>();
    for (std::int64_t k = 0; k < t.elements(); ++k) {
      const auto c = E::load(p[k]);
      if constexpr (interp::is_complex_v<E>)
        out.push_back(static_cast<double>(c.real()));
      else
        out.push_back(static_cast<double>(c));
    }
  });
  return out;
}

inline std::vector<std::complex<double>> as_complex(const interp::RunResult& r, std::size_t i = 0) {
  REQUIRE(r.values.size() > i);
  const interp::Tensor& t = r.values[i].tensor;
  std::vector<std::complex<double>> out;
  interp::dispatch(t.type, [&](auto e) {
    using E = decltype(e);
    const auto* p = t.as<typename E::Storage>();
    for (std::int64_t k = 0; k < t.elements(); ++k) {
      const auto c = E::load(p[k]);
      if constexpr (interp::is_complex_v<E>) out.emplace_back(c.real(), c.imag());
    }
  });
  return out;
}

// complex<f32> values as a StableHLO dense literal: [(re, im), ...], each part to 9 digits.
inline std::string complex_literal(const std::vector<std::complex<float>>& v) {
  std::string s = "[";
  char buf[80];
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s(%.9g, %.9g)", i ? ", " : "",
                  static_cast<double>(v[i].real()), static_cast<double>(v[i].imag()));
    s += buf;
  }
  return s + "]";
}

// Each element within tol·(1 + |want|) of want, the sizes equal (real, or complex by modulus).
inline bool close(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol * (1 + std::fabs(want[i])))) return false;
  return true;
}
inline bool close(const std::vector<std::complex<double>>& got,
                  const std::vector<std::complex<double>>& want, double tol) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])))) return false;
  return true;
}

// A function body around one op: `func.func @main() -> RESULT { BODY }`.
inline std::string main_of(const std::string& result_type, const std::string& body) {
  return "func.func @main() -> " + result_type + " {\n" + body + "}\n";
}

}  // namespace rl::testing
