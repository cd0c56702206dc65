// The explicit x predicate product with value enumeration and the STATE / PATH / ARG
// strategies (product-abstraction paper, chapter 3).
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../support/certified.hpp"
#include "../support/model_suite.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/domains/product/strategy_product.hpp"
#include "precis/domains/product/value_enumeration.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/strategy_product_refiner.hpp"

using namespace precis;

namespace product_strategies_test {

namespace {

struct Run {
  VerificationResult result;
  std::shared_ptr<StrategyControl> control;
};

template <class Strategy>
Run run_prod(const Cfa& cfa, std::size_t k, double time_limit = 60) {
  auto control = std::make_shared<StrategyControl>(k);
  CegarOptions o;
  o.time_limit_s = time_limit;
  using A = StrategyProduct<Strategy>;
  CEGAR<A> cegar(cfa, o, A(cfa, control), StrategyProductRefiner<>(cfa, control));
  Run r{testing::certified(cfa, cegar, cegar.run()), control};
  return r;
}

Cfa model(const std::string& rel) { return read_cfa_file(std::string(PRECIS_TEST_MODELS) + rel); }

VarId var(const Cfa& cfa, const std::string& name) {
  const ExprManager& em = cfa.exprs();
  for (VarId v = 0; v < em.num_vars(); ++v)
    if (em.variable(v).name == name) return v;
  FAIL("no variable " << name);
  return 0;
}

bool has_predicate(const StrategyControl& c, VarId x, const Cfa& cfa, const std::string& text) {
  auto it = c.predicates().find(x);
  if (it == c.predicates().end()) return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](Term p) { return to_string(p, cfa.exprs()) == text; });
}

template <class Strategy>
void check_suite(const std::string& dir, std::size_t k) {
  for (const auto& m : testing::read_verdicts(dir + "verdicts.tsv")) {
    if (m.verdict == "NONE") continue;
    CAPTURE(m.name);
    CAPTURE(Strategy::name);
    Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
    auto r = run_prod<Strategy>(cfa, k);
    CAPTURE(r.result.reason);
    CHECK(r.result.verdict == (m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe));
    if (r.result.verdict == Verdict::Unsafe) {
      REQUIRE(r.result.counterexample);
      CHECK(r.result.counterexample->steps.back().to == cfa.name(*cfa.error_location()));
    }
  }
}

}  // namespace

TEST_CASE("value enumeration: x /= 1 stops at k + 1 values, x = 1 gives one value") {
  Cfa cfa = model("/pred_fig3_1_safe.cfa");
  const VarId x = var(cfa, "x");
  ExprManager& em = cfa.exprs();
  ValueEnumerator en(em);
  const auto tracked = [&](VarId v) { return v == x; };
  const std::size_t k = 3;
  const auto exceeds = [&](VarId, const std::vector<std::int64_t>& vs) { return vs.size() > k; };

  // x /= 1 with x tracked and unknown: infinitely many values, stops after k + 1.
  auto neq = en.successors(ExplicitState{}, Operation{Assume{em.neq(em.var(x), em.int_val(1))}},
                           tracked, exceeds);
  CHECK(neq.enumerated);
  REQUIRE(neq.exceeded.size() == 1);
  CHECK(neq.exceeded[0] == x);
  CHECK(neq.successors.size() == k + 1);
  for (const auto& s : neq.successors) CHECK(s.get(x) != std::optional<std::int64_t>(1));

  // x = 1: the plain transfer binds x (no solver).
  auto eq = en.successors(ExplicitState{}, Operation{Assume{em.eq(em.var(x), em.int_val(1))}},
                          tracked, exceeds);
  CHECK_FALSE(eq.enumerated);
  REQUIRE(eq.successors.size() == 1);
  CHECK(eq.successors[0].get(x) == std::optional<std::int64_t>(1));

  // 0 < x < 4: exactly the values 1, 2, 3, each its own successor.
  Term range = em.and_(em.lt(em.int_val(0), em.var(x)), em.lt(em.var(x), em.int_val(4)));
  auto r = en.successors(ExplicitState{}, Operation{Assume{range}}, tracked, exceeds);
  CHECK(r.enumerated);
  CHECK(r.exceeded.empty());
  std::vector<std::int64_t> values;
  for (const auto& s : r.successors) values.push_back(*s.get(x));
  std::sort(values.begin(), values.end());
  CHECK(values == std::vector<std::int64_t>{1, 2, 3});

  // An untracked x: no enumeration, x stays unknown.
  auto off = en.successors(
      ExplicitState{}, Operation{Assume{range}}, [](VarId) { return false; }, exceeds);
  CHECK_FALSE(off.enumerated);
  REQUIRE(off.successors.size() == 1);
  CHECK_FALSE(off.successors[0].has(x));
}

