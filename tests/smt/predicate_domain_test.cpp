// The predicate domain: precision, lattice laws of both modes, Cartesian vs Boolean
// abstract posts on hand-made examples, predicate extraction from interpolants.

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_domain.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/domains/predicate/propositional_entailment.hpp"
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

// Random DNFs over five Boolean predicates, evaluated by truth table.
struct RandomDnfs {
  std::shared_ptr<ExprManager> em = std::make_shared<ExprManager>();
  std::vector<Term> ps;
  std::uint64_t seed = 12345;
  RandomDnfs() {
    for (int i = 0; i < 5; ++i)
      ps.push_back(em->var(em->declare("b" + std::to_string(i), Type::Bool)));
  }
  unsigned next() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(seed >> 33);
  }
  std::vector<Cube> cubes(unsigned max_cubes) {
    std::vector<Cube> cs;
    const unsigned n = next() % max_cubes;
    for (unsigned k = 0; k < n; ++k) {
      Cube c;
      for (unsigned i = 0; i < ps.size(); ++i)
        if (const unsigned r = next() % 3; r < 2) c.push_back(Literal{ps[i], r == 0});
      cs.push_back(c);
    }
    return cs;
  }
  bool eval(const std::vector<Cube>& cs, unsigned m) const {
    for (const Cube& c : cs) {
      bool all = true;
      for (const Literal& l : c) {
        const auto i = static_cast<unsigned>(std::find(ps.begin(), ps.end(), l.pred) - ps.begin());
        if (((m >> i) & 1U) != (l.positive ? 1U : 0U)) all = false;
      }
      if (all) return true;
    }
    return false;
  }
};

TEST_CASE("predicate: of_cubes keeps the Boolean function of random DNFs") {
  // Absorption and resolution (PredicateState::simplify) must not change which
  // assignments of the predicates satisfy the DNF.
  RandomDnfs r;
  std::size_t shrunk = 0;
  for (int round = 0; round < 2000; ++round) {
    const std::vector<Cube> cs = r.cubes(12);
    const PredicateState s = PredicateState::of_cubes(cs);
    std::vector<Cube> norm;
    for (Cube c : cs)
      if (normalize_cube(c)) norm.push_back(c);
    for (unsigned m = 0; m < 32; ++m) {
      CAPTURE(round);
      CAPTURE(m);
      REQUIRE(r.eval(norm, m) == r.eval(s.cubes(), m));
    }
    // no cube includes another, none is repeated
    for (std::size_t i = 0; i < s.cubes().size(); ++i)
      for (std::size_t j = 0; j < s.cubes().size(); ++j)
        if (i != j) CHECK_FALSE(cube_includes(s.cubes()[i], s.cubes()[j]));
    shrunk += s.cubes().size() < norm.size();
  }
  CHECK(shrunk > 100);
}

