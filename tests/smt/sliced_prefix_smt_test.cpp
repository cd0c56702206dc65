// Infeasible sliced prefixes with the SMT back end (sliced-prefixes paper, Alg. 3, one
// incremental cvc5 pass), the paper's proposition (III-B1) checked by the solver on
// generated paths, and refinement selection (Alg. 4) around the predicate refiner, the
// explicit refiner with SMT, and the explicit x predicate product.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/certified.hpp"
#include "../support/model_suite.hpp"
#include "../support/sliced_paths.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_interpolation.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/farkas_interpolation.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/product_refiner.hpp"
#include "precis/refine/refinement_selection.hpp"
#include "precis/refine/sliced_prefixes.hpp"
#include "precis/refine/sliced_prefixes_smt.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"
#include "precis/smt/path_formula.hpp"

using namespace precis;

namespace sliced_prefix_smt_test {

namespace {

static_assert(std::same_as<prefix_provider_t<PredicateRefiner>, SmtPrefixes>);
static_assert(std::same_as<prefix_provider_t<ExplicitSmtRefiner>, ExplicitPrefixes>);
static_assert(Refiner<SelectingRefiner<PredicateRefiner>>);
static_assert(Refiner<SelectingRefiner<ExplicitSmtRefiner>>);
static_assert(Refiner<SelectingProductRefiner<PrefixSelection, ExplicitRefiner, PredicateRefiner>>);
static_assert(Refiner<SelectingRefiner<ProductRefiner<ExplicitRefiner, PredicateRefiner>>>);

using ExplPred = ProductDomain<Expl, Pred>;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Cfa fig2(long bound) {
  std::string text = read_text(std::string(PRECIS_TEST_MODELS) + "/sliced_fig2_safe.cfa");
  for (const char* edge : {"assume i < ", "assume i >= "}) {
    const std::string from = std::string(edge) + "10 }";
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), std::string(edge) + std::to_string(bound) + " }");
  }
  return parse_cfa(text, "sliced_fig2_safe.cfa");
}

// A solver over the SSA copies of a generated path's variables.
struct Smt {
  explicit Smt(const Cfa& cfa) : ssa(*cfa.expr_manager()), solver(ssa.ssa()) {}
  SsaVars ssa;
  Cvc5Solver solver;
};

// An explicit interpolant as a term: the conjunction of its bindings (false for bottom).
Term as_term(ExprManager& em, const ExplicitState& s) {
  if (s.is_bottom()) return em.false_();
  std::vector<Term> cs;
  for (const auto& [x, v] : s.values())
    cs.push_back(em.variable(x).type == Type::Bool ? (v ? em.var(x) : em.not_(em.var(x)))
                                                   : em.eq(em.var(x), em.int_val(v)));
  if (cs.empty()) return em.true_();
  return cs.size() == 1 ? cs.front() : em.mk(Op::And, cs);
}

template <class A, class R>
VerificationResult verify(const Cfa& cfa, A analysis, R refiner, Granularity g = Granularity::Scope,
                          double time_limit = 30) {
  CegarOptions o;
  o.granularity = g;
  o.time_limit_s = time_limit;
  CEGAR<A, R> cegar(cfa, o, std::move(analysis), std::move(refiner));
  connect_precision(cegar.refiner(), cegar.current_precision());
  return testing::certified(cfa, cegar, cegar.run());
}

PrefixSelection domain(const Cfa& cfa) { return parse_prefix_selection("domain", cfa); }

}  // namespace

