#include "interp/npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace rl::interp {

using hlo::ElementType;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;
// NumPy itself refuses headers over 10,000 bytes unless told otherwise (np.load's
// max_header_size); a real header is ~100 bytes. We allow 64 KiB and say so past it.
constexpr std::size_t kMaxHeaderBytes = 65536;
constexpr std::size_t kMaxRank = 64;

struct Kind {
  char code;  // 'b', 'i', 'u', 'f', 'c'
  int bytes;
  ElementType type;
  const char* numpy;  // NumPy's dtype name
};
constexpr Kind kKinds[] = {
    {'b', 1, ElementType::Pred, "bool"},     {'i', 1, ElementType::S8, "int8"},
    {'i', 2, ElementType::S16, "int16"},     {'i', 4, ElementType::S32, "int32"},
    {'i', 8, ElementType::S64, "int64"},     {'u', 1, ElementType::U8, "uint8"},
    {'u', 2, ElementType::U16, "uint16"},    {'u', 4, ElementType::U32, "uint32"},
    {'u', 8, ElementType::U64, "uint64"},    {'f', 2, ElementType::F16, "float16"},
    {'f', 4, ElementType::F32, "float32"},   {'f', 8, ElementType::F64, "float64"},
    {'c', 8, ElementType::C64, "complex64"}, {'c', 16, ElementType::C128, "complex128"},
};

const Kind* kind_of(ElementType t) {
  for (const Kind& k : kKinds)
    if (k.type == t) return &k;
  return nullptr;
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s.substr(0, 40))
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  if (s.size() > 40) out += "...";
  return out + "\"";
}

// The header dict, read as the Python literal it is (strings, True/False, ints, tuples).
class HeaderReader {
 public:
  explicit HeaderReader(std::string_view s) : s_(s) {}

  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool at_end() {
    skip();
    return i_ >= s_.size();
  }
  std::size_t offset() const { return i_; }
  bool string(std::string* out) {
    skip();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return false;
    const char q = s_[i_++];
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') return false;  // NumPy's header strings never need escapes
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    *out = std::string(s_.substr(start, i_ - start));
    ++i_;
    return true;
  }
  bool word(std::string_view w) {
    skip();
    if (s_.substr(i_, w.size()) != w) return false;
    const std::size_t end = i_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_'))
      return false;
    i_ = end;
    return true;
  }
  // A non-negative integer (Python 2's "16L" too), at most 2^62.
  bool integer(std::int64_t* out) {
    skip();
    std::size_t j = i_;
    std::int64_t v = 0;
    while (j < s_.size() && s_[j] >= '0' && s_[j] <= '9') {
      if (v > (std::int64_t(1) << 62) / 10) return false;
      v = v * 10 + (s_[j] - '0');
      ++j;
    }
    if (j == i_) return false;
    if (j < s_.size() && s_[j] == 'L') ++j;
    i_ = j;
    *out = v;
    return true;
  }
  std::string rest() const { return quoted(s_.substr(std::min(i_, s_.size()))); }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

std::uint32_t le(const std::string_view& s, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int b = bytes - 1; b >= 0; --b)
    v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(b)]);
  return v;
}

}  // namespace

std::string npy_descr(ElementType t) {
  const Kind* k = kind_of(t);
  if (!k) return "";
  return std::string(k->bytes == 1 ? "|" : "<") + k->code + std::to_string(k->bytes);
}

std::string numpy_spelling(ElementType t, const std::vector<std::int64_t>& dims) {
  const Kind* k = kind_of(t);
  std::string out = k ? k->numpy : std::string(hlo::element_info(t).mlir);
  out += " (";
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  if (dims.size() == 1) out += ",";
  return out + ")";
}

