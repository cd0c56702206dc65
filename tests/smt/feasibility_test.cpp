#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "precis/path/concrete_interpreter.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"
#include "precis/smt/path_formula.hpp"

using namespace precis;

namespace feasibility_test {

namespace {

struct Fixture {
  ExprManager em;
  SsaVars ssa{em};
  Cvc5Solver solver{ssa.ssa()};

  VarId declare(const char* n, Type t = Type::Int) { return em.declare(n, t); }
  Term v(VarId x) { return em.var(x); }
  Term c(std::int64_t k) { return em.int_val(k); }

  // Every Feasible answer must replay to the end with the values it reports.
  PathFeasibility check(const std::vector<Operation>& ops) {
    PathFeasibility r = check_path_feasibility(ssa, ops, solver);
    if (r.feasible()) {
      ReplayResult rp = replay(em, ops, r.inputs);
      CHECK_MESSAGE(rp.ok, rp.reason);
      CHECK(rp.states.size() == ops.size() + 1);
    }
    return r;
  }
};

}  // namespace

TEST_CASE("ssa: encoding of a path") {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  SsaVars ssa(em);
  std::vector<Operation> ops{Assign{x, em.add(em.var(x), em.int_val(1))}, Havoc{y},
                             Assume{em.lt(em.var(x), em.var(y))}, Skip{}};
  PathFormula pf = encode_path(ssa, ops);
  REQUIRE(pf.size() == 4);
  REQUIRE(pf.cuts() == 5);
  CHECK(pf.index_at(0, x) == 0);
  CHECK(pf.index_at(1, x) == 1);
  CHECK(pf.index_at(1, y) == 0);
  CHECK(pf.index_at(2, y) == 1);
  CHECK(pf.index_at(4, x) == 1);
  CHECK(pf.index(3) == std::vector<std::uint32_t>{1, 1});
  CHECK_THROWS((void)pf.index_at(5, x));
  ExprManager& s = ssa.ssa();
  CHECK(to_string(pf.steps[0], s) == "x@1 = x@0 + 1");
  CHECK(pf.steps[1] == s.true_());
  CHECK(to_string(pf.steps[2], s) == "x@1 < y@1");
  CHECK(ssa.unshift(pf.steps[2]) == em.lt(em.var(x), em.var(y)));
  CHECK(ssa.origin(ssa.at(y, 1)).var == y);
  CHECK(ssa.origin(ssa.at(y, 1)).index == 1);
  CHECK(em.num_vars() == 2);  // the program's manager is untouched
}

TEST_CASE("feasibility: a path that needs x = 7") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  std::vector<Operation> ops{
      Assign{y, f.em.mul(f.c(3), f.v(x))},
      Assume{f.em.eq(f.v(y), f.c(21))},
      Assign{x, f.em.add(f.v(x), f.c(1))},
      Assume{f.em.gt(f.v(x), f.c(7))},
  };
  auto r = f.check(ops);
  REQUIRE(r.feasible());
  CHECK(r.inputs.initial[x] == 7);
}

TEST_CASE("feasibility: havoc, bools and nondeterministic initial values") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  VarId p = f.declare("p", Type::Bool);
  VarId q = f.declare("q", Type::Bool);
  VarId unused = f.declare("unused");
  std::vector<Operation> ops{
      Havoc{x},
      Assume{f.em.gt(f.v(x), f.v(y))},  // y: nondeterministic initial value
      Assign{p, f.em.lt(f.v(x), f.c(-10))},
      Assume{f.v(p)},
      Havoc{q},
      Assume{f.em.not_(f.v(q))},
      Havoc{x},
      Assume{f.em.eq(f.em.mod(f.v(x), f.c(5)), f.c(3))},
      Skip{},
      Assume{f.em.lt(f.v(x), f.c(0))},
  };
  auto r = f.check(ops);
  REQUIRE(r.feasible());
  CHECK(r.inputs.havoc[0] < -10);
  CHECK(r.inputs.initial[y] < r.inputs.havoc[0]);
  CHECK(r.inputs.havoc[4] == 0);
  CHECK(r.inputs.havoc[6] < 0);
  CHECK(r.inputs.initial[unused] == 0);  // not on the path: defaults to 0
}

TEST_CASE("feasibility: div, mod, rem are exact") {
  Fixture f;
  VarId a = f.declare("a");
  VarId b = f.declare("b");
  std::vector<Operation> ops{
      Assume{f.em.lt(f.v(b), f.c(0))},
      Assume{f.em.eq(f.em.rem(f.v(a), f.v(b)), f.c(-2))},
      Assume{f.em.eq(f.em.div(f.v(a), f.v(b)), f.c(3))},
      Assume{f.em.gt(f.v(b), f.c(-4))},
  };
  auto r = f.check(ops);
  REQUIRE(r.feasible());
}

