#pragma once
// Convex polyhedra (Cousot, Halbwachs, "Automatic discovery of linear restraints among
// variables of a program", POPL 1978) on the Parma Polyhedra Library (PPL, GPLv3, an
// optional dependency like cvc5: CMake's precis::ppl links it, defines PRECIS_HAVE_PPL).
//
// An element (Poly) is a PPL C_Polyhedron over the variables it has met and that are
// related to others: a sorted vector of VarId, entry i naming dimension i; times the
// intervals of the variables that only have bounds (a Box, disjoint from the
// dimensions). The split is exact (such a polyhedron is the product of the rest and
// those intervals) and keeps PPL's descriptions small: a box of n bounded variables has
// 2^n vertices, its intervals 2n bounds. Every operation makes the variables it relates
// dimensions first: those of the condition or assignment, for join and widening those
// whose intervals differ in the operands (hull(A x C, B x C) = hull(A, B) x C, and H79
// likewise, so the split changes no result), for leq and meet those that are a dimension
// of the other operand; what the result only bounds becomes an interval again. A missing
// variable is unconstrained; join and widen drop the dimensions they free. An empty
// polyhedron or interval is the one bottom (a flag).
//
// Variables are integers (Booleans 0/1) read as rationals; a constraint is tightened
// for integers as it is added (divided by the gcd of its coefficients, x < y as
// x - y <= -1, 2x = 1 is bottom), with no integer hull beyond that. Transfer:
//  - assume: linear comparisons (expr/linear_form.hpp) exactly, linear conjuncts first;
//    disjunctions, !=, iff and ite as the convex hull of their branches. An opaque atom
//    (x*y, x / 3, an integer ite) is a fresh dimension bounded by its interval and then
//    projected out, so the relation among the other atoms survives.
//  - assign x := e: an affine image; a Boolean or ite value as the hull of its branches;
//    opaque atoms as above. `t mod M` (the C front end's wrap-around) is t itself when
//    t's range lies in [0, |M| - 1]. Atoms' intervals: exact LP bounds (maximize,
//    minimize) of linear operands, interval arithmetic above them, Box's evaluator else.
//  - havoc x: projection.
// Widening: H79 (Halbwachs 1979, the widening of Cousot-Halbwachs 1978) by default, or
// BHRZ03 (Bagnara, Hill, Ricci, Zaffanella, SAS 2003: never less precise, by heuristics
// tried before H79), both as limited extrapolations by x <= t / x >= t for the nearest
// program thresholds t beyond each variable's bounds (what PPL would keep of all of
// them). Why H79: on the bundled .cfa models both prove the same and take the same time
// (BHRZ03 is even faster on bench/'s chains), and H79's result is the classical
// one, the constraints of the old iterate that the new one satisfies, which makes an
// invariant easy to predict and explain; BHRZ03 is there for when H79 drops one needed.
// Narrowing adds b's constraints whose direction a leaves unbounded (the polyhedral
// analogue of interval narrowing).
//
// Costs: PPL keeps the double description (constraints and generators), converted lazily
// (Chernikova). Join, leq and widening need both; they are polynomial in the sizes of the
// descriptions, which are exponential in the worst case (a box of n bounded variables
// has 2^n vertices); chains of difference constraints stay small (bench/
// polyhedra_bench.cpp). A bound (hash, intervals of atoms) is one scan of the generators.
//
// Limits (every phase of a run stops by itself at the run's time limit, and elements stay
// small enough for that).
//  - Time: with set_deadline(d), every operation runs under a PplDeadlineGuard
//    (ppl_limits.hpp), so PPL's conversion polls d and the operation throws
//    precis::limit_reached once d has passed. The element being computed is then lost,
//    and the operands are left in an unspecified state (PPL completes their lazily
//    computed descriptions in place): the run must end. AbstractInterpreter lets the
//    exception through (precis-verify's interpret() turns it into UNKNOWN with the
//    reason), Vinta::run catches it and returns UNKNOWN. PPL's linear passes between two
//    polls (sorting and copying the descriptions) do not poll: the overrun is linear in
//    the size of the descriptions, which the size limit keeps small.
//  - Size: an element that join, widen, assume or assign computes (not meet and narrow,
//    which stay exact, below their operands) whose minimized description still has more
//    than size_limit() rows (constraints plus generators; default 2,000,
//    set_size_limit(0) turns it off) after the split into intervals is weakened, only as
//    far as needed: (a) to its constraints on at most two variables and its bounding
//    box; (b) to its bounding box. A join whose hull would have more rows once the
//    differing intervals are dimensions (2^k vertices for k of them) joins them as
//    intervals. statistics() counts each and the largest element seen. Why 2,000:
//    bench/polyhedra_bench.cpp.
//
// PPL 1.2 is not thread-safe: one thread at a time may use it. Its initializer sets the
// FPU to round upwards for floating-point abstractions this domain does not use; every
// translation unit that includes this header restores the process's rounding right after
// PPL's initializer (below), and so does the first PolyhedraDomain (a program that uses
// those abstractions calls Parma_Polyhedra_Library::set_rounding_for_PPL() itself).
// C programs run, and precis evaluates their float and double, to nearest
// (expr/floating_point.hpp): upward rounding made 0.24999999999999997 + 1e-17 = 0.25.

#include <ppl.hh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/limits.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/domains/relational/ppl_limits.hpp"
#include "precis/expr/linear_form.hpp"
#include "precis/expr/term.hpp"

