#include "report/values.h"

#include "common/numbers.h"
#include "hlo/emit.h"

namespace rl::report {

std::string contraction_json(const model::Contraction& c) {
  JsonWriter j;
  j.begin_object()
      .field("m", static_cast<double>(c.m))
      .field("k", static_cast<double>(c.k))
      .field("n", static_cast<double>(c.n))
      .field("itemsize", static_cast<double>(c.itemsize));
  for (const auto& [key, count] :
       {std::pair<const char*, Count>{"flops", c.flops},
        std::pair<const char*, Count>{"minimum_bytes", c.minimum_bytes}}) {
    j.field(key, static_cast<double>(count)).field(std::string(key) + "_exact", to_decimal(count));
  }
  j.field("intensity", c.intensity).field("intensity_fraction", c.intensity_fraction).end_object();
  return j.take();
}

void write_verdict(JsonWriter& j, const exercises::Verdict& v) {
  j.begin_object().field("correct", v.correct).field("feedback", v.feedback).end_object();
}

std::string verdict_json(const exercises::Verdict& v) {
  JsonWriter j;
  write_verdict(j, v);
  return j.take();
}

std::string example_modules_json() {
  JsonWriter j;
  j.begin_array();
  for (const auto& e : hlo::examples()) {
    j.begin_object()
        .field("name", e.name)
        .field("title", e.title)
        .field("text", e.text)
        .end_object();
  }
  j.end_array();
  return j.take();
}

std::string exercise_families_json() {
  JsonWriter j;
  j.begin_array();
  for (const auto& f : exercises::family_list())
    j.begin_object().field("id", f.id).field("label", f.label).end_object();
  j.end_array();
  return j.take();
}

}  // namespace rl::report
