// StableHLO / MLIR text → IR.
//
// Generic ops ("stablehlo.add"(%a, %b) <{props}> ({regions}) {attrs} : (T, T) -> T) are parsed by
// their grammar. Pretty (custom-assembly) ops are scanned: an op runs to the end of its line at
// bracket depth 0, continuing across lines only into its regions and their keywords (`cond`,
// `do`, `reducer`, `else`). On the way it collects operands (%v), `name = value` attributes,
// `{...}` attribute dicts, `@symbols`, region argument definitions and the trailing type
// signature (`: T`, `: T, U`, `: (T, U) -> R`). Operand types come from the symbol table of
// defined values, so every op form gets typed operands.
#include <cctype>
#include <unordered_map>

#include "hlo/lexer.h"
#include "hlo/parse.h"

namespace rl::hlo {

namespace {

bool is_continuation(std::string_view w) {
  return w == "cond" || w == "do" || w == "reducer" || w == "else" || w == "then";
}

class MlirParser {
 public:
  explicit MlirParser(std::string_view text) : lx_(text, false), text_(text) {}

  Result<std::vector<Module>> run() {
    Module implicit;
    bool have_implicit = false;
    auto flush = [&] {
      if (have_implicit) finish_module(implicit), modules_.push_back(std::move(implicit));
      implicit = Module();
      have_implicit = false;
    };
    while (!failed_) {
      Token t = lx_.peek();
      if (t.kind == Tok::End) break;
      if (t.kind == Tok::Split) {
        lx_.next();
        flush();
        continue;
      }
      if (t.kind == Tok::Ident && t.text == "module") {
        flush();
        Module m;
        if (!parse_module(m)) break;
        finish_module(m);
        modules_.push_back(std::move(m));
        continue;
      }
      if (t.kind == Tok::Ident && (t.text == "func.func" || t.text == "func")) {
        if (!have_implicit) {
          implicit.dialect = "stablehlo";
          implicit.line = lx_.line_of(t.offset);
          have_implicit = true;
        }
        Function f;
        if (!parse_function(f)) break;
        implicit.functions.push_back(std::move(f));
        continue;
      }
      if (t.kind == Tok::Hash || t.kind == Tok::Bang) {  // #alias = ..., !alias = type
        skip_line();
        continue;
      }
      fail(t.offset, "unexpected text at the top level", "'module', 'func.func' or '// -----'",
           describe(t));
    }
    if (failed_) return Result<std::vector<Module>>::failure(error_);
    flush();
    return Result<std::vector<Module>>::success(std::move(modules_));
  }

 private:
  Lexer lx_;
  std::string_view text_;
  bool failed_ = false;
  std::string error_;
  int depth_ = 0;
  std::vector<Module> modules_;
  std::unordered_map<std::string, Type> sym_;

  bool fail(std::size_t offset, std::string_view what, std::string_view expected = "",
            std::string_view got = "") {
    if (!failed_) {
      failed_ = true;
      error_ = format_error(lx_, offset, what, expected, got);
    }
    return false;
  }

  bool expect(Tok kind, std::string_view what, std::string_view rule) {
    Token t = lx_.peek();
    if (t.kind != kind) return fail(t.offset, what, rule, describe(t));
    lx_.next();
    return true;
  }

