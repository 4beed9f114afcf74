// Issue 23, "one contract": every op of the op table that has a result rule has a case here — a
// small module that must verify, and the same module with the op's result type made wrong (its
// shape, and its element type where the rule has one), which must be refused at the op's place
// with a message that names the op and the values. Every case goes through the three doors that
// share verify.cpp: verify() itself, lower() (the run's door) and analyze_text() (the page's and
// analyze.mjs's), which must give the very same error at the same line:column. A last test reads
// the op table and fails, naming them, for the ops with a rule and no case.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "hlo/lower.h"
#include "hlo/ops.h"
#include "hlo/parse.h"
#include "hlo/report.h"
#include "hlo/verify.h"

using namespace rl::hlo;

namespace {

const std::string kDash = "\xE2\x80\x94";

// A module whose @main takes `args` and holds one op, written at line 2, column 3; `$R` in the
// op's text is replaced by `result` (its result type or types).
std::string module_text(const std::string& args, const std::string& op, const std::string& result) {
  std::string text = op;
  for (auto at = text.find("$R"); at != std::string::npos; at = text.find("$R"))
    text.replace(at, 2, result);
  return "func.func @main(" + args + ") {\n  " + text + "\n  return\n}\n";
}

// The three doors accept the text.
void accepted(const std::string& text) {
  INFO(text);
  auto m = parse_stablehlo(text);
  INFO((m.ok() ? "" : m.error()));
  REQUIRE(m.ok());
  REQUIRE(m->size() == 1);
  auto v = verify(m->at(0));
  INFO((v.ok() ? "" : v.error()));
  CHECK(v.ok());
  auto lowered = lower(m->at(0));
  INFO((lowered.ok() ? "" : lowered.error()));
  CHECK(lowered.ok());
  auto analysed = analyze_text(text);
  REQUIRE(analysed.ok());
  REQUIRE(analysed->modules.size() == 1);
  INFO((analysed->modules[0].analysis.ok() ? "" : analysed->modules[0].analysis.error()));
  CHECK(analysed->modules[0].analysis.ok());
}

// The three doors refuse the text with one error at line 2, column 3 (the op): its message.
std::string refused(const std::string& text) {
  INFO(text);
  auto m = parse_stablehlo(text);
  INFO((m.ok() ? "" : m.error()));
  REQUIRE(m.ok());
  REQUIRE(m->size() == 1);
  auto v = verify(m->at(0));
  REQUIRE_FALSE(v.ok());
  CHECK(v.error_info().line == 2);
  CHECK(v.error_info().column == 3);
  CHECK(v.error().rfind("2:3: error: ", 0) == 0);
  auto lowered = lower(m->at(0));
  REQUIRE_FALSE(lowered.ok());
  CHECK(lowered.error() == v.error());
  CHECK(lowered.error_info().line == 2);
  CHECK(lowered.error_info().column == 3);
  auto analysed = analyze_text(text);
  REQUIRE(analysed.ok());
  REQUIRE(analysed->modules.size() == 1);
  REQUIRE_FALSE(analysed->modules[0].analysis.ok());
  CHECK(analysed->modules[0].analysis.error() == v.error());
  return v.error();
}

struct Wrong {
  std::string result;   // the wrong result type(s)
  std::string message;  // the whole error after "2:3: error: "
};

struct Case {
  std::string op;    // the op table's StableHLO spelling
  std::string args;  // @main's arguments
  std::string text;  // the op, `$R` for its result type(s)
  std::string good;  // the right result type(s)
  std::vector<Wrong> wrong;
};

// The message of a shape or element-type refusal by the rules every elementwise op shares
// (verify.cpp's elementwise() and same_element_types()), for an op whose operand `i` of type
// `operand` meets a result of type `result`.
std::string shape_differs(const std::string& op, int i, const std::string& result,
                          const std::string& operand) {
  return op + " operand " + std::to_string(i) + " shape differs from the result " + kDash +
         " expected the same shape " + result + ", got " + operand;
}
std::string element_differs(const std::string& op, int i, const std::string& result_element,
                            const std::string& result, const std::string& operand_element,
                            const std::string& operand) {
  return op + " operand " + std::to_string(i) + " has another element type than the result " +
         kDash + " expected " + result_element + " (as " + result + "), got " + operand_element +
         " (" + operand + ")";
}
// infer.cpp's unary()/binary() rule, for the ops whose result element type is not the operands'.
std::string inferred_differs(const std::string& op, const std::string& want,
                             const std::string& got) {
  return op + "'s written result type differs from the one its operands give " + kDash +
         " expected " + want + " (its operands' types), got " + got;
}

// An elementwise op in the generic form over `n` operands of type `in` (all alike).
Case elementwise(const std::string& op, int n, const std::string& element,
                 const std::string& attrs = "") {
  const std::string in = "tensor<2x3x" + element + ">";
  std::string args, operands, types;
  for (int i = 0; i < n; ++i) {
    const std::string name = std::string("%") + char('a' + i);
    args += (i ? ", " : "") + name + ": " + in;
    operands += (i ? ", " : "") + name;
    types += (i ? ", " : "") + in;
  }
  const std::string wrong_shape = "tensor<3x2x" + element + ">";
  const std::string other = element == "f64" ? "f32" : "f64";
  const std::string wrong_element = "tensor<2x3x" + other + ">";
  return Case{op,
              args,
              "%0 = \"" + op + "\"(" + operands + ")" + attrs + " : (" + types + ") -> $R",
              in,
              {{wrong_shape, shape_differs(op, 0, wrong_shape, in)},
               {wrong_element, element_differs(op, 0, other, wrong_element, element, in)}}};
}

// An elementwise op whose result element type is another one (compare, is_finite, real, ...):
// its result shape by the shared rule, its element type by infer.cpp's.
Case elementwise_to(const std::string& op, int n, const std::string& element,
                    const std::string& result_element, const std::string& wrong_element,
                    const std::string& attrs = "") {
  Case c = elementwise(op, n, element, attrs);
  c.good = "tensor<2x3x" + result_element + ">";
  const std::string shape = "tensor<3x2x" + result_element + ">";
  const std::string other = "tensor<2x3x" + wrong_element + ">";
  c.wrong = {{shape, shape_differs(op, 0, shape, "tensor<2x3x" + element + ">")},
             {other, inferred_differs(op, c.good, other)}};
  return c;
}

const std::string kAddBody =
    "^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
    "    %s = \"stablehlo.add\"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
    "    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n  ";
const std::string kCompare = "{comparison_direction = #stablehlo<comparison_direction LT>}";

std::vector<Case> cases() {
  std::vector<Case> out;
  // Elementwise ops whose operands and result share one type (f32, or i32 for the bitwise ones).
  for (const char* op : {"stablehlo.negate",
                         "stablehlo.sign",
                         "stablehlo.floor",
                         "stablehlo.ceil",
                         "stablehlo.round_nearest_afz",
                         "stablehlo.round_nearest_even",
                         "stablehlo.exponential",
                         "stablehlo.exponential_minus_one",
                         "stablehlo.log",
                         "stablehlo.log_plus_one",
                         "stablehlo.logistic",
                         "stablehlo.sqrt",
                         "stablehlo.cbrt",
                         "stablehlo.rsqrt",
                         "stablehlo.tanh",
                         "stablehlo.sine",
                         "stablehlo.cosine",
                         "stablehlo.tan",
                         "chlo.erf",
                         "chlo.tan",
                         "chlo.lgamma",
                         "chlo.digamma",
                         "chlo.erf_inv",
                         "chlo.erfc",
                         "chlo.acos",
                         "chlo.acosh",
                         "chlo.asin",
                         "chlo.asinh",
                         "chlo.atan",
                         "chlo.atanh",
                         "chlo.cosh",
                         "chlo.sinh",
                         "chlo.bessel_i1e"})
    out.push_back(elementwise(op, 1, "f32"));
  for (const char* op : {"stablehlo.not", "stablehlo.popcnt", "stablehlo.count_leading_zeros"})
    out.push_back(elementwise(op, 1, "i32"));
  out.push_back(elementwise("chlo.conj", 1, "complex<f32>"));
  out.push_back(elementwise("stablehlo.reduce_precision", 1, "f32",
                            " {exponent_bits = 5 : i32, mantissa_bits = 10 : i32}"));
  for (const char* op :
       {"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide",
        "stablehlo.remainder", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.power",
        "stablehlo.atan2", "chlo.next_after", "chlo.polygamma", "chlo.zeta"})
    out.push_back(elementwise(op, 2, "f32"));
  for (const char* op : {"stablehlo.and", "stablehlo.or", "stablehlo.xor", "stablehlo.shift_left",
                         "stablehlo.shift_right_logical", "stablehlo.shift_right_arithmetic"})
    out.push_back(elementwise(op, 2, "i32"));
  // Elementwise ops whose result element type is another one (infer.cpp's unary and binary).
  out.push_back(elementwise_to("stablehlo.abs", 1, "f32", "f32", "f64"));
  out.push_back(elementwise_to("stablehlo.abs", 1, "complex<f32>", "f32", "complex<f32>"));
  out.push_back(elementwise_to("stablehlo.is_finite", 1, "f32", "i1", "f32"));
  out.push_back(elementwise_to("chlo.is_inf", 1, "f32", "i1", "f32"));
  out.push_back(elementwise_to("chlo.is_neg_inf", 1, "f32", "i1", "f32"));
  out.push_back(elementwise_to("chlo.is_pos_inf", 1, "f32", "i1", "f32"));
  out.push_back(elementwise_to("stablehlo.real", 1, "complex<f32>", "f32", "f64"));
  out.push_back(elementwise_to("stablehlo.imag", 1, "complex<f32>", "f32", "complex<f32>"));
  out.push_back(elementwise_to("stablehlo.complex", 2, "f32", "complex<f32>", "complex<f64>"));
  out.push_back(elementwise_to("stablehlo.compare", 2, "f32", "i1", "f32", " " + kCompare));
  {
    // convert: any element type in, any out; only the shape is a rule.
    Case c = elementwise("stablehlo.convert", 1, "f32");
    c.good = "tensor<2x3xi32>";
    c.wrong.resize(1);
    c.wrong[0] = {"tensor<3x2xi32>",
                  shape_differs("stablehlo.convert", 0, "tensor<3x2xi32>", "tensor<2x3xf32>")};
    out.push_back(c);
  }
  out.push_back(
      Case{"stablehlo.select",
           "%p: tensor<2x3xi1>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>",
           "%0 = \"stablehlo.select\"(%p, %a, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, "
           "tensor<2x3xf32>) -> $R",
           "tensor<2x3xf32>",
           {{"tensor<3x2xf32>",
             shape_differs("stablehlo.select", 1, "tensor<3x2xf32>", "tensor<2x3xf32>")},
            {"tensor<2x3xf64>", element_differs("stablehlo.select", 1, "f64", "tensor<2x3xf64>",
                                                "f32", "tensor<2x3xf32>")}}});
  out.push_back(Case{
      "stablehlo.clamp",
      "%lo: tensor<f32>, %a: tensor<2x3xf32>, %hi: tensor<f32>",
      "%0 = \"stablehlo.clamp\"(%lo, %a, %hi) : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> $R",
      "tensor<2x3xf32>",
      {{"tensor<3x2xf32>", "stablehlo.clamp operand 1 shape differs from the result " + kDash +
                               " expected a scalar or the shape tensor<3x2xf32>, got "
                               "tensor<2x3xf32>"},
       {"tensor<2x3xf64>",
        element_differs("stablehlo.clamp", 0, "f64", "tensor<2x3xf64>", "f32", "tensor<f32>")}}});
  // Data movement.
  out.push_back(
      Case{"stablehlo.broadcast_in_dim",
           "%a: tensor<3xf32>",
           "%0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> $R",
           "tensor<2x3xf32>",
           {{"tensor<2x4xf32>", "broadcast_in_dim operand dimension does not fit " + kDash +
                                    " expected operand dim 0 of size 1 or 4, got 3"},
            {"tensor<2x3xi32>", element_differs("stablehlo.broadcast_in_dim", 0, "i32",
                                                "tensor<2x3xi32>", "f32", "tensor<3xf32>")}}});
  // stablehlo.broadcast: the sizes, then the operand's dimensions (its kernel trusts them).
  out.push_back(Case{
      "stablehlo.broadcast",
      "%a: tensor<3xf32>",
      "%0 = \"stablehlo.broadcast\"(%a) {broadcast_sizes = array<i64: 2>} : (tensor<3xf32>) -> $R",
      "tensor<2x3xf32>",
      {{"tensor<2x4xf32>",
        "stablehlo.broadcast result shape is wrong " + kDash + " expected [2, 3], got [2, 4]"},
       {"tensor<3x2xf32>",
        "stablehlo.broadcast result shape is wrong " + kDash + " expected [2, 3], got [3, 2]"},
       {"tensor<2x3xi32>", "stablehlo.broadcast changes the element type " + kDash +
                               " expected f32 (the operand's), "
                               "got i32"}}});
  out.push_back(
      Case{"stablehlo.dynamic_broadcast_in_dim",
           "%a: tensor<3xf32>, %s: tensor<2xi64>",
           "%0 = \"stablehlo.dynamic_broadcast_in_dim\"(%a, %s) {broadcast_dimensions = "
           "array<i64: 1>} : (tensor<3xf32>, tensor<2xi64>) -> $R",
           "tensor<2x3xf32>",
           {{"tensor<2x4xf32>", "dynamic_broadcast_in_dim operand dimension does not fit " + kDash +
                                    " expected operand dim 0 of size 1 or 4, got 3"}}});
  out.push_back(
      Case{"stablehlo.reshape",
           "%a: tensor<2x3xf32>",
           "%0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> $R",
           "tensor<3x2xf32>",
           {{"tensor<7xf32>",
             "reshape changes the element count " + kDash + " expected 6 elements, got 7"},
            {"tensor<3x2xi32>", element_differs("stablehlo.reshape", 0, "i32", "tensor<3x2xi32>",
                                                "f32", "tensor<2x3xf32>")}}});
  out.push_back(
      Case{"stablehlo.transpose",
           "%a: tensor<2x3xf32>",
           "%0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> $R",
           "tensor<3x2xf32>",
           {{"tensor<2x3xf32>",
             "transpose result shape is wrong " + kDash + " expected [3, 2], got [2, 3]"},
            {"tensor<3x2xi32>", element_differs("stablehlo.transpose", 0, "i32", "tensor<3x2xi32>",
                                                "f32", "tensor<2x3xf32>")}}});
  out.push_back(Case{
      "stablehlo.concatenate",
      "%a: tensor<2x3xf32>, %b: tensor<1x3xf32>",
      "%0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) -> $R",
      "tensor<3x3xf32>",
      {{"tensor<4x3xf32>",
        "concatenate result size is wrong " + kDash + " expected dimension 0 of size 3, got 4"},
       {"tensor<9xf32>", "concatenate result rank is wrong " + kDash +
                             " expected rank 2 as in tensor<2x3xf32>, got tensor<9xf32>"},
       {"tensor<3x3xi32>", element_differs("stablehlo.concatenate", 0, "i32", "tensor<3x3xi32>",
                                           "f32", "tensor<2x3xf32>")}}});
  // Dot and convolution: the result's element type is free (a preferred element type), its
  // shape is the rule.
  out.push_back(Case{
      "stablehlo.dot_general",
      "%a: tensor<2x3xf32>, %b: tensor<3x4xf32>",
      "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, "
      "tensor<3x4xf32>) -> $R",
      "tensor<2x4xf32>",
      {{"tensor<2x5xf32>", "dot_general result shape is wrong " + kDash +
                               " expected batch x lhs free x rhs free = [2, 4], got [2, 5]"}}});
  out.push_back(Case{
      "stablehlo.dot",
      "%a: tensor<2x3xf32>, %b: tensor<3x4xf32>",
      "%0 = \"stablehlo.dot\"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> $R",
      "tensor<2x4xf32>",
      {{"tensor<4x2xf32>", "dot_general result shape is wrong " + kDash +
                               " expected batch x lhs free x rhs free = [2, 4], got [4, 2]"}}});
  out.push_back(Case{
      "stablehlo.convolution",
      "%x: tensor<2x3x9x9xf32>, %k: tensor<4x3x3x3xf32>",
      "%0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], "
      "window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
      "(tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) -> $R",
      "tensor<2x4x7x7xf32>",
      {{"tensor<2x4x7x8xf32>", "convolution result shape is wrong " + kDash +
                                   " expected [2, 4, 7, 7], got [2, 4, 7, 8]"}}});
  // The slices: their bounds and their result (verify.cpp's slice rules, both dialects).
  out.push_back(Case{"stablehlo.slice",
                     "%a: tensor<3x8xf32>",
                     "%0 = stablehlo.slice %a [0:3:2, 1:8:3] : (tensor<3x8xf32>) -> $R",
                     "tensor<2x3xf32>",
                     {{"tensor<2x2xf32>", "stablehlo.slice result shape is wrong " + kDash +
                                              " expected [2, 3], got [2, 2]"},
                      {"tensor<2x3xf64>", "stablehlo.slice changes the element type " + kDash +
                                              " expected f32 (the operand's), got f64"}}});
  out.push_back(Case{
      "stablehlo.dynamic_slice",
      "%a: tensor<4x8xf32>, %i: tensor<i32>, %j: tensor<i64>",
      "%0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 8] : (tensor<4x8xf32>, tensor<i32>, "
      "tensor<i64>) -> $R",
      "tensor<2x8xf32>",
      {{"tensor<2x7xf32>",
        "stablehlo.dynamic_slice result shape is wrong " + kDash + " expected [2, 8], got [2, 7]"},
       {"tensor<2x8xi32>", "stablehlo.dynamic_slice changes the element type " + kDash +
                               " expected f32 (the operand's), got i32"}}});
  out.push_back(Case{
      "stablehlo.dynamic_update_slice",
      "%a: tensor<4x8xf32>, %u: tensor<2x8xf32>, %i: tensor<i32>",
      "%0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x8xf32>, tensor<2x8xf32>, "
      "tensor<i32>, tensor<i32>) -> $R",
      "tensor<4x8xf32>",
      {{"tensor<2x8xf32>", "stablehlo.dynamic_update_slice result shape is wrong " + kDash +
                               " expected [4, 8], got [2, 8]"},
       {"tensor<4x8xf16>", "stablehlo.dynamic_update_slice changes the element type " + kDash +
                               " expected f32 (the operand's), got f16"}}});
  // Ops whose rule is infer.cpp's (the op table's Inferred): the result its operands give.
  auto inferred = [&](const std::string& op, const std::string& args, const std::string& text,
                      const std::string& good, const std::vector<std::string>& wrong) {
    Case c{op, args, text, good, {}};
    for (const auto& w : wrong) c.wrong.push_back({w, inferred_differs(op, good, w)});
    out.push_back(c);
  };
  inferred("stablehlo.reverse", "%a: tensor<2x3xf32>",
           "%0 = \"stablehlo.reverse\"(%a) {dimensions = array<i64: 0>} : (tensor<2x3xf32>) -> $R",
           "tensor<2x3xf32>", {"tensor<3x2xf32>", "tensor<2x3xf64>"});
  inferred("stablehlo.cholesky", "%a: tensor<3x3xf32>",
           "%0 = \"stablehlo.cholesky\"(%a) {lower = true} : (tensor<3x3xf32>) -> $R",
           "tensor<3x3xf32>", {"tensor<3x4xf32>", "tensor<3x3xf64>"});
  inferred("stablehlo.triangular_solve", "%a: tensor<3x3xf32>, %b: tensor<3x4xf32>",
           "%0 = \"stablehlo.triangular_solve\"(%a, %b) {left_side = true, lower = true, "
           "transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : "
           "(tensor<3x3xf32>, tensor<3x4xf32>) -> $R",
           "tensor<3x4xf32>", {"tensor<3x3xf32>", "tensor<3x4xf64>"});
  inferred("stablehlo.batch_norm_inference",
           "%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: "
           "tensor<3xf32>",
           "%0 = \"stablehlo.batch_norm_inference\"(%x, %s, %o, %m, %v) {epsilon = 1.000000e-03 : "
           "f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, "
           "tensor<3xf32>, tensor<3xf32>) -> $R",
           "tensor<2x3xf32>", {"tensor<3x3xf32>", "tensor<2x3xf64>"});
  inferred("stablehlo.pad", "%a: tensor<2x3xf32>, %z: tensor<f32>",
           "%0 = stablehlo.pad %a, %z, low = [1, 0], high = [2, 1], interior = [1, 0] : "
           "(tensor<2x3xf32>, tensor<f32>) -> $R",
           "tensor<6x4xf32>", {"tensor<5x4xf32>", "tensor<6x4xf64>"});
  inferred("stablehlo.pad", "%a: tensor<2x3xf32>, %z: tensor<f32>",
           "%0 = \"stablehlo.pad\"(%a, %z) {edge_padding_high = array<i64: 0, -1>, "
           "edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>} : "
           "(tensor<2x3xf32>, tensor<f32>) -> $R",
           "tensor<3x2xf32>", {"tensor<3x3xf32>"});
  inferred("stablehlo.fft", "%a: tensor<3x8xf32>",
           "%0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<3x8xf32>) -> $R",
           "tensor<3x5xcomplex<f32>>", {"tensor<3x8xcomplex<f32>>", "tensor<3x5xf32>"});
  inferred("stablehlo.fft", "%a: tensor<4xcomplex<f32>>",
           "%0 = \"stablehlo.fft\"(%a) {fft_length = array<i64: 4>, fft_type = "
           "#stablehlo<fft_type IFFT>} : (tensor<4xcomplex<f32>>) -> $R",
           "tensor<4xcomplex<f32>>", {"tensor<5xcomplex<f32>>", "tensor<4xcomplex<f64>>"});
  {
    Case c{"stablehlo.iota", "", "%0 = stablehlo.iota dim = 1 : $R", "tensor<2x3xui8>", {}};
    c.wrong.push_back({"tensor<2x3xi1>",
                       "stablehlo.iota of this element type " + kDash +
                           " expected an integer, floating-point or complex element type, got i1"});
    out.push_back(c);
  }
  inferred("stablehlo.get_dimension_size", "%a: tensor<2x3xf32>",
           "%0 = \"stablehlo.get_dimension_size\"(%a) {dimension = 1 : i64} : (tensor<2x3xf32>) "
           "-> $R",
           "tensor<i32>", {"tensor<1xi32>", "tensor<i64>"});
  // The batch norms' training and grad: three results where HLO gives a tuple.
  const std::string x3 = "%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>";
  const std::string norm_results = "(tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)";
  auto result_differs = [&](const std::string& op, int i, const std::string& want,
                            const std::string& got) {
    return op + " result " + std::to_string(i) + "'s written type differs from the one its " +
           "operands give " + kDash + " expected " + want + " (its operands' types), got " + got;
  };
  out.push_back(Case{
      "stablehlo.batch_norm_training",
      x3,
      "%0:3 = \"stablehlo.batch_norm_training\"(%x, %s, %o) {epsilon = 1.000000e-03 : f32, "
      "feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> $R",
      norm_results,
      {{"(tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>)",
        result_differs("stablehlo.batch_norm_training", 1, "tensor<3xf32>", "tensor<2xf32>")},
       {"(tensor<2x3xf32>, tensor<3xf32>, tensor<3xf64>)",
        result_differs("stablehlo.batch_norm_training", 2, "tensor<3xf32>", "tensor<3xf64>")}}});
  out.push_back(Case{
      "stablehlo.batch_norm_grad",
      x3 + ", %m: tensor<3xf32>, %v: tensor<3xf32>, %g: tensor<2x3xf32>",
      "%0:3 = \"stablehlo.batch_norm_grad\"(%x, %s, %m, %v, %g) {epsilon = 1.000000e-03 : f32, "
      "feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, "
      "tensor<3xf32>, tensor<2x3xf32>) -> $R",
      norm_results,
      {{"(tensor<3x3xf32>, tensor<3xf32>, tensor<3xf32>)",
        result_differs("stablehlo.batch_norm_grad", 0, "tensor<2x3xf32>", "tensor<3x3xf32>")},
       {"(tensor<2x3xf32>, tensor<3xi32>, tensor<3xf32>)",
        result_differs("stablehlo.batch_norm_grad", 1, "tensor<3xf32>", "tensor<3xi32>")}}});
  inferred("stablehlo.tuple", "%a: tensor<2xf32>, %b: tensor<i32>",
           "%0 = \"stablehlo.tuple\"(%a, %b) : (tensor<2xf32>, tensor<i32>) -> $R",
           "tuple<tensor<2xf32>, tensor<i32>>",
           {"tuple<tensor<3xf32>, tensor<i32>>", "tuple<tensor<2xf32>, tensor<f32>>"});
  inferred("stablehlo.get_tuple_element", "%t: tuple<tensor<2xf32>, tensor<i32>>",
           "%0 = \"stablehlo.get_tuple_element\"(%t) {index = 1 : i32} : (tuple<tensor<2xf32>, "
           "tensor<i32>>) -> $R",
           "tensor<i32>", {"tensor<2xi32>", "tensor<f32>"});
  // Ops with regions: their results follow from the operands and the body.
  out.push_back(Case{
      "stablehlo.reduce",
      "%a: tensor<2x3xf32>, %z: tensor<f32>",
      "%0 = \"stablehlo.reduce\"(%a, %z) ({\n  " + kAddBody +
          "}) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> $R",
      "tensor<2xf32>",
      {{"tensor<3xf32>", "reduce result shape is wrong " + kDash +
                             " expected the input without dimensions [1]: [2], got [3]"},
       {"tensor<2xi32>", "stablehlo.reduce result 0 has the wrong type " + kDash +
                             " expected tensor<2xf32> (input 0 without the reduced dimensions; "
                             "element type of body argument 0), got tensor<2xi32>"}}});
  out.push_back(
      Case{"stablehlo.reduce_window",
           "%a: tensor<4x3xf32>, %z: tensor<f32>",
           "%0 = \"stablehlo.reduce_window\"(%a, %z) ({\n  " + kAddBody +
               "}) {window_dimensions = array<i64: 2, 1>} : (tensor<4x3xf32>, tensor<f32>) -> $R",
           "tensor<3x3xf32>",
           {{"tensor<4x3xf32>", "stablehlo.reduce_window result 0 has the wrong type " + kDash +
                                    " expected tensor<3x3xf32> (the window's output over input 0; "
                                    "element type of body argument 0), got tensor<4x3xf32>"},
            {"tensor<3x3xi32>", "stablehlo.reduce_window result 0 has the wrong type " + kDash +
                                    " expected tensor<3x3xf32> (the window's output over input 0; "
                                    "element type of body argument 0), got tensor<3x3xi32>"}}});
  out.push_back(Case{
      "stablehlo.select_and_scatter",
      "%a: tensor<4x3xf32>, %s: tensor<2x3xf32>, %z: tensor<f32>",
      "%0 = \"stablehlo.select_and_scatter\"(%a, %s, %z) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %c = \"stablehlo.compare\"(%x, %y) {comparison_direction = "
      "#stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
      "  }, {\n  " +
          kAddBody +
          "}) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : "
          "(tensor<4x3xf32>, tensor<2x3xf32>, tensor<f32>) -> $R",
      "tensor<4x3xf32>",
      {{"tensor<2x3xf32>", "stablehlo.select_and_scatter result 0 has the wrong type " + kDash +
                               " expected tensor<4x3xf32> (the operand's type), got "
                               "tensor<2x3xf32>"},
       {"tensor<4x3xi32>", "stablehlo.select_and_scatter result 0 has the wrong type " + kDash +
                               " expected tensor<4x3xf32> (the operand's type), got "
                               "tensor<4x3xi32>"}}});
  out.push_back(Case{
      "stablehlo.scatter",
      "%a: tensor<4x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>",
      "%0 = \"stablehlo.scatter\"(%a, %i, %u) ({\n  " + kAddBody +
          "}) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
          "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = "
          "1>} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> $R",
      "tensor<4x3xf32>",
      {{"tensor<4x2xf32>", "stablehlo.scatter result 0 has the wrong type " + kDash +
                               " expected tensor<4x3xf32> (input 0's shape, the body's element "
                               "type), got tensor<4x2xf32>"},
       {"tensor<4x3xi32>", "stablehlo.scatter result 0 has the wrong type " + kDash +
                               " expected tensor<4x3xf32> (input 0's shape, the body's element "
                               "type), got tensor<4x3xi32>"}}});
  out.push_back(Case{
      "stablehlo.map",
      "%a: tensor<2x3xf32>, %b: tensor<2x3xf32>",
      "%0 = \"stablehlo.map\"(%a, %b) ({\n  " + kAddBody +
          "}) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> $R",
      "tensor<2x3xf32>",
      {{"tensor<3x2xf32>", "stablehlo.map result 0 has the wrong type " + kDash +
                               " expected tensor<2x3xf32> (the inputs' shape, the element type "
                               "the body returns), got tensor<3x2xf32>"},
       {"tensor<2x3xi32>", "stablehlo.map result 0 has the wrong type " + kDash +
                               " expected tensor<2x3xf32> (the inputs' shape, the element type "
                               "the body returns), got tensor<2x3xi32>"}}});
  out.push_back(Case{
      "stablehlo.sort",
      "%a: tensor<4xf32>, %b: tensor<4xi32>",
      "%0:2 = \"stablehlo.sort\"(%a, %b) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):\n"
      "    %c = \"stablehlo.compare\"(%x, %y) " +
          kCompare +
          " : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
          "    \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
          "  }) {dimension = 0 : i64} : (tensor<4xf32>, tensor<4xi32>) -> $R",
      "(tensor<4xf32>, tensor<4xi32>)",
      {{"(tensor<4xf32>, tensor<5xi32>)", "stablehlo.sort result 1 has the wrong type " + kDash +
                                              " expected tensor<4xi32> (input 1's type), got "
                                              "tensor<5xi32>"},
       {"(tensor<4xf32>, tensor<4xf32>)", "stablehlo.sort result 1 has the wrong type " + kDash +
                                              " expected tensor<4xi32> (input 1's type), got "
                                              "tensor<4xf32>"}}});
  // gather: rows of a 10x10x10 operand at 3 start indices (verify.cpp's gather rule, both
  // dialects; dynamic_gather's slice sizes are values, its result's batch dimensions are checked).
  out.push_back(Case{
      "stablehlo.gather",
      "%a: tensor<10x10x10xf32>, %i: tensor<3x1x1xi64>",
      "%0 = \"stablehlo.gather\"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = "
      "[2, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, "
      "slice_sizes = array<i64: 1, 10, 10>}> : (tensor<10x10x10xf32>, tensor<3x1x1xi64>) -> $R",
      "tensor<3x1x10x10xf32>",
      {{"tensor<3x1x10x9xf32>", "stablehlo.gather result shape is wrong " + kDash +
                                    " expected [3, 1, 10, 10], got [3, 1, 10, 9]"},
       {"tensor<3x1x10x10xf64>", "stablehlo.gather changes the element type " + kDash +
                                     " expected f32 (the operand's), got f64"}}});
  out.push_back(Case{
      "stablehlo.dynamic_gather",
      "%a: tensor<10x10xf32>, %i: tensor<3x1xi64>, %s: tensor<2xi64>",
      "%0 = \"stablehlo.dynamic_gather\"(%a, %i, %s) <{dimension_numbers = #stablehlo.gather<"
      "offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = "
      "1>}> : (tensor<10x10xf32>, tensor<3x1xi64>, tensor<2xi64>) -> $R",
      "tensor<3x10xf32>",
      {{"tensor<4x10xf32>", "stablehlo.dynamic_gather result shape is wrong " + kDash +
                                " expected [3, ?], got [4, 10]"}}});
  // chlo.top_k: the k largest along the last dimension, and their i32 indices (its kernel trusts
  // this rule).
  out.push_back(Case{
      "chlo.top_k",
      "%a: tensor<3x5xf32>",
      "%0:2 = chlo.top_k(%a, k = 2) : tensor<3x5xf32> -> $R",
      "(tensor<3x2xf32>, tensor<3x2xi32>)",
      {{"(tensor<3x5xf32>, tensor<3x2xi32>)",
        "chlo.top_k result 0 has the wrong type " + kDash +
            " expected tensor<3x2xf32> (the operand's shape with k last, its element type), got "
            "tensor<3x5xf32>"},
       {"(tensor<3x2xf32>, tensor<3x2xi64>)",
        "chlo.top_k result 1 has the wrong type " + kDash +
            " expected tensor<3x2xi32> (the operand's shape with k last, i32 indices), got "
            "tensor<3x2xi64>"}}});
  // The results the spec ties to the operands (ops.h, VerifyRule::BitcastConvert and after).
  out.push_back(Case{
      "stablehlo.bitcast_convert",
      "%a: tensor<2xf32>",
      "%0 = \"stablehlo.bitcast_convert\"(%a) : (tensor<2xf32>) -> $R",
      "tensor<2xi32>",
      {{"tensor<3xi32>", "stablehlo.bitcast_convert result has the wrong shape " + kDash +
                             " expected tensor<2xi32> (the operand's shape: its elements are as "
                             "wide as the result's), got tensor<3xi32>"},
       {"tensor<2xi16>", "stablehlo.bitcast_convert result has the wrong shape " + kDash +
                             " expected tensor<2x2xi16> (the operand's shape and 2, the 16-bit "
                             "words in each 32-bit element), got tensor<2xi16>"},
       {"tensor<2xcomplex<f32>>", "stablehlo.bitcast_convert between a complex and a real type " +
                                      kDash +
                                      " expected both complex or both not, got tensor<2xf32> to "
                                      "tensor<2xcomplex<f32>>"}}});
  out.push_back(Case{"stablehlo.optimization_barrier",
                     "%a: tensor<2xf32>, %b: tensor<i32>",
                     "%0:2 = \"stablehlo.optimization_barrier\"(%a, %b) : (tensor<2xf32>, "
                     "tensor<i32>) -> $R",
                     "(tensor<2xf32>, tensor<i32>)",
                     {{"(tensor<2xf32>, tensor<f32>)",
                       "stablehlo.optimization_barrier result 1 differs from operand 1 " + kDash +
                           " expected tensor<i32> (the operand's type), got tensor<f32>"}}});
  out.push_back(
      Case{"stablehlo.rng_bit_generator",
           "%s: tensor<2xui64>",
           "%0:2 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = "
           "#stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> $R",
           "(tensor<2xui64>, tensor<4x3xui32>)",
           {{"(tensor<3xui64>, tensor<4x3xui32>)",
             "stablehlo.rng_bit_generator new state has another type than the state " + kDash +
                 " expected tensor<2xui64> (the state's type), got "
                 "tensor<3xui64>"},
            {"(tensor<2xui64>, tensor<4xi1>)",
             "stablehlo.rng_bit_generator values are not integers or floats " + kDash +
                 " expected an array of an integer or floating-point type, got "
                 "tensor<4xi1>"}}});
  return out;
}

// Ops of the table with a verify rule and no case here, each with why (the coverage test below
// fails for any other op with a rule and no case).
const std::set<std::string> kExcluded = {
    // Its rule is its literal's: the parser reads the value into the written type, so there is
    // no result type to get wrong apart from the literal (literal_test.cpp, parse_errors_test).
    "stablehlo.constant",
};

// StableHLO ops with no result rule for StableHLO yet (verify rule None in ops.inc): none now.
// An op listed here makes the test below fail once it gets a rule without a case.
const std::set<std::string> kNoRuleYet = {};

}  // namespace

