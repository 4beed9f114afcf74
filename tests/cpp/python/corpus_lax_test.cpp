// The corpus comparison of issue 26: for each file of ../shared/corpus/stablehlo-interpret (what
// JAX printed for one lax primitive on given dtypes and shapes), a Python call of that primitive
// is written from the file itself — the primitive from the harness's file name (the words before
// the first dtype), the argument types from its @inputs, static parameters (axes, index dtype,
// permutation, ...) from its body — lowered by the tracer, and the emitted ops compared with the
// corpus's op for op, SSA names aside. A file whose primitive or types the language cannot
// express is counted, with the reason, never compared.
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "corpus.h"
#include "python/notebook.h"
#include "python/tracer.h"

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Func {
  std::string name, header;
  std::vector<std::string> body;  // lines, indentation removed
};

// The functions of a printed module, in order.
std::vector<Func> functions(const std::string& text) {
  std::vector<Func> out;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("  func.func ", 0) == 0) {
      Func f;
      f.header = line.substr(2);
      const auto at = line.find('@');
      f.name = line.substr(at + 1, line.find('(', at) - at - 1);
      out.push_back(f);
      inside = true;
    } else if (inside && line == "  }") {
      inside = false;
    } else if (inside) {
      const auto first = line.find_first_not_of(' ');
      out.back().body.push_back(first == std::string::npos ? "" : line.substr(first));
    }
  }
  return out;
}

// Every SSA value renamed by first appearance (%v0, %v1, ...), keeping `:2` / `#1` suffixes;
// names in `fixed` are kept.
std::vector<std::string> normalize(const std::vector<std::string>& lines,
                                   const std::map<std::string, std::string>& fixed) {
  static const std::regex value(R"(%[A-Za-z0-9_]+)");
  std::map<std::string, std::string> names = fixed;
  std::vector<std::string> out;
  for (const auto& l : lines) {
    std::string r;
    std::size_t last = 0;
    for (auto it = std::sregex_iterator(l.begin(), l.end(), value); it != std::sregex_iterator();
         ++it) {
      r += l.substr(last, it->position() - last);
      const std::string n = it->str();
      auto f = names.find(n);
      if (f == names.end())
        f = names.emplace(n, "%v" + std::to_string(names.size() - fixed.size())).first;
      r += f->second;
      last = it->position() + it->length();
    }
    out.push_back(r + l.substr(last));
  }
  return out;
}

// "tensor<2x3xf32>" → ((2, 3), "float32"); false for types the language has no name for.
bool python_type(const std::string& type, std::string& shape, std::string& dtype) {
  static const std::map<std::string, std::string> names = {
      {"f16", "float16"}, {"bf16", "bfloat16"}, {"f32", "float32"}, {"f64", "float64"},
      {"i1", "bool_"},    {"i8", "int8"},       {"i16", "int16"},   {"i32", "int32"},
      {"i64", "int64"},   {"ui8", "uint8"},     {"ui16", "uint16"}, {"ui32", "uint32"},
      {"ui64", "uint64"}};
  if (type.rfind("tensor<", 0) != 0 || type.back() != '>') return false;
  std::string inner = type.substr(7, type.size() - 8);
  std::vector<std::string> dims;
  std::size_t x;
  while ((x = inner.find('x')) != std::string::npos &&
         std::isdigit(static_cast<unsigned char>(inner[0]))) {
    dims.push_back(inner.substr(0, x));
    inner = inner.substr(x + 1);
  }
  auto n = names.find(inner);
  if (n == names.end()) return false;
  dtype = n->second;
  shape = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) shape += (i ? ", " : "") + dims[i];
  shape += dims.size() == 1 ? ",)" : ")";
  return true;
}

std::vector<std::string> split_types(std::string s) {
  if (!s.empty() && s.front() == '(') s = s.substr(1, s.size() - 2);
  std::vector<std::string> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
    if (s[i] == ',' && depth == 0) {
      out.push_back(s.substr(start, i - start));
      start = i + 2;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

// The leading dimensions of a type's text ("1x2xf32" → {"1", "2"}; "f32" → {}).
std::vector<std::string> split_dims(const std::string& t) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < t.size() && std::isdigit(static_cast<unsigned char>(t[at]))) {
    const auto x = t.find('x', at);
    if (x == std::string::npos) break;
    out.push_back(t.substr(at, x - at));
    at = x + 1;
  }
  return out;
}

