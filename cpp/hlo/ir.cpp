#include "hlo/ir.h"

#include <algorithm>
#include <cctype>

namespace rl::hlo {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 6) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

int bits_to_bytes(std::string_view digits) {
  int bits = 0;
  for (char c : digits) bits = bits * 10 + (c - '0');
  if (bits <= 0) return 0;
  return (bits + 7) / 8;
}

}  // namespace

int element_byte_size(std::string_view n) {
  if (n.empty()) return 0;
  // complex<f32>
  if (n.substr(0, 8) == "complex<" && n.back() == '>') {
    int inner = element_byte_size(n.substr(8, n.size() - 9));
    return inner * 2;
  }
  // !quant.uniform<i8:f32, ...> and i8<-127:127> storage: the storage type's bytes.
  if (n.substr(0, 7) == "!quant.") {
    auto lt = n.find('<');
    if (lt == std::string_view::npos) return 0;
    std::size_t end = lt + 1;
    while (end < n.size() && std::isalnum(static_cast<unsigned char>(n[end]))) ++end;
    return element_byte_size(n.substr(lt + 1, end - lt - 1));
  }
  if (n == "pred" || n == "i1") return 1;
  if (n == "f16" || n == "bf16") return 2;
  if (n == "f32" || n == "tf32") return 4;
  if (n == "f64" || n == "index") return 8;
  if (n == "c64") return 8;
  if (n == "c128") return 16;
  if (n == "token") return 0;
  // f8E4M3FN, f8e5m2, f4E2M1FN, f6E3M2FN, f8E8M0FNU: one byte each as XLA stores them.
  if (n.size() > 2 && n[0] == 'f' && (n[1] == '8' || n[1] == '4' || n[1] == '6') &&
      (n[2] == 'E' || n[2] == 'e'))
    return 1;
  if (n.substr(0, 2) == "si" || n.substr(0, 2) == "ui") {
    return all_digits(n.substr(2)) ? bits_to_bytes(n.substr(2)) : 0;
  }
  if (n[0] == 'i' || n[0] == 's' || n[0] == 'u') {
    return all_digits(n.substr(1)) ? bits_to_bytes(n.substr(1)) : 0;
  }
  return 0;
}

bool Type::is_static() const {
  switch (kind) {
    case Kind::Tensor:
      if (!ranked) return false;
      for (auto d : dims)
        if (d < 0) return false;
      return true;
    case Kind::Element:
    case Kind::Token:
      return true;
    case Kind::Tuple:
      for (const auto& t : tuple)
        if (!t.is_static()) return false;
      return true;
    case Kind::Opaque:
      return false;
  }
  return false;
}

double Type::elements() const {
  if (!is_array() || !is_static()) return -1;
  double n = 1;
  for (auto d : dims) n *= static_cast<double>(d);
  return n;
}

double Type::byte_size() const {
  switch (kind) {
    case Kind::Tensor:
    case Kind::Element: {
      double e = elements();
      return e < 0 ? -1 : e * element_bytes;
    }
    case Kind::Token:
      return 0;
    case Kind::Tuple:
      return 8.0 * static_cast<double>(tuple.size());
    case Kind::Opaque:
      return -1;
  }
  return -1;
}

double Type::leaf_bytes() const {
  if (kind != Kind::Tuple) return byte_size();
  double sum = 0;
  for (const auto& t : tuple) {
    double b = t.leaf_bytes();
    if (b < 0) return -1;
    sum += b;
  }
  return sum;
}

const Attribute* Function::attr(const Op& op, std::string_view n) const {
  for (const auto& a : attributes(op))
    if (a.name == n) return &a;
  return nullptr;
}

std::string_view Function::layout(ValueId v) const {
  auto it = std::lower_bound(layouts.begin(), layouts.end(), v,
                             [](const WrittenLayout& l, ValueId x) { return l.value < x; });
  return it != layouts.end() && it->value == v ? it->layout : std::string_view();
}

std::string Function::value_name(ValueId v) const {
  if (v >= values.size()) return "?";
  const Value& x = values[v];
  std::string s(x.name);
  if (x.grouped) s += "#" + std::to_string(x.index);
  return s;
}

const Function* Module::find(std::string_view n) const {
  for (const auto& f : functions)
    if (f.name == n) return &f;
  return nullptr;
}

const Function* Module::entry() const {
  for (const auto& f : functions)
    if (f.is_entry) return &f;
  return nullptr;
}

std::size_t Module::offset_of(std::string_view view) const {
  if (!source || view.data() < source->data() || view.data() > source->data() + source->size())
    return std::string_view::npos;
  return static_cast<std::size_t>(view.data() - source->data());
}

namespace {

// A dimension as text (std::to_string goes through snprintf in wasm's libc).
void append_int(std::string& out, std::int64_t v) {
  char buffer[24];
  char* p = buffer + sizeof buffer;
  std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) *--p = '-';
  out.append(p, static_cast<std::size_t>(buffer + sizeof buffer - p));
}

void append_key(const Type& t, std::string& key) {
  key += static_cast<char>('0' + static_cast<int>(t.kind));
  if (!t.ranked) key += '*';
  key += t.element;
  key += '[';
  for (auto d : t.dims) {
    append_int(key, d);
    key += ',';
  }
  key += ']';
  if (t.kind == Type::Kind::Tuple) {
    key += '(';
    for (const auto& e : t.tuple) append_key(e, key);
    key += ')';
  }
  // Opaque types differ only by their text; HLO's bounded dimensions (`<=4`, sized by the bound)
  // differ from static ones only in theirs.
  if (t.kind == Type::Kind::Opaque || t.text.find("<=") != std::string::npos) key += t.text;
}

}  // namespace

TypeId TypeTable::intern(Type t) {
  std::string key;
  key.reserve(32 + t.element.size() + 12 * t.dims.size());
  append_key(t, key);
  auto it = by_key_.find(key);
  if (it != by_key_.end()) return it->second;
  const auto id = static_cast<TypeId>(types_->size());
  types_->push_back(std::move(t));
  by_key_.emplace(std::move(key), id);
  return id;
}

const TypeId* TypeTable::find_written(std::string_view written) const {
  return by_written_.find(written);
}

std::string to_string(const Type& type, std::string_view dialect) {
  if (!type.text.empty() || type.kind == Type::Kind::Opaque)
    return type.text;  // opaque: only its text
  std::string out;
  if (type.kind == Type::Kind::Tuple) {
    out = dialect == "hlo" ? "(" : "tuple<";
    for (std::size_t i = 0; i < type.tuple.size(); ++i) {
      if (i) out += ", ";
      out += to_string(type.tuple[i], dialect);
    }
    out += dialect == "hlo" ? ")" : ">";
    return out;
  }
  if (type.kind == Type::Kind::Token) return dialect == "hlo" ? "token[]" : "!stablehlo.token";
  if (dialect == "hlo") {
    out = type.element + "[";
    for (std::size_t i = 0; i < type.dims.size(); ++i) {
      if (i) out += ",";
      out += type.dims[i] < 0 ? "?" : std::to_string(type.dims[i]);
    }
    return out + "]";
  }
  if (type.kind == Type::Kind::Element) return type.element;
  out = "tensor<";
  for (auto d : type.dims) out += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return out + type.element + ">";
}

}  // namespace rl::hlo
