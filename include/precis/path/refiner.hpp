#pragma once
// The trait through which an analysis names its default refiner, so that
// `precis::CEGAR<precis::Expl>` picks the explicit-value refiner and a user can still pass
// any other type as the second template argument. The Refiner concept itself is in
// core/concepts.hpp.

#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/path/error_path.hpp"

namespace precis {

// What default_refiner names for an analysis whose refiner was not declared in this
// translation unit: not a Refiner, so `CEGAR<A>` stops at its `Refiner<RefinerT>`
// constraint with this type's name, which says what to do. The refiners of precis's
// analyses are specialised in their refiners' headers (refine/), which precis/precis.hpp
// and precis/smt.hpp include.
template <class Analysis>
struct no_default_refiner_declared_include_its_refiner_header_or_precis_hpp {};

// Specialised next to each refiner: default_refiner<Analysis>::type.
template <class Analysis>
struct default_refiner {
  using type = no_default_refiner_declared_include_its_refiner_header_or_precis_hpp<Analysis>;
};

template <class Analysis>
using default_refiner_t = typename default_refiner<Analysis>::type;

}  // namespace precis
