#include "hlo/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <type_traits>

#include "common/json_writer.h"
#include "common/memory.h"
#include "hlo/name_map.h"
#include "hlo/parse.h"
#include "hlo/verify.h"

namespace rl::hlo {

namespace {

std::string mebibytes(std::size_t bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f MiB (%zu bytes)",
                static_cast<double>(bytes) / (1 << 20), bytes);
  return buffer;
}

}  // namespace

Error text_too_big(std::size_t bytes, bool at_least) {
  return Error{std::string("the text is ") + (at_least ? "at least " : "") + mebibytes(bytes) +
                   ", more than the " + mebibytes(kMaxTextBytes) + " the core can analyse at once",
               "text", 0, 0};
}

Result<TextAnalysis> analyze_text(std::string text, const AnalyzeOptions& options) {
  using R = Result<TextAnalysis>;
  if (text.size() > kMaxTextBytes) return R::failure(text_too_big(text.size(), false));
  TextAnalysis out;
  out.dialect = detect_dialect(text);
  auto modules = parse_owned(std::move(text));
  if (!modules) return R::failure_from(modules);
  for (auto& m : modules.value()) {
    ModuleResult r;
    r.name = m.name;
    r.line = m.line;
    auto verified = verify(m);
    r.analysis =
        verified ? analyze_module(std::move(m), options) : Result<Analysis>::failure_from(verified);
    out.modules.push_back(std::move(r));
    // The module's IR is no longer needed: its analysis keeps what the rows show.
    m = Module();
  }
  return R::success(std::move(out));
}

void TextTotals::add(const Analysis& a) {
  flops += a.flops;
  transcendentals += a.transcendentals;
  bytes_accessed += a.bytes_accessed;
  unfused_bytes_accessed += a.unfused_bytes_accessed;
  bytes_accessed_output += a.bytes_accessed_output;
  collective_bytes += a.collective_bytes;
  minimum_traffic_bytes += a.minimum_traffic_bytes;
  for (const auto& [k, v] : a.bytes_accessed_operand) bytes_accessed_operand[k] += v;
  for (const auto& entry : a.unmodeled) {
    auto it = std::find_if(unmodeled.begin(), unmodeled.end(),
                           [&](const auto& u) { return u.first == entry.first; });
    if (it == unmodeled.end())
      unmodeled.push_back(entry);
    else
      it->second += entry.second;
  }
  notes.insert(notes.end(), a.notes.begin(), a.notes.end());
}

double TextTotals::intensity() const {
  return bytes_accessed > 0 ? flops / bytes_accessed : std::numeric_limits<double>::quiet_NaN();
}

