#pragma once
// The reduced product of intervals and arithmetic congruences (Granger 1989; the
// interval-congruence domain of IKOS and crab): a Box (domains/box/box.hpp) beside a map
// variable -> r + mZ (congruence.hpp). The `ai-cong` analysis of precis-verify.
//
// Why: loops that count by a stride (`for (i = 0; i < N; i += 2)`, `z = z + 2` under a
// branch) keep parity facts that no convex domain holds, and SV-COMP's loop categories
// assert exactly those (`i == N` after the loop, `z % 2 == 0`). With the reduction,
// i < 1000000 and "i even" give i <= 999998, and the exit condition then pins i.
//
// Transfer: the box part is BoxDomain's. Congruences: an assignment evaluates its right
// side over congruences (+, -, *, and Euclidean div / mod / rem by constants, ite as a
// join); havoc forgets; an assume meets `x == e` into x, and splits each variable of a
// literal with a `mod k` (k <= kMaxSplit) into its k residue classes, keeping those
// under which the literal can hold (so `x % 2 == 0`, in the term language's Euclidean
// form or in the C front end's sign-split form, makes x even). An assume that cannot
// hold under the congruences is bottom.
//
// Reduction (after each post, join, meet and narrow, never after widen, so that widening
// still terminates): a singleton interval is a constant congruence and back; a finite
// bound moves inwards to the nearest member of the class; an empty result is bottom.
//
// Lattice: pointwise, bottom as a whole (the Box's flag); variables missing from the map
// are top, so the representation is canonical once reduced. Widening widens the box and
// joins the congruences (finite ascending chains).

#include <boost/container/flat_map.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/congruence/congruence.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct IntervalCongruence {
  using cong_map = boost::container::flat_map<VarId, Congruence>;
  Box box;        // bottom here is bottom of the whole element
  cong_map cong;  // only non-top congruences of integer variables; empty when bottom

  [[nodiscard]] bool is_bottom() const { return box.is_bottom(); }
  [[nodiscard]] Congruence get(VarId v) const {
    if (box.is_bottom()) return Congruence::bottom();
    auto it = cong.find(v);
    return it == cong.end() ? Congruence::top() : it->second;
  }
  friend bool operator==(const IntervalCongruence&, const IntervalCongruence&) = default;
};

class IntervalCongruenceDomain {
 public:
  using element = IntervalCongruence;
  // The largest modulus an assume splits a variable by (k classes, one evaluation each).
  static constexpr std::int64_t kMaxSplit = 64;

  IntervalCongruenceDomain() = default;
  explicit IntervalCongruenceDomain(Thresholds thresholds) : box_(std::move(thresholds)) {}
  explicit IntervalCongruenceDomain(BoxDomain box) : box_(std::move(box)) {}

