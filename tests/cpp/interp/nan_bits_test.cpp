// NaN payloads through the interpreter: ops that move values (constants, data movement, select,
// gather, scatter's replace, sort, bitcast_convert, tuples, while/case/call carries, returns)
// must move them as bits. A quiet NaN with a payload, −NaN, and signalling-looking NaNs of
// both signs are written as hex bit patterns for every float type, run through each op, and the
// result's bytes compared with the input's. A float register, a conversion to double or an
// f16/bf16 → f32 → f16 round trip that quiets or canonicalizes a NaN fails here (in wasm too,
// where arithmetic may canonicalize NaNs but loads, stores and copies may not).
//
// sort and chlo.top_k with NaNs: the order their comparators give (TOTALORDER: −NaN first,
// +NaN last, by the bits; FLOAT and JAX's canonicalized comparator: every NaN after +inf,
// stable among themselves; top_k: descending in the total order), the bits kept.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::main_of;
using rl::testing::run_ok;
using rl::testing::run_text;

namespace {

// Four elements of one float type as bits (complex: real and imaginary parts), plus 1.0 and
// −1.0 (for the sorts). For the real types v0 = +quiet NaN with a payload, v1 = −quiet NaN (the
// canonical −nan), v2 = +signalling NaN, v3 = −signalling NaN with payload 1: in the total order
// v1 < v3 < −1 < 1 < v2 < v0.
struct Payloads {
  const char* type;  // the MLIR element type
  int part_bits;     // bits of one real part
  bool complex;
  std::uint64_t re[4], im[4];
  std::uint64_t one, minus_one;
  const char* int_type;  // the integer type of the same width (bitcast_convert), "" for none
};

const Payloads kTypes[] = {
    {"f32",
     32,
     false,
     {0x7FC00001, 0xFFC00000, 0x7FA00000, 0xFF800001},
     {},
     0x3F800000,
     0xBF800000,
     "i32"},
    {"f64",
     64,
     false,
     {0x7FF8000000000001, 0xFFF8000000000000, 0x7FF4000000000000, 0xFFF0000000000001},
     {},
     0x3FF0000000000000,
     0xBFF0000000000000,
     "i64"},
    {"f16", 16, false, {0x7E01, 0xFE00, 0x7D00, 0xFC01}, {}, 0x3C00, 0xBC00, "i16"},
    {"bf16", 16, false, {0x7FC1, 0xFFC0, 0x7FA0, 0xFF81}, {}, 0x3F80, 0xBF80, "i16"},
    {"complex<f32>",
     32,
     true,
     {0x7FC00001, 0x7FA00000, 0xBF800000, 0xFFC00000},
     {0xFFC00000, 0x3F800000, 0xFF800001, 0x7FA00000},
     0,
     0,
     ""},
    {"complex<f64>",
     64,
     true,
     {0x7FF8000000000001, 0x7FF4000000000000, 0xBFF0000000000000, 0xFFF8000000000000},
     {0xFFF8000000000000, 0x3FF0000000000000, 0xFFF0000000000001, 0x7FF4000000000000},
     0,
     0,
     ""},
};

std::string hex(std::uint64_t bits, int width_bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llX", width_bits / 4, static_cast<unsigned long long>(bits));
  return buf;
}

// Element i's literal: index 0..3 the payloads, 4 is 1.0, 5 is −1.0.
std::string literal(const Payloads& p, int i) {
  const std::uint64_t re = i < 4 ? p.re[i] : i == 4 ? p.one : p.minus_one;
  if (!p.complex) return hex(re, p.part_bits);
  return "(" + hex(re, p.part_bits) + ", " + hex(p.im[i], p.part_bits) + ")";
}

std::string literals(const Payloads& p, const std::vector<int>& idx) {
  std::string s = "[";
  for (std::size_t k = 0; k < idx.size(); ++k) s += (k ? ", " : "") + literal(p, idx[k]);
  return s + "]";
}

// Element i's bytes as the interpreter stores them (little-endian; complex: real part first).
std::vector<std::uint8_t> element_bytes(const Payloads& p, int i) {
  const std::uint64_t re = i < 4 ? p.re[i] : i == 4 ? p.one : p.minus_one;
  std::vector<std::uint8_t> out;
  auto put = [&](std::uint64_t v) {
    for (int b = 0; b < p.part_bits / 8; ++b)
      out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
  };
  put(re);
  if (p.complex) put(p.im[i]);
  return out;
}

std::string element_text(const std::uint8_t* e, int bytes) {
  std::string s = "0x";
  char buf[4];
  for (int b = bytes; b-- > 0;) {
    std::snprintf(buf, sizeof buf, "%02X", e[b]);
    s += buf;
  }
  return s;
}

// Result `r` holds, element by element, the bits of the elements `want` names.
void check_bits(const interp::RunResult& r, std::size_t result, const Payloads& p,
                const std::vector<int>& want) {
  REQUIRE(r.values.size() > result);
  const interp::Tensor& t = r.values[result].tensor;
  REQUIRE(t.elements() == static_cast<std::int64_t>(want.size()));
  const int eb = (p.complex ? 2 : 1) * p.part_bits / 8;
  for (std::size_t k = 0; k < want.size(); ++k) {
    const auto w = element_bytes(p, want[k]);
    const std::uint8_t* got = t.data() + k * static_cast<std::size_t>(eb);
    INFO("element " << k << ": got " << element_text(got, eb) << ", expected "
                    << element_text(w.data(), eb) << " (input " << want[k] << ")");
    CHECK(std::memcmp(got, w.data(), static_cast<std::size_t>(eb)) == 0);
  }
}

// One data-movement program: its result type and body, given the element type T; %x is the
// four payloads (tensor<4xT>), %p the scalar v2; `want` names the result's elements.
struct Movement {
  const char* name;
  std::string (*result)(const std::string& T);
  std::string (*body)(const std::string& T, const std::string& X);
  std::vector<int> want;
  bool real_only;  // needs an integer type of the same width, or an order
};

std::string x4(const std::string& T) { return "tensor<4x" + T + ">"; }

// The function text: main's constants, then the op's lines.
std::string program(const Payloads& p, const Movement& m) {
  const std::string T = p.type, X = x4(T);
  const std::string head = "  %x = stablehlo.constant dense<" + literals(p, {0, 1, 2, 3}) +
                           "> : " + X + "\n" + "  %p = stablehlo.constant dense<" + literal(p, 2) +
                           "> : tensor<" + T + ">\n";
  std::string text = main_of(m.result(T), head + m.body(T, X));
  if (std::string(m.name) == "call") {
    text += "func.func private @pass(%a: " + X + ", %b: tensor<" + T + ">) -> (tensor<" + T +
            ">, " + X + ") {\n" + "  return %b, %a : tensor<" + T + ">, " + X + "\n}\n";
  }
  return text;
}

std::string same4(const std::string& T) { return x4(T); }

const std::vector<Movement>& movements() {
  static const std::vector<Movement> kAll = {
      {"constant and return",
       same4,
       [](const std::string&, const std::string& X) { return "  return %x : " + X + "\n"; },
       {0, 1, 2, 3},
       false},
      {"a splat constant",
       [](const std::string& T) { return "tensor<3x" + T + ">"; },
       [](const std::string& T, const std::string&) {
         return "  %r = stablehlo.constant dense<SPLAT> : tensor<3x" + T +
                ">\n  return %r : tensor<3x" + T + ">\n";
       },
       {1, 1, 1},
       false},
      {"reshape",
       [](const std::string& T) { return "tensor<2x2x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %r = stablehlo.reshape %x : (" + X + ") -> tensor<2x2x" + T +
                ">\n  return %r : tensor<2x2x" + T + ">\n";
       },
       {0, 1, 2, 3},
       false},
      {"transpose",
       [](const std::string& T) { return "tensor<2x2x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         const std::string M = "tensor<2x2x" + T + ">";
         return "  %m = stablehlo.reshape %x : (" + X + ") -> " + M +
                "\n  %r = stablehlo.transpose %m, dims = [1, 0] : (" + M + ") -> " + M +
                "\n  return %r : " + M + "\n";
       },
       {0, 2, 1, 3},
       false},
      {"broadcast_in_dim",
       [](const std::string& T) { return "tensor<2x4x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %r = stablehlo.broadcast_in_dim %x, dims = [1] : (" + X + ") -> tensor<2x4x" +
                T + ">\n  return %r : tensor<2x4x" + T + ">\n";
       },
       {0, 1, 2, 3, 0, 1, 2, 3},
       false},
      {"broadcast_in_dim of a scalar",
       [](const std::string& T) { return "tensor<3x" + T + ">"; },
       [](const std::string& T, const std::string&) {
         return "  %r = stablehlo.broadcast_in_dim %p, dims = [] : (tensor<" + T +
                ">) -> tensor<3x" + T + ">\n  return %r : tensor<3x" + T + ">\n";
       },
       {2, 2, 2},
       false},
      {"slice",
       [](const std::string& T) { return "tensor<2x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %r = stablehlo.slice %x [1:4:2] : (" + X + ") -> tensor<2x" + T +
                ">\n  return %r : tensor<2x" + T + ">\n";
       },
       {1, 3},
       false},
      {"dynamic_slice",
       [](const std::string& T) { return "tensor<2x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %i = stablehlo.constant dense<1> : tensor<i32>\n  %r = stablehlo.dynamic_slice "
                "%x, %i, sizes = [2] : (" +
                X + ", tensor<i32>) -> tensor<2x" + T + ">\n  return %r : tensor<2x" + T + ">\n";
       },
       {1, 2},
       false},
      {"dynamic_update_slice (in place)",
       same4,
       [](const std::string& T, const std::string& X) {
         return "  %u = stablehlo.slice %x [2:4] : (" + X + ") -> tensor<2x" + T + ">\n" +
                "  %i = stablehlo.constant dense<0> : tensor<i32>\n  %r = "
                "stablehlo.dynamic_update_slice %x, %u, %i : (" +
                X + ", tensor<2x" + T + ">, tensor<i32>) -> " + X + "\n  return %r : " + X + "\n";
       },
       {2, 3, 2, 3},
       false},
      {"dynamic_update_slice (copied)",
       [](const std::string& T) { return "(" + x4(T) + ", " + x4(T) + ")"; },
       [](const std::string& T, const std::string& X) {
         return "  %u = stablehlo.reshape %p : (tensor<" + T + ">) -> tensor<1x" + T + ">\n" +
                "  %i = stablehlo.constant dense<3> : tensor<i32>\n  %r = "
                "stablehlo.dynamic_update_slice %x, %u, %i : (" +
                X + ", tensor<1x" + T + ">, tensor<i32>) -> " + X + "\n  return %r, %x : " + X +
                ", " + X + "\n";
       },
       {0, 1, 2, 2},
       false},
      {"pad",
       [](const std::string& T) { return "tensor<9x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %r = stablehlo.pad %x, %p, low = [1], high = [1], interior = [1] : (" + X +
                ", tensor<" + T + ">) -> tensor<9x" + T + ">\n  return %r : tensor<9x" + T + ">\n";
       },
       {2, 0, 2, 1, 2, 2, 2, 3, 2},
       false},
      {"concatenate",
       [](const std::string& T) { return "tensor<8x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %v = stablehlo.reverse %x, dims = [0] : " + X +
                "\n  %r = stablehlo.concatenate %x, %v, dim = 0 : (" + X + ", " + X +
                ") -> tensor<8x" + T + ">\n  return %r : tensor<8x" + T + ">\n";
       },
       {0, 1, 2, 3, 3, 2, 1, 0},
       false},
      {"reverse",
       same4,
       [](const std::string&, const std::string& X) {
         return "  %r = stablehlo.reverse %x, dims = [0] : " + X + "\n  return %r : " + X + "\n";
       },
       {3, 2, 1, 0},
       false},
      {"select",
       same4,
       [](const std::string&, const std::string& X) {
         return "  %v = stablehlo.reverse %x, dims = [0] : " + X + "\n" +
                "  %c = stablehlo.constant dense<[true, false, false, true]> : tensor<4xi1>\n" +
                "  %r = stablehlo.select %c, %x, %v : tensor<4xi1>, " + X + "\n  return %r : " + X +
                "\n";
       },
       {0, 2, 1, 3},
       false},
      {"select by a scalar predicate",
       same4,
       [](const std::string&, const std::string& X) {
         return "  %v = stablehlo.reverse %x, dims = [0] : " + X +
                "\n  %c = stablehlo.constant dense<false> : tensor<i1>\n" +
                "  %r = stablehlo.select %c, %x, %v : tensor<i1>, " + X + "\n  return %r : " + X +
                "\n";
       },
       {3, 2, 1, 0},
       false},
      {"gather",
       [](const std::string& T) { return "tensor<3x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %i = stablehlo.constant dense<[[3], [0], [1]]> : tensor<3x1xi32>\n"
                "  %r = \"stablehlo.gather\"(%x, %i) {dimension_numbers = "
                "#stablehlo.gather<collapsed_slice_dims = [0], "
                "start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (" +
                X + ", tensor<3x1xi32>) -> tensor<3x" + T + ">\n  return %r : tensor<3x" + T +
                ">\n";
       },
       {3, 0, 1},
       false},
      {"scatter (replace)",
       same4,
       [](const std::string& T, const std::string& X) {
         return "  %u = stablehlo.slice %x [2:4] : (" + X + ") -> tensor<2x" + T + ">\n" +
                "  %i = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi32>\n" +
                "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = "
                "#stablehlo.scatter<inserted_window_dims = [0], "
                "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n" +
                "  ^bb0(%a: tensor<" + T + ">, %b: tensor<" + T +
                ">):\n    stablehlo.return %b : tensor<" + T + ">\n" + "  }) : (" + X +
                ", tensor<2x1xi32>, tensor<2x" + T + ">) -> " + X + "\n  return %r : " + X + "\n";
       },
       {3, 1, 2, 2},
       false},
      {"scatter (an evaluated body that selects the update)",
       same4,
       [](const std::string& T, const std::string& X) {
         return "  %u = stablehlo.slice %x [2:4] : (" + X + ") -> tensor<2x" + T + ">\n" +
                "  %i = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi32>\n" +
                "  %r = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = "
                "#stablehlo.scatter<inserted_window_dims = [0], "
                "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n" +
                "  ^bb0(%a: tensor<" + T + ">, %b: tensor<" + T + ">):\n" +
                "    %t = stablehlo.constant dense<true> : tensor<i1>\n" +
                "    %s = stablehlo.select %t, %b, %a : tensor<i1>, tensor<" + T + ">\n" +
                "    stablehlo.return %s : tensor<" + T + ">\n" + "  }) : (" + X +
                ", tensor<2x1xi32>, tensor<2x" + T + ">) -> " + X + "\n  return %r : " + X + "\n";
       },
       {3, 1, 2, 2},
       false},
      {"map (replace)",
       same4,
       [](const std::string& T, const std::string& X) {
         return "  %v = stablehlo.reverse %x, dims = [0] : " + X + "\n" +
                "  %r = \"stablehlo.map\"(%x, %v) <{dimensions = array<i64: 0>}> ({\n" +
                "  ^bb0(%a: tensor<" + T + ">, %b: tensor<" + T +
                ">):\n    stablehlo.return %b : tensor<" + T + ">\n" + "  }) : (" + X + ", " + X +
                ") -> " + X + "\n  return %r : " + X + "\n";
       },
       {3, 2, 1, 0},
       false},
      {"sort by another operand's key",
       [](const std::string& T) { return x4(T); },
       [](const std::string&, const std::string& X) {
         return "  %k = stablehlo.constant dense<[3, 1, 2, 0]> : tensor<4xi32>\n"
                "  %r:2 = \"stablehlo.sort\"(%k, %x) <{dimension = 0 : i64}> ({\n" +
                std::string("  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<") + "" +
                "ELEM>, %d: tensor<ELEM>):\n" +
                "    %0 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> "
                "tensor<i1>\n"
                "    stablehlo.return %0 : tensor<i1>\n"
                "  }) : (tensor<4xi32>, " +
                X + ") -> (tensor<4xi32>, " + X + ")\n  return %r#1 : " + X + "\n";
       },
       {3, 1, 2, 0},
       false},
      {"sort by another operand's key (an evaluated comparator)",
       [](const std::string& T) { return x4(T); },
       [](const std::string&, const std::string& X) {
         return "  %k = stablehlo.constant dense<[3, 1, 2, 0]> : tensor<4xi32>\n"
                "  %r:2 = \"stablehlo.sort\"(%k, %x) <{dimension = 0 : i64}> ({\n" +
                std::string(
                    "  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<ELEM>, %d: "
                    "tensor<ELEM>):\n") +
                "    %n = stablehlo.negate %a : tensor<i32>\n    %m = stablehlo.negate %b : "
                "tensor<i32>\n"
                "    %0 = stablehlo.compare GT, %n, %m, SIGNED : (tensor<i32>, tensor<i32>) -> "
                "tensor<i1>\n"
                "    stablehlo.return %0 : tensor<i1>\n"
                "  }) : (tensor<4xi32>, " +
                X + ") -> (tensor<4xi32>, " + X + ")\n  return %r#1 : " + X + "\n";
       },
       {3, 1, 2, 0},
       false},
      {"bitcast_convert there and back",
       same4,
       [](const std::string&, const std::string& X) {
         return "  %b = stablehlo.bitcast_convert %x : (" + X + ") -> tensor<4xINT>\n" +
                "  %r = stablehlo.bitcast_convert %b : (tensor<4xINT>) -> " + X +
                "\n  return %r : " + X + "\n";
       },
       {0, 1, 2, 3},
       true},
      {"tuple and get_tuple_element",
       same4,
       [](const std::string& T, const std::string& X) {
         const std::string tt = "tuple<tensor<" + T + ">, " + X + ">";
         return "  %t = stablehlo.tuple %p, %x : " + tt +
                "\n  %r = stablehlo.get_tuple_element %t[1] : (" + tt + ") -> " + X +
                "\n  return %r : " + X + "\n";
       },
       {0, 1, 2, 3},
       false},
      {"optimization_barrier",
       same4,
       [](const std::string&, const std::string& X) {
         return "  %r = stablehlo.optimization_barrier %x : " + X + "\n  return %r : " + X + "\n";
       },
       {0, 1, 2, 3},
       false},
      {"while carries",
       [](const std::string& T) { return "tensor<5x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         // Three iterations, each reversing the carried tensor and passing the scalar through.
         return "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
                "  %r:3 = stablehlo.while(%i = %i0, %v = %x, %s = %p) : tensor<i32>, " +
                X + ", tensor<" + T + ">\n" +
                "   cond {\n"
                "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
                "    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> "
                "tensor<i1>\n"
                "    stablehlo.return %lt : tensor<i1>\n"
                "  } do {\n"
                "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
                "    %w = stablehlo.reverse %v, dims = [0] : " +
                X + "\n" +
                "    %ni = stablehlo.add %i, %one : tensor<i32>\n"
                "    stablehlo.return %ni, %w, %s : tensor<i32>, " +
                X + ", tensor<" + T + ">\n" +
                "  }\n"
                "  %u = stablehlo.reshape %r#2 : (tensor<" +
                T + ">) -> tensor<1x" + T + ">\n" +
                "  %o = stablehlo.concatenate %r#1, %u, dim = 0 : (" + X + ", tensor<1x" + T +
                ">) -> tensor<5x" + T + ">\n" + "  return %o : tensor<5x" + T + ">\n";
       },
       {3, 2, 1, 0, 2},
       false},
      {"case branches",
       same4,
       [](const std::string&, const std::string& X) {
         return "  %k = stablehlo.constant dense<1> : tensor<i32>\n"
                "  %r = \"stablehlo.case\"(%k) ({\n"
                "    stablehlo.return %x : " +
                X + "\n" +
                "  }, {\n"
                "    %v = stablehlo.reverse %x, dims = [0] : " +
                X + "\n" + "    stablehlo.return %v : " + X + "\n" + "  }) : (tensor<i32>) -> " +
                X + "\n  return %r : " + X + "\n";
       },
       {3, 2, 1, 0},
       false},
      {"call",
       [](const std::string& T) { return "tensor<5x" + T + ">"; },
       [](const std::string& T, const std::string& X) {
         return "  %r:2 = func.call @pass(%x, %p) : (" + X + ", tensor<" + T + ">) -> (tensor<" +
                T + ">, " + X + ")\n" + "  %u = stablehlo.reshape %r#0 : (tensor<" + T +
                ">) -> tensor<1x" + T + ">\n" +
                "  %o = stablehlo.concatenate %u, %r#1, dim = 0 : (tensor<1x" + T + ">, " + X +
                ") -> tensor<5x" + T + ">\n" + "  return %o : tensor<5x" + T + ">\n";
       },
       {2, 0, 1, 2, 3},
       false},
  };
  return kAll;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("every data-movement op moves NaN payloads of every float type as bits",
          "[interp][nan]") {
  const Payloads& p = GENERATE(from_range(std::begin(kTypes), std::end(kTypes)));
  for (const Movement& m : movements()) {
    if (m.real_only && p.complex) continue;
    INFO(p.type << " through " << m.name);
    std::string text = replace_all(replace_all(program(p, m), "ELEM", p.type), "INT", p.int_type);
    text = replace_all(text, "SPLAT", literal(p, 1));
    check_bits(run_ok(text), 0, p, m.want);
  }
}

TEST_CASE("real, imag and complex move the parts of complex NaN payloads as bits",
          "[interp][nan]") {
  for (const Payloads& p : kTypes) {
    if (!p.complex) continue;
    INFO(p.type);
    const std::string X = x4(p.type), part = p.part_bits == 32 ? "f32" : "f64",
                      R = "tensor<4x" + part + ">";
    const std::string text =
        main_of("(" + X + ", " + R + ", " + R + ")",
                "  %x = stablehlo.constant dense<" + literals(p, {0, 1, 2, 3}) + "> : " + X + "\n" +
                    "  %re = stablehlo.real %x : (" + X + ") -> " + R + "\n" +
                    "  %im = stablehlo.imag %x : (" + X + ") -> " + R + "\n" +
                    "  %z = stablehlo.complex %re, %im : " + X + "\n" +
                    "  return %z, %re, %im : " + X + ", " + R + ", " + R + "\n");
    auto r = run_ok(text);
    check_bits(r, 0, p, {0, 1, 2, 3});
    for (int which = 1; which <= 2; ++which) {
      const interp::Tensor& t = r.values[static_cast<std::size_t>(which)].tensor;
      REQUIRE(t.elements() == 4);
      for (int k = 0; k < 4; ++k) {
        std::uint64_t got = 0;
        std::memcpy(&got, t.data() + k * p.part_bits / 8,
                    static_cast<std::size_t>(p.part_bits / 8));
        const std::uint64_t want = which == 1 ? p.re[k] : p.im[k];
        INFO((which == 1 ? "real" : "imag")
             << " of element " << k << ": got " << hex(got, p.part_bits) << ", expected "
             << hex(want, p.part_bits));
        CHECK(got == want);
      }
    }
  }
}

namespace {

// sort of [1.0, v1, v0, −1.0, v2, v3] (element indices 4, 1, 0, 5, 2, 3) by a comparator body.
std::string sort_text(const Payloads& p, const std::string& body) {
  const std::string T = p.type, X = "tensor<6x" + T + ">";
  return main_of(
      X, "  %x = stablehlo.constant dense<" + literals(p, {4, 1, 0, 5, 2, 3}) + "> : " + X + "\n" +
             "  %r = \"stablehlo.sort\"(%x) <{dimension = 0 : i64, is_stable = true}> ({\n" +
             "  ^bb0(%a: tensor<" + T + ">, %b: tensor<" + T + ">):\n" + body + "  }) : (" + X +
             ") -> " + X + "\n" + "  return %r : " + X + "\n");
}

std::string compare_line(const std::string& T, const std::string& name, const std::string& dir,
                         const std::string& a, const std::string& b, const std::string& type) {
  return "    " + name + " = stablehlo.compare " + dir + ", " + a + ", " + b + ", " + type +
         " : (tensor<" + T + ">, tensor<" + T + ">) -> tensor<i1>\n";
}

// JAX's comparator: −0 → +0 and every NaN → one +NaN, then TOTALORDER LT.
std::string jax_lt(const Payloads& p) {
  const std::string T = p.type, t = "tensor<" + T + ">";
  const std::string canonical_nan = p.part_bits == 16
                                        ? (std::string(p.type) == "f16" ? "0x7E00" : "0x7FC0")
                                    : p.part_bits == 32 ? "0x7FC00000"
                                                        : "0x7FF8000000000000";
  return "    %z = stablehlo.constant dense<0.0> : " + t + "\n" +
         compare_line(T, "%0", "EQ", "%a", "%z", "FLOAT") +
         "    %1 = stablehlo.select %0, %z, %a : tensor<i1>, " + t + "\n" +
         compare_line(T, "%2", "NE", "%a", "%a", "FLOAT") + "    %n = stablehlo.constant dense<" +
         canonical_nan + "> : " + t + "\n" + "    %3 = stablehlo.select %2, %n, %1 : tensor<i1>, " +
         t + "\n" + compare_line(T, "%4", "EQ", "%b", "%z", "FLOAT") +
         "    %5 = stablehlo.select %4, %z, %b : tensor<i1>, " + t + "\n" +
         compare_line(T, "%6", "NE", "%b", "%b", "FLOAT") +
         "    %7 = stablehlo.select %6, %n, %5 : tensor<i1>, " + t + "\n" +
         compare_line(T, "%8", "LT", "%3", "%7", "TOTALORDER") +
         "    stablehlo.return %8 : tensor<i1>\n";
}

std::string plain(const Payloads& p, const std::string& dir, const std::string& type) {
  return compare_line(p.type, "%r", dir, "%a", "%b", type) +
         "    stablehlo.return %r : tensor<i1>\n";
}

// The same compare behind an `and` with true: not a recognized comparator, so evaluated.
std::string evaluated(const Payloads& p, const std::string& dir, const std::string& type) {
  return compare_line(p.type, "%r", dir, "%a", "%b", type) +
         "    %t = stablehlo.constant dense<true> : tensor<i1>\n" +
         "    %s = stablehlo.and %r, %t : tensor<i1>\n    stablehlo.return %s : tensor<i1>\n";
}

}  // namespace

TEST_CASE("sort keeps NaN payloads and orders them as its comparator says",
          "[interp][nan][regions]") {
  for (const Payloads& p : kTypes) {
    if (p.complex) continue;
    INFO(p.type);
    // Canonicalized keys (JAX) and FLOAT compares: every NaN after +inf, in input order (stable).
    check_bits(run_ok(sort_text(p, jax_lt(p))), 0, p, {5, 4, 1, 0, 2, 3});
    check_bits(run_ok(sort_text(p, plain(p, "LT", "FLOAT"))), 0, p, {5, 4, 1, 0, 2, 3});
    // TOTALORDER: by the bits, −NaN first (the larger magnitude lower), +NaN last.
    check_bits(run_ok(sort_text(p, plain(p, "LT", "TOTALORDER"))), 0, p, {1, 3, 5, 4, 2, 0});
    check_bits(run_ok(sort_text(p, plain(p, "GT", "TOTALORDER"))), 0, p, {0, 2, 4, 5, 3, 1});
    check_bits(run_ok(sort_text(p, evaluated(p, "LT", "TOTALORDER"))), 0, p, {1, 3, 5, 4, 2, 0});
    check_bits(run_ok(sort_text(p, evaluated(p, "GT", "TOTALORDER"))), 0, p, {0, 2, 4, 5, 3, 1});
  }
}

TEST_CASE("top_k keeps NaN payloads: descending in the total order, +NaN first and -NaN last",
          "[interp][nan][regions]") {
  for (const Payloads& p : kTypes) {
    if (p.complex) continue;
    INFO(p.type);
    const std::string T = p.type, X = "tensor<6x" + T + ">";
    for (int k : {6, 2}) {
      INFO("k = " << k);
      const std::string K = "tensor<" + std::to_string(k) + "x" + T + ">",
                        I = "tensor<" + std::to_string(k) + "xi32>";
      auto r = run_ok(main_of("(" + K + ", " + I + ")",
                              "  %x = stablehlo.constant dense<" + literals(p, {4, 1, 0, 5, 2, 3}) +
                                  "> : " + X + "\n" + "  %values, %indices = chlo.top_k(%x, k = " +
                                  std::to_string(k) + ") : " + X + " -> (" + K + ", " + I + ")\n" +
                                  "  return %values, %indices : " + K + ", " + I + "\n"));
      const std::vector<int> order = {0, 2, 4, 5, 3, 1},
                             at = {2, 4, 0, 3, 5, 1};  // elements, and where the input has them
      check_bits(r, 0, p, std::vector<int>(order.begin(), order.begin() + k));
      const interp::Tensor& idx = r.values[1].tensor;
      for (int j = 0; j < k; ++j)
        CHECK(idx.as<std::int32_t>()[j] == at[static_cast<std::size_t>(j)]);
    }
  }
}

namespace {

// Element i (a real type's) as XLA's HLO text writes a NaN: `nan(0xFRACTION)`, `-nan` for the
// canonical negative one.
std::string hlo_nan(const Payloads& p, int i) {
  const int fraction_bits = std::string(p.type) == "f32"   ? 23
                            : std::string(p.type) == "f64" ? 52
                            : std::string(p.type) == "f16" ? 10
                                                           : 7;
  const std::uint64_t bits = p.re[i], fraction = bits & ((std::uint64_t{1} << fraction_bits) - 1);
  const bool negative = (bits >> (p.part_bits - 1)) & 1;
  if (fraction == std::uint64_t{1} << (fraction_bits - 1)) return negative ? "-nan" : "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%snan(0x%llX)", negative ? "-" : "",
                static_cast<unsigned long long>(fraction));
  return buf;
}

}  // namespace

TEST_CASE("HLO text's nan(0xPAYLOAD) and -nan constants keep their bits through the interpreter",
          "[interp][nan]") {
  for (const Payloads& p : kTypes) {
    if (p.complex) continue;
    INFO(p.type);
    const std::string T = p.type;
    const std::string c = "{" + hlo_nan(p, 0) + ", " + hlo_nan(p, 1) + ", " + hlo_nan(p, 2) + ", " +
                          hlo_nan(p, 3) + "}";
    INFO(c);
    auto r = run_ok("HloModule m\nENTRY main {\n  c = " + T + "[4] constant(" + c +
                    ")\n  ROOT r = " + T + "[4] reverse(c), dimensions={0}\n}\n");
    check_bits(r, 0, p, {3, 2, 1, 0});
  }
}

TEST_CASE(
    "negate flips and abs clears only a NaN's sign bit, its payload kept (IEEE 754's sign "
    "operations)",
    "[interp][nan]") {
  for (const Payloads& p : kTypes) {
    INFO(p.type);
    const std::string X = x4(p.type);
    const bool complex = p.complex;
    auto r = run_ok(main_of(complex ? X : "(" + X + ", " + X + ")",
                            "  %x = stablehlo.constant dense<" + literals(p, {0, 1, 2, 3}) +
                                "> : " + X + "\n" + "  %n = stablehlo.negate %x : " + X + "\n" +
                                (complex ? "  return %n : " + X + "\n"
                                         : "  %a = stablehlo.abs %x : " + X +
                                               "\n  return %n, %a : " + X + ", " + X + "\n")));
    const std::uint64_t sign = std::uint64_t{1} << (p.part_bits - 1);
    const std::size_t pb = static_cast<std::size_t>(p.part_bits / 8);
    for (std::size_t result = 0; result < (complex ? 1u : 2u); ++result) {
      const interp::Tensor& t = r.values[result].tensor;
      REQUIRE(t.elements() == 4);
      for (int k = 0; k < 4; ++k) {
        for (int part = 0; part < (complex ? 2 : 1); ++part) {
          const std::uint64_t in = part == 0 ? p.re[k] : p.im[k];
          const std::uint64_t want = result == 0 ? in ^ sign : in & ~sign;
          std::uint64_t got = 0;
          std::memcpy(&got,
                      t.data() + (static_cast<std::size_t>(k) * (complex ? 2 : 1) +
                                  static_cast<std::size_t>(part)) *
                                     pb,
                      pb);
          INFO((result == 0 ? "negate" : "abs")
               << " of element " << k << " part " << part << ": got " << hex(got, p.part_bits)
               << ", expected " << hex(want, p.part_bits));
          CHECK(got == want);
        }
      }
    }
  }
}

TEST_CASE(
    "check calls read NaN payloads from the bits: expect_eq never matches a NaN and names its "
    "bits, expect_close matches any two",
    "[interp][nan]") {
  auto run_checks = [](const std::string& kind) {
    return run_text(
               main_of(
                   "tensor<2xf32>",
                   "  %a = stablehlo.constant dense<[1.0, 0x7FC00001]> : tensor<2xf32>\n"
                   "  %b = stablehlo.constant dense<[1.0, 0xFFC00000]> : tensor<2xf32>\n"
                   "  stablehlo.custom_call @check." +
                       kind +
                       "(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
                       "  stablehlo.custom_call @check." +
                       kind +
                       "(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
                       "  return %a : tensor<2xf32>\n"))
        .result;
  };
  const auto eq = run_checks("expect_eq");
  REQUIRE(eq.checks.size() == 2);
  CHECK_FALSE(eq.checks[0].passed);
  CHECK_THAT(eq.checks[0].detail, Catch::Matchers::Contains("got 0x7FC00001, expected -nan"));
  CHECK_FALSE(eq.checks[1].passed);  // the same bits: still a NaN, never equal under ==
  CHECK_THAT(eq.checks[1].detail, Catch::Matchers::Contains("got 0x7FC00001, expected 0x7FC00001"));
  const auto close = run_checks("expect_close");
  REQUIRE(close.checks.size() == 2);
  CHECK(close.checks[0].passed);
  CHECK(close.checks[1].passed);
}

// maximum and minimum give the same bits in every build: IEEE 754-2019 (NaN propagates, −0 < +0)
// and, for a NaN, the first NaN operand quieted, else the second's. 12 f32 lanes take the wasm
// build's f32x4 loop for the first 8 and its scalar tail for the rest (V8's f32x4.max made −NaN
// from +NaN and −inf before the rule was set on the bits); f64 takes the generic path.
TEST_CASE(
    "maximum and minimum: NaN from the first NaN operand, quieted, and -0 below +0, in every build",
    "[interp][nan]") {
  struct Lane {
    std::uint32_t a, b, max, min;
  };
  const Lane lanes[] = {
      {0x7FC00000, 0xFF800000, 0x7FC00000, 0x7FC00000},  // +NaN, −inf
      {0xFF800000, 0x7FC00000, 0x7FC00000, 0x7FC00000},  // −inf, +NaN
      {0xFFC00001, 0x7FC00000, 0xFFC00001, 0xFFC00001},  // −NaN with payload first
      {0x7F800000, 0xFFA00000, 0xFFE00000, 0xFFE00000},  // signalling −NaN second: quieted
      {0x80000000, 0x00000000, 0x00000000, 0x80000000},  // −0, +0
      {0x00000000, 0x80000000, 0x00000000, 0x80000000},  // +0, −0
      {0x3F800000, 0xBF800000, 0x3F800000, 0xBF800000},  // 1, −1
      {0x7F800000, 0xFF800000, 0x7F800000, 0xFF800000},  // inf, −inf
  };
  constexpr int kLanes = 12;
  for (const char* op : {"maximum", "minimum"}) {
    const bool max = std::string(op) == "maximum";
    std::string a, b;
    for (int i = 0; i < kLanes; ++i) {
      const Lane& l = lanes[i % 8];
      a += (i ? ", " : "") + hex(l.a, 32);
      b += (i ? ", " : "") + hex(l.b, 32);
    }
    const std::string text = main_of("tensor<12xf32>", "    %a = stablehlo.constant dense<[" + a +
                                                           "]> : tensor<12xf32>\n"
                                                           "    %b = stablehlo.constant dense<[" +
                                                           b +
                                                           "]> : tensor<12xf32>\n"
                                                           "    %r = stablehlo." +
                                                           std::string(op) +
                                                           " %a, %b : tensor<12xf32>\n"
                                                           "    return %r : tensor<12xf32>\n");
    auto r = run_text(text).result;
    REQUIRE(r.status == "passed");
    const interp::Tensor& t = r.values[0].tensor;
    for (int i = 0; i < kLanes; ++i) {
      std::uint32_t got;
      std::memcpy(&got, t.data() + 4 * i, 4);
      const Lane& l = lanes[i % 8];
      INFO(op << " lane " << i << ": " << hex(l.a, 32) << ", " << hex(l.b, 32) << " gave "
              << hex(got, 32));
      CHECK(got == (max ? l.max : l.min));
    }
    // f64 by the generic path: the same rules.
    const std::string text64 = main_of("tensor<3xf64>",
                                       "    %a = stablehlo.constant dense<[0x8000000000000000, "
                                       "0xFFF4000000000000, 0x7FF0000000000000]> : tensor<3xf64>\n"
                                       "    %b = stablehlo.constant dense<[0x0000000000000000, "
                                       "0x3FF0000000000000, 0xFFF8000000000001]> : tensor<3xf64>\n"
                                       "    %r = stablehlo." +
                                           std::string(op) +
                                           " %a, %b : tensor<3xf64>\n"
                                           "    return %r : tensor<3xf64>\n");
    auto r64 = run_text(text64).result;
    REQUIRE(r64.status == "passed");
    std::uint64_t g[3];
    std::memcpy(g, r64.values[0].tensor.data(), sizeof g);
    CHECK(g[0] == (max ? 0x0000000000000000ull : 0x8000000000000000ull));
    CHECK(g[1] == 0xFFFC000000000000ull);  // the signalling first operand, quieted
    CHECK(g[2] == 0xFFF8000000000001ull);  // the second operand's NaN
  }
}

// Arithmetic of two NaN operands gives the first, quieted (common/nan.h's nan_rule): hardware
// and libraries pick either (x86 the register the compiler made the destination, so a native
// f64 add could give the second; musl's atan2 and pow give x + y; wasm leaves it to the engine),
// and the native and wasm builds differed on a sampler whose NaNs met in a multiply. One NaN
// operand: its NaN, quieted. 12 f32 lanes take the wasm build's f32x4 loop for the first 8 and
// its scalar tail for the rest; the other types take the generic loop; op by op and fused.
TEST_CASE("arithmetic of NaN operands gives the first NaN operand, quieted, in every build",
          "[interp][nan]") {
  interp::RunOptions options;
  options.fuse = GENERATE(false, true);
  struct Type {
    const char* name;
    int bits;
    std::uint64_t nan1, nan2, one, quiet;  // +NaN with a payload, −signalling NaN, 1.0, quiet bit
  };
  const Type types[] = {
      {"f32", 32, 0x7FC00001, 0xFFA00002, 0x3F800000, 0x00400000},
      {"f64", 64, 0x7FF8000000000001, 0xFFF4000000000002, 0x3FF0000000000000, 0x0008000000000000},
      {"f16", 16, 0x7E01, 0xFD02, 0x3C00, 0x0200},
      {"bf16", 16, 0x7FC1, 0xFFA2, 0x3F80, 0x0040},
  };
  for (const Type& t : types) {
    // Lanes (a, b): both NaNs either way round, a NaN beside 1, 1 beside a NaN.
    const std::uint64_t as[4] = {t.nan1, t.nan2, t.nan2, t.one};
    const std::uint64_t bs[4] = {t.nan2, t.nan1, t.one, t.nan1};
    const std::uint64_t want[4] = {t.nan1 | t.quiet, t.nan2 | t.quiet, t.nan2 | t.quiet,
                                   t.nan1 | t.quiet};
    const int n = t.bits == 32 ? 12 : 4;
    std::string a, b;
    for (int i = 0; i < n; ++i) {
      a += (i ? ", " : "") + hex(as[i % 4], t.bits);
      b += (i ? ", " : "") + hex(bs[i % 4], t.bits);
    }
    const std::string T = "tensor<" + std::to_string(n) + "x" + t.name + ">";
    for (const char* op :
         {"add", "subtract", "multiply", "divide", "remainder", "power", "atan2"}) {
      INFO(t.name << " " << op << (options.fuse ? ", fused" : ", op by op"));
      auto r = run_text(main_of(T, "    %a = stablehlo.constant dense<[" + a + "]> : " + T +
                                       "\n    %b = stablehlo.constant dense<[" + b + "]> : " + T +
                                       "\n    %r = stablehlo." + op + " %a, %b : " + T +
                                       "\n    return %r : " + T + "\n"),
                        options)
                   .result;
      REQUIRE(r.status == "passed");
      const interp::Tensor& y = r.values[0].tensor;
      REQUIRE(y.elements() == n);
      for (int i = 0; i < n; ++i) {
        std::uint64_t got = 0;
        std::memcpy(&got, y.data() + i * (t.bits / 8), static_cast<std::size_t>(t.bits / 8));
        INFO("lane " << i << ": " << hex(as[i % 4], t.bits) << ", " << hex(bs[i % 4], t.bits)
                     << " gave " << hex(got, t.bits) << ", expected " << hex(want[i % 4], t.bits));
        // pow(1, y) is 1 for any y, a NaN too (IEEE 754's pow, C's and JAX's).
        const bool one = std::string(op) == "power" && i % 4 == 3;
        CHECK(got == (one ? t.one : want[i % 4]));
      }
    }
  }
}

// A reduce's add folds a row of 32 or more f32 or f64 in lane-wise partial sums, whose NaN of two
// is the compiler's or the engine's: a NaN row is folded again in order, so the first NaN of the
// row (after the init value) comes out, quieted, in every build.
TEST_CASE("a reduce's add of a long row with two NaNs gives the first, quieted, in every build",
          "[interp][nan]") {
  for (const char* t : {"f32", "f64"}) {
    const bool f32 = std::string(t) == "f32";
    const int bits = f32 ? 32 : 64;
    const std::uint64_t first = f32 ? 0xFFA00005 : 0xFFF4000000000005ull;  // −signalling NaN
    const std::uint64_t second = f32 ? 0x7FC00009 : 0x7FF8000000000009ull;
    std::string row;
    for (int i = 0; i < 40; ++i)
      row += std::string(i ? ", " : "") + (i == 5    ? hex(first, bits)
                                           : i == 20 ? hex(second, bits)
                                                     : std::string("1.5"));
    const std::string T = std::string("tensor<40x") + t + ">", S = std::string("tensor<") + t + ">";
    auto r = run_ok(main_of(S, "    %x = stablehlo.constant dense<[" + row + "]> : " + T +
                                   "\n    %z = stablehlo.constant dense<0.0> : " + S +
                                   "\n    %r = stablehlo.reduce(%x init: %z) applies stablehlo.add "
                                   "across dimensions = [0] : (" +
                                   T + ", " + S + ") -> " + S + "\n    return %r : " + S + "\n"));
    std::uint64_t got = 0;
    std::memcpy(&got, r.values[0].tensor.data(), static_cast<std::size_t>(bits / 8));
    const std::uint64_t want = first | (f32 ? 0x00400000 : 0x0008000000000000ull);
    INFO(t << ": got " << hex(got, bits) << ", expected " << hex(want, bits));
    CHECK(got == want);
  }
}
