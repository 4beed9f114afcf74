// A small, strict JSON reader for text people hand the core (a student's result file): the whole
// of RFC 8259 and nothing more, with limits, so that no input can make it crash, recurse without
// end or allocate without bound. An error names the place (1-based line and column) and the rule:
// "3:17: expected ',' or '}' after a member, got 'x'".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace rl {

struct Json {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> items;                            // an array's
  std::vector<std::pair<std::string, Json>> members;  // an object's, in the text's order

  bool is_null() const { return type == Type::null; }
  bool is_bool() const { return type == Type::boolean; }
  bool is_number() const { return type == Type::number; }
  bool is_string() const { return type == Type::string; }
  bool is_array() const { return type == Type::array; }
  bool is_object() const { return type == Type::object; }
  // An object's member, or nullptr (also for a non-object). With repeated keys, the last one
  // counts, as in JavaScript's JSON.parse.
  const Json* find(std::string_view key) const;
};

// What "a string", "an array", … are called in messages.
const char* json_type_name(Json::Type t);

struct JsonLimits {
  std::size_t max_depth = 64;        // arrays and objects inside each other
  std::size_t max_values = 1 << 22;  // values in all (about 4 million)
};

Result<Json> parse_json(std::string_view text, const JsonLimits& limits = {});

}  // namespace rl
