// The predicate domain: precision, lattice laws of both modes, Cartesian vs Boolean
// abstract posts on hand-made examples, predicate extraction from interpolants.

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_domain.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/refine/predicate_refiner.hpp"

using namespace precis;

namespace predicate_domain_test {

namespace {

struct Fixture {
  std::shared_ptr<ExprManager> em = std::make_shared<ExprManager>();
  VarId x = em->declare("x", Type::Int);
  VarId y = em->declare("y", Type::Int);
  VarId z = em->declare("z", Type::Int, 0);  // local of function 0
  Term X = em->var(x), Y = em->var(y), Z = em->var(z);
  Term c(std::int64_t k) { return em->int_val(k); }
  Term p_eq = em->eq(X, Y);            // x = y
  Term p_neg = em->eq(X, em->neg(Y));  // x = -y
  Term p_lt = em->lt(X, c(0));         // x < 0
  Term p_xy = em->lt(X, Y);            // x < y
  Literal pos(Term p) { return Literal{p, true}; }
  Literal neg(Term p) { return Literal{p, false}; }
};

}  // namespace

TEST_CASE("predicate: PredicateSet join, leq, scope") {
  Fixture f;
  PredicateSet a{f.p_eq, f.p_lt};
  PredicateSet b{f.p_lt};
  CHECK(b.leq(a));
  CHECK_FALSE(a.leq(b));
  CHECK(a.join(b) == a);
  CHECK(a.size() == 2);
  PredicateSet t;
  CHECK_FALSE(t.insert(f.em->true_()));  // constants are no predicates
  PredicateSet s{f.p_eq, f.em->lt(f.Z, f.c(3))};
  auto parts = s.split_by_scope(*f.em);
  REQUIRE(parts.size() == 2);
  for (const auto& [scope, part] : parts) {
    CHECK(part.size() == 1);
    if (scope == 0)
      CHECK(part.contains(f.em->lt(f.Z, f.c(3))));
    else
      CHECK(scope == global_scope);
  }
}

TEST_CASE("predicate: lattice laws, Cartesian cubes") {
  Fixture f;
  PredicateDomain d(AbstractionMode::Cartesian);
  std::vector<PredicateState> samples{
      PredicateState::top(),
      PredicateState::of_cube({f.pos(f.p_eq)}),
      PredicateState::of_cube({f.neg(f.p_eq)}),
      PredicateState::of_cube({f.pos(f.p_eq), f.neg(f.p_lt)}),
      PredicateState::of_cube({f.pos(f.p_lt), f.pos(f.p_xy)}),
      PredicateState::of_cube({f.pos(f.p_eq), f.neg(f.p_lt), f.pos(f.p_xy)})};
  testing::check_lattice_laws(d, samples);
  CHECK(d.leq(samples[3], samples[1]));
  CHECK_FALSE(d.leq(samples[1], samples[3]));
  CHECK(d.join(samples[1], samples[2]).is_top());
  CHECK(PredicateState::of_cube({f.pos(f.p_eq), f.neg(f.p_eq)}).is_bottom());
}

TEST_CASE("predicate: lattice laws, Boolean DNFs with solver implication") {
  Fixture f;
  auto abs = std::make_shared<PredicateAbstractor>(f.em);
  PredicateDomain d(AbstractionMode::Boolean, abs);
  auto disj = PredicateState::of_cubes({{f.pos(f.p_eq)}, {f.pos(f.p_neg)}});
  std::vector<PredicateState> samples{
      PredicateState::top(), disj, PredicateState::of_cube({f.pos(f.p_eq)}),
      PredicateState::of_cube({f.pos(f.p_lt), f.neg(f.p_xy)}),
      PredicateState::of_cubes({{f.pos(f.p_lt)}, {f.neg(f.p_lt), f.pos(f.p_xy)}}),
      // x < 0 and x = -y: the solver sees x = -y with x < 0, so not x = y
      PredicateState::of_cube({f.pos(f.p_lt), f.pos(f.p_neg)})};
  testing::check_lattice_laws(d, samples);
  CHECK(disj.cubes().size() == 2);
  // semantic (not syntactic) implications
  CHECK(d.leq(samples[5], PredicateState::of_cube({f.neg(f.p_eq)})));
  CHECK(d.leq(samples[4], PredicateState::of_cubes({{f.pos(f.p_lt)}, {f.pos(f.p_xy)}})));
  CHECK_FALSE(d.leq(disj, samples[2]));
  // resolution merges x.p \/ x.~p
  auto merged =
      PredicateState::of_cubes({{f.pos(f.p_lt), f.pos(f.p_eq)}, {f.pos(f.p_lt), f.neg(f.p_eq)}});
  CHECK(merged == PredicateState::of_cube({f.pos(f.p_lt)}));
  CHECK(abs->stats().leq_checks > 0);
}

TEST_CASE("predicate: Boolean post keeps a disjunction, Cartesian does not") {
  Fixture f;
  PredicateAbstractor abs(f.em);
  PredicateSet preds{f.p_eq, f.p_neg};
  Operation op = Assume{f.em->or_(f.p_eq, f.p_neg)};
  auto cart = abs.post(PredicateState::top(), op, preds, AbstractionMode::Cartesian);
  auto boo = abs.post(PredicateState::top(), op, preds, AbstractionMode::Boolean);
  INFO("cartesian: " << to_string(cart, *f.em) << "   boolean: " << to_string(boo, *f.em));
  CHECK(cart.is_top());
  CHECK_FALSE(boo.is_top());
  // the Boolean state is equivalent to x = y \/ x = -y
  PredicateDomain d(AbstractionMode::Boolean,
                    std::shared_ptr<PredicateAbstractor>(&abs, [](auto*) {}));
  auto disj = PredicateState::of_cubes({{f.pos(f.p_eq)}, {f.pos(f.p_neg)}});
  CHECK(d.leq(boo, disj));
  CHECK(d.leq(disj, boo));
  // from it, x /= y /\ x /= -y is infeasible for Boolean only
  Operation err = Assume{f.em->and_(f.em->not_(f.p_eq), f.em->not_(f.p_neg))};
  CHECK(abs.post(boo, err, PredicateSet{}, AbstractionMode::Boolean).is_bottom());
  CHECK_FALSE(abs.post(cart, err, PredicateSet{}, AbstractionMode::Cartesian).is_bottom());
  // cache
  auto before = abs.stats().cache_hits;
  (void)abs.post(PredicateState::top(), op, preds, AbstractionMode::Boolean);
  CHECK(abs.stats().cache_hits == before + 1);
}

TEST_CASE("predicate: posts through assignments, havoc, infeasible assumes") {
  Fixture f;
  PredicateAbstractor abs(f.em);
  const auto modes = {AbstractionMode::Cartesian, AbstractionMode::Boolean};
  for (auto m : modes) {
    CAPTURE(to_string(m));
    // synergy Fig. 1(a): y := x + 1 gives x < y whatever x is
    auto s = abs.post(PredicateState::top(), Assign{f.y, f.em->add(f.X, f.c(1))},
                      PredicateSet{f.p_xy, f.p_lt}, m);
    CHECK(s == PredicateState::of_cube({f.pos(f.p_xy)}));
    // then assume x < 0, and not (x < y) is infeasible
    auto s2 = abs.post(s, Assume{f.p_lt}, PredicateSet{f.p_xy, f.p_lt}, m);
    CHECK(s2 == PredicateState::of_cube({f.pos(f.p_lt), f.pos(f.p_xy)}));
    CHECK(abs.post(s2, Assume{f.em->not_(f.p_xy)}, PredicateSet{}, m).is_bottom());
    // havoc x forgets everything about x
    auto s3 = abs.post(s2, Havoc{f.x}, PredicateSet{f.p_xy, f.p_lt}, m);
    CHECK(s3.is_top());
    // x := x + 1 from x < 0: x < 0 no longer known, x < 1 is
    Term p1 = f.em->lt(f.X, f.c(1));
    auto s4 = abs.post(PredicateState::of_cube({f.pos(f.p_lt)}),
                       Assign{f.x, f.em->add(f.X, f.c(1))}, PredicateSet{f.p_lt, p1}, m);
    CHECK(s4 == PredicateState::of_cube({f.pos(p1)}));
  }
  CHECK(abs.stats().infeasible_posts >= 2);
}

TEST_CASE("predicate: Boolean falls back to Cartesian above the predicate bound") {
  Fixture f;
  PredicateOptions o;
  o.boolean_max_predicates = 1;
  PredicateAbstractor abs(f.em, o);
  Operation op = Assume{f.em->or_(f.p_eq, f.p_neg)};
  auto r =
      abs.post(PredicateState::top(), op, PredicateSet{f.p_eq, f.p_neg}, AbstractionMode::Boolean);
  CHECK(r.is_top());
  CHECK(abs.stats().boolean_fallbacks == 1);
}

TEST_CASE("predicate: extract_predicates whole / conjuncts / atoms") {
  Fixture f;
  ExprManager& em = *f.em;
  Term itp = em.and_(em.or_(f.p_eq, f.p_neg), em.neq(f.X, f.c(3)));
  auto atoms = extract_predicates(em, itp, PredicateSplit::Atoms);
  CHECK(atoms.size() == 3);
  CHECK(atoms.contains(f.p_eq));
  CHECK(atoms.contains(em.eq(f.X, f.c(3))));  // a /= b as the atom a = b
  auto conj = extract_predicates(em, itp, PredicateSplit::Conjuncts);
  CHECK(conj.size() == 2);
  CHECK(conj.contains(em.or_(f.p_eq, f.p_neg)));
  auto whole = extract_predicates(em, itp, PredicateSplit::Whole);
  CHECK(whole.size() == 1);
  CHECK(whole.contains(itp));
  CHECK(extract_predicates(em, em.true_(), PredicateSplit::Atoms).empty());
  CHECK(extract_predicates(em, em.false_(), PredicateSplit::Whole).empty());
}

namespace {

// One post of each mode over n predicates v0 <= k (k < n) after v0 := v1 + 1 from top:
// every predicate undecided, n + 1 consistent valuations. Returns microseconds per post (no cache).
double post_cost(AbstractionMode m, std::size_t n) {
  auto em = std::make_shared<ExprManager>();
  std::vector<VarId> vs;
  for (std::size_t i = 0; i < 8; ++i) vs.push_back(em->declare("v" + std::to_string(i), Type::Int));
  PredicateSet preds;
  for (std::size_t i = 0; preds.size() < n; ++i)
    preds.insert(em->le(em->var(vs[0]), em->int_val(static_cast<std::int64_t>(i))));
  PredicateOptions o;
  o.cache = false;
  o.boolean_max_predicates = 64;
  o.boolean_max_cubes = 1u << 20;
  PredicateAbstractor abs(em, o);
  Operation op = Assign{vs[0], em->add(em->var(vs[1]), em->int_val(1))};
  const int reps = 3;
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) (void)abs.post(PredicateState::top(), op, preds, m);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         reps;
}

}  // namespace

TEST_CASE("predicate: cost of one abstract post at 4 / 16 / 64 predicates" * doctest::skip()) {
  for (std::size_t n : {4u, 16u, 64u})
    MESSAGE(n << " predicates: cartesian " << post_cost(AbstractionMode::Cartesian, n)
              << " us, boolean " << post_cost(AbstractionMode::Boolean, n) << " us");
}

}  // namespace predicate_domain_test
