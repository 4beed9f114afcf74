// XLA HLO text → IR (the same IR as StableHLO: one Function per computation, one block of ops).
//
// The grammar, after XLA's hlo_parser.cc, as far as the cost rules need it:
//   module      ::= 'HloModule' name (',' attr)* computation+
//   computation ::= ['ENTRY'] name [signature] '{' instruction* '}' (',' attr)*
//   signature   ::= '(' [name ':' shape (',' name ':' shape)*] ')' '->' shape
//   instruction ::= ['ROOT'] name '=' shape opcode '(' [operand (',' operand)*] ')' (',' attr)*
//   operand     ::= [shape] name            (constant: a literal; parameter: its number)
//   shape       ::= '(' [shape (',' shape)*] ')' | type '[' [dim (',' dim)*] ']' ['{' layout '}']
//   dim         ::= N | '<=' N | '?'
//   attr        ::= name '=' value          (raw text up to ',' or a line break at depth 0)
// Names are kept without their '%'. Operands are resolved to the instruction they name when
// the computation is complete (a use may come before the definition); a shape written before
// an operand is not needed. A module without a header (text starting at ENTRY) is accepted
// with an empty name. Constants keep their whole literal; ROOT is a field of the op.
// Instructions written without a shape get the shape XLA would infer (infer.cpp) once the
// module is complete, for the opcodes where XLA allows it.
//
// Char-level and linear: every loop advances at least one byte, literals and attribute values
// are skipped by one balanced-bracket scan, nesting deeper than kMaxDepth is refused.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>

#include "common/loop_body.h"
#include "common/memory.h"
#include "hlo/attrs.h"
#include "hlo/infer.h"
#include "hlo/lexer.h"
#include "hlo/name_map.h"
#include "hlo/parse.h"

namespace rl::hlo {

namespace {

using chars::alnum;
using chars::alpha;
using chars::digit;
bool name_char(char c) { return chars::is(c, chars::kHloName); }

constexpr std::size_t kMaxRank = 4096;
constexpr std::int64_t kMaxParameterNumber =
    2147483647;  // XLA keeps it in an int64; no program has more

class HloParser {
 public:
  explicit HloParser(std::shared_ptr<const std::string> source)
      : src_(std::move(source)), lx_(*src_, true), s_(*src_), n_(s_.size()) {}

  Result<std::vector<Module>> run() {
    const std::size_t control = find_control_char(s_);
    if (control != std::string_view::npos)
      return Result<std::vector<Module>>::failure_at(control_char_error(lx_, control),
                                                     lx_.line_of(control), lx_.column_of(control));
    std::vector<Module> modules;
    Module cur;
    bool have = false;
    auto flush = [&]() {
      if (have) {
        if (finish_module(cur)) modules.push_back(std::move(cur));
      }
      cur = Module();
      have = false;
    };
    while (!failed_) {
      ws();
      if (p_ >= n_) break;
      if (split_here()) {
        flush();
        skip_line();
        continue;
      }
      if (word_here("HloModule")) {
        flush();
        if (failed_) break;
        have = true;
        if (!parse_header(cur)) break;
        continue;
      }
      if (word_here("FileNames") || word_here("FunctionNames") || word_here("FileLocations") ||
          word_here("StackFrames")) {  // stack-frame tables printed after the header: skipped
        skip_line();
        while (true) {
          blanks();
          if (!(p_ < n_ && digit(s_[p_]))) break;
          skip_line();
        }
        continue;
      }
      if (!have) {  // computations without a header: an unnamed module
        have = true;
        start_module(cur);
      }
      if (!parse_computation(cur)) break;
    }
    if (!failed_) flush();
    if (failed_) return Result<std::vector<Module>>::failure_at(error_, error_line_, error_column_);
    return Result<std::vector<Module>>::success(std::move(modules));
  }

 private:
  std::shared_ptr<const std::string> src_;
  std::unique_ptr<TypeTable> table_;
  Function* fn_ = nullptr;
  Lexer lx_;
  std::string_view s_;
  std::size_t n_;
  std::size_t p_ = 0;
  bool failed_ = false;
  std::string_view layout_;  // the layout written after the last array shape parse_shape_id read
  bool infer_any_ = false;  // an instruction of the module being read was written without its shape
  std::string error_;
  int error_line_ = 0, error_column_ = 0;

  // ---- errors and low-level scanning ------------------------------------------------------

  std::string got_at(std::size_t offset) {
    if (offset >= n_) return "end of input";
    lx_.set_pos(offset);
    return describe(lx_.peek());
  }

