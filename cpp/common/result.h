// Result<T>: a value or a message a person can act on.
//
// The core never throws and never aborts on bad input: every function that can refuse its
// input returns Result<T>. The bindings turn a failed Result into {ok:false, error, input?,
// line?, column?} for JS, the Catch2 tests read .error() directly. Messages name the input, the
// rule and the value: "m must be a positive integer, got 0". Besides the prose, an error may
// carry the name of the input it is about (`input`: "m") and, for text, the place (1-based
// `line` and `column`; 0 when unknown), so callers read fields instead of parsing the message.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace rl {

struct Error {
  std::string message;
  std::string input;  // the input the error is about ("m", "peak"), "" when not one input
  int line = 0;       // 1-based place in a text, 0 when none
  int column = 0;

  // The message without its "LINE:COL: " prefix (errors about a text start with their place).
  std::string without_place() const {
    if (line <= 0) return message;
    const std::string prefix = std::to_string(line) + ":" + std::to_string(column) + ": ";
    return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
  }
};

template <class T>
class Result {
 public:
  static Result success(T value) { return Result(std::in_place_index<0>, std::move(value)); }
  static Result failure(std::string message) {
    return Result(std::in_place_index<1>, Error{std::move(message), {}, 0, 0});
  }
  // An error about one named input ("m must be a positive integer, got 0" is about "m").
  static Result failure_for(std::string input, std::string message) {
    return Result(std::in_place_index<1>, Error{std::move(message), std::move(input), 0, 0});
  }
  // An error at a place in a text ("3:5: error: ..." is at line 3, column 5).
  static Result failure_at(std::string message, int line, int column) {
    return Result(std::in_place_index<1>, Error{std::move(message), {}, line, column});
  }
  static Result failure(Error e) { return Result(std::in_place_index<1>, std::move(e)); }
  // Lets a function returning Result<T> pass on another Result<U>'s error unchanged.
  template <class U>
  static Result failure_from(const Result<U>& other) {
    return failure(other.error_info());
  }

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(state_); }
  T& value() { return std::get<0>(state_); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<1>(state_).message; }
  const Error& error_info() const { return std::get<1>(state_); }

 private:
  template <std::size_t I, class V>
  Result(std::in_place_index_t<I> tag, V&& v) : state_(tag, std::forward<V>(v)) {}
  std::variant<T, Error> state_;
};

}  // namespace rl
