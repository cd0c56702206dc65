// The floating-point half of the BOX domain (domains/box/float_interval.hpp, box.hpp):
// lattice laws, soundness of every operation against the host's IEEE arithmetic on
// sampled members, refinement by comparisons, and gamma as a formula.

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "precis/domains/box/box.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/expr/printer.hpp"

using namespace precis;

namespace float_box_test {

namespace {

constexpr double kInf = INFINITY;

std::vector<FloatInterval> samples() {
  return {FloatInterval::top(),
          FloatInterval::bottom(),
          FloatInterval::nan_only(),
          FloatInterval::range(0, 0),
          FloatInterval::range(-1, 1),
          FloatInterval::range(0.5, 3, true),
          FloatInterval::range(-kInf, -2),
          FloatInterval::range(1e30, kInf),
          FloatInterval::range(-FLT_MAX, FLT_MAX),
          FloatInterval::range(FLT_TRUE_MIN, FLT_MIN)};
}

// Members of a range, of format float: its ends, zero, a few inside, NaN if it may be.
std::vector<float> members(const FloatInterval& r, std::mt19937& rng) {
  std::vector<float> m;
  if (r.may_be_nan()) m.push_back(NAN);
  if (!r.has_range()) return m;
  for (double end : {r.lo(), r.hi()})
    if (r.contains(static_cast<float>(end))) m.push_back(static_cast<float>(end));
  if (r.contains_zero()) m.push_back(0.0F), m.push_back(-0.0F);
  const double lo = std::max(r.lo(), -1e6), hi = std::min(r.hi(), 1e6);
  if (lo <= hi) {
    std::uniform_real_distribution<double> u(lo, hi);
    for (int i = 0; i < 6; ++i) {
      const auto f = static_cast<float>(u(rng));
      if (r.contains(f)) m.push_back(f);
    }
  }
  return m;
}

bool holds(const FloatInterval& r, float v) {
  if (std::isnan(v)) return r.may_be_nan();
  return r.contains(static_cast<double>(v));
}

}  // namespace

TEST_CASE("float intervals: lattice laws") {
  const auto xs = samples();
  for (const auto& a : xs) {
    CHECK(a.leq(a));
    CHECK(FloatInterval::bottom().leq(a));
    CHECK(a.leq(FloatInterval::top()));
    CHECK(a.join(a) == a);
    CHECK(a.meet(a) == a);
    for (const auto& b : xs) {
      const FloatInterval j = a.join(b), m = a.meet(b), w = a.widen(b);
      CHECK(a.leq(j));
      CHECK(b.leq(j));
      CHECK(m.leq(a));
      CHECK(m.leq(b));
      CHECK(j == b.join(a));
      CHECK(a.leq(w));
      CHECK(b.leq(w));
      CHECK(a.narrow(b).leq(a));
    }
  }
  // widening chains are finite: an end moving up reaches infinity in at most 40 steps
  FloatInterval w = FloatInterval::range(0, 1);
  int steps = 0;
  while (w.hi() != kInf && steps < 100) {
    w = w.widen(FloatInterval::range(0, w.hi() * 2 + 1));
    ++steps;
  }
  CHECK(steps < 45);
}

TEST_CASE("float intervals: every operation contains the host's result on members") {
  std::mt19937 rng(7);
  const auto xs = samples();
  std::size_t checked = 0;
  for (const auto& a : xs)
    for (const auto& b : xs) {
      const FloatInterval add = FloatInterval::add(Type::Float32, a, b);
      const FloatInterval sub = FloatInterval::sub(Type::Float32, a, b);
      const FloatInterval mul = FloatInterval::mul(Type::Float32, a, b);
      const FloatInterval div = FloatInterval::div(Type::Float32, a, b);
      for (float x : members(a, rng))
        for (float y : members(b, rng)) {
          CAPTURE(x);
          CAPTURE(y);
          CHECK(holds(add, x + y));
          CHECK(holds(sub, x - y));
          CHECK(holds(mul, x * y));
          CHECK(holds(div, x / y));
          ++checked;
        }
      for (float x : members(a, rng)) {
        CHECK(holds(FloatInterval::sqrt(Type::Float32, a), std::sqrt(x)));
        CHECK(holds(FloatInterval::abs(a), std::fabs(x)));
        CHECK(holds(FloatInterval::neg(a), -x));
        CHECK(holds(FloatInterval::round(Type::Float32, a, FpRounding::Down), std::floor(x)));
        CHECK(holds(FloatInterval::convert(Type::Float32, a), x));
      }
    }
  CHECK(checked > 1000);
}

TEST_CASE("box: float ranges through a loop, a guard and a conversion") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Float32);
  const VarId i = em.declare("i", Type::Int);
  const Term half = em.fp_val(Type::Float32, fp::bits_of(0.5F));
  BoxDomain d;
  Box head = d.post(d.top(), Assign{x, em.fp_val(Type::Float32, 0)});
  head = d.post(head, Assign{i, em.int_val(0)});
  for (int k = 0; k < 6; ++k) {
    Box b = d.post(head, Assume{em.lt(em.var(i), em.int_val(10))});
    b = d.post(b, Assign{x, em.mk(Op::FpAdd, {em.var(x), half})});
    b = d.post(b, Assign{i, em.add(em.var(i), em.int_val(1))});
    head = k < 3 ? d.join(head, b) : d.widen(head, d.join(head, b));
  }
  const FloatInterval fx = head.get_float(x);
  CHECK(fx.lo() == 0.0);
  CHECK(fx.hi() >= 5.0);  // widened to a threshold
  CHECK_FALSE(fx.may_be_nan());
  // x < 3 bounds x strictly, by the format's neighbour below 3
  const Box c = d.post(
      head, Assume{em.mk(Op::FpLt, {em.var(x), em.fp_val(Type::Float32, fp::bits_of(3.0F))})});
  CHECK(c.get_float(x).hi() == static_cast<double>(std::nextafter(3.0F, 0.0F)));
  // !(x <= 3) for an unknown x: x > 3, or NaN
  const Box n = d.post(
      d.top(),
      Assume{em.not_(em.mk(Op::FpLe, {em.var(x), em.fp_val(Type::Float32, fp::bits_of(3.0F))}))});
  CHECK(n.get_float(x).may_be_nan());
  CHECK(n.get_float(x).lo() > 3.0);
  // x != x: only NaN; x == x: not NaN
  CHECK(d.post(d.top(), Assume{em.mk(Op::FpIsNan, {em.var(x)})}).get_float(x).has_range() == false);
  CHECK_FALSE(
      d.post(d.top(), Assume{em.not_(em.mk(Op::FpIsNan, {em.var(x)}))}).get_float(x).may_be_nan());
  // (int)(x * 100) for x in [-1, 1]
  Box t = d.post(
      d.top(), Assume{em.mk(Op::FpLe, {em.fp_val(Type::Float32, fp::bits_of(-1.0F)), em.var(x)})});
  t = d.post(t, Assume{em.mk(Op::FpLe, {em.var(x), em.fp_val(Type::Float32, fp::bits_of(1.0F))})});
  t = d.post(
      t, Assign{i, em.fp_to_int(em.mk(
                       Op::FpMul, {em.var(x), em.fp_val(Type::Float32, fp::bits_of(100.0F))}))});
  CHECK(t.get(i) == Interval{-100, 100});
  // a contradiction is bottom
  CHECK(d.post(t, Assume{em.mk(Op::FpLt, {em.fp_val(Type::Float32, fp::bits_of(2.0F)), em.var(x)})})
            .is_bottom());
}

