#include "hlo/verify.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "common/loop_body.h"
#include "common/numbers.h"
#include "hlo/attrs.h"
#include "hlo/cost.h"
#include "hlo/decode.h"
#include "hlo/infer.h"
#include "hlo/op_memo.h"
#include "hlo/parse.h"

namespace rl::hlo {

namespace {

bool ranked(const Type& t) { return t.kind == Type::Kind::Tensor && t.ranked; }

class Verifier {
 public:
  explicit Verifier(const Module& m) : m_(m) {}
  std::string error;
  int line = 0, column = 0;

  bool region(const Function& f, const Region& r, int depth) {
    if (depth > kMaxDepth) {
      if (error.empty())
        error =
            "1:1: error: regions nest too deeply \xE2\x80\x94 expected at most 256 levels, got "
            "more";
      return false;
    }
    for (const auto& b : r.blocks)
      for (const auto& op : b.ops) {
        const OpView v{m_, f, op};
        // A return ends its block (MLIR's terminator): the run leaves a body at its first return,
        // so ops after one would be checked but never run, and the return's values unchecked.
        if ((op.code == OpCode::FuncReturn || op.code == OpCode::Return) && &op != &b.ops.back())
          return fail(v, std::string(op.name) + " is not the last op of its block",
                      "the block's terminator",
                      std::to_string(&b.ops.back() - &op) + " ops after it");
        // Per op, not per kind of op: where its operands come from and which function holds it.
        if (!written_types(v)) return false;
        if (depth == 0 && (op.code == OpCode::FuncReturn || op.code == OpCode::Return) &&
            !function_results(v))
          return false;
        if (!checked(v)) return false;
        for (const auto& inner : f.nested(op))
          if (!terminated(v, inner) || !region(f, inner, depth + 1)) return false;
      }
    return true;
  }

 private:
  const Module& m_;
  OpMemo memo_;
  AttrDecoder decoder_{m_, nullptr, /*resolve_callees=*/false};
  AttrDecoder callees_{m_, nullptr};  // call(): the callee, resolved as the lowering resolves it
  OpAttrs attrs_;

  // The op's attributes as the lowering decodes them (decode.h: one reader of each attribute,
  // both dialects' spellings), or nullptr when it has none, or when they cannot be read: then the
  // decoder's error is the verifier's (a rule that needs them refuses the op, as it refuses a
  // wrong value; `{0,x}` is not read as {0}).
  const OpAttrs* decoded(const OpView& op) {
    decoder_.clear_error();
    bool has = false;
    if (!decoder_.decode(op, &attrs_, &has)) {
      // An attribute the op needs is missing or unreadable: the decoder's error is the verdict.
      if (error.empty()) {
        error = decoder_.error().message;
        line = decoder_.error().line;
        column = decoder_.error().column;
      }
      return nullptr;
    }
    return has ? &attrs_ : nullptr;
  }

  // The two sizes a dimension rule compares, each named by its side and dimension, so the message
  // shows the values it found: "lhs dim 1 = 16, rhs dim 0 = 15".
  static std::string sizes_text(std::int64_t lhs_dim, std::int64_t lhs_size, std::int64_t rhs_dim,
                                std::int64_t rhs_size) {
    return "lhs dim " + std::to_string(lhs_dim) + " = " + std::to_string(lhs_size) + ", rhs dim " +
           std::to_string(rhs_dim) + " = " + std::to_string(rhs_size);
  }

  bool fail(const OpView& op, const std::string& what, const std::string& rule,
            const std::string& got) {
    if (error.empty()) line = op.op.line, column = op.op.column;
    if (error.empty())
      error = std::to_string(op.op.line) + ":" + std::to_string(op.op.column) + ": error: " + what +
              " \xE2\x80\x94 expected " + rule + ", got " + got;
    return false;
  }

  // check(), once per kind of op: an op alike one that passed passes (op_memo.h).
  RL_LOOP_BODY bool checked(const OpView& op) {
    const VerifyRule rule = op_info(op.op.code).verify;
    // An op with regions is checked each time: the memo compares no region bodies.
    if (rule == VerifyRule::None || rule == VerifyRule::Constant || !op.regions().empty())
      return check(op);
    std::uint64_t h = 0;
    if (memo_.find(op, &h) != OpMemo::kNone) return true;
    if (!check(op)) return false;
    memo_.remember(op, h, 0);
    return true;
  }

  // The op table's arity, then the signatures an op shares with its callee or regions, then
  // its verify rule.
  bool check(const OpView& op) {
    const OpInfo& info = op_info(op.op.code);
    if (info.arity != kVariadic && op.num_operands() != static_cast<std::size_t>(info.arity))
      return fail(op, std::string(op.op.name) + " has the wrong number of operands",
                  std::to_string(info.arity) + (info.arity == 1 ? " operand" : " operands"),
                  std::to_string(op.num_operands()));
    if (op.op.code == OpCode::Call && !call(op)) return false;
    if (op.op.code == OpCode::While && m_.dialect == "stablehlo" && !while_loop(op)) return false;
    if ((op.op.code == OpCode::Case || op.op.code == OpCode::If) && m_.dialect == "stablehlo" &&
        !branches(op))
      return false;
    // Both dialects: HLO's floats of two precisions may meet in one op (kinds_differ).
    if (!same_element_types(op)) return false;
    if (op.op.code == OpCode::Bitcast && !bitcast(op)) return false;
    // The rules below read one result where the op gives one value (the generic form can write
    // none: `"stablehlo.add"(%a, %b) : (...) -> ()`), as its kernel writes one.
    if (one_result(op.op.code, info.verify)) {
      if (!result_count(op, 1, "the one value it gives")) return false;
      // Their kernels read arrays: a tuple or a token among the operands stops here (a tuple of
      // arrays is a value the interpreter holds, so nothing later would).
      if (info.verify != VerifyRule::Inferred && !array_operands(op, 0, op.num_operands()))
        return false;
    }
    switch (info.verify) {
      case VerifyRule::None:
      case VerifyRule::Constant:
      case VerifyRule::Inferred:  // check_written_shapes (infer.cpp), after the walk
        return true;
      case VerifyRule::Elementwise:
        return elementwise(op, 0);
      case VerifyRule::Select:
        return elementwise(op, 1) && select_predicate(op);
      case VerifyRule::Clamp:
        return clamp(op);
      case VerifyRule::BroadcastInDim:
        return broadcast_in_dim(op);
      case VerifyRule::Broadcast:
        return broadcast(op);
      case VerifyRule::Reshape:
        return reshape(op);
      case VerifyRule::Transpose:
        return transpose(op);
      case VerifyRule::Concatenate:
        return concatenate(op);
      case VerifyRule::Dot:
        return dot(op);
      case VerifyRule::Convolution:
        return convolution(op);
      case VerifyRule::Reduce:
        return reduce(op);
      case VerifyRule::ReduceWindow:
        return reduce_window(op);
      case VerifyRule::SelectAndScatter:
        return select_and_scatter(op);
      case VerifyRule::Scatter:
        return scatter(op);
      case VerifyRule::Map:
        return map(op);
      case VerifyRule::Sort:
        return sort(op);
      case VerifyRule::Iota:
        return iota(op);
      case VerifyRule::Slice:
        return slice(op);
      case VerifyRule::DynamicSlice:
        return dynamic_slice(op);
      case VerifyRule::DynamicUpdateSlice:
        return dynamic_update_slice(op);
      case VerifyRule::Pad:
        return pad(op);
      case VerifyRule::TopK:
        return top_k(op);
      case VerifyRule::Gather:
        return gather(op);
      case VerifyRule::BitcastConvert:
        return bitcast_convert(op);
      case VerifyRule::OptimizationBarrier:
        return optimization_barrier(op);
      case VerifyRule::RngBitGenerator:
        return rng_bit_generator(op);
    }
    return true;
  }

  // The ops that give exactly one value: those of these rules, and those infer.cpp's rules hold
  // (Inferred) but the batch norms whose StableHLO form gives three.
  static bool one_result(OpCode c, VerifyRule r) {
    switch (r) {
      case VerifyRule::Inferred:
        return c != OpCode::BatchNormTraining && c != OpCode::BatchNormGrad;
      case VerifyRule::Elementwise:
      case VerifyRule::Select:
      case VerifyRule::Clamp:
      case VerifyRule::BroadcastInDim:
      case VerifyRule::Broadcast:
      case VerifyRule::Reshape:
      case VerifyRule::Transpose:
      case VerifyRule::Concatenate:
      case VerifyRule::Dot:
      case VerifyRule::Convolution:
      case VerifyRule::Iota:
      case VerifyRule::Slice:
      case VerifyRule::DynamicSlice:
      case VerifyRule::DynamicUpdateSlice:
      case VerifyRule::Pad:
      case VerifyRule::Gather:
      case VerifyRule::BitcastConvert:
        return true;
      default:
        return false;
    }
  }

  std::string type_text(const Type& t) const { return to_string(t, m_.dialect); }
  TypeId operand_id(const OpView& op, std::size_t i) const {
    return op.f.values[op.f.operands(op.op)[i]].type;
  }
  static bool opaque(const Type& t) { return t.kind == Type::Kind::Opaque; }
  static bool quantized(const Type& t) { return t.etype == ElementType::Quant; }
  // One type, or one we cannot tell apart: opaque (unknown), or a quantized type, whose
  // parameters have more than one spelling (2.0 and 2.000000e+00).
  bool same_type(TypeId a, TypeId b) const {
    if (a == b) return true;
    const Type& x = m_.type(a);
    const Type& y = m_.type(b);
    return opaque(x) || opaque(y) || (quantized(x) && quantized(y) && x.dims == y.dims);
  }

  // Every operand has the type the op's written signature gives it (`: (T, U) -> R`): a kernel
  // chosen by the signature would otherwise read one type's bytes as another's. The parser keeps
  // only the written types that differ (ir.h, Function::written_types).
  // A window's strides and dilations are at least 1 (StableHLO's convolution and reduce_window
  // constraints), and its sizes too where `sizes` (reduce_window's and select_and_scatter's
  // window_dimensions; a convolution's come from its kernel): `what` names the op in the message.
  bool steps_positive(const OpView& op, const std::vector<WindowDim>& w, const char* what,
                      bool sizes = false) {
    for (const auto& wd : w) {
      if (sizes && wd.size < 1)
        return fail(op, std::string(what) + " window dimensions must be positive",
                    "sizes of at least 1", std::to_string(wd.size));
      if (wd.stride < 1 || wd.base_dilation < 1 || wd.window_dilation < 1)
        return fail(op, std::string(what) + " window strides and dilations must be positive",
                    "values of at least 1",
                    std::to_string(std::min({wd.stride, wd.base_dilation, wd.window_dilation})));
    }
    return true;
  }

  bool written_types(const OpView& op) {
    const auto& w = op.f.written_types;
    if (w.empty()) return true;
    const std::uint32_t first = op.op.operands.begin, end = first + op.op.operands.count;
    auto it = std::lower_bound(
        w.begin(), w.end(), first,
        [](const Function::WrittenType& x, std::uint32_t ref) { return x.ref < ref; });
    for (; it != w.end() && it->ref < end; ++it) {
      const std::size_t i = it->ref - first;
      const Type& actual = op.operand_type(i);
      const Type& written = m_.type(it->type);
      if (same_type(operand_id(op, i), it->type)) continue;
      return fail(op,
                  std::string(op.op.name) + " operand " + std::to_string(i) +
                      " is not of the type its signature writes",
                  type_text(written),
                  type_text(actual) + " (" + op.f.value_name(op.f.operands(op.op)[i]) + ")");
    }
    return true;
  }

  // A function's top-level return gives exactly the function's result types (func.return's rule).
  bool function_results(const OpView& op) {
    const Function& f = op.f;
    const std::string fn = "@" + std::string(f.name);
    if (op.num_operands() != f.result_types.size())
      return fail(
          op, std::string(op.op.name) + " gives another number of values than " + fn + " returns",
          std::to_string(f.result_types.size()) + " (the results in " + fn + "'s signature)",
          std::to_string(op.num_operands()));
    for (std::size_t i = 0; i < f.result_types.size(); ++i) {
      const Type& want = m_.type(f.result_types[i]);
      const Type& got = op.operand_type(i);
      if (same_type(operand_id(op, i), f.result_types[i])) continue;
      return fail(op,
                  std::string(op.op.name) + " operand " + std::to_string(i) + " differs from " +
                      fn + "'s result type",
                  type_text(want) + " (result " + std::to_string(i) + " of " + fn + ")",
                  type_text(got) + " (" + f.value_name(f.operands(op.op)[i]) + ")");
    }
    return true;
  }

  // Types alike up to dynamic sizes (`?` matches any size; an unranked tensor any shape): the
  // rule StableHLO's region ops use between their operands and their regions.
  static bool compatible(const Type& a, const Type& b) {
    if (opaque(a) || opaque(b)) return true;
    if (a.kind != b.kind) return false;
    if (a.kind == Type::Kind::Tuple) {
      if (a.tuple.size() != b.tuple.size()) return false;
      for (std::size_t i = 0; i < a.tuple.size(); ++i)
        if (!compatible(a.tuple[i], b.tuple[i])) return false;
      return true;
    }
    if (a.element != b.element) return false;
    if (a.kind != Type::Kind::Tensor || !a.ranked || !b.ranked) return true;
    return same_dims(a, b);
  }

