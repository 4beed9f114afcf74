// The syntax tree of the Python subset: expressions and statements, each with its 1-based line
// and column (the place an error about it points at).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rl::python {

struct Expr;
struct Stmt;
using ExprP = std::unique_ptr<Expr>;
using StmtP = std::unique_ptr<Stmt>;

enum class EK {
  Name,   // s
  Int,    // i (overflow: the literal is past 2^63 - 1)
  Float,  // f
  Str,    // s
  True,
  False,
  None,
  Ellipsis,
  Tuple,
  List,
  Set,            // kids
  Dict,           // kids: key, value, key, value, ...
  BinOp,          // s: "+", "@", ...; kids: left, right
  Unary,          // s: "-", "+", "~", "not"; kids: operand
  Compare,        // ops: "<", "in", "not in", "is not", ...; kids: first, then one per op
  BoolOp,         // s: "and" / "or"; kids
  IfExp,          // kids: body, test, orelse
  Call,           // kids: callee, then positional args, then keyword values; names: keyword names
  Attribute,      // s: attribute; kids: object
  Subscript,      // kids: object, index (a Tuple for several)
  Slice,          // kids: start, stop, step (null when omitted)
  Starred,        // kids: value
  Lambda,         // params; kids: body
  Comprehension,  // s: "list" | "set" | "gen" | "dict"; kids: element (dict: key, value), then per
                  // clause: target, iterable, conditions... (clauses: the Comp entries)
};

// A def's parameter, in the order written: positional-or-keyword ones, then (after `*` or
// `*args`) keyword-only ones, `*args` and `**kwargs` where written.
enum class ParamKind : std::uint8_t { Positional, KeywordOnly, VarArgs, VarKeywords };

struct Param {
  std::string name;
  ExprP default_value;  // null: none
  int line = 0, column = 0;
  ParamKind kind = ParamKind::Positional;
};

struct CompClause {
  std::size_t target = 0, iter = 0;  // indices into kids
  std::vector<std::size_t> conditions;
};

struct Expr {
  EK kind;
  int line = 0, column = 0;
  std::string s;
  std::int64_t i = 0;
  bool overflow = false;
  bool fstring =
      false;  // Str: an f-string (s keeps its {fields}; plain parts beside it have {{ }} doubled)
  double f = 0;
  std::vector<ExprP> kids;
  std::vector<std::string> names;   // Call: keyword names (for the last names.size() kids)
  std::vector<Param> params;        // Lambda
  std::vector<std::string> ops;     // Compare
  std::size_t positional = 0;       // Call: how many positional arguments follow the callee
  std::vector<CompClause> clauses;  // Comprehension
};

enum class SK {
  Expr,
  Assign,
  AugAssign,
  AnnAssign,
  Return,
  Def,
  Import,
  ImportFrom,
  If,
  For,
  While,
  Pass,
  Break,
  Continue,
  Assert,
  Raise,
  Del,
  Global,
  Nonlocal,
  With,
  Try
};

struct Alias {
  std::string name, as;  // "jax.numpy", "jnp" (as: empty when none)
  int line = 0, column = 0;
};

// A try statement's `except TYPE as NAME:` clause (type null: a bare except; name "" when none).
struct ExceptClause {
  ExprP type;
  std::string name;
  std::vector<StmtP> body;
  int line = 0, column = 0;
};

struct Stmt {
  SK kind;
  int line = 0, column = 0;
  std::string s;               // Def: name; AugAssign: operator; ImportFrom: module
  std::vector<ExprP> targets;  // Assign: targets (a = b = value); For: target; AugAssign: target
  ExprP value;                 // Assign/AugAssign/Return/Expr value; If/While test; For iter
  std::vector<ExprP> extra;    // Assert: test, msg; Raise: exc
  std::vector<Param> params;   // Def
  std::vector<StmtP> body, orelse;     // Def/If/For/While/With/Try (Try: orelse is the else clause)
  std::vector<ExceptClause> handlers;  // Try: the except clauses, in order
  std::vector<StmtP> finalbody;        // Try: the finally clause
  std::vector<Alias> aliases;          // Import/ImportFrom
  std::vector<ExprP> decorators;       // Def
};

struct Program {
  std::vector<StmtP> body;
};

}  // namespace rl::python
