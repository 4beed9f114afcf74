// Catch2's main, compiled once and linked into every test binary (native and wasm).
#define CATCH_CONFIG_MAIN
#include "catch.hpp"
