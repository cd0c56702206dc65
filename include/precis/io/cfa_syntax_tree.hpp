#pragma once
// The syntax tree of a .cfa file (io/cfa_parser.hpp builds it, io/cfa_reader.hpp
// resolves its names and types): expression nodes with their positions, declarations,
// locations, edges and statements. Names are views into the file's text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "precis/expr/term.hpp"
#include "precis/io/cfa_lexer.hpp"

namespace precis::cfa_reader_detail {

// ---- syntax tree --------------------------------------------------------------------

using NodeId = std::uint32_t;

// The bit-vector operators (Theta's bv*), lowered by expr/bit_vector.hpp.
enum class BvOp : std::uint8_t {
  None,
  Lit,  // value: the literal's value (its width in `width`), `big` when beyond int64
  Add,
  Sub,
  Mul,
  Udiv,
  Sdiv,
  Smod,
  Urem,
  Srem,
  Or,
  And,
  Xor,
  Shl,
  Ashr,
  Lshr,
  Rol,
  Ror,
  Ult,
  Ule,
  Ugt,
  Uge,
  Slt,
  Sle,
  Sgt,
  Sge,
  Concat,
  ZeroExt,  // width: the target width
  SignExt,
  Neg,
  Pos,
  Not,
  Extract  // bits value2..value-1
};

struct Node {
  Op op = Op::Var;  // Var, IntConst, BoolConst or an operator (unused when bv != None)
  BvOp bv = BvOp::None;
  std::int64_t value = 0;
  std::int64_t value2 = 0;
  unsigned width = 0;
  std::string_view name;  // a Var's name; a bv operator's word
  Pos pos;                // where the expression starts
  boost::container::small_vector<NodeId, 3> kids;
  std::uint32_t depth = 1;
};

// A declared type precis reads: int, bool or bv[width].
struct VarType {
  Type type = Type::Int;
  unsigned width = 0;  // > 0 for bv[width]
};

struct VarDecl {
  std::string_view name;
  Pos pos;
  VarType type;
};

enum class LocKind : std::uint8_t { Plain, Init, Final, Error };

struct LocDecl {
  std::string_view name;
  Pos pos;       // of the name
  Pos kind_pos;  // of the 'init' / 'final' / 'error' keyword
  LocKind kind = LocKind::Plain;
};

enum class StmtKind : std::uint8_t { Assign, Havoc, Assume };

struct Stmt {
  StmtKind kind = StmtKind::Assume;
  std::string_view var;
  Pos var_pos;
  NodeId expr = 0;
  Pos pos;
};

struct EdgeDecl {
  std::string_view from, to;
  Pos from_pos, to_pos;
  std::vector<Stmt> stmts;
};

struct Process {
  std::string_view name;
  Pos pos;  // of the name
  std::vector<VarDecl> vars;
  std::vector<LocDecl> locs;
  std::vector<EdgeDecl> edges;
};

// A parsed file: the syntax tree of its expressions, its global declarations and its
// main process (names are views into the text, which must outlive this).
struct ParsedCfa {
  std::string file;
  std::vector<Node> nodes;
  std::vector<VarDecl> globals;
  std::optional<Process> main;
  Pos end_pos;
};

}  // namespace precis::cfa_reader_detail
