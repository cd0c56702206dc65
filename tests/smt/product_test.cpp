// CEGAR<ProductDomain<Expl, Pred>>: explicit values with auxiliary predicates
// (explicit-value paper III-F). Every bundled model is decided, with the right
// verdict; models beyond explicit values are decided through predicate refinement.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "../support/certified.hpp"
#include "../support/model_suite.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/refine/value_limit_refiner.hpp"

using namespace precis;

namespace product_test {

namespace {
using ExplPred = ProductDomain<Expl, Pred>;
static_assert(
    std::same_as<default_refiner_t<ExplPred>, ProductRefiner<ExplicitRefiner, PredicateRefiner>>);

VerificationResult run_expl_pred(const Cfa& cfa, std::uint32_t value_limit, double time_limit) {
  CegarOptions o;
  o.time_limit_s = time_limit;
  CEGAR<ExplPred> cegar(cfa, o, ExplPred(Expl(cfa, value_limit), Pred(cfa)),
                        ProductRefiner<ExplicitRefiner, PredicateRefiner>(cfa));
  return testing::certified(cfa, cegar, cegar.run());
}
}  // namespace

TEST_CASE("expl+pred decides every bundled model correctly") {
  for (const std::string& dir :
       {std::string(PRECIS_TASKS) + "/theta/", std::string(PRECIS_TEST_MODELS) + "/"}) {
    for (const auto& m : testing::read_verdicts(dir + "verdicts.tsv")) {
      if (m.verdict == "NONE") continue;
      CAPTURE(m.name);
      Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
      auto r = run_expl_pred(cfa, 64, 60);
      CHECK(r.verdict == (m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe));
      if (r.verdict == Verdict::Unsafe) {
        REQUIRE(r.counterexample);
        CHECK(r.counterexample->steps.back().to == cfa.name(*cfa.error_location()));
      }
    }
  }
}

TEST_CASE("explicit refinement first, predicates only where explicit values fail") {
  const std::string theta = std::string(PRECIS_TASKS) + "/theta/";
  // counter5_true: explicit values suffice, no predicate refinement at all.
  auto r1 = run_expl_pred(read_cfa_file(theta + "counter5_true.cfa"), 64, 30);
  CHECK(r1.verdict == Verdict::Safe);
  CHECK(r1.stats.extra.count("refinements by component 1") == 0);
  // locking: old := new then new /= old needs a predicate.
  auto r2 = run_expl_pred(read_cfa_file(theta + "locking.cfa"), 64, 30);
  CHECK(r2.verdict == Verdict::Safe);
  CHECK(r2.stats.extra.at("refinements by component 1") >= 1);
}

TEST_CASE("the value limit hands a counting loop over to predicates") {
  // i and j count together up to a havocked n: explicit values would enumerate them
  // forever; with a limit of 8 values the predicates i = j take over.
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/relational_needs_predicates.cfa");
  auto unlimited = run_expl_pred(cfa, 0, 2);
  CHECK(unlimited.verdict == Verdict::Unknown);
  auto limited = run_expl_pred(cfa, 8, 30);
  CHECK(limited.verdict == Verdict::Safe);
  CHECK(limited.stats.extra.at("refinements by component 1") >= 1);
}

TEST_CASE("escalating value limits: expl+pred is never weaker than expl on a counter") {
  // x counts to 1000 and is checked. A fixed limit of 64 cuts x off
  // and predicate refinement unrolls the loop; with the ValueLimitRefiner the predicates
  // get one round (patience 1), then each explicit refutation that needs x raises x's
  // limit (64 -> 512 -> 4096) and the ARG is rebuilt.
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/product/counter_1000_safe.cfa");
  auto fixed = run_expl_pred(cfa, 64, 2);
  CHECK(fixed.verdict == Verdict::Unknown);

  auto limits = std::make_shared<ValueLimits>(
      ValueLimitOptions{.base = 64, .escalation = 8, .patience = 1, .max_level = 4});
  CegarOptions o;
  o.time_limit_s = 30;
  auto r = CEGAR<ExplPred, ValueLimitRefiner<ProductRefiner<ExplicitRefiner, PredicateRefiner>>>(
               cfa, o, ExplPred(Expl(cfa, limits), Pred(cfa)),
               ValueLimitRefiner(limits, ProductRefiner<ExplicitRefiner, PredicateRefiner>(cfa)))
               .run();
  CHECK(r.verdict == Verdict::Safe);
  const VarId x = cfa.exprs().find("x")->id;
  CHECK(limits->level(x) == 2);
  CHECK(limits->limit(x) == 4096);
  CHECK(r.stats.extra.at("restarts for analysis changes") == 2);
  CHECK(r.stats.extra.at("refinements by component 1") == 1);

  // Two counters up to a havocked n (i = j): every single path is refuted by explicit
  // values, but the predicates' round proves i = j, so nothing escalates. (Patience 0
  // would escalate up to the last level: the refinement cannot tell the two apart.)
  Cfa rel = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/relational_needs_predicates.cfa");
  auto rl = std::make_shared<ValueLimits>(ValueLimitOptions{.base = 8, .patience = 1});
  auto r2 = CEGAR<ExplPred, ValueLimitRefiner<ProductRefiner<ExplicitRefiner, PredicateRefiner>>>(
                rel, o, ExplPred(Expl(rel, rl), Pred(rel)),
                ValueLimitRefiner(rl, ProductRefiner<ExplicitRefiner, PredicateRefiner>(rel)))
                .run();
  CHECK(r2.verdict == Verdict::Safe);
  CHECK(rl->escalations() == 0);
}

}  // namespace product_test
