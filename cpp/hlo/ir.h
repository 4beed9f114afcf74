// One IR for both front doors (StableHLO/MLIR text and XLA HLO text).
//
// A Module holds functions (MLIR func.func / HLO computations); a function holds one region;
// a region holds blocks of ops. The IR is compact, because real optimized-HLO dumps run to
// tens of megabytes:
// - the module owns the source text; names and raw attribute values are views into it;
// - types are interned in the module (an op refers to a TypeId, equal types share one);
// - values are numbered per function (ValueId: arguments, block arguments and op results of
//   the function and of every region nested in it); an op's operands and results are ranges
//   of ValueIds in its function's `refs`, resolved at parse time — never names;
// - each op carries its OpCode from the one op table (ops.inc), its spelling as written, its
//   raw attributes (the lowering decodes the ones it needs into typed fields, lower.h), named
//   fields for what the text marks outside attributes (HLO's ROOT), and its 1-based line and
//   column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hlo/element_type.h"
#include "hlo/name_map.h"
#include "hlo/ops.h"

namespace rl::hlo {

using TypeId = std::uint32_t;
using ValueId = std::uint32_t;

// A view of `count` elements (operands, results, attributes of an op).
template <class T>
struct Span {
  const T* ptr = nullptr;
  std::size_t count = 0;
  const T* begin() const { return ptr; }
  const T* end() const { return ptr + count; }
  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const T& operator[](std::size_t i) const { return ptr[i]; }
  const T& front() const { return ptr[0]; }
  const T& back() const { return ptr[count - 1]; }
};

// A type: a tensor (ranked or not), a bare element type, a tuple, a token, or something
// the cost rules do not size (opaque).
struct Type {
  enum class Kind { Tensor, Element, Tuple, Token, Opaque };
  Kind kind = Kind::Opaque;
  bool ranked = true;              // tensor<*xf32> is unranked
  std::vector<std::int64_t> dims;  // -1 for a dynamic dimension (`?`, HLO `<=N` keeps N)
  std::string element;  // as written: "f32", "complex<f32>", "!quant.uniform<i8:f32, 0.5>", "s32"
  ElementType etype = ElementType::Invalid;
  int element_bytes = 0;    // bytes of one element as XLA stores it (i1/pred: 1)
  std::vector<Type> tuple;  // elements of a tuple
  std::string text;         // as written (for display)

  bool is_array() const { return kind == Kind::Tensor || kind == Kind::Element; }
  // True when every dimension is known (arrays) or every leaf is (tuples).
  bool is_static() const;
  // Number of elements of an array (1 for a scalar); -1 when not static or not an array.
  double elements() const;
  // Bytes as XLA's shape-size function counts them: arrays elements·element_bytes,
  // tuples 8 bytes (one pointer) per element, tokens 0. -1 when not static.
  double byte_size() const;
  // Sum of the bytes of the array leaves (tuples flattened), -1 when not static.
  double leaf_bytes() const;
};

// Bytes of one element of an element type name in either dialect ("f32" → 4, "bf16" → 2,
// "pred"/"i1" → 1, "complex<f32>"/"c64" → 8, "f8E4M3FN" → 1); 0 when unknown.
int element_byte_size(std::string_view name);

struct Attribute {
  std::string_view name;
  std::string_view
      value;  // raw text as written, trimmed ("[1] x [0]", "{1}", "#stablehlo.dot<...>")
};

// Where a range starts in its function's arrays, and how long it is.
struct Range {
  std::uint32_t begin = 0, count = 0;
};

struct Op {
  OpCode code = OpCode::Unknown;  // from the op table; Unknown for ops it does not name
  bool is_root = false;           // HLO: the ROOT instruction of its computation
  bool infer_shape = false;       // HLO: written without a result shape (XLA infers it)
  std::string_view name;          // as written, without quotes: "stablehlo.add", "add", "my.op"
  int line = 0;
  int column = 0;
  Range operands;    // ValueIds in Function::refs
  Range results;     // ValueIds in Function::refs
  Range attributes;  // in Function::attrs
  Range regions;     // in Function::regions
};

struct Block {
  std::vector<ValueId> args;
  std::vector<Op> ops;
};

struct Region {
  std::vector<Block> blocks;
};

// A value: a function or block argument, or an op result. `name` is as written ("%arg0",
// "%0", "add.3"); a result of a multi-result op (`%0:2`) has the group's name and its index.
struct Value {
  TypeId type = 0;
  std::uint32_t index = 0;  // result index within a multi-result group
  bool grouped = false;     // written as %name:N (shown as %name#index)
  std::string_view name;
};

struct Function {
  std::string_view name;        // without '@' / '%'
  std::string_view visibility;  // "public", "private", "" (MLIR); "" for HLO
  bool is_entry = false;        // HLO ENTRY; MLIR: chosen by the parser (main/public)
  std::vector<ValueId> args;
  std::vector<TypeId> result_types;
  Region body;
  int line = 0;
  int column = 0;

