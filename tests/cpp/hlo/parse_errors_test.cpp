// Bad text in both front doors: a clean error at the right place, never a throw or an abort.
// Each case names the input, the rule and the value, with line:column.
#include <string>
#include <vector>

#include "catch.hpp"
#include "hlo/cost.h"
#include "hlo/lexer.h"
#include "hlo/lower.h"
#include "hlo/parse.h"

using namespace rl::hlo;
using rl::Result;

namespace {

// Every kind of token the lexer makes (and a few numbers of each shape), to put where a number
// is expected.
const std::vector<std::string>& tokens() {
  static const std::vector<std::string> all = {"",
                                               "0",
                                               "1",
                                               "2",
                                               "-1",
                                               "+1",
                                               "-0",
                                               "1.5",
                                               ".5",
                                               "1e3",
                                               "1E+2",
                                               "0x10",
                                               "0X1f",
                                               "00",
                                               "007",
                                               "4097",
                                               "65536",
                                               "2147483647",
                                               "2147483648",
                                               "4294967296",
                                               "9223372036854775807",
                                               "9223372036854775808",
                                               "99999999999999999999999999999999",
                                               "1125899906842624",
                                               "1125899906842625",
                                               "-9223372036854775809",
                                               "abc",
                                               "x",
                                               "%x",
                                               "%0#1",
                                               "@f",
                                               "@\"q\"",
                                               "^bb0",
                                               "#a",
                                               "!t",
                                               "\"s\"",
                                               "(",
                                               ")",
                                               "[",
                                               "]",
                                               "{",
                                               "}",
                                               "<",
                                               ">",
                                               ",",
                                               "=",
                                               ":",
                                               "->",
                                               "<=",
                                               "?",
                                               "*",
                                               "-",
                                               "&",
                                               "/* c */",
                                               "\"unterminated"};
  return all;
}

// 1-based line and column of `offset` in `text`.
std::pair<int, int> place(const std::string& text, std::size_t offset) {
  int line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      start = i + 1;
    }
  return {line, static_cast<int>(offset - start) + 1};
}

std::string replace(std::string text, const std::string& hole, const std::string& with) {
  return text.replace(text.find(hole), hole.size(), with);
}

// Parses `text` (no exception may escape) and checks the outcome: ok when `valid`, else an error
// with a place at or after `min_line`:`min_column` and the "L:C: error: " prefix of that place.
void check_parse(const std::string& text, bool valid, int min_line, int min_column) {
  INFO("text: " << text);
  Result<std::vector<Module>> r = Result<std::vector<Module>>::failure("not run");
  REQUIRE_NOTHROW(r = parse(text));
  INFO("error: " << (r.ok() ? std::string("(none)") : r.error()));
  if (valid) {
    CHECK(r.ok());
    return;
  }
  REQUIRE_FALSE(r.ok());
  const rl::Error& e = r.error_info();
  CHECK(e.line >= min_line);
  if (e.line == min_line) CHECK(e.column >= min_column);
  CHECK(r.error().rfind(std::to_string(e.line) + ":" + std::to_string(e.column) + ": error: ", 0) ==
        0);
}

}  // namespace

TEST_CASE("every token where StableHLO expects a result count gives a clean error naming the rule",
          "[hlo][parse]") {
  const std::string tmpl =
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0:$N$ = stablehlo.abs %a : tensor<2xf32>\n"
      "  return %0#0 : tensor<2xf32>\n"
      "}\n";
  for (const std::string& tok : tokens())
    check_parse(replace(tmpl, "$N$", tok), tok == "1" || tok == "2" || tok == "007", 2, 6);
  // The rule and the value, at the count's place.
  for (const std::string& n :
       {std::string("0"), std::string("4097"), std::string("99999999999999999999999"),
        std::string(".5"), std::string("1e3"), std::string("0x10"), std::string("-1")}) {
    auto r = parse_stablehlo(replace(tmpl, "$N$", n));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() ==
          "2:6: error: a result count must be an integer from 1 to 4096 \xE2\x80\x94 expected a "
          "count "
          "such as 2 after '%0:', got '" +
              n + "'");
  }
}

