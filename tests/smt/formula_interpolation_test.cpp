#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "precis/expr/printer.hpp"
#include "precis/refine/formula_interpolation.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"

using namespace precis;

namespace formula_interpolation_test {

namespace {

struct Fixture {
  ExprManager base;
  SsaVars ssa{base};
  ExprManager& em = ssa.ssa();
  Cvc5Solver solver{ssa.ssa()};
  Cvc5Solver checker{ssa.ssa()};  // independent: checks every interpolant
  FormulaInterpolationStats stats;
  std::string why;

  // x@k of a program variable x
  VarId prog(const char* name, std::uint32_t k = 0, Type t = Type::Int) {
    const Variable* v = base.find(name);
    const VarId x = v ? v->id : base.declare(name, t);
    return ssa.at(x, k);
  }
  // an auxiliary (control) variable, as block formulas declare them
  VarId aux(const char* name, Type t = Type::Bool) { return em.declare(name, t); }
  Term v(VarId x) { return em.var(x); }
  Term c(std::int64_t k) { return em.int_val(k); }

  bool unsat(std::vector<Term> fs) { return checker.check_assuming(fs) == SatResult::Unsat; }

  // The three properties, checked by the independent solver.
  void check_interpolant(Term a, Term b, std::vector<VarId> shared, Term i) {
    std::sort(shared.begin(), shared.end());
    CHECK_MESSAGE(unsat({a, em.not_(i)}), "a does not imply I = " << to_string(i, em));
    CHECK_MESSAGE(unsat({i, b}), "I /\\ b is satisfiable, I = " << to_string(i, em));
    std::vector<VarId> vs;
    collect_vars(i, vs);
    CHECK_MESSAGE(std::includes(shared.begin(), shared.end(), vs.begin(), vs.end()),
                  "I mentions a variable not shared: " << to_string(i, em));
  }

  std::optional<Term> run(Term a, Term b, std::vector<VarId> shared,
                          const FormulaInterpolationOptions& opts = {}) {
    REQUIRE(unsat({a, b}));
    stats = {};
    why.clear();
    auto t0 = std::chrono::steady_clock::now();
    auto i = interpolate_formulas(solver, a, b, shared, opts, &stats, &why);
    auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    if (!i) {
      MESSAGE("no interpolant: " << why);
      return i;
    }
    MESSAGE("I = " << to_string(*i, em) << "  (" << us << " us, " << stats.a_cubes << " A-cubes, "
                   << stats.b_cubes << " B-cubes, " << stats.farkas << " Farkas, "
                   << stats.projections << " projections, " << stats.solver_calls
                   << " solver calls)");
    check_interpolant(a, b, shared, *i);
    return i;
  }

