#pragma once
// Typed, hash-consed term DAG over mathematical integers, Booleans, integer arrays and
// IEEE 754 binary32/binary64 floating-point numbers.
//
// A Term is a pointer-sized handle to an immutable node owned by an ExprManager.
// Structurally equal terms built by the same manager are the same node, so equality
// and hashing are pointer operations. The manager is an ordinary object (no global
// state); a CFA owns one through a shared_ptr and every term of that CFA lives in it.

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"

namespace precis {

// Array is the one array sort the C front end needs: integer indices to integer
// values, as SMT-LIB's (Array Int Int). Array terms are variables, Store and ConstArray;
// they occur only as the array operand of Select and Store, on either side of an
// equality (block formulas join SSA versions with one), in Ite branches, and as the
// value assigned to an array variable.
//
// Float32 and Float64 are IEEE 754 binary32 and binary64 (C's float and double on every
// data model SV-COMP uses), as SMT-LIB's (_ FloatingPoint 8 24) and (_ FloatingPoint 11 53).
// A value of a floating-point term, wherever precis holds values as integers (valuations,
// the explicit-value domain, counterexamples), is its IEEE bit pattern: the binary32
// pattern as an integer in [0, 2^32), the binary64 pattern reinterpreted as a signed
// std::int64_t. Every NaN is the one canonical quiet NaN (0x7fc00000, 0x7ff8000000000000):
// SMT-LIB has a single NaN, and so the bit pattern of a value is a function of the value
// SMT-LIB's theory gives it (see expr/floating_point.hpp).
enum class Type : std::uint8_t { Int, Bool, Array, Float32, Float64 };

constexpr bool is_float(Type t) noexcept { return t == Type::Float32 || t == Type::Float64; }

inline const char* to_string(Type t) {
  switch (t) {
    case Type::Int: return "int";
    case Type::Bool: return "bool";
    case Type::Array: return "[int] -> int";
    case Type::Float32: return "fp32";
    case Type::Float64: return "fp64";
  }
  return "?";
}

// Rounding modes of FpRound (the node's value), as IEEE 754's roundToIntegral: C's rint
// and nearbyint (to nearest, ties to even, the mode C programs run in), round (ties away
// from zero), ceil, floor and trunc.
enum class FpRounding : std::uint8_t { NearestEven, NearestAway, Up, Down, TowardZero };

enum class Op : std::uint8_t {
  Var,
  IntConst,
  BoolConst,
  Not,
  And,  // n-ary
  Or,   // n-ary
  Imply,
  Iff,
  Xor,
  Eq,
  Neq,
  Lt,
  Le,
  Gt,
  Ge,
  Add,  // n-ary
  Sub,
  Mul,  // n-ary
  Div,  // Euclidean (the .cfa format's `/`): a = b*q + r with 0 <= r < |b|
  Mod,  // always non-negative
  Rem,  // mod(a,b) if b >= 0, else -mod(a,b)
  Neg,
  Ite,
  // Bit operations over the integers, as cvc5's IAND and POW2 (for C). BitAnd has a
  // width k (the node's value, 1..64): bit_and_k(a, b) = (a mod 2^k) & (b mod 2^k), in
  // [0, 2^k). Pow2(a) = 2^a for a >= 0 and 0 for a < 0. C's | ^ ~ << >> are built from
  // these with + - * / (frontends/c: a | b = a + b - (a & b), ...).
  BitAnd,
  Pow2,
  // The theory of arrays (for C), as SMT-LIB's select, store and constant arrays:
  // Select(a, i) is the value of a at index i; Store(a, i, v) is a with index i set to
  // v; ConstArray(c) maps every index to c.
  Select,
  Store,
  ConstArray,
  // IEEE 754 arithmetic (for C's float and double; expr/floating_point.hpp evaluates it).
  // Operands of the same floating-point type; results rounded to nearest, ties to even,
  // the only rounding mode C programs are modelled in. FpConst's value is the bit pattern.
  // FpEq, FpLt, FpLe are IEEE's comparisons (NaN is unordered, +0 == -0); Eq on floats is
  // identity of values (SMT-LIB's =: NaN = NaN, +0 /= -0). FpRound rounds to an integral
  // value in the mode its value names (FpRounding). FpToFp converts between the two
  // formats, IntToFp converts an integer (exactly, then rounded once); FpToInt truncates
  // toward zero, and is 0 for NaN and the infinities (where C's conversion is undefined:
  // one value, the same in the evaluator and the solver).
  FpConst,
  FpAdd,
  FpSub,
  FpMul,
  FpDiv,
  FpNeg,
  FpAbs,
  FpSqrt,
  FpRound,
  FpEq,
  FpLt,
  FpLe,
  FpIsNan,
  FpIsInf,
  FpIsZero,
  FpIsSubnormal,
  FpIsNormal,
  FpIsNeg,
  FpToFp,
  IntToFp,
  FpToInt
};

constexpr bool is_float_op(Op op) noexcept { return op >= Op::FpConst && op <= Op::FpToInt; }

// The comparison that holds exactly when `op` does not (over the integers): = and /=,
// < and >=, <= and >. Any other operator is returned unchanged.
constexpr Op negate_comparison(Op op) noexcept {
  switch (op) {
    case Op::Eq: return Op::Neq;
    case Op::Neq: return Op::Eq;
    case Op::Lt: return Op::Ge;
    case Op::Le: return Op::Gt;
    case Op::Gt: return Op::Le;
    case Op::Ge: return Op::Lt;
    default: return op;
  }
}

using VarId = std::uint32_t;
inline constexpr std::uint32_t global_scope = 0xffffffffU;

struct Variable {
  VarId id = 0;
  std::string name;
  Type type = Type::Int;
  // Index of the function whose local this is, or global_scope. Scoped precision
  // (explicit-value paper, section III-F) uses it.
  std::uint32_t scope = global_scope;
};

class ExprManager;

namespace detail {
struct TermNode {
  Op op;
  Type type;
  std::int64_t value;  // constant value, or VarId for Var
  boost::container::small_vector<const TermNode*, 2> args;
  std::size_t hash;
  std::uint32_t id;     // dense, creation order
  std::uint32_t depth;  // 1 for leaves, 1 + the deepest operand otherwise
};
}  // namespace detail

class Term {
 public:
  Term() = default;

