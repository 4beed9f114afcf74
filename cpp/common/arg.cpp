#include "common/arg.h"

#include <cmath>

#include "common/numbers.h"

namespace rl {

Arg Arg::of(double x) {
  Arg a;
  a.type = Type::number;
  a.number = x;
  return a;
}
Arg Arg::of(std::string s) {
  Arg a;
  a.type = Type::string;
  a.string = std::move(s);
  return a;
}
Arg Arg::of(bool b) {
  Arg a;
  a.type = Type::boolean;
  a.boolean = b;
  return a;
}
Arg Arg::null() {
  Arg a;
  a.type = Type::null;
  return a;
}
Arg Arg::array(std::vector<Arg> items) {
  Arg a;
  a.type = Type::array;
  a.class_name = "Array";
  a.items = std::move(items);
  return a;
}
Arg Arg::object(std::vector<std::pair<std::string, Arg>> members) {
  Arg a;
  a.type = Type::object;
  a.class_name = "Object";
  a.members = std::move(members);
  return a;
}

std::string Arg::type_of() const {
  switch (type) {
    case Type::undefined:
      return "undefined";
    case Type::boolean:
      return "boolean";
    case Type::number:
      return "number";
    case Type::string:
      return "string";
    case Type::function:
      return "function";
    case Type::other:
      return class_name;
    default:
      return "object";
  }
}

std::string Arg::type_name() const {
  if (type == Type::null) return "null";
  if (type == Type::array) return "an array";
  if (type_of() == "object" && !class_name.empty()) return class_name;
  return type_of();
}

const Arg& Arg::operator[](std::string_view key) const {
  static const Arg undefined;
  for (auto it = members.rbegin(); it != members.rend(); ++it)
    if (it->first == key) return it->second;
  return undefined;
}

std::string Arg::shown() const {
  return type == Type::string ? "the string \"" + string + "\"" : type_of();
}

Result<double> number_of(const std::string& name, const Arg& a) {
  if (a.is_number()) return Result<double>::success(a.number);
  return Result<double>::failure(name + " must be a number, got " + a.shown());
}

Result<std::vector<double>> numbers_of(const std::string& name, const Arg& a) {
  using R = Result<std::vector<double>>;
  if (!a.is_array()) return R::failure(name + " must be an array of numbers, got " + a.type_of());
  std::vector<double> out;
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    auto x = number_of(name + "[" + std::to_string(i) + "]", a.items[i]);
    if (!x) return R::failure_from(x);
    out.push_back(x.value());
  }
  return R::success(out);
}

Result<std::vector<std::string>> strings_of(const std::string& name, const Arg& a) {
  using R = Result<std::vector<std::string>>;
  if (a.is_nullish()) return R::success({});
  if (!a.is_array()) return R::failure(name + " must be an array of strings, got " + a.type_of());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    if (!a.items[i].is_string()) {
      return R::failure(name + "[" + std::to_string(i) + "] must be a string, got " +
                        a.items[i].type_of());
    }
    out.push_back(a.items[i].string);
  }
  return R::success(out);
}

Result<std::string> string_of(const std::string& name, const Arg& a) {
  if (a.is_string()) return Result<std::string>::success(a.string);
  return Result<std::string>::failure(name + " must be a string, got " + a.type_of());
}

Result<double> integer_of(const std::string& name, const Arg& a, double lo, double hi,
                          const std::string& range) {
  auto x = number_of(name, a);
  if (!x) return x;
  const double v = x.value();
  if (v >= lo && v <= hi && v == std::floor(v)) return x;
  return Result<double>::failure(
      name + " must be an integer from " +
      (range.empty() ? format_number(lo) + " to " + format_number(hi) : range) + ", got " +
      format_number(v));
}

}  // namespace rl
