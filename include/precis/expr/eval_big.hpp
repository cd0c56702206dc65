#pragma once
// Exact evaluation of terms over arbitrary-precision integers (core/big_int.hpp), for the
// concrete interpreter that confirms counterexamples (refine/concrete_interpreter.hpp).
//
// Same semantics as expr/eval.hpp, without its int64 bound: Div and Mod are Euclidean
// (0 <= mod(a, b) < |b|, a = b * div(a, b) + mod(a, b)), Rem is mod(a, b) for b >= 0 and
// -mod(a, b) otherwise, Booleans are 0/1. The result is nullopt ("unknown") only when a
// variable that matters is unknown or on division by zero; Boolean connectives, Ite
// and a product with a zero factor are three-valued exactly as in expr/eval.hpp, so the
// two evaluators agree wherever the int64 one knows a value.

#include <concepts>
#include <cstddef>
#include <optional>

#include "precis/core/big_int.hpp"
#include "precis/expr/term.hpp"

namespace precis {

using OptBigInt = std::optional<BigInt>;

// A valuation over BigInt: a variable's value, or nullopt when unknown.
template <class V>
concept BigValuation = requires(const V& v, VarId x) {
  { v(x) } -> std::convertible_to<OptBigInt>;
};

namespace big_arith {

// Euclidean modulus: 0 <= mod(a, b) < |b|; nullopt for b = 0.
inline OptBigInt mod(const BigInt& a, const BigInt& b) {
  if (b == 0) return std::nullopt;
  BigInt r = a % b;  // truncating: the sign of a
  if (r < 0) r += abs(b);
  return r;
}
// Euclidean division, consistent with mod.
inline OptBigInt div(const BigInt& a, const BigInt& b) {
  auto r = mod(a, b);
  if (!r) return std::nullopt;
  return BigInt((a - *r) / b);  // exact
}
// Theta's rem: the sign follows the divisor.
inline OptBigInt rem(const BigInt& a, const BigInt& b) {
  auto m = mod(a, b);
  if (!m) return std::nullopt;
  return b >= 0 ? *m : BigInt(-*m);
}

}  // namespace big_arith

namespace detail {

template <BigValuation V>
OptBigInt eval_big_rec(Term t, const V& val) {
  auto b = [](bool x) -> OptBigInt { return BigInt(x ? 1 : 0); };
  switch (t.op()) {
    case Op::Var: return val(t.var());
    case Op::IntConst:
    case Op::BoolConst: return BigInt(t.value());
    case Op::Not: {
      auto a = eval_big_rec(t.arg(0), val);
      if (!a) return std::nullopt;
      return b(*a == 0);
    }
    case Op::And:
    case Op::Or: {
      const bool is_and = t.op() == Op::And;
      bool unknown = false;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        auto a = eval_big_rec(t.arg(i), val);
        if (!a) {
          unknown = true;
        } else if ((*a != 0) != is_and) {
          return b(!is_and);  // a false conjunct / a true disjunct decides
        }
      }
      if (unknown) return std::nullopt;
      return b(is_and);
    }
    case Op::Imply: {
      auto l = eval_big_rec(t.arg(0), val);
      if (l && *l == 0) return b(true);
      auto r = eval_big_rec(t.arg(1), val);
      if (r && *r != 0) return b(true);
      if (l && r) return b(false);
      return std::nullopt;
    }
    case Op::Ite: {
      auto c = eval_big_rec(t.arg(0), val);
      if (c) return eval_big_rec(t.arg(*c != 0 ? 1 : 2), val);
      auto x = eval_big_rec(t.arg(1), val);
      auto y = eval_big_rec(t.arg(2), val);
      if (x && y && *x == *y) return x;
      return std::nullopt;
    }
    case Op::Neg: {
      auto a = eval_big_rec(t.arg(0), val);
      if (!a) return std::nullopt;
      return BigInt(-*a);
    }
    case Op::Add:
    case Op::Mul: {
      const bool is_add = t.op() == Op::Add;
      BigInt acc = is_add ? 0 : 1;
      bool unknown = false;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        auto a = eval_big_rec(t.arg(i), val);
        if (!a) {
          unknown = true;
          continue;
        }
        if (!is_add && *a == 0) return BigInt(0);  // x * 0 = 0 even if x is unknown
        if (unknown) continue;
        if (is_add)
          acc += *a;
        else
          acc *= *a;
      }
      if (unknown) return std::nullopt;
      return acc;
    }
    default: break;
  }
  // Remaining operators are binary and strict in both arguments.
  auto l = eval_big_rec(t.arg(0), val);
  if (!l) return std::nullopt;
  auto r = eval_big_rec(t.arg(1), val);
  if (!r) return std::nullopt;
  switch (t.op()) {
    case Op::Iff: return b((*l != 0) == (*r != 0));
    case Op::Xor: return b((*l != 0) != (*r != 0));
    case Op::Eq: return b(*l == *r);
    case Op::Neq: return b(*l != *r);
    case Op::Lt: return b(*l < *r);
    case Op::Le: return b(*l <= *r);
    case Op::Gt: return b(*l > *r);
    case Op::Ge: return b(*l >= *r);
    case Op::Sub: return BigInt(*l - *r);
    case Op::Div: return big_arith::div(*l, *r);
    case Op::Mod: return big_arith::mod(*l, *r);
    case Op::Rem: return big_arith::rem(*l, *r);
    default: return std::nullopt;
  }
}

}  // namespace detail

// Evaluates `t` under `val` exactly. Booleans are returned as 0 (false) or 1 (true).
template <BigValuation V>
OptBigInt evaluate_big(Term t, const V& val) {
  return detail::eval_big_rec(t, val);
}

}  // namespace precis
