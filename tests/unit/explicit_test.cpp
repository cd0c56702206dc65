#include <doctest/doctest.h>

#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/refine/explicit_interpolation.hpp"

using namespace precis;

namespace explicit_test {

namespace {
ExplicitState st(std::initializer_list<std::pair<VarId, std::int64_t>> kv) {
  ExplicitState s;
  for (auto [v, x] : kv) s.set(v, x);
  return s;
}
}  // namespace

TEST_CASE("explicit domain satisfies the lattice laws") {
  ExplicitDomain d;
  std::vector<ExplicitState> samples{d.bottom(),
                                     d.top(),
                                     st({{0, 1}}),
                                     st({{0, 2}}),
                                     st({{1, 1}}),
                                     st({{0, 1}, {1, 1}}),
                                     st({{0, 1}, {1, 2}}),
                                     st({{0, 2}, {1, 1}}),
                                     st({{0, 1}, {1, 1}, {2, -7}}),
                                     st({{2, -7}})};
  testing::check_lattice_laws(d, samples);
  // The flat lattice: different values join to top, equal ones stay.
  CHECK(d.join(st({{0, 1}}), st({{0, 2}})).is_top());
  CHECK(d.join(st({{0, 1}, {1, 3}}), st({{0, 2}, {1, 3}})) == st({{1, 3}}));
  CHECK(d.leq(st({{0, 1}, {1, 3}}), st({{1, 3}})));
  CHECK_FALSE(d.leq(st({{1, 3}}), st({{0, 1}, {1, 3}})));
  CHECK(d.meet(st({{0, 1}}), st({{0, 2}})).is_bottom());
}

TEST_CASE("explicit strongest post follows section II-C") {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  VarId p = em.declare("p", Type::Bool);
  Term X = em.var(x), Y = em.var(y), P = em.var(p);
  ExplicitState top;

  SUBCASE("assume x = 5 on unknown x binds x") {
    auto s = explicit_post(top, Assume{em.eq(X, em.int_val(5))});
    CHECK(s.get(x) == 5);
  }
  SUBCASE("assume binds through linear chains and conjunctions") {
    auto s = explicit_post(st({{y, 3}}),
                           Assume{em.and_(em.eq(em.add(X, Y), em.int_val(10)), em.not_(P))});
    CHECK(s.get(x) == 7);
    CHECK(s.get(p) == 0);
    auto t = explicit_post(
        top, Assume{em.eq(em.int_val(12), em.mul(em.int_val(3), em.sub(X, em.int_val(1))))});
    CHECK(t.get(x) == 5);
    // 2 * x = 5 has no integer solution: no binding (sound), and no claim either way.
    auto u = explicit_post(top, Assume{em.eq(em.mul(em.int_val(2), X), em.int_val(5))});
    CHECK_FALSE(u.is_bottom());
    CHECK_FALSE(u.has(x));
  }
  SUBCASE("assume with an inequality on unknown x keeps the state") {
    auto s = explicit_post(st({{y, 1}}), Assume{em.gt(X, em.int_val(0))});
    CHECK_FALSE(s.is_bottom());
    CHECK_FALSE(s.has(x));
    CHECK(s.get(y) == 1);
  }
  SUBCASE("contradicting assume gives bottom") {
    CHECK(explicit_post(st({{x, 1}}), Assume{em.gt(X, em.int_val(1))}).is_bottom());
    CHECK(explicit_post(top, Assume{em.and_(em.eq(X, em.int_val(1)), em.eq(X, em.int_val(2)))})
              .is_bottom());
  }
  SUBCASE("assignment, havoc, overflow") {
    auto s = explicit_post(st({{x, 4}}), Assign{y, em.mul(X, X)});
    CHECK(s.get(y) == 16);
    CHECK_FALSE(explicit_post(s, Havoc{y}).has(y));
    CHECK_FALSE(explicit_post(st({{x, INT64_MAX}}), Assign{y, em.add(X, em.int_val(1))}).has(y));
    CHECK_FALSE(explicit_post(st({{y, 2}}), Assign{y, em.add(X, em.int_val(1))}).has(y));
  }
}

TEST_CASE("precision adjustment restricts to the tracked variables") {
  CfaBuilder b;
  VarId x = b.int_var("x");
  VarId y = b.int_var("y");
  b.edge("A", "B", Skip{});
  b.initial("A");
  Cfa cfa = std::move(b).build();
  ExplicitAnalysis a(cfa);
  auto pi = a.initial_precision(Granularity::Location);
  pi.add(1, VariableSet{x}, cfa.exprs());
  auto adj = a.adjust(st({{x, 1}, {y, 2}}), pi, 1);
  CHECK(adj.element == st({{x, 1}}));
  CHECK(a.adjust(st({{x, 1}, {y, 2}}), pi, 0).element.is_top());
  CHECK(a.adjust(st({{x, 1}, {y, 2}}), a.full_precision(), 0).element.size() == 2);
}

namespace {
// Checks the three interpolant conditions of section III-D on every cut of a path.
void check_interpolant_sequence(const std::vector<Operation>& ops, const ExplicitInterpolants& itps,
                                const ExprManager& em) {
  REQUIRE(itps.infeasible);
  REQUIRE(itps.interpolants.size() == ops.size() + 1);
  CHECK(itps.interpolants.front().is_top());
  CHECK(itps.interpolants.back().is_bottom());
  ExplicitDomain d;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& gi = itps.interpolants[i];
    const auto& gn = itps.interpolants[i + 1];
    // (1) inductive: SP_{op_i}(Gamma_i) implies Gamma_{i+1}
    CHECK(d.leq(explicit_post(gi, ops[i]), gn));
    // (1') the prefix implies Gamma_{i+1}
    std::span<const Operation> all(ops);
    CHECK(d.leq(explicit_post_all(ExplicitState{}, all.subspan(0, i + 1)), gn));
    // (2) Gamma_{i+1} contradicts the suffix
    CHECK(explicit_post_all(gn, all.subspan(i + 1)).is_bottom());
    // (3) only variables of both prefix and suffix
    if (!gn.is_bottom()) {
      std::vector<VarId> suffix_vars;
      for (std::size_t k = i + 1; k < ops.size(); ++k) {
        if (auto* a = std::get_if<Assume>(&ops[k])) collect_vars(a->cond, suffix_vars);
        if (auto* a = std::get_if<Assign>(&ops[k])) collect_vars(a->value, suffix_vars);
      }
      for (const auto& [v, val] : gn.values()) {
        (void)val;
        CHECK_MESSAGE(std::find(suffix_vars.begin(), suffix_vars.end(), v) != suffix_vars.end(),
                      em.variable(v).name);
      }
    }
  }
}
}  // namespace

