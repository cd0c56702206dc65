// k-induction: a model that needs k >= 2 (not 1-inductive), one that needs an
// invariant from the abstract interpreter (not k-inductive for any k without it), the base
// case finding a bug (replayed), and the k-inductive certificate checker rejecting wrong
// certificates: a k too small, a wrong invariant, a claim that is false.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../support/counterexample_checks.hpp"
#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/k_induction.hpp"
#include "precis/certify/k_inductive.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace k_induction_test {

namespace {

// x takes y's old value and y becomes 0: from L1 with y = 2 the next state has x = 2
// and the one after is the error, so "not at ERR" is not 1- or 2-inductive; three steps
// from anywhere pass a state with y = 0, so it is 3-inductive.
constexpr const char* kShift =
    "main process shift {\n"
    "  var x : int\n  var y : int\n"
    "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
    "  L0 -> L1 { x := 0  y := 0 }\n"
    "  L1 -> L1 { x := y  y := 0 }\n"
    "  L1 -> ERR { assume x = 2 }\n"
    "}\n";

// x counts up from 0; the error needs x < 0. From L1 with x = -5 the error is one step
// away, and x = -k - 5 stays negative for k steps: no k makes it inductive. With the
// interval invariant x >= 0 at L1 it is 1-inductive.
constexpr const char* kCountUp =
    "main process count_up {\n"
    "  var x : int\n"
    "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
    "  L0 -> L1 { x := 0 }\n"
    "  L1 -> L1 { x := x + 1 }\n"
    "  L1 -> ERR { assume x < 0 }\n"
    "}\n";

VerificationResult kind(const Cfa& cfa, std::vector<Term> inv = {}, std::size_t max_k = 0,
                        double seconds = 30) {
  KInductionOptions o;
  o.max_k = max_k;
  o.invariant = std::move(inv);
  KInduction k(cfa, o);
  Limits limits;
  limits.time_limit_s = seconds;
  VerificationResult r = k.run(&limits);
  if (r.verdict == Verdict::Unsafe) testing::check_counterexample(cfa, r);
  if (r.verdict == Verdict::Safe) {
    CHECK(r.certified);
    // The certificate again, on a check of its own.
    CHECK(check_k_inductive(cfa, k.certificate()).valid);
  }
  return r;
}

// The box AI's result as invariants per location.
std::vector<Term> box_invariant(const Cfa& cfa) {
  AbstractInterpreter<BoxDomain> ai(cfa, BoxDomain{});
  const auto res = ai.run();
  REQUIRE(res.complete);
  std::vector<Term> inv;
  for (const auto& v : res.values) inv.push_back(to_formula(v, *cfa.expr_manager()));
  return inv;
}

}  // namespace

TEST_CASE("k-induction: a claim that is 3-inductive and not 2-inductive") {
  const Cfa cfa = parse_cfa(kShift, "shift.cfa");
  const VerificationResult r = kind(cfa);
  REQUIRE(r.verdict == Verdict::Safe);
  CHECK(r.stats.extra.at("kind k") == 3);
  CHECK(r.stats.extra.at("certificate k") == 3);
  CHECK(r.reason.find("3-inductive") != std::string::npos);
  // k = 2 is not enough.
  const VerificationResult two = kind(cfa, {}, 2);
  CHECK(two.verdict == Verdict::Unknown);
  CHECK(two.reason.find("k limit of 2") != std::string::npos);
}

TEST_CASE("k-induction: a claim that needs the abstract interpreter's invariant") {
  const Cfa cfa = parse_cfa(kCountUp, "count_up.cfa");
  const VerificationResult alone = kind(cfa, {}, 8);
  CHECK(alone.verdict == Verdict::Unknown);
  CHECK(alone.reason.find("k limit of 8") != std::string::npos);
  const VerificationResult with = kind(cfa, box_invariant(cfa));
  REQUIRE(with.verdict == Verdict::Safe);
  CHECK(with.stats.extra.at("kind k") == 1);
  CHECK(with.stats.extra.at("kind invariant cutpoints") >= 1);
}

TEST_CASE("k-induction: the base case finds a bug and replays it") {
  const Cfa cfa = parse_cfa(
      "main process bug {\n"
      "  var x : int\n"
      "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { x := 0 }\n"
      "  L1 -> L1 { assume x < 20  x := x + 1 }\n"
      "  L1 -> ERR { assume x = 20 }\n"
      "}\n",
      "bug.cfa");
  const VerificationResult r = kind(cfa);
  REQUIRE(r.verdict == Verdict::Unsafe);
  CHECK(r.counterexample->final_values().at(0) == 20);
  CHECK(r.reason.find("base case") != std::string::npos);
}

TEST_CASE("k-inductive certificates: wrong ones are rejected") {
  const Cfa shift = parse_cfa(kShift, "shift.cfa");
  CHECK(check_k_inductive(shift, {.k = 3, .invariant = {}}).valid);
  CHECK(check_k_inductive(shift, {.k = 4, .invariant = {}}).valid);  // 3 => 4-inductive
  // k too small: the step case fails.
  const KInductiveCheck k2 = check_k_inductive(shift, {.k = 2, .invariant = {}});
  CHECK_FALSE(k2.valid);
  CHECK(k2.failure.find("step case for k = 2 fails") != std::string::npos);
  const KInductiveCheck k0 = check_k_inductive(shift, {.k = 0, .invariant = {}});
  CHECK_FALSE(k0.valid);

  // Wrong invariants: x = 1 at L1 is false after the first step (with k = 2 the base
  // case fails at depth 1; with k = 1 the step from L0 does); 0 <= x <= 5
  // holds for the first steps but x := x + 1 leaves it (the step case fails at any k).
  const Cfa up = parse_cfa(kCountUp, "count_up.cfa");
  ExprManager& em = *up.expr_manager();
  const Term x = em.var(em.find("x")->id);
  Loc l1 = 0;
  while (up.name(l1) != "L1") ++l1;
  std::vector<Term> wrong(up.num_locations(), em.true_());
  wrong[l1] = em.eq(x, em.int_val(1));
  const KInductiveCheck base = check_k_inductive(up, {.k = 2, .invariant = wrong});
  CHECK_FALSE(base.valid);
  CHECK(base.failure.find("base case at depth 1 fails") != std::string::npos);
  CHECK_FALSE(check_k_inductive(up, {.k = 1, .invariant = wrong}).valid);  // step from L0
  std::vector<Term> bounded(up.num_locations(), em.true_());
  bounded[l1] = em.and_(em.ge(x, em.int_val(0)), em.le(x, em.int_val(5)));
  const KInductiveCheck step = check_k_inductive(up, {.k = 3, .invariant = bounded});
  CHECK_FALSE(step.valid);
  CHECK(step.failure.find("step case for k = 3 fails") != std::string::npos);
  std::vector<Term> right(up.num_locations(), em.true_());
  right[l1] = em.ge(x, em.int_val(0));
  CHECK(check_k_inductive(up, {.k = 1, .invariant = right}).valid);

  // A false claim: the error is reachable, so no certificate holds.
  const Cfa bug = parse_cfa(
      "main process bug {\n"
      "  var x : int\n"
      "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { x := 0 }\n"
      "  L1 -> L1 { x := x + 1 }\n"
      "  L1 -> ERR { assume x = 3 }\n"
      "}\n",
      "bug.cfa");
  for (std::size_t k = 1; k <= 6; ++k) {
    CAPTURE(k);
    CHECK_FALSE(check_k_inductive(bug, {.k = k, .invariant = {}}).valid);
  }
}

}  // namespace k_induction_test
