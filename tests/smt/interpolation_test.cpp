#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "precis/expr/printer.hpp"
#include "precis/refine/farkas_interpolation.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"
#include "precis/smt/path_formula.hpp"

using namespace precis;

namespace interpolation_test {

namespace {

struct Fixture {
  ExprManager em;
  SsaVars ssa{em};
  Cvc5Solver solver{ssa.ssa()};

  VarId declare(const char* n, Type t = Type::Int) { return em.declare(n, t); }
  Term v(VarId x) { return em.var(x); }
  Term c(std::int64_t k) { return em.int_val(k); }

  // Interpolates and checks the sequence with the solver (the three conditions,
  // inductiveness, shared variables).
  std::optional<PathInterpolants> run(const std::vector<Operation>& ops,
                                      PathInterpolationOptions opt = {}) {
    REQUIRE(check_path_feasibility(ssa, ops, solver).infeasible());
    auto t0 = std::chrono::steady_clock::now();
    auto r = interpolate_path(ssa, ops, solver, opt);
    auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    if (r) {
      MESSAGE(ops.size() << " steps, tier " << std::string(to_string(r->tier)) << ": " << us
                         << " us");
      REQUIRE(r->interpolants.size() == ops.size() + 1);
      CHECK(r->interpolants.front() == em.true_());
      std::string err = check_interpolant_sequence(ssa, ops, r->interpolants, solver);
      CHECK_MESSAGE(err.empty(), err);
    }
    return r;
  }
  std::string show(const PathInterpolants& r) {
    std::string s;
    for (Term t : r.interpolants) s += "{" + to_string(t, em) + "} ";
    return s;
  }
};

}  // namespace

TEST_CASE("interpolation: Farkas on a linear path") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  std::vector<Operation> ops{
      Assign{x, f.c(0)},
      Assign{y, f.c(10)},
      Assume{f.em.lt(f.v(x), f.v(y))},
      Assign{x, f.em.add(f.v(x), f.c(1))},
      Assume{f.em.gt(f.v(x), f.v(y))},
  };
  auto r = f.run(ops);
  REQUIRE(r.has_value());
  CHECK(r->tier == InterpolantTier::Farkas);
  CHECK(r->interpolants.back() == f.em.false_());
  MESSAGE(f.show(*r));
}

TEST_CASE("interpolation: relational path old := new; assume new /= old") {
  Fixture f;
  VarId old_ = f.declare("old");
  VarId new_ = f.declare("new");
  std::vector<Operation> ops{Havoc{new_}, Assign{old_, f.v(new_)}, Skip{},
                             Assume{f.em.neq(f.v(new_), f.v(old_))}};
  auto r = f.run(ops);
  REQUIRE(r.has_value());
  CHECK(r->tier == InterpolantTier::Farkas);  // by splitting the disequality
  MESSAGE(f.show(*r));
  // the interpolant after the assignment relates the two
  std::vector<VarId> vs;
  collect_vars(r->interpolants[2], vs);
  CHECK(vs == std::vector<VarId>{old_, new_});
}

TEST_CASE("interpolation: parity needs the core + wp tier") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  VarId z = f.declare("z");
  std::vector<Operation> ops{
      Havoc{x},
      Assume{f.em.gt(f.v(z), f.c(0))},  // irrelevant: not in the core
      Assign{y, f.em.mul(f.c(2), f.v(x))},
      Havoc{x},
      Assign{y, f.em.add(f.v(y), f.c(4))},
      Assume{f.em.eq(f.em.mod(f.v(y), f.c(2)), f.c(1))},
  };
  auto r = f.run(ops);
  REQUIRE(r.has_value());
  CHECK(r->tier == InterpolantTier::CoreWp);
  MESSAGE(f.show(*r));
  PathInterpolationOptions only_farkas;
  only_farkas.core_wp = false;
  CHECK_FALSE(interpolate_path(f.ssa, ops, f.solver, only_farkas).has_value());
}