Result<HostArray> read_npy(std::string_view f, std::string_view name) {
  using R = Result<HostArray>;
  const std::string who(name);
  if (f.size() < kMagicBytes + 4 || std::memcmp(f.data(), kMagic, kMagicBytes) != 0)
    return R::failure_for(
        who, who +
                 ": not a .npy file: a .npy file starts with \\x93NUMPY (np.save writes it), got " +
                 (f.size() < kMagicBytes ? std::to_string(f.size()) + " bytes"
                                         : quoted(f.substr(0, kMagicBytes))));
  const int major = static_cast<unsigned char>(f[6]), minor = static_cast<unsigned char>(f[7]);
  if (major < 1 || major > 3 || minor != 0)
    return R::failure_for(who, who + ": .npy version must be 1.0, 2.0 or 3.0, got " +
                                   std::to_string(major) + "." + std::to_string(minor));
  const int len_bytes = major == 1 ? 2 : 4;
  if (f.size() < 8 + static_cast<std::size_t>(len_bytes))
    return R::failure_for(who, who + ": the file ends inside its header length (" +
                                   std::to_string(f.size()) + " bytes)");
  const std::size_t header_len = le(f, 8, len_bytes);
  const std::size_t data_at = 8 + static_cast<std::size_t>(len_bytes) + header_len;
  if (header_len > kMaxHeaderBytes)
    return R::failure_for(who, who + ": the header must be at most " +
                                   std::to_string(kMaxHeaderBytes) + " bytes, got " +
                                   std::to_string(header_len));
  if (data_at > f.size())
    return R::failure_for(who,
                          who + ": the header says " + std::to_string(header_len) +
                              " bytes but the file ends after " +
                              std::to_string(f.size() - 8 - static_cast<std::size_t>(len_bytes)));
  HeaderReader h(f.substr(8 + static_cast<std::size_t>(len_bytes), header_len));
  auto bad = [&](const std::string& what) {
    return R::failure_for(
        who,
        who + ": the header must be a dict {'descr': ..., 'fortran_order': ..., 'shape': (...)}: " +
            what + " at byte " + std::to_string(h.offset()) + ", got " + h.rest());
  };
  std::string descr;
  bool fortran = false, have_descr = false, have_order = false, have_shape = false;
  std::vector<std::int64_t> dims;
  if (!h.eat('{')) return bad("expected {");
  while (!h.eat('}')) {
    std::string key;
    if (!h.string(&key)) return bad("expected a quoted key");
    if (!h.eat(':')) return bad("expected : after '" + key + "'");
    if (key == "descr") {
      if (!h.string(&descr))
        return R::failure_for(who, who +
                                       ": descr must be one type such as '<f4' (a structured dtype "
                                       "is not an array of numbers), got " +
                                       h.rest());
      have_descr = true;
    } else if (key == "fortran_order") {
      if (h.word("True"))
        fortran = true;
      else if (h.word("False"))
        fortran = false;
      else
        return bad("fortran_order must be True or False");
      have_order = true;
    } else if (key == "shape") {
      if (!h.eat('(')) return bad("shape must be a tuple");
      while (!h.eat(')')) {
        std::int64_t d = 0;
        if (!h.integer(&d)) return bad("shape must hold non-negative integers");
        if (dims.size() == kMaxRank)
          return bad("shape must have at most " + std::to_string(kMaxRank) + " dimensions");
        dims.push_back(d);
        if (!h.eat(',')) {
          if (!h.eat(')')) return bad("expected , or ) in shape");
          break;
        }
      }
      have_shape = true;
    } else {
      return bad("unknown key '" + key + "'");
    }
    if (!h.eat(',')) {
      if (!h.eat('}')) return bad("expected , or }");
      break;
    }
  }
  if (!h.at_end()) return bad("text after the dict");
  if (!have_descr || !have_order || !have_shape)
    return bad(std::string("missing key '") +
               (!have_descr   ? "descr"
                : !have_order ? "fortran_order"
                              : "shape") +
               "'");
  if (fortran)
    return R::failure_for(
        who,
        who +
            ": the data must be in C order (fortran_order False), got fortran_order True: save "
            "np.ascontiguousarray(x) instead");
  // descr: a byte-order mark, a kind letter and a size in bytes.
  const Kind* kind = nullptr;
  bool swap = false;
  if (descr.size() >= 3 &&
      (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=')) {
    const std::string size = descr.substr(2);
    for (const Kind& k : kKinds)
      if (k.code == descr[1] && size == std::to_string(k.bytes)) kind = &k;
    swap = descr[0] == '>' && kind && kind->bytes > 1;
  }
  if (!kind)
    return R::failure_for(
        who,
        who +
            ": descr must be a number type — bool (|b1), int8..int64 (<i1..<i8), uint8..uint64, "
            "float16/32/64 (<f2 <f4 <f8) or complex64/128 (<c8 <c16) — got '" +
            descr + "'" +
            (descr.size() > 1 && descr[1] == 'V'
                 ? " (bfloat16 and the float8 types from ml_dtypes save as "
                   "raw bytes: save x.astype(np.float32) instead)"
                 : ""));
  std::uint64_t n = 1;
  for (auto d : dims) {
    if (d != 0 && n > (std::uint64_t(1) << 62) / static_cast<std::uint64_t>(d))
      return R::failure_for(who, who + ": the shape's element count must fit in 62 bits, got " +
                                     numpy_spelling(kind->type, dims));
    n *= static_cast<std::uint64_t>(d);
  }
  const std::uint64_t have = f.size() - data_at;
  if (n > have / static_cast<std::uint64_t>(kind->bytes) ||
      n * static_cast<std::uint64_t>(kind->bytes) != have)
    return R::failure_for(who, who + ": the shape " + numpy_spelling(kind->type, dims) + " needs " +
                                   std::to_string(n) + " × " + std::to_string(kind->bytes) +
                                   " bytes of data, got " + std::to_string(have));
  HostArray out;
  out.type = kind->type;
  out.dims = std::move(dims);
  out.name = who;
  out.bytes.assign(f.data() + data_at, f.size() - data_at);
  if (swap) {
    // complex: each half swapped on its own
    const std::size_t unit = kind->code == 'c' ? static_cast<std::size_t>(kind->bytes) / 2
                                               : static_cast<std::size_t>(kind->bytes);
    for (std::size_t at = 0; at + unit <= out.bytes.size(); at += unit)
      std::reverse(out.bytes.begin() + static_cast<std::ptrdiff_t>(at),
                   out.bytes.begin() + static_cast<std::ptrdiff_t>(at + unit));
  }
  if (kind->type == ElementType::Pred)
    for (std::size_t i = 0; i < out.bytes.size(); ++i)
      if (static_cast<unsigned char>(out.bytes[i]) > 1)
        return R::failure_for(who, who + ": a bool element must be 0 or 1, got " +
                                       std::to_string(static_cast<unsigned char>(out.bytes[i])) +
                                       " at element " + std::to_string(i));
  return R::success(std::move(out));
}

Result<std::string> write_npy(ElementType type, const std::vector<std::int64_t>& dims,
                              const std::uint8_t* data) {
  using R = Result<std::string>;
  const Kind* k = kind_of(type);
  if (!k)
    return R::failure(std::string("a .npy file holds bool, int8..int64, uint8..uint64, "
                                  "float16/32/64 or complex64/128, got ") +
                      std::string(hlo::element_info(type).mlir) + " (NumPy has no descr for it)");
  std::string header = "{'descr': '" + npy_descr(type) + "', 'fortran_order': False, 'shape': (";
  std::uint64_t n = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    header += (i ? ", " : "") + std::to_string(dims[i]);
    n *= static_cast<std::uint64_t>(dims[i]);
  }
  header += dims.size() == 1 ? ",), }" : "), }";
  // Pad with spaces so magic + version + length + header + '\n' is a multiple of 64.
  const std::size_t unpadded = kMagicBytes + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 65535)
    return R::failure("the .npy header must fit in 65535 bytes, got " +
                      std::to_string(header.size()));
  std::string out(kMagic, kMagicBytes);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(data),
             static_cast<std::size_t>(n) * static_cast<std::size_t>(k->bytes));
  return R::success(std::move(out));
}

}  // namespace rl::interp
