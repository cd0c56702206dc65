#pragma once
// Exact evaluation of terms over arbitrary-precision integers (core/big_int.hpp), for the
// concrete interpreter that confirms counterexamples (path/concrete_interpreter.hpp).
//
// The evaluator of expr/eval.hpp (detail::eval_with) over BigInt: the same semantics
// without its int64 bound: Div and Mod are Euclidean
// (0 <= mod(a, b) < |b|, a = b * div(a, b) + mod(a, b)), Rem is mod(a, b) for b >= 0 and
// -mod(a, b) otherwise, Booleans are 0/1. The result is nullopt ("unknown") only when a
// variable that matters is unknown or on division by zero; Boolean connectives, Ite
// and a product with a zero factor are three-valued exactly as in expr/eval.hpp, so the
// two evaluators agree wherever the int64 one knows a value.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "precis/core/big_int.hpp"
#include "precis/expr/eval.hpp"
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

// (a mod 2^k) & (b mod 2^k): both operands non-negative, so cpp_int's & is the bitwise
// and of the k-bit two's complement representations.
inline OptBigInt bit_and(const BigInt& a, const BigInt& b, std::int64_t k) {
  if (k < 1 || k > 64) return std::nullopt;
  const BigInt m = BigInt(1) << static_cast<unsigned>(k);
  return BigInt(*mod(a, m) & *mod(b, m));
}
// 2^a for a >= 0, 0 for a < 0 (cvc5's POW2). Exponents beyond 2^16 are unknown: no C
// shift gets near them, and the value would take kilobytes.
inline OptBigInt pow2(const BigInt& a) {
  if (a < 0) return BigInt(0);
  if (a > 65536) return std::nullopt;
  return BigInt(BigInt(1) << static_cast<unsigned>(a));
}

}  // namespace big_arith

// The exact arithmetic for detail::eval_with (expr/eval.hpp): only division by zero is
// unknown.
struct BigArithmetic {
  using value = BigInt;
  static OptBigInt add(const BigInt& a, const BigInt& b) { return BigInt(a + b); }
  static OptBigInt sub(const BigInt& a, const BigInt& b) { return BigInt(a - b); }
  static OptBigInt mul(const BigInt& a, const BigInt& b) { return BigInt(a * b); }
  static OptBigInt neg(const BigInt& a) { return BigInt(-a); }
  static OptBigInt div(const BigInt& a, const BigInt& b) { return big_arith::div(a, b); }
  static OptBigInt mod(const BigInt& a, const BigInt& b) { return big_arith::mod(a, b); }
  static OptBigInt rem(const BigInt& a, const BigInt& b) { return big_arith::rem(a, b); }
  static OptBigInt bit_and(const BigInt& a, const BigInt& b, std::int64_t k) {
    return big_arith::bit_and(a, b, k);
  }
  static OptBigInt pow2(const BigInt& a) { return big_arith::pow2(a); }
};

// No variable has a value: evaluates ground terms.
struct EmptyBigValuation {
  OptBigInt operator()(VarId) const { return std::nullopt; }
};

// Evaluates `t` under `val` exactly. Booleans are returned as 0 (false) or 1 (true).
template <BigValuation V>
OptBigInt evaluate_big(Term t, const V& val) {
  return detail::eval_with<BigArithmetic>(t, val);
}

// The integer v as a term. Term constants are int64; a value beyond (2^64 and the
// constants of 64-bit unsigned C types) is pow2(k) minus or plus an int64 constant, which
// evaluate_big and the solver read exactly and evaluate() leaves unknown:
// 2^64 = pow2(64), 2^64 - 1 = pow2(64) - 1, -v = neg(term of v).
inline Term big_int_term(ExprManager& em, const BigInt& v) {
  if (const auto small = to_int64(v)) return em.int_val(*small);
  if (v < 0) return em.neg(big_int_term(em, -v));
  const auto k = static_cast<std::int64_t>(boost::multiprecision::msb(v));  // v >= 2^63
  const BigInt p = BigInt(1) << static_cast<unsigned>(k);
  if (v == p) return em.pow2(em.int_val(k));
  const BigInt d = (p << 1) - v;  // v = 2^(k+1) - d
  if (const auto small = to_int64(d)) return em.sub(em.pow2(em.int_val(k + 1)), em.int_val(*small));
  return em.add(em.pow2(em.int_val(k)), big_int_term(em, v - p));
}

// Whether t has no variables.
inline bool is_ground(Term t) {
  if (t.is_const()) return true;
  if (t.is_var()) return false;
  for (std::size_t i = 0; i < t.num_args(); ++i)
    if (!is_ground(t.arg(i))) return false;
  return true;
}

// t as its value (big_int_term's form) when it has no variables, exactly: mod(-1,
// pow2(64)) is pow2(64) - 1; anything else unchanged. Meant for terms built bottom-up
// from folded operands, whose ground operands are constants or such values, a few
// nodes deep.
inline Term fold_ground(ExprManager& em, Term t) {
  if (t.num_args() == 0 || !is_ground(t)) return t;
  const OptBigInt v = evaluate_big(t, EmptyBigValuation{});
  if (!v) return t;
  if (t.is_bool()) return em.bool_val(*v != 0);
  if (is_float(t.type())) {
    const auto bits = to_int64(*v);
    return bits ? em.fp_val(t.type(), *bits) : t;
  }
  return big_int_term(em, *v);
}

}  // namespace precis
