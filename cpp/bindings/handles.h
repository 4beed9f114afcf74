// Objects a JS caller keeps in this wasm instance between calls, known to it by a number (a
// handle): the Worker pool's work, notebook sessions, per-op tables being written out. One
// table per kind; the handle a caller passes back is checked before it is used (a number that
// is not a whole handle of this table, 1e20 or NaN included, is refused by name, never cast).
#pragma once

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "common/numbers.h"
#include "common/result.h"

namespace rl::bindings {

template <class T>
class Handles {
 public:
  // `rule` completes "handle must be a handle …": who makes one and what ends it.
  explicit Handles(std::string rule) : rule_(std::move(rule)) {}

  int add(std::unique_ptr<T> item) {
    const int h = next_++;
    items_[h] = std::move(item);
    return h;
  }

  // The object behind handle `h`, or the error naming the handle, the rule and the value.
  Result<T*> get(double h) const {
    auto it = find(h);
    if (it == items_.end())
      return Result<T*>::failure_for(
          "handle", "handle must be a handle " + rule_ + ", got " + format_number(h));
    return Result<T*>::success(it->second.get());
  }

  // Ends handle `h` (nothing when it is not one of this table's).
  void release(double h) {
    auto it = find(h);
    if (it != items_.end()) items_.erase(it);
  }

 private:
  using Map = std::map<int, std::unique_ptr<T>>;
  typename Map::const_iterator find(double h) const {
    if (!(h >= 1 && h < next_) || h != std::floor(h)) return items_.end();
    return items_.find(static_cast<int>(h));
  }

  std::string rule_;
  Map items_;
  int next_ = 1;
};

}  // namespace rl::bindings