  std::vector<VarId> vars_of(Term t) {
    std::vector<VarId> vs;
    collect_vars(t, vs);
    return vs;
  }
};

}  // namespace

TEST_CASE("formula interpolation: conjunction against conjunction") {
  Fixture f;
  const VarId x0 = f.prog("x", 0);
  const VarId x1 = f.prog("x", 1);
  Term a = f.em.and_(f.em.eq(f.v(x0), f.c(0)), f.em.eq(f.v(x1), f.em.add(f.v(x0), f.c(1))));
  Term b = f.em.gt(f.v(x1), f.c(5));
  auto i = f.run(a, b, {x1});
  REQUIRE(i.has_value());
  CHECK(f.vars_of(*i) == std::vector<VarId>{x1});
  CHECK(f.stats.a_cubes == 1);
  CHECK(f.stats.b_cubes == 1);
  CHECK(f.stats.farkas == 1);
  CHECK(f.stats.projections == 0);
}

TEST_CASE("formula interpolation: disjunctive A") {
  Fixture f;
  const VarId x = f.prog("x");
  Term a = f.em.or_(f.em.eq(f.v(x), f.c(0)), f.em.eq(f.v(x), f.c(10)));
  Term b = f.em.eq(f.v(x), f.c(5));
  auto i = f.run(a, b, {x});
  REQUIRE(i.has_value());
  CHECK(f.stats.a_cubes == 2);  // one per disjunct, found lazily
  // I keeps 0 and 10 (a => I) and excludes 5 (I /\ b unsat): both checked by run().
  CHECK_FALSE(f.unsat({*i, f.em.eq(f.v(x), f.c(0))}));
  CHECK_FALSE(f.unsat({*i, f.em.eq(f.v(x), f.c(10))}));
}

TEST_CASE("formula interpolation: disjunctive B") {
  Fixture f;
  const VarId x = f.prog("x");
  Term a = f.em.and_(f.em.ge(f.v(x), f.c(0)), f.em.le(f.v(x), f.c(3)));
  Term b = f.em.or_(f.em.eq(f.v(x), f.c(5)), f.em.eq(f.v(x), f.c(-2)));
  auto i = f.run(a, b, {x});
  REQUIRE(i.has_value());
  CHECK(f.stats.a_cubes == 1);
  CHECK(f.stats.b_cubes == 2);  // each disjunct of b needs its own Farkas bound
  CHECK(f.stats.farkas == 2);
  // I implies not b
  CHECK(f.unsat({*i, f.em.eq(f.v(x), f.c(5))}));
  CHECK(f.unsat({*i, f.em.eq(f.v(x), f.c(-2))}));
}

TEST_CASE("formula interpolation: block formulas with control variables") {
  Fixture f;
  const VarId x0 = f.prog("x", 0);
  const VarId x1 = f.prog("x", 1);
  const VarId x2 = f.prog("x", 2);
  const VarId t1 = f.aux("t1");
  const VarId t2 = f.aux("t2");
  const VarId s1 = f.aux("s1");
  const VarId s2 = f.aux("s2");
  auto& em = f.em;
  // block 1: x0 = 0; then x := x + 1 or x := x + 2
  Term a = em.conj(std::vector<Term>{
      em.eq(f.v(x0), f.c(0)), em.imply(f.v(t1), em.eq(f.v(x1), em.add(f.v(x0), f.c(1)))),
      em.imply(f.v(t2), em.eq(f.v(x1), em.add(f.v(x0), f.c(2)))), em.or_(f.v(t1), f.v(t2))});
  // block 2: x := x + 1 or x := x + 3; assume x >= 6
  Term b = em.conj(std::vector<Term>{em.imply(f.v(s1), em.eq(f.v(x2), em.add(f.v(x1), f.c(1)))),
                                     em.imply(f.v(s2), em.eq(f.v(x2), em.add(f.v(x1), f.c(3)))),
                                     em.or_(f.v(s1), f.v(s2)), em.ge(f.v(x2), f.c(6))});
  auto i = f.run(a, b, {x1});
  REQUIRE(i.has_value());
  CHECK(f.vars_of(*i) == std::vector<VarId>{x1});
  // I must allow both edges of block 1
  CHECK_FALSE(f.unsat({*i, em.eq(f.v(x1), f.c(1))}));
  CHECK_FALSE(f.unsat({*i, em.eq(f.v(x1), f.c(2))}));
  CHECK(f.stats.projections == 0);  // all linear: Farkas suffices
}

TEST_CASE("formula interpolation: parity needs the projection") {
  Fixture f;
  const VarId x = f.prog("x");
  const VarId y = f.prog("y");
  const VarId z = f.prog("z");
  Term a = f.em.eq(f.v(x), f.em.mul(f.c(2), f.v(y)));
  Term b = f.em.eq(f.v(x), f.em.add(f.em.mul(f.c(2), f.v(z)), f.c(1)));
  auto i = f.run(a, b, {x});
  REQUIRE(i.has_value());
  CHECK(f.vars_of(*i) == std::vector<VarId>{x});
  CHECK(f.stats.farkas == 0);  // no rational certificate
  CHECK(f.stats.projections == 1);
}

TEST_CASE("formula interpolation: shared Bool variables") {
  Fixture f;
  const VarId p = f.prog("p", 0, Type::Bool);
  const VarId x = f.prog("x");
  const VarId y = f.prog("y");
  auto& em = f.em;
  SUBCASE("a Boolean conflict beside an arithmetic one") {
    // a: p <=> y > 0, x = y;  b: p, x <= 0.  I: p => x >= 1 (shape up to Farkas)
    Term a = em.and_(em.iff(f.v(p), em.gt(f.v(y), f.c(0))), em.eq(f.v(x), f.v(y)));
    Term b = em.and_(f.v(p), em.le(f.v(x), f.c(0)));
    auto i = f.run(a, b, {p, x});
    REQUIRE(i.has_value());
    CHECK(f.stats.a_cubes == 2);
    CHECK(f.stats.projections >= 1);  // the cube with not p: Farkas has no rows for it
  }
  SUBCASE("a purely Boolean conflict") {
    const VarId r = f.aux("r");
    // a: r /\ (r => p);  b: not p /\ x = 1
    Term a = em.and_(f.v(r), em.imply(f.v(r), f.v(p)));
    Term b = em.and_(em.not_(f.v(p)), em.eq(f.v(x), f.c(1)));
    auto i = f.run(a, b, {p});
    REQUIRE(i.has_value());
    CHECK(f.vars_of(*i) == std::vector<VarId>{p});
  }
}

TEST_CASE("formula interpolation: failures give nullopt with a reason") {
  Fixture f;
  const VarId x = f.prog("x");
  const VarId y = f.prog("y");
  auto& em = f.em;
  SUBCASE("a /\\ b satisfiable") {
    Term a = em.gt(f.v(x), f.c(0));
    Term b = em.lt(f.v(x), f.c(10));
    CHECK_FALSE(interpolate_formulas(f.solver, a, b, std::vector<VarId>{x}, {}, &f.stats, &f.why)
                    .has_value());
    MESSAGE(f.why);
    CHECK(f.why.find("satisfiable") != std::string::npos);
  }
  SUBCASE("shared misses a variable of the conflict") {
    Term a = em.gt(f.v(x), f.c(0));
    Term b = em.lt(f.v(x), f.c(0));
    CHECK_FALSE(interpolate_formulas(f.solver, a, b, std::vector<VarId>{y}, {}, &f.stats, &f.why)
                    .has_value());
    MESSAGE(f.why);
    CHECK(f.why.find("do not separate") != std::string::npos);
  }
  SUBCASE("the A-cube limit") {
    // three cubes of a, each interpolated by projection (parity has no Farkas certificate)
    Term a = em.disj(
        std::vector<Term>{em.eq(f.v(x), f.c(0)), em.eq(f.v(x), f.c(2)), em.eq(f.v(x), f.c(4))});
    Term b = em.eq(f.v(x), em.add(em.mul(f.c(2), f.v(y)), f.c(1)));
    FormulaInterpolationOptions two;
    two.max_a_cubes = 2;
    CHECK_FALSE(interpolate_formulas(f.solver, a, b, std::vector<VarId>{x}, two, &f.stats, &f.why)
                    .has_value());
    MESSAGE(f.why);
    CHECK(f.why.find("cubes") != std::string::npos);
    auto i = f.run(a, b, {x});  // with the default limit it succeeds
    CHECK(i.has_value());
  }
}

TEST_CASE("formula interpolation: the solver's assertion stack is left as it was") {
  Fixture f;
  const VarId x = f.prog("x");
  const VarId w = f.prog("w");
  auto& em = f.em;
  f.solver.assert_(em.eq(f.v(w), f.c(7)));  // background, in the base frame
  f.solver.push();
  Term a = em.or_(em.le(f.v(x), f.c(-3)), em.ge(f.v(x), f.c(3)));
  Term b = em.and_(em.gt(f.v(x), f.c(-1)), em.lt(f.v(x), f.c(1)));
  auto i = f.run(a, b, {x});
  REQUIRE(i.has_value());
  f.solver.pop();                                     // the frame pushed above
  CHECK_THROWS_AS(f.solver.pop(), std::logic_error);  // and no other
  CHECK(f.solver.check_assuming(std::vector<Term>{em.neq(f.v(w), f.c(7))}) ==
        SatResult::Unsat);  // the background assertion is still there
}

namespace {

// Small random formulas over two integer variables (and a local Bool variable).
struct RandomFormulas {
  Fixture& f;
  std::mt19937 rng{20240611};

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

