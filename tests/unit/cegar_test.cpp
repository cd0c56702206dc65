#include <doctest/doctest.h>

#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_interpolation.hpp"
#include "precis/refine/explicit_refiner.hpp"

using namespace precis;

namespace cegar_test {

namespace {
// The explicit-value paper's Fig. 1: system_call() is a havoc.
Cfa fig1() {
  CfaBuilder b;
  auto& e = b.exprs();
  VarId flag = b.int_var("flag"), ticks = b.int_var("ticks"), result = b.int_var("result"),
        x = b.int_var("x");
  Term F = e.var(flag), T = e.var(ticks), R = e.var(result), X = e.var(x);
  b.chain(b.location("L0"), b.location("L1"),
          {Assign{flag, e.int_val(0)}, Assign{ticks, e.int_val(0)}});
  b.edge("L1", "L2", Assign{ticks, e.add(T, e.int_val(1))});
  b.edge("L2", "L3", Havoc{result});
  Term brk = e.or_(e.eq(R, e.int_val(0)), e.gt(T, X));
  b.edge("L3", "L4", Assume{brk});
  b.edge("L3", "L1", Assume{e.not_(brk)});
  b.edge("L4", "ERR", Assume{e.gt(F, e.int_val(0))});
  b.edge("L4", "END", Assume{e.not_(e.gt(F, e.int_val(0)))});
  b.initial("L0");
  b.error("ERR");
  b.final_("END");
  return std::move(b).build();
}

// x counts to n. Safe: after the loop x = n exactly. With `bug`, the error is reached
// exactly when x = n, i.e. only after n iterations (a bug deep in a loop).
Cfa counter(int n, bool bug) {
  CfaBuilder b;
  auto& e = b.exprs();
  VarId x = b.int_var("x");
  Term X = e.var(x);
  b.edge("L0", "L1", Assign{x, e.int_val(0)});
  b.edge("L1", "L2", Assume{e.lt(X, e.int_val(n))});
  b.edge("L2", "L1", Assign{x, e.add(X, e.int_val(1))});
  b.edge("L1", "L3", Assume{e.ge(X, e.int_val(n))});
  Term at_n = e.eq(X, e.int_val(n));
  b.edge("L3", "ERR", Assume{bug ? at_n : e.not_(at_n)});
  b.edge("L3", "END", Assume{bug ? e.not_(at_n) : at_n});
  b.initial("L0");
  b.error("ERR");
  return std::move(b).build();
}
}  // namespace

TEST_CASE("Fig. 1 is proved safe with the precision {flag} after one refinement") {
  Cfa cfa = fig1();
  for (bool prune : {true, false}) {
    for (auto g : {Granularity::Location, Granularity::Scope}) {
      CegarOptions o;
      o.prune = prune;
      o.granularity = g;
      CEGAR<Expl> cegar(cfa, o);
      auto r = cegar.run();
      CHECK(r.verdict == Verdict::Safe);
      CHECK(r.stats.refinements == 1);
      // Only flag is tracked anywhere.
      const auto& pi = *cegar.current_precision();
      for (Loc l = 0; l < cfa.num_locations(); ++l)
        for (VarId v : pi.at(l)) CHECK(cfa.exprs().variable(v).name == "flag");
    }
  }
}

TEST_CASE("the track-everything baseline cannot finish Fig. 1") {
  Cfa cfa = fig1();
  CegarOptions o;
  o.track_all = true;
  o.refine = false;
  o.max_arg_nodes = 5000;
  auto r = CEGAR<Expl>(cfa, o).run();
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find("node limit") != std::string::npos);
}