TEST_CASE("predicate: propositional entailment agrees with truth tables") {
  RandomDnfs r;
  std::size_t yes = 0, no = 0;
  for (int round = 0; round < 3000; ++round) {
    const PredicateState a = PredicateState::of_cubes(r.cubes(4));
    const PredicateState b = PredicateState::of_cubes(r.cubes(6));
    bool entails = true;
    for (unsigned m = 0; m < 32; ++m)
      if (r.eval(a.cubes(), m) && !r.eval(b.cubes(), m)) entails = false;
    const std::optional<bool> got = propositionally_implies(a, b);
    CAPTURE(round);
    REQUIRE(got.has_value());
    CHECK(*got == entails);
    if (cube_wise_implies(a, b)) CHECK(entails);   // the syntactic check is sound
    if (cube_wise_refutes(a, b)) CHECK(!entails);  // propositionally too
    (entails ? yes : no)++;
  }
  CHECK(yes > 300);
  CHECK(no > 300);
  // A case only the splitting decides: p implies (p & q) | (p & ~q).
  const Term p = r.ps[0], q = r.ps[1];
  const auto lhs = PredicateState::of_cube({Literal{p, true}, Literal{r.ps[2], true}});
  std::vector<Cube> rhs{{Literal{p, true}, Literal{q, true}},
                        {Literal{q, false}, Literal{r.ps[2], true}}};
  CHECK(propositionally_implies(lhs, PredicateState::of_cubes(rhs)) == true);
  // The budget of case splits bounds the work: undecided at 0.
  std::size_t none = 0;
  CHECK_FALSE(
      dnf_tautology({{Literal{p, true}}, {Literal{p, false}, Literal{q, true}}}, none).has_value());
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

TEST_CASE("predicate: Boolean falls back to Cartesian above the predicate or cube bound") {
  // x = y \/ x = -y over both predicates: neither is implied, so Cartesian gives top.
  // With one predicate allowed per location the whole post is Cartesian; with one cube
  // allowed, the cluster of both predicates is.
  Fixture f;
  Operation op = Assume{f.em->or_(f.p_eq, f.p_neg)};
  for (const bool cube_bound : {false, true}) {
    CAPTURE(cube_bound);
    PredicateOptions o;
    (cube_bound ? o.boolean_max_cubes : o.boolean_max_predicates) = 1;
    PredicateAbstractor abs(f.em, o);
    auto r = abs.post(PredicateState::top(), op, PredicateSet{f.p_eq, f.p_neg},
                      AbstractionMode::Boolean);
    CHECK(r.is_top());
    CHECK(abs.stats().boolean_fallbacks == (cube_bound ? 0 : 1));
    CHECK(abs.stats().clusters_cartesian == (cube_bound ? 1 : 0));
  }
}

TEST_CASE("predicate: Boolean abstraction by independent clusters") {
  // (x = y \/ x = -y) /\ (z = 0 \/ z = 1): two clusters, {x = y, x = -y} and {z = 0,
  // z = 1}; the abstraction is the product of theirs (2 x 2 cubes), computed with
  // checks per cluster, and a second post that changes only z reuses x's cluster.
  Fixture f;
  PredicateAbstractor abs(f.em);
  Term z0 = f.em->eq(f.Z, f.c(0)), z1 = f.em->eq(f.Z, f.c(1));
  PredicateSet preds{f.p_eq, f.p_neg, z0, z1};
  Operation op = Assume{f.em->and_(f.em->or_(f.p_eq, f.p_neg), f.em->or_(z0, z1))};
  auto s = abs.post(PredicateState::top(), op, preds, AbstractionMode::Boolean);
  INFO(to_string(s, *f.em));
  CHECK(abs.stats().clusters == 2);
  PredicateDomain d(AbstractionMode::Boolean,
                    std::shared_ptr<PredicateAbstractor>(&abs, [](auto*) {}));
  auto x_part = PredicateState::of_cubes({{f.pos(f.p_eq)}, {f.pos(f.p_neg)}});
  auto z_part = PredicateState::of_cubes({{f.pos(z0), f.neg(z1)}, {f.neg(z0), f.pos(z1)}});
  std::vector<Cube> product;
  for (const Cube& a : x_part.cubes())
    for (const Cube& b : z_part.cubes()) {
      Cube c = a;
      c.insert(c.end(), b.begin(), b.end());
      product.push_back(c);
    }
  auto expected = PredicateState::of_cubes(product);
  CHECK(d.leq(s, expected));
  CHECK(d.leq(expected, s));
  // not the Cartesian abstraction: x = y \/ x = -y is kept
  CHECK_FALSE(d.leq(PredicateState::of_cube({f.neg(f.p_eq), f.neg(f.p_neg), f.pos(z0)}), s));
  // z := 1 - z: the x cluster is the same formula as before (cache), z's is new
  const auto hits = abs.stats().cluster_cache_hits;
  auto s2 = abs.post(s, Assign{f.z, f.em->sub(f.c(1), f.Z)}, preds, AbstractionMode::Boolean);
  CHECK(abs.stats().cluster_cache_hits > hits);
  CHECK(d.leq(s2, expected));
  CHECK(d.leq(expected, s2));
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

}  // namespace predicate_domain_test
