#pragma once
// Every SAFE a model suite gets is certified: the certificate read off the
// final ARG must pass the independent checker. A failure is a soundness bug of the
// analysis, so it fails the test (the verdict becomes UNKNOWN as the CLI reports it).

#include <doctest/doctest.h>

#include "precis/certify/certify.hpp"
#include "precis/core/result.hpp"

namespace precis::testing {

template <class Cegar>
VerificationResult certified(const Cfa& cfa, Cegar& cegar, VerificationResult r) {
  if (r.verdict != Verdict::Safe) return r;
  const auto c = certify_safe(cfa, cegar.analysis(), cegar.arg(), r);
  REQUIRE(c.has_value());
  INFO("certificate: " << c->check.failure);
  CHECK(c->check.valid);
  CHECK(r.certified);
  return r;
}

}  // namespace precis::testing