  bool fail(std::size_t offset, std::string_view what, std::string_view expected) {
    return fail(offset, what, expected, got_at(offset));
  }
  bool fail(std::size_t offset, std::string_view what, std::string_view expected,
            const std::string& got) {
    if (!failed_) {
      failed_ = true;
      error_ = format_error(lx_, std::min(offset, n_), what, expected, got);
      error_line_ = lx_.line_of(std::min(offset, n_));
      error_column_ = lx_.column_of(std::min(offset, n_));
    }
    return false;
  }

  // Spaces, line breaks and comments; stops before `// -----` and unterminated `/*`.
  void ws() {
    lx_.set_pos(p_);
    lx_.skip_space();
    p_ = lx_.pos();
  }
  // Spaces and tabs only (no line break, no comment).
  void blanks() {
    while (p_ < n_ && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\r')) ++p_;
  }

  bool at(char c) const { return p_ < n_ && s_[p_] == c; }
  bool split_here() const { return p_ + 1 < n_ && s_[p_] == '/' && s_[p_ + 1] == '/'; }
  void skip_line() {
    const void* nl = p_ < n_ ? std::memchr(s_.data() + p_, '\n', n_ - p_) : nullptr;
    p_ = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - s_.data()) + 1 : n_;
  }
  bool word_here(std::string_view w) const {
    return s_.compare(p_, w.size(), w) == 0 &&
           (p_ + w.size() >= n_ || !name_char(s_[p_ + w.size()]));
  }
  bool expect(char c, std::string_view what, std::string_view rule) {
    ws();
    if (!at(c)) return fail(p_, what, rule);
    ++p_;
    return true;
  }

  // [%]name: letters, digits, '_', '.', '-', '$' ('-' not when it starts '->'). Empty if none.
  std::string_view read_name() {
    std::size_t b = p_;
    std::size_t q = p_;
    if (q < n_ && s_[q] == '%') ++q;
    const std::size_t first = q;
    if (q < n_ && (alpha(s_[q]) || s_[q] == '_' || s_[q] == '$' || (first > b && digit(s_[q])))) {
      ++q;
      while (q < n_ && name_char(s_[q]) && !(s_[q] == '-' && q + 1 < n_ && s_[q + 1] == '>')) ++q;
    }
    if (q == first) return {};
    p_ = q;
    return s_.substr(first, q - first);
  }

  // A "..." string starting at p_; false (with an error) when unterminated.
  // At "/*": moves past the matching "*/".
  bool skip_block_comment() {
    std::size_t close = s_.find("*/", p_ + 2);
    if (close == std::string_view::npos) return fail(p_, "unterminated comment", "'*/'");
    p_ = close + 2;
    return true;
  }

  bool skip_string() {
    std::size_t q = p_ + 1;
    while (q < n_ && s_[q] != '"') q += s_[q] == '\\' ? 2 : 1;
    if (q >= n_) return fail(p_, "unterminated string", "a closing '\"'");
    p_ = q + 1;
    return true;
  }

  // Raw text of an attribute value (or a literal): to ',' or a line break at depth 0, or to a
  // closing bracket that was not opened in it. Strings and comments are skipped whole.
  bool scan_value(std::size_t* begin, std::size_t* end) {
    *begin = p_;
    int depth = 0;
    std::size_t last = p_;  // end of the last significant byte
    std::size_t open_at = p_;
    while (p_ < n_) {
      const char c = s_[p_];
      if (c == '"') {
        if (!skip_string()) return false;
        last = p_;
        continue;
      }
      if (c == '/' && p_ + 1 < n_ && s_[p_ + 1] == '*') {
        if (!skip_block_comment()) return false;
        continue;
      }
      if (c == '/' && p_ + 1 < n_ && s_[p_ + 1] == '/') {
        if (depth == 0) break;
        skip_line();
        continue;
      }
      if (c == '{' || c == '[' || c == '(') {
        if (depth == 0) open_at = p_;
        if (++depth > kMaxDepth) return fail(p_, "nesting is too deep", "at most 256 levels");
      } else if (c == '}' || c == ']' || c == ')') {
        if (depth == 0) break;
        --depth;
      } else if (depth == 0 && (c == ',' || c == '\n')) {
        break;
      }
      ++p_;
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') last = p_;
    }
    if (depth != 0)
      return fail(open_at, "unbalanced brackets in a value", "a closing bracket for this one");
    *end = last;
    return true;
  }

