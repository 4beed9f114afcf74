// Linear algebra against hand-computed values: dot_general per element type (integer wrap, halves
// accumulated in f32 and rounded once, complex, i1) and through the f32 matmul kernel in every
// operand layout; convolution with each window attribute and both group counts; fft by type;
// triangular_solve and cholesky by option; rng_bit_generator against published known-answer
// vectors of Threefry and Philox and the corpus' XLA vector.
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using rl::testing::as_complex;
using rl::testing::as_doubles;
using rl::testing::close;
using rl::testing::main_of;
using rl::testing::run_error;
using rl::testing::run_text;

namespace {

using V = std::vector<double>;
using Z = std::vector<std::complex<double>>;

interp::RunResult run_ok(const std::string& rt, const std::string& body) {
  auto ran = run_text(main_of(rt, body));
  const interp::RunResult& r = ran.result;
  INFO((r.errors.empty()
            ? r.status + (r.unsupported.empty() ? "" : ": " + r.unsupported.front().why)
            : r.errors.front().message));
  REQUIRE(r.status == "passed");
  return r;
}

V run_body(const std::string& rt, const std::string& body) { return as_doubles(run_ok(rt, body)); }

// A dot_general of two constants.
V dot(const std::string& lt, const std::string& l, const std::string& rt, const std::string& r,
      const std::string& dims, const std::string& out) {
  return run_body(out, "  %a = stablehlo.constant dense<" + l + "> : " + lt +
                           "\n"
                           "  %b = stablehlo.constant dense<" +
                           r + "> : " + rt +
                           "\n"
                           "  %c = stablehlo.dot_general %a, %b, " +
                           dims + " : (" + lt + ", " + rt + ") -> " + out +
                           "\n"
                           "  return %c : " +
                           out + "\n");
}

}  // namespace

TEST_CASE("dot_general multiplies matrices of every element type class", "[interp][linalg]") {
  // [[1,2,3],[4,5,6]] · [[1,0],[0,1],[1,1]] = [[1+3, 2+3], [4+6, 5+6]]
  for (const std::string t : {"f32", "f64", "i32", "ui16", "bf16"}) {
    INFO(t);
    CHECK(dot("tensor<2x3x" + t + ">", "[[1, 2, 3], [4, 5, 6]]", "tensor<3x2x" + t + ">",
              "[[1, 0], [0, 1], [1, 1]]", "contracting_dims = [1] x [0]",
              "tensor<2x2x" + t + ">") == V{4, 5, 10, 11});
  }
  // Integers wrap in the result type: 100·2 + 100·1 = 300 → 300 − 256 = 44 (i8); ui64 2^63·2 = 0.
  CHECK(dot("tensor<2xi8>", "[100, 100]", "tensor<2xi8>", "[2, 1]", "contracting_dims = [0] x [0]",
            "tensor<i8>") == V{44});
  CHECK(dot("tensor<1xui64>", "[9223372036854775808]", "tensor<1xui64>", "[2]",
            "contracting_dims = [0] x [0]", "tensor<ui64>") == V{0});
  // Halves accumulate in f32 and round once: 2048 + 1 + 1 = 2050 is an f16 (spacing 2 there);
  // summed in f16, each + 1 would round back to 2048. bf16: the same at 256.
  CHECK(dot("tensor<3xf16>", "[2048.0, 1.0, 1.0]", "tensor<3xf16>", "[1.0, 1.0, 1.0]",
            "contracting_dims = [0] x [0]", "tensor<f16>") == V{2050});
  CHECK(dot("tensor<3xbf16>", "[256.0, 1.0, 1.0]", "tensor<3xbf16>", "[1.0, 1.0, 1.0]",
            "contracting_dims = [0] x [0]", "tensor<bf16>") == V{258});
  // Complex: (1+2i)(3+4i) + (1+0i)(0+1i) = −5+10i + i = −5+11i.
  auto z = as_complex(
      run_ok("tensor<complex<f64>>",
             "  %a = stablehlo.constant dense<[(1.0, 2.0), (1.0, 0.0)]> : tensor<2xcomplex<f64>>\n"
             "  %b = stablehlo.constant dense<[(3.0, 4.0), (0.0, 1.0)]> : tensor<2xcomplex<f64>>\n"
             "  %c = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : "
             "(tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<complex<f64>>\n"
             "  return %c : tensor<complex<f64>>\n"));
  CHECK(z == Z{{-5, 11}});
  // i1: an or of ands. [1,0]·[0,1] = 0; [1,1]·[0,1] = 1.
  CHECK(dot("tensor<2x2xi1>", "[[true, false], [true, true]]", "tensor<2xi1>", "[false, true]",
            "contracting_dims = [1] x [0]", "tensor<2xi1>") == V{0, 1});
  // NaN and infinity propagate through the f32 kernel: 1·NaN = NaN, inf·1 + 1·1 = inf.
  const V nan = dot("tensor<2x2xf32>", "[[1.0, 0.0], [0x7F800000, 1.0]]", "tensor<2xf32>",
                    "[0x7FC00000, 1.0]", "contracting_dims = [1] x [0]", "tensor<2xf32>");
  CHECK(std::isnan(nan[0]));
  CHECK(std::isnan(nan[1]));  // inf · NaN
  CHECK(dot("tensor<2x2xf32>", "[[1.0, 0.0], [0x7F800000, 1.0]]", "tensor<2xf32>", "[1.0, 1.0]",
            "contracting_dims = [1] x [0]",
            "tensor<2xf32>")[1] == std::numeric_limits<double>::infinity());
}

