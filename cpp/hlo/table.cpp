#include "hlo/table.h"

#include <cmath>
#include <string_view>

#include "common/float16.h"
#include "common/loop_body.h"
#include "common/numbers.h"

namespace rl::hlo {

namespace {

constexpr const char* kHeader[7] = {"line",  "op",       "shape", "flops", "transcendentals",
                                    "bytes", "intensity"};
constexpr std::string_view kUnmodeled = " (unmodeled)";
constexpr std::string_view kDash = "\u2014";  // "—": one UTF-16 unit, three bytes

// Length in UTF-16 units (what JavaScript's padStart and padEnd count) of UTF-8 text.
std::size_t units(std::string_view s) {
  std::size_t n = 0;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) != 0x80) ++n;  // a character's first byte
    if (c >= 0xF0) ++n;           // four bytes: a surrogate pair
  }
  return n;
}

// A count as the table writes it: "—" when not finite, an integer below 10^15 as written, from
// 10^15 in exponent form with 4 significant digits, else 4 significant digits.
std::string& count_text(std::string& out, double x) {
  if (!std::isfinite(x)) return out += kDash;
  if (std::fabs(x) < 1e15) {
    if (std::floor(x) == x) return js_integer(out, x);
    return js_precision(out, x, 4);
  }
  return js_exponential(out, x, 4);
}

// A fraction (an intensity) as the table writes it: "—" when not finite, an integer below
// 10^15 as written, else 4 significant digits.
std::string& short_text(std::string& out, double x) {
  if (!std::isfinite(x)) return out += kDash;
  if (std::floor(x) == x && std::fabs(x) < 1e15) return js_integer(out, x);
  return js_precision(out, x, 4);
}

// An op's intensity: flops per byte, none without bytes or when either count or the ratio is not
// finite.
double row_intensity(const OpCost& r) {
  if (!(std::isfinite(r.bytes_accessed) && r.bytes_accessed > 0) || !std::isfinite(r.flops))
    return NAN;
  return r.flops / r.bytes_accessed;
}

std::size_t digits(int line) {
  std::size_t n = line < 0 ? 2 : 1;
  for (unsigned v = line < 0 ? 0u - static_cast<unsigned>(line) : static_cast<unsigned>(line);
       v >= 10; v /= 10)
    ++n;
  return n;
}

void pad(std::string& out, std::size_t have, std::size_t width) {
  if (have < width) out.append(width - have, ' ');
}

std::vector<std::string> shapes_of(const Analysis& a) {
  std::vector<std::string> out;
  out.reserve(a.types.size());
  for (const auto& t : a.types) out.push_back(to_string(t, a.dialect));
  return out;
}

}  // namespace

const OpTable::Cell& OpTable::cell(double x, bool is_short) {
  const std::uint64_t bits = double_bits(x);
  Cell& c = cells_[(bits ^ (bits >> 29) ^ (bits >> 43) ^ (is_short ? 1 : 0)) % kCells];
  if (c.used && c.bits == bits && c.is_short == is_short) return c;
  c.used = true;
  c.bits = bits;
  c.is_short = is_short;
  c.text.clear();
  if (is_short)
    short_text(c.text, x);
  else
    count_text(c.text, x);
  c.units = units(c.text);
  return c;
}

// Out of line, as write_row (common/loop_body.h): called once per row of a table of a million.
RL_LOOP_BODY void OpTable::widen_to(const OpCost& r, std::size_t op_units,
                                    std::size_t shape_units) {
  auto widen = [&](std::size_t c, std::size_t n) {
    if (n > width_[c]) width_[c] = n;
  };
  widen(0, digits(r.line));
  widen(1, op_units + (r.modeled ? 0 : kUnmodeled.size()));
  widen(2, shape_units);
  const double numbers[3] = {r.flops, r.transcendentals, r.bytes_accessed};
  for (std::size_t c = 0; c < 3; ++c) widen(3 + c, cell(numbers[c], false).units);
  widen(6, cell(row_intensity(r), true).units);
}

OpTable::OpTable(TextAnalysis&& analysis) : analysis_(std::move(analysis)) {
  for (std::size_t c = 0; c < 7; ++c) width_[c] = std::string_view(kHeader[c]).size();
  // The loop over a module's rows is a function of its own (common/loop_body.h): inlined here it
  // made V8 optimize the caller that analyses the text, called once.
  const auto widen_all_fn = out_of_line(&OpTable::widen_all);
  for (const auto& m : analysis_.modules) {
    if (!m.analysis) continue;
    const Analysis& a = m.analysis.value();
    ++analysed_;
    totals_.add(a);
    rows_ += a.ops.size();
    (this->*widen_all_fn)(a);
  }
}

// Every row's cells against the columns' widths.
RL_LOOP_BODY void OpTable::widen_all(const Analysis& a) {
  std::vector<std::size_t> shape_units(a.types.size(), 0);
  std::vector<bool> shape_seen(a.types.size(), false);
  std::string_view last_op;
  std::size_t last_op_units = 0;
  const auto widen_fn = out_of_line(&OpTable::widen_to);  // common/loop_body.h
  for (const auto& r : a.ops) {
    if (r.op.data() != last_op.data() || r.op.size() != last_op.size()) {
      last_op = r.op;
      last_op_units = units(r.op);
    }
    if (!shape_seen[r.type]) {
      shape_seen[r.type] = true;
      shape_units[r.type] = units(to_string(a.types[r.type], a.dialect));
    }
    (this->*widen_fn)(r, last_op_units, shape_units[r.type]);
  }
}

