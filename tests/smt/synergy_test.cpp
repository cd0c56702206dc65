// Synergy groundwork (issue 12): the spurious-transition check of Definition 6, the
// per-edge cluster precision, the Cartesian-meet-Boolean post, and CEGAR over the
// synergy analysis with the predicate refiner (no clusters: it behaves as PredCart).

#include <doctest/doctest.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/predicate/synergy_analysis.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/spurious_transition.hpp"
#include "precis/refine/synergy_refiner.hpp"

using namespace precis;

namespace {

Literal pos(Term p) { return Literal{p, true}; }
Literal neg(Term p) { return Literal{p, false}; }

// The predicate refiner's increments as synergy increments without clusters.
class PredicatesOnlyRefiner {
 public:
  using increment_type = SynergyIncrement;
  explicit PredicatesOnlyRefiner(const Cfa& cfa) : inner_(cfa) {}
  Refinement<SynergyIncrement> refine(const ErrorPath& path, Statistics& stats) {
    Refinement<PredicateSet> r = inner_.refine(path, stats);
    Refinement<SynergyIncrement> out;
    out.kind = r.kind;
    out.counterexample = std::move(r.counterexample);
    out.reason = std::move(r.reason);
    out.restart = r.restart;
    for (auto& [i, ps] : r.increments) out.increments.emplace_back(i, SynergyIncrement{ps, {}});
    return out;
  }

 private:
  PredicateRefiner inner_;
};
static_assert(Refiner<PredicatesOnlyRefiner>);

// The key of the (only) edge from `from` to `to`.
EdgeKey key_of(const Cfa& cfa, const EdgeIndex& idx, const std::string& from,
               const std::string& to) {
  for (CfaEdge e : cfa.edges()) {
    const EdgeRef r = cfa.ref(e);
    if (cfa.name(r.source) == from && cfa.name(r.target) == to) return idx.key(r);
  }
  FAIL("no edge " << from << " -> " << to);
  return 0;
}

EdgeRef ref_of(const Cfa& cfa, const std::string& from, const std::string& to) {
  for (CfaEdge e : cfa.edges()) {
    const EdgeRef r = cfa.ref(e);
    if (cfa.name(r.source) == from && cfa.name(r.target) == to) return r;
  }
  FAIL("no edge " << from << " -> " << to);
  return cfa.ref(*cfa.edges().begin());
}

}  // namespace

TEST_CASE("synergy: spurious transition of Definition 6 and its cluster") {
  auto em = std::make_shared<ExprManager>();
  const VarId x = em->declare("x", Type::Int);
  const VarId y = em->declare("y", Type::Int);
  const Term X = em->var(x), Y = em->var(y);
  const Term p0 = em->ge(X, em->int_val(0));  // x >= 0
  const Term p1 = em->ge(X, em->int_val(1));  // x >= 1
  const Term q = em->ge(Y, em->int_val(5));   // y >= 5 (irrelevant)
  PredicateAbstractor abs(em);
  const Operation inc = Assign{x, em->add(X, em->int_val(1))};

  // {x >= 0} x := x + 1 {not x >= 1}: spurious, the cluster is {x >= 0, x >= 1}
  bool unknown = true;
  auto c = spurious_transition(abs, PredicateState::of_cube({pos(p0)}), inc,
                               PredicateState::of_cube({neg(p1)}), &unknown);
  CHECK_FALSE(unknown);
  REQUIRE(c.has_value());
  CHECK(*c == PredicateSet{p0, p1});

  // an irrelevant literal on either side stays out of the core
  c = spurious_transition(abs, PredicateState::of_cube({pos(p0), pos(q)}), inc,
                          PredicateState::of_cube({neg(p1), pos(q)}));
  REQUIRE(c.has_value());
  CHECK(*c == PredicateSet{p0, p1});

  // {x >= 0} x := x + 1 {x >= 1}: a concrete transition exists
  unknown = true;
  CHECK_FALSE(spurious_transition(abs, PredicateState::of_cube({pos(p0)}), inc,
                                  PredicateState::of_cube({pos(p1)}), &unknown)
                  .has_value());
  CHECK_FALSE(unknown);
  // top -> top is never spurious for a feasible operation
  CHECK_FALSE(spurious_transition(abs, PredicateState::top(), inc, PredicateState::top()));

  // a predicate the operation does not write keeps its value: {y >= 5} x := x + 1
  // {not y >= 5} is spurious with the cluster {y >= 5}
  c = spurious_transition(abs, PredicateState::of_cube({pos(q)}), inc,
                          PredicateState::of_cube({neg(q)}));
  REQUIRE(c.has_value());
  CHECK(*c == PredicateSet{q});

  // an assume: pre and post over the same copies
  c = spurious_transition(abs, PredicateState::of_cube({neg(p0)}), Assume{p1},
                          PredicateState::top());
  REQUIRE(c.has_value());
  CHECK(*c == PredicateSet{p0});

  // a non-cube (Boolean) pre-state is one assumption: all its predicates in the cluster
  auto dnf = PredicateState::of_cubes({{pos(p1), pos(q)}, {pos(p0), neg(q)}});
  REQUIRE_FALSE(dnf.is_cube());
  auto t = check_transition(abs, dnf, inc, PredicateState::of_cube({neg(p1)}));
  CHECK(t.result == SatResult::Unsat);
  CHECK(t.spurious());
  CHECK(t.cluster == PredicateSet{p0, p1, q});

  // the abstractor's solver is left as it was: its posts still work
  CHECK(abs.post(PredicateState::of_cube({pos(p0)}), inc, PredicateSet{p1},
                 AbstractionMode::Cartesian) == PredicateState::of_cube({pos(p1)}));
}

