// The shapes XLA infers for HLO instructions written without one. The rules follow XLA's HLO
// parser (CanInferShape and the maybe_infer_shape calls in xla/hlo/parser/hlo_parser.cc) and
// ShapeInference (xla/service/shape_inference.cc); each rule below names what it follows.
//
// Order: an instruction is typed after the shapeless instructions it uses, and after the
// computations whose result it needs (call, reduce, map, while, conditional), wherever they
// are written. The walk uses an explicit stack, so a long chain cannot exhaust the native
// stack, and a cycle is reported instead of followed.
#include "hlo/infer.h"

#include <algorithm>
#include <string>
#include <vector>

#include "hlo/attrs.h"
#include "hlo/decode.h"
#include "hlo/op_memo.h"

namespace rl::hlo {

namespace {

constexpr std::int64_t kBig = std::int64_t(1) << 61;  // bound of intermediate arithmetic

std::string clip(std::string_view s) {
  return s.size() <= 60 ? std::string(s) : std::string(s.substr(0, 57)) + "...";
}

bool checked_add(std::int64_t a, std::int64_t b, std::int64_t* out) {
  if (a > kBig || a < -kBig || b > kBig || b < -kBig) return false;
  *out = a + b;
  return *out <= kBig && *out >= -kBig;
}

bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t* out) {
  if (a == 0 || b == 0) {
    *out = 0;
    return true;
  }
  const std::int64_t ua = a < 0 ? -a : a, ub = b < 0 ? -b : b;
  if (ua > kBig || ub > kBig || ua > kBig / ub) return false;
  *out = a * b;
  return true;
}

// An array shape being built: the element type, the dimensions (-1: unbounded dynamic `?`) and
// which dimensions are bounded dynamic (`<=N`, sized N), as XLA tracks them.
struct Arr {
  ElementType et = ElementType::Invalid;
  std::string element;  // the spelling: kept from the operand, or the HLO name of a new type
  std::vector<std::int64_t> dims;
  std::vector<bool> bounded;
  std::size_t rank() const { return dims.size(); }
};

// The `<=` marks of an array type's text ("f32[4,<=4]"): the IR keeps them only there.
std::vector<bool> bounded_marks(const Type& t) {
  std::vector<bool> b(t.dims.size(), false);
  std::size_t i = t.text.find('[');
  for (std::size_t d = 0; i != std::string::npos && d < b.size(); ++d) {
    ++i;
    b[d] = t.text.compare(i, 2, "<=") == 0;
    i = t.text.find(',', i);
  }
  return b;
}

Arr arr_of(const Type& t) {
  Arr a;
  a.et = t.etype;
  a.element = t.element;
  a.dims = t.dims;
  a.bounded = bounded_marks(t);
  return a;
}

Arr with_element(Arr a, ElementType et) {
  if (et != a.et) {
    a.et = et;
    a.element = std::string(element_info(et).hlo);
  }
  return a;
}

// The text is written here rather than by to_string(), which has no `<=` marks.
Type to_type(const Arr& a) {
  Type t;
  t.kind = Type::Kind::Tensor;
  t.etype = a.et;
  t.element = a.element;
  t.element_bytes = element_byte_size(a.element);
  t.dims = a.dims;
  t.text = a.element + "[";
  for (std::size_t i = 0; i < a.dims.size(); ++i) {
    if (i) t.text += ',';
    if (a.dims[i] < 0) {
      t.text += '?';
      continue;
    }
    if (i < a.bounded.size() && a.bounded[i]) t.text += "<=";
    t.text += std::to_string(a.dims[i]);
  }
  t.text += ']';
  return t;
}

Type scalar_type(ElementType et) {
  Arr a;
  a.et = et;
  a.element = std::string(element_info(et).hlo);
  return to_type(a);
}

Type tuple_type(std::vector<Type> elements) {
  Type t;
  t.kind = Type::Kind::Tuple;
  t.tuple = std::move(elements);
  t.text = to_string(t, "hlo");
  return t;
}

Type token_type() {
  Type t;
  t.kind = Type::Kind::Token;
  t.element = "token";
  t.text = "token[]";
  return t;
}

bool same_element(const Arr& a, const Arr& b) {
  return a.et == b.et && (a.et != ElementType::Invalid || a.element == b.element);
}

// XLA's SameElementTypeIgnoringFpPrecision: equal, or both floating point.
bool same_element_ignoring_fp(const Arr& a, const Arr& b) {
  return same_element(a, b) || (is_float(a.et) && is_float(b.et));
}

// Largest finite exponent + 1 and significand bits (with the implicit one) of the float types,
// for XLA's HigherPrecisionElementType (primitive_util: OverflowExponent, SignificandWidth).
void float_range(ElementType t, int* exponent, int* significand) {
  switch (t) {
    case ElementType::F64:
      *exponent = 1024, *significand = 53;
      return;
    case ElementType::F32:
      *exponent = 128, *significand = 24;
      return;
    case ElementType::BF16:
      *exponent = 128, *significand = 8;
      return;
    case ElementType::F16:
      *exponent = 16, *significand = 11;
      return;
    case ElementType::F8E5M2:
      *exponent = 16, *significand = 3;
      return;
    case ElementType::F8E5M2FNUZ:
      *exponent = 16, *significand = 3;
      return;
    case ElementType::F8E4M3FN:
      *exponent = 9, *significand = 4;
      return;
    case ElementType::F8E4M3:
      *exponent = 8, *significand = 4;
      return;
    case ElementType::F8E4M3FNUZ:
      *exponent = 8, *significand = 4;
      return;
    case ElementType::F8E4M3B11FNUZ:
      *exponent = 5, *significand = 4;
      return;
    case ElementType::F8E3M4:
      *exponent = 4, *significand = 5;
      return;
    case ElementType::F8E8M0FNU:
      *exponent = 128, *significand = 1;
      return;
    case ElementType::F6E3M2FN:
      *exponent = 5, *significand = 3;
      return;
    case ElementType::F6E2M3FN:
      *exponent = 3, *significand = 4;
      return;
    case ElementType::F4E2M1FN:
      *exponent = 3, *significand = 2;
      return;
    default:
      *exponent = -1, *significand = -1;
      return;
  }
}

// XLA's ShapeUtil::HigherPrecisionElementType: complex over real, then more exponent range,
// then more significand, then more bits, then signed over unsigned; `a` when they tie.
const Arr& higher_precision(const Arr& a, const Arr& b) {
  auto key = [](ElementType t) {
    const bool complex = is_complex(t);
    const ElementType c = complex ? complex_component(t) : t;
    int exponent = -1, significand = -1;
    float_range(c, &exponent, &significand);
    return std::make_tuple(complex, exponent, significand, element_info(c).bits,
                           element_kind(c) == ElementKind::Signed);
  };
  return key(b.et) > key(a.et) ? b : a;
}

// Equal shapes, ignoring layouts and dynamic marks (XLA's ShapeUtil::Compatible).
bool same_shape(const Type& a, const Type& b) {
  if (a.is_array() != b.is_array()) return false;
  if (a.is_array())
    return a.etype == b.etype && (a.etype != ElementType::Invalid || a.element == b.element) &&
           a.dims == b.dims;
  if (a.kind != b.kind) return false;
  if (a.kind == Type::Kind::Tuple) {
    if (a.tuple.size() != b.tuple.size()) return false;
    for (std::size_t i = 0; i < a.tuple.size(); ++i)
      if (!same_shape(a.tuple[i], b.tuple[i])) return false;
    return true;
  }
  return a.kind == Type::Kind::Token || a.text == b.text;
}

std::string dims_text(const std::vector<std::int64_t>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

}  // namespace

// One dimension of a window's output (XLA InferWindowOutputShape, window_util DilatedBound and
// StridedBound): dilated(n, d) = (n-1)·d + 1 for n > 0, else 0; padded = lo + dilated(base) + hi;
// out = 0 when the dilated window is larger than padded, else (padded - window) / stride + 1.
// An empty string, or what is wrong: a negative padded size, or sizes too large to compute.
bool padded_size(std::int64_t size, std::int64_t low, std::int64_t high, std::int64_t interior,
                 std::int64_t* out) {
  std::int64_t grown = 0;
  return checked_mul(std::max<std::int64_t>(size - 1, 0), interior, &grown) &&
         checked_add(size, low, out) && checked_add(*out, high, out) &&
         checked_add(*out, grown, out) && *out >= 0 && *out <= kMaxDim;
}

std::string window_output(std::int64_t in, const WindowDim& w, std::int64_t* out) {
  // Its callers check these with their op's message first; the rule never divides by zero.
  if (w.stride < 1) return "a stride of " + std::to_string(w.stride);
  if (w.base_dilation < 1 || w.window_dilation < 1)
    return "a dilation of " + std::to_string(std::min(w.base_dilation, w.window_dilation));
  if (in < 0) {
    *out = -1;  // `?` stays unknown
    return {};
  }
  std::int64_t dilated_base = 0, padded = 0, dilated_window = 0;
  if (in > 0) {
    if (!checked_mul(in - 1, w.base_dilation, &dilated_base)) return "a dilated size over 2^61";
    dilated_base += 1;
  }
  if (!checked_add(w.pad_low, dilated_base, &padded) || !checked_add(padded, w.pad_high, &padded))
    return "a padded size over 2^61";
  if (w.size > 0) {  // DilatedBound(0, d) = 0: an empty window stays empty
    if (!checked_mul(w.size - 1, w.window_dilation, &dilated_window))
      return "a dilated window over 2^61";
    dilated_window += 1;
  }
  if (padded < 0) return "a padded size of " + std::to_string(padded);
  *out = (padded == 0 || dilated_window > padded) ? 0 : (padded - dilated_window) / w.stride + 1;
  return {};
}

ShapeRuleBroken convolution_result(const ConvDims& cd, const std::vector<std::int64_t>& lhs,
                                   const std::vector<std::int64_t>& rhs, std::int64_t fgc,
                                   std::int64_t bgc, const std::vector<WindowDim>& window,
                                   bool window_sizes_written, std::vector<std::int64_t>* out) {
  const std::size_t spatial = cd.input_spatial.size();
  if (fgc < 1 || bgc < 1 || (fgc > 1 && bgc > 1))
    return {"positive feature_group_count and batch_group_count, not both above 1",
            "feature_group_count=" + std::to_string(fgc) +
                ", batch_group_count=" + std::to_string(bgc)};
  if (window.size() != spatial)
    return {"a window over each of the " + std::to_string(spatial) + " spatial dimensions",
            std::to_string(window.size()) + " window dimensions"};
  auto at = [](const std::vector<std::int64_t>& d, std::int64_t i) {
    return d[static_cast<std::size_t>(i)];
  };
  const std::int64_t batch = at(lhs, cd.input_batch), features = at(lhs, cd.input_feature);
  const std::int64_t kin = at(rhs, cd.kernel_input_feature),
                     kout = at(rhs, cd.kernel_output_feature);
  if (features >= 0 && kin >= 0 && (features % fgc != 0 || features / fgc != kin))
    return {"input features = feature_group_count x kernel input features",
            std::to_string(features) + " input features, " + std::to_string(kin) +
                " kernel input features, feature_group_count=" + std::to_string(fgc)};
  if (kout >= 0 && (kout % fgc != 0 || kout % bgc != 0))
    return {"kernel output features divisible by the group counts",
            std::to_string(kout) + " with feature_group_count=" + std::to_string(fgc) +
                ", batch_group_count=" + std::to_string(bgc)};
  if (batch >= 0 && batch % bgc != 0)
    return {"an input batch divisible by batch_group_count",
            std::to_string(batch) + " with batch_group_count=" + std::to_string(bgc)};
  out->assign(spatial + 2, 0);
  (*out)[static_cast<std::size_t>(cd.output_batch)] = batch < 0 ? -1 : batch / bgc;
  (*out)[static_cast<std::size_t>(cd.output_feature)] = kout;
  for (std::size_t i = 0; i < spatial; ++i) {
    WindowDim wd = window[i];
    if (!window_sizes_written) wd.size = at(rhs, cd.kernel_spatial[i]);  // the window is the kernel
    std::int64_t& size = (*out)[static_cast<std::size_t>(cd.output_spatial[i])];
    if (wd.size < 0) {
      size = -1;
      continue;
    }
    const std::string wrong = window_output(at(lhs, cd.input_spatial[i]), wd, &size);
    if (!wrong.empty())
      return {"a window whose padded size is from 0 to 2^61 in every spatial dimension",
              wrong + " in spatial dimension " + std::to_string(i)};
  }
  return {};
}

namespace {

class Inferrer {
 public:
  Inferrer(Module& m, TypeTable& t) : m_(m), types_(t) {
    const std::size_t nf = m.functions.size();
    ops_.resize(nf);
    producer_.resize(nf);
    root_.assign(nf, -1);
    base_.resize(nf);
    std::size_t total = 0;
    for (std::size_t fi = 0; fi < nf; ++fi) {
      Function& f = m.functions[fi];
      producer_[fi].assign(f.values.size(), -1);
      for (auto& b : f.body.blocks)
        for (auto& op : b.ops) {
          const auto index = static_cast<std::int32_t>(ops_[fi].size());
          for (ValueId v : f.results(op))
            if (v < producer_[fi].size()) producer_[fi][v] = index;
          if (op.is_root) root_[fi] = index;
          ops_[fi].push_back(&op);
        }
      base_[fi] = total;
      total += ops_[fi].size();
    }
    state_.assign(total, kTodo);
    for (std::size_t fi = 0; fi < nf; ++fi)
      for (std::size_t oi = 0; oi < ops_[fi].size(); ++oi)
        if (!ops_[fi][oi]->infer_shape) state_[base_[fi] + oi] = kDone;
  }

