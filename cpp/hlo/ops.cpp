#include "hlo/ops.h"

#include <string>
#include <vector>

#include "hlo/element_type.h"
#include "hlo/name_map.h"

namespace rl::hlo {

namespace {

constexpr int V = kVariadic;

constexpr OpInfo kOps[] = {
    {"Unknown", "", "", V, CostFamily::Unmodeled, VerifyRule::None, FusionRole::None, types::Any,
     AttrFamily::None},
#define RL_OP(id, mlir, hlo, arity, family, verify, fusion, types_, attrs) \
  {#id,                                                                    \
   mlir,                                                                   \
   hlo,                                                                    \
   arity,                                                                  \
   CostFamily::family,                                                     \
   VerifyRule::verify,                                                     \
   FusionRole::fusion,                                                     \
   types::types_,                                                          \
   AttrFamily::attrs},
#include "hlo/ops.inc"
#undef RL_OP
};
static_assert(sizeof(kOps) / sizeof(kOps[0]) == static_cast<std::size_t>(OpCode::Count_),
              "one OpInfo per OpCode");
// types:: has one bit per ElementKind.
static_assert(types::Pred == 1 << static_cast<int>(ElementKind::Bool) &&
                  types::SInt == 1 << static_cast<int>(ElementKind::Signed) &&
                  types::UInt == 1 << static_cast<int>(ElementKind::Unsigned) &&
                  types::Float == 1 << static_cast<int>(ElementKind::Float) &&
                  types::Cx == 1 << static_cast<int>(ElementKind::Complex),
              "types:: bits follow ElementKind");

struct Names {
  NameMap<OpCode> mlir, hlo;
  Names() {
    for (std::size_t i = 1; i < static_cast<std::size_t>(OpCode::Count_); ++i) {
      const OpInfo& o = kOps[i];
      if (!o.mlir.empty()) mlir.insert(o.mlir, static_cast<OpCode>(i));
      if (!o.hlo.empty()) hlo.insert(o.hlo, static_cast<OpCode>(i));
    }
    // The pretty MLIR forms of func.return and func.call.
    mlir.insert("return", OpCode::FuncReturn);
    mlir.insert("call", OpCode::Call);
  }
};

const Names& names() {
  static const Names n;
  return n;
}

}  // namespace

const OpInfo& op_info(OpCode code) {
  const auto i = static_cast<std::size_t>(code);
  return i < static_cast<std::size_t>(OpCode::Count_) ? kOps[i] : kOps[0];
}

OpCode op_from_name(std::string_view name, std::string_view dialect) {
  const Names& n = names();
  if (dialect == "hlo") {
    const OpCode* c = n.hlo.find(name);
    return c ? *c : OpCode::Unknown;
  }
  if (const OpCode* c = n.mlir.find(name)) return *c;
  // MHLO spells StableHLO's ops "mhlo.x".
  if (name.substr(0, 5) == "mhlo.") {
    std::string alias = "stablehlo." + std::string(name.substr(5));
    if (const OpCode* c = n.mlir.find(alias)) return *c;
  }
  return OpCode::Unknown;
}

std::string types_text(std::uint8_t set) {
  std::vector<const char*> words;
  if (set & types::Pred) words.push_back("pred");
  if ((set & types::Int) == types::Int)
    words.push_back("integer");
  else if (set & types::SInt)
    words.push_back("signed integer");
  else if (set & types::UInt)
    words.push_back("unsigned integer");
  if (set & types::Float) words.push_back("floating-point");
  if (set & types::Cx) words.push_back("complex");
  if (words.empty()) return "no";
  std::string out = std::string(words[0])[0] == 'i' ? "an " : "a ";
  for (std::size_t i = 0; i < words.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

std::string_view op_short_name(OpCode code) {
  const OpInfo& o = op_info(code);
  if (!o.hlo.empty()) return o.hlo;
  if (o.mlir.substr(0, 10) == "stablehlo.") return o.mlir.substr(10);
  if (!o.mlir.empty()) return o.mlir;
  return o.id;
}

}  // namespace rl::hlo
