#pragma once
// The BOXES domain (VINTA paper, sections 4.2 and 5; Gurfinkel & Chaki's Boxes): finite
// disjunctions of boxes. VINTA's vBoxes proves the disjunctive invariants that Box
// loses to join (Table 1: vBoxes solves 25 safe tasks, the most among the VINTA and
// UFO variants, vBox 20; CPAchecker-ABE solves more, 29).
//
// An element is a list of non-bottom boxes none of which lies below another (join is
// union with subsumption); the empty list is bottom. Subsumption is checked box against
// box, so leq is a sound but incomplete test of gamma(a) => gamma(b): a box covered
// only by the union of several boxes of b is not recognised. A false "no" costs
// precision or time (a covering missed), never soundness.
//
// So that a disjunction cannot blow up (meet is pairwise, assume splits on every
// disjunction), an element holds at most max_disjuncts boxes. Beyond the cap the two
// closest boxes (those that differ on the fewest variables) are joined, repeatedly; if
// the list is more than twice the cap, everything is joined into one box at once, since
// pairwise merging would then be cubic. Both are over-approximations, hence sound.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <ostream>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/interval.hpp"
#include "precis/expr/term.hpp"

namespace precis {

class Boxes {
 public:
  Boxes() = default;  // bottom: the empty disjunction
  explicit Boxes(Box b) {
    if (!b.is_bottom()) boxes_.push_back(std::move(b));
  }
  static Boxes top() { return Boxes(Box{}); }

  [[nodiscard]] bool is_bottom() const { return boxes_.empty(); }
  [[nodiscard]] const std::vector<Box>& boxes() const { return boxes_; }
  [[nodiscard]] std::size_t size() const { return boxes_.size(); }

  // Equal lists (in order); lattice equivalence is leq both ways.
  friend bool operator==(const Boxes&, const Boxes&) = default;

 private:
  friend class BoxesDomain;
  std::vector<Box> boxes_;  // non-bottom, pairwise incomparable
};

class BoxesDomain {
 public:
  using element = Boxes;

  static constexpr std::size_t default_max_disjuncts = 64;

  BoxesDomain() = default;
  explicit BoxesDomain(BoxDomain base, std::size_t max_disjuncts = default_max_disjuncts)
      : base_(std::move(base)), max_(std::max<std::size_t>(1, max_disjuncts)) {}

  [[nodiscard]] const BoxDomain& base() const { return base_; }
  [[nodiscard]] std::size_t max_disjuncts() const { return max_; }

  // The element for a list of boxes: bottoms and subsumed boxes dropped, capped.
  [[nodiscard]] Boxes make(std::span<const Box> xs) const {
    Boxes r;
    for (const Box& x : xs) insert(r.boxes_, x);
    cap(r.boxes_);
    return r;
  }

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] Boxes bottom() const { return {}; }
  [[nodiscard]] Boxes top() const { return Boxes::top(); }
  [[nodiscard]] bool is_bottom(const Boxes& a) const { return a.is_bottom(); }

  // Every box of a lies below some box of b: sufficient for gamma(a) => gamma(b), not
  // necessary (see the header comment).
  [[nodiscard]] bool leq(const Boxes& a, const Boxes& b) const {
    for (const Box& x : a.boxes_)
      if (!covered(x, b.boxes_)) return false;
    return true;
  }

  // Union with subsumption (exact below the cap).
  [[nodiscard]] Boxes join(const Boxes& a, const Boxes& b) const {
    Boxes r = a;
    for (const Box& y : b.boxes_) insert(r.boxes_, y);
    cap(r.boxes_);
    return r;
  }

  // Pairwise meets (exact below the cap; the distributive law of disjunction).
  [[nodiscard]] Boxes meet(const Boxes& a, const Boxes& b) const {
    Boxes r;
    for (const Box& x : a.boxes_)
      for (const Box& y : b.boxes_) insert(r.boxes_, base_.meet(x, y));
    cap(r.boxes_);
    return r;
  }

  // A widening of disjunctions with a bounded number of disjuncts: a box of b that no box
  // of a covers is absorbed into the closest box x of a, which becomes
  // x widen (x join y) (the base widening, with the base domain's thresholds). The
  // result is above a and b, and never has more boxes than a (when a is not bottom), so
  // along a widening sequence the number of disjuncts can only shrink and each disjunct
  // only grows by base widening steps: every increasing chain stabilises.
  [[nodiscard]] Boxes widen(const Boxes& a, const Boxes& b) const {
    if (a.is_bottom()) return b;
    std::vector<Box> r = a.boxes_;
    for (const Box& y : b.boxes_) {
      if (covered(y, r)) continue;
      std::size_t best = 0;
      std::size_t best_d = std::numeric_limits<std::size_t>::max();
      for (std::size_t i = 0; i < r.size(); ++i) {
        const std::size_t d = distance(r[i], y);
        if (d < best_d) best = i, best_d = d;
      }
      r[best] = base_.widen(r[best], base_.join(r[best], y));
    }
    Boxes out;
    for (Box& x : r) insert(out.boxes_, std::move(x));
    return out;
  }

