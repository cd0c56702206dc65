#pragma once
// A domain written outside the library, walked through in docs/new-domain.md: congruences
// x = a (mod m) per integer variable (Granger, 1989). m = 0 is the constant a, m = 1 is top,
// and otherwise 0 <= a < m, so equal sets have equal representations. Above any element the
// ascending chains are finite (a join turns a constant into a modulus once, then only
// divides moduli), so widen = join terminates. Values are computed in 128 bits and a result
// that needs more than 64 becomes top: over-approximating is sound, wrapping around is not.

#include <boost/container/flat_map.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/expr/term.hpp"

namespace precis_tutorial {

using precis::Op;
using precis::Term;
using i64 = std::int64_t;
__extension__ typedef __int128 i128;  // exact sums and products of 64-bit values
inline constexpr i128 kMax = std::numeric_limits<i64>::max();

struct Congruence {  // the set a + mZ
  i64 a = 0, m = 1;
  friend bool operator==(const Congruence&, const Congruence&) = default;
};

namespace cong {
inline i128 gcd(i128 x, i128 y) {
  while (y != 0) x = std::exchange(y, x % y);
  return x < 0 ? -x : x;
}
inline Congruence norm(i128 a, i128 m) {  // a + mZ in normal form, or top beyond 64 bits
  if (m > kMax) return {};
  if (m != 0) a = (a % m + m) % m;
  if (a > kMax || a < -kMax - 1) return {};
  return {static_cast<i64>(a), static_cast<i64>(m)};
}
inline bool leq(Congruence x, Congruence y) {
  return y.m == 0 ? x == y : x.m % y.m == 0 && norm(x.a, y.m).a == y.a;
}
inline Congruence join(Congruence x, Congruence y) {
  return norm(x.a, gcd(gcd(x.m, y.m), i128{x.a} - y.a));
}
// The intersection by the Chinese remainder theorem; false if it is empty. When lcm(m1, m2)
// needs more than 64 bits the result is x, an over-approximation.
inline bool meet(Congruence x, Congruence y, Congruence& out) {
  if (y.m == 0) std::swap(x, y);  // a constant first
  out = x;
  if (x.m == 0) return leq(x, y);
  const i128 g = gcd(x.m, y.m), n = y.m / g, lcm = x.m / g * y.m;
  if ((y.a - x.a) % g != 0) return false;
  i128 t = 0, u = 1, r = n, s = x.m / g % n;  // t := (x.m / g)^-1 mod n (extended Euclid)
  while (s != 0) {
    const i128 q = r / s;
    t = std::exchange(u, t - q * u);
    r = std::exchange(s, r - q * s);
  }
  if (lcm <= kMax) out = norm(x.a + x.m * ((y.a - x.a) / g % n * t % n), lcm);
  return true;
}
inline Congruence add(Congruence x, Congruence y) { return norm(i128{x.a} + y.a, gcd(x.m, y.m)); }
inline Congruence neg(Congruence x) { return norm(-i128{x.a}, x.m); }
// (a1 + m1 Z)(a2 + m2 Z) = a1 a2 + gcd(a1 m2, a2 m1, m1 m2) Z
inline Congruence mul(Congruence x, Congruence y) {
  return norm(i128{x.a} * y.a, gcd(gcd(i128{x.a} * y.m, i128{y.a} * x.m), i128{x.m} * y.m));
}
// x mod k (Euclidean, in [0, |k|)) = x (mod gcd(m, |k|)); a constant if |k| divides m.
inline Congruence mod(Congruence x, i64 k) {
  const i128 kk = k < 0 ? -i128{k} : i128{k}, g = gcd(x.m, kk);
  if (k == 0) return {};
  return g == kk ? Congruence{static_cast<i64>((x.a % kk + kk) % kk), 0} : norm(x.a, g);
}
}  // namespace cong

struct Congruences {  // a variable without an entry is top; bottom has no entries
  boost::container::flat_map<precis::VarId, Congruence> env;
  bool bottom = false;
  [[nodiscard]] Congruence get(precis::VarId v) const {
    auto it = env.find(v);
    return it == env.end() ? Congruence{} : it->second;
  }
  void set(precis::VarId v, Congruence c) {
    if (c.m == 1)
      env.erase(v);
    else
      env.insert_or_assign(v, c);
  }
  friend bool operator==(const Congruences&, const Congruences&) = default;
};

class CongruenceDomain {
 public:
  using element = Congruences;
  [[nodiscard]] element bottom() const { return {{}, true}; }
  [[nodiscard]] element top() const { return {}; }
  [[nodiscard]] bool is_bottom(const element& e) const { return e.bottom; }
  [[nodiscard]] bool leq(const element& x, const element& y) const {
    if (x.bottom || y.bottom) return x.bottom;
    for (const auto& [v, c] : y.env)
      if (!cong::leq(x.get(v), c)) return false;
    return true;
  }
  [[nodiscard]] element join(const element& x, const element& y) const {
    if (x.bottom || y.bottom) return x.bottom ? y : x;
    element r;
    for (const auto& [v, c] : x.env) r.set(v, cong::join(c, y.get(v)));
    return r;
  }
  [[nodiscard]] element widen(const element& x, const element& y) const { return join(x, y); }
  // VINTA's WIDENWITH: the join of them all (the chains are finite).
  [[nodiscard]] element widen_with(std::span<const element> xs, element y) const {
    for (const element& x : xs) y = join(y, x);
    return y;
  }
  [[nodiscard]] element meet(element x, const element& y) const {
    for (const auto& [v, c] : y.env) constrain(x, v, c);
    return y.bottom ? bottom() : x;
  }
  [[nodiscard]] std::size_t hash(const element& e) const {  // equal exactly when equivalent
    std::size_t h = e.bottom ? 1 : 0;
    for (const auto& [v, c] : e.env) h = ((h * 31 + v) * 31 + c.a) * 31 + c.m;
    return h;
  }

