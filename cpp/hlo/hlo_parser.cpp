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
// Names are kept without their '%'. Operands printed without a shape take it from the
// computation's symbol table (defined before or after the use). A module without a header
// (text starting at ENTRY) is accepted with an empty name.
//
// Char-level and linear: every loop advances at least one byte, literals and attribute values
// are skipped by one balanced-bracket scan, nesting deeper than kMaxDepth is refused.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

#include "hlo/lexer.h"
#include "hlo/parse.h"

namespace rl::hlo {

namespace {

bool alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool name_char(char c) { return alnum(c) || c == '_' || c == '.' || c == '-' || c == '$'; }

constexpr std::size_t kMaxLiteralText = 120;  // constants keep the first characters of their literal
constexpr std::int64_t kMaxDim = std::int64_t(1) << 50;
constexpr std::size_t kMaxRank = 4096;

struct Pending {  // an operand printed without a shape: typed when the computation is complete
  std::size_t op, operand, offset;
};

// Opcodes whose omitted result shape is operand 0's (XLA infers shapes left out of the text).
bool same_shape_as_operand(std::string_view op) {
  static const char* const names[] = {
      "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2",
      "and", "or", "xor", "not", "negate", "abs", "sign", "floor", "ceil", "round-nearest-afz",
      "round-nearest-even", "exponential", "exponential-minus-one", "log", "log-plus-one",
      "logistic", "sqrt", "cbrt", "rsqrt", "tanh", "sine", "cosine", "tan", "erf", "copy",
      "shift-left", "shift-right-logical", "shift-right-arithmetic", "popcnt", "clz",
      "reduce-precision", "optimization-barrier", "opt-barrier"};
  for (const char* n : names)
    if (op == n) return true;
  return false;
}

class HloParser {
 public:
  explicit HloParser(std::string_view text) : lx_(text, true), s_(text), n_(text.size()) {}

  Result<std::vector<Module>> run() {
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
        cur = Module();
        cur.dialect = "hlo";
        cur.line = lx_.line_of(p_);
      }
      if (!parse_computation(cur)) break;
    }
    if (!failed_) flush();
    if (failed_) return Result<std::vector<Module>>::failure(error_);
    return Result<std::vector<Module>>::success(std::move(modules));
  }

 private:
  Lexer lx_;
  std::string_view s_;
  std::size_t n_;
  std::size_t p_ = 0;
  bool failed_ = false;
  std::string error_;

  // ---- errors and low-level scanning ------------------------------------------------------

  std::string got_at(std::size_t offset) {
    if (offset >= n_) return "end of input";
    lx_.set_pos(offset);
    return describe(lx_.peek());
  }

