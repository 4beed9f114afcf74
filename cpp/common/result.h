// Result<T>: a value or a message a person can act on.
//
// The core never throws and never aborts on bad input: every function that can refuse its
// input returns Result<T>. The bindings turn a failed Result into {ok:false, error} for JS,
// the Catch2 tests read .error() directly. Messages name the input, the rule and the value:
// "m must be a positive integer, got 0".
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace rl {

template <class T>
class Result {
 public:
  static Result success(T value) { return Result(std::in_place_index<0>, std::move(value)); }
  static Result failure(std::string message) {
    return Result(std::in_place_index<1>, std::move(message));
  }
  // Lets a function returning Result<T> pass on another Result<U>'s error unchanged.
  template <class U>
  static Result failure_from(const Result<U>& other) { return failure(other.error()); }

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(state_); }
  T& value() { return std::get<0>(state_); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<1>(state_); }

 private:
  template <std::size_t I, class V>
  Result(std::in_place_index_t<I> tag, V&& v) : state_(tag, std::forward<V>(v)) {}
  std::variant<T, std::string> state_;
};

}  // namespace rl