TEST_CASE(
    "every token where StableHLO expects a tensor dimension or a result index gives a clean error",
    "[hlo][parse]") {
  const std::string dim = "func.func @f(%a: tensor<$N$x2xf32>) {\n  return\n}\n";
  for (const std::string& tok : tokens()) {
    const bool valid = tok == "0" || tok == "1" || tok == "2" || tok == "00" || tok == "007" ||
                       tok == "4097" || tok == "65536" || tok == "2147483647" ||
                       tok == "2147483648" || tok == "4294967296" || tok == "1125899906842624" ||
                       tok == "?" || tok == "0x10" ||  // 0x10: dimensions 0 and 10
                       tok == "!t";                    // a dialect's element type
    INFO("token: " << tok);
    check_parse(replace(dim, "$N$", tok), valid, 1, 25);
  }
  for (const std::string& n : {std::string("1125899906842625"), std::string("9223372036854775808"),
                               std::string("99999999999999999999999999999999")}) {
    auto r = parse_stablehlo(replace(dim, "$N$", n));
    REQUIRE_FALSE(r.ok());
    CHECK(
        r.error() ==
        "1:25: error: a tensor dimension must be an integer from 0 to 2^50 \xE2\x80\x94 expected a "
        "size such as 8 or ?, got '" +
            n + "'");
  }
  const std::string index =
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0:2 = stablehlo.abs %a : tensor<2xf32>\n"
      "  return %0#$N$ : tensor<2xf32>\n"
      "}\n";
  for (const std::string& n :
       {std::string("0"), std::string("1"), std::string("2"), std::string("4294967296"),
        std::string("99999999999999999999999999999999")}) {
    INFO("index: " << n);
    check_parse(replace(index, "$N$", n), n == "0" || n == "1", 3, 3);
  }
}

TEST_CASE(
    "every token where HLO text expects a shape dimension or a parameter number gives a clean "
    "error",
    "[hlo][parse]") {
  const std::string dim = "HloModule m\n\nENTRY main {\n  ROOT p = f32[$N$] parameter(0)\n}\n";
  for (const std::string& tok : tokens()) {
    const bool valid = tok == "0" || tok == "1" || tok == "2" || tok == "00" || tok == "007" ||
                       tok == "4097" || tok == "65536" || tok == "2147483647" ||
                       tok == "2147483648" || tok == "4294967296" || tok == "1125899906842624" ||
                       tok == "?" || tok == "" || tok == "<=";
    INFO("token: " << tok);
    if (tok == "<=") continue;  // `f32[<=]`: a bound without its number, checked below
    check_parse(replace(dim, "$N$", tok), valid, 4, 16);
  }
  check_parse(replace(dim, "$N$", "<=4"), true, 4, 16);
  for (const std::string& tok : tokens()) {  // a bound's number
    const bool valid = tok == "0" || tok == "1" || tok == "2" || tok == "00" || tok == "007" ||
                       tok == "4097" || tok == "65536" || tok == "2147483647" ||
                       tok == "2147483648" || tok == "4294967296" || tok == "1125899906842624";
    INFO("bound: " << tok);
    check_parse(replace(dim, "$N$", "<=" + tok), valid, 4, 16);
  }
  for (const std::string& n :
       {std::string("1125899906842625"), std::string("99999999999999999999999999999999")}) {
    auto r = parse_hlo(replace(dim, "$N$", n));
    REQUIRE_FALSE(r.ok());
    CHECK(
        r.error() ==
        "4:16: error: a shape dimension must be an integer from 0 to 2^50 \xE2\x80\x94 expected a "
        "size such as 8, <=8 or ?, got '" +
            n + "'");
  }
  const std::string param = "HloModule m\n\nENTRY main {\n  ROOT p = f32[2] parameter($N$)\n}\n";
  for (const std::string& tok : tokens()) {
    const bool valid = tok == "0" || tok == "1" || tok == "2" || tok == "00" || tok == "007" ||
                       tok == "4097" || tok == "65536" || tok == "2147483647";
    INFO("token: " << tok);
    check_parse(replace(param, "$N$", tok), valid, 4, 29);
  }
  for (const std::string& n :
       {std::string("2147483648"), std::string("99999999999999999999"), std::string("-1"),
        std::string("1e3"), std::string("0x1"), std::string("12abc")}) {
    auto r = parse_hlo(replace(param, "$N$", n));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() ==
          "4:29: error: a parameter number must be an integer from 0 to 2147483647 \xE2\x80\x94 "
          "expected a number such as parameter(0), got '" +
              n + "'");
  }
}

