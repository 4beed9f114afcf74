# One libm for both builds (included by the top-level CMakeLists.txt; scripts/fuzz reads the file
# list below too). The interpreter's transcendental functions (cpp/common/libm.h) are musl's, from
# the sources the Emscripten package ships and builds its own libc from, compiled here natively
# and in the wasm build alike, renamed rl_musl_* (cpp/common/libm_names.h): glibc's libm and
# musl's give different last bits for many inputs (sin, tanh, erf, cbrt, atan2, hypot, ...), so a
# program's results would differ between the two builds. Not copied into the project: found where
# Emscripten is installed (RL_MUSL_DIR to point elsewhere).
#
# Built with -ffp-contract=off (no a·b + c fused where a host has FMA: g++'s C default contracts)
# and without -ffast-math; both targets evaluate doubles in double (SSE2 on x86-64, wasm's f64:
# FLT_EVAL_METHOD 0), and musl's fma paths are taken only where __FP_FAST_FMA is defined, which
# neither build defines. sqrt and scalbn, which they call, are exact (correctly rounded) anywhere.
set(RL_LIBM_FILES
  sin.c cos.c tan.c __sin.c __cos.c __tan.c __rem_pio2.c __rem_pio2_large.c
  asin.c acos.c atan.c atan2.c asinh.c acosh.c atanh.c sinh.c cosh.c tanh.c __expo2.c
  exp.c exp_data.c expm1.c log.c log_data.c log1p.c pow.c pow_data.c cbrt.c hypot.c
  erf.c lgamma_r.c
  __math_oflow.c __math_uflow.c __math_xflow.c __math_invalid.c __math_divzero.c
)
set(RL_MUSL_DIR "" CACHE PATH "musl's source tree (holding src/math and src/internal/libm.h)")
if(NOT RL_MUSL_DIR)
  set(_rl_musl_candidates /usr/share/emscripten/system/lib/libc/musl)
  if(EMSCRIPTEN_ROOT_PATH)
    list(PREPEND _rl_musl_candidates "${EMSCRIPTEN_ROOT_PATH}/system/lib/libc/musl")
  endif()
  find_program(RL_EMCC emcc NO_CMAKE_FIND_ROOT_PATH)
  if(RL_EMCC)
    # /usr/bin/emcc is a link to /usr/share/emscripten/wrapper (Debian) or emcc itself (emsdk).
    get_filename_component(_rl_emcc_real "${RL_EMCC}" REALPATH)
    get_filename_component(_rl_emcc_dir "${_rl_emcc_real}" DIRECTORY)
    list(APPEND _rl_musl_candidates "${_rl_emcc_dir}/system/lib/libc/musl")
  endif()
  foreach(_dir IN LISTS _rl_musl_candidates)
    if(EXISTS "${_dir}/src/math/sin.c" AND EXISTS "${_dir}/src/internal/libm.h")
      set(RL_MUSL_DIR "${_dir}" CACHE PATH "musl's source tree (holding src/math and src/internal/libm.h)" FORCE)
      break()
    endif()
  endforeach()
endif()
if(NOT EXISTS "${RL_MUSL_DIR}/src/internal/libm.h")
  message(FATAL_ERROR "musl's math sources not found (looked in ${_rl_musl_candidates}): both builds "
                      "compile the interpreter's libm from them. Install Emscripten (`apt-get install "
                      "emscripten`; scripts/build does it) or pass -DRL_MUSL_DIR=/path/to/musl")
endif()
set(RL_LIBM_SOURCES ${RL_LIBM_FILES})
list(TRANSFORM RL_LIBM_SOURCES PREPEND "${RL_MUSL_DIR}/src/math/")
foreach(_file IN LISTS RL_LIBM_SOURCES)
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "${_file} is missing: RL_MUSL_DIR (${RL_MUSL_DIR}) is not the musl this project expects")
  endif()
endforeach()
add_library(rl_libm STATIC ${RL_LIBM_SOURCES})
set_target_properties(rl_libm PROPERTIES C_STANDARD 99 C_EXTENSIONS ON)
target_compile_options(rl_libm PRIVATE
  # SHELL: keeps each flag with its value (CMake folds repeated flags into one otherwise).
  "SHELL:-include ${CMAKE_SOURCE_DIR}/cpp/common/libm_names.h"  # the rl_musl_ names
  "SHELL:-iquote ${RL_MUSL_DIR}/src/internal"                   # "libm.h"
  "SHELL:-iquote ${RL_MUSL_DIR}/arch/generic"                   # "fp_arch.h" (empty there)
  -ffp-contract=off -fno-fast-math
  -Werror=implicit-function-declaration                  # a call to an undeclared name returns int
  -w)                                                    # musl's own warnings are not ours
