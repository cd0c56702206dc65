#pragma once
// The weakly relational numeric domains on difference-bound matrices (dbm.hpp):
// DbmDomain<ZoneShape> (zones, x - y <= c) and DbmDomain<OctagonShape> (octagons,
// +-x +-y <= c); zone.hpp and octagon.hpp name them. Models of the domain concepts
// (core/concepts.hpp), of InterpretableDomain (the abstract interpreter) and of
// VintaDomain, and usable in the CPA algorithm through cpa/domain_analysis.hpp.
//
// An element tracks a sorted set of integer variables; a variable it does not track is
// unconstrained (top), so elements over different variable sets are aligned before a
// binary operation: join and widening keep the common variables, meet and leq take the
// union. Elements are kept closed (dbm.hpp) except the result of a widening, which
// stays as the widening made it (closing a widened iterate can break the termination of
// the iteration, Mine 2006, section 4.4); every other operation closes a copy first.
// A closed element with its unconstrained variables dropped is canonical, so == and
// hash agree with the order's equivalence.
//
// Transfer (POST of the VINTA paper, section 3, for this domain):
//   assume: conditions in negation normal form, conjunctions in sequence, disjunctions
//     joined; a linear comparison sum a_i t_i <= c is added exactly when it is a zone or
//     octagon constraint, and otherwise as the bounds it implies for every variable and
//     every pair of variables with coefficients of equal magnitude, the other terms
//     bounded by their intervals (Mine's linearization, HOSC 2006, section 4.5); x != c
//     as the join of x < c and x > c; non-linear atoms (x * y, x mod 3, an ite) are
//     bounded by the interval evaluator of the Box domain on the element's bounds;
//   assign: x := x + c and (octagons) x := -x + c exactly on the matrix, x := +-y + c as
//     the equality, any other linear value as its interval and the bounds of x - y and
//     (octagons) x + y for the variables y it reads, a non-linear value as its interval;
//   `u mod 2^N` (the C front end's wrap-around) is u itself where u's bounds lie in
//     [0, 2^N - 1], so relations survive the wrap-free case exactly;
//   havoc: the variable is dropped. Boolean variables are not tracked (they are top).
// Widening: the standard DBM widening (unstable bounds go to infinity), or to the next
// threshold from the program's constants when the domain has thresholds.
//
// Costs, N = nodes (zones n + 1, octagons 2n): closure O(N^3); assume of a constraint
// over k variables and assignment O(k N^2) (incremental closure); join, leq, widening
// O(N^2) after alignment.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/domains/relational/dbm.hpp"
#include "precis/expr/linear_form.hpp"
#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"

namespace precis {

template <class Shape>
class DbmDomain;

template <class Shape>
class Dbm {
 public:
  Dbm() = default;  // top: no variable tracked
  static Dbm bottom() {
    Dbm d;
    d.bottom_ = true;
    return d;
  }
  [[nodiscard]] bool is_bottom() const { return bottom_; }
  [[nodiscard]] bool is_top() const { return !bottom_ && vars_.empty(); }
  // The tracked variables, sorted (empty for bottom).
  [[nodiscard]] const std::vector<VarId>& variables() const { return vars_; }
  [[nodiscard]] const dbm::Matrix& matrix() const { return m_; }
  [[nodiscard]] bool closed() const { return closed_; }

  friend bool operator==(const Dbm&, const Dbm&) = default;

 private:
  friend class DbmDomain<Shape>;
  std::vector<VarId> vars_;
  dbm::Matrix m_{Shape::nodes(0)};
  bool bottom_ = false;
  bool closed_ = true;
};

template <class Shape>
class DbmDomain {
 public:
  using element = Dbm<Shape>;
  using bound_t = dbm::bound_t;

  DbmDomain() = default;
  explicit DbmDomain(Thresholds thresholds) : thresholds_(std::move(thresholds)) {}
  [[nodiscard]] const Thresholds& thresholds() const { return thresholds_; }
  [[nodiscard]] static const char* name() { return Shape::name; }

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] element bottom() const { return element::bottom(); }
  [[nodiscard]] element top() const { return {}; }
  [[nodiscard]] bool is_bottom(const element& a) const {
    return a.bottom_ || (!a.closed_ && canonical(a).bottom_);
  }