TEST_CASE(
    "every token where a constant expects a number gives a program or a clean error, never a throw",
    "[hlo][parse]") {
  const std::string mlir =
      "func.func @f() -> tensor<i32> {\n  %c = stablehlo.constant dense<$N$> : tensor<i32>\n  "
      "return %c : tensor<i32>\n}\n";
  const std::string hlo = "HloModule m\n\nENTRY main {\n  ROOT c = s32[] constant($N$)\n}\n";
  for (const std::string& tmpl : {mlir, hlo})
    for (const std::string& tok : tokens()) {
      const std::string text = replace(tmpl, "$N$", tok);
      INFO("text: " << text);
      // The literal is decoded when the module is lowered (to run it).
      bool decoded = false;
      REQUIRE_NOTHROW([&] {
        auto m = parse(text);
        if (!m.ok()) return;
        REQUIRE(m->size() == 1);
        auto p = lower(m->front());
        INFO((p.ok() ? std::string() : p.error()));
        if (!p.ok()) CHECK(p.error_info().line > 0);
        decoded = p.ok();
      }());
      const bool fits =
          tok == "0" || tok == "1" || tok == "2" || tok == "-1" || tok == "2147483647";
      if (fits) CHECK(decoded);
      if (tok == "2147483648" || tok == "99999999999999999999999999999999" || tok == "abc" ||
          tok == "%x")
        CHECK_FALSE(decoded);
    }
}

TEST_CASE("every token in a dimensions attribute gives an analysis or a clean error, never a throw",
          "[hlo][parse]") {
  const std::string mlir =
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.transpose %a, dims = "
      "[$N$] : (tensor<2xf32>) -> "
      "tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
  const std::string hlo =
      "HloModule m\n\nENTRY main {\n  p = f32[2] parameter(0)\n  ROOT t = f32[2] transpose(p), "
      "dimensions={$N$}\n}\n";
  for (const std::string& tmpl : {mlir, hlo})
    for (const std::string& tok : tokens()) {
      const std::string text = replace(tmpl, "$N$", tok);
      INFO("text: " << text);
      Result<std::vector<Analysis>> r = Result<std::vector<Analysis>>::failure("not run");
      REQUIRE_NOTHROW(r = analyze(text));
      if (tok == "0") CHECK(r.ok());
      if (tok == "1" || tok == "4097" || tok == "9223372036854775807" ||
          tok == "99999999999999999999999999999999" || tok == "-1" || tok == "" || tok == "abc")
        CHECK_FALSE(r.ok());
      if (!r.ok()) CHECK(r.error_info().line > 0);
    }
}

