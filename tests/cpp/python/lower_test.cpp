// Python → StableHLO as JAX prints it: the lesson byte for byte, JAX's promotion and lowering
// forms, the entry rule, and every error path with its message and place.
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "corpus.h"
#include "hlo/emit.h"
#include "hlo/parse.h"
#include "hlo/verify.h"
#include "python/notebook.h"
#include "python/parser.h"
#include "python/tracer.h"

using rl::python::lower_source;

namespace {
// The seed notebook's step 1 (../shared/seed/lesson.py).
const char* kLessonStep1 =
    "import time\n"
    "import numpy as np\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "# Step 1: inspect a specialized lowered computation.\n"
    "def workload(a, b):\n"
    "    return jnp.tanh(a @ b)\n"
    "\n"
    "a = jnp.arange(32 * 16, dtype=jnp.float32).reshape(32, 16) / 512\n"
    "b = jnp.arange(16 * 8, dtype=jnp.float32).reshape(16, 8) / 128\n"
    "lowered = jax.jit(workload).lower(a, b)\n"
    "stablehlo = str(lowered.compiler_ir(dialect='stablehlo'))\n";

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string lower_text(const std::string& src, const std::string& entry = "") {
  auto r = lower_source(src, entry);
  INFO((r.ok() ? "" : r.error()));
  REQUIRE(r.ok());
  // The notebook, running the program's Python itself and handing the tracer each operation on a
  // traced array, lowers its first .lower() call to the same text. (It may stop earlier: its host
  // arrays have no bfloat16, float16 or small ints.)
  if (entry.empty()) {
    const auto nb = rl::python::run_notebook(src);
    CAPTURE(src, nb.error);
    if (!nb.lowered.empty()) CHECK(nb.lowered[0] == r->text);
  }
  return r->text;
}

std::string lower_error(const std::string& src, const std::string& entry = "") {
  auto r = lower_source(src, entry);
  REQUIRE_FALSE(r.ok());
  // The place is in the fields too.
  CHECK(r.error().rfind(std::to_string(r.error_info().line) + ":" +
                            std::to_string(r.error_info().column) + ": ",
                        0) == 0);
  return r.error();
}

std::string fn(const std::string& body, const std::string& args, const std::string& params = "x") {
  return "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\ndef f(" + params + "):\n" +
         body + "\n\njax.jit(f).lower(" + args + ")\n";
}
}  // namespace

TEST_CASE("the lesson's step 1 lowers to lesson.md's module byte for byte", "[python][lower]") {
  // The same text the emitter's emit_workload gives, which emit_test checks against lesson.md.
  CHECK(lower_text(kLessonStep1) == rl::hlo::emit_workload(32, 16, 8, "f32").value());
}

TEST_CASE("the seed's whole lesson.py lowers to the reference module", "[python][lower]") {
  SKIP_WITHOUT_CORPUS("");
  const std::string dir = rl::testing::corpus_dir() + "/..";
  const std::string src = read_file(dir + "/seed/lesson.py");
  const std::string md = read_file(dir + "/reference/lesson.md");
  REQUIRE_FALSE(src.empty());
  const auto start = md.find("```\nmodule @jit_workload");
  REQUIRE(start != std::string::npos);
  const auto end = md.find("```", start + 4);
  const std::string reference = md.substr(start + 4, end - start - 4);
  CHECK(lower_text(src) == reference);
}

TEST_CASE("weak types: Python scalars keep the array's dtype", "[python][lower]") {
  const std::string f32 = lower_text(fn("    return x * 0.1", "jnp.zeros((2, 3), jnp.float32)"));
  CHECK_THAT(
      f32,
      Catch::Matchers::Contains(
          "    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>\n"
          "    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>\n"
          "    %1 = stablehlo.multiply %arg0, %0 : tensor<2x3xf32>\n"
          "    return %1 : tensor<2x3xf32>\n"));
  const std::string i32 = lower_text(fn("    return x + 1", "jnp.arange(6).reshape(2, 3)"));
  CHECK_THAT(i32, Catch::Matchers::Contains("%c = stablehlo.constant dense<1> : tensor<i32>"));
  CHECK_THAT(i32, Catch::Matchers::Contains("-> (tensor<2x3xi32> {jax.result_info = \"result\"})"));
  // bf16 array times a Python float stays bf16; i32 / int promotes to f32 with a convert first.
  CHECK_THAT(lower_text(fn("    return x * 2.5", "jax.ShapeDtypeStruct((4,), jnp.bfloat16)")),
             Catch::Matchers::Contains("dense<2.500000e+00> : tensor<bf16>"));
  const std::string div = lower_text(fn("    return x / 2", "jnp.arange(4)"));
  CHECK_THAT(div, Catch::Matchers::Contains(
                      "%0 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>\n"
                      "    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>\n"));
  // float64 is canonicalized to float32 (JAX's default, jax_enable_x64 off).
  CHECK_THAT(lower_text(fn("    return x", "jnp.zeros(3, jnp.float64)")),
             Catch::Matchers::Contains("@main(%arg0: tensor<3xf32>) -> (tensor<3xf32>"));
}

TEST_CASE(
    "Python ints: a negative shifted left is a product, a huge power of 1 is quick, overflow is "
    "named",
    "[python][lower]") {
  // Found by scripts/fuzz python: -4445 << 4 shifted a negative value (undefined in C++).
  CHECK_THAT(lower_text(fn("    return x + (-4445 << 4)", "jnp.arange(3)")),
             Catch::Matchers::Contains("dense<-71120> : tensor<i32>"));
  CHECK_THAT(lower_text(fn("    return x * (1 ** (10 ** 18)) + (-1) ** 3", "jnp.arange(3)")),
             Catch::Matchers::Contains("dense<1> : tensor<i32>"));
  CHECK_THAT(lower_text(fn("    return x + 2 ** 10 * 3 ** 2", "jnp.arange(3)")),
             Catch::Matchers::Contains("dense<9216> : tensor<i32>"));
  // Python's ints are unbounded (the notebook's big ints); one that meets an int32 array must fit
  // it, as JAX requires (its OverflowError).
  CHECK(lower_error(fn("    return x + 3 ** 40", "jnp.arange(3)")) ==
        "6:14: OverflowError: Python int 12157665459056928801 too large to convert to int32");
  CHECK(lower_error(fn("    return x + (-1 << 63)", "jnp.arange(3)")) ==
        "6:14: Python int -9223372036854775808 too large to convert to int32");
  CHECK(lower_error(fn("    return x + (-5 << 62)", "jnp.arange(3)")) ==
        "6:14: OverflowError: Python int -23058430092136939520 too large to convert to int32");
  CHECK(lower_error(fn("    return x + 2 ** 31", "jnp.arange(3)")) ==
        "6:14: Python int 2147483648 too large to convert to int32");
  CHECK_THAT(lower_text(fn("    return x + (2 ** 31 - 1) + (2 ** 70 >> 60)", "jnp.arange(3)")),
             Catch::Matchers::Contains("dense<2147483647> : tensor<i32>"));
}

// The notebook's rule for Python numbers (python/pynum.h): CPython's float_divmod and messages.
TEST_CASE("a traced function's Python numbers follow CPython, by the notebook's rule",
          "[python][lower]") {
  // 7.0 // 0.1 is 69.0 in CPython (floor(7.0 / 0.1) would be 70.0).
  CHECK_THAT(lower_text(fn("    return x + 7.0 // 0.1", "jnp.zeros(3)")),
             Catch::Matchers::Contains("dense<6.900000e+01>"));
  CHECK_THAT(lower_text(fn("    return x + (-7.5) % 2.0", "jnp.zeros(3)")),
             Catch::Matchers::Contains("dense<5.000000e-01>"));
  CHECK_THAT(lower_error(fn("    return x + 1 % 0", "jnp.zeros(3)")),
             Catch::Matchers::EndsWith("6:18: ZeroDivisionError: integer modulo by zero"));
  CHECK_THAT(lower_error(fn("    return x + 1.0 // 0.0", "jnp.zeros(3)")),
             Catch::Matchers::EndsWith("float floor division by zero"));
  CHECK_THAT(lower_error(fn("    return x + 0.0 ** -1", "jnp.zeros(3)")),
             Catch::Matchers::EndsWith("0.0 cannot be raised to a negative power"));
}

// The notebook's binding (python/bind.h): CPython's order of checks and its messages.
TEST_CASE("a traced function's calls bind their arguments by the notebook's rule",
          "[python][lower]") {
  const std::string head =
      "import jax\nimport jax.numpy as jnp\ndef g(a, b=1.0, *r, k):\n    return a * b + len(r) * "
      "k\n";
  CHECK_THAT(
      lower_text(head +
                 "def f(x):\n    return g(x, 2.0, 7, 8, k=3)\njax.jit(f).lower(jnp.zeros(3))\n"),
      Catch::Matchers::Contains("dense<6.000000e+00>"));
  CHECK_THAT(
      lower_error(head + "def f(x):\n    return g(x, a=x, k=1)\njax.jit(f).lower(jnp.zeros(3))\n"),
      Catch::Matchers::EndsWith("g() got multiple values for argument 'a'"));
  CHECK_THAT(
      lower_error(head + "def f(x):\n    return g(x, k=1, z=2)\njax.jit(f).lower(jnp.zeros(3))\n"),
      Catch::Matchers::EndsWith("g() got an unexpected keyword argument 'z'"));
  CHECK_THAT(lower_error(head + "def f(x):\n    return g(b=x)\njax.jit(f).lower(jnp.zeros(3))\n"),
             Catch::Matchers::EndsWith("g() missing 1 required positional argument: 'a'"));
}

TEST_CASE("a bare assert is a syntax error at its place, as in Python", "[python][errors]") {
  // Found by scripts/fuzz python: the tracer read the missing condition.
  CHECK_THAT(lower_error("import jax\nassert  # nothing to assert\nx = 1\n"),
             Catch::Matchers::StartsWith(
                 "2:28: invalid syntax: expected a condition after 'assert', found end of line"));
  CHECK_THAT(
      lower_error("import jax\nassert\n"),
      Catch::Matchers::StartsWith("2:7: invalid syntax: expected a condition after 'assert'"));
}

TEST_CASE("keyword-only parameters and *args bind as in Python, and **kwargs is refused by name",
          "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  // A keyword-only default is a Python value baked into the trace, as in JAX.
  const std::string kw = lower_text(head +
                                    "def scale(x, *, by=2.0):\n    return x * by\n"
                                    "def f(x, *rest):\n    return scale(x, by=3.0) + len(rest)\n"
                                    "jax.jit(f).lower(jnp.zeros(3), 1, 2)\n");
  CHECK(kw.find("dense<3.000000e+00>") != std::string::npos);
  CHECK(kw.find("dense<2.000000e+00>") != std::string::npos);  // len(rest) == 2
  CHECK(lower_error(head + "def g(x, *, by):\n    return x * by\n"
                           "def f(x):\n    return g(x, 2.0)\n"
                           "jax.jit(f).lower(jnp.zeros(3))\n")
            .find("g() takes 1 positional argument but 2 were given") != std::string::npos);
  CHECK(lower_error(head + "def g(x, *, by):\n    return x * by\n"
                           "def f(x):\n    return g(x)\n"
                           "jax.jit(f).lower(jnp.zeros(3))\n")
            .find("g() missing 1 required keyword-only argument: 'by'") != std::string::npos);
  // **kw binds as in Python (an empty dict here).
  CHECK_THAT(lower_text(head + "def f(x, **kw):\n    return x * len(kw)\n"
                               "jax.jit(f).lower(jnp.zeros(3))\n"),
             Catch::Matchers::Contains("dense<0.000000e+00>"));
}

TEST_CASE("JAX's forms: rank promotion, private @relu, integer_pow, keepdims", "[python][lower]") {
  const std::string bias =
      lower_text(fn("    return x + b", "jnp.zeros((4, 3)), jnp.zeros(3)", "x, b"));
  CHECK_THAT(bias,
             Catch::Matchers::Contains("    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : "
                                       "(tensor<3xf32>) -> tensor<1x3xf32>\n"
                                       "    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : "
                                       "(tensor<1x3xf32>) -> tensor<4x3xf32>\n"
                                       "    %2 = stablehlo.add %arg0, %1 : tensor<4x3xf32>\n"));
  const std::string relu =
      lower_text(fn("    return jax.nn.relu(x) + jax.nn.relu(x)", "jnp.zeros((2, 2))"));
  CHECK_THAT(relu, Catch::Matchers::Contains(
                       "%0 = call @relu(%arg0) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
                       "    %1 = call @relu(%arg0) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"));
  CHECK_THAT(relu, Catch::Matchers::Contains(
                       "  func.func private @relu(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {\n"));
  const std::string cube = lower_text(fn("    return x ** 3", "jnp.zeros(2)"));
  CHECK_THAT(cube,
             Catch::Matchers::Contains("    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2xf32>\n"
                                       "    %1 = stablehlo.multiply %0, %arg0 : tensor<2xf32>\n"));
  const std::string keep =
      lower_text(fn("    return x.sum(axis=1, keepdims=True)", "jnp.zeros((2, 3))"));
  CHECK_THAT(keep, Catch::Matchers::Contains("applies stablehlo.add across dimensions = [1] : "
                                             "(tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
                                             "    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : "
                                             "(tensor<2xf32>) -> tensor<2x1xf32>\n"));
  const std::string mx = lower_text(fn("    return jnp.max(x, axis=0)", "jnp.zeros((2, 3))"));
  CHECK_THAT(
      mx, Catch::Matchers::Contains("%cst = stablehlo.constant dense<0xFF800000> : tensor<f32>"));
  // Tuple results: result[0], result[1].
  // Static indexing: lax.slice, then a reshape for the int axes.
  CHECK_THAT(
      lower_text(fn("    return x[1, 1:3]", "jnp.zeros((2, 4))")),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.slice %arg0 [1:2, 1:3] : (tensor<2x4xf32>) -> tensor<1x2xf32>\n"
          "    %1 = stablehlo.reshape %0 : (tensor<1x2xf32>) -> tensor<2xf32>\n"));
  // The index is a value, as Python hands it to __getitem__: a tuple held in a name indexes as
  // the same tuple written in the brackets (it was refused as an indexer of type tuple).
  CHECK(lower_text(fn("    ix = (1, ...)\n    return x[ix]", "jnp.zeros((2, 4))")) ==
        lower_text(fn("    return x[1, ...]", "jnp.zeros((2, 4))")));
  CHECK(lower_text(fn("    ix = None, ...\n    return x[ix]", "jnp.zeros((2, 4))")) ==
        lower_text(fn("    return x[None, ...]", "jnp.zeros((2, 4))")));
  CHECK(lower_text(fn("    ix = slice(1, 3)\n    return x[0, ix]", "jnp.zeros((2, 4))")) ==
        lower_text(fn("    return x[0, 1:3]", "jnp.zeros((2, 4))")));
  // A tuple's slices, as CPython takes them (a step of any size, negative steps).
  CHECK(lower_text(fn("    t = (x, x + 1, x + 2)\n    return t[1::9223372036854775807]",
                      "jnp.zeros(2)")) ==
        lower_text(fn("    t = (x, x + 1, x + 2)\n    return (t[1],)", "jnp.zeros(2)")));
  CHECK(lower_text(fn("    t = (x, x + 1, x + 2)\n    return t[::-2]", "jnp.zeros(2)")) ==
        lower_text(fn("    t = (x, x + 1, x + 2)\n    return t[2], t[0]", "jnp.zeros(2)")));
  CHECK(lower_error(fn("    t = (x, x)\n    return t[::0]", "jnp.zeros(2)")) ==
        "7:12: ValueError: slice step cannot be zero");
  CHECK_THAT(lower_text(fn("    y = x.T\n    return y, x", "jnp.zeros((2, 3))")),
             Catch::Matchers::Contains("(tensor<3x2xf32> {jax.result_info = \"result[0]\"}, "
                                       "tensor<2x3xf32> {jax.result_info = \"result[1]\"})"));
}

