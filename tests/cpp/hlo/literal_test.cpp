// The constant-literal decoder (hlo/literal.h): every form of MLIR dense<...> and XLA HLO
// literals for every element type, the edges, every error with its offset, the corpus, and
// format_element → decode round trips. Expected bytes are the little-endian storage, written
// as hex next to the value they encode.
#include "hlo/literal.h"

#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/test_util.h"

using namespace rl::hlo;
using Dims = std::vector<std::int64_t>;

namespace {

std::string hex_of(const std::vector<std::uint8_t>& bytes) {
  static const char* const digits = "0123456789ABCDEF";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

ElementType type_named(const std::string& name) {
  const ElementType t = element_type_from_name(name);
  INFO("element type " << name);
  REQUIRE(t != ElementType::Invalid);
  return t;
}

// Decodes and requires success, showing the error otherwise.
Literal decoded(bool hlo, const std::string& type, const Dims& dims, const std::string& text) {
  std::size_t offset = 0;
  auto r = hlo ? decode_hlo_literal(text, type_named(type), dims, &offset)
               : decode_dense(text, type_named(type), dims, &offset);
  INFO(text << " as " << type
            << (r.ok() ? std::string()
                       : " → error at " + std::to_string(offset) + ": " + r.error()));
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_CASE("dense literals: decode_dense reads every MLIR form for every element type",
          "[hlo][literal]") {
  using Row = std::tuple<std::string, Dims, std::string, std::string,
                         bool>;  // type, dims, text, bytes, splat
  auto [type, dims, text, bytes,
        splat] = GENERATE(table<std::string, Dims, std::string, std::string, bool>({
      // i1: true/false, 0/1, hex blobs in both MLIR layouts.
      Row{"i1", {2, 2}, "dense<[[true, false], [false, true]]>", "01000001", false},
      Row{"i1", {3}, "dense<true>", "01", true},
      Row{"i1", {2}, "dense<[1, 0]>", "0100", false},
      Row{"i1", {3}, "dense<\"0x010001\">", "010001", false},  // one byte per i1 (MLIR since 2026)
      Row{"i1", {4}, "dense<\"0x01\">", "01", true},           // one byte: a splat
      Row{"i1", {9}, "dense<\"0xFF\">", "01", true},           // pre-2026 splat byte for true
      // Pre-2026 bit-packed: element i is bit i%8 of byte i/8; 0x05 = bits 0 and 2, 0x09 = bits 0
      // and 3.
      Row{"i1", {12}, "dense<\"0x0509\">", "010001000000000001000001", false},
      // Signed integers: two's complement, little-endian; hex literals are bit patterns.
      Row{"i8", {2, 2}, "dense<[[-128, -1], [0, 127]]>", "80FF007F", false},
      Row{"i8", {4}, "dense<\"0x80FF007F\">", "80FF007F", false},
      Row{"i8", {4}, "dense<-5>", "FB", true},  // -5 = 0x100 - 5
      Row{"i8", {2}, "dense<[0xFF, 0x80]>", "FF80", false},
      Row{"i16", {3}, "dense<[-32768, 32767, 258]>", "0080FF7F0201", false},  // 258 = 0x0102
      Row{"i32", {2}, "dense<[-2147483648, 2147483647]>", "00000080FFFFFF7F", false},
      Row{"i32", {2}, "dense<\"0xFDFFFFFF03000000\">", "FDFFFFFF03000000", false},  // -3, 3
      Row{"i64",
          {2},
          "dense<[-9223372036854775808, 9223372036854775807]>",
          "0000000000000080FFFFFFFFFFFFFF7F",
          false},
      Row{"i64", {}, "dense<-2>", "FEFFFFFFFFFFFFFF", false},
      Row{"i4", {2}, "dense<\"0x0F07\">", "0F07", false},  // i4 in the low bits of a byte: -1, 7
      Row{"index", {2}, "dense<[-1, 5]>", "FFFFFFFFFFFFFFFF0500000000000000", false},
      // Unsigned integers, up to 2^64 - 1.
      Row{"ui8", {3}, "dense<[0, 255, 7]>", "00FF07", false},
      Row{"ui16", {1}, "dense<[65535]>", "FFFF", false},
      Row{"ui32", {2}, "dense<[4294967295, 16]>", "FFFFFFFF10000000", false},
      Row{"ui64", {}, "dense<18446744073709551615>", "FFFFFFFFFFFFFFFF", false},
      Row{"ui64", {2}, "dense<\"0x0100000000000000\">", "0100000000000000", true},
      // f16: 1.0 = 0x3C00, -2 = 0xC000, 0.5 = 0x3800; 65504 = 0x7BFF (largest finite).
      Row{"f16", {3}, "dense<[1.000000e+00, -2.0, 0.5]>", "003C00C00038", false},
      Row{"f16", {2}, "dense<[0x7E00, 0xFC00]>", "007E00FC", false},  // NaN and -inf as bit
                                                                      // patterns
      Row{"f16", {5}, "dense<\"0x003C\">", "003C", true},
      Row{"f16", {}, "dense<6.550400e+04>", "FF7B", false},
      // bf16: 1 = 0x3F80, -3 = 0xC040; 0x7FC0 is its quiet NaN.
      Row{"bf16", {2}, "dense<[1.0, -3.0E+0]>", "803F40C0", false},
      Row{"bf16", {2}, "dense<\"0x803F40C0\">", "803F40C0", false},
      Row{"bf16", {}, "dense<0x7FC0>", "C07F", false},
      // f32: 1 = 0x3F800000, 2.5 = 0x40200000, -0 = 0x80000000, 0.1 = 0x3DCCCCCD.
      Row{"f32",
          {2, 2},
          "dense<[[1.0, 2.5], [-0.0, 1.000000e-01]]>",
          "0000803F0000204000000080CDCCCC3D",
          false},
      Row{"f32",
          {3},
          "dense<[0x7FC00000, 0x7F800000, 0xFF800000]>",
          "0000C07F0000807F000080FF",
          false},
      Row{"f32", {4}, "dense<\"0x0000803F\">", "0000803F", true},
      Row{"f32", {2}, "dense<[1, -2]>", "0000803F000000C0", false},  // decimal integers in a float
                                                                     // tensor
      Row{"f32", {3}, "dense<[inf, -inf, nan]>", "0000807F000080FF0000C07F", false},
      Row{"f32", {}, "dense<2.5> : tensor<f32>", "00002040", false},  // the trailing type is
                                                                      // ignored
      // f64: MLIR's own hex test, 10.0 = 0x4024000000000000, 5.0 = 0x4014000000000000.
      Row{"f64",
          {2},
          "dense<[1.000000e+01, 5.000000e+00]>",
          "00000000000024400000000000001440",
          false},
      Row{"f64",
          {2},
          "dense<\"0x00000000000024400000000000001440\">",
          "00000000000024400000000000001440",
          false},
      Row{"f64", {}, "dense<0x7FF8000000000000>", "000000000000F87F", false},
      // complex: (re, im) side by side; MLIR's hex test reads this blob as (10, 5) twice.
      Row{"complex<f32>",
          {2},
          "dense<\"0x000020410000A040000020410000A040\">",
          "000020410000A040000020410000A040",
          false},
      Row{"complex<f32>",
          {2},
          "dense<[(1.000000e+01,5.000000e+00), (-1.0, 0.0)]>",
          "000020410000A040000080BF00000000",
          false},
      Row{"complex<f32>", {3}, "dense<(1.500000e+00,2.500000e+00)>", "0000C03F00002040", true},
      Row{"complex<f64>", {1}, "dense<[(0.0, -0.0)]>", "00000000000000000000000000000080", false},
      Row{"complex<f64>",
          {2},
          "dense<(1.0, 0x7FF0000000000000)>",
          "000000000000F03F000000000000F07F",
          true},
      // Empty tensors: dense<>, [], nested empty lists, an empty blob.
      Row{"f32", {14, 15, 0, 17}, "dense<>", "", false},
      Row{"f32", {0}, "dense<[]>", "", false},
      Row{"i32", {2, 0}, "dense<[[], []]>", "", false},
      Row{"f64", {0}, "dense<\"0x\">", "", false},
      // Layout: spaces and line breaks anywhere between tokens.
      Row{"i32",
          {2, 2},
          "dense<\n  [[1,2],\n   [3 , 4]]\n>",
          "01000000020000000300000004000000",
          false},
  }));
  INFO(text << " : " << type);
  const Literal lit = decoded(false, type, dims, text);
  CHECK(lit.type == type_named(type));
  CHECK(lit.dims == dims);
  CHECK(hex_of(lit.bytes) == bytes);
  CHECK(lit.splat == splat);
}

TEST_CASE("HLO literals: decode_hlo_literal reads every form for every element type",
          "[hlo][literal]") {
  using Row = std::tuple<std::string, Dims, std::string, std::string>;  // type, dims, text, bytes
  auto [type, dims, text, bytes] = GENERATE(table<std::string, Dims, std::string, std::string>({
      Row{"s32", {2, 2}, "{ {1, 2}, {3, 4} }", "01000000020000000300000004000000"},
      Row{"s32", {2, 1}, "{ /*i0=0*/ {1}, /*i0=1*/ {2} }", "0100000002000000"},  // XLA's index
                                                                                 // comments
      Row{"s64", {}, "-9223372036854775808", "0000000000000080"},
      Row{"s8", {2}, "{-128, 127}", "807F"}, Row{"s16", {1}, "{-2}", "FEFF"},
      Row{"u8", {1}, "{255}", "FF"}, Row{"u16", {2}, "{0, 65535}", "0000FFFF"},
      Row{"u32", {4}, "{13, 15, 26, 6}", "0D0000000F0000001A00000006000000"},
      Row{"u64",
          {4},
          "{ 1, 2, 4, 8 }",
          "01000000000000000200000000000000"
          "04000000000000000800000000000000"},
      Row{"pred", {}, "true", "01"}, Row{"pred", {2}, "{false, 1}", "0001"},
      Row{"f32", {}, "1.5", "0000C03F"},  // 1.5 = 0x3FC00000
      Row{"f32", {}, "0", "00000000"},
      Row{"f32", {}, "1e-07", "95BFD633"},  // 1e-7 rounds to 0x33D6BF95
      Row{"f32", {}, "-inf", "000080FF"}, Row{"f32", {}, "nan", "0000C07F"},
      Row{"f32", {}, "-nan", "0000C0FF"},
      Row{"f32", {}, "nan(0x1)", "0100807F"},  // payload 1, quiet bit clear: a signalling NaN
      Row{"f32",
          {2, 2, 1, 1},
          "{{{{1.0}},{{2.0}}},{{{3.0}},{{4.0}}}}",
          "0000803F000000400000404000008040"},
      Row{"f64", {1}, "{0.1}", "9A9999999999B93F"},                      // 0.1 = 0x3FB999999999999A
      Row{"f16", {4}, "{1, -4, -65504, 0.015625}", "003C00C4FFFB0024"},  // 0x3C00, 0xC400, 0xFBFF,
                                                                         // 2^-6 = 0x2400
      Row{"bf16", {}, "-inf", "80FF"}, Row{"bf16", {0}, "{}", ""},
      Row{"f32", {2, 0}, "{ {}, {} }", ""}, Row{"c64", {}, "(1, 0)", "0000803F00000000"},
      Row{"c128", {}, "(1, -0.5)", "000000000000F03F000000000000E0BF"},
      Row{"c64", {2}, "{(1, 2), (nan, -inf)}", "0000803F000000400000C07F000080FF"},
      // The f8/f6/f4 formats, one byte each. f8e4m3fn (bias 7): 1 = 0 0111 000 = 0x38,
      // 2 = 0x40, 3 = 0 1000 100 = 0x44, 4 = 0x48.
      Row{"f8e4m3fn", {4}, "{1, 2, 3, 4}", "38404448"},
      Row{"f8e5m2", {4}, "{1, 2, 3, 4}", "3C404244"},  // bias 15: 0 01111 00, 0 10000 00, 0 10000
                                                       // 10, 0 10001 00
      Row{"f8e4m3fnuz", {4}, "{1, 2, 3, 4}", "40484C50"},     // bias 8
      Row{"f8e5m2fnuz", {4}, "{1, 2, 3, 4}", "40444648"},     // bias 16
      Row{"f8e4m3b11fnuz", {4}, "{1, 2, 3, 4}", "58606468"},  // bias 11
      Row{"f8e4m3", {4}, "{1, 2, 3, 4}", "38404448"},         // IEEE-style E4M3, bias 7
      Row{"f8e3m4", {4}, "{1, 2, 3, 4}", "30404850"},     // bias 3: 0 011 0000, 0 100 0000, 0 100
                                                          // 1000, 0 101 0000
      Row{"f8e8m0fnu", {4}, "{1, 2, 4, 8}", "7F808182"},  // 2^(b-127)
      Row{"f4e2m1fn", {4}, "{1, 2, 3, 4}", "02040506"},   // bias 1: 0 01 0, 0 10 0, 0 10 1, 0 11 0
      Row{"f6e2m3fn", {2}, "{7.5, -0.125}", "1F21"},  // 7.5 largest = 0 11 111; 0.125 = subnormal
                                                      // 1·2^-3
      Row{"f6e3m2fn", {2}, "{28, 0.0625}", "1F01"},   // 28 largest = 0 111 11; 2^-4 smallest
                                                      // subnormal
  }));
  INFO(text << " as " << type);
  const Literal lit = decoded(true, type, dims, text);
  CHECK(hex_of(lit.bytes) == bytes);
  CHECK_FALSE(lit.splat);
}

TEST_CASE(
    "decimal floats in a literal round to the element type once, to nearest even, edges included",
    "[hlo][literal]") {
  using Row = std::tuple<std::string, std::string, std::string>;  // type, decimal, bytes
  auto [type, text, bytes] = GENERATE(table<std::string, std::string, std::string>({
      // 1 + 2^-11 = 1.00048828125 is the f16 tie between 0x3C00 and 0x3C01: even wins.
      Row{"f16", "1.00048828125", "003C"},
      // 1.000488281250001 is above the tie (by about 4.5 double ulps) and rounds up. Through a
      // float it would first become the tie itself and then round down to 0x3C00.
      Row{"f16", "1.000488281250001", "013C"},
      Row{"f16", "5.9604644775390625e-08", "0100"},   // 2^-24, the smallest subnormal
      Row{"f16", "2.98023223876953125e-08", "0000"},  // 2^-25: half of it, ties to even 0
      Row{"f16", "-0.0", "0080"},
      Row{"f16", "65519.99", "FF7B"},                // under the overflow threshold 65520: 65504
      Row{"bf16", "3.3895313892515355e38", "7F7F"},  // bf16's largest finite (2 - 2^-7)·2^127
      Row{"bf16", "1.00390625", "803F"},  // 1 + 2^-8: tie between 0x3F80 and 0x3F81, to even
      Row{"f32", "1.000000059604644775390625", "0000803F"},  // 1 + 2^-24: f32 tie, to even
      Row{"f32", "3.40282347E+38", "FFFF7F7F"},              // FLT_MAX as the corpus writes it
      Row{"f32", "1.4E-45", "01000000"},                     // the smallest subnormal 2^-149
      Row{"f32", "7.0E-46", "00000000"},                     // under half of it
      Row{"f64", "1.7976931348623157e308", "FFFFFFFFFFFFEF7F"},
      Row{"f64", "4.9406564584124654e-324", "0100000000000000"},
      Row{"f8e4m3fn", "448", "7E"},          // largest finite: 0 1111 110 (0x7F is NaN)
      Row{"f8e4m3fn", "0.001953125", "01"},  // 2^-9: smallest subnormal 2^(1-7-3)
      Row{"f8e4m3fn", "-nan", "FF"},
      Row{"f8e4m3fnuz", "-0.0", "00"},  // no -0 in FNUZ formats: 0x80 is their NaN
      Row{"f8e4m3fnuz", "nan", "80"}, Row{"f8e5m2", "inf", "7C"}, Row{"f8e5m2", "-nan", "FE"},
      Row{"f4e2m1fn", "-6", "0F"},    // 1 11 1: the largest magnitude, negative
      Row{"f4e2m1fn", "0.25", "00"},  // half of the subnormal 0.5: ties to even 0
      Row{"f8e8m0fnu", "3", "80"},    // 3 is the tie between 2 (0x80) and 4 (0x81): to even 0x80
      Row{"f8e8m0fnu", "6", "82"},    // between 4 (0x81) and 8 (0x82): to even 0x82
  }));
  INFO(text << " as " << type);
  CHECK(hex_of(decoded(true, type, {}, text).bytes) == bytes);
  CHECK(hex_of(decoded(false, type, {}, "dense<" + text + ">").bytes) == bytes);
}

TEST_CASE("a splat literal keeps one element however large the tensor", "[hlo][literal]") {
  const Literal lit = decoded(false, "f32", {1000000, 1000000, 1000}, "dense<1.5>");
  CHECK(lit.splat);
  CHECK(lit.elements() == 1000000000000000);  // 10^6 · 10^6 · 10^3
  CHECK(hex_of(lit.bytes) == "0000C03F");
  const Literal blob = decoded(false, "i32", {1 << 20}, "dense<\"0x07000000\">");
  CHECK(blob.splat);
  CHECK(hex_of(blob.bytes) == "07000000");
  // One element for one-element tensors is the tensor itself, not a splat.
  CHECK_FALSE(decoded(false, "f32", {1, 1}, "dense<1.5>").splat);
  CHECK_FALSE(decoded(false, "f32", {1}, "dense<\"0x0000C03F\">").splat);
}

TEST_CASE("a literal's elements() is the product of its dims, 1 for a scalar", "[hlo][literal]") {
  Literal lit;
  CHECK(lit.elements() == 1);
  lit.dims = {2, 3, 4};
  CHECK(lit.elements() == 24);
  lit.dims = {0, 5};
  CHECK(lit.elements() == 0);
  lit.dims = {INT64_MAX, 2};
  CHECK(lit.elements() == INT64_MAX);  // saturates instead of wrapping
  lit.dims = {-1, 3};
  CHECK(lit.elements() == -1);  // a dynamic size: unknown
}

TEST_CASE(
    "every malformed literal gets an error naming the rule and the value, at the offending token",
    "[hlo][literal]") {
  // dialect (true: HLO), type, dims, text, a fragment of the message, the error offset.
  using Row = std::tuple<bool, std::string, Dims, std::string, std::string, std::size_t>;
  auto [hlo, type, dims, text, fragment,
        offset] = GENERATE(table<bool, std::string, Dims, std::string, std::string, std::size_t>({
      // Integers out of range.
      Row{false,
          "i8",
          {},
          "dense<-129>",
          "i8 element out of range — expected an integer from -128 to 127, got -129",
          6},
      Row{false,
          "ui8",
          {},
          "dense<-1>",
          "ui8 element out of range — expected an integer from 0 to 255, got -1",
          6},
      Row{false, "i32", {2}, "dense<[1, 2147483648]>", "got 2147483648", 10},
      Row{false,
          "ui64",
          {},
          "dense<18446744073709551616>",
          "from 0 to 18446744073709551615, got 18446744073709551616",
          6},
      Row{true,
          "s8",
          {},
          "128",
          "s8 element out of range — expected an integer from -128 to 127, got 128",
          0},
      Row{true, "u16", {2}, "{1, -1}", "u16 element out of range", 4},
      Row{false,
          "i8",
          {},
          "dense<0x100>",
          "i8 bit pattern — expected at most 8 bits, got \"0x100\"",
          6},
      Row{false,
          "i1",
          {},
          "dense<2>",
          "i1 element out of range — expected true, false, 0 or 1, got 2",
          6},
      // A float where an integer belongs, booleans where they do not.
      Row{false,
          "i32",
          {},
          "dense<1.0>",
          "i32 element — expected an integer, not a float, got \"1.0\"",
          6},
      Row{true, "s64", {2}, "{1, 1e3}", "expected an integer, not a float, got \"1e3\"", 4},
      Row{false,
          "i32",
          {},
          "dense<true>",
          "i32 element — expected an integer (true and false are for i1), got true",
          6},
      Row{false,
          "f32",
          {},
          "dense<false>",
          "f32 element — expected a number (true and false are for i1)",
          6},
      // Nesting that does not match the dims.
      Row{false,
          "f32",
          {2, 2},
          "dense<[[1, 2], [3]]>",
          "list at depth 2 has 1 item — expected 2 (dimension 1 of tensor<2x2xf32>), got 1",
          17},
      Row{false,
          "f32",
          {2, 2},
          "dense<[1, 2, 3, 4]>",
          "nesting — expected '[' opening dimension 1 of tensor<2x2xf32>, got \"1\"",
          7},
      Row{false,
          "f32",
          {1, 1},
          "dense<[[[1]]]>",
          "element — expected a single value (this nesting level is the tensor's last), got a "
          "nested list",
          8},
      Row{false,
          "f32",
          {},
          "dense<[1]>",
          "for tensor<f32> — expected a single value (the tensor is a scalar), got a list",
          6},
      Row{true,
          "s32",
          {2, 2},
          "{ {1, 2}, {3, 4}, {5, 6} }",
          "list has more than 2 items — expected 2 (dimension 0 of s32[2,2])",
          18},
      Row{true,
          "s32",
          {2, 2},
          "{1, 2, 3, 4}",
          "expected '{' opening dimension 1 of s32[2,2], got \"1\"",
          1},
      // Wrong element counts.
      Row{false,
          "f32",
          {4},
          "dense<[1, 2, 3]>",
          "dense literal has 3 elements — expected 4 for tensor<4xf32>, got 3",
          14},
      Row{false,
          "f32",
          {2},
          "dense<[1, 2, 3]>",
          "has more than 2 elements — expected 2 for tensor<2xf32>, got another at \"3\"",
          13},
      Row{false,
          "f32",
          {3},
          "dense<>",
          "dense literal is empty — expected 3 elements for tensor<3xf32>, got dense<>",
          6},
      Row{true, "f32", {3}, "{}", "HLO literal has 0 elements — expected 3 for f32[3], got 0", 1},
      // Hex blobs of the wrong length or with a bad digit.
      Row{false,
          "f32",
          {2},
          "dense<\"0x0000803F0000004\">",
          "expected an even number of hex digits (two per byte), got 15 digits",
          9},
      Row{false,
          "f32",
          {4},
          "dense<\"0x0000803F00000040\">",
          "hex string has 8 bytes — expected 4 x 4 bytes for tensor<4xf32>, or 4 (a splat), got 8",
          6},
      Row{false, "f32", {1}, "dense<\"0x0000G03F\">", "expected hex digits 0-9 A-F, got \"G\"", 13},
      Row{false, "f32", {1}, "dense<\"0000803F\">", "expected \"0x\" followed by hex digits", 7},
      Row{false, "f32", {1}, "dense<\"0x0000803F>", "expected a closing '\"'", 6},
      Row{false,
          "i1",
          {3},
          "dense<\"0x010200\">",
          "i1 byte 1 — expected 0x00 or 0x01, got 0x02",
          11},
      Row{false,
          "i1",
          {30},
          "dense<\"0x010203\">",
          "hex string has 3 bytes — expected 30 (one per i1 of tensor<30xi1>), 1 (a splat) or 4",
          6},
      Row{false,
          "i4",
          {2},
          "dense<\"0x0F1F\">",
          "i4 byte 1 — expected a value in the low 4 bits, got 0x1F",
          11},
      // Unknown spellings.
      Row{false,
          "f32",
          {},
          "dense<abc>",
          "f32 element — expected a number, inf or nan, got \"abc\"",
          6},
      Row{false, "f32", {2}, "dense<[1, +1]>", "expected a number, inf or nan, got \"+1\"", 10},
      Row{false, "f32", {}, "dense<1..2>", "got \"1..2\"", 6},
      Row{false,
          "i32",
          {},
          "dense<0x>",
          "hex bit pattern — expected hex digits after 0x, got \"0x\"",
          6},
      Row{false, "f32", {}, "dense<-0x7FC00000>", "expected a hex bit pattern without a sign", 6},
      Row{false, "f32", {2}, "dense<[1; 2]>", "list — expected ',' or ']', got \";\"", 8},
      Row{false,
          "f32",
          {2},
          "dense<[1, ]>",
          "element — expected a number, true, false, inf or nan, got \"]\"",
          10},
      Row{true, "f32", {}, "Infinity", "expected a number, inf or nan, got \"Infinity\"", 0},
      Row{true, "f32", {}, "nan(0x0)", "NaN payload — expected a non-zero payload", 0},
      // Floats out of range, and values a format cannot hold.
      Row{false,
          "f16",
          {},
          "dense<65520>",
          "f16 element out of range — expected a magnitude that rounds to at most 65504 (the "
          "largest finite f16), got \"65520\"",
          6},
      Row{true,
          "f32",
          {},
          "1e39",
          "expected a magnitude that rounds to at most 3.4028234663852886e38 (the largest finite "
          "f32)",
          0},
      Row{true,
          "f64",
          {},
          "1e400",
          "f64 element out of range — expected a value that rounds to a finite f64, got \"1e400\"",
          0},
      Row{true, "f8e4m3fn", {}, "500", "at most 448 (the largest finite f8e4m3fn)", 0},
      Row{true,
          "f8e4m3fn",
          {},
          "inf",
          "expected a finite value (f8e4m3fn has no infinity), got \"inf\"",
          0},
      Row{true, "f4e2m1fn", {}, "nan", "expected a finite value (f4e2m1fn has no NaN)", 0},
      Row{true,
          "f8e8m0fnu",
          {},
          "0",
          "expected a positive value (f8e8m0fnu holds powers of two)",
          0},
      Row{true,
          "f8e8m0fnu",
          {},
          "1e-40",
          "out of range — expected a value from 2^-127 to 2^127",
          0},
      Row{false,
          "bf16",
          {},
          "dense<0x10000>",
          "bf16 bit pattern — expected at most 16 bits, got \"0x10000\"",
          6},
      // Complex values need (re, im).
      Row{false,
          "complex<f32>",
          {},
          "dense<1.5>",
          "complex<f32> element — expected a pair (re, im), got \"1.5\"",
          6},
      Row{false,
          "complex<f32>",
          {},
          "dense<(1.5 2.5)>",
          "expected ',' between re and im, got \"2.5\"",
          11},
      Row{true, "c64", {}, "(1, 2", "expected ')' after im, got the end of the text", 5},
      // The frame around the value.
      Row{true,
          "f32",
          {20, 200},
          "{...}",
          "HLO literal is elided — expected the values (print the module with "
          "print_large_constants), got {...}",
          0},
      Row{true,
          "f32",
          {4},
          "1",
          "HLO literal for f32[4] — expected '{' opening a list of 4 items, got \"1\"",
          0},
      Row{true,
          "f32",
          {},
          "{1}",
          "HLO literal for f32[] — expected a single value (the tensor is a scalar), got a list",
          0},
      Row{true, "f32", {}, "1 2", "HLO literal — expected the end of the literal, got \"2\"", 2},
      Row{true,
          "s32",
          {1},
          "{1} /* open",
          "comment — expected a closing */, got the end of the text",
          4},
      Row{false,
          "f32",
          {},
          "dense_resource<blob>",
          "dense literal — expected dense<...>, got \"dense_resource\"",
          0},
      Row{false, "f32", {}, "dense<1.5", "expected '>' closing dense<, got the end of the text", 9},
      Row{false, "f32", {}, "dense<1.5> x", "expected the end, or ': tensor<...>', got \"x\"", 11},
      Row{false,
          "f32",
          {-1},
          "dense<1.5>",
          "dimension 0 — expected a static size (a constant has a fixed shape), got -1",
          0},
  }));
  const std::string t = type;
  std::size_t got_offset = 12345;
  auto r = hlo ? decode_hlo_literal(text, type_named(t), dims, &got_offset)
               : decode_dense(text, type_named(t), dims, &got_offset);
  INFO(text << " as " << t << (r.ok() ? std::string(" → accepted") : " → " + r.error()));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find(fragment) != std::string::npos);
  CHECK(got_offset == offset);
}

TEST_CASE("a literal of an element type the decoder cannot hold is refused", "[hlo][literal]") {
  std::size_t offset = 99;
  auto invalid = decode_dense("dense<1>", ElementType::Invalid, {}, &offset);
  REQUIRE_FALSE(invalid.ok());
  CHECK(invalid.error() ==
        "dense literal element type — expected an integer, boolean, float or complex type, got an "
        "invalid element type");
  CHECK(offset == 0);
  auto quant =
      decode_dense("dense<1>", ElementType::Quant, {}, nullptr);  // a null offset is allowed
  REQUIRE_FALSE(quant.ok());
  CHECK(quant.error().find("got a quantized type (decode its storage type)") != std::string::npos);
  auto rank = decode_dense("dense<1>", ElementType::F32, Dims(257, 1), &offset);
  REQUIRE_FALSE(rank.ok());
  CHECK(rank.error() == "dense literal rank — expected at most 256 dimensions, got 257");
  auto huge = decode_dense("dense<1>", ElementType::F32, {INT64_MAX, 2}, &offset);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().find("expected at most 2^63 - 1 elements") != std::string::npos);
}

TEST_CASE("deep, unbalanced and random literal text gives a value or an error, never a crash",
          "[hlo][literal]") {
  // 100000 opening brackets against the deepest rank allowed: refused at depth 257.
  const std::string deep = "dense<" + std::string(100000, '[') + ">";
  std::size_t offset = 0;
  auto r = decode_dense(deep, ElementType::F32, Dims(256, 1), &offset);
  REQUIRE_FALSE(r.ok());
  CHECK(offset == 6 + 256);
  CHECK(r.error().find("got a nested list") != std::string::npos);
  auto h = decode_hlo_literal(std::string(100000, '{'), ElementType::F32, Dims(256, 1), &offset);
  REQUIRE_FALSE(h.ok());
  CHECK(offset == 256);
  // Random strings over the literal alphabet (fixed seed): any outcome but a crash, and an
  // error's offset lies inside the text.
  const std::string alphabet = "[]{}(),.-+0123456789eExXaAfFnitru\" :/*<>";
  std::mt19937 rng(7);
  int errors = 0, values = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = (i % 2 ? "dense<" : "");
    const int length = static_cast<int>(rng() % 40);
    for (int k = 0; k < length; ++k) text += alphabet[rng() % alphabet.size()];
    const Dims dims = i % 3 == 0 ? Dims{} : i % 3 == 1 ? Dims{2} : Dims{2, 1};
    for (ElementType t : {ElementType::F32, ElementType::S8, ElementType::Pred, ElementType::C64,
                          ElementType::F16}) {
      auto a =
          i % 2 ? decode_dense(text, t, dims, &offset) : decode_hlo_literal(text, t, dims, &offset);
      if (a.ok()) {
        ++values;
      } else {
        ++errors;
        CHECK(offset <= text.size());
        CHECK(a.error().find(" — expected ") != std::string::npos);
      }
    }
  }
  CHECK(errors > 0);
  CHECK(errors + values == 15000);
}

