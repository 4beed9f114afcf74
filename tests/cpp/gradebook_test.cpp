// The teacher's side: the JSON reader the core reads result files with, the checker's feedback
// categories, the gradebook (regrading, refusals, one file per student, the class summary) and
// the Moodle XML export.
#include "exercises/gradebook.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/json_reader.h"
#include "common/json_writer.h"
#include "common/numbers.h"
#include "exercises/exercises.h"
#include "exercises/moodle.h"

using namespace rl;
using namespace rl::exercises;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// One question's answers in a result file: the exercise (0-based here), the question, what was
// typed.
struct Typed {
  int exercise;
  std::string question;
  std::vector<std::string> answers;
  int hints = 0;
  bool solution = false;
  bool claim_correct = true;  // what the file says; the gradebook must not read it
};

std::string result_file(const std::string& seed, const std::string& student, int count,
                        const std::vector<std::string>& families, const std::vector<Typed>& typed,
                        const std::string& exported = "2030-01-01T00:00:00.000Z", int version = 2) {
  JsonWriter j;
  j.begin_object()
      .field("kind", "roofline-lab classroom results")
      .field("version", version)
      .field("exported", exported)
      .field("seed", seed)
      .field("student", student)
      .field("seed_used", variant_seed(seed, student))
      .field("count", count);
  j.key("families");
  if (families.empty()) {
    j.value("all");
  } else {
    j.begin_array();
    for (const auto& f : families) j.value(f);
    j.end_array();
  }
  j.key("questions").begin_array();
  for (const auto& t : typed) {
    j.begin_object()
        .field("exercise", t.exercise + 1)
        .field("question", t.question)
        .field("attempts", int(t.answers.size()))
        .field("hints_used", t.hints)
        .field("solution_opened", t.solution)
        .field("correct", t.claim_correct);
    j.key("history").begin_array();
    for (const auto& a : t.answers)
      j.begin_object()
          .field("answer", a)
          .field("at", "2030-01-01T00:00:00.000Z")
          .field("correct", true)
          .end_object();
    j.end_array().end_object();
  }
  j.end_array().end_object();
  return j.take();
}

std::string zeros(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += i ? ",0" : "0";
  return out;
}

Json grade(const std::vector<ResultFile>& files, const std::optional<SetSpec>& set = std::nullopt) {
  auto text = gradebook_json(files, set);
  REQUIRE(text.ok());
  auto json = parse_json(text.value());
  REQUIRE(json.ok());
  return json.value();
}

const Question& q_of(const Exercise& e, const std::string& id) {
  return *std::find_if(e.questions.begin(), e.questions.end(),
                       [&](const Question& q) { return q.id == id; });
}

std::vector<std::string> reasons(const Json& table) {
  std::vector<std::string> out;
  for (const auto& r : table.find("refused")->items)
    out.push_back(r.find("file")->string + ": " + r.find("reason")->string);
  return out;
}

}  // namespace

TEST_CASE("the JSON reader reads JSON and names the place and the rule of what it refuses",
          "[json]") {
  auto v = parse_json(
      R"( {"a": [1, -2.5e3, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "a": 7} )");
  REQUIRE(v.ok());
  CHECK(v->find("a")->number == 7);  // the last of repeated keys, as JSON.parse
  CHECK(v->members[0].second.items[1].number == -2500);
  CHECK(v->find("s")->string == "x\"\\/\n\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(parse_json("\"\\ud800\"").value().string ==
        "\xEF\xBF\xBD");  // a lone surrogate cannot be UTF-8
  const std::pair<const char*, const char*> bad[] = {
      {"", "1:1: expected a JSON value, got the end of the text"},
      {"{\"a\": 1,}", "1:9: expected a member name in double quotes, got '}'"},
      {"[1 2]", "1:4: expected ',' or ']' after an array item, got '2'"},
      {"{\n  \"a\" 1}", "2:7: expected ':' after a member name, got '1'"},
      {"\"abc", "1:5: a string is not closed: expected '\"' before the end of the text"},
      {"01", "1:2: unexpected '1' after the JSON value"},
      {"1e999", "1:1: the number 1e999 is too large for a double"},
      {"\"a\tb\"",
       "1:3: a string holds a control character (code 9): write it as an escape (\\n, \\t, "
       "\\u0001)"},
      {"[NaN]", "1:2: expected a JSON value, got 'N'"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    auto r = parse_json(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == message);
  }
  CHECK(parse_json(std::string(100, '[') + std::string(100, ']')).error() ==
        "1:65: arrays and objects nested deeper than 64");
  CHECK(parse_json(std::string(64, '[') + std::string(64, ']')).ok());
}