TEST_CASE("SMT sliced prefixes: k independent contradictions give exactly k prefixes") {
  for (std::size_t k = 1; k <= 5; ++k) {
    for (std::uint32_t seed = 0; seed < 4; ++seed) {
      for (bool mixed : {false, true}) {
        CAPTURE(k);
        CAPTURE(seed);
        CAPTURE(mixed);
        const auto g = testing::generate_path(k, seed * 31 + static_cast<std::uint32_t>(k),
                                              testing::ContradictionKind::Range, mixed);
        const ErrorPath path = g.path();
        SmtPrefixes provider(g.cfa);
        const auto prefixes = provider.extract(path);
        REQUIRE(prefixes.size() == k);
        // One incremental pass: one check per assume, nothing else.
        std::size_t assumes = 0;
        for (const auto& op : g.ops) assumes += std::holds_alternative<Assume>(op);
        CHECK(provider.solver_stats().checks == assumes);
        Smt smt(g.cfa);
        for (std::size_t p = 0; p < k; ++p) {
          CAPTURE(p);
          const SlicedPrefix& sp = prefixes[p];
          CHECK(sp.end == g.contradictions[p]);
          REQUIRE(sp.length() == sp.end + 1);
          CHECK(sp.path.steps.back().op == path.steps[sp.end].op);
          CHECK(sp.sliced ==
                std::vector<std::size_t>(g.contradictions.begin(), g.contradictions.begin() + p));
          for (std::size_t s : sp.sliced) CHECK(std::holds_alternative<Skip>(*sp.path.steps[s].op));
          const auto ops = sp.path.operations();
          CHECK(check_path_feasibility(smt.ssa, ops, smt.solver).infeasible());
          CHECK(
              check_path_feasibility(smt.ssa, std::span(ops).first(sp.end), smt.solver).feasible());
        }
        // The explicit back end sees only the explicit contradictions.
        CHECK(ExplicitPrefixes().extract(path).size() <= k);
      }
    }
  }
}

TEST_CASE("the proposition: interpolants of a sliced prefix are interpolants of the path") {
  // III-B1, checked by cvc5 over the ORIGINAL path's steps: I_0 = true,
  // I_i /\ step_i => I_{i+1}, I_n = false (and the shared-variable condition), with the
  // prefix's sequence extended by false past its end.
  int checked = 0;
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    const std::size_t k = 2 + seed % 4;
    CAPTURE(seed);
    const auto g = testing::generate_path(k, 1000 + seed, testing::ContradictionKind::Range,
                                          /*mixed=*/seed % 2 == 1);
    const ErrorPath path = g.path();
    Smt smt(g.cfa);
    const auto prefixes = SmtPrefixes(g.cfa).extract(path);
    REQUIRE(prefixes.size() == k);
    for (const auto& sp : prefixes) {
      CAPTURE(sp.end);
      const auto ops = sp.path.operations();
      auto itps = interpolate_path(smt.ssa, ops, smt.solver);
      REQUIRE(itps.has_value());
      std::vector<Term> seq = itps->interpolants;
      REQUIRE(seq.size() == ops.size() + 1);
      CHECK(check_interpolant_sequence(smt.ssa, ops, seq, smt.solver).empty());
      while (seq.size() < g.ops.size() + 1) seq.push_back(g.cfa.expr_manager()->false_());
      const std::string err = check_interpolant_sequence(smt.ssa, g.ops, seq, smt.solver);
      CHECK_MESSAGE(err.empty(), err);
      ++checked;
    }
    // The explicit back end and explicit interpolants, checked by the solver too.
    for (const auto& sp : ExplicitPrefixes().extract(path)) {
      const auto itps = explicit_interpolants(sp.path.operations());
      REQUIRE(itps.infeasible);
      std::vector<Term> seq;
      for (const auto& s : itps.interpolants) seq.push_back(as_term(*g.cfa.expr_manager(), s));
      while (seq.size() < g.ops.size() + 1) seq.push_back(g.cfa.expr_manager()->false_());
      const std::string err = check_interpolant_sequence(smt.ssa, g.ops, seq, smt.solver);
      CHECK_MESSAGE(err.empty(), err);
      ++checked;
    }
  }
  CHECK(checked > 40);
}

TEST_CASE("predicate analyses with selection: Fig. 2 without unrolling") {
  std::vector<std::size_t> carts, bools;
  for (long bound : {10L, 50L}) {
    CAPTURE(bound);
    Cfa cfa = fig2(bound);
    auto cart = verify(cfa, PredCart(cfa),
                       SelectingRefiner<PredicateRefiner>(cfa, PredicateRefiner(cfa), domain(cfa)));
    auto boo = verify(cfa, PredBool(cfa),
                      SelectingRefiner<PredicateRefiner>(cfa, PredicateRefiner(cfa), domain(cfa)));
    for (const auto* r : {&cart, &boo}) {
      CHECK(r->verdict == Verdict::Safe);
      CHECK(r->stats.refinements == 1);
      CHECK(r->stats.arg_nodes < 20);
      CHECK(r->stats.extra.at("sliced prefixes (pred): min per refinement") == 2);
      CHECK(r->stats.extra.at("sliced prefixes (pred): chosen index (last)") == 1);
    }
    carts.push_back(cart.stats.arg_nodes);
    bools.push_back(boo.stats.arg_nodes);
  }
  CHECK(carts[0] == carts[1]);
  CHECK(bools[0] == bools[1]);
}

