// The lexer: tokens with their line and column, INDENT/DEDENT, Python's literals.
#include "python/lexer.h"

#include "catch.hpp"
#include "python/parser.h"

using namespace rl::python;

TEST_CASE("tokens keep line and column, with INDENT, DEDENT and NEWLINE", "[python][lexer]") {
  auto t = tokenize("def f(x):\n    return x  # c\n\ny = (1,\n     2)\n");
  REQUIRE(t.ok());
  std::vector<std::string> kinds;
  for (auto& k : t.value()) {
    std::string d = describe(k);
    kinds.push_back(d + "@" + std::to_string(k.line) + ":" + std::to_string(k.column));
  }
  const std::vector<std::string> want = {
      "name 'def'@1:1",    "name 'f'@1:5",  "'('@1:6",          "name 'x'@1:7",
      "')'@1:8",           "':'@1:9",       "end of line@1:10", "an indent@2:5",
      "name 'return'@2:5", "name 'x'@2:12", "end of line@2:18", "an unindent@4:1",
      "name 'y'@4:1",      "'='@4:3",       "'('@4:5",          "number 1@4:6",
      "','@4:7",           "number 2@5:6",  "')'@5:7",          "end of line@5:8",
      "end of file@6:1"};
  CHECK(kinds == want);
}

TEST_CASE("number and string literals as Python reads them", "[python][lexer]") {
  auto t = tokenize("0x1F 0o17 0b101 1_000 1.5e3 .25 7. 'a\\n' r'a\\n' \"\"\"x\ny\"\"\" b'z'\n");
  REQUIRE(t.ok());
  const auto& v = t.value();
  CHECK(v[0].int_value == 31);
  CHECK(v[1].int_value == 15);
  CHECK(v[2].int_value == 5);
  CHECK(v[3].int_value == 1000);
  CHECK(v[4].kind == Tok::Float);
  CHECK(v[4].float_value == 1500);
  CHECK(v[5].float_value == 0.25);
  CHECK(v[6].float_value == 7);
  CHECK(v[7].text == "a\n");
  CHECK(v[8].text == "a\\n");
  CHECK(v[9].text == "x\ny");
  CHECK(v[10].text == "z");
  auto big = tokenize("99999999999999999999\n");
  REQUIRE(big.ok());
  CHECK(big.value()[0].int_overflow);
}

TEST_CASE("string escapes as CPython reads them: hex, octal, the u and U escapes, bytes apart",
          "[python][lexer]") {
  const auto text = [](const std::string& src) {
    auto t = tokenize(src + "\n");
    REQUIRE(t.ok());
    return t.value()[0].text;
  };
  CHECK(text(R"('\x41\x7a')") == "Az");
  CHECK(text(R"('\a\b\f\v\0')") == std::string("\a\b\f\v\0", 5));
  CHECK(text(R"('\101\1010\7')") == "AA0\x07");  // at most three octal digits
  CHECK(text(R"('\xe9')") == "\xc3\xa9");        // U+00E9 as UTF-8 in a str
  CHECK(text(R"(b'\xe9')") == "\xe9");           // the byte itself in bytes
  CHECK(text(R"('\u00e9\u20ac')") == "\xc3\xa9\xe2\x82\xac");
  CHECK(text(R"('\U0001F600')") == "\xf0\x9f\x98\x80");
  CHECK(text(R"(b'\u00e9')") == "\\u00e9");  // no \u escape in bytes
  CHECK(text(R"('\q')") == "\\q");           // an unknown escape stays as written
  CHECK(text(R"(r'\x41')") == "\\x41");      // raw: nothing is an escape
  CHECK(text(R"(f'{1}\x41')") == "{1}A");
  const auto error = [](const std::string& src) {
    auto t = tokenize(src + "\n");
    REQUIRE_FALSE(t.ok());
    return t.error();
  };
  CHECK(error(R"(x = 'ab\x4')") ==
        "1:5: (unicode error) 'unicodeescape' codec can't decode bytes in position 2-4: "
        "truncated \\xXX escape");
  CHECK(error(R"('\u12')") ==
        "1:1: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-3: "
        "truncated \\uXXXX escape");
  CHECK(error(R"('\U00110000')") ==
        "1:1: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-9: "
        "illegal Unicode character");
  CHECK(error(R"(b'\xg0')") == "1:1: (value error) invalid \\x escape at position 0");
  CHECK(error(R"('\N{BULLET}')").find("\\N{...} escapes are not supported here") !=
        std::string::npos);
}

TEST_CASE("line continuation: brackets and backslashes", "[python][lexer]") {
  auto t = tokenize("x = 1 + \\\n    2\ny = [1,\n\n  2]\n");
  REQUIRE(t.ok());
  int newlines = 0;
  for (auto& k : t.value()) newlines += k.kind == Tok::Newline;
  CHECK(newlines == 2);
  CHECK_FALSE(tokenize("x = 1 \\ 2\n").ok());
}

TEST_CASE("the parser reads a notebook's Python, including statements the tracer does not run",
          "[python][parser]") {
  auto p = parse(
      "import numpy as np\nfrom jax import lax, numpy as jnp\n"
      "def contract(m, k, n, itemsize=4):\n    if min(m, k, n, itemsize) <= 0:\n        raise "
      "ValueError('no')\n"
      "    flops = 2 * m * k * n\n    return flops, flops / 2\n"
      "xs = [contract(int(n), 1, 1)[1] for n in range(3) if n]\nd = {'a': 1, 'b': [1, 2]}\n"
      "for _ in range(5):\n    pass\nelse:\n    y = x if x else -x\n"
      "assert a is not None and b not in c, 'msg'\nz = lambda q: q ** -2\nw = s[1:2, ::-1, ..., "
      "None]\n"
      "with open('f') as f:\n    pass\ntry:\n    pass\nexcept Exception as e:\n    pass\n");
  INFO((p.ok() ? "" : p.error()));
  REQUIRE(p.ok());
  CHECK(p->body.size() == 11);
}
