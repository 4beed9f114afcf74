# The interp room: runs lowered StableHLO on tensors (included by the top-level CMakeLists.txt).
list(APPEND RL_CORE_SOURCES
  cpp/interp/interp.cpp
  cpp/interp/fused.cpp
  cpp/interp/fused_loop.cpp
  cpp/interp/checks.cpp
  cpp/interp/simd_loops.cpp
  cpp/interp/pow_f32.cpp
  cpp/interp/ops_structural.cpp
  cpp/interp/ops_elementwise.cpp
  cpp/interp/ops_math.cpp
  cpp/interp/math_functions.cpp
  cpp/interp/math_complex64.cpp
  cpp/interp/ops_data.cpp
  cpp/interp/ops_dot.cpp
  cpp/interp/ops_linalg.cpp
  cpp/interp/ops_regions.cpp
  cpp/interp/npy.cpp
  cpp/interp/memory_need.cpp
)
list(APPEND RL_TEST_SOURCES
  tests/cpp/interp/interp_test.cpp
  tests/cpp/interp/elementwise_test.cpp
  tests/cpp/interp/pairs_test.cpp
  tests/cpp/interp/pairs_data_test.cpp
  tests/cpp/interp/math_test.cpp
  tests/cpp/interp/pow_test.cpp
  tests/cpp/interp/data_test.cpp
  tests/cpp/interp/linalg_test.cpp
  tests/cpp/interp/fft_test.cpp
  tests/cpp/interp/complex_arith_test.cpp
  tests/cpp/interp/complex64_test.cpp
  tests/cpp/interp/regions_test.cpp
  tests/cpp/interp/nan_bits_test.cpp
  tests/cpp/interp/corpus_interp_test.cpp
  tests/cpp/interp/npy_test.cpp
  tests/cpp/interp/fused_test.cpp
)