TEST_CASE("jax.nn and jnp compositions lower in JAX's order", "[python][lower]") {
  // softmax inlines: max with initial=-inf (a maximum after the reduce), keepdims, exp(x - max) /
  // sum.
  const std::string sm = lower_text(fn("    return jax.nn.softmax(x)", "jnp.zeros((2, 3))"));
  CHECK_THAT(
      sm,
      Catch::Matchers::Contains(
          "    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
          "    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>\n"
          "    %2 = stablehlo.maximum %1, %0 : tensor<2xf32>\n"
          "    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xf32>) -> "
          "tensor<2x1xf32>\n"));
  CHECK_THAT(sm, Catch::Matchers::Contains(
                     "%10 = stablehlo.divide %6, %9 : tensor<2x3xf32>\n    return %10"));
  // log_softmax is jitted with a static axis: one private function per axis.
  const std::string ls = lower_text(
      fn("    return jax.nn.log_softmax(x) + jax.nn.log_softmax(x, axis=0) + jax.nn.log_softmax(x)",
         "jnp.zeros((2, 3))"));
  CHECK_THAT(ls, Catch::Matchers::Contains("%0 = call @log_softmax(%arg0)"));
  CHECK_THAT(ls, Catch::Matchers::Contains("%1 = call @log_softmax_0(%arg0)"));
  CHECK_THAT(ls, Catch::Matchers::Contains("%3 = call @log_softmax(%arg0)"));
  // logsumexp: amax made 0 where not finite.
  CHECK_THAT(lower_text(fn("    return jax.nn.logsumexp(x)", "jnp.zeros(3)")),
             Catch::Matchers::Contains(
                 "    %1 = stablehlo.is_finite %0 : (tensor<f32>) -> tensor<i1>\n"
                 "    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                 "    %2 = stablehlo.select %1, %0, %cst_0 : tensor<i1>, tensor<f32>\n"));
  // clip is jitted: Python bounds are weakly typed scalar arguments of @clip.
  const std::string clip = lower_text(fn("    return jnp.clip(x, 0, 1.5)", "jnp.zeros(3)"));
  CHECK_THAT(clip, Catch::Matchers::Contains("%0 = call @clip(%arg0, %c, %cst) : (tensor<3xf32>, "
                                             "tensor<i32>, tensor<f32>) -> tensor<3xf32>"));
  CHECK_THAT(
      clip,
      Catch::Matchers::Contains(
          "    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>\n"
          "    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>\n"
          "    %2 = stablehlo.maximum %1, %arg0 : tensor<3xf32>\n"));
  // std calls var: two private functions, ddof an i32 argument.
  const std::string sd = lower_text(fn("    return jnp.std(x)", "jnp.zeros(3)"));
  CHECK_THAT(sd, Catch::Matchers::Contains(
                     "%0 = call @_std(%arg0, %c) : (tensor<3xf32>, tensor<i32>) -> tensor<f32>"));
  CHECK_THAT(sd,
             Catch::Matchers::Contains(
                 "    %0 = call @_var(%arg0, %arg1) : (tensor<3xf32>, tensor<i32>) -> tensor<f32>\n"
                 "    %1 = stablehlo.sqrt %0 : tensor<f32>\n"));
  CHECK_THAT(
      sd, Catch::Matchers::Contains("stablehlo.select %11, %10, %cst_4 : tensor<i1>, tensor<f32>"));
  // gelu: sqrt(2/pi) as a float32 constant; stop_gradient adds nothing.
  CHECK_THAT(lower_text(fn("    return jax.nn.gelu(x)", "jnp.zeros(3)")),
             Catch::Matchers::Contains("dense<0.797884583> : tensor<f32>"));
  CHECK_THAT(lower_text(fn("    return lax.stop_gradient(x)", "jnp.zeros(3)")),
             Catch::Matchers::Contains("    return %arg0 : tensor<3xf32>"));
  // argmax: a private @argmax (lax's cached lowering) with the two-operand reduce; jnp.argmax
  // with no axis ravels first.
  const std::string am = lower_text(fn("    return jnp.argmax(x)", "jnp.zeros((2, 3))"));
  CHECK_THAT(am, Catch::Matchers::Contains(
                     "    %0 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>\n"
                     "    %1 = call @argmax(%0) : (tensor<6xf32>) -> tensor<i32>\n"));
  CHECK_THAT(am, Catch::Matchers::Contains(
                     "    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across "
                     "dimensions = [0] : (tensor<6xf32>, "
                     "tensor<6xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
                     "     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, "
                     "%arg4: tensor<i32>)  {\n"));
  CHECK_THAT(am, Catch::Matchers::Contains("    return %1#1 : tensor<i32>\n"));
  // conv_general_dilated: JAX's default dimension numbers, the window's non-default entries.
  CHECK_THAT(
      lower_text(fn("    return lax.conv_general_dilated(x, w, (2, 2), 'SAME')",
                    "jnp.zeros((1, 3, 6, 5)), jnp.zeros((4, 3, 3, 3))", "x, w")),
      Catch::Matchers::Contains(
          "%0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, "
          "f, 0, 1], "
          "window = {stride = [2, 2], pad = [[0, 1], [1, 1]]} {batch_group_count = 1 : i64, "
          "feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, "
          "#stablehlo<precision DEFAULT>]} : (tensor<1x3x6x5xf32>, tensor<4x3x3x3xf32>) -> "
          "tensor<1x4x3x3xf32>"));
  // x % 3: jnp.remainder is jitted: the Python int is a weakly typed i32 argument of @remainder.
  const std::string rem = lower_text(fn("    return x % 3", "jnp.zeros(3)"));
  CHECK_THAT(
      rem,
      Catch::Matchers::Contains(
          "    %c = stablehlo.constant dense<3> : tensor<i32>\n"
          "    %0 = call @remainder(%arg0, %c) : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>\n"));
  CHECK_THAT(rem, Catch::Matchers::Contains(
                      "    %13 = stablehlo.select %10, %12, %2 : tensor<3xi1>, tensor<3xf32>\n"));
  CHECK_THAT(lower_text(fn("    return x // 2", "jnp.zeros(3)")),
             Catch::Matchers::Contains("stablehlo.round_nearest_afz %15 : tensor<3xf32>"));
  // cumsum: jnp's jitted @cumsum calls lax's cached @cumsum_0: one reduce_window, padded low.
  const std::string cs =
      lower_text(fn("    return jnp.cumsum(x, axis=0)", "jnp.zeros((8, 9), jnp.int16)"));
  CHECK_THAT(cs, Catch::Matchers::Contains(
                     "    %0 = call @cumsum_0(%arg0) : (tensor<8x9xi16>) -> tensor<8x9xi16>\n"));
  CHECK_THAT(
      cs, Catch::Matchers::Contains(
              "    %c = stablehlo.constant dense<0> : tensor<i16>\n"
              "    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i16>) -> tensor<i16>\n"
              "    %1 = \"stablehlo.reduce_window\"(%arg0, %0) <{padding = dense<[[7, 0], [0, 0]]> "
              ": tensor<2x2xi64>, "
              "window_dimensions = array<i64: 8, 1>}> ({\n"
              "    ^bb0(%arg1: tensor<i16>, %arg2: tensor<i16>):\n"
              "      %2 = stablehlo.add %arg1, %arg2 : tensor<i16>\n"
              "      stablehlo.return %2 : tensor<i16>\n"
              "    }) : (tensor<8x9xi16>, tensor<i16>) -> tensor<8x9xi16>\n"));
}

TEST_CASE("jnp.einsum and jnp.eye lower as JAX's _einsum and _eye", "[python][lower]") {
  // opt_einsum pops (1, 0): dot_general tries (first, second) in (rhs, lhs) order first.
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('ij,jk->ik', a, b)",
                    "jnp.zeros((2, 3)), jnp.zeros((3, 4))", "a, b")),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = "
          "[DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n    return "
          "%0"));
  // Batch dims first; the (lhs, rhs) order when it gives the output without a transpose.
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('bij,bjk->bki', a, a)", "jnp.zeros((2, 3, 3))", "a")),
      Catch::Matchers::Contains("%0 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x "
                                "[0], contracting_dims = [1] x [2]"));
  // A transpose to the output order when neither order gives it.
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('ij,jk->ki', a, b)",
                    "jnp.zeros((2, 3)), jnp.zeros((3, 4))", "a, b")),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [1], precision = "
          "[DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>\n    return "
          "%0"));
  CHECK_THAT(lower_text(fn("    return jnp.einsum('bij,bjk->ibk', a, b)",
                           "jnp.zeros((2, 3, 4)), jnp.zeros((2, 4, 5))", "a, b")),
             Catch::Matchers::Contains("    %0 = stablehlo.dot_general %arg1, %arg0, batching_dims "
                                       "= [0] x [0], contracting_dims = [1] x [2], "
                                       "precision = [DEFAULT, DEFAULT] : (tensor<2x4x5xf32>, "
                                       "tensor<2x3x4xf32>) -> tensor<2x5x3xf32>\n"
                                       "    %1 = stablehlo.transpose %0, dims = [2, 0, 1] : "
                                       "(tensor<2x5x3xf32>) -> tensor<3x2x5xf32>\n"));
  // Labels contracted in one operand only are summed out first (the second operand first), then
  // a dot_general with no contracting dims.
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ij,k->i', a, b)",
                           "jnp.zeros((2, 3)), jnp.zeros(4)", "a, b")),
             Catch::Matchers::Contains(
                 "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                 "    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across "
                 "dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
                 "    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                 "    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across "
                 "dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
                 "    %2 = stablehlo.dot_general %1, %0, contracting_dims = [] x [], precision = "
                 "[DEFAULT, DEFAULT] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>\n"));
  // A size-1 axis against a larger one is squeezed (a reshape) before the contraction.
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('ij,kj->ik', a, b)",
                    "jnp.zeros((2, 1)), jnp.zeros((4, 3))", "a, b")),
      Catch::Matchers::Contains("stablehlo.reshape %arg0 : (tensor<2x1xf32>) -> tensor<2xf32>"));
  // jnp.eye: two int32 iotas, i + k (a weak scalar) == j, then the dtype.
  CHECK_THAT(
      lower_text(fn("    return jnp.eye(2, 3, k=1) + x", "jnp.zeros((2, 3))")),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.iota dim = 0 : tensor<2x3xi32>\n"
          "    %1 = stablehlo.iota dim = 1 : tensor<2x3xi32>\n"
          "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
          "    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>\n"
          "    %3 = stablehlo.add %0, %2 : tensor<2x3xi32>\n"
          "    %4 = stablehlo.compare  EQ, %3, %1,  SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> "
          "tensor<2x3xi1>\n"
          "    %5 = stablehlo.convert %4 : (tensor<2x3xi1>) -> tensor<2x3xf32>\n"));
  // A bool eye needs no convert.
  CHECK_THAT(lower_text(fn("    return jnp.eye(2, dtype=jnp.bool_)", "jnp.zeros(3)")),
             Catch::Matchers::Contains("-> tensor<2x2xi1>\n    return %4 : tensor<2x2xi1>"));
}

TEST_CASE(
    "jnp.tril and jnp.triu lower as JAX's: a private function each, lax._tri's mask, a select",
    "[python][lower]") {
  // Jitted with k static: @tril takes the array alone. The mask is ge(add(iota 0, k), iota 1),
  // Python's order of evaluation; then zeros_like and the select.
  const std::string tril = lower_text(fn("    return jnp.tril(x, -1)", "jnp.zeros((2, 3))"));
  CHECK_THAT(tril, Catch::Matchers::Contains(
                       "    %0 = call @tril(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"));
  CHECK_THAT(
      tril,
      Catch::Matchers::Contains(
          "  func.func private @tril(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
          "    %0 = stablehlo.iota dim = 0 : tensor<2x3xi32>\n"
          "    %c = stablehlo.constant dense<-1> : tensor<i32>\n"
          "    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>\n"
          "    %2 = stablehlo.add %0, %1 : tensor<2x3xi32>\n"
          "    %3 = stablehlo.iota dim = 1 : tensor<2x3xi32>\n"
          "    %4 = stablehlo.compare  GE, %2, %3,  SIGNED : (tensor<2x3xi32>, "
          "tensor<2x3xi32>) -> tensor<2x3xi1>\n"
          "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
          "    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> "
          "tensor<2x3xf32>\n"
          "    %6 = stablehlo.select %4, %arg0, %5 : tensor<2x3xi1>, tensor<2x3xf32>\n"
          "    return %6 : tensor<2x3xf32>\n"));
  // triu: the mask at k - 1, zeros where it holds; over leading axes, the mask is broadcast.
  const std::string triu =
      lower_text(fn("    return jnp.triu(x)", "jnp.zeros((4, 2, 3), jnp.int32)"));
  CHECK_THAT(triu, Catch::Matchers::Contains("%c = stablehlo.constant dense<-1> : tensor<i32>\n"));
  CHECK_THAT(triu, Catch::Matchers::Contains(
                       "stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<2x3xi1>) -> "
                       "tensor<4x2x3xi1>\n"));
  CHECK_THAT(triu, Catch::Matchers::Contains(
                       "stablehlo.select %5, %6, %arg0 : tensor<4x2x3xi1>, tensor<4x2x3xi32>\n"));
  // Two k: two functions.
  CHECK_THAT(lower_text(fn("    return jnp.tril(x) + jnp.tril(x, 1)", "jnp.zeros((2, 2))")),
             Catch::Matchers::Contains("func.func private @tril_0("));
  CHECK(lower_error(fn("    return jnp.tril(x)", "jnp.zeros(3)")) ==
        "6:12: Argument to jax.numpy.tril must be at least 2D");
  CHECK(lower_error(fn("    return jnp.triu(x, 1.5)", "jnp.zeros((2, 2))")) ==
        "6:12: jnp.triu: k must be an int, got float");
}

TEST_CASE("lax.slice refuses as lax's shape rule does, in its order, and jnp.round refuses bool",
          "[python][lower]") {
  CHECK(lower_error(fn("    return lax.slice(x, (-1, 0), (3, 5))", "jnp.zeros((3, 4))")) ==
        "6:12: slice start_indices must have every element be nonnegative, got (-1, 0).");
  // Limits are checked on every dimension before starts.
  CHECK(lower_error(fn("    return lax.slice(x, (2, 0), (1, 5))", "jnp.zeros((3, 4))")) ==
        "6:12: slice limit_indices must be less than or equal to operand shape, got "
        "limit_indices (1, 5) for operand shape (3, 4).");
  CHECK(lower_error(fn("    return lax.slice(x, (0, 0), (3, 4), (1, -1))", "jnp.zeros((3, 4))")) ==
        "6:12: slice strides must have every element be nonnegative, got (1, -1).");
  CHECK(lower_error(fn("    return jnp.round(x)", "jnp.zeros(3, jnp.bool_)")) ==
        "6:12: round does not accept dtype bool. Accepted dtypes are subtypes of floating.");
}

TEST_CASE(
    "the einsum and fori_loop example of README.md and lower.mjs --help lowers, parses and "
    "verifies",
    "[python][lower]") {
  const std::string text = lower_text(
      "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n"
      "def step(x, w):\n"
      "    d = jnp.einsum('ii->i', w)                  # a diagonal\n"
      "    y = jnp.einsum('...ij,jk->...ik', x, w)     # '...': any leading axes\n"
      "    return lax.fori_loop(0, 3, lambda i, y: jnp.tanh(y) * d, y)\n\n"
      "jax.jit(step).lower(jnp.zeros((2, 4, 3)), jax.ShapeDtypeStruct((3, 3), jnp.float32))\n");
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "stablehlo.select %2, %arg1, %3 : tensor<3x3xi1>, tensor<3x3xf32>"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0]"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "stablehlo.while(%iterArg = %5, %iterArg_1 = %c, %iterArg_2 = %6)"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "func.func private @None(%arg0: tensor<3xf32>, %arg1: tensor<2x4x3xf32>)"));
  auto m = rl::hlo::parse(text);
  INFO((m.ok() ? "" : m.error()));
  REQUIRE(m.ok());
  CHECK(rl::hlo::verify(m->front()).ok());
}

TEST_CASE("jnp.einsum's diagonals, ellipses, one operand and mixed dtypes lower as JAX's _einsum",
          "[python][lower]") {
  // A label repeated within one operand: lax._delta's uint32 iotas compared EQ, a select with
  // zeros, then a sum over all its axes but the last (the label is kept in the output).
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('ii->i', x)", "jnp.zeros((3, 3))")),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.iota dim = 0 : tensor<3x3xui32>\n"
          "    %1 = stablehlo.iota dim = 1 : tensor<3x3xui32>\n"
          "    %2 = stablehlo.compare  EQ, %0, %1,  UNSIGNED : (tensor<3x3xui32>, "
          "tensor<3x3xui32>) -> tensor<3x3xi1>\n"
          "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
          "    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x3xf32>\n"
          "    %4 = stablehlo.select %2, %arg0, %3 : tensor<3x3xi1>, tensor<3x3xf32>\n"
          "    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
          "    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = "
          "[0] : (tensor<3x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
          "    return %5 : tensor<3xf32>\n"));
  // The trace (implicit output: no label seen once) sums over both axes.
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ii', x)", "jnp.zeros((3, 3))")),
             Catch::Matchers::Contains("applies stablehlo.add across dimensions = [0, 1] : "
                                       "(tensor<3x3xf32>, tensor<f32>) -> tensor<f32>\n"));
  // Three repeats: neighbours compared, and-ed; the mask broadcast to an operand with more axes.
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('iii->i', x)", "jnp.zeros((2, 2, 2), jnp.int32)")),
      Catch::Matchers::Contains("    %3 = stablehlo.compare  EQ, %0, %1,  UNSIGNED : "
                                "(tensor<2x2x2xui32>, tensor<2x2x2xui32>) -> tensor<2x2x2xi1>\n"
                                "    %4 = stablehlo.compare  EQ, %1, %2,  UNSIGNED : "
                                "(tensor<2x2x2xui32>, tensor<2x2x2xui32>) -> tensor<2x2x2xi1>\n"
                                "    %5 = stablehlo.and %3, %4 : tensor<2x2x2xi1>\n"
                                "    %c = stablehlo.constant dense<0> : tensor<i32>\n"));
  CHECK_THAT(lower_text(fn("    return jnp.einsum('iij,jk->ik', a, b)",
                           "jnp.zeros((3, 3, 2)), jnp.zeros((2, 4))", "a, b")),
             Catch::Matchers::Contains(
                 "    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<3x3xi1>) -> "
                 "tensor<3x3x2xi1>\n"
                 "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                 "    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> "
                 "tensor<3x3x2xf32>\n"
                 "    %5 = stablehlo.select %3, %arg0, %4 : tensor<3x3x2xi1>, tensor<3x3x2xf32>\n"
                 "    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                 "    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.add across "
                 "dimensions = [0] : (tensor<3x3x2xf32>, tensor<f32>) -> tensor<3x2xf32>\n"
                 "    %7 = stablehlo.dot_general %6, %arg1, contracting_dims = [1] x [0], "
                 "precision = [DEFAULT, DEFAULT] : "
                 "(tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>\n"));
  // '...' takes the unused letters a, b, ... (the last ones for the shorter operand): the size-1
  // batch axis against 5 is squeezed, then the dot and a transpose to (a, b, i, k).
  CHECK_THAT(lower_text(fn("    return jnp.einsum('...ij,...jk->...ik', a, b)",
                           "jnp.zeros((2, 1, 3, 4)), jnp.zeros((5, 4, 6))", "a, b")),
             Catch::Matchers::Contains(
                 "    %0 = stablehlo.reshape %arg0 : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>\n"
                 "    %1 = stablehlo.dot_general %arg1, %0, contracting_dims = [1] x [2], "
                 "precision = [DEFAULT, DEFAULT] : "
                 "(tensor<5x4x6xf32>, tensor<2x3x4xf32>) -> tensor<5x6x2x3xf32>\n"
                 "    %2 = stablehlo.transpose %1, dims = [2, 0, 3, 1] : (tensor<5x6x2x3xf32>) -> "
                 "tensor<2x5x3x6xf32>\n"));
  // Implicit output with '...': the ellipsis labels first, then the labels seen once, sorted.
  CHECK_THAT(lower_text(fn("    return jnp.einsum('...ij,...jk', a, b)",
                           "jnp.zeros((2, 3, 4)), jnp.zeros((4, 5))", "a, b")),
             Catch::Matchers::Contains("-> tensor<2x3x5xf32>\n    return"));
  // Labels summed within one operand only: a reduce before the dot.
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ij,jk->k', a, b)",
                           "jnp.zeros((2, 3)), jnp.zeros((3, 4))", "a, b")),
             Catch::Matchers::Contains(
                 "    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across "
                 "dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
                 "    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [0] x [0]"));
  // One operand: a transpose, a sum; bool sums are reduce-or.
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ij->ji', x)", "jnp.zeros((2, 3))")),
             Catch::Matchers::Contains("    %0 = stablehlo.transpose %arg0, dims = [1, 0] : "
                                       "(tensor<2x3xf32>) -> tensor<3x2xf32>\n    return %0"));
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ij->i', x)", "jnp.zeros((2, 3), jnp.bool_)")),
             Catch::Matchers::Contains("    %c = stablehlo.constant dense<false> : tensor<i1>\n"
                                       "    %0 = stablehlo.reduce(%arg0 init: %c) applies "
                                       "stablehlo.or across dimensions = [1]"));
  // Two dtypes: preferred_element_type is the promoted one; the dot's CPU lowering converts both
  // operands to it, the one already of that type too (MLIR prints that convert's one type).
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ij,jk', a, b)",
                           "jnp.zeros((2, 3), jnp.float16), jnp.zeros((3, 4))", "a, b")),
             Catch::Matchers::Contains(
                 "    %0 = stablehlo.convert %arg0 : (tensor<2x3xf16>) -> tensor<2x3xf32>\n"
                 "    %1 = stablehlo.convert %arg1 : tensor<3x4xf32>\n"
                 "    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0], precision = "
                 "[DEFAULT, DEFAULT] : "
                 "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"));
  // A sum before the dot converts first when the preferred type is wider; then the dtypes agree.
  CHECK_THAT(lower_text(fn("    return jnp.einsum('ij,k->k', a, b)",
                           "jnp.zeros((2, 3), jnp.int32), jnp.zeros(4)", "a, b")),
             Catch::Matchers::Contains(
                 "    %0 = stablehlo.convert %arg0 : (tensor<2x3xi32>) -> tensor<2x3xf32>\n"
                 "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                 "    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions "
                 "= [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>\n"
                 "    %2 = stablehlo.dot_general %1, %arg1, contracting_dims = [] x [], precision "
                 "= [DEFAULT, DEFAULT] : "
                 "(tensor<f32>, tensor<4xf32>) -> tensor<4xf32>\n"));
  // preferred_element_type given: the dot's result type.
  CHECK_THAT(
      lower_text(fn("    return jnp.einsum('ij,jk', a, b, preferred_element_type=jnp.float32)",
                    "jnp.zeros((2, 3), jnp.bfloat16), jnp.zeros((3, 4), jnp.bfloat16)", "a, b")),
      Catch::Matchers::Contains("(tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>\n    "
                                "return %0 : tensor<2x4xf32>"));
  // Every module above also parses and verifies.
  for (const char* body : {"jnp.einsum('ii->i', x[0])", "jnp.einsum('iij,jk->ik', x, x[0])",
                           "jnp.einsum('...i,i->...', x, x[0, 0])",
                           "jnp.einsum('ij,jk', x[0].astype(jnp.float16), x[1])"}) {
    CAPTURE(body);
    auto text = lower_text(fn(std::string("    return ") + body, "jnp.zeros((3, 3, 3))"));
    auto m = rl::hlo::parse(text);
    INFO((m.ok() ? "" : m.error()));
    REQUIRE(m.ok());
    CHECK(rl::hlo::verify(m->front()).ok());
  }
}