TEST_CASE("Interpolate (Alg. 3) and Refine (Alg. 4) on hand-made paths") {
  ExprManager em;
  VarId a = em.declare("a", Type::Int);
  VarId b = em.declare("b", Type::Int);
  VarId c = em.declare("c", Type::Int);
  VarId z = em.declare("z", Type::Int);
  Term A = em.var(a), B = em.var(b), C = em.var(c);

  SUBCASE("irrelevant variables are dropped") {
    std::vector<Operation> ops{Assign{a, em.int_val(1)}, Assign{z, em.int_val(9)},
                               Assign{b, em.int_val(2)}, Assume{em.eq(A, em.int_val(1))},
                               Assign{c, em.add(A, B)},  Assume{em.eq(C, em.int_val(5))}};
    auto itps = explicit_interpolants(ops);
    check_interpolant_sequence(ops, itps, em);
    // z never matters; after c := a + b only c does.
    for (const auto& g : itps.interpolants) CHECK_FALSE(g.has(z));
    CHECK(itps.interpolants[5] == st({{c, 3}}));
    // `assume a = 1` binds a again, so a need not be tracked before it.
    CHECK(itps.interpolants[1].is_top());
    CHECK(itps.interpolants[2].is_top());
    CHECK(itps.interpolants[3] == st({{b, 2}}));
    CHECK(itps.interpolants[4] == st({{a, 1}, {b, 2}}));
    auto pi = explicit_refine(itps);
    // Pi(l_3) = {b}, Pi(l_4) = {a, b}, Pi(l_5) = {c}; nothing before.
    REQUIRE(pi.size() == 3);
    CHECK(pi[0].first == 3);
    CHECK(pi[0].second == VariableSet{b});
    CHECK(pi[1].second == VariableSet{a, b});
    CHECK(pi[2].first == 5);
    CHECK(pi[2].second == VariableSet{c});
  }
  SUBCASE("a contradiction in the middle makes the rest false") {
    std::vector<Operation> ops{Assign{a, em.int_val(0)}, Assume{em.gt(A, em.int_val(0))},
                               Assign{b, em.int_val(1)}, Assume{em.eq(B, em.int_val(1))}};
    auto itps = explicit_interpolants(ops);
    check_interpolant_sequence(ops, itps, em);
    CHECK(itps.interpolants[1] == st({{a, 0}}));
    CHECK(itps.interpolants[2].is_bottom());
  }
  SUBCASE("a feasible path is not refuted") {
    std::vector<Operation> ops{Havoc{a}, Assume{em.gt(A, em.int_val(0))}};
    CHECK_FALSE(explicit_interpolants(ops).infeasible);
  }
  SUBCASE("a long path of 1000 steps with one relevant variable") {
    std::vector<Operation> ops{Assign{a, em.int_val(0)}};
    for (int i = 0; i < 1000; ++i) ops.push_back(Assign{b, em.add(B, em.int_val(1))});
    ops.push_back(Assume{em.eq(A, em.int_val(1))});
    auto itps = explicit_interpolants(ops);
    check_interpolant_sequence(ops, itps, em);
    for (std::size_t i = 1; i + 1 < itps.interpolants.size(); ++i)
      CHECK(itps.interpolants[i] == st({{a, 0}}));
  }
}

