// The solver's encoding of iand_k and pow2 (smt/cvc5_solver.hpp: bit expansion in
// linear arithmetic) agrees with the evaluators, and decides the C facts the front end
// relies on.

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "precis/expr/eval.hpp"
#include "precis/smt/cvc5_solver.hpp"

using namespace precis;

namespace bit_operations_test {

TEST_CASE("cvc5: iand_k and pow2 of given values are the evaluator's, and only those") {
  ExprManager em;
  const Term x = em.var(em.declare("x", Type::Int));
  const Term y = em.var(em.declare("y", Type::Int));
  const Term r = em.var(em.declare("r", Type::Int));
  Cvc5Solver s(em);
  const std::vector<std::int64_t> vals = {-300, -129, -1, 0, 1, 6, 127, 128, 255, 70000};
  for (unsigned k : {1U, 5U, 8U, 32U}) {
    for (std::int64_t a : vals)
      for (std::int64_t b :
           {std::int64_t{-1}, std::int64_t{0}, std::int64_t{13}, std::int64_t{200}}) {
        CAPTURE(k);
        CAPTURE(a);
        CAPTURE(b);
        const std::int64_t want =
            *evaluate(em.bit_and(em.int_val(a), em.int_val(b), k), EmptyValuation{});
        s.push();
        s.assert_(em.eq(x, em.int_val(a)));
        s.assert_(em.eq(y, em.int_val(b)));
        s.assert_(em.eq(r, em.bit_and(x, y, k)));
        REQUIRE(s.check() == SatResult::Sat);
        CHECK(s.value(r) == want);
        s.assert_(em.neq(r, em.int_val(want)));
        CHECK(s.check() == SatResult::Unsat);
        s.pop();
      }
  }
  for (std::int64_t n : {-4, 0, 1, 7, 31, 62}) {
    CAPTURE(n);
    s.push();
    s.assert_(em.eq(x, em.int_val(n)));
    s.assert_(em.eq(r, em.pow2(x)));
    REQUIRE(s.check() == SatResult::Sat);
    CHECK(s.value(r) == *evaluate(em.pow2(em.int_val(n)), EmptyValuation{}));
    s.pop();
  }
}

TEST_CASE("cvc5: x & (x - 1) = 0 has only powers of two (and 0), found and refuted") {
  ExprManager em;
  const Term x = em.var(em.declare("x", Type::Int));
  Cvc5Solver s(em);
  const Term clears = em.eq(em.bit_and(x, em.sub(x, em.int_val(1)), 32), em.int_val(0));
  s.assert_(clears);
  s.assert_(em.le(em.int_val(0), x));
  s.assert_(em.lt(x, em.int_val(std::int64_t{1} << 31)));
  s.push();
  s.assert_(em.gt(x, em.int_val(1000)));
  s.assert_(em.lt(x, em.int_val(2000)));
  REQUIRE(s.check() == SatResult::Sat);
  CHECK(s.value(x) == 1024);
  s.pop();
  // An odd power of two above 1 does not exist.
  s.assert_(em.eq(em.mod(x, em.int_val(2)), em.int_val(1)));
  s.assert_(em.gt(x, em.int_val(1)));
  CHECK(s.check() == SatResult::Unsat);
}

}  // namespace bit_operations_test