  std::string error;
  int line = 0, column = 0;

  // The StableHLO ops whose rule here reads what StableHLO writes too: the elementwise ones (no
  // attribute) and those the op table marks Inferred (tuple, get_tuple_element, reverse, ...), and
  // pad, whose written result this rule compares once verify.cpp's pad rule has checked its bounds.
  static bool stablehlo_rule(OpCode c) {
    const VerifyRule r = op_info(c).verify;
    return (r == VerifyRule::Elementwise || r == VerifyRule::Select || r == VerifyRule::Clamp ||
            r == VerifyRule::Inferred || r == VerifyRule::Pad) &&
           c != OpCode::Convert && c != OpCode::ReducePrecision;
  }
  // The ops whose rule here is XLA's shape inference in full (scatter's: its operand counts and
  // shapes; verify.cpp's scatter rule holds its dimension numbers), for every form the corpus's
  // real files write (checked by making every rule's refusal an error: the rules of the elementwise
  // ops, select, convert, complex and the ops without a rule refused valid files; reduce's
  // refuses a callee the module lacks, which the lowering reports as a problem instead). fft's
  // joined later, refusing no valid test input or corpus file then: its kernel trusts it, as
  // cholesky's and triangular_solve's trust theirs; so did get-tuple-element, while and
  // conditional (their kernels trust the index, the condition's pred[] and the branch operands).
  static bool complete_rule(OpCode c) {
    switch (c) {
      case OpCode::ReduceWindow:
      case OpCode::SelectAndScatter:
      case OpCode::Scatter:
      case OpCode::Gather:
      case OpCode::Sort:
      case OpCode::Map:
      case OpCode::Reverse:
      case OpCode::Pad:
      case OpCode::Transpose:
      case OpCode::DotGeneral:
      case OpCode::Convolution:
      case OpCode::TriangularSolve:
      case OpCode::Cholesky:
      case OpCode::GetDimensionSize:
      case OpCode::Fft:
      case OpCode::GetTupleElement:
      case OpCode::While:
      case OpCode::Case:
        return true;
      default:
        return false;
    }
  }
  // An unranked tensor (`tensor<*xf32>`) among the op's operands or results: XLA's rules have
  // no such shape, so the op is left to verify.cpp's rules.
  bool has_unranked(const Function& f, const Op& op, bool results = true) const {
    for (ValueId v : f.operands(op))
      if (unranked(m_.value_type(f, v))) return true;
    if (results)
      for (ValueId v : f.results(op))
        if (unranked(m_.value_type(f, v))) return true;
    return false;
  }
  static bool unranked(const Type& t) { return t.kind == Type::Kind::Tensor && !t.ranked; }
  // A StableHLO type's text, from an inferred type (whose text is HLO's).
  static Type stablehlo_spelling(Type t) {
    t.text.clear();
    if (t.is_array()) {
      t.kind = Type::Kind::Tensor;
      t.element = std::string(element_info(t.etype).mlir);
    }
    for (auto& e : t.tuple) e = stablehlo_spelling(e);
    return t;
  }
  static std::string type_text(const Type& t) {
    return to_string(stablehlo_spelling(t), "stablehlo");
  }

  // Each instruction written with a shape, against the shape its opcode's rule infers from its
  // operands (XLA's HloVerifier compares them too): false, with `error` at the first that
  // differs. Opcodes without a rule, and instructions a rule refuses, are left to the others.
  // Nothing is written: the module and the type table stay as they are.
  bool check_written() {
    probing_ = true;
    for (std::uint32_t fi = 0; fi < ops_.size(); ++fi)
      for (std::uint32_t oi = 0; oi < ops_[fi].size(); ++oi) {
        const Op& op = *ops_[fi][oi];
        // broadcast's `dimensions` mean new major sizes only when its shape is left out; written
        // with a shape they map operand to result dimensions (verify.cpp's broadcast_in_dim rule).
        const bool hlo = m_.dialect == "hlo";
        if (op.infer_shape || op.code == OpCode::Parameter || op.code == OpCode::Constant ||
            op.code == OpCode::BroadcastInDim || op.results.count == 0 ||
            (hlo && op.results.count != 1))
          continue;
        // StableHLO: the elementwise ops (no attribute) and those the op table marks Inferred,
        // whose attributes the rules read in both spellings. Where HLO gives a tuple (the batch
        // norms' training and grad), StableHLO gives its elements as results.
        // A rule whose refusal is the op's error (complete_rule) runs whenever its operands are
        // ranked; an unranked written result is then not compared (the kernel trusts the rule).
        const bool complete = complete_rule(op.code);
        if (!hlo && (!stablehlo_rule(op.code) || has_unranked(fn(fi), op, !complete))) continue;
        set_op({fi, oi});
        // Ops alike (opcode, operand and result types, attributes: op_memo.h) are checked once.
        std::uint64_t h = 0;
        if (memo_.find(view(), &h) != OpMemo::kNone) continue;
        memo_.remember(view(), h, 0);
        // A rule that states XLA's inference in full (complete_rule) refuses an op as XLA's
        // verifier would: its refusal is the op's error. Other rules' refusals are left to the
        // other checks (a rule may not know every form a real file writes).
        probing_ = !complete_rule(op.code);
        Type t;
        const bool inferred = infer(&t);
        probing_ = true;
        if (!inferred) {
          if (!error.empty()) return false;
          continue;
        }
        const std::size_t n = op.results.count;
        if (n > 1 && (t.kind != Type::Kind::Tuple || t.tuple.size() != n)) continue;
        for (std::size_t i = 0; i < n; ++i) {
          const Type& written = m_.value_type(*f_, f_->results(op)[i]);
          if (unranked(written)) continue;  // nothing to compare (StableHLO's tensor<*xf32>)
          Type want = n > 1 ? t.tuple[i] : t;
          // A dot's or a convolution's written element type may be another one (XLA's
          // preferred_element_type): their dimensions are compared.
          if (op.code == OpCode::DotGeneral || op.code == OpCode::Dot ||
              op.code == OpCode::Convolution)
            want.etype = written.etype;
          if (alike(want, written)) continue;
          probing_ = false;
          line = op.line;
          column = op.column;
          error = std::to_string(line) + ":" + std::to_string(column) + ": error: " + opname() +
                  (hlo     ? "'s written shape"
                   : n > 1 ? " result " + std::to_string(i) + "'s written type"
                           : std::string("'s written result type")) +
                  " differs from the one its operands give \xE2\x80\x94 expected " +
                  (hlo ? to_string(want, "hlo") : type_text(want)) +
                  (hlo ? " (XLA's shape inference), got " : " (its operands' types), got ") +
                  to_string(written, m_.dialect);
          return false;
        }
      }
    probing_ = false;
    return true;
  }

  bool run() {
    for (std::uint32_t fi = 0; fi < ops_.size(); ++fi)
      for (std::uint32_t oi = 0; oi < ops_[fi].size(); ++oi)
        if (state_[base_[fi] + oi] == kTodo && !walk({fi, oi})) return false;
    // Each computation's result is its ROOT's shape.
    for (std::size_t fi = 0; fi < ops_.size(); ++fi) {
      Function& f = m_.functions[fi];
      if (root_[fi] >= 0 && ops_[fi][root_[fi]]->infer_shape && !f.result_types.empty())
        f.result_types[0] = f.values[f.results(*ops_[fi][root_[fi]])[0]].type;
    }
    return true;
  }

