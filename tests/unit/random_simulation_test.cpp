// Random simulation (algorithms/random_simulation.hpp): deep deterministic bugs, inputs
// drawn from the program's constants and small ranges, redrawn when the next assume
// fails, array cells drawn on first read, and never a verdict without a replay.
#include <doctest/doctest.h>

#include <string>

#include "precis/algorithms/random_simulation.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace random_simulation_test {

namespace {

VerificationResult simulate(const Cfa& cfa, std::size_t max_runs = 0, double seconds = 10) {
  Limits limits;
  limits.time_limit_s = seconds;
  SimulationOptions o;
  o.max_runs = max_runs;
  return RandomSimulation(cfa, o).run(&limits);
}

BigInt final_value(const Counterexample& cx, const std::string& name) {
  const auto v = cx.final_values();
  for (std::size_t i = 0; i < cx.variables.size(); ++i)
    if (cx.variables[i] == name) return v[i];
  FAIL("no variable " << name);
  return 0;
}

}  // namespace

TEST_CASE("simulation: a bug a million iterations deep, without inputs, in one run") {
  const Cfa cfa = parse_cfa(R"(
main process deep {
    var x : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { x := 0 }
    L1 -> L1 { assume x < 1000000  x := x + 1 }
    L1 -> ERR { assume x >= 1000000 and x = 1000000 }
    L1 -> END { assume x > 1000000 }
}
)",
                            "deep.cfa");
  const VerificationResult r = simulate(cfa);
  REQUIRE(r.verdict == Verdict::Unsafe);
  REQUIRE(r.counterexample);
  CHECK(final_value(*r.counterexample, "x") == 1000000);
  // x := 0, then 1,000,000 iterations of two steps, then the assume into ERR.
  CHECK(r.counterexample->steps.size() == 1 + 2 * 1000000 + 1);
  CHECK(r.stats.extra.at("sim runs") == 1);
  // The steps share their edges' text: one per CFA edge taken (4), and each step costs
  // its 12 bytes plus its change (x := x + 1 writes one value, the assumes none).
  const CounterexampleSteps& steps = r.counterexample->steps;
  CHECK(steps.edge_count() == 4);
  CHECK(steps.bytes() < 64 * steps.size());
  CHECK(steps[2].operation == "x := x + 1");
  CHECK(&steps[2].operation == &steps[2002].operation);
  CHECK(steps[1].changes.empty());
  REQUIRE(steps[2].changes.size() == 1);
  CHECK(steps[2].changes.front().second == 1);
  CHECK(steps[2 * 1000000].changes.front().second == 1000000);
  CHECK(steps.back().changes.empty());
  CHECK(steps.back().to == "ERR");
  CHECK(r.stats.extra.count("sim replay s") == 1);
  CHECK(r.stats.extra.count("sim counterexample s") == 1);
}

TEST_CASE("simulation: an input that must equal a program constant") {
  const Cfa cfa = parse_cfa(R"(
main process magic {
    var y : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { havoc y }
    L1 -> ERR { assume y = 123456789 }
    L1 -> END { assume y /= 123456789 }
}
)",
                            "magic.cfa");
  const VerificationResult r = simulate(cfa, 10000);
  REQUIRE(r.verdict == Verdict::Unsafe);
  CHECK(final_value(*r.counterexample, "y") == 123456789);
}

TEST_CASE("simulation: a value the next assume rejects is drawn again") {
  // The range check a C front end puts after a nondeterministic unsigned char, then a
  // condition on it: the run rolls back to the havoc instead of ending.
  const Cfa cfa = parse_cfa(R"(
main process ranged {
    var c : int
    init loc L0
    loc L1
    loc L2
    final loc END
    error loc ERR
    L0 -> L1 { havoc c }
    L1 -> L2 { assume 0 <= c and c <= 255 }
    L2 -> ERR { assume c = 200 }
    L2 -> END { assume c /= 200 }
}
)",
                            "ranged.cfa");
  const VerificationResult r = simulate(cfa, 100000);
  REQUIRE(r.verdict == Verdict::Unsafe);
  CHECK(final_value(*r.counterexample, "c") == 200);
}