TEST_CASE("lax.fori_loop with static bounds lowers as JAX's scan: a while calling @None",
          "[python][lower]") {
  // The carry is (i, x): i weakly typed int32 from lower, a counter from 0 up to upper - lower,
  // the body a closed call; region values named after the function's own.
  CHECK(lower_text(
            fn("    return lax.fori_loop(0, 3, lambda i, c: c * 0.5 + i, x)", "jnp.zeros(2)")) ==
        "module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
        "  func.func public @main(%arg0: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = "
        "\"result\"}) {\n"
        "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %c_0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : "
        "tensor<i32>, tensor<i32>, tensor<2xf32>\n"
        "     cond {\n"
        "      %c_3 = stablehlo.constant dense<3> : tensor<i32>\n"
        "      %1 = stablehlo.compare  LT, %iterArg, %c_3,  SIGNED : (tensor<i32>, tensor<i32>) -> "
        "tensor<i1>\n"
        "      stablehlo.return %1 : tensor<i1>\n"
        "    } do {\n"
        "      %1:2 = func.call @None(%iterArg_1, %iterArg_2) : (tensor<i32>, tensor<2xf32>) -> "
        "(tensor<i32>, tensor<2xf32>)\n"
        "      %c_3 = stablehlo.constant dense<1> : tensor<i32>\n"
        "      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>\n"
        "      stablehlo.return %2, %1#0, %1#1 : tensor<i32>, tensor<i32>, tensor<2xf32>\n"
        "    }\n"
        "    return %0#2 : tensor<2xf32>\n"
        "  }\n"
        "  func.func private @None(%arg0: tensor<i32>, %arg1: tensor<2xf32>) -> (tensor<i32>, "
        "tensor<2xf32>) {\n"
        "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
        "    %0 = stablehlo.add %arg0, %c : tensor<i32>\n"
        "    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>\n"
        "    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>\n"
        "    %2 = stablehlo.multiply %arg1, %1 : tensor<2xf32>\n"
        "    %3 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>\n"
        "    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<2xf32>\n"
        "    %5 = stablehlo.add %2, %4 : tensor<2xf32>\n"
        "    return %0, %5 : tensor<i32>, tensor<2xf32>\n"
        "  }\n"
        "}\n");
  // i unused: jit's dead-code elimination drops it (no lower constant, no i + 1). Arrays the body
  // closes over are the scan's consts: first in the carry, passed through, first arguments of
  // @None.
  const std::string c = lower_text(fn("    return lax.fori_loop(1, 4, lambda i, x: x @ w, x)",
                                      "jnp.zeros((2, 2)), jnp.ones((2, 2))", "x, w"));
  CHECK_THAT(c, Catch::Matchers::Contains(
                    "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
                    "    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %c, %iterArg_1 = "
                    "%arg0) : tensor<2x2xf32>, tensor<i32>, tensor<2x2xf32>\n"));
  CHECK_THAT(c,
             Catch::Matchers::Contains("      %1 = func.call @None(%iterArg, %iterArg_1) : "
                                       "(tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"));
  CHECK_THAT(c, Catch::Matchers::Contains("      stablehlo.return %iterArg, %2, %1 : "
                                          "tensor<2x2xf32>, tensor<i32>, tensor<2x2xf32>\n"));
  CHECK_THAT(c, Catch::Matchers::Contains("func.func private @None(%arg0: tensor<2x2xf32>, %arg1: "
                                          "tensor<2x2xf32>) -> tensor<2x2xf32> {\n"
                                          "    %0 = stablehlo.dot_general %arg1, %arg0,"));
  // i read only by an op nothing uses is unused too: dead code is no read (the same module).
  CHECK(lower_text(fn("    def body(i, x):\n        unused = i * 2\n        return x @ w\n"
                      "    return lax.fori_loop(1, 4, body, x)",
                      "jnp.zeros((2, 2)), jnp.ones((2, 2))", "x, w")) == c);
  // i passed to a jitted helper that never reads it: pjit's DCE rule prunes the helper's
  // argument, so i is unused (the same module as a helper of x alone).
  CHECK(lower_text(fn("    @jax.jit\n    def h(j, y, v):\n        return y @ v\n"
                      "    return lax.fori_loop(1, 4, lambda i, x: h(i, x, w), x)",
                      "jnp.zeros((2, 2)), jnp.ones((2, 2))", "x, w")) ==
        lower_text(fn("    @jax.jit\n    def h(y, v):\n        return y @ v\n"
                      "    return lax.fori_loop(1, 4, lambda i, x: h(x, w), x)",
                      "jnp.zeros((2, 2)), jnp.ones((2, 2))", "x, w")));
  // An array the body reads only in an op nothing uses is no const of the scan (its DCE rule
  // drops it), nor an argument of @main: the module of a body that never names it.
  CHECK(lower_text(fn("    def body(i, x):\n        unused = w * 2\n        return x @ x\n"
                      "    return lax.fori_loop(1, 4, body, x)",
                      "jnp.zeros((2, 2)), jnp.ones((2, 2))", "x, w")) ==
        lower_text(fn("    return lax.fori_loop(1, 4, lambda i, x: x @ x, x)",
                      "jnp.zeros((2, 2)), jnp.ones((2, 2))", "x, w")));
  // A carry nothing reads after the loop goes, with what only it needs (i, the init y: @main's
  // second argument), as JAX's DCE rule for scan drops it: the module of a loop over x alone.
  const std::string one_carry =
      lower_text(fn("    return lax.fori_loop(0, 3, lambda i, c: c * 2.0, x)",
                    "jnp.zeros(2), jnp.ones(2)", "x, y"));
  CHECK(lower_text(fn(
            "    a, b = lax.fori_loop(0, 3, lambda i, c: (c[0] * 2.0, c[1] + c[0] * i), (x, y))\n"
            "    return a",
            "jnp.zeros(2), jnp.ones(2)", "x, y")) == one_carry);
  // A carry read after the loop keeps those its update reads (b needs a and i), to a fixed point.
  CHECK_THAT(
      lower_text(fn("    a, b = lax.fori_loop(0, 3, lambda i, c: (c[0] * 2.0, c[1] + c[0] * i), "
                    "(x, y))\n    return b",
                    "jnp.zeros(2), jnp.ones(2)", "x, y")),
      Catch::Matchers::Contains("%0:4 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, "
                                "%iterArg_2 = %arg0, %iterArg_3 = %arg1)"));
  // A weakly typed init (0) whose output is float32 is converted first (a float constant).
  CHECK_THAT(
      lower_text(fn("    return lax.fori_loop(0, 2, lambda i, s: s + x.sum(), 0)", "jnp.zeros(3)")),
      Catch::Matchers::Contains(
          "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
          "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
          "    %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c, %iterArg_1 = %cst)"));
  // A def in the file as body_fun, a tuple carry, a nested def closing over the function's names.
  const std::string t = lower_text(
      "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\ndef step(i, c):\n    a, b = c\n "
      "   return a + b, b * 2\n\n"
      "def f(x):\n    k = 3.0\n    def g(i, y):\n        return y * k\n    y = lax.fori_loop(0, 2, "
      "g, x)\n"
      "    return lax.fori_loop(0, 5, step, (y, x))\n\njax.jit(f).lower(jnp.zeros(4))\n");
  CHECK_THAT(t, Catch::Matchers::Contains(
                    "%2:2 = func.call @None_0(%iterArg_1, %iterArg_2) : (tensor<4xf32>, "
                    "tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)"));
  CHECK_THAT(t, Catch::Matchers::Contains(
                    "    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>\n"));
  // No trips: no while; the init is the result.
  CHECK_THAT(
      lower_text(fn("    return lax.fori_loop(3, 3, lambda i, c: c * 2, x)", "jnp.zeros(2)")),
      Catch::Matchers::Contains("  func.func public @main(%arg0: tensor<2xf32>) -> (tensor<2xf32> "
                                "{jax.result_info = \"result\"}) {\n"
                                "    return %arg0 : tensor<2xf32>\n  }\n}\n"));
}

// The printed form of a while (header, cond, do, their returns, the call of the body) equals the
// one JAX prints in the corpus (random_categorical's threefry loop, a fori_loop with static
// bounds), names, types and operand counts aside.
TEST_CASE(
    "jax.nn.gelu(approximate=False) is 0.5 * x * erfc(-x * sqrt(1/2)), chlo.erfc as the corpus "
    "prints it",
    "[python][lower]") {
  CHECK_THAT(
      lower_text(fn("    return jax.nn.gelu(x, approximate=False)", "jnp.zeros(3)")),
      Catch::Matchers::Contains(
          "    %1 = stablehlo.multiply %0, %arg0 : tensor<3xf32>\n"
          "    %2 = stablehlo.negate %arg0 : tensor<3xf32>\n"
          "    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>\n"
          "    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3xf32>\n"
          "    %4 = stablehlo.multiply %2, %3 : tensor<3xf32>\n"
          "    %5 = chlo.erfc %4 : tensor<3xf32> -> tensor<3xf32>\n"
          "    %6 = stablehlo.multiply %1, %5 : tensor<3xf32>\n"));
}

TEST_CASE("lax.fori_loop's while has the corpus's printed form", "[python][lower][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo-interpret");
  const std::string path =
      rl::testing::corpus_dir() + "/stablehlo-interpret/random_categorical_float16_8.mlir";
  const std::string corpus = read_file(path);
  REQUIRE(!corpus.empty());
  auto skeleton = [](const std::string& text) {
    const auto start = text.find(" = stablehlo.while(");
    REQUIRE(start != std::string::npos);
    const auto line_start = text.rfind('\n', start) + 1;
    const auto end = text.find("\n    }\n", start);
    std::string w = text.substr(line_start, end + 7 - line_start);
    const std::pair<const char*, const char*> rules[] = {
        {R"(tensor<[^>]*>)", "T"},
        {R"(dense<[^>]*>)", "dense<N>"},
        {R"(@[A-Za-z_0-9]+)", "@F"},
        {R"(%[A-Za-z_0-9]+(:[0-9]+|#[0-9]+)?)", "%V"},
        {R"(%V = %V(, %V = %V)*)", "%V = %V..."},
        {R"(T(, T)*)", "T..."},
        {R"(%V(, %V)*)", "%V..."}};
    for (auto& [re, to] : rules) w = std::regex_replace(w, std::regex(re), to);
    return w;
  };
  const std::string ours = lower_text(fn(
      "    return lax.fori_loop(0, 5, lambda i, c: (c[0] + i, c[1] * 2), (x, x))", "jnp.zeros(2)"));
  CHECK(skeleton(ours) == skeleton(corpus));
}

TEST_CASE("every lowered module parses and verifies", "[python][lower]") {
  const char* bodies[] = {
      "    return jnp.tanh(x @ x.T) * 0.5", "    return jnp.where(x > 0, x, 0.0).mean()",
      "    h = jax.nn.silu(x)\n    return h.reshape(-1), jnp.sum(h, axis=(0, 1))",
      "    return jnp.matmul(x.reshape(1, 2, 3), x.T)",
      "    return jnp.exp(x - x.max(axis=1, keepdims=True))"};
  for (const char* b : bodies) {
    CAPTURE(b);
    const std::string text = lower_text(fn(b, "jnp.zeros((2, 3))"));
    auto mods = rl::hlo::parse_stablehlo(text);
    INFO((mods.ok() ? text : mods.error()));
    REQUIRE(mods.ok());
    auto v = rl::hlo::verify(mods->front());
    INFO((v.ok() ? "" : v.error()));
    CHECK(v.ok());
  }
}

TEST_CASE("the entry: the first .lower() call, or the first on the named function",
          "[python][lower]") {
  const std::string src =
      "import jax\nimport jax.numpy as jnp\n"
      "def g(x):\n    return x * 2\n"
      "def h(x):\n    return jnp.exp(x)\n"
      "jax.jit(g).lower(jnp.zeros(2))\n"
      "jax.jit(h).lower(jax.ShapeDtypeStruct((3, 4), jnp.float16))\n";
  CHECK_THAT(lower_text(src), Catch::Matchers::StartsWith("module @jit_g "));
  const std::string h = lower_text(src, "h");
  CHECK_THAT(h, Catch::Matchers::StartsWith("module @jit_h "));
  CHECK_THAT(h, Catch::Matchers::Contains("stablehlo.exponential %arg0 : tensor<3x4xf16>"));
  CHECK(lower_error(src, "k") == "1:1: no function named 'k' is defined in the file");
  CHECK_THAT(lower_error("def k(x):\n    return x\n", "k"),
             Catch::Matchers::StartsWith("1:1: the file has no jax.jit(k).lower(...) call"));
  CHECK_THAT(lower_error("x = 1\n"),
             Catch::Matchers::StartsWith("1:1: the file has no jax.jit(f).lower(...) call"));
  // @jax.jit-decorated functions lower with f.lower(...).
  CHECK_THAT(lower_text("import jax\nimport jax.numpy as jnp\n@jax.jit\ndef d(x):\n    return "
                        "-x\nd.lower(jnp.ones(2))\n"),
             Catch::Matchers::Contains("%0 = stablehlo.negate %arg0 : tensor<2xf32>"));
}