  // c1 * u + c2 * w with small coefficients; w (the shared variable) alone in half
  // of the atoms, so that a and b often conflict on it
  Term linear(VarId u, VarId w) {
    int cu = pick(0, 1) == 0 ? 0 : pick(-3, 3);
    int cw = pick(-3, 3);
    if (cu == 0 && cw == 0) cw = 1;
    std::vector<Term> sum;
    for (auto [c, x] : {std::pair{cu, u}, std::pair{cw, w}}) {
      if (c == 0) continue;
      sum.push_back(c == 1 ? f.v(x) : f.em.mul(f.c(c), f.v(x)));
    }
    return sum.size() == 1 ? sum[0] : f.em.mk(Op::Add, sum);
  }

  Term atom(VarId u, VarId w, VarId p) {
    if (pick(0, 9) == 0) return f.v(p);
    static constexpr Op ops[] = {Op::Le, Op::Lt, Op::Eq, Op::Neq, Op::Ge, Op::Gt};
    return f.em.mk(ops[pick(0, 5)], {linear(u, w), f.c(pick(-6, 6))});
  }

  Term formula(VarId u, VarId w, VarId p, int depth) {
    if (depth == 0 || pick(0, 4) == 0) return atom(u, w, p);
    Term l = formula(u, w, p, depth - 1);
    switch (pick(0, 9)) {
      case 0: return f.em.not_(l);
      case 1: return f.em.imply(l, formula(u, w, p, depth - 1));
      case 2: return f.em.iff(l, formula(u, w, p, depth - 1));
      case 3:
      case 4:
      case 5: return f.em.or_(l, formula(u, w, p, depth - 1));
      default: return f.em.and_(l, formula(u, w, p, depth - 1));
    }
  }
};

}  // namespace

TEST_CASE("formula interpolation: random formulas") {
  Fixture f;
  const VarId x = f.prog("x");
  const VarId y = f.prog("y");
  const VarId z = f.prog("z");
  const VarId p = f.aux("p");
  const VarId q = f.aux("q");
  RandomFormulas gen{f};
  std::size_t kept = 0, tries = 0, with_projection = 0, farkas_only = 0, multi_a = 0, multi_b = 0;
  std::chrono::steady_clock::duration itp_time{};
  FormulaInterpolationStats total;
  auto t0 = std::chrono::steady_clock::now();
  // Pairs where a and b are each satisfiable but a /\ b is not: the interesting ones.
  while (kept < 200 && tries < 5000) {
    ++tries;
    Term a = f.em.and_(gen.formula(x, y, p, 2), gen.formula(x, y, p, 2));
    Term b = f.em.and_(gen.formula(z, y, q, 2), gen.formula(z, y, q, 2));
    if (f.checker.check_assuming(std::vector<Term>{a, b}) != SatResult::Unsat) continue;
    if (f.unsat({a}) || f.unsat({b})) continue;
    ++kept;
    FormulaInterpolationStats st;
    std::string why;
    const auto t1 = std::chrono::steady_clock::now();
    auto i = interpolate_formulas(f.solver, a, b, std::vector<VarId>{y}, {}, &st, &why);
    itp_time += std::chrono::steady_clock::now() - t1;
    INFO("a = " << to_string(a, f.em));
    INFO("b = " << to_string(b, f.em));
    REQUIRE_MESSAGE(i.has_value(), why);
    INFO("I = " << to_string(*i, f.em));
    f.check_interpolant(a, b, {y}, *i);
    if (st.projections > 0)
      ++with_projection;
    else
      ++farkas_only;
    if (st.a_cubes > 1) ++multi_a;
    if (st.b_cubes > 1) ++multi_b;
    total.a_cubes += st.a_cubes;
    total.b_cubes += st.b_cubes;
    total.farkas += st.farkas;
    total.projections += st.projections;
    total.solver_calls += st.solver_calls;
  }
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  MESSAGE(kept << " pairs of " << tries << " tried (" << farkas_only << " by Farkas alone, "
               << with_projection << " with a projection, " << multi_a << " with several A-cubes, "
               << multi_b << " with several B-cubes): " << total.a_cubes << " A-cubes, "
               << total.b_cubes << " B-cubes, " << total.farkas << " Farkas, " << total.projections
               << " projections, " << total.solver_calls << " solver calls; "
               << std::chrono::duration_cast<std::chrono::milliseconds>(itp_time).count()
               << " ms interpolating, " << ms << " ms in all");
  CHECK(kept == 200);
}

}  // namespace formula_interpolation_test