TEST_CASE("simulation: SAFE only with one execution; others stop early or at the run limit") {
  const Cfa det = parse_cfa(R"(
main process det {
    var x : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { x := 0 }
    L1 -> L1 { assume x < 100  x := x + 1 }
    L1 -> END { assume x >= 100 }
    L1 -> ERR { assume x < 0 }
}
)",
                            "det.cfa");
  // No input, no choice: its one execution, checked by certify/complete_run.hpp.
  const VerificationResult a = simulate(det);
  CHECK(a.verdict == Verdict::Safe);
  CHECK(a.certified);
  CHECK(a.stats.extra.at("sim runs") == 1);
  CHECK(a.stats.extra.at("certificate steps") == 1 + 2 * 100 + 1);
  CHECK(a.stats.extra.at("certificate valid") == 1);

  // The same loop after a branch on an initial value no step writes: every run is
  // input-free, but the program has two paths.
  const Cfa uninit = parse_cfa(R"(
main process uninit {
    var x : int
    var u : int
    init loc L0
    loc L1
    loc L2
    loc L3
    final loc END
    error loc ERR
    L0 -> L1 { x := 0 }
    L1 -> L2 { assume u > 5 }
    L1 -> L3 { assume u <= 5 }
    L3 -> L2 { x := 1 }
    L2 -> L2 { assume x < 100  x := x + 1 }
    L2 -> END { assume x >= 100 }
    L2 -> ERR { assume x < 0 }
}
)",
                               "uninit.cfa");
  const VerificationResult u = simulate(uninit);
  CHECK(u.verdict == Verdict::Unknown);
  CHECK(u.reason.find("without inputs ends without reaching the error") != std::string::npos);
  CHECK(u.stats.extra.at("sim runs") == 2);
  CHECK(u.stats.extra.at("certificate valid") == 0);
  CHECK(u.reason.find("not the program's only execution: step 2 at location L1: a condition has "
                      "no value") != std::string::npos);

  const Cfa nondet = parse_cfa(R"(
main process nondet {
    var y : int
    init loc L0
    loc L1
    final loc END
    error loc ERR
    L0 -> L1 { havoc y }
    L1 -> ERR { assume y * y = 2 }
    L1 -> END { assume y * y /= 2 }
}
)",
                               "nondet.cfa");
  const VerificationResult b = simulate(nondet, 500);
  CHECK(b.verdict == Verdict::Unknown);
  CHECK(b.reason.find("run limit of 500 reached; no error in 500 random runs") !=
        std::string::npos);
  // Without a run limit the runs stop once they cover no new edge (for 0.25 s here).
  const VerificationResult c = simulate(nondet);
  CHECK(c.verdict == Verdict::Unknown);
  CHECK(c.reason.find("the runs covered no new edge for") != std::string::npos);
  CHECK(c.stats.extra.at("sim runs") > 500);
}

TEST_CASE("simulation: a path through a bound marker is not a counterexample") {
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const VarId marker = b.int_var(bound_marker_name("recursion deeper than 4"));
  b.edge(b.location("L0"), b.location("L1"), Assign{x, e.int_val(0)});
  b.edge(b.location("L1"), b.location("M"), Havoc{marker});
  b.edge(b.location("M"), b.location("ERR"), Skip{});
  b.initial("L0");
  b.error("ERR");
  const Cfa cfa = std::move(b).build();
  const VerificationResult r = simulate(cfa, 50);
  CHECK(r.verdict == Verdict::Unknown);
  CHECK_FALSE(r.counterexample);
  // Without inputs every run passes it: the second one says which bound.
  CHECK(r.stats.extra.at("sim runs") == 2);
  CHECK(r.reason.find("passes a bound of the translation (recursion deeper than 4) at step 2") !=
        std::string::npos);
}

TEST_CASE("simulation: array cells are drawn when first read, and the replay agrees") {
  // havoc a; b := a; assume a[3] = 7 (drawn from the constants); then b[3] must be 7 too:
  // a copy shares the cells its source has not yet drawn.
  CfaBuilder bld;
  auto& e = bld.exprs();
  const VarId a = bld.var("a", Type::Array);
  const VarId b = bld.var("b", Type::Array);
  const Term three = e.int_val(3);
  bld.edge(bld.location("L0"), bld.location("L1"), Havoc{a});
  bld.edge(bld.location("L1"), bld.location("L2"), Assign{b, e.var(a)});
  bld.edge(bld.location("L2"), bld.location("L3"),
           Assume{e.eq(e.select(e.var(b), three), e.int_val(7))});
  bld.edge(bld.location("L3"), bld.location("ERR"),
           Assume{e.eq(e.select(e.var(a), three), e.int_val(7))});
  bld.edge(bld.location("L3"), bld.location("BAD"),
           Assume{e.neq(e.select(e.var(a), three), e.int_val(7))});
  bld.initial("L0");
  bld.error("ERR");
  const Cfa cfa = std::move(bld).build();
  const VerificationResult r = simulate(cfa, 100000);
  REQUIRE(r.verdict == Verdict::Unsafe);
  REQUIRE(r.counterexample);
  REQUIRE(r.counterexample->array_inputs.size() >= 1);
  CHECK(r.counterexample->array_inputs.back().find("3: 7") != std::string::npos);
}

TEST_CASE("simulation: an endless run ends at a quarter of the time limit, by itself") {
  const Cfa cfa = parse_cfa(R"(
main process spin {
    var x : int
    init loc L0
    loc L1
    error loc ERR
    L0 -> L1 { x := 0 }
    L1 -> L1 { x := x + 1 }
    L1 -> ERR { assume x < 0 }
}
)",
                            "spin.cfa");
  const VerificationResult r = simulate(cfa, 0, 0.3);
  CHECK(r.verdict == Verdict::Unknown);
  // The rest of the time is kept for replaying and reporting what a run finds.
  CHECK(r.reason.find("steps used its share of the time") != std::string::npos);
  CHECK(r.stats.extra.at("sim steps") > 1000);
  CHECK(r.stats.time_total < 0.3);
}

}  // namespace random_simulation_test