TEST_CASE("errors give LINE:COL and JAX's meaning", "[python][errors]") {
  using Row = std::pair<std::string, std::string>;
  auto [src, message] = GENERATE(values<Row>({
      {fn("    return jnp.tanh(a @ b)", "jnp.zeros((32, 16)), jnp.zeros((15, 8))", "a, b"),
       "6:23: dot_general requires contracting dimensions to have the same shape, got (16,) and "
       "(15,)."},
      {fn("    return jnp.foo(x)", "jnp.zeros(3)"),
       "6:12: jnp.foo is not supported here; supported: jnp.abs,"},
      {fn("    return jax.nn.elu(x)", "jnp.zeros(3)"),
       "6:12: jax.nn.elu is not supported here; supported: jax.nn.gelu, jax.nn.log_softmax,"},
      {fn("    return jax.nn.softmax(x, axis=2)", "jnp.zeros((2, 3))"),
       "6:12: axis 2 is out of bounds for array of dimension 2"},
      {fn("    return jax.nn.softmax(x)", "jnp.zeros(3, jnp.int32)"),
       "6:12: jax.nn.softmax here needs a floating-point array, got int32[3]"},
      {fn("    return jax.nn.log_softmax(x, where=x > 0)", "jnp.zeros(3)"),
       "6:12: jax.nn.log_softmax: the argument 'where' is not supported here"},
      {fn("    return jax.nn.logsumexp(x, axis=(0, 0))", "jnp.zeros((2, 3))"),
       "6:12: duplicate value in 'axis': (0, 0)"},
      {fn("    return jnp.clip(min=0)", "jnp.zeros(3)"),
       "6:12: No input was provided to the clip function."},
      {fn("    return jnp.clip(x, y)", "jnp.zeros(3), jnp.zeros(4)", "x, y"),
       "6:12: Incompatible shapes for broadcasting: shapes=[(4,), (3,)]"},
      {fn("    return jnp.prod(x, axis=-3)", "jnp.zeros((2, 3))"),
       "6:12: axis -3 is out of bounds for array of dimension 2"},
      {fn("    return jnp.var(x, axis=1)", "jnp.zeros(3)"),
       "6:12: axis 1 is out of bounds for array of dimension 1"},
      {fn("    return jnp.std(x, ddof='1')", "jnp.zeros(3)"),
       "6:12: jnp.std: ddof must be a number, got str"},
      {fn("    return jnp.outer(x, 'a')", "jnp.zeros(3)"),
       "6:12: outer requires ndarray or scalar arguments, got str"},
      {fn("    return lax.stop_gradient()", "jnp.zeros(3)"),
       "6:12: lax.stop_gradient() missing required argument 'x'"},
      {fn("    return jnp.argmax(x, axis=(0, 1))", "jnp.zeros((2, 3))"),
       "6:12: jnp.argmax: axis must be an int or None, got tuple"},
      {fn("    return jnp.argmin(x, axis=1)", "jnp.zeros((2, 0))"),
       "6:12: attempt to get argmin of an empty sequence"},
      {fn("    return lax.argmax(x, 0, jnp.float32)", "jnp.zeros(3)"),
       "6:12: lax.argmax: index_dtype must be an integer type, got float32"},
      {fn("    return jnp.cumsum(x, axis=2)", "jnp.zeros((2, 3))"),
       "6:12: axis 2 is out of bounds for array of dimension 2"},
      {fn("    return lax.cumprod(x)", "1.0"),
       "6:12: lax.cumprod needs an array of rank 1 or more"},
      {fn("    return jnp.cumsum(x, axis=1)", "jnp.zeros((2, 0))"),
       "6:12: lax.cumsum over an empty axis is not supported here"},
      {fn("    return x.cumsum(dtype=3)", "jnp.zeros(3)"),
       "6:12: jnp.cumsum: dtype must be a dtype such as jnp.float32, got int"},
      {fn("    return lax.add(x, y)", "jnp.zeros(3), jnp.zeros(3, jnp.int32)", "x, y"),
       "6:12: lax.add requires arguments to have the same dtypes, got float32, int32."},
      {fn("    return lax.mul(x, y)", "jnp.zeros((2, 3)), jnp.zeros(3)", "x, y"),
       "6:12: lax.mul: arrays must have same number of dimensions, got (2, 3), (3,)."},
      {fn("    return lax.sub(x, y)", "jnp.zeros((2, 3)), jnp.zeros((2, 2))", "x, y"),
       "6:12: lax.sub got incompatible shapes for broadcasting: (2, 3), (2, 2)."},
      {fn("    return lax.bitwise_and(x, x)", "jnp.zeros(3)"),
       "6:12: lax.bitwise_and does not accept dtype float32. Accepted dtypes are subtypes of "
       "integer, bool."},
      {fn("    return lax.reduce_window(x, 0.0, lax.sub, (2,), (1,), 'VALID')", "jnp.zeros(3)"),
       "6:12: lax.reduce_window: computation must be lax.add, lax.max, lax.min or lax.mul here, "
       "got function"},
      {fn("    return lax.reduce_window(x, 0.0, lax.add, (2,), (1,), 'FULL')", "jnp.zeros(3)"),
       "6:12: Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got FULL."},
      {fn("    return lax.reduce_window(x, 0.0, lax.add, (2, 2), (1,), 'VALID')", "jnp.zeros(3)"),
       "6:12: lax.reduce_window: window_dimensions and window_strides need 1 entries (the "
       "operand's rank), got (2, 2) and (1,)"},
      {fn("    return lax.clamp(0.0, x, y)", "jnp.zeros(3), jnp.zeros(2)", "x, y"),
       "6:12: Arrays passed to clamp must have the same shape as the operand or be scalars, got "
       "operand shape (3,) and bound shape (2,)."},
      {fn("    return lax.reduce_sum(x, (2,))", "jnp.zeros(3)"),
       "6:12: lax.reduce_sum: axes (2,) out of range for an array of rank 1"},
      {fn("    return x // y", "jnp.zeros(3, jnp.bool_), jnp.zeros(3, jnp.bool_)", "x, y"),
       "6:14: floor_divide of bool arrays is not supported here; convert them with "
       ".astype(jnp.int32)"},
      {fn("    return x % y", "jnp.zeros(3), jnp.zeros(4)", "x, y"),
       "6:14: Incompatible shapes for broadcasting: shapes=[(3,), (4,)]"},
      {fn("    return x // 'a'", "jnp.zeros(3)"),
       "6:14: unsupported operand type(s) for //: 'Array float32[3]' and 'str'"},
      {fn("    return jax.nn.one_hot(x, 2.5)", "jnp.zeros(3, jnp.int32)"),
       "6:12: jax.nn.one_hot: num_classes must be a Python int, got float"},
      {fn("    return jax.nn.one_hot(x, 4)", "jnp.zeros(3)"),
       "6:12: jax.nn.one_hot here needs integer class indices, got float32[3]"},
      {fn("    return jax.nn.one_hot(x, 4, axis=3)", "jnp.zeros(3, jnp.int32)"),
       "6:12: axis 3 is out of bounds for array of dimension 2"},
      {fn("    return lax.conv_general_dilated(x, w, (1, 1), 'SAME')",
          "jnp.zeros((1, 3, 5, 5)), jnp.zeros((4, 2, 3, 3))", "x, w"),
       "6:12: conv_general_dilated lhs feature dimension size divided by feature_group_count must "
       "equal the rhs input feature dimension "
       "size, but 3 // 1 != 2."},
      {fn("    return lax.conv_general_dilated(x, w, (1,), 'SAME')",
          "jnp.zeros((1, 3, 5, 5)), jnp.zeros((4, 3, 3, 3))", "x, w"),
       "6:12: lax.conv_general_dilated: window_strides needs 2 entries, got (1,)"},
      {fn("    return lax.conv_general_dilated(x, w, (1, 1), 'SAME', dimension_numbers=('NHWC', "
          "'HWIO'))",
          "jnp.zeros((1, 5, 5, 3)), jnp.zeros((3, 3, 3, 4))", "x, w"),
       "6:12: lax.conv_general_dilated: dimension_numbers must be None or a tuple of three strings "
       "such as ('NHWC', 'HWIO', 'NHWC')"},
      {fn("    return lax.conv(x, w, (1, 1), 'VALID')",
          "jnp.zeros((1, 3, 5, 5)), jnp.zeros((4, 3, 3, 3), jnp.float16)", "x, w"),
       "6:12: lax.conv requires arguments to have the same dtypes, got float32, float16."},
      {fn("    return x + y", "jnp.zeros(3), jnp.zeros(4)", "x, y"),
       "6:14: Incompatible shapes for broadcasting: shapes=[(3,), (4,)]"},
      {fn("    return x.reshape(4, 2)", "jnp.zeros((2, 3))"),
       "6:12: cannot reshape array of shape (2, 3) (size 6) into shape (4, 2) (size 8)"},
      {fn("    return jnp.sum(x, axis=2)", "jnp.zeros((2, 3))"),
       "6:12: axis 2 is out of bounds for array of dimension 2"},
      {fn("    if x > 0:\n        return x\n    return -x", "jnp.zeros(3)"),
       "6:8: TracerBoolConversionError: Attempted boolean conversion of traced array with shape "
       "bool[3]."},
      {fn("    return y", "jnp.zeros(3)"), "6:12: NameError: name 'y' is not defined"},
      {fn("    return x", "jnp.zeros(3), jnp.zeros(3)"),
       "8:1: TypeError: f() takes 1 positional argument but 2 were given"},
      {fn("    return x[::2]", "jnp.zeros(3)"),
       "6:12: a slice with step 2 is a gather in JAX: not supported here yet"},
      {fn("    return x[2::-1]", "jnp.zeros(3)"),
       "6:12: a slice with step -1 is a gather in JAX: not supported here yet"},
      {fn("    return x[::-1, None]", "jnp.zeros(3)"),
       "6:12: indexing with None beside a reversed slice is a gather in JAX: not supported here "
       "yet"},
      {fn("    return lax.rev(x, (0, 0))", "jnp.zeros(3)"),
       "6:12: rev dimensions must be unique, got (0, 0)"},
      {fn("    return x[-1]", "jnp.zeros(3)"),
       "6:12: a negative index (-1) is a dynamic_slice in JAX: not supported here yet; write 2 "
       "instead"},
      {fn("    return x[3]", "jnp.zeros(3)"),
       "6:12: index 3 is out of bounds for axis 0 with size 3"},
      {fn("    return x[0, 0]", "jnp.zeros(3)"),
       "6:12: Too many indices: 1-dimensional array indexed with 2 regular indices."},
      {fn("    return x[x]", "jnp.zeros(3)"),
       "6:12: Indexer must have integer or boolean type, got indexer with type float32 at "
       "position 0"},
      {fn("    return jnp.concatenate([x, y])", "jnp.zeros((2, 3)), jnp.zeros((2, 4))", "x, y"),
       "6:12: Cannot concatenate arrays with shapes that differ in dimensions other than the one "
       "being concatenated: "
       "concatenating along dimension 0 for shapes (2, 3), (2, 4)."},
      {fn("    return lax.dot_general(x, y, (((2,), (1,)), ((5,), (0,))))",
          "jnp.zeros((2, 2, 3)), jnp.zeros((2, 3, 2))", "x, y"),
       "6:12: dot_general requires lhs dimension numbers to be nonnegative and less than the "
       "number of axes of the lhs value, "
       "got lhs_batch of (5,) and lhs_contracting of (2,) for lhs of rank 3"},
      {fn("    return lax.dot_general(x, y, (((1,), (0,)), ((1,), (1,))))",
          "jnp.zeros((2, 3)), jnp.zeros((3, 2))", "x, y"),
       "6:12: dot_general requires lhs batch and contracting dimensions to be distinct, got "
       "lhs_batch (1,) and lhs_contracting (1,)."},
      {fn("    return lax.dot_general(x, y, (((1,), (0,)), ((0,), ())))",
          "jnp.zeros((2, 3)), jnp.zeros((3, 2))", "x, y"),
       "6:12: dot_general requires equal numbers of lhs_batch and rhs_batch dimensions, got "
       "lhs_batch (0,) and rhs_batch ()."},
      {fn("    return jnp.broadcast_to(x, (-2,))", "1.0"),
       "6:12: jnp.broadcast_to: negative dimensions are not allowed, got (-2,)"},
      {fn("    return x", "jnp.zeros((2 ** 62, 2 ** 62))"),
       "8:18: full: dimensions past 2^50 are not supported here"},
      {fn("    return x * y", "jnp.zeros((2 ** 40, 1)), jnp.zeros((1, 2 ** 40))", "x, y"),
       "6:14: broadcasting: arrays of more than 2^62 elements are not supported here"},
      {fn("    return jnp.squeeze(x, axis=1)", "jnp.zeros((2, 3))"),
       "6:12: cannot select an axis to squeeze out which has size not equal to one, got shape=(2, "
       "3) and dimensions=(1,)"},
      {fn("    return jnp.broadcast_to(x, (2, 4))", "jnp.zeros(3)"),
       "6:12: Incompatible shapes for broadcasting: (3,) and requested shape (2, 4)"},
      {fn("    return jnp.einsum('ij,jk->ik', x, y)", "jnp.zeros((2, 3)), jnp.zeros((4, 5))",
          "x, y"),
       "6:12: Size of label 'j' for operand 1 (3) does not match previous terms (4)."},
      {fn("    return jnp.einsum('ij,jk->ik', x)", "jnp.zeros((2, 3))"),
       "6:12: Number of einsum subscripts must be equal to the number of operands."},
      {fn("    return x + len((1, 2) * 2 ** 62)", "jnp.zeros(3)"),
       "6:27: MemoryError: a sequence repeated past 2**24 elements"},
      // scripts/fuzz python's crash: the count times the length overflowed int64 (UB), then a
      // 2^62-trip loop.
      {std::string("2*dimeugbe\354rs=('NHWC', 'NHWC')*2**62"), "1:"},
      {fn("    return jnp.einsum('ij,jk,kl->il', x, x, x)", "jnp.zeros((3, 3))"),
       "6:12: jnp.einsum here takes one or two operands, got 3"},
      {fn("    return jnp.einsum('i1,jk', x, x)", "jnp.zeros((3, 3))"),
       "6:12: Character 1 is not a valid symbol."},
      {fn("    return jnp.einsum('ij,jk->iz', x, x)", "jnp.zeros((3, 3))"),
       "6:12: Output character 'z' did not appear in the input"},
      {fn("    return jnp.einsum('ij,jk->ii', x, x)", "jnp.zeros((3, 3))"),
       "6:12: Output character 'i' appeared more than once in the output."},
      {fn("    return jnp.einsum('ij->i->j', x, x)", "jnp.zeros((3, 3))"),
       "6:12: Subscripts can only contain one '->'."},
      {fn("    return jnp.einsum('ijk,jk', x, x)", "jnp.zeros((3, 3))"),
       "6:12: Einstein sum subscript 'ijk' does not contain the correct number of indices for "
       "operand 0."},
      {fn("    return jnp.einsum('ii,ij', x, x)", "jnp.zeros((3, 4))"),
       "6:12: Size of label 'i' for operand 0 (3) does not match previous terms (4)."},
      {fn("    return jnp.einsum('..i,i', x, x[0])", "jnp.zeros((3, 3))"),
       "6:12: Invalid Ellipses."},
      {fn("    return jnp.einsum('...i.,i', x, x[0])", "jnp.zeros((3, 3))"),
       "6:12: Invalid Ellipses."},
      {fn("    return jnp.einsum('...ijk,i', x, x[0])", "jnp.zeros((3, 3))"),
       "6:12: Ellipses lengths do not match."},
      {fn("    return jnp.einsum('...i,...i,i', x, x[0])", "jnp.zeros((3, 3))"),
       "6:12: Number of einsum subscripts must be equal to the number of operands."},
      {fn("    return jnp.einsum('...i->...i...', x)", "jnp.zeros((3, 3))"),
       "6:12: Output character 'b' appeared more than once in the output."},
      {fn("    return jnp.einsum('ij,jk->i,k', x, x)", "jnp.zeros((3, 3))"),
       "6:12: jnp.einsum: ',' in the output subscripts is not a label"},
      {fn("    return jnp.einsum('ii', x)", "jnp.zeros((2, 3))"),
       "6:12: Size of label 'i' for operand 0 (2) does not match previous terms (3)."},
      {fn("    return jnp.einsum('ij,jk', x, x, out=x)", "jnp.zeros((3, 3))"),
       "6:12: The 'out' argument to jnp.einsum is not supported."},
      {fn("    return jnp.einsum('ij,jk', x, x)", "jnp.zeros((3, 3), jnp.bool_)"),
       "6:12: jnp.einsum of two bool arrays is not supported here"},
      {fn("    return jnp.einsum('ij,jk', x, x, preferred_element_type=jnp.int32)",
          "jnp.zeros((3, 3))"),
       "6:12: jnp.einsum: preferred_element_type int32 for float32 operands is not supported here"},
      {fn("    return jnp.einsum(x, [0, 1])", "jnp.zeros((3, 3))"),
       "6:12: jnp.einsum here needs a subscripts string first (the sublist form is not supported), "
       "got Array float32[3,3]"},
      {fn("    return jnp.eye(-2)", "jnp.zeros(3)"),
       "6:12: negative dimensions are not allowed, got -2 and None"},
      {fn("    return jnp.eye(2, 3.0)", "jnp.zeros(3)"),
       "6:12: jnp.eye: M must be an int, got float"},
      {fn("    return jnp.eye(2, k=x)", "jnp.zeros(3)"),
       "6:12: k must be a scalar integer; got Array float32[3]"},
      {fn("    return lax.fori_loop(0, 4, lambda i, c: c[0], x)", "jnp.zeros((2, 2))"),
       "6:12: scan body function carry input and carry output must have equal types (e.g. shapes "
       "and dtypes of arrays), but they "
       "differ: The input carry component loop_carry[1] has type float32[2,2] but the "
       "corresponding output carry component has "
       "type float32[2], so the shapes do not match. Revise the function"},
      {fn("    return lax.fori_loop(0, 4, lambda i, c: (c[0].astype(jnp.int32), c[1][0]), (x, x))",
          "jnp.zeros((2, 2))"),
       "6:12: scan body function carry input and carry output must have equal types (e.g. shapes "
       "and dtypes of arrays), but they "
       "differ: The input carry component loop_carry[1][0] has type float32[2,2] but the "
       "corresponding output carry component has "
       "type int32[2,2], so the dtypes do not match; the input carry component loop_carry[1][1] "
       "has type float32[2,2] but the "
       "corresponding output carry component has type float32[2], so the shapes do not match."},
      {fn("    return lax.fori_loop(0, 4, lambda i, c: (c, c), x)", "jnp.zeros(2)"),
       "6:12: scan body function carry input and carry output must have the same pytree structure, "
       "but they differ: The input "
       "carry component loop_carry[1] is an array but the corresponding component of the carry "
       "output is a tuple, so their "
       "Python types differ."},
      {fn("    return lax.fori_loop(0, 4, lambda i, c: (c[0],), (x, x))", "jnp.zeros(2)"),
       "6:12: scan body function carry input and carry output must have the same pytree structure, "
       "but they differ: The input "
       "carry component loop_carry[1] is a tuple of length 2 but the corresponding component of "
       "the carry output is a tuple of "
       "length 1, so the lengths do not match."},
      {fn("    return lax.fori_loop(0, 4, 3, x)", "jnp.zeros(2)"),
       "6:12: lax.fori_loop: body_fun argument should be callable."},
      {fn("    return lax.fori_loop(0, x.sum(), lambda i, c: c, x)", "jnp.zeros(2)"),
       "6:12: lax.fori_loop here needs Python int bounds (JAX's scan form), got Array float32[]"},
      {fn("    return lax.fori_loop(0, 4, lambda i: i, x)", "jnp.zeros(2)"),
       "6:12: TypeError: <lambda>() takes 1 positional argument but 2 were given"},
      {fn("    return lax.fori_loop(0, 4, lambda i, c: c + q, x)", "jnp.zeros(2)"),
       "6:49: NameError: name 'q' is not defined"},
      {"import jax\ndef f(x:\n    return x\n", "2:6: '(' was never closed"},
      {"def f(x):\nreturn x\n", "2:1: expected an indented block, found name 'return'"},
      {"x = (1 +\n", "1:5: '(' was never closed"},
      {"x = 1 +\n", "1:8: invalid syntax: expected an expression, found end of line"},
      {"x = 1 $ 2\n", "1:7: invalid character '$'"},
      {"x = 08\n", "1:5: leading zeros in decimal integer literals are not permitted"},
      {"x = 'abc\n", "1:5: unterminated string literal"},
      {"if 1:\n    x = 1\n  y = 2\n", "3:3: unindent does not match any outer indentation level"},
      {"x = 3j\n", "1:5: complex literals are not supported here"},
      {"def f(a, /, b):\n    pass\n",
       "1:10: positional-only parameters ('/') are not supported here"},
  }));
  CAPTURE(src);
  CHECK_THAT(lower_error(src), Catch::Matchers::StartsWith(message));
}

