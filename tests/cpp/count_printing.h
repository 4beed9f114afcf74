// Lets Catch2 print 128-bit counts in failure messages ("18446744073709551616", not "{?}").
#pragma once

#include <string>

#include "catch.hpp"
#include "common/numbers.h"

namespace Catch {
template <>
struct StringMaker<rl::Count> {
  static std::string convert(rl::Count value) { return rl::to_decimal(value); }
};
}  // namespace Catch
