// Sequential composition and the portfolio's choice: stage order, budgets,
// evidence, and the program features the rule table reads.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "precis/algorithms/cegar.hpp"
#include "precis/algorithms/portfolio.hpp"
#include "precis/algorithms/sequential.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/refine/explicit_refiner.hpp"

using namespace precis;

namespace sequential_test {

namespace {

VerificationResult unknown(const std::string& why) {
  VerificationResult r;
  r.reason = why;
  return r;
}

VerificationResult certified_safe() {
  VerificationResult r;
  r.verdict = Verdict::Safe;
  r.certified = true;
  return r;
}

}  // namespace

TEST_CASE("sequential: a later stage decides when the earlier ones do not") {
  std::vector<std::string> ran;
  std::vector<Stage> stages{{"a", 0.5,
                             [&](double) {
                               ran.push_back("a");
                               return unknown("a gives up");
                             }},
                            {"b", 0.5,
                             [&](double) {
                               ran.push_back("b");
                               return certified_safe();
                             }},
                            {"c", 1.0, [&](double) {
                               ran.push_back("c");
                               return certified_safe();
                             }}};
  const SequentialResult r = run_sequential(stages, 0);
  CHECK(ran == std::vector<std::string>{"a", "b"});
  CHECK(r.result.verdict == Verdict::Safe);
  REQUIRE(r.decided_by);
  CHECK(*r.decided_by == 1);
  REQUIRE(r.stages.size() == 2);
  CHECK_FALSE(r.stages[0].accepted);
  CHECK(r.stages[0].reason == "a gives up");
  CHECK(r.stages[1].accepted);
  CHECK(r.result.stats.extra.at("sequential stage") == 2);
}

TEST_CASE("sequential: a verdict without evidence does not end the sequence") {
  VerificationResult unchecked;
  unchecked.verdict = Verdict::Safe;  // not certified
  VerificationResult bare_unsafe;
  bare_unsafe.verdict = Verdict::Unsafe;  // no counterexample
  std::vector<Stage> stages{{"unchecked", 0.5, [&](double) { return unchecked; }},
                            {"bare", 0.5, [&](double) { return bare_unsafe; }},
                            {"last", 1.0, [&](double) { return unknown("out of ideas"); }}};
  const SequentialResult r = run_sequential(stages, 0);
  CHECK(r.result.verdict == Verdict::Unknown);
  CHECK_FALSE(r.decided_by);
  CHECK(r.stages.size() == 3);
  CHECK(r.result.reason.find("unchecked: SAFE without evidence") != std::string::npos);
  CHECK(r.result.reason.find("last: out of ideas") != std::string::npos);
  // A caller that accepts unchecked verdicts (precis-verify --certify off) stops at once.
  const SequentialResult any = run_sequential(
      stages, 0, [](const VerificationResult& x) { return x.verdict != Verdict::Unknown; });
  REQUIRE(any.decided_by);
  CHECK(*any.decided_by == 0);
}

TEST_CASE("sequential: each stage gets its share of the time left, the last all of it") {
  std::vector<double> budgets;
  const auto stage = [&](double sleep_s) {
    return [&budgets, sleep_s](double budget) {
      budgets.push_back(budget);
      std::this_thread::sleep_for(std::chrono::duration<double>(sleep_s));
      return unknown("no");
    };
  };
  std::vector<Stage> stages{
      {"a", 0.25, stage(0.2)}, {"b", 0.5, stage(0.0)}, {"c", 0.1, stage(0.0)}};
  const SequentialResult r = run_sequential(stages, 4.0);
  REQUIRE(budgets.size() == 3);
  // 1/4 of 4 s, exactly: budgets are whole milliseconds, so the microseconds the
  // sequence took to start do not show as 0.999999 s.
  CHECK(budgets[0] == 1.0);
  // b: half of what a left; c, the last stage: everything left whatever its share (b
  // took no time, so twice b's budget).
  const double left_for_b = 4.0 - r.stages[0].seconds;
  CHECK(budgets[1] <= 0.5 * left_for_b + 0.0005);  // rounded to the millisecond
  CHECK(budgets[1] >= 0.5 * left_for_b - 0.05);
  CHECK(budgets[2] == doctest::Approx(2 * budgets[1]).epsilon(0.02));
  CHECK(r.stages[0].seconds >= 0.2);
  // No time: nothing runs, and the reason says so.
  std::vector<Stage> late{{"late", 1.0, stage(0.0)}};
  budgets.clear();
  const SequentialResult none = run_sequential(late, 1e-9);
  CHECK(none.result.verdict == Verdict::Unknown);
  CHECK(none.result.reason.find("no time left") != std::string::npos);
}

TEST_CASE("sequential: a stage's cap bounds its share, and the next stages get the rest") {
  std::vector<double> budgets;
  const auto stage = [&budgets](double budget) {
    budgets.push_back(budget);
    return unknown("no");
  };
  // a: a tenth of 100 s capped at 2 s; b: half of the time left (the stages take no
  // time: ~100 s); c, the last: all that is left, its cap ignored.
  std::vector<Stage> stages{{"a", 0.1, stage, 2.0}, {"b", 0.5, stage}, {"c", 1.0, stage, 1.0}};
  run_sequential(stages, 100.0);
  REQUIRE(budgets.size() == 3);
  CHECK(budgets[0] == 2.0);
  CHECK(budgets[1] == doctest::Approx(50.0).epsilon(0.001));
  CHECK(budgets[2] == doctest::Approx(100.0).epsilon(0.001));
  // A cap above the share changes nothing.
  budgets.clear();
  std::vector<Stage> loose{{"a", 0.1, stage, 50.0}, {"b", 1.0, stage}};
  run_sequential(loose, 10.0);
  REQUIRE(budgets.size() == 2);
  CHECK(budgets[0] == 1.0);
}

TEST_CASE("sequential: CEGAR stages, the first stopped by its budget") {
  // x counts up forever; the error depends on y only. Tracking every variable without
  // refinement (the baseline) never finishes; CEGAR tracks y alone and proves it.
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const VarId y = b.int_var("y");
  b.edge("L0", "L1", Assign{x, e.int_val(0)});
  b.edge("L1", "H", Assign{y, e.int_val(1)});
  b.edge("H", "H", Assign{x, e.add(e.var(x), e.int_val(1))});
  b.edge("H", "ERR", Assume{e.neq(e.var(y), e.int_val(1))});
  b.initial("L0");
  b.error("ERR");
  const Cfa cfa = std::move(b).build();
  const auto cegar_stage = [&cfa](bool refine) {
    return [&cfa, refine](double budget) {
      CegarOptions o;
      o.time_limit_s = budget;
      o.refine = refine;
      o.track_all = !refine;
      CEGAR<Expl, ExplicitRefiner> cegar(cfa, o, Expl(cfa), ExplicitRefiner(cfa));
      return cegar.run();
    };
  };
  std::vector<Stage> stages{{"baseline", 0.25, cegar_stage(false)},
                            {"cegar", 1.0, cegar_stage(true)}};
  // Without a certificate checker here, accept the plain verdicts.
  const SequentialResult r = run_sequential(
      stages, 2.0, [](const VerificationResult& v) { return v.verdict != Verdict::Unknown; });
  REQUIRE(r.stages.size() == 2);
  CHECK(r.stages[0].verdict == Verdict::Unknown);
  CHECK(r.stages[0].budget_s == doctest::Approx(0.5).epsilon(0.01));
  CHECK(r.result.verdict == Verdict::Safe);
  REQUIRE(r.decided_by);
  CHECK(*r.decided_by == 1);
}

TEST_CASE("portfolio: program features and the rule they select") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const VarId y = b.int_var("y");
  const Term X = e.var(x);
  const Term Y = e.var(y);
  // x := 0; while (x < y) x := x + 1; error if x * y < 0 (a loop counter, non-linear).
  b.edge("L0", "H", Assign{x, e.int_val(0)});
  b.edge("H", "B", Assume{e.lt(X, Y)});
  b.edge("B", "H", Assign{x, e.add(X, e.int_val(1))});
  b.edge("H", "X", Assume{e.ge(X, Y)});
  b.edge("X", "ERR", Assume{e.lt(e.mul(X, Y), e.int_val(0))});
  b.initial("L0");
  b.error("ERR");
  const Cfa cfa = std::move(b).build();
  const ProgramFeatures f = program_features(cfa);
  CHECK(f.locations == 5);
  CHECK(f.edges == 5);
  CHECK(f.branches == 1);
  CHECK(f.loops == 1);
  CHECK(f.max_loop_nesting == 1);
  CHECK(f.loop_counters >= 1);
  CHECK(f.arithmetic_vars >= 1);
  CHECK(f.nonlinear);
  const PortfolioChoice c = choose_stages(f);
  REQUIRE(c.stages.size() == 7);
  // A loop over arithmetic: intervals with congruences, then the polyhedra AI,
  // each with a small share and an absolute cap; octagons for a tool without polyhedra.
  CHECK(c.stages[0].analysis == "ai-cong");
  CHECK(c.stages[0].max_seconds == doctest::Approx(kAiCongMaxSeconds));
  CHECK(c.stages[1].analysis == "ai-poly");
  CHECK(c.stages[1].share == doctest::Approx(0.1));
  CHECK(c.stages[1].max_seconds == doctest::Approx(kAiFirstMaxSeconds));
  // Random simulation next on a program with loops, for bugs too deep to unroll.
  CHECK(c.stages[2].analysis == "sim");
  CHECK(c.stages[2].share == doctest::Approx(kSimShare));
  CHECK(c.stages[2].max_seconds == doctest::Approx(kSimMaxSeconds));
  CHECK(c.stages[3].analysis == "expl+pred-abe");
  // BMC second among the refining stages, for bugs deep in a state machine.
  CHECK(c.stages[4].analysis == "bmc");
  CHECK(c.stages[4].share == doctest::Approx(0.5));
  CHECK(c.stages.back().analysis == "vinta-box");
  CHECK(c.rule == "loops with arithmetic: ai-cong and ai-poly first, then sim");
  const PortfolioChoice no_ppl = choose_stages(f, false);
  CHECK(no_ppl.stages[1].analysis == "ai-oct");
  CHECK(no_ppl.rule == "loops with arithmetic: ai-cong and ai-oct first, then sim");
  // Loops without arithmetic: the simulation first.
  ProgramFeatures flags = f;
  flags.arithmetic_vars = 0;
  const PortfolioChoice s = choose_stages(flags);
  CHECK(s.stages.front().analysis == "sim");
  CHECK(s.rule == "loops: sim first");
  // Without a loop, the default stages.
  CHECK(f.nondet_vars == 0);
  ProgramFeatures flat = f;
  flat.loops = 0;
  flat.nondet_vars = 1;
  const PortfolioChoice d = choose_stages(flat);
  CHECK(d.stages.front().analysis == "expl+pred-abe");
  CHECK(d.rule == "default");
  // Without a loop and without inputs (inlined recursion on constants), the simulation
  // first: its first run may be the program's only execution (certify/complete_run.hpp).
  flat.nondet_vars = 0;
  const PortfolioChoice one = choose_stages(flat);
  CHECK(one.stages.front().analysis == "sim");
  CHECK(one.stages.front().max_seconds == doctest::Approx(kSimMaxSeconds));
  CHECK(one.rule == "no loops, no inputs: sim first");
}