namespace {

void write_totals(JsonWriter& j, double flops, double trans, double bytes, double unfused,
                  const std::map<int, double>& operand, double output, double coll,
                  double traffic) {
  j.key("totals")
      .begin_object()
      .field("flops", flops)
      .field("transcendentals", trans)
      .field("bytes_accessed", bytes)
      .field("unfused_bytes_accessed", unfused);
  j.key("bytes_accessed_operand").begin_object();
  for (const auto& [index, b] : operand) j.field(std::to_string(index), b);
  j.end_object();
  j.field("bytes_accessed_output", output)
      .field("collective_bytes", coll)
      .field("minimum_traffic_bytes", traffic)
      .field("intensity", bytes > 0 ? flops / bytes : std::numeric_limits<double>::quiet_NaN())
      .end_object();
}

// The strings a module's rows refer to (op spellings, function names, notes), each listed
// once, and every row's indices into them. Function names and notes are numbered by the
// analysis already; op spellings are numbered here.
struct RowStrings {
  std::vector<std::string_view> strings;
  std::vector<std::uint32_t> op, fn, note;  // by row, by function index, by note index
  std::vector<std::string> shapes;          // by type, as the dialect prints it
};

RowStrings number_strings(const Analysis& a) {
  RowStrings out;
  NameMap<std::uint32_t> ids;
  auto sid = [&](std::string_view s) {
    if (const std::uint32_t* id = ids.find(s)) return *id;
    const auto id = static_cast<std::uint32_t>(out.strings.size());
    out.strings.push_back(s);
    ids.insert(s, id);
    return id;
  };
  constexpr std::uint32_t kUnset = ~std::uint32_t(0);
  out.fn.assign(a.functions.size(), kUnset);
  out.note.assign(a.notes_pool.size(), kUnset);
  out.op.reserve(a.ops.size());
  std::string_view last_op;
  std::uint32_t last_id = 0;
  for (const auto& r : a.ops) {
    // Rows of one op spelling often follow each other; the spelling is a view into the source.
    if (r.op.data() != last_op.data() || r.op.size() != last_op.size()) {
      last_op = r.op;
      last_id = sid(r.op);
    }
    out.op.push_back(last_id);
    if (out.fn[r.function] == kUnset) out.fn[r.function] = sid(a.function(r));
    if (const std::uint32_t n = a.note_index(r); n && out.note[n] == kUnset)
      out.note[n] = sid(a.note(r));
  }
  out.shapes.reserve(a.types.size());
  for (const auto& t : a.types) out.shapes.push_back(to_string(t, a.dialect));
  return out;
}

// The number columns, in the order they are written: f(name, integer, value of row i); the
// integer ones fit 32 bits.
template <class F>
void for_each_column(const Analysis& a, const RowStrings& ids, F f) {
  const std::vector<OpCost>& r = a.ops;
  f("top_level", true, [&](std::size_t i) { return r[i].top_level ? 1.0 : 0.0; });
  f("line", true, [&](std::size_t i) { return static_cast<double>(r[i].line); });
  f("column", true, [&](std::size_t i) { return static_cast<double>(r[i].column); });
  f("op", true, [&](std::size_t i) { return static_cast<double>(ids.op[i]); });
  f("type", true, [&](std::size_t i) { return static_cast<double>(r[i].type); });
  f("function", true, [&](std::size_t i) { return static_cast<double>(ids.fn[r[i].function]); });
  f("note", true, [&](std::size_t i) {
    const std::uint32_t n = a.note_index(r[i]);
    return n ? static_cast<double>(ids.note[n]) : -1.0;
  });
  f("flops", false, [&](std::size_t i) { return r[i].flops; });
  f("transcendentals", false, [&](std::size_t i) { return r[i].transcendentals; });
  f("bytes_accessed", false, [&](std::size_t i) { return r[i].bytes_accessed; });
  f("unfused_bytes_accessed", false, [&](std::size_t i) { return a.unfused_bytes(r[i]); });
  f("output_bytes", false, [&](std::size_t i) { return r[i].output_bytes; });
  f("collective_bytes", false, [&](std::size_t i) { return a.collective_bytes_of(r[i]); });
  // No intensity column: web/core.js divides flops by bytes_accessed, the same IEEE division as
  // Analysis::intensity_of (formatting a non-integer double here cost more than all the rest).
  f("modeled", true, [&](std::size_t i) { return r[i].modeled ? 1.0 : 0.0; });
}

// The rows' operand byte lists for a RowColumnSink: each distinct list once (rows of one kind of
// op share theirs), as `operand_bytes` (the lists' values one after another),
// `operand_bytes_start` (list k is values [start[k], start[k + 1])) and `operand_bytes_list`
// (each row's list).
void send_operand_bytes(const Analysis& a, std::size_t module, RowColumnSink& sink) {
  std::vector<double> values;
  std::vector<std::int32_t> start{0}, list;
  list.reserve(a.ops.size());
  NameMap<std::uint32_t> known;  // a list's bytes (a view into the analysis's pool) → its index
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const Span<double> l = a.operand_bytes(i);
    const std::string_view key(reinterpret_cast<const char*>(l.ptr), l.size() * sizeof(double));
    if (const std::uint32_t* k = known.find(key)) {
      list.push_back(static_cast<std::int32_t>(*k));
      continue;
    }
    const auto k = static_cast<std::uint32_t>(start.size() - 1);
    known.insert(key, k);
    values.insert(values.end(), l.begin(), l.end());
    start.push_back(static_cast<std::int32_t>(values.size()));
    list.push_back(static_cast<std::int32_t>(k));
  }
  sink.column(module, "operand_bytes", values);
  sink.column(module, "operand_bytes_start", start);
  sink.column(module, "operand_bytes_list", list);
}