TEST_CASE("a million-element literal list decodes to its values", "[hlo][literal]") {
  // 1000 rows of 1000: element (r, c) is (1000·r + c) mod 1000 − 500 = c − 500.
  std::string text = "dense<[";
  for (int r = 0; r < 1000; ++r) {
    text += r ? ", [" : "[";
    for (int c = 0; c < 1000; ++c) text += (c ? ", " : "") + std::to_string(c - 500);
    text += "]";
  }
  text += "]>";
  const Literal lit = decoded(false, "i16", {1000, 1000}, text);
  REQUIRE(lit.bytes.size() == 2u * 1000000);
  long long sum = 0;
  bool all_match = true;
  for (std::size_t i = 0; i < 1000000; ++i) {
    const auto v = static_cast<std::int16_t>(lit.bytes[2 * i] | (lit.bytes[2 * i + 1] << 8));
    all_match = all_match && v == static_cast<int>(i % 1000) - 500;
    sum += v;
  }
  CHECK(all_match);
  CHECK(sum == 1000LL * (499LL * 500 / 2 - 500LL * 501 / 2));  // each row: sum of -500..499 = -500
}

TEST_CASE(
    "format_element writes a literal element as the shortest text that reads back, ints in "
    "decimal, complex as (re, im)",
    "[hlo][literal]") {
  using Row = std::tuple<std::string, std::string, std::string>;  // type, storage bytes, text
  auto [type, bytes, text] = GENERATE(table<std::string, std::string, std::string>({
      Row{"f32", "CDCCCC3D", "0.1"},           // 0x3DCCCCCD
      Row{"f32", "FFFF7F7F", "3.4028235e38"},  // FLT_MAX: 8 digits in the shorter notation
      Row{"f32", "01000000", "1e-45"},         // 2^-149 = 1.4e-45 read back needs only 1e-45
      Row{"f32", "00002041", "10"},            // plain beats 1e1 on a tie of length
      Row{"f32", "00000080", "-0"},
      Row{"f32", "0000C07F", "nan"},
      Row{"f32", "0000C0FF", "-nan"},
      Row{"f32", "0100C07F", "0x7FC00001"},  // any other NaN as its bit pattern
      Row{"f32", "0000807F", "inf"},
      Row{"f32", "000080FF", "-inf"},
      Row{"f64", "9A9999999999B93F", "0.1"},
      Row{"f64", "0100000000000000", "5e-324"},
      Row{"f16", "FF7B", "65500"},   // 65504: 65500 is the shortest decimal that rounds to it
      Row{"f16", "5535", "0.3333"},  // 0x3555 = 0.333251953125
      Row{"f16", "0100", "6e-8"},    // 2^-24
      Row{"f16", "007E", "nan"},
      Row{"bf16", "803F", "1"},
      Row{"bf16", "CD3D", "0.1"},  // 0x3DCD = 0.10009765625
      Row{"i8", "80", "-128"},
      Row{"ui64", "FFFFFFFFFFFFFFFF", "18446744073709551615"},
      Row{"i64", "0000000000000080", "-9223372036854775808"},
      Row{"i1", "01", "true"},
      Row{"i1", "00", "false"},
      Row{"i4", "0F", "-1"},
      Row{"ui4", "0F", "15"},
      Row{"complex<f32>", "0000803F000020C0", "(1, -2.5)"},
      Row{"complex<f64>", "000000000000F03F000000000000F0FF",
          "(1, -inf)"},              // 16 bytes: read as two halves
      Row{"f8e4m3fn", "7E", "450"},  // 448: its neighbours are 416 and NaN, so 450 reads back
      Row{"f8e4m3fn", "7F", "nan"},
      Row{"f8e4m3fnuz", "80", "nan"},
      Row{"f4e2m1fn", "0F", "-6"},
      Row{"f8e8m0fnu", "00", "6e-39"},  // 2^-127 = 5.877e-39; 6e-39 is nearer it than 2^-126
  }));
  std::vector<std::uint8_t> storage;
  for (std::size_t i = 0; i < bytes.size(); i += 2)
    storage.push_back(static_cast<std::uint8_t>(std::stoi(bytes.substr(i, 2), nullptr, 16)));
  CHECK(format_element(type_named(type), storage.data()) == text);
}