  // A call's operands are its callee's arguments and its results the callee's results (func.call
  // wants them equal; HLO's call, alike up to dynamic sizes).
  bool call(const OpView& op) {
    // The callee as the lowering resolves it (CallsAttrs::callees).
    OpAttrs calls;
    bool has = false;
    callees_.clear_error();
    if (!callees_.decode(op, &calls, &has) || calls.callees().empty()) {
      // Not resolved. The text is read only to quote the name; a call without one is left to the
      // lowering, which names it as the op's problem.
      const Attribute* a = op.attr(m_.dialect == "hlo" ? "to_apply" : "callee");
      if (!a) return true;
      return fail(op, std::string(op.op.name) + " names no function of this module",
                  "a function defined in the module", "@" + symbol_name(a->value));
    }
    const Function* callee = &m_.functions[calls.callees().front()];
    const std::string name(callee->name);
    const bool exact = m_.dialect == "stablehlo";
    auto alike = [&](TypeId x, TypeId y) {
      return exact ? same_type(x, y) : x == y || compatible(m_.type(x), m_.type(y));
    };
    const std::string fn = "@" + name;
    if (op.num_operands() != callee->args.size())
      return fail(
          op, std::string(op.op.name) + " passes another number of operands than " + fn + " takes",
          std::to_string(callee->args.size()) + " (the arguments of " + fn + ")",
          std::to_string(op.num_operands()));
    for (std::size_t i = 0; i < callee->args.size(); ++i) {
      const TypeId want = callee->values[callee->args[i]].type;
      if (!alike(operand_id(op, i), want))
        return fail(
            op,
            std::string(op.op.name) + " operand " + std::to_string(i) + " differs from " + fn +
                "'s argument",
            type_text(m_.type(want)) + " (argument " + std::to_string(i) + " of " + fn + ")",
            type_text(op.operand_type(i)) + " (" + op.f.value_name(op.f.operands(op.op)[i]) + ")");
    }
    if (m_.dialect != "stablehlo")
      return true;  // HLO's call has one result: the callee's, inferred or written
    if (op.num_results() != callee->result_types.size())
      return fail(
          op, std::string(op.op.name) + " has another number of results than " + fn + " returns",
          std::to_string(callee->result_types.size()) + " (the results of " + fn + ")",
          std::to_string(op.num_results()));
    for (std::size_t i = 0; i < callee->result_types.size(); ++i) {
      const TypeId got = op.f.values[op.f.results(op.op)[i]].type;
      if (!alike(got, callee->result_types[i]))
        return fail(op,
                    std::string(op.op.name) + " result " + std::to_string(i) + " differs from " +
                        fn + "'s result",
                    type_text(m_.type(callee->result_types[i])) + " (result " + std::to_string(i) +
                        " of " + fn + ")",
                    type_text(op.result_type(i)));
    }
    return true;
  }

  // A StableHLO op's region: each block ends with its return (MLIR's terminator), which gives
  // the region's values. Without one the region gives nothing, which the run would find only
  // when it took that region (an if's other branch never).
  bool terminated(const OpView& op, const Region& r) {
    if (m_.dialect != "stablehlo") return true;
    for (const auto& b : r.blocks) {
      if (!b.ops.empty() &&
          (b.ops.back().code == OpCode::Return || b.ops.back().code == OpCode::FuncReturn))
        continue;
      return fail(op, std::string(op.op.name) + " has a region that does not end with a return",
                  "stablehlo.return as the last op of each of its regions' blocks",
                  b.ops.empty() ? std::string("an empty block")
                                : "a block ending with " + std::string(b.ops.back().name));
    }
    return true;
  }

  // The terminator of a region's first block (stablehlo.return), or null.
  static const Op* terminator(const Region& r) {
    if (r.blocks.empty() || r.blocks.front().ops.empty()) return nullptr;
    const Op& last = r.blocks.front().ops.back();
    return last.code == OpCode::Return || last.code == OpCode::FuncReturn ? &last : nullptr;
  }

  // while(operands) cond {args} do {args}: the condition and the body take the operands' types,
  // the body returns them, the condition returns one tensor<i1>, and the results have them.
  bool while_loop(const OpView& op) {
    if (op.regions().size() != 2) return true;
    const std::size_t n = op.num_operands();
    const char* names[2] = {"condition", "body"};
    for (int k = 0; k < 2; ++k) {
      const Region& r = op.regions()[static_cast<std::size_t>(k)];
      if (r.blocks.empty()) continue;
      const auto& args = r.blocks.front().args;
      if (args.size() != n)
        return fail(op,
                    std::string("while ") + names[k] +
                        " takes another number of arguments than the operands",
                    std::to_string(n) + " (one per operand)", std::to_string(args.size()));
      for (std::size_t i = 0; i < n; ++i) {
        const Type& want = op.operand_type(i);
        const Type& got = m_.value_type(op.f, args[i]);
        if (!compatible(want, got))
          return fail(op,
                      std::string("while ") + names[k] + " argument " + std::to_string(i) +
                          " differs from operand " + std::to_string(i),
                      type_text(want) + " (the operand's type)", type_text(got));
      }
    }
    if (const Op* ret = terminator(op.regions()[1])) {
      const OpView rv{m_, op.f, *ret};
      if (rv.num_operands() != n)
        return fail(op, "while body returns another number of values than the operands",
                    std::to_string(n) + " (one per operand)", std::to_string(rv.num_operands()));
      for (std::size_t i = 0; i < n; ++i)
        if (!compatible(op.operand_type(i), rv.operand_type(i)))
          return fail(op,
                      "while body's value " + std::to_string(i) + " differs from operand " +
                          std::to_string(i),
                      type_text(op.operand_type(i)) + " (the operand's type)",
                      type_text(rv.operand_type(i)));
    }
    if (const Op* ret = terminator(op.regions()[0])) {
      const OpView rv{m_, op.f, *ret};
      const bool one_pred = rv.num_operands() == 1 && ranked(rv.operand_type(0)) &&
                            rv.operand_type(0).dims.empty() && rv.operand_type(0).element == "i1";
      if (!one_pred && !(rv.num_operands() == 1 && opaque(rv.operand_type(0))))
        return fail(op, "while condition does not return one boolean", "one tensor<i1>",
                    rv.num_operands() == 1 ? type_text(rv.operand_type(0))
                                           : std::to_string(rv.num_operands()) + " values");
    }
    if (op.num_results() != n)
      return fail(op, "while has another number of results than operands", std::to_string(n),
                  std::to_string(op.num_results()));
    for (std::size_t i = 0; i < n; ++i)
      if (!compatible(op.operand_type(i), op.result_type(i)))
        return fail(
            op, "while result " + std::to_string(i) + " differs from operand " + std::to_string(i),
            type_text(op.operand_type(i)) + " (the operand's type)", type_text(op.result_type(i)));
    return true;
  }

  // case / if: case's index is a tensor<i32>, if's predicate a tensor<i1> (the spec's (I1)), and
  // every branch returns the op's result types (the run hands a branch's values on as the op's
  // results).
  bool branches(const OpView& op) {
    if (op.num_operands() != 1)  // case is variadic in the table; its one operand is the index
      return fail(
          op, std::string(op.op.name) + " has the wrong number of operands",
          op.op.code == OpCode::Case ? "1 operand (the index)" : "1 operand (the predicate)",
          std::to_string(op.num_operands()));
    const bool is_case = op.op.code == OpCode::Case;
    const Type& t = op.operand_type(0);
    const char* want = is_case ? "i32" : "i1";
    if (!opaque(t) && !(ranked(t) && t.dims.empty() && t.element == want))
      return fail(op,
                  std::string(op.op.name) + (is_case ? " index" : " predicate") + " is not a 0-d " +
                      want + " tensor",
                  std::string("tensor<") + want + ">", type_text(t));
    for (std::size_t k = 0; k < op.regions().size(); ++k) {
      const Op* ret = terminator(op.regions()[k]);
      if (!ret) continue;
      const OpView rv{m_, op.f, *ret};
      const std::string branch = "branch " + std::to_string(k);
      if (rv.num_operands() != op.num_results())
        return fail(op,
                    std::string(op.op.name) + " " + branch +
                        " returns another number of values than its results",
                    std::to_string(op.num_results()), std::to_string(rv.num_operands()));
      for (std::size_t i = 0; i < op.num_results(); ++i)
        if (!compatible(op.result_type(i), rv.operand_type(i)))
          return fail(op,
                      std::string(op.op.name) + " " + branch + "'s value " + std::to_string(i) +
                          " differs from result " + std::to_string(i),
                      type_text(op.result_type(i)) + " (the result's type)",
                      type_text(rv.operand_type(i)));
    }
    return true;
  }

  // Ops whose operands share the result's element type (StableHLO's SameOperandsAndResultType
  // and XLA's elementwise rule): the pretty form `stablehlo.add %a, %b : tensor<2xf32>` writes one
  // type for all of them. Which operands: all, or from `first` on (select's and clamp's are
  // handled the same way: select's predicate is i1, clamp's bounds share x's type).
  static int same_element_from(OpCode c) {
    switch (c) {
      case OpCode::Add:
      case OpCode::Subtract:
      case OpCode::Multiply:
      case OpCode::Divide:
      case OpCode::Remainder:
      case OpCode::Maximum:
      case OpCode::Minimum:
      case OpCode::And:
      case OpCode::Or:
      case OpCode::Xor:
      case OpCode::ShiftLeft:
      case OpCode::ShiftRightLogical:
      case OpCode::ShiftRightArithmetic:
      case OpCode::Power:
      case OpCode::Atan2:
      case OpCode::Not:
      case OpCode::Negate:
      case OpCode::Sign:
      case OpCode::Floor:
      case OpCode::Ceil:
      case OpCode::RoundNearestAfz:
      case OpCode::RoundNearestEven:
      case OpCode::Popcnt:
      case OpCode::CountLeadingZeros:
      case OpCode::Exponential:
      case OpCode::ExponentialMinusOne:
      case OpCode::Log:
      case OpCode::LogPlusOne:
      case OpCode::Logistic:
      case OpCode::Sqrt:
      case OpCode::Cbrt:
      case OpCode::Rsqrt:
      case OpCode::Tanh:
      case OpCode::Sine:
      case OpCode::Cosine:
      case OpCode::Tan:
      case OpCode::ReducePrecision:
      case OpCode::Clamp:
      case OpCode::ChloErf:
      case OpCode::ChloTan:
      case OpCode::ChloLgamma:
      case OpCode::ChloDigamma:
      case OpCode::ChloErfInv:
      case OpCode::ChloErfc:
      case OpCode::ChloAcos:
      case OpCode::ChloAcosh:
      case OpCode::ChloAsin:
      case OpCode::ChloAsinh:
      case OpCode::ChloAtan:
      case OpCode::ChloAtanh:
      case OpCode::ChloCosh:
      case OpCode::ChloSinh:
      case OpCode::ChloBesselI1e:
      case OpCode::ChloConj:
      case OpCode::ChloNextAfter:
      case OpCode::ChloPolygamma:
      case OpCode::ChloZeta:
      // Data movement keeps its operand's element type (StableHLO's reshape, transpose,
      // broadcast_in_dim and concatenate: SameOperandsAndResultElementType).
      case OpCode::Reshape:
      case OpCode::Transpose:
      case OpCode::BroadcastInDim:
      case OpCode::Concatenate:
        return 0;
      case OpCode::Select:
        return 1;
      default:
        return -1;
    }
  }

  bool same_element_types(const OpView& op) {
    const bool compare = op.op.code == OpCode::Compare;
    const int first = same_element_from(op.op.code);
    // HLO's data movement: its own rules hold the element type exactly (keeps_element_type, the
    // reshape and broadcast rules; infer.cpp's transpose), with their own messages.
    if (m_.dialect == "hlo" && (op.op.code == OpCode::Reshape || op.op.code == OpCode::Transpose ||
                                op.op.code == OpCode::BroadcastInDim))
      return true;
    if ((first < 0 && !compare) || op.num_results() != 1 || op.num_operands() == 0) return true;
    // compare: the two operands share one element type; the others: the result's.
    const Type& ref = compare ? op.operand_type(0) : op.result_type(0);
    if (!ref.is_array() || ref.etype == ElementType::Quant || ref.etype == ElementType::Invalid)
      return true;
    for (std::size_t i = compare ? 1 : static_cast<std::size_t>(first); i < op.num_operands();
         ++i) {
      const Type& t = op.operand_type(i);
      if (!t.is_array() || t.etype == ElementType::Quant || t.etype == ElementType::Invalid ||
          !kinds_differ(ref, t))
        continue;
      return fail(op,
                  std::string(op.op.name) + " operand " + std::to_string(i) +
                      " has another element type than " + (compare ? "operand 0" : "the result"),
                  ref.element + " (as " + type_text(ref) + ")",
                  t.element + " (" + type_text(t) + ")");
    }
    return true;
  }

