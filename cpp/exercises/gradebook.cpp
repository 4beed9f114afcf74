#include "exercises/gradebook.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "common/json_reader.h"
#include "common/json_writer.h"
#include "common/numbers.h"
#include "exercises/exercises.h"

namespace rl::exercises {

namespace {

constexpr const char* kKind = "roofline-lab classroom results";
constexpr std::size_t kMaxText =
    10000;  // bytes of one answer, time or name: far above what the page writes

struct Attempt {
  std::string answer;
  std::string at;
};

struct Row {
  int exercise = 0;  // 0-based
  std::string question;
  std::vector<Attempt> history;
  int attempts = 0;
  int hints = 0;
  bool solution = false;
  std::size_t place = 0;  // its index in the file's "questions"
};

struct Parsed {
  SetSpec set;
  std::string student;
  std::string unnamed;  // an export without a name: the id its browser gave it ("" in older files)
  std::string exported;
  std::vector<Row> rows;
};

// A text from a file, quoted in a message: its first 60 bytes (cut between characters, not inside
// one).
std::string quoted(std::string_view s) {
  std::size_t n = std::min<std::size_t>(s.size(), 60);
  while (n < s.size() && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  std::string out = "\"";
  for (char c : s.substr(0, n)) out += c == '"' ? std::string("\\\"") : std::string(1, c);
  return out + (n < s.size() ? "…\"" : "\"");
}

std::string joined(const std::vector<std::string>& xs, const std::string& sep) {
  std::string out;
  for (const auto& x : xs) out += (out.empty() ? "" : sep) + x;
  return out;
}

// The families as the core orders them: all of them, in the core's order, is "all" (empty).
std::vector<std::string> normalized(std::vector<std::string> fs) {
  return fs == families() ? std::vector<std::string>{} : fs;
}

bool same_set(const SetSpec& a, const SetSpec& b) {
  return a.seed == b.seed && a.count == b.count && a.families == b.families;
}

std::string describe(const SetSpec& s) {
  return "seed " + quoted(s.seed) + ", " + std::to_string(s.count) + " exercise" +
         (s.count == 1 ? "" : "s") + ", " +
         (s.families.empty() ? std::string("all families")
                             : "families " + joined(s.families, ", "));
}

bool whole(double x, double lo, double hi) { return x == std::floor(x) && x >= lo && x <= hi; }

const char* type_of(const Json* v) { return v ? json_type_name(v->type) : "missing"; }

// A file's structure read into a Parsed, or the first thing wrong with it.
Result<Parsed> read_file(const ResultFile& f) {
  using R = Result<Parsed>;
  const double bytes = std::max(f.bytes, double(f.text.size()));
  if (bytes > kMaxResultFileBytes) {
    return R::failure("is " + format_number(bytes) +
                      " bytes; a result file must be at most 5 MB (" +
                      format_number(kMaxResultFileBytes) + " bytes)");
  }
  // A result file holds at most kMaxAttemptsPerFile attempts of a few values each: far fewer values
  // than 5 MB of tiny ones, which would cost hundreds of MB as a tree.
  JsonLimits limits;
  limits.max_values = 500000;
  auto json = parse_json(f.text, limits);
  if (!json)
    return R::failure(
        "is not JSON (" + json.error() +
        "): a result file is the JSON that section 9's \"Export my results (JSON)\" writes");
  const Json& root = json.value();
  const Json* kind = root.find("kind");
  if (!root.is_object() || !kind || !kind->is_string() || kind->string != kKind) {
    return R::failure("is not a Roofline Lab result file (it has no \"kind\": \"" +
                      std::string(kKind) + "\")");
  }
  const Json* version = root.find("version");
  if (!version || !version->is_number() || !whole(version->number, 1, 1e9)) {
    return R::failure("has no version number (\"version\" is " + std::string(type_of(version)) +
                      ")");
  }
  if (version->number == 1) {
    return R::failure(
        "is version 1, exported before attempt histories were kept: the student can export it "
        "again from "
        "section 9 (their answers are still in their browser)");
  }
  if (version->number != kResultFileVersion) {
    return R::failure(
        "is version " + format_number(version->number) +
        (version->number > kResultFileVersion ? ", written by a newer Roofline Lab" : "") +
        "; this gradebook reads version " + std::to_string(kResultFileVersion));
  }
  Parsed p;
  // A text member of at most kMaxText bytes.
  auto text = [](const Json* v, std::string& out) {
    if (!v || !v->is_string() || v->string.size() > kMaxText) return false;
    out = v->string;
    return true;
  };
  if (!text(root.find("seed"), p.set.seed) || p.set.seed.empty()) {
    return R::failure(
        "has no seed (\"seed\" must be a non-empty text of at most 10000 bytes, got " +
        std::string(type_of(root.find("seed"))) + ")");
  }
  if (!text(root.find("student"), p.student)) {
    return R::failure(
        "has no student (\"student\" must be a text of at most 10000 bytes, \"\" for none, got " +
        std::string(type_of(root.find("student"))) + ")");
  }
  if (const Json* e = root.find("exported"); e && e->is_string() && e->string.size() <= 64)
    p.exported = e->string;
  // Two students who export without a name answer the same set: the id each browser gave its
  // unnamed exports tells them apart (files before it had none: all unnamed ones are one student).
  // The id is 4 to 12 lowercase letters and digits, as the page makes it (web/model/progress.js,
  // UNNAMED_ID); another value is refused by name rather than read as "no id".
  if (const Json* u = root.find("unnamed_id"); u && p.student.empty()) {
    const bool ok = u->is_string() && u->string.size() >= 4 && u->string.size() <= 12 &&
                    std::all_of(u->string.begin(), u->string.end(), [](char c) {
                      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
                    });
    if (!ok)
      return R::failure(
          "has a malformed unnamed_id (\"unnamed_id\" must be 4 to 12 lowercase letters and "
          "digits, got " +
          (u->is_string()
               ? "\"" + u->string.substr(0, 40) + (u->string.size() > 40 ? "...\"" : "\"")
               : std::string(type_of(u))) +
          ")");
    p.unnamed = u->string;
  }
  const Json* count = root.find("count");
  if (!count || !count->is_number() || !whole(count->number, 1, 100)) {
    return R::failure(
        "has no count (\"count\" must be an integer from 1 to 100, got " +
        (count && count->is_number() ? format_number(count->number) : std::string(type_of(count))) +
        ")");
  }
  p.set.count = int(count->number);
  const Json* fams = root.find("families");
  if (fams && fams->is_string() && fams->string == "all") {
    // all families
  } else if (fams && fams->is_array() && fams->items.size() <= 100 &&
             std::all_of(fams->items.begin(), fams->items.end(),
                         [](const Json& x) { return x.is_string() && x.string.size() <= 100; })) {
    for (const auto& x : fams->items) p.set.families.push_back(x.string);
    p.set.families = normalized(p.set.families);
  } else {
    return R::failure(
        "has no families (\"families\" must be \"all\" or a list of family ids, got " +
        std::string(type_of(fams)) + ")");
  }
  const Json* questions = root.find("questions");
  if (!questions || !questions->is_array()) {
    return R::failure("has no answers (\"questions\" must be a list, got " +
                      std::string(type_of(questions)) + ")");
  }
  std::size_t total = 0;
  for (const auto& q : questions->items) {
    const Json* h = q.find("history");
    total += h && h->is_array() ? h->items.size() : 0;
  }
  if (total > std::size_t(kMaxAttemptsPerFile)) {
    return R::failure("holds " + std::to_string(total) +
                      " attempts; a result file may hold at most " +
                      std::to_string(kMaxAttemptsPerFile));
  }
  for (std::size_t i = 0; i < questions->items.size(); ++i) {
    const Json& q = questions->items[i];
    const std::string where = "questions[" + std::to_string(i) + "]";
    if (!q.is_object())
      return R::failure(where + " must be an object, got " + json_type_name(q.type));
    Row row;
    row.place = i;
    const Json* ex = q.find("exercise");
    if (!ex || !ex->is_number() || !whole(ex->number, 1, 1e9)) {
      return R::failure(where + ".exercise must be an exercise number (1, 2, …), got " +
                        type_of(ex));
    }
    if (ex->number > p.set.count) {
      return R::failure(where + ": exercise " + format_number(ex->number) + " is not in a set of " +
                        std::to_string(p.set.count));
    }
    row.exercise = int(ex->number) - 1;
    if (!text(q.find("question"), row.question))
      return R::failure(where + ".question must be a question id such as \"work\"");
    const Json* h = q.find("history");
    if (!h || !h->is_array())
      return R::failure(where + ".history must be a list of attempts, got " + type_of(h));
    if (h->items.size() > std::size_t(kMaxAttemptsPerQuestion)) {
      return R::failure(where + " (exercise " + std::to_string(row.exercise + 1) + ", " +
                        quoted(row.question) + ") has " + std::to_string(h->items.size()) +
                        " attempts; a result file may hold at most " +
                        std::to_string(kMaxAttemptsPerQuestion) + " for a question");
    }
    for (std::size_t k = 0; k < h->items.size(); ++k) {
      const Json& a = h->items[k];
      Attempt at;
      if (!a.is_object() || !text(a.find("answer"), at.answer)) {
        return R::failure(where + ".history[" + std::to_string(k) +
                          "].answer must be a text of at most " + std::to_string(kMaxText) +
                          " bytes");
      }
      if (const Json* t = a.find("at"); t && t->is_string() && t->string.size() <= 64)
        at.at = t->string;
      row.history.push_back(std::move(at));
    }
    const Json* attempts = q.find("attempts");
    if (attempts && !(attempts->is_number() && whole(attempts->number, 0, 1e9))) {
      return R::failure(where + ".attempts must be a count, got " + type_of(attempts));
    }
    row.attempts = std::max(int(row.history.size()), attempts ? int(attempts->number) : 0);
    const Json* hints = q.find("hints_used");
    if (hints && !(hints->is_number() && whole(hints->number, 0, 1e6))) {
      return R::failure(where + ".hints_used must be a count, got " + type_of(hints));
    }
    row.hints = hints ? int(hints->number) : 0;
    const Json* solution = q.find("solution_opened");
    if (solution && !solution->is_bool())
      return R::failure(where + ".solution_opened must be true or false, got " + type_of(solution));
    row.solution = solution && solution->boolean;
    for (const auto& other : p.rows) {
      if (other.exercise == row.exercise && other.question == row.question) {
        return R::failure(where + " repeats exercise " + std::to_string(row.exercise + 1) +
                          ", question " + quoted(row.question));
      }
    }
    p.rows.push_back(std::move(row));
  }
  return R::success(std::move(p));
}

struct Column {
  int exercise;
  std::string family, title, question, prompt;
  int hints;
};

struct Answer {
  std::string status = "not_tried";
  int attempts = 0;
  int right_at = 0;  // 1-based attempt of the first right answer, 0: none
  int hints = 0;
  bool solution = false;
  std::string answer, feedback, category;
  std::vector<std::string> mistakes;  // the categories of its wrong attempts, each once
};

struct Graded {
  std::size_t file;
  std::string student, unnamed, seed_used, exported;
  std::vector<Answer> answers;  // by column
  int right = 0, tried = 0, attempts = 0, hints = 0, solutions = 0;
};

// Regrades one file's answers with the core; an answer to a question its variant lacks, or more
// hints than the question has, refuses the file.
Result<Graded> grade(const Parsed& p, std::size_t file, const std::vector<Column>& columns) {
  using R = Result<Graded>;
  Graded g;
  g.file = file;
  g.student = p.student;
  g.unnamed = p.unnamed;
  g.seed_used = variant_seed(p.set.seed, p.student);
  g.exported = p.exported;
  g.answers.resize(columns.size());
  std::map<int, Exercise> made;  // the student's exercises, made as needed
  std::map<int, bool> solution;
  for (const auto& row : p.rows) {
    auto it = made.find(row.exercise);
    if (it == made.end()) {
      auto e = generate_one(g.seed_used, p.set.count, p.set.families, row.exercise);
      if (!e) return R::failure("its set cannot be made: " + e.error());
      it = made.emplace(row.exercise, std::move(e.value())).first;
    }
    const Exercise& e = it->second;
    const std::string where = "questions[" + std::to_string(row.place) + "]";
    auto q = std::find_if(e.questions.begin(), e.questions.end(),
                          [&](const Question& x) { return x.id == row.question; });
    if (q == e.questions.end()) {
      std::vector<std::string> ids;
      for (const auto& x : e.questions) ids.push_back(x.id);
      return R::failure(where + ": exercise " + std::to_string(row.exercise + 1) +
                        " has no question " + quoted(row.question) + " (it has " +
                        joined(ids, ", ") + ")");
    }
    if (row.hints > int(q->hints.size())) {
      return R::failure(where + ": hints_used is " + std::to_string(row.hints) + ", but exercise " +
                        std::to_string(row.exercise + 1) + "'s question " + quoted(row.question) +
                        " has " + std::to_string(q->hints.size()) + " hint" +
                        (q->hints.size() == 1 ? "" : "s"));
    }
    solution[row.exercise] = solution[row.exercise] || row.solution;
    auto col = std::find_if(columns.begin(), columns.end(), [&](const Column& c) {
      return c.exercise == row.exercise && c.question == row.question;
    });
    if (col == columns.end()) continue;  // not reached: every variant has the class set's questions
    Answer& a = g.answers[std::size_t(col - columns.begin())];
    a.attempts = row.attempts;
    a.hints = row.hints;
    for (std::size_t k = 0; k < row.history.size(); ++k) {
      const Verdict v = check(*q, row.history[k].answer);
      if (v.correct && a.right_at == 0) {
        a.right_at = int(k) + 1;
        a.answer = row.history[k].answer, a.feedback = v.feedback, a.category = v.category;
      }
      if (!v.correct &&
          std::find(a.mistakes.begin(), a.mistakes.end(), v.category) == a.mistakes.end())
        a.mistakes.push_back(v.category);
      if (a.right_at == 0)
        a.answer = row.history[k].answer, a.feedback = v.feedback, a.category = v.category;
    }
    a.status = a.right_at ? "right" : row.history.empty() ? "not_tried" : "wrong";
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    Answer& a = g.answers[c];
    a.solution = solution[columns[c].exercise];
    g.right += a.status == "right";
    g.tried += a.status != "not_tried";
    g.attempts += a.attempts;
    g.hints += a.hints;
  }
  for (const auto& [exercise, opened] : solution) g.solutions += opened;
  return R::success(std::move(g));
}

}  // namespace

Result<std::string> gradebook_json(const std::vector<ResultFile>& files,
                                   const std::optional<SetSpec>& expected_in) {
  std::vector<std::pair<std::size_t, std::string>> refused;
  std::vector<std::optional<Parsed>> parsed(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i >= kMaxGradebookFiles) {
      refused.push_back({i, "is one file too many: a gradebook takes at most " +
                                std::to_string(kMaxGradebookFiles) + " files"});
      continue;
    }
    auto r = read_file(files[i]);
    if (r)
      parsed[i] = std::move(r.value());
    else
      refused.push_back({i, r.error()});
  }