namespace precis {

namespace polyhedra_detail {

namespace ppl = ::Parma_Polyhedra_Library;
using CPoly = ppl::C_Polyhedron;
using Coef = ppl::Coefficient;  // GMP's mpz_class in Debian's build
using Dim = ppl::dimension_type;

// An int64 as a GMP integer, exactly, whatever the width of long.
inline Coef coef(std::int64_t v) {
  if constexpr (sizeof(long) >= sizeof(std::int64_t)) return Coef(static_cast<long>(v));
  Coef r(static_cast<long>(v >> 32));
  mpz_mul_2exp(r.get_mpz_t(), r.get_mpz_t(), 32);
  return r + static_cast<unsigned long>(static_cast<std::uint64_t>(v) & 0xffffffffULL);
}

inline bool to_int64(const Coef& c, std::int64_t& out) {
  if (!c.fits_slong_p()) return false;  // with a 32-bit long: less precise, still sound
  out = static_cast<std::int64_t>(c.get_si());
  return true;
}

// ceil(n / d) as a lower bound (Down) or floor(n / d) as an upper bound (Up), d > 0,
// rounded outwards when it leaves 64 bits.
inline Bound bound_of(const Coef& n, const Coef& d, Rounding r) {
  Coef q;
  (r == Rounding::Down ? mpz_cdiv_q : mpz_fdiv_q)(q.get_mpz_t(), n.get_mpz_t(), d.get_mpz_t());
  std::int64_t v = 0;
  return to_int64(q, v) ? Bound(v) : bound::overflowed(sgn(q) > 0, r);
}

// The partial function PPL's map_space_dimensions asks for: i -> to[i].
struct DimMap {
  std::vector<Dim> to;
  [[nodiscard]] bool has_empty_codomain() const { return to.empty(); }
  [[nodiscard]] Dim max_in_codomain() const { return to.size() - 1; }  // a permutation
  bool maps(Dim i, Dim& j) const {
    if (i >= to.size()) return false;
    j = to[i];
    return true;
  }
};

inline std::vector<VarId> union_of(const std::vector<VarId>& a, const std::vector<VarId>& b) {
  std::vector<VarId> u;
  u.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(u));
  return u;
}

// p over `from` re-expressed over `to` (both sorted, to a superset of from); the
// variables of `to` missing from `from` are unconstrained.
inline CPoly embed(CPoly r, const std::vector<VarId>& from, const std::vector<VarId>& to) {
  if (from.size() == to.size()) return r;
  r.add_space_dimensions_and_embed(to.size() - from.size());
  DimMap m{std::vector<Dim>(to.size())};
  bool identity = true;
  std::size_t i = 0;
  std::size_t k = from.size();
  for (std::size_t j = 0; j < to.size(); ++j) {
    const std::size_t src = (i < from.size() && from[i] == to[j]) ? i++ : k++;
    m.to[src] = j;
    identity = identity && src == j;
  }
  if (!identity) r.map_space_dimensions(m);
  return r;
}

// The dimensions some constraint mentions: exactly the constrained ones (every valid
// constraint of a non-empty polyhedron has coefficient 0 on a free dimension).
inline std::vector<bool> constrained_dims(const CPoly& p) {
  std::vector<bool> used(p.space_dimension(), false);
  for (const ppl::Constraint& c : p.minimized_constraints())
    for (Dim i = 0; i < c.space_dimension(); ++i)
      if (c.coefficient(ppl::Variable(i)) != 0) used[i] = true;
  return used;
}

inline void restore_rounding_once() {
  static const bool done = [] {
    ppl::restore_pre_PPL_rounding();
    return true;
  }();
  (void)done;
}

// Initialized after PPL's own initializer object (defined earlier in this translation
// unit, by <ppl.hh>): the rounding the process had before PPL, at static initialization.
namespace {
[[maybe_unused]] const bool rounding_restored_at_start = [] {
  ppl::restore_pre_PPL_rounding();
  return true;
}();
}  // namespace

}  // namespace polyhedra_detail

// An element: a closed convex polyhedron over the variables vars_[i] = dimension i, times
// the intervals of box_ (variables that are no dimension).
class Poly {
 public:
  using CPoly = polyhedra_detail::CPoly;

  Poly() : poly_(0, Parma_Polyhedra_Library::UNIVERSE) {}  // top
  static Poly bottom() {
    Poly p;
    p.poly_ = CPoly(0, Parma_Polyhedra_Library::EMPTY);
    p.bottom_ = true;
    return p;
  }

  [[nodiscard]] bool is_bottom() const { return bottom_; }
  [[nodiscard]] bool is_top() const { return !bottom_ && box_.is_top() && poly_.is_universe(); }
  // The variables of the dimensions, sorted (a superset of the constrained ones).
  [[nodiscard]] const std::vector<VarId>& variables() const { return vars_; }
  [[nodiscard]] const CPoly& polyhedron() const { return poly_; }
  // The variables kept as intervals, outside the polyhedron (none unless the size limit
  // moved them there).
  [[nodiscard]] const Box& intervals() const { return box_; }
  [[nodiscard]] std::optional<std::size_t> dimension(VarId v) const {
    auto it = std::lower_bound(vars_.begin(), vars_.end(), v);
    if (it == vars_.end() || *it != v) return std::nullopt;
    return static_cast<std::size_t>(it - vars_.begin());
  }

  // Equality of the sets of points (over the union of the variables).
  friend bool operator==(const Poly& a, const Poly& b) {
    if (a.bottom_ || b.bottom_) return a.bottom_ == b.bottom_;
    if (a.vars_ == b.vars_ && a.box_.is_top() && b.box_.is_top()) return a.poly_ == b.poly_;
    const auto u = polyhedra_detail::union_of(a.all_variables(), b.all_variables());
    Poly x = a;
    Poly y = b;
    x.ensure(u);
    y.ensure(u);
    return x.poly_ == y.poly_;
  }

 private:
  friend class PolyhedraDomain;
  Poly(std::vector<VarId> vars, CPoly p, Box box = {})
      : vars_(std::move(vars)), poly_(std::move(p)), box_(std::move(box)) {
    settle();
  }
  // An empty polyhedron or box becomes the canonical bottom.
  void settle() {
    if (!bottom_ && (box_.is_bottom() || poly_.is_empty())) *this = bottom();
  }
  // The dimensions' and the intervals' variables, sorted.
  [[nodiscard]] std::vector<VarId> all_variables() const {
    std::vector<VarId> ivs;
    for (const auto& [v, i] : box_.bounds()) ivs.push_back(v);
    return polyhedra_detail::union_of(vars_, ivs);
  }
  // Makes every variable of vs (sorted) a dimension: a new one is unconstrained, or
  // bounded by its interval, which leaves the box.
  void ensure(const std::vector<VarId>& vs) {
    if (bottom_ || std::includes(vars_.begin(), vars_.end(), vs.begin(), vs.end())) return;
    auto u = polyhedra_detail::union_of(vars_, vs);
    poly_ = polyhedra_detail::embed(std::move(poly_), vars_, u);
    vars_ = std::move(u);
    if (box_.is_top()) return;
    for (VarId v : vs) {
      const Interval i = box_.get(v);
      if (i.is_top()) continue;
      const Parma_Polyhedra_Library::Linear_Expression x{dim_var(v)};
      if (i.lo().is_finite()) poly_.add_constraint(x >= polyhedra_detail::coef(i.lo().value()));
      if (i.hi().is_finite()) poly_.add_constraint(x <= polyhedra_detail::coef(i.hi().value()));
      box_.forget(v);
    }
  }
  [[nodiscard]] Parma_Polyhedra_Library::Variable dim_var(VarId v) const {
    return Parma_Polyhedra_Library::Variable(*dimension(v));
  }