TEST_CASE(
    "control characters outside strings are an error at their line and column, in both dialects",
    "[hlo][parse]") {
  // The fuzzer's case: `%b\x1b\x00` was read as `%b` before.
  std::string mlir =
      "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
      "  %0 = stablehlo.compare GT, %a, %bCC, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> "
      "tensor<2xi1>\n"
      "  return %0 : tensor<2xi1>\n"
      "}\n";
  std::string hlo =
      "HloModule m\n\nENTRY main {\n  p = f32[2] parameter(0)\n  q = f32[2] parameter(1)\n"
      "  ROOT a = f32[2] add(pCC, q)\n}\n";
  for (const std::string& tmpl : {mlir, hlo}) {
    REQUIRE(parse(replace(tmpl, "CC", "")).ok());
    for (int byte = 0; byte < 128; ++byte) {
      const bool control =
          (byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7F;
      if (!control) continue;
      for (const std::string& tail : {std::string(1, static_cast<char>(byte)),
                                      std::string(1, static_cast<char>(byte)) + '\0' + "5"}) {
        const std::string text = replace(tmpl, "CC", tail);
        const auto [line, column] = place(text, tmpl.find("CC"));
        INFO("byte " << byte);
        Result<std::vector<Module>> r = Result<std::vector<Module>>::failure("not run");
        REQUIRE_NOTHROW(r = parse(text));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error_info().line == line);
        CHECK(r.error_info().column == column);
        const char* hex = "0123456789ABCDEF";
        const std::string b = std::string("0x") + hex[byte >> 4] + hex[byte & 15];
        CHECK(
            r.error() ==
            std::to_string(line) + ":" + std::to_string(column) + ": error: control character " +
                b + " at line " + std::to_string(line) + ", column " + std::to_string(column) +
                " is not allowed outside a string \xE2\x80\x94 expected text, tabs and line breaks "
                "(control characters only inside \"...\"), got byte " +
                b);
      }
    }
  }
  // ESC then NUL: the first one is reported.
  const std::string esc_nul = replace(mlir, "CC", std::string("\x1b\0", 2) + "5");
  auto r = parse_stablehlo(esc_nul);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().substr(0, 56) == "2:36: error: control character 0x1B at line 2, column 36");
  // Inside a string it is text; in a comment it is not; a tab is space.
  CHECK(parse_stablehlo(replace(mlir, "CC", " {note = \"a\x1b\x7f" + std::string(1, '\0') + "b\"}"))
            .ok());
  CHECK(parse_hlo(
            replace(replace(hlo, "CC", ""), "q)\n}", "q), metadata={op_name=\"a\x1b\x01b\"}\n}"))
            .ok());
  auto in_comment = parse_stablehlo("// a comment with \x1b in it\n" + replace(mlir, "CC", ""));
  REQUIRE_FALSE(in_comment.ok());
  CHECK(in_comment.error_info().line == 1);
  CHECK(in_comment.error_info().column == 19);
  CHECK(parse_stablehlo(replace(mlir, "CC", "\t")).ok());
  CHECK(parse_stablehlo("// a \"quote in a comment\n" + replace(mlir, "CC", "")).ok());
}

namespace {
// find_control_char's rule a byte at a time: the oracle for its word-at-a-time scan.
std::size_t control_char_bytewise(std::string_view s) {
  std::size_t p = 0;
  while (p < s.size()) {
    const char c = s[p];
    if (c == '"') {
      for (++p; p < s.size() && s[p] != '"';) p += s[p] == '\\' ? 2 : 1;
      ++p;
    } else if (c == '/' && p + 1 < s.size() && (s[p + 1] == '/' || s[p + 1] == '*')) {
      const bool line = s[p + 1] == '/';
      for (p += 2; p < s.size(); ++p) {
        if (line ? s[p] == '\n' : (s[p] == '*' && p + 1 < s.size() && s[p + 1] == '/')) break;
        if (rl::hlo::chars::control(s[p])) return p;
      }
      p += line ? 1 : 2;
    } else if (rl::hlo::chars::control(c)) {
      return p;
    } else {
      ++p;
    }
  }
  return std::string_view::npos;
}
}  // namespace

TEST_CASE(
    "the control-character scan reads eight bytes at a time and finds what a byte at a time finds",
    "[hlo][parse]") {
  // Every byte value at every offset of a word and across word ends, after plain text, in a
  // string and in a comment.
  for (int byte = 0; byte < 256; ++byte)
    for (std::size_t k = 0; k < 19; ++k)
      for (const std::string& pre : {std::string(), std::string("\"ab"), std::string("x // c"),
                                     std::string("/* c "), std::string("\ttab\r\n")}) {
        const std::string text = pre + std::string(k, 'a') + static_cast<char>(byte) +
                                 std::string(11, 'b') + "\n\"\x01\"";
        INFO("byte " << byte << " after " << k << " bytes and '" << pre << "'");
        CHECK(rl::hlo::find_control_char(text) == control_char_bytewise(text));
      }
  // Long plain runs with one control byte far in.
  std::string big(100000, 'x');
  CHECK(rl::hlo::find_control_char(big) == std::string_view::npos);
  big[77777] = '\x1b';
  CHECK(rl::hlo::find_control_char(big) == 77777);
}