TEST_CASE("box: gamma of float ranges holds on members and excludes the rest") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Float32);
  BoxDomain d;
  Box b = d.post(
      d.top(), Assume{em.mk(Op::FpLe, {em.fp_val(Type::Float32, fp::bits_of(0.25F)), em.var(x)})});
  b = d.post(b, Assume{em.mk(Op::FpLt, {em.var(x), em.fp_val(Type::Float32, fp::bits_of(8.0F))})});
  const Term g = to_formula(b, em);
  CAPTURE(to_string(g, em));
  auto at = [&](float v) { return evaluate(g, [&](VarId) -> OptValue { return fp::bits_of(v); }); };
  CHECK(at(0.25F) == 1);
  CHECK(at(std::nextafter(8.0F, 0.0F)) == 1);
  CHECK(at(8.0F) == 0);
  CHECK(at(0.0F) == 0);
  CHECK(at(NAN) == 0);
  // a widened end (1e38 is no float) is rounded outward in the formula
  Box w;
  w.set_float(x, FloatInterval::range(0, 1e38, true));
  const Term gw = to_formula(w, em);
  auto atw = [&](float v) {
    return evaluate(gw, [&](VarId) -> OptValue { return fp::bits_of(v); });
  };
  CHECK(atw(1e38F) == 1);
  CHECK(atw(NAN) == 1);
  CHECK(atw(-1.0F) == 0);
}

}  // namespace float_box_test
