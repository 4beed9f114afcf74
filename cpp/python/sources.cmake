# The python room: JAX-style Python → tokens → syntax tree → traced and lowered to StableHLO
# through hlo/jax_emit (included by the top-level CMakeLists.txt).
list(APPEND RL_CORE_SOURCES
  cpp/python/lexer.cpp
  cpp/python/parser.cpp
  cpp/python/tracer.cpp
  cpp/python/bigint.cpp
  cpp/python/float_repr.cpp
  cpp/python/ndarray.cpp
  cpp/python/nprandom.cpp
  cpp/python/notebook.cpp
  cpp/python/pynum.cpp
  cpp/python/bind.cpp
)
list(APPEND RL_TEST_SOURCES
  tests/cpp/python/lexer_test.cpp
  tests/cpp/python/lower_test.cpp
  tests/cpp/python/run_test.cpp
  tests/cpp/python/corpus_lax_test.cpp
  tests/cpp/python/notebook_test.cpp
)