  void finish_module(Module& m) {
    m.dialect = "stablehlo";
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
        case Tok::LParen: case Tok::LBracket: case Tok::LBrace: case Tok::Less:
          if (++depth > kMaxDepth) return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
          break;
        case Tok::RParen: case Tok::RBracket: case Tok::RBrace: case Tok::Greater:
          --depth;
          break;
        case Tok::End: case Tok::Split: case Tok::Error:
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
    if (depth > kMaxDepth) return fail(start, "type nesting is too deep", "at most 256 levels", "more");
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
        if (p >= n || text_[p] != 'x') return fail(p, "bad unranked tensor type", "'x' after '*'", got(p));
        ++p;
      } else {
        while (p < n) {
          std::size_t q = p;
          while (q < n && text_[q] == ' ') ++q;
          if (q < n && text_[q] == '?') {
            out.dims.push_back(-1);
            p = q + 1;
          } else if (q < n && std::isdigit(static_cast<unsigned char>(text_[q]))) {
            std::int64_t v = 0;
            while (q < n && std::isdigit(static_cast<unsigned char>(text_[q]))) {
              if (v > (std::int64_t(1) << 50)) return fail(q, "tensor dimension is too large", "at most 2^50", "more");
              v = v * 10 + (text_[q] - '0');
              ++q;
            }
            out.dims.push_back(v);
            p = q;
          } else {
            break;
          }
          if (p >= n || text_[p] != 'x')
            return fail(p, "bad tensor type", "'x' after a dimension", got(p));
          ++p;
          if (out.dims.size() > 4096) return fail(p, "tensor rank is too large", "at most 4096 dimensions", "more");
        }
      }
      lx_.set_pos(p);
      Type elem;
      if (!parse_type(elem, depth + 1)) return false;
      if (elem.kind != Type::Kind::Element && elem.kind != Type::Kind::Opaque)
        return fail(p, "bad tensor element type", "an element type such as f32", "'" + elem.text + "'");
      out.element = elem.element.empty() ? elem.text : elem.element;
      out.element_bytes = elem.element_bytes;
      lx_.skip_space();
      p = lx_.pos();
      if (p < n && text_[p] == ',') {  // encoding: skip to the tensor's closing '>'
        std::size_t close = skip_balanced_chars(start + 6);
        if (close == std::string_view::npos) return fail(p, "unterminated tensor type", "'>'", "end of input");
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
      out.element_bytes = 2 * inner.element_bytes;
    } else if (p < n && text_[p] == '!') {
      ++p;
      while (p < n && is_ident_char(text_[p])) ++p;
      std::string_view name = text_.substr(start, p - start);
      if (p < n && text_[p] == '<') {
        std::size_t close = skip_balanced_chars(p);
        if (close == std::string_view::npos) return fail(p, "unterminated type", "'>'", "end of input");
        p = close;
      }
      std::string_view whole = text_.substr(start, p - start);
      if (name == "!stablehlo.token" || name == "!mhlo.token") {
        out.kind = Type::Kind::Token;
      } else if (name.substr(0, 7) == "!quant.") {
        out.kind = Type::Kind::Element;
        out.element = std::string(whole);
        out.element_bytes = element_byte_size(whole);
      } else {
        out.kind = Type::Kind::Opaque;
      }
    } else if (p < n && is_ident_start(text_[p])) {
      while (p < n && (std::isalnum(static_cast<unsigned char>(text_[p])) || text_[p] == '_')) ++p;
      std::string_view name = text_.substr(start, p - start);
      if (p < n && text_[p] == '<') {  // memref<...>, vector<...>, other parametric types
        std::size_t close = skip_balanced_chars(p);
        if (close == std::string_view::npos) return fail(p, "unterminated type", "'>'", "end of input");
        p = close;
        out.kind = Type::Kind::Opaque;
      } else {
        out.kind = Type::Kind::Element;
        out.element = std::string(name);
        out.element_bytes = element_byte_size(name);
        // A bare name that is no element type (f33, float) is a typo, not an opaque type:
        // costing it would silently count zero bytes. Dialect types start with '!'.
        if (out.element_bytes == 0 && name != "none") {
          return fail(start, "unknown element type",
                      "i1…i64, ui8…ui64, f16, bf16, f32, f64, an f8/f6/f4 type, complex<…> or a !dialect type",
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

  // `(T, U)` after the '(' token has been peeked (not consumed).
  bool parse_type_list(std::vector<Type>& out) {
    if (!expect(Tok::LParen, "bad type list", "'('")) return false;
    if (lx_.peek().kind == Tok::RParen) {
      lx_.next();
      return true;
    }
    while (true) {
      Type t;
      if (!parse_type(t)) return false;
      out.push_back(std::move(t));
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

  // ---- attributes -------------------------------------------------------------------------

  // Raw text of one attribute value. In op text (in_dict = false) it stops at a ',' or ':'
  // at depth 0, at a new line, or at an attribute dict; in a dict at ',' or '}'.
  bool scan_value(std::string& out, bool in_dict) {
    int depth = 0;
    bool first = true;
    std::size_t begin = std::string_view::npos, end = 0;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::End || t.kind == Tok::Split) break;
      if (t.kind == Tok::Error) return fail(t.offset, "bad attribute value", "a complete value", describe(t));
      bool closer = t.kind == Tok::RParen || t.kind == Tok::RBracket || t.kind == Tok::RBrace ||
                    t.kind == Tok::Greater;
      if (depth == 0) {
        if (t.kind == Tok::Comma || closer) break;
        if (!in_dict && (t.kind == Tok::Colon || (!first && (t.newline_before || t.kind == Tok::LBrace))))
          break;
      }
      if (t.kind == Tok::LParen || t.kind == Tok::LBracket || t.kind == Tok::LBrace || t.kind == Tok::Less) {
        if (++depth > kMaxDepth) return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
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
    out.assign(text_.substr(begin, end - begin));
    return true;
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
      a.name = std::string(t.kind == Tok::String ? t.text.substr(1, t.text.size() - 2) : t.text);
      if (lx_.peek().kind == Tok::Equal) {
        lx_.next();
        if (!scan_value(a.value, true)) return false;
      }
      attrs.push_back(std::move(a));
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
    Token kw = lx_.next();  // module
    m.line = lx_.line_of(kw.offset);
    m.dialect = "stablehlo";
    if (lx_.peek().kind == Tok::At) m.name = strip_symbol(lx_.next().text);
    if (lx_.peek().kind == Tok::Ident && lx_.peek().text == "attributes") {
      lx_.next();
      if (!parse_attr_dict(m.attributes)) return false;
    }
    if (!expect(Tok::LBrace, "bad module", "'{' after the module name")) return false;
    if (!parse_module_body(m, 0)) return false;
    return skip_loc();
  }

  bool parse_module_body(Module& m, int depth) {
    if (depth > kMaxDepth) return fail(lx_.pos(), "modules nest too deeply", "at most 256 levels", "more");
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::RBrace) {
        lx_.next();
        return true;
      }
      if (t.kind == Tok::End || t.kind == Tok::Split || t.kind == Tok::Error)
        return fail(t.offset, "unterminated module", "'}'", describe(t));
      if (t.kind == Tok::Ident && (t.text == "func.func" || t.text == "func")) {
        Function f;
        if (!parse_function(f)) return false;
        m.functions.push_back(std::move(f));
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
      // Any other op at module level (globals, meshes): parsed and dropped.
      Block scratch;
      if (!parse_statement(scratch, 0)) return false;
    }
  }

  static std::string strip_symbol(std::string_view s) {
    if (!s.empty() && (s[0] == '@' || s[0] == '%')) s.remove_prefix(1);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return std::string(s);
  }

  bool parse_function(Function& f) {
    Token kw = lx_.next();  // func.func
    f.line = lx_.line_of(kw.offset);
    f.column = lx_.column_of(kw.offset);
    Token t = lx_.peek();
    if (t.kind == Tok::Ident && (t.text == "public" || t.text == "private" || t.text == "nested")) {
      f.visibility = std::string(t.text);
      lx_.next();
      t = lx_.peek();
    }
    if (t.kind != Tok::At) return fail(t.offset, "bad function", "a function name such as @main", describe(t));
    f.name = strip_symbol(lx_.next().text);
    if (!expect(Tok::LParen, "bad function signature", "'(' after the function name")) return false;
    sym_.clear();
    if (lx_.peek().kind != Tok::RParen) {
      while (true) {
        Token a = lx_.peek();
        std::string name;
        if (a.kind == Tok::Percent) {
          name = std::string(lx_.next().text);
          if (!expect(Tok::Colon, "bad function argument", "':' and a type after " + name)) return false;
        }
        Type ty;
        if (!parse_type(ty)) return false;
        if (lx_.peek().kind == Tok::LBrace && !skip_group()) return false;
        if (!skip_loc()) return false;
        if (!name.empty()) sym_[name] = ty;
        f.arg_names.push_back(name);
        f.arg_types.push_back(std::move(ty));
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
      lx_.skip_space();
      if (lx_.pos() < text_.size() && text_[lx_.pos()] == '(') {
        lx_.set_pos(lx_.pos());
        if (!parse_type_list(f.result_types)) return false;
      } else {
        Type ty;
        if (!parse_type(ty)) return false;
        f.result_types.push_back(std::move(ty));
      }
    }
    if (lx_.peek().kind == Tok::Ident && lx_.peek().text == "attributes") {
      lx_.next();
      std::vector<Attribute> ignored;
      if (!parse_attr_dict(ignored)) return false;
    }
    if (lx_.peek().kind == Tok::LBrace) {
      if (!parse_region(f.body, f.arg_names, f.arg_types)) return false;
    }
    return skip_loc();
  }

  // `{ [^bb0(%a: T):] ops ... }`; the entry block gets `args` unless it has its own label.
  bool parse_region(Region& r, const std::vector<std::string>& arg_names,
                    const std::vector<Type>& arg_types) {
    Token open = lx_.peek();
    if (!expect(Tok::LBrace, "bad region", "'{'")) return false;
    if (++depth_ > kMaxDepth) return fail(open.offset, "regions nest too deeply", "at most 256 levels", "more");
    r.blocks.emplace_back();
    Block* b = &r.blocks.back();
    for (std::size_t i = 0; i < arg_names.size(); ++i) {
      b->arg_names.push_back(arg_names[i]);
      b->arg_types.push_back(i < arg_types.size() ? arg_types[i] : Type());
      if (!arg_names[i].empty()) sym_[arg_names[i]] = b->arg_types.back();
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
        if (!(first_block && b->ops.empty())) {
          r.blocks.emplace_back();
          b = &r.blocks.back();
        }
        b->arg_names.clear();
        b->arg_types.clear();
        if (lx_.peek().kind == Tok::LParen) {
          lx_.next();
          while (lx_.peek().kind != Tok::RParen) {
            Token a = lx_.peek();
            if (a.kind != Tok::Percent) return fail(a.offset, "bad block argument", "%name: type", describe(a));
            lx_.next();
            if (!expect(Tok::Colon, "bad block argument", "':' and a type")) return false;
            Type ty;
            if (!parse_type(ty)) return false;
            if (!skip_loc()) return false;
            sym_[std::string(a.text)] = ty;
            b->arg_names.emplace_back(a.text);
            b->arg_types.push_back(std::move(ty));
            if (lx_.peek().kind == Tok::Comma) lx_.next();
            else if (lx_.peek().kind != Tok::RParen)
              return fail(lx_.peek().offset, "bad block argument list", "',' or ')'", describe(lx_.peek()));
          }
          lx_.next();
        }
        if (!expect(Tok::Colon, "bad block label", "':' after the block label")) return false;
        first_block = false;
        continue;
      }
      first_block = false;
      if (!parse_statement(*b, depth_)) return false;
    }
    --depth_;
    return true;
  }

  // One op: [results =] name ...
  bool parse_statement(Block& block, int) {
    Token first = lx_.peek();
    Op op;
    op.line = lx_.line_of(first.offset);
    op.column = lx_.column_of(first.offset);
    std::vector<std::pair<std::string, int>> defs;  // result name, count
    if (first.kind == Tok::Percent) {
      while (true) {
        Token r = lx_.next();
        if (r.kind != Tok::Percent) return fail(r.offset, "bad result list", "a result name such as %0", describe(r));
        int count = 1;
        if (lx_.peek().kind == Tok::Colon) {
          lx_.next();
          Token c = lx_.next();
          if (c.kind != Tok::Number || c.text.size() > 5 || c.text[0] == '-')
            return fail(c.offset, "bad result count", "a count such as 2 after ':'", describe(c));
          count = std::stoi(std::string(c.text));
          if (count < 0 || count > 4096) return fail(c.offset, "bad result count", "0 to 4096", describe(c));
        }
        defs.emplace_back(std::string(r.text), count);
        if (lx_.peek().kind == Tok::Comma) {
          lx_.next();
          continue;
        }
        break;
      }
      if (!expect(Tok::Equal, "bad operation", "'=' after the result names")) return false;
    }
    for (auto& [name, count] : defs) {
      if (count == 1) op.results.push_back(name);
      else
        for (int i = 0; i < count; ++i) op.results.push_back(name + "#" + std::to_string(i));
    }
    Token nt = lx_.peek();
    bool ok;
    if (nt.kind == Tok::String) {
      lx_.next();
      op.name = std::string(nt.text.substr(1, nt.text.size() - 2));
      ok = parse_generic(op);
    } else if (nt.kind == Tok::Ident) {
      lx_.next();
      op.name = std::string(nt.text);
      ok = parse_custom(op);
    } else {
      return fail(nt.offset, "bad operation", "an operation name such as stablehlo.add", describe(nt));
    }
    if (!ok) return false;
    // Every operand must name a value defined before it (a function or block argument, or an
    // earlier result): a typo such as %zz would otherwise be costed with a guessed type.
    for (const auto& operand : op.operands) {
      if (sym_.count(operand) == 0) {
        return fail(first.offset, "use of an undefined value",
                    "a value defined before this operation", operand);
      }
    }
    // Results: types and names into the symbol table.
    if (op.result_types.size() < op.results.size()) op.result_types.resize(op.results.size());
    for (std::size_t i = 0; i < op.results.size(); ++i) sym_[op.results[i]] = op.result_types[i];
    for (auto& [name, count] : defs)
      if (count > 1 && !op.result_types.empty()) sym_[name] = op.result_types[0];
    block.ops.push_back(std::move(op));
    return true;
  }

  void resolve_operand_types(Op& op, const std::vector<Type>& sig_in, bool have_in) {
    op.operand_types.clear();
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      auto it = sym_.find(op.operands[i]);
      if (it != sym_.end() && it->second.kind != Type::Kind::Opaque) {
        op.operand_types.push_back(it->second);
      } else if (have_in && i < sig_in.size()) {
        op.operand_types.push_back(sig_in[i]);
      } else if (have_in && sig_in.size() == 1) {
        op.operand_types.push_back(sig_in[0]);
      } else {
        op.operand_types.emplace_back();
      }
    }
  }

  bool parse_generic(Op& op) {
    if (!expect(Tok::LParen, "bad generic operation", "'(' and the operand list after \"" + op.name + "\""))
      return false;
    while (lx_.peek().kind != Tok::RParen) {
      Token a = lx_.next();
      if (a.kind != Tok::Percent) return fail(a.offset, "bad operand list", "an operand such as %0", describe(a));
      op.operands.emplace_back(a.text);
      if (lx_.peek().kind == Tok::Comma) lx_.next();
      else if (lx_.peek().kind != Tok::RParen)
        return fail(lx_.peek().offset, "bad operand list", "',' or ')'", describe(lx_.peek()));
    }
    lx_.next();
    if (lx_.peek().kind == Tok::LBracket && !skip_group()) return false;  // successors
    if (lx_.peek().kind == Tok::Less) {                                   // <{properties}>
      lx_.next();
      if (!parse_attr_dict(op.attributes)) return false;
      if (!expect(Tok::Greater, "bad properties", "'>' after the properties dictionary")) return false;
    }
    if (lx_.peek().kind == Tok::LParen) {  // ({ region }, { region })
      lx_.next();
      while (true) {
        op.regions.emplace_back();
        if (!parse_region(op.regions.back(), {}, {})) return false;
        if (lx_.peek().kind == Tok::Comma) {
          lx_.next();
          continue;
        }
        if (!expect(Tok::RParen, "bad region list", "',' or ')'")) return false;
        break;
      }
    }
    if (lx_.peek().kind == Tok::LBrace && !parse_attr_dict(op.attributes)) return false;
    if (!expect(Tok::Colon, "bad generic operation", "':' and a function type such as (T) -> T")) return false;
    std::vector<Type> in;
    lx_.skip_space();
    lx_.set_pos(lx_.pos());
    if (!parse_type_list(in)) return false;
    if (!expect(Tok::Arrow, "bad function type", "'->' and the result types")) return false;
    lx_.skip_space();
    if (lx_.pos() < text_.size() && text_[lx_.pos()] == '(') {
      lx_.set_pos(lx_.pos());
      if (!parse_type_list(op.result_types)) return false;
    } else {
      Type t;
      if (!parse_type(t)) return false;
      op.result_types.push_back(std::move(t));
    }
    if (!skip_loc()) return false;
    for (auto& a : op.attributes)
      if (a.name == "callee" || a.name == "call_target_name") a.value = strip_symbol(a.value);
    resolve_operand_types(op, in, true);
    return true;
  }

  bool parse_custom(Op& op) {
    int depth = 0;
    bool first = true;
    bool have_sig = false, have_arrow = false;
    std::vector<Type> sig_in, sig_out;
    std::vector<std::string> def_names;  // region argument definitions (%x: T, %x = %y)
    std::vector<Type> def_types;
    std::vector<std::size_t> untyped_defs;  // %iterArg = %v: typed from the signature
    std::string keywords;
    while (true) {
      Token t = lx_.peek();
      if (t.kind == Tok::End || t.kind == Tok::Split) break;
      if (t.kind == Tok::Error) return fail(t.offset, "bad operation text", "complete tokens", describe(t));
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
            def_names.emplace_back(t.text);
            def_types.emplace_back();
          } else if (after == Tok::Colon && depth > 0) {
            lx_.next();
            Type ty;
            if (!parse_type(ty)) return false;
            def_names.emplace_back(t.text);
            def_types.push_back(std::move(ty));
          } else {
            op.operands.emplace_back(t.text);
          }
          break;
        }
        case Tok::Colon: {
          lx_.next();
          if (depth > 0) break;
          if (have_sig) return fail(t.offset, "bad operation", "one type signature after ':'", "a second ':'");
          have_sig = true;
          lx_.skip_space();
          if (lx_.pos() < text_.size() && text_[lx_.pos()] == '(') {
            lx_.set_pos(lx_.pos());
            if (!parse_type_list(sig_in)) return false;
            if (lx_.peek().kind == Tok::Arrow) {
              lx_.next();
              have_arrow = true;
              lx_.skip_space();
              if (lx_.pos() < text_.size() && text_[lx_.pos()] == '(') {
                lx_.set_pos(lx_.pos());
                if (!parse_type_list(sig_out)) return false;
              } else {
                Type r;
                if (!parse_type(r)) return false;
                sig_out.push_back(std::move(r));
              }
            } else {
              sig_out = sig_in;
            }
          } else {
            while (true) {
              Type ty;
              if (!parse_type(ty)) return false;
              sig_out.push_back(std::move(ty));
              if (lx_.peek().kind != Tok::Comma) break;
              lx_.next();
            }
          }
          break;
        }
        case Tok::Ident: {
          lx_.next();
          Token after = lx_.peek();
          if (t.text == "loc" && after.kind == Tok::LParen) {
            if (!skip_group()) return false;
          } else if (depth == 0 && after.kind == Tok::Equal) {
            lx_.next();
            Attribute a;
            a.name = std::string(t.text);
            if (!scan_value(a.value, false)) return false;
            op.attributes.push_back(std::move(a));
          } else if (t.text == "applies" && after.kind == Tok::Ident) {
            lx_.next();
            op.attributes.push_back({"applies", std::string(after.text)});
          } else if (depth == 0 && !is_continuation(t.text)) {
            if (!keywords.empty()) keywords += ' ';
            keywords += t.text;
          }
          break;
        }
        case Tok::At:
          lx_.next();
          if (!op.attr("callee")) op.attributes.push_back({"callee", strip_symbol(t.text)});
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
            op.regions.emplace_back();
            if (!parse_region(op.regions.back(), def_names, def_types)) return false;
            // while: cond and do share the iteration arguments; reducer args are used once.
            if (untyped_defs.empty()) {
              def_names.clear();
              def_types.clear();
            }
          } else {
            if (!parse_attr_dict(op.attributes)) return false;
          }
          break;
        }
        case Tok::LParen: case Tok::LBracket: case Tok::Less:
          if (++depth > kMaxDepth) return fail(t.offset, "nesting is too deep", "at most 256 levels", "more");
          lx_.next();
          break;
        case Tok::RParen: case Tok::RBracket: case Tok::Greater: case Tok::RBrace:
          if (depth == 0)
            return fail(t.offset, "unbalanced brackets in " + op.name, "an opening bracket before it", describe(t));
          --depth;
          lx_.next();
          break;
        default:
          lx_.next();
          break;
      }
    }
    if (depth != 0) return fail(lx_.peek().offset, "unbalanced brackets in " + op.name, "a closing bracket", describe(lx_.peek()));
    if (!keywords.empty()) op.attributes.push_back({"keywords", keywords});
    // Result types from the signature.
    const std::size_t nres = op.results.size();
    if (have_arrow) {
      op.result_types = sig_out;
    } else if (have_sig && nres > 0) {
      if (sig_out.size() == nres) op.result_types = sig_out;
      else if (sig_out.size() == 1) op.result_types.assign(nres, sig_out[0]);
      else if (nres == 1 && !sig_out.empty()) op.result_types = {sig_out.back()};  // select: pred, T
      else op.result_types = sig_out;
    }
    if (op.result_types.size() > nres && nres > 0) op.result_types.resize(nres);
    // Operand types: defined values first, the signature otherwise.
    if (have_arrow) {
      resolve_operand_types(op, sig_in, true);
    } else if (have_sig && nres == 0) {
      resolve_operand_types(op, sig_out, true);
    } else if (have_sig && sig_out.size() == 1) {
      resolve_operand_types(op, sig_out, true);
    } else {
      resolve_operand_types(op, sig_out, have_sig && sig_out.size() == op.operands.size());
    }
    return true;
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
  return MlirParser(text).run();
}

Result<std::vector<Module>> parse(std::string_view text) {
  if (detect_dialect(text) == "hlo") return parse_hlo(text);
  return parse_stablehlo(text);
}

}  // namespace rl::hlo
