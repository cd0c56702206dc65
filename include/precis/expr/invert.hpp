#pragma once
// Solving a term for one variable: the value x must take for `t` to evaluate to a
// target, when x occurs once in t along a chain of +, -, unary minus and multiplication
// by a known constant. Used by the explicit-value assume transfer ("c is the only
// satisfying assignment of p/v for x") and by counterexample concretisation.

#include <cstdint>
#include <optional>

#include "precis/expr/eval.hpp"

namespace precis {

// Number of occurrences of x in t (stops counting at 2).
inline int occurrences(Term t, VarId x) {
  if (t.is_var()) return t.var() == x ? 1 : 0;
  int n = 0;
  for (std::size_t i = 0; i < t.num_args() && n < 2; ++i) n += occurrences(t.arg(i), x);
  return n > 2 ? 2 : n;
}

// Returns the unique value of x for which t = target under `val` (where x itself is
// treated as unknown), or nullopt when there is none or it cannot be determined.
template <Valuation V>
OptValue invert(Term t, VarId x, std::int64_t target, const V& val) {
  if (t.is_var()) return t.var() == x ? OptValue(target) : std::nullopt;
  auto without_x = [&](VarId y) -> OptValue { return y == x ? std::nullopt : val(y); };
  switch (t.op()) {
    case Op::Neg: {
      auto r = arith::neg(target);
      return r ? invert(t.arg(0), x, *r, val) : std::nullopt;
    }
    case Op::Add:
    case Op::Mul: {
      const bool is_add = t.op() == Op::Add;
      std::optional<std::size_t> hole;
      std::int64_t acc = is_add ? 0 : 1;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        if (occurrences(t.arg(i), x) > 0) {
          if (hole) return std::nullopt;  // x in two operands: not linear in one place
          hole = i;
          continue;
        }
        auto a = evaluate(t.arg(i), without_x);
        if (!a) return std::nullopt;
        auto r = is_add ? arith::add(acc, *a) : arith::mul(acc, *a);
        if (!r) return std::nullopt;
        acc = *r;
      }
      if (!hole) return std::nullopt;
      if (is_add) {
        auto r = arith::sub(target, acc);
        return r ? invert(t.arg(*hole), x, *r, val) : std::nullopt;
      }
      if (acc == 0 || target % acc != 0) return std::nullopt;
      if (acc == -1 && target == INT64_MIN) return std::nullopt;
      return invert(t.arg(*hole), x, target / acc, val);
    }
    case Op::Sub: {
      const bool left = occurrences(t.arg(0), x) > 0;
      const bool right = occurrences(t.arg(1), x) > 0;
      if (left == right) return std::nullopt;
      auto other = evaluate(t.arg(left ? 1 : 0), without_x);
      if (!other) return std::nullopt;
      // left:  a - o = target  =>  a = target + o;   right: o - b = target  =>  b = o - target
      auto r = left ? arith::add(target, *other) : arith::sub(*other, target);
      return r ? invert(t.arg(left ? 0 : 1), x, *r, val) : std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace precis
