// The array sort: select, store and constant arrays in the term language, the
// evaluators, the concrete interpreter (array inputs, in-place stores), cvc5 (models of
// arrays) and quantifier elimination with array atoms.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "precis/expr/eval.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/printer.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"

using namespace precis;

namespace array_theory_test {

namespace {

struct Arrays {
  ExprManager em;
  VarId a_id = em.declare("a", Type::Array);
  VarId b_id = em.declare("b", Type::Array);
  VarId i_id = em.declare("i", Type::Int);
  VarId j_id = em.declare("j", Type::Int);
  Term a = em.var(a_id);
  Term b = em.var(b_id);
  Term i = em.var(i_id);
  Term j = em.var(j_id);
  Term n(std::int64_t v) { return em.int_val(v); }
};

// A valuation with arrays: i = 2, j = 5, a = {2: 7; others 1}.
struct Val {
  OptValue operator()(VarId x) const { return x == 2 ? OptValue(2) : OptValue(5); }
  OptValue select(VarId, std::int64_t k) const { return k == 2 ? 7 : 1; }
};

}  // namespace

TEST_CASE("array terms: types, printing, and the type errors of misuse") {
  Arrays t;
  auto& em = t.em;
  const Term s = em.store(t.a, t.i, t.n(3));
  CHECK(s.type() == Type::Array);
  CHECK(em.select(s, t.j).type() == Type::Int);
  CHECK(em.eq(t.a, t.b).is_bool());  // block formulas join SSA versions of arrays
  CHECK(to_string(em.select(s, t.j), em) == "a[i <- 3][j]");
  CHECK(to_string(em.const_array(t.n(0)), em) == "[default <- 0]");
  CHECK_THROWS_AS(em.eq(t.a, t.i), type_error);
  CHECK_THROWS_AS(em.add(t.a, t.i), type_error);
  CHECK_THROWS_AS(em.select(t.i, t.j), type_error);
  CHECK_THROWS_AS(em.store(t.a, t.a, t.i), type_error);
  CHECK_THROWS_AS(em.const_array(t.i), type_error);  // SMT-LIB's constant arrays are values
}

TEST_CASE("evaluation: reads through stores and constant arrays; a variable needs select") {
  Arrays t;
  auto& em = t.em;
  const Term chain = em.store(em.store(em.const_array(t.n(4)), t.n(5), t.n(9)), t.i, t.n(8));
  // i = 2: chain[2] = 8, chain[5] = 9, chain[6] = 4.
  CHECK(evaluate(em.select(chain, t.n(2)), Val{}) == 8);
  CHECK(evaluate(em.select(chain, t.j), Val{}) == 9);
  CHECK(evaluate(em.select(chain, t.n(6)), Val{}) == 4);
  // Over the variable a, the valuation's select answers; without one, unknown.
  const Term over_a = em.store(t.a, t.j, t.n(0));
  CHECK(evaluate(em.select(over_a, t.i), Val{}) == 7);
  CHECK(evaluate(em.select(over_a, t.j), Val{}) == 0);
  CHECK(evaluate(em.select(over_a, t.n(3)), Val{}) == 1);
  const auto plain = [](VarId) -> OptValue { return 2; };
  CHECK_FALSE(evaluate(em.select(t.a, t.i), plain).has_value());
  CHECK_FALSE(evaluate(em.eq(t.a, t.b), plain).has_value());  // no extensional evaluation
  // A store at an unknown index decides nothing below it, but one above it still does.
  const auto no_j = [](VarId x) -> OptValue {
    if (x == 2) return 2;
    return std::nullopt;
  };
  CHECK_FALSE(evaluate(em.select(em.store(em.const_array(t.n(0)), t.j, t.n(1)), t.i), no_j));
  CHECK(
      evaluate(em.select(em.store(em.store(em.const_array(t.n(0)), t.j, t.n(1)), t.i, t.n(6)), t.i),
               no_j) == 6);
}

TEST_CASE("replay: array inputs, stores in place, copies, and reads of what was stored") {
  Arrays t;
  auto& em = t.em;
  const VarId r_id = em.declare("r", Type::Int);
  const Term r = em.var(r_id);
  // havoc a; i := 3; a := a[i <- 10]; b := a; b := b[i + 1 <- 11]; r := a[4] + b[4] + a[9]
  std::vector<Operation> ops = {
      Havoc{t.a_id},
      Assign{t.i_id, t.n(3)},
      Assign{t.a_id, em.store(t.a, t.i, t.n(10))},
      Assign{t.b_id, t.a},
      Assign{t.b_id, em.store(t.b, em.add(t.i, t.n(1)), t.n(11))},
      Assign{r_id, em.add(em.add(em.select(t.a, t.n(4)), em.select(t.b, t.n(4))),
                          em.select(t.a, t.n(9)))},
      Assume{em.eq(r, t.n(11 + 5 + 100))},
  };
  PathInputs in;
  in.initial.assign(em.num_vars(), 0);
  in.havoc.assign(ops.size(), 0);
  ArrayValue chosen;
  chosen.fallback = 100;
  chosen.set(4, 5);
  in.arrays.havoc[0] = chosen;
  const ReplayResult rr = replay(em, ops, in, ReplayRecord::Changes);
  CAPTURE(rr.reason);
  REQUIRE(rr.ok);
  CHECK(rr.arrays.at(t.a_id).at(3) == 10);
  CHECK(rr.arrays.at(t.a_id).at(4) == 5);
  CHECK(rr.arrays.at(t.b_id).at(3) == 10);
  CHECK(rr.arrays.at(t.b_id).at(4) == 11);
  for (const auto& c : rr.changes) CHECK(c.var != t.a_id);  // arrays are not changes
  // Another choice for the havoc fails the assume.
  in.arrays.havoc[0].fallback = 0;
  CHECK_FALSE(replay(em, ops, in).ok);
  // An initial array input; a missing one is all zeros.
  std::vector<Operation> read = {Assume{em.eq(em.select(t.a, t.n(7)), t.n(3))}};
  PathInputs init;
  init.initial.assign(em.num_vars(), 0);
  CHECK_FALSE(replay(em, read, init).ok);
  init.arrays.initial[t.a_id].set(7, 3);
  CHECK(replay(em, read, init).ok);
}

TEST_CASE("cvc5: arrays are decided and their models replay") {
  Arrays t;
  auto& em = t.em;
  Cvc5Solver s(em);
  // a[i <- 1][j] = 2 forces j /= i and a[j] = 2.
  s.assert_(em.eq(em.select(em.store(t.a, t.i, t.n(1)), t.j), t.n(2)));
  REQUIRE(s.check() == SatResult::Sat);
  const auto iv = s.value(t.i), jv = s.value(t.j);
  REQUIRE(iv);
  REQUIRE(jv);
  CHECK(*iv != *jv);
  const auto av = s.array_value(t.a);
  REQUIRE(av);
  CHECK(av->at(*jv) == 2);
  // Read over write at the same index, and extensionality.
  s.assert_(em.eq(t.i, t.j));
  CHECK(s.check() == SatResult::Unsat);
  Cvc5Solver e(em);
  e.assert_(em.eq(t.a, t.b));
  e.assert_(em.neq(em.select(t.a, t.i), em.select(t.b, t.i)));
  CHECK(e.check() == SatResult::Unsat);
  Cvc5Solver c(em);
  c.assert_(em.eq(t.a, em.const_array(t.n(6))));
  c.assert_(em.neq(em.select(t.a, t.i), t.n(6)));
  CHECK(c.check() == SatResult::Unsat);
}

TEST_CASE("cvc5: path feasibility reads array inputs the replay accepts") {
  Arrays t;
  auto& em = t.em;
  // havoc a; havoc i; assume 0 <= i < 10; assume a[i] = 42; assume a[i + 1] = -7
  std::vector<Operation> ops = {
      Havoc{t.a_id},
      Havoc{t.i_id},
      Assume{em.and_(em.le(t.n(0), t.i), em.lt(t.i, t.n(10)))},
      Assume{em.eq(em.select(t.a, t.i), t.n(42))},
      Assume{em.eq(em.select(t.a, em.add(t.i, t.n(1))), t.n(-7))},
  };
  SsaVars ssa(em);
  Cvc5Solver solver(ssa.ssa());
  const PathFeasibility f = check_path_feasibility(ssa, ops, solver);
  CAPTURE(f.reason);
  REQUIRE(f.feasible());
  REQUIRE(f.inputs.arrays.havoc.count(0) == 1);
  const ReplayResult rr = replay(em, ops, f.inputs);
  CAPTURE(rr.reason);
  CHECK(rr.ok);
  // The same path with a contradicting read is infeasible.
  ops.push_back(Assume{em.eq(em.select(t.a, t.i), t.n(41))});
  SsaVars ssa2(em);
  Cvc5Solver solver2(ssa2.ssa());
  CHECK(check_path_feasibility(ssa2, ops, solver2).infeasible());
}

TEST_CASE("cvc5: quantifier elimination treats array reads free of the bound variables as atoms") {
  Arrays t;
  auto& em = t.em;
  const VarId k_id = em.declare("k", Type::Int);
  const Term k = em.var(k_id);
  Cvc5Solver s(em);
  // exists j. j > 3 and k >= j and a[3] /= 6  ==  k > 3 and a[3] /= 6
  const Term a3 = em.select(t.a, t.n(3));
  const Term phi =
      em.conj(std::vector<Term>{em.gt(t.j, t.n(3)), em.ge(k, t.j), em.neq(a3, t.n(6))});
  const VarId bound[] = {t.j_id};
  const auto q = s.eliminate_exists(bound, phi);
  REQUIRE(q);
  CAPTURE(to_string(*q, em));
  const Term want = em.and_(em.gt(k, t.n(3)), em.neq(a3, t.n(6)));
  Cvc5Solver check(em);
  check.assert_(em.not_(em.iff(*q, want)));
  CHECK(check.check() == SatResult::Unsat);
  // A bound variable inside an array read: declined, not guessed.
  const Term psi = em.and_(em.eq(em.select(t.a, t.j), t.n(1)), em.gt(t.j, k));
  CHECK_FALSE(s.eliminate_exists(bound, psi).has_value());
}

}  // namespace array_theory_test
