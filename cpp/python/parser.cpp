#include "python/parser.h"

#include "python/lexer.h"

namespace rl::python {

namespace {

// Each parse function returns null (or false) once an error is recorded; callers pass it on.
#define TRY(x)           \
  do {                   \
    if (!(x)) return {}; \
  } while (0)

struct Parser {
  std::vector<Token> toks;
  std::size_t p = 0;
  int depth = 0;
  bool failed = false;
  Error error;

  const Token& peek(std::size_t ahead = 0) const {
    return toks[std::min(p + ahead, toks.size() - 1)];
  }
  bool is_op(const char* o, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Op && peek(ahead).text == o;
  }
  bool is_kw(const char* k, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Name && peek(ahead).text == k;
  }
  const Token& next() { return toks[p < toks.size() - 1 ? p++ : p]; }

  bool fail_at(const Token& t, const std::string& m) {
    if (!failed) {
      failed = true;
      error = Error{std::to_string(t.line) + ":" + std::to_string(t.column) + ": " + m, "", t.line,
                    t.column};
    }
    return false;
  }
  // At an expression's first character (a binary operation's place is its operator's).
  bool fail_at(const Expr& e, const std::string& m) {
    const Expr* first = &e;
    while ((first->kind == EK::BinOp || first->kind == EK::Compare || first->kind == EK::BoolOp ||
            first->kind == EK::IfExp || first->kind == EK::Call || first->kind == EK::Attribute ||
            first->kind == EK::Subscript) &&
           !first->kids.empty() && first->kids[0])
      first = first->kids[0].get();
    Token t;
    t.line = first->line;
    t.column = first->column;
    return fail_at(t, m);
  }
  bool expected(const std::string& what) {
    return fail_at(peek(), "invalid syntax: expected " + what + ", found " + describe(peek()));
  }
  bool expect_op(const char* o) {
    if (!is_op(o)) return expected(std::string("'") + o + "'");
    next();
    return true;
  }
  // Depth guard: one level per nested expression or block.
  struct Deeper {
    Parser& ps;
    bool ok;
    explicit Deeper(Parser& p) : ps(p), ok(++p.depth <= kMaxNesting) {
      if (!ok)
        ps.fail_at(ps.peek(),
                   "the program nests deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ~Deeper() { --ps.depth; }
  };

  static bool is_keyword(const std::string& s) {
    static const char* const kw[] = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    for (const char* k : kw)
      if (s == k) return true;
    return false;
  }

  ExprP make(EK k, const Token& at) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->line = at.line;
    e->column = at.column;
    return e;
  }
  ExprP make(EK k, const Expr& at) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->line = at.line;
    e->column = at.column;
    return e;
  }

  // ---- what may be assigned to: CPython's compile-time rules, so a bad target stops the whole
  // program before it runs, as CPython's compiler does ----

  // An expression's kind as CPython's messages name it ("function call", "literal").
  static const char* expr_name(const Expr& e) {
    switch (e.kind) {
      case EK::Int:
      case EK::Float:
      case EK::Str:
        return e.fstring ? "f-string expression" : "literal";
      case EK::True:
        return "True";
      case EK::False:
        return "False";
      case EK::None:
        return "None";
      case EK::Ellipsis:
        return "ellipsis";
      case EK::Tuple:
        return "tuple";
      case EK::List:
        return "list";
      case EK::Set:
        return "set display";
      case EK::Dict:
        return "dict literal";
      case EK::Compare:
        return "comparison";
      case EK::IfExp:
        return "conditional expression";
      case EK::Call:
        return "function call";
      case EK::Lambda:
        return "lambda";
      case EK::Starred:
        return "starred";
      case EK::Comprehension:
        return e.s == "list"   ? "list comprehension"
               : e.s == "set"  ? "set comprehension"
               : e.s == "dict" ? "dict comprehension"
                               : "generator expression";
      default:
        return "expression";
    }
  }
  // A target of `=`, `for`, a comprehension's `for` or `with ... as`: a name, an attribute, a
  // subscript, or a tuple or list of targets with at most one starred. `assign`: the whole target
  // of a statement with one `=`, where CPython suggests '==' for most kinds.
  bool check_target(const Expr& e, bool assign = false) {
    switch (e.kind) {
      case EK::Name:
      case EK::Attribute:
      case EK::Subscript:
        return true;
      case EK::Starred:
        return fail_at(e, "starred assignment target must be in a list or tuple");
      case EK::Tuple:
      case EK::List: {
        bool starred = false;
        for (const auto& k : e.kids) {
          if (k->kind == EK::Starred) {
            if (starred) return fail_at(e, "multiple starred expressions in assignment");
            starred = true;
            TRY(check_target(*k->kids[0]));
          } else {
            TRY(check_target(*k));
          }
        }
        return true;
      }
      default: {
        // CPython suggests '==' for an operand of a comparison (not True, False, None or a
        // generator expression) as the whole target of an `=`.
        const bool operand = e.kind != EK::True && e.kind != EK::False && e.kind != EK::None &&
                             e.kind != EK::Compare && e.kind != EK::BoolOp && e.kind != EK::IfExp &&
                             e.kind != EK::Lambda && !(e.kind == EK::Unary && e.s == "not") &&
                             !(e.kind == EK::Comprehension && e.s == "gen");
        return fail_at(
            e, std::string("cannot assign to ") + expr_name(e) +
                   (assign && operand ? " here. Maybe you meant '==' instead of '='?" : ""));
      }
    }
  }
  // What `del` may name: a name, an attribute, a subscript, or a tuple or list of them.
  bool check_del(const Expr& e) {
    switch (e.kind) {
      case EK::Name:
      case EK::Attribute:
      case EK::Subscript:
        return true;
      case EK::Tuple:
      case EK::List:
        for (const auto& k : e.kids) TRY(check_del(*k));
        return true;
      default:
        return fail_at(e, std::string("cannot delete ") + expr_name(e));
    }
  }
  // A value that is a bare `*x` (a statement's, a return's, an assignment's right side).
  bool check_value(const ExprP& e) {
    return !e || e->kind != EK::Starred || fail_at(*e, "can't use starred expression here");
  }