RL_LOOP_BODY void OpTable::write_row(std::string& out, const OpCost& r) {
  auto right = [&](std::size_t c) {
    // cell_ holds the cell: padded on the left.
    pad(out, units(cell_), width_[c]);
    out += cell_;
  };
  cell_.clear();
  js_integer(cell_, r.line);
  right(0);
  out += "  ";
  out += r.op;
  std::size_t n = units(r.op);
  if (!r.modeled) {
    out += kUnmodeled;
    n += kUnmodeled.size();
  }
  pad(out, n, width_[1]);
  out += "  ";
  const std::string& shape = shapes_[r.type];
  out += shape;
  pad(out, units(shape), width_[2]);
  auto number = [&](std::size_t column, const Cell& c) {
    out += "  ";
    pad(out, c.units, width_[column]);
    out += c.text;
  };
  const double numbers[3] = {r.flops, r.transcendentals, r.bytes_accessed};
  for (std::size_t c = 0; c < 3; ++c) number(3 + c, cell(numbers[c], false));
  number(6, cell(row_intensity(r), true));
  out += '\n';
}

void OpTable::write_tail(std::string& out) const {
  if (analysed_ == 0) return;
  const TextTotals& t = totals_;
  // The totals reach JavaScript as JSON, where a value that is not finite is null: null reads
  // "—", counts as 0 in a difference, and two nulls are equal.
  auto finite = [](double x) { return std::isfinite(x) ? x : 0.0; };
  out += "totals: flops ";
  count_text(out, t.flops);
  out += ", transcendentals ";
  count_text(out, t.transcendentals);
  out += ", bytes accessed ";
  count_text(out, t.bytes_accessed);
  out += " (";
  for (const auto& [index, bytes] : t.bytes_accessed_operand) {
    out += "operand ";
    out += std::to_string(index);
    out += ": ";
    count_text(out, bytes);
    out += ", ";
  }
  out += "output: ";
  count_text(out, t.bytes_accessed_output);
  out += "), intensity ";
  short_text(out, t.intensity());
  out += " flops/byte\n";
  const bool unfused_null = !std::isfinite(t.unfused_bytes_accessed),
             bytes_null = !std::isfinite(t.bytes_accessed);
  if (unfused_null != bytes_null ||
      (!unfused_null && t.unfused_bytes_accessed != t.bytes_accessed)) {
    out += "fusion: ";
    count_text(out, t.bytes_accessed);
    out += " bytes at fusion boundaries vs ";
    count_text(out, t.unfused_bytes_accessed);
    out += " unfused \u2014 saves ";
    count_text(out, finite(t.unfused_bytes_accessed) - finite(t.bytes_accessed));
    out += '\n';
  }
  out += "minimum traffic (arguments + results, once each): ";
  count_text(out, t.minimum_traffic_bytes);
  out += " bytes";
  if (std::isfinite(t.collective_bytes) && t.collective_bytes != 0) {
    out += "; collective bytes per device: ";
    count_text(out, t.collective_bytes);
  }
  out += '\n';
  if (!t.unmodeled.empty()) {
    out += "unmodeled (no cost rule; not counted): ";
    for (std::size_t i = 0; i < t.unmodeled.size(); ++i) {
      if (i) out += ", ";
      out += t.unmodeled[i].first;
      out += " \u00d7";
      out += std::to_string(t.unmodeled[i].second);
    }
    out += '\n';
  }
  for (const auto& n : t.notes) {
    out += "note: ";
    out += n;
    out += '\n';
  }
}

bool OpTable::next(std::string& out, std::size_t bytes) {
  while (out.size() < bytes) {
    switch (phase_) {
      case Phase::Header:
        phase_ = Phase::Rows;
        if (rows_ == 0) break;
        for (std::size_t c = 0; c < 7; ++c) {
          if (c) out += "  ";
          const std::string_view h = kHeader[c];
          if (c == 1 || c == 2) {
            out += h;
            pad(out, h.size(), width_[c]);
          } else {
            pad(out, h.size(), width_[c]);
            out += h;
          }
        }
        out += '\n';
        break;
      case Phase::Rows: {
        if (module_ >= analysis_.modules.size()) {
          phase_ = Phase::Tail;
          break;
        }
        auto& m = analysis_.modules[module_];
        if (!m.analysis) {
          ++module_;
          break;
        }
        Analysis& a = m.analysis.value();
        if (row_ == 0) shapes_ = shapes_of(a);
        const auto write_fn = out_of_line(&OpTable::write_row);  // common/loop_body.h
        while (row_ < a.ops.size() && out.size() < bytes) (this->*write_fn)(out, a.ops[row_++]);
        if (row_ == a.ops.size()) {
          // The module's rows are written: free them (its totals are in totals_ already).
          std::vector<OpCost>().swap(a.ops);
          std::vector<double>().swap(a.operand_bytes_pool);
          std::vector<Type>().swap(a.types);
          shapes_.clear();
          ++module_;
          row_ = 0;
        }
        break;
      }
      case Phase::Tail:
        write_tail(out);
        phase_ = Phase::Done;
        break;
      case Phase::Done:
        return false;
    }
  }
  return phase_ != Phase::Done;
}

}  // namespace rl::hlo
