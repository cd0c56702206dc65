#pragma once
// The predicate domain (product-abstraction paper, section 2.2.1): elements are
// PredicateStates (DNFs over predicates; one cube in Cartesian mode).
//
//   Cartesian: leq is syntactic cube inclusion (b's literals are among a's), join is
//              the cube of the common literals: the lattice of cubes;
//   Boolean:   leq is implication, syntactic first (every cube of a contains a cube of
//              b), then by the solver; join is the disjunction (union of cubes).
// Without an abstractor the Boolean leq stays syntactic: a sound under-approximation
// of implication, so covering can only be missed, never wrong.

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "precis/core/concepts.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_state.hpp"

namespace precis {

class PredicateDomain {
 public:
  using element = PredicateState;

  explicit PredicateDomain(AbstractionMode mode = AbstractionMode::Cartesian,
                           std::shared_ptr<PredicateAbstractor> abstractor = nullptr)
      : mode_(mode), abs_(std::move(abstractor)) {}

  [[nodiscard]] AbstractionMode mode() const noexcept { return mode_; }

  [[nodiscard]] element bottom() const { return element::bottom(); }
  [[nodiscard]] element top() const { return element::top(); }
  [[nodiscard]] bool is_bottom(const element& e) const { return e.is_bottom(); }

  [[nodiscard]] bool leq(const element& a, const element& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    if (mode_ == AbstractionMode::Cartesian || !abs_)
      return PredicateAbstractor::syntactically_implies(a, b);
    return abs_->implies(a, b);
  }

  [[nodiscard]] element join(const element& a, const element& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    if (mode_ == AbstractionMode::Boolean) {
      std::vector<Cube> cs = a.cubes();
      cs.insert(cs.end(), b.cubes().begin(), b.cubes().end());
      return element::of_cubes(std::move(cs));
    }
    // Cartesian: the literals every cube of a and of b has.
    Cube common = a.cubes().front();
    auto keep = [&](const Cube& c) {
      Cube r;
      std::set_intersection(common.begin(), common.end(), c.begin(), c.end(),
                            std::back_inserter(r));
      common = std::move(r);
    };
    for (const Cube& c : a.cubes()) keep(c);
    for (const Cube& c : b.cubes()) keep(c);
    return element::of_cube(std::move(common));
  }

 private:
  AbstractionMode mode_;
  std::shared_ptr<PredicateAbstractor> abs_;
};

static_assert(AbstractDomain<PredicateDomain>);
static_assert(HasTop<PredicateDomain>);

}  // namespace precis
