// Binding a call's arguments to a def's or a lambda's parameters as CPython 3.11 binds them,
// written once for both evaluators (python/notebook.cpp, python/tracer.cpp): positional arguments
// in order (the rest into *args, or a TypeError), keywords by name (unknown ones into **kwargs, or
// a TypeError), then the defaults. The values stay with the caller: the binding says where each
// parameter's value comes from, so it does not depend on what a value is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "python/ast.h"

namespace rl::python {

struct ArgSource {
  enum Kind : std::uint8_t {
    Positional,   // index: the positional argument
    Keyword,      // index: the keyword argument
    Default,      // the parameter's default
    VarArgs,      // *args: the positional arguments from index on (none: index is their count)
    VarKeywords,  // **kwargs: Binding::extra_keywords, as a dict
    Missing,      // none given and no default (Binding::missing says which)
  };
  Kind kind = Missing;
  std::size_t index = 0;
};

struct Binding {
  std::vector<ArgSource> params;            // one per parameter
  std::vector<std::size_t> extra_keywords;  // the keyword arguments **kwargs takes, in order
  // Parameters without a value (the caller's TypeError: CPython's words, missing_message):
  // positional ones, then keyword-only ones, in the parameters' order.
  std::vector<std::size_t> missing, missing_keyword_only;
};

// Binds, or gives CPython's TypeError message for too many positional arguments, an unexpected
// keyword or a keyword given twice. has_default: one per parameter.
Result<Binding> bind_arguments(const std::string& name, const std::vector<Param>& params,
                               const std::vector<bool>& has_default, std::size_t positional_given,
                               const std::vector<std::string>& keywords);

// CPython's message for the missing parameters ("f() missing 2 required positional arguments:
// 'a' and 'b'"); empty when none is missing.
std::string missing_message(const std::string& name, const std::vector<Param>& params,
                            const Binding& b);

}  // namespace rl::python