TEST_CASE("the checker names the kind of each answer, the same in every variant",
          "[exercises][gradebook]") {
  for (const char* seed : {"a", "b", "c"}) {
    const Exercise e = generate(seed, 1, {"work_traffic"}).value()[0];
    const double m = e.params.at("m"), k = e.params.at("k"), n = e.params.at("n");
    const Question& work = q_of(e, "work");
    CHECK(check(work, work.exact).category == "right");
    CHECK(check(work, format_number(m * k * n)).category == "mkn_not_2mkn");
    CHECK(check(work, format_number(4 * m * k * n)).category == "factor_of_2");
    CHECK(check(work, "12 bytes").category == "wrong_unit");
    CHECK(check(work, "lots").category == "unreadable");
  }
  const Exercise b = generate("a", 2, {"bound"}).value()[0];
  const Question& bound = q_of(b, "bound");
  CHECK(check(bound, bound.exact == "memory-bound" ? "compute" : "memory").category ==
        "other_choice");
  CHECK(check(bound, "fast").category == "not_a_choice");
}

TEST_CASE(
    "the gradebook regrades every answer from the seed and the student, never from the file's "
    "verdict",
    "[gradebook]") {
  const std::vector<std::string> fams = {"work_traffic", "bound"};
  const Exercise ada0 = generate_one(variant_seed("week3", "Ada"), 2, fams, 0).value();
  const Exercise ada1 = generate_one(variant_seed("week3", "Ada"), 2, fams, 1).value();
  const Exercise bob0 = generate_one(variant_seed("week3", "Bob"), 2, fams, 0).value();
  const double m = ada0.params.at("m"), k = ada0.params.at("k"), n = ada0.params.at("n");
  // Ada: work right at attempt 1, then a wrong answer (the first right verdict stays); traffic
  // wrong twice with the same mistake; the bound right; her solution of exercise 1 opened.
  const std::string ada =
      result_file("week3", "Ada", 2, fams,
                  {
                      {0, "work", {q_of(ada0, "work").exact, "400 GB/s"}, 1, true},
                      {0,
                       "traffic",
                       {format_number(m * k + k * n + m * n), format_number(m * k + k * n + m * n)},
                       2},
                      {1, "bound", {q_of(ada1, "bound").exact}},
                  });
  // Bob answers Ada's numbers (wrong for his variant) and claims they are right.
  const std::string bob = result_file("week3", "Bob", 2, fams,
                                      {{0, "work", {q_of(ada0, "work").exact}, 0, false, true}});
  REQUIRE(q_of(bob0, "work").exact != q_of(ada0, "work").exact);
  const Json t = grade({{"ada.json", ada}, {"bob.json", bob}});
  CHECK(reasons(t).empty());
  CHECK(t.find("set")->find("from")->string == "files");
  CHECK(t.find("set")->find("seed")->string == "week3");
  const auto& questions = t.find("questions")->items;
  REQUIRE(questions.size() == 3 + 3);  // work, traffic, ratio; ridge, bound, ceiling
  CHECK(questions[0].find("question")->string == "work");
  const auto& students = t.find("students")->items;
  REQUIRE(students.size() == 2);
  const Json& a = students[0];
  CHECK(a.find("student")->string == "Ada");
  CHECK(a.find("seed_used")->string == "week3/Ada");
  CHECK(a.find("right")->number == 2);
  CHECK(a.find("tried")->number == 3);
  CHECK(a.find("attempts")->number == 5);
  CHECK(a.find("hints")->number == 3);
  CHECK(a.find("solutions")->number == 1);
  const auto& answers = a.find("answers")->items;
  CHECK(answers[0].find("status")->string == "right");
  CHECK(answers[0].find("right_at")->number == 1);
  CHECK(answers[0].find("attempts")->number == 2);
  CHECK(answers[0].find("solution_opened")->boolean);
  CHECK(answers[1].find("status")->string == "wrong");
  CHECK(answers[1].find("category")->string == "elements_not_bytes");
  CHECK(answers[1].find("right_at")->is_null());
  CHECK(answers[2].find("status")->string == "not_tried");
  CHECK(answers[4].find("status")->string == "right");
  CHECK_FALSE(answers[3].find("solution_opened")->boolean);
  CHECK(students[1].find("answers")->items[0].find("status")->string == "wrong");
  CHECK(students[1].find("right")->number == 0);
  const auto& summary = t.find("summary")->items;
  CHECK(summary[0].find("right")->number == 1);
  CHECK(summary[0].find("share_right")->number == 0.5);
  CHECK(summary[1].find("mistake")->find("category")->string == "elements_not_bytes");
  CHECK(summary[1].find("mistake")->find("students")->number == 1);
  CHECK_THAT(summary[1].find("mistake")->find("feedback")->string,
             StartsWith("That is the number of elements"));
  CHECK(summary[2].find("mistake")->is_null());
}