  std::vector<VarId> vars_;
  CPoly poly_;
  Box box_;  // no variable of vars_; never bottom (bottom_ instead)
  bool bottom_ = false;
};

// What the size limit did in one run (PolyhedraDomain::statistics()).
struct PolyhedraStatistics {
  std::size_t largest = 0;         // the most rows (constraints + generators) of an element
  std::size_t two_variable = 0;    // weakened to constraints on <= 2 variables + bounds
  std::size_t intervals = 0;       // weakened to their bounding box
  std::size_t interval_joins = 0;  // joins that kept bounded intervals apart (no hull)
};

enum class PolyhedraWidening : std::uint8_t {
  H79,     // Halbwachs 1979 / Cousot-Halbwachs 1978 (default)
  BHRZ03,  // Bagnara, Hill, Ricci, Zaffanella, SAS 2003
};

class PolyhedraDomain {
  using CPoly = polyhedra_detail::CPoly;
  using Coef = polyhedra_detail::Coef;
  using Dim = polyhedra_detail::Dim;
  using PVar = Parma_Polyhedra_Library::Variable;
  using LinExpr = Parma_Polyhedra_Library::Linear_Expression;

 public:
  using element = Poly;

  // The default of size_limit(): see the top of this file.
  static constexpr std::size_t default_size_limit = 2000;

  PolyhedraDomain() : PolyhedraDomain(Thresholds{}) {}
  // Widening thresholds (program_thresholds(cfa) below) and the widening operator.
  explicit PolyhedraDomain(Thresholds thresholds,
                           PolyhedraWidening widening = PolyhedraWidening::H79)
      : intervals_(std::move(thresholds)), widening_(widening) {
    polyhedra_detail::restore_rounding_once();
  }

  [[nodiscard]] const Thresholds& thresholds() const { return intervals_.thresholds(); }
  [[nodiscard]] PolyhedraWidening widening() const { return widening_; }

