#include "hlo/attrs.h"

#include <cctype>

#include "hlo/lexer.h"

namespace rl::hlo {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Index just past the bracket that closes the one at `open` (any of ([{<), or npos.
std::size_t match(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || (c == '>' && !(i > 0 && s[i - 1] == '-'))) {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

std::vector<std::int64_t> scan_ints(std::string_view s) {
  std::vector<std::int64_t> out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (is_ident_start(c)) {
      while (i < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '$'))
        ++i;
      continue;
    }
    bool neg = c == '-' && i + 1 < s.size() && is_digit(s[i + 1]);
    if (is_digit(c) || neg) {
      if (neg) ++i;
      std::int64_t v = 0;
      while (i < s.size() && is_digit(s[i])) {
        if (v < (std::int64_t(1) << 58)) v = v * 10 + (s[i] - '0');
        ++i;
      }
      out.push_back(neg ? -v : v);
      continue;
    }
    ++i;
  }
  return out;
}

// The three bracketed label lists of `[b, 0, f]x[0, i, o]->[b, 0, f]`.
bool label_lists(std::string_view s, std::vector<std::vector<std::string>>& lists) {
  std::size_t i = 0;
  while (i < s.size() && lists.size() < 3) {
    if (s[i] != '[') {
      ++i;
      continue;
    }
    std::size_t close = s.find(']', i);
    if (close == std::string_view::npos) return false;
    std::vector<std::string> labels;
    std::string cur;
    for (std::size_t j = i + 1; j < close; ++j) {
      char c = s[j];
      if (c == ',') {
        labels.push_back(std::string(trim(cur)));
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!trim(cur).empty() || !labels.empty()) labels.push_back(std::string(trim(cur)));
    lists.push_back(std::move(labels));
    i = close + 1;
  }
  return lists.size() == 3;
}

Result<ConvDims> fail_conv(const OpView& op, std::string_view got) {
  return Result<ConvDims>::failure_at(
      std::to_string(op.op.line) + ":" + std::to_string(op.op.column) +
          ": error: bad convolution dimension numbers \xE2\x80\x94 expected "
          "[b, 0, f]x[0, i, o]->[b, 0, f] or b0f_0io->b0f, got " +
          std::string(got),
      op.op.line, op.op.column);
}

bool assign_spatial(std::vector<std::int64_t>& spatial, std::size_t index, std::int64_t pos) {
  if (index > 64) return false;
  if (spatial.size() <= index) spatial.resize(index + 1, -1);
  if (spatial[index] != -1) return false;
  spatial[index] = pos;
  return true;
}

}  // namespace

namespace {

// The part of a list value that holds its integers: inside `array<i64: ...>` (empty without a
// colon) or `dense<...>`, else the text before a type suffix (`1 : i64`). False for an unclosed
// `array<` or `dense<`. *dense_end: where a `dense<...>` ends (its type follows), npos otherwise.
bool list_body(std::string_view v, std::string_view* body, std::size_t* dense_end) {
  *dense_end = std::string_view::npos;
  const bool array = v.substr(0, 6) == "array<";
  if (array || v.substr(0, 6) == "dense<") {
    const std::size_t close = match(v, 5);
    if (close == std::string_view::npos) return false;
    *body = v.substr(6, close - 7);
    if (array) {
      const std::size_t colon = body->find(':');
      *body = colon == std::string_view::npos ? std::string_view() : body->substr(colon + 1);
    } else {
      *dense_end = close;
    }
    return true;
  }
  int depth = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    if (c == ':' && depth == 0) {
      *body = v.substr(0, i);
      return true;
    }
  }
  *body = v;
  return true;
}

// A dense splat (`dense<2> : tensor<2x2xi64>`, no brackets) stands for every element of its type:
// out's one value repeated (an attribute lists at most a few values: none past 4096).
void expand_splat(std::string_view v, std::size_t dense_end, std::string_view body,
                  std::vector<std::int64_t>* out) {
  if (dense_end == std::string_view::npos || out->size() != 1 ||
      body.find('[') != std::string_view::npos)
    return;
  const std::size_t t = v.find("tensor<", dense_end);
  if (t == std::string_view::npos) return;
  std::int64_t count = 1;
  std::size_t p = t + 7;
  while (p < v.size() && chars::digit(v[p])) {
    std::int64_t d = 0;
    while (p < v.size() && chars::digit(v[p]) && d <= 4096) d = d * 10 + (v[p++] - '0');
    if (p >= v.size() || v[p] != 'x' || d > 4096) return;
    count *= d;
    if (count > 4096) return;
    ++p;
  }
  const std::int64_t splat = (*out)[0];  // a copy: assign() must not read the vector it refills
  out->assign(static_cast<std::size_t>(count), splat);
}

}  // namespace

std::vector<std::int64_t> int_list(std::string_view value) {
  const std::string_view v = trim(value);
  std::string_view body;
  std::size_t dense_end = 0;
  if (!list_body(v, &body, &dense_end)) return {};
  std::vector<std::int64_t> out = scan_ints(body);
  expand_splat(v, dense_end, body, &out);
  return out;
}

bool int_list_exact(std::string_view value, std::vector<std::int64_t>* out) {
  const std::string_view v = trim(value);
  std::string_view body;
  std::size_t dense_end = 0;
  if (!list_body(v, &body, &dense_end)) return false;
  // Integers, commas, brackets and spaces; an integer follows a comma or an opening bracket.
  bool after_value = false;
  for (std::size_t i = 0; i < body.size();) {
    const char c = body[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == ',') {
      if (!after_value) return false;
      after_value = false;
      ++i;
    } else if (c == '[' || c == '{' || c == '(') {
      if (after_value) return false;
      ++i;
    } else if (c == ']' || c == '}' || c == ')') {
      after_value = true;
      ++i;
    } else if (is_digit(c) || (c == '-' && i + 1 < body.size() && is_digit(body[i + 1]))) {
      if (after_value) return false;
      if (c == '-') ++i;
      std::int64_t n = 0;
      for (; i < body.size() && is_digit(body[i]); ++i) {
        n = n * 10 + (body[i] - '0');
        if (n >= (std::int64_t(1) << 58)) return false;  // scan_ints would clip it
      }
      after_value = true;
    } else {
      return false;
    }
  }
  *out = scan_ints(body);
  expand_splat(v, dense_end, body, out);
  return true;
}

std::vector<std::int64_t> keyed_list(std::string_view value, std::string_view key, bool* found) {
  if (found) *found = false;
  std::size_t from = 0;
  while (true) {
    std::size_t at = value.find(key, from);
    if (at == std::string_view::npos) return {};
    from = at + 1;
    if (at > 0 && (is_ident_char(value[at - 1]))) continue;
    std::size_t i = at + key.size();
    if (i < value.size() && is_ident_char(value[i])) continue;
    while (i < value.size() && value[i] == ' ') ++i;
    if (i >= value.size() || value[i] != '=') continue;
    ++i;
    while (i < value.size() && value[i] == ' ') ++i;
    if (found) *found = true;
    if (i < value.size() && (value[i] == '[' || value[i] == '{')) {
      std::size_t close = match(value, i);
      if (close == std::string_view::npos) return {};
      return scan_ints(value.substr(i, close - i));
    }
    std::size_t end = i;
    while (end < value.size() && value[end] != ',' && value[end] != ' ' && value[end] != '>' &&
           value[end] != '}')
      ++end;
    return scan_ints(value.substr(i, end - i));
  }
}

std::string symbol_name(std::string_view value) {
  std::string_view s = trim(value);
  if (!s.empty() && (s[0] == '@' || s[0] == '%')) s.remove_prefix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return std::string(s);
}

bool minor_to_major(std::string_view layout, std::size_t rank, std::vector<int>* out) {
  out->clear();
  std::vector<bool> seen(rank, false);
  layout = trim(layout);
  std::size_t i = 0;
  while (i < layout.size()) {
    if (!is_digit(layout[i])) return false;
    std::size_t d = 0;
    while (i < layout.size() && is_digit(layout[i]) && d <= rank) d = d * 10 + (layout[i++] - '0');
    if (d >= rank || seen[d]) return false;
    seen[d] = true;
    out->push_back(static_cast<int>(d));
    while (i < layout.size() && layout[i] == ' ') ++i;
    if (i < layout.size() && layout[i] == ',') {
      ++i;
      while (i < layout.size() && layout[i] == ' ') ++i;
    } else if (i < layout.size()) {
      return false;  // ':' and what follows, or anything else
    }
  }
  return out->size() == rank;
}

bool is_default_layout(std::string_view layout) {
  // Runs on every shape of an optimized module (the parser's path): no allocation.
  std::int64_t expect = -1;  // the next dimension: one less than the last
  bool first = true;
  std::size_t i = 0;
  while (i < layout.size() && layout[i] == ' ') ++i;
  while (i < layout.size()) {
    if (!is_digit(layout[i])) return false;
    std::int64_t d = 0;
    while (i < layout.size() && is_digit(layout[i]) && d < 1000) d = d * 10 + (layout[i++] - '0');
    if (!first && d != expect) return false;
    first = false;
    expect = d - 1;
    while (i < layout.size() && layout[i] == ' ') ++i;
    if (i < layout.size() && layout[i] == ',') {
      ++i;
      while (i < layout.size() && layout[i] == ' ') ++i;
      if (i == layout.size()) return false;
    } else if (i < layout.size()) {
      return false;
    }
  }
  return expect == -1;  // empty (a scalar), or down to 0
}

std::vector<std::string> symbol_names(std::string_view value) {
  value = trim(value);
  if (value.size() >= 2 && value.front() == '{' && value.back() == '}')
    value = value.substr(1, value.size() - 2);
  std::vector<std::string> out;
  for (;;) {
    const std::size_t comma = value.find(',');
    std::string name = symbol_name(value.substr(0, comma));
    if (!name.empty()) out.push_back(std::move(name));
    if (comma == std::string_view::npos) return out;
    value = value.substr(comma + 1);
  }
}

Result<DotDims> dot_dims(const OpView& op) {
  DotDims d;
  auto split_x = [](std::string_view v, std::vector<std::int64_t>& a,
                    std::vector<std::int64_t>& b) {
    int depth = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      char c = v[i];
      if (c == '[') ++depth;
      if (c == ']') --depth;
      if (c == 'x' && depth == 0) {
        a = int_list(v.substr(0, i));
        b = int_list(v.substr(i + 1));
        return true;
      }
    }
    return false;
  };
  auto bad = [&](std::string_view got) {
    return Result<DotDims>::failure_at(
        std::to_string(op.op.line) + ":" + std::to_string(op.op.column) +
            ": error: bad dot dimension numbers \xE2\x80\x94 expected "
            "contracting_dims = [..] x [..], got " +
            std::string(got),
        op.op.line, op.op.column);
  };
  if (const Attribute* a = op.attr("contracting_dims")) {
    if (!split_x(a->value, d.lhs_contracting, d.rhs_contracting)) return bad(a->value);
    if (const Attribute* b = op.attr("batching_dims"))
      if (!split_x(b->value, d.lhs_batch, d.rhs_batch)) return bad(b->value);
    return Result<DotDims>::success(d);
  }
  if (const Attribute* a = op.attr("dot_dimension_numbers")) {
    d.lhs_batch = keyed_list(a->value, "lhs_batching_dimensions", nullptr);
    d.rhs_batch = keyed_list(a->value, "rhs_batching_dimensions", nullptr);
    d.lhs_contracting = keyed_list(a->value, "lhs_contracting_dimensions", nullptr);
    d.rhs_contracting = keyed_list(a->value, "rhs_contracting_dimensions", nullptr);
    return Result<DotDims>::success(d);
  }
  bool hlo_form = false;
  for (const char* k :
       {"lhs_contracting_dims", "rhs_contracting_dims", "lhs_batch_dims", "rhs_batch_dims"})
    if (op.attr(k)) hlo_form = true;
  if (hlo_form) {
    if (auto* a = op.attr("lhs_contracting_dims")) d.lhs_contracting = int_list(a->value);
    if (auto* a = op.attr("rhs_contracting_dims")) d.rhs_contracting = int_list(a->value);
    if (auto* a = op.attr("lhs_batch_dims")) d.lhs_batch = int_list(a->value);
    if (auto* a = op.attr("rhs_batch_dims")) d.rhs_batch = int_list(a->value);
    return Result<DotDims>::success(d);
  }
  if (op.op.code == OpCode::Dot && op.num_operands() == 2) {
    // Legacy dot: contracts the last lhs dimension with the first rhs dimension.
    const auto& l = op.operand_type(0);
    if (!l.dims.empty()) d.lhs_contracting.push_back(static_cast<std::int64_t>(l.dims.size()) - 1);
    if (!op.operand_type(1).dims.empty()) d.rhs_contracting.push_back(0);
    return Result<DotDims>::success(d);
  }
  return Result<DotDims>::success(d);  // HLO dot with no contraction: an outer product
}

Result<ConvDims> conv_dims(const OpView& op) {
  ConvDims d;
  const Attribute* a = op.attr("dim_numbers");
  if (!a) a = op.attr("dimension_numbers");
  if (a && a->value.find("raw") != std::string::npos) {
    auto one = [&](const char* key, std::int64_t& out) {
      bool found = false;
      auto v = keyed_list(a->value, key, &found);
      if (!found || v.size() != 1) return false;
      out = v[0];
      return true;
    };
    bool ok = one("input_batch_dimension", d.input_batch) &&
              one("input_feature_dimension", d.input_feature) &&
              one("kernel_input_feature_dimension", d.kernel_input_feature) &&
              one("kernel_output_feature_dimension", d.kernel_output_feature) &&
              one("output_batch_dimension", d.output_batch) &&
              one("output_feature_dimension", d.output_feature);
    d.input_spatial = keyed_list(a->value, "input_spatial_dimensions", nullptr);
    d.kernel_spatial = keyed_list(a->value, "kernel_spatial_dimensions", nullptr);
    d.output_spatial = keyed_list(a->value, "output_spatial_dimensions", nullptr);
    if (!ok) return fail_conv(op, a->value.substr(0, 80));
    return Result<ConvDims>::success(d);
  }
  std::vector<std::vector<std::string>> lists;
  if (a) {
    if (!label_lists(a->value, lists)) return fail_conv(op, a->value.substr(0, 80));
  } else if (const Attribute* h = op.attr("dim_labels")) {
    std::string_view v = h->value;
    std::size_t us = v.find('_'), ar = v.find("->");
    if (us == std::string_view::npos || ar == std::string_view::npos || ar < us)
      return fail_conv(op, h->value);
    for (auto part : {v.substr(0, us), v.substr(us + 1, ar - us - 1), v.substr(ar + 2)}) {
      std::vector<std::string> labels;
      for (char c : trim(part)) labels.push_back(std::string(1, c));
      lists.push_back(std::move(labels));
    }
  } else {
    return fail_conv(op, "no dimension numbers");
  }
  const char* want[3][2] = {{"b", "f"}, {"i", "o"}, {"b", "f"}};
  std::int64_t* slots[3][2] = {{&d.input_batch, &d.input_feature},
                               {&d.kernel_input_feature, &d.kernel_output_feature},
                               {&d.output_batch, &d.output_feature}};
  std::vector<std::int64_t>* spatial[3] = {&d.input_spatial, &d.kernel_spatial, &d.output_spatial};
  for (int l = 0; l < 3; ++l) {
    bool seen[2] = {false, false};
    for (std::size_t pos = 0; pos < lists[l].size(); ++pos) {
      const std::string& lab = lists[l][pos];
      if (lab == want[l][0] || lab == want[l][1]) {
        int which = lab == want[l][0] ? 0 : 1;
        if (seen[which]) return fail_conv(op, "a repeated '" + lab + "'");
        seen[which] = true;
        *slots[l][which] = static_cast<std::int64_t>(pos);
      } else if (!lab.empty() && std::isdigit(static_cast<unsigned char>(lab[0]))) {
        // A spatial dimension's number: digits only, at most 64 (assign_spatial's limit).
        std::int64_t index = 0;
        if (!decimal_in_range(lab, 0, 64, &index))
          return fail_conv(op, "spatial dimension '" + lab.substr(0, 40) +
                                   "' (a spatial dimension must be an integer from 0 to 64)");
        if (!assign_spatial(*spatial[l], static_cast<std::size_t>(index),
                            static_cast<std::int64_t>(pos)))
          return fail_conv(op, "a repeated spatial dimension " + lab);
      } else {
        return fail_conv(op, "label '" + lab + "'");
      }
    }
    if (!seen[0] || !seen[1])
      return fail_conv(op,
                       "a list without '" + std::string(want[l][0]) + "' and '" + want[l][1] + "'");
    for (auto s : *spatial[l])
      if (s < 0) return fail_conv(op, "spatial dimensions with a gap");
  }
  return Result<ConvDims>::success(d);
}

Result<std::vector<WindowDim>> window(const OpView& op, std::size_t rank) {
  std::vector<WindowDim> w(rank);
  auto bad = [&](const std::string& what, std::size_t want, std::size_t got) {
    return Result<std::vector<WindowDim>>::failure_at(
        std::to_string(op.op.line) + ":" + std::to_string(op.op.column) + ": error: bad window " +
            what + " \xE2\x80\x94 expected " + std::to_string(want) + " values, got " +
            std::to_string(got),
        op.op.line, op.op.column);
  };
  auto apply = [&](const std::vector<std::int64_t>& v, bool present, const std::string& what,
                   std::int64_t WindowDim::*field) -> bool {
    if (!present) return true;
    if (v.size() != rank) return false;
    for (std::size_t i = 0; i < rank; ++i) w[i].*field = v[i];
    (void)what;
    return true;
  };
  auto apply_pad = [&](const std::vector<std::int64_t>& v, bool present) -> bool {
    if (!present) return true;
    if (v.size() != 2 * rank) return false;
    for (std::size_t i = 0; i < rank; ++i) {
      w[i].pad_low = v[2 * i];
      w[i].pad_high = v[2 * i + 1];
    }
    return true;
  };
  const Attribute* win = op.attr("window");
  if (win && win->value.find("size=") !=
                 std::string::npos) {  // HLO window={size=3x3 stride=2x2 pad=1_1x1_1}
    std::string_view v = win->value;
    auto field = [&](std::string_view key) -> std::string_view {
      std::size_t at = v.find(key);
      while (at != std::string_view::npos && at > 0 && v[at - 1] != ' ' && v[at - 1] != '{')
        at = v.find(key, at + 1);
      if (at == std::string_view::npos) return {};
      std::size_t b = at + key.size(), e = b;
      while (e < v.size() && v[e] != ' ' && v[e] != '}') ++e;
      return v.substr(b, e - b);
    };
    auto xs = [&](std::string_view s) {  // "3x3", "1_1x-1_0": separators become spaces
      std::string t(s);
      for (char& c : t)
        if (c == 'x' || c == '_') c = ' ';
      return scan_ints(t);
    };
    std::string_view size = field("size="), stride = field("stride="), pad = field("pad="),
                     lhs = field("lhs_dilate="), rhs = field("rhs_dilate=");
    if (!apply(xs(size), !size.empty(), "size", &WindowDim::size))
      return bad("size", rank, xs(size).size());
    if (!apply(xs(stride), !stride.empty(), "stride", &WindowDim::stride))
      return bad("stride", rank, xs(stride).size());
    if (!apply_pad(xs(pad), !pad.empty())) return bad("pad", 2 * rank, xs(pad).size());
    if (!apply(xs(lhs), !lhs.empty(), "lhs_dilate", &WindowDim::base_dilation))
      return bad("lhs_dilate", rank, xs(lhs).size());
    if (!apply(xs(rhs), !rhs.empty(), "rhs_dilate", &WindowDim::window_dilation))
      return bad("rhs_dilate", rank, xs(rhs).size());
    return Result<std::vector<WindowDim>>::success(w);
  }
  if (win) {  // stablehlo pretty: window = {stride = [..], pad = [[..]], lhs_dilate = [..],
              // rhs_dilate = [..]}
    bool f = false;
    auto v = keyed_list(win->value, "stride", &f);
    if (!apply(v, f, "stride", &WindowDim::stride)) return bad("stride", rank, v.size());
    v = keyed_list(win->value, "pad", &f);
    if (!apply_pad(v, f)) return bad("pad", 2 * rank, v.size());
    v = keyed_list(win->value, "lhs_dilate", &f);
    if (!apply(v, f, "lhs_dilate", &WindowDim::base_dilation))
      return bad("lhs_dilate", rank, v.size());
    v = keyed_list(win->value, "rhs_dilate", &f);
    if (!apply(v, f, "rhs_dilate", &WindowDim::window_dilation))
      return bad("rhs_dilate", rank, v.size());
    return Result<std::vector<WindowDim>>::success(w);
  }
  struct Named {
    const char* name;
    std::int64_t WindowDim::*field;
  };
  for (Named n :
       {Named{"window_dimensions", &WindowDim::size}, Named{"window_strides", &WindowDim::stride},
        Named{"lhs_dilation", &WindowDim::base_dilation},
        Named{"base_dilations", &WindowDim::base_dilation},
        Named{"rhs_dilation", &WindowDim::window_dilation},
        Named{"window_dilations", &WindowDim::window_dilation}}) {
    if (const Attribute* a = op.attr(n.name)) {
      auto v = int_list(a->value);
      if (!apply(v, true, n.name, n.field)) return bad(n.name, rank, v.size());
    }
  }
  if (const Attribute* a = op.attr("padding")) {
    auto v = int_list(a->value);
    if (!apply_pad(v, true)) return bad("padding", 2 * rank, v.size());
  }
  return Result<std::vector<WindowDim>>::success(w);
}

std::int64_t int_attr(const OpView& op, std::string_view name, std::int64_t fallback) {
  const Attribute* a = op.attr(name);
  if (!a) return fallback;
  auto v = int_list(a->value);
  return v.empty() ? fallback : v[0];
}

std::int64_t replica_group_size(const OpView& op) {
  const Attribute* a = op.attr("replica_groups");
  if (!a) return 0;
  std::string_view v = trim(a->value);
  std::size_t iota = v.find("<=");
  if (!v.empty() && v[0] == '[' && iota != std::string_view::npos) {
    auto dims = scan_ints(v.substr(0, iota));
    return dims.empty() ? 0 : dims.back();
  }
  if (v.substr(0, 6) == "dense<") {
    std::size_t close = match(v, 5);
    if (close == std::string_view::npos) return 0;
    v = v.substr(6, close - 7);
  }
  // The first inner group: skip the outer opener, find the next one.
  std::size_t outer = v.find_first_of("{[");
  if (outer == std::string_view::npos) return 0;
  std::size_t inner = v.find_first_of("{[", outer + 1);
  if (inner == std::string_view::npos) return 0;
  std::size_t close = match(v, inner);
  if (close == std::string_view::npos) return 0;
  return static_cast<std::int64_t>(scan_ints(v.substr(inner, close - inner)).size());
}

std::int64_t known_trip_count(const OpView& op) {
  const Attribute* a = op.attr("backend_config");
  if (!a) return -1;
  std::string_view v = a->value;
  std::size_t at = v.find("known_trip_count");
  if (at == std::string_view::npos) return -1;
  // The key "n" as JSON ("n") or as JSON inside an HLO string (\"n\").
  for (std::size_t i = v.find('n', at + 16); i != std::string_view::npos && i < at + 64;
       i = v.find('n', i + 1)) {
    if (i == 0 || v[i - 1] != '"' || i + 1 >= v.size()) continue;
    if (v[i + 1] != '"' && v[i + 1] != '\\') continue;
    auto ints = scan_ints(v.substr(i + 1, 40));
    return ints.empty() || ints[0] < 0 ? -1 : ints[0];
  }
  return -1;
}

std::vector<std::int64_t> json_list(std::string_view value, std::string_view key, bool* found) {
  if (found) *found = false;
  std::size_t at = value.find(key);
  while (at != std::string_view::npos) {
    std::size_t i = at + key.size();
    // the key must be a whole JSON key: followed by a quote (possibly escaped), then ':'
    while (i < value.size() && (value[i] == '\\' || value[i] == '"' || value[i] == ' ')) ++i;
    if (i < value.size() && value[i] == ':') {
      ++i;
      while (i < value.size() && value[i] == ' ') ++i;
      if (i < value.size() && value[i] == '[') {
        std::size_t close = value.find(']', i);
        if (close == std::string_view::npos) return {};
        if (found) *found = true;
        return scan_ints(value.substr(i + 1, close - i - 1));
      }
    }
    at = value.find(key, at + 1);
  }
  return {};
}

}  // namespace rl::hlo
