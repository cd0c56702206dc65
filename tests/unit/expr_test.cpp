#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <map>

#include "precis/expr/eval.hpp"
#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"

using namespace precis;

namespace expr_test {

namespace {
struct MapValuation {
  std::map<VarId, std::int64_t> m;
  OptValue operator()(VarId v) const {
    auto it = m.find(v);
    if (it == m.end()) return std::nullopt;
    return it->second;
  }
};
}  // namespace

TEST_CASE("terms are hash-consed: structural equality is identity") {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  Term a = em.add(em.var(x), em.int_val(1));
  Term b = em.add(em.var(x), em.int_val(1));
  CHECK(a == b);
  CHECK(a.hash() == b.hash());
  CHECK_FALSE(a == em.add(em.int_val(1), em.var(x)));
  CHECK(a.type() == Type::Int);
  CHECK(em.lt(a, em.int_val(3)).type() == Type::Bool);
}

TEST_CASE("ill-typed terms are rejected") {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId p = em.declare("p", Type::Bool);
  CHECK_THROWS_AS(em.add(em.var(x), em.var(p)), type_error);
  CHECK_THROWS_AS(em.not_(em.var(x)), type_error);
  CHECK_THROWS_AS(em.eq(em.var(x), em.var(p)), type_error);
  CHECK_THROWS_AS(em.ite(em.var(x), em.var(x), em.var(x)), type_error);
}

TEST_CASE("Euclidean div, mod and rem follow the .cfa format") {
  // Examples from FORMAT.md.
  CHECK(*arith::mod(-5, 3) == 1);
  CHECK(*arith::mod(5, -3) == 2);
  CHECK(*arith::div(5, 3) == 1);
  CHECK(*arith::div(5, -3) == -1);
  CHECK(*arith::div(-5, 3) == -2);
  CHECK(*arith::div(-5, -3) == 2);
  CHECK(*arith::rem(5, -3) == -2);
  CHECK(*arith::rem(-5, 3) == 1);
  CHECK(*arith::rem(-5, -3) == -1);
  // a = b * div(a, b) + mod(a, b) on a grid of values.
  for (std::int64_t a = -9; a <= 9; ++a)
    for (std::int64_t b = -4; b <= 4; ++b) {
      if (b == 0) continue;
      auto q = arith::div(a, b), r = arith::mod(a, b);
      REQUIRE((q && r));
      CHECK(a == b * *q + *r);
      CHECK(*r >= 0);
      CHECK(*r < (b < 0 ? -b : b));
    }
}

TEST_CASE("division by zero and overflow give unknown, never a wrapped value") {
  CHECK_FALSE(arith::div(1, 0));
  CHECK_FALSE(arith::mod(1, 0));
  CHECK_FALSE(arith::rem(1, 0));
  CHECK_FALSE(arith::add(INT64_MAX, 1));
  CHECK_FALSE(arith::sub(INT64_MIN, 1));
  CHECK_FALSE(arith::mul(INT64_MAX / 2 + 1, 2));
  CHECK_FALSE(arith::neg(INT64_MIN));
  CHECK_FALSE(arith::div(INT64_MIN, -1));
  CHECK(*arith::mod(INT64_MIN, -1) == 0);
  CHECK(*arith::mod(INT64_MIN, INT64_MIN) == 0);
  CHECK(*arith::mod(-1, INT64_MIN) == INT64_MAX);

  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  MapValuation v{{{x, INT64_MAX}}};
  CHECK_FALSE(evaluate(em.add(em.var(x), em.int_val(1)), v));
  CHECK_FALSE(evaluate(em.div(em.int_val(7), em.sub(em.var(x), em.var(x))), v));
  // The comparison above an overflow is unknown too, never true or false.
  CHECK_FALSE(evaluate(em.gt(em.add(em.var(x), em.int_val(1)), em.var(x)), v));
}

TEST_CASE("evaluation under a partial valuation") {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  VarId p = em.declare("p", Type::Bool);
  Term X = em.var(x), Y = em.var(y), P = em.var(p);
  MapValuation v{{{x, 11}}};
  CHECK(*evaluate(em.add(X, em.int_val(5)), v) == 16);
  CHECK(*evaluate(em.mul(X, em.int_val(5)), v) == 55);
  CHECK(*evaluate(em.sub(em.int_val(5), X), v) == -6);
  CHECK(*evaluate(em.div(X, em.int_val(5)), v) == 2);
  CHECK(*evaluate(em.mod(X, em.int_val(5)), v) == 1);
  CHECK(*evaluate(em.neg(X), v) == -11);
  CHECK_FALSE(evaluate(em.add(X, Y), v));
  // y * 0 is 0 whatever y is; false and unknown is false; true or unknown is true.
  CHECK(*evaluate(em.mul(Y, em.int_val(0)), v) == 0);
  CHECK(*evaluate(em.and_(em.lt(X, em.int_val(0)), P), v) == 0);
  CHECK(*evaluate(em.or_(P, em.gt(X, em.int_val(0))), v) == 1);
  CHECK(*evaluate(em.imply(em.lt(X, em.int_val(0)), P), v) == 1);
  CHECK_FALSE(evaluate(em.imply(P, em.lt(X, em.int_val(0))), v));
  CHECK_FALSE(evaluate(em.xor_(P, em.true_()), v));
  CHECK(*evaluate(em.ite(P, X, em.int_val(11)), v) == 11);  // both branches agree
  CHECK_FALSE(evaluate(em.ite(P, X, Y), v));
  MapValuation w{{{x, 1}, {p, 1}}};
  CHECK(*evaluate(em.iff(P, em.eq(X, em.int_val(1))), w) == 1);
  CHECK(*evaluate(em.xor_(P, em.true_()), w) == 0);
  CHECK(*evaluate(em.not_(P), w) == 0);
  CHECK(*evaluate(em.neq(X, em.int_val(1)), w) == 0);
  CHECK(*evaluate(em.le(X, em.int_val(1)), w) == 1);
  CHECK(*evaluate(em.ge(X, em.int_val(2)), w) == 0);
}

TEST_CASE("printing uses .cfa syntax and the format's precedence") {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId z = em.declare("z", Type::Int);
  VarId p = em.declare("p", Type::Bool);
  Term X = em.var(x), Z = em.var(z), P = em.var(p);
  CHECK(to_string(em.not_(em.eq(Z, em.int_val(16))), em) == "not z = 16");
  CHECK(to_string(em.mul(em.add(X, Z), em.int_val(2)), em) == "(x + z) * 2");
  CHECK(to_string(em.sub(X, em.sub(Z, em.int_val(1))), em) == "x - (z - 1)");
  CHECK(to_string(em.sub(em.sub(X, Z), em.int_val(1)), em) == "x - z - 1");
  CHECK(to_string(em.and_(P, em.or_(P, em.lt(X, Z))), em) == "p and (p or x < z)");
  CHECK(to_string(em.not_(em.not_(P)), em) == "not (not p)");
  CHECK(to_string(em.add(X, em.int_val(-5)), em) == "x + (-5)");
  CHECK(to_string(em.ite(P, X, em.mod(Z, em.int_val(3))), em) == "if p then x else z mod 3");
  CHECK(to_string(em.eq(em.not_(P), P), em) == "(not p) = p");
}

}  // namespace expr_test