TEST_CASE("a bug deep in a loop is found with a replayed counterexample") {
  Cfa cfa = counter(50, true);
  for (auto order : {SearchOrder::Bfs, SearchOrder::Dfs, SearchOrder::TargetDistance}) {
    CegarOptions o;
    o.order = order;
    auto r = CEGAR<Expl>(cfa, o).run();
    REQUIRE(r.verdict == Verdict::Unsafe);
    REQUIRE(r.counterexample);
    // 1 init + 50 * 2 loop edges + exit + error edge
    CHECK(r.counterexample->steps.size() == 103);
    CHECK(r.counterexample->steps.back().to == "ERR");
    CHECK(r.counterexample->final_values()[0] == 50);
  }
  // The counter program with the correct bound is safe, tracking x.
  auto safe = CEGAR<Expl>(counter(50, false)).run();
  CHECK(safe.verdict == Verdict::Safe);
  CHECK(safe.stats.refinements >= 1);
}

TEST_CASE("nondeterministic inputs are concretised and replayed") {
  CfaBuilder b;
  auto& e = b.exprs();
  VarId x = b.int_var("x"), y = b.int_var("y");
  Term X = e.var(x), Y = e.var(y);
  b.edge("L0", "L1", Havoc{x});
  b.edge("L1", "L2", Assume{e.gt(Y, e.int_val(10))});
  b.edge("L2", "L3", Assume{e.eq(X, e.add(Y, e.int_val(3)))});
  b.edge("L3", "ERR", Assume{e.gt(X, e.int_val(13))});
  b.initial("L0");
  b.error("ERR");
  Cfa cfa = std::move(b).build();
  auto r = CEGAR<Expl>(cfa).run();
  REQUIRE(r.verdict == Verdict::Unsafe);
  const auto last = r.counterexample->final_values();
  CHECK(last[y] > 10);
  CHECK(last[x] == last[y] + 3);
  CHECK(last[x] > 13);
}

TEST_CASE("a relation the explicit domain cannot express ends in UNKNOWN, not a verdict") {
  // locking.cfa's core: old := new; assume new /= old; error.
  CfaBuilder b;
  auto& e = b.exprs();
  VarId o = b.int_var("old"), n = b.int_var("new");
  b.edge("L0", "L1", Assign{o, e.var(n)});
  b.edge("L1", "ERR", Assume{e.neq(e.var(n), e.var(o))});
  b.initial("L0");
  b.error("ERR");
  Cfa cfa = std::move(b).build();
  auto r = CEGAR<Expl>(cfa).run();
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find("SMT") != std::string::npos);
}

TEST_CASE("merge-join turns the explicit analysis into constant propagation") {
  // A diamond assigning x := 1 on both branches; after the join x = 1 is still known,
  // while y (different values) is lost.
  CfaBuilder b;
  auto& e = b.exprs();
  VarId x = b.int_var("x"), y = b.int_var("y"), c = b.int_var("c");
  b.edge("L0", "A", Assume{e.gt(e.var(c), e.int_val(0))});
  b.edge("L0", "B", Assume{e.le(e.var(c), e.int_val(0))});
  b.chain(b.location("A"), b.location("J"), {Assign{x, e.int_val(1)}, Assign{y, e.int_val(1)}});
  b.chain(b.location("B"), b.location("J"), {Assign{x, e.int_val(1)}, Assign{y, e.int_val(2)}});
  b.edge("J", "ERR", Assume{e.neq(e.var(x), e.int_val(1))});
  b.initial("L0");
  b.error("ERR");
  Cfa cfa = std::move(b).build();
  CegarOptions o;
  o.track_all = true;
  CEGAR<Expl, ExplicitRefiner, ConfigurableWaitlist, MergeJoin> cegar(cfa, o);
  auto r = cegar.run();
  CHECK(r.verdict == Verdict::Safe);
  int at_join = 0;
  cegar.arg().for_each_live([&](const auto* node) {
    if (node->loc == 4 /* J */ && !node->covered_by && node->in_reached) {
      ++at_join;
      CHECK(node->element.get(x) == 1);
      CHECK_FALSE(node->element.has(y));
    }
  });
  CHECK(at_join == 1);
}