TEST_CASE("deep nesting and big sources are errors, never a crash", "[python][errors]") {
  // 10,000 nested parentheses: the lexer's bracket limit (Python's own is 200).
  CHECK_THAT(lower_error("x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n"),
             Catch::Matchers::EndsWith("too many nested parentheses (the limit is 200)"));
  // 10,000 unary minus signs, 10,000 `not`s and 10,000 `**`: the parser's nesting limit.
  std::string minus = "x = ", nots = "x = ", pows = "x = 2";
  for (int i = 0; i < 10000; ++i) minus += "-", nots += "not ", pows += " ** 2";
  CHECK_THAT(lower_error(minus + "1\n"),
             Catch::Matchers::EndsWith("the program nests deeper than 200 levels"));
  CHECK_THAT(lower_error(nots + "1\n"),
             Catch::Matchers::EndsWith("the program nests deeper than 200 levels"));
  CHECK_THAT(lower_error(pows + "\n"),
             Catch::Matchers::EndsWith("the program nests deeper than 200 levels"));
  // 1,000 nested blocks (10,000 would be 50 MB of indentation).
  std::string blocks;
  for (int i = 0; i < 1000; ++i) blocks += std::string(i, ' ') + "if 1:\n";
  blocks += std::string(1000, ' ') + "pass\n";
  CHECK_THAT(lower_error(blocks),
             Catch::Matchers::EndsWith("the program nests deeper than 200 levels"));
  // A long chain of calls and attributes.
  std::string chain = "x = y";
  for (int i = 0; i < 10000; ++i) chain += ".a";
  CHECK_THAT(lower_error(chain + "\n"),
             Catch::Matchers::EndsWith("the program nests deeper than 200 levels"));
  // Just over 1 MiB.
  CHECK(lower_error(std::string((1 << 20) + 1, '\n')) ==
        "1:1: the program is 1048577 bytes; the limit is 1048576 (1 MiB)");
  // Recursion in the program.
  CHECK_THAT(lower_error(fn("    return f(x)", "jnp.zeros(2)")),
             Catch::Matchers::EndsWith(
                 "RecursionError: maximum recursion depth exceeded (the notebook's limit is 200 "
                 "nested calls)"));
  // A deep expression in a recursive function: bounded over all calls, never a stack overflow.
  std::string deep = "    return " + std::string(150, '-') + "f(x)";
  CHECK_THAT(
      lower_error(fn(deep, "jnp.zeros(2)")),
      Catch::Matchers::EndsWith("RecursionError: maximum recursion depth exceeded (expressions and "
                                "calls nested past 2000 levels)"));
  // A long loop runs out of steps.
  CHECK_THAT(lower_error("while True:\n    pass\n"), Catch::Matchers::Contains("step budget"));
}

TEST_CASE("an empty sequence repeated a huge number of times is empty, at once",
          "[python][lower]") {
  // scripts/fuzz python's timeout: () * 2**55 looped 2^55 times appending nothing.
  CHECK_THAT(lower_text(fn("    return x + len(() * 2 ** 55) + len([] * 2 ** 40)", "jnp.zeros(3)")),
             Catch::Matchers::Contains("@main(%arg0: tensor<3xf32>) -> (tensor<3xf32>"));
  CHECK_FALSE(lower_source("2*imioners=()*2**55", "").ok());
}

// StableHLO's abs and sign take no unsigned integer (the op table's types column; the verifier
// refuses them): as JAX, jnp.abs gives an unsigned array itself and jnp.sign lowers to
// x == 0 ? 0 : 1 (JAX's lowering of lax.sign, as ../shared/corpus/stablehlo-interpret's
// sign_uint64 file prints it), and both modules verify.
TEST_CASE("jnp.abs and jnp.sign of unsigned integers lower as JAX lowers them", "[python][lower]") {
  const std::string abs = lower_text(fn("    return jnp.abs(x)", "jnp.zeros(4, jnp.uint8)"));
  CHECK_THAT(abs, !Catch::Matchers::Contains("stablehlo.abs"));
  CHECK_THAT(abs, Catch::Matchers::Contains("return %arg0 : tensor<4xui8>"));
  const std::string sign = lower_text(fn("    return jnp.sign(x)", "jnp.zeros(4, jnp.uint32)"));
  CHECK_THAT(sign, !Catch::Matchers::Contains("stablehlo.sign"));
  CHECK_THAT(
      sign,
      Catch::Matchers::Contains(
          "    %c = stablehlo.constant dense<0> : tensor<ui32>\n"
          "    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<4xui32>\n"
          "    %1 = stablehlo.compare  EQ, %arg0, %0,  UNSIGNED : (tensor<4xui32>, "
          "tensor<4xui32>) -> tensor<4xi1>\n"
          "    %c_0 = stablehlo.constant dense<0> : tensor<ui32>\n"
          "    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> "
          "tensor<4xui32>\n"
          "    %c_1 = stablehlo.constant dense<1> : tensor<ui32>\n"
          "    %3 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> "
          "tensor<4xui32>\n"
          "    %4 = stablehlo.select %1, %2, %3 : tensor<4xi1>, tensor<4xui32>\n"));
  // The signed form keeps stablehlo.sign.
  CHECK_THAT(lower_text(fn("    return jnp.sign(x)", "jnp.zeros(4, jnp.int32)")),
             Catch::Matchers::Contains("stablehlo.sign %arg0 : tensor<4xi32>"));
  for (const std::string& text : {abs, sign}) {
    auto m = rl::hlo::parse(text);
    REQUIRE(m.ok());
    CHECK(rl::hlo::verify(m->front()).ok());
  }
}

// lower_source is a lowering run of the notebook's evaluator (python/notebook.h): the program's
// Python runs as in the notebook, up to the entry's .lower() call.
// jit prunes what nothing uses before it lowers (pxla._dce_jaxpr with keep_unused=False): a dead
// op, an argument nothing reads, a jitted helper whose value is dropped, and a helper's own dead
// ops and unread arguments are not in the module JAX prints.
TEST_CASE("dead code and unused arguments are left out, as jit leaves them out",
          "[python][lower]") {
  CHECK(lower_text(fn("    dead = jnp.exp(x) * 2.0\n    return x + 1.0", "jnp.ones(2), jnp.ones(3)",
                      "x, y")) ==
        "module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
        "  func.func public @main(%arg0: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = "
        "\"result\"}) {\n"
        "    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
        "    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>\n"
        "    %1 = stablehlo.add %arg0, %0 : tensor<2xf32>\n"
        "    return %1 : tensor<2xf32>\n"
        "  }\n"
        "}\n");
  // Only the second argument read: it is @main's %arg0.
  CHECK_THAT(lower_text(fn("    return jnp.sin(y)", "jnp.ones(2), jnp.ones(3)", "x, y")),
             Catch::Matchers::Contains("@main(%arg0: tensor<3xf32>) ->") &&
                 Catch::Matchers::Contains("stablehlo.sine %arg0 : tensor<3xf32>"));
  const std::string helpers = lower_text(
      "import jax\nimport jax.numpy as jnp\n"
      "@jax.jit\ndef h(z, w):\n    e = jnp.exp(z)\n    return jnp.sin(z)\n"
      "@jax.jit\ndef k(z):\n    return jnp.cos(z)\n"
      "def f(x, y):\n    unused = k(x)\n    return h(x, y) * 2.0\n"
      "jax.jit(f).lower(jnp.ones(2), jnp.ones(3))\n");
  CHECK(helpers.find("@k") == std::string::npos);
  CHECK(helpers.find("exponential") == std::string::npos);
  CHECK_THAT(helpers, Catch::Matchers::Contains("%0 = call @h(%arg0) : (tensor<2xf32>) -> "
                                                "tensor<2xf32>") &&
                          Catch::Matchers::Contains("func.func private @h(%arg0: tensor<2xf32>) "
                                                    "-> tensor<2xf32> {"));
  // A call passes the arguments the module kept: the notebook runs it with all of f's.
  const auto r = rl::python::run_notebook(
      "import jax\nimport jax.numpy as jnp\n"
      "def f(x, y, z):\n    return z * 2.0 + x\n"
      "print(jax.jit(f)(jnp.ones(2), jnp.ones(3), jnp.arange(2.0)))\n"
      "def three(x):\n    return 3\nprint(jax.jit(three)(jnp.ones(2)))\n");
  INFO(r.error);
  CHECK(r.stdout_text == "[1. 3.]\n3\n");
}

TEST_CASE("a lowering run: the notebook's Python, abstract arrays at the top, the entry lowered",
          "[python][lower]") {
  const std::string head = "import time\nimport jax\nimport jax.numpy as jnp\n";
  // jnp's constructors at the top make abstract arrays: any size, no data.
  CHECK_THAT(lower_text(head + "a = jnp.zeros((65536, 65536)).reshape(65536 * 65536) * 2\n"
                               "def f(x):\n    return x + 1\njax.jit(f).lower(a)\n"),
             Catch::Matchers::Contains("@main(%arg0: tensor<4294967296xf32>)"));
  // Plain Python runs: a clock, a while loop, a dict, a class of values in a list; print is quiet.
  CHECK_THAT(lower_text(head + "t0 = time.perf_counter()\nsizes = {'n': 2}\nk = 0\n"
                               "while k < 3:\n    k += 1\n    print(k)\n"
                               "def f(x):\n    return x * sizes['n'] * k\n"
                               "jax.jit(f).lower(jnp.ones((2, 2)))\n"),
             Catch::Matchers::Contains("dense<2.000000e+00>"));
  // Iterating a traced array (and, at the top, an abstract one) slices one row at a time.
  const std::string rows =
      lower_text(head +
                 "z = jnp.zeros((3, 2))\nn = len([r for r in z])\n"
                 "def f(x):\n    acc = x[0] * (n - 3)\n    for r in x:\n        acc = acc + r\n"
                 "    return acc\njax.jit(f).lower(z)\n");
  CHECK(std::regex_search(rows, std::regex("slice %arg0 \\[0:1, 0:2\\][^]*add[^]*slice %arg0 "
                                           "\\[1:2, 0:2\\][^]*add[^]*slice %arg0 \\[2:3")));
  // What follows the entry does not run (it would fail).
  CHECK_THAT(lower_text(head + "def f(x):\n    return -x\njax.jit(f).lower(jnp.ones(2))\n"
                               "raise ValueError('not reached')\n"),
             Catch::Matchers::Contains("stablehlo.negate"));
  // A jitted function is lowered, never called.
  CHECK(lower_error(head + "def f(x):\n    return x\njax.jit(f)(jnp.ones(2))\n") ==
        "6:1: NotImplementedError: calling a jitted function runs it; this tool lowers it "
        "instead: write jax.jit(f).lower(...)");
  // A top-level array inside the traced function would be a constant: refused by name.
  CHECK_THAT(lower_error(head + "w = jnp.ones(2)\ndef f(x):\n    return x + w\n"
                                "jax.jit(f).lower(jnp.ones(2))\n"),
             Catch::Matchers::StartsWith("6:14: an array from outside the traced function"));
}

// Found by review of the lowering run: places after a call returns, in f-strings and finally
// blocks; the dtypes of top-level arrays; what a lowering run may and may not do.
TEST_CASE(
    "a lowering run: error places after calls, in f-strings and finally, and top-level dtypes",
    "[python][lower][errors]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nimport time\n";
  // The place is the caller's again once a function returns.
  const std::string g = "def g(x):\n    return x * 2\n";  // lines 5-6
  CHECK(lower_error(head + "def g(x):\n    return 5\n" +
                    "def f(x):\n    a, b = g(x)\n    return a\n" +
                    "jax.jit(f).lower(jnp.ones(3))\n") ==
        "8:12: TypeError: cannot unpack non-iterable int object");
  CHECK_THAT(lower_error(head + g + "def f(x):\n    if g(x):\n        return x\n    return x\n" +
                         "jax.jit(f).lower(jnp.ones(3))\n"),
             Catch::Matchers::StartsWith("8:8: TracerBoolConversionError"));
  CHECK(lower_error(head + g + "def f(x):\n    y = g(x)\njax.jit(f).lower(jnp.ones(3))\n") ==
        "9:1: f must return arrays (or a tuple of arrays), got None");
  CHECK(lower_error(head + "def deco(n):\n    return n\n@deco(5)\ndef f(x):\n    return x\n") ==
        "7:2: TypeError: 'int' object is not callable");
  // An error in an f-string's field is at the f-string.
  CHECK(lower_error(head + "s = 1\nt = f'value {undefined_name}'\n") ==
        "6:5: NameError: name 'undefined_name' is not defined");
  // A finally block that catches its own exception leaves the first one's place.
  CHECK_THAT(lower_error(head + "def f(x):\n    try:\n        return x + jnp.ones(4)\n"
                                "    finally:\n        try:\n            int('a')\n"
                                "        except ValueError:\n            pass\n"
                                "jax.jit(f).lower(jnp.ones(3))\n"),
             Catch::Matchers::StartsWith("7:18: Incompatible shapes for broadcasting"));
  // A lowering run lowers only the entry: another function's Lowered has no text to give.
  CHECK_THAT(lower_error(head + "def f(x):\n    return x\ndef g(x):\n    return -x\n"
                                "lo = jax.jit(g).lower(jnp.ones(3))\nn = len(lo.as_text())\n"
                                "jax.jit(f).lower(jnp.ones(n))\n",
                         "f"),
             Catch::Matchers::StartsWith("10:9: NotImplementedError: Lowered.as_text of g: this "
                                         "lowering run lowers only the entry, f"));
  // Top-level arrays keep their dtypes: // and % of ints stay int32, a bfloat16 scalar is bf16,
  // a host array meeting an abstract one is abstract too.
  CHECK_THAT(lower_text(head + "v = np.arange(4) // 2 + np.arange(4) % 3\n"
                               "def f(x):\n    return x\njax.jit(f).lower(v)\n"),
             Catch::Matchers::Contains("@main(%arg0: tensor<4xi32>)"));
  CHECK_THAT(lower_text(head + "def f(x):\n    return x\njax.jit(f).lower(jnp.bfloat16(2.0))\n"),
             Catch::Matchers::Contains("@main(%arg0: tensor<bf16>)"));
  CHECK_THAT(lower_text(head + "v = np.ones(3) + np.array([1.0, 2.0, 3.0])\n"
                               "def f(x):\n    return x\njax.jit(f).lower(v)\n"),
             Catch::Matchers::Contains("@main(%arg0: tensor<3xf32>)"));
  // The clock advances, so a rate computed before the .lower() call divides by no zero.
  CHECK_THAT(lower_text(head + "t0 = time.perf_counter()\nrate = 3 / (time.perf_counter() - t0)\n"
                               "def f(x):\n    return x\njax.jit(f).lower(jnp.ones(2))\n"),
             Catch::Matchers::Contains("tensor<2xf32>"));
  // jax.jit of a jitted function is that function jitted; a jnp function may be a loop body.
  CHECK_THAT(
      lower_text(head + "@jax.jit\n@jax.jit\ndef f(x):\n    return -x\nf.lower(jnp.ones(2))\n"),
      Catch::Matchers::Contains("stablehlo.negate"));
  CHECK_THAT(lower_text(head + "from jax import lax\ndef f(x):\n"
                               "    return lax.fori_loop(0, 3, jnp.add, x)\n"
                               "jax.jit(f).lower(jnp.ones(2))\n"),
             Catch::Matchers::Contains("stablehlo.while"));
}

