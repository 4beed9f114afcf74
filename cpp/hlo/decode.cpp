#include "hlo/decode.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace rl::hlo {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The enum word of a value: "LT", "#stablehlo<comparison_direction LT>", " THREE_FRY",
// "#stablehlo<fft_type FFT>", "e5m10": the last word.
std::string_view last_word(std::string_view v) {
  std::size_t end = v.size();
  while (end > 0 && !is_word_char(v[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && is_word_char(v[begin - 1])) --begin;
  return v.substr(begin, end - begin);
}

// One list of gather's or scatter's dimension numbers: from the structured attribute `dn`
// (StableHLO's #stablehlo.gather<...>) when there is one, else the attribute `key` itself (HLO).
// found: whether it was written.
std::vector<std::int64_t> dimension_numbers(const OpView& op, const Attribute* dn, const char* key,
                                            bool* found) {
  if (dn) return keyed_list(dn->value, key, found);
  const Attribute* h = op.attr(key);
  if (found) *found = h != nullptr;
  return h ? int_list(h->value) : std::vector<std::int64_t>{};
}

// index_vector_dim, 0 when absent: StableHLO's printer leaves it out when it is 0.
std::int64_t index_vector_dim(const OpView& op, const Attribute* dn) {
  bool found = false;
  const auto v = dimension_numbers(op, dn, "index_vector_dim", &found);
  return found && !v.empty() ? v[0] : 0;
}

// HLO's window={size=3x3 ...}: a window that writes its sizes (window() reads that form then).
bool window_sizes_written(const OpView& op) {
  const Attribute* w = op.attr("window");
  return w && w->value.find("size=") != std::string_view::npos;
}

}  // namespace

bool AttrDecoder::fail(const Op& op, const std::string& what, const std::string& rule,
                       std::string_view got) {
  if (error_.message.empty())
    error_ = Error{std::to_string(op.line) + ":" + std::to_string(op.column) + ": error: " + what +
                       " \xE2\x80\x94 expected " + rule + ", got " + std::string(got.substr(0, 80)),
                   {},
                   op.line,
                   op.column};
  return false;
}

const Function* AttrDecoder::function(std::string_view name) const {
  if (by_name_.empty())  // built on the first lookup: a module may have thousands of computations
    for (const Function& f : m_.functions) by_name_.emplace(f.name, &f);
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

bool AttrDecoder::pass(const Error& e) {
  if (error_.message.empty()) error_ = Error{e.message, {}, e.line, e.column};
  return false;
}

const Attribute* AttrDecoder::first(const OpView& op,
                                    std::initializer_list<const char*> names) const {
  for (const char* n : names)
    if (const Attribute* a = op.attr(n)) return a;
  return nullptr;
}
bool AttrDecoder::ints(const OpView& op, std::initializer_list<const char*> names,
                       std::vector<std::int64_t>* out, bool required, const char* what) {
  const Attribute* a = first(op, names);
  if (!a)
    return !required || fail(op.op, std::string(op.op.name) + " needs its " + what,
                             "the " + std::string(what) + " attribute", "none");
  if (!int_list_exact(a->value, out))
    return fail(op.op, "bad " + std::string(what) + " of " + std::string(op.op.name),
                "a list of integers", a->value);
  return true;
}
bool AttrDecoder::int1(const OpView& op, std::initializer_list<const char*> names,
                       std::int64_t* out, bool required, const char* what) {
  const Attribute* a = first(op, names);
  if (!a)
    return !required || fail(op.op, std::string(op.op.name) + " needs its " + what,
                             "the " + std::string(what) + " attribute", "none");
  std::vector<std::int64_t> v;
  if (!int_list_exact(a->value, &v) || v.size() != 1)
    return fail(op.op, "bad " + std::string(what) + " of " + std::string(op.op.name), "one integer",
                a->value);
  *out = v[0];
  return true;
}
// A float attribute: `1.000000e-03 : f32` (MLIR) or `0.001` (HLO); absent reads as 0.
bool AttrDecoder::real1(const OpView& op, const char* name, float* out) {
  const Attribute* a = op.attr(name);
  if (!a) return true;
  std::string_view v = a->value;
  const std::size_t colon = v.find(':');
  if (colon != std::string_view::npos) v = v.substr(0, colon);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  const std::string text(v);
  char* end = nullptr;
  const double d = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    return fail(op.op, "bad " + std::string(name) + " of " + std::string(op.op.name),
                "a floating-point number", a->value);
  *out = static_cast<float>(d);
  return true;
}
bool AttrDecoder::flag(const OpView& op, std::initializer_list<const char*> names) const {
  const Attribute* a = first(op, names);
  return a && (last_word(a->value) == "true" || a->value.empty());
}
// Functions named by an attribute (HLO to_apply=%f, calls=, condition=, body=,
// branch_computations={%a, %b}; MLIR callee).
bool AttrDecoder::callee(const OpView& op, const char* name, std::vector<std::uint32_t>* out,
                         bool required) {
  if (!resolve_callees_) return true;
  const Attribute* a = op.attr(name);
  if (!a)
    return !required || fail(op.op, std::string(op.op.name) + " needs its " + name,
                             std::string(name) + "=a computation", "none");
  for (const std::string& callee : symbol_names(a->value)) {
    const Function* f = function(callee);
    if (!f)
      return fail(op.op, std::string(op.op.name) + " calls an unknown computation",
                  "a computation of this module", callee);
    out->push_back(static_cast<std::uint32_t>(f - m_.functions.data()));
  }
  return true;
}

// `[0:2, 1:3:1]` (pretty StableHLO) or `{[0:2], [1:3:1]}` (HLO): start:limit[:stride] per dim.
bool AttrDecoder::slice_spec(const OpView& op, std::string_view v, SliceAttrs* a) {
  std::size_t i = 0;
  while (i < v.size()) {
    if (v[i] == '[' && i + 1 < v.size() &&
        (std::isdigit(static_cast<unsigned char>(v[i + 1])) || v[i + 1] == '-' ||
         v[i + 1] == ' ')) {
      // HLO: each dimension in its own brackets.
      const std::size_t close = v.find(']', i);
      if (close == std::string_view::npos)
        return fail(op.op, "bad slice of " + std::string(op.op.name), "[start:limit:stride]", v);
      if (!slice_dims(op, v.substr(i + 1, close - i - 1), a)) return false;
      i = close + 1;
      if (v.substr(0, 1) == "[" && v.find('[', 1) == std::string_view::npos) break;
      continue;
    }
    ++i;
  }
  return true;
}
bool AttrDecoder::slice_dims(const OpView& op, std::string_view inner, SliceAttrs* a) {
  std::size_t b = 0;
  while (b <= inner.size()) {
    std::size_t e = inner.find(',', b);
    if (e == std::string_view::npos) e = inner.size();
    std::string part(inner.substr(b, e - b));
    for (char& c : part)
      if (c == ':') c = ',';
    std::vector<std::int64_t> v;
    if (!int_list_exact(part, &v) || v.size() < 2 || v.size() > 3)
      return fail(op.op, "bad slice of " + std::string(op.op.name),
                  "start:limit or start:limit:stride per dimension", inner);
    a->starts.push_back(v[0]);
    a->limits.push_back(v[1]);
    a->strides.push_back(v.size() == 3 ? v[2] : 1);
    b = e + 1;
  }
  return true;
}

bool AttrDecoder::decode(const OpView& op, OpAttrs* out, bool* has) {
  OpAttrs a;
  bool have = true;
  switch (op.op.code) {
    case OpCode::Constant: {
      if (!literals_) {
        have = false;
        break;
      }
      const Attribute* v = first(op, {"value", "literal"});
      if (!v) return fail(op.op, "constant without a value", "dense<...> or a literal", "none");
      if (op.num_results() != 1)
        return fail(op.op, "constant with " + std::to_string(op.num_results()) + " results",
                    "one result", "more");
      const Type& t = op.result_type(0);
      if (!t.is_array())
        return fail(op.op, "constant of a non-array type", "a tensor type", t.text);
      std::size_t offset = 0;
      auto lit = m_.dialect == "hlo" ? decode_hlo_literal(v->value, t.etype, t.dims, &offset)
                                     : decode_dense(v->value, t.etype, t.dims, &offset);
      if (!lit) {
        // The literal's own place: the attribute value's offset in the text plus the error's.
        const std::size_t at = m_.offset_of(v->value);
        int line = op.op.line, column = op.op.column;
        if (at != std::string_view::npos && m_.source) {
          line = 1;
          column = 1;
          const std::string& s = *m_.source;
          const std::size_t target = at + offset;
          std::size_t line_start = s.rfind('\n', target == 0 ? 0 : target - 1);
          line_start = line_start == std::string::npos ? 0 : line_start + 1;
          line = static_cast<int>(std::count(
                     s.begin(), s.begin() + static_cast<std::ptrdiff_t>(line_start), '\n')) +
                 1;
          column = static_cast<int>(target - line_start) + 1;
        }
        return pass(
            Error{std::to_string(line) + ":" + std::to_string(column) + ": error: " + lit.error(),
                  {},
                  line,
                  column});
      }
      a.emplace<ConstantAttrs>().literal = static_cast<std::uint32_t>(literals_->size());
      literals_->push_back(std::move(lit.value()));
      break;
    }
    case OpCode::Parameter:  // HLO's parameter(N): the parser checked N, from 0 to its limit
      if (!int1(op, {"parameter_number"}, &a.emplace<ParameterAttrs>().number, true,
                "parameter number"))
        return false;
      break;
    case OpCode::Compare: {
      CompareAttrs& c = a.emplace<CompareAttrs>();
      const Attribute* d = first(op, {"comparison_direction", "direction"});
      if (!d) return fail(op.op, "compare without a direction", "EQ, NE, LT, LE, GT or GE", "none");
      const std::string_view w = last_word(d->value);
      static const std::pair<const char*, Comparison> dirs[] = {
          {"EQ", Comparison::EQ}, {"NE", Comparison::NE}, {"LT", Comparison::LT},
          {"LE", Comparison::LE}, {"GT", Comparison::GT}, {"GE", Comparison::GE}};
      bool found = false;
      for (const auto& [name, value] : dirs)
        if (w == name) c.direction = value, found = true;
      if (!found)
        return fail(op.op, "bad comparison direction", "EQ, NE, LT, LE, GT or GE", d->value);
      if (const Attribute* t = first(op, {"compare_type", "type"})) {
        const std::string_view tw = last_word(t->value);
        if (tw == "FLOAT")
          c.compare_type = CompareType::Float;
        else if (tw == "TOTALORDER")
          c.compare_type = CompareType::TotalOrder;
        else if (tw == "SIGNED")
          c.compare_type = CompareType::Signed;
        else if (tw == "UNSIGNED")
          c.compare_type = CompareType::Unsigned;
        else if (tw != "NOTYPE")
          return fail(op.op, "bad compare type", "FLOAT, TOTALORDER, SIGNED, UNSIGNED or NOTYPE",
                      t->value);
      }
      break;
    }
    case OpCode::BroadcastInDim:
    case OpCode::DynamicBroadcastInDim:
      if (!ints(op, {"broadcast_dimensions", "dims", "dimensions"}, &a.emplace<DimsAttrs>().dims,
                true, "broadcast dimensions"))
        return false;
      break;
    case OpCode::Broadcast:
      if (!ints(op, {"broadcast_sizes", "sizes"}, &a.emplace<DimsAttrs>().dims, true,
                "broadcast sizes"))
        return false;
      break;
    case OpCode::Transpose:
      if (!ints(op, {"permutation", "dims", "dimensions"}, &a.emplace<DimsAttrs>().dims, true,
                "permutation"))
        return false;
      break;
    case OpCode::Reverse:
      if (!ints(op, {"dimensions", "dims"}, &a.emplace<DimsAttrs>().dims, true, "dimensions"))
        return false;
      break;
    case OpCode::Slice: {
      SliceAttrs& sl = a.emplace<SliceAttrs>();
      if (const Attribute* s = op.attr("slice")) {
        if (!slice_spec(op, s->value, &sl)) return false;
      } else {
        if (!ints(op, {"start_indices"}, &sl.starts, true, "start indices") ||
            !ints(op, {"limit_indices"}, &sl.limits, true, "limit indices"))
          return false;
        if (!ints(op, {"strides"}, &sl.strides, false, "strides")) return false;
        if (sl.strides.empty()) sl.strides.assign(sl.starts.size(), 1);
      }
      if (sl.starts.size() != sl.limits.size() || sl.starts.size() != sl.strides.size())
        return fail(op.op, "slice bounds differ in length",
                    "starts, limits and strides of one length each", "other lengths");
      break;
    }
    case OpCode::DynamicSlice:
      if (!ints(op, {"slice_sizes", "sizes", "dynamic_slice_sizes"}, &a.emplace<DimsAttrs>().dims,
                true, "slice sizes"))
        return false;
      break;
    case OpCode::Pad: {
      PadAttrs& pd = a.emplace<PadAttrs>();
      if (const Attribute* h = op.attr("padding");
          h && m_.dialect == "hlo") {  // 0_0_0x1_2_0: low_high[_interior] per dim
        std::string_view v = h->value;
        std::size_t b = 0;
        while (b <= v.size()) {
          std::size_t e = v.find('x', b);
          if (e == std::string_view::npos) e = v.size();
          std::string part(v.substr(b, e - b));
          // `_` separates the numbers; a '-' after '_' is a negative padding.
          for (char& c : part)
            if (c == '_') c = ',';
          std::vector<std::int64_t> n;
          if (!int_list_exact(part, &n) || n.size() < 2 || n.size() > 3)
            return fail(op.op, "bad padding of pad", "low_high or low_high_interior per dimension",
                        v);
          pd.low.push_back(n[0]);
          pd.high.push_back(n[1]);
          pd.interior.push_back(n.size() == 3 ? n[2] : 0);
          b = e + 1;
        }
      } else {
        if (!ints(op, {"edge_padding_low", "low"}, &pd.low, true, "low padding") ||
            !ints(op, {"edge_padding_high", "high"}, &pd.high, true, "high padding") ||
            !ints(op, {"interior_padding", "interior"}, &pd.interior, true, "interior padding"))
          return false;
      }
      break;
    }
    case OpCode::Concatenate:
      if (!int1(op, {"dimension", "dim", "dimensions"}, &a.emplace<DimensionAttrs>().dimension,
                true, "dimension"))
        return false;
      break;
    case OpCode::Iota:
      if (!int1(op, {"iota_dimension", "dim"}, &a.emplace<DimensionAttrs>().dimension, true,
                "iota dimension"))
        return false;
      break;
    case OpCode::GetDimensionSize:
    case OpCode::SetDimensionSize:
      if (!int1(op, {"dimension", "dim", "dimensions"}, &a.emplace<DimensionAttrs>().dimension,
                true, "dimension"))
        return false;
      break;
    case OpCode::GetTupleElement:
      if (const Attribute* s = op.attr("index")) {
        std::vector<std::int64_t> v;
        if (!int_list_exact(s->value, &v) || v.size() != 1)
          return fail(op.op, "bad index of get_tuple_element", "one integer", s->value);
        a.emplace<TupleIndexAttrs>().index = v[0];
      } else {
        return fail(op.op, "get_tuple_element without an index", "index = N", "none");
      }
      break;
    case OpCode::ChloTopK:
      if (!int1(op, {"k"}, &a.emplace<TopKAttrs>().k, true, "k")) return false;
      break;
    case OpCode::ReducePrecision: {
      ReducePrecisionAttrs& rp = a.emplace<ReducePrecisionAttrs>();
      if (const Attribute* f = op.attr("format")) {  // e5m10
        std::string w(last_word(f->value));
        if (!w.empty() && w[0] == 'e') w[0] = ' ';
        for (char& c : w)
          if (c == 'm') c = ',';
        std::vector<std::int64_t> v;
        if (w.empty() || w[0] != ' ' || !int_list_exact(w, &v) || v.size() != 2)
          return fail(op.op, "bad format of reduce_precision", "eXmY", f->value);
        rp.exponent_bits = static_cast<int>(v[0]);
        rp.mantissa_bits = static_cast<int>(v[1]);
      } else {
        std::int64_t e = 0, mt = 0;
        if (!int1(op, {"exponent_bits"}, &e, true, "exponent bits") ||
            !int1(op, {"mantissa_bits"}, &mt, true, "mantissa bits"))
          return false;
        rp.exponent_bits = static_cast<int>(e);
        rp.mantissa_bits = static_cast<int>(mt);
      }
      if (rp.exponent_bits < 1 || rp.exponent_bits > 64 || rp.mantissa_bits < 0 ||
          rp.mantissa_bits > 64)
        return fail(op.op, "bad reduce_precision bits",
                    "1..64 exponent bits and 0..64 mantissa bits",
                    std::to_string(rp.exponent_bits) + " and " + std::to_string(rp.mantissa_bits));
      break;
    }
    case OpCode::Reduce: {
      ReduceAttrs& r = a.emplace<ReduceAttrs>();
      if (!ints(op, {"dimensions"}, &r.dims, true, "dimensions")) return false;
      r.dims_written = true;
      if (const Attribute* ap = op.attr("applies")) {  // the body is this op on (lhs, rhs)
        r.applies = op_from_name(ap->value, m_.dialect);
        if (r.applies == OpCode::Unknown)
          return fail(op.op, "reduce applies an op the core does not know",
                      "an op such as stablehlo.add", ap->value);
      }
      if (m_.dialect == "hlo" && !callee(op, "to_apply", &r.callees, true)) return false;
      break;
    }
    case OpCode::Map: {
      ReduceAttrs& r = a.emplace<ReduceAttrs>();
      if (!ints(op, {"dimensions"}, &r.dims, false, "dimensions")) return false;
      r.dims_written = op.attr("dimensions") != nullptr;
      if (m_.dialect == "hlo" && !callee(op, "to_apply", &r.callees, true)) return false;
      break;
    }
    case OpCode::ReduceWindow:
    case OpCode::SelectAndScatter: {
      const std::size_t rank = op.num_operands() ? op.operand_type(0).dims.size() : 0;
      auto w = window(op, rank);
      if (!w) return pass(w.error_info());
      WindowAttrs& wa = a.emplace<WindowAttrs>();
      wa.window = w.value();
      wa.sizes = window_sizes_written(op);
      if (m_.dialect == "hlo") {
        if (op.op.code == OpCode::ReduceWindow && !callee(op, "to_apply", &wa.callees, true))
          return false;
        if (op.op.code == OpCode::SelectAndScatter &&
            (!callee(op, "select", &wa.callees, true) || !callee(op, "scatter", &wa.callees, true)))
          return false;
      }
      break;
    }
    case OpCode::Sort: {
      SortAttrs& so = a.emplace<SortAttrs>();
      if (!int1(op, {"dimension", "dimensions"}, &so.dimension, false, "dimension")) return false;
      so.is_stable = flag(op, {"is_stable"});
      if (m_.dialect == "hlo" && !callee(op, "to_apply", &so.callees, true)) return false;
      break;
    }
    case OpCode::Gather:
    case OpCode::DynamicGather: {
      const Attribute* dn = op.attr("dimension_numbers");
      GatherDims& g = a.emplace<GatherDims>();
      g.offset_dims = dimension_numbers(op, dn, "offset_dims", nullptr);
      g.collapsed_slice_dims = dimension_numbers(op, dn, "collapsed_slice_dims", nullptr);
      g.operand_batching_dims = dimension_numbers(op, dn, "operand_batching_dims", nullptr);
      g.start_indices_batching_dims =
          dimension_numbers(op, dn, "start_indices_batching_dims", nullptr);
      g.start_index_map = dimension_numbers(op, dn, "start_index_map", nullptr);
      g.index_vector_dim = index_vector_dim(op, dn);
      if (!ints(op, {"slice_sizes"}, &g.slice_sizes, op.op.code == OpCode::Gather, "slice sizes"))
        return false;
      g.indices_are_sorted = flag(op, {"indices_are_sorted"});
      break;
    }
    case OpCode::Scatter: {
      const Attribute* dn = op.attr("scatter_dimension_numbers");
      ScatterAttrs& sc = a.emplace<ScatterAttrs>();
      sc.update_window_dims = dimension_numbers(op, dn, "update_window_dims", nullptr);
      sc.inserted_window_dims = dimension_numbers(op, dn, "inserted_window_dims", nullptr);
      sc.input_batching_dims = dimension_numbers(op, dn, "input_batching_dims", nullptr);
      sc.scatter_indices_batching_dims =
          dimension_numbers(op, dn, "scatter_indices_batching_dims", nullptr);
      sc.scatter_dims_to_operand_dims =
          dimension_numbers(op, dn, "scatter_dims_to_operand_dims", nullptr);
      sc.index_vector_dim = index_vector_dim(op, dn);
      sc.indices_are_sorted = flag(op, {"indices_are_sorted"});
      sc.unique_indices = flag(op, {"unique_indices"});
      if (m_.dialect == "hlo" && !callee(op, "to_apply", &sc.callees, true)) return false;
      break;
    }
    case OpCode::DotGeneral:
    case OpCode::Dot: {
      auto d = dot_dims(op);
      if (!d) return pass(d.error_info());
      DotDims& dd = a.emplace<DotDims>();
      dd = d.value();
      dd.sparse = op.attr("sparsity") != nullptr;
      break;
    }
    case OpCode::Convolution: {
      auto d = conv_dims(op);
      if (!d) return pass(d.error_info());
      ConvAttrs& cv = a.emplace<ConvAttrs>();
      cv.dims = d.value();
      auto w = window(op, cv.dims.input_spatial.size());
      if (!w) return pass(w.error_info());
      cv.window = w.value();
      cv.window_sizes = window_sizes_written(op);
      if (const Attribute* r = op.attr("window_reversal")) {
        for (std::string_view rest = r->value; !rest.empty();) {
          const std::size_t t = rest.find("true"), f = rest.find("false");
          if (t == std::string_view::npos && f == std::string_view::npos) break;
          const bool is_true = t < f;
          cv.window_reversal.push_back(is_true);
          rest.remove_prefix((is_true ? t : f) + (is_true ? 4 : 5));
        }
      } else if (const Attribute* win = op.attr("window");
                 win && win->value.find("reverse") != std::string_view::npos) {
        // `reverse = [1, 0]` or `reverse = [true, false]` in the pretty window.
        std::string_view rest = win->value.substr(win->value.find("reverse"));
        const std::size_t open = rest.find('['), close = rest.find(']');
        if (open != std::string_view::npos && close != std::string_view::npos && open < close) {
          std::string_view items = rest.substr(open + 1, close - open - 1);
          while (!items.empty()) {
            const std::size_t comma = items.find(',');
            std::string_view item = items.substr(0, comma);
            while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
            while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
            if (item == "true" || item == "1")
              cv.window_reversal.push_back(true);
            else if (item == "false" || item == "0")
              cv.window_reversal.push_back(false);
            else if (!item.empty())
              return fail(op.op, "bad window reversal of convolution",
                          "true/false or 1/0 per dimension", win->value);
            if (comma == std::string_view::npos) break;
            items.remove_prefix(comma + 1);
          }
        }
      }
      cv.feature_group_count = int_attr(op, "feature_group_count", 1);
      cv.batch_group_count = int_attr(op, "batch_group_count", 1);
      break;
    }
    case OpCode::Fft: {
      FftAttrs& ft = a.emplace<FftAttrs>();
      const Attribute* t = first(op, {"fft_type", "type"});
      if (!t) return fail(op.op, "fft without a type", "FFT, IFFT, RFFT or IRFFT", "none");
      const std::string_view w = last_word(t->value);
      if (w == "FFT")
        ft.type = FftType::FFT;
      else if (w == "IFFT")
        ft.type = FftType::IFFT;
      else if (w == "RFFT")
        ft.type = FftType::RFFT;
      else if (w == "IRFFT")
        ft.type = FftType::IRFFT;
      else
        return fail(op.op, "bad fft type", "FFT, IFFT, RFFT or IRFFT", t->value);
      if (!ints(op, {"fft_length", "length"}, &ft.lengths, true, "fft length")) return false;
      break;
    }
    case OpCode::RngBitGenerator: {
      RngAttrs& rg = a.emplace<RngAttrs>();
      const Attribute* t = first(op, {"rng_algorithm", "algorithm"});
      const std::string_view w = t ? last_word(t->value) : "DEFAULT";
      if (w == "DEFAULT" || w == "rng_default")
        rg.algorithm = RngAlgorithm::Default;
      else if (w == "THREE_FRY" || w == "rng_three_fry")
        rg.algorithm = RngAlgorithm::ThreeFry;
      else if (w == "PHILOX" || w == "rng_philox")
        rg.algorithm = RngAlgorithm::Philox;
      else
        return fail(op.op, "bad rng algorithm", "DEFAULT, THREE_FRY or PHILOX", t->value);
      break;
    }
    case OpCode::TriangularSolve: {
      TriangularSolveAttrs& ts = a.emplace<TriangularSolveAttrs>();
      ts.left_side = flag(op, {"left_side"});
      ts.lower = flag(op, {"lower"});
      ts.unit_diagonal = flag(op, {"unit_diagonal"});
      if (const Attribute* t = first(op, {"transpose_a"})) {
        const std::string_view w = last_word(t->value);
        if (w == "NO_TRANSPOSE")
          ts.transpose_a = Transpose::NoTranspose;
        else if (w == "TRANSPOSE")
          ts.transpose_a = Transpose::Transpose;
        else if (w == "ADJOINT")
          ts.transpose_a = Transpose::Adjoint;
        else
          return fail(op.op, "bad transpose_a", "NO_TRANSPOSE, TRANSPOSE or ADJOINT", t->value);
      }
      break;
    }
    case OpCode::Cholesky:
      a.emplace<CholeskyAttrs>().lower = flag(op, {"lower"});
      break;
    case OpCode::BatchNormTraining:
    case OpCode::BatchNormInference:
    case OpCode::BatchNormGrad: {
      BatchNormAttrs& bn = a.emplace<BatchNormAttrs>();
      if (!int1(op, {"feature_index"}, &bn.feature_index, true, "feature index")) return false;
      if (!real1(op, "epsilon", &bn.epsilon)) return false;
      break;
    }
    case OpCode::CustomCall: {
      const Attribute* t = first(op, {"call_target_name", "callee", "custom_call_target"});
      CustomCallAttrs& cc = a.emplace<CustomCallAttrs>();
      cc.target = t ? symbol_name(t->value) : std::string();
      cc.has_side_effect = flag(op, {"has_side_effect", "custom_call_has_side_effect"});
      if (const Attribute* cfg = op.attr("backend_config"))
        cc.gemm_lhs_contracting =
            json_list(cfg->value, "lhs_contracting_dimensions", &cc.gemm_dims);
      break;
    }
    case OpCode::Call:
      if (!callee(op, m_.dialect == "hlo" ? "to_apply" : "callee", &a.emplace<CallsAttrs>().callees,
                  true))
        return false;
      break;
    case OpCode::Composite:
      if (!callee(op, "decomposition", &a.emplace<CallsAttrs>().callees, true)) return false;
      break;
    case OpCode::Fusion: {
      CallsAttrs& ca = a.emplace<CallsAttrs>();
      if (!callee(op, "calls", &ca.callees, true)) return false;
      if (const Attribute* kind = op.attr("kind")) ca.fusion_kind = std::string(kind->value);
      break;
    }
    case OpCode::AsyncStart:
      if (!callee(op, "calls", &a.emplace<CallsAttrs>().callees, false)) return false;
      break;
    case OpCode::While: {
      CallsAttrs& ca = a.emplace<CallsAttrs>();
      ca.known_trip_count = known_trip_count(op);
      if (m_.dialect == "hlo" &&
          (!callee(op, "condition", &ca.callees, true) || !callee(op, "body", &ca.callees, true)))
        return false;
      break;
    }
    case OpCode::Case: {
      CallsAttrs& ca = a.emplace<CallsAttrs>();
      if (m_.dialect == "hlo") {
        if (op.attr("branch_computations")) {
          if (!callee(op, "branch_computations", &ca.callees, true)) return false;
        } else if (!callee(op, "true_computation", &ca.callees, true) ||
                   !callee(op, "false_computation", &ca.callees, true)) {
          return false;
        }
      }
      break;
    }
    default:
      have = false;
  }
  // The table's family, and no other: a reader asks for the family ops.inc gives the op.
  if (have && a.family() != op_info(op.op.code).attrs)
    return fail(op.op, "attributes decoded as another family than the op table's",
                "family " + std::to_string(static_cast<int>(op_info(op.op.code).attrs)),
                std::to_string(static_cast<int>(a.family())));
  *has = have;
  if (have) *out = std::move(a);
  return true;
}

// OpAttrs's copy and deletion: one switch over the families each.
OpAttrs::OpAttrs(const OpAttrs& o) : family_(o.family_) {
  switch (family_) {
#define RL_ATTR_COPY(family, type)                  \
  case AttrFamily::family:                          \
    p_ = new type(*static_cast<const type*>(o.p_)); \
    break;
    RL_ATTR_FAMILIES(RL_ATTR_COPY)
#undef RL_ATTR_COPY
    default:
      break;
  }
}

void OpAttrs::reset() {
  switch (family_) {
#define RL_ATTR_DELETE(family, type) \
  case AttrFamily::family:           \
    delete static_cast<type*>(p_);   \
    break;
    RL_ATTR_FAMILIES(RL_ATTR_DELETE)
#undef RL_ATTR_DELETE
    default:
      break;
  }
  family_ = AttrFamily::None;
  p_ = nullptr;
}

namespace {

// ---- equal decodings share one entry -----------------------------------------------------

// Every field of the decoded attributes, as bytes: equal keys, equal attributes. The fields are
// walked from the lists that declare them (decode.h, attrs.h: for_each_field), so none is left out.
template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

struct KeyWriter {
  std::string& k;

  template <class T>
  void operator()(const T& v) {
    if constexpr (std::is_enum_v<T> || std::is_arithmetic_v<T>) {
      k.append(reinterpret_cast<const char*>(&v), sizeof v);  // float: its bits
    } else if constexpr (std::is_same_v<T, std::string>) {
      (*this)(v.size());
      k += v;
    } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
      (*this)(v.size());
      for (bool b : v) k += b ? '1' : '0';
    } else if constexpr (is_vector<T>::value) {
      (*this)(v.size());
      for (const auto& x : v) (*this)(x);
    } else {
      for_each_field(v, *this);  // a struct of decoded attributes
    }
  }
};

}  // namespace

std::string sharing_key(OpCode code, const OpAttrs& a) {
  std::string k;
  KeyWriter put{k};
  put(code);
  put(a.family());  // then the family's struct, field by field
  a.visit(put);
  return k;
}

const std::vector<std::uint32_t>& OpAttrs::callees() const {
  static const std::vector<std::uint32_t> none;
  switch (family_) {
    case AttrFamily::Reduce:
      return get<ReduceAttrs>().callees;
    case AttrFamily::Window:
      return get<WindowAttrs>().callees;
    case AttrFamily::Sort:
      return get<SortAttrs>().callees;
    case AttrFamily::Scatter:
      return get<ScatterAttrs>().callees;
    case AttrFamily::Calls:
      return get<CallsAttrs>().callees;
    default:
      return none;
  }
}

}  // namespace rl::hlo