 private:
  enum : std::uint8_t { kTodo, kOnStack, kDone };
  struct Node {
    std::uint32_t fn, op;
  };
  struct Frame {
    Node node;
    std::vector<Node> deps;
    std::size_t next = 0;
    bool expanded = false;
  };

  Module& m_;
  TypeTable& types_;
  std::vector<std::vector<Op*>> ops_;  // per computation, in text order
  std::vector<std::vector<std::int32_t>>
      producer_;                    // per computation: value → instruction, -1 for none
  std::vector<std::int32_t> root_;  // per computation: its ROOT instruction
  std::vector<std::size_t> base_;   // node id = base_[fn] + instruction
  std::vector<std::uint8_t> state_;
  const Function* f_ = nullptr;  // the instruction being typed
  const Op* op_ = nullptr;
  bool probing_ = false;              // check_written(): a rule's refusal is no error here
  OpMemo memo_;                       // check_written(): the kinds of op already checked
  AttrDecoder decoder_{m_, nullptr};  // the lowering's reader of every attribute (decode.h)
  OpAttrs attrs_;                     // decoded(): the op's attributes

  std::size_t id(Node n) const { return base_[n.fn] + n.op; }
  const Function& fn(std::uint32_t fi) const { return m_.functions[fi]; }
  std::string opname() const { return clip(op_->name); }

  // ---- the walk ----------------------------------------------------------------------------

  bool walk(Node start) {
    std::vector<Frame> stack;
    stack.push_back({start, {}, 0, false});
    state_[id(start)] = kOnStack;
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (!top.expanded) {
        top.expanded = true;
        dependencies(top.node, &top.deps);
      }
      bool pushed = false;
      while (top.next < top.deps.size()) {
        const Node d = top.deps[top.next++];
        const std::uint8_t s = state_[id(d)];
        if (s == kDone) continue;
        if (s == kOnStack) return cycle(stack, d);
        state_[id(d)] = kOnStack;
        stack.push_back({d, {}, 0, false});
        pushed = true;
        break;
      }
      if (pushed) continue;
      const Node n = top.node;
      if (!type(n)) {
        note_caller(stack);
        return false;
      }
      state_[id(n)] = kDone;
      stack.pop_back();
    }
    return true;
  }

  // The shapeless instructions `n` needs typed first: the operands, and the ROOT of each
  // computation whose result it uses. Unresolvable names are reported when `n` is typed.
  void dependencies(Node n, std::vector<Node>* deps) {
    const Function& f = fn(n.fn);
    const Op& op = *ops_[n.fn][n.op];
    for (ValueId v : f.operands(op)) {
      if (v >= producer_[n.fn].size() || producer_[n.fn][v] < 0) continue;
      const Node p{n.fn, static_cast<std::uint32_t>(producer_[n.fn][v])};
      if (state_[id(p)] != kDone) deps->push_back(p);
    }
    for (std::uint32_t callee : callees_needed(f, op)) {
      if (root_[callee] < 0) continue;
      const Node r{callee, static_cast<std::uint32_t>(root_[callee])};
      if (state_[id(r)] != kDone) deps->push_back(r);
    }
  }

  // The computations whose result the op's rule reads (to_apply, condition and body, branches),
  // as the decoder resolves them: the callees the rule itself reads (callee_at). Decoding these
  // ops reads no operand's type, so it may run before the operands are typed. An op whose
  // attributes do not decode needs none here: its rule reports the decoder's error when it runs.
  std::vector<std::uint32_t> callees_needed(const Function& f, const Op& op) {
    switch (op.code) {
      case OpCode::Call:
      case OpCode::Reduce:
      case OpCode::Map:
      case OpCode::While:
      case OpCode::Case:
        break;
      default:
        return {};
    }
    OpAttrs a;
    bool has = false;
    decoder_.clear_error();
    const bool ok = decoder_.decode(OpView{m_, f, op}, &a, &has);
    decoder_.clear_error();
    return ok ? a.callees() : std::vector<std::uint32_t>{};
  }

  bool cycle(const std::vector<Frame>& stack, Node back_to) {
    std::size_t from = stack.size() - 1;
    while (from > 0 && !(stack[from].node.fn == back_to.fn && stack[from].node.op == back_to.op))
      --from;
    std::string path;
    for (std::size_t i = from; i < stack.size() && i < from + 6; ++i)
      path += value_name(stack[i].node) + " \xE2\x86\x92 ";
    if (stack.size() - from > 6) path += "... \xE2\x86\x92 ";
    path += value_name(back_to);
    set_op(back_to);
    return fail("shapes that do not depend on themselves", "a cycle " + path);
  }

  std::string value_name(Node n) const {
    const Function& f = fn(n.fn);
    const Op& op = *ops_[n.fn][n.op];
    return op.results.count ? clip(f.value_name(f.results(op)[0])) : clip(op.name);
  }

  // A computation's result that could not be inferred: say which instruction needed it.
  void note_caller(const std::vector<Frame>& stack) {
    const std::uint32_t failing = stack.back().node.fn;
    for (std::size_t i = stack.size(); i-- > 0;) {
      if (stack[i].node.fn == failing) continue;
      const Op& caller = *ops_[stack[i].node.fn][stack[i].node.op];
      error += " (the result of computation " + clip(fn(failing).name) + ", needed by " +
               clip(caller.name) + " at " + std::to_string(caller.line) + ":" +
               std::to_string(caller.column) + ")";
      return;
    }
  }

  void set_op(Node n) {
    f_ = &fn(n.fn);
    op_ = ops_[n.fn][n.op];
  }

  bool type(Node n) {
    set_op(n);
    Type t;
    if (!infer(&t)) return false;
    for (std::int64_t d : t.dims)
      if (d > kMaxDim) return fail("dimensions of at most 2^50", t.text);
    Function& f = m_.functions[n.fn];
    f.values[f.results(*op_)[0]].type = types_.intern(std::move(t));
    return true;
  }

  // ---- errors and operands -----------------------------------------------------------------

  // Shapes alike as XLA compares them without layouts: one element type, equal dimensions (an
  // unknown size matches any), tuples element by element.
  static bool alike(const Type& a, const Type& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == Type::Kind::Tuple) {
      if (a.tuple.size() != b.tuple.size()) return false;
      for (std::size_t i = 0; i < a.tuple.size(); ++i)
        if (!alike(a.tuple[i], b.tuple[i])) return false;
      return true;
    }
    if (!a.is_array()) return true;
    if (a.etype != b.etype || a.dims.size() != b.dims.size()) return false;
    for (std::size_t i = 0; i < a.dims.size(); ++i)
      if (a.dims[i] >= 0 && b.dims[i] >= 0 && a.dims[i] != b.dims[i]) return false;
    return true;
  }

  bool fail(const std::string& rule, const std::string& got) {
    if (probing_ || !error.empty()) return false;
    line = op_->line;
    column = op_->column;
    error = std::to_string(line) + ":" + std::to_string(column) + ": error: the shape of " +
            opname() + " cannot be inferred \xE2\x80\x94 expected " + rule + ", got " + got;
    return false;
  }

  // A helper's own error (attrs.h), passed on as it is.
  template <class T>
  bool take(const Result<T>& r) {
    if (r.ok()) return true;
    if (!probing_ && error.empty()) {
      error = r.error();
      line = r.error_info().line;
      column = r.error_info().column;
    }
    return false;
  }

  // The op's attributes as the lowering decodes them (decode.h: both dialects' spellings, integer
  // lists read exactly), or nullptr with the decoder's error as this op's when one it needs is
  // missing or cannot be read. The rules below read attributes only through it.
  const OpAttrs* decoded() {
    decoder_.clear_error();
    bool has = false;
    if (!decoder_.decode(view(), &attrs_, &has)) {
      const Error& e = decoder_.error();
      if (!probing_ && error.empty()) {
        error = e.message;
        line = e.line;
        column = e.column;
      }
      return nullptr;
    }
    if (!has) attrs_ = OpAttrs{};
    return &attrs_;
  }
  // A computation the decoder found (OpAttrs::callees()[i]) that has a ROOT to type it by.
  bool callee_at(const OpAttrs& a, std::size_t i, const char* attr, std::uint32_t* out) {
    const std::vector<std::uint32_t>& callees = a.callees();
    if (i >= callees.size() || root_[callees[i]] < 0)
      return fail(std::string(attr) + " naming a computation of this module with a ROOT",
                  i < callees.size() ? clip(fn(callees[i]).name) : std::string("none"));
    *out = callees[i];
    return true;
  }

  std::size_t count() const { return op_->operands.count; }
  const Type& in(std::size_t i) const { return m_.value_type(*f_, f_->operands(*op_)[i]); }
  OpView view() const { return {m_, *f_, *op_}; }

  bool operands(std::size_t n) {
    if (count() == n) return true;
    return fail(std::to_string(n) + (n == 1 ? " operand" : " operands"), std::to_string(count()));
  }

  bool array(std::size_t i, Arr* out, const char* what = nullptr) {
    const Type& t = in(i);
    if (!t.is_array())
      return fail("an array as " + (what ? std::string(what) : "operand " + std::to_string(i)),
                  clip(t.text));
    *out = arr_of(t);
    return true;
  }

  bool scalar(std::size_t i, Arr* out, const char* what) {
    if (!array(i, out, what)) return false;
    if (out->rank() != 0) return fail(std::string("a scalar as ") + what, clip(in(i).text));
    return true;
  }

  // Each value a dimension number of a rank-`rank` array, none repeated.
  bool dims_in_range(std::string_view name, const std::vector<std::int64_t>& v, std::size_t rank,
                     const Type& of) {
    std::vector<bool> seen(rank, false);
    for (std::int64_t d : v) {
      if (d < 0 || static_cast<std::size_t>(d) >= rank)
        return fail(std::string(name) + " below the rank of " + clip(of.text),
                    std::string(name) + "=" + dims_text(v));
      if (seen[d])
        return fail(std::string(name) + " without repeats", std::string(name) + "=" + dims_text(v));
      seen[d] = true;
    }
    return true;
  }

  const Type& result_of(std::uint32_t fi) const {
    const Function& f = fn(fi);
    return m_.value_type(f, f.results(*ops_[fi][root_[fi]])[0]);
  }

  std::size_t params_of(std::uint32_t fi) const { return fn(fi).args.size(); }
  const Type& param_of(std::uint32_t fi, std::size_t i) const {
    return m_.value_type(fn(fi), fn(fi).args[i]);
  }

