// Zones and octagons in every algorithm that takes a domain: the
// abstract interpreter with a solver-checked invariant, VINTA (SAFE certified, UNSAFE
// replayed) and the CPA algorithm through DomainAnalysis, alone and in a product with the
// explicit analysis, every SAFE certified from the final ARG.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../support/counterexample_checks.hpp"
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/certify.hpp"
#include "precis/certify/invariant_check.hpp"
#include "precis/cfa/strengthen.hpp"
#include "precis/cpa/domain_analysis.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/domains/relational/octagon.hpp"
#include "precis/domains/relational/zone.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/product_refiner.hpp"

using namespace precis;

namespace relational_analyses_test {

namespace {

Cfa model(const std::string& name) {
  return read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/octagon/" + name + ".cfa");
}

template <class D>
D with_thresholds(const Cfa& cfa) {
  Thresholds th;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    for (auto e : cfa.out_edges(l)) add_constants(th, cfa.operation(e));
  return D(std::move(th));
}

// The abstract interpreter's result as per-location formulas, and whether the solver
// proves them inductive (with the error's exclusion when `safety`).
template <class D>
std::vector<Term> ai_invariant(const Cfa& cfa, bool& inductive, bool safety) {
  AbstractInterpreter<D> ai(cfa, with_thresholds<D>(cfa));
  const auto r = ai.run();
  REQUIRE(r.complete);
  std::vector<Term> inv;
  for (const auto& v : r.values) inv.push_back(to_formula(v, *cfa.expr_manager()));
  inductive = check_invariant(
                  cfa, [&](Loc l) { return inv[l]; }, {}, {}, safety)
                  .inductive;
  return inv;
}

template <class Analysis, class Refiner>
VerificationResult cegar(const Cfa& cfa, Analysis analysis, Refiner refiner) {
  CegarOptions o;
  o.time_limit_s = 30;
  o.max_arg_nodes = 20000;
  CEGAR<Analysis, Refiner> c(cfa, o, std::move(analysis), std::move(refiner));
  VerificationResult r = c.run();
  certify_safe(cfa, c.analysis(), c.arg(), r);
  return r;
}

}  // namespace

TEST_CASE("relational AI: the solver proves the zone and octagon invariants") {
  bool ok = false;
  ai_invariant<ZoneDomain>(model("k_equals_i_safe"), ok, true);
  CHECK(ok);
  ai_invariant<OctagonDomain>(model("countdown_sum_safe"), ok, true);
  CHECK(ok);
  // Inductive but not a proof: the flag is not tracked.
  ai_invariant<OctagonDomain>(model("flag_after_loop_safe"), ok, false);
  CHECK(ok);
}

TEST_CASE("VINTA over octagons: SAFE certified, UNSAFE replayed") {
  for (const char* name : {"k_equals_i_safe", "countdown_sum_safe"}) {
    CAPTURE(name);
    const Cfa cfa = model(name);
    Vinta<OctagonDomain> v(cfa, OctagonDomain{});
    const VerificationResult r = v.run();
    INFO(r.reason);
    CHECK(r.verdict == Verdict::Safe);
    CHECK(r.certified);
  }
  const Cfa bad = model("countdown_sum_unsafe");
  Vinta<OctagonDomain> v(bad, OctagonDomain{});
  const VerificationResult r = v.run();
  CHECK(r.verdict == Verdict::Unsafe);
  testing::check_counterexample(bad, r);
}

TEST_CASE("the CPA algorithm with zones and octagons, alone and beside explicit values") {
  using Zones = DomainAnalysis<ZoneDomain, MergeWiden>;
  using ExplOct = ProductDomain<Expl, DomainAnalysis<OctagonDomain, MergeWiden>>;
  const Cfa cfa = model("k_equals_i_safe");
  const VerificationResult alone =
      cegar(cfa, Zones(cfa, with_thresholds<ZoneDomain>(cfa)), FixedPrecisionRefiner(cfa));
  INFO(alone.reason);
  CHECK(alone.verdict == Verdict::Safe);
  CHECK(alone.certified);
  const VerificationResult both =
      cegar(cfa, ExplOct(Expl(cfa), DomainAnalysis<OctagonDomain, MergeWiden>(cfa)),
            default_refiner_t<ExplOct>(cfa));
  INFO(both.reason);
  CHECK(both.verdict == Verdict::Safe);
  CHECK(both.certified);
  // Explicit values alone cannot bound the unknown n.
  // The model is SAFE, so the only right answer short of a proof is UNKNOWN with its
  // reason; UNSAFE would be a wrong verdict.
  const VerificationResult expl = cegar(cfa, Expl(cfa), ExplicitRefiner(cfa));
  INFO(expl.reason);
  CHECK(expl.verdict == Verdict::Unknown);
  CHECK_FALSE(expl.reason.empty());
  // The wrong claim is never SAFE.
  const Cfa bad = model("countdown_sum_unsafe");
  const VerificationResult b =
      cegar(bad, ExplOct(Expl(bad), DomainAnalysis<OctagonDomain, MergeWiden>(bad)),
            default_refiner_t<ExplOct>(bad));
  CHECK(b.verdict == Verdict::Unsafe);
  if (b.verdict == Verdict::Unsafe) testing::check_counterexample(bad, b);
}

TEST_CASE("strengthening keeps locations and edges and conjoins the invariant at loop heads") {
  const Cfa cfa = model("flag_after_loop_safe");
  bool ok = false;
  const std::vector<Term> inv = ai_invariant<OctagonDomain>(cfa, ok, false);
  REQUIRE(ok);
  const StrengthenedCfa s = strengthen_with_invariant(cfa, inv);
  CHECK(s.cfa.num_locations() == cfa.num_locations());
  CHECK(s.cfa.num_edges() == cfa.num_edges());
  CHECK(s.locations == 1);  // the loop head L1
  CHECK(s.edges == 2);      // its two branches
  // The strengthened CFA has the same reachable states: the invariant is still
  // inductive on it, and explicit-value CEGAR there is not fooled into UNSAFE.
  CHECK(check_invariant(
            s.cfa, [&](Loc l) { return inv[l]; }, {}, {}, false)
            .inductive);
  ExprManager& em = *cfa.expr_manager();
  Certificate c;
  c.point.assign(cfa.num_locations(), true);
  c.disjuncts.assign(cfa.num_locations(), std::vector<Term>{em.true_()});
  conjoin_invariant(c, inv, em);
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (inv[l] != em.true_()) CHECK(c.disjuncts[l].front() == em.and_(em.true_(), inv[l]));
}

}  // namespace relational_analyses_test