  [[nodiscard]] bool leq(const element& a0, const element& b) const {
    element ca;
    const element& a = closed(a0, ca);
    if (a.bottom_) return true;
    if (b.bottom_) return false;
    dbm::Matrix pa_storage;
    const dbm::Matrix& pa = a.vars_ == b.vars_ ? a.m_ : (pa_storage = project(a, b.vars_));
    for (std::size_t i = 0; i < pa.m.size(); ++i)
      if (b.m_.m[i] != dbm::inf && pa.m[i] > b.m_.m[i]) return false;
    return true;
  }

  [[nodiscard]] element join(const element& a0, const element& b0) const {
    element ca, cb;
    const element& a = closed(a0, ca);
    const element& b = closed(b0, cb);
    if (a.bottom_) return b;
    if (b.bottom_) return a;
    element r;
    std::set_intersection(a.vars_.begin(), a.vars_.end(), b.vars_.begin(), b.vars_.end(),
                          std::back_inserter(r.vars_));
    r.m_ = project(a, r.vars_);
    dbm::Matrix pb_storage;
    const dbm::Matrix& pb = r.vars_ == b.vars_ ? b.m_ : (pb_storage = project(b, r.vars_));
    for (std::size_t i = 0; i < r.m_.m.size(); ++i) r.m_.m[i] = std::max(r.m_.m[i], pb.m[i]);
    return prune(std::move(r));  // the join of closed DBMs is closed
  }