  [[nodiscard]] bool valid() const noexcept { return n_ != nullptr; }
  [[nodiscard]] Op op() const noexcept { return n_->op; }
  [[nodiscard]] Type type() const noexcept { return n_->type; }
  [[nodiscard]] bool is_bool() const noexcept { return n_->type == Type::Bool; }
  [[nodiscard]] bool is_var() const noexcept { return n_->op == Op::Var; }
  [[nodiscard]] bool is_const() const noexcept {
    return n_->op == Op::IntConst || n_->op == Op::BoolConst || n_->op == Op::FpConst;
  }
  [[nodiscard]] VarId var() const noexcept { return static_cast<VarId>(n_->value); }
  // Integer value of an IntConst, 0/1 of a BoolConst, the width of a BitAnd, the bit
  // pattern of an FpConst, the FpRounding of an FpRound.
  [[nodiscard]] std::int64_t value() const noexcept { return n_->value; }
  [[nodiscard]] std::size_t num_args() const noexcept { return n_->args.size(); }
  [[nodiscard]] Term arg(std::size_t i) const noexcept { return Term(n_->args[i]); }
  [[nodiscard]] std::size_t hash() const noexcept { return n_->hash; }
  [[nodiscard]] std::uint32_t id() const noexcept { return n_->id; }
  [[nodiscard]] std::uint32_t depth() const noexcept { return n_->depth; }

  friend bool operator==(Term a, Term b) noexcept { return a.n_ == b.n_; }
  friend bool operator<(Term a, Term b) noexcept {  // stable: creation order
    return a.n_->id < b.n_->id;
  }