  // `name=value`, p_ at the name.
  bool parse_attr(std::vector<Attribute>& out) {
    ws();
    const std::size_t at_name = p_;
    std::size_t q = p_;
    while (q < n_ && (name_char(s_[q]) || s_[q] == '%')) ++q;
    if (q == p_) return fail(p_, "bad attribute", "an attribute such as dimensions={0}");
    std::string_view name = s_.substr(p_, q - p_);
    p_ = q;
    ws();
    if (!at('='))
      return fail(p_, "bad attribute " + std::string(name.substr(0, 40)), "'=' and a value");
    ++p_;
    ws();  // a value may start on the next line (backend_config=\n "...")
    std::size_t b = 0, e = 0;
    if (!scan_value(&b, &e)) return false;
    if (e <= b)
      return fail(p_, "missing value of attribute " + std::string(name.substr(0, 40)),
                  "a value after '='");
    (void)at_name;
    out.push_back({name, s_.substr(b, e - b)});
    return true;
  }

  // ---- shapes -------------------------------------------------------------------------------

  bool parse_shape(Type& out, int depth = 0) {
    ws();
    const std::size_t start = p_;
    if (depth > kMaxDepth) return fail(start, "tuple shapes nest too deeply", "at most 256 levels");
    if (at('(')) {
      ++p_;
      out.kind = Type::Kind::Tuple;
      out.text = "(";
      ws();
      if (at(')')) {
        ++p_;
        out.text += ")";
        return true;
      }
      while (true) {
        Type t;
        if (!parse_shape(t, depth + 1)) return false;
        if (!out.tuple.empty()) out.text += ", ";
        out.text += t.text;
        out.tuple.push_back(std::move(t));
        ws();
        if (at(',')) {
          ++p_;
          continue;
        }
        if (at(')')) {
          ++p_;
          out.text += ")";
          layout_ = {};  // the elements' layouts are not the tuple's
          return true;
        }
        return fail(p_, "bad tuple shape", "',' or ')'");
      }
    }
    std::size_t q = p_;
    while (q < n_ && alnum(s_[q])) ++q;
    if (q == p_ || q >= n_ || s_[q] != '[' || !alpha(s_[p_]))
      return fail(start, "bad shape", "a shape such as f32[2,3]{1,0} or (f32[2], s32[])");
    std::string_view element = s_.substr(p_, q - p_);
    out.element = std::string(element);
    if (element == "token") {
      out.kind = Type::Kind::Token;
    } else if (element == "opaque") {
      out.kind = Type::Kind::Opaque;
    } else {
      out.kind = Type::Kind::Tensor;
      out.etype = element_type_from_name(element);
      out.element_bytes = element_byte_size(element);
      if (out.element_bytes <= 0 || element.substr(0, 2) == "si" || element.substr(0, 2) == "ui" ||
          element[0] == 'i' || element == "index" || element == "tf32")
        return fail(
            start, "unknown element type '" + std::string(element.substr(0, 40)) + "'",
            "pred, s4..s64, u4..u64, f16, bf16, f32, f64, f8e4m3fn..., c64, c128, token or opaque");
    }
    out.text.reserve(element.size() + 8);
    out.text = std::string(element) + "[";
    p_ = q + 1;
    while (true) {
      blanks();
      if (at(']')) {
        ++p_;
        break;
      }
      if (!out.dims.empty()) {
        if (!at(',')) return fail(p_, "bad shape dimensions", "',' or ']'");
        ++p_;
        out.text += ',';
        blanks();
      }
      if (out.dims.size() >= kMaxRank)
        return fail(p_, "shape rank is too large", "at most 4096 dimensions");
      if (at('?')) {
        ++p_;
        out.dims.push_back(-1);
        out.text += '?';
        continue;
      }
      bool bounded = false;
      if (p_ + 1 < n_ && s_[p_] == '<' && s_[p_ + 1] == '=') {
        p_ += 2;
        bounded = true;
        out.text += "<=";
      }
      if (!digit(s_.size() > p_ ? s_[p_] : '\0'))
        return fail(p_, "bad shape dimension", "a size such as 8, <=8 or ?");
      const std::size_t db = p_;
      while (p_ < n_ && digit(s_[p_])) ++p_;
      std::int64_t v = 0;
      if (!decimal_in_range(s_.substr(db, p_ - db), 0, kMaxDim, &v)) {
        const std::string_view digits = s_.substr(db, p_ - db);
        return fail(db, "a shape dimension must be an integer from 0 to 2^50",
                    "a size such as 8, <=8 or ?",
                    "'" + std::string(digits.substr(0, 40)) + (digits.size() > 40 ? "...'" : "'"));
      }
      out.text.append(s_.data() + db, p_ - db);
      (void)bounded;  // a bounded dynamic dimension is sized by its bound, as XLA does
      out.dims.push_back(v);
    }
    out.text += ']';
    if ((out.kind == Type::Kind::Token || out.kind == Type::Kind::Opaque) && !out.dims.empty())
      return fail(start, "bad " + out.element + " shape", out.element + "[] without dimensions");
    if (at('{') && layout_follows()) {  // {1,0}, {1,0:T(8,128)(2,1)S(1)}, {}
      std::size_t b = 0, e = 0;
      if (!skip_group(&b, &e)) return false;
      layout_ = s_.substr(b, e - b);
    }
    return true;
  }

