// Calls inlined before fusion, as XLA's CallInliner does early in its pipeline: a `func.call`
// (StableHLO) or `call` (HLO) is replaced by a copy of its callee's ops, so that the fusion pass
// sees one graph. JAX lowers a jitted helper such as jax.nn.relu to a private function called
// from main; XLA fuses its maximum into the dot before it, and so must the pass here.
//
// The copy keeps each op's line and column (its place in the text as written), so a fusion
// still points at the lines the reader wrote; values and regions are renumbered in the caller.
// Every call site gets its own copy. Left as calls: a call of a function already being inlined
// (a cycle), a callee that is not one block ending in its return, an HLO callee whose ROOT is a
// parameter or whose layouts differ from the call's (a bitcast reads them), a copy that would
// nest regions past the parser's limit, and calls past the size budget (a chain of functions
// that each call the next twice would double with every level). A callee every call of which was
// inlined, and that nothing left still names, is dead: not fused on its own, not printed.
#pragma once

#include <cstddef>
#include <vector>

#include "hlo/ir.h"

namespace rl::hlo {

struct Inlined {
  Module module;           // the module with its calls inlined
  std::size_t calls = 0;   // call sites inlined
  std::size_t kept = 0;    // call sites left as calls (see above)
  std::vector<char> dead;  // by function: a callee no longer called from the entry
};

// Inlines the calls of a verified module. Returns false, leaving `out` alone, when the module
// has no call to inline (or the heap has no room for the copy): the caller keeps the module.
bool inline_calls(const Module& module, Inlined* out);

}  // namespace rl::hlo