 private:
  friend class ExprManager;
  explicit Term(const detail::TermNode* n) : n_(n) {}
  const detail::TermNode* n_ = nullptr;
};

struct TermHash {
  std::size_t operator()(Term t) const noexcept { return t.hash(); }
};

class ExprManager {
 public:
  // Terms deeper than this are refused (limit_reached of kind Depth): the evaluator,
  // the printer and the solver translation recurse over terms, and a term nested
  // 10^5 deep (a generated sum, a weakest precondition over a long path) would
  // overflow their stack. Readers turn the refusal into an input error with a position.
  static constexpr std::uint32_t default_max_depth = 8000;

  ExprManager() = default;
  explicit ExprManager(std::uint32_t max_depth) : max_depth_(max_depth) {}
  ExprManager(const ExprManager&) = delete;
  ExprManager& operator=(const ExprManager&) = delete;

  // ---- variables -------------------------------------------------------------------
  VarId declare(std::string name, Type type, std::uint32_t scope = global_scope) {
    auto id = static_cast<VarId>(vars_.size());
    by_name_.emplace(name, id);
    vars_.push_back(Variable{id, std::move(name), type, scope});
    return id;
  }
  [[nodiscard]] const Variable& variable(VarId id) const { return vars_.at(id); }
  [[nodiscard]] const std::vector<Variable>& variables() const noexcept { return vars_; }
  [[nodiscard]] std::size_t num_vars() const noexcept { return vars_.size(); }
  // Most recently declared variable with that name, if any.
  [[nodiscard]] const Variable* find(std::string_view name) const {
    auto it = by_name_.find(std::string(name));
    return it == by_name_.end() ? nullptr : &vars_[it->second];
  }