TEST_CASE(
    "files that cannot be graded are refused one by one, with their reasons, and the others are "
    "graded",
    "[gradebook]") {
  const std::vector<std::string> all;
  const Exercise e0 = generate_one("s/Ann", 2, all, 0).value();
  const std::string ann = result_file("s", "Ann", 2, all, {{0, "work", {q_of(e0, "work").exact}}},
                                      "2030-01-02T00:00:00.000Z");
  const std::string ann_older =
      result_file("s", "Ann", 2, all, {{0, "work", {"1"}}}, "2030-01-01T00:00:00.000Z");
  std::vector<ResultFile> files = {
      {"ann-old.json", ann_older},
      {"ann.json", ann},
      {"notes.txt", "Please grade me"},
      {"other.json", "{\"theme\": \"dark\"}"},
      {"future.json", result_file("s", "Cy", 2, all, {}, "2030", 3)},
      {"v1.json", result_file("s", "Di", 2, all, {}, "2030", 1)},
      {"other-set.json", result_file("t", "Ed", 2, all, {})},
      {"big.json", "{}", 6e6},
      {"ghost.json", result_file("s", "Flo", 2, all, {{0, "nope", {"1"}}})},
      {"beyond.json", result_file("s", "Gus", 2, all, {{4, "work", {"1"}}})},
      {"hints.json", result_file("s", "Hal", 2, all, {{0, "work", {"1"}, 9}})},
      {"many.json",
       result_file("s", "Ida", 2, all, {{0, "work", std::vector<std::string>(1001, "1")}})},
      {"zeros.json", "[" + zeros(600000) + "]"},
      {"long.json",
       result_file("s", "Jo", 2, all, {{0, std::string(59, 'x') + "\xC3\xA9yy", {"1"}}})},
  };
  const Json t = grade(files, SetSpec{"s", 2, {}});
  CHECK(t.find("set")->find("from")->string == "given");
  const auto& students = t.find("students")->items;
  REQUIRE(students.size() == 1);
  CHECK(students[0].find("file")->string == "ann.json");
  CHECK(students[0].find("right")->number == 1);
  const std::vector<std::string> expected = {
      "ann-old.json: repeats student \"Ann\": ann.json, exported later, is graded",
      "notes.txt: is not JSON (1:1: expected a JSON value, got 'P'): a result file is the JSON "
      "that section 9's \"Export my results (JSON)\" writes",
      "other.json: is not a Roofline Lab result file (it has no \"kind\": \"roofline-lab classroom "
      "results\")",
      "future.json: is version 3, written by a newer Roofline Lab; this gradebook reads version 2",
      "v1.json: is version 1, exported before attempt histories were kept: the student can export "
      "it again from section 9 (their answers are still in their browser)",
      "other-set.json: belongs to another set (seed \"t\", 2 exercises, all families); this "
      "gradebook grades seed \"s\", 2 exercises, all families",
      "big.json: is 6000000 bytes; a result file must be at most 5 MB (5242880 bytes)",
      "ghost.json: questions[0]: exercise 1 has no question \"nope\" (it has work, traffic, ratio)",
      "beyond.json: questions[0]: exercise 5 is not in a set of 2",
      "hints.json: questions[0]: hints_used is 9, but exercise 1's question \"work\" has 2 hints",
      "many.json: questions[0] (exercise 1, \"work\") has 1001 attempts; a result file may hold at "
      "most 1000 for a question",
      "zeros.json: is not JSON (1:1000000: more than 500000 values): a result file is the JSON "
      "that section 9's \"Export my results (JSON)\" writes",
      // A long text is cut between characters: "é" is two bytes, and the 60th byte is inside it.
      "long.json: questions[0]: exercise 1 has no question \"" + std::string(59, 'x') +
          "…\" (it has work, traffic, ratio)",
  };
  CHECK(reasons(t) == expected);
  CHECK(t.find("totals")->find("refused")->number == 13);

  // Without a set given, the set most files belong to is graded.
  const Json u = grade({{"x.json", result_file("t", "X", 2, all, {})},
                        {"a.json", ann},
                        {"b.json", result_file("s", "B", 2, all, {})}});
  CHECK(u.find("set")->find("seed")->string == "s");
  CHECK(u.find("students")->items.size() == 2);
  // A set that is no set is refused whole; no files at all is an empty table.
  CHECK(gradebook_json({}, SetSpec{"s", 2, {"vibes"}}).error() ==
        "the set to grade against cannot be made: family must be one of work_traffic, bound, "
        "traffic_factor, read_ir, fusion, got \"vibes\"");
  const Json empty = grade({});
  CHECK(empty.find("set")->is_null());
  CHECK(empty.find("students")->items.empty());
}