  // The set: the one given, or the one most files belong to (the first of equals).
  std::optional<SetSpec> set;
  std::string from = "none";
  if (expected_in) {
    set = *expected_in;
    set->families = normalized(set->families);
    from = "given";
  } else {
    std::size_t best = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (!parsed[i]) continue;
      std::size_t n = 0;
      for (const auto& other : parsed) n += other && same_set(other->set, parsed[i]->set);
      if (n > best) best = n, set = parsed[i]->set, from = "files";
    }
  }

  std::vector<Column> columns;
  std::string set_error;
  if (set) {
    auto made = generate(set->seed, set->count, set->families);
    if (made) {
      for (const auto& e : made.value())
        for (const auto& q : e.questions)
          columns.push_back({e.index, e.family, e.title, q.id, q.prompt, int(q.hints.size())});
    } else if (expected_in) {
      return Result<std::string>::failure("the set to grade against cannot be made: " +
                                          made.error());
    } else {
      set_error = made.error();
    }
  }

  std::vector<Graded> graded;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!parsed[i]) continue;
    if (!set_error.empty()) {
      refused.push_back({i, "its set cannot be made: " + set_error});
      continue;
    }
    if (!same_set(parsed[i]->set, *set)) {
      refused.push_back({i, "belongs to another set (" + describe(parsed[i]->set) +
                                "); this gradebook grades " + describe(*set)});
      continue;
    }
    auto g = grade(*parsed[i], i, columns);
    if (g)
      graded.push_back(std::move(g.value()));
    else
      refused.push_back({i, g.error()});
  }

  // One file per student: the one exported last (the first of equals) is graded.
  std::vector<Graded> kept;
  for (auto& g : graded) {
    auto same = std::find_if(kept.begin(), kept.end(), [&](const Graded& k) {
      return k.student == g.student && k.unnamed == g.unnamed;
    });
    if (same == kept.end()) {
      kept.push_back(std::move(g));
      continue;
    }
    const bool newer = g.exported > same->exported;
    const bool tie = g.exported == same->exported;
    const std::size_t loser = newer ? same->file : g.file, winner = newer ? g.file : same->file;
    const std::string who = !g.student.empty()   ? "student " + quoted(g.student)
                            : !g.unnamed.empty() ? "the unnamed export " + quoted(g.unnamed)
                                                 : "the teacher's own set (no student name)";
    refused.push_back(
        {loser, "repeats " + who + ": " + files[winner].name +
                    (tie ? ", exported at the same time and given first," : ", exported later,") +
                    " is graded"});
    if (newer) *same = std::move(g);
  }
  std::sort(kept.begin(), kept.end(),
            [](const Graded& a, const Graded& b) { return a.file < b.file; });
  std::stable_sort(refused.begin(), refused.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  JsonWriter j;
  j.begin_object();
  j.key("set");
  if (set) {
    j.begin_object().field("seed", set->seed).field("count", set->count);
    j.key("families").begin_array();
    for (const auto& f : set->families) j.value(f);
    j.end_array().field("from", from).end_object();
  } else {
    j.null();
  }
  j.key("questions").begin_array();
  for (const auto& c : columns) {
    j.begin_object()
        .field("exercise", c.exercise)
        .field("family", c.family)
        .field("title", c.title)
        .field("question", c.question)
        .field("prompt", c.prompt)
        .field("hints", c.hints)
        .end_object();
  }
  j.end_array();
  j.key("students").begin_array();
  for (const auto& g : kept) {
    j.begin_object()
        .field("file", files[g.file].name)
        .field("student", g.student)
        .field("unnamed_id", g.unnamed)
        .field("seed_used", g.seed_used)
        .field("exported", g.exported)
        .field("right", g.right)
        .field("tried", g.tried)
        .field("attempts", g.attempts)
        .field("hints", g.hints)
        .field("solutions", g.solutions);
    j.key("answers").begin_array();
    for (const auto& a : g.answers) {
      j.begin_object().field("status", a.status).field("attempts", a.attempts);
      j.key("right_at");
      if (a.right_at)
        j.value(a.right_at);
      else
        j.null();
      j.field("hints", a.hints)
          .field("solution_opened", a.solution)
          .field("answer", a.answer)
          .field("feedback", a.feedback)
          .field("category", a.category)
          .end_object();
    }
    j.end_array().end_object();
  }
  j.end_array();
  // Per question: how many students got it right, and the mistake most students made (by the
  // checker's category; its feedback from the first student who made it).
  j.key("summary").begin_array();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    int right = 0, tried = 0;
    std::vector<std::pair<std::string, int>> counts;
    for (const auto& g : kept) {
      const Answer& a = g.answers[c];
      right += a.status == "right";
      tried += a.status != "not_tried";
      for (const auto& m : a.mistakes) {
        auto it =
            std::find_if(counts.begin(), counts.end(), [&](const auto& x) { return x.first == m; });
        if (it == counts.end())
          counts.push_back({m, 1});
        else
          ++it->second;
      }
    }
    j.begin_object()
        .field("students", int(kept.size()))
        .field("tried", tried)
        .field("right", right);
    j.key("share_right");
    if (kept.empty())
      j.null();
    else
      j.value(double(right) / double(kept.size()));
    j.key("mistake");
    auto top = std::max_element(counts.begin(), counts.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top == counts.end()) {
      j.null();
    } else {
      std::string example;
      // The feedback that category gives, as one student saw it.
      for (const auto& g : kept) {
        if (!example.empty()) break;
        const Answer& a = g.answers[c];
        if (std::find(a.mistakes.begin(), a.mistakes.end(), top->first) == a.mistakes.end())
          continue;
        const Column& col = columns[c];
        auto e = generate_one(g.seed_used, set->count, set->families, col.exercise);
        auto& qs = e.value().questions;
        auto q = std::find_if(qs.begin(), qs.end(),
                              [&](const Question& x) { return x.id == col.question; });
        const auto& p = *parsed[g.file];
        for (const auto& row : p.rows) {
          if (row.exercise != col.exercise || row.question != col.question) continue;
          for (const auto& at : row.history) {
            const Verdict v = check(*q, at.answer);
            if (!v.correct && v.category == top->first) {
              example = v.feedback;
              break;
            }
          }
        }
      }
      j.begin_object()
          .field("category", top->first)
          .field("feedback", example)
          .field("students", top->second)
          .end_object();
    }
    j.end_object();
  }
  j.end_array();
  j.key("refused").begin_array();
  for (const auto& [i, reason] : refused)
    j.begin_object().field("file", files[i].name).field("reason", reason).end_object();
  j.end_array();
  j.key("totals")
      .begin_object()
      .field("files", int(files.size()))
      .field("students", int(kept.size()))
      .field("refused", int(refused.size()))
      .end_object();
  j.end_object();
  return Result<std::string>::success(j.take());
}

}  // namespace rl::exercises
