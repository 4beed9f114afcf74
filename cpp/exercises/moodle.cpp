#include "exercises/moodle.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/numbers.h"
#include "exercises/exercises.h"

namespace rl::exercises {

namespace {

// Text inside an XML element: &, < and > escaped (no attribute values are built from text), and
// the control characters XML 1.0 cannot hold at all (a seed from the CLI may have one) replaced.
std::string xml(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
      out += "\xEF\xBF\xBD";  // U+FFFD
    else if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

// Text inside HTML (Moodle's "html" format): escaped for HTML, then the HTML escaped for XML.
std::string html(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// A number as Moodle reads it: the shortest decimal or exponent form that reads back exactly.
std::string plain(double x) { return format_number(x); }

// A grade fraction in Moodle's form: 100, 50, 33.33333, -25.
std::string fraction(double percent) {
  if (percent == std::floor(percent)) return format_number(percent);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.5f", percent);
  return buffer;
}

void text_element(std::string& out, const char* indent, const char* tag, const std::string& body,
                  bool as_html) {
  out += indent;
  out += "<";
  out += tag;
  out += as_html ? " format=\"html\">" : ">";
  out += "<text>" + xml(body) + "</text></";
  out += tag;
  out += ">\n";
}

// A category path names its levels with '/': a '/' inside a name is written twice.
std::string category_name(std::string_view seed) {
  std::string out;
  for (char c : seed) out += c == '/' ? std::string("//") : std::string(1, c);
  return out;
}

std::string letter(std::size_t i) { return std::string(1, char('a' + i % 26)); }

void question(std::string& out, const Exercise& e, const Question& q, std::size_t qi) {
  const bool number = q.kind == "number";
  const bool many = q.kind == "set";
  out += std::string("  <question type=\"") + (number ? "numerical" : "multichoice") + "\">\n";
  text_element(out, "    ", "name",
               std::to_string(e.index + 1) + letter(qi) + ". " + q.prompt + " (" + e.title + ")",
               false);
  std::string body = "<p>" + html(e.statement) + "</p>\n";
  if (!e.ir.empty()) body += "<pre>" + html(e.ir) + "</pre>\n";
  body += "<p><strong>" + html(q.prompt) + "</strong>";
  if (number) {
    body += q.unit.empty() ? " — a plain number" : " — a plain number, in " + html(q.unit);
    body += q.rel_tolerance > 0
                ? " (accepted within a relative " + format_number(q.rel_tolerance) + ")"
                : " (an exact count)";
  } else if (many) {
    body += " — tick every size that changes bound, or none";
  }
  body += "</p>";
  text_element(out, "    ", "questiontext", body, true);
  text_element(out, "    ", "generalfeedback", "<p>" + html(e.solution) + "</p>", true);
  out +=
      "    <defaultgrade>1</defaultgrade>\n    <penalty>0.3333333</penalty>\n    "
      "<hidden>0</hidden>\n";

  auto answer = [&](const std::string& percent, const std::string& text,
                    const std::string& feedback, const std::string* tolerance) {
    out += "    <answer fraction=\"" + percent + "\" format=\"" +
           (number ? "moodle_auto_format" : "html") + "\">\n";
    out += "      <text>" + xml(number ? text : html(text)) + "</text>\n";
    if (tolerance) out += "      <tolerance>" + *tolerance + "</tolerance>\n";
    out += "      <feedback format=\"html\"><text>" + xml("<p>" + html(feedback) + "</p>") +
           "</text></feedback>\n";
    out += "    </answer>\n";
  };
  if (number) {
    // Moodle's numerical tolerance is an absolute error around the answer.
    auto tolerance_of = [&](double value) { return plain(q.rel_tolerance * std::fabs(value)); };
    const std::string right = tolerance_of(q.value);
    answer("100", plain(q.value), check(q, plain(q.value)).feedback, &right);
    // One answer per value: Moodle shows only the first of two answers with the same text, and
    // two wrong formulas give the same number for some sizes. The
    // feedback kept is the one the page's checker gives for that number (its first matching
    // mistake), so Moodle and the page say the same; merging the explanations would tell a
    // student two contradictory stories about one number.
    std::vector<std::string> written{plain(q.value)};
    for (const auto& m : q.mistakes) {
      const std::string text = plain(m.value);
      if (std::find(written.begin(), written.end(), text) != written.end()) continue;
      written.push_back(text);
      const Verdict v = check(q, text);
      const std::string t = tolerance_of(m.value);
      answer("0", text, v.correct ? m.feedback : v.feedback, &t);
    }
    out +=
        "    <unitgradingtype>0</unitgradingtype>\n    <unitpenalty>0.1000000</unitpenalty>\n"
        "    <showunits>3</showunits>\n    <unitsleft>0</unitsleft>\n";
  } else if (!many) {
    out +=
        "    <single>true</single>\n    <shuffleanswers>false</shuffleanswers>\n    "
        "<answernumbering>abc</answernumbering>\n";
    for (const auto& choice : q.choices) {
      const Verdict v = check(q, choice);
      answer(v.correct ? "100" : "0", choice, v.feedback, nullptr);
    }
  } else {
    // Several answers: each size that changes bound earns its share, each other choice takes one.
    std::vector<std::string> options;
    for (double n : e.sizes) options.push_back(format_number(n));
    options.push_back("none");
    const std::size_t right = q.set.empty() ? 1 : q.set.size(), wrong = options.size() - right;
    for (const auto& o : options) {
      const bool is_right = o == "none" ? q.set.empty()
                                        : std::find(q.set.begin(), q.set.end(),
                                                    std::strtod(o.c_str(), nullptr)) != q.set.end();
      const std::string percent =
          is_right ? fraction(100.0 / double(right)) : fraction(-100.0 / double(wrong));
      answer(percent, o,
             is_right ? "Yes: " + o + (o == "none" ? "." : " changes bound.")
                      : "No: " + (o == "none" ? std::string("some sizes change bound.")
                                              : o + " does not change bound."),
             nullptr);
    }
    out +=
        "    <single>false</single>\n    <shuffleanswers>false</shuffleanswers>\n    "
        "<answernumbering>abc</answernumbering>\n";
  }
  for (const auto& h : q.hints) text_element(out, "    ", "hint", "<p>" + html(h) + "</p>", true);
  out += "  </question>\n";
}

}  // namespace

Result<std::string> moodle_xml(std::string_view seed, int count,
                               const std::vector<std::string>& only) {
  auto set = generate(seed, count, only);
  if (!set) return Result<std::string>::failure_from(set);
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Roofline Lab: generated exercises (Moodle "
      "XML) -->\n<quiz>\n";
  out += "  <question type=\"category\">\n";
  text_element(out, "    ", "category", "$course$/top/Roofline Lab, seed " + category_name(seed),
               false);
  std::string families;
  for (const auto& f : only) families += (families.empty() ? "" : ", ") + f;
  text_element(
      out, "    ", "info",
      "<p>" +
          html(std::to_string(count) + " exercises generated by Roofline Lab from the seed \"" +
               std::string(seed) + "\" (" +
               (families.empty() ? std::string("all families") : "families " + families) +
               "): the same seed gives the same exercises on the page and in node "
               "scripts/exercises.mjs.") +
          "</p>",
      true);
  out += "  </question>\n";
  for (const auto& e : set.value())
    for (std::size_t i = 0; i < e.questions.size(); ++i) question(out, e, e.questions[i], i);
  out += "</quiz>\n";
  return Result<std::string>::success(std::move(out));
}

}  // namespace rl::exercises
