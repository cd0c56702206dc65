#pragma once
// The BOX domain (VINTA paper, sections 4.2 and 5): a non-relational environment that
// maps each variable to an interval. Variables not in the map are top (for a Bool
// variable, read through a term, top means [0, 1]); a box with an empty variable is the
// bottom element as a whole, stored as a flag, so the representation is canonical and
// == coincides with lattice equivalence.
//
// Transfer (POST_D of section 3): assignments by interval arithmetic, havoc forgets,
// assumes by constraint propagation over linear conditions (HC4-revise style, a few
// rounds to a fixpoint), with disjunctions joined. The join-based WIDENWITH of section
// 4.2 is widen_with. to_formula gives the gamma of the paper (labels are formulas).

#include <boost/container/flat_map.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <ostream>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/expr/linear_form.hpp"
#include "precis/expr/term.hpp"

namespace precis {

class Box {
 public:
  using map_type = boost::container::flat_map<VarId, Interval>;

  Box() = default;  // top: nothing known
  static Box bottom() {
    Box b;
    b.bottom_ = true;
    return b;
  }

  [[nodiscard]] bool is_bottom() const { return bottom_; }
  [[nodiscard]] bool is_top() const { return !bottom_ && env_.empty(); }
  // The interval of v (top when unconstrained, bottom in the bottom box).
  [[nodiscard]] Interval get(VarId v) const {
    if (bottom_) return Interval::bottom();
    auto it = env_.find(v);
    return it == env_.end() ? Interval::top() : it->second;
  }
  // Binds v; a bottom interval makes the whole box bottom, a top one forgets v.
  void set(VarId v, const Interval& i) {
    if (bottom_) return;
    if (i.is_bottom()) {
      *this = bottom();
    } else if (i.is_top()) {
      env_.erase(v);
    } else {
      env_.insert_or_assign(v, i);
    }
  }
  void forget(VarId v) { env_.erase(v); }
  // The constrained variables, sorted by id (empty for bottom).
  [[nodiscard]] const map_type& bounds() const { return env_; }
  [[nodiscard]] std::size_t size() const { return env_.size(); }

  friend bool operator==(const Box&, const Box&) = default;

 private:
  friend class BoxDomain;
  // Appends a binding for a variable above every bound one (the pointwise operations
  // walk both maps in order, so they build the result without searching).
  void append(VarId v, const Interval& i) {
    if (i.is_bottom()) {
      *this = bottom();
    } else if (!i.is_top()) {
      env_.emplace_hint(env_.end(), v, i);
    }
  }

  map_type env_;  // no top and no bottom intervals
  bool bottom_ = false;
};

class BoxDomain {
 public:
  using element = Box;

  // Rounds of constraint propagation per conjunction (and per linear constraint): the
  // cap that makes propagation terminate on cycles such as x < y && y < x over
  // unbounded ranges, where each round only moves a bound by one.
  static constexpr std::size_t default_propagation_rounds = 8;

  BoxDomain() = default;
  explicit BoxDomain(Thresholds thresholds,
                     std::size_t propagation_rounds = default_propagation_rounds)
      : thresholds_(std::move(thresholds)), rounds_(std::max<std::size_t>(1, propagation_rounds)) {}

  [[nodiscard]] const Thresholds& thresholds() const { return thresholds_; }
  void set_thresholds(Thresholds t) { thresholds_ = std::move(t); }
  [[nodiscard]] std::size_t propagation_rounds() const { return rounds_; }

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] Box bottom() const { return Box::bottom(); }
  [[nodiscard]] Box top() const { return {}; }
  [[nodiscard]] bool is_bottom(const Box& a) const { return a.is_bottom(); }

  // Pointwise; only b's constrained variables can fail (a missing one in b is top).
  [[nodiscard]] bool leq(const Box& a, const Box& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    const auto& ea = a.bounds();
    auto ia = ea.begin();
    for (const auto& [v, ib] : b.bounds()) {
      while (ia != ea.end() && ia->first < v) ++ia;
      if (ia == ea.end() || ia->first != v) return false;  // a has top there, b does not
      if (!ia->second.leq(ib)) return false;
    }
    return true;
  }