  // Every operation throws limit_reached once `d` has passed (see the top; no deadline:
  // Deadline{}).
  void set_deadline(Deadline d) { deadline_ = std::move(d); }
  [[nodiscard]] const Deadline& deadline() const { return deadline_; }
  // Rows (constraints + generators) beyond which an element is made smaller; 0: never.
  void set_size_limit(std::size_t rows) { size_limit_ = rows; }
  [[nodiscard]] std::size_t size_limit() const { return size_limit_; }
  // Shared by the copies of this domain (an analysis copies its domain): one run's.
  [[nodiscard]] const PolyhedraStatistics& statistics() const { return *stats_; }

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] Poly bottom() const { return Poly::bottom(); }
  [[nodiscard]] Poly top() const { return {}; }
  [[nodiscard]] bool is_bottom(const Poly& a) const { return a.is_bottom(); }

  // The polyhedra and the intervals separately, once both have the same dimensions.
  [[nodiscard]] bool leq(const Poly& a, const Poly& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    const PplDeadlineGuard guard(deadline_);
    if (a.vars_ == b.vars_) return intervals_.leq(a.box_, b.box_) && b.poly_.contains(a.poly_);
    const Aligned x = align(a, b);
    return intervals_.leq(x.box_a, x.box_b) && x.b.contains(x.a);
  }

  // The convex hull (the least upper bound among polyhedra). The intervals that differ
  // in a and b become dimensions (the hull can relate them: the points (0, 0) and (1, 1)
  // give x = y), unless the hull would then exceed the size limit: a box of n bounded
  // variables has 2^n vertices. Those are joined as intervals (counted in statistics()).
  [[nodiscard]] Poly join(const Poly& a, const Poly& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    const PplDeadlineGuard guard(deadline_);
    std::vector<VarId> relate = differing_intervals(a, b);
    if (relate.size() > 1) {  // one may contain the other: no hull to compute
      if (leq(a, b)) return b;
      if (leq(b, a)) return a;
      if (size_limit_ != 0 &&
          (vertex_estimate(a, relate) > size_limit_ || vertex_estimate(b, relate) > size_limit_)) {
        std::erase_if(relate, [&](VarId v) { return bounded_width(a, v) || bounded_width(b, v); });
        ++stats_->interval_joins;
      }
    }
    Aligned x = align(a, b, relate);
    x.a.poly_hull_assign(x.b);
    return limited(compacted(std::move(x.vars), std::move(x.a), intervals_.join(x.box_a, x.box_b)));
  }

  [[nodiscard]] Poly meet(const Poly& a, const Poly& b) const {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    const PplDeadlineGuard guard(deadline_);
    Aligned x = align(a, b);
    x.a.intersection_assign(x.b);
    return {std::move(x.vars), std::move(x.a), intervals_.meet(x.box_a, x.box_b)};
  }

  // a widen (a join b): H79 or BHRZ03, limited by the thresholds (see the top); the
  // intervals as Box widens them, with the same thresholds (for b above a, H79 of
  // A x C and B x D is H79(A, B) x H79(C, D), and the interval widening is H79's).
  [[nodiscard]] Poly widen(const Poly& a, const Poly& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    const PplDeadlineGuard guard(deadline_);
    Poly joined;  // b above a (the hull relates the intervals that differ)
    const bool above = leq(a, b);
    if (!above) joined = join(a, b);
    Aligned x = align(a, above ? b : joined);
    CPoly& p = x.a;
    CPoly& q = x.b;
    if (!q.contains(p)) q.poly_hull_assign(p);  // rounding to integers may have cut p
    const Parma_Polyhedra_Library::Constraint_System cs = threshold_constraints(q);
    if (widening_ == PolyhedraWidening::BHRZ03)
      q.limited_BHRZ03_extrapolation_assign(p, cs);
    else
      q.limited_H79_extrapolation_assign(p, cs);
    Box iv = intervals_.widen(x.box_a, intervals_.join(x.box_a, x.box_b));
    return limited(compacted(std::move(x.vars), std::move(q), std::move(iv)));
  }

  // a restricted by the constraints of b whose direction is unbounded in a.
  [[nodiscard]] Poly narrow(const Poly& a, const Poly& b) const {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    const PplDeadlineGuard guard(deadline_);
    Aligned x = align(a, b);
    CPoly r = x.a;
    for (const auto& c : x.b.minimized_constraints()) {
      LinExpr e;
      for (Dim i = 0; i < c.space_dimension(); ++i)
        add_mul_assign(e, c.coefficient(PVar(i)), PVar(i));
      if (!x.a.bounds_from_below(e) || (c.is_equality() && !x.a.bounds_from_above(e)))
        r.add_constraint(c);
    }
    return {std::move(x.vars), std::move(r), intervals_.narrow(x.box_a, x.box_b)};
  }

  // Agrees with equivalence: it hashes semantic facts only, the constrained variables
  // and the integer bounds of each (the bounding box), which equal polyhedra share
  // whatever their constraint systems and dimensions. Cost: two bounds a variable.
  // (A variable kept as an interval counts as constrained, with its bounds.)
  [[nodiscard]] std::size_t hash(const Poly& a) const {
    if (a.is_bottom()) return 0x5bd1e995U;
    const PplDeadlineGuard guard(deadline_);
    std::size_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001B3ULL + (h >> 29); };
    const std::vector<bool> used = polyhedra_detail::constrained_dims(a.poly_);
    std::vector<std::pair<VarId, Interval>> bounds(a.box_.bounds().begin(), a.box_.bounds().end());
    for (Dim i = 0; i < used.size(); ++i)
      if (used[i]) bounds.emplace_back(a.vars_[i], range(a.poly_, LinExpr(PVar(i))));
    if (!a.box_.is_top()) std::sort(bounds.begin(), bounds.end(), by_variable);
    for (const auto& [v, r] : bounds) {
      mix(v);
      for (const Bound b : {r.lo(), r.hi()})
        mix(static_cast<std::uint64_t>(b.value()) * 3 + static_cast<std::uint64_t>(b.sign() + 1));
    }
    return h;
  }

  // ---- transfer ------------------------------------------------------------------------
  [[nodiscard]] Poly post(const Poly& s, const Operation& op) const {
    if (s.is_bottom()) return s;
    const PplDeadlineGuard guard(deadline_);
    return std::visit(overloaded{
                          [&](const Skip&) { return s; },
                          [&](const Assume& a) { return assume(s, a.cond); },
                          [&](const Assign& a) { return assign(s, a.var, a.value); },
                          [&](const Havoc& h) { return havoc(s, h.var); },
                      },
                      op);
  }

  // An over-approximation of s && cond (or s && !cond).
  [[nodiscard]] Poly assume(const Poly& s, Term cond, bool positive = true) const {
    if (s.is_bottom()) return s;
    const PplDeadlineGuard guard(deadline_);
    switch (cond.op()) {
      case Op::BoolConst: return (cond.value() != 0) == positive ? s : bottom();
      case Op::Var: return with_constant(s, cond.var(), positive ? 1 : 0, false);
      case Op::Not: return assume(s, cond.arg(0), !positive);
      case Op::And:
      case Op::Or: {
        Poly r = bottom();
        if ((cond.op() == Op::And) != positive) {  // a disjunction: the hull
          for (std::size_t i = 0; i < cond.num_args(); ++i)
            r = join(r, assume(s, cond.arg(i), positive));
          return r;
        }
        // The exact (linear) conjuncts first: the others then bound their opaque atoms
        // on the smaller polyhedron.
        r = s;
        for (bool opaque : {false, true})
          for (std::size_t i = 0; i < cond.num_args() && !r.is_bottom(); ++i)
            if (has_opaque_atom(cond.arg(i)) == opaque) r = assume(r, cond.arg(i), positive);
        return r;
      }
      case Op::Imply:
        if (positive) return join(assume(s, cond.arg(0), false), assume(s, cond.arg(1), true));
        return assume(assume(s, cond.arg(0), true), cond.arg(1), false);
      case Op::Iff:
      case Op::Xor: return iff(s, cond.arg(0), cond.arg(1), positive == (cond.op() == Op::Iff));
      case Op::Eq:
      case Op::Neq:
        if (cond.arg(0).is_bool())
          return iff(s, cond.arg(0), cond.arg(1), positive == (cond.op() == Op::Eq));
        [[fallthrough]];
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
        return compare(s, cond.arg(0), cond.arg(1),
                       positive ? cond.op() : negate_comparison(cond.op()));
      case Op::Ite:
        return join(assume(assume(s, cond.arg(0), true), cond.arg(1), positive),
                    assume(assume(s, cond.arg(0), false), cond.arg(2), positive));
      default: return s;  // not a condition: keep s (sound)
    }
  }

  [[nodiscard]] Poly assign(const Poly& s, VarId x, Term value) const {
    if (s.is_bottom()) return s;
    const PplDeadlineGuard guard(deadline_);
    if (value.is_bool()) {  // x := c as (c && x = 1) || (!c && x = 0)
      if (value.op() == Op::BoolConst) return with_constant(s, x, value.value(), true);
      return join(with_constant(assume(s, value, true), x, 1, true),
                  with_constant(assume(s, value, false), x, 0, true));
    }
    if (value.op() == Op::Ite)
      return join(assign(assume(s, value.arg(0), true), x, value.arg(1)),
                  assign(assume(s, value.arg(0), false), x, value.arg(2)));
    const Resolved r = read(s, value, Term());
    Poly out = s;
    out.ensure(r.var_ids());
    out.box_.forget(x);  // x's old interval, unless the value reads x (then a dimension)
    out.ensure({x});
    const Dim n = out.poly_.space_dimension();
    const LinExpr e = bind(out, r);
    out.poly_.affine_image(out.dim_var(x), e);
    if (r.opaque.empty()) return limited(std::move(out));
    out.poly_.remove_higher_space_dimensions(n);
    return limited(compacted(std::move(out.vars_), std::move(out.poly_), std::move(out.box_)));
  }

  [[nodiscard]] Poly havoc(const Poly& s, VarId x) const {
    const auto d = s.dimension(x);
    if (s.is_bottom()) return s;
    if (!d) {
      Poly r = s;
      r.box_.forget(x);
      return r;
    }
    const PplDeadlineGuard guard(deadline_);
    Poly r = s;
    r.poly_.remove_space_dimensions(Parma_Polyhedra_Library::Variables_Set(PVar(*d)));
    r.vars_.erase(r.vars_.begin() + static_cast<std::ptrdiff_t>(*d));
    return r;
  }

  // The integers x can take in s (top when s does not constrain x).
  [[nodiscard]] Interval bounds(const Poly& s, VarId x) const {
    if (s.is_bottom()) return Interval::bottom();
    const auto d = s.dimension(x);
    if (!d) return s.box_.get(x);
    const PplDeadlineGuard guard(deadline_);
    return range(s.poly_, LinExpr(PVar(*d)));
  }

  // An interval containing every value of the integer term t in s (linear terms are
  // bounded exactly, by linear programming).
  [[nodiscard]] Interval eval(const Poly& s, Term t) const {
    if (s.is_bottom()) return Interval::bottom();
    const PplDeadlineGuard guard(deadline_);
    const Resolved r = read(s, t, Term());
    Poly p = s;
    p.ensure(r.var_ids());
    const LinExpr e = bind(p, r);  // on a copy: the opaque atoms' dimensions can stay
    return range(p.poly_, e);
  }

 private:
  static bool by_variable(const std::pair<VarId, Interval>& a,
                          const std::pair<VarId, Interval>& b) {
    return a.first < b.first;
  }

  // Two elements over the union of their dimensions and `relate` (an interval of one
  // that is a dimension of the other becomes a dimension), with their remaining
  // intervals.
  struct Aligned {
    std::vector<VarId> vars;
    CPoly a, b;
    Box box_a, box_b;
  };
  static Aligned align(const Poly& a, const Poly& b, const std::vector<VarId>& relate = {}) {
    auto u = polyhedra_detail::union_of(a.vars_, b.vars_);
    if (!relate.empty()) u = polyhedra_detail::union_of(u, relate);
    Poly x = a;
    Poly y = b;
    x.ensure(u);
    y.ensure(u);
    return {std::move(u), std::move(x.poly_), std::move(y.poly_), std::move(x.box_),
            std::move(y.box_)};
  }

  // The variables that are an interval of a or b and not a dimension of either, with
  // different intervals in a and b (sorted).
  static std::vector<VarId> differing_intervals(const Poly& a, const Poly& b) {
    std::vector<VarId> d;
    for (const auto& [v, i] : a.box_.bounds())
      if (b.box_.get(v) != i && !b.dimension(v)) d.push_back(v);
    for (const auto& [v, i] : b.box_.bounds())
      if (a.box_.get(v) != i && !a.dimension(v)) d.push_back(v);
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
    return d;
  }
  // Whether v's interval in p has two finite, different bounds (a factor 2 of the
  // vertices once v is a dimension).
  static bool bounded_width(const Poly& p, VarId v) {
    const Interval i = p.box_.get(v);
    return i.lo().is_finite() && i.hi().is_finite() && i.lo() != i.hi();
  }
  // The rows p's polyhedron would have with the intervals of vs as dimensions, at most
  // (saturating).
  static std::size_t vertex_estimate(const Poly& p, const std::vector<VarId>& vs) {
    std::size_t n = p.vars_.empty() ? 1 : rows(p.poly_);
    for (VarId v : vs)
      if (bounded_width(p, v)) n = n > (std::numeric_limits<std::size_t>::max() >> 1) ? n : 2 * n;
    return n;
  }

  // Drops the dimensions no constraint mentions.
  static Poly compacted(std::vector<VarId> vars, CPoly p, Box box) {
    if (p.is_empty() || box.is_bottom()) return Poly::bottom();
    const std::vector<bool> used = polyhedra_detail::constrained_dims(p);
    Parma_Polyhedra_Library::Variables_Set drop;
    std::size_t kept = 0;
    for (Dim i = 0; i < used.size(); ++i) {
      if (used[i]) vars[kept++] = vars[i];
      if (!used[i]) drop.insert(PVar(i));
    }
    vars.resize(kept);
    p.remove_space_dimensions(drop);
    return {std::move(vars), std::move(p), std::move(box)};
  }

  // ---- the size limit (see the top) ----------------------------------------------------

  // Rows of the minimized description: constraints plus generators.
  static std::size_t rows(const CPoly& p) {
    const auto& cs = p.minimized_constraints();
    const auto& gs = p.minimized_generators();
    return static_cast<std::size_t>(std::distance(cs.begin(), cs.end()) +
                                    std::distance(gs.begin(), gs.end()));
  }

  // p with its bounded-only variables as intervals, weakened when it still has more than
  // size_limit_ rows (see the top).
  Poly limited(Poly p) const {
    if (p.bottom_ || p.vars_.empty()) return p;
    split_intervals(p, p.poly_.minimized_constraints());
    if (size_limit_ == 0 || p.bottom_ || p.vars_.size() < 2) return p;
    const std::size_t n = rows(p.poly_);
    PolyhedraStatistics& st = *stats_;
    st.largest = std::max(st.largest, n);
    if (n <= size_limit_) return p;
    // (a) The constraints on at most two variables and the bounding box.
    std::vector<Interval> box(p.vars_.size());
    for (Dim i = 0; i < box.size(); ++i) box[i] = range(p.poly_, LinExpr(PVar(i)));
    Parma_Polyhedra_Library::Constraint_System two;
    for (const auto& c : p.poly_.minimized_constraints())
      if (nonzero_coefficients(c) <= 2) two.insert(c);
    for (Dim i = 0; i < box.size(); ++i) {
      if (box[i].lo().is_finite())
        two.insert(LinExpr(PVar(i)) >= polyhedra_detail::coef(box[i].lo().value()));
      if (box[i].hi().is_finite())
        two.insert(LinExpr(PVar(i)) <= polyhedra_detail::coef(box[i].hi().value()));
    }
    ++st.two_variable;
    Poly q = p;
    split_intervals(q, two, true);
    if (q.bottom_ || q.vars_.size() < 2 || rows(q.poly_) <= size_limit_) return q;
    // (b) The bounding box alone.
    ++st.intervals;
    for (Dim i = 0; i < box.size(); ++i) p.box_.set(p.vars_[i], box[i]);
    p.vars_.clear();
    p.poly_ = CPoly(0, Parma_Polyhedra_Library::UNIVERSE);
    p.settle();
    return p;
  }

  static std::size_t nonzero_coefficients(const Parma_Polyhedra_Library::Constraint& c) {
    std::size_t k = 0;
    for (Dim i = 0; i < c.space_dimension(); ++i) k += c.coefficient(PVar(i)) != 0 ? 1 : 0;
    return k;
  }

  // p rebuilt from cs (a constraint system of p): the dimensions that only
  // single-variable constraints mention become intervals, those that no constraint
  // mentions go. Exact: p is the product of the rest and those intervals. Whether a
  // dimension became an interval (unless `force`, p stays as it is when none does).
  static bool split_intervals(Poly& p, const Parma_Polyhedra_Library::Constraint_System& cs,
                              bool force = false) {
    using Parma_Polyhedra_Library::Constraint;
    const Dim n = p.vars_.size();
    std::vector<std::uint8_t> kind(n, 0);  // 0: unmentioned, 1: bounds only, 2: related
    for (const auto& c : cs) {
      const std::uint8_t k = nonzero_coefficients(c) > 1 ? 2 : 1;
      for (Dim i = 0; i < c.space_dimension(); ++i)
        if (c.coefficient(PVar(i)) != 0) kind[i] = std::max(kind[i], k);
    }
    const bool moves = std::find(kind.begin(), kind.end(), std::uint8_t{1}) != kind.end();
    if (!moves && !force) return false;
    std::vector<Dim> index(n, 0);
    std::vector<VarId> vars;
    for (Dim i = 0; i < n; ++i) {
      index[i] = vars.size();
      if (kind[i] == 2) vars.push_back(p.vars_[i]);
    }
    // a*x + b >= 0 is x >= -b/a (a > 0) or x <= b/-a (a < 0), rounded inwards to
    // integers; an equality bounds both sides.
    std::vector<Interval> iv(n);
    bool empty = false;
    CPoly q(vars.size(), Parma_Polyhedra_Library::UNIVERSE);
    for (const auto& c : cs) {
      Dim first = c.space_dimension();
      for (Dim i = 0; i < c.space_dimension() && first == c.space_dimension(); ++i)
        if (c.coefficient(PVar(i)) != 0) first = i;
      if (first == c.space_dimension()) {  // a constant: false or redundant
        empty = empty || c.is_inconsistent();
        continue;
      }
      if (kind[first] == 2) {
        LinExpr e(c.inhomogeneous_term());
        for (Dim i = first; i < c.space_dimension(); ++i)
          if (c.coefficient(PVar(i)) != 0)
            add_mul_assign(e, c.coefficient(PVar(i)), PVar(index[i]));
        q.add_constraint(c.is_equality() ? Constraint(e == 0) : Constraint(e >= 0));
        continue;
      }
      const Coef a(c.coefficient(PVar(first)));
      const Coef b(c.inhomogeneous_term());
      const bool eq = c.is_equality();
      using polyhedra_detail::bound_of;
      iv[first] = iv[first].meet(
          sgn(a) > 0 ? Interval(bound_of(-b, a, Rounding::Down),
                                eq ? bound_of(-b, a, Rounding::Up) : Bound::pos_inf())
                     : Interval(eq ? bound_of(b, -a, Rounding::Down) : Bound::neg_inf(),
                                bound_of(b, -a, Rounding::Up)));
    }
    if (empty) {
      p = Poly::bottom();
      return true;
    }
    Box box = p.box_;
    for (Dim i = 0; i < n; ++i)
      if (kind[i] == 1) box.set(p.vars_[i], iv[i]);
    p = Poly(std::move(vars), std::move(q), std::move(box));
    return moves;
  }

  // x <= t and x >= t for the nearest thresholds beyond the bounds of each x in q.
  [[nodiscard]] Parma_Polyhedra_Library::Constraint_System threshold_constraints(
      const CPoly& q) const {
    Parma_Polyhedra_Library::Constraint_System cs;
    if (thresholds().empty()) return cs;
    Coef n;
    Coef d;
    bool attained = false;
    for (Dim i = 0; i < q.space_dimension(); ++i) {
      const LinExpr x{PVar(i)};  // q satisfies x <= t for every t >= ceil(sup x), etc.
      if (q.maximize(x, n, d, attained)) {
        const Bound t = thresholds().at_or_above(polyhedra_detail::bound_of(n, d, Rounding::Down));
        if (t.is_finite()) cs.insert(x <= polyhedra_detail::coef(t.value()));
      }
      if (q.minimize(x, n, d, attained)) {
        const Bound t = thresholds().at_or_below(polyhedra_detail::bound_of(n, d, Rounding::Up));
        if (t.is_finite()) cs.insert(x >= polyhedra_detail::coef(t.value()));
      }
    }
    return cs;
  }

  // The integers between the rational bounds of e on p.
  static Interval range(const CPoly& p, const LinExpr& e) {
    Coef n;
    Coef d;
    bool attained = false;
    if (p.is_empty()) return Interval::bottom();
    Bound lo = Bound::neg_inf();
    Bound hi = Bound::pos_inf();
    if (p.minimize(e, n, d, attained)) lo = polyhedra_detail::bound_of(n, d, Rounding::Down);
    if (p.maximize(e, n, d, attained)) hi = polyhedra_detail::bound_of(n, d, Rounding::Up);
    return {lo, hi};
  }

  // A linear combination of variables, opaque atoms (by their intervals) and a constant.
  struct Resolved {
    std::vector<std::pair<VarId, std::int64_t>> vars;
    std::vector<std::pair<Interval, std::int64_t>> opaque;
    std::int64_t k = 0;
    [[nodiscard]] std::vector<VarId> var_ids() const {
      std::vector<VarId> v;
      for (const auto& [x, c] : vars) v.push_back(x);
      return v;  // sorted, as vars
    }
  };

  // lhs - rhs (rhs may be invalid: lhs alone). Transparent wrap-arounds t mod M are
  // replaced by t until none is left. When a coefficient leaves 64 bits, the whole
  // difference is one opaque atom.
  Resolved read(const Poly& s, Term lhs, Term rhs) const {
    Resolved out;
    if (!read_linear(s, lhs, rhs, out)) {
      out = Resolved{};
      const Interval r = rhs.valid() ? eval_atom(s, rhs) : Interval::constant(0);
      out.opaque.emplace_back(eval_atom(s, lhs) - r, 1);
    }
    return out;
  }
  bool read_linear(const Poly& s, Term lhs, Term rhs, Resolved& out) const {
    LinearForm f;
    if (!linearize(lhs, 1, f) || (rhs.valid() && !linearize(rhs, -1, f)) || !normalize(f))
      return false;
    for (bool changed = true; changed;) {
      changed = false;
      LinearForm g;
      g.k = f.k;
      for (const auto& [a, c] : f.atoms) {
        if (!a.is_var() && transparent_mod(s, a)) {
          if (!linearize(a.arg(0), c, g)) return false;
          changed = true;
        } else {
          g.atoms.emplace_back(a, c);
        }
      }
      if (!normalize(g)) return false;
      f = std::move(g);
    }
    out.k = f.k;
    for (const auto& [a, c] : f.atoms) {
      if (a.is_var())
        out.vars.emplace_back(a.var(), c);
      else
        out.opaque.emplace_back(eval_atom(s, a), c);
    }
    std::sort(out.vars.begin(), out.vars.end());
    return true;
  }

  // t mod M (or t rem M, M > 0) with t in [0, |M| - 1] on s: equal to t (a positive M,
  // 2^64 as pow2(64) too: mod_identity_bound, expr/linear_form.hpp).
  bool transparent_mod(const Poly& s, Term a) const {
    if (a.op() == Op::Mod)
      if (const auto b = mod_identity_bound(a.arg(1)))
        return eval(s, a.arg(0)).leq(Interval(0, *b));
    if ((a.op() != Op::Mod && a.op() != Op::Rem) || a.arg(1).op() != Op::IntConst) return false;
    const std::int64_t m = a.arg(1).value();
    if (m == 0 || (a.op() == Op::Rem && m < 0) || m == std::numeric_limits<std::int64_t>::min())
      return false;
    return eval(s, a.arg(0)).leq(Interval(0, (m < 0 ? -m : m) - 1));
  }

  // The interval of an atom the linear form could not split.
  Interval eval_atom(const Poly& s, Term a) const {
    switch (a.op()) {
      case Op::Mul: {
        Interval acc = eval(s, a.arg(0));
        for (std::size_t i = 1; i < a.num_args(); ++i) acc = acc * eval(s, a.arg(i));
        return acc;
      }
      case Op::Div: return div(eval(s, a.arg(0)), eval(s, a.arg(1)));
      case Op::Mod: return mod(eval(s, a.arg(0)), eval(s, a.arg(1)));
      case Op::Rem: return rem(eval(s, a.arg(0)), eval(s, a.arg(1)));
      case Op::Ite:
        return eval(assume(s, a.arg(0), true), a.arg(1))
            .join(eval(assume(s, a.arg(0), false), a.arg(2)));
      default: return box_eval(s, a);
    }
  }

  // Box's evaluator on the bounding box of t's variables.
  Interval box_eval(const Poly& s, Term t) const {
    std::vector<VarId> vs;
    collect_vars(t, vs);
    Box b;
    for (VarId v : vs) b.set(v, bounds(s, v));
    return BoxDomain{}.eval(b, t);
  }

  // The expression of r over p's dimensions (p has r's variables), with one new
  // dimension per opaque atom, appended and bounded by its interval: the caller removes
  // them again. A bottom interval makes p empty.
  static LinExpr bind(Poly& p, const Resolved& r) {
    using polyhedra_detail::coef;
    LinExpr e(coef(r.k));
    for (const auto& [x, c] : r.vars) add_mul_assign(e, coef(c), p.dim_var(x));
    if (r.opaque.empty()) return e;
    Dim d = p.poly_.space_dimension();
    p.poly_.add_space_dimensions_and_embed(r.opaque.size());
    for (const auto& [iv, c] : r.opaque) {
      const PVar t(d++);
      add_mul_assign(e, coef(c), t);
      if (iv.is_bottom())
        p.poly_ = CPoly(p.poly_.space_dimension(), Parma_Polyhedra_Library::EMPTY);
      if (iv.lo().is_finite()) p.poly_.add_constraint(LinExpr(t) >= coef(iv.lo().value()));
      if (iv.hi().is_finite()) p.poly_.add_constraint(LinExpr(t) <= coef(iv.hi().value()));
    }
    return e;
  }

  // s && lhs op rhs over the integers.
  Poly compare(const Poly& s, Term lhs, Term rhs, Op op) const {
    if (op == Op::Neq) return join(compare(s, lhs, rhs, Op::Lt), compare(s, lhs, rhs, Op::Gt));
    const Resolved r = read(s, lhs, rhs);
    Poly out = s;
    out.ensure(r.var_ids());
    const Dim n = out.poly_.space_dimension();
    add_integer_constraint(out.poly_, bind(out, r), op);
    out.poly_.remove_higher_space_dimensions(n);
    out.settle();
    return limited(std::move(out));
  }

  // e op 0 over integer points: as e' >= 0 or e' == 0 with the coefficients divided by
  // their gcd g and the constant rounded (e >= 0 iff e / g >= 0 rounded down).
  static void add_integer_constraint(CPoly& p, const LinExpr& e, Op op) {
    if (p.is_empty()) return;
    LinExpr f = e;
    if (op == Op::Lt || op == Op::Le) f = -f;        // -e >= 0 or -e > 0
    if (op == Op::Lt || op == Op::Gt) f -= Coef(1);  // ... > 0 is ... - 1 >= 0
    Coef g(0);
    for (Dim i = 0; i < p.space_dimension(); ++i) g = gcd(g, Coef(f.coefficient(PVar(i))));
    Coef k = f.inhomogeneous_term();
    const bool eq = op == Op::Eq;
    if (g == 0 ? (eq ? k != 0 : k < 0) : (eq && k % g != 0))  // a false constant, 2x = 1
      p = CPoly(p.space_dimension(), Parma_Polyhedra_Library::EMPTY);
    if (g == 0 || p.is_empty()) return;
    LinExpr h;
    for (Dim i = 0; i < p.space_dimension(); ++i)
      add_mul_assign(h, Coef(f.coefficient(PVar(i)) / g), PVar(i));
    Coef kg;
    mpz_fdiv_q(kg.get_mpz_t(), k.get_mpz_t(), g.get_mpz_t());
    h += kg;
    p.add_constraint(eq ? Parma_Polyhedra_Library::Constraint(h == 0)
                        : Parma_Polyhedra_Library::Constraint(h >= 0));
  }

  // Whether t has a subterm a linear form cannot split (a product of two non-constants,
  // /, mod, rem, ite, iand, pow2).
  static bool has_opaque_atom(Term t) {
    bool found = false;
    for_each_subterm(t, [&found](Term x) {
      std::size_t non_constant = 0;
      for (std::size_t i = 0; i < x.num_args(); ++i)
        non_constant += x.arg(i).op() == Op::IntConst ? 0 : 1;
      found = (x.op() == Op::Mul && non_constant > 1) || x.op() == Op::Div || x.op() == Op::Mod ||
              x.op() == Op::Rem || x.op() == Op::Ite || x.op() == Op::BitAnd || x.op() == Op::Pow2;
      return !found;
    });
    return found;
  }

  // (a <-> b) when same, else (a xor b): the hull of its two cases.
  Poly iff(const Poly& s, Term a, Term b, bool same) const {
    return join(assume(assume(s, a, true), b, same), assume(assume(s, a, false), b, !same));
  }

  // s with x = k added (assign: after forgetting x).
  Poly with_constant(const Poly& s, VarId x, std::int64_t k, bool assign) const {
    if (s.is_bottom()) return s;
    Poly r = s;
    if (!r.box_.get(x).is_top()) {  // an interval stays one
      r.box_.set(x, assign ? Interval::constant(k) : r.box_.get(x).meet(Interval::constant(k)));
      r.settle();
      return r;
    }
    r.ensure({x});
    if (assign) {
      r.poly_.affine_image(r.dim_var(x), LinExpr(polyhedra_detail::coef(k)));
      return limited(std::move(r));
    }
    r.poly_.add_constraint(LinExpr(r.dim_var(x)) == polyhedra_detail::coef(k));
    r.settle();
    return limited(std::move(r));
  }

  BoxDomain intervals_;  // the intervals' operations, with the widening thresholds
  PolyhedraWidening widening_ = PolyhedraWidening::H79;
  Deadline deadline_;
  std::size_t size_limit_ = default_size_limit;
  std::shared_ptr<PolyhedraStatistics> stats_ = std::make_shared<PolyhedraStatistics>();
};

