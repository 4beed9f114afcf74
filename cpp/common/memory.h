// How much heap the core may use, and whether more still fits. In the wasm build the heap grows
// up to RL_HEAP_MAX bytes (the link flag MAXIMUM_MEMORY, CMakeLists.txt) and no further: an
// allocation past it aborts the module, and the page's Worker with it (operator new cannot fail
// softly without exceptions). So the big steps of an analysis ask first and refuse with an error
// that names the sizes. Natively the heap has no such limit: the checks pass unless a test sets
// one.
#pragma once

#include <cstddef>

namespace rl::memory {

// Bytes the heap may reach.
std::size_t limit();
// The heap's top (wasm: everything allocated lies below it; freed blocks below are reused): a
// cheap upper bound of what is in use. Natively in_use().
std::size_t top();
// Bytes allocated now, counted by the allocator (wasm: walks its blocks, call rarely; natively
// glibc's count, which only the tests' limits are checked against).
std::size_t in_use();
// Whether `more` bytes can still be allocated: at once when the heap's top leaves room, else by
// what is in use, with a sixteenth of the limit kept for fragmentation.
bool fits(std::size_t more);

// Bytes that can still be allocated, a sixteenth of the limit kept for fragmentation (what a
// run's memory cap may follow; natively the limit is all of size_t, so this is huge).
std::size_t available();

// Tests: a limit to check against (0 restores the build's).
void set_limit_for_tests(std::size_t bytes);

}  // namespace rl::memory
