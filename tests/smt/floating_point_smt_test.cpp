// cvc5's theory of floating point (smt/cvc5_solver.hpp) agrees with the host evaluation
// (expr/floating_point.hpp) on every operator, on operands that cover the zeros,
// subnormals, the largest finite values, the infinities, NaN and halfway cases; models
// give bit patterns that the evaluator reads.

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "precis/expr/eval.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/smt/cvc5_solver.hpp"

using namespace precis;

namespace floating_point_smt_test {

namespace {

std::vector<double> operands() {
  return {0.0,        -0.0,          1.0,     -1.5,    0.1,      2.5,       3.0,
          1e300,      -1e-310,       DBL_MAX, DBL_MIN, INFINITY, -INFINITY, NAN,
          16777217.0, 0.5 + 0x1p-53, 1e-45,   FLT_MAX, -FLT_MIN, 7.0};
}

Term constant(ExprManager& em, Type t, double d) {
  if (t == Type::Float32) return em.fp_val(t, fp::bits_of(static_cast<float>(d)));
  return em.fp_val(t, fp::bits_of(d));
}

}  // namespace

TEST_CASE("cvc5 FP: every operator's value is the evaluator's, and only that") {
  ExprManager em;
  Cvc5Solver s(em);
  const auto ops = operands();
  for (Type t : {Type::Float32, Type::Float64}) {
    const Term x = em.var(em.declare(std::string("x") + to_string(t), t));
    const Term y = em.var(em.declare(std::string("y") + to_string(t), t));
    const Term r = em.var(em.declare(std::string("r") + to_string(t), t));
    const Term b = em.var(em.declare(std::string("b") + to_string(t), Type::Bool));
    // every third pair: 7 x 7 operands per operator keeps this under a few seconds
    for (std::size_t i = 0; i < ops.size(); i += 3)
      for (std::size_t j = 1; j < ops.size(); j += 3) {
        const Term cx = constant(em, t, ops[i]), cy = constant(em, t, ops[j]);
        auto val = [&](VarId v) -> OptValue {
          return v == x.var() ? cx.value() : v == y.var() ? OptValue(cy.value()) : std::nullopt;
        };
        auto push_operands = [&] {  // x and y fixed to the pair, in a frame of their own
          s.push();
          s.assert_(em.eq(x, cx));
          s.assert_(em.eq(y, cy));
        };
        const std::vector<Term> terms = {em.mk(Op::FpAdd, {x, y}),
                                         em.mk(Op::FpSub, {x, y}),
                                         em.mk(Op::FpMul, {x, y}),
                                         em.mk(Op::FpDiv, {x, y}),
                                         em.mk(Op::FpSqrt, {x}),
                                         em.mk(Op::FpNeg, {y}),
                                         em.fp_round(x, FpRounding::NearestEven),
                                         em.fp_round(y, FpRounding::NearestAway),
                                         em.fp_round(x, FpRounding::Down)};
        for (const Term e : terms) {
          CAPTURE(to_string(e, em));
          CAPTURE(ops[i]);
          CAPTURE(ops[j]);
          const OptValue want = evaluate(e, val);
          REQUIRE(want);
          push_operands();
          s.assert_(em.eq(r, e));
          REQUIRE(s.check() == SatResult::Sat);
          CHECK(s.value(r) == want);
          s.assert_(em.neq(r, em.fp_val(t, *want)));
          CHECK(s.check() == SatResult::Unsat);
          s.pop();
        }
        for (Op op : {Op::FpEq, Op::FpLt, Op::FpLe, Op::FpIsNan, Op::FpIsSubnormal, Op::FpIsNeg}) {
          const Term e = op == Op::FpIsNan || op == Op::FpIsSubnormal || op == Op::FpIsNeg
                             ? em.mk(op, {x})
                             : em.mk(op, {x, y});
          const OptValue want = evaluate(e, val);
          REQUIRE(want);
          push_operands();
          s.assert_(em.iff(b, e));
          REQUIRE(s.check() == SatResult::Sat);
          CHECK(s.value(b) == want);
          s.pop();
        }
      }
  }
}

TEST_CASE("cvc5 FP: conversions agree with the evaluator") {
  ExprManager em;
  Cvc5Solver s(em);
  const Term d = em.var(em.declare("d", Type::Float64));
  const Term f = em.var(em.declare("f", Type::Float32));
  const Term n = em.var(em.declare("n", Type::Int));
  for (double v : operands()) {
    CAPTURE(v);
    const Term c = em.fp_val(Type::Float64, fp::bits_of(v));
    for (const Term e : {em.fp_convert(c, Type::Float32)}) {
      s.push();
      s.assert_(em.eq(f, e));
      REQUIRE(s.check() == SatResult::Sat);
      CHECK(s.value(f) == evaluate(e, EmptyValuation{}));
      s.pop();
    }
    if (std::fabs(v) < 1e18 || !std::isfinite(v)) {
      const Term e = em.fp_to_int(c);
      s.push();
      s.assert_(em.eq(n, e));
      REQUIRE(s.check() == SatResult::Sat);
      CHECK(s.value(n) == evaluate(e, EmptyValuation{}));
      s.pop();
    }
  }
  for (std::int64_t k : {std::int64_t{0}, std::int64_t{-7}, std::int64_t{16777217},
                         std::int64_t{16777219}, std::int64_t{9007199254740993LL}, INT64_MIN}) {
    CAPTURE(k);
    for (Type t : {Type::Float32, Type::Float64}) {
      const Term e = em.fp_convert(em.int_val(k), t);
      s.push();
      s.assert_(em.eq(t == Type::Float32 ? f : d, e));
      REQUIRE(s.check() == SatResult::Sat);
      CHECK(s.value(t == Type::Float32 ? f : d) == evaluate(e, EmptyValuation{}));
      s.pop();
    }
  }
}

TEST_CASE("cvc5 FP: facts of IEEE arithmetic, and models that are bit patterns") {
  ExprManager em;
  Cvc5Solver s(em);
  const Term x = em.var(em.declare("x", Type::Float32));
  const Term one = em.fp_val(Type::Float32, fp::bits_of(1.0F));
  // x + 1 == x has models (large x, infinities, not NaN): a float loop counter can stall
  s.push();
  s.assert_(em.mk(Op::FpEq, {em.mk(Op::FpAdd, {x, one}), x}));
  s.assert_(em.not_(em.mk(Op::FpIsInf, {x})));
  REQUIRE(s.check() == SatResult::Sat);
  const auto v = s.value(x);
  REQUIRE(v);
  CHECK(fp::valid_bits(Type::Float32, *v));
  CHECK(std::fabs(fp::to_float(*v)) >= 16777216.0F);
  s.pop();
  // x != x only for NaN; the model is the canonical NaN
  s.push();
  s.assert_(em.not_(em.mk(Op::FpEq, {x, x})));
  REQUIRE(s.check() == SatResult::Sat);
  CHECK(s.value(x) == fp::nan32);
  s.pop();
  // 0 <= x <= 1 implies 0 <= x * x <= 1 (no rounding takes it out)
  s.push();
  const Term zero = em.fp_val(Type::Float32, 0);
  s.assert_(em.mk(Op::FpLe, {zero, x}));
  s.assert_(em.mk(Op::FpLe, {x, one}));
  const Term sq = em.mk(Op::FpMul, {x, x});
  s.assert_(em.not_(em.and_(em.mk(Op::FpLe, {zero, sq}), em.mk(Op::FpLe, {sq, one}))));
  CHECK(s.check() == SatResult::Unsat);
  s.pop();
}

}  // namespace floating_point_smt_test
