// The shared corpus is reachable from the tests, natively and as wasm under Node.
#include "corpus.h"

#include <fstream>
#include <sstream>

#include "catch.hpp"

TEST_CASE("the shared corpus is read in place, from ../shared/corpus or $ROOFLINE_CORPUS",
          "[corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo");
  std::ifstream manifest(rl::testing::corpus_dir() + "/stablehlo/MANIFEST.tsv");
  REQUIRE(manifest.good());
  std::string header;
  std::getline(manifest, header);
  CHECK(header.rfind("file_name\t", 0) == 0);
}