static_assert(AbstractDomain<PolyhedraDomain> && HasWiden<PolyhedraDomain> &&
              HasMeet<PolyhedraDomain> && HasNarrow<PolyhedraDomain> && HasTop<PolyhedraDomain> &&
              HashableDomain<PolyhedraDomain>);

// The integer constants of a CFA's operations (with their neighbours) as widening
// thresholds: PolyhedraDomain(program_thresholds(cfa)). Any type with num_locations(),
// out_edges(l) and operation(e) will do (cfa/cfa.hpp's Cfa does).
template <class C>
Thresholds program_thresholds(const C& cfa) {
  Thresholds th;
  for (decltype(cfa.num_locations()) l = 0; l < cfa.num_locations(); ++l)
    for (auto e : cfa.out_edges(l)) add_constants(th, cfa.operation(e));
  return th;
}

// ---- gamma as a formula, and printing --------------------------------------------------

namespace polyhedra_detail {

// Calls f(terms, b, is_equality) for every minimized constraint sum(a_i x_i) + b >= 0
// (or = 0), terms being the pairs (x_i, a_i) with a_i != 0.
template <class F>
void for_each_constraint(const Poly& p, F f) {
  for (const ppl::Constraint& c : p.polyhedron().minimized_constraints()) {
    std::vector<std::pair<VarId, Coef>> terms;
    for (Dim i = 0; i < c.space_dimension(); ++i)
      if (c.coefficient(ppl::Variable(i)) != 0)
        terms.emplace_back(p.variables()[i], c.coefficient(ppl::Variable(i)));
    f(terms, Coef(c.inhomogeneous_term()), c.is_equality());
  }
}

}  // namespace polyhedra_detail