  bool output(Type t, Type* out) {
    *out = std::move(t);
    return true;
  }

  // ---- the rules ---------------------------------------------------------------------------

  bool infer(Type* out) {
    switch (op_->code) {
      case OpCode::Not:
      case OpCode::Negate:
      case OpCode::Abs:
      case OpCode::Sign:
      case OpCode::Floor:
      case OpCode::Ceil:
      case OpCode::RoundNearestAfz:
      case OpCode::RoundNearestEven:
      case OpCode::Popcnt:
      case OpCode::CountLeadingZeros:
      case OpCode::IsFinite:
      case OpCode::Real:
      case OpCode::Imag:
      case OpCode::Exponential:
      case OpCode::ExponentialMinusOne:
      case OpCode::Log:
      case OpCode::LogPlusOne:
      case OpCode::Logistic:
      case OpCode::Sqrt:
      case OpCode::Cbrt:
      case OpCode::Rsqrt:
      case OpCode::Tanh:
      case OpCode::Sine:
      case OpCode::Cosine:
      case OpCode::Tan:
      case OpCode::Erf:
      case OpCode::ChloIsInf:
      case OpCode::ChloIsNegInf:
      case OpCode::ChloIsPosInf:
        return unary(out);
      case OpCode::Add:
      case OpCode::Subtract:
      case OpCode::Multiply:
      case OpCode::Divide:
      case OpCode::Remainder:
      case OpCode::Maximum:
      case OpCode::Minimum:
      case OpCode::And:
      case OpCode::Or:
      case OpCode::Xor:
      case OpCode::ShiftLeft:
      case OpCode::ShiftRightLogical:
      case OpCode::ShiftRightArithmetic:
      case OpCode::Power:
      case OpCode::Atan2:
      case OpCode::Complex:
      case OpCode::Compare:
        return binary(out);
      case OpCode::Copy:
      case OpCode::Domain:
      case OpCode::OptimizationBarrier:
      case OpCode::OptimizationBarrierLong:
        // XLA InferUnaryOpShape: copy and domain forward their operand's shape (tuples too);
        // an optimization barrier does the same.
        if (!operands(1)) return false;
        return output(in(0), out);
      case OpCode::Select:
        return select(out);
      case OpCode::Clamp:
        return clamp(out);
      case OpCode::Tuple:
        return tuple(out);
      case OpCode::GetTupleElement:
        return get_tuple_element(out);
      case OpCode::Concatenate:
        return concatenate(out);
      case OpCode::Sort:
        return sort(out);
      case OpCode::Map:
        return map(out);
      case OpCode::Reduce:
        return reduce(out);
      case OpCode::ReduceWindow:
        return reduce_window(out);
      case OpCode::SelectAndScatter:
        return select_and_scatter(out);
      case OpCode::BroadcastInDim:
        return broadcast(out);
      case OpCode::Transpose:
        return transpose(out);
      case OpCode::Reverse:
        return reverse(out);
      case OpCode::Pad:
        return pad(out);
      case OpCode::Gather:
        return gather(out);
      case OpCode::Scatter:
        return scatter(out);
      case OpCode::DotGeneral:
        return dot(out);
      case OpCode::Convolution:
        return convolution(out);
      case OpCode::Fft:
        return fft(out);
      case OpCode::TriangularSolve:
        return triangular_solve(out);
      case OpCode::Cholesky:
        return cholesky(out);
      case OpCode::Call:
        return call(out);
      case OpCode::While:
        return while_loop(out);
      case OpCode::Case:
        return conditional(out);
      case OpCode::GetDimensionSize:
        return get_dimension_size(out);
      case OpCode::SetDimensionSize:
        return set_dimension_size(out);
      case OpCode::BatchNormTraining:
      case OpCode::BatchNormGrad:
      case OpCode::BatchNormInference:
        return batch_norm(out);
      case OpCode::AfterAll:
        // XLA CreateAfterAll / CreateToken: tokens in, a token out.
        for (std::size_t i = 0; i < count(); ++i)
          if (in(i).kind != Type::Kind::Token) return fail("token operands", clip(in(i).text));
        return output(token_type(), out);
      case OpCode::AddDependency:
        // XLA CreateAddDependency: the shape of the data operand.
        if (!operands(2)) return false;
        return output(in(0), out);
      case OpCode::ReplicaId:
      case OpCode::PartitionId:
        // XLA CreateReplicaId / CreatePartitionId: u32[].
        if (!operands(0)) return false;
        return output(scalar_type(ElementType::U32), out);
      default:
        // XLA's CanInferShape is false for these (constant, parameter, convert, reshape, slice,
        // the collectives and their -start/-done, custom-call, fusion, ...), and for opcodes the
        // op table does not name.
        return fail("a shape before the opcode", opname() + " without a shape");
    }
  }

  // XLA InferUnaryOpShape: the operand's shape, after its element type is checked; abs, real
  // and imag of a complex give the component type (c64 → f32, c128 → f64); is-finite gives pred.
  bool unary(Type* out) {
    Arr a;
    if (!operands(1) || !array(0, &a)) return false;
    // The kinds of element the op takes: ops.inc's types column, which the verifier reads too.
    const ElementKind k = element_kind(a.et);
    if (!op_takes(op_->code, k))
      return fail(types_text(op_info(op_->code).types) + " operand", clip(in(0).text));
    switch (op_->code) {
      case OpCode::IsFinite:
      case OpCode::ChloIsInf:
      case OpCode::ChloIsNegInf:
      case OpCode::ChloIsPosInf:
        a = with_element(a, ElementType::Pred);
        break;
      case OpCode::Real:
      case OpCode::Imag:
      case OpCode::Abs:
        if (k == ElementKind::Complex) a = with_element(a, complex_component(a.et));
        break;
      default:
        break;
    }
    return output(to_type(a), out);
  }

  // XLA InferBinaryOpShape / InferElementwiseBinaryOpShape (no broadcast_dimensions in HLO):
  // element types equal (any two floating-point types mix); equal ranks combine dimension by
  // dimension (equal, or one of them 1: the other wins); different ranks need a scalar operand
  // (the result has the array's dimensions). The element type is the higher-precision one;
  // compare gives pred; complex gives c64 from f32 parts and c128 from f64 parts.
  bool binary(Type* out) {
    Arr a, b;
    if (!operands(2) || !array(0, &a, "lhs") || !array(1, &b, "rhs")) return false;
    const OpCode c = op_->code;
    const auto got = [&] { return clip(in(0).text) + " and " + clip(in(1).text); };
    if (!same_element_ignoring_fp(a, b)) return fail("operands of one element type", got());
    // The kinds of element the op takes: ops.inc's types column, which the verifier reads too.
    if (!op_takes(c, element_kind(a.et)))
      return fail(types_text(op_info(c).types) + " operands", got());
    Arr r = higher_precision(a, b);
    if (a.rank() == b.rank()) {
      r.dims = a.dims;
      r.bounded = a.bounded;
      for (std::size_t i = 0; i < a.rank(); ++i) {
        const std::int64_t x = a.dims[i], y = b.dims[i];
        if (x == y || y == 1)
          r.dims[i] = x;
        else if (x == 1)
          r.dims[i] = y;
        else if (x < 0 || y < 0)
          r.dims[i] = -1;
        else
          return fail("operands of equal dimensions (or 1 where they differ)", got());
        r.bounded[i] = a.bounded[i] || b.bounded[i];
      }
    } else {
      const Arr& big = a.rank() > b.rank() ? a : b;
      const Arr& small = a.rank() > b.rank() ? b : a;
      if (small.rank() != 0) return fail("operands of equal rank, or a scalar and an array", got());
      r.dims = big.dims;
      r.bounded = big.bounded;
    }
    if (c == OpCode::Compare) r = with_element(r, ElementType::Pred);
    if (c == OpCode::Complex) {
      if (a.et == ElementType::F32 && b.et == ElementType::F32)
        r = with_element(r, ElementType::C64);
      else if (a.et == ElementType::F64 && b.et == ElementType::F64)
        r = with_element(r, ElementType::C128);
      else
        return fail("f32 or f64 parts of one type", got());
    }
    return output(to_type(r), out);
  }

  // XLA InferSelectShape: pred with the dimensions of on_true; on_true and on_false alike;
  // the result has pred's dimensions and the higher-precision of the two element types.
  bool select(Type* out) {
    Arr p, t, f;
    if (!operands(3) || !array(0, &p, "pred") || !array(1, &t, "on_true") ||
        !array(2, &f, "on_false"))
      return false;
    if (t.dims != f.dims || !same_element_ignoring_fp(t, f))
      return fail("on_true and on_false of one shape",
                  clip(in(1).text) + " and " + clip(in(2).text));
    if (p.et != ElementType::Pred) return fail("a pred array as pred", clip(in(0).text));
    if (p.dims != t.dims)
      return fail("pred with the dimensions of on_true",
                  clip(in(0).text) + " and " + clip(in(1).text));
    Arr r = higher_precision(t, f);
    r.dims = p.dims;
    r.bounded = p.bounded;
    return output(to_type(r), out);
  }

  // XLA InferClampShape: the operand's shape (the middle one); min and max have its
  // dimensions, or are scalars.
  bool clamp(Type* out) {
    Arr lo, x, hi;
    if (!operands(3) || !array(0, &lo, "min") || !array(1, &x, "operand") || !array(2, &hi, "max"))
      return false;
    for (const Arr* bound : {&lo, &hi})
      if ((bound->rank() != 0 && bound->dims != x.dims) || !same_element_ignoring_fp(*bound, x))
        return fail("min and max of the operand's shape, or scalars of its type",
                    clip(in(0).text) + ", " + clip(in(1).text) + ", " + clip(in(2).text));
    return output(in(1), out);
  }

  // XLA InferVariadicOpShape(kTuple): the tuple of the operands' shapes.
  bool tuple(Type* out) {
    std::vector<Type> elements;
    for (std::size_t i = 0; i < count(); ++i) elements.push_back(in(i));
    return output(tuple_type(std::move(elements)), out);
  }

  // XLA ShapeUtil::GetTupleElementShape: element `index` of the operand's tuple.
  bool get_tuple_element(Type* out) {
    const OpAttrs* at = operands(1) ? decoded() : nullptr;
    if (!at) return false;
    const std::int64_t index = at->get<TupleIndexAttrs>().index;
    const Type& t = in(0);
    if (t.kind != Type::Kind::Tuple) return fail("a tuple operand", clip(t.text));
    if (index < 0 || static_cast<std::size_t>(index) >= t.tuple.size())
      return fail("index below the tuple size " + std::to_string(t.tuple.size()),
                  "index=" + std::to_string(index));
    return output(t.tuple[index], out);
  }

