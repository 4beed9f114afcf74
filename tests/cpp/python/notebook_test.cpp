// The notebook (cpp/python/notebook.h): Python's semantics on a table of small programs whose
// output CPython + NumPy printed (notebook_cases.inc, written by make_notebook_cases.py with
// Debian's python3-numpy); the seed's lesson.py line for line; tracebacks; limits.
#include "catch.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "python/float_repr.h"
#include "python/notebook.h"
#include "corpus.h"

using rl::python::NotebookOptions;
using rl::python::run_notebook;

namespace {

struct Case {
  const char* name;
  const char* source;
  const char* stdout_text;
  const char* exception;
};

const Case kCases[] = {
#include "notebook_cases.inc"
};

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

double fake_clock() {
  static double t = 0;
  return t += 0.25;
}

}  // namespace

TEST_CASE("the notebook prints what CPython and NumPy print for each program of the table", "[python][notebook]") {
  int checked = 0;
  for (const auto& c : kCases) {
    INFO("case: " << c.name << "\n" << c.source);
    NotebookOptions o;
    o.filename = "case.py";
    const auto r = run_notebook(c.source, o);
    CHECK(r.stdout_text == c.stdout_text);
    CHECK(r.exception == c.exception);
    if (std::string(c.exception).empty()) CHECK(r.error.empty());
    else CHECK(r.error.rfind("Traceback (most recent call last):\n", 0) == 0);
    ++checked;
  }
  CHECK(checked == static_cast<int>(sizeof kCases / sizeof kCases[0]));
  CHECK(checked >= 60);
}

TEST_CASE("float repr is CPython's shortest round trip", "[python][notebook]") {
  using rl::python::float_repr;
  CHECK(float_repr(20e9 * (8.0 / 6) / 1e9) == "26.666666666666664");
  CHECK(float_repr(80.0 / 3) == "26.666666666666668");
  CHECK(float_repr(1e-5) == "1e-05");
  CHECK(float_repr(100.0) == "100.0");
  CHECK(float_repr(1e16) == "1e+16");
  CHECK(float_repr(1e15) == "1000000000000000.0");
  CHECK(float_repr(0.0001) == "0.0001");
  CHECK(float_repr(-0.0) == "-0.0");
  CHECK(float_repr(5e-324) == "5e-324");
  CHECK(float_repr(0.1 + 0.2) == "0.30000000000000004");
  CHECK(float_repr(16.0 / 7) == "2.2857142857142856");
}

TEST_CASE("the seed's lesson.py prints, line for line, what CPython, NumPy and JAX print", "[python][notebook]") {
  SKIP_WITHOUT_CORPUS("");
  const std::string src = read_file(rl::testing::corpus_dir() + "/../seed/lesson.py");
  REQUIRE(!src.empty());
  NotebookOptions o;
  o.filename = "lesson.py";
  o.clock = fake_clock;
  const auto r = run_notebook(src, o);
  INFO(r.error);
  REQUIRE(r.error.empty());
  const auto lines = lines_of(r.stdout_text);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0] == "StableHLO operations present: dot_general and tanh");
  // XLA's keys, as reference/lesson.md records them for this program (XLA's CPU cost analysis),
  // with the core's cost rules' values: the dict as JAX prints it.
  CHECK(lines[1] ==
        "Compiler estimates (backend-specific): {'flops': 8192.0, 'transcendentals': 256.0, 'bytes accessed': 5632.0, "
        "'bytes accessed0{}': 3072.0, 'bytes accessed1{}': 512.0, 'bytes accessedout{}': 2048.0, 'utilization0{}': 2.0, "
        "'utilization1{}': 1.0}");
  // The five samples: the host's clock (here a fake one advancing 0.25 s per read).
  CHECK(lines[2] == "Local CPU samples seconds: [0.25, 0.25, 0.25, 0.25, 0.25]");
  CHECK(lines[3] == "Matmul-only accounting: {'flops': 8192, 'minimum_bytes': 3584, 'flops_per_byte': 2.2857142857142856}");
  CHECK(lines[4] == "Hypothetical ceilings GFLOP/s: [26.666666666666664, 53.33333333333333, 100.0, 100.0, 100.0]");
  CHECK(lines[5] == "Ceilings with twice minimum traffic GFLOP/s: [13.333333333333332, 26.666666666666664, 53.33333333333333, 100.0, 100.0]");
}

TEST_CASE("jax.jit: str(compiler_ir), as_text, calling the jitted and the compiled function", "[python][notebook]") {
  const std::string src =
      "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
      "def f(x, y):\n    return jnp.tanh(x @ y) * 2.0\n"
      "a = jnp.arange(6, dtype=jnp.float32).reshape(2, 3) / 6\n"
      "b = jnp.ones((3, 2), dtype=jnp.float32)\n"
      "low = jax.jit(f).lower(a, b)\n"
      "print(str(low.compiler_ir(dialect='stablehlo')) == low.as_text(), 'stablehlo.dot_general' in low.as_text())\n"
      "c = low.compile()\n"
      "out = c(a, b)\n"
      "print(out.shape, out.dtype, 'ok')\n"
      "np.testing.assert_allclose(out, np.tanh(np.asarray(a) @ np.asarray(b)) * 2.0, rtol=1e-6)\n"
      "np.testing.assert_allclose(jax.jit(f)(a, b), out)\n"
      "print(out.tolist() == jax.jit(f)(a, b).block_until_ready().tolist())\n"
      "print(a.dtype, (a + 1).dtype, (a * 2.5).dtype)\n";
  const auto r = run_notebook(src);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.stdout_text == "True True\n(2, 2) float32 ok\nTrue\nfloat32 float32 float32\n");
}