TEST_CASE("portfolio: loop nesting is read off the weak topological order") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId i = b.int_var("i");
  const Term I = e.var(i);
  b.edge("L0", "H1", Assign{i, e.int_val(0)});
  b.edge("H1", "H2", Assume{e.lt(I, e.int_val(3))});
  b.edge("H2", "H2b", Assume{e.lt(I, e.int_val(5))});
  b.edge("H2b", "H2", Assign{i, e.add(I, e.int_val(1))});
  b.edge("H2", "H1", Assume{e.ge(I, e.int_val(5))});
  b.edge("H1", "ERR", Assume{e.gt(I, e.int_val(10))});
  b.initial("L0");
  b.error("ERR");
  const ProgramFeatures f = program_features(std::move(b).build());
  CHECK(f.loops == 2);
  CHECK(f.max_loop_nesting == 2);
  CHECK_FALSE(f.nonlinear);
}

TEST_CASE("portfolio: inputs are the calls of nondeterministic functions when the CFA marks them") {
  const auto features = [](bool mark) {
    CfaBuilder b;
    auto& e = b.exprs();
    const VarId in = b.int_var("in");
    const VarId local = b.int_var("local");
    const CfaEdge call = b.edge("L0", "L1", Havoc{in});
    if (mark) b.nondet(call, "__VERIFIER_nondet_int");
    b.edge("L1", "L2", Havoc{local});  // an uninitialized local
    b.edge("L2", "ERR",
           Assume{e.and_(e.eq(e.var(in), e.int_val(1)), e.eq(e.var(local), e.int_val(2)))});
    b.initial("L0");
    b.error("ERR");
    return program_features(std::move(b).build());
  };
  CHECK(features(false).nondet_vars == 2);  // .cfa models: every havoc is an input
  CHECK(features(true).nondet_vars == 1);   // C: only the call
  CHECK(features(true).nondet_flags == 1);  // `in` is only compared with constants
}

TEST_CASE("portfolio: a bound marker is no input") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const VarId marker = b.int_var(bound_marker_name("recursion deeper than 4"));
  b.edge("L0", "L1", Assign{x, e.int_val(3)});
  b.edge("L1", "M", Assume{e.gt(e.var(x), e.int_val(4))});
  b.edge("M", "ERR", Havoc{marker});
  b.edge("L1", "ERR", Assume{e.lt(e.var(x), e.int_val(0))});
  b.initial("L0");
  b.error("ERR");
  const ProgramFeatures f = program_features(std::move(b).build());
  CHECK(f.nondet_vars == 0);
  CHECK(choose_stages(f).rule == "no loops, no inputs: sim first");
}

}  // namespace sequential_test