  // At a '{' right after a shape: a layout (digits, ':' or '}' follow on the same line), not a
  // computation body (`-> f32[2]{` followed by its instructions).
  bool layout_follows() const {
    std::size_t q = p_ + 1;
    while (q < n_ && (s_[q] == ' ' || s_[q] == '\t')) ++q;
    return q < n_ && (digit(s_[q]) || s_[q] == ':' || s_[q] == '}');
  }

  // A balanced group starting at p_ (one of ([{); p_ ends after its closer. b..e: inside.
  bool skip_group(std::size_t* b, std::size_t* e) {
    const std::size_t open = p_;
    int depth = 0;
    while (p_ < n_) {
      const char c = s_[p_];
      if (c == '"') {
        if (!skip_string()) return false;
        continue;
      }
      if (c == '/' && p_ + 1 < n_ && s_[p_ + 1] == '*') {
        if (!skip_block_comment()) return false;
        continue;
      }
      if (c == '{' || c == '[' || c == '(') {
        if (++depth > kMaxDepth) return fail(p_, "nesting is too deep", "at most 256 levels");
      } else if (c == '}' || c == ']' || c == ')') {
        if (--depth == 0) {
          *b = open + 1;
          *e = p_;
          ++p_;
          return true;
        }
      }
      ++p_;
    }
    return fail(open, "unbalanced brackets", "a closing bracket for this one");
  }

  // ---- structure ----------------------------------------------------------------------------

  // A shape, interned. Array shapes repeat: the text as written (without its layout) is
  // looked up before it is parsed again.
  bool parse_shape_id(TypeId* id) {
    layout_ = {};
    ws();
    std::size_t q = p_;
    while (q < n_ && alnum(s_[q])) ++q;
    if (q > p_ && q < n_ && s_[q] == '[') {
      const void* close = std::memchr(s_.data() + q, ']', std::min<std::size_t>(n_ - q, 4096 * 24));
      if (close) {
        const std::size_t end =
            static_cast<std::size_t>(static_cast<const char*>(close) - s_.data()) + 1;
        if (const TypeId* known = table_->find_written(s_.substr(p_, end - p_))) {
          *id = *known;
          p_ = end;
          if (at('{') && layout_follows()) {
            std::size_t b = 0, e = 0;
            if (!skip_group(&b, &e)) return false;
            layout_ = s_.substr(b, e - b);
          }
          return true;
        }
      }
    }
    const std::size_t start = p_;
    Type t;
    if (!parse_shape(t)) return false;
    const bool array = t.kind != Type::Kind::Tuple;
    const std::size_t written = start + t.text.size();
    *id = table_->intern(std::move(t));
    if (array && written <= n_) table_->remember_written(s_.substr(start, written - start), *id);
    return true;
  }

  TypeId placeholder_type() {  // the type of an instruction whose shape is left out, until inferred
    Type t;
    t.kind = Type::Kind::Opaque;
    t.text = "?";
    return table_->intern(std::move(t));
  }

  // ---- structure ----------------------------------------------------------------------------

  void start_module(Module& m) {
    m = Module();
    m.dialect = "hlo";
    m.line = lx_.line_of(p_);
    m.source = src_;
    table_ = std::make_unique<TypeTable>(&m.types);
  }

  bool parse_header(Module& m) {
    start_module(m);
    p_ += 9;  // HloModule
    ws();
    std::string_view name = read_name();
    if (name.empty()) return fail(p_, "bad HloModule header", "a module name after HloModule");
    m.name = std::string(name);
    while (true) {
      ws();
      if (!at(',')) return true;
      ++p_;
      if (!parse_attr(m.attributes)) return false;
    }
  }

  // An operand that names an instruction not yet read: resolved to it when the computation is
  // complete, into its slot `ref` of the function's refs. One flat list per parser, reused by
  // every computation.
  struct Use {
    std::string_view name;
    std::uint32_t offset;
    std::uint32_t ref;
  };
  std::vector<Use> uses_;
  std::size_t instructions_ = 0;