  // Storage of everything inside the function, nested regions included.
  std::vector<Value> values;
  std::vector<ValueId> refs;
  std::vector<Attribute> attrs;
  std::vector<Region> regions;
  // The operand types an op's written signature gives (StableHLO `: (T, U) -> R`, pretty and
  // generic forms) where they differ from the operand's own type, by the operand's index in
  // `refs`, in ascending order. The verifier refuses each one; written types equal to the
  // operand's are not stored again (the common case costs nothing).
  struct WrittenType {
    std::uint32_t ref;
    TypeId type;
  };
  std::vector<WrittenType> written_types;
  // HLO: the layouts written on instructions' array shapes where they are not the default
  // ({rank-1,...,1,0}: row-major, how the interpreter holds every array), by value in ascending
  // order, as written inside the braces ("0,1", "1,0:T(8,128)"). Only bitcast reads them: it
  // reinterprets bytes in layout order (layout.h).
  struct WrittenLayout {
    ValueId value;
    std::string_view layout;
  };
  std::vector<WrittenLayout> layouts;

  Span<ValueId> operands(const Op& op) const {
    return {refs.data() + op.operands.begin, op.operands.count};
  }
  Span<ValueId> results(const Op& op) const {
    return {refs.data() + op.results.begin, op.results.count};
  }
  Span<Attribute> attributes(const Op& op) const {
    return {attrs.data() + op.attributes.begin, op.attributes.count};
  }
  Span<Region> nested(const Op& op) const {
    return {regions.data() + op.regions.begin, op.regions.count};
  }
  const Attribute* attr(const Op& op, std::string_view name) const;
  // HLO: the layout written on value v as written inside the braces ("0,1"); "" for the default.
  std::string_view layout(ValueId v) const;
  // "%0", "%0#1", "add.3"
  std::string value_name(ValueId v) const;
};

struct Module {
  std::string dialect;  // "stablehlo" or "hlo"
  std::string name;     // without '@'; "" when the text has none
  std::vector<Function> functions;
  std::vector<Attribute> attributes;  // module attributes (MLIR) / header attributes (HLO)
  int line = 0;
  // The text every view points into (shared by the modules of one parse), and the types.
  std::shared_ptr<const std::string> source;
  std::vector<Type> types;

  const Type& type(TypeId id) const { return types[id]; }
  const Type& value_type(const Function& f, ValueId v) const { return types[f.values[v].type]; }
  const Function* find(std::string_view name) const;
  const Function* entry() const;
  // Offset of a view into the source (for line:col of an attribute value); npos if not in it.
  std::size_t offset_of(std::string_view view) const;
};

// One op with the module and function that hold it: what the verifier, the cost rules and the
// attribute readers need to ask of an op.
struct OpView {
  const Module& m;
  const Function& f;
  const Op& op;

  const Attribute* attr(std::string_view name) const { return f.attr(op, name); }
  std::size_t num_operands() const { return op.operands.count; }
  std::size_t num_results() const { return op.results.count; }
  const Type& operand_type(std::size_t i) const { return m.value_type(f, f.operands(op)[i]); }
  const Type& result_type(std::size_t i) const { return m.value_type(f, f.results(op)[i]); }
  Span<Region> regions() const { return f.nested(op); }
};

// Interns types of one module: equal types (by their canonical text) share a TypeId.
class TypeTable {
 public:
  explicit TypeTable(std::vector<Type>* types) : types_(types) {}
  TypeId intern(Type t);
  // A key lookup by the text as written, before parsing it again (the parsers' fast path).
  const TypeId* find_written(std::string_view written) const;
  void remember_written(std::string_view written, TypeId id) { by_written_.insert(written, id); }

 private:
  std::vector<Type>* types_;
  std::unordered_map<std::string, TypeId> by_key_;
  NameMap<TypeId> by_written_;  // views into the source
};

// The type as the dialect prints it: "tensor<32x8xf32>" or "f32[32,8]".
std::string to_string(const Type& type, std::string_view dialect);

}  // namespace rl::hlo