  // XLA InferConcatOpShape: operands of one rank and element type (floats mix), equal except
  // in dimension d; the result's dimension d is their sum.
  bool concatenate(Type* out) {
    const OpAttrs* at = decoded();
    if (!at) return false;
    const std::vector<std::int64_t> d{at->get<DimensionAttrs>().dimension};
    if (count() == 0) return fail("at least one operand", "none");
    Arr r;
    if (!array(0, &r)) return false;
    if (d[0] < 0 || static_cast<std::size_t>(d[0]) >= r.rank())
      return fail("a dimension below the rank of " + clip(in(0).text),
                  "dimensions=" + dims_text(d));
    const auto k = static_cast<std::size_t>(d[0]);
    for (std::size_t i = 1; i < count(); ++i) {
      Arr a;
      if (!array(i, &a)) return false;
      if (a.rank() != r.rank() || !same_element_ignoring_fp(a, r))
        return fail("operands of one rank and element type",
                    clip(in(0).text) + " and " + clip(in(i).text));
      for (std::size_t j = 0; j < r.rank(); ++j) {
        if (j == k) continue;
        if (a.dims[j] != r.dims[j])
          return fail("operands that differ only in dimension " + std::to_string(k),
                      clip(in(0).text) + " and " + clip(in(i).text));
      }
      const std::int64_t sum = a.dims[k] < 0 || r.dims[k] < 0 ? -1 : a.dims[k] + r.dims[k];
      if (sum > kMaxDim) return fail("dimensions of at most 2^50", "a concatenated size over it");
      const Arr& hp = higher_precision(r, a);
      const ElementType et = hp.et;
      const std::string element = hp.element;
      r.dims[k] = sum;
      r.et = et;
      r.element = element;
      for (std::size_t j = 0; j < r.rank(); ++j) r.bounded[j] = r.bounded[j] || a.bounded[j];
    }
    return output(to_type(r), out);
  }

  // XLA InferVariadicOpShape(kSort): one operand's shape, or the tuple of several operands of
  // equal dimensions.
  bool sort(Type* out) {
    if (count() == 0) return fail("at least one operand", "none");
    Arr first;
    if (!array(0, &first)) return false;
    if (count() == 1) return output(in(0), out);
    std::vector<Type> elements{in(0)};
    for (std::size_t i = 1; i < count(); ++i) {
      Arr a;
      if (!array(i, &a)) return false;
      if (a.dims != first.dims)
        return fail("operands of equal dimensions", clip(in(0).text) + " and " + clip(in(i).text));
      elements.push_back(in(i));
    }
    return output(tuple_type(std::move(elements)), out);
  }

  // XLA InferMapShape: operands of one shape (a scalar may stand beside arrays), to_apply taking
  // one scalar per operand and returning a scalar; the result is to_apply's element type over
  // the operands' dimensions.
  bool map(Type* out) {
    if (count() == 0) return fail("at least one operand", "none");
    Arr shape;
    if (!array(0, &shape)) return false;
    for (std::size_t i = 1; i < count(); ++i) {
      Arr a;
      if (!array(i, &a)) return false;
      if (a.dims == shape.dims || a.rank() == 0) continue;
      if (shape.rank() == 0) {
        shape = a;
        continue;
      }
      return fail("operands of one shape", clip(in(0).text) + " and " + clip(in(i).text));
    }
    const OpAttrs* at = decoded();
    if (!at) return false;
    const std::vector<std::int64_t>& d = at->get<ReduceAttrs>().dims;
    if (at->get<ReduceAttrs>().dims_written) {
      bool identity = d.size() == shape.rank();
      for (std::size_t i = 0; identity && i < d.size(); ++i)
        identity = d[i] == static_cast<std::int64_t>(i);
      if (!identity)
        return fail("dimensions={0,1,...} over every dimension of " + clip(in(0).text),
                    "dimensions=" + dims_text(d));
    }
    std::uint32_t fi = 0;
    if (!callee_at(*at, 0, "to_apply", &fi)) return false;
    if (params_of(fi) != count())
      return fail("to_apply taking " + std::to_string(count()) + " parameters",
                  clip(fn(fi).name) + " taking " + std::to_string(params_of(fi)));
    // A one-element tuple of a scalar counts as that scalar: XLA's HLO importer test prints a
    // map whose to_apply returns (f32[]) with the f32 result shape.
    const Type& returned = result_of(fi);
    const Type& r = returned.kind == Type::Kind::Tuple && returned.tuple.size() == 1
                        ? returned.tuple[0]
                        : returned;
    if (!r.is_array() || !r.dims.empty())
      return fail("to_apply returning a scalar",
                  clip(fn(fi).name) + " returning " + clip(returned.text));
    Arr result = with_element(shape, r.etype);
    result.element = r.element;
    result.bounded.assign(result.rank(), false);
    return output(to_type(result), out);
  }

  // XLA InferReduceShape: N inputs of equal dimensions, then N init values; the result drops
  // `dimensions` from the inputs' dimensions, with to_apply's element type (a tuple of N such
  // arrays when to_apply returns a tuple). ShapeInference wants scalar init values and a scalar
  // to_apply; XLA's HLO importer test prints reduce(f32[4,4], f32[4]) over an f32[4] to_apply as
  // f32[4], so only the element type of to_apply's result is used.
  bool reduce(Type* out) {
    if (count() < 2 || count() % 2 != 0)
      return fail("N inputs and N init values (an even number of operands)",
                  std::to_string(count()) + " operands");
    const std::size_t n = count() / 2;
    Arr first;
    if (!array(0, &first, "input 0")) return false;
    for (std::size_t i = 1; i < n; ++i) {
      Arr a;
      if (!array(i, &a)) return false;
      if (a.dims != first.dims)
        return fail("inputs of equal dimensions", clip(in(0).text) + " and " + clip(in(i).text));
    }
    for (std::size_t i = n; i < count(); ++i) {
      Arr init;
      if (!array(i, &init, "init value")) return false;
    }
    const OpAttrs* at = decoded();
    if (!at) return false;
    const std::vector<std::int64_t>& d = at->get<ReduceAttrs>().dims;
    if (!dims_in_range("dimensions", d, first.rank(), in(0))) return false;
    std::uint32_t fi = 0;
    if (!callee_at(*at, 0, "to_apply", &fi)) return false;
    if (params_of(fi) != 2 * n)
      return fail("to_apply taking " + std::to_string(2 * n) + " parameters",
                  clip(fn(fi).name) + " taking " + std::to_string(params_of(fi)));
    Arr kept;
    kept.et = first.et;
    kept.element = first.element;
    for (std::size_t i = 0; i < first.rank(); ++i)
      if (std::find(d.begin(), d.end(), static_cast<std::int64_t>(i)) == d.end()) {
        kept.dims.push_back(first.dims[i]);
        kept.bounded.push_back(first.bounded[i]);
      }
    const Type& r = result_of(fi);
    auto element_of = [&](const Type& s, Arr* a) {
      if (!s.is_array()) return false;
      *a = with_element(kept, s.etype);
      a->element = s.element;
      return true;
    };
    const std::string want = n == 1
                                 ? "to_apply returning an array"
                                 : "to_apply returning a tuple of " + std::to_string(n) + " arrays";
    const std::string got = clip(fn(fi).name) + " returning " + clip(r.text);
    if (r.kind == Type::Kind::Tuple) {
      if (r.tuple.size() != n) return fail(want, got);
      std::vector<Type> elements;
      for (const Type& s : r.tuple) {
        Arr a;
        if (!element_of(s, &a)) return fail(want, got);
        elements.push_back(to_type(a));
      }
      return output(tuple_type(std::move(elements)), out);
    }
    Arr a;
    if (n != 1 || !element_of(r, &a)) return fail(want, got);
    return output(to_type(a), out);
  }

  // The window of an array of `rank` dimensions, its sizes, strides and dilations checked
  // (XLA InferWindowOutputShape).
  // HLO writes a window's sizes (`window={size=3x3 ...}`); the decoder says whether they are.
  bool window_written(std::size_t rank, bool sizes_written) {
    if (rank > 0 && !sizes_written) {
      const Attribute* a = view().attr("window");  // only quoted in the message
      return fail("window={size=...} with " + std::to_string(rank) + " dimensions",
                  a ? "window=" + clip(a->value) : "no window attribute");
    }
    return true;
  }
  bool window_of(std::size_t rank, std::vector<WindowDim>* w) {
    const OpAttrs* at = decoded();
    if (!at || !window_written(rank, at->get<WindowAttrs>().sizes)) return false;
    *w = at->get<WindowAttrs>().window;
    return window_checked(*w);
  }
  bool window_checked(const std::vector<WindowDim>& w) {
    const Attribute* a = view().attr("window");  // quoted in the message
    for (const WindowDim& d : w) {
      const bool ok = d.size > 0 && d.stride > 0 && d.base_dilation >= 1 &&
                      d.window_dilation >= 1 && d.size <= kMaxDim && d.stride <= kMaxDim &&
                      d.base_dilation <= kMaxDim && d.window_dilation <= kMaxDim &&
                      d.pad_low <= kMaxDim && d.pad_low >= -kMaxDim && d.pad_high <= kMaxDim &&
                      d.pad_high >= -kMaxDim;
      if (!ok)
        return fail("a window of positive sizes, strides and dilations (at most 2^50)",
                    "window=" + clip(a ? a->value : ""));
    }
    return true;
  }

  bool windowed(const Arr& base, const std::vector<WindowDim>& w, Arr* r) {
    *r = base;
    for (std::size_t i = 0; i < base.rank(); ++i) {
      const std::string wrong = window_output(base.dims[i], w[i], &r->dims[i]);
      if (!wrong.empty())
        return fail("a window whose padded size is from 0 to 2^61 in every dimension",
                    wrong + " in dimension " + std::to_string(i));
    }
    return true;
  }