TEST_CASE("a literal element formatted then decoded gives back the same bits for every type",
          "[hlo][literal]") {
  const ElementType types[] = {
      ElementType::Pred,       ElementType::S2,         ElementType::S4,
      ElementType::S8,         ElementType::S16,        ElementType::S32,
      ElementType::S64,        ElementType::U2,         ElementType::U4,
      ElementType::U8,         ElementType::U16,        ElementType::U32,
      ElementType::U64,        ElementType::F16,        ElementType::BF16,
      ElementType::F32,        ElementType::F64,        ElementType::C64,
      ElementType::C128,       ElementType::F8E4M3FN,   ElementType::F8E5M2,
      ElementType::F8E4M3FNUZ, ElementType::F8E5M2FNUZ, ElementType::F8E4M3B11FNUZ,
      ElementType::F8E4M3,     ElementType::F8E3M4,     ElementType::F8E8M0FNU,
      ElementType::F4E2M1FN,   ElementType::F6E2M3FN,   ElementType::F6E3M2FN,
      ElementType::Index};
  std::mt19937_64 rng(1234);
  for (ElementType t : types) {
    const ElementInfo& info = element_info(t);
    INFO(info.mlir);
    // Every pattern of the 8-bit types and of f16 and bf16; 20000 random ones of the others.
    const bool exhaustive = info.bits <= 8 || t == ElementType::F16 || t == ElementType::BF16;
    const std::uint64_t patterns = exhaustive ? (std::uint64_t{1} << info.bits) : 20000;
    const std::uint64_t mask =
        info.bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << info.bits) - 1;
    int same = 0;
    for (std::uint64_t i = 0; i < patterns; ++i) {
      std::vector<std::uint8_t> element(static_cast<std::size_t>(info.bytes));
      if (t == ElementType::C64 || t == ElementType::C128) {
        for (auto& b : element) b = static_cast<std::uint8_t>(rng());
      } else {
        const std::uint64_t bits = (exhaustive ? i : rng()) & mask;
        for (std::size_t k = 0; k < element.size(); ++k)
          element[k] = static_cast<std::uint8_t>(bits >> (8 * k));
      }
      const std::string text = format_element(t, element.data());
      std::size_t offset;
      auto dense = decode_dense("dense<" + text + ">", t, {}, &offset);
      auto hlo = decode_hlo_literal(text, t, {}, &offset);
      if (dense.ok() && hlo.ok() && dense->bytes == element && hlo->bytes == element) {
        ++same;
      } else {
        FAIL_CHECK(info.mlir << " " << hex_of(element) << " → \"" << text << "\" → "
                             << (dense.ok() ? hex_of(dense->bytes) : dense.error()) << " / "
                             << (hlo.ok() ? hex_of(hlo->bytes) : hlo.error()));
        if (i > 20) break;
      }
    }
    CHECK(same == static_cast<int>(patterns));
  }
}

