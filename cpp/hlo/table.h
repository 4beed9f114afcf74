// The per-op table `node scripts/analyze.mjs` prints for a text (report.h's analysis as lines for
// a terminal), made here and handed out in chunks of whole lines: a program of a million ops is
// printed without one object per op in JavaScript. The CLI prints its heading ("FILE (DIALECT) —
// …") and then these lines:
//
//     line  op                     shape           flops  transcendentals   bytes  intensity
//        3  stablehlo.dot_general  tensor<32x8xf32>  8192                0    3072      2.667
//   totals: flops N, transcendentals N, bytes accessed N (operand 0: N, …, output: N), intensity X
//   flops/byte fusion: N bytes at fusion boundaries vs N unfused — saves N          (when the two
//   differ) minimum traffic (arguments + results, once each): N bytes[; collective bytes per
//   device: N] unmodeled (no cost rule; not counted): OP ×COUNT, … note: …
//
// A row per op of every module that analysed, in order, op names padded on the right and numbers
// on the left to their column's widest cell (in UTF-16 units, as JavaScript pads), two spaces
// between; no table without ops, no totals without a module that analysed. An unmodeled op reads
// "OP (unmodeled)". Counts: an integer below 10^15 as written, from 10^15 in exponent form with 4
// significant digits ("2.135e+15"), a fraction with 4 ("0.08333"), JavaScript's way
// (common/numbers.h); a value that is not finite "—", as is an op's intensity without bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hlo/report.h"

namespace rl::hlo {

class OpTable {
 public:
  // Takes the analysis over (the rows are freed with the table).
  explicit OpTable(TextAnalysis&& analysis);

  const TextAnalysis& analysis() const { return analysis_; }
  // Rows in the table: every analysed module's ops.
  std::size_t rows() const { return rows_; }

  // Appends the next whole lines, each ending in '\n', to `out` until it holds at least
  // `bytes` bytes or every line is written. Returns whether lines remain after these. Each
  // module's rows are freed once written.
  bool next(std::string& out, std::size_t bytes);

 private:
  void write_row(std::string& out, const OpCost& r);
  void widen_to(const OpCost& r, std::size_t op_units, std::size_t shape_units);
  void widen_all(const Analysis& a);
  void write_tail(std::string& out) const;

  // A number's cell as the row writes it (count_text, or short_text for an intensity), kept in a
  // small table by the number's bits: a module's rows repeat few values, formatting one was most
  // of a row's work, and each is needed twice (its column's width, then its line).
  struct Cell {
    bool used = false, is_short = false;
    std::uint64_t bits = 0;  // the number's
    std::size_t units = 0;   // the text's length in UTF-16 units
    std::string text;        // at most 16 bytes: no allocation
  };
  const Cell& cell(double x, bool is_short);
  static constexpr std::size_t kCells = 512;
  std::vector<Cell> cells_ = std::vector<Cell>(kCells);

  TextAnalysis analysis_;
  TextTotals totals_;
  std::size_t analysed_ = 0;  // modules that analysed
  std::size_t rows_ = 0;
  std::size_t width_[7] = {};
  enum class Phase { Header, Rows, Tail, Done } phase_ = Phase::Header;
  std::size_t module_ = 0, row_ = 0;
  std::vector<std::string> shapes_;  // the current module's types as the dialect prints them
  std::string cell_;                 // scratch
};

}  // namespace rl::hlo
