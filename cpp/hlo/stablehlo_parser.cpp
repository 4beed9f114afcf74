// StableHLO / MLIR text → IR.
//
// Generic ops ("stablehlo.add"(%a, %b) <{props}> ({regions}) {attrs} : (T, T) -> T) are parsed by
// their grammar. Pretty (custom-assembly) ops are scanned: an op runs to the end of its line at
// bracket depth 0, continuing across lines only into its regions and their keywords (`cond`,
// `do`, `reducer`, `else`). On the way it collects operands (%v), `name = value` attributes,
// `{...}` attribute dicts, `@symbols`, region argument definitions, the pretty forms' own
// pieces (a constant's `dense<...>`, compare's direction and type, slice's `[a:b:s]`,
// get_tuple_element's `[i]`) and the trailing type signature (`: T`, `: T, U`,
// `: (T, U) -> R`). Operands are resolved to values through a scoped symbol table (regions
// may reuse names of sibling regions); a name used before it is defined is an error.
#include <algorithm>
#include <cstring>
#include <memory>

#include "common/loop_body.h"
#include "common/memory.h"
#include "hlo/lexer.h"
#include "hlo/name_map.h"
#include "hlo/parse.h"

namespace rl::hlo {

namespace {

bool is_continuation(std::string_view w) {
  return w == "cond" || w == "do" || w == "reducer" || w == "else" || w == "then";
}

std::string_view strip_symbol(std::string_view s) {
  if (!s.empty() && (s[0] == '@' || s[0] == '%')) s.remove_prefix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

// `#stablehlo<comparison_direction LT>` → "LT": the last word before the closing '>'.
std::string_view enum_word(std::string_view v) {
  if (v.empty() || v[0] != '#') return v;
  std::size_t end = v.size();
  while (end > 0 && (v[end - 1] == '>' || v[end - 1] == ' ')) --end;
  std::size_t begin = end;
  while (begin > 0 && (chars::alnum(v[begin - 1]) || v[begin - 1] == '_')) --begin;
  return v.substr(begin, end - begin);
}

constexpr std::int64_t kMaxResultCount = 4096;  // `%x:N` names N results
constexpr std::int64_t kMaxDim = std::int64_t(1) << 50;

// "1 result", "2 results".
std::string counted(std::size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// A number as written, for messages: quoted, its first 40 characters.
std::string number_text(std::string_view s) {
  return "'" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'");
}

class MlirParser {
 public:
  explicit MlirParser(std::shared_ptr<const std::string> source)
      : src_(std::move(source)), lx_(*src_, false), text_(*src_) {}

  Result<std::vector<Module>> run() {
    const std::size_t control = find_control_char(text_);
    if (control != std::string_view::npos)
      return Result<std::vector<Module>>::failure_at(control_char_error(lx_, control),
                                                     lx_.line_of(control), lx_.column_of(control));
    bool have_implicit = false;
    std::size_t implicit = 0;
    while (!failed_) {
      Token t = lx_.peek();
      if (t.kind == Tok::End) break;
      if (t.kind == Tok::Split) {
        lx_.next();
        have_implicit = false;
        continue;
      }
      if (t.kind == Tok::Ident && t.text == "module") {
        have_implicit = false;
        Module& m = new_module(lx_.line_of(t.offset));
        if (!parse_module(m)) break;
        continue;
      }
      if (t.kind == Tok::Ident && (t.text == "func.func" || t.text == "func")) {
        if (!have_implicit) {
          new_module(lx_.line_of(t.offset));
          implicit = modules_.size() - 1;
          have_implicit = true;
        }
        Module& m = modules_[implicit];
        use_module(m);
        m.functions.emplace_back();
        if (!parse_function(m.functions.back())) break;
        continue;
      }
      if (t.kind == Tok::Hash || t.kind == Tok::Bang) {  // #alias = ..., !alias = type
        skip_line();
        continue;
      }
      if (t.kind == Tok::LBrace &&
          text_.compare(t.offset, 3, "{-#") == 0) {  // {-# dialect_resources ... #-}
        if (!skip_group()) break;
        continue;
      }
      fail(t.offset, "unexpected text at the top level", "'module', 'func.func' or '// -----'",
           describe(t));
    }
    if (failed_) return Result<std::vector<Module>>::failure_at(error_, error_line_, error_column_);
    for (auto& m : modules_) finish_module(m);
    return Result<std::vector<Module>>::success(std::move(modules_));
  }

 private:
  struct Sym {
    ValueId first = 0;
    std::uint32_t count = 1;
  };
  struct Undo {
    std::string_view name;
    bool had;
    Sym prev;
  };

  std::shared_ptr<const std::string> src_;
  Lexer lx_;
  std::string_view text_;
  bool failed_ = false;
  std::string error_;
  int error_line_ = 0, error_column_ = 0;
  int depth_ = 0;
  std::vector<Module> modules_;
  // The module and function being filled.
  Module* module_ = nullptr;
  std::unique_ptr<TypeTable> table_;
  Function* fn_ = nullptr;
  TypeId opaque_ = 0;
  bool have_opaque_ = false;
  // Names in scope: a region's definitions are undone when it ends.
  SymbolTable<Sym> sym_;
  std::vector<Undo> undo_;
  std::size_t body_hint_ = 0;  // ops expected in the body of the function being read
  int scope_ = 0;

  bool fail(std::size_t offset, std::string_view what, std::string_view expected = "",
            std::string_view got = "") {
    if (!failed_) {
      failed_ = true;
      error_ = format_error(lx_, offset, what, expected, got);
      error_line_ = lx_.line_of(offset);
      error_column_ = lx_.column_of(offset);
    }
    return false;
  }

  bool expect(Tok kind, std::string_view what, std::string_view rule) {
    Token t = lx_.peek();
    if (t.kind != kind) return fail(t.offset, what, rule, describe(t));
    lx_.next();
    return true;
  }

  Module& new_module(int line) {
    modules_.emplace_back();
    Module& m = modules_.back();
    m.dialect = "stablehlo";
    m.line = line;
    m.source = src_;
    use_module(m);
    return m;
  }

  // The module whose type table is in use (functions of an implicit module may follow
  // other modules' text only after a split, so switching back is rare).
  void use_module(Module& m) {
    if (module_ == &m && table_) return;
    module_ = &m;
    table_ = std::make_unique<TypeTable>(&m.types);
    // Rebuild the interning index from the types the module already has.
    std::vector<Type> existing;
    existing.swap(m.types);
    for (auto& t : existing) table_->intern(std::move(t));
    have_opaque_ = false;
  }

  TypeId opaque_type() {
    if (!have_opaque_) {
      Type t;
      t.kind = Type::Kind::Opaque;
      opaque_ = table_->intern(std::move(t));
      have_opaque_ = true;
    }
    return opaque_;
  }

  void finish_module(Module& m) {
    Function* entry = nullptr;
    for (auto& f : m.functions)
      if (f.name == "main") entry = &f;
    if (!entry)
      for (auto& f : m.functions)
        if (f.visibility != "private") {
          entry = &f;
          break;
        }
    if (!entry && !m.functions.empty()) entry = &m.functions.front();
    if (entry) entry->is_entry = true;
  }

  // ---- scopes -----------------------------------------------------------------------------

  // A name defined in a nested region is undone when the region ends. The function body's own
  // names are not (sym_ is cleared for the next function).
  void define(std::string_view name, Sym s) {
    bool had = false;
    Sym& cur = sym_.get_or_add(name, &had);
    if (scope_ > 1) undo_.push_back({name, had, cur});
    cur = s;
  }
  std::size_t open_scope() {
    ++scope_;
    return undo_.size();
  }
  void close_scope(std::size_t mark) {
    while (undo_.size() > mark) {
      Undo u = undo_.back();
      undo_.pop_back();
      if (u.had)
        sym_.set(u.name, u.prev);
      else
        sym_.erase(u.name);
    }
    --scope_;
  }
  ValueId new_value(TypeId type, std::string_view name, bool grouped = false,
                    std::uint32_t index = 0) {
    fn_->values.push_back({type, index, grouped, name});
    return static_cast<ValueId>(fn_->values.size() - 1);
  }
  // "%x" or "%x#2" → the value, if defined.
  bool lookup(std::string_view name, ValueId* out) {
    std::string_view base = name;
    std::uint32_t index = 0;
    bool indexed = false;
    auto hash = name.find('#');
    if (hash != std::string_view::npos) {
      base = name.substr(0, hash);
      indexed = true;
      for (char c : name.substr(hash + 1)) {
        if (index > 100000) return false;
        index = index * 10 + static_cast<std::uint32_t>(c - '0');
      }
    }
    const Sym* sym = sym_.find(base);
    if (!sym) return false;
    if (indexed && index >= sym->count) return false;
    *out = sym->first + index;
    return true;
  }

  // ---- skipping ----------------------------------------------------------------------------

  // Skips to the next line at bracket depth 0 (alias definitions and the like).
  void skip_line() {
    int depth = 0;
    bool first = true;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::End || t.kind == Tok::Split || t.kind == Tok::Error) return;
      if (!first && depth == 0 && t.newline_before) return;
      first = false;
      if (t.kind == Tok::LParen || t.kind == Tok::LBracket || t.kind == Tok::LBrace ||
          t.kind == Tok::Less)
        ++depth;
      if ((t.kind == Tok::RParen || t.kind == Tok::RBracket || t.kind == Tok::RBrace ||
           t.kind == Tok::Greater) &&
          depth > 0)
        --depth;
      lx_.next();
    }
  }

  // Skips one balanced group starting at the current opener token.
  bool skip_group() {
    int depth = 0;
    do {
      Token t = lx_.next();
      switch (t.kind) {
        case Tok::LParen:
        case Tok::LBracket:
        case Tok::LBrace:
        case Tok::Less:
          if (++depth > kMaxDepth)
            return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
          break;
        case Tok::RParen:
        case Tok::RBracket:
        case Tok::RBrace:
        case Tok::Greater:
          --depth;
          break;
        case Tok::End:
        case Tok::Split:
        case Tok::Error:
          return fail(t.offset, "unbalanced brackets", "a closing bracket", describe(t));
        default:
          break;
      }
    } while (depth > 0);
    return true;
  }

  // Skips `loc(...)` if it comes next.
  bool skip_loc() {
    Token t = lx_.peek();
    if (t.kind != Tok::Ident || t.text != "loc") return true;
    lx_.next();
    if (lx_.peek().kind != Tok::LParen) return true;
    return skip_group();
  }

  // ---- types (char level) ----------------------------------------------------------------

  std::size_t skip_balanced_chars(std::size_t p) {  // p at '<'; returns index after matching '>'
    int depth = 0;
    const std::size_t n = text_.size();
    while (p < n) {
      char c = text_[p];
      if (!chars::is(c, chars::kBracket)) {  // most bytes of a type: letters, digits, 'x'
        ++p;
        continue;
      }
      if (c == '"') {
        ++p;
        while (p < n && text_[p] != '"') p += text_[p] == '\\' ? 2 : 1;
        ++p;
        continue;
      }
      if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
      if ((c == '>' && !(p > 0 && text_[p - 1] == '-')) || c == ')' || c == ']' || c == '}') {
        if (--depth == 0) return p + 1;
      }
      ++p;
    }
    return std::string_view::npos;
  }

  bool parse_type(Type& out, int depth = 0) {
    lx_.skip_space();
    const std::size_t start = lx_.pos();
    const std::size_t n = text_.size();
    if (depth > kMaxDepth)
      return fail(start, "type nesting is too deep", "at most 256 levels", "more");
    auto starts = [&](std::string_view w) { return text_.compare(start, w.size(), w) == 0; };
    auto got = [&](std::size_t p) {
      lx_.set_pos(p);
      return describe(lx_.peek());
    };
    std::size_t p = start;
    if (starts("tensor<")) {
      out.kind = Type::Kind::Tensor;
      p = start + 7;
      if (p < n && text_[p] == '*') {
        out.ranked = false;
        ++p;
        if (p >= n || text_[p] != 'x')
          return fail(p, "bad unranked tensor type", "'x' after '*'", got(p));
        ++p;
      } else {
        while (p < n) {
          std::size_t q = p;
          while (q < n && text_[q] == ' ') ++q;
          if (q < n && text_[q] == '?') {
            out.dims.push_back(-1);
            p = q + 1;
          } else if (q < n && chars::digit(text_[q])) {
            const std::size_t db = q;
            while (q < n && chars::digit(text_[q])) ++q;
            std::int64_t v = 0;
            if (!decimal_in_range(text_.substr(db, q - db), 0, kMaxDim, &v))
              return fail(db, "a tensor dimension must be an integer from 0 to 2^50",
                          "a size such as 8 or ?", number_text(text_.substr(db, q - db)));
            out.dims.push_back(v);
            p = q;
          } else {
            break;
          }
          if (p >= n || text_[p] != 'x')
            return fail(p, "bad tensor type", "'x' after a dimension", got(p));
          ++p;
          if (out.dims.size() > 4096)
            return fail(p, "tensor rank is too large", "at most 4096 dimensions", "more");
        }
      }
      lx_.set_pos(p);
      Type elem;
      if (!parse_type(elem, depth + 1)) return false;
      if (elem.kind != Type::Kind::Element && elem.kind != Type::Kind::Opaque)
        return fail(p, "bad tensor element type", "an element type such as f32",
                    "'" + elem.text + "'");
      out.element = elem.element.empty() ? elem.text : elem.element;
      out.etype = elem.etype;
      out.element_bytes = elem.element_bytes;
      lx_.skip_space();
      p = lx_.pos();
      if (p < n && text_[p] == ',') {  // encoding: skip to the tensor's closing '>'
        std::size_t close = skip_balanced_chars(start + 6);
        if (close == std::string_view::npos)
          return fail(p, "unterminated tensor type", "'>'", "end of input");
        p = close - 1;
      }
      if (p >= n || text_[p] != '>') return fail(p, "bad tensor type", "'>'", got(p));
      ++p;
    } else if (starts("tuple<")) {
      out.kind = Type::Kind::Tuple;
      p = start + 6;
      lx_.set_pos(p);
      lx_.skip_space();
      if (lx_.pos() < n && text_[lx_.pos()] == '>') {
        p = lx_.pos() + 1;
      } else {
        while (true) {
          Type t;
          if (!parse_type(t, depth + 1)) return false;
          out.tuple.push_back(std::move(t));
          lx_.skip_space();
          p = lx_.pos();
          if (p < n && text_[p] == ',') {
            lx_.set_pos(p + 1);
            continue;
          }
          if (p < n && text_[p] == '>') {
            ++p;
            break;
          }
          return fail(p, "bad tuple type", "',' or '>'", got(p));
        }
      }
    } else if (starts("complex<")) {
      lx_.set_pos(start + 8);
      Type inner;
      if (!parse_type(inner, depth + 1)) return false;
      lx_.skip_space();
      p = lx_.pos();
      if (p >= n || text_[p] != '>') return fail(p, "bad complex type", "'>'", got(p));
      ++p;
      out.kind = Type::Kind::Element;
      out.element = "complex<" + inner.element + ">";
      out.etype = element_type_from_name(out.element);
      out.element_bytes = 2 * inner.element_bytes;
    } else if (p < n && text_[p] == '!') {
      ++p;
      while (p < n && is_ident_char(text_[p])) ++p;
      std::string_view name = text_.substr(start, p - start);
      if (p < n && text_[p] == '<') {
        std::size_t close = skip_balanced_chars(p);
        if (close == std::string_view::npos)
          return fail(p, "unterminated type", "'>'", "end of input");
        p = close;
      }
      std::string_view whole = text_.substr(start, p - start);
      if (name == "!stablehlo.token" || name == "!mhlo.token") {
        out.kind = Type::Kind::Token;
      } else if (name.substr(0, 7) == "!quant.") {
        out.kind = Type::Kind::Element;
        out.element = std::string(whole);
        out.etype = ElementType::Quant;
        out.element_bytes = element_byte_size(whole);
      } else {
        out.kind = Type::Kind::Opaque;
      }
    } else if (p < n && is_ident_start(text_[p])) {
      while (p < n && (chars::alnum(text_[p]) || text_[p] == '_')) ++p;
      std::string_view name = text_.substr(start, p - start);
      if (p < n && text_[p] == '<') {  // memref<...>, vector<...>, other parametric types
        std::size_t close = skip_balanced_chars(p);
        if (close == std::string_view::npos)
          return fail(p, "unterminated type", "'>'", "end of input");
        p = close;
        out.kind = Type::Kind::Opaque;
      } else {
        out.kind = Type::Kind::Element;
        out.element = std::string(name);
        out.etype = element_type_from_name(name);
        out.element_bytes = element_byte_size(name);
        // A bare name that is no element type (f33, float) is a typo, not an opaque type:
        // costing it would silently count zero bytes. Dialect types start with '!'.
        if (out.element_bytes == 0 && name != "none") {
          return fail(start, "unknown element type",
                      "i1…i64, ui8…ui64, f16, bf16, f32, f64, an f8/f6/f4 type, complex<…> or a "
                      "!dialect type",
                      "'" + std::string(name) + "'");
        }
      }
    } else {
      lx_.set_pos(start);
      return fail(start, "bad type", "a type such as tensor<4xf32>", describe(lx_.peek()));
    }
    out.text = std::string(text_.substr(start, p - start));
    lx_.set_pos(p);
    return true;
  }

  // A type, interned. Types repeat (a module has thousands of ops and tens of types): the
  // text as written is looked up before it is parsed again.
  bool parse_type_id(TypeId& id) {
    lx_.skip_space();
    const std::size_t start = lx_.pos();
    const std::size_t n = text_.size();
    std::size_t end = std::string_view::npos;
    auto starts = [&](std::string_view w) { return text_.compare(start, w.size(), w) == 0; };
    if (starts("tensor<") || starts("tuple<") || starts("complex<")) {
      end = skip_balanced_chars(text_.find('<', start));
    } else if (start < n && is_ident_start(text_[start])) {
      std::size_t p = start;
      while (p < n && (chars::alnum(text_[p]) || text_[p] == '_')) ++p;
      if (p >= n || text_[p] != '<') end = p;
    }
    if (end != std::string_view::npos) {
      if (const TypeId* known = table_->find_written(text_.substr(start, end - start))) {
        id = *known;
        lx_.set_pos(end);
        return true;
      }
    }
    Type t;
    if (!parse_type(t)) return false;
    const std::size_t stop = lx_.pos();
    id = table_->intern(std::move(t));
    table_->remember_written(text_.substr(start, stop - start), id);
    return true;
  }

  // `(T, U)` with the '(' not yet consumed.
  bool parse_type_list(std::vector<TypeId>& out) {
    if (!expect(Tok::LParen, "bad type list", "'('")) return false;
    if (lx_.peek().kind == Tok::RParen) {
      lx_.next();
      return true;
    }
    while (true) {
      TypeId t;
      if (!parse_type_id(t)) return false;
      out.push_back(t);
      if (lx_.peek().kind == Tok::LBrace && !skip_group()) return false;  // result attrs
      if (!skip_loc()) return false;
      Token s = lx_.peek();
      if (s.kind == Tok::Comma) {
        lx_.next();
        continue;
      }
      if (s.kind == Tok::RParen) {
        lx_.next();
        return true;
      }
      return fail(s.offset, "bad type list", "',' or ')'", describe(s));
    }
  }

  bool at_paren() {
    lx_.skip_space();
    lx_.set_pos(lx_.pos());
    return lx_.pos() < text_.size() && text_[lx_.pos()] == '(';
  }

  // ---- attributes -------------------------------------------------------------------------

  // Raw text of one attribute value. In op text (in_dict = false) it stops at a ',' or ':'
  // at depth 0, at a new line, or at an attribute dict; in a dict at ',' or '}'.
  bool scan_value(std::string_view& out, bool in_dict) {
    int depth = 0;
    bool first = true;
    std::size_t begin = std::string_view::npos, end = 0;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::End || t.kind == Tok::Split) break;
      if (t.kind == Tok::Error)
        return fail(t.offset, "bad attribute value", "a complete value", describe(t));
      bool closer = t.kind == Tok::RParen || t.kind == Tok::RBracket || t.kind == Tok::RBrace ||
                    t.kind == Tok::Greater;
      if (depth == 0) {
        if (t.kind == Tok::Comma || closer) break;
        if (!in_dict &&
            (t.kind == Tok::Colon || (!first && (t.newline_before || t.kind == Tok::LBrace))))
          break;
      }
      if (t.kind == Tok::LParen || t.kind == Tok::LBracket || t.kind == Tok::LBrace ||
          t.kind == Tok::Less) {
        if (++depth > kMaxDepth)
          return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
      } else if (closer) {
        --depth;
      }
      if (begin == std::string_view::npos) begin = t.offset;
      end = t.offset + t.text.size();
      first = false;
      lx_.next();
    }
    if (begin == std::string_view::npos) {
      Token t = lx_.peek();
      return fail(t.offset, "missing attribute value", "a value after '='", describe(t));
    }
    out = text_.substr(begin, end - begin);
    return true;
  }

