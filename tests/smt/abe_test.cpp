// Predicate abstraction with adjustable-block encoding: verdicts equal to the
// single-edge Boolean analysis, abstraction counts constant in the branching of a loop
// body (ABE) against growing (SBE), disjunctive block formulas refuted with interpolants
// that an independent solver checks, and a counterexample through a block of 2^10 paths
// replayed.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../support/certified.hpp"
#include "../support/counterexample_checks.hpp"
#include "../support/model_suite.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/refine/block_refiner.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/cvc5_solver.hpp"

using namespace precis;

namespace abe_test {

namespace {

CegarOptions options(double time_limit) {
  CegarOptions o;
  o.time_limit_s = time_limit;
  o.order = SearchOrder::ReversePostorder;
  return o;
}

template <class A, class R = default_refiner_t<A>>
VerificationResult run(const Cfa& cfa, A analysis, R refiner, double time_limit = 10) {
  CEGAR<A, R> cegar(cfa, options(time_limit), std::move(analysis), std::move(refiner));
  return testing::certified(cfa, cegar, cegar.run());
}

using testing::check_counterexample;

Verdict expected(const std::string& v) { return v == "SAFE" ? Verdict::Safe : Verdict::Unsafe; }

// A loop whose body has k independent if-statements (diamonds) and an error check that
// the body's own formula refutes (x1 is 0 or 1 after the first diamond, never 2): no
// predicate is needed, only the block formula.
Cfa branchy_loop(int k) {
  CfaBuilder b;
  auto& e = b.exprs();
  std::vector<VarId> c, x;
  for (int j = 1; j <= k; ++j) {
    c.push_back(b.int_var("c" + std::to_string(j)));
    x.push_back(b.int_var("x" + std::to_string(j)));
  }
  b.edge("L0", "H", Skip{});
  std::string at = "H";
  for (int j = 1; j <= k; ++j) {
    const std::string h = "h" + std::to_string(j), t = "t" + std::to_string(j),
                      f = "f" + std::to_string(j), d = "d" + std::to_string(j);
    const Term cj = b.ref(c[j - 1]);
    b.edge(at, h, Havoc{c[j - 1]});
    b.edge(h, t, Assume{e.gt(cj, e.int_val(0))});
    b.edge(h, f, Assume{e.le(cj, e.int_val(0))});
    b.edge(t, d, Assign{x[j - 1], e.int_val(1)});
    b.edge(f, d, Assign{x[j - 1], e.int_val(0)});
    at = d;
  }
  b.edge(at, "H", Skip{});
  b.edge(at, "ERR", Assume{e.eq(b.ref(x[0]), e.int_val(2))});
  b.initial("L0");
  b.error("ERR");
  return std::move(b).build();
}

double abstractions(const Cfa& cfa, BlockPolicy policy) {
  AbeOptions o;
  o.block = policy;
  BlockRefinerOptions ro;
  ro.block = policy;
  CEGAR<PredAbe> cegar(cfa, options(20), PredAbe(cfa, o), BlockRefiner(cfa, ro));
  auto r = cegar.run();
  CHECK(r.verdict == Verdict::Safe);
  cegar.analysis().report(r.stats);
  return r.stats.extra.at("abe abstractions");
}

}  // namespace

TEST_CASE("pred-abe decides every model pred-bool decides, with the same verdict" *
          doctest::test_suite("sweep")) {
  int compared = 0;
  for (const std::string& dir :
       {std::string(PRECIS_TEST_MODELS) + "/", std::string(PRECIS_TASKS) + "/theta/"}) {
    for (const auto& m : testing::read_verdicts(dir + "verdicts.tsv")) {
      if (m.verdict == "NONE") continue;
      CAPTURE(m.name);
      Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
      CegarOptions o;
      o.time_limit_s = 2;
      auto single = CEGAR<PredBool>(cfa, o).run();
      if (single.verdict == Verdict::Unknown) continue;  // nothing to match
      REQUIRE(single.verdict == expected(m.verdict));
      auto abe = run(cfa, PredAbe(cfa), BlockRefiner(cfa), 20);  // ABE-lf
      CAPTURE(abe.reason);
      CHECK(abe.verdict == single.verdict);
      if (abe.verdict == Verdict::Unsafe) check_counterexample(cfa, abe);
      // The Cartesian variant and the explicit + ABE product (EXPLitp-PRED) agree too.
      auto cart = run(cfa, PredAbeCart(cfa), BlockRefiner(cfa), 20);
      CAPTURE(cart.reason);
      CHECK(cart.verdict == single.verdict);
      using Product = ProductDomain<Expl, PredAbe>;
      using Refiner = ProductRefiner<ExplicitRefiner, BlockRefiner>;
      auto prod = run(cfa, Product(Expl(cfa, 4), PredAbe(cfa)),
                      Refiner(ExplicitRefiner(cfa), BlockRefiner(cfa)), 20);
      CAPTURE(prod.reason);
      CHECK(prod.verdict == single.verdict);
      if (prod.verdict == Verdict::Unsafe) check_counterexample(cfa, prod);
      ++compared;
    }
  }
  CHECK(compared >= 25);
}

TEST_CASE("abstractions per loop body: constant in its branches for ABE, growing for SBE") {
  std::vector<double> abe, sbe;
  for (int k : {2, 4, 8}) {
    const Cfa cfa = branchy_loop(k);
    abe.push_back(abstractions(cfa, BlockPolicy::FunctionEntriesAndLoopHeads));
    sbe.push_back(abstractions(cfa, BlockPolicy::EveryLocation));
  }
  MESSAGE("abstractions ABE " << abe[0] << " " << abe[1] << " " << abe[2] << ", SBE " << sbe[0]
                              << " " << sbe[1] << " " << sbe[2]);
  CHECK(abe[0] == abe[1]);
  CHECK(abe[1] == abe[2]);
  CHECK(abe[0] <= 4);  // the loop head twice (once covered) and the error location
  CHECK(sbe[0] < sbe[1]);
  CHECK(sbe[1] < sbe[2]);
  CHECK(sbe[2] >= 2 * 8);  // at least two abstractions per diamond
}

TEST_CASE("a disjunctive block formula is refuted and its interpolants are checked by the solver") {
  // x grows by 1 or by 2 in each iteration (a block with two paths); the error needs
  // x < 0 at the loop head: SAFE with the invariant 0 <= x.
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const VarId c = b.int_var("c");
  const Term X = b.ref(x), C = b.ref(c);
  b.edge("L0", "H", Assign{x, e.int_val(0)});
  b.edge("H", "A", Havoc{c});
  b.edge("A", "B", Assume{e.gt(C, e.int_val(0))});
  b.edge("B", "M", Assign{x, e.add(X, e.int_val(1))});
  b.edge("A", "D", Assume{e.le(C, e.int_val(0))});
  b.edge("D", "M", Assign{x, e.add(X, e.int_val(2))});
  b.edge("M", "H", Skip{});
  b.edge("H", "ERR", Assume{e.lt(X, e.int_val(0))});
  b.initial("L0");
  b.error("ERR");
  Cfa cfa = std::move(b).build();

  CEGAR<PredAbe> cegar(cfa, options(20));
  auto r = cegar.run();
  REQUIRE(r.verdict == Verdict::Safe);
  CHECK(r.stats.refinements >= 1);

  // Refine a path through the loop body by hand, then check its sequence independently:
  // I_0 = true, I_m = false, and I_j /\ block_j => I_{j+1} for the whole block formula.
  BlockRefiner refiner(cfa);
  auto edge = [&](const char* from, const char* to) {
    for (auto ed : cfa.edges())
      if (cfa.name(cfa.source(ed)) == from && cfa.name(cfa.target(ed)) == to) return cfa.ref(ed);
    throw std::logic_error("no edge");
  };
  ErrorPath path;
  path.start = cfa.initial_location();
  for (auto [f, t] : std::vector<std::pair<const char*, const char*>>{
           {"L0", "H"}, {"H", "A"}, {"A", "B"}, {"B", "M"}, {"M", "H"}, {"H", "ERR"}})
    path.steps.push_back(edge(f, t));
  Statistics st;
  auto ref = refiner.refine(path, st);
  REQUIRE(ref.kind == RefinementKind::Spurious);
  const auto& seq = refiner.last_sequence();
  REQUIRE(seq.blocks.size() == 3);         // L0 -> H, H -> H, H -> ERR
  CHECK(seq.blocks[1].edges.size() == 6);  // both paths of the body
  REQUIRE(seq.interpolants.size() == 4);
  CHECK(seq.inductive);
  CHECK(seq.interpolants.front() == cfa.exprs().true_());
  CHECK(seq.interpolants.back() == cfa.exprs().false_());

  SsaVars ssa(cfa.exprs());
  Cvc5Solver solver(ssa.ssa());
  BlockFormulaEncoder enc(cfa, ssa);
  std::vector<std::uint32_t> index(cfa.exprs().num_vars(), 0);
  for (std::size_t j = 0; j < seq.blocks.size(); ++j) {
    CAPTURE(j);
    const Term pre = ssa.shift(seq.interpolants[j], index);
    const BlockFormula bf = enc.encode(seq.blocks[j], index);
    const Term post = ssa.shift(seq.interpolants[j + 1], index);
    SolverScope<Cvc5Solver> scope(solver);
    solver.assert_(pre);
    solver.assert_(bf.formula);
    solver.assert_(ssa.ssa().not_(post));
    CHECK(solver.check() == SatResult::Unsat);
  }
  // The predicates go to the loop head.
  bool at_head = false;
  for (const auto& [i, ps] : ref.increments)
    at_head |= cfa.name(path.location(i)) == "H" && !ps.empty();
  CHECK(at_head);
}

TEST_CASE("an UNSAFE through a block of 2^10 paths is replayed") {
  // Ten independent branches, each adding 1 or 0 to x; the error needs exactly 7 of
  // them taken: one block (no loop) with 1024 paths, decided without refinement.
  CfaBuilder b;
  auto& e = b.exprs();
  const VarId x = b.int_var("x");
  const Term X = b.ref(x);
  b.edge("L0", "d0", Assign{x, e.int_val(0)});
  for (int j = 1; j <= 10; ++j) {
    const VarId c = b.int_var("c" + std::to_string(j));
    const std::string p = "d" + std::to_string(j - 1), h = "h" + std::to_string(j),
                      t = "t" + std::to_string(j), d = "d" + std::to_string(j);
    b.edge(p, h, Havoc{c});
    b.edge(h, t, Assume{e.gt(b.ref(c), e.int_val(0))});
    b.edge(t, d, Assign{x, e.add(X, e.int_val(1))});
    b.edge(h, d, Assume{e.le(b.ref(c), e.int_val(0))});
  }
  b.edge("d10", "ERR", Assume{e.eq(X, e.int_val(7))});
  b.initial("L0");
  b.error("ERR");
  const Cfa cfa = std::move(b).build();

  CEGAR<PredAbe> cegar(cfa, options(20));
  auto r = cegar.run();
  REQUIRE(r.verdict == Verdict::Unsafe);
  CHECK(r.stats.refinements == 0);
  check_counterexample(cfa, r);
  // The reported values: x is 7 at the end, and exactly 7 increments were taken.
  const auto& cex = *r.counterexample;
  CHECK(cex.final_values().at(x) == 7);
  int taken = 0;
  for (const auto& s : cex.steps) taken += s.operation.find("x + 1") != std::string::npos;
  CHECK(taken == 7);
  // The block's 1024 paths were one formula: the whole run abstracted a handful of times.
  cegar.analysis().report(r.stats);
  CHECK(r.stats.extra.at("abe abstractions") <= 2);
}

}  // namespace abe_test