TEST_CASE("synergy: meet of predicate states") {
  auto em = std::make_shared<ExprManager>();
  const Term a = em->var(em->declare("a", Type::Bool));
  const Term b = em->var(em->declare("b", Type::Bool));
  const Term c = em->var(em->declare("c", Type::Bool));
  const auto cube = PredicateState::of_cube({pos(a)});
  const auto dnf = PredicateState::of_cubes({{pos(b)}, {neg(a), pos(c)}});
  CHECK(meet_states(cube, dnf) == PredicateState::of_cube({pos(a), pos(b)}));
  CHECK(meet_states(cube, PredicateState::top()) == cube);
  CHECK(meet_states(cube, PredicateState::bottom()).is_bottom());
  CHECK(meet_states(cube, PredicateState::of_cube({neg(a)})).is_bottom());
  SynergyDomain d;
  const auto m = d.meet(PredicateState::of_cube({pos(c)}), dnf);
  CHECK(m == PredicateState::of_cubes({{pos(b), pos(c)}, {neg(a), pos(c)}}));
  CHECK(d.leq(m, dnf));
}

TEST_CASE("synergy: SynergyPrecision add, clusters per edge, leq, join, pivot view") {
  CfaBuilder bld;
  auto& e = bld.exprs();
  const VarId x = bld.int_var("x");
  const Term X = bld.ref(x);
  bld.edge("L0", "L1", Assign{x, e.int_val(0)});
  bld.edge("L1", "L2", Assume{e.lt(X, e.int_val(3))});
  bld.edge("L2", "L1", Assign{x, e.add(X, e.int_val(1))});
  bld.edge("L1", "ERR", Assume{e.gt(X, e.int_val(3))});
  bld.initial("L0");
  bld.error("ERR");
  Cfa cfa = std::move(bld).build();
  ExprManager& em = cfa.exprs();
  const Term p = em.lt(X, em.int_val(3)), q = em.gt(X, em.int_val(3)), r = em.ge(X, em.int_val(0));

  const SynergyPrecision pi0(cfa, Granularity::Location);
  const EdgeIndex& idx = pi0.edges();
  REQUIRE(idx.size() == 4);
  const EdgeKey k = key_of(cfa, idx, "L2", "L1");
  const EdgeKey k2 = key_of(cfa, idx, "L0", "L1");
  CHECK(idx.source(k) == ref_of(cfa, "L2", "L1").source);
  CHECK(idx.target(k) == ref_of(cfa, "L2", "L1").target);
  const Loc l1 = idx.target(k), l2 = idx.source(k);
  CHECK(idx.entering(l1).size() == 2);

  SynergyPrecision pi = pi0;
  CHECK(pi.add(l2, SynergyIncrement{PredicateSet{p}, {{k, PredicateSet{p, q}}}}, em));
  CHECK(pi.predicates(l2) == PredicateSet{p});
  CHECK(pi.predicates(l1).empty());  // location granularity
  REQUIRE(pi.clusters(k).size() == 1);
  CHECK(pi.clusters(k)[0] == PredicateSet{p, q});
  CHECK(pi.clusters(k2).empty());
  // the same again, or a contained cluster: nothing changes
  CHECK_FALSE(pi.add(l2, SynergyIncrement{PredicateSet{p}, {{k, PredicateSet{p, q}}}}, em));
  CHECK_FALSE(pi.add(l1, SynergyIncrement{{}, {{k, PredicateSet{q}}}}, em));
  CHECK(pi.clusters(k).size() == 1);
  // a superset replaces the cluster it contains; an unrelated one is added
  CHECK(pi.add(l1, SynergyIncrement{{}, {{k, PredicateSet{p, q, r}}}}, em));
  REQUIRE(pi.clusters(k).size() == 1);
  CHECK(pi.clusters(k)[0] == PredicateSet{p, q, r});
  CHECK(pi.add(l1, SynergyIncrement{{}, {{k, PredicateSet{em.eq(X, em.int_val(7))}}}}, em));
  CHECK(pi.clusters(k).size() == 2);

  // leq / join
  CHECK(pi0.leq(pi));
  CHECK_FALSE(pi.leq(pi0));
  CHECK(pi.leq(pi));
  const SynergyPrecision j = pi0.join(pi);
  CHECK(j.leq(pi));
  CHECK(pi.leq(j));
  SynergyPrecision other = pi0;
  other.add_cluster(k2, PredicateSet{r});
  CHECK_FALSE(other.leq(pi));
  CHECK_FALSE(pi.leq(other));
  const SynergyPrecision both = pi.join(other);
  CHECK(pi.leq(both));
  CHECK(other.leq(both));
  CHECK(both.clusters(k2).size() == 1);

  // the pivot view: clusters count at the edge's target, predicates at their location
  CHECK_FALSE(pi.at(l1).leq(pi0.at(l1)));  // clusters of L2 -> L1
  CHECK_FALSE(pi.at(l2).leq(pi0.at(l2)));  // predicate p
  CHECK(pi0.at(l1).leq(pi.at(l1)));
  const Loc err = idx.target(key_of(cfa, idx, "L1", "ERR"));
  CHECK(pi.at(err).leq(pi0.at(err)));

  // statistics: clusters per edge
  const ClusterStats cs = both.cluster_stats();
  CHECK(cs.edges == 4);
  CHECK(cs.clustered_edges == 2);
  CHECK(cs.clusters == 3);
  CHECK(cs.max_per_edge == 2);
  CHECK(cs.avg_per_edge == doctest::Approx(0.75));
  CHECK(cs.avg_per_clustered_edge == doctest::Approx(1.5));
  CHECK(cs.max_cluster_size == 3);
  Statistics st;
  both.report(st);
  CHECK(st.extra["synergy clusters per edge max"] == 2);
  CHECK(both.total_size() == 1 + 3 + 1 + 1);

  // the granularity applies to predicates only
  SynergyPrecision g(cfa, Granularity::Global);
  g.add(l2, SynergyIncrement{PredicateSet{p}, {{k, PredicateSet{p}}}}, em);
  CHECK(g.predicates(l1) == PredicateSet{p});
  CHECK(g.clusters(k2).empty());
}