  // Whether the heap leaves room to go on: reading may use three quarters of what the core has,
  // the rest is for verifying and costing (common/memory.h). Else the error, at this instruction.
  bool memory_left(std::size_t offset) {
    const std::size_t limit = memory::limit();
    if (memory::fits(limit / 4)) return true;
    failed_ = true;
    error_line_ = lx_.line_of(offset);
    error_column_ = lx_.column_of(offset);
    error_ =
        lx_.where(offset) +
        ": error: the program is too big for the core's memory \xE2\x80\x94 expected at most " +
        std::to_string((limit - limit / 4) >> 20) + " MiB in use while reading it (of the " +
        std::to_string(limit >> 20) + " MiB the core has), got " +
        std::to_string(memory::in_use() >> 20) + " MiB at this instruction";
    return false;
  }
  SymbolTable<ValueId> defined_;  // instruction name → its value, in the computation being read

  bool parse_computation(Module& m) {
    ws();
    m.functions.emplace_back();
    Function& f = m.functions.back();
    fn_ = &f;
    const std::size_t start = p_;
    f.line = lx_.line_of(start);
    f.column = lx_.column_of(start);
    if (word_here("ENTRY")) {
      f.is_entry = true;
      p_ += 5;
      ws();
    }
    std::string_view name = read_name();
    if (name.empty())
      return fail(p_, "unexpected text between computations",
                  "a computation such as ENTRY main { ... }, 'HloModule' or '// -----'");
    f.name = name;
    for (std::size_t i = 0; i + 1 < m.functions.size(); ++i)
      if (m.functions[i].name == f.name)
        return fail(start, "computation " + std::string(f.name.substr(0, 40)) + " defined twice",
                    "unique computation names");
    if (f.is_entry)
      for (std::size_t i = 0; i + 1 < m.functions.size(); ++i)
        if (m.functions[i].is_entry)
          return fail(start, "a second ENTRY computation " + std::string(f.name.substr(0, 40)),
                      "one ENTRY per module");
    ws();
    std::vector<TypeId> sig_types;
    std::vector<std::string_view> sig_names;
    bool have_sig = false;
    if (at('(')) {
      have_sig = true;
      ++p_;
      ws();
      while (!at(')')) {
        std::string_view pn = read_name();
        if (pn.empty())
          return fail(p_, "bad computation signature", "a parameter such as p: f32[2]");
        ws();
        if (!at(':'))
          return fail(p_, "bad computation signature",
                      "':' and a shape after " + std::string(pn.substr(0, 40)));
        ++p_;
        TypeId t;
        if (!parse_shape_id(&t)) return false;
        sig_names.push_back(pn);
        sig_types.push_back(t);
        ws();
        if (at(',')) {
          ++p_;
          ws();
          continue;
        }
        if (!at(')')) return fail(p_, "bad computation signature", "',' or ')'");
      }
      ++p_;
      ws();
      if (!(p_ + 1 < n_ && s_[p_] == '-' && s_[p_ + 1] == '>'))
        return fail(p_, "bad computation signature", "'->' and the result shape");
      p_ += 2;
      TypeId result;
      if (!parse_shape_id(&result)) return false;
    }
    ws();
    if (!at('{'))
      return fail(p_, "bad computation " + std::string(f.name.substr(0, 40)),
                  "'{' and its instructions");
    ++p_;
    f.body.blocks.emplace_back();
    Block& block = f.body.blocks.back();
    // Every loop over the computation's lines or instructions is a function of its own, called
    // out of line (common/loop_body.h): V8 counts a loop's iterations against the function
    // holding it and then optimizes that function, which for this one (read once per
    // computation, all of the parser inlined) cost 48 ms and a 6.5 MB compilation zone for code
    // that never ran again.
    (this->*out_of_line(&HloParser::reserve_body))(f, block);
    defined_.clear();
    uses_.clear();
    std::size_t root = std::string_view::npos;
    if (!(this->*out_of_line(&HloParser::read_body))(f, block, &root)) return false;
    // Attributes after the body (execution_thread="..."): read and dropped.
    {
      std::size_t save = p_;
      ws();
      if (at(',')) {
        std::vector<Attribute> ignored;
        while (at(',')) {
          ++p_;
          if (!parse_attr(ignored)) return false;
          save = p_;
          ws();
        }
      }
      p_ = save;
    }
    if (block.ops.empty())
      return fail(p_ - 1,
                  "computation " + std::string(f.name.substr(0, 40)) + " has no instructions",
                  "at least a ROOT instruction");
    // Operands defined after their use: each names an instruction of this computation.
    if (!(this->*out_of_line(&HloParser::resolve_uses))(f)) return false;
    if (root == std::string_view::npos) {  // XLA: the last instruction
      root = block.ops.size() - 1;
      block.ops[root].is_root = true;
    }
    // Arguments: the parameter instructions by number (the signature if there are none).
    std::vector<std::pair<std::int64_t, std::size_t>> params;
    if (!(this->*out_of_line(&HloParser::parameters))(f, block, &params)) return false;
    std::sort(params.begin(), params.end());
    for (std::size_t k = 0; k < params.size(); ++k) {
      const Op& p = block.ops[params[k].second];
      if (k > 0 && params[k].first == params[k - 1].first) {
        failed_ = true;
        error_ =
            std::to_string(p.line) + ":" + std::to_string(p.column) + ": error: parameter " +
            std::to_string(params[k].first) + " defined twice in " +
            std::string(f.name.substr(0, 40)) +
            " \xE2\x80\x94 expected one parameter instruction per number, got a second parameter(" +
            std::to_string(params[k].first) + ")";
        error_line_ = p.line;
        error_column_ = p.column;
        return false;
      }
      f.args.push_back(static_cast<ValueId>(params[k].second));
    }
    if (params.empty() && have_sig) {
      for (std::size_t i = 0; i < sig_types.size(); ++i) {
        f.values.push_back({sig_types[i], 0, false, sig_names[i]});
        f.args.push_back(static_cast<ValueId>(f.values.size() - 1));
      }
    }
    f.result_types.push_back(f.values[root].type);
    return true;
  }