TEST_CASE("Fig. 2: Interpolate/Refine on its error path; scoped precision saves a refinement") {
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/paper_fig2_safe.cfa");
  const auto& em = cfa.exprs();
  const VarId a = em.find("a")->id;
  // The error path through N3: a := 0; assume x > 0; x := x - 1; assume a /= 0; skip.
  std::vector<Operation> ops;
  auto edge_op = [&](const std::string& from, const std::string& to) -> Operation {
    for (auto e : cfa.edges())
      if (cfa.name(cfa.source(e)) == from && cfa.name(cfa.target(e)) == to) return cfa.operation(e);
    FAIL("no edge " << from << " -> " << to);
    return Skip{};
  };
  ops = {edge_op("N1", "N2"), edge_op("N2", "N3"), edge_op("N3", "N5"), edge_op("N5", "N6"),
         edge_op("N6", "ERR")};
  auto itps = explicit_interpolants(ops);
  REQUIRE(itps.infeasible);
  // Gamma at N2, N3, N5 is {a = 0}; after `assume a /= 0` it is false.
  for (std::size_t i : {1, 2, 3}) {
    CHECK(itps.interpolants[i].size() == 1);
    CHECK(itps.interpolants[i].get(a) == 0);
  }
  CHECK(itps.interpolants[4].is_bottom());
  auto pi = explicit_refine(itps);
  REQUIRE(pi.size() == 3);
  for (const auto& [i, vars] : pi) CHECK(vars == VariableSet{a});

  // Location granularity needs a second refinement for the path through N4; scoped
  // precision (III-F) adds a everywhere at once.
  CegarOptions loc;
  loc.granularity = Granularity::Location;
  auto r1 = CEGAR<Expl>(cfa, loc).run();
  CHECK(r1.verdict == Verdict::Safe);
  CHECK(r1.stats.refinements == 2);
  CegarOptions scoped;
  scoped.granularity = Granularity::Scope;
  auto r2 = CEGAR<Expl>(cfa, scoped).run();
  CHECK(r2.verdict == Verdict::Safe);
  CHECK(r2.stats.refinements == 1);
}

TEST_CASE("LocalPrecision: an increment every location has already changes nothing") {
  // add() under Global, Function and Scope granularity adds an increment to every
  // location (of a function) once; the second time it is below what they all hold.
  Cfa cfa = fig1();
  const VarId flag = cfa.exprs().find("flag")->id, ticks = cfa.exprs().find("ticks")->id;
  const Loc n = static_cast<Loc>(cfa.num_locations());
  for (auto g : {Granularity::Global, Granularity::Function, Granularity::Scope}) {
    CAPTURE(to_string(g));
    LocalPrecision<VariableSet> p(cfa, g);
    CHECK(p.add(0, VariableSet{flag}, cfa.exprs()));
    for (Loc l = 0; l < n; ++l) CHECK(p.at(l).contains(flag));
    CHECK_FALSE(p.add(n - 1, VariableSet{flag}, cfa.exprs()));
    CHECK(p.add(n - 1, VariableSet{flag, ticks}, cfa.exprs()));
    for (Loc l = 0; l < n; ++l) CHECK(p.at(l).contains(ticks));
    // A join keeps what every location holds: adding it again changes nothing.
    LocalPrecision<VariableSet> q(cfa, g);
    LocalPrecision<VariableSet> j = q.join(p);
    CHECK_FALSE(j.add(1, VariableSet{ticks}, cfa.exprs()));
    CHECK(j.total_size() == p.total_size());
  }
  // Location granularity adds at the one location only.
  LocalPrecision<VariableSet> loc(cfa, Granularity::Location);
  CHECK(loc.add(1, VariableSet{flag}, cfa.exprs()));
  CHECK(loc.at(1).contains(flag));
  CHECK_FALSE(loc.at(0).contains(flag));
  CHECK(loc.add(0, VariableSet{flag}, cfa.exprs()));
}

}  // namespace cegar_test