  [[nodiscard]] element post(element s, const precis::Operation& op) const {
    if (s.bottom) return s;
    if (const auto* a = std::get_if<precis::Assume>(&op)) return assume(s, a->cond, true);
    if (const auto* a = std::get_if<precis::Assign>(&op))  // a Boolean becomes top
      s.set(a->var, a->value.is_bool() ? Congruence{} : eval(s, a->value));
    if (const auto* h = std::get_if<precis::Havoc>(&op)) s.set(h->var, {});
    return s;  // skip: unchanged
  }
  // The value of an integer term in congruence arithmetic.
  [[nodiscard]] Congruence eval(const element& s, Term t) const {
    const auto arg = [&](std::size_t i) { return eval(s, t.arg(i)); };
    Congruence r = t.op() == Op::IntConst ? Congruence{t.value(), 0} : Congruence{};
    switch (t.op()) {
      case Op::Var: return s.get(t.var());
      case Op::Add:
      case Op::Mul:
        r = arg(0);
        for (std::size_t i = 1; i < t.num_args(); ++i)
          r = t.op() == Op::Add ? cong::add(r, arg(i)) : cong::mul(r, arg(i));
        return r;
      case Op::Sub: return cong::add(arg(0), cong::neg(arg(1)));
      case Op::Neg: return cong::neg(arg(0));
      case Op::Mod: return t.arg(1).is_const() ? cong::mod(arg(0), t.arg(1).value()) : r;
      case Op::Ite: return cong::join(arg(1), arg(2));
      default: return r;  // a constant, or top (/, rem)
    }
  }

 private:
  void constrain(element& s, precis::VarId v, Congruence c) const {
    Congruence m;
    if (!s.bottom && !cong::meet(s.get(v), c, m)) s = bottom();
    if (!s.bottom) s.set(v, m);
  }
  // s where the term t has a value in c: a variable is narrowed, and x mod k = a (the
  // formulas of to_formula) narrows x to a + kZ.
  void bind(element& s, Term t, Congruence c) const {
    if (t.is_var()) return constrain(s, t.var(), c);
    if (t.op() != Op::Mod || !t.arg(1).is_const() || t.arg(1).value() == 0 || c.m != 0) return;
    const i128 k = t.arg(1).value() < 0 ? -i128{t.arg(1).value()} : i128{t.arg(1).value()};
    if (c.a < 0 || c.a >= k) s = bottom();
    if (!s.bottom) bind(s, t.arg(0), cong::norm(c.a, k));
  }
  [[nodiscard]] element assume(element s, Term c, bool positive) const {
    switch (c.op()) {
      case Op::BoolConst: return (c.value() != 0) == positive ? s : bottom();
      case Op::Not: return assume(s, c.arg(0), !positive);
      case Op::And:
      case Op::Or: {  // a conjunction literal by literal, a disjunction joined
        const bool conj = (c.op() == Op::And) == positive;
        element r = conj ? s : bottom();
        for (std::size_t i = 0; i < c.num_args(); ++i)
          r = conj ? assume(r, c.arg(i), positive) : join(r, assume(s, c.arg(i), positive));
        return r;
      }
      case Op::Eq:
      case Op::Neq: {
        if (c.arg(0).is_bool()) return s;
        const Congruence x = eval(s, c.arg(0)), y = eval(s, c.arg(1));
        Congruence both;
        if ((c.op() == Op::Eq) != positive)  // x != y excludes a single value
          return x.m == 0 && x == y ? bottom() : s;
        if (!cong::meet(x, y, both)) return bottom();
        bind(s, c.arg(0), both);
        bind(s, c.arg(1), both);
        return s;
      }
      default: return s;  // <, <=, =>, ...: keeping s is sound
    }
  }
};

// gamma as a formula: x = a for a constant, x mod m = a otherwise (for the certificate
// checker and VINTA; found by argument-dependent lookup next to Congruences).
inline Term to_formula(const Congruences& e, precis::ExprManager& em) {
  std::vector<Term> conj;
  for (const auto& [v, c] : e.env) {
    const Term x = c.m == 0 ? em.var(v) : em.mod(em.var(v), em.int_val(c.m));
    conj.push_back(em.eq(x, em.int_val(c.a)));
  }
  return e.bottom ? em.false_() : em.conj(conj);
}

}  // namespace precis_tutorial