TEST_CASE("a jitted function reads the program's Python scalar globals, as JAX bakes them in", "[python][notebook]") {
  const auto r = run_notebook(
      "import jax\nimport jax.numpy as jnp\nscale = 2.0\nshift = 1\ndef f(x):\n    return x * scale + shift\n"
      "print(jax.jit(f)(jnp.ones(3)))\nscale = 3.0\nprint(jax.jit(f)(jnp.ones(3)))\n"
      "print('constant' in jax.jit(f).lower(jnp.ones(3)).as_text())\n");
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.stdout_text == "[3. 3. 3.]\n[4. 4. 4.]\nTrue\n");
}

TEST_CASE("an uncaught exception is printed as Python's traceback", "[python][notebook]") {
  NotebookOptions o;
  o.filename = "prog.py";
  const auto r = run_notebook("def inner(x):\n    return 1 // x\n\ndef outer():\n    return inner(0)\n\nprint('before')\nouter()\nprint('after')\n", o);
  CHECK(r.stdout_text == "before\n");
  CHECK(r.error ==
        "Traceback (most recent call last):\n"
        "  File \"prog.py\", line 8, in <module>\n"
        "    outer()\n"
        "  File \"prog.py\", line 5, in outer\n"
        "    return inner(0)\n"
        "  File \"prog.py\", line 2, in inner\n"
        "    return 1 // x\n"
        "ZeroDivisionError: integer division or modulo by zero\n");
  CHECK(r.error_type == "ZeroDivisionError");
  CHECK(r.line == 2);
}

TEST_CASE("a syntax error is printed as Python prints it, with the place", "[python][notebook]") {
  NotebookOptions o;
  o.filename = "bad.py";
  const auto r = run_notebook("x = 1\ny = (2,\n", o);
  CHECK(r.error_type == "SyntaxError");
  CHECK(r.exception == "SyntaxError: '(' was never closed");
  CHECK(r.error.find("  File \"bad.py\", line 2\n") == 0);
}

TEST_CASE("limits: an endless loop, deep recursion, huge values end with clear errors", "[python][notebook]") {
  SECTION("while True: stops at the step budget") {
    NotebookOptions o;
    o.max_steps = 100000;
    const auto r = run_notebook("n = 0\nwhile True:\n    n += 1\n", o);
    CHECK(r.error_type == "RuntimeError");
    CHECK(r.exception.find("step budget of 100000") != std::string::npos);
    CHECK(r.line == 3);
  }
  SECTION("calls nested inside nested expressions stop at the nesting limit") {
    const auto r = run_notebook("def g(n):\n    if n == 0:\n        return 0\n    return [[[[[[[[[[[[g(n - 1)]]]]]]]]]]]]\nx = g(195)\n");
    CHECK(r.error_type == "RecursionError");
    CHECK(r.exception.find("2000 levels") != std::string::npos);
  }
  SECTION("unbounded recursion") {
    const auto r = run_notebook("def f(n):\n    return f(n + 1)\nf(0)\n");
    CHECK(r.error_type == "RecursionError");
  }
  SECTION("ints are exact past 64 bits, up to the notebook's limit") {
    const auto r = run_notebook("x = 2 ** 64\nprint(x)\ny = 2 ** 100000\n");
    CHECK(r.stdout_text == "18446744073709551616\n");
    CHECK(r.error_type == "OverflowError");
    CHECK(r.exception.find("limit of 65536 bits") != std::string::npos);
  }
  SECTION("a name NumPy has that the notebook does not is said to be unsupported") {
    const auto r = run_notebook("import numpy as np\nnp.cumsum([1, 2])\n");
    CHECK(r.exception == "AttributeError: module 'numpy' has no attribute 'cumsum' (not supported here)");
  }
  SECTION("nesting past the parser's limit is a SyntaxError") {
    const auto r = run_notebook("x = " + std::string(1000, '(') + "1" + std::string(1000, ')') + "\n");
    CHECK(r.error_type == "SyntaxError");
  }
  SECTION("a huge array") {
    const auto r = run_notebook("import numpy as np\nx = np.zeros((100000, 100000))\n");
    CHECK(r.error_type == "ValueError");
    CHECK(r.exception.find("limit") != std::string::npos);
  }
  SECTION("a huge list") {
    const auto r = run_notebook("x = [0] * 10**9\n");
    CHECK(r.error_type == "MemoryError");
  }
  SECTION("deeply nested expressions") {
    std::string src = "x = ";
    for (int k = 0; k < 50; ++k) src += "(";
    src += "1";
    for (int k = 0; k < 50; ++k) src += ")";
    const auto r = run_notebook(src + "\nprint(x)\n");
    CHECK(r.stdout_text == "1\n");
  }
  SECTION("matmul with an empty operand: NumPy's error (found by scripts/fuzz notebook: 0/0 in the step charge)") {
    const auto r = run_notebook("import numpy as np\na = np.arange(6).reshape(2, 3) / 4\nprint(a @ np.minimum(a[2:3], 0.5))\n");
    CHECK(r.exception ==
          "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
          "(n?,k),(k,m?)->(n?,m?) (size 0 is different from 3)");
  }
  SECTION("time.perf_counter without a clock") {
    const auto r = run_notebook("import time\ntime.perf_counter()\n");
    CHECK(r.error_type == "RuntimeError");
    CHECK(r.exception.find("no clock") != std::string::npos);
  }
}