  // The computation's instructions up to its closing '}' (root: the ROOT's index, if written).
  RL_LOOP_BODY bool read_body(Function& f, Block& block, std::size_t* root) {
    const auto step_fn = out_of_line(&HloParser::body_step);  // common/loop_body.h
    for (int step; (step = (this->*step_fn)(f, block, root)) != 0;)
      if (step < 0) return false;
    return true;
  }

  // Operands defined after their use: each names an instruction of this computation.
  RL_LOOP_BODY bool resolve_uses(Function& f) {
    const auto resolve_fn = out_of_line(&HloParser::resolve);
    for (const Use& u : uses_)
      if (!(this->*resolve_fn)(f, u)) return false;
    return true;
  }

  // The parameter instructions: (number, index in the block) each.
  RL_LOOP_BODY bool parameters(Function& f, const Block& block,
                               std::vector<std::pair<std::int64_t, std::size_t>>* params) {
    for (std::size_t i = 0; i < block.ops.size(); ++i)
      if (block.ops[i].code == OpCode::Parameter) {
        const Attribute* a = f.attr(block.ops[i], "parameter_number");
        std::int64_t number = 0;  // checked when the instruction was read
        if (a && !decimal_in_range(a->value, 0, kMaxParameterNumber, &number)) {
          const Op& p = block.ops[i];
          failed_ = true;
          error_ = std::to_string(p.line) + ":" + std::to_string(p.column) +
                   ": error: a parameter number must be an integer from 0 to " +
                   std::to_string(kMaxParameterNumber) +
                   " \xE2\x80\x94 expected a number such as parameter(0), got '" +
                   std::string(a->value.substr(0, 40)) + "'";
          error_line_ = p.line;
          error_column_ = p.column;
          return false;
        }
        params->emplace_back(number, i);
      }
    return true;
  }

  // The next instruction of a computation's body, or its closing '}': 1 when an instruction was
  // read, 0 at the '}', -1 on an error. Out of line, as the steps below (common/loop_body.h): the
  // loop over a computation of a million instructions runs in one call.
  RL_LOOP_BODY int body_step(Function& f, Block& block, std::size_t* root) {
    ws();
    if (at('}')) {
      ++p_;
      return 0;
    }
    if (p_ >= n_ || split_here() || word_here("HloModule") || word_here("ENTRY")) {
      fail(p_, "unterminated computation " + std::string(f.name.substr(0, 40)), "'}'");
      return -1;
    }
    const std::size_t inst_at = p_;
    if (!parse_instruction(block)) return -1;
    if (block.ops.back().is_root) {
      if (*root != std::string_view::npos) {
        fail(inst_at, "two ROOT instructions in " + std::string(f.name.substr(0, 40)),
             "one ROOT per computation");
        return -1;
      }
      *root = block.ops.size() - 1;
    }
    return 1;
  }

  // An operand's name, resolved to the instruction of this computation that defines it.
  RL_LOOP_BODY bool resolve(Function& f, const Use& u) {
    const ValueId* v = defined_.find(u.name);
    if (!v)
      return fail(u.offset,
                  "operand " + std::string(u.name.substr(0, 40)) + " is not defined in " +
                      std::string(f.name.substr(0, 40)),
                  "the name of an instruction of this computation");
    f.refs[u.ref] = *v;
    return true;
  }