std::string first_match(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(pattern))) return m[1].str();
  return "";
}

// The rank of a Python shape "(2, 3)".
int rank(const std::string& shape) {
  int n = 0;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(shape[i])) &&
        (i == 0 || !std::isdigit(static_cast<unsigned char>(shape[i - 1]))))
      ++n;
  return n;
}

// The element type of a "tensor<...>" as jnp names it.
std::string jnp_dtype(const std::string& type) {
  std::string shape, dtype;
  return python_type(type, shape, dtype) ? "jnp." + dtype : "";
}

// The Python call of the harness's primitive, its static parameters read from the corpus body;
// "" when the language has no such call.
std::string python_call(const std::string& prim, std::size_t nargs, const std::string& body,
                        const std::string& result_type) {
  static const std::map<std::string, std::string> unary = {
      {"abs", "abs"},
      {"exp", "exp"},
      {"log", "log"},
      {"sin", "sin"},
      {"cos", "cos"},
      {"tanh", "tanh"},
      {"sqrt", "sqrt"},
      {"rsqrt", "rsqrt"},
      {"logistic", "logistic"},
      {"log1p", "log1p"},
      {"expm1", "expm1"},
      {"floor", "floor"},
      {"ceil", "ceil"},
      {"neg", "neg"},
      {"sign", "sign"},
      {"not", "bitwise_not"},
      {"is_finite", "is_finite"},
      {"stop_gradient", "stop_gradient"},
      {"tan", "tan"},
      {"sinh", "sinh"},
      {"cosh", "cosh"},
      {"acos", "acos"},
      {"asin", "asin"},
      {"atan", "atan"},
      {"erf", "erf"},
      {"erf_inv", "erf_inv"},
      {"lgamma", "lgamma"},
      {"digamma", "digamma"},
      {"bessel_i1e", "bessel_i1e"},
      {"population_count", "population_count"}};
  static const std::map<std::string, std::string> binary = {
      {"add", "add"},
      {"sub", "sub"},
      {"mul", "mul"},
      {"div", "div"},
      {"rem", "rem"},
      {"pow", "pow"},
      {"max", "max"},
      {"min", "min"},
      {"atan2", "atan2"},
      {"and", "bitwise_and"},
      {"or", "bitwise_or"},
      {"xor", "bitwise_xor"},
      {"shift_left", "shift_left"},
      {"shift_right_arithmetic", "shift_right_arithmetic"},
      {"shift_right_logical", "shift_right_logical"},
      {"eq", "eq"},
      {"ne", "ne"},
      {"lt", "lt"},
      {"le", "le"},
      {"gt", "gt"},
      {"ge", "ge"},
      {"nextafter", "nextafter"}};
  const char* params = "abcdefgh";
  std::string args;
  for (std::size_t i = 0; i < nargs; ++i) args += std::string(i ? ", " : "") + params[i];
  if (auto u = unary.find(prim); u != unary.end() && nargs == 1) return "lax." + u->second + "(a)";
  if (auto b = binary.find(prim); b != binary.end() && nargs == 2)
    return "lax." + b->second + "(a, b)";
  if (prim == "clamp" && nargs == 3) return "lax.clamp(a, b, c)";
  if (prim == "select_n" && nargs >= 2) return "lax.select_n(" + args + ")";
  if ((prim == "argmax" || prim == "argmin") && nargs == 1) {
    const std::string axis = first_match(body, R"(across dimensions = \[(\d+)\])");
    const std::string index =
        jnp_dtype(first_match(body, R"(stablehlo\.iota dim = \d+ : (tensor<[^>]*>))"));
    if (axis.empty() || index.empty()) return "";
    return "lax." + prim + "(a, " + axis + ", " + index + ")";
  }
  if ((prim == "cumsum" || prim == "cumprod" || prim == "cummax" || prim == "cummin") &&
      nargs == 1) {
    const std::string window = first_match(body, R"(window_dimensions = array<i64: ([0-9, ]+)>)");
    const std::string padding = first_match(body, R"(padding = dense<(\[\[[0-9, \[\]]+\]\])>)");
    std::vector<long> w;
    for (auto& t : split_types(window)) w.push_back(std::stol(t));
    std::size_t axis = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
      if (w[i] > 1) axis = i;
    std::smatch m;
    const std::regex pair(R"(\[(\d+), (\d+)\])");
    bool reverse = false;
    std::size_t k = 0;
    for (auto it = std::sregex_iterator(padding.begin(), padding.end(), pair);
         it != std::sregex_iterator(); ++it, ++k)
      if (k == axis && (*it)[2].str() != "0") reverse = true;
    return "lax." + prim + "(a, axis=" + std::to_string(axis) + (reverse ? ", reverse=True" : "") +
           ")";
  }
  if (prim.rfind("reduce_", 0) == 0 && prim != "reduce_precision" &&
      prim.rfind("reduce_window", 0) != 0 && nargs == 1) {
    const std::string axes = first_match(body, R"(across dimensions = \[([0-9, ]*)\])");
    return "lax." + prim + "(a, (" + axes +
           (axes.find(',') == std::string::npos && !axes.empty() ? ",)" : ")") + ")";
  }
  if (prim == "convert_element_type" && nargs == 1) {
    const std::string t = jnp_dtype(result_type);
    return t.empty() ? "" : "lax.convert_element_type(a, " + t + ")";
  }
  if ((prim == "reduce_window_max" || prim == "reduce_window_min" || prim == "reduce_window_sum") &&
      nargs == 1) {
    std::string shape, dtype;
    if (!python_type(result_type, shape, dtype)) return "";
    const std::string op = prim.substr(14);
    const bool is_float = dtype.find("float") != std::string::npos;
    const std::string window = first_match(body, R"(window_dimensions = array<i64: ([0-9, ]+)>)");
    std::string strides = first_match(body, R"(window_strides = array<i64: ([0-9, ]+)>)");
    std::string padding = first_match(body, R"(padding = dense<\[(\[[0-9, \[\]]+\])\]>)");
    const auto n = split_types(window).size();
    if (strides.empty())
      for (std::size_t d = 0; d < n; ++d) strides += d ? ", 1" : "1";
    if (padding.empty())
      for (std::size_t d = 0; d < n; ++d) padding += d ? ", [0, 0]" : "[0, 0]";
    // The init value: the constant reaching reduce_window's second operand (through a
    // broadcast_in_dim or not); float infinities are printed as hex bits.
    std::string init_ssa = first_match(body, R"("stablehlo\.reduce_window"\(%[\w#]+, (%\w+)\))");
    const std::string via =
        first_match(body, init_ssa + R"( = stablehlo\.broadcast_in_dim (%\w+),)");
    if (!via.empty()) init_ssa = via;
    std::string init = first_match(body, init_ssa + R"( = stablehlo\.constant dense<([^>]+)>)");
    if (init.empty()) return "";
    if (init.rfind("0x", 0) == 0) {
      if (!is_float) return "";
      init = std::strtoull(init.c_str(), nullptr, 16) >> (4 * (init.size() - 2) - 1) ? "-jnp.inf"
                                                                                     : "jnp.inf";
    }
    return "lax.reduce_window(a, " + init + ", lax." + (op == "sum" ? "add" : op) + ", (" + window +
           ",), (" + strides + ",), [" + padding + "])";
  }
  if ((prim == "scatter" || prim == "scatter_add" || prim == "scatter_mul" ||
       prim == "scatter_min" || prim == "scatter_max") &&
      nargs == 2) {
    // The indices: the constant reaching the scatter's second operand (the harness's NumPy
    // array, baked in), a splat or nested lists; the dimension numbers and flags as printed.
    const std::string ssa = first_match(body, R"("stablehlo\.scatter"\(%[\w#]+, (%\w+), )");
    if (ssa.empty()) return "";
    const std::string values =
        first_match(body, ssa + R"( = stablehlo\.constant dense<([^>"]+)> : tensor<)");
    const std::string type =
        first_match(body, ssa + R"( = stablehlo\.constant dense<[^>"]+> : (tensor<[^>]*>))");
    std::string shape, dtype;
    if (values.empty() || !python_type(type, shape, dtype)) return "";
    const std::string indices =
        values[0] == '[' ? "np.array(" + values + ", dtype=np." + dtype + ")"
                         : "np.full(" + shape + ", " + values + ", dtype=np." + dtype + ")";
    const std::string dn = first_match(body, R"(#stablehlo\.scatter<([^>]*)>)");
    auto dims = [&](const std::string& name) {
      const std::string d = first_match(dn, name + R"( = \[([0-9, ]*)\])");
      return "(" + d + (d.empty() || d.find(',') != std::string::npos ? ")" : ",)");
    };
    std::string flags;
    if (body.find("indices_are_sorted = true") != std::string::npos)
      flags += ", indices_are_sorted=True";
    if (body.find("unique_indices = true") != std::string::npos) flags += ", unique_indices=True";
    return "lax." + prim + "(a, " + indices + ", b, lax.ScatterDimensionNumbers(" +
           dims("update_window_dims") + ", " + dims("inserted_window_dims") + ", " +
           dims("scatter_dims_to_operand_dims") + ")" + flags + ")";
  }
  if (prim == "slice" && nargs == 1) {
    // `stablehlo.slice %x [4:7, 0:1:2, ...]`: start:limit[:stride] per dimension.
    const std::string spec = first_match(body, R"(stablehlo\.slice %[\w#]+ \[([0-9:, ]*)\])");
    if (spec.empty()) return "";
    std::string starts, limits, strides;
    for (auto& part : split_types(spec)) {
      std::vector<std::string> f;
      std::istringstream p(part);
      for (std::string n; std::getline(p, n, ':');) f.push_back(n);
      starts += f[0] + ", ";
      limits += f[1] + ", ";
      strides += (f.size() > 2 ? f[2] : "1") + ", ";
    }
    return "lax.slice(a, (" + starts + "), (" + limits + "), (" + strides + "))";
  }
  if (prim == "sort" && nargs >= 1) {
    // The dimension and stability from the attributes; each key adds one `compare  LT`.
    const std::string dim = first_match(body, R"(<\{dimension = (\d+) : i64)");
    const bool stable = body.find("is_stable = true") != std::string::npos;
    std::size_t keys = 0;
    for (std::size_t at = 0; (at = body.find("compare  LT", at)) != std::string::npos; ++at) ++keys;
    if (dim.empty() || keys == 0) return "";
    const std::string opts = ", dimension=" + dim + ", is_stable=" + (stable ? "True" : "False");
    if (nargs == 1) return "lax.sort(a" + opts + ")";
    return "lax.sort((" + args + ")" + opts + ", num_keys=" + std::to_string(keys) + ")";
  }
  if ((prim == "dynamic_slice" && nargs == 2) || (prim == "dynamic_update_slice" && nargs == 3)) {
    // The index vector (the last input) read element by element, as the harness's b[0], b[1].
    const bool update = prim == "dynamic_update_slice";
    const std::string n = first_match(
        body, update ? R"(call @inputs\(\) : \(\) -> \(tensor<[^>]*>, tensor<[^>]*>, tensor<(\d+)x)"
                     : R"(call @inputs\(\) : \(\) -> \(tensor<[^>]*>, tensor<(\d+)x)");
    if (n.empty()) return "";
    const char* idx = update ? "c" : "b";
    std::string starts;
    for (int i = 0; i < std::stoi(n); ++i)
      starts += std::string(idx) + "[" + std::to_string(i) + "], ";
    if (update) return "lax.dynamic_update_slice(a, b, (" + starts + "))";
    const std::string sizes =
        first_match(body, R"(stablehlo\.dynamic_slice [^:]*sizes = \[([0-9, ]*)\])");
    if (sizes.empty()) return "";
    return "lax.dynamic_slice(a, (" + starts + "), (" + sizes + ",))";
  }
  if (prim == "pad" && nargs == 2) {
    const std::string low = first_match(body, R"(stablehlo\.pad [^:]*low = \[([-0-9, ]*)\])");
    const std::string high = first_match(body, R"(stablehlo\.pad [^:]*high = \[([-0-9, ]*)\])");
    const std::string in = first_match(body, R"(stablehlo\.pad [^:]*interior = \[([0-9, ]*)\])");
    const auto l = split_types(low), h = split_types(high), i = split_types(in);
    if (low.empty() || l.size() != h.size() || l.size() != i.size()) return "";
    std::string cfg;
    for (std::size_t d = 0; d < l.size(); ++d)
      cfg += "(" + l[d] + ", " + h[d] + ", " + i[d] + "), ";
    return "lax.pad(a, b, (" + cfg + "))";
  }
  if (prim == "integer_pow" && nargs == 1) {
    // y read from the multiplies: the input has power 1, a product the sum of its operands'
    // powers; y is the last product's (a division, for y < 0, is not read).
    // When the main calls a private @integer_pow (JAX caches |y| >= 4), its %arg0 is the input.
    std::map<std::string, long> power;
    const bool called = body.find("call @integer_pow(") != std::string::npos;
    const std::string in = called ? "%arg0" : first_match(body, R"((%\w+) = call @inputs\(\))");
    if (in.empty() || body.find("stablehlo.divide") != std::string::npos) return "";
    power[in] = 1;
    long y = 0;
    const std::regex mul(R"((%\w+) = stablehlo\.multiply (%\w+), (%\w+) :)");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), mul);
         it != std::sregex_iterator(); ++it) {
      const auto a = power.find((*it)[2].str()), b = power.find((*it)[3].str());
      if (a == power.end() || b == power.end()) return "";
      y = power[(*it)[1].str()] = a->second + b->second;
    }
    return y < 2 ? "" : "lax.integer_pow(a, " + std::to_string(y) + ")";
  }
  if (prim == "bitcast_convert_type" && nargs == 1) {
    const std::string t = jnp_dtype(result_type);
    return t.empty() ? "" : "lax.bitcast_convert_type(a, " + t + ")";
  }
  if (prim == "reduce_precision" && nargs == 1) {
    const std::string e = first_match(body, R"(reduce_precision [^:]*format = e(\d+)m\d+)");
    const std::string m = first_match(body, R"(reduce_precision [^:]*format = e\d+m(\d+))");
    if (e.empty() || m.empty()) return "";
    return "lax.reduce_precision(a, " + e + ", " + m + ")";
  }
  if (prim == "top_k" && nargs == 1) {
    const std::string k = first_match(body, R"(chlo\.top_k\(%[\w#]+, k = (\d+)\))");
    return k.empty() ? "" : "lax.top_k(a, " + k + ")";
  }
  if (prim == "round" && nargs == 1)
    return body.find("round_nearest_even") != std::string::npos
               ? "lax.round(a, lax.RoundingMethod.TO_NEAREST_EVEN)"
               : "lax.round(a)";
  if (prim == "squeeze" && nargs == 1) {
    // The axes squeezed: where the operand has a 1 that the result lacks (left to right).
    const std::string from =
        first_match(body, R"(stablehlo\.reshape %[^:]+: \(tensor<([0-9x]*)x?[a-z])");
    std::string shape, dtype;
    if (!python_type(result_type, shape, dtype)) return "";
    std::vector<std::string> in, out;
    for (auto& d : split_dims(from)) in.push_back(d);
    for (auto& d : split_dims(result_type.substr(7))) out.push_back(d);
    std::string dims;
    std::size_t j = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (j < out.size() && in[i] == out[j] && !(in[i] == "1" && in.size() - i > out.size() - j)) {
        ++j;
        continue;
      }
      dims += (dims.empty() ? "" : ", ") + std::to_string(i);
    }
    return "lax.squeeze(a, (" + dims + ",))";
  }
  if (prim == "rev" && nargs == 1)
    return "lax.rev(a, (" +
           first_match(body, R"(stablehlo\.reverse %[^,]+, dims = \[([0-9, ]*)\])") + ",))";
  if (prim == "transpose" && nargs == 1)
    return "lax.transpose(a, (" + first_match(body, R"(dims = \[([0-9, ]*)\])") + ",))";
  if (prim == "concatenate" && nargs >= 2)
    return "lax.concatenate([" + args + "], " + first_match(body, R"(dim = (\d+))") + ")";
  if (prim == "reshape" && nargs == 1) {
    std::string shape, dtype;
    if (!python_type(result_type, shape, dtype)) return "";
    const std::string perm =
        first_match(body, R"(stablehlo\.transpose %[^,]+, dims = \[([0-9, ]*)\])");
    return "lax.reshape(a, " + shape + (perm.empty() ? "" : ", dimensions=(" + perm + ",)") + ")";
  }
  if (prim == "broadcast_in_dim" && nargs == 1) {
    std::string shape, dtype;
    if (!python_type(result_type, shape, dtype)) return "";
    std::string dims = first_match(body, R"(broadcast_in_dim %[^,]+, dims = \[([0-9, ]*)\])");
    if (body.find("stablehlo.broadcast_in_dim") == std::string::npos)  // no op: the identity
      for (int d = 0; d < rank(shape); ++d) dims += (d ? ", " : "") + std::to_string(d);
    return "lax.broadcast_in_dim(a, " + shape + ", (" + dims +
           (dims.empty() || dims.find(',') != std::string::npos ? ")" : ",)") + ")";
  }
  return "";
}

}  // namespace