  // Unstable bounds of a go to the next threshold above b's bound, or to infinity.
  [[nodiscard]] element widen(const element& a, const element& b0) const {
    if (a.bottom_) return b0;
    element cb;
    const element& b = closed(b0, cb);
    if (b.bottom_) return a;
    element r;
    std::set_intersection(a.vars_.begin(), a.vars_.end(), b.vars_.begin(), b.vars_.end(),
                          std::back_inserter(r.vars_));
    r.m_ = project(a, r.vars_);
    const dbm::Matrix pb = project(b, r.vars_);
    const std::size_t n = r.m_.n;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        bound_t& x = r.m_.at(i, j);
        const bound_t y = pb.at(i, j);
        if (y <= x) continue;
        x = next_threshold(y, Shape::threshold_scale(i, j));
      }
    r.closed_ = false;
    return r;
  }

  [[nodiscard]] element meet(const element& a, const element& b) const {
    return combine_union(a, b, [](bound_t x, bound_t y) { return std::min(x, y); });
  }
  // The infinite bounds of a take b's.
  [[nodiscard]] element narrow(const element& a, const element& b) const {
    return combine_union(a, b, [](bound_t x, bound_t y) { return x == dbm::inf ? y : x; });
  }

  // Agrees with equivalence: computed on the canonical form.
  [[nodiscard]] std::size_t hash(const element& a0) const {
    element ca;
    const element& a = closed(a0, ca);
    if (a.bottom_) return 0x2545F491U;
    std::size_t h = 0xcbf29ce484222325ULL;
    const auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001B3ULL + (h >> 29); };
    for (VarId v : a.vars_) mix(v);
    for (bound_t x : a.m_.m) mix(static_cast<std::uint64_t>(x));
    return h;
  }

  // ---- queries -------------------------------------------------------------------------
  // The interval of v (top when untracked).
  [[nodiscard]] Interval interval(const element& a0, VarId v) const {
    element ca;
    const element& a = closed(a0, ca);
    if (a.bottom_) return Interval::bottom();
    const auto k = index_of(a, v);
    return k ? interval_at(a, *k) : Interval::top();
  }
  // The upper bound of s1 * x + s2 * y (s1, s2 in {-1, +1}), if the element has one.
  [[nodiscard]] std::optional<std::int64_t> upper(const element& a0, int s1, VarId x, int s2,
                                                  VarId y) const {
    element ca;
    const element& a = closed(a0, ca);
    if (a.bottom_) return std::nullopt;
    const auto kx = index_of(a, x), ky = index_of(a, y);
    if (!kx || !ky) return std::nullopt;
    const bound_t u = x == y ? (s1 + s2 == 0 ? 0 : dbm::twice(Shape::upper(a.m_, s1, *kx, 0, 0)))
                             : Shape::upper(a.m_, s1, *kx, s2, *ky);
    if (u == dbm::inf) return std::nullopt;
    return u;
  }
  // The bounds as a Box (the interval part of the element).
  [[nodiscard]] Box to_box(const element& a0) const {
    element ca;
    const element& a = closed(a0, ca);
    if (a.bottom_) return Box::bottom();
    Box b;
    for (std::size_t k = 0; k < a.vars_.size(); ++k) b.set(a.vars_[k], interval_at(a, k));
    return b;
  }

  // ---- transfer ------------------------------------------------------------------------
  [[nodiscard]] element post(const element& s0, const Operation& op) const {
    element s = canonical(s0);
    if (s.bottom_) return s;
    return std::visit(overloaded{
                          [&](const Skip&) { return s; },
                          [&](const Assume& a) { return assume(s, a.cond); },
                          [&](const Assign& a) { return assign(std::move(s), a.var, a.value); },
                          [&](const Havoc& h) { return forget(std::move(s), h.var); },
                      },
                      op);
  }

  // s restricted by cond (or by its negation).
  [[nodiscard]] element assume(const element& s0, Term cond, bool positive = true) const {
    element s = canonical(s0);
    if (s.bottom_) return s;
    return refine(std::move(s), cond, positive);
  }

  [[nodiscard]] element forget(element s, VarId v) const {
    const auto k = index_of(s, v);
    if (!k || s.bottom_) return s;
    std::vector<VarId> rest = s.vars_;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(*k));
    s.m_ = project(s, rest);  // a projection of a closed DBM is closed
    s.vars_ = std::move(rest);
    return s;
  }

  // a itself when it is closed, else its canonical form in `storage` (no copy of a closed
  // element: a matrix of 64 octagon variables is 128 KB, and copying it dominated join).
  [[nodiscard]] const element& closed(const element& a, element& storage) const {
    if (a.bottom_ || a.closed_) return a;
    storage = canonical(a);
    return storage;
  }

  // The closed form with unconstrained variables dropped; bottom if unsatisfiable.
  [[nodiscard]] element canonical(const element& a) const {
    if (a.bottom_ || a.closed_) return a;
    element r = a;
    if (!Shape::close(r.m_)) return bottom();
    r.closed_ = true;
    return prune(std::move(r));
  }

 private:
  // ---- variables and alignment ---------------------------------------------------------
  static std::optional<std::size_t> index_of(const element& a, VarId v) {
    const auto it = std::lower_bound(a.vars_.begin(), a.vars_.end(), v);
    if (it == a.vars_.end() || *it != v) return std::nullopt;
    return static_cast<std::size_t>(it - a.vars_.begin());
  }
  // a's matrix over the variables `vars` (those a does not track are unconstrained).
  static dbm::Matrix project(const element& a, const std::vector<VarId>& vars) {
    if (vars == a.vars_) return a.m_;
    std::vector<std::size_t> old(vars.size(), dbm::npos);
    for (std::size_t k = 0; k < vars.size(); ++k)
      if (auto i = index_of(a, vars[k])) old[k] = *i;
    dbm::Matrix r(Shape::nodes(vars.size()));
    for (std::size_t i = 0; i < r.n; ++i) {
      const std::size_t oi = Shape::translate(i, old);
      if (oi == dbm::npos) continue;
      for (std::size_t j = 0; j < r.n; ++j) {
        const std::size_t oj = Shape::translate(j, old);
        if (oj != dbm::npos) r.at(i, j) = a.m_.at(oi, oj);
      }
    }
    return r;
  }
  // The index of v in s, tracking it (unconstrained) first if needed.
  static std::size_t track(element& s, VarId v) {
    if (auto k = index_of(s, v)) return *k;
    std::vector<VarId> vars = s.vars_;
    vars.insert(std::lower_bound(vars.begin(), vars.end(), v), v);
    s.m_ = project(s, vars);
    s.vars_ = std::move(vars);
    return *index_of(s, v);
  }
  // Drops the variables without any constraint (closed input).
  static element prune(element a) {
    if (a.bottom_) return a;
    std::vector<VarId> keep;
    for (std::size_t k = 0; k < a.vars_.size(); ++k) {
      std::size_t nodes[2];
      const std::size_t c = Shape::var_nodes(k, nodes);
      bool constrained = false;
      for (std::size_t t = 0; t < c && !constrained; ++t)
        for (std::size_t i = 0; i < a.m_.n && !constrained; ++i)
          if (i != nodes[t] &&
              (a.m_.at(i, nodes[t]) != dbm::inf || a.m_.at(nodes[t], i) != dbm::inf))
            constrained = true;
      if (constrained) keep.push_back(a.vars_[k]);
    }
    if (keep.size() == a.vars_.size()) return a;
    a.m_ = project(a, keep);
    a.vars_ = std::move(keep);
    return a;
  }
  template <class F>
  element combine_union(const element& a0, const element& b0, F op) const {
    element ca, cb;
    const element& a = closed(a0, ca);
    const element& b = closed(b0, cb);
    if (a.bottom_ || b.bottom_) return bottom();
    element r;
    std::set_union(a.vars_.begin(), a.vars_.end(), b.vars_.begin(), b.vars_.end(),
                   std::back_inserter(r.vars_));
    r.m_ = project(a, r.vars_);
    const dbm::Matrix pb = project(b, r.vars_);
    for (std::size_t i = 0; i < r.m_.m.size(); ++i) r.m_.m[i] = op(r.m_.m[i], pb.m[i]);
    if (!Shape::close(r.m_)) return bottom();
    return prune(std::move(r));
  }

  bound_t next_threshold(bound_t y, bound_t scale) const {
    if (thresholds_.empty() || y == dbm::inf) return dbm::inf;
    // Thresholds are values of a variable; a unary octagon entry holds twice its bound.
    const Bound t = thresholds_.at_or_above(Bound(scale == 1 ? y : dbm::floor_half(y) + (y & 1)));
    if (!t.is_finite()) return dbm::inf;
    return scale == 1 ? t.value() : dbm::twice(t.value());
  }

  static Bound as_bound(bound_t u) { return u == dbm::inf ? Bound::pos_inf() : Bound(u); }
  static Interval interval_at(const element& a, std::size_t k) {
    const bound_t hi = Shape::upper(a.m_, 1, k, 0, 0);
    const bound_t mlo = Shape::upper(a.m_, -1, k, 0, 0);
    const Bound lo = mlo == dbm::inf ? Bound::neg_inf() : Bound(dbm::neg(mlo));
    return {lo, as_bound(hi)};
  }
  // Interval of a term under s (closed): variables from the matrix, the rest by the Box
  // evaluator on s's bounds.
  Interval eval(const element& s, Term t) const {
    if (t.is_var() && !t.is_bool()) return var_interval(s, t.var());
    if (t.op() == Op::IntConst) return Interval::constant(t.value());
    return box_.eval(to_box(s), t);
  }
  // t as a linear form under s, the wrap-around `u mod M` read as u where s bounds u in
  // [0, M - 1]. Boolean variables stay opaque atoms.
  bool linear_form(const element& s, Term t, std::int64_t scale, LinearForm& f) const {
    const auto in_range = [&](Term u, std::int64_t hi) {
      const Interval i = eval(s, u);
      return !i.is_bottom() && Bound(0) <= i.lo() && i.hi() <= Bound(hi);
    };
    return linearize(t, scale, f, in_range);
  }

  // Splits f (normalized) into integer variables and an interval for the rest.
  struct Split {
    std::vector<std::pair<VarId, std::int64_t>> vars;
    Interval rest = Interval::constant(0);
  };
  Split split(const element& s, const LinearForm& f) const {
    Split out;
    out.rest = Interval::constant(f.k);
    for (const auto& [atom, c] : f.atoms) {
      if (atom.is_var() && !atom.is_bool())
        out.vars.emplace_back(atom.var(), c);
      else
        out.rest = out.rest + eval(s, atom) * Interval::constant(c);
    }
    return out;
  }

  // ---- assume --------------------------------------------------------------------------
  element refine(element s, Term t, bool positive) const {
    if (s.bottom_) return s;
    switch (t.op()) {
      case Op::BoolConst: return (t.value() != 0) == positive ? s : bottom();
      case Op::Not: return refine(std::move(s), t.arg(0), !positive);
      case Op::And:
      case Op::Or:
        if ((t.op() == Op::And) == positive) {
          for (std::size_t i = 0; i < t.num_args() && !s.bottom_; ++i)
            s = refine(std::move(s), t.arg(i), positive);
          return s;
        } else {
          element r = bottom();
          for (std::size_t i = 0; i < t.num_args(); ++i) r = join(r, refine(s, t.arg(i), positive));
          return r;
        }
      case Op::Imply:
        if (positive) return join(refine(s, t.arg(0), false), refine(s, t.arg(1), true));
        return refine(refine(std::move(s), t.arg(0), true), t.arg(1), false);
      case Op::Iff:
      case Op::Xor: return both_ways(s, t.arg(0), t.arg(1), positive == (t.op() == Op::Iff));
      case Op::Ite:
        return join(refine(refine(s, t.arg(0), true), t.arg(1), positive),
                    refine(refine(s, t.arg(0), false), t.arg(2), positive));
      case Op::Eq:
      case Op::Neq:
        if (t.arg(0).is_bool())
          return both_ways(s, t.arg(0), t.arg(1), positive == (t.op() == Op::Eq));
        [[fallthrough]];
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: return comparison(std::move(s), t, positive);
      default: return s;  // a Boolean variable, or a condition we do not read: keep s
    }
  }
  // (a && b) || (!a && !b), or a xor b when !same.
  element both_ways(const element& s, Term a, Term b, bool same) const {
    return join(refine(refine(s, a, true), b, same), refine(refine(s, a, false), b, !same));
  }

  element comparison(element s, Term cond, bool positive) const {
    Op op = cond.op();
    if (!positive) op = negate_comparison(op);
    LinearForm f;  // lhs - rhs
    if (!linear_form(s, cond.arg(0), 1, f) || !linear_form(s, cond.arg(1), -1, f) || !normalize(f))
      return s;
    const Split sp = split(s, f);
    switch (op) {
      case Op::Le: return add_le(std::move(s), sp, 1, 0);
      case Op::Lt: return add_le(std::move(s), sp, 1, -1);
      case Op::Ge: return add_le(std::move(s), sp, -1, 0);
      case Op::Gt: return add_le(std::move(s), sp, -1, -1);
      case Op::Eq: return add_le(add_le(std::move(s), sp, 1, 0), sp, -1, 0);
      case Op::Neq:
        if (sp.vars.empty())
          return sp.rest.is_singleton() && sp.rest.lo() == Bound(0) ? bottom() : s;
        if (sp.vars.size() > 2) return s;
        return join(add_le(s, sp, 1, -1), add_le(s, sp, -1, -1));
      default: return s;
    }
  }

  // Adds sign * (sum a_i x_i + rest) <= c, i.e. sign * sum a_i x_i <= c - sign * rest
  // for every value of rest: the bound uses rest's smallest (sign > 0) or largest value.
  element add_le(element s, const Split& sp, int sign, std::int64_t c) const {
    if (s.bottom_) return s;
    const Interval rest = sign > 0 ? sp.rest : -sp.rest;
    if (!rest.lo().is_finite()) return s;  // nothing follows for the variables
    const Interval cap =
        Interval(Bound::neg_inf(), Bound(c)) - Interval::constant(rest.lo().value());
    if (!cap.hi().is_finite()) return s;
    const std::int64_t bound = cap.hi().value();
    std::vector<std::pair<std::size_t, std::int64_t>> xs;  // (index, coefficient)
    std::vector<VarId> vars;
    for (const auto& [v, a] : sp.vars) vars.push_back(v);
    for (VarId v : vars) track(s, v);
    for (const auto& [v, a] : sp.vars) {
      std::int64_t coef = 0;
      if (__builtin_mul_overflow(a, sign, &coef)) return s;
      xs.emplace_back(*index_of(s, v), coef);
    }
    if (xs.empty()) return bound >= 0 ? s : bottom();
    // The interval of each term a_i x_i.
    std::vector<Interval> terms;
    for (const auto& [k, a] : xs) terms.push_back(interval_at(s, k) * Interval::constant(a));
    const auto rest_without = [&](std::size_t i, std::size_t j) {
      Interval r = Interval::constant(0);
      for (std::size_t t = 0; t < xs.size(); ++t)
        if (t != i && t != j) r = r + terms[t];
      return r;
    };
    std::vector<std::size_t> touched;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      // a_i x_i <= bound - min(rest)
      const Interval r = rest_without(i, i);
      if (!r.lo().is_finite()) continue;
      const Interval allowed =
          inverse_mul(Interval(Bound::neg_inf(), Bound(bound)) - Interval::constant(r.lo().value()),
                      xs[i].second);
      if (allowed.is_bottom()) return bottom();
      if (allowed.hi().is_finite())
        Shape::constrain(s.m_, {1, xs[i].first, 0, 0, allowed.hi().value()});
      if (allowed.lo().is_finite() &&
          allowed.lo().value() != std::numeric_limits<std::int64_t>::min())
        Shape::constrain(s.m_, {-1, xs[i].first, 0, 0, -allowed.lo().value()});
      touched.push_back(xs[i].first);
    }
    for (std::size_t i = 0; i < xs.size(); ++i)
      for (std::size_t j = i + 1; j < xs.size(); ++j) {
        const std::int64_t ai = xs[i].second, aj = xs[j].second;
        if (ai != aj && ai != -aj) continue;
        const Interval r = rest_without(i, j);
        if (!r.lo().is_finite()) continue;
        // (ai x_i + aj x_j) / |ai| <= floor((bound - min rest) / |ai|)
        const std::int64_t g = ai < 0 ? -ai : ai;
        const Interval lim = inverse_mul(
            Interval(Bound::neg_inf(), Bound(bound)) - Interval::constant(r.lo().value()), g);
        if (lim.is_bottom()) return bottom();
        if (!lim.hi().is_finite()) continue;
        if (Shape::constrain(s.m_, {ai > 0 ? 1 : -1, xs[i].first, aj > 0 ? 1 : -1, xs[j].first,
                                    lim.hi().value()})) {
          touched.push_back(xs[i].first);
          touched.push_back(xs[j].first);
        }
      }
    return close_after(std::move(s), touched);
  }

  element close_after(element s, std::vector<std::size_t>& touched) const {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const bool ok =
        4 * touched.size() > s.vars_.size() ? Shape::close(s.m_) : Shape::close_at(s.m_, touched);
    if (!ok) return bottom();
    s.closed_ = true;
    return prune(std::move(s));
  }

  // ---- assign --------------------------------------------------------------------------
  element assign(element s, VarId x, Term value) const {
    if (value.is_bool()) return forget(std::move(s), x);  // Booleans are not tracked
    LinearForm f;
    if (!linear_form(s, value, 1, f) || !normalize(f))
      return set_interval(std::move(s), x, eval(s, value));
    const Split sp = split(s, f);
    const auto kx = index_of(s, x);
    // x := x + c, and (octagons) x := -x + c
    if (kx && sp.vars.size() == 1 && sp.vars[0].first == x && sp.rest.is_singleton()) {
      const std::int64_t a = sp.vars[0].second, c = sp.rest.lo().value();
      if (a == 1 || (a == -1 && Shape::negate(s.m_, *kx))) {
        Shape::shift(s.m_, *kx, c);
        return s;  // shifting and negating keep the matrix closed
      }
    }
    // x := +-y + c (y != x): the equality
    if (sp.vars.size() == 1 && sp.vars[0].first != x && sp.rest.is_singleton() &&
        (sp.vars[0].second == 1 || (Shape::octagonal && sp.vars[0].second == -1))) {
      const VarId y = sp.vars[0].first;
      const int a = sp.vars[0].second > 0 ? 1 : -1;
      const std::int64_t c = sp.rest.lo().value();
      s = forget(std::move(s), x);
      const std::size_t ix = track(s, x);
      const std::size_t iy = track(s, y);
      // x - a y <= c and -x + a y <= -c
      if (c == std::numeric_limits<std::int64_t>::min()) return s;
      Shape::constrain(s.m_, {1, ix, -a, iy, c});
      Shape::constrain(s.m_, {-1, ix, a, iy, -c});
      std::vector<std::size_t> touched{ix, iy};
      return close_after(std::move(s), touched);
    }
    // Any other linear value: its interval, and x - y, x + y for the y it reads.
    Interval whole = sp.rest;
    for (const auto& [v, a] : sp.vars) whole = whole + var_interval(s, v) * Interval::constant(a);
    struct Rel {
      VarId y;
      int sign;  // bound of x + sign * y
      Interval value;
    };
    std::vector<Rel> rels;
    for (const auto& [y, ay] : sp.vars) {
      if (y == x) continue;
      for (int sg : {-1, 1}) {
        if (sg == 1 && !Shape::octagonal) continue;
        // x' + sg * y = sum_{v != y} a_v v + (a_y + sg) y + rest
        Interval v = sp.rest;
        for (const auto& [w, aw] : sp.vars) {
          std::int64_t coef = aw;
          if (w == y && __builtin_add_overflow(aw, sg, &coef)) {
            v = Interval::top();
            break;
          }
          if (coef != 0) v = v + var_interval(s, w) * Interval::constant(coef);
        }
        rels.push_back({y, sg, v});
      }
    }
    s = set_interval(std::move(s), x, whole);
    if (s.bottom_ || rels.empty()) return s;
    const std::size_t ix = track(s, x);
    std::vector<std::size_t> touched{ix};
    for (const Rel& r : rels) {
      const std::size_t iy = track(s, r.y);
      if (r.value.hi().is_finite())
        Shape::constrain(s.m_, {1, ix, r.sign, iy, r.value.hi().value()});
      if (r.value.lo().is_finite() &&
          r.value.lo().value() != std::numeric_limits<std::int64_t>::min())
        Shape::constrain(s.m_, {-1, ix, -r.sign, iy, -r.value.lo().value()});
      touched.push_back(iy);
    }
    return close_after(std::move(s), touched);
  }
  static Interval var_interval(const element& s, VarId v) {
    const auto k = index_of(s, v);
    return k ? interval_at(s, *k) : Interval::top();
  }

  // x := some value in i (i may be top).
  element set_interval(element s, VarId x, const Interval& i) const {
    s = forget(std::move(s), x);
    if (i.is_bottom()) return bottom();
    if (i.is_top()) return s;
    const std::size_t k = track(s, x);
    if (i.hi().is_finite()) Shape::constrain(s.m_, {1, k, 0, 0, i.hi().value()});
    if (i.lo().is_finite() && i.lo().value() != std::numeric_limits<std::int64_t>::min())
      Shape::constrain(s.m_, {-1, k, 0, 0, -i.lo().value()});
    std::vector<std::size_t> touched{k};
    return close_after(std::move(s), touched);
  }

  Thresholds thresholds_;
  BoxDomain box_;
};

