// Floating-point terms (expr/term.hpp) and their exact evaluation
// (expr/floating_point.hpp): IEEE 754 binary32 and binary64, rounded to nearest even, NaN
// canonical, the values of C's float and double on x86-64.

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "precis/expr/eval.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"

using namespace precis;

namespace floating_point_test {

namespace {

Term f32(ExprManager& em, float f) { return em.fp_val(Type::Float32, fp::bits_of(f)); }
Term f64(ExprManager& em, double d) { return em.fp_val(Type::Float64, fp::bits_of(d)); }
float as_f(const OptValue& v) { return fp::to_float(*v); }
double as_d(const OptValue& v) { return fp::to_double(*v); }
OptValue ev(Term t) { return evaluate(t, EmptyValuation{}); }

}  // namespace

TEST_CASE("fp: constants keep their bit pattern; every NaN is the canonical one") {
  ExprManager em;
  CHECK(f32(em, 1.5F).value() == 0x3fc00000);
  CHECK(f32(em, -0.0F).value() == 0x80000000LL);
  CHECK(f32(em, -0.0F) != f32(em, 0.0F));  // different values (SMT-LIB's =)
  CHECK(em.fp_val(Type::Float32, 0x7f800001LL).value() == fp::nan32);  // a signalling NaN
  CHECK(em.fp_val(Type::Float32, 0xffc00000LL).value() == fp::nan32);  // a negative NaN
  CHECK(f64(em, std::nan("7")).value() == fp::nan64);
  CHECK_THROWS(em.fp_val(Type::Float32, 0x100000000LL));  // no binary32 pattern
  CHECK_THROWS(em.fp_val(Type::Int, 0));
  CHECK(f64(em, 0.1).type() == Type::Float64);
  CHECK(f64(em, 0.1).is_const());
}

TEST_CASE("fp: operators are type-checked, formats never mix implicitly") {
  ExprManager em;
  const Term x = em.var(em.declare("x", Type::Float32));
  const Term y = em.var(em.declare("y", Type::Float64));
  const Term n = em.var(em.declare("n", Type::Int));
  CHECK_THROWS(em.mk(Op::FpAdd, {x, y}));
  CHECK_THROWS(em.mk(Op::FpAdd, {n, n}));
  CHECK_THROWS(em.lt(x, x));  // integer < on a float
  CHECK_THROWS(em.add(x, x));
  CHECK_THROWS(em.mk(Op::FpToFp, {x}));  // conversions name their target
  CHECK(em.mk(Op::FpLt, {x, x}).is_bool());
  CHECK(em.fp_convert(x, Type::Float64).type() == Type::Float64);
  CHECK(em.fp_convert(x, Type::Float32) == x);
  CHECK(em.fp_convert(n, Type::Float32).op() == Op::IntToFp);
  CHECK(em.fp_to_int(y).type() == Type::Int);
  CHECK(em.eq(x, x).is_bool());
  CHECK_THROWS(em.eq(x, y));
  // rebuild keeps the conversion's target and the rounding's mode
  const Term c = em.fp_convert(n, Type::Float64);
  const Term args[] = {em.int_val(3)};
  CHECK(em.rebuild(c, args).type() == Type::Float64);
  const Term r = em.fp_round(x, FpRounding::Down);
  const Term rargs[] = {x};
  CHECK(em.rebuild(r, rargs) == r);
}

TEST_CASE("fp: arithmetic rounds once to nearest even, as the host's SSE") {
  ExprManager em;
  // 0.1f + 0.2f is 0.3f's neighbour above (binary32: 0x3e99999a), not 0.3f.
  CHECK(ev(em.mk(Op::FpAdd, {f32(em, 0.1F), f32(em, 0.2F)})) == 0x3e99999aLL);
  CHECK(as_d(ev(em.mk(Op::FpAdd, {f64(em, 0.1), f64(em, 0.2)}))) == 0.30000000000000004);
  // 2^24 + 1 is not a float: ties to even gives 2^24.
  CHECK(as_f(ev(em.mk(Op::FpAdd, {f32(em, 16777216.0F), f32(em, 1.0F)}))) == 16777216.0F);
  CHECK(as_f(ev(em.mk(Op::FpAdd, {f32(em, 16777216.0F), f32(em, 3.0F)}))) == 16777220.0F);
  // overflow to infinity, underflow to a subnormal and to zero
  CHECK(std::isinf(as_f(ev(em.mk(Op::FpMul, {f32(em, FLT_MAX), f32(em, 2.0F)})))));
  CHECK(ev(em.mk(Op::FpDiv, {f32(em, FLT_MIN), f32(em, 2.0F)})) == 0x00400000LL);
  CHECK(ev(em.mk(Op::FpMul, {f32(em, FLT_TRUE_MIN), f32(em, 0.5F)})) == 0);  // tie to even: +0
  CHECK(ev(em.mk(Op::FpMul, {f32(em, -FLT_TRUE_MIN), f32(em, 0.5F)})) == 0x80000000LL);
  // invalid operations give the canonical NaN; x / 0 is a signed infinity
  CHECK(ev(em.mk(Op::FpDiv, {f64(em, 0.0), f64(em, 0.0)})) == fp::nan64);
  CHECK(ev(em.mk(Op::FpSub, {f32(em, INFINITY), f32(em, INFINITY)})) == fp::nan32);
  CHECK(as_d(ev(em.mk(Op::FpDiv, {f64(em, -1.0), f64(em, 0.0)}))) == -INFINITY);
  CHECK(ev(em.mk(Op::FpSqrt, {f64(em, -1.0)})) == fp::nan64);
  CHECK(ev(em.mk(Op::FpSqrt, {f64(em, -0.0)})) == fp::bits_of(-0.0));
  CHECK(as_d(ev(em.mk(Op::FpSqrt, {f64(em, 2.0)}))) == std::sqrt(2.0));
  CHECK(ev(em.mk(Op::FpNeg, {f32(em, 0.0F)})) == 0x80000000LL);
  CHECK(ev(em.mk(Op::FpAbs, {f32(em, -3.5F)})) == fp::bits_of(3.5F));
}

TEST_CASE("fp: comparisons are IEEE's: NaN unordered, -0 == +0; Eq is identity") {
  ExprManager em;
  const Term nan = f64(em, NAN);
  const Term one = f64(em, 1.0);
  for (Op op : {Op::FpEq, Op::FpLt, Op::FpLe}) {
    CHECK(ev(em.mk(op, {nan, one})) == 0);
    CHECK(ev(em.mk(op, {one, nan})) == 0);
    CHECK(ev(em.mk(op, {nan, nan})) == 0);
  }
  CHECK(ev(em.mk(Op::FpEq, {f64(em, 0.0), f64(em, -0.0)})) == 1);
  CHECK(ev(em.eq(f64(em, 0.0), f64(em, -0.0))) == 0);
  CHECK(ev(em.eq(nan, nan)) == 1);  // SMT-LIB's =, reflexive
  CHECK(ev(em.mk(Op::FpLt, {f64(em, -INFINITY), f64(em, -DBL_MAX)})) == 1);
  CHECK(ev(em.mk(Op::FpLe, {f32(em, 2.0F), f32(em, 2.0F)})) == 1);
}

TEST_CASE("fp: classification") {
  ExprManager em;
  auto is = [&](Op op, Term x) { return ev(em.mk(op, {x})) == 1; };
  CHECK(is(Op::FpIsNan, f32(em, NAN)));
  CHECK_FALSE(is(Op::FpIsNan, f32(em, INFINITY)));
  CHECK(is(Op::FpIsInf, f32(em, -INFINITY)));
  CHECK(is(Op::FpIsZero, f32(em, -0.0F)));
  CHECK(is(Op::FpIsSubnormal, f32(em, FLT_TRUE_MIN)));
  CHECK_FALSE(is(Op::FpIsSubnormal, f32(em, FLT_MIN)));
  CHECK(is(Op::FpIsNormal, f32(em, FLT_MIN)));
  CHECK_FALSE(is(Op::FpIsNormal, f32(em, 0.0F)));
  CHECK(is(Op::FpIsNeg, f64(em, -0.0)));
  CHECK_FALSE(is(Op::FpIsNeg, f64(em, NAN)));  // SMT-LIB: NaN is neither
}

TEST_CASE("fp: rounding to an integral value in each mode") {
  ExprManager em;
  auto r = [&](double x, FpRounding m) { return as_d(ev(em.fp_round(f64(em, x), m))); };
  CHECK(r(2.5, FpRounding::NearestEven) == 2.0);
  CHECK(r(3.5, FpRounding::NearestEven) == 4.0);
  CHECK(r(2.5, FpRounding::NearestAway) == 3.0);
  CHECK(r(-2.5, FpRounding::NearestAway) == -3.0);
  CHECK(r(-2.1, FpRounding::Up) == -2.0);
  CHECK(r(-2.1, FpRounding::Down) == -3.0);
  CHECK(r(-2.9, FpRounding::TowardZero) == -2.0);
  CHECK(std::signbit(r(-0.4, FpRounding::NearestEven)));  // -0, not +0
  CHECK(r(1e300, FpRounding::Down) == 1e300);
}

TEST_CASE("fp: conversions between the formats and to and from integers") {
  ExprManager em;
  // double -> float rounds to nearest even; float -> double is exact
  CHECK(as_f(ev(em.fp_convert(f64(em, 0.1), Type::Float32))) == 0.1F);
  CHECK(as_d(ev(em.fp_convert(f32(em, 0.1F), Type::Float64))) == static_cast<double>(0.1F));
  CHECK(std::isinf(as_f(ev(em.fp_convert(f64(em, 1e300), Type::Float32)))));
  // integer -> float: one rounding, ties to even
  CHECK(as_f(ev(em.fp_convert(em.int_val(16777217), Type::Float32))) == 16777216.0F);
  CHECK(as_f(ev(em.fp_convert(em.int_val(16777219), Type::Float32))) == 16777220.0F);
  CHECK(as_d(ev(em.fp_convert(em.int_val(INT64_MAX), Type::Float64))) == 9223372036854775808.0);
  // 2^64 - 1 (unsigned long long's maximum) exactly, through the exact evaluator
  const Term big = em.sub(em.pow2(em.int_val(64)), em.int_val(1));
  const auto u = evaluate_big(em.fp_convert(big, Type::Float64), EmptyBigValuation{});
  REQUIRE(u);
  CHECK(fp::to_double(static_cast<std::int64_t>(*u)) == 18446744073709551616.0);
  CHECK_FALSE(ev(em.fp_convert(big, Type::Float64)));  // int64's evaluator: unknown
  // float -> integer truncates toward zero; 0 for NaN and infinities
  CHECK(ev(em.fp_to_int(f64(em, -2.9))) == -2);
  CHECK(ev(em.fp_to_int(f64(em, 2.9))) == 2);
  CHECK(ev(em.fp_to_int(f64(em, -0.5))) == 0);
  CHECK(ev(em.fp_to_int(f64(em, 1e15 + 0.5))) == 1000000000000000LL);
  CHECK(ev(em.fp_to_int(f64(em, 9007199254740993.0))) == 9007199254740992LL);
  CHECK(ev(em.fp_to_int(f64(em, 1e18))) == 1000000000000000000LL);
  CHECK(ev(em.fp_to_int(f64(em, NAN))) == 0);
  CHECK(ev(em.fp_to_int(f32(em, -INFINITY))) == 0);
  CHECK_FALSE(ev(em.fp_to_int(f64(em, 1e19))));  // beyond int64: unknown, not wrong
  const auto e = evaluate_big(em.fp_to_int(f64(em, 1e19)), EmptyBigValuation{});
  REQUIRE(e);
  CHECK(*e == BigInt("10000000000000000000"));
}

TEST_CASE("fp: folding a ground term gives a constant of the same type") {
  ExprManager em;
  const Term t = em.mk(Op::FpMul, {f32(em, 3.0F), f32(em, 0.5F)});
  const Term c = fold_ground(em, t);
  CHECK(c.op() == Op::FpConst);
  CHECK(c.type() == Type::Float32);
  CHECK(as_f(OptValue(c.value())) == 1.5F);
}

TEST_CASE("fp: variables are valued by bit pattern") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Float64);
  const Term sum = em.mk(Op::FpAdd, {em.var(x), f64(em, 1.0)});
  auto val = [&](VarId) -> OptValue { return fp::bits_of(2.25); };
  CHECK(as_d(evaluate(sum, val)) == 3.25);
  CHECK_FALSE(evaluate(sum, EmptyValuation{}));
}