  // a \ b, exact over the integers when the pieces fit under the cap; otherwise a itself
  // (which contains a \ b: sound, and all WIDENWITH_or below needs).
  [[nodiscard]] Boxes difference(const Boxes& a, const Boxes& b) const {
    std::vector<Box> all;
    for (const Box& w : a.boxes_) {
      std::vector<Box> pieces{w};
      for (const Box& u : b.boxes_) {
        std::vector<Box> next;
        for (const Box& p : pieces) {
          std::vector<Box> sub = BoxDomain::subtract(p, u);
          next.insert(next.end(), sub.begin(), sub.end());
        }
        pieces.swap(next);
        if (pieces.size() + all.size() > max_) return a;
        if (pieces.empty()) break;
      }
      all.insert(all.end(), pieces.begin(), pieces.end());
    }
    Boxes r;
    for (Box& p : all) insert(r.boxes_, std::move(p));
    return r;
  }

  // WIDENWITH_or of section 4.2, eq. (3): ((\/X) widen (\/X \/ y)) \ \/X, and y for the
  // empty X (eq. (1)). The result over-approximates the frontier of y, the part not
  // already in X. When the difference would exceed the cap, the widened W itself is
  // returned: any z with W \ \/X <= z <= W keeps gamma(X) \/ gamma(z) = gamma(W), which
  // is what the soundness and termination conditions of Def. 3 are about.
  [[nodiscard]] Boxes widen_with(std::span<const Boxes> xs, const Boxes& y) const {
    if (xs.empty()) return y;
    Boxes u;
    for (const Boxes& x : xs) u = join(u, x);
    const Boxes w = widen(u, join(u, y));
    return difference(w, u);
  }
  [[nodiscard]] Boxes widen_with(const Boxes& x, const Boxes& y) const {
    return widen_with(std::span<const Boxes>(&x, 1), y);
  }

  // ---- transfer (POST_BOXES) -----------------------------------------------------------

  // Per box; an assume keeps its disjunctions as separate boxes (up to the cap), which
  // is where BOXES gains over BOX.
  [[nodiscard]] Boxes post(const Boxes& s, const Operation& op) const {
    Boxes r;
    if (const auto* a = std::get_if<Assume>(&op)) {
      std::vector<Box> out;
      for (const Box& x : s.boxes_) base_.refine(x, a->cond, true, out, max_);
      for (Box& x : out) insert(r.boxes_, std::move(x));
    } else {
      for (const Box& x : s.boxes_) insert(r.boxes_, base_.post(x, op));
    }
    cap(r.boxes_);
    return r;
  }

  // The smallest single box above the disjunction (BOXES to BOX).
  [[nodiscard]] Box hull(const Boxes& a) const { return base_.join_all(a.boxes_); }

 private:
  bool covered(const Box& x, const std::vector<Box>& xs) const {
    for (const Box& y : xs)
      if (base_.leq(x, y)) return true;
    return false;
  }

  // Adds x unless a box already covers it, and drops the boxes x covers.
  void insert(std::vector<Box>& xs, Box x) const {
    if (x.is_bottom() || covered(x, xs)) return;
    std::erase_if(xs, [&](const Box& y) { return base_.leq(y, x); });
    xs.push_back(std::move(x));
  }

  // The number of variables on which two boxes differ: joining the closest pair loses
  // the fewest constraints.
  static std::size_t distance(const Box& a, const Box& b) {
    const auto& ea = a.bounds();
    const auto& eb = b.bounds();
    auto ia = ea.begin();
    auto ib = eb.begin();
    std::size_t d = 0;
    while (ia != ea.end() || ib != eb.end()) {
      if (ib == eb.end() || (ia != ea.end() && ia->first < ib->first)) {
        ++d, ++ia;
      } else if (ia == ea.end() || ib->first < ia->first) {
        ++d, ++ib;
      } else {
        d += ia->second == ib->second ? 0 : 1;
        ++ia, ++ib;
      }
    }
    return d;
  }

  // Enforces max_ (see the header comment).
  void cap(std::vector<Box>& xs) const {
    if (xs.size() <= max_) return;
    if (xs.size() > 2 * max_) {
      Box j = base_.join_all(xs);
      xs.assign(1, std::move(j));
      return;
    }
    while (xs.size() > max_) {
      std::size_t bi = 0;
      std::size_t bj = 1;
      std::size_t best = std::numeric_limits<std::size_t>::max();
      for (std::size_t i = 0; i < xs.size(); ++i)
        for (std::size_t j = i + 1; j < xs.size(); ++j) {
          const std::size_t d = distance(xs[i], xs[j]);
          if (d < best) bi = i, bj = j, best = d;
        }
      Box j = base_.join(xs[bi], xs[bj]);
      xs.erase(xs.begin() + static_cast<std::ptrdiff_t>(bj));
      xs.erase(xs.begin() + static_cast<std::ptrdiff_t>(bi));
      insert(xs, std::move(j));
    }
  }

  BoxDomain base_;
  std::size_t max_ = default_max_disjuncts;
};

static_assert(AbstractDomain<BoxesDomain> && HasWiden<BoxesDomain> && HasMeet<BoxesDomain> &&
              HasTop<BoxesDomain>);

// The disjunction of the boxes' formulas (false for bottom).
inline Term to_formula(const Boxes& b, ExprManager& em) {
  std::vector<Term> disj;
  disj.reserve(b.size());
  for (const Box& x : b.boxes()) disj.push_back(to_formula(x, em));
  return em.disj(disj);
}

// "{x: [0, 0]} | {x: [10, 10]}", or "bottom".
inline void print(std::ostream& os, const Boxes& b, const ExprManager& em) {
  if (b.is_bottom()) {
    os << "bottom";
    return;
  }
  bool first = true;
  for (const Box& x : b.boxes()) {
    if (!first) os << " | ";
    first = false;
    print(os, x, em);
  }
}

}  // namespace precis
