#pragma once
// Evaluation of terms under a partial valuation.
//
// Values are std::int64_t (Booleans as 0/1, floating-point values as their IEEE bit
// patterns, expr/floating_point.hpp). The result is std::nullopt ("unknown",
// the top of the flat lattice) when a variable that matters is unknown, when an
// intermediate result overflows std::int64_t, or on division by zero: the evaluator is
// never silently wrong, it only becomes less informative. Boolean connectives are
// evaluated three-valued (false and unknown = false), which is sound and more precise.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "precis/expr/floating_point.hpp"
#include "precis/expr/term.hpp"

namespace precis {

using OptValue = std::optional<std::int64_t>;

// A valuation maps a variable to its value, or std::nullopt when unknown.
template <class V>
concept Valuation = requires(const V& v, VarId x) {
  { v(x) } -> std::convertible_to<OptValue>;
};

namespace arith {

inline OptValue add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline OptValue sub(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline OptValue mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline OptValue neg(std::int64_t a) { return sub(0, a); }

// Euclidean modulus: 0 <= mod(a, b) < |b|.
inline OptValue mod(std::int64_t a, std::int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == 1 || b == -1) return 0;  // also avoids INT64_MIN % -1
  std::int64_t r = a % b;
  if (r < 0) r = b < 0 ? r - b : r + b;  // |r| < |b|: no overflow
  return r;
}
// Euclidean division, consistent with mod: a = b * div(a, b) + mod(a, b).
inline OptValue div(std::int64_t a, std::int64_t b) {
  if (b == 0) return std::nullopt;
  if (a == INT64_MIN && b == -1) return std::nullopt;  // 2^63 does not fit
  std::int64_t q = a / b;
  if (a % b < 0) q = b > 0 ? q - 1 : q + 1;
  return q;
}
// Theta's rem: the sign follows the divisor.
inline OptValue rem(std::int64_t a, std::int64_t b) {
  auto m = mod(a, b);
  if (!m) return std::nullopt;
  return b >= 0 ? *m : -*m;  // |m| < |b| <= 2^63, so -m cannot overflow
}
// (a mod 2^k) & (b mod 2^k) for 1 <= k <= 64: the low k bits of the two's complement
// representations, in [0, 2^k); for k = 64 unknown when bit 63 is set (2^63 and beyond are
// no int64).
inline OptValue bit_and(std::int64_t a, std::int64_t b, std::int64_t k) {
  if (k < 1 || k > 64) return std::nullopt;
  const std::uint64_t mask = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
  const std::uint64_t r = static_cast<std::uint64_t>(a) & static_cast<std::uint64_t>(b) & mask;
  if (r > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return static_cast<std::int64_t>(r);
}
// 2^a for a >= 0 (unknown from 2^63 on), 0 for a < 0 (cvc5's POW2).
inline OptValue pow2(std::int64_t a) {
  if (a < 0) return 0;
  if (a > 62) return std::nullopt;
  return std::int64_t{1} << a;
}

}  // namespace arith

// The arithmetic of evaluate(): std::int64_t, an overflow is unknown. A policy for
// detail::eval_with, which expr/eval_big.hpp instantiates with exact integers too.
struct Int64Arithmetic {
  using value = std::int64_t;
  static OptValue add(value a, value b) { return arith::add(a, b); }
  static OptValue sub(value a, value b) { return arith::sub(a, b); }
  static OptValue mul(value a, value b) { return arith::mul(a, b); }
  static OptValue neg(value a) { return arith::neg(a); }
  static OptValue div(value a, value b) { return arith::div(a, b); }
  static OptValue mod(value a, value b) { return arith::mod(a, b); }
  static OptValue rem(value a, value b) { return arith::rem(a, b); }
  static OptValue bit_and(value a, value b, std::int64_t k) { return arith::bit_and(a, b, k); }
  static OptValue pow2(value a) { return arith::pow2(a); }
};

namespace detail {

template <class A, class V>
std::optional<typename A::value> eval_with(Term t, const V& val);

// A value of A as an std::int64_t, if it is one.
template <class T>
std::optional<std::int64_t> as_int64(const T& v) {
  if constexpr (std::is_same_v<T, std::int64_t>) {
    return v;
  } else {
    if (v < std::numeric_limits<std::int64_t>::min() ||
        v > std::numeric_limits<std::int64_t>::max())
      return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
}

// The floating-point operators (expr/floating_point.hpp): strict in every operand.
template <class A, class V>
std::optional<typename A::value> eval_float(Term t, const V& val) {
  using R = std::optional<typename A::value>;
  using T = typename A::value;
  if (t.op() == Op::FpConst) return T(t.value());
  fp::ensure_nearest();  // before the operands' evaluation and this node's operation
  std::int64_t x[2] = {0, 0};
  for (std::size_t i = 0; i < t.num_args(); ++i) {
    auto v = eval_with<A>(t.arg(i), val);
    if (!v) return std::nullopt;
    if (t.op() == Op::IntToFp) {  // an integer operand: its value, up to 2^64
      if (auto small = as_int64(*v)) return T(fp::from_int(t.type(), *small));
      if (*v < T(0)) return std::nullopt;
      const auto p = A::pow2(T(64));
      if (!p || !(*v < *p)) return std::nullopt;
      const auto hi = A::div(*v, T(std::int64_t{1} << 32));
      const auto lo = A::mod(*v, T(std::int64_t{1} << 32));
      const auto h = hi ? as_int64(*hi) : std::nullopt;
      const auto l = lo ? as_int64(*lo) : std::nullopt;
      if (!h || !l) return std::nullopt;
      return T(fp::from_uint(
          t.type(), (static_cast<std::uint64_t>(*h) << 32) | static_cast<std::uint64_t>(*l)));
    }
    auto small = as_int64(*v);
    if (!small) return std::nullopt;
    x[i] = *small;
  }
  const Type ft = t.num_args() > 0 ? t.arg(0).type() : t.type();
  auto b = [](bool c) -> R { return T(c ? 1 : 0); };
  switch (t.op()) {
    case Op::FpAdd: return T(fp::add(ft, x[0], x[1]));
    case Op::FpSub: return T(fp::sub(ft, x[0], x[1]));
    case Op::FpMul: return T(fp::mul(ft, x[0], x[1]));
    case Op::FpDiv: return T(fp::div(ft, x[0], x[1]));
    case Op::FpNeg: return T(fp::neg(ft, x[0]));
    case Op::FpAbs: return T(fp::abs(ft, x[0]));
    case Op::FpSqrt: return T(fp::sqrt(ft, x[0]));
    case Op::FpRound: return T(fp::round(ft, x[0], static_cast<FpRounding>(t.value())));
    case Op::FpEq: return b(fp::eq(ft, x[0], x[1]));
    case Op::FpLt: return b(fp::lt(ft, x[0], x[1]));
    case Op::FpLe: return b(fp::le(ft, x[0], x[1]));
    case Op::FpIsNan:
    case Op::FpIsInf:
    case Op::FpIsZero:
    case Op::FpIsSubnormal:
    case Op::FpIsNormal:
    case Op::FpIsNeg: return b(fp::classify(t.op(), ft, x[0]));
    case Op::FpToFp: return T(fp::convert(ft, t.type(), x[0]));
    case Op::FpToInt: {
      const auto tr = fp::truncate(ft, x[0]);
      if (!tr) return T(0);  // NaN, infinite: 0 (expr/term.hpp)
      if (tr->exponent == 0) return T(tr->mantissa);
      const auto p = A::pow2(T(tr->exponent));
      if (!p) return std::nullopt;
      return A::mul(T(tr->mantissa), *p);
    }
    default: return std::nullopt;
  }
}

// The evaluator over the arithmetic A (a value type and partial operations that return
// nullopt for unknown: overflow, division by zero). Boolean connectives, Ite, and a
// product with a zero factor are three-valued the same way for every A, so evaluators
// over different arithmetics agree wherever both know a value.
template <class A, class V>
std::optional<typename A::value> eval_with(Term t, const V& val) {
  using R = std::optional<typename A::value>;
  using T = typename A::value;
  auto b = [](bool x) -> R { return T(x ? 1 : 0); };
  if (is_float_op(t.op())) return eval_float<A>(t, val);
  switch (t.op()) {
    case Op::Var:
      if (t.type() == Type::Array) return std::nullopt;  // no integer value
      return R(val(t.var()));
    case Op::Store:
    case Op::ConstArray: return std::nullopt;  // array-valued: only Select reads them
    case Op::Select: {
      // Down the chain of stores to the first one at the index, a constant array, or a
      // variable: a valuation with select(x, i) (the concrete interpreter's arrays)
      // answers for a variable, any other leaves it unknown.
      auto i = eval_with<A>(t.arg(1), val);
      if (!i) return std::nullopt;
      Term a = t.arg(0);
      for (;;) {
        if (a.op() == Op::Store) {
          auto j = eval_with<A>(a.arg(1), val);
          if (!j) return std::nullopt;
          if (*j == *i) return eval_with<A>(a.arg(2), val);
          a = a.arg(0);
        } else if (a.op() == Op::Ite) {
          auto c = eval_with<A>(a.arg(0), val);
          if (!c) return std::nullopt;
          a = a.arg(*c != 0 ? 1 : 2);
        } else if (a.op() == Op::ConstArray) {
          return eval_with<A>(a.arg(0), val);
        } else if (a.op() != Op::Var) {
          return std::nullopt;
        } else if constexpr (requires { val.select(a.var(), *i); }) {
          return R(val.select(a.var(), *i));
        } else {
          return std::nullopt;
        }
      }
    }
    case Op::Eq:
    case Op::Neq:
      if (t.arg(0).type() == Type::Array) return std::nullopt;  // extensional: not evaluated
      break;
    case Op::IntConst:
    case Op::BoolConst: return T(t.value());
    case Op::Not: {
      auto a = eval_with<A>(t.arg(0), val);
      if (!a) return std::nullopt;
      return b(*a == 0);
    }
    case Op::And:
    case Op::Or: {
      const bool is_and = t.op() == Op::And;
      bool unknown = false;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        auto a = eval_with<A>(t.arg(i), val);
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
      auto l = eval_with<A>(t.arg(0), val);
      if (l && *l == 0) return b(true);
      auto r = eval_with<A>(t.arg(1), val);
      if (r && *r != 0) return b(true);
      if (l && r) return b(false);
      return std::nullopt;
    }
    case Op::Ite: {
      auto c = eval_with<A>(t.arg(0), val);
      if (c) return eval_with<A>(t.arg(*c != 0 ? 1 : 2), val);
      auto x = eval_with<A>(t.arg(1), val);
      auto y = eval_with<A>(t.arg(2), val);
      if (x && y && *x == *y) return x;
      return std::nullopt;
    }
    case Op::Neg: {
      auto a = eval_with<A>(t.arg(0), val);
      if (!a) return std::nullopt;
      return A::neg(*a);
    }
    case Op::Pow2: {
      auto a = eval_with<A>(t.arg(0), val);
      if (!a) return std::nullopt;
      return A::pow2(*a);
    }
    case Op::Add:
    case Op::Mul: {
      const bool is_add = t.op() == Op::Add;
      T acc(is_add ? 0 : 1);
      bool unknown = false;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        auto a = eval_with<A>(t.arg(i), val);
        if (!a) {
          unknown = true;
          continue;
        }
        if (!is_add && *a == 0) return T(0);  // x * 0 = 0 even if x is unknown
        if (unknown) continue;
        auto r = is_add ? A::add(acc, *a) : A::mul(acc, *a);
        if (!r)
          unknown = true;  // overflow of a partial product: keep looking for a 0
        else
          acc = std::move(*r);
      }
      if (unknown) return std::nullopt;
      return acc;
    }
    default: break;
  }
  // Remaining operators are binary and strict in both arguments.
  auto l = eval_with<A>(t.arg(0), val);
  if (!l) return std::nullopt;
  auto r = eval_with<A>(t.arg(1), val);
  if (!r) {
    // x mod 2^k and x div 2^k for a constant 2^k that A cannot represent (the C front end's
    // wrap-around of 64-bit unsigned values, k = 64): for 0 <= x < 2^63 they are x and 0.
    const auto k = constant_pow2_exponent(t.arg(1));
    if ((t.op() == Op::Mod || t.op() == Op::Div) && k && *k >= 63 && *l >= 0 &&
        *l <= T(std::numeric_limits<std::int64_t>::max()))
      return t.op() == Op::Mod ? *l : T(0);
    return std::nullopt;
  }
  switch (t.op()) {
    case Op::Iff: return b((*l != 0) == (*r != 0));
    case Op::Xor: return b((*l != 0) != (*r != 0));
    case Op::Eq: return b(*l == *r);
    case Op::Neq: return b(*l != *r);
    case Op::Lt: return b(*l < *r);
    case Op::Le: return b(*l <= *r);
    case Op::Gt: return b(*l > *r);
    case Op::Ge: return b(*l >= *r);
    case Op::Sub: return A::sub(*l, *r);
    case Op::Div: return A::div(*l, *r);
    case Op::Mod: return A::mod(*l, *r);
    case Op::Rem: return A::rem(*l, *r);
    case Op::BitAnd: return A::bit_and(*l, *r, t.value());
    default: return std::nullopt;
  }
}

}  // namespace detail

// Evaluates `t` under `val`. Booleans are returned as 0 (false) or 1 (true).
template <Valuation V>
OptValue evaluate(Term t, const V& val) {
  return detail::eval_with<Int64Arithmetic>(t, val);
}

// Convenience: a valuation under which every variable is unknown.
struct EmptyValuation {
  OptValue operator()(VarId) const { return std::nullopt; }
};

}  // namespace precis