  // ---- expressions ----
  // A comma-separated list as one expression (a tuple when a comma appears).
  ExprP expr_list(bool allow_star = true) {
    const Token& start = peek();
    ExprP first = allow_star && is_op("*") ? starred() : test();
    TRY(first);
    if (!is_op(",")) return first;
    auto t = make(EK::Tuple, start);
    t->kids.push_back(std::move(first));
    while (is_op(",")) {
      next();
      if (!starts_expr()) break;
      ExprP e = allow_star && is_op("*") ? starred() : test();
      TRY(e);
      t->kids.push_back(std::move(e));
    }
    return t;
  }
  ExprP starred() {
    const Token& at = next();
    auto e = make(EK::Starred, at);
    ExprP v = expr_or();
    TRY(v);
    e->kids.push_back(std::move(v));
    return e;
  }
  bool starts_expr() const {
    const Token& t = peek();
    if (t.kind == Tok::Name)
      return !is_keyword(t.text) || t.text == "not" || t.text == "lambda" || t.text == "None" ||
             t.text == "True" || t.text == "False";
    if (t.kind == Tok::Int || t.kind == Tok::Float || t.kind == Tok::String) return true;
    if (t.kind == Tok::Op)
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
             t.text == "~" || t.text == "..." || t.text == "*";
    return false;
  }