TEST_CASE("value enumeration: an assignment from an untracked variable") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Int);
  const VarId y = em.declare("y", Type::Int);
  ValueEnumerator en(em);
  const auto tracked = [&](VarId v) { return v == x; };
  const auto exceeds = [](VarId, const std::vector<std::int64_t>& vs) { return vs.size() > 5; };
  // x := y mod 3 with y untracked: x in {0, 1, 2}.
  auto r = en.successors(ExplicitState{}, Operation{Assign{x, em.mod(em.var(y), em.int_val(3))}},
                         tracked, exceeds);
  CHECK(r.enumerated);
  CHECK(r.exceeded.empty());
  std::vector<std::int64_t> values;
  for (const auto& s : r.successors) {
    CHECK_FALSE(s.has(y));
    values.push_back(*s.get(x));
  }
  std::sort(values.begin(), values.end());
  CHECK(values == std::vector<std::int64_t>{0, 1, 2});
  // The same question again is answered from the cache.
  auto again = en.successors(
      ExplicitState{}, Operation{Assign{x, em.mod(em.var(y), em.int_val(3))}}, tracked, exceeds);
  CHECK(again.successors.size() == 3);
  CHECK(en.stats().cache_hits == 1);
}

TEST_CASE("STATE: the enumeration of x /= 1 restarts without x, x joins the dropouts") {
  Cfa cfa = model("/pred_fig3_1_safe.cfa");
  const VarId x = var(cfa, "x");
  auto control = std::make_shared<StrategyControl>(2);
  ProdState a(cfa, control);
  auto pi = a.initial_precision(Granularity::Global);
  // Track x (as the first refinement of Fig. 3.1 does).
  ProductIncrement<LeveledVariables, PredicateSet> inc;
  std::get<0>(inc.parts) = LeveledVariables{x};
  pi.add(0, inc, cfa.exprs());
  // The edge x = 1 first (the plain transfer binds x), then x /= 1: three values are
  // found, x is dropped and the enumeration restarts: one successor, x unknown.
  std::vector<EdgeRef> edges;
  for (auto e : cfa.out_edges(cfa.initial_location())) edges.push_back(cfa.ref(e));
  std::sort(edges.begin(), edges.end(), [&](const EdgeRef& a, const EdgeRef& b) {
    return (to_string(a.operation(), cfa.exprs()) == "assume x = 1") >
           (to_string(b.operation(), cfa.exprs()) == "assume x = 1");
  });
  REQUIRE(edges.size() == 2);
  std::vector<ProdState::element> succ;
  a.successors(a.initial_element(), edges[0], pi, [&](auto&& s) { succ.push_back(s); });
  REQUIRE(succ.size() == 1);
  CHECK(succ[0].get<0>().get(x) == std::optional<std::int64_t>(1));
  CHECK(control->dropouts().empty());
  succ.clear();
  a.successors(a.initial_element(), edges[1], pi, [&](auto&& s) { succ.push_back(s); });
  REQUIRE(succ.size() == 1);
  CHECK_FALSE(succ[0].get<0>().has(x));
  CHECK(control->dropouts() == std::vector<VarId>{x});
  CHECK(control->restarts() == 1);
  CHECK(a.enumerator().stats().models == 3);
}

TEST_CASE("the paper's Fig. 3.1: x dropped, a predicate on x, for every strategy") {
  Cfa cfa = model("/pred_fig3_1_safe.cfa");
  const VarId x = var(cfa, "x");
  auto check = [&](const Run& r) {
    CAPTURE(r.result.reason);
    CHECK(r.result.verdict == Verdict::Safe);
    CHECK(r.control->dropouts() == std::vector<VarId>{x});
    REQUIRE(r.control->predicates().count(x) == 1);
    CHECK(r.control->predicates().at(x).size() >= 1);
  };
  check(run_prod<StateStrategy>(cfa, 5));
  check(run_prod<PathStrategy>(cfa, 5));
  check(run_prod<ArgStrategy>(cfa, 5));
}