  // A shape's dimensions as a message writes them: "[3, ?]" (a dynamic or unknown size, -1, as ?).
  static std::string shape_list(const std::vector<std::int64_t>& dims) {
    std::string t = "[";
    for (std::size_t i = 0; i < dims.size(); ++i)
      t += (i ? ", " : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
    return t + "]";
  }
  // Two sizes equal where both are known (a dynamic size, -1, matches any).
  static bool size_fits(std::int64_t a, std::int64_t b) { return a < 0 || b < 0 || a == b; }
  // Dimensions of one rank, each size_fits.
  static bool dims_fit(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t d = 0; d < a.size(); ++d)
      if (!size_fits(a[d], b[d])) return false;
    return true;
  }
  // Two element types that differ, when both are known (opaque types and quantized parameters,
  // which have more than one spelling, are not told apart).
  static bool elements_differ(const Type& a, const Type& b) {
    return !opaque(a) && !opaque(b) && a.element != b.element && !(quantized(a) && quantized(b));
  }
  static bool same_dims(const Type& t, const Type& out) { return dims_fit(t.dims, out.dims); }
  // Two element types one op may not hold together: elements_differ, but for HLO's floats of two
  // precisions, which XLA lets meet (SameElementTypeIgnoringFpPrecision: mixed-precision dumps)
  // and the interpreter's kernels refuse when they run, as what they do not compute.
  bool kinds_differ(const Type& a, const Type& b) const {
    return elements_differ(a, b) &&
           !(m_.dialect == "hlo" && is_float(a.etype) && is_float(b.etype));
  }

  // HLO's bitcast (XLA's ShapeVerifier::HandleBitcast, layout-sensitive): the result holds the
  // operand's bytes, so the two have one byte size (the layouts order them; bitcast_convert
  // changes an element type within one shape's bits).
  bool bitcast(const OpView& op) {
    if (op.num_operands() != 1 || op.num_results() != 1) return true;
    const Type& x = op.operand_type(0);
    const Type& y = op.result_type(0);
    if (!ranked(x) || !ranked(y) || !x.is_static() || !y.is_static() ||
        x.etype == ElementType::Invalid || y.etype == ElementType::Invalid || quantized(x) ||
        quantized(y))
      return true;
    // Exact byte counts (a size past 128 bits is left alone: nothing of it runs).
    auto bytes = [](const Type& t, Count* out) {
      Count n = static_cast<Count>(element_info(t.etype).bytes);
      for (std::int64_t d : t.dims)
        if (!checked_mul(n, static_cast<Count>(d), &n)) return false;
      *out = n;
      return true;
    };
    Count bx = 0, by = 0;
    if (!bytes(x, &bx) || !bytes(y, &by) || bx == by) return true;
    return fail(op, std::string(op.op.name) + " changes the byte size",
                to_decimal(bx) + " bytes (the operand's, " + type_text(x) + ")",
                to_decimal(by) + " bytes (" + type_text(y) + ")");
  }

  // iota: its result's element type is of a kind the types column gives (integer, floating-point
  // or complex: StableHLO's HLO_StaticShapeIntFpOrComplexTensor; XLA's ShapeVerifier::HandleIota
  // refuses pred too), and its dimension is one of the result's (StableHLO's C1).
  bool iota(const OpView& op) {
    const Type& t = op.result_type(0);
    const ElementKind k = t.is_array() ? element_kind(t.etype) : ElementKind::None;
    if (k != ElementKind::None && !op_takes(op.op.code, k))
      return fail(op, std::string(op.op.name) + " of this element type",
                  types_text(op_info(op.op.code).types) + " element type", t.element);
    const OpAttrs* a = ranked(t) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    const std::int64_t d = a->get<DimensionAttrs>().dimension;
    if (d < 0 || static_cast<std::size_t>(d) >= t.dims.size())
      return fail(op, std::string(op.op.name) + " dimension out of range",
                  "a dimension in [0, " + std::to_string(t.dims.size()) + ")", std::to_string(d));
    return true;
  }

  // Operands from `first` on have the result's shape (ranked ones; dynamic sizes match any).
  bool elementwise(const OpView& op, std::size_t first) {
    // The kinds of element the op takes (ops.inc's types column).
    for (std::size_t i = first; i < op.num_operands(); ++i) {
      const Type& t = op.operand_type(i);
      const ElementKind k = t.is_array() ? element_kind(t.etype) : ElementKind::None;
      if (k != ElementKind::None && !op_takes(op.op.code, k))
        return fail(op, std::string(op.op.name) + " of this element type",
                    types_text(op_info(op.op.code).types) + " element type", t.element);
    }
    if (!ranked(op.result_type(0))) return true;
    const Type& out = op.result_type(0);
    for (std::size_t i = first; i < op.num_operands(); ++i) {
      const Type& t = op.operand_type(i);
      if (!ranked(t)) continue;
      if (!same_dims(t, out))
        return fail(op,
                    std::string(op.op.name) + " operand " + std::to_string(i) +
                        " shape differs from the result",
                    "the same shape " + to_string(out, m_.dialect), to_string(t, m_.dialect));
    }
    return true;
  }

  // select(pred, on_true, on_false): pred is a scalar or the result's shape.
  bool select_predicate(const OpView& op) {
    if (op.num_operands() == 0 || !ranked(op.result_type(0))) return true;
    const Type& p = op.operand_type(0);
    if (!ranked(p) || p.dims.empty() || same_dims(p, op.result_type(0))) return true;
    return fail(op, std::string(op.op.name) + " operand 0 shape differs from the result",
                "a scalar or the shape " + type_text(op.result_type(0)), type_text(p));
  }

  // clamp(min, x, max): min and max are scalars or x's shape.
  bool clamp(const OpView& op) {
    if (!ranked(op.result_type(0))) return true;
    const Type& out = op.result_type(0);
    for (std::size_t i = 0; i < op.num_operands(); ++i) {
      const Type& t = op.operand_type(i);
      if (!ranked(t) || (i != 1 && t.dims.empty())) continue;
      if (!same_dims(t, out))
        return fail(op,
                    std::string(op.op.name) + " operand " + std::to_string(i) +
                        " shape differs from the result",
                    "a scalar or the shape " + to_string(out, m_.dialect),
                    to_string(t, m_.dialect));
    }
    return true;
  }

  bool dot(const OpView& op) {
    const Type& l = op.operand_type(0);
    const Type& r = op.operand_type(1);
    if (!ranked(l) || !ranked(r)) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const DotDims& d = a->get<DotDims>();
    if (d.lhs_batch.size() != d.rhs_batch.size())
      return fail(op, "dot_general batching dimension lists differ in length",
                  "lhs and rhs lists of equal length",
                  list_text(d.lhs_batch) + " vs " + list_text(d.rhs_batch));
    if (d.lhs_contracting.size() != d.rhs_contracting.size())
      return fail(op, "dot_general contracting dimension lists differ in length",
                  "lhs and rhs lists of equal length",
                  list_text(d.lhs_contracting) + " vs " + list_text(d.rhs_contracting));
    auto in_range = [&](const std::vector<std::int64_t>& v, const Type& t, const char* side,
                        const char* kind) {
      std::vector<bool> seen(t.dims.size(), false);
      for (auto x : v) {
        if (x < 0 || static_cast<std::size_t>(x) >= t.dims.size())
          return fail(
              op, std::string("dot_general ") + side + " " + kind + " dimension out of range",
              "a dimension in [0, " + std::to_string(t.dims.size()) + ")", std::to_string(x));
        if (seen[static_cast<std::size_t>(x)])
          return fail(op, std::string("dot_general ") + side + " dimension used twice",
                      "each dimension at most once", std::to_string(x));
        seen[static_cast<std::size_t>(x)] = true;
      }
      return true;
    };
    if (!in_range(d.lhs_batch, l, "lhs", "batching") ||
        !in_range(d.rhs_batch, r, "rhs", "batching") ||
        !in_range(d.lhs_contracting, l, "lhs", "contracting") ||
        !in_range(d.rhs_contracting, r, "rhs", "contracting"))
      return false;
    for (const auto& lc : d.lhs_contracting)
      if (std::find(d.lhs_batch.begin(), d.lhs_batch.end(), lc) != d.lhs_batch.end())
        return fail(op, "dot_general lhs dimension is both batching and contracting",
                    "disjoint lists", std::to_string(lc));
    for (const auto& rc : d.rhs_contracting)
      if (std::find(d.rhs_batch.begin(), d.rhs_batch.end(), rc) != d.rhs_batch.end())
        return fail(op, "dot_general rhs dimension is both batching and contracting",
                    "disjoint lists", std::to_string(rc));
    auto size = [](const Type& t, std::int64_t i) { return t.dims[static_cast<std::size_t>(i)]; };
    for (std::size_t i = 0; i < d.lhs_batch.size(); ++i) {
      auto a = size(l, d.lhs_batch[i]), b = size(r, d.rhs_batch[i]);
      if (a >= 0 && b >= 0 && a != b)
        return fail(op, "dot_general batching dimension sizes differ",
                    "lhs dim " + std::to_string(d.lhs_batch[i]) + " and rhs dim " +
                        std::to_string(d.rhs_batch[i]) + " of equal size",
                    sizes_text(d.lhs_batch[i], a, d.rhs_batch[i], b));
    }
    for (std::size_t i = 0; i < d.lhs_contracting.size(); ++i) {
      auto a = size(l, d.lhs_contracting[i]), b = size(r, d.rhs_contracting[i]);
      if (a >= 0 && b >= 0 && a != b)
        return fail(op, "dot_general contracting dimension sizes differ",
                    "lhs dim " + std::to_string(d.lhs_contracting[i]) + " and rhs dim " +
                        std::to_string(d.rhs_contracting[i]) + " of equal size",
                    sizes_text(d.lhs_contracting[i], a, d.rhs_contracting[i], b));
    }
    // Result: batch dims, then lhs free dims, then rhs free dims.
    std::vector<std::int64_t> want;
    for (auto b : d.lhs_batch) want.push_back(size(l, b));
    for (std::size_t i = 0; i < l.dims.size(); ++i) {
      auto x = static_cast<std::int64_t>(i);
      if (std::find(d.lhs_batch.begin(), d.lhs_batch.end(), x) == d.lhs_batch.end() &&
          std::find(d.lhs_contracting.begin(), d.lhs_contracting.end(), x) ==
              d.lhs_contracting.end())
        want.push_back(l.dims[i]);
    }
    for (std::size_t i = 0; i < r.dims.size(); ++i) {
      auto x = static_cast<std::int64_t>(i);
      if (std::find(d.rhs_batch.begin(), d.rhs_batch.end(), x) == d.rhs_batch.end() &&
          std::find(d.rhs_contracting.begin(), d.rhs_contracting.end(), x) ==
              d.rhs_contracting.end())
        want.push_back(r.dims[i]);
    }
    const Type& out = op.result_type(0);
    if (!ranked(out)) return true;
    if (!dims_fit(want, out.dims))
      return fail(op, "dot_general result shape is wrong",
                  "batch x lhs free x rhs free = " + shape_list(want), shape_list(out.dims));
    return true;
  }

