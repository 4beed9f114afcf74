// Arg: an argument as a caller handed it to the core (the bindings convert each JS value to one,
// and nothing else), so that reading a structured argument — which keys, which rules, which
// message — is plain C++ that the native tests run. It is JSON's value plus what a caller can hand
// that JSON has not: undefined, byte and float arrays, and a function (only its kind: the core
// never calls back through an Arg). Messages name a value's type as the caller's language does
// (`typeof`: "object" for null, arrays and typed arrays), so the wording is the one the page has
// always shown: "m must be a number, got the string \"32\"".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace rl {

struct Arg {
  enum class Type {
    undefined,
    null,
    boolean,
    number,
    string,
    array,
    object,
    bytes,
    floats,
    doubles,
    function,
    other
  };
  Type type = Type::undefined;
  bool boolean = false;
  double number = 0;
  std::string string;                                // a string's text; bytes' contents
  std::vector<Arg> items;                            // an array's
  std::vector<std::pair<std::string, Arg>> members;  // an object's, in its keys' order
  std::vector<float> floats;                         // a Float32Array's
  std::vector<double> doubles;                       // a Float64Array's
  std::string class_name;  // an object's constructor ("Object", "Float32Array"), other's typeof

  static Arg of(double x);
  static Arg of(std::string s);
  static Arg of(const char* s) { return of(std::string(s)); }
  static Arg of(bool b);
  static Arg null();
  static Arg array(std::vector<Arg> items);
  static Arg object(std::vector<std::pair<std::string, Arg>> members);

  bool is_undefined() const { return type == Type::undefined; }
  bool is_nullish() const { return type == Type::undefined || type == Type::null; }
  bool is_string() const { return type == Type::string; }
  bool is_number() const { return type == Type::number; }
  bool is_boolean() const { return type == Type::boolean; }
  bool is_array() const { return type == Type::array; }
  // An object of keys: a plain object, not null, an array or a typed array.
  bool is_object() const { return type == Type::object; }
  // What typeof says of it ("object" for null, arrays and typed arrays).
  std::string type_of() const;
  // A closer name for messages: "null", "an array", an object's constructor, else typeof.
  std::string type_name() const;
  // A member of an object (undefined when absent or not an object). With repeated keys, the last.
  const Arg& operator[](std::string_view key) const;
  // The value in a message about a number: the string "32", else typeof.
  std::string shown() const;
};

// A number, refused by name when it is anything else: "k must be a number, got object". Rules on
// the number itself (positive, integer, finite) are the caller's.
Result<double> number_of(const std::string& name, const Arg& a);
// An array of numbers: "sizes must be an array of numbers, got object", "sizes[2] must be a
// number, got the string \"x\"".
Result<std::vector<double>> numbers_of(const std::string& name, const Arg& a);
// An array of strings; undefined or null is an empty one.
Result<std::vector<std::string>> strings_of(const std::string& name, const Arg& a);
// A string: "dtype must be a string, got number".
Result<std::string> string_of(const std::string& name, const Arg& a);
// An integer from `lo` to `hi`: "count must be an integer from 1 to 100, got 0.5" (`range`, when
// given, says the range in the message instead: "from 0 to 2^32 - 1").
Result<double> integer_of(const std::string& name, const Arg& a, double lo, double hi,
                          const std::string& range = "");

}  // namespace rl