  // Room for the instructions of the computation starting here: one per indented line (XLA
  // indents instructions; '}' closes at the start of a line), so big computations do not grow
  // by doubling. Only an estimate: the vectors still grow if it is short.
  RL_LOOP_BODY void reserve_body(Function& f, Block& block) {
    std::size_t lines = 0;
    for (std::size_t q = p_; q < n_;) {
      const void* nl = std::memchr(s_.data() + q, '\n', n_ - q);
      if (!nl) break;
      q = static_cast<std::size_t>(static_cast<const char*>(nl) - s_.data()) + 1;
      ++lines;
      if (q < n_ && s_[q] != ' ' && s_[q] != '\t')
        break;  // '}', a blank line, the next computation
    }
    block.ops.reserve(lines);
    f.values.reserve(lines);
    f.refs.reserve(lines * 3);
    f.attrs.reserve(lines);
  }

  // ['ROOT'] name '=' [shape] opcode '(' operands ')' (',' attr)*. The instruction's value is
  // its index in the block (values are numbered by instruction, signature arguments after).
  // Its attributes go straight into the function's list; its operands get slots in refs,
  // filled when the computation is complete, and its result follows them.
  RL_LOOP_BODY bool parse_instruction(Block& block) {
    const std::size_t start = p_;
    if ((++instructions_ & 4095) == 0 && !memory_left(start)) return false;
    Function& f = *fn_;
    Op op;
    op.attributes.begin = static_cast<std::uint32_t>(f.attrs.size());
    op.operands.begin = static_cast<std::uint32_t>(f.refs.size());
    op.line = lx_.line_of(start);
    op.column = lx_.column_of(start);
    if (word_here("ROOT")) {
      op.is_root = true;
      p_ += 4;
      ws();
    }
    const std::size_t name_at = p_;
    std::string_view name = read_name();
    if (name.empty())
      return fail(p_, "bad instruction", "a name such as %add.1 = f32[2] add(a, b), or '}'");
    ws();
    if (!at('='))
      return fail(p_, "bad instruction " + std::string(name.substr(0, 40)),
                  "'=' after the instruction name");
    ++p_;
    TypeId shape = 0;
    ws();
    std::size_t q = p_;
    while (q < n_ && alnum(s_[q])) ++q;
    const bool has_shape = at('(') || (q < n_ && s_[q] == '[');
    if (has_shape && !parse_shape_id(&shape)) return false;
    const std::string_view layout = has_shape ? layout_ : std::string_view();
    ws();
    q = p_;
    while (q < n_ && (alnum(s_[q]) || s_[q] == '-' || s_[q] == '_')) ++q;
    if (q == p_ || !alpha(s_[p_]))
      return fail(p_, "bad instruction " + std::string(name.substr(0, 40)),
                  "an opcode such as add");
    op.name = s_.substr(p_, q - p_);
    op.code = op_from_name(op.name, "hlo");
    p_ = q;
    ws();
    if (!at('('))
      return fail(p_, "bad instruction " + std::string(name.substr(0, 40)),
                  "'(' and the operands of " + std::string(op.name));
    if (op.code == OpCode::Constant) {
      std::size_t b = 0, e = 0;
      if (!skip_group(&b, &e)) return false;
      std::string_view lit = s_.substr(b, e - b);
      while (!lit.empty() && std::isspace(static_cast<unsigned char>(lit.front())))
        lit.remove_prefix(1);
      while (!lit.empty() && std::isspace(static_cast<unsigned char>(lit.back())))
        lit.remove_suffix(1);
      f.attrs.push_back({"literal", lit});  // whole: the lowering decodes it
    } else if (op.code == OpCode::Parameter) {
      ++p_;
      ws();
      const std::size_t nb = p_;
      while (p_ < n_ && (name_char(s_[p_]) || s_[p_] == '+'))
        ++p_;  // the whole word: 1e3, 0x1, 12a refused
      std::int64_t number = 0;
      const std::string_view word = s_.substr(nb, p_ - nb);
      if (!decimal_in_range(word, 0, kMaxParameterNumber, &number))
        return fail(nb,
                    "a parameter number must be an integer from 0 to " +
                        std::to_string(kMaxParameterNumber),
                    "a number such as parameter(0)",
                    word.empty() ? got_at(nb)
                                 : "'" + std::string(word.substr(0, 40)) +
                                       (word.size() > 40 ? "...'" : "'"));
      f.attrs.push_back({"parameter_number", s_.substr(nb, p_ - nb)});
      if (!expect(')', "bad parameter", "')' after the parameter number")) return false;
    } else {
      ++p_;
      ws();
      while (!at(')')) {
        std::size_t r = p_;
        while (r < n_ && alnum(s_[r])) ++r;
        if (at('(') || (r > p_ && r < n_ && s_[r] == '[' && alpha(s_[p_]))) {
          // The operand's shape as written; its definition's shape is the one used.
          if (!skip_shape()) return false;
          ws();
        }
        const std::size_t at_operand = p_;
        std::string_view on = read_name();
        if (on.empty())
          return fail(p_, "bad operand of " + std::string(op.name),
                      "an operand such as %x or f32[2] %x");
        // An instruction defined above (XLA prints its computations in post order: nearly every
        // operand) is resolved now; only a forward reference waits for the end of the body. The
        // list of every use (24 bytes an operand, grown by doubling) was a 12 MB module's largest
        // transient allocation.
        if (const ValueId* v = defined_.find(on)) {
          f.refs.push_back(*v);
        } else {
          uses_.push_back({on, static_cast<std::uint32_t>(at_operand),
                           static_cast<std::uint32_t>(f.refs.size())});
          f.refs.push_back(0);
        }
        ws();
        if (at(',')) {
          ++p_;
          ws();
          continue;
        }
        if (!at(')')) return fail(p_, "bad operand list of " + std::string(op.name), "',' or ')'");
      }
      ++p_;
    }
    // Attributes: `, name=value` until something else.
    while (true) {
      std::size_t save = p_;
      ws();
      if (!at(',')) {
        p_ = save;
        break;
      }
      ++p_;
      if (!parse_attr(f.attrs)) return false;
    }
    if (!has_shape) {  // typed by infer_shapes() once the module is complete
      op.infer_shape = true;
      infer_any_ = true;
      shape = placeholder_type();
    }
    const auto id = static_cast<ValueId>(block.ops.size());
    if (!defined_.insert(name, id))
      return fail(name_at, "instruction " + std::string(name.substr(0, 40)) + " defined twice",
                  "unique instruction names in a computation");
    op.operands.count = static_cast<std::uint32_t>(f.refs.size()) - op.operands.begin;
    op.attributes.count = static_cast<std::uint32_t>(f.attrs.size()) - op.attributes.begin;
    // The instruction's single result follows its operands in refs.
    op.results.begin = static_cast<std::uint32_t>(f.refs.size());
    op.results.count = 1;
    if (has_shape && !layout.empty() && !is_default_layout(layout))
      f.layouts.push_back({static_cast<ValueId>(f.values.size()), layout});
    f.refs.push_back(id);
    f.values.push_back({shape, 0, false, name});
    block.ops.push_back(op);
    return true;
  }