TEST_CASE("synergy: without clusters the posts are PredCart's") {
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/pred_synergy_fig1a_safe.cfa");
  ExprManager& em = cfa.exprs();
  const Term X = em.var(em.find("x")->id), Y = em.var(em.find("y")->id);
  const PredicateSet preds{em.lt(X, em.int_val(0)), em.lt(X, Y), em.eq(Y, em.int_val(0))};
  PredCart cart(cfa);
  SynergyAnalysis syn(cfa);
  const auto cpi = LocalPrecision<PredicateSet>(cfa, Granularity::Global, preds);
  const auto spi = SynergyPrecision(cfa, Granularity::Global, preds);
  // explore the abstract state space of PredCart; compare every post
  std::deque<std::pair<Loc, PredicateState>> work{{cfa.initial_location(), PredicateState::top()}};
  std::size_t compared = 0, bottoms = 0;
  while (!work.empty() && compared < 100) {
    auto [l, s] = work.front();
    work.pop_front();
    for (CfaEdge e : cfa.out_edges(l)) {
      const EdgeRef r = cfa.ref(e);
      std::vector<PredicateState> a, b;
      cart.successors(s, r, cpi, [&](PredicateState&& t) { a.push_back(std::move(t)); });
      syn.successors(s, r, spi, [&](PredicateState&& t) { b.push_back(std::move(t)); });
      CHECK(a == b);
      ++compared;
      bottoms += a.empty();
      for (auto& t : a) work.emplace_back(r.target, std::move(t));
    }
  }
  CHECK(compared >= 5);
  CHECK(bottoms >= 1);  // the error edge
  CHECK(syn.stats().precise_posts == 0);
}