  ExprP test() {
    Deeper d(*this);
    TRY(d.ok);
    if (is_kw("lambda")) return lambda();
    ExprP body = or_test();
    TRY(body);
    if (is_kw("if")) {
      next();
      ExprP cond = or_test();
      TRY(cond);
      if (!is_kw("else")) return expected("'else'"), nullptr;
      next();
      ExprP orelse = test();
      TRY(orelse);
      auto e = make(EK::IfExp, *body);
      e->kids.push_back(std::move(body));
      e->kids.push_back(std::move(cond));
      e->kids.push_back(std::move(orelse));
      return e;
    }
    return body;
  }
  // A def's (close ")") or a lambda's (close ":") parameters up to `close`, left unread. Python's
  // order: positional parameters (those with defaults last), then `*` or `*args`, keyword-only
  // parameters (defaults anywhere), then `**kwargs`, which ends the list. CPython's messages.
  bool param_list(std::vector<Param>& out, const char* close) {
    const bool annotations = std::string(close) == ")";
    bool keyword_only = false;  // after `*` or `*args`
    const Token* bare_star = nullptr;
    while (!is_op(close)) {
      if (!out.empty() && out.back().kind == ParamKind::VarKeywords)
        return fail_at(peek(), "arguments cannot follow var-keyword argument");
      if (is_op("/"))
        return fail_at(peek(), "positional-only parameters ('/') are not supported here");
      Param prm;
      if (is_op("*") || is_op("**")) {
        const bool star = is_op("*");
        if (star && keyword_only) return fail_at(peek(), "* argument may appear only once");
        const Token& at = next();
        if (star && (is_op(",") || is_op(close))) {
          keyword_only = true;
          bare_star = &at;
          if (!is_op(",")) break;
          next();
          continue;
        }
        prm.kind = star ? ParamKind::VarArgs : ParamKind::VarKeywords;
        keyword_only = keyword_only || star;
      } else {
        prm.kind = keyword_only ? ParamKind::KeywordOnly : ParamKind::Positional;
      }
      if (peek().kind != Tok::Name || is_keyword(peek().text)) return expected("a parameter name");
      prm.line = peek().line, prm.column = peek().column;
      prm.name = next().text;
      for (const Param& q : out)
        if (q.name == prm.name)
          return fail_at(toks[p - 1],
                         "duplicate argument '" + prm.name + "' in function definition");
      if (annotations && is_op(":")) {
        next();
        ExprP ann = test();
        TRY(ann);
      }
      if (is_op("=")) {
        if (prm.kind == ParamKind::VarArgs || prm.kind == ParamKind::VarKeywords)
          return fail_at(peek(), std::string(prm.kind == ParamKind::VarArgs ? "var-positional"
                                                                            : "var-keyword") +
                                     " argument cannot have default value");
        next();
        prm.default_value = test();
        TRY(prm.default_value);
      } else if (prm.kind == ParamKind::Positional && !out.empty() && out.back().default_value) {
        return fail_at(peek(), "parameter without a default follows parameter with a default");
      }
      if (prm.kind == ParamKind::KeywordOnly) bare_star = nullptr;
      out.push_back(std::move(prm));
      if (!is_op(",")) break;
      next();
    }
    if (bare_star) return fail_at(*bare_star, "named arguments must follow bare *");
    return true;
  }
  ExprP lambda() {
    const Token& at = next();
    auto e = make(EK::Lambda, at);
    TRY(param_list(e->params, ":"));
    TRY(expect_op(":"));
    ExprP body = test();
    TRY(body);
    e->kids.push_back(std::move(body));
    return e;
  }
  ExprP or_test() { return bool_op("or"); }
  ExprP bool_op(const char* word) {
    ExprP left = std::string(word) == "or" ? bool_op("and") : not_test();
    TRY(left);
    if (!is_kw(word)) return left;
    auto e = make(EK::BoolOp, *left);
    e->s = word;
    e->kids.push_back(std::move(left));
    while (is_kw(word)) {
      next();
      ExprP r = std::string(word) == "or" ? bool_op("and") : not_test();
      TRY(r);
      e->kids.push_back(std::move(r));
    }
    return e;
  }
  ExprP not_test() {
    if (is_kw("not")) {
      Deeper d(*this);
      TRY(d.ok);
      const Token& at = next();
      ExprP v = not_test();
      TRY(v);
      auto e = make(EK::Unary, at);
      e->s = "not";
      e->kids.push_back(std::move(v));
      return e;
    }
    return comparison();
  }
  ExprP comparison() {
    ExprP left = expr_or();
    TRY(left);
    std::unique_ptr<Expr> cmp;
    while (true) {
      std::string op;
      const Token& t = peek();
      if (t.kind == Tok::Op && (t.text == "<" || t.text == ">" || t.text == "==" ||
                                t.text == "!=" || t.text == "<=" || t.text == ">="))
        op = t.text, next();
      else if (is_kw("in"))
        op = "in", next();
      else if (is_kw("not") && is_kw("in", 1))
        op = "not in", next(), next();
      else if (is_kw("is")) {
        next();
        op = "is";
        if (is_kw("not")) next(), op = "is not";
      } else
        break;
      if (!cmp) {
        cmp = make(EK::Compare, *left);
        cmp->kids.push_back(std::move(left));
      }
      ExprP r = expr_or();
      TRY(r);
      cmp->ops.push_back(op);
      cmp->kids.push_back(std::move(r));
    }
    return cmp ? std::move(cmp) : std::move(left);
  }
  // Binary levels, loosest first.
  ExprP expr_or() { return binary(0); }
  ExprP binary(int level) {
    static const std::vector<std::vector<const char*>> levels = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
    if (level == int(levels.size())) return unary();
    ExprP left = binary(level + 1);
    TRY(left);
    while (true) {
      const char* found = nullptr;
      for (const char* o : levels[level])
        if (is_op(o)) found = o;
      if (!found) return left;
      Deeper d(*this);
      TRY(d.ok);
      const Token& at = next();
      ExprP right = binary(level + 1);
      TRY(right);
      auto e = make(EK::BinOp, at);
      e->s = found;
      e->kids.push_back(std::move(left));
      e->kids.push_back(std::move(right));
      left = std::move(e);
    }
  }
  ExprP unary() {
    if (is_op("-") || is_op("+") || is_op("~")) {
      Deeper d(*this);
      TRY(d.ok);
      const Token& at = next();
      ExprP v = unary();
      TRY(v);
      auto e = make(EK::Unary, at);
      e->s = at.text;
      e->kids.push_back(std::move(v));
      return e;
    }
    return power();
  }
  ExprP power() {
    ExprP base = postfix();
    TRY(base);
    if (!is_op("**")) return base;
    Deeper d(*this);
    TRY(d.ok);
    const Token& at = next();
    ExprP exp = unary();
    TRY(exp);
    auto e = make(EK::BinOp, at);
    e->s = "**";
    e->kids.push_back(std::move(base));
    e->kids.push_back(std::move(exp));
    return e;
  }
  ExprP postfix() {
    ExprP e = atom();
    TRY(e);
    int levels = 0;
    while (true) {
      if (++levels > kMaxNesting)
        return fail_at(peek(),
                       "the program nests deeper than " + std::to_string(kMaxNesting) + " levels"),
               nullptr;
      if (is_op("(")) {
        const Token& at = next();
        (void)at;
        auto c = make(EK::Call, *e);
        c->kids.push_back(std::move(e));
        std::vector<ExprP> kw_values;
        while (!is_op(")")) {
          if (peek().kind == Tok::Name && is_op("=", 1) && !is_keyword(peek().text)) {
            c->names.push_back(next().text);
            next();
            ExprP v = test();
            TRY(v);
            kw_values.push_back(std::move(v));
          } else if (is_op("**")) {
            return fail_at(peek(), "'**' arguments are not supported here"), nullptr;
          } else {
            if (!c->names.empty())
              return fail_at(peek(), "positional argument follows keyword argument"), nullptr;
            ExprP v = is_op("*") ? starred() : test();
            TRY(v);
            if (is_kw("for")) {
              const int l = v->line, c = v->column;
              v = comprehension(std::move(v), "gen", l, c);
              TRY(v);
            }
            c->kids.push_back(std::move(v));
            ++c->positional;
          }
          if (!is_op(",")) break;
          next();
        }
        TRY(expect_op(")"));
        for (auto& v : kw_values) c->kids.push_back(std::move(v));
        e = std::move(c);
      } else if (is_op("[")) {
        const Token& at = next();
        (void)at;
        auto s = make(EK::Subscript, *e);
        s->kids.push_back(std::move(e));
        ExprP index = subscript_list();
        TRY(index);
        s->kids.push_back(std::move(index));
        TRY(expect_op("]"));
        e = std::move(s);
      } else if (is_op(".")) {
        next();
        if (peek().kind != Tok::Name) return expected("an attribute name"), nullptr;
        const Token& name = next();
        auto a = make(EK::Attribute, *e);
        a->s = name.text;
        a->kids.push_back(std::move(e));
        e = std::move(a);
      } else {
        return e;
      }
    }
  }
  ExprP subscript_list() {
    const Token& start = peek();
    ExprP first = subscript();
    TRY(first);
    if (!is_op(",")) return first;
    auto t = make(EK::Tuple, start);
    t->kids.push_back(std::move(first));
    while (is_op(",")) {
      next();
      if (is_op("]")) break;
      ExprP e = subscript();
      TRY(e);
      t->kids.push_back(std::move(e));
    }
    return t;
  }
  ExprP subscript() {
    const Token& at = peek();
    ExprP start;
    if (!is_op(":")) {
      start = test();
      TRY(start);
      if (!is_op(":")) return start;
    }
    auto s = make(EK::Slice, at);
    next();  // ':'
    ExprP stop, step;
    if (!is_op(":") && !is_op("]") && !is_op(",")) {
      stop = test();
      TRY(stop);
    }
    if (is_op(":")) {
      next();
      if (!is_op("]") && !is_op(",")) {
        step = test();
        TRY(step);
      }
    }
    s->kids.push_back(std::move(start));
    s->kids.push_back(std::move(stop));
    s->kids.push_back(std::move(step));
    return s;
  }
  // `element for target in iterable [if cond]...` after the element was read.
  // (line, column: the element's place, read before the element is moved in.)
  ExprP comprehension(ExprP element, const char* kind, int line, int column) {
    if (element->kind == EK::Starred)
      return fail_at(*element, "iterable unpacking cannot be used in comprehension"), nullptr;
    auto c = std::make_unique<Expr>();
    c->kind = EK::Comprehension;
    c->line = line;
    c->column = column;
    c->s = kind;
    c->kids.push_back(std::move(element));
    while (is_kw("for")) {
      next();
      CompClause clause;
      ExprP target = target_list();
      TRY(target);
      TRY(check_target(*target));
      if (!is_kw("in")) return expected("'in'"), nullptr;
      next();
      ExprP iter = or_test();
      TRY(iter);
      clause.target = c->kids.size();
      c->kids.push_back(std::move(target));
      clause.iter = c->kids.size();
      c->kids.push_back(std::move(iter));
      while (is_kw("if")) {
        next();
        ExprP cond = bool_op("or");
        TRY(cond);
        clause.conditions.push_back(c->kids.size());
        c->kids.push_back(std::move(cond));
      }
      c->clauses.push_back(std::move(clause));
    }
    return c;
  }
  // A for loop's or a comprehension's targets: `x`, `x, y`, `x, *rest` (one starred target, as
  // in an assignment).
  ExprP target_list() {
    const Token& start = peek();
    ExprP first = is_op("*") ? starred() : expr_or();
    TRY(first);
    if (!is_op(",")) return first;
    auto t = make(EK::Tuple, start);
    t->kids.push_back(std::move(first));
    while (is_op(",")) {
      next();
      if (is_kw("in") || is_op("=")) break;
      ExprP e = is_op("*") ? starred() : expr_or();
      TRY(e);
      t->kids.push_back(std::move(e));
    }
    return t;
  }
  ExprP atom() {
    Deeper d(*this);
    TRY(d.ok);
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Int: {
        next();
        auto e = make(EK::Int, t);
        e->i = t.int_value;
        e->overflow = t.int_overflow;
        e->s = t.text;
        return e;
      }
      case Tok::Float: {
        next();
        auto e = make(EK::Float, t);
        e->f = t.float_value;
        e->s = t.text;
        return e;
      }
      case Tok::String: {
        auto e = make(EK::Str, t);
        std::vector<std::pair<std::string, bool>> parts;
        while (peek().kind == Tok::String) {  // adjacent literals concatenate
          const Token& p = next();
          parts.emplace_back(p.text, p.fstring);
          e->fstring = e->fstring || p.fstring;
        }
        for (auto& [text, f] : parts) {
          if (!e->fstring || f) {
            e->s += text;
            continue;
          }
          for (char ch : text)
            e->s += ch == '{'   ? std::string("{{")
                    : ch == '}' ? std::string("}}")
                                : std::string(1, ch);
        }
        return e;
      }
      case Tok::Name: {
        if (t.text == "True" || t.text == "False" || t.text == "None") {
          next();
          return make(t.text == "True" ? EK::True : t.text == "False" ? EK::False : EK::None, t);
        }
        if (is_keyword(t.text)) return expected("an expression"), nullptr;
        next();
        auto e = make(EK::Name, t);
        e->s = t.text;
        return e;
      }
      case Tok::Op: {
        if (t.text == "...") {
          next();
          return make(EK::Ellipsis, t);
        }
        if (t.text == "(") {
          next();
          if (is_op(")")) {
            next();
            return make(EK::Tuple, t);
          }
          ExprP first = is_op("*") ? starred() : test();
          TRY(first);
          if (is_kw("for")) {
            const int fl = first->line, fc = first->column;
            ExprP c = comprehension(std::move(first), "gen", fl, fc);
            TRY(c);
            TRY(expect_op(")"));
            return c;
          }
          if (!is_op(",")) {
            if (first->kind == EK::Starred)  // `(*a)`: CPython's words for a parenthesized one
              return fail_at(*first, "cannot use starred expression here"), nullptr;
            TRY(expect_op(")"));
            return first;
          }
          auto tup = make(EK::Tuple, t);
          tup->kids.push_back(std::move(first));
          while (is_op(",")) {
            next();
            if (is_op(")")) break;
            ExprP e = is_op("*") ? starred() : test();
            TRY(e);
            tup->kids.push_back(std::move(e));
          }
          TRY(expect_op(")"));
          return tup;
        }
        if (t.text == "[" || t.text == "{") {
          const bool list = t.text == "[";
          const char* close = list ? "]" : "}";
          next();
          auto e = make(list ? EK::List : EK::Set, t);
          if (is_op(close)) {
            next();
            if (!list) e->kind = EK::Dict;
            return e;
          }
          ExprP first = is_op("*") ? starred() : test();
          TRY(first);
          if (!list && is_op(":")) {
            e->kind = EK::Dict;
            next();
            ExprP v = test();
            TRY(v);
            if (is_kw("for")) {
              const int fl = first->line, fc = first->column;
              ExprP c = comprehension(std::move(first), "dict", fl, fc);
              TRY(c);
              c->kids.insert(c->kids.begin() + 1, std::move(v));
              for (auto& cl : c->clauses) {
                ++cl.target, ++cl.iter;
                for (auto& k : cl.conditions) ++k;
              }
              TRY(expect_op(close));
              return c;
            }
            e->kids.push_back(std::move(first));
            e->kids.push_back(std::move(v));
            while (is_op(",")) {
              next();
              if (is_op(close)) break;
              ExprP k = test();
              TRY(k);
              TRY(expect_op(":"));
              ExprP val = test();
              TRY(val);
              e->kids.push_back(std::move(k));
              e->kids.push_back(std::move(val));
            }
            TRY(expect_op(close));
            return e;
          }
          if (is_kw("for")) {
            const int fl = first->line, fc = first->column;
            ExprP c = comprehension(std::move(first), list ? "list" : "set", fl, fc);
            TRY(c);
            TRY(expect_op(close));
            return c;
          }
          e->kids.push_back(std::move(first));
          while (is_op(",")) {
            next();
            if (is_op(close)) break;
            ExprP x = is_op("*") ? starred() : test();
            TRY(x);
            e->kids.push_back(std::move(x));
          }
          TRY(expect_op(close));
          return e;
        }
        return expected("an expression"), nullptr;
      }
      default:
        return expected("an expression"), nullptr;
    }
  }

