// One IR for both front doors (StableHLO/MLIR text and XLA HLO text).
//
// A Module holds functions (MLIR func.func / HLO computations); a function holds one region;
// a region holds blocks of ops. Ops keep their name as written ("stablehlo.add", "add"),
// their operands and results with types, their attributes as raw source text (helpers in
// attrs.h read the few the verifier and the cost rules need), nested regions, and the
// 1-based line and column where they start.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl::hlo {

// A type: a tensor (ranked or not), a bare element type, a tuple, a token, or something
// the cost rules do not size (opaque).
struct Type {
  enum class Kind { Tensor, Element, Tuple, Token, Opaque };
  Kind kind = Kind::Opaque;
  bool ranked = true;               // tensor<*xf32> is unranked
  std::vector<std::int64_t> dims;   // -1 for a dynamic dimension (`?`, HLO `<=N` keeps N)
  std::string element;              // "f32", "complex<f32>", "!quant.uniform<i8:f32, 0.5>", "s32"
  int element_bytes = 0;            // bytes of one element as XLA stores it (i1/pred: 1)
  std::vector<Type> tuple;          // elements of a tuple
  std::string text;                 // as written (for display)

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
  std::string name;
  std::string value;  // raw text as written, trimmed ("[1] x [0]", "{1}", "#stablehlo.dot<...>")
};

struct Region;

struct Op {
  std::string name;                       // as written, without quotes
  std::vector<std::string> results;       // "%0", "%0#1" (one per result)
  std::vector<Type> result_types;
  std::vector<std::string> operands;      // "%arg0", "%0#1" (HLO: instruction names)
  std::vector<Type> operand_types;        // same length as operands
  std::vector<Attribute> attributes;
  std::vector<Region> regions;
  int line = 0;
  int column = 0;

  const Attribute* attr(std::string_view name) const;
};

struct Block {
  std::vector<std::string> arg_names;
  std::vector<Type> arg_types;
  std::vector<Op> ops;
};

struct Region {
  std::vector<Block> blocks;
};

struct Function {
  std::string name;                   // without '@' / '%'
  std::string visibility;             // "public", "private", "" (MLIR); "" for HLO
  bool is_entry = false;              // HLO ENTRY; MLIR: chosen by the parser (main/public)
  std::vector<std::string> arg_names;
  std::vector<Type> arg_types;
  std::vector<Type> result_types;
  Region body;
  int line = 0;
  int column = 0;
};

struct Module {
  std::string dialect;  // "stablehlo" or "hlo"
  std::string name;     // without '@'; "" when the text has none
  std::vector<Function> functions;
  std::vector<Attribute> attributes;  // module attributes (MLIR) / header attributes (HLO)
  int line = 0;

  const Function* find(std::string_view name) const;
  const Function* entry() const;
};

// The type as the dialect prints it: "tensor<32x8xf32>" or "f32[32,8]".
std::string to_string(const Type& type, std::string_view dialect);

}  // namespace rl::hlo