TEST_CASE(
    "emitted bodies equal JAX's in the stablehlo-interpret corpus, for every primitive the "
    "language expresses",
    "[python][corpus]") {
  SKIP_WITHOUT_CORPUS("stablehlo-interpret");
  const std::string dir = rl::testing::corpus_dir() + "/stablehlo-interpret";
  std::istringstream manifest(read_text(dir + "/MANIFEST.tsv"));
  std::string row;
  std::getline(manifest, row);  // header
  int files = 0, compared = 0, matched = 0, nb_matched = 0;
  std::map<std::string, int> not_expressible;
  static const std::regex dtype_word(
      R"(^(bool|u?int(8|16|32|64)|b?float(16|32|64)|complex(64|128))$)");
  while (std::getline(manifest, row)) {
    const std::string file = row.substr(0, row.find('\t'));
    if (file.size() < 6 || file.substr(file.size() - 5) != ".mlir") continue;
    ++files;
    // The primitive: the harness's words before the first dtype.
    std::string prim;
    {
      std::istringstream words(file.substr(0, file.size() - 5));
      std::string w;
      while (std::getline(words, w, '_') && !std::regex_match(w, dtype_word))
        prim += (prim.empty() ? "" : "_") + w;
    }
    const std::string text = read_text(dir + "/" + file);
    const auto funcs = functions(text);
    const Func* main = nullptr;
    for (auto& f : funcs)
      if (f.name == "main") main = &f;
    REQUIRE(main);
    // Inputs and the ops under test (between the inputs/expected calls and the checks).
    std::string input_types, input_ssa;
    std::vector<std::string> body;
    bool multi = false;
    for (auto& l : main->body) {
      std::smatch m;
      if (std::regex_search(l, m,
                            std::regex(R"(^(%\w+)(:\d+)? = call @inputs\(\) : \(\) -> (.*)$)"))) {
        input_ssa = m[1].str();
        multi = m[2].matched;
        input_types = m[3].str();
      } else if (l.find("call @expected()") == std::string::npos &&
                 l.find("@check.") == std::string::npos && l.rfind("return ", 0) != 0) {
        body.push_back(l);
      }
    }
    const auto types = split_types(input_types);
    std::string sds;
    bool typed = !input_types.empty();
    for (std::size_t i = 0; typed && i < types.size(); ++i) {
      std::string shape, dtype;
      typed = python_type(types[i], shape, dtype);
      sds += std::string(i ? ", " : "") + "jax.ShapeDtypeStruct(" + shape + ", jnp." + dtype + ")";
    }
    if (!typed) {
      ++not_expressible["complex or no inputs"];
      continue;
    }
    std::string corpus_all = text.substr(text.find("func.func public @main"));
    const std::string result_type = first_match(main->header, R"(-> \((tensor<[^>]*>) \{)");
    const std::string call = python_call(prim, types.size(), corpus_all, result_type);
    if (call.empty()) {
      ++not_expressible["primitive " + prim];
      continue;
    }
    const char* params = "abcdefgh";
    std::string names;
    for (std::size_t i = 0; i < types.size(); ++i) names += std::string(i ? ", " : "") + params[i];
    // The corpus ran with jax_enable_x64 on (its 64-bit inputs and i64 constants say so): the
    // program turns it on too.
    const std::string src =
        "import jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom jax import lax\n"
        "jax.config.update(\"jax_enable_x64\", True)\n\ndef f(" +
        names + "):\n    return " + call + "\n\njax.jit(f).lower(" + sds + ")\n";
    auto lowered = rl::python::lower_source(src);
    if (!lowered.ok()) {
      ++not_expressible["refused: " + lowered.error().substr(lowered.error().find(' ') + 1, 60)];
      continue;
    }
    ++compared;
    // The notebook lowers the same program to the same text: its evaluator runs f's Python and
    // hands each operation on a traced array to the tracer (python/traced.h).
    const std::string nb_src =
        src.substr(0, src.rfind("jax.jit(f)")) + "print(jax.jit(f).lower(" + sds + ").as_text())\n";
    const auto nb = rl::python::run_notebook(nb_src);
    CAPTURE(nb_src, nb.error);
    CHECK(nb.stdout_text == lowered->text + "\n");
    nb_matched += nb.stdout_text == lowered->text + "\n";
    // Corpus: the ops under test (inputs renamed to %argK), then each private function but the
    // inputs and the expectation. Ours: @main's ops, then its private functions.
    std::map<std::string, std::string> fixed;
    for (std::size_t i = 0; i < types.size(); ++i)
      fixed[multi ? input_ssa + "#" + std::to_string(i) : input_ssa] = "%in" + std::to_string(i);
    std::vector<std::string> want_main;
    for (auto& l : body) {
      std::string r = l;
      for (auto& [from, to] : fixed)
        r = std::regex_replace(r, std::regex(from + "(?![0-9A-Za-z_#])"), to);
      want_main.push_back(r);
    }
    // The inputs keep their names (%inK); everything else, region arguments too, is renamed.
    std::map<std::string, std::string> inputs;
    for (std::size_t i = 0; i < types.size(); ++i)
      inputs["%in" + std::to_string(i)] = "%in" + std::to_string(i);
    std::vector<std::string> want = normalize(want_main, inputs);
    for (auto& f : funcs) {
      if (f.name == "main" || f.name == "inputs" || f.name == "expected") continue;
      std::vector<std::string> lines = {f.header};
      lines.insert(lines.end(), f.body.begin(), f.body.end());
      for (auto& l : normalize(lines, {})) want.push_back(l);
    }
    const auto ours = functions(lowered->text);
    std::vector<std::string> got_main;
    for (auto& l : ours[0].body) {
      if (l.rfind("return ", 0) == 0) continue;
      std::string r = l;
      for (std::size_t i = 0; i < types.size(); ++i)
        r = std::regex_replace(r, std::regex("%arg" + std::to_string(i) + "(?![0-9])"),
                               "%in" + std::to_string(i));
      got_main.push_back(r);
    }
    std::vector<std::string> got = normalize(got_main, inputs);
    for (std::size_t k = 1; k < ours.size(); ++k) {
      std::vector<std::string> lines = {ours[k].header};
      lines.insert(lines.end(), ours[k].body.begin(), ours[k].body.end());
      for (auto& l : normalize(lines, {})) got.push_back(l);
    }
    CAPTURE(file, call);
    INFO("ours:\n" << lowered->text);
    if (got == want) {
      ++matched;
    } else {
      std::size_t k = 0;
      while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
      CHECK((k < want.size() ? want[k] : "(end)") == (k < got.size() ? got[k] : "(end)"));
    }
  }
  std::string reasons;
  int skipped = 0;
  for (auto& [why, n] : not_expressible) {
    reasons += "\n  " + std::to_string(n) + " " + why;
    skipped += n;
  }
  WARN("stablehlo-interpret: " << files << " files, " << compared << " compared, " << matched
                               << " matched, " << nb_matched << " the same through the notebook, "
                               << skipped << " not expressible:" << reasons);
  // The count is reported above, not asserted: another corpus may hold more or fewer files.
  CHECK(files > 0);
  CHECK(compared >= 60);
  CHECK(matched == compared);
  CHECK(nb_matched == compared);
}