// A jitted helper called while tracing is a private function of its own (pjit), whatever pytree
// it takes and returns: its leaves are the function's arguments and results. JAX's DCE rule for
// pjit drops the results a call leaves unread and the arguments only they read; a pytree
// structure traces on its own; a jitted lambda's function is @"<lambda>", quoted as MLIR prints a
// name that is not a bare identifier.
TEST_CASE("jitted helpers of tuples and lists, and jitted lambdas, inside a jit",
          "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  const std::string pair = lower_text(head +
                                      "@jax.jit\ndef two(x, y):\n    return x * 2, (y + 1, 3.0)\n"
                                      "def f(x, y):\n    a, (b, c) = two(x, y)\n"
                                      "    return a + b * c\n"
                                      "jax.jit(f).lower(jnp.zeros(3), jnp.zeros(3))\n");
  CHECK_THAT(pair, Catch::Matchers::Contains(
                       "    %0:3 = call @two(%arg0, %arg1) : (tensor<3xf32>, tensor<3xf32>) -> "
                       "(tensor<3xf32>, tensor<3xf32>, tensor<f32>)\n"));
  // The helper's weak float result meets a strong array: an identity convert (JAX binds
  // convert_element_type for a weak type's change), then the broadcast.
  CHECK_THAT(pair, Catch::Matchers::Contains("    %1 = stablehlo.convert %0#2 : tensor<f32>\n"
                                             "    %2 = stablehlo.broadcast_in_dim %1, dims = [] : "
                                             "(tensor<f32>) -> tensor<3xf32>\n"
                                             "    %3 = stablehlo.multiply %0#1, %2 : "
                                             "tensor<3xf32>"));
  CHECK_THAT(pair, Catch::Matchers::Contains(
                       "  func.func private @two(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> "
                       "(tensor<3xf32>, tensor<3xf32>, tensor<f32>) {\n"));
  CHECK_THAT(pair, Catch::Matchers::Contains("    return %1, %3, %cst_1 : tensor<3xf32>, "
                                             "tensor<3xf32>, tensor<f32>\n"));
  // Only a read: @two keeps x * 2 and its first argument, @main its first.
  const std::string first = lower_text(head +
                                       "@jax.jit\ndef two(x, y):\n    return x * 2, y + 1\n"
                                       "def f(x, y):\n    a, b = two(x, y)\n    return a\n"
                                       "jax.jit(f).lower(jnp.zeros(3), jnp.zeros(3))\n");
  CHECK_THAT(first, Catch::Matchers::Contains(
                        "    %0 = call @two(%arg0) : (tensor<3xf32>) -> tensor<3xf32>\n"));
  CHECK_THAT(first, Catch::Matchers::Contains(
                        "  func.func private @two(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n"));
  CHECK(first.find("stablehlo.add") == std::string::npos);
  // A tuple and a list of the same arrays: two traces, @h and @h_0; one call of each.
  const std::string trees =
      lower_text(head +
                 "@jax.jit\ndef h(p):\n    w, b = p\n"
                 "    return jnp.tanh(w) + b\n"
                 "def f(w, b):\n    return h((w, b)) * h([w, b]) + h((w, b))\n"
                 "jax.jit(f).lower(jnp.zeros(3), jnp.zeros(3))\n");
  CHECK_THAT(trees, Catch::Matchers::Contains("%0 = call @h(%arg0, %arg1)"));
  CHECK_THAT(trees, Catch::Matchers::Contains("%1 = call @h_0(%arg0, %arg1)"));
  CHECK_THAT(trees, Catch::Matchers::Contains("%3 = call @h(%arg0, %arg1)"));
  CHECK(trees.find("@h_1") == std::string::npos);
  const std::string lam = lower_text(head +
                                     "sq = jax.jit(lambda x: x * x)\n"
                                     "def f(x):\n    return sq(x) + 1\n"
                                     "jax.jit(f).lower(jnp.zeros(3))\n");
  CHECK_THAT(lam, Catch::Matchers::Contains(
                      "    %0 = call @\"<lambda>\"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>\n"));
  CHECK_THAT(lam,
             Catch::Matchers::Contains(
                 "  func.func private @\"<lambda>\"(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n"));
  CHECK_THAT(lower_text(head + "jax.jit(lambda x: -x).lower(jnp.zeros(3))\n"),
             Catch::Matchers::StartsWith("module @jit__lambda_ attributes"));
  // The module parses and runs (the notebook: each jitted call's numbers).
  const auto nb = rl::python::run_notebook(
      head +
      "@jax.jit\ndef two(x, y):\n    return x * 2, (y + 1, 3.0)\n"
      "@jax.jit\ndef f(x, y):\n    a, (b, c) = two(x, y)\n    return a + b * c\n"
      "sq = jax.jit(lambda x: x * x)\n"
      "print(f(jnp.arange(3.0), jnp.ones(3)), jax.jit(lambda x: sq(x) + 1)(jnp.arange(3.0)))\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  CHECK(nb.stdout_text == "[ 6.  8. 10.] [1. 2. 5.]\n");
}

// jnp.sum / prod / mean's dtype= (reductions.py's _reduction: the operand converted to it, the
// result in it; mean's integer dtype divides as integers), and the methods' positions (x.sum(axis,
// dtype, out, keepdims), x.max(axis, out, keepdims)): x.max(0, None, True) keeps dims (the third
// was read as keepdims before only by keyword), and an argument not modelled is refused by name.
TEST_CASE("reductions' dtype= and the methods' positional arguments", "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  const std::string t =
      lower_text(head +
                 "def f(x, i):\n"
                 "    return jnp.sum(i, dtype=jnp.float32), i.sum(0, jnp.float32), "
                 "x.max(0, None, True), jnp.mean(i, dtype=jnp.int32)\n"
                 "jax.jit(f).lower(jnp.zeros((2, 3)), jnp.zeros((2, 3), jnp.int32))\n");
  CHECK_THAT(t, Catch::Matchers::Contains(
                    "    %0 = stablehlo.convert %arg1 : (tensor<2x3xi32>) -> tensor<2x3xf32>\n"
                    "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
                    "    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across "
                    "dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>\n"));
  CHECK_THAT(t, Catch::Matchers::Contains("applies stablehlo.add across dimensions = [0] : "
                                          "(tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>"));
  CHECK_THAT(t,
             Catch::Matchers::Contains(
                 "stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>"));
  CHECK_THAT(t, Catch::Matchers::Contains("    %c_2 = stablehlo.constant dense<6> : tensor<i32>\n"
                                          "    %7 = stablehlo.divide %6, %c_2 : tensor<i32>\n"));
  CHECK_THAT(lower_error(head + "def f(x):\n    return x.sum(where=x > 0)\n"
                                "jax.jit(f).lower(jnp.zeros(3))\n"),
             Catch::Matchers::Contains("sum: where= is not supported here"));
  CHECK_THAT(lower_error(head + "def f(x):\n    return jnp.sum(x, out=x)\n"
                                "jax.jit(f).lower(jnp.zeros(3))\n"),
             Catch::Matchers::Contains("out= is not supported"));
}

// x[idx] with traced integer arrays: JAX's gather (indexing.py's rewriting_take and
// index_to_gather; lax.gather's default mode is PROMISE_IN_BOUNDS, so no fill mask): each index
// array normalized by select, a trailing index-vector dimension, slices of 1 along the indexed
// axes, whole along the others.
TEST_CASE("indexing with integer arrays lowers to JAX's gather", "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  CHECK_THAT(
      lower_text(head + "def f(table, ids):\n    return table[ids]\n"
                        "jax.jit(f).lower(jnp.zeros((4, 3)), jnp.zeros(3, jnp.int32))\n"),
      Catch::Matchers::Contains(
          "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
          "    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>\n"
          "    %1 = stablehlo.compare  LT, %arg1, %0,  SIGNED : (tensor<3xi32>, tensor<3xi32>) -> "
          "tensor<3xi1>\n"
          "    %c_0 = stablehlo.constant dense<4> : tensor<i32>\n"
          "    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3xi32>\n"
          "    %3 = stablehlo.add %arg1, %2 : tensor<3xi32>\n"
          "    %4 = stablehlo.select %1, %3, %arg1 : tensor<3xi1>, tensor<3xi32>\n"
          "    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> "
          "tensor<3x1xi32>\n"
          "    %6 = \"stablehlo.gather\"(%arg0, %5) <{dimension_numbers = "
          "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = "
          "[0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, "
          "3>}> : (tensor<4x3xf32>, "
          "tensor<3x1xi32>) -> tensor<3x3xf32>\n"
          "    return %6 : tensor<3x3xf32>\n"));
  // Two arrays apart: the batch first, one index vector of both (concatenated), the middle axis
  // whole; a None after the gather is a broadcast_in_dim.
  const std::string apart =
      lower_text(head +
                 "def f(x, i, k):\n    return x[i, :, k], x[None, i]\n"
                 "jax.jit(f).lower(jnp.zeros((3, 4, 5)), jnp.zeros(3, jnp.int32), "
                 "jnp.zeros(3, jnp.int32))\n");
  CHECK_THAT(apart, Catch::Matchers::Contains(
                        "%12 = stablehlo.concatenate %10, %11, dim = 1 : (tensor<3x1xi32>, "
                        "tensor<3x1xi32>) -> tensor<3x2xi32>"));
  CHECK_THAT(apart,
             Catch::Matchers::Contains(
                 "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2], "
                 "start_index_map = [0, 2], index_vector_dim = 1>, indices_are_sorted = false, "
                 "slice_sizes = array<i64: "
                 "1, 4, 1>}> : (tensor<3x4x5xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>"));
  CHECK_THAT(apart, Catch::Matchers::Contains("dims = [1, 2, 3] : (tensor<3x4x5xf32>) -> "
                                              "tensor<1x3x4x5xf32>"));
  auto m = rl::hlo::parse_stablehlo(apart);
  REQUIRE(m.ok());
  CHECK(rl::hlo::verify(m->at(0)).ok());
  // Run: the numbers NumPy gives for the same indexing (in bounds, negative indices too).
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.arange(60.0).reshape(3, 4, 5)\ni = jnp.array([2, -1, 0])\n"
      "j = jnp.array([[1, 3], [0, -2]])\nk = jnp.array([4, 0, -5])\n"
      "for name, f in [('x[i]', lambda x, i, j, k: x[i]), ('x[:, j]', lambda x, i, j, k: x[:, "
      "j]),\n"
      "                ('x[i, :, k]', lambda x, i, j, k: x[i, :, k]), ('x[..., k]', lambda x, i, "
      "j, k: x[..., k]),\n"
      "                ('x[None, i]', lambda x, i, j, k: x[None, i]), ('x[i, k[::-1]]', lambda "
      "x, i, j, k: x[i, i + 1]),\n"
      "                ('x[:, None, j, None]', lambda x, i, j, k: x[:, None, j, None]), "
      "('x[i.astype(jnp.uint8)]', lambda x, i, j, k: x[((i + 3) % 3).astype(jnp.uint8)])]:\n"
      "    r = jax.jit(f)(x, i, j, k)\n"
      "    print(name, r.shape, float(r.sum()), r.reshape(-1)[:6])\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  CHECK(nb.stdout_text ==
        "x[i] (3, 4, 5) 2170.0 [40. 41. 42. 43. 44. 45.]\n"
        "x[:, j] (3, 2, 2, 5) 1770.0 [ 5.  6.  7.  8.  9. 15.]\n"
        "x[i, :, k] (3, 4) 426.0 [44. 49. 54. 59. 40. 45.]\n"
        "x[..., k] (3, 4, 3) 1038.0 [4. 0. 0. 9. 5. 5.]\n"
        "x[None, i] (1, 3, 4, 5) 2170.0 [40. 41. 42. 43. 44. 45.]\n"
        "x[i, k[::-1]] (3, 5) 530.0 [55. 56. 57. 58. 59. 40.]\n"
        "x[:, None, j, None] (3, 1, 2, 2, 1, 5) 1770.0 [ 5.  6.  7.  8.  9. 15.]\n"
        "x[i.astype(jnp.uint8)] (3, 4, 5) 2170.0 [40. 41. 42. 43. 44. 45.]\n");
  // What is not modelled is refused by name; a traced bool mask is JAX's own error.
  const std::string f2 = "jax.jit(f).lower(jnp.zeros((3, 4)), jnp.zeros(2, jnp.int32))\n";
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i, 0]\n" + f2),
             Catch::Matchers::Contains("an int or a 0-d index beside an integer array index"));
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i, 1:3]\n" + f2),
             Catch::Matchers::Contains("a partial or strided slice beside an integer array"));
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i, i.reshape(2, 1)]\n" + f2),
             Catch::Matchers::Contains("index arrays of different shapes ((2,) and (2, 1))"));
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i > 0]\n" + f2),
             Catch::Matchers::Contains("Array boolean indices must be concrete; got bool[2]"));
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i * 1.5]\n" + f2),
             Catch::Matchers::Contains("Indexer must have integer or boolean type, got "
                                       "indexer with type float32 at position 0"));
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i, i, i]\n" + f2),
             Catch::Matchers::Contains("Too many indices: 2-dimensional array indexed with 3"));
}

// jax.config.update("jax_enable_x64", True): 64-bit types stay, Python numbers are float64/int64
// (weakly), jnp's defaults are float64/int64; the notebook runs the f64 module. The corpus
// comparison (corpus_lax_test) runs every file with x64 on, as JAX wrote them.
TEST_CASE("jax_enable_x64: the lesson in float64, and what the flag changes", "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  const std::string x64 = "jax.config.update('jax_enable_x64', True)\n";
  const std::string lesson =
      "def workload(a, b):\n    return jnp.tanh(a @ b)\n"
      "a = jnp.arange(32 * 16, dtype=jnp.float64).reshape(32, 16) / 512\n"
      "b = jnp.arange(16 * 8, dtype=jnp.float64).reshape(16, 8) / 128\n"
      "jax.jit(workload).lower(a, b)\n";
  CHECK_THAT(lower_text(head + x64 + lesson),
             Catch::Matchers::Contains(
                 "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], "
                 "precision = [DEFAULT, DEFAULT] : (tensor<32x16xf64>, tensor<16x8xf64>) -> "
                 "tensor<32x8xf64>\n"
                 "    %1 = stablehlo.tanh %0 : tensor<32x8xf64>\n"));
  // Off (the default): float64 is canonicalized to float32.
  CHECK_THAT(lower_text(head + lesson), Catch::Matchers::Contains("tensor<32x8xf32>"));
  // A Python float meets an int64 array as float64; an int sum stays int64; mean is float64.
  const std::string t = lower_text(head + x64 +
                                   "def f(i):\n    return i * 0.5, i.sum(), i.mean()\n"
                                   "jax.jit(f).lower(jnp.arange(3))\n");
  CHECK_THAT(t, Catch::Matchers::Contains("@main(%arg0: tensor<3xi64>) -> (tensor<3xf64>"));
  CHECK_THAT(t, Catch::Matchers::Contains("tensor<i64> {jax.result_info = \"result[1]\"}, "
                                          "tensor<f64> {jax.result_info = \"result[2]\"}"));
  const auto nb = rl::python::run_notebook(
      head + x64 + lesson.substr(0, lesson.rfind("jax.jit")) +
      "print(a.dtype, jnp.arange(3).dtype, (jnp.ones(2) * 2).dtype, jax.config.jax_enable_x64)\n"
      "print(jax.jit(workload)(a, b)[0, :3])\n"
      "print(jax.jit(lambda x, i: x[i] * i)(jnp.arange(3.0), 2))\n"
      "try:\n    jax.config.update('jax_platforms', 'cpu')\nexcept NotImplementedError as e:\n"
      "    print(e)\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  // NumPy 1.24: np.tanh(a @ b)[0, :3] in float64.
  CHECK(nb.stdout_text ==
        "float64 int64 float64 True\n[0.15022164 0.15201088 0.15379913]\n4.0\n"
        "jax.config.update('jax_platforms', ...) is not supported here (jax_enable_x64 is)\n");
  // A new run starts with x64 off again.
  const auto again = rl::python::run_notebook(head + "print(jnp.arange(3).dtype)\n");
  CHECK(again.stdout_text == "int32\n");
}

// A jitted helper is traced once per function object, pytree and argument types with their weak
// types (JAX's cache): two lambdas, two closures of one factory and a user function named like a
// library one are functions of their own; a Python 100 and jnp.int32(100) trace apart.
TEST_CASE("jitted helpers are told apart by function, weak type and pytree", "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.arange(3.0)\ng = jax.jit(lambda a: a + 1)\nh = jax.jit(lambda a: a * 10)\n"
      "print(jax.jit(lambda x: (g(x), h(x)))(x))\n"
      "def make(c):\n    return jax.jit(lambda a: a + c)\n"
      "print(jax.jit(lambda x: (make(1.0)(x), make(2.0)(x)))(x))\n"
      "@jax.jit\ndef relu(a):\n    return a * 100\n"
      "print(jax.jit(lambda x: (jax.nn.relu(x - 1), relu(x)))(x))\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  CHECK(nb.stdout_text ==
        "(Array([1., 2., 3.], dtype=float32), Array([ 0., 10., 20.], dtype=float32))\n"
        "(Array([1., 2., 3.], dtype=float32), Array([2., 3., 4.], dtype=float32))\n"
        "(Array([0., 0., 1.], dtype=float32), Array([  0., 100., 200.], dtype=float32))\n");
  const std::string weak = lower_text(head +
                                      "@jax.jit\ndef k(a, c):\n    return a.astype(jnp.int8) + c\n"
                                      "def f(x):\n    return k(x, 100), k(x, jnp.int32(100))\n"
                                      "jax.jit(f).lower(jnp.zeros(2))\n");
  CHECK_THAT(weak, Catch::Matchers::Contains("call @k(%arg0, %c) : (tensor<2xf32>, tensor<i32>) -> "
                                             "tensor<2xi8>"));
  CHECK_THAT(weak,
             Catch::Matchers::Contains("call @k_0(%arg0, %c_0) : (tensor<2xf32>, tensor<i32>) "
                                       "-> tensor<2xi32>"));
  const std::string two = lower_text(head +
                                     "g = jax.jit(lambda a: a + 1)\nh = jax.jit(lambda a: a * 10)\n"
                                     "def f(x):\n    return g(x), h(x), g(x)\n"
                                     "jax.jit(f).lower(jnp.zeros(3))\n");
  CHECK_THAT(two, Catch::Matchers::Contains("%0 = call @\"<lambda>\"(%arg0)"));
  CHECK_THAT(two, Catch::Matchers::Contains("%1 = call @\"<lambda>_0\"(%arg0)"));
  CHECK_THAT(two, Catch::Matchers::Contains("%2 = call @\"<lambda>\"(%arg0)"));
}

