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
//
// Floating-point variables (C's float and double) have a second environment of
// FloatInterval (domains/box/float_interval.hpp): a range of values and whether NaN is
// possible, by the variable's own IEEE arithmetic; comparisons (fp.lt, fp.leq, fp.eq)
// between a variable and a term refine it, conversions connect it with the integers.

#include <boost/container/flat_map.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <ostream>
#include <span>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/domains/box/float_interval.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/expr/linear_form.hpp"
#include "precis/expr/term.hpp"

namespace precis {

class Box {
 public:
  using map_type = boost::container::flat_map<VarId, Interval>;
  using float_map_type = boost::container::flat_map<VarId, FloatInterval>;

  Box() = default;  // top: nothing known
  static Box bottom() {
    Box b;
    b.bottom_ = true;
    return b;
  }

  [[nodiscard]] bool is_bottom() const { return bottom_; }
  [[nodiscard]] bool is_top() const { return !bottom_ && env_.empty() && fenv_.empty(); }
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
  void forget(VarId v) {
    env_.erase(v);
    fenv_.erase(v);
  }
  // The range of a floating-point variable (top when unconstrained).
  [[nodiscard]] FloatInterval get_float(VarId v) const {
    if (bottom_) return FloatInterval::bottom();
    auto it = fenv_.find(v);
    return it == fenv_.end() ? FloatInterval::top() : it->second;
  }
  void set_float(VarId v, const FloatInterval& i) {
    if (bottom_) return;
    if (i.is_bottom()) {
      *this = bottom();
    } else if (i.is_top()) {
      fenv_.erase(v);
    } else {
      fenv_.insert_or_assign(v, i);
    }
  }
  // The constrained integer (and Bool) variables, sorted by id (empty for bottom).
  [[nodiscard]] const map_type& bounds() const { return env_; }
  // The constrained floating-point variables.
  [[nodiscard]] const float_map_type& float_bounds() const { return fenv_; }
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

  map_type env_;         // no top and no bottom intervals
  float_map_type fenv_;  // the same for floating-point variables
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
    for (const auto& [v, fb] : b.float_bounds())
      if (!a.get_float(v).leq(fb)) return false;
    return true;
  }

