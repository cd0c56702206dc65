#pragma once
// The shape every UNSAFE counterexample must have, shared by the model suites: it starts
// at the initial location, ends at the error location, and its steps follow each other.
// (The refiners replayed it before reporting; this checks what they reported.)

#include <doctest/doctest.h>

#include <cstddef>

#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"

namespace precis::testing {

inline void check_counterexample(const Cfa& cfa, const VerificationResult& r) {
  REQUIRE(r.counterexample);
  const auto& steps = r.counterexample->steps;
  REQUIRE_FALSE(steps.empty());
  CHECK(steps.front().from == cfa.name(cfa.initial_location()));
  CHECK(steps.back().to == cfa.name(*cfa.error_location()));
  for (std::size_t i = 1; i < steps.size(); ++i) CHECK(steps[i].from == steps[i - 1].to);
}

}  // namespace precis::testing