TEST_CASE("interpolation: non-linear and boolean steps") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  VarId p = f.declare("p", Type::Bool);
  SUBCASE("a non-linear step that is not needed is dropped by Farkas") {
    std::vector<Operation> ops{Assign{x, f.c(3)}, Assign{y, f.em.mul(f.v(x), f.v(x))},
                               Assume{f.em.lt(f.v(x), f.c(2))}};
    auto r = f.run(ops);
    REQUIRE(r.has_value());
    CHECK(r->tier == InterpolantTier::Farkas);
  }
  SUBCASE("a boolean conflict goes to core + wp") {
    std::vector<Operation> ops{Assign{p, f.em.gt(f.v(x), f.c(0))}, Assume{f.v(p)},
                               Assign{x, f.em.sub(f.v(x), f.c(1))},
                               Assume{f.em.lt(f.v(x), f.c(0))}};
    auto r = f.run(ops);
    REQUIRE(r.has_value());
    MESSAGE(std::string(to_string(r->tier)) << ": " << f.show(*r));
  }
  SUBCASE("havoc in the middle, wp needs quantifier elimination") {
    std::vector<Operation> ops{Havoc{x}, Assume{f.em.eq(f.em.mod(f.v(x), f.c(3)), f.c(0))},
                               Assign{y, f.em.add(f.v(x), f.c(3))}, Havoc{x},
                               Assume{f.em.eq(f.em.mod(f.v(y), f.c(3)), f.c(2))}};
    auto r = f.run(ops);
    REQUIRE(r.has_value());
    CHECK(r->tier == InterpolantTier::CoreWp);
    MESSAGE(f.show(*r));
  }
}

TEST_CASE("interpolation: paths of 10 and 100 steps") {
  for (std::size_t len : {10U, 100U}) {
    Fixture f;
    VarId i = f.declare("i");
    VarId n = f.declare("n");
    // i := 0; n := k; (assume i < n; i := i + 1)^k; assume i < n
    const std::size_t k = (len - 3) / 2;
    std::vector<Operation> ops{Assign{i, f.c(0)}, Assign{n, f.c(static_cast<std::int64_t>(k))}};
    for (std::size_t j = 0; j < k; ++j) {
      ops.push_back(Assume{f.em.lt(f.v(i), f.v(n))});
      ops.push_back(Assign{i, f.em.add(f.v(i), f.c(1))});
    }
    ops.push_back(Assume{f.em.lt(f.v(i), f.v(n))});
    auto r = f.run(ops);
    REQUIRE(r.has_value());
    CHECK(r->tier == InterpolantTier::Farkas);
    // the same path through the core + wp tier
    PathInterpolationOptions wp;
    wp.farkas = false;
    auto t0 = std::chrono::steady_clock::now();
    auto r2 = interpolate_path(f.ssa, ops, f.solver, wp);
    auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    REQUIRE(r2.has_value());
    MESSAGE(ops.size() << " steps, core+wp: " << us << " us");
    std::string err = check_interpolant_sequence(f.ssa, ops, r2->interpolants, f.solver);
    CHECK_MESSAGE(err.empty(), err);
  }
}

TEST_CASE("interpolation: cvc5's interpolation is opt-in") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  std::vector<Operation> ops{Assume{f.em.ge(f.v(x), f.c(0))}, Assign{y, f.v(x)},
                             Assume{f.em.lt(f.v(y), f.c(0))}};
  PathInterpolationOptions only_cvc5;
  only_cvc5.farkas = false;
  only_cvc5.core_wp = false;
  CHECK_FALSE(
      interpolate_path(f.ssa, ops, f.solver, PathInterpolationOptions{false, false}).has_value());
  only_cvc5.cvc5 = true;
  auto r = f.run(ops, only_cvc5);
  REQUIRE(r.has_value());
  CHECK(r->tier == InterpolantTier::Cvc5);
  MESSAGE(f.show(*r));
  CHECK(f.solver.stats().interpolation_calls == 2);
}

TEST_CASE("interpolation: feasible paths give no interpolants") {
  Fixture f;
  VarId x = f.declare("x");
  std::vector<Operation> ops{Assume{f.em.gt(f.v(x), f.c(0))}};
  CHECK_FALSE(interpolate_path(f.ssa, ops, f.solver).has_value());
}

}  // namespace interpolation_test
