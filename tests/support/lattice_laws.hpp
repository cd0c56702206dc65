#pragma once
// Reusable property tests of the lattice laws (after SPARTA's typed domain tests): a
// domain supplies a few sample elements and every law is checked on all pairs/triples.
// Later domains (predicates, boxes, products) call check_lattice_laws with their own
// samples.

#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "precis/core/concepts.hpp"

namespace precis::testing {

template <AbstractDomain D>
bool equivalent(const D& d, const typename D::element& a, const typename D::element& b) {
  return d.leq(a, b) && d.leq(b, a);
}

template <AbstractDomain D>
void check_lattice_laws(const D& d, const std::vector<typename D::element>& samples) {
  const auto bot = d.bottom();
  CHECK(d.is_bottom(bot));
  for (const auto& a : samples) {
    // bottom is below everything; leq is reflexive.
    CHECK(d.leq(bot, a));
    CHECK(d.leq(a, a));
    CHECK(equivalent(d, d.join(a, bot), a));
    CHECK(equivalent(d, d.join(a, a), a));
    if constexpr (HasTop<D>) {
      CHECK(d.leq(a, d.top()));
    }
    for (const auto& b : samples) {
      const auto j = d.join(a, b);
      // join is an upper bound, and commutative.
      CHECK(d.leq(a, j));
      CHECK(d.leq(b, j));
      CHECK(equivalent(d, j, d.join(b, a)));
      // antisymmetry up to equivalence is what leq both ways means; check consistency.
      if (d.leq(a, b) && d.leq(b, a)) CHECK(equivalent(d, j, a));
      if constexpr (HasMeet<D>) {
        const auto m = d.meet(a, b);
        CHECK(d.leq(m, a));
        CHECK(d.leq(m, b));
      }
      if constexpr (HasWiden<D>) {
        const auto w = d.widen(a, b);
        CHECK(d.leq(a, w));
        CHECK(d.leq(b, w));
      }
      for (const auto& c : samples) {
        // transitivity
        if (d.leq(a, b) && d.leq(b, c)) CHECK(d.leq(a, c));
        // join is the least upper bound (among the samples)
        if (d.leq(a, c) && d.leq(b, c)) CHECK(d.leq(j, c));
        if constexpr (HasMeet<D>) {
          // meet is the greatest lower bound (among the samples)
          if (d.leq(c, a) && d.leq(c, b)) CHECK(d.leq(c, d.meet(a, b)));
        }
        // join is associative (up to equivalence)
        CHECK(equivalent(d, d.join(d.join(a, b), c), d.join(a, d.join(b, c))));
      }
    }
  }
}

// The hashing laws the reached set's index relies on (core/concepts.hpp): equivalent
// elements hash alike; for ProjectionCovering domains, a <= b implies that a's
// support includes b's and a hashed on b's support is b's hash. A domain that breaks
// them makes stop-sep miss coverings (more states, never a wrong verdict), so every
// hashable domain runs this on its samples.
template <HashableDomain D>
void check_hashing_laws(const D& d, const std::vector<typename D::element>& samples) {
  for (const auto& a : samples) {
    if (d.is_bottom(a)) continue;
    for (const auto& b : samples) {
      if (d.is_bottom(b)) continue;
      if (equivalent(d, a, b)) CHECK(d.hash(a) == d.hash(b));
      if constexpr (ProjectionCovering<D>) {
        if (d.leq(a, b)) {
          const auto sb = d.support(b);
          CHECK(d.within(sb, a));
          CHECK(d.hash_on(a, sb) == d.hash(b));
        }
      }
    }
    if constexpr (ProjectionCovering<D>) CHECK(d.hash_on(a, d.support(a)) == d.hash(a));
  }
}

}  // namespace precis::testing
