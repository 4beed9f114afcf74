// NumPy's .npy files: read as NumPy writes them (every version, byte order and number type),
// written so that NumPy's own np.save gives the same bytes, refused with the file, the rule and
// the value when they are not what a program's argument needs.
#include "interp/npy.h"

#include <cstring>

#include "catch.hpp"
#include "interp/interp_util.h"

using namespace rl;
using Catch::Matchers::Contains;
using hlo::ElementType;

namespace {

struct NpyCase {
  const char* name;
  std::string file;  // as NumPy wrote it
  ElementType type;
  std::vector<std::int64_t> dims;
  std::string data;  // the elements, little-endian, C order
  bool roundtrip;    // np.save of the little-endian array gives `file` again
};

const std::vector<NpyCase>& cases() {
  static const std::vector<NpyCase> all = {
#include "npy_cases.inc"
  };
  return all;
}

std::string header_of(const std::string& header) {
  std::string padded = header;
  while ((10 + padded.size() + 1) % 64) padded += ' ';
  padded += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(padded.size() & 0xff);
  out += static_cast<char>(padded.size() >> 8);
  return out + padded;
}

}  // namespace

TEST_CASE("npy files as NumPy writes them are read with their type, shape and little-endian data",
          "[npy]") {
  REQUIRE(cases().size() >= 18);
  for (const auto& c : cases()) {
    INFO(c.name);
    auto r = interp::read_npy(c.file, "x.npy");
    INFO((r.ok() ? std::string() : r.error()));
    REQUIRE(r.ok());
    CHECK(r->type == c.type);
    CHECK(r->dims == c.dims);
    CHECK(r->bytes == c.data);
    CHECK(r->name == "x.npy");
  }
}

TEST_CASE("npy files the core writes are the bytes np.save writes", "[npy]") {
  int compared = 0;
  for (const auto& c : cases()) {
    INFO(c.name);
    auto w =
        interp::write_npy(c.type, c.dims, reinterpret_cast<const std::uint8_t*>(c.data.data()));
    REQUIRE(w.ok());
    if (c.roundtrip) {
      CHECK(w.value() == c.file);
      ++compared;
    }
    auto back = interp::read_npy(w.value(), "back.npy");  // and they read back
    REQUIRE(back.ok());
    CHECK(back->bytes == c.data);
  }
  CHECK(compared == 13);
  CHECK_THAT(
      interp::write_npy(ElementType::BF16, {2}, reinterpret_cast<const std::uint8_t*>("abcd"))
          .error(),
      Contains("got bf16 (NumPy has no descr for it)"));
}

TEST_CASE("npy files that are not what they claim get the file, the rule and the value", "[npy]") {
  auto error = [](const std::string& bytes) {
    auto r = interp::read_npy(bytes, "a.npy");
    return r.ok() ? std::string("read") : r.error();
  };
  CHECK_THAT(error(""), Contains("a.npy: not a .npy file") && Contains("got 0 bytes"));
  CHECK_THAT(error("PK\x03\x04 zip archive"),
             Contains("starts with \\x93NUMPY") && Contains("got \"PK"));
  std::string v4 = cases().front().file;
  v4[6] = 4;
  CHECK_THAT(error(v4), Contains("version must be 1.0, 2.0 or 3.0, got 4.0"));
  CHECK_THAT(error(header_of("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }") +
                   std::string(48, '\0')),
             Contains("C order") && Contains("np.ascontiguousarray"));
  CHECK_THAT(error(header_of("{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }") +
                   std::string(4, '\0')),
             Contains("got '<V2'") && Contains("x.astype(np.float32)"));
  CHECK_THAT(error(header_of("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }")),
             Contains("structured dtype"));
  CHECK_THAT(error(header_of("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") +
                   std::string(20, '\0')),
             Contains("float32 (2, 3) needs 6 × 4 bytes of data, got 20"));
  CHECK_THAT(error(header_of(
                 "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }")),
             Contains("fit in 62 bits"));
  CHECK_THAT(error(header_of("{'descr': '<f4', 'fortran_order': False, }")),
             Contains("missing key 'shape'"));
  CHECK_THAT(error(header_of("{'descr': '<f4', 'colour': 1, 'shape': (), }")),
             Contains("unknown key 'colour'"));
  CHECK_THAT(error(header_of("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (), }")),
             Contains("True or False"));
  CHECK_THAT(
      error(header_of("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }") + "\x01\x02"),
      Contains("a bool element must be 0 or 1, got 2 at element 1"));
  std::string cut = cases().front().file.substr(0, 40);
  CHECK_THAT(error(cut), Contains("the header says 118 bytes but the file ends after 30"));
  // Every prefix of a real file is refused, none crashes.
  const std::string& whole = cases().front().file;
  for (std::size_t n = 0; n < whole.size(); ++n) CHECK(error(whole.substr(0, n)) != "read");
}

TEST_CASE("a program runs on given arrays, checked against its signature first", "[npy][interp]") {
  const std::string text =
      "func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {\n"
      "  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
      "  %1 = stablehlo.add %a, %0 : tensor<2x3xf32>\n"
      "  return %1 : tensor<2x3xf32>\n"
      "}\n";
  auto array = [](std::vector<float> xs, std::vector<std::int64_t> dims, std::string name) {
    interp::HostArray a;
    a.type = ElementType::F32;
    a.dims = std::move(dims);
    a.bytes.assign(reinterpret_cast<const char*>(xs.data()), xs.size() * sizeof(float));
    a.name = std::move(name);
    return a;
  };
  interp::RunOptions given;
  given.inputs = interp::Inputs::Given;
  given.args = {array({1, 2, 3, 4, 5, 6}, {2, 3}, "a.npy"), array({10, 20, 30}, {3}, "b.npy")};
  auto r = rl::testing::run_text(text, given);
  REQUIRE(r.result.status == "passed");
  CHECK(rl::testing::as_doubles(r.result) == std::vector<double>{11, 22, 33, 14, 25, 36});
  CHECK(r.result.inputs == "a.npy, b.npy");

  given.args.pop_back();
  CHECK_THAT(
      rl::testing::run_error(text, given),
      Contains("main takes 2 arguments (tensor<2x3xf32>, tensor<3xf32>), got 1 array (a.npy)"));
  given.args = {array({1, 2, 3, 4, 5, 6}, {3, 2}, "a.npy"), array({10, 20, 30}, {3}, "b.npy")};
  CHECK_THAT(rl::testing::run_error(text, given),
             Contains("argument 1 of main (%a) must be tensor<2x3xf32> = float32 (2, 3), got "
                      "a.npy: float32 (3, 2)"));
  given.args[0].dims = {2, 3};
  given.args[1].type = ElementType::S32;
  CHECK_THAT(
      rl::testing::run_error(text, given),
      Contains(
          "argument 2 of main (%b) must be tensor<3xf32> = float32 (3,), got b.npy: int32 (3,)"));
}