// The conjunction of the minimized constraints, each as P >= N - b (or N <= b) with
// positive coefficients on both sides; false for bottom, true for top. A Boolean variable
// reads as ite(v, 1, 0), and a constraint on one Boolean alone becomes v, !v or nothing.
// A constraint whose numbers leave 64 bits is left out: the formula is then weaker than
// the element (sound for an invariant; a certificate check may fail, never lie).
inline Term to_formula(const Poly& p, ExprManager& em) {
  using polyhedra_detail::to_int64;
  if (p.is_bottom()) return em.false_();
  std::vector<Term> conj;
  bool infeasible = false;
  polyhedra_detail::for_each_constraint(p, [&](const auto& terms, const auto& bc, bool eq) {
    std::int64_t b = 0;
    if (!to_int64(bc, b) || b == std::numeric_limits<std::int64_t>::min()) return;
    std::vector<Term> pos;
    std::vector<Term> neg;
    for (const auto& [v, ac] : terms) {
      std::int64_t a = 0;
      if (!to_int64(ac, a) || a == std::numeric_limits<std::int64_t>::min()) return;
      Term x = em.var(v);
      if (terms.size() == 1 && x.is_bool()) {  // a * x + b op 0 for x in {0, 1}
        const bool at0 = eq ? b == 0 : b >= 0;
        const bool at1 = eq ? a == -b : a >= -b;
        if (at0 != at1) conj.push_back(at1 ? x : em.not_(x));
        infeasible = infeasible || (!at0 && !at1);
        return;
      }
      if (x.is_bool()) x = em.ite(x, em.int_val(1), em.int_val(0));
      const std::int64_t m = a < 0 ? -a : a;
      (a > 0 ? pos : neg).push_back(m == 1 ? x : em.mul(em.int_val(m), x));
    }
    auto sum = [&](std::vector<Term>& xs, std::int64_t k) {
      if (k != 0 || xs.empty()) xs.push_back(em.int_val(k));
      return xs.size() == 1 ? xs[0] : em.mk(Op::Add, xs);
    };
    if (pos.empty()) {  // b - N op 0
      const Term lhs = sum(neg, 0);
      conj.push_back(eq ? em.eq(lhs, em.int_val(b)) : em.le(lhs, em.int_val(b)));
    } else {  // P - N + b op 0
      const Term lhs = sum(pos, 0);
      const Term rhs = sum(neg, -b);
      conj.push_back(eq ? em.eq(lhs, rhs) : em.ge(lhs, rhs));
    }
  });
  for (const auto& [v, i] : p.intervals().bounds()) {  // the intervals, as Box's gamma
    const Term x = em.var(v);
    if (x.is_bool()) {
      if (i.contains(0) != i.contains(1)) conj.push_back(i.contains(1) ? x : em.not_(x));
      infeasible = infeasible || (!i.contains(0) && !i.contains(1));
    } else if (i.is_singleton()) {
      conj.push_back(em.eq(x, em.int_val(i.lo().value())));
    } else {
      if (i.lo().is_finite()) conj.push_back(em.ge(x, em.int_val(i.lo().value())));
      if (i.hi().is_finite()) conj.push_back(em.le(x, em.int_val(i.hi().value())));
    }
  }
  return infeasible ? em.false_() : em.conj(conj);
}