  // An operand's shape as written (ignored): looked up as written when it is a known array
  // shape, else parsed for its errors only.
  bool skip_shape() {
    std::size_t q = p_;
    while (q < n_ && alnum(s_[q])) ++q;
    if (q > p_ && q < n_ && s_[q] == '[') {
      const void* close = std::memchr(s_.data() + q, ']', std::min<std::size_t>(n_ - q, 4096 * 24));
      if (close) {
        const std::size_t end =
            static_cast<std::size_t>(static_cast<const char*>(close) - s_.data()) + 1;
        if (table_->find_written(s_.substr(p_, end - p_))) {
          p_ = end;
          if (at('{') && layout_follows()) {
            std::size_t b = 0, e = 0;
            if (!skip_group(&b, &e)) return false;
          }
          return true;
        }
      }
    }
    Type ignored;
    return parse_shape(ignored);
  }

  bool finish_module(Module& m) {
    if (m.functions.empty()) {
      return fail(p_ >= n_ ? n_ : p_, "HloModule " + m.name.substr(0, 40) + " has no computations",
                  "a computation such as ENTRY main { ... }");
    }
    if (!m.entry()) m.functions.back().is_entry = true;  // XLA: the last computation
    // Every instruction written with its shape (XLA prints them so): nothing to infer.
    if (!infer_any_) return true;
    infer_any_ = false;
    auto inferred = infer_shapes(m, *table_);
    if (!inferred) {
      failed_ = true;
      error_ = inferred.error();
      error_line_ = inferred.error_info().line;
      error_column_ = inferred.error_info().column;
      return false;
    }
    return true;
  }
};

}  // namespace

Result<std::vector<Module>> parse_hlo(std::string_view text) {
  return HloParser(std::make_shared<const std::string>(text)).run();
}
Result<std::vector<Module>> parse_hlo_owned(std::string text) {
  return HloParser(std::make_shared<const std::string>(std::move(text))).run();
}

}  // namespace rl::hlo
