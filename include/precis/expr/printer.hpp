#pragma once
// Prints terms back in the .cfa expression syntax, with just the parentheses the
// format's precedence rules need (so the reader parses the output to the same term).

#include <ostream>
#include <sstream>
#include <string>

#include "precis/expr/floating_point.hpp"
#include "precis/expr/term.hpp"

namespace precis {

namespace detail {

// Binding strength of an operator in the .cfa grammar (higher binds tighter).
inline int precedence(Op op) {
  switch (op) {
    case Op::Ite: return 2;
    case Op::Iff: return 3;
    case Op::Imply: return 4;
    case Op::Or: return 7;
    case Op::Xor: return 8;
    case Op::And: return 9;
    case Op::Not: return 10;
    case Op::Eq:
    case Op::Neq: return 11;
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: return 12;
    case Op::Add:
    case Op::Sub: return 17;
    case Op::Mul:
    case Op::Div:
    case Op::Mod:
    case Op::Rem: return 18;
    case Op::Neg: return 21;
    default: return 30;  // atoms
  }
}

inline void print_term(std::ostream& os, Term t, const ExprManager& em, int min_prec);

inline void print_child(std::ostream& os, Term c, const ExprManager& em, int min_prec) {
  // Negative literals get parentheses as operands: '- -1' and 'x * -1' read poorly.
  // 'not' cannot be stacked in the grammar; its operand context (11) handles that.
  bool paren = precedence(c.op()) < min_prec || (c.op() == Op::IntConst && c.value() < 0);
  if (paren) os << '(';
  print_term(os, c, em, paren ? 0 : min_prec);
  if (paren) os << ')';
}

inline void print_term(std::ostream& os, Term t, const ExprManager& em, int /*min_prec*/) {
  const int p = precedence(t.op());
  switch (t.op()) {
    case Op::Var: os << em.variable(t.var()).name; return;
    case Op::IntConst:
      // The reader reads "-9223372036854775808" as one literal (fuzzing found that the
      // old "-9223372036854775807 - 1" read back as a subtraction).
      os << t.value();
      return;
    case Op::BoolConst: os << (t.value() ? "true" : "false"); return;
    case Op::Not:
      os << "not ";
      print_child(os, t.arg(0), em, 11);
      return;
    case Op::Neg:
      os << '-';
      // "-5" would read back as the literal -5, losing the negation: "-(5)".
      if (t.arg(0).op() == Op::IntConst) {
        os << '(';
        print_term(os, t.arg(0), em, 0);
        os << ')';
        return;
      }
      print_child(os, t.arg(0), em, 22);
      return;
    case Op::BitAnd:  // iand(k, a, b): the width first, as cvc5's (_ iand k)
      os << "iand(" << t.value() << ", ";
      print_child(os, t.arg(0), em, 0);
      os << ", ";
      print_child(os, t.arg(1), em, 0);
      os << ')';
      return;
    case Op::Pow2:
      os << "pow2(";
      print_child(os, t.arg(0), em, 0);
      os << ')';
      return;
    // Arrays in theta's notation: a[i], a[i <- v], [default <- c]. The .cfa reader does
    // not read them back (it reads int and bool).
    case Op::Select:
    case Op::Store:
      print_child(os, t.arg(0), em, p);
      os << '[';
      print_child(os, t.arg(1), em, 0);
      if (t.op() == Op::Store) {
        os << " <- ";
        print_child(os, t.arg(2), em, 0);
      }
      os << ']';
      return;
    // Floating point in SMT-LIB's prefix names: fp32(1.5), fp.add(x, y),
    // fp.round.floor(x), int.to_fp64(n). The .cfa reader does not read them back.
    case Op::FpConst:
      os << to_string(t.type()) << '(' << fp::to_text(t.type(), t.value()) << ')';
      return;
    case Op::FpRound: {
      static const char* const modes[] = {"rint", "round", "ceil", "floor", "trunc"};
      os << "fp.round." << modes[static_cast<int>(t.value()) % 5] << '(';
      print_child(os, t.arg(0), em, 0);
      os << ')';
      return;
    }
    case Op::FpToFp:
    case Op::IntToFp:
      os << (t.op() == Op::IntToFp ? "int.to_" : "fp.to_") << to_string(t.type()) << '(';
      print_child(os, t.arg(0), em, 0);
      os << ')';
      return;
    case Op::FpAdd:
    case Op::FpSub:
    case Op::FpMul:
    case Op::FpDiv:
    case Op::FpNeg:
    case Op::FpAbs:
    case Op::FpSqrt:
    case Op::FpEq:
    case Op::FpLt:
    case Op::FpLe:
    case Op::FpIsNan:
    case Op::FpIsInf:
    case Op::FpIsZero:
    case Op::FpIsSubnormal:
    case Op::FpIsNormal:
    case Op::FpIsNeg:
    case Op::FpToInt:
      os << ExprManager::op_name(t.op()) << '(';
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        if (i) os << ", ";
        print_child(os, t.arg(i), em, 0);
      }
      os << ')';
      return;
    case Op::ConstArray:
      os << "[default <- ";
      print_child(os, t.arg(0), em, 0);
      os << ']';
      return;
    case Op::Ite:
      os << "if ";
      print_child(os, t.arg(0), em, 3);
      os << " then ";
      print_child(os, t.arg(1), em, 3);
      os << " else ";
      print_child(os, t.arg(2), em, 2);
      return;
    case Op::And:
    case Op::Or:
      // n-ary in the grammar: a nested and/or keeps its parentheses.
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        if (i) os << ' ' << ExprManager::op_name(t.op()) << ' ';
        print_child(os, t.arg(i), em, p + 1);
      }
      return;
    case Op::Add:
    case Op::Mul:
      // left-associative: the left operand may be at the same level.
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        if (i) os << ' ' << ExprManager::op_name(t.op()) << ' ';
        print_child(os, t.arg(i), em, i == 0 ? p : p + 1);
      }
      return;
    case Op::Sub:
    case Op::Div:
    case Op::Mod:
    case Op::Rem:
      print_child(os, t.arg(0), em, p);
      os << ' ' << ExprManager::op_name(t.op()) << ' ';
      print_child(os, t.arg(1), em, p + 1);
      return;
    case Op::Iff:
    case Op::Imply:
    case Op::Xor:
      // right-associative
      print_child(os, t.arg(0), em, p + 1);
      os << ' ' << ExprManager::op_name(t.op()) << ' ';
      print_child(os, t.arg(1), em, p);
      return;
    default:
      // non-chainable binary comparisons
      print_child(os, t.arg(0), em, p + 1);
      os << ' ' << ExprManager::op_name(t.op()) << ' ';
      print_child(os, t.arg(1), em, p + 1);
      return;
  }
}

}  // namespace detail

inline void print(std::ostream& os, Term t, const ExprManager& em) {
  detail::print_term(os, t, em, 0);
}

inline std::string to_string(Term t, const ExprManager& em) {
  std::ostringstream os;
  print(os, t, em);
  return os.str();
}

}  // namespace precis