// ---- the corpus ---------------------------------------------------------------------------------

namespace {

// Index one past the '>' closing the '<' at `open` (quoted text skipped); npos if unbalanced.
std::size_t angle_close(const std::string& s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == '"') {
      i = s.find('"', i + 1);
      if (i == std::string::npos) return i;
    } else if (s[i] == '<') {
      ++depth;
    } else if (s[i] == '>' && --depth == 0) {
      return i + 1;
    }
  }
  return std::string::npos;
}

// "2x3xf32" → dims {2, 3}, element "f32"; "f32" → {}, "f32".
bool split_tensor(const std::string& inner, Dims* dims, std::string* element) {
  std::size_t i = 0;
  dims->clear();
  while (true) {
    std::size_t j = i;
    while (j < inner.size() && inner[j] >= '0' && inner[j] <= '9') ++j;
    if (j == i || j >= inner.size() || inner[j] != 'x') break;
    dims->push_back(std::stoll(inner.substr(i, j - i)));
    i = j + 1;
  }
  *element = inner.substr(i);
  return !element->empty();
}

// "f32[2,3]{1,0}" → "f32", {2, 3}; false for anything else (tuples, dynamic sizes).
bool split_hlo_shape(const std::string& shape, std::string* element, Dims* dims) {
  const std::size_t open = shape.find('['), close = shape.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  *element = shape.substr(0, open);
  dims->clear();
  std::string item;
  for (std::size_t i = open + 1; i <= close; ++i) {
    if (i == close || shape[i] == ',') {
      if (!item.empty()) {
        if (item.find_first_not_of("0123456789") != std::string::npos) return false;
        dims->push_back(std::stoll(item));
      }
      item.clear();
    } else {
      item += shape[i];
    }
  }
  return true;
}

}  // namespace