// ---- gamma: the element as a formula, and printing -----------------------------------

// The conjunction of the bounds and of the relational constraints that the bounds do not
// imply (false for bottom, true for top): VINTA's labels, certificates' disjuncts.
template <class Shape>
Term to_formula(const Dbm<Shape>& a0, ExprManager& em) {
  const DbmDomain<Shape> d;
  const Dbm<Shape> a = d.canonical(a0);
  if (a.is_bottom()) return em.false_();
  const auto& vars = a.variables();
  std::vector<Term> conj;
  const auto signed_var = [&](int s, VarId v) { return s > 0 ? em.var(v) : em.neg(em.var(v)); };
  std::vector<Interval> iv;
  for (VarId v : vars) iv.push_back(d.interval(a, v));
  for (std::size_t k = 0; k < vars.size(); ++k) {
    const Term x = em.var(vars[k]);
    const Interval& i = iv[k];
    if (i.is_singleton()) {
      conj.push_back(em.eq(x, em.int_val(i.lo().value())));
      continue;
    }
    if (i.lo().is_finite()) conj.push_back(em.le(em.int_val(i.lo().value()), x));
    if (i.hi().is_finite()) conj.push_back(em.le(x, em.int_val(i.hi().value())));
  }
  for (std::size_t k = 0; k < vars.size(); ++k)
    for (std::size_t l = k + 1; l < vars.size(); ++l)
      for (int s1 : {1, -1})
        for (int s2 : {1, -1}) {
          const auto u = d.upper(a, s1, vars[k], s2, vars[l]);
          if (!u) continue;
          // implied by the bounds of the two variables?
          const Interval sum = iv[k] * Interval::constant(s1) + iv[l] * Interval::constant(s2);
          if (sum.hi().is_finite() && sum.hi().value() <= *u) continue;
          conj.push_back(
              em.le(em.add(signed_var(s1, vars[k]), signed_var(s2, vars[l])), em.int_val(*u)));
        }
  return em.conj(conj);
}

// The formula, printed: "{x - y <= 0 and 0 <= x}", "top" or "bottom".
template <class Shape>
void print(std::ostream& os, const Dbm<Shape>& a, ExprManager& em) {
  if (a.is_bottom()) {
    os << "bottom";
    return;
  }
  const Term f = to_formula(a, em);
  if (f == em.true_()) {
    os << "top";
    return;
  }
  os << '{' << to_string(f, em) << '}';
}

}  // namespace precis
