#pragma once
// Convex polyhedra (Cousot, Halbwachs, "Automatic discovery of linear restraints among
// variables of a program", POPL 1978) on the Parma Polyhedra Library (PPL, GPLv3, an
// optional dependency like cvc5: CMake's precis::ppl links it, defines PRECIS_HAVE_PPL).
//
// An element (Poly) is a PPL C_Polyhedron over the variables it has met: a sorted vector
// of VarId, entry i naming dimension i. A missing variable is unconstrained; binary
// operations embed both operands in the union of their variables, join and widen drop
// the dimensions they free. An empty polyhedron is the one bottom (a flag).
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
// PPL 1.2 is not thread-safe: one thread at a time may use it. Its initializer sets the
// FPU to round upwards for floating-point abstractions this domain does not use; the
// first PolyhedraDomain restores the process's rounding (a program that uses those
// abstractions calls Parma_Polyhedra_Library::set_rounding_for_PPL() itself).

#include <ppl.hh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <ostream>
#include <span>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/interval.hpp"
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
inline CPoly embed(const CPoly& p, const std::vector<VarId>& from, const std::vector<VarId>& to) {
  CPoly r = p;
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

}  // namespace polyhedra_detail

// An element: a closed convex polyhedron over the variables vars_[i] = dimension i.
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
  [[nodiscard]] bool is_top() const { return !bottom_ && poly_.is_universe(); }
  // The variables of the dimensions, sorted (a superset of the constrained ones).
  [[nodiscard]] const std::vector<VarId>& variables() const { return vars_; }
  [[nodiscard]] const CPoly& polyhedron() const { return poly_; }
  [[nodiscard]] std::optional<std::size_t> dimension(VarId v) const {
    auto it = std::lower_bound(vars_.begin(), vars_.end(), v);
    if (it == vars_.end() || *it != v) return std::nullopt;
    return static_cast<std::size_t>(it - vars_.begin());
  }

  // Equality of the sets of points (over the union of the variables).
  friend bool operator==(const Poly& a, const Poly& b) {
    if (a.bottom_ || b.bottom_) return a.bottom_ == b.bottom_;
    if (a.vars_ == b.vars_) return a.poly_ == b.poly_;
    const auto u = polyhedra_detail::union_of(a.vars_, b.vars_);
    return polyhedra_detail::embed(a.poly_, a.vars_, u) ==
           polyhedra_detail::embed(b.poly_, b.vars_, u);
  }

 private:
  friend class PolyhedraDomain;
  Poly(std::vector<VarId> vars, CPoly p) : vars_(std::move(vars)), poly_(std::move(p)) { settle(); }
  // An empty polyhedron becomes the canonical bottom.
  void settle() {
    if (!bottom_ && poly_.is_empty()) *this = bottom();
  }
  // Adds unconstrained dimensions for the variables of vs (sorted) it lacks.
  void ensure(const std::vector<VarId>& vs) {
    if (bottom_ || std::includes(vars_.begin(), vars_.end(), vs.begin(), vs.end())) return;
    auto u = polyhedra_detail::union_of(vars_, vs);
    poly_ = polyhedra_detail::embed(poly_, vars_, u);
    vars_ = std::move(u);
  }
  [[nodiscard]] Parma_Polyhedra_Library::Variable dim_var(VarId v) const {
    return Parma_Polyhedra_Library::Variable(*dimension(v));
  }

  std::vector<VarId> vars_;
  CPoly poly_;
  bool bottom_ = false;
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

  PolyhedraDomain() : PolyhedraDomain(Thresholds{}) {}
  // Widening thresholds (program_thresholds(cfa) below) and the widening operator.
  explicit PolyhedraDomain(Thresholds thresholds,
                           PolyhedraWidening widening = PolyhedraWidening::H79)
      : thresholds_(std::move(thresholds)), widening_(widening) {
    polyhedra_detail::restore_rounding_once();
  }

  [[nodiscard]] const Thresholds& thresholds() const { return thresholds_; }
  [[nodiscard]] PolyhedraWidening widening() const { return widening_; }

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] Poly bottom() const { return Poly::bottom(); }
  [[nodiscard]] Poly top() const { return {}; }
  [[nodiscard]] bool is_bottom(const Poly& a) const { return a.is_bottom(); }

  [[nodiscard]] bool leq(const Poly& a, const Poly& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    if (a.vars_ == b.vars_) return b.poly_.contains(a.poly_);
    const auto [u, pa, pb] = align(a, b);
    return pb.contains(pa);
  }

  // The convex hull (the least upper bound among polyhedra).
  [[nodiscard]] Poly join(const Poly& a, const Poly& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    auto [u, pa, pb] = align(a, b);
    pa.poly_hull_assign(pb);
    return compacted(std::move(u), std::move(pa));
  }

  [[nodiscard]] Poly meet(const Poly& a, const Poly& b) const {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    auto [u, pa, pb] = align(a, b);
    pa.intersection_assign(pb);
    return {std::move(u), std::move(pa)};
  }

  // a widen (a join b): H79 or BHRZ03, limited by the thresholds (see the top).
  [[nodiscard]] Poly widen(const Poly& a, const Poly& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    auto [u, p, q] = align(a, b);
    if (!q.contains(p)) q.poly_hull_assign(p);
    const Parma_Polyhedra_Library::Constraint_System cs = threshold_constraints(q);
    if (widening_ == PolyhedraWidening::BHRZ03)
      q.limited_BHRZ03_extrapolation_assign(p, cs);
    else
      q.limited_H79_extrapolation_assign(p, cs);
    return compacted(std::move(u), std::move(q));
  }

  // a restricted by the constraints of b whose direction is unbounded in a.
  [[nodiscard]] Poly narrow(const Poly& a, const Poly& b) const {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    auto [u, pa, pb] = align(a, b);
    CPoly r = pa;
    for (const auto& c : pb.minimized_constraints()) {
      LinExpr e;
      for (Dim i = 0; i < c.space_dimension(); ++i)
        add_mul_assign(e, c.coefficient(PVar(i)), PVar(i));
      if (!pa.bounds_from_below(e) || (c.is_equality() && !pa.bounds_from_above(e)))
        r.add_constraint(c);
    }
    return {std::move(u), std::move(r)};
  }

  // WIDENWITH of the VINTA paper (section 4.2) as Box has it: x widen (x join y) with the
  // last x of the set, y itself for the empty set.
  [[nodiscard]] Poly widen_with(const Poly& x, const Poly& y) const { return widen(x, join(x, y)); }
  [[nodiscard]] Poly widen_with(std::span<const Poly> xs, const Poly& y) const {
    if (xs.empty()) return y;
    return widen_with(xs.back(), y);
  }

  // Agrees with equivalence: it hashes semantic facts only, the constrained variables
  // and the integer bounds of each (the bounding box), which equal polyhedra share
  // whatever their constraint systems and dimensions. Cost: two bounds a variable.
  [[nodiscard]] std::size_t hash(const Poly& a) const {
    if (a.is_bottom()) return 0x5bd1e995U;
    std::size_t h = 0xcbf29ce484222325ULL;
    auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001B3ULL + (h >> 29); };
    const std::vector<bool> used = polyhedra_detail::constrained_dims(a.poly_);
    for (Dim i = 0; i < used.size(); ++i) {
      if (!used[i]) continue;
      mix(a.vars_[i]);
      const Interval r = range(a.poly_, LinExpr(PVar(i)));
      for (const Bound b : {r.lo(), r.hi()})
        mix(static_cast<std::uint64_t>(b.value()) * 3 + static_cast<std::uint64_t>(b.sign() + 1));
    }
    return h;
  }

  // ---- transfer ------------------------------------------------------------------------
  [[nodiscard]] Poly post(const Poly& s, const Operation& op) const {
    if (s.is_bottom()) return s;
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
    out.ensure({x});
    const Dim n = out.poly_.space_dimension();
    const LinExpr e = bind(out, r);
    out.poly_.affine_image(out.dim_var(x), e);
    if (r.opaque.empty()) return out;
    out.poly_.remove_higher_space_dimensions(n);
    return compacted(std::move(out.vars_), std::move(out.poly_));
  }

  [[nodiscard]] Poly havoc(const Poly& s, VarId x) const {
    const auto d = s.dimension(x);
    if (s.is_bottom() || !d) return s;
    Poly r = s;
    r.poly_.remove_space_dimensions(Parma_Polyhedra_Library::Variables_Set(PVar(*d)));
    r.vars_.erase(r.vars_.begin() + static_cast<std::ptrdiff_t>(*d));
    return r;
  }

  // The integers x can take in s (top when s does not constrain x).
  [[nodiscard]] Interval bounds(const Poly& s, VarId x) const {
    if (s.is_bottom()) return Interval::bottom();
    const auto d = s.dimension(x);
    if (!d) return Interval::top();
    return range(s.poly_, LinExpr(PVar(*d)));
  }

  // An interval containing every value of the integer term t in s (linear terms are
  // bounded exactly, by linear programming).
  [[nodiscard]] Interval eval(const Poly& s, Term t) const {
    if (s.is_bottom()) return Interval::bottom();
    const Resolved r = read(s, t, Term());
    Poly p = s;
    p.ensure(r.var_ids());
    const LinExpr e = bind(p, r);  // on a copy: the opaque atoms' dimensions can stay
    return range(p.poly_, e);
  }

 private:
  // Both polyhedra over the union of their variables.
  static std::tuple<std::vector<VarId>, CPoly, CPoly> align(const Poly& a, const Poly& b) {
    auto u = polyhedra_detail::union_of(a.vars_, b.vars_);
    CPoly pa = polyhedra_detail::embed(a.poly_, a.vars_, u);
    return {std::move(u), std::move(pa), polyhedra_detail::embed(b.poly_, b.vars_, u)};
  }

  // Drops the dimensions no constraint mentions.
  static Poly compacted(std::vector<VarId> vars, CPoly p) {
    if (p.is_empty()) return Poly::bottom();
    const std::vector<bool> used = polyhedra_detail::constrained_dims(p);
    Parma_Polyhedra_Library::Variables_Set drop;
    std::size_t kept = 0;
    for (Dim i = 0; i < used.size(); ++i) {
      if (used[i]) vars[kept++] = vars[i];
      if (!used[i]) drop.insert(PVar(i));
    }
    vars.resize(kept);
    p.remove_space_dimensions(drop);
    return {std::move(vars), std::move(p)};
  }

  // x <= t and x >= t for the nearest thresholds beyond the bounds of each x in q.
  [[nodiscard]] Parma_Polyhedra_Library::Constraint_System threshold_constraints(
      const CPoly& q) const {
    Parma_Polyhedra_Library::Constraint_System cs;
    if (thresholds_.empty()) return cs;
    Coef n;
    Coef d;
    bool attained = false;
    for (Dim i = 0; i < q.space_dimension(); ++i) {
      const LinExpr x{PVar(i)};  // q satisfies x <= t for every t >= ceil(sup x), etc.
      if (q.maximize(x, n, d, attained)) {
        const Bound t = thresholds_.at_or_above(polyhedra_detail::bound_of(n, d, Rounding::Down));
        if (t.is_finite()) cs.insert(x <= polyhedra_detail::coef(t.value()));
      }
      if (q.minimize(x, n, d, attained)) {
        const Bound t = thresholds_.at_or_below(polyhedra_detail::bound_of(n, d, Rounding::Up));
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

  // t mod M (or t rem M, M > 0) with t in [0, |M| - 1] on s: equal to t.
  bool transparent_mod(const Poly& s, Term a) const {
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
    return out;
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
  // /, mod, rem, ite).
  static bool has_opaque_atom(Term t) {
    bool found = false;
    for_each_subterm(t, [&found](Term x) {
      std::size_t non_constant = 0;
      for (std::size_t i = 0; i < x.num_args(); ++i)
        non_constant += x.arg(i).op() == Op::IntConst ? 0 : 1;
      found = (x.op() == Op::Mul && non_constant > 1) || x.op() == Op::Div || x.op() == Op::Mod ||
              x.op() == Op::Rem || x.op() == Op::Ite;
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
    r.ensure({x});
    if (assign) {
      r.poly_.affine_image(r.dim_var(x), LinExpr(polyhedra_detail::coef(k)));
      return r;
    }
    r.poly_.add_constraint(LinExpr(r.dim_var(x)) == polyhedra_detail::coef(k));
    r.settle();
    return r;
  }

  Thresholds thresholds_;
  PolyhedraWidening widening_ = PolyhedraWidening::H79;
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
  os << '}';
}

}  // namespace precis