  bool fail(std::size_t offset, std::string_view what, std::string_view expected) {
    if (!failed_) {
      failed_ = true;
      error_ = format_error(lx_, std::min(offset, n_), what, expected, got_at(offset));
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
    return s_.compare(p_, w.size(), w) == 0 && (p_ + w.size() >= n_ || !name_char(s_[p_ + w.size()]));
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
    if (depth != 0) return fail(open_at, "unbalanced brackets in a value", "a closing bracket for this one");
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
    if (!at('=')) return fail(p_, "bad attribute " + std::string(name.substr(0, 40)), "'=' and a value");
    ++p_;
    ws();  // a value may start on the next line (backend_config=\n "...")
    std::size_t b = 0, e = 0;
    if (!scan_value(&b, &e)) return false;
    if (e <= b) return fail(p_, "missing value of attribute " + std::string(name.substr(0, 40)), "a value after '='");
    (void)at_name;
    out.push_back({std::string(name), std::string(s_.substr(b, e - b))});
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
      out.element_bytes = element_byte_size(element);
      if (out.element_bytes <= 0 || element.substr(0, 2) == "si" || element.substr(0, 2) == "ui" ||
          element[0] == 'i' || element == "index" || element == "tf32")
        return fail(start, "unknown element type '" + std::string(element.substr(0, 40)) + "'",
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
      if (out.dims.size() >= kMaxRank) return fail(p_, "shape rank is too large", "at most 4096 dimensions");
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
      if (!digit(s_.size() > p_ ? s_[p_] : '\0')) return fail(p_, "bad shape dimension", "a size such as 8, <=8 or ?");
      std::int64_t v = 0;
      const std::size_t db = p_;
      while (p_ < n_ && digit(s_[p_])) {
        if (v > kMaxDim) return fail(db, "shape dimension is too large", "at most 2^50");
        v = v * 10 + (s_[p_] - '0');
        ++p_;
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

  bool parse_header(Module& m) {
    m = Module();
    m.dialect = "hlo";
    m.line = lx_.line_of(p_);
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

  bool parse_computation(Module& m) {
    ws();
    Function f;
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
    f.name = std::string(name);
    ws();
    std::vector<Type> sig_types;
    std::vector<std::string> sig_names;
    Type sig_result;
    bool have_sig = false;
    if (at('(')) {
      have_sig = true;
      ++p_;
      ws();
      while (!at(')')) {
        std::string_view pn = read_name();
        if (pn.empty()) return fail(p_, "bad computation signature", "a parameter such as p: f32[2]");
        if (!expect(':', "bad computation signature", "':' and a shape after " + std::string(pn.substr(0, 40))))
          return false;
        Type t;
        if (!parse_shape(t)) return false;
        sig_names.emplace_back(pn);
        sig_types.push_back(std::move(t));
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
      if (!parse_shape(sig_result)) return false;
    }
    if (!expect('{', "bad computation " + f.name.substr(0, 40), "'{' and its instructions")) return false;
    f.body.blocks.emplace_back();
    Block& block = f.body.blocks.back();
    std::unordered_map<std::string, std::size_t> defined;  // instruction name → index in block.ops
    std::vector<Pending> pending;
    std::vector<std::size_t> inferred;  // per instruction: where it starts if its shape is left out
    std::size_t root = std::string_view::npos;
    while (true) {
      ws();
      if (at('}')) {
        ++p_;
        break;
      }
      if (p_ >= n_ || split_here() || word_here("HloModule") || word_here("ENTRY"))
        return fail(p_, "unterminated computation " + f.name.substr(0, 40), "'}'");
      bool is_root = false, infer = false;
      const std::size_t inst_at = p_;
      if (!parse_instruction(block, &is_root, &infer, defined, pending)) return false;
      inferred.push_back(infer ? inst_at : std::string_view::npos);
      if (is_root) {
        if (root != std::string_view::npos)
          return fail(inst_at, "two ROOT instructions in " + f.name.substr(0, 40), "one ROOT per computation");
        root = block.ops.size() - 1;
      }
    }
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
    // Operand types from the definitions, then left-out shapes, in instruction order.
    std::size_t next = 0;
    for (std::size_t i = 0; i < block.ops.size(); ++i) {
      Op& op = block.ops[i];
      for (; next < pending.size() && pending[next].op == i; ++next) {
        const Pending& u = pending[next];
        auto it = defined.find(op.operands[u.operand]);
        if (it == defined.end())
          return fail(u.offset, "operand " + op.operands[u.operand].substr(0, 40) + " is not defined in " + f.name.substr(0, 40),
                      "the name of an instruction of this computation");
        op.operand_types[u.operand] = block.ops[it->second].result_types[0];
      }
      if (inferred[i] != std::string_view::npos && !infer_shape(op, inferred[i])) return false;
    }
    if (block.ops.empty()) return fail(p_ - 1, "computation " + f.name.substr(0, 40) + " has no instructions", "at least a ROOT instruction");
    if (root == std::string_view::npos) root = block.ops.size() - 1;  // XLA: the last one
    block.ops[root].attributes.push_back({"is_root", "true"});
    // Arguments: the parameter instructions by number (the signature if there are none).
    std::vector<std::pair<std::int64_t, std::size_t>> params;
    for (std::size_t i = 0; i < block.ops.size(); ++i)
      if (block.ops[i].name == "parameter") {
        const Attribute* a = block.ops[i].attr("parameter_number");
        params.emplace_back(a ? std::stoll(a->value) : 0, i);
      }
    std::sort(params.begin(), params.end());
    for (std::size_t k = 0; k < params.size(); ++k) {
      const Op& p = block.ops[params[k].second];
      if (k > 0 && params[k].first == params[k - 1].first) {
        failed_ = true;
        error_ = std::to_string(p.line) + ":" + std::to_string(p.column) + ": error: parameter " +
                 std::to_string(params[k].first) + " defined twice in " + f.name.substr(0, 40) +
                 " \xE2\x80\x94 expected one parameter instruction per number, got a second parameter(" +
                 std::to_string(params[k].first) + ")";
        return false;
      }
      f.arg_names.push_back(p.results[0]);
      f.arg_types.push_back(p.result_types[0]);
    }
    if (params.empty() && have_sig) {
      f.arg_names = std::move(sig_names);
      f.arg_types = std::move(sig_types);
    }
    f.result_types.push_back(block.ops[root].result_types[0]);
    if (m.find(f.name))
      return fail(start, "computation " + f.name.substr(0, 40) + " defined twice", "unique computation names");
    if (f.is_entry && m.entry())
      return fail(start, "a second ENTRY computation " + f.name.substr(0, 40), "one ENTRY per module");
    m.functions.push_back(std::move(f));
    return true;
  }

  bool parse_instruction(Block& block, bool* is_root, bool* infer,
                         std::unordered_map<std::string, std::size_t>& defined, std::vector<Pending>& pending) {
    const std::size_t start = p_;
    Op op;
    op.line = lx_.line_of(start);
    op.column = lx_.column_of(start);
    if (word_here("ROOT")) {
      *is_root = true;
      p_ += 4;
      ws();
    }
    const std::size_t name_at = p_;
    std::string_view name = read_name();
    if (name.empty()) return fail(p_, "bad instruction", "a name such as %add.1 = f32[2] add(a, b), or '}'");
    if (!expect('=', "bad instruction " + std::string(name.substr(0, 40)), "'=' after the instruction name"))
      return false;
    Type shape;
    ws();
    std::size_t q = p_;
    while (q < n_ && alnum(s_[q])) ++q;
    const bool has_shape = at('(') || (q < n_ && s_[q] == '[');
    if (has_shape && !parse_shape(shape)) return false;
    if (!has_shape) *infer = true;  // `ROOT out = add(x, y)`: typed when the computation is done
    ws();
    q = p_;
    while (q < n_ && (alnum(s_[q]) || s_[q] == '-' || s_[q] == '_')) ++q;
    if (q == p_ || !alpha(s_[p_])) return fail(p_, "bad instruction " + std::string(name.substr(0, 40)), "an opcode such as add");
    op.name = std::string(s_.substr(p_, q - p_));
    p_ = q;
    ws();
    if (!at('(')) return fail(p_, "bad instruction " + std::string(name.substr(0, 40)), "'(' and the operands of " + op.name);
    if (op.name == "constant") {
      std::size_t b = 0, e = 0;
      if (!skip_group(&b, &e)) return false;
      std::string_view lit = s_.substr(b, e - b);
      while (!lit.empty() && std::isspace(static_cast<unsigned char>(lit.front()))) lit.remove_prefix(1);
      while (!lit.empty() && std::isspace(static_cast<unsigned char>(lit.back()))) lit.remove_suffix(1);
      std::string text(lit.substr(0, kMaxLiteralText));
      if (lit.size() > kMaxLiteralText) text += "...";
      op.attributes.push_back({"literal", std::move(text)});
    } else if (op.name == "parameter") {
      ++p_;
      ws();
      const std::size_t nb = p_;
      while (p_ < n_ && digit(s_[p_]) && p_ - nb < 9) ++p_;
      if (p_ == nb) return fail(p_, "bad parameter", "a parameter number such as parameter(0)");
      op.attributes.push_back({"parameter_number", std::string(s_.substr(nb, p_ - nb))});
      if (!expect(')', "bad parameter", "')' after the parameter number")) return false;
    } else {
      ++p_;
      ws();
      while (!at(')')) {
        Type t;
        bool typed = false;
        std::size_t r = p_;
        while (r < n_ && alnum(s_[r])) ++r;
        if (at('(') || (r > p_ && r < n_ && s_[r] == '[' && alpha(s_[p_]))) {
          if (!parse_shape(t)) return false;
          typed = true;
          ws();
        }
        const std::size_t at_operand = p_;
        std::string_view on = read_name();
        if (on.empty()) return fail(p_, "bad operand of " + op.name, "an operand such as %x or f32[2] %x");
        op.operands.emplace_back(on);
        op.operand_types.push_back(std::move(t));
        if (!typed) pending.push_back({block.ops.size(), op.operands.size() - 1, at_operand});
        ws();
        if (at(',')) {
          ++p_;
          ws();
          continue;
        }
        if (!at(')')) return fail(p_, "bad operand list of " + op.name, "',' or ')'");
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
      if (!parse_attr(op.attributes)) return false;
    }
    op.results.emplace_back(name);
    op.result_types.push_back(std::move(shape));
    if (!defined.emplace(op.results[0], block.ops.size()).second)
      return fail(name_at, "instruction " + std::string(name.substr(0, 40)) + " defined twice",
                  "unique instruction names in a computation");
    block.ops.push_back(std::move(op));
    return true;
  }

  // The result shape of an instruction printed without one: get-tuple-element's element,
  // compare's pred, select's operand 1, operand 0's for elementwise ops.
  bool infer_shape(Op& op, std::size_t offset) {
    Type& out = op.result_types[0];
    if (op.name == "get-tuple-element" && !op.operand_types.empty()) {
      const Type& t = op.operand_types[0];
      const Attribute* a = op.attr("index");
      std::size_t index = t.tuple.size();
      if (a && !a->value.empty() && a->value.size() < 9 &&
          std::all_of(a->value.begin(), a->value.end(), [](char c) { return digit(c); }))
        index = static_cast<std::size_t>(std::stoul(a->value));
      if (t.kind != Type::Kind::Tuple || index >= t.tuple.size())
        return fail(offset, "get-tuple-element index out of range", "index=N below the tuple size of the operand");
      out = t.tuple[index];
      return true;
    }
    if (op.name == "compare" && !op.operand_types.empty() && op.operand_types[0].is_array()) {
      out = op.operand_types[0];
      out.element = "pred";
      out.element_bytes = 1;
      out.text = to_string(Type{out.kind, true, out.dims, "pred", 1, {}, ""}, "hlo");
      return true;
    }
    if (op.name == "select" && op.operand_types.size() == 3) {
      out = op.operand_types[1];
      return true;
    }
    if (same_shape_as_operand(op.name) && !op.operand_types.empty()) {
      out = op.operand_types[0];
      return true;
    }
    return fail(offset, "the shape of " + op.name.substr(0, 40) + " cannot be inferred", "a shape before the opcode");
  }

  bool finish_module(Module& m) {
    if (m.functions.empty()) {
      return fail(p_ >= n_ ? n_ : p_, "HloModule " + m.name.substr(0, 40) + " has no computations",
                  "a computation such as ENTRY main { ... }");
    }
    if (!m.entry()) m.functions.back().is_entry = true;  // XLA: the last computation
    return true;
  }
};

}  // namespace

Result<std::vector<Module>> parse_hlo(std::string_view text) { return HloParser(text).run(); }

}  // namespace rl::hlo