  static Attribute normalized(Attribute a) {
    if (a.name == "comparison_direction" || a.name == "compare_type") a.value = enum_word(a.value);
    if (a.name == "callee" || a.name == "call_target_name") a.value = strip_symbol(a.value);
    return a;
  }

  // `{ name = value, name, ... }` with the '{' not yet consumed.
  bool parse_attr_dict(std::vector<Attribute>& attrs) {
    if (!expect(Tok::LBrace, "bad attribute dictionary", "'{'")) return false;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::RBrace) {
        lx_.next();
        return true;
      }
      if (t.kind != Tok::Ident && t.kind != Tok::String)
        return fail(t.offset, "bad attribute dictionary", "an attribute name or '}'", describe(t));
      lx_.next();
      Attribute a;
      a.name = t.kind == Tok::String ? t.text.substr(1, t.text.size() - 2) : t.text;
      if (lx_.peek().kind == Tok::Equal) {
        lx_.next();
        if (!scan_value(a.value, true)) return false;
      }
      attrs.push_back(normalized(a));
      Token s = lx_.peek();
      if (s.kind == Tok::Comma) {
        lx_.next();
        continue;
      }
      if (s.kind == Tok::RBrace) {
        lx_.next();
        return true;
      }
      return fail(s.offset, "bad attribute dictionary", "',' or '}'", describe(s));
    }
  }

  // ---- structure ---------------------------------------------------------------------------

  bool parse_module(Module& m) {
    lx_.next();  // module
    if (lx_.peek().kind == Tok::At) m.name = std::string(strip_symbol(lx_.next().text));
    if (lx_.peek().kind == Tok::Ident && lx_.peek().text == "attributes") {
      lx_.next();
      if (!parse_attr_dict(m.attributes)) return false;
    }
    if (!expect(Tok::LBrace, "bad module", "'{' after the module name")) return false;
    if (!parse_module_body(m, 0)) return false;
    return skip_loc();
  }

  bool parse_module_body(Module& m, int depth) {
    if (depth > kMaxDepth)
      return fail(lx_.pos(), "modules nest too deeply", "at most 256 levels", "more");
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::RBrace) {
        lx_.next();
        return true;
      }
      if (t.kind == Tok::End || t.kind == Tok::Split || t.kind == Tok::Error)
        return fail(t.offset, "unterminated module", "'}'", describe(t));
      if (t.kind == Tok::Ident && (t.text == "func.func" || t.text == "func")) {
        use_module(m);
        m.functions.emplace_back();
        if (!parse_function(m.functions.back())) return false;
        continue;
      }
      if (t.kind == Tok::Ident && t.text == "module") {  // nested module: its functions join
        lx_.next();
        if (lx_.peek().kind == Tok::At) lx_.next();
        if (lx_.peek().kind == Tok::Ident && lx_.peek().text == "attributes") {
          lx_.next();
          std::vector<Attribute> ignored;
          if (!parse_attr_dict(ignored)) return false;
        }
        if (!expect(Tok::LBrace, "bad module", "'{'")) return false;
        if (!parse_module_body(m, depth + 1)) return false;
        if (!skip_loc()) return false;
        continue;
      }
      // Any other op at module level (globals, meshes): parsed into a scratch function and dropped.
      use_module(m);
      Function scratch;
      Function* saved = fn_;
      fn_ = &scratch;
      sym_.clear();
      Block block;
      bool ok = parse_statement(block);
      fn_ = saved;
      if (!ok) return false;
    }
  }

  // Room for the values, operand lists and top-level ops of the function starting at `at`: one
  // per line up to the first line indented no deeper than `func.func` (its closing '}', as MLIR
  // prints it), so big functions do not grow by doubling. Only an estimate: the vectors still
  // grow if it is short.
  void reserve_function(Function& f, std::size_t at) {
    std::size_t line_start = at;
    while (line_start > 0 && text_[line_start - 1] != '\n') --line_start;
    const std::size_t indent = at - line_start;
    const std::size_t n = text_.size();
    std::size_t lines = 0;
    for (std::size_t q = at; q < n;) {
      const void* nl = std::memchr(text_.data() + q, '\n', n - q);
      if (!nl) break;
      q = static_cast<std::size_t>(static_cast<const char*>(nl) - text_.data()) + 1;
      std::size_t k = q;
      while (k < n && k - q <= indent && (text_[k] == ' ' || text_[k] == '\t')) ++k;
      if (k >= n || text_[k] == '\n' || text_[k] == '\r') continue;  // a blank line
      if (k - q <= indent) break;
      ++lines;
    }
    f.values.reserve(lines);
    f.refs.reserve(lines * 3);
    body_hint_ = lines;
  }

  bool parse_function(Function& f) {
    Token kw = lx_.next();  // func.func
    f.line = lx_.line_of(kw.offset);
    f.column = lx_.column_of(kw.offset);
    fn_ = &f;
    sym_.clear();
    undo_.clear();
    scope_ = 0;
    reserve_function(f, kw.offset);
    Token t = lx_.peek();
    if (t.kind == Tok::Ident && (t.text == "public" || t.text == "private" || t.text == "nested")) {
      f.visibility = t.text;
      lx_.next();
      t = lx_.peek();
    }
    if (t.kind != Tok::At)
      return fail(t.offset, "bad function", "a function name such as @main", describe(t));
    f.name = strip_symbol(lx_.next().text);
    if (!expect(Tok::LParen, "bad function signature", "'(' after the function name")) return false;
    if (lx_.peek().kind != Tok::RParen) {
      while (true) {
        Token a = lx_.peek();
        std::string_view name;
        if (a.kind == Tok::Percent) {
          name = lx_.next().text;
          if (lx_.peek().kind != Tok::Colon)
            return fail(lx_.peek().offset, "bad function argument",
                        "':' and a type after " + std::string(name), describe(lx_.peek()));
          lx_.next();
        }
        TypeId ty;
        if (!parse_type_id(ty)) return false;
        if (lx_.peek().kind == Tok::LBrace && !skip_group()) return false;
        if (!skip_loc()) return false;
        ValueId v = new_value(ty, name);
        if (!name.empty()) define(name, {v, 1});
        f.args.push_back(v);
        Token s = lx_.peek();
        if (s.kind == Tok::Comma) {
          lx_.next();
          continue;
        }
        if (s.kind == Tok::RParen) break;
        return fail(s.offset, "bad function signature", "',' or ')'", describe(s));
      }
    }
    lx_.next();  // ')'
    if (lx_.peek().kind == Tok::Arrow) {
      lx_.next();
      if (at_paren()) {
        if (!parse_type_list(f.result_types)) return false;
      } else {
        TypeId ty;
        if (!parse_type_id(ty)) return false;
        f.result_types.push_back(ty);
      }
    }
    if (lx_.peek().kind == Tok::Ident && lx_.peek().text == "attributes") {
      lx_.next();
      std::vector<Attribute> ignored;
      if (!parse_attr_dict(ignored)) return false;
    }
    if (lx_.peek().kind == Tok::LBrace) {
      // The body's entry block takes the function's arguments (already in scope).
      if (!parse_region(f.body, {}, {}, &f.args)) return false;
    }
    return skip_loc();
  }

  // `{ [^bb0(%a: T):] ops ... }`. The entry block gets `names`/`types` as new values (a pretty
  // op's region arguments) or `existing` (a function body's arguments), unless it has its own
  // label.
  bool parse_region(Region& r, const std::vector<std::string_view>& names,
                    const std::vector<TypeId>& types,
                    const std::vector<ValueId>* existing = nullptr) {
    Token open = lx_.peek();
    if (!expect(Tok::LBrace, "bad region", "'{'")) return false;
    if (++depth_ > kMaxDepth)
      return fail(open.offset, "regions nest too deeply", "at most 256 levels", "more");
    const std::size_t mark = open_scope();
    r.blocks.emplace_back();
    if (existing) {  // a function's body
      r.blocks.back().args = *existing;
      r.blocks.back().ops.reserve(body_hint_);
      body_hint_ = 0;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      ValueId v = new_value(i < types.size() ? types[i] : opaque_type(), names[i]);
      if (!names[i].empty()) define(names[i], {v, 1});
      r.blocks.back().args.push_back(v);
    }
    bool first_block = true;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::RBrace) {
        lx_.next();
        break;
      }
      if (t.kind == Tok::End || t.kind == Tok::Split || t.kind == Tok::Error)
        return fail(t.offset, "unterminated region", "'}'", describe(t));
      if (t.kind == Tok::Caret) {
        lx_.next();
        if (!(first_block && r.blocks.back().ops.empty())) r.blocks.emplace_back();
        Block& b = r.blocks.back();
        b.args.clear();
        if (lx_.peek().kind == Tok::LParen) {
          lx_.next();
          while (lx_.peek().kind != Tok::RParen) {
            Token a = lx_.peek();
            if (a.kind != Tok::Percent)
              return fail(a.offset, "bad block argument", "%name: type", describe(a));
            lx_.next();
            if (!expect(Tok::Colon, "bad block argument", "':' and a type")) return false;
            TypeId ty;
            if (!parse_type_id(ty)) return false;
            if (!skip_loc()) return false;
            ValueId v = new_value(ty, a.text);
            define(a.text, {v, 1});
            b.args.push_back(v);
            if (lx_.peek().kind == Tok::Comma)
              lx_.next();
            else if (lx_.peek().kind != Tok::RParen)
              return fail(lx_.peek().offset, "bad block argument list", "',' or ')'",
                          describe(lx_.peek()));
          }
          lx_.next();
        }
        if (!expect(Tok::Colon, "bad block label", "':' after the block label")) return false;
        first_block = false;
        continue;
      }
      first_block = false;
      if (!parse_statement(r.blocks.back())) return false;
    }
    close_scope(mark);
    --depth_;
    return true;
  }

  // What one op collects before it is stored: its lists go into the function's arrays in one
  // piece at the end, after its regions (whose own ops are stored first). One per nesting depth,
  // reused by every op at that depth (an op's regions hold ops one level deeper), so reading an
  // op allocates nothing once the lists have grown.
  struct Def {
    std::string_view name;
    std::uint32_t count;
  };
  struct Pending {
    std::vector<std::string_view> operands;
    std::vector<Attribute> attrs;
    std::vector<Region> regions;
    std::vector<TypeId> result_types;
    std::vector<Def> defs;
    // The pretty form's pieces (parse_custom) and the generic form's operand types.
    std::vector<TypeId> sig_in, sig_out, def_types;
    std::vector<std::string_view> def_names, keywords;
    std::vector<std::size_t> untyped_defs;
    std::vector<bool> is_init;  // reduce's pretty form: per operand, whether it follows `init:`
    void clear() {
      operands.clear();
      attrs.clear();
      regions.clear();
      result_types.clear();
      defs.clear();
      sig_in.clear();
      sig_out.clear();
      def_types.clear();
      def_names.clear();
      keywords.clear();
      untyped_defs.clear();
      is_init.clear();
    }
  };
  std::vector<std::unique_ptr<Pending>> pending_;  // by depth_
  std::size_t statements_ = 0;

  // Whether the heap leaves room to go on: reading may use three quarters of what the core has,
  // the rest is for verifying and costing (common/memory.h). Else the error, at this operation.
  bool memory_left(std::size_t offset) {
    const std::size_t limit = memory::limit();
    if (memory::fits(limit / 4)) return true;
    return fail(offset, "the program is too big for the core's memory",
                "at most " + std::to_string((limit - limit / 4) >> 20) +
                    " MiB in use while reading it (of the " + std::to_string(limit >> 20) +
                    " MiB the core has)",
                std::to_string(memory::in_use() >> 20) + " MiB at this operation");
  }
  Pending& pending() {
    const auto d = static_cast<std::size_t>(depth_);
    while (pending_.size() <= d) pending_.push_back(std::make_unique<Pending>());
    Pending& p = *pending_[d];
    p.clear();
    return p;
  }

  // One op: [results =] name ...
  RL_LOOP_BODY bool parse_statement(Block& block) {
    Token first = lx_.peek();
    if ((++statements_ & 4095) == 0 && !memory_left(first.offset)) return false;
    Op op;
    op.line = lx_.line_of(first.offset);
    op.column = lx_.column_of(first.offset);
    Pending& p = pending();
    std::vector<Def>& defs = p.defs;
    if (first.kind == Tok::Percent) {
      while (true) {
        Token r = lx_.next();
        if (r.kind != Tok::Percent)
          return fail(r.offset, "bad result list", "a result name such as %0", describe(r));
        std::uint32_t count = 1;
        if (lx_.peek().kind == Tok::Colon) {
          lx_.next();
          Token c = lx_.next();
          std::int64_t v = 0;
          if (c.kind != Tok::Number || !decimal_in_range(c.text, 1, kMaxResultCount, &v))
            return fail(
                c.offset,
                "a result count must be an integer from 1 to " + std::to_string(kMaxResultCount),
                "a count such as 2 after '" + std::string(r.text.substr(0, 40)) + ":'",
                describe(c));
          count = static_cast<std::uint32_t>(v);
        }
        defs.push_back({r.text, count});
        if (lx_.peek().kind == Tok::Comma) {
          lx_.next();
          continue;
        }
        break;
      }
      if (!expect(Tok::Equal, "bad operation", "'=' after the result names")) return false;
    }
    std::size_t nres = 0;
    for (const auto& d : defs) nres += d.count;
    Token nt = lx_.peek();
    bool ok;
    if (nt.kind == Tok::String) {
      lx_.next();
      op.name = nt.text.substr(1, nt.text.size() - 2);
      op.code = op_from_name(op.name, "stablehlo");
      ok = parse_generic(op, p, nres);
    } else if (nt.kind == Tok::Ident) {
      lx_.next();
      op.name = nt.text;
      op.code = op_from_name(op.name, "stablehlo");
      ok = parse_custom(op, p, nres);
    } else {
      return fail(nt.offset, "bad operation", "an operation name such as stablehlo.add",
                  describe(nt));
    }
    if (!ok) return false;
    // Operands: every one must name a value defined before it (a function or block argument,
    // or an earlier result): a typo such as %zz would otherwise be costed with a guessed type.
    op.operands.begin = static_cast<std::uint32_t>(fn_->refs.size());
    // The operand types the signature writes: `(T, U) -> R`, or an op without results' `: T, U`.
    const std::vector<TypeId>& written = !p.sig_in.empty() || nres > 0 ? p.sig_in : p.sig_out;
    for (std::size_t i = 0; i < p.operands.size(); ++i) {
      ValueId v;
      if (!lookup(p.operands[i], &v))
        return fail(first.offset, "use of an undefined value",
                    "a value defined before this operation", std::string(p.operands[i]));
      // The signature's operand type, kept when it differs from the value's (verify.cpp refuses
      // it).
      if (written.size() == p.operands.size() && written[i] != fn_->values[v].type)
        fn_->written_types.push_back({static_cast<std::uint32_t>(fn_->refs.size()), written[i]});
      fn_->refs.push_back(v);
    }
    op.operands.count = static_cast<std::uint32_t>(p.operands.size());
    // Results: new values, typed from the signature.
    op.results.begin = static_cast<std::uint32_t>(fn_->refs.size());
    std::size_t k = 0;
    for (const auto& d : defs) {
      const ValueId firstv = static_cast<ValueId>(fn_->values.size());
      for (std::uint32_t i = 0; i < d.count; ++i, ++k) {
        TypeId ty = k < p.result_types.size() ? p.result_types[k] : opaque_type();
        fn_->refs.push_back(new_value(ty, d.name, d.count != 1, i));
      }
      define(d.name, {firstv, d.count});
    }
    op.results.count = static_cast<std::uint32_t>(nres);
    op.attributes.begin = static_cast<std::uint32_t>(fn_->attrs.size());
    op.attributes.count = static_cast<std::uint32_t>(p.attrs.size());
    fn_->attrs.insert(fn_->attrs.end(), p.attrs.begin(), p.attrs.end());
    op.regions.begin = static_cast<std::uint32_t>(fn_->regions.size());
    op.regions.count = static_cast<std::uint32_t>(p.regions.size());
    for (auto& r : p.regions) fn_->regions.push_back(std::move(r));
    block.ops.push_back(op);
    return true;
  }

  bool parse_generic(Op& op, Pending& p, std::size_t nres) {
    if (lx_.peek().kind != Tok::LParen)
      return fail(lx_.peek().offset, "bad generic operation",
                  "'(' and the operand list after \"" + std::string(op.name) + "\"",
                  describe(lx_.peek()));
    lx_.next();
    while (lx_.peek().kind != Tok::RParen) {
      Token a = lx_.next();
      if (a.kind != Tok::Percent)
        return fail(a.offset, "bad operand list", "an operand such as %0", describe(a));
      p.operands.push_back(a.text);
      if (lx_.peek().kind == Tok::Comma)
        lx_.next();
      else if (lx_.peek().kind != Tok::RParen)
        return fail(lx_.peek().offset, "bad operand list", "',' or ')'", describe(lx_.peek()));
    }
    lx_.next();
    if (lx_.peek().kind == Tok::LBracket && !skip_group()) return false;  // successors
    if (lx_.peek().kind == Tok::Less) {                                   // <{properties}>
      lx_.next();
      if (!parse_attr_dict(p.attrs)) return false;
      if (!expect(Tok::Greater, "bad properties", "'>' after the properties dictionary"))
        return false;
    }
    if (lx_.peek().kind == Tok::LParen) {  // ({ region }, { region })
      lx_.next();
      while (true) {
        p.regions.emplace_back();
        if (!parse_region(p.regions.back(), {}, {})) return false;
        if (lx_.peek().kind == Tok::Comma) {
          lx_.next();
          continue;
        }
        if (!expect(Tok::RParen, "bad region list", "',' or ')'")) return false;
        break;
      }
    }
    if (lx_.peek().kind == Tok::LBrace && !parse_attr_dict(p.attrs)) return false;
    Token colon = lx_.peek();
    if (colon.kind != Tok::Colon) {  // at the end of the op's line when nothing follows on it
      const bool same_line = colon.kind != Tok::End && !colon.newline_before;
      return fail(same_line ? colon.offset : lx_.pos(), "bad generic operation",
                  "':' and a function type such as (T) -> T",
                  same_line ? describe(colon) : "the end of the line");
    }
    lx_.next();
    std::vector<TypeId>& in = p.sig_in;
    if (!at_paren())
      return fail(lx_.pos(), "bad generic operation", "a function type such as (T) -> T",
                  describe(lx_.peek()));
    if (!parse_type_list(in)) return false;
    if (!expect(Tok::Arrow, "bad function type", "'->' and the result types")) return false;
    const bool paren = at_paren();
    const std::size_t results_at = lx_.pos();
    if (paren) {
      if (!parse_type_list(p.result_types)) return false;
    } else {
      TypeId t;
      if (!parse_type_id(t)) return false;
      p.result_types.push_back(t);
    }
    // As many types as names bound (MLIR: "operation defines 2 results but was provided 1 to
    // bind"); an op whose results are bound to no name may give any.
    if (p.result_types.size() < nres || (nres > 0 && p.result_types.size() != nres))
      return fail(results_at,
                  "\"" + std::string(op.name.substr(0, 40)) + "\" has " + counted(nres, "result"),
                  "a type for each result after '->'", counted(p.result_types.size(), "type"));
    return skip_loc();
  }

  // `(%a, %b#1, ...)` after a symbol, the '(' not yet consumed.
  bool parse_call_operands(const Op& op, const Token& callee, Pending& p) {
    lx_.next();  // '('
    const std::string list = "the operand list of " + std::string(op.name) + " " +
                             std::string(callee.text.substr(0, 40));
    if (lx_.peek().kind == Tok::RParen) {
      lx_.next();
      return true;
    }
    while (true) {
      Token a = lx_.next();
      if (a.kind != Tok::Percent)
        return fail(a.offset, "bad operand in " + list, "an operand such as %0", describe(a));
      p.operands.push_back(a.text);
      p.is_init.push_back(false);
      Token s = lx_.peek();
      if (s.kind == Tok::Comma) {
        lx_.next();
        continue;
      }
      if (s.kind == Tok::RParen) {
        lx_.next();
        return true;
      }
      return fail(s.offset,
                  "unclosed operand list of " + std::string(op.name) + " " +
                      std::string(callee.text.substr(0, 40)),
                  "',' or ')' after " + std::string(a.text.substr(0, 40)), describe(s));
    }
  }

  bool parse_custom(Op& op, Pending& p, std::size_t nres) {
    int depth = 0;
    bool first = true;
    bool have_sig = false, have_arrow = false;
    std::size_t sig_at = 0;  // the signature's ':'
    std::vector<TypeId>& sig_in = p.sig_in;
    std::vector<TypeId>& sig_out = p.sig_out;
    std::vector<std::string_view>& def_names =
        p.def_names;  // region argument definitions (%x: T, %x = %y)
    std::vector<TypeId>& def_types = p.def_types;
    std::vector<std::size_t>& untyped_defs =
        p.untyped_defs;  // %iterArg = %v: typed from the signature
    std::vector<std::string_view>& keywords = p.keywords;
    std::size_t bracket_at =
        std::string_view::npos;  // a `[...]` group at depth 0 (slice, get_tuple_element)
    bool open_paren = false;     // the group open at depth 1 is a '(' (the operand list)
    bool reducer = false;        // reduce's pretty form: `reducer(%lhs0, %rhs0) (%lhs1, %rhs1)`
    bool next_is_init = false;   // reduce's pretty `(%x init: %z)`: %z is an init value
    std::vector<bool>& is_init = p.is_init;  // per operand, while any init is seen
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::End || t.kind == Tok::Split) break;
      if (t.kind == Tok::Error)
        return fail(t.offset, "bad operation text", "complete tokens", describe(t));
      if (depth == 0) {
        if (t.kind == Tok::RBrace) break;
        if (!first && t.newline_before && !(t.kind == Tok::Ident && is_continuation(t.text))) break;
      }
      first = false;
      switch (t.kind) {
        case Tok::Percent: {
          lx_.next();
          Tok after = lx_.peek().kind;
          if (after == Tok::Equal && depth > 0) {
            lx_.next();
            untyped_defs.push_back(def_names.size());
            def_names.push_back(t.text);
            def_types.push_back(opaque_type());
          } else if (after == Tok::Colon && depth > 0 && bracket_at == std::string_view::npos) {
            lx_.next();
            TypeId ty;
            if (!parse_type_id(ty)) return false;
            def_names.push_back(t.text);
            def_types.push_back(ty);
          } else {
            p.operands.push_back(t.text);
            is_init.push_back(next_is_init);
            next_is_init = false;
          }
          break;
        }
        case Tok::Colon: {
          lx_.next();
          if (depth > 0) break;
          if (have_sig)
            return fail(t.offset, "bad operation", "one type signature after ':'", "a second ':'");
          have_sig = true;
          sig_at = t.offset;
          if (at_paren()) {
            if (!parse_type_list(sig_in)) return false;
            if (lx_.peek().kind == Tok::Arrow) {
              lx_.next();
              have_arrow = true;
              if (at_paren()) {
                if (!parse_type_list(sig_out)) return false;
              } else {
                TypeId r;
                if (!parse_type_id(r)) return false;
                sig_out.push_back(r);
              }
            } else {
              sig_out = sig_in;
            }
          } else {
            std::vector<TypeId> types;
            while (true) {
              TypeId ty;
              if (!parse_type_id(ty)) return false;
              types.push_back(ty);
              if (lx_.peek().kind != Tok::Comma) break;
              lx_.next();
            }
            if (lx_.peek().kind == Tok::Arrow) {
              // CHLO's `: T1, T2 -> R` (chlo.is_inf %x : tensor<2xf32> -> tensor<2xi1>): operand
              // types, then the result types.
              lx_.next();
              have_arrow = true;
              sig_in = std::move(types);
              if (at_paren()) {
                if (!parse_type_list(sig_out)) return false;
              } else {
                TypeId r;
                if (!parse_type_id(r)) return false;
                sig_out.push_back(r);
              }
            } else {
              sig_out = std::move(types);
            }
          }
          break;
        }
        case Tok::Ident: {
          if (depth == 0 && op.code == OpCode::Constant && lx_.peek().kind == Tok::Ident &&
              (t.text == "dense" || t.text == "dense_resource" || t.text == "sparse" ||
               t.text == "array")) {
            Attribute a{"value", {}};
            if (!scan_value(a.value, false)) return false;
            p.attrs.push_back(a);
            break;
          }
          lx_.next();
          Token after = lx_.peek();
          if (t.text == "loc" && after.kind == Tok::LParen) {
            if (!skip_group()) return false;
          } else if ((depth == 0 || (depth == 1 && open_paren)) && after.kind == Tok::Equal) {
            // `name = value` after the op name, or inside its operand list (`chlo.top_k(%x, k =
            // 2)`).
            lx_.next();
            Attribute a{t.text, {}};
            if (!scan_value(a.value, false)) return false;
            p.attrs.push_back(normalized(a));
          } else if (depth == 1 && t.text == "init" && after.kind == Tok::Colon) {
            next_is_init = true;
          } else if (t.text == "applies" && after.kind == Tok::Ident) {
            lx_.next();
            p.attrs.push_back({"applies", after.text});
          } else if (depth == 0 && !is_continuation(t.text)) {
            keywords.push_back(t.text);
          } else if (depth == 0 && t.text == "reducer") {
            reducer = true;
          }
          break;
        }
        case Tok::At:
          lx_.next();
          {
            bool have = false;
            for (const auto& a : p.attrs) have = have || a.name == "callee";
            if (!have) p.attrs.push_back({"callee", strip_symbol(t.text)});
          }
          // `call @f(%a, %b)`, `custom_call @target(%a)`: the operand list is read strictly, so a
          // missing ')' is reported where it was expected, not lines later.
          if (depth == 0 && lx_.peek().kind == Tok::LParen && !parse_call_operands(op, t, p))
            return false;
          break;
        case Tok::LBrace: {
          if (depth > 0) {
            ++depth;
            lx_.next();
            break;
          }
          // A region when its body starts on a new line (or with a block label); otherwise
          // an attribute dictionary.
          std::size_t save = lx_.pos();
          lx_.next();
          Token inside = lx_.peek();
          lx_.set_pos(save);
          if (inside.newline_before || inside.kind == Tok::Caret || inside.kind == Tok::RBrace) {
            for (std::size_t k = 0; k < untyped_defs.size(); ++k) {
              const auto& src = !sig_out.empty() ? sig_out : sig_in;
              std::size_t i = untyped_defs[k];
              if (i < def_types.size() && k < src.size()) def_types[i] = src[k];
            }
            if (reducer && def_names.size() >= 4 && def_names.size() % 2 == 0) {
              // Each pair names (lhs_i, rhs_i); the block's arguments are lhs_0..lhs_N-1, then
              // rhs_0..rhs_N-1 (as StableHLO's own parser appends them).
              std::vector<std::string_view> names;
              std::vector<TypeId> types;
              for (std::size_t start : {std::size_t(0), std::size_t(1)})
                for (std::size_t i = start; i < def_names.size(); i += 2) {
                  names.push_back(def_names[i]);
                  types.push_back(def_types[i]);
                }
              def_names = std::move(names);
              def_types = std::move(types);
            }
            p.regions.emplace_back();
            if (!parse_region(p.regions.back(), def_names, def_types)) return false;
            // while: cond and do share the iteration arguments; reducer args are used once.
            if (untyped_defs.empty()) {
              def_names.clear();
              def_types.clear();
            }
          } else {
            if (!parse_attr_dict(p.attrs)) return false;
          }
          break;
        }
        case Tok::LBracket:
          if (depth == 0) bracket_at = t.offset;
          if (++depth > kMaxDepth)
            return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
          lx_.next();
          break;
        case Tok::LParen:
        case Tok::Less:
          if (depth == 0) open_paren = t.kind == Tok::LParen;
          if (++depth > kMaxDepth)
            return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
          lx_.next();
          break;
        case Tok::RParen:
        case Tok::RBracket:
        case Tok::Greater:
        case Tok::RBrace:
          if (depth == 0)
            return fail(t.offset, "unbalanced brackets in " + std::string(op.name),
                        "an opening bracket before it", describe(t));
          --depth;
          lx_.next();
          if (depth == 0 && t.kind == Tok::RBracket && bracket_at != std::string_view::npos) {
            // slice's `[0:2, 1:3:1]`, get_tuple_element's `[1]`: kept whole under a real name.
            std::string_view group = text_.substr(bracket_at, t.offset + 1 - bracket_at);
            p.attrs.push_back({op.code == OpCode::GetTupleElement ? "index" : "slice", group});
            bracket_at = std::string_view::npos;
          }
          break;
        default:
          lx_.next();
          break;
      }
    }
    if (depth != 0)
      return fail(lx_.peek().offset, "unbalanced brackets in " + std::string(op.name),
                  "a closing bracket", describe(lx_.peek()));
    if (!have_sig && nres > 0 && typed_op(op)) {
      // `%1 = stablehlo.tanh %0` and nothing more: its result would have no type to verify or cost.
      // The ':' was expected after the op's last token (or at what follows on its line).
      const std::size_t end_of_op = lx_.pos();
      Token after = lx_.peek();
      const bool same_line = after.kind != Tok::End && !after.newline_before;
      const std::string name(op.name.substr(0, 40));
      return fail(same_line ? after.offset : end_of_op, name + " has no type",
                  "':' and the type of " + name + (nres == 1 ? "'s result" : "'s results"),
                  same_line ? describe(after) : "the end of the line");
    }
    if (std::find(is_init.begin(), is_init.end(), true) != is_init.end() &&
        is_init.size() == p.operands.size()) {
      // `(%x0 init: %z0), (%x1 init: %z1)`: the operands are the inputs, then the init values.
      std::vector<std::string_view> names;
      for (bool want : {false, true})
        for (std::size_t i = 0; i < p.operands.size(); ++i)
          if (is_init[i] == want) names.push_back(p.operands[i]);
      p.operands = std::move(names);
    }
    if (op.code == OpCode::Compare) {
      // `stablehlo.compare LT, %a, %b, FLOAT`: the same named fields as the generic form.
      if (!keywords.empty()) p.attrs.push_back({"comparison_direction", keywords[0]});
      if (keywords.size() > 1) p.attrs.push_back({"compare_type", keywords[1]});
    }
    // Result types from the signature.
    std::vector<TypeId>& rt = p.result_types;
    if (have_arrow) {
      rt = sig_out;
    } else if (have_sig && nres > 0) {
      if (sig_out.size() == nres)
        rt = sig_out;
      else if (sig_out.size() == 1)
        rt.assign(nres, sig_out[0]);
      else if (nres == 1 && !sig_out.empty())
        rt = {sig_out.back()};  // select: pred, T
      else
        rt = sig_out;
    }
    if (rt.size() > nres && nres > 0) rt.resize(nres);
    if (rt.size() < nres && typed_op(op))
      return fail(sig_at, std::string(op.name.substr(0, 40)) + " has " + counted(nres, "result"),
                  "a type for each result", counted(rt.size(), "type"));
    return true;
  }

  // Ops whose results must be typed by their text: the ones the core knows, and any other op of
  // StableHLO's dialects (other dialects' pretty forms may say their types elsewhere).
  static bool typed_op(const Op& op) {
    if (op.code != OpCode::Unknown) return true;
    for (std::string_view d : {"stablehlo.", "chlo.", "mhlo."})
      if (op.name.substr(0, d.size()) == d) return true;
    return false;
  }
};

}  // namespace

std::string detect_dialect(std::string_view text) {
  Lexer lx(text, true);
  for (int i = 0; i < 64; ++i) {
    Token t = lx.next();
    if (t.kind == Tok::End) break;
    if (t.kind == Tok::Split) continue;
    if (t.kind == Tok::Ident && (t.text == "HloModule" || t.text == "ENTRY")) return "hlo";
    return "stablehlo";
  }
  return "stablehlo";
}

Result<std::vector<Module>> parse_stablehlo(std::string_view text) {
  return MlirParser(std::make_shared<const std::string>(text)).run();
}
Result<std::vector<Module>> parse_stablehlo_owned(std::string text) {
  return MlirParser(std::make_shared<const std::string>(std::move(text))).run();
}

Result<std::vector<Module>> parse(std::string_view text) {
  if (detect_dialect(text) == "hlo") return parse_hlo(text);
  return parse_stablehlo(text);
}
Result<std::vector<Module>> parse_owned(std::string text) {
  if (detect_dialect(text) == "hlo") return parse_hlo_owned(std::move(text));
  return parse_stablehlo_owned(std::move(text));
}

}  // namespace rl::hlo