  // ---- leaves ----------------------------------------------------------------------
  Term var(VarId id) { return intern(Op::Var, vars_.at(id).type, id, {}); }
  Term int_val(std::int64_t v) { return intern(Op::IntConst, Type::Int, v, {}); }
  Term bool_val(bool b) { return intern(Op::BoolConst, Type::Bool, b ? 1 : 0, {}); }
  Term true_() { return bool_val(true); }
  // The constant of type t whose value, as precis holds values, is v: a Bool's 0/1, an
  // integer, a floating value's bit pattern (not for arrays).
  Term constant(Type t, std::int64_t v) {
    if (t == Type::Bool) return bool_val(v != 0);
    if (is_float(t)) return fp_val(t, v);
    return int_val(v);
  }
  Term false_() { return bool_val(false); }
  // The floating-point constant of type `t` (Float32 or Float64) with IEEE bit pattern
  // `bits` (see Type); a NaN pattern is made the canonical NaN.
  Term fp_val(Type t, std::int64_t bits) {
    if (!is_float(t)) throw type_error("a floating-point constant needs fp32 or fp64");
    if (t == Type::Float32) {
      if (bits < 0 || bits > 0xffffffffLL) throw type_error("fp32 bit pattern out of range");
      if ((bits & 0x7f800000LL) == 0x7f800000LL && (bits & 0x7fffffLL) != 0) bits = 0x7fc00000LL;
    } else {
      const auto u = static_cast<std::uint64_t>(bits);
      if ((u & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (u & 0xfffffffffffffULL) != 0)
        bits = 0x7ff8000000000000LL;
    }
    return intern(Op::FpConst, t, bits, {});
  }

  // ---- operators (type-checked; throw type_error) ---------------------------------
  Term mk(Op op, std::span<const Term> args) {
    if (op == Op::BitAnd) throw type_error("'iand' needs a width: build it with bit_and");
    if (op == Op::FpRound || op == Op::FpToFp || op == Op::IntToFp || op == Op::FpToInt)
      throw type_error(std::string("'") + op_name(op) +
                       "' needs its mode or type: build it with fp_round/fp_convert/fp_to_int");
    Type t = check(op, args);
    // Sized once, then filled: growing a small_vector with push_back makes GCC 12's
    // -Warray-bounds misfire inside Boost at -O3.
    NodeArgs a(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) a[i] = args[i].n_;
    return intern(op, t, 0, a);
  }
  Term mk(Op op, std::initializer_list<Term> args) {
    return mk(op, std::span<const Term>(args.begin(), args.size()));
  }

  Term not_(Term a) { return mk(Op::Not, {a}); }
  Term and_(Term a, Term b) { return mk(Op::And, {a, b}); }
  Term or_(Term a, Term b) { return mk(Op::Or, {a, b}); }
  Term imply(Term a, Term b) { return mk(Op::Imply, {a, b}); }
  Term iff(Term a, Term b) { return mk(Op::Iff, {a, b}); }
  Term xor_(Term a, Term b) { return mk(Op::Xor, {a, b}); }
  Term eq(Term a, Term b) { return mk(Op::Eq, {a, b}); }
  Term neq(Term a, Term b) { return mk(Op::Neq, {a, b}); }
  Term lt(Term a, Term b) { return mk(Op::Lt, {a, b}); }
  Term le(Term a, Term b) { return mk(Op::Le, {a, b}); }
  Term gt(Term a, Term b) { return mk(Op::Gt, {a, b}); }
  Term ge(Term a, Term b) { return mk(Op::Ge, {a, b}); }
  Term add(Term a, Term b) { return mk(Op::Add, {a, b}); }
  Term sub(Term a, Term b) { return mk(Op::Sub, {a, b}); }
  Term mul(Term a, Term b) { return mk(Op::Mul, {a, b}); }
  Term div(Term a, Term b) { return mk(Op::Div, {a, b}); }
  Term mod(Term a, Term b) { return mk(Op::Mod, {a, b}); }
  Term rem(Term a, Term b) { return mk(Op::Rem, {a, b}); }
  Term neg(Term a) { return mk(Op::Neg, {a}); }
  Term ite(Term c, Term a, Term b) { return mk(Op::Ite, {c, a, b}); }
  Term pow2(Term a) { return mk(Op::Pow2, {a}); }
  Term select(Term a, Term i) { return mk(Op::Select, {a, i}); }
  Term store(Term a, Term i, Term v) { return mk(Op::Store, {a, i, v}); }
  Term const_array(Term c) { return mk(Op::ConstArray, {c}); }
  // Floating point. Conversions name their target type; fp_round its rounding mode.
  Term fp_round(Term a, FpRounding mode) {
    const Term args[] = {a};
    check(Op::FpRound, args);
    NodeArgs na(1);
    na[0] = a.n_;
    return intern(Op::FpRound, a.type(), static_cast<std::int64_t>(mode), na);
  }
  Term fp_convert(Term a, Type to) {
    if (!is_float(to)) throw type_error("a floating-point conversion needs fp32 or fp64");
    if (a.type() == Type::Int) return convert_node(Op::IntToFp, a, to);
    if (!is_float(a.type())) throw type_error("only int and floats convert to a float");
    if (a.type() == to) return a;
    return convert_node(Op::FpToFp, a, to);
  }
  Term fp_to_int(Term a) {
    if (!is_float(a.type())) throw type_error("'fp.to_int' needs a floating-point operand");
    return convert_node(Op::FpToInt, a, Type::Int);
  }
  // (a mod 2^width) & (b mod 2^width); width in 1..64.
  Term bit_and(Term a, Term b, unsigned width) {
    if (width < 1 || width > max_bit_width)
      throw type_error("bit width " + std::to_string(width) + " of 'iand' is outside 1.." +
                       std::to_string(max_bit_width));
    const Term args[] = {a, b};
    check(Op::BitAnd, args);
    NodeArgs na(2);
    na[0] = a.n_, na[1] = b.n_;
    return intern(Op::BitAnd, Type::Int, width, na);
  }
  static constexpr unsigned max_bit_width = 64;

  // The node `like` (of any manager) over new operands: the same operator and, for
  // BitAnd, the same width (a floating constant, a leaf, is copied). Rewriters and translations
  // between managers use this, not mk(like.op(), ...), which cannot know a width.
  Term rebuild(Term like, std::span<const Term> args) {
    if (like.op() == Op::FpConst) return fp_val(like.type(), like.value());  // a leaf
    if (like.op() == Op::BitAnd) {
      if (args.size() != 2) throw type_error("wrong number of operands for iand");
      return bit_and(args[0], args[1], static_cast<unsigned>(like.value()));
    }
    if (like.op() == Op::FpRound || like.op() == Op::FpToFp || like.op() == Op::IntToFp ||
        like.op() == Op::FpToInt) {
      if (args.size() != 1) throw type_error("wrong number of operands for a conversion");
      if (like.op() == Op::FpRound) return fp_round(args[0], static_cast<FpRounding>(like.value()));
      if (like.op() == Op::FpToInt) return fp_to_int(args[0]);
      return convert_node(like.op(), args[0], like.type());
    }
    return mk(like.op(), args);
  }

  // Conjunction of a list; true for the empty list, the element for a singleton.
  Term conj(std::span<const Term> xs) {
    if (xs.empty()) return true_();
    if (xs.size() == 1) return xs[0];
    return mk(Op::And, xs);
  }
  Term disj(std::span<const Term> xs) {
    if (xs.empty()) return false_();
    if (xs.size() == 1) return xs[0];
    return mk(Op::Or, xs);
  }

  [[nodiscard]] std::size_t num_terms() const noexcept { return nodes_.size(); }
  [[nodiscard]] std::uint32_t max_depth() const noexcept { return max_depth_; }

 private:
  using NodeArgs = boost::container::small_vector<const detail::TermNode*, 2>;

  Term convert_node(Op op, Term a, Type to) {
    if (!a.valid()) throw type_error("invalid operand");
    if (op == Op::IntToFp && a.type() != Type::Int) throw type_error("'int.to_fp' needs an int");
    if (op == Op::FpToFp && !is_float(a.type())) throw type_error("'fp.to_fp' needs a float");
    NodeArgs na(1);
    na[0] = a.n_;
    return intern(op, to, 0, na);
  }

  static Type check(Op op, std::span<const Term> args) {
    auto need = [&](std::size_t lo, std::size_t hi) {
      if (args.size() < lo || args.size() > hi)
        throw type_error(std::string("wrong number of operands for ") + op_name(op));
      for (Term t : args)
        if (!t.valid()) throw type_error("invalid operand");
    };
    auto same_float = [&] {
      if (!is_float(args[0].type()))
        throw type_error(std::string("operator '") + op_name(op) +
                         "' expects floating-point operands, got " + to_string(args[0].type()));
      for (Term x : args)
        if (x.type() != args[0].type())
          throw type_error(std::string("operands of '") + op_name(op) +
                           "' have different floating-point types");
    };
    auto all = [&](Type t) {
      for (Term x : args)
        if (x.type() != t)
          throw type_error(std::string("operator '") + op_name(op) + "' expects " + to_string(t) +
                           " operands, got " + to_string(x.type()));
    };
    switch (op) {
      case Op::Var:
      case Op::IntConst:
      case Op::BoolConst: throw type_error("leaves are built with var/int_val/bool_val");
      case Op::Not: need(1, 1), all(Type::Bool); return Type::Bool;
      case Op::And:
      case Op::Or: need(2, SIZE_MAX), all(Type::Bool); return Type::Bool;
      case Op::Imply:
      case Op::Iff:
      case Op::Xor: need(2, 2), all(Type::Bool); return Type::Bool;
      case Op::Eq:
      case Op::Neq:
        need(2, 2);
        if (args[0].type() != args[1].type())
          throw type_error(std::string("operands of '") + op_name(op) + "' have different types (" +
                           to_string(args[0].type()) + " and " + to_string(args[1].type()) + ")");
        return Type::Bool;
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: need(2, 2), all(Type::Int); return Type::Bool;
      case Op::Select:
        need(2, 2);
        if (args[0].type() != Type::Array) throw type_error("'select' needs an array operand");
        if (args[1].type() != Type::Int) throw type_error("an array index must be int");
        return Type::Int;
      case Op::Store:
        need(3, 3);
        if (args[0].type() != Type::Array) throw type_error("'store' needs an array operand");
        if (args[1].type() != Type::Int || args[2].type() != Type::Int)
          throw type_error("an array index and element must be int");
        return Type::Array;
      case Op::ConstArray:  // over a literal: SMT-LIB's constant arrays are values
        need(1, 1);
        if (args[0].op() != Op::IntConst)
          throw type_error("a constant array needs an integer literal");
        return Type::Array;
      case Op::Add:
      case Op::Mul: need(2, SIZE_MAX), all(Type::Int); return Type::Int;
      case Op::Sub:
      case Op::Div:
      case Op::Mod:
      case Op::Rem: need(2, 2), all(Type::Int); return Type::Int;
      case Op::Neg:
      case Op::Pow2: need(1, 1), all(Type::Int); return Type::Int;
      case Op::BitAnd: need(2, 2), all(Type::Int); return Type::Int;
      case Op::FpConst: throw type_error("floating-point constants are built with fp_val");
      case Op::FpAdd:
      case Op::FpSub:
      case Op::FpMul:
      case Op::FpDiv: need(2, 2), same_float(); return args[0].type();
      case Op::FpNeg:
      case Op::FpAbs:
      case Op::FpSqrt:
      case Op::FpRound: need(1, 1), same_float(); return args[0].type();
      case Op::FpEq:
      case Op::FpLt:
      case Op::FpLe: need(2, 2), same_float(); return Type::Bool;
      case Op::FpIsNan:
      case Op::FpIsInf:
      case Op::FpIsZero:
      case Op::FpIsSubnormal:
      case Op::FpIsNormal:
      case Op::FpIsNeg: need(1, 1), same_float(); return Type::Bool;
      case Op::FpToFp:
      case Op::IntToFp:
      case Op::FpToInt: throw type_error("conversions are built with fp_convert/fp_to_int");
      case Op::Ite:
        need(3, 3);
        if (!args[0].is_bool()) throw type_error("condition of 'if' must be bool");
        if (args[1].type() != args[2].type())
          throw type_error("branches of 'if' have different types");
        return args[1].type();
    }
    throw type_error("unknown operator");
  }

 public:
  static const char* op_name(Op op) {
    switch (op) {
      case Op::Var: return "var";
      case Op::IntConst: return "int";
      case Op::BoolConst: return "bool";
      case Op::Not: return "not";
      case Op::And: return "and";
      case Op::Or: return "or";
      case Op::Imply: return "imply";
      case Op::Iff: return "iff";
      case Op::Xor: return "xor";
      case Op::Eq: return "=";
      case Op::Neq: return "/=";
      case Op::Lt: return "<";
      case Op::Le: return "<=";
      case Op::Gt: return ">";
      case Op::Ge: return ">=";
      case Op::Add: return "+";
      case Op::Sub: return "-";
      case Op::Mul: return "*";
      case Op::Div: return "/";
      case Op::Mod: return "mod";
      case Op::Rem: return "rem";
      case Op::Neg: return "-";
      case Op::Ite: return "if";
      case Op::BitAnd: return "iand";
      case Op::Pow2: return "pow2";
      case Op::Select: return "select";
      case Op::Store: return "store";
      case Op::ConstArray: return "const_array";
      case Op::FpConst: return "fp";
      case Op::FpAdd: return "fp.add";
      case Op::FpSub: return "fp.sub";
      case Op::FpMul: return "fp.mul";
      case Op::FpDiv: return "fp.div";
      case Op::FpNeg: return "fp.neg";
      case Op::FpAbs: return "fp.abs";
      case Op::FpSqrt: return "fp.sqrt";
      case Op::FpRound: return "fp.round";
      case Op::FpEq: return "fp.eq";
      case Op::FpLt: return "fp.lt";
      case Op::FpLe: return "fp.leq";
      case Op::FpIsNan: return "fp.isNaN";
      case Op::FpIsInf: return "fp.isInfinite";
      case Op::FpIsZero: return "fp.isZero";
      case Op::FpIsSubnormal: return "fp.isSubnormal";
      case Op::FpIsNormal: return "fp.isNormal";
      case Op::FpIsNeg: return "fp.isNegative";
      case Op::FpToFp: return "fp.to_fp";
      case Op::IntToFp: return "int.to_fp";
      case Op::FpToInt: return "fp.to_int";
    }
    return "?";
  }

 private:
  struct Key {
    Op op;
    Type type;
    std::int64_t value;
    const NodeArgs* args;
    std::size_t hash;
  };
  static std::size_t hash_of(Op op, std::int64_t value, const NodeArgs& args) {
    std::size_t h =
        std::hash<std::int64_t>{}(value)*0x9E3779B97F4A7C15ULL + static_cast<std::size_t>(op);
    for (const auto* a : args) h = (h ^ a->hash) * 0x100000001B3ULL + (h >> 29);
    return h;
  }
  struct NodeHash {
    using is_transparent = void;
    std::size_t operator()(const detail::TermNode* n) const noexcept { return n->hash; }
    std::size_t operator()(const Key& k) const noexcept { return k.hash; }
  };
  struct NodeEq {
    using is_transparent = void;
    static bool same(Op op, Type type, std::int64_t value, const NodeArgs& args,
                     const detail::TermNode* n) {
      return n->op == op && n->type == type && n->value == value && n->args == args;
    }
    bool operator()(const detail::TermNode* a, const detail::TermNode* b) const noexcept {
      return a == b;
    }
    bool operator()(const Key& k, const detail::TermNode* n) const noexcept {
      return same(k.op, k.type, k.value, *k.args, n);
    }
    bool operator()(const detail::TermNode* n, const Key& k) const noexcept {
      return same(k.op, k.type, k.value, *k.args, n);
    }
  };

  // Takes the operands by reference and copies them only into a new node (moving a
  // small_vector trips GCC 12's -Wstringop-overread at -O2).
  Term intern(Op op, Type type, std::int64_t value, const NodeArgs& args) {
    std::size_t h = hash_of(op, value, args);
    Key key{op, type, value, &args, h};
    if (auto it = table_.find(key); it != table_.end()) return Term(*it);
    std::uint32_t depth = 0;
    for (const auto* a : args) depth = std::max(depth, a->depth);
    ++depth;
    if (depth > max_depth_)
      throw limit_reached(LimitKind::Depth, "term nesting depth limit of " +
                                                std::to_string(max_depth_) + " exceeded");
    nodes_.push_back(detail::TermNode{op, type, value, args, h,
                                      static_cast<std::uint32_t>(nodes_.size()), depth});
    const detail::TermNode* n = &nodes_.back();
    table_.insert(n);
    return Term(n);
  }

  std::deque<detail::TermNode> nodes_;  // stable addresses
  std::unordered_set<const detail::TermNode*, NodeHash, NodeEq> table_;
  std::vector<Variable> vars_;
  std::unordered_map<std::string, VarId> by_name_;
  std::uint32_t max_depth_ = default_max_depth;
};

// Calls f(x) once for every distinct node x of the term DAG (parents before their
// operands), without recursion; f returns false to stop the walk.
template <class F>
void for_each_subterm(Term t, F&& f) {
  std::vector<Term> stack{t};
  std::unordered_set<Term, TermHash> seen;
  while (!stack.empty()) {
    const Term x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    if (!f(x)) return;
    for (std::size_t i = 0; i < x.num_args(); ++i) stack.push_back(x.arg(i));
  }
}

// Appends the variables of a term to `out`; `out` ends sorted without duplicates.
inline void collect_vars(Term t, std::vector<VarId>& out) {
  for_each_subterm(t, [&](Term x) {
    if (x.is_var()) out.push_back(x.var());
    return true;
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// k when t is pow2(k) of a constant k >= 0: the constant 2^k, also where it leaves int64
// (2^64, the modulus of the C front end's 64-bit wrap-around); nullopt otherwise.
inline std::optional<std::int64_t> constant_pow2_exponent(Term t) {
  if (t.op() != Op::Pow2 || t.arg(0).op() != Op::IntConst || t.arg(0).value() < 0)
    return std::nullopt;
  return t.arg(0).value();
}

}  // namespace precis

template <>
struct std::hash<precis::Term> {
  std::size_t operator()(precis::Term t) const noexcept { return t.hash(); }
};