TEST_CASE("dot_general handles batch dimensions and operands in any layout", "[interp][linalg]") {
  // Batch of 2: [[1,2]]·[[3],[4]] = 11 and [[5,6]]·[[7],[8]] = 83.
  for (const std::string t : {"f32", "f64", "i64"}) {
    INFO(t);
    CHECK(dot("tensor<2x1x2x" + t + ">", "[[[1, 2]], [[5, 6]]]", "tensor<2x2x1x" + t + ">",
              "[[[3], [4]], [[7], [8]]]", "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
              "tensor<2x1x1x" + t + ">") == V{11, 83});
  }
  // lhs contracting first (a^T·b) and rhs free first (a·b^T): a = [[1,2],[3,4]], b = [[5,6],[7,8]].
  // a^T·b = [[1·5+3·7, 1·6+3·8], [2·5+4·7, 2·6+4·8]] = [[26, 30], [38, 44]]
  // a·b^T = [[1·5+2·6, 1·7+2·8], [3·5+4·6, 3·7+4·8]] = [[17, 23], [39, 53]]
  for (const std::string t : {"f32", "f64"}) {
    INFO(t);
    const std::string mt = "tensor<2x2x" + t + ">";
    CHECK(dot(mt, "[[1, 2], [3, 4]]", mt, "[[5, 6], [7, 8]]", "contracting_dims = [0] x [0]", mt) ==
          V{26, 30, 38, 44});
    CHECK(dot(mt, "[[1, 2], [3, 4]]", mt, "[[5, 6], [7, 8]]", "contracting_dims = [1] x [1]", mt) ==
          V{17, 23, 39, 53});
  }
  // Batch dimension last on the lhs and two contracting dimensions paired in the listed order:
  // lhs[k1][k0][b], rhs[b][k0][k1]; result[b] = Σ lhs[k1][k0][b]·rhs[b][k0][k1].
  // lhs = iota 0..7 as 2x2x2, rhs all 1 but rhs[1][0][1] = 10:
  // b = 0: 0+2+4+6 = 12; b = 1: 1·1 (k1=0,k0=0) + 3 (k1=0,k0=1) + 5·10 (k1=1,k0=0) + 7 (k1=1,k0=1)
  // = 61.
  CHECK(run_body("tensor<2xf32>",
                 "  %i = stablehlo.iota dim = 0 : tensor<8xf32>\n"
                 "  %a = stablehlo.reshape %i : (tensor<8xf32>) -> tensor<2x2x2xf32>\n"
                 "  %b = stablehlo.constant dense<[[[1.0, 1.0], [1.0, 1.0]], [[1.0, 10.0], [1.0, "
                 "1.0]]]> : tensor<2x2x2xf32>\n"
                 "  %c = stablehlo.dot_general %a, %b, batching_dims = [2] x [0], contracting_dims "
                 "= [1, 0] x [1, 2] : "
                 "(tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2xf32>\n"
                 "  return %c : tensor<2xf32>\n") == V{12, 61});
  // No contracting dimensions: an outer product; an empty contraction gives zeros.
  CHECK(dot("tensor<2xf32>", "[1, 2]", "tensor<3xf32>", "[1, 10, 100]",
            "contracting_dims = [] x []", "tensor<2x3xf32>") == V{1, 10, 100, 2, 20, 200});
  CHECK(run_body("tensor<2x3xf32>",
                 "  %a = stablehlo.constant dense<> : tensor<2x0xf32>\n"
                 "  %b = stablehlo.constant dense<> : tensor<0x3xf32>\n"
                 "  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                 "(tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>\n"
                 "  return %c : tensor<2x3xf32>\n") == V(6, 0.0));
}

TEST_CASE("dot_general in f32 agrees with a double reference at sizes around the kernel's tiles",
          "[interp][linalg]") {
  // a[i][k] = ((i·7 + k·3) mod 11 − 5)/8, b[k][j] = ((k·5 + j·2) mod 13 − 6)/16: exact in f32,
  // and every product and partial sum below 2^24/256 is exact too, so the sum is exact.
  for (int m : {1, 5, 37})
    for (int k : {1, 9, 41})
      for (int n : {1, 7, 29}) {
        INFO(m << "x" << k << "x" << n);
        std::string la = "[", lb = "[";
        for (int r = 0; r < m; ++r) {
          la += r ? ", [" : "[";
          for (int c = 0; c < k; ++c)
            la += (c ? ", " : "") + std::to_string(((r * 7 + c * 3) % 11 - 5) / 8.0);
          la += "]";
        }
        la += "]";
        for (int r = 0; r < k; ++r) {
          lb += r ? ", [" : "[";
          for (int c = 0; c < n; ++c)
            lb += (c ? ", " : "") + std::to_string(((r * 5 + c * 2) % 13 - 6) / 16.0);
          lb += "]";
        }
        lb += "]";
        V want;
        for (int r = 0; r < m; ++r)
          for (int c = 0; c < n; ++c) {
            double s = 0;
            for (int q = 0; q < k; ++q)
              s += ((r * 7 + q * 3) % 11 - 5) / 8.0 * (((q * 5 + c * 2) % 13 - 6) / 16.0);
            want.push_back(s);
          }
        const std::string at = "tensor<" + std::to_string(m) + "x" + std::to_string(k) + "xf32>";
        const std::string bt = "tensor<" + std::to_string(k) + "x" + std::to_string(n) + "xf32>";
        const std::string ct = "tensor<" + std::to_string(m) + "x" + std::to_string(n) + "xf32>";
        CHECK(dot(at, la, bt, lb, "contracting_dims = [1] x [0]", ct) == want);
      }
}

TEST_CASE("dot_general refuses operands of another element type than its result",
          "[interp][linalg]") {
  const std::string e = run_error(
      main_of("tensor<2xf32>",
              "  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>\n"
              "  %b = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf16>\n"
              "  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
              "(tensor<2x2xf16>, tensor<2xf16>) -> tensor<2xf32>\n"
              "  return %c : tensor<2xf32>\n"));
  CHECK_THAT(e, Catch::Matchers::Contains("not run") && Catch::Matchers::Contains("f16 -> f32"));
}

namespace {

// A 1-D convolution of x = [1, 2, 3, 4, 5] (layout b, f, 0) with kernel `k` (o, i, 0).
V conv1d(const std::string& kernel, int taps, const std::string& window, int out,
         const std::string& extra = "") {
  const std::string rt = "tensor<1x1x" + std::to_string(out) + "xf32>";
  const std::string kt = "tensor<1x1x" + std::to_string(taps) + "xf32>";
  return run_body(
      rt,
      "  %x = stablehlo.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x5xf32>\n"
      "  %k = stablehlo.constant dense<[[" +
          kernel + "]]> : " + kt +
          "\n"
          "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], "
          "window = {" +
          window +
          "} "
          "{batch_group_count = 1 : i64, feature_group_count = 1 : i64" +
          extra + "} : (tensor<1x1x5xf32>, " + kt + ") -> " + rt +
          "\n"
          "  return %y : " +
          rt + "\n");
}

}  // namespace

TEST_CASE("convolution applies stride, padding, lhs and rhs dilation and window reversal",
          "[interp][linalg]") {
  // y[p] = x[p] + 2·x[p+1]
  CHECK(conv1d("[1.0, 2.0]", 2, "", 4) == V{5, 8, 11, 14});
  CHECK(conv1d("[1.0, 2.0]", 2, "stride = [2]", 2) == V{5, 11});
  // Padded [0, 1, 2, 3, 4, 5, 0]: [0+2, 1+4, 2+6, 3+8, 4+10, 5+0]
  CHECK(conv1d("[1.0, 2.0]", 2, "pad = [[1, 1]]", 6) == V{2, 5, 8, 11, 14, 5});
  // Negative padding crops: [2, 3, 4] → [2+6, 3+8]
  CHECK(conv1d("[1.0, 2.0]", 2, "pad = [[-1, -1]]", 2) == V{8, 11});
  // lhs_dilation 2: [1, 0, 2, 0, 3, 0, 4, 0, 5] → [1, 4, 2, 6, 3, 8, 4, 10]
  CHECK(conv1d("[1.0, 2.0]", 2, "lhs_dilate = [2]", 8) == V{1, 4, 2, 6, 3, 8, 4, 10});
  // rhs_dilation 2: taps at p and p + 2: x[p] + 2·x[p+2]
  CHECK(conv1d("[1.0, 2.0]", 2, "rhs_dilate = [2]", 3) == V{7, 10, 13});
  // Reversed window: the kernel read backwards, y[p] = 2·x[p] + x[p+1]
  CHECK(conv1d("[1.0, 2.0]", 2, "reverse = [true]", 4) == V{4, 7, 10, 13});
  CHECK(conv1d("[1.0, 2.0]", 2, "", 4, ", window_reversal = array<i1: true>") == V{4, 7, 10, 13});
  // All of them: lhs_dilation 2 and pad 1 each side give v = [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0];
  // rhs_dilation 2 reads v[q] + 2·v[q+2]; stride 3: q = 0, 3, 6 → [0 + 2·0, 2 + 2·3, 0 + 2·0].
  CHECK(conv1d("[1.0, 2.0]", 2, "stride = [3], pad = [[1, 1]], lhs_dilate = [2], rhs_dilate = [2]",
               3) == V{0, 8, 0});
  // Reversed, with rhs dilation: 2·v[q] + v[q+2] on the undilated x: [2+3, 4+4, 6+5].
  CHECK(conv1d("[1.0, 2.0]", 2, "rhs_dilate = [2], reverse = [1]", 3) == V{5, 8, 11});
}

TEST_CASE("convolution in two spatial dimensions, with feature and batch groups, and in integers",
          "[interp][linalg]") {
  // x = 1..9 as 3x3 (NHWC), a 2x2 kernel of ones (HWIO): the sums of each 2x2 window.
  CHECK(run_body("tensor<1x2x2x1xf64>",
                 "  %i = stablehlo.iota dim = 0 : tensor<9xf64>\n"
                 "  %one = stablehlo.constant dense<1.0> : tensor<9xf64>\n"
                 "  %v = stablehlo.add %i, %one : tensor<9xf64>\n"
                 "  %x = stablehlo.reshape %v : (tensor<9xf64>) -> tensor<1x3x3x1xf64>\n"
                 "  %k = stablehlo.constant dense<1.0> : tensor<2x2x1x1xf64>\n"
                 "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, "
                 "o]->[b, 0, 1, f], window = {} "
                 "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                 "(tensor<1x3x3x1xf64>, tensor<2x2x1x1xf64>) -> tensor<1x2x2x1xf64>\n"
                 "  return %y : tensor<1x2x2x1xf64>\n") == V{12, 16, 24, 28});
  // Two input features, two groups: output feature o sees input feature o only (depthwise).
  // x = [[1, 2], [3, 4]] (features, positions), kernel [[10], [100]] (o, i) with one tap.
  CHECK(run_body("tensor<1x2x2xi32>",
                 "  %x = stablehlo.constant dense<[[[1, 2], [3, 4]]]> : tensor<1x2x2xi32>\n"
                 "  %k = stablehlo.constant dense<[[[10]], [[100]]]> : tensor<2x1x1xi32>\n"
                 "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, "
                 "0], window = {} "
                 "{batch_group_count = 1 : i64, feature_group_count = 2 : i64} : "
                 "(tensor<1x2x2xi32>, tensor<2x1x1xi32>) -> tensor<1x2x2xi32>\n"
                 "  return %y : tensor<1x2x2xi32>\n") == V{10, 20, 300, 400});
  // Two input batches, two batch groups: output feature o reads input batch o.
  CHECK(run_body("tensor<1x2x2xi32>",
                 "  %x = stablehlo.constant dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi32>\n"
                 "  %k = stablehlo.constant dense<[[[10]], [[100]]]> : tensor<2x1x1xi32>\n"
                 "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, "
                 "0], window = {} "
                 "{batch_group_count = 2 : i64, feature_group_count = 1 : i64} : "
                 "(tensor<2x1x2xi32>, tensor<2x1x1xi32>) -> tensor<1x2x2xi32>\n"
                 "  return %y : tensor<1x2x2xi32>\n") == V{10, 20, 300, 400});
  // i8 wraps: 100·1 + 100·1 = 200 → −56.
  CHECK(run_body("tensor<1x1x1xi8>",
                 "  %x = stablehlo.constant dense<[[[100, 100]]]> : tensor<1x1x2xi8>\n"
                 "  %k = stablehlo.constant dense<[[[1, 1]]]> : tensor<1x1x2xi8>\n"
                 "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, "
                 "0], window = {} "
                 "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                 "(tensor<1x1x2xi8>, tensor<1x1x2xi8>) -> tensor<1x1x1xi8>\n"
                 "  return %y : tensor<1x1x1xi8>\n") == V{-56});
  // A result shape that does not fit the window is an error.
  CHECK_THAT(run_error(main_of("tensor<1x1x3xf32>",
                               "  %x = stablehlo.constant dense<1.0> : tensor<1x1x5xf32>\n"
                               "  %k = stablehlo.constant dense<1.0> : tensor<1x1x2xf32>\n"
                               "  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, "
                               "i, 0]->[b, f, 0], window = {} "
                               "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                               "(tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> tensor<1x1x3xf32>\n"
                               "  return %y : tensor<1x1x3xf32>\n")),
             Catch::Matchers::Contains("convolution result shape is wrong"));
}

TEST_CASE("fft, ifft, rfft and irfft over one and two dimensions, radix-2 and DFT lengths",
          "[interp][linalg]") {
  auto fft = [](const std::string& kind, const std::string& in_t, const std::string& in,
                const std::string& len, const std::string& out_t) {
    return run_ok(out_t, "  %a = stablehlo.constant dense<" + in + "> : " + in_t +
                             "\n"
                             "  %b = stablehlo.fft %a, type = " +
                             kind + ", length = [" + len + "] : (" + in_t + ") -> " + out_t +
                             "\n"
                             "  return %b : " +
                             out_t + "\n");
  };
  // FFT [1, 2, 3, 4] = [10, −2+2i, −2, −2−2i]
  CHECK(close(as_complex(fft("FFT", "tensor<4xcomplex<f64>>",
                             "[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]", "4",
                             "tensor<4xcomplex<f64>>")),
              Z{{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, 1e-15));
  // Length 3 (the DFT): [1, 2, 3] → [6, −1.5 + (√3/2)i, −1.5 − (√3/2)i]
  const double h = std::sqrt(3.0) / 2;
  CHECK(
      close(as_complex(fft("FFT", "tensor<3xcomplex<f64>>", "[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)]",
                           "3", "tensor<3xcomplex<f64>>")),
            Z{{6, 0}, {-1.5, h}, {-1.5, -h}}, 1e-15));
  // IFFT undoes it (divided by n).
  CHECK(close(as_complex(fft("IFFT", "tensor<4xcomplex<f64>>",
                             "[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)]", "4",
                             "tensor<4xcomplex<f64>>")),
              Z{{1, 0}, {2, 0}, {3, 0}, {4, 0}}, 1e-15));
  // RFFT keeps n/2 + 1 = 3 coefficients; IRFFT restores the signal, ignoring the imaginary parts
  // of the zero and Nyquist terms (5i and 7i here).
  CHECK(close(as_complex(fft("RFFT", "tensor<4xf64>", "[1.0, 2.0, 3.0, 4.0]", "4",
                             "tensor<3xcomplex<f64>>")),
              Z{{10, 0}, {-2, 2}, {-2, 0}}, 1e-15));
  CHECK(close(as_doubles(fft("IRFFT", "tensor<3xcomplex<f64>>",
                             "[(10.0, 5.0), (-2.0, 2.0), (-2.0, 7.0)]", "4", "tensor<4xf64>")),
              V{1, 2, 3, 4}, 1e-15));
  // Odd length 3 through IRFFT: [1, 2, 3] ↔ [6, −1.5 + (√3/2)i].
  CHECK(close(as_doubles(fft("IRFFT", "tensor<2xcomplex<f64>>",
                             "[(6.0, 0.0), (-1.5, 0.8660254037844386)]", "3", "tensor<3xf64>")),
              V{1, 2, 3}, 1e-15));
  // Two dimensions: FFT2 [[1, 2], [3, 4]] = [[10, −2], [−4, 0]]; a batch dimension in front.
  CHECK(close(as_complex(fft("FFT", "tensor<1x2x2xcomplex<f64>>",
                             "[[[(1.0, 0.0), (2.0, 0.0)], [(3.0, 0.0), (4.0, 0.0)]]]", "2, 2",
                             "tensor<1x2x2xcomplex<f64>>")),
              Z{{10, 0}, {-2, 0}, {-4, 0}, {0, 0}}, 1e-15));
  // 2-D RFFT then IRFFT of [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]] (3x4: DFT then radix-2).
  {
    auto spec = run_ok("tensor<3x3xcomplex<f64>>",
                       "  %a = stablehlo.iota dim = 0 : tensor<12xf64>\n"
                       "  %one = stablehlo.constant dense<1.0> : tensor<12xf64>\n"
                       "  %v = stablehlo.add %a, %one : tensor<12xf64>\n"
                       "  %m = stablehlo.reshape %v : (tensor<12xf64>) -> tensor<3x4xf64>\n"
                       "  %f = stablehlo.fft %m, type = RFFT, length = [3, 4] : (tensor<3x4xf64>) "
                       "-> tensor<3x3xcomplex<f64>>\n"
                       "  return %f : tensor<3x3xcomplex<f64>>\n");
    // DC = 78; along columns (k1) for k0 = 0: 3·[10, −2+2i, −2] sums... = [78, −6+6i, −6].
    const Z z = as_complex(spec);
    CHECK(std::abs(z[0] - std::complex<double>(78, 0)) < 1e-12);
    CHECK(std::abs(z[1] - std::complex<double>(-6, 6)) < 1e-12);
    CHECK(std::abs(z[2] - std::complex<double>(-6, 0)) < 1e-12);
    V back = run_body("tensor<3x4xf64>",
                      "  %a = stablehlo.iota dim = 0 : tensor<12xf64>\n"
                      "  %one = stablehlo.constant dense<1.0> : tensor<12xf64>\n"
                      "  %v = stablehlo.add %a, %one : tensor<12xf64>\n"
                      "  %m = stablehlo.reshape %v : (tensor<12xf64>) -> tensor<3x4xf64>\n"
                      "  %f = stablehlo.fft %m, type = RFFT, length = [3, 4] : (tensor<3x4xf64>) "
                      "-> tensor<3x3xcomplex<f64>>\n"
                      "  %g = stablehlo.fft %f, type = IRFFT, length = [3, 4] : "
                      "(tensor<3x3xcomplex<f64>>) -> tensor<3x4xf64>\n"
                      "  return %g : tensor<3x4xf64>\n");
    CHECK(close(back, V{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1e-14));
  }
  // Single precision (f32 → complex<f32>; an f64 operand with a complex<f32> result is refused
  // by the verifier: RFFT of f64 gives complex<f64>).
  CHECK_THAT(run_error(main_of("tensor<3xcomplex<f32>>",
                               "  %a = stablehlo.constant dense<1.0> : tensor<4xf32>\n"
                               "  %b = stablehlo.fft %a, type = RFFT, length = [4] : "
                               "(tensor<4xf32>) -> tensor<3xcomplex<f32>>\n"
                               "  return %b : tensor<3xcomplex<f32>>\n")),
             Catch::Matchers::Contains("not run") &&
                 Catch::Matchers::Contains("single or half precision"));
  CHECK_THAT(run_error(main_of("tensor<3xcomplex<f64>>",
                               "  %a = stablehlo.constant dense<1.0> : tensor<4xf64>\n"
                               "  %b = stablehlo.fft %a, type = RFFT, length = [5] : "
                               "(tensor<4xf64>) -> tensor<3xcomplex<f64>>\n"
                               "  return %b : tensor<3xcomplex<f64>>\n")),
             Catch::Matchers::Contains("the shape of stablehlo.fft cannot be inferred") &&
                 Catch::Matchers::Contains("innermost dimensions equal to fft_length"));
}

TEST_CASE(
    "triangular_solve solves on either side, with transposes, the adjoint and a unit diagonal",
    "[interp][linalg]") {
  auto solve = [](const std::string& opts, const std::string& a, const std::string& b,
                  const std::string& bt, const std::string& t = "f64") {
    const std::string at = "tensor<2x2x" + t + ">";
    return run_ok(bt, "  %a = stablehlo.constant dense<" + a + "> : " + at +
                          "\n"
                          "  %b = stablehlo.constant dense<" +
                          b + "> : " + bt +
                          "\n"
                          "  %x = \"stablehlo.triangular_solve\"(%a, %b) <{" +
                          opts + "}> : (" + at + ", " + bt + ") -> " + bt +
                          "\n"
                          "  return %x : " +
                          bt + "\n");
  };
  const std::string no = "transpose_a = #stablehlo<transpose NO_TRANSPOSE>";
  // A = [[2, 99], [1, 1]] lower (99 is outside the triangle and never read); A·x = [2, 3]:
  // x0 = 2/2 = 1, x1 = 3 − 1·1 = 2.
  CHECK(as_doubles(solve("left_side = true, lower = true, unit_diagonal = false, " + no,
                         "[[2.0, 99.0], [1.0, 1.0]]", "[[2.0], [3.0]]", "tensor<2x1xf64>")) ==
        V{1, 2});
  // Aᵀ·x = [2, 3] with Aᵀ = [[2, 1], [0, 1]]: x1 = 3, x0 = (2 − 3)/2 = −0.5.
  CHECK(as_doubles(solve("left_side = true, lower = true, unit_diagonal = false, transpose_a = "
                         "#stablehlo<transpose TRANSPOSE>",
                         "[[2.0, 99.0], [1.0, 1.0]]", "[[2.0], [3.0]]", "tensor<2x1xf64>")) ==
        V{-0.5, 3});
  // Unit diagonal (the 2 is not read): x0 = 2, x1 = 3 − 2 = 1.
  CHECK(as_doubles(solve("left_side = true, lower = true, unit_diagonal = true, " + no,
                         "[[2.0, 99.0], [1.0, 1.0]]", "[[2.0], [3.0]]", "tensor<2x1xf64>")) ==
        V{2, 1});
  // Right side, upper: x·A = [4, 7] with A = [[2, 1], [99, 3]] → [x0·2, x0·1 + x1·3] = [4, 7]:
  // x0 = 2, x1 = (7 − 2)/3 = 5/3.
  const V right = as_doubles(solve("left_side = false, lower = false, unit_diagonal = false, " + no,
                                   "[[2.0, 1.0], [99.0, 3.0]]", "[[4.0, 7.0]]", "tensor<1x2xf64>"));
  CHECK(right[0] == 2);
  CHECK(std::fabs(right[1] - 5.0 / 3) < 1e-15);
  // Adjoint on complex: A = [[i, 0], [1, 1]] lower, Aᴴ = [[−i, 1], [0, 1]]; Aᴴ·x = [1, 2]:
  // x1 = 2, x0 = (1 − 2)/(−i) = −1/(−i) = −i.
  const Z adj =
      as_complex(solve("left_side = true, lower = true, unit_diagonal = false, transpose_a = "
                       "#stablehlo<transpose ADJOINT>",
                       "[[(0.0, 1.0), (5.0, 5.0)], [(1.0, 0.0), (1.0, 0.0)]]",
                       "[[(1.0, 0.0)], [(2.0, 0.0)]]", "tensor<2x1xcomplex<f64>>", "complex<f64>"));
  CHECK(close(adj, Z{{0, -1}, {2, 0}}, 1e-15));
  // Single precision is refused, naming the reason (see ops_linalg.cpp).
  CHECK_THAT(run_error(main_of("tensor<2x1xf32>",
                               "  %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>\n"
                               "  %b = stablehlo.constant dense<1.0> : tensor<2x1xf32>\n"
                               "  %x = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = true, "
                               "lower = true, unit_diagonal = false, " +
                                   no +
                                   "}> : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>\n"
                                   "  return %x : tensor<2x1xf32>\n")),
             Catch::Matchers::Contains("stablehlo.triangular_solve in single or half precision"));
}

TEST_CASE(
    "cholesky factors either triangle, and a matrix that is not positive definite comes out NaN",
    "[interp][linalg]") {
  auto chol = [](bool lower, const std::string& a) {
    return as_doubles(run_ok("tensor<2x2xf64>", "  %a = stablehlo.constant dense<" + a +
                                                    "> : tensor<2x2xf64>\n"
                                                    "  %l = stablehlo.cholesky %a, lower = " +
                                                    std::string(lower ? "true" : "false") +
                                                    " : tensor<2x2xf64>\n"
                                                    "  return %l : tensor<2x2xf64>\n"));
  };
  // [[4, 2], [2, 3]] = L·Lᵀ with L = [[2, 0], [1, √2]]; the other triangle is not read (99).
  CHECK(close(chol(true, "[[4.0, 99.0], [2.0, 3.0]]"), V{2, 0, 1, std::sqrt(2.0)}, 1e-15));
  CHECK(close(chol(false, "[[4.0, 2.0], [99.0, 3.0]]"), V{2, 1, 0, std::sqrt(2.0)}, 1e-15));
  for (double v : chol(true, "[[1.0, 0.0], [2.0, 1.0]]")) CHECK(std::isnan(v));  // 1 − 4 < 0
}

TEST_CASE(
    "rng_bit_generator reproduces Threefry and Philox known-answer vectors and XLA's state updates",
    "[interp][linalg]") {
  auto rng = [](const std::string& alg, const std::string& state, int words,
                const std::string& out_t) {
    const std::string st = "tensor<" + std::to_string(words) + "xui64>";
    auto r = run_ok("(" + st + ", " + out_t + ")",
                    "  %s = stablehlo.constant dense<" + state + "> : " + st +
                        "\n"
                        "  %ns, %v = stablehlo.rng_bit_generator %s, algorithm = " +
                        alg + " : (" + st + ") -> (" + st + ", " + out_t +
                        ")\n"
                        "  return %ns, %v : " +
                        st + ", " + out_t + "\n");
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < 2; ++i) {
      const interp::Tensor& t = r.values[i].tensor;
      const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(t.type));
      for (std::int64_t k = 0; k < t.elements(); ++k) {
        std::uint64_t v = 0;
        std::memcpy(&v, t.data() + static_cast<std::size_t>(k) * eb, eb);
        out.push_back(v);
      }
    }
    return out;  // the new state, then the values
  };
  using U = std::vector<std::uint64_t>;
  // Threefry-2x32-20 (Random123's known answers): key (0, 0), counter (0, 0) → (0x6b200159,
  // 0x99ba4efe); all ones → (0x1cb996fc, 0xbb002be7); key (0x13198a2e, 0x03707344), counter
  // (0x243f6a88, 0x85a308d3) → (0xc4923a9c, 0x483df7a0). XLA: key = state[0], counter = state[1], a
  // u64 is (low, high).
  CHECK(rng("THREE_FRY", "[0, 0]", 2, "tensor<ui64>") == U{0, 1, 0x99ba4efe6b200159ull});
  CHECK(rng("THREE_FRY", "[18446744073709551615, 18446744073709551615]", 2, "tensor<ui64>") ==
        U{0xFFFFFFFFFFFFFFFFull, 0, 0xbb002be71cb996fcull});
  CHECK(rng("THREE_FRY",
            "[" + std::to_string(0x037073441319'8a2eull) + ", " +
                std::to_string(0x85a308d3243f6a88ull) + "]",
            2, "tensor<ui64>") ==
        U{0x0370734413198a2eull, 0x85a308d3243f6a89ull, 0x483df7a0c4923a9cull});
  // XLA's own result (the corpus, from JAX on XLA CPU): state [3, 3] → [3, 4], 3349939604322698703.
  CHECK(rng("THREE_FRY", "[3, 3]", 2, "tensor<ui64>") == U{3, 4, 3349939604322698703ull});
  // 32-bit values: the shape [3] is split into halves of 2 counters; element 0 and 1 are the two
  // words of counter 0. The state advances by 2.
  const U three = rng("THREE_FRY", "[0, 0]", 2, "tensor<3xui32>");
  REQUIRE(three.size() == 5);
  CHECK(three[1] == 2);
  CHECK(three[2] == 0x6b200159u);
  CHECK(three[3] == 0x99ba4efeu);
  // Philox-4x32-10 (Random123's known answers): counter 0, key 0 → (0x6627e8d5, 0xe169c58d,
  // 0xbc57ac4c, 0x9b00dbd8); all ones → (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd). XLA with
  // a 3-word state: key = state[0], counter = (state[1], state[2]); 4 u32 per counter; state + 1.
  CHECK(rng("PHILOX", "[0, 0, 0]", 3, "tensor<4xui32>") ==
        U{0, 1, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
  CHECK(rng("PHILOX", "[18446744073709551615, 18446744073709551615, 18446744073709551615]", 3,
            "tensor<2xui64>") ==
        U{0xFFFFFFFFFFFFFFFFull, 0, 0, 0x41c83b0e408f276dull,
          0x6d5451fda20bc7c6ull});  // counter + 1 carries into the high word
  // Two words: the counter is (state[1], state[0]) and only its low word is kept.
  CHECK(rng("PHILOX", "[0, 0]", 2, "tensor<2xui16>") == U{0, 1, 0xe8d5u, 0xc58du});
  // DEFAULT is implementation-defined: not run.
  CHECK_THAT(run_error(main_of("(tensor<2xui64>, tensor<ui64>)",
                               "  %s = stablehlo.constant dense<[0, 0]> : tensor<2xui64>\n"
                               "  %ns, %v = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : "
                               "(tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>)\n"
                               "  return %ns, %v : tensor<2xui64>, tensor<ui64>\n")),
             Catch::Matchers::Contains("DEFAULT"));
}

TEST_CASE("HLO's dot, convolution, fft and rng-bit-generator run as their StableHLO twins",
          "[interp][linalg]") {
  auto ran = run_text(
      "HloModule m\n"
      "ENTRY main {\n"
      "  a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
      "  b = f32[3,2] constant({{1, 0}, {0, 1}, {1, 1}})\n"
      "  d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  x = f64[1,5,1] constant({{{1}, {2}, {3}, {4}, {5}}})\n"
      "  k = f64[2,1,1] constant({{{1}}, {{2}}})\n"
      "  y = f64[1,4,1] convolution(x, k), window={size=2}, dim_labels=b0f_0io->b0f\n"
      "  z = c128[4] constant({(1,0), (2,0), (3,0), (4,0)})\n"
      "  f = c128[4] fft(z), fft_type=FFT, fft_length={4}\n"
      "  s = u64[2] constant({3, 3})\n"
      "  r = (u64[2], u64[]) rng-bit-generator(s), algorithm=rng_three_fry\n"
      "  v = u64[] rng-bit-generator(s), algorithm=rng_three_fry\n"
      "  ROOT t = (f32[2,2], f64[1,4,1], c128[4], (u64[2], u64[]), u64[]) tuple(d, y, f, r, v)\n"
      "}\n");
  INFO((ran.result.errors.empty()
            ? ran.result.status + (ran.result.unsupported.empty()
                                       ? ""
                                       : ": " + ran.result.unsupported.front().op + " " +
                                             ran.result.unsupported.front().why)
            : ran.result.errors.front().message));
  REQUIRE(ran.result.status == "passed");
  REQUIRE(ran.result.values.size() == 1);
  const interp::Value& t = ran.result.values[0];
  REQUIRE(t.tuple.size() == 5);
  auto doubles = [](const interp::Tensor& x) {
    std::vector<double> out;
    interp::dispatch(x.type, [&](auto e) {
      using E = decltype(e);
      for (std::int64_t i = 0; i < x.elements(); ++i) {
        const auto c = E::load(x.as<typename E::Storage>()[i]);
        if constexpr (interp::is_complex_v<E>)
          out.push_back(static_cast<double>(c.real()));
        else
          out.push_back(static_cast<double>(c));
      }
    });
    return out;
  };
  CHECK(doubles(t.tuple[0].tensor) == V{4, 5, 10, 11});
  CHECK(doubles(t.tuple[1].tensor) == V{5, 8, 11, 14});                // x[p] + 2·x[p+1]
  CHECK(close(doubles(t.tuple[2].tensor), V{10, -2, -2, -2}, 1e-15));  // real parts of the FFT
  REQUIRE(t.tuple[3].tuple.size() == 2);
  CHECK(*t.tuple[3].tuple[1].tensor.as<std::uint64_t>() == 3349939604322698703ull);
  // XLA's form without the new state (its HLO importer reads it): the same values.
  CHECK(*t.tuple[4].tensor.as<std::uint64_t>() == 3349939604322698703ull);
}