// Review mends: the index dtype must hold the axis size (JAX's lax._const), an axis of size 0
// cannot be gathered from; the traced var/std/argmax/argmin take NumPy's positions and refuse
// what they do not model; an eager jnp reduction takes a list of axes.
TEST_CASE("gather's index dtype and empty axes, reductions' positions", "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[i.astype(jnp.int8)]\n"
                                "jax.jit(f).lower(jnp.zeros(200), jnp.zeros(1, jnp.int32))\n"),
             Catch::Matchers::Contains("Python integer 200 out of bounds for int8"));
  CHECK_THAT(lower_error(head + "def f(x, i):\n    return x[:, i]\n"
                                "jax.jit(f).lower(jnp.zeros((3, 0)), jnp.zeros(2, jnp.int32))\n"),
             Catch::Matchers::Contains("index is out of bounds for axis 1 with size 0"));
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.array([1.5, 2.5, 3.7, 4.2])\n"
      "print(jax.jit(lambda x: x.var(0, None, None, 1))(x), "
      "jax.jit(lambda x: x.reshape(2, 2).argmax(0, None, True))(x).shape, "
      "jax.jit(lambda x: jnp.argmin(x.reshape(2, 2), 1, None, True))(x).shape)\n"
      "for f in [lambda x: x.std(where=x > 2), lambda x: x.var(out=x), lambda x: x.var(0, "
      "jnp.int32), lambda x: x.var(0, None, None, 1, False, 3)]:\n"
      "    try:\n        jax.jit(f)(x)\n    except Exception as e:\n"
      "        print(type(e).__name__, e)\n"
      "print(jnp.sum(x, axis=[0]), jax.jit(lambda x: jnp.sum(x, axis=[0]))(x))\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  CHECK(nb.stdout_text ==
        "1.475833 (1, 2) (2, 1)\n"
        "NotImplementedError std: where= is not supported here\n"
        "NotImplementedError var: out= is not supported here (JAX arrays are immutable)\n"
        "NotImplementedError var: dtype= is not supported here\n"
        "TypeError var() takes from 0 to 5 positional arguments but 6 were given\n"
        "11.9 11.9\n");
}

// x[i] with a traced scalar index is JAX's dynamic_slice (_attempt_rewriting_take_via_slice): the
// index normalized by select, the other starts constants, the indexed axes squeezed by a reshape;
// lax.dynamic_slice, lax.dynamic_update_slice and lax.pad as the corpus shows them (the corpus
// comparison covers those three).
TEST_CASE("a traced scalar index is a dynamic_slice, and lax.dynamic_slice, update and pad",
          "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n";
  CHECK_THAT(
      lower_text(head + "def f(x, i):\n    return x[i, 1:3]\n"
                        "jax.jit(f).lower(jnp.zeros((3, 4)), 2)\n"),
      Catch::Matchers::Contains(
          "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
          "    %0 = stablehlo.compare  LT, %arg1, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> "
          "tensor<i1>\n"
          "    %c_0 = stablehlo.constant dense<3> : tensor<i32>\n"
          "    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>\n"
          "    %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>\n"
          "    %c_1 = stablehlo.constant dense<1> : tensor<i32>\n"
          "    %3 = stablehlo.dynamic_slice %arg0, %2, %c_1, sizes = [1, 2] : (tensor<3x4xf32>, "
          "tensor<i32>, tensor<i32>) -> tensor<1x2xf32>\n"
          "    %4 = stablehlo.reshape %3 : (tensor<1x2xf32>) -> tensor<2xf32>\n"));
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.arange(12.0).reshape(3, 4)\n"
      "f = jax.jit(lambda x, i: (x[i], x[i, 1:3], x[1, i], x[..., i]))\n"
      "print(f(x, -1))\n"
      "print(jax.jit(lambda x, i: lax.dynamic_slice(x, (i, 1), (2, 2)))(x, 1))\n"
      "print(jax.jit(lambda x, u, i: lax.dynamic_update_slice(x, u, (0, i)))(x, "
      "jnp.ones((2, 2)), -2))\n"
      "print(jax.jit(lambda x: lax.pad(x, 0.0, ((1, 0, 0), (0, -1, 1))))(x))\n"
      "for g in [lambda x, i: x[i, None], lambda x, i: x[i, ::2], lambda x, i: x[i, -1],\n"
      "          lambda x, i: lax.dynamic_slice(x, (i, 0), (4, 1)),\n"
      "          lambda x, i: lax.pad(x, 0, ((0, 0, 0), (0, 0, 0)))]:\n"
      "    try:\n        jax.jit(g)(x, 1)\n    except Exception as e:\n"
      "        print(type(e).__name__, e)\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  // NumPy 1.24: x[-1], x[-1, 1:3], x[1, -1], x[..., -1]; x[1:3, 1:3]; the update; np.pad's.
  CHECK(nb.stdout_text ==
        "(Array([ 8.,  9., 10., 11.], dtype=float32), Array([ 9., 10.], dtype=float32), "
        "Array(7., dtype=float32), Array([ 3.,  7., 11.], dtype=float32))\n"
        "[[ 5.  6.]\n [ 9. 10.]]\n"
        "[[ 0.  1.  1.  1.]\n [ 4.  5.  1.  1.]\n [ 8.  9. 10. 11.]]\n"
        "[[ 0.  0.  0.  0.  0.  0.]\n [ 0.  0.  1.  0.  2.  0.]\n [ 4.  0.  5.  0.  6.  0.]\n"
        " [ 8.  0.  9.  0. 10.  0.]]\n"
        "NotImplementedError None beside a traced index is a gather in JAX: not supported here "
        "yet\n"
        "NotImplementedError a slice with step 2 beside a traced index is a gather in JAX: not "
        "supported here yet\n"
        "NotImplementedError index -1 for axis 1 of size 4 beside a traced index is not supported "
        "here (write it as a nonnegative index in range)\n"
        "TypeError dynamic_slice slice_sizes must be less than or equal to operand shape, got "
        "slice_sizes (4, 1) for operand shape (3, 4).\n"
        "TypeError pad operand and padding_value must be same dtype: got float32 and int32.\n");
}

// lax.atan/asin/erf/erf_inv/lgamma/digamma/bessel_i1e lower to CHLO, lax.acos through acos_impl's
// expansion, lax.nextafter to chlo.next_after, lax.bitcast_convert_type and reduce_precision to
// their ops (the corpus comparison checks each against JAX's text); jnp.arctan/arcsin/arccos are
// lax's. The notebook runs them.
TEST_CASE("CHLO's special functions, acos's expansion, bitcast and reduce_precision",
          "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n";
  const std::string t = lower_text(head +
                                   "def f(x):\n    return jnp.arctan(x), lax.nextafter(x, x), "
                                   "lax.reduce_precision(x, 5, 10)\n"
                                   "jax.jit(f).lower(jnp.zeros(3))\n");
  CHECK_THAT(t, Catch::Matchers::Contains(
                    "%0 = chlo.atan %arg0 : tensor<3xf32> -> tensor<3xf32>\n"
                    "    %1 = chlo.next_after %arg0, %arg0 : tensor<3xf32>, tensor<3xf32> -> "
                    "tensor<3xf32>\n"
                    "    %2 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<3xf32>\n"));
  CHECK_THAT(lower_text(head + "def f(x):\n    return jnp.arccos(x)\n"
                               "jax.jit(f).lower(jnp.zeros(3))\n"),
             Catch::Matchers::Contains(
                 "    %8 = stablehlo.atan2 %5, %7 : tensor<3xf32>\n"
                 "    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>\n"));
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.array([-0.9, -0.5, 0.0, 0.3])\n"
      "s = jax.jit(lambda x: jnp.arcsin(x) + jnp.arccos(x))(x)\n"
      "print(bool(jnp.abs(s - 1.5707964).max() < 1e-6))\n"
      "print(jax.jit(lambda x: lax.bitcast_convert_type(x, jnp.int32))(jnp.array([1.0, "
      "-2.0])))\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  // asin + acos = pi/2; NumPy's float32 bit patterns of 1.0 and -2.0.
  CHECK(nb.stdout_text == "True\n[ 1065353216 -1073741824]\n");
}

// x ** n for |n| >= 4 (and n <= -3) is a private @integer_pow (JAX's _integer_pow_lowering caches
// the general case), 2 and 3 inline multiplies, -2 inline with its 1 / x^2; the corpus
// comparison checks the @integer_pow form against JAX's.
TEST_CASE("integer powers: inline for 2, 3 and -2, a private @integer_pow past them",
          "[python][lower]") {
  const std::string t = lower_text(
      "import jax\nimport jax.numpy as jnp\n"
      "def f(x):\n    return x ** 3, x ** 5, x ** -2, x ** 5\n"
      "jax.jit(f).lower(jnp.zeros(2))\n");
  CHECK_THAT(t,
             Catch::Matchers::Contains("    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2xf32>\n"
                                       "    %1 = stablehlo.multiply %0, %arg0 : tensor<2xf32>\n"
                                       "    %2 = call @integer_pow(%arg0) : (tensor<2xf32>) -> "
                                       "tensor<2xf32>\n"));
  CHECK_THAT(t, Catch::Matchers::Contains("stablehlo.divide"));
  CHECK_THAT(t, Catch::Matchers::Contains("    %6 = call @integer_pow(%arg0)"));
  CHECK_THAT(t, Catch::Matchers::Contains(
                    "  func.func private @integer_pow(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
                    "    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2xf32>\n"
                    "    %1 = stablehlo.multiply %0, %0 : tensor<2xf32>\n"
                    "    %2 = stablehlo.multiply %arg0, %1 : tensor<2xf32>\n"
                    "    return %2 : tensor<2xf32>\n"));
  CHECK(t.find("@integer_pow_0") == std::string::npos);
  const auto nb = rl::python::run_notebook(
      "import jax\nimport jax.numpy as jnp\n"
      "print(jax.jit(lambda x: (x ** 5, x ** -3))(jnp.array([2.0, "
      "-1.5])))\n");
  CAPTURE(nb.error);
  // NumPy 1.24: np.float32([2, -1.5]) ** 5 and ** -3.
  CHECK(nb.stdout_text ==
        "(Array([32.     , -7.59375], dtype=float32), Array([ 0.125    , "
        "-0.2962963], dtype=float32))\n");
}

// Second review's mends: with x64 on, eager JAX arrays keep 64 bits too (promotion, jnp.array,
// Python numbers), an int32 input to a float function is float32 (to_inexact_dtype), and a jitted
// function is traced again after the flag changes; integer powers refuse negative exponents on
// ints and promote bools; lax.nextafter takes floats only; constants that do not fit the index
// dtype are JAX's OverflowError (a start of 2**40 fits int64 with x64 on, and clamps). Expected
// values: JAX's rules, numbers from NumPy.
TEST_CASE("x64 on the host, to_inexact, retracing, integer_pow and index overflows",
          "[python][lower]") {
  const auto nb = rl::python::run_notebook(
      "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n"
      "g = jax.jit(lambda: jnp.arange(3) / 3)\nprint(g().dtype)\n"
      "jax.config.update('jax_enable_x64', True)\n"
      "x = jnp.arange(3.0) / 3\na = jnp.arange(3) * 2**40\n"
      "print(repr(x + x))\nprint(repr(a + a))\n"
      "print(repr(jnp.array(0.1)), repr(jnp.array([2**40, 1])), (jnp.ones(2, dtype=jnp.float32) + "
      "jnp.ones(2)).dtype)\n"
      "i = jnp.arange(4, dtype=jnp.int32)\n"
      "print(g().dtype, jax.jit(lambda a: a / 2)(i).dtype, jnp.mean(i).dtype, jax.jit(jnp.var)(i) "
      "if False else jax.jit(lambda a: jnp.var(a))(i).dtype)\n"
      "for f in [lambda: jax.jit(lambda a: a ** -3)(jnp.array([1, 2])), lambda: lax.nextafter(i, "
      "i),\n"
      "          lambda: jax.jit(lambda a: a + 2**63)(a), lambda: lax.dynamic_slice(x, (2**40,), "
      "(1,))]:\n"
      "    try:\n        f()\n    except Exception as e:\n        print(type(e).__name__, e)\n"
      "print(jax.jit(lambda b: b ** 4)(jnp.array([True, False])))\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  CHECK(nb.stdout_text ==
        "float32\n"
        "Array([0.        , 0.66666667, 1.33333333], dtype=float64)\n"
        "Array([            0, 2199023255552, 4398046511104], dtype=int64)\n"
        "Array(0.1, dtype=float64) Array([1099511627776,             1], dtype=int64) float64\n"
        "float64 float32 float32 float64\n"
        "TypeError Integers cannot be raised to negative powers, got integer_pow(int64[2], -3)\n"
        "TypeError lax.nextafter does not accept dtype int32. Accepted dtypes are subtypes of "
        "floating.\n"
        "OverflowError Python int 9223372036854775808 too large to convert to int64\n"
        "[1 0]\n");
}

// x.at[...] as JAX's _scatter_update lowers it (jax/_src/ops/scatter.py, _index_to_gather): the
// index's ops, the values broadcast to the slice, a scatter whose indices are sorted and unique
// when no index array is among them; the notebook runs each update as NumPy computes it in place.
TEST_CASE("x.at[...] updates lower to JAX's scatters and run as NumPy's in-place updates",
          "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n";
  const std::string scatter_set =
      ": tensor<f32>):\n"
      "      stablehlo.return %arg4 : tensor<f32>\n";
  // A static int: its constant and expand_dims.
  CHECK_THAT(lower_text(head + "jax.jit(lambda x, v: x.at[2].set(v)).lower(jnp.zeros(5), 1.0)\n"),
             Catch::Matchers::Contains(
                 "    %c = stablehlo.constant dense<2> : tensor<i32>\n"
                 "    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> "
                 "tensor<1xi32>\n"
                 "    %1 = stablehlo.convert %arg1 : tensor<f32>\n"
                 "    %2 = \"stablehlo.scatter\"(%arg0, %0, %1) <{indices_are_sorted = true, "
                 "scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
                 "scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({\n"));
  // Two ints: each broadcast, then concatenated; add's region.
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x, v: x.at[1, 2].add(v)).lower(jnp.zeros((4, 3)), 1.0)\n"),
      Catch::Matchers::Contains(
          "    %c_0 = stablehlo.constant dense<2> : tensor<i32>\n"
          "    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1xi32>\n"
          "    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> "
          "tensor<2xi32>\n"
          "    %3 = stablehlo.convert %arg1 : tensor<f32>\n"
          "    %4 = \"stablehlo.scatter\"(%arg0, %2, %3) <{indices_are_sorted = true, "
          "scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], "
          "scatter_dims_to_operand_dims = [0, 1]>, unique_indices = true}> ({\n"
          "    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):\n"
          "      %5 = stablehlo.add %arg2, %arg3 : tensor<f32>\n"));
  // A partial slice: its start gathered, the values broadcast to the slice's shape.
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x, v: x.at[1:3].set(v)).lower(jnp.zeros((4, 3)), 1.0)\n"),
      Catch::Matchers::Contains(
          "    %1 = stablehlo.convert %arg1 : tensor<f32>\n"
          "    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> "
          "tensor<2x3xf32>\n"
          "    %3 = \"stablehlo.scatter\"(%arg0, %0, %2) <{indices_are_sorted = true, "
          "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], "
          "scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({\n"));
  // Whole slices only: no index at all, a constant tensor<0xi32> (a closed-over constant).
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x, v: x.at[:].set(v)).lower(jnp.zeros(5), 1.0)\n"),
      Catch::Matchers::Contains(
          "    %c = stablehlo.constant dense<> : tensor<0xi32>\n"
          "    %0 = stablehlo.convert %arg1 : tensor<f32>\n"
          "    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<5xf32>\n"
          "    %2 = \"stablehlo.scatter\"(%arg0, %c, %1) <{indices_are_sorted = true, "
          "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0]>, "
          "unique_indices = true}> ({\n"));
  // A negative int: lax.add of the two Python ints, staged, then the convert to the index dtype.
  CHECK_THAT(lower_text(head + "jax.jit(lambda x, v: x.at[-1].set(v)).lower(jnp.zeros(5), 1.0)\n"),
             Catch::Matchers::Contains("    %c = stablehlo.constant dense<-1> : tensor<i32>\n"
                                       "    %c_0 = stablehlo.constant dense<5> : tensor<i32>\n"
                                       "    %0 = stablehlo.add %c, %c_0 : tensor<i32>\n"
                                       "    %1 = stablehlo.convert %0 : tensor<i32>\n"));
  // A traced index: normalized by select, as x[i] is.
  CHECK_THAT(lower_text(head + "jax.jit(lambda x, i, v: x.at[i].set(v)).lower(jnp.zeros(5), "
                               "jnp.int32(1), jnp.float32(1.0))\n"),
             Catch::Matchers::Contains(
                 "    %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>\n"
                 "    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> "
                 "tensor<1xi32>\n"
                 "    %4 = \"stablehlo.scatter\"(%arg0, %3, %arg2) <{indices_are_sorted = true, "
                 "scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
                 "scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({\n"
                 "    ^bb0(%arg3: tensor<f32>, %arg4" +
                 scatter_set));
  // An index array: a gather's index; the scatter's indices neither sorted nor unique.
  CHECK_THAT(lower_text(head + "jax.jit(lambda x, i: x.at[i].add(1.0)).lower(jnp.zeros((5, 2)), "
                               "jnp.zeros(3, jnp.int32))\n"),
             Catch::Matchers::Contains(
                 "    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> "
                 "tensor<3x1xi32>\n"
                 "    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
                 "    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> "
                 "tensor<3x2xf32>\n"
                 "    %7 = \"stablehlo.scatter\"(%arg0, %5, %6) <{scatter_dimension_numbers = "
                 "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], "
                 "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"));
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.arange(12.0).reshape(4, 3)\n"
      "print(x.at[1, 2].add(100.))\nprint(x.at[:, 0].set(-1))\nprint(x.at[::2].multiply(2))\n"
      "print(x.at[::-1, 1].set(jnp.array([1., 2, 3, 4])))\nprint(x.at[-1].set(7))\n"
      "print(x.at[jnp.array([0, 0, 3])].add(1))\nprint(x.at[1].get(), x.at[2:2].set(5).sum())\n"
      "print(x.at[0].divide(2), x.at[0, 0].power(2))\n"
      "print(jax.jit(lambda x, i: x.at[i].set(0.))(x, -1))\n"
      "print(jax.jit(lambda x, i: x.at[:, None, i].min(-5.))(x, 1))\n"
      "i = jnp.arange(5)\nprint(i.at[1].set(2.7), i.at[np.array([1, 3])].max(10))\n"
      "for g in [lambda: x.at[[0, 1]].set(1), lambda: x.at[0].set(1, mode='clip'),\n"
      "          lambda: x.at[0].foo, lambda: x.at[0].set(),\n"
      "          lambda: jnp.zeros(3, bool).at[0].add(True), lambda: x.at[0].set(jnp.ones(4)),\n"
      "          lambda: np.zeros(3).at, lambda: x.at(1), lambda: x.at[0][1]]:\n"
      "    try:\n        print(g())\n    except Exception as e:\n"
      "        print(type(e).__name__, str(e)[:50])\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  // NumPy 1.24's in-place equivalents (y = x.copy(); y[...] = ..., np.add.at for repeats).
  CHECK(nb.stdout_text ==
        "[[  0.   1.   2.]\n [  3.   4. 105.]\n [  6.   7.   8.]\n [  9.  10.  11.]]\n"
        "[[-1.  1.  2.]\n [-1.  4.  5.]\n [-1.  7.  8.]\n [-1. 10. 11.]]\n"
        "[[ 0.  2.  4.]\n [ 3.  4.  5.]\n [12. 14. 16.]\n [ 9. 10. 11.]]\n"
        "[[ 0.  4.  2.]\n [ 3.  3.  5.]\n [ 6.  2.  8.]\n [ 9.  1. 11.]]\n"
        "[[0. 1. 2.]\n [3. 4. 5.]\n [6. 7. 8.]\n [7. 7. 7.]]\n"
        "[[ 2.  3.  4.]\n [ 3.  4.  5.]\n [ 6.  7.  8.]\n [10. 11. 12.]]\n"
        "[3. 4. 5.] 66.0\n"
        "[[ 0.   0.5  1. ]\n [ 3.   4.   5. ]\n [ 6.   7.   8. ]\n [ 9.  10.  11. ]] "
        "[[ 0.  1.  2.]\n [ 3.  4.  5.]\n [ 6.  7.  8.]\n [ 9. 10. 11.]]\n"
        "[[0. 1. 2.]\n [3. 4. 5.]\n [6. 7. 8.]\n [0. 0. 0.]]\n"
        "[[ 0. -5.  2.]\n [ 3. -5.  5.]\n [ 6. -5.  8.]\n [ 9. -5. 11.]]\n"
        "[0 2 2 3 4] [ 0 10  2 10  4]\n"
        "TypeError Using a non-tuple sequence for multidimensional in\n"
        "NotImplementedError _IndexUpdateRef.set: mode='clip' (indices clamped \n"
        "AttributeError '_IndexUpdateRef' object has no attribute 'foo' (h\n"
        "TypeError _IndexUpdateRef.set() missing 1 required positiona\n"
        "TypeError add does not accept dtype bool. Accepted dtypes ar\n"
        "ValueError Incompatible shapes for broadcasting: (4,) and req\n"
        "AttributeError 'numpy.ndarray' object has no attribute 'at'\n"
        "TypeError '_IndexUpdateHelper' object is not callable\n"
        "TypeError '_IndexUpdateRef' object is not subscriptable\n");
}

