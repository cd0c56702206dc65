#pragma once
// The Refiner concept and the trait through which an analysis names its default
// refiner, so that `precis::CEGAR<precis::Expl>` picks the explicit-value refiner and a
// user can still pass any other type as the second template argument.

#include <concepts>

#include "precis/core/result.hpp"
#include "precis/refine/error_path.hpp"

namespace precis {

template <class R>
concept Refiner = requires(R& r, const ErrorPath& path, Statistics& stats) {
  typename R::increment_type;
  { r.refine(path, stats) } -> std::same_as<Refinement<typename R::increment_type>>;
};

// Specialised next to each refiner: default_refiner<Analysis>::type.
template <class Analysis>
struct default_refiner;

template <class Analysis>
using default_refiner_t = typename default_refiner<Analysis>::type;

}  // namespace precis