TEST_CASE("Moodle XML: one category per set, the core's answers, tolerances and feedback",
          "[moodle]") {
  const auto set = generate("week/3", 5).value();
  const std::string x = moodle_xml("week/3", 5).value();
  CHECK_THAT(x, StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
  CHECK_THAT(x,
             Contains("<category><text>$course$/top/Roofline Lab, seed week//3</text></category>"));
  std::size_t questions = 0;
  for (const auto& e : set) questions += e.questions.size();
  std::size_t found = 0;
  for (std::size_t at = 0; (at = x.find("<question type=\"", at)) != std::string::npos; ++at)
    ++found;
  CHECK(found == questions + 1);  // and the category
  const Question& work = q_of(set[0], "work");
  CHECK_THAT(x, Contains("<text>" + format_number(work.value) +
                         "</text>\n      <tolerance>0</tolerance>"));
  const Question& ratio = q_of(set[0], "ratio");
  CHECK(ratio.rel_tolerance > 0);
  CHECK_THAT(x, Contains("<text>" + format_number(ratio.value) + "</text>\n      <tolerance>" +
                         format_number(ratio.rel_tolerance * ratio.value) + "</tolerance>"));
  CHECK_THAT(
      x, Contains("&lt;pre&gt;module @jit_"));  // the IR in a <pre>, escaped twice (HTML in XML)
  CHECK(x.find("<pre>") == std::string::npos);
  CHECK_THAT(x, Contains("<single>true</single>"));
  CHECK_THAT(x, Contains("<single>false</single>"));
  CHECK(moodle_xml("s", 0).error() == "count must be an integer from 1 to 100, got 0");
}

TEST_CASE(
    "Moodle XML: no question has two answers with the same text, and each says what the page's "
    "checker says",
    "[moodle]") {
  // Duplicates come from two mistakes that give one number for some sizes; 40 seeds of 10
  // exercises meet them (the last CHECK says so).
  std::size_t questions = 0, skipped_duplicates = 0;
  for (int s = 0; s < 40; ++s) {
    const std::string seed = "dup" + std::to_string(s);
    const auto set = generate(seed, 10).value();
    const std::string x = moodle_xml(seed, 10).value();
    std::size_t at = x.find("</question>") + 1;  // past the category
    for (const auto& e : set)
      for (const auto& q : e.questions) {
        const std::size_t begin = x.find("<question type=\"", at),
                          end = x.find("</question>", begin);
        REQUIRE(end != std::string::npos);
        const std::string one = x.substr(begin, end - begin);
        at = end + 1;
        ++questions;
        std::vector<std::string> texts;
        for (std::size_t a = 0; (a = one.find("<answer fraction=", a)) != std::string::npos; ++a) {
          const std::size_t t = one.find("<text>", a) + 6;
          texts.push_back(one.substr(t, one.find("</text>", t) - t));
        }
        std::vector<std::string> sorted = texts;
        std::sort(sorted.begin(), sorted.end());
        INFO("seed " << seed << ", exercise " << e.index + 1 << ", question " << q.id << ": "
                     << one);
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
        if (q.kind != "number") continue;
        std::vector<std::string> values{format_number(q.value)};
        for (const auto& m : q.mistakes)
          if (std::find(values.begin(), values.end(), format_number(m.value)) == values.end())
            values.push_back(format_number(m.value));
          else
            ++skipped_duplicates;
        CHECK(texts == values);  // every distinct value is still there, the right one first
        for (const auto& v : values) {
          std::string said = "<text>&lt;p&gt;";  // the feedback as HTML, in XML
          for (char c : check(q, v).feedback)
            said += c == '&'   ? "&amp;amp;"
                    : c == '<' ? "&amp;lt;"
                    : c == '>' ? "&amp;gt;"
                    : c == '"' ? "&amp;quot;"
                               : std::string(1, c);
          CHECK(one.find(said) != std::string::npos);
        }
      }
  }
  CHECK(questions > 400);
  CHECK(skipped_duplicates > 0);  // the case the test is about did occur
}

TEST_CASE(
    "gradebook: unnamed exports are told apart by their browser's id, and the same id is one "
    "student",
    "[gradebook]") {
  const std::vector<Typed> one{{0, "work", {"1"}}};
  auto unnamed = [&](const std::string& id, const std::string& exported) {
    std::string text = result_file("s", "", 2, {}, one, exported);
    if (!id.empty()) text.insert(1, "\"unnamed_id\":\"" + id + "\",");
    return text;
  };
  const Json t = grade({{"a.json", unnamed("k3f9x2", "2030-01-01T00:00:00.000Z")},
                        {"b.json", unnamed("p0q7zz", "2030-01-01T00:00:00.000Z")},
                        {"a-again.json", unnamed("k3f9x2", "2030-01-02T00:00:00.000Z")},
                        {"old1.json", unnamed("", "2030-01-01T00:00:00.000Z")},
                        {"old2.json", unnamed("", "2030-01-02T00:00:00.000Z")}});
  const auto& students = t.find("students")->items;
  REQUIRE(students.size() == 3);  // two ids and the files without one
  std::vector<std::string> ids;
  for (const auto& s : students)
    ids.push_back(s.find("unnamed_id")->string + "@" + s.find("file")->string);
  CHECK(ids == std::vector<std::string>{"p0q7zz@b.json", "k3f9x2@a-again.json", "@old2.json"});
  const auto& refused = t.find("refused")->items;
  REQUIRE(refused.size() == 2);
  CHECK(refused[0].find("reason")->string ==
        "repeats the unnamed export \"k3f9x2\": a-again.json, exported later, is graded");
  CHECK(refused[1].find("reason")->string ==
        "repeats the teacher's own set (no student name): old2.json, exported later, is graded");
  // A named student's file keeps no id, whatever it says.
  std::string named = result_file("s", "Ann", 2, {}, one);
  named.insert(1, "\"unnamed_id\":\"zz\",");
  CHECK(grade({{"ann.json", named}}).find("students")->items[0].find("unnamed_id")->string.empty());
  // A malformed id is refused by name, not graded as a file without one.
  for (const std::string& bad : {std::string("K3F9X2"), std::string("ab"),
                                 std::string("abcdefghijklm"), std::string("k3 f9")}) {
    INFO(bad);
    const Json r = grade({{"odd.json", unnamed(bad, "2030-01-01T00:00:00.000Z")}});
    REQUIRE(r.find("refused")->items.size() == 1);
    CHECK(r.find("refused")->items[0].find("reason")->string ==
          "has a malformed unnamed_id (\"unnamed_id\" must be 4 to 12 lowercase letters and "
          "digits, got \"" +
              bad + "\")");
  }
}