  // ---- statements ----
  StmtP make_stmt(SK k, const Token& at) {
    auto s = std::make_unique<Stmt>();
    s->kind = k;
    s->line = at.line;
    s->column = at.column;
    return s;
  }
  bool end_of_simple() {
    if (is_op(";")) {
      next();
      return true;
    }
    if (peek().kind == Tok::Newline) {
      next();
      return true;
    }
    if (peek().kind == Tok::End) return true;
    return expected("end of line");
  }
  // A block after ':': an indented suite or simple statements on the same line.
  bool block(std::vector<StmtP>& out) {
    TRY(expect_op(":"));
    Deeper d(*this);
    TRY(d.ok);
    if (peek().kind != Tok::Newline) return simple_line(out);
    next();
    if (peek().kind != Tok::Indent)
      return fail_at(peek(), "expected an indented block, found " + describe(peek()));
    next();
    while (peek().kind != Tok::Dedent && peek().kind != Tok::End) TRY(statement(out));
    if (peek().kind == Tok::Dedent) next();
    return true;
  }
  bool simple_line(std::vector<StmtP>& out) {
    while (true) {
      StmtP s = simple();
      TRY(s);
      out.push_back(std::move(s));
      if (is_op(";")) {
        next();
        if (peek().kind == Tok::Newline) {
          next();
          return true;
        }
        continue;
      }
      if (peek().kind == Tok::Newline) {
        next();
        return true;
      }
      if (peek().kind == Tok::End) return true;
      return expected("end of line");
    }
  }
  bool dotted_name(std::string& out) {
    if (peek().kind != Tok::Name) return expected("a module name");
    out = next().text;
    while (is_op(".")) {
      next();
      if (peek().kind != Tok::Name) return expected("a module name");
      out += "." + next().text;
    }
    return true;
  }
  StmtP simple() {
    const Token& t = peek();
    if (t.kind == Tok::Name) {
      const std::string& w = t.text;
      if (w == "pass" || w == "break" || w == "continue") {
        next();
        return make_stmt(w == "pass" ? SK::Pass : w == "break" ? SK::Break : SK::Continue, t);
      }
      if (w == "return") {
        next();
        auto s = make_stmt(SK::Return, t);
        if (starts_expr()) {
          s->value = expr_list();
          TRY(s->value);
          TRY(check_value(s->value));
        }
        return s;
      }
      if (w == "import") {
        next();
        auto s = make_stmt(SK::Import, t);
        while (true) {
          Alias a;
          a.line = peek().line, a.column = peek().column;
          TRY(dotted_name(a.name));
          if (is_kw("as")) {
            next();
            if (peek().kind != Tok::Name) return expected("a name"), nullptr;
            a.as = next().text;
          }
          s->aliases.push_back(std::move(a));
          if (!is_op(",")) break;
          next();
        }
        return s;
      }
      if (w == "from") {
        next();
        auto s = make_stmt(SK::ImportFrom, t);
        TRY(dotted_name(s->s));
        if (!is_kw("import")) return expected("'import'"), nullptr;
        next();
        const bool paren = is_op("(");
        if (paren) next();
        while (true) {
          Alias a;
          a.line = peek().line, a.column = peek().column;
          if (is_op("*"))
            return fail_at(peek(), "'from ... import *' is not supported here"), nullptr;
          if (peek().kind != Tok::Name) return expected("a name"), nullptr;
          a.name = next().text;
          if (is_kw("as")) {
            next();
            if (peek().kind != Tok::Name) return expected("a name"), nullptr;
            a.as = next().text;
          }
          s->aliases.push_back(std::move(a));
          if (!is_op(",")) break;
          next();
          if (paren && is_op(")")) break;
        }
        if (paren) TRY(expect_op(")"));
        return s;
      }
      if (w == "assert" || w == "raise" || w == "del" || w == "global" || w == "nonlocal") {
        next();
        auto s = make_stmt(w == "assert"   ? SK::Assert
                           : w == "raise"  ? SK::Raise
                           : w == "del"    ? SK::Del
                           : w == "global" ? SK::Global
                                           : SK::Nonlocal,
                           t);
        if (w == "assert" && !starts_expr()) {  // Python: a bare assert is a syntax error
          expected("a condition after 'assert'");
          return {};
        }
        if (starts_expr()) {
          ExprP e = w == "assert" ? test() : expr_list();
          TRY(e);
          if (w == "del") TRY(check_del(*e));
          s->extra.push_back(std::move(e));
          if ((w == "assert" && is_op(",")) || (w == "raise" && is_kw("from"))) {
            next();
            ExprP m = test();
            TRY(m);
            s->extra.push_back(std::move(m));
          }
        }
        return s;
      }
    }
    // Expression, assignment or augmented assignment.
    ExprP first = expr_list();
    TRY(first);
    if (is_op("=")) {
      auto s = make_stmt(SK::Assign, t);
      s->targets.push_back(std::move(first));
      while (is_op("=")) {
        next();
        ExprP v = expr_list();
        TRY(v);
        s->targets.push_back(std::move(v));
      }
      s->value = std::move(s->targets.back());
      s->targets.pop_back();
      for (const auto& target : s->targets) TRY(check_target(*target, s->targets.size() == 1));
      TRY(check_value(s->value));
      return s;
    }
    if (is_op(":")) {  // annotated assignment: the annotation is read and ignored
      next();
      auto s = make_stmt(SK::AnnAssign, t);
      ExprP ann = test();
      TRY(ann);
      if (first->kind != EK::Name && first->kind != EK::Attribute && first->kind != EK::Subscript)
        return fail_at(*first,
                       std::string(first->kind == EK::Tuple || first->kind == EK::List
                                       ? "only single target (not " +
                                             std::string(expr_name(*first)) + ") can be annotated"
                                       : "illegal target for annotation")),
               nullptr;
      s->targets.push_back(std::move(first));
      if (is_op("=")) {
        next();
        s->value = expr_list();
        TRY(s->value);
        TRY(check_value(s->value));
      }
      return s;
    }
    if (peek().kind == Tok::Op && peek().text.size() >= 2 && peek().text.back() == '=' &&
        peek().text != "==" && peek().text != "<=" && peek().text != ">=" && peek().text != "!=" &&
        peek().text != ":=") {
      auto s = make_stmt(SK::AugAssign, t);
      s->s = next().text;
      s->s.pop_back();
      if (first->kind != EK::Name && first->kind != EK::Attribute && first->kind != EK::Subscript)
        return fail_at(*first, std::string("'") + expr_name(*first) +
                                   "' is an illegal expression for augmented assignment"),
               nullptr;
      s->targets.push_back(std::move(first));
      s->value = expr_list();
      TRY(s->value);
      TRY(check_value(s->value));
      return s;
    }
    TRY(check_value(first));
    auto s = make_stmt(SK::Expr, t);
    s->value = std::move(first);
    return s;
  }
  bool statement(std::vector<StmtP>& out) {
    const Token& t = peek();
    if (t.kind == Tok::Indent) return fail_at(t, "unexpected indent");
    if (t.kind == Tok::Newline) {
      next();
      return true;
    }
    if (is_op("@")) {
      std::vector<ExprP> decorators;
      while (is_op("@")) {
        next();
        ExprP d = test();
        TRY(d);
        decorators.push_back(std::move(d));
        if (peek().kind != Tok::Newline) return expected("end of line");
        next();
      }
      if (!is_kw("def")) return expected("'def' after decorators");
      std::size_t before = out.size();
      TRY(statement(out));
      if (out.size() > before) out.back()->decorators = std::move(decorators);
      return true;
    }
    if (t.kind == Tok::Name) {
      const std::string& w = t.text;
      if (w == "def") {
        next();
        auto s = make_stmt(SK::Def, t);
        if (peek().kind != Tok::Name || is_keyword(peek().text)) return expected("a function name");
        s->s = next().text;
        TRY(expect_op("("));
        TRY(param_list(s->params, ")"));
        TRY(expect_op(")"));
        if (is_op("->")) {
          next();
          ExprP ann = test();
          TRY(ann);
        }
        TRY(block(s->body));
        out.push_back(std::move(s));
        return true;
      }
      if (w == "if" || w == "while") {
        Deeper d(*this);
        TRY(d.ok);
        next();
        auto s = make_stmt(w == "if" ? SK::If : SK::While, t);
        s->value = test();
        TRY(s->value);
        TRY(block(s->body));
        if (w == "if" && is_kw("elif")) {
          // elif: a nested if in orelse
          std::vector<StmtP> nested;
          toks[p].text = "if";
          TRY(statement(nested));
          s->orelse = std::move(nested);
        } else if (is_kw("else")) {
          next();
          TRY(block(s->orelse));
        }
        out.push_back(std::move(s));
        return true;
      }
      if (w == "for") {
        next();
        auto s = make_stmt(SK::For, t);
        ExprP target = target_list();
        TRY(target);
        TRY(check_target(*target));
        s->targets.push_back(std::move(target));
        if (!is_kw("in")) return expected("'in'");
        next();
        s->value = expr_list();
        TRY(s->value);
        TRY(check_value(s->value));
        TRY(block(s->body));
        if (is_kw("else")) {
          next();
          TRY(block(s->orelse));
        }
        out.push_back(std::move(s));
        return true;
      }
      if (w == "with") {
        next();
        auto s = make_stmt(SK::With, t);
        while (true) {
          ExprP e = test();
          TRY(e);
          s->extra.push_back(std::move(e));
          if (is_kw("as")) {
            next();
            ExprP target = target_list();
            TRY(target);
            TRY(check_target(*target));
            s->targets.push_back(std::move(target));
          }
          if (!is_op(",")) break;
          next();
        }
        TRY(block(s->body));
        out.push_back(std::move(s));
        return true;
      }
      if (w == "try") {
        next();
        auto s = make_stmt(SK::Try, t);
        TRY(block(s->body));
        bool any = false;
        while (is_kw("except") || is_kw("else") || is_kw("finally")) {
          any = true;
          const Token& kt = peek();
          const std::string kw = next().text;
          if (kw == "except") {
            ExceptClause h;
            h.line = kt.line, h.column = kt.column;
            if (!is_op(":")) {
              h.type = test();
              TRY(h.type);
              if (is_kw("as")) {
                next();
                if (peek().kind != Tok::Name) return expected("a name");
                h.name = next().text;
              }
            }
            TRY(block(h.body));
            s->handlers.push_back(std::move(h));
          } else {
            TRY(block(kw == "else" ? s->orelse : s->finalbody));
          }
        }
        if (!any) return expected("'except' or 'finally'");
        out.push_back(std::move(s));
        return true;
      }
      if (w == "class" || w == "async" || w == "yield" || w == "await" || w == "match")
        if (w != "match" || (peek(1).kind == Tok::Name))
          return fail_at(t, "'" + w + "' is not supported here");
      if (w == "else" || w == "elif" || w == "except" || w == "finally")
        return fail_at(t, "invalid syntax: '" + w + "' without a matching statement");
    }
    return simple_line(out);
  }
};

}  // namespace

Result<Program> parse(const std::string& source) {
  auto toks = tokenize(source);
  if (!toks) return Result<Program>::failure(toks.error_info());
  Parser ps;
  ps.toks = std::move(toks.value());
  Program prog;
  while (ps.peek().kind != Tok::End) {
    if (!ps.statement(prog.body)) return Result<Program>::failure(ps.error);
  }
  return Result<Program>::success(std::move(prog));
}

}  // namespace rl::python
