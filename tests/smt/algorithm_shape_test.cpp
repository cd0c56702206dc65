// One shape for every algorithm (core/concepts.hpp, Algorithm): each is built from a CFA
// and its options and run under Limits by the same generic code, which checks the
// verdict on a SAFE and an UNSAFE model and that a time limit ends it with UNKNOWN.
#include <doctest/doctest.h>

#include <string>

#include "../support/counterexample_checks.hpp"
#include "precis/smt.hpp"

using namespace precis;

namespace algorithm_shape_test {

static_assert(Algorithm<CEGAR<Expl>>);
static_assert(Algorithm<CEGAR<ProductDomain<Expl, Pred>>>);
static_assert(Algorithm<Bmc>);
static_assert(Algorithm<KInduction>);
static_assert(Algorithm<RandomSimulation>);
static_assert(Algorithm<Vinta<BoxDomain>>);
static_assert(Algorithm<Synergy>);
static_assert(!Algorithm<AbstractInterpreter<BoxDomain>>);  // returns its interpretation

namespace {

Cfa model(const std::string& name) {
  return read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/" + name + ".cfa");
}

// The generic caller: the only thing it knows of A is the concept.
template <Algorithm A>
VerificationResult run_for(A& a, double seconds) {
  Limits limits;
  limits.time_limit_s = seconds;
  return a.run(limits);
}

template <class Make>
void check_shape(Make make, bool decides_safe) {
  {
    const Cfa bad = model("count_to_ten_unsafe");
    auto a = make(bad);
    const VerificationResult r = run_for(a, 60);
    INFO(r.reason);
    CHECK(r.verdict == Verdict::Unsafe);
    if (r.verdict == Verdict::Unsafe) testing::check_counterexample(bad, r);
  }
  if (decides_safe) {
    const Cfa good = model("count_to_ten_safe");
    auto a = make(good);
    const VerificationResult r = run_for(a, 60);
    INFO(r.reason);
    CHECK(r.verdict == Verdict::Safe);
  }
  {
    // A loop that counts to 10^9 before its error: no algorithm decides it within 0.2 s,
    // and each ends by itself with UNKNOWN and its reason (the time limit, or for random
    // simulation the share of it one run may take).
    const Cfa slow = parse_cfa(
        "main process slow {\n  var x : int\n"
        "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
        "  L0 -> L1 { x := 0 }\n  L1 -> L1 { assume x < 1000000000  x := x + 1 }\n"
        "  L1 -> ERR { assume x = 1000000000 }\n}\n",
        "slow.cfa");
    auto a = make(slow);
    const VerificationResult r = run_for(a, 0.2);
    INFO(r.reason);
    CHECK(r.verdict == Verdict::Unknown);
    CHECK_FALSE(r.reason.empty());
  }
}

}  // namespace

TEST_CASE("algorithm shape: CEGAR, BMC, k-induction, simulation and VINTA run alike") {
  SUBCASE("CEGAR<Expl>") {
    check_shape([](const Cfa& c) { return CEGAR<Expl>(c); }, true);
  }
  SUBCASE("BMC") {
    check_shape([](const Cfa& c) { return Bmc(c, BmcOptions{}); }, false);
  }
  SUBCASE("k-induction") {
    check_shape([](const Cfa& c) { return KInduction(c, KInductionOptions{}); }, true);
  }
  SUBCASE("random simulation") {
    check_shape([](const Cfa& c) { return RandomSimulation(c, SimulationOptions{}); }, true);
  }
  SUBCASE("VINTA over boxes") {
    check_shape([](const Cfa& c) { return Vinta<BoxDomain>(c, BoxDomain{}); }, true);
  }
}

}  // namespace algorithm_shape_test