// "{x - y >= -3, x - 2*z = 0}", "top" or "bottom": the minimized constraints.
inline void print(std::ostream& os, const Poly& p, const ExprManager& em) {
  if (p.is_bottom() || p.is_top()) {
    os << (p.is_bottom() ? "bottom" : "top");
    return;
  }
  const char* sep = "{";
  polyhedra_detail::for_each_constraint(p, [&](const auto& terms, const auto& b, bool eq) {
    os << sep;
    sep = ", ";
    bool first = true;
    for (const bool negative : {false, true})  // positive terms first: y - x >= 1
      for (const auto& [v, a] : terms) {
        if ((sgn(a) < 0) != negative) continue;
        os << (negative ? (first ? "-" : " - ") : (first ? "" : " + "));
        if (abs(a) != 1) os << abs(a) << '*';
        os << em.variable(v).name;
        first = false;
      }
    os << (eq ? " = " : " >= ") << -b;
  });
  for (const auto& [v, i] : p.intervals().bounds()) {
    const auto& x = em.variable(v).name;
    if (i.is_singleton()) {
      os << sep << x << " = " << i.lo().value();
      sep = ", ";
      continue;
    }
    if (i.lo().is_finite()) {
      os << sep << x << " >= " << i.lo().value();
      sep = ", ";
    }
    if (i.hi().is_finite()) {
      os << sep << x << " <= " << i.hi().value();
      sep = ", ";
    }
  }
  os << '}';
}

}  // namespace precis