TEST_CASE("value limits: levels, patience, saturation") {
  ValueLimits l(ValueLimitOptions{.base = 64, .escalation = 8, .patience = 2, .max_level = 3});
  const VarId x = 0;
  const VarId y = 1;
  CHECK(l.limit(x) == 64);
  // Two refusals are tolerated, then every refusal raises the level.
  CHECK_FALSE(l.refuse(x));
  CHECK_FALSE(l.refuse(x));
  CHECK(l.refuse(x));
  CHECK(l.level(x) == 1);
  CHECK(l.limit(x) == 512);
  CHECK(l.level(y) == 0);  // per variable
  CHECK(l.refuse(x));
  CHECK(l.level(x) == 2);
  // A reset (the strategy product's drop) restores the patience.
  l.reset_refusals(x);
  CHECK_FALSE(l.refuse(x));
  CHECK_FALSE(l.refuse(x));
  CHECK(l.refuse(x));
  CHECK(l.level(x) == 3);
  // No escalation beyond max_level.
  for (int i = 0; i < 10; ++i) CHECK_FALSE(l.refuse(x));
  CHECK(l.limit(x) == 64 * 8 * 8 * 8);
  CHECK(l.escalations() == 3);
  // The limit saturates instead of overflowing.
  ValueLimits huge(ValueLimitOptions{.base = std::uint64_t{1} << 62, .escalation = 8});
  CHECK(huge.limit_at(5) == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("a shared value limit: the analysis forgets a variable past its level's limit") {
  CfaBuilder b;
  const VarId x = b.int_var("x");
  auto& em = b.exprs();
  const Loc l0 = b.location("l0");
  const Loc l1 = b.location("l1");
  b.edge(l0, l1, Assign{x, em.add(em.var(x), em.int_val(1))});
  b.initial(l0);
  Cfa cfa = std::move(b).build();
  auto limits = std::make_shared<ValueLimits>(ValueLimitOptions{.base = 2, .patience = 0});
  Expl a(cfa, limits);
  auto pi = a.full_precision();
  // Three changes of x on the path: over the limit 2 at level 0.
  ExplicitState s;
  s.set(x, 0);
  for (int i = 0; i < 3; ++i) s.note_change(x);
  CHECK_FALSE(a.adjust(s, pi, l1).element.has(x));
  CHECK(limits->refuse(x));  // patience 0: one level up at once, limit 2 * 8
  CHECK(a.adjust(s, pi, l1).element.has(x));
}

}  // namespace explicit_test