  // XLA InferReduceWindowShape: the window's output over each input, in its init value's
  // element type; N inputs of equal dimensions give a tuple of N arrays. (The HLO parser calls
  // the one-input form; ShapeInference's N-input form is the one a printed variadic
  // reduce-window carries.)
  bool reduce_window(Type* out) {
    if (count() < 2 || count() % 2 != 0)
      return fail("N inputs and N init values (an even number of operands)",
                  std::to_string(count()) + " operands");
    const std::size_t n = count() / 2;
    Arr base;
    std::vector<WindowDim> w;
    if (!array(0, &base, "input 0") || !window_of(base.rank(), &w)) return false;
    Arr r;
    if (!windowed(base, w, &r)) return false;
    std::vector<Type> results;
    for (std::size_t i = 0; i < n; ++i) {
      Arr input, init;
      if (!array(i, &input) || !scalar(n + i, &init, "init value")) return false;
      if (input.dims != base.dims)
        return fail("inputs of equal dimensions", clip(in(0).text) + " and " + clip(in(i).text));
      Arr typed = with_element(r, init.et);
      typed.element = init.element;
      results.push_back(to_type(typed));
    }
    if (n == 1) return output(results[0], out);
    return output(tuple_type(std::move(results)), out);
  }

  // XLA InferSelectAndScatterShape: the operand's shape; the source has the shape of the
  // window's output over the operand.
  bool select_and_scatter(Type* out) {
    Arr operand, source, init;
    std::vector<WindowDim> w;
    if (!operands(3) || !array(0, &operand, "operand") || !array(1, &source, "source") ||
        !scalar(2, &init, "init value") || !window_of(operand.rank(), &w))
      return false;
    Arr r;
    if (!windowed(operand, w, &r)) return false;
    if (r.dims != source.dims)
      return fail("a source of the window's output dimensions " + dims_text(r.dims),
                  clip(in(1).text));
    return output(in(0), out);
  }

  // XLA InferBroadcastShape(operand, broadcast_sizes), the two-argument form the HLO parser
  // calls: it reads `dimensions` as the sizes of new major dimensions, so the result is
  // [dimensions..., operand dims...] — f32[3] with dimensions={1} gives f32[1,3], not the
  // broadcast_in_dim a printed module means. A scalar may leave dimensions out ({}: a scalar).
  bool broadcast(Type* out) {
    Arr a;
    if (!operands(1) || !array(0, &a)) return false;
    std::vector<std::int64_t> sizes;
    // Whether `dimensions` is written at all (not its value) must be read here: XLA's parser lets
    // a scalar's broadcast leave it out, which the decoder, shared with the verifier and the
    // lowering (which require it), refuses.
    if (a.rank() != 0 || view().attr("dimensions")) {
      const OpAttrs* at = decoded();
      if (!at) return false;
      sizes = at->get<DimsAttrs>().dims;
    }
    Arr r = a;
    r.dims.clear();
    r.bounded.clear();
    for (std::int64_t s : sizes) {
      if (s < 0 || s > kMaxDim)
        return fail("dimensions of sizes from 0 to 2^50", "dimensions=" + dims_text(sizes));
      r.dims.push_back(s);
      r.bounded.push_back(false);
    }
    r.dims.insert(r.dims.end(), a.dims.begin(), a.dims.end());
    r.bounded.insert(r.bounded.end(), a.bounded.begin(), a.bounded.end());
    return output(to_type(r), out);
  }

  // XLA InferTransposeShape: out[i] = in[dimensions[i]], dimensions a permutation.
  bool transpose(Type* out) {
    Arr a;
    const OpAttrs* at = operands(1) && array(0, &a) ? decoded() : nullptr;
    if (!at) return false;
    const std::vector<std::int64_t>& d = at->get<DimsAttrs>().dims;
    if (d.size() != a.rank())
      return fail("dimensions, a permutation of the " + std::to_string(a.rank()) +
                      " dimensions of " + clip(in(0).text),
                  "dimensions=" + dims_text(d));
    if (!dims_in_range("dimensions", d, a.rank(), in(0))) return false;
    Arr r = a;
    for (std::size_t i = 0; i < d.size(); ++i) {
      r.dims[i] = a.dims[d[i]];
      r.bounded[i] = a.bounded[d[i]];
    }
    return output(to_type(r), out);
  }

  // XLA InferReverseShape: the operand's shape; dimensions in range, none repeated.
  bool reverse(Type* out) {
    Arr a;
    const OpAttrs* at = operands(1) && array(0, &a) ? decoded() : nullptr;
    if (!at || !dims_in_range("dimensions", at->get<DimsAttrs>().dims, a.rank(), in(0)))
      return false;
    return output(in(0), out);
  }

  // XLA InferPadShape: padding=lo_hi[_interior] per dimension, 'x' between dimensions; each
  // dimension becomes d + lo + hi + max(d-1, 0)·interior (at least 0; interior at least 0); the
  // element type is the higher-precision of the operand's and the padding value's.
  bool pad(Type* out) {
    Arr a, value;
    if (!operands(2) || !array(0, &a) || !scalar(1, &value, "padding value")) return false;
    if (!same_element_ignoring_fp(a, value))
      return fail("a padding value of the operand's element type",
                  clip(in(0).text) + " and " + clip(in(1).text));
    const OpAttrs* at = decoded();
    if (!at) return false;
    const PadAttrs& pa = at->get<PadAttrs>();
    const std::vector<std::int64_t>&low = pa.low, &high = pa.high, &inner = pa.interior;
    if (low.size() != high.size() || inner.size() != low.size())
      return fail("low, high and interior padding, one of each per dimension",
                  "low = " + dims_text(low) + ", high = " + dims_text(high) +
                      ", interior = " + dims_text(inner));
    std::vector<std::vector<std::int64_t>> config;
    for (std::size_t i = 0; i < low.size(); ++i) config.push_back({low[i], high[i], inner[i]});
    // What the messages quote (the values above are the decoder's): HLO's `padding=lo_hi_in x ...`
    // as written, or StableHLO's lists.
    const Attribute* attr = m_.dialect == "hlo" ? view().attr("padding") : nullptr;
    const std::string padded_by = attr ? clip(attr->value)
                                       : "low = " + dims_text(low) + ", high = " + dims_text(high) +
                                             ", interior = " + dims_text(inner);
    const std::string padding = attr ? "padding=" + padded_by : padded_by;
    if (config.size() != a.rank())
      return fail("padding for each of the " + std::to_string(a.rank()) + " dimensions of " +
                      clip(in(0).text),
                  padding);
    Arr r = higher_precision(a, value);
    r.dims = a.dims;
    r.bounded = a.bounded;
    for (std::size_t i = 0; i < a.rank(); ++i) {
      const std::int64_t d = a.dims[i], lo = config[i][0], hi = config[i][1];
      const std::int64_t interior = config[i].size() == 3 ? config[i][2] : 0;
      if (interior < 0) return fail("interior padding of at least 0", padding);
      if (d < 0) continue;
      std::int64_t size = 0;
      if (!padded_size(d, lo, hi, interior, &size))
        return fail("padded sizes from 0 to 2^50",
                    "dimension " + std::to_string(i) + " padded by " + padded_by);
      r.dims[i] = size;
    }
    return output(to_type(r), out);
  }