  // Pointwise hull; only variables constrained in both stay constrained.
  [[nodiscard]] Box join(const Box& a, const Box& b) const {
    return combine_common(a, b, [](const Interval& x, const Interval& y) { return x.join(y); });
  }
  // Pointwise classic widening, or widening with thresholds when the domain has any.
  [[nodiscard]] Box widen(const Box& a, const Box& b) const {
    if (thresholds_.empty())
      return combine_common(a, b, [](const Interval& x, const Interval& y) { return x.widen(y); });
    return combine_common(
        a, b, [this](const Interval& x, const Interval& y) { return x.widen(y, thresholds_); });
  }

  [[nodiscard]] Box meet(const Box& a, const Box& b) const {
    return combine_all(a, b, [](const Interval& x, const Interval& y) { return x.meet(y); });
  }
  [[nodiscard]] Box narrow(const Box& a, const Box& b) const {
    return combine_all(a, b, [](const Interval& x, const Interval& y) { return x.narrow(y); });
  }

  // WIDENWITH_join of section 4.2, eq. (2): x widen (x join y). Unlike plain widening its
  // result need not be above y alone, only above y's frontier relative to x; being above
  // both is what this implementation gives anyway.
  [[nodiscard]] Box widen_with(const Box& x, const Box& y) const { return widen(x, join(x, y)); }
  // The set form, with eq. (1) for the empty set. The paper picks x from X
  // non-deterministically; we take the last one (in VINTA: the most recent unrolling of
  // the loop, the one y was computed from).
  [[nodiscard]] Box widen_with(std::span<const Box> xs, const Box& y) const {
    if (xs.empty()) return y;
    return widen_with(xs.back(), y);
  }