// jnp.flip/fliplr/flipud (a private @_flip), roll (@_roll_static: slices and a concatenate),
// split/array_split (a slice per piece), tile (reshape, broadcast_to, reshape) and pad (mode
// 'constant': a private @_pad converting the value, then lax.pad); concrete boolean masks in x[m]
// and x.at[m] (jnp's _expand_bool_indices: their nonzero positions); ::-1 in x.at[] gathered as
// mid-2024's _index_to_gather does. Numbers from NumPy 1.24's equivalents.
TEST_CASE("jnp.flip, roll, split, tile and pad, concrete masks and reversed slices in x.at",
          "[python][lower]") {
  const std::string head = "import numpy as np\nimport jax\nimport jax.numpy as jnp\n";
  CHECK_THAT(lower_text(head + "jax.jit(lambda x: jnp.flip(x, 1)).lower(jnp.zeros((4, 3)))\n"),
             Catch::Matchers::Contains(
                 "    %0 = call @_flip(%arg0) : (tensor<4x3xf32>) -> tensor<4x3xf32>\n"
                 "    return %0 : tensor<4x3xf32>\n  }\n"
                 "  func.func private @_flip(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {\n"
                 "    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<4x3xf32>\n"));
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x: jnp.roll(x, 1, axis=0)).lower(jnp.zeros((4, 3)))\n"),
      Catch::Matchers::Contains(
          "  func.func private @_roll_static(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {\n"
          "    %0 = stablehlo.slice %arg0 [3:4, 0:3] : (tensor<4x3xf32>) -> tensor<1x3xf32>\n"
          "    %1 = stablehlo.slice %arg0 [0:3, 0:3] : (tensor<4x3xf32>) -> tensor<3x3xf32>\n"
          "    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<1x3xf32>, tensor<3x3xf32>) -> "
          "tensor<4x3xf32>\n"));
  CHECK_THAT(lower_text(head + "jax.jit(lambda x: jnp.pad(x, 1)).lower(jnp.zeros((4, 3)))\n"),
             Catch::Matchers::Contains(
                 "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
                 "    %0 = call @_pad(%arg0, %c) : (tensor<4x3xf32>, tensor<i32>) -> "
                 "tensor<6x5xf32>\n"
                 "    return %0 : tensor<6x5xf32>\n  }\n"
                 "  func.func private @_pad(%arg0: tensor<4x3xf32>, %arg1: tensor<i32>) -> "
                 "tensor<6x5xf32> {\n"
                 "    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>\n"
                 "    %1 = stablehlo.pad %arg0, %0, low = [1, 1], high = [1, 1], interior = [0, 0] "
                 ": (tensor<4x3xf32>, tensor<f32>) -> tensor<6x5xf32>\n"));
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x: jnp.tile(x, 2)).lower(jnp.zeros((4, 3)))\n"),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.reshape %arg0 : (tensor<4x3xf32>) -> tensor<1x4x1x3xf32>\n"
          "    %1 = stablehlo.reshape %0 : (tensor<1x4x1x3xf32>) -> tensor<1x4x3xf32>\n"
          "    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 3] : (tensor<1x4x3xf32>) -> "
          "tensor<1x4x2x3xf32>\n"
          "    %3 = stablehlo.reshape %2 : (tensor<1x4x2x3xf32>) -> tensor<4x6xf32>\n"));
  // x.at[::-1]: start + step * iota, reversed, and the values reversed.
  CHECK_THAT(lower_text(head + "jax.jit(lambda x, v: x.at[::-1].set(v)).lower(jnp.zeros((3, 2)), "
                               "jnp.ones((3, 2)))\n"),
             Catch::Matchers::Contains(
                 "    %0 = stablehlo.iota dim = 0 : tensor<3xi32>\n"
                 "    %c = stablehlo.constant dense<-1> : tensor<i32>\n"
                 "    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> "
                 "tensor<3xi32>\n"
                 "    %2 = stablehlo.multiply %1, %0 : tensor<3xi32>\n"
                 "    %c_0 = stablehlo.constant dense<2> : tensor<i32>\n"
                 "    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> "
                 "tensor<3xi32>\n"
                 "    %4 = stablehlo.add %3, %2 : tensor<3xi32>\n"
                 "    %5 = stablehlo.reverse %4, dims = [0] : tensor<3xi32>\n"
                 "    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<3xi32>) -> "
                 "tensor<3x1xi32>\n"
                 "    %7 = stablehlo.reverse %arg1, dims = [0] : tensor<3x2xf32>\n"));
  // A weak (Python int) traced index: normalized it is strong, no convert; a NumPy integer
  // scalar is static, as a Python int.
  const std::string weak =
      lower_text(head + "jax.jit(lambda x, i: x.at[i].set(2.)).lower(jnp.zeros(5), 1)\n");
  CHECK_THAT(weak, Catch::Matchers::Contains(
                       "    %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>\n"
                       "    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> "
                       "tensor<1xi32>\n"));
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x: x.at[np.int32(2)].set(1.)).lower(jnp.zeros(5))\n"),
      Catch::Matchers::StartsWith(
          "module @jit__lambda_ attributes {mhlo.num_partitions = 1 : i32, "
          "mhlo.num_replicas = 1 : i32} {\n"
          "  func.func public @main(%arg0: tensor<5xf32>) -> (tensor<5xf32> "
          "{jax.result_info = \"result\"}) {\n"
          "    %c = stablehlo.constant dense<2> : tensor<i32>\n"
          "    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> "
          "tensor<1xi32>\n"));
  // Host index and values: the values meet the trace first (_scatter_update's jnp.asarray(y)).
  CHECK_THAT(lower_text(head + "vals = np.array([5., 6.])\nidx = np.array([0, 2])\n"
                               "jax.jit(lambda x: x.at[idx].set(vals)).lower(jnp.zeros(3))\n"),
             Catch::Matchers::Contains(
                 "    %cst = stablehlo.constant dense<[5.000000e+00, 6.000000e+00]> : "
                 "tensor<2xf32>\n"
                 "    %c = stablehlo.constant dense<[0, 2]> : tensor<2xi32>\n"));
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.arange(12.0).reshape(4, 3)\n"
      "f = jax.jit(lambda x: (jnp.flip(x), jnp.fliplr(x)[0], jnp.flipud(x)[0], jnp.flip(x, (1, "
      "0))[0]))\n"
      "a, b, c, d = f(x)\n"
      "print(a, b, c, d)\n"
      "g = jax.jit(lambda x: (jnp.roll(x, 1, axis=0), jnp.roll(x, (1, 2), (0, 1)), jnp.roll(x, "
      "-4)))\n"
      "for r in g(x):\n"
      "    print(r)\n"
      "print(jnp.roll(jnp.arange(5), 7))\n"
      "print([p.shape for p in jnp.split(x, 2)], jnp.array_split(x, 3, axis=1)[2].ravel(), "
      "[p.ravel().tolist() for p in jax.jit(lambda x: jnp.split(x, [1, 3]))(x)], [p.shape for p in "
      "jnp.array_split(jnp.arange(5), 3)])\n"
      "print(jnp.tile(x, 2).shape, jax.jit(lambda x: jnp.tile(x, (2, 1)))(x)[4], "
      "jnp.tile(jnp.arange(3), (2, 2)))\n"
      "print(jnp.pad(x, 1).shape, jax.jit(lambda x: jnp.pad(x, ((1, 0), (0, 2)), "
      "constant_values=-1.5))(x)[0], jnp.pad(jnp.arange(3), (2, 1)))\n"
      "y = jnp.arange(5.0)\n"
      "print(y.at[y > 2].set(0.))\n"
      "m = np.array([True, False, True, False, False])\n"
      "print(jax.jit(lambda y: y.at[m].set(0.))(y), jax.jit(lambda y: y[m])(y))\n"
      "z = jnp.arange(12.).reshape(3, 4)\n"
      "print(z.at[z > 5].set(-1))\n"
      "print(jax.jit(lambda w, v: w.at[::-1].set(v))(jnp.zeros((3, 2)), jnp.arange(6.).reshape(3, "
      "2)))\n"
      "for h in [lambda: jnp.split(x, 3), lambda: jnp.roll(x, 1, axis=2), lambda: jnp.pad(x, 1, "
      "mode='edge'),\n"
      "          lambda: jnp.pad(x, ((1, 2), (3, 4), (5, 6))), lambda: jnp.pad(x, -1), lambda: "
      "x.at[np.array([[True]])].set(1),\n"
      "          lambda: x.at[([0, 1], [1, 0])].set(9.), lambda: x.at['a'].set(1)]:\n"
      "    try:\n"
      "        print(h())\n"
      "    except Exception as e:\n"
      "        print(type(e).__name__, str(e)[:70])\n");
  CAPTURE(nb.error);
  CHECK(nb.error.empty());
  CHECK(
      nb.stdout_text ==
      "[[11. 10.  9.]\n"
      " [ 8.  7.  6.]\n"
      " [ 5.  4.  3.]\n"
      " [ 2.  1.  0.]] [2. 1. 0.] [ 9. 10. 11.] [11. 10.  9.]\n"
      "[[ 9. 10. 11.]\n"
      " [ 0.  1.  2.]\n"
      " [ 3.  4.  5.]\n"
      " [ 6.  7.  8.]]\n"
      "[[10. 11.  9.]\n"
      " [ 1.  2.  0.]\n"
      " [ 4.  5.  3.]\n"
      " [ 7.  8.  6.]]\n"
      "[[ 4.  5.  6.]\n"
      " [ 7.  8.  9.]\n"
      " [10. 11.  0.]\n"
      " [ 1.  2.  3.]]\n"
      "[3 4 0 1 2]\n"
      "[(2, 3), (2, 3)] [ 2.  5.  8. 11.] [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [9.0, "
      "10.0, 11.0]] [(2,), (2,), (1,)]\n"
      "(4, 6) [0. 1. 2.] [[0 1 2 0 1 2]\n"
      " [0 1 2 0 1 2]]\n"
      "(6, 5) [-1.5 -1.5 -1.5 -1.5 -1.5] [0 0 0 1 2 0]\n"
      "[0. 1. 2. 0. 0.]\n"
      "[0. 1. 0. 3. 4.] [0. 2.]\n"
      "[[ 0.  1.  2.  3.]\n"
      " [ 4.  5. -1. -1.]\n"
      " [-1. -1. -1. -1.]]\n"
      "[[4. 5.]\n"
      " [2. 3.]\n"
      " [0. 1.]]\n"
      "ValueError array split does not result in an equal division: rest is 1\n"
      "ValueError axis 2 is out of bounds for array of dimension 2\n"
      "NotImplementedError jnp.pad: mode 'edge' is not supported here (mode='constant' is)\n"
      "ValueError jnp.pad: pad_width with nd=2 has unsupported shape (3, 2). Valid shape\n"
      "ValueError index can't contain negative values\n"
      "IndexError boolean index did not match shape of indexed array in index 0: got (1,\n"
      "NotImplementedError a list inside an index (an index array in JAX) is not supported here; \n"
      "TypeError JAX does not support string indexing; got idx='a'\n");
}

// MLIR's symbol table renames a clashing function with one counter for the whole module (as the
// corpus's random_gamma shows: @None_0, @_threefry_split_1, @None_2); a jitted helper's static
// arguments as JAX passes them (flip's axis a tuple for any sequence, roll's shifts and canonical
// axes) decide which calls share a function; an identity convert where a weak traced value meets a
// strong one (JAX binds convert_element_type for the weak type's change).
TEST_CASE("helper names share one uniquing counter, static arguments as JAX passes them",
          "[python][lower]") {
  const std::string head = "import jax\nimport jax.numpy as jnp\n";
  const std::string text = lower_text(
      head +
      "def f(x):\n"
      "    return (jnp.flip(x, 0), jnp.flip(x, 1), jnp.roll(x, 1, 0), jnp.roll(x, 2, 0),\n"
      "            jnp.flip(x, [1]), jnp.flip(x, (1,)), jnp.roll(x, 1, -2), jnp.roll(x, (1,), "
      "(0,)))\n"
      "jax.jit(f).lower(jnp.ones((4, 3)))\n");
  std::vector<std::string> names;
  for (std::size_t at = text.find("func.func private @"); at != std::string::npos;
       at = text.find("func.func private @", at + 1))
    names.push_back(text.substr(at + 18, text.find('(', at) - at - 18));
  CHECK(names == std::vector<std::string>{"@_flip", "@_flip_0", "@_roll_static", "@_roll_static_1",
                                          "@_flip_2"});
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda x, s: x + s).lower(jnp.ones(3), 2.0)\n"),
      Catch::Matchers::Contains(
          "    %0 = stablehlo.convert %arg1 : tensor<f32>\n"
          "    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>\n"
          "    %2 = stablehlo.add %arg0, %1 : tensor<3xf32>\n"));
  CHECK_THAT(
      lower_text(head + "jax.jit(lambda: jnp.flip(3.0)).lower()\n"),
      Catch::Matchers::Contains("    %0 = stablehlo.reverse %arg0, dims = [] : tensor<f32>\n"));
  const auto nb = rl::python::run_notebook(
      head +
      "x = jnp.ones((4, 3))\n"
      "print(jnp.split(x, -1))\n"
      "for g in [lambda: jnp.split(x, 2, axis=2), lambda: jnp.split(x, 0),\n"
      "          lambda: jnp.pad(x, 1, 'constant', 5), lambda: jnp.broadcast_to(x, (3,)),\n"
      "          lambda: jnp.tile(x, -1), lambda: jnp.flip(x, (0, 0))]:\n"
      "    try:\n        g()\n    except Exception as e:\n        print(type(e).__name__, e)\n");
  CAPTURE(nb.error);
  CHECK(nb.stdout_text ==
        "[]\n"
        "IndexError tuple index out of range\n"
        "ZeroDivisionError integer division or modulo by zero\n"
        "TypeError pad() takes from 2 to 3 positional arguments but 4 were given\n"
        "ValueError Cannot broadcast to shape with fewer dimensions: arr_shape=(4, 3) "
        "shape=(3,)\n"
        "TypeError broadcast_in_dim shape must have every element be nonnegative, got (1, 4, "
        "-1, 3).\n"
        "TypeError rev dimensions must be unique, got (0, 0).\n");
  // An empty jax.Array's repr names its shape at any rank (Array.__repr__); NumPy's only past 1-d.
  const auto empty = rl::python::run_notebook(
      head +
      "import numpy as np\n"
      "print(jnp.array_split(jnp.arange(2), 3), repr(jnp.zeros((2, 0))), repr(np.zeros(0)))\n");
  CAPTURE(empty.error);
  CHECK(empty.stdout_text ==
        "[Array([0], dtype=int32), Array([1], dtype=int32), Array([], shape=(0,), "
        "dtype=int32)] Array([], shape=(2, 0), dtype=float32) array([], dtype=float64)\n");
}