// Bytes of `s` written as a JSON string (JsonWriter's escapes), with a comma.
std::size_t string_room(std::string_view s) {
  std::size_t n = s.size() + 3;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t')
      n += 1;
    else if (c < 0x20)
      n += 5;
  }
  return n;
}

// An upper bound on what write_rows writes (exact for the number columns, the bulk), so the
// text is reserved once and never copied while it grows.
std::size_t rows_room(const Analysis& a, const RowStrings& ids, bool with_columns) {
  std::size_t n = 256;
  for (auto s : ids.strings) n += string_room(s);
  for (std::size_t k = 0; k < a.types.size(); ++k) {
    const Type& t = a.types[k];
    const Type* leaf = t.kind == Type::Kind::Tuple && !t.tuple.empty() ? &t.tuple.front() : &t;
    n += 96 + string_room(ids.shapes[k]) + string_room(leaf->element) + 21 * leaf->dims.size();
  }
  if (!with_columns) return n;
  for_each_column(a, ids, [&](const char* name, bool, auto value_of) {
    n += string_room(name) + 2 + JsonWriter::numbers_length(a.ops.size(), value_of);
  });
  n += 32 + JsonWriter::number_lists_length(a.ops.size(),
                                            [&](std::size_t i) { return a.operand_bytes(i); });
  return n;
}

// The rows object; its number columns go to `sink` when there is one.
void write_rows(JsonWriter& j, const Analysis& a, const RowStrings& ids, std::size_t module,
                RowColumnSink* sink) {
  j.key("rows").begin_object().field("count", static_cast<double>(a.ops.size()));
  j.key("strings").begin_array();
  for (auto s : ids.strings) j.value(s);
  j.end_array();
  j.key("types").begin_array();
  for (std::size_t k = 0; k < a.types.size(); ++k) {
    const Type& t = a.types[k];
    j.begin_object().field("shape", ids.shapes[k]);
    const Type* leaf = &t;
    if (t.kind == Type::Kind::Tuple && !t.tuple.empty()) leaf = &t.tuple.front();
    if (leaf->is_array()) {
      j.field("element_type", leaf->element);
      j.key("dims").begin_array();
      for (auto d : leaf->dims) j.integer(d);
      j.end_array();
    } else {
      j.key("element_type").null();
      j.key("dims").null();
    }
    j.end_object();
  }
  j.end_array();
  if (!sink) {
    for_each_column(a, ids, [&](const char* name, bool, auto value_of) {
      j.key(name).numbers(a.ops.size(), value_of);
    });
    j.key("operand_bytes").number_lists(a.ops.size(), [&](std::size_t i) {
      return a.operand_bytes(i);
    });
    j.end_object();
    return;
  }
  j.end_object();
  std::vector<double> reals;
  std::vector<std::int32_t> ints;
  for_each_column(a, ids, [&](const char* name, bool integer, auto value_of) {
    const std::size_t n = a.ops.size();
    if (integer) {
      ints.resize(n);
      for (std::size_t i = 0; i < n; ++i) ints[i] = static_cast<std::int32_t>(value_of(i));
      sink->column(module, name, ints);
    } else {
      // Counts that are all 32-bit integers (most columns of most modules) go as integers:
      // JavaScript keeps those unboxed, where a double read into an object is a heap number.
      reals.resize(n);
      bool small = true;
      for (std::size_t i = 0; i < n; ++i) {
        const double x = value_of(i);
        reals[i] = x;
        small = small && x >= -2147483648.0 && x <= 2147483647.0 &&
                static_cast<double>(static_cast<std::int32_t>(x)) == x &&
                !(x == 0 && std::signbit(x));
      }
      if (small) {
        ints.resize(n);
        for (std::size_t i = 0; i < n; ++i) ints[i] = static_cast<std::int32_t>(reals[i]);
        sink->column(module, name, ints);
      } else {
        sink->column(module, name, reals);
      }
    }
  });
  send_operand_bytes(a, module, *sink);
}

// Room for what a module writes besides its rows, or the file's totals (notes and op names
// in unmodeled lists are the only parts that grow).
std::size_t meta_room(const Analysis& a) {
  std::size_t n = 2048 + string_room(a.module_name) + string_room(a.entry);
  for (const auto& [op, count] : a.unmodeled) n += 32 + string_room(op);
  for (const auto& note : a.notes) n += 2 * string_room(note);  // in the module and the file
  return 2 * n;
}

}  // namespace