  // XLA InferGatherShape. The start indices, with a trailing 1 added when index_vector_dim is
  // their rank, give the batch dimensions (all but index_vector_dim); the output has
  // |offset_dims| + |batch dims| dimensions: the positions in offset_dims take the slice sizes
  // of the operand dimensions that are neither collapsed nor batching, in order, the others
  // take the batch dimensions in order.
  bool gather(Type* out) {
    Arr operand, indices;
    if (!operands(2) || !array(0, &operand, "operand") || !array(1, &indices, "start indices"))
      return false;
    if (!is_integer(indices.et)) return fail("integer start indices", clip(in(1).text));
    const OpAttrs* at = decoded();
    if (!at) return false;
    const GatherDims& g = at->get<GatherDims>();
    const std::vector<std::int64_t>&offset = g.offset_dims, &collapsed = g.collapsed_slice_dims,
          &start_map = g.start_index_map, &sizes = g.slice_sizes,
          &batching = g.operand_batching_dims;
    const std::int64_t ivd = g.index_vector_dim;
    if (ivd < 0 || static_cast<std::size_t>(ivd) > indices.rank())
      return fail("index_vector_dim from 0 to the rank of " + clip(in(1).text),
                  "index_vector_dim=" + std::to_string(ivd));
    std::vector<std::int64_t> expanded = indices.dims;
    std::vector<bool> expanded_bounded = indices.bounded;
    if (static_cast<std::size_t>(ivd) == expanded.size()) {
      expanded.push_back(1);
      expanded_bounded.push_back(false);
    }
    if (sizes.size() != operand.rank())
      return fail("slice_sizes for each of the " + std::to_string(operand.rank()) +
                      " dimensions of " + clip(in(0).text),
                  "slice_sizes=" + dims_text(sizes));
    for (std::size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] < 0 || (operand.dims[i] >= 0 && sizes[i] > operand.dims[i]))
        return fail("slice_sizes within the operand " + clip(in(0).text),
                    "slice_sizes=" + dims_text(sizes));
    std::vector<bool> dropped(operand.rank(), false);
    for (const auto* v : {&collapsed, &batching})
      for (std::int64_t d : *v) {
        if (d < 0 || static_cast<std::size_t>(d) >= operand.rank() || dropped[d])
          return fail("collapsed_slice_dims and operand_batching_dims: distinct dimensions of " +
                          clip(in(0).text),
                      "collapsed_slice_dims=" + dims_text(collapsed) +
                          ", operand_batching_dims=" + dims_text(batching));
        if (sizes[d] > 1)
          return fail("slice size 0 or 1 in collapsed and batching dimensions",
                      "slice_sizes=" + dims_text(sizes));
        dropped[d] = true;
      }
    if (offset.size() + collapsed.size() + batching.size() != operand.rank())
      return fail("offset_dims for each operand dimension that is not collapsed or batching",
                  "offset_dims=" + dims_text(offset));
    if (static_cast<std::int64_t>(start_map.size()) != expanded[ivd] && expanded[ivd] >= 0)
      return fail("start_index_map of " + std::to_string(expanded[ivd]) +
                      " entries (the index vector's size)",
                  "start_index_map=" + dims_text(start_map));
    for (std::int64_t d : start_map)
      if (d < 0 || static_cast<std::size_t>(d) >= operand.rank())
        return fail("start_index_map naming dimensions of " + clip(in(0).text),
                    "start_index_map=" + dims_text(start_map));
    const std::size_t out_rank = offset.size() + expanded.size() - 1;
    for (std::size_t i = 0; i < offset.size(); ++i)
      if (offset[i] < 0 || static_cast<std::size_t>(offset[i]) >= out_rank ||
          (i > 0 && offset[i] <= offset[i - 1]))
        return fail("offset_dims ascending, below the output rank " + std::to_string(out_rank),
                    "offset_dims=" + dims_text(offset));
    Arr r = operand;
    r.dims.clear();
    r.bounded.clear();
    std::size_t next_slice = 0, next_batch = 0;
    for (std::size_t i = 0; i < out_rank; ++i) {
      if (std::find(offset.begin(), offset.end(), static_cast<std::int64_t>(i)) != offset.end()) {
        while (dropped[next_slice]) ++next_slice;
        r.dims.push_back(sizes[next_slice++]);
        r.bounded.push_back(false);
      } else {
        if (next_batch == static_cast<std::size_t>(ivd)) ++next_batch;
        r.dims.push_back(expanded[next_batch]);
        r.bounded.push_back(expanded_bounded[next_batch]);
        ++next_batch;
      }
    }
    return output(to_type(r), out);
  }

  // XLA InferScatterShape: N operands, the scatter indices, N updates; the result is the
  // operand's shape, or the tuple of the N operands' shapes.
  bool scatter(Type* out) {
    if (count() < 3 || count() % 2 == 0)
      return fail("N operands, the indices and N updates (an odd number of at least 3)",
                  std::to_string(count()) + " operands");
    const std::size_t n = (count() - 1) / 2;
    Arr first;
    if (!array(0, &first)) return false;
    std::vector<Type> elements{in(0)};
    for (std::size_t i = 1; i < n; ++i) {
      Arr a;
      if (!array(i, &a)) return false;
      if (a.dims != first.dims)
        return fail("operands of equal dimensions", clip(in(0).text) + " and " + clip(in(i).text));
      elements.push_back(in(i));
    }
    if (n == 1) return output(in(0), out);
    return output(tuple_type(std::move(elements)), out);
  }

  // XLA InferDotOpShape: the lhs's batch dimensions, then the lhs's free dimensions, then the
  // rhs's free dimensions; the element type is the higher-precision of the two (the lhs's when
  // they are equal). Batch and contracting dimensions pair up with equal sizes.
  bool dot(Type* out) {
    const OpAttrs* at = decoded();
    if (!at) return false;
    const DotDims& dn = at->get<DotDims>();
    if (dn.sparse)  // the text only quoted
      return fail("a shape before the opcode for a sparse dot",
                  "sparsity=" + clip(f_->attr(*op_, "sparsity")->value));
    Arr l, r;
    if (!operands(2) || !array(0, &l, "lhs") || !array(1, &r, "rhs")) return false;
    const std::string got = "lhs_batch_dims=" + dims_text(dn.lhs_batch) +
                            ", lhs_contracting_dims=" + dims_text(dn.lhs_contracting) +
                            ", rhs_batch_dims=" + dims_text(dn.rhs_batch) +
                            ", rhs_contracting_dims=" + dims_text(dn.rhs_contracting);
    auto valid = [&](const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
                     std::size_t rank) {
      std::vector<bool> seen(rank, false);
      for (const auto* v : {&a, &b})
        for (std::int64_t d : *v) {
          if (d < 0 || static_cast<std::size_t>(d) >= rank || seen[d]) return false;
          seen[d] = true;
        }
      return true;
    };
    if (!valid(dn.lhs_batch, dn.lhs_contracting, l.rank()) ||
        !valid(dn.rhs_batch, dn.rhs_contracting, r.rank()))
      return fail("distinct dimension numbers within the ranks of " + clip(in(0).text) + " and " +
                      clip(in(1).text),
                  got);
    if (dn.lhs_batch.size() != dn.rhs_batch.size() ||
        dn.lhs_contracting.size() != dn.rhs_contracting.size())
      return fail("as many lhs as rhs batch and contracting dimensions", got);
    auto matches = [&](const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
      for (std::size_t i = 0; i < a.size(); ++i) {
        const std::int64_t x = l.dims[a[i]], y = r.dims[b[i]];
        if (x != y && x >= 0 && y >= 0) return false;
      }
      return true;
    };
    if (!matches(dn.lhs_batch, dn.rhs_batch) || !matches(dn.lhs_contracting, dn.rhs_contracting))
      return fail("batch and contracting dimensions of equal sizes in " + clip(in(0).text) +
                      " and " + clip(in(1).text),
                  got);
    Arr res = higher_precision(l, r);
    res.dims.clear();
    res.bounded.clear();
    auto keep = [&](const Arr& a, std::size_t i) {
      res.dims.push_back(a.dims[i]);
      res.bounded.push_back(a.bounded[i]);
    };
    auto has = [](const std::vector<std::int64_t>& v, std::size_t i) {
      return std::find(v.begin(), v.end(), static_cast<std::int64_t>(i)) != v.end();
    };
    for (std::int64_t d : dn.lhs_batch) keep(l, d);
    for (std::size_t i = 0; i < l.rank(); ++i)
      if (!has(dn.lhs_batch, i) && !has(dn.lhs_contracting, i)) keep(l, i);
    for (std::size_t i = 0; i < r.rank(); ++i)
      if (!has(dn.rhs_batch, i) && !has(dn.rhs_contracting, i)) keep(r, i);
    return output(to_type(res), out);
  }

  // XLA InferConvolveShape with dim_labels (b01f_01io->b01f) and the window: output batch =
  // input batch / batch_group_count, output feature = kernel output features, each output
  // spatial dimension the window's output over the input's. The element type is the
  // higher-precision of the two. (ShapeInference also wants the window's sizes to equal the
  // kernel's spatial sizes; XLA's own importer test prints a 3x3 window over a 2x2 kernel with
  // the shape the window gives, so the window's sizes are used as written.)
  bool convolution(Type* out) {
    Arr lhs, rhs;
    if (!operands(2) || !array(0, &lhs, "input") || !array(1, &rhs, "kernel")) return false;
    // Quoted in the messages (the labels' meaning is the decoder's, ConvAttrs::dims); without
    // them there is nothing to quote, and HLO writes a convolution's dimensions no other way.
    const Attribute* dim_labels = view().attr("dim_labels");
    if (!dim_labels) return fail("dim_labels=..._...->...", "no dim_labels attribute");
    const OpAttrs* at = decoded();
    if (!at) return false;
    const ConvAttrs& cv = at->get<ConvAttrs>();
    if (!window_written(lhs.rank() > 2 ? lhs.rank() - 2 : 0, cv.window_sizes)) return false;
    const ConvDims& cd = cv.dims;
    const std::size_t spatial = cd.input_spatial.size();
    const std::string labels = "dim_labels=" + clip(dim_labels->value);
    if (cd.kernel_spatial.size() != spatial || cd.output_spatial.size() != spatial)
      return fail("as many spatial dimensions in the input, kernel and output labels", labels);
    if (lhs.rank() != spatial + 2 || rhs.rank() != spatial + 2)
      return fail(
          "input and kernel of rank " + std::to_string(spatial + 2) + " (the labels' length)",
          clip(in(0).text) + " and " + clip(in(1).text) + " with " + labels);
    const std::int64_t fgc = cv.feature_group_count, bgc = cv.batch_group_count;
    const std::vector<WindowDim>& w = cv.window;
    if (!window_checked(w)) return false;
    Arr res = higher_precision(lhs, rhs);
    const ShapeRuleBroken broken =
        convolution_result(cd, lhs.dims, rhs.dims, fgc, bgc, w, true, &res.dims);
    if (!broken.ok())
      return fail(broken.rule, clip(in(0).text) + " and " + clip(in(1).text) + ": " + broken.got);
    res.bounded.assign(spatial + 2, false);
    res.bounded[cd.output_batch] = lhs.bounded[cd.input_batch];
    for (std::size_t i = 0; i < spatial; ++i)
      res.bounded[cd.output_spatial[i]] =
          lhs.bounded[cd.input_spatial[i]] || rhs.bounded[cd.kernel_spatial[i]];
    return output(to_type(res), out);
  }

  // XLA InferFftShape: FFT and IFFT keep the complex input's shape; RFFT of f32/f64 gives
  // c64/c128 with the last dimension fft_length[-1]/2 + 1; IRFFT gives the component type with
  // the last dimension fft_length[-1]. fft_length has 1 to 3 entries.
  bool fft(Type* out) {
    Arr a;
    const OpAttrs* at = operands(1) && array(0, &a) ? decoded() : nullptr;
    if (!at) return false;
    const FftAttrs& ft = at->get<FftAttrs>();
    const std::vector<std::int64_t>& len = ft.lengths;
    const FftType kind = ft.type;
    if (len.empty() || len.size() > 3 || len.size() > a.rank())
      return fail("fft_length of 1 to 3 entries, at most the rank of " + clip(in(0).text),
                  "fft_length=" + dims_text(len));
    for (std::int64_t n : len)
      if (n < 0 || n > kMaxDim)
        return fail("fft_length entries from 0 to 2^50", "fft_length=" + dims_text(len));
    const std::size_t last = a.rank() - 1, first = a.rank() - len.size();
    if (kind == FftType::FFT || kind == FftType::IFFT) {
      if (!is_complex(a.et))
        return fail(
            kind == FftType::FFT ? "a complex operand for FFT" : "a complex operand for IFFT",
            clip(in(0).text));
      return output(in(0), out);
    }
    if (kind == FftType::RFFT) {
      if (a.et != ElementType::F32 && a.et != ElementType::F64)
        return fail("an f32 or f64 operand for RFFT", clip(in(0).text));
      for (std::size_t i = 0; i < len.size(); ++i)
        if (a.dims[first + i] >= 0 && a.dims[first + i] != len[i])
          return fail("innermost dimensions equal to fft_length",
                      clip(in(0).text) + " with fft_length=" + dims_text(len));
      Arr r = with_element(a, a.et == ElementType::F32 ? ElementType::C64 : ElementType::C128);
      if (len.back() != 0) r.dims[last] = len.back() / 2 + 1;
      return output(to_type(r), out);
    }
    if (!is_complex(a.et)) return fail("a complex operand for IRFFT", clip(in(0).text));
    for (std::size_t i = 0; i + 1 < len.size(); ++i)
      if (a.dims[first + i] >= 0 && a.dims[first + i] != len[i])
        return fail("innermost dimensions equal to fft_length",
                    clip(in(0).text) + " with fft_length=" + dims_text(len));
    if (a.dims[last] >= 0 && (a.dims[last] != 0 || len.back() != 0) &&
        a.dims[last] != len.back() / 2 + 1)
      return fail("a last dimension of fft_length/2+1 = " + std::to_string(len.back() / 2 + 1),
                  clip(in(0).text));
    Arr r = with_element(a, complex_component(a.et));
    r.dims[last] = len.back();
    return output(to_type(r), out);
  }

  // XLA InferTriangularSolveShape: b's shape. a and b: one floating-point or complex type, equal
  // rank of at least 2, a square in its two minor dimensions, equal batch dimensions, and a's
  // size in b's dimension rank-2 (left_side=true) or rank-1.
  bool triangular_solve(Type* out) {
    Arr a, b;
    if (!operands(2) || !array(0, &a, "a") || !array(1, &b, "b")) return false;
    const std::string got = clip(in(0).text) + " and " + clip(in(1).text);
    if (!same_element(a, b) || !(is_float(a.et) || is_complex(a.et)))
      return fail("a and b of one floating-point or complex type", got);
    if (a.rank() < 2 || b.rank() != a.rank()) return fail("a and b of equal rank, at least 2", got);
    const std::size_t k = a.rank();
    const OpAttrs* at = decoded();
    if (!at) return false;
    const bool left = at->get<TriangularSolveAttrs>().left_side;
    // A dynamic size (-1) matches any (StableHLO's compatible shapes).
    auto fit = [](std::int64_t x, std::int64_t y) { return x < 0 || y < 0 || x == y; };
    if (!fit(a.dims[k - 2], a.dims[k - 1]) || !fit(a.dims[k - 1], b.dims[left ? k - 2 : k - 1]) ||
        !std::equal(a.dims.begin(), a.dims.end() - 2, b.dims.begin(), fit))
      return fail(std::string("a square a whose size matches b's dimension ") +
                      (left ? "rank-2 (left_side=true)" : "rank-1") +
                      ", and equal batch dimensions",
                  got);
    return output(in(1), out);
  }

  // XLA InferCholeskyShape: the operand's shape, floating-point or complex, square in its two
  // minor dimensions.
  bool cholesky(Type* out) {
    Arr a;
    if (!operands(1) || !array(0, &a)) return false;
    if (!(is_float(a.et) || is_complex(a.et)) || a.rank() < 2 ||
        (a.dims[a.rank() - 1] >= 0 && a.dims[a.rank() - 2] >= 0 &&
         a.dims[a.rank() - 1] != a.dims[a.rank() - 2]))
      return fail(
          "a floating-point or complex operand of rank 2 or more, square in its two minor "
          "dimensions",
          clip(in(0).text));
    return output(in(0), out);
  }

  bool arguments_match(std::uint32_t fi, std::size_t first, std::size_t n, const char* attr) {
    if (params_of(fi) != n)
      return fail(std::string(attr) + " taking " + std::to_string(n) +
                      (n == 1 ? " parameter" : " parameters"),
                  clip(fn(fi).name) + " taking " + std::to_string(params_of(fi)));
    for (std::size_t i = 0; i < n; ++i)
      if (!same_shape(in(first + i), param_of(fi, i)))
        return fail(std::string(attr) + " parameter " + std::to_string(i) +
                        " of the operand's shape " + clip(in(first + i).text),
                    clip(fn(fi).name) + " taking " + clip(param_of(fi, i).text));
    return true;
  }

  // XLA InferCallShape: to_apply's result; its parameters match the operands.
  bool call(Type* out) {
    std::uint32_t fi = 0;
    const OpAttrs* at = decoded();
    if (!at || !callee_at(*at, 0, "to_apply", &fi) || !arguments_match(fi, 0, count(), "to_apply"))
      return false;
    return output(result_of(fi), out);
  }

  // XLA InferWhileShape: the init value's shape; body maps it to itself, condition maps it to
  // pred[].
  bool while_loop(Type* out) {
    std::uint32_t cond = 0, body = 0;
    const OpAttrs* at = operands(1) ? decoded() : nullptr;
    if (!at || !callee_at(*at, 0, "condition", &cond) || !callee_at(*at, 1, "body", &body))
      return false;
    if (!arguments_match(cond, 0, 1, "condition") || !arguments_match(body, 0, 1, "body"))
      return false;
    if (!same_shape(result_of(body), in(0)))
      return fail("body returning the init value's shape " + clip(in(0).text),
                  clip(fn(body).name) + " returning " + clip(result_of(body).text));
    const Type& c = result_of(cond);
    if (!c.is_array() || c.etype != ElementType::Pred || !c.dims.empty())
      return fail("condition returning pred[]", clip(fn(cond).name) + " returning " + clip(c.text));
    return output(in(0), out);
  }

  // XLA InferConditionalShape: branch 0's result. A pred[] index picks true_computation or
  // false_computation, an s32[] one branch_computations={...}; each branch takes its operand
  // and all return one shape.
  bool conditional(Type* out) {
    if (count() == 0) return fail("a branch index and the branch operands", "no operands");
    Arr index;
    if (!scalar(0, &index, "branch index")) return false;
    if (index.et != ElementType::Pred && index.et != ElementType::S32)
      return fail("a pred[] or s32[] branch index", clip(in(0).text));
    const OpAttrs* at = decoded();
    if (!at) return false;
    // true_computation and false_computation, or branch_computations={...}.
    std::vector<std::uint32_t> branches(at->callees().size());
    for (std::size_t j = 0; j < branches.size(); ++j)
      if (!callee_at(*at, j, "each branch", &branches[j])) return false;
    if (branches.empty() || (index.et == ElementType::Pred && branches.size() != 2))
      return fail(index.et == ElementType::Pred
                      ? "true_computation and false_computation for a pred[] index"
                      : "branch_computations naming at least one computation",
                  std::to_string(branches.size()) + " computations");
    if (count() != branches.size() + 1)
      return fail(std::to_string(branches.size() + 1) + " operands (the index and one per branch)",
                  std::to_string(count()));
    for (std::size_t j = 0; j < branches.size(); ++j) {
      if (!arguments_match(branches[j], j + 1, 1, "each branch")) return false;
      if (!same_shape(result_of(branches[j]), result_of(branches[0])))
        return fail("branches returning one shape", clip(result_of(branches[0]).text) + " and " +
                                                        clip(result_of(branches[j]).text));
    }
    return output(result_of(branches[0]), out);
  }

  bool one_dimension(const Arr& a, std::int64_t* d) {
    const OpAttrs* at = decoded();
    if (!at) return false;
    const std::int64_t v = at->get<DimensionAttrs>().dimension;
    if (v < 0 || static_cast<std::size_t>(v) >= a.rank())
      return fail("dimensions={d} naming one dimension of " + clip(in(0).text),
                  "dimensions={" + std::to_string(v) + "}");
    *d = v;
    return true;
  }

  // XLA InferGetDimensionSizeShape: s32[] (the dimension at most 2^31-1).
  bool get_dimension_size(Type* out) {
    Arr a;
    std::int64_t d = 0;
    if (!operands(1) || !array(0, &a) || !one_dimension(a, &d)) return false;
    if (a.dims[d] > 2147483647) return fail("a dimension of at most 2^31-1", clip(in(0).text));
    return output(scalar_type(ElementType::S32), out);
  }

  // XLA InferSetDimensionSizeShape: the operand's shape with that dimension made dynamic
  // (bounded by its size: f32[4,4] → f32[4,<=4]); the size is an s32[].
  bool set_dimension_size(Type* out) {
    Arr a, size;
    std::int64_t d = 0;
    if (!operands(2) || !array(0, &a) || !scalar(1, &size, "size") || !one_dimension(a, &d))
      return false;
    if (size.et != ElementType::S32) return fail("an s32[] size", clip(in(1).text));
    if (a.dims[d] > 2147483647) return fail("a dimension of at most 2^31-1", clip(in(0).text));
    if (a.dims[d] >= 0) a.bounded[d] = true;
    return output(to_type(a), out);
  }

  // XLA InferBatchNorm{Training,Inference,Grad}Shape: a floating-point operand, feature_index
  // below its rank, the other operands of rank 1 and its feature count (grad's last operand has
  // the operand's dimensions). Inference gives the operand's shape; training and grad give
  // (operand, f[features], f[features]) in the operand's element type.
  bool batch_norm(Type* out) {
    const bool inference = op_->code == OpCode::BatchNormInference,
               grad = op_->code == OpCode::BatchNormGrad;
    Arr a;
    const OpAttrs* at = operands(op_->code == OpCode::BatchNormTraining ? 3 : 5) && array(0, &a)
                            ? decoded()
                            : nullptr;
    if (!at) return false;
    const std::int64_t fi = at->get<BatchNormAttrs>().feature_index;
    if (!is_float(a.et) || a.rank() < 1)
      return fail("a floating-point operand of rank 1 or more", clip(in(0).text));
    if (fi < 0 || static_cast<std::size_t>(fi) >= a.rank())
      return fail("feature_index below the rank of " + clip(in(0).text),
                  "feature_index=" + std::to_string(fi));
    const std::int64_t features = a.dims[fi];
    for (std::size_t i = 1; i < count(); ++i) {
      Arr b;
      if (!array(i, &b)) return false;
      const bool full = grad && i == 4;
      const bool ok =
          same_element_ignoring_fp(a, b) &&
          (full ? b.dims == a.dims
                : b.rank() == 1 && (b.dims[0] == features || b.dims[0] < 0 || features < 0));
      if (!ok)
        return fail(full ? "a grad_output of the operand's shape " + clip(in(0).text)
                         : "operand " + std::to_string(i) + " of shape [" +
                               std::to_string(features) + "] (the feature count)",
                    clip(in(i).text));
    }
    if (inference) return output(in(0), out);
    Arr feature = a;
    feature.dims = {features};
    feature.bounded = {false};
    return output(tuple_type({in(0), to_type(feature), to_type(feature)}), out);
  }
};

}  // namespace

Result<bool> infer_shapes(Module& m, TypeTable& types) {
  Inferrer inf(m, types);
  if (!inf.run()) return Result<bool>::failure_at(inf.error, inf.line, inf.column);
  return Result<bool>::success(true);
}

Result<bool> check_written_shapes(const Module& m) {
  if (m.dialect != "hlo" && m.dialect != "stablehlo") return Result<bool>::success(true);
  std::vector<Type> unused;  // check_written() interns nothing
  TypeTable types(&unused);
  Inferrer inf(const_cast<Module&>(m), types);  // check_written() writes nothing to the module
  if (!inf.check_written()) return Result<bool>::failure_at(inf.error, inf.line, inf.column);
  return Result<bool>::success(true);
}

}  // namespace rl::hlo
