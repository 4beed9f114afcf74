// The notebook evaluator: Python's statements and values on the host (python/notebook.h).
//
// A tree walk over python/ast.h. An exception is a pending value (`exc`) and a null result that
// every caller passes up; the traceback is the call stack at the raise. Each expression and
// statement evaluated is a step against the budget.
#include "python/notebook.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

#include "common/numbers.h"
#include "common/utf8.h"
#include "hlo/cost.h"
#include "hlo/lower.h"
#include "hlo/parse.h"
#include "interp/interp.h"
#include "python/bigint.h"
#include "python/bind.h"
#include "python/float_repr.h"
#include "python/ndarray.h"
#include "python/notebook_value.h"
#include "python/nprandom.h"
#include "python/parser.h"
#include "python/pynum.h"
#include "python/traced.h"
#include "python/tracer.h"

namespace rl::python {

namespace nb {

struct CompiledModule {
  std::vector<hlo::Module> modules;
  std::unique_ptr<hlo::Program> program;
};

}  // namespace nb

namespace {

using namespace nb;  // NOLINT

// Reference cycles (d['k'] = (d,), a function that names itself inside another): values are
// reference counted, and Python's cycle collector has no twin here. Instead every object that can
// hold others is listed, weakly, with the machine running when it was made; when that machine
// ends (a run's end, a session's reset or release) each one still alive is emptied, which frees
// every cycle. (In a session an unreachable cycle lives until then.)
// (A weak reference keeps a made_shared object's memory, not its contents: the list drops the
// freed ones each time it has doubled, so it stays within twice the live ones and 4096.)
struct Holders {
  std::vector<std::weak_ptr<Obj>> list;
  std::size_t compact_at = 4096;
  void add(const std::shared_ptr<Obj>& o) {
    if (list.size() >= compact_at) {
      list.erase(std::remove_if(list.begin(), list.end(),
                                [](const std::weak_ptr<Obj>& w) { return w.expired(); }),
                 list.end());
      compact_at = 2 * list.size() + 4096;
    }
    list.push_back(o);
  }
};
thread_local Holders* t_holders = nullptr;

bool can_hold(T t) {
  switch (t) {
    case T::List:
    case T::Tuple:
    case T::Dict:
    case T::Set:
    case T::Func:
    case T::Method:
    case T::Exc:
    case T::Jitted:
    case T::Iter:
      return true;
    default:
      return false;
  }
}

V mk(T t) {
  auto o = std::make_shared<Obj>();
  o->t = t;
  if (t_holders && can_hold(t)) t_holders->add(o);
  return o;
}
V none_v() {
  static V n = mk(T::None);
  return n;
}
V mk_bool(bool b) {
  auto o = mk(T::Bool);
  o->b = b;
  return o;
}
V mk_int(std::int64_t i) {
  auto o = mk(T::Int);
  o->i = i;
  return o;
}
V mk_float(double f) {
  auto o = mk(T::Float);
  o->f = f;
  return o;
}
V mk_str(std::string s) {
  auto o = mk(T::Str);
  o->s = std::move(s);
  return o;
}
V mk_seq(T t, std::vector<V> items) {
  auto o = mk(t);
  o->items = std::move(items);
  return o;
}
V mk_named(T t, std::string s) {
  auto o = mk(t);
  o->s = std::move(s);
  return o;
}
V mk_array(NdArray a) {
  auto o = mk(T::Array);
  a.weak = false;
  o->arr = std::move(a);
  return o;
}

// The dtypes the notebook models, by NumPy's attribute names (np.float32, jnp.bool_): one
// table for attributes and dtype strings (a plain array: a static std::map's initializer is code).
bool numpy_dtype_named(const std::string& name, DType* out) {
  static constexpr struct {
    const char* name;
    DType t;
  } kDtypes[] = {{"float32", DType::Float32}, {"float64", DType::Float64},
                 {"int32", DType::Int32},     {"int64", DType::Int64},
                 {"bool_", DType::Bool},      {"float_", DType::Float64},
                 {"int_", DType::Int64}};
  for (auto& d : kDtypes)
    if (name == d.name) {
      *out = d.t;
      return true;
    }
  return false;
}

bool is_num(const V& v) { return v->t == T::Bool || v->t == T::Int || v->t == T::Float; }
// A NumPy scalar (np.float32(1.5), a reduction's result): a 0-d host array but a 0-d ndarray.
bool np_scalar(const V& v) {
  return v->t == T::Array && v->arr.dims.empty() && !v->arr.jax && !v->b;
}
// A NumPy integer scalar (np.int64(3), an int array's sum): an integer wherever Python asks for
// one (its __index__: range, indexing, slices, repetition).
bool np_int_scalar(const V& v) {
  return np_scalar(v) && !v->arr.is_float() && v->arr.dt != DType::Bool;
}
bool is_intlike(const V& v) { return v->t == T::Bool || v->t == T::Int || np_int_scalar(v); }
std::int64_t int_of(const V& v) {
  return v->t == T::Bool ? (v->b ? 1 : 0) : np_int_scalar(v) ? v->arr.i[0] : v->i;
}
bool is_big(const V& v) { return v->t == T::Int && v->big != nullptr; }
// UTF-8 text by code points (printf-style formatting pads and cuts characters, not bytes).
bool utf8_lead(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }
std::size_t utf8_length(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), utf8_lead));
}
std::string utf8_prefix(const std::string& s, std::size_t chars) {
  std::size_t k = 0, seen = 0;
  for (; k < s.size(); ++k)
    if (utf8_lead(s[k]) && seen++ == chars) break;
  return s.substr(0, k);
}
// ascii(): a repr with every non-ASCII character escaped (\xNN, \uNNNN, \UNNNNNNNN).
std::string ascii_escaped(const std::string& s) {
  std::string r;
  for (std::size_t k = 0; k < s.size();) {
    const auto c = static_cast<unsigned char>(s[k]);
    if (c < 0x80) {
      r += s[k++];
      continue;
    }
    const int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    std::uint32_t cp = c & (len == 4 ? 0x07 : len == 3 ? 0x0F : 0x1F);
    for (int j = 1; j < len && k + static_cast<std::size_t>(j) < s.size(); ++j)
      cp = (cp << 6) | (static_cast<unsigned char>(s[k + static_cast<std::size_t>(j)]) & 0x3F);
    k += static_cast<std::size_t>(len);
    char buf[16];
    std::snprintf(buf, sizeof buf,
                  cp < 0x100     ? "\\x%02x"
                  : cp < 0x10000 ? "\\u%04x"
                                 : "\\U%08x",
                  cp);
    r += buf;
  }
  return r;
}
BigInt big_of(const V& v) { return is_big(v) ? *v->big : BigInt::of(int_of(v)); }
double num_of(const V& v) {
  return v->t == T::Float ? v->f : is_big(v) ? v->big->to_double() : static_cast<double>(int_of(v));
}
// A bool, int or float for python/pynum.h (as a float when the other operand is one: a big int
// then as its nearest double).
PyNum py_num(const V& v, bool as_float) {
  PyNum n;
  n.is_float = as_float;
  n.f = as_float ? num_of(v) : 0;
  n.i = as_float ? 0 : int_of(v);
  n.is_bool = v->t == T::Bool;
  return n;
}

const char* kExcTypes[] = {"Exception",      "ValueError",       "TypeError",
                           "AssertionError", "RuntimeError",     "ZeroDivisionError",
                           "NameError",      "IndexError",       "KeyError",
                           "AttributeError", "OverflowError",    "NotImplementedError",
                           "StopIteration",  "ArithmeticError",  "LookupError",
                           "RecursionError", "UnboundLocalError"};
// An exception type's base ("IndexError" → "LookupError"), for except clauses.
std::string exc_base(const std::string& t) {
  if (t == "ZeroDivisionError" || t == "OverflowError") return "ArithmeticError";
  if (t == "IndexError" || t == "KeyError") return "LookupError";
  if (t == "RecursionError" || t == "NotImplementedError") return "RuntimeError";
  if (t == "UnboundLocalError") return "NameError";
  // JAX's errors about tracers are TypeErrors (jax.errors: JAXTypeError, ConcretizationTypeError).
  if (t == "TracerBoolConversionError" || t == "TracerArrayConversionError" ||
      t == "UnexpectedTracerError" || t == "ConcretizationTypeError")
    return "TypeError";
  // NumPy's casting error of an in-place operator (numpy.core._exceptions, shown by this name).
  if (t == "UFuncTypeError") return "TypeError";
  if (t == "Exception" || t == "BaseException") return "BaseException";
  return "Exception";
}
bool exc_matches(const std::string& t, const std::string& handler) {
  for (std::string c = t;; c = exc_base(c)) {
    if (c == handler) return true;
    if (c == "BaseException") return false;
  }
}

// The builtins that are classes (type(x) gives one): printed <class '...'>.
bool is_class_name(const std::string& s) {
  static const char* const kClasses[] = {"int",      "float",  "str",       "bool",      "list",
                                         "tuple",    "dict",   "set",       "range",     "NoneType",
                                         "function", "slice",  "generator", "enumerate", "zip",
                                         "map",      "filter", "reversed",  "type"};
  for (const char* c : kClasses)
    if (s == c) return true;
  const bool iterator = s.size() > 8 && s.compare(s.size() - 8, 8, "iterator") == 0;  // iter()'s
  return iterator || s.rfind("numpy.", 0) == 0 || s.rfind("jaxlib.", 0) == 0;
}

// A dtype's name: NumPy's, or JAX's for one only a traced array has (`mlir` set: "bf16").
std::string dtype_text(DType dt, const std::string& mlir) {
  return mlir.empty() ? dtype_name(dt) : tr::dtype_name(mlir);
}
std::string dtype_text(const V& d) { return dtype_text(d->dt, d->s); }
// A scalar type's qualified name: numpy.float32, numpy.bool_, jax.numpy.bfloat16.
std::string scalar_type_name(const V& d) {
  const std::string name = d->s.empty() && d->dt == DType::Bool ? "bool_" : dtype_text(d);
  return (d->b ? "jax.numpy." : "numpy.") + name;
}
// A host dtype's MLIR name ("f32"), and back (false: a dtype only traced arrays have).
const char* mlir_dtype(DType t) {
  switch (t) {
    case DType::Float32:
      return "f32";
    case DType::Float64:
      return "f64";
    case DType::Int32:
      return "i32";
    case DType::Int64:
      return "i64";
    case DType::Bool:
      return "i1";
  }
  return "i1";
}
bool host_dtype(const std::string& mlir, DType* out) {
  for (DType t : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Bool})
    if (mlir == mlir_dtype(t)) {
      *out = t;
      return true;
    }
  return false;
}

std::string type_name(const V& v) {
  switch (v->t) {
    case T::None:
      return "NoneType";
    case T::Bool:
      return "bool";
    case T::Int:
      return "int";
    case T::Float:
      return "float";
    case T::Str:
      return "str";
    case T::List:
      return "list";
    case T::Tuple:
      return "tuple";
    case T::Dict:
      return "dict";
    case T::Set:
      return "set";
    case T::Range:
      return "range";
    case T::Slice:
      return "slice";
    case T::Func:
      return "function";
    case T::Builtin:
      return "builtin_function_or_method";
    case T::Method:
      return v->s == "at" ? "_IndexUpdateHelper" : v->s == "at[]" ? "_IndexUpdateRef" : "method";
    case T::Module:
      return "module";
    case T::DType:
      return v->i == 1 ? "type" : "numpy.dtype[" + dtype_text(v) + "]";
    case T::Array:
      if (v->arr.jax) return "ArrayImpl";
      return "numpy.ndarray";
    case T::ExcType:
      return "type";
    case T::Exc:
      return v->s;
    case T::Jitted:
      return "PjitFunction";
    case T::Lowered:
      return "Lowered";
    case T::IR:
      return "Module";
    case T::Compiled:
      return "Compiled";
    case T::Ellipsis:
      return "ellipsis";
    case T::Traced:
      return "DynamicJaxprTracer";
    case T::SDS:
      return "ShapeDtypeStruct";
    case T::Iter:
      return v->s;
  }
  return "object";
}

std::string str_repr(const std::string& s) {
  const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char c : s) {
    if (c == static_cast<unsigned char>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + q;
}

struct Frame {
  std::string name;  // "<module>", the function's name
  int line = 0;
  int file = 0;  // the source (one run's, or a session's cell) the line is in: Machine::files_
};

// One source the machine has run: a whole program, or one cell of a session.
struct SourceFile {
  std::string name;  // as the traceback names it: "<notebook>", "<cell 2>"
  std::vector<std::string> lines;
};

enum class Flow { Next, Return, Break, Continue, Raise };

struct Args {
  std::vector<V> pos;
  std::vector<std::pair<std::string, V>> kw;
  V get(std::size_t i, const std::string& name) const {
    if (i < pos.size()) return pos[i];
    for (auto& [k, v] : kw)
      if (k == name) return v;
    return nullptr;
  }
};

class Machine {
 public:
  explicit Machine(const NotebookOptions& options) : options_(options) {
    globals_ = std::make_shared<Scope>();
  }
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
  // Empties every object this machine made that is still alive (t_holders): the cycles among
  // them are freed, and, as all are held until all are emptied, nothing is freed recursively.
  ~Machine() {
    std::vector<V> alive;
    for (auto& w : holders_.list)
      if (V o = w.lock()) alive.push_back(std::move(o));
    holders_.list.clear();
    globals_.reset();
    for (const V& o : alive) {
      o->items.clear();
      o->vals.clear();
      o->defaults.clear();
      o->self.reset();
      o->closure.reset();
    }
  }

  // Runs `prog` (parsed from `source`) in this machine's globals, its lines named `filename` in
  // tracebacks. Each run has its own step budget, output and pending exception; the globals (and
  // the functions defined) stay.
  NotebookResult run(const Program& prog, const std::string& source, const std::string& filename,
                     bool display_last = false) {
    set_enable_x64(x64_);  // this machine's jax_enable_x64 (another session's may be set)
    SourceFile f;
    f.name = filename;
    std::size_t start = 0;
    while (start <= source.size()) {
      const auto nl = source.find('\n', start);
      f.lines.push_back(
          source.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    files_.push_back(std::move(f));
    file_ = static_cast<int>(files_.size()) - 1;
    // Objects made from here on are listed with this machine (the cycles' teardown above).
    struct Listing {
      Holders* saved;
      ~Listing() { t_holders = saved; }
    } listing{t_holders};
    t_holders = &holders_;
    out_.clear();
    lowered_.clear();
    exc_ = nullptr;
    exc_tb_.clear();
    ret_ = nullptr;
    handling_.clear();
    steps_ = 0;
    depth_ = 0;
    fatal_ = false;
    scope_ = nullptr;
    stack_.assign(1, Frame{"<module>", 0, file_});
    // A cell's last expression is shown as Jupyter shows it, unless a ';' ends the cell.
    const auto last_char = source.find_last_not_of(" \t\r\n");
    const bool show = display_last && !prog.body.empty() && prog.body.back()->kind == SK::Expr &&
                      !(last_char != std::string::npos && source[last_char] == ';');
    shown_ = show ? prog.body.back().get() : nullptr;
    shown_value_ = nullptr;
    for (auto& s : prog.body) {
      const Flow fl = exec(*s);
      if (fl == Flow::Raise) break;
    }
    NotebookResult r;
    if (!exc_ && shown_value_ && shown_value_->t != T::None) r.display = display_text(shown_value_);
    shown_ = nullptr;
    shown_value_ = nullptr;
    r.stdout_text = std::move(out_);
    r.lowered = std::move(lowered_);
    lowered_.clear();
    out_.clear();
    if (exc_) {
      std::string tb = "Traceback (most recent call last):\n";
      // A run of one frame (same file, line and function) past three is folded into one line,
      // as CPython's traceback does (traceback.py's _RECURSIVE_CUTOFF).
      constexpr int kCutoff = 3;
      int same = 0;
      const auto repeated = [&]() {
        if (same <= kCutoff) return;
        const int more = same - kCutoff;
        tb += "  [Previous line repeated " + std::to_string(more) + " more time" +
              (more > 1 ? "s" : "") + "]\n";
      };
      for (std::size_t k = 0; k < exc_tb_.size(); ++k) {
        const auto& fr = exc_tb_[k];
        if (k > 0 && fr.file == exc_tb_[k - 1].file && fr.line == exc_tb_[k - 1].line &&
            fr.name == exc_tb_[k - 1].name) {
          if (++same > kCutoff) continue;
        } else {
          repeated();
          same = 1;
        }
        const SourceFile& sf = files_[static_cast<std::size_t>(fr.file)];
        tb += "  File \"" + sf.name + "\", line " + std::to_string(fr.line) + ", in " + fr.name +
              "\n";
        if (fr.line >= 1 && static_cast<std::size_t>(fr.line) <= sf.lines.size()) {
          std::string l = sf.lines[static_cast<std::size_t>(fr.line - 1)];
          const auto b = l.find_first_not_of(" \t");
          const auto e = l.find_last_not_of(" \t\r");
          if (b != std::string::npos) tb += "    " + l.substr(b, e - b + 1) + "\n";
        }
      }
      repeated();
      const std::string msg = exc_->text;
      r.exception = exc_->s + (msg.empty() ? "" : ": " + msg);
      tb += r.exception + "\n";
      r.error = tb;
      r.error_type = exc_->s;
      r.line = exc_tb_.empty() ? 0 : exc_tb_.back().line;
      r.file =
          exc_tb_.empty() ? filename : files_[static_cast<std::size_t>(exc_tb_.back().file)].name;
      r.source_line = exc_tb_.empty() ? 0 : exc_tb_.front().line;
      last_exc_ = exc_;
      exc_ = nullptr;
      exc_tb_.clear();
    }
    handling_.clear();
    ret_ = nullptr;
    return r;
  }

  // A lowering run (lower_source): print writes nothing, a jitted function is lowered, never
  // called, jnp's constructors at the top level make abstract arrays (no data: any shape), and the
  // run stops once the entry (the first .lower() call, or the first on the function named
  // `entry`) is lowered.
  void begin_lowering(const std::string& entry) {
    lowering_ = std::make_unique<Lowering>();
    lowering_->entry = entry;
    trace_ = &lowering_->top;
    trace_id_ = 0;
  }
  const Lowered* lowered() const {
    return lowering_ && lowering_->done ? &lowering_->result : nullptr;
  }
  // The last run's uncaught exception, and where it was raised.
  const V& last_exception() const { return last_exc_; }
  int exception_line() const { return exc_line_; }
  int exception_column() const { return exc_col_; }

 private:
  bool x64_ = false;  // jax_enable_x64, as the program set it (jax.config.update)
  // Values whose identity keys the running trace's caches, kept alive until the outermost trace
  // ends: jitted functions called in it (traced_jitted), host arrays baked into it (to_tr).
  std::vector<V> jitted_alive_;
  // The most elements of a host array baked into a traced function as a constant (512 × 512).
  static constexpr std::int64_t kMaxBakedElements = std::int64_t(1) << 18;
  std::map<std::string, V> dtype_classes_;  // np.float32, jnp.int32, ...: one object each
  struct Lowering {
    std::string entry;
    bool done = false;
    Lowered result;
    tr::Session top;  // the top level's abstract arrays
  };
  std::unique_ptr<Lowering> lowering_;
  V last_exc_;
  NotebookOptions options_;
  std::vector<SourceFile> files_;  // every source run, in order (functions point into them)
  int file_ = 0;                   // the one running now
  const Stmt* shown_ = nullptr;    // a kernel cell's last statement, an expression to show (run())
  V shown_value_;                  // ... its value once it ran
  std::shared_ptr<Scope> globals_;
  Holders holders_;               // what this machine made that can hold other objects (~Machine)
  std::shared_ptr<Scope> scope_;  // the current function's locals (null at module level)
  std::vector<Frame> stack_;
  std::string out_;
  std::vector<std::string> lowered_;  // the modules this run lowered (NotebookResult::lowered)
  V exc_;                             // the pending exception
  std::vector<Frame> exc_tb_;
  int at_line_ = 0, at_col_ = 0;    // the expression being evaluated (at)
  int exc_line_ = 0, exc_col_ = 0;  // where the pending exception was raised
  V ret_;                           // a return's value
  std::vector<V> handling_;  // the exceptions whose except clauses are running (a bare raise)
  std::int64_t steps_ = 0;
  // np.random's global RandomState (legacy MT19937): seeded on first use from the clock, when the
  // host gave one (NumPy seeds it from the OS's entropy), else with 0.
  LegacyRandom np_random_;
  bool np_random_seeded_ = false;
  int depth_ = 0;       // nested expressions and statements being evaluated
  bool fatal_ = false;  // a limit was hit: no except clause catches it

  // ---- exceptions ----
  std::nullptr_t raise(const std::string& type, const std::string& msg) {
    auto e = mk_named(T::Exc, type);
    e->text = msg;
    e->items = {mk_str(msg)};
    return raise_value(e);
  }
  // KeyError(key): its args hold the key, str() is the key's repr.
  std::nullptr_t raise_key(const V& key) {
    auto e = mk_named(T::Exc, "KeyError");
    e->text = repr(key);
    e->items = {key};
    return raise_value(e);
  }
  std::nullptr_t raise_value(const V& e) {
    exc_ = e;
    exc_tb_ = stack_;
    exc_line_ = at_line_, exc_col_ = at_col_;
    return nullptr;
  }
  // The expression (or statement) being evaluated: where an exception raised now points, as a
  // lowering run's error gives it (LINE:COL). An operation's own place is its expression's start,
  // set again once its operands are evaluated.
  void at(const Expr& e) { at_line_ = e.line, at_col_ = e.column; }
  std::nullptr_t fatal(const std::string& type, const std::string& msg) {
    raise(type, msg);
    fatal_ = true;
    return nullptr;
  }
  bool step() {
    if (++steps_ > options_.max_steps) {
      fatal("RuntimeError", "the program ran past its step budget of " +
                                std::to_string(options_.max_steps) +
                                " evaluation steps (an endless loop?); it was stopped");
      return false;
    }
    return true;
  }
  struct Depth {
    Machine& m;
    bool ok;
    explicit Depth(Machine& mm) : m(mm), ok(++mm.depth_ <= 2000) {
      if (!ok)
        mm.fatal(
            "RecursionError",
            "maximum recursion depth exceeded (expressions and calls nested past 2000 levels)");
    }
    ~Depth() { --m.depth_; }
  };

  // ---- names ----
  V lookup(const std::string& n) {
    for (Scope* s = scope_.get(); s; s = s->parent.get()) {
      auto it = s->vars.find(n);
      if (it != s->vars.end()) return it->second;
    }
    auto it = globals_->vars.find(n);
    if (it != globals_->vars.end()) return it->second;
    if (V b = builtin_name(n)) return b;
    return raise("NameError", "name '" + n + "' is not defined");
  }
  Scope& current() { return scope_ ? *scope_ : *globals_; }

  // The one Ellipsis (`...`, the builtin name Ellipsis).
  static V ellipsis_v() {
    static const V ellipsis = [] {
      auto o = std::make_shared<Obj>();
      o->t = T::Ellipsis;
      return o;
    }();
    return ellipsis;
  }
  V builtin_name(const std::string& n) {
    if (n == "Ellipsis") return ellipsis_v();
    static const char* fns[] = {
        "print",  "len",       "range", "min",     "max",      "sum",  "abs",      "round",
        "sorted", "enumerate", "zip",   "int",     "float",    "str",  "repr",     "isinstance",
        "list",   "dict",      "tuple", "bool",    "reversed", "any",  "all",      "divmod",
        "pow",    "type",      "map",   "filter",  "set",      "hash", "callable", "format",
        "slice",  "iter",      "next",  "hasattr", "getattr",  "ascii"};
    for (const char* f : fns)
      if (n == f) return mk_named(T::Builtin, n);
    for (const char* e : kExcTypes)
      if (n == e) return mk_named(T::ExcType, n);
    if (n == "BaseException") return mk_named(T::ExcType, n);
    return nullptr;
  }

  // ---- repr / str ----
  // A cell's last value as Jupyter shows it (IPython's pretty printer): a class by its qualified
  // name (int, numpy.float32), a function with its module and signature
  // (<function __main__.f(x, y=2, *args, z=3, **kw)>); anything else its repr.
  std::string display_text(const V& v) {
    if (v->t == T::DType && v->i == 1) return scalar_type_name(v);
    if (v->t == T::ExcType || (v->t == T::Builtin && is_class_name(v->s))) return v->s;
    if (v->t == T::Func && (v->def || v->lambda)) {
      const bool is_lambda = v->lambda != nullptr;
      const std::vector<Param>& params = is_lambda ? v->lambda->params : v->def->params;
      std::string sig;
      bool star = false;
      for (std::size_t k = 0; k < params.size(); ++k) {
        const Param& p = params[k];
        if (!sig.empty()) sig += ", ";
        if (p.kind == ParamKind::KeywordOnly && !star) {
          sig += "*, ";
          star = true;
        }
        if (p.kind == ParamKind::VarArgs) {
          sig += "*";
          star = true;
        }
        if (p.kind == ParamKind::VarKeywords) sig += "**";
        sig += p.name;
        if (k < v->defaults.size() && v->defaults[k]) sig += "=" + repr(v->defaults[k]);
      }
      return "<function __main__." + std::string(is_lambda ? "<lambda>" : v->def->s) + "(" + sig +
             ")>";
    }
    return repr(v);
  }
  std::string repr(const V& v, int depth = 0) {
    if (depth > 100) return "...";
    switch (v->t) {
      case T::None:
        return "None";
      case T::Bool:
        return v->b ? "True" : "False";
      case T::Int:
        if (is_big(v)) {
          std::string d = v->big->to_decimal();
          if (d.size() - (v->big->neg ? 1 : 0) > static_cast<std::size_t>(kNotebookMaxIntDigits)) {
            raise("ValueError",
                  "Exceeds the limit (4300 digits) for integer string conversion; use "
                  "sys.set_int_max_str_digits() to increase the limit");
            return "<int too large to print>";
          }
          return d;
        }
        return std::to_string(v->i);
      case T::Float:
        return float_repr(v->f);
      case T::Str:
        return str_repr(v->s);
      case T::List:
      case T::Tuple: {
        std::string s = v->t == T::List ? "[" : "(";
        for (std::size_t k = 0; k < v->items.size(); ++k)
          s += (k ? ", " : "") + repr(v->items[k], depth + 1);
        if (v->t == T::Tuple && v->items.size() == 1) s += ",";
        return s + (v->t == T::List ? "]" : ")");
      }
      case T::Dict: {
        std::string s = "{";
        for (std::size_t k = 0; k < v->items.size(); ++k)
          s += (k ? ", " : "") + repr(v->items[k], depth + 1) + ": " + repr(v->vals[k], depth + 1);
        return s + "}";
      }
      case T::Set: {
        if (v->used == 0) return "set()";
        std::string s = "{";
        bool first = true;
        for (auto& x : set_elements(v)) {
          s += (first ? "" : ", ") + repr(x, depth + 1);
          first = false;
        }
        return s + "}";
      }
      case T::Range: {
        std::string s =
            "range(" + std::to_string(v->items[0]->i) + ", " + std::to_string(v->items[1]->i);
        if (v->items[2]->i != 1) s += ", " + std::to_string(v->items[2]->i);
        return s + ")";
      }
      case T::Slice:
        return "slice(" + repr(v->items[0]) + ", " + repr(v->items[1]) + ", " + repr(v->items[2]) +
               ")";
      case T::Func:
        return "<function " + (v->def ? v->def->s : std::string("<lambda>")) + ">";
      case T::Builtin:  // a class (what type() gives, int, float, ...) or a function
        return (is_class_name(v->s) ? "<class '" : "<built-in function ") + v->s +
               (is_class_name(v->s) ? "'>" : ">");
      case T::Method:
        if (v->s == "at" || v->s == "at[]") return "<" + type_name(v) + " object>";
        return "<bound method " + v->s + " of " + type_name(v->self) + " object>";
      case T::Module:
        return "<module '" + v->s + "'>";
      case T::DType:  // np.float32 is a class; x.dtype and np.dtype('float32') are dtypes
        return v->i == 1 ? "<class '" + scalar_type_name(v) + "'>"
                         : "dtype('" + dtype_text(v) + "')";
      case T::Array:  // a 0-d NumPy value is a NumPy scalar, as type() says: np.float32(1.5),
                      // but for a 0-d numpy.ndarray (Obj::b)
        return !v->arr.jax && v->arr.dims.empty() && !v->b ? element_repr(v->arr, 0)
                                                           : array_repr(v->arr);
      case T::ExcType:
        return "<class '" + v->s + "'>";
      case T::Exc: {
        std::string s = v->s + "(";
        for (std::size_t k = 0; k < v->items.size(); ++k)
          s += (k ? ", " : "") + repr(v->items[k], depth + 1);
        return s + ")";
      }
      case T::Jitted:
        return "<PjitFunction of " + repr(v->self) + ">";
      case T::Lowered:
        return "<jax.stages.Lowered object>";
      case T::IR:
        return v->text;
      case T::Compiled:
        return "<jax.stages.Compiled object>";
      case T::Ellipsis:
        return "Ellipsis";
      case T::Traced:
        return "Traced<" + traced_aval(v) + ">with<DynamicJaxprTrace>";  // JAX 0.9's form
      case T::SDS: {
        std::string shape = "(";
        for (std::size_t k = 0; k < v->items.size(); ++k)
          shape += (k ? ", " : "") + std::to_string(v->items[k]->i);
        shape += v->items.size() == 1 ? ",)" : ")";
        return "ShapeDtypeStruct(shape=" + shape + ", dtype=" + dtype_text(v->dt, v->s) + ")";
      }
      case T::Iter:
        return "<" + v->s + " object>";
    }
    return "?";
  }
  std::string str(const V& v) {
    if (v->t == T::Str) return v->s;
    if (v->t == T::Exc) return v->text;
    if (v->t == T::Array) return array_str(v->arr);
    if (v->t == T::DType) return v->i == 1 ? repr(v) : dtype_text(v);  // a class: as repr
    return repr(v);
  }

  // ---- truth and equality ----
  // -1: an exception
  int truth(const V& v) {
    switch (v->t) {
      case T::None:
        return 0;
      case T::Bool:
        return v->b;
      case T::Int:
        return v->i != 0;
      case T::Float:
        return v->f != 0;
      case T::Str:
        return !v->s.empty();
      case T::List:
      case T::Tuple:
      case T::Dict:
        return !v->items.empty();
      case T::Set:
        return v->used > 0;
      case T::Range:
        return range_len(v) > 0;
      case T::Traced:
        truth_error(v, false);
        return -1;
      case T::Array:
        if (v->arr.size() != 1) {
          raise("ValueError",
                "The truth value of an array with more than one element is ambiguous. Use a.any() "
                "or a.all()");
          return -1;
        }
        return v->arr.at(0) != 0;
      default:
        return 1;
    }
  }
  // In 128 bits: range(2**63 - 1), or a bound past int64 held as its nearest, does not overflow.
  static std::int64_t range_len(const V& r) {
    const __int128 a = r->items[0]->i, b = r->items[1]->i, s = r->items[2]->i;
    const __int128 n =
        s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / -s : 0);
    constexpr auto most = std::numeric_limits<std::int64_t>::max();
    return n > most ? most : static_cast<std::int64_t>(n);
  }
  // Python ==, for dict keys, `in`, list.index (arrays: their elementwise result's truth).
  bool equal(const V& a, const V& b, int depth = 0) {
    if (a == b) return !(a->t == T::Float && std::isnan(a->f));
    if (a->t == T::Traced || b->t == T::Traced) {  // bool(x == y): JAX refuses (exc_ is set)
      truth_error(a->t == T::Traced ? a : b, true);
      return false;
    }
    if (np_scalar(a) || np_scalar(b))  // a NumPy scalar is equal to the number it holds
      return equal(as_real(a), as_real(b), depth + 1);
    if (is_num(a) && is_num(b)) {
      if (is_big(a) || is_big(b)) {
        if (is_intlike(a) && is_intlike(b)) return rl::python::compare(big_of(a), big_of(b)) == 0;
        return num_of(a) == num_of(b);
      }
      if (is_intlike(a) && is_intlike(b)) return int_of(a) == int_of(b);
      return num_of(a) == num_of(b);
    }
    if (a->t != b->t) return false;
    switch (a->t) {
      case T::None:
        return true;
      case T::Str:
        return a->s == b->s;
      case T::List:
      case T::Tuple:
        if (a->items.size() != b->items.size() || depth > 100) return false;
        for (std::size_t k = 0; k < a->items.size(); ++k)
          if (!equal(a->items[k], b->items[k], depth + 1)) return false;
        return true;
      case T::Dict:
        if (a->items.size() != b->items.size() || depth > 100) return false;
        for (std::size_t k = 0; k < a->items.size(); ++k) {
          const int j = dict_find(b, a->items[k]);
          if (j < 0 || !equal(a->vals[k], b->vals[static_cast<std::size_t>(j)], depth + 1))
            return false;
        }
        return true;
      case T::Set:
        if (a->used != b->used || depth > 100) return false;
        for (auto& x : set_elements(a))
          if (set_find(b, x) < 0) return false;
        return true;
      case T::Builtin:
      case T::Module:
      case T::ExcType:
        return a->s == b->s;
      case T::DType:  // a traced-only dtype ("bf16") by its name alone
        return a->s.empty() && b->s.empty() ? a->dt == b->dt : a->s == b->s;
      default:
        return false;
    }
  }
  bool hashable(const V& k) {
    if (k->t == T::Traced) {
      raise("TypeError", "unhashable type: 'DynamicJaxprTracer'");
      return false;
    }
    if (k->t == T::List || k->t == T::Dict || (k->t == T::Array && !np_scalar(k)) ||
        k->t == T::Set) {
      raise("TypeError", "unhashable type: '" +
                             std::string(k->t == T::Array ? "numpy.ndarray" : type_name(k)) + "'");
      return false;
    }
    if (k->t == T::Tuple)
      for (auto& x : k->items)
        if (!hashable(x)) return false;
    return true;
  }
  int dict_find(const V& d, const V& key) {
    for (std::size_t k = 0; k < d->items.size(); ++k)
      if (equal(d->items[k], key)) return static_cast<int>(k);
    return -1;
  }
  bool dict_set(const V& d, const V& key, const V& val) {
    if (!hashable(key)) return false;
    const int j = dict_find(d, key);
    if (j >= 0) {
      d->vals[static_cast<std::size_t>(j)] = val;
    } else {
      d->items.push_back(key);
      d->vals.push_back(val);
    }
    return true;
  }

  // Whether CPython's compiler folds e to a constant (a literal, a sign on one, a tuple of them, an
  // operator on two of them): what decides how a set display is built.
  static bool constant_expr(const Expr& e, int depth = 0) {
    if (depth > 50) return false;
    switch (e.kind) {
      case EK::Int:
        return !e.overflow;
      case EK::Float:
      case EK::True:
      case EK::False:
      case EK::None:
      case EK::Ellipsis:
        return true;
      case EK::Str:
        return !e.fstring;
      case EK::Unary:
        return e.s != "not" && constant_expr(*e.kids[0], depth + 1);
      case EK::Tuple:
        for (auto& k : e.kids)
          if (k->kind == EK::Starred || !constant_expr(*k, depth + 1)) return false;
        return true;
      case EK::BinOp:
        return e.s != "@" && constant_expr(*e.kids[0], depth + 1) &&
               constant_expr(*e.kids[1], depth + 1);
      default:
        return false;
    }
  }

  // ---- sets: CPython's hash table (Objects/setobject.c: its probing, growth and merges), so a set
  // iterates and prints in the order CPython's does. Hashes are Python's for ints, bools, floats
  // and tuples of them; a str's is not CPython's (its is salted per process), so a set of strings
  // has an order of its own here, as it may in any CPython run.
  static constexpr std::uint64_t kHashModulus =
      (std::uint64_t(1) << 61) - 1;  // CPython's _PyHASH_MODULUS
  static const V& set_dummy() {
    static const V d = std::make_shared<Obj>();
    return d;
  }
  static std::int64_t hash_int64(std::int64_t v) {
    const std::uint64_t mag =
        v < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    std::int64_t r = static_cast<std::int64_t>(mag % kHashModulus);
    if (v < 0) r = -r;
    return r == -1 ? -2 : r;
  }
  static std::int64_t hash_double(double v) {  // CPython's _Py_HashDouble
    if (std::isinf(v)) return v > 0 ? 314159 : -314159;
    if (std::isnan(v)) return 0;
    int e = 0;
    double m = std::frexp(v, &e);
    int sign = 1;
    if (m < 0) {
      sign = -1;
      m = -m;
    }
    std::uint64_t x = 0;
    while (m != 0) {
      x = ((x << 28) & kHashModulus) | x >> (61 - 28);
      m *= 268435456.0;
      e -= 28;
      const auto y = static_cast<std::uint64_t>(m);
      m -= static_cast<double>(y);
      x += y;
      if (x >= kHashModulus) x -= kHashModulus;
    }
    e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
    x = ((x << e) & kHashModulus) | x >> (61 - e);
    std::int64_t r = static_cast<std::int64_t>(x) * sign;
    return r == -1 ? -2 : r;
  }
  // Python's hash(k) (false: k is unhashable, the TypeError raised).
  bool py_hash(const V& k, std::int64_t* h, int depth = 0) {
    if (depth > 100) {
      fatal("RecursionError", "maximum recursion depth exceeded while hashing");
      return false;
    }
    switch (k->t) {
      case T::None:
        *h = 0x4f5a1c3;
        return true;
      case T::Bool:
        *h = k->b ? 1 : 0;
        return true;
      case T::Int: {
        if (!is_big(k)) {
          *h = hash_int64(k->i);
          return true;
        }
        // |k| mod 2**61 - 1, word by word from the top (it had gone through the decimal text:
        // 8 ms for a 63,000-bit int).
        unsigned __int128 r = 0;
        const auto& mag = k->big->mag;
        for (std::size_t w = mag.size(); w-- > 0;) r = ((r << 32) + mag[w]) % kHashModulus;
        std::int64_t v = static_cast<std::int64_t>(r);
        if (k->big->neg) v = -v;
        *h = v == -1 ? -2 : v;
        return true;
      }
      case T::Float:
        *h = hash_double(k->f);
        return true;
      case T::Array:  // a NumPy scalar hashes as the number it holds; an array is unhashable
        return hashable(k) && py_hash(as_real(k), h, depth + 1);
      case T::Tuple: {  // CPython's tuplehash (xxHash's mixing)
        std::uint64_t acc = 2870177450012600261ULL;
        for (auto& x : k->items) {
          std::int64_t lane = 0;
          if (!py_hash(x, &lane, depth + 1)) return false;
          acc += static_cast<std::uint64_t>(lane) * 14029467366897019727ULL;
          acc = (acc << 31) | (acc >> 33);
          acc *= 11400714785074694791ULL;
        }
        acc += static_cast<std::uint64_t>(k->items.size()) ^ (2870177450012600261ULL ^ 3527539ULL);
        *h = acc == ~std::uint64_t(0) ? 1546275796 : static_cast<std::int64_t>(acc);
        return true;
      }
      case T::Str:
      case T::Builtin:
      case T::Module:
      case T::ExcType:
      case T::DType: {  // FNV-1a: not CPython's (salted) string hash
        std::uint64_t x = 14695981039346656037ULL;
        for (unsigned char c : (k->t == T::DType ? dtype_text(k) : k->s))
          x = (x ^ c) * 1099511628211ULL;
        std::int64_t r = static_cast<std::int64_t>(x >> 1);
        *h = r == -1 ? -2 : r;
        return true;
      }
      default:
        if (!hashable(k)) return false;
        *h = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(k.get()) >> 4);
        return true;
    }
  }
  V mk_set() {
    auto s = mk(T::Set);
    s->items.assign(8, nullptr);
    s->hashes.assign(8, 0);
    return s;
  }
  std::vector<V> set_elements(const V& s) {
    std::vector<V> out;
    out.reserve(static_cast<std::size_t>(s->used));
    for (auto& e : s->items)
      if (e && e != set_dummy()) out.push_back(e);
    return out;
  }
  static void set_insert_clean(std::vector<V>& tab, std::vector<std::uint64_t>& hs, const V& key,
                               std::uint64_t hash) {
    const std::uint64_t mask =
        tab.size() - 1;  // 64-bit probing, as CPython's on a 64-bit host (wasm's size_t is 32)
    std::uint64_t perturb = hash, i = hash & mask;
    while (true) {
      if (!tab[i]) {
        tab[i] = key;
        hs[i] = hash;
        return;
      }
      if (i + 9 <= mask)
        for (std::size_t j = 1; j <= 9; ++j)
          if (!tab[i + j]) {
            tab[i + j] = key;
            hs[i + j] = hash;
            return;
          }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  void set_resize(const V& s, std::int64_t minused) {
    std::size_t size = 8;
    while (size <= static_cast<std::size_t>(minused)) size <<= 1;
    std::vector<V> old = std::move(s->items);
    std::vector<std::uint64_t> oldh = std::move(s->hashes);
    s->items.assign(size, nullptr);
    s->hashes.assign(size, 0);
    for (std::size_t k = 0; k < old.size(); ++k)
      if (old[k] && old[k] != set_dummy()) set_insert_clean(s->items, s->hashes, old[k], oldh[k]);
    s->fill = s->used;
  }
  // The slot holding key (-1: none): CPython's probe sequence, past deleted slots, to an empty one.
  std::ptrdiff_t set_find(const V& s, const V& key, std::uint64_t hash) {
    const std::uint64_t mask = s->items.size() - 1;
    std::uint64_t perturb = hash, i = hash & mask;
    while (true) {
      const std::size_t probes = i + 9 <= mask ? 9 : 0;
      for (std::size_t j = i; j <= i + probes; ++j) {
        const V& e = s->items[j];
        if (!e) return -1;
        if (e != set_dummy() && s->hashes[j] == hash && equal(e, key))
          return static_cast<std::ptrdiff_t>(j);
      }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  std::ptrdiff_t set_find(const V& s, const V& key) {
    std::int64_t h = 0;
    if (!py_hash(key, &h)) {
      exc_ = nullptr;  // an unhashable value is in no set (the callers that must raise hash first)
      return -1;
    }
    return set_find(s, key, static_cast<std::uint64_t>(h));
  }
  // CPython's set_add_entry: the key goes in the last deleted slot on its probe sequence, else in
  // the empty slot that ends it; the table grows when 3/5 of it is filled. (Which deleted slot:
  // checked against Debian's CPython 3.11 on 8,000 random add/discard/^ sequences, all equal.)
  void set_add(const V& s, const V& key, std::uint64_t hash) {
    const std::uint64_t mask = s->items.size() - 1;
    std::uint64_t perturb = hash, i = hash & mask;
    std::ptrdiff_t freeslot = -1;
    while (true) {
      const std::size_t probes = i + 9 <= mask ? 9 : 0;
      for (std::size_t j = i; j <= i + probes; ++j) {
        const V& e = s->items[j];
        if (!e) {
          if (freeslot >= 0) {
            s->items[static_cast<std::size_t>(freeslot)] = key;
            s->hashes[static_cast<std::size_t>(freeslot)] = hash;
            ++s->used;
            return;
          }
          s->items[j] = key;
          s->hashes[j] = hash;
          ++s->fill;
          ++s->used;
          if (static_cast<std::size_t>(s->fill) * 5 >= mask * 3)
            set_resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
          return;
        }
        if (e == set_dummy()) {
          freeslot = static_cast<std::ptrdiff_t>(
              j);  // the last deleted slot seen (as CPython 3.11 behaves)
        } else if (s->hashes[j] == hash && equal(e, key)) {
          return;
        }
      }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }
  bool set_add(const V& s, const V& key) {
    std::int64_t h = 0;
    if (!py_hash(key, &h)) return false;
    if (s->used >= (std::int64_t(1) << 26)) {
      fatal("MemoryError", "a set of more than 2**26 items is past the notebook's limit");
      return false;
    }
    set_add(s, key, static_cast<std::uint64_t>(h));
    return true;
  }
  bool set_discard(const V& s, const V& key) {
    const std::ptrdiff_t j = set_find(s, key);
    if (j < 0) return false;
    s->items[static_cast<std::size_t>(j)] = set_dummy();
    s->hashes[static_cast<std::size_t>(j)] = ~std::uint64_t(0);
    --s->used;
    return true;
  }
  // CPython's set_merge: other's entries into s, in other's table order (one resize first; an empty
  // table of the same size is copied slot for slot).
  void set_merge(const V& s, const V& other) {
    if (other == s || other->used == 0) return;
    if (static_cast<std::size_t>(s->fill + other->used) * 5 >= (s->items.size() - 1) * 3)
      set_resize(s, (s->used + other->used) * 2);
    if (s->fill == 0 && s->items.size() == other->items.size() && other->fill == other->used) {
      for (std::size_t k = 0; k < other->items.size(); ++k) {
        s->items[k] = other->items[k];
        s->hashes[k] = other->hashes[k];
      }
      s->fill = other->fill;
      s->used = other->used;
      return;
    }
    if (s->fill == 0) {
      s->fill = s->used = other->used;
      for (std::size_t k = 0; k < other->items.size(); ++k)
        if (other->items[k] && other->items[k] != set_dummy())
          set_insert_clean(s->items, s->hashes, other->items[k], other->hashes[k]);
      return;
    }
    for (std::size_t k = 0; k < other->items.size(); ++k)
      if (other->items[k] && other->items[k] != set_dummy())
        set_add(s, other->items[k], other->hashes[k]);
  }
  // set.update / set(iterable): a set merges, a dict adds its keys (one resize first), others add
  // one by one.
  bool set_update(const V& s, const V& it) {
    if (it->t == T::Set) {
      if (!charge(static_cast<double>(it->items.size()))) return false;
      set_merge(s, it);
      return true;
    }
    if (it->t == T::Dict) {
      const auto n = static_cast<std::int64_t>(it->items.size());
      if (static_cast<std::size_t>(s->fill + n) * 5 >= (s->items.size() - 1) * 3)
        set_resize(s, (s->used + n) * 2);
    }
    std::vector<V> xs;
    if (!iterate(it, &xs)) return false;
    for (auto& x : xs)
      if (!set_add(s, x)) return false;
    return true;
  }
  V set_copy(const V& s) {
    V c = mk_set();
    set_merge(c, s);
    return c;
  }
  // a | b, a & b, a - b, a ^ b as CPython computes them (the order of the result's table follows).
  V set_binop(const std::string& op, const V& a, const V& b) {
    if (!charge(static_cast<double>(a->items.size() + b->items.size())))
      return nullptr;  // set work counts against the budget
    if (op == "|") {
      V r = set_copy(a);
      set_merge(r, b);
      return r;
    }
    if (op == "&") {
      V so = a, other = b;
      if (other->used > so->used) std::swap(so, other);
      V r = mk_set();
      for (std::size_t k = 0; k < other->items.size(); ++k) {
        const V& e = other->items[k];
        if (e && e != set_dummy() && set_find(so, e, other->hashes[k]) >= 0)
          set_add(r, e, other->hashes[k]);
      }
      return r;
    }
    if (op == "-") {
      if ((a->used >> 2) > b->used) {
        V r = set_copy(a);
        set_difference_update(r, b);
        return r;
      }
      V r = mk_set();
      for (std::size_t k = 0; k < a->items.size(); ++k) {
        const V& e = a->items[k];
        if (e && e != set_dummy() && set_find(b, e, a->hashes[k]) < 0) set_add(r, e, a->hashes[k]);
      }
      return r;
    }
    // "^": a copy of b, then each of a's entries discarded from it or, when absent, added
    V r = set_copy(b);
    set_symmetric_difference_update(r, a);
    return r;
  }
  // s -= other in place (CPython's set_difference_update_internal): a table over 1/4 deleted slots
  // is rebuilt.
  void set_difference_update(const V& s, const V& other) {
    if (s == other) {
      s->items.assign(8, nullptr);
      s->hashes.assign(8, 0);
      s->used = s->fill = 0;
      return;
    }
    for (auto& x : set_elements(other)) set_discard(s, x);
    if (static_cast<std::size_t>(s->fill - s->used) > (s->items.size() - 1) / 4)
      set_resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
  }
  // s ^= other in place: each of other's entries discarded from s or, when absent, added.
  void set_symmetric_difference_update(const V& s, const V& other) {
    if (s == other) {
      set_difference_update(s, other);
      return;
    }
    const V o = other;
    for (std::size_t k = 0; k < o->items.size(); ++k) {
      const V e = o->items[k];
      if (!e || e == set_dummy()) continue;
      if (!set_discard(s, e)) set_add(s, e, o->hashes[k]);
    }
  }
  bool set_subset(const V& a, const V& b) {
    if (a->used > b->used) return false;
    for (auto& x : set_elements(a))
      if (set_find(b, x) < 0) return false;
    return true;
  }

  // ---- arrays ----
  // A value as an array operand: arrays themselves, Python scalars as weak 0-d arrays, lists and
  // tuples of numbers as NumPy makes them (jax: as jnp.array makes them).
  bool to_array(const V& v, NdArray* out, bool jax_default = false) {
    if (v->t == T::Array) {
      *out = v->arr;
      return true;
    }
    if (v->t == T::Traced) {
      raise("TracerArrayConversionError",
            "The numpy.ndarray conversion method __array__() was called on traced array with "
            "shape " +
                traced_aval(v) + " (a NumPy function on a traced value; use jnp's)");
      return false;
    }
    if (is_big(v)) {
      raise("OverflowError", "Python int too large to convert to C long");
      return false;
    }
    if (v->t == T::Bool || v->t == T::Int) {
      *out = scalar_array_int(int_of(v), v->t == T::Bool, jax_default);
      return true;
    }
    if (v->t == T::Float) {
      *out = scalar_array(v->f, 2, jax_default);
      return true;
    }
    if (v->t == T::List || v->t == T::Tuple)
      return array_from_list(v, out, jax_default, std::nullopt);
    raise("TypeError", "unsupported operand type for an array operation: '" + type_name(v) + "'");
    return false;
  }
  bool array_from_list(const V& v, NdArray* out, bool jax, std::optional<DType> want) {
    // shape: nested lists/tuples of equal lengths
    std::vector<std::int64_t> dims;
    V cur = v;
    int depth = 0;
    while (cur->t == T::List || cur->t == T::Tuple || cur->t == T::Array) {
      if (++depth > 32) {
        raise("ValueError",
              "maximum supported dimension for an ndarray is 32, found " + std::to_string(depth));
        return false;
      }
      if (cur->t == T::Array) {
        for (auto d : cur->arr.dims) dims.push_back(d);
        break;
      }
      dims.push_back(static_cast<std::int64_t>(cur->items.size()));
      if (cur->items.empty()) break;
      cur = cur->items[0];
    }
    std::vector<V> flat;
    int kind = 0;
    bool any_f32 = false, all_arrays_f32 = true;
    bool seen = false;  // an element or an array met: without one (np.array([])) it is float64
    std::function<bool(const V&, std::size_t)> walk = [&](const V& x, std::size_t d) -> bool {
      if (d < dims.size() && (x->t == T::List || x->t == T::Tuple)) {
        if (static_cast<std::int64_t>(x->items.size()) != dims[d]) {
          raise("ValueError",
                "setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape after " +
                    std::to_string(d) + " dimensions. The detected shape was " +
                    shape_repr(std::vector<std::int64_t>(dims.begin(),
                                                         dims.begin() + static_cast<long>(d))) +
                    " + inhomogeneous part.");
          return false;
        }
        for (auto& y : x->items)
          if (!walk(y, d + 1)) return false;
        return true;
      }
      if (x->t == T::Array) {
        const std::size_t left = dims.size() - d;
        if (x->arr.dims.size() != left) {
          raise("ValueError",
                "setting an array element with a sequence: arrays of different ranks in one list");
          return false;
        }
        for (std::size_t k = 0; k < left; ++k)
          if (x->arr.dims[k] != dims[d + k]) {
            raise("ValueError",
                  "setting an array element with a sequence. The requested array has an "
                  "inhomogeneous shape after " +
                      std::to_string(d) + " dimensions.");
            return false;
          }
        kind = std::max(kind, dtype_kind(x->arr.dt));
        seen = true;
        if (x->arr.dt == DType::Float32)
          any_f32 = true;
        else if (x->arr.is_float())
          all_arrays_f32 = false;
        for (std::size_t k = 0; k < static_cast<std::size_t>(x->arr.size()); ++k) {
          if (x->arr.is_float())
            flat.push_back(mk_float(x->arr.f[k]));
          else if (x->arr.dt == DType::Bool)
            flat.push_back(mk_bool(x->arr.i[k] != 0));
          else
            flat.push_back(mk_int(x->arr.i[k]));
        }
        return true;
      }
      if (d != dims.size()) {
        raise("ValueError",
              "setting an array element with a sequence. The requested array has an inhomogeneous "
              "shape after " +
                  std::to_string(d) + " dimensions. The detected shape was " +
                  shape_repr(std::vector<std::int64_t>(dims.begin(),
                                                       dims.begin() + static_cast<long>(d))) +
                  " + inhomogeneous part.");
        return false;
      }
      if (!is_num(x)) {
        raise("TypeError", "only numbers (int, float, bool) can be array elements here, got '" +
                               type_name(x) + "'");
        return false;
      }
      if (is_big(x)) {
        raise("OverflowError", "Python int too large to convert to C long");
        return false;
      }
      if (x->t == T::Float) all_arrays_f32 = false;
      seen = true;
      kind = std::max(kind, x->t == T::Bool ? 0 : x->t == T::Int ? 1 : 2);
      flat.push_back(x);
      if (flat.size() > static_cast<std::size_t>(kMaxArrayElements)) {
        raise("ValueError", "an array past the notebook's limit of " +
                                std::to_string(kMaxArrayElements) + " elements");
        return false;
      }
      return true;
    };
    if (!walk(v, 0)) return false;
    if (!seen) kind = 2;
    DType t = kind == 0   ? DType::Bool
              : kind == 1 ? canon(DType::Int64, jax)
                          : canon(DType::Float64, jax);
    if (kind == 2 && any_f32 && all_arrays_f32) t = DType::Float32;
    if (want) t = *want;
    auto made = NdArray::zeros(t, dims, jax);
    if (!made) {
      raise("ValueError", made.error());
      return false;
    }
    *out = std::move(made.value());
    for (std::size_t k = 0; k < flat.size(); ++k) {
      if (flat[k]->t == T::Float)
        out->set(k, flat[k]->f);
      else
        out->set_int(k, int_of(flat[k]));
    }
    return true;
  }
  // An array result back to Python: 0-d float64/int64/bool from NumPy become Python scalars (what
  // NumPy's scalars print as); other 0-d results stay arrays.
  // Array work counts against the step budget: one step per 64 elements made.
  bool charge(double elements) {
    if (elements > 0)
      steps_ += static_cast<std::int64_t>(
          std::min(elements / 64, 1e15));  // NaN (0/0 of an empty operand) charges nothing
    return step();
  }
  V from_array(NdArray a) {
    if (!charge(static_cast<double>(a.size()))) return nullptr;
    return mk_array(std::move(a));
  }
  V array_binary(const std::string& op, const V& x, const V& y) {
    NdArray a, b;
    const bool jax = (x->t == T::Array && x->arr.jax) || (y->t == T::Array && y->arr.jax);
    if (!to_array(x, &a, jax) || !to_array(y, &b, jax)) return nullptr;
    if (op == "@") {
      if (a.weak || b.weak) {  // a Python scalar: a 0-d operand, refused by matmul's own words
        a.weak = b.weak = false;
        if (a.dims.empty() || b.dims.empty()) return raise("ValueError", matmul(a, b).error());
      }
      if (!charge(matmul_work(a, b))) return nullptr;
      auto r = matmul(a, b);
      // JAX: lax.dot_general's shape rule raises TypeError, jnp.matmul's own checks ValueError.
      if (!r)
        return raise(jax && r.error().rfind("dot_general", 0) == 0 ? "TypeError" : "ValueError",
                     r.error());
      return from_array(std::move(r.value()));
    }
    auto r = binary(op, a, b);
    if (!r)
      return raise(r.error().rfind("ufunc", 0) == 0 || r.error().rfind("numpy boolean", 0) == 0
                       ? "TypeError"
                   : r.error().rfind("Python int", 0) == 0 ? "OverflowError"
                                                           : "ValueError",
                   r.error());
    return from_array(std::move(r.value()));
  }

  // ---- Python arithmetic ----
  // An int of any size: an int64 while it fits, else a BigInt (bounded by kMaxBigIntBits).
  V make_int(BigInt b) {
    std::int64_t v = 0;
    if (b.fits(&v)) return mk_int(v);
    if (b.bits() > kMaxBigIntBits)
      return raise("OverflowError", "an int of " + std::to_string(b.bits()) +
                                        " bits is past the notebook's limit of " +
                                        std::to_string(kMaxBigIntBits) + " bits");
    auto o = mk(T::Int);
    o->i =
        b.neg ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    o->big = std::make_shared<const BigInt>(std::move(b));
    return o;
  }
  V overflow() { return raise("OverflowError", "an int past the notebook's limit"); }
  // Python's int arithmetic past int64 (either operand big, or an int64 result overflowed).
  V big_binop(const std::string& op, const V& x, const V& y) {
    const BigInt a = big_of(x), b = big_of(y);
    // The work counts against the step budget as its words do (a product of n and m words,
    // n * m; a division about as much; the rest n + m), so that a loop of big ints ends too.
    const double na = static_cast<double>(a.mag.size()) + 1,
                 nb = static_cast<double>(b.mag.size()) + 1;
    // A quotient costs about its words times the divisor's.
    const double work = op == "*"                 ? na * nb
                        : op == "//" || op == "%" ? std::max(na - nb + 1, 1.0) * nb
                                                  : na + nb;
    if (!charge(work)) return nullptr;
    if (op == "+") return make_int(add(a, b));
    if (op == "-") return make_int(sub(a, b));
    if (op == "*") {
      if (a.bits() + b.bits() > kMaxBigIntBits + 1) return raise_big(a.bits() + b.bits());
      return make_int(mul(a, b));
    }
    if (op == "//" || op == "%") {
      if (b.is_zero())
        return raise("ZeroDivisionError",
                     op == "//" ? "integer division or modulo by zero" : "integer modulo by zero");
      BigInt q, r;
      divmod_floor(a, b, &q, &r);
      return make_int(op == "//" ? q : r);
    }
    if (op == "/") {
      if (b.is_zero()) return raise("ZeroDivisionError", "division by zero");
      const double p = a.to_double(), q = b.to_double();
      if (std::isinf(p) || std::isinf(q))
        return raise("OverflowError", "integer division result too large for a float");
      return mk_float(p / q);
    }
    if (op == "**") {
      if (b.neg) {
        if (a.is_zero())
          return raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return mk_float(std::pow(a.to_double(), b.to_double()));
      }
      std::int64_t e = 0;
      const std::size_t ab = a.bits();
      // The result's size in bits is about (bits(a) - 1) · b, estimated in double: it can be far
      // past any integer type (2**152 ** 7e18 is about 1e21 bits; found by scripts/fuzz notebook).
      const double estimate = static_cast<double>(ab - 1) * b.to_double();
      if (ab > 1 && (!b.fits(&e) || estimate > static_cast<double>(kMaxBigIntBits)))
        return raise_big(estimate);
      if (!b.fits(&e)) e = 2;  // a is 0, 1 or -1
      BigInt res = BigInt::of(1), base = a;
      for (; e > 0; e >>= 1) {
        if (e & 1) res = mul(res, base);
        if (e > 1) base = mul(base, base);
        if (!step()) return nullptr;
      }
      return make_int(res);
    }
    if (op == "&" || op == "|" || op == "^") return make_int(bitwise(a, b, op[0]));
    if (op == "<<") {
      std::int64_t n = 0;
      if (b.neg) return raise("ValueError", "negative shift count");
      if (a.is_zero()) return mk_int(0);
      if (!b.fits(&n) || a.bits() + static_cast<std::size_t>(n) > kMaxBigIntBits)
        return raise_big(kMaxBigIntBits + 1);
      return make_int(shift_left(a, static_cast<std::size_t>(n)));
    }
    if (op == ">>") {
      std::int64_t n = 0;
      if (b.neg) return raise("ValueError", "negative shift count");
      if (!b.fits(&n) || static_cast<std::size_t>(n) >= a.bits()) return mk_int(a.neg ? -1 : 0);
      return make_int(shift_right(a, static_cast<std::size_t>(n)));
    }
    return raise("NotImplementedError",
                 "the operator " + op + " on ints past 64 bits is not supported here yet");
  }
  std::nullptr_t raise_big(double bits) {
    char about[32];
    if (std::isfinite(bits))
      std::snprintf(about, sizeof about, bits < 1e15 ? "%.0f" : "%.3g", bits);
    else
      std::snprintf(about, sizeof about, "more than 1e308");
    return raise("OverflowError", std::string("the result would have about ") + about +
                                      " bits, past the notebook's limit of " +
                                      std::to_string(kMaxBigIntBits) + " bits");
  }
  V binop(const std::string& op, const V& x, const V& y) {
    if (op == "%" && x->t == T::Str) return percent_format(x->s, y);  // str.__mod__ comes first
    if (x->t == T::Traced || y->t == T::Traced) {
      if (!operands_live(x, y)) return nullptr;
      tr::Ref a = to_tr(x), b = a ? to_tr(y) : nullptr;
      if (!b) return nullptr;
      return from_tr(trace_->binop(op, a, b));
    }
    const auto sequence = [](const V& v) {
      return v->t == T::Str || v->t == T::List || v->t == T::Tuple;
    };
    if ((np_scalar(x) && sequence(y)) || (sequence(x) && np_scalar(y)))  // "x" * np.int64(3)
      return binop(op, np_scalar(x) ? as_real(x) : x, np_scalar(y) ? as_real(y) : y);
    if (x->t == T::Array || y->t == T::Array) return array_binary(op, x, y);
    if (x->t == T::Set && y->t == T::Set && (op == "|" || op == "&" || op == "-" || op == "^"))
      return set_binop(op, x, y);
    if (is_intlike(x) && is_intlike(y) && (is_big(x) || is_big(y)) &&
        !((op == "&" || op == "|" || op == "^") && x->t == T::Bool && y->t == T::Bool))
      return big_binop(op, x, y);
    if (is_num(x) && is_num(y)) {
      // Python's rule on machine numbers (python/pynum.h); an int64 overflow goes on in big ints.
      if ((is_big(x) && std::isinf(num_of(x))) || (is_big(y) && std::isinf(num_of(y))))
        return raise("OverflowError", "int too large to convert to float");
      const bool floats = x->t == T::Float || y->t == T::Float;
      const PyNumResult r = py_number_op(op, py_num(x, floats), py_num(y, floats));
      switch (r.status) {
        case PyNumStatus::Ok:
          return r.value.is_float  ? mk_float(r.value.f)
                 : r.value.is_bool ? mk_bool(r.value.i != 0)
                                   : mk_int(r.value.i);
        case PyNumStatus::Overflow:
          return big_binop(op, x, y);
        case PyNumStatus::Error:
          return raise(r.error_type, r.message);
        case PyNumStatus::Unsupported:
          break;
      }
    }
    if (op == "+" && x->t == y->t && (x->t == T::Str || x->t == T::List || x->t == T::Tuple)) {
      if (x->t == T::Str) {
        if (x->s.size() + y->s.size() > (std::size_t(64) << 20))
          return raise("MemoryError", "a string past 64 MiB");
        return mk_str(x->s + y->s);
      }
      std::vector<V> items = x->items;
      items.insert(items.end(), y->items.begin(), y->items.end());
      return mk_seq(x->t, std::move(items));
    }
    if (op == "*" && ((is_intlike(y) && (x->t == T::Str || x->t == T::List || x->t == T::Tuple)) ||
                      (is_intlike(x) && (y->t == T::Str || y->t == T::List || y->t == T::Tuple)))) {
      const V& seq = is_intlike(y) ? x : y;
      const std::size_t unit = seq->t == T::Str ? seq->s.size() : seq->items.size();
      // An empty sequence repeated is empty, however large the count: no 2**55-trip loop.
      const std::int64_t n =
          unit == 0 ? 0 : std::max<std::int64_t>(0, int_of(is_intlike(y) ? y : x));
      if (unit > 0 && static_cast<std::uint64_t>(n) > (std::uint64_t(1) << 24) / unit)
        return raise("MemoryError", "a sequence repeated past 2**24 elements");
      steps_ += static_cast<std::int64_t>(unit) * n / 16;
      if (seq->t == T::Str) {
        std::string s;
        for (std::int64_t k = 0; k < n; ++k) s += seq->s;
        return mk_str(s);
      }
      std::vector<V> items;
      for (std::int64_t k = 0; k < n; ++k)
        items.insert(items.end(), seq->items.begin(), seq->items.end());
      return mk_seq(seq->t, std::move(items));
    }
    if (op == "+" && x->t == T::Str)
      return raise("TypeError", "can only concatenate str (not \"" + type_name(y) + "\") to str");
    if (op == "+" && (x->t == T::List || x->t == T::Tuple))
      return raise("TypeError", "can only concatenate " + type_name(x) + " (not \"" + type_name(y) +
                                    "\") to " + type_name(x));
    if (op == "*" && (x->t == T::Str || x->t == T::List || x->t == T::Tuple || y->t == T::Str ||
                      y->t == T::List || y->t == T::Tuple))
      return raise("TypeError",
                   "can't multiply sequence by non-int of type '" +
                       type_name(x->t == T::Str || x->t == T::List || x->t == T::Tuple ? y : x) +
                       "'");
    return raise("TypeError", "unsupported operand type(s) for " +
                                  (op == "**" ? "** or pow()" : op) + ": '" + type_name(x) +
                                  "' and '" + type_name(y) + "'");
  }

  // a < b etc. for Python values; -1 on an exception.
  int compare_lt(const V& a, const V& b, const std::string& op) {
    if (a->t == T::Traced || b->t == T::Traced) {  // bool(x < y): JAX refuses
      truth_error(a->t == T::Traced ? a : b, true);
      return -1;
    }
    if (np_scalar(a) || np_scalar(b))  // a NumPy scalar orders as the number it holds
      return compare_lt(as_real(a), as_real(b), op);
    if (is_num(a) && is_num(b)) {
      if (is_intlike(a) && is_intlike(b) && (is_big(a) || is_big(b))) {
        const int c = rl::python::compare(big_of(a), big_of(b));
        return op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
      }
      if (is_intlike(a) && is_intlike(b)) {
        const auto x = int_of(a), y = int_of(b);
        return op == "<" ? x < y : op == "<=" ? x <= y : op == ">" ? x > y : x >= y;
      }
      const double x = num_of(a), y = num_of(b);
      return op == "<" ? x < y : op == "<=" ? x <= y : op == ">" ? x > y : x >= y;
    }
    if (a->t == T::Str && b->t == T::Str) {
      const int c = a->s.compare(b->s);
      return op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
    }
    if (a->t == b->t && (a->t == T::List || a->t == T::Tuple)) {
      const std::size_t n = std::min(a->items.size(), b->items.size());
      for (std::size_t k = 0; k < n; ++k)
        if (!equal(a->items[k], b->items[k]))
          return exc_ ? -1 : compare_lt(a->items[k], b->items[k], op);
      const auto x = a->items.size(), y = b->items.size();
      return op == "<" ? x < y : op == "<=" ? x <= y : op == ">" ? x > y : x >= y;
    }
    raise("TypeError", "'" + op + "' not supported between instances of '" + type_name(a) +
                           "' and '" + type_name(b) + "'");
    return -1;
  }
  V compare(const std::string& op, const V& a, const V& b) {
    if ((a->t == T::Traced || b->t == T::Traced) && op != "in" && op != "not in" && op != "is" &&
        op != "is not") {
      if (!operands_live(a, b)) return nullptr;
      tr::Ref x = to_tr(a), y = x ? to_tr(b) : nullptr;
      if (!y) return nullptr;
      return from_tr(trace_->compare(op, x, y));
    }
    if ((a->t == T::Array || b->t == T::Array) && op != "in" && op != "not in" && op != "is" &&
        op != "is not")
      return array_binary(op, a, b);
    if (op == "==" || op == "!=") {
      const bool e = equal(a, b);
      if (exc_) return nullptr;
      return mk_bool(op == "==" ? e : !e);
    }
    if (op == "is")
      return mk_bool(a == b || (a->t == T::None && b->t == T::None) ||
                     (a->t == T::Bool && b->t == T::Bool && a->b == b->b));
    if (op == "is not")
      return mk_bool(!(a == b || (a->t == T::None && b->t == T::None) ||
                       (a->t == T::Bool && b->t == T::Bool && a->b == b->b)));
    if (op == "in" || op == "not in") {
      const int r = contains(b, a);
      if (r < 0) return nullptr;
      return mk_bool(op == "in" ? r : !r);
    }
    if (a->t == T::Set && b->t == T::Set &&
        (op == "<=" || op == "<" || op == ">=" || op == ">")) {  // subset and superset
      if (!charge(static_cast<double>(a->items.size() + b->items.size()))) return nullptr;
      if (op == "<=") return mk_bool(set_subset(a, b));
      if (op == "<") return mk_bool(a->used < b->used && set_subset(a, b));
      if (op == ">=") return mk_bool(set_subset(b, a));
      if (op == ">") return mk_bool(b->used < a->used && set_subset(b, a));
    }
    const int r = compare_lt(a, b, op);
    if (r < 0) return nullptr;
    return mk_bool(r);
  }
  int contains(const V& c, const V& x) {
    if (c->t == T::Str) {
      if (x->t != T::Str) {
        raise("TypeError", "'in <string>' requires string as left operand, not " + type_name(x));
        return -1;
      }
      return c->s.find(x->s) != std::string::npos;
    }
    if (c->t == T::Set) {
      std::int64_t h = 0;
      if (!py_hash(x, &h)) return -1;
      return set_find(c, x, static_cast<std::uint64_t>(h)) >= 0;
    }
    if (c->t == T::List || c->t == T::Tuple || c->t == T::Dict) {
      for (auto& y : c->items) {
        if (equal(y, x)) return 1;
        if (exc_) return -1;  // a traced array's truth
      }
      return 0;
    }
    if (c->t == T::Range) {
      if (!is_intlike(x)) return 0;
      const std::int64_t v = int_of(x), a = c->items[0]->i, b = c->items[1]->i, s = c->items[2]->i;
      if (s > 0 ? (v < a || v >= b) : (v > a || v <= b)) return 0;
      return (v - a) % s == 0;
    }
    if (c->t == T::Array) {
      NdArray xa;
      if (!to_array(x, &xa)) return -1;
      auto r = binary("==", c->arr, xa);
      if (!r) {
        raise("ValueError", r.error());
        return -1;
      }
      for (auto v : r->i)
        if (v) return 1;
      return 0;
    }
    if (c->t == T::Iter) {  // pulls items up to the one found (or the end), as CPython does
      for (;;) {
        V y;
        const int r = next_of(c, &y);
        if (r <= 0) return r;
        if (equal(y, x)) return 1;
        if (exc_ || !step()) return -1;
      }
    }
    raise("TypeError", "argument of type '" + type_name(c) + "' is not iterable");
    return -1;
  }

  // ---- iteration ----
  // What iterates one item at a time: a traced array (JAX makes each row's slice when the loop
  // asks for it, in lax.py's _iter, so a loop's ops come between the slices) and every iterator
  // (iter(), enumerate, zip, map, filter, a generator expression), as in CPython. A for loop over
  // anything else takes its items first (iterate).
  static bool lazy(const V& v) { return v->t == T::Traced || v->t == T::Iter; }

  // An iterator of `kind` over `inner` (null: none yet); fill counts how deep iterators nest, as
  // pulling an item recurses through them: past the notebook's call depth it is a RecursionError
  // (an endless `it = enumerate(it)` would otherwise overflow the stack when iterated).
  V mk_iter(const std::string& kind, const std::vector<V>& inner = {}) {
    V it = mk(T::Iter);
    it->s = kind;
    for (const V& c : inner) it->fill = std::max(it->fill, c->fill + 1);
    if (it->fill > kNotebookMaxCallDepth)
      return fatal("RecursionError", "maximum recursion depth exceeded (iterators nested past " +
                                         std::to_string(kNotebookMaxCallDepth) + ")");
    return it;
  }
  // An iterator over v: v itself if it is one (Python's iter(it) is it), a traced array's rows
  // (a 0-d one is NumPy's and JAX's TypeError), or the items of anything else.
  V iter_of(const V& v) {
    if (v->t == T::Iter) return v;
    if (v->t == T::Traced) {
      if (v->tv->aval.dims.empty()) return raise("TypeError", "iteration over a 0-d array");
      V it = mk_iter("generator");
      it->self = v;
      return it;
    }
    // A list or tuple is read as it is when each item is asked for (a list that grows meanwhile
    // gives its new items, as CPython's list_iterator does); a range's items are computed.
    if (v->t == T::List || v->t == T::Tuple || v->t == T::Range) {
      V it = mk_iter(v->t == T::List    ? "list_iterator"
                     : v->t == T::Tuple ? "tuple_iterator"
                                        : "range_iterator");
      if (it) it->self = v;
      return it;
    }
    // Anything else is read once, now, into a list the iterator then reads (a string's
    // characters, a dict's keys, a set's elements), named as CPython names its iterator.
    const bool ascii = v->t == T::Str && std::all_of(v->s.begin(), v->s.end(), [](char c) {
                         return static_cast<unsigned char>(c) < 0x80;
                       });
    std::vector<V> items;
    if (!iterate(v, &items)) return nullptr;
    V it = mk_iter(v->t == T::Str    ? (ascii ? "str_ascii_iterator" : "str_iterator")
                   : v->t == T::Dict ? "dict_keyiterator"
                   : v->t == T::Set  ? "set_iterator"
                                     : "list_iterator");
    if (it) it->self = mk_seq(T::List, std::move(items));
    return it;
  }
  // The next item of an iterator: 1 (in *out), 0 at its end, -1 on an error (raised).
  int next_of(const V& it, V* out) {
    if (it->lambda) return next_of_genexp(it, out);
    if (it->s == "generator") {
      if (it->i >= it->self->tv->aval.dims[0]) return 0;
      *out = subscript(it->self, mk_int(it->i++));  // slicing.index_in_dim: slice, then reshape
      return *out ? 1 : -1;
    }
    if (it->s == "range_iterator") {
      const std::int64_t n = range_len(it->self);
      if (it->i >= n) return 0;
      const auto& r = it->self->items;  // start, stop, step: the item fits, being in the range
      const std::int64_t k = it->text == "reversed" ? n - 1 - it->i : it->i;  // reversed(range)
      ++it->i;
      *out = mk_int(static_cast<std::int64_t>(r[0]->i + __int128(k) * r[2]->i));
      return 1;
    }
    if (it->s == "list_reverseiterator") {  // i: the next index, counting down; -1 once spent
      if (it->i < 0 || it->i >= static_cast<std::int64_t>(it->self->items.size())) {
        it->i = -1;
        return 0;
      }
      *out = it->self->items[static_cast<std::size_t>(it->i--)];
      return 1;
    }
    // iter_of's other iterators (CPython's names: list_iterator, str_iterator,
    // dict_keyiterator, ...) read their list or tuple as it is now (a snapshot's too).
    const std::string& k = it->s;
    if ((k.size() > 8 && k.compare(k.size() - 8, 8, "iterator") == 0) || k == "reversed") {
      if (static_cast<std::size_t>(it->i) >= it->self->items.size()) return 0;
      *out = it->self->items[static_cast<std::size_t>(it->i++)];
      return 1;
    }
    if (it->s == "enumerate") {
      V x;
      const int r = next_of(it->self, &x);
      if (r == 1) *out = mk_seq(T::Tuple, {mk_int(it->i++), x});
      return r;
    }
    if (it->s == "zip") {  // CPython's: each iterator in turn, stopping at the first at its end
      std::vector<V> t;
      for (auto& c : it->items) {
        V x;
        const int r = next_of(c, &x);
        if (r != 1) return r;
        t.push_back(x);
      }
      if (it->items.empty()) return 0;
      *out = mk_seq(T::Tuple, std::move(t));
      return 1;
    }
    for (;;) {  // map, filter
      V x;
      const int r = next_of(it->items[0], &x);
      if (r != 1) return r;
      if (it->s == "filter" && it->self->t == T::None) {
        const int t = truth(x);
        if (t < 0) return -1;
        if (!t) continue;
        *out = x;
        return 1;
      }
      V y = call(it->self, Args{{x}, {}});
      if (!y) return -1;
      if (it->s == "map") {
        *out = y;
        return 1;
      }
      const int t = truth(y);
      if (t < 0) return -1;
      if (t) {
        *out = x;
        return 1;
      }
      if (!step()) return -1;
    }
  }
  // A loop's items: materialized, or pulled one at a time from a lazy iterable.
  struct Cursor {
    std::vector<V> items;
    std::size_t k = 0;
    V it;  // set: pull from it
  };
  bool open(const V& v, Cursor* c) {
    if (!lazy(v)) return iterate(v, &c->items);
    c->it = iter_of(v);
    return c->it != nullptr;
  }
  int next(Cursor& c, V* out) {
    if (c.it) return next_of(c.it, out);
    if (c.k >= c.items.size()) return 0;
    *out = c.items[c.k++];
    return 1;
  }

  // The items of an iterable (materialized; bounded by the step budget).
  bool iterate(const V& v, std::vector<V>* out) {
    if (lazy(v)) {  // list(x), a, b = x, f(*x): every row at once, in order (JAX's too)
      Cursor c;
      if (!open(v, &c)) return false;
      for (;;) {
        V x;
        const int r = next(c, &x);
        if (r < 0) return false;
        if (r == 0) return true;
        if (!step()) return false;
        out->push_back(x);
      }
    }
    switch (v->t) {
      case T::List:
      case T::Tuple:
        *out = v->items;
        return true;
      case T::Dict:
        *out = v->items;
        return true;
      case T::Set:
        *out = set_elements(v);
        return true;
      case T::Str:
        for (char c : v->s) out->push_back(mk_str(std::string(1, c)));
        return true;
      case T::Range: {
        const std::int64_t n = range_len(v);
        if (n > (std::int64_t(1) << 26)) {
          fatal("MemoryError",
                "range of " + std::to_string(n) +
                    " items is past the notebook's limit of 2**26 items in one loop");
          return false;
        }
        for (std::int64_t k = 0; k < n; ++k)
          out->push_back(mk_int(v->items[0]->i + k * v->items[2]->i));
        return true;
      }
      case T::Array: {
        if (v->arr.dims.empty()) {
          raise("TypeError", "iteration over a 0-d array");
          return false;
        }
        for (std::int64_t k = 0; k < v->arr.dims[0]; ++k) {
          V item = index_array(v, k);
          if (!item) return false;
          out->push_back(item);
        }
        return true;
      }
      default:
        raise("TypeError", "'" + type_name(v) + "' object is not iterable");
        return false;
    }
  }

  // ---- indexing ----
  bool norm_index(std::int64_t* k, std::int64_t n, const char* what) {
    if (*k < 0) *k += n;
    if (*k < 0 || *k >= n) {
      raise("IndexError", std::string(what) + " index out of range");
      return false;
    }
    return true;
  }
  // slice.indices(n): start, stop, step and the count.
  bool slice_indices(const V& s, std::int64_t n, std::int64_t* start, std::int64_t* stop,
                     std::int64_t* stepv, std::int64_t* count) {
    std::int64_t st = 1;
    if (s->items[2]->t != T::None) {
      if (!is_intlike(s->items[2])) {
        raise("TypeError", "slice indices must be integers or None or have an __index__ method");
        return false;
      }
      st = int_of(s->items[2]);
      if (st == 0) {
        raise("ValueError", "slice step cannot be zero");
        return false;
      }
    }
    auto bound = [&](const V& x, std::int64_t dflt, std::int64_t* out) {
      if (x->t == T::None) {
        *out = dflt;
        return true;
      }
      if (!is_intlike(x)) {
        raise("TypeError", "slice indices must be integers or None or have an __index__ method");
        return false;
      }
      std::int64_t v = int_of(x);
      if (v < 0) {
        v += n;
        if (v < 0) v = st < 0 ? -1 : 0;
      } else if (v >= n) {
        v = st < 0 ? n - 1 : n;
      }
      *out = v;
      return true;
    };
    if (!bound(s->items[0], st < 0 ? n - 1 : 0, start) ||
        !bound(s->items[1], st < 0 ? -1 : n, stop))
      return false;
    *stepv = st;
    // The count without overflow, whatever the step's size (t[1::2**63 - 1] is one item).
    using U = std::uint64_t;
    if (st > 0)
      *count = *stop > *start ? std::int64_t((U(*stop - *start) - 1) / U(st) + 1) : 0;
    else
      *count = *start > *stop ? std::int64_t((U(*start - *stop) - 1) / (U(0) - U(st)) + 1) : 0;
    return true;
  }
  V index_array(const V& a, std::int64_t k) {
    const NdArray& x = a->arr;
    if (!norm_index(&k, x.dims[0], "array")) {
      exc_->text = "index " + std::to_string(k < 0 ? k - x.dims[0] : k) +
                   " is out of bounds for axis 0 with size " + std::to_string(x.dims[0]);
      return nullptr;
    }
    NdArray r;
    r.dt = x.dt;
    r.jax = x.jax;
    r.dims.assign(x.dims.begin() + 1, x.dims.end());
    std::int64_t inner = 1;
    for (auto d : r.dims) inner *= d;
    if (x.is_float())
      r.f.assign(x.f.begin() + k * inner, x.f.begin() + (k + 1) * inner);
    else
      r.i.assign(x.i.begin() + k * inner, x.i.begin() + (k + 1) * inner);
    if (x.jax || r.dims.empty()) return from_array(std::move(r));
    std::vector<std::int64_t> offs(static_cast<std::size_t>(inner));  // a row: a view of a
    for (std::int64_t j = 0; j < inner; ++j) offs[static_cast<std::size_t>(j)] = k * inner + j;
    return link_view(a, from_array(std::move(r)), offs);
  }
  V subscript(const V& obj, const V& idx) {
    if (obj->t == T::Method && obj->s == "at") {  // x.at[idx]: an _IndexUpdateRef
      auto m = mk(T::Method);
      m->s = "at[]";
      m->self = obj->self;
      m->items = {idx};
      return m;
    }
    if (obj->t == T::Method && obj->s == "at[]")
      return raise("TypeError", "'_IndexUpdateRef' object is not subscriptable");
    if (obj->t == T::Traced) {
      const V ci = concrete_index(idx, obj->tv->aval.dims);
      if (!ci) return nullptr;
      tr::Ref x = to_tr(obj), i = x ? to_tr(ci) : nullptr;
      if (!i) return nullptr;
      return from_tr(trace_->subscript(x, i));
    }
    switch (obj->t) {
      case T::List:
      case T::Tuple:
      case T::Str: {
        const std::int64_t n = obj->t == T::Str ? static_cast<std::int64_t>(obj->s.size())
                                                : static_cast<std::int64_t>(obj->items.size());
        if (idx->t == T::Slice) {
          std::int64_t a, b, s, c;
          if (!slice_indices(idx, n, &a, &b, &s, &c)) return nullptr;
          if (obj->t == T::Str) {
            std::string r;
            for (std::int64_t k = 0; k < c; ++k) r += obj->s[static_cast<std::size_t>(a + k * s)];
            return mk_str(r);
          }
          std::vector<V> items;
          for (std::int64_t k = 0; k < c; ++k)
            items.push_back(obj->items[static_cast<std::size_t>(a + k * s)]);
          return mk_seq(obj->t, std::move(items));
        }
        if (!is_intlike(idx))
          return raise("TypeError", std::string(obj->t == T::Str ? "string" : type_name(obj)) +
                                        " indices must be integers or slices, not " +
                                        type_name(idx));
        std::int64_t k = int_of(idx);
        if (!norm_index(&k, n, obj->t == T::Str ? "string" : obj->t == T::List ? "list" : "tuple"))
          return nullptr;
        if (obj->t == T::Str) return mk_str(std::string(1, obj->s[static_cast<std::size_t>(k)]));
        return obj->items[static_cast<std::size_t>(k)];
      }
      case T::Dict: {
        if (!hashable(idx)) return nullptr;
        const int j = dict_find(obj, idx);
        if (j < 0) return raise_key(idx);
        return obj->vals[static_cast<std::size_t>(j)];
      }
      case T::Range: {
        if (!is_intlike(idx))
          return raise("TypeError",
                       "range indices must be integers or slices, not " + type_name(idx));
        std::int64_t k = int_of(idx);
        if (!norm_index(&k, range_len(obj), "range object")) return nullptr;
        return mk_int(obj->items[0]->i + k * obj->items[2]->i);
      }
      case T::Array:
        return array_subscript(obj, idx);
      default:
        return raise("TypeError", "'" + type_name(obj) + "' object is not subscriptable");
    }
  }
  // ---- NumPy views (notebook_value.h ArrayView): memory shared as NumPy shares it ----
  // `result`, made from `base` by basic indexing, a row, .T or a reshape, views base: offs[k] is
  // the flat index in base of result's element k. A NumPy scalar or a jax.Array views nothing.
  V link_view(const V& base, const V& result, const std::vector<std::int64_t>& offs) {
    if (!result || result->t != T::Array || result->arr.jax || base->arr.jax || np_scalar(result) ||
        np_scalar(base) || offs.size() != static_cast<std::size_t>(result->arr.size()))
      return result;
    const V root = base->view ? base->view->root : base;
    auto v = std::make_shared<ArrayView>();
    v->root = root;
    v->at.reserve(offs.size());
    for (auto o : offs)
      v->at.push_back(base->view ? base->view->at[static_cast<std::size_t>(o)] : o);
    bool up = true, down = true;
    for (std::size_t k = 1; k < v->at.size(); ++k) {
      up = up && v->at[k] > v->at[k - 1];
      down = down && v->at[k] < v->at[k - 1];
    }
    v->order = up ? 1 : down ? -1 : 0;
    result->view = std::move(v);
    auto& ws = root->views;
    if (ws.size() >= 8 && (ws.size() & (ws.size() - 1)) == 0)  // at powers of two: amortized
      ws.erase(std::remove_if(ws.begin(), ws.end(),
                              [](const std::weak_ptr<Obj>& w) { return w.expired(); }),
               ws.end());
    ws.push_back(result);
    return result;
  }
  static void copy_element(NdArray& to, std::size_t j, const NdArray& from, std::size_t k) {
    if (to.is_float())
      to.f[j] = from.f[k];
    else
      to.i[j] = from.i[k];
  }
  // After a write into x's own elements (element k of it; -1: any of them): the array it views and
  // every other live view of that array take the new values, as NumPy's shared memory would show.
  void wrote(const V& x, std::int64_t k) {
    const V root = x->view ? x->view->root : x;
    if (x->view) {
      const auto& at = x->view->at;
      if (k >= 0)
        copy_element(root->arr, static_cast<std::size_t>(at[static_cast<std::size_t>(k)]), x->arr,
                     static_cast<std::size_t>(k));
      else
        for (std::size_t j = 0; j < at.size(); ++j)
          copy_element(root->arr, static_cast<std::size_t>(at[j]), x->arr, j);
    }
    const std::int64_t p = k < 0     ? -1
                           : x->view ? x->view->at[static_cast<std::size_t>(k)]
                                     : k;  // in the root
    for (const auto& w : root->views) {
      const V o = w.lock();
      if (!o || o == x || !o->view) continue;
      const auto& at = o->view->at;
      if (p < 0) {
        for (std::size_t j = 0; j < at.size(); ++j)
          copy_element(o->arr, j, root->arr, static_cast<std::size_t>(at[j]));
        continue;
      }
      auto it = o->view->order > 0   ? std::lower_bound(at.begin(), at.end(), p)
                : o->view->order < 0 ? std::lower_bound(at.begin(), at.end(), p, std::greater<>())
                                     : std::find(at.begin(), at.end(), p);
      if (it != at.end() && *it == p)
        copy_element(o->arr, static_cast<std::size_t>(it - at.begin()), root->arr,
                     static_cast<std::size_t>(p));
    }
  }

  // Basic indexing: ints, slices, None (np.newaxis: a new axis of length 1) and one Ellipsis
  // (every axis not indexed) per axis; fewer indices than the rank: the rest whole. A result that
  // is an array is a view of obj, as NumPy's is (a NumPy scalar is a copy).
  V array_subscript(const V& obj, const V& idx) {
    NdArray r;
    std::vector<std::int64_t> offs;
    if (is_advanced(idx)) {  // a copy
      if (!advanced_index(obj->arr, idx, &r, &offs)) return nullptr;
      return from_array(std::move(r));
    }
    if (!basic_index(obj->arr, idx, &r, &offs)) return nullptr;
    V out = from_array(std::move(r));
    if (!out) return nullptr;
    // With an Ellipsis, NumPy gives a 0-d array (a view), not a scalar: x[0, ...], y[...].
    const auto ellipsis = [](const V& p) { return p->t == T::Ellipsis; };
    if (out->arr.dims.empty() && !out->arr.jax &&
        (ellipsis(idx) ||
         (idx->t == T::Tuple && std::any_of(idx->items.begin(), idx->items.end(), ellipsis))))
      out->b = true;
    return obj->arr.jax ? out : link_view(obj, out, offs);
  }
  // An index's ellipses (at most one) and the axes it reads (at most the array's rank), in
  // NumPy's words when it has more.
  bool index_counts(std::size_t ellipses, std::size_t indexed, std::size_t rank) {
    if (ellipses > 1) {
      raise("IndexError", "an index can only have a single ellipsis ('...')");
      return false;
    }
    if (indexed > rank) {
      raise("IndexError", "too many indices for array: array is " + std::to_string(rank) +
                              "-dimensional, but " + std::to_string(indexed) + " were indexed");
      return false;
    }
    return true;
  }
  // Whether idx is NumPy's advanced index: an array (not a NumPy scalar, not 0-d int), a list,
  // or a tuple holding one.
  static bool advanced_part(const V& p) {
    // A list, or a tuple inside the index tuple (x[(0, 1),]); x[True]: a 0-d mask.
    if (p->t == T::List || p->t == T::Tuple || p->t == T::Bool) return true;
    if (p->t != T::Array) return false;
    return p->arr.dt == DType::Bool || !p->arr.dims.empty();
  }
  // An integer index: a Python or NumPy int, or a 0-d integer array (x[np.array(1)]).
  static bool int_index(const V& p) {
    return is_intlike(p) || (p->t == T::Array && p->arr.dims.empty() && !p->arr.is_float() &&
                             p->arr.dt != DType::Bool);
  }
  static bool is_advanced(const V& idx) {
    if (idx->t == T::Tuple) return std::any_of(idx->items.begin(), idx->items.end(), advanced_part);
    return advanced_part(idx);
  }
  // x[idx] for NumPy's advanced indexing (integer arrays or lists, boolean masks, with ints,
  // slices, None and ... beside them): values in r, their flat indices in x in offs, as
  // basic_index gives them. A k-dimensional mask stands for its k nonzero() index arrays; the
  // index arrays (ints among them as 0-d ones) broadcast together to B; B's dimensions take the
  // advanced indices' place when those are adjacent, else they come first. A copy, not a view.
  bool advanced_index(const NdArray& x, const V& idx, NdArray* out,
                      std::vector<std::int64_t>* offs) {
    std::vector<V> parts = idx->t == T::Tuple ? idx->items : std::vector<V>{idx};
    struct Item {
      int kind = 0;  // 0 new axis, 1 slice, 2 advanced
      std::size_t axis = 0;
      std::int64_t start = 0, step = 1, count = 1;
      NdArray index;  // kind 2: int64 indices, already in range
    };
    std::vector<Item> items;
    // Count the axes the index consumes (a mask: its rank), for the Ellipsis.
    std::size_t consumed = 0, ellipses = 0;
    std::vector<NdArray> arrays(parts.size());
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const V& p = parts[k];
      if (p->t == T::Ellipsis) {
        ++ellipses;
      } else if (p->t == T::None) {
      } else if (advanced_part(p)) {
        std::function<bool(const V&)> plain = [&](const V& e) {
          if (e->t == T::List || e->t == T::Tuple)
            return std::all_of(e->items.begin(), e->items.end(), plain);
          return is_num(e) || e->t == T::Array;
        };
        if ((p->t == T::List || p->t == T::Tuple) && !plain(p)) {
          raise("IndexError",
                "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices");
          return false;
        }
        if (!to_array(p, &arrays[k], false)) return false;
        NdArray& a = arrays[k];
        a.weak = false;
        // An empty list is an empty integer index, as NumPy reads it (np.array([]) is float).
        if ((p->t == T::List || p->t == T::Tuple) && a.size() == 0) a = astype(a, DType::Int64);
        if (a.is_float()) {  // a list of floats is not an index at all to NumPy
          raise("IndexError", p->t == T::Array
                                  ? "arrays used as indices must be of integer (or boolean) type"
                                  : "only integers, slices (`:`), ellipsis (`...`), "
                                    "numpy.newaxis (`None`) and integer or boolean arrays are "
                                    "valid indices");
          return false;
        }
        consumed += a.dt == DType::Bool ? a.dims.size() : 1;
      } else {
        ++consumed;
      }
    }
    if (!index_counts(ellipses, consumed, x.dims.size())) return false;
    std::size_t d = 0;
    auto full = [&](std::size_t axis) {
      Item it;
      it.kind = 1;
      it.axis = axis;
      it.count = x.dims[axis];
      return it;
    };
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const V& p = parts[k];
      if (p->t == T::None) {
        items.push_back(Item{});
      } else if (p->t == T::Ellipsis) {
        for (const std::size_t to = d + (x.dims.size() - consumed); d < to; ++d)
          items.push_back(full(d));
      } else if (p->t == T::Slice) {
        Item it;
        it.kind = 1;
        it.axis = d;
        std::int64_t stop = 0;
        if (!slice_indices(p, x.dims[d], &it.start, &stop, &it.step, &it.count)) return false;
        items.push_back(it);
        ++d;
      } else if (advanced_part(p) && arrays[k].dt == DType::Bool && arrays[k].dims.empty()) {
        // A 0-d mask (True, np.True_): an axis of 1 (or 0 for False) that reads no axis of x.
        Item it;
        it.kind = 2;
        it.axis = x.dims.size();
        it.index.dt = DType::Int64;
        it.index.i.assign(arrays[k].i[0] ? 1 : 0, 0);
        it.index.dims = {static_cast<std::int64_t>(it.index.i.size())};
        items.push_back(std::move(it));
      } else if (advanced_part(p) && arrays[k].dt == DType::Bool) {
        const NdArray& m = arrays[k];
        for (std::size_t i = 0; i < m.dims.size(); ++i)
          if (m.dims[i] != x.dims[d + i]) {
            raise("IndexError",
                  "boolean index did not match indexed array along dimension " +
                      std::to_string(d + i) + "; dimension is " + std::to_string(x.dims[d + i]) +
                      " but corresponding boolean dimension is " + std::to_string(m.dims[i]));
            return false;
          }
        // nonzero(): one index array per mask dimension, the true positions in C order.
        std::vector<Item> axes(m.dims.size());
        for (std::size_t i = 0; i < axes.size(); ++i) {
          axes[i].kind = 2;
          axes[i].axis = d + i;
          axes[i].index.dt = DType::Int64;
        }
        for (std::size_t f = 0; f < m.i.size(); ++f) {
          if (!m.i[f]) continue;
          std::size_t rest = f;
          for (std::size_t i = axes.size(); i-- > 0;) {
            axes[i].index.i.push_back(static_cast<std::int64_t>(rest) % m.dims[i]);
            rest /= static_cast<std::size_t>(m.dims[i]);
          }
        }
        for (auto& a : axes) {
          a.index.dims = {static_cast<std::int64_t>(a.index.i.size())};
          items.push_back(std::move(a));
        }
        d += m.dims.size();
      } else {  // an int array (or an int, 0-d among arrays)
        Item it;
        it.kind = 2;
        it.axis = d;
        if (advanced_part(p)) {
          it.index = astype(arrays[k], DType::Int64);
        } else if (int_index(p)) {
          it.index.dt = DType::Int64;
          it.index.i = {p->t == T::Array ? p->arr.i[0] : int_of(p)};
        } else {
          raise("IndexError",
                "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices");
          return false;
        }
        it.count = advanced_part(p) ? 1 : 0;  // 1: an array (named in a shape mismatch)
        items.push_back(std::move(it));
        ++d;
      }
    }
    for (; d < x.dims.size(); ++d) items.push_back(full(d));
    // The advanced indices broadcast together.
    std::vector<const NdArray*> adv;
    std::vector<std::size_t> where;
    for (std::size_t k = 0; k < items.size(); ++k)
      if (items[k].kind == 2) adv.push_back(&items[k].index), where.push_back(k);
    if (const std::string no = broadcast_refusal(adv); !no.empty()) {
      std::string shapes;  // NumPy names the index arrays, not the ints among them
      for (std::size_t i = 0; i < adv.size(); ++i)
        if (items[where[i]].count == 1 || !items[where[i]].index.dims.empty())
          shapes += numpy_shape(adv[i]->dims) + " ";
      raise(
          "IndexError",
          "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
      return false;
    }
    std::vector<std::int64_t> bshape;
    for (auto* a : adv)
      if (a->dims.size() > bshape.size())
        bshape.insert(bshape.begin(), a->dims.size() - bshape.size(), 1);
    for (auto* a : adv)
      for (std::size_t i = 0; i < a->dims.size(); ++i) {
        auto& b = bshape[bshape.size() - a->dims.size() + i];
        if (a->dims[i] != 1) b = a->dims[i];
      }
    // Adjacent: the advanced indices stand next to each other in the index as written (an
    // Ellipsis between them separates them even when it stands for no axis).
    // Each index in range (negative ones counted from the end), once they broadcast; an empty
    // broadcast reads none.
    std::int64_t bsize = 1;
    for (auto e : bshape) bsize *= e;
    for (std::size_t i = 0; bsize > 0 && i < where.size(); ++i) {
      Item& it = items[where[i]];
      if (it.axis >= x.dims.size()) continue;  // a 0-d mask
      const std::int64_t n = x.dims[it.axis];
      for (auto& v : it.index.i) {
        if (v < -n || v >= n) {
          raise("IndexError", "index " + std::to_string(v) + " is out of bounds for axis " +
                                  std::to_string(it.axis) + " with size " + std::to_string(n));
          return false;
        }
        if (v < 0) v += n;
      }
    }
    bool adjacent = true;
    {
      std::vector<std::size_t> at;
      for (std::size_t k = 0; k < parts.size(); ++k)
        if (advanced_part(parts[k]) || int_index(parts[k])) at.push_back(k);
      for (std::size_t k = 1; k < at.size(); ++k) adjacent = adjacent && at[k] == at[k - 1] + 1;
    }
    // The result's axes: each one either a basic item's or B's dimension j.
    struct Axis {
      int item = -1;  // -1: B's
      std::size_t b = 0;
    };
    std::vector<Axis> axes;
    if (!adjacent)
      for (std::size_t j = 0; j < bshape.size(); ++j) axes.push_back(Axis{-1, j});
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (adjacent && k == where[0])
        for (std::size_t j = 0; j < bshape.size(); ++j) axes.push_back(Axis{-1, j});
      if (items[k].kind != 2) axes.push_back(Axis{static_cast<int>(k), 0});
    }
    std::vector<std::int64_t> dims;
    for (auto& a : axes)
      dims.push_back(a.item < 0                             ? bshape[a.b]
                     : items[std::size_t(a.item)].kind == 0 ? 1
                                                            : items[std::size_t(a.item)].count);
    if (dims.size() > static_cast<std::size_t>(kMaxDims)) {
      raise("IndexError", "number of dimensions must be within [0, " + std::to_string(kMaxDims) +
                              "], indexing result would have " + std::to_string(dims.size()));
      return false;
    }
    auto made = NdArray::zeros(x.dt, dims, x.jax);
    if (!made) {
      raise("ValueError", made.error());
      return false;
    }
    NdArray& r = *out;
    r = std::move(made.value());
    if (!charge(static_cast<double>(r.size()))) return false;
    std::vector<std::int64_t> stride(x.dims.size(), 1);
    for (std::size_t a = x.dims.size(); a-- > 1;) stride[a - 1] = stride[a] * x.dims[a];
    // Each advanced index's strides over B (0 where it broadcasts).
    std::vector<std::vector<std::int64_t>> bstride(adv.size());
    for (std::size_t i = 0; i < adv.size(); ++i) {
      const auto& ad = adv[i]->dims;
      bstride[i].assign(bshape.size(), 0);
      std::int64_t st = 1;
      for (std::size_t j = ad.size(); j-- > 0;) {
        if (ad[j] != 1) bstride[i][bshape.size() - ad.size() + j] = st;
        st *= ad[j];
      }
    }
    std::vector<std::int64_t> pos(dims.size(), 0), bpos(bshape.size(), 0);
    offs->clear();
    offs->reserve(static_cast<std::size_t>(r.size()));
    for (std::int64_t n = 0; n < r.size(); ++n) {
      std::int64_t off = 0;
      for (std::size_t a = 0; a < axes.size(); ++a) {
        if (axes[a].item < 0) {
          bpos[axes[a].b] = pos[a];
        } else {
          const Item& it = items[std::size_t(axes[a].item)];
          if (it.kind == 1) off += (it.start + pos[a] * it.step) * stride[it.axis];
        }
      }
      for (std::size_t i = 0; i < adv.size(); ++i) {
        std::int64_t at = 0;
        for (std::size_t j = 0; j < bshape.size(); ++j) at += bpos[j] * bstride[i][j];
        const std::size_t axis = items[where[i]].axis;
        if (axis < x.dims.size()) off += adv[i]->i[static_cast<std::size_t>(at)] * stride[axis];
      }
      offs->push_back(off);
      copy_element(r, static_cast<std::size_t>(n), x, static_cast<std::size_t>(off));
      for (std::size_t a = dims.size(); a-- > 0;) {
        if (++pos[a] < dims[a]) break;
        pos[a] = 0;
      }
    }
    return true;
  }
  // The elements x[idx] selects: their values in r, their flat indices in x in offs (row-major),
  // r's shape the slices' counts with a 1 where None stands. False: raised (an index out of
  // bounds...).
  bool basic_index(const NdArray& x, const V& idx, NdArray* out, std::vector<std::int64_t>* offs) {
    std::vector<V> parts = idx->t == T::Tuple ? idx->items : std::vector<V>{idx};
    std::size_t indexed = 0, ellipses = 0;
    for (const V& p : parts) {
      if (p->t == T::Ellipsis)
        ++ellipses;
      else if (p->t != T::None)
        ++indexed;
    }
    if (!index_counts(ellipses, indexed, x.dims.size())) return false;
    std::vector<std::int64_t> start(x.dims.size(), 0), stepv(x.dims.size(), 1), count = x.dims;
    std::vector<std::int64_t> dims;  // the result's shape, in the order the index writes it
    std::size_t d = 0;               // x's next axis
    for (const V& p : parts) {
      if (p->t == T::None) {
        dims.push_back(1);
      } else if (p->t == T::Ellipsis) {
        for (const std::size_t to = d + (x.dims.size() - indexed); d < to; ++d)
          dims.push_back(count[d]);
      } else if (p->t == T::Slice) {
        std::int64_t a, b, s, c;
        if (!slice_indices(p, x.dims[d], &a, &b, &s, &c)) return false;
        start[d] = a;
        stepv[d] = s;
        count[d] = c;
        dims.push_back(c);
        ++d;
      } else if (p->t == T::Bool || (np_scalar(p) && p->arr.dt == DType::Bool)) {
        raise("IndexError",
              "a boolean index (x[True]) adds an axis and selects by mask in NumPy; "
              "boolean indices are not supported here");
        return false;
      } else if (int_index(p)) {
        std::int64_t k = p->t == T::Array ? p->arr.i[0] : int_of(p);
        if (k < -x.dims[d] || k >= x.dims[d]) {
          raise("IndexError", "index " + std::to_string(k) + " is out of bounds for axis " +
                                  std::to_string(d) + " with size " + std::to_string(x.dims[d]));
          return false;
        }
        if (k < 0) k += x.dims[d];
        start[d] = k;
        count[d] = 1;
        ++d;
      } else {
        raise("IndexError",
              "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
              "integer or boolean arrays are valid indices");
        return false;
      }
    }
    for (; d < x.dims.size(); ++d) dims.push_back(count[d]);
    if (dims.size() > static_cast<std::size_t>(kMaxDims)) {
      raise("IndexError", "number of dimensions must be within [0, " + std::to_string(kMaxDims) +
                              "], indexing result would have " + std::to_string(dims.size()));
      return false;
    }
    NdArray& r = *out;
    r = NdArray();
    r.dt = x.dt;
    r.jax = x.jax;
    r.dims = std::move(dims);
    std::int64_t total = 1;
    for (auto c : count) total *= c;
    std::vector<std::int64_t> stride(x.dims.size(), 1);
    for (std::size_t d = x.dims.size(); d-- > 1;) stride[d - 1] = stride[d] * x.dims[d];
    std::vector<std::int64_t> pos(x.dims.size(), 0);
    for (std::int64_t n = 0; n < total; ++n) {
      std::int64_t off = 0;
      for (std::size_t d = 0; d < x.dims.size(); ++d)
        off += (start[d] + pos[d] * stepv[d]) * stride[d];
      offs->push_back(off);
      if (x.is_float())
        r.f.push_back(x.f[static_cast<std::size_t>(off)]);
      else
        r.i.push_back(x.i[static_cast<std::size_t>(off)]);
      for (std::size_t d = x.dims.size(); d-- > 0;) {
        if (++pos[d] < count[d]) break;
        pos[d] = 0;
      }
    }
    return true;
  }

  // x[idx] = v on a NumPy array (ints and slices): v broadcast to the selection and cast to x's
  // dtype as NumPy stores (a float into an int array truncates; a scalar NaN or infinity there is
  // NumPy's error); the arrays sharing x's memory see the new values.
  bool array_store(const V& obj, const V& idx, const V& v) {
    NdArray sel;
    std::vector<std::int64_t> offs;
    if (!(is_advanced(idx) ? advanced_index(obj->arr, idx, &sel, &offs)
                           : basic_index(obj->arr, idx, &sel, &offs)))
      return false;
    NdArray val;
    if (!to_array(v, &val)) return false;
    const std::vector<std::int64_t> given = val.dims;
    while (val.dims.size() > sel.dims.size() && val.dims.front() == 1)
      val.dims.erase(val.dims.begin());  // leading ones of the value are dropped
    bool fits = val.dims.size() <= sel.dims.size();
    for (std::size_t d = 0; fits && d < val.dims.size(); ++d) {
      const auto vd = val.dims[val.dims.size() - 1 - d];
      fits = vd == 1 || vd == sel.dims[sel.dims.size() - 1 - d];
    }
    if (!fits) {
      if (!is_advanced(idx)) {
        raise("ValueError", "could not broadcast input array from shape " + numpy_shape(given) +
                                " into shape " + numpy_shape(sel.dims));
      } else if (idx->t == T::Array && idx->arr.dt == DType::Bool && given.size() <= 1) {
        raise("ValueError", "NumPy boolean array indexing assignment cannot assign " +
                                std::to_string(val.size()) + " input values to the " +
                                std::to_string(sel.size()) +
                                " output values where the mask is true");
      } else {
        raise("ValueError", "shape mismatch: value array of shape " + numpy_shape(given) +
                                " could not be broadcast to indexing result of shape " +
                                numpy_shape(sel.dims));
      }
      return false;
    }
    NdArray& x = obj->arr;
    if (!x.is_float() && x.dt != DType::Bool && val.is_float() && val.dims.empty()) {
      const double f = val.f[0];
      if (std::isnan(f)) {
        raise("ValueError", "cannot convert float NaN to integer");
        return false;
      }
      if (std::isinf(f)) {
        raise("OverflowError", "cannot convert float infinity to integer");
        return false;
      }
    }
    const NdArray cast = astype(val, x.dt);
    // Element k of the selection (row-major over sel.dims) reads the value's element by
    // broadcasting: its index in each of the value's dimensions, 0 where that one is 1.
    const std::size_t rank = sel.dims.size(), vrank = cast.dims.size();
    std::vector<std::int64_t> pos(rank, 0), vstride(vrank, 1);
    for (std::size_t d = vrank; d-- > 1;) vstride[d - 1] = vstride[d] * cast.dims[d];
    for (std::size_t k = 0; k < offs.size(); ++k) {
      std::int64_t src = 0;
      for (std::size_t d = 0; d < vrank; ++d) {
        const std::size_t sd = rank - vrank + d;
        if (cast.dims[d] != 1) src += pos[sd] * vstride[d];
      }
      copy_element(x, static_cast<std::size_t>(offs[k]), cast, static_cast<std::size_t>(src));
      for (std::size_t d = rank; d-- > 0;) {
        if (++pos[d] < sel.dims[d]) break;
        pos[d] = 0;
      }
    }
    wrote(obj, offs.size() == 1 ? offs[0] : -1);
    return true;
  }

  // ---- assignment ----
  bool assign(const Expr& target, const V& v) {
    switch (target.kind) {
      case EK::Name:
        current().vars[target.s] = v;
        return true;
      case EK::Tuple:
      case EK::List: {
        std::vector<V> items;
        if (!iterate(v, &items)) {
          if (exc_ && exc_->s == "TypeError" &&
              exc_->text == "'" + type_name(v) + "' object is not iterable") {
            exc_->text =
                "cannot unpack non-iterable " + type_name(v) + " object";  // CPython's words
            exc_->items = {mk_str(exc_->text)};
          }
          return false;
        }
        // One starred target takes the items the others leave, as a list (PEP 3132).
        std::size_t star = target.kids.size();
        for (std::size_t k = 0; k < target.kids.size(); ++k)
          if (target.kids[k]->kind == EK::Starred) {
            if (star != target.kids.size()) {
              raise("SyntaxError", "multiple starred expressions in assignment");
              return false;
            }
            star = k;
          }
        if (star != target.kids.size()) {
          const std::size_t after = target.kids.size() - star - 1;
          if (items.size() < star + after) {
            raise("ValueError", "not enough values to unpack (expected at least " +
                                    std::to_string(star + after) + ", got " +
                                    std::to_string(items.size()) + ")");
            return false;
          }
          const std::size_t rest = items.size() - after;
          for (std::size_t k = 0; k < star; ++k)
            if (!assign(*target.kids[k], items[k])) return false;
          std::vector<V> middle(items.begin() + std::ptrdiff_t(star),
                                items.begin() + std::ptrdiff_t(rest));
          if (!assign(*target.kids[star]->kids[0], mk_seq(T::List, std::move(middle))))
            return false;
          for (std::size_t k = 0; k < after; ++k)
            if (!assign(*target.kids[star + 1 + k], items[rest + k])) return false;
          return true;
        }
        if (items.size() != target.kids.size()) {
          if (items.size() > target.kids.size())
            raise("ValueError", "too many values to unpack (expected " +
                                    std::to_string(target.kids.size()) + ")");
          else
            raise("ValueError", "not enough values to unpack (expected " +
                                    std::to_string(target.kids.size()) + ", got " +
                                    std::to_string(items.size()) + ")");
          return false;
        }
        for (std::size_t k = 0; k < items.size(); ++k)
          if (!assign(*target.kids[k], items[k])) return false;
        return true;
      }
      case EK::Subscript: {
        V obj = eval(*target.kids[0]);
        if (!obj) return false;
        V idx = eval(*target.kids[1]);
        if (!idx) return false;
        if (obj->t == T::List) {
          if (!is_intlike(idx)) {
            raise("TypeError", "list indices must be integers or slices, not " + type_name(idx));
            return false;
          }
          std::int64_t k = int_of(idx);
          if (!norm_index(&k, static_cast<std::int64_t>(obj->items.size()), "list assignment"))
            return false;
          obj->items[static_cast<std::size_t>(k)] = v;
          return true;
        }
        if (obj->t == T::Dict) return dict_set(obj, idx, v);
        if (obj->t == T::Array) {
          if (obj->arr.jax) {
            raise("TypeError",
                  "JAX arrays are immutable and do not support in-place item assignment. Instead "
                  "of x[idx] = y, use x = x.at[idx].set(y)");
            return false;
          }
          return array_store(obj, idx, v);
        }
        raise("TypeError", "'" + type_name(obj) + "' object does not support item assignment");
        return false;
      }
      case EK::Attribute:
        raise("AttributeError", "attribute assignment is not supported here ('" + target.s + "')");
        return false;
      default:
        raise("SyntaxError", "cannot assign to this expression");
        return false;
    }
  }

  // ---- expressions ----
  V eval(const Expr& e) {
    Depth dg(*this);
    if (!dg.ok || !step()) return nullptr;
    at(e);
    switch (e.kind) {
      case EK::Name:
        return lookup(e.s);
      case EK::Int: {
        if (!e.overflow) return mk_int(e.i);
        std::string digits;
        int base = 10;
        std::string t = e.s;
        if (t.size() > 2 && t[0] == '0' &&
            (t[1] == 'x' || t[1] == 'X' || t[1] == 'o' || t[1] == 'O' || t[1] == 'b' ||
             t[1] == 'B')) {
          base = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
          t = t.substr(2);
        }
        for (char c : t)
          if (c != '_') digits += c;
        BigInt b;
        if (!BigInt::parse(digits, base, &b))
          return raise("OverflowError", "the int literal is past the notebook's limit of " +
                                            std::to_string(kMaxBigIntBits) + " bits");
        return make_int(b);
      }
      case EK::Float:
        return mk_float(e.f);
      case EK::Str:
        return e.fstring ? fstring(e) : mk_str(e.s);
      case EK::True:
        return mk_bool(true);
      case EK::False:
        return mk_bool(false);
      case EK::None:
        return none_v();
      case EK::Ellipsis:
        return ellipsis_v();
      case EK::Tuple:
      case EK::List:
      case EK::Set: {
        std::vector<V> items;
        for (auto& k : e.kids) {
          if (k->kind == EK::Starred) {
            V s = eval(*k->kids[0]);
            if (!s) return nullptr;
            std::vector<V> more;
            if (!iterate(s, &more)) return nullptr;
            items.insert(items.end(), more.begin(), more.end());
            continue;
          }
          V v = eval(*k);
          if (!v) return nullptr;
          items.push_back(v);
        }
        if (e.kind == EK::Set) {
          // CPython compiles a display of more than two constants as a frozenset constant (its
          // items added in order) merged into an empty set; others add their items in order.
          const bool folded =
              e.kids.size() > 2 && std::all_of(e.kids.begin(), e.kids.end(),
                                               [](const ExprP& k) { return constant_expr(*k); });
          V st = mk_set();
          V into = folded ? mk_set() : st;
          at(e);
          for (auto& x : items)
            if (!set_add(into, x)) return nullptr;
          if (folded) set_merge(st, into);
          return st;
        }
        return mk_seq(e.kind == EK::Tuple ? T::Tuple : T::List, std::move(items));
      }
      case EK::Dict: {
        auto d = mk(T::Dict);
        for (std::size_t k = 0; k + 1 < e.kids.size(); k += 2) {
          V key = eval(*e.kids[k]);
          if (!key) return nullptr;
          V val = eval(*e.kids[k + 1]);
          if (!val) return nullptr;
          at(e);  // an unhashable key is the display's error
          if (!dict_set(d, key, val)) return nullptr;
        }
        return d;
      }
      case EK::BinOp: {
        V a = eval(*e.kids[0]);
        if (!a) return nullptr;
        V b = eval(*e.kids[1]);
        if (!b) return nullptr;
        at(e);
        return binop(e.s, a, b);
      }
      case EK::Unary: {
        V a = eval(*e.kids[0]);
        if (!a) return nullptr;
        at(e);
        if (e.s == "not") {
          const int t = truth(a);
          if (t < 0) return nullptr;
          return mk_bool(!t);
        }
        if (a->t == T::Traced) {
          tr::Ref x = to_tr(a);
          if (!x) return nullptr;
          if (e.s == "+") return a;
          if (e.s == "-") return from_tr(trace_->negate(x));
          return raise(
              "NotImplementedError",
              "the operator ~ on a traced array is not supported here (use lax.bitwise_not)");
        }
        if (a->t == T::Array) {
          if (e.s == "+") return a;
          if (e.s == "~") {
            if (a->arr.is_float())
              return raise("TypeError", "ufunc 'invert' not supported for the input types");
            NdArray r = a->arr;
            for (auto& x : r.i) x = r.dt == DType::Bool ? !x : ~x;
            return mk_array(std::move(r));
          }
          auto r = unary("negative", a->arr);
          if (!r) return raise("TypeError", r.error());
          return from_array(std::move(r.value()));
        }
        if (!is_num(a))
          return raise("TypeError",
                       "bad operand type for unary " + e.s + ": '" + type_name(a) + "'");
        if (e.s == "+") return a->t == T::Bool ? mk_int(int_of(a)) : a;
        if (e.s == "-") {
          if (a->t == T::Float) return mk_float(-a->f);
          if (is_big(a) || int_of(a) == std::numeric_limits<std::int64_t>::min())
            return make_int(sub(BigInt::of(0), big_of(a)));
          return mk_int(-int_of(a));
        }
        if (a->t == T::Float) return raise("TypeError", "bad operand type for unary ~: 'float'");
        if (is_big(a)) return make_int(sub(BigInt::of(-1), big_of(a)));
        return mk_int(~int_of(a));
      }
      case EK::Compare: {
        V left = eval(*e.kids[0]);
        if (!left) return nullptr;
        V result;
        for (std::size_t k = 0; k < e.ops.size(); ++k) {
          V right = eval(*e.kids[k + 1]);
          if (!right) return nullptr;
          at(e);
          result = compare(e.ops[k], left, right);
          if (!result) return nullptr;
          if (k + 1 < e.ops.size()) {
            const int t = truth(result);
            if (t < 0) return nullptr;
            if (!t) return result;
          }
          left = right;
        }
        return result;
      }
      case EK::BoolOp: {
        V v;
        for (auto& k : e.kids) {
          v = eval(*k);
          if (!v) return nullptr;
          const int t = truth(v);
          if (t < 0) return nullptr;
          if (e.s == "and" ? !t : t) return v;
        }
        return v;
      }
      case EK::IfExp: {
        V c = eval(*e.kids[1]);
        if (!c) return nullptr;
        const int t = truth(c);
        if (t < 0) return nullptr;
        return eval(*e.kids[t ? 0 : 2]);
      }
      case EK::Call:
        return eval_call(e);
      case EK::Attribute: {
        V obj = eval(*e.kids[0]);
        if (!obj) return nullptr;
        at(e);
        return attribute(obj, e.s);
      }
      case EK::Subscript: {
        V obj = eval(*e.kids[0]);
        if (!obj) return nullptr;
        V idx = eval(*e.kids[1]);
        if (!idx) return nullptr;
        at(e);
        return subscript(obj, idx);
      }
      case EK::Slice: {
        std::vector<V> parts;
        for (auto& k : e.kids) {
          if (!k) {
            parts.push_back(none_v());
            continue;
          }
          V v = eval(*k);
          if (!v) return nullptr;
          parts.push_back(v);
        }
        while (parts.size() < 3) parts.push_back(none_v());
        return mk_seq(T::Slice, std::move(parts));
      }
      case EK::Starred:
        return raise("SyntaxError", "can't use starred expression here");
      case EK::Lambda: {
        auto f = mk(T::Func);
        f->lambda = &e;
        f->file = file_;
        f->closure = scope_;
        if (!eval_defaults(e.params, f)) return nullptr;
        return f;
      }
      case EK::Comprehension:
        return comprehension(e);
    }
    return raise("SyntaxError", "unsupported expression");
  }

  // ---- f-strings and format specs ----
  std::map<std::string, std::shared_ptr<Program>> field_cache_;
  // A field's expression, parsed once per f-string place and text. Its nodes carry the f-string's
  // place (the field's own text has none in the file), so an error in it points at the f-string.
  const Expr* field_expr(const std::string& text, const Expr& at) {
    const std::string key = std::to_string(at.line) + ":" + std::to_string(at.column) + ":" + text;
    auto it = field_cache_.find(key);
    if (it == field_cache_.end()) {
      auto prog = parse("(" + text + "\n)\n");
      if (!prog || prog->body.size() != 1 || prog->body[0]->kind != SK::Expr) {
        stack_.back().line = at.line;
        raise("SyntaxError", "f-string: invalid expression {" + text + "}" +
                                 (prog ? "" : ": " + prog.error_info().without_place()));
        return nullptr;
      }
      place_all(*prog->body[0]->value, at.line, at.column, 0);
      it = field_cache_.emplace(key, std::make_shared<Program>(std::move(prog.value()))).first;
    }
    return it->second->body[0]->value.get();
  }
  static void place_all(Expr& e, int line, int column, int depth) {
    e.line = line, e.column = column;
    if (depth > 300) return;  // the parser bounds nesting at 200
    for (auto& k : e.kids)
      if (k) place_all(*k, line, column, depth + 1);
    for (auto& p : e.params)
      if (p.default_value) place_all(*p.default_value, line, column, depth + 1);
  }
  V fstring(const Expr& e) {
    const std::string& s = e.s;
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '}') {
        if (i + 1 < s.size() && s[i + 1] == '}') {
          out += '}';
          i += 2;
          continue;
        }
        return raise("SyntaxError", "f-string: single '}' is not allowed");
      }
      if (c != '{') {
        out += c;
        ++i;
        continue;
      }
      if (i + 1 < s.size() && s[i + 1] == '{') {
        out += '{';
        i += 2;
        continue;
      }
      // a field: expression [=] [!conv] [:spec] }
      std::size_t j = i + 1;
      int depth = 0;
      char quote = 0;
      for (; j < s.size(); ++j) {
        const char d = s[j];
        if (quote) {
          if (d == quote) quote = 0;
          continue;
        }
        if (d == '\'' || d == '"')
          quote = d;
        else if (d == '(' || d == '[' || d == '{')
          ++depth;
        else if ((d == ')' || d == ']' || d == '}') && depth > 0)
          --depth;
        else if (depth == 0 &&
                 (d == '}' || d == ':' || (d == '!' && j + 1 < s.size() && s[j + 1] != '=')))
          break;
      }
      if (j >= s.size()) return raise("SyntaxError", "f-string: expecting '}'");
      std::string text = s.substr(i + 1, j - i - 1);
      bool self_doc = false;
      {
        const auto last = text.find_last_not_of(" ");
        if (last != std::string::npos && text[last] == '=' &&
            (last == 0 || (text[last - 1] != '=' && text[last - 1] != '!' &&
                           text[last - 1] != '<' && text[last - 1] != '>'))) {
          self_doc = true;
          out += text;
          text = text.substr(0, last);
        }
      }
      if (text.find_first_not_of(" ") == std::string::npos)
        return raise("SyntaxError", "f-string: empty expression not allowed");
      char conv = 0;
      if (s[j] == '!') {
        if (j + 2 >= s.size() || (s[j + 1] != 'r' && s[j + 1] != 's' && s[j + 1] != 'a'))
          return raise("SyntaxError",
                       "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        conv = s[j + 1];
        j += 2;
      }
      std::string spec;
      if (j < s.size() && s[j] == ':') {
        ++j;
        int d2 = 0;
        std::size_t k = j;
        for (; k < s.size(); ++k) {
          if (s[k] == '{')
            ++d2;
          else if (s[k] == '}') {
            if (d2 == 0) break;
            --d2;
          }
        }
        if (k >= s.size()) return raise("SyntaxError", "f-string: expecting '}'");
        const std::string raw_spec = s.substr(j, k - j);
        // nested fields in the spec ({width})
        Expr inner;
        inner.kind = EK::Str;
        inner.fstring = true;
        inner.s = raw_spec;
        inner.line = e.line;
        V sv = raw_spec.find('{') == std::string::npos ? mk_str(raw_spec) : fstring(inner);
        if (!sv) return nullptr;
        spec = sv->s;
        j = k;
      }
      if (j >= s.size() || s[j] != '}') return raise("SyntaxError", "f-string: expecting '}'");
      const Expr* fe = field_expr(text, e);
      if (!fe) return nullptr;
      V v = eval(*fe);
      if (!v) return nullptr;
      if (self_doc && !conv && spec.empty()) conv = 'r';
      V piece = format_field(v, conv, spec);
      if (!piece) return nullptr;
      out += piece->s;
      i = j + 1;
    }
    return mk_str(out);
  }
  // A replacement field of an f-string or str.format: its !r / !s / !a conversion (0: none),
  // then its spec.
  V format_field(V v, char conv, const std::string& spec) {
    const V before = exc_;
    if (conv == 'r' || conv == 'a')
      v = mk_str(conv == 'a' ? ascii_escaped(repr(v)) : repr(v));
    else if (conv == 's')
      v = mk_str(str(v));
    if (exc_ != before) return nullptr;
    return format_value(v, spec);
  }
  // fmt % args: Python's printf-style formatting (CPython 3.11's PyUnicode_Format). Each
  // %[(key)][flags][width][.precision][length]type takes the next argument: an item of a tuple,
  // else args itself once; %(key) looks the key up in args (a mapping: any non-tuple, non-str
  // value with items, as CPython's PyMapping_Check) and that value is the next argument. Numbers
  // are written by format_value's rules, the flags mapped onto a format spec; errors in CPython's
  // words. A width or precision past kMaxFormatWidth is refused (CPython pads any that fits).
  static constexpr std::int64_t kMaxFormatWidth = 1000000;
  V percent_format(const std::string& fmt, const V& args) {
    const bool tuple = args->t == T::Tuple;
    const bool mapping = !tuple && (args->t == T::Dict || args->t == T::List ||
                                    args->t == T::Array || args->t == T::Range);
    // CPython's cursor: a tuple's items by index; any other value is handed out once (argidx -2
    // to -1). A %(key)'s value becomes the value handed out next.
    V current = args;
    std::int64_t arglen = tuple ? static_cast<std::int64_t>(args->items.size()) : -1;
    std::int64_t argidx = tuple ? 0 : -2;
    auto take = [&]() -> V {
      if (argidx < arglen) {
        const std::int64_t k = argidx++;
        return arglen < 0 ? current : current->items[static_cast<std::size_t>(k)];
      }
      return raise("TypeError", "not enough arguments for format string");
    };
    // A NumPy scalar's class as CPython's messages name it (numpy.float64), else the type's name.
    auto class_name = [&](const V& v) {
      if (np_scalar(v))
        return v->arr.dt == DType::Bool ? std::string("numpy.bool_")
                                        : "numpy." + dtype_name(v->arr.dt);
      return type_name(v);
    };
    // The number a numeric conversion reads: a NumPy array of one element as that element (its
    // __float__ / __int__), any other array refused as NumPy refuses it.
    auto number = [&](const V& v, bool index) -> V {
      if (v->t != T::Array) return v;
      if (index && !v->arr.dims.empty()) return v;  // __index__: 0-d arrays only
      if (v->arr.size() != 1)
        return raise("TypeError", "only size-1 arrays can be converted to Python scalars");
      if (v->arr.dt == DType::Bool) return mk_bool(v->arr.iat(0) != 0);
      return v->arr.is_float() ? mk_float(v->arr.at(0)) : mk_int(v->arr.iat(0));
    };
    std::string out;
    const std::size_t n = fmt.size();
    for (std::size_t i = 0; i < n;) {
      const char* pct = static_cast<const char*>(std::memchr(fmt.data() + i, '%', n - i));
      if (!pct) {
        out.append(fmt, i, std::string::npos);
        break;
      }
      const std::size_t at = static_cast<std::size_t>(pct - fmt.data());
      out.append(fmt, i, at - i);
      i = at + 1;
      if (i < n && fmt[i] == '%') {  // %%: a literal percent sign
        out += '%';
        ++i;
        continue;
      }
      if (i >= n) return raise("ValueError", "incomplete format");
      if (fmt[i] == '(') {  // %(key)s: a mapping's value (parentheses may nest in the key)
        if (!mapping) return raise("TypeError", "format requires a mapping");
        int depth = 1;
        const std::size_t k0 = ++i;
        while (i < n && depth > 0) {
          if (fmt[i] == '(') ++depth;
          if (fmt[i] == ')') --depth;
          ++i;
        }
        if (depth > 0) return raise("ValueError", "incomplete format key");
        current = subscript(args, mk_str(fmt.substr(k0, i - 1 - k0)));
        if (!current) return nullptr;
        arglen = -1;
        argidx = -2;
      }
      bool left = false, plus = false, space = false, alt = false, zero = false;
      for (; i < n; ++i) {
        const char c = fmt[i];
        if (c == '-')
          left = true;
        else if (c == '+')
          plus = true;
        else if (c == ' ')
          space = true;
        else if (c == '#')
          alt = true;
        else if (c == '0')
          zero = true;
        else
          break;
      }
      // A width or precision: digits, or '*' for the next argument, a Python int (a negative
      // width: left-aligned).
      auto read_number = [&](std::int64_t* to, bool width) -> bool {
        if (i < n && fmt[i] == '*') {
          ++i;
          V w = take();
          if (!w) return false;
          if ((w->t != T::Int && w->t != T::Bool) || is_big(w)) {
            raise("TypeError", "* wants int");
            return false;
          }
          *to = int_of(w);
          if (width && *to < 0) {
            left = true;
            *to = -*to;
          }
          if (!width && *to < 0) *to = 0;
        } else {
          while (i < n && std::isdigit(static_cast<unsigned char>(fmt[i]))) {
            *to = (*to < 0 ? 0 : *to) * 10 + (fmt[i++] - '0');
            if (*to > kMaxFormatWidth) break;
          }
        }
        if (*to > kMaxFormatWidth) {
          raise("ValueError", std::string(width ? "width" : "precision") +
                                  " too big for this notebook (at most " +
                                  std::to_string(kMaxFormatWidth) + ")");
          return false;
        }
        return true;
      };
      std::int64_t width = -1, prec = -1;
      if (!read_number(&width, true)) return nullptr;
      if (i < n && fmt[i] == '.') {
        ++i;
        prec = 0;
        if (!read_number(&prec, false)) return nullptr;
      }
      while (i < n && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L')) ++i;
      if (i >= n) return raise("ValueError", "incomplete format");
      const std::size_t type_at = i;
      const char type = fmt[i];
      i += 1;
      while (i < n && !utf8_lead(fmt[i])) ++i;  // past a multi-byte character
      V v = take();  // CPython takes the argument before it looks at the conversion
      if (!v) return nullptr;
      std::string body;  // the text before padding to the width
      if (type == 's' || type == 'r' || type == 'a') {
        const V before = exc_;
        body = type == 's' ? str(v) : repr(v);
        if (exc_ != before) return nullptr;
        if (type == 'a') body = ascii_escaped(body);
        if (prec >= 0 && static_cast<std::size_t>(prec) < utf8_length(body))
          body = utf8_prefix(body, static_cast<std::size_t>(prec));
      } else if (type == 'c') {
        V c = as_real(v);
        if (c->t == T::Str && utf8_length(c->s) == 1) {
          body = c->s;
        } else if (is_intlike(c) && !is_big(c) && int_of(c) >= 0 && int_of(c) <= 0x10FFFF) {
          append_utf8(body, static_cast<std::uint32_t>(int_of(c)));
        } else if (is_intlike(c)) {
          return raise("OverflowError", "%c arg not in range(0x110000)");
        } else {
          return raise("TypeError", "%c requires int or char");
        }
      } else if (std::string("diuxXo").find(type) != std::string::npos) {
        const bool decimal = type == 'd' || type == 'i' || type == 'u';
        V x = number(v, !decimal);
        if (!x) return nullptr;
        x = as_real(x);
        if (decimal) {
          if (!is_num(x))
            return raise("TypeError", std::string("%") + type +
                                          " format: a real number is required, not " +
                                          class_name(v));
          if (x->t == T::Float) x = to_int(x);
          if (!x) return nullptr;
        } else if (!is_intlike(x)) {
          return raise("TypeError", std::string("%") + type +
                                        " format: an integer is required, not " + class_name(v));
        }
        V text = format_value(x, std::string(1, decimal ? 'd' : type));
        if (!text) return nullptr;
        std::string digits = text->s;
        const bool neg = !digits.empty() && digits[0] == '-';
        if (neg) digits.erase(0, 1);
        if (prec > static_cast<std::int64_t>(digits.size()))
          digits.insert(0, static_cast<std::size_t>(prec) - digits.size(), '0');
        const std::string prefix = !alt          ? ""
                                   : type == 'x' ? "0x"
                                   : type == 'X' ? "0X"
                                   : type == 'o' ? "0o"
                                                 : "";
        const std::string sign = neg ? "-" : plus ? "+" : space ? " " : "";
        const std::size_t used = sign.size() + prefix.size() + digits.size();
        if (zero && !left && width > static_cast<std::int64_t>(used))
          digits.insert(0, static_cast<std::size_t>(width) - used, '0');
        body = sign + prefix + digits;
      } else if (std::string("eEfFgG").find(type) != std::string::npos) {
        V x = number(v, false);
        if (!x) return nullptr;
        x = as_real(x);
        if (!is_num(x)) return raise("TypeError", "must be real number, not " + class_name(v));
        if (is_big(x) && std::isinf(num_of(x)))
          return raise("OverflowError", "int too large to convert to float");
        std::string spec = left ? "<" : "";
        if (plus)
          spec += '+';
        else if (space)
          spec += ' ';
        if (alt) spec += '#';
        if (zero && !left) spec += '0';
        if (width > 0) spec += std::to_string(width);
        spec += "." + std::to_string(prec < 0 ? 6 : prec) + type;
        V text = format_value(mk_float(num_of(x)), spec);
        if (!text) return nullptr;
        out += text->s;
        continue;
      } else {
        // The character as CPython shows it: printable ASCII as itself, else '?'; its code point.
        std::uint32_t cp = static_cast<unsigned char>(type);
        const std::string ch = fmt.substr(type_at, i - type_at);
        if (cp >= 0x80) {
          const std::string escaped = ascii_escaped(ch);  // \xNN, \uNNNN or \UNNNNNNNN
          cp = static_cast<std::uint32_t>(std::stoul(escaped.substr(2), nullptr, 16));
        }
        char code[16];
        std::snprintf(code, sizeof code, "0x%x", cp);
        const std::string shown = cp > 32 && cp < 127 ? std::string(1, type) : "?";
        return raise("ValueError", "unsupported format character '" + shown + "' (" + code +
                                       ") at index " +
                                       std::to_string(utf8_length(fmt.substr(0, type_at))));
      }
      const std::size_t len = utf8_length(body);
      if (width > static_cast<std::int64_t>(len)) {
        const std::string pad(static_cast<std::size_t>(width) - len, ' ');
        body = left ? body + pad : pad + body;
      }
      out += body;
    }
    if (argidx < arglen && !mapping)
      return raise("TypeError", "not all arguments converted during string formatting");
    return mk_str(out);
  }

  // format(value, spec): Python's format-spec mini-language for int, float, str (and NumPy
  // scalars as floats/ints): [[fill]align][sign][#][0][width][,|_][.precision][type].
  V format_value(const V& v0, const std::string& spec) {
    V v = v0;
    if (spec.empty()) {
      const V before = exc_;
      std::string t = str(v);
      if (exc_ != before) return nullptr;
      return mk_str(t);
    }
    if (v->t == T::Array) {
      if (v->arr.size() != 1 || !v->arr.dims.empty())
        return raise("TypeError", "unsupported format string passed to numpy.ndarray.__format__");
      if (v->arr.is_float())
        v = mk_float(v->arr.f[0]);
      else if (v->arr.dt == DType::Bool)
        v = mk_bool(v->arr.i[0] != 0);
      else
        v = mk_int(v->arr.i[0]);
    }
    std::size_t i = 0;
    char fill = ' ', align = 0, sign = '-';
    bool alt = false, zero = false;
    if (spec.size() >= 2 &&
        (spec[1] == '<' || spec[1] == '>' || spec[1] == '^' || spec[1] == '=')) {
      fill = spec[0];
      align = spec[1];
      i = 2;
    } else if (!spec.empty() &&
               (spec[0] == '<' || spec[0] == '>' || spec[0] == '^' || spec[0] == '=')) {
      align = spec[0];
      i = 1;
    }
    if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) sign = spec[i++];
    if (i < spec.size() && spec[i] == '#') {
      alt = true;
      ++i;
    }
    if (i < spec.size() && spec[i] == '0') {
      zero = true;
      ++i;
    }
    std::size_t width = 0;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) {
      width = width * 10 + static_cast<std::size_t>(spec[i++] - '0');
      if (width > 10000) return raise("ValueError", "Too many decimal digits in format string");
    }
    char group = 0;
    if (i < spec.size() && (spec[i] == ',' || spec[i] == '_')) group = spec[i++];
    int prec = -1;
    if (i < spec.size() && spec[i] == '.') {
      ++i;
      if (i >= spec.size() || !std::isdigit(static_cast<unsigned char>(spec[i])))
        return raise("ValueError", "Format specifier missing precision");
      prec = 0;
      while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i]))) {
        prec = prec * 10 + (spec[i++] - '0');
        if (prec > 1000) return raise("ValueError", "precision too big");
      }
    }
    char type = 0;
    if (i < spec.size()) type = spec[i++];
    if (i != spec.size())
      return raise("ValueError", "Invalid format specifier '" + spec + "' for object of type '" +
                                     type_name(v) + "'");
    if (zero && !align) {
      fill = '0';
      align = '=';
    }
    std::string body, sgn;
    bool numeric = true;
    if (v->t == T::Str) {
      if (type && type != 's')
        return raise("ValueError",
                     std::string("Unknown format code '") + type + "' for object of type 'str'");
      if (sign != '-') return raise("ValueError", "Sign not allowed in string format specifier");
      if (align == '=')
        return raise("ValueError", "'=' alignment not allowed in string format specifier");
      body = prec >= 0 ? v->s.substr(0, static_cast<std::size_t>(prec)) : v->s;
      numeric = false;
    } else if (is_intlike(v) && (type == 0 || type == 'd' || type == 'b' || type == 'o' ||
                                 type == 'x' || type == 'X' || type == 'n' || type == 'c')) {
      if (prec >= 0)
        return raise("ValueError", "Precision not allowed in integer format specifier");
      if (is_big(v) && type == 'c') return raise("OverflowError", "%c arg not in range(0x110000)");
      const bool negv = is_big(v) ? v->big->neg : int_of(v) < 0;
      std::string digits;
      if (is_big(v)) {
        if (type == 'b' || type == 'o' || type == 'x' || type == 'X') {
          digits = v->big->to_pow2_base(type == 'b' ? 1 : type == 'o' ? 3 : 4, type == 'X');
          if (alt)
            digits = std::string(type == 'b'   ? "0b"
                                 : type == 'o' ? "0o"
                                 : type == 'X' ? "0X"
                                               : "0x") +
                     digits;
        } else {
          digits = v->big->to_decimal();
          if (negv) digits = digits.substr(1);
        }
      } else {
        std::uint64_t m = negv ? 0 - static_cast<std::uint64_t>(int_of(v))
                               : static_cast<std::uint64_t>(int_of(v));
        const int base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
        const char* dig = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        do {
          digits.insert(digits.begin(), dig[m % static_cast<std::uint64_t>(base)]);
          m /= static_cast<std::uint64_t>(base);
        } while (m);
        if (alt && base != 10)
          digits = std::string(type == 'b'   ? "0b"
                               : type == 'o' ? "0o"
                               : type == 'X' ? "0X"
                                             : "0x") +
                   digits;
      }
      if (group) {
        const std::size_t every =
            (type == 'b' || type == 'o' || type == 'x' || type == 'X') ? 4 : 3;
        std::string g;
        for (std::size_t k = 0; k < digits.size(); ++k) {
          if (k && (digits.size() - k) % every == 0) g += group;
          g += digits[k];
        }
        digits = g;
      }
      body = digits;
      sgn = negv ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "";
    } else if (is_num(v)) {
      if (type && std::string("eEfFgG%n").find(type) == std::string::npos)
        return raise("ValueError", std::string("Unknown format code '") + type +
                                       "' for object of type '" + type_name(v) + "'");
      double x = num_of(v);
      const bool negv = std::signbit(x) && !std::isnan(x);
      const double ax = std::fabs(x);
      if (!std::isfinite(ax)) {
        body = std::isnan(ax) ? "nan" : "inf";
        if (type == 'E' || type == 'F' || type == 'G') body = std::isnan(ax) ? "NAN" : "INF";
        if (type == '%') body += "%";
      } else if (type == 0 && prec < 0) {
        body = is_intlike(v) ? std::to_string(std::llabs(int_of(v))) : float_repr(ax);
      } else {
        char t = type == 0 ? 'g' : type == 'n' ? 'g' : type == '%' ? 'f' : type;
        const int p = prec < 0 ? 6 : prec;
        std::string f = alt ? "%#.*" : "%.*";
        f += t;
        char buf[1500];
        std::snprintf(buf, sizeof buf, f.c_str(), (t == 'g' || t == 'G') && p == 0 ? 1 : p,
                      type == '%' ? ax * 100 : ax);
        body = buf;
        if (type == 0) {
          // no type: like 'g', but a fixed-point result keeps at least one digit after the point
          if (body.find_first_of("e.n") == std::string::npos) body += ".0";
        }
        if (type == '%') body += "%";
      }
      if (group && body.find_first_of("0123456789") != std::string::npos) {
        auto end = body.find_first_not_of("0123456789");
        if (end == std::string::npos) end = body.size();
        std::string g;
        for (std::size_t k = 0; k < end; ++k) {
          if (k && (end - k) % 3 == 0) g += group;
          g += body[k];
        }
        body = g + body.substr(end);
      }
      sgn = negv ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "";
    } else {
      return raise("TypeError",
                   "unsupported format string passed to " + type_name(v) + ".__format__");
    }
    if (!align) align = numeric ? '>' : '<';
    std::string res = sgn + body;
    if (res.size() < width) {
      const std::size_t padn = width - res.size();
      if (align == '<')
        res += std::string(padn, fill);
      else if (align == '>')
        res = std::string(padn, fill) + res;
      else if (align == '^')
        res = std::string(padn / 2, fill) + res + std::string(padn - padn / 2, fill);
      else
        res = sgn + std::string(padn, fill) + body;
    }
    return mk_str(res);
  }

  V comprehension(const Expr& e) {
    // The first iterable is evaluated in the enclosing scope, as Python does.
    V first = eval(*e.kids[e.clauses[0].iter]);
    if (!first) return nullptr;
    auto inner = std::make_shared<Scope>();
    inner->parent = scope_ ? scope_ : nullptr;
    auto saved = scope_;
    // A comprehension's own scope sees the enclosing one (globals through the lookup's fallback).
    if (!scope_) inner->parent = nullptr;
    // A generator expression runs as its consumer asks, as CPython's does: sum(r * 2 for r in x)
    // over a traced array makes a row, then its product and sum, then the next row; a generator
    // is consumed once, has no len() and no items by index.
    if (e.s == "gen") {
      V c = iter_of(first);
      V it = c ? mk_iter("generator", {c}) : nullptr;
      if (!it) return nullptr;
      it->lambda = &e;
      it->closure = inner;
      it->items.push_back(c);
      return it;
    }
    scope_ = inner;
    V result = e.s == "dict" ? mk(T::Dict) : e.s == "set" ? mk_set() : mk(T::List);
    const bool ok = comp_clause(e, 0, result, first);
    scope_ = saved;
    if (!ok) return nullptr;
    return result;
  }
  // The next value of a lazy generator expression: its clauses are nested loops whose iterators
  // are a stack (items: the first clause's, then one per inner clause entered; an inner clause's
  // iterable is evaluated when its outer clause has given an item, as CPython does); the element
  // is evaluated, in the expression's own scope, once the innermost clause gives an item that
  // passes its conditions.
  // As CPython's: an exception raised in it ends it (a StopIteration becomes PEP 479's
  // RuntimeError), and asking it for an item while it makes one is a ValueError (b: running).
  int next_of_genexp(const V& it, V* out) {
    if (it->b) {
      raise("ValueError", "generator already executing");
      return -1;
    }
    it->b = true;
    const Expr& e = *it->lambda;
    auto saved = scope_;
    scope_ = it->closure;
    const int r = [&]() {
      for (;;) {
        if (it->items.empty()) return 0;
        const std::size_t k = it->items.size() - 1;
        const CompClause& cl = e.clauses[k];
        V x;
        const int more = next_of(it->items[k], &x);
        if (more < 0) return -1;
        if (more == 0) {  // this clause is spent: back to the one around it
          it->items.pop_back();
          continue;
        }
        if (!step() || !assign(*e.kids[cl.target], x)) return -1;
        bool pass = true;
        for (auto ci : cl.conditions) {
          V t = eval(*e.kids[ci]);
          if (!t) return -1;
          const int tv = truth(t);
          if (tv < 0) return -1;
          if (!tv) {
            pass = false;
            break;
          }
        }
        if (!pass) continue;
        if (k + 1 < e.clauses.size()) {  // enter the next clause
          V inner = eval(*e.kids[e.clauses[k + 1].iter]);
          V c = inner ? iter_of(inner) : nullptr;
          if (!c) return -1;
          it->items.push_back(c);
          continue;
        }
        *out = eval(*e.kids[0]);
        return *out ? 1 : -1;
      }
    }();
    scope_ = saved;
    it->b = false;
    if (r < 0) {
      it->items.clear();
      if (!fatal_ && exc_ && exc_->s == "StopIteration")
        raise("RuntimeError", "generator raised StopIteration");
    }
    return r;
  }
  bool comp_clause(const Expr& e, std::size_t c, const V& result, const V& first) {
    if (c == e.clauses.size()) {
      if (e.s == "dict") {
        V k = eval(*e.kids[0]);
        if (!k) return false;
        V v = eval(*e.kids[1]);
        if (!v) return false;
        return dict_set(result, k, v);
      }
      V v = eval(*e.kids[0]);
      if (!v) return false;
      if (result->t == T::Set) return set_add(result, v);
      result->items.push_back(v);
      return true;
    }
    const CompClause& cl = e.clauses[c];
    V it = c == 0 ? first : eval(*e.kids[cl.iter]);
    if (!it) return false;
    Cursor items;
    if (!open(it, &items)) return false;
    for (;;) {
      V x;
      const int more = next(items, &x);
      if (more < 0) return false;
      if (more == 0) break;
      if (!step()) return false;
      if (!assign(*e.kids[cl.target], x)) return false;
      bool pass = true;
      for (auto ci : cl.conditions) {
        V t = eval(*e.kids[ci]);
        if (!t) return false;
        const int tv = truth(t);
        if (tv < 0) return false;
        if (!tv) {
          pass = false;
          break;
        }
      }
      if (pass && !comp_clause(e, c + 1, result, first)) return false;
    }
    return true;
  }

  V eval_call(const Expr& e) {
    V fn = eval(*e.kids[0]);
    if (!fn) return nullptr;
    Args a;
    for (std::size_t k = 1; k < 1 + e.positional; ++k) {
      if (e.kids[k]->kind == EK::Starred) {
        V s = eval(*e.kids[k]->kids[0]);
        if (!s) return nullptr;
        std::vector<V> more;
        if (!iterate(s, &more)) return nullptr;
        a.pos.insert(a.pos.end(), more.begin(), more.end());
        continue;
      }
      V v = eval(*e.kids[k]);
      if (!v) return nullptr;
      a.pos.push_back(v);
    }
    for (std::size_t k = 0; k < e.names.size(); ++k) {
      V v = eval(*e.kids[1 + e.positional + k]);
      if (!v) return nullptr;
      for (auto& [n, x] : a.kw)
        if (n == e.names[k]) return raise("SyntaxError", "keyword argument repeated: " + n);
      a.kw.emplace_back(e.names[k], v);
    }
    at(e);
    return call(fn, a);
  }

  V call(const V& fn, const Args& a) {
    switch (fn->t) {
      case T::Func:
        return call_function(fn, a);
      case T::Builtin:
        return call_builtin(fn->s, a);
      case T::Method:
        return call_method(fn->self, fn->s, a);
      case T::ExcType: {
        auto ex = mk_named(T::Exc, fn->s);
        ex->items = a.pos;
        if (a.pos.size() == 1)
          ex->text = str(a.pos[0]);
        else if (a.pos.size() > 1)
          ex->text = repr(mk_seq(T::Tuple, a.pos));
        return ex;
      }
      case T::Jitted: {
        if (in_trace()) return traced_jitted(fn->self, a);
        if (lowering_)
          return raise("NotImplementedError",
                       "calling a jitted function runs it; this tool lowers it instead: write "
                       "jax.jit(f).lower(...)");
        V low = jit_lower(fn, a);
        if (!low) return nullptr;
        JitEntry* e = jit_entry(low);
        V comp = e && e->compiled ? e->compiled : compile(low);
        if (!comp) return nullptr;
        if (e) e->compiled = comp;
        return run_compiled(comp, a);
      }
      case T::Compiled:
        return run_compiled(fn, a);
      case T::DType: {
        V x = a.get(0, "x");
        if (!x) return raise("TypeError", dtype_name(fn->dt) + "() takes one argument here");
        if (x->t == T::Traced) {
          tr::Ref t = to_tr(x), d = t ? to_tr(fn) : nullptr;
          if (!d) return nullptr;
          return from_tr(trace_->convert(t, d->s));
        }
        if (!fn->s.empty()) {  // jnp.bfloat16(2.0): a traced (or a lowering run's) constant only
          if (trace_ && is_num(x) && !is_big(x))
            return from_tr(trace_->constant(num_of(x), fn->s, false));
          return raise("TypeError", dtype_text(fn) +
                                        " arrays are not supported on the host here "
                                        "(only in a function jax.jit traces)");
        }
        NdArray arr;
        if (!to_array(x, &arr)) return nullptr;
        arr.weak = false;
        if (fn->b) {  // jnp.float32(2.0): a JAX array, its dtype canonical (64-bit types off)
          arr.jax = true;
          return mk_array(astype(arr, canon(fn->dt, true)));
        }
        return mk_array(astype(arr, fn->dt));
      }
      default:
        return raise("TypeError", "'" + type_name(fn) + "' object is not callable");
    }
  }

  // A def's or a lambda's default values, evaluated once where it is made (as Python does).
  bool eval_defaults(const std::vector<Param>& params, const V& f) {
    for (auto& p : params) {
      V d = p.default_value ? eval(*p.default_value) : nullptr;
      if (p.default_value && !d) return false;
      f->defaults.push_back(d);
    }
    return true;
  }

  // A call of a def or a lambda: python/bind.h's binding (CPython's, its TypeErrors), then the
  // body in a scope of its own whose parent is the closure's.
  V call_function(const V& fn, const Args& a) {
    const bool is_lambda = fn->lambda != nullptr;
    const std::string name = is_lambda ? "<lambda>" : fn->def->s;
    const std::vector<Param>& params = is_lambda ? fn->lambda->params : fn->def->params;
    std::vector<bool> has_default;
    for (auto& d : fn->defaults) has_default.push_back(d != nullptr);
    std::vector<std::string> keywords;
    for (auto& [n, v] : a.kw) keywords.push_back(n);
    auto bound = bind_arguments(name, params, has_default, a.pos.size(), keywords);
    if (!bound) return raise("TypeError", bound.error());
    const Binding& b = bound.value();
    if (!b.missing.empty() || !b.missing_keyword_only.empty())
      return raise("TypeError", missing_message(name, params, b));
    if (static_cast<int>(stack_.size()) > kNotebookMaxCallDepth)
      return fatal("RecursionError", "maximum recursion depth exceeded (the notebook's limit is " +
                                         std::to_string(kNotebookMaxCallDepth) + " nested calls)");
    auto local = std::make_shared<Scope>();
    local->parent = fn->closure;
    for (std::size_t k = 0; k < params.size(); ++k) {
      const ArgSource& src = b.params[k];
      V v;
      if (src.kind == ArgSource::Positional) {
        v = a.pos[src.index];
      } else if (src.kind == ArgSource::Keyword) {
        v = a.kw[src.index].second;
      } else if (src.kind == ArgSource::Default) {
        v = fn->defaults[k];
      } else if (src.kind == ArgSource::VarArgs) {
        std::vector<V> rest;
        for (std::size_t j = src.index; j < a.pos.size(); ++j) rest.push_back(a.pos[j]);
        v = mk_seq(T::Tuple, std::move(rest));
      } else {
        v = mk(T::Dict);
        for (std::size_t j : b.extra_keywords)
          if (!dict_set(v, mk_str(a.kw[j].first), a.kw[j].second)) return nullptr;
      }
      local->vars[params[k].name] = v;
    }
    auto saved = scope_;
    const int call_line = at_line_, call_col = at_col_;  // the caller's place, back on return
    scope_ = local;
    stack_.push_back({name, is_lambda ? fn->lambda->line : fn->def->line, fn->file});
    V result;
    if (is_lambda) {
      stack_.back().line = fn->lambda->line;
      result = eval(*fn->lambda->kids[0]);
    } else {
      const Flow f = exec_block(fn->def->body);
      if (f == Flow::Raise)
        result = nullptr;
      else if (f == Flow::Return)
        result = ret_ ? ret_ : none_v();
      else
        result = none_v();
      ret_ = nullptr;
    }
    stack_.pop_back();
    scope_ = saved;
    if (result) at_line_ = call_line, at_col_ = call_col;
    return result;
  }

  // ---- statements ----
  Flow exec_block(const std::vector<StmtP>& body) {
    for (auto& s : body) {
      const Flow f = exec(*s);
      if (f != Flow::Next) return f;
    }
    return Flow::Next;
  }
  Flow exec(const Stmt& s) {
    Depth dg(*this);
    if (!dg.ok || !step()) return Flow::Raise;
    stack_.back().line = s.line;
    at_line_ = s.line, at_col_ = s.column;
    switch (s.kind) {
      case SK::Expr: {
        V v = eval(*s.value);
        if (!v) return Flow::Raise;
        if (&s == shown_) shown_value_ = std::move(v);  // a cell's last expression (run())
        return Flow::Next;
      }
      case SK::Assign: {
        V v = eval(*s.value);
        if (!v) return Flow::Raise;
        for (auto& t : s.targets)
          if (!assign(*t, v)) return Flow::Raise;
        return Flow::Next;
      }
      case SK::AnnAssign: {
        if (!s.value) return Flow::Next;
        V v = eval(*s.value);
        if (!v) return Flow::Raise;
        return assign(*s.targets[0], v) ? Flow::Next : Flow::Raise;
      }
      case SK::AugAssign: {
        const Expr& t = *s.targets[0];
        V cur = eval(t);
        if (!cur) return Flow::Raise;
        V rhs = eval(*s.value);
        if (!rhs) return Flow::Raise;
        V v;
        if (cur->t == T::Set && rhs->t == T::Set &&
            (s.s == "|" || s.s == "&" || s.s == "-" || s.s == "^")) {
          // set |= other updates in place (CPython's set_ior: a merge); the others as their
          // operators
          if (!charge(static_cast<double>(cur->items.size() + rhs->items.size())))
            return Flow::Raise;
          if (s.s == "|") {
            set_merge(cur, rhs);
            v = cur;
          } else if (s.s == "-") {
            set_difference_update(cur, rhs);
            v = cur;
          } else if (s.s == "^") {
            set_symmetric_difference_update(cur, rhs);
            v = cur;
          } else {
            V r = set_binop(s.s, cur, rhs);
            if (!r) return Flow::Raise;
            cur->items = std::move(r->items);
            cur->hashes = std::move(r->hashes);
            cur->used = r->used;
            cur->fill = r->fill;
            v = cur;
          }
        } else if (s.s == "+" && cur->t == T::List) {  // list += iterable extends in place
          std::vector<V> more;
          if (!iterate(rhs, &more)) return Flow::Raise;
          cur->items.insert(cur->items.end(), more.begin(), more.end());
          v = cur;
        } else if (cur->t == T::Array && !cur->arr.jax && !np_scalar(cur)) {
          // A NumPy array is updated in place (ndarray.__iadd__...): every name bound to it, and
          // every array sharing its memory, sees the new values. A target x[i] (a view of x) has
          // then written them into x already.
          if (!array_in_place(s.s, cur, rhs)) return Flow::Raise;
          wrote(cur, -1);
          if (t.kind == EK::Subscript && cur->view) return Flow::Next;
          v = cur;
        } else {
          v = binop(s.s, cur, rhs);
        }
        if (!v) return Flow::Raise;
        return assign(t, v) ? Flow::Next : Flow::Raise;
      }
      case SK::Return: {
        if (!scope_) {
          raise("SyntaxError", "'return' outside function");
          return Flow::Raise;
        }
        if (s.value) {
          ret_ = eval(*s.value);
          if (!ret_) return Flow::Raise;
        } else {
          ret_ = none_v();
        }
        return Flow::Return;
      }
      case SK::Def: {
        auto f = mk(T::Func);
        f->def = &s;
        f->file = file_;
        f->closure = scope_;
        if (!eval_defaults(s.params, f)) return Flow::Raise;
        V bound = f;
        for (auto it = s.decorators.rbegin(); it != s.decorators.rend(); ++it) {
          V d = eval(**it);
          if (!d) return Flow::Raise;
          Args a;
          a.pos.push_back(bound);
          bound = call(d, a);
          if (!bound) return Flow::Raise;
        }
        current().vars[s.s] = bound;
        return Flow::Next;
      }
      case SK::Import:
        for (auto& al : s.aliases) {
          if (!known_module(al.name)) {
            raise("ModuleNotFoundError", "No module named '" + al.name + "' (the notebook has " +
                                             std::string(kModulesHad) + ")");
            return Flow::Raise;
          }
          if (!al.as.empty())
            current().vars[al.as] = mk_named(T::Module, al.name);
          else
            current().vars[al.name.substr(0, al.name.find('.'))] =
                mk_named(T::Module, al.name.substr(0, al.name.find('.')));
        }
        return Flow::Next;
      case SK::ImportFrom:
        for (auto& al : s.aliases) {
          if (!known_module(s.s)) {
            raise("ModuleNotFoundError", "No module named '" + s.s + "' (the notebook has " +
                                             std::string(kModulesHad) + ")");
            return Flow::Raise;
          }
          V v = attribute(mk_named(T::Module, s.s), al.name);
          if (!v) {
            exc_->s = "ImportError";
            exc_->text = "cannot import name '" + al.name + "' from '" + s.s + "'";
            return Flow::Raise;
          }
          current().vars[al.as.empty() ? al.name : al.as] = v;
        }
        return Flow::Next;
      case SK::If: {
        V c = eval(*s.value);
        if (!c) return Flow::Raise;
        const int t = truth(c);
        if (t < 0) return Flow::Raise;
        return exec_block(t ? s.body : s.orelse);
      }
      case SK::While:
        while (true) {
          V c = eval(*s.value);
          if (!c) return Flow::Raise;
          const int t = truth(c);
          if (t < 0) return Flow::Raise;
          if (!t) return exec_block(s.orelse);
          const Flow f = exec_block(s.body);
          if (f == Flow::Break) return Flow::Next;
          if (f == Flow::Return || f == Flow::Raise) return f;
          if (!step()) return Flow::Raise;
        }
      case SK::For: {
        V it = eval(*s.value);
        if (!it) return Flow::Raise;
        Cursor items;
        if (!open(it, &items)) return Flow::Raise;
        for (;;) {
          V x;
          const int more = next(items, &x);
          if (more < 0) return Flow::Raise;
          if (more == 0) break;
          if (!step()) return Flow::Raise;
          stack_.back().line = s.line;
          if (!assign(*s.targets[0], x)) return Flow::Raise;
          const Flow f = exec_block(s.body);
          if (f == Flow::Break) return Flow::Next;
          if (f == Flow::Return || f == Flow::Raise) return f;
        }
        return exec_block(s.orelse);
      }
      case SK::Pass:
        return Flow::Next;
      case SK::Break:
        return Flow::Break;
      case SK::Continue:
        return Flow::Continue;
      case SK::Assert: {
        V c = eval(*s.extra[0]);
        if (!c) return Flow::Raise;
        const int t = truth(c);
        if (t < 0) return Flow::Raise;
        if (t) return Flow::Next;
        std::string msg;
        if (s.extra.size() > 1) {
          V m = eval(*s.extra[1]);
          if (!m) return Flow::Raise;
          msg = str(m);
        }
        raise("AssertionError", msg);
        return Flow::Raise;
      }
      case SK::Raise: {
        if (s.extra.empty()) {
          if (!handling_.empty()) {
            raise_value(handling_.back());
            return Flow::Raise;
          }
          raise("RuntimeError", "No active exception to reraise");
          return Flow::Raise;
        }
        V x = eval(*s.extra[0]);
        if (!x) return Flow::Raise;
        if (x->t == T::ExcType) x = call(x, Args{});
        if (x->t != T::Exc) {
          raise("TypeError", "exceptions must derive from BaseException");
          return Flow::Raise;
        }
        raise_value(x);
        return Flow::Raise;
      }
      case SK::Del:
        for (auto& t : s.extra) {
          if (t->kind != EK::Name) {
            raise("NotImplementedError", "del is supported here for names only");
            return Flow::Raise;
          }
          if (!current().vars.erase(t->s)) {
            raise("NameError", "name '" + t->s + "' is not defined");
            return Flow::Raise;
          }
        }
        return Flow::Next;
      case SK::Global:
      case SK::Nonlocal:
        raise("NotImplementedError", "global and nonlocal are not supported here yet");
        return Flow::Raise;
      case SK::With:
        raise("NotImplementedError", "with statements are not supported here yet");
        return Flow::Raise;
      case SK::Try:
        return exec_try(s);
    }
    raise("SyntaxError", "unsupported statement");
    return Flow::Raise;
  }

  // try / except TYPE as NAME / else / finally. A limit's error (fatal_) is never caught.
  Flow exec_try(const Stmt& s) {
    Flow f = exec_block(s.body);
    if (f == Flow::Raise && !fatal_) {
      const V e = exc_;
      for (const auto& h : s.handlers) {
        bool match = !h.type;
        if (h.type) {
          V t = eval(*h.type);
          if (!t) return Flow::Raise;
          std::vector<V> types = t->t == T::Tuple ? t->items : std::vector<V>{t};
          for (auto& ty : types) {
            if (ty->t != T::ExcType) {
              raise("TypeError",
                    "catching classes that do not inherit from BaseException is not allowed");
              return Flow::Raise;
            }
            match = match || exc_matches(e->s, ty->s);
          }
        }
        if (!match) continue;
        exc_ = nullptr;
        exc_tb_.clear();
        if (!h.name.empty()) current().vars[h.name] = e;
        handling_.push_back(e);
        f = exec_block(h.body);
        handling_.pop_back();
        if (!h.name.empty()) current().vars.erase(h.name);
        break;
      }
    } else if (f == Flow::Next) {
      f = exec_block(s.orelse);
    }
    if (!s.finalbody.empty() && !fatal_) {
      const V saved = exc_, saved_ret = ret_;
      const auto saved_tb = exc_tb_;
      const int saved_line = exc_line_, saved_col = exc_col_;
      exc_ = nullptr;
      const Flow g = exec_block(s.finalbody);
      if (g != Flow::Next) return g;
      exc_ = saved;
      exc_tb_ = saved_tb;
      exc_line_ = saved_line, exc_col_ = saved_col;
      ret_ = saved_ret;
    }
    return f;
  }

  // ---- modules and attributes ----
  static constexpr const char* kModulesHad =
      "time, math, numpy, numpy.testing, jax, jax.numpy, jax.lax, jax.nn, jax.scipy.special, "
      "jax.config";
  static bool known_module(const std::string& m) {
    return m == "time" || m == "numpy" || m == "jax" || m == "jax.numpy" || m == "numpy.testing" ||
           m == "math" || m == "jax.nn" || m == "jax.lax" || m == "jax.scipy" ||
           m == "jax.scipy.special" || m == "jax.lax.RoundingMethod" || m == "numpy.random" ||
           m == "jax.config";
  }
  V attribute(const V& obj, const std::string& name) {
    // jax.Array's .at (JAX's _IndexUpdateHelper), x.at[i] (an _IndexUpdateRef) and its methods:
    // Methods named "at" and "at[]" (self the array; items the index), called by index_update.
    if (name == "at" && (obj->t == T::Traced || (obj->t == T::Array && obj->arr.jax))) {
      auto m = mk(T::Method);
      m->s = "at";
      m->self = obj;
      return m;
    }
    if (obj->t == T::Method && obj->s == "at[]") {
      const auto& methods = tr::index_update_methods();
      if (std::find(methods.begin(), methods.end(), name) == methods.end())
        return raise("AttributeError", tr::index_update_refusal(name));
      auto m = mk(T::Method);
      m->s = name;
      m->self = obj;
      return m;
    }
    if (obj->t == T::Method && obj->s == "at")
      return raise("AttributeError", "'_IndexUpdateHelper' object has no attribute '" + name + "'");
    if (name == "__name__") {  // a class's, a function's or a builtin's own name
      if (obj->t == T::ExcType) return mk_str(obj->s);
      if (obj->t == T::Func) return mk_str(obj->lambda ? "<lambda>" : obj->def->s);
      if (obj->t == T::Builtin) return mk_str(obj->s.substr(obj->s.rfind('.') + 1));
    }
    switch (obj->t) {
      case T::Module:
        return module_attr(obj->s, name);
      case T::SDS:
        if (name == "shape") return mk_seq(T::Tuple, obj->items);
        if (name == "ndim") return mk_int(static_cast<std::int64_t>(obj->items.size()));
        if (name == "dtype") {
          auto d = mk(T::DType);
          d->dt = obj->dt;
          d->s = obj->s;
          return d;
        }
        return raise("AttributeError", "'ShapeDtypeStruct' object has no attribute '" + name +
                                           "' (or it is not "
                                           "supported here: shape, ndim, dtype)");
      case T::Traced: {
        const auto& dims = obj->tv->aval.dims;  // static: known after the trace too, as in JAX
        if (name == "shape") {
          std::vector<V> d;
          for (auto n : dims) d.push_back(mk_int(n));
          return mk_seq(T::Tuple, std::move(d));
        }
        if (name == "ndim") return mk_int(static_cast<std::int64_t>(dims.size()));
        if (name == "size") {
          std::int64_t n = 1;
          for (auto k : dims) n *= k;
          return mk_int(n);
        }
        if (name == "dtype") {
          auto d = tr_value(tr::K::DType);
          d->s = obj->tv->aval.dtype;
          return from_tr(d);
        }
        tr::Ref x = to_tr(obj);
        if (!x) return nullptr;
        auto r = trace_->attribute(x, name);
        if (r && r.value()->k == tr::K::Method) {  // called through call_method
          auto m = mk(T::Method);
          m->s = name;
          m->self = obj;
          return m;
        }
        return from_tr(std::move(r));
      }
      case T::Array: {
        const NdArray& x = obj->arr;
        if (name == "shape") {
          std::vector<V> d;
          for (auto n : x.dims) d.push_back(mk_int(n));
          return mk_seq(T::Tuple, std::move(d));
        }
        if (name == "dtype") {
          auto d = mk(T::DType);
          d->dt = x.dt;
          return d;
        }
        if (name == "ndim") return mk_int(static_cast<std::int64_t>(x.dims.size()));
        if (name == "size") return mk_int(x.size());
        if (name == "T") {  // all axes reversed, a view (an array of rank < 2 is its own)
          if (x.dims.size() < 2) return obj;
          return np_transpose(obj, x, {});
        }
        static const char* methods[] = {"reshape", "tolist",    "astype",
                                        "sum",     "prod",      "mean",
                                        "max",     "min",       "block_until_ready",
                                        "item",    "flatten",   "copy",
                                        "all",     "any",       "sort",
                                        "round",   "fill",      "argmax",
                                        "argmin",  "cumsum",    "cumprod",
                                        "var",     "std",       "clip",
                                        "squeeze", "transpose", "ravel"};
        for (const char* m : methods)
          if (name == m) return bound(obj, name);
        break;
      }
      case T::List: {
        static const char* methods[] = {"append", "extend", "pop",     "insert", "index",
                                        "count",  "sort",   "reverse", "copy",   "clear"};
        for (const char* m : methods)
          if (name == m) return bound(obj, name);
        break;
      }
      case T::Set: {
        static const char* methods[] = {
            "add",      "discard",      "remove",     "update",
            "union",    "intersection", "difference", "symmetric_difference",
            "issubset", "issuperset",   "isdisjoint", "copy",
            "clear"};
        for (const char* m : methods)
          if (name == m) return bound(obj, name);
        break;
      }
      case T::Dict: {
        static const char* methods[] = {"keys", "values", "items",      "get",
                                        "pop",  "update", "setdefault", "copy"};
        for (const char* m : methods)
          if (name == m) return bound(obj, name);
        break;
      }
      case T::Str: {
        static const char* methods[] = {"join",  "split",   "upper",      "lower",
                                        "strip", "replace", "startswith", "endswith",
                                        "find",  "format",  "count",      "splitlines"};
        for (const char* m : methods)
          if (name == m) return bound(obj, name);
        break;
      }
      case T::Tuple:
        if (name == "index" || name == "count") return bound(obj, name);
        break;
      case T::Exc:
        if (name == "args") return mk_seq(T::Tuple, obj->items);
        break;
      case T::Jitted:
        if (name == "lower") return bound(obj, name);
        break;
      case T::Lowered:
        if (name == "compiler_ir" || name == "as_text" || name == "compile")
          return bound(obj, name);
        break;
      case T::Compiled:
        if (name == "cost_analysis" || name == "as_text") return bound(obj, name);
        break;
      case T::DType:
        if (name == "name") return mk_str(dtype_name(obj->dt));
        if (name == "itemsize")
          return mk_int(obj->dt == DType::Bool                                 ? 1
                        : obj->dt == DType::Int32 || obj->dt == DType::Float32 ? 4
                                                                               : 8);
        break;
      case T::Float:
        if (name == "is_integer") return bound(obj, name);
        if (name == "real") return obj;
        if (name == "imag") return mk_float(0.0);
        break;
      case T::Int:
      case T::Bool:
        if (name == "real" || name == "numerator") return obj->t == T::Bool ? mk_int(obj->b) : obj;
        if (name == "imag") return mk_int(0);
        if (name == "denominator") return mk_int(1);
        if (name == "bit_length" || name == "bit_count") return bound(obj, name);
        break;
      default:
        break;
    }
    return no_attribute(obj, name);
  }
  // AttributeError for an attribute the value lacks here: a NumPy or JAX array's real method or
  // attribute says it is not supported here (rather than that it does not exist).
  // Whether NumPy's or JAX's arrays have this attribute (whether or not the notebook models it).
  static bool array_attribute_name(const std::string& name, bool jax) {
    // What only one of the two has: NumPy 1.24's ndarray, JAX's Array.
    static const char* const kJaxOnly[] = {"at", "device", "devices", "sharding", "mT"};
    static const char* const kNumpyOnly[] = {"base",    "flags",   "tofile",    "dump",
                                             "dumps",   "itemset", "put",       "resize",
                                             "strides", "fill",    "partition", "data"};
    if (jax) {
      for (const char* n : kNumpyOnly)
        if (name == n) return false;
    } else {
      for (const char* n : kJaxOnly)
        if (name == n) return false;
    }
    static const char* const kArrayNames[] = {
        "all",          "any",      "argmax",    "argmin",  "argpartition", "argsort", "astype",
        "at",           "base",     "choose",    "clip",    "compress",     "conj",    "conjugate",
        "copy",         "cumprod",  "cumsum",    "data",    "device",       "devices", "diagonal",
        "dot",          "dtype",    "dump",      "dumps",   "fill",         "flags",   "flat",
        "flatten",      "imag",     "item",      "itemset", "itemsize",     "max",     "mean",
        "min",          "nbytes",   "ndim",      "nonzero", "partition",    "prod",    "ptp",
        "put",          "ravel",    "real",      "repeat",  "reshape",      "resize",  "round",
        "searchsorted", "sharding", "shape",     "size",    "sort",         "squeeze", "std",
        "strides",      "sum",      "swapaxes",  "T",       "take",         "tobytes", "tofile",
        "tolist",       "trace",    "transpose", "var",     "view",         "mT"};
    for (const char* n : kArrayNames)
      if (name == n) return true;
    return false;
  }
  V no_attribute(const V& obj, const std::string& name) {
    const bool real = obj->t == T::Array && array_attribute_name(name, obj->arr.jax);
    return raise("AttributeError", "'" + type_name(obj) + "' object has no attribute '" + name +
                                       "'" + (real ? " (not supported here)" : ""));
  }
  static V bound(const V& self, const std::string& name) {
    auto m = mk_named(T::Method, name);
    m->self = self;
    return m;
  }
  // The functions the notebook runs on host arrays itself (np.X; jnp.X for those of jax.numpy).
  static constexpr const char* kHostFns[] = {
      "array",     "asarray", "arange",      "linspace", "zeros",   "ones",    "full",
      "sort",      "append",  "concatenate", "minimum",  "maximum", "where",   "all",
      "any",       "isclose", "allclose",    "sqrt",     "exp",     "log",     "tanh",
      "abs",       "sum",     "prod",        "mean",     "max",     "min",     "matmul",
      "sin",       "cos",     "floor",       "ceil",     "dot",     "reshape", "zeros_like",
      "ones_like", "add",     "subtract",    "multiply", "divide",  "round",   "around"};
  // The functions the notebook runs on host NumPy arrays only (jnp's are the tracer's).
  static constexpr const char* kNumpyOnlyFns[] = {
      "eye",    "identity", "tri",      "tril",  "triu",  "square",  "sign",      "negative",
      "isnan",  "isinf",    "isfinite", "log2",  "log10", "exp2",    "argmax",    "argmin",
      "cumsum", "cumprod",  "var",      "std",   "clip",  "squeeze", "transpose", "expand_dims",
      "stack",  "vstack",   "hstack",   "outer", "ravel"};
  static bool host_name(const std::string& q) {
    // np.X and jnp.X only: lax.max, lax.round, lax.sort... are lax's, never NumPy's namesakes.
    if (q.rfind("np.", 0) != 0 && q.rfind("jnp.", 0) != 0) return false;
    const auto dot = q.find('.');
    for (const char* f : kHostFns)
      if (q.compare(dot + 1, std::string::npos, f) == 0) return true;
    return false;
  }
  // A name of jax.numpy, jax.lax, jax.nn or jax.scipy (as python/tracer.h spells them).
  static bool traced_name(const std::string& q) {
    return q.rfind("jnp.", 0) == 0 || q.rfind("lax.", 0) == 0 || q.rfind("jax.nn.", 0) == 0 ||
           q.rfind("jax.scipy.", 0) == 0;
  }
  V module_attr(const std::string& mod, const std::string& name) {
    const std::string q = mod + "." + name;
    if (known_module(q)) return mk_named(T::Module, q);
    // lax.RoundingMethod's members as the ints they are (an IntEnum): lax.round takes either.
    if (mod == "jax.lax.RoundingMethod") {
      if (name == "AWAY_FROM_ZERO") return mk_int(0);
      if (name == "TO_NEAREST_EVEN") return mk_int(1);
      return raise("AttributeError",
                   "type object 'RoundingMethod' has no attribute '" + name + "'");
    }
    if (mod == "numpy" || mod == "jax.numpy") {
      DType t;
      if (numpy_dtype_named(name, &t)) {
        // One object per name, as a class is (np.float32 is np.float32).
        // np.float_ and np.int_ are np.float64 and np.int64 themselves.
        const std::string alias = name == "float_" ? mod + ".float64"
                                  : name == "int_" ? mod + ".int64"
                                                   : q;
        V& d = dtype_classes_[alias];
        if (!d) {
          d = mk(T::DType);
          d->dt = t;
          d->b = mod == "jax.numpy";  // called, it makes a JAX array
          d->i = 1;                   // the scalar type (np.float32), not a dtype instance
        }
        return d;
      }
      if (mod == "jax.numpy")
        if (const char* m = dtype_mlir_name(name)) {  // a dtype only traced arrays have here
          auto d = mk(T::DType);
          d->dt = DType::Float32;
          d->s = m;
          d->b = true;
          d->i = 1;
          return d;
        }
      if (name == "pi") return mk_float(3.141592653589793);
      if (name == "e") return mk_float(2.718281828459045);
      if (name == "inf") return mk_float(std::numeric_limits<double>::infinity());
      if (name == "nan") return mk_float(std::nan(""));
      if (name == "newaxis") return none_v();
      if ((name == "True_" || name == "False_") && mod == "numpy") {  // NumPy's bool scalars
        NdArray b;
        b.dt = DType::Bool;
        b.i = {name == "True_" ? 1 : 0};
        return mk_array(std::move(b));
      }
      for (const char* f : kHostFns)
        if (name == f)
          return mk_named(T::Builtin, std::string(mod == "numpy" ? "np." : "jnp.") + name);
      if (mod == "numpy")
        for (const char* f : kNumpyOnlyFns)
          if (name == f) return mk_named(T::Builtin, "np." + name);
    }
    // The rest of jax.numpy, and jax.lax, jax.nn, jax.scipy.special: the tracer's names.
    const std::string short_mod = mod == "jax.numpy" ? "jnp" : mod == "jax.lax" ? "lax" : mod;
    if (mod == "jax.numpy" || mod == "jax.lax" || mod == "jax.nn" || mod == "jax.scipy.special") {
      if (supported_name(short_mod + "." + name))
        return mk_named(T::Builtin, short_mod + "." + name);
      std::string known;
      for (const auto& n : supported_names())
        if (n.compare(0, short_mod.size() + 1, short_mod + ".") == 0)
          known += (known.empty() ? "" : ", ") + n;
      // The tool's words (a lowering run gives them without Python's type).
      raise("AttributeError",
            short_mod + "." + name + " is not supported here; supported: " + known);
      exc_->b = true;
      return nullptr;
    }
    if (mod == "numpy.random") {
      static const char* const kLegacy[] = {"seed",   "rand",          "randn",
                                            "random", "random_sample", "uniform",
                                            "normal", "randint",       "standard_normal"};
      for (const char* f : kLegacy)
        if (name == f) return mk_named(T::Builtin, "np.random." + name);
      return raise("AttributeError",
                   "module 'numpy.random' has no attribute '" + name +
                       "' (not supported here: NumPy's legacy seed, rand, randn, random, "
                       "random_sample, uniform, normal, randint and standard_normal are)");
    }
    if (mod == "jax.config") {  // jax.config.update and the one option modelled
      if (name == "update") return mk_named(T::Builtin, "jax.config.update");
      if (name == "jax_enable_x64") return mk_bool(x64_);
      return raise("AttributeError", "'Config' object has no attribute '" + name +
                                         "' (not supported here: update and jax_enable_x64 are)");
    }
    if (mod == "numpy.testing" && (name == "assert_allclose" || name == "assert_array_equal"))
      return mk_named(T::Builtin, "np.testing." + name);
    if (mod == "jax" &&
        (name == "jit" || name == "block_until_ready" || name == "ShapeDtypeStruct"))
      return mk_named(T::Builtin, "jax." + name);
    if (mod == "time" && (name == "perf_counter" || name == "time"))
      return mk_named(T::Builtin, "time." + name);
    if (mod == "math") {
      if (name == "pi") return mk_float(3.141592653589793);
      if (name == "inf") return mk_float(std::numeric_limits<double>::infinity());
      static const char* fns[] = {"sqrt", "exp",     "log",   "tanh",  "floor",
                                  "ceil", "isclose", "isnan", "isinf", "fabs"};
      for (const char* f : fns)
        if (name == f) return mk_named(T::Builtin, std::string("math.") + name);
    }
    const std::string shown = mod == "numpy" ? "numpy" : mod == "jax.numpy" ? "jax.numpy" : mod;
    return raise("AttributeError",
                 "module '" + shown + "' has no attribute '" + name + "' (not supported here)");
  }

  // ---- builtins ----
  V need(const Args& a, std::size_t i, const std::string& name, const std::string& fn) {
    V v = a.get(i, name);
    if (!v)
      return raise("TypeError", fn + "() missing required argument '" + name + "' (pos " +
                                    std::to_string(i + 1) + ")");
    return v;
  }
  V print(const Args& a) {
    if (lowering_) return none_v();  // a lowering run prints nothing
    std::string sep = " ", end = "\n";
    for (auto& [k, v] : a.kw) {
      if (k == "sep" || k == "end") {
        if (v->t != T::None && v->t != T::Str)
          return raise("TypeError", k + " must be None or a string, not " + type_name(v));
        if (v->t == T::Str) (k == "sep" ? sep : end) = v->s;
      } else if (k != "flush") {
        return raise("TypeError", "'" + k + "' is an invalid keyword argument for print()");
      }
    }
    std::string line;
    const V before = exc_;
    for (std::size_t k = 0; k < a.pos.size(); ++k) line += (k ? sep : "") + str(a.pos[k]);
    if (exc_ != before) return nullptr;
    out_ += line + end;
    if (out_.size() > (std::size_t(16) << 20))
      return fatal("RuntimeError", "the program printed past 16 MiB; it was stopped");
    return none_v();
  }
  // int(x), float(x), bool(x) of a traced array: it has no value while tracing (JAX's error).
  std::nullptr_t concrete_error(const V& x, const std::string& fn) {
    if (!traced_live(x)) return nullptr;
    return raise("ConcretizationTypeError",
                 "Abstract tracer value encountered where concrete value is expected: traced "
                 "array with shape " +
                     traced_aval(x) + ". The problem arose with the `" + fn + "` function.");
  }
  V to_int(const V& x) {
    if (x->t == T::Traced) return concrete_error(x, "int");
    if (is_intlike(x)) return mk_int(int_of(x));
    if (x->t == T::Float) {
      if (std::isnan(x->f)) return raise("ValueError", "cannot convert float NaN to integer");
      if (std::isinf(x->f))
        return raise("OverflowError", "cannot convert float infinity to integer");
      if (std::fabs(x->f) >= 9.2233720368547758e18) {
        int ex = 0;
        const double m = std::frexp(std::fabs(x->f), &ex);  // |f| = m * 2^ex, m in [0.5, 1)
        BigInt b = BigInt::of(static_cast<std::int64_t>(std::ldexp(m, 53)));
        for (int k = 53; k < ex; k += 30)
          b = mul(b, BigInt::of(std::int64_t(1) << std::min(30, ex - k)));
        if (x->f < 0) b = sub(BigInt::of(0), b);
        return make_int(b);
      }
      return mk_int(static_cast<std::int64_t>(x->f));
    }
    if (x->t == T::Str) {
      std::string s = x->s;
      const auto b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
      std::string t = b == std::string::npos ? "" : s.substr(b, e - b + 1);
      std::string digits;
      for (char c : t)
        if (c != '_') digits += c;
      bool ok = !digits.empty();
      std::size_t k = (ok && (digits[0] == '-' || digits[0] == '+')) ? 1 : 0;
      ok = ok && k < digits.size();
      for (std::size_t j = k; ok && j < digits.size(); ++j)
        ok = std::isdigit(static_cast<unsigned char>(digits[j])) != 0;
      if (!ok)
        return raise("ValueError", "invalid literal for int() with base 10: " + str_repr(x->s));
      if (digits.size() - k > static_cast<std::size_t>(kNotebookMaxIntDigits))
        return raise("ValueError",
                     "Exceeds the limit (4300 digits) for integer string conversion: value has " +
                         std::to_string(digits.size() - k) +
                         " digits; use sys.set_int_max_str_digits() to increase the limit");
      BigInt big;
      if (!BigInt::parse(digits.substr(k), 10, &big)) return overflow();
      if (digits[0] == '-') big = sub(BigInt::of(0), big);
      return make_int(big);
    }
    if (x->t == T::Array && x->arr.size() == 1) {
      if (x->arr.is_float()) return to_int(mk_float(x->arr.f[0]));
      return mk_int(x->arr.i[0]);
    }
    if (x->t == T::Array)
      return raise("TypeError", "only length-1 arrays can be converted to Python scalars");
    return raise("TypeError",
                 "int() argument must be a string, a bytes-like object or a real number, not '" +
                     type_name(x) + "'");
  }
  V to_float(const V& x) {
    if (x->t == T::Traced) return concrete_error(x, "float");
    if (is_num(x)) return mk_float(num_of(x));
    if (x->t == T::Str) {
      std::string t = x->s;
      const auto b = t.find_first_not_of(" \t\n"), e = t.find_last_not_of(" \t\n");
      t = b == std::string::npos ? "" : t.substr(b, e - b + 1);
      std::string low;
      for (char c : t) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (low == "inf" || low == "+inf" || low == "infinity")
        return mk_float(std::numeric_limits<double>::infinity());
      if (low == "-inf" || low == "-infinity")
        return mk_float(-std::numeric_limits<double>::infinity());
      if (low == "nan" || low == "+nan" || low == "-nan") return mk_float(std::nan(""));
      char* endp = nullptr;
      const double v = t.empty() ? 0 : std::strtod(t.c_str(), &endp);
      if (t.empty() || *endp != 0 || low.find("x") != std::string::npos ||
          low.find("n") != std::string::npos)
        return raise("ValueError", "could not convert string to float: " + str_repr(x->s));
      return mk_float(v);
    }
    if (x->t == T::Array && x->arr.size() == 1) return mk_float(x->arr.at(0));
    if (x->t == T::Array)
      return raise("TypeError", "only length-1 arrays can be converted to Python scalars");
    return raise("TypeError",
                 "float() argument must be a string or a real number, not '" + type_name(x) + "'");
  }
  V min_max(bool is_max, const Args& a) {
    const std::string fn = is_max ? "max" : "min";
    std::vector<V> items;
    if (a.pos.size() == 1) {
      if (!iterate(a.pos[0], &items)) return nullptr;
      if (items.empty()) {
        if (V d = a.get(99, "default")) return d;
        return raise("ValueError", fn + "() arg is an empty sequence");
      }
    } else if (a.pos.empty()) {
      return raise("TypeError", fn + " expected at least 1 argument, got 0");
    } else {
      items = a.pos;
    }
    V key = a.get(99, "key");
    V best = items[0], best_k = key ? call(key, Args{{items[0]}, {}}) : items[0];
    if (!best_k) return nullptr;
    for (std::size_t k = 1; k < items.size(); ++k) {
      V kk = key ? call(key, Args{{items[k]}, {}}) : items[k];
      if (!kk) return nullptr;
      const int r = compare_lt(kk, best_k, is_max ? ">" : "<");
      if (r < 0) return nullptr;
      if (r) {
        best = items[k];
        best_k = kk;
      }
    }
    return best;
  }
  bool sort_values(std::vector<V>& items, const V& key, bool reverse) {
    std::vector<V> keys;
    for (auto& x : items) {
      V k = key ? call(key, Args{{x}, {}}) : x;
      if (!k) return false;
      keys.push_back(k);
    }
    std::vector<std::size_t> order(items.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    bool failed = false;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      if (failed) return false;
      const int r = reverse ? compare_lt(keys[y], keys[x], "<") : compare_lt(keys[x], keys[y], "<");
      if (r < 0) failed = true;
      return r == 1;
    });
    if (failed) return false;
    std::vector<V> out;
    for (auto k : order) out.push_back(items[k]);
    items = std::move(out);
    return true;
  }
  // round() of a NumPy scalar (its __round__): without ndigits a Python int; with them a scalar
  // of its dtype, rounded as np.round does (times 10**n, to nearest even, divided back, in the
  // dtype's precision).
  V numpy_scalar_round(const V& x, const V& nd) {
    const NdArray& a = x->arr;
    const double v = a.at(0);
    if (!nd || nd->t == T::None) {
      if (!a.is_float()) return mk_int(a.iat(0));
      if (std::isnan(v)) return raise("ValueError", "cannot convert float NaN to integer");
      if (std::isinf(v)) return raise("OverflowError", "cannot convert float infinity to integer");
      return to_int(mk_float(std::nearbyint(v)));
    }
    if (!is_intlike(nd))
      return raise("TypeError",
                   "'" + type_name(nd) + "' object cannot be interpreted as an integer");
    const std::int64_t n = int_of(nd);
    NdArray r = a;
    if (a.is_float()) {
      const bool f32 = a.dt == DType::Float32;
      const auto in = [&](double d) {
        return f32 ? static_cast<double>(static_cast<float>(d)) : d;
      };
      const double p = in(std::pow(10.0, static_cast<double>(n < 0 ? -n : n)));
      r.set(0, n >= 0 ? in(std::nearbyint(in(v * p)) / p) : in(std::nearbyint(in(v / p)) * p));
    } else if (n < 0) {
      return raise("NotImplementedError",
                   "round(NumPy integer, negative ndigits) is not supported here yet");
    }
    return mk_array(std::move(r));
  }

  V py_round(const Args& a) {
    V x = a.get(0, "number");
    if (!x) return raise("TypeError", "round() missing required argument 'number' (pos 1)");
    V nd = a.get(1, "ndigits");
    if (x->t == T::Array && x->arr.dims.empty() && !x->arr.jax) return numpy_scalar_round(x, nd);
    if (is_intlike(x) && (!nd || nd->t == T::None)) return mk_int(int_of(x));
    if (x->t != T::Float && !is_intlike(x))
      return raise("TypeError", "type " + type_name(x) + " doesn't define __round__ method");
    const double v = num_of(x);
    if (!nd || nd->t == T::None) {
      if (std::isnan(v)) return raise("ValueError", "cannot convert float NaN to integer");
      if (std::isinf(v)) return raise("OverflowError", "cannot convert float infinity to integer");
      double r = std::nearbyint(v);  // round half to even (the default rounding mode)
      return to_int(mk_float(r));
    }
    if (!is_intlike(nd))
      return raise("TypeError",
                   "'" + type_name(nd) + "' object cannot be interpreted as an integer");
    const std::int64_t n = int_of(nd);
    if (is_intlike(x)) {
      if (n >= 0) return mk_int(int_of(x));
      return raise("NotImplementedError", "round(int, negative ndigits) is not supported here yet");
    }
    if (!std::isfinite(v) || n > 308) return mk_float(v);
    if (n < -308) return mk_float(std::copysign(0.0, v));
    // CPython: correctly rounded through the decimal string (half to even on the exact value).
    char buf[512];
    if (n >= 0) {
      std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(n), v);
      return mk_float(std::strtod(buf, nullptr));
    }
    const double p = std::pow(10.0, static_cast<double>(-n));
    double y = v / p;
    double z = std::nearbyint(y);
    return mk_float(z * p);
  }

  V call_builtin(const std::string& q, const Args& a) {
    if (q == "print") return print(a);
    if (lowering_ && !in_trace() && q.rfind("np.", 0) == 0 && supported_name(q))
      return traced_call(q, a);  // np.zeros, np.ones, np.arange at a lowering run's top: abstract
    if (traced_name(q)) {
      // jax.numpy, lax and jax.nn in a traced function are the tracer's (JAX's rules, the
      // primitives it emits); outside one, the names the notebook runs on host arrays are its own.
      // jnp.array of nested lists of Python numbers is NumPy's array in JAX too (np.array, then
      // a convert JAX folds): made on the host, it is a closed-over constant where it is used.
      const bool literal_array = (q == "jnp.array" || q == "jnp.asarray") && !a.pos.empty() &&
                                 (a.pos[0]->t == T::List || a.pos[0]->t == T::Tuple) &&
                                 !any_traced(a);
      if (!literal_array) {
        if (trace_ || any_traced(a)) return traced_call(q, a);
        if (!host_name(q)) return eager_call(q, a);
      }
    }
    if (q == "hasattr" || q == "getattr") {
      // An attribute as Python finds it: AttributeError means it has none (getattr's default,
      // when given, is then the value); any other error stays raised.
      if (!a.kw.empty()) return raise("TypeError", q + "() takes no keyword arguments");
      const std::size_t most = q == "hasattr" ? 2 : 3;
      if (a.pos.size() < 2 || a.pos.size() > most)
        return raise("TypeError", q + " expected " +
                                      (q == "hasattr"     ? "2"
                                       : a.pos.size() < 2 ? "at least 2"
                                                          : "at most 3") +
                                      " arguments, got " + std::to_string(a.pos.size()));
      V obj = a.pos[0], name = a.pos[1];
      if (name->t != T::Str)
        return raise("TypeError", "attribute name must be string, not '" + type_name(name) + "'");
      // An array attribute NumPy has but the notebook lacks: it has it (getattr says why not).
      if (q == "hasattr" && obj->t == T::Array && array_attribute_name(name->s, obj->arr.jax))
        return mk_bool(true);
      V r = attribute(obj, name->s);
      if (r) return q == "hasattr" ? mk_bool(true) : r;
      // A real array attribute the notebook lacks is not absent: getattr's default is not taken.
      const bool missing = exc_ && !fatal_ && exc_matches(exc_->s, "AttributeError") &&
                           !(obj->t == T::Array && array_attribute_name(name->s, obj->arr.jax));
      if (missing && (q == "hasattr" || a.pos.size() >= 3)) {
        exc_ = nullptr;
        exc_tb_.clear();
        return q == "hasattr" ? mk_bool(false) : a.pos[2];
      }
      return nullptr;
    }
    if (q == "len") {
      V x = need(a, 0, "obj", "len");
      if (!x) return nullptr;
      if (x->t == T::Str) return mk_int(static_cast<std::int64_t>(x->s.size()));
      if (x->t == T::List || x->t == T::Tuple || x->t == T::Dict)
        return mk_int(static_cast<std::int64_t>(x->items.size()));
      if (x->t == T::Set) return mk_int(x->used);
      if (x->t == T::Range) return mk_int(range_len(x));
      if (x->t == T::Array) {
        if (x->arr.dims.empty()) return raise("TypeError", "len() of unsized object");
        return mk_int(x->arr.dims[0]);
      }
      if (x->t == T::Traced) {
        if (x->tv->aval.dims.empty()) return raise("TypeError", "len() of unsized object");
        return mk_int(x->tv->aval.dims[0]);
      }
      return raise("TypeError", "object of type '" + type_name(x) + "' has no len()");
    }
    if (q == "range") {
      std::vector<std::int64_t> v;
      for (auto& x : a.pos) {
        if (!is_intlike(x))
          return raise("TypeError",
                       "'" + type_name(x) + "' object cannot be interpreted as an integer");
        v.push_back(int_of(x));
      }
      if (v.empty() || v.size() > 3)
        return raise("TypeError",
                     "range expected at least 1 argument, got " + std::to_string(v.size()));
      if (v.size() == 1) v = {0, v[0], 1};
      if (v.size() == 2) v.push_back(1);
      if (v[2] == 0) return raise("ValueError", "range() arg 3 must not be zero");
      return mk_seq(T::Range, {mk_int(v[0]), mk_int(v[1]), mk_int(v[2])});
    }
    if (q == "slice") {  // slice(stop), slice(start, stop[, step]): Python's slice object
      if (a.pos.empty() || a.pos.size() > 3 || !a.kw.empty())
        return raise("TypeError", a.pos.empty() ? "slice expected at least 1 argument, got 0"
                                                : "slice expected at most 3 arguments, got " +
                                                      std::to_string(a.pos.size()));
      std::vector<V> parts = a.pos;
      if (parts.size() == 1) parts.insert(parts.begin(), none_v());
      while (parts.size() < 3) parts.push_back(none_v());
      return mk_seq(T::Slice, std::move(parts));
    }
    if (q == "min" || q == "max") return min_max(q == "max", a);
    if (q == "sum") {
      V x = need(a, 0, "iterable", "sum");
      if (!x) return nullptr;
      // An array too: Python's sum adds its rows one by one (not NumPy's pairwise sum).
      Cursor items;
      if (!open(x, &items)) return nullptr;
      V acc = a.get(1, "start") ? a.get(1, "start") : mk_int(0);
      for (;;) {
        V y;
        const int more = next(items, &y);
        if (more < 0) return nullptr;
        if (more == 0) break;
        if (!step()) return nullptr;
        acc = binop("+", acc, y);
        if (!acc) return nullptr;
      }
      return acc;
    }
    if (q == "abs") {
      V x = need(a, 0, "x", "abs");
      if (!x) return nullptr;
      if (x->t == T::Traced) return traced_call("builtins.abs", a);
      if (x->t == T::Float) return mk_float(std::fabs(x->f));
      if (is_intlike(x)) {
        if (is_big(x) || int_of(x) == std::numeric_limits<std::int64_t>::min()) {
          BigInt b = big_of(x);
          b.neg = false;
          return make_int(b);
        }
        return mk_int(std::llabs(int_of(x)));
      }
      if (x->t == T::Array) {
        auto r = unary("abs", x->arr);
        return from_array(std::move(r.value()));
      }
      return raise("TypeError", "bad operand type for abs(): '" + type_name(x) + "'");
    }
    if (q == "round") return py_round(a);
    if (q == "sorted") {
      V x = need(a, 0, "iterable", "sorted");
      if (!x) return nullptr;
      std::vector<V> items;
      if (!iterate(x, &items)) return nullptr;
      V rev = a.get(99, "reverse");
      int r = 0;
      if (rev && (r = truth(rev)) < 0) return nullptr;
      if (!sort_values(items, a.get(99, "key"), r)) return nullptr;
      return mk_seq(T::List, std::move(items));
    }
    if (q == "iter" || q == "next") {  // CPython's words for a count of arguments
      if (!a.kw.empty()) return raise("TypeError", q + "() takes no keyword arguments");
      if (a.pos.empty()) return raise("TypeError", q + " expected at least 1 argument, got 0");
      if (a.pos.size() > 2)
        return raise("TypeError",
                     q + " expected at most 2 arguments, got " + std::to_string(a.pos.size()));
    }
    if (q == "iter") {
      if (a.pos.size() == 2)
        return raise("NotImplementedError",
                     "iter(callable, sentinel) is not supported here; iter(iterable) is");
      return iter_of(a.pos[0]);
    }
    if (q == "next") {  // next(iterator[, default])
      const V& it = a.pos[0];
      if (it->t != T::Iter)
        return raise("TypeError", "'" + type_name(it) + "' object is not an iterator");
      V x;
      const int r = next_of(it, &x);
      if (r < 0) return nullptr;
      if (r == 1) return x;
      if (a.pos.size() == 2) return a.pos[1];
      return raise("StopIteration", "");
    }
    if (q == "reversed") {
      V x = need(a, 0, "sequence", "reversed");
      if (!x) return nullptr;
      if (x->t == T::Traced)
        return raise("NotImplementedError",
                     "reversed() of a traced array is not supported here; index it (x[::-1])");
      // CPython's reversible types; a range's items are computed from its end.
      if (x->t == T::Range) {
        V it = mk_iter("range_iterator");
        if (it) it->self = x, it->text = "reversed";
        return it;
      }
      if (x->t != T::List && x->t != T::Tuple && x->t != T::Str && x->t != T::Dict &&
          x->t != T::Array)
        return raise("TypeError", "'" + type_name(x) + "' object is not reversible");
      if (x->t == T::List) {  // read live from its last index, as CPython's list_reverseiterator
        V it = mk_iter("list_reverseiterator");
        if (it) it->self = x, it->i = static_cast<std::int64_t>(x->items.size()) - 1;
        return it;
      }
      std::vector<V> items;
      if (!iterate(x, &items)) return nullptr;
      std::reverse(items.begin(), items.end());
      V it = mk_iter(x->t == T::Dict ? "dict_reversekeyiterator" : "reversed");
      if (it) it->self = mk_seq(T::List, std::move(items));
      return it;
    }
    if (q == "enumerate") {
      V x = need(a, 0, "iterable", "enumerate");
      if (!x) return nullptr;
      std::int64_t start = 0;
      if (V s = a.get(1, "start")) start = int_of(s);
      V inner = iter_of(x);
      V it = inner ? mk_iter("enumerate", {inner}) : nullptr;
      if (!it) return nullptr;
      it->self = inner;
      it->i = start;
      return it;
    }
    if (q == "zip") {  // a lazy iterator, as CPython's
      std::vector<V> inner;
      for (auto& v : a.pos) {
        V c = iter_of(v);
        if (!c) return nullptr;
        inner.push_back(c);
      }
      V it = mk_iter("zip", inner);
      if (it) it->items = std::move(inner);
      return it;
    }
    if (q == "map" || q == "filter") {  // lazy iterators, as CPython's: items as they are asked for
      if (a.pos.size() != 2)
        return raise("TypeError", q + "() takes a function and one iterable here");
      V c = iter_of(a.pos[1]);
      V it = c ? mk_iter(q, {c}) : nullptr;
      if (!it) return nullptr;
      it->self = a.pos[0];
      it->items.push_back(c);
      return it;
    }
    if (q == "any" || q == "all") {
      V x = need(a, 0, "iterable", q);
      if (!x) return nullptr;
      Cursor items;  // pulled one at a time: any stops at the first true item, all at a false one
      if (!open(x, &items)) return nullptr;
      for (;;) {
        V y;
        const int more = next(items, &y);
        if (more < 0) return nullptr;
        if (more == 0) break;
        const int t = truth(y);
        if (t < 0) return nullptr;
        if (q == "any" && t) return mk_bool(true);
        if (q == "all" && !t) return mk_bool(false);
        if (!step()) return nullptr;
      }
      return mk_bool(q == "all");
    }
    if (q == "divmod") {
      if (a.pos.size() != 2)
        return raise("TypeError",
                     "divmod expected 2 arguments, got " + std::to_string(a.pos.size()));
      V d = binop("//", a.pos[0], a.pos[1]);
      if (!d) return nullptr;
      V m = binop("%", a.pos[0], a.pos[1]);
      if (!m) return nullptr;
      return mk_seq(T::Tuple, {d, m});
    }
    if (q == "pow") {
      if (a.pos.size() != 2) return raise("TypeError", "pow() takes 2 arguments here");
      return binop("**", a.pos[0], a.pos[1]);
    }
    if (q == "int") {
      if (a.pos.empty()) return mk_int(0);
      return to_int(a.pos[0]);
    }
    if (q == "float") {
      if (a.pos.empty()) return mk_float(0);
      return to_float(a.pos[0]);
    }
    if (q == "bool") {
      if (a.pos.empty()) return mk_bool(false);
      const int t = truth(a.pos[0]);
      if (t < 0) return nullptr;
      return mk_bool(t);
    }
    if (q == "str" || q == "repr" || q == "ascii") {
      if (a.pos.empty() && q == "str") return mk_str("");
      V x = need(a, 0, "obj", q);
      if (!x) return nullptr;
      const V before = exc_;
      std::string text = q == "str" ? str(x) : repr(x);
      if (exc_ != before) return nullptr;
      return mk_str(q == "ascii" ? ascii_escaped(text) : text);
    }
    if (q == "list" || q == "tuple") {
      std::vector<V> items;
      if (!a.pos.empty() && !iterate(a.pos[0], &items)) return nullptr;
      return mk_seq(q == "list" ? T::List : T::Tuple, std::move(items));
    }
    if (q == "dict") {
      auto d = mk(T::Dict);
      if (!a.pos.empty()) {
        if (a.pos[0]->t == T::Dict) {
          d->items = a.pos[0]->items;
          d->vals = a.pos[0]->vals;
        } else {
          std::vector<V> items;
          if (!iterate(a.pos[0], &items)) return nullptr;
          for (std::size_t k = 0; k < items.size(); ++k) {
            std::vector<V> kv;
            if (!iterate(items[k], &kv)) return nullptr;
            if (kv.size() != 2)
              return raise("ValueError", "dictionary update sequence element #" +
                                             std::to_string(k) + " has length " +
                                             std::to_string(kv.size()) + "; 2 is required");
            if (!dict_set(d, kv[0], kv[1])) return nullptr;
          }
        }
      }
      for (auto& [k, v] : a.kw) dict_set(d, mk_str(k), v);
      return d;
    }
    if (q == "isinstance") {
      if (a.pos.size() != 2)
        return raise("TypeError",
                     "isinstance expected 2 arguments, got " + std::to_string(a.pos.size()));
      std::vector<V> types = a.pos[1]->t == T::Tuple ? a.pos[1]->items : std::vector<V>{a.pos[1]};
      const V& x = a.pos[0];
      for (auto& t : types) {
        if (t->t == T::Builtin) {
          const std::string& n = t->s;
          const bool m = (n == "int" && (x->t == T::Int || x->t == T::Bool)) ||
                         // numpy.float64 is a subclass of Python's float (not int64 of int)
                         (n == "float" &&
                          (x->t == T::Float || (np_scalar(x) && x->arr.dt == DType::Float64))) ||
                         (n == "bool" && x->t == T::Bool) || (n == "str" && x->t == T::Str) ||
                         (n == "list" && x->t == T::List) || (n == "tuple" && x->t == T::Tuple) ||
                         (n == "dict" && x->t == T::Dict);
          if (m) return mk_bool(true);
        } else if (t->t == T::ExcType) {
          if (x->t == T::Exc && exc_matches(x->s, t->s)) return mk_bool(true);
        } else {
          return raise("TypeError",
                       "isinstance() arg 2 must be a type, a tuple of types, or a union");
        }
      }
      return mk_bool(false);
    }
    if (q == "type") {
      V x = need(a, 0, "object", "type");
      if (!x) return nullptr;
      if (x->t == T::Exc) return mk_named(T::ExcType, x->s);
      if (x->t == T::DType && x->i == 1) return mk_named(T::Builtin, "type");  // np.float32's
      if (is_num(x) || x->t == T::Str || x->t == T::List || x->t == T::Tuple || x->t == T::Dict ||
          x->t == T::Set || x->t == T::None || x->t == T::Range || x->t == T::Slice ||
          x->t == T::Func || x->t == T::Iter)
        return mk_named(T::Builtin, type_name(x));
      if (x->t == T::Array)  // JAX 0.4's class of a jax.Array; a 0-d NumPy value is a NumPy
                             // scalar (what reductions and indexing give), but for a 0-d ndarray
        return mk_named(T::Builtin,
                        x->arr.jax ? "jaxlib.xla_extension.ArrayImpl"
                        : x->arr.dims.empty() && !x->b
                            ? (x->arr.dt == DType::Bool ? std::string("numpy.bool_")
                                                        : "numpy." + dtype_name(x->arr.dt))
                            : type_name(x));
      return raise("NotImplementedError", "type() of a " + type_name(x) + " is not supported here");
    }
    if (q == "callable") {
      V x = need(a, 0, "obj", "callable");
      if (!x) return nullptr;
      return mk_bool(x->t == T::Func || x->t == T::Builtin || x->t == T::Method ||
                     x->t == T::ExcType || x->t == T::Jitted || x->t == T::Compiled);
    }
    if (q == "format") {
      V x = need(a, 0, "value", "format");
      if (!x) return nullptr;
      V spec = a.get(1, "format_spec");
      if (spec && spec->t != T::Str)
        return raise("TypeError", "format() argument 2 must be str, not " + type_name(spec));
      return format_value(x, spec ? spec->s : "");
    }
    if (q == "set") {
      V st = mk_set();
      if (!a.pos.empty() && !set_update(st, a.pos[0])) return nullptr;
      return st;
    }
    if (q == "hash") {
      V x = need(a, 0, "obj", "hash");
      if (!x) return nullptr;
      std::int64_t h = 0;
      if (!py_hash(x, &h)) return nullptr;
      return mk_int(h);
    }
    if (q == "time.perf_counter" || q == "time.time") {
      if (!options_.clock)
        return raise("RuntimeError",
                     "time." + q.substr(5) + "(): no clock was given to this notebook run");
      return mk_float(options_.clock());
    }
    if (q.rfind("math.", 0) == 0) return math_fn(q.substr(5), a);
    if (q == "jax.ShapeDtypeStruct") {  // an abstract argument of .lower(...): no data
      V shape = need(a, 0, "shape", "ShapeDtypeStruct");
      if (!shape) return nullptr;
      V d = need(a, 1, "dtype", "ShapeDtypeStruct");
      if (!d) return nullptr;
      std::vector<std::int64_t> dims;
      if (!shape_arg(shape, &dims)) return nullptr;
      for (auto n : dims)
        if (n < 0)
          return raise("ValueError", "ShapeDtypeStruct: negative dimensions are not allowed, got " +
                                         shape_repr(dims));
      auto o = mk(T::SDS);
      for (auto n : dims) o->items.push_back(mk_int(n));
      if (d->t == T::DType && !d->s.empty()) {
        o->s = d->s;
      } else {
        DType t;
        if (!dtype_arg(d, &t)) return nullptr;
        o->dt = t;  // as given (JAX prints int64); the lowering canonicalizes it
      }
      return o;
    }
    if (q == "jax.jit") {
      V f = need(a, 0, "fun", "jit");
      if (!f) return nullptr;
      if (f->t == T::Jitted) f = f->self;  // jax.jit(jax.jit(g)) is jax.jit(g)
      if (f->t != T::Func)
        return raise("TypeError",
                     "jax.jit here takes a function of the notebook (a def or a lambda), got " +
                         type_name(f));
      if (a.pos.size() > 1 || !a.kw.empty())
        return raise("NotImplementedError",
                     "jax.jit options (static arguments, ...) are not supported here");
      auto j = mk(T::Jitted);
      j->self = f;
      return j;
    }
    if (q == "jax.block_until_ready") return need(a, 0, "x", "block_until_ready");
    if (q == "jax.config.update") {  // only jax_enable_x64 is modelled
      V name = need(a, 0, "name", "update");
      V val = name ? need(a, 1, "val", "update") : nullptr;
      if (!val) return nullptr;
      if (name->t != T::Str)
        return raise("TypeError", "config option name must be a str, got " + type_name(name));
      if (name->s != "jax_enable_x64")
        return raise("NotImplementedError", "jax.config.update('" + name->s +
                                                "', ...) is not supported here (jax_enable_x64 "
                                                "is)");
      const int on = truth(val);
      if (on < 0) return nullptr;
      x64_ = on == 1;
      set_enable_x64(x64_);
      return none_v();
    }
    if (q.rfind("np.", 0) == 0 || q.rfind("jnp.", 0) == 0) return numpy_fn(q, a);
    return raise("NotImplementedError", q + "() is not supported here");
  }
  // A 0-d NumPy value as the Python number its __float__ / __index__ gives math (a float, or an
  // int for an integer dtype); anything else as it is.
  static V as_real(const V& v) {
    if (!v || v->t != T::Array || !v->arr.dims.empty() || v->arr.jax) return v;
    if (v->arr.dt == DType::Bool) return mk_bool(v->arr.iat(0) != 0);
    return v->arr.is_float() ? mk_float(v->arr.at(0)) : mk_int(v->arr.iat(0));
  }
  // A float64, int64 or bool NumPy scalar (a host reduction's result), which goes into a traced
  // function or an eager jnp call as the number it holds (as_real): usable as a shape, an index or
  // an axis, as JAX takes NumPy integers (operator.index). In a trace it is an operand of its
  // canonical dtype, strongly typed, as JAX bakes a NumPy scalar in (an int8 array times
  // np.int64(2) is int32 there); an eager jnp call takes it weakly typed, as a Python number
  // (which gives JAX's dtypes there: the host's jnp arrays are int32, float32 or bool).
  static bool python_number_scalar(const V& v) {
    return np_scalar(v) && !v->arr.weak &&
           (v->arr.dt == DType::Float64 || v->arr.dt == DType::Int64 || v->arr.dt == DType::Bool);
  }
  // A tolerance argument (rtol, atol): a number or a NumPy scalar; anything else refused by name.
  bool tolerance(const V& v, const char* name, double* out) {
    const V x = as_real(v);
    if (!is_num(x)) {
      raise("TypeError", std::string(name) + " must be a number here, got " + type_name(v));
      return false;
    }
    *out = num_of(x);
    return true;
  }
  V math_fn(const std::string& f, const Args& a0) {
    Args a = a0;
    for (V& v : a.pos) v = as_real(v);
    for (auto& kv : a.kw) kv.second = as_real(kv.second);
    if (f == "isclose") {
      if (a.pos.size() != 2) return raise("TypeError", "isclose() takes 2 positional arguments");
      double rt = 1e-9, at = 0;
      for (const V& v : {a.pos[0], a.pos[1], a.get(99, "rel_tol"), a.get(99, "abs_tol")})
        if (v && !is_num(v)) {  // CPython converts each with float()
          if (v->t == T::Traced) return concrete_error(v, "float");
          return raise("TypeError", "must be real number, not " + type_name(v));
        }
      if (V r = a.get(99, "rel_tol")) rt = num_of(r);
      if (V r = a.get(99, "abs_tol")) at = num_of(r);
      const double x = num_of(a.pos[0]), y = num_of(a.pos[1]);
      if (x == y) return mk_bool(true);
      if (std::isinf(x) || std::isinf(y)) return mk_bool(false);
      const double d = std::fabs(x - y);
      return mk_bool(d <= std::fabs(rt * y) || d <= std::fabs(rt * x) || d <= at);
    }
    V x = need(a, 0, "x", f);
    if (!x) return nullptr;
    if (x->t == T::Traced) return concrete_error(x, "float");
    if (!is_num(x)) return raise("TypeError", "must be real number, not " + type_name(x));
    const double v = num_of(x);
    if (f == "isnan") return mk_bool(std::isnan(v));
    if (f == "isinf") return mk_bool(std::isinf(v));
    if (f == "floor" || f == "ceil") {
      if (is_intlike(x)) return mk_int(int_of(x));
      return to_int(mk_float(f == "floor" ? std::floor(v) : std::ceil(v)));
    }
    if ((f == "sqrt" && v < 0) || (f == "log" && v <= 0))
      return raise("ValueError", "math domain error");
    const double r = f == "sqrt"   ? std::sqrt(v)
                     : f == "exp"  ? std::exp(v)
                     : f == "log"  ? std::log(v)
                     : f == "tanh" ? std::tanh(v)
                                   : std::fabs(v);
    if (f == "exp" && std::isinf(r) && std::isfinite(v))
      return raise("OverflowError", "math range error");
    return mk_float(r);
  }

  // ---- NumPy and jax.numpy ----
  bool dtype_arg(const V& d, DType* out) {
    if (d->t == T::DType && !d->s.empty()) {
      raise("TypeError", dtype_text(d) +
                             " arrays are not supported on the host here (only in a "
                             "function jax.jit traces)");
      return false;
    }
    if (d->t == T::DType) {
      *out = d->dt;
      return true;
    }
    if (d->t == T::Builtin && (d->s == "float" || d->s == "int" || d->s == "bool")) {
      *out = d->s == "float" ? DType::Float64 : d->s == "int" ? DType::Int64 : DType::Bool;
      return true;
    }
    if (d->t == T::Str) {
      // As a string NumPy's bool is 'bool' (the attribute is np.bool_).
      if (d->s != "bool_" && numpy_dtype_named(d->s == "bool" ? "bool_" : d->s, out)) return true;
      raise("TypeError", "data type " + str_repr(d->s) + " not understood");
      return false;
    }
    raise("TypeError", "Cannot interpret '" + repr(d) + "' as a data type");
    return false;
  }
  bool shape_arg(const V& s, std::vector<std::int64_t>* dims) {
    if (is_intlike(s)) {
      dims->assign(1, int_of(s));
      return true;
    }
    if (s->t == T::Tuple || s->t == T::List) {
      for (auto& x : s->items) {
        if (!is_intlike(x)) {
          raise("TypeError", "'" + type_name(x) + "' object cannot be interpreted as an integer");
          return false;
        }
        dims->push_back(int_of(x));
      }
      return true;
    }
    raise("TypeError", "'" + type_name(s) + "' object cannot be interpreted as an integer");
    return false;
  }
  static DType canon(DType t, bool jax) { return jax ? jax_canonical(t) : t; }
  // The axis np.sort and ndarray.sort sort along (-1 when not given), in range for r.
  bool sort_axis(const V& axis, const NdArray& r, std::size_t* out) {
    std::int64_t ax = -1;
    if (axis) {
      if (!is_intlike(axis)) {
        raise("TypeError", "'" + type_name(axis) + "' object cannot be interpreted as an integer");
        return false;
      }
      ax = int_of(axis);
    }
    const auto rank = static_cast<std::int64_t>(r.dims.size());
    if (rank == 0) {
      raise("AxisError",
            "axis " + std::to_string(ax) + " is out of bounds for array of dimension 0");
      return false;
    }
    if (ax < -rank || ax >= rank) {
      raise("AxisError", "axis " + std::to_string(ax) +
                             " is out of bounds for array of dimension " + std::to_string(rank));
      return false;
    }
    *out = static_cast<std::size_t>(ax < 0 ? ax + rank : ax);
    return true;
  }
  // np.round(r, decimals): half to even, as NumPy rounds; a 0-d input gives a NumPy scalar (as
  // NumPy 1.24's does). decimals is a C int there: None and values past int32 refused in its words.
  V rounded(NdArray r, const V& decimals) {
    std::int64_t d = 0;
    if (decimals) {
      if (!is_intlike(decimals))
        return raise("TypeError",
                     "'" + type_name(decimals) + "' object cannot be interpreted as an integer");
      if (is_big(decimals))
        return raise("OverflowError", "Python int too large to convert to C long");
      d = int_of(decimals);
      if (d > 2147483647) return raise("OverflowError", "signed integer is greater than maximum");
      if (d < -2147483648LL) return raise("OverflowError", "signed integer is less than minimum");
    }
    if (r.dt == DType::Bool)
      return raise("NotImplementedError",
                   "rounding a bool array gives float16 in NumPy, a dtype not modelled here");
    r.weak = false;
    if (!charge(static_cast<double>(r.size()))) return nullptr;
    return from_array(round_to(r, d));
  }
  // NumPy's arguments of a reduction after `axis`, in order (np.sum(a, axis, dtype, out,
  // keepdims, initial, where); a method's the same without `a`).
  static std::vector<const char*> reduction_params(const std::string& fn) {
    if (fn == "sum" || fn == "prod") return {"dtype", "out", "keepdims", "initial", "where"};
    if (fn == "mean") return {"dtype", "out", "keepdims", "where"};
    if (fn == "var" || fn == "std") return {"dtype", "out", "ddof", "keepdims", "where"};
    if (fn == "max" || fn == "min") return {"out", "keepdims", "initial", "where"};
    if (fn == "argmax" || fn == "argmin") return {"out", "keepdims"};
    return {"out", "keepdims", "where"};  // all, any
  }
  // Checks a reduction's arguments past `axis` (at positions first + 1, ...): keepdims is read
  // into `*keep`, ddof into `*ddof` and dtype into `*dtype` (when asked for); dtype otherwise,
  // out, initial and where are refused by name (a
  // result that ignored them would be silently wrong); another keyword is NumPy's TypeError.
  bool reduction_options(const std::string& fn, const Args& a, std::size_t first, bool* keep,
                         V* ddof = nullptr, V* dtype = nullptr) {
    const auto params = reduction_params(fn);
    for (auto& [k, v] : a.kw) {
      bool known = k == "axis" || (first == 1 && k == "a");
      for (const char* p : params) known = known || k == p;
      if (!known) {
        // NumPy 1.24's names: np.max is amax; a method is the private _sum, _amax, ...
        // (argmax's method is argmax).
        std::string name = fn == "max" || fn == "min" ? "a" + fn : fn;
        if (first == 0 && fn != "argmax" && fn != "argmin") name = "_" + name;
        raise("TypeError", name + "() got an unexpected keyword argument '" + k + "'");
        return false;
      }
    }
    if (a.pos.size() > first + 1 + params.size()) {
      raise("TypeError", fn + "() takes from " + std::to_string(first + 1) + " to " +
                             std::to_string(first + 1 + params.size()) +
                             " positional arguments but " + std::to_string(a.pos.size()) +
                             " were given");
      return false;
    }
    for (auto& [k, v] : a.kw) {  // given by position too: Python's TypeError
      std::size_t at = first;
      if (k != "axis") {
        at = 0;
        for (std::size_t i = 0; i < params.size(); ++i)
          if (k == params[i]) at = first + 1 + i;
      }
      if (at > 0 && at < a.pos.size()) {
        raise("TypeError", fn + "() got multiple values for argument '" + k + "'");
        return false;
      }
    }
    *keep = false;
    for (std::size_t i = 0; i < params.size(); ++i) {
      V v = a.get(first + 1 + i, params[i]);
      if (!v) continue;
      const std::string p = params[i];
      if (p == "keepdims") {
        if (v->t != T::Bool && !is_intlike(v)) {
          raise("TypeError", "'" + type_name(v) + "' object cannot be interpreted as an integer");
          return false;
        }
        *keep = truth(v) == 1;
      } else if (p == "ddof") {
        if (ddof) *ddof = v;
      } else if (p == "dtype" && dtype) {
        *dtype = v;
      } else if (v->t != T::None && !(p == "where" && v->t == T::Bool && v->b)) {
        raise("NotImplementedError", "np." + fn + " with " + p + "= is not supported here");
        return false;
      }
    }
    return true;
  }
  // A reduction's result `r` given the shape `dims` (of as many elements): keepdims over a tuple
  // of axes.
  V reshaped(V r, const std::vector<std::int64_t>& dims) {
    if (!r) return r;
    NdArray t;
    if (!to_array(r, &t, false)) return nullptr;
    t.weak = false;
    t.dims = dims;
    return mk_array(std::move(t));
  }
  // A reduction's result with the reduced axes kept as 1s (keepdims=True): `rank` the operand's,
  // `axis` the one reduced (flat: all).
  V keep_dims(V r, std::size_t rank, std::size_t axis, bool flat) {
    if (!r || rank == 0) return r;
    NdArray t;
    if (!to_array(r, &t, false)) return nullptr;
    t.weak = false;
    std::vector<std::int64_t> dims = t.dims;
    if (flat)
      dims.assign(rank, 1);
    else
      dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(axis), 1);
    t.dims = dims;
    V out = mk_array(std::move(t));
    return out;
  }
  // The axes a tuple `axis` names, as a mask over x's axes; NumPy's messages for an axis out of
  // bounds, given twice or None.
  bool reduced_mask(const NdArray& x, const V& axis, std::vector<bool>* reduced) {
    const std::size_t rank = x.dims.size();
    reduced->assign(rank, false);
    for (const V& it : axis->items) {
      std::size_t ax = 0;
      bool flat = false;
      if (it->t == T::None) {
        raise("TypeError", "'NoneType' object cannot be interpreted as an integer");
        return false;
      }
      if (!axis_arg(it, rank, &ax, &flat)) return false;
      if ((*reduced)[ax]) {
        raise("ValueError", "duplicate value in 'axis'");
        return false;
      }
      (*reduced)[ax] = true;
    }
    return true;
  }
  // `x` with its axes in the order `order` (a copy), then given the shape `dims` (as many
  // elements).
  bool permuted(const NdArray& x, const std::vector<std::size_t>& order,
                const std::vector<std::int64_t>& dims, NdArray* out) {
    std::vector<V> perm;
    for (auto d : order) perm.push_back(mk_int(static_cast<std::int64_t>(d)));
    V t = np_transpose(none_v(), x, perm);  // not a view: the copy stands alone
    if (!t || !to_array(t, out, false)) return false;
    out->dims = dims;
    return true;
  }
  // The float sum of `v` over the axes `red` marks (2 or more), in NumPy's order for a C-ordered
  // array: the trailing run of reduced axes (axes of size 1 aside) pairwise as one lane, the other
  // reduced axes in order,
  // slice by slice (v's axes laid out as [other reduced, kept, trailing run], numpy_sum along the
  // last, then the first). The result has the kept axes.
  bool ordered_sum(const NdArray& v0, const std::vector<bool>& red, NdArray* out) {
    const std::size_t rank = v0.dims.size();
    // NumPy's iterator drops axes of size 1, so the run is taken over the others.
    std::vector<std::size_t> run, other, kept, big;
    for (std::size_t k = 0; k < rank; ++k)
      if (v0.dims[k] != 1) big.push_back(k);
    std::size_t b = big.size();
    while (b > 0 && red[big[b - 1]]) --b;
    for (std::size_t k = 0; k < rank; ++k) {
      const bool in_run = red[k] && (v0.dims[k] == 1 || std::find(big.begin() + std::ptrdiff_t(b),
                                                                  big.end(), k) != big.end());
      (in_run ? run : red[k] ? other : kept).push_back(k);
    }
    std::vector<std::size_t> order = other;
    order.insert(order.end(), kept.begin(), kept.end());
    order.insert(order.end(), run.begin(), run.end());
    std::int64_t n_other = 1, n_run = 1;
    for (auto r : other) n_other *= v0.dims[r];
    for (auto r : run) n_run *= v0.dims[r];
    std::vector<std::int64_t> dims;
    if (!other.empty()) dims.push_back(n_other);
    for (auto k : kept) dims.push_back(v0.dims[k]);
    if (!run.empty()) dims.push_back(n_run);
    NdArray v;
    if (!permuted(v0, order, dims, &v)) return false;
    v.weak = false;
    if (!run.empty()) v = numpy_sum(v, static_cast<int>(v.dims.size()) - 1);
    if (!other.empty()) v = numpy_sum(v, 0);
    *out = std::move(v);
    return true;
  }
  // A reduction over a tuple of axes (axis=(0, 2)). One axis is the int axis's reduction. A float
  // sum or mean (or an int mean, in float64) adds in NumPy's order for a C-ordered array: the
  // trailing run of reduced axes pairwise as one lane, the other reduced axes in order, slice by
  // slice (x's axes laid out as [other reduced, kept, trailing run] and numpy_sum along the last,
  // then the first). Otherwise the reduced axes are merged into one last axis and reduced as one.
  // keepdims puts 1s where the axes were.
  V tuple_reduce(const std::string& fn, const V& x, const V& axis, const Args& a, std::size_t first,
                 bool keep) {
    NdArray arr;
    std::vector<bool> red;
    if (!to_array(x, &arr, false) || !reduced_mask(arr, axis, &red)) return nullptr;
    const std::size_t rank = arr.dims.size();
    std::vector<std::int64_t> keep_shape;
    std::vector<std::size_t> reduced_axes, kept;
    for (std::size_t d = 0; d < rank; ++d) {
      keep_shape.push_back(red[d] ? 1 : arr.dims[d]);
      (red[d] ? reduced_axes : kept).push_back(d);
    }
    if (reduced_axes.size() == 1) {
      const auto ax = static_cast<std::int64_t>(reduced_axes[0]);
      Args b = with_axis(a, first, mk_int(ax));
      return np_reduce(fn, x, b, first);
    }
    if (!charge(static_cast<double>(arr.size()))) return nullptr;
    const bool ordered =
        (fn == "sum" || fn == "mean") && !arr.jax && (arr.is_float() || fn == "mean");
    if (!ordered) {
      std::vector<std::size_t> order = kept;
      order.insert(order.end(), reduced_axes.begin(), reduced_axes.end());
      std::vector<std::int64_t> dims;
      std::int64_t n = 1;
      for (auto d : kept) dims.push_back(arr.dims[d]);
      for (auto d : reduced_axes) n *= arr.dims[d];
      dims.push_back(n);
      NdArray merged;
      if (!permuted(arr, order, dims, &merged)) return nullptr;
      V one = from_array(std::move(merged));
      const auto last = static_cast<std::int64_t>(dims.size()) - 1;
      V r = np_reduce_axis(fn, one, with_axis(a, first, mk_int(last)), first);
      return keep ? reshaped(r, keep_shape) : r;
    }
    const NdArray src = arr.is_float() ? arr : astype(arr, DType::Float64);
    NdArray v;
    if (!ordered_sum(src, red, &v)) return nullptr;
    std::int64_t n_reduced = 1;
    for (auto r : reduced_axes) n_reduced *= arr.dims[r];
    if (fn == "mean") {
      const bool f32 = v.dt == DType::Float32;
      const double n = static_cast<double>(n_reduced);
      for (auto& e : v.f)
        e = f32 ? static_cast<double>(static_cast<float>(e) / static_cast<float>(n)) : e / n;
    }
    V r = from_array(std::move(v));
    return keep ? reshaped(r, keep_shape) : r;
  }
  // `a` with its axis argument (at `first`, or axis=) made `axis`.
  static Args with_axis(const Args& a, std::size_t first, const V& axis) {
    Args b = a;
    if (b.pos.size() > first) {
      b.pos[first] = axis;
      return b;
    }
    for (auto& kv : b.kw)
      if (kv.first == "axis") kv.second = axis;
    return b;
  }
  V np_reduce(const std::string& fn, const V& x, const Args& a, std::size_t first = 1) {
    bool keep = false;
    V dtype;
    const bool typed = fn == "sum" || fn == "prod" || fn == "mean";
    if (!reduction_options(fn, a, first, &keep, nullptr, typed ? &dtype : nullptr)) return nullptr;
    if (dtype && dtype->t != T::None) {
      // dtype=: the elements cast to it first (unsafely, as NumPy's reductions cast), reduced,
      // and the result given in it (a mean of ints in an int dtype truncates, as NumPy's
      // dtype.type(sum / n)). JAX converts the same way, its dtype canonicalized.
      DType t;
      NdArray arr;
      if (!dtype_arg(dtype, &t) || !to_array(x, &arr, false)) return nullptr;
      t = canon(t, arr.jax);
      if (!charge(static_cast<double>(arr.size()))) return nullptr;
      arr.weak = false;
      Args b = a;
      if (b.pos.size() > first + 1) b.pos[first + 1] = none_v();
      b.kw.erase(std::remove_if(b.kw.begin(), b.kw.end(),
                                [](const auto& kv) { return kv.first == "dtype"; }),
                 b.kw.end());
      const bool int_mean = fn == "mean" && !dtype_is_float(t);
      // A mean in an integer dtype is NumPy's sum in it (wrapping), then sum / n cast back.
      V r = np_reduce(int_mean ? "sum" : fn, from_array(astype(arr, t)), b, first);
      NdArray out;
      if (!r || !to_array(r, &out, false)) return nullptr;
      out.weak = false;
      out = astype(out, t);
      if (int_mean) {
        const double n = out.size() ? static_cast<double>(arr.size() / out.size()) : 0;
        NdArray q = astype(out, DType::Float64);
        for (auto& e : q.f) e /= n;
        out = astype(q, t);
      }
      return mk_array(std::move(out));
    }
    // A tuple of axes (a list too for a JAX array: jnp takes one; NumPy refuses it).
    if (V axis = a.get(first, "axis");
        axis && (axis->t == T::Tuple || (axis->t == T::List && x->t == T::Array && x->arr.jax)))
      return tuple_reduce(fn, x, axis, a, first, keep);
    V r = np_reduce_axis(fn, x, a, first);
    if (!keep || !r) return r;
    NdArray arr;
    if (!to_array(x, &arr, false)) return nullptr;
    V axis = a.get(first, "axis");
    std::size_t ax = 0;
    bool flat = false;
    if (!axis_arg(axis, arr.dims.size(), &ax, &flat)) return nullptr;
    return keep_dims(r, arr.dims.size(), ax, flat);
  }
  V np_reduce_axis(const std::string& fn, const V& x, const Args& a, std::size_t first) {
    NdArray arr;
    if (!to_array(x, &arr, false)) return nullptr;
    arr.weak = false;
    V axis = a.get(first, "axis");
    // A NumPy sum or mean of floats (a mean of ints too, in float64) adds in NumPy's order
    // (numpy_sum: pairwise along adjacent elements), so its last digits are NumPy's.
    if ((fn == "sum" || fn == "mean") && !arr.jax && (arr.is_float() || fn == "mean") &&
        (!axis || axis->t == T::None || (is_intlike(axis) && !arr.dims.empty()))) {
      std::size_t ax = 0;
      bool flat = false;
      if (!axis_arg(axis, arr.dims.size(), &ax, &flat)) return nullptr;
      if (!charge(static_cast<double>(arr.size()))) return nullptr;
      const bool cast = !arr.is_float();
      const NdArray v = cast ? astype(arr, DType::Float64) : arr;
      NdArray r = numpy_sum(v, flat ? -1 : static_cast<int>(ax));
      if (fn == "mean") {
        const bool f32 = v.dt == DType::Float32;
        const double n = flat ? static_cast<double>(v.size()) : static_cast<double>(v.dims[ax]);
        for (auto& e : r.f)
          e = f32 ? static_cast<double>(static_cast<float>(e) / static_cast<float>(n)) : e / n;
      }
      return from_array(std::move(r));
    }
    if (axis && axis->t != T::None) {
      if (!is_intlike(axis))
        return raise("TypeError",
                     "'" + type_name(axis) + "' object cannot be interpreted as an integer");
      if (arr.dims.empty())
        return raise("NotImplementedError",
                     fn + " with an axis is supported here for an int axis of an array");
      std::int64_t ax = int_of(axis);
      const auto rank = static_cast<std::int64_t>(arr.dims.size());
      if (ax < -rank || ax >= rank)
        return raise("AxisError", "axis " + std::to_string(ax) +
                                      " is out of bounds for array of dimension " +
                                      std::to_string(rank));
      if (ax < 0) ax += rank;
      std::int64_t outer = 1, inner = 1;
      for (std::int64_t d = 0; d < ax; ++d) outer *= arr.dims[static_cast<std::size_t>(d)];
      for (std::int64_t d = ax + 1; d < rank; ++d) inner *= arr.dims[static_cast<std::size_t>(d)];
      const std::int64_t n = arr.dims[static_cast<std::size_t>(ax)];
      std::vector<std::int64_t> od = arr.dims;
      od.erase(od.begin() + ax);
      NdArray parts;
      std::vector<V> results;
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
          NdArray line;
          line.dt = arr.dt;
          line.jax = arr.jax;
          line.dims = {n};
          for (std::int64_t k = 0; k < n; ++k) {
            const auto off = static_cast<std::size_t>((o * n + k) * inner + i);
            if (arr.is_float())
              line.f.push_back(arr.f[off]);
            else
              line.i.push_back(arr.i[off]);
          }
          V r = np_reduce_axis(fn, mk_array(std::move(line)), Args{}, 1);
          if (!r) return nullptr;
          results.push_back(r);
        }
      if (results.empty()) {  // no lanes: the dtype a lane's reduction gives (one of 0)
        auto probe = NdArray::zeros(arr.dt, {1}, arr.jax);
        V r = probe ? np_reduce_axis(fn, mk_array(std::move(probe.value())), Args{}, 1) : nullptr;
        if (!r) return nullptr;
        auto empty = NdArray::zeros(r->t == T::Array ? r->arr.dt : arr.dt, od, arr.jax);
        if (!empty) return raise("MemoryError", empty.error());
        return from_array(std::move(empty.value()));
      }
      NdArray out;
      if (!array_from_list(mk_seq(T::List, results), &out, arr.jax, std::nullopt)) return nullptr;
      if (results[0]->t == T::Array) out = astype(out, results[0]->arr.dt);
      out.dims = od;
      return from_array(std::move(out));
    }
    const std::size_t n = static_cast<std::size_t>(arr.size());
    NdArray r;
    r.jax = arr.jax;
    if (fn == "all" || fn == "any") {
      bool acc = fn == "all";
      for (std::size_t k = 0; k < n; ++k) {
        const bool t = arr.at(k) != 0 || (arr.is_float() && std::isnan(arr.f[k]));
        acc = fn == "all" ? acc && t : acc || t;
      }
      r.dt = DType::Bool;
      r.i = {acc};
      return from_array(std::move(r));
    }
    if ((fn == "max" || fn == "min") && n == 0)
      return raise("ValueError", "zero-size array to reduction operation " +
                                     std::string(fn == "max" ? "maximum" : "minimum") +
                                     " which has no identity");
    if (arr.is_float() || fn == "mean") {
      r.dt = arr.is_float() ? arr.dt : arr.jax ? jax_inexact(arr.dt) : DType::Float64;
      double acc = fn == "max" ? -INFINITY : fn == "min" ? INFINITY : fn == "prod" ? 1 : 0;
      bool nan = false;
      // NumPy sums floats pairwise; for the small arrays here a compensated sum agrees. A product
      // is taken in order, each step rounded to the dtype, as NumPy's multiply.reduce does.
      double c = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const double v = arr.at(k);
        if (std::isnan(v)) nan = true;
        if (fn == "max")
          acc = std::max(acc, v);
        else if (fn == "min")
          acc = std::min(acc, v);
        else if (fn == "prod")
          acc = r.dt == DType::Float32 ? static_cast<double>(static_cast<float>(acc * v)) : acc * v;
        else {
          const double y = v - c, t = acc + y;
          c = (t - acc) - y;
          acc = t;
        }
      }
      if (fn == "mean") acc = n ? acc / static_cast<double>(n) : std::nan("");
      if (nan) acc = std::nan("");
      r.f = {acc};
      if (r.dt == DType::Float32) r.f[0] = static_cast<float>(r.f[0]);
      return from_array(std::move(r));
    }
    r.dt = arr.dt == DType::Bool || fn == "sum" || fn == "prod" ? canon(DType::Int64, arr.jax)
                                                                : arr.dt;
    if (arr.dt == DType::Bool && (fn == "max" || fn == "min")) r.dt = DType::Bool;
    std::int64_t acc = fn == "max"    ? std::numeric_limits<std::int64_t>::min()
                       : fn == "min"  ? std::numeric_limits<std::int64_t>::max()
                       : fn == "prod" ? 1
                                      : 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t v = arr.i[k];
      if (fn == "max")
        acc = std::max(acc, v);
      else if (fn == "min")
        acc = std::min(acc, v);
      else if (fn == "prod")  // wrapping, as NumPy's int64 multiply
        acc = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) *
                                        static_cast<std::uint64_t>(v));
      else
        acc = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) +
                                        static_cast<std::uint64_t>(v));
    }
    r.i = {0};
    r.set_int(0, acc);  // wrapped to the result's width (a JAX int32 sum wraps)
    return from_array(std::move(r));
  }
  // The keyword arguments a NumPy function written in Python takes ("" when all are known).
  std::string unknown_keyword(const std::string& fn, const Args& a,
                              std::initializer_list<const char*> names) {
    for (auto& [k, v] : a.kw) {
      bool known = false;
      for (const char* n : names) known = known || k == n;
      if (!known) return fn + "() got an unexpected keyword argument '" + k + "'";
    }
    return "";
  }
  // An int argument of np.eye / np.tri ("N", "M", "k"), as operator.index reads it.
  bool index_arg(const V& v, std::int64_t* out) {
    if (!is_intlike(v)) {
      raise("TypeError", "'" + type_name(v) + "' object cannot be interpreted as an integer");
      return false;
    }
    if (is_big(v)) {
      raise("OverflowError", "Python int too large to convert to C long");
      return false;
    }
    *out = int_of(v);
    return true;
  }
  // A number for tri's k: a bool, int, float or NumPy scalar (false: NumPy's TypeError for -k or
  // k - 1, as tril or triu computes it first).
  bool tri_k(const V& kv, const std::string& f, double* k) {
    if (is_num(kv) && !is_big(kv)) {
      *k = num_of(kv);
      return true;
    }
    if (kv->t == T::Array && np_scalar(kv)) {
      *k = kv->arr.at(0);
      return true;
    }
    raise("TypeError", f == "triu"
                           ? "unsupported operand type(s) for -: '" + type_name(kv) + "' and 'int'"
                           : "bad operand type for unary -: '" + type_name(kv) + "'");
    return false;
  }
  // np.tri's column values arange(-k, M - k) in NumPy's integer dtype (its mask is row >= value):
  // j - k for an integral k; for another, the first two values truncated toward zero and the
  // rest extrapolated from them, as NumPy's arange fills an integer dtype (tri(3, k=0.5) is all
  // ones). An infinite or NaN k is arange's ValueError.
  bool tri_columns(double k, std::int64_t m, std::vector<double>* out) {
    if (!std::isfinite(k)) {
      raise("ValueError", "arange: cannot compute length");
      return false;
    }
    out->resize(static_cast<std::size_t>(std::max<std::int64_t>(m, 0)));
    const double v0 = std::trunc(-k), v1 = std::trunc(-k + 1),
                 step = std::floor(k) == k ? 1 : v1 - v0;
    const double first = std::floor(k) == k ? -k : v0;
    for (std::size_t j = 0; j < out->size(); ++j) (*out)[j] = first + static_cast<double>(j) * step;
    return true;
  }
  // np.eye(N, M=None, k=0, dtype=float), np.identity(n, dtype=None) and np.tri(N, M=None, k=0,
  // dtype=float): ones where column - row == k (eye) or <= k (tri), zeros elsewhere. tri's k may
  // be a float (NumPy compares row >= column - k); a negative size makes an empty tri and is
  // refused by eye.
  V np_eye(const std::string& f, const Args& a) {
    const bool ident = f == "identity";
    const std::string first = ident ? "n" : "N";
    if (a.pos.size() > (ident ? 2u : f == "eye" ? 5u : 4u))
      return raise("TypeError", f + "() takes from 1 to " +
                                    (ident        ? "2"
                                     : f == "eye" ? "5"
                                                  : "4") +
                                    " positional arguments but " + std::to_string(a.pos.size()) +
                                    " were given");
    if (const std::string no =
            ident ? unknown_keyword(f, a, {"n", "dtype", "like"})
                  : unknown_keyword(f, a, {"N", "M", "k", "dtype", "order", "like"});
        !no.empty())
      return raise("TypeError", no);
    V nv = a.get(0, first);
    if (!nv)
      return raise("TypeError", f + "() missing 1 required positional argument: '" + first + "'");
    if (f == "tri" && a.get(99, "order"))
      return raise("TypeError", "tri() got an unexpected keyword argument 'order'");
    std::int64_t n = 0, m = 0;
    // tri's N and M are arange's stop: a float counts its ceiling.
    auto size_arg = [&](const V& v, std::int64_t* out) {
      if (f == "tri" &&
          (v->t == T::Float || (v->t == T::Array && np_scalar(v) && v->arr.is_float()))) {
        const double d = v->t == T::Float ? v->f : v->arr.at(0);
        if (!std::isfinite(d)) {
          raise("ValueError", "arange: cannot compute length");
          return false;
        }
        *out = static_cast<std::int64_t>(std::max(-1.0, std::min(std::ceil(d), 1e15)));
        return true;
      }
      if (f != "tri" && v->t == T::Bool) {  // np.identity(True), np.eye(2, M=True)
        raise("TypeError", "an integer is required");
        return false;
      }
      return index_arg(v, out);
    };
    if (!size_arg(nv, &n)) return nullptr;
    m = n;
    if (V mv = ident ? nullptr : a.get(1, "M"); mv && mv->t != T::None)
      if (!size_arg(mv, &m)) return nullptr;
    double k = 0;
    if (V kv = ident ? nullptr : a.get(2, "k"); kv) {
      if (f == "eye") {
        if (kv->t == T::None)
          return raise("TypeError", "'>=' not supported between instances of 'NoneType' and 'int'");
        std::int64_t ki = 0;
        if (!index_arg(kv, &ki)) return nullptr;
        k = static_cast<double>(ki);
      } else if (!tri_k(kv, f, &k)) {
        return nullptr;
      }
    }
    DType t = DType::Float64;
    if (V d = a.get(ident ? 1 : 3, "dtype"); d && d->t != T::None)
      if (!dtype_arg(d, &t)) return nullptr;
    if (f == "eye" || ident) {
      if (n < 0 || m < 0) return raise("ValueError", "negative dimensions are not allowed");
    } else {
      n = std::max<std::int64_t>(n, 0), m = std::max<std::int64_t>(m, 0);
    }
    std::vector<double> cols;
    if (f == "tri" && !tri_columns(k, m, &cols)) return nullptr;
    auto made = NdArray::zeros(t, {n, m}, false);
    if (!made) return raise("ValueError", made.error());
    NdArray r = std::move(made.value());
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < m; ++j) {
        const bool one = f == "tri" ? static_cast<double>(i) >= cols[static_cast<std::size_t>(j)]
                                    : static_cast<double>(j - i) == k;
        if (one) r.set(static_cast<std::size_t>(i * m + j), 1);
      }
    return from_array(std::move(r));
  }
  // np.tril / np.triu(m, k=0): m's elements at or below (tril) or above (triu) the k-th diagonal
  // of its last two axes, zeros elsewhere, in m's dtype. A 1-d m is the row of a square (NumPy's
  // tri(*m.shape[-2:]) then broadcasts it); a 0-d one is refused in tri's words.
  V np_tril(const std::string& f, const Args& a) {
    if (a.pos.size() > 2)
      return raise("TypeError", f + "() takes from 1 to 2 positional arguments but " +
                                    std::to_string(a.pos.size()) + " were given");
    if (const std::string no = unknown_keyword(f, a, {"m", "k"}); !no.empty())
      return raise("TypeError", no);
    V mv = a.get(0, "m");
    if (!mv) return raise("TypeError", f + "() missing 1 required positional argument: 'm'");
    NdArray m;
    if (!to_array(mv, &m, false)) return nullptr;
    m.weak = false;
    m.jax = false;
    double k = 0;
    if (V kv = a.get(1, "k"); kv && !tri_k(kv, f, &k)) return nullptr;
    if (f == "triu") k -= 1;
    if (m.dims.empty())
      return raise("TypeError", "tri() missing 1 required positional argument: 'N'");
    std::vector<double> column_value;
    if (!tri_columns(k, m.dims.back(), &column_value)) return nullptr;
    const std::size_t rank = m.dims.size();
    const std::int64_t cols = m.dims[rank - 1], rows = rank == 1 ? cols : m.dims[rank - 2];
    NdArray r = m;
    if (rank == 1) {  // every row of the square is m
      auto made = NdArray::zeros(m.dt, {cols, cols}, false);
      if (!made) return raise("ValueError", made.error());
      r = std::move(made.value());
      for (std::int64_t i = 0; i < cols; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
          const auto at = static_cast<std::size_t>(i * cols + j);
          if (m.is_float())
            r.f[at] = m.f[static_cast<std::size_t>(j)];
          else
            r.i[at] = m.i[static_cast<std::size_t>(j)];
        }
    }
    const std::int64_t plane = rows * cols;
    const std::int64_t planes = plane ? r.size() / plane : 0;
    for (std::int64_t p = 0; p < planes; ++p)
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
          const bool mask = static_cast<double>(i) >= column_value[static_cast<std::size_t>(j)];
          if (mask == (f == "tril")) continue;  // tril keeps the mask, triu its complement
          const auto at = static_cast<std::size_t>(p * plane + i * cols + j);
          if (r.is_float())
            r.f[at] = 0;
          else
            r.i[at] = 0;
        }
    return from_array(std::move(r));
  }
  // ---- NumPy's axis-wise functions on host arrays (np.argmax, np.cumsum, np.var, ...) ----
  // An axis argument: None (the array flattened: `*flat` true) or an int in range (NumPy's
  // AxisError otherwise).
  bool axis_arg(const V& axis, std::size_t rank, std::size_t* out, bool* flat) {
    *flat = !axis || axis->t == T::None;
    if (*flat) return true;
    if (!is_intlike(axis)) {
      raise("TypeError", "'" + type_name(axis) + "' object cannot be interpreted as an integer");
      return false;
    }
    const std::int64_t ax = int_of(axis), r = static_cast<std::int64_t>(rank);
    if (ax < -r || ax >= r) {
      raise("AxisError", "axis " + std::to_string(ax) +
                             " is out of bounds for array of dimension " + std::to_string(rank));
      return false;
    }
    *out = static_cast<std::size_t>(ax < 0 ? ax + r : ax);
    return true;
  }
  // The lanes of `x` along `axis`: element k of lane (o, i) is at (o * n + k) * inner + i.
  struct Lanes {
    std::int64_t outer = 1, n = 1, inner = 1;
    std::size_t at(std::int64_t o, std::int64_t k, std::int64_t i) const {
      return static_cast<std::size_t>((o * n + k) * inner + i);
    }
  };
  static Lanes lanes_of(const std::vector<std::int64_t>& dims, std::size_t axis) {
    Lanes l;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (d < axis) l.outer *= dims[d];
      if (d > axis) l.inner *= dims[d];
    }
    l.n = dims.empty() ? 1 : dims[axis];
    return l;
  }
  // np.argmax / np.argmin(a, axis=None) and the methods: the first index of the largest
  // (smallest) element of each lane, a NaN counting as the extreme; int64 (a JAX array's int32).
  V np_argminmax(const std::string& f, const NdArray& x0, const V& axis) {
    NdArray x = x0;
    x.weak = false;
    std::size_t ax = 0;
    bool flat = false;
    if (!axis_arg(axis, x.dims.size(), &ax, &flat)) return nullptr;
    std::vector<std::int64_t> out_dims;
    if (flat || x.dims.empty()) {
      x.dims = {x.size()};
      ax = 0;
    } else {
      out_dims = x.dims;
      out_dims.erase(out_dims.begin() + static_cast<std::ptrdiff_t>(ax));
    }
    const Lanes l = lanes_of(x.dims, ax);
    if (l.n == 0) return raise("ValueError", "attempt to get " + f + " of an empty sequence");
    if (!charge(static_cast<double>(x.size()))) return nullptr;
    const bool is_max = f == "argmax";
    auto made = NdArray::zeros(canon(DType::Int64, x.jax), out_dims, x.jax);
    if (!made) return raise("ValueError", made.error());
    NdArray r = std::move(made.value());
    for (std::int64_t o = 0; o < l.outer; ++o)
      for (std::int64_t i = 0; i < l.inner; ++i) {
        std::int64_t best = 0;
        for (std::int64_t k = 1; k < l.n; ++k) {
          const double v = x.at(l.at(o, k, i)), b = x.at(l.at(o, best, i));
          if (std::isnan(b)) break;  // the first NaN wins
          if (std::isnan(v) || (is_max ? v > b : v < b)) best = k;
        }
        if (!x.is_float()) {  // exact for int64 past 2**53
          best = 0;
          for (std::int64_t k = 1; k < l.n; ++k) {
            const std::int64_t v = x.i[l.at(o, k, i)], b = x.i[l.at(o, best, i)];
            if (is_max ? v > b : v < b) best = k;
          }
        }
        r.i[static_cast<std::size_t>(o * l.inner + i)] = best;
      }
    return from_array(std::move(r));
  }
  // np.argmax/argmin/var/std (first 1) or the method (first 0): the options checked
  // (reduction_options), keepdims applied.
  V reduce_with_options(const std::string& f, const NdArray& x, const Args& a, std::size_t first) {
    bool keep = false;
    V ddof;
    // var/std's dtype= is refused: NumPy sums in it without casting the elements (_var), which a
    // cast first would not give.
    if (!reduction_options(f, a, first, &keep, &ddof)) return nullptr;
    V axis = a.get(first, "axis");
    if (axis && axis->t == T::Tuple && (f == "var" || f == "std")) {
      // One axis: the int axis's; none or several: np_var_axes, in NumPy's order (no axis: each
      // element alone, 0 or NaN).
      std::vector<bool> red;
      if (!reduced_mask(x, axis, &red)) return nullptr;
      std::vector<std::size_t> reduced_axes;
      std::vector<std::int64_t> shape;
      for (std::size_t d = 0; d < x.dims.size(); ++d) {
        shape.push_back(red[d] ? 1 : x.dims[d]);
        if (red[d]) reduced_axes.push_back(d);
      }
      if (reduced_axes.size() == 1)
        return reduce_with_options(
            f, x, with_axis(a, first, mk_int(static_cast<std::int64_t>(reduced_axes[0]))), first);
      V r = np_var_axes(f, x, red, ddof);
      return keep ? reshaped(r, shape) : r;
    }
    V r = f == "var" || f == "std" ? np_var(f, x, axis, ddof) : np_argminmax(f, x, axis);
    if (!keep || !r) return r;
    std::size_t ax = 0;
    bool flat = false;
    if (!axis_arg(axis, x.dims.size(), &ax, &flat)) return nullptr;
    return keep_dims(r, x.dims.size(), ax, flat);
  }
  // np.cumsum/cumprod(a, axis=None, dtype=None, out=None): out refused, other keywords NumPy's
  // TypeError.
  bool cumulative_options(const std::string& f, const Args& a, std::size_t first) {
    for (auto& [k, v] : a.kw)
      if (k != "axis" && k != "dtype" && k != "out" && !(first == 1 && k == "a")) {
        raise("TypeError", f + "() got an unexpected keyword argument '" + k + "'");
        return false;
      }
    if (V o = a.get(first + 2, "out"); o && o->t != T::None) {
      raise("NotImplementedError", "np." + f + " with out= is not supported here");
      return false;
    }
    return true;
  }
  // np.cumsum / np.cumprod(a, axis=None, dtype=None) and the methods: running sums (products)
  // along each lane in order, each step rounded to the result dtype (float32 stays float32, bool
  // and smaller ints become int64, as NumPy's add.accumulate; a JAX array's int32).
  V np_cumulative(const std::string& f, const NdArray& x0, const V& axis, const V& dtype) {
    NdArray x = x0;
    x.weak = false;
    std::size_t ax = 0;
    bool flat = false;
    if (!axis_arg(axis, x.dims.size(), &ax, &flat)) return nullptr;
    if (flat || x.dims.empty()) {
      x.dims = {x.size()};
      ax = 0;
    }
    DType t = x.is_float() ? x.dt : canon(DType::Int64, x.jax);
    if (dtype && dtype->t != T::None) {
      if (!dtype_arg(dtype, &t)) return nullptr;
      t = canon(t, x.jax);
    }
    if (!charge(static_cast<double>(x.size()))) return nullptr;
    NdArray r = astype(x, t);
    const Lanes l = lanes_of(r.dims, ax);
    const bool sum = f == "cumsum";
    for (std::int64_t o = 0; o < l.outer; ++o)
      for (std::int64_t i = 0; i < l.inner; ++i)
        for (std::int64_t k = 1; k < l.n; ++k) {
          const std::size_t at = l.at(o, k, i), prev = l.at(o, k - 1, i);
          if (r.is_float()) {
            r.set(at, sum ? r.f[prev] + r.f[at] : r.f[prev] * r.f[at]);
          } else {
            const auto a = static_cast<std::uint64_t>(r.i[prev]),
                       b = static_cast<std::uint64_t>(r.i[at]);
            r.set_int(at, static_cast<std::int64_t>(sum ? a + b : a * b));  // wrapping
          }
        }
    if (r.dt == DType::Bool) r = astype(r, DType::Bool);
    return from_array(std::move(r));
  }
  // np.var / np.std(a, axis=None, ddof=0) and the methods: the mean of squared deviations from
  // the lane's mean, divided by n - ddof (NaN or inf past it, as NumPy's division gives); float64
  // for ints and bools (a JAX array's float32), a float dtype kept.
  // var/std's ddof (0 when None or not given): a number, as NumPy's `n - ddof` takes it.
  bool ddof_value(const V& ddof_v, double* ddof) {
    *ddof = 0;
    if (!ddof_v || ddof_v->t == T::None) return true;
    if (!is_num(ddof_v) && !np_int_scalar(ddof_v)) {
      raise("TypeError",
            "unsupported operand type(s) for -: 'int' and '" + type_name(ddof_v) + "'");
      return false;
    }
    *ddof = num_of(ddof_v);
    return true;
  }
  V np_var(const std::string& f, const NdArray& x0, const V& axis, const V& ddof_v) {
    NdArray x = x0;
    x.weak = false;
    std::size_t ax = 0;
    bool flat = false;
    if (!axis_arg(axis, x.dims.size(), &ax, &flat)) return nullptr;
    if (x.dims.empty()) x.dims = {1};
    double ddof = 0;
    if (!ddof_value(ddof_v, &ddof)) return nullptr;
    if (!charge(3.0 * static_cast<double>(x.size()))) return nullptr;
    // NumPy's _var: the mean (add.reduce in NumPy's order, divided by n), the deviations squared
    // and summed the same way, divided by max(n - ddof, 0); in the float dtype's precision
    // (float64 for ints and bools, whose cast NumPy buffers; a JAX array's float32).
    const bool cast = !x.is_float();
    const NdArray v = cast ? astype(x, canon(DType::Float64, x.jax)) : x;
    const bool f32 = v.dt == DType::Float32;
    auto rd = [f32](double d) { return f32 ? static_cast<double>(static_cast<float>(d)) : d; };
    const int a = flat ? -1 : static_cast<int>(ax);
    const double n = flat ? static_cast<double>(v.size()) : static_cast<double>(v.dims[ax]);
    NdArray mean = numpy_sum(v, a);
    for (auto& m : mean.f) m = rd(m / rd(n));
    NdArray dev = v;
    const Lanes l = lanes_of(flat ? std::vector<std::int64_t>{v.size()} : v.dims, flat ? 0 : ax);
    for (std::int64_t o = 0; o < l.outer; ++o)
      for (std::int64_t k = 0; k < l.n; ++k)
        for (std::int64_t i = 0; i < l.inner; ++i) {
          const std::size_t at = l.at(o, k, i);
          const double d = rd(v.f[at] - mean.f[static_cast<std::size_t>(o * l.inner + i)]);
          dev.f[at] = rd(d * d);
        }
    NdArray r = numpy_sum(dev, a);
    const double den = std::max(n - ddof, 0.0);
    for (auto& e : r.f) {
      e = rd(e / den);
      if (f == "std") e = rd(std::sqrt(e));
    }
    return from_array(std::move(r));
  }
  // np.var / np.std over the axes `red` marks (none, or 2 or more): np_var's steps, each sum in
  // NumPy's order for those axes (ordered_sum), the mean broadcast back over them.
  V np_var_axes(const std::string& f, const NdArray& x, const std::vector<bool>& red,
                const V& ddof_v) {
    double ddof = 0;
    if (!ddof_value(ddof_v, &ddof)) return nullptr;
    if (!charge(3.0 * static_cast<double>(x.size()))) return nullptr;
    NdArray v = x.is_float() ? x : astype(x, canon(DType::Float64, x.jax));
    v.weak = false;
    const bool f32 = v.dt == DType::Float32;
    auto rd = [f32](double d) { return f32 ? static_cast<double>(static_cast<float>(d)) : d; };
    const std::size_t rank = v.dims.size();
    double n = 1;
    std::vector<std::int64_t> out_stride(rank, 0);
    std::int64_t stride = 1;
    for (std::size_t d = rank; d-- > 0;) {
      if (red[d]) {
        n *= static_cast<double>(v.dims[d]);
      } else {
        out_stride[d] = stride;
        stride *= v.dims[d];
      }
    }
    NdArray mean;
    if (!ordered_sum(v, red, &mean)) return nullptr;
    for (auto& m : mean.f) m = rd(m / rd(n));
    NdArray dev = v;
    std::vector<std::int64_t> idx(rank, 0);
    for (std::size_t k = 0; k < dev.f.size(); ++k) {
      std::int64_t o = 0;
      for (std::size_t d = 0; d < rank; ++d) o += idx[d] * out_stride[d];
      const double dv = rd(v.f[k] - mean.f[static_cast<std::size_t>(o)]);
      dev.f[k] = rd(dv * dv);
      for (std::size_t d = rank; d-- > 0;) {
        if (++idx[d] < v.dims[d]) break;
        idx[d] = 0;
      }
    }
    NdArray r;
    if (!ordered_sum(dev, red, &r)) return nullptr;
    const double den = std::max(n - ddof, 0.0);
    for (auto& e : r.f) {
      e = rd(e / den);
      if (f == "std") e = rd(std::sqrt(e));
    }
    return from_array(std::move(r));
  }
  // np.clip(a, a_min, a_max) and the method: minimum(maximum(a, a_min), a_max), NumPy's
  // promotion and NaNs; both bounds None is NumPy's ValueError.
  V np_clip(const V& x, const V& lo, const V& hi) {
    // NumPy 1.24 reads a NaN scalar bound (a float, a NumPy scalar, a 0-d array) as no bound (a
    // DeprecationWarning there); JAX's clip keeps NaN.
    const bool jax = x->t == T::Array && x->arr.jax;
    const auto nan_scalar = [](const V& b) {
      if (!b) return false;
      if (b->t == T::Float) return std::isnan(b->f);
      return b->t == T::Array && b->arr.dims.empty() && b->arr.is_float() &&
             std::isnan(b->arr.f[0]);
    };
    const bool nan_lo = !jax && nan_scalar(lo), nan_hi = !jax && nan_scalar(hi);
    const bool none_lo = !lo || lo->t == T::None, none_hi = !hi || hi->t == T::None;
    const bool no_lo = none_lo || nan_lo, no_hi = none_hi || nan_hi;
    if (none_lo && none_hi) return raise("ValueError", "One of max or min must be given");
    if (no_lo && no_hi) {  // both NaN (or one NaN, one None): x, promoted as the NaN promotes it
      NdArray r = x->arr;
      if (!r.is_float()) r = astype(r, DType::Float64);
      return from_array(std::move(r));
    }
    V r = x;
    if (!no_lo) r = array_binary("maximum", r, lo);
    if (r && !no_hi) r = array_binary("minimum", r, hi);
    // The NaN bound still takes part in the result's dtype: an integer array becomes float64.
    if (r && (nan_lo || nan_hi) && r->t == T::Array && !r->arr.is_float())
      return from_array(astype(r->arr, DType::Float64));
    return r;
  }
  // The new axes of np.expand_dims(a, axis) (an int or a tuple), normalized against the result's
  // rank, or NumPy's refusal.
  bool new_axes(const V& axis, std::size_t rank, std::vector<std::size_t>* out) {
    std::vector<V> items;
    if (axis->t == T::Tuple || axis->t == T::List)
      items = axis->items;
    else
      items = {axis};
    const auto r = static_cast<std::int64_t>(rank + items.size());
    for (auto& it : items) {
      if (!is_intlike(it)) {
        raise("TypeError", "'" + type_name(it) + "' object cannot be interpreted as an integer");
        return false;
      }
      const std::int64_t ax = int_of(it);
      if (ax < -r || ax >= r) {
        raise("AxisError", "axis " + std::to_string(ax) +
                               " is out of bounds for array of dimension " + std::to_string(r));
        return false;
      }
      const auto a = static_cast<std::size_t>(ax < 0 ? ax + r : ax);
      if (std::find(out->begin(), out->end(), a) != out->end()) {
        raise("ValueError", "repeated axis");
        return false;
      }
      out->push_back(a);
    }
    return true;
  }
  // A result with x's elements in the same order and other dims (expand_dims, squeeze): a view
  // of a NumPy array, as NumPy's reshape gives one.
  V same_order(const V& self, const NdArray& x, std::vector<std::int64_t> dims) {
    NdArray r = x;
    r.weak = false;
    r.dims = std::move(dims);
    V out = from_array(std::move(r));
    if (out && out->arr.dims.empty() && !x.jax) out->b = true;  // a 0-d ndarray, not a scalar
    if (!out || x.jax || self->t != T::Array) return out;
    if (self->view && !strided(self->view->at, out->arr.dims)) return out;
    std::vector<std::int64_t> offs(static_cast<std::size_t>(x.size()));
    for (std::size_t j = 0; j < offs.size(); ++j) offs[j] = static_cast<std::int64_t>(j);
    return link_view(self, out, offs);
  }
  V np_squeeze(const V& self, const NdArray& x, const V& axis) {
    std::vector<std::int64_t> dims;
    if (!axis || axis->t == T::None) {
      for (auto d : x.dims)
        if (d != 1) dims.push_back(d);
      return same_order(self, x, dims);
    }
    std::vector<V> items =
        axis->t == T::Tuple || axis->t == T::List ? axis->items : std::vector<V>{axis};
    std::vector<bool> drop(x.dims.size(), false);
    for (auto& it : items) {
      std::size_t ax = 0;
      bool flat = false;
      if (!axis_arg(it, x.dims.size(), &ax, &flat)) return nullptr;
      if (drop[ax]) return raise("ValueError", "repeated axis");
      if (x.dims[ax] != 1)
        return raise("ValueError",
                     "cannot select an axis to squeeze out which has size not equal to one");
      drop[ax] = true;
    }
    for (std::size_t d = 0; d < x.dims.size(); ++d)
      if (!drop[d]) dims.push_back(x.dims[d]);
    return same_order(self, x, dims);
  }
  // np.transpose(a, axes=None) and a.transpose(*axes): the axes permuted (reversed by default);
  // a view of a NumPy array.
  V np_transpose(const V& self, const NdArray& x, const std::vector<V>& axes_in) {
    const std::size_t rank = x.dims.size();
    std::vector<std::size_t> perm;
    if (axes_in.empty()) {
      for (std::size_t d = rank; d-- > 0;) perm.push_back(d);
    } else {
      if (axes_in.size() != rank) return raise("ValueError", "axes don't match array");
      std::vector<bool> seen(rank, false);
      for (auto& it : axes_in) {
        std::size_t ax = 0;
        bool flat = false;
        if (!it || it->t == T::None)
          return raise("TypeError", "an integer is required (got type NoneType)");
        if (!axis_arg(it, rank, &ax, &flat)) return nullptr;
        if (seen[ax]) return raise("ValueError", "repeated axis in transpose");
        seen[ax] = true;
        perm.push_back(ax);
      }
    }
    if (!charge(static_cast<double>(x.size()))) return nullptr;
    NdArray r = x;
    r.weak = false;
    r.dims.clear();
    for (auto d : perm) r.dims.push_back(x.dims[d]);
    std::vector<std::int64_t> in_stride(rank, 1);
    for (std::size_t d = rank; d-- > 1;) in_stride[d - 1] = in_stride[d] * x.dims[d];
    const auto n = static_cast<std::size_t>(x.size());
    std::vector<std::int64_t> offs(n), idx(rank, 0);
    for (std::size_t k = 0; k < n; ++k) {
      std::int64_t src = 0;
      for (std::size_t d = 0; d < rank; ++d) src += idx[d] * in_stride[perm[d]];
      offs[k] = src;
      if (x.is_float())
        r.f[k] = x.f[static_cast<std::size_t>(src)];
      else
        r.i[k] = x.i[static_cast<std::size_t>(src)];
      for (std::size_t d = rank; d-- > 0;) {
        if (++idx[d] < r.dims[d]) break;
        idx[d] = 0;
      }
    }
    V out = mk_array(std::move(r));
    if (out->arr.dims.empty() && !x.jax) out->b = true;  // a 0-d ndarray, not a scalar
    if (x.jax || self->t != T::Array) return out;
    return link_view(self, out, offs);
  }
  // np.stack(arrays, axis=0), np.vstack, np.hstack: the arrays (promoted together) joined along a
  // new axis (stack), the first axis of their 2-d forms (vstack) or the first axis of 1-d ones and
  // the second of others (hstack). Copies.
  V np_join(const std::string& f, const Args& a, bool jax = false) {
    V xs = need(a, 0, f == "stack" || f == "concatenate" ? "arrays" : "tup", f);
    if (!xs) return nullptr;
    std::vector<V> items;
    if (!iterate(xs, &items)) return nullptr;
    if (items.empty())
      return raise("ValueError", std::string("need at least one array to ") +
                                     (f == "stack" ? "stack" : "concatenate"));
    std::vector<NdArray> parts;
    for (auto& it : items) {
      NdArray p;
      if (!to_array(it, &p, jax)) return nullptr;
      p.weak = false;
      if (f == "concatenate" && p.dims.empty())
        return raise("ValueError", "zero-dimensional arrays cannot be concatenated");
      if (f == "vstack" && p.dims.size() < 2) p.dims.insert(p.dims.begin(), 2 - p.dims.size(), 1);
      if (f == "hstack" && p.dims.empty()) p.dims = {1};
      parts.push_back(std::move(p));
    }
    std::size_t ax = 0;
    if (f == "stack") {
      for (auto& p : parts)
        if (p.dims != parts[0].dims)
          return raise("ValueError", "all input arrays must have the same shape");
      V axis = a.get(1, "axis");
      const auto r = static_cast<std::int64_t>(parts[0].dims.size() + 1);
      std::int64_t k = 0;
      if (axis && axis->t != T::None) {
        if (!is_intlike(axis))
          return raise("TypeError",
                       "'" + type_name(axis) + "' object cannot be interpreted as an integer");
        k = int_of(axis);
      }
      if (k < -r || k >= r)
        return raise("AxisError", "axis " + std::to_string(k) +
                                      " is out of bounds for array of dimension " +
                                      std::to_string(r));
      ax = static_cast<std::size_t>(k < 0 ? k + r : k);
      for (auto& p : parts) p.dims.insert(p.dims.begin() + static_cast<std::ptrdiff_t>(ax), 1);
    } else if (f == "hstack") {
      ax = parts[0].dims.size() == 1 ? 0 : 1;
    } else if (f == "concatenate") {  // axis=None: each raveled first
      V axis = a.get(1, "axis");
      if (axis && axis->t == T::None) {
        for (auto& p : parts) p.dims = {p.size()};
      } else if (axis) {
        bool flat = false;
        if (!axis_arg(axis, parts[0].dims.size(), &ax, &flat)) return nullptr;
      }
    }
    DType t = parts[0].dt;
    for (std::size_t k = 1; k < parts.size(); ++k) {
      NdArray x0 = parts[0];
      x0.dt = t;
      t = result_type(x0, parts[k]);
    }
    std::vector<std::int64_t> dims = parts[0].dims;
    std::int64_t total = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const NdArray& p = parts[k];
      if (p.dims.size() != dims.size())
        return raise("ValueError",
                     "all the input arrays must have same number of dimensions, but the array at "
                     "index 0 has " +
                         std::to_string(dims.size()) + " dimension(s) and the array at index " +
                         std::to_string(k) + " has " + std::to_string(p.dims.size()) +
                         " dimension(s)");
      for (std::size_t d = 0; d < dims.size(); ++d)
        if (d != ax && p.dims[d] != dims[d])
          return raise("ValueError",
                       "all the input array dimensions except for the concatenation axis must "
                       "match exactly, but along dimension " +
                           std::to_string(d) + ", the array at index 0 has size " +
                           std::to_string(dims[d]) + " and the array at index " +
                           std::to_string(k) + " has size " + std::to_string(p.dims[d]));
      total += p.dims[ax];
    }
    dims[ax] = total;
    bool anyjax = false;
    for (auto& p : parts) anyjax = anyjax || p.jax;
    auto made = NdArray::zeros(t, dims, anyjax);
    if (!made) return raise("ValueError", made.error());
    NdArray r = std::move(made.value());
    if (!charge(static_cast<double>(r.size()))) return nullptr;
    const Lanes out = lanes_of(dims, ax);
    std::int64_t start = 0;
    for (auto& p0 : parts) {
      const NdArray p = astype(p0, t);
      const Lanes in = lanes_of(p.dims, ax);
      for (std::int64_t o = 0; o < in.outer; ++o)
        for (std::int64_t k = 0; k < in.n; ++k)
          for (std::int64_t i = 0; i < in.inner; ++i) {
            const std::size_t to = out.at(o, start + k, i), from = in.at(o, k, i);
            if (r.is_float())
              r.f[to] = p.f[from];
            else
              r.i[to] = p.i[from];
          }
      start += in.n;
    }
    return from_array(std::move(r));
  }
  // np.outer(a, b): a's elements (flattened) times b's, NumPy's multiply on a column and a row.
  V np_outer(const Args& a) {
    V x = need(a, 0, "a", "outer"), y = x ? need(a, 1, "b", "outer") : nullptr;
    if (!y) return nullptr;
    NdArray p, q;
    if (!to_array(x, &p, false) || !to_array(y, &q, false)) return nullptr;
    p.weak = q.weak = false;
    p.dims = {p.size(), 1};
    q.dims = {1, q.size()};
    if (!charge(static_cast<double>(p.size()) * static_cast<double>(q.size()))) return nullptr;
    auto r = binary("*", p, q);
    if (!r) return raise("ValueError", r.error());
    return from_array(std::move(r.value()));
  }

  // A jnp function takes NumPy arrays as JAX does: each becomes a JAX array first (its dtype
  // canonical: float64 → float32 with 64-bit types off), so the result is a JAX array.
  V numpy_fn(const std::string& q, const Args& a) {
    if (q.rfind("jnp.", 0) != 0) return numpy_fn_on(q, a);
    auto as_jax = [&](const V& v) {
      if (v->t != T::Array || v->arr.jax) return v;
      if (python_number_scalar(v)) return as_real(v);  // a shape, an axis, a weak operand
      NdArray t = astype(v->arr, canon(v->arr.dt, true));
      t.jax = true;
      t.weak = false;
      return mk_array(std::move(t));
    };
    Args b = a;
    for (V& v : b.pos) v = as_jax(v);
    for (auto& kv : b.kw) kv.second = as_jax(kv.second);
    return numpy_fn_on(q, b);
  }
  // What NumPy's array constructors give: a numpy.ndarray even when 0-d (np.array(2.5) prints
  // array(2.5)), where a 0-d result of an operation is a NumPy scalar (2.5).
  static V zero_d_array(NdArray r) {
    const bool zero_d = r.dims.empty() && !r.jax;
    V v = mk_array(std::move(r));
    v->b = zero_d;
    return v;
  }
  V numpy_fn_on(const std::string& q, const Args& a) {
    const bool jax = q.rfind("jnp.", 0) == 0;
    const std::string f = q.substr(q.find('.') + 1);
    if (f == "array" || f == "asarray") {
      V x = need(a, 0, "object", f);
      if (!x) return nullptr;
      std::optional<DType> want;
      if (V d = a.get(1, "dtype"); d && d->t != T::None) {
        DType t;
        if (!dtype_arg(d, &t)) return nullptr;
        want = canon(t, jax);
      }
      // np.asarray of a NumPy array of the dtype asked is that array (no copy: a write into one is
      // a write into the other).
      if (f == "asarray" && !jax && x->t == T::Array && !x->arr.jax && !np_scalar(x) &&
          (!want || *want == x->arr.dt))
        return x;
      NdArray r;
      if (x->t == T::Array) {
        r = x->arr;
        r.jax = jax;
        if (jax) r = astype(r, canon(r.dt, true));
      } else if (is_num(x)) {
        if (!array_from_list(mk_seq(T::List, {x}), &r, jax, want)) return nullptr;
        r.dims.clear();
      } else {
        if (!array_from_list(x, &r, jax, want)) return nullptr;
      }
      if (want) r = astype(r, *want);
      r.weak = false;
      return zero_d_array(std::move(r));
    }
    if (f == "arange") {
      std::vector<V> nums;
      for (auto& p : a.pos) nums.push_back(p);
      if (nums.empty()) {
        if (V s = a.get(99, "stop"))
          nums.push_back(s);
        else
          return raise("TypeError", "arange() requires stop to be specified.");
      }
      for (auto& x : nums)
        if (!is_num(x))
          return raise("TypeError",
                       "arange: arguments must be numbers, got '" + type_name(x) + "'");
      double start = 0, stop = 0, stp = 1;
      bool all_int = true;
      for (auto& x : nums) all_int = all_int && is_intlike(x);
      if (nums.size() == 1)
        stop = num_of(nums[0]);
      else {
        start = num_of(nums[0]);
        stop = num_of(nums[1]);
        if (nums.size() > 2) stp = num_of(nums[2]);
      }
      if (stp == 0) return raise("ZeroDivisionError", "division by zero");
      DType t = all_int ? canon(DType::Int64, jax) : canon(DType::Float64, jax);
      if (V d = a.get(99, "dtype"); d && d->t != T::None) {
        if (!dtype_arg(d, &t)) return nullptr;
        t = canon(t, jax);
      }
      const double len = std::ceil((stop - start) / stp);
      const std::int64_t n = len > 0 ? static_cast<std::int64_t>(std::min(len, 1e18)) : 0;
      auto made = NdArray::zeros(t, {n}, jax);
      if (!made) return raise("ValueError", made.error());
      NdArray r = std::move(made.value());
      for (std::int64_t k = 0; k < n; ++k)
        r.set(static_cast<std::size_t>(k), start + static_cast<double>(k) * stp);
      return mk_array(std::move(r));
    }
    if (f == "linspace") {
      V s = need(a, 0, "start", f), e = s ? need(a, 1, "stop", f) : nullptr;
      if (!e) return nullptr;
      std::int64_t num = 50;
      if (V n = a.get(2, "num")) num = int_of(n);
      if (num < 0)
        return raise("ValueError",
                     "Number of samples, " + std::to_string(num) + ", must be non-negative.");
      bool endpoint = true;
      if (V ep = a.get(3, "endpoint")) endpoint = truth(ep) == 1;
      const double x0 = num_of(s), x1 = num_of(e);
      auto made = NdArray::zeros(canon(DType::Float64, jax), {num}, jax);
      if (!made) return raise("ValueError", made.error());
      NdArray r = std::move(made.value());
      const double div = endpoint ? static_cast<double>(num - 1) : static_cast<double>(num);
      const double stepv = div > 0 ? (x1 - x0) / div : 0;
      for (std::int64_t k = 0; k < num; ++k)
        r.set(static_cast<std::size_t>(k), x0 + static_cast<double>(k) * stepv);
      if (endpoint && num > 1) r.set(static_cast<std::size_t>(num - 1), x1);
      return mk_array(std::move(r));
    }
    if (f == "zeros" || f == "ones" || f == "full" || f == "zeros_like" || f == "ones_like") {
      V s = need(a, 0, f.find("like") != std::string::npos ? "a" : "shape", f);
      if (!s) return nullptr;
      std::vector<std::int64_t> dims;
      DType t = canon(DType::Float64, jax);
      double fill = f == "ones" || f == "ones_like" ? 1 : 0;
      std::size_t dpos = 1;
      if (f.find("like") != std::string::npos) {
        if (s->t != T::Array) return raise("TypeError", f + " here takes an array");
        dims = s->arr.dims;
        t = s->arr.dt;
      } else if (!shape_arg(s, &dims)) {
        return nullptr;
      }
      V fv;
      if (f == "full") {
        fv = need(a, 1, "fill_value", f);
        if (!fv) return nullptr;
        if (!is_num(fv)) return raise("TypeError", "full: fill_value must be a number here");
        fill = num_of(fv);
        t = fv->t == T::Float  ? canon(DType::Float64, jax)
            : fv->t == T::Bool ? DType::Bool
                               : canon(DType::Int64, jax);
        dpos = 2;
      }
      if (V d = a.get(dpos, "dtype"); d && d->t != T::None) {
        if (!dtype_arg(d, &t)) return nullptr;
        t = canon(t, jax);
      }
      auto made = NdArray::zeros(t, dims, jax);
      if (!made) return raise("ValueError", made.error());
      NdArray r = std::move(made.value());
      for (std::size_t k = 0; k < static_cast<std::size_t>(r.size()); ++k) {
        if (fv && is_intlike(fv))
          r.set_int(k, int_of(fv));
        else
          r.set(k, fill);
      }
      return zero_d_array(std::move(r));
    }
    if (f == "sort") {
      V x = need(a, 0, "a", f);
      if (!x) return nullptr;
      NdArray r;
      if (!to_array(x, &r, jax)) return nullptr;
      r.weak = false;
      V axis = a.get(1, "axis");
      if (axis && axis->t == T::None) {  // the flattened array
        r.dims = {r.size()};
        if (!charge(static_cast<double>(r.size()))) return nullptr;
        return mk_array(sort_along(r, 0));
      }
      std::size_t ax = 0;
      if (!sort_axis(axis, r, &ax)) return nullptr;
      if (!charge(static_cast<double>(r.size()))) return nullptr;
      return mk_array(sort_along(r, ax));
    }
    if (f == "round" || f == "around") {
      V x = need(a, 0, "a", f);
      if (!x) return nullptr;
      NdArray r;
      if (!to_array(x, &r, jax)) return nullptr;
      return rounded(r, a.get(1, "decimals"));
    }
    if (f == "concatenate") return np_join(f, a, jax);
    if (f == "append") {  // np.concatenate is np_join's
      std::vector<NdArray> parts;
      {
        V x = need(a, 0, "arr", f), y = x ? need(a, 1, "values", f) : nullptr;
        if (!y) return nullptr;
        if (a.get(2, "axis") && a.get(2, "axis")->t != T::None)
          return raise("NotImplementedError", "append with an axis is not supported here");
        NdArray p, r2;
        if (!to_array(x, &p, jax) || !to_array(y, &r2, jax)) return nullptr;
        p.weak = false;
        r2.weak = x->t == T::Array && is_num(y) ? false : r2.weak;
        // np.append ravels both and concatenates: Python scalars take part as arrays (not weak).
        p.dims = {p.size()};
        r2.dims = {r2.size()};
        r2.weak = false;
        parts = {p, r2};
      }
      DType t = parts[0].dt;
      bool anyjax = false;
      for (auto& p : parts) anyjax = anyjax || p.jax;
      for (std::size_t k = 1; k < parts.size(); ++k) {
        NdArray x0 = parts[0];
        x0.dt = t;
        t = result_type(x0, parts[k]);
      }
      NdArray r;
      r.dt = t;
      r.jax = anyjax;
      std::vector<std::int64_t> dims = parts[0].dims;
      dims[0] = 0;
      for (auto& p : parts) {
        if (p.dims.size() != dims.size())
          return raise("ValueError",
                       "all the input array dimensions except for the concatenation axis must "
                       "match exactly");
        for (std::size_t d = 1; d < dims.size(); ++d)
          if (p.dims[d] != dims[d])
            return raise("ValueError",
                         "all the input array dimensions except for the concatenation axis must "
                         "match exactly, but along dimension " +
                             std::to_string(d) + ", the array at index 0 has size " +
                             std::to_string(dims[d]) + " and the array at index 1 has size " +
                             std::to_string(p.dims[d]));
        dims[0] += p.dims[0];
        NdArray c = astype(p, t);
        if (dtype_is_float(t))
          r.f.insert(r.f.end(), c.f.begin(), c.f.end());
        else
          r.i.insert(r.i.end(), c.i.begin(), c.i.end());
      }
      r.dims = dims;
      return mk_array(std::move(r));
    }
    if (f == "minimum" || f == "maximum" || f == "add" || f == "subtract" || f == "multiply" ||
        f == "divide" || f == "matmul" || f == "dot") {
      if (a.pos.size() != 2) return raise("TypeError", f + "() takes 2 positional arguments here");
      static const char* const ops[][2] = {{"add", "+"},    {"subtract", "-"}, {"multiply", "*"},
                                           {"divide", "/"}, {"matmul", "@"},   {"dot", "@"}};
      const char* op = nullptr;
      for (auto& o : ops)
        if (f == o[0]) op = o[1];
      V x = a.pos[0], y = a.pos[1];
      if (jax && x->t != T::Array) {
        NdArray t;
        if (!to_array(x, &t, true)) return nullptr;
        x = mk_array(t);
        x->arr.weak = true;
      }
      if (op) return binop(op, x, y);
      NdArray p, r2;
      if (!to_array(x, &p, jax) || !to_array(y, &r2, jax)) return nullptr;
      if (jax) p.jax = r2.jax = true;
      auto r = binary(f, p, r2);
      if (!r) return raise("ValueError", r.error());
      return from_array(std::move(r.value()));
    }
    if (f == "where") {
      if (a.pos.size() != 3)
        return raise("NotImplementedError",
                     "where is supported here with three arguments (condition, x, y)");
      NdArray c, x, y;
      if (!to_array(a.pos[0], &c, jax) || !to_array(a.pos[1], &x, jax) ||
          !to_array(a.pos[2], &y, jax))
        return nullptr;
      if (const std::string no = broadcast_refusal({&c, &x, &y}); !no.empty())
        return raise("ValueError", no);
      auto cb = binary("!=", c, scalar_array_int(0, false, jax));
      if (!cb) return raise("ValueError", cb.error());
      const DType t = result_type(x, y);
      const std::vector<std::int64_t> dims = broadcast_shape({&c, &x, &y});
      std::int64_t n = 1;
      for (auto d : dims) n *= d;
      if (!charge(3.0 * static_cast<double>(n))) return nullptr;
      // each operand broadcast as it is (values kept: NaN and inf too), then chosen by c
      const NdArray bc = broadcast_to(cb.value(), dims);
      const NdArray by = broadcast_to(astype(y, t), dims);
      NdArray r = broadcast_to(astype(x, t), dims);
      for (std::size_t k = 0; k < static_cast<std::size_t>(r.size()); ++k)
        if (bc.at(k) == 0) {
          if (r.is_float())
            r.f[k] = by.f[k];
          else
            r.i[k] = by.i[k];
        }
      r.weak = false;
      return from_array(std::move(r));
    }
    if (f == "all" || f == "any" || f == "sum" || f == "prod" || f == "mean" || f == "max" ||
        f == "min") {
      V x = need(a, 0, "a", f);
      if (!x) return nullptr;
      V r = np_reduce(f, x, a);
      if (r && jax && r->t != T::Array) {
        NdArray t;
        to_array(r, &t, true);
        t.weak = false;
        t.jax = true;
        t = astype(t, canon(t.dt, true));
        return mk_array(t);
      }
      return r;
    }
    if (f == "isclose" || f == "allclose") {
      if (a.pos.size() < 2)
        return raise("TypeError", f + "() missing required argument 'b' (pos 2)");
      double rt = 1e-5, at = 1e-8;
      if (V r = a.get(2, "rtol"); r && !tolerance(r, "rtol", &rt)) return nullptr;
      if (V r = a.get(3, "atol"); r && !tolerance(r, "atol", &at)) return nullptr;
      bool eqnan = false;
      if (V r = a.get(4, "equal_nan")) eqnan = truth(r) == 1;
      NdArray x, y;
      if (!to_array(a.pos[0], &x) || !to_array(a.pos[1], &y)) return nullptr;
      x.weak = y.weak = false;
      auto d = binary("-", astype(x, DType::Float64), astype(y, DType::Float64));
      if (!d) return raise("ValueError", d.error());
      auto yb = binary("+", astype(y, DType::Float64),
                       binary("*", d.value(), scalar_array(0, 2, false)).value());
      auto xb = binary("+", astype(x, DType::Float64),
                       binary("*", d.value(), scalar_array(0, 2, false)).value());
      NdArray r = d.value();
      r = astype(r, DType::Bool);
      bool all = true;
      for (std::size_t k = 0; k < static_cast<std::size_t>(r.size()); ++k) {
        const double p = xb->f[k], q2 = yb->f[k];
        bool c;
        if (std::isnan(p) || std::isnan(q2))
          c = eqnan && std::isnan(p) && std::isnan(q2);
        else if (std::isinf(p) || std::isinf(q2))
          c = p == q2;
        else
          c = std::fabs(p - q2) <= at + rt * std::fabs(q2);
        r.i[k] = c;
        all = all && c;
      }
      if (f == "allclose") return mk_bool(all);
      return from_array(std::move(r));
    }
    if (f == "reshape") {
      V x = need(a, 0, "a", f), s = x ? need(a, 1, "newshape", f) : nullptr;
      if (!s) return nullptr;
      NdArray p;
      if (!to_array(x, &p, jax)) return nullptr;
      p.weak = false;
      std::vector<std::int64_t> dims;
      if (!shape_arg(s, &dims)) return nullptr;
      auto r = reshape(p, dims);
      if (!r) return raise(jax ? "TypeError" : "ValueError", r.error());
      return mk_array(std::move(r.value()));
    }
    if (f == "argmax" || f == "argmin" || f == "cumsum" || f == "cumprod" || f == "var" ||
        f == "std" || f == "clip" || f == "expand_dims" || f == "squeeze" || f == "transpose" ||
        f == "ravel") {
      V x = need(a, 0, "a", f);
      if (!x) return nullptr;
      NdArray p;
      if (!to_array(x, &p, false)) return nullptr;
      p.weak = false;
      // NumPy's functions call the array's method (a list or a scalar becomes an array first).
      V self = x->t == T::Array ? x : mk_array(p);
      if (f == "argmax" || f == "argmin" || f == "var" || f == "std")
        return reduce_with_options(f, p, a, 1);
      if (f == "cumsum" || f == "cumprod") {
        if (!cumulative_options(f, a, 1)) return nullptr;
        return np_cumulative(f, p, a.get(1, "axis"), a.get(2, "dtype"));
      }
      if (f == "clip") {
        for (const char* b : {"a_min", "a_max"})
          if (!a.get(std::string(b) == "a_min" ? 1 : 2, b))
            return raise("TypeError",
                         std::string("clip() missing 1 required positional argument: '") + b + "'");
        return np_clip(self, a.get(1, "a_min"), a.get(2, "a_max"));
      }
      if (f == "squeeze") return np_squeeze(self, p, a.get(1, "axis"));
      if (f == "ravel") {  // the array's ravel(); order= is refused by name
        if (V o = a.get(1, "order"); o && !(o->t == T::Str && o->s == "C"))
          return raise("NotImplementedError",
                       "np.ravel with order= other than 'C' is not "
                       "supported here");
        return array_method(self, "ravel", Args{});
      }
      if (f == "transpose") {
        V axes = a.get(1, "axes");
        std::vector<V> list;
        if (axes && axes->t != T::None && !iterate(axes, &list)) return nullptr;
        return np_transpose(self, p, list);
      }
      V axis = need(a, 1, "axis", f);
      if (!axis) return nullptr;
      std::vector<std::size_t> at;
      if (!new_axes(axis, p.dims.size(), &at)) return nullptr;
      std::vector<std::int64_t> dims;
      const std::size_t r = p.dims.size() + at.size();
      for (std::size_t d = 0, k = 0; d < r; ++d)
        dims.push_back(std::find(at.begin(), at.end(), d) != at.end() ? 1 : p.dims[k++]);
      return same_order(self, p, dims);
    }
    if (f == "stack" || f == "vstack" || f == "hstack") return np_join(f, a);
    if (f == "outer") return np_outer(a);
    if (f == "eye" || f == "identity" || f == "tri") return np_eye(f, a);
    if (f == "tril" || f == "triu") return np_tril(f, a);
    // NumPy's ufuncs that keep the dtype (square, sign), test values (isnan, isinf, isfinite: bool)
    // or make floats of ints (log2, log10, exp2).
    static const char* const more_un[] = {"square",   "sign", "negative", "isnan", "isinf",
                                          "isfinite", "log2", "log10",    "exp2"};
    for (const char* u : more_un)
      if (f == u) {
        V x = need(a, 0, "x", f);
        if (!x) return nullptr;
        NdArray p;
        if (!to_array(x, &p, false)) return nullptr;
        p.weak = false;
        if (p.dt == DType::Bool && (f == "square" || f == "log2" || f == "log10" || f == "exp2"))
          return raise("NotImplementedError", "np." + f + " of a bool array gives " +
                                                  (f == "square" ? "int8" : "float16") +
                                                  " in NumPy, a dtype not modelled here");
        if (p.dt == DType::Bool && f == "sign")
          return raise("UFuncTypeError",
                       "ufunc 'sign' did not contain a loop with signature matching types <class "
                       "'numpy.dtype[bool_]'> -> None");
        auto r = unary(f, p);
        if (!r) return raise("TypeError", r.error());
        return from_array(std::move(r.value()));
      }
    // elementwise unary functions
    static const char* un[] = {"sqrt", "exp", "log", "tanh", "abs", "sin", "cos", "floor", "ceil"};
    for (const char* u : un)
      if (f == u) {
        V x = need(a, 0, "x", f);
        if (!x) return nullptr;
        NdArray p;
        if (!to_array(x, &p, jax)) return nullptr;
        const bool was_scalar = p.weak;
        p.weak = false;
        if (jax) p = astype(p, canon(p.dt, true));
        auto r = unary(f, p);
        if (!r) return raise("TypeError", r.error());
        NdArray out = std::move(r.value());
        if (was_scalar && !jax) return from_array(std::move(out));
        return from_array(std::move(out));
      }
    if (q.rfind("np.random.", 0) == 0) return np_random(q.substr(10), a);
    if (q.rfind("np.testing.", 0) == 0) return assert_allclose(q, a);
    return raise("NotImplementedError", q + "() is not supported here");
  }

  // np.random's legacy functions on the global RandomState (python/nprandom.h), NumPy's values bit
  // for bit: seed(s), rand(*shape), randn(*shape), random/random_sample(size),
  // uniform(low, high, size), normal(loc, scale, size) (loc and scale may be arrays, broadcast),
  // standard_normal(size), randint(low, high, size). Without a size a call gives a Python float
  // (randint: an int), as NumPy's do; arrays are float64 (randint: int64).
  V np_random(const std::string& f, const Args& a) {
    if (!np_random_seeded_) {
      std::uint32_t s = 0;
      if (options_.clock) {
        const double t = options_.clock();
        std::uint64_t bits;
        std::memcpy(&bits, &t, sizeof bits);
        s = static_cast<std::uint32_t>(bits ^ (bits >> 32));
      }
      np_random_.seed_with(s);
      np_random_seeded_ = true;
    }
    if (f == "seed") {
      V sv = a.get(0, "seed");
      if (!sv || sv->t == T::None) {
        np_random_seeded_ = false;  // anew from the clock at the next draw
        return none_v();
      }
      if (sv->t == T::Float || (sv->t == T::Array && np_scalar(sv) && sv->arr.is_float()))
        return raise("TypeError",
                     "Cannot cast scalar from dtype('float64') to dtype('int64') according to "
                     "the rule 'safe'");
      if (!is_intlike(sv))
        return raise("NotImplementedError",
                     "np.random.seed with a " + type_name(sv) +
                         " (an array seed) is not supported here; give an int");
      if (is_big(sv) || int_of(sv) < 0 || int_of(sv) > 0xffffffffLL)
        return raise("ValueError", "Seed must be between 0 and 2**32 - 1");
      np_random_.seed_with(static_cast<std::uint32_t>(int_of(sv)));
      return none_v();
    }
    // The shape: rand/randn take the dimensions as arguments, the others a size.
    std::vector<std::int64_t> dims;
    bool scalar = true;
    if (f == "rand" || f == "randn") {
      for (auto& d : a.pos) {
        if (d->t == T::Bool) return raise("TypeError", "an integer is required");
        if (!is_intlike(d))
          return raise("TypeError",
                       "'" + type_name(d) + "' object cannot be interpreted as an integer");
        dims.push_back(int_of(d));
      }
      if (!a.kw.empty())
        return raise("TypeError",
                     f + "() got an unexpected keyword argument '" + a.kw[0].first + "'");
      scalar = a.pos.empty();
    } else {
      const std::size_t at = f == "uniform" || f == "normal" || f == "randint" ? 2 : 0;
      if (V sz = a.get(at, "size"); sz && sz->t != T::None) {
        if (!shape_arg(sz, &dims)) return nullptr;
        scalar = false;
      }
    }
    for (auto d : dims)
      if (d < 0) return raise("ValueError", "negative dimensions are not allowed");
    // A result of no size is a Python number; a size, even (), an array (0-d: an ndarray).
    const auto sized = [&](NdArray r) {
      V out = from_array(std::move(r));
      if (out && out->arr.dims.empty()) out->b = true;
      return out;
    };
    std::int64_t total = 1;
    for (auto d : dims) total *= d;
    if (f == "randint") {
      V lo = a.get(0, "low"), hi = a.get(1, "high");
      if (!lo) return raise("TypeError", "randint() missing required argument 'low' (pos 1)");
      bool numpy_scalar = false;  // dtype given: a NumPy int64 scalar without a size
      if (V d = a.get(3, "dtype"); d && d->t != T::None) {
        DType t;
        if (!dtype_arg(d, &t)) return nullptr;
        if (t != DType::Int64)
          return raise("NotImplementedError",
                       "np.random.randint with a dtype other than int64 is not supported here");
        numpy_scalar = d->t != T::Builtin;
      }
      // The bounds as 128-bit ints: int64's range, high exclusive up to 2**63.
      __int128 bounds[2] = {0, 0};
      const V given[2] = {lo, hi};
      for (int k = 0; k < 2; ++k) {
        const V& b = given[k];
        if (!b || b->t == T::None) continue;
        if (!is_intlike(b))
          return raise("NotImplementedError",
                       "np.random.randint with bounds other than int64 numbers (arrays) is not "
                       "supported here");
        if (is_big(b)) {
          const BigInt& g = *b->big;
          if (g.mag.size() > 3)
            return raise("ValueError",
                         std::string(k == 0 && hi && hi->t != T::None ? "low" : "high") +
                             " is out of bounds for int64");
          __int128 v = 0;
          for (std::size_t w = g.mag.size(); w-- > 0;) v = (v << 32) | g.mag[w];
          bounds[k] = g.neg ? -v : v;
        } else {
          bounds[k] = int_of(b);
        }
      }
      __int128 low = bounds[0], high = bounds[1];
      if (!hi || hi->t == T::None) {
        high = low;
        low = 0;
      }
      const __int128 kMin = -(static_cast<__int128>(1) << 63), kMax = static_cast<__int128>(1)
                                                                      << 63;
      if (low < kMin) return raise("ValueError", "low is out of bounds for int64");
      if (high > kMax) return raise("ValueError", "high is out of bounds for int64");
      if (!scalar && total == 0) {  // nothing drawn, nothing checked
        auto made = NdArray::zeros(DType::Int64, dims, false);
        if (!made) return raise("ValueError", made.error());
        return sized(std::move(made.value()));
      }
      if (low >= high)
        return raise("ValueError", hi && hi->t != T::None ? "low >= high" : "high <= 0");
      const std::uint64_t range = static_cast<std::uint64_t>(high - low - 1);
      const std::uint64_t base = static_cast<std::uint64_t>(static_cast<std::int64_t>(low));
      auto draw = [&]() { return static_cast<std::int64_t>(base + np_random_.bounded(range)); };
      if (scalar) {
        if (!numpy_scalar) return mk_int(draw());
        NdArray r;
        r.dt = DType::Int64;
        r.i = {draw()};
        return from_array(std::move(r));
      }
      auto made = NdArray::zeros(DType::Int64, dims, false);
      if (!made) return raise("ValueError", made.error());
      NdArray r = std::move(made.value());
      if (!charge(static_cast<double>(r.size()))) return nullptr;
      for (auto& e : r.i) e = draw();
      return sized(std::move(r));
    }
    double lo = 0, hi = 1;
    NdArray loc, scale;
    bool arrays = false;
    if (f == "uniform" || f == "normal") {
      V p0 = a.get(0, f == "uniform" ? "low" : "loc"),
        p1 = a.get(1, f == "uniform" ? "high" : "scale");
      if (f == "normal") lo = 0, hi = 1;
      for (const V& p : {p0, p1})
        if (p && !is_num(p) && !(p->t == T::Array && np_scalar(p))) {
          if (f == "uniform" || (p->t != T::Array && p->t != T::List && p->t != T::Tuple))
            return raise("NotImplementedError",
                         "np.random." + f + " with a " + type_name(p) +
                             " parameter is not supported here; give numbers");
          arrays = true;
        }
      if (arrays) {  // normal's loc and scale broadcast with the size
        if (!to_array(p0 ? p0 : mk_float(0.0), &loc) || !to_array(p1 ? p1 : mk_float(1.0), &scale))
          return nullptr;
        loc = astype(loc, DType::Float64);
        scale = astype(scale, DType::Float64);
        loc.weak = scale.weak = false;
        for (double v : scale.f)
          if (v < 0) return raise("ValueError", "scale < 0");
        if (const std::string no = broadcast_refusal({&loc, &scale}); !no.empty())
          return raise("ValueError", no);
        auto b = binary("+", loc, binary("*", scale, scalar_array(0, 2, false)).value());
        if (!b) return raise("ValueError", b.error());
        if (scalar) {
          dims = b->dims;
          scalar = false;
        } else {  // the size, loc and scale broadcast together to the size (before drawing)
          NdArray out_shape;
          out_shape.dims = dims;
          const std::vector<const NdArray*> args = {&out_shape, &loc, &scale};
          for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = i + 1; j < 3; ++j)
              if (!broadcast_refusal({args[i], args[j]}).empty())
                return raise("ValueError",
                             "shape mismatch: objects cannot be broadcast to a single shape.  "
                             "Mismatch is between arg " +
                                 std::to_string(i) + " with shape " + shape_repr(args[i]->dims) +
                                 " and arg " + std::to_string(j) + " with shape " +
                                 shape_repr(args[j]->dims) + ".");
          std::vector<std::int64_t> all = dims;
          for (const auto& d : {b->dims}) {
            if (d.size() > all.size()) all.insert(all.begin(), d.size() - all.size(), 1);
            for (std::size_t k = 0; k < d.size(); ++k) {
              auto& e = all[all.size() - d.size() + k];
              if (d[k] != 1) e = d[k];
            }
          }
          if (all != dims)
            return raise("ValueError", "Output size " + shape_repr(dims) +
                                           " is not compatible with broadcast dimensions of "
                                           "inputs " +
                                           shape_repr(all) + ".");
        }
      } else {
        if (p0) lo = num_of(p0->t == T::Array ? as_real(p0) : p0);
        if (p1) hi = num_of(p1->t == T::Array ? as_real(p1) : p1);
        if (f == "normal" && hi < 0) return raise("ValueError", "scale < 0");
        if (f == "uniform" && !std::isfinite(hi - lo))
          return raise("OverflowError", "Range exceeds valid bounds");
      }
    }
    const bool normal = f == "randn" || f == "normal" || f == "standard_normal";
    if (!normal && f != "rand" && f != "random" && f != "random_sample" && f != "uniform")
      return raise("NotImplementedError", "np.random." + f + " is not supported here");
    auto one = [&]() {
      if (normal) return f == "normal" ? lo + hi * np_random_.gauss() : np_random_.gauss();
      return f == "uniform" ? lo + (hi - lo) * np_random_.next_double() : np_random_.next_double();
    };
    if (scalar) return mk_float(one());
    auto made = NdArray::zeros(DType::Float64, dims, false);
    if (!made) return raise("ValueError", made.error());
    NdArray r = std::move(made.value());
    if (!charge(static_cast<double>(r.size()))) return nullptr;
    if (!arrays) {
      for (auto& e : r.f) e = one();
      return sized(std::move(r));
    }
    for (auto& e : r.f) e = np_random_.gauss();  // loc + scale * z, element by element
    auto scaled = binary("*", scale, r);
    if (!scaled) return raise("ValueError", scaled.error());
    auto out = binary("+", loc, scaled.value());
    if (!out) return raise("ValueError", out.error());
    return sized(std::move(out.value()));
  }
  // np.testing.assert_allclose: |actual - desired| <= atol + rtol * |desired| elementwise, NaNs
  // equal (equal_nan=True), infinities equal only to themselves; NumPy's message on failure.
  V assert_allclose(const std::string& q, const Args& a) {
    V x = need(a, 0, "actual", "assert_allclose"),
      y = x ? need(a, 1, "desired", "assert_allclose") : nullptr;
    if (!y) return nullptr;
    const bool exact = q == "np.testing.assert_array_equal";
    double rt = exact ? 0 : 1e-7, at = 0;
    if (!exact) {
      if (V r = a.get(2, "rtol"); r && !tolerance(r, "rtol", &rt)) return nullptr;
      if (V r = a.get(3, "atol"); r && !tolerance(r, "atol", &at)) return nullptr;
    }
    bool eqnan = true;
    if (V r = a.get(4, "equal_nan")) eqnan = truth(r) == 1;
    std::string err_msg;
    if (V r = a.get(5, "err_msg")) err_msg = str(r);
    NdArray ax, dx;
    if (!to_array(x, &ax) || !to_array(y, &dx)) return nullptr;
    // NumPy converts with np.asanyarray: Python scalars become float64/int64 arrays.
    ax.weak = dx.weak = false;
    ax.jax = dx.jax = false;
    auto rep = [](const NdArray& arr) { return array_repr(arr); };
    std::string head = "\n" +
                       std::string(exact ? "Arrays are not equal"
                                         : "Not equal to tolerance rtol=" + scalar_g(rt) +
                                               ", atol=" + scalar_g(at)) +
                       "\n";
    if (!err_msg.empty()) head += err_msg + "\n";
    std::vector<std::int64_t> shp;
    auto d = binary("-", astype(ax, DType::Float64), astype(dx, DType::Float64));
    if (!d || (ax.dims != dx.dims && !ax.dims.empty() && !dx.dims.empty())) {
      return raise("AssertionError", head + "\n(shapes " + shape_repr(ax.dims) + ", " +
                                         shape_repr(dx.dims) + " mismatch)\n x: " + rep(ax) +
                                         "\n y: " + rep(dx));
    }
    auto xb = binary("+", astype(ax, DType::Float64),
                     binary("*", d.value(), scalar_array(0, 2, false)).value());
    auto yb = binary("+", astype(dx, DType::Float64),
                     binary("*", d.value(), scalar_array(0, 2, false)).value());
    const std::size_t n = static_cast<std::size_t>(d->size());
    std::size_t bad = 0;
    double max_abs = 0, max_rel = 0;
    bool nan_mismatch = false;
    const bool int_diff = !ax.is_float() && !dx.is_float();
    for (std::size_t k = 0; k < n; ++k) {
      const double p = xb->f[k], q2 = yb->f[k];
      bool ok;
      if (std::isnan(p) || std::isnan(q2)) {
        ok = eqnan && std::isnan(p) && std::isnan(q2);
        if (!ok) nan_mismatch = true;
      } else if (std::isinf(p) || std::isinf(q2)) {
        ok = p == q2;
      } else {
        ok = std::fabs(p - q2) <= at + rt * std::fabs(q2);
      }
      if (!ok) {
        ++bad;
        if (std::isfinite(p) && std::isfinite(q2)) {
          const double e = std::fabs(p - q2);
          max_abs = std::max(max_abs, e);
          max_rel = std::max(max_rel, q2 != 0 ? e / std::fabs(q2) : INFINITY);
        }
      }
    }
    if (!bad) return none_v();
    (void)nan_mismatch;
    char pct[64];
    const double pc = 100.0 * static_cast<double>(bad) / static_cast<double>(n);
    std::snprintf(pct, sizeof pct, "%.3g", pc);
    std::string msg = head + "\nMismatched elements: " + std::to_string(bad) + " / " +
                      std::to_string(n) + " (" + pct + "%)\n";
    msg += "Max absolute difference: " +
           scalar_str(max_abs, int_diff ? DType::Int64 : DType::Float64) + "\n";
    msg += "Max relative difference: " + scalar_str(max_rel, DType::Float64) + "\n";
    msg += " x: " + rep(ax) + "\n y: " + rep(dx);
    return raise("AssertionError", msg);
  }
  static std::string scalar_g(double v) {
    // NumPy formats rtol/atol with '%g'-like repr: `rtol=1e-07, atol=0`; 2e-05 → `2e-05`.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }

  // ---- methods ----
  V call_method(const V& self, const std::string& name, const Args& a) {
    if (!step()) return nullptr;
    if (self->t == T::Method && self->s == "at[]") return index_update(self, name, a);
    if ((self->t == T::Traced || self->t == T::Array) && (name == "at" || name == "at[]"))
      return raise("TypeError", std::string("'") +
                                    (name == "at" ? "_IndexUpdateHelper" : "_IndexUpdateRef") +
                                    "' object is not callable");
    if (self->t == T::Traced) {
      tr::Ref x = to_tr(self);
      if (!x) return nullptr;
      std::vector<tr::Ref> pos;
      tr::Kw kw;
      if (!to_tr_args(a, &pos, &kw)) return nullptr;
      auto m = std::make_shared<tr::Obj>();
      m->k = tr::K::Method;
      m->s = name;
      m->self = x;
      return from_tr(trace_->call_method(m, pos, kw));
    }
    switch (self->t) {
      case T::List:
        return list_method(self, name, a);
      case T::Dict:
        return dict_method(self, name, a);
      case T::Set:
        return set_method(self, name, a);
      case T::Str:
        return str_method(self, name, a);
      case T::Tuple: {
        V x = need(a, 0, "value", name);
        if (!x) return nullptr;
        std::int64_t c = 0;
        for (std::size_t k = 0; k < self->items.size(); ++k)
          if (equal(self->items[k], x)) {
            if (name == "index") return mk_int(static_cast<std::int64_t>(k));
            ++c;
          } else if (exc_) {
            return nullptr;
          }
        if (name == "index") return raise("ValueError", "tuple.index(x): x not in tuple");
        return mk_int(c);
      }
      case T::Float:
        return mk_bool(std::isfinite(self->f) && self->f == std::floor(self->f));
      case T::Int:
      case T::Bool: {  // int.bit_length(), int.bit_count(): of |x|
        if (!a.pos.empty() || !a.kw.empty())
          return raise("TypeError", "int." + name + "() takes no arguments (" +
                                        std::to_string(a.pos.size() + a.kw.size()) + " given)");
        const BigInt b = big_of(self);
        if (name == "bit_length") return mk_int(static_cast<std::int64_t>(b.bits()));
        std::int64_t ones = 0;
        for (std::uint32_t w : b.mag) ones += __builtin_popcount(w);
        return mk_int(ones);
      }
      case T::Array:
        return array_method(self, name, a);
      case T::Jitted:
        return jit_lower(self, a);
      case T::Lowered: {
        if (lowering_ && self->text.empty())  // not the entry: a lowering run lowers only the entry
          return raise("NotImplementedError", "Lowered." + name + " of " + self->s +
                                                  ": this lowering run lowers only the entry, " +
                                                  lowering_->entry +
                                                  " (its .lower(...) call is where it stops)");
        if (name == "as_text") return mk_str(self->text);
        if (name == "compiler_ir") {
          V d = a.get(0, "dialect");
          if (d && !(d->t == T::Str && d->s == "stablehlo"))
            return raise("ValueError",
                         "compiler_ir: only dialect='stablehlo' is available here, got " + repr(d));
          auto ir = mk(T::IR);
          ir->text = self->text;
          return ir;
        }
        return compile(self);
      }
      case T::Compiled: {
        if (name == "as_text") return mk_str(self->text);
        return cost_analysis(self);
      }
      default:
        break;
    }
    return no_attribute(self, name);
  }
  V list_method(const V& self, const std::string& name, const Args& a) {
    auto& items = self->items;
    if (name == "append") {
      V x = need(a, 0, "object", "append");
      if (!x) return nullptr;
      if (items.size() >= (std::size_t(1) << 26))
        return fatal("MemoryError", "a list past 2**26 items");
      items.push_back(x);
      return none_v();
    }
    if (name == "extend") {
      V x = need(a, 0, "iterable", "extend");
      if (!x) return nullptr;
      std::vector<V> more;
      if (!iterate(x, &more)) return nullptr;
      items.insert(items.end(), more.begin(), more.end());
      return none_v();
    }
    if (name == "pop") {
      if (items.empty()) return raise("IndexError", "pop from empty list");
      std::int64_t k = static_cast<std::int64_t>(items.size()) - 1;
      if (V i = a.get(0, "index")) k = int_of(i);
      if (!norm_index(&k, static_cast<std::int64_t>(items.size()), "pop")) return nullptr;
      V v = items[static_cast<std::size_t>(k)];
      items.erase(items.begin() + k);
      return v;
    }
    if (name == "insert") {
      if (a.pos.size() != 2)
        return raise("TypeError",
                     "insert expected 2 arguments, got " + std::to_string(a.pos.size()));
      std::int64_t k = int_of(a.pos[0]);
      const auto n = static_cast<std::int64_t>(items.size());
      if (k < 0) k = std::max<std::int64_t>(0, k + n);
      k = std::min(k, n);
      items.insert(items.begin() + k, a.pos[1]);
      return none_v();
    }
    if (name == "index" || name == "count") {
      V x = need(a, 0, "value", name);
      if (!x) return nullptr;
      std::int64_t c = 0;
      for (std::size_t k = 0; k < items.size(); ++k)
        if (equal(items[k], x)) {
          if (name == "index") return mk_int(static_cast<std::int64_t>(k));
          ++c;
        } else if (exc_) {
          return nullptr;
        }
      if (name == "index") return raise("ValueError", repr(x) + " is not in list");
      return mk_int(c);
    }
    if (name == "sort") {
      V rev = a.get(99, "reverse");
      int r = 0;
      if (rev && (r = truth(rev)) < 0) return nullptr;
      if (!sort_values(items, a.get(99, "key"), r)) return nullptr;
      return none_v();
    }
    if (name == "reverse") {
      std::reverse(items.begin(), items.end());
      return none_v();
    }
    if (name == "clear") {
      items.clear();
      return none_v();
    }
    return mk_seq(T::List, items);  // copy
  }
  V set_method(const V& self, const std::string& name, const Args& a) {
    if (name == "copy")
      return charge(static_cast<double>(self->items.size())) ? set_copy(self) : nullptr;
    if (name == "clear") {
      self->items.assign(8, nullptr);
      self->hashes.assign(8, 0);
      self->used = self->fill = 0;
      return none_v();
    }
    if (name == "update") {
      for (auto& x : a.pos)
        if (!set_update(self, x)) return nullptr;
      return none_v();
    }
    // The others take sets; any other iterable is made a set first.
    std::vector<V> others;
    for (auto& x : a.pos) {
      if (x->t == T::Set) {
        others.push_back(x);
        continue;
      }
      if (name == "add" || name == "discard" || name == "remove") break;
      V st = mk_set();
      if (!set_update(st, x)) return nullptr;
      others.push_back(st);
    }
    if (name == "add" || name == "discard" || name == "remove") {
      V x = need(a, 0, "elem", name);
      if (!x) return nullptr;
      if (name == "add") return set_add(self, x) ? none_v() : nullptr;
      std::int64_t h = 0;
      if (!py_hash(x, &h)) return nullptr;
      if (!set_discard(self, x) && name == "remove") return raise_key(x);
      return none_v();
    }
    if (name == "union" || name == "intersection" || name == "difference" ||
        name == "symmetric_difference") {
      const std::string op = name == "union"          ? "|"
                             : name == "intersection" ? "&"
                             : name == "difference"   ? "-"
                                                      : "^";
      if (others.empty()) return set_copy(self);
      V r = self;
      for (auto& o : others)
        if (!(r = set_binop(op, r, o))) return nullptr;
      return r;
    }
    V x = need(a, 0, "other", name);
    if (!x || others.empty()) return nullptr;
    if (name == "issubset") return mk_bool(set_subset(self, others[0]));
    if (name == "issuperset") return mk_bool(set_subset(others[0], self));
    V both = set_binop("&", self, others[0]);  // isdisjoint
    return both ? mk_bool(both->used == 0) : nullptr;
  }
  V dict_method(const V& self, const std::string& name, const Args& a) {
    if (name == "keys") return mk_seq(T::List, self->items);
    if (name == "values") return mk_seq(T::List, self->vals);
    if (name == "items") {
      std::vector<V> out;
      for (std::size_t k = 0; k < self->items.size(); ++k)
        out.push_back(mk_seq(T::Tuple, {self->items[k], self->vals[k]}));
      return mk_seq(T::List, std::move(out));
    }
    if (name == "copy") {
      auto d = mk(T::Dict);
      d->items = self->items;
      d->vals = self->vals;
      return d;
    }
    if (name == "update") {
      V o = need(a, 0, "other", "update");
      if (!o) return nullptr;
      if (o->t != T::Dict) return raise("NotImplementedError", "dict.update takes a dict here");
      for (std::size_t k = 0; k < o->items.size(); ++k) dict_set(self, o->items[k], o->vals[k]);
      return none_v();
    }
    V key = need(a, 0, "key", name);
    if (!key || !hashable(key)) return nullptr;
    const int j = dict_find(self, key);
    V dflt = a.get(1, "default");
    if (name == "get")
      return j >= 0 ? self->vals[static_cast<std::size_t>(j)] : (dflt ? dflt : none_v());
    if (name == "setdefault") {
      if (j >= 0) return self->vals[static_cast<std::size_t>(j)];
      dict_set(self, key, dflt ? dflt : none_v());
      return dflt ? dflt : none_v();
    }
    // pop
    if (j < 0) {
      if (dflt) return dflt;
      return raise_key(key);
    }
    V v = self->vals[static_cast<std::size_t>(j)];
    self->items.erase(self->items.begin() + j);
    self->vals.erase(self->vals.begin() + j);
    return v;
  }
  // str.format: replacement fields {}, {0}, {name}, each with attribute and item lookups
  // ({0.shape}, {a[0]}, {d[key]}: digits index by int, anything else by str, as CPython's), an
  // optional !r/!s/!a conversion and a :spec (format_value, the f-strings' mini-language; a spec's
  // own nested fields are filled in first); {{ and }} are braces.
  // Automatic field numbering, shared by a format string and the fields nested in its specs.
  struct AutoNumber {
    std::size_t next = 0;
    bool automatic = false, manual = false;
  };
  V str_format(const std::string& s, const Args& a, int depth = 2, AutoNumber* shared = nullptr) {
    if (depth <= 0) return raise("ValueError", "Max string recursion exceeded");  // CPython's 2
    std::string out;
    AutoNumber own;
    AutoNumber& numbering = shared ? *shared : own;
    std::size_t& next_auto = numbering.next;
    bool& automatic = numbering.automatic;
    bool& manual = numbering.manual;
    const auto digits = [](const std::string& t) {
      return !t.empty() &&
             std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    std::function<V(const std::string&)> field_arg;
    // The field's value: its argument, then each .attribute and [key] in turn.
    const auto field_value = [&](const std::string& field) -> V {
      const std::size_t first = field.find_first_of(".[");
      V v = field_arg(field.substr(0, first));
      for (std::size_t k = first; v && k != std::string::npos && k < field.size();) {
        if (field[k] == '.') {
          const std::size_t end = field.find_first_of(".[", k + 1);
          const std::string attr =
              field.substr(k + 1, end == std::string::npos ? end : end - k - 1);
          if (attr.empty()) return raise("ValueError", "Empty attribute in format string");
          v = attribute(v, attr);
          k = end;
        } else if (field[k] == '[') {
          const std::size_t close = field.find(']', k + 1);
          if (close == std::string::npos)
            return raise("ValueError", "Missing ']' in format string");
          const std::string key = field.substr(k + 1, close - k - 1);
          if (key.empty()) return raise("ValueError", "Empty attribute in format string");
          if (digits(key)) {  // an int key, as CPython reads it (too many digits refused)
            const std::size_t first = key.find_first_not_of('0');
            const std::string sig = first == std::string::npos ? "0" : key.substr(first);
            if (sig.size() > 18)
              return raise("ValueError", "Too many decimal digits in format string");
            v = subscript(v, mk_int(std::stoll(sig)));
          } else {
            v = subscript(v, mk_str(key));
          }
          k = close + 1;
          if (k < field.size() && field[k] != '.' && field[k] != '[')
            return raise("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
        } else {
          break;
        }
      }
      return v;
    };
    field_arg = [&](const std::string& name) -> V {
      if (name.empty()) {
        if (manual)
          return raise(
              "ValueError",
              "cannot switch from manual field specification to automatic field numbering");
        automatic = true;
        const std::size_t k = next_auto++;
        if (k >= a.pos.size())
          return raise("IndexError", "Replacement index " + std::to_string(k) +
                                         " out of range for positional args tuple");
        return a.pos[k];
      }
      if (digits(name)) {
        if (automatic)
          return raise(
              "ValueError",
              "cannot switch from automatic field numbering to manual field specification");
        manual = true;
        const std::size_t k = name.size() > 9 ? a.pos.size() : std::stoul(name);
        if (k >= a.pos.size())
          return raise("IndexError",
                       "Replacement index " + name + " out of range for positional args tuple");
        return a.pos[k];
      }
      for (const auto& kv : a.kw)
        if (kv.first == name) return kv.second;
      return raise("KeyError", "'" + name + "'");
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '}') {
        if (i + 1 < s.size() && s[i + 1] == '}') {
          out += '}';
          ++i;
          continue;
        }
        return raise("ValueError", "Single '}' encountered in format string");
      }
      if (c != '{') {
        out += c;
        continue;
      }
      if (i + 1 < s.size() && s[i + 1] == '{') {
        out += '{';
        ++i;
        continue;
      }
      // The field, as CPython's MarkupIterator reads it: its name (an [item] key may hold any
      // character) up to '}', ':' or '!'; after '!', one conversion character; then the spec up
      // to the '}' that closes the field (nested fields counted).
      if (i + 1 >= s.size()) return raise("ValueError", "Single '{' encountered in format string");
      std::size_t j = i + 1;
      char stop = 0;
      while (j < s.size()) {
        const char d = s[j++];
        if (d == '{') return raise("ValueError", "unexpected '{' in field name");
        if (d == '[') {
          while (j < s.size() && s[j] != ']') ++j;
          continue;
        }
        if (d == '}' || d == ':' || d == '!') {
          stop = d;
          break;
        }
      }
      if (!stop) return raise("ValueError", "expected '}' before end of string");
      const std::string name = s.substr(i + 1, j - i - 2);
      char conv = 0;
      std::string spec;
      if (stop != '}') {
        if (stop == '!') {
          if (j >= s.size())
            return raise("ValueError", "end of string while looking for conversion specifier");
          conv = s[j++];
        }
        const std::size_t spec_at = j;
        int depth = 1;
        while (j < s.size() && depth > 0) {
          if (s[j] == '{') ++depth;
          if (s[j] == '}') --depth;
          ++j;
        }
        if (depth > 0) return raise("ValueError", "unmatched '{' in format spec");
        spec = s.substr(spec_at, j - 1 - spec_at);
        if (conv) {
          if (!spec.empty() && spec[0] != ':')
            return raise("ValueError", "expected ':' after conversion specifier");
          if (std::string("rsa").find(conv) == std::string::npos)
            return raise("ValueError", std::string("Unknown conversion specifier ") + conv);
          if (!spec.empty()) spec.erase(0, 1);
        }
      }
      i = j - 1;
      V v = field_value(name);  // the field first, then its spec's own fields (CPython's order)
      if (!v) return nullptr;
      if (spec.find('{') != std::string::npos) {  // nested fields, filled from the same arguments
        V inner = str_format(spec, a, depth - 1, &numbering);
        if (!inner) return nullptr;
        spec = inner->s;
      }
      V piece = format_field(v, conv, spec);
      if (!piece) return nullptr;
      out += piece->s;
    }
    return mk_str(out);
  }

  V str_method(const V& self, const std::string& name, const Args& a) {
    const std::string& s = self->s;
    if (name == "format") return str_format(s, a);
    if (name == "upper" || name == "lower") {
      std::string r = s;
      for (auto& c : r)
        c = static_cast<char>(name == "upper" ? std::toupper(static_cast<unsigned char>(c))
                                              : std::tolower(static_cast<unsigned char>(c)));
      return mk_str(r);
    }
    // str.split() and str.strip()'s whitespace: CPython's ASCII whitespace (Py_UNICODE_ISSPACE
    // below 128: \t \n \v \f \r, the separators \x1c-\x1f, space); Unicode's own spaces (U+00A0,
    // U+2000...) are not split on here.
    static constexpr const char* kSpace = " \t\n\r\f\v\x1c\x1d\x1e\x1f";
    if (name == "strip") {
      const auto b = s.find_first_not_of(kSpace), e = s.find_last_not_of(kSpace);
      return mk_str(b == std::string::npos ? "" : s.substr(b, e - b + 1));
    }
    if (name == "join") {
      V x = need(a, 0, "iterable", "join");
      if (!x) return nullptr;
      std::vector<V> items;
      if (!iterate(x, &items)) return nullptr;
      std::string r;
      for (std::size_t k = 0; k < items.size(); ++k) {
        if (items[k]->t != T::Str)
          return raise("TypeError", "sequence item " + std::to_string(k) +
                                        ": expected str instance, " + type_name(items[k]) +
                                        " found");
        r += (k ? s : "") + items[k]->s;
      }
      return mk_str(r);
    }
    if (name == "split") {
      for (auto& [k, v] : a.kw)
        if (k != "sep" && k != "maxsplit")
          return raise("TypeError", "split() got an unexpected keyword argument '" + k + "'");
      if (a.pos.size() > 2)
        return raise("TypeError", "split() takes at most 2 arguments (" +
                                      std::to_string(a.pos.size()) + " given)");
      // maxsplit: at most this many splits, the rest of the string the last item; negative
      // (CPython's default, -1): no limit.
      std::int64_t limit = -1;
      if (V ms = a.get(1, "maxsplit")) {
        if (!is_intlike(ms))
          return raise("TypeError",
                       "'" + type_name(ms) + "' object cannot be interpreted as an integer");
        if (is_big(ms))
          return raise("OverflowError", "Python int too large to convert to C ssize_t");
        limit = int_of(ms);
      }
      const auto room = [&](const std::vector<V>& out) {
        return limit < 0 || static_cast<std::int64_t>(out.size()) < limit;
      };
      std::vector<V> out;
      V sep = a.get(0, "sep");
      if (!sep || sep->t == T::None) {
        // Runs of whitespace separate words (no stream here: std::istringstream pulled the
        // iostreams' locale machinery, about 45 kB of code, into the wasm core). Past the last
        // split the rest is one item, its trailing whitespace kept, as CPython keeps it.
        for (std::size_t b = s.find_first_not_of(kSpace); b != std::string::npos;) {
          if (!room(out)) {
            out.push_back(mk_str(s.substr(b)));
            break;
          }
          const std::size_t e = s.find_first_of(kSpace, b);
          out.push_back(mk_str(s.substr(b, e == std::string::npos ? std::string::npos : e - b)));
          b = e == std::string::npos ? e : s.find_first_not_of(kSpace, e);
        }
      } else {
        if (sep->t != T::Str)
          return raise("TypeError", "must be str or None, not " + type_name(sep));
        if (sep->s.empty()) return raise("ValueError", "empty separator");
        std::size_t start = 0;
        while (true) {
          const auto p = room(out) ? s.find(sep->s, start) : std::string::npos;
          out.push_back(
              mk_str(s.substr(start, p == std::string::npos ? std::string::npos : p - start)));
          if (p == std::string::npos) break;
          start = p + sep->s.size();
        }
      }
      return mk_seq(T::List, std::move(out));
    }
    if (name == "splitlines") {  // at \n, \r\n, \r and the ASCII line boundaries CPython's has
      V keep = a.get(0, "keepends");
      const bool keepends = keep && truth(keep) > 0;
      std::vector<V> out;
      std::size_t b = 0;
      for (std::size_t k = 0; k < s.size(); ++k) {
        const char c = s[k];
        if (c != '\n' && c != '\r' && c != '\v' && c != '\f' && c != '\x1c' && c != '\x1d' &&
            c != '\x1e')
          continue;
        const std::size_t end = (c == '\r' && k + 1 < s.size() && s[k + 1] == '\n') ? k + 2 : k + 1;
        out.push_back(mk_str(s.substr(b, (keepends ? end : k) - b)));
        b = end;
        k = end - 1;
      }
      if (b < s.size()) out.push_back(mk_str(s.substr(b)));
      return mk_seq(T::List, std::move(out));
    }
    V x = need(a, 0, "arg", name);
    if (!x) return nullptr;
    if (x->t != T::Str) return raise("TypeError", "must be str, not " + type_name(x));
    if (name == "count") {  // non-overlapping occurrences; "" occurs len + 1 times
      if (x->s.empty()) return mk_int(static_cast<std::int64_t>(s.size()) + 1);
      std::int64_t n = 0;
      for (auto p = s.find(x->s); p != std::string::npos; p = s.find(x->s, p + x->s.size())) ++n;
      return mk_int(n);
    }
    if (name == "startswith") return mk_bool(s.compare(0, x->s.size(), x->s) == 0);
    if (name == "endswith")
      return mk_bool(s.size() >= x->s.size() &&
                     s.compare(s.size() - x->s.size(), x->s.size(), x->s) == 0);
    if (name == "find") {
      const auto p = s.find(x->s);
      return mk_int(p == std::string::npos ? -1 : static_cast<std::int64_t>(p));
    }
    if (name == "replace") {
      V y = need(a, 1, "new", name);
      if (!y) return nullptr;
      if (y->t != T::Str)
        return raise("TypeError", "replace() argument 2 must be str, not " + type_name(y));
      if (x->s.empty())
        return raise("NotImplementedError", "replace of an empty string is not supported here");
      std::string r;
      std::size_t start = 0;
      while (true) {
        const auto p = s.find(x->s, start);
        if (p == std::string::npos) break;
        r += s.substr(start, p - start) + y->s;
        start = p + x->s.size();
      }
      return mk_str(r + s.substr(start));
    }
    return raise("NotImplementedError", "str." + name + "() is not supported here yet");
  }
  // x op= y on a NumPy array, as NumPy's in-place operators: the result written into x (its
  // dtype kept, by casting 'same_kind'; its shape kept: the result may not broadcast past it).
  bool array_in_place(const std::string& op, const V& x, const V& y) {
    static const std::pair<const char*, const char*> kUfunc[] = {
        {"+", "add"},           {"-", "subtract"},    {"*", "multiply"},    {"/", "divide"},
        {"//", "floor_divide"}, {"%", "remainder"},   {"**", "power"},      {"&", "bitwise_and"},
        {"|", "bitwise_or"},    {"^", "bitwise_xor"}, {"<<", "left_shift"}, {">>", "right_shift"}};
    if (op == "@") {
      raise("TypeError",
            "In-place matrix multiplication is not (yet) supported. Use 'a = a @ b' instead of "
            "'a @= b'.");
      return false;
    }
    V r = binop(op, x, y);
    if (!r) return false;
    if (r->t != T::Array) {
      raise("TypeError", "unsupported operand type(s) for " + op + "=: '" + type_name(x) +
                             "' and '" + type_name(y) + "'");
      return false;
    }
    if (r->arr.dims != x->arr.dims) {
      raise("ValueError", "non-broadcastable output operand with shape " +
                              numpy_shape(x->arr.dims) + " doesn't match the broadcast shape " +
                              numpy_shape(r->arr.dims));
      return false;
    }
    if (dtype_kind(r->arr.dt) > dtype_kind(x->arr.dt)) {
      const char* name = op.c_str();
      for (const auto& [o, u] : kUfunc)
        if (op == o) name = u;
      raise("UFuncTypeError", std::string("Cannot cast ufunc '") + name + "' output from dtype('" +
                                  dtype_name(r->arr.dt) + "') to dtype('" + dtype_name(x->arr.dt) +
                                  "') with casting rule 'same_kind'");
      return false;
    }
    x->arr = astype(r->arr, x->arr.dt);
    return true;
  }
  // Whether elements at flat offsets `at` (row-major in `dims`) are base + index · strides for
  // some strides: then a strided view can hold them in that shape.
  static bool strided(const std::vector<std::int64_t>& at, const std::vector<std::int64_t>& dims) {
    if (at.size() <= 1) return true;
    const std::size_t rank = dims.size();
    std::vector<std::int64_t> stride(rank, 0), unit(rank, 1);
    for (std::size_t d = rank; d-- > 1;) unit[d - 1] = unit[d] * dims[d];
    for (std::size_t d = 0; d < rank; ++d)
      if (dims[d] > 1) stride[d] = at[static_cast<std::size_t>(unit[d])] - at[0];
    std::vector<std::int64_t> idx(rank, 0);
    std::int64_t expect = at[0];
    for (std::size_t k = 0; k < at.size(); ++k) {
      if (at[k] != expect) return false;
      for (std::size_t d = rank; d-- > 0;) {  // the next index, row-major
        if (++idx[d] < dims[d]) {
          expect += stride[d];
          break;
        }
        expect -= stride[d] * (dims[d] - 1);
        idx[d] = 0;
      }
    }
    return true;
  }
  V array_method(const V& self, const std::string& name, const Args& a) {
    const NdArray& x = self->arr;
    // An ndarray's copy, astype and reshape give an ndarray, 0-d included (array(2.5, ...)); a
    // NumPy scalar's give a scalar, as NumPy's scalar methods do.
    auto same_kind = [&](V r) {
      if (r && r->t == T::Array && r->arr.dims.empty() && !r->arr.jax) r->b = !np_scalar(self);
      return r;
    };
    if (name == "block_until_ready") return self;
    // A jax.Array is immutable: its copy may be itself. A host array's is a new array, so that
    // writing into it leaves the original as it was.
    if (name == "copy") return x.jax ? self : same_kind(from_array(NdArray(x)));
    if (name == "tolist") {
      std::function<V(std::size_t, std::size_t)> build = [&](std::size_t axis,
                                                             std::size_t off) -> V {
        if (axis == x.dims.size()) {
          if (x.dt == DType::Bool) return mk_bool(x.i[off] != 0);
          if (x.is_float()) return mk_float(x.f[off]);
          return mk_int(x.i[off]);
        }
        std::size_t stride = 1;
        for (std::size_t d = axis + 1; d < x.dims.size(); ++d)
          stride *= static_cast<std::size_t>(x.dims[d]);
        std::vector<V> items;
        for (std::int64_t k = 0; k < x.dims[axis]; ++k)
          items.push_back(build(axis + 1, off + static_cast<std::size_t>(k) * stride));
        return mk_seq(T::List, std::move(items));
      };
      return build(0, 0);
    }
    if (name == "item") {
      if (x.size() != 1)
        return raise("ValueError", "can only convert an array of size 1 to a Python scalar");
      if (x.dt == DType::Bool) return mk_bool(x.i[0] != 0);
      if (x.is_float()) return mk_float(x.f[0]);
      return mk_int(x.i[0]);
    }
    if (name == "flatten") {
      NdArray r = x;
      r.dims = {x.size()};
      return mk_array(std::move(r));
    }
    if (name == "ravel") {  // reshape(-1): a view where NumPy's reshape gives one
      if (!a.pos.empty() || !a.kw.empty())
        return raise("NotImplementedError", "ravel with order= is not supported here");
      Args b;
      b.pos = {mk_int(-1)};
      return array_method(self, "reshape", b);
    }
    if (name == "reshape") {
      std::vector<std::int64_t> dims;
      if (a.pos.size() == 1 && !is_intlike(a.pos[0])) {
        if (!shape_arg(a.pos[0], &dims)) return nullptr;
      } else {
        for (auto& p : a.pos) {
          if (!is_intlike(p))
            return raise("TypeError",
                         "'" + type_name(p) + "' object cannot be interpreted as an integer");
          dims.push_back(int_of(p));
        }
      }
      auto r = reshape(x, dims);
      if (!r) return raise(x.jax ? "TypeError" : "ValueError", r.error());
      V out = same_kind(mk_array(std::move(r.value())));
      // A reshape is a view when strides can reach the elements in the new shape (a whole
      // array; x[1:3]; x[:, ::2] flattened), as NumPy's no-copy reshape finds; else a copy.
      if (x.jax) return out;
      if (self->view && !strided(self->view->at, out->arr.dims)) return out;
      std::vector<std::int64_t> offs(static_cast<std::size_t>(x.size()));
      for (std::size_t j = 0; j < offs.size(); ++j) offs[j] = static_cast<std::int64_t>(j);
      return link_view(self, out, offs);
    }
    if (name == "round") return rounded(x, a.get(0, "decimals"));  // 0-d: a scalar, as NumPy's
    if (name == "sort") {
      // A jax.Array is immutable: its sort gives a sorted copy (jnp.sort). NumPy's sorts in
      // place, and every array sharing its memory sees the new order.
      V axis = a.get(0, "axis");
      if (axis && axis->t == T::None && !x.jax)
        return raise("TypeError", "'NoneType' object cannot be interpreted as an integer");
      std::size_t ax = 0;
      if (!(axis && axis->t == T::None) && !sort_axis(axis, x, &ax)) return nullptr;
      if (!charge(static_cast<double>(x.size()))) return nullptr;
      if (x.jax) {
        NdArray r = x;
        if (axis && axis->t == T::None) {
          r.dims = {r.size()};
          ax = 0;
        }
        return mk_array(sort_along(r, ax));
      }
      self->arr = sort_along(x, ax);
      wrote(self, -1);
      return none_v();
    }
    if (name == "fill") {
      if (x.jax) return no_attribute(self, name);
      if (a.pos.size() + a.kw.size() != 1)
        return raise("TypeError", "fill() takes exactly 1 argument (" +
                                      std::to_string(a.pos.size() + a.kw.size()) + " given)");
      V v = need(a, 0, "value", "fill");
      if (!v) return nullptr;
      if ((v->t == T::Array && v->arr.size() != 1) || v->t == T::List || v->t == T::Tuple)
        return raise("ValueError", "setting an array element with a sequence.");
      if (v->t == T::Str && x.dt != DType::Bool) {  // NumPy parses it as the dtype's number
        v = x.is_float() ? to_float(v) : to_int(v);
        if (!v) return nullptr;
      }
      if (!array_store(self, ellipsis_v(), v)) return nullptr;
      return none_v();
    }
    if (name == "argmax" || name == "argmin" || name == "var" || name == "std")
      return reduce_with_options(name, x, a, 0);
    if (name == "cumsum" || name == "cumprod") {
      if (!cumulative_options(name, a, 0)) return nullptr;
      return np_cumulative(name, x, a.get(0, "axis"), a.get(1, "dtype"));
    }
    if (name == "clip") return np_clip(self, a.get(0, "min"), a.get(1, "max"));
    if (name == "squeeze") return np_squeeze(self, x, a.get(0, "axis"));
    if (name == "transpose") {  // a.transpose(), a.transpose(1, 0), a.transpose((1, 0))
      std::vector<V> list = a.pos;
      if (list.size() == 1 && list[0]->t != T::None && !is_intlike(list[0])) {
        const V axes = list[0];
        list.clear();
        if (!iterate(axes, &list)) return nullptr;
      }
      if (list.size() == 1 && list[0]->t == T::None) list.clear();
      return np_transpose(self, x, list);
    }
    if (name == "astype") {
      V d = need(a, 0, "dtype", "astype");
      if (!d) return nullptr;
      DType t;
      if (!dtype_arg(d, &t)) return nullptr;
      return same_kind(from_array(astype(x, canon(t, x.jax))));
    }
    // reductions
    V r = np_reduce(name, self, a, 0);
    if (r && x.jax && r->t != T::Array) {
      NdArray t;
      to_array(r, &t, true);
      t.weak = false;
      t.jax = true;
      t = astype(t, canon(t.dt, true));
      return mk_array(t);
    }
    return r;
  }

  // ---- traced arrays: the tracer's rules for what meets them (python/traced.h) ----
  // While jax.jit traces a function (jit_lower), this machine runs its Python, as CPython runs a
  // function JAX traces; an operation that meets a traced array goes to the tracer, which emits
  // the primitives JAX would. A traced array that outlives its trace is JAX's unexpected tracer.
  tr::Session* trace_ = nullptr;  // the trace running now
  std::int64_t trace_id_ = 0;     // its number (a Traced value's `i`)
  std::int64_t traces_ = 0;       // traces begun
  bool trace_raised_ = false;     // a function the tracer called back raised: exc_ is pending

  static std::string traced_aval(const V& v) { return tr::aval_text(v->tv->aval); }
  // bool(x), or bool() of a comparison with x (`compared`: its result is bool), for a traced
  // array x: JAX's TracerBoolConversionError (a comparison is not emitted for it).
  void truth_error(const V& v, bool compared) {
    if (!traced_live(v)) return;
    hlo::jax::Aval a = v->tv->aval;
    if (compared) a.dtype = "i1";
    raise("TracerBoolConversionError",
          "Attempted boolean conversion of traced array with shape " + tr::aval_text(a) +
              ". The truth value of an array is not known while tracing; use jnp.where or "
              "lax.cond");
  }
  // The operands of an operation that meets a traced array, each live before either is handed
  // over (handing over a host constant emits it).
  bool operands_live(const V& x, const V& y) {
    for (const V* v : {&x, &y})
      if ((*v)->t == T::Traced && !traced_live(*v)) return false;
    return true;
  }
  bool traced_live(const V& v) {
    // A lowering run's top-level arrays (trace 0) reach a trace too: the tracer refuses them there
    // by name (a constant baked into the program).
    if (trace_ && (v->i == trace_id_ || (lowering_ && v->i == 0))) return true;
    raise("UnexpectedTracerError",
          "Encountered an unexpected tracer: a traced array (" + traced_aval(v) +
              ") from a jax.jit trace that has ended is used here; return it from the traced "
              "function instead");
    return false;
  }
  V from_tr(const tr::Ref& r) {
    switch (r->k) {
      case tr::K::Array: {
        auto o = mk(T::Traced);
        o->tv = r;
        o->i = trace_id_;
        return o;
      }
      case tr::K::None:
        return none_v();
      case tr::K::Bool:
        return mk_bool(r->b);
      case tr::K::Int:
        return mk_int(r->i);
      case tr::K::Float:
        return mk_float(r->f);
      case tr::K::Str:
        return mk_str(r->s);
      case tr::K::Tuple:
      case tr::K::List: {
        std::vector<V> items;
        for (auto& x : r->items) {
          V v = from_tr(x);
          if (!v) return nullptr;
          items.push_back(v);
        }
        return mk_seq(r->k == tr::K::Tuple ? T::Tuple : T::List, std::move(items));
      }
      case tr::K::DType: {
        auto d = mk(T::DType);
        if (!host_dtype(r->s, &d->dt)) d->s = r->s;
        return d;
      }
      default:
        return raise("TypeError", "a value of kind '" + tr_kind_name(r) +
                                      "' came back from a traced operation (not supported here)");
    }
  }
  static std::string tr_kind_name(const tr::Ref& r) {
    return r->k == tr::K::Slice ? "slice" : r->k == tr::K::Ellipsis ? "ellipsis" : "object";
  }
  // A traced operation's result; its failure raised as JAX's error (the tracer's words), or passed
  // on when a function it called back raised.
  V from_tr(Result<tr::Ref> r) {
    if (r) return from_tr(r.value());
    if (trace_raised_) {
      trace_raised_ = false;
      return nullptr;
    }
    return rule_error(r.error());
  }
  // A rule of the tracer refused: the exception JAX raises (tr::refusal), marked (b) as the
  // tracer's words.
  std::nullptr_t rule_error(const std::string& message) {
    const tr::Refusal r = tr::refusal(message);
    raise(r.type, r.text);
    exc_->b = true;
    return nullptr;
  }
  // Tracing a function now (not a lowering run's top level).
  bool in_trace() const { return trace_ && !(lowering_ && trace_ == &lowering_->top); }
  tr::Ref tr_value(tr::K k) {
    auto o = std::make_shared<tr::Obj>();
    o->k = k;
    return o;
  }
  // A value handed to the tracer (null: raised).
  tr::Ref to_tr(const V& v, int depth = 0) {
    if (!trace_) {  // only a traced operation converts; none runs now
      raise(
          "UnexpectedTracerError",
          "Encountered an unexpected tracer: a traced value is used after its jax.jit trace ended");
      return nullptr;
    }
    if (depth > 100) {
      raise("RecursionError",
            "maximum recursion depth exceeded converting a traced call's argument");
      return nullptr;
    }
    if (python_number_scalar(v)) {
      tr::Ref o = to_tr(as_real(v), depth + 1);
      if (o && (o->k == tr::K::Int || o->k == tr::K::Float))
        o->strong = mlir_dtype(canon(v->arr.dt, true));
      return o;
    }
    switch (v->t) {
      case T::Traced:
        return traced_live(v) ? v->tv : nullptr;
      case T::None:
        return tr_value(tr::K::None);
      case T::Ellipsis:
        return tr_value(tr::K::Ellipsis);
      case T::Bool: {
        auto o = tr_value(tr::K::Bool);
        o->b = v->b;
        return o;
      }
      case T::Int: {
        if (is_big(v)) {
          raise("OverflowError",
                "Python int " + repr(v) + " too large to convert to " + (x64_ ? "int64" : "int32"));
          return nullptr;
        }
        auto o = tr_value(tr::K::Int);
        o->i = v->i;
        return o;
      }
      case T::Float: {
        auto o = tr_value(tr::K::Float);
        o->f = v->f;
        return o;
      }
      case T::Str: {
        auto o = tr_value(tr::K::Str);
        o->s = v->s;
        return o;
      }
      case T::List:
      case T::Tuple:
      case T::Slice: {
        auto o = tr_value(v->t == T::List    ? tr::K::List
                          : v->t == T::Tuple ? tr::K::Tuple
                                             : tr::K::Slice);
        for (auto& x : v->items) {
          tr::Ref t = to_tr(x, depth + 1);
          if (!t) return nullptr;
          o->items.push_back(t);
        }
        return o;
      }
      case T::DType: {
        auto o = tr_value(tr::K::DType);
        o->s = v->s.empty() ? mlir_dtype(v->dt) : v->s;
        return o;
      }
      case T::Array: {
        const NdArray& x = v->arr;
        if (lowering_ && !in_trace()) {  // a lowering run's top level: abstract, nothing baked in
          auto o = tr_value(tr::K::Array);
          o->aval.dims = x.dims;
          o->aval.dtype = mlir_dtype(canon(x.dt, true));
          o->weak = x.weak;
          return o;
        }
        if (!x.dims.empty()) {
          // JAX's closed-over constant: the array, canonicalized (float64 to float32 and int64
          // to int32 unless x64 is on), printed in the module. Past kMaxBakedElements the
          // module's text would be megabytes of hex: refused, naming the way out.
          if (x.size() > kMaxBakedElements) {
            raise("ValueError",
                  "a host array (" + type_name(v) + " of shape " + shape_repr(x.dims) + ", " +
                      std::to_string(x.size()) +
                      " elements) used in a function jax.jit traces is a constant JAX bakes "
                      "into the program; this page bakes in at most " +
                      std::to_string(kMaxBakedElements) + " elements: pass it as an argument");
            return nullptr;
          }
          const NdArray c = astype(x, canon(x.dt, true));
          std::vector<double> values(static_cast<std::size_t>(c.size()));
          for (std::size_t k = 0; k < values.size(); ++k) values[k] = c.at(k);
          jitted_alive_.push_back(v);  // its identity keys the constant for the trace
          auto r = trace_->constant_array(values, {x.dims, mlir_dtype(c.dt)}, v.get());
          if (!r) return rule_error(r.error());
          return r.value();
        }
        auto r = trace_->constant(x.at(0), mlir_dtype(canon(x.dt, true)), x.weak);
        if (!r) return rule_error(r.error());
        return r.value();
      }
      case T::Builtin:
        if (v->s == "float" || v->s == "int" || v->s == "bool") {  // a dtype: x.astype(float)
          auto o = tr_value(tr::K::Builtin);
          o->s = "builtins." + v->s;
          return o;
        }
        if (supported_name(v->s)) {  // the tracer's own function (lax.add as a computation)
          auto o = tr_value(tr::K::Builtin);
          o->s = v->s;
          return o;
        }
        [[fallthrough]];
      case T::Func:
      case T::Method:
      case T::Jitted: {
        // A function the tracer calls back (lax.fori_loop's body, ...) with traced values.
        auto o = tr_value(tr::K::Func);
        o->s = v->t == T::Func ? (v->lambda ? "<lambda>" : v->def->s) : v->s;
        V fn = v;
        o->call = [this, fn](const std::vector<tr::Ref>& in) -> Result<tr::Ref> {
          Args a;
          for (auto& x : in) {
            V y = from_tr(x);
            if (!y) return callback_raised();
            a.pos.push_back(y);
          }
          const int line = at_line_, col = at_col_;
          V r = call(fn, a);
          if (!r) return callback_raised();
          at_line_ = line, at_col_ = col;  // a failure of the rule that called back is at its call
          tr::Ref out = to_tr(r);
          if (!out) return callback_raised();
          return Result<tr::Ref>::success(out);
        };
        return o;
      }
      default:
        raise("TypeError",
              "a value of type '" + type_name(v) + "' cannot be passed to a traced operation here" +
                  (v->t == T::Dict ? " (dicts as pytrees are not supported here)" : ""));
        return nullptr;
    }
  }
  Result<tr::Ref> callback_raised() {
    trace_raised_ = true;
    return Result<tr::Ref>::failure(Error{"(a Python exception)", "", 0, 0});
  }
  bool to_tr_args(const Args& a, std::vector<tr::Ref>* pos, tr::Kw* kw) {
    for (auto& x : a.pos) {
      tr::Ref t = to_tr(x);
      if (!t) return false;
      pos->push_back(t);
    }
    for (auto& [k, x] : a.kw) {
      tr::Ref t = to_tr(x);
      if (!t) return false;
      kw->emplace_back(k, t);
    }
    return true;
  }
  // Whether a traced array is among the arguments, in lists and tuples too.
  static bool any_traced(const Args& a) {
    std::function<bool(const V&)> in = [&](const V& v) {
      if (v->t == T::Traced) return true;
      if (v->t == T::List || v->t == T::Tuple)
        return std::any_of(v->items.begin(), v->items.end(), in);
      return false;
    };
    return std::any_of(a.pos.begin(), a.pos.end(), in) ||
           std::any_of(a.kw.begin(), a.kw.end(), [&](const auto& kv) { return in(kv.second); });
  }
  V traced_call(const std::string& q, const Args& a) {
    std::vector<tr::Ref> pos;
    tr::Kw kw;
    if (!to_tr_args(a, &pos, &kw)) return nullptr;
    return from_tr(trace_->call(q, pos, kw));
  }
  // An index of a JAX array as jnp reads its concrete parts before any op (_split_index_for_jit):
  // a host bool array (a NumPy mask, an eager comparison) becomes its nonzero positions, one
  // integer array per mask axis (_expand_bool_indices: np.where), after its shape is checked
  // against the axes it covers; a NumPy integer scalar is a Python int (static, as
  // isinstance(i, np.integer) reads it). Anything else is kept. Null: raised.
  V concrete_index(const V& idx, const std::vector<std::int64_t>& shape) {
    const bool tuple = idx->t == T::Tuple;
    const std::vector<V> parts = tuple ? idx->items : std::vector<V>{idx};
    auto is_mask = [](const V& v) {
      return v->t == T::Array && v->arr.dt == DType::Bool && !v->arr.dims.empty();
    };
    if (std::none_of(parts.begin(), parts.end(),
                     [&](const V& v) { return is_mask(v) || np_int_scalar(v); }))
      return idx;
    std::size_t total = 0, ellipses = 0;
    for (const V& v : parts) {
      if (v->t == T::Ellipsis)
        ++ellipses;
      else if (v->t != T::None)
        total += is_mask(v) ? v->arr.dims.size() : 1;
    }
    std::vector<V> out;
    std::size_t offset = 0;
    for (std::size_t n = 0; n < parts.size(); ++n) {
      const V& v = parts[n];
      if (is_mask(v)) {
        const NdArray& m = v->arr;
        const std::size_t start = out.size() + offset;
        std::vector<std::int64_t> expected;
        for (std::size_t d = start; d < start + m.dims.size() && d < shape.size(); ++d)
          expected.push_back(shape[d]);
        if (m.dims != expected)
          return raise("IndexError",
                       "boolean index did not match shape of indexed array in index " +
                           std::to_string(n) + ": got " + shape_repr(m.dims) + ", expected " +
                           shape_repr(expected));
        std::vector<NdArray> where(m.dims.size());
        for (auto& w : where) w.dt = DType::Int64;
        std::vector<std::int64_t> at(m.dims.size(), 0);
        for (std::int64_t k = 0; k < m.size(); ++k) {
          if (m.i[static_cast<std::size_t>(k)]) {
            std::int64_t rest = k;
            for (std::size_t d = m.dims.size(); d-- > 0;) {
              at[d] = rest % m.dims[d];
              rest /= m.dims[d];
            }
            for (std::size_t d = 0; d < at.size(); ++d) where[d].i.push_back(at[d]);
          }
        }
        for (auto& w : where) {
          w.dims = {static_cast<std::int64_t>(w.i.size())};
          out.push_back(from_array(std::move(w)));
        }
      } else if (np_int_scalar(v)) {
        out.push_back(mk_int(v->arr.iat(0)));
      } else {
        out.push_back(v);
      }
      if (v->t == T::Ellipsis && ellipses == 1)
        offset = shape.size() > total ? shape.size() - total - 1 : 0;
    }
    return mk_seq(T::Tuple, std::move(out));
  }
  static std::vector<std::int64_t> array_dims(const V& x) {
    return x->t == T::Traced ? x->tv->aval.dims : x->arr.dims;
  }
  // x.at[index].method(...): the tracer's rule (python/traced.h's index_update) on a traced x
  // or traced values, else eagerly on host JAX arrays (as JAX dispatches it: one op's function).
  // x, then the values, then the index meet the trace, in _scatter_update's order.
  V index_update(const V& ref, const std::string& method, const Args& a) {
    const V& x = ref->self;
    const V index = concrete_index(ref->items[0], array_dims(x));
    if (!index) return nullptr;
    Args all;
    all.pos = {x, index};
    all.pos.insert(all.pos.end(), a.pos.begin(), a.pos.end());
    all.kw = a.kw;
    auto rule = [this, method](const Args& t) -> V {
      tr::Ref tx = to_tr(t.pos[0]);
      if (!tx) return nullptr;
      Args rest;
      rest.pos.assign(t.pos.begin() + 2, t.pos.end());
      rest.kw = t.kw;
      std::vector<tr::Ref> pos;
      tr::Kw kw;
      if (!to_tr_args(rest, &pos, &kw)) return nullptr;
      tr::Ref ti = to_tr(t.pos[1]);
      if (!ti) return nullptr;
      return from_tr(trace_->index_update(tx, ti, method, pos, kw));
    };
    if (trace_ || any_traced(all)) return rule(all);
    return eager_call("jnp.scatter", all, rule);
  }
  // A jnp, lax or jax.nn function called on concrete values outside a trace, as JAX dispatches
  // it eagerly: traced as the only op of a function whose parameters are the array arguments
  // (arrays in lists and tuples too; everything else stays a Python value, static), compiled and
  // run by the interpreter on those arrays. A result with no array in it (a shape) is returned
  // as the trace gave it. `rule` (when given) is the traced call instead of q's.
  V eager_call(const std::string& q, const Args& a,
               const std::function<V(const Args&)>& rule = nullptr) {
    if (lowering_)  // a lowering run computes nothing at its top level
      return raise("NotImplementedError",
                   q + " on concrete arrays is computed only when the program runs, not while "
                       "the Write tab lowers it");
    std::vector<ArgSpec> specs;
    std::vector<V> arrays;
    // A NumPy scalar stays a Python value (an axis, a size, a bound: JAX takes them concrete).
    const auto parameter = [](const V& v) { return v->t == T::Array && !np_scalar(v); };
    std::function<void(const V&)> collect = [&](const V& v) {
      if (parameter(v)) {
        specs.push_back(array_spec(v->arr));
        arrays.push_back(v);
      } else if (v->t == T::List || v->t == T::Tuple) {
        for (const V& x : v->items) collect(x);
      }
    };
    for (const V& x : a.pos) collect(x);
    for (const auto& kv : a.kw) collect(kv.second);
    V out;
    Lowered low;
    {
      tr::Session session(q.substr(q.rfind('.') + 1), specs);
      TraceScope active(*this, session);
      std::size_t next = 0;
      std::function<V(const V&)> traced = [&](const V& v) -> V {
        if (parameter(v)) return from_tr(session.args()[next++]);
        if (v->t == T::List || v->t == T::Tuple) {
          std::vector<V> items;
          for (const V& x : v->items) items.push_back(traced(x));
          return mk_seq(v->t, std::move(items));
        }
        return v;
      };
      Args targs;
      for (const V& x : a.pos) targs.pos.push_back(traced(x));
      for (const auto& kv : a.kw) targs.kw.emplace_back(kv.first, traced(kv.second));
      out = rule ? rule(targs) : traced_call(q, targs);
      if (!out) return nullptr;
      std::function<bool(const V&)> has_array = [&](const V& v) {
        if (v->t == T::Traced) return true;
        if (v->t == T::List || v->t == T::Tuple)
          return std::any_of(v->items.begin(), v->items.end(), has_array);
        return false;
      };
      if (!has_array(out)) return out;
      std::vector<V> leaves;
      std::vector<std::string> paths;
      V tree;
      if (!output_tree(out, &leaves, &paths, &tree)) return nullptr;
      out = tree;
      tr::Ref o = to_tr(tree ? mk_seq(T::Tuple, leaves) : leaves[0]);
      if (!o) return nullptr;
      auto finished = session.finish(o, paths);
      if (!finished) return rule_error(finished.error());
      low = std::move(finished.value());
    }  // the trace has ended: what follows runs outside it
    V c = compile(lowered_value(low, arrays.size(), out));
    if (!c) return nullptr;
    Args run;
    run.pos = arrays;
    return run_compiled(c, run);
  }
  // A jitted function called while tracing: JAX traces it into a private function of its own.
  V traced_jitted(const V& f, const Args& a) {
    if (!a.kw.empty())
      return raise("NotImplementedError",
                   "keyword arguments to a jitted function are not supported here");
    std::vector<tr::Ref> pos;
    tr::Kw kw;
    if (!to_tr_args(a, &pos, &kw)) return nullptr;
    tr::Ref body = to_tr(f);
    if (!body) return nullptr;
    // Its identity is the function object's: kept alive until the outermost trace ends, so no
    // other function made meanwhile takes its address.
    jitted_alive_.push_back(f);
    char id[32];
    std::snprintf(id, sizeof id, "%p", static_cast<const void*>(f.get()));
    return from_tr(trace_->call_jitted(f->def ? f->def->s : "<lambda>", id, pos, body->call));
  }

  // ---- JAX: lowering, compiling, running ----
  // A trace running: trace_ is `session` (with a fresh trace id) until this scope ends, then the
  // trace that ran before it, if any.
  struct TraceScope {
    Machine& m;
    tr::Session* saved;
    std::int64_t saved_id;
    TraceScope(Machine& machine, tr::Session& session)
        : m(machine), saved(machine.trace_), saved_id(machine.trace_id_) {
      m.trace_ = &session;
      m.trace_id_ = ++m.traces_;
    }
    ~TraceScope() {
      if (!saved) m.jitted_alive_.clear();
      m.trace_ = saved;
      m.trace_id_ = saved_id;
      m.trace_raised_ = false;
    }
  };
  // An array argument of a lowering: its shape and canonical dtype.
  static ArgSpec array_spec(const NdArray& arr) {
    ArgSpec s;
    s.dims = arr.dims;
    s.dtype = mlir_dtype(canon(arr.dt, true));
    return s;
  }
  // A traced function's output as JAX's pytree: its leaves (arrays and Python scalars) in JAX's
  // order (a tuple's or a list's items in order, a dict's values by sorted key; None is no leaf),
  // each leaf's path as jax.result_info writes it ("result[0]['w']"), and the output's containers
  // with each leaf replaced by its index (`*tree`; null when the output is one leaf), which a call
  // of the compiled function fills. A dict comes back with its keys sorted, as JAX's does.
  bool output_tree(const V& out, std::vector<V>* leaves, std::vector<std::string>* paths, V* tree) {
    std::function<V(const V&, const std::string&, int)> walk =
        [&](const V& v, const std::string& path, int depth) -> V {
      if (depth > 100)
        return raise("RecursionError", "maximum recursion depth exceeded in a jitted output");
      if (v->t == T::Tuple || v->t == T::List) {
        std::vector<V> items;
        for (std::size_t i = 0; i < v->items.size(); ++i) {
          V c = walk(v->items[i], path + "[" + std::to_string(i) + "]", depth + 1);
          if (!c) return nullptr;
          items.push_back(c);
        }
        return mk_seq(v->t, std::move(items));
      }
      if (v->t == T::Dict) {
        // JAX flattens a dict by its sorted keys (Python's ordering, its errors too).
        std::vector<V> keys;
        for (const V& k : v->items)
          if (k) keys.push_back(k);
        if (!sort_values(keys, nullptr, 0)) return nullptr;
        std::vector<std::size_t> order;
        for (const V& k : keys)
          for (std::size_t i = 0; i < v->items.size(); ++i)
            if (v->items[i] == k) {
              order.push_back(i);
              break;
            }
        V d = mk(T::Dict);
        for (std::size_t i : order) {
          V c = walk(v->vals[i], path + "[" + repr(v->items[i]) + "]", depth + 1);
          if (!c || !dict_set(d, v->items[i], c)) return nullptr;
        }
        return d;
      }
      if (v->t == T::None) return none_v();
      leaves->push_back(v);
      paths->push_back(path);
      return mk_int(static_cast<std::int64_t>(leaves->size() - 1));
    };
    if (out->t != T::Tuple && out->t != T::List && out->t != T::Dict) {
      *leaves = {out};
      *paths = {"result"};
      *tree = nullptr;
      return true;
    }
    *tree = walk(out, "result", 0);
    return *tree != nullptr;
  }
  // The output `tree` (output_tree's) with leaf k replaced by outs[k].
  V fill_tree(const V& tree, const std::vector<V>& outs) {
    if (tree->t == T::Tuple || tree->t == T::List) {
      std::vector<V> items;
      for (auto& c : tree->items) items.push_back(fill_tree(c, outs));
      return mk_seq(tree->t, std::move(items));
    }
    if (tree->t == T::Dict) {
      V d = mk(T::Dict);
      for (std::size_t i = 0; i < tree->items.size(); ++i)
        if (tree->items[i]) dict_set(d, tree->items[i], fill_tree(tree->vals[i], outs));
      return d;
    }
    if (tree->t == T::Int) return outs[static_cast<std::size_t>(tree->i)];
    return tree;  // None
  }
  // A lowering as a Lowered value: its text, function, the arguments @main keeps of `args`, and
  // the results' container as the traced function returned `out` (a tuple or list, even of one
  // array; none: one array), which a call of the compiled function gives back as JAX's pytree does.
  V lowered_value(const Lowered& low, std::size_t args, const V& out) {
    auto l = mk(T::Lowered);
    l->text = low.text;
    l->s = low.function;
    l->i = static_cast<std::int64_t>(args);
    for (int k : low.kept_args) l->items.push_back(mk_int(k));
    l->self = out;  // the output's tree (output_tree's), or null: one array
    return l;
  }
  // jax.jit(f).lower(args): f runs here on traced arrays, one per argument (python/traced.h).
  V jit_lower(const V& jitted, const Args& a) {
    const V& f = jitted->self;
    if (!a.kw.empty())
      return raise("NotImplementedError",
                   "keyword arguments to a jitted function are not supported here");
    if (in_trace())
      return raise("NotImplementedError",
                   "jax.jit(...).lower(...) inside a traced function is not supported here");
    const std::string name = f->def ? f->def->s : "<lambda>";
    if (lowering_ && !lowering_->entry.empty() && name != lowering_->entry) {
      auto l = mk(T::Lowered);  // not the entry: not lowered
      l->s = name;
      return l;
    }
    std::vector<ArgSpec> specs;
    for (auto& x : a.pos) {
      if (x->t == T::Array) {
        specs.push_back(array_spec(x->arr));
      } else if (is_num(x)) {
        ArgSpec s;
        // A Python number: weakly float32/int32 (float64/int64 with x64 on).
        s.dtype = x->t == T::Float ? (x64_ ? "f64" : "f32")
                  : x->t == T::Int ? (x64_ ? "i64" : "i32")
                                   : "i1";
        s.weak = x->t != T::Bool;
        specs.push_back(s);
      } else if (x->t == T::Traced && lowering_ && x->i == 0) {  // a top-level abstract array
        ArgSpec s;
        s.dims = x->tv->aval.dims;
        s.dtype = x->tv->aval.dtype;
        s.weak = x->tv->weak;
        specs.push_back(s);
      } else if (x->t == T::SDS) {
        ArgSpec s;
        for (auto& n : x->items) s.dims.push_back(n->i);
        s.dtype = x->s.empty() ? mlir_dtype(x->dt) : x->s;
        specs.push_back(s);
      } else {
        return raise("TypeError", "Error interpreting argument to " + repr(f) +
                                      " as an abstract array. The problematic value is of type " +
                                      type_name(x) +
                                      " (arrays and Python scalars are supported here)");
      }
    }
    // JAX traces a function once per argument types (its cache is keyed on the function, not the
    // jit wrapper): a global read while tracing stays baked in, and print runs once.
    std::string key = x64_ ? "x64:" : "";  // JAX's trace context includes jax_enable_x64
    for (auto& sp : specs) {
      key += sp.dtype + (sp.weak ? "~" : "") + "[";
      for (auto d : sp.dims) key += std::to_string(d) + ",";
      key += "]";
    }
    if (!lowering_)
      for (auto& e : jit_cache_)
        if (e.fn == f && e.key == key) return e.lowered;
    tr::Session session(name, specs);
    TraceScope active(*this, session);
    Args args;
    for (auto& t : session.args()) args.pos.push_back(from_tr(t));
    V result = call_function(f, args);
    if (!result) return nullptr;
    std::vector<V> leaves;
    std::vector<std::string> paths;
    V out;
    if (!output_tree(result, &leaves, &paths, &out)) return nullptr;
    if (leaves.empty()) return raise("TypeError", name + " returns no arrays");
    tr::Ref o = to_tr(out ? mk_seq(T::Tuple, leaves) : leaves[0]);
    if (!o) return nullptr;
    auto low = session.finish(o, paths);
    if (!low) return rule_error(low.error());
    lowered_.push_back(low->text);
    if (lowering_) {  // the entry is lowered: the run stops here
      lowering_->done = true;
      lowering_->result = low.value();
      return fatal("LoweringDone", "");
    }
    V l = lowered_value(low.value(), args.pos.size(), out);
    // Its parameters' names, which a call's type check names arguments by (JAX's debug info).
    if (f->t == T::Func && (f->def || f->lambda))
      for (const auto& p : f->def ? f->def->params : f->lambda->params)
        l->vals.push_back(mk_str(p.name));
    if (jit_cache_.size() >= 256) jit_cache_.erase(jit_cache_.begin());
    jit_cache_.push_back(JitEntry{f, key, l, nullptr});
    return l;
  }
  // The traces made: a function, its arguments' types, its lowering and (once called) its
  // compiled module.
  struct JitEntry {
    V fn;
    std::string key;
    V lowered, compiled;
  };
  std::vector<JitEntry> jit_cache_;
  JitEntry* jit_entry(const V& lowered) {
    for (auto& e : jit_cache_)
      if (e.lowered == lowered) return &e;
    return nullptr;
  }
  V compile(const V& lowered) {
    auto cm = std::make_shared<CompiledModule>();
    auto parsed = hlo::parse(lowered->text);
    if (!parsed || parsed->empty())
      return raise("RuntimeError", "the lowered module did not parse: " +
                                       (parsed ? std::string("no module") : parsed.error()));
    cm->modules = std::move(parsed.value());
    auto prog = hlo::lower(cm->modules[0]);
    if (!prog) return raise("RuntimeError", "the lowered module did not compile: " + prog.error());
    cm->program = std::make_unique<hlo::Program>(std::move(prog.value()));
    auto c = mk(T::Compiled);
    c->text = lowered->text;
    c->s = lowered->s;
    c->i = lowered->i;
    c->items = lowered->items;
    c->self = lowered->self;
    c->vals = lowered->vals;
    c->compiled = cm;
    return c;
  }
  V run_compiled(const V& comp, const Args& a) {
    if (!a.kw.empty())
      return raise("NotImplementedError",
                   "keyword arguments to a compiled function are not supported here");
    interp::RunOptions o;
    o.inputs = interp::Inputs::Given;
    // The arguments the module takes (jit left out those nothing reads); a call of another
    // count is the run's signature error below.
    std::vector<V> pos = a.pos;
    if (static_cast<std::int64_t>(pos.size()) == comp->i) {
      pos.clear();
      for (auto& k : comp->items) pos.push_back(a.pos[static_cast<std::size_t>(k->i)]);
    }
    // The arguments as JAX arrays (their dtypes canonical), made once for the check and the run.
    std::vector<NdArray> args(pos.size());
    for (std::size_t k = 0; k < pos.size(); ++k) {
      if (!to_array(pos[k], &args[k], true)) return nullptr;
      args[k] = astype(args[k], canon(args[k].dt, true));
    }
    // Each argument against the type it was compiled for, as JAX checks them before a call
    // (pxla's check_arg_avals_for_call): "Argument 'a' compiled with float32[32,16] and called
    // with float32[64,32]", named by the function's parameters.
    const hlo::Module& mod = comp->compiled->modules[0];
    const hlo::Function* entry = mod.entry();
    if (entry && entry->args.size() == args.size()) {
      std::vector<std::string> mismatches;
      std::size_t mismatched = 0;
      for (std::size_t k = 0; k < args.size(); ++k) {
        const hlo::Type& t = mod.value_type(*entry, entry->args[k]);
        hlo::jax::Aval want{t.dims, t.element}, got{args[k].dims, mlir_dtype(args[k].dt)};
        if (want == got) continue;
        ++mismatched;
        if (mismatches.size() == 5) continue;
        const std::size_t original = static_cast<std::int64_t>(a.pos.size()) == comp->i
                                         ? static_cast<std::size_t>(comp->items[k]->i)
                                         : k;
        const std::string name = original < comp->vals.size() ? "'" + comp->vals[original]->s + "'"
                                                              : std::to_string(original + 1) + "/" +
                                                                    std::to_string(args.size());
        mismatches.push_back("Argument " + name + " compiled with " + tr::aval_text(want) +
                             " and called with " + tr::aval_text(got));
      }
      if (!mismatches.empty()) {
        std::string text =
            "Argument types differ from the types for which this computation was compiled. " +
            std::string(mismatched >= 5 ? "The first 5 of " + std::to_string(mismatched)
                                        : std::string("The")) +
            " mismatches are:";
        for (const auto& m : mismatches) text += "\n" + m;
        return raise("TypeError", text);
      }
    }
    for (const NdArray& arr : args) {
      interp::HostArray h;
      h.type = arr.dt == DType::Float32   ? hlo::ElementType::F32
               : arr.dt == DType::Float64 ? hlo::ElementType::F64
               : arr.dt == DType::Int32   ? hlo::ElementType::S32
               : arr.dt == DType::Int64   ? hlo::ElementType::S64
                                          : hlo::ElementType::Pred;
      h.dims = arr.dims;
      const std::size_t n = static_cast<std::size_t>(arr.size());
      for (std::size_t k = 0; k < n; ++k) {
        if (arr.dt == DType::Float32) {
          const float v = static_cast<float>(arr.f[k]);
          h.bytes.append(reinterpret_cast<const char*>(&v), 4);
        } else if (arr.dt == DType::Float64) {  // jax_enable_x64
          const double v = arr.f[k];
          h.bytes.append(reinterpret_cast<const char*>(&v), 8);
        } else if (arr.dt == DType::Int32) {
          const auto v = static_cast<std::int32_t>(arr.i[k]);
          h.bytes.append(reinterpret_cast<const char*>(&v), 4);
        } else if (arr.dt == DType::Int64) {
          const std::int64_t v = arr.i[k];
          h.bytes.append(reinterpret_cast<const char*>(&v), 8);
        } else {
          h.bytes.push_back(static_cast<char>(arr.i[k] != 0));
        }
      }
      h.name = "argument " + std::to_string(o.args.size());
      o.args.push_back(std::move(h));
    }
    interp::RunResult r = interp::run_program(*comp->compiled->program, o);
    if (r.status == "error" || r.status == "not_run") {
      std::string why;
      for (auto& e : r.errors) why += (why.empty() ? "" : "; ") + e.message;
      for (auto& u : r.unsupported) why += (why.empty() ? "" : "; ") + u.op + ": " + u.why;
      // a signature mismatch is JAX's TypeError
      return raise("TypeError", "the compiled function could not run on these arguments: " + why);
    }
    std::vector<V> outs;
    for (auto& v : r.values) {
      if (!v.is_tensor())
        return raise("NotImplementedError", "tuple results are not supported here yet");
      const interp::Tensor& t = v.tensor;
      NdArray out;
      out.jax = true;
      out.dims = t.dims;
      const std::size_t n = static_cast<std::size_t>(t.elements());
      if (t.type == hlo::ElementType::F32) {
        out.dt = DType::Float32;
        for (std::size_t k = 0; k < n; ++k) out.f.push_back(t.as<float>()[k]);
      } else if (t.type == hlo::ElementType::F64) {
        out.dt = DType::Float64;
        for (std::size_t k = 0; k < n; ++k) out.f.push_back(t.as<double>()[k]);
      } else if (t.type == hlo::ElementType::S32) {
        out.dt = DType::Int32;
        for (std::size_t k = 0; k < n; ++k) out.i.push_back(t.as<std::int32_t>()[k]);
      } else if (t.type == hlo::ElementType::S64) {
        out.dt = DType::Int64;
        for (std::size_t k = 0; k < n; ++k) out.i.push_back(t.as<std::int64_t>()[k]);
      } else if (t.type == hlo::ElementType::Pred) {
        out.dt = DType::Bool;
        for (std::size_t k = 0; k < n; ++k) out.i.push_back(t.as<std::uint8_t>()[k] != 0);
      } else {
        return raise("NotImplementedError", "a result of element type " +
                                                std::string(hlo::element_info(t.type).mlir) +
                                                " is not supported here");
      }
      outs.push_back(mk_array(std::move(out)));
    }
    if (comp->self) return fill_tree(comp->self, outs);
    if (outs.size() == 1) return outs[0];
    return mk_seq(T::Tuple, std::move(outs));
  }
  // compiled.cost_analysis(): XLA's keys from the core's cost rules (hlo/cost.h) over the
  // unfused module, zero values left out as XLA leaves them out, values floats. An estimate; XLA's
  // optimal_seconds is not modeled (not meaningful on CPU) and not given.
  V cost_analysis(const V& comp) {
    auto an = hlo::analyze_module(comp->compiled->modules[0]);
    if (!an) return raise("RuntimeError", "cost analysis failed: " + an.error());
    auto d = mk(T::Dict);
    auto put = [&](const std::string& k, double v) {
      if (v != 0) dict_set(d, mk_str(k), mk_float(v));
    };
    put("flops", an->flops);
    put("transcendentals", an->transcendentals);
    put("bytes accessed", an->bytes_accessed);
    for (auto& [i, b] : an->bytes_accessed_operand)
      put("bytes accessed" + std::to_string(i) + "{}", b);
    put("bytes accessedout{}", an->bytes_accessed_output);
    // utilization{N}{}: each top-level op reading an operand N uses it once (XLA's default).
    std::map<int, double> util;
    for (const auto* r : an->top_level()) {
      const auto ob = an->operand_bytes(static_cast<std::size_t>(r - an->ops.data()));
      for (std::size_t k = 0; k < ob.size(); ++k) util[static_cast<int>(k)] += 1;
    }
    for (auto& [i, u] : util) put("utilization" + std::to_string(i) + "{}", u);
    return d;
  }
};

}  // namespace

namespace {

// Python's report of a syntax error: the file and line, the line itself and a caret at the column.
NotebookResult syntax_error(const std::string& source, const std::string& filename,
                            const Error& e) {
  NotebookResult r;
  std::string line;
  if (e.line >= 1) {
    std::size_t start = 0;
    for (int k = 1; k < e.line && start != std::string::npos; ++k) {
      start = source.find('\n', start);
      if (start != std::string::npos) ++start;
    }
    if (start != std::string::npos) {
      const auto end = source.find('\n', start);
      line = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
    }
  }
  r.error = "  File \"" + filename + "\", line " + std::to_string(e.line) + "\n";
  const auto b = line.find_first_not_of(" \t");
  if (b != std::string::npos) {
    r.error += "    " + line.substr(b) + "\n";
    if (e.column >= 1 && static_cast<std::size_t>(e.column) > b)
      r.error += "    " + std::string(static_cast<std::size_t>(e.column) - 1 - b, ' ') + "^\n";
  }
  r.exception = "SyntaxError: " + e.without_place();
  r.error += r.exception + "\n";
  r.error_type = "SyntaxError";
  r.line = e.line;
  r.column = e.line >= 1 ? e.column : 0;
  r.file = filename;
  r.source_line = e.line;
  return r;
}

std::vector<std::string> split_lines(const std::string& source) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= source.size()) {
    const auto nl = source.find('\n', start);
    std::string l = source.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(std::move(l));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return lines;
}

bool blank(const std::string& l) { return l.find_first_not_of(" \t\f") == std::string::npos; }
bool comment_line(const std::string& l) {
  const auto b = l.find_first_not_of(" \t\f");
  return b != std::string::npos && l[b] == '#';
}
bool cell_marker(const std::string& l) { return l.rfind("# %%", 0) == 0 || l.rfind("#%%", 0) == 0; }

}  // namespace

NotebookResult run_notebook(const std::string& source, const NotebookOptions& options) {
  auto prog = parse(source);
  if (!prog) return syntax_error(source, options.filename, prog.error_info());
  Machine m(options);
  return m.run(prog.value(), source, options.filename);
}

Result<Lowered> lower_source(const std::string& source, const std::string& entry) {
  auto prog = parse(source);
  if (!prog) return Result<Lowered>::failure(prog.error_info());
  NotebookOptions o;
  o.filename = "<lowering>";
  // A lowering run measures nothing: its clock reads 1 ms more at each read (a rate computed
  // before the .lower() call divides by no zero).
  o.clock = [t = 0.0]() mutable { return t += 1e-3; };
  Machine m(o);
  m.begin_lowering(entry);
  const NotebookResult r = m.run(prog.value(), source, o.filename);
  if (const Lowered* l = m.lowered()) return Result<Lowered>::success(*l);
  auto at_start = [](const std::string& m) {
    return Result<Lowered>::failure(Error{"1:1: " + m, "", 1, 1});
  };
  if (!r.error.empty()) {
    const V& e = m.last_exception();
    const int line = std::max(1, m.exception_line()), col = std::max(1, m.exception_column());
    // A rule of the tracer speaks JAX's words; Python's own exceptions keep their type.
    const std::string msg = e && e->b ? e->text : r.exception;
    return Result<Lowered>::failure(
        Error{std::to_string(line) + ":" + std::to_string(col) + ": " + msg, "", line, col});
  }
  if (!entry.empty()) {
    bool defined = false;
    for (auto& s : prog->body) defined = defined || (s->kind == SK::Def && s->s == entry);
    if (!defined) return at_start("no function named '" + entry + "' is defined in the file");
    return at_start("the file has no jax.jit(" + entry + ").lower(...) call to give " + entry +
                    "'s argument shapes; add one, e.g. jax.jit(" + entry +
                    ").lower(jax.ShapeDtypeStruct((32, 16), jnp.float32))");
  }
  return at_start(
      "the file has no jax.jit(f).lower(...) call: add one after the function, e.g. "
      "jax.jit(f).lower(jax.ShapeDtypeStruct((32, 16), jnp.float32))");
}

std::int64_t objects_alive() { return t_objects_alive; }

std::string cell_filename(int cell) { return "<cell " + std::to_string(cell) + ">"; }

struct NotebookSession::State {
  NotebookOptions options;
  std::unique_ptr<Machine> machine;
  std::vector<std::unique_ptr<Program>> cells;  // every cell run: its functions point into it
  int runs = 0;
};

NotebookSession::NotebookSession(NotebookOptions options) : s_(std::make_unique<State>()) {
  s_->options = std::move(options);
  s_->machine = std::make_unique<Machine>(s_->options);
}
NotebookSession::~NotebookSession() = default;
NotebookSession::NotebookSession(NotebookSession&&) noexcept = default;
NotebookSession& NotebookSession::operator=(NotebookSession&&) noexcept = default;

NotebookResult NotebookSession::run_cell(const std::string& source, int cell) {
  const std::string name = cell_filename(cell);
  auto prog = parse(source);
  if (!prog) return syntax_error(source, name, prog.error_info());
  ++s_->runs;
  s_->cells.push_back(std::make_unique<Program>(std::move(prog.value())));
  return s_->machine->run(*s_->cells.back(), source, name, /*display_last=*/true);
}

void NotebookSession::reset() {
  s_->machine = std::make_unique<Machine>(s_->options);
  s_->cells.clear();
  s_->runs = 0;
}

int NotebookSession::cells_run() const { return s_->runs; }

std::vector<NotebookCell> split_cells(const std::string& source) {
  const std::vector<std::string> lines = split_lines(source);
  const int n = static_cast<int>(lines.size());
  std::vector<int> starts;  // 1-based lines where a cell begins
  std::vector<bool> skip(static_cast<std::size_t>(n) + 1, false);  // marker lines: no cell's code
  bool markers = false;
  for (int k = 1; k <= n; ++k)
    if (cell_marker(lines[static_cast<std::size_t>(k - 1)])) {
      markers = true;
      starts.push_back(k + 1);
      skip[static_cast<std::size_t>(k)] = true;
    }
  if (markers) {
    starts.insert(starts.begin(), 1);
  } else {
    starts.push_back(1);
    // A blank line before a top-level statement (its comments above it go with it) ends a cell.
    auto prog = parse(source);
    if (prog) {
      for (std::size_t i = 1; i < prog.value().body.size(); ++i) {
        int k = prog.value().body[i]->line;
        if (!prog.value().body[i]->decorators.empty())
          k = std::min(k, prog.value().body[i]->decorators.front()->line);
        int first = k;
        while (first > 1 && comment_line(lines[static_cast<std::size_t>(first - 2)])) --first;
        if (first > 1 && blank(lines[static_cast<std::size_t>(first - 2)])) starts.push_back(first);
      }
    } else {
      // A source that does not parse: split where a blank line precedes a line at column 0.
      for (int k = 2; k <= n; ++k) {
        const std::string& l = lines[static_cast<std::size_t>(k - 1)];
        if (!blank(l) && l[0] != ' ' && l[0] != '\t' &&
            blank(lines[static_cast<std::size_t>(k - 2)]))
          starts.push_back(k);
      }
    }
  }
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<NotebookCell> cells;
  for (std::size_t c = 0; c < starts.size(); ++c) {
    int from = starts[c];
    int to = c + 1 < starts.size() ? starts[c + 1] - 1 : n;  // inclusive
    while (to >= from &&
           (skip[static_cast<std::size_t>(to)] || blank(lines[static_cast<std::size_t>(to - 1)])))
      --to;
    while (from <= to && blank(lines[static_cast<std::size_t>(from - 1)])) ++from;
    if (from > to) continue;
    NotebookCell cell;
    cell.first_line = from;
    for (int k = from; k <= to; ++k)
      cell.source += lines[static_cast<std::size_t>(k - 1)] + (k < to ? "\n" : "");
    cells.push_back(std::move(cell));
  }
  return cells;
}

Result<std::int64_t> max_steps_of(double steps) {
  // std::int64_t, not long: long is 32 bits in wasm32, and 1e12 wrapped there.
  if (!(steps >= 1 && steps <= 1e12) || std::floor(steps) != steps)
    return Result<std::int64_t>::failure("maxSteps must be an integer from 1 to 1e12, got " +
                                         typed_value(steps));
  return Result<std::int64_t>::success(static_cast<std::int64_t>(steps));
}

}  // namespace rl::python