  bool broadcast_in_dim(const OpView& op) {
    if (op.num_operands() == 0) return true;
    const Type& in = op.operand_type(0);
    const Type& out = op.result_type(0);
    if (!ranked(in) || !ranked(out)) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const std::vector<std::int64_t>& dims = a->get<DimsAttrs>().dims;
    // HLO's broadcast (written with a shape) has broadcast_in_dim's rule.
    const std::string name =
        op.op.code == OpCode::BroadcastInDim ? "broadcast_in_dim" : "dynamic_broadcast_in_dim";
    if (dims.size() != in.dims.size())
      return fail(op, name + " needs one dimension per operand dimension",
                  std::to_string(in.dims.size()) + " dimensions", list_text(dims));
    std::vector<bool> seen(out.dims.size(), false);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] < 0 || static_cast<std::size_t>(dims[i]) >= out.dims.size())
        return fail(op, name + " dimension out of range",
                    "a dimension in [0, " + std::to_string(out.dims.size()) + ")",
                    std::to_string(dims[i]));
      // StableHLO's C5 (is_unique), XLA's "Broadcast dimensions order is wrong" / repeats.
      if (seen[static_cast<std::size_t>(dims[i])])
        return fail(op, name + " repeats a result dimension", "each dimension once",
                    list_text(dims));
      seen[static_cast<std::size_t>(dims[i])] = true;
      auto o = out.dims[static_cast<std::size_t>(dims[i])];
      if (in.dims[i] >= 0 && o >= 0 && in.dims[i] != 1 && in.dims[i] != o)
        return fail(op, name + " operand dimension does not fit",
                    "operand dim " + std::to_string(i) + " of size 1 or " + std::to_string(o),
                    std::to_string(in.dims[i]));
    }
    return keeps_element_type(op, in, out);
  }

  // stablehlo.broadcast (the spec's broadcast, before broadcast_in_dim replaced it; MHLO's
  // BroadcastOp::inferReturnTypeComponents): sizes of at least 0, and a result of the sizes
  // followed by the operand's dimensions, of the operand's element type.
  bool broadcast(const OpView& op) {
    if (op.num_operands() != 1) return true;
    const Type& in = op.operand_type(0);
    const OpAttrs* a = ranked(in) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    std::vector<std::int64_t> want = a->get<DimsAttrs>().dims;
    for (auto d : want)
      if (d < 0)
        return fail(op, "broadcast size is negative", "sizes of at least 0", list_text(want));
    want.insert(want.end(), in.dims.begin(), in.dims.end());
    return keeps_element_type(op, in, op.result_type(0)) && result_dims(op, want);
  }

  bool reshape(const OpView& op) {
    if (op.num_operands() == 0) return true;
    const Type& in = op.operand_type(0);
    const Type& out = op.result_type(0);
    if (!in.is_array() || !out.is_array()) return true;
    if (in.is_static() && out.is_static() && in.elements() != out.elements())
      return fail(op, "reshape changes the element count",
                  std::to_string(static_cast<long long>(in.elements())) + " elements",
                  std::to_string(static_cast<long long>(out.elements())));
    return keeps_element_type(op, in, out);
  }

  bool transpose(const OpView& op) {
    if (op.num_operands() == 0) return true;
    const Type& in = op.operand_type(0);
    const Type& out = op.result_type(0);
    const OpAttrs* a = ranked(in) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    const std::vector<std::int64_t>& perm = a->get<DimsAttrs>().dims;
    std::vector<bool> seen(in.dims.size(), false);
    bool ok = perm.size() == in.dims.size();
    for (auto p : perm) {
      if (!ok) break;
      if (p < 0 || static_cast<std::size_t>(p) >= seen.size() || seen[static_cast<std::size_t>(p)])
        ok = false;
      else
        seen[static_cast<std::size_t>(p)] = true;
    }
    if (!ok)
      return fail(
          op, "transpose permutation is not a permutation",
          "each of 0.." + std::to_string(static_cast<long long>(in.dims.size()) - 1) + " once",
          list_text(perm));
    if (!ranked(out)) return true;
    std::vector<std::int64_t> want;
    for (auto p : perm) want.push_back(in.dims[static_cast<std::size_t>(p)]);
    if (!dims_fit(want, out.dims))
      return fail(op, "transpose result shape is wrong", shape_list(want), shape_list(out.dims));
    return true;
  }

  bool reduce(const OpView& op) {
    std::size_t n = 0;
    if (!inputs_and_inits(op, &n)) return false;
    const Type& in = op.operand_type(0);
    const OpAttrs* a = ranked(in) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    const std::vector<std::int64_t>& dims = a->get<ReduceAttrs>().dims;
    std::vector<bool> seen(in.dims.size(), false);
    for (auto d : dims) {
      if (d < 0 || static_cast<std::size_t>(d) >= in.dims.size())
        return fail(op, "reduce dimension out of range",
                    "a dimension in [0, " + std::to_string(in.dims.size()) + ")",
                    std::to_string(d));
      if (seen[static_cast<std::size_t>(d)])
        return fail(op, "reduce dimension repeated", "each dimension once", std::to_string(d));
      seen[static_cast<std::size_t>(d)] = true;
    }
    if (op.num_results() == 0) return true;
    // HLO writes N results as one tuple of N (one result may be a 1-tuple): N of them, as the
    // kernel reads them (StableHLO: reduce_stablehlo counts its results).
    const Type& all = op.result_type(0);
    const std::size_t written = all.kind == Type::Kind::Tuple ? all.tuple.size() : 1;
    if (m_.dialect != "stablehlo" && op.num_results() == 1 && !opaque(all) && written != n)
      return fail(op, std::string(op.op.name) + " has another number of results than inputs",
                  std::to_string(n), std::to_string(written));
    const Type& out =
        op.result_type(0).kind == Type::Kind::Tuple && !op.result_type(0).tuple.empty()
            ? op.result_type(0).tuple[0]
            : op.result_type(0);
    if (!ranked(out)) return true;
    std::vector<std::int64_t> want;
    for (std::size_t i = 0; i < in.dims.size(); ++i)
      if (!seen[i]) want.push_back(in.dims[i]);
    if (!dims_fit(want, out.dims))
      return fail(op, "reduce result shape is wrong",
                  "the input without dimensions " + list_text(dims) + ": " + shape_list(want),
                  shape_list(out.dims));
    if (m_.dialect == "stablehlo") return reduce_stablehlo(op, n, seen);
    return true;
  }

  // Operands of one rank, equal in every dimension but the concatenated one, whose sizes add
  // up to the result's.
  bool concatenate(const OpView& op) {
    if (op.num_operands() == 0) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const Type& first = op.operand_type(0);
    if (!ranked(first)) return true;
    const std::int64_t d = a->get<DimensionAttrs>().dimension;
    if (d < 0 || static_cast<std::size_t>(d) >= first.dims.size())
      return fail(op, "concatenate dimension out of range",
                  "a dimension in [0, " + std::to_string(first.dims.size()) + ")",
                  std::to_string(d));
    std::int64_t total = 0;
    bool dynamic = false;
    for (std::size_t i = 0; i < op.num_operands(); ++i) {
      const Type& t = op.operand_type(i);
      if (!ranked(t)) return true;
      if (t.dims.size() != first.dims.size())
        return fail(op, "concatenate operand " + std::to_string(i) + " has another rank",
                    "rank " + std::to_string(first.dims.size()), to_string(t, m_.dialect));
      for (std::size_t k = 0; k < t.dims.size(); ++k) {
        if (static_cast<std::int64_t>(k) == d) continue;
        if (t.dims[k] >= 0 && first.dims[k] >= 0 && t.dims[k] != first.dims[k])
          return fail(op,
                      "concatenate operand " + std::to_string(i) + " differs outside dimension " +
                          std::to_string(d),
                      "dimension " + std::to_string(k) + " of size " +
                          std::to_string(first.dims[k]) + " as in " + to_string(first, m_.dialect),
                      to_string(t, m_.dialect));
      }
      const std::int64_t x = t.dims[static_cast<std::size_t>(d)];
      if (x < 0)
        dynamic = true;
      else
        total += x;
    }
    const Type& out = op.result_type(0);
    if (ranked(out) && out.dims.size() != first.dims.size())
      return fail(op, "concatenate result rank is wrong",
                  "rank " + std::to_string(first.dims.size()) + " as in " + type_text(first),
                  type_text(out));
    if (!ranked(out)) return true;
    for (std::size_t k = 0; k < out.dims.size(); ++k)
      if (static_cast<std::int64_t>(k) != d && out.dims[k] >= 0 && first.dims[k] >= 0 &&
          out.dims[k] != first.dims[k])
        return fail(
            op,
            "concatenate result differs from its operands outside dimension " + std::to_string(d),
            "dimension " + std::to_string(k) + " of size " + std::to_string(first.dims[k]) +
                " as in " + type_text(first),
            type_text(out));
    if (dynamic) return true;
    const std::int64_t o = out.dims[static_cast<std::size_t>(d)];
    if (o >= 0 && o != total)
      return fail(op, "concatenate result size is wrong",
                  "dimension " + std::to_string(d) + " of size " + std::to_string(total),
                  std::to_string(o));
    return true;
  }

  // ---- slices and pads: the bounds a run reads and writes within (the interpreter trusts them) --

  // The result's element type is the operand's: data movement never converts. Both dialects
  // (StableHLO's reshape, broadcast_in_dim, broadcast, slice, dynamic_slice and
  // dynamic_update_slice; XLA's shape inference of reshape, broadcast, slice, dynamic-slice and
  // dynamic-update-slice gives the operand's element type, which HloVerifier's CheckShape
  // compares, as infer.cpp's rules do for the ops it infers).
  bool keeps_element_type(const OpView& op, const Type& in, const Type& out) {
    if (!in.is_array() || !out.is_array() || quantized(in) || quantized(out) ||
        in.element == out.element)
      return true;
    return fail(op, std::string(op.op.name) + " changes the element type",
                in.element + " (the operand's)", out.element);
  }

  // The result's dimensions are `want` (-1: not known; a dynamic size matches any).
  bool result_dims(const OpView& op, const std::vector<std::int64_t>& want) {
    const Type& out = op.result_type(0);
    if (!ranked(out)) return true;
    if (!dims_fit(want, out.dims))
      return fail(op, std::string(op.op.name) + " result shape is wrong", shape_list(want),
                  shape_list(out.dims));
    return true;
  }

  // slice (StableHLO's constraints C1-C5, XLA's InferSliceShape): a start, limit and stride per
  // dimension, 0 <= start <= limit <= size, stride >= 1, and ceil((limit - start) / stride)
  // elements in each dimension of the result.
  bool slice(const OpView& op) {
    if (op.num_operands() != 1) return true;
    const Type& in = op.operand_type(0);
    const OpAttrs* a = ranked(in) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    const SliceAttrs& b = a->get<SliceAttrs>();
    const std::size_t rank = in.dims.size();
    const std::string name(op.op.name);
    if (b.starts.size() != rank || b.limits.size() != rank || b.strides.size() != rank)
      return fail(op, name + " needs a start, limit and stride per dimension",
                  std::to_string(rank) + " of each (the operand's rank)",
                  std::to_string(b.starts.size()) + " starts, " + std::to_string(b.limits.size()) +
                      " limits, " + std::to_string(b.strides.size()) + " strides");
    std::vector<std::int64_t> want(rank);
    for (std::size_t i = 0; i < rank; ++i) {
      const std::int64_t lo = b.starts[i], hi = b.limits[i], step = b.strides[i], d = in.dims[i];
      if (lo < 0 || lo > hi || (d >= 0 && hi > d) || step < 1)
        return fail(op, name + " bounds out of range in dimension " + std::to_string(i),
                    "0 <= start <= limit <= " + (d >= 0 ? std::to_string(d) : "the size") +
                        " and stride >= 1",
                    std::to_string(lo) + ":" + std::to_string(hi) + ":" + std::to_string(step));
      want[i] = (hi - lo) / step + ((hi - lo) % step != 0);
    }
    return keeps_element_type(op, in, op.result_type(0)) && result_dims(op, want);
  }

  // The start indices of dynamic_slice and dynamic_update_slice, from operand `first` on: one
  // 0-d integer tensor per dimension of the operand (StableHLO's C2 and C3; XLA's
  // InferDynamicSliceShape), or HLO's older form, one 1-D integer tensor of them.
  bool start_indices(const OpView& op, std::size_t first, std::size_t rank) {
    const std::size_t n = op.num_operands() - first;
    const std::string name(op.op.name);
    auto integers = [](const Type& t) {
      return opaque(t) || (t.is_array() && (is_integer(t.etype) || quantized(t)));
    };
    if (n == 1 && rank != 1) {
      const Type& t = op.operand_type(first);
      if (ranked(t) && t.dims.size() == 1 && (t.dims[0] < 0 || t.dims[0] == std::int64_t(rank))) {
        if (!integers(t))
          return fail(op, name + " start indices are not integers", "an integer tensor",
                      type_text(t));
        return true;
      }
    }
    if (n != rank)
      return fail(op, name + " needs one start index per dimension of the operand",
                  std::to_string(rank) + " indices", std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
      const Type& t = op.operand_type(first + i);
      if (opaque(t)) continue;
      const bool one = ranked(t) && (t.dims.empty() || (t.dims.size() == 1 && t.dims[0] == 1));
      if (!one || !integers(t))
        return fail(op, name + " start index " + std::to_string(i) + " is not a scalar integer",
                    "a 0-d integer tensor", type_text(t));
    }
    return true;
  }

  // dynamic_slice (StableHLO's C1-C5): the start indices, a slice size per dimension in [0, size],
  // and a result of the slice sizes.
  bool dynamic_slice(const OpView& op) {
    if (op.num_operands() == 0) return true;
    const Type& in = op.operand_type(0);
    const OpAttrs* a = ranked(in) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    const std::vector<std::int64_t>& sizes = a->get<DimsAttrs>().dims;
    const std::size_t rank = in.dims.size();
    const std::string name(op.op.name);
    if (!start_indices(op, 1, rank)) return false;
    if (sizes.size() != rank)
      return fail(op, name + " needs one slice size per dimension",
                  std::to_string(rank) + " sizes (the operand's rank)", list_text(sizes));
    for (std::size_t i = 0; i < rank; ++i)
      if (sizes[i] < 0 || (in.dims[i] >= 0 && sizes[i] > in.dims[i]))
        return fail(op, name + " slice size out of range in dimension " + std::to_string(i),
                    "0.." + (in.dims[i] >= 0 ? std::to_string(in.dims[i]) : "the size"),
                    std::to_string(sizes[i]));
    return keeps_element_type(op, in, op.result_type(0)) && result_dims(op, sizes);
  }

  // dynamic_update_slice (StableHLO's C1-C6): an update of the operand's rank and element type,
  // no larger than the operand in any dimension, the start indices, and the operand's type as
  // the result.
  bool dynamic_update_slice(const OpView& op) {
    if (op.num_operands() < 2) return true;
    const Type& in = op.operand_type(0);
    const Type& update = op.operand_type(1);
    if (!ranked(in) || !ranked(update)) return true;
    const std::size_t rank = in.dims.size();
    const std::string name(op.op.name);
    if (update.dims.size() != rank)
      return fail(op, name + " update has another rank than the operand",
                  "rank " + std::to_string(rank) + " as in " + type_text(in), type_text(update));
    for (std::size_t i = 0; i < rank; ++i)
      if (in.dims[i] >= 0 && update.dims[i] > in.dims[i])
        return fail(op,
                    name + " update is larger than the operand in dimension " + std::to_string(i),
                    "at most " + std::to_string(in.dims[i]), std::to_string(update.dims[i]));
    // XLA's InferDynamicUpdateSliceShape lets HLO's floats of two precisions meet.
    if (update.is_array() && !quantized(update) && !quantized(in) && kinds_differ(in, update))
      return fail(op, name + " update has another element type than the operand",
                  in.element + " (as " + type_text(in) + ")", update.element);
    if (!start_indices(op, 2, rank)) return false;
    return keeps_element_type(op, in, op.result_type(0)) && result_dims(op, in.dims);
  }

  // pad (StableHLO's C1-C3, XLA's InferPadShape): a 0-d padding value of the operand's element
  // type, low, high and interior padding per dimension, interior >= 0, and padded sizes from 0 to
  // 2^50 (size + low + high + max(size - 1, 0) * interior). These are what infer.cpp's pad rule
  // would refuse; with them met, that rule compares the written result with the padded shape
  // (check_written_shapes, both dialects: C4).
  bool pad(const OpView& op) {
    if (op.num_operands() != 2) return true;
    const Type& in = op.operand_type(0);
    const Type& value = op.operand_type(1);
    const std::string name(op.op.name);
    if (ranked(value) && !value.dims.empty())
      return fail(op, name + " padding value is not a scalar", "a 0-d tensor", type_text(value));
    // HLO lets floats of two precisions meet (infer.cpp's same_element_ignoring_fp).
    const bool fp_pair = m_.dialect == "hlo" && is_float(in.etype) && is_float(value.etype);
    if (in.is_array() && value.is_array() && !quantized(in) && !quantized(value) &&
        in.element != value.element && !fp_pair)
      return fail(op, name + " padding value has another element type than the operand",
                  in.element + " (as " + type_text(in) + ")", value.element);
    const OpAttrs* a = ranked(in) ? decoded(op) : nullptr;
    if (!a) return error.empty();
    const PadAttrs& p = a->get<PadAttrs>();
    const std::size_t rank = in.dims.size();
    if (p.low.size() != rank || p.high.size() != rank || p.interior.size() != rank)
      return fail(op, name + " needs low, high and interior padding per dimension",
                  std::to_string(rank) + " of each (the operand's rank)",
                  std::to_string(p.low.size()) + " low, " + std::to_string(p.high.size()) +
                      " high, " + std::to_string(p.interior.size()) + " interior");
    for (std::size_t i = 0; i < rank; ++i) {
      const std::int64_t d = in.dims[i], lo = p.low[i], hi = p.high[i], inner = p.interior[i];
      if (inner < 0)
        return fail(op, name + " interior padding is negative in dimension " + std::to_string(i),
                    "at least 0", std::to_string(inner));
      if (d < 0) continue;
      std::int64_t size = 0;
      if (!padded_size(d, lo, hi, inner, &size))
        return fail(op, name + " padded size out of range in dimension " + std::to_string(i),
                    "0 to 2^50 (size + low + high + (size - 1) * interior)",
                    std::to_string(d) + " + " + std::to_string(lo) + " + " + std::to_string(hi) +
                        " + " + std::to_string(std::max<std::int64_t>(d - 1, 0)) + " * " +
                        std::to_string(inner));
    }
    return true;
  }

  // ---- StableHLO's region ops: each body's arguments and values, and the results they give ----

  // The text of a tensor type of `dims` and `element` ("tensor<2x?xf32>", "tensor<f32>").
  static std::string tensor_text(const std::vector<std::int64_t>& dims, const std::string& e) {
    std::string s = "tensor<";
    for (auto d : dims) s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
    return s + e + ">";
  }
  // Whether values of `from`'s element type may be carried in `to`'s (StableHLO's
  // is_promotable: one kind, `to` at least as wide; quantized types are not compared).
  static bool promotable(const Type& from, const Type& to) {
    if (from.element == to.element || quantized(from) || quantized(to)) return true;
    const ElementKind a = element_kind(from.etype), b = element_kind(to.etype);
    return a == b && a != ElementKind::None && element_bytes(to.etype) >= element_bytes(from.etype);
  }
  static bool scalar(const Type& t) { return opaque(t) || (ranked(t) && t.dims.empty()); }

  // Region `k`'s block takes one 0-d tensor per entry of `want`, of the entry's element type (or
  // one it promotes to, where `promote`); `*args` gets the argument types.
  bool region_args(const OpView& op, std::size_t k, const std::string& name,
                   const std::vector<std::pair<const Type*, std::string>>& want, bool promote,
                   std::vector<const Type*>* args) {
    const auto& a = op.regions()[k].blocks.front().args;
    if (a.size() != want.size())
      return fail(op, name + " takes another number of arguments than its operands give",
                  std::to_string(want.size()) + " 0-d tensors", std::to_string(a.size()));
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Type& t = m_.value_type(op.f, a[i]);
      const Type& w = *want[i].first;
      const bool ok =
          opaque(t) || opaque(w) ||
          (scalar(t) &&
           (promote ? promotable(w, t) : t.element == w.element || (quantized(t) && quantized(w))));
      if (!ok)
        return fail(op, name + " argument " + std::to_string(i) + " has the wrong type",
                    tensor_text({}, w.element) + " (" + want[i].second + ")", type_text(t));
      args->push_back(&t);
    }
    return true;
  }

  // Region `k`'s return gives one 0-d tensor per entry of `want`, of the entry's element type.
  bool region_returns(const OpView& op, std::size_t k, const std::string& name,
                      const std::vector<std::pair<const Type*, std::string>>& want) {
    const Op* ret = terminator(op.regions()[k]);
    if (!ret) return true;
    const OpView rv{m_, op.f, *ret};
    if (rv.num_operands() != want.size())
      return fail(op, name + " returns another number of values than the op needs",
                  std::to_string(want.size()), std::to_string(rv.num_operands()));
    for (std::size_t i = 0; i < want.size(); ++i) {
      const Type& t = rv.operand_type(i);
      const Type& w = *want[i].first;
      if (opaque(t) || opaque(w) ||
          (scalar(t) && (t.element == w.element || (quantized(t) && quantized(w)))))
        continue;
      return fail(op, name + "'s value " + std::to_string(i) + " has the wrong type",
                  tensor_text({}, w.element) + " (" + want[i].second + ")", type_text(t));
    }
    return true;
  }

  bool has_body(const OpView& op, std::size_t k) const {
    return m_.dialect == "stablehlo" && op.regions().size() > k && !op.regions()[k].blocks.empty();
  }

  // Result `i` has `dims` (dynamic sizes match any) and `element`'s element type.
  bool result_is(const OpView& op, std::size_t i, const std::vector<std::int64_t>& dims,
                 const Type& element, const std::string& why) {
    if (i >= op.num_results()) return true;
    const Type& t = op.result_type(i);
    if (!ranked(t) || opaque(element)) return true;
    Type want = t;
    want.dims = dims;
    const bool same_element = t.element == element.element || (quantized(t) && quantized(element));
    if (same_dims(t, want) && same_element) return true;
    return fail(op,
                std::string(op.op.name) + " result " + std::to_string(i) + " has the wrong type",
                tensor_text(dims, element.element) + " (" + why + ")", type_text(t));
  }

  bool result_count(const OpView& op, std::size_t n, const std::string& why) {
    if (op.num_results() == n) return true;
    return fail(op, std::string(op.op.name) + " has another number of results than " + why,
                std::to_string(n), std::to_string(op.num_results()));
  }

  // Operands [from, to) are arrays (or of a type we cannot tell): a token or a tuple among a
  // region op's inputs is refused here, before its kernel would meet it.
  bool array_operands(const OpView& op, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      const Type& t = op.operand_type(i);
      if (!t.is_array() && !opaque(t))
        return fail(op,
                    std::string(op.op.name) + " operand " + std::to_string(i) + " is not a tensor",
                    "a tensor", type_text(t));
    }
    return true;
  }
  // Operands [1, n) have operand 0's dimensions (ranked ones; dynamic sizes match any).
  bool same_shapes(const OpView& op, std::size_t n) {
    const Type& first = op.operand_type(0);
    for (std::size_t i = 1; i < n; ++i)
      if (ranked(first) && ranked(op.operand_type(i)) && !same_dims(op.operand_type(i), first))
        return fail(op,
                    std::string(op.op.name) + " operand " + std::to_string(i) +
                        " shape differs from operand 0",
                    type_text(first) + "'s shape", type_text(op.operand_type(i)));
    return true;
  }
  // At least one operand, every one an array, of operand 0's shape where `one_shape` (sort; map
  // checks shapes itself, StableHLO's only).
  bool inputs_alike(const OpView& op, bool one_shape = true) {
    if (op.num_operands() == 0)
      return fail(op, std::string(op.op.name) + " has no inputs", "at least 1 input", "0");
    return array_operands(op, 0, op.num_operands()) &&
           (!one_shape || same_shapes(op, op.num_operands()));
  }
  // N inputs, then N init values (reduce, reduce_window): N at least 1, the inputs of one shape.
  // Each init value of its input's element type (StableHLO's reduce C2 and reduce_window C3;
  // XLA's VerifyReducerShape, where HLO's floats of two precisions may meet). An init value that is
  // not 0-d is allowed: StableHLO's verifier and XLA's importer accept one (verify_reduce.mlir,
  // import.hlo), though the interpreter does not run it.
  bool inputs_and_inits(const OpView& op, std::size_t* n) {
    const std::string name(op.op.name);
    *n = op.num_operands() / 2;
    if (op.num_operands() != 2 * *n || *n == 0)
      return fail(op, name + " needs as many init values as inputs",
                  "N inputs and N init values, N at least 1",
                  std::to_string(op.num_operands()) + " operands");
    if (!array_operands(op, 0, 2 * *n) || !same_shapes(op, *n)) return false;
    for (std::size_t i = 0; i < *n; ++i) {
      const Type& in = op.operand_type(i);
      const Type& init = op.operand_type(*n + i);
      if (kinds_differ(in, init))
        return fail(op,
                    name + " init value " + std::to_string(i) +
                        " has another element type than input " + std::to_string(i),
                    in.element + " (as " + type_text(in) + ")", type_text(init));
    }
    return true;
  }

  // A reducer body (StableHLO's verifyReducerShape: reduce, reduce_window, select_and_scatter's
  // scatter): for N inputs from operand `in0` and N init values from `init0`, region `k` takes
  // 2N arguments, i and N+i of one type Ei whose shape is init value i's and whose element type
  // init value i's and input i's promote to (equal, or one kind and wider), and returns N values
  // of the types Ei. *acc gets the Ei (init value i's type where there is no body).
  bool reducer(const OpView& op, std::size_t n, std::size_t in0, std::size_t init0, std::size_t k,
               const std::string& name, std::vector<const Type*>* acc) {
    for (std::size_t i = 0; i < n; ++i) acc->push_back(&op.operand_type(init0 + i));
    if (!has_body(op, k)) return true;
    auto alike = [&](const Type& a, const Type& b) {
      if (opaque(a) || opaque(b)) return true;
      if (a.element != b.element && !(quantized(a) && quantized(b))) return false;
      return !ranked(a) || !ranked(b) || same_dims(a, b);
    };
    const auto& a = op.regions()[k].blocks.front().args;
    if (a.size() != 2 * n)
      return fail(op, name + " takes another number of arguments than its operands give",
                  std::to_string(2 * n) + " (two per input)", std::to_string(a.size()));
    for (std::size_t j = 0; j < 2 * n; ++j) {
      const std::size_t i = j % n;
      const Type& t = m_.value_type(op.f, a[j]);
      const Type& init = op.operand_type(init0 + i);
      const Type& in = op.operand_type(in0 + i);
      Type shape = init;
      shape.element = t.element;
      const bool ok = opaque(t) || opaque(init) ||
                      (j < n ? alike(t, shape) && promotable(init, t) && promotable(in, t)
                             : alike(t, *(*acc)[i]));
      if (!ok)
        return fail(
            op, name + " argument " + std::to_string(j) + " has the wrong type",
            j < n ? type_text(init) + " (init value " + std::to_string(i) +
                        "'s type, or its shape with a wider element type)"
                  : type_text(*(*acc)[i]) + " (the type of argument " + std::to_string(i) + ")",
            type_text(t));
      if (j < n) (*acc)[i] = &t;
    }
    const Op* ret = terminator(op.regions()[k]);
    if (!ret) return true;
    const OpView rv{m_, op.f, *ret};
    if (rv.num_operands() != n)
      return fail(op, name + " returns another number of values than the op has inputs",
                  std::to_string(n), std::to_string(rv.num_operands()));
    for (std::size_t i = 0; i < n; ++i)
      if (!alike(rv.operand_type(i), *(*acc)[i]))
        return fail(op, name + "'s value " + std::to_string(i) + " has the wrong type",
                    type_text(*(*acc)[i]) + " (the type of argument " + std::to_string(i) + ")",
                    type_text(rv.operand_type(i)));
    return true;
  }

  // reduce(inputs..., inits...): the body above; N results, each its input without `dimensions`
  // and of its init's element type (result 0's shape: reduce()).
  bool reduce_stablehlo(const OpView& op, std::size_t n, const std::vector<bool>& reduced) {
    std::vector<const Type*> inits;
    if (!reducer(op, n, 0, n, 0, "stablehlo.reduce body", &inits) || !result_count(op, n, "inputs"))
      return false;
    for (std::size_t i = 0; i < n; ++i) {
      const Type& in = op.operand_type(i);
      if (!ranked(in) || in.dims.size() != reduced.size()) continue;
      std::vector<std::int64_t> want;
      for (std::size_t d = 0; d < in.dims.size(); ++d)
        if (!reduced[d]) want.push_back(in.dims[d]);
      if (!result_is(op, i, want, *inits[i],
                     "input " + std::to_string(i) +
                         " without the reduced dimensions; element type of body argument " +
                         std::to_string(i)))
        return false;
    }
    return true;
  }

  // reduce_window(inputs..., inits...): the reduce body; result i is the window's output over
  // input i (infer.h's window_output) in init value i's element type.
  bool reduce_window(const OpView& op) {
    std::size_t n = 0;
    if (!inputs_and_inits(op, &n)) return false;
    if (m_.dialect != "stablehlo") return true;  // HLO: infer.cpp's rule (check_written_shapes)
    std::vector<const Type*> inits;
    if (!reducer(op, n, 0, n, 0, "stablehlo.reduce_window body", &inits) ||
        !result_count(op, n, "inputs"))
      return false;
    const Type& first = op.operand_type(0);
    if (!ranked(first)) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const std::vector<WindowDim>& window = a->get<WindowAttrs>().window;
    if (!steps_positive(op, window, "stablehlo.reduce_window", true)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      // The decoder gave the window operand 0's rank; the inputs share its shape.
      const Type& in = op.operand_type(i);
      if (!ranked(in)) continue;
      std::vector<std::int64_t> want;
      if (!window_over(op, in, window, "input " + std::to_string(i), "input", &want)) return false;
      if (!result_is(op, i, want, *inits[i],
                     "the window's output over input " + std::to_string(i) +
                         "; element type of body argument " + std::to_string(i)))
        return false;
    }
    return true;
  }

  // select_and_scatter(operand, source, init): select takes two 0-d tensors of the operand's
  // element type and gives one i1; scatter is a reducer body over the source and the init value;
  // the result is the operand's type.
  bool select_and_scatter(const OpView& op) {
    if (op.num_operands() != 3) return true;
    if (m_.dialect != "stablehlo") return scatter_elements(op);  // the rest: infer.cpp's rule
    const Type& operand = op.operand_type(0);
    const std::string name(op.op.name);
    if (!array_operands(op, 0, 3) || !scatter_window(op)) return false;
    std::vector<const Type*> got;
    Type pred;
    pred.kind = Type::Kind::Tensor;
    pred.element = "i1";
    pred.etype = ElementType::Pred;
    if (has_body(op, 0) && (!region_args(op, 0, name + " select",
                                         {{&operand, "the operand's element type"},
                                          {&operand, "the operand's element type"}},
                                         false, &got) ||
                            !region_returns(op, 0, name + " select", {{&pred, "a boolean"}})))
      return false;
    std::vector<const Type*> acc;
    if (!reducer(op, 1, 1, 2, 1, name + " scatter", &acc)) return false;
    if (!result_count(op, 1, "one") || !ranked(operand)) return true;
    return result_is(op, 0, operand.dims, operand, "the operand's type");
  }

  // The window's output shape over `in` (infer.h's window_output) into *want; `which` ("input 0",
  // "the operand") and `noun` name `in` in the message.
  bool window_over(const OpView& op, const Type& in, const std::vector<WindowDim>& window,
                   const std::string& which, const char* noun, std::vector<std::int64_t>* want) {
    want->assign(in.dims.size(), 0);
    for (std::size_t d = 0; d < in.dims.size(); ++d) {
      const std::string bad = window_output(in.dims[d], window[d], &(*want)[d]);
      if (!bad.empty())
        return fail(op, std::string(op.op.name) + " window does not fit " + which,
                    "a window within the padded " + std::string(noun) + " in dimension " +
                        std::to_string(d),
                    bad);
    }
    return true;
  }

  // select_and_scatter's source and init value of the operand's element type (StableHLO's C1 and
  // C3; XLA's InferSelectAndScatterShape, where HLO's floats of two precisions may meet).
  bool scatter_elements(const OpView& op) {
    const std::string name(op.op.name);
    const Type& operand = op.operand_type(0);
    const Type& source = op.operand_type(1);
    const Type& init = op.operand_type(2);
    if (kinds_differ(operand, source))
      return fail(op, name + " source has another element type than the operand",
                  operand.element + " (as " + type_text(operand) + ")", type_text(source));
    if (kinds_differ(operand, init))
      return fail(op, name + " init value has another element type than the operand",
                  operand.element + " (as " + type_text(operand) + ")", type_text(init));
    return true;
  }

  // select_and_scatter's window (StableHLO's C4-C7: sizes and strides of at least 1) and its
  // source: of the operand's element type (C1), with the window's output shape over the operand
  // (C2); its init value 0-d and of the operand's element type (C3).
  bool scatter_window(const OpView& op) {
    const std::string name(op.op.name);
    const Type& operand = op.operand_type(0);
    const Type& source = op.operand_type(1);
    const Type& init = op.operand_type(2);
    if (!scatter_elements(op)) return false;
    if (!scalar(init) && init.kind != Type::Kind::Element)
      return fail(op, name + " init value is not 0-d", "a 0-d tensor", type_text(init));
    if (!ranked(operand)) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const std::vector<WindowDim>& window = a->get<WindowAttrs>().window;
    if (!steps_positive(op, window, name.c_str(), true)) return false;
    std::vector<std::int64_t> want;
    if (!window_over(op, operand, window, "the operand", "operand", &want)) return false;
    if (ranked(source) && !dims_fit(want, source.dims))
      return fail(op, name + " source does not have the window's output shape",
                  shape_list(want) + " (the window's output over the operand)", type_text(source));
    return true;
  }

  // scatter(inputs..., indices, updates...): the body takes (E0..EN-1, E0..EN-1), Ei input i's
  // element type or one it promotes to, and returns its first N argument types; result i has
  // input i's shape and Ei.
  bool scatter(const OpView& op) {
    const std::size_t n = op.num_operands() == 0 ? 0 : (op.num_operands() - 1) / 2;
    if (op.num_operands() != 2 * n + 1 || n == 0)
      return fail(op, std::string(op.op.name) + " needs as many updates as inputs",
                  "N inputs, the indices and N updates, N at least 1",
                  std::to_string(op.num_operands()) + " operands");
    if (!scatter_operands(op, n)) return false;
    if (m_.dialect != "stablehlo") return true;  // HLO: infer.cpp's rule (check_written_shapes)
    std::vector<const Type*> elements;
    for (std::size_t i = 0; i < n; ++i) elements.push_back(&op.operand_type(i));
    const std::string name(op.op.name);
    if (has_body(op, 0)) {
      std::vector<std::pair<const Type*, std::string>> args, rets;
      for (std::size_t j = 0; j < 2 * n; ++j)
        args.push_back({&op.operand_type(j % n),
                        "input " + std::to_string(j % n) + "'s element type or a wider one"});
      std::vector<const Type*> got;
      if (!region_args(op, 0, name + " body", args, true, &got)) return false;
      for (std::size_t j = 0; j < n; ++j) {
        rets.push_back({got[j], "the type of body argument " + std::to_string(j)});
        elements[j] = got[j];
      }
      if (!region_returns(op, 0, name + " body", rets)) return false;
    }
    if (!result_count(op, n, "inputs")) return false;
    for (std::size_t i = 0; i < n; ++i) {
      const Type& in = op.operand_type(i);
      if (ranked(in) &&
          !result_is(op, i, in.dims, *elements[i],
                     "input " + std::to_string(i) + "'s shape, the body's element type"))
        return false;
    }
    return true;
  }

  // Gather's and scatter's indices (`what`) are integers, where their element type is known.
  bool integer_indices(const OpView& op, const Type& t, const char* what) {
    if (!t.is_array() || t.etype == ElementType::Invalid || is_integer(t.etype)) return true;
    return fail(op, std::string(op.op.name) + " " + what + " are not integers", "an integer tensor",
                type_text(t));
  }

  // A dimension list of an attribute (`what`): each in [0, rank), none twice. *mark gets them.
  bool dim_marks(const OpView& op, const std::vector<std::int64_t>& list, std::size_t rank,
                 const char* what, std::vector<bool>* mark) {
    mark->assign(rank, false);
    for (auto d : list) {
      if (d < 0 || static_cast<std::size_t>(d) >= rank)
        return fail(op, std::string(op.op.name) + " " + what + " out of range",
                    "dimensions in [0, " + std::to_string(rank) + ")", list_text(list));
      if ((*mark)[static_cast<std::size_t>(d)])
        return fail(op, std::string(op.op.name) + " " + what + " repeats a dimension",
                    "each dimension once", list_text(list));
      (*mark)[static_cast<std::size_t>(d)] = true;
    }
    return true;
  }

  // gather(operand, start_indices) and dynamic_gather(operand, start_indices, slice_sizes), in
  // both dialects (StableHLO's gather constraints, XLA's ValidateGatherDimensionNumbers and
  // InferGatherShape): integer start indices, the result in the operand's element type;
  // index_vector_dim in [0, rank(start_indices)]; offset_dims sorted, within the result's rank;
  // collapsed_slice_dims, operand_batching_dims and start_index_map operand dimensions, each once,
  // the batching ones neither collapsed nor in start_index_map; as many start_indices_batching_dims
  // (start-index dimensions, not index_vector_dim) of the same sizes; start_index_map as long as
  // the index vector; offset, collapsed and batching dimensions covering the operand; a slice size
  // per operand dimension, within it, at most 1 where collapsed or batching; the result's shape,
  // the batch dimensions (the start indices' but index_vector_dim) and the slice's offset sizes.
  // dynamic_gather's slice sizes are values: only their count is checked here.
  bool gather(const OpView& op) {
    const std::string name(op.op.name);
    const bool dynamic = op.op.code == OpCode::DynamicGather;
    const Type& x = op.operand_type(0);
    const Type& ix = op.operand_type(1);
    if (!integer_indices(op, ix, "start indices")) return false;
    if (!keeps_element_type(op, x, op.result_type(0))) return false;
    if (!ranked(x) || !ranked(ix)) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const GatherDims& g = a->get<GatherDims>();
    const std::size_t xr = x.dims.size(), ir = ix.dims.size();
    const std::int64_t ivd = g.index_vector_dim;
    if (ivd < 0 || static_cast<std::size_t>(ivd) > ir)
      return fail(op, name + " index_vector_dim out of range",
                  "a dimension in [0, " + std::to_string(ir) + "]", std::to_string(ivd));
    const bool has_vector = static_cast<std::size_t>(ivd) < ir;
    std::vector<std::int64_t> slice = g.slice_sizes;
    if (dynamic) {
      const Type& st = op.operand_type(2);
      const std::int64_t count = ranked(st) && st.dims.size() == 1 ? st.dims[0] : -1;
      if (count >= 0 && static_cast<std::size_t>(count) != xr)
        return fail(op, name + " slice_sizes has the wrong length",
                    std::to_string(xr) + " sizes (the operand's rank)", type_text(st));
      slice.assign(xr, -1);  // values: not known here
    } else if (slice.size() != xr) {
      return fail(op, name + " slice_sizes has the wrong length",
                  std::to_string(xr) + " sizes (the operand's rank)", list_text(slice));
    }
    const std::size_t yr = g.offset_dims.size() + ir - (has_vector ? 1 : 0);
    std::vector<bool> offset, collapsed, batching, mapped, index_batching;
    if (!dim_marks(op, g.offset_dims, yr, "offset_dims", &offset) ||
        !dim_marks(op, g.collapsed_slice_dims, xr, "collapsed_slice_dims", &collapsed) ||
        !dim_marks(op, g.operand_batching_dims, xr, "operand_batching_dims", &batching) ||
        !dim_marks(op, g.start_index_map, xr, "start_index_map", &mapped) ||
        !dim_marks(op, g.start_indices_batching_dims, ir, "start_indices_batching_dims",
                   &index_batching))
      return false;
    if (!std::is_sorted(g.offset_dims.begin(), g.offset_dims.end()))
      return fail(op, name + " offset_dims are not sorted", "ascending dimensions",
                  list_text(g.offset_dims));
    for (std::size_t d = 0; d < xr; ++d)
      if (batching[d] && (collapsed[d] || mapped[d]))
        return fail(op, name + " operand_batching_dims names a collapsed or mapped dimension",
                    "a dimension in neither collapsed_slice_dims nor start_index_map",
                    std::to_string(d));
    const std::size_t parts =
        g.offset_dims.size() + g.collapsed_slice_dims.size() + g.operand_batching_dims.size();
    if (parts != xr)
      return fail(op, name + " dimension numbers do not cover the operand",
                  "rank " + std::to_string(xr) +
                      " = offset_dims + collapsed_slice_dims + operand_batching_dims",
                  std::to_string(parts));
    const std::int64_t vector_len = has_vector ? ix.dims[static_cast<std::size_t>(ivd)] : 1;
    if (vector_len >= 0 && static_cast<std::int64_t>(g.start_index_map.size()) != vector_len)
      return fail(op, name + " start_index_map does not match the index vector",
                  std::to_string(vector_len) + " dimensions (the index vector's size)",
                  list_text(g.start_index_map));
    if (g.operand_batching_dims.size() != g.start_indices_batching_dims.size())
      return fail(
          op, name + " batching dimensions differ in number",
          "as many in operand_batching_dims as in start_indices_batching_dims",
          list_text(g.operand_batching_dims) + " and " + list_text(g.start_indices_batching_dims));
    if (has_vector && index_batching[static_cast<std::size_t>(ivd)])
      return fail(op, name + " start_indices_batching_dims names the index_vector_dim",
                  "a dimension other than " + std::to_string(ivd),
                  list_text(g.start_indices_batching_dims));
    for (std::size_t i = 0; i < g.operand_batching_dims.size(); ++i) {
      const auto xd = static_cast<std::size_t>(g.operand_batching_dims[i]);
      const auto id = static_cast<std::size_t>(g.start_indices_batching_dims[i]);
      if (!size_fits(x.dims[xd], ix.dims[id]))
        return fail(
            op,
            name + " batching dimension " + std::to_string(xd) + " differs from the start indices'",
            std::to_string(ix.dims[id]) + " (start indices dimension " + std::to_string(id) + ")",
            std::to_string(x.dims[xd]));
    }
    for (std::size_t d = 0; d < xr; ++d) {
      if (slice[d] == -1 && dynamic) continue;
      if (slice[d] < 0 || (x.dims[d] >= 0 && slice[d] > x.dims[d]))
        return fail(op, name + " slice size out of range in dimension " + std::to_string(d),
                    "0.." + (x.dims[d] >= 0 ? std::to_string(x.dims[d]) : std::string("its size")),
                    std::to_string(slice[d]));
      if ((collapsed[d] || batching[d]) && slice[d] > 1)
        return fail(op,
                    name + " collapsed or batching dimension " + std::to_string(d) +
                        " has a slice size over 1",
                    "0 or 1", std::to_string(slice[d]));
    }
    // The result: offset_dims take the slice sizes of the operand's other dimensions, in order;
    // the rest the start indices' dimensions but index_vector_dim, in order.
    std::vector<std::int64_t> want;
    std::size_t next_slice = 0, next_batch = 0;
    for (std::size_t k = 0; k < yr; ++k) {
      if (offset[k]) {
        while (collapsed[next_slice] || batching[next_slice]) ++next_slice;
        want.push_back(slice[next_slice++]);
      } else {
        if (has_vector && next_batch == static_cast<std::size_t>(ivd)) ++next_batch;
        want.push_back(ix.dims[next_batch++]);
      }
    }
    return result_dims(op, want);
  }

  // scatter's operands, in both dialects: N inputs of one shape, integer indices, N updates of one
  // shape (in StableHLO each of its input's element type; XLA lets floats of two precisions meet),
  // and the dimension numbers over input 0, the indices and update 0 (StableHLO's scatter C4-C15,
  // XLA's ValidateScatterDimensionNumbers): what the interpreter's scatter_plan walks by.
  bool scatter_operands(const OpView& op, std::size_t n) {
    const std::string name(op.op.name);
    if (!array_operands(op, 0, 2 * n + 1) || !same_shapes(op, n)) return false;
    const Type& x = op.operand_type(0);
    const Type& ix = op.operand_type(n);
    const Type& u = op.operand_type(n + 1);
    for (std::size_t i = 0; i < n; ++i) {
      const Type& ui = op.operand_type(n + 1 + i);
      const Type& xi = op.operand_type(i);
      if (ranked(u) && ranked(ui) && !same_dims(ui, u))
        return fail(op, name + " update " + std::to_string(i) + " shape differs from update 0",
                    type_text(u) + "'s shape", type_text(ui));
      if (kinds_differ(xi, ui))
        return fail(op,
                    name + " update " + std::to_string(i) +
                        " has another element type than input " + std::to_string(i),
                    xi.element + " (as " + type_text(xi) + ")", type_text(ui));
    }
    if (!integer_indices(op, ix, "indices")) return false;
    if (!ranked(x) || !ranked(ix) || !ranked(u)) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const ScatterAttrs& sd = a->get<ScatterAttrs>();
    const std::size_t ro = x.dims.size(), ri = ix.dims.size(), ru = u.dims.size();
    auto bad = [&](const std::string& what, const std::string& rule, const std::string& got) {
      return fail(op, name + " " + what, rule, got);
    };
    const std::int64_t ivd = sd.index_vector_dim;
    if (ivd < 0 || static_cast<std::size_t>(ivd) > ri)
      return bad("index_vector_dim out of range", "a dimension in [0, " + std::to_string(ri) + "]",
                 std::to_string(ivd));
    const bool has_ivd = static_cast<std::size_t>(ivd) < ri;
    std::vector<bool> is_window, inserted, batching, mapped, index_batching;
    if (!dim_marks(op, sd.update_window_dims, ru, "update_window_dims", &is_window) ||
        !dim_marks(op, sd.inserted_window_dims, ro, "inserted_window_dims", &inserted) ||
        !dim_marks(op, sd.input_batching_dims, ro, "input_batching_dims", &batching) ||
        !dim_marks(op, sd.scatter_dims_to_operand_dims, ro, "scatter_dims_to_operand_dims",
                   &mapped) ||
        !dim_marks(op, sd.scatter_indices_batching_dims, ri, "scatter_indices_batching_dims",
                   &index_batching))
      return false;
    if (!std::is_sorted(sd.update_window_dims.begin(), sd.update_window_dims.end()))
      return bad("update_window_dims are not sorted", "sorted", list_text(sd.update_window_dims));
    for (std::size_t d = 0; d < ro; ++d)
      if (batching[d] && (inserted[d] || mapped[d]))
        return bad("input_batching_dims names an inserted or mapped dimension",
                   "a dimension in neither inserted_window_dims nor scatter_dims_to_operand_dims",
                   std::to_string(d));
    const std::size_t parts = sd.update_window_dims.size() + sd.inserted_window_dims.size() +
                              sd.input_batching_dims.size();
    if (ro != parts)
      return bad("dimension numbers do not cover the input",
                 "rank " + std::to_string(ro) +
                     " = update_window_dims + inserted_window_dims + input_batching_dims",
                 std::to_string(parts));
    const std::int64_t index_count = has_ivd ? ix.dims[static_cast<std::size_t>(ivd)] : 1;
    if (index_count >= 0 &&
        static_cast<std::int64_t>(sd.scatter_dims_to_operand_dims.size()) != index_count)
      return bad("scatter_dims_to_operand_dims does not match the index vector",
                 std::to_string(index_count) + " dimensions (the index vector's size)",
                 list_text(sd.scatter_dims_to_operand_dims));
    if (sd.input_batching_dims.size() != sd.scatter_indices_batching_dims.size())
      return bad("batching dimensions differ in number",
                 "as many in input_batching_dims as in scatter_indices_batching_dims",
                 list_text(sd.input_batching_dims) + " and " +
                     list_text(sd.scatter_indices_batching_dims));
    if (has_ivd && index_batching[static_cast<std::size_t>(ivd)])
      return bad("scatter_indices_batching_dims names the index_vector_dim",
                 "a dimension other than " + std::to_string(ivd),
                 list_text(sd.scatter_indices_batching_dims));
    // The updates' scatter dimensions pair, in order, with the indices' dimensions other than
    // index_vector_dim.
    std::size_t t = 0;
    for (std::size_t d = 0; d < ru; ++d) {
      if (is_window[d]) continue;
      if (has_ivd && t == static_cast<std::size_t>(ivd)) ++t;
      if (t >= ri)
        return bad("updates have too many scatter dimensions",
                   std::to_string(ri - (has_ivd ? 1 : 0)) +
                       " (one per dimension of the indices but index_vector_dim)",
                   type_text(u));
      if (!size_fits(u.dims[d], ix.dims[t]))
        return bad("update dimension " + std::to_string(d) + " differs from the indices'",
                   std::to_string(ix.dims[t]) + " (indices dimension " + std::to_string(t) + ")",
                   std::to_string(u.dims[d]));
      ++t;
    }
    if (has_ivd && t == static_cast<std::size_t>(ivd)) ++t;
    if (t != ri)
      return bad("updates have too few scatter dimensions",
                 std::to_string(ri - (has_ivd ? 1 : 0)) +
                     " (one per dimension of the indices but index_vector_dim)",
                 type_text(u));
    for (std::size_t i = 0; i < sd.input_batching_dims.size(); ++i) {
      const auto od = static_cast<std::size_t>(sd.input_batching_dims[i]);
      const auto id = static_cast<std::size_t>(sd.scatter_indices_batching_dims[i]);
      if (!size_fits(x.dims[od], ix.dims[id]))
        return bad("batching dimension " + std::to_string(od) + " differs from the indices'",
                   std::to_string(ix.dims[id]) + " (indices dimension " + std::to_string(id) + ")",
                   std::to_string(x.dims[od]));
    }
    // The window: the input's dimensions neither inserted nor batching, in order, pair with
    // update_window_dims, each no longer than its input dimension.
    std::size_t wi = 0;
    for (std::size_t d = 0; d < ro; ++d) {
      if (inserted[d] || batching[d]) continue;
      const auto ud = static_cast<std::size_t>(sd.update_window_dims[wi++]);
      if (u.dims[ud] >= 0 && x.dims[d] >= 0 && u.dims[ud] > x.dims[d])
        return bad(
            "update window dimension " + std::to_string(ud) + " is larger than the input",
            "at most " + std::to_string(x.dims[d]) + " (input dimension " + std::to_string(d) + ")",
            std::to_string(u.dims[ud]));
    }
    return true;
  }

  // map(inputs...): at least one input; `dimensions`, where written, every dimension in order
  // (StableHLO's C3; XLA's InferMapShape). StableHLO: the inputs of one shape (XLA lets a scalar
  // stand beside arrays: infer.cpp's rule); the body takes one 0-d tensor of each input's element
  // type and gives one; the result has the inputs' shape and the body's value's element type.
  bool map(const OpView& op) {
    const std::string name(op.op.name);
    if (!inputs_alike(op, false)) return false;
    const Type& first = op.operand_type(0);
    if (ranked(first)) {
      const OpAttrs* a = decoded(op);
      if (!a && !error.empty()) return false;
      const std::vector<std::int64_t> none;
      const std::vector<std::int64_t>& d = a ? a->get<ReduceAttrs>().dims : none;
      bool in_order = d.empty() || d.size() == first.dims.size();
      for (std::size_t i = 0; in_order && i < d.size(); ++i)
        in_order = d[i] == static_cast<std::int64_t>(i);
      if (!in_order)
        return fail(op, name + " dimensions are not every dimension in order",
                    "0 to " + std::to_string(first.dims.size()) + " - 1", list_text(d));
    }
    if (m_.dialect != "stablehlo") return true;
    if (!same_shapes(op, op.num_operands())) return false;
    const Type* element = &first;
    if (has_body(op, 0)) {
      std::vector<std::pair<const Type*, std::string>> args;
      for (std::size_t i = 0; i < op.num_operands(); ++i)
        args.push_back({&op.operand_type(i), "input " + std::to_string(i) + "'s element type"});
      std::vector<const Type*> got;
      if (!region_args(op, 0, name + " body", args, false, &got)) return false;
      const Op* ret = terminator(op.regions()[0]);
      if (ret) {
        const OpView rv{m_, op.f, *ret};
        if (rv.num_operands() != 1 || !scalar(rv.operand_type(0)))
          return fail(op, name + " body does not return one 0-d tensor", "one 0-d tensor",
                      rv.num_operands() == 1 ? type_text(rv.operand_type(0))
                                             : std::to_string(rv.num_operands()) + " values");
        element = &rv.operand_type(0);
      }
    }
    if (!result_count(op, 1, "one") || !ranked(first)) return true;
    return result_is(op, 0, first.dims, *element,
                     "the inputs' shape, the element type the body returns");
  }

  // sort(inputs...): at least one input, all of one shape, sorted along a dimension in
  // [-rank, rank) (StableHLO's C1, C4; XLA's HandleSort). StableHLO: the comparator takes two 0-d
  // tensors of each input's element type (2i and 2i+1 for input i) and gives one i1; result i is
  // input i's type (HLO: infer.cpp's rule compares the written tuple).
  bool sort(const OpView& op) {
    if (!inputs_alike(op)) return false;
    const std::string name(op.op.name);
    const std::size_t n = op.num_operands();
    const Type& first = op.operand_type(0);
    if (ranked(first)) {
      const OpAttrs* a = decoded(op);
      if (!a) return error.empty();
      const std::int64_t d = a->get<SortAttrs>().dimension;
      const auto rank = static_cast<std::int64_t>(first.dims.size());
      if (d < -rank || d >= rank)
        return fail(op, name + " dimension out of range",
                    "a dimension in [-" + std::to_string(rank) + ", " + std::to_string(rank) + ")",
                    std::to_string(d));
    }
    if (m_.dialect != "stablehlo") return true;
    if (has_body(op, 0)) {
      std::vector<std::pair<const Type*, std::string>> args;
      for (std::size_t j = 0; j < 2 * n; ++j)
        args.push_back(
            {&op.operand_type(j / 2), "input " + std::to_string(j / 2) + "'s element type"});
      std::vector<const Type*> got;
      Type pred;
      pred.kind = Type::Kind::Tensor;
      pred.element = "i1";
      pred.etype = ElementType::Pred;
      if (!region_args(op, 0, name + " comparator", args, false, &got) ||
          !region_returns(op, 0, name + " comparator", {{&pred, "a boolean"}}))
        return false;
    }
    if (!result_count(op, n, "inputs")) return false;
    for (std::size_t i = 0; i < n; ++i) {
      const Type& in = op.operand_type(i);
      if (ranked(in) && !result_is(op, i, in.dims, in, "input " + std::to_string(i) + "'s type"))
        return false;
    }
    return true;
  }

  // chlo.top_k(operand), k: an operand of rank 1 or more whose last dimension is at least k >= 0;
  // two results, the k largest values (the operand's element type) and their i32 indices, both
  // the operand's shape with k last (CHLO's TopKOp::inferReturnTypeComponents).
  bool top_k(const OpView& op) {
    const std::string name(op.op.name);
    const Type& x = op.operand_type(0);
    if (!ranked(x)) return true;
    if (x.dims.empty())
      return fail(op, name + " of a scalar", "a tensor of rank 1 or more", type_text(x));
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const std::int64_t k = a->get<TopKAttrs>().k, last = x.dims.back();
    if (k < 0 || (last >= 0 && k > last))
      return fail(
          op, name + " k out of range",
          "0 <= k <= " + (last >= 0 ? std::to_string(last) : std::string("the last dimension")),
          std::to_string(k));
    if (!result_count(op, 2, "values and indices")) return false;
    std::vector<std::int64_t> dims = x.dims;
    dims.back() = k;
    Type index;
    index.kind = Type::Kind::Tensor;
    index.element = "i32";
    index.etype = ElementType::S32;
    return result_is(op, 0, dims, x, "the operand's shape with k last, its element type") &&
           result_is(op, 1, dims, index, "the operand's shape with k last, i32 indices");
  }

  // bitcast_convert (StableHLO's C1 and C2; XLA's InferBitcastConvertShape): the result holds
  // the operand's bits. Elements of one width keep the shape; a narrower result element adds a
  // last dimension of width ratio, a wider one takes the operand's last dimension of that ratio
  // away. Complex to or from real is refused.
  bool bitcast_convert(const OpView& op) {
    const std::string name(op.op.name);
    const Type& x = op.operand_type(0);
    const Type& y = op.result_type(0);
    if (!ranked(x) || !ranked(y) || x.etype == ElementType::Quant ||
        y.etype == ElementType::Quant || x.etype == ElementType::Invalid ||
        y.etype == ElementType::Invalid)
      return true;
    if (is_complex(x.etype) != is_complex(y.etype))
      return fail(op, name + " between a complex and a real type", "both complex or both not",
                  type_text(x) + " to " + type_text(y));
    const int from = element_info(x.etype).bits, to = element_info(y.etype).bits;
    std::vector<std::int64_t> want = x.dims;
    std::string why = "the operand's shape: its elements are as wide as the result's";
    if (to < from) {
      if (from % to != 0)
        return fail(op, name + " between element widths that do not divide",
                    "one width a multiple of the other",
                    std::to_string(from) + " and " + std::to_string(to) + " bits");
      want.push_back(from / to);
      why = "the operand's shape and " + std::to_string(from / to) + ", the " + std::to_string(to) +
            "-bit words in each " + std::to_string(from) + "-bit element";
    } else if (to > from) {
      if (to % from != 0)
        return fail(op, name + " between element widths that do not divide",
                    "one width a multiple of the other",
                    std::to_string(from) + " and " + std::to_string(to) + " bits");
      const std::int64_t ratio = to / from;
      if (x.dims.empty() || !size_fits(x.dims.back(), ratio))
        return fail(op, name + " to a wider element needs the operand's last dimension",
                    "a last dimension of " + std::to_string(ratio) + " (" + std::to_string(to) +
                        " / " + std::to_string(from) + " bits)",
                    type_text(x));
      want.pop_back();
      why = "the operand's shape without its last dimension of " + std::to_string(ratio);
    }
    if (dims_fit(y.dims, want)) return true;
    Type w;
    w.kind = Type::Kind::Tensor;
    w.element = y.element;
    w.etype = y.etype;
    w.dims = want;
    return fail(op, name + " result has the wrong shape", type_text(w) + " (" + why + ")",
                type_text(y));
  }

  // StableHLO's optimization_barrier gives its operands back, one result each of its type. HLO's
  // form takes and gives one tuple: infer.cpp's rule checks it.
  bool optimization_barrier(const OpView& op) {
    if (m_.dialect != "stablehlo") return true;
    const std::string name(op.op.name);
    if (!result_count(op, op.num_operands(), "its operands")) return false;
    for (std::size_t i = 0; i < op.num_operands(); ++i)
      if (!compatible(op.operand_type(i), op.result_type(i)))
        return fail(
            op,
            name + " result " + std::to_string(i) + " differs from operand " + std::to_string(i),
            type_text(op.operand_type(i)) + " (the operand's type)", type_text(op.result_type(i)));
    return true;
  }

  // rng_bit_generator (StableHLO's spec and C1, C2; XLA's ShapeInference for RngBitGenerator):
  // a state of ui64 words (1-d) and results (new state, values), two (StableHLO) or one tuple of
  // two (HLO; or the values alone, as XLA's importer reads them); the new state has the state's
  // type; THREE_FRY takes 2 words, PHILOX 2 or 3 (DEFAULT's count is the implementation's); the
  // values are integers or floats.
  bool rng_bit_generator(const OpView& op) {
    const std::string name(op.op.name);
    const Type& s = op.operand_type(0);
    if (opaque(s)) return true;
    if (!ranked(s) || s.etype != ElementType::U64 || s.dims.size() != 1)
      return fail(op, name + " state is not a 1-d array of ui64 words",
                  m_.dialect == "stablehlo" ? "tensor<Nxui64>" : "u64[N]", type_text(s));
    const Type *ns = nullptr, *values = nullptr;
    if (!rng_results(op, &ns, &values))
      return fail(op, name + " gives other results than (new state, values)",
                  m_.dialect == "stablehlo" ? "2 results" : "one tuple of 2, or the values alone",
                  op.num_results() == 1 ? type_text(op.result_type(0))
                                        : std::to_string(op.num_results()) + " results");
    if (ns && !compatible(s, *ns))
      return fail(op, name + " new state has another type than the state",
                  type_text(s) + " (the state's type)", type_text(*ns));
    if (!opaque(*values) &&
        (!values->is_array() || !(is_integer(values->etype) || is_float(values->etype))))
      return fail(op, name + " values are not integers or floats",
                  "an array of an integer or floating-point type", type_text(*values));
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const std::int64_t words = s.dims[0];
    const std::string rule = words < 0 ? "" : rng_words_rule(a->get<RngAttrs>().algorithm, words);
    if (rule.empty()) return true;
    return fail(op, name + " state has the wrong number of words for its algorithm", rule,
                std::to_string(words) + " (" + type_text(s) + ")");
  }

  bool convolution(const OpView& op) {
    if (op.num_operands() < 2) return true;
    const OpAttrs* a = decoded(op);
    if (!a) return error.empty();
    const ConvAttrs& cv = a->get<ConvAttrs>();
    const ConvDims& d = cv.dims;
    const Type& l = op.operand_type(0);
    const Type& k = op.operand_type(1);
    const Type& o = op.result_type(0);
    const std::size_t s = d.input_spatial.size();
    if (d.kernel_spatial.size() != s || d.output_spatial.size() != s)
      return fail(op, "convolution spatial dimension counts differ",
                  std::to_string(s) + " in input, kernel and output",
                  std::to_string(d.kernel_spatial.size()) + " and " +
                      std::to_string(d.output_spatial.size()));
    for (const Type* t : {&l, &k, &o})
      if (ranked(*t) && t->dims.size() != s + 2)
        return fail(op, "convolution operand rank does not match its dimension numbers",
                    "rank " + std::to_string(s + 2), "rank " + std::to_string(t->dims.size()));
    // Each side's dimension numbers name distinct dimensions of its rank (before any is read).
    auto distinct = [&](const char* side, std::int64_t batch, std::int64_t feature,
                        const std::vector<std::int64_t>& spatial) {
      std::vector<std::int64_t> all = spatial;
      all.push_back(batch);
      all.push_back(feature);
      std::vector<bool> seen(s + 2, false);
      for (auto x : all) {
        if (x < 0 || static_cast<std::size_t>(x) >= s + 2 || seen[static_cast<std::size_t>(x)])
          return fail(op,
                      std::string("convolution ") + side +
                          " dimension numbers are not distinct dimensions of its rank",
                      "each of 0.." + std::to_string(s + 1) + " once", list_text(all));
        seen[static_cast<std::size_t>(x)] = true;
      }
      return true;
    };
    if (!distinct("input", d.input_batch, d.input_feature, d.input_spatial) ||
        !distinct("kernel", d.kernel_input_feature, d.kernel_output_feature, d.kernel_spatial) ||
        !distinct("output", d.output_batch, d.output_feature, d.output_spatial))
      return false;
    const std::int64_t fgc = cv.feature_group_count, bgc = cv.batch_group_count;
    const std::vector<WindowDim>& window = cv.window;
    if (!steps_positive(op, window, "convolution")) return false;
    // StableHLO's C9 (window_reversal's size is the spatial rank), written in either dialect.
    if (!cv.window_reversal.empty() && cv.window_reversal.size() != s)
      return fail(op, "convolution window_reversal does not fit its spatial dimensions",
                  std::to_string(s) + " flags (one per spatial dimension)",
                  std::to_string(cv.window_reversal.size()));
    // The result's shape: infer.h's convolution_result, the rule HLO's shape inference uses too
    // (the run computes with the same sizes).
    if (!ranked(l) || !ranked(k) || l.dims.size() != s + 2 || k.dims.size() != s + 2) return true;
    std::vector<std::int64_t> want;
    const ShapeRuleBroken broken =
        convolution_result(d, l.dims, k.dims, fgc, bgc, window, false, &want);
    if (!broken.ok())
      return fail(op, "convolution operands break a shape rule", broken.rule, broken.got);
    if (!ranked(o)) return true;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (want[i] >= 0 && o.dims[i] >= 0 && want[i] != o.dims[i])
        return fail(op, "convolution result shape is wrong", shape_list(want), shape_list(o.dims));
    return true;
  }
};

}  // namespace

