#include "hlo/infer.h"

#include <string>

namespace rl::hlo {

namespace {

std::string where(const Op& op) { return std::to_string(op.line) + ":" + std::to_string(op.column); }

class Inferrer {
 public:
  Inferrer(Module& m, TypeTable& t) : m_(m), types_(t) {}
  std::string error;
  int line = 0, column = 0;

  bool function(Function& f) {
    for (auto& b : f.body.blocks)
      for (auto& op : b.ops) {
        if (!op.infer_shape) continue;
        Type t;
        if (!infer(f, op, &t)) return false;
        const ValueId v = f.results(op)[0];
        f.values[v].type = types_.intern(std::move(t));
        if (op.is_root && !f.result_types.empty()) f.result_types[0] = f.values[v].type;
      }
    return true;
  }

 private:
  Module& m_;
  TypeTable& types_;

  bool fail(const Op& op, const std::string& what, const std::string& rule) {
    if (error.empty()) line = op.line, column = op.column;
    if (error.empty())
      error = where(op) + ": error: " + what + " \xE2\x80\x94 expected " + rule + ", got " + std::string(op.name) +
              " without a shape";
    return false;
  }

  const Type& operand(const Function& f, const Op& op, std::size_t i) const {
    return m_.value_type(f, f.operands(op)[i]);
  }

  static void retext(Type& t) {
    t.text.clear();
    t.text = to_string(t, "hlo");
  }

  bool infer(const Function& f, const Op& op, Type* out) {
    const OpInfo& info = op_info(op.code);
    const std::size_t n = f.operands(op).size();
    if (op.code == OpCode::GetTupleElement && n == 1) {
      const Type& t = operand(f, op, 0);
      const Attribute* a = f.attr(op, "index");
      std::size_t index = t.tuple.size();
      if (a && !a->value.empty() && a->value.size() < 9 &&
          a->value.find_first_not_of("0123456789") == std::string_view::npos)
        index = static_cast<std::size_t>(std::stoul(std::string(a->value)));
      if (t.kind != Type::Kind::Tuple || index >= t.tuple.size())
        return fail(op, "get-tuple-element index out of range", "index=N below the tuple size of the operand");
      *out = t.tuple[index];
      return true;
    }
    if (op.code == OpCode::Compare && n == 2 && operand(f, op, 0).is_array()) {
      *out = operand(f, op, 0);
      out->element = "pred";
      out->etype = ElementType::Pred;
      out->element_bytes = 1;
      retext(*out);
      return true;
    }
    if (op.code == OpCode::Select && n == 3) {
      *out = operand(f, op, 1);
      return true;
    }
    const bool same_shape = (info.family == CostFamily::Elementwise || info.family == CostFamily::Transcendental) &&
                            info.verify == VerifyRule::Elementwise && op.code != OpCode::Convert &&
                            op.code != OpCode::ReducePrecision;
    if ((same_shape || op.code == OpCode::Copy || op.code == OpCode::OptimizationBarrier) && n >= 1) {
      *out = operand(f, op, 0);
      return true;
    }
    return fail(op, "the shape of " + std::string(op.name.substr(0, 40)) + " cannot be inferred",
                "a shape before the opcode");
  }
};

}  // namespace

Result<bool> infer_shapes(Module& m, TypeTable& types) {
  Inferrer inf(m, types);
  for (auto& f : m.functions)
    if (!inf.function(f)) return Result<bool>::failure_at(inf.error, inf.line, inf.column);
  return Result<bool>::success(true);
}

}  // namespace rl::hlo