TEST_CASE("every op's result rule: a right result verifies, a wrong one is refused at the op",
          "[hlo][verify][verify-ops]") {
  for (const Case& c : cases()) {
    // Named by the op, its arguments and its result: one name per case (a repeated name would be
    // taken for a section already run, and skipped).
    SECTION(c.op + " (" + c.args + ") -> " + c.good) {
      accepted(module_text(c.args, c.text, c.good));
      REQUIRE_FALSE(c.wrong.empty());
      for (const Wrong& w : c.wrong) {
        const std::string message = refused(module_text(c.args, c.text, w.result));
        CHECK(message == "2:3: error: " + w.message);
        // The message names the op (its spelling, or its name without the dialect's prefix).
        const std::string bare = c.op.substr(c.op.find('.') + 1);
        CHECK(message.find(c.op == "stablehlo.dot" ? "dot_general" : bare) != std::string::npos);
      }
    }
  }
}

TEST_CASE("every op of the table with a result rule has a case, or is excluded with a reason",
          "[hlo][verify][verify-ops]") {
  std::set<std::string> covered, names;
  for (const Case& c : cases()) {
    INFO(c.op);
    CHECK(op_from_name(c.op, "stablehlo") != OpCode::Unknown);
    covered.insert(c.op);
    CHECK(names.insert(c.op + " (" + c.args + ") -> " + c.good).second);  // every case runs
  }
  std::vector<std::string> missing, stale;
  for (int i = 1; i < static_cast<int>(OpCode::Count_); ++i) {
    const OpInfo& info = op_info(static_cast<OpCode>(i));
    if (info.mlir.empty()) continue;  // HLO only: infer.cpp's check_written_shapes
    const std::string name(info.mlir);
    const bool rule = info.verify != VerifyRule::None;
    if (rule && !covered.count(name) && !kExcluded.count(name)) missing.push_back(name);
    // The lists say what is true: an excluded op has a rule and no case; an op without a rule
    // yet has none.
    if (kExcluded.count(name) && (!rule || covered.count(name))) stale.push_back(name);
    if (kNoRuleYet.count(name) && rule) stale.push_back(name + " (has a rule now: add a case)");
  }
  for (const auto& n : kNoRuleYet) {
    INFO(n);
    CHECK(op_from_name(n, "stablehlo") != OpCode::Unknown);
  }
  std::string text;
  for (const auto& n : missing) text += " " + n;
  INFO("ops with a result rule and no case:" << text);
  CHECK(missing.empty());
  text.clear();
  for (const auto& n : stale) text += " " + n;
  INFO("stale entries of the excluded lists:" << text);
  CHECK(stale.empty());
  CHECK(covered.size() >= 80);
}