  // Agrees with ==, hence with lattice equivalence (the representation is canonical).
  [[nodiscard]] std::size_t hash(const Box& a) const {
    if (a.is_bottom()) return 0x5bd1e995U;
    std::size_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001B3ULL + (h >> 29); };
    auto mix_bound = [&mix](Bound b) {
      mix(static_cast<std::uint64_t>(b.sign() + 2));
      mix(static_cast<std::uint64_t>(b.value()));
    };
    for (const auto& [v, i] : a.bounds()) {
      mix(v);
      mix_bound(i.lo());
      mix_bound(i.hi());
    }
    return h;
  }

  // ---- transfer (POST_BOX) -------------------------------------------------------------
  [[nodiscard]] Box post(const Box& s, const Operation& op) const {
    if (s.is_bottom()) return s;
    return std::visit(overloaded{
                          [&](const Skip&) { return s; },
                          [&](const Assume& a) { return assume(s, a.cond); },
                          [&](const Assign& a) {
                            Box r = s;
                            r.set(a.var,
                                  a.value.is_bool() ? eval_bool(s, a.value) : eval(s, a.value));
                            return r;
                          },
                          [&](const Havoc& h) {
                            Box r = s;
                            r.forget(h.var);
                            return r;
                          },
                      },
                      op);
  }

  // The box restricted by cond (a sound over-approximation of s && cond).
  [[nodiscard]] Box assume(const Box& s, Term cond, bool positive = true) const {
    std::vector<Box> out;
    refine(s, cond, positive, out, 1);
    return join_all(out);
  }

  // Disjunctive refinement: appends to `out` boxes whose union over-approximates
  // s && (cond or !cond, by `positive`). Negations are pushed inwards (NNF); a
  // disjunction gives one box per branch, a conjunction is applied literal by literal
  // for a few rounds. Whenever an intermediate set exceeds `limit` boxes it is joined
  // into one, so limit = 1 is the plain Box transfer (disjunctions joined) and BOXES
  // passes its disjunct cap.
  void refine(const Box& s, Term cond, bool positive, std::vector<Box>& out,
              std::size_t limit) const {
    if (s.is_bottom()) return;
    limit = std::max<std::size_t>(1, limit);
    switch (cond.op()) {
      case Op::BoolConst:
        if ((cond.value() != 0) == positive) out.push_back(s);
        return;
      case Op::Var: {
        Box r = s;
        r.set(cond.var(), r.get(cond.var()).meet(Interval::constant(positive ? 1 : 0)));
        if (!r.is_bottom()) out.push_back(std::move(r));
        return;
      }
      case Op::Not: refine(s, cond.arg(0), !positive, out, limit); return;
      case Op::And:
      case Op::Or:
        if ((cond.op() == Op::And) == positive) {
          std::vector<Literal> lits;
          collect_conjuncts(cond, positive, lits);
          refine_conjunction(s, lits, out, limit);
        } else {
          for (std::size_t i = 0; i < cond.num_args(); ++i)
            refine(s, cond.arg(i), positive, out, limit);
        }
        return;
      case Op::Imply:
        if (positive) {  // !a || b
          refine(s, cond.arg(0), false, out, limit);
          refine(s, cond.arg(1), true, out, limit);
        } else {  // a && !b
          const Literal lits[2] = {{cond.arg(0), true}, {cond.arg(1), false}};
          refine_conjunction(s, lits, out, limit);
        }
        return;
      case Op::Iff:
      case Op::Xor:
        refine_iff(s, cond.arg(0), cond.arg(1), positive == (cond.op() == Op::Iff), out, limit);
        return;
      case Op::Eq:
      case Op::Neq:
        if (cond.arg(0).is_bool()) {
          refine_iff(s, cond.arg(0), cond.arg(1), positive == (cond.op() == Op::Eq), out, limit);
          return;
        }
        refine_comparison(s, cond, positive, out);
        return;
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: refine_comparison(s, cond, positive, out); return;
      case Op::Ite: {  // (c && a) || (!c && b), or with !a, !b when negated
        const Literal l1[2] = {{cond.arg(0), true}, {cond.arg(1), positive}};
        const Literal l2[2] = {{cond.arg(0), false}, {cond.arg(2), positive}};
        refine_conjunction(s, l1, out, limit);
        refine_conjunction(s, l2, out, limit);
        return;
      }
      default: out.push_back(s); return;  // not a condition we understand: keep s (sound)
    }
  }

  // Forward evaluation of an integer term by interval arithmetic.
  [[nodiscard]] Interval eval(const Box& s, Term t) const {
    if (s.is_bottom()) return Interval::bottom();
    switch (t.op()) {
      case Op::Var: return s.get(t.var());
      case Op::IntConst: return Interval::constant(t.value());
      case Op::Add:
      case Op::Mul: {
        Interval acc = eval(s, t.arg(0));
        for (std::size_t i = 1; i < t.num_args(); ++i)
          acc = t.op() == Op::Add ? acc + eval(s, t.arg(i)) : acc * eval(s, t.arg(i));
        return acc;
      }
      case Op::Sub: return eval(s, t.arg(0)) - eval(s, t.arg(1));
      case Op::Neg: return -eval(s, t.arg(0));
      case Op::Div: return div(eval(s, t.arg(0)), eval(s, t.arg(1)));
      case Op::Mod: return mod(eval(s, t.arg(0)), eval(s, t.arg(1)));
      case Op::Rem: return rem(eval(s, t.arg(0)), eval(s, t.arg(1)));
      case Op::BitAnd:
        return bit_and(eval(s, t.arg(0)), eval(s, t.arg(1)), static_cast<unsigned>(t.value()));
      case Op::Pow2: return pow2(eval(s, t.arg(0)));
      case Op::Ite:
        // Each branch under the box refined by its side of the condition.
        return eval(assume(s, t.arg(0), true), t.arg(1))
            .join(eval(assume(s, t.arg(0), false), t.arg(2)));
      default: return t.is_bool() ? eval_bool(s, t) : Interval::top();
    }
  }

  // A Boolean term as a subset of [0, 1]: 1 possible iff assuming it leaves a non-bottom
  // box, 0 possible iff assuming its negation does.
  [[nodiscard]] Interval eval_bool(const Box& s, Term t) const {
    if (s.is_bottom()) return Interval::bottom();
    const bool can_true = !assume(s, t, true).is_bottom();
    const bool can_false = !assume(s, t, false).is_bottom();
    return {can_false ? 0 : 1, can_true ? 1 : 0};  // bottom when neither
  }

  // Exact set difference a \ b over the integers, as at most 2 * |b.bounds()| disjoint
  // boxes (the "\" that WIDENWITH_or of section 4.2 needs). Boxes do not know variable
  // types, so a piece may constrain a Bool variable to values outside [0, 1]; such a
  // piece is empty in reality but harmless (an over-approximation).
  [[nodiscard]] static std::vector<Box> subtract(const Box& a, const Box& b) {
    std::vector<Box> pieces;
    if (a.is_bottom()) return pieces;
    if (b.is_bottom()) {
      pieces.push_back(a);
      return pieces;
    }
    Box rest = a;
    for (const auto& [v, ib] : b.bounds()) {
      const Interval ir = rest.get(v);
      const Interval below =
          ir.meet({Bound::neg_inf(), bound::add(ib.lo(), Bound(-1), Rounding::Up)});
      const Interval above =
          ir.meet({bound::add(ib.hi(), Bound(1), Rounding::Down), Bound::pos_inf()});
      const Interval inside = ir.meet(ib);
      if (inside.is_bottom()) {  // a and b are disjoint
        pieces.assign(1, a);
        return pieces;
      }
      for (const Interval& part : {below, above}) {
        if (part.is_bottom()) continue;
        Box p = rest;
        p.set(v, part);
        pieces.push_back(std::move(p));
      }
      rest.set(v, inside);
    }
    return pieces;  // what remains, `rest`, lies inside b
  }

  [[nodiscard]] Box join_all(std::span<const Box> xs) const {
    Box r = bottom();
    for (const Box& x : xs) r = join(r, x);
    return r;
  }

 private:
  struct Literal {
    Term t;
    bool positive;
  };

  // Flattens nested conjunctions (And, negated Or, negated Imply, Not) into literals.
  static void collect_conjuncts(Term t, bool positive, std::vector<Literal>& out) {
    if (t.op() == Op::Not) return collect_conjuncts(t.arg(0), !positive, out);
    if ((t.op() == Op::And && positive) || (t.op() == Op::Or && !positive)) {
      for (std::size_t i = 0; i < t.num_args(); ++i) collect_conjuncts(t.arg(i), positive, out);
      return;
    }
    if (t.op() == Op::Imply && !positive) {
      collect_conjuncts(t.arg(0), true, out);
      collect_conjuncts(t.arg(1), false, out);
      return;
    }
    out.push_back({t, positive});
  }

  // Each literal narrows every box of the current set in turn; the whole conjunction is
  // re-applied while it still changes something, at most rounds_ times (the
  // propagation between constraints that share variables, HC4 style).
  void refine_conjunction(const Box& s, std::span<const Literal> lits, std::vector<Box>& out,
                          std::size_t limit) const {
    std::vector<Box> cur{s};
    std::vector<Box> next;
    for (std::size_t round = 0; round < rounds_; ++round) {
      const std::vector<Box> before = cur;
      for (const Literal& l : lits) {
        next.clear();
        for (const Box& c : cur) refine(c, l.t, l.positive, next, limit);
        compress(next, limit);
        cur.swap(next);
        if (cur.empty()) return;
      }
      if (cur == before || lits.size() < 2) break;
    }
    out.insert(out.end(), cur.begin(), cur.end());
  }

  // a <-> b (or a xor b when !same): (a && b) || (!a && !b).
  void refine_iff(const Box& s, Term a, Term b, bool same, std::vector<Box>& out,
                  std::size_t limit) const {
    const Literal l1[2] = {{a, true}, {b, same}};
    const Literal l2[2] = {{a, false}, {b, !same}};
    refine_conjunction(s, l1, out, limit);
    refine_conjunction(s, l2, out, limit);
  }

  // Drops subsumed boxes; beyond `limit` boxes, joins them all into one.
  void compress(std::vector<Box>& xs, std::size_t limit) const {
    if (xs.size() <= 1) return;
    if (limit <= 1) {
      Box j = join_all(xs);
      xs.assign(1, std::move(j));
      return;
    }
    std::vector<Box> kept;
    for (Box& x : xs) {
      bool covered = false;
      for (const Box& k : kept)
        if (leq(x, k)) {
          covered = true;
          break;
        }
      if (covered) continue;
      std::erase_if(kept, [&](const Box& k) { return leq(k, x); });
      kept.push_back(std::move(x));
    }
    if (kept.size() > limit) {
      Box j = join_all(kept);
      kept.assign(1, std::move(j));
    }
    xs.swap(kept);
  }

  // ---- linear constraints --------------------------------------------------------------

  // Conditions and values are read as linear forms (expr/linear_form.hpp): variables
  // are refined, opaque non-linear atoms contribute their forward interval only.

  Interval atom_value(const Box& s, Term atom) const {
    return atom.is_var() ? s.get(atom.var()) : eval(s, atom);
  }

  // a op b with op a comparison of integers. Rewritten as (a - b) in T for an interval
  // T (or (a - b) != 0), then HC4-revise on the linear form: for every variable x_i,
  //   c_i * x_i in T - sum_{j != i} c_j * x_j,
  // repeated while a bound moves, at most rounds_ times.
  void refine_comparison(const Box& s, Term cond, bool positive, std::vector<Box>& out) const {
    Op op = cond.op();
    if (!positive) op = negate_comparison(op);
    Interval target;  // for a - b
    switch (op) {
      case Op::Eq: target = Interval::constant(0); break;
      case Op::Lt: target = Interval::at_most(-1); break;
      case Op::Le: target = Interval::at_most(0); break;
      case Op::Gt: target = Interval::at_least(1); break;
      case Op::Ge: target = Interval::at_least(0); break;
      default: break;  // Neq: handled apart
    }
    const Term lhs = cond.arg(0);
    const Term rhs = cond.arg(1);
    LinearForm f;
    if (!linearize(lhs, 1, f) || !linearize(rhs, -1, f) || !normalize(f)) {
      // Coefficients too large: only check that the condition can hold at all.
      const Interval d = eval(s, lhs) - eval(s, rhs);
      const bool feasible =
          op == Op::Neq ? !(d.is_singleton() && d.lo() == Bound(0)) : !d.meet(target).is_bottom();
      if (feasible) out.push_back(s);
      return;
    }
    // sum c_i x_i in target - k
    Box r = s;
    if (op == Op::Neq) {
      refine_disequality(r, f);
    } else {
      propagate(r, f, target - Interval::constant(f.k));
    }
    if (!r.is_bottom()) out.push_back(std::move(r));
  }

  void propagate(Box& r, const LinearForm& f, const Interval& target) const {
    const std::size_t n = f.atoms.size();
    if (n == 0) {
      if (!target.contains(0)) r = bottom();
      return;
    }
    std::vector<Interval> vals(n);
    for (std::size_t round = 0; round < rounds_; ++round) {
      for (std::size_t i = 0; i < n; ++i) vals[i] = atom_value(r, f.atoms[i].first);
      bool changed = false;
      for (std::size_t i = 0; i < n; ++i) {
        Interval rest = Interval::constant(0);
        for (std::size_t j = 0; j < n; ++j)
          if (j != i) rest = rest + vals[j] * Interval::constant(f.atoms[j].second);
        const Interval allowed = inverse_mul(target - rest, f.atoms[i].second);
        const Interval now = vals[i].meet(allowed);
        if (now.is_bottom()) {
          r = bottom();
          return;
        }
        if (now != vals[i] && f.atoms[i].first.is_var()) {
          r.set(f.atoms[i].first.var(), now);
          vals[i] = now;
          changed = true;
        }
      }
      if (!changed || n == 1) return;
    }
  }

  // sum c_i x_i != -k: only decides when at most one atom is not a constant: then a
  // variable loses the excluded value if it is one of its bounds, and a constant sum
  // equal to -k is infeasible. (Intervals cannot express holes; that is the loss.)
  void refine_disequality(Box& r, const LinearForm& f) const {
    std::size_t open = f.atoms.size();
    Interval rest = Interval::constant(f.k);
    for (std::size_t i = 0; i < f.atoms.size(); ++i) {
      const Interval v = atom_value(r, f.atoms[i].first);
      if (v.is_bottom()) {
        r = bottom();
        return;
      }
      if (v.is_singleton()) {
        rest = rest + v * Interval::constant(f.atoms[i].second);
      } else if (open == f.atoms.size()) {
        open = i;
      } else {
        return;  // two unknown atoms: nothing to say
      }
    }
    if (!rest.is_singleton()) return;  // rounded away from 64 bits
    if (open == f.atoms.size()) {
      if (rest.lo() == Bound(0)) r = bottom();
      return;
    }
    const auto& [atom, c] = f.atoms[open];
    if (!atom.is_var()) return;
    // c * x != -rest
    const Interval excluded = inverse_mul(-rest, c);
    if (!excluded.is_singleton()) return;  // not divisible: no integer is excluded
    const Interval v = r.get(atom.var());
    const Bound e = excluded.lo();
    if (v.lo() == e)
      r.set(atom.var(), {bound::add(e, Bound(1), Rounding::Down), v.hi()});
    else if (v.hi() == e)
      r.set(atom.var(), {v.lo(), bound::add(e, Bound(-1), Rounding::Up)});
  }

  // Applies op to the variables constrained in both a and b (the others are top in one
  // of them, and join / widen with top is top).
  template <class F>
  static Box combine_common(const Box& a, const Box& b, F op) {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    Box r;
    r.env_.reserve(std::min(a.size(), b.size()));
    const auto& eb = b.bounds();
    auto ib = eb.begin();
    for (const auto& [v, ia] : a.bounds()) {
      while (ib != eb.end() && ib->first < v) ++ib;
      if (ib == eb.end()) break;
      if (ib->first == v) r.append(v, op(ia, ib->second));
    }
    return r;
  }
  // Applies op to the variables constrained in a or b (a missing one is top).
  template <class F>
  static Box combine_all(const Box& a, const Box& b, F op) {
    if (a.is_bottom() || b.is_bottom()) return Box::bottom();
    Box r;
    r.env_.reserve(a.size() + b.size());
    const auto& ea = a.bounds();
    const auto& eb = b.bounds();
    auto ia = ea.begin();
    auto ib = eb.begin();
    while (ia != ea.end() || ib != eb.end()) {
      if (ib == eb.end() || (ia != ea.end() && ia->first < ib->first)) {
        r.append(ia->first, op(ia->second, Interval::top()));
        ++ia;
      } else if (ia == ea.end() || ib->first < ia->first) {
        r.append(ib->first, op(Interval::top(), ib->second));
        ++ib;
      } else {
        r.append(ia->first, op(ia->second, ib->second));
        ++ia;
        ++ib;
      }
      if (r.is_bottom()) return r;
    }
    return r;
  }

  Thresholds thresholds_;
  std::size_t rounds_ = default_propagation_rounds;
};