  [[nodiscard]] const BoxDomain& box_domain() const { return box_; }

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] element bottom() const { return {Box::bottom(), {}}; }
  [[nodiscard]] element top() const { return {}; }
  [[nodiscard]] bool is_bottom(const element& a) const { return a.is_bottom(); }

  [[nodiscard]] bool leq(const element& a, const element& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    if (!box_.leq(a.box, b.box)) return false;
    for (const auto& [v, cb] : b.cong)
      if (!a.get(v).leq(cb)) return false;
    return true;
  }
  [[nodiscard]] element join(const element& a, const element& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    element r{box_.join(a.box, b.box), join_cong(a, b)};
    reduce(r);
    return r;
  }
  // Box widening; congruences joined (no reduction: it could undo the widening).
  [[nodiscard]] element widen(const element& a, const element& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    element r{box_.widen(a.box, b.box), join_cong(a, b)};
    if (r.box.is_bottom()) r.cong.clear();
    return r;
  }
  [[nodiscard]] element meet(const element& a, const element& b) const {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    element r{box_.meet(a.box, b.box), a.cong};
    for (const auto& [v, c] : b.cong) set_cong(r, v, r.get(v).meet(c));
    reduce(r);
    return r;
  }
  // b's congruences lie between b and a (b <= a): the box narrows, the classes stay b's.
  [[nodiscard]] element narrow(const element& a, const element& b) const {
    if (a.is_bottom() || b.is_bottom()) return b;
    element r{box_.narrow(a.box, b.box), b.cong};
    reduce(r);
    return r;
  }

  [[nodiscard]] std::size_t hash(const element& a) const {
    std::size_t h = box_.hash(a.box);
    for (const auto& [v, c] : a.cong) {
      h = (h ^ (v + 0x9e3779b97f4a7c15ULL)) * 0x100000001B3ULL;
      h = (h ^ static_cast<std::uint64_t>(c.residue())) * 0x100000001B3ULL;
      h = (h ^ static_cast<std::uint64_t>(c.modulus())) * 0x100000001B3ULL;
    }
    return h;
  }

  // ---- transfer ------------------------------------------------------------------------
  [[nodiscard]] element post(const element& s, const Operation& op) const {
    if (s.is_bottom()) return s;
    element r = s;
    r.box = box_.post(s.box, op);
    if (r.box.is_bottom()) return bottom();
    std::visit(overloaded{
                   [](const Skip&) {},
                   [&](const Assume& a) { assume_cong(r, a.cond); },
                   [&](const Assign& a) {
                     if (a.value.is_bool()) {
                       r.cong.erase(a.var);
                     } else {
                       set_cong(r, a.var, eval(s, a.value));
                     }
                   },
                   [&](const Havoc& h) { r.cong.erase(h.var); },
               },
               op);
    reduce(r);
    return r;
  }

  // An integer term's class over the congruences of s (top where unknown).
  [[nodiscard]] Congruence eval(const element& s, Term t) const {
    Memo memo;
    return eval(s, t, memo);
  }

  // Makes the two parts agree (see the header comment); bottom if they contradict.
  void reduce(element& e) const {
    if (e.box.is_bottom()) {
      e.cong.clear();
      return;
    }
    // Singleton intervals become constants (the box knows them from its own transfer; a
    // Boolean variable's 0 or 1 too, which is harmless: terms read Booleans as top).
    for (const auto& [v, i] : e.box.bounds()) {
      if (!i.is_singleton()) continue;
      const Congruence c = e.get(v).meet(Congruence::constant(i.lo().value()));
      if (c.is_bottom()) {
        e = bottom();
        return;
      }
      set_cong(e, v, c);
    }
    for (const auto& [v, c] : e.cong) {
      const Interval i = e.box.get(v);
      const Interval t = tighten(i, c);
      if (t.is_bottom()) {
        e = bottom();
        return;
      }
      if (!(t == i)) e.box.set(v, t);
    }
  }

 private:
  using Memo = std::unordered_map<Term, Congruence, TermHash>;

  static void set_cong(element& e, VarId v, const Congruence& c) {
    if (c.is_top()) {
      e.cong.erase(v);
    } else {
      e.cong.insert_or_assign(v, c);
    }
  }

  static IntervalCongruence::cong_map join_cong(const element& a, const element& b) {
    IntervalCongruence::cong_map out;
    for (const auto& [v, ca] : a.cong) {
      auto it = b.cong.find(v);
      if (it == b.cong.end()) continue;
      const Congruence j = ca.join(it->second);
      if (!j.is_top()) out.emplace_hint(out.end(), v, j);
    }
    return out;
  }

  // The interval's finite bounds moved inwards to members of c.
  static Interval tighten(const Interval& i, const Congruence& c) {
    if (i.is_bottom() || c.is_bottom()) return Interval::bottom();
    if (c.is_constant()) return i.meet(Interval::constant(c.residue()));
    if (c.modulus() < 2) return i;
    __extension__ typedef __int128 wide;
    const wide m = c.modulus();
    const auto emod = [](wide a, wide k) {
      const wide r = a % k;
      return r < 0 ? r + k : r;
    };
    Bound lo = i.lo(), hi = i.hi();
    constexpr wide kMin = std::numeric_limits<std::int64_t>::min();
    constexpr wide kMax = std::numeric_limits<std::int64_t>::max();
    if (lo.is_finite()) {
      const wide l = static_cast<wide>(lo.value()) + emod(c.residue() - wide{lo.value()}, m);
      if (l > kMax) return Interval::bottom();
      lo = Bound(static_cast<std::int64_t>(l));
    }
    if (hi.is_finite()) {
      const wide h = static_cast<wide>(hi.value()) - emod(wide{hi.value()} - c.residue(), m);
      if (h < kMin) return Interval::bottom();
      hi = Bound(static_cast<std::int64_t>(h));
    }
    return Interval(lo, hi);
  }

  Congruence eval(const element& s, Term t, Memo& memo) const {
    if (s.is_bottom()) return Congruence::bottom();
    switch (t.op()) {
      case Op::Var: return t.is_bool() ? Congruence::top() : s.get(t.var());
      case Op::IntConst: return Congruence::constant(t.value());
      default: break;
    }
    if (auto it = memo.find(t); it != memo.end()) return it->second;
    Congruence r = Congruence::top();
    switch (t.op()) {
      case Op::Add:
      case Op::Mul: {
        r = eval(s, t.arg(0), memo);
        for (std::size_t i = 1; i < t.num_args(); ++i) {
          const Congruence x = eval(s, t.arg(i), memo);
          r = t.op() == Op::Add ? r.add(x) : r.mul(x);
        }
        break;
      }
      case Op::Sub: r = eval(s, t.arg(0), memo).sub(eval(s, t.arg(1), memo)); break;
      case Op::Neg: r = eval(s, t.arg(0), memo).neg(); break;
      case Op::Div:
      case Op::Mod:
      case Op::Rem: {
        const Congruence k = eval(s, t.arg(1), memo);
        if (!k.is_constant()) break;
        const Congruence a = eval(s, t.arg(0), memo);
        r = t.op() == Op::Div   ? a.div(k.residue())
            : t.op() == Op::Mod ? a.mod(k.residue())
                                : a.rem(k.residue());
        break;
      }
      case Op::Ite: {
        const Truth c = truth(s, t.arg(0), true, memo);
        if (c != Truth::False) r = eval(s, t.arg(1), memo);
        if (c == Truth::Unknown) r = r.join(eval(s, t.arg(2), memo));
        if (c == Truth::False) r = eval(s, t.arg(2), memo);
        break;
      }
      default: break;  // bit operations, Booleans: top
    }
    memo.emplace(t, r);
    return r;
  }

  enum class Truth : std::uint8_t { False, True, Unknown };

  // Whether `cond` (negated if !positive) can hold under the congruences of s.
  Truth truth(const element& s, Term cond, bool positive, Memo& memo) const {
    const auto flip = [positive](Truth x) {
      if (x == Truth::Unknown || positive) return x;
      return x == Truth::True ? Truth::False : Truth::True;
    };
    switch (cond.op()) {
      case Op::BoolConst: return flip(cond.value() != 0 ? Truth::True : Truth::False);
      case Op::Not: return truth(s, cond.arg(0), !positive, memo);
      case Op::And:
      case Op::Or: {
        // Under the polarity: a conjunction is false if one part is, a disjunction if all.
        const bool conj = (cond.op() == Op::And) == positive;
        bool all_true = true, all_false = true;
        for (std::size_t i = 0; i < cond.num_args(); ++i) {
          const Truth x = truth(s, cond.arg(i), positive, memo);
          all_true = all_true && x == Truth::True;
          all_false = all_false && x == Truth::False;
          if (conj && x == Truth::False) return Truth::False;
          if (!conj && x == Truth::True) return Truth::True;
        }
        if (all_true) return Truth::True;
        if (all_false) return Truth::False;
        return Truth::Unknown;
      }
      case Op::Eq:
      case Op::Neq: {
        if (cond.arg(0).is_bool()) return Truth::Unknown;
        const Congruence a = eval(s, cond.arg(0), memo);
        const Congruence b = eval(s, cond.arg(1), memo);
        Truth eq = Truth::Unknown;
        if (a.meet(b).is_bottom()) eq = Truth::False;
        if (a.is_constant() && b.is_constant() && a == b) eq = Truth::True;
        if (cond.op() == Op::Neq && eq != Truth::Unknown)
          eq = eq == Truth::True ? Truth::False : Truth::True;
        return flip(eq);
      }
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: {
        const Congruence a = eval(s, cond.arg(0), memo);
        const Congruence b = eval(s, cond.arg(1), memo);
        if (!a.is_constant() || !b.is_constant()) return Truth::Unknown;
        const std::int64_t x = a.residue(), y = b.residue();
        const bool holds = cond.op() == Op::Lt   ? x < y
                           : cond.op() == Op::Le ? x <= y
                           : cond.op() == Op::Gt ? x > y
                                                 : x >= y;
        return flip(holds ? Truth::True : Truth::False);
      }
      default: return Truth::Unknown;
    }
  }

  static void collect_literals(Term t, bool positive, std::vector<std::pair<Term, bool>>& out) {
    if (t.op() == Op::Not) return collect_literals(t.arg(0), !positive, out);
    if ((t.op() == Op::And && positive) || (t.op() == Op::Or && !positive)) {
      for (std::size_t i = 0; i < t.num_args(); ++i) collect_literals(t.arg(i), positive, out);
      return;
    }
    out.emplace_back(t, positive);
  }

  // The congruence part of `assume cond` on r (whose box is already refined).
  void assume_cong(element& r, Term cond) const {
    Memo memo;
    if (truth(r, cond, true, memo) == Truth::False) {
      r = bottom();
      return;
    }
    std::vector<std::pair<Term, bool>> lits;
    collect_literals(cond, true, lits);
    for (const auto& [lit, positive] : lits) {
      if (r.is_bottom()) return;
      // x == e (or e == x): x's class meets e's.
      const bool eq = (lit.op() == Op::Eq && positive) || (lit.op() == Op::Neq && !positive);
      if (eq && !lit.arg(0).is_bool()) {
        for (int side = 0; side < 2; ++side) {
          const Term x = lit.arg(side);
          if (!x.is_var()) continue;
          Memo m;
          const Congruence c = r.get(x.var()).meet(eval(r, lit.arg(1 - side), m));
          if (c.is_bottom()) {
            r = bottom();
            return;
          }
          set_cong(r, x.var(), c);
        }
      }
      split_residues(r, lit, positive);
    }
  }

  // For each integer variable of the literal and each modulus k <= kMaxSplit the literal
  // takes a mod, div or rem by: the classes of x modulo k under which the literal can
  // hold, joined.
  void split_residues(element& r, Term lit, bool positive) const {
    std::vector<std::int64_t> moduli;
    std::vector<VarId> vars;
    for_each_subterm(lit, [&](Term x) {
      if ((x.op() == Op::Mod || x.op() == Op::Rem || x.op() == Op::Div) &&
          x.arg(1).op() == Op::IntConst) {
        const std::int64_t k = x.arg(1).value() < 0 ? -x.arg(1).value() : x.arg(1).value();
        if (k >= 2 && k <= kMaxSplit && std::find(moduli.begin(), moduli.end(), k) == moduli.end())
          moduli.push_back(k);
      }
      if (x.is_var() && !x.is_bool() && std::find(vars.begin(), vars.end(), x.var()) == vars.end())
        vars.push_back(x.var());
      return true;
    });
    if (moduli.empty() || vars.size() > 4) return;
    for (const VarId v : vars) {
      for (const std::int64_t k : moduli) {
        const Congruence before = r.get(v);
        Congruence kept = Congruence::bottom();
        for (std::int64_t rho = 0; rho < k; ++rho) {
          const Congruence cls = before.meet(Congruence::of(rho, k));
          if (cls.is_bottom()) continue;
          element probe = r;
          set_cong(probe, v, cls);
          Memo m;
          if (truth(probe, lit, positive, m) != Truth::False) kept = kept.join(cls);
        }
        if (kept.is_bottom()) {
          r = bottom();
          return;
        }
        set_cong(r, v, kept.meet(before));
      }
    }
  }

  BoxDomain box_;
};

// The box's formula and, for each congruence of modulus m >= 2, (x mod m) = r.
inline Term to_formula(const IntervalCongruence& e, ExprManager& em) {
  if (e.is_bottom()) return em.false_();
  std::vector<Term> conj;
  const Term box = to_formula(e.box, em);
  if (box.op() == Op::And) {  // one flat conjunction
    for (std::size_t i = 0; i < box.num_args(); ++i) conj.push_back(box.arg(i));
  } else {
    conj.push_back(box);
  }
  for (const auto& [v, c] : e.cong)
    if (c.modulus() >= 2)
      conj.push_back(em.eq(em.mod(em.var(v), em.int_val(c.modulus())), em.int_val(c.residue())));
  return em.conj(conj);
}

inline void print(std::ostream& os, const IntervalCongruence& e, const ExprManager& em) {
  print(os, e.box, em);
  if (e.is_bottom()) return;
  for (const auto& [v, c] : e.cong) os << " " << em.variable(v).name << " in " << c;
}

}  // namespace precis