namespace {

// The JSON. A non-const analysis is consumed: each module's analysis is freed once written (a
// big text's rows and its JSON need not be in memory together).
template <class Text>
Result<std::string> write_json(Text& t, RowColumnSink* sink) {
  JsonWriter j;
  // Every module's strings numbered first, and the text reserved once: a big text's JSON is
  // never copied while it grows (that would hold it twice).
  std::vector<RowStrings> ids(t.modules.size());
  std::size_t room = 4096;
  for (std::size_t i = 0; i < t.modules.size(); ++i) {
    const auto& m = t.modules[i];
    if (!m.analysis) {
      room += 256 + 2 * string_room(m.name) + 4 * string_room(m.analysis.error());
      continue;
    }
    ids[i] = number_strings(m.analysis.value());
    room += rows_room(m.analysis.value(), ids[i], sink == nullptr) + meta_room(m.analysis.value());
  }
  // The text, and with a sink the largest column (8 bytes a row), must fit in the heap.
  std::size_t rows = 0;
  for (const auto& m : t.modules)
    if (m.analysis) rows = std::max(rows, m.analysis.value().ops.size());
  const std::size_t need = room + (sink ? 12 * rows : 0);
  if (!memory::fits(need)) {
    return Result<std::string>::failure(
        "the analysis is too big for the core's memory: writing it needs about " +
        std::to_string(need >> 20) + " MiB more, with " + std::to_string(memory::in_use() >> 20) +
        " MiB of the " + std::to_string(memory::limit() >> 20) + " MiB the core has in use");
  }
  j.reserve(room);
  j.begin_object().field("dialect", t.dialect);
  TextTotals sum;
  j.key("modules").begin_array();
  for (std::size_t i = 0; i < t.modules.size(); ++i) {
    auto& m = t.modules[i];
    if (!m.analysis) {
      const Error& e = m.analysis.error_info();
      j.begin_object()
          .field("module_name", m.name)
          .field("module_line", m.line)
          .field("error", e.message);
      j.field("message", e.without_place())
          .field("line", e.line)
          .field("column", e.column)
          .end_object();
      continue;
    }
    const Analysis& a = m.analysis.value();
    j.begin_object().field("module_name", a.module_name).field("entry", a.entry);
    write_rows(j, a, ids[i], i, sink);
    std::vector<std::uint32_t>().swap(ids[i].op);
    write_totals(j, a.flops, a.transcendentals, a.bytes_accessed, a.unfused_bytes_accessed,
                 a.bytes_accessed_operand, a.bytes_accessed_output, a.collective_bytes,
                 a.minimum_traffic_bytes);
    j.key("unmodeled").begin_array();
    for (const auto& [op, count] : a.unmodeled)
      j.begin_object().field("op", op).field("count", count).end_object();
    j.end_array();
    j.key("notes").begin_array();
    for (const auto& n : a.notes) j.value(n);
    j.end_array();
    j.end_object();
    sum.add(a);
    if constexpr (!std::is_const_v<Text>) m.analysis.value() = Analysis();
  }
  j.end_array();
  // The file: its modules summed (the page and the CLI show one program per file).
  write_totals(j, sum.flops, sum.transcendentals, sum.bytes_accessed, sum.unfused_bytes_accessed,
               sum.bytes_accessed_operand, sum.bytes_accessed_output, sum.collective_bytes,
               sum.minimum_traffic_bytes);
  j.key("unmodeled").begin_array();
  for (const auto& [op, count] : sum.unmodeled)
    j.begin_object().field("op", op).field("count", count).end_object();
  j.end_array();
  j.key("notes").begin_array();
  for (const auto& n : sum.notes) j.value(n);
  j.end_array();
  j.key("errors").begin_array();
  for (const auto& m : t.modules) {
    if (m.analysis) continue;
    const Error& e = m.analysis.error_info();
    j.begin_object()
        .field("module_name", m.name)
        .field("error", e.message)
        .field("message", e.without_place());
    j.field("line", e.line).field("column", e.column).end_object();
  }
  j.end_array();
  j.end_object();
  return Result<std::string>::success(j.take());
}

}  // namespace