static_assert(AbstractDomain<BoxDomain> && HasWiden<BoxDomain> && HasMeet<BoxDomain> &&
              HasNarrow<BoxDomain> && HasTop<BoxDomain> && HashableDomain<BoxDomain>);

// ---- thresholds from the program's constants -------------------------------------------

// Adds every integer constant of t (with its neighbours, see Thresholds::add_constant).
inline void add_constants(Thresholds& th, Term t) {
  for_each_subterm(t, [&th](Term x) {
    if (x.op() == Op::IntConst) th.add_constant(x.value());
    return true;
  });
}
inline void add_constants(Thresholds& th, const Operation& op) {
  if (const auto* a = std::get_if<Assume>(&op)) add_constants(th, a->cond);
  if (const auto* a = std::get_if<Assign>(&op)) add_constants(th, a->value);
}

// ---- gamma: a box as a formula, and printing -----------------------------------------

// The conjunction of the bounds (false for bottom, true for top): the label of an ARG
// node as a formula (VINTA section 4: labels are Boolean expressions). A Bool variable
// becomes the literal v or !v when it is fixed, and nothing otherwise.
inline Term to_formula(const Box& b, ExprManager& em) {
  if (b.is_bottom()) return em.false_();
  std::vector<Term> conj;
  for (const auto& [v, i] : b.bounds()) {
    const Term x = em.var(v);
    if (em.variable(v).type == Type::Bool) {
      const Interval bi = i.meet({0, 1});
      if (bi.is_bottom()) return em.false_();
      if (bi.is_singleton()) conj.push_back(bi.lo() == Bound(1) ? x : em.not_(x));
      continue;
    }
    if (i.is_singleton()) {
      conj.push_back(em.eq(x, em.int_val(i.lo().value())));
      continue;
    }
    if (i.lo().is_finite()) conj.push_back(em.le(em.int_val(i.lo().value()), x));
    if (i.hi().is_finite()) conj.push_back(em.le(x, em.int_val(i.hi().value())));
  }
  return em.conj(conj);
}

// "{x: [0, 10], y: [2, +oo]}", "top" or "bottom".
inline void print(std::ostream& os, const Box& b, const ExprManager& em) {
  if (b.is_bottom()) {
    os << "bottom";
    return;
  }
  if (b.is_top()) {
    os << "top";
    return;
  }
  os << '{';
  bool first = true;
  for (const auto& [v, i] : b.bounds()) {
    if (!first) os << ", ";
    first = false;
    os << em.variable(v).name << ": " << i;
  }
  os << '}';
}

}  // namespace precis
