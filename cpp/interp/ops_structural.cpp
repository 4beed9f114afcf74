// Values and structure: constants, parameters, tuples, tokens, calls, while, case/if, and the
// check calls. After the StableHLO spec (constant, tuple, get_tuple_element, while, case, if,
// func.call, custom_call).
#include <cstring>

#include "interp/checks.h"
#include "interp/elements.h"
#include "interp/kernel.h"
#include "interp/run.h"

namespace rl::interp {

namespace {

using hlo::OpCode;

bool constant(const OpCall& c) {
  const hlo::ConstantAttrs& a = c.attrs().get<hlo::ConstantAttrs>();
  const hlo::Literal& lit = c.program.literals[a.literal];
  Tensor t;
  if (!c.alloc(0, &t)) return false;
  const std::size_t eb = static_cast<std::size_t>(hlo::element_bytes(t.type));
  const std::size_t n = static_cast<std::size_t>(t.elements());
  // The literal was read against the constant's own type (decode.cpp: decode_dense and
  // decode_hlo_literal, which refuse a value of another element count or byte length): one
  // element's bytes for a splat, every element's otherwise.
  if (lit.splat) {
    RL_VERIFIED(c, lit.bytes.size() == eb);
    for (std::size_t i = 0; i < n; ++i) std::memcpy(t.data() + i * eb, lit.bytes.data(), eb);
  } else {
    RL_VERIFIED(c, lit.bytes.size() == n * eb);
    if (n) std::memcpy(t.data(), lit.bytes.data(), n * eb);
  }
  c.set(0, std::move(t));
  return true;
}

bool parameter(const OpCall&) { return true; }  // HLO: the call put the argument in its slot

bool tuple(const OpCall& c) {
  Value v;
  v.kind = Value::Kind::Tuple;
  v.tuple.reserve(c.num_operands());
  for (std::size_t i = 0; i < c.num_operands(); ++i) v.tuple.push_back(c.in(i));
  c.set(0, std::move(v));
  return true;
}

bool get_tuple_element(const OpCall& c) {
  const Value& t = c.in(0);
  const std::int64_t i = c.attrs().get<hlo::TupleIndexAttrs>().index;
  // A tuple and an index below its size: the verifier's (infer.cpp's rule, complete_rule).
  RL_VERIFIED(
      c, t.kind == Value::Kind::Tuple && i >= 0 && static_cast<std::size_t>(i) < t.tuple.size());
  c.set(0, t.tuple[static_cast<std::size_t>(i)]);
  return true;
}

bool token(const OpCall& c) {
  c.set(0, Value::token());
  return true;
}

// optimization_barrier: its operands, unchanged. HLO's add-dependency (its value, after a token)
// and domain (a sharding boundary, no computation) give their first operand.
bool identity(const OpCall& c) {
  for (std::size_t i = 0; i < c.num_results(); ++i) c.set(i, c.in(i));
  return true;
}

// replica_id, partition_id: this run is one process, replica 0 of partition 0 (the StableHLO
// spec: the id of the process in its grid; the interpreter's grid is 1×1).
bool process_zero(const OpCall& c) {
  Tensor t;
  if (!c.alloc(0, &t)) return false;
  std::memset(t.data(), 0, static_cast<std::size_t>(hlo::element_bytes(t.type)));
  c.set(0, std::move(t));
  return true;
}

// A body's values, as many as the op's results: the verifier's (verify.cpp's call, while_loop and
// branches against the body's return, function_results for a callee's; HLO: one value each).
bool set_results(const OpCall& c, std::vector<Value>& results) {
  RL_VERIFIED(c, results.size() == c.num_results());
  for (std::size_t i = 0; i < results.size(); ++i) c.set(i, std::move(results[i]));
  return true;
}

bool call(const OpCall& c) {
  std::vector<Value> args, results;
  args.reserve(c.num_operands());
  for (std::size_t i = 0; i < c.num_operands(); ++i) args.push_back(c.in(i));
  if (!c.run.call(c.attrs().callees().at(0), std::move(args), &results)) return false;
  return set_results(c, results);
}

// A verified tensor<i1> (pred[])'s value.
bool scalar_pred(const OpCall& c, const Value& v) {
  RL_VERIFIED(c, v.is_tensor() && v.tensor.elements() == 1 && v.tensor.type == ElementType::Pred);
  return v.tensor.data()[0] != 0;
}

// while: the condition region (0) on the loop values, then the body region (1), until the
// condition is false. Past the iteration cap or the time budget, an error, never a hang.
bool while_loop(const OpCall& c) {
  std::vector<Value> values, cond, next;
  values.reserve(c.num_operands());
  for (std::size_t i = 0; i < c.num_operands(); ++i) values.push_back(c.in(i));
  const std::uint64_t cap = c.run.options().max_iterations;
  for (std::uint64_t n = 0;; ++n) {
    if (!c.call_body(0, values, &cond)) return false;
    // One tensor<i1>: the verifier's (verify.cpp's while_loop, infer.cpp's while rule).
    RL_VERIFIED(c, cond.size() == 1);
    const bool go = scalar_pred(c, cond[0]);
    cond.clear();  // dead once read: not held while the body runs
    if (!go) break;
    if (n >= cap)
      return c.fail("while ran past the iteration cap",
                    "at most " + std::to_string(cap) + " iterations", "more");
    if (!c.keep_going()) return false;
    if (!c.call_body(1, std::move(values), &next)) return false;
    values.swap(next);
  }
  return set_results(c, values);
}

// case: branch `index` (out of range: the last branch, as the spec says).
bool case_op(const OpCall& c) {
  const Tensor& t = c.tensor(0);
  // An s32[] index, or HLO's pred[]: the verifier's (verify.cpp's branches, infer.cpp's
  // conditional rule), as is one operand per branch after it in HLO.
  RL_VERIFIED(c, t.elements() == 1 && (t.type == ElementType::S32 || t.type == ElementType::Pred));
  std::int64_t index = 0;
  if (t.type == ElementType::S32)
    index = *t.as<std::int32_t>();
  else
    index = t.data()[0] ? 0 : 1;  // HLO: true → branch 0
  const std::size_t branches =
      c.op().regions.count ? c.op().regions.count : c.attrs().callees().size();
  if (index < 0 || static_cast<std::size_t>(index) >= branches)
    index = static_cast<std::int64_t>(branches) - 1;
  std::vector<Value> args, results;
  // HLO: branch i takes operand i + 1 (XLA's conditional: true_computation the second operand,
  // false_computation the third). StableHLO's case has no operands but the index.
  if (c.num_operands() > 1) {
    const std::size_t operand = static_cast<std::size_t>(index) + 1;
    RL_VERIFIED(c, operand < c.num_operands());
    args.push_back(c.in(operand));
  }
  if (!c.call_body(static_cast<std::size_t>(index), std::move(args), &results)) return false;
  return set_results(c, results);
}

bool if_op(const OpCall& c) {
  // A tensor<i1>: the verifier's (verify.cpp's branches).
  const bool p = scalar_pred(c, c.in(0));
  std::vector<Value> results;
  if (!c.call_body(p ? 0 : 1, {}, &results)) return false;
  return set_results(c, results);
}

bool custom_call(const OpCall& c) {
  const std::string& target = c.attrs().get<hlo::CustomCallAttrs>().target;
  if (!is_check(target))
    return c.fail("custom_call " + target + " is not run by the interpreter", "a check call",
                  target);
  if (c.num_operands() != 2 || !c.in(0).is_tensor() || !c.in(1).is_tensor())
    return c.fail(target + " needs two tensors", "(actual, expected)",
                  std::to_string(c.num_operands()) + " operands");
  CheckOutcome o = evaluate_check(target, c.tensor(0), c.tensor(1));
  o.line = c.op().line;
  o.column = c.op().column;
  c.run.record_check(std::move(o));
  return true;
}

// A type whose values no op can make or read (opaque: a name the core does not know), inside
// tuples too; "" for every other.
std::string unknown_type(const hlo::Type& t) {
  if (t.kind == hlo::Type::Kind::Opaque) return "a value of type " + t.text;
  for (const auto& e : t.tuple) {
    std::string p = unknown_type(e);
    if (!p.empty()) return p;
  }
  return "";
}

// Ops that move values as they are (calls, control flow, tuples, tokens) run for values of any
// type the core knows, computable or not. Not for an opaque type: the verifier cannot tell it from
// another (it may name any type), so a call declared to give `ten3or<15xf32>` would hand on the
// callee's tensor<15xf32> under a type no later op checks (found by scripts/fuzz run).
std::string known_values(const hlo::OpView& op, const hlo::OpAttrs*) {
  return first_type_problem(op, unknown_type);
}

std::string check_call(const hlo::OpView& op, const hlo::OpAttrs* attrs) {
  const hlo::CustomCallAttrs* cc = attrs ? &attrs->get<hlo::CustomCallAttrs>() : nullptr;
  if (!cc || !is_check(cc->target))
    return "custom_call " + (cc ? cc->target : std::string()) + " has no meaning here";
  return computable_types(op, attrs);
}

}  // namespace

// Each op's kernel, for the registry ops.inc's rows make (kernel.h).
RL_KERNEL(Constant, constant)
RL_KERNEL(Parameter, parameter, known_values)
RL_KERNEL(Tuple, tuple, known_values)
RL_KERNEL(GetTupleElement, get_tuple_element, known_values)
RL_KERNEL(AfterAll, token, known_values)
RL_KERNEL(CreateToken, token, known_values)
RL_KERNEL(OptimizationBarrier, identity, known_values)
RL_KERNEL(OptimizationBarrierLong, identity, known_values)
RL_KERNEL(AddDependency, identity, known_values)
RL_KERNEL(Domain, identity, known_values)
RL_KERNEL(ReplicaId, process_zero)
RL_KERNEL(PartitionId, process_zero)
RL_KERNEL(Call, call, known_values)
RL_KERNEL(Fusion, call, known_values)  // optimized HLO: its fused computation (calls=)
RL_KERNEL(Composite, call, known_values)
RL_KERNEL(While, while_loop, known_values)
RL_KERNEL(Case, case_op, known_values)
RL_KERNEL(If, if_op, known_values)
RL_KERNEL(CustomCall, custom_call, check_call)

}  // namespace rl::interp
