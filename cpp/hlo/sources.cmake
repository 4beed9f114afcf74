# The hlo room: text → IR → verify → cost (included by the top-level CMakeLists.txt).
list(APPEND RL_CORE_SOURCES
  cpp/hlo/element_type.cpp
  cpp/hlo/literal.cpp
  cpp/hlo/ir.cpp
  cpp/hlo/ops.cpp
  cpp/hlo/infer.cpp
  cpp/hlo/lexer.cpp
  cpp/hlo/stablehlo_parser.cpp
  cpp/hlo/hlo_parser.cpp
  cpp/hlo/attrs.cpp
  cpp/hlo/verify.cpp
  cpp/hlo/cost.cpp
  cpp/hlo/cost_rules.cpp
  cpp/hlo/jax_emit.cpp
  cpp/hlo/emit.cpp
  cpp/hlo/report.cpp
  cpp/hlo/lower.cpp
  cpp/hlo/fuse.cpp
)
list(APPEND RL_TEST_SOURCES
  tests/cpp/hlo/parse_test.cpp
  tests/cpp/hlo/emit_test.cpp
  tests/cpp/hlo/jax_emit_test.cpp
  tests/cpp/hlo/cost_test.cpp
  tests/cpp/hlo/stablehlo_corpus_test.cpp
  tests/cpp/hlo/verify_test.cpp
  tests/cpp/hlo/invalid_corpus_test.cpp
  tests/cpp/hlo/literal_test.cpp
  tests/cpp/hlo/hlo_parse_test.cpp
  tests/cpp/hlo/parse_errors_test.cpp
  tests/cpp/hlo/hlo_cost_test.cpp
  tests/cpp/hlo/hlo_corpus_test.cpp
  tests/cpp/hlo/lower_test.cpp
  tests/cpp/hlo/big_text_test.cpp
  tests/cpp/hlo/infer_test.cpp
  tests/cpp/hlo/fuse_test.cpp
)