TEST_CASE("a missing ')' in a call's operand list is reported where it was expected",
          "[hlo][parse]") {
  const std::string tmpl =
      "func.func private @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, "
      "tensor<2xf32>) {\n"
      "  return %a, %b : tensor<2xf32>, tensor<2xf32>\n"
      "}\n"
      "func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0:2 = CALL @f(%a, %bCLOSE : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, "
      "tensor<2xf32>)\n"
      "  return %0#1 : tensor<2xf32>\n"
      "}\n";
  for (const std::string& call : {std::string("call"), std::string("func.call")}) {
    INFO(call);
    const std::string good = replace(replace(tmpl, "CALL", call), "CLOSE", ")");
    auto ok = parse_stablehlo(good);
    INFO((ok.ok() ? std::string() : ok.error()));
    REQUIRE(ok.ok());
    const std::string bad = replace(replace(tmpl, "CALL", call), "CLOSE", "");
    auto r = parse_stablehlo(bad);
    REQUIRE_FALSE(r.ok());
    const auto [line, column] =
        place(bad, bad.find(" : (tensor") + 1);  // the ':' where ')' belongs
    CHECK(r.error_info().line == line);
    CHECK(r.error_info().column == column);
    CHECK(r.error() == std::to_string(line) + ":" + std::to_string(column) +
                           ": error: unclosed operand list of " + call +
                           " @f \xE2\x80\x94 expected ',' or ')' after %b, got ':'");
  }
  // An operand that is not a value.
  auto r = parse_stablehlo(replace(replace(tmpl, "CALL", "call"), "%bCLOSE", "%b, 3)"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error_info().line == 5);
  CHECK(r.error_info().column == 26);
}

TEST_CASE("a StableHLO op without its type is an error at the place the type belongs",
          "[hlo][parse]") {
  const std::string head =
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.abs %a : "
      "tensor<2xf32>\n";
  const std::string tail = "  return %1 : tensor<2xf32>\n}\n";
  using Row = std::tuple<std::string, std::string>;
  auto [op, message] = GENERATE(table<std::string, std::string>({
      Row{"  %1 = stablehlo.tanh %0\n",
          "3:25: error: stablehlo.tanh has no type \xE2\x80\x94 expected ':' and the type of "
          "stablehlo.tanh's result, "
          "got the end of the line"},
      Row{"  %1 = stablehlo.add %0, %0   \n",
          "3:28: error: stablehlo.add has no type \xE2\x80\x94 expected ':' and the type of "
          "stablehlo.add's result, "
          "got the end of the line"},
      Row{"  %1 = stablehlo.tanh %0 tensor<2xf32>\n",
          "3:39: error: stablehlo.tanh has no type \xE2\x80\x94 expected ':' and the type of "
          "stablehlo.tanh's result, "
          "got the end of the line"},
      Row{"  %1 = stablehlo.constant dense<1.0>\n",
          "3:37: error: stablehlo.constant has no type \xE2\x80\x94 expected ':' and the type of "
          "stablehlo.constant's "
          "result, got the end of the line"},
      Row{"  %1 = chlo.erf %0\n",
          "3:19: error: chlo.erf has no type \xE2\x80\x94 expected ':' and the type of chlo.erf's "
          "result, got the end "
          "of the line"},
      Row{"  %1:2 = stablehlo.abs %0 : (tensor<2xf32>) -> (tensor<2xf32>)\n",
          "3:27: error: stablehlo.abs has 2 results \xE2\x80\x94 expected a type for each result, "
          "got 1 type"},
      Row{"  %1 = \"stablehlo.tanh\"(%0) : (tensor<2xf32>) -> ()\n",
          "3:50: error: \"stablehlo.tanh\" has 1 result \xE2\x80\x94 expected a type for each "
          "result after '->', "
          "got 0 types"},
      // More types than names bound: MLIR's "operation defines 2 results but was provided 1 to
      // bind" (the second type was dropped, and a verifier counting results saw one).
      Row{"  %1 = \"stablehlo.tanh\"(%0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n",
          "3:50: error: \"stablehlo.tanh\" has 1 result \xE2\x80\x94 expected a type for each "
          "result after '->', got 2 types"},
      Row{"  %1 = \"stablehlo.tanh\"(%0)\n",
          "3:28: error: bad generic operation \xE2\x80\x94 expected ':' and a function type such "
          "as (T) -> T, got the "
          "end of the line"},
  }));
  auto r = parse_stablehlo(head + op + tail);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == message);
  // Before, the analysis ran with an unknown shape and Run's reason was cut off ("a value of type
  // ").
  auto a = analyze(head + "  %1 = stablehlo.tanh %0\n" + tail);
  REQUIRE_FALSE(a.ok());
  CHECK(a.error_info().line == 3);
  CHECK(a.error_info().column == 25);
}