TEST_CASE(
    "every constant literal of the StableHLO and HLO corpus decodes, elided HLO literals apart",
    "[hlo][literal][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo");
  SKIP_WITHOUT_CORPUS("stablehlo-interpret");
  SKIP_WITHOUT_CORPUS("hlo");
  const std::string root = rl::testing::corpus_dir();
  int files = 0, decoded_mlir = 0, hex = 0, lists = 0, singles = 0, splats = 0;
  std::int64_t elements = 0;
  std::vector<std::string> failures;
  for (const char* folder : {"stablehlo", "stablehlo-interpret"}) {
    for (const auto& name : rl::testing::list_files(root + "/" + folder, ".mlir")) {
      const std::string text = rl::testing::read_file(root + "/" + folder + "/" + name);
      ++files;
      const std::string key = "stablehlo.constant dense<";
      for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        const std::size_t start = at + key.size() - 6;  // at "dense<"
        const std::size_t end = angle_close(text, start + 5);
        const std::string where = std::string(folder) + "/" + name + " @" + std::to_string(start);
        if (end == std::string::npos || text.compare(end, 10, " : tensor<") != 0) {
          failures.push_back(where + ": no ': tensor<...>' after the value");
          continue;
        }
        const std::size_t type_end = angle_close(text, end + 9);
        Dims dims;
        std::string element;
        if (type_end == std::string::npos ||
            !split_tensor(text.substr(end + 10, type_end - end - 11), &dims, &element)) {
          failures.push_back(where + ": unreadable type");
          continue;
        }
        const std::string value = text.substr(start, end - start);
        std::size_t offset = 0;
        auto r = decode_dense(value, element_type_from_name(element), dims, &offset);
        if (!r.ok()) {
          failures.push_back(where + " (" + element + "): " + r.error() + " at " +
                             std::to_string(offset) + " in " + value.substr(0, 120));
          continue;
        }
        ++decoded_mlir;
        elements += r->elements();
        splats += r->splat;
        if (value[6] == '"')
          ++hex;
        else if (value[6] == '[')
          ++lists;
        else
          ++singles;
      }
    }
  }
  int decoded_hlo = 0, elided = 0, hlo_files = 0, not_arrays = 0;
  for (const auto& name : rl::testing::list_files(root + "/hlo", ".hlo")) {
    const std::string text = rl::testing::read_file(root + "/hlo/" + name);
    ++hlo_files;
    const std::string key = " constant(";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      std::size_t shape_start = at;
      while (shape_start > 0 && text[shape_start - 1] != ' ' && text[shape_start - 1] != '\n')
        --shape_start;
      std::string element;
      Dims dims;
      if (!split_hlo_shape(text.substr(shape_start, at - shape_start), &element, &dims)) {
        ++not_arrays;
        continue;
      }
      const std::size_t open = at + key.size();
      int depth = 1;
      std::size_t close = open;
      for (; close < text.size() && depth > 0; ++close)
        depth += text[close] == '(' ? 1 : text[close] == ')' ? -1 : 0;
      const std::string literal = text.substr(open, close - 1 - open);
      const std::string where = "hlo/" + name + " @" + std::to_string(open);
      std::size_t offset = 0;
      auto r = decode_hlo_literal(literal, element_type_from_name(element), dims, &offset);
      if (literal.find("...") != std::string::npos) {
        // Elided values: counted apart, and the decoder must say that is why it refuses them.
        ++elided;
        if (r.ok() || r.error().find("elided") == std::string::npos)
          failures.push_back(where + ": elided literal not refused as elided");
        continue;
      }
      if (!r.ok()) {
        failures.push_back(where + " (" + element + "): " + r.error() + " at " +
                           std::to_string(offset) + " in " + literal.substr(0, 120));
        continue;
      }
      ++decoded_hlo;
      elements += r->elements();
    }
  }
  std::string shown;
  for (std::size_t i = 0; i < failures.size() && i < 20; ++i) shown += failures[i] + "\n";
  INFO(failures.size() << " failures:\n" << shown);
  CHECK(failures.empty());
  CHECK(files >= 1000);
  CHECK(decoded_mlir >= 4000);
  CHECK(hlo_files >= 60);
  CHECK(decoded_hlo >= 800);
  CHECK(not_arrays == 0);
  WARN("literal corpus sweep: StableHLO "
       << decoded_mlir << " constants decoded in " << files << " files (" << hex << " hex blobs, "
       << lists << " lists, " << singles << " single values, " << splats << " splats); HLO "
       << decoded_hlo << " decoded, " << elided << " elided (refused as elided) in " << hlo_files
       << " files; " << elements << " elements; " << failures.size() << " failed");
}