TEST_CASE("synergy: a cluster makes the post the Cartesian one met with the Boolean one") {
  // x = y or x = -y, and x < 0: Cartesian keeps x < 0 only; the cluster {x = y,
  // x = -y} on the edge adds the disjunction (exactly one of the two, since x /= 0).
  CfaBuilder bld;
  auto& e = bld.exprs();
  const VarId x = bld.int_var("x");
  const VarId y = bld.int_var("y");
  const Term X = bld.ref(x), Y = bld.ref(y);
  const Term p_eq = e.eq(X, Y), p_neg = e.eq(X, e.neg(Y)), p_lt = e.lt(X, e.int_val(0));
  const Term guard = e.and_(e.or_(p_eq, p_neg), p_lt);
  bld.edge("L0", "L1", Assume{guard});
  bld.edge("L1", "ERR", Assume{e.and_(e.not_(p_eq), e.not_(p_neg))});
  bld.initial("L0");
  bld.error("ERR");
  Cfa cfa = std::move(bld).build();
  ExprManager& em = cfa.exprs();

  SynergyAnalysis syn(cfa);
  const PredicateSet preds{p_eq, p_neg, p_lt};
  const EdgeRef in = ref_of(cfa, "L0", "L1");
  const EdgeRef out = ref_of(cfa, "L1", "ERR");
  SynergyPrecision pi(cfa, Granularity::Global, preds);
  const SynergyPrecision cartesian_only = pi;
  CHECK(pi.add_cluster(syn.edges().key(in), PredicateSet{p_eq, p_neg}));

  const auto top = PredicateState::top();
  const auto s = syn.post(top, in, pi);
  CHECK(syn.stats().precise_posts == 1);
  CHECK(syn.stats().precise_cache_hits == 0);
  CHECK(syn.stats().precise_strengthened == 1);

  PredicateAbstractor& abs = syn.abstractor();
  const auto cart = abs.post(top, in.operation(), preds, AbstractionMode::Cartesian);
  const auto boo =
      abs.post(top, in.operation(), PredicateSet{p_eq, p_neg}, AbstractionMode::Boolean);
  INFO("cartesian: " << to_string(cart, em) << "   boolean: " << to_string(boo, em));
  CHECK(cart == PredicateState::of_cube({pos(p_lt)}));
  CHECK(boo == PredicateState::of_cubes({{pos(p_eq), neg(p_neg)}, {neg(p_eq), pos(p_neg)}}));

  INFO("synergy: " << to_string(s, em));
  CHECK(s == meet_states(cart, boo));
  CHECK(s == PredicateState::of_cubes(
                 {{pos(p_eq), neg(p_neg), pos(p_lt)}, {neg(p_eq), pos(p_neg), pos(p_lt)}}));
  // strictly stronger than the Cartesian post (which is the post without the cluster)
  CHECK(syn.post(top, in, cartesian_only) == cart);
  CHECK(syn.domain().leq(s, cart));
  CHECK_FALSE(syn.domain().leq(cart, s));
  // and it refutes the error edge, which the Cartesian state does not
  CHECK(syn.post(s, out, pi).is_bottom());
  CHECK_FALSE(syn.post(cart, out, pi).is_bottom());
  // the edge L1 -> ERR has no cluster: only one precise post so far; then the cache
  CHECK(syn.stats().precise_posts == 1);
  CHECK(syn.post(top, in, pi) == s);
  CHECK(syn.stats().precise_posts == 2);
  CHECK(syn.stats().precise_cache_hits == 1);
  Statistics st;
  syn.report(st);
  CHECK(st.extra["synergy precise posts"] == 2);
  CHECK(st.extra["synergy precise cache hits"] == 1);
}