TEST_CASE("the paper's Fig. 3.3: x dropped and proved with x > 1000, every strategy") {
  // PATH and ARG drop x after k values; STATE after its path safeguard (k * 64 = 320
  // values on the path): x := x + 1 has one successor per state.
  Cfa cfa = model("/product/fig3_3_safe.cfa");
  const VarId x = var(cfa, "x");
  for (const Run& r : {run_prod<PathStrategy>(cfa, 5), run_prod<ArgStrategy>(cfa, 5),
                       run_prod<StateStrategy>(cfa, 5)}) {
    CAPTURE(r.result.reason);
    CHECK(r.result.verdict == Verdict::Safe);
    CHECK(r.control->dropouts() == std::vector<VarId>{x});
    // x > 1000, as Farkas interpolation states it over the integers.
    CHECK((has_predicate(*r.control, x, cfa, "x > 1000") ||
           has_predicate(*r.control, x, cfa, "x >= 1001")));
    CHECK(r.result.stats.refinements <= 3);
  }
  // With k = 32, STATE keeps x explicit (1001 < 32 * 64 values): the explicit values
  // prove it as the explicit analysis alone does.
  auto s = run_prod<StateStrategy>(cfa, 32);
  CHECK(s.result.verdict == Verdict::Safe);
  CHECK(s.control->dropouts().empty());
}

TEST_CASE("never weaker than explicit values: the counter loop, every strategy and k") {
  // x counts to 1000 and is checked: PATH and ARG drop x at any small k, predicates
  // unroll, and the refused explicit refutations bring x back with a larger limit.
  Cfa cfa = model("/product/counter_1000_safe.cfa");
  for (std::size_t k : {1, 2, 5, 8, 32}) {
    CAPTURE(k);
    for (const Run& r : {run_prod<StateStrategy>(cfa, k, 30), run_prod<PathStrategy>(cfa, k, 30),
                         run_prod<ArgStrategy>(cfa, k, 30)}) {
      CAPTURE(r.result.reason);
      CHECK(r.result.verdict == Verdict::Safe);
      CHECK(r.result.stats.refinements <= 16);
    }
  }
}

TEST_CASE("the refiner keeps only predicates of dropped variables; dropouts stay out") {
  // relational_needs_predicates: i and j count to a havocked n; explicit values unroll,
  // the counters are dropped and the predicates on them prove i = j.
  Cfa cfa = model("/relational_needs_predicates.cfa");
  for (const Run& r : {run_prod<StateStrategy>(cfa, 5), run_prod<PathStrategy>(cfa, 5),
                       run_prod<ArgStrategy>(cfa, 5)}) {
    CAPTURE(r.result.reason);
    CHECK(r.result.verdict == Verdict::Safe);
    for (const auto& [v, ps] : r.control->predicates()) {
      CHECK(r.control->ever_dropped().contains(v));
      for (Term p : ps) {
        std::vector<VarId> vs;
        collect_vars(p, vs);
        CHECK(std::find(vs.begin(), vs.end(), v) != vs.end());
      }
    }
  }
}

TEST_CASE("STATE, PATH and ARG decide every bundled model correctly" *
          doctest::test_suite("sweep")) {
  for (const std::string& dir :
       {std::string(PRECIS_TASKS) + "/theta/", std::string(PRECIS_TEST_MODELS) + "/",
        std::string(PRECIS_TEST_MODELS) + "/product/"}) {
    check_suite<StateStrategy>(dir, 5);
    check_suite<PathStrategy>(dir, 5);
    check_suite<ArgStrategy>(dir, 5);
  }
}

TEST_CASE("the ARG strategy's cache follows the ARG (add, prune, restart)") {
  Cfa cfa = model("/count_to_ten_safe.cfa");
  auto control = std::make_shared<StrategyControl>(100);
  using A = ProdArg;
  CegarOptions o;
  o.time_limit_s = 30;
  CEGAR<A> cegar(cfa, o, A(cfa, control), StrategyProductRefiner<>(cfa, control));
  auto r = cegar.run();
  CHECK(r.verdict == Verdict::Safe);
  // Recount the live ARG's distinct values per variable and compare with the cache.
  const ExprManager& em = cfa.exprs();
  for (VarId v = 0; v < em.num_vars(); ++v) {
    std::vector<std::int64_t> vs;
    cegar.arg().for_each_live([&](const auto* n) {
      if (auto x = n->element.template get<0>().get(v)) vs.push_back(*x);
    });
    std::sort(vs.begin(), vs.end());
    vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
    CAPTURE(em.variable(v).name);
    CHECK(cegar.analysis().strategy().values_in_arg(v) == vs.size());
  }
}