TEST_CASE("expl+pred with selection in both components: Fig. 2 and the 10^6 bound") {
  std::vector<std::size_t> sizes;
  for (const std::string& file :
       {std::string("/sliced_fig2_safe.cfa"), std::string("/large/sliced_fig2_1e6_safe.cfa")}) {
    Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + file);
    auto r = verify(
        cfa, ExplPred(Expl(cfa, 64), Pred(cfa)),
        make_selecting_product(cfa, domain(cfa), ExplicitRefiner(cfa), PredicateRefiner(cfa)));
    CHECK(r.verdict == Verdict::Safe);
    CHECK(r.stats.refinements == 1);
    CHECK(r.stats.extra.at("sliced prefixes (expl): chosen index (last)") == 1);
    CHECK(r.stats.extra.count("sliced prefixes (pred): refinements") == 0);
    sizes.push_back(r.stats.arg_nodes);
  }
  CHECK(sizes[0] == sizes[1]);
  // The wrapper around the whole product refiner: explicit prefixes, product increments.
  Cfa cfa = fig2(1000000);
  auto w = verify(cfa, ExplPred(Expl(cfa, 64), Pred(cfa)),
                  SelectingRefiner<ProductRefiner<ExplicitRefiner, PredicateRefiner>>(
                      cfa, ProductRefiner<ExplicitRefiner, PredicateRefiner>(cfa), domain(cfa)));
  CHECK(w.verdict == Verdict::Safe);
  CHECK(w.stats.refinements == 1);
  CHECK(w.stats.arg_nodes == sizes[0]);
}

TEST_CASE("expl (SMT check) with selection: Fig. 2, and other paths as the inner reports") {
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/large/sliced_fig2_1e6_safe.cfa");
  auto r = verify(cfa, Expl(cfa),
                  SelectingRefiner<ExplicitSmtRefiner>(cfa, ExplicitSmtRefiner(cfa), domain(cfa)));
  CHECK(r.verdict == Verdict::Safe);
  CHECK(r.stats.refinements == 1);
  // Infeasible only by SMT (ranges): no explicit prefix, the inner's Unknown and reason.
  const auto g = testing::generate_path(3, 5, testing::ContradictionKind::Range);
  SelectingRefiner<ExplicitSmtRefiner> sel(g.cfa, ExplicitSmtRefiner(g.cfa), domain(g.cfa));
  ExplicitSmtRefiner inner(g.cfa);
  Statistics st;
  const auto a = sel.refine(g.path(), st);
  const auto b = inner.refine(g.path(), st);
  CHECK(a.kind == RefinementKind::Unknown);
  CHECK(a.reason == b.reason);
}

TEST_CASE("selection with SMT refiners on tests/models: every verdict as expected" *
          doctest::test_suite("sweep")) {
  const std::string dir = std::string(PRECIS_TEST_MODELS) + "/";
  for (const auto& m : testing::read_verdicts(dir + "verdicts.tsv")) {
    CAPTURE(m.name);
    Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
    const Verdict expected = m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe;
    // The product decides every model.
    auto p = verify(
        cfa, ExplPred(Expl(cfa, 64), Pred(cfa)),
        make_selecting_product(cfa, domain(cfa), ExplicitRefiner(cfa), PredicateRefiner(cfa)),
        Granularity::Scope, 60);
    CHECK(p.verdict == expected);
    if (p.verdict == Verdict::Unsafe) {
      REQUIRE(p.counterexample);
      CHECK(p.counterexample->steps.back().to == cfa.name(*cfa.error_location()));
    }
    // Predicate abstraction alone: never wrong (a deep loop bug may take too long).
    const bool slow = m.name == "deep_loop_bug_unsafe";
    for (const char* spec : {"domain", "all"}) {
      CAPTURE(spec);
      auto c = verify(cfa, PredCart(cfa),
                      SelectingRefiner<PredicateRefiner>(cfa, PredicateRefiner(cfa),
                                                         parse_prefix_selection(spec, cfa)),
                      Granularity::Location, slow ? 2 : 30);
      if (slow && c.verdict == Verdict::Unknown) continue;
      CHECK(c.verdict == expected);
    }
  }
}

}  // namespace sliced_prefix_smt_test
