// A memo over ops that are alike: same opcode, same operand and result types, same attributes.
// What the verifier's rules and the lowering's decoding compute depends on nothing else, and big
// programs repeat the same op thousands of times (every layer of a model): the verifier checks
// one op of each kind, the lowering decodes it once and the ops share its attributes.
//
// HLO's `metadata={op_name=... source_file=... source_line=...}` only documents where an op came
// from and differs on almost every instruction: it is left out of the comparison, so no verify
// rule or attribute decoder may read it (none does; kDocumentation names it).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "hlo/ir.h"
#include "hlo/name_map.h"

namespace rl::hlo {

// Attributes that document an op and change nothing of what it means.
inline bool is_documentation(std::string_view attribute) { return attribute == "metadata"; }

class OpMemo {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t(0);

  // The value remembered for an op alike `op`, or kNone; `*h` gets the op's hash for remember().
  std::uint32_t find(const OpView& op, std::uint64_t* h) const {
    *h = hash(op);
    if (entries_.empty()) return kNone;
    for (std::size_t i = *h & mask_;; i = (i + 1) & mask_) {
      const std::uint32_t e = slots_[i];
      if (e == kNone) return kNone;
      const Entry& x = entries_[e];
      if (x.hash == *h && alike(OpView{op.m, *x.f, *x.op}, op)) return x.value;
    }
  }
  // Remembers `value` for ops alike `op`, whose hash find() gave (the op must outlive the memo).
  void remember(const OpView& op, std::uint64_t h, std::uint32_t value) {
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    std::size_t i = h & mask_;
    while (slots_[i] != kNone) i = (i + 1) & mask_;
    slots_[i] = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back({h, &op.f, &op.op, value});
  }

 private:
  struct Entry {
    std::uint64_t hash;
    const Function* f;
    const Op* op;
    std::uint32_t value;
  };
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> slots_;
  std::size_t mask_ = 0;

  static std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDull;
  }
  static std::uint64_t hash(const OpView& op) {
    std::uint64_t h = mix(static_cast<std::uint64_t>(op.op.code), op.op.operands.count);
    for (ValueId v : op.f.operands(op.op)) h = mix(h, op.f.values[v].type);
    for (ValueId v : op.f.results(op.op)) h = mix(h, op.f.values[v].type);
    for (const Attribute& a : op.f.attributes(op.op)) {
      if (is_documentation(a.name)) continue;
      h = mix(h, name_hash(a.name));
      h = mix(h, name_hash(a.value));
    }
    return h;
  }
  static bool alike(const OpView& a, const OpView& b) {
    if (a.op.code != b.op.code || a.op.operands.count != b.op.operands.count ||
        a.op.results.count != b.op.results.count)
      return false;
    for (std::size_t i = 0; i < a.num_operands(); ++i)
      if (a.f.values[a.f.operands(a.op)[i]].type != b.f.values[b.f.operands(b.op)[i]].type)
        return false;
    for (std::size_t i = 0; i < a.num_results(); ++i)
      if (a.f.values[a.f.results(a.op)[i]].type != b.f.values[b.f.results(b.op)[i]].type)
        return false;
    // The attributes in order, documentation left out.
    const auto x = a.f.attributes(a.op), y = b.f.attributes(b.op);
    std::size_t i = 0, j = 0;
    while (true) {
      while (i < x.size() && is_documentation(x[i].name)) ++i;
      while (j < y.size() && is_documentation(y[j].name)) ++j;
      if (i == x.size() || j == y.size()) return i == x.size() && j == y.size();
      if (x[i].name != y[j].name || x[i].value != y[j].value) return false;
      ++i, ++j;
    }
  }
  void grow() {
    const std::size_t capacity = slots_.empty() ? 64 : slots_.size() * 2;
    slots_.assign(capacity, kNone);
    mask_ = capacity - 1;
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      std::size_t i = entries_[e].hash & mask_;
      while (slots_[i] != kNone) i = (i + 1) & mask_;
      slots_[i] = static_cast<std::uint32_t>(e);
    }
  }
};

}  // namespace rl::hlo