TEST_CASE("feasibility: infeasible paths, with a core of steps") {
  Fixture f;
  VarId x = f.declare("x");
  VarId y = f.declare("y");
  SUBCASE("contradicting assumes") {
    std::vector<Operation> ops{Assume{f.em.gt(f.v(x), f.c(5))}, Assign{y, f.c(1)},
                               Assume{f.em.lt(f.v(x), f.c(3))}};
    auto r = f.check(ops);
    REQUIRE(r.infeasible());
    CHECK(r.core == std::vector<std::size_t>{0, 2});
  }
  SUBCASE("relational: old := new; assume new /= old") {
    VarId old_ = f.declare("old");
    VarId new_ = f.declare("new");
    std::vector<Operation> ops{Havoc{new_}, Assign{old_, f.v(new_)},
                               Assume{f.em.neq(f.v(new_), f.v(old_))}};
    auto r = f.check(ops);
    REQUIRE(r.infeasible());
    CHECK(r.core == std::vector<std::size_t>{1, 2});
  }
  SUBCASE("parity") {
    std::vector<Operation> ops{Havoc{x}, Assign{y, f.em.mul(f.c(2), f.v(x))},
                               Assume{f.em.eq(f.em.mod(f.v(y), f.c(2)), f.c(1))}};
    CHECK(f.check(ops).infeasible());
  }
}

TEST_CASE("feasibility: values beyond int64 are exact, never wrapped") {
  Fixture f;
  VarId x = f.declare("x");
  SUBCASE("a value beyond int64 is read and replayed exactly") {
    // x > 2^63 - 2, x := x + 1, x > 2^63 - 1: feasible over the integers, the values
    // after the increment (at least 2^63) only beyond int64.
    std::vector<Operation> ops{Assume{f.em.gt(f.v(x), f.c(INT64_MAX - 1))},
                               Assign{x, f.em.add(f.v(x), f.c(1))},
                               Assume{f.em.gt(f.v(x), f.c(INT64_MAX))}};
    auto r = f.check(ops);
    REQUIRE(r.feasible());
    CHECK(r.inputs.initial[x] >= INT64_MAX);
    ReplayResult rp = replay(f.em, ops, r.inputs);
    REQUIRE(rp.ok);
    CHECK(rp.state[x] == r.inputs.initial[x] + 1);
    CHECK(rp.state[x] > BigInt(INT64_MAX));
  }
  SUBCASE("a model with an intermediate beyond int64") {
    // x * 2 / 2 = x in SMT for every x; 2x exceeds int64, the replay computes it exactly.
    std::vector<Operation> ops{Assume{f.em.eq(f.em.div(f.em.mul(f.v(x), f.c(2)), f.c(2)), f.v(x))},
                               Assume{f.em.ge(f.v(x), f.c(INT64_MAX / 4 * 3))}};
    auto r = f.check(ops);
    CHECK(r.feasible());
  }
  SUBCASE("division by zero") {
    VarId y = f.declare("y");
    std::vector<Operation> ops{Assume{f.em.eq(f.v(y), f.c(0))},
                               Assume{f.em.eq(f.em.div(f.v(x), f.v(y)), f.c(5))}};
    auto r = f.check(ops);
    CHECK(r.status == PathStatus::Unknown);  // feasible only if x/0 = 5
  }
}

TEST_CASE("feasibility: one shared solver over many paths, 10/100/1000 steps") {
  Fixture f;
  VarId i = f.declare("i");
  VarId n = f.declare("n");
  for (std::size_t len : {10U, 100U, 1000U}) {
    // i := 0; (assume i < n; i := i + 1)^k; assume i >= n; assume n = k  -- feasible
    std::vector<Operation> ops{Assign{i, f.c(0)}};
    const std::size_t k = (len - 3) / 2;
    for (std::size_t j = 0; j < k; ++j) {
      ops.push_back(Assume{f.em.lt(f.v(i), f.v(n))});
      ops.push_back(Assign{i, f.em.add(f.v(i), f.c(1))});
    }
    ops.push_back(Assume{f.em.ge(f.v(i), f.v(n))});
    auto t0 = std::chrono::steady_clock::now();
    auto r = f.check(ops);
    auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    MESSAGE("feasible path of " << ops.size() << " steps: " << us << " us");
    REQUIRE(r.feasible());
    CHECK(r.inputs.initial[n] == static_cast<std::int64_t>(k));
    // the same path with one more increment needed is infeasible
    ops.push_back(Assume{f.em.gt(f.v(n), f.c(static_cast<std::int64_t>(k)))});
    t0 = std::chrono::steady_clock::now();
    auto r2 = f.check(ops);
    us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    MESSAGE("infeasible path of " << ops.size() << " steps: " << us << " us");
    CHECK(r2.infeasible());
  }
  CHECK(f.solver.stats().checks >= 6);
}

}  // namespace feasibility_test
