// Work done once per item of a long loop (one op of a program of a million) kept out of line.
// V8 runs wasm in a baseline tier first and swaps in optimized code for a whole function between
// its calls, never within a running call: work inlined into a loop over a million ops would run
// in the baseline tier for the whole loop. Out of line, it is optimized after its first calls.
//
// RL_LOOP_BODY (noinline) keeps clang from inlining the body, but not binaryen: wasm-opt -O3
// inlines every function that has one caller, whatever its attributes (the body_step, add_op and
// write_row of the symbol map were gone, their loops running in the baseline tier). So the loop
// calls its body through out_of_line(&body): a pointer read back through a volatile, which no
// optimizer can resolve — an indirect call (a few nanoseconds an item), and the body stays a
// function of its own, tiered up after its first calls.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define RL_LOOP_BODY __attribute__((noinline))
#else
#define RL_LOOP_BODY
#endif

namespace rl {

// `f` itself (a function or member function pointer), as no optimizer can know it: read the
// result once before the loop and call through it.
template <class F>
inline F out_of_line(F f) {
  F volatile p = f;
  return p;
}

}  // namespace rl