TEST_CASE("a type range after a havoc is a havoc, not a choice among 2^32 values") {
  // The C front end writes `int lk;` as havoc lk; assume INT_MIN <= lk <= INT_MAX.
  // Enumerating it would drop every uninitialized variable at once (the locks family:
  // all lk_i went to predicates). The range leaves lk unknown and tracked; a narrow
  // range is still a choice among its values.
  Cfa cfa = parse_cfa(R"(
main process ranges {
    var lk : int
    var p : int
    init loc L0
    loc L1
    loc L2
    loc L3
    final loc END
    error loc ERR
    L0 -> L1 { havoc lk  assume -2147483648 <= lk and lk <= 2147483647 }
    L1 -> L2 { lk := 1  havoc p  assume 0 <= p and p <= 2 }
    L2 -> L3 { assume p /= 7 }
    L3 -> ERR { assume lk /= 1 }
    L3 -> END { assume lk = 1 }
}
)",
                      "ranges.cfa");
  ValueEnumerator en(cfa.exprs());
  auto& em = cfa.exprs();
  const VarId lk = var(cfa, "lk");
  const VarId p = var(cfa, "p");
  CHECK(en.is_wide_range(em.and_(em.le(em.int_val(-2147483648LL), em.var(lk)),
                                 em.le(em.var(lk), em.int_val(2147483647)))));
  CHECK_FALSE(
      en.is_wide_range(em.and_(em.le(em.int_val(0), em.var(p)), em.le(em.var(p), em.int_val(2)))));
  CHECK_FALSE(en.is_wide_range(em.neq(em.var(p), em.int_val(1))));  // Fig. 3.1: a choice
  const auto all = [](VarId) { return true; };
  const auto never = [](VarId, const std::vector<std::int64_t>&) { return false; };
  auto wide = en.successors(ExplicitState{},
                            Operation{Assume{em.and_(em.le(em.int_val(-2147483648LL), em.var(lk)),
                                                     em.le(em.var(lk), em.int_val(2147483647)))}},
                            all, never);
  REQUIRE(wide.successors.size() == 1);
  CHECK_FALSE(wide.successors[0].has(lk));
  CHECK(en.stats().ranges == 1);
  auto narrow = en.successors(
      ExplicitState{},
      Operation{Assume{em.and_(em.le(em.int_val(0), em.var(p)), em.le(em.var(p), em.int_val(2)))}},
      all, never);
  CHECK(narrow.successors.size() == 3);

  // End to end: lk stays explicit (it is all the proof needs); p has 3 values, within k.
  for (const Run& r : {run_prod<StateStrategy>(cfa, 5), run_prod<PathStrategy>(cfa, 5),
                       run_prod<ArgStrategy>(cfa, 5)}) {
    CAPTURE(r.result.reason);
    CHECK(r.result.verdict == Verdict::Safe);
    CHECK(r.control->dropouts().empty());
  }
}

TEST_CASE("a reinstated variable's larger limit does not widen one enumeration") {
  // havoc x; assume x /= 1 has unboundedly many values: at every level the enumeration
  // stops after k + 1 models (the solver is not asked for k * 8^level of them).
  Cfa cfa = model("/pred_fig3_1_safe.cfa");
  const VarId x = var(cfa, "x");
  StrategyOptions o;
  o.k = 2;
  o.patience = 0;
  auto control = std::make_shared<StrategyControl>(o);
  CHECK(control->refuse(x));  // x at level 1: limit 16
  CHECK(control->refuse(x));  // level 2: limit 128
  CHECK(control->limit(control->level(x)) == 128);
  CegarOptions co;
  co.time_limit_s = 30;
  using A = StrategyProduct<ArgStrategy>;
  A a(cfa, control);
  CEGAR<A> cegar(cfa, co, a, StrategyProductRefiner<>(cfa, control));
  auto r = cegar.run();
  CHECK(r.verdict == Verdict::Safe);
  CHECK(a.enumerator().stats().models <= 3 * (o.k + 1));
}

}  // namespace product_strategies_test