bool rng_results(const OpView& op, const Type** state, const Type** values) {
  *state = *values = nullptr;
  if (op.num_results() == 2) {
    *state = &op.result_type(0);
    *values = &op.result_type(1);
  } else if (op.num_results() == 1 && op.result_type(0).kind == Type::Kind::Tuple &&
             op.result_type(0).tuple.size() == 2) {
    *state = &op.result_type(0).tuple[0];
    *values = &op.result_type(0).tuple[1];
  } else if (op.m.dialect == "hlo" && op.num_results() == 1 && op.result_type(0).is_array()) {
    *values = &op.result_type(0);  // XLA's form without the new state (its importer takes it)
  } else {
    return false;
  }
  return true;
}

std::string rng_words_rule(RngAlgorithm algorithm, std::int64_t words) {
  if (algorithm == RngAlgorithm::ThreeFry) return words == 2 ? "" : "2 (THREE_FRY)";
  if (algorithm == RngAlgorithm::Philox) return words == 2 || words == 3 ? "" : "2 or 3 (PHILOX)";
  return "";
}

Result<bool> verify(const Module& module) {
  Verifier v(module);
  for (const auto& f : module.functions)
    if (!v.region(f, f.body, 0)) return Result<bool>::failure_at(v.error, v.line, v.column);
  // HLO: each written shape is the one shape inference gives (infer.cpp has the rules).
  return check_written_shapes(module);
}

}  // namespace rl::hlo
