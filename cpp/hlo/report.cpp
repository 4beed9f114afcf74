#include "hlo/report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/json_writer.h"
#include "hlo/name_map.h"
#include "hlo/parse.h"
#include "hlo/verify.h"

namespace rl::hlo {

Result<TextAnalysis> analyze_text(std::string text) {
  using R = Result<TextAnalysis>;
  if (text.size() > kMaxTextBytes)
    return R::failure_for("text", "text is " + std::to_string(text.size() >> 20) + " MiB, more than the " +
                                      std::to_string(kMaxTextBytes >> 20) + " MiB the core can analyse at once");
  TextAnalysis out;
  out.dialect = detect_dialect(text);
  auto modules = parse_owned(std::move(text));
  if (!modules) return R::failure_from(modules);
  for (auto& m : modules.value()) {
    ModuleResult r;
    r.name = m.name;
    r.line = m.line;
    auto verified = verify(m);
    r.analysis = verified ? analyze_module(m) : Result<Analysis>::failure_from(verified);
    out.modules.push_back(std::move(r));
    // The module's IR is no longer needed: its analysis keeps what the rows show.
    m = Module();
  }
  return R::success(std::move(out));
}

namespace {

void write_totals(JsonWriter& j, double flops, double trans, double bytes, double unfused,
                  const std::map<int, double>& operand, double output, double coll, double traffic) {
  j.key("totals").begin_object()
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

// One column: the field of every row.
template <class F>
void column(JsonWriter& j, const char* name, const std::vector<OpCost>& rows, F value) {
  j.key(name).numbers(rows.size(), [&](std::size_t i) { return value(rows[i]); });
}

void write_rows(JsonWriter& j, const Analysis& a) {
  // Strings (op spellings, function names, notes) and types are listed once. Function names
  // and notes are already numbered by the analysis; op spellings are numbered here.
  std::vector<std::string_view> strings;
  NameMap<std::uint32_t> ids;
  auto sid = [&](std::string_view s) {
    if (const std::uint32_t* id = ids.find(s)) return *id;
    const auto id = static_cast<std::uint32_t>(strings.size());
    strings.push_back(s);
    ids.insert(s, id);
    return id;
  };
  constexpr std::uint32_t kUnset = ~std::uint32_t(0);
  std::vector<std::uint32_t> fn_ids(a.functions.size(), kUnset), note_ids(a.notes_pool.size(), kUnset);
  std::vector<std::uint32_t> op_ids;
  op_ids.reserve(a.ops.size());
  std::string_view last_op;
  std::uint32_t last_id = 0;
  for (const auto& r : a.ops) {
    // Rows of one op spelling often follow each other; the spelling is a view into the source.
    if (r.op.data() != last_op.data() || r.op.size() != last_op.size()) {
      last_op = r.op;
      last_id = sid(r.op);
    }
    op_ids.push_back(last_id);
    if (fn_ids[r.function] == kUnset) fn_ids[r.function] = sid(a.function(r));
    if (r.note && note_ids[r.note] == kUnset) note_ids[r.note] = sid(a.note(r));
  }
  j.key("rows").begin_object().field("count", static_cast<double>(a.ops.size()));
  j.key("strings").begin_array();
  for (auto s : strings) j.value(s);
  j.end_array();
  j.key("types").begin_array();
  for (const auto& t : a.types) {
    j.begin_object().field("shape", to_string(t, a.dialect));
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
  column(j, "top_level", a.ops, [](const OpCost& r) { return r.top_level ? 1 : 0; });
  column(j, "line", a.ops, [](const OpCost& r) { return r.line; });
  column(j, "column", a.ops, [](const OpCost& r) { return r.column; });
  j.key("op").numbers(op_ids.size(), [&](std::size_t i) { return op_ids[i]; });
  column(j, "type", a.ops, [](const OpCost& r) { return r.type; });
  column(j, "function", a.ops, [&](const OpCost& r) { return fn_ids[r.function]; });
  column(j, "note", a.ops, [&](const OpCost& r) { return r.note ? static_cast<double>(note_ids[r.note]) : -1.0; });
  column(j, "flops", a.ops, [](const OpCost& r) { return r.flops; });
  column(j, "transcendentals", a.ops, [](const OpCost& r) { return r.transcendentals; });
  column(j, "bytes_accessed", a.ops, [](const OpCost& r) { return r.bytes_accessed; });
  column(j, "unfused_bytes_accessed", a.ops, [](const OpCost& r) { return r.unfused_bytes_accessed; });
  column(j, "output_bytes", a.ops, [](const OpCost& r) { return r.output_bytes; });
  column(j, "collective_bytes", a.ops, [](const OpCost& r) { return r.collective_bytes; });
  // No intensity column: web/core.js divides flops by bytes_accessed, the same IEEE division as
  // Analysis::intensity_of (formatting a non-integer double here cost more than all the rest).
  column(j, "modeled", a.ops, [](const OpCost& r) { return r.modeled ? 1 : 0; });
  j.key("operand_bytes").number_lists(a.ops.size(), [&](std::size_t i) { return a.operand_bytes(a.ops[i]); });
  j.end_object();
}

}  // namespace

std::string to_json(const TextAnalysis& t) {
  JsonWriter j;
  std::size_t rows = 0;
  for (const auto& m : t.modules)
    if (m.analysis) rows += m.analysis->ops.size();
  j.reserve(256 + rows * 96);
  j.begin_object().field("dialect", t.dialect);
  double flops = 0, trans = 0, bytes = 0, unfused = 0, output = 0, coll = 0, traffic = 0;
  std::map<int, double> operand;
  std::vector<std::pair<std::string, int>> unmodeled;  // in the order the modules name them
  std::vector<std::string> notes;
  j.key("modules").begin_array();
  for (const auto& m : t.modules) {
    if (!m.analysis) {
      const Error& e = m.analysis.error_info();
      j.begin_object().field("module_name", m.name).field("module_line", m.line).field("error", e.message);
      j.field("message", e.without_place()).field("line", e.line).field("column", e.column).end_object();
      continue;
    }
    const Analysis& a = m.analysis.value();
    j.begin_object().field("module_name", a.module_name).field("entry", a.entry);
    write_rows(j, a);
    write_totals(j, a.flops, a.transcendentals, a.bytes_accessed, a.unfused_bytes_accessed, a.bytes_accessed_operand,
                 a.bytes_accessed_output, a.collective_bytes, a.minimum_traffic_bytes);
    j.key("unmodeled").begin_array();
    for (const auto& [op, count] : a.unmodeled) j.begin_object().field("op", op).field("count", count).end_object();
    j.end_array();
    j.key("notes").begin_array();
    for (const auto& n : a.notes) j.value(n);
    j.end_array();
    j.end_object();
    flops += a.flops;
    trans += a.transcendentals;
    bytes += a.bytes_accessed;
    unfused += a.unfused_bytes_accessed;
    output += a.bytes_accessed_output;
    coll += a.collective_bytes;
    traffic += a.minimum_traffic_bytes;
    for (const auto& [k, v] : a.bytes_accessed_operand) operand[k] += v;
    for (const auto& entry : a.unmodeled) {
      auto it = std::find_if(unmodeled.begin(), unmodeled.end(), [&](const auto& u) { return u.first == entry.first; });
      if (it == unmodeled.end()) unmodeled.push_back(entry);
      else it->second += entry.second;
    }
    notes.insert(notes.end(), a.notes.begin(), a.notes.end());
  }
  j.end_array();
  // The file: its modules summed (the page and the CLI show one program per file).
  write_totals(j, flops, trans, bytes, unfused, operand, output, coll, traffic);
  j.key("unmodeled").begin_array();
  for (const auto& [op, count] : unmodeled) j.begin_object().field("op", op).field("count", count).end_object();
  j.end_array();
  j.key("notes").begin_array();
  for (const auto& n : notes) j.value(n);
  j.end_array();
  j.key("errors").begin_array();
  for (const auto& m : t.modules) {
    if (m.analysis) continue;
    const Error& e = m.analysis.error_info();
    j.begin_object().field("module_name", m.name).field("error", e.message).field("message", e.without_place());
    j.field("line", e.line).field("column", e.column).end_object();
  }
  j.end_array();
  j.end_object();
  return j.take();
}

}  // namespace rl::hlo