TEST_CASE("fp: text reads back exactly; C literals have the type's suffix") {
  for (float f : {0.1F, -0.0F, FLT_TRUE_MIN, FLT_MAX, 1.0F / 3.0F, 16777216.0F, 1e-30F}) {
    const auto b = fp::bits_of(f);
    CHECK(fp::parse(Type::Float32, fp::to_text(Type::Float32, b)) == b);
    const std::string lit = fp::c_literal(Type::Float32, b);
    CHECK(lit.back() == 'f');
    CHECK(fp::parse(Type::Float32, lit) == b);
  }
  for (double d : {0.1, -0.0, DBL_TRUE_MIN, DBL_MAX, 1.0 / 3.0, 1e300, 5e-324}) {
    const auto b = fp::bits_of(d);
    CHECK(fp::parse(Type::Float64, fp::to_text(Type::Float64, b)) == b);
    CHECK(fp::parse(Type::Float64, fp::c_literal(Type::Float64, b)) == b);
  }
  CHECK(fp::c_literal(Type::Float64, fp::bits_of(3.0)) == "3.0");
  CHECK(fp::c_literal(Type::Float32, fp::nan32) == "(0.0f / 0.0f)");
  CHECK(fp::c_literal(Type::Float64, fp::bits_of(-INFINITY)) == "(-1.0 / 0.0)");
  CHECK(fp::to_text(Type::Float32, fp::nan32) == "nan");
  CHECK(fp::parse(Type::Float64, "0x1.8p1") == fp::bits_of(3.0));
  CHECK_FALSE(fp::parse(Type::Float64, "one"));
  ExprManager em;
  const Term x = em.var(em.declare("x", Type::Float32));
  CHECK(to_string(em.mk(Op::FpLt, {x, f32(em, 0.5F)}), em) == "fp.lt(x, fp32(0.5))");
  CHECK(to_string(em.fp_round(x, FpRounding::Down), em) == "fp.round.floor(x)");
  CHECK(to_string(em.fp_convert(x, Type::Float64), em) == "fp.to_fp64(x)");
}

}  // namespace floating_point_test