namespace {

// A body of `args` (block arguments) returning `ret` (values and their types).
std::string body(const std::string& args, const std::string& ops, const std::string& ret,
                 const std::string& ret_types) {
  return "  ^bb0(" + args + "):\n" + ops + "    \"stablehlo.return\"(" + ret + ") : (" + ret_types +
         ") -> ()\n  ";
}
const std::string kF = "tensor<f32>";
const std::string kAdd =
    "    %s = \"stablehlo.add\"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n";
const std::string kLess = "    %c = \"stablehlo.compare\"(%x, %y) " + kCompare +
                          " : (tensor<f32>, tensor<f32>) -> tensor<i1>\n";

struct RegionCase {
  std::string what, args, text, message;
};

std::vector<RegionCase> region_cases() {
  const std::string xy = "%x: tensor<f32>, %y: tensor<f32>";
  auto reduce = [&](const std::string& b) {
    return "%0 = \"stablehlo.reduce\"(%a, %z) ({\n" + b +
           "}) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>";
  };
  auto reduce_window = [&](const std::string& b) {
    return "%0 = \"stablehlo.reduce_window\"(%a, %z) ({\n" + b +
           "}) {window_dimensions = array<i64: 2, 1>} : (tensor<2x3xf32>, tensor<f32>) -> "
           "tensor<1x3xf32>";
  };
  auto sort = [&](const std::string& b) {
    return "%0 = \"stablehlo.sort\"(%a) ({\n" + b +
           "}) {dimension = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>";
  };
  auto map = [&](const std::string& b) {
    return "%0 = \"stablehlo.map\"(%a, %a) ({\n" + b +
           "}) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> "
           "tensor<2x3xf32>";
  };
  auto scatter = [&](const std::string& b) {
    return "%0 = \"stablehlo.scatter\"(%a, %i, %u) ({\n" + b +
           "}) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
           "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = "
           "1>} : (tensor<2x3xf32>, tensor<1x1xi32>, tensor<1x3xf32>) -> tensor<2x3xf32>";
  };
  auto sas = [&](const std::string& select, const std::string& scat) {
    return "%0 = \"stablehlo.select_and_scatter\"(%a, %s, %z) ({\n" + select + "}, {\n" + scat +
           "}) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : "
           "(tensor<2x3xf32>, tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>";
  };
  const std::string args =
      "%a: tensor<2x3xf32>, %z: tensor<f32>, %i: tensor<1x1xi32>, %u: tensor<1x3xf32>, %s: "
      "tensor<1x3xf32>, %n: tensor<i32>";
  const std::string good_reducer = body(xy, kAdd, "%s", kF);
  const std::string good_select = body(xy, kLess, "%c", "tensor<i1>");
  return {
      // The right bodies first: each must verify (checked below).
      {"reduce", args, reduce(good_reducer), ""},
      {"reduce_window", args, reduce_window(good_reducer), ""},
      {"sort", args, sort(good_select), ""},
      {"map", args, map(good_reducer), ""},
      {"scatter", args, scatter(good_reducer), ""},
      {"select_and_scatter", args, sas(good_select, good_reducer), ""},
      // reduce: 2N arguments of the init's type, N values of it.
      {"reduce, one argument", args, reduce(body("%x: tensor<f32>", "", "%x", kF)),
       "stablehlo.reduce body takes another number of arguments than its operands give " + kDash +
           " expected 2 (two per input), got 1"},
      {"reduce, an argument of another type", args,
       reduce(body("%x: tensor<f32>, %y: tensor<i32>", "", "%x", kF)),
       "stablehlo.reduce body argument 1 has the wrong type " + kDash +
           " expected tensor<f32> (the type of argument 0), got tensor<i32>"},
      {"reduce, an argument the init cannot be carried in", args,
       reduce(body("%x: tensor<i32>, %y: tensor<i32>", "", "%x", "tensor<i32>")),
       "stablehlo.reduce body argument 0 has the wrong type " + kDash +
           " expected tensor<f32> (init value 0's type, or its shape with a wider element "
           "type), got tensor<i32>"},
      {"reduce, two values", args, reduce(body(xy, "", "%x, %y", kF + ", " + kF)),
       "stablehlo.reduce body returns another number of values than the op has inputs " + kDash +
           " expected 1, got 2"},
      {"reduce, a value of another type", args, reduce(body(xy, "", "%n", "tensor<i32>")),
       "stablehlo.reduce body's value 0 has the wrong type " + kDash +
           " expected tensor<f32> (the type of argument 0), got tensor<i32>"},
      // reduce_window: the same body rule.
      {"reduce_window, an argument of another type", args,
       reduce_window(body("%x: tensor<f32>, %y: tensor<2xf32>", "", "%x", kF)),
       "stablehlo.reduce_window body argument 1 has the wrong type " + kDash +
           " expected tensor<f32> (the type of argument 0), got tensor<2xf32>"},
      {"reduce_window, a value of another type", args,
       reduce_window(body(xy, "", "%n", "tensor<i32>")),
       "stablehlo.reduce_window body's value 0 has the wrong type " + kDash +
           " expected tensor<f32> (the type of argument 0), got tensor<i32>"},
      // sort: two 0-d arguments per input, one i1.
      {"sort, one argument per input", args, sort(body("%x: tensor<f32>", "", "%x", kF)),
       "stablehlo.sort comparator takes another number of arguments than its operands give " +
           kDash + " expected 2 0-d tensors, got 1"},
      {"sort, an argument of another type", args,
       sort(body("%x: tensor<f32>, %y: tensor<i32>", "", "%x", kF)),
       "stablehlo.sort comparator argument 1 has the wrong type " + kDash +
           " expected tensor<f32> (input 0's element type), got tensor<i32>"},
      {"sort, no boolean", args, sort(body(xy, kAdd, "%s", kF)),
       "stablehlo.sort comparator's value 0 has the wrong type " + kDash +
           " expected tensor<i1> (a boolean), got tensor<f32>"},
      // map: one 0-d argument per input, one 0-d value.
      {"map, an argument of another type", args,
       map(body("%x: tensor<f32>, %y: tensor<2x3xf32>", "", "%x", kF)),
       "stablehlo.map body argument 1 has the wrong type " + kDash +
           " expected tensor<f32> (input 1's element type), got tensor<2x3xf32>"},
      {"map, two values", args, map(body(xy, "", "%x, %y", kF + ", " + kF)),
       "stablehlo.map body does not return one 0-d tensor " + kDash +
           " expected one 0-d tensor, got 2 values"},
      // scatter: 2N 0-d arguments of the inputs' element types (or wider), N values of them.
      {"scatter, an argument of another kind", args,
       scatter(body("%x: tensor<i32>, %y: tensor<f32>", "", "%y", kF)),
       "stablehlo.scatter body argument 0 has the wrong type " + kDash +
           " expected tensor<f32> (input 0's element type or a wider one), got tensor<i32>"},
      {"scatter, a value of another type", args, scatter(body(xy, "", "%n", "tensor<i32>")),
       "stablehlo.scatter body's value 0 has the wrong type " + kDash +
           " expected tensor<f32> (the type of body argument 0), got tensor<i32>"},
      // select_and_scatter: select gives an i1, scatter is a reducer over source and init.
      {"select_and_scatter, select gives no boolean", args,
       sas(body(xy, kAdd, "%s", kF), good_reducer),
       "stablehlo.select_and_scatter select's value 0 has the wrong type " + kDash +
           " expected tensor<i1> (a boolean), got tensor<f32>"},
      {"select_and_scatter, select takes another type", args,
       sas(body("%x: tensor<i32>, %y: tensor<i32>", "", "%x", "tensor<i32>"), good_reducer),
       "stablehlo.select_and_scatter select argument 0 has the wrong type " + kDash +
           " expected tensor<f32> (the operand's element type), got tensor<i32>"},
      {"select_and_scatter, scatter gives another type", args,
       sas(good_select, body(xy, "", "%n", "tensor<i32>")),
       "stablehlo.select_and_scatter scatter's value 0 has the wrong type " + kDash +
           " expected tensor<f32> (the type of argument 0), got tensor<i32>"},
      // An unranked operand: compatible with any result shape (no false alarm).
      {"add, unranked operands", "%p: tensor<*xf32>, %q: tensor<*xf32>",
       "%0 = \"stablehlo.add\"(%p, %q) : (tensor<*xf32>, tensor<*xf32>) -> tensor<2xf32>", ""},
      {"compare, an unranked operand", "%p: tensor<*xf32>, %q: tensor<2xf32>",
       "%0 = \"stablehlo.compare\"(%p, %q) " + kCompare +
           " : (tensor<*xf32>, tensor<2xf32>) -> tensor<2xi1>",
       ""},
      // A window's strides and dilations are positive (found by scripts/fuzz run: a stride of 0
      // divided by zero in the window's output size).
      {"reduce_window, a stride of 0", args,
       "%0 = \"stablehlo.reduce_window\"(%a, %z) ({\n" + good_reducer +
           "}) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 0, 1>} : "
           "(tensor<2x3xf32>, tensor<f32>) -> tensor<1x3xf32>",
       "stablehlo.reduce_window window strides and dilations must be positive " + kDash +
           " expected values of at least 1, got 0"},
      // Operand counts the bodies cannot pair up.
      {"reduce, an init value short", args,
       "%0 = \"stablehlo.reduce\"(%a, %z, %z) ({\n" + good_reducer +
           "}) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> "
           "tensor<2xf32>",
       "stablehlo.reduce needs as many init values as inputs " + kDash +
           " expected N inputs and N init values, N at least 1, got 3 operands"},
      {"scatter, no updates", args,
       "%0 = \"stablehlo.scatter\"(%a, %i) ({\n" + good_reducer +
           "}) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
           "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = "
           "1>} : (tensor<2x3xf32>, tensor<1x1xi32>) -> tensor<2x3xf32>",
       "stablehlo.scatter needs as many updates as inputs " + kDash +
           " expected N inputs, the indices and N updates, N at least 1, got 2 operands"},
      // select's predicate: a scalar or the result's shape.
      {"select, a predicate of another shape", "%p: tensor<3x2xi1>, %b: tensor<2x3xf32>",
       "%0 = \"stablehlo.select\"(%p, %b, %b) : (tensor<3x2xi1>, tensor<2x3xf32>, "
       "tensor<2x3xf32>) -> tensor<2x3xf32>",
       "stablehlo.select operand 0 shape differs from the result " + kDash +
           " expected a scalar or the shape tensor<2x3xf32>, got tensor<3x2xi1>"},
  };
}

}  // namespace

TEST_CASE("region rules: reduce, reduce_window, sort, map, scatter and select_and_scatter bodies",
          "[hlo][verify][verify-ops]") {
  std::set<std::string> names;  // one name per case: a repeated one would be skipped
  for (const RegionCase& c : region_cases()) CHECK(names.insert(c.what).second);
  for (const RegionCase& c : region_cases()) {
    SECTION(c.what) {
      const std::string text = "func.func @main(" + c.args + ") {\n  " + c.text + "\n  return\n}\n";
      if (c.message.empty())
        accepted(text);
      else
        CHECK(refused(text) == "2:3: error: " + c.message);
    }
  }
}