// Natively (no heap limit) the plain forms cannot fail; in wasm a text that big is refused
// earlier (kMaxTextBytes, the analysis's own checks), and they keep their simple signature.
std::string to_json(const TextAnalysis& t) {
  auto j = write_json(t, nullptr);
  return j ? std::move(j.value()) : std::string();
}
std::string to_json(TextAnalysis&& t) {
  auto j = write_json(t, nullptr);
  return j ? std::move(j.value()) : std::string();
}
Result<std::string> to_json(TextAnalysis&& t, RowColumnSink& columns) {
  return write_json(t, &columns);
}

namespace {

void write_fused_totals(JsonWriter& j, const char* key, double flops, double trans, double bytes) {
  j.key(key)
      .begin_object()
      .field("flops", flops)
      .field("transcendentals", trans)
      .field("bytes_accessed", bytes)
      .end_object();
}

}  // namespace

Result<std::string> fused_json(std::string text, const FuseOptions& options) {
  using R = Result<std::string>;
  if (text.size() > kMaxTextBytes) return R::failure(text_too_big(text.size(), false));
  const std::string dialect = detect_dialect(text);
  auto modules = parse_owned(std::move(text));
  if (!modules) return R::failure_from(modules);
  JsonWriter j;
  j.begin_object().field("dialect", dialect);
  double flops = 0, trans = 0, unfused = 0, fused = 0;
  std::vector<std::pair<std::string, Error>> errors;
  j.key("modules").begin_array();
  for (auto& m : modules.value()) {
    auto verified = verify(m);
    Result<FusedModule> x =
        verified ? fuse_module(m, options) : Result<FusedModule>::failure_from(verified);
    if (!x) {
      const Error& e = x.error_info();
      errors.emplace_back(m.name, e);
      j.begin_object()
          .field("module_name", m.name)
          .field("module_line", m.line)
          .field("error", e.message);
      j.field("message", e.without_place())
          .field("line", e.line)
          .field("column", e.column)
          .end_object();
      continue;
    }
    const FusedModule& f = x.value();
    const Analysis& a = f.analysis;
    flops += a.flops;
    trans += a.transcendentals;
    unfused += a.unfused_bytes_accessed;
    fused += a.bytes_accessed;
    j.begin_object()
        .field("module_name", a.module_name)
        .field("entry", a.entry)
        .field("already_fused", f.already_fused)
        .field("calls_inlined", static_cast<double>(f.calls_inlined))
        .field("calls_kept", static_cast<double>(f.calls_kept));
    j.field("text", f.text);
    write_fused_totals(j, "totals", a.flops, a.transcendentals, a.unfused_bytes_accessed);
    write_fused_totals(j, "fused_totals", a.flops, a.transcendentals, a.bytes_accessed);
    j.key("fusions").begin_array();
    for (const auto& fu : f.fusions) {
      j.begin_object().field("name", fu.name).field("kind", fu.kind_name);
      j.field("function", std::string(a.functions.size() > fu.function ? a.functions[fu.function]
                                                                       : std::string_view()));
      j.key("ops").begin_array();
      for (const auto& o : fu.ops)
        j.begin_object()
            .field("line", o.line)
            .field("column", o.column)
            .field("op", o.op)
            .end_object();
      j.end_array();
      j.field("flops", fu.flops)
          .field("transcendentals", fu.transcendentals)
          .field("bytes_accessed", fu.bytes_accessed);
      j.field("unfused_bytes_accessed", fu.unfused_bytes_accessed)
          .field("bytes_saved", fu.unfused_bytes_accessed - fu.bytes_accessed)
          .end_object();
    }
    j.end_array().end_object();
    m = Module();
  }
  j.end_array();
  write_fused_totals(j, "totals", flops, trans, unfused);
  write_fused_totals(j, "fused_totals", flops, trans, fused);
  j.key("errors").begin_array();
  for (const auto& [name, e] : errors)
    j.begin_object()
        .field("module_name", name)
        .field("error", e.message)
        .field("message", e.without_place())
        .field("line", e.line)
        .field("column", e.column)
        .end_object();
  j.end_array().end_object();
  return R::success(j.take());
}

}  // namespace rl::hlo