TEST_CASE("synergy: CEGAR with the predicate refiner and no clusters is PredCart") {
  for (const char* model :
       {"pred_fig2_4_safe", "pred_synergy_fig1a_safe", "pred_disjunction_safe"}) {
    CAPTURE(model);
    const Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/" + model + ".cfa");
    CegarOptions o;
    o.granularity = Granularity::Location;
    o.time_limit_s = 30;
    CEGAR<SynergyAnalysis, PredicatesOnlyRefiner> syn(cfa, o);
    const VerificationResult rs = syn.run();
    CEGAR<PredCart> cart(cfa, o);
    const VerificationResult rc = cart.run();
    CAPTURE(rs.reason);
    CHECK(rs.verdict == Verdict::Safe);
    CHECK(rc.verdict == Verdict::Safe);
    CHECK(rs.stats.refinements == rc.stats.refinements);
    CHECK(rs.stats.arg_nodes == rc.stats.arg_nodes);
    CHECK(rs.stats.extra.at("synergy precise posts") == 0);
    REQUIRE(syn.current_precision());
    CHECK(syn.current_precision()->cluster_stats().clusters == 0);
    CHECK(syn.current_precision()->predicates().total_size() ==
          cart.current_precision()->total_size());
  }
}

// ---- the synergy refiner (Alg. 2 with NewST / NewSP) ------------------------------------

namespace {

struct SynergyRun {
  VerificationResult result;
  std::size_t precise_posts = 0;
};

SynergyRun run_synergy(const Cfa& cfa, SynergyRefinerOptions o) {
  SynergyAnalysis a(cfa);
  SynergyRefiner r(cfa, a, o);
  CegarOptions co;
  co.time_limit_s = 20;
  CEGAR<SynergyAnalysis, SynergyRefiner> cegar(cfa, co, std::move(a), std::move(r));
  SynergyRun out{cegar.run(), 0};
  out.precise_posts = static_cast<std::size_t>(out.result.stats.extra["synergy precise posts"]);
  return out;
}

template <class A>
VerificationResult run_pred(const Cfa& cfa) {
  CegarOptions co;
  co.time_limit_s = 20;
  CEGAR<A> cegar(cfa, co);
  return cegar.run();
}

}  // namespace

TEST_CASE(
    "synergy: the refiner on the paper's Fig. 1(a), NewST / NewSP against Cartesian and Boolean") {
  const Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/pred_synergy_fig1a_safe.cfa");
  const VerificationResult cart = run_pred<PredCart>(cfa);
  const VerificationResult boolean = run_pred<PredBool>(cfa);
  REQUIRE(cart.verdict == Verdict::Safe);
  REQUIRE(boolean.verdict == Verdict::Safe);
  SynergyRefinerOptions both;
  SynergyRun syn = run_synergy(cfa, both);
  INFO(syn.result.reason);
  REQUIRE(syn.result.verdict == Verdict::Safe);
  SynergyRefinerOptions st_only = both;
  st_only.new_sp = false;
  const SynergyRun st = run_synergy(cfa, st_only);
  REQUIRE(st.result.verdict == Verdict::Safe);
  MESSAGE("refinements: Cartesian "
          << cart.stats.refinements << ", NewST+NewSP " << syn.result.stats.refinements
          << ", NewST " << st.result.stats.refinements << ", Boolean " << boolean.stats.refinements
          << "; precise posts " << syn.precise_posts << " (Boolean posts "
          << boolean.stats.extra.at("pred boolean posts") << ")");
  CHECK(syn.result.stats.extra["synergy spurious transitions"] +
            syn.result.stats.extra["synergy spurious paths"] >=
        1);
  CHECK(syn.result.stats.refinements <= cart.stats.refinements);
}
