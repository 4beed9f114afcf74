// RL_LOOP_BODY: a function called once per item of a long loop (one op of a program) that is
// kept out of line. V8 runs wasm in a baseline tier first and swaps in optimized code for a
// whole function between its calls, never within a running call: work inlined into a loop over
// a million ops would run in the baseline tier for the whole loop. Out of line, it is optimized
// after its first calls.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define RL_LOOP_BODY __attribute__((noinline))
#else
#define RL_LOOP_BODY
#endif