  // Pointwise hull; only variables constrained in both stay constrained.
  [[nodiscard]] Box join(const Box& a, const Box& b) const {
    return combine_common(a, b, [](const auto& x, const auto& y) { return x.join(y); });
  }
  // Pointwise classic widening, or widening with thresholds when the domain has any
  // (floating ranges widen to their own thresholds, FloatInterval::widen).
  [[nodiscard]] Box widen(const Box& a, const Box& b) const {
    if (thresholds_.empty())
      return combine_common(a, b, [](const auto& x, const auto& y) { return x.widen(y); });
    return combine_common(a, b, [this](const auto& x, const auto& y) {
      if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Interval>)
        return x.widen(y, thresholds_);
      else
        return x.widen(y);
    });
  }

  [[nodiscard]] Box meet(const Box& a, const Box& b) const {
    return combine_all(a, b, [](const auto& x, const auto& y) { return x.meet(y); });
  }
  [[nodiscard]] Box narrow(const Box& a, const Box& b) const {
    return combine_all(a, b, [](const auto& x, const auto& y) { return x.narrow(y); });
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
    for (const auto& [v, f] : a.float_bounds()) {
      mix(v ^ 0x80000000U);
      mix(std::hash<double>{}(f.has_range() ? f.lo() : 1.0));
      mix(std::hash<double>{}(f.has_range() ? f.hi() : -1.0));
      mix(f.may_be_nan() ? 1U : 0U);
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
                            if (is_float(a.value.type()))
                              r.set_float(a.var, eval_float(s, a.value));
                            else
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
        if (cond.arg(0).type() != Type::Int) {  // floats' identity, arrays: not refined
          out.push_back(s);
          return;
        }
        refine_comparison(s, cond, positive, out);
        return;
      case Op::FpLt:
      case Op::FpLe:
      case Op::FpEq:
      case Op::FpIsNan: refine_float(s, cond, positive, out); return;
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
      case Op::FpToInt: {  // truncation toward zero; 0 for NaN and the infinities
        const FloatInterval f = eval_float(s, t.arg(0));
        if (f.is_bottom()) return Interval::bottom();
        Interval r = Interval::bottom();
        if (f.has_range()) {
          constexpr double kLimit = 9.2e18;  // within int64 after truncation
          if (f.lo() < -kLimit || f.hi() > kLimit) return Interval::top();
          r = Interval{static_cast<std::int64_t>(std::trunc(f.lo())),
                       static_cast<std::int64_t>(std::trunc(f.hi()))};
          if (f.contains_inf()) r = r.join(Interval::constant(0));
        }
        if (f.may_be_nan()) r = r.join(Interval::constant(0));
        return r;
      }
      case Op::Ite:
        // Each branch under the box refined by its side of the condition.
        return eval(assume(s, t.arg(0), true), t.arg(1))
            .join(eval(assume(s, t.arg(0), false), t.arg(2)));
      default: return t.is_bool() ? eval_bool(s, t) : Interval::top();
    }
  }

  // Forward evaluation of a floating-point term by FloatInterval arithmetic in the term's
  // format.
  [[nodiscard]] FloatInterval eval_float(const Box& s, Term t) const {
    if (s.is_bottom()) return FloatInterval::bottom();
    const Type ty = t.type();
    auto arg = [&](std::size_t i) { return eval_float(s, t.arg(i)); };
    switch (t.op()) {
      case Op::Var: return s.get_float(t.var());
      case Op::FpConst: return FloatInterval::constant(ty, t.value());
      case Op::FpAdd: return FloatInterval::add(ty, arg(0), arg(1));
      case Op::FpSub: return FloatInterval::sub(ty, arg(0), arg(1));
      case Op::FpMul: return FloatInterval::mul(ty, arg(0), arg(1));
      case Op::FpDiv: return FloatInterval::div(ty, arg(0), arg(1));
      case Op::FpNeg: return FloatInterval::neg(arg(0));
      case Op::FpAbs: return FloatInterval::abs(arg(0));
      case Op::FpSqrt: return FloatInterval::sqrt(ty, arg(0));
      case Op::FpRound: return FloatInterval::round(ty, arg(0), static_cast<FpRounding>(t.value()));
      case Op::FpToFp: return FloatInterval::convert(ty, arg(0));
      case Op::IntToFp: {  // each end rounded once, as the conversion does (monotone)
        const Interval i = eval(s, t.arg(0));
        if (i.is_bottom()) return FloatInterval::bottom();
        auto end = [&](Bound b, double inf) {
          if (!b.is_finite()) return inf;
          const std::int64_t bits = fp::from_int(ty, b.value());
          return ty == Type::Float32 ? static_cast<double>(fp::to_float(bits))
                                     : fp::to_double(bits);
        };
        constexpr double kInf = std::numeric_limits<double>::infinity();
        return FloatInterval::range(end(i.lo(), -kInf), end(i.hi(), kInf));
      }
      case Op::Ite:
        return eval_float(assume(s, t.arg(0), true), t.arg(1))
            .join(eval_float(assume(s, t.arg(0), false), t.arg(2)));
      default: return FloatInterval::top();
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
  // boxes (the "\" that WIDENWITH_or of section 4.2 needs); where b constrains a
  // floating-point variable, a itself (an over-approximation). Boxes do not know variable
  // types, so a piece may constrain a Bool variable to values outside [0, 1]; such a
  // piece is empty in reality but harmless (an over-approximation).
  [[nodiscard]] static std::vector<Box> subtract(const Box& a, const Box& b) {
    std::vector<Box> pieces;
    if (a.is_bottom()) return pieces;
    if (b.is_bottom() || !b.float_bounds().empty()) {
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

  // ---- floating-point comparisons --------------------------------------------------------

  // fp.lt / fp.leq / fp.eq between two terms, or fp.isNaN, assumed true (positive) or
  // false. A true comparison excludes NaN on both sides and bounds a variable side by the
  // other side's range (fp.lt strictly: the format's neighbour); a false one says
  // a >= b (resp. a > b, a != b) or that one side is NaN, which bounds a side only where
  // the other cannot be NaN.
  void refine_float(const Box& s, Term cond, bool positive, std::vector<Box>& out) const {
    Box r = s;
    const Term a = cond.arg(0);
    const Type ty = a.type();
    const FloatInterval fa = eval_float(s, a);
    if (cond.op() == Op::FpIsNan) {
      const FloatInterval now = positive ? fa.only_nan() : fa.without_nan();
      if (now.is_bottom()) return;
      if (a.is_var()) r.set_float(a.var(), now);
      out.push_back(std::move(r));
      return;
    }
    const Term b = cond.arg(1);
    const FloatInterval fb = eval_float(s, b);
    FloatInterval na = fa, nb = fb;
    const bool lt = cond.op() == Op::FpLt, le = cond.op() == Op::FpLe;
    if (positive) {
      na = fa.without_nan(), nb = fb.without_nan();
      if (cond.op() == Op::FpEq) {
        na = na.meet(nb);
        nb = na;
      } else if (fb.has_range() && fa.has_range()) {
        na = na.below(ty, fb.hi(), lt);
        nb = nb.above(ty, fa.lo(), lt);
      }
    } else if (lt || le) {  // a >= b (a > b) unless one is NaN
      if (!fb.may_be_nan() && fb.has_range()) na = fa.above(ty, fb.lo(), le).join(fa.only_nan());
      if (!fa.may_be_nan() && fa.has_range()) nb = fb.below(ty, fa.hi(), le).join(fb.only_nan());
      if (!fa.has_range() && !fa.may_be_nan()) na = FloatInterval::bottom();
    }
    if (na.is_bottom() || nb.is_bottom()) return;
    if (a.is_var()) r.set_float(a.var(), na);
    if (b.is_var()) r.set_float(b.var(), nb);
    if (!r.is_bottom()) out.push_back(std::move(r));
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
    for (const auto& [v, fa] : a.float_bounds()) {
      auto it = b.float_bounds().find(v);
      if (it != b.float_bounds().end()) r.set_float(v, op(fa, it->second));
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
    for (const auto& [v, fa] : a.float_bounds()) {
      auto it = b.float_bounds().find(v);
      r.set_float(v, op(fa, it == b.float_bounds().end() ? FloatInterval::top() : it->second));
    }
    for (const auto& [v, fb] : b.float_bounds())
      if (!a.float_bounds().contains(v)) r.set_float(v, op(FloatInterval::top(), fb));
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
  for (const auto& [v, f] : b.float_bounds()) {
    const Term x = em.var(v);
    const Type ty = em.variable(v).type;
    if (!is_float(ty)) continue;  // (a float range of a non-float variable: no constraint)
    // An end as a constant of the variable's format, rounded outward (a widening
    // threshold such as 1e38 is no binary32 value).
    auto end = [&](double d, bool up) {
      if (ty == Type::Float64) return em.fp_val(ty, fp::bits_of(d));
      float r = static_cast<float>(d);
      if (up && static_cast<double>(r) < d) r = std::nextafter(r, INFINITY);
      if (!up && static_cast<double>(r) > d) r = std::nextafter(r, -INFINITY);
      return em.fp_val(ty, fp::bits_of(r));
    };
    std::vector<Term> range;
    if (f.has_range()) {
      if (std::isfinite(f.lo())) range.push_back(em.mk(Op::FpLe, {end(f.lo(), false), x}));
      if (std::isfinite(f.hi())) range.push_back(em.mk(Op::FpLe, {x, end(f.hi(), true)}));
      if (range.empty()) range.push_back(em.not_(em.mk(Op::FpIsNan, {x})));
    }
    Term in_range = f.has_range() ? em.conj(range) : em.false_();
    conj.push_back(f.may_be_nan() ? em.or_(em.mk(Op::FpIsNan, {x}), in_range) : in_range);
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
  for (const auto& [v, f] : b.float_bounds()) {
    if (!first) os << ", ";
    first = false;
    os << em.variable(v).name << ": ";
    if (f.has_range()) os << '[' << f.lo() << ", " << f.hi() << ']';
    if (f.may_be_nan()) os << (f.has_range() ? " or NaN" : "NaN");
  }
  os << '}';
}

}  // namespace precis
